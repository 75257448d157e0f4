"""The base writer: what the site writers share, and nothing that is one site's alone.

A writer turns a `Hand` into a site's hand-history text. `TextWriter` holds one hand being
written and the shape every site's text has: the header lines, one line per seat, one line
(or none) per event with the lines the model does not keep placed around them (the
showdown line), the summary block and its seat lines, and the blank lines between hands.
Its tables and methods hold the forms two or more sites write alike: money (symbol before
or after, thousands separators, whole units with or without ".00"), card lists, the header
date (the hand's own date text when it is in the site's form, else the start converted to
the site's zone), "Dealt to P [..] [..]", "Uncalled bet (X) returned to P", "P collected X
from pot", "*** SUMMARY ***", "Total pot X Main pot Y. Side pot Z. | Rake R" and the seat
results ("folded on the 4th Street", "showed [..] and won (X) with ..."). A site's writer
inherits from its nearest relative and overrides only the tables and methods it writes
differently (sqlglot's dialect Generators are the model).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime, tzinfo
from typing import ClassVar
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

__all__ = ["ET", "TextWriter"]

ET = ZoneInfo("America/New_York")


class TextWriter:
    """One hand being written. Each event method gives the event's line, or None where the
    site writes none; `before` and `after` add the lines the model does not keep."""

    game_names: ClassVar[Mapping[Game, str]] = {}
    street_headers: ClassVar[Mapping[Street, str]] = {
        s: f"*** {int(s)}{'rd' if s == 3 else 'th'} STREET ***" for s in Street
    }
    # the summary's "folded on <street>", and what follows when the player put nothing in
    fold_streets: ClassVar[Mapping[Street, str]] = {
        s: f"the {int(s)}{'rd' if s == 3 else 'th'} Street" for s in Street
    }
    didnt_bet: ClassVar[str] = ""
    # money: the currency's symbol (`symbol` for one not listed; no currency counts as USD)
    symbols: ClassVar[Mapping[str, str]] = {
        "USD": "$",
        "EUR": "\u20ac",
        "GBP": "\u00a3",
        "CAD": "$",
        "AUD": "$",
    }
    symbol: ClassVar[str] = "$"
    symbol_after: ClassVar[bool] = False  # "5€", not "€5"
    thousands: ClassVar[bool] = False  # "12,245" (chips too)
    cents_always: ClassVar[bool] = False  # "$1.00", not "$1"
    # False: a negative amount is floored, not signed ("$-1.95" for -5 cents), as the WPN
    # writers have always written it
    signed: ClassVar[bool] = True
    hidden_card: ClassVar[str | None] = None  # the token for a card nobody saw (None: left out)
    # the header's own date text is kept when it matches `own_date` (None: any text), else
    # the start is converted to `zone`; `start_first`: the start wins when both are known
    own_date: ClassVar[re.Pattern[str] | None] = None
    zone: ClassVar[tzinfo] = UTC
    start_first: ClassVar[bool] = False
    no_date: ClassVar[str] = "neither local_time nor started_at is set"
    seat_form: ClassVar[str] = "Seat {seat}: {player} ({stack})"
    sitting_out: ClassVar[str] = " is sitting out"
    seated: ClassVar[str] = ""
    actor: ClassVar[str] = " "  # between a player and what they do ("P: bets" has ": ")
    # the action's words around its amount; raises and completions are `wager`'s
    action_words: ClassVar[Mapping[ActionKind, str]] = {
        ActionKind.ANTE: "posts ante {}",
        ActionKind.BRING_IN: "brings in {}",
        ActionKind.BET: "bets {}",
        ActionKind.CALL: "calls {}",
        ActionKind.CHECK: "checks",
        ActionKind.FOLD: "folds",
    }
    wager_kinds: ClassVar[frozenset[ActionKind]] = frozenset(
        {ActionKind.RAISE, ActionKind.COMPLETE}
    )
    all_in: ClassVar[str] = " and is all-in"
    no_all_in: ClassVar[frozenset[ActionKind]] = frozenset({ActionKind.CHECK, ActionKind.FOLD})
    uncalled_form: ClassVar[str] = "Uncalled bet ({amount}) returned to {player}"
    muck_words: ClassVar[str] = "mucks"
    declined_words: ClassVar[str | None] = "does not show"  # None: no line
    total_form: ClassVar[str] = "Total pot {total}{pots} | Rake {rake}"
    board_form: ClassVar[str] = "Board [{}]"
    blank_lines: ClassVar[int] = 2  # after each hand

    def __init__(self, hand: Hand) -> None:
        self.hand = hand
        self.lines: list[str] = []
        self.street = Street.THIRD
        self.street_in: dict[str, int] = {}  # what each player has put in on this street
        self.wagers = 0  # bets, completions and raises on this street
        self.showdown = False  # the showdown line is written (or not to be)
        self.collected = False  # a pot has been collected
        self.n_side_pots = max(
            [len(hand.summary.side_pots) if hand.summary else 0]
            + [e.pot_index for e in hand.events if isinstance(e, Collect) and e.pot is PotKind.SIDE]
        )

    # -------------------------------------------------------------------- writing
    @classmethod
    def write_hand(cls, hand: Hand, *, newline: str = "\n") -> str:
        """One hand as the site writes it, without the blank lines that follow it."""
        return newline.join(cls(hand).write())

    @classmethod
    def write_hands(cls, hands: Iterable[Hand], *, newline: str = "\n") -> str:
        """Hands one after the other, each followed by the site's blank lines (the clients
        write CRLF: pass newline="\\r\\n" for byte-identical line ends)."""
        end = newline * (cls.blank_lines + 1)
        return "".join(cls.write_hand(h, newline=newline) + end for h in hands)

    def write(self) -> list[str]:
        h = self.hand
        self.lines = [*self.head(), *(self.seat_line(s) for s in h.seats)]
        self.body()
        if h.summary is not None:
            self.lines.extend(self.summary(h.summary))
        return self.lines

    def body(self) -> None:
        for i, e in enumerate(self.hand.events):
            self.before(i, e)
            self.emit(self.event(e))
            self.after(i, e)

    def emit(self, line: str | None) -> None:
        if line is not None:
            self.lines.append(line)

    def before(self, i: int, e: Event) -> None:
        """Lines the model does not keep, placed before event `i`: the showdown line."""
        if not self.showdown and self.opens_showdown(i, e):
            self.lines.extend(self.showdown_lines())
            self.showdown = True
        if isinstance(e, Collect):
            self.collected = True

    def opens_showdown(self, i: int, e: Event) -> bool:
        """The first show or muck that comes before any pot is collected."""
        return (
            not self.collected
            and isinstance(e, Show | Muck)
            and not (isinstance(e, Muck) and e.declined)
        )

    def showdown_lines(self) -> list[str]:
        return ["*** SHOW DOWN ***"]

    def after(self, i: int, e: Event) -> None:
        """Lines the model does not keep, placed after event `i` (none by default)."""

    # ------------------------------------------------------------------ pieces
    @classmethod
    def format_amount(cls, amount: int, unit: Unit, currency: str | None) -> str:
        """An amount in the hand's unit, as the site writes it ("$0.04", "5€", "12,245")."""
        if unit is Unit.CHIP:
            return f"{amount:,}" if cls.thousands else str(amount)
        symbol = cls.symbols.get(currency or "USD", cls.symbol)
        sign = "-" if amount < 0 and cls.signed else ""
        whole, cents = divmod(abs(amount) if cls.signed else amount, 100)
        number = f"{whole:,}" if cls.thousands else str(whole)
        if cents or cls.cents_always:
            number += f".{cents:02d}"
        return f"{sign}{number}{symbol}" if cls.symbol_after else f"{sign}{symbol}{number}"

    def money(self, amount: int) -> str:
        return self.format_amount(amount, self.hand.unit, self.hand.currency)

    def cards(self, cards: Iterable[Card | None]) -> str:
        if self.hidden_card is None:
            return " ".join(str(c) for c in cards if c is not None)
        return " ".join(self.hidden_card if c is None else str(c) for c in cards)

    def shown_cards(self, cards: tuple[Card, ...]) -> str:
        """A shown hand's cards, in the order the site lists them."""
        return self.cards(cards)

    def stakes(self) -> str:
        return f"{self.money(self.hand.small_bet)}/{self.money(self.hand.big_bet)}"

    def ante(self, *, full: bool = False) -> int | None:
        """The header's ante: the hand's own, else the largest posted (`full`: leaving out
        all-in antes, which may be short)."""
        h = self.hand
        if h.ante is not None:
            return h.ante
        antes = [
            a.amount for a in h.actions() if a.kind is ActionKind.ANTE and not (full and a.all_in)
        ]
        return max(antes) if antes else None

    def date_text(self) -> str:
        """The header's own date text when it is in the site's form, else the start in the
        site's zone."""
        h = self.hand
        own = h.local_time
        if own and self.own_date is not None and not self.own_date.match(own):
            own = None
        if own and not self.start_first:
            return own
        if h.started_at is not None:
            return self.clock(h.started_at.astimezone(self.zone))
        if own:
            return own
        raise ValueError(f"hand {h.hand_id}: {self.no_date}")

    def clock(self, t: datetime) -> str:
        """The start (already in the site's zone) as the header writes it."""
        return f"{t:%Y/%m/%d %H:%M:%S} UTC"

    # ----------------------------------------------------------------- opening
    def head(self) -> list[str]:
        return [self.header(), self.table()]

    def header(self) -> str:
        raise NotImplementedError

    def table(self) -> str:
        raise NotImplementedError

    def seat_line(self, s: Seat) -> str:
        line = self.seat_form.format(seat=s.seat, player=s.player, stack=self.money(s.stack))
        return line + (self.sitting_out if s.sitting_out else self.seated)

    # ------------------------------------------------------------------ events
    def event(self, e: Event) -> str | None:
        if isinstance(e, Action):
            return self.action(e)
        if isinstance(e, StreetStart):
            return self.street_start(e)
        if isinstance(e, Deal):
            return self.deal(e)
        if isinstance(e, UncalledBet):
            return self.uncalled(e)
        if isinstance(e, Show):
            return self.show(e)
        if isinstance(e, Muck):
            return self.muck(e)
        if isinstance(e, Collect):
            return self.collect(e)
        if isinstance(e, NoLowHand):
            return self.no_low(e)
        if isinstance(e, TableNote):
            return self.note(e)
        if isinstance(e, BettingCapped):
            return self.capped(e)
        if isinstance(e, DoubleBetAllowed):
            return self.double_bet(e)
        raise TypeError(f"cannot write event {e!r}")

    def action(self, a: Action) -> str:
        k = a.kind
        if k in self.wager_kinds:
            text = self.wager(a)
        else:
            text = self.action_words[k].format(self.money(a.amount))
        if a.all_in and k not in self.no_all_in:
            text += self.all_in
        return f"{a.player}{self.actor}{text}"

    def wager(self, a: Action) -> str:
        """A raise or completion: each site words them from what it tracks."""
        raise NotImplementedError

    def street_start(self, e: StreetStart) -> str | None:
        self.street, self.street_in, self.wagers = e.street, {}, 0
        head = self.street_headers[e.street]
        return f"{head} [{e.community}]" if e.community is not None else head

    def deal(self, e: Deal) -> str | None:
        new = self.cards(e.cards)
        if not new:
            return None  # the site writes no line for a card nobody saw
        before = f"[{self.cards(e.before)}] " if e.before else ""
        return f"Dealt to {e.player} {before}[{new}]"

    def uncalled(self, e: UncalledBet) -> str | None:
        return self.uncalled_form.format(amount=self.money(e.amount), player=e.player)

    def show(self, e: Show) -> str | None:
        return f"{e.player}{self.actor}shows [{self.shown_cards(e.cards)}]{self.show_words(e)}"

    def show_words(self, e: Show) -> str:
        return f" ({e.description})" if e.description else ""

    def muck(self, e: Muck) -> str | None:
        words = self.declined_words if e.declined else self.muck_words
        return None if words is None else f"{e.player}{self.actor}{words}"

    def collect(self, e: Collect) -> str | None:
        return self.collect_line(e)

    def collect_line(self, e: Collect) -> str:
        return f"{e.player} collected {self.money(e.amount)} from {self.pot_name(e)}"

    def pot_name(self, e: Collect) -> str:
        if e.pot is PotKind.POT:
            return "pot"
        if e.pot is PotKind.MAIN:
            return "main pot"
        return self.side_pot_name(e.pot_index, self.n_side_pots)

    def side_pot_name(self, index: int, count: int) -> str:
        """Side pot `index` of `count` ("side pot 2"); the summary capitalises it."""
        return f"side pot {index or 1}"

    def no_low(self, e: NoLowHand) -> str | None:
        return "No low hand qualified"

    def note(self, e: TableNote) -> str | None:
        return None

    def capped(self, e: BettingCapped) -> str | None:
        return None

    def double_bet(self, e: DoubleBetAllowed) -> str | None:
        return None

    # ----------------------------------------------------------------- summary
    def summary(self, s: Summary) -> list[str]:
        out = ["*** SUMMARY ***", self.total_line(s)]
        if s.board:
            out.append(self.board_form.format(self.cards(s.board)))
        out.extend(self.seat_result(r) for r in s.seats)
        return out

    def total_line(self, s: Summary) -> str:
        m = self.money
        return self.total_form.format(total=m(s.total_pot), pots=self.pots(s), rake=m(s.rake))

    def pots(self, s: Summary) -> str:
        """' Main pot X. Side pot Y.' when the hand had side pots."""
        if s.main_pot is None:
            return ""
        n = len(s.side_pots)
        sides = "".join(
            f" {self.side_pot_name(i, n).capitalize()} {self.money(x)}."
            for i, x in enumerate(s.side_pots, 1)
        )
        return f" Main pot {self.money(s.main_pot)}.{sides}"

    def seat_result(self, r: SeatResult) -> str:
        head = f"Seat {r.seat}: {r.player}"
        o = r.outcome
        if o is SeatOutcome.FOLDED:
            street = self.fold_streets[r.folded_street or Street.THIRD]
            return f"{head} folded on {street}" + (self.didnt_bet if r.didnt_bet else "")
        if o is SeatOutcome.SHOWED:
            return head + self.result_showed(r)
        if o is SeatOutcome.MUCKED:
            return head + self.result_mucked(r)
        if o is SeatOutcome.COLLECTED:
            return head + self.result_collected(r)
        return head + self.result_other(r)

    def described(self, r: SeatResult) -> str | None:
        """The words a seat line gives for the player's hand."""
        return r.description

    def result_showed(self, r: SeatResult) -> str:
        desc = self.described(r)
        won = f"won ({self.money(r.won)})" if r.won else "lost"
        return f" showed [{self.shown_cards(r.cards)}] and {won}" + (
            f" with {desc}" if desc else ""
        )

    def result_mucked(self, r: SeatResult) -> str:
        return " mucked" + (f" [{self.shown_cards(r.cards)}]" if r.cards else "")

    def result_collected(self, r: SeatResult) -> str:
        return f" collected ({self.money(r.won)})"

    def result_other(self, r: SeatResult) -> str:
        return " is sitting out"
