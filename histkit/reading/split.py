"""Text to hand blocks: a blank line ends a block, a hand header starts one.

Which lines are hand headers is asked of the dialects through `HandStarts` (line prefixes
for a cheap test, then the header check), so one splitter serves every site and a file that
mixes sites. Files whose every line is followed by a blank line (seen in UTF-16 files as
FPDB published them) are "double-spaced": detected at their first hand (a header line, one
blank line, then a line that is not a header), after which a block ends at two blank lines.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import pairwise
from typing import Any, BinaryIO, Protocol

from histkit.reading.decode import (
    FALLBACK_ENCODING,
    Damage,
    DamagedLine,
    UnreadableFile,
    decode_line,
    decodes,
    is_utf16,
    line_pieces,
    plain_lines,
    text_pieces,
)

__all__ = [
    "HandBlock",
    "HandStarts",
    "ParseIssue",
    "Splitter",
    "cut_points",
    "file_blocks",
    "file_lines",
    "text_blocks",
]


class HandStarts(Protocol):
    """What the splitter asks of the dialects: the prefixes a hand's first line may start
    with, and whether a line (without its line end) is a hand header."""

    @property
    def prefixes(self) -> tuple[str, ...]: ...

    def is_header(self, line: str) -> bool: ...


@dataclass(frozen=True, slots=True)
class ParseIssue:
    """One skipped or rejected hand (or an unreadable file / text that is not a hand).

    `kind` is "skipped" for a hand of another game (hold'em in a mixed rotation),
    "rejected" for a stud hand that cannot be parsed (or text between hands, an empty
    file), "unreadable" for a file that cannot be read as text (missing, a dangling link,
    no permission, binary data; from `line` on when it began as text) and "unknown" for a
    file that is no known site's hand history (one record per file): files, not hands, are
    counted for the last two; `reason` is a sentence a person understands; `game` is the
    game as written for skipped hands. `about_hand` is False for a rejection that is no
    hand's (text or XML outside every hand, damage there, an empty file): each hand
    start in the input is one hand, or one skipped or rejected issue about a hand."""

    source_file: str
    line: int | None
    column: int | None
    hand_id: str | None
    kind: str
    reason: str
    game: str | None = None
    about_hand: bool = True


@dataclass(frozen=True, slots=True)
class HandBlock:
    """The lines of one hand (no line breaks) and the 1-based file line of the first one;
    `numbers`: each line's file line when they are not consecutive (a double-spaced file,
    whose blank lines the block leaves out), else None; `damage`: its first damaged line
    (bytes that were not text, left out of `lines`), for which the hand is rejected."""

    start_line: int
    lines: list[str]
    numbers: tuple[int, ...] | None = None
    damage: Damage | None = None

    @property
    def end_line(self) -> int:
        if self.numbers is not None:
            return self.numbers[-1]
        return self.start_line + len(self.lines) - 1

    def line_no(self, i: int) -> int:
        """The file line of the block's line i (0-based)."""
        return self.numbers[i] if self.numbers is not None else self.start_line + i

    @property
    def text(self) -> str:
        """The block as the grammar wants it: LF line ends, a final LF."""
        return "\n".join(self.lines) + "\n"


# a line end with a blank line after it (empty or whitespace only, as str.isspace: re's
# \s is the same test); starting with a literal, the scan jumps from line end to line end
_BLANK_NEXT = re.compile(r"\n(?=[^\S\n]*\n)")


def starts_inside(prefixes: tuple[str, ...], *, binary: bool = False) -> re.Pattern[Any]:
    """A line end followed by any of the prefixes a hand's first line may start with: one
    regex scan finds the first, where a `find` per prefix reads the text once per site
    (24 prefixes: about 20 µs a hand against 3)."""
    alternatives = "|".join(re.escape(p) for p in prefixes)
    text = f"\n(?:{alternatives})"
    return re.compile(text.encode("utf-8")) if binary else re.compile(text)


def _blank(line: str) -> bool:
    return not line or line.isspace()


