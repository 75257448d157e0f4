"""The base dialect: everything a site shares, so a new site is a grammar plus a short class.

The base `Dialect` owns decoding bytes, splitting a file into hand blocks (each with its first
line number), loading the site's Lark grammar from package resources and caching the parser,
and turning the parsed lines into an immutable `Hand`. A site subclass only fills in tables
(game names, currency symbols, time zones, labels for error messages) and names its grammar;
site behaviour lives in those tables, never in `if site == ...` code (sqlglot's dialects are
the model).

How a hand is parsed (DESIGN.md "Performance"): the grammar has ONE terminal per line kind,
each a regex with named groups for the line's fields; LALR rules fix only the order of the
sections. Lark runs LALR with the contextual lexer and a transformer passed to the
constructor, so no tree is built: the transformer hands back the hand's line tokens in order,
and `HandBuilder` reads each token's fields with that terminal's own compiled regex. We parse
per hand (a `parse()` call costs ~15 us, far less than a hand) and use lark-cython when it is
importable (`histkit[fast]`).

The fast path (`fastpath.py`, on unless `fast=False` or HISTKIT_NO_FASTPATH is set) reads
most hands without Lark: a line matcher built from the same parser's LALR table and terminal
order classifies each line once (memoised per lexer), hands its match straight to the same
`HandBuilder` handlers, and leaves any hand it cannot finish (or whose content is wrong) to
the LALR path above, which words the issue. So a Hand is the same either way; the
differential tests in tests/test_fastpath.py hold the two paths to that. Reading decodes
whole chunks of lines at a time; events are built by `fastpath.constructor`.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import os
import re
import sys
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import islice, pairwise
from pathlib import Path
from typing import Any, BinaryIO, ClassVar
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import lark
from lark.exceptions import UnexpectedInput, UnexpectedToken

from histkit.cards import Card, parse_card
from histkit.dialects.fastpath import LineMatcher, build_matcher, constructor
from histkit.model import (
    Action,
    ActionKind,
    BettingCapped,
    Collect,
    Deal,
    DoubleBetAllowed,
    Event,
    Game,
    Hand,
    Muck,
    NoLowHand,
    NoteKind,
    PotKind,
    Seat,
    SeatOutcome,
    SeatResult,
    Show,
    SourceRef,
    Street,
    StreetStart,
    Summary,
    TableNote,
    UncalledBet,
    Unit,
)

__all__ = [
    "Dialect",
    "HandBlock",
    "HandError",
    "ParseIssue",
    "UnreadableFile",
    "decode_bytes",
    "load_grammar",
]


# ------------------------------------------------------------------------------ results


@dataclass(frozen=True, slots=True)
class ParseIssue:
    """One skipped or rejected hand (or an unreadable file / text that is not a hand).

    `kind` is "skipped" for a hand of another game (hold'em in a mixed rotation) and
    "rejected" for a stud hand that cannot be parsed or a bad file; `reason` is a sentence a
    person understands; `game` is the game as written for skipped hands."""

    source_file: str
    line: int | None
    column: int | None
    hand_id: str | None
    kind: str
    reason: str
    game: str | None = None


@dataclass(frozen=True, slots=True)
class HandBlock:
    """The lines of one hand (no line breaks) and the 1-based file line of the first one."""

    start_line: int
    lines: list[str]

    @property
    def end_line(self) -> int:
        return self.start_line + len(self.lines) - 1

    @property
    def text(self) -> str:
        """The block as the grammar wants it: LF line ends, a final LF."""
        return "\n".join(self.lines) + "\n"


class HandError(ValueError):
    """A line the grammar accepted but whose content is wrong (unknown player, bad amount)."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


class UnreadableFile(ValueError):
    """The bytes are not text in any encoding we accept (binary, NUL bytes); `line` is
    where reading stopped when the file began as text."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


# ----------------------------------------------------------------------------- decoding

_BOMS_UTF16 = (b"\xff\xfe", b"\xfe\xff")
_READ_CHUNK = 1 << 20  # bytes read and decoded at a time (whole lines)
# C0 control bytes that never occur in a text hand history (tab, LF, VT, FF, CR excluded)
_BINARY_BYTES = re.compile(rb"[\x00-\x08\x0e-\x1a\x1c-\x1f]")
# the same bytes for bytes.translate: "any of them?" is a length check, ~8x faster than the
# regex scan on text that has none (the regex then says where)
_BINARY_DELETE = bytes([*range(0x00, 0x09), *range(0x0E, 0x1B), *range(0x1C, 0x20)])


def _has_binary(data: bytes) -> bool:
    return len(data.translate(None, _BINARY_DELETE)) != len(data)


def decode_bytes(data: bytes, *, fallback: str = "cp1252") -> str:
    """Bytes -> text with LF line ends: UTF-8 (BOM or not), UTF-16 with a BOM, else the
    site's legacy fallback (cp1252). Binary data raises `UnreadableFile`; we never guess."""
    if data.startswith(_BOMS_UTF16):
        try:
            text = data.decode("utf-16")
        except UnicodeDecodeError as e:
            raise UnreadableFile(f"invalid UTF-16 text (byte {e.start})") from None
    else:
        bad = _BINARY_BYTES.search(data) if _has_binary(data) else None
        if bad is not None:
            raise UnreadableFile(
                f"binary data, not a text hand history (control byte 0x{data[bad.start()]:02x} "
                f"at offset {bad.start()})"
            )
        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            try:
                text = data.decode(fallback)
            except UnicodeDecodeError as e:
                raise UnreadableFile(
                    f"neither UTF-8 nor {fallback} text (byte 0x{data[e.start]:02x} "
                    f"at offset {e.start})"
                ) from None
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text.removeprefix("\ufeff")


# ------------------------------------------------------------------------ grammar loading


def load_grammar(filename: str) -> str:
    """The grammar text: from the installed package (the wheel ships `histkit/grammars`),
    else from the source checkout's top-level `grammars/` folder."""
    from importlib import resources

    try:
        res = resources.files("histkit") / "grammars" / filename
        if res.is_file():
            return res.read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError, NotADirectoryError):
        pass
    repo = Path(__file__).resolve().parents[2] / "grammars" / filename
    if repo.is_file():
        return repo.read_text(encoding="utf-8")
    raise FileNotFoundError(f"grammar {filename!r} is neither in histkit/grammars nor in {repo}")


