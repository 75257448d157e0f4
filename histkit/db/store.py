"""One import's writes: the rows the workers built (Arrow tables), held back where a file's
last hand is not complete, staged while the files are parsed (no database needed: batches
of `BATCH_HANDS` hands spilled to Arrow IPC files in a temporary folder, so memory stays
bounded), then, inside the import's transaction, each hand stored once, inserted in bulk;
the rows of files read again removed first; and the `files` bookkeeping.

**Each hand once.** A hand is its key (site, hand_id) and a checksum of its text (CRC-32 of
the hand's lines as the reader gives them: line ends and an XML hand's indentation do not
count). A hand whose key is already stored (by an earlier import, or earlier in this one)
is a *duplicate* when its text is the same (a row in `duplicates`) and a *conflict* when it
differs: an error (kind "conflict" in `errors`) naming both files; the import goes on. The
workers leave a copy of a hand read earlier in the same chunk out of the tables
(`process_chunk(keys=True)`), so each key's rows in a chunk's tables are one hand's, and a
hand left out is left out of every table by its key.

**Files read again.** Before a file is read again (it changed) or read on (its held-back
last hand read again), its rows from that line on are removed: its hands with all their
rows, its copies, its errors. A hand removed that another file still holds a copy of (a
duplicate, or a conflict) must come back from that file: such files are read again too
(`cascade`), so the database holds what importing the files as they are now gives.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyarrow as pa
import pyarrow.compute as pc

from histkit.atomic import no_space
from histkit.db.scan import GONE, FilePlan
from histkit.db.schema import CHILD_TABLES, StagingError, count_column, key_columns
from histkit.tables import AUDIT_TABLES, SCHEMAS, counted_kind

if TYPE_CHECKING:
    import duckdb

    from histkit.parallel import ChunkResult, HandKey

__all__ = ["Store"]

BATCH_HANDS = 5000  # hands held in memory before they are spilled (or inserted)
_SEP = "\x1f"
_SPILL_PREFIX = "histkit-import-"  # + pid: a killed import's folder is removed later
_SPILL_CODEC = "lz4"  # Arrow IPC compression of spilled batches: fast, about 3x smaller


@dataclass
class FileOutcome:
    """What became of one file's held-back last hand in this import."""

    pending_line: int | None = None
    pending_reason: str | None = None
    provisional_line: int | None = None


@dataclass
class _Part:
    """One chunk's rows, waiting to be inserted."""

    path: str
    tables: dict[str, pa.Table]
    candidates: list[HandKey]  # hands to store unless already stored
    drop: set[tuple[str, str]]  # stored keys whose rows are left out (held back)


@dataclass
class _Batch:
    """Parts staged together: in memory, or spilled (`folder`: one IPC file per table,
    the parts' rows one after the other; `rows[name]`: where each part's rows start)."""

    parts: list[_Part]
    folder: Path | None = None
    rows: dict[str, list[int]] = field(default_factory=dict)

    def spill(self, folder: Path, names: list[str]) -> None:
        """Write the parts' tables to `folder` and let them go."""
        import pyarrow.ipc as ipc

        folder.mkdir(parents=True)
        options = ipc.IpcWriteOptions(compression=_SPILL_CODEC)
        for name in names:
            tables = [p.tables[name] for p in self.parts]
            starts = [0]
            for t in tables:
                starts.append(starts[-1] + t.num_rows)
            self.rows[name] = starts
            table = pa.concat_tables(tables).combine_chunks()  # one record batch: fast
            with ipc.new_file(folder / f"{name}.arrow", table.schema, options=options) as w:
                w.write_table(table)
        for p in self.parts:
            p.tables = {}
        self.folder = folder

    def load(self, names: list[str]) -> list[_Part]:
        """The parts, with their tables (read back when spilled)."""
        if self.folder is None:
            return self.parts
        import pyarrow.ipc as ipc

        for name in names:
            with pa.memory_map(str(self.folder / f"{name}.arrow")) as source:
                table = ipc.open_file(source).read_all()
            starts = self.rows[name]
            for i, p in enumerate(self.parts):
                p.tables[name] = table.slice(starts[i], starts[i + 1] - starts[i])
        shutil.rmtree(self.folder, ignore_errors=True)
        self.folder = None
        return self.parts


