"""What an import does with each file, decided before any hand is parsed: skip it (at the
cost of a `stat` call), read it, read on from where the last import stopped, or read it
again — and which of its text is complete enough to keep.

**Grown or changed.** A file whose size and modification time are those `files` holds is
skipped. Otherwise, for a text file, the next import reads on from `consumed_bytes` (the
start of line `consumed_lines + 1`) if the file is at least that long and the SHA-256 of
its bytes [0, consumed_bytes) is still `prefix_sha256`: a full hash, which costs about
1 ms per MB here (1.5 GB/s), a few hundred times less than parsing the same bytes, and
sees any change, not just one at the ends. Else the file changed: its old rows are removed
and it is read again whole. Files whose lines are not LF counts (UTF-16, old Mac CR line
ends), XML files and unreadable ones are "whole" files: read again whole whenever they
change. Their `prefix_sha256` is the hash of the whole file (their bytes consumed): one whose
`stat` changed but whose bytes did not (touched, copied again) is not read again, only its
`files` row brought up to date (`TOUCH`).

**Ends cleanly.** A text file is cut into blocks as `histkit parse` cuts it (a blank line,
or a hand header, ends a block; two blank lines in a double-spaced file). Its last block is
*open* when only the end of the file ends it. An open block is held back when it starts
with a hand header, or when its last line has no line end yet (it may be the start of a
header); any other open block (text that is not a hand, a complete line) is final. What is
held back is the *open hand*:

- if the open hand parses as a hand, it is stored *provisionally*: clients write a hand at
  once and then blank lines, so it is most likely complete, and a finished file whose last
  hand has no blank line (or no line end) after it loses nothing; but the next import reads
  on from its first line, so if the file grew and the hand's text changed (it was cut), the
  stored copy is replaced;
- otherwise it is *pending*: nothing of it is stored, no rejection is recorded, and the
  next import that finds the file grown reads it again. `histkit db` lists pending hands.

So a file written hand by hand, imported after each write, ends with exactly the hands of
the complete file. In an XML file a hand is complete when its element is closed; a hand
element the file ends inside is pending, not rejected.

Everything is decided from the file as one `stat` saw it: text a writer appended while
the import ran is left for the next one (see `FilePlan.held_line`).

**Same size, same time.** The `stat` that skips a file compares its size, modification
time and change time (`st_ctime_ns`: a write, or setting the modification time back,
moves it, and no program can set it). Time stamps are coarse (a few ms on Linux, 2 s on
FAT), so a file rewritten with the same size within the tick it was read in keeps all
three: a file whose modification or change time was within `RACY_NS` of the moment it was
looked at is *racy* (as git calls it), and the next import compares its bytes (the hashes
above) however its `stat` looks, reading it again only if they changed.
"""

from __future__ import annotations

import hashlib
import os
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import BinaryIO, TypeVar, cast

from histkit.dialects import Detector
from histkit.reader import Chunk, Span, file_dialect, iter_chunks
from histkit.reading.decode import FALLBACK_ENCODING, binary_file
from histkit.reading.split import Splitter, cut_points
from histkit.reading.xmlstream import looks_like_xml

__all__ = [
    "GONE",
    "NEW",
    "REREAD",
    "RESUME",
    "SKIP",
    "TOUCH",
    "FilePlan",
    "Known",
    "bounded",
    "file_chunks",
    "plan_file",
    "unchanged",
]

SKIP, NEW, RESUME, REREAD = "skip", "new", "resume", "reread"
TOUCH = "touch"  # a whole file whose stat changed but not its bytes: its row updated
GONE = "gone"  # a file imported before that is no longer there: its hands removed
TEXT, WHOLE = "text", "whole"
FORCE_REREAD = -1  # `files.mtime_ns` of a file to read again whole (schema.REREAD)

_HEAD = 4096
_PIECE = 1 << 20
_TAIL = 1 << 14  # first look for the last hand header in the last 16 KB (a hand: ~2 KB)
SPAN_BYTES = 1 << 20  # byte ranges parsed as one chunk (as `histkit parse --jobs`)
_LONE_CR = re.compile(rb"\r(?!\n)")
#: a file changed this close to the moment it was looked at may change again within the
#: same time stamp (FAT keeps modification times to 2 s): its bytes are compared next time
RACY_NS = 3_000_000_000
_T = TypeVar("_T", str, bytes)