def _cache_dir() -> Path | None:
    """A private per-user directory for Lark's parser cache, or None when there is none we
    can trust. Lark's cache is a pickle, so it must never live where others can write."""
    if os.environ.get("HISTKIT_NO_CACHE"):
        return None
    base = os.environ.get("HISTKIT_CACHE_DIR")
    try:
        if base:
            root = Path(base)
        elif sys.platform == "win32":
            local = os.environ.get("LOCALAPPDATA") or Path.home() / "AppData" / "Local"
            root = Path(local) / "histkit"
        elif sys.platform == "darwin":
            root = Path.home() / "Library" / "Caches" / "histkit"
        else:
            root = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "histkit"
        if not base and not Path.home().is_dir():
            return None  # never create a home directory just for a cache
    except RuntimeError:  # no home directory to speak of
        return None
    try:
        root.mkdir(mode=0o700, parents=True, exist_ok=True)
        if os.name == "posix":
            st = root.stat()
            if st.st_uid != os.getuid() or st.st_mode & 0o022:
                return None
        if not os.access(root, os.W_OK):
            return None
    except OSError:
        return None
    return root


def _drop_stale_caches(root: Path, stem: str, flavour: str, keep: str) -> None:
    """Remove this grammar's caches from earlier grammar or lark versions."""
    for old in root.glob(f"{stem}-*-{flavour}.cache"):
        if old.name != keep:
            with contextlib.suppress(OSError):
                old.unlink()


class _Kids:
    """What an inlined helper rule reduces to: Lark only reads `.children` to splice it
    into its parent, so a slotted holder is enough (cheaper than a lark Tree)."""

    __slots__ = ("children",)

    def __init__(self, children: list[Any]) -> None:
        self.children = children


class _Tokens(lark.Transformer):
    """Hands the parsed line tokens back in order: the grammar only checks their order."""

    def start(self, children: list[Any]) -> list[Any]:
        return children

    def __default__(self, data: Any, children: list[Any], meta: Any) -> Any:
        return _Kids(children)


_GROUP_TAG = re.compile(r"\(\?P<[A-Za-z0-9]+_")


@dataclass(frozen=True, slots=True)
class _Compiled:
    parser: lark.Lark
    line_regex: dict[str, re.Pattern[str]]  # terminal -> its own regex, fields untagged
    header: re.Pattern[str]
    cython: bool


_COMPILED: dict[tuple[str, bool], _Compiled] = {}
_MATCHERS: dict[tuple[str, str], LineMatcher | None] = {}  # (grammar, header) -> matcher
_COMPILE_LOCK = threading.Lock()


def _want_cython() -> bool:
    if os.environ.get("HISTKIT_NO_CYTHON"):
        return False
    try:
        import lark_cython  # noqa: F401
    except ImportError:
        return False
    return True


def _build_parser(text: str, grammar_file: str, cython: bool) -> lark.Lark:
    """LALR + contextual lexer + the token-list transformer; lark-cython when asked; Lark's
    grammar-analysis cache in a private per-user directory when there is one."""
    opts: dict[str, Any] = {
        "parser": "lalr",
        "lexer": "contextual",
        "transformer": _Tokens(),
    }
    if cython:
        import lark_cython

        opts["_plugins"] = lark_cython.plugins
    cache = _cache_dir()
    if cache is not None:
        digest = hashlib.sha256(text.encode()).hexdigest()[:16]
        flavour = "cython" if cython else "py"
        name = f"{Path(grammar_file).stem}-{digest}-lark{lark.__version__}-{flavour}.cache"
        opts["cache"] = str(cache / name)
        _drop_stale_caches(cache, Path(grammar_file).stem, flavour, name)
    return lark.Lark(text, **opts)


def _compile(grammar_file: str, header_terminal: str, cython: bool) -> _Compiled:
    key = (grammar_file, cython)
    hit = _COMPILED.get(key)
    if hit is not None:
        return hit
    with _COMPILE_LOCK:
        hit = _COMPILED.get(key)
        if hit is not None:
            return hit
        text = load_grammar(grammar_file)
        try:
            parser = _build_parser(text, grammar_file, cython)
        except Exception:
            if not cython:
                raise
            # an incompatible lark-cython must not stop parsing: plain lark is the reference
            cython = False
            parser = _build_parser(text, grammar_file, cython)
        line_regex = {}
        for t in parser.terminals:
            pattern = _GROUP_TAG.sub("(?P<", t.pattern.to_regexp())
            line_regex[t.name] = re.compile(pattern)
        compiled = _Compiled(parser, line_regex, line_regex[header_terminal], cython)
        _COMPILED[key] = compiled
        return compiled


# ------------------------------------------------------------------------------ dialect

# What each shared terminal is, in words, for "expected ..." messages.
TERMINAL_LABELS: dict[str, str] = {
    "HEADER": "a hand header ('PokerStars Hand #...')",
    "TABLE": "the table line (\"Table '...' 8-max\")",
    "SEAT": "a seat line ('Seat N: P (X in chips)')",
    "ANTE": "an ante ('P: posts the ante X')",
    "DEALT": "a deal ('Dealt to P [..]')",
    "BRING_IN": "a bring-in ('P: brings in for X')",
    "BET": "a bet ('P: bets X')",
    "CALL": "a call ('P: calls X')",
    "RAISE": "a raise ('P: raises X to Y')",
    "CHECK": "a check ('P: checks')",
    "FOLD": "a fold ('P: folds')",
    "BETTING_CAPPED": "'Betting is capped'",
    "DOUBLE_BET": "'Pair on board - a double bet is allowed'",
    "UNCALLED": "'Uncalled bet (X) returned to P'",
    "STREET_3": "'*** 3rd STREET ***'",
    "STREET_4": "'*** 4th STREET ***'",
    "STREET_5": "'*** 5th STREET ***'",
    "STREET_6": "'*** 6th STREET ***'",
    "STREET_7": "'*** RIVER ***'",
    "SHOW_DOWN": "'*** SHOW DOWN ***'",
    "SHOW": "a show ('P: shows [..]')",
    "MUCK": "'P: mucks hand'",
    "NO_SHOW": '"P: doesn\'t show hand"',
    "COLLECT": "a collect ('P collected X from pot')",
    "NO_LOW": "'No low hand qualified'",
    "SUMMARY": "'*** SUMMARY ***'",
    "TOTAL_POT": "the total pot ('Total pot X | Rake Y')",
    "BOARD": "'Board [..]'",
    "RESULT_FOLDED": "a summary seat line ('Seat N: P folded on the ...')",
    "RESULT_SHOWED": "a summary seat line ('Seat N: P showed [..] and won/lost ...')",
    "RESULT_MUCKED": "a summary seat line ('Seat N: P mucked [..]')",
    "RESULT_COLLECTED": "a summary seat line ('Seat N: P collected (X)')",
    "RESULT_SAT_OUT": "a summary seat line ('Seat N: P is sitting out')",
    "_NOTE": "a chat or table note ('P said, \"...\"', 'P joins the table ...', ...)",
    "CHAT": "a chat line ('P said, \"...\"')",
    "JOIN": "'P joins the table at seat #N'",
    "LEAVE": "'P leaves the table'",
    "SIT_OUT": "'P is sitting out'",
    "RETURNED": "'P has returned'",
    "CONNECTED": "'P is connected'",
    "DISCONNECTED": "'P is disconnected'",
    "TIMED_OUT": "'P has timed out'",
    "REMOVED": "'P was removed from the table ...'",
    "FINISHED": "'P finished the tournament ...'",
    "WINS_TOURNAMENT": "'P wins the tournament ...'",
    "$END": "the end of the hand",
}
_NOTE_TERMINALS = frozenset(
    {
        "CHAT",
        "JOIN",
        "LEAVE",
        "SIT_OUT",
        "RETURNED",
        "CONNECTED",
        "DISCONNECTED",
        "TIMED_OUT",
        "REMOVED",
        "FINISHED",
        "WINS_TOURNAMENT",
    }
)


