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
from datetime import UTC
from zoneinfo import ZoneInfo

from histkit.cards import Card
from histkit.evaluate._tables import CAT_SHIFT, HandCategory, unpack
from histkit.evaluate.names import low8_name, low_name
from histkit.evaluate.scalar import high_value
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
_STREET_HEADERS = {s: f"*** {int(s)}{'rd' if s == 3 else 'th'} STREET ***" for s in Street}
_STREET_NAMES = {s: f"{int(s)}{'rd' if s == 3 else 'th'} Street" for s in Street}
_STREET_HEADERS_2016 = {
    Street.FOURTH: "*** Third street ***",
    Street.FIFTH: "*** Fourth street ***",
    Street.SIXTH: "*** Fifth street ***",
    Street.SEVENTH: "*** Sixth street ***",
}
_ET = ZoneInfo("America/New_York")
_ADDS = (ActionKind.ANTE, ActionKind.BRING_IN, ActionKind.BET, ActionKind.CALL)


def _money(amount: int, unit: Unit, *, symbol: str, always_cents: bool) -> str:
    """ "$0.04" (2019: always two decimals), "0.15" / "1" (2016: whole units bare)."""
    if unit is Unit.CHIP:
        return str(amount)
    whole, cents = divmod(amount, 100)
    if cents == 0 and not always_cents:
        return f"{symbol}{whole}"
    return f"{symbol}{whole}.{cents:02d}"


def _cards(cards: Iterable[Card | None], *, ten: str = "T") -> str:
    text = " ".join(str(c) for c in cards if c is not None)
    return text.replace("T", ten) if ten != "T" else text


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


# ------------------------------------------------------------------------------ 2019+


