"""The base dialect: what every site's dialect shares, and nothing that is one site's.

A dialect is a plug-in: a class of tables (game names, currency symbols, time zones, street
and pot words, labels for error messages, the site's `RuleProfile`, the handler of each line
kind) plus a Lark grammar file. A site inherits from its nearest relative and overrides only
what differs (sqlglot's dialects are the model); `Dialect` holds no site's words.

How a hand is parsed (docs/architecture.md, "Parsing"): the grammar has ONE terminal per
line kind, each a regex with named groups for the line's fields; LALR rules fix only the
order of the sections. Lark runs LALR with the contextual lexer and a transformer passed to
the constructor, so no tree is built: the transformer hands back the hand's line tokens in
order, and `LineReader` (in `builder.py`) calls the dialect's handler for each, which reports
the line's facts to the `HandSink`. We parse per hand (a `parse()` call costs ~15 us, far
less than a hand) and use lark-cython when it is importable (`histkit[fast]`).

The fast path (`fastpath.py`, on unless `fast=False` or HISTKIT_NO_FASTPATH is set) reads
most hands without Lark: a line matcher built from the same parser's LALR table and terminal
order classifies each line once (memoised per lexer), hands its match straight to the same
handlers, and leaves any hand it cannot finish (or whose content is wrong) to the LALR path
above, which words the issue. So a Hand is the same either way; the differential tests in
tests/test_fastpath.py hold the two paths to that.

Reading files (decoding, splitting into hands, byte ranges) is not a dialect's business: it
lives in `histkit.reading`, which asks the dialects only which lines start a hand.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import threading
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

import lark
from lark.exceptions import UnexpectedInput, UnexpectedToken

from histkit.cache import cache_dir
from histkit.cards import Card
from histkit.dialects.builder import BASE_HANDLERS, HandError, Handler, LineReader, clip_line
from histkit.dialects.fastpath import LineMatcher, build_matcher
from histkit.dialects.recover import read_leniently
from histkit.model import Game, Half, Hand, PotKind, Street, Unit
from histkit.reading.split import HandBlock, ParseIssue, text_blocks
from histkit.rules.profile import CASINO, RuleProfile

__all__ = [
    "Dialect",
    "FIXED_ZONES",
    "HandBlock",
    "HandError",
    "ParseIssue",
    "STREET_WORDS",
    "load_grammar",
]


# ------------------------------------------------------------------------ grammar loading


def load_grammar(filename: str) -> str:
    """The grammar text: from the installed package (the wheel ships `histkit/grammars`),
    else from the source checkout's top-level `grammars/` folder. A package on disk is read
    as files: importlib.resources (for a package in a zip file) costs start-up time."""
    package = Path(__file__).resolve().parents[1]
    if package.is_dir():
        here = package / "grammars" / filename
        if here.is_file():
            return here.read_text(encoding="utf-8")
    else:
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


_IMPORT = re.compile(r"^%import\s+(\w+)", re.MULTILINE)


class _GrammarSource:
    """Lark's import hook: `%import common.X` reads `common.lark` from wherever
    `load_grammar` finds the grammars (the installed package or the checkout). A class
    with a fixed repr, not a function: Lark keys its parser cache on the options' text,
    and a function's text holds its address, which differs in every process (so the
    cache was rebuilt by every run)."""

    def __call__(self, base_path: str, grammar_path: str) -> tuple[str, str]:
        try:
            return grammar_path, load_grammar(grammar_path)
        except FileNotFoundError as e:
            raise OSError(str(e)) from None

    def __repr__(self) -> str:
        return "histkit-grammars"


_grammar_source = _GrammarSource()


def _with_imports(text: str, seen: set[str] | None = None) -> str:
    """The grammar text and every grammar it imports, recursively (for the cache key:
    Lark's cache does not look into imported files)."""
    seen = set() if seen is None else seen
    parts = [text]
    for name in _IMPORT.findall(text):
        if name not in seen:
            seen.add(name)
            parts.append(_with_imports(load_grammar(f"{name}.lark"), seen))
    return "\n".join(parts)


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
_MATCHERS: dict[tuple[str, str, str], LineMatcher | None] = {}  # per dialect class
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
        "import_paths": [_grammar_source],
    }
    if cython:
        import lark_cython

        opts["_plugins"] = lark_cython.plugins
    cache = cache_dir()
    if cache is not None:
        digest = hashlib.sha256(_with_imports(text).encode()).hexdigest()[:16]
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

