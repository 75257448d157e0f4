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

import atexit
import bz2
import functools
import gzip
import io
import lzma
import os
import tarfile
import threading
import zipfile
import zlib
from collections import OrderedDict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, BinaryIO, cast

__all__ = [
    "ARCHIVE_SUFFIXES",
    "HAND_HISTORY_SUFFIXES",
    "NAMED_SUFFIXES",
    "OPENED_SUFFIXES",
    "MAX_MEMBERS",
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
#: entries (files, folders, links) an archive may hold; more is refused, to be extracted
MAX_MEMBERS = 100_000
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
    """The hand-history files inside a container, in the archive's order. A name given
    more than once is the file extracting the archive leaves: its last entry, read only
    when that is a regular file. An archive of more than `MAX_MEMBERS` entries raises
    `ArchiveError` (saying to extract it)."""
    path = os.fspath(path)
    opened = _archive(path, kind)
    return [
        Member(f"{path}/{name}", functools.partial(_open_member, path, kind, name))
        for name in opened.files
        if _wanted(name)
    ]


def _open_member(path: str, kind: str, name: str) -> BinaryIO:
    """A member's bytes, decompressed when it is itself a compressed stream; the archive
    is opened (its directory read) once, not once per member."""
    opened = _archive(path, kind)
    info = opened.files.get(name)
    if info is None:
        raise ArchiveError(f"{name} is not a file in {path}")
    if isinstance(opened.box, zipfile.ZipFile):
        assert isinstance(info, zipfile.ZipInfo)
        return _decompressed(cast(BinaryIO, opened.box.open(info)))
    assert isinstance(info, tarfile.TarInfo)
    f = opened.box.extractfile(info)
    if f is None:
        raise ArchiveError(f"{name} is not a file in {path}")
    return _decompressed(cast(BinaryIO, f))


def _decompressed(f: BinaryIO) -> BinaryIO:
    """A member that is itself a compressed stream (`x.txt.gz` inside a zip), opened;
    streamed, never read whole (a member may expand to far more than memory)."""
    head = f.read(8)
    f.seek(0)
    for magic, (_, _, open_file) in _STREAMS.items():
        if head.startswith(magic):
            return cast(BinaryIO, open_file(f))
    return f


@dataclass(frozen=True, slots=True)
class _Opened:
    """An open archive and its regular files by name (the last entry of a name)."""

    box: zipfile.ZipFile | tarfile.TarFile
    files: dict[str, zipfile.ZipInfo | tarfile.TarInfo]
    stream: BinaryIO | None = None  # a compressed tar's decompressed bytes

    def close(self) -> None:
        self.box.close()
        if self.stream is not None:
            self.stream.close()


# archives open in this process, most recently used last, per thread (a tar's reads move
# one shared file position): reading an archive's members one after the other, or a
# member again by its name, reads the archive's directory once
_OPEN: OrderedDict[tuple[int, str, str, int, int, int], _Opened] = OrderedDict()
_OPEN_LOCK = threading.Lock()
_KEEP_OPEN = 8


def _archive(path: str, kind: str) -> _Opened:
    st = os.stat(path)
    key = (threading.get_ident(), kind, path, st.st_ino, st.st_size, st.st_mtime_ns)
    with _OPEN_LOCK:
        opened = _OPEN.get(key)
        if opened is not None:
            _OPEN.move_to_end(key)
            return opened
    opened = _open_zip(path) if kind == "zip" else _open_tar(path)
    with _OPEN_LOCK:
        _OPEN[key] = opened
        while len(_OPEN) > _KEEP_OPEN:
            _OPEN.popitem(last=False)[1].close()
    return opened


@atexit.register
def _close_all() -> None:
    with _OPEN_LOCK:
        while _OPEN:
            _OPEN.popitem()[1].close()


def _too_many(kind: str, n: int | None) -> ArchiveError:
    """An archive of more entries than `MAX_MEMBERS` (n: how many, when known)."""
    many = f"{n:,}" if n is not None else f"more than {MAX_MEMBERS:,}"
    return ArchiveError(
        f"a {kind} archive of {many} entries, and histkit reads at most {MAX_MEMBERS:,} "
        "in one archive; extract its files first"
    )


def _open_zip(path: str) -> _Opened:
    with open(path, "rb") as f:
        declared = _zip_entries(f)
    if declared > MAX_MEMBERS:  # said before the directory is read into memory
        raise _too_many("zip", declared)
    z = zipfile.ZipFile(path)
    entries = z.infolist()
    if len(entries) > MAX_MEMBERS:
        z.close()
        raise _too_many("zip", len(entries))
    files: dict[str, zipfile.ZipInfo | tarfile.TarInfo] = {}
    for info in entries:
        files.pop(info.filename, None)
        if not info.is_dir():
            files[info.filename] = info
    return _Opened(z, files)


def _zip_entries(f: BinaryIO) -> int:
    """The number of entries a zip's end record declares (0 when there is none: opening
    it says what is wrong)."""
    size = f.seek(0, os.SEEK_END)
    tail_size = min(size, _ZIP_END_MAX)
    f.seek(size - tail_size)
    tail = f.read(tail_size)
    at = tail.rfind(b"PK\x05\x06")
    if at < 0 or len(tail) - at < 22:
        return 0
    count = int.from_bytes(tail[at + 10 : at + 12], "little")
    if count == 0xFFFF and at >= 20 and tail[at - 20 : at - 16] == b"PK\x06\x07":
        f.seek(int.from_bytes(tail[at - 12 : at - 4], "little"))  # the zip64 end record
        record = f.read(56)
        if record.startswith(b"PK\x06\x06") and len(record) == 56:
            count = int.from_bytes(record[32:40], "little")
    return count


_ZIP_END_MAX = 22 + 0xFFFF  # the end record and the longest archive comment


def _open_tar(path: str) -> _Opened:
    with open(path, "rb") as f:
        compressed = stream_kind(f.read(8)) is not None
    stream: BinaryIO | None = None
    if compressed:  # moving back (to a member read again) must not decompress from the start
        stream = cast(BinaryIO, io.BufferedReader(_Window(_open_stream(path)), _TAR_BUFFER))
    files: dict[str, zipfile.ZipInfo | tarfile.TarInfo] = {}
    n = 0
    try:
        # kept open in `_OPEN`, closed when it leaves it
        t = tarfile.open(path, "r:", fileobj=stream)  # noqa: SIM115
    except BaseException:
        if stream is not None:
            stream.close()
        raise
    try:
        while (m := t.next()) is not None:
            n += 1
            if n > MAX_MEMBERS:
                raise _too_many("tar", None)
            cast(Any, t).members.clear()  # tarfile keeps every entry; here only the files
            files.pop(m.name, None)
            if m.isfile():
                files[m.name] = m
    except BaseException:
        _Opened(t, files, stream).close()
        raise
    return _Opened(t, files, stream)


_TAR_BUFFER = 1 << 16


class _Window(io.RawIOBase):
    """A decompressed stream that can move back up to `keep` bytes without decompressing
    from the start (a compressed stream's own backward seek starts over): a tar's member
    is read again right after its first bytes were."""

    def __init__(self, f: BinaryIO, keep: int = 1 << 20) -> None:
        super().__init__()
        self.f = f
        self.keep = keep
        self.buf = bytearray()  # the stream's bytes [end - len(buf), end)
        self.end = 0  # bytes read from f
        self.pos = 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self.pos

    def seek(self, offset: int, whence: int = os.SEEK_SET) -> int:
        if whence == os.SEEK_CUR:
            offset += self.pos
        elif whence == os.SEEK_END:
            while self._more():
                pass
            offset += self.end
        if offset < self.end - len(self.buf):  # before the window: start over
            self.f.seek(0)
            self.buf.clear()
            self.end = 0
        self.pos = max(offset, 0)
        return self.pos

    def _more(self) -> bool:
        data = self.f.read(_TAR_BUFFER)
        if not data:
            return False
        self.buf += data
        self.end += len(data)
        if len(self.buf) > 2 * self.keep:
            del self.buf[: len(self.buf) - self.keep]
        return True

    def readinto(self, b: Any) -> int:
        while self.pos >= self.end:
            if not self._more():
                return 0
        at = self.pos - (self.end - len(self.buf))
        n = min(len(b), len(self.buf) - at)
        b[:n] = self.buf[at : at + n]
        self.pos += n
        return n

    def close(self) -> None:
        if not self.closed:
            self.f.close()
        super().close()


def open_source(source: str) -> BinaryIO:
    """The bytes of a source as the reader names it: a plain file, a compressed stream
    (decompressed), or `<archive>/<member>` (the member's bytes)."""
    if os.path.isfile(source):
        return _open_stream(source)
    for archive, member in _splits(source):
        with open(archive, "rb") as f:
            head = f.read(4096)
        kind = container_kind(archive, head)
        if kind is not None:
            return _open_member(archive, kind, member)
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
