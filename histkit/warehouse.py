"""A folder of histkit tables (what `histkit parse -o OUT` writes): written whole or not at
all, and read only when whole.

A run that fails or is killed must never leave files a reader takes for a result, and a
run into a folder that holds an earlier result must replace it whole, never leave a table
of the earlier run beside the new ones (issue 19). So:

- `ParquetSink` writes every table under a hidden staging folder inside OUT
  (`.histkit-staging-<pid>-<random>/`, skipped by pyarrow, pandas and DuckDB folder walks)
  and commits only when the run completes: it removes the completion record, then every
  histkit table OUT holds (flat `<table>.parquet` and partitioned `<table>/` alike), moves
  the new tables into place, and writes the completion record `_histkit.json` last,
  atomically (format, histkit version, tables and their row counts, partition keys, time).
  On an exception or Ctrl-C it removes its staging folder and leaves OUT as it was; a
  staging folder left by a killed run (its process is gone) is removed by the next run.
- `read_tables` requires the completion record and checks its row counts, so a folder
  whose run did not complete is refused, never read in part.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import secrets
import shutil
import signal
import threading
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager, suppress
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pyarrow as pa

from histkit.atomic import atomic_write_text, fsync_dir
from histkit.tables import AUDIT_TABLES, SCHEMAS, TableBuilder, Tables

if TYPE_CHECKING:
    from histkit.model import Hand
    from histkit.tables import IssueLike

__all__ = [
    "FORMAT_VERSION",
    "PARTITION_KEYS",
    "RECORD",
    "IncompleteResultError",
    "ParquetSink",
    "WarehouseError",
    "holds_tables",
    "check_record",
    "completion_record",
    "conform_table",
    "read_record",
    "read_tables",
    "table_batches",
    "write_parts",
    "write_tables",
    "folder_value",
]

RECORD = "_histkit.json"  # the completion record: `_` keeps dataset readers off it
FORMAT = "histkit-tables"
FORMAT_VERSION = 1
STAGING_PREFIX = ".histkit-staging-"
PARTITION_KEYS = ("game", "date", "site", "table")
#: Bytes of a partition folder's name `key=value` at most: file systems allow 255 (a
#: longer name is ENAMETOOLONG), and a value is written percent-encoded (up to 9 bytes a
#: CJK character), so a 28-character table name can be too long.
FOLDER_BYTES = 200
#: The column of `hands` that keeps each hand's table name exactly when the result is
#: partitioned by table (the folder's `table=` value is cut for a long name).
EXACT_TABLE = "table_exact"
_CUT = re.compile(r"~[0-9a-f]{16}\Z")  # how a cut value ends: "~" and 16 hex digits


class WarehouseError(ValueError):
    """An output folder histkit cannot write to or read from as asked (the CLI's exit 2)."""


class IncompleteResultError(WarehouseError):
    """The folder holds tables, but no complete result: a run failed or was killed."""


# ------------------------------------------------------------------------------ writing


class ParquetSink:
    """Streams tables to Parquet as hands arrive, so memory stays bounded by `batch_size`
    hands however large the input; the tables become the folder's result only when the
    sink closes normally (see the module docstring), all of them together.

    Plain: `<dir>/<table>.parquet`, one row group per batch. Partitioned
    (`partition_by=("game", "date")`): `<dir>/<table>/game=.../date=.../part-N.parquet`, a
    Hive-style dataset that pyarrow, pandas and DuckDB read directly; every table gets
    the partition columns (taken from its hand) so each can be filtered alike. A value
    too long for a folder name is cut (`folder_value`); `hands` then keeps the exact
    table names in `EXACT_TABLE`.

    `overwrite` is accepted for older callers and ignored: a result is always replaced
    whole. After closing, `committed` says whether the tables became the folder's result,
    and `replaced` what the folder held before: "complete" (an earlier result),
    "incomplete" (tables of a run that did not complete) or None.
    """

    def __init__(
        self,
        directory: str | Path,
        *,
        batch_size: int = 5000,
        compression: str = "zstd",
        audit: bool = False,
        partition_by: tuple[str, ...] = (),
        overwrite: bool = False,
        filesystem: Any = None,
    ) -> None:
        unknown = [k for k in partition_by if k not in PARTITION_KEYS]
        if unknown:
            raise WarehouseError(
                f"cannot partition by {', '.join(unknown)}; choose from {', '.join(PARTITION_KEYS)}"
            )
        if len(set(partition_by)) < len(partition_by):
            raise WarehouseError(f"partition by each key once, not {', '.join(partition_by)}")
        self._filesystem = filesystem  # pyarrow's, of the staging folder (None: local)
        self.staging: Any = self._prepare(directory)
        self.batch_size = batch_size
        self.compression = compression
        self.audit = audit
        self.partition_by = tuple(partition_by)
        self.names = [n for n in SCHEMAS if audit or n not in AUDIT_TABLES]
        self.replaced: str | None = None
        self.committed = False
        self._done = False
        self._writers: dict[str, Any] = {}
        self._builder = TableBuilder(audit=audit)
        self._pending: list[Tables] = []
        self._pending_hands = 0
        self._parts = 0
        self.counts: dict[str, int] = dict.fromkeys(self.names, 0)
        try:
            if not self.partition_by:
                import pyarrow.parquet as pq

                for name in self.names:
                    self._writers[name] = pq.ParquetWriter(
                        f"{self.staging}/{name}.parquet",
                        SCHEMAS[name],
                        compression=compression,
                        filesystem=filesystem,
                    )
        except BaseException:
            self.abort()
            raise

    def _prepare(self, directory: str | Path) -> Any:
        """Check the output folder, make it and a staging folder in it: the staging
        folder (overridden for a URL: `histkit.storage.UrlSink`)."""
        self.directory = Path(directory)
        if self.directory.exists() and not self.directory.is_dir():
            raise WarehouseError(f"{self.directory} is a file, not a folder")
        self._created = not self.directory.exists()  # then an aborted run removes it again
        self.directory.mkdir(parents=True, exist_ok=True)
        _check_replaceable(self.directory)  # refuse now, not after the whole parse
        remove_stale_staging(self.directory)
        staging = self.directory / f"{STAGING_PREFIX}{os.getpid()}-{secrets.token_hex(4)}"
        staging.mkdir()
        return staging

    def parts_location(self) -> str:
        """Where others may write part files of a partitioned result (`write_parts`): the
        staging folder, as an absolute path (or a URL) that cluster workers can reach."""
        return os.path.abspath(self.staging)

    def add(self, item: Hand | IssueLike) -> None:
        """One hand (or parse issue)."""
        self._builder.add(item)
        if len(self._builder) >= self.batch_size:
            self._pending.append(self._builder.build())
            self._pending_hands += len(self._builder)
            self._builder = TableBuilder(audit=self.audit)
            self.flush()

    def add_tables(self, tables: Tables) -> None:
        """Rows already built (e.g. by a worker process), written in the order given."""
        if len(self._builder):
            self._pending.append(self._builder.build())
            self._builder = TableBuilder(audit=self.audit)
        self._pending.append(tables)
        self._pending_hands += tables.hands.num_rows
        if self._pending_hands >= self.batch_size:
            self.flush()

    def flush(self) -> None:
        if len(self._builder):
            self._pending.append(self._builder.build())
            self._builder = TableBuilder(audit=self.audit)
        if not self._pending:
            return
        merged = {name: pa.concat_tables([t[name] for t in self._pending]) for name in self.names}
        self._pending, self._pending_hands = [], 0
        if self.partition_by:
            self._write_partitioned(merged)
        else:
            for name, table in merged.items():
                if table.num_rows:
                    self._writers[name].write_table(table)
        for name, table in merged.items():
            self.counts[name] += table.num_rows

    def _write_partitioned(self, merged: dict[str, pa.Table]) -> None:
        part = f"part-{self._parts:06d}"  # zero-padded: file order is write order
        write_parts(
            merged,
            self.staging,
            self.partition_by,
            part,
            compression=self.compression,
            filesystem=self._filesystem,
        )
        self._parts += 1

    def add_written(self, counts: Mapping[str, int]) -> None:
        """Rows written into `staging` by others (cluster tasks writing their own part
        files of a partitioned result, `write_parts`): counted for the completion record."""
        for name, n in counts.items():
            if name in self.counts:
                self.counts[name] += n

    def close(self) -> None:
        """Write what is pending and commit: the tables become the folder's result."""
        if self._done:
            return
        try:
            self.flush()
            for w in self._writers.values():
                w.close()
            self._writers = {}
            self._commit()
        except BaseException:
            self.abort()
            raise

    def abort(self) -> None:
        """Drop everything written: the folder stays as it was before the run."""
        self._done = True
        self._close_writers()
        shutil.rmtree(self.staging, ignore_errors=True)
        if self._created and not self.committed:
            with suppress(OSError):  # only if nothing else was put there meanwhile
                self.directory.rmdir()

    def _close_writers(self) -> None:
        for w in self._writers.values():
            with suppress(Exception):  # it is being thrown away
                w.close()
        self._writers = {}

    def _commit(self) -> None:
        record = completion_record(self.audit, self.partition_by, self.names, self.counts)
        # the record is written in the staging folder first: from the removal of the
        # earlier result on, only renames follow, which need no room on the disk (a full
        # disk fails here, with the earlier result still whole)
        staged_record = self.staging / RECORD
        atomic_write_text(staged_record, json.dumps(record, indent=2) + "\n")
        _fsync_tree(self.staging)  # the data is on disk before the record says it is
        with _locked(self.directory), _interrupt_deferred():
            _check_replaceable(self.directory)
            self.replaced = _remove_result(self.directory)
            for name in self.names:
                for src in (self.staging / f"{name}.parquet", self.staging / name):
                    if src.exists():
                        os.replace(src, self.directory / src.name)
            fsync_dir(self.directory)  # the tables are in place before the record says so
            os.replace(staged_record, self.directory / RECORD)
            fsync_dir(self.directory)
            self._done = self.committed = True
        shutil.rmtree(self.staging, ignore_errors=True)

    def __enter__(self) -> ParquetSink:
        return self

    def __exit__(self, exc_type: object, *exc: object) -> None:
        if exc_type is None:
            self.close()
        else:
            self.abort()


def write_tables(
    directory: str | Path,
    tables: Tables,
    *,
    partition_by: tuple[str, ...] = (),
    compression: str = "zstd",
) -> None:
    """Tables already in memory as the result of `directory`, replacing any earlier one."""
    audit = tables.awards is not None
    with ParquetSink(
        directory,
        batch_size=max(1, tables.hands.num_rows),
        compression=compression,
        audit=audit,
        partition_by=partition_by,
    ) as sink:
        sink.add_tables(tables)


def completion_record(
    audit: bool, partition_by: tuple[str, ...], names: Iterable[str], counts: Mapping[str, int]
) -> dict[str, Any]:
    """What `_histkit.json` says of a result: format, versions, tables and their rows."""
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "histkit_version": _version(),
        "written_at": datetime.now(UTC).isoformat(timespec="seconds"),
        "audit": audit,
        "partition_by": list(partition_by),
        "tables": {name: {"rows": counts[name]} for name in names},
    }


