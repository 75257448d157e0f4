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

from histkit.dialects import get_dialect
from histkit.dialects.base import Dialect, HandBlock, ParseIssue, UnreadableFile, decode_bytes
from histkit.model import Hand

__all__ = [
    "Chunk",
    "ParseIssue",
    "Span",
    "iter_chunks",
    "iter_files",
    "iter_hands",
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


HAND_HISTORY_SUFFIXES = (".txt",)


def iter_files(paths: Iterable[str | Path]) -> Iterator[Path]:
    """Files in input order. A file named on its own is always read; inside a folder
    (walked recursively, sorted) only hand-history files (`*.txt`, as the sites write
    them) are, so a README or a sidecar beside them is not mistaken for a broken hand.
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


def iter_chunks(
    paths: Iterable[str | Path],
    *,
    dialect: str | Dialect = "pokerstars",
    max_blocks: int | None = None,
    span_bytes: int | None = None,
) -> Iterator[Chunk]:
    """The input as chunks of at most `max_blocks` blocks (None: as few as possible while
    streaming). A chunk is cut only before a block that starts a hand, so a run of junk
    text between hands is never split and is reported once, as in one pass.

    `span_bytes`: byte-range chunks of about that size instead, for worker processes (the
    parent reads each file once to find the cuts, and decodes and splits nothing); files
    that cannot be cut (UTF-16) come as block chunks."""
    d = get_dialect(dialect)
    size = max_blocks or _STREAM_BLOCKS
    for path in iter_files(paths):
        source = str(path)
        try:
            if not path.exists():
                raise FileNotFoundError(2, "no such file or folder")
            if not path.is_file():
                raise OSError(21, "not a regular file")
            cuts = None
            if span_bytes is not None:
                with open(path, "rb") as f:
                    cuts = d.cut_points(f, span_bytes)
        except OSError as e:
            yield _os_issue(source, e)
            continue
        if cuts is None:
            try:
                with open(path, "rb") as f:
                    yield from _file_chunks(source, f, d, size)
            except OSError as e:
                yield _os_issue(source, e)
            continue
        starts = [(0, 1), *cuts]
        for (start, line), (end, _) in zip(starts, [*cuts, (None, 0)], strict=True):
            yield Chunk(source, span=Span(start, end, line))


def _file_chunks(
    source: str, f: BinaryIO, d: Dialect, size: int, span: Span | None = None
) -> Iterator[Chunk]:
    """One file's (or one span's) chunks of blocks, then its issue if reading failed."""
    blocks: list[HandBlock] = []
    seen = False
    try:
        for block in d.file_blocks(f, first_line=span.first_line if span else 1):
            seen = True
            if len(blocks) >= size and d.starts_hand(block):
                yield Chunk(source, tuple(blocks))
                blocks = []
            blocks.append(block)
        if blocks:
            yield Chunk(source, tuple(blocks))
        elif not seen and (span is None or span.whole):
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


def parse_chunk(
    chunk: Chunk, *, dialect: str | Dialect = "pokerstars"
) -> Iterator[Hand | ParseIssue]:
    """The hands and issues of one chunk, in order (a span is read here)."""
    d = get_dialect(dialect)
    if chunk.issue is not None:
        yield chunk.issue
    elif chunk.span is not None:
        span = chunk.span
        try:
            with open(chunk.source, "rb") as f:
                f.seek(span.start)
                data = f.read() if span.end is None else f.read(span.end - span.start)
        except OSError as e:
            yield from parse_chunk(_os_issue(chunk.source, e), dialect=d)
            return
        for part in _file_chunks(chunk.source, io.BytesIO(data), d, len(data) + 1, span):
            yield from parse_chunk(part, dialect=d)
    else:
        yield from d.parse_blocks(chunk.blocks, chunk.source)


def iter_hands(
    paths: Iterable[str | Path], *, dialect: str | Dialect = "pokerstars"
) -> Iterator[Hand | ParseIssue]:
    """Every hand and issue of the given files or folders, in input order.

    Files are read line by line and hands are yielded as their chunk of blocks is parsed,
    so memory is bounded by a chunk (a few hundred hands), not by the file."""
    d = get_dialect(dialect)
    for chunk in iter_chunks(paths, dialect=d):
        yield from parse_chunk(chunk, dialect=d)


def _issue(source: str, line: int | None, reason: str) -> ParseIssue:
    return ParseIssue(source, line, None, None, "rejected", reason)


_STREAM_BLOCKS = 256


def parse_text(
    text: str, *, source: str = "<string>", dialect: str | Dialect = "pokerstars"
) -> list[Hand | ParseIssue]:
    """Every hand and issue of one text (already decoded; CRLF is fine)."""
    d = get_dialect(dialect)
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return list(d.parse(text.removeprefix("\ufeff"), source))