def _utf16_lines(f: BinaryIO) -> Iterator[str]:
    text = io.TextIOWrapper(f, encoding="utf-16", newline=None)
    try:
        for line in text:
            yield line.rstrip("\n")
    except UnicodeDecodeError as e:
        raise UnreadableFile(f"invalid UTF-16 text ({e.reason})") from None
    finally:
        text.detach()


# a line end with a blank line after it (empty or whitespace only, as str.isspace: re's
# \s is the same test); starting with a literal, the scan jumps from line end to line end
_BLANK_NEXT = re.compile(r"\n(?=[^\S\n]*\n)")


class _Splitter:
    """Cuts lines into hand blocks, across the pieces of a file: a blank line ends a
    block, a header line starts one even without a blank line before it, BOMs at line
    starts are dropped. `lines` reads one line at a time; `chunk` takes a whole decoded
    chunk and hands the blocks between its blank lines over in one piece."""

    __slots__ = ("header", "starts", "cur", "start", "no")

    def __init__(self, header: re.Pattern[str], starts: tuple[str, ...]) -> None:
        self.header = header
        self.starts = starts
        self.cur: list[str] = []  # the open block
        self.start = 0  # its first line
        self.no = 0  # lines read so far

    def lines(self, lines: Iterable[str]) -> Iterator[HandBlock]:
        header, starts = self.header, self.starts
        cur, start, no = self.cur, self.start, self.no
        try:
            for line in lines:
                no += 1
                if not line or line.isspace():
                    if cur:
                        yield HandBlock(start, cur)
                        cur = []
                    continue
                if line[0] == "\ufeff":  # a BOM at a file start, or inside concatenated files
                    line = line.lstrip("\ufeff")
                    if not line or line.isspace():
                        continue
                if cur and line.startswith(starts) and header.match(line + "\n"):
                    yield HandBlock(start, cur)
                    cur = []
                if not cur:
                    start = no
                cur.append(line)
        finally:
            self.cur, self.start, self.no = cur, start, no

    def chunk(self, text: str, lines: list[str]) -> Iterator[HandBlock]:
        """Whole lines (`text` is them joined, each with its LF): the stretch up to the
        first blank line continues the open block and the stretch after the last one stays
        open, line by line; a stretch between blank lines is a block as it stands, unless
        a line in it may start a hand."""
        if "\ufeff" in text:
            yield from self.lines(lines)
            return
        # blank lines as (line index, start, its line end) in the text
        blanks: list[tuple[int, int, int]] = []
        if not lines[0] or lines[0].isspace():
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
        inside = ["\n" + s for s in self.starts]
        for (i, _, after), (j, before, _) in pairwise(blanks):
            if j == i + 1:
                continue
            para = lines[i + 1 : j]
            if any(text.find(s, after + 1, before) >= 0 for s in inside):
                self.no = base + i + 1
                yield from self.lines(para)
                yield from self.lines(("",))  # the blank line that ends it
            else:
                yield HandBlock(base + i + 2, para)
        self.no = base + blanks[-1][0] + 1
        yield from self.lines(lines[blanks[-1][0] + 1 :])

    def finish(self) -> Iterator[HandBlock]:
        if self.cur:
            yield HandBlock(self.start, self.cur)
            self.cur = []


