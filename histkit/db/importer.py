"""`import_paths`: hand histories into the hand database, incrementally, each hand once.

An import is one transaction: killed at any moment, the database holds all of its hands or
none of them, and the next import does what it did not. It parses with the same pipeline
as `histkit parse` (`histkit.parallel.run`: chunks of files or byte ranges, Arrow tables
built in worker processes) and inserts those tables in bulk. What it skips, reads, reads on
from and holds back is decided per file (`histkit.db.scan`); how each hand is stored once
is `histkit.db.store`'s business.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from histkit.db.connection import DEFAULT_TIMEOUT, connect_file, resolve_path
from histkit.db.scan import (
    NEW,
    REREAD,
    RESUME,
    SKIP,
    SPAN_BYTES,
    FilePlan,
    Known,
    plan_file,
    unchanged,
)
from histkit.db.schema import DatabaseError, ensure
from histkit.db.store import Store

if TYPE_CHECKING:
    import duckdb

    from histkit.dialects import Detector
    from histkit.reader import Chunk

__all__ = ["ImportReport", "NothingToImport", "import_paths", "open_for_writing"]

_SMALL = 2 << 20  # less to read than this: one process (starting workers costs more)


@dataclass(frozen=True)
class ImportReport:
    """What one import did. Files: `seen` (named, or found in the folders named),
    `skipped` (unchanged since the last import), `read` (new), `resumed` (grown: read on
    from where the last import stopped), `reread` (changed, or holding a copy of a hand
    that had to be read again: old rows removed, read whole). Hands: `added` (stored),
    `removed` (old rows of files read again or read on), `duplicates` (copies of stored
    hands, not stored again), `conflicts` (a key stored with another text: not stored, an
    error naming both files), `pending` (last hands of files not complete yet), `rejected`
    (stud hands that could not be parsed), `skipped` (hands of other games)."""

    db: str
    files_seen: int = 0
    files_skipped: int = 0
    files_read: int = 0
    files_resumed: int = 0
    files_reread: int = 0
    hands_added: int = 0
    hands_removed: int = 0
    duplicates: int = 0
    conflicts: int = 0
    pending: int = 0
    rejected: int = 0
    skipped: int = 0
    seconds: float = 0.0
    unreadable: int = 0  # files that could not be read
    unknown: int = 0  # files of no known site's format
    conflict_messages: tuple[str, ...] = ()
    rejected_examples: tuple[tuple[str, int | None, str | None, str], ...] = ()
    unknown_examples: tuple[tuple[str, str], ...] = ()
    unreadable_examples: tuple[tuple[str, str], ...] = ()
    pending_hands: tuple[tuple[str, int, str], ...] = ()  # (file, line, why), files read
    read_files: tuple[str, ...] = ()  # the files read (whole, on, or again)
    last_file: str | None = None  # the last file read


class NothingToImport(Exception):
    """No stud hand in files all new to the database: nothing was imported (`report`
    says what they held instead)."""

    def __init__(self, report: ImportReport) -> None:
        super().__init__(f"no stud hands in the {report.files_seen:,} new files")
        self.report = report


def open_for_writing(
    db: str | os.PathLike[str] | None, *, timeout: float = DEFAULT_TIMEOUT
) -> duckdb.DuckDBPyConnection:
    """A writing connection to the database (created if new), at the current schema."""
    import duckdb

    file = resolve_path(db)
    if file.is_dir():
        raise DatabaseError(f"{file} is a folder, not a database file")
    try:
        con = connect_file(file, read_only=False, timeout=timeout)
    except duckdb.Error as e:
        raise DatabaseError(f"{file} is not a DuckDB database ({_first_line(e)})") from None
    try:
        ensure(con)
    except DatabaseError as e:
        con.close()
        raise DatabaseError(f"{file}: {e}") from None
    except BaseException:
        con.close()
        raise
    return con


def import_paths(
    paths: Iterable[str | os.PathLike[str]],
    *,
    db: str | os.PathLike[str] | None = None,
    audit: bool = True,
    jobs: int = 1,
    progress: Callable[[int, int], object] | None = None,
    site: str | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    planned: Callable[[int], object] | None = None,
    require_hands: bool = False,
) -> ImportReport:
    """Import hand-history files and folders (recursively) into the database `db` (None:
    `$HISTKIT_DB` or the default). `audit`: also replay each hand and store its awards
    and violations. `jobs`: worker processes. `progress(n, nbytes)` is called as n more
    hands (nbytes more bytes) are parsed, after `planned(nbytes)` with the bytes there
    are to read (files unchanged since the last import are not read). `site` forces a
    site, as `histkit parse --site`. `require_hands`: files all new to the database with
    no stud hand among them (empty, binary, other games, no known site's) are
    `NothingToImport`, and the database is left as it was (so the next import of them
    says the same)."""
    from histkit.dialects import detector
    from histkit.reader import iter_files

    t0 = time.perf_counter()
    file = resolve_path(db)
    con = open_for_writing(file, timeout=timeout)
    try:
        known = _known(con)
        plans: list[FilePlan] = []
        seen: set[str] = set()
        starts: Detector | None = None  # built only when a file is to be read
        for found in iter_files(_absolute(paths)):
            path = str(found)
            if path in seen:
                continue
            seen.add(path)
            plan = unchanged(path, known.get(path), audit=audit)
            if plan is None:
                starts = starts or detector(site)
                plan = plan_file(path, known.get(path), starts, audit=audit)
            plans.append(plan)
        work = [p for p in plans if p.action != SKIP]
        base = ImportReport(str(file), files_seen=len(plans))
        if not work:
            return replace(base, files_skipped=len(plans), seconds=time.perf_counter() - t0)
        if planned is not None:
            planned(sum(p.read_bytes() for p in work))
        store = Store(con, audit=audit)
        written: dict[str, FilePlan] = {}
        con.begin()
        try:
            settled: set[str] = set()
            while work:
                store.forget([(p.path, p.forget_from) for p in work if p.forget_from])
                _read(store, work, jobs=jobs, site=site, audit=audit, progress=progress)
                store.flush()
                for p in work:
                    written[p.path] = p
                    if p.action in (NEW, REREAD):
                        settled.add(p.path)
                again = store.cascade(settled)
                work = [_reread(path, starts or detector(site)) for path in again]
            if require_hands and _nothing_found(plans, store):
                raise NothingToImport(_report(base, plans, written, store, 0.0))
            store.write_files(list(written.values()))
            con.commit()
        except BaseException:
            con.rollback()
            raise
    finally:
        con.close()
    return _report(base, plans, written, store, time.perf_counter() - t0)


def _nothing_found(plans: list[FilePlan], store: Store) -> bool:
    """Whether every file is new to the database and none held a stud hand (stored, a
    copy, a conflict, rejected, or still being written)."""
    if any(p.action != NEW for p in plans):
        return False
    c = store.tally.counts
    if c["added"] or c["duplicates"] or c["conflicts"] or c["rejected"]:
        return False
    return all(out.pending_line is None for out in store.outcomes.values())


def _absolute(paths: Iterable[str | os.PathLike[str]]) -> list[Path]:
    """Absolute paths (not resolved: a link keeps its name), as `files` and the hands'
    `source_file` hold them whatever the working folder of the import."""
    return [Path(os.path.abspath(os.fspath(p))) for p in paths]


def _known(con: duckdb.DuckDBPyConnection) -> dict[str, Known]:
    rows = con.execute(
        "SELECT path, size, mtime_ns, consumed_bytes, consumed_lines, prefix_sha256, mode, "
        "coalesce(audited, false) FROM files"
    ).fetchall()
    return {r[0]: Known(*r[1:]) for r in rows}


def _reread(path: str, starts: Detector) -> FilePlan:
    plan = plan_file(path, None, starts)
    return replace(plan, action=REREAD)


def _read(
    store: Store,
    work: list[FilePlan],
    *,
    jobs: int,
    site: str | None,
    audit: bool,
    progress: Callable[[int, int], object] | None,
) -> None:
    from histkit.parallel import run

    by_path = {p.path: p for p in work}
    if sum(p.read_bytes() for p in work) < _SMALL:
        jobs = 1
    span = SPAN_BYTES if jobs > 1 else None
    for r in run(
        (), jobs=jobs, site=site, audit=audit, keys=True, chunks=_chunks(work, site, span)
    ):
        store.add(r, by_path[r.source])
        if progress is not None:
            progress(r.hands, r.nbytes)


def _chunks(work: list[FilePlan], site: str | None, span: int | None) -> Iterator[Chunk]:
    from histkit.db.scan import file_chunks

    for plan in work:
        yield from file_chunks(plan, site=site, span_bytes=span)


def _report(
    base: ImportReport,
    plans: list[FilePlan],
    written: dict[str, FilePlan],
    store: Store,
    seconds: float,
) -> ImportReport:
    c = store.tally.counts
    actions = [p.action for p in written.values()]
    resumed = sum(1 for p in written.values() if p.action == RESUME and p.read_bytes() > 0)
    unchanged = sum(1 for p in plans if p.action == SKIP) + actions.count(RESUME) - resumed
    pending = tuple(
        (path, out.pending_line, out.pending_reason or "")
        for path, out in store.outcomes.items()
        if out.pending_line is not None
    )
    return replace(
        base,
        files_skipped=unchanged,
        files_read=actions.count(NEW),
        files_resumed=resumed,
        files_reread=actions.count(REREAD),
        hands_added=c["added"],
        hands_removed=c["removed"],
        duplicates=c["duplicates"],
        conflicts=c["conflicts"],
        pending=len(pending),
        rejected=c["rejected"],
        skipped=c["skipped"],
        unreadable=c["unreadable"],
        unknown=c["unknown"],
        seconds=seconds,
        conflict_messages=tuple(store.tally.conflicts),
        rejected_examples=tuple(store.tally.rejected),
        unknown_examples=tuple(store.tally.unknown),
        unreadable_examples=tuple(store.tally.unreadable),
        pending_hands=pending,
        read_files=tuple(
            p.path for p in written.values() if p.read_bytes() > 0 or p.action != RESUME
        ),
        last_file=next(reversed(written), None),
    )


def _first_line(e: BaseException) -> str:
    return str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
