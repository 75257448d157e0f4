"""Reading a hand's lines: the generic line handlers, and the reader that drives them.

The dialect (`histkit.dialects.base`) finds each line's kind and fields — with Lark's LALR
parser or with the fast path's line matcher — and hands the match to the handler its
`handlers` table names for that kind. A handler reads the line's named fields, converts
amounts and cards (`LineReader.money`, `LineReader.cards`, by the dialect's tables) and
reports the facts to the `HandSink`, which builds the `Hand`. A field the grammar accepted
but whose content is wrong (an unknown player, an amount in the wrong unit) is a
`HandError`, never a guess.

The handlers here know no site. They read fields whose meaning the grammars share (the
field names are the contract: `player`, `amount`, `allin`, `to`, `cards`, `new`, ...) and
take every word from the dialect's tables (`street_words`, `pot_words`); a site whose line
says something else overrides that terminal's handler in its own module.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from datetime import UTC, datetime
from itertools import islice
from typing import TYPE_CHECKING, Any, Final
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from histkit.cards import Card, parse_card
from histkit.dialects.fastpath import LineMatcher
from histkit.dialects.sink import MAX_AMOUNT, UP3, FrameError, HandError, HandSink, clip_line
from histkit.model import ActionKind, Hand, NoteKind, PotKind, SeatOutcome, Show, Street, Unit
from histkit.rules.speed import ANTE as _ANTE
from histkit.rules.speed import BET as _BET
from histkit.rules.speed import BRING_IN as _BRING_IN
from histkit.rules.speed import CALL as _CALL
from histkit.rules.speed import COMPLETE as _COMPLETE
from histkit.rules.speed import RAISE as _RAISE
from histkit.rules.speed import SEVENTH as _SEVENTH
from histkit.rules.speed import THIRD as _THIRD

if TYPE_CHECKING:
    from histkit.dialects.base import Dialect, HandBlock

__all__ = [
    "BASE_HANDLERS",
    "Handler",
    "FrameError",
    "HandError",
    "LineReader",
    "action_handler",
    "adds_handler",
    "clip_line",
    "ignore",
    "note_handler",
    "no_show_alone",
    "pot_line",
    "put",
    "return_unmatched",
    "unnamed_kind",
    "street_handler",
    "street_total",
    "summary_from_wins",
    "utc_start",
]

Handler = Callable[["LineReader", re.Match[str], int], None]

_UP_TRUE = (True,)
_UP_FALSE = (False,)
_ZONES: dict[str, ZoneInfo] = {}
# an amount's whole part of more digits is over MAX_AMOUNT in any unit: refused before
# int() builds it (a string of 5,000 digits would not even convert)
_AMOUNT_DIGITS: Final = len(str(MAX_AMOUNT))


def _zone(name: str) -> ZoneInfo | None:
    z = _ZONES.get(name)
    if z is None:
        try:
            z = _ZONES[name] = ZoneInfo(name)
        except (ZoneInfoNotFoundError, ValueError):
            return None
    return z


# every card as the grammars write it ("Ah", "10d"): one dict lookup per card
_CARD_OF: dict[str, Card] = {
    r + s: parse_card(r + s) for r in (*"23456789TJQKA", "10") for s in "cdhs"
}


class LineReader:
    """Reads one hand's lines into its `HandSink`, one handler call per line.

    Both paths feed the same handlers, one call per line with that line's regex match:
    `read_fast` classifies the lines itself (the line matcher), `read_tokens` takes Lark's
    tokens. So the two can only differ in which terminal a line is, and the matcher takes
    that from Lark's own tables. Handlers are the hot loop: amounts and card lists come
    from memo dicts shared by the dialect's hands.

    `scratch` is free for a dialect whose lines need state across lines (a site that deals
    one card per line)."""

    __slots__ = (
        "d",
        "sink",
        "regex",
        "offset",
        "block",
        "unit",
        "symbols",
        "marks_cash",
        "scratch",
        "_money",
        "_memo",
        "_cards",
        "_hidden",
    )

    def __init__(self, dialect: Dialect, block: HandBlock, source: str) -> None:
        self.d = dialect
        self.sink = HandSink(dialect.site, source, block.start_line, dialect.name)
        # (a dialect without a grammar, an XML site's, reads no lines)
        self.regex = dialect.compiled.line_regex if dialect.grammar_file else {}
        self.offset = block.start_line - 1
        self.block = block
        self.unit = Unit.CHIP
        self.symbols: tuple[str, ...] = tuple(dialect.currency_symbols)
        self.marks_cash = dialect.symbol_marks_cash
        self.scratch: dict[str, Any] = {}
        self._memo = dialect._money_memo
        self._money = self._memo[Unit.CHIP]  # amount text -> minor units, this hand's unit
        self._cards = dialect._cards_memo
        self._hidden = dialect.hidden_cards

    # -- drivers ---------------------------------------------------------------------

    def read_tokens(self, tokens: Iterable[Any], header: re.Match[str] | None = None) -> Hand:
        """Lark's tokens (the header first) -> Hand. `header` is the header line's match
        when the caller has it already (the skip check made it), saving a re-match."""
        regex = self.regex
        handlers = self.d.handlers
        offset = self.offset
        numbers = self.block.numbers
        it = iter(tokens)
        line, text = offset + 1, ""
        try:
            if header is not None:
                first = next(it)
                text = first.value
                handlers[first.type](self, header, offset + first.line)
            for tok in it:
                typ, text = tok.type, tok.value
                line = offset + tok.line if numbers is None else numbers[tok.line - 1]
                m = regex[typ].match(text)
                if m is None:  # pragma: no cover - the lexer matched this very regex
                    raise HandError(f"internal: {typ} does not re-match {clip_line(text)}", line)
                handlers[typ](self, m, line)
        except HandError:
            raise
        except (ValueError, OverflowError) as e:
            # a field the grammar accepted that no handler could convert (a date out of
            # the calendar, a number of thousands of digits): the hand's error, not a crash
            raise HandError(f"line not understood: {clip_line(text)} ({e})", line) from e
        return self.sink.build()

    def read_fast(self, matcher: LineMatcher, header: re.Match[str]) -> Hand | None:
        """The hand's lines -> Hand through the line matcher, each line classified and
        matched once (or remembered); None when the matcher leaves the hand to Lark (a
        line it cannot classify, a line kind out of place, an early end). `header` is the
        first line's match, as the skip check made it."""
        lines = self.block.lines
        rows = matcher.rows
        state = matcher.first
        if state < 0:
            return None
        self.d.handlers[self.d.header_terminal](self, header, self.offset + 1)
        numbers = self.block.numbers
        for i, line in enumerate(islice(lines, 1, None), 1):
            line_no = self.offset + 1 + i if numbers is None else numbers[i]
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
        return self.sink.build()

    # -- conversions -----------------------------------------------------------------

    def set_unit(self, unit: Unit) -> None:
        """The hand's unit, from its header: every amount after this is read in it."""
        self.unit = unit
        self._money = self._memo[unit]

    def set_play_money(self) -> None:
        """Amounts without a sign at a cash table (a site whose sign marks money): play
        money, in hundredths, read through a memo of its own, so that an amount without a
        sign never passes for money in another hand."""
        self.set_unit(Unit.CENT)
        self.marks_cash = False
        self._money = {}

    def is_money(self, text: str) -> bool:
        """Whether an amount is written with one of the site's currency symbols."""
        symbols = self.symbols
        return bool(symbols) and (text.startswith(symbols) or text.endswith(symbols))

    def money(self, text: str, line: int) -> int:
        """An amount as written -> integer minor units of this hand. Where the site marks
        money with a symbol (`Dialect.symbol_marks_cash`), a symbol must be present exactly
        when the hand is in money (never guessed)."""
        cached = self._money.get(text)
        if cached is not None:
            return cached
        d = self.d
        digits = text
        has_symbol = False
        for s in self.symbols:
            if digits.startswith(s):
                digits, has_symbol = digits[len(s) :], True
                break
            if digits.endswith(s):
                digits, has_symbol = digits[: -len(s)], True
                break
        digits = digits.strip()
        if self.marks_cash and has_symbol != (self.unit is Unit.CENT):
            kind = "a currency amount" if has_symbol else "a chip amount"
            raise HandError(f"{kind} {text!r} in a hand counted in {self.unit.value}s", line)
        digits = digits.replace(d.thousands, "") if d.thousands else digits
        scale = d.magnitudes.get(digits[-1:], 0) if d.magnitudes else 0
        if scale:
            digits = digits[:-1]
        whole, dot, frac = digits.partition(d.decimal)
        if not whole.isdigit() and not (dot and not whole and frac.isdigit()):
            raise HandError(f"amount {text!r} is not a number", line)
        if len(whole) > _AMOUNT_DIGITS and len(whole.lstrip("0")) > _AMOUNT_DIGITS:
            raise self._too_large(text, line)
        if scale:
            value = self._scaled(text, whole, frac, scale, line)
        elif self.unit is Unit.CENT:
            if len(frac) > 2 or (dot and not frac) or (frac and not frac.isdigit()):
                raise HandError(f"amount {text!r} has more than cents", line)
            value = int(whole or "0") * 100 + (int(frac.ljust(2, "0")) if frac else 0)
        else:
            if dot and frac.strip("0"):
                raise HandError(f"chip amount {text!r} is not a whole number", line)
            value = int(whole)
        if value > MAX_AMOUNT:  # it would overflow the tables (sink.MAX_AMOUNT)
            raise self._too_large(text, line)
        if len(self._money) > 100_000:  # amounts repeat a lot; keep the memo bounded
            self._money.clear()
        self._money[text] = value
        return value

    def _scaled(self, text: str, whole: str, frac: str, scale: int, line: int) -> int:
        """ "1.5K" -> 1,500 chips (150,000 cents): exact, or the amount is refused (a
        fraction of a chip or a cent is never rounded)."""
        if not frac.isdigit() and frac:
            raise HandError(f"amount {text!r} is not a number", line)
        per = scale * (100 if self.unit is Unit.CENT else 1)
        den = 10 ** len(frac)
        value, rest = divmod((int(whole or "0") * den + int(frac or "0")) * per, den)
        if rest:
            raise HandError(f"amount {text!r} is not a whole number of {self.unit.value}s", line)
        return value

    def _too_large(self, text: str, line: int) -> HandError:
        return HandError(
            f"amount {clip_line(text, 60)} is too large "
            f"(more than {MAX_AMOUNT:,} {self.unit.value}s)",
            line,
        )

    def cards(self, text: str, line: int = 0, report: bool = True) -> tuple[Card | None, ...]:
        """ "Ah 2c 3s" -> cards; the site's tokens for a hidden card ("X") -> None. A
        token that is no card at all (a client's garbled text) is None too, and reported
        to the sink as a garbled-card note naming it, so the audit says so; the hand's
        money still counts (`report` False: a look ahead at a later line, which reports
        it when it is read). Memoised (bounded): the same lists recur in every hand."""
        got = self._cards.get(text)
        if got is None:
            out: list[Card | None] = []
            garbled = False
            for tok in text.split():
                c = _CARD_OF.get(tok)
                if c is None and tok not in self._hidden:
                    try:
                        c = parse_card(tok)
                    except ValueError:
                        garbled = True
                        if report:
                            self.sink.note(
                                NoteKind.GARBLED, None, f"{tok!r} where a card should be", line
                            )
                out.append(c)
            got = tuple(out)
            if garbled:
                return got  # not remembered: each line with it is reported
            if len(self._cards) > 50_000:
                self._cards.clear()
            self._cards[text] = got
        return got

    def known_cards(self, text: str, line: int) -> tuple[Card, ...]:
        """The cards of a show or a summary line: the known ones (a garbled or hidden
        token is left out, and a garbled one reported)."""
        return tuple(c for c in self.cards(text, line) if c is not None)

    def scan(self, *terminals: str) -> Iterator[re.Match[str]]:
        """The hand's lines of these kinds, each matched, in order: for what a site writes
        only on a later line (the hero's name, the shows, how many side pots there are)."""
        regex = [self.regex[t] for t in terminals]
        for text in self.block.lines:
            for rx in regex:
                m = rx.match(text + "\n")
                if m is not None:
                    yield m
                    break

    def refuse_repeat(self, m: re.Match[str], line: int) -> None:
        """A line that is the line before it again, word for word, is the client's
        mistake (no player acts twice in a row): refused, so that the hand is read once
        without it (recover.py) and the audit names it."""
        block = self.block
        i = line - block.start_line if block.numbers is None else block.numbers.index(line)
        if i > 0 and block.lines[i - 1].rstrip() == m[0].rstrip():
            said = clip_line(m[0].rstrip())
            raise HandError(f"a line written twice in a row: {said} (the site's mistake)", line)

    def street_of(self, words: str, line: int) -> Street:
        """A street named in the site's words ("3rd Street", "River") -> Street."""
        got = self.d.street_words.get(words.lower())
        if got is None:
            raise HandError(f"unknown street {words!r}", line)
        return got


