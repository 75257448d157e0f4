"""Read hand-history files and folders into `Hand`s, streaming, with an account of the rest.

`iter_hands` yields, in input order, a `Hand` for every stud-family hand and a `ParseIssue`
for everything else: a hand of another game (skipped), a stud hand that cannot be parsed
or has a damaged line (bytes that are not text), text between hands, an empty file
(rejected), a file that cannot be read or is binary (unreadable). One bad hand never costs
the good ones, and nothing raises for bad input.

Streaming: files are read one at a time, line by line, and each hand is produced as soon
as its block ends, so memory is bounded by a hand, not by a file or a folder.
"""

from __future__ import annotations

import io
import os
import re
import zlib
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

from histkit.dialects import Detector, Dialect, detector, get_dialect
from histkit.dialects.filebase import FileDialect
from histkit.dialects.sink import clip_line
from histkit.dialects.xmlbase import XmlDialect
from histkit.model import Hand
from histkit.reading.archive import (
    ARCHIVE_SUFFIXES,
    HAND_HISTORY_SUFFIXES,
    NAMED_SUFFIXES,
    OPENED_SUFFIXES,
    container_kind,
    open_source,
    stream_kind,
)
from histkit.reading.archive import ERRORS as ARCHIVE_ERRORS
from histkit.reading.archive import members as archive_members
from histkit.reading.decode import (
    Damage,
    DamagedLine,
    UnreadableFile,
    binary_file,
    decode_bytes,
)
from histkit.reading.split import (
    HandBlock,
    ParseIssue,
    cut_points,
    file_blocks,
    file_lines,
    text_blocks,
)
from histkit.reading.xmlstream import looks_like_xml

if TYPE_CHECKING:
    from histkit.storage import Remote

Site = str | Dialect | None  # a site's name or dialect to force one; None: detect each hand

__all__ = [
    "Chunk",
    "ParseIssue",
    "Span",
    "file_dialect",
    "folder_contents",
    "iter_chunks",
    "iter_files",
    "iter_hands",
    "parse_blocks",
    "parse_chunk",
    "parse_text",
    "read_file_text",
    "sniff_sites",
    "strictly",
]


def read_file_text(path: str | Path, *, fallback: str = "cp1252") -> str:
    """A file's text with LF line ends: UTF-8 with or without BOM, UTF-16 with BOM, else
    cp1252. Raises `UnreadableFile` for binary data and `OSError` when it cannot be read."""
    with open(path, "rb") as f:
        data = f.read()
    return decode_bytes(data, fallback=fallback)


_FOLDER_SUFFIXES = HAND_HISTORY_SUFFIXES + ARCHIVE_SUFFIXES  # archives: read, or named


def folder_contents() -> str:
    """What `iter_files` reads in a folder, for messages ("no hand histories in ..."):
    said from the suffixes it decides by, so a message cannot fall behind them."""
    files = ", ".join(f"*{s}" for s in HAND_HISTORY_SUFFIXES)
    opened = ", ".join(OPENED_SUFFIXES)
    named = " and ".join(NAMED_SUFFIXES)
    return f"{files}, also compressed or archived ({opened}; {named} named, to extract first)"


def iter_files(paths: Iterable[str | Path]) -> Iterator[Path]:
    """Files in input order. A file named on its own is always read; inside a folder
    (walked recursively, sorted) only hand-history files (`HAND_HISTORY_SUFFIXES`: `*.txt`
    and `*.xml`, as the sites write them, and PHH's `*.phh` and `*.phhs`) and archives
    (`ARCHIVE_SUFFIXES`: read through, or named when histkit cannot open them) are, so a
    README or a sidecar beside them is not mistaken for a broken hand. Hidden files and
    folders (".DS_Store", ".git") are left out."""
    for p in paths:
        path = Path(p)
        if path.is_dir():
            found: list[Path] = []
            for root, dirs, files in os.walk(path):
                dirs[:] = [d for d in dirs if not d.startswith(".")]
                found.extend(
                    Path(root) / f
                    for f in files
                    if not f.startswith(".") and f.lower().endswith(_FOLDER_SUFFIXES)
                )
            yield from sorted(found, key=lambda f: f.relative_to(path).parts)
        else:
            yield path