@dataclass
class Tally:
    """What one import did, counted as it goes."""

    counts: Counter[str] = field(default_factory=Counter)
    conflicts: list[str] = field(default_factory=list)
    rejected: list[tuple[str, int | None, str | None, str]] = field(default_factory=list)
    outside: list[tuple[str, int | None, str | None, str]] = field(default_factory=list)
    unknown: list[tuple[str, str]] = field(default_factory=list)
    unreadable: list[tuple[str, str]] = field(default_factory=list)


def _once(table: pa.Table) -> pa.RecordBatchReader:
    """`table` as a stream read once, for DuckDB to scan inside the import's transaction:
    DuckDB keeps what a query scanned alive until the transaction ends, so a table
    registered whole stayed in memory for the whole import (32 MB a batch of 5,000 hands);
    a stream's batches are let go as they are read."""
    batches = table.to_batches()
    batches.reverse()

    def each() -> Iterator[pa.RecordBatch]:
        while batches:
            yield batches.pop()

    return pa.RecordBatchReader.from_batches(table.schema, each())


class Store:
    """Stages one import's rows as they are parsed (`add`), then writes them into the
    database (`attach` a connection, then `write`; the caller holds the transaction)."""

    def __init__(self, *, audit: bool, spill: bool = True) -> None:
        self._con: duckdb.DuckDBPyConnection | None = None
        self.audit = audit
        self.names = [n for n in SCHEMAS if audit or n not in AUDIT_TABLES]
        self.parts: list[_Part] = []
        self.waiting = 0
        self.staged: list[_Batch] = []
        self._spill = spill
        self._folder: Path | None = None
        self.tally = Tally()
        self.outcomes: dict[str, FileOutcome] = {}

    @property
    def con(self) -> duckdb.DuckDBPyConnection:
        assert self._con is not None, "attach a connection first"
        return self._con

    def attach(self, con: duckdb.DuckDBPyConnection) -> None:
        """The connection to write with (its transaction held by the caller)."""
        self._con = con
        con.execute("CREATE OR REPLACE TEMP TABLE forgotten (site VARCHAR, hand_id VARCHAR)")

    def close(self) -> None:
        """Remove what was spilled and not written (an import that failed)."""
        if self._folder is not None:
            shutil.rmtree(self._folder, ignore_errors=True)
            self._folder = None
        self.staged = []

    # ---------------------------------------------------------------- rows coming in

    def add(self, r: ChunkResult, plan: FilePlan) -> None:
        """One chunk's results: its held-back rows set aside, the rest queued."""
        out = self.outcomes.setdefault(plan.path, FileOutcome())
        assert r.tables is not None
        tables = {name: r.tables[name] for name in self.names}
        held = plan.held_line
        candidates: list[HandKey] = []
        drop: set[tuple[str, str]] = set()
        # the open hand read without a line (cut short, `Hand.gaps`) is not complete yet
        gaps = {hand_id for _, _, hand_id in r.unread}
        for k in r.keys:
            if held is None or k.line < held:
                candidates.append(k)
            elif (
                k.line == held
                and plan.open_hand
                and not plan.xml
                and k.stored
                and k.hand_id not in gaps
            ):
                out.provisional_line = held  # stored now, read again when the file grows
                candidates.append(k)
            else:
                if k.line == held and plan.open_hand:
                    out.pending_line = held
                    out.pending_reason = (
                        "its text stops before the hand's end"
                        if k.hand_id in gaps
                        else "its last line has no line end yet"
                    )
                if k.stored:
                    drop.add((k.site, k.hand_id))
        tables["errors"] = self._held_errors(tables["errors"], plan, out)
        if drop:
            tables = _without(tables, drop)
        self.parts.append(_Part(plan.path, tables, candidates, drop))
        self.waiting += len(candidates)
        if self.waiting >= BATCH_HANDS:
            self._seal()

    def _seal(self) -> None:
        """The parts waiting become a staged batch, spilled to disk (when allowed)."""
        if not self.parts:
            return
        batch = _Batch(self.parts)
        self.parts, self.waiting = [], 0
        if self._spill:
            try:
                if self._folder is None:
                    _remove_stale_spills()
                    prefix = f"{_SPILL_PREFIX}{os.getpid()}-"
                    self._folder = Path(tempfile.mkdtemp(prefix=prefix))
                batch.spill(self._folder / str(len(self.staged)), self.names)
            except OSError as e:
                why = "no space left on the disk" if no_space(e) else (e.strerror or str(e))
                raise StagingError(
                    f"cannot write the import's temporary files in {tempfile.gettempdir()}: "
                    f"{why} (TMPDIR names another folder); the database was not touched"
                ) from None
        self.staged.append(batch)

    def _held_errors(self, errors: pa.Table, plan: FilePlan, out: FileOutcome) -> pa.Table:
        """The errors table without what is held back: issues at or after the held line
        (the open hand that does not parse yet, or an XML hand element the file ends
        inside: pending)."""
        if not errors.num_rows or plan.held_line is None:
            return errors
        lines = errors["line"].to_pylist()
        reasons = errors["reason"].to_pylist()
        kinds = errors["kind"].to_pylist()
        keep = []
        for line, reason, kind in zip(lines, reasons, kinds, strict=True):
            held = line is not None and line >= plan.held_line
            if held and plan.open_hand and out.pending_line is None:
                # the open hand's issue (its first: an issue's line may be inside it)
                if kind == "skipped" and plan.header_done and line == plan.held_line:
                    out.provisional_line = line  # another game: its whole header says so
                    keep.append(True)
                    continue
                out.pending_line, out.pending_reason = plan.held_line, reason
            keep.append(not held)
        return errors.filter(pa.array(keep, pa.bool_()))

    # -------------------------------------------------------------------- inserting

    def write(self) -> None:
        """Insert everything staged, batch by batch, in the order it was read."""
        staged, self.staged = self.staged, []
        staged.reverse()
        while staged:  # each batch let go once written: one batch in memory at a time
            self._flush(staged.pop().load(self.names))
        parts, self.parts, self.waiting = self.parts, [], 0
        self._flush(parts)  # the last batch, never spilled
        self.close()

    def _flush(self, parts: list[_Part]) -> None:
        """Insert one batch: each hand once, copies counted, conflicts recorded."""
        if not parts:
            return
        stored = self._stored_keys({(k.site, k.hand_id) for p in parts for k in p.candidates})
        first: dict[tuple[str, str], tuple[int | None, str, int]] = {}
        accepted: list[tuple[str, str, int | None, str, int]] = []
        copies: list[tuple[str, str, int | None, str, int]] = []
        conflicts: list[dict[str, Any]] = []
        for part in parts:
            refused: set[tuple[str, str]] = set()
            for k in part.candidates:
                key = (k.site, k.hand_id)
                other = stored.get(key) or first.get(key)
                if other is None:
                    first[key] = (k.digest, part.path, k.line)
                    accepted.append((*key, k.digest, part.path, k.line))
                    continue
                if k.stored:
                    refused.add(key)
                if k.digest is None or other[0] is None or k.digest == other[0]:
                    copies.append((*key, k.digest, part.path, k.line))
                else:
                    conflicts.append(_conflict(k, part.path, other))
            if refused:
                part.tables = _without(part.tables, refused)
        tables = {name: pa.concat_tables([p.tables[name] for p in parts]) for name in self.names}
        if conflicts:
            extra = pa.Table.from_pylist(conflicts, schema=SCHEMAS["errors"])
            tables["errors"] = pa.concat_tables([tables["errors"], extra])
            self.tally.conflicts.extend(c["reason"] for c in conflicts)
        for name, table in tables.items():
            if table.num_rows:
                self._insert(name, table)
        self._index(accepted, tables)
        if copies:
            self._insert("duplicates", _book(copies))
        self._count(tables["errors"], len(accepted), len(copies), len(conflicts))
        hands = tables["hands"]
        if hands.num_rows and "unread_lines" in hands.column_names:
            unread = pc.sum(pc.greater(hands["unread_lines"], 0)).as_py() or 0
            self.tally.counts["unread"] += unread

    def _stored_keys(
        self, keys: set[tuple[str, str]]
    ) -> dict[tuple[str, str], tuple[int | None, str, int]]:
        if not keys:
            return {}
        sites, ids = zip(*keys, strict=True)
        asked = pa.table({"site": pa.array(sites, pa.string()), "hand_id": pa.array(ids)})
        self.con.register("histkit_asked", asked)
        try:
            rows = self.con.execute(
                "SELECT k.site, k.hand_id, k.text_hash, k.source_file, k.source_line "
                "FROM histkit_asked a JOIN hand_index k USING (site, hand_id)"
            ).fetchall()
        finally:
            self.con.unregister("histkit_asked")
        return {(r[0], r[1]): (r[2], r[3], r[4]) for r in rows}

    def _insert(self, name: str, table: pa.Table) -> None:
        # one chunk per column: DuckDB scans an Arrow table of a few hundred small chunks
        # (a chunk per file) about 6x slower (0.9 s against 0.15 s for 3,000 hands)
        self.con.register("histkit_rows", _once(table.combine_chunks()))
        try:
            self.con.execute(f'INSERT INTO "{name}" BY NAME SELECT * FROM histkit_rows')
        finally:
            self.con.unregister("histkit_rows")

    def _index(
        self, accepted: list[tuple[str, str, int | None, str, int]], tables: dict[str, pa.Table]
    ) -> None:
        """`hand_index` rows of the hands stored, with their row counts per table."""
        if not accepted:
            return
        self.con.register("histkit_new", _book(accepted))
        joins, counts, names = [], [], []
        try:
            for i, table in enumerate(t for t in CHILD_TABLES if t in tables):
                keys = ", ".join(key_columns(table))
                names.append(f"histkit_c{i}")
                self.con.register(names[-1], _once(tables[table].select(list(key_columns(table)))))
                joins.append(
                    f"LEFT JOIN (SELECT {keys}, count(*) AS n FROM histkit_c{i} GROUP BY ALL) "
                    f"c{i} USING ({keys})"
                )
                counts.append(f"coalesce(c{i}.n, 0) AS {count_column(table)}")
            select = ", ".join(["n.*", *counts])
            joined = " ".join(joins)
            self.con.execute(
                f"INSERT INTO hand_index BY NAME SELECT {select} FROM histkit_new n {joined}"
            )
        finally:
            for name in ["histkit_new", *names]:
                self.con.unregister(name)

    def _count(self, errors: pa.Table, added: int, copies: int, conflicts: int) -> None:
        c = self.tally.counts
        c["added"] += added
        c["duplicates"] += copies
        c["conflicts"] += conflicts
        for row in errors.to_pylist():
            kind = counted_kind(row["kind"], row.get("about_hand"))
            if kind == "conflict":
                continue
            c[kind] += 1
            example = (row["source_file"], row["line"], row["hand_id"], row["reason"])
            if kind == "rejected" and len(self.tally.rejected) < 20:
                self.tally.rejected.append(example)
            elif kind == "outside" and len(self.tally.outside) < 20:
                self.tally.outside.append(example)
            elif kind == "unreadable" and len(self.tally.unreadable) < 20:
                self.tally.unreadable.append((row["source_file"], row["reason"]))
            elif kind == "unknown" and len(self.tally.unknown) < 20:
                self.tally.unknown.append((row["source_file"], row["reason"]))

    # ---------------------------------------------------------------- files read again

    def forget(self, requests: list[tuple[str, int]]) -> None:
        """Remove each file's rows from its line on: hands (every table), copies, errors."""
        if not requests:
            return
        paths, lines = zip(*requests, strict=True)
        req = pa.table(
            {"path": pa.array(paths, pa.string()), "from_line": pa.array(lines, pa.int64())}
        )
        con = self.con
        con.register("histkit_req", req)
        try:
            con.execute(
                "CREATE OR REPLACE TEMP TABLE histkit_gone AS SELECT k.site, k.hand_id "
                "FROM hand_index k JOIN histkit_req r "
                "ON k.source_file = r.path AND k.source_line >= r.from_line"
            )
            gone = int(con.execute("SELECT count(*) FROM histkit_gone").fetchall()[0][0])
            self.tally.counts["removed"] += gone
            if gone:
                con.execute("INSERT INTO forgotten SELECT * FROM histkit_gone")
                for table in ("hands", *CHILD_TABLES, "hand_index"):
                    keys = key_columns(table) if table in SCHEMAS else ("site", "hand_id")
                    on = " AND ".join(f't."{c}" = g."{c}"' for c in keys)
                    con.execute(f'DELETE FROM "{table}" t USING histkit_gone g WHERE {on}')
            con.execute(
                "DELETE FROM duplicates t USING histkit_req r "
                "WHERE t.source_file = r.path AND t.source_line >= r.from_line"
            )
            con.execute(
                "DELETE FROM errors t USING histkit_req r WHERE t.source_file = r.path "
                "AND (t.line >= r.from_line OR (t.line IS NULL AND r.from_line <= 1))"
            )
        finally:
            con.unregister("histkit_req")

    def cascade(self, settled: set[str]) -> list[str]:
        """Files (not in `settled`) holding a copy of a hand removed in this import that is
        no longer stored as that copy: a duplicate whose hand is gone or now has another
        text, or a conflict. Read again, they give what a fresh import would."""
        rows = self.con.execute(
            """SELECT d.source_file FROM forgotten g JOIN duplicates d USING (site, hand_id)
            LEFT JOIN hand_index k USING (site, hand_id)
            WHERE k.hand_id IS NULL OR d.text_hash <> k.text_hash
            UNION
            SELECT e.source_file FROM forgotten g JOIN errors e
            ON e.kind = 'conflict' AND e.hand_id = g.hand_id"""
        ).fetchall()
        return sorted({r[0] for r in rows if r[0] is not None} - settled)

    # --------------------------------------------------------------------- bookkeeping

    def touch(self, plans: list[FilePlan]) -> None:
        """The `files` rows of files whose stat changed but not their bytes: the new size
        and modification time, so the next import skips them at the cost of a stat."""
        if not plans:
            return
        rows = pa.table(
            {
                "path": pa.array([p.path for p in plans], pa.string()),
                "size": pa.array([p.size for p in plans], pa.int64()),
                "mtime_ns": pa.array([p.mtime_ns for p in plans], pa.int64()),
                "ctime_ns": pa.array([p.ctime_ns for p in plans], pa.int64()),
                "racy": pa.array([p.racy for p in plans], pa.bool_()),
            }
        )
        self.con.register("histkit_touched", rows)
        try:
            self.con.execute(
                "UPDATE files AS f SET size = t.size, mtime_ns = t.mtime_ns, "
                "ctime_ns = t.ctime_ns, racy = t.racy "
                "FROM histkit_touched t WHERE f.path = t.path"
            )
        finally:
            self.con.unregister("histkit_touched")

    def write_files(self, plans: list[FilePlan]) -> None:
        """The `files` rows of the files read, their counts taken from the tables."""
        if not plans:
            return
        gone = [p.path for p in plans if p.action == GONE]
        if gone:  # no row: its hands went with it
            self.con.execute("DELETE FROM files WHERE list_contains(?, path)", [gone])
            plans = [p for p in plans if p.action != GONE]
            if not plans:
                return
        now = datetime.now(UTC)
        rows = []
        for p in plans:
            out = self.outcomes.get(p.path, FileOutcome())
            rows.append(
                {
                    "path": p.path,
                    "size": p.size,
                    "mtime_ns": p.mtime_ns,
                    "ctime_ns": p.ctime_ns,
                    "racy": p.racy,
                    "consumed_bytes": p.consumed,
                    "consumed_lines": p.consumed_lines,
                    "prefix_sha256": p.prefix_sha256,
                    "mode": p.mode,
                    "audited": self.audit,
                    "pending_line": out.pending_line,
                    "pending_reason": out.pending_reason,
                    "provisional_line": out.provisional_line,
                    "imported_at": now,
                }
            )
        con = self.con
        con.register("histkit_files", pa.Table.from_pylist(rows, schema=_FILES))
        try:
            con.execute("DELETE FROM files WHERE path IN (SELECT path FROM histkit_files)")
            mine = "WHERE source_file IN (SELECT path FROM histkit_files)"
            con.execute(
                f"""INSERT INTO files BY NAME
                SELECT f.*, coalesce(h.n, 0) AS hands, coalesce(d.n, 0) AS duplicates,
                    coalesce(e.conflicts, 0) AS conflicts, coalesce(e.rejected, 0) AS rejected,
                    coalesce(e.skipped, 0) AS skipped, s.sites
                FROM histkit_files f
                LEFT JOIN (SELECT source_file, count(*) AS n FROM hands {mine} GROUP BY 1) h
                    ON h.source_file = f.path
                LEFT JOIN (SELECT source_file, count(*) AS n FROM duplicates {mine} GROUP BY 1) d
                    ON d.source_file = f.path
                LEFT JOIN (SELECT source_file, count_if(kind = 'conflict') AS conflicts,
                        count_if(kind = 'rejected' AND about_hand IS NOT FALSE) AS rejected,
                        count_if(kind = 'skipped') AS skipped
                    FROM errors {mine} GROUP BY 1) e ON e.source_file = f.path
                LEFT JOIN (SELECT source_file,
                        array_to_string(list_sort(list_distinct(list(site))), ',') AS sites
                    FROM (SELECT source_file, site FROM hands {mine}
                        UNION ALL SELECT source_file, site FROM duplicates {mine})
                    GROUP BY 1) s ON s.source_file = f.path"""
            )
        finally:
            con.unregister("histkit_files")


