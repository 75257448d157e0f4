"""Issue 19 item 3, nothing half-written: a `histkit parse -o OUT` that fails, is interrupted
or is killed never leaves something a reader accepts as a result (`histkit stats OUT`
refuses the folder, or reads the complete earlier result); a completed run replaces the
earlier result whole; the other commands' -o files appear whole or not at all.

The kill tests run `histkit parse` in a child process on a simulated input of 400 hands in
four files with `--batch-size 50` (so eight row groups, or sets of partition files, are
written before the end) and kill it at seeded random moments once it has begun writing,
and at chosen steps of the commit.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pytest

from histkit.cli import main
from histkit.simulate import write_session
from histkit.stats import load
from histkit.tables import AUDIT_TABLES, SCHEMAS
from histkit.warehouse import (
    RECORD,
    STAGING_PREFIX,
    IncompleteResultError,
    ParquetSink,
    WarehouseError,
    holds_tables,
    read_record,
    read_tables,
)

POINTS = 8  # random kill moments per signal
PARSE = [sys.executable, "-m", "histkit", "parse", "-q", "--batch-size", "50"]


@dataclass(frozen=True)
class Corpus:
    a: Path  # a small input, parsed with --audit: "the earlier result"
    b: Path  # the input the killed runs parse (no --audit)
    ref_a: Path  # complete results of each
    ref_b: Path
    ids: dict[str, frozenset[str]]  # "A"/"B" -> hand ids
    rows: dict[str, dict[str, int]]  # "A"/"B" -> table -> rows
    seconds: float  # how long a run of B takes once its staging folder exists


def _staging(out: Path) -> list[Path]:
    return sorted(out.glob(f"{STAGING_PREFIX}*")) if out.is_dir() else []


def _spawn(args: list[str], out: Path) -> tuple[subprocess.Popen[bytes], float | None]:
    """Start a parse into `out`; wait until its staging folder appears (None: it ended
    first), and say when that was."""
    p = subprocess.Popen(
        [*PARSE, *args, "-o", str(out)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    t0 = time.monotonic()
    while p.poll() is None:
        if _staging(out):
            return p, time.monotonic() - t0
        time.sleep(0.005)
    return p, None


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Corpus:
    root = tmp_path_factory.mktemp("atomic")
    a, b = root / "a", root / "b"
    a.mkdir()
    b.mkdir()
    write_session(a / "a.txt", "stud_hilo", 120, seed=19, players=6)
    for i in range(4):
        write_session(b / f"b{i}.txt", "stud", 100, seed=100 + i, players=6)
    ref_a, ref_b = root / "ref_a", root / "ref_b"
    assert main(["parse", "-j", "1", str(a), "-o", str(ref_a), "-q", "--audit"]) == 0
    p, started = _spawn([str(b), "-j", "1"], ref_b)
    t0 = time.monotonic()
    assert p.wait(timeout=120) == 0, p.stderr.read() if p.stderr else ""
    seconds = time.monotonic() - t0
    assert started is not None and not _staging(ref_b)
    ids, rows = {}, {}
    for key, ref in (("A", ref_a), ("B", ref_b)):
        tables = read_tables(ref)
        ids[key] = frozenset(tables["hands"]["hand_id"].to_pylist())
        rows[key] = {name: t.num_rows for name, t in tables.items()}
    assert ids["A"].isdisjoint(ids["B"]) and len(ids["B"]) == 400
    assert set(rows["A"]) == set(SCHEMAS) and not set(rows["B"]) & set(AUDIT_TABLES)
    return Corpus(a, b, ref_a, ref_b, ids, rows, seconds)


def _outcome(out: Path, c: Corpus, capsys: pytest.CaptureFixture[str]) -> str:
    """What a reader finds in OUT: "none" (no tables: the state before a first run),
    "refused" (`histkit stats` exits 2: the run did not complete), or "A"/"B" (that run's
    result, whole and alone). Anything else fails the test."""
    if not holds_tables(out):
        assert not out.exists() or not any(out.iterdir())
        return "none"
    try:
        read = load([str(out)], audit=False)  # what `histkit stats OUT` reads
    except IncompleteResultError:
        capsys.readouterr()
        assert main(["stats", str(out)]) == 2
        assert "did not complete (no _histkit.json)" in capsys.readouterr().err
        return "refused"
    tables = read_tables(out)
    ids = set(tables["hands"]["hand_id"].to_pylist())
    which = next((k for k, v in c.ids.items() if v == ids), None)
    assert which is not None, f"{out} holds {len(ids)} hands: not one run's"
    assert all(read[n].equals(tables[n]) for n in read)
    # the tables of one run agree on their hand ids, and are the whole of that run
    assert set(tables["seats"]["hand_id"].to_pylist()) == ids
    for name, t in tables.items():
        if name != "errors":
            assert set(t["hand_id"].drop_null().to_pylist()) <= ids, name
    assert {name: t.num_rows for name, t in tables.items()} == c.rows[which]
    # no table of another run beside them
    others = {n for n in SCHEMAS if (out / f"{n}.parquet").exists() or (out / n).exists()}
    assert {n for n, r in c.rows[which].items() if r} <= others <= set(c.rows[which])
    return which


def _kill_at_random(
    sig: signal.Signals, c: Corpus, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> list[str]:
    rng = random.Random(19 + sig)
    seen = []
    for i in range(POINTS):
        out = tmp_path / f"out{i}"
        earlier = i % 2 == 0
        if earlier:
            shutil.copytree(c.ref_a, out)
        args = [str(c.b), "-j", "2" if (sig == signal.SIGINT and i == 3) else "1"]
        if i % 3 == 1:
            args += ["--partition-by", "game,date"]
        p, started = _spawn(args, out)
        assert started is not None, p.stderr.read() if p.stderr else ""
        # once it has begun writing: a point in the first moments, the others while the
        # batches are written (a late one may land after the run completed)
        time.sleep(rng.uniform(0.0, 0.1) if i == 0 else rng.uniform(0.0, 1.1) * c.seconds)
        p.send_signal(sig)
        code = p.wait(timeout=120)
        got = _outcome(out, c, capsys)
        if sig == signal.SIGKILL:
            assert got in (("A", "B", "refused") if earlier else ("none", "B", "refused")), got
        else:
            # Ctrl-C: cleaned up, and OUT holds what it held before or the new result
            assert not _staging(out)
            assert got in (("A", "B") if earlier else ("none", "B")), got
            if got != "B":  # (a signal after the run may land in the interpreter's exit)
                assert code == 130, (code, p.stderr.read() if p.stderr else "")
        seen.append(got)
    return seen


@pytest.mark.slow
def test_sigkill_at_random_points(
    corpus: Corpus, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seen = _kill_at_random(signal.SIGKILL, corpus, tmp_path, capsys)
    assert {"A", "refused"} & set(seen), seen  # the kills did land before the end
    # the next run into a killed run's folder removes its staging folder and replaces it
    for i in range(POINTS):
        out = tmp_path / f"out{i}"
        if _staging(out):
            assert main(["parse", "-j", "1", str(corpus.a), "-o", str(out), "-q", "--audit"]) == 0
            assert not _staging(out)
            assert _outcome(out, corpus, capsys) == "A"
            break


@pytest.mark.slow
def test_sigint_at_random_points(
    corpus: Corpus, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    seen = _kill_at_random(signal.SIGINT, corpus, tmp_path, capsys)
    assert {"A", "none"} & set(seen), seen


# A child that sends itself `signal` at the n-th rename of the commit (the completion
# record into place in the staging folder, the tables, then the record into OUT), just
# before the rename happens.
_AT_RENAME = """
import os, signal, sys
real, left = os.replace, [int(sys.argv[2])]
def replace(src, dst, *args, **kw):
    if ".histkit-staging-" in str(src) or str(dst).endswith("_histkit.json"):
        left[0] -= 1
        if left[0] == 0:
            os.kill(os.getpid(), getattr(signal, sys.argv[1]))
    return real(src, dst, *args, **kw)