@dataclass(frozen=True, slots=True)
class Span:
    """A byte range of a file that parses on its own: it starts at the file's start or at
    one of the dialect's `cut_points` (a hand header line, `first_line`), and ends at the
    next or at the end (`end` None). `whole`: the range is the whole file."""

    start: int
    end: int | None
    first_line: int

    @property
    def whole(self) -> bool:
        return self.start == 0 and self.end is None


@dataclass(frozen=True, slots=True)
class Chunk:
    """A unit of reading work: consecutive hand blocks of one file, a byte range of one
    file that the worker reads itself (`span`, for --jobs: the parent only finds where to
    cut), or one file-level issue (unreadable, empty). `iter_hands` parses chunks in order
    in this process; `histkit.parallel` sends chunks to worker processes; both give the
    same results in the same order."""

    source: str
    blocks: tuple[HandBlock, ...] = ()
    issue: ParseIssue | None = None
    span: Span | None = None
    whole: bool = False  # the blocks are the whole file (a file of no site's hands is one)
    xml: str | None = None  # an XML site's file, read whole by that dialect (its name)
    file_dialect: str | None = None  # a file a FileDialect (PHH) claims and reads whole
    nbytes: int = 0  # bytes of the file it accounts for (progress); see `chunk_bytes`


def chunk_bytes(chunk: Chunk) -> int:
    """How many bytes of input a chunk covers, for a progress bar's share: a byte range's
    length, else what the reader recorded (the file read up to its last block)."""
    span = chunk.span
    if span is None:
        return chunk.nbytes
    end = span.end
    if end is None:
        try:
            end = os.stat(chunk.source).st_size
        except OSError:
            return 0
    return max(0, end - span.start)


def iter_chunks(
    paths: Iterable[str | Path],
    *,
    site: Site = None,
    max_blocks: int | None = None,
    span_bytes: int | None = None,
    containers: bool = True,
) -> Iterator[Chunk]:
    """The input as chunks of at most `max_blocks` blocks (None: as few as possible while
    streaming). A chunk is cut only before a block that starts a hand, so a run of junk
    text between hands is never split and is reported once, as in one pass.

    `span_bytes`: byte-range chunks of about that size instead, for worker processes (the
    parent reads each file once to find the cuts, and decodes and splits nothing); files
    that cannot be cut (UTF-16) come as block chunks. `site`: read every file as that
    site's (None: each hand's site is detected from its first line). Compressed files
    are read through their decompressor (`histkit.reading.archive`), the members of a ZIP
    or tar archive as files of their own (`containers` False: an archive is reported as
    one unreadable file, to be extracted first)."""
    starts = detector(site)
    size = max_blocks or _STREAM_BLOCKS
    for path in _input_files(paths):
        source = str(path)
        try:
            if not path.exists():
                raise FileNotFoundError(2, _missing(path))
            if not path.is_file():
                raise OSError(21, "not a regular file")
            with path.open("rb") as f:
                head = f.read(_HEAD)
            kind = container_kind(path, head) if isinstance(path, Path) else None
            if kind is not None:
                if containers:
                    yield from _member_chunks(source, kind, starts, size)
                else:
                    why = f"unreadable file: a {kind} archive; extract its files to import them"
                    yield Chunk(source, issue=_unreadable(source, None, why))
                continue
            if stream_kind(head) is not None and isinstance(path, Path):
                yield from _compressed_chunks(source, starts, size)
                continue
            claimed = _claimed(source, path.name, head, starts, _size(path))
            cuts = None
            if claimed is None and span_bytes is not None:
                with path.open("rb") as f:
                    cuts = cut_points(f, span_bytes, starts)
        except OSError as e:
            yield _os_issue(source, e)
            continue
        if claimed is not None:
            yield claimed
            continue
        if cuts is None:
            try:
                with path.open("rb") as f:
                    yield from _file_chunks(source, f, starts, size)
            except OSError as e:
                yield _os_issue(source, e)
            continue
        bounds = [(0, 1), *cuts]
        for (start, line), (end, _) in zip(bounds, [*cuts, (None, 0)], strict=True):
            yield Chunk(source, span=Span(start, end, line))