class Dialect:
    """A site's hand-history dialect. Subclasses set the class tables and `grammar_file`."""

    name: ClassVar[str] = ""
    site: ClassVar[str] = ""
    grammar_file: ClassVar[str] = ""
    header_terminal: ClassVar[str] = "HEADER"
    # a line starting with one of these may begin a new hand (checked with the header regex)
    hand_start: ClassVar[tuple[str, ...]] = ()
    # game name as written, upper-cased -> Game; any other game is skipped
    games: ClassVar[Mapping[str, Game]] = {}
    # currency symbol -> ISO code (a symbol in the stakes means the unit is CENT)
    currency_symbols: ClassVar[Mapping[str, str]] = {}
    # zone abbreviation in headers -> IANA zone
    time_zones: ClassVar[Mapping[str, str]] = {}
    # the zone preferred when a header gives two times ("CET [... ET]")
    reference_zone: ClassVar[str] = ""
    fallback_encoding: ClassVar[str] = "cp1252"
    terminal_labels: ClassVar[Mapping[str, str]] = TERMINAL_LABELS

    def __init__(self, *, cython: bool | None = None, fast: bool | None = None) -> None:
        self._cython = _want_cython() if cython is None else cython
        # the line matcher (fastpath.py) first, Lark for what it leaves; fast=False: Lark only
        self._fast = not os.environ.get("HISTKIT_NO_FASTPATH") if fast is None else fast
        self._compiled_cache: _Compiled | None = None
        self._matcher_cache: LineMatcher | None | bool = False  # False: not built yet
        # unit -> amount text -> minor units; shared by the hands this dialect parses
        self._money_memo: dict[Unit, dict[str, int]] = {u: {} for u in Unit}

    # -- resources -------------------------------------------------------------------

    @property
    def compiled(self) -> _Compiled:
        c = self._compiled_cache
        if c is None:
            c = self._compiled_cache = _compile(
                self.grammar_file, self.header_terminal, self._cython
            )
        return c

    @property
    def matcher(self) -> LineMatcher | None:
        """The fast path's line matcher (None when switched off or the grammar allows
        none), built from the plain-lark parser: its tables are the reference."""
        got = self._matcher_cache
        if got is False:
            got = None
            if self._fast:
                key = (self.grammar_file, self.header_terminal)
                got = _MATCHERS.get(key, False)
                if got is False:
                    plain = _compile(self.grammar_file, self.header_terminal, False)
                    got = _MATCHERS[key] = build_matcher(
                        plain.parser, plain.line_regex, _HANDLERS, self.header_terminal
                    )
            self._matcher_cache = got
        return got  # type: ignore[return-value]

    @property
    def uses_fast_path(self) -> bool:
        return self.matcher is not None

    @property
    def uses_cython(self) -> bool:
        return self.compiled.cython

    def decode(self, data: bytes) -> str:
        return decode_bytes(data, fallback=self.fallback_encoding)

    # -- splitting -------------------------------------------------------------------

    def lines(self, f: BinaryIO) -> Iterator[str]:
        """A binary file's lines, decoded one at a time (memory stays flat however big the
        file): UTF-16 when it starts with a BOM, else each line as UTF-8 or, failing
        that, the site's legacy encoding. Binary data raises `UnreadableFile` naming the
        line; the lines before it have been produced already."""
        for piece in self._pieces(f):
            yield from piece if isinstance(piece, Iterator) else piece[1]

    def file_blocks(self, f: BinaryIO) -> Iterator[HandBlock]:
        """`blocks(lines(f))`: the same blocks, line numbers and errors, faster. Chunks
        decoded in one go are cut at their blank lines by one regex scan, so only the
        lines around a chunk's edges (and blocks with a header inside) go one by one."""
        split = _Splitter(self.compiled.header, self.hand_start)
        for piece in self._pieces(f):
            if isinstance(piece, Iterator):
                yield from split.lines(piece)
            else:
                yield from split.chunk(*piece)
        yield from split.finish()

    def _pieces(self, f: BinaryIO) -> Iterator[tuple[str, list[str]] | Iterator[str]]:
        """The file's lines in pieces: (text, its lines) for a chunk decoded in one go,
        an iterator for text that must be read line by line (UTF-16, CR line ends,
        legacy encodings, binary data: `UnreadableFile` at its line)."""
        head = f.read(2)
        f.seek(0)
        if head in _BOMS_UTF16:
            yield _utf16_lines(f)
            return
        no = 0
        rest = bytearray()  # the start of a line whose end is in a later chunk
        while True:
            data = f.read(_READ_CHUNK)
            if not data:
                break
            cut = data.rfind(b"\n") + 1
            if not cut:  # no line end yet: a very long line (or a binary file)
                if _BINARY_BYTES.search(data):
                    raise UnreadableFile(
                        f"binary data, not a text hand history (line {no + 1})", no + 1
                    )
                rest += data
                continue
            chunk = bytes(rest) + data[:cut] if rest else data[:cut]
            rest = bytearray(data[cut:])
            # the common cases in one go: UTF-8 with LF or CRLF line ends, no control bytes
            # (a CR anywhere but before LF means old Mac line ends: line by line)
            decoded: str | None = None
            crs = chunk.count(b"\r")
            if (not crs or crs == chunk.count(b"\r\n")) and not _has_binary(chunk):
                with contextlib.suppress(UnicodeDecodeError):
                    decoded = chunk.decode("utf-8")
                if crs and decoded is not None:
                    decoded = decoded.replace("\r\n", "\n")
            if decoded is not None:
                lines = decoded.split("\n")
                lines.pop()  # after the chunk's last line end
                no += len(lines)
                yield decoded, lines
            else:
                yield self._decode_lines(chunk, no)
                no += chunk.count(b"\n")
        if rest:
            yield self._decode_lines(bytes(rest), no)

    def _decode_lines(self, data: bytes, before: int) -> Iterator[str]:
        """Lines one at a time: each as UTF-8 or else the site's legacy encoding, CR line
        ends split, binary data raised at its line (file line numbers from `before` + 1)."""
        fallback = self.fallback_encoding
        for no, raw in enumerate(io.BytesIO(data), before + 1):
            if _BINARY_BYTES.search(raw):
                raise UnreadableFile(f"binary data, not a text hand history (line {no})", no)
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError:
                try:
                    line = raw.decode(fallback)
                except UnicodeDecodeError:
                    raise UnreadableFile(
                        f"neither UTF-8 nor {fallback} text (line {no})", no
                    ) from None
            line = line.rstrip("\r\n")
            if "\r" in line:  # old Mac line ends: one physical line holds several
                yield from line.split("\r")
            else:
                yield line

    def blocks(self, text: str | Iterable[str]) -> Iterator[HandBlock]:
        """Split text (or its lines) into hand blocks: a blank line ends a block, and a
        header line starts a new one even without a blank line before it."""
        split = _Splitter(self.compiled.header, self.hand_start)
        yield from split.lines(text.split("\n") if isinstance(text, str) else text)
        yield from split.finish()

    def starts_hand(self, block: HandBlock) -> bool:
        """Whether a block begins with this site's hand header."""
        first = block.lines[0]
        return first.startswith(self.hand_start) and bool(self.compiled.header.match(first + "\n"))

    # -- parsing ---------------------------------------------------------------------

    def parse(self, text: str | Iterable[str], source: str) -> Iterator[Hand | ParseIssue]:
        """Every hand or issue of one file's text (or lines), in order. A run of text that
        is not hands is reported once; an empty text is reported as such."""
        seen = False
        for item in self.parse_blocks(self.blocks(text), source):
            seen = True
            yield item
        if not seen:
            yield ParseIssue(source, None, None, None, "rejected", "empty file: no hands in it")

    def parse_blocks(self, blocks: Iterable[HandBlock], source: str) -> Iterator[Hand | ParseIssue]:
        """Every hand or issue of a run of blocks (the reader's chunks, for --jobs); a run of
        text that is not hands is reported once."""
        junk: list[HandBlock] = []  # first and last block of the current run
        junk_lines = 0
        for block in blocks:
            result = self.parse_block(block, source)
            if result is None:
                junk[1:] = [block]
                junk_lines += len(block.lines)
                continue
            if junk:
                yield self._junk_issue(junk[0], junk[-1], junk_lines, source)
                junk, junk_lines = [], 0
            yield result
        if junk:
            yield self._junk_issue(junk[0], junk[-1], junk_lines, source)

    def _junk_issue(self, first: HandBlock, last: HandBlock, n: int, source: str) -> ParseIssue:
        lines = (
            f"line {first.start_line}" if n == 1 else f"lines {first.start_line}-{last.end_line}"
        )
        return ParseIssue(
            source,
            first.start_line,
            1,
            None,
            "rejected",
            f"text that is not part of any hand ({lines}), starting {_clip(first.lines[0])}",
        )

    def parse_block(self, block: HandBlock, source: str) -> Hand | ParseIssue | None:
        """One block -> a Hand, a skipped/rejected issue, or None when the block does not
        even start like a hand (the caller reports such text once per run)."""
        first = block.lines[0]
        m = self.compiled.header.match(first + "\n")
        if m is None:
            if first.startswith(self.hand_start):
                return ParseIssue(
                    source,
                    block.start_line,
                    1,
                    _guess_hand_id(first),
                    "rejected",
                    f"hand header not understood: {_clip(first)}",
                )
            return None
        hand_id = m["id"]
        game_text = (m["mgame"] or m["game"] or "").strip()
        if game_text.upper() not in self.games:
            return ParseIssue(
                source,
                block.start_line,
                None,
                hand_id,
                "skipped",
                f"other game: {game_text}",
                game=game_text,
            )
        matcher = self.matcher
        if matcher is not None:
            try:
                hand = HandBuilder(self, block, source).build_fast(matcher, m)
            except Exception:  # noqa: BLE001
                # Lark decides: a grammar error later in the hand comes first, and any
                # other failure is raised again by the same handlers on the LALR path
                hand = None
            if hand is not None:
                return hand
        try:
            tokens: Any = self.compiled.parser.parse(block.text)
        except UnexpectedInput as e:
            return self._grammar_issue(e, block, source, hand_id)
        try:
            return HandBuilder(self, block, source).build(tokens, m)
        except HandError as e:
            return ParseIssue(source, e.line, None, hand_id, "rejected", e.message)

    def _labels(self, names: Any) -> str:
        """Terminal names -> words, in the table's order; notes collapse to one entry."""
        labels = self.terminal_labels
        names = set(names)
        notes = names & _NOTE_TERMINALS
        if len(notes) > 1:
            names = (names - notes) | {"_NOTE"}
        order = {name: i for i, name in enumerate(labels)}
        known = sorted((n for n in names if n in labels), key=order.__getitem__)
        words = [labels[n] for n in known] + sorted(n for n in names if n not in labels)
        if len(words) > 24:
            words = words[:24] + [f"... ({len(words) - 24} more)"]
        return "; ".join(words)

    def _expected(self, e: UnexpectedInput, block: HandBlock) -> set[str]:
        """What the grammar would have accepted where it stopped. lark-cython cannot
        simulate that, so errors (rare) are re-parsed with plain lark, whose interactive
        parser gives the exact set rather than LALR's merged lookaheads."""
        plain = _compile(self.grammar_file, self.header_terminal, False)
        try:
            plain.parser.parse(block.text)
        except UnexpectedInput as again:
            e = again
        ip = getattr(e, "interactive_parser", None)
        if ip is not None:
            try:
                return set(ip.accepts())
            except Exception:  # pragma: no cover - fall back to lark's own set
                pass
        got = getattr(e, "expected", None) or getattr(e, "allowed", None) or ()
        return set(got)

    def _grammar_issue(
        self, e: UnexpectedInput, block: HandBlock, source: str, hand_id: str
    ) -> ParseIssue:
        expected = self._labels(self._expected(e, block))
        if isinstance(e, UnexpectedToken) and e.token.type == "$END":
            return ParseIssue(
                source,
                block.end_line,
                None,
                hand_id,
                "rejected",
                f"hand ends early (truncated?) after {_clip(block.lines[-1])}; expected {expected}",
            )
        rel = e.line if isinstance(e.line, int) and e.line > 0 else 1
        text = block.lines[rel - 1] if rel <= len(block.lines) else ""
        if isinstance(e, UnexpectedToken):
            what = self.terminal_labels.get(e.token.type, e.token.type)
            reason = f"{what} is out of place: {_clip(text)}; expected {expected}"
        else:
            reason = f"line not understood: {_clip(text)}; expected {expected}"
        if rel == len(block.lines):
            reason += " (this is the hand's last line: truncated?)"
        column = e.column if isinstance(e.column, int) and e.column > 0 else None
        return ParseIssue(source, block.start_line + rel - 1, column, hand_id, "rejected", reason)