def utc_start(
    dialect: Dialect, times: list[tuple[str, str, str]], date_order: str = "ymd"
) -> datetime | None:
    """The start in UTC from the times a header gives, each (date, clock, zone
    abbreviation); the dialect's reference zone is preferred when there are two. None when
    no zone is in the dialect's table. In the hour a DST change repeats, the other
    written time (if any) picks the right one. Dates are split on "/" or "-" in
    `date_order` ("ymd" or "dmy")."""
    zones = dialect.time_zones
    if len(times) > 1 and times[1][2].upper() == dialect.reference_zone:
        times = [times[1], times[0]]
    found: list[tuple[datetime, datetime]] = []  # (fold=0, fold=1) readings, in UTC
    for date, clock, abbr in times:
        iana = zones.get(abbr.upper())
        zone = _zone(iana) if iana else None
        if zone is None:
            continue
        parts = date.replace("-", "/").split("/")
        y, mo, dd = parts if date_order == "ymd" else parts[::-1]
        hh, mi, ss = clock.split(":")
        local = datetime(int(y), int(mo), int(dd), int(hh), int(mi), int(ss), tzinfo=zone)
        found.append((local.astimezone(UTC), local.replace(fold=1).astimezone(UTC)))
    if not found:
        return None
    early, late = found[0]
    if early != late and len(found) > 1 and found[1][0] == found[1][1]:
        return late if found[1][0] == late else early
    return early


