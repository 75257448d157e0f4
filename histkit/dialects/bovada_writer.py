"""Bovada writer: a `Hand` as the site writes it (grammars/bovada.lark).

Two real forms: cash hands in the 2014 client's (street lines, "Raises X to Y" with X what
the raise adds, a blank after an amount or a card list, "Hand result", no rake in "Total
Pot($150)", "Seat+N:" summary lines, hi/lo halves "HI $X" / "LO $Y"); tournament hands in
the 2012 MTT client's (one "*** HOLE CARDS ***" line, "Raises 30" the street total, "Call
5", "Big blind/Bring in 5", "Double bets 20", "All-in 245" / "All-in(raise) 22", "Hand
Result", "Seat N:" summary lines, "lose with"). `write_hands` gives both real files back
line for line. Forms no real file shows follow the nearest real one: the 2014 double
bet, all-ins, mucks and side-pot lines take the MTT's words with the 2014 blanks; a hi/lo
loser's summary line is the stud one; no hi/lo tournament form is known (halves unnamed).

What the text forces:
- players are written by seat ("Seat+3", the hero "Seat+3 [ME]"): names are not kept.
- every card the hand holds is written, as the site writes every player's: a player's
  down cards from their deal, else from their show or summary line (the same cards, in
  dealt order); a card the hand does not hold is "X" (histkit's token, the site has none).
  Every live player gets a 7th-street line, as at the site. A community card is written
  "*** RIVER *** [6h]" (histkit's own form: the site's is not known).
- no stakes are written (the dialect derives them from the bets). The table is its number
  ("TBL#1"): a table named otherwise is written as the number ending a tournament's
  "<tournament> <n>", else as a number made from its name. The brand is "Bovada".
- the showed summary line's dealt list leaves out the Ace of clubs, as the site's does
  (R, every time); the dialect puts it back from the deals.
- the rake is not written (the 2014 form) when it is what the collects leave of the pot,
  else "Total Pot(X) | Rake (Y)" (the 2012 cash form): a record's money is never lost.
- the hi/lo halves a seat won ("HI", "LO") are the collects' where they name them, else
  the rules engine's awards when they add up to what the seat collected.
- descriptions are the site's words (`hand_words`); "No low hand qualified" and chat,
  which the site does not print, are not written; an action "(timeout)" comes back from
  the TIMED_OUT note the dialect keeps.
"""

from __future__ import annotations

import re
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, ClassVar, TypeGuard

from histkit.cards import Card, parse_card
from histkit.dialects.words import bovada_words as hand_words
from histkit.dialects.writer import ET, TextWriter
from histkit.evaluate.scalar import (
    best_high_five,
    best_low8_five,
    best_razz_five,
)
from histkit.model import (
    Action,
    ActionKind,
    Collect,
    Deal,
    Game,
    Half,
    Hand,
    Muck,
    NoLowHand,
    NoteKind,
    PotKind,
    Seat,
    SeatOutcome,
    SeatResult,
    Show,
    Street,
    StreetStart,
    Summary,
    TableNote,
    UncalledBet,
    Unit,
)

if TYPE_CHECKING:
    from histkit.rules.pots import Award

__all__ = [
    "ERAS",
    "BovadaWriter",
    "Era",
    "MttWriter",
    "hand_words",
    "write_hand",
    "write_hands",
]

GAME_NAMES: dict[Game, str] = {
    Game.STUD: "7CARD",
    Game.STUD_HILO: "7CARD HiLo",
    Game.RAZZ: "RAZZ",  # histkit's own: the site deals no razz
}
_ACE = parse_card("Ac")
_ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}
_SITE_LINE = re.compile(r"Seat\+\d+(?: \[ME\])? : ")
_PLACE = re.compile(r"(?:Ranking |in )(\d+)")
_NOTE_WORDS = {
    NoteKind.JOIN: "Table enter user",
    NoteKind.LEAVE: "Table leave user",
    NoteKind.SIT_OUT: "Sit out",
    NoteKind.RETURN: "Re-join",
}
_JOIN_SEAT = re.compile(r"seat #(\d+)")


