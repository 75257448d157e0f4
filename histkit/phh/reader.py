"""PHH files read into hands: a `.phh` file is one hand (its top-level fields), a `.phhs`
file many, one TOML table each (`[1]`, `[2]`, ...).

The whole text is parsed with the standard library's `tomllib` (amounts that are not whole
numbers as `Decimal`, never floats). When that fails, the file is cut at its table headers
and each hand parsed on its own, so one broken hand costs only itself. `tomllib` gives no
line numbers for values, so the lines are found in the text (`Lines`): each key's, and each
string of the actions list's, for errors that name the line. Building the `Hand` from a
hand's fields is `histkit.phh.hand`'s job.
"""

from __future__ import annotations

import re
import tomllib
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from decimal import Decimal
from pathlib import PurePath
from typing import Any

from histkit.model import Hand
from histkit.reading.split import ParseIssue

__all__ = ["PHH_SUFFIXES", "Lines", "looks_like_phh", "read_phh"]

PHH_SUFFIXES = (".phh", ".phhs")

_KEY = r"""(?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|'[^']*')"""
# a table header line ("[3]", ["hand 1"]); not an array of tables ("[[...]]")
_HEADER = re.compile(rf"^\s*\[(?!\[)\s*(?P<key>{_KEY}(?:\s*\.\s*{_KEY})*)\s*\]\s*(?:#.*)?$")
_TOML_ERROR_LINE = re.compile(r"\(at line (\d+), column (\d+)\)")
_VARIANT_LINE = re.compile(r"""^\s*variant\s*=\s*(?:"[^"\n]*"|'[^'\n]*')\s*(?:#.*)?$""")
_PLAIN_LINE = re.compile(rf"^\s*(?:#.*|{_KEY}(?:\s*\.\s*{_KEY})*\s*=.*|\[.*)?$")


def looks_like_phh(head: str) -> bool:
    """Whether a file's first text is PHH: TOML (comments, `key = value` lines, table
    headers) with a `variant = "..."` line before anything else."""
    for line in head.removeprefix("\ufeff").splitlines()[:200]:
        if _VARIANT_LINE.match(line):
            return True
        if not _PLAIN_LINE.match(line):
            return False
    return False


def _unquote(key: str) -> str:
    key = key.strip()
    if key[:1] in "\"'" and key[-1:] == key[:1]:
        return tomllib.loads(f"k = {key}")["k"] if key[0] == '"' else key[1:-1]
    return key


def _table_key(line: str) -> tuple[str, bool] | None:
    """A table header's first key and whether it names a sub-table ("[3.meta]"), or None
    when the line is no table header."""
    m = _HEADER.match(line)
    if m is None:
        return None
    parts = re.findall(_KEY, m.group("key"))
    return _unquote(parts[0]), len(parts) > 1


@dataclass(frozen=True, slots=True)
class Lines:
    """One hand's lines of text and the file line of the first: where its fields are."""

    lines: tuple[str, ...]
    first: int

    def of_key(self, name: str) -> int:
        """The line of `name = ...` (the hand's first line when it is not found)."""
        pattern = re.compile(
            rf"""^\s*(?:{re.escape(name)}|"{re.escape(name)}"|'{re.escape(name)}')\s*="""
        )
        for i, line in enumerate(self.lines):
            if pattern.match(line):
                return self.first + i
        return self.first

    def of_strings(self, name: str, count: int) -> list[int]:
        """The line of each of the first `count` strings of the list `name` (the actions):
        found by walking the list's text; the key's line for any it cannot place."""
        start = self.of_key(name) - self.first
        out: list[int] = []
        quote = ""
        i = start
        while i < len(self.lines) and len(out) < count:
            line = self.lines[i]
            j = line.index("=") + 1 if i == start and "=" in line else 0
            while j < len(line) and len(out) < count:
                c = line[j]
                if quote:
                    if c == "\\" and quote == '"':
                        j += 1
                    elif c == quote:
                        quote = ""
                elif c in "\"'":
                    quote = c
                    out.append(self.first + i)
                elif c == "#":
                    break
                elif c == "]":
                    i = len(self.lines)
                    break
                j += 1
            i += 1
        key_line = start + self.first
        return out + [key_line] * (count - len(out))

    def digest(self) -> int:
        """A checksum of the hand's own text (lines stripped, its table header left out),
        so that the same hand in another file has the same one."""
        own = [line.strip() for line in self.lines if line.strip()]
        if own and _table_key(own[0]) is not None:
            own = own[1:]
        return zlib.crc32("\n".join(own).encode("utf-8", "surrogatepass"))


