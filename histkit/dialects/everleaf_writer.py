"""Everleaf writer: `Hand` -> text, the other half of the Everleaf dialect.

Lines are written in the forms of the real file (2011 dollar tables; see
`histkit.dialects.everleaf` for which forms are seen and which are known or histkit's own):
the five header lines, `Seat 1: P (  $ 0.54 USD )`, `P: posts ante [$ 0.01 USD]`, `P posts
bring-in $0.02.`, `P completes to $0.05.`, `P: bets [$ 0.10 USD]`, `P calls [$ 0.02 USD]`,
`P raises [$ 0.20 USD]` (what the raise adds), `** Dealing down cards **`, `**** dealing 4th
street ****` .. `**** dealing river ****`, `P shows [ 5d, 8d, .. ] a flush, king high`, `P
does not show cards`, `P wins $ 0.98 USD from main pot with a flush, king high [ Kd, .. ]`,
three blank lines after each hand. Choices, since the site's text cannot carry everything a
`Hand` may hold (tests/dialects/test_everleaf.py checks them):

- Not written, as the site writes none: deal lines (no card but the shown ones), uncalled
  bets (the pot won leaves them out, as the site's does), all-in markers, the summary (no
  total pot, no rake), "No low hand qualified", "Betting is capped", notes other than "P
  sits out", seats sitting out (the real seat lists name only players dealt in).
- The shows and "does not show cards" lines come before the pots won, as in the real file;
  "does not show cards" is both a declined show and a muck.
- The first wager on 3rd street is "completes to X." (a completion); later raises give
  what they add over the raiser's street total.
- A winner's "with <words> [<best five>]" is written when the winner reached 7th street and
  their cards and Everleaf's words for them are known (stud high: `describe_words`); the
  best five read highest first. Shows keep their own words for a hand read from Everleaf,
  else get `describe_words` (none for hi/lo and razz: no Everleaf words are known).
- Money: dollars "[$ 0.10 USD]" (seen), euros "[0.10 EUR]" and "€0.02." (the euro tables' forms
  as known), lari "[0.10 GEL]" and "0.02." (K: no sign is on record), chips "[10 Chips]", "wins
  300 chips" (FPDB's words), all without thousands separators; the stakes line drops ".00" from
  whole amounts ("$1/$2", as the hold'em lines do). Side pots are "side pot #N"; a community
  card "**** dealing river **** [ 6h ]" (histkit's form). Dates: the hand's own text in
  Everleaf's form, else its start in UTC.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import ClassVar

from histkit.cards import Card
from histkit.dialects.words import everleaf_words as describe_words
from histkit.dialects.writer import TextWriter
from histkit.evaluate.scalar import best_high_five
from histkit.model import (
    Action,
    ActionKind,
    Collect,
    Deal,
    Event,
    Game,
    Hand,
    Muck,
    NoLowHand,
    NoteKind,
    PotKind,
    Seat,
    Show,
    Street,
    StreetStart,
    TableNote,
    UncalledBet,
    Unit,
)

__all__ = [
    "ERAS",
    "GAME_NAMES",
    "EverleafWriter",
    "Everleaf2012Writer",
    "Everleaf2014Writer",
    "write_hand",
    "write_hands",
]

GAME_NAMES: dict[Game, str] = {
    Game.STUD: "7 Card Stud",
    Game.STUD_HILO: "7 Card Stud Hi/Lo",
    Game.RAZZ: "Razz",
}
_A = ActionKind


class EverleafWriter(TextWriter):
    """Everleaf's words; its amounts in four forms; its own order at the end of a hand."""

    game_names = GAME_NAMES
    street_headers: ClassVar[Mapping[Street, str]] = {
        Street.THIRD: "** Dealing down cards **",
        **{s: f"**** dealing {int(s)}th street ****" for s in Street if 3 < s < 7},
        Street.SEVENTH: "**** dealing river ****",
    }
    # the lari (GEL) has no sign: "2.00 GEL", stakes "0.05/0.10" (the seat lines say GEL)
    symbols: ClassVar[Mapping[str, str]] = {"USD": "$", "EUR": "\u20ac", "GBP": "\u00a3", "GEL": ""}
    own_date = re.compile(r"\d{4}/\d{2}/\d{2} - \d{2}:\d{2}:\d{2}\Z")
    zone = UTC
    no_date = "neither an Everleaf date nor started_at is set"
    blank_lines = 3

    def __init__(self, hand: Hand) -> None:
        if not hand.hand_id.isdigit():
            raise ValueError(f"hand {hand.hand_id}: Everleaf writes numbers for hand ids")
        super().__init__(hand)
        self.code = hand.currency or "USD"
        self.wins: list[str] = []  # the pots won, written after the shows
        self.reached_seventh: set[str] = set()
        self.own_words = hand.site == "everleaf"

    # ----------------------------------------------------------------- money
    def amount(self, amount: int, *, sign_space: bool = True, whole: bool = False) -> str:
        """ "$ 0.10 USD" (sign_space), "$0.10" (not); "0.10 EUR"; chips "10"."""
        if self.hand.unit is Unit.CHIP:
            return str(amount)
        units, cents = divmod(amount, 100)
        number = str(units) if whole and not cents else f"{units}.{cents:02d}"
        if self.code in ("EUR", "GEL") and sign_space:
            return f"{number} {self.code}"
        sign = self.symbols.get(self.code, "$")
        return f"{sign} {number} {self.code}" if sign_space else f"{sign}{number}"

    def bracket(self, amount: int) -> str:
        got = self.amount(amount)
        return f"[{got} Chips]" if self.hand.unit is Unit.CHIP else f"[{got}]"

    # ---------------------------------------------------------------- opening
    def head(self) -> list[str]:
        h = self.hand
        stakes = "/".join(
            self.amount(x, sign_space=False, whole=True) for x in (h.small_bet, h.big_bet)
        )
        return [
            f"Everleaf Gaming Game #{h.hand_id}",
            f"***** Hand history for game #{h.hand_id} *****",
            f"{stakes} {self.game_names[h.game]} - {self.date_text()}",
            f"Table {h.table}",
            f"Total number of players: {sum(1 for s in h.seats if not s.sitting_out)}",
        ]

    def clock(self, t: datetime) -> str:
        return f"{t:%Y/%m/%d - %H:%M:%S}"

    def seat_line(self, s: Seat) -> str:
        stack = self.amount(s.stack)
        return f"Seat {s.seat}: {s.player} (  {stack}{' Chips' if self.chips else ''} )"

    @property
    def chips(self) -> bool:
        return self.hand.unit is Unit.CHIP

    def write(self) -> list[str]:
        h = self.hand
        self.lines = [*self.head(), *(self.seat_line(s) for s in h.seats if not s.sitting_out)]
        self.body()
        self.lines.extend(self.wins)
        return self.lines

    def before(self, i: int, e: Event) -> None:
        """No showdown line at Everleaf."""

    # ----------------------------------------------------------------- events
    def action(self, a: Action) -> str:
        k, p = a.kind, a.player
        before = self.street_in.get(p, 0)
        if k is _A.ANTE:
            return f"{p}: posts ante {self.bracket(a.amount)}"
        if k is _A.CHECK or k is _A.FOLD:
            return f"{p} {'checks' if k is _A.CHECK else 'folds'}"
        if k is _A.BRING_IN or k is _A.CALL:
            self.street_in[p] = before + a.amount
            if k is _A.CALL:
                return f"{p} calls {self.bracket(a.amount)}"
            return f"{p} posts bring-in {self.amount(a.amount, sign_space=False)}."
        top = max(self.street_in.values(), default=0)
        if a.to_amount is not None:
            to = a.to_amount
        else:
            to = top + a.amount if k is _A.RAISE else before + a.amount
        self.street_in[p] = to
        self.wagers += 1
        if self.street is Street.THIRD and self.wagers == 1:
            return f"{p} completes to {self.amount(to, sign_space=False)}."
        if k is _A.BET:
            return f"{p}: bets {self.bracket(to - before)}"
        return f"{p} raises {self.bracket(to - before)}"

    def street_start(self, e: StreetStart) -> str | None:
        line = super().street_start(e)
        if e.street is Street.SEVENTH:
            self.reached_seventh = set(self.live())
        if e.community is not None:
            return f"{self.street_headers[e.street]} [ {e.community} ]"
        return line

    def live(self) -> list[str]:
        folded = {
            e.player for e in self.hand.actions() if e.kind is _A.FOLD and e.street <= self.street
        }
        return [s.player for s in self.hand.seats if not s.sitting_out and s.player not in folded]

    def listed(self, cards: tuple[Card, ...]) -> str:
        return ", ".join(str(c) for c in cards)

    def show(self, e: Show) -> str | None:
        game, cards = self.hand.game, self.all_cards(e.cards)
        words = e.description if self.own_words else describe_words(game, cards)
        return f"{e.player} shows [ {self.listed(e.cards)} ]" + (f" {words}" if words else "")

    def muck(self, e: Muck) -> str | None:
        return f"{e.player} does not show cards"

    def collect(self, e: Collect) -> str | None:
        pot = f"side pot #{e.pot_index or 1}" if e.pot is PotKind.SIDE else "main pot"
        won = f"{self.amount(e.amount)}{' chips' if self.chips else ''}"
        self.wins.append(f"{e.player} wins {won} from {pot}{self.with_hand(e.player)}")
        return None

    def with_hand(self, player: str) -> str:
        """ " with <words> [<best five>]" for a winner at 7th street whose cards are known."""
        if player not in self.reached_seventh:
            return ""
        cards = self.known(player)
        words = describe_words(self.hand.game, cards) if cards else None
        if words is None:
            return ""
        five = sorted(best_high_five(cards), key=lambda c: -c.rank)
        return f" with {words} [ {self.listed(tuple(five))} ]"

    def known(self, player: str) -> tuple[Card, ...]:
        for e in self.hand.events:
            if isinstance(e, Show) and e.player == player:
                return self.all_cards(e.cards)
        return ()

    def all_cards(self, cards: tuple[Card, ...]) -> tuple[Card, ...]:
        """A shown hand with the community card, if one was dealt."""
        for e in self.hand.events:
            if isinstance(e, StreetStart) and e.community is not None and e.community not in cards:
                return (*cards, e.community)
        return cards

    def deal(self, e: Deal) -> str | None:
        return None  # the site's stud record writes no cards but the shown ones

    def uncalled(self, e: UncalledBet) -> str | None:
        return None  # the pot won leaves the bet out; no line says it went back

    def no_low(self, e: NoLowHand) -> str | None:
        return None

    def note(self, e: TableNote) -> str | None:
        return f"{e.player} sits out" if e.kind is NoteKind.SIT_OUT and e.player else None