_FILES = pa.schema(
    [
        ("path", pa.string()),
        ("size", pa.int64()),
        ("mtime_ns", pa.int64()),
        ("ctime_ns", pa.int64()),
        ("racy", pa.bool_()),
        ("consumed_bytes", pa.int64()),
        ("consumed_lines", pa.int64()),
        ("prefix_sha256", pa.string()),
        ("mode", pa.string()),
        ("audited", pa.bool_()),
        ("pending_line", pa.int64()),
        ("pending_reason", pa.string()),
        ("provisional_line", pa.int64()),
        ("imported_at", pa.timestamp("us", tz="UTC")),
    ]
)
_BOOK = pa.schema(
    [
        ("site", pa.string()),
        ("hand_id", pa.string()),
        ("text_hash", pa.int64()),
        ("source_file", pa.string()),
        ("source_line", pa.int64()),
    ]
)


def _remove_stale_spills() -> None:
    """The spill folders of imports that were killed (their process is gone)."""
    for folder in Path(tempfile.gettempdir()).glob(f"{_SPILL_PREFIX}*-*"):
        pid = folder.name.removeprefix(_SPILL_PREFIX).split("-")[0]
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            shutil.rmtree(folder, ignore_errors=True)
        except OSError:
            pass  # another user's process, alive