def _clip(text: str, width: int = 100) -> str:
    text = text.rstrip()
    return repr(text if len(text) <= width else text[: width - 3] + "...")


_HAND_NO = re.compile(r"#(\d+)")


def _guess_hand_id(line: str) -> str | None:
    m = _HAND_NO.search(line)
    return m.group(1) if m else None


# ------------------------------------------------------------------------ hand building

_STREET_OF_TERMINAL = {
    "STREET_3": Street.THIRD,
    "STREET_4": Street.FOURTH,
    "STREET_5": Street.FIFTH,
    "STREET_6": Street.SIXTH,
    "STREET_7": Street.SEVENTH,
}
_STREET_WORDS = {
    "3rd street": Street.THIRD,
    "4th street": Street.FOURTH,
    "5th street": Street.FIFTH,
    "6th street": Street.SIXTH,
    "7th street": Street.SEVENTH,
    "river": Street.SEVENTH,
}
_ACTION_OF_TERMINAL = {
    "ANTE": ActionKind.ANTE,
    "BRING_IN": ActionKind.BRING_IN,
    "BET": ActionKind.BET,
    "CALL": ActionKind.CALL,
}
_NOTE_OF_TERMINAL = {
    "JOIN": NoteKind.JOIN,
    "LEAVE": NoteKind.LEAVE,
    "SIT_OUT": NoteKind.SIT_OUT,
    "RETURNED": NoteKind.RETURN,
    "CONNECTED": NoteKind.CONNECT,
    "DISCONNECTED": NoteKind.DISCONNECT,
    "TIMED_OUT": NoteKind.TIMED_OUT,
    "REMOVED": NoteKind.REMOVED,
    "FINISHED": NoteKind.FINISHED,
    "WINS_TOURNAMENT": NoteKind.FINISHED,
}
_POTS = {"pot": PotKind.POT, "main pot": PotKind.MAIN}
_UP3 = (False, False, True)
_UP_TRUE = (True,)
_UP_FALSE = (False,)
_ZONES: dict[str, ZoneInfo] = {}


def _zone(name: str) -> ZoneInfo | None:
    z = _ZONES.get(name)
    if z is None:
        try:
            z = _ZONES[name] = ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError):
            return None
    return z


_CARDS_MEMO: dict[str, tuple[Card, ...]] = {}


# every card as the grammars write it ("Ah", "10d"): one dict lookup per card
_CARD_OF: dict[str, Card] = {
    r + s: parse_card(r + s) for r in (*"23456789TJQKA", "10") for s in "cdhs"
}


def _cards(text: str) -> tuple[Card, ...]:
    """ "Ah 2c 3s" -> cards; memoised (bounded): the same lists recur in every hand."""
    got = _CARDS_MEMO.get(text)
    if got is None:
        try:
            got = tuple(map(_CARD_OF.__getitem__, text.split()))
        except KeyError:  # another site's spelling: the cards module decides
            got = tuple(map(parse_card, text.split()))
        if len(_CARDS_MEMO) > 50_000:
            _CARDS_MEMO.clear()
        _CARDS_MEMO[text] = got
    return got


# the model's events built without the per-field object.__setattr__ (fastpath.constructor)
_ACTION = constructor(Action)
_DEAL = constructor(Deal)
_STREET_START = constructor(StreetStart)
_SEAT = constructor(Seat)
_SEAT_RESULT = constructor(SeatResult)
_UNCALLED = constructor(UncalledBet)
_COLLECT = constructor(Collect)
_SHOW = constructor(Show)
_MUCK = constructor(Muck)
_NOTE = constructor(TableNote)
_NO_LOW = constructor(NoLowHand)
_CAPPED = constructor(BettingCapped)
_DOUBLE_BET = constructor(DoubleBetAllowed)
_SUMMARY = constructor(Summary)
_SOURCE = constructor(SourceRef)
_HAND = constructor(Hand)


