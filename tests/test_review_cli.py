"""The command line as a new user meets it (issue 15, "Seen"): every mistake is one line
naming the fix (exit 2) before any work is done, the help says what each option takes, and
long work shows how far it has got."""

from __future__ import annotations

import io
import json
import os
import stat
import sys
import threading
from pathlib import Path

import pytest

from histkit.cli import main
from histkit.simulate import truth_path, write_session
from tests.conftest import SAMPLE_DATA

RAZZ = SAMPLE_DATA / "razz_cash_200.txt"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    rc = main(list(argv))
    got = capsys.readouterr()
    return rc, got.out, got.err


def one_line_usage_error(rc: int, err: str) -> str:
    """The message of a usage error, asserting its form: exit 2, one line, no traceback."""
    assert rc == 2, err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert "Traceback" not in err and "error:" in lines[0]
    return lines[0]


@pytest.fixture
def no_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail the test if any hand history is read: the mistake must be said first."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("work started before the options were checked")

    monkeypatch.setattr("histkit.parallel.run", refuse)
    monkeypatch.setattr("histkit.sources.load", refuse)
    monkeypatch.setattr("histkit.simulate.write_session", refuse)


# ------------------------------------------------------------------ tracebacks


@pytest.mark.parametrize("command", ["parse", "audit", "stats", "report"])
def test_an_unknown_site_is_a_usage_error(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], no_work: None
) -> None:
    extra = {"parse": ["-o", str(tmp_path / "o")], "report": ["-o", str(tmp_path / "r.html")]}
    rc, _, err = run(capsys, command, str(RAZZ), "--dialect", "nope", *extra.get(command, []))
    assert "unknown site 'nope'" in one_line_usage_error(rc, err)


def test_parse_into_an_existing_file_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], no_work: None
) -> None:
    (tmp_path / "f").write_text("x")
    rc, _, err = run(capsys, "parse", str(RAZZ), "-o", str(tmp_path / "f"))
    assert "is a file, not a folder" in one_line_usage_error(rc, err)


@pytest.mark.parametrize(
    "argv",
    [
        ["report", str(RAZZ), "-o", "{missing}/r.html"],
        ["simulate", "--hands", "5", "-o", "{missing}/s.txt"],
        ["stats", str(RAZZ), "-o", "{missing}/s.csv"],
        ["audit", str(RAZZ), "-o", "{missing}/a.json"],
        ["report", str(RAZZ), "-o", "{tmp}"],
    ],
    ids=lambda a: a[0] + (" folder" if a[-1] == "{tmp}" else " missing folder"),
)
def test_an_output_that_cannot_be_written_is_said_before_any_work(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str], no_work: None
) -> None:
    argv = [a.format(missing=tmp_path / "no" / "such", tmp=tmp_path) for a in argv]
    rc, _, err = run(capsys, *argv)
    message = one_line_usage_error(rc, err)
    assert "does not exist" in message or "is a folder" in message
    assert ".tmp-" not in message  # names the user's file, not an internal one


@pytest.mark.parametrize(
    ("toml", "said"),
    [
        ('max_raises = "four"', "max_raises takes a whole number"),
        ("odd_chip = 3", "odd_chip takes one of by_card, by_seat"),
        ('heads_up_uncapped = "yes"', "heads_up_uncapped takes true or false"),
        ('suit_order = "cdhs"', "suit_order takes a list of suits"),
        ("max_raises = [", "not a valid TOML file"),
    ],
)
def test_a_profile_with_a_wrongly_typed_value_is_a_usage_error(
    toml: str, said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], no_work: None
) -> None:
    profile = tmp_path / "house.toml"
    profile.write_text(toml + "\n")
    rc, _, err = run(capsys, "audit", str(RAZZ), "--profile", str(profile), "--jobs", "2")
    message = one_line_usage_error(rc, err)
    assert said in message and str(profile) in message


def test_a_wrong_option_value_is_one_line_naming_help(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["stats", str(RAZZ), "--by", "bogus"])
    message = one_line_usage_error(int(exit_.value.code or 0), capsys.readouterr().err)
    assert "--by" in message and "histkit stats --help" in message


@pytest.mark.parametrize(
    ("option", "said"),
    [
        (["--limit", "-1"], "--limit must be 0 or more"),
        (["--session-gap", "0"], "--session-gap must be 1 to"),
        (["--session-gap", "99999999999999"], "--session-gap must be 1 to"),
        (["--min-hands", "-1"], "--min-hands must be 0 or more"),
    ],
)
def test_each_stats_option_has_its_own_message(
    option: list[str], said: str, capsys: pytest.CaptureFixture[str], no_work: None
) -> None:
    rc, _, err = run(capsys, "stats", str(RAZZ), *option)
    message = one_line_usage_error(rc, err)
    assert said in message
    others = {"--limit", "--session-gap", "--min-hands"} - {option[0]}
    assert not any(o in message for o in others), message


