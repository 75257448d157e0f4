"""The Python API: histkit.read / stats / audit, as the commands read the same input."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import histkit
from histkit.cli import main
from histkit.tables import SCHEMAS, Tables
from tests.conftest import SAMPLE_DATA

TOURNAMENT = SAMPLE_DATA / "stud_hilo_tournament_150.txt"
FAULTS = SAMPLE_DATA / "stud_hilo_faults_200.txt"
HERO = SAMPLE_DATA / "stud_hilo_cash_hero_500.txt"


def test_import_histkit_loads_neither_pandas_nor_pyarrow() -> None:
    code = (
        "import sys, histkit\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in "
        "('pandas', 'pyarrow', 'duckdb', 'histkit.api')))\n"
        "assert callable(histkit.read) and callable(histkit.stats) and callable(histkit.audit)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_read_gives_every_table_with_integer_amounts_kept(tmp_path: Path) -> None:
    t = histkit.read(TOURNAMENT)
    assert isinstance(t, Tables) and t.hands.num_rows == 150
    assert list(t.to_arrow()) == [n for n in SCHEMAS if n not in ("awards", "violations")]
    frames = t.to_pandas()
    for name, df in frames.items():
        assert list(df.columns) == SCHEMAS[name].names
        assert all(isinstance(d, pd.ArrowDtype) for d in df.dtypes), name
    hands = frames["hands"]
    assert str(hands["buy_in_amount"].dtype) == "int64[pyarrow]"
    assert hands["buy_in_amount"].notna().all() and int(hands["buy_in_amount"].min()) > 0
    seats = frames["seats"]
    assert str(seats["prize"].dtype) == "int64[pyarrow]" and seats["prize"].isna().any()
    assert histkit.read([TOURNAMENT], audit=True).awards is not None
    # the same from the folder parse writes and from the hand database
    out, db = tmp_path / "out", tmp_path / "h.duckdb"
    assert main(["parse", str(TOURNAMENT), "-o", str(out), "-q"]) == 0
    assert main(["import", str(TOURNAMENT), "--db", str(db), "-q"]) == 0
    for other in (histkit.read(out), histkit.read(db)):
        assert other.hands.num_rows == 150
        assert sorted(other.seats["net"].to_pylist()) == sorted(t.seats["net"].to_pylist())


@pytest.mark.slow
def test_read_filters_as_the_commands_do() -> None:
    t = histkit.read(HERO)
    day = t.hands["started_at"].to_pandas().dt.date.min()
    assert histkit.read(HERO, since=str(day), until=day).hands.num_rows > 0
    assert histkit.read(HERO, since="2000-01-01", until="2000-01-02").hands.num_rows == 0
    assert histkit.read(HERO, game="razz").hands.num_rows == 0
    with pytest.raises(ValueError, match="unknown site"):
        histkit.read(HERO, site="nosuchsite")
    with pytest.raises(ValueError, match="no such file"):
        histkit.read(HERO.with_name("missing.txt"))


@pytest.mark.slow
def test_stats_are_the_commands_figures(capsys: pytest.CaptureFixture[str]) -> None:
    got = histkit.stats(HERO, by="game")
    assert main(["stats", str(HERO), "--by", "game", "--format", "json", "-q"]) == 0
    want = pd.DataFrame(json.loads(capsys.readouterr().out))
    assert len(got) == len(want) and list(got["player"]) == list(want["player"])
    for col in ("hands", "net", "vpip", "bb_per_100"):
        assert got[col].tolist() == pytest.approx(want[col].tolist(), nan_ok=True), col
    assert got["net"].dtype == "int64"
    hero = histkit.stats(HERO, player="Hero")
    assert hero["player"].tolist() == ["Hero"] and int(hero["hands"].iloc[0]) == 500


def test_audit_is_a_frame_of_the_commands_findings(capsys: pytest.CaptureFixture[str]) -> None:
    found = histkit.audit(FAULTS)
    assert main(["audit", str(FAULTS), "--format", "json", "-q"]) == 1
    want = json.loads(capsys.readouterr().out)["violations"]
    assert len(found) == len(want) > 10
    assert found["code"].tolist() == [v["code"] for v in want]
    assert found["hand_id"].tolist() == [v["hand_id"] for v in want]
    assert set(found["site"]) == {"pokerstars"} and set(found["source_file"]) == {str(FAULTS)}
    assert str(found["street"].dtype) == "Int32" and str(found["line"].dtype) == "Int64"
    truth = [json.loads(x) for x in FAULTS.with_suffix(".truth.jsonl").read_text().splitlines()]
    roots = found[found["caused_by"].isna()]
    pairs = set(zip(roots["hand_id"], roots["code"], strict=True))
    assert {(t["hand_id"], t["code"]) for t in truth} <= pairs
    assert found.attrs["report"].hands == 200
    assert len(histkit.audit(FAULTS, info=True)) >= len(found)


def test_the_api_modules_stay_modules() -> None:
    import histkit.audit as audit_module
    import histkit.stats as stats_module

    assert histkit.stats is stats_module and histkit.audit is audit_module
    assert callable(stats_module.player_stats) and callable(audit_module.audit_paths)
