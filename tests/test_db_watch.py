"""`histkit watch`: hands imported as a client writes them, while another process reads
the database again and again (`histkit stats --db FILE --format json`): every read
succeeds, and the database ends with exactly the hands written. Ctrl-C stops it cleanly."""

from __future__ import annotations

import io
import json
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.test_db_import import dump, simulated

pytest.importorskip("duckdb")

import histkit.db as hdb  # noqa: E402
from histkit.db.watch import Watcher  # noqa: E402

READER = r"""
import contextlib, io, json, os, sys
from histkit.cli import main
db, stop, tally = sys.argv[1], sys.argv[2], sys.argv[3]
calls, failures, most = 0, [], 0
while not os.path.exists(stop):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["stats", "--db", db, "--format", "json"])
    calls += 1
    if code == 2 and most == 0 and "holds no hands yet" in err.getvalue():
        pass  # read before the first hand was imported: the answer for an empty database
    elif code != 0:
        failures.append(err.getvalue()[-300:])
    else:
        rows = json.loads(out.getvalue())
        most = max([most, *(r["hands"] for r in rows)])
    with open(tally, "a") as f:
        f.write("x")
print(json.dumps({"calls": calls, "failures": failures, "most": most}))
"""


def pieces(data: bytes, rng: random.Random) -> list[bytes]:
    """The session as a client writes it: hand by hand, some hands in two or three
    pieces (cut anywhere, or at a line end), with blank lines after each hand."""
    out = []
    for hand in data.split(b"\n\n\n\n"):
        if not hand:
            continue
        hand += b"\n\n\n\n"
        if rng.random() < 0.5:
            ends = [i + 1 for i, b in enumerate(hand) if b == 10]
            cuts = sorted({rng.randrange(1, len(hand)), rng.choice(ends)})
            out.extend(hand[a:b] for a, b in zip([0, *cuts], [*cuts, len(hand)], strict=True))
        else:
            out.append(hand)
    return [p for p in out if p]


def hands_in(db: Path) -> int:
    with hdb.connect(db) as con:
        return int(con.sql("select count(*) from hands").fetchall()[0][0])


@pytest.mark.slow
def test_watch_imports_hands_as_they_are_written_while_readers_read(tmp_path: Path) -> None:
    data = simulated(tmp_path / "src.txt", 12, seed=31).read_bytes()
    folder = tmp_path / "hh"
    folder.mkdir()
    live = folder / "session.txt"
    db = tmp_path / "hands.duckdb"
    stop = tmp_path / "stop"
    tally = tmp_path / "calls"
    tally.write_text("")
    cmd = [sys.executable, "-m", "histkit", "watch", str(folder), "--db", str(db)]
    watch = subprocess.Popen(
        [*cmd, "--interval", "0.1", "--jobs", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    reader = None
    try:
        deadline = time.monotonic() + 60
        while not db.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        reader = subprocess.Popen(
            [sys.executable, "-c", READER, str(db), str(stop), str(tally)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        rng = random.Random(7)
        for piece in pieces(data, rng):
            with open(live, "ab") as f:
                f.write(piece)
            time.sleep(rng.uniform(0.1, 0.3))
        done = len(tally.read_text())
        while time.monotonic() < deadline and (
            hands_in(db) < 12 or len(tally.read_text()) < max(done + 1, 3)
        ):
            time.sleep(0.2)  # every hand in, and the reader read them at least once more
        stop.touch()
        got, err = reader.communicate(timeout=60)
        assert reader.returncode == 0, err[-2000:]
        result = json.loads(got.strip().splitlines()[-1])
        assert result["failures"] == [] and result["calls"] >= 3
        assert result["most"] > 0  # it read hands

        watch.send_signal(signal.SIGINT)
        out, err = watch.communicate(timeout=60)
    finally:
        for p in (watch, reader):
            if p is not None and p.poll() is None:
                p.kill()
    assert watch.returncode == 0, err[-2000:]
    assert "Traceback" not in err
    lines = out.strip().splitlines()
    assert lines[-1].startswith("Stopped watching: 12 hands imported in ")
    assert lines[-1].endswith("; 0 pending.")
    assert len(lines) >= 3  # not a terminal: a status line per batch
    clean = tmp_path / "clean.duckdb"
    hdb.import_paths([live], db=clean)
    assert dump(db) == dump(clean)


def test_a_poll_of_unchanged_folders_does_not_touch_the_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import histkit.db.watch as watch_module

    # the files were written well before (a file changed within RACY_NS of a poll is
    # looked at again by the next: tests/test_db_import.py)
    monkeypatch.setattr(watch_module, "RACY_NS", 0)
    folder = tmp_path / "hh"
    folder.mkdir()
    simulated(folder / "a.txt", 3, seed=32)
    db = tmp_path / "hands.duckdb"
    out = tmp_path / "out.txt"
    with open(out, "w") as f:
        w = Watcher([folder], db=str(db), interval=0.01, out=f)
        w.run(polls=1)
        assert hands_in(db) == 3

        def no_import(*a: object, **kw: object) -> None:
            raise AssertionError("an unchanged folder was imported again")

        monkeypatch.setattr(watch_module, "import_paths", no_import)
        w.run(polls=3, sleep=lambda s: None)
        monkeypatch.undo()
        simulated(folder / "b.txt", 2, seed=33)
        w.run(polls=1)
    assert hands_in(db) == 5
    assert w.summary() == "Stopped watching: 5 hands imported in 2 batches; 0 pending."
    text = out.read_text().splitlines()
    assert len(text) == 2 and text[-1].endswith(f"last: {folder / 'b.txt'}")


def test_watch_sees_a_file_rewritten_with_the_same_size_and_time(tmp_path: Path) -> None:
    from tests.test_db_import import rewritten_in_place

    folder = tmp_path / "hh"
    folder.mkdir()
    path = simulated(folder / "a.txt", 10, seed=43)
    db = tmp_path / "hands.duckdb"
    w = Watcher([folder], db=str(db), interval=0.01, out=io.StringIO())
    w.run(polls=2, sleep=lambda s: None)
    rewritten_in_place(path)
    w.run(polls=1)
    with hdb.connect(db) as con:
        ids = [r[0] for r in con.sql("select hand_id from hands").fetchall()]
    assert len(ids) == 10 and all(i.startswith("3") for i in ids), ids
    assert w.added - w.removed == 10 and w.removed == 10


@pytest.mark.slow
@pytest.mark.parametrize("how", ["truncated", "renamed", "deleted"])
def test_watch_treats_a_truncated_renamed_or_deleted_file_as_import_does(
    how: str, tmp_path: Path
) -> None:
    from tests.test_db_import import _change, assert_same

    folder = tmp_path / "hh"
    folder.mkdir()
    simulated(folder / "a.txt", 10, seed=44)
    simulated(folder / "b.txt", 5, seed=45)
    db = tmp_path / "hands.duckdb"
    w = Watcher([folder], db=str(db), interval=0.01, out=io.StringIO())
    w.run(polls=1)
    _change(folder, how)
    w.run(polls=1)
    fresh = tmp_path / "fresh.duckdb"
    hdb.import_paths([folder], db=fresh)
    assert_same(dump(db), dump(fresh))