_HEAD = 4096  # the first bytes of a file: binary or text, XML or not


def _claimed(source: str, name: str, head: bytes, starts: Detector, size: int) -> Chunk | None:
    """The one chunk of a file judged whole from its first bytes: binary (one unreadable
    file), XML of a site, or a file a `FileDialect` reads whole (PHH); None for text that
    is cut into blocks or byte ranges."""
    what = binary_file(head)
    if what is not None:
        reason = f"unreadable file: {what}, not a text hand history"
        return Chunk(source, issue=_unreadable(source, None, reason))
    xml = _xml_dialect(head, starts)
    if xml is not None:
        return Chunk(source, xml=xml, nbytes=size)
    whole = file_dialect(name, head, starts)
    if whole is not None:
        return Chunk(source, file_dialect=whole, nbytes=size)
    return None


def _compressed_chunks(source: str, starts: Detector, size: int) -> Iterator[Chunk]:
    """A compressed file's chunks, read through its decompressor (never cut into byte
    ranges: a compressed stream cannot be entered in the middle)."""
    yield from _opened_chunks(source, lambda: open_source(source), starts, size)


def _member_chunks(source: str, kind: str, starts: Detector, size: int) -> Iterator[Chunk]:
    """The chunks of each hand-history file in a ZIP or tar archive, named
    `<archive>/<member>`; an archive with none is one issue saying so."""
    try:
        found = archive_members(source, kind)
    except ARCHIVE_ERRORS as e:
        yield Chunk(source, issue=_unreadable(source, None, f"unreadable {kind} archive: {e}"))
        return
    if not found:
        files = ", ".join(f"*{s}" for s in HAND_HISTORY_SUFFIXES)
        why = f"a {kind} archive with no hand histories in it ({files})"
        yield Chunk(source, issue=ParseIssue(source, None, None, None, "unknown", why))
        return
    for member in found:
        yield from _opened_chunks(member.source, member.open, starts, size)


def _opened_chunks(
    source: str, opener: Callable[[], BinaryIO], starts: Detector, size: int
) -> Iterator[Chunk]:
    """Chunks of a file read through `opener` (decompressed bytes), as a plain file's."""
    try:
        with opener() as f:
            head = f.read(_HEAD)
        name = source.rsplit("/", 1)[-1]
        for suffix in (".gz", ".bz2", ".xz"):  # "x.phh.gz" is read as "x.phh"
            name = name.removesuffix(suffix)
        claimed = _claimed(source, name, head, starts, 0)
        if claimed is not None:
            yield claimed
            return
        with opener() as f:
            yield from _file_chunks(source, f, starts, size)
    except ARCHIVE_ERRORS as e:
        yield Chunk(source, issue=_unreadable(source, None, f"unreadable compressed data: {e}"))


def _size(path: Path | Remote) -> int:
    """A local file's size (0 for a file at a URL, or one that cannot be stat'ed)."""
    if not isinstance(path, Path):
        return 0
    try:
        return path.stat().st_size
    except OSError:
        return 0


def sniff_sites(paths: Iterable[str | Path], *, files: int = 20) -> list[str]:
    """The dialects (names) whose hands start in the first 64 KB of the first `files`
    files of `paths`, detected as without --site, in the order found: to say what a file
    read with the wrong --site looks like. Files that cannot be read add nothing."""
    starts = detector(None)
    found: dict[str, None] = {}
    for n, path in enumerate(iter_files(paths)):
        if n >= files:
            break
        try:
            with open_source(str(path)) as f:
                data = f.read(1 << 16)
        except ARCHIVE_ERRORS:
            continue
        head = data[:_HEAD]
        if binary_file(head) is not None:
            continue
        whole = _xml_dialect(head, starts) or file_dialect(path.name, head, starts)
        if whole is not None:
            found[whole] = None
            continue
        utf16 = data.startswith((b"\xff\xfe", b"\xfe\xff"))
        text = data.decode("utf-16" if utf16 else "utf-8", errors="replace")
        for line in text.lstrip("\ufeff").splitlines():
            d = starts.dialect_of(line)
            if d is not None:
                found[d.name] = None
                break
    return list(found)