def _book(rows: list[tuple[str, str, int | None, str, int]]) -> pa.Table:
    """Rows of `hand_index` or `duplicates` (key, checksum, where read)."""
    cols = list(zip(*rows, strict=True))
    return pa.Table.from_arrays(
        [pa.array(c, f.type) for c, f in zip(cols, _BOOK, strict=True)], schema=_BOOK
    )


def _conflict(k: HandKey, path: str, other: tuple[int | None, str, int]) -> dict[str, Any]:
    """The `errors` row of a hand whose key is stored with another text."""
    reason = (
        f"hand #{k.hand_id} ({k.site}) at {path}:{k.line} has a text unlike the hand "
        f"stored under the same id from {other[1]}:{other[2]}; not stored"
    )
    return {
        "source_file": path,
        "line": k.line,
        "hand_id": k.hand_id,
        "kind": "conflict",
        "reason": reason,
    }


def _without(tables: dict[str, pa.Table], keys: set[tuple[str, str]]) -> dict[str, pa.Table]:
    """Each table without the rows of these hands (by key)."""
    out = dict(tables)
    joined = pa.array([f"{s}{_SEP}{h}" for s, h in keys], pa.string())
    ids = pa.array([h for _, h in keys], pa.string())
    for name, table in tables.items():
        if name == "errors" or not table.num_rows:
            continue
        if "site" in table.column_names:
            mine = pc.binary_join_element_wise(table["site"], table["hand_id"], _SEP)
            hit = pc.is_in(mine, value_set=joined)
        else:
            hit = pc.is_in(table["hand_id"], value_set=ids)
        out[name] = table.filter(pc.invert(pc.fill_null(hit, False)))
    return out
