"""Stud equity, histkit against PokerKit on the same hands: agreement and speed.

Run: python benchmarks/bench_equity.py [--pk-samples 100000] [--rounds 3] [--out DIR]
(needs `pip install pokerkit==0.7.7`; about 8 minutes at the defaults, almost all of it
PokerKit's). PokerKit's `calculate_equities` deals the stud hands out by Monte Carlo
(seven hole cards, no board); it has no dead cards, so none are used here.

Every hand has one or two cards to come, so histkit counts every deal of them: the
reference is an exact answer, not an estimate. For each hand:

- **agreement**: PokerKit with `--pk-samples` deals (default 100,000: a standard error of
  at most 0.0016 on any equity, so a bias of 0.007 would show as |z| > 4), and histkit
  Monte Carlo with as many, each held to the exact answer by its z-score,
  (estimate - exact) / its standard error. The standard error is the spread of one deal's
  share (measured by histkit over 200,000 deals) over the square root of the deals;
- **speed at equal precision**: `--rounds` rounds, each timing PokerKit and then histkit
  on `--time-samples` deals, moments apart (the median of the rounds' ratios is reported,
  with the smallest and largest), and histkit on `--big` deals (PokerKit's time per deal
  times `--big` for the ratio there: its cost is linear in the deals).

The machine is shared and noisy: the load average (at the start and at the end) and the
rounds are recorded with the results; read the ratios, taken moments apart, not the
times. Results go to `<out>/equity.md` and `<out>/equity.json` (and are printed).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from math import sqrt
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from histkit.equity import EXACT_MAX, count_deals, equity, parse_holding  # noqa: E402

CASES = [
    # (what, game, players as "down | up"): one or two cards to come, every deal countable
    ("hi/lo, 5th street, heads-up", "stud_hilo", ["As 2s | 3d 4d 5h", "Kh Kd | Qc 7s 7h"]),
    ("stud, 6th street, three-way", "stud",
     ["Ah Ad | Kc 7d 2s 9h", "9s 9c | 2c Js 4d 8h", "Tc Jc | Qc 3c 5s Kd"]),
    ("stud, 5th street, heads-up", "stud", ["Ah Ad | Kc 7d 6h", "9s 9h | 2c Js 9d"]),
    ("razz, 5th street, heads-up", "razz", ["Ah 2d | 3c 5h 8s", "4h 6d | 9s Tc 2c"]),
    ("hi/lo, 6th street, three-way", "stud_hilo",
     ["As 2s | 3d 4d 5h Kc", "Kh Kd | Qc 7s 7h 6c", "8h 9h | Th Jh 2c 3c"]),
]  # fmt: skip


def load_average() -> tuple[float, float, float] | None:
    """The 1, 5 and 15 minute load averages (None where the system has none)."""
    return os.getloadavg() if hasattr(os, "getloadavg") else None


def timed(fn: Callable[[], object]) -> float:
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def pokerkit_equity(game: str, players: list[str], samples: int, seed: int) -> list[float]:
    from pokerkit import Card, Deck, EightOrBetterLowHand, RegularLowHand, StandardHighHand
    from pokerkit.analysis import calculate_equities

    types = {
        "stud": (StandardHighHand,),
        "stud_hilo": (StandardHighHand, EightOrBetterLowHand),
        "razz": (RegularLowHand,),
    }[game]
    ranges = []
    for p in players:
        h = parse_holding(p)
        cards = "".join(str(c) for c in h.known)
        ranges.append([list(Card.parse(cards))])
    random.seed(seed)  # PokerKit draws with the random module
    return list(calculate_equities(ranges, [], 7, 0, Deck.STANDARD, types, sample_count=samples))


def measure(args: argparse.Namespace, what: str, game: str, players: list[str]) -> dict[str, Any]:
    hs = [parse_holding(p) for p in players]
    deals = count_deals(game, hs)
    if deals > EXACT_MAX:
        raise SystemExit(f"{what}: {deals:,} deals, too many to count: not a benchmark hand")
    exact = [p.equity for p in equity(game, hs, method="exact").players]
    # the spread of one deal's share, per player, from a large histkit run
    spread = equity(game, hs, method="monte_carlo", samples=200_000, seed=7)
    sd = [p.error * sqrt(spread.samples) for p in spread.players]

    def z(estimate: list[float], samples: int) -> float:
        return max(
            0.0 if s == 0 else abs(e - x) / (s / sqrt(samples))
            for e, x, s in zip(estimate, exact, sd, strict=True)
        )

    n = args.pk_samples
    pk = pokerkit_equity(game, players, n, seed=1)
    hk = [p.equity for p in equity(game, hs, method="monte_carlo", samples=n, seed=1).players]

    m = args.time_samples
    rounds = []
    for r in range(args.rounds):  # PokerKit, then histkit, moments apart, in each round
        pk_time = timed(lambda r=r: pokerkit_equity(game, players, m, seed=100 + r))
        hk_time = timed(lambda r=r: equity(game, hs, method="monte_carlo", samples=m, seed=100 + r))
        big_time = timed(
            lambda r=r: equity(game, hs, method="monte_carlo", samples=args.big, seed=200 + r)
        )
        rounds.append(
            {
                "pokerkit_seconds": pk_time,
                "histkit_seconds": hk_time,
                "histkit_big_seconds": big_time,
                "ratio": pk_time / hk_time,
                "ratio_big": pk_time / m * args.big / big_time,
            }
        )
    ratios = [x["ratio"] for x in rounds]
    ratios_big = [x["ratio_big"] for x in rounds]
    return {
        "what": what,
        "game": game,
        "players": players,
        "deals": deals,
        "exact": exact,
        "pokerkit": pk,
        "histkit": hk,
        "z_pokerkit": z(pk, n),
        "z_histkit": z(hk, n),
        "pokerkit_deals_per_second": m / statistics.median(x["pokerkit_seconds"] for x in rounds),
        "histkit_deals_per_second": m / statistics.median(x["histkit_seconds"] for x in rounds),
        "histkit_big_deals_per_second": args.big
        / statistics.median(x["histkit_big_seconds"] for x in rounds),
        "ratio": statistics.median(ratios),
        "ratio_range": [min(ratios), max(ratios)],
        "ratio_big": statistics.median(ratios_big),
        "ratio_big_range": [min(ratios_big), max(ratios_big)],
        "rounds": rounds,
    }


def _shares(xs: list[float]) -> str:
    return " / ".join(f"{x:.4f}" for x in xs)


def _load_text(load: tuple[float, float, float] | None) -> str:
    return "unknown" if load is None else " / ".join(f"{x:.1f}" for x in load)


def report(args: argparse.Namespace, rows: list[dict[str, Any]], meta: dict[str, Any]) -> str:
    n, m = args.pk_samples, args.time_samples
    lines = [
        "# Stud equity: histkit against PokerKit",
        "",
        f"{meta['finished']} UTC, {platform.system()} {platform.machine()}, "
        f"{os.cpu_count()} cores, Python {platform.python_version()}, PokerKit 0.7.7 "
        "`analysis.calculate_equities` (seven hole cards, no board, no dead cards). "
        f"Load average (1 / 5 / 15 min) {_load_text(meta['load_start'])} at the start, "
        f"{_load_text(meta['load_end'])} at the end: a shared machine, read the ratios. "
        f"`python benchmarks/bench_equity.py --pk-samples {n} --time-samples {m} "
        f"--big {args.big} --rounds {args.rounds}`.",
        "",
        "**Agreement.** Every hand has one or two cards to come, so the reference is histkit's "
        f"exact count of every deal. PokerKit and histkit's Monte Carlo each draw {n:,} "
        "random deals; z is the largest distance, over the hand's players, of an estimate "
        "from the exact equity in its standard errors (|z| < 4 agrees).",
        "",
        f"**Speed at equal precision** (the same number of deals): {args.rounds} rounds, each "
        f"timing PokerKit then histkit on {m:,} deals, and histkit on {args.big:,} (PokerKit's "
        "time per deal times as many, for that ratio); the median ratio of the rounds, "
        "with the smallest and largest.",
        "",
        "| hand | exact (deals) | PokerKit | histkit | z PokerKit / histkit | "
        "deals/s PokerKit | deals/s histkit "
        f"({m:,} / {args.big:,}) | faster at {m:,} deals | faster at {args.big:,} deals |",
        "|---|---|---|---|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        players = " vs ".join(p.replace("|", "\\|") for p in r["players"])
        lo, hi = r["ratio_range"]
        lo_big, hi_big = r["ratio_big_range"]
        lines.append(
            f"| {r['what']}: {players} | {_shares(r['exact'])} ({r['deals']:,}) | "
            f"{_shares(r['pokerkit'])} | {_shares(r['histkit'])} | "
            f"{r['z_pokerkit']:.1f} / {r['z_histkit']:.1f} | "
            f"{r['pokerkit_deals_per_second']:,.0f} | {r['histkit_deals_per_second']:,.0f} / "
            f"{r['histkit_big_deals_per_second']:,.0f} | "
            f"{r['ratio']:,.0f}x ({lo:,.0f}-{hi:,.0f}) | "
            f"{r['ratio_big']:,.0f}x ({lo_big:,.0f}-{hi_big:,.0f}) |"
        )
    lines += [
        "",
        f"Largest |z|: PokerKit {max(r['z_pokerkit'] for r in rows):.1f}, histkit "
        f"{max(r['z_histkit'] for r in rows):.1f}. Speed at equal precision: "
        f"{min(r['ratio'] for r in rows):,.0f}x-{max(r['ratio'] for r in rows):,.0f}x at "
        f"{m:,} deals (histkit's fixed cost of a call counts most there), "
        f"{min(r['ratio_big'] for r in rows):,.0f}x-{max(r['ratio_big'] for r in rows):,.0f}x "
        f"at {args.big:,} deals.",
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--pk-samples", type=int, default=100_000, help="deals for the z-test")
    ap.add_argument("--time-samples", type=int, default=5_000, help="deals timed per round")
    ap.add_argument("--big", type=int, default=200_000, help="histkit deals for the big ratio")
    ap.add_argument("--rounds", type=int, default=3, help="timing rounds (median reported)")
    ap.add_argument("--out", type=Path, default=Path(__file__).parent / "results")
    args = ap.parse_args(argv)
    if min(args.pk_samples, args.time_samples, args.big, args.rounds) < 1:
        ap.error("every count must be at least 1")
    try:
        import pokerkit  # noqa: F401
    except ImportError:
        sys.exit("PokerKit is not installed: pip install pokerkit==0.7.7")

    meta: dict[str, Any] = {"load_start": load_average()}
    rows = []
    for what, game, players in CASES:
        r = measure(args, what, game, players)
        rows.append(r)
        print(
            f"{what}: exact {_shares(r['exact'])} ({r['deals']:,} deals); PokerKit "
            f"{_shares(r['pokerkit'])} (z {r['z_pokerkit']:.1f}), histkit "
            f"{_shares(r['histkit'])} (z {r['z_histkit']:.1f}); {r['ratio']:,.0f}x at "
            f"{args.time_samples:,} deals, {r['ratio_big']:,.0f}x at {args.big:,}",
            flush=True,
        )
    meta["load_end"] = load_average()
    meta["finished"] = f"{datetime.now(UTC):%Y-%m-%d %H:%M}"
    text = report(args, rows, meta)
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "equity.md").write_text(text, encoding="utf-8")
    record = {
        **meta,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "pokerkit": "0.7.7",
        "pk_samples": args.pk_samples,
        "time_samples": args.time_samples,
        "big": args.big,
        "rounds": args.rounds,
        "hands": rows,
    }
    (args.out / "equity.json").write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
