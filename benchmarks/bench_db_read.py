"""`histkit stats --db` against `histkit stats` on the text the database was made of.

    python benchmarks/bench_db_read.py [--hands 100000] [--rounds 3] [--jobs N] [--workdir DIR]

Simulates `--hands` hands of 6-max Stud Hi/Lo as one PokerStars file and imports it into a
hand database (`histkit import`, with the audit): both are kept in the work folder (default:
`histkit-bench-db/` in the system's temporary folder, never inside the project: 100,000
hands are about 215 MB of text) and reused by the next run. Then it alternates, `--rounds`
times, whole `histkit stats --format json` processes: on the text (parse and replay in
`--jobs` processes), on the database, and on the database with a one-day filter (pushed
into SQL, so only that day's rows are copied out). Prints the medians of wall time, CPU
time (the process and its workers) and peak memory, each as a ratio to the text run, and
checks that the text and the database give the same figures. Read the ratios, not the
absolute figures: the machines are shared and noisy.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


class Run(NamedTuple):
    wall: float  # seconds
    cpu: float  # seconds, user + system, the process and its children
    peak_kib: int  # the largest resident set of the process or one of its children
    out: bytes


def histkit(*argv: str) -> Run:
    """One whole `histkit` process, measured with `wait4` (its own rusage)."""
    t = time.perf_counter()
    with tempfile.TemporaryFile() as out:
        proc = subprocess.Popen([sys.executable, "-m", "histkit", *argv], stdout=out)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            raise SystemExit(f"histkit {' '.join(argv)} exited {proc.returncode}")
        out.seek(0)
        text = out.read()
    # on Linux, wait4 reports the process and the workers it waited for (RUSAGE_BOTH)
    return Run(wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss, text)


def prepare(workdir: Path, hands: int, jobs: int) -> tuple[Path, Path, str]:
    """The text and its database (made once, then reused), and the UTC day most of the
    text's hands were played on."""
    workdir.mkdir(parents=True, exist_ok=True)
    text = workdir / f"stud_hilo_{hands}.txt"
    db = workdir / f"stud_hilo_{hands}.duckdb"
    if not text.exists():
        t = time.perf_counter()
        part = text.with_suffix(".partial")
        histkit("simulate", "--game", "stud_hilo", "--hands", str(hands), "--seed", "13",
                "-o", str(part), "-q")  # fmt: skip
        part.rename(text)
        print(f"simulated {hands:,} hands in {time.perf_counter() - t:,.0f} s: {text}")
    if not db.exists():
        t = time.perf_counter()
        part = db.with_suffix(".partial")
        part.unlink(missing_ok=True)
        histkit("import", str(text), "--db", str(part), "--jobs", str(jobs), "-q")
        part.rename(db)
        print(f"imported them in {time.perf_counter() - t:,.0f} s: {db}")
    import duckdb

    con = duckdb.connect(str(db), read_only=True)
    try:
        con.execute("SET TimeZone = 'UTC'")
        row = con.execute(
            "SELECT strftime(started_at, '%Y-%m-%d') AS day, count(*) AS n FROM hands "
            "GROUP BY day ORDER BY n DESC LIMIT 1"
        ).fetchone()
    finally:
        con.close()
    assert row is not None
    return text, db, str(row[0])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=100_000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="for the text run")
    workdir = Path(tempfile.gettempdir()) / "histkit-bench-db"
    ap.add_argument("--workdir", type=Path, default=workdir)
    args = ap.parse_args()
    text, db, day = prepare(args.workdir, args.hands, args.jobs)
    cases = {
        "stats TEXT": ["stats", str(text), "--jobs", str(args.jobs)],
        "stats --db": ["stats", "--db", str(db)],
        f"stats --db, one day ({day})": ["stats", "--db", str(db), "--since", day, "--until", day],
    }
    runs: dict[str, list[Run]] = {name: [] for name in cases}
    for _ in range(args.rounds):
        for name, argv in cases.items():
            runs[name].append(histkit(*argv, "--format", "json"))
    first, second = list(cases)[:2]
    same = runs[first][0].out == runs[second][0].out
    print(f"{args.hands:,} hands of stud_hilo, {args.rounds} rounds alternated, medians; "
          f"text read with --jobs {args.jobs}; the same figures: {same}")  # fmt: skip
    base = {k: statistics.median(getattr(r, k) for r in runs[first]) for k in ("wall", "cpu")}
    base_mem = statistics.median(r.peak_kib for r in runs[first])
    for name, rs in runs.items():
        wall = statistics.median(r.wall for r in rs)
        cpu = statistics.median(r.cpu for r in rs)
        mem = statistics.median(r.peak_kib for r in rs)
        print(f"  {name:<40} wall {wall:8.1f} s ({wall / base['wall']:.3f}x)  "
              f"cpu {cpu:8.1f} s ({cpu / base['cpu']:.3f}x)  "
              f"peak {mem / 1024:7.0f} MiB ({mem / base_mem:.2f}x)")  # fmt: skip
    if not same:
        raise SystemExit("the database's figures differ from the text's")


if __name__ == "__main__":
    main()
