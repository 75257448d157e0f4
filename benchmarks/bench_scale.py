"""Every command at scale (issue 25): peak memory and CPU time per hand of whole `histkit`
commands on simulated Stud Hi/Lo sessions of growing size.

    python benchmarks/bench_scale.py [--sizes 20000,100000] [--million] [--rounds 2]
        [--jobs 1] [--workdir DIR] [--out benchmarks/results]

For each size, the simulated session of `benchmarks/run.py` (8-max, four tables; made once,
kept in --workdir: 100,000 hands are 230 MB of text) goes through, as a user runs them:

    parse F -o DIR            parse F -o DIR --audit        audit F
    import F --db DB          stats F                       stats --db DB
    report F -o report.html

each a fresh process (`--jobs`, default 1: one process's memory and CPU), its peak RSS and
CPU time (user + system, its worker processes included) from `os.wait4` (the
`getrusage(RUSAGE_CHILDREN)` figures of that one child). The commands run in turn, every
size in each of --rounds rounds (alternated: a busy moment of the machine falls on all of
them alike), the load average recorded before each run; medians per command and size.
`--million` adds 1,000,000 hands (not run by default: hours in pure Python, and 2.3 GB
of text in --workdir).

The issue's goals, given for each command in the results: peak RSS at every size within
1.2x of the smallest size's, CPU time per hand within 1.2x, and `parse --audit` at most
1.1x the CPU time of `audit` on the same hands. Machines are shared and noisy: read the
ratios, never assert on these figures. Writes `scale.json` and `scale.md` into --out.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from benchmarks.run import build_mode, corpus, machine, measured_command  # noqa: E402

MILLION = 1_000_000
COMMANDS = (
    "parse",
    "parse --audit",
    "audit",
    "import --db",
    "stats (text)",
    "stats --db",
    "report",
)


def argv_of(name: str, source: Path, scratch: Path, jobs: int) -> list[str]:
    """The command line of one measured command (its outputs in `scratch`)."""
    j = ["--jobs", str(jobs), "-q"]
    db = str(scratch / "hands.duckdb")
    return {
        "parse": ["parse", str(source), "-o", str(scratch / "parse"), *j],
        "parse --audit": ["parse", str(source), "-o", str(scratch / "parsea"), "--audit", *j],
        "audit": ["audit", str(source), *j],
        "import --db": ["import", str(source), "--db", db, *j],
        "stats (text)": ["stats", str(source), *j],
        "stats --db": ["stats", "--db", db, *j],
        "report": ["report", str(source), "-o", str(scratch / "report.html"), *j],
    }[name]


def clear(name: str, scratch: Path) -> None:
    """Remove what a command wrote before it runs again (an import starts a new database;
    `stats --db` reads the one the import before it wrote)."""
    for part in {"parse": ["parse"], "parse --audit": ["parsea"], "report": ["report.html"]}.get(
        name, []
    ):
        shutil.rmtree(scratch / part, ignore_errors=True)
        (scratch / part).unlink(missing_ok=True)
    if name == "import --db":
        for f in scratch.glob("hands.duckdb*"):
            f.unlink()


def measure(
    sizes: list[int], rounds: int, jobs: int, workdir: Path, commands: tuple[str, ...]
) -> dict[str, Any]:
    files = {n: corpus(workdir, n) for n in sizes}
    runs: dict[str, dict[int, list[dict[str, float]]]] = {
        c: {n: [] for n in sizes} for c in commands
    }
    for _ in range(rounds):
        for n in sizes:
            scratch = workdir / f"out_{n}"
            scratch.mkdir(exist_ok=True)
            for name in commands:
                clear(name, scratch)
                load = os.getloadavg()[0]
                wall, cpu, rss = measured_command(argv_of(name, files[n], scratch, jobs))
                runs[name][n].append({"wall": wall, "cpu": cpu, "rss_kib": rss, "load": load})
    out: dict[str, Any] = {}
    small = min(sizes)
    for name in commands:
        rows = {}
        for n in sizes:
            got = runs[name][n]
            cpu = statistics.median(r["cpu"] for r in got)
            rss = statistics.median(r["rss_kib"] for r in got) / 1024
            rows[n] = {
                "cpu_seconds": round(cpu, 2),
                "cpu_us_per_hand": round(cpu / n * 1e6, 1),
                "peak_rss_mb": round(rss, 1),
                "wall_seconds": round(statistics.median(r["wall"] for r in got), 2),
                "load_average_1min": [round(r["load"], 2) for r in got],
                "runs": len(got),
            }
        base = rows[small]
        for n in sizes:
            rows[n]["rss_ratio_to_smallest"] = round(
                rows[n]["peak_rss_mb"] / base["peak_rss_mb"], 2
            )
            rows[n]["cpu_per_hand_ratio_to_smallest"] = round(
                rows[n]["cpu_us_per_hand"] / base["cpu_us_per_hand"], 2
            )
        out[name] = {str(n): rows[n] for n in sizes}
    if "parse --audit" in out and "audit" in out:
        out["parse --audit / audit (CPU)"] = {
            str(n): round(
                out["parse --audit"][str(n)]["cpu_seconds"] / out["audit"][str(n)]["cpu_seconds"], 2
            )
            for n in sizes
        }
    return out


def markdown(result: dict[str, Any]) -> str:
    sizes = result["sizes"]
    lines = [
        "# Every command at scale (`benchmarks/bench_scale.py`)",
        "",
        f"Build: {result['build']}; jobs {result['jobs']}; {result['rounds']} alternated "
        f"round(s), medians. Machine: {result['machine']['cores']} cores, load average "
        f"{', '.join(f'{x:.1f}' for x in result['machine']['load_average'])} at the start "
        "(each run's 1-minute load is in scale.json).",
        "",
        "| command | "
        + " | ".join(f"RSS {n:,} (MB)" for n in sizes)
        + " | "
        + " | ".join(f"CPU/hand {n:,} (µs)" for n in sizes)
        + " | RSS ratio | CPU/hand ratio |",
        "|---|" + "---:|" * (2 * len(sizes) + 2),
    ]
    big = str(max(sizes))
    for name in result["commands"]:
        rows = result["figures"][name]
        lines.append(
            f"| `{name}` | "
            + " | ".join(f"{rows[str(n)]['peak_rss_mb']:,.0f}" for n in sizes)
            + " | "
            + " | ".join(f"{rows[str(n)]['cpu_us_per_hand']:,.0f}" for n in sizes)
            + f" | {rows[big]['rss_ratio_to_smallest']:.2f} | "
            f"{rows[big]['cpu_per_hand_ratio_to_smallest']:.2f} |"
        )
    ratio = result["figures"].get("parse --audit / audit (CPU)")
    if ratio:
        lines += [
            "",
            "`parse --audit` CPU over `audit` CPU: "
            + ", ".join(f"{v:.2f}x at {int(n):,} hands" for n, v in ratio.items())
            + " (goal: at most 1.1x).",
        ]
    lines += [
        "",
        "Ratios are the largest size's over the smallest's (goals: each within 1.2x).",
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="20000,100000", help="hands per session, comma-separated")
    ap.add_argument("--million", action="store_true", help="also 1,000,000 hands (hours)")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--commands", default=",".join(COMMANDS), help="a comma-separated subset")
    ap.add_argument("--workdir", type=Path, default=None, help="sessions and outputs (kept)")
    ap.add_argument("--out", type=Path, default=HERE / "results")
    args = ap.parse_args(argv)
    sizes = sorted({int(s) for s in args.sizes.split(",") if s.strip()})
    if args.million and MILLION not in sizes:
        sizes.append(MILLION)
    commands = tuple(c.strip() for c in args.commands.split(",") if c.strip())
    unknown = [c for c in commands if c not in COMMANDS]
    if unknown:
        ap.error(f"unknown command(s) {unknown}; known: {', '.join(COMMANDS)}")
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="histkit-scale-"))
    workdir.mkdir(parents=True, exist_ok=True)
    start = machine()
    figures = measure(sizes, args.rounds, args.jobs, workdir, commands)
    result = {
        "build": build_mode(),
        "jobs": args.jobs,
        "rounds": args.rounds,
        "sizes": sizes,
        "commands": list(commands),
        "machine": start,
        "load_average_at_end": os.getloadavg(),
        "figures": figures,
    }
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "scale.json").write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    (args.out / "scale.md").write_text(markdown(result), encoding="utf-8")
    print(markdown(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
