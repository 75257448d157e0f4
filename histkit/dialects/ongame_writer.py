"""OnGame writer: a `Hand` as the OnGame Network client of 2010 wrote it (grammars/ongame.lark).

Every line has a form a real file shows (../shared/hands/ongame), except where said. The
writer gives both real files back line for line from their parsed hands. Choices the text
forces:
- amounts say what an action adds; a raise is "raises X to Y" with X what it adds and Y
  the player's total in the hand without the ante (R: "raises $1 to $1.37"); a completion
  with nothing in front is "bets" (R), a completion by the bring-in player as its first
  action "big bring in" (K).
- no line for an uncalled bet, a show, a muck or a collect: the summary's pot lines ("Main
  pot: X won by P (Y)", X before rake) carry the pot less any bet returned, and the seat
  lines carry the final stack, the net and the cards of a player who showed. A seat that
  was not dealt in (sitting out) is not listed: "Players in round" counts the listed seats.
- a hand's pots before rake come from the engine (`histkit.rules.replay`): the model keeps
  each pot after rake only.
- the table id in "Table: NAME [ID]" is the middle of an "R5-ID-N" hand id, else a number
  made from the table's name (the model keeps no table id). A hand id of another form is
  written as it is. The start is the hand's own "Start hand" text when it has one, else
  the UTC time ("GMT+0000").
- H: the tournament header `(TOURNAMENT: "NAME", ID, buy-in: B)` (K form) names the
  tournament by its id; chip amounts carry no sign and no ", Real money".
- H: hand words other than the seen "TWO_PAIR JACK, NINE", "THREE_OF_A_KIND QUEEN",
  "FULL_HOUSE EIGHT, FOUR" follow their pattern (`hand_words`); "Dealing river [6h]" for
  a community card. Table notes are not written (no OnGame form is known).
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable
from datetime import UTC, datetime

from histkit.cards import Card
from histkit.dialects.words import MONTHS
from histkit.dialects.words import ongame_words as hand_words
from histkit.dialects.writer import TextWriter
from histkit.model import (
    Action,
    ActionKind,
    Collect,
    Deal,
    Game,
    Hand,
    Muck,
    NoLowHand,
    PotKind,
    Seat,
    SeatOutcome,
    SeatResult,
    Show,
    Street,
    StreetStart,
    Summary,
    UncalledBet,
    Unit,
)

__all__ = ["GAME_WORDS", "OnGameWriter", "hand_words", "write_hand", "write_hands"]

GAME_WORDS: dict[Game, str] = {
    Game.STUD: "LIMIT SEVEN_CARD_STUD",  # R
    Game.STUD_HILO: "LIMIT SEVEN_CARD_STUD_HI_LO",  # R
    Game.RAZZ: "LIMIT RAZZ",  # K
}
DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_STREETS = {
    Street.THIRD: "Dealing pocket cards",
    Street.FOURTH: "Dealing 4th street",
    Street.FIFTH: "Dealing 5th street",
    Street.SIXTH: "Dealing 6th street",
    Street.SEVENTH: "Dealing river",
}


class OnGameWriter(TextWriter):
    """The 2010 client: "---" before each street and the summary, "[a, b, c]" card lists,
    amounts that say what each action adds, the summary's pots and per-seat nets."""

    game_names = GAME_WORDS
    street_headers = _STREETS
    hidden_card = "-"
    blank_lines = 0  # hands follow each other with no blank line (R)
    action_words = {
        ActionKind.ANTE: "posts ante {}",
        ActionKind.BRING_IN: "small bring in {}",
        ActionKind.BET: "bets {}",
        ActionKind.CALL: "calls {}",
        ActionKind.CHECK: "checks",
        ActionKind.FOLD: "folds",
    }

    def __init__(self, hand: Hand) -> None:
        super().__init__(hand)
        self.on_street: dict[str, int] = {}
        self.in_hand: dict[str, int] = {}  # with antes
        self.bets: dict[str, int] = {}  # without antes: the "to Y" of a raise
        self.opened = False  # a bring-in or wager on this street
        dealt = {e.player for e in hand.events if isinstance(e, Deal)}
        posted = {a.player for a in hand.actions()}
        self.board: tuple[Card, ...] = hand.summary.board if hand.summary is not None else ()
        # a seat out of the hand is not listed ("Players in round"); no all-in words are
        # written (none is known: the dialect reads all-in from the stacks)
        self.listed: list[Seat] = [
            seat for seat in hand.seats if not seat.sitting_out or seat.player in dealt | posted
        ]

    def write(self) -> list[str]:
        h = self.hand
        if h.summary is None:
            raise ValueError(f"hand {h.hand_id}: an OnGame hand always ends with its summary")
        self.lines = [*self.head(), *(self.seat_line(s) for s in self.listed)]
        self.body()
        self.lines.extend(self.summary(h.summary))
        return self.lines

    # -- header --------------------------------------------------------------------
    def header(self) -> str:
        h = self.hand
        tour = ""
        if h.is_tournament:
            tour = f' (TOURNAMENT: "{h.tournament_id}", {h.tournament_id}, buy-in: {h.buy_in or 0})'
        return f"***** History for hand {h.hand_id}{tour} *****"

    def clock(self, t: datetime) -> str:
        return (
            f"{DAYS[t.weekday()]} {MONTHS[t.month - 1]} {t.day:02d} {t:%H:%M:%S} GMT+0000 {t.year}"
        )

    def date_text(self) -> str:
        own = self.hand.local_time
        if own and own[:3] in DAYS and " GMT" in own:
            return own
        if self.hand.started_at is None:
            raise ValueError(f"hand {self.hand.hand_id}: {self.no_date}")
        return self.clock(self.hand.started_at.astimezone(UTC))

    def table_id(self) -> str:
        parts = self.hand.hand_id.split("-")
        if len(parts) == 3 and parts[1].isdigit():
            return parts[1]
        return str(zlib.crc32(self.hand.table.encode()) % 100_000_000)

    def head(self) -> list[str]:
        h = self.hand
        ante = self.ante()
        stakes = f"{self.game_names[h.game]} {self.stakes()}"
        if ante is not None:
            stakes += f", ante: {self.money(ante)}"
        if h.unit is Unit.CENT:
            stakes += ", Real money"
        lines = [
            self.header(),
            f"Start hand: {self.date_text()}",
            f"Table: {h.table} [{self.table_id()}] ({stakes})",
        ]
        if h.hero is not None:
            lines.append(f"User: {h.hero}")
        lines.append(f"Players in round: {len(self.listed)}")
        return lines

    # -- body ----------------------------------------------------------------------
    def body(self) -> None:
        for e in self.hand.events:
            if isinstance(e, StreetStart):
                self.lines.append("---")
            self.emit(self.event(e))

    def street_start(self, e: StreetStart) -> str | None:
        self.street, self.on_street, self.wagers, self.opened = e.street, {}, 0, False
        head = self.street_headers[e.street]
        return f"{head} [{e.community}]" if e.community is not None else head

    def cards(self, cards: Iterable[Card | None]) -> str:
        return ", ".join(self.hidden_card if c is None else str(c) for c in cards)

    def deal(self, e: Deal) -> str | None:
        if e.street is not Street.THIRD and all(c is None for c in e.cards):
            return None  # a card nobody saw: the client writes no line
        return f"Dealing to {e.player}: [{self.cards(e.cards)}]"

    def action(self, a: Action) -> str:
        k, p = a.kind, a.player
        if k is ActionKind.ANTE:
            self.in_hand[p] = self.in_hand.get(p, 0) + a.amount
            return f"{p} posts ante {self.money(a.amount)}"
        before = self.on_street.get(p, 0)
        if k in (ActionKind.RAISE, ActionKind.COMPLETE):
            to = a.to_amount if a.to_amount is not None else self.top() + a.amount
        elif k in (ActionKind.BET, ActionKind.CALL, ActionKind.BRING_IN):
            to = before + a.amount
        else:
            to = before
        add = to - before
        self.on_street[p] = to
        self.bets[p] = self.bets.get(p, 0) + add
        self.in_hand[p] = self.in_hand.get(p, 0) + add
        if k in (ActionKind.RAISE, ActionKind.COMPLETE, ActionKind.BET):
            if not self.opened and self.street is Street.THIRD:
                text = f"big bring in {self.money(add)}"  # the bring-in player completes
            elif not self.wagers:
                text = f"bets {self.money(add)}"
            else:
                text = f"raises {self.money(add)} to {self.money(self.bets[p])}"
            self.wagers += 1
        else:
            text = self.action_words[k].format(self.money(add))
        if k in (ActionKind.BRING_IN, ActionKind.RAISE, ActionKind.COMPLETE, ActionKind.BET):
            self.opened = True
        return f"{p} {text}"

    def top(self) -> int:
        return max(self.on_street.values(), default=0)

    # nothing else in the body: the summary carries shows, mucks, collects and returns
    def uncalled(self, e: UncalledBet) -> str | None:
        """No line: the summary's pots and nets leave the returned chips out."""
        for book in (self.in_hand, self.bets, self.on_street):
            book[e.player] = book.get(e.player, 0) - e.amount
        return None

    def show(self, e: Show) -> str | None:
        return None

    def muck(self, e: Muck) -> str | None:
        return None

    def collect(self, e: Collect) -> str | None:
        return None

    def no_low(self, e: NoLowHand) -> str | None:
        return None

    # -- summary -------------------------------------------------------------------
    def summary(self, s: Summary) -> list[str]:
        h = self.hand
        out = ["---", "Summary:", *self.pot_lines(s), f"Rake taken: {self.money(s.rake)}"]
        won: dict[str, int] = {}
        for c in h.events:
            if isinstance(c, Collect):
                won[c.player] = won.get(c.player, 0) + c.amount
        results = {r.player: r for r in s.seats}
        shows = {e.player: e for e in h.events if isinstance(e, Show)}
        for seat in self.listed:
            out.append(self.result_line(seat, won.get(seat.player, 0), results, shows))
        out.append(f"***** End of hand {h.hand_id} *****")
        return out

    def pot_lines(self, s: Summary) -> list[str]:
        """ "Main pot: X won by P (Y), Q (Z)" and "Side pot N: ...": X before rake (the
        engine's pots when there are side pots), each winner's chips after it."""
        by_pot: dict[int, dict[str, int]] = {}
        for c in self.hand.events:
            if isinstance(c, Collect):
                i = (c.pot_index or 1) if c.pot is PotKind.SIDE else 0
                pot = by_pot.setdefault(i, {})
                pot[c.player] = pot.get(c.player, 0) + c.amount
        gross = {0: s.total_pot}
        if len(by_pot) > 1:
            from histkit.rules import replay

            gross = {p.index: p.amount for p in replay(self.hand).pots}
        out = []
        for i, winners in sorted(by_pot.items()):
            name = "Main pot" if i == 0 else f"Side pot {i}"
            won = ", ".join(f"{p} ({self.money(a)})" for p, a in winners.items())
            out.append(f"{name}: {self.money(gross.get(i, 0))} won by {won}")
        return out

    def result_line(
        self,
        seat: Seat,
        won: int,
        results: dict[str, SeatResult],
        shows: dict[str, Show],
    ) -> str:
        p = seat.player
        net = won - self.in_hand.get(p, 0)
        sign = "+" if net > 0 else "-" if net < 0 else ""
        line = (
            f"Seat {seat.seat}: {p} ({self.money(seat.stack + net)}), "
            f"net: {sign}{self.money(abs(net))}"
        )
        r = results.get(p)
        cards: tuple[Card, ...] = ()
        words: str | None = None
        if r is not None and r.outcome is SeatOutcome.SHOWED:
            cards, words = r.cards, r.description
        elif p in shows:
            cards, words = shows[p].cards, shows[p].description
        if cards:
            line += f", [{self.cards(cards)}]"
            if self.hand.site != "ongame":  # another site's words: OnGame's instead
                words = hand_words(self.hand.game, cards + self.board)
            line += f" ({words})" if words else ""
        return line


def write_hand(hand: Hand, *, newline: str = "\n") -> str:
    return OnGameWriter.write_hand(hand, newline=newline)


def write_hands(hands: Iterable[Hand], *, newline: str = "\n") -> str:
    return OnGameWriter.write_hands(hands, newline=newline)