# ----------------------------------------------------------------------- the handlers


def on_table(r: LineReader, m: re.Match[str], line: int) -> None:
    r.sink.table(m["name"], int(m["max"]) if m["max"] else None, line)


def on_seat(r: LineReader, m: re.Match[str], line: int) -> None:
    no, player, amount, out = m.group("seat", "player", "amount", "out")
    stack = r._money.get(amount)
    if stack is None:
        stack = r.money(amount, line)
    r.sink.seat(int(no), player, stack, out is not None, line)


def on_deal(r: LineReader, m: re.Match[str], line: int) -> None:
    """`cards`: the cards the line shows; `new`: the street's new card when the line
    also repeats earlier ones ("[old] [new]"). On 3rd street a line shows the up card
    alone, all three cards, or the two down cards then the up card ("[dd] [u]")."""
    player, cards, new = m.group("player", "cards", "new")
    sink = r.sink
    if new is not None and player not in sink.names:
        # a name that ends in something card-like: "X [Ah]" -> try the longer name
        longer = f"{player} [{cards}]"
        if longer in sink.names:
            player, cards, new = longer, new, None
    shown = r._cards.get(cards) or r.cards(cards, line)
    if sink.street is _THIRD:
        if new is not None:
            fresh = r.cards(new, line)
            if len(shown) != 2 or len(fresh) != 1:
                raise HandError("a 3rd-street deal of other than two down cards and one up", line)
            sink.deal(player, shown + fresh, UP3, (), line)
        elif len(shown) == 1:
            sink.deal(player, (None, None, shown[0]), UP3, (), line)
        else:
            sink.deal(player, shown, UP3, (), line)
        return
    if new is None:
        raise HandError(f"a {sink.street.name.lower()}-street deal without a new card", line)
    fresh = r._cards.get(new) or r.cards(new, line)
    sink.deal(player, fresh, _UP_FALSE if sink.street is _SEVENTH else _UP_TRUE, shown, line)


