"""The command line: help everywhere, summaries, exit codes, output formats."""

from __future__ import annotations

import json
import subprocess
import sys

import pyarrow.parquet as pq
import pytest

from histkit.cli import command_names, main
from tests.conftest import POKERSTARS, needs_corpus
from tests.test_packaging import HAND


def test_every_command_has_help(capsys: pytest.CaptureFixture[str]) -> None:
    names = command_names()
    assert {"parse", "audit"} <= set(names)
    for name in names:
        with pytest.raises(SystemExit) as e:
            main([name, "--help"])
        assert e.value.code == 0
        assert f"usage: histkit {name}" in capsys.readouterr().out


def test_no_command_prints_help_and_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 2
    assert "usage: histkit" in capsys.readouterr().err


def test_console_script_version() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "histkit", "--version"], capture_output=True, text=True
    )
    assert out.returncode == 0 and out.stdout.startswith("histkit ")


def test_missing_path_is_usage_error(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["parse", str(tmp_path / "nope.txt"), "-o", str(tmp_path / "o")]) == 2
    assert "no such file or folder" in capsys.readouterr().err
    assert main(["audit", str(tmp_path / "nope.txt")]) == 2


def test_parse_and_audit_a_small_file(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "h.txt"
    second = HAND.replace("1000000001", "1000000002").replace("Wheel Test", "Other")
    f.write_text(HAND + "\n\n" + second)
    assert main(["parse", str(f), "-o", str(tmp_path / "out"), "--audit"]) == 0
    out = capsys.readouterr().out
    assert "Parsed 2 stud hands:\n  pokerstars: stud_hilo 2\n" in out and "Rejected 0 hands." in out
    for name in ("hands", "seats", "actions", "cards", "errors", "awards", "violations"):
        assert (tmp_path / "out" / f"{name}.parquet").exists()
    assert pq.read_table(tmp_path / "out" / "hands.parquet").num_rows == 2
    assert main(["audit", str(f)]) == 0
    assert "OK: 2 hands audited under 'pokerstars', no violation." in capsys.readouterr().out
    # the same table: the second hand's stacks must carry over from the first
    f.write_text(HAND + "\n\n" + HAND.replace("1000000001", "1000000002"))
    assert main(["audit", str(f), "--format", "json"]) == 1
    # one player's chips vanish (an error); the other's appear (a top-up no site writes: info)
    assert json.loads(capsys.readouterr().out)["by_code"] == {"STACK_CONTINUITY": 1}


def test_bad_profile_is_usage_error(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "h.txt"
    f.write_text(HAND)
    assert main(["audit", str(f), "--profile", "nosuch"]) == 2
    assert "no such profile" in capsys.readouterr().err
    toml = tmp_path / "p.toml"
    toml.write_text("max_raises = 4\nbogus = 1\n")
    assert main(["audit", str(f), "--profile", str(toml)]) == 2
    assert "unknown profile keys" in capsys.readouterr().err


@needs_corpus
def test_parse_corpus_summary(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["parse", str(POKERSTARS), "-o", str(tmp_path), "--strict"]) == 0
    out = capsys.readouterr().out
    assert "Parsed 86 stud hands:\n  pokerstars: razz 28, stud 30, stud_hilo 28\n" in out
    assert "Skipped 84 hands of other games" in out
    assert "Rejected 0 hands." in out
    errors = pq.read_table(tmp_path / "errors.parquet").to_pandas()
    assert len(errors) == 84 and set(errors["kind"]) == {"skipped"}


@needs_corpus
def test_audit_corpus_clean_in_every_format(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", str(POKERSTARS)]) == 0
    out = capsys.readouterr().out
    # hand 35874676388 is in two of the files: audited once, its copy counted
    assert "OK: 85 hands audited under 'pokerstars', no violation." in out
    assert "Duplicates: 1 hand read more than once; 1 copy not audited again" in out
    assert main(["audit", str(POKERSTARS), "--format", "json", "-o", str(tmp_path / "a.json")]) == 0
    data = json.loads((tmp_path / "a.json").read_text())
    assert data["hands"] == 85 and data["violations"] == [] and data["by_code"] == {}
    assert main(["audit", str(POKERSTARS), "--format", "csv"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines == [
        "hand_id,code,severity,street,line,expected,reported,message,seq,caused_by,site,"
        "source_file,caused_by_hand"
    ]


@needs_corpus
def test_audit_flags_a_planted_fault(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    src = POKERSTARS / "stud-hilo" / "7-StudHL-USD-0.98-0.12-202302.allin.ante.txt"
    text = src.read_text(encoding="utf-8-sig")
    # the total pot in the summary no longer matches the chips put in
    bad = text.replace("Total pot 620 Main pot 320.", "Total pot 630 Main pot 330.")
    assert bad != text
    f = tmp_path / "bad.txt"
    f.write_text(bad)
    assert main(["audit", str(f), "--format", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["hands"] == 1
    assert "POT_TOTAL" in data["by_code"]
    v = data["violations"][0]
    assert set(v) >= {
        "hand_id",
        "code",
        "severity",
        "street",
        "line",
        "expected",
        "reported",
        "message",
    }
    assert v["hand_id"] == "241636097024"
    assert main(["audit", str(f)]) == 1
    assert "FAIL: 1 hand audited under 'pokerstars'" in capsys.readouterr().out


@pytest.mark.slow
def test_audit_csv_names_each_findings_site_and_file(
    tmp_path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two sites' files with planted faults: each CSV row says which site's hand and which
    file its line is in, the same whether replayed or read from the stored audit."""
    import csv
    import io

    files = {}
    for site in ("pokerstars", "fulltilt"):
        files[site] = tmp_path / f"{site}.txt"
        argv = ["simulate", "--site", site, "--hands", "60", "--faults", "0.2", "--seed", "3"]
        assert main([*argv, "-o", str(files[site]), "-q"]) == 0
    capsys.readouterr()

    def rows(*argv: str) -> list[dict[str, str]]:
        assert main(["audit", *argv, "-q", "--format", "csv"]) == 1
        return list(csv.DictReader(io.StringIO(capsys.readouterr().out)))

    replayed = rows(*map(str, files.values()))
    assert {r["site"] for r in replayed} == {"pokerstars", "fulltilt"}
    for r in replayed:
        text = files[r["site"]].read_text(encoding="utf-8").splitlines()
        assert r["source_file"] == str(files[r["site"]])
        assert r["hand_id"] in "\n".join(text[: int(r["line"])])  # its line is in that file
    out = tmp_path / "tables"
    assert main(["parse", *map(str, files.values()), "--audit", "-o", str(out), "-q"]) in (0, 1)
    capsys.readouterr()
    assert rows(str(out)) == replayed


def test_simulate_is_reproducible_and_its_faults_are_found(
    tmp_path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    argv = ["simulate", "--game", "stud_hilo", "--hands", "120", "--seed", "5", "--faults", "0.2"]
    assert main([*argv, "-o", str(a)]) == 0
    assert main([*argv, "-o", str(b), "-q"]) == 0
    assert a.read_bytes() == b.read_bytes()
    truth = [json.loads(x) for x in (tmp_path / "a.truth.jsonl").read_text().splitlines()]
    assert truth and all(t["fault"] != "wrong_rake" for t in truth)
    capsys.readouterr()
    assert main(["audit", str(a), "--format", "json"]) == 1
    found = json.loads(capsys.readouterr().out)["violations"]
    assert {(v["hand_id"], v["code"]) for v in found} == {(t["hand_id"], t["code"]) for t in truth}


def test_simulate_rake_faults_come_with_a_profile(
    tmp_path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "r.txt"
    argv = ["simulate", "--game", "razz", "--hands", "80", "--seed", "3", "--faults", "0.3"]
    assert main([*argv, "--fault-kinds", "wrong_rake", "-o", str(f)]) == 0
    toml = tmp_path / "r.txt.profile.toml"
    assert toml.exists()
    capsys.readouterr()
    assert main(["audit", str(f), "--format", "json", "--profile", str(toml)]) == 1
    data = json.loads(capsys.readouterr().out)
    n = len((tmp_path / "r.truth.jsonl").read_text().splitlines())
    assert n > 0 and data["by_code"] == {"RAKE": n}


def test_simulate_usage_errors(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    out = str(tmp_path / "x.txt")
    assert main(["simulate", "--stakes", "abc", "-o", out]) == 2
    assert "stakes must look like" in capsys.readouterr().err
    assert main(["simulate", "--fault-kinds", "nope", "--faults", "0.1", "-o", out]) == 2
    assert main(["simulate", "--tournament", "--stakes", "0.1/0.2", "-o", out]) == 2
    with pytest.raises(SystemExit):
        main(["simulate", "--players", "9", "-o", out])
