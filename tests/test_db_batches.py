"""The hand database held only while rows are written: an import parses with the database
let go (its rows staged, spilled to disk past a batch) and holds it only to write them, in
its one transaction; `histkit watch` reads a large file in bounded batches. So a reader
never waits long, and the tables are those of one clean import whatever the batching."""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from tests.test_db_import import assert_same, dump, simulated

pytest.importorskip("duckdb")

import histkit.db as hdb  # noqa: E402
import histkit.db.store as store_module  # noqa: E402
import histkit.db.watch as watch_module  # noqa: E402
from histkit.db.watch import Watcher  # noqa: E402

SEP = b"\n\n\n\n"  # between the simulator's hands


def copies(src: Path, path: Path, times: int) -> Path:
    """`src`'s hands `times` over, each copy's hand ids made new (a digit before them):
    a long session without simulating it hand by hand."""
    data = src.read_bytes()
    path.write_bytes(b"".join(data.replace(b"Hand #", b"Hand #%d" % (k + 1)) for k in range(times)))
    return path


def test_staged_batches_spilled_to_disk_give_the_tables_of_one_batch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "hh"
    folder.mkdir()
    simulated(folder / "a.txt", 9, seed=51)
    simulated(folder / "b.txt", 7, seed=52, tournament=True)
    (folder / "a-copy.txt").write_bytes((folder / "a.txt").read_bytes())  # duplicates
    clean = tmp_path / "clean.duckdb"
    hdb.import_paths([folder], db=clean)

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # the spill folders: here
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    stale = tmp_path / f"histkit-import-{dead.pid}-left"  # a killed import's
    (stale / "0").mkdir(parents=True)
    spilled: list[int] = []
    spill = store_module._Batch.spill

    def counted(self: store_module._Batch, folder: Path, names: list[str]) -> None:
        spilled.append(len(self.parts))
        spill(self, folder, names)

    monkeypatch.setattr(store_module, "BATCH_HANDS", 3)
    monkeypatch.setattr(store_module._Batch, "spill", counted)
    db = tmp_path / "batched.duckdb"
    r = hdb.import_paths([folder], db=db)
    assert r.hands_added == 16 and r.duplicates == 9
    assert len(spilled) >= 2  # batches of whole chunks (a file each here), spilled
    assert_same(dump(db), dump(clean))
    assert not stale.exists()
    assert not list(tmp_path.glob("histkit-import-*"))  # its own removed when written


def test_a_file_read_in_bounded_pieces_ends_with_exactly_its_hands(tmp_path: Path) -> None:
    data = simulated(tmp_path / "src.txt", 12, seed=53).read_bytes()
    live = tmp_path / "hh" / "session.txt"
    live.parent.mkdir()
    live.write_bytes(data[: len(data) - 300])  # its last hand still being written
    db = tmp_path / "bounded.duckdb"
    limit = len(data) // 5
    reports = [hdb.import_paths([live], db=db, max_bytes=limit)]
    while reports[-1].unfinished:
        assert reports[-1].unfinished == (str(live),)
        reports.append(hdb.import_paths([live], db=db, max_bytes=limit))
    assert len(reports) >= 4  # read in pieces
    assert reports[-1].pending == 1
    with open(live, "ab") as f:
        f.write(data[len(data) - 300 :])
    reports.append(hdb.import_paths([live], db=db, max_bytes=limit))
    assert not reports[-1].unfinished and reports[-1].pending == 0
    assert sum(r.hands_added - r.hands_removed for r in reports) == 12
    assert sum(r.rejected for r in reports) == 0
    clean = tmp_path / "clean.duckdb"
    hdb.import_paths([live], db=clean)
    assert_same(dump(db), dump(clean))


def test_watch_reads_a_large_file_in_several_transactions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "hh"
    folder.mkdir()
    path = simulated(folder / "big.txt", 10, seed=54)
    monkeypatch.setattr(watch_module, "BATCH_BYTES", path.stat().st_size // 4)
    db = tmp_path / "watched.duckdb"
    with open(tmp_path / "out.txt", "w") as out:
        w = Watcher([folder], db=str(db), out=out)
        w.run(polls=1)  # one poll: every batch of the file, one after the other
    assert w.batches >= 3
    clean = tmp_path / "clean.duckdb"
    hdb.import_paths([folder], db=clean)
    assert_same(dump(db), dump(clean))


def test_an_import_that_another_one_overtook_is_done_again_holding_the_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Between parsing (the database let go) and writing, another import writes the same
    files: the staged rows are stale (they would store every hand as a copy of itself), so
    the import plans and reads again with the database held."""
    import histkit.db.importer as importer

    folder = tmp_path / "hh"
    folder.mkdir()
    simulated(folder / "a.txt", 5, seed=57)
    simulated(folder / "b.txt", 4, seed=58)
    db = tmp_path / "h.duckdb"
    stage = importer._stage
    overtaken: list[hdb.ImportReport] = []

    def then_another(*args: object, **kw: object) -> None:
        stage(*args, **kw)  # type: ignore[arg-type]
        if importer._stage is not stage:  # the other import, while this one let go
            monkeypatch.setattr(importer, "_stage", stage)
            overtaken.append(hdb.import_paths([folder], db=db))

    monkeypatch.setattr(importer, "_stage", then_another)
    late = hdb.import_paths([folder], db=db)
    assert overtaken[0].hands_added == 9
    assert late.hands_added == late.duplicates == 0 and late.files_skipped == 2
    clean = tmp_path / "clean.duckdb"
    hdb.import_paths([folder], db=clean)
    assert_same(dump(db), dump(clean))


@pytest.mark.slow
def test_a_reader_is_not_kept_waiting_while_a_long_import_parses(tmp_path: Path) -> None:
    db = tmp_path / "hands.duckdb"
    hdb.import_paths([simulated(tmp_path / "first.txt", 3, seed=55)], db=db)
    big = copies(simulated(tmp_path / "src.txt", 40, seed=56), tmp_path / "big.txt", 100)
    importer = subprocess.Popen(
        [sys.executable, "-m", "histkit", "import", str(big), "--db", str(db)]
        + ["--jobs", "1", "-q"],
        stderr=subprocess.PIPE,
        text=True,
    )
    waits, counts = [], []
    started = time.perf_counter()
    try:
        while importer.poll() is None:
            t = time.perf_counter()
            # a few seconds at most: an import that held the database while it parsed
            # (several seconds here) would make this raise DatabaseBusy
            with hdb.connect(db, timeout=3) as con:
                counts.append(con.sql("select count(*) from hands").fetchall()[0][0])
            waits.append(time.perf_counter() - t)
            time.sleep(0.05)
    finally:
        if importer.poll() is None:
            importer.kill()
    _, err = importer.communicate(timeout=60)
    assert importer.returncode == 0, err[-2000:]
    took = time.perf_counter() - started
    print(f"import {took:.1f} s; {len(waits)} reads, the longest {max(waits):.2f} s")
    assert len(waits) >= 10  # it read again and again while the import ran
    assert set(counts) <= {3, 4003}  # all of the import's hands or none
    with hdb.connect(db) as con:
        assert con.sql("select count(*) from hands").fetchall() == [(4003,)]
