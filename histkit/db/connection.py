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

__all__ = [
    "DB_ENV",
    "DatabaseBusy",
    "DatabaseError",
    "connect_file",
    "default_path",
    "resolve_path",
]

DB_ENV = "HISTKIT_DB"  # overrides the default database file
DEFAULT_NAME = "hands.duckdb"
DEFAULT_TIMEOUT = 30.0  # seconds a connection waits for another process's hold


class DatabaseBusy(RuntimeError):
    """Another process held the database longer than we were prepared to wait."""


class DatabaseError(ValueError):
    """The file is no hand database histkit can use (the CLI's exit 2)."""


#: DuckDB's settings for every connection: never load or download an extension. A file
#: of another kind (SQLite, say) otherwise makes DuckDB fetch a reader for it from the
#: network; a hand database needs none.
_CONFIG: dict[str, str | bool | int | float | list[str]] = {
    "autoinstall_known_extensions": False,
    "autoload_known_extensions": False,
}
_SQLITE = b"SQLite format 3\x00"


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
    _refuse_other_kind(file)
    deadline = time.monotonic() + timeout
    pause = 0.02
    while True:
        try:
            return duckdb.connect(str(file), read_only=read_only, config=_CONFIG)
        except duckdb.IOException as e:
            if not (_locked(e) or _being_created(e, file)):
                raise open_error(file, e) from None
            if time.monotonic() >= deadline:
                raise DatabaseBusy(
                    f"{file} is held by another process (an import or watch?); "
                    f"waited {timeout:.0f} s"
                ) from None
        except duckdb.Error as e:
            raise open_error(file, e) from None
        time.sleep(pause * (0.5 + random.random()))
        pause = min(pause * 2, 0.5)


def _refuse_other_kind(file: Path) -> None:
    """A file that is plainly not a DuckDB database (SQLite's, or any other whose first
    bytes are not DuckDB's) is named for what it is before DuckDB is asked to open it."""
    try:
        with open(file, "rb") as f:
            head = f.read(16)
    except FileNotFoundError:
        return
    except OSError as e:
        raise DatabaseError(f"cannot read {file}: {e.strerror or e}") from None
    if head.startswith(_SQLITE):
        raise DatabaseError(
            f"{file} is a SQLite database, not a histkit hand database (a DuckDB file): "
            "give --db a file made by `histkit import`"
        )
    if len(head) >= 12 and head[8:12] != b"DUCK":
        raise DatabaseError(f"{file} is not a DuckDB database (not a histkit hand database)")


def open_error(file: Path, e: BaseException) -> DatabaseError:
    """The one-line error for a database file DuckDB could not open: a place histkit may
    not read or write is said as such, not as a file of the wrong kind."""
    text = _first_line(e)
    low = text.lower()
    if "permission denied" in low or "read-only file system" in low:
        return DatabaseError(f"cannot open {file}: permission denied ({text})")
    if "no space left" in low:
        return DatabaseError(f"cannot open {file}: the disk is full ({text})")
    if "not a valid duckdb database" in low or "unable to open database" in low:
        return DatabaseError(f"{file} is not a DuckDB database ({text})")
    if "version" in low and "storage" in low:
        return DatabaseError(f"{file} was written by another DuckDB version ({text})")
    return DatabaseError(f"cannot open {file} ({text})")


def _first_line(e: BaseException) -> str:
    return (str(e).strip().splitlines() or [type(e).__name__])[0]