class _Writer:
    def __init__(self, hand: Hand) -> None:
        self.hand = hand
        self.chips = _Chips()
        self.lines: list[str] = []

    def m(self, amount: int) -> str:
        return _money(amount, self.hand.unit, symbol="$", always_cents=True)

    def header(self) -> str:
        h = self.hand
        game = f"{GAME_NAMES[h.game]}(Fixed Limit)"
        if h.started_at is not None:
            when = f"{h.started_at.astimezone(UTC):%Y/%m/%d %H:%M:%S} UTC"
        elif h.local_time:
            when = h.local_time
        else:
            raise ValueError(f"hand {h.hand_id}: neither started_at nor local_time is set")
        stakes = f"{self.m(h.small_bet)}/{self.m(h.big_bet)}"
        if h.is_tournament:
            level = f"Level {h.level} " if h.level else ""
            return (
                f"Game Hand #{h.hand_id} - Tournament #{h.tournament_id} - {game} - "
                f"{level}({stakes})- {when}"
            )
        return f"Hand #{h.hand_id} - {game} - {stakes} - {when}"

    def pot_line(self, rake: int, fee: int = 0) -> str:
        text = f"Main pot {self.m(self.chips.pot - rake - fee)} | Rake {self.m(rake)}"
        return text + (f" | JP Fee {self.m(fee)}" if fee else "")

    def action(self, a: Action) -> str:
        before = self.chips.street.get(a.player, 0)
        add = self.chips.added(a)
        k = a.kind
        if k is ActionKind.ANTE:
            text = f"posts ante {self.m(a.amount)}"
        elif k is ActionKind.BRING_IN:
            text = f"brings in {self.m(a.amount)}"
        elif k is ActionKind.BET:
            text = f"bets {self.m(a.amount)}"
        elif k is ActionKind.CALL:
            text = f"calls {self.m(a.amount)}"
        elif k in (ActionKind.RAISE, ActionKind.COMPLETE):
            to = before + add
            if k is ActionKind.COMPLETE and not _others_in(self.chips, a.player):
                text = f"bets {self.m(to)}"
            else:
                text = f"raises {self.m(add)} to {self.m(to)}"
        elif k is ActionKind.CHECK:
            return f"{a.player} checks"
        else:
            return f"{a.player} folds"
        return f"{a.player} {text}" + (" and is all-in" if a.all_in else "")

    def write(self) -> list[str]:
        h = self.hand
        out = self.lines
        out.append(self.header())
        out.append(f"{h.table} {h.max_seats}-max" if h.max_seats else h.table)
        for s in h.seats:
            out.append(
                f"Seat {s.seat}: {s.player} ({self.m(s.stack)})"
                + (" is sitting out" if s.sitting_out else "")
            )
        summary = h.summary
        rake = summary.rake if summary is not None else 0
        fee = summary.fee if summary is not None else 0
        last_street = max((e.street for e in h.events if isinstance(e, StreetStart)), default=None)
        showdown = False
        shown = any(isinstance(e, Show) for e in h.events)
        for e in h.events:
            if isinstance(e, Action):
                out.append(self.action(e))
            elif isinstance(e, StreetStart):
                self.chips.new_street()
                head = _STREET_HEADERS[e.street]
                out.append(f"{head} [{e.community}]" if e.community is not None else head)
                out.append(self.pot_line(rake if e.street == last_street else 0))
            elif isinstance(e, Deal):
                new = _cards(e.cards)
                if new:
                    before = f"[{_cards(e.before)}] " if e.before else ""
                    out.append(f"Dealt to {e.player} {before}[{new}]")
            elif isinstance(e, UncalledBet):
                self.chips.returned(e)
                out.append(f"Uncalled bet ({self.m(e.amount)}) returned to {e.player}")
            elif isinstance(e, Show | Muck | Collect | NoLowHand):
                if not showdown and shown and not (isinstance(e, Muck) and e.declined):
                    out.append("*** SHOW DOWN ***")
                    out.append(self.pot_line(rake, fee))
                    showdown = True
                if isinstance(e, Show):
                    out.append(f"{e.player} shows [{_cards(e.cards)}]")
                elif isinstance(e, Muck):
                    out.append(f"{e.player} does not show" if e.declined else f"{e.player} mucks")
                elif isinstance(e, NoLowHand):
                    out.append("No low hand qualified")
                elif shown:  # an uncontested pot has no collect line
                    out.append(f"{e.player} collected {self.m(e.amount)} from {_pot_name(e)}")
            # notes, "Pair on board" and "Betting is capped": WPN prints none of them
        if summary is not None:
            out.extend(self.summary(summary))
        return out

    def summary(self, s: Summary) -> list[str]:
        pots = ""
        if s.main_pot is not None:
            pots = f" Main pot {self.m(s.main_pot)}." + "".join(
                f" Side pot {i} {self.m(x)}." for i, x in enumerate(s.side_pots, 1)
            )
        total = f"Total pot {self.m(s.total_pot - s.rake - s.fee)}{pots} | Rake {self.m(s.rake)}"
        out = ["*** SUMMARY ***", total + (f" | JP Fee {self.m(s.fee)}" if s.fee else "")]
        if s.board:
            out.append(f"Board [{_cards(s.board)}]")
        out.extend(self.result(r) for r in s.seats)
        return out

    def result(self, r: SeatResult) -> str:
        head = f"Seat {r.seat}: {r.player}"
        o = r.outcome
        if o is SeatOutcome.FOLDED:
            street = _STREET_NAMES[r.folded_street or Street.THIRD]
            return f"{head} folded on the {street}" + (" and did not bet" if r.didnt_bet else "")
        if o is SeatOutcome.SHOWED:
            cards = _cards(r.cards)
            return f"{head} showed [{cards}] and " + (f"won {self.m(r.won)}" if r.won else "lost")
        if o is SeatOutcome.MUCKED:
            return f"{head} mucked" + (f" [{_cards(r.cards)}]" if r.cards else "")
        if o is SeatOutcome.COLLECTED:
            return f"{head} did not show and won {self.m(r.won)}"
        return f"{head} is sitting out"


def _others_in(chips: _Chips, player: str) -> bool:
    """Whether someone else has chips in on this street (a bring-in): then a completion
    is a raise, else a bet."""
    return any(v for p, v in chips.street.items() if p != player)


def _pot_name(c: Collect) -> str:
    if c.pot is PotKind.POT:
        return "pot"
    if c.pot is PotKind.MAIN:
        return "main pot"
    return f"side pot {c.pot_index or 1}"


def write_hand(hand: Hand, *, newline: str = "\n") -> str:
    """One hand as the 2019+ WPN client writes it, without the blank line after it."""
    return newline.join(_Writer(hand).write())


def write_hands(hands: Iterable[Hand], *, newline: str = "\n") -> str:
    """Hands one after the other, each followed by two empty lines."""
    end = newline * 3
    return "".join(write_hand(h, newline=newline) + end for h in hands)


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