def on_raise(r: LineReader, m: re.Match[str], line: int) -> None:
    """ "raises X to Y": X the raise over the current bet, Y the street total."""
    player, amount, to, allin = m.group("player", "amount", "to", "allin")
    money = r._money
    a = money.get(amount)
    if a is None:
        a = r.money(amount, line)
    b = money.get(to)
    if b is None:
        b = r.money(to, line)
    r.sink.action(ActionKind.RAISE, player, a, b, allin is not None, line)


def on_check(r: LineReader, m: re.Match[str], line: int) -> None:
    r.sink.action(ActionKind.CHECK, m["player"], 0, None, False, line)


def on_fold(r: LineReader, m: re.Match[str], line: int) -> None:
    r.sink.action(ActionKind.FOLD, m["player"], 0, None, False, line)


def on_capped(r: LineReader, m: re.Match[str], line: int) -> None:
    r.sink.capped(line)


def on_double_bet(r: LineReader, m: re.Match[str], line: int) -> None:
    r.sink.double_bet(line)


def on_uncalled(r: LineReader, m: re.Match[str], line: int) -> None:
    r.sink.uncalled(m["player"], r.money(m["amount"], line), line)


def on_collect(r: LineReader, m: re.Match[str], line: int) -> None:
    """`pot`: the pot's name in the site's words (`pot_words`); `index`: a side pot's
    number when written (a side pot without a number is side pot 1); `half`: the half of
    a hi/lo pot in the site's words (`half_words`), where the site writes it."""
    pot = r.d.pot_words.get(m["pot"].lower())
    if pot is None:
        raise HandError(f"unknown pot {m['pot']!r}", line)
    index = 0
    if pot is PotKind.SIDE:
        index = int(m["index"]) if m["index"] else 1
    half = None
    if "half" in m.re.groupindex and m["half"]:
        half = r.d.half_words.get(m["half"].lower())
        if half is None:
            raise HandError(f"unknown half {m['half']!r}", line)
    r.sink.collect(m["player"], r.money(m["amount"], line), pot, index, line, half)


