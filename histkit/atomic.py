"""Output files that appear whole or not at all.

A command writes its file under a hidden temporary name in the same folder and renames it
into place only when the file is complete (`os.replace` is atomic within a file system): a
run that fails or is killed leaves the earlier file, never half of a new one (issue 19).
"""

from __future__ import annotations

import errno
import os
import secrets
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["atomic_path", "atomic_write_text", "fsync_dir", "no_space"]

_FULL = (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC))


def no_space(e: BaseException) -> bool:
    """Whether `e` says a disk (or a quota) is full: an OSError with its errno, or a
    library's error that carries only the system's words (pyarrow's, DuckDB's)."""
    if isinstance(e, OSError) and e.errno in _FULL:
        return True
    text = str(e)
    return "No space left on device" in text or "Disk quota exceeded" in text


def fsync_dir(folder: str | Path) -> None:
    """Make the renames inside `folder` durable (best effort: not every system can)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _fsync_file(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


@contextmanager
def atomic_path(target: str | Path) -> Iterator[Path]:
    """A temporary path beside `target` to write to; moved onto `target` when the block
    ends normally, removed when it raises (KeyboardInterrupt included). A target that is
    a folder is refused up front, before any work is spent on it; one that is neither a
    file nor a folder (a device, a pipe) is written directly."""
    target = Path(target)
    if target.is_dir():
        raise IsADirectoryError(errno.EISDIR, "is a folder", str(target))
    if target.exists() and not target.is_file():
        # a device or a pipe (/dev/stdout, a FIFO): written in place, as a rename would
        # replace the device itself with a file (and needs a folder one may write in)
        yield target
        return
    tmp = target.with_name(f".{target.name}.tmp-{os.getpid()}-{secrets.token_hex(4)}")
    try:
        yield tmp
        _fsync_file(tmp)
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    fsync_dir(target.parent)


def atomic_write_text(
    target: str | Path, text: str, *, encoding: str = "utf-8", newline: str | None = None
) -> None:
    """`Path(target).write_text(text)`, atomically."""
    with atomic_path(target) as tmp, open(tmp, "w", encoding=encoding, newline=newline) as f:
        f.write(text)