@dataclass(frozen=True)
class Known:
    """What `files` holds of a file from the imports before."""

    size: int
    mtime_ns: int
    consumed_bytes: int
    consumed_lines: int
    prefix_sha256: str | None
    mode: str
    audited: bool = True
    ctime_ns: int | None = None  # None: imported before histkit kept it (compared once)
    racy: bool = False  # changed just before it was read: its bytes are compared next time


@dataclass(frozen=True)
class FilePlan:
    """What to do with one file. Reading starts at byte `start` (line `start_line`);
    afterwards the file is consumed up to `consumed` (line `consumed_lines` ends there).
    What the parse gives at or after `held_line` is held back: the open hand there
    (`open_hand`) is stored provisionally when it parses (an XML hand: never, its element
    is not closed), else it is pending; anything else there (text appended after the
    `stat`) is left for the next import. None: nothing held back."""

    path: str
    action: str
    size: int
    mtime_ns: int
    mode: str = WHOLE
    start: int = 0
    start_line: int = 1
    consumed: int = 0
    consumed_lines: int = 0
    prefix_sha256: str | None = None
    held_line: int | None = None
    open_hand: bool = False
    header_done: bool = False  # the open hand's first line is whole (a line end after it)
    xml: bool = False
    # read only up to `size` (a hand header): the rest is left for the next import, which
    # finds the file longer than `files.size` says and reads on (see `bounded`)
    bounded: bool = False
    ctime_ns: int = -1  # the change time the stat saw
    racy: bool = False  # changed within RACY_NS of the stat: compared by its bytes next time

    @property
    def forget_from(self) -> int | None:
        """Rows of the file from this line on are removed before reading (None: none)."""
        if self.action in (REREAD, GONE):
            return 1
        if self.action == RESUME:
            return self.start_line
        return None

    def read_bytes(self) -> int:
        return max(self.size - self.start, 0)


def unchanged(path: str, known: Known | None, *, audit: bool = False) -> FilePlan | None:
    """The plan to skip `path` if one `stat` shows it unchanged since the last import
    (None: it is to be planned with `plan_file`)."""
    if known is None or (audit and not known.audited) or known.mtime_ns == FORCE_REREAD:
        return None
    try:
        st = os.stat(path)
    except OSError:
        return None
    if not _same_stat(known, st):
        return None
    return FilePlan(path, SKIP, st.st_size, st.st_mtime_ns, known.mode, ctime_ns=st.st_ctime_ns)


def _same_stat(known: Known, st: os.stat_result) -> bool:
    """Whether a `stat` shows the file as the last import left it, so it is skipped: the
    same size, modification and change time, and not racy (see the module doc)."""
    if known.racy or known.ctime_ns is None:
        return False  # its bytes are compared
    return (known.size, known.mtime_ns, known.ctime_ns) == (
        st.st_size,
        st.st_mtime_ns,
        st.st_ctime_ns,
    )


def plan_file(path: str, known: Known | None, starts: Detector, *, audit: bool = False) -> FilePlan:
    """What to do with `path` given what the imports before knew of it (None: nothing).
    `audit`: the import audits, so a file whose hands were stored without it is read
    again. The plan carries the change time the stat saw, and whether the file is racy."""
    looked = time.time_ns()
    try:
        st = os.stat(path)
    except OSError:
        st = None
    plan = _plan(path, known, starts, st, audit=audit)
    if st is None:
        return plan
    racy = max(st.st_mtime_ns, st.st_ctime_ns) >= looked - RACY_NS
    return replace(plan, ctime_ns=st.st_ctime_ns, racy=racy)


