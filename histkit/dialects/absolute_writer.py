"""Absolute Poker / UltimateBet writer: `Hand` -> text, the other half of the Absolute dialect.

Lines are written in the forms of the 2009 client (the real file: see
`histkit.dialects.absolute` for which forms are seen, known or histkit's own). The writer
prints what the `Hand` holds and invents no card or action. Lines the model does not keep
are placed by the site's rule:
- each street's "P - Pocket [..]" lists all the player's cards so far ("H" for a card
  nobody saw); a folded hero's cards are printed again on every later street, and on 7th
  street each player still in gets a line for the card nobody saw (a simulated hand keeps
  no event for it), in seat order among the deals (as the real file does);
- "*** SHOW DOWN ***" comes before the first show, muck or collect after the last street
  began;
- a summary seat line names the halves won ("HI:($X)", "LO:($Y)") and the best five cards
  ("B:" up, "P:" down), found from the cards: the halves from the collects' own halves when
  the hand has them (read from Absolute), else from the engine's awards.

Choices, because the model or the site leaves them open:
- a hand read from Absolute keeps its own words; any other hand gets Absolute's words
  (`high_words`: "One pair, queens", "Two Pair, kings and tens" are the real forms; the other
  categories follow their pattern and are histkit's own), razz and lows as "8,6,4,3,A";
- the table line is written when the hand has a table ("(Real Money)", tournaments
  "(Tournament)"); "(1 on 1)" for a two-seat table; "Normal" for the fixed limit;
- all-in is written as "All-In X" (a bet or a call, X what it adds) or "All-In(Raise) X to
  Y"; an ante or bring-in that is all-in has no mark (the reader finds it from the stack);
  the first wager of 3rd street is "Completes Y" (Y the total);
- the house's take is written as the rake (no Absolute line for a jackpot fee is known);
  sitting out in histkit's own form ("- Sitting Out"); not written (no Absolute form is
  known): table notes, "Betting is capped", the open pair's double bet, "No low hand
  qualified"; no hidden 7th-street line for a community card.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime
from itertools import combinations

from histkit.cards import Card, Rank
from histkit.dialects.words import absolute_high as high_words
from histkit.dialects.words import absolute_low as low_words
from histkit.dialects.writer import ET, TextWriter
from histkit.evaluate.scalar import high_value, low8_value, razz_value
from histkit.model import (
    Action,
    ActionKind,
    Collect,
    Deal,
    Event,
    Game,
    Half,
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
    Unit,
)

__all__ = [
    "ERAS",
    "GAME_NAMES",
    "AbsoluteWriter",
    "LateAbsoluteWriter",
    "high_words",
    "low_words",
    "write_hand",
    "write_hands",
]

GAME_NAMES: dict[Game, str] = {
    Game.STUD: "Seven Card",
    Game.STUD_HILO: "Seven Card Hi/Lo",
    Game.RAZZ: "Razz",
}
_OWN_DATE = re.compile(r"\d{4}-\d{1,2}-\d{1,2} \d{1,2}:\d{2}:\d{2} \([A-Z]{1,5}\)$")


def _best_five(cards: tuple[Card, ...], low: Game | None) -> tuple[int, ...]:
    """Indices of the five cards that make the best high (`low` None) or low hand, in the
    order the site lists them: high by group size, rank and suit (spades first), low from
    the ace up."""
    if len(cards) < 5:
        return tuple(range(len(cards)))
    if low is None:
        best = max(
            combinations(range(len(cards)), 5),
            key=lambda ix: (high_value(cards[i] for i in ix), sorted(cards[i].suit for i in ix)),
        )
        ranks = [cards[i].rank for i in best]
        wheel = sorted(ranks) == [2, 3, 4, 5, 14]

        def order(i: int) -> tuple[int, int, int]:
            rank = 1 if wheel and cards[i].rank is Rank.ACE else int(cards[i].rank)
            return (-ranks.count(cards[i].rank), -rank, -cards[i].suit)

        return tuple(sorted(best, key=order))
    value = razz_value if low is Game.RAZZ else low8_value
    best = max(
        combinations(range(len(cards)), 5),
        key=lambda ix: (value(cards[i] for i in ix) or 0, [-i for i in ix]),
    )
    return tuple(sorted(best, key=lambda i: cards[i].rank.low))


class AbsoluteWriter(TextWriter):
    """Absolute's words; tracks the street's wagers, each player's cards and the hero."""

    game_names = GAME_NAMES
    street_headers = {
        **{s: f"*** {s.value}TH STREET ***" for s in Street},
        Street.THIRD: "*** 3rd STREET ***",
        Street.SEVENTH: "*** RIVER ***",
    }
    fold_streets = {
        **{s: f"{s.value}TH STREET" for s in Street},
        Street.THIRD: "3rd STREET",
        Street.SEVENTH: "RIVER",
    }
    own_date = _OWN_DATE
    zone = ET
    seat_form = "Seat {seat} - {player} ({stack} in chips)"
    sitting_out = " - Sitting Out"
    actor = " - "
    action_words = {
        ActionKind.ANTE: "Ante {}",
        ActionKind.BRING_IN: "Bring-In {}",
        ActionKind.CALL: "Calls {}",
        ActionKind.CHECK: "Checks",
        ActionKind.FOLD: "Folds",
    }
    wager_kinds = frozenset({ActionKind.BET, ActionKind.RAISE, ActionKind.COMPLETE})
    all_in = ""
    uncalled_form = "{player} - returned ({amount}) : not called"
    muck_words = "Mucks"
    declined_words = "Does not show"
    total_form = "Total Pot({total}){pots} | Rake ({rake})"
    board_form = "Board [{}]"
    hidden_card = "H"

    def __init__(self, hand: Hand) -> None:
        super().__init__(hand)
        self.own = hand.site == "absolute"  # keep its own words
        self.current = 0  # the street's highest total
        self.held: dict[str, list[Card | None]] = {}
        self.seat_no = {s.player: s.seat for s in hand.seats}
        self.folded: set[str] = set()
        self.pending: list[tuple[int, str]] = []  # (seat, card line) still to come
        self.community = next(
            (e.community for e in hand.events if isinstance(e, StreetStart) and e.community),
            None,
        )
        self._halves: dict[str, tuple[int, int]] | None = None
        self.last_street = max(
            (i for i, e in enumerate(hand.events) if isinstance(e, StreetStart)), default=-1
        )

    # ------------------------------------------------------------------ opening
    def head(self) -> list[str]:
        h = self.hand
        lines = [self.header()]
        if h.mix:
            lines.append(f"Game Type: Limit {h.mix}")
        if h.table:
            lines.append(self.table())
        return lines

    def header(self) -> str:
        h = self.hand
        hu = " (1 on 1)" if h.max_seats == 2 else ""
        slot = f"({h.tournament_id})" if h.is_tournament else ""
        game = self.game_names[h.game]
        return f"Stage #{h.hand_id}: {game}{hu} {slot} Normal {self.stakes()} - {self.date_text()}"

    def clock(self, t: datetime) -> str:
        return f"{t:%Y-%m-%d %H:%M:%S} (ET)"

    def table(self) -> str:
        h = self.hand
        money = "Real Money" if h.unit is Unit.CENT else "Tournament"
        return f"Table: {h.table} ({money})"

    # ------------------------------------------------------------------ events
    def cards(self, cards: Iterable[Card | None]) -> str:
        return " ".join("H" if c is None else _card(c) for c in cards)

    def street_start(self, e: StreetStart) -> str | None:
        """Also the street's card lines the model does not keep, placed in seat order among
        its deals: a folded hero's cards again, and on 7th street a hidden card for each
        player still in whose card nobody saw (the site writes "[.. H]" for them)."""
        self.current = 0
        held, hero = self.held, self.hand.hero
        extra = [hero] if hero in self.folded and hero in held else []
        if e.street is Street.SEVENTH and e.community is None:
            dealt = {d.player for d in self.hand.events if isinstance(d, Deal) and d.street == 7}
            extra += [p for p, cs in held.items() if len(cs) == 6 and p not in self.folded | dealt]
        self.pending = sorted(
            (self.seat_no[p], f"{p} - Pocket [{self.cards(held[p] + [None] * (p != hero))}]")
            for p in extra
        )
        return super().street_start(e)

    def deal(self, e: Deal) -> str | None:
        p = e.player
        held = self.held.get(p)
        if held is None or e.street is Street.THIRD:
            held = self.held[p] = list(e.before)
        held.extend(e.cards)
        while self.pending and self.pending[0][0] < self.seat_no[p]:
            self.lines.append(self.pending.pop(0)[1])
        return f"{p} - Pocket [{self.cards(held)}]"

    def after(self, i: int, e: Event) -> None:
        """The street's remaining card lines, after its last deal."""
        events = self.hand.events
        if (
            self.pending
            and isinstance(e, Deal | StreetStart)
            and not (i + 1 < len(events) and isinstance(events[i + 1], Deal))
        ):
            self.lines.extend(line for _, line in self.pending)
            self.pending = []

    def opens_showdown(self, i: int, e: Event) -> bool:
        """The first show, muck or collect after the last street began (cards shown
        earlier, by a player all-in, get no showdown line)."""
        return i > self.last_street and isinstance(e, Show | Muck | Collect)

    def action(self, a: Action) -> str:
        k, p = a.kind, a.player
        if k is ActionKind.FOLD:
            self.folded.add(p)
        if k in self.wager_kinds:
            text = self.wager(a)
        elif k is ActionKind.CALL and a.all_in:
            text = f"All-In {self.money(a.amount)}"
        else:
            text = self.action_words[k].format(self.money(a.amount))
        if k is ActionKind.BRING_IN or k is ActionKind.CALL:
            self.put(p, self.street_in.get(p, 0) + a.amount)
        return f"{p} - {text}"

    def wager(self, a: Action) -> str:
        m, k = self.money, a.kind
        before, current = self.street_in.get(a.player, 0), self.current
        if a.to_amount is not None:
            to = a.to_amount
        elif k is ActionKind.RAISE:
            to = current + a.amount
        else:
            to = before + a.amount
        if a.all_in:
            text = f"All-In {m(to - before)}" if not current else None
            text = text or f"All-In(Raise) {m(to - current)} to {m(to)}"
        elif self.street is Street.THIRD and self.wagers == 0:
            text = f"Completes {m(to)}"
        elif not current:
            text = f"Bets {m(to - before)}"
        else:
            text = f"Raises {m(to - current)} to {m(to)}"
        self.wagers += 1
        self.put(a.player, to)
        return text

    def put(self, player: str, total: int) -> None:
        self.street_in[player] = total
        self.current = max(self.current, total)

    def show(self, e: Show) -> str | None:
        desc = e.description if self.own else self.words(e.cards)
        return f"{e.player} - Shows [{self.cards(e.cards)}]" + (f" ({desc})" if desc else "")

    def collect(self, e: Collect) -> str | None:
        pot = f"side pot #{e.pot_index or 1}" if e.pot is PotKind.SIDE else "main pot"
        return f"{e.player} Collects {self.money(e.amount)} from {pot}"

    def no_low(self, e: NoLowHand) -> str | None:
        return None

    # ----------------------------------------------------------------- summary
    def pots(self, s: Summary) -> str:
        if s.main_pot is None:
            return ""
        sides = "".join(f" | Side Pot #{i}({self.money(x)})" for i, x in enumerate(s.side_pots, 1))
        return f" | Main Pot({self.money(s.main_pot)}){sides}"

    def total_line(self, s: Summary) -> str:
        """The house's whole take as the rake: no Absolute line for a fee is known."""
        m = self.money
        return self.total_form.format(total=m(s.total_pot), pots=self.pots(s), rake=m(s.taken))

    def seat_result(self, r: SeatResult) -> str:
        if r.outcome is SeatOutcome.FOLDED:
            street = self.fold_streets[r.folded_street or Street.THIRD]
            return f"Seat {r.seat}: {r.player} Folded on the {street}"
        return super().seat_result(r)

    def result_showed(self, r: SeatResult) -> str:
        """`won Total (X) HI:(H) with <words> [cards - best five] LO:(L) [low five]`
        (razz: the low is the hand, `LO:(X) with <low> [cards - low five]`)."""
        game, m = self.hand.game, self.money
        plays = self.plays(r.cards)
        words = r.description if self.own else self.words(r.cards)
        hi, lo = self.halves(r)
        part = "LO:" if game is Game.RAZZ else "HI:"
        first = lo if game is Game.RAZZ else hi
        if r.won:
            part = f" won Total ({m(r.won)}) {part}" + (f"({m(first)}) " if first else "")
        else:
            part = f" {part}lost "
        text = part + (f"with {words} " if words else "")
        low = game if game is Game.RAZZ else None
        text += f"[{self.cards(r.cards)} - {self.five(plays, low, len(r.cards))}]"
        if game is Game.STUD_HILO and lo:
            text += f" LO:({m(lo)}) [{self.five(plays, game, len(r.cards))}]"
        return text

    def five(self, plays: tuple[Card, ...], low: Game | None, own: int) -> str:
        """The best five as "B:Ks,P:Kc,..": P a down card (1st, 2nd, 7th), B an up card."""
        pocket = {0, 1, 6} if own == 7 else {0, 1}
        return ",".join(
            f"{'P' if i in pocket else 'B'}:{_card(plays[i])}" for i in _best_five(plays, low)
        )

    def halves(self, r: SeatResult) -> tuple[int, int]:
        """What the seat won of the high and of the low halves."""
        if self.hand.game is not Game.STUD_HILO:
            return (0, r.won) if self.hand.game is Game.RAZZ else (r.won, 0)
        if self._halves is None:
            self._halves = self.split()
        hi, lo = self._halves.get(r.player, (r.won, 0))
        return (hi, lo) if hi + lo == r.won else (r.won, 0)

    def split(self) -> dict[str, tuple[int, int]]:
        """Each player's high and low winnings: the collects' own halves where every
        collect has one, else the engine's awards of the chips the hand paid."""
        collects = [e for e in self.hand.events if isinstance(e, Collect)]
        paid: list[tuple[str, int, bool]] = []
        if collects and all(c.half is not None for c in collects):
            paid = [(c.player, c.amount, c.half is Half.LOW) for c in collects]
        else:
            from histkit.rules.replay import replay

            for a in replay(self.hand).awards:
                paid.extend((p, amt, a.half is Half.LOW) for p, amt in a.reported)
        out: dict[str, tuple[int, int]] = {}
        for p, amount, low in paid:
            hi, lo = out.get(p, (0, 0))
            out[p] = (hi, lo + amount) if low else (hi + amount, lo)
        return out

    def result_collected(self, r: SeatResult) -> str:
        return f" collected Total ({self.money(r.won)})"

    def result_mucked(self, r: SeatResult) -> str:
        return " Mucked" + (f" [{self.cards(r.cards)}]" if r.cards else "")

    def result_other(self, r: SeatResult) -> str:
        return " Sitting Out"

    # ------------------------------------------------------------------ words
    def plays(self, cards: tuple[Card, ...]) -> tuple[Card, ...]:
        """The cards a shown hand plays: with the community card of a short deck."""
        if self.community is not None and len(cards) == 6:
            return (*cards, self.community)
        return cards

    def words(self, cards: tuple[Card, ...]) -> str | None:
        """Absolute's words for a shown hand (hi/lo: the high only, as the site shows it)."""
        plays = self.plays(cards)
        if len(plays) < 5:
            return None
        game = self.hand.game
        return low_words(game, plays) if game is Game.RAZZ else high_words(plays)


