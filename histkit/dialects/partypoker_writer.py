"""PartyPoker writer: a `Hand` as the 2008-2012 client writes it (grammars/partypoker.lark).

Every line has a form a real file shows (R in the grammar), except where said. The choices
the text forces:
- amounts in brackets are what an action adds, with the currency code after money
  ("calls [$0.25 USD]"), chips with thousands commas ("[1,200]"); the first wager on 3rd
  street is "completes", a 4th-street bet of the big bet "double bets" (R), later wagers
  "raises"; an all-in wager, call or bring-in is "is all-In  [X]" (K), except a first
  3rd-street wager short of the small bet, which the reader would take for a bring-in: that
  one is "completes" (the reader knows the all-in from the stack).
- each street's first actor gets an "opens" line before they act (R), unless the hand
  already holds those notes (a hand read from Party);
- only the hero's cards are dealt ("Dealt to Hero [  3h 8c 7c ]", "[  2c ]"); other cards
  appear only in shows. A shown loser who then mucks is "doesn't show [ .. ]<words>." (R),
  and so is a muck whose cards the hand's summary shows; a muck without known cards, and
  the uncontested winner's declined show, are "does not show cards." (R for the latter);
- the end of the hand in Party's order (R): shows and mucks, then who wins what, then
  "There was no qualifying low hand", then notes. "wins X" names no pot when nobody showed
  (R), else "from the main pot" / "from the side pot #N" (K) with the winner's hand. A
  hand's words are its own when it was read from Party, else Party's where they are known
  (`PartyPoker.describe`), else none ("shows [ .. ]."): another site's words are not
  Party's;
- a community card is "** Dealing River ** [ 6h ]", histkit's own form (Party's hold'em
  writes its board so; no stud hand shows one);
- no uncalled-bet line: the bettor wins the chips with the pot (R), or, when others are
  still in, as a side pot of their own (the audit counts an unreturned bet so: K);
- no summary (the reader derives one); the MTT's "Trny:.. Level:.." and "Stakes-Antes(..)"
  lines follow the seats (R); levels are numbers (R "Level:2"), a simulated buy-in
  "$0.98+$0.12 USD" is written "$0.98 USD Buy-in + $0.12 USD Entry" (K);
- the date is the hand's own when it is in Party's form, else the start in US Eastern
  time with its EDT/EST abbreviation; the day is written with two digits (no real date
  settles it);
- "Game #N starts." and the blank line before each hand (R) are left out: the reading
  layer does not join them to the hand yet (see the dialect's `lead_in`); hands are
  separated by one blank line (where the client writes a NUL byte).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime

from histkit.cards import Card
from histkit.dialects.writer import ET, TextWriter
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
    Show,
    Street,
    StreetStart,
    TableNote,
    UncalledBet,
    Unit,
)

__all__ = ["GAME_NAMES", "PartyPokerWriter", "write_hand", "write_hands"]

GAME_NAMES: dict[Game, str] = {
    Game.STUD: "7 Card Stud",
    Game.STUD_HILO: "7 Card Stud Hi-Lo",
    Game.RAZZ: "Razz",  # histkit's own: no Party razz is known
}
_STREETS = {
    Street.THIRD: "** Dealing **",
    Street.FOURTH: "** Dealing Fourth street **",
    Street.FIFTH: "** Dealing Fifth street **",
    Street.SIXTH: "** Dealing Sixth street **",
    Street.SEVENTH: "** Dealing River **",
}
_NOTES = {
    NoteKind.JOIN: "{} has joined the table.",
    NoteKind.LEAVE: "{} has left the table.",
    NoteKind.SIT_OUT: "{} is sitting out",
    NoteKind.DISCONNECT: "{} is disconnected",
    NoteKind.CONNECT: "{} has been reconnected",
    NoteKind.TIMED_OUT: "{} could not respond in time.",
}
_ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}
_SIM_BUY_IN = re.compile(r"([$€£][\d.,]+)\+([$€£][\d.,]+) ([A-Z]{3})")
_PLACE = re.compile(r"(\d+)(?:st|nd|rd|th)? place")
_END = (Show, Muck, Collect, NoLowHand)
_WAGERS = (ActionKind.BET, ActionKind.RAISE, ActionKind.COMPLETE)


def _level(text: str) -> str:
    """A level as Party writes it, a number: "IV" -> "4"."""
    if not text or any(c not in _ROMAN for c in text):
        return text
    total = 0
    for a, b in zip(text, text[1:] + " ", strict=True):
        v = _ROMAN[a]
        total += -v if b in _ROMAN and _ROMAN[b] > v else v
    return str(total)


class PartyPokerWriter(TextWriter):
    """Party's words and order; see the module doc."""

    game_names = GAME_NAMES
    thousands = True
    zone = ET
    own_date = re.compile(
        r"[A-Z][a-z]+, [A-Z][a-z]+ \d{1,2}, \d{1,2}:\d{2}:\d{2} [A-Z]{1,5} \d{4}\Z"
    )
    no_date = "neither a Party date nor started_at is set"
    blank_lines = 1

    def __init__(self, hand: Hand) -> None:
        super().__init__(hand)
        self.top = 0  # the street's highest total
        self.opened = False  # the street's first actor has their "opens" line
        notes = [e for e in hand.events if isinstance(e, TableNote)]
        self.own_opens = any(e.kind is NoteKind.OTHER and e.text.endswith(" opens") for e in notes)
        self.showdown_hand = any(isinstance(e, Show) for e in hand.events)
        self.shown = {e.player: e.cards for e in hand.events if isinstance(e, Show)}
        summary = hand.summary.seats if hand.summary is not None else ()
        self.mucked = {
            r.player: r.cards
            for r in summary
            if r.outcome is SeatOutcome.MUCKED and len(r.cards) >= 5 and r.player not in self.shown
        }
        self.extra = self.unmatched()
        self.community = next(
            (
                e.community
                for e in hand.events
                if isinstance(e, StreetStart) and e.community is not None
            ),
            None,
        )

    # ------------------------------------------------------------------ opening
    def money(self, amount: int) -> str:
        text = self.format_amount(amount, self.hand.unit, self.hand.currency)
        return f"{text} {self.hand.currency or 'USD'}" if self.hand.unit is Unit.CENT else text

    def chips(self, amount: int) -> str:
        """An amount without the currency code (the stakes)."""
        return self.format_amount(amount, self.hand.unit, self.hand.currency)

    def clock(self, t: datetime) -> str:
        return f"{t:%A, %B %d, %H:%M:%S} {t.tzname()} {t:%Y}"

    def stakes_antes(self) -> str:
        h = self.hand
        ante = self.ante(full=True)
        stakes = f"{self.chips(h.small_bet)}/{self.chips(h.big_bet)}"
        return f"Stakes-Antes({stakes}-{self.chips(ante)})" if ante else f"Stakes({stakes})"

    def buy_in(self) -> str:
        got = self.hand.buy_in or ""
        m = _SIM_BUY_IN.fullmatch(got)
        if m is not None:
            return f"{m[1]} {m[3]} Buy-in + {m[2]} {m[3]} Entry "
        return f"{got} " if got.startswith(("$", "€", "£")) else ""

    def head(self) -> list[str]:
        h = self.hand
        game, when = self.game_names[h.game], self.date_text()
        if h.is_tournament:
            level = _level(h.level or "1")
            line = (
                f"FL {game} {self.buy_in()}Trny:{h.tournament_id} Level:{level}  "
                f"{self.stakes_antes()} - {when}"
            )
        else:
            cur = h.currency or "USD"
            line = f"{self.chips(h.small_bet)}/{self.chips(h.big_bet)} {cur} {game} - {when}"
        return [
            f"#Game No : {h.hand_id}",
            f"***** Hand History for Game {h.hand_id} *****",
            line,
            f"Table {h.table} (Real Money)",
            "Seat 0 is the button",
            f"Total number of players : {len(h.seats)}/{h.max_seats or 8}",
        ]

    def write(self) -> list[str]:
        h = self.hand
        self.lines = [
            *self.head(),
            *(f"Seat {s.seat}: {s.player} ( {self.money(s.stack)} )" for s in h.seats),
        ]
        if h.is_tournament:
            self.lines += [
                f"Trny:{h.tournament_id} Level:{_level(h.level or '1')}",
                self.stakes_antes(),
            ]
        self.body()
        return self.lines

    # ------------------------------------------------------------------ events
    def body(self) -> None:
        events = self.hand.events
        end = next((i for i, e in enumerate(events) if isinstance(e, _END)), len(events))
        for e in events[:end]:
            self.before_event(e)
            self.emit(self.event(e))
        tail = events[end:]
        shows = [e for e in tail if isinstance(e, Show | Muck)]
        for i, e in enumerate(shows):
            if isinstance(e, Show) and any(
                isinstance(x, Muck) and x.player == e.player and not x.declined for x in shows[i:]
            ):
                self.emit(self.exposed(e.player, e.cards, e.description))
            elif isinstance(e, Show):
                self.emit(self.show(e))
            elif e.player not in self.shown:
                self.emit(self.muck(e))
        for e in tail:
            if isinstance(e, Collect):
                self.emit(self.collect(e))
        for player, pot, amount in self.extra:  # left: a pot of their own, or one not won
            self.emit(self.win(player, amount, PotKind.SIDE if pot else PotKind.MAIN, pot))
        for e in tail:
            if not isinstance(e, Show | Muck | Collect):
                self.emit(self.event(e))

    def before_event(self, e: Event) -> None:
        """The street's first actor opens (R), before their first action."""
        if isinstance(e, Action) and e.kind is not ActionKind.ANTE and not self.opened:
            self.opened = True
            if not self.own_opens:
                self.emit(f"{e.player} opens")

    def street_start(self, e: StreetStart) -> str | None:
        self.street, self.street_in, self.wagers, self.top = e.street, {}, 0, 0
        self.opened = False
        head = _STREETS[e.street]
        return f"{head} [ {e.community} ]" if e.community is not None else head

    def deal(self, e: Deal) -> str | None:
        if e.player != self.hand.hero or any(c is None for c in e.cards):
            return None  # Party writes the hero's cards only
        return f"Dealt to {e.player} [  {self.cards(e.cards)} ]"

    def action(self, a: Action) -> str:
        k, p, m = a.kind, a.player, self.money
        if k is ActionKind.ANTE:
            return f"{p} posts ante [{m(a.amount)}]"
        if k is ActionKind.CHECK or k is ActionKind.FOLD:
            return f"{p} {'checks' if k is ActionKind.CHECK else 'folds'}"
        before = self.street_in.get(p, 0)
        if k in _WAGERS and (a.to_amount is not None or k is not ActionKind.BET):
            to = a.to_amount
            if to is None:
                to = self.top + a.amount if k is ActionKind.RAISE else before + a.amount
        else:
            to = before + a.amount
        add, top, first = to - before, self.top, self.wagers == 0
        self.street_in[p], self.top = to, max(self.top, to)
        third = self.street is Street.THIRD
        if k in _WAGERS:
            self.wagers += 1
        if a.all_in and not (k in _WAGERS and third and not top and to < self.hand.small_bet):
            return f"{p} is all-In  [{m(add)}]"
        if k is ActionKind.BRING_IN:
            return f"{p} bring-ins [{m(add)}]"
        if k is ActionKind.CALL:
            return f"{p} calls [{m(add)}]"
        if third and first:
            return f"{p} completes [{m(add)}]"
        if first:
            h = self.hand
            big = self.street is Street.FOURTH and add == h.big_bet != h.small_bet
            return f"{p} {'double bets' if big else 'bets'} [{m(add)}]"
        return f"{p} raises [{m(add)}]"

    def uncalled(self, e: UncalledBet) -> str | None:
        return None  # the bettor wins the chips (see `unmatched`)

    def words(self, cards: tuple[Card, ...] | None, own: str | None) -> str:
        """A hand in Party's words: the hand's own when it was read from Party, else
        `PartyPoker.describe`'s (none where Party's words are not known)."""
        from histkit.dialects.partypoker import PartyPoker

        if own and self.hand.site == "partypoker":
            return own
        if not cards:
            return ""
        plays = cards if self.community is None else (*cards, self.community)
        return PartyPoker.describe(self.hand.game, plays) or ""

    def show(self, e: Show) -> str | None:
        words = self.words(e.cards, e.description)
        return f"{e.player} shows [ {', '.join(map(str, e.cards))} ]{words}."

    def exposed(self, player: str, cards: tuple[Card, ...], own: str | None) -> str:
        return f"{player} doesn't show [ {', '.join(map(str, cards))} ]{self.words(cards, own)}."

    def muck(self, e: Muck) -> str | None:
        cards = self.mucked.get(e.player)
        if cards and not e.declined:
            return self.exposed(e.player, cards, None)
        return f"{e.player} does not show cards."

    def collect(self, e: Collect) -> str | None:
        index = e.pot_index if e.pot is PotKind.SIDE else 0
        mine = [t for t in self.extra if t[0] == e.player and t[1] == index]
        self.extra = [t for t in self.extra if t not in mine]
        return self.win(e.player, e.amount + sum(t[2] for t in mine), e.pot, e.pot_index)

    def win(self, player: str, amount: int, pot: PotKind, index: int) -> str:
        h = self.hand
        text = f"{player} wins {self.money(amount)}" + (" chips" if h.unit is Unit.CHIP else "")
        if not self.showdown_hand and pot is PotKind.POT:
            return text
        text += f" from the side pot #{index or 1}" if pot is PotKind.SIDE else " from the main pot"
        words = self.words(self.shown.get(player), None)
        return f"{text} with {words}." if words else text

    def no_low(self, e: NoLowHand) -> str | None:
        return "There was no qualifying low hand"

    def note(self, e: TableNote) -> str | None:
        if self.hand.site == "partypoker" and e.kind is not NoteKind.GARBLED:
            return e.text  # the line as read
        form = _NOTES.get(e.kind)
        if form is not None and e.player:
            return form.format(e.player)
        place = _PLACE.search(e.text) if e.kind is NoteKind.FINISHED else None
        return f"{e.player} finished in {place[1]} place." if place and e.player else None

    # ---------------------------------------------------------------- uncalled
    def unmatched(self) -> list[tuple[str, int, int]]:
        """Each uncalled bet as the text carries it, (player, pot index, chips): in the
        deepest pot when its bettor alone may win it (everyone else folded), which their
        collect from that pot takes, else a side pot of its own after the hand's pots, as
        the audit counts a bet no line returns. One no collect takes gets a line of its own."""
        returned = [(e.player, e.amount) for e in self.hand.events if isinstance(e, UncalledBet)]
        if not returned:
            return []
        from histkit.dialects.partypoker import PARTYPOKER
        from histkit.rules import replay

        pots = replay(self.hand, PARTYPOKER).pots
        out = []
        n = len(pots)
        for player, amount in returned:
            if pots and pots[-1].eligible == (player,):
                out.append((player, pots[-1].index, amount))
            else:
                out.append((player, n, amount))
                n += 1
        return out


def write_hand(hand: Hand, *, newline: str = "\n") -> str:
    return PartyPokerWriter.write_hand(hand, newline=newline)


def write_hands(hands: Iterable[Hand], *, newline: str = "\n") -> str:
    return PartyPokerWriter.write_hands(hands, newline=newline)
