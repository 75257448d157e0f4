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
from histkit.db.connection import (
    DEFAULT_TIMEOUT,
    DatabaseBusy,
    connect_file,
    default_path,
    open_error,
    resolve_path,
)
from histkit.db.importer import ImportReport, NothingToImport, import_paths, open_for_writing
from histkit.db.schema import (
    SCHEMA_VERSION,
    DatabaseError,
    DatabaseFull,
    StagingError,
    needs_upgrade,
    version,
)

if TYPE_CHECKING:
    import duckdb

__all__ = [
    "SCHEMA_VERSION",
    "DatabaseBusy",
    "DatabaseError",
    "DatabaseFull",
    "ImportReport",
    "NothingToImport",
    "StagingError",
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
    short write). Waits up to `timeout` seconds while an import holds the file. Only a
    writing connection (`read_only=False`, as `histkit import` makes) creates the tables:
    a DuckDB file that is not a hand database, even an empty one, is refused as it is."""
    import duckdb

    file = resolve_path(path)
    if file.is_dir():
        raise DatabaseError(f"{file}: is a folder, not a hand database file")
    if not read_only:
        return open_for_writing(file, timeout=timeout)
    try:
        con = connect_file(file, read_only=True, timeout=timeout)
    except duckdb.Error as e:
        raise open_error(file, e) from None
    try:
        if version(con) is None:  # no tables at all: a DuckDB file, not a hand database
            raise DatabaseError(
                f"{file} is an empty DuckDB database, not a hand database: import hand "
                f"histories into it with `histkit import PATH --db {file}`"
            )
        stale = needs_upgrade(con)
    except DatabaseError as e:
        con.close()
        raise DatabaseError(str(e) if str(e).startswith(str(file)) else f"{file}: {e}") from None
    except BaseException:
        con.close()
        raise
    if not stale:
        return con
    con.close()
    open_for_writing(file, timeout=timeout).close()
    return connect_file(file, read_only=True, timeout=timeout)