def write_parts(
    tables: Mapping[str, pa.Table],
    root: str | Path,
    partition_by: tuple[str, ...],
    part: str,
    *,
    compression: str = "zstd",
    filesystem: Any = None,
) -> dict[str, int]:
    """One part of a partitioned result: each table's rows under `root/<table>/k=v/...`
    in files named `<part>-0.parquet` (errors: `root/errors/<part>.parquet`), rows in the
    order given; the rows written per table. Names depend on `part` alone, so writing the
    same part again (a cluster task retried) replaces its files, never adds to them.
    `filesystem`: a pyarrow filesystem `root` is on (None: the local one)."""
    import pyarrow.compute as pc
    import pyarrow.dataset as ds

    hands = tables["hands"]
    keys = {
        "game": hands["game"],
        "date": pc.strftime(hands["started_at"], format="%Y-%m-%d"),
        "site": hands["site"],
        "table": hands["table"],
    }
    keys = {k: _folder_values(k, v) for k, v in keys.items() if k in partition_by}
    fmt = ds.ParquetFileFormat()
    opts = fmt.make_write_options(compression=compression)
    partitioning = _partitioning(partition_by)
    base = str(root).rstrip("/")
    for name, table in tables.items():
        if not table.num_rows or name == "errors":
            continue
        # each row's partition values are its hand's (rows keep their order)
        at = pc.index_in(table["hand_id"], value_set=hands["hand_id"])
        if name == "hands" and "table" in partition_by:
            table = table.append_column(EXACT_TABLE, table["table"])
        for k in partition_by:
            col = keys[k] if name == "hands" else keys[k].take(at)
            if k in table.column_names:
                table = table.drop_columns([k])
            table = table.append_column(k, col)
        ds.write_dataset(
            table,
            f"{base}/{name}",
            format=fmt,
            file_options=opts,
            partitioning=partitioning,
            basename_template=f"{part}-{{i}}.parquet",
            existing_data_behavior="overwrite_or_ignore",
            filesystem=filesystem,
            # one thread: with several, pyarrow may reorder a partition's rows
            use_threads=False,
        )
    errors = tables.get("errors")
    if errors is not None and errors.num_rows:
        import pyarrow.parquet as pq

        if filesystem is None:
            Path(base, "errors").mkdir(parents=True, exist_ok=True)
        else:
            filesystem.create_dir(f"{base}/errors", recursive=True)
        pq.write_table(errors, f"{base}/errors/{part}.parquet", filesystem=filesystem)
    return {name: t.num_rows for name, t in tables.items()}


