"""Read hand-history files and folders into `Hand`s, streaming, with an account of the rest.

`iter_hands` yields, in input order, a `Hand` for every stud-family hand and a `ParseIssue`
for everything else: a hand of another game (skipped), a stud hand that cannot be parsed,
text between hands, an empty, binary or unreadable file (rejected). One bad hand never
costs the good ones, and nothing raises for bad input.

Streaming: files are read one at a time, line by line, and each hand is produced as soon
as its block ends, so memory is bounded by a hand, not by a file or a folder.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from histkit.dialects import get_dialect
from histkit.dialects.base import Dialect, HandBlock, ParseIssue, UnreadableFile, decode_bytes
from histkit.model import Hand

__all__ = [
    "Chunk",
    "ParseIssue",
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
class Chunk:
    """A unit of reading work: consecutive hand blocks of one file, or one file-level
    issue (unreadable, empty). `iter_hands` parses chunks in order in this process;
    `histkit.parallel` sends the same chunks to worker processes, so both give the same
    results in the same order."""

    source: str
    blocks: tuple[HandBlock, ...] = ()
    issue: ParseIssue | None = None


def iter_chunks(
    paths: Iterable[str | Path],
    *,
    dialect: str | Dialect = "pokerstars",
    max_blocks: int | None = None,
) -> Iterator[Chunk]:
    """The input as chunks of at most `max_blocks` blocks (None: as few as possible while
    streaming). A chunk is cut only before a block that starts a hand, so a run of junk
    text between hands is never split and is reported once, as in one pass."""
    d = get_dialect(dialect)
    size = max_blocks or _STREAM_BLOCKS
    for path in iter_files(paths):
        source = str(path)
        blocks: list[HandBlock] = []
        seen = False
        try:
            if not path.exists():
                raise FileNotFoundError(2, "no such file or folder")
            if not path.is_file():
                raise OSError(21, "not a regular file")
            with open(path, "rb") as f:
                for block in d.file_blocks(f):
                    seen = True
                    if len(blocks) >= size and d.starts_hand(block):
                        yield Chunk(source, tuple(blocks))
                        blocks = []
                    blocks.append(block)
            if blocks:
                yield Chunk(source, tuple(blocks))
            elif not seen:
                yield Chunk(source, issue=_issue(source, None, "empty file: no hands in it"))
        except UnreadableFile as e:
            if blocks:
                yield Chunk(source, tuple(blocks))
            yield Chunk(source, issue=_issue(source, e.line, f"unreadable file: {e}"))
        except OSError as e:
            if blocks:
                yield Chunk(source, tuple(blocks))
            why = e.strerror or str(e)
            yield Chunk(source, issue=_issue(source, None, f"cannot read file: {why}"))


def parse_chunk(
    chunk: Chunk, *, dialect: str | Dialect = "pokerstars"
) -> Iterator[Hand | ParseIssue]:
    """The hands and issues of one chunk, in order."""
    if chunk.issue is not None:
        yield chunk.issue
    else:
        yield from get_dialect(dialect).parse_blocks(chunk.blocks, chunk.source)


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