class LateAbsoluteWriter(AbsoluteWriter):
    """The era `late`: the forms FPDB's patterns added after the real file's (K, 2010-11 to
    2014-07): a tournament named before the game, `Tourney ID <id> <game> Single Tournament`;
    the ante after the stakes, `, $0.01 ante`; the time to the thousandth of a second;
    `7 Card Stud`; thousands commas; a HORSE hand's game on a `Game Type` line."""

    game_names = {**GAME_NAMES, Game.STUD: "7 Card Stud"}
    thousands = True

    def head(self) -> list[str]:
        h = self.hand
        if not self.horse():
            return super().head()
        return [self.header(), f"Game Type: Limit {GAME_NAMES[h.game]}"] + (
            [self.table()] if h.table else []
        )

    def horse(self) -> bool:
        return (self.hand.mix or "").upper() == "HORSE"

    def header(self) -> str:
        h = self.hand
        hu = " (1 on 1)" if h.max_seats == 2 else ""
        game = "HORSE" if self.horse() else self.game_names[h.game]
        if h.is_tournament:
            game = f"Tourney ID {h.tournament_id} {game}{hu} Single Tournament"
        else:
            game = f"{game}{hu} "
        ante = self.ante(full=True)
        stakes = self.stakes() + (f", {self.money(ante)} ante" if ante else "")
        return f"Stage #{h.hand_id}: {game} Normal {stakes} - {self.date_text()}"

    def date_text(self) -> str:
        """The start with its thousandths (the header's own text is not kept: it has
        none)."""
        h = self.hand
        if h.started_at is None:
            return super().date_text()
        t = h.started_at.astimezone(self.zone)
        return f"{t:%Y-%m-%d %H:%M:%S}.{t.microsecond // 1000:03d} (ET)"


# the eras the writer writes (`histkit.dialects.eras`, docs/sites/absolute.md), the default first
ERAS: dict[str, type[AbsoluteWriter]] = {
    "2008-2011": AbsoluteWriter,
    "late": LateAbsoluteWriter,
}


def _card(c: Card) -> str:
    """A card as Absolute writes it: tens as "10"."""
    text = str(c)
    return "10" + text[1] if c.rank is Rank.TEN else text


format_amount = AbsoluteWriter.format_amount
write_hand = AbsoluteWriter.write_hand
write_hands = AbsoluteWriter.write_hands
