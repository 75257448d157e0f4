"""Replay alone (the rules engine), side by side with the naive regex scan of the same file.

    python benchmarks/bench_replay.py [--hands 5000] [--game stud_hilo] [--rounds 5]

Simulates a session (cached beside this file under results/), parses it once, then
alternates `--rounds` times: the naive regex scan of the file (`naive_regex.scan`, the
yardstick of issue 6) and `histkit.rules.replay` over the parsed hands; medians of CPU
time. Also prints where the replay's time goes (events, settlement, award and summary
checks). Read the ratio, not the absolute figures: the machines are shared and noisy.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from benchmarks.naive_regex import scan  # noqa: E402
from histkit.model import Hand  # noqa: E402
from histkit.reader import iter_hands  # noqa: E402
from histkit.rules import POKERSTARS, replay  # noqa: E402
from histkit.rules.games import spec_for  # noqa: E402
from histkit.rules.replay import _Audit  # noqa: E402
from histkit.simulate import write_session  # noqa: E402


def _timed(fn: object, *args: object) -> float:
    t = time.process_time()
    fn(*args)  # type: ignore[operator]
    return time.process_time() - t


def _replay_all(hands: list[Hand]) -> None:
    for h in hands:
        replay(h)


def _breakdown(hands: list[Hand]) -> dict[str, float]:
    """CPU seconds per stage of `replay` (the same steps as `_Audit.run`)."""
    out = dict.fromkeys(("state", "events", "settle", "awards", "summary"), 0.0)
    clock = time.process_time
    for h in hands:
        t0 = clock()
        a = _Audit(h, POKERSTARS, spec_for(h.game))
        st = a.st
        t1 = clock()
        st.feed(h.events)
        st.finish()
        if h.summary is not None:
            for sr in h.summary.seats:
                if sr.cards and sr.player in st.cards:
                    st.reveal(sr.player, sr.cards, line=sr.line)
        t2 = clock()
        s = st.settle(rake=h.summary.rake if h.summary is not None else 0)
        t3 = clock()
        a.check_awards(s, st.collects)
        a.check_descriptions()
        t4 = clock()
        a.check_summary(s, st.collects)
        t5 = clock()
        for k, dt in zip(out, (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4), strict=True):
            out[k] += dt
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=5000)
    ap.add_argument("--game", default="stud_hilo")
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    folder = HERE / "results"
    folder.mkdir(exist_ok=True)
    path = folder / f"replay-{args.game}-{args.hands}.txt"
    if not path.exists():
        write_session(path, args.game, args.hands, seed=6)
    hands = [h for h in iter_hands([path]) if isinstance(h, Hand)]
    n = len(hands)
    gc.collect()
    gc.freeze()  # the parsed hands are long-lived: keep the collector off them
    naive, rep = [], []
    for _ in range(args.rounds):
        naive.append(_timed(scan, path))
        rep.append(_timed(_replay_all, hands))
    naive_rate = n / statistics.median(naive)
    replay_rate = n / statistics.median(rep)
    print(f"{n} hands of {args.game}, {args.rounds} rounds, medians of CPU time")
    print(f"naive regex scan  {naive_rate:9,.0f} hands/s")
    print(f"replay            {replay_rate:9,.0f} hands/s  ({replay_rate / naive_rate:.2f}x naive)")
    parts = _breakdown(hands)
    total = sum(parts.values())
    print("replay breakdown (us/hand): " + ", ".join(
        f"{k} {v / n * 1e6:.0f} ({v / total:.0%})" for k, v in parts.items()
    ))  # fmt: skip


if __name__ == "__main__":
    main()
