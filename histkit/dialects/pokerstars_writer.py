"""PokerStars writer: `Hand` -> text, the other half of the PokerStars dialect.

Every line is written in a form the real PokerStars corpus uses (the 2009-2023 client
output): trailing blanks after "in chips)", "folds", "checks", "mucks hand" and the rake,
`Hand #` headers, a completion written as a raise. The writer prints exactly what the
`Hand` holds and invents nothing: opponents' unknown cards are simply not printed, and
lines the model does not keep (e.g. `*** SHOW DOWN ***`) are placed by the site's rule.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from zoneinfo import ZoneInfo

from histkit.cards import Card
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

__all__ = ["write_hand", "write_hands", "format_amount", "GAME_NAMES"]

GAME_NAMES: dict[Game, str] = {
    Game.STUD: "7 Card Stud Limit",
    Game.STUD_HILO: "7 Card Stud Hi/Lo Limit",
    Game.RAZZ: "Razz Limit",
}
_CURRENCY_SYMBOLS = {"USD": "$", "EUR": "\u20ac", "GBP": "\u00a3", "CAD": "$", "AUD": "$"}
_STREET_HEADERS = {
    Street.THIRD: "*** 3rd STREET ***",
    Street.FOURTH: "*** 4th STREET ***",
    Street.FIFTH: "*** 5th STREET ***",
    Street.SIXTH: "*** 6th STREET ***",
    Street.SEVENTH: "*** RIVER ***",
}
_STREET_NAMES = {
    Street.THIRD: "3rd Street",
    Street.FOURTH: "4th Street",
    Street.FIFTH: "5th Street",
    Street.SIXTH: "6th Street",
    Street.SEVENTH: "River",
}
_ET = ZoneInfo("America/New_York")
_BLANK_NOTES = (NoteKind.JOIN, NoteKind.CONNECT, NoteKind.DISCONNECT)


def format_amount(amount: int, unit: Unit, currency: str | None) -> str:
    """ "$0.04", "$1" (whole units lose the decimals, as PokerStars writes), or "400" chips."""
    if unit is Unit.CHIP:
        return str(amount)
    symbol = _CURRENCY_SYMBOLS.get(currency or "USD", "$")
    sign = "-" if amount < 0 else ""
    whole, cents = divmod(abs(amount), 100)
    return f"{sign}{symbol}{whole}" if cents == 0 else f"{sign}{symbol}{whole}.{cents:02d}"


def _cards(cards: Iterable[Card | None]) -> str:
    return " ".join(str(c) for c in cards if c is not None)


class _Writer:
    """Holds the hand being written so each line helper stays a one-liner."""

    def __init__(self, hand: Hand) -> None:
        self.hand = hand
        self.lines: list[str] = []
        self.n_side_pots = self._count_side_pots(hand)

    @staticmethod
    def _count_side_pots(hand: Hand) -> int:
        n = len(hand.summary.side_pots) if hand.summary else 0
        for e in hand.events:
            if isinstance(e, Collect) and e.pot is PotKind.SIDE:
                n = max(n, e.pot_index)
        return n

    def money(self, amount: int) -> str:
        return format_amount(amount, self.hand.unit, self.hand.currency)

    # ------------------------------------------------------------------ header
    def header(self) -> str:
        h = self.hand
        game = GAME_NAMES[h.game]
        when = self.date_text()
        site = "PokerStars"  # the model's site is the dialect's id ("pokerstars")
        if h.is_tournament:
            if h.mix:
                game = f"{h.mix} ({game})"
            buy_in = f"{h.buy_in} " if h.buy_in else ""
            level = f"Level {h.level} " if h.level else ""
            stakes = f"({self.money(h.small_bet)}/{self.money(h.big_bet)})"
            return (
                f"{site} Hand #{h.hand_id}: Tournament #{h.tournament_id}, "
                f"{buy_in}{game} - {level}{stakes} - {when}"
            )
        stakes = f"{self.money(h.small_bet)}/{self.money(h.big_bet)}"
        if h.currency:
            stakes += f" {h.currency}"
        body = f"{h.mix} ({game}, {stakes})" if h.mix else f"{game} ({stakes})"
        return f"{site} Hand #{h.hand_id}:  {body} - {when}"

    def date_text(self) -> str:
        """The header's own date text when known, else the start time in ET."""
        h = self.hand
        if h.local_time:
            return h.local_time
        if h.started_at is None:
            raise ValueError(f"hand {h.hand_id}: neither local_time nor started_at is set")
        et = h.started_at.astimezone(_ET)
        return _et_text(et)

    def table(self) -> str:
        h = self.hand
        max_seats = f" {h.max_seats}-max" if h.max_seats else ""
        return f"Table '{h.table}'{max_seats}"

    # ------------------------------------------------------------------ events
    def event(self, e: Event) -> str | None:
        if isinstance(e, Action):
            return self.action(e)
        if isinstance(e, StreetStart):
            head = _STREET_HEADERS[e.street]
            return f"{head} [{e.community}]" if e.community is not None else head
        if isinstance(e, Deal):
            new = _cards(e.cards)
            if not new:
                return None  # the site writes no line for a card nobody saw
            if e.before:
                return f"Dealt to {e.player} [{_cards(e.before)}] [{new}]"
            return f"Dealt to {e.player} [{new}]"
        if isinstance(e, BettingCapped):
            return "Betting is capped"
        if isinstance(e, DoubleBetAllowed):
            return "Pair on board - a double bet is allowed"
        if isinstance(e, UncalledBet):
            return f"Uncalled bet ({self.money(e.amount)}) returned to {e.player}"
        if isinstance(e, Show):
            desc = f" ({e.description})" if e.description else ""
            return f"{e.player}: shows [{_cards(e.cards)}]{desc}"
        if isinstance(e, Muck):
            return f"{e.player}: doesn't show hand " if e.declined else f"{e.player}: mucks hand "
        if isinstance(e, Collect):
            return f"{e.player} collected {self.money(e.amount)} from {self.pot_name(e)}"
        if isinstance(e, NoLowHand):
            return "No low hand qualified"
        if isinstance(e, TableNote):
            if e.kind is NoteKind.CHAT:  # the model keeps the message only
                return f'{e.player} said, "{e.text}"'
            # other notes keep the whole line; these three end in a blank at the site
            return e.text.rstrip() + " " if e.kind in _BLANK_NOTES else e.text
        raise TypeError(f"cannot write event {e!r}")

    def pot_name(self, e: Collect) -> str:
        if e.pot is PotKind.POT:
            return "pot"
        if e.pot is PotKind.MAIN:
            return "main pot"
        if e.pot_index == 0 or self.n_side_pots <= 1:
            return "side pot"
        return f"side pot-{e.pot_index}"

    def action(self, a: Action) -> str:
        m = self.money
        k = a.kind
        if k is ActionKind.ANTE:
            text = f"posts the ante {m(a.amount)}"
        elif k is ActionKind.BRING_IN:
            text = f"brings in for {m(a.amount)}"
        elif k is ActionKind.BET:
            text = f"bets {m(a.amount)}"
        elif k in (ActionKind.RAISE, ActionKind.COMPLETE):
            # PokerStars has no "completes": a completion over a bring-in is a raise, a
            # completion with nothing in front of it is a bet.
            if a.to_amount is None or (k is ActionKind.COMPLETE and a.to_amount == a.amount):
                text = f"bets {m(a.amount)}"
            else:
                text = f"raises {m(a.amount)} to {m(a.to_amount)}"
        elif k is ActionKind.CALL:
            text = f"calls {m(a.amount)}"
        elif k is ActionKind.CHECK:
            return f"{a.player}: checks "
        elif k is ActionKind.FOLD:
            return f"{a.player}: folds "
        else:  # pragma: no cover - exhaustive over ActionKind
            raise ValueError(f"unknown action kind {k}")
        if a.all_in:
            text += " and is all-in"
        return f"{a.player}: {text}"

    # ----------------------------------------------------------------- summary
    def summary(self, s: Summary) -> list[str]:
        m = self.money
        pots = ""
        if s.main_pot is not None:
            pots = f" Main pot {m(s.main_pot)}."
            if len(s.side_pots) == 1:
                pots += f" Side pot {m(s.side_pots[0])}."
            else:
                pots += "".join(f" Side pot-{i} {m(x)}." for i, x in enumerate(s.side_pots, 1))
        out = ["*** SUMMARY ***", f"Total pot {m(s.total_pot)}{pots} | Rake {m(s.rake)} "]
        if s.board:
            out.append(f"Board [{_cards(s.board)}]")
        out.extend(self.seat_result(r) for r in s.seats)
        return out

    def seat_result(self, r: SeatResult) -> str:
        head = f"Seat {r.seat}: {r.player}"
        o = r.outcome
        if o is SeatOutcome.FOLDED:
            street = _STREET_NAMES[r.folded_street or Street.THIRD]
            return f"{head} folded on the {street}" + (" (didn't bet)" if r.didnt_bet else "")
        if o is SeatOutcome.SHOWED:
            desc = f" with {r.description}" if r.description else ""
            if r.won:
                return f"{head} showed [{_cards(r.cards)}] and won ({self.money(r.won)}){desc}"
            return f"{head} showed [{_cards(r.cards)}] and lost{desc}"
        if o is SeatOutcome.MUCKED:
            return f"{head} mucked [{_cards(r.cards)}]"
        if o is SeatOutcome.COLLECTED:
            return f"{head} collected ({self.money(r.won)})"
        return head + (f" {r.description}" if r.description else "")

    # -------------------------------------------------------------------- hand
    def write(self) -> list[str]:
        h = self.hand
        lines = [self.header(), self.table()]
        for s in h.seats:
            tail = " is sitting out" if s.sitting_out else " "
            lines.append(f"Seat {s.seat}: {s.player} ({self.money(s.stack)} in chips){tail}")
        collected = False
        showdown = False
        for e in h.events:
            # `*** SHOW DOWN ***` is not an event of the model: the site prints it before
            # the first show or muck that comes before any pot is collected.
            if (
                not showdown
                and not collected
                and isinstance(e, Show | Muck)
                and not (isinstance(e, Muck) and e.declined)
            ):
                lines.append("*** SHOW DOWN ***")
                showdown = True
            if isinstance(e, Collect):
                collected = True
            line = self.event(e)
            if line is not None:
                lines.append(line)
        if h.summary is not None:
            lines.extend(self.summary(h.summary))
        return lines


def _et_text(t: datetime) -> str:
    return f"{t:%Y/%m/%d} {t.hour}:{t:%M:%S} ET"


def write_hand(hand: Hand, *, newline: str = "\n") -> str:
    """One hand as PokerStars writes it, without the blank lines that follow it."""
    return newline.join(_Writer(hand).write())


def write_hands(hands: Iterable[Hand], *, newline: str = "\n") -> str:
    """Hands one after the other, each followed by three empty lines, like the client
    (the raw client writes CRLF: pass newline="\\r\\n" for byte-identical endings)."""
    end = newline * 4
    return "".join(write_hand(h, newline=newline) + end for h in hands)
