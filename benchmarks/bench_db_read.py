"""`histkit stats --db` against `histkit stats` on the text the database was made of.

    python benchmarks/bench_db_read.py [--hands 100000] [--rounds 3] [--jobs N] [--workdir DIR]
                                       [--out benchmarks/results]

Simulates `--hands` hands of 6-max Stud Hi/Lo as one PokerStars file and imports it into a
hand database (`histkit import`, with the audit): both are kept in the work folder (default:
`histkit-bench-db/` in the system's temporary folder, never inside the project: 100,000
hands are about 215 MB of text) and reused by the next run. Then it alternates, `--rounds`
times, whole `histkit stats --format json` processes: on the text (parse and replay in
`--jobs` processes), on the database, and on the database with a one-day filter (pushed
into SQL, so only that day's rows are copied out). Prints the medians of wall time, CPU
time (the process and its workers) and peak memory, each as a ratio to the text run, and
checks that the text and the database give the same figures. Read the ratios, not the
absolute figures: the machines are shared and noisy. Writes `db_read.json` and
`db_read.md` into --out. Every figure is of a whole command (Python's start-up included).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, NamedTuple

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))


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


def simulated(workdir: Path, hands: int) -> Path:
    """`hands` hands of 6-max Stud Hi/Lo as one PokerStars file in `workdir`, simulated
    once and then reused (`bench_db_import.py` splits the same file into a folder)."""
    workdir.mkdir(parents=True, exist_ok=True)
    text = workdir / f"stud_hilo_{hands}.txt"
    if not text.exists():
        t = time.perf_counter()
        part = text.with_suffix(".partial")
        histkit("simulate", "--game", "stud_hilo", "--hands", str(hands), "--seed", "13",
                "-o", str(part), "-q")  # fmt: skip
        part.rename(text)
        print(f"simulated {hands:,} hands in {time.perf_counter() - t:,.0f} s: {text}")
    return text


def prepare(workdir: Path, hands: int, jobs: int) -> tuple[Path, Path, str]:
    """The text and its database (made once, then reused), and the UTC day most of the
    text's hands were played on."""
    text = simulated(workdir, hands)
    db = workdir / f"stud_hilo_{hands}.duckdb"
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
    from benchmarks.run import build_mode, machine

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=100_000)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="for the text run")
    workdir = Path(tempfile.gettempdir()) / "histkit-bench-db"
    ap.add_argument("--workdir", type=Path, default=workdir)
    ap.add_argument("--out", type=Path, default=HERE / "results", help="output folder")
    args = ap.parse_args()
    text, db, day = prepare(args.workdir, args.hands, args.jobs)
    cases = {
        "stats TEXT": ["stats", str(text), "--jobs", str(args.jobs)],
        "stats --db": ["stats", "--db", str(db)],
        "stats --db, one day": ["stats", "--db", str(db), "--since", day, "--until", day],
    }
    runs: dict[str, list[Run]] = {name: [] for name in cases}
    for _ in range(args.rounds):
        for name, argv in cases.items():
            runs[name].append(histkit(*argv, "--format", "json"))
    first, second = list(cases)[:2]
    same = runs[first][0].out == runs[second][0].out
    base = {k: statistics.median(getattr(r, k) for r in runs[first]) for k in ("wall", "cpu")}
    base_mem = statistics.median(r.peak_kib for r in runs[first])
    figures: dict[str, dict[str, float]] = {}
    for name, rs in runs.items():
        wall = statistics.median(r.wall for r in rs)
        cpu = statistics.median(r.cpu for r in rs)
        mem = statistics.median(r.peak_kib for r in rs)
        figures[name] = {
            "wall_seconds": wall,
            "cpu_seconds": cpu,
            "peak_mib": mem / 1024,
            "wall_ratio": wall / base["wall"],
            "cpu_ratio": cpu / base["cpu"],
            "peak_ratio": mem / base_mem,
        }
    result: dict[str, Any] = {
        "machine": machine(),
        "build": build_mode(),
        "hands": args.hands,
        "rounds": args.rounds,
        "jobs": args.jobs,
        "day": day,
        "same_figures": same,
        "measured": "whole commands (fresh processes, start-up included), medians",
        "runs": figures,
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "db_read.json").write_text(json.dumps(result, indent=2) + "\n")
    md = markdown(result)
    (args.out / "db_read.md").write_text(md)
    print(md)
    if not same:
        raise SystemExit("the database's figures differ from the text's")


def markdown(r: dict[str, Any]) -> str:
    m = r["machine"]
    lines = [
        f"Measured {m['date']} on {m['platform']}, Python {m['python']}, {m['cores']} cores "
        f"(load average {m['load_average'][0]:.1f}); {r['hands']:,} simulated Stud Hi/Lo "
        f"hands; histkit {r['build']}; the text read with --jobs {r['jobs']}; whole "
        f"commands (`histkit stats --format json`, start-up included), medians of "
        f"{r['rounds']} alternated rounds. The text and the database give the same figures: "
        f"{'yes' if r['same_figures'] else 'NO'}.",
        "",
        "| whole command | wall s | ratio | CPU s | ratio | peak MiB | ratio |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for name, f in r["runs"].items():
        label = f"{name} ({r['day']})" if "one day" in name else name
        lines.append(
            f"| `histkit {label}` | {f['wall_seconds']:.2f} | {f['wall_ratio']:.3f}x | "
            f"{f['cpu_seconds']:.2f} | {f['cpu_ratio']:.3f}x | {f['peak_mib']:.0f} | "
            f"{f['peak_ratio']:.2f}x |"
        )
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
