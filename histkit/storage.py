"""Hand histories and tables at fsspec URLs (`s3://`, `gs://`, `memory://`, ...): so that
workers on other machines read the same inputs and write one dataset (`--scheduler`).

A local path stays a `pathlib.Path` (and a `file://` URL becomes one): local files keep
the guarantees of `histkit.warehouse` (fsync, a lock, renames). Anything else with a
scheme is read and written through fsspec, imported only then (`pip install
'histkit[dask]'`); credentials come from the environment, as fsspec's backends read them.

`UrlSink` is `ParquetSink` on such a URL: the tables are staged under
`URL/.histkit-staging-<id>/` and moved into place when the run completes, the completion
record `_histkit.json` written last (one PUT on an object store, so a reader sees it whole
or not at all). An object store has no lock and no rename: between removing an earlier
result and writing the new record, a reader finds no record and refuses the folder, as
it does locally midway through a commit; two runs into one URL at once are not kept
apart. `read_tables` reads a complete result at a URL as `histkit.warehouse` does a
folder's.
"""

from __future__ import annotations

import json
import re
import secrets
import socket
from collections.abc import Iterable, Iterator
from contextlib import suppress
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any, BinaryIO
from urllib.parse import unquote, urlparse

import pyarrow as pa

from histkit.warehouse import (
    RECORD,
    STAGING_PREFIX,
    ParquetSink,
    WarehouseError,
    check_record,
    completion_record,
    conform_table,
)

__all__ = [
    "Remote",
    "UrlSink",
    "check_backend",
    "input_paths",
    "is_url",
    "open_sink",
    "open_source",
    "read_tables",
    "remote_files",
    "url_filesystem",
]

_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.\-]*://")


def is_url(p: object) -> bool:
    """Whether `p` names a place through fsspec (a scheme other than `file://`)."""
    return isinstance(p, str) and bool(_SCHEME.match(p)) and not p.startswith("file://")


def local_path(p: str | Path) -> str | Path:
    """A `file://` URL as the local path it names; anything else as given."""
    if isinstance(p, str) and p.startswith("file://"):
        return Path(unquote(urlparse(p).path))
    return p


def _fsspec() -> Any:
    try:
        import fsspec
    except ImportError:
        raise WarehouseError(
            "reading or writing URLs needs fsspec: pip install 'histkit[dask]'"
        ) from None
    return fsspec


def url_filesystem(url: str) -> tuple[Any, str]:
    """The fsspec filesystem of `url` and the path on it; `WarehouseError` (one line
    naming what to install) for a scheme fsspec does not know or whose backend is not
    installed, so that the command line says so before any work."""
    fsspec = _fsspec()
    check_backend(fsspec, url)
    fs, path = fsspec.core.url_to_fs(url)
    return fs, str(path)


def check_backend(fsspec: Any, url: str) -> None:
    """Refuse `url` when fsspec has no filesystem for its scheme, or the one it has needs
    a package that is missing (`s3://` without s3fs)."""
    scheme = url.split("://", 1)[0].lower()
    try:
        fsspec.get_filesystem_class(scheme)
    except ValueError:
        raise WarehouseError(
            f"{url}: no storage is known for {scheme}:// URLs (e.g. s3://, gs://, abfs://, "
            "http://, or a local path)"
        ) from None
    except ImportError as e:
        # fsspec raises its own message from the import that failed: name that module
        cause = e.__cause__ if isinstance(e.__cause__, ImportError) else e
        missing = (cause.name or "").split(".")[0]
        if not missing:
            raise WarehouseError(f"{url}: {scheme}:// URLs cannot be read here: {e}") from None
        raise WarehouseError(
            f"{url}: {scheme}:// URLs need {missing}, which is not installed: "
            f"pip install {missing.replace('_', '-')}"
        ) from None


