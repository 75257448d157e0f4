"""The hand database's import (issue 13): its throughput against `histkit parse` on the
same hands, the re-import of an unchanged folder, and how long an import holds the
database (what a reader may wait).

    python benchmarks/bench_db_import.py [--hands 20000] [--files 1000]
        [--folder-hands 100000] [--folder-files 1000] [--rounds 3] [--jobs 2]
        [--workdir DIR] [--out benchmarks/results]

Each figure says how it was measured: a *whole command* is a fresh `histkit` process, as a
user runs it (Python's start-up, about a second, included); *inside the import* is the
`histkit.db.import_paths` call in this process (its `seconds`, and `write_seconds`: the
hold on the database while the rows are written).

1. One file: the simulated Stud Hi/Lo corpus of `benchmarks/run.py` (--hands, made once,
   cached in --out). Alternated --rounds times as whole commands: `histkit parse F -o DIR`
   and `histkit import F --db NEW --no-audit`; `histkit parse F -o DIR --audit` and
   `histkit import F --db NEW` (the audit is the import's default); medians; the ratio is
   the import's throughput over parse's (the issue's goal: at least 0.8x). Then one import
   inside this process: its time and its hold on the database.
2. The same hands split into --files files: the first import of that folder against
   `histkit parse` of it, alike (with and without the audit), alternated, whole commands.
3. The issue's re-import of an unchanged 100,000-hand folder (goal: under 1 s per 1,000
   files): --folder-hands hands (`bench_db_read.py`'s simulated file, shared in --workdir)
   split into --folder-files files and imported once (kept in --workdir with its database,
   and the time that first import took); then --rounds imports of it unchanged, as whole
   commands and inside the import: seconds per 1,000 files, and the share of the first.
4. One hand appended to one file of the folder of 2: the import that reads it on (inside
   the import).

Machines are shared and noisy: read the ratios, which compare runs made moments apart, and
never assert on these figures. Writes `db_import.json` and `db_import.md` into --out.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from benchmarks.bench_db_read import simulated  # noqa: E402
from benchmarks.run import build_mode, command, corpus, machine  # noqa: E402

SEP = b"\n\n\n\n"  # between the simulator's hands
COMMAND = "whole command"
INSIDE = "inside the import (import_paths call)"


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


def against_parse(source: Path, rounds: int, jobs: int, scratch: Path) -> dict[str, Any]:
    """`histkit import` against `histkit parse` of the same input, with and without the
    audit, alternated whole commands."""
    j = ["--jobs", str(jobs), "-q"]
    walls = alternate(
        {
            "histkit parse": ["parse", str(source), "-o", "{OUT}", *j],
            "histkit import --no-audit": ["import", str(source), "--db", "{OUT}", "--no-audit", *j],
            "histkit parse --audit": ["parse", str(source), "-o", "{OUT}", "--audit", *j],
            "histkit import": ["import", str(source), "--db", "{OUT}", *j],
        },
        rounds,
        scratch,
    )
    return {
        "measured": COMMAND,
        "seconds": walls,
        "import_vs_parse": walls["histkit parse"] / walls["histkit import --no-audit"],
        "import_vs_parse_audit": walls["histkit parse --audit"] / walls["histkit import"],
        "audit_cost": walls["histkit import"] / walls["histkit import --no-audit"],
    }


def inside(path: Path, db: Path, jobs: int) -> dict[str, Any]:
    """One import inside this process: its seconds and its hold on the database."""
    from histkit.db import import_paths

    report = import_paths([path], db=db, jobs=jobs)
    return {
        "measured": INSIDE,
        "seconds": report.seconds,
        "write_seconds": report.write_seconds,
        "hands": report.hands_added,
    }


def unchanged_folder(args: argparse.Namespace) -> dict[str, Any]:
    """The issue's case: a folder of --folder-hands hands in --folder-files files, imported
    once (kept in --workdir), then again unchanged."""
    from histkit.db import import_paths

    text = simulated(args.workdir, args.folder_hands)
    name = f"folder-{args.folder_hands}-{args.folder_files}"
    folder, db = args.workdir / name, args.workdir / f"{name}.duckdb"
    record = args.workdir / f"{name}.json"
    if not record.exists():
        for stale in (folder, db):
            if stale.is_dir():
                shutil.rmtree(stale)
            else:
                stale.unlink(missing_ok=True)
        split(text, folder, args.folder_files)
        print(f"first import of {name} (kept in {args.workdir}) ...", flush=True)
        first = command(["import", str(folder), "--db", str(db), "--jobs", str(args.jobs), "-q"])
        record.write_text(json.dumps({"seconds": first[0], "date": time.strftime("%Y-%m-%d")}))
    made = json.loads(record.read_text())
    files = sum(1 for _ in folder.iterdir())
    print(f"{files:,} files unchanged, {args.rounds} rounds ...", flush=True)
    cmd, calls = [], []
    for _ in range(args.rounds):
        cmd.append(command(["import", str(folder), "--db", str(db), "-q"])[0])
        report = import_paths([folder], db=db)
        assert report.hands_added == 0 and report.files_skipped == files, report
        calls.append(report.seconds)
    again_cmd, again_call = statistics.median(cmd), statistics.median(calls)
    return {
        "hands": args.folder_hands,
        "files": files,
        "first_import_seconds": made["seconds"],
        "first_import_measured": f"{COMMAND}, --jobs {args.jobs}, on {made['date']}",
        "unchanged_seconds": {COMMAND: again_cmd, INSIDE: again_call},
        "unchanged_per_1000_files": {
            COMMAND: again_cmd * 1000 / files,
            INSIDE: again_call * 1000 / files,
        },
        "unchanged_share_of_first": {
            COMMAND: again_cmd / made["seconds"],
            INSIDE: again_call / made["seconds"],
        },
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--hands", type=int, default=20_000, help="one file's hands (20,000)")
    ap.add_argument("--files", type=int, default=1_000, help="files to split it into (1,000)")
    ap.add_argument("--folder-hands", type=int, default=100_000, help="unchanged folder (100,000)")
    ap.add_argument("--folder-files", type=int, default=1_000, help="its files (1,000)")
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds (default 3)")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    workdir = Path(tempfile.gettempdir()) / "histkit-bench-db"
    ap.add_argument("--workdir", type=Path, default=workdir, help="the large folder, kept")
    ap.add_argument("--out", type=Path, default=HERE / "results", help="output folder")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    print(f"corpus of {args.hands:,} hands ...", flush=True)
    path = corpus(args.out, args.hands)
    scratch = Path(tempfile.mkdtemp(prefix="histkit-bench-db-"))
    try:
        print("one file: parse against import, alternated ...", flush=True)
        one_file = against_parse(path, args.rounds, args.jobs, scratch)
        one_file["inside"] = inside(path, scratch / "inside.duckdb", args.jobs)

        print(f"{args.files:,} files: parse against first import, alternated ...", flush=True)
        folder = scratch / "sessions"
        split(path, folder, args.files)
        files = sum(1 for _ in folder.iterdir())
        first_import = against_parse(folder, args.rounds, args.jobs, scratch)
        first_import["files"] = files

        print("one hand appended to one file, twice ...", flush=True)
        from histkit.db import import_paths

        db = scratch / "folder.duckdb"
        import_paths([folder], db=db, jobs=args.jobs)
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
    unchanged = unchanged_folder(args)

    result: dict[str, Any] = {
        "machine": machine(),
        "build": build_mode(),
        "hands": args.hands,
        "jobs": args.jobs,
        "rounds": args.rounds,
        "one_file": one_file,
        "folder_first_import": first_import,
        "unchanged_folder": unchanged,
        "appended": {
            "measured": INSIDE,
            "one_hand_seconds": appended[0],  # parsers built first in this process
            "another_hand_seconds": appended[1],
        },
    }
    (args.out / "db_import.json").write_text(json.dumps(result, indent=2) + "\n")
    md = markdown(result)
    (args.out / "db_import.md").write_text(md)
    print(md)


def _ratio_rows(part: dict[str, Any], hands: int) -> list[str]:
    s = part["seconds"]
    ratios = {
        "histkit parse": "1.00x",
        "histkit import --no-audit": f"{part['import_vs_parse']:.2f}x parse",
        "histkit parse --audit": "1.00x",
        "histkit import": f"{part['import_vs_parse_audit']:.2f}x parse --audit",
    }
    return [f"| `{k}` | {s[k]:.2f} | {hands / s[k]:,.0f} | {ratios[k]} |" for k in s]


def markdown(r: dict[str, Any]) -> str:
    m = r["machine"]
    n, jobs = r["hands"], r["jobs"]
    one, first, same = r["one_file"], r["folder_first_import"], r["unchanged_folder"]
    files = first["files"]
    head = "| whole command, medians of alternated runs | seconds | hands/s | throughput |"
    lines = [
        f"Measured {m['date']} on {m['platform']}, Python {m['python']}, {m['cores']} cores "
        f"(load average {m['load_average'][0]:.1f}); simulated Stud Hi/Lo hands; histkit "
        f"{r['build']}; --jobs {jobs}; {r['rounds']} rounds. A *whole command* is a fresh "
        "`histkit` process (start-up included); *inside the import* is the "
        "`histkit.db.import_paths` call alone.",
        "",
        f"One file of {n:,} hands:",
        "",
        head,
        "|---|---:|---:|---:|",
        *_ratio_rows(one, n),
        "",
        f"Inside the import (`import_paths`, audited): {one['inside']['seconds']:.2f} s, of "
        f"which the database was held {one['inside']['write_seconds']:.2f} s to write the "
        "rows (what a reader may wait).",
        "",
        f"The same hands in {files:,} files, the first import of the folder:",
        "",
        head,
        "|---|---:|---:|---:|",
        *_ratio_rows(first, n),
        "",
        f"An unchanged folder of {same['hands']:,} hands in {same['files']:,} files (first "
        f"imported in {same['first_import_seconds']:.1f} s, {same['first_import_measured']}):",
        "",
        "| imported again, unchanged | seconds | per 1,000 files | share of the first import |",
        "|---|---:|---:|---:|",
    ]
    for how in (COMMAND, INSIDE):
        lines.append(
            f"| {how} | {same['unchanged_seconds'][how]:.3f} | "
            f"{same['unchanged_per_1000_files'][how]:.3f} | "
            f"{same['unchanged_share_of_first'][how]:.2%} |"
        )
    a = r["appended"]
    lines += [
        "",
        f"One hand appended to one file of the {files:,} ({INSIDE}): "
        f"{a['one_hand_seconds']:.3f} s (parsers built first), another "
        f"{a['another_hand_seconds']:.3f} s. The audit costs {one['audit_cost']:.2f}x the "
        "import without it (one file, whole commands).",
    ]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