@dataclass(frozen=True, slots=True)
class _Section:
    key: str | None  # the table's name in a .phhs; None: the file's top level
    lines: Lines


def _sections(lines: list[str]) -> list[_Section]:
    """The file cut at its table headers (a sub-table's header stays with its table); the
    lines before the first header are the top level's."""
    out: list[_Section] = []
    key: str | None = None
    start = 0
    for i, line in enumerate(lines):
        found = _table_key(line) if line.lstrip().startswith("[") else None
        if found is None or (found[1] and found[0] == key):
            continue
        if i > start or key is not None:
            out.append(_Section(key, Lines(tuple(lines[start:i]), start + 1)))
        key, start = found[0], i
    out.append(_Section(key, Lines(tuple(lines[start:]), start + 1)))
    return out


def _loads(text: str) -> dict[str, Any]:
    return tomllib.loads(text, parse_float=Decimal)


def _toml_issue(e: tomllib.TOMLDecodeError, source: str, lines: Lines, hand_id: str | None):
    m = _TOML_ERROR_LINE.search(str(e))
    line = lines.first + int(m.group(1)) - 1 if m else lines.first
    column = int(m.group(2)) if m else None
    why = _TOML_ERROR_LINE.sub("", str(e)).strip()
    return ParseIssue(source, line, column, hand_id, "rejected", f"not valid TOML: {why}")


_HAND_LINE = re.compile(r"""^\s*hand\s*=\s*["']?([^"'#\s]+)""")


def _guess_id(lines: Lines) -> str | None:
    for line in lines.lines:
        m = _HAND_LINE.match(line)
        if m:
            return m.group(1)
    return None


def read_phh(
    lines: Iterable[str], source: str, *, digests: list[int | None] | None = None
) -> Iterator[Hand | ParseIssue]:
    """Every hand of one PHH file (its decoded lines), or the issue that stops it, in
    order. `digests`: a checksum of each hand's text is appended just before the hand is
    yielded (for telling copies of a hand from different hands under one id)."""
    from histkit.phh.hand import build_hand

    text_lines = list(lines)
    stem = PurePath(source).stem
    whole = Lines(tuple(text_lines), 1)
    error: tomllib.TOMLDecodeError | None = None
    try:
        doc: dict[str, Any] | None = _loads("\n".join(text_lines))
    except tomllib.TOMLDecodeError as e:
        doc, error = None, e
    sections = _sections(text_lines)
    top = sections[0]
    single = top.key is None and any(_VARIANT_LINE.match(x) for x in top.lines.lines)
    if doc is not None and "variant" in doc:
        items: list[tuple[str | None, Lines, dict[str, Any] | ParseIssue]] = [(None, whole, doc)]
    elif doc is not None:
        where = {s.key: s.lines for s in sections}
        items = []
        for key, value in doc.items():
            at = where.get(key, whole)
            if isinstance(value, dict):
                items.append((key, at, value))
            else:
                why = f"{key!r} is not a hand: a .phhs file holds one table per hand"
                items.append(
                    (key, at, ParseIssue(source, at.of_key(key), None, None, "rejected", why))
                )
    elif error is not None and (single or len(sections) == 1):
        yield _toml_issue(error, source, whole, _guess_id(whole))
        return
    else:
        items = []
        for s in sections:
            if s.key is None and not any(_is_content(x) for x in s.lines.lines):
                continue
            try:
                part = _loads("\n".join(s.lines.lines))
            except tomllib.TOMLDecodeError as e:
                items.append((s.key, s.lines, _toml_issue(e, source, s.lines, _guess_id(s.lines))))
                continue
            if s.key is None:
                for key in part:
                    why = f"{key!r} is not a hand: a .phhs file holds one table per hand"
                    issue = ParseIssue(source, s.lines.of_key(key), None, None, "rejected", why)
                    items.append((None, s.lines, issue))
            else:
                items.append((s.key, s.lines, part.get(s.key, {})))
    if not items:
        yield ParseIssue(
            source, None, None, None, "rejected", "empty file: no hands in it", about_hand=False
        )
        return
    for name, at, fields in items:
        if isinstance(fields, ParseIssue):
            yield fields
            continue
        default_id = stem if name is None else f"{stem}:{name}"
        got = build_hand(fields, source, at, default_id=default_id)
        if isinstance(got, Hand) and digests is not None:
            digests.append(at.digest())
        yield got


def _is_content(line: str) -> bool:
    s = line.strip()
    return bool(s) and not s.startswith("#")
