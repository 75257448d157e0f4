"""histkit's benchmark: everything measured side by side in one run, reported as ratios.

    python benchmarks/run.py [--hands 20000] [--big 60000] [--rounds 3] [--out benchmarks/results]

1. Generates a Stud Hi/Lo corpus with the simulator (cached in the output folder).
2. Alternates, `--rounds` times, the naive regex baseline (`benchmarks/naive_regex.py`, a
   scan that only adds up chips, every pattern tried on every line) and its tuned form
   (dispatch on the line's first characters) with histkit parse and histkit audit (parse,
   replay, award check) in one process, in-process so start-up is not counted; medians.
   When histkit runs compiled (mypyc), the same is repeated in a child process running the
   pure-Python modules (`HISTKIT_PURE=1`), each with its own regex baseline.
3. `histkit audit --jobs 1` against `--jobs 2` as whole commands (fresh processes).
4. Peak memory (max RSS) of `histkit parse` on `--hands` and on `--big` hands.
5. Seven-card evaluators: histkit's batch and scalar paths, high and eight-or-better low,
   against eval7, phevaluator and PokerKit where they are installed (`pip install
   -e '.[bench]'`).

Machines are shared and noisy: read the ratios, which compare runs made moments apart on
the same machine, never the absolute figures. Writes `results.json` and `results.md`.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from benchmarks.naive_regex import scan, scan_tuned  # noqa: E402
from histkit.audit import audit_paths  # noqa: E402
from histkit.reader import iter_hands  # noqa: E402


def corpus(folder: Path, n: int, seed: int = 20261129) -> Path:
    """A simulated Stud Hi/Lo session of n hands (8-max, four tables), made once."""
    from histkit.simulate import write_session

    path = folder / f"stud_hilo_{n}.txt"
    if not path.exists():
        tmp = path.with_suffix(".tmp")
        write_session(tmp, "stud_hilo", n, players=8, seed=seed, tables=4)
        tmp.replace(path)
    return path


def site_corpus(folder: Path, site: str, n: int, seed: int = 20261201) -> Path:
    """A simulated Stud Hi/Lo session of n hands written in one site's text, made once:
    6-max (Winamax's tables; 8-max would need the community card, which the old WPN client
    has no known form for)."""
    from histkit.simulate import write_session

    path = folder / f"stud_hilo_{site}_{n}.txt"
    if not path.exists():
        tmp = path.with_suffix(".tmp")
        write_session(tmp, "stud_hilo", n, players=6, seed=seed, tables=4, site=site)
        tmp.replace(path)
    return path


def fast_path_share(path: Path) -> float:
    """The share of a file's stud hands the line matcher reads on its own (the rest go to
    Lark)."""
    from histkit.dialects import detector
    from histkit.dialects.builder import LineReader
    from histkit.reading.split import file_blocks

    det = detector()
    fast = total = 0
    with open(path, "rb") as f:
        for block in file_blocks(f, det):
            d = det.dialect_of(block.lines[0])
            if d is None or d.matcher is None:
                continue
            m = d.compiled.header.match(block.lines[0] + "\n")
            game = d.game_text(m, block) if m is not None else None
            if m is None or (game is not None and game.upper() not in d.games):
                continue  # not a stud hand: skipped before any parsing
            total += 1
            with contextlib.suppress(Exception):  # left to Lark, as in parse_block
                fast += LineReader(d, block, str(path)).read_fast(d.matcher, m) is not None
    return fast / total if total else 0.0


def site_rates(folder: Path, n: int, rounds: int) -> dict[str, dict[str, float]]:
    """Parse speed of each site's writer output, alternated with PokerStars' (the same
    simulated hands): hands/s, the ratio to PokerStars, and the fast path's share."""
    from histkit.dialects import get_dialect, known_sites

    sites = [s for s in known_sites() if get_dialect(s).writer]
    paths = {s: site_corpus(folder, s, n) for s in sites}
    rates = median_rates(
        {s: (lambda p=p: sum(1 for _ in iter_hands([p]))) for s, p in paths.items()}, n, rounds
    )
    base = rates["pokerstars"]
    return {
        s: {
            "hands_per_second": rates[s],
            "ratio_to_pokerstars": rates[s] / base,
            "fast_path_share": fast_path_share(paths[s]),
        }
        for s in sites
    }


def timed(fn: Callable[[], Any]) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def median_rates(jobs: dict[str, Callable[[], Any]], hands: int, rounds: int) -> dict[str, float]:
    """Hands per second per job: the jobs alternate within each round, medians taken."""
    seconds: dict[str, list[float]] = {k: [] for k in jobs}
    for _ in range(rounds):
        for name, fn in jobs.items():
            seconds[name].append(timed(fn))
    return {k: hands / statistics.median(v) for k, v in seconds.items()}


