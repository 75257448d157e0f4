"""Winning Poker Network writers: a `Hand` as the site's two clients write it.

`write_hand` / `write_hands` write the 2019+ client's text (grammars/wpn.lark);
`write_hand_2016` / `write_hands_2016` the old client's (grammars/wpn_2016.lark), as plain
lines (the client's UTF-16 encoding and FPDB's doubled line ends are the caller's business).

Every line has a form a real file shows, except where said. Choices the text forces:
- 2019+: a raise is "raises X to Y" with X what the raise adds (the real completion over a
  $0.02 bring-in is "raises $0.04 to $0.04"); a completion with nothing in front is a bet.
  Each street header is followed by the running pot "Main pot X | Rake Y": the model keeps
  no running rake, so every street shows "Rake $0.00" except the last one dealt, which
  shows the hand's rake (as the real file does) and the pot less it; side pots are not
  split there (the dialect reads nothing from these lines). The showdown gets the same
  line (with the JP fee when there is one) and "collected ... from main pot/side pot N"
  lines; an uncontested pot gets none (the real file: "X does not show", then the summary's
  "did not show and won"). Shows and summary lines carry no hand description: the site's
  words for stud hands are not known from any real file.
- 2016: the hand's time is written in US Eastern time (the client wrote no zone; the
  dialect assumes the same). "raises (X)", "calls (X)" and "allin (X)" give what the action
  adds; an all-in wager is written "allin". Shows appear only in the summary ("shows: <words>
  [cards]"), mucks as "mucks cards" in the body; there are no collect lines (the summary's
  "Collects:"). Hand words are `describe_2016`'s: "Two pairs. Qs and 7s" is the real form,
  the others follow its pattern. No end time is kept, so "Game ended at:" is not written.
- Lines the site does not print are not written: "Pair on board", "Betting is capped",
  table notes (no real file shows WPN's forms), the 2016 client's "No low hand qualified".
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from histkit.cards import Card
from histkit.dialects.writer import ET, TextWriter
from histkit.evaluate._tables import CAT_SHIFT, HandCategory, unpack
from histkit.evaluate.names import low8_name, low_name
from histkit.evaluate.scalar import high_value
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
    SeatOutcome,
    SeatResult,
    Show,
    Street,
    StreetStart,
    Summary,
    UncalledBet,
    Unit,
)

__all__ = [
    "GAME_NAMES",
    "GAME_NAMES_2016",
    "Wpn2016Writer",
    "WpnWriter",
    "describe_2016",
    "write_hand",
    "write_hand_2016",
    "write_hands",
    "write_hands_2016",
]

GAME_NAMES: dict[Game, str] = {
    Game.STUD: "7Stud",
    Game.STUD_HILO: "7Stud HiLow",
    Game.RAZZ: "Razz",
}
GAME_NAMES_2016: dict[Game, str] = {
    Game.STUD: "Seven Cards Stud",
    Game.STUD_HILO: "Seven Cards Stud HiLow",
    Game.RAZZ: "Razz",
}
_STREET_HEADERS_2016 = {
    Street.FOURTH: "*** Third street ***",
    Street.FIFTH: "*** Fourth street ***",
    Street.SIXTH: "*** Fifth street ***",
    Street.SEVENTH: "*** Sixth street ***",
}
_ADDS = (ActionKind.ANTE, ActionKind.BRING_IN, ActionKind.BET, ActionKind.CALL)


class _Chips:
    """What each player has put in so far, on this street and in the hand: the text gives
    what an action adds, the model the street total it reaches."""

    def __init__(self) -> None:
        self.street: dict[str, int] = {}
        self.hand: dict[str, int] = {}

    def new_street(self) -> None:
        self.street = {}

    def added(self, a: Action) -> int:
        """What `a` adds to the pot (and books it)."""
        before = self.street.get(a.player, 0)
        if a.kind in _ADDS:
            add = a.amount
            if a.kind is not ActionKind.ANTE:
                self.street[a.player] = before + add
        elif a.kind in (ActionKind.RAISE, ActionKind.COMPLETE):
            to = a.to_amount if a.to_amount is not None else before + a.amount
            add = to - before
            self.street[a.player] = to
        else:
            add = 0
        self.hand[a.player] = self.hand.get(a.player, 0) + add
        return add

    def returned(self, u: UncalledBet) -> None:
        self.street[u.player] = self.street.get(u.player, 0) - u.amount
        self.hand[u.player] = self.hand.get(u.player, 0) - u.amount

    @property
    def pot(self) -> int:
        return sum(self.hand.values())

    def others_in(self, player: str) -> bool:
        """Whether someone else has chips in on this street (a bring-in): then a completion
        is a raise, else a bet."""
        return any(v for p, v in self.street.items() if p != player)


# ------------------------------------------------------------------------------ 2019+


class WpnWriter(TextWriter):
    """The 2019+ client. Its text is PokerStars-like, but in the forms the base holds
    (no "P:" colon, no trailing blanks, no hand words), so it inherits from `TextWriter`;
    it adds the running pot after each street header and at the showdown."""

    game_names = GAME_NAMES
    didnt_bet = " and did not bet"
    symbols = {}  # "$" whatever the currency
    cents_always = True
    signed = False
    start_first = True
    no_date = "neither started_at nor local_time is set"

    def __init__(self, hand: Hand) -> None:
        super().__init__(hand)
        self.chips = _Chips()
        s = hand.summary
        self.rake = s.rake if s is not None else 0
        self.fee = s.fee if s is not None else 0
        self.last_street = max(
            (e.street for e in hand.events if isinstance(e, StreetStart)), default=None
        )
        self.shown = any(isinstance(e, Show) for e in hand.events)

    def header(self) -> str:
        h = self.hand
        game = f"{self.game_names[h.game]}(Fixed Limit)"
        when = self.date_text()
        if h.is_tournament:
            level = f"Level {h.level} " if h.level else ""
            return (
                f"Game Hand #{h.hand_id} - Tournament #{h.tournament_id} - {game} - "
                f"{level}({self.stakes()})- {when}"
            )
        return f"Hand #{h.hand_id} - {game} - {self.stakes()} - {when}"

    def table(self) -> str:
        h = self.hand
        return f"{h.table} {h.max_seats}-max" if h.max_seats else h.table

    def pot_line(self, rake: int, fee: int = 0) -> str:
        text = f"Main pot {self.money(self.chips.pot - rake - fee)} | Rake {self.money(rake)}"
        return text + (f" | JP Fee {self.money(fee)}" if fee else "")

    def opens_showdown(self, i: int, e: Event) -> bool:
        """Before the first show, muck, collect or no-low line, when anyone shows."""
        return (
            self.shown
            and isinstance(e, Show | Muck | Collect | NoLowHand)
            and not (isinstance(e, Muck) and e.declined)
        )

    def showdown_lines(self) -> list[str]:
        return [*super().showdown_lines(), self.pot_line(self.rake, self.fee)]

    def after(self, i: int, e: Event) -> None:
        """The running pot after each street header: no running rake is kept, so only the
        last street dealt shows the hand's rake."""
        if isinstance(e, StreetStart):
            self.lines.append(self.pot_line(self.rake if e.street == self.last_street else 0))

    def street_start(self, e: StreetStart) -> str | None:
        self.chips.new_street()
        return super().street_start(e)

    def action(self, a: Action) -> str:
        if a.kind not in self.wager_kinds:
            self.chips.added(a)
        return super().action(a)

    def wager(self, a: Action) -> str:
        """ "raises X to Y" with X what the raise adds; a completion with nothing in front
        is a bet."""
        before = self.chips.street.get(a.player, 0)
        add = self.chips.added(a)
        to = before + add
        if a.kind is ActionKind.COMPLETE and not self.chips.others_in(a.player):
            return f"bets {self.money(to)}"
        return f"raises {self.money(add)} to {self.money(to)}"

    def uncalled(self, e: UncalledBet) -> str | None:
        self.chips.returned(e)
        return super().uncalled(e)

    def show_words(self, e: Show) -> str:
        return ""  # the site's words for stud hands are not known from any real file

    def collect(self, e: Collect) -> str | None:
        return super().collect(e) if self.shown else None  # an uncontested pot: no line

    def total_line(self, s: Summary) -> str:
        m = self.money
        total = m(s.total_pot - s.rake - s.fee)
        line = self.total_form.format(total=total, pots=self.pots(s), rake=m(s.rake))
        return line + (f" | JP Fee {m(s.fee)}" if s.fee else "")

    def result_showed(self, r: SeatResult) -> str:
        won = f"won {self.money(r.won)}" if r.won else "lost"
        return f" showed [{self.cards(r.cards)}] and {won}"

    def result_collected(self, r: SeatResult) -> str:
        return f" did not show and won {self.money(r.won)}"


