"""histkit on a Dask cluster (`--scheduler`) against local processes (`--jobs 2`) on the
same 20,000 hands, and an estimate of the hands per second on N workers from measured
per-task costs, checked against the cluster measured here.

    python benchmarks/bench_dask.py [--hands 20000] [--rounds 3] [--out benchmarks/results]

1. The simulated Stud Hi/Lo corpus of `benchmarks/run.py` (made once, cached in --out), and
   a small one (a twentieth) whose runs give the commands' fixed costs.
2. A local cluster of 2 worker processes (one thread each) started here, warmed by one run
   (its workers import histkit and build the grammars once, as a long-running cluster has).
3. Each of --rounds rounds runs, as whole commands (fresh processes, start-up included):
   `histkit parse F -o DIR --jobs 2` and `... --scheduler ADDR`, the same with
   `--partition-by game,date`, and `histkit audit F --jobs 2` and `--scheduler`; then the
   two `parse --scheduler` on the small corpus; then the per-task costs (4). Medians over
   the rounds; the ratio is the cluster's throughput over the local processes'.
4. Per-task costs, in CPU seconds (a loaded machine stretches wall seconds, not these):
   each task's CPU time in its worker process (parse and build tables; the same writing
   part files; planning, per MB), the parent's CPU per hand (the whole `parse
   --scheduler` command's CPU less the small corpus's, so start-up is left out: taking the
   results, writing a flat result or counting a partitioned one's rows), and the
   scheduler's cost per task (no-op tasks: an upper bound). From these, the hands per
   second on N workers (see `estimate`), and for this machine's 2 workers (`this_machine`),
   which is set beside the measured rate.

Machines are shared and noisy: read the ratios, which compare runs made moments apart, and
the load averages recorded with them. Writes `dask.json` and `dask.md` into --out.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import shutil
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from benchmarks.run import build_mode, corpus, machine, measured_command  # noqa: E402

WORKERS = 2  # worker processes of the local cluster, one thread each
ESTIMATE_FOR = (2, 8, 32, 128, 512, 2048)


def timed_command(argv: list[str]) -> tuple[float, float]:
    """Wall seconds and CPU seconds (its own children included) of one fresh `histkit`
    process."""
    wall, cpu, _rss = measured_command(argv)
    return wall, cpu


def _timed(fn: Callable[..., Any], *args: Any) -> tuple[Any, float, float]:
    """On a worker: `fn(*args)`, with the CPU seconds of the worker process while it ran
    (its one task thread and the threads that serve it) and the wall seconds."""
    cpu, wall = time.process_time(), time.perf_counter()
    out = fn(*args)
    return out, time.process_time() - cpu, time.perf_counter() - wall


def _noop(i: int) -> int:
    return i


def task_costs(client: Any, path: Path, hands: int, scratch: Path) -> dict[str, float]:
    """CPU seconds per hand in the workers (flat and partitioned), per MB of planning, and
    the scheduler's seconds per task, measured on this cluster with the tasks `--scheduler`
    runs (`histkit.cluster.plan` and `process`, cut as it cuts them)."""
    from histkit import cluster
    from histkit.warehouse import ParquetSink

    files = cluster.input_files([path])
    _, plan_cpu, _ = client.submit(
        _timed, cluster.plan, files, None, cluster.SPAN_BYTES, pure=False
    ).result()
    groups = list(cluster.tasks(client, files, site=None))
    kw: dict[str, Any] = {"site": None, "tables": True, "audit": False, "profile": None}

    def run(parts: Any) -> tuple[list[Any], float, float]:
        futures = [
            client.submit(_timed, cluster.process, chunks, kw, parts, i, pure=False)
            for i, chunks in enumerate(groups)
        ]
        done = client.gather(futures)
        got = sum(r.hands for (results, _), _, _ in done for r in results)
        if got != hands:
            raise RuntimeError(f"the tasks read {got} hands of {hands}")
        return [out for out, _, _ in done], sum(c for _, c, _ in done), sum(w for *_, w in done)

    out: dict[str, float] = {"tasks": len(groups), "hands_per_task": hands / len(groups)}
    out["plan_cpu_seconds_per_mb"] = plan_cpu / (path.stat().st_size / 1e6)
    _, cpu, wall = run(None)
    out["worker_cpu_seconds_per_hand"] = cpu / hands
    out["worker_wall_over_cpu"] = wall / cpu  # above 1: the workers waited for a core
    sink = ParquetSink(scratch / "parts", partition_by=("game", "date"))
    with sink:
        target = cluster.PartTarget(sink.parts_location(), ("game", "date"))
        done, cpu, _ = run(target)
        for _, written in done:
            sink.add_written(written)
    shutil.rmtree(scratch / "parts", ignore_errors=True)
    out["worker_cpu_seconds_per_hand_partitioned"] = cpu / hands
    n = 2000
    t0 = time.perf_counter()
    futures = client.map(_noop, range(n), pure=False)
    client.gather(futures)
    out["scheduler_seconds_per_task"] = (time.perf_counter() - t0) / n
    del futures
    return out


def parent_costs(cpu: dict[str, float], hands: int, small: int) -> dict[str, float | None]:
    """The parent's CPU seconds per hand of `parse --scheduler` (flat and partitioned):
    the whole command's CPU less the small corpus's (start-up, connecting, the commit's
    fixed part), over the hands between them; None when too small to tell."""
    out: dict[str, float | None] = {}
    for kind, key in (
        ("flat", "parse --scheduler"),
        ("partitioned", "parse --partition-by --scheduler"),
    ):
        extra = cpu[key] - cpu[f"{key}, small corpus"]
        out[f"parent_cpu_seconds_per_hand_{kind}"] = extra / (hands - small) if extra > 0 else None
    return out


def _per_hand(costs: dict[str, Any], kind: str) -> tuple[float, float | None]:
    """A hand's CPU seconds in the workers (its task and its share of planning) and in the
    parent, for a `kind` ("flat" or "partitioned") result."""
    worker = costs[
        "worker_cpu_seconds_per_hand" + ("_partitioned" if kind == "partitioned" else "")
    ]
    worker += costs["plan_cpu_seconds_per_mb"] * costs["mb_per_hand"]
    return worker, costs[f"parent_cpu_seconds_per_hand_{kind}"]


def estimate(costs: dict[str, Any], workers: int) -> dict[str, float]:
    """Hands per second on `workers` worker processes of one core each, the parent and the
    scheduler on cores of their own: the least of what the workers compute (`workers`
    over a hand's CPU seconds in them, planning included), what the scheduler dispatches
    (hands a task over its seconds a task) and what the one parent takes (one over its CPU
    seconds a hand: for a flat result it writes the tables, for a partitioned one it only
    counts rows)."""
    scheduler = costs["hands_per_task"] / costs["scheduler_seconds_per_task"]
    out = {}
    for kind in ("partitioned", "flat"):
        worker, parent = _per_hand(costs, kind)
        bounds = [workers / worker, scheduler] + ([1 / parent] if parent else [])
        out[kind] = min(bounds)
    return out


def this_machine(costs: dict[str, Any], cores: int) -> dict[str, float]:
    """`estimate` for this run's cluster, where the 2 workers, the parent and the scheduler
    share this machine's cores: also bounded by the cores over all the CPU a hand needs."""
    out = estimate(costs, WORKERS)
    for kind in out:
        worker, parent = _per_hand(costs, kind)
        total = (
            worker + (parent or 0.0) + costs["scheduler_seconds_per_task"] / costs["hands_per_task"]
        )
        out[kind] = min(out[kind], cores / total)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--hands", type=int, default=20_000, help="corpus size (default 20,000)")
    ap.add_argument("--rounds", type=int, default=3, help="rounds (default 3)")
    ap.add_argument("--out", type=Path, default=HERE / "results", help="output folder")
    args = ap.parse_args()
    if args.hands < 40 or args.rounds < 1:
        ap.error("--hands must be at least 40 and --rounds at least 1")
    args.out.mkdir(parents=True, exist_ok=True)
    from distributed import Client, LocalCluster

    load_start = os.getloadavg()
    n, small_n = args.hands, max(2, args.hands // 20)
    print(f"corpora of {n:,} and {small_n:,} hands ...", flush=True)
    path, small = corpus(args.out, n), corpus(args.out, small_n)
    scratch = args.out / "dask-scratch"
    scratch.mkdir(exist_ok=True)
    with (
        LocalCluster(
            n_workers=WORKERS,
            threads_per_worker=1,
            processes=True,
            dashboard_address=":0",
            silence_logs=logging.ERROR,
        ) as lc,
        Client(lc, set_as_default=False) as client,
    ):
        addr = lc.scheduler_address
        print(f"cluster at {addr}; a first run warms its workers ...", flush=True)
        cold = timed_command(
            ["parse", str(path), "-q", "-o", str(scratch / "cold"), "--scheduler", addr]
        )
        shutil.rmtree(scratch / "cold", ignore_errors=True)
        f, s = str(path), str(small)
        parts = ("--partition-by", "game,date")
        jobs = {
            "parse --jobs 2": ["parse", f, "-q", "-o", "{OUT}", "--jobs", "2"],
            "parse --scheduler": ["parse", f, "-q", "-o", "{OUT}", "--scheduler", addr],
            "parse --partition-by --jobs 2": ["parse", f, "-q", "-o", "{OUT}", *parts, "-j", "2"],
            "parse --partition-by --scheduler": [
                *("parse", f, "-q", "-o", "{OUT}", *parts, "--scheduler", addr)
            ],
            "audit --jobs 2": ["audit", f, "-q", "--format", "json", "--jobs", "2"],
            "audit --scheduler": ["audit", f, "-q", "--format", "json", "--scheduler", addr],
            "parse --scheduler, small corpus": [
                *("parse", s, "-q", "-o", "{OUT}", "--scheduler", addr)
            ],
            "parse --partition-by --scheduler, small corpus": [
                *("parse", s, "-q", "-o", "{OUT}", *parts, "--scheduler", addr)
            ],
        }
        walls: dict[str, list[float]] = {k: [] for k in jobs}
        cpus: dict[str, list[float]] = {k: [] for k in jobs}
        rounds: list[dict[str, float]] = []
        for r in range(args.rounds):
            print(
                f"round {r + 1} of {args.rounds}: whole commands, then per-task costs ...",
                flush=True,
            )
            for name, argv in jobs.items():
                target = scratch / f"{name.replace(' ', '_').replace(',', '')}-{r}"
                wall, cpu = timed_command([a.replace("{OUT}", str(target)) for a in argv])
                walls[name].append(wall)
                cpus[name].append(cpu)
                shutil.rmtree(target, ignore_errors=True)
            rounds.append(task_costs(client, path, n, scratch))
    shutil.rmtree(scratch, ignore_errors=True)
    wall_median = {k: statistics.median(v) for k, v in walls.items()}
    cpu_median = {k: statistics.median(v) for k, v in cpus.items()}
    costs: dict[str, Any] = {k: statistics.median(r[k] for r in rounds) for k in rounds[0]}
    costs["mb_per_hand"] = path.stat().st_size / 1e6 / n
    costs.update(parent_costs(cpu_median, n, small_n))
    cores = os.cpu_count() or 1
    measured = {  # the whole command less the small corpus's: start-up left out
        kind: (n - small_n) / max(1e-9, wall_median[key] - wall_median[f"{key}, small corpus"])
        for kind, key in (
            ("partitioned", "parse --partition-by --scheduler"),
            ("flat", "parse --scheduler"),
        )
    }
    whole = [k for k in jobs if not k.endswith("small corpus")]
    result = {
        "machine": {
            **machine(),
            "load_average_start": load_start,
            "load_average_end": os.getloadavg(),
        },
        "hands": n,
        "small_corpus_hands": small_n,
        "rounds": args.rounds,
        "build": build_mode(),
        "wall_seconds": {k: wall_median[k] for k in whole},
        "wall_seconds_each_round": walls,
        "cpu_seconds": cpu_median,
        "hands_per_second": {k: n / wall_median[k] for k in whole},
        "cluster_over_jobs2": {
            kind: wall_median[f"{kind} --jobs 2"] / wall_median[f"{kind} --scheduler"]
            for kind in ("parse", "parse --partition-by", "audit")
        },
        "cold_cluster_parse_seconds": cold[0],
        "task_costs": costs,
        "task_costs_each_round": rounds,
        "this_machine": {
            "estimate_hands_per_second": this_machine(costs, cores),
            "measured_hands_per_second": measured,
        },
        "estimate_hands_per_second": {str(w): estimate(costs, w) for w in ESTIMATE_FOR},
    }
    (args.out / "dask.json").write_text(json.dumps(result, indent=2) + "\n")
    md = markdown(result)
    (args.out / "dask.md").write_text(md)
    print(md)


def markdown(r: dict[str, Any]) -> str:
    m, c = r["machine"], r["task_costs"]
    start, end = m["load_average_start"][0], m["load_average_end"][0]
    lines = [
        f"Measured {m['date']} on {m['platform']}, Python {m['python']}, {m['cores']} cores "
        f"(load average {start:.1f} at the start, {end:.1f} at the end); "
        f"{r['hands']:,} simulated Stud Hi/Lo hands; histkit {r['build']}; a local Dask "
        f"cluster of {WORKERS} worker processes (one thread each); medians of "
        f"{r['rounds']} round{'s' if r['rounds'] != 1 else ''}.",
        "",
        "| whole command | seconds | hands/s |",
        "|---|---:|---:|",
    ]
    for k, v in r["wall_seconds"].items():
        lines.append(f"| `histkit {k}` | {v:.2f} | {r['hands_per_second'][k]:,.0f} |")
    lines += ["", "| throughput, cluster over `--jobs 2` | ratio |", "|---|---:|"]
    for k, v in r["cluster_over_jobs2"].items():
        lines.append(f"| `histkit {k}` | {v:.2f}x |")

    def parent(kind: str) -> str:
        v = c[f"parent_cpu_seconds_per_hand_{kind}"]
        return "too small to tell" if v is None else f"{v * 1e6:,.0f} µs a hand"

    lines += [
        "",
        f"The first run on a new cluster (its workers import histkit and build the grammars): "
        f"{r['cold_cluster_parse_seconds']:.1f} s for `parse`.",
        "",
        "| per-task cost (measured, CPU seconds) | |",
        "|---|---:|",
        f"| tasks for {r['hands']:,} hands | "
        f"{c['tasks']:.0f} ({c['hands_per_task']:,.0f} hands each) |",
        f"| worker: parse and build tables | "
        f"{c['worker_cpu_seconds_per_hand'] * 1e6:,.0f} µs a hand |",
        f"| worker: the same, writing its part files | "
        f"{c['worker_cpu_seconds_per_hand_partitioned'] * 1e6:,.0f} µs a hand |",
        f"| worker: planning (finding cuts) | "
        f"{c['plan_cpu_seconds_per_mb'] * 1e3:,.1f} ms per MB |",
        f"| worker: wall over CPU seconds in a task (above 1: waiting for a core) | "
        f"{c['worker_wall_over_cpu']:.2f} |",
        f"| parent: taking results, writing a flat result | {parent('flat')} |",
        f"| parent: taking results, counting a partitioned result | {parent('partitioned')} |",
        f"| scheduler: one task (no-op tasks, wall: an upper bound) | "
        f"{c['scheduler_seconds_per_task'] * 1e3:.2f} ms |",
        "",
        "Estimated hands per second on N workers of one core each (the parent and the",
        "scheduler on cores of their own), from those costs: the least of the workers' rate",
        "(N over a hand's CPU in them, planning included), the scheduler's (tasks/s x hands a",
        "task) and the parent's (one over its CPU a hand). Storage and network bandwidth are",
        "not in it. The check: the same model for this run's cluster, where the workers, the",
        f"parent and the scheduler share {m['cores']} cores, beside the measured rate (the",
        "whole `parse --scheduler` command less the small corpus's, so start-up is left out).",
        "",
        "| | partitioned result | flat result |",
        "|---|---:|---:|",
    ]
    est, got = (
        r["this_machine"]["estimate_hands_per_second"],
        r["this_machine"]["measured_hands_per_second"],
    )
    lines.append(f"| this machine, estimated | {est['partitioned']:,.0f} | {est['flat']:,.0f} |")
    lines.append(f"| this machine, measured | {got['partitioned']:,.0f} | {got['flat']:,.0f} |")
    lines += ["", "| N workers | partitioned result | flat result |", "|---:|---:|---:|"]
    for w, e in r["estimate_hands_per_second"].items():
        lines.append(f"| {w} | {e['partitioned']:,.0f} | {e['flat']:,.0f} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
