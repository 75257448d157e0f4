"""Peak memory of reading one long iPoker session: a big session against a small one.

Run: python benchmarks/bench_ipoker_memory.py [--small 10000] [--big 100000] [--game stud_hilo].
Two sessions of simulated cash hands are written as iPoker XML (one `<session>` each, piece
by piece, so writing them holds no file in memory), then each is read with `iter_hands` in a
fresh child process, which reports its peak resident set size (`resource.getrusage`). The
ratio big/small is printed: the XML is streamed a hand at a time, so it should stay near 1
(the brief's bound: 1.3x for 100,000 against 10,000 hands). Never assert on timings.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

CHILD = """
import resource, sys
from histkit.model import Hand
from histkit.reader import iter_hands
n = bad = 0
for item in iter_hands([sys.argv[1]]):
    n += 1
    bad += not isinstance(item, Hand)
print(n, bad, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)
"""


def write(path: Path, game: str, hands: int, seed: int) -> None:
    """`hands` simulated cash hands as one iPoker session."""
    from histkit.dialects.ipoker import IPOKER
    from histkit.dialects.ipoker_writer import iter_session
    from histkit.simulate import simulate

    played = simulate(game, hands, players=6, seed=seed, currency="EUR", profile=IPOKER)
    with open(path, "w", encoding="utf-8") as f:
        for piece in iter_session(played):
            f.write(piece)


def peak_kib(path: Path) -> tuple[int, int, float]:
    """(hands read, peak RSS in KiB, seconds) of one child process reading `path`."""
    t = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(path)],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ},
    ).stdout.split()
    n, bad, rss = (int(x) for x in out)
    if bad:
        raise SystemExit(f"{path}: {bad} of {n} items are not hands")
    return n, rss, time.perf_counter() - t


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--small", type=int, default=10_000)
    ap.add_argument("--big", type=int, default=100_000)
    ap.add_argument("--game", default="stud_hilo")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--dir", type=Path, help="where the sessions are written (default: a temp dir)")
    args = ap.parse_args(argv)
    folder = args.dir or Path(tempfile.mkdtemp(prefix="ipoker-memory-"))
    folder.mkdir(parents=True, exist_ok=True)
    peaks = {}
    for n in (args.small, args.big):
        path = folder / f"{args.game}_{n}.xml"
        if not path.exists():
            write(path, args.game, n, args.seed)
        got, rss, secs = peak_kib(path)
        if got != n:
            raise SystemExit(f"{path}: read {got} hands, wrote {n}")
        peaks[n] = rss
        size = path.stat().st_size / 2**20
        print(f"{n:>8,} hands ({size:,.1f} MiB): peak RSS {rss / 1024:,.1f} MiB ({secs:,.1f} s)")
    ratio = peaks[args.big] / peaks[args.small]
    print(f"peak memory, {args.big:,} vs {args.small:,} hands: ratio {ratio:.2f}")


if __name__ == "__main__":
    main()