@dataclass(frozen=True)
class Remote:
    """A file or folder at a URL, with the few operations the reader asks of a `Path`."""

    url: str

    @cached_property
    def _fs(self) -> tuple[Any, str]:
        return url_filesystem(self.url)

    def __str__(self) -> str:
        return self.url

    @property
    def name(self) -> str:
        """The last part of the URL's path, as `Path.name`."""
        return self.url.rstrip("/").rsplit("/", 1)[-1]

    def exists(self) -> bool:
        fs, path = self._fs
        return bool(fs.exists(path))

    def is_file(self) -> bool:
        fs, path = self._fs
        return bool(fs.isfile(path))

    def is_dir(self) -> bool:
        fs, path = self._fs
        return bool(fs.isdir(path))

    def open(self, mode: str = "rb") -> BinaryIO:
        fs, path = self._fs
        f: BinaryIO = fs.open(path, mode)
        return f

    def files(self, suffixes: tuple[str, ...]) -> list[Remote]:
        """The hand-history files of a folder, as `histkit.reader.iter_files` finds them in
        a local one: recursively, sorted by their parts, hidden names left out."""
        fs, path = self._fs
        root = path.rstrip("/")
        found: list[tuple[tuple[str, ...], Remote]] = []
        for full in fs.find(root):
            rel = str(full)[len(root) :].lstrip("/")
            parts = tuple(rel.split("/"))
            if any(p.startswith(".") for p in parts) or not rel.lower().endswith(suffixes):
                continue
            found.append((parts, Remote(self.url.rstrip("/") + "/" + rel)))
        return [r for _, r in sorted(found, key=lambda x: x[0])]


def open_source(source: str | Path) -> BinaryIO:
    """A file of the input for reading, local or at a URL (a chunk's `source`)."""
    if is_url(source):
        return Remote(str(source)).open("rb")
    return open(source, "rb")


def input_paths(paths: Iterable[str | Path]) -> list[str | Path]:
    """The command line's inputs, checked: local paths (and `file://` URLs) as `Path`s,
    other URLs as given; `WarehouseError` naming those that do not exist."""
    out: list[str | Path] = []
    missing: list[str] = []
    for p in paths:
        p = local_path(p)
        if is_url(p):
            if not Remote(str(p)).exists():
                missing.append(str(p))
            out.append(str(p))
        else:
            path = Path(p)
            if not path.exists():
                missing.append(str(p))
            out.append(path)
    if missing:
        raise WarehouseError("no such file or folder: " + ", ".join(missing))
    return out


# ------------------------------------------------------------------------ tables at a URL


def open_sink(
    output: str | Path,
    *,
    batch_size: int = 5000,
    audit: bool = False,
    partition_by: tuple[str, ...] = (),
) -> ParquetSink:
    """The sink for `-o OUTPUT`: a local folder's `ParquetSink`, or a `UrlSink`."""
    output = local_path(output)
    if is_url(output):
        return UrlSink(str(output), batch_size=batch_size, audit=audit, partition_by=partition_by)
    return ParquetSink(output, batch_size=batch_size, audit=audit, partition_by=partition_by)


