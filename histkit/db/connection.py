"""Where the hand database lives, and a connection to it that waits its turn.

DuckDB lets one process write a database file, or several read it, never both at once (a
file lock). histkit keeps every hold short: an import or `histkit watch` opens the file for
writing only while it writes its rows (parsed beforehand, the database let go; a watch's
batch is bounded in bytes), and a reader (`histkit stats --db`, a notebook's
`histkit.db.connect()`) opens it, copies what it needs, and closes it. Whoever finds the
file locked waits briefly and tries again (`connect(timeout=...)`), so a reader and a
watcher on the same database both succeed; only a hold longer than the timeout is an error.
"""

from __future__ import annotations

import os
import random
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import duckdb

__all__ = ["DB_ENV", "DatabaseBusy", "connect_file", "default_path", "resolve_path"]

DB_ENV = "HISTKIT_DB"  # overrides the default database file
DEFAULT_NAME = "hands.duckdb"
DEFAULT_TIMEOUT = 30.0  # seconds a connection waits for another process's hold


class DatabaseBusy(RuntimeError):
    """Another process held the database longer than we were prepared to wait."""


def default_path() -> Path:
    """`$HISTKIT_DB`, else `hands.duckdb` in the user's data folder (platformdirs: e.g.
    ~/.local/share/histkit on Linux, ~/Library/Application Support/histkit on macOS)."""
    env = os.environ.get(DB_ENV)
    if env:
        return Path(env).expanduser()
    from platformdirs import user_data_path

    return user_data_path("histkit", appauthor=False) / DEFAULT_NAME


def resolve_path(path: str | os.PathLike[str] | None) -> Path:
    """The database file a command means: the one given, else the default."""
    return Path(path).expanduser() if path is not None else default_path()


def _locked(e: Exception) -> bool:
    text = str(e)
    return "Could not set lock" in text or "Conflicting lock" in text


_HEADER = 12288  # DuckDB writes its headers right after creating the file


def _being_created(e: Exception, file: Path) -> bool:
    """A database file another process has just created and not yet written its headers
    to: new, short, and empty or starting as DuckDB's do (a reader arriving at that
    moment waits, as for a lock; any other file is refused at once)."""
    if "not a valid DuckDB database" not in str(e):
        return False
    try:
        st = file.stat()
        with open(file, "rb") as f:
            head = f.read(12)
    except OSError:
        return False
    young = st.st_size < _HEADER and time.time() - st.st_mtime < 5
    return young and (not head or head[8:12] == b"DUCK")


def connect_file(
    path: str | os.PathLike[str] | None = None,
    *,
    read_only: bool = True,
    timeout: float = DEFAULT_TIMEOUT,
) -> duckdb.DuckDBPyConnection:
    """A DuckDB connection to the database file, retried (with a little jitter) while
    another process holds it, for up to `timeout` seconds. A read-only connection to a
    file that does not exist is an error naming it; a writing one creates it (and its
    folder)."""
    import duckdb

    file = resolve_path(path)
    if read_only and not file.exists():
        raise FileNotFoundError(
            f"no hand database at {file}: create one with `histkit import PATH --db {file}`"
        )
    if not read_only:
        file.parent.mkdir(parents=True, exist_ok=True)
    deadline = time.monotonic() + timeout
    pause = 0.02
    while True:
        try:
            return duckdb.connect(str(file), read_only=read_only)
        except duckdb.IOException as e:
            if not (_locked(e) or _being_created(e, file)):
                raise
            if time.monotonic() >= deadline:
                raise DatabaseBusy(
                    f"{file} is held by another process (an import or watch?); "
                    f"waited {timeout:.0f} s"
                ) from None
        time.sleep(pause * (0.5 + random.random()))
        pause = min(pause * 2, 0.5)