def one_process_rates(path: Path, n: int, rounds: int) -> dict[str, float]:
    """The naive and tuned regex scans alternated with histkit parse and audit, in this
    process (start-up not counted): hands per second, medians."""
    return median_rates(
        {
            "naive regex scan": lambda: scan(path),
            "tuned regex scan": lambda: scan_tuned(path),
            "histkit parse": lambda: sum(1 for _ in iter_hands([path])),
            "histkit audit (parse+replay+awards)": lambda: audit_paths([path], jobs=1),
        },
        n,
        rounds,
    )


def machine() -> dict[str, object]:
    """What the figures were measured on, and how busy it was (every benchmark's record)."""
    return {
        "platform": platform.platform(),
        "python": platform.python_version(),
        "cores": os.cpu_count(),
        "processor": platform.processor() or platform.machine(),
        "load_average": os.getloadavg(),
        "date": time.strftime("%Y-%m-%d"),
    }


def build_mode() -> str:
    """Which build of histkit this process runs: compiled with mypyc or pure Python."""
    from histkit import _native

    return _native.status().describe()


def pure_rates(path: Path, n: int, rounds: int) -> dict[str, float]:
    """`one_process_rates` in a child process running histkit's pure-Python modules."""
    out = subprocess.run(
        [
            sys.executable,
            __file__,
            "--rates-only",
            str(path),
            "--hands",
            str(n),
            "--rounds",
            str(rounds),
        ],
        env={**os.environ, "HISTKIT_PURE": "1"},
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    got: dict[str, float] = json.loads(out.splitlines()[-1])
    return got


def command(argv: list[str]) -> tuple[float, int]:
    """Wall seconds and peak RSS (KiB) of one fresh `histkit` process."""
    wall, _cpu, rss = measured_command(argv)
    return wall, rss


def measured_command(argv: list[str]) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds (user + system, its own children included) and peak RSS
    (KiB) of one fresh `histkit` process."""
    t = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "histkit", *argv],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t
    code = os.waitstatus_to_exitcode(status)
    if code not in (0, 1):
        raise RuntimeError(f"histkit {' '.join(argv)} exited {code}")
    return wall, usage.ru_utime + usage.ru_stime, int(usage.ru_maxrss)


def evaluators(n: int) -> dict[str, float]:
    """Seven-card evaluations per second."""
    from histkit.cards import DECK
    from histkit.evaluate import high_value, high_values_batch, low8_value, low8_values_batch

    rng = np.random.default_rng(7)
    idx = np.argsort(rng.random((n, 52)), axis=1)[:, :7].astype(np.int8)
    few = idx[: min(n, 100_000)]
    hands = [tuple(DECK[i] for i in row) for row in few.tolist()]
    out = {
        "histkit high, numpy batch": n / timed(lambda: high_values_batch(idx)),
        "histkit low8, numpy batch": n / timed(lambda: low8_values_batch(idx)),
        "histkit high, scalar": len(hands) / timed(lambda: [high_value(h) for h in hands]),
        "histkit low8, scalar": len(hands) / timed(lambda: [low8_value(h) for h in hands]),
    }
    texts = [[str(c) for c in h] for h in hands]
    try:
        import eval7

        e7 = [[eval7.Card(t) for t in h] for h in texts]
        out["eval7 high, scalar"] = len(e7) / timed(lambda: [eval7.evaluate(h) for h in e7])
    except ImportError:
        pass
    try:
        from phevaluator import evaluate_cards

        out["phevaluator high, scalar"] = len(texts) / timed(
            lambda: [evaluate_cards(*h) for h in texts]
        )
    except ImportError:
        pass
    try:
        from pokerkit import Card as PKCard
        from pokerkit import StandardHighHand

        some = texts[:3000]
        pk = [list(PKCard.parse("".join(h))) for h in some]
        out["pokerkit high, scalar"] = len(pk) / timed(
            lambda: [StandardHighHand.from_game(h) for h in pk]
        )
    except ImportError:
        pass
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--hands", type=int, default=20_000, help="corpus size (default 20,000)")
    ap.add_argument("--big", type=int, default=60_000, help="large corpus for memory (60,000)")
    ap.add_argument("--rounds", type=int, default=3, help="alternating rounds (default 3)")
    ap.add_argument("--evals", type=int, default=1_000_000, help="hands for the batch evaluators")
    ap.add_argument("--out", type=Path, default=HERE / "results", help="output folder")
    ap.add_argument("--rates-only", type=Path, metavar="FILE", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.rates_only:  # the child of pure_rates: one JSON line
        print(json.dumps(one_process_rates(args.rates_only, args.hands, args.rounds)))
        return
    args.out.mkdir(parents=True, exist_ok=True)

    print(f"generating corpora ({args.hands:,} and {args.big:,} hands) ...", flush=True)
    path = corpus(args.out, args.hands)
    big = corpus(args.out, args.big)
    n = args.hands

    mode = build_mode()
    print(f"alternating naive regex / parse / audit ({mode}) ...", flush=True)
    rates = one_process_rates(path, n, args.rounds)
    base = rates["naive regex scan"]
    pure: dict[str, float] | None = None
    if not mode.startswith("pure"):
        print("the same in pure Python (a child process, HISTKIT_PURE=1) ...", flush=True)
        pure = pure_rates(path, n, args.rounds)

    print("audit --jobs 1 vs --jobs 2 ...", flush=True)
    walls: dict[str, list[float]] = {"1": [], "2": []}
    for _ in range(args.rounds):
        for j in walls:
            walls[j].append(command(["audit", str(path), "-q", "--jobs", j, "--format", "json"])[0])
    speedup = statistics.median(walls["1"]) / statistics.median(walls["2"])
    parse_walls: dict[str, list[float]] = {"1": [], "2": []}
    for _ in range(args.rounds):
        for j in parse_walls:
            parse_walls[j].append(
                command(["parse", str(path), "-q", "--jobs", j, "-o", str(args.out / f"p{j}")])[0]
            )
    parse_speedup = statistics.median(parse_walls["1"]) / statistics.median(parse_walls["2"])

    print("peak memory of histkit parse ...", flush=True)
    mem_small = command(["parse", str(path), "-q", "--jobs", "1", "-o", str(args.out / "m1")])[1]
    mem_big = command(["parse", str(big), "-q", "--jobs", "1", "-o", str(args.out / "m2")])[1]

    print("evaluators ...", flush=True)
    evals = evaluators(args.evals)

    print("parse speed per site's text ...", flush=True)
    per_site = site_rates(args.out, max(n // 4, 20), args.rounds)

    result = {
        "machine": machine(),
        "hands": n,
        "build": mode,
        "hands_per_second": rates,
        "ratio_to_naive_regex": {k: v / base for k, v in rates.items()},
        "pure_python": None
        if pure is None
        else {
            "hands_per_second": pure,
            "ratio_to_naive_regex": {k: v / pure["naive regex scan"] for k, v in pure.items()},
        },
        "audit_jobs2_speedup": speedup,
        "parse_jobs2_speedup": parse_speedup,
        "parse_peak_rss_kib": {str(n): mem_small, str(args.big): mem_big},
        "parse_memory_ratio": mem_big / mem_small,
        "evaluations_per_second": evals,
        "sites": per_site,
    }
    (args.out / "results.json").write_text(json.dumps(result, indent=2) + "\n")
    md = markdown(result, args.big)
    (args.out / "results.md").write_text(md)
    print(md)


def markdown(r: dict[str, Any], big: int) -> str:
    m = r["machine"]
    lines = [
        f"Measured {m['date']} on {m['platform']}, Python {m['python']}, {m['cores']} cores "
        f"(load average {m['load_average'][0]:.1f}); {r['hands']:,} simulated Stud Hi/Lo hands; "
        f"histkit {r['build']}.",
        "",
        "| measurement | hands/s | ratio to naive regex scan |",
        "|---|---:|---:|",
    ]
    for k, v in r["hands_per_second"].items():
        lines.append(f"| {k} | {v:,.0f} | {r['ratio_to_naive_regex'][k]:.2f}x |")
    pure = r.get("pure_python")
    if pure:
        lines += [
            "",
            "The same, alternated in a child process running the pure-Python modules "
            "(`HISTKIT_PURE=1`):",
            "",
            "| measurement (pure Python) | hands/s | ratio to naive regex scan |",
            "|---|---:|---:|",
        ]
        for k, v in pure["hands_per_second"].items():
            lines.append(f"| {k} | {v:,.0f} | {pure['ratio_to_naive_regex'][k]:.2f}x |")
    lines += [
        "",
        "| scaling and memory | ratio |",
        "|---|---:|",
        f"| `histkit audit --jobs 2` vs `--jobs 1` | {r['audit_jobs2_speedup']:.2f}x faster |",
        f"| `histkit parse --jobs 2` vs `--jobs 1` | {r['parse_jobs2_speedup']:.2f}x faster |",
        f"| peak RSS of `histkit parse`, {big:,} vs {r['hands']:,} hands | "
        f"{r['parse_memory_ratio']:.2f}x |",
        "",
        "| seven-card evaluator | evaluations/s |",
        "|---|---:|",
    ]
    for k, v in r["evaluations_per_second"].items():
        lines.append(f"| {k} | {v:,.0f} |")
    lines += [
        "",
        "| `histkit parse` of each site's text (the same simulated hands) | hands/s | "
        "ratio to PokerStars | read by the fast path |",
        "|---|---:|---:|---:|",
    ]
    for site, v in r.get("sites", {}).items():
        lines.append(
            f"| {site} | {v['hands_per_second']:,.0f} | {v['ratio_to_pokerstars']:.2f}x | "
            f"{v['fast_path_share']:.0%} |"
        )
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
