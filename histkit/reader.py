"""Read hand-history files and folders into `Hand`s, streaming, with an account of the rest.

`iter_hands` yields, in input order, a `Hand` for every stud-family hand and a `ParseIssue`
for everything else: a hand of another game (skipped), a stud hand that cannot be parsed,
text between hands, an empty, binary or unreadable file (rejected). One bad hand never
costs the good ones, and nothing raises for bad input.

Streaming: files are read one at a time, line by line, and each hand is produced as soon
as its block ends, so memory is bounded by a hand, not by a file or a folder.
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from histkit.dialects import Detector, Dialect, detector, get_dialect
from histkit.dialects.sink import clip_line
from histkit.dialects.xmlbase import XmlDialect
from histkit.model import Hand
from histkit.reading.decode import UnreadableFile, decode_bytes
from histkit.reading.split import (
    HandBlock,
    ParseIssue,
    cut_points,
    file_blocks,
    file_lines,
    text_blocks,
)
from histkit.reading.xmlstream import looks_like_xml

Site = str | Dialect | None  # a site's name or dialect to force one; None: detect each hand

__all__ = [
    "Chunk",
    "ParseIssue",
    "Span",
    "iter_chunks",
    "iter_files",
    "iter_hands",
    "parse_blocks",
    "parse_chunk",
    "parse_text",
    "read_file_text",
]


def read_file_text(path: str | Path, *, fallback: str = "cp1252") -> str:
    """A file's text with LF line ends: UTF-8 with or without BOM, UTF-16 with BOM, else
    cp1252. Raises `UnreadableFile` for binary data and `OSError` when it cannot be read."""
    with open(path, "rb") as f:
        data = f.read()
    return decode_bytes(data, fallback=fallback)


HAND_HISTORY_SUFFIXES = (".txt", ".xml")


def iter_files(paths: Iterable[str | Path]) -> Iterator[Path]:
    """Files in input order. A file named on its own is always read; inside a folder
    (walked recursively, sorted) only hand-history files (`*.txt` and `*.xml`, as the sites
    write them) are, so a README or a sidecar beside them is not mistaken for a broken hand.
    Hidden files and folders (".DS_Store", ".git") are left out."""
    for p in paths:
        path = Path(p)
        if path.is_dir():
            found: list[Path] = []
            for root, dirs, files in os.walk(path):
                dirs[:] = [d for d in dirs if not d.startswith(".")]
                found.extend(
                    Path(root) / f
                    for f in files
                    if not f.startswith(".") and f.lower().endswith(HAND_HISTORY_SUFFIXES)
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


def iter_chunks(
    paths: Iterable[str | Path],
    *,
    site: Site = None,
    max_blocks: int | None = None,
    span_bytes: int | None = None,
) -> Iterator[Chunk]:
    """The input as chunks of at most `max_blocks` blocks (None: as few as possible while
    streaming). A chunk is cut only before a block that starts a hand, so a run of junk
    text between hands is never split and is reported once, as in one pass.

    `span_bytes`: byte-range chunks of about that size instead, for worker processes (the
    parent reads each file once to find the cuts, and decodes and splits nothing); files
    that cannot be cut (UTF-16) come as block chunks. `site`: read every file as that
    site's (None: each hand's site is detected from its first line)."""
    starts = detector(site)
    size = max_blocks or _STREAM_BLOCKS
    for path in iter_files(paths):
        source = str(path)
        try:
            if not path.exists():
                raise FileNotFoundError(2, "no such file or folder")
            if not path.is_file():
                raise OSError(21, "not a regular file")
            with open(path, "rb") as f:
                xml = _xml_dialect(f, starts)
            cuts = None
            if xml is None and span_bytes is not None:
                with open(path, "rb") as f:
                    cuts = cut_points(f, span_bytes, starts)
        except OSError as e:
            yield _os_issue(source, e)
            continue
        if xml is not None:
            yield Chunk(source, xml=xml)
            continue
        if cuts is None:
            try:
                with open(path, "rb") as f:
                    yield from _file_chunks(source, f, starts, size)
            except OSError as e:
                yield _os_issue(source, e)
            continue
        bounds = [(0, 1), *cuts]
        for (start, line), (end, _) in zip(bounds, [*cuts, (None, 0)], strict=True):
            yield Chunk(source, span=Span(start, end, line))


def _xml_dialect(f: BinaryIO, starts: Detector) -> str | None:
    """The XML site dialect (its name) whose file this is, judged from its first 4 KB;
    None for a text file (or XML no site claims: then it is read as text, and reported as
    no known site's)."""
    head_bytes = f.read(4096)
    f.seek(0)
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


def _file_chunks(
    source: str, f: BinaryIO, starts: Detector, size: int, span: Span | None = None
) -> Iterator[Chunk]:
    """One file's (or one span's) chunks of blocks, then its issue if reading failed. The
    last chunk is marked `whole` when it is the whole file."""
    blocks: list[HandBlock] = []
    cut = False
    seen = False
    whole_file = span is None or span.whole
    try:
        for block in file_blocks(f, starts, first_line=span.first_line if span else 1):
            seen = True
            if len(blocks) >= size and starts.is_header(block.lines[0]):
                yield Chunk(source, tuple(blocks))
                blocks, cut = [], True
            blocks.append(block)
        if blocks:
            yield Chunk(source, tuple(blocks), whole=whole_file and not cut)
        elif not seen and whole_file:
            yield Chunk(source, issue=_issue(source, None, "empty file: no hands in it"))
    except UnreadableFile as e:
        if blocks:
            yield Chunk(source, tuple(blocks))
        yield Chunk(source, issue=_issue(source, e.line, f"unreadable file: {e}"))
    except OSError as e:
        if blocks:
            yield Chunk(source, tuple(blocks))
        yield _os_issue(source, e)


def _os_issue(source: str, e: OSError) -> Chunk:
    why = e.strerror or str(e)
    return Chunk(source, issue=_issue(source, None, f"cannot read file: {why}"))


def parse_chunk(chunk: Chunk, *, site: Site = None) -> Iterator[Hand | ParseIssue]:
    """The hands and issues of one chunk, in order (a span is read here)."""
    if chunk.issue is not None:
        yield chunk.issue
    elif chunk.xml is not None:
        d = get_dialect(chunk.xml)
        assert isinstance(d, XmlDialect)
        try:
            with open(chunk.source, "rb") as f:
                yield from d.read_xml(file_lines(f), chunk.source)
        except UnreadableFile as e:
            yield _issue(chunk.source, e.line, f"unreadable file: {e}")
        except OSError as e:
            yield from parse_chunk(_os_issue(chunk.source, e), site=site)
    elif chunk.span is not None:
        span = chunk.span
        try:
            with open(chunk.source, "rb") as f:
                f.seek(span.start)
                data = f.read() if span.end is None else f.read(span.end - span.start)
        except OSError as e:
            yield from parse_chunk(_os_issue(chunk.source, e), site=site)
            return
        starts = detector(site)
        for part in _file_chunks(chunk.source, io.BytesIO(data), starts, len(data) + 1, span):
            yield from parse_chunk(part, site=site)
    else:
        yield from parse_blocks(chunk.blocks, chunk.source, site=site, whole=chunk.whole)


def parse_blocks(
    blocks: Iterable[HandBlock], source: str, *, site: Site = None, whole: bool = False
) -> Iterator[Hand | ParseIssue]:
    """Every hand or issue of a run of blocks, each block read by the dialect of its first
    line; a run of text that is not hands is reported once, and `whole` blocks of a file
    in which no block is any site's hand are one issue: a file of an unknown format."""
    det = detector(site)
    junk: list[HandBlock] = []  # first and last block of the current run
    junk_lines = 0
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
            continue
        any_hand = True
        if junk:
            yield _junk_issue(junk[0], junk[-1], junk_lines, source)
            junk, junk_lines = [], 0
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
            yield _junk_issue(junk[0], junk[-1], junk_lines, source)


def _junk_issue(first: HandBlock, last: HandBlock, n: int, source: str) -> ParseIssue:
    lines = f"line {first.start_line}" if n == 1 else f"lines {first.start_line}-{last.end_line}"
    return ParseIssue(
        source,
        first.start_line,
        1,
        None,
        "rejected",
        f"text that is not part of any hand ({lines}), starting {clip_line(first.lines[0])}",
    )


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
        items.append(ParseIssue(source, None, None, None, "rejected", "empty file: no hands in it"))
    return items