class UrlSink(ParquetSink):
    """`ParquetSink` at an fsspec URL (see the module docstring for what an object store
    cannot promise). Written through pyarrow's view of the fsspec filesystem."""

    def __init__(
        self,
        url: str,
        *,
        batch_size: int = 5000,
        compression: str = "zstd",
        audit: bool = False,
        partition_by: tuple[str, ...] = (),
    ) -> None:
        from pyarrow.fs import FSSpecHandler, PyFileSystem

        self.url = url.rstrip("/")
        self._fsspec, root = url_filesystem(self.url)
        self._root = root.rstrip("/")
        super().__init__(
            self.url,
            batch_size=batch_size,
            compression=compression,
            audit=audit,
            partition_by=partition_by,
            filesystem=PyFileSystem(FSSpecHandler(self._fsspec)),
        )

    def _prepare(self, directory: str | Path) -> str:
        fs = self._fsspec
        if fs.isfile(self._root):
            raise WarehouseError(f"{self.url} is a file, not a folder")
        self._check_places()  # refuse now, not after the whole parse
        self._created = False
        token = f"{socket.gethostname()}-{secrets.token_hex(4)}"
        self.staging_url = f"{self.url}/{STAGING_PREFIX}{token}"
        stage = f"{self._root}/{STAGING_PREFIX}{token}"
        fs.makedirs(stage, exist_ok=True)
        return stage

    def parts_location(self) -> str:
        return self.staging_url

    def _check_places(self) -> None:
        from histkit.tables import SCHEMAS

        fs = self._fsspec
        for name in SCHEMAS:
            flat, folder = f"{self._root}/{name}.parquet", f"{self._root}/{name}"
            if fs.isdir(flat) or fs.isfile(folder):
                odd = flat if fs.isdir(flat) else folder
                raise WarehouseError(f"{odd} is not a histkit table; choose another output folder")

    def abort(self) -> None:
        self._done = True
        self._close_writers()
        with suppress(OSError):  # it is being thrown away (or was never written)
            self._fsspec.rm(self.staging, recursive=True)

    def _commit(self) -> None:
        fs = self._fsspec
        record = completion_record(self.audit, self.partition_by, self.names, self.counts)
        self._check_places()
        from histkit.tables import SCHEMAS

        held: str | None = "complete" if fs.exists(f"{self._root}/{RECORD}") else None
        if held:
            fs.rm(f"{self._root}/{RECORD}")
        for name in SCHEMAS:  # every histkit table of the earlier result, then the new ones
            for old in (f"{self._root}/{name}.parquet", f"{self._root}/{name}"):
                if fs.exists(old):
                    fs.rm(old, recursive=True)
                    held = held or "incomplete"
        for name in self.names:
            for src in (f"{self.staging}/{name}.parquet", f"{self.staging}/{name}"):
                if fs.exists(src):
                    fs.mv(src, f"{self._root}/{src.rsplit('/', 1)[1]}", recursive=True)
        fs.pipe_file(f"{self._root}/{RECORD}", (json.dumps(record, indent=2) + "\n").encode())
        self.replaced = held
        self._done = self.committed = True
        with suppress(OSError):  # moved away whole: nothing left
            fs.rm(self.staging, recursive=True)


def read_tables(url: str, names: Iterable[str] | None = None) -> dict[str, pa.Table]:
    """The tables of a complete result at `url` (a local folder too), as
    `histkit.warehouse.read_tables` reads them: the completion record required, each table
    with its own schema, its rows checked against the record."""
    url = str(local_path(url))
    if not is_url(url):
        from histkit.warehouse import read_tables as read_folder

        return read_folder(url, names)
    import pyarrow.dataset as ds
    import pyarrow.parquet as pq
    from pyarrow.fs import FSSpecHandler, PyFileSystem

    fs, root = url_filesystem(url.rstrip("/"))
    root = root.rstrip("/")
    try:
        text = fs.cat_file(f"{root}/{RECORD}").decode("utf-8")
    except FileNotFoundError:
        text = None
    record = check_record(url, text)
    keys = [str(k) for k in record.get("partition_by") or ()]
    pfs = PyFileSystem(FSSpecHandler(fs))
    out: dict[str, pa.Table] = {}
    for name in list(record["tables"]) if names is None else list(names):
        meta = record["tables"].get(name)
        if meta is None:
            continue
        if fs.isfile(f"{root}/{name}.parquet"):
            table = pq.read_table(f"{root}/{name}.parquet", filesystem=pfs)
        elif fs.isdir(f"{root}/{name}"):
            from histkit.warehouse import _partitioning

            hive = keys and name != "errors"
            table = ds.dataset(
                f"{root}/{name}",
                format="parquet",
                filesystem=pfs,
                partitioning=_partitioning(keys) if hive else None,
            ).to_table()
            table = conform_table(name, table, keys)
        else:
            table = conform_table(name, None, keys)
        if table.num_rows != int(meta["rows"]):
            raise WarehouseError(
                f"{url}: table {name} has {table.num_rows:,} rows where {RECORD} says "
                f"{int(meta['rows']):,}; it was changed after it was written"
            )
        out[name] = table
    return out


def remote_files(url: str, suffixes: tuple[str, ...]) -> Iterator[Remote]:
    """The file at `url`, or the hand-history files of the folder there."""
    r = Remote(url)
    if r.is_dir():
        yield from r.files(suffixes)
    else:
        yield r