def _input_files(paths: Iterable[str | Path]) -> Iterator[Path | Remote]:
    """`iter_files`, and the files at fsspec URLs among `paths` (`histkit.storage`)."""
    for p in paths:
        if isinstance(p, str) and "://" in p:
            from histkit.storage import is_url, local_path, remote_files

            p = local_path(p)
            if is_url(p):
                yield from remote_files(str(p), HAND_HISTORY_SUFFIXES)
                continue
        yield from iter_files([p])


def _open(source: str) -> BinaryIO:
    """A file of the input for reading: at an fsspec URL, or local (decompressed, or a
    member of an archive: `histkit.reading.archive`)."""
    if "://" in source:
        from histkit.storage import open_source as open_url

        return open_url(source)
    return open_source(source)


def _missing(path: Path | Remote) -> str:
    """Why a path that was listed is not there: a dangling link names its target."""
    if not isinstance(path, Path):
        return "no such file or folder"
    try:
        return f"a link to {os.readlink(path)}, which does not exist"
    except OSError:
        return "no such file or folder"


def _xml_dialect(head_bytes: bytes, starts: Detector) -> str | None:
    """The XML site dialect (its name) whose file this is, judged from its first 4 KB;
    None for a text file (or XML no site claims: then it is read as text, and reported as
    no known site's)."""
    if head_bytes.startswith((b"\xff\xfe", b"\xfe\xff")):
        head = head_bytes.decode("utf-16", errors="replace")
    else:
        head = head_bytes.decode("utf-8", errors="replace")
    if not looks_like_xml(head):
        return None
    for d in starts.dialects:
        if isinstance(d, XmlDialect) and d.detect_xml(head):
            return d.name
    return None


def file_dialect(name: str, head_bytes: bytes, starts: Detector) -> str | None:
    """The dialect (its name) that reads this file whole (PHH), judged from its name and
    first 4 KB; None when no such dialect claims it."""
    dialects = [d for d in starts.dialects if isinstance(d, FileDialect)]
    if not dialects:
        return None
    if head_bytes.startswith((b"\xff\xfe", b"\xfe\xff")):
        head = head_bytes.decode("utf-16", errors="replace")
    else:
        head = head_bytes.decode("utf-8", errors="replace")
    for d in dialects:
        if d.claims_file(name, head):
            return d.name
    return None


def _file_chunks(
    source: str, f: BinaryIO, starts: Detector, size: int, span: Span | None = None
) -> Iterator[Chunk]:
    """One file's (or one span's) chunks of blocks, then its issue if reading failed. The
    last chunk is marked `whole` when it is the whole file."""
    blocks: list[HandBlock] = []
    cut = False
    seen = False
    whole_file = span is None or span.whole
    done = 0  # bytes of the file the chunks so far account for (read ahead: approximate)
    try:
        for block in file_blocks(f, starts, first_line=span.first_line if span else 1):
            seen = True
            if len(blocks) >= size and starts.is_header(block.lines[0]):
                at = f.tell()
                yield Chunk(source, tuple(blocks), nbytes=max(0, at - done))
                blocks, cut, done = [], True, at
            blocks.append(block)
        if blocks:
            rest = max(0, _fsize(f) - done)
            yield Chunk(source, tuple(blocks), whole=whole_file and not cut, nbytes=rest)
        elif not seen and whole_file:
            why = "an empty file: no hands in it"
            yield Chunk(source, issue=ParseIssue(source, None, None, None, "unknown", why))
    except UnreadableFile as e:
        if blocks:
            yield Chunk(source, tuple(blocks))
        yield Chunk(source, issue=_unreadable(source, e.line, f"unreadable file: {e}"))
    except OSError as e:
        if blocks:
            yield Chunk(source, tuple(blocks))
        yield _os_issue(source, e)


def _fsize(f: BinaryIO) -> int:
    try:
        return os.fstat(f.fileno()).st_size
    except (OSError, AttributeError, ValueError):
        return 0