def on_show(r: LineReader, m: re.Match[str], line: int) -> None:
    r.sink.show(m["player"], r.known_cards(m["cards"], line), m["description"], line)


def on_muck(r: LineReader, m: re.Match[str], line: int) -> None:
    r.sink.muck(m["player"], False, line)


def on_no_show(r: LineReader, m: re.Match[str], line: int) -> None:
    r.sink.muck(m["player"], True, line)


def no_show_alone(r: LineReader, m: re.Match[str], line: int) -> None:
    """A hand not shown: the uncontested winner's declined show, else a loser's muck
    unseen (a site that words both alike)."""
    player = r.sink.player(m["player"], line)
    r.sink.muck(player, r.sink.live() == [player], line)


def on_no_low(r: LineReader, m: re.Match[str], line: int) -> None:
    r.sink.no_low(line)


def on_chat(r: LineReader, m: re.Match[str], line: int) -> None:
    r.sink.note(NoteKind.CHAT, m["player"], m["text"], line)


def ignore(r: LineReader, m: re.Match[str], line: int) -> None:
    """Lines the model does not keep (section markers such as `*** SHOW DOWN ***`)."""


def on_summary(r: LineReader, m: re.Match[str], line: int) -> None:
    r.sink.summary_start(line)


def on_board(r: LineReader, m: re.Match[str], line: int) -> None:
    r.sink.board_cards(r.known_cards(m["cards"], line))


