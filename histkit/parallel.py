"""The bulk pipeline — read, parse, (replay), build Arrow — over chunks of the input, in
this process or in worker processes, with results always in input order.

Workers return Arrow tables and small records, never `Hand` objects: pickling Python
objects back to the parent costs as much as the parse it saved (docs/architecture.md "Performance").
At most `2 * jobs` chunks are in flight, so memory stays bounded however large the input.
"""

from __future__ import annotations

import gc
import os
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import chain, islice
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from histkit.audit import AuditedHand, audit_hand
from histkit.model import Hand
from histkit.reader import Chunk, ParseIssue, chunk_bytes, iter_chunks, parse_chunk, strictly
from histkit.rules import RuleProfile, Violation

if TYPE_CHECKING:  # imported where tables are built: an audit without them loads no pyarrow
    from concurrent.futures import Future

    from histkit.tables import TableBuilder, Tables

__all__ = ["ChunkResult", "HandKey", "default_jobs", "process_chunk", "run", "build_tables"]


def default_jobs() -> int:
    """The cores this process may use (the CLI's default for --jobs)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


class HandKey(NamedTuple):
    """One hand read, as the hand database keeps track of it (`process_chunk(keys=True)`):
    its key, a checksum of its text (None: not known), its first line, and whether its rows
    are in the chunk's tables (False: a copy of a hand read earlier in the same chunk, left
    out of the tables so that each key's rows there are one hand's)."""

    site: str
    hand_id: str
    digest: int | None
    line: int
    stored: bool


@dataclass(frozen=True)
class ChunkResult:
    """What one chunk of input became."""

    source: str
    tables: Tables | None
    games: Counter[str] = field(default_factory=Counter)  # every hand read, copies too
    skipped: Counter[str] = field(default_factory=Counter)
    # rejected hands, and files that could not be read (kind "unreadable")
    rejected: tuple[ParseIssue, ...] = ()
    sites: Counter[tuple[str, str]] = field(default_factory=Counter)  # (site, game) -> hands
    unknown: tuple[ParseIssue, ...] = ()  # files of no known site's format
    skipped_records: tuple[ParseIssue, ...] = ()
    # when auditing: each hand as the audit keeps it, in input order (the parent counts a
    # hand read twice once, across chunks and workers)
    audited: tuple[AuditedHand, ...] = ()
    # with keys=True: every hand read, in input order (the stored ones are the rows of
    # `tables.hands`, in the same order)
    keys: tuple[HandKey, ...] = ()
    nbytes: int = 0  # bytes of input the chunk covered (for progress bars)
    # hands read without a line they could not read (`Hand.gaps`): (file, line, hand id)
    # of each hand's first such line
    unread: tuple[tuple[str, int, str], ...] = ()

    @property
    def hands(self) -> int:
        return sum(self.games.values())

    @property
    def violations(self) -> tuple[Violation, ...]:
        return tuple(v for a in self.audited for v in a.violations)


def process_chunk(
    chunk: Chunk,
    *,
    site: str | None = None,
    tables: bool = True,
    audit: bool = False,
    profile: RuleProfile | None = None,
    keys: bool = False,
    strict: bool = False,
) -> ChunkResult:
    """Parse one chunk, replay its hands when auditing, and build its tables. `site`
    forces a site (None: detected per hand); `profile` overrides each site's house rules.
    Auditing without tables, a copy of a hand read earlier in the chunk (same site and
    hand id) is not replayed again: the audit counts it, and audits the first. `keys`:
    also list every hand's key and text checksum (`ChunkResult.keys`), and leave such
    copies out of the tables (the hand database stores a hand once). `strict`: a hand read
    without a line is rejected (`reader.strictly`)."""
    builder: TableBuilder | None = None
    if tables:
        from histkit.tables import TableBuilder

        builder = TableBuilder(audit=audit)
    games: Counter[str] = Counter()
    skipped: Counter[str] = Counter()
    rejected: list[ParseIssue] = []
    skipped_records: list[ParseIssue] = []
    sites: Counter[tuple[str, str]] = Counter()
    unknown: list[ParseIssue] = []
    kept: list[AuditedHand] = []
    digests: list[int | None] | None = [] if audit or keys else None
    seen: set[tuple[str, str]] = set()  # hands read in this chunk
    replayed: set[tuple[str, str]] = set()  # ... and replayed
    hand_keys: list[HandKey] = []
    unread: list[tuple[str, int, str]] = []
    items = parse_chunk(chunk, site=site, digests=digests)
    for item in strictly(items) if strict else items:
        if isinstance(item, Hand):
            games[item.game.value] += 1
            sites[item.site, item.game.value] += 1
            gaps = item.gaps()
            if gaps:
                unread.append((item.source.file, gaps[0].line, item.hand_id))
            digest = digests.pop() if digests else None
            key = (item.site, item.hand_id)
            copy = key in seen
            seen.add(key)
            if keys:
                hand_keys.append(HandKey(*key, digest, item.source.line, not copy))
            if audit:
                # (a copy is replayed again for the tables, unless they keep a hand once)
                once = replayed if builder is None or keys else None
                a, rp = audit_hand(item, once, profile, digest)
                kept.append(a)
                if builder is not None and rp is not None:
                    builder.add_replay(rp)
            elif builder is not None and not (keys and copy):
                builder.add_hand(item)
        else:
            if item.kind == "skipped":
                skipped[item.game or "unknown game"] += 1
                skipped_records.append(item)
            elif item.kind == "unknown":
                unknown.append(item)
            else:
                rejected.append(item)
            if builder is not None:
                builder.add_issue(item)
    return ChunkResult(
        source=chunk.source,
        tables=builder.build() if builder is not None else None,
        games=games,
        skipped=skipped,
        rejected=tuple(rejected),
        skipped_records=tuple(skipped_records),
        sites=sites,
        unknown=tuple(unknown),
        audited=tuple(kept),
        keys=tuple(hand_keys),
        nbytes=chunk_bytes(chunk),
        unread=tuple(unread),
    )


_SPAN_BYTES = 1 << 20  # about 400 hands of 8-max stud per chunk sent to a worker


def _init_worker() -> None:
    gc.freeze()  # objects inherited from the parent (grammar, tables) are never garbage
    gc.set_threshold(100_000, *gc.get_threshold()[1:])  # as in bulk_gc


@contextmanager
def bulk_gc(threshold: int = 100_000) -> Iterator[None]:
    """Collect garbage less often during bulk work: hands and replays hold no reference
    cycles, yet each allocates hundreds of objects, so the default threshold (700)
    runs the cyclic collector over and over for nothing. Restored on exit."""
    old = gc.get_threshold()
    gc.freeze()  # what exists now (grammar, lookup tables) is never garbage
    gc.set_threshold(threshold, old[1], old[2])
    try:
        yield
    finally:
        gc.set_threshold(*old)
        gc.unfreeze()


def run(
    paths: Iterable[str | Path],
    *,
    jobs: int = 1,
    site: str | None = None,
    tables: bool = True,
    audit: bool = False,
    profile: RuleProfile | None = None,
    max_blocks: int | None = None,
    keys: bool = False,
    chunks: Iterable[Chunk] | None = None,
    strict: bool = False,
) -> Iterator[ChunkResult]:
    """Results per chunk of the input, in input order. `jobs > 1` spreads chunks over
    worker processes; the results are the same as with one process. `chunks`: these
    chunks instead of those of `paths` (the hand database reads only what a file gained);
    `keys`, `strict`: as in `process_chunk`."""
    kw: dict[str, Any] = {"site": site, "tables": tables, "audit": audit, "profile": profile}
    if keys:
        kw["keys"] = True
    if strict:
        kw["strict"] = True
    if jobs <= 1:
        with bulk_gc():
            if chunks is None:
                chunks = iter_chunks(paths, site=site, max_blocks=max_blocks)
            for chunk in chunks:
                yield process_chunk(chunk, **kw)
        return
    # workers read their own byte ranges: the parent only finds where to cut, so it stays
    # a small share of the work however fast the workers are (`max_blocks`: block chunks)
    if chunks is None:
        span = None if max_blocks else _SPAN_BYTES
        chunks = iter_chunks(paths, site=site, max_blocks=max_blocks, span_bytes=span)
    chunks = iter(chunks)
    first = list(islice(chunks, 2))
    if len(first) < 2:  # one chunk (a small input): starting workers would cost more
        with bulk_gc():
            for chunk in first:
                yield process_chunk(chunk, **kw)
        return
    import multiprocessing as mp
    from concurrent.futures import ProcessPoolExecutor

    chunks = chain(first, chunks)
    methods = mp.get_all_start_methods()
    ctx = mp.get_context("fork" if "fork" in methods else "spawn")
    with ProcessPoolExecutor(jobs, mp_context=ctx, initializer=_init_worker) as pool:
        window: deque[Future[ChunkResult]] = deque()
        for chunk in chunks:
            window.append(pool.submit(process_chunk, chunk, **kw))
            if len(window) >= 2 * jobs:
                yield window.popleft().result()
        while window:
            yield window.popleft().result()


def build_tables(
    paths: Iterable[str | Path],
    *,
    jobs: int = 1,
    site: str | None = None,
    audit: bool = False,
    profile: RuleProfile | None = None,
    dialect: str | None = None,
    progress: Callable[[int, int], object] | None = None,
) -> Tables:
    """All tables of the input in memory (for stats and notebooks); `jobs` as in `run`.
    `progress(n, nbytes)` is called as each chunk of n hands (nbytes of input) is done."""
    import pyarrow as pa

    from histkit.tables import TableBuilder, Tables

    site = site if site is not None else dialect  # `dialect`: the older name of `site`
    parts = []
    for r in run(paths, jobs=jobs, site=site, audit=audit, profile=profile):
        parts.append(r.tables)
        if progress is not None:
            progress(r.hands, r.nbytes)
    present = [t for t in parts if t is not None]
    if not present:
        return TableBuilder(audit=audit).build()
    return Tables(
        **{name: pa.concat_tables([t[name] for t in present]) for name, _ in present[0].items()}
    )
