"""Evaluator throughput: seven-card hands per second, scalar and numpy batch (issue 6).

Run: python benchmarks/bench_evaluate.py [--n 1000000]. Prints evals/s per path; the
machine is shared and noisy, so read the ratios, and never assert on these numbers.
A brute-force best-of-21 baseline (the five-card table applied to every subset, which is
what a combinations-based evaluator does) is measured in the same run for a ratio.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from itertools import combinations

import numpy as np

from histkit.cards import DECK
from histkit.evaluate import (
    high_value,
    high_values_batch,
    low8_value,
    low8_values_batch,
    razz_value,
    razz_values_batch,
)


def deal(n: int, k: int = 7, seed: int = 1) -> np.ndarray:
    """n random k-card hands (distinct cards per row) as card indices."""
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, 52)), axis=1)[:, :k].astype(np.int8)


def rate(fn: Callable[[], object], count: int, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return count / best


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--n", type=int, default=1_000_000, help="hands for the batch path")
    ap.add_argument("--scalar-n", type=int, default=100_000, help="hands for the scalar path")
    args = ap.parse_args()

    idx = deal(args.n)
    hands = [tuple(DECK[i] for i in row) for row in deal(args.scalar_n, seed=2).tolist()]
    few = hands[: max(1, args.scalar_n // 20)]

    rows = [
        ("high  batch ", rate(lambda: high_values_batch(idx), args.n)),
        ("high  batch, check=False", rate(lambda: high_values_batch(idx, check=False), args.n)),
        ("low8  batch ", rate(lambda: low8_values_batch(idx), args.n)),
        ("razz  batch ", rate(lambda: razz_values_batch(idx), args.n)),
        ("high  scalar", rate(lambda: [high_value(h) for h in hands], len(hands))),
        ("low8  scalar", rate(lambda: [low8_value(h) for h in hands], len(hands))),
        ("razz  scalar", rate(lambda: [razz_value(h) for h in hands], len(hands))),
        (
            "high  brute force 21 subsets (baseline)",
            rate(lambda: [max(map(high_value, combinations(h, 5))) for h in few], len(few), 1),
        ),
    ]
    base = rows[-1][1]
    print(f"seven-card evaluations per second (batch n={args.n:,}, scalar n={len(hands):,})")
    for name, r in rows:
        print(f"  {name:<42} {r:>14,.0f}/s   {r / base:8.1f}x baseline")


if __name__ == "__main__":
    main()
