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
from histkit.reader import Span, iter_chunks, iter_hands, parse_chunk
from histkit.reading import decode as base
from tests.conftest import POKERSTARS, SAMPLE_DATA
from tests.test_packaging import HAND


def _inputs() -> list[Path]:
    paths = [p for p in (SAMPLE_DATA, POKERSTARS) if p.is_dir()]
    if not paths:
        pytest.skip("neither sample_data/ nor ../shared/hands is present")
    return paths


@pytest.mark.slow
def test_jobs_give_identical_tables() -> None:
    paths = _inputs()
    one = build_tables(paths, jobs=1, audit=True)
    two = build_tables(paths, jobs=2, audit=True)
    assert one.hands.num_rows > 100
    for name, table in one.items():
        assert table.equals(two[name]), name


@pytest.mark.slow
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


def _awkward_files(folder: Path) -> dict[str, Path]:
    """Files that test where a byte range may be cut: every way the reader's decoding and
    block splitting can depend on what came before."""
    hands = [HAND.replace("1000000001", str(i)) for i in range(1, 5)]
    junk = "this is not a hand\nPokerStars is not a header here\n"
    plain = "\n\n".join(hands[:2]) + "\n\n" + junk + "\n" + "\n\n".join(hands[2:])
    texts: dict[str, bytes] = {
        "plain.txt": plain.encode(),
        "leading.txt": ("\n\n" + junk + "\n\n" + plain).encode(),
        "crlf.txt": plain.replace("\n", "\r\n").encode(),
        "no_blank.txt": "".join(hands).encode(),  # a header right after a summary line
        "bom_inside.txt": ("\ufeff" + hands[0] + "\n\ufeff" + hands[1] + "\n" + hands[2]).encode(),
        "cp1252.txt": plain.replace("Alice", "Alicé").encode("cp1252"),
        "bare_cr.txt": (hands[0] + "\nold\rmac\rlines\n\n" + "\n\n".join(hands[1:])).encode(),
        "binary.txt": ("\n\n".join(hands[:2]) + "\n\n").encode()
        + b"\x00\x01\x02 garbage\n\n"
        + "\n\n".join(hands[2:]).encode(),
        "undecodable.txt": ("\n\n".join(hands[:2]) + "\n\n").encode()
        + b"bad \x81\x8d bytes\n\n"
        + "\n\n".join(hands[2:]).encode(),
        # binary data with no line end: with 64-byte reads, a read holding no LF at all
        "binary_tail.txt": plain.encode() + b"\n\n" + b"\x00\x01" * 100,
        "utf16.txt": plain.encode("utf-16"),
        "empty.txt": b"",
        "blank.txt": b"\n\n\n",
    }
    paths = {}
    for name, data in texts.items():
        paths[name] = folder / name
        paths[name].write_bytes(data)
    return paths


@pytest.mark.parametrize("piece", [64, 1 << 20])
def test_byte_ranges_parse_as_the_whole_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, piece: int
) -> None:
    # small read pieces: files of many pieces, cuts and decoding decided piece by piece
    monkeypatch.setattr(base, "_READ_CHUNK", piece)
    files = _awkward_files(tmp_path)
    cut = {name: False for name in files}
    for name, path in files.items():
        whole = list(iter_hands([path]))
        assert whole, name
        for size in (1, 7, 300, 1 << 20):
            chunks = list(iter_chunks([path], span_bytes=size))
            spans = [c.span for c in chunks if c.span is not None]
            cut[name] |= len(spans) > 1
            assert [x for c in chunks for x in parse_chunk(c)] == whole, (name, size)
    # ranges were really cut where that is safe, and never where it is not
    assert all(cut[n] for n in ("plain.txt", "leading.txt", "crlf.txt", "no_blank.txt"))
    assert all(cut[n] for n in ("cp1252.txt", "bom_inside.txt"))
    assert not any(cut[n] for n in ("utf16.txt", "empty.txt", "blank.txt"))


def test_cuts_stop_where_reading_may_stop(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """After binary data, an undecodable line or old Mac line ends, the rest of the file is
    one range: reading stops there (or numbers lines as it reads) in one pass too."""
    monkeypatch.setattr(base, "_READ_CHUNK", 64)
    files = _awkward_files(tmp_path)
    for name in ("binary.txt", "undecodable.txt", "bare_cr.txt"):
        data = files[name].read_bytes()
        bad = min(i for i in (data.find(b"\x00"), data.find(b"\x81"), data.find(b"\r")) if i >= 0)
        spans = [c.span for c in iter_chunks([files[name]], span_bytes=1)]
        assert all(isinstance(s, Span) for s in spans), name
        assert spans[-1] is not None and spans[-1].end is None
        assert all(s is not None and s.start < bad for s in spans), name  # no cut after it
    # and before it, the file was cut (so the check above is not empty)
    assert len(list(iter_chunks([files["binary.txt"]], span_bytes=1))) > 1


def test_jobs_give_identical_results_on_awkward_files(tmp_path: Path) -> None:
    _awkward_files(tmp_path)
    assert audit_paths([tmp_path], jobs=1) == audit_paths([tmp_path], jobs=2)
    one = build_tables([tmp_path], jobs=1)
    two = build_tables([tmp_path], jobs=2)
    for name, table in one.items():
        assert table.equals(two[name]), name


def test_run_streams_in_input_order(tmp_path: Path) -> None:
    for i in range(6):
        (tmp_path / f"{i}.txt").write_text(HAND.replace("1000000001", str(i)))
    results = list(run([tmp_path], jobs=2, audit=True))
    assert [Path(r.source).name for r in results] == [f"{i}.txt" for i in range(6)]
    assert all(r.hands == 1 and not r.violations for r in results)


@pytest.mark.slow
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
    # a second run into the same folder replaces the first whole (--overwrite still accepted)
    assert main(argv) == 0
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
    with pytest.raises(SystemExit) as refused:  # said by the option's check, before any work
        main(["parse", str(f), "-o", str(tmp_path / "o"), "--partition-by", "colour"])
    assert refused.value.code == 2
    assert "unknown key 'colour'; choose from game, date" in capsys.readouterr().err
    assert main(["parse", str(f), "-o", str(tmp_path / "o"), "--jobs", "0"]) == 2