def folder_value(key: str, value: str) -> str:
    """The value a partition folder `key=value` is named with: `value` itself when its
    name (percent-encoded, as pyarrow writes it) fits in `FOLDER_BYTES`, else as much of
    it as fits and "~" and 16 hex digits of its SHA-256, so a long name stays readable,
    unique and the same from run to run. A value that itself ends the way a cut one does
    is cut too, so no name can take another's folder."""
    from urllib.parse import quote

    room = FOLDER_BYTES - len(key) - 1
    if len(quote(value, safe="")) <= room and not _CUT.search(value):
        return value
    tag = "~" + hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()[:16]
    room -= len(tag)
    kept = 0
    for i, ch in enumerate(value):
        room -= len(quote(ch, safe=""))
        if room < 0:
            break
        kept = i + 1
    return value[:kept] + tag


def _folder_values(key: str, column: Any) -> Any:
    """`column` (a partition key's values) with each value as `folder_value` names it:
    only the distinct values are looked at."""
    import pyarrow.compute as pc

    column = column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column
    if not pa.types.is_string(column.type) or not len(column):
        return column
    distinct = pc.unique(column)
    named = [None if v is None else folder_value(key, v) for v in distinct.to_pylist()]
    if all(a == b for a, b in zip(named, distinct.to_pylist(), strict=True)):
        return column
    return pa.array(named, pa.string()).take(pc.index_in(column, value_set=distinct))


