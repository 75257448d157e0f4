"""Where a one-process audit spends its time, phase by phase, against the naive regex scan.

Each phase is timed on its own over the same simulated Stud Hi/Lo session (8-max, the
corpus of `benchmarks/run.py`), CPU seconds of this process (medians of `--rounds`), so
that the figures add up to about the whole audit and say which part a change must shrink:

- split: the file's bytes to hand blocks (decoding, line ends, cuts at blank lines);
- classify: each line's terminal, through the line matcher (memo or regex);
- handlers: each line's handler and the sink (fields, amounts, cards; the Hand built);
- events: the same hands read with a sink that builds no events (what building them costs
  is the difference with "handlers");
- feed: the engine advanced by every fact of every hand;
- settle: pots, awards, the summary and descriptions checked (`HandAudit`);
- audit: `histkit.audit.audit_paths(jobs=1)`, the whole, as `histkit audit --jobs 1`.

    python benchmarks/bench_phases.py [--hands 5000] [--rounds 3] [--out benchmarks/results]
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from itertools import islice
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from benchmarks.naive_regex import scan  # noqa: E402
from benchmarks.run import build_mode, corpus  # noqa: E402
from histkit.audit import audit_paths  # noqa: E402
from histkit.dialects import detector  # noqa: E402
from histkit.dialects import sink as sink_module  # noqa: E402
from histkit.dialects.builder import LineReader  # noqa: E402
from histkit.model import Hand  # noqa: E402
from histkit.reading.split import file_blocks  # noqa: E402
from histkit.rules.replay import HandAudit, site_record  # noqa: E402
from histkit.rules.state import HandState  # noqa: E402


def _no_events() -> type[sink_module.HandSink] | None:
    """A sink that keeps the seats and no facts of the play: reading with it costs what
    reading costs without the events. None where the sink is compiled (a Python class
    cannot derive from it): the events' share is then measured in pure Python only."""
    try:

        class NoEvents(sink_module.HandSink):
            def deal(self, *a: Any) -> None: ...
            def action(self, *a: Any) -> None: ...
            def result(self, *a: Any) -> None: ...

            def street_start(self, street: Any, line: int, community: Any = None) -> None:
                self.street = street  # (the deal lines are read by the street)

        NoEvents("probe", "", 1)  # (a compiled base refuses here, not at the class)
    except TypeError:
        return None
    return NoEvents


def cpu_seconds(fn: Callable[[], Any], rounds: int) -> float:
    """Median CPU seconds of `fn` over `rounds` runs (garbage collected before each)."""
    got = []
    for _ in range(rounds):
        gc.collect()
        t = time.process_time()
        fn()
        got.append(time.process_time() - t)
    return statistics.median(got)


def phases(path: Path, rounds: int) -> dict[str, float]:
    """Microseconds per hand of each phase (module doc)."""
    det = detector(None)
    with open(path, "rb") as f:
        blocks = list(file_blocks(f, det))
    heads = [det.header_of(b.lines[0]) for b in blocks]
    assert all(h is not None for h in heads)
    dialect = heads[0][0]  # type: ignore[index]
    matcher = dialect.matcher
    assert matcher is not None
    hits: list[list[tuple[Any, Any]]] = []
    for b in blocks:
        state, row_hits = matcher.first, []
        for line in islice(b.lines, 1, None):
            row = matcher.rows[state] or matcher.row(state)
            hit = row[3].get(line) or matcher.read(row, line)
            state = row[4][hit[0]]
            row_hits.append((hit[1], hit[2]))
        hits.append(row_hits)
    hands = [h[0].parse_block(b, str(path), h[1]) for b, h in zip(blocks, heads, strict=True)]  # type: ignore[index]
    assert all(isinstance(h, Hand) for h in hands)
    gc.freeze()  # the blocks and hands kept for the phases are not garbage

    def split() -> None:
        with open(path, "rb") as f:
            for _ in file_blocks(f, det):
                pass

    def classify() -> None:
        for memo in matcher._memos.values():  # as cold as a run that reads these first
            memo.clear()
        for b in blocks:
            state = matcher.first
            for line in islice(b.lines, 1, None):
                row = matcher.rows[state] or matcher.row(state)
                hit = row[3].get(line) or matcher.read(row, line)
                state = row[4][hit[0]]

    def handlers(sink: type[sink_module.HandSink] | None = None) -> None:
        header = dialect.handlers[dialect.header_terminal]
        for b, h, row_hits in zip(blocks, heads, hits, strict=True):
            r = LineReader(dialect, b, str(path))
            if sink is not None:
                r.sink = sink(dialect.site, str(path), b.start_line, dialect.name)
            header(r, h[1], b.start_line)  # type: ignore[index]
            for i, (handler, m) in enumerate(row_hits, 1):
                handler(r, m, b.start_line + i)
            if sink is None:
                r.sink.build()

    states: list[HandState] = []

    def feed() -> None:
        states.clear()
        for hand in hands:
            st = HandState.for_hand(hand)  # type: ignore[arg-type]
            st.feed(hand.events)  # type: ignore[union-attr]
            states.append(st)

    def settle() -> None:
        for hand, st in zip(hands, states, strict=True):
            rec = site_record(hand.site, hand.dialect)  # type: ignore[union-attr]
            HandAudit(st, hand.summary, hand.game, rec.describe, rec.no_low_printed)  # type: ignore[union-attr]

    n = len(hands)
    out = {
        "naive regex scan": cpu_seconds(lambda: scan(path), rounds),
        "split": cpu_seconds(split, rounds),
        "classify": cpu_seconds(classify, rounds),
        "handlers": cpu_seconds(handlers, rounds),
    }
    no_events = _no_events()
    if no_events is not None:
        out["events"] = cpu_seconds(lambda: handlers(no_events), rounds)
    feed_s = []
    settle_s = []
    for _ in range(rounds):  # settle needs fresh states: fed in the same round
        feed_s.append(cpu_seconds(feed, 1))
        settle_s.append(cpu_seconds(settle, 1))
    out["feed"] = statistics.median(feed_s)
    out["settle"] = statistics.median(settle_s)
    gc.unfreeze()
    out["audit"] = cpu_seconds(lambda: audit_paths([path], jobs=1), rounds)
    us = {k: v / n * 1e6 for k, v in out.items()}
    if "events" in us:
        us["events"] = us["handlers"] - us["events"]  # what building the events costs
    return us


