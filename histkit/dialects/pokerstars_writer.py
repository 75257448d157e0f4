"""PokerStars writer: `Hand` -> text, the other half of the PokerStars dialect.

Every line is written in a form the real PokerStars corpus uses (the 2009-2023 client
output): trailing blanks after "in chips)", "folds", "checks", "mucks hand" and the rake,
`Hand #` headers, a completion written as a raise. The writer prints exactly what the
`Hand` holds and invents nothing: opponents' unknown cards are simply not printed, and
lines the model does not keep (e.g. `*** SHOW DOWN ***`) are placed by the site's rule.
`PokerStarsWriter` overrides the shared `TextWriter` (`histkit.dialects.writer`) only where
PokerStars writes differently.
"""

from __future__ import annotations

from datetime import datetime

from histkit.dialects.writer import ET, TextWriter
from histkit.model import (
    Action,
    ActionKind,
    BettingCapped,
    DoubleBetAllowed,
    Game,
    NoteKind,
    SeatResult,
    Street,
    TableNote,
)

__all__ = ["write_hand", "write_hands", "format_amount", "GAME_NAMES", "PokerStarsWriter"]

GAME_NAMES: dict[Game, str] = {
    Game.STUD: "7 Card Stud Limit",
    Game.STUD_HILO: "7 Card Stud Hi/Lo Limit",
    Game.RAZZ: "Razz Limit",
}
_BLANK_NOTES = (NoteKind.JOIN, NoteKind.CONNECT, NoteKind.DISCONNECT)


class PokerStarsWriter(TextWriter):
    """PokerStars' words where they differ from the shared forms."""

    game_names = GAME_NAMES
    street_headers = {**TextWriter.street_headers, Street.SEVENTH: "*** RIVER ***"}
    fold_streets = {**TextWriter.fold_streets, Street.SEVENTH: "the River"}
    didnt_bet = " (didn't bet)"
    zone = ET
    seat_form = "Seat {seat}: {player} ({stack} in chips)"
    seated = " "
    actor = ": "
    action_words = {
        **TextWriter.action_words,
        ActionKind.ANTE: "posts the ante {}",
        ActionKind.BRING_IN: "brings in for {}",
        ActionKind.CHECK: "checks ",
        ActionKind.FOLD: "folds ",
    }
    muck_words = "mucks hand "
    declined_words = "doesn't show hand "
    total_form = TextWriter.total_form + " "
    blank_lines = 3

    def header(self) -> str:
        h = self.hand
        game = self.game_names[h.game]
        when = self.date_text()
        site = "PokerStars"  # the model's site is the dialect's id ("pokerstars")
        if h.is_tournament:
            if h.mix:
                game = f"{h.mix} ({game})"
            buy_in = f"{h.buy_in} " if h.buy_in else ""
            level = f"Level {h.level} " if h.level else ""
            return (
                f"{site} Hand #{h.hand_id}: Tournament #{h.tournament_id}, "
                f"{buy_in}{game} - {level}({self.stakes()}) - {when}"
            )
        stakes = self.stakes()
        if h.currency:
            stakes += f" {h.currency}"
        body = f"{h.mix} ({game}, {stakes})" if h.mix else f"{game} ({stakes})"
        return f"{site} Hand #{h.hand_id}:  {body} - {when}"

    def clock(self, t: datetime) -> str:
        return f"{t:%Y/%m/%d} {t.hour}:{t:%M:%S} ET"

    def table(self) -> str:
        h = self.hand
        max_seats = f" {h.max_seats}-max" if h.max_seats else ""
        return f"Table '{h.table}'{max_seats}"

    def wager(self, a: Action) -> str:
        # PokerStars has no "completes": a completion over a bring-in is a raise, a
        # completion with nothing in front of it is a bet.
        m = self.money
        if a.to_amount is None or (a.kind is ActionKind.COMPLETE and a.to_amount == a.amount):
            return f"bets {m(a.amount)}"
        return f"raises {m(a.amount)} to {m(a.to_amount)}"

    def note(self, e: TableNote) -> str:
        if e.kind is NoteKind.CHAT:  # the model keeps the message only
            return f'{e.player} said, "{e.text}"'
        # other notes keep the whole line; these three end in a blank at the site
        return e.text.rstrip() + " " if e.kind in _BLANK_NOTES else e.text

    def capped(self, e: BettingCapped) -> str:
        return "Betting is capped"

    def double_bet(self, e: DoubleBetAllowed) -> str:
        return "Pair on board - a double bet is allowed"

    def side_pot_name(self, index: int, count: int) -> str:
        """A lone side pot is "side pot", else "side pot-2"."""
        return "side pot" if index == 0 or count <= 1 else f"side pot-{index}"

    def result_mucked(self, r: SeatResult) -> str:
        return f" mucked [{self.cards(r.cards)}]"

    def result_other(self, r: SeatResult) -> str:
        return f" {r.description}" if r.description else ""


format_amount = PokerStarsWriter.format_amount
write_hand = PokerStarsWriter.write_hand
write_hands = PokerStarsWriter.write_hands