def _os_issue(source: str, e: OSError) -> Chunk:
    why = e.strerror or str(e)
    return Chunk(source, issue=_unreadable(source, None, f"cannot read file: {why}"))


def parse_chunk(
    chunk: Chunk, *, site: Site = None, digests: list[int | None] | None = None
) -> Iterator[Hand | ParseIssue]:
    """The hands and issues of one chunk, in order (a span is read here). `digests`: a
    checksum of each hand's text is appended to it just before the hand is yielded (None
    where there is no text of its own: XML), so that copies of a hand can be told from
    different hands under one id."""
    if chunk.issue is not None:
        yield chunk.issue
    elif chunk.xml is not None:
        d = get_dialect(chunk.xml)
        assert isinstance(d, XmlDialect)
        damage: list[Damage] = []
        kept: deque[tuple[int, str]] | None = deque() if digests is not None else None
        try:
            with _open(chunk.source) as f:
                items = d.read_xml(_noting(file_lines(f), damage, kept), chunk.source)
                for item in _xml_damage(items, damage, chunk.source):
                    if kept is not None and digests is not None:
                        start = _first_line(item)
                        if isinstance(item, Hand):
                            digests.append(_element_digest(kept, item.source.line, d.hand_tags))
                        elif start is not None:
                            _drop_before(kept, start)
                    yield item
        except UnreadableFile as e:
            yield _unreadable(chunk.source, e.line, f"unreadable file: {e}")
        except OSError as e:
            yield from parse_chunk(_os_issue(chunk.source, e), site=site)
    elif chunk.file_dialect is not None:
        yield from _whole_file(chunk, site, digests)
    elif chunk.span is not None:
        span = chunk.span
        try:
            with _open(chunk.source) as f:
                f.seek(span.start)
                data = f.read() if span.end is None else f.read(span.end - span.start)
        except OSError as e:
            yield from parse_chunk(_os_issue(chunk.source, e), site=site)
            return
        starts = detector(site)
        for part in _file_chunks(chunk.source, io.BytesIO(data), starts, len(data) + 1, span):
            yield from parse_chunk(part, site=site, digests=digests)
    else:
        yield from parse_blocks(
            chunk.blocks, chunk.source, site=site, whole=chunk.whole, digests=digests
        )


def _whole_file(
    chunk: Chunk, site: Site, digests: list[int | None] | None
) -> Iterator[Hand | ParseIssue]:
    """The hands and issues of a file a `FileDialect` reads whole; a hand holding a
    damaged line is rejected at it, as in an XML file."""
    assert chunk.file_dialect is not None
    d = get_dialect(chunk.file_dialect)
    assert isinstance(d, FileDialect)
    damage: list[Damage] = []
    own: dict[int, int] | None = {} if digests is not None else None
    try:
        with _open(chunk.source) as f:
            items = d.read_file(_noting(file_lines(f), damage), chunk.source, digests=own)
            for item in _xml_damage(items, damage, chunk.source):
                if digests is not None and own is not None and isinstance(item, Hand):
                    digests.append(own.pop(id(item), None))
                yield item
    except UnreadableFile as e:
        yield _unreadable(chunk.source, e.line, f"unreadable file: {e}")
    except OSError as e:
        yield from parse_chunk(_os_issue(chunk.source, e), site=site)


# control characters XML forbids that a text line may hold (VT, FF, ESC): for the XML
# parser they would end the document, so in an XML file they are damage too
_XML_FORBIDDEN = re.compile("[\x0b\x0c\x1b]")


def _noting(
    lines: Iterable[str], damage: list[Damage], kept: deque[tuple[int, str]] | None = None
) -> Iterator[str]:
    """An XML file's lines, noting each damaged one (with its line number) in `damage`,
    and without the control characters XML forbids; `kept`: each line is also kept there
    with its number, for the checksum of the hand it belongs to (`_element_digest`)."""
    for no, line in enumerate(lines, 1):
        # `in` tests: ten times faster than a regex search on the long lines of XML
        if line.__class__ is not str or "\x1b" in line or "\x0b" in line or "\x0c" in line:
            if isinstance(line, DamagedLine):
                damage.append(Damage(no, line.column, line.what))
            if bad := _XML_FORBIDDEN.search(line):
                if not isinstance(line, DamagedLine):
                    what = f"control byte 0x{ord(bad.group()):02x}"
                    damage.append(Damage(no, bad.start() + 1, what))
                line = _XML_FORBIDDEN.sub("", line)
        if kept is not None:
            kept.append((no, line))
        yield line


