"""Winamax writer: `Hand` -> text, the other half of the Winamax dialect.

Lines are written in the 2016 client's forms (the real files): the header with the ante
in the stakes, `Table: '..' N-max (real money)`, `*** ANTE/BLINDS ***`, `*** 3rd STREET ***`
.. `*** 7th STREET ***`, `Dealt to P [X X 9h] [Kh]`, `P posts ante 5€`, `P brings in 10€`,
`P raises 25€ to 25€`, `P collected 114€ from pot(HI)`, the total pot AFTER rake, and a
summary that lists only the players who showed or won. Choices, since the site's text
cannot carry everything a `Hand` may hold (tests/dialects/test_winamax.py checks them):

- Euros only: a cash hand in another currency is refused (Winamax plays in euros); a cash
  hand in "PLAY" (or without a currency) is play money, written in hundredths without a
  sign ("0.65").
- Uncalled bets: Winamax prints no "returned" line; the unmatched chips stay in the pot and
  their bettor collects them (seen in the real hi/lo file: 50€ bet, everyone folds, the pot
  written with it). So an `UncalledBet` is folded into the bettor's collect when the bettor
  takes the only pot, and otherwise written as a collect from a side pot of its own (the
  form FPDB's reader describes for an all-in's unmatched excess); the total pot grows by it.
- Hi/lo collects are labelled "(HI)"/"(LO)" from the replay's awards; an uncontested hi/lo
  pot is written as two lines, high half (with the odd chip) then low half, as seen; a
  contested pot with no qualifying low is one "(HI)" line (no real file shows it).
- Summary seat lines: one per collect line for a winner (the real file repeats
  "Seat 2: Player0 won 114€" per half), "showed [..] and lost" for a shown loser,
  "mucked" for a mucker; folded seats are not listed (the real files list none).
- Descriptions are written only when they are Winamax's own words (a hand read from a
  Winamax file); other hands' words (PokerStars' "a pair of Sevens") are dropped, since
  no source lists the site's vocabulary: `shows [..]` and `showed [..] and won X`.
- Not written (no Winamax line for them): "Betting is capped", the open-pair line,
  "No low hand qualified", "doesn't show hand", notes other than "P sits out".
- Every player still in gets a 7th-street line: `Dealt to P [X X 9h Kh Kd Qc] [X]` when
  the hand holds no deal for them (the site prints one; it carries no card).
- A completion is written "raises Y to Y" (the real file's form); a later raise
  "raises X to Y" with X the raise over the bet.
- Tournaments: `Tournament "<tournament id>" buyIn: <buy-in> level: <n>` (the model keeps
  no tournament name; roman levels become numbers) and the table name gets Winamax's
  "(<tournament id>)#<table>" suffix when it lacks one (that is where the id is written).
- Dates: the header's own text when it is Winamax's ("... UTC"), else the start in UTC.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from histkit.cards import Card
from histkit.dialects.winamax import MONEY, PLAY_MONEY
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

if TYPE_CHECKING:
    from histkit.rules import Replay

__all__ = ["GAME_NAMES", "WinamaxWriter", "format_amount", "write_hand", "write_hands"]

GAME_NAMES: dict[Game, str] = {
    Game.STUD: "7-Card Stud fixed limit",
    Game.STUD_HILO: "7-Card Stud Hi/Lo fixed limit",
    Game.RAZZ: "Razz fixed limit",
}
_TABLE_SUFFIX = re.compile(r"\(\d+\)#\d+$")
_ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}


def _roman(text: str) -> str:
    """ "XIV" -> "14"; anything else unchanged."""
    if not text or any(c not in _ROMAN for c in text):
        return text
    total = 0
    for a, b in zip(text, text[1:] + " ", strict=True):
        v = _ROMAN[a]
        total += -v if b in _ROMAN and _ROMAN[b] > v else v
    return str(total)


class WinamaxWriter(TextWriter):
    """Winamax's words, and the collects and 7th-street lines the site writes its own way."""

    game_names = GAME_NAMES
    symbols = {"EUR": "\u20ac"}  # "5€"; play money has no symbol ("0.65")
    symbol = ""
    symbol_after = True
    hidden_card = "X"
    own_date = re.compile(r"\d{4}/\d{1,2}/\d{1,2} \d{1,2}:\d{2}:\d{2} UTC\Z")
    no_date = "neither a Winamax date nor started_at is set"
    sitting_out = ""
    no_all_in = frozenset()
    muck_words = "mucks hand"
    declined_words = None  # Winamax has no "doesn't show" line
    board_form = "Board: [{}]"

    def __init__(self, hand: Hand) -> None:
        if hand.unit is Unit.CENT and hand.currency not in (None, MONEY, PLAY_MONEY):
            raise ValueError(
                f"hand {hand.hand_id}: Winamax writes euros only, not {hand.currency} "
                "(simulate with currency EUR)"
            )
        super().__init__(hand)
        self.dealt: dict[str, list[Card | None]] = {}  # each player's cards as written
        self.folded: set[str] = set()
        self.seventh_done = False
        self.returned: dict[str, int] = {}
        for e in hand.events:
            if isinstance(e, UncalledBet):
                self.returned[e.player] = self.returned.get(e.player, 0) + e.amount
        self.halves = self._halves() if hand.game is Game.STUD_HILO else {}
        self.merged: dict[int, int] = {}  # pot index -> unmatched chips folded into it
        self.own_words = hand.site == "winamax"  # descriptions in the site's words
        # the collects as written, by the position of the event they follow
        self.written: list[tuple[int, Collect, str]] = []
        self.by_event: dict[int, list[tuple[Collect, str]]] = {}
        self.multi = False  # more than one pot: "main pot", not "pot"

    # ------------------------------------------------------------------ header
    def header(self) -> str:
        h = self.hand
        ante = self.ante(full=True)
        stakes = self.stakes()
        if ante is not None:
            stakes = f"{self.money(ante)}/{stakes}"
        if h.is_tournament:
            buy_in = h.buy_in or "0\u20ac + 0\u20ac"
            level = f" level: {_roman(h.level)}" if h.level else ""
            kind = f'Tournament "{h.tournament_id}" buyIn: {buy_in}{level}'
        else:
            kind = "CashGame"
        return (
            f"Winamax Poker - {kind} - HandId: #{h.hand_id} - {self.game_names[h.game]} "
            f"({stakes}) - {self.date_text()}"
        )

    def table(self) -> str:
        h = self.hand
        name = h.table
        if h.is_tournament and not _TABLE_SUFFIX.search(name):
            name = f"{name}({h.tournament_id})#1"
        money = "play money" if h.unit is Unit.CENT and h.currency != MONEY else "real money"
        return f"Table: '{name}' {h.max_seats or 6}-max ({money})"

    # ------------------------------------------------------------------ events
    def body(self) -> None:
        self.lines.append("*** ANTE/BLINDS ***")
        self.written = self.collects()
        for i, c, half in self.written:
            self.by_event.setdefault(i, []).append((c, half))
        self.multi = any(c.pot is not PotKind.POT for _, c, _ in self.written)
        super().body()
        for rest in self.by_event.values():  # collects placed after the last event
            self.lines.extend(self.collect_lines(rest))

    def before(self, i: int, e: Event) -> None:
        """The 7th-street lines the model may lack, before 7th street's first action, show
        or muck; then the showdown line."""
        if isinstance(e, Show | Muck) or (isinstance(e, Action) and e.street is Street.SEVENTH):
            self.finish_seventh()
        super().before(i, e)

    def after(self, i: int, e: Event) -> None:
        """The collects (as written by `collects`) that follow event `i`."""
        if i in self.by_event:
            self.finish_seventh()
            self.lines.extend(self.collect_lines(self.by_event.pop(i)))

    def street_start(self, e: StreetStart) -> str | None:
        self.finish_seventh()
        return super().street_start(e)

    def deal(self, e: Deal) -> str | None:
        mine = self.dealt.setdefault(e.player, [])
        if e.street is Street.THIRD:
            mine[:] = list(e.cards)
            return f"Dealt to {e.player} [{self.cards(e.cards)}]"
        before = list(mine)
        if not before and e.before:  # a hand that starts after 3rd street's deal lines
            before = list(e.before)
        mine[:] = before + list(e.cards)
        return f"Dealt to {e.player} [{self.cards(before)}] [{self.cards(e.cards)}]"

    def finish_seventh(self) -> None:
        """Winamax prints a 7th-street line for everyone still in; the model may not hold
        one for players whose card nobody saw."""
        if self.street is not Street.SEVENTH or self.seventh_done:
            return
        self.seventh_done = True
        if any(isinstance(e, StreetStart) and e.community is not None for e in self.hand.events):
            return  # one community card instead of a 7th card each
        have = {
            e.player for e in self.hand.events if isinstance(e, Deal) and e.street is Street.SEVENTH
        }
        for s in self.hand.seats:
            p = s.player
            if p in self.dealt and p not in self.folded and p not in have:
                mine = self.dealt[p]
                self.lines.append(f"Dealt to {p} [{self.cards(mine)}] [X]")
                mine.append(None)

    def action(self, a: Action) -> str:
        k, p = a.kind, a.player
        before = self.street_in.get(p, 0)
        text = super().action(a)
        if k is ActionKind.BRING_IN or k is ActionKind.BET or k is ActionKind.CALL:
            self.street_in[p] = before + a.amount
        if k is ActionKind.BET:
            self.wagers += 1
        elif k is ActionKind.FOLD:
            self.folded.add(p)
        return text

    def wager(self, a: Action) -> str:
        m, k, p = self.money, a.kind, a.player
        top = max(self.street_in.values(), default=0)
        to = a.to_amount
        if to is None:
            to = (
                (top + a.amount) if k is ActionKind.RAISE else (self.street_in.get(p, 0) + a.amount)
            )
        if k is ActionKind.COMPLETE or (self.street is Street.THIRD and self.wagers == 0):
            text = f"raises {m(to)} to {m(to)}"  # a completion: the real file's form
        else:
            text = f"raises {m(to - top)} to {m(to)}"
        self.street_in[p] = to
        self.wagers += 1
        return text

    def uncalled(self, e: UncalledBet) -> str | None:
        return None  # the bettor collects it (see `collects`)

    def show_words(self, e: Show) -> str:
        return super().show_words(e) if self.own_words else ""

    def collect(self, e: Collect) -> str | None:
        return None  # written after the event by `after`, with the uncalled bets folded in

    def collect_lines(self, collects: list[tuple[Collect, str]]) -> list[str]:
        """Collects as written, each with its half's label ("pot(HI)")."""
        return [self.collect_line(c) + (f"({half})" if half else "") for c, half in collects]

    def pot_name(self, e: Collect) -> str:
        return "main pot" if self.multi and e.pot is not PotKind.SIDE else super().pot_name(e)

    def no_low(self, e: NoLowHand) -> str | None:
        return None

    def note(self, e: TableNote) -> str | None:
        return f"{e.player} sits out" if e.kind is NoteKind.SIT_OUT and e.player else None

    # ---------------------------------------------------------------- collects
    def _halves(self) -> dict[int, str]:
        """Hi/lo: the label of each collect event (by its position in the events), from
        the replay's awards under the site's rules; the engine settles, the writer only
        reads its answer (a high half is matched first: a scoop's lines are HI, LO)."""
        halves: dict[str, list[tuple[int, str, int]]] = {"HI": [], "LO": []}
        for a in _replay(self.hand).awards:
            if a.winners:
                key = "LO" if a.half == "low" else "HI"
                halves[key].extend((a.pot, p, x) for p, x in a.expected)
        out: dict[int, str] = {}
        for i, e in enumerate(self.hand.events):
            if isinstance(e, Collect):
                got = (e.pot_index if e.pot is PotKind.SIDE else 0, e.player, e.amount)
                out[i] = "HI"
                for key in ("HI", "LO"):
                    if got in halves[key]:
                        halves[key].remove(got)
                        out[i] = key
                        break
        return out

    def collects(self) -> list[tuple[int, Collect, str]]:
        """(event position, collect as written, half label) in the events' order, with
        the uncalled bets folded in (see the module doc): an unmatched bet joins the
        deepest pot when its bettor alone may win that pot (everyone else folded), else
        it is a side pot of its own, as the engine counts an unreturned bet."""
        h = self.hand
        got = [(i, e) for i, e in enumerate(h.events) if isinstance(e, Collect)]
        returned = dict(self.returned)
        extra: dict[tuple[int, str], int] = {}  # (pot index, player) -> chips added
        if returned:
            pots = _replay(h).pots
            deepest = pots[-1] if pots else None
            for p in list(returned):
                if deepest is not None and deepest.eligible == (p,):
                    extra[(deepest.index, p)] = returned.pop(p)
                    self.merged[deepest.index] = (
                        self.merged.get(deepest.index, 0) + extra[(deepest.index, p)]
                    )
        # an uncontested hi/lo pot in one line is written as its two halves (real file)
        alone = len(self.live()) == 1
        split = alone and bool(self.halves) and len(got) == 1
        out: list[tuple[int, Collect, str]] = []
        for n, (i, c) in enumerate(got):
            index = c.pot_index if c.pot is PotKind.SIDE else 0
            amount = c.amount + extra.pop((index, c.player), 0)
            if split:
                hi = amount - amount // 2
                out.append((i, Collect(c.player, hi, c.pot, c.pot_index), "HI"))
                out.append((i, Collect(c.player, amount - hi, c.pot, c.pot_index), "LO"))
                continue
            half = self.halves.get(i, "")
            if half and alone:  # already two lines: high half, then low
                half = "HI" if n == 0 else "LO"
            out.append((i, Collect(c.player, amount, c.pot, c.pot_index), half))
        if returned:  # an unmatched excess beside other pots: its own side pot
            n = 1 + max((c.pot_index for _, c in got if c.pot is PotKind.SIDE), default=0)
            if h.summary is not None:
                n = max(n, len(h.summary.side_pots) + 1)
            last = max((i for i, _ in got), default=len(h.events))
            for p, amount in returned.items():
                out.append((last, Collect(p, amount, PotKind.SIDE, n), ""))
                n += 1
        return out

    def live(self) -> list[str]:
        """Players dealt in (antes or cards) who never folded."""
        seen: dict[str, None] = {}
        folded = set()
        for e in self.hand.events:
            if isinstance(e, Action | Deal):
                seen.setdefault(e.player, None)
                if isinstance(e, Action) and e.kind is ActionKind.FOLD:
                    folded.add(e.player)
        return [p for p in seen if p not in folded]

    # ----------------------------------------------------------------- summary
    def summary(self, s: Summary) -> list[str]:
        """The total after rake, the pots as paid (uncalled bets folded in), and a line per
        collect for each winner; folded seats are not listed."""
        h, m, collects = self.hand, self.money, self.written
        extra = sum(self.returned.values())
        pots = ""
        excess = [
            c.amount
            for _, c, _ in collects
            if c.pot is PotKind.SIDE and c.pot_index > len(s.side_pots)
        ]
        if excess or s.main_pot is not None:
            nets = [s.main_pot if s.main_pot is not None else s.total_pot - s.rake]
            nets += [*s.side_pots]
            for index, chips in self.merged.items():
                nets[index] += chips
            nets += excess
            pots = f" | Main pot {m(nets[0])}" + "".join(
                f" | Side pot {i} {m(x)}" for i, x in enumerate(nets[1:], 1)
            )
        rake = f"Rake {m(s.rake)}" if s.rake else "No rake"
        out = ["*** SUMMARY ***", f"Total pot {m(s.total_pot - s.rake + extra)}{pots} | {rake}"]
        if s.board:
            out.append(self.board_form.format(self.cards(s.board)))
        won: dict[str, list[int]] = {}
        for _, c, _ in collects:
            won.setdefault(c.player, []).append(c.amount)
        for r in s.seats:
            out.extend(self.seat_lines(r, won.get(r.player, [])))
        listed = {r.player for r in s.seats}
        for seat in h.seats:  # a winner the hand's summary does not list
            if seat.player not in listed and seat.player in won:
                out.extend(f"Seat {seat.seat}: {seat.player} won {m(x)}" for x in won[seat.player])
        return out

    def words(self, r: SeatResult) -> str:
        return f" with {r.description}" if self.own_words and r.description else ""

    def seat_lines(self, r: SeatResult, won: list[int]) -> list[str]:
        head = f"Seat {r.seat}: {r.player}"
        o = r.outcome
        if o is SeatOutcome.SHOWED:
            if won:
                return [
                    f"{head} showed [{self.cards(r.cards)}] and won {self.money(x)}{self.words(r)}"
                    for x in won
                ]
            return [f"{head} showed [{self.cards(r.cards)}] and lost{self.words(r)}"]
        paid = [f"{head} won {self.money(x)}" for x in won]
        if o is SeatOutcome.MUCKED:  # a mucker may get an unmatched bet back
            return [f"{head} mucked", *paid]
        return paid  # folded, sat out: Winamax lists only those who showed or won


def _replay(hand: Hand) -> Replay:
    """The engine's settlement of a hand under Winamax's rules (imported late: the rules
    engine and the dialect are not needed to write a hand without hi/lo or uncalled bets)."""
    from histkit.dialects.winamax import WINAMAX
    from histkit.rules import replay

    return replay(hand, WINAMAX)


format_amount = WinamaxWriter.format_amount
write_hand = WinamaxWriter.write_hand
write_hands = WinamaxWriter.write_hands
