"""histkit on a Dask cluster (`--scheduler`) against local processes (`--jobs 2`) on the
same 20,000 hands, and an estimate of the hands per second on N workers from measured
per-task costs.

    python benchmarks/bench_dask.py [--hands 20000] [--rounds 3] [--out benchmarks/results]

1. The simulated Stud Hi/Lo corpus of `benchmarks/run.py` (made once, cached in --out).
2. A local cluster of 2 worker processes (one thread each) started here, warmed by one run
   (its workers import histkit and build the grammars once, as a long-running cluster has).
3. Alternated --rounds times as whole commands (fresh processes, start-up included):
   `histkit parse F -o DIR --jobs 2` and `... --scheduler ADDR`, the same with
   `--partition-by game,date`, and `histkit audit F --jobs 2` and `--scheduler`. Medians;
   the ratio is the cluster's throughput over the local processes'.
4. Per-task costs, from one run in this process with Dask's task stream: worker seconds
   per hand (parse + build tables, and writing part files), the parent's seconds per
   hand for a flat result (taking results and writing Parquet), the scheduler's cost per
   task (no-op tasks), and planning (finding cuts) per MB. From these, the hands per
   second on N workers (see `estimate`).

Machines are shared and noisy: read the ratios, which compare runs made moments apart.
Writes `dask.json` and `dask.md` into --out.
"""

from __future__ import annotations

import argparse
import json
import logging
import shutil
import statistics
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from benchmarks.run import build_mode, command, corpus, machine  # noqa: E402


def alternate(jobs: dict[str, list[str]], rounds: int, scratch: Path) -> dict[str, float]:
    """Median wall seconds of whole commands, alternated within each round."""
    walls: dict[str, list[float]] = {k: [] for k in jobs}
    for r in range(rounds):
        for name, argv in jobs.items():
            target = scratch / f"{name.replace(' ', '_')}-{r}"
            walls[name].append(command([a.replace("{OUT}", str(target)) for a in argv])[0])
            shutil.rmtree(target, ignore_errors=True)
    return {k: statistics.median(v) for k, v in walls.items()}


def task_costs(client: Any, path: Path, hands: int, scratch: Path) -> dict[str, float]:
    """Seconds per hand on the workers and in the parent, per task in the scheduler, and
    per MB of planning, measured on this cluster."""
    from distributed import get_task_stream

    from histkit import cluster
    from histkit.warehouse import ParquetSink

    def compute_seconds(stream: list[dict[str, Any]], prefix: str) -> tuple[float, int]:
        total, n = 0.0, 0
        for t in stream:
            if str(t["key"]).startswith(prefix):
                n += 1
                total += sum(
                    s["stop"] - s["start"] for s in t["startstops"] if s["action"] == "compute"
                )
        return total, n

    out: dict[str, float] = {}
    # flat: the workers build tables, the parent takes them and writes Parquet
    with get_task_stream(client) as ts:
        t0 = time.perf_counter()
        got = list(cluster.run([path], client=client, audit=False))
        wall = time.perf_counter() - t0
    work, tasks = compute_seconds(ts.data, "histkit-task-")
    plan, _ = compute_seconds(ts.data, "histkit-plan-")
    out["tasks"] = tasks
    out["hands_per_task"] = hands / tasks
    out["worker_seconds_per_hand"] = work / hands
    out["plan_seconds_per_mb"] = plan / (path.stat().st_size / 1e6)
    out["flat_run_wall_seconds"] = wall
    sink = ParquetSink(scratch / "parent-write")
    t0 = time.perf_counter()
    with sink:
        for r in got:
            if r.tables is not None:
                sink.add_tables(r.tables)
    out["parent_write_seconds_per_hand"] = (time.perf_counter() - t0) / hands
    del got
    # partitioned: each task writes its part files; the parent only counts and commits
    sink = ParquetSink(scratch / "parts", partition_by=("game", "date"))
    target = cluster.PartTarget(sink.parts_location(), ("game", "date"))
    with get_task_stream(client) as ts, sink:
        t0 = time.perf_counter()
        for _ in cluster.run([path], client=client, parts=target, on_written=sink.add_written):
            pass
        out["partitioned_run_wall_seconds"] = time.perf_counter() - t0
    work, _ = compute_seconds(ts.data, "histkit-task-")
    out["worker_seconds_per_hand_partitioned"] = work / hands
    # the scheduler's own cost per task: no-op tasks, submitted and gathered
    n = 2000
    t0 = time.perf_counter()
    futures = client.map(_noop, range(n), pure=False)
    client.gather(futures)
    out["scheduler_seconds_per_task"] = (time.perf_counter() - t0) / n
    del futures
    return out


def _noop(i: int) -> int:
    return i


