"""An import killed (SIGKILL) at a random moment leaves a database that opens, passes
`histkit.db.check`, holds all of that import's hands or none of them, and is completed by
the next import to exactly the tables a clean import of the same files gives.

The import killed does everything at once: a file grown (its pending last hand completed),
a file changed in the middle (its old hands removed, read again), a new file. Each import
runs in a process forked from a helper that has imported histkit already, so the random
moments fall in the import itself rather than in Python's start-up; with batches of a
few hands, so that the moments fall while rows are staged and spilled to disk too.
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.test_db_import import dump, problems, simulated

pytest.importorskip("duckdb")
if not hasattr(os, "fork"):
    pytest.skip("needs fork", allow_module_level=True)

import histkit.db as hdb  # noqa: E402

POINTS = 10  # per test; two tests: 20 kill points

HELPER = r"""
import os, sys, tempfile, time
import histkit.db
import histkit.db.store
from histkit.parallel import build_tables
build_tables([sys.argv[1]], audit=True)  # parsers built before any import starts
histkit.db.store.BATCH_HANDS = 4  # staged batches spilled to disk ...
tempfile.tempdir = sys.argv[2]  # ... here
print("ready", flush=True)
for line in sys.stdin:
    folder, db = line.rstrip("\n").split("\t")
    pid = os.fork()
    if pid == 0:
        try:
            histkit.db.import_paths([folder], db=db, jobs=1)
        finally:
            os._exit(0)
    t = time.perf_counter()
    print(pid, flush=True)
    _, status = os.waitpid(pid, 0)
    print(status, time.perf_counter() - t, flush=True)
"""


@dataclass
class Scene:
    folder: Path
    base: Path  # the database before the import
    before: dict[str, Any]
    after: dict[str, Any]  # what a clean import of the files as they are now gives


@pytest.fixture(scope="module")
def scene(tmp_path_factory: pytest.TempPathFactory) -> Scene:
    d = tmp_path_factory.mktemp("kill")
    hh = d / "hh"
    hh.mkdir()
    full = simulated(d / "a_full.txt", 16, seed=21).read_bytes()
    (hh / "a.txt").write_bytes(full[: len(full) * 2 // 3])  # ends inside a hand
    simulated(hh / "b.txt", 12, seed=22)
    base = d / "base.duckdb"
    hdb.import_paths([hh], db=base)
    (hh / "a.txt").write_bytes(full)
    hands = (hh / "b.txt").read_bytes().split(b"\n\n\n\n")
    (hh / "b.txt").write_bytes(b"\n\n\n\n".join(hands[:4] + hands[6:]))
    simulated(hh / "c.txt", 10, seed=23)
    ref = d / "ref.duckdb"
    hdb.import_paths([hh], db=ref)
    return Scene(hh, base, dump(base), dump(ref))


class Helper:
    """The process that forks the imports."""

    def __init__(self, warm_up: Path, spill: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", HELPER, str(warm_up), str(spill)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self._line() == "ready"

    def _line(self) -> str:
        assert self.proc.stdout is not None
        return self.proc.stdout.readline().strip()

    def start(self, folder: Path, db: Path) -> int:
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"{folder}\t{db}\n")
        self.proc.stdin.flush()
        return int(self._line())

    def result(self) -> tuple[int, float]:
        status, seconds = self._line().split()
        return int(status), float(seconds)

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2])
def test_an_import_killed_at_random_moments(scene: Scene, tmp_path: Path, seed: int) -> None:
    spill = tmp_path / "spill"
    spill.mkdir()
    helper = Helper(scene.folder / "c.txt", spill)
    try:
        # how long the whole import takes, not killed: the moments are drawn within it
        db = tmp_path / "whole.duckdb"
        shutil.copy(scene.base, db)
        helper.start(scene.folder, db)
        status, seconds = helper.result()
        assert status == 0
        print(f"the import takes {seconds:.2f} s")
        assert dump(db) == scene.after

        rng = random.Random(seed)
        outcomes = []
        for point in range(POINTS):
            db = tmp_path / f"killed-{point}.duckdb"
            shutil.copy(scene.base, db)
            pid = helper.start(scene.folder, db)
            time.sleep(rng.uniform(0, seconds * 1.1))
            with contextlib.suppress(ProcessLookupError):  # it finished first
                os.kill(pid, signal.SIGKILL)
            status, _ = helper.result()
            left = dump(db)
            assert problems(db) == [], point
            assert left in (scene.before, scene.after), point  # all of it or none
            outcomes.append(left == scene.after)
            again = hdb.import_paths([scene.folder], db=db)
            assert dump(db) == scene.after, point
            assert again.hands_added == 0 or not outcomes[-1]
    finally:
        helper.close()
    assert not all(outcomes), "every kill came after the commit: the moments are too late"
