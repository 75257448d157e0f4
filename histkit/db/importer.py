"""`import_paths`: hand histories into the hand database, incrementally, each hand once.

An import is one transaction: killed at any moment, the database holds all of its hands or
none of them, and the next import does what it did not. It parses with the same pipeline
as `histkit parse` (`histkit.parallel.run`: chunks of files or byte ranges, Arrow tables
built in worker processes) and inserts those tables in bulk. What it skips, reads, reads on
from and holds back is decided per file (`histkit.db.scan`); how each hand is stored once
is `histkit.db.store`'s business.

**The write lock is held only while rows are written.** DuckDB lets one process write a
database file or several read it. So an import reads the `files` table (a short hold),
lets the database go while it parses (the rows staged by `Store`, spilled to disk past a
batch), and takes it again only to write them, in its one transaction. If another import
wrote a file of this one in the meantime, the staged rows are dropped and the import is
done again holding the database throughout (rare: two importers of the same files). A
changed file whose hands other files held copies of makes those files be read again
inside the transaction (rarer still). `max_bytes` bounds what one import reads of a
text file (`histkit watch` uses it): so a batch, and the hold that writes it, stays short
however large a file is; the rest is read by the next import.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from histkit.atomic import no_space
from histkit.db.connection import DEFAULT_TIMEOUT, connect_file, open_error, resolve_path
from histkit.db.scan import (
    GONE,
    NEW,
    REREAD,
    RESUME,
    SKIP,
    SPAN_BYTES,
    TOUCH,
    FilePlan,
    Known,
    bounded,
    plan_file,
    unchanged,
)
from histkit.db.schema import DatabaseError, DatabaseFull, StagingError, ensure
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
    (stud hands that could not be parsed), `outside` (stretches of text that are no hand's:
    text between hands, an empty file), `skipped` (hands of other games).
    `write_seconds`: how long the import held the database to write (readers wait at most
    that long); `unfinished`: files read only in part (`max_bytes`), for the next import;
    `files_gone`: files imported before that are no longer where they were (deleted, or
    renamed: found under the new name), their hands removed with them (`gone_files`)."""

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
    outside: int = 0
    skipped: int = 0
    seconds: float = 0.0
    write_seconds: float = 0.0
    unreadable: int = 0  # files that could not be read
    unknown: int = 0  # files of no known site's format
    unread: int = 0  # hands stored that were read without a line not understood
    conflict_messages: tuple[str, ...] = ()
    rejected_examples: tuple[tuple[str, int | None, str | None, str], ...] = ()
    outside_examples: tuple[tuple[str, int | None, str | None, str], ...] = ()
    unknown_examples: tuple[tuple[str, str], ...] = ()
    unreadable_examples: tuple[tuple[str, str], ...] = ()
    pending_hands: tuple[tuple[str, int, str], ...] = ()  # (file, line, why), files read
    read_files: tuple[str, ...] = ()  # the files read (whole, on, or again)
    last_file: str | None = None  # the last file read
    unfinished: tuple[str, ...] = ()
    files_gone: int = 0
    gone_files: tuple[str, ...] = ()  # the first few


class NothingToImport(Exception):
    """No stud hand in files all new to the database: nothing was imported (`report`
    says what they held instead)."""

    def __init__(self, report: ImportReport) -> None:
        super().__init__(f"no stud hands in the {report.files_seen:,} new files")
        self.report = report


class _NothingFound(Exception):
    """Raised inside the writing transaction (which rolls back): nothing to import."""

    def __init__(self, written: dict[str, FilePlan]) -> None:
        super().__init__("nothing to import")
        self.written = written


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
    except (duckdb.Error, OSError) as e:
        if no_space(e):
            raise _full(file) from None
        if isinstance(e, OSError):
            raise
        raise open_error(file, e) from None
    try:
        ensure(con)
    except DatabaseError as e:
        con.close()
        raise DatabaseError(f"{file}: {e}") from None
    except BaseException as e:
        con.close()
        if no_space(e):
            raise _full(file) from None
        raise
    return con


def _full(file: Path) -> DatabaseFull:
    return DatabaseFull(
        f"cannot write the database {file}: no space left on the disk; it holds what it held "
        "before this import"
    )