def remove_stale_staging(directory: Path) -> None:
    """Staging folders of runs whose process is gone (killed): nothing reads them."""
    for d in _staging_dirs(directory):
        pid = d.name[len(STAGING_PREFIX) :].split("-", 1)[0]
        if pid.isdigit() and not _alive(int(pid)):
            shutil.rmtree(d, ignore_errors=True)


def _staging_dirs(directory: Path) -> Iterator[Path]:
    try:
        entries = list(directory.iterdir())
    except OSError:
        return
    yield from (d for d in entries if d.name.startswith(STAGING_PREFIX) and d.is_dir())


def _alive(pid: int) -> bool:
    if os.name != "posix":
        return True  # no safe liveness test: leave it (readers ignore it anyway)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _table_paths(directory: Path, name: str) -> tuple[Path, Path]:
    """Where table `name` may sit: flat file, partitioned folder."""
    return directory / f"{name}.parquet", directory / name


def _foreign_file(folder: Path) -> Path | None:
    """A file in `folder` that no Parquet dataset would hold (hidden files aside)."""
    for p in folder.rglob("*"):
        if p.is_file() and not p.name.startswith((".", "_")) and p.suffix != ".parquet":
            return p
    return None


def _check_replaceable(directory: Path) -> None:
    """Refuse to replace anything at a table's place that is not histkit's: OUT may be a
    folder of the user's in which `hands/` is something else."""
    for name in SCHEMAS:
        flat, folder = _table_paths(directory, name)
        if flat.is_dir() or folder.is_file():
            odd = flat if flat.is_dir() else folder
            raise WarehouseError(f"{odd} is not a histkit table; choose another output folder")
        if folder.is_dir():
            other = _foreign_file(folder)
            if other is not None:
                raise WarehouseError(
                    f"{folder} is not a histkit table (it holds {other.name}); "
                    "choose another output folder"
                )