class HandBuilder:
    """Reads one parsed hand's lines into a `Hand`. Validates what the grammar cannot:
    amounts in the hand's unit, players against the seat list, deal shapes per street.

    Both paths feed the same handlers, one call per line with that line's regex match:
    `build_fast` classifies the lines itself (the line matcher), `build` takes Lark's
    tokens. So the two can only differ in which terminal a line is, and the matcher takes
    that from Lark's own tables. The handlers are the hot loop: no helper calls on the
    common path, amounts and card lists from memo dicts, player names mapped to the seat
    line's (interned) string so every event of a player shares one name object."""

    __slots__ = (
        "d",
        "regex",
        "offset",
        "block",
        "source",
        "street",
        "events",
        "seats",
        "seat_nos",
        "players",
        "names",
        "hole_cards_seen",
        "header",
        "unit",
        "symbols",
        "results",
        "pot",
        "board",
        "summary_line",
        "_money",
        "_memo",
    )

    def __init__(self, dialect: Dialect, block: HandBlock, source: str) -> None:
        self.d = dialect
        self.regex = dialect.compiled.line_regex
        self.offset = block.start_line - 1
        self.block = block
        self.source = source
        self.street = Street.THIRD
        self.events: list[Event] = []
        self.seats: list[Seat] = []
        self.seat_nos: set[int] = set()
        self.players: dict[str, Seat] = {}
        self.names: dict[str, str] = {}  # name as written -> the seat line's interned name
        # players whose 3rd-street line shows all three cards: the hero, when exactly one
        # (a tracker's export may show everyone's; then there is no single hero)
        self.hole_cards_seen: list[str] = []
        self.header: dict[str, Any] = {}
        self.unit = Unit.CHIP
        self.symbols: tuple[str, ...] = ()
        self.results: list[SeatResult] = []
        self.pot: dict[str, Any] | None = None
        self.board: tuple[Card, ...] = ()
        self.summary_line = 0
        self._memo = dialect._money_memo
        self._money = self._memo[Unit.CHIP]  # amount text -> minor units, this hand's unit

    # -- drivers ---------------------------------------------------------------------

    def build(self, tokens: list[Any], header: re.Match[str] | None = None) -> Hand:
        """Lark's tokens (the header first) -> Hand. `header` is the header line's match
        when the caller has it already (the skip check made it), saving the longest
        re-match."""
        regex = self.regex
        handlers = _HANDLERS
        offset = self.offset
        it = iter(tokens)
        if header is not None:
            first = next(it)
            handlers[first.type](self, header, offset + first.line)
        for tok in it:
            typ = tok.type
            line = offset + tok.line
            m = regex[typ].match(tok.value)
            if m is None:  # pragma: no cover - the lexer matched this very regex
                raise HandError(f"internal: {typ} does not re-match {_clip(tok.value)}", line)
            handlers[typ](self, m, line)
        return self._hand()

    def build_fast(self, matcher: LineMatcher, header: re.Match[str]) -> Hand | None:
        """The hand's lines -> Hand through the line matcher, each line classified and
        matched once (or remembered); None when the matcher leaves the hand to Lark (a
        line it cannot classify, a line kind out of place, an early end). `header` is the
        first line's match, as the skip check made it."""
        lines = self.block.lines
        rows = matcher.rows
        state = matcher.first
        if state < 0:
            return None
        self.on_header(header, self.offset + 1)
        for line_no, line in enumerate(islice(lines, 1, None), self.offset + 2):
            row = rows[state] or matcher.row(state)
            if row is None:
                return None
            hit = row[3].get(line) or matcher.read(row, line)
            if hit is None:
                return None
            name, handler, m = hit
            state = row[4][name]
            if state < 0:
                return None
            handler(self, m, line_no)
        row = rows[state] or matcher.row(state)
        if row is None or not row[2]:
            return None
        return self._hand()

    def _hand(self) -> Hand:
        h = self.header
        summary = None
        if self.pot is not None:
            summary = _SUMMARY(
                total_pot=self.pot["total"],
                rake=self.pot["rake"],
                main_pot=self.pot["main"],
                side_pots=self.pot["sides"],
                board=self.board,
                seats=tuple(self.results),
                line=self.summary_line,
            )
        seen = self.hole_cards_seen
        return _HAND(
            site=self.d.site,
            hand_id=h["hand_id"],
            game=h["game"],
            small_bet=h["small_bet"],
            big_bet=h["big_bet"],
            unit=self.unit,
            currency=h["currency"],
            started_at=h["started_at"],
            table=h["table"],
            max_seats=h["max_seats"],
            seats=tuple(self.seats),
            events=tuple(self.events),
            summary=summary,
            source=_SOURCE(self.source, self.block.start_line),
            tournament_id=h["tournament_id"],
            level=h["level"],
            buy_in=h["buy_in"],
            mix=h["mix"],
            ante=None,
            bring_in=None,
            local_time=h["local_time"],
            hero=seen[0] if seen and seen.count(seen[0]) == len(seen) else None,
        )

    # -- helpers (the rare paths; handlers inline the common case) -------------------

    def money(self, text: str, line: int) -> int:
        """An amount as written -> integer minor units of this hand. A currency symbol
        must be present exactly when the hand is in money (never guessed)."""
        cached = self._money.get(text)
        if cached is not None:
            return cached
        has_symbol = text.startswith(self.symbols) if self.symbols else False
        digits = text[1:] if has_symbol else text
        if has_symbol != (self.unit is Unit.CENT):
            kind = "a currency amount" if has_symbol else "a chip amount"
            raise HandError(f"{kind} {text!r} in a hand counted in {self.unit.value}s", line)
        digits = digits.replace(",", "")
        whole, dot, frac = digits.partition(".")
        if self.unit is Unit.CENT:
            if len(frac) > 2 or (dot and not frac):
                raise HandError(f"amount {text!r} has more than cents", line)
            value = int(whole) * 100 + (int(frac.ljust(2, "0")) if frac else 0)
        else:
            if dot and frac.strip("0"):
                raise HandError(f"chip amount {text!r} is not a whole number", line)
            value = int(whole)
        if len(self._money) > 100_000:  # amounts repeat a lot; keep the memo bounded
            self._money.clear()
        self._money[text] = value
        return value

    def seated(self, name: str, line: int) -> str:
        """The seated player's name (the seat line's string); HandError when not seated."""
        got = self.names.get(name)
        if got is None:
            raise HandError(f"player {name!r} is not seated at this table", line)
        return got

    # -- header ------------------------------------------------------------------------

    def on_header(self, m: re.Match[str], line: int) -> None:
        d = self.d
        game_text = (m["mgame"] or m["game"]).strip()
        sb = m["msb"] or m["sb"] or m["lsb"]
        bb = m["mbb"] or m["bb"] or m["lbb"]
        if sb is None or bb is None:
            raise HandError("the header states no stakes (small bet/big bet)", line)
        self.symbols = tuple(d.currency_symbols)
        self.unit = Unit.CENT if sb.startswith(self.symbols) else Unit.CHIP
        self._money = self._memo[self.unit]
        currency = m["mcur"] or m["cur"] if self.unit is Unit.CENT else None
        self.header = {
            "hand_id": m["id"],
            "game": d.games[game_text.upper()],
            "small_bet": self.money(sb, line),
            "big_bet": self.money(bb, line),
            "currency": currency,
            "started_at": self._started_at(m),
            "local_time": m["date"],
            "tournament_id": m["tid"],
            "level": m["level"],
            "buy_in": m["buyin"],
            "mix": m["mix"].strip() if m["mix"] else None,
        }

    def _started_at(self, m: re.Match[str]) -> datetime | None:
        """The start in UTC from the reference-zone time when the header has one (ET),
        else from the only time given; None when no zone is in the site's table. In the
        hour a DST change repeats, the other written time (if any) picks the right one."""
        zones = self.d.time_zones
        first = (m["d1"], m["t1"], (m["z0"] or m["z1"]).upper())
        times = [first]
        if m["d2"]:
            second = (m["d2"], m["t2"], m["z2"].upper())
            times = [second, first] if second[2] == self.d.reference_zone else [first, second]
        found: list[tuple[datetime, datetime]] = []  # (fold=0, fold=1) readings, in UTC
        for date, clock, abbr in times:
            iana = zones.get(abbr)
            zone = _zone(iana) if iana else None
            if zone is None:
                continue
            y, mo, dd = date.split("/")
            hh, mi, ss = clock.split(":")
            local = datetime(int(y), int(mo), int(dd), int(hh), int(mi), int(ss), tzinfo=zone)
            found.append((local.astimezone(UTC), local.replace(fold=1).astimezone(UTC)))
        if not found:
            return None
        early, late = found[0]
        if early != late and len(found) > 1 and found[1][0] == found[1][1]:
            return late if found[1][0] == late else early
        return early

    def on_table(self, m: re.Match[str], line: int) -> None:
        self.header["table"] = m["name"]
        self.header["max_seats"] = int(m["max"]) if m["max"] else None

    def on_seat(self, m: re.Match[str], line: int) -> None:
        no_text, player, amount, out = m.group("seat", "player", "amount", "out")
        no = int(no_text)
        if player in self.players or no in self.seat_nos:
            raise HandError(f"seat {no} ({player!r}) is listed twice", line)
        player = sys.intern(player)
        stack = self._money.get(amount)
        if stack is None:
            stack = self.money(amount, line)
        seat = _SEAT(no, player, stack, out is not None, line)
        self.seats.append(seat)
        self.seat_nos.add(no)
        self.players[player] = seat
        self.names[player] = player

    # -- play --------------------------------------------------------------------------

    def on_street(self, m: re.Match[str], line: int, street: Street) -> None:
        self.street = street
        card = m["card"] if "card" in m.re.groupindex else None
        self.events.append(_STREET_START(street, parse_card(card) if card else None, line))

    def on_deal(self, m: re.Match[str], line: int) -> None:
        player, cards, new = m.group("player", "cards", "new")
        name = self.names.get(player)
        if name is None and new is not None:
            # a name that ends in something card-like: "X [Ah]" -> try the longer name
            name = self.names.get(f"{player} [{cards}]")
            if name is not None:
                cards, new = new, None
        if name is None:
            raise HandError(f"player {player!r} is not seated at this table", line)
        street = self.street
        shown = _CARDS_MEMO.get(cards) or _cards(cards)
        if street is Street.THIRD:
            if new is not None:
                raise HandError("a 3rd-street deal shows earlier cards ('[..] [..]')", line)
            if len(shown) == 1:
                deal = _DEAL(street, name, (None, None, shown[0]), _UP3, (), line)
            elif len(shown) == 3:
                deal = _DEAL(street, name, shown, _UP3, (), line)
                self.hole_cards_seen.append(name)
            else:
                raise HandError(f"a 3rd-street deal of {len(shown)} cards", line)
        else:
            if new is None:
                raise HandError(f"a {street.name.lower()}-street deal without a new card", line)
            fresh = _CARDS_MEMO.get(new) or _cards(new)
            if len(fresh) != 1:
                raise HandError(f"a deal of {len(fresh)} new cards on one street", line)
            up = _UP_FALSE if street is Street.SEVENTH else _UP_TRUE
            deal = _DEAL(street, name, fresh, up, shown, line)
        self.events.append(deal)

    def on_raise(self, m: re.Match[str], line: int) -> None:
        player, amount, to, allin = m.group("player", "amount", "to", "allin")
        name = self.names.get(player) or self.seated(player, line)
        money = self._money
        a = money.get(amount)
        if a is None:
            a = self.money(amount, line)
        b = money.get(to)
        if b is None:
            b = self.money(to, line)
        self.events.append(
            _ACTION(self.street, name, ActionKind.RAISE, a, b, allin is not None, line)
        )

    def on_check(self, m: re.Match[str], line: int) -> None:
        player = m["player"]
        name = self.names.get(player) or self.seated(player, line)
        self.events.append(_ACTION(self.street, name, ActionKind.CHECK, 0, None, False, line))

    def on_fold(self, m: re.Match[str], line: int) -> None:
        player = m["player"]
        name = self.names.get(player) or self.seated(player, line)
        self.events.append(_ACTION(self.street, name, ActionKind.FOLD, 0, None, False, line))

    def on_capped(self, m: re.Match[str], line: int) -> None:
        self.events.append(_CAPPED(self.street, line))

    def on_double_bet(self, m: re.Match[str], line: int) -> None:
        self.events.append(_DOUBLE_BET(self.street, line))

    def on_uncalled(self, m: re.Match[str], line: int) -> None:
        player = self.seated(m["player"], line)
        self.events.append(_UNCALLED(player, self.money(m["amount"], line), self.street, line))

    def on_collect(self, m: re.Match[str], line: int) -> None:
        player = self.seated(m["player"], line)
        pot_text = m["pot"]
        pot = _POTS.get(pot_text)
        index = 0
        if pot is None:  # side pot, side pot-N ("side pot" alone is the only side pot: 1)
            pot = PotKind.SIDE
            index = int(m["index"]) if m["index"] else 1
        self.events.append(_COLLECT(player, self.money(m["amount"], line), pot, index, line))

    def on_show(self, m: re.Match[str], line: int) -> None:
        player = self.seated(m["player"], line)
        self.events.append(_SHOW(player, _cards(m["cards"]), m["description"], line))

    def on_muck(self, m: re.Match[str], line: int) -> None:
        self.events.append(_MUCK(self.seated(m["player"], line), False, line))

    def on_no_show(self, m: re.Match[str], line: int) -> None:
        self.events.append(_MUCK(self.seated(m["player"], line), True, line))

    def on_no_low(self, m: re.Match[str], line: int) -> None:
        self.events.append(_NO_LOW(line))

    def on_chat(self, m: re.Match[str], line: int) -> None:
        self.events.append(_NOTE(NoteKind.CHAT, m["player"], m["text"], line))

    def on_note(self, m: re.Match[str], line: int, kind: NoteKind) -> None:
        # the line as written (players who join need not be seated)
        text = m[0].rstrip()
        self.events.append(_NOTE(kind, m["player"], text, line))

    def on_ignore(self, m: re.Match[str], line: int) -> None:
        """Section markers the model does not keep (`*** SHOW DOWN ***`)."""

    # -- summary -----------------------------------------------------------------------

    def on_summary(self, m: re.Match[str], line: int) -> None:
        self.summary_line = line

    def on_total_pot(self, m: re.Match[str], line: int) -> None:
        main: int | None = None
        sides: list[int] = []
        words = m["pots"].split()
        # pairs of "<Main|Side> pot[-N] <amount>." from the grammar-checked group
        for i in range(0, len(words), 3):
            which, amount = words[i], words[i + 2].removesuffix(".")
            if which.lower() == "main":
                main = self.money(amount, line)
            else:
                sides.append(self.money(amount, line))
        self.pot = {
            "total": self.money(m["total"], line),
            "rake": self.money(m["rake"], line),
            "main": main,
            "sides": tuple(sides),
        }

    def on_board(self, m: re.Match[str], line: int) -> None:
        self.board = _cards(m["cards"])

    def _result_seat(self, m: re.Match[str], line: int) -> tuple[int, str]:
        no, player = int(m["seat"]), m["player"]
        seat = self.players.get(player)
        if seat is None or seat.seat != no:
            raise HandError(f"summary names {player!r} at seat {no}, not the seat list's", line)
        return no, seat.player

    def on_result_folded(self, m: re.Match[str], line: int) -> None:
        no_text, player, street_text, didnt = m.group("seat", "player", "street", "didnt")
        no = int(no_text)
        seat = self.players.get(player)
        if seat is None or seat.seat != no:
            raise HandError(f"summary names {player!r} at seat {no}, not the seat list's", line)
        player = seat.player
        street = _STREET_WORDS[street_text.lower()]
        self.results.append(
            _SEAT_RESULT(
                no, player, SeatOutcome.FOLDED, 0, (), None, street, didnt is not None, line
            )
        )

    def on_result_showed(self, m: re.Match[str], line: int) -> None:
        no, player = self._result_seat(m, line)
        won = self.money(m["won"], line) if m["won"] else 0
        self.results.append(
            _SEAT_RESULT(
                no,
                player,
                SeatOutcome.SHOWED,
                won,
                _cards(m["cards"]),
                m["description"],
                None,
                False,
                line,
            )
        )

    def on_result_mucked(self, m: re.Match[str], line: int) -> None:
        no, player = self._result_seat(m, line)
        cards = _cards(m["cards"]) if m["cards"] else ()
        self.results.append(
            _SEAT_RESULT(no, player, SeatOutcome.MUCKED, 0, cards, None, None, False, line)
        )

    def on_result_sat_out(self, m: re.Match[str], line: int) -> None:
        no, player = self._result_seat(m, line)
        self.results.append(
            _SEAT_RESULT(no, player, SeatOutcome.OTHER, 0, (), None, None, False, line)
        )

    def on_result_collected(self, m: re.Match[str], line: int) -> None:
        no, player = self._result_seat(m, line)
        won = self.money(m["won"], line)
        self.results.append(
            _SEAT_RESULT(no, player, SeatOutcome.COLLECTED, won, (), None, None, False, line)
        )


