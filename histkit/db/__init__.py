"""The hand database: hand histories imported into one DuckDB file, incrementally and each
hand once, queryable with SQL, pandas or Arrow.

    import histkit.db
    report = histkit.db.import_paths(["~/hand-histories/"])     # or `histkit import`
    with histkit.db.connect() as con:                           # read-only
        con.sql("select site, game, money_unit, count(*) from hands group by all").df()

The tables have the names and columns `histkit parse` writes (see `histkit.db.schema`);
`histkit watch` keeps the database up to date while a client writes hands, and `histkit
db` says what it holds. A reader holds the file only while it reads: DuckDB lets one
process write or several read, so close the connection when done (`with`), and an import
waiting for it gets its turn (see `histkit.db.connection`).
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from histkit.db.check import check
from histkit.db.connection import DEFAULT_TIMEOUT, DatabaseBusy, connect_file, default_path
from histkit.db.importer import ImportReport, NothingToImport, import_paths, open_for_writing
from histkit.db.schema import SCHEMA_VERSION, DatabaseError, needs_upgrade

if TYPE_CHECKING:
    import duckdb

__all__ = [
    "SCHEMA_VERSION",
    "DatabaseBusy",
    "DatabaseError",
    "ImportReport",
    "NothingToImport",
    "check",
    "connect",
    "default_path",
    "import_paths",
]


def connect(
    path: str | os.PathLike[str] | None = None,
    *,
    read_only: bool = True,
    timeout: float = DEFAULT_TIMEOUT,
) -> duckdb.DuckDBPyConnection:
    """A DuckDB connection to the hand database (`path`, else `$HISTKIT_DB` or the
    default), read-only unless asked, with every table queryable: `con.sql("select ...")
    .df()` or `.arrow()`. A database of an older histkit is brought up to date first (a
    short write). Waits up to `timeout` seconds while an import holds the file."""
    import duckdb

    if not read_only:
        return open_for_writing(path, timeout=timeout)
    try:
        con = connect_file(path, read_only=True, timeout=timeout)
    except duckdb.Error as e:
        raise DatabaseError(f"{path or default_path()} is not a DuckDB database ({e})") from None
    try:
        stale = needs_upgrade(con)
    except BaseException:
        con.close()
        raise
    if not stale:
        return con
    con.close()
    open_for_writing(path, timeout=timeout).close()
    return connect_file(path, read_only=True, timeout=timeout)