def on_result_folded(r: LineReader, m: re.Match[str], line: int) -> None:
    street = r.street_of(m["street"], line)
    r.sink.result(
        int(m["seat"]),
        m["player"],
        SeatOutcome.FOLDED,
        0,
        (),
        None,
        street,
        m["didnt"] is not None,
        line,
    )


def on_result_showed(r: LineReader, m: re.Match[str], line: int) -> None:
    won = r.money(m["won"], line) if m["won"] else 0
    r.sink.result(
        int(m["seat"]),
        m["player"],
        SeatOutcome.SHOWED,
        won,
        r.known_cards(m["cards"], line),
        m["description"],
        None,
        False,
        line,
    )


def on_result_mucked(r: LineReader, m: re.Match[str], line: int) -> None:
    cards = r.known_cards(m["cards"], line) if m["cards"] else ()
    r.sink.result(
        int(m["seat"]), m["player"], SeatOutcome.MUCKED, 0, cards, None, None, False, line
    )


def on_result_sat_out(r: LineReader, m: re.Match[str], line: int) -> None:
    r.sink.result(int(m["seat"]), m["player"], SeatOutcome.OTHER, 0, (), None, None, False, line)


def on_result_collected(r: LineReader, m: re.Match[str], line: int) -> None:
    won = r.money(m["won"], line)
    r.sink.result(
        int(m["seat"]), m["player"], SeatOutcome.COLLECTED, won, (), None, None, False, line
    )


# ------------------------------------------------- shared handlers for the recurring forms


def put(
    r: LineReader,
    kind: ActionKind | None,
    name: str,
    line: int,
    *,
    adds: int = 0,
    to: int | None = None,
    all_in: bool | None = None,
    increment: int | None = None,
) -> None:
    """An action that puts chips in, as the site writes it: `adds`, the chips it adds, or
    `to`, the street total it reaches ("raises to Y", "calls Y" as a total). The sink's
    chips say the rest. `kind` None (an all-in the site does not name) is a bet with
    nothing in front, a call that does not top the bet, else a raise (a named kind is
    kept: a raise with nothing in front is the audit's to report). A raise or completion
    is reported as its increment over the bet (`increment`: as the line writes it, for the
    audit to check) and its total. `all_in` None: all-in when the chips reach the stack."""
    sink = r.sink
    player = sink.player(name, line)
    top = sink.bet
    before = 0 if kind is _ANTE else sink.street_in.get(player, 0)
    if to is None:
        to = before + adds
    else:
        adds = to - before
    if all_in is None:
        all_in = sink.hand_in.get(player, 0) + adds >= sink.players[player].stack
    if kind is None:
        kind = _BET if not top else _CALL if to <= top else _RAISE
    if kind is _RAISE or kind is _COMPLETE:
        step = to - top if increment is None else increment
        sink.action(kind, player, step, to, all_in, line)
    else:
        sink.action(kind, player, adds, None, all_in, line)


def street_total(r: LineReader, m: re.Match[str], line: int, *, total: bool) -> tuple[str, int]:
    """The player of a wager line and the street total it reaches: `amount` as that total
    (`total`: "raises to X") or as what it adds; with a `to` field ("X to Y"), Y, and X
    must be what it adds (a HandError says what the player had in)."""
    x = r.money(m["amount"], line)
    player = r.sink.player(m["player"], line)
    mine = r.sink.put_in(player)
    if "to" not in m.re.groupindex or not m["to"]:
        return player, x if total else mine + x
    to = r.money(m["to"], line)
    if x != to - mine:
        raise HandError(
            f"'{m['amount']} to {m['to']}' does not add up: {m['player']} had "
            f"{mine} {r.unit.value}s in on this street",
            line,
        )
    return player, to