@dataclass(frozen=True)
class _Options:
    """How an import reads (as `import_paths` was asked)."""

    audit: bool
    jobs: int
    site: str | None
    max_bytes: int | None
    require_hands: bool = False


@dataclass
class _Staged:
    """One import's files planned and read, its rows staged (nothing written yet)."""

    plans: list[FilePlan] = field(default_factory=list)
    store: Store | None = None
    starts: Detector | None = None


def import_paths(
    paths: Iterable[str | os.PathLike[str]],
    *,
    db: str | os.PathLike[str] | None = None,
    audit: bool = True,
    jobs: int = 1,
    progress: Callable[[int, int], object] | None = None,
    site: str | None = None,
    timeout: float = DEFAULT_TIMEOUT,
    max_bytes: int | None = None,
    planned: Callable[[int], object] | None = None,
    require_hands: bool = False,
) -> ImportReport:
    """Import hand-history files and folders (recursively) into the database `db` (None:
    `$HISTKIT_DB` or the default). `audit`: also replay each hand and store its awards
    and violations. `jobs`: worker processes. `progress(n, nbytes)` is called as n more
    hands (nbytes more bytes) are parsed. `site` forces a site, as `histkit parse
    --site`, after `planned(nbytes)` with about the bytes there are to read (files
    unchanged since the last import are not read). `max_bytes`: read at most about this
    much of each text file (cut at a hand header; the rest is `unfinished`, left for the
    next import). `require_hands`: files all new to the database with no stud hand among
    them (empty, binary, other games, no known site's), or no file at all, are
    `NothingToImport`, and the database is left as it was (so the next import of them says
    the same; a database this import created is removed)."""
    file = resolve_path(db)
    created = not file.exists()
    options = _Options(
        audit=audit, jobs=jobs, site=site, max_bytes=max_bytes, require_hands=require_hands
    )
    try:
        return _import(file, paths, options, timeout, progress, planned)
    except NothingToImport:
        if created:
            _remove_if_empty(file, timeout)
        raise
    except (DatabaseFull, StagingError):
        if created:  # (on a full disk this may fail too: then the empty file stays)
            with contextlib.suppress(Exception):
                _remove_if_empty(file, timeout)
        raise


def _import(
    file: Path,
    paths: Iterable[str | os.PathLike[str]],
    options: _Options,
    timeout: float,
    progress: Callable[[int, int], object] | None,
    planned: Callable[[int], object] | None,
) -> ImportReport:
    """`import_paths`, its database file resolved."""
    t0 = time.perf_counter()
    named = _absolute(paths)
    found = _found(named)
    con = open_for_writing(file, timeout=timeout)
    try:
        known = _known(con)
    finally:
        con.close()
    found += _gone(named, found, known)
    staged = _Staged()
    nothing: dict[str, FilePlan] | None = None
    try:
        _stage(staged, found, known, options, progress=progress, planned=planned)
        base = ImportReport(str(file), files_seen=len(staged.plans))
        if options.require_hands and not staged.plans:
            raise NothingToImport(base)
        if all(p.action == SKIP for p in staged.plans):
            return replace(base, files_skipped=len(staged.plans), seconds=time.perf_counter() - t0)
        con = open_for_writing(file, timeout=timeout)
        held = time.perf_counter()
        try:
            now = _known(con)
            if any(now.get(p.path) != known.get(p.path) for p in staged.plans):
                # another import wrote some of these files meanwhile: all again, held
                assert staged.store is not None
                staged.store.close()
                staged = _Staged()
                _stage(staged, found, now, options, progress=progress)
            written = _write(con, staged, options)
        except _NothingFound as e:
            written = nothing = e.written
        except BaseException as e:
            with contextlib.suppress(Exception):
                con.close()
            if no_space(e) and not isinstance(e, StagingError):  # rolled back: nothing written
                raise _full(file) from None
            raise
        _checkpoint(con, file)
        held = time.perf_counter() - held
    finally:
        if staged.store is not None:
            staged.store.close()
    base = replace(base, files_seen=len(staged.plans))
    report = _report(base, staged, written, time.perf_counter() - t0, held)
    if nothing is not None:
        raise NothingToImport(report)
    return report