# What each shared line kind is, in neutral words, for "expected ..." messages; a dialect
# overrides them with its own lines' forms.
TERMINAL_LABELS: dict[str, str] = {
    "HEADER": "a hand header",
    "TABLE": "the table line",
    "SEAT": "a seat line",
    "ANTE": "an ante",
    "DEALT": "a deal of cards",
    "BRING_IN": "a bring-in",
    "BET": "a bet",
    "CALL": "a call",
    "RAISE": "a raise",
    "CHECK": "a check",
    "FOLD": "a fold",
    "BETTING_CAPPED": "the betting-capped line",
    "DOUBLE_BET": "the open-pair double-bet line",
    "UNCALLED": "an uncalled bet returned",
    "STREET_3": "the 3rd street marker",
    "STREET_4": "the 4th street marker",
    "STREET_5": "the 5th street marker",
    "STREET_6": "the 6th street marker",
    "STREET_7": "the 7th street marker",
    "SHOW_DOWN": "the showdown marker",
    "SHOW": "a show",
    "MUCK": "a muck",
    "NO_SHOW": "a hand not shown",
    "COLLECT": "a pot collected",
    "NO_LOW": "the no-low line",
    "SUMMARY": "the summary marker",
    "TOTAL_POT": "the total pot",
    "BOARD": "the board",
    "RESULT_FOLDED": "a summary seat line (folded)",
    "RESULT_SHOWED": "a summary seat line (showed)",
    "RESULT_MUCKED": "a summary seat line (mucked)",
    "RESULT_COLLECTED": "a summary seat line (collected)",
    "RESULT_SAT_OUT": "a summary seat line (sitting out)",
    "_NOTE": "a chat or table note",
    "$END": "the end of the hand",
}
_LABEL = re.compile(r"^//: (\w+) = (.+)$", re.MULTILINE)
_LABELS: dict[str, Mapping[str, str]] = {}


def grammar_labels(grammar_file: str) -> Mapping[str, str]:
    """Each line kind's words for an "expected ..." error: the common words, then the
    grammar's own ("//: NAME = words" comments), in that order (read once per grammar)."""
    got = _LABELS.get(grammar_file)
    if got is None:
        text = load_grammar(grammar_file) if grammar_file else ""
        got = _LABELS[grammar_file] = {**TERMINAL_LABELS, **dict(_LABEL.findall(text))}
    return got