class Everleaf2012Writer(EverleafWriter):
    """The era `2012-2014`, the client's last forms before the Grand Poker Network (K):
    the table size after the game, `- 6 Max` (FPDB 2012-09); blanks around the stakes,
    ` $0.05 / $0.10` (FPDB's pattern); euros with the code `EURO` (2010-02) and the sign as
    the caret the files carry for it, `[ˆ 0.10 EURO]`, `ˆ0.02.` (2012-06)."""

    def amount(self, amount: int, *, sign_space: bool = True, whole: bool = False) -> str:
        if self.code != "EUR" or self.hand.unit is Unit.CHIP:
            return super().amount(amount, sign_space=sign_space, whole=whole)
        units, cents = divmod(amount, 100)
        number = str(units) if whole and not cents else f"{units}.{cents:02d}"
        return f"\u02c6 {number} EURO" if sign_space else f"\u02c6{number}"

    def head(self) -> list[str]:
        h = self.hand
        lines = super().head()
        sb, bb = (self.amount(x, sign_space=False, whole=True) for x in (h.small_bet, h.big_bet))
        size = f" - {h.max_seats} Max" if h.max_seats else ""
        lines[2] = f" {sb} / {bb} {self.game_names[h.game]}{size} - {self.date_text()}"
        return lines


class Everleaf2014Writer(Everleaf2012Writer):
    """The era `2014-`, the Grand Poker Network on the same software (K): lari written
    `2.00 GEL` (as every era writes them), and a tournament's actions without `Chips`,
    `P: bets [20]` (FPDB 2015-12; the seats keep the word)."""

    def bracket(self, amount: int) -> str:
        return f"[{self.amount(amount)}]"


# the eras the writer writes (`histkit.dialects.eras`, docs/sites/everleaf.md), the default first
ERAS: dict[str, type[EverleafWriter]] = {
    "2008-2012": EverleafWriter,
    "2012-2014": Everleaf2012Writer,
    "2014-": Everleaf2014Writer,
}

write_hand = EverleafWriter.write_hand
write_hands = EverleafWriter.write_hands
