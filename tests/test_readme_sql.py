"""The README's DuckDB recipes, run as written: a hand read twice counts once, and sums stay
whole numbers (DuckDB sums BIGINT into HUGEINT, which pandas makes float64)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq
import pytest

from histkit.cli import main

duckdb = pytest.importorskip("duckdb")

README = Path(__file__).resolve().parents[1] / "README.md"


def recipe(comment: str) -> str:
    """The SQL block of the README that begins with `comment`."""
    blocks = re.findall(r"```sql\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    found = [b for b in blocks if b.startswith(comment)]
    assert len(found) == 1, f"README has {len(found)} SQL blocks starting {comment!r}"
    return found[0]


@pytest.fixture(scope="module")
def twice(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One simulated file in two folders: every hand read twice."""
    root = tmp_path_factory.mktemp("readme")
    a = root / "x" / "a.txt"
    a.parent.mkdir()
    argv = ["simulate", "--hands", "40", "--seed", "5", "-q", "-o", str(a)]
    assert main(argv) == 0
    (root / "y").mkdir()
    shutil.copy(a, root / "y" / "a.txt")
    return root


def expected(root: Path) -> pd.DataFrame:
    """Net and hands per (unit, player) of one copy, added in Python from its tables."""
    once = root / "once"
    assert main(["parse", str(root / "x" / "a.txt"), "-o", str(once), "-q"]) == 0
    seats = pq.read_table(once / "seats.parquet").to_pandas()
    assert len(seats) > 100
    g = seats.groupby(["money_unit", "player"])["net"]
    out = pd.DataFrame({"hands": g.size(), "net": g.sum()}).reset_index()
    return out.sort_values(["money_unit", "player"]).reset_index(drop=True)


def run(sql: str, con: object = None) -> pd.DataFrame:
    rel = (con or duckdb).sql(sql)  # type: ignore[attr-defined]
    df = rel.df()
    assert str(df["net"].dtype) == "int64", rel.types  # whole cents, not floats
    cols = ["money_unit", "player", "hands", "net"]
    return df[cols].sort_values(cols[:2]).reset_index(drop=True).astype({"hands": "int64"})


def test_parquet_recipe_counts_a_hand_read_twice_once(twice: Path) -> None:
    wh = twice / "warehouse"
    argv = ["parse", str(twice / "x"), str(twice / "y"), "-o", str(wh), "-q"]
    assert main([*argv, "--partition-by", "game,date"]) == 0
    hands = pq.read_table(wh / "hands").num_rows
    assert hands == 80  # both copies are kept in the tables
    sql = recipe("-- duckdb: net per player in each unit").replace("'warehouse/", f"'{wh}/")
    pd.testing.assert_frame_equal(run(sql), expected(twice))


def test_s3_recipe_counts_each_hand_once(twice: Path) -> None:
    wh = twice / "flat"
    assert main(["parse", str(twice / "x"), str(twice / "y"), "-o", str(wh), "-q"]) == 0
    sql = recipe("-- pots and rake per unit").replace(
        "'s3://bucket/warehouse/hands/**/*.parquet', hive_partitioning = true",
        f"'{wh}/hands.parquet'",
    )
    got = duckdb.sql(sql).df()
    assert str(got["pots"].dtype) == "int64" and str(got["rake"].dtype) == "int64"
    once = pq.read_table(wh / "hands.parquet").to_pandas()
    first = once.drop_duplicates(["site", "hand_id"])
    assert len(first) == 40
    assert got["hands"].tolist() == [40]
    assert got["pots"].tolist() == [first["total_pot"].sum()]
    assert got["rake"].tolist() == [first["rake"].sum()]


def test_database_recipe_sums_whole_cents(twice: Path) -> None:
    from histkit.db.connection import connect_file

    db = twice / "hands.duckdb"
    assert main(["import", str(twice / "x"), str(twice / "y"), "--db", str(db), "-q"]) == 0
    with connect_file(db) as con:
        got = run(recipe("-- duckdb hands.duckdb: net per player"), con)
    pd.testing.assert_frame_equal(got, expected(twice))