def _drop_before(kept: deque[tuple[int, str]], line: int) -> None:
    while kept and kept[0][0] < line:
        kept.popleft()


def _element_digest(kept: deque[tuple[int, str]], start: int, tags: frozenset[str]) -> int:
    """A checksum of an XML hand's own lines: from its element's first line to the line
    that closes it, each stripped (so a copy of the hand in another file, whatever
    surrounds or indents it, has the same one). Lines before it are dropped: the items
    come in file order."""
    _drop_before(kept, start)
    closing = tuple(f"</{t}>" for t in tags)
    own: list[str] = []
    for _, text in kept:
        own.append(text.strip())
        if any(c in text for c in closing):
            break
    return zlib.crc32("\n".join(own).encode("utf-8", "surrogatepass"))


def _xml_damage(
    items: Iterable[Hand | ParseIssue], damage: list[Damage], source: str
) -> Iterator[Hand | ParseIssue]:
    """An XML file's hands and issues, a hand holding a damaged line rejected. A hand's
    lines run from its first to the line before the next item's (so each item is held
    until the next arrives: by then the dialect has read all its lines); damage outside
    every hand is reported on its own."""
    held: Hand | ParseIssue | None = None
    for item in items:
        if held is not None:
            yield from _xml_judged(held, _first_line(item), damage, source)
        held = item
    if held is not None:
        yield from _xml_judged(held, None, damage, source)
    yield from (_outside(source, d) for d in damage)


def _outside(source: str, d: Damage) -> ParseIssue:
    """Damage outside every hand of an XML file: reported, no hand's."""
    return ParseIssue(source, d.line, d.column, None, "rejected", d.reason, about_hand=False)


def _first_line(item: Hand | ParseIssue) -> int | None:
    return item.line if isinstance(item, ParseIssue) else item.source.line


def _xml_judged(
    item: Hand | ParseIssue, end: int | None, damage: list[Damage], source: str
) -> Iterator[Hand | ParseIssue]:
    """`item`, or its rejection when a damaged line lies in its lines (up to `end`,
    exclusive; None: to the end of the file), after the damage before it."""
    start = _first_line(item)
    if start is None or not damage:
        yield item
        return
    hit: Damage | None = None
    left: list[Damage] = []
    for d in damage:
        if d.line < start:
            yield _outside(source, d)
        elif end is None or d.line < end:
            hit = hit or d
        else:
            left.append(d)
    damage[:] = left
    if hit is not None and isinstance(item, Hand):
        yield ParseIssue(source, hit.line, hit.column, item.hand_id, "rejected", hit.reason)
    else:
        yield item


def parse_blocks(
    blocks: Iterable[HandBlock],
    source: str,
    *,
    site: Site = None,
    whole: bool = False,
    digests: list[int | None] | None = None,
) -> Iterator[Hand | ParseIssue]:
    """Every hand or issue of a run of blocks, each block read by the dialect of its first
    line; a run of text that is not hands is reported once, and `whole` blocks of a file
    in which no block is any site's hand are one issue: a file of an unknown format. A
    hand with a damaged line is rejected at that line, with its id. `digests`: as in
    `parse_chunk`."""
    det = detector(site)
    junk: list[HandBlock] = []  # first and last block of the current run
    junk_lines = 0
    junk_damage: Damage | None = None
    any_hand = False
    for block in blocks:
        first = block.lines[0]
        found = det.header_of(first)
        if found is not None:
            result = found[0].parse_block(block, source, found[1])
        elif first.startswith(det.prefixes):
            # starts like a site's header but is not one: that site words the rejection
            d = next(x for x in det.dialects if first.startswith(x.hand_start))
            result = d.parse_block(block, source)
        elif det.lead_in(block.lines):
            continue  # a site's lead-in line before a hand ("Game #N starts.")
        else:
            result = None
        if result is None:
            junk[1:] = [block]
            junk_lines += len(block.lines)
            junk_damage = junk_damage or block.damage
            continue
        any_hand = True
        if junk:
            yield _junk_issue(junk[0], junk[-1], junk_lines, source, junk_damage)
            junk, junk_lines, junk_damage = [], 0, None
        if block.damage is not None:
            result = _damaged(result, block.damage, source)
        elif digests is not None and isinstance(result, Hand):
            digests.append(zlib.crc32(block.text.encode("utf-8", "surrogatepass")))
        yield result
    if junk:
        if whole and not any_hand:
            yield ParseIssue(
                source,
                junk[0].start_line,
                None,
                None,
                "unknown",
                "not a hand history of a known site; its first line is "
                + clip_line(junk[0].lines[0]),
            )
        else:
            yield _junk_issue(junk[0], junk[-1], junk_lines, source, junk_damage)