def markdown(r: dict[str, Any]) -> str:
    out = _table(r["us_per_hand"], r["build"], r)
    if r.get("pure_python"):
        out += "\nThe same in a child process running the pure-Python modules:\n\n"
        out += _table(r["pure_python"], "pure Python", None)
    return out


def _table(us: dict[str, float], build: str, r: dict[str, Any] | None) -> str:
    naive = us["naive regex scan"]
    rows = [
        ("naive regex scan", "the baseline: every pattern on every line, chips added up"),
        ("split", "bytes to hand blocks"),
        ("classify", "each line's terminal (memo or regex)"),
        ("handlers", "each line's fields, amounts and cards to the sink; the Hand built"),
        ("events", "of which: building the events (handlers with a sink that keeps none)"),
        ("feed", "the engine advanced by every fact"),
        ("settle", "pots, awards, summary and descriptions checked"),
        ("audit", "histkit audit --jobs 1, whole"),
    ]
    lines = []
    if r is not None:
        lines += [
            f"Measured {r['date']} on {r['platform']}, {build}; {r['hands']:,} simulated "
            f"Stud Hi/Lo hands (8-max), CPU time of one process, medians of {r['rounds']} "
            f"rounds; load average {r['load_average'][0]:.1f} at the start.",
            "",
        ]
    lines += [
        "| phase | µs per hand | share of the naive scan | what it is |",
        "|---|---:|---:|---|",
    ]
    lines += [
        f"| {k} | {us[k]:,.0f} | {us[k] / naive:.2f}x | {what} |" for k, what in rows if k in us
    ]
    parts = us["split"] + us["classify"] + us["handlers"] + us["feed"] + us["settle"]
    lines += [
        "",
        f"The phases add up to {parts:,.0f} µs a hand against the whole audit's "
        f"{us['audit']:,.0f}; the audit runs at {naive / us['audit']:.2f}x the naive scan.",
    ]
    return "\n".join(lines) + "\n"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--hands", type=int, default=5_000, help="corpus size (default 5,000)")
    ap.add_argument("--rounds", type=int, default=3, help="runs of each phase (default 3)")
    ap.add_argument("--out", type=Path, default=HERE / "results", help="output folder")
    ap.add_argument("--phases-only", type=Path, metavar="FILE", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.phases_only is not None:  # the child of a compiled run, in pure Python
        print(json.dumps(phases(args.phases_only, args.rounds)))
        return
    args.out.mkdir(parents=True, exist_ok=True)
    path = corpus(args.out, args.hands)
    import platform
    from datetime import date

    r = {
        "date": date.today().isoformat(),
        "platform": platform.platform(),
        "build": build_mode(),
        "hands": args.hands,
        "rounds": args.rounds,
        "load_average": list(os.getloadavg()),
        "us_per_hand": phases(path, args.rounds),
        "pure_python": None,
    }
    from histkit import _native

    if _native.status().compiled:
        child = subprocess.run(
            [sys.executable, __file__, "--phases-only", str(path), "--rounds", str(args.rounds)],
            env={**os.environ, "HISTKIT_PURE": "1"},
            check=True,
            capture_output=True,
            text=True,
        ).stdout
        r["pure_python"] = json.loads(child.splitlines()[-1])
    (args.out / "phases.json").write_text(json.dumps(r, indent=2) + "\n", encoding="utf-8")
    (args.out / "phases.md").write_text(markdown(r), encoding="utf-8")
    print(markdown(r))


if __name__ == "__main__":
    main()