write_hand = WpnWriter.write_hand
write_hands = WpnWriter.write_hands


# ------------------------------------------------------------------------------- 2016

_CHAR = {14: "A", 13: "K", 12: "Q", 11: "J", 10: "10"} | {r: str(r) for r in range(2, 10)}
_HIGH_WORDS = {
    HandCategory.HIGH_CARD: "High card",
    HandCategory.PAIR: "One pair",
    HandCategory.TWO_PAIR: "Two pairs",
    HandCategory.THREE_OF_A_KIND: "Three of a kind",
    HandCategory.STRAIGHT: "Straight",
    HandCategory.FLUSH: "Flush",
    HandCategory.FULL_HOUSE: "Full house",
    HandCategory.FOUR_OF_A_KIND: "Four of a kind",
    HandCategory.STRAIGHT_FLUSH: "Straight flush",
}


def describe_2016(game: Game, cards: Iterable[Card]) -> str:
    """The old client's words for a shown hand. Real: "Two pairs. Qs and 7s" (stud). The
    rest follows that pattern ("<Category>. <ranks>", ranks plural where paired) and is not
    from a real file: "One pair. Ks", "High card. A", "Full house. Ks and 7s", "Straight.
    9 high"; hi/lo adds "; Low: 8 7 5 4 2", razz is "Low: 6 4 3 2 A"."""
    hand = tuple(cards)
    if game is Game.RAZZ:
        return "Low: " + low_name(hand).replace(",", " ")
    value = high_value(hand)
    cat = HandCategory(value >> CAT_SHIFT)
    r = unpack(value)
    words = _HIGH_WORDS[cat]
    if cat in (HandCategory.PAIR, HandCategory.THREE_OF_A_KIND, HandCategory.FOUR_OF_A_KIND):
        text = f"{words}. {_CHAR[r[0]]}s"
    elif cat is HandCategory.TWO_PAIR:
        text = f"{words}. {_CHAR[r[0]]}s and {_CHAR[r[2]]}s"
    elif cat is HandCategory.FULL_HOUSE:
        text = f"{words}. {_CHAR[r[0]]}s and {_CHAR[r[3]]}s"
    elif cat is HandCategory.HIGH_CARD:
        text = f"{words}. {_CHAR[r[0]]}"
    else:
        text = f"{words}. {_CHAR[r[0]]} high"
    if game is Game.STUD_HILO:
        low = low8_name(hand)
        if low is not None:
            text += "; Low: " + low.replace(",", " ")
    return text