def _street_handler(street: Street) -> Callable[[HandBuilder, re.Match[str], int], None]:
    def on_street(b: HandBuilder, m: re.Match[str], line: int) -> None:
        b.street = street
        card = m["card"] if "card" in m.re.groupindex else None
        b.events.append(_STREET_START(street, parse_card(card) if card else None, line))

    return on_street


def _action_handler(kind: ActionKind) -> Callable[[HandBuilder, re.Match[str], int], None]:
    """Antes, bring-ins, bets and calls: the most frequent lines, so all inline."""

    def on_action(b: HandBuilder, m: re.Match[str], line: int) -> None:
        player, amount, allin = m.group("player", "amount", "allin")
        name = b.names.get(player) or b.seated(player, line)
        value = b._money.get(amount)
        if value is None:
            value = b.money(amount, line)
        b.events.append(_ACTION(b.street, name, kind, value, None, allin is not None, line))

    return on_action


def _note_handler(kind: NoteKind) -> Callable[[HandBuilder, re.Match[str], int], None]:
    return lambda b, m, line: b.on_note(m, line, kind)


# terminal name -> how its line becomes part of the Hand (the shared line vocabulary)
_HANDLERS: dict[str, Callable[[HandBuilder, re.Match[str], int], None]] = {
    "HEADER": HandBuilder.on_header,
    "TABLE": HandBuilder.on_table,
    "SEAT": HandBuilder.on_seat,
    "DEALT": HandBuilder.on_deal,
    "RAISE": HandBuilder.on_raise,
    "CHECK": HandBuilder.on_check,
    "FOLD": HandBuilder.on_fold,
    "BETTING_CAPPED": HandBuilder.on_capped,
    "DOUBLE_BET": HandBuilder.on_double_bet,
    "UNCALLED": HandBuilder.on_uncalled,
    "COLLECT": HandBuilder.on_collect,
    "SHOW": HandBuilder.on_show,
    "MUCK": HandBuilder.on_muck,
    "NO_SHOW": HandBuilder.on_no_show,
    "NO_LOW": HandBuilder.on_no_low,
    "CHAT": HandBuilder.on_chat,
    "SHOW_DOWN": HandBuilder.on_ignore,
    "SUMMARY": HandBuilder.on_summary,
    "TOTAL_POT": HandBuilder.on_total_pot,
    "BOARD": HandBuilder.on_board,
    "RESULT_FOLDED": HandBuilder.on_result_folded,
    "RESULT_SHOWED": HandBuilder.on_result_showed,
    "RESULT_MUCKED": HandBuilder.on_result_mucked,
    "RESULT_COLLECTED": HandBuilder.on_result_collected,
    "RESULT_SAT_OUT": HandBuilder.on_result_sat_out,
}
_HANDLERS.update({t: _street_handler(s) for t, s in _STREET_OF_TERMINAL.items()})
_HANDLERS.update({t: _action_handler(k) for t, k in _ACTION_OF_TERMINAL.items()})
_HANDLERS.update({t: _note_handler(k) for t, k in _NOTE_OF_TERMINAL.items()})
