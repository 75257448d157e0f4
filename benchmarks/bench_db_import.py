"""The hand database's import (issue 13): its throughput against `histkit parse` on the
same hands, what the audit adds, and the re-import of an unchanged folder.

    python benchmarks/bench_db_import.py [--hands 20000] [--files 1000] [--rounds 3]
                                         [--jobs 2] [--out benchmarks/results]

1. The simulated Stud Hi/Lo corpus of `benchmarks/run.py` (made once, cached in --out).
2. Alternated --rounds times as whole commands (fresh processes, start-up included, as a
   user runs them): `histkit parse F -o DIR` and `histkit import F --db NEW --no-audit`;
   `histkit parse F -o DIR --audit` and `histkit import F --db NEW` (the audit is the
   import's default). Medians; the ratio is the import's throughput over parse's.
3. The same hands split into --files files; a first import of that folder, then --rounds
   imports of it unchanged: seconds per 1,000 files, as a whole command and as the library
   call in this process (no start-up), and the share of the first import it costs.
4. One hand appended to one of those files: the import that reads it on.

Machines are shared and noisy: read the ratios, which compare runs made moments apart, and
never assert on these figures. Writes `db_import.json` and `db_import.md` into --out.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from benchmarks.run import build_mode, command, corpus  # noqa: E402

SEP = b"\n\n\n\n"  # between the simulator's hands


def split(path: Path, folder: Path, files: int) -> int:
    """The corpus's hands dealt into `files` files of consecutive hands; hands written."""
    hands = [h for h in path.read_bytes().split(SEP) if h.strip()]
    per = max(1, -(-len(hands) // files))
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(0, len(hands), per):
        (folder / f"session-{i // per:05d}.txt").write_bytes(SEP.join(hands[i : i + per]) + SEP)
    return len(hands)


def alternate(jobs: dict[str, list[str]], rounds: int, scratch: Path) -> dict[str, float]:
    """Median wall seconds of whole commands, alternated within each round; each import
    into a new database, each parse into a new folder."""
    walls: dict[str, list[float]] = {k: [] for k in jobs}
    for r in range(rounds):
        for name, argv in jobs.items():
            target = scratch / f"{name.replace(' ', '_')}-{r}"
            argv = [a.replace("{OUT}", str(target)) for a in argv]
            walls[name].append(command(argv)[0])
            if target.is_dir():
                shutil.rmtree(target)
            else:
                target.unlink(missing_ok=True)
    return {k: statistics.median(v) for k, v in walls.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--hands", type=int, default=20_000, help="corpus size (default 20,000)")
    ap.add_argument("--files", type=int, default=1_000, help="files to split it into (1,000)")
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds (default 3)")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    ap.add_argument("--out", type=Path, default=HERE / "results", help="output folder")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    print(f"corpus of {args.hands:,} hands ...", flush=True)
    path = corpus(args.out, args.hands)
    n = args.hands
    scratch = Path(tempfile.mkdtemp(prefix="histkit-bench-db-"))
    j = ["--jobs", str(args.jobs), "-q"]
    try:
        print("parse against import, alternated ...", flush=True)
        walls = alternate(
            {
                "histkit parse": ["parse", str(path), "-o", "{OUT}", *j],
                "histkit import --no-audit": [
                    "import",
                    str(path),
                    "--db",
                    "{OUT}",
                    "--no-audit",
                    *j,
                ],
                "histkit parse --audit": ["parse", str(path), "-o", "{OUT}", "--audit", *j],
                "histkit import": ["import", str(path), "--db", "{OUT}", *j],
            },
            args.rounds,
            scratch,
        )

        print(f"{args.files:,} files: parse, first import, then unchanged ...", flush=True)
        folder = scratch / "sessions"
        split(path, folder, args.files)
        files = sum(1 for _ in folder.iterdir())
        db = scratch / "folder.duckdb"
        parse_folder = command(["parse", str(folder), "-o", str(scratch / "folder-out"), *j])[0]
        first = command(["import", str(folder), "--db", str(db), *j])[0]
        again_cmd = statistics.median(
            command(["import", str(folder), "--db", str(db), *j])[0] for _ in range(args.rounds)
        )
        from histkit.db import import_paths

        calls = []
        for _ in range(args.rounds):
            report = import_paths([folder], db=db)
            assert report.hands_added == 0 and report.files_skipped == files, report
            calls.append(report.seconds)
        again_call = statistics.median(calls)

        print("one hand appended to one file, twice ...", flush=True)
        grown = sorted(folder.iterdir())[files // 2]
        one_hand = grown.read_bytes().split(SEP)[0] + SEP
        appended = []
        for mark in (b"Hand #9", b"Hand #8"):  # new hand ids
            with open(grown, "ab") as f:
                f.write(one_hand.replace(b"Hand #", mark, 1))
            report = import_paths([folder], db=db)
            assert report.files_resumed == 1 and report.hands_added == 1, report
            appended.append(report.seconds)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    result: dict[str, Any] = {
        "machine": {
            "platform": platform.platform(),
            "python": platform.python_version(),
            "cores": os.cpu_count(),
            "load_average": os.getloadavg(),
            "date": time.strftime("%Y-%m-%d"),
        },
        "build": build_mode(),
        "hands": n,
        "jobs": args.jobs,
        "seconds": walls,
        "hands_per_second": {k: n / v for k, v in walls.items()},
        "import_vs_parse": walls["histkit parse"] / walls["histkit import --no-audit"],
        "import_vs_parse_audit": walls["histkit parse --audit"] / walls["histkit import"],
        "audit_cost": walls["histkit import"] / walls["histkit import --no-audit"],
        "files": files,
        "parse_folder_seconds": parse_folder,
        "first_import_seconds": first,
        "first_import_vs_parse": parse_folder / first,
        "unchanged_seconds_command": again_cmd,
        "unchanged_seconds_call": again_call,
        "unchanged_per_1000_files_command": again_cmd * 1000 / files,
        "unchanged_per_1000_files_call": again_call * 1000 / files,
        "unchanged_share_of_first": again_cmd / first,
        "one_hand_appended_seconds": appended[0],  # parsers built first in this process
        "another_hand_appended_seconds": appended[1],
    }
    (args.out / "db_import.json").write_text(json.dumps(result, indent=2) + "\n")
    md = markdown(result)
    (args.out / "db_import.md").write_text(md)
    print(md)


def markdown(r: dict[str, Any]) -> str:
    m = r["machine"]
    n, jobs = r["hands"], r["jobs"]
    lines = [
        f"Measured {m['date']} on {m['platform']}, Python {m['python']}, {m['cores']} cores "
        f"(load average {m['load_average'][0]:.1f}); {n:,} simulated Stud Hi/Lo hands; "
        f"histkit {r['build']}; --jobs {jobs}; whole commands, medians of alternated runs.",
        "",
        "| measurement | seconds | hands/s | ratio |",
        "|---|---:|---:|---:|",
    ]
    s, rate = r["seconds"], r["hands_per_second"]
    ratios = {
        "histkit parse": "1.00x",
        "histkit import --no-audit": f"{r['import_vs_parse']:.2f}x parse",
        "histkit parse --audit": "1.00x",
        "histkit import": f"{r['import_vs_parse_audit']:.2f}x parse --audit",
    }
    for k in s:
        lines.append(f"| {k} | {s[k]:.2f} | {rate[k]:,.0f} | {ratios[k]} |")
    files = r["files"]
    lines += [
        "",
        "| the import of a folder | seconds | per 1,000 files |",
        "|---|---:|---:|",
        f"| `histkit parse`, {files:,} files (one run) | {r['parse_folder_seconds']:.2f} | "
        f"{r['parse_folder_seconds'] * 1000 / files:.2f} |",
        f"| first import, {files:,} files (one run; {r['first_import_vs_parse']:.2f}x parse) | "
        f"{r['first_import_seconds']:.2f} | {r['first_import_seconds'] * 1000 / files:.2f} |",
        f"| again, unchanged (whole command) | {r['unchanged_seconds_command']:.2f} | "
        f"{r['unchanged_per_1000_files_command']:.2f} |",
        f"| again, unchanged (`import_paths` call) | {r['unchanged_seconds_call']:.3f} | "
        f"{r['unchanged_per_1000_files_call']:.3f} |",
        f"| one hand appended to one file (`import_paths` call; parsers built) | "
        f"{r['one_hand_appended_seconds']:.3f} | |",
        f"| another hand appended (`import_paths` call) | "
        f"{r['another_hand_appended_seconds']:.3f} | |",
        "",
        f"The audit costs {r['audit_cost']:.2f}x the import without it; an unchanged folder "
        f"costs {r['unchanged_share_of_first']:.1%} of its first import (whole commands).",
    ]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