def _checkpoint(con: duckdb.DuckDBPyConnection, file: Path) -> None:
    """Close the writing connection: DuckDB writes its checkpoint here (part of the hold).
    The import was committed before: on a full disk its rows are in the write-ahead log,
    which the next connection replays."""
    try:
        con.close()
    except Exception as e:
        if not no_space(e):
            raise
        raise DatabaseFull(
            f"{file}: this import is stored (in {file.name}.wal) but the database could not "
            "be brought up to date: no space left on the disk; free some and open it again"
        ) from None


def _remove_if_empty(file: Path, timeout: float) -> None:
    """Remove a database file (and its write-ahead log) that records no file: one a refused
    import created, unless another import has written to it since."""
    con = open_for_writing(file, timeout=timeout)
    try:
        row = con.execute("SELECT count(*) FROM files").fetchone()
    finally:
        con.close()
    if row is not None and row[0] == 0:
        for path in (file, file.with_name(file.name + ".wal")):
            with contextlib.suppress(FileNotFoundError):
                path.unlink()


def _found(paths: Iterable[str | os.PathLike[str]]) -> list[str]:
    """The files named or found in the folders named, each once, in order."""
    from histkit.reader import iter_files

    return list(dict.fromkeys(str(p) for p in iter_files(_absolute(paths))))


def _gone(named: list[Path], found: list[str], known: dict[str, Known]) -> list[str]:
    """The files imported before from the folders named that are no longer there (deleted,
    or renamed). A folder in which nothing is found now keeps its files' hands: an empty
    folder is more likely a disk not mounted than every file deleted."""
    have = set(found)
    out: list[str] = []
    for folder in named:
        if not folder.is_dir():
            continue
        inside = str(folder).rstrip(os.sep) + os.sep
        if not any(p.startswith(inside) for p in have):
            continue
        out += [
            p for p in known if p.startswith(inside) and p not in have and not os.path.lexists(p)
        ]
    return list(dict.fromkeys(out))


def _stage(
    staged: _Staged,
    found: list[str],
    known: dict[str, Known],
    options: _Options,
    *,
    progress: Callable[[int, int], object] | None,
    planned: Callable[[int], object] | None = None,
) -> None:
    """Plan each file and parse what is to be read into a new `Store` (no database
    needed). A file is planned as the pipeline gets to it, so with worker processes the
    planning of the next files overlaps the parsing of the last."""
    audit, jobs, site = options.audit, options.jobs, options.site
    todo: list[str] = []
    for path in found:
        if path in known and not os.path.lexists(path):
            staged.plans.append(FilePlan(path, GONE, -1, -1))  # its hands go with it
            continue
        plan = unchanged(path, known.get(path), audit=audit)
        if plan is None:
            todo.append(path)
        staged.plans.append(plan or FilePlan(path, NEW, 0, 0))  # a placeholder till planned
    if not todo:
        return
    to_read = _to_read(todo, known)
    if planned is not None:
        planned(to_read)
    from histkit.dialects import detector

    starts = staged.starts = detector(site)
    index = {p.path: i for i, p in enumerate(staged.plans)}
    by_path: dict[str, FilePlan] = {}

    def plans() -> Iterator[FilePlan]:
        for path in todo:
            plan = plan_file(path, known.get(path), starts, audit=audit)
            if options.max_bytes is not None:
                plan = bounded(plan, options.max_bytes, starts)
            staged.plans[index[path]] = by_path[path] = plan
            if plan.action not in (SKIP, TOUCH):
                yield plan

    store = staged.store = Store(audit=audit)
    if to_read < _SMALL:
        jobs = 1
    _read(store, plans(), by_path, jobs=jobs, site=site, audit=audit, progress=progress)


def _to_read(paths: list[str], known: dict[str, Known]) -> int:
    """About how many bytes the files hold that the last import did not read."""
    total = 0
    for path in paths:
        try:
            size = os.stat(path).st_size
        except OSError:
            continue
        k = known.get(path)
        total += size - k.consumed_bytes if k is not None and k.mode == "text" else size
    return total