def unnamed_kind(r: LineReader, player: str, to: int) -> ActionKind:
    """What a wager the site does not name (an all-in) is, by what it does to the bet at
    a street total `to`: a call when it does not top the bet; on 3rd street below the
    small bet, the bring-in (nothing in front, short of the small bet) or a completion;
    else a bet, or a raise over one."""
    sink = r.sink
    top = sink.bet
    if to <= top:
        return _CALL
    if sink.street is _THIRD and top < sink.head["small_bet"]:
        return _COMPLETE if top or to >= sink.head["small_bet"] else _BRING_IN
    return _RAISE if top else _BET


def return_unmatched(r: LineReader, line: int) -> None:
    """A site that writes no return line: at the end of a betting round, the bet nobody
    matched goes back to its bettor (`HandSink.unmatched`), reported at `line`."""
    got = r.sink.unmatched()
    if got is not None:
        r.sink.uncalled(got[0], got[1], line)


# a pot in a total-pot line: "Main pot 1.00.", "Side pot-1 2.", "Side pot #1 $2.", "Main
# Pot($0.43)", "Side pot 1 20€" (the amount is a group of either form)
_POT_PARTS = re.compile(
    r"(Main|Side) [Pp]ot(?:[- ]?#?\d+)?(?: ([^\s|()]+?)\.?|\(([^\s|()]+)\))(?= |$)"
)


def pot_line(*, after_rake: bool = False, from_wins: bool = False) -> Handler:
    """The summary's total pot: `total`, and where written `pots` (the main and side
    pots, after rake), `rake` and `fee` (a jackpot drop). `total` is what the players put
    in, or (`after_rake`) what is left after the rake and fee, which are added back.
    `from_wins`: a site that may write no rake nor pots: the rake is then what the pot
    holds beyond what was collected (never below 0), the main and side pots what each
    paid (`HandSink.paid`)."""

    def on_pot(r: LineReader, m: re.Match[str], line: int) -> None:
        fields = m.re.groupindex
        total = r.money(m["total"], line)
        rake = r.money(m["rake"], line) if m["rake"] else 0
        fee = r.money(m["fee"], line) if "fee" in fields and m["fee"] else 0
        main: int | None = None
        sides: list[int] = []
        for which, amount, bracketed in _POT_PARTS.findall(m["pots"] if "pots" in fields else ""):
            if which == "Main":
                main = r.money(amount or bracketed, line)
            else:
                sides.append(r.money(amount or bracketed, line))
        if after_rake:
            total += rake + fee
        if from_wins and not m["rake"]:
            rake = max(total - sum(r.sink.won().values()), 0)
        if from_wins and main is None and not sides:
            main, paid = r.sink.paid()
            sides = list(paid)
        r.sink.pot_total(total, rake, main, tuple(sides), line, fee=fee)

    return on_pot


def summary_from_wins(r: LineReader, player: str, line: int, shown: bool = False) -> None:
    """The summary a site does not write, rebuilt at each win of `player`: the pot is
    what the players put in, the rake what it holds beyond the wins, the main and side
    pots what each paid (`HandSink.paid`); the winner's seat line says what they won
    (`shown`: with the cards and words of their show, if any)."""
    sink = r.sink
    won = sink.won()
    total = sum(sink.hand_in.values())
    main, sides = sink.paid()
    sink.pot_total(total, total - sum(won.values()), main, sides, line)
    sink.results[:] = [x for x in sink.results if x.player != player]
    show = None
    if shown:
        show = next(
            (e for e in reversed(sink.events) if type(e) is Show and e.player == player), None
        )
    outcome = SeatOutcome.SHOWED if show is not None and show.cards else SeatOutcome.COLLECTED
    cards, words = (show.cards, show.description) if show is not None else ((), None)
    seat = sink.players[player].seat
    sink.result(seat, player, outcome, won[player], cards, words, None, False, line)