class Wpn2016Writer(WpnWriter):
    """The old (2016) client: cash only, "Player P ..." lines, amounts without a symbol,
    the start in US Eastern time, shows only in the summary."""

    game_names = GAME_NAMES_2016
    symbol = ""
    cents_always = False
    zone = ET
    seat_form = "Seat {seat}: {player} ({stack})."
    sitting_out = " (sitting out)"
    blank_lines = 1

    def __init__(self, hand: Hand) -> None:
        if hand.unit is not Unit.CENT:
            raise ValueError(f"hand {hand.hand_id}: the old WPN text is known for cash only")
        super().__init__(hand)

    def cards(self, cards: Iterable[Card | None]) -> str:
        return super().cards(cards).replace("T", "10")

    def clock(self, t: datetime) -> str:
        return f"{t.year}/{t.month}/{t.day} {t.hour}:{t.minute}:{t.second}"

    def head(self) -> list[str]:
        h = self.hand
        return [
            f"Game started at: {self.date_text()}",
            f"Game ID: {h.hand_id} {self.stakes()} {h.table} ({self.game_names[h.game]})",
        ]

    def action(self, a: Action) -> str:
        add = self.chips.added(a)
        who = f"Player {a.player}"
        k = a.kind
        if k is ActionKind.ANTE:
            return f"{who} ante ({self.money(add)})"
        if k is ActionKind.CHECK:
            return f"{who} checks"
        if k is ActionKind.FOLD:
            return f"{who} folds"
        if a.all_in and k is not ActionKind.BRING_IN:
            return f"{who} allin ({self.money(add)})"
        verb = {
            ActionKind.BRING_IN: "bring in",
            ActionKind.BET: "bets",
            ActionKind.CALL: "calls",
        }.get(k)
        if verb is None:  # raise or completion: a completion with nothing in front is a bet
            verb = "raises" if self.chips.others_in(a.player) else "bets"
        return f"{who} {verb} ({self.money(add)})"

    def deals_third(self, deals: list[Deal]) -> list[str]:
        """Two down cards to each player, then each player's up card, one line a card."""
        out = []
        for d in deals:
            for c in d.cards[:2]:
                out.append(self.deal_line(d.player, c))
        for d in deals:
            out.append(self.deal_line(d.player, d.cards[2]))
        return out

    def deal_line(self, player: str, card: Card | None) -> str:
        if card is None:
            return f"Player {player} received a card."
        return f"Player {player} received card: [{self.cards((card,))}]"

    def body(self) -> None:
        h, out = self.hand, self.lines
        third: list[Deal] = []
        seventh = {e.player: e for e in h.events if isinstance(e, Deal) and e.street == 7}
        live: list[str] = []  # dealt in and not folded, in seat order
        for e in h.events:
            if isinstance(e, Deal) and e.street is Street.THIRD:
                third.append(e)
                continue
            if third:
                out.extend(self.deals_third(third))
                dealt = {d.player for d in third}
                live = [s.player for s in h.seats if s.player in dealt]
                third = []
            if isinstance(e, Action):
                out.append(self.action(e))
                if e.kind is ActionKind.FOLD and e.player in live:
                    live.remove(e.player)
            elif isinstance(e, StreetStart):
                if e.community is not None:
                    raise ValueError(
                        f"hand {h.hand_id}: no known old-WPN form for a community card"
                    )
                self.chips.new_street()
                if e.street is not Street.THIRD:
                    out.append(_STREET_HEADERS_2016[e.street])
                if e.street is Street.SEVENTH:
                    # the client writes a line for every live player's down card; the model
                    # may hold only the hero's (a PokerStars hand has no line for the rest)
                    for p in live:
                        d = seventh.get(p)
                        out.append(self.deal_line(p, d.cards[0] if d is not None else None))
            elif isinstance(e, Deal):
                if e.street is not Street.SEVENTH:
                    out.append(self.deal_line(e.player, e.cards[0]))
            elif isinstance(e, UncalledBet):
                self.emit(self.uncalled(e))
            elif isinstance(e, Muck):
                out.append(f"Player {e.player} mucks cards")
        if third:
            out.extend(self.deals_third(third))

    def summary(self, s: Summary) -> list[str]:
        h, m = self.hand, self.money
        line = f"Pot: {m(s.total_pot - s.rake - s.fee)}. Rake {m(s.rake)}"
        out = ["------ Summary ------", line + (f". JP fee {m(s.fee)}" if s.fee else "")]
        collected: dict[str, int] = {}
        for e in h.events:
            if isinstance(e, Collect):
                collected[e.player] = collected.get(e.player, 0) + e.amount
        results = {r.player: r for r in s.seats}
        for seat in h.seats:
            p = seat.player
            bets, won = self.chips.hand.get(p, 0), collected.get(p, 0)
            r = results.get(p)
            if r is not None and r.outcome is SeatOutcome.SHOWED:
                what = f"shows: {describe_2016(h.game, r.cards)} [{self.cards(r.cards)}]."
            elif r is not None and r.outcome in (SeatOutcome.MUCKED, SeatOutcome.COLLECTED):
                what = "mucks (does not show cards)."
            else:
                what = "does not show cards."
            net = f"Wins: {m(won - bets)}" if won and won >= bets else f"Loses: {m(bets - won)}"
            star = "*" if won else ""
            space = "" if what == "does not show cards." else " "
            out.append(f"{star}Player {p} {what}{space}Bets: {m(bets)}. Collects: {m(won)}. {net}.")
        return out


write_hand_2016 = Wpn2016Writer.write_hand
write_hands_2016 = Wpn2016Writer.write_hands