NOTE_TERMINALS = frozenset(
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


# zone abbreviations, each at its fixed offset from UTC: for a site that writes the player's
# local time with its zone's abbreviation, which says whether summer time was in force
FIXED_ZONES: Mapping[str, str] = {
    abbr: f"Etc/GMT{-hours:+d}" if hours else "Etc/GMT"
    for abbr, hours in (
        *(("EDT", -4), ("EST", -5), ("CDT", -5), ("CST", -6), ("MDT", -6), ("MST", -7)),
        *(("PDT", -7), ("PST", -8), ("GMT", 0), ("UTC", 0), ("WET", 0), ("BST", 1)),
        *(("WEST", 1), ("CET", 1), ("CEST", 2), ("EET", 2), ("EEST", 3)),
    )
}

# the usual words for the streets, lower case ("3rd street" .. "7th street")
STREET_WORDS: Mapping[str, Street] = {f"{s}{'rd' if s == 3 else 'th'} street": s for s in Street}


class Dialect:
    """A site's hand-history dialect. Subclasses set the class tables and `grammar_file`;
    one shared instance per class parses every hand of that site (`get_dialect`)."""

    name: ClassVar[str] = ""  # the registry key and `--site` value
    site: ClassVar[str] = ""  # the `site` column of the hands it reads
    title: ClassVar[str] = ""  # the site's name for people ("Full Tilt Poker")
    grammar_file: ClassVar[str] = ""
    header_terminal: ClassVar[str] = "HEADER"
    # a line starting with one of these may begin a hand (checked with the header regex)
    hand_start: ClassVar[tuple[str, ...]] = ()
    # game name as written, upper-cased -> Game; any other game is skipped
    games: ClassVar[Mapping[str, Game]] = {}
    # currency symbol -> ISO code (a symbol in the stakes means the unit is CENT)
    currency_symbols: ClassVar[Mapping[str, str]] = {}
    # whether money is always written with its symbol (then a chip hand's amounts have none)
    symbol_marks_cash: ClassVar[bool] = True
    thousands: ClassVar[str] = ","  # the thousands separator in amounts ("" for none)
    decimal: ClassVar[str] = "."
    # a letter after an amount that multiplies it ("1.5K": 1,500), where the site writes one
    magnitudes: ClassVar[Mapping[str, int]] = {}
    # tokens the site writes for a card it does not show ("X")
    hidden_cards: ClassVar[frozenset[str]] = frozenset()
    # zone abbreviation in headers -> IANA zone
    time_zones: ClassVar[Mapping[str, str]] = {}
    # the zone preferred when a header gives two times ("CET [... ET]")
    reference_zone: ClassVar[str] = ""
    fallback_encoding: ClassVar[str] = "cp1252"
    # the site's words for streets ("3rd street", "river") and pots ("main pot"), lower case
    street_words: ClassVar[Mapping[str, Street]] = {}
    pot_words: ClassVar[Mapping[str, PotKind]] = {}
    half_words: ClassVar[Mapping[str, Half]] = {}  # "high", "lo", ... when a site names halves
    # line kinds that are notes, not play: an "expected ..." message names them as one
    note_terminals: ClassVar[frozenset[str]] = NOTE_TERMINALS
    # terminal -> handler; a site adds its header's and overrides what its lines mean
    handlers: ClassVar[Mapping[str, Handler]] = BASE_HANDLERS
    # the site's house rules, as its real hands show them (the audit's default)
    profile: ClassVar[RuleProfile] = CASINO
    # a line the site writes before a hand that is no part of it ("Game #N starts."): a
    # block of nothing else is passed over, not reported as text between hands
    lead_in: ClassVar[re.Pattern[str] | None] = None
    # the site's writer, "module[:function]": `write_hands(hands, *, newline)` -> text
    writer: ClassVar[str] = ""
    # the currency the simulator writes this site's cash games in
    default_currency: ClassVar[str] = "USD"
    # the only currencies the site's cash games are played in (None: any)
    currencies: ClassVar[frozenset[str] | None] = None
    # a tournament finish as a note of the site says it: (pattern with the groups `place`
    # and `prize`, both optional; the place when the pattern has none: 1 for the winner's
    # line), tried in order on the note's text (`finish`)
    finish_lines: ClassVar[tuple[tuple[re.Pattern[str], int | None], ...]] = ()
    # whether the site prints a line when no hand qualifies for low (then its absence is
    # worth a warning)
    prints_no_low: ClassVar[bool] = False
    # whether the site writes a line returning an uncalled bet (else the bettor collects
    # those chips with the pot, and their absence is no fault)
    prints_uncalled: ClassVar[bool] = True

    def __init__(self, *, cython: bool | None = None, fast: bool | None = None) -> None:
        self._cython = cython  # None: lark-cython if importable, asked when first needed
        # the line matcher (fastpath.py) first, Lark for what it leaves; fast=False: Lark only
        self._fast = not os.environ.get("HISTKIT_NO_FASTPATH") if fast is None else fast
        self._compiled_cache: _Compiled | None = None
        self._lalr_cache: _Compiled | None = None
        self._matcher_cache: LineMatcher | None | bool = False  # False: not built yet
        # unit -> amount text -> minor units; shared by the hands this dialect parses
        self._money_memo: dict[Unit, dict[str, int]] = {u: {} for u in Unit}
        self._cards_memo: dict[str, tuple[Card | None, ...]] = {}

    # -- what is the site's ----------------------------------------------------------

    def finish(self, text: str) -> tuple[int | None, str | None] | None:
        """(place, prize as written) of a note saying a player finished a tournament;
        None when the site's words for it (`finish_lines`) do not match."""
        for pattern, place in self.finish_lines:
            m = pattern.search(text)
            if m is not None:
                found = m.groupdict()
                written = found.get("place")
                return (int(written) if written else place), found.get("prize")
        return None

    @staticmethod
    def describe(game: Game, cards: tuple[Card, ...]) -> str | None:
        """The site's words for a shown hand, to check its descriptions against; None
        (the default) when the site writes none or its words are not modelled."""
        return None

    def write_hands(
        self, hands: Iterable[Hand], *, newline: str = "\n", era: str | None = None
    ) -> str:
        """Hands as the site writes them (each followed by the blank lines the site puts
        between hands): the simulator's output and the round-trip tests' input. `era`: one
        of the site's eras (`histkit.dialects.eras`; None: the default, what it writes
        without one); an era it does not write is a ValueError naming its eras."""
        if not self.writer:
            raise ValueError(f"no writer for {self.title or self.name}")
        import importlib

        from histkit.dialects.eras import check_era

        module, _, function = self.writer.partition(":")
        loaded = importlib.import_module(module)
        if era is not None:
            text_of: str = loaded.ERAS[check_era(self.name, era)].write_hands(
                hands, newline=newline
            )
            return text_of
        write = getattr(loaded, function or "write_hands")
        text: str = write(hands, newline=newline)
        return text

    def for_site(self, site: str) -> Dialect:
        """The dialect whose house rules and way of writing apply to a hand of `site` that
        this dialect read: itself (a format that carries hands of many sites, PHH,
        answers with that site's rules)."""
        return self

    def for_hand(self, hand: Hand) -> Dialect:
        """`for_site` of the hand's site."""
        return self.for_site(hand.site)

    def header_match(self, line: str) -> re.Match[str] | None:
        """The line (without its line end) matched as this site's hand header, or None: the
        one test of "a hand of this site starts here", for detection and the splitter."""
        if not line.startswith(self.hand_start):
            return None
        return self.compiled.header.match(line + "\n")

    def detect(self, line: str) -> bool:
        """Whether a line (without its line end) is this site's hand header."""
        return self.header_match(line) is not None

    def hand_id(self, m: re.Match[str], block: HandBlock) -> str | None:
        """The hand's id for issues about it (the header's `id` field by default; a site
        that writes it on another line overrides this)."""
        return m.groupdict().get("id")

    def game_text(self, m: re.Match[str], block: HandBlock) -> str | None:
        """The game as the header writes it (for the skip check); None when the header
        does not say, and the hand is read to find out."""
        game = m.groupdict().get("game")
        return game.strip() if game else None

    # -- resources -------------------------------------------------------------------

    @property
    def compiled(self) -> _Compiled:
        """The grammar compiled with plain lark: each line kind's regex, the header's, and
        the LALR tables the fast path's matcher is built from (they are the reference)."""
        c = self._compiled_cache
        if c is None:
            c = self._compiled_cache = _compile(self.grammar_file, self.header_terminal, False)
        return c

    def _lalr(self) -> _Compiled:
        """The grammar as the LALR path parses it: with lark-cython when wanted (and it
        builds), else `compiled`. Built on first use: most hands never need it, and each
        parser built is start-up time (loading one from the cache too)."""
        c = self._lalr_cache
        if c is None:
            c = self.compiled
            if self._cython is None:
                self._cython = _want_cython()
            if self._cython:
                c = _compile(self.grammar_file, self.header_terminal, True)
            self._lalr_cache = c
        return c

    @property
    def matcher(self) -> LineMatcher | None:
        """The fast path's line matcher (None when switched off or the grammar allows
        none), built from the plain-lark parser: its tables are the reference."""
        got = self._matcher_cache
        if got is False:
            got = self._matcher_cache = self.line_matcher() if self._fast else None
        return got  # type: ignore[return-value]

    def line_matcher(self) -> LineMatcher | None:
        """The grammar's line matcher, whether or not the fast path is on: reading a hand
        with a line the grammar does not take (`recover.py`) walks its states."""
        key = (type(self).__qualname__, self.grammar_file, self.header_terminal)
        got = _MATCHERS.get(key, False)
        if got is False:
            plain = self.compiled
            got = _MATCHERS[key] = build_matcher(
                plain.parser, plain.line_regex, self.handlers, self.header_terminal
            )
        return got  # type: ignore[return-value]

    @property
    def uses_fast_path(self) -> bool:
        return self.matcher is not None

    @property
    def uses_cython(self) -> bool:
        return self._lalr().cython

    # the splitter's questions (`histkit.reading.split.HandStarts`), for one site
    @property
    def prefixes(self) -> tuple[str, ...]:
        return self.hand_start

    def is_header(self, line: str) -> bool:
        return self.detect(line)

    # -- parsing ---------------------------------------------------------------------

    def parse(self, text: str | Iterable[str], source: str) -> Iterator[Hand | ParseIssue]:
        """Every hand or issue of one text (or its lines) of this site, in order (the
        reader's `parse_text` detects the site instead)."""
        from histkit.reader import parse_blocks

        yield from parse_blocks(text_blocks(text, self), source, site=self)

    def parse_block(
        self, block: HandBlock, source: str, header: re.Match[str] | None = None
    ) -> Hand | ParseIssue | None:
        """One block -> a Hand, a skipped/rejected issue, or None when the block does not
        even start like a hand (the caller reports such text once per run). `header`: the
        first line's header match, when the caller made it already."""
        first = block.lines[0]
        m = header if header is not None else self.compiled.header.match(first + "\n")
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
        hand_id = self.hand_id(m, block)
        game_text = self.game_text(m, block)
        if game_text is not None and game_text.upper() not in self.games:
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
                hand = LineReader(self, block, source).read_fast(matcher, m)
            except Exception:  # noqa: BLE001
                # a line the grammar or its handler does not take: read without it below
                hand = None
            if hand is not None:
                return hand
            # the same matcher, walked again leaving such lines out (`recover.py`); Lark
            # words the rejection of a hand that cannot be read so
            hand = read_leniently(self, block, source, m)
            if hand is not None:
                return hand
        try:
            tokens: Any = self._lalr().parser.parse(block.text)
        except UnexpectedInput as e:
            issue = self._grammar_issue(e, block, source, hand_id)
        else:
            try:
                return LineReader(self, block, source).read_tokens(tokens, m)
            except HandError as e:
                issue = ParseIssue(source, e.line, None, hand_id, "rejected", e.message)
        if matcher is None:  # (the Lark-only path: its hands are read leniently alike)
            return read_leniently(self, block, source, m) or issue
        return issue

    @property
    def terminal_labels(self) -> Mapping[str, str]:
        """Each line kind in the site's words, for "expected ..." errors (its grammar's)."""
        return grammar_labels(self.grammar_file)

    def _labels(self, names: Any) -> str:
        """Terminal names -> words, in the table's order; notes collapse to one entry."""
        labels = self.terminal_labels
        names = set(names)
        notes = names & self.note_terminals
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
        try:
            self.compiled.parser.parse(block.text)
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
        self, e: UnexpectedInput, block: HandBlock, source: str, hand_id: str | None
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
        return ParseIssue(source, block.line_no(rel - 1), column, hand_id, "rejected", reason)


_HAND_NO = re.compile(r"#(\d+)")


def _guess_hand_id(line: str) -> str | None:
    m = _HAND_NO.search(line)
    return m.group(1) if m else None