def street_handler(street: Street) -> Handler:
    """A street marker; a `card` field is the community card the deck ran out to."""

    def on_street(r: LineReader, m: re.Match[str], line: int) -> None:
        card = m["card"] if "card" in m.re.groupindex else None
        community = r.cards(card, line)[0] if card else None
        r.sink.street_start(street, line, community)

    return on_street


def action_handler(kind: ActionKind) -> Handler:
    """Antes, bring-ins, bets and calls (`amount`, `allin`): the most frequent lines."""

    def on_action(r: LineReader, m: re.Match[str], line: int) -> None:
        player, amount, allin = m.group("player", "amount", "allin")
        value = r._money.get(amount)
        if value is None:
            value = r.money(amount, line)
        r.sink.action(kind, player, value, None, allin is not None, line)

    return on_action


def adds_handler(kind: ActionKind) -> Handler:
    """ "P <does> X", X what it adds, all-in when it takes all they had (a site that
    writes no all-in form of it): an ante or a bring-in (`put`)."""

    def on_adds(r: LineReader, m: re.Match[str], line: int) -> None:
        put(r, kind, r.sink.player(m["player"], line), line, adds=r.money(m["amount"], line))

    return on_adds


def note_handler(kind: NoteKind) -> Handler:
    """A table note: the line as written (players who join need not be seated; a line
    that names none, the dealer's, is the table's)."""

    def on_note(r: LineReader, m: re.Match[str], line: int) -> None:
        player = m["player"] if "player" in m.re.groupindex else None
        r.sink.note(kind, player, m[0].rstrip(), line)

    return on_note


# terminal name -> how its line becomes part of the Hand (the shared line vocabulary; a
# dialect adds its header and summary handlers and overrides what its lines mean)
BASE_HANDLERS: Mapping[str, Handler] = {
    "TABLE": on_table,
    "SEAT": on_seat,
    "DEALT": on_deal,
    "ANTE": action_handler(ActionKind.ANTE),
    "BRING_IN": action_handler(ActionKind.BRING_IN),
    "BET": action_handler(ActionKind.BET),
    "CALL": action_handler(ActionKind.CALL),
    "RAISE": on_raise,
    "CHECK": on_check,
    "FOLD": on_fold,
    "BETTING_CAPPED": on_capped,
    "DOUBLE_BET": on_double_bet,
    "UNCALLED": on_uncalled,
    "COLLECT": on_collect,
    "SHOW": on_show,
    "MUCK": on_muck,
    "NO_SHOW": on_no_show,
    "NO_LOW": on_no_low,
    "CHAT": on_chat,
    "SHOW_DOWN": ignore,
    "SUMMARY": on_summary,
    "BOARD": on_board,
    "RESULT_FOLDED": on_result_folded,
    "RESULT_SHOWED": on_result_showed,
    "RESULT_MUCKED": on_result_mucked,
    "RESULT_COLLECTED": on_result_collected,
    "RESULT_SAT_OUT": on_result_sat_out,
    "STREET_3": street_handler(Street.THIRD),
    "STREET_4": street_handler(Street.FOURTH),
    "STREET_5": street_handler(Street.FIFTH),
    "STREET_6": street_handler(Street.SIXTH),
    "STREET_7": street_handler(Street.SEVENTH),
    "JOIN": note_handler(NoteKind.JOIN),
    "LEAVE": note_handler(NoteKind.LEAVE),
    "SIT_OUT": note_handler(NoteKind.SIT_OUT),
    "RETURNED": note_handler(NoteKind.RETURN),
    "CONNECTED": note_handler(NoteKind.CONNECT),
    "DISCONNECTED": note_handler(NoteKind.DISCONNECT),
    "TIMED_OUT": note_handler(NoteKind.TIMED_OUT),
    "REMOVED": note_handler(NoteKind.REMOVED),
    "FINISHED": note_handler(NoteKind.FINISHED),
    "WINS_TOURNAMENT": note_handler(NoteKind.FINISHED),
}