class _Writer2016:
    def __init__(self, hand: Hand) -> None:
        if hand.unit is not Unit.CENT:
            raise ValueError(f"hand {hand.hand_id}: the old WPN text is known for cash only")
        self.hand = hand
        self.chips = _Chips()

    def m(self, amount: int) -> str:
        return _money(amount, Unit.CENT, symbol="", always_cents=False)

    def when(self) -> str:
        h = self.hand
        if h.started_at is None:
            if h.local_time:
                return h.local_time
            raise ValueError(f"hand {h.hand_id}: neither started_at nor local_time is set")
        t = h.started_at.astimezone(_ET)
        return f"{t.year}/{t.month}/{t.day} {t.hour}:{t.minute}:{t.second}"

    def action(self, a: Action) -> str:
        add = self.chips.added(a)
        who = f"Player {a.player}"
        k = a.kind
        if k is ActionKind.ANTE:
            return f"{who} ante ({self.m(add)})"
        if k is ActionKind.CHECK:
            return f"{who} checks"
        if k is ActionKind.FOLD:
            return f"{who} folds"
        if a.all_in and k is not ActionKind.BRING_IN:
            return f"{who} allin ({self.m(add)})"
        verb = {
            ActionKind.BRING_IN: "bring in",
            ActionKind.BET: "bets",
            ActionKind.CALL: "calls",
        }.get(k)
        if verb is None:  # raise or completion: a completion with nothing in front is a bet
            verb = "raises" if _others_in(self.chips, a.player) else "bets"
        return f"{who} {verb} ({self.m(add)})"

    def deals_third(self, deals: list[Deal]) -> list[str]:
        """Two down cards to each player, then each player's up card, one line a card."""
        out = []
        for d in deals:
            for c in d.cards[:2]:
                out.append(self.deal_line(d.player, c))
        for d in deals:
            out.append(self.deal_line(d.player, d.cards[2]))
        return out

    @staticmethod
    def deal_line(player: str, card: Card | None) -> str:
        if card is None:
            return f"Player {player} received a card."
        return f"Player {player} received card: [{_cards((card,), ten='10')}]"

    def write(self) -> list[str]:
        h = self.hand
        out = [
            f"Game started at: {self.when()}",
            f"Game ID: {h.hand_id} {self.m(h.small_bet)}/{self.m(h.big_bet)} {h.table} "
            f"({GAME_NAMES_2016[h.game]})",
        ]
        out.extend(
            f"Seat {s.seat}: {s.player} ({self.m(s.stack)})."
            + (" (sitting out)" if s.sitting_out else "")
            for s in h.seats
        )
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
                self.chips.returned(e)
                out.append(f"Uncalled bet ({self.m(e.amount)}) returned to {e.player}")
            elif isinstance(e, Muck):
                out.append(f"Player {e.player} mucks cards")
        if third:
            out.extend(self.deals_third(third))
        if h.summary is not None:
            out.extend(self.summary(h.summary))
        return out

    def summary(self, s: Summary) -> list[str]:
        h = self.hand
        line = f"Pot: {self.m(s.total_pot - s.rake - s.fee)}. Rake {self.m(s.rake)}"
        out = ["------ Summary ------", line + (f". JP fee {self.m(s.fee)}" if s.fee else "")]
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
                what = f"shows: {describe_2016(h.game, r.cards)} [{_cards(r.cards, ten='10')}]."
            elif r is not None and r.outcome in (SeatOutcome.MUCKED, SeatOutcome.COLLECTED):
                what = "mucks (does not show cards)."
            else:
                what = "does not show cards."
            net = (
                f"Wins: {self.m(won - bets)}"
                if won and won >= bets
                else f"Loses: {self.m(bets - won)}"
            )
            star = "*" if won else ""
            space = "" if what == "does not show cards." else " "
            out.append(
                f"{star}Player {p} {what}{space}Bets: {self.m(bets)}. Collects: {self.m(won)}. "
                f"{net}."
            )
        return out


def write_hand_2016(hand: Hand, *, newline: str = "\n") -> str:
    """One cash hand as the old (2016) WPN client writes it, without the blank line after."""
    return newline.join(_Writer2016(hand).write())


def write_hands_2016(hands: Iterable[Hand], *, newline: str = "\n") -> str:
    """Hands one after the other, each followed by one empty line."""
    end = newline * 2
    return "".join(write_hand_2016(h, newline=newline) + end for h in hands)