def _plan(
    path: str, known: Known | None, starts: Detector, st: os.stat_result | None, *, audit: bool
) -> FilePlan:
    """`plan_file` for the `stat` taken (None: it failed)."""
    if known is not None and audit and not known.audited:
        known = replace(known, mtime_ns=FORCE_REREAD)
    fresh = NEW if known is None else REREAD
    if st is None:
        return FilePlan(path, fresh, -1, -1)  # the reader reports why it cannot be read
    if known is not None and _same_stat(known, st):
        return FilePlan(path, SKIP, st.st_size, st.st_mtime_ns, known.mode)
    size, mtime = st.st_size, st.st_mtime_ns
    try:
        with open(path, "rb") as f:
            if (
                known is not None
                and known.mode == WHOLE
                and known.mtime_ns != FORCE_REREAD
                and known.prefix_sha256
                and size == known.consumed_bytes
                and _sha256(f, size) == known.prefix_sha256
            ):
                same = known.prefix_sha256
                return FilePlan(path, TOUCH, size, mtime, WHOLE, consumed=size, prefix_sha256=same)
            if (
                known is not None
                and known.mode == TEXT
                and known.mtime_ns != FORCE_REREAD
                and known.prefix_sha256
                and size >= known.consumed_bytes
            ):
                resumed = _text_plan(
                    f,
                    path,
                    size,
                    mtime,
                    starts,
                    start=known.consumed_bytes,
                    start_line=known.consumed_lines + 1,
                    expect=known.prefix_sha256,
                )
                if resumed is not None:
                    return resumed
            f.seek(0)
            head = f.read(_HEAD)
            if not _whole_file(head) and file_dialect(path, head, starts) is None:
                plan = _text_plan(f, path, size, mtime, starts, start=0, start_line=1)
                if plan is not None:
                    return replace(plan, action=fresh)
            return _whole_plan(path, size, mtime, head, starts, fresh)
    except OSError:
        return FilePlan(path, fresh, size, mtime)


def _whole_file(head: bytes) -> bool:
    """Files whose lines are not LF counts, or that are not text: read whole."""
    if head.startswith((b"\xff\xfe", b"\xfe\xff")) or binary_file(head) is not None:
        return True
    if _LONE_CR.search(head.removesuffix(b"\r")):  # a CR at the end may be half a CRLF
        return True
    return looks_like_xml(head.decode("utf-8", errors="replace"))


def _whole_plan(
    path: str, size: int, mtime: int, head: bytes, starts: Detector, action: str
) -> FilePlan:
    try:
        with open(path, "rb") as f:
            digest = _sha256(f, size)
    except OSError:
        digest = None  # the reader reports it
    plan = FilePlan(path, action, size, mtime, WHOLE, consumed=size, prefix_sha256=digest)
    if binary_file(head) is not None:
        return plan
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        xml = looks_like_xml(head.decode("utf-16", errors="replace"))
    else:
        xml = looks_like_xml(head.decode("utf-8", errors="replace"))
    try:
        text, whole = _decoded(path)
    except OSError:
        return plan  # the reader reports it
    if xml:
        held = _open_element(text, whole, starts)
        if held is None:
            return replace(plan, xml=True)
        return replace(plan, xml=True, held_line=held, open_hand=True)
    ends = whole and text.endswith("\n")
    held, open_hand, done = _open_block(_whole_lines(text.split("\n"), ends), ends, starts)
    if held is None or not open_hand:
        return plan
    return replace(plan, held_line=held, open_hand=True, header_done=done)


def _open_element(text: str, whole: bool, starts: Detector) -> int | None:
    """The line from which an XML file is not complete yet: where its last hand element
    starts if the file does not close it, or its last line if it is cut inside a tag or
    a character (None: neither)."""
    from histkit.dialects.xmlbase import XmlDialect

    tags = sorted({t for d in starts.dialects if isinstance(d, XmlDialect) for t in d.hand_tags})
    at: int | None = None
    if tags:
        names = "|".join(re.escape(t) for t in tags)
        opened = [m.start() for m in re.finditer(f"<(?:{names})[\\s/>]", text)]
        closed = [m.end() for m in re.finditer(f"</(?:{names})\\s*>", text)]
        if opened and (not closed or closed[-1] < opened[-1]):
            at = opened[-1]
    if not (whole and text.rstrip().endswith(">")):
        partial = text.rfind("\n") + 1
        at = partial if at is None else min(at, partial)
    return None if at is None else text.count("\n", 0, at) + 1


