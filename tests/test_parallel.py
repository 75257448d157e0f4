"""--jobs gives the same results, in the same order, as one process; chunking never
changes what is reported; partitioned datasets read back whole."""

from __future__ import annotations

from pathlib import Path

import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest

from histkit.audit import audit, audit_paths
from histkit.cli import main
from histkit.parallel import build_tables, run
from histkit.reader import iter_chunks, iter_hands, parse_chunk
from tests.conftest import POKERSTARS, SAMPLE_DATA
from tests.test_packaging import HAND


def _inputs() -> list[Path]:
    paths = [p for p in (SAMPLE_DATA, POKERSTARS) if p.is_dir()]
    if not paths:
        pytest.skip("neither sample_data/ nor ../shared/hands is present")
    return paths


def test_jobs_give_identical_tables() -> None:
    paths = _inputs()
    one = build_tables(paths, jobs=1, audit=True)
    two = build_tables(paths, jobs=2, audit=True)
    assert one.hands.num_rows > 100
    for name, table in one.items():
        assert table.equals(two[name]), name


def test_jobs_give_identical_audit_reports() -> None:
    paths = _inputs()
    one = audit_paths(paths, jobs=1)
    two = audit_paths(paths, jobs=2)
    assert one == two
    # and the same as auditing the hands one by one in memory
    assert audit(iter_hands(paths)).violations == one.violations


def test_chunk_size_never_changes_results(tmp_path: Path) -> None:
    junk = "this is not a hand\nnor is this\n"
    text = HAND + "\n\n" + junk + "\n" + junk + "\n" + HAND.replace("1000000001", "2") + "\n\n"
    text += HAND.replace("1000000001", "3")
    f = tmp_path / "h.txt"
    f.write_text(text)
    whole = list(iter_hands([f]))
    for size in (1, 2, 3):
        chunks = list(iter_chunks([f], max_blocks=size))
        assert len(chunks) > 1
        assert [x for c in chunks for x in parse_chunk(c)] == whole
    # the two junk blocks are one run, reported once
    assert sum(1 for x in whole if getattr(x, "kind", None) == "rejected") == 1


def test_run_streams_in_input_order(tmp_path: Path) -> None:
    for i in range(6):
        (tmp_path / f"{i}.txt").write_text(HAND.replace("1000000001", str(i)))
    results = list(run([tmp_path], jobs=2, audit=True))
    assert [Path(r.source).name for r in results] == [f"{i}.txt" for i in range(6)]
    assert all(r.hands == 1 and not r.violations for r in results)


def test_partitioned_dataset(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    paths = [str(p) for p in _inputs()]
    plain, parts = tmp_path / "plain", tmp_path / "parts"
    assert main(["parse", *paths, "-o", str(plain), "-q", "--audit", "-j", "2"]) == 0
    argv = ["parse", *paths, "-o", str(parts), "-q", "--audit", "--partition-by", "game,date"]
    assert main(argv) == 0
    for name in ("hands", "seats", "actions", "cards", "awards"):
        whole = pq.read_table(plain / f"{name}.parquet")
        d = ds.dataset(parts / name, partitioning="hive").to_table()
        assert d.num_rows == whole.num_rows, name
        assert {"game", "date"} <= set(d.column_names)
    # a second run into the same folder is refused unless asked to overwrite
    assert main(argv) == 2
    assert "already holds a dataset" in capsys.readouterr().err
    assert main([*argv, "--overwrite"]) == 0

    import duckdb
    import pandas as pd

    seats = pd.read_parquet(parts / "seats")
    q = duckdb.sql(
        f"SELECT game, sum(net) AS net, count(*) AS n FROM "
        f"read_parquet('{parts}/seats/**/*.parquet', hive_partitioning = true) GROUP BY game"
    ).df()
    assert q["n"].sum() == len(seats)
    assert q["net"].sum() == seats["net"].sum()
    hands = pq.read_table(plain / "hands.parquet").to_pandas()
    assert seats["net"].sum() == -hands["rake"].sum()


def test_bad_partition_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    f = tmp_path / "h.txt"
    f.write_text(HAND)
    assert main(["parse", str(f), "-o", str(tmp_path / "o"), "--partition-by", "colour"]) == 2
    assert "cannot partition by colour" in capsys.readouterr().err
    assert main(["parse", str(f), "-o", str(tmp_path / "o"), "--jobs", "0"]) == 2
