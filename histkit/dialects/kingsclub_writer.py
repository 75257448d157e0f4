"""Kings Club writer: `Hand` -> text, the other half of the Kings Club dialect.

Lines are written in the forms of the real files (grammars/kingsclub.lark marks each R or
K): "#<id>: Limit Seven Card Stud - 44/88", the date in UTC on line 2, "Table '..'", no
3rd-street line, "*** 3RD STREET ***" .. "*** 6TH STREET ***" for 4th .. 7th street,
amounts without a currency sign ("1,662.75", "2,000"), every amount after a verb the
player's street total ("calls 121.16"), ", and is all in". Choices the text forces:
- not written, since the site writes no such line: uncalled bets (the dialect derives
  them back), the total pot, "No low hand qualified", "Betting is capped", the open-pair
  line, a showdown line, a declined show, hand descriptions, table notes.
- 7th street: a line for every player still in, "[X]" where the card is not known (R).
- the summary: every seat's final stack and net in seat order ("Seat 4: P (2,788.28)
  +788.28"; a net of nothing is "0", K), "Rake X" when there is rake, then the collects,
  "P wins pot (X)", "main pot", "side pot #N" (K); a half's name is not written (no real
  file shows one).
- a completion is "bets X", the site's word for it (R: "Player2 bets 44" over a bring-in).
- eras (`ERAS`): "2020-2021", the real files' layout (the default), and "2023-", the
  later one (K): each street marker the street it heads, 3rd to 7th.
- refused: tournaments (no Kings Club tournament form is known) and a house fee besides
  the rake (no line for it is known).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import datetime
from typing import ClassVar

from histkit.accounting import collections, contributions
from histkit.dialects.writer import TextWriter
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
    PotKind,
    Show,
    Street,
    StreetStart,
    Summary,
    UncalledBet,
)

__all__ = [
    "ERAS",
    "GAME_NAMES",
    "KingsClub2023Writer",
    "KingsClubWriter",
    "format_amount",
    "write_hand",
    "write_hands",
]

GAME_NAMES: dict[Game, str] = {
    Game.STUD: "Limit Seven Card Stud",
    Game.STUD_HILO: "Limit Seven Card Stud Hi-Lo",
    Game.RAZZ: "Limit Razz",
}


class KingsClubWriter(TextWriter):
    """Kings Club's words, its street totals, its 7th-street lines and its summary."""

    game_names = GAME_NAMES
    street_headers = {
        Street.FOURTH: "*** 3RD STREET ***",
        Street.FIFTH: "*** 4TH STREET ***",
        Street.SIXTH: "*** 5TH STREET ***",
        Street.SEVENTH: "*** 6TH STREET ***",
    }
    symbols: ClassVar[Mapping[str, str]] = {}
    symbol = ""
    thousands = True
    hidden_card = "X"
    own_date = re.compile(r"\d{4}-\d{2}-\d{2} \d{1,2}:\d{2}:\d{2}\Z")
    no_date = "neither a Kings Club date nor started_at is set"
    all_in = ", and is all in"
    muck_words = "mucks"
    declined_words = None

    def __init__(self, hand: Hand) -> None:
        if hand.is_tournament:
            raise ValueError(
                f"hand {hand.hand_id}: no Kings Club tournament form is known (cash only)"
            )
        if hand.summary is not None and hand.summary.fee:
            raise ValueError(f"hand {hand.hand_id}: Kings Club writes no fee besides the rake")
        super().__init__(hand)
        self.folded: set[str] = set()

    # ------------------------------------------------------------------ opening
    def head(self) -> list[str]:
        return [self.header(), self.date_text(), self.table()]

    def header(self) -> str:
        h = self.hand
        return f"#{h.hand_id}: {self.game_names[h.game]} - {self.stakes()}"

    def clock(self, t: datetime) -> str:
        return f"{t:%Y-%m-%d %H:%M:%S}"

    def table(self) -> str:
        return f"Table '{self.hand.table}'"

    # ------------------------------------------------------------------ events
    def event(self, e: Event) -> str | None:
        if isinstance(e, Deal) and e.street is Street.SEVENTH:
            return None  # written with the street line (`street_start`)
        if isinstance(e, Collect):
            return None  # written in the summary
        return super().event(e)

    def showdown_lines(self) -> list[str]:
        return []

    def street_start(self, e: StreetStart) -> str | None:
        self.street, self.street_in, self.wagers = e.street, {}, 0
        if e.street is Street.THIRD:
            return None
        head = self.street_headers[e.street]
        if e.community is not None:
            return f"{head} [{e.community}]"
        if e.street is Street.SEVENTH:
            self.lines.append(head)
            self.lines.extend(self.seventh_lines())
            return None
        return head

    def seventh_lines(self) -> list[str]:
        """A line for every player still in, in seat order: the card where it is known."""
        h = self.hand
        known = {
            e.player: e.cards
            for e in h.events
            if isinstance(e, Deal) and e.street is Street.SEVENTH
        }
        dealt = {e.player for e in h.events if isinstance(e, Deal) and e.street is Street.THIRD}
        return [
            f"Dealt to {s.player}: [{self.cards(known.get(s.player, (None,)))}]"
            for s in h.seats
            if s.player in dealt and s.player not in self.folded
        ]

    def deal(self, e: Deal) -> str | None:
        return f"Dealt to {e.player}: [{self.cards(e.cards)}]"

    def action(self, a: Action) -> str:
        k, p, m = a.kind, a.player, self.money
        before = self.street_in.get(p, 0)
        if k is ActionKind.ANTE:
            text = f"{p}: posts ante {m(a.amount)}"
        elif k is ActionKind.CHECK or k is ActionKind.FOLD:
            if k is ActionKind.FOLD:
                self.folded.add(p)
            return f"{p} {k.value}s"
        else:
            if k is ActionKind.BRING_IN or k is ActionKind.BET or k is ActionKind.CALL:
                to = before + a.amount
            elif a.to_amount is not None:
                to = a.to_amount
            elif k is ActionKind.RAISE:
                to = max(self.street_in.values(), default=0) + a.amount
            else:
                to = before + a.amount
            completes = self.street is Street.THIRD and self.wagers == 0
            if k is ActionKind.BRING_IN:
                text = f"{p} brings in for {m(to)}"
            elif k is ActionKind.CALL:
                text = f"{p} calls {m(to)}"
            elif k is ActionKind.BET or completes:
                text, self.wagers = f"{p} bets {m(to)}", self.wagers + 1
            else:
                text, self.wagers = f"{p} raises to {m(to)}", self.wagers + 1
            self.street_in[p] = to
        return text + (self.all_in if a.all_in else "")

    def uncalled(self, e: UncalledBet) -> str | None:
        return None

    def show(self, e: Show) -> str | None:
        return f"{e.player} shows [{self.shown_cards(e.cards)}]"

    def muck(self, e: Muck) -> str | None:
        return None if e.declined else f"{e.player} mucks"

    def no_low(self, e: NoLowHand) -> str | None:
        return None

    # ----------------------------------------------------------------- summary
    def summary(self, s: Summary) -> list[str]:
        h, m = self.hand, self.money
        put, got = contributions(h), collections(h)
        out = ["*** SUMMARY ***"]
        for seat in h.seats:
            net = got.get(seat.player, 0) - put.get(seat.player, 0)
            sign = "+" if net > 0 else ""
            out.append(f"Seat {seat.seat}: {seat.player} ({m(seat.stack + net)}) {sign}{m(net)}")
        if s.rake:
            out.append(f"Rake {m(s.rake)}")
        out.extend(
            f"{c.player} wins {self.pot_name(c)} ({m(c.amount)})"
            for c in h.events
            if isinstance(c, Collect)
        )
        return out

    def side_pot_name(self, index: int, count: int) -> str:
        return f"side pot #{index or 1}"

    def pot_name(self, e: Collect) -> str:
        return "pot" if e.pot in (PotKind.POT, PotKind.TOTAL) else super().pot_name(e)


class KingsClub2023Writer(KingsClubWriter):
    """The later layout (K: FPDB 2023-10): "*** 3RD STREET ***" heads 3rd street, before
    its cards, and each marker names the street it heads, "*** 7TH STREET ***" the last."""

    street_headers = {s: f"*** {int(s)}{'RD' if s is Street.THIRD else 'TH'} STREET ***"
                      for s in Street}  # fmt: skip

    def street_start(self, e: StreetStart) -> str | None:
        if e.street is Street.THIRD:
            self.street, self.street_in, self.wagers = e.street, {}, 0
            return self.street_headers[Street.THIRD]
        return super().street_start(e)


ERAS: dict[str, type[KingsClubWriter]] = {
    "2020-2021": KingsClubWriter,
    "2023-": KingsClub2023Writer,
}

format_amount = KingsClubWriter.format_amount
write_hand = KingsClubWriter.write_hand
write_hands = KingsClubWriter.write_hands