def _decoded(path: str) -> tuple[str, bool]:
    """A whole-mode text file's text with LF line ends, and whether it ends on a whole
    character (a UTF-16 file being written may end inside one)."""
    with open(path, "rb") as f:
        data = f.read()
    whole = True
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        if len(data) % 2:  # a stray odd byte after the last line end (seen in real files)
            data = data[:-1]
            whole = data.endswith(b"\n\x00" if data.startswith(b"\xff\xfe") else b"\x00\n")
        text = data.decode("utf-16", errors="replace")
    else:
        text = _decode(data)
    return text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n"), whole


def _whole_lines(pieces: list[_T], ends: bool) -> list[_T]:
    """The lines of text split at its line ends: without the empty piece after the last
    line end, nor a last line without a line end that is blank so far (it says nothing
    yet: it may become a line of text)."""
    if pieces and (ends or not pieces[-1].strip()):
        return pieces[:-1]
    return pieces


def _text_plan(
    f: BinaryIO,
    path: str,
    size: int,
    mtime: int,
    starts: Detector,
    *,
    start: int,
    start_line: int,
    expect: str | None = None,
) -> FilePlan | None:
    """The plan for a text file read from `start`; None if it is not one whose lines are
    LF counts, or (`expect`) if its bytes before `start` are not those read before."""
    tail_at, tail = _tail(f, start, size, starts)
    if _LONE_CR.search(tail):
        return None
    ends = tail.endswith(b"\n")
    raw = _whole_lines(tail.split(b"\n"), ends)
    lines = [_decode(r.removesuffix(b"\r")) for r in raw]
    complete = tail_at + tail.rfind(b"\n") + 1  # the end of the last whole line
    held, open_hand, done = _open_block(lines, ends, starts)
    if held is not None and open_hand:
        consumed = tail_at + sum(len(r) + 1 for r in raw[: held - 1])
    else:
        consumed = complete
        open_hand = False

    digest = hashlib.sha256()
    f.seek(0)
    if expect is not None:
        for piece in _pieces(f, start):
            digest.update(piece)
        if digest.hexdigest() != expect:
            return None
    lf = lone = 0
    cr_end = False
    for piece in _pieces(f, consumed - start):
        digest.update(piece)
        lf += piece.count(b"\n")
        lone += piece.count(b"\r") - piece.count(b"\r\n") - (cr_end and piece[:1] == b"\n")
        cr_end = piece.endswith(b"\r")
    if lone:
        return None
    lines_before = start_line - 1 + lf
    return FilePlan(
        path,
        RESUME,
        size,
        mtime,
        TEXT,
        start=start,
        start_line=start_line,
        consumed=consumed,
        consumed_lines=lines_before,
        prefix_sha256=digest.hexdigest(),
        held_line=lines_before + 1,
        open_hand=open_hand,
        header_done=open_hand and done,
    )


def _sha256(f: BinaryIO, n: int) -> str:
    """The SHA-256 of the file's first `n` bytes (OSError if it has fewer now)."""
    digest = hashlib.sha256()
    f.seek(0)
    for piece in _pieces(f, n):
        digest.update(piece)
    return digest.hexdigest()


def _pieces(f: BinaryIO, n: int) -> Iterator[bytes]:
    while n > 0:
        data = f.read(min(_PIECE, n))
        if not data:
            raise OSError("the file shrank while it was read")
        n -= len(data)
        yield data


def _decode(raw: bytes) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode(FALLBACK_ENCODING, errors="replace")


def _tail(f: BinaryIO, lo: int, size: int, starts: Detector) -> tuple[int, bytes]:
    """(offset, bytes) of the file from its last hand header line at or after `lo` (or
    from `lo` when there is none) to `size`: all blocks before it are closed, since a
    header always starts a block."""
    window = _TAIL
    prefixes = [b"\n" + p.encode("utf-8") for p in starts.prefixes]
    while True:
        at = max(lo, size - window)
        f.seek(at)
        buf = f.read(size - at)
        data = b"\n" + buf if at == lo else buf  # `lo` is a line start
        shift = 1 if at == lo else 0
        hi = len(data)
        while True:
            found = [i for i in (data.rfind(p, 0, hi) for p in prefixes) if i >= 0]
            if not found:
                break
            i = max(found)
            end = data.find(b"\n", i + 1)
            line = data[i + 1 : end if end >= 0 else len(data)].removesuffix(b"\r")
            if end >= 0 and starts.is_header(_decode(line).lstrip("\ufeff")):
                begin = at + i + 1 - shift
                return begin, buf[begin - at :]
            hi = i  # only looks like a header: look before it
        if at == lo:
            return lo, buf
        window *= 8


