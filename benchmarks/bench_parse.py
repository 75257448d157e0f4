"""Parse throughput (issue 6): the fast path, the LALR path and the regex baselines, alternated.

Run: python benchmarks/bench_parse.py [FILE] [--hands 5000] [--rounds 3]. Without FILE a
Stud Hi/Lo session is simulated into a temporary file first. Each round times, one after
the other on the same file: `iter_hands` with the line matcher (the default), `iter_hands`
on the LALR parser only (`fast=False`), the naive regex scan and the tuned one. Medians and
ratios are printed (the machines are shared and noisy: read the ratios, and never assert
on these numbers).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.naive_regex import scan, scan_tuned  # noqa: E402
from histkit.dialects.pokerstars import PokerStars  # noqa: E402
from histkit.reader import iter_hands  # noqa: E402


def _parser(fast: bool) -> Callable[[Path], int]:
    dialect = PokerStars(fast=fast)

    def run(path: Path) -> int:
        return sum(1 for _ in iter_hands([path], dialect=dialect))

    return run


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", nargs="?", type=Path)
    ap.add_argument("--hands", type=int, default=5000)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args(argv)
    path = args.file
    if path is None:
        from histkit.simulate import write_session

        path = Path(tempfile.mkdtemp()) / "stud_hilo.txt"
        write_session(path, "stud_hilo", args.hands, seed=1)
    runs: dict[str, Callable[[Path], object]] = {
        "parse (fast path)": _parser(True),
        "parse (LALR only)": _parser(False),
        "naive regex scan": scan,
        "tuned regex scan": scan_tuned,
    }
    hands = _parser(True)(path)  # warm up: parsers built, caches filled
    _parser(False)(path)
    times: dict[str, list[float]] = {k: [] for k in runs}
    for _ in range(args.rounds):
        for name, fn in runs.items():
            t = time.perf_counter()
            fn(path)
            times[name].append(time.perf_counter() - t)
    rate = {k: hands / statistics.median(v) for k, v in times.items()}
    print(f"{path}: {hands:,} hands, median of {args.rounds} alternated rounds")
    for name, r in rate.items():
        print(
            f"  {name:18s} {r:9,.0f} hands/s   "
            f"x{r / rate['naive regex scan']:.2f} naive   x{r / rate['tuned regex scan']:.2f} tuned"
        )
    print(f"  fast path / LALR: x{rate['parse (fast path)'] / rate['parse (LALR only)']:.2f}")


if __name__ == "__main__":
    main()
