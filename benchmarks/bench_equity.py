"""Stud equity, histkit against PokerKit on the same hands: agreement and speed.

Run: python benchmarks/bench_equity.py [--pk-samples 2000] [--out benchmarks/results]
(needs `pip install pokerkit==0.7.7`). PokerKit's `calculate_equities` deals the stud
hands out by Monte Carlo (seven hole cards, no board); it has no dead cards, so none are
used here. For each hand:

- the reference answer: histkit's exact equity (every deal) where there are at most
  `--exact-max` deals, else histkit Monte Carlo with `--ref-samples` deals;
- PokerKit with `--pk-samples` deals, and histkit Monte Carlo with as many: the same
  estimator over the same deals' distribution, so the same precision. Each is held to
  the reference by its z-score, (estimate - reference) / its standard error (the spread
  of one deal's share, measured by histkit, over the square root of the samples);
- the time of each, and the ratio at equal precision: PokerKit's time for N deals over
  histkit's, at N = `--pk-samples` (measured on both) and at N = `--big` (histkit measured,
  PokerKit's time per deal times N: its cost is linear in N).

The machine is shared and noisy: read the ratios, taken moments apart, not the times.
Results go to `<out>/equity.md` (and are printed).
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from math import sqrt
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from histkit.equity import count_deals, equity, parse_holding  # noqa: E402

CASES = [
    # (what, game, players as "down | up")
    ("hi/lo, 5th street, heads-up", "stud_hilo", ["As 2s | 3d 4d 5h", "Kh Kd | Qc 7s 7h"]),
    ("stud, 6th street, three-way", "stud",
     ["Ah Ad | Kc 7d 2s 9h", "9s 9c | 2c Js 4d 8h", "Tc Jc | Qc 3c 5s Kd"]),
    ("stud, 4th street, heads-up", "stud", ["Ah Ad | Kc 7d", "9s 9h | 2c Js"]),
    ("razz, 3rd street, a board only", "razz", ["Ah 2d | 3c", "| 9s"]),
    ("hi/lo, 3rd street, three-way", "stud_hilo", ["As 2s | 3d", "Kh Kd | Qc", "| 7s"]),
]  # fmt: skip


def best_time(fn: Callable[[], object], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--pk-samples", type=int, default=2000, help="PokerKit's deals per hand")
    ap.add_argument("--big", type=int, default=200_000, help="deals for the throughput ratio")
    ap.add_argument("--ref-samples", type=int, default=2_000_000)
    ap.add_argument("--exact-max", type=int, default=20_000_000)
    ap.add_argument("--repeat", type=int, default=3, help="histkit timings: best of N")
    ap.add_argument("--out", type=Path, default=Path(__file__).parent / "results")
    args = ap.parse_args()
    try:
        import pokerkit  # noqa: F401
    except ImportError:
        sys.exit("PokerKit is not installed: pip install pokerkit==0.7.7")

    rows = []
    worst_pk = worst_hk = 0.0
    for what, game, players in CASES:
        hs = [parse_holding(p) for p in players]
        deals = count_deals(game, hs)
        if deals <= args.exact_max:
            ref = equity(game, hs, method="exact")
            ref_how = f"exact, {deals:,} deals"
        else:
            ref = equity(game, hs, method="monte_carlo", samples=args.ref_samples, seed=99)
            ref_how = f"Monte Carlo, {args.ref_samples:,} deals"
        # the spread of one deal's share, per player, from a large histkit run
        spread = equity(game, hs, method="monte_carlo", samples=200_000, seed=7)
        sd = [p.error * sqrt(spread.samples) for p in spread.players]

        n = args.pk_samples
        t = time.perf_counter()
        pk = pokerkit_equity(game, players, n, seed=1)
        pk_time = time.perf_counter() - t
        hk = equity(game, hs, method="monte_carlo", samples=n, seed=1)
        hk_time = best_time(
            lambda hs=hs, game=game, n=n: equity(game, hs, method="monte_carlo", samples=n),
            args.repeat,
        )
        big_time = best_time(
            lambda hs=hs, game=game: equity(game, hs, method="monte_carlo", samples=args.big),
            args.repeat,
        )

        def z(est: float, i: int, samples: int, ref: object = ref, sd: list = sd) -> float:  # type: ignore[type-arg]
            se = sd[i] / sqrt(samples)
            exact = ref.players[i].equity  # type: ignore[attr-defined]
            return 0.0 if se == 0 else (est - exact) / se

        z_pk = max(abs(z(pk[i], i, n)) for i in range(len(hs)))
        z_hk = max(abs(z(hk.players[i].equity, i, n)) for i in range(len(hs)))
        worst_pk, worst_hk = max(worst_pk, z_pk), max(worst_hk, z_hk)
        rows.append(
            {
                "what": what,
                "players": " vs ".join(p.replace("|", "\\|") for p in players),
                "ref": " / ".join(f"{p.equity:.4f}" for p in ref.players),
                "ref_how": ref_how,
                "pk": " / ".join(f"{x:.4f}" for x in pk),
                "hk": " / ".join(f"{p.equity:.4f}" for p in hk.players),
                "z_pk": z_pk,
                "z_hk": z_hk,
                "pk_rate": n / pk_time,
                "hk_rate": n / hk_time,
                "big_rate": args.big / big_time,
                "ratio_n": pk_time / hk_time,
                "ratio_big": (pk_time / n * args.big) / big_time,
            }
        )
        r = rows[-1]
        print(
            f"{what}: PokerKit {r['pk']} (z {z_pk:.1f}), histkit {r['hk']} (z {z_hk:.1f}), "
            f"reference {r['ref']} ({ref_how}); {r['ratio_n']:.0f}x at {n:,} deals, "
            f"{r['ratio_big']:,.0f}x at {args.big:,}",
            flush=True,
        )

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    lines = [
        "# Stud equity: histkit against PokerKit",
        "",
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.system()} {platform.machine()}, "
        f"{os.cpu_count()} cores (load average {load:.1f}: a shared machine, read the "
        f"ratios), Python {platform.python_version()}, PokerKit 0.7.7 "
        "`analysis.calculate_equities` (seven hole cards, no board, no dead cards). "
        "`python benchmarks/bench_equity.py`.",
        "",
        f"Equal precision: both draw {args.pk_samples:,} random deals (the same estimator of "
        "the same deals' distribution, so the same standard error); z is each estimate's "
        "distance from the reference in its standard errors (|z| < 4 agrees).",
        "",
        "| hand | reference | PokerKit | histkit | z PokerKit / histkit | "
        f"deals/s PokerKit | deals/s histkit ({args.pk_samples:,} / {args.big:,}) | "
        f"faster at {args.pk_samples:,} / {args.big:,} deals |",
        "|---|---|---|---|---:|---:|---:|---:|",
    ]
    for r in rows:
        lines.append(
            f"| {r['what']}: {r['players']} | {r['ref']} ({r['ref_how']}) | {r['pk']} | "
            f"{r['hk']} | {r['z_pk']:.1f} / {r['z_hk']:.1f} | {r['pk_rate']:,.0f} | "
            f"{r['hk_rate']:,.0f} / {r['big_rate']:,.0f} | "
            f"{r['ratio_n']:,.0f}x / {r['ratio_big']:,.0f}x |"
        )
    lines += [
        "",
        f"Largest |z|: PokerKit {worst_pk:.1f}, histkit {worst_hk:.1f}. Speed at equal "
        f"precision: {min(r['ratio_n'] for r in rows):,.0f}x-"
        f"{max(r['ratio_n'] for r in rows):,.0f}x at {args.pk_samples:,} deals (histkit's "
        "fixed cost of a call counts most there), "
        f"{min(r['ratio_big'] for r in rows):,.0f}x-{max(r['ratio_big'] for r in rows):,.0f}x "
        f"at {args.big:,} deals (a standard error near 0.001).",
        "",
    ]
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "equity.md").write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