def _damaged(result: Hand | ParseIssue, damage: Damage, source: str) -> ParseIssue:
    """The rejection of a hand with a damaged line (read without its bytes that are not
    text, so its id is known); a hand of another game stays skipped."""
    if isinstance(result, ParseIssue) and result.kind == "skipped":
        return result
    hand_id = result.hand_id
    return ParseIssue(source, damage.line, damage.column, hand_id, "rejected", damage.reason)


def _junk_issue(
    first: HandBlock, last: HandBlock, n: int, source: str, damage: Damage | None = None
) -> ParseIssue:
    lines = f"line {first.start_line}" if n == 1 else f"lines {first.start_line}-{last.end_line}"
    why = f"; {damage.reason}" if damage is not None else ""
    return ParseIssue(
        source,
        first.start_line,
        1,
        None,
        "rejected",
        f"text that is not part of any hand ({lines}), starting {clip_line(first.lines[0])}" + why,
        about_hand=False,
    )


def strictly(items: Iterable[Hand | ParseIssue]) -> Iterator[Hand | ParseIssue]:
    """The items of a strict reading (`parse --strict`): a hand read without a line
    (`Hand.gaps`: a line not understood or out of place, one missing, its text cut short)
    is rejected at the first such line, for the reason the note of it gives."""
    for item in items:
        if isinstance(item, Hand) and item.unread_lines:
            gap = item.gaps()[0]
            reason = gap.reason or f"line not understood: {clip_line(gap.text)}"
            item = ParseIssue(item.source.file, gap.line, None, item.hand_id, "rejected", reason)
        yield item


def iter_hands(
    paths: Iterable[str | Path], *, site: Site = None, dialect: Site = None
) -> Iterator[Hand | ParseIssue]:
    """Every hand and issue of the given files or folders, in input order; each hand's
    site is detected from its text unless `site` (or its older name `dialect`) forces one.

    Files are read line by line and hands are yielded as their chunk of blocks is parsed,
    so memory is bounded by a chunk (a few hundred hands), not by the file."""
    site = site if site is not None else dialect
    for chunk in iter_chunks(paths, site=site):
        yield from parse_chunk(chunk, site=site)


def _issue(source: str, line: int | None, reason: str) -> ParseIssue:
    return ParseIssue(source, line, None, None, "rejected", reason)


def _unreadable(source: str, line: int | None, reason: str) -> ParseIssue:
    return ParseIssue(source, line, None, None, "unreadable", reason)


_STREAM_BLOCKS = 256


def parse_text(
    text: str, *, source: str = "<string>", site: Site = None, dialect: Site = None
) -> list[Hand | ParseIssue]:
    """Every hand and issue of one text (already decoded; CRLF is fine)."""
    site = site if site is not None else dialect
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    items = list(
        parse_blocks(
            text_blocks(text.removeprefix("\ufeff"), detector(site)), source, site=site, whole=True
        )
    )
    if not items:
        items.append(
            ParseIssue(
                source, None, None, None, "rejected", "empty file: no hands in it", about_hand=False
            )
        )
    return items