def _write(
    con: duckdb.DuckDBPyConnection, staged: _Staged, options: _Options
) -> dict[str, FilePlan]:
    """Write the staged import in one transaction (the database held): old rows of files
    read again or on removed, the staged rows inserted, files holding copies of hands
    removed read again (here: rare), the `files` rows. The plans written, by path."""
    audit, jobs, site = options.audit, options.jobs, options.site
    store = staged.store
    if store is None:  # nothing read: only files touched
        store = staged.store = Store(audit=audit)
    store.attach(con)
    work = [p for p in staged.plans if p.action not in (SKIP, TOUCH)]  # GONE: forgotten
    written: dict[str, FilePlan] = {}
    settled: set[str] = set()
    again = False
    from histkit.dialects import detector

    con.begin()
    try:
        while work:
            store.forget([(p.path, p.forget_from) for p in work if p.forget_from])
            if again:  # files holding copies of hands removed: read again now
                by_path = {p.path: p for p in work}
                _read(store, iter(work), by_path, jobs=jobs, site=site, audit=audit)
            store.write()
            for p in work:
                written[p.path] = p
                if p.action in (NEW, REREAD, GONE):
                    settled.add(p.path)
            starts = staged.starts = staged.starts or detector(site)
            work = [_reread(path, starts) for path in store.cascade(settled)]
            again = True
        store.touch([p for p in staged.plans if p.action == TOUCH])
        store.write_files(list(written.values()))
        if options.require_hands and _nothing_found(staged.plans, store):
            raise _NothingFound(written)
        con.commit()
    except BaseException:
        con.rollback()
        raise
    return written


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
        "coalesce(audited, false), ctime_ns, coalesce(racy, false) FROM files"
    ).fetchall()
    return {r[0]: Known(*r[1:]) for r in rows}


def _reread(path: str, starts: Detector) -> FilePlan:
    plan = plan_file(path, None, starts)
    return replace(plan, action=REREAD)


def _read(
    store: Store,
    plans: Iterator[FilePlan],
    by_path: dict[str, FilePlan],
    *,
    jobs: int,
    site: str | None,
    audit: bool,
    progress: Callable[[int, int], object] | None = None,
) -> None:
    """Parse the plans' chunks into `store` (`by_path` holds each plan by the time its
    chunks' results come back)."""
    from histkit.parallel import run

    span = SPAN_BYTES if jobs > 1 else None
    for r in run(
        (), jobs=jobs, site=site, audit=audit, keys=True, chunks=_chunks(plans, site, span)
    ):
        store.add(r, by_path[r.source])
        if progress is not None:
            progress(r.hands, r.nbytes)


def _chunks(plans: Iterator[FilePlan], site: str | None, span: int | None) -> Iterator[Chunk]:
    from histkit.db.scan import file_chunks

    for plan in plans:
        yield from file_chunks(plan, site=site, span_bytes=span)


def _report(
    base: ImportReport,
    staged: _Staged,
    written: dict[str, FilePlan],
    seconds: float,
    held: float,
) -> ImportReport:
    store = staged.store
    assert store is not None
    plans = staged.plans
    c = store.tally.counts
    actions = [p.action for p in written.values()]
    resumed = sum(1 for p in written.values() if p.action == RESUME and p.read_bytes() > 0)
    unchanged = sum(1 for p in plans if p.action in (SKIP, TOUCH)) + actions.count(RESUME) - resumed
    gone = [p.path for p in written.values() if p.action == GONE]
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
        outside=c["outside"],
        skipped=c["skipped"],
        unreadable=c["unreadable"],
        unknown=c["unknown"],
        unread=c["unread"],
        seconds=seconds,
        write_seconds=held,
        conflict_messages=tuple(store.tally.conflicts),
        rejected_examples=tuple(store.tally.rejected),
        outside_examples=tuple(store.tally.outside),
        unknown_examples=tuple(store.tally.unknown),
        unreadable_examples=tuple(store.tally.unreadable),
        pending_hands=pending,
        read_files=tuple(
            p.path for p in written.values() if p.read_bytes() > 0 or p.action != RESUME
        ),
        last_file=next((p for p in reversed(written) if p not in gone), None),
        unfinished=tuple(p.path for p in written.values() if p.bounded),
        files_gone=len(gone),
        gone_files=tuple(gone[:20]),
    )
