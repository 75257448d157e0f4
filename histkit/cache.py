"""histkit's private per-user cache: what is costly to build and the same every run (Lark's
grammar analysis, the evaluator's lookup tables), kept so that a command's start-up does not
pay for it again.

What is cached is read back with `pickle` (Lark) or `marshal` (the tables), which trust
their input, so the folder must be the user's own and writable by nobody else: anything
else and there is no cache (None), and each run builds what it needs, as without one.
`HISTKIT_CACHE_DIR` names the folder, `HISTKIT_NO_CACHE=1` turns the cache off.
"""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path

__all__ = ["cache_dir", "write_cache_file"]


def cache_dir() -> Path | None:
    """The private cache folder (created on first use), or None when there is none we can
    trust."""
    if os.environ.get("HISTKIT_NO_CACHE"):
        return None
    base = os.environ.get("HISTKIT_CACHE_DIR")
    try:
        if base:
            root = Path(base)
        elif sys.platform == "win32":
            local = os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local"
            root = Path(local) / "histkit"
        elif sys.platform == "darwin":
            root = Path.home() / "Library" / "Caches" / "histkit"
        else:
            root = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "histkit"
        if not base and not Path.home().is_dir():
            return None  # never create a home directory just for a cache
    except RuntimeError:  # no home directory to speak of
        return None
    try:
        root.mkdir(mode=0o700, parents=True, exist_ok=True)
        if os.name == "posix":
            st = root.stat()
            if st.st_uid != os.getuid() or st.st_mode & 0o022:
                return None
        if not os.access(root, os.W_OK):
            return None
    except OSError:
        return None
    return root


def write_cache_file(path: Path, data: bytes) -> None:
    """Write a cache file whole or not at all (a temporary name, then a rename), so that
    two processes filling the cache at once never read each other's half; a failure to
    write only means no cache."""
    import tempfile

    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
