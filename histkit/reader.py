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
from pathlib import Path

from histkit.dialects import get_dialect
from histkit.dialects.base import Dialect, ParseIssue, UnreadableFile, decode_bytes
from histkit.model import Hand

__all__ = ["ParseIssue", "iter_hands", "parse_text", "read_file_text", "iter_files"]


def read_file_text(path: str | Path, *, fallback: str = "cp1252") -> str:
    """A file's text with LF line ends: UTF-8 with or without BOM, UTF-16 with BOM, else
    cp1252. Raises `UnreadableFile` for binary data and `OSError` when it cannot be read."""
    with open(path, "rb") as f:
        data = f.read()
    return decode_bytes(data, fallback=fallback)


def iter_files(paths: Iterable[str | Path]) -> Iterator[Path]:
    """Files in input order; folders are walked recursively in sorted order. Hidden files
    and folders (".DS_Store", ".git") are not hand histories and are left out."""
    for p in paths:
        path = Path(p)
        if path.is_dir():
            found: list[Path] = []
            for root, dirs, files in os.walk(path):
                dirs[:] = [d for d in dirs if not d.startswith(".")]
                found.extend(Path(root) / f for f in files if not f.startswith("."))
            yield from sorted(found, key=lambda f: f.relative_to(path).parts)
        else:
            yield path


def iter_hands(
    paths: Iterable[str | Path], *, dialect: str | Dialect = "pokerstars"
) -> Iterator[Hand | ParseIssue]:
    """Every hand and issue of the given files or folders, in input order.

    Files are read line by line and hands are yielded as their blocks end, so memory is
    bounded by one hand, not by the file."""
    d = get_dialect(dialect)
    for path in iter_files(paths):
        source = str(path)
        try:
            if not path.exists():
                raise FileNotFoundError(2, "no such file or folder")
            if not path.is_file():
                raise OSError(21, "not a regular file")
            with open(path, "rb") as f:
                yield from d.parse(d.lines(f), source)
        except UnreadableFile as e:
            yield ParseIssue(source, e.line, None, None, "rejected", f"unreadable file: {e}")
        except OSError as e:
            why = e.strerror or str(e)
            yield ParseIssue(source, None, None, None, "rejected", f"cannot read file: {why}")


def parse_text(
    text: str, *, source: str = "<string>", dialect: str | Dialect = "pokerstars"
) -> list[Hand | ParseIssue]:
    """Every hand and issue of one text (already decoded; CRLF is fine)."""
    d = get_dialect(dialect)
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return list(d.parse(text.removeprefix("\ufeff"), source))
