"""Building a `Hand` from a PokerStars-style hand's lines: one handler per line kind.

The dialect (`histkit.dialects.base`) finds each line's kind and fields — with Lark's LALR
parser or with the fast path's line matcher — and hands the match to `HandBuilder`, which
turns the fields into events with exact integer amounts, interned cards and the line
number of each event. A field the grammar accepted but whose content is wrong (an
unknown player, an amount in the wrong unit) is a `HandError`, never a guess.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from datetime import UTC, datetime
from itertools import islice
from typing import TYPE_CHECKING, Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from histkit.cards import Card, parse_card
from histkit.dialects.fastpath import LineMatcher, constructor
from histkit.model import (
    Action,
    ActionKind,
    BettingCapped,
    Collect,
    Deal,
    DoubleBetAllowed,
    Event,
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

if TYPE_CHECKING:
    from histkit.dialects.base import Dialect, HandBlock

__all__ = ["HANDLERS", "HandBuilder", "HandError", "clip_line"]


class HandError(ValueError):
    """A line the grammar accepted but whose content is wrong (unknown player, bad amount)."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


def clip_line(text: str, width: int = 100) -> str:
    text = text.rstrip()
    return repr(text if len(text) <= width else text[: width - 3] + "...")


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
        handlers = HANDLERS
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
                raise HandError(f"internal: {typ} does not re-match {clip_line(tok.value)}", line)
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
        no, player = self._result_seat(m, line)
        street = _STREET_WORDS[m["street"].lower()]
        didnt = m["didnt"]
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
    return lambda b, m, line: b.on_street(m, line, street)


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
HANDLERS: dict[str, Callable[[HandBuilder, re.Match[str], int], None]] = {
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
HANDLERS.update({t: _street_handler(s) for t, s in _STREET_OF_TERMINAL.items()})
HANDLERS.update({t: _action_handler(k) for t, k in _ACTION_OF_TERMINAL.items()})
HANDLERS.update({t: _note_handler(k) for t, k in _NOTE_OF_TERMINAL.items()})