# ------------------------------------------------------------------------- help


def test_every_command_s_help_has_examples(capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("parse", "audit", "stats", "report", "simulate", "import", "db"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        assert "examples:\n  histkit " + command in capsys.readouterr().out, command


def test_audit_help_describes_its_formats(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["audit", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "text" in out and "json" in out and "csv" in out and "one row per violation" in out


@pytest.mark.slow
def test_stats_and_simulate_take_the_same_game_spellings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for spelling in ("hilo", "stud8", "Stud_HiLo"):
        rc, _, err = run(capsys, "simulate", "--game", spelling, "--hands", "3", "-o",
                         str(tmp_path / "s.txt"), "-q")  # fmt: skip
        assert rc == 0, err
        assert "7 Card Stud Hi/Lo" in (tmp_path / "s.txt").read_text()
        rc, out, err = run(capsys, "stats", str(tmp_path / "s.txt"), "--game", spelling, "-q")
        assert rc == 0 and "Hero" in out, err


@pytest.mark.slow
def test_stats_and_report_are_quiet_on_asking(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rc, _, err = run(capsys, "stats", str(RAZZ), "-q", "--jobs", "1")
    assert rc == 0 and err == ""
    rc, _, err = run(capsys, "report", str(RAZZ), "-q", "-o", str(tmp_path / "r.html"))
    assert rc == 0 and err == ""


# --------------------------------------------------------------------- simulate


def test_simulate_players_is_a_number_said_in_plain_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], no_work: None
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["simulate", "--players", "2-8", "-o", str(tmp_path / "s.txt")])
    message = one_line_usage_error(int(exit_.value.code or 0), capsys.readouterr().err)
    assert "_players" not in message and "2 to 8" in message


def test_simulate_seats_sets_the_table_size(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "s.txt"
    rc, _, err = run(capsys, "simulate", "--players", "5", "--seats", "5", "--hands", "20",
                     "-o", str(out), "-q")  # fmt: skip
    assert rc == 0, err
    text = out.read_text()
    assert "' 5-max" in text and "' 8-max" not in text
    seated = [line for line in text.split("\n\n\n")[0].splitlines() if line.startswith("Seat ")]
    assert len({line.split(":")[0] for line in seated}) <= 5
    rc, _, err = run(capsys, "simulate", "--players", "6", "--seats", "4", "-o", str(out))
    assert "--seats 4" in one_line_usage_error(rc, err)


@pytest.mark.parametrize(
    ("option", "said", "not_said"),
    [
        (["--seats", "9"], "a stud table has 2 to 8 seats, not 9", "players"),
        (["--stakes", "0.08/0.04"], "the small bet is above the big bet", "Stakes("),
        (["--stakes", "0.02/0.04"], "the small bet must be 0.03 or more", "Stakes("),
        (["--currency", "yen"], "unknown currency 'yen': choose USD, EUR, GBP", "Traceback"),
        (["--hero", " "], "--hero: an empty name", "Traceback"),
        (["--faults", "0.2", "--fault-kinds", ","], "--fault-kinds: name at least one", "()"),
    ],
)
def test_simulate_options_are_said_in_words(
    option: list[str],
    said: str,
    not_said: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    no_work: None,
) -> None:
    try:
        rc = main(["simulate", *option, "-o", str(tmp_path / "s.txt")])
    except SystemExit as exit_:  # argparse's own check of a value
        rc = int(exit_.code or 0)
    message = one_line_usage_error(rc, capsys.readouterr().err)
    assert said in message and not_said not in message


@pytest.mark.skipif(
    not Path("/proc/self").is_dir(), reason="needs /proc (a folder no file goes in)"
)
@pytest.mark.parametrize("faults", ["0", "0.2"])
def test_simulate_names_the_file_it_cannot_write(
    faults: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """The user's file, not the temporary name it is written under."""
    rc, _, err = run(capsys, "simulate", "--hands", "3", "--faults", faults, "-o", "/proc/s.txt")
    message = one_line_usage_error(rc, err)
    assert "cannot write /proc/s.txt:" in message and ".tmp-" not in message


def test_simulate_currency_in_any_case_listed_in_help(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    assert "USD, EUR, GBP, in any case" in " ".join(capsys.readouterr().out.split())
    out = tmp_path / "s.txt"
    rc, _, err = run(capsys, "simulate", "--currency", "gbp", "--hands", "3", "-o", str(out), "-q")
    assert rc == 0, err
    assert "(£0.04/£0.08 GBP)" in out.read_text().splitlines()[0]


@pytest.mark.parametrize(("players", "table"), [(2, 2), (5, 6), (6, 6), (7, 8), (8, 8)])
def test_simulate_deals_at_the_smallest_table_that_seats_the_players(
    players: int, table: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """As a site would: 5 players at a 6-max table, not at an 8-max one (--seats: any size)."""
    out = tmp_path / "s.txt"
    rc, _, err = run(capsys, "simulate", "--players", str(players), "--hands", "4",
                     "--game", "razz", "-o", str(out), "-q")  # fmt: skip
    assert rc == 0, err
    sizes = {line.split("' ")[1].split()[0] for line in out.read_text().splitlines()
             if line.startswith("Table '")}  # fmt: skip
    assert sizes == {f"{table}-max"}


@pytest.mark.slow
def test_faults_is_the_share_of_hands_with_a_fault(tmp_path: Path) -> None:
    out = tmp_path / "f.txt"
    report = write_session(out, "stud_hilo", 1000, players=8, seed=7, faults=0.1,
                           fault_kinds=("low_half_wrong_player", "odd_chip_wrong_half",
                                        "side_pot_ineligible"))  # fmt: skip
    assert report.sidecar == truth_path(out) == tmp_path / "f.truth.jsonl"
    faulted = len(report.sidecar.read_text().splitlines())
    assert faulted == report.faults
    assert 70 <= faulted <= 130, faulted  # 10% of 1,000 hands, give or take chance


# ----------------------------------------------------------------------- progress


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def _bars(monkeypatch: pytest.MonkeyPatch, desc: str, *argv: str, done: bool = True) -> list[str]:
    """The frames of the progress bar `desc` a command draws on a terminal (`done`: one
    of them at 100%)."""
    screen = _Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    assert main(list(argv)) == 0
    frames = screen.getvalue().replace("\r", "\n").splitlines()
    bars = [f for f in frames if f.startswith(f"{desc}:") and "%|" in f]
    assert bars, frames[:5]
    assert any("100%|" in f for f in bars) or not done
    assert any("<" in f.split("[", 1)[1] for f in bars)  # elapsed<left
    return bars


@pytest.mark.slow
def test_progress_shows_the_share_done_and_the_time_left(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = str(tmp_path / "o")
    bars = _bars(monkeypatch, "parsing", "parse", str(SAMPLE_DATA), "-o", out, "--jobs", "1")
    assert any(" hands]" in f for f in bars)


@pytest.mark.slow
@pytest.mark.parametrize("command", ["export", "import"])
def test_export_and_import_show_the_share_of_bytes_read(
    command: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if command == "import":
        pytest.importorskip("duckdb")
        argv = ["import", str(SAMPLE_DATA), "--db", str(tmp_path / "h.duckdb"), "--jobs", "1"]
    else:
        argv = ["export", str(SAMPLE_DATA), "-o", str(tmp_path / "phh")]
    bars = _bars(monkeypatch, f"{command}ing", *argv)
    assert any("B/" in f.split("|")[2] for f in bars)  # bytes read of the input's size
    assert any(" hands]" in f for f in bars)


def test_simulate_shows_the_share_of_hands_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("histkit.commands.simulate.BAR_FROM", 30)
    argv = ["simulate", "--game", "razz", "--hands", "30", "-o", str(tmp_path / "s.txt")]
    bars = _bars(monkeypatch, "simulating", *argv, done=False)  # a frame every 0.1 s
    assert any("/30.0 [" in f for f in bars)  # hands made of the hands asked for


def test_truth_sidecar_of_the_sample_is_where_the_simulator_puts_it() -> None:
    faults = SAMPLE_DATA / "stud_hilo_faults_200.txt"
    assert truth_path(faults).is_file()
    first = json.loads(truth_path(faults).read_text().splitlines()[0])
    assert f"Hand #{first['hand_id']}:" in faults.read_text()


# --------------------------------------------------- every option, checked up front


def _usage_error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """The one-line message of a command line refused (by argparse or by the command)."""
    capsys.readouterr()
    try:
        rc = main(list(argv))
    except SystemExit as exit_:
        rc = int(exit_.code or 0)
    return one_line_usage_error(rc, capsys.readouterr().err)


@pytest.mark.parametrize(
    "argv",
    [
        ["parse", "", "-o", "{tmp}/o"],
        ["parse", "{razz}", "-o", ""],
        ["stats", ""],
        ["stats", "--db", ""],
        ["audit", "{razz}", "-o", " "],
        ["report", "{razz}", "-o", ""],
        ["export", "{razz}", "-o", ""],
        ["import", "", "--db", "{tmp}/h.duckdb"],
        ["simulate", "-o", ""],
        ["db", "--db", ""],
        ["watch", ""],
    ],
    ids=lambda a: " ".join(a).replace("{razz}", "R").replace("{tmp}", "T"),
)
def test_an_empty_path_is_a_usage_error(
    argv: list[str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    no_work: None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An empty path is the working folder: read, or written into, unasked."""
    monkeypatch.chdir(tmp_path)
    argv = [a.format(razz=RAZZ, tmp=tmp_path) for a in argv]
    assert "an empty path" in _usage_error(capsys, *argv)
    assert sorted(p.name for p in tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    ("keys", "said"),
    [
        ("", "no keys"),
        (" , ", "no keys"),
        ("game,,date", "an empty key"),
        ("game,game", "game given twice"),
        ("day", "unknown key 'day'"),
    ],
)
def test_partition_keys_are_checked_up_front(
    keys: str, said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], no_work: None
) -> None:
    message = _usage_error(
        capsys, "parse", str(RAZZ), "-o", str(tmp_path / "o"), "--partition-by", keys
    )
    assert "--partition-by" in message and said in message
    assert not (tmp_path / "o").exists()


def test_a_sink_partitioned_by_a_key_twice_is_refused(tmp_path: Path) -> None:
    from histkit.warehouse import ParquetSink, WarehouseError

    with pytest.raises(WarehouseError, match="each key once"):
        ParquetSink(tmp_path / "o", partition_by=("game", "game"))


def test_too_many_jobs_is_a_usage_error(
    capsys: pytest.CaptureFixture[str], no_work: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each job is a process started at once: --jobs 99999 would stall the machine."""
    monkeypatch.setattr("histkit.parallel.default_jobs", lambda: 2)
    for command in (["stats", str(RAZZ)], ["import", str(RAZZ), "--db", "x.duckdb"]):
        message = _usage_error(capsys, *command, "--jobs", "99999")
        assert "--jobs 99,999" in message and "at most 8 (2 cores here" in message
    assert main(["stats", str(RAZZ), "--jobs", "8", "-q"]) == 3  # accepted: the work begins
    assert "work started" in capsys.readouterr().err


@pytest.mark.parametrize("interval", ["nan", "inf", "0", "-1", "1e9"])
def test_watch_interval_is_a_finite_time(
    interval: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    message = _usage_error(capsys, "watch", str(tmp_path), f"--interval={interval}")
    assert "--interval must be more than 0 and at most 86,400 seconds" in message


@pytest.mark.parametrize(
    ("profile", "said"),
    [("", "--profile: an empty name"), ("{tmp}", "is a folder; name a TOML file")],
)
def test_audit_profile_is_named(
    profile: str, said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], no_work: None
) -> None:
    message = _usage_error(capsys, "audit", str(RAZZ), "--profile", profile.format(tmp=tmp_path))
    assert said in message


@pytest.mark.parametrize("flag", ["--player", "--table", "--stakes"])
def test_an_empty_filter_is_a_usage_error(
    flag: str, capsys: pytest.CaptureFixture[str], no_work: None
) -> None:
    """Not "no filter" (stats) nor "no hands of a player ''" (report)."""
    assert f"{flag}: an empty value" in _usage_error(capsys, "stats", str(RAZZ), flag, " ")


def test_db_of_a_folder_is_said_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("duckdb")
    message = _usage_error(capsys, "db", "--db", str(tmp_path))
    assert "is a folder, not a hand database file" in message


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
@pytest.mark.parametrize("command", ["stats", "audit", "simulate"])
def test_output_into_a_pipe_is_written_there(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """-o /dev/stdout or a named pipe: written into it, not replaced by a file (a rename
    onto /dev/stdout would replace the device itself, where one may write there)."""
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(pipe.read_bytes()), daemon=True)
    reader.start()
    argv = {"simulate": ["simulate", "--hands", "3"], "stats": ["stats", str(RAZZ), "--no-audit"]}
    rc, _, err = run(capsys, *argv.get(command, [command, str(RAZZ)]), "-q", "-o", str(pipe))
    reader.join(timeout=60)
    assert rc == 0, err
    assert stat.S_ISFIFO(os.stat(pipe).st_mode) and got and len(got[0]) > 100


@pytest.mark.slow
@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full (a full disk)")
@pytest.mark.parametrize("command", ["stats", "audit", "report", "simulate"])
def test_an_output_that_fails_as_it_is_written_is_one_line(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    full = tmp_path / "full"
    full.symlink_to("/dev/full")  # a file name that writes to a full disk
    argv = {"simulate": ["simulate", "--hands", "3"], "stats": ["stats", str(RAZZ), "--no-audit"]}
    rc, _, err = run(capsys, *argv.get(command, [command, str(RAZZ)]), "-q", "-o", str(full))
    assert f"cannot write {full}: No space left on device" in one_line_usage_error(rc, err)
    assert full.is_symlink()