os.replace = replace
from histkit.cli import main
sys.exit(main(sys.argv[3:]))
"""


@pytest.mark.slow
@pytest.mark.parametrize("partition", [False, True])
def test_signals_during_the_commit(
    corpus: Corpus, tmp_path: Path, capsys: pytest.CaptureFixture[str], partition: bool
) -> None:
    extra = ["--partition-by", "game"] if partition else []
    # A is written with --audit: 7 tables (partitioned: those with rows), then the record
    # (the first rename puts the record in the staging folder, before the commit begins)
    renames = sum(1 for r in corpus.rows["A"].values() if r or not partition) + 2
    points = (4,) if partition else (2, renames)
    for n in points:
        out = tmp_path / f"kill{n}"
        shutil.copytree(corpus.ref_b, out)
        argv = ["parse", "-j", "1", str(corpus.a), "-o", str(out), "-q", "--audit", *extra]
        p = subprocess.run([sys.executable, "-c", _AT_RENAME, "SIGKILL", str(n), *argv])
        assert p.returncode == -signal.SIGKILL
        # B's record went first: refused, never B's tables with some of A's
        assert _outcome(out, corpus, capsys) == "refused"
        assert _staging(out)  # left by the killed run ...
        assert main(argv) == 0  # ... and removed by the next
        assert not _staging(out) and _outcome(out, corpus, capsys) == "A"
    # Ctrl-C during the commit is acted on after it: the new result stands whole
    n = renames if partition else 2
    out = tmp_path / f"int{n}"
    shutil.copytree(corpus.ref_b, out)
    argv = ["parse", "-j", "1", str(corpus.a), "-o", str(out), "-q", "--audit", *extra]
    p = subprocess.run([sys.executable, "-c", _AT_RENAME, "SIGINT", str(n), *argv])
    assert p.returncode == 130
    assert not _staging(out) and _outcome(out, corpus, capsys) == "A"


@pytest.mark.slow
def test_injected_exceptions_leave_the_earlier_result(
    corpus: Corpus,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import histkit.parallel

    real_chunk = histkit.parallel.process_chunk

    def failing_after(n: int):  # type: ignore[no-untyped-def]
        calls = [0]

        def chunk(*args, **kw):  # type: ignore[no-untyped-def]
            calls[0] += 1
            if calls[0] > n:
                raise RuntimeError("injected")
            return real_chunk(*args, **kw)

        return chunk

    for n, partition in ((0, False), (2, False), (3, True)):
        for earlier in (True, False):
            out = tmp_path / f"exc{n}{earlier}"
            if earlier:
                shutil.copytree(corpus.ref_a, out)
            monkeypatch.setattr(histkit.parallel, "process_chunk", failing_after(n))
            argv = ["parse", str(corpus.b), "-o", str(out), "-q", "-j", "1", "--batch-size", "50"]
            # a bug: exit status 3, its traceback saved (HISTKIT_LOG_DIR)
            assert main([*argv, "--partition-by", "game,date"] if partition else argv) == 3
            assert "internal error (RuntimeError: injected)" in capsys.readouterr().err
            assert not _staging(out)
            assert _outcome(out, corpus, capsys) == ("A" if earlier else "none")
            assert earlier or not out.exists()  # a folder the run made goes with it
    monkeypatch.setattr(histkit.parallel, "process_chunk", real_chunk)

    # a failure while writing (disk full) is the same
    real_flush = ParquetSink.flush
    flushes = [0]

    def flush(self: ParquetSink) -> None:
        flushes[0] += 1
        if flushes[0] == 3:
            raise OSError(28, "No space left on device")
        real_flush(self)

    monkeypatch.setattr(ParquetSink, "flush", flush)
    out = tmp_path / "full"
    shutil.copytree(corpus.ref_a, out)
    assert (
        main(["parse", "-j", "1", str(corpus.b), "-o", str(out), "-q", "--batch-size", "50"]) == 2
    )
    assert "no space left on the disk" in capsys.readouterr().err
    assert flushes[0] == 3 and not _staging(out) and _outcome(out, corpus, capsys) == "A"
    monkeypatch.setattr(ParquetSink, "flush", real_flush)

    # a failure halfway through the commit: refused, until a run completes
    real_replace = os.replace
    renames = [0]

    def replace(src, dst):  # type: ignore[no-untyped-def]
        renames[0] += STAGING_PREFIX in str(src)
        if renames[0] == 3:
            raise OSError(5, "Input/output error")
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    assert main(["parse", "-j", "1", str(corpus.b), "-o", str(out), "-q"]) == 3
    assert "internal error (OSError: [Errno 5] Input/output error)" in capsys.readouterr().err
    monkeypatch.setattr(os, "replace", real_replace)
    assert not _staging(out) and _outcome(out, corpus, capsys) == "refused"
    assert main(["parse", "-j", "1", str(corpus.b), "-o", str(out), "-q"]) == 0
    assert _outcome(out, corpus, capsys) == "B"


@pytest.mark.slow
def test_rerun_replaces_the_result_whole(
    corpus: Corpus, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    assert main(["parse", "-j", "1", str(corpus.a), "-o", str(out), "--audit"]) == 0
    assert "Replaced" not in capsys.readouterr().out
    # B without --audit: A's awards and violations go too
    assert main(["parse", "-j", "1", str(corpus.b), "-o", str(out)]) == 0
    assert f"Replaced the earlier result in {out}/." in capsys.readouterr().out
    assert _outcome(out, corpus, capsys) == "B"
    assert main(["stats", str(out), "--no-audit"]) == 0
    assert "Hero" in capsys.readouterr().out
    assert not (out / "awards.parquet").exists() and not (out / "violations.parquet").exists()
    # flat -> partitioned -> flat: no form of an earlier table stays
    part = ["--partition-by", "game,date"]
    assert main(["parse", "-j", "1", str(corpus.a), "-o", str(out), "-q", "--audit", *part]) == 0
    assert not list(out.glob("*.parquet")) and (out / "awards").is_dir()
    assert _outcome(out, corpus, capsys) == "A"
    # --overwrite is still accepted (and changes nothing: a result is always replaced)
    assert main(["parse", "-j", "1", str(corpus.b), "-o", str(out), "-q", "--overwrite"]) == 0
    assert _outcome(out, corpus, capsys) == "B"
    assert not [p for p in out.iterdir() if p.is_dir()]
    record = read_record(out)
    assert record["partition_by"] == [] and record["tables"]["hands"]["rows"] == 400
    # tables of a run that did not complete are replaced too, and said so
    (out / RECORD).unlink()
    assert main(["parse", "-j", "1", str(corpus.a), "-o", str(out), "--audit"]) == 0
    said = f"Replaced the tables of an earlier run in {out}/ that did not complete."
    assert said in capsys.readouterr().out


def test_partitioned_output_reads_as_the_flat(
    corpus: Corpus, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    flat, part = tmp_path / "flat", tmp_path / "part"
    assert main(["parse", "-j", "1", str(corpus.a), "-o", str(flat), "-q", "--audit"]) == 0
    argv = [
        "parse",
        "-j",
        "1",
        str(corpus.a),
        "-o",
        str(part),
        "-q",
        "--audit",
        "--batch-size",
        "30",
    ]
    assert main([*argv, "--partition-by", "game,date,site,table"]) == 0
    a, b = read_tables(flat), read_tables(part)
    assert a.keys() == b.keys() == set(SCHEMAS)
    for name in a:
        assert b[name].schema == SCHEMAS[name], name
        order = [(c, "ascending") for c in a[name].column_names]  # rows in any order
        assert b[name].sort_by(order).equals(a[name].sort_by(order)), name
    figures = {}
    for d in (flat, part):
        assert main(["stats", str(d), "--format", "json"]) == 0
        figures[d] = json.loads(capsys.readouterr().out)
    assert figures[flat] and sorted(figures[flat], key=json.dumps) == sorted(
        figures[part], key=json.dumps
    )


def test_readers_refuse_what_is_not_a_complete_result(
    corpus: Corpus, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    shutil.copytree(corpus.ref_a, out)
    # tables without the completion record (a crash mid-commit, or an older histkit)
    (out / RECORD).rename(tmp_path / "record")
    for cmd in (["stats", str(out)], ["report", str(out), "-o", str(tmp_path / "r.html")]):
        assert main(cmd) == 2
        err = capsys.readouterr().err
        assert f"{out} holds tables of a run that did not complete (no {RECORD})" in err
        assert "run histkit parse again" in err
    assert not (tmp_path / "r.html").exists()
    # a table that disagrees with the record
    (tmp_path / "record").rename(out / RECORD)
    shutil.copy(corpus.ref_b / "seats.parquet", out / "seats.parquet")
    assert main(["stats", str(out)]) == 2
    assert "changed after it was written" in capsys.readouterr().err
    with pytest.raises(WarehouseError, match="changed after it was written"):
        read_tables(out)
    # a record of a newer format
    shutil.copy(corpus.ref_a / "seats.parquet", out / "seats.parquet")
    record = json.loads((out / RECORD).read_text())
    (out / RECORD).write_text(json.dumps({**record, "format_version": 99}))
    with pytest.raises(WarehouseError, match="newer histkit"):
        read_tables(out)
    # only a killed run's staging folder: refused too, not read as an empty input
    lone = tmp_path / "lone"
    (lone / f"{STAGING_PREFIX}999999999-00").mkdir(parents=True)
    assert main(["stats", str(lone)]) == 2
    assert "did not complete" in capsys.readouterr().err


def test_output_folder_checks(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hand = tmp_path / "h.txt"
    write_session(hand, "razz", 3, seed=1)
    assert main(["parse", "-j", "1", str(hand), "-o", str(hand)]) == 2
    assert "is a file, not a folder" in capsys.readouterr().err
    mine = tmp_path / "mine"
    (mine / "hands").mkdir(parents=True)
    (mine / "hands" / "notes.txt").write_text("my notes")
    assert main(["parse", "-j", "1", str(hand), "-o", str(mine)]) == 2
    assert "not a histkit table" in capsys.readouterr().err
    assert (mine / "hands" / "notes.txt").exists() and not _staging(mine)
    # staging folders: a dead process's is removed, a live one's is left alone
    out = tmp_path / "out"
    dead = out / f"{STAGING_PREFIX}999999999-aa"
    live = out / f"{STAGING_PREFIX}{os.getpid()}-bb"
    dead.mkdir(parents=True)
    live.mkdir()
    assert main(["parse", "-j", "1", str(hand), "-o", str(out), "-q"]) == 0
    assert _staging(out) == [live]
    assert read_tables(out)["hands"].num_rows == 3


# ------------------------------------------------------------- the other commands' -o


@pytest.mark.slow
def test_report_and_simulate_outputs_are_whole_or_absent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    hands = tmp_path / "h.txt"
    assert main(["simulate", "--hands", "12", "--faults", "0.3", "-o", str(hands), "-q"]) == 0
    first, truth = hands.read_text(), (tmp_path / "h.truth.jsonl").read_text()
    report = tmp_path / "r.html"
    assert main(["report", str(hands), "-o", str(report)]) == 0
    html = report.read_text()

    import histkit.report
    import histkit.simulate

    def broken(*args, **kw):  # type: ignore[no-untyped-def]
        raise KeyboardInterrupt

    monkeypatch.setattr(histkit.report, "report_of", broken)
    assert main(["report", str(hands), "-o", str(report)]) == 130
    real_write = histkit.simulate.write_session

    def half_written(path, *args, **kw):  # type: ignore[no-untyped-def]
        real_write(path, *args, **kw)
        raise KeyboardInterrupt

    monkeypatch.setattr(histkit.simulate, "write_session", half_written)
    argv = ["simulate", "--hands", "40", "--seed", "2", "--faults", "0.2", "-o", str(hands)]
    assert main(argv) == 130
    # the earlier files stand, and no temporary file is left
    assert hands.read_text() == first
    assert (tmp_path / "h.truth.jsonl").read_text() == truth
    assert report.read_text() == html
    assert sorted(p.name for p in tmp_path.iterdir()) == ["h.truth.jsonl", "h.txt", "r.html"]
    monkeypatch.undo()
    # a folder where a file is asked for: a usage error before any work
    assert main(["report", str(hands), "-o", str(tmp_path)]) == 2
    assert main(["simulate", "--hands", "5", "-o", str(tmp_path)]) == 2
    assert capsys.readouterr().err.count("is a folder") == 2


def test_audit_and_stats_outputs(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    hands = tmp_path / "h.txt"
    write_session(hands, "stud", 20, seed=3)
    for cmd in (["audit", "--format", "csv"], ["stats", "--format", "csv"]):
        out = tmp_path / f"{cmd[0]}.csv"
        out.write_text("old")
        assert main([cmd[0], str(hands), *cmd[1:], "-o", str(out)]) == 0
        assert out.read_text().count("\n") >= 1 and out.read_text() != "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["audit.csv", "h.txt", "stats.csv"]


def test_atomic_path(tmp_path: Path) -> None:
    from histkit.atomic import atomic_path, atomic_write_text

    target = tmp_path / "t.txt"
    atomic_write_text(target, "one\n")
    with pytest.raises(RuntimeError), atomic_path(target) as tmp:
        tmp.write_text("two, half")
        raise RuntimeError
    assert target.read_text() == "one\n" and [p.name for p in tmp_path.iterdir()] == ["t.txt"]
    with atomic_path(target) as tmp:
        tmp.write_text("two\n")
        assert target.read_text() == "one\n"  # not before the block ends
    assert target.read_text() == "two\n"


def test_write_tables_api(tmp_path: Path) -> None:
    """Tables built in memory become a folder `histkit stats` reads."""
    from histkit.tables import TableBuilder
    from histkit.warehouse import write_tables

    empty = TableBuilder(audit=True).build()
    write_tables(tmp_path / "t", empty)
    got = read_tables(tmp_path / "t")
    assert set(got) == set(SCHEMAS) and all(t.num_rows == 0 for t in got.values())
    assert all(isinstance(t, pa.Table) for t in got.values())