def estimate(costs: dict[str, float], workers: int) -> dict[str, float]:
    """Hands per second on `workers` worker threads (one per core): the least of what the
    workers compute (each `1 / worker_seconds_per_hand`), what the scheduler dispatches
    (tasks per second times hands per task), and, for a flat result, what the one parent
    writes. Planning runs on the workers too (one read of each file), so it is added to
    their cost per hand. A partitioned result has no parent bound: its parent only counts."""
    per_hand = (
        costs["worker_seconds_per_hand_partitioned"]
        + costs["plan_seconds_per_mb"] * (costs["mb_per_hand"])
    )
    workers_bound = workers / per_hand
    scheduler_bound = costs["hands_per_task"] / costs["scheduler_seconds_per_task"]
    parent_bound = 1 / costs["parent_write_seconds_per_hand"]
    return {
        "partitioned": min(workers_bound, scheduler_bound),
        "flat": min(workers / costs["worker_seconds_per_hand"], scheduler_bound, parent_bound),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--hands", type=int, default=20_000, help="corpus size (default 20,000)")
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds (default 3)")
    ap.add_argument("--out", type=Path, default=HERE / "results", help="output folder")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    from distributed import Client, LocalCluster

    print(f"corpus of {args.hands:,} hands ...", flush=True)
    path = corpus(args.out, args.hands)
    scratch = args.out / "dask-scratch"
    scratch.mkdir(exist_ok=True)
    with (
        LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",
            silence_logs=logging.ERROR,
        ) as lc,
        Client(lc, set_as_default=False) as client,
    ):
        addr = lc.scheduler_address
        print(f"cluster at {addr}; a first run warms its workers ...", flush=True)
        cold = command(["parse", str(path), "-q", "-o", str(scratch / "cold"), "--scheduler", addr])
        shutil.rmtree(scratch / "cold", ignore_errors=True)
        f = str(path)
        jobs = {
            "parse --jobs 2": ["parse", f, "-q", "-o", "{OUT}", "--jobs", "2"],
            "parse --scheduler": ["parse", f, "-q", "-o", "{OUT}", "--scheduler", addr],
            "parse --partition-by --jobs 2": [
                *("parse", f, "-q", "-o", "{OUT}", "--partition-by", "game,date", "--jobs", "2")
            ],
            "parse --partition-by --scheduler": [
                *("parse", f, "-q", "-o", "{OUT}", "--partition-by", "game,date"),
                *("--scheduler", addr),
            ],
            "audit --jobs 2": ["audit", f, "-q", "--format", "json", "--jobs", "2"],
            "audit --scheduler": ["audit", f, "-q", "--format", "json", "--scheduler", addr],
        }
        print("alternating whole commands ...", flush=True)
        walls = alternate(jobs, args.rounds, scratch)
        print("per-task costs ...", flush=True)
        costs = task_costs(client, path, args.hands, scratch)
    shutil.rmtree(scratch, ignore_errors=True)
    costs["mb_per_hand"] = path.stat().st_size / 1e6 / args.hands
    n = args.hands
    ratios = {
        kind: walls[f"{kind} --jobs 2"] / walls[f"{kind} --scheduler"]
        for kind in ("parse", "parse --partition-by", "audit")
    }
    result = {
        "machine": machine(),
        "hands": n,
        "build": build_mode(),
        "wall_seconds": walls,
        "hands_per_second": {k: n / v for k, v in walls.items()},
        "cluster_over_jobs2": ratios,
        "cold_cluster_parse_seconds": cold[0],
        "task_costs": costs,
        "estimate_hands_per_second": {
            str(w): estimate(costs, w) for w in (2, 8, 32, 128, 512, 2048)
        },
    }
    (args.out / "dask.json").write_text(json.dumps(result, indent=2) + "\n")
    md = markdown(result)
    (args.out / "dask.md").write_text(md)
    print(md)


def markdown(r: dict[str, Any]) -> str:
    m, c = r["machine"], r["task_costs"]
    lines = [
        f"Measured {m['date']} on {m['platform']}, Python {m['python']}, {m['cores']} cores "
        f"(load average {m['load_average'][0]:.1f}); {r['hands']:,} simulated Stud Hi/Lo hands; "
        f"histkit {r['build']}; a local Dask cluster of 2 worker processes (one thread each).",
        "",
        "| whole command | seconds | hands/s |",
        "|---|---:|---:|",
    ]
    for k, v in r["wall_seconds"].items():
        lines.append(f"| `histkit {k}` | {v:.2f} | {r['hands_per_second'][k]:,.0f} |")
    lines += ["", "| throughput, cluster over `--jobs 2` | ratio |", "|---|---:|"]
    for k, v in r["cluster_over_jobs2"].items():
        lines.append(f"| `histkit {k}` | {v:.2f}x |")
    lines += [
        "",
        f"The first run on a new cluster (its workers import histkit and build the grammars): "
        f"{r['cold_cluster_parse_seconds']:.1f} s for `parse`.",
        "",
        "| per-task cost (measured) | |",
        "|---|---:|",
        f"| tasks for {r['hands']:,} hands | "
        f"{c['tasks']:.0f} ({c['hands_per_task']:,.0f} hands each) |",
        f"| worker: parse and build tables | {c['worker_seconds_per_hand'] * 1e6:,.0f} µs a hand |",
        f"| worker: the same, writing its part files | "
        f"{c['worker_seconds_per_hand_partitioned'] * 1e6:,.0f} µs a hand |",
        f"| worker: planning (finding cuts) | {c['plan_seconds_per_mb'] * 1e3:,.1f} ms per MB |",
        f"| parent: taking results, writing a flat result | "
        f"{c['parent_write_seconds_per_hand'] * 1e6:,.0f} µs a hand |",
        f"| scheduler: one task | {c['scheduler_seconds_per_task'] * 1e3:.2f} ms |",
        "",
        "Estimated hands per second on N workers (one core each), from those costs: the",
        "least of the workers' rate, the scheduler's (tasks/s x hands a task) and, for a flat",
        "result, the parent's writing. Storage and network bandwidth are not in it.",
        "",
        "| N workers | partitioned result | flat result |",
        "|---:|---:|---:|",
    ]
    for w, e in r["estimate_hands_per_second"].items():
        lines.append(f"| {w} | {e['partitioned']:,.0f} | {e['flat']:,.0f} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