def _remove_result(directory: Path) -> str | None:
    """Remove the folder's result, the completion record first (from then on a reader
    refuses the folder); what it held: "complete", "incomplete" or None."""
    record = directory / RECORD
    held: str | None = "complete" if record.exists() else None
    record.unlink(missing_ok=True)
    fsync_dir(directory)
    for name in SCHEMAS:
        flat, folder = _table_paths(directory, name)
        if flat.exists():
            flat.unlink()
            held = held or "incomplete"
        if folder.exists():
            shutil.rmtree(folder)
            held = held or "incomplete"
    return held


def _fsync_tree(root: Path) -> None:
    for dirpath, _, filenames in os.walk(root):
        for f in filenames:
            fd = os.open(os.path.join(dirpath, f), os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        fsync_dir(dirpath)


@contextmanager
def _locked(directory: Path, *, shared: bool = False) -> Iterator[None]:
    """An advisory lock on the folder: one commit at a time, and no reader midway through
    a commit (POSIX; elsewhere no lock)."""
    try:
        import fcntl
    except ImportError:
        yield
        return
    fd = os.open(directory, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_SH if shared else fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)  # releases the lock


@contextmanager
def _interrupt_deferred() -> Iterator[None]:
    """Ctrl-C during the commit is acted on after it: a commit interrupted halfway would
    leave no result at all where the earlier or the new one can stand whole."""
    if (
        threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    ):
        yield
        return
    caught: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if caught:
        raise KeyboardInterrupt


def _partitioning(keys: Iterable[str]) -> Any:
    import pyarrow.dataset as ds

    return ds.partitioning(pa.schema([(k, pa.string()) for k in keys]), flavor="hive")


def _version() -> str:
    from histkit import __version__

    return __version__


# ------------------------------------------------------------------------------ reading


def holds_tables(folder: str | Path) -> bool:
    """Whether `folder` is (or was meant to be) a folder of histkit tables rather than of
    hand histories: a completion record, a table, or a run's staging folder."""
    d = Path(folder)
    if not d.is_dir():
        return False
    if (d / RECORD).exists():
        return True
    for name in SCHEMAS:
        flat, part = _table_paths(d, name)
        if flat.is_file() or (part.is_dir() and _looks_like_dataset(part)):
            return True
    return next(_staging_dirs(d), None) is not None


def _looks_like_dataset(folder: Path) -> bool:
    try:
        return any(
            (p.suffix == ".parquet" and p.is_file()) or ("=" in p.name and p.is_dir())
            for p in folder.iterdir()
        )
    except OSError:
        return False


def read_record(folder: str | Path) -> dict[str, Any]:
    """The completion record of `folder`, or `IncompleteResultError` if it has none."""
    d = Path(folder)
    try:
        text: str | None = (d / RECORD).read_text(encoding="utf-8")
    except FileNotFoundError:
        text = None
    return check_record(str(d), text)


def check_record(where: str, text: str | None) -> dict[str, Any]:
    """The completion record of the result at `where` from its text (None: there is
    none), or the error that says why the result cannot be read."""
    if text is None:
        raise IncompleteResultError(
            f"{where} holds tables of a run that did not complete (no {RECORD}); "
            "run histkit parse again"
        )
    try:
        record = json.loads(text)
        version = int(record["format_version"])
        tables = record["tables"]
    except (ValueError, KeyError, TypeError):
        raise WarehouseError(f"{where}/{RECORD} is damaged; run histkit parse again") from None
    if record.get("format") != FORMAT or not isinstance(tables, dict):
        raise WarehouseError(f"{where}/{RECORD} is not a histkit completion record")
    if version > FORMAT_VERSION:
        raise WarehouseError(
            f"{where} was written by a newer histkit ({record.get('histkit_version')}); "
            "upgrade histkit to read it"
        )
    return dict(record)


def read_tables(folder: str | Path, names: Iterable[str] | None = None) -> dict[str, pa.Table]:
    """The tables of a complete result (all, or those of `names` it has), each with its
    own schema whether written flat or partitioned. A folder whose run did not complete
    is refused (`IncompleteResultError`), as is one whose tables disagree with the record."""
    d = Path(folder)
    with _locked(d, shared=True):
        record = read_record(d)
        keys = [str(k) for k in record.get("partition_by") or ()]
        wanted = list(record["tables"]) if names is None else list(names)
        out: dict[str, pa.Table] = {}
        for name in wanted:
            meta = record["tables"].get(name)
            if meta is None:
                continue
            table = _read_table(d, name, keys)
            _check_rows(d, name, table.num_rows, int(meta["rows"]))
            out[name] = table
    return out


def table_batches(folder: str | Path, name: str, *, rows: int = 65_536) -> Iterator[pa.Table]:
    """The rows of table `name` of a complete result, in the order written, a batch of at
    most `rows` at a time, each with the table's own schema (as `read_tables` gives it
    whole): so a result of any size is read in bounded memory. Nothing if the result has
    no such table; the row count is checked against the record as `read_tables` does."""
    d = Path(folder)
    with _locked(d, shared=True):
        record = read_record(d)
        meta = record["tables"].get(name)
        if meta is None:
            return
        keys = [str(k) for k in record.get("partition_by") or ()]
        seen = 0
        for batch in _batches(d, name, keys, rows):
            seen += batch.num_rows
            yield batch
        _check_rows(d, name, seen, int(meta["rows"]))


def _batches(d: Path, name: str, keys: list[str], rows: int) -> Iterator[pa.Table]:
    import pyarrow.parquet as pq

    flat, folder = _table_paths(d, name)
    if flat.is_file():
        for b in pq.ParquetFile(flat).iter_batches(batch_size=rows):
            yield pa.Table.from_batches([b])
        return
    if not folder.is_dir():  # a partitioned table with no rows has no folder
        return
    import pyarrow.dataset as ds

    hive = keys and name != "errors"
    data = ds.dataset(folder, format="parquet", partitioning=_partitioning(keys) if hive else None)
    for b in data.to_batches(batch_size=rows, use_threads=False):
        if b.num_rows:
            yield conform_table(name, pa.Table.from_batches([b]), keys, where=str(d))


def _check_rows(d: Path, name: str, rows: int, recorded: int) -> None:
    if rows != recorded:
        raise WarehouseError(
            f"{d}: table {name} has {rows:,} rows where {RECORD} says "
            f"{recorded:,}; it was changed after it was written: run histkit parse again"
        )


def _read_table(d: Path, name: str, keys: list[str]) -> pa.Table:
    import pyarrow.parquet as pq

    flat, folder = _table_paths(d, name)
    if flat.is_file():
        return pq.read_table(flat)
    if not folder.is_dir():  # a partitioned table with no rows has no folder
        return conform_table(name, None, keys, where=str(d))
    import pyarrow.dataset as ds

    hive = keys and name != "errors"
    data = ds.dataset(folder, format="parquet", partitioning=_partitioning(keys) if hive else None)
    return conform_table(name, data.to_table(), keys, where=str(d))


def conform_table(
    name: str, table: pa.Table | None, keys: list[str], *, where: str = "the result"
) -> pa.Table:
    """A partitioned table as read, with its own schema again: its own columns in its own
    order, partition values that are not its columns dropped, those that are with the
    column's type. None: a table with no rows (it has no folder)."""
    schema = SCHEMAS.get(name)
    if table is None:
        if schema is None:
            raise WarehouseError(f"{where}: table {name} is missing; run histkit parse again")
        return schema.empty_table()
    if schema is None:
        return table
    # the table's own columns, in its own order: partition values that are not columns of
    # the table are dropped, those that are come back with the column's type
    if EXACT_TABLE in table.column_names:  # the exact names of a folder value cut short
        if "table" in table.column_names:
            table = table.drop_columns(["table"])
        table = table.rename_columns(
            ["table" if c == EXACT_TABLE else c for c in table.column_names]
        )
    extra = [c for c in table.column_names if c not in schema.names and c not in keys]
    own = [c for c in schema.names if c in table.column_names]
    table = table.select(own + extra)
    types = {f.name: f.type for f in schema}
    return table.cast(
        pa.schema(
            [pa.field(c, types.get(c, table.schema.field(c).type)) for c in table.column_names]
        )
    )