class Splitter:
    """Cuts lines into hand blocks, across the pieces of a file: a blank line ends a
    block (two in a double-spaced file), a header line starts one even without a blank
    line before it, BOMs at line starts are dropped. `lines` reads one line at a time;
    `chunk` takes a whole decoded chunk and hands the blocks between its blank lines over
    in one piece."""

    __slots__ = (
        "starts",
        "prefixes",
        "inside",
        "cur",
        "start",
        "no",
        "double",
        "pending",
        "head",
        "nums",
        "hurt",
    )

    def __init__(self, starts: HandStarts) -> None:
        self.starts = starts
        self.prefixes = starts.prefixes
        self.inside = starts_inside(starts.prefixes)
        self.cur: list[str] = []  # the open block
        self.start = 0  # its first line
        self.no = 0  # lines read so far
        self.double: bool | None = None  # double-spaced file? None: not known yet
        self.pending = 0  # blank lines after the open block, not yet acted on
        self.head = False  # the open block starts with a hand header
        self.nums: list[int] = []  # the open block's file lines, once they are not consecutive
        self.hurt: Damage | None = None  # the open block's first damaged line

    def _header(self, line: str) -> bool:
        return line.startswith(self.prefixes) and self.starts.is_header(line)

    def _block(self, start: int, cur: list[str]) -> HandBlock:
        nums, hurt = self.nums, self.hurt
        if nums or hurt:
            self.nums, self.hurt = [], None
            return HandBlock(start, cur, tuple(nums) if nums else None, hurt)
        return HandBlock(start, cur)

    def lines(self, lines: Iterable[str]) -> Iterator[HandBlock]:
        cur, start, no = self.cur, self.start, self.no
        try:
            for line in lines:
                no += 1
                hurt = None
                if line.__class__ is not str and isinstance(line, DamagedLine):
                    hurt = Damage(no, line.column, line.what)  # never blank: see decode
                if _blank(line):
                    if cur:
                        if self.double or (self.double is None and self.head and len(cur) == 1):
                            self.pending += 1  # wait: a double-spaced file, or not known yet
                            continue
                        yield self._block(start, cur)
                        cur = []
                    continue
                if line[0] == "\ufeff":  # a BOM at a file start, or inside concatenated files
                    line = line.lstrip("\ufeff")
                    if _blank(line):
                        continue
                header = line.startswith(self.prefixes) and self.starts.is_header(line)
                if cur:
                    if self.double is None and self.head and len(cur) == 1:
                        # the first hand's second line decides: right after the header, or
                        # after one blank line (and not itself a header): double-spaced
                        self.double = self.pending == 1 and not header
                    if self.pending:
                        if not self.double or self.pending >= 2:
                            yield self._block(start, cur)
                            cur = []
                        self.pending = 0
                    if cur and header:
                        yield self._block(start, cur)
                        cur = []
                if not cur:
                    start = no
                    self.head = header
                elif self.nums:
                    self.nums.append(no)
                elif no != start + len(cur):  # blank lines left out: number each line
                    self.nums = [*range(start, start + len(cur)), no]
                if hurt is not None and self.hurt is None:
                    self.hurt = hurt
                cur.append(line)
        finally:
            self.cur, self.start, self.no = cur, start, no

    def _decide(self, lines: list[str]) -> None:
        """Settle `double` from a chunk's first hand header, when the chunk shows it."""
        for i, line in enumerate(lines[:200]):
            if line and self._header(line.lstrip("\ufeff")):
                after = lines[i + 1 : i + 3]
                if len(after) < 2:
                    return
                if not _blank(after[0]):
                    self.double = False
                elif not _blank(after[1]):
                    self.double = not self._header(after[1])
                return

    def chunk(self, text: str, lines: list[str]) -> Iterator[HandBlock]:
        """Whole lines (`text` is them joined, each with its LF): the stretch up to the
        first blank line continues the open block and the stretch after the last one stays
        open, line by line; a stretch between blank lines is a block as it stands, unless
        a line in it may start a hand."""
        if self.double is None:
            self._decide(lines)
        if "\ufeff" in text or self.double is not False or self.pending:
            yield from self.lines(lines)
            return
        # blank lines as (line index, start, its line end) in the text
        blanks: list[tuple[int, int, int]] = []
        if _blank(lines[0]):
            blanks.append((0, 0, text.index("\n")))
        index = pos = 0
        for m in _BLANK_NEXT.finditer(text):
            at = m.end()
            index += text.count("\n", pos, at)
            pos = at
            blanks.append((index, at, text.index("\n", at)))
        if not blanks:
            yield from self.lines(lines)
            return
        base = self.no  # the number of the line before the chunk's first
        yield from self.lines(lines[: blanks[0][0] + 1])  # up to and with the first blank
        inside = self.inside
        for (i, _, after), (j, before, _) in pairwise(blanks):
            if j == i + 1:
                continue
            para = lines[i + 1 : j]
            if inside.search(text, after + 1, before) is not None:
                self.no = base + i + 1
                yield from self.lines(para)
                yield from self.lines(("",))  # the blank line that ends it
            else:
                yield HandBlock(base + i + 2, para)
        self.no = base + blanks[-1][0] + 1
        yield from self.lines(lines[blanks[-1][0] + 1 :])

    def finish(self) -> Iterator[HandBlock]:
        if self.cur:
            yield self._block(self.start, self.cur)
            self.cur = []
        self.pending = 0


