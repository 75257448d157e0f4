"""Compressed input, read as if it were not: how players download and keep their histories.

A file is judged by its first bytes, not its name. A compressed *stream* (gzip, bzip2, xz)
is one file: its text is read through the decompressor and keeps the file's own name
(`HH20240612.txt.gz`). A *container* (ZIP, tar, also gzip- bzip2- or xz-compressed tar)
holds files: each member that is a hand history (`HAND_HISTORY_SUFFIXES`, also
compressed; not hidden, not a folder) is read as a file of its own, named
`<archive>/<member>` as if the archive were a folder. Archives of kinds the standard
library cannot open (7-Zip, RAR) are named as such, never skipped in silence. Nothing here
knows a site.
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import os
import tarfile
import zipfile
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO, cast

__all__ = [
    "ARCHIVE_SUFFIXES",
    "HAND_HISTORY_SUFFIXES",
    "NAMED_SUFFIXES",
    "OPENED_SUFFIXES",
    "ArchiveError",
    "Member",
    "container_kind",
    "members",
    "open_source",
    "stream_kind",
]

#: hand-history files, in a folder or in an archive: the sites' text and XML, and PHH
HAND_HISTORY_SUFFIXES = (".txt", ".xml", ".phh", ".phhs")
#: compressed files and archives histkit reads through, in a folder
OPENED_SUFFIXES = (".gz", ".bz2", ".xz", ".zip", ".tar", ".tgz")
#: archives histkit cannot open: named (to extract first), never skipped in silence
NAMED_SUFFIXES = (".7z", ".rar")
#: names inside folders that are read as (possibly) compressed hand histories
ARCHIVE_SUFFIXES = OPENED_SUFFIXES + NAMED_SUFFIXES

# magic bytes -> (kind, open a path, open a file object)
_Opener = Callable[[Any], Any]  # returns a binary file object
_STREAMS: dict[bytes, tuple[str, _Opener, _Opener]] = {
    b"\x1f\x8b": ("gzip", gzip.open, lambda f: gzip.GzipFile(fileobj=f)),
    b"BZh": ("bzip2", bz2.open, bz2.BZ2File),
    b"\xfd7zXZ\x00": ("xz", lzma.open, lzma.LZMAFile),
}
_UNSUPPORTED = {b"7z\xbc\xaf\x27\x1c": "a 7-Zip archive", b"Rar!\x1a\x07": "a RAR archive"}
ERRORS: tuple[type[BaseException], ...] = (
    OSError,
    EOFError,
    zlib.error,
    zipfile.BadZipFile,
    tarfile.TarError,
    lzma.LZMAError,
    ValueError,
)


class ArchiveError(OSError):
    """An archive that cannot be read (damaged, or of a kind histkit cannot open)."""


@dataclass(frozen=True, slots=True)
class Member:
    """A hand-history file inside a container: its name as histkit reports it, and how
    to open its bytes."""

    source: str
    open: Callable[[], BinaryIO]


def stream_kind(head: bytes) -> str | None:
    """'gzip', 'bzip2' or 'xz' when `head` (a file's first bytes) starts a compressed
    stream; None otherwise."""
    for magic, (kind, _, _) in _STREAMS.items():
        if head.startswith(magic):
            return kind
    return None


def container_kind(path: str | os.PathLike[str], head: bytes) -> str | None:
    """'zip' or 'tar' when the file holds other files (a tar may be compressed: its
    first bytes are then a stream's); a 7-Zip or RAR archive raises `ArchiveError`
    saying to extract it; None for any other file."""
    for magic, what in _UNSUPPORTED.items():
        if head.startswith(magic):
            raise ArchiveError(f"{what}: histkit cannot open it; extract its files first")
    if head.startswith((b"PK\x03\x04", b"PK\x05\x06")):
        return "zip"
    if head[257:262] == b"ustar":
        return "tar"
    if stream_kind(head) is not None:
        try:
            with _open_stream(os.fspath(path)) as f:
                inner = f.read(512)
        except ERRORS:
            return None  # a damaged stream: reading it says so
        if inner[257:262] == b"ustar":
            return "tar"
    return None


def _open_stream(path: str) -> BinaryIO:
    """A file's bytes, decompressed when it is a compressed stream."""
    with open(path, "rb") as f:
        head = f.read(8)
    for magic, (_, open_path, _) in _STREAMS.items():
        if head.startswith(magic):
            return cast(BinaryIO, open_path(path))
    return open(path, "rb")


def _wanted(name: str) -> bool:
    base = name.rsplit("/", 1)[-1]
    if not base or base.startswith(".") or "__MACOSX/" in name:
        return False
    lower = base.lower()
    for suffix in (".gz", ".bz2", ".xz"):
        lower = lower.removesuffix(suffix)
    return lower.endswith(HAND_HISTORY_SUFFIXES)


def members(path: str | os.PathLike[str], kind: str) -> list[Member]:
    """The hand-history files inside a container, in the archive's order."""
    path = os.fspath(path)
    out: list[Member] = []
    if kind == "zip":
        with zipfile.ZipFile(path) as z:
            names = [i.filename for i in z.infolist() if not i.is_dir()]
        for name in names:
            if _wanted(name):
                out.append(Member(f"{path}/{name}", _zip_opener(path, name)))
        return out
    with tarfile.open(path, "r:*") as t:
        names = [m.name for m in t.getmembers() if m.isfile()]
    for name in names:
        if _wanted(name):
            out.append(Member(f"{path}/{name}", _tar_opener(path, name)))
    return out


def _decompressed(f: BinaryIO) -> BinaryIO:
    """A member that is itself a compressed stream (`x.txt.gz` inside a zip), opened."""
    head = f.read(8)
    data = head + f.read()
    f.close()
    buf = io.BytesIO(data)
    for magic, (_, _, open_file) in _STREAMS.items():
        if head.startswith(magic):
            return cast(BinaryIO, open_file(buf))
    return buf


def _zip_opener(path: str, name: str) -> Callable[[], BinaryIO]:
    def open_member() -> BinaryIO:
        z = zipfile.ZipFile(path)
        try:
            return _decompressed(z.open(name))  # type: ignore[arg-type]
        finally:
            z.close()

    return open_member


def _tar_opener(path: str, name: str) -> Callable[[], BinaryIO]:
    def open_member() -> BinaryIO:
        with tarfile.open(path, "r:*") as t:
            f = t.extractfile(name)
            if f is None:
                raise ArchiveError(f"{name} is not a file in {path}")
            return _decompressed(f)  # type: ignore[arg-type]

    return open_member


def open_source(source: str) -> BinaryIO:
    """The bytes of a source as the reader names it: a plain file, a compressed stream
    (decompressed), or `<archive>/<member>` (the member's bytes)."""
    if os.path.isfile(source):
        return _open_stream(source)
    for archive, member in _splits(source):
        with open(archive, "rb") as f:
            head = f.read(4096)
        kind = container_kind(archive, head)
        if kind == "zip":
            return _zip_opener(archive, member)()
        if kind == "tar":
            return _tar_opener(archive, member)()
    raise FileNotFoundError(2, "no such file or folder", source)


def _splits(source: str) -> Iterator[tuple[str, str]]:
    """(archive, member) for each '/' in `source` whose left part is a file."""
    at = source.find("/", 1)
    while at > 0:
        left = source[:at]
        if os.path.isfile(left):
            yield left, source[at + 1 :]
            return
        at = source.find("/", at + 1)