def _open_block(lines: list[str], ends: bool, starts: Detector) -> tuple[int | None, bool, bool]:
    """(the first line of the last block if only the end of the text ends it, whether it
    is held back as the open hand, whether its first line is whole): held back when it
    starts with a hand header, or when its last line has no line end yet (`ends`: the text
    ends with a line end). `lines`: as `_whole_lines`."""
    split = Splitter(starts)
    for _ in split.lines(lines):
        pass
    rest = list(split.finish())
    if not rest:
        return None, False, False
    block = rest[-1]
    first = block.lines[0]
    header = first.startswith(starts.prefixes) and starts.is_header(first)
    return block.start_line, header or not ends, ends or len(block.lines) > 1


def bounded(plan: FilePlan, limit: int, starts: Detector) -> FilePlan:
    """The plan reading at most about `limit` bytes of a text file: up to its first hand
    header at or after `start + limit`, the rest left for the next import (so a batch of
    `histkit watch` stays short however large the file). The plan itself when it reads
    less, or reads a whole file (XML, UTF-16: read whole or not at all)."""
    if plan.mode != TEXT or plan.action == SKIP or plan.consumed - plan.start <= limit:
        return plan
    try:
        with open(plan.path, "rb") as f:
            window = _Window(f, plan.start, plan.consumed)
            found = cut_points(cast(BinaryIO, window), limit, starts)
            if not found:
                return plan
            at, line = found[0]
            cut, header_line = plan.start + at, plan.start_line - 1 + line
            digest = _sha256(f, cut)
    except OSError:
        return plan  # the reader reports it
    return replace(
        plan,
        size=cut,
        consumed=cut,
        consumed_lines=header_line - 1,
        prefix_sha256=digest,
        held_line=header_line,
        open_hand=False,
        header_done=False,
        bounded=True,
    )


def file_chunks(plan: FilePlan, *, site: str | None, span_bytes: int | None) -> Iterator[Chunk]:
    """The chunks to parse for `plan`: byte ranges of a text file from `plan.start` (cut
    at hand headers about every `SPAN_BYTES`, as `histkit parse --jobs` cuts files), or
    the chunks `histkit parse` makes of a whole file."""
    if plan.mode == WHOLE:
        yield from iter_chunks([plan.path], site=site, span_bytes=span_bytes, containers=False)
        return
    from histkit.dialects import detector

    cuts: list[tuple[int, int]] = []
    if plan.size - plan.start > SPAN_BYTES:  # a shorter range has no cut: not read to look
        try:
            with open(plan.path, "rb") as f:
                window = _Window(f, plan.start, plan.size)
                found = cut_points(cast(BinaryIO, window), SPAN_BYTES, detector(site))
                cuts = [(plan.start + at, plan.start_line - 1 + line) for at, line in found or ()]
        except OSError:
            pass  # the reader reports it
    bounds = [(plan.start, plan.start_line), *cuts]
    last = plan.size if plan.bounded else None
    for (begin, line), (end, _) in zip(bounds, [*cuts, (last, 0)], strict=True):
        yield Chunk(plan.path, span=Span(begin, end, line))


class _Window:
    """Bytes [start, end) of an open file, as a file of their own (for `cut_points`)."""

    def __init__(self, f: BinaryIO, start: int, end: int) -> None:
        self.f, self.start, self.end, self.pos = f, start, end, 0

    def read(self, n: int = -1) -> bytes:
        left = self.end - self.start - self.pos
        n = left if n < 0 else min(n, left)
        self.f.seek(self.start + self.pos)
        data = self.f.read(max(n, 0))
        self.pos += len(data)
        return data

    def seek(self, pos: int, whence: int = 0) -> int:
        self.pos = pos
        return pos