def file_lines(f: BinaryIO, fallback: str = FALLBACK_ENCODING) -> Iterator[str]:
    """A binary file's lines, decoded (memory stays flat however big the file): UTF-16
    when it starts with a BOM, else each line as UTF-8 or, failing that, the legacy
    encoding; a damaged line as a `DamagedLine`. A binary stretch raises `UnreadableFile`
    naming the line; the lines before it have been produced already."""
    for piece in text_pieces(f, 0, fallback):
        yield from piece if isinstance(piece, Iterator) else piece[1]


def file_blocks(
    f: BinaryIO,
    starts: HandStarts,
    *,
    first_line: int = 1,
    fallback: str = FALLBACK_ENCODING,
) -> Iterator[HandBlock]:
    """`text_blocks(file_lines(f))`: the same blocks, line numbers and errors, faster.
    Chunks decoded in one go are cut at their blank lines by one regex scan, so only the
    lines around a chunk's edges (and blocks with a header inside) go one by one.
    `first_line`: the file line number of f's first line, when f is a byte range of a
    file that starts at one of its `cut_points`."""
    split = Splitter(starts)
    split.no = first_line - 1
    for piece in text_pieces(f, first_line - 1, fallback):
        if isinstance(piece, Iterator):
            yield from split.lines(piece)
        else:
            yield from split.chunk(*piece)
    yield from split.finish()


def text_blocks(text: str | Iterable[str], starts: HandStarts) -> Iterator[HandBlock]:
    """Split text (or its lines) into hand blocks."""
    split = Splitter(starts)
    yield from split.lines(text.split("\n") if isinstance(text, str) else text)
    yield from split.finish()


def cut_points(
    f: BinaryIO, every: int, starts: HandStarts, fallback: str = FALLBACK_ENCODING
) -> list[tuple[int, int]] | None:
    """Where a file can be cut into byte ranges that parse on their own to exactly
    what the whole file gives (for `--jobs`: workers read their own range, the parent
    only finds these): (byte offset, file line number) of a hand header line about
    every `every` bytes. A header line always starts a block, so no block and no run
    of junk text spans a cut, and line numbers are LF counts. Cutting stops at the
    first piece that is not plain text (old Mac CR line ends, where lines are not LF
    counts; a damaged line or binary data, read line by line): the rest of the file
    is one range, read as in one pass. None for UTF-16 files (read whole). Reads the
    file once, in 1 MB pieces; memory stays flat."""
    if is_utf16(f):
        return None
    inside = starts_inside(starts.prefixes, binary=True)
    cuts: list[tuple[int, int]] = []
    offset = lines = 0  # bytes and LFs before the current piece
    target = every  # the next cut: the first header line at or after this offset
    pieces = line_pieces(f)
    while True:
        try:
            piece = next(pieces, b"")
        except UnreadableFile:  # binary data: the worker reads on to it and reports it
            return cuts
        if not piece.endswith(b"\n"):  # the end, or the last line: no cut after it
            return cuts
        if not plain_lines(piece):
            return cuts  # from here on, lines are numbered as they are read
        if not decodes(piece, "utf-8") and not decodes(piece, fallback):
            return cuts  # an unreadable line ends the file's reading there
        buf = b"\n" + piece  # so a header at the piece's start is found too
        counted, counted_to = lines, 0  # LFs before piece[counted_to]
        while offset + len(piece) > target:
            found = inside.search(buf, max(target - offset, 0))
            if found is None:
                break
            at = found.start()  # buf index of the LF before the line = piece index of the line
            line = piece[at : piece.index(b"\n", at)].rstrip(b"\r")
            text = decode_line(line, fallback)  # (checked above: it decodes)
            if at + offset > 0 and starts.is_header(text):
                counted += piece.count(b"\n", counted_to, at)
                counted_to = at
                cuts.append((offset + at, counted + 1))
                target = offset + at + every
            else:  # a line that only starts like a header: look further on
                target = offset + at + 1
        offset += len(piece)
        lines = counted + piece.count(b"\n", counted_to)