def _arabic(level: str) -> str:
    """A level as the site numbers it ("IV" -> "4")."""
    if level.isdigit() or not level or any(ch not in _ROMAN for ch in level.upper()):
        return level
    values = [_ROMAN[ch] for ch in level.upper()]
    total = sum(
        -v if i + 1 < len(values) and v < values[i + 1] else v for i, v in enumerate(values)
    )
    return str(total)


def _acted(e: object, note: TableNote) -> bool:
    return isinstance(e, Action) and e.player == note.player


class BovadaWriter(TextWriter):
    """Cash hands, in the 2014 client's form."""

    game_names = GAME_NAMES
    street_headers = {
        Street.THIRD: "*** 3RD STREET ***",
        Street.FOURTH: "*** 4TH STREET ***",
        Street.FIFTH: "*** 5TH STREET ***",
        Street.SIXTH: "*** 6TH STREET ***",
        Street.SEVENTH: "*** RIVER ***",
    }
    # the summary's "Folded on the 4TH STREET" (R: "3rd STREET", "RIVER")
    fold_streets = {
        **{s: w.strip("* ") for s, w in street_headers.items()},
        Street.THIRD: "3rd STREET",
    }
    hidden_card = "X"
    own_date = re.compile(r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$")
    zone = ET
    actor = " : "
    end = " "  # after an amount or a card list
    seat_head = "Seat+{}:"
    action_words: ClassVar = {
        ActionKind.ANTE: "Ante chip {}",
        ActionKind.BRING_IN: "Bring_in chip {}",
        ActionKind.BET: "Bets {}",
        ActionKind.CALL: "Calls {}",
        ActionKind.CHECK: "Checks",
        ActionKind.FOLD: "Folds",
    }
    double_words = "Double bets {}"
    result_word = "Hand result"
    side_word = "-Side pot"
    lose_word = "lose"
    blank_lines = 2

    def __init__(self, hand: Hand) -> None:
        super().__init__(hand)
        self.seat_of = {s.player: s.seat for s in hand.seats}
        self.community = next(
            (e.community for e in hand.events if isinstance(e, StreetStart) and e.community),
            None,
        )
        self.held = self._held_cards()
        self.live: list[str] = [
            s.player
            for s in hand.seats
            if any(isinstance(e, Deal) and e.player == s.player for e in hand.events)
        ]
        self.top = 0
        self.awards: tuple[Award, ...] | None = None  # the rules engine's, when asked

    def _held_cards(self) -> dict[str, list[Card | None]]:
        """Each player's cards in dealt order: the deals, completed from a show or a summary
        line that lists them all (the same cards, in the same order)."""
        held: dict[str, list[Card | None]] = {}
        for e in self.hand.events:
            if isinstance(e, Deal):
                held.setdefault(e.player, []).extend(e.cards)
        lists = [(e.player, e.cards) for e in self.hand.events if isinstance(e, Show)]
        if self.hand.summary is not None:
            lists += [(r.player, r.cards) for r in self.hand.summary.seats if r.cards]
        own = 6 if self.community is not None else 7
        for player, cards in lists:
            mine = held.get(player)
            if mine is None:
                continue
            full = [c for c in cards if c != self.community][:own]
            if len(full) >= len(mine) and all(
                c is None or c == full[i] for i, c in enumerate(mine)
            ):
                mine[:] = full
        return held

    # -------------------------------------------------------------------- pieces
    def who(self, player: str) -> str:
        seat = self.seat_of.get(player)
        if seat is None:
            raise ValueError(f"hand {self.hand.hand_id}: {player!r} has no seat")
        return f"Seat+{seat}" + (" [ME]" if player == self.hand.hero else "")

    def line(self, player: str, text: str) -> str:
        return f"{self.who(player)}{self.actor}{text}"

    def cards_of(self, player: str) -> tuple[Card, ...]:
        got = tuple(c for c in self.held.get(player, ()) if c is not None)
        return (*got, self.community) if self.community is not None else got

    def best(self, cards: tuple[Card, ...]) -> str:
        """The showdown's five (hi/lo: the high five, then the low five when there is one)."""
        game = self.hand.game
        if len(cards) < 5:
            return self.cards(cards)
        if game is Game.RAZZ:
            return self.cards(best_razz_five(cards))
        five = self.cards(best_high_five(cards))
        low = best_low8_five(cards) if game is Game.STUD_HILO else None
        return f"{five} {self.low_order(low)}" if low else five

    def low_order(self, low: tuple[Card, ...]) -> str:
        return self.cards(low[::-1])  # lowest first (R: "2h 3h 5c 6c 7c")

    def words(self, player: str) -> str:
        return hand_words(self.hand.game, self.cards_of(player))

    # -------------------------------------------------------------------- opening
    def header(self) -> str:
        h = self.hand
        return (
            f"Bovada Hand #{h.hand_id} TBL#{self.table_no()} {self.game_names[h.game]} "
            f"Fixed Limit - {self.date_text()}"
        )

    def head(self) -> list[str]:
        return [self.header()]

    def table_no(self) -> str:
        table = self.hand.table
        if table.isdigit():
            return table
        last = table.rsplit(" ", 1)[-1]
        if self.hand.tournament_id and last.isdigit():
            return last
        return str(zlib.crc32(table.encode()) % 10_000_000)

    def clock(self, t: datetime) -> str:
        return f"{t:%Y-%m-%d %H:%M:%S}"

    def seat_line(self, s: Seat) -> str:
        me = " [ME]" if s.player == self.hand.hero else ""
        stack = self.money(s.stack)
        if self.hand.unit is Unit.CHIP:
            stack = f"{s.stack:,}"
        return f"Seat+{s.seat}{me}: {stack} in chips"

    # -------------------------------------------------------------------- events
    def body(self) -> None:
        events = self.hand.events
        for i, e in enumerate(events):
            if isinstance(e, Deal) and e.street is Street.SEVENTH:
                continue  # written with the street, for every live player
            if self.timed_out(e) and i and _acted(events[i - 1], e):
                continue  # written as the action's line
            line = self.event(e)
            nxt = events[i + 1] if i + 1 < len(events) else None
            if self.timed_out(nxt) and _acted(e, nxt):
                line = nxt.text
            self.emit(line)
            if isinstance(e, StreetStart) and e.street is Street.SEVENTH and not e.community:
                for p in self.live:
                    held = self.held.get(p, [])
                    card = held[6] if len(held) > 6 else None
                    self.emit(
                        self.line(p, f"Card dealt to a spot [{self.cards((card,))}]{self.end}")
                    )

    @staticmethod
    def timed_out(e: object) -> TypeGuard[TableNote]:
        """A note of an action "(timeout)" as the site wrote it (kept by the dialect)."""
        return (
            isinstance(e, TableNote)
            and e.kind is NoteKind.TIMED_OUT
            and "(timeout)" in e.text
            and _SITE_LINE.match(e.text) is not None
        )

    def street_start(self, e: StreetStart) -> str | None:
        self.street, self.street_in, self.top = e.street, {}, 0
        head = self.street_headers[e.street]
        return f"{head} [{e.community}]" if e.community is not None else head

    def deal(self, e: Deal) -> str | None:
        held = self.held.get(e.player, [])
        start = {Street.THIRD: 0}.get(e.street, int(e.street) - 1)
        cards = held[start : start + len(e.cards)] if len(held) >= start + len(e.cards) else e.cards
        return self.line(e.player, f"Card dealt to a spot [{self.cards(cards)}]{self.end}")

    def action(self, a: Action) -> str:
        k, m = a.kind, self.money
        before = self.street_in.get(a.player, 0)
        if k is ActionKind.ANTE:
            return self.line(a.player, self.action_words[k].format(m(a.amount)) + self.end)
        if k in (ActionKind.CHECK, ActionKind.FOLD):
            if k is ActionKind.FOLD and a.player in self.live:
                self.live.remove(a.player)
            return self.line(a.player, self.action_words[k])
        if k in (ActionKind.RAISE, ActionKind.COMPLETE) and a.to_amount is not None:
            to = a.to_amount
        elif k is ActionKind.RAISE:
            to = self.top + a.amount
        else:
            to = before + a.amount
        self.street_in[a.player] = to
        top, self.top = self.top, max(self.top, to)
        if k is ActionKind.BRING_IN:
            return self.line(a.player, self.action_words[k].format(m(a.amount)) + self.end)
        if a.all_in and k is not ActionKind.BRING_IN:
            if to <= top:
                return self.line(a.player, self.all_in_call(to - before))
            return self.line(a.player, self.all_in_raise(to - before, to))
        if k is ActionKind.CALL:
            return self.line(a.player, self.action_words[k].format(m(a.amount)) + self.end)
        if k is ActionKind.BET and a.to_amount is None and top == 0:
            double = (
                self.street is Street.FOURTH
                and a.amount == self.hand.big_bet != self.hand.small_bet
            )
            words = self.double_words if double else self.action_words[k]
            return self.line(a.player, words.format(m(a.amount)) + self.end)
        return self.line(a.player, self.raise_words(to - before, to))

    def raise_words(self, added: int, to: int) -> str:
        return f"Raises {self.money(added)} to {self.money(to)}"

    def all_in_call(self, added: int) -> str:
        return f"All-in {self.money(added)}{self.end}"

    def all_in_raise(self, added: int, to: int) -> str:
        return f"All-in(raise) {self.money(added)} to {self.money(to)}"

    def uncalled(self, e: UncalledBet) -> str | None:
        self.street_in[e.player] = self.street_in.get(e.player, 0) - e.amount
        text = f"Return uncalled portion of bet {self.money(e.amount)}{self.end}"
        return self.line(e.player, text)

    def show(self, e: Show) -> str | None:
        cards = self.cards_of(e.player) or e.cards
        return self.line(e.player, f"Showdown [{self.best(cards)}] ({self.words(e.player)})")

    def muck(self, e: Muck) -> str | None:
        verb = "Does not show" if e.declined else "Mucks"
        held = self.held.get(e.player, [])
        words = f" ({self.words(e.player)})" if held and None not in held else ""
        return self.line(e.player, f"{verb} [{self.cards(held)}]{words}")

    def collect(self, e: Collect) -> str | None:
        side = self.side_word if e.pot is PotKind.SIDE else ""
        return self.line(e.player, f"{self.result_word}{side} {self.money(e.amount)}{self.end}")

    def no_low(self, e: NoLowHand) -> str | None:
        return None  # the site prints no such line (none is known)

    def note(self, e: TableNote) -> str | None:
        if _SITE_LINE.match(e.text):
            return e.text
        seat = self.seat_of.get(e.player or "")
        if seat is None and e.kind is NoteKind.JOIN and (got := _JOIN_SEAT.search(e.text)):
            seat = int(got.group(1))
        if seat is None:
            return None
        words = _NOTE_WORDS.get(e.kind)
        if e.kind is NoteKind.FINISHED and (place := _PLACE.search(e.text)):
            words = f"Ranking {place.group(1)}"
        if not words:
            return None
        return self.line(e.player, words) if e.player in self.seat_of else f"Seat+{seat} : {words}"

    # ------------------------------------------------------------------- summary
    def summary(self, s: Summary) -> list[str]:
        return ["*** SUMMARY ***", self.total_line(s)] + [
            line for r in s.seats if (line := self.seat_result(r))
        ]

    def total_line(self, s: Summary) -> str:
        paid = sum(e.amount for e in self.hand.events if isinstance(e, Collect))
        if s.rake == max(s.total_pot - paid, 0) and not s.fee:
            return f"Total Pot({self.money(s.total_pot)})"
        return f"Total Pot({self.money(s.total_pot)}) | Rake ({self.money(s.rake + s.fee)})"

    def seat_result(self, r: SeatResult) -> str:
        head = self.seat_head.format(r.seat)
        o = r.outcome
        if o is SeatOutcome.FOLDED:
            return f"{head}  Folded on the {self.fold_streets[r.folded_street or Street.THIRD]}"
        if o is SeatOutcome.COLLECTED:
            return f"{head}  {self.money(r.won)} [Does not show]"
        if o is SeatOutcome.MUCKED:
            cards = self.cards(self.held.get(r.player) or r.cards)
            return f"{head}   [Mucked] [{cards} ]"
        if o is SeatOutcome.SHOWED:
            return head + self.result_showed(r)
        return ""  # the site writes no line for a seat that took no part

    def dealt_list(self, player: str) -> str:
        """The showed line's dealt list: without the Ace of clubs, as the site writes it."""
        return self.cards(c for c in self.held.get(player, ()) if c is not None and c != _ACE)

    def result_showed(self, r: SeatResult) -> str:
        cards = self.cards_of(r.player)
        dealt = self.dealt_list(r.player)
        five = best_high_five(cards) if len(cards) >= 5 else cards
        if self.hand.game is Game.RAZZ:
            five = best_razz_five(cards) if len(cards) >= 5 else cards
        high = f"{self.words(r.player)} [{dealt}-{self.cards(five)}]"
        hi, lo = self.halves(r)
        if self.hand.game is not Game.STUD_HILO or not r.won or hi is None or lo is None:
            won = f"{self.money(r.won)} " if r.won else ""
            lose = "" if r.won else f"{self.lose_word} "
            return f"  {won} {lose}with {high}"
        low = best_low8_five(cards) if len(cards) >= 5 else None
        hi_part = f"HI {self.money(hi)}  " if hi else " "
        lo_part = f" LO {self.money(lo)} [{dealt}-{self.low_order(low)}]" if lo and low else "  "
        return f"  {hi_part}with {high}{lo_part}"

    def halves(self, r: SeatResult) -> tuple[int | None, int | None]:
        """What the seat won of the high and the low halves: from the collects where they
        name halves, else from the rules engine's awards when they add up to what the seat
        collected; (None, None) when neither tells."""
        mine = [e for e in self.hand.events if isinstance(e, Collect) and e.player == r.player]
        if not mine:
            return None, None
        if all(c.half is not None for c in mine):
            hi = sum(c.amount for c in mine if c.half is not Half.LOW)
            return hi, sum(c.amount for c in mine if c.half is Half.LOW)
        if self.awards is None:
            from histkit.rules import replay

            self.awards = replay(self.hand).awards
        hi = lo = 0
        for a in self.awards:
            got = dict(a.expected).get(r.player, 0)
            if a.half is Half.LOW:
                lo += got
            else:
                hi += got
        return (hi, lo) if hi + lo == sum(c.amount for c in mine) else (None, None)


class MttWriter(BovadaWriter):
    """Tournament hands, in the 2012 MTT client's form."""

    street_headers = {**BovadaWriter.street_headers, Street.THIRD: "*** HOLE CARDS ***"}
    end = ""
    seat_head = "Seat {}:"
    action_words: ClassVar = {
        **BovadaWriter.action_words,
        ActionKind.BRING_IN: "Big blind/Bring in {}",
        ActionKind.CALL: "Call {}",
    }
    result_word = "Hand Result"
    side_word = "-Side Pot"

    def header(self) -> str:
        h = self.hand
        return (
            f"Bovada Hand #{h.hand_id}: {self.game_names[h.game]} Tournament "
            f"#{h.tournament_id} TBL#{self.table_no()}, Fixed Limit- Level "
            f"{_arabic(h.level or '1')} (0/0) - {self.date_text()}"
        )

    def street_start(self, e: StreetStart) -> str | None:
        line = super().street_start(e)
        if e.street is Street.THIRD or e.community is not None:
            return line
        return None  # the 2012 text starts later streets with their first card

    def raise_words(self, added: int, to: int) -> str:
        return f"Raises {self.money(to)}"

    def all_in_raise(self, added: int, to: int) -> str:
        return f"All-in(raise) {self.money(to)}"

    def halves(self, r: SeatResult) -> tuple[int | None, int | None]:
        return None, None  # no hi/lo tournament hand is known: written as a whole


class Cash2012Writer(MttWriter):
    """The era `2012`, cash: the Bodog cash file's forms (R, 2012-05): `Bodog` in the
    header; one `*** HOLE CARDS ***` line; `Bring_in chip`, `Calls`, `D bets` for the big
    bet on 4th street; `Raises X` the street total; `Hand result`; the rake written even
    when it is nothing (`Total Pot($0.09) | Rake ($0)`); `Seat N:` summary lines; no
    blank after an amount. No 2012 hi/lo hand is on record: its halves are not named."""

    action_words: ClassVar = BovadaWriter.action_words
    double_words = "D bets {}"
    result_word = "Hand result"
    side_word = "-Side pot"

    def header(self) -> str:
        h = self.hand
        return (
            f"Bodog Hand #{h.hand_id} TBL#{self.table_no()} {self.game_names[h.game]} "
            f"Fixed Limit - {self.date_text()}"
        )

    def total_line(self, s: Summary) -> str:
        return f"Total Pot({self.money(s.total_pot)}) | Rake ({self.money(s.rake + s.fee)})"


class Mtt2012Writer(MttWriter):
    """The era `2012`, tournaments: the MTT file's forms with the older header's `Normal`
    for the limit (K, FPDB 2013-01)."""

    def header(self) -> str:
        return super().header().replace(", Fixed Limit- Level ", ", Normal- Level ", 1)


class Cash2016Writer(BovadaWriter):
    """The era `2016-`, cash: the 2014 client's lines (FPDB records no later change to the
    stud lines) with the forms FPDB added for them (K): `Ignition` in the header and the
    client's tag `[MVS]` before the date (2016-08; histkit writes the two together),
    `Bring in` alone (2015-12), `7CARD_HL` (2013-08), lower-case `bets` and `raises`
    (2012-12)."""

    game_names = {**GAME_NAMES, Game.STUD_HILO: "7CARD_HL"}
    action_words: ClassVar = {
        **BovadaWriter.action_words,
        ActionKind.BRING_IN: "Bring in {}",
        ActionKind.BET: "bets {}",
    }
    brand = "Ignition"

    def header(self) -> str:
        return _tagged(super().header(), self.brand)

    def raise_words(self, added: int, to: int) -> str:
        return f"raises {self.money(added)} to {self.money(to)}"


class Mtt2016Writer(MttWriter):
    """The era `2016-`, tournaments: the MTT file's lines (no later tournament form is on
    record) under the 2016 header's `Ignition` and `[MVS]`, with `7CARD_HL`."""

    game_names = Cash2016Writer.game_names

    def header(self) -> str:
        return _tagged(super().header(), Cash2016Writer.brand)


def _tagged(header: str, brand: str) -> str:
    """A header with the 2016 brand and the client's tag before the date."""
    head, _, date = header.rpartition(" - ")
    return f"{brand}{head.removeprefix('Bovada')} [MVS] - {date}"


@dataclass(frozen=True, slots=True)
class Era:
    """One era's writers: cash hands and tournament hands (the site's two texts)."""

    cash: type[BovadaWriter]
    mtt: type[BovadaWriter]

    def writer(self, hand: Hand) -> type[BovadaWriter]:
        return self.mtt if hand.is_tournament else self.cash

    def write_hand(self, hand: Hand, *, newline: str = "\n") -> str:
        """One hand, without the blank lines after it."""
        return self.writer(hand).write_hand(hand, newline=newline)

    def write_hands(self, hands: Iterable[Hand], *, newline: str = "\n") -> str:
        """Hands one after the other, each followed by two blank lines."""
        end = newline * (BovadaWriter.blank_lines + 1)
        return "".join(self.write_hand(h, newline=newline) + end for h in hands)


# the eras the writer writes (`histkit.dialects.eras`, docs/sites/bovada.md), the default
# first: cash in the 2014 client's form, tournaments in the 2012 MTT file's (the only real
# tournament form)
ERAS: dict[str, Era] = {
    "2012-2016": Era(BovadaWriter, MttWriter),
    "2012": Era(Cash2012Writer, Mtt2012Writer),
    "2016-": Era(Cash2016Writer, Mtt2016Writer),
}

write_hand = ERAS["2012-2016"].write_hand
write_hands = ERAS["2012-2016"].write_hands
