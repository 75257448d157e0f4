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
and `HandBuilder` (in `builder.py`) reads each token's fields with that terminal's own
compiled regex. We parse per hand (a `parse()` call costs ~15 us, far less than a hand) and
use lark-cython when it is importable (`histkit[fast]`).

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
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any, BinaryIO, ClassVar

import lark
from lark.exceptions import UnexpectedInput, UnexpectedToken

from histkit.dialects.builder import HANDLERS, HandBuilder, HandError, clip_line
from histkit.dialects.fastpath import LineMatcher, build_matcher
from histkit.model import (
    Game,
    Hand,
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


def _line_pieces(f: BinaryIO, before: int = 0) -> Iterator[bytes]:
    """f's bytes, from where it stands, in pieces of whole lines of about `_READ_CHUNK`; only
    the last piece may lack its line end. A stretch with no line end that holds binary data
    raises `UnreadableFile` at its line (`before`: the file lines before f's first), so a
    binary file is never held in memory whole."""
    no = before
    rest = bytearray()  # the start of a line whose end is in a later read
    while data := f.read(_READ_CHUNK):
        cut = data.rfind(b"\n") + 1
        if not cut:  # no line end yet: a very long line (or a binary file)
            if _BINARY_BYTES.search(data):
                raise UnreadableFile(
                    f"binary data, not a text hand history (line {no + 1})", no + 1
                )
            rest += data
            continue
        piece = bytes(rest) + data[:cut] if rest else data[:cut]
        rest = bytearray(data[cut:])
        no += piece.count(b"\n")
        yield piece
    if rest:
        yield bytes(rest)


def _plain_lines(data: bytes) -> bool:
    """LF or CRLF line ends and no control bytes: lines that decode in one go and are
    numbered by their LFs (a CR anywhere but before LF means old Mac line ends)."""
    crs = data.count(b"\r") if b"\r" in data else 0
    return (not crs or crs == data.count(b"\r\n")) and not _has_binary(data)


def _decodes(data: bytes, encoding: str) -> bool:
    try:
        data.decode(encoding)
    except UnicodeDecodeError:
        return False
    return True


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
                        plain.parser, plain.line_regex, HANDLERS, self.header_terminal
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

    def file_blocks(self, f: BinaryIO, *, first_line: int = 1) -> Iterator[HandBlock]:
        """`blocks(lines(f))`: the same blocks, line numbers and errors, faster. Chunks
        decoded in one go are cut at their blank lines by one regex scan, so only the
        lines around a chunk's edges (and blocks with a header inside) go one by one.
        `first_line`: the file line number of f's first line, when f is a byte range of a
        file that starts at one of its `cut_points`."""
        split = _Splitter(self.compiled.header, self.hand_start)
        split.no = first_line - 1
        for piece in self._pieces(f, first_line - 1):
            if isinstance(piece, Iterator):
                yield from split.lines(piece)
            else:
                yield from split.chunk(*piece)
        yield from split.finish()

    def _pieces(
        self, f: BinaryIO, before: int = 0
    ) -> Iterator[tuple[str, list[str]] | Iterator[str]]:
        """The file's lines in pieces: (text, its lines) for a chunk decoded in one go,
        an iterator for text that must be read line by line (UTF-16, CR line ends,
        legacy encodings, binary data: `UnreadableFile` at its line). `before`: the
        number of file lines before f's first (f a byte range from `cut_points`)."""
        head = f.read(2)
        f.seek(0)
        if head in _BOMS_UTF16:
            yield _utf16_lines(f)
            return
        no = before
        for piece in _line_pieces(f, before):
            if not piece.endswith(b"\n"):  # the file's last line, without its line end
                yield self._decode_lines(piece, no)
                return
            # the common cases in one go: UTF-8 with LF or CRLF line ends, no control bytes
            decoded: str | None = None
            if _plain_lines(piece):
                with contextlib.suppress(UnicodeDecodeError):
                    decoded = piece.decode("utf-8")
                if decoded is not None and b"\r" in piece:
                    decoded = decoded.replace("\r\n", "\n")
            if decoded is not None:
                lines = decoded.split("\n")
                lines.pop()  # after the piece's last line end
                no += len(lines)
                yield decoded, lines
            else:
                yield self._decode_lines(piece, no)
                no += piece.count(b"\n")

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

    def cut_points(self, f: BinaryIO, every: int) -> list[tuple[int, int]] | None:
        """Where a file can be cut into byte ranges that parse on their own to exactly
        what the whole file gives (for `--jobs`: workers read their own range, the parent
        only finds these): (byte offset, file line number) of a hand header line about
        every `every` bytes. A header line always starts a block, so no block and no run
        of junk text spans a cut, and line numbers are LF counts. Cutting stops at the
        first stretch where that may not hold (old Mac CR line ends, binary data): the
        rest of the file is one range, read as in one pass. None for UTF-16 files (read
        whole). Reads the file once, in 1 MB pieces; memory stays flat."""
        if f.read(2) in _BOMS_UTF16:
            return None
        f.seek(0)
        header = self.compiled.header
        starts = [b"\n" + s.encode("utf-8") for s in self.hand_start]
        cuts: list[tuple[int, int]] = []
        offset = lines = 0  # bytes and LFs before the current piece
        target = every  # the next cut: the first header line at or after this offset
        pieces = _line_pieces(f)
        while True:
            try:
                piece = next(pieces, b"")
            except UnreadableFile:  # binary data: the worker reads on to it and reports it
                return cuts
            if not piece.endswith(b"\n"):  # the end, or the last line: no cut after it
                return cuts
            if not _plain_lines(piece):
                return cuts  # from here on, lines are numbered as they are read
            if not _decodes(piece, "utf-8") and not _decodes(piece, self.fallback_encoding):
                return cuts  # an unreadable line ends the file's reading there
            buf = b"\n" + piece  # so a header at the piece's start is found too
            counted, counted_to = lines, 0  # LFs before piece[counted_to]
            while offset + len(piece) > target:
                found = [
                    i for i in (buf.find(s, max(target - offset, 0)) for s in starts) if i >= 0
                ]
                if not found:
                    break
                at = min(found)  # buf index of the LF before the line = piece index of the line
                line = piece[at : piece.index(b"\n", at)].rstrip(b"\r")
                try:
                    text = line.decode("utf-8")
                except UnicodeDecodeError:
                    text = line.decode(self.fallback_encoding)  # checked above: it decodes
                if at + offset > 0 and header.match(text + "\n"):
                    counted += piece.count(b"\n", counted_to, at)
                    counted_to = at
                    cuts.append((offset + at, counted + 1))
                    target = offset + at + every
                else:  # a line that only starts like a header: look further on
                    target = offset + at + 1
            offset += len(piece)
            lines = counted + piece.count(b"\n", counted_to)

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
            f"text that is not part of any hand ({lines}), starting {clip_line(first.lines[0])}",
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
                    f"hand header not understood: {clip_line(first)}",
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
                f"hand ends early (truncated?) after {clip_line(block.lines[-1])}; "
                f"expected {expected}",
            )
        rel = e.line if isinstance(e.line, int) and e.line > 0 else 1
        text = block.lines[rel - 1] if rel <= len(block.lines) else ""
        if isinstance(e, UnexpectedToken):
            what = self.terminal_labels.get(e.token.type, e.token.type)
            reason = f"{what} is out of place: {clip_line(text)}; expected {expected}"
        else:
            reason = f"line not understood: {clip_line(text)}; expected {expected}"
        if rel == len(block.lines):
            reason += " (this is the hand's last line: truncated?)"
        column = e.column if isinstance(e.column, int) and e.column > 0 else None
        return ParseIssue(source, block.start_line + rel - 1, column, hand_id, "rejected", reason)


_HAND_NO = re.compile(r"#(\d+)")


def _guess_hand_id(line: str) -> str | None:
    m = _HAND_NO.search(line)
    return m.group(1) if m else None
