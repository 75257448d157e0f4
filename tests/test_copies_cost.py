"""Copies of a hand cost nothing (issue 28 item 6): `stats` and `report` on a file of one
hand written 50,000 times keep each (site, hand id) once before any table is built, so
their peak memory stays under a fixed limit (it grew by about 8 KB a copy: 1,000,000
copies took 8 GB in `stats` and 15.6 GB in `report`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from histkit.cli import main

COPIES = 50_000
LIMIT_MB = 500

# runs a command in a child process and prints the child's peak RSS (KiB on Linux)
_MEASURE = """
import resource, subprocess, sys
out = subprocess.DEVNULL if "-o" in sys.argv else None
rc = subprocess.run(sys.argv[1:], stdout=out).returncode
print(rc, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)
"""


def _peak(args: list[str], out: Path) -> tuple[int, float, str, str]:
    """(exit status, peak RSS in MB, stdout, stderr) of `histkit ARGS` in a fresh process."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parent.parent)}
    got = subprocess.run(
        [sys.executable, "-c", _MEASURE, sys.executable, "-m", "histkit", *args],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    last = got.stderr.strip().splitlines()[-1].split()
    return int(last[0]), int(last[1]) / 1024, got.stdout, got.stderr


@pytest.fixture(scope="module")
def copies(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("copies")
    one = folder / "one.txt"
    assert main(["simulate", "--hands", "1", "--seed", "3", "--hero", "Hero", "-o", str(one),
                 "-q"]) == 0  # fmt: skip
    hand = one.read_text().strip() + "\n\n\n"
    path = folder / "copies.txt"
    with path.open("w") as f:
        for _ in range(COPIES):
            f.write(hand)
    return path


@pytest.mark.slow
def test_stats_on_copies_of_one_hand_stay_small(copies: Path, tmp_path: Path) -> None:
    rc, mb, out, err = _peak(["stats", str(copies), "--format", "json", "-j", "1"], tmp_path)
    assert rc == 0, err
    rows = json.loads(out)
    assert rows and all(r["hands"] == 1 for r in rows)
    assert f"read {COPIES:,} stud hands ({COPIES - 1:,} of them copies" in err
    assert "counted in the figures: 1." in err
    assert mb < LIMIT_MB, f"stats on {COPIES:,} copies of a hand peaked at {mb:.0f} MB"


@pytest.mark.slow
def test_report_on_copies_of_one_hand_stays_small(copies: Path, tmp_path: Path) -> None:
    html = tmp_path / "r.html"
    rc, mb, _, err = _peak(["report", str(copies), "-o", str(html), "-j", "1"], tmp_path)
    assert rc == 0, err
    assert "1 hand · " in html.read_text()
    assert "counted in the figures: 1." in err
    assert mb < LIMIT_MB, f"report on {COPIES:,} copies of a hand peaked at {mb:.0f} MB"


@pytest.mark.slow
def test_stats_on_a_folder_of_copies_stays_small(copies: Path, tmp_path: Path) -> None:
    """`parse -o` keeps every copy as read; stats on that folder keeps each hand once
    on disk, in DuckDB (it loaded the folder whole: 9.6 GB at 1,000,000 copies)."""
    out = tmp_path / "tables"
    assert main(["parse", str(copies), "-o", str(out), "-q", "-j", "1"]) == 0
    rc, mb, got, err = _peak(["stats", str(out), "--format", "json"], tmp_path)
    assert rc == 0, err
    rows = json.loads(got)
    assert rows and all(r["hands"] == 1 for r in rows)
    assert f"read {COPIES:,} stud hands ({COPIES - 1:,} of them copies" in err
    assert "counted in the figures: 1." in err
    assert mb < LIMIT_MB, f"stats on a folder of {COPIES:,} copies peaked at {mb:.0f} MB"
