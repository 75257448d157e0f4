"""Merge Gaming Network's XML, written from a `Hand`: the simulator's output for the site
and the round-trip tests' input (`histkit.dialects.merge` reads it).

Written as the real files are (see the dialect's docstring; R/K there): a `<description>`
before each hand, then its `<game>`; no root, no declaration; a blank line after each hand.
Choices where the model and Merge's XML differ:
- the game's id is the hand id; `data` holds the table and, in a tournament, the
  tournament id (the model keeps no tournament name: the table stands in its place);
  `starttime` is the start in Merge's fixed UTC-5 (or the hand's own text when it is in
  Merge's form). With `max_seats` known, the 2013 form: `seats`, `version="2"`, "" for a
  card not seen; else the 2011 form with "null".
- a tournament's balances are after the antes, as Merge writes them; its `stakes` is
  "Limit" alone (the reader derives the bets from the play).
- timestamps are the start plus a second per event: the model keeps no times of actions.
- the bring-in player's completion is a BET in the BRING_IN round, other completions
  COMPLETE, all-in wagers ALL_IN with the chips they add; a RAISE the street total after it,
  or, in a hand that starts before 2010-09-08, what it adds (the era's form, K).
- an uncalled bet is a winner with `uncalled="true"` at a showdown; when all fold to it,
  the bettor's winnings include it (Merge writes no uncalled line there).
- a collect without a half is a whole pot ("n"); winners' `hand` is worded as Merge words
  hands (R: "Pair of Aces", "Two Pair Kings and Fours", "Three of a Kind Fours", "Queen
  High Straight", "Flush King High", "Ace High", lows "8-7-5-4-A"; K: full houses, quads,
  straight flushes); the hero's HOLE has no `hand` (the reader ignores it).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
from datetime import timedelta, timezone
from xml.sax.saxutils import quoteattr

from histkit.cards import Card
from histkit.dialects.words import MERGE_RAISE_TO_FROM
from histkit.evaluate import (
    HandCategory,
    best_high_five,
    best_low8_five,
    best_razz_five,
    high_category,
    high_value,
)
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

__all__ = ["MERGE_ZONE", "merge_words", "write_hand", "write_hands"]

MERGE_ZONE = timezone(timedelta(hours=-5))  # `starttime`'s zone (R)
A = ActionKind
_TYPES: Mapping[Game, str] = {Game.STUD: "7-Stud", Game.STUD_HILO: "7-Stud H/L8", Game.RAZZ: "Razz"}
_GAMETYPE: Mapping[Game, str] = {Game.STUD: "39", Game.STUD_HILO: "43", Game.RAZZ: "47"}
_LEG: Mapping[Game, str] = {Game.STUD: "41", Game.STUD_HILO: "45", Game.RAZZ: "49"}  # in a mix
_ROUNDS: Mapping[Street, str] = {
    Street.FOURTH: "FOURTH_STREET",
    Street.FIFTH: "FIFTH_STREET",
    Street.SIXTH: "SIXTH_STREET",
    Street.SEVENTH: "SEVENTH_STREET",
}
_HALF: Mapping[Half | None, str] = {Half.HIGH: "h", Half.LOW: "l"}
_WORDS = ("Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten", "Jack",
          "Queen", "King", "Ace")  # fmt: skip
_ONE = dict(zip(range(2, 15), _WORDS, strict=True))
_MANY = {r: "Sixes" if r == 6 else f"{n}s" for r, n in _ONE.items()}


def merge_words(game: Game, cards: Iterable[Card], half: str = "n") -> str:
    """A hand as Merge's `<winner hand=..>` words it; `half` "l": the low (razz: always)."""
    hand = tuple(cards)
    low = (
        best_razz_five(hand) if game is Game.RAZZ else best_low8_five(hand) if half == "l" else None
    )
    if low is not None:
        return "-".join(c.rank.char for c in low)
    five = best_high_five(hand)
    r = [int(c.rank) for c in five]
    return {
        HandCategory.HIGH_CARD: lambda: f"{_ONE[r[0]]} High",
        HandCategory.PAIR: lambda: f"Pair of {_MANY[r[0]]}",
        HandCategory.TWO_PAIR: lambda: f"Two Pair {_MANY[r[0]]} and {_MANY[r[2]]}",
        HandCategory.THREE_OF_A_KIND: lambda: f"Three of a Kind {_MANY[r[0]]}",
        HandCategory.STRAIGHT: lambda: f"{_ONE[r[0]]} High Straight",
        HandCategory.FLUSH: lambda: f"Flush {_ONE[r[0]]} High",
        HandCategory.FULL_HOUSE: lambda: f"Full House {_MANY[r[0]]} full of {_MANY[r[3]]}",
        HandCategory.FOUR_OF_A_KIND: lambda: f"Four of a Kind {_MANY[r[0]]}",
        HandCategory.STRAIGHT_FLUSH: lambda: f"{_ONE[r[0]]} High Straight Flush",
    }[high_category(high_value(five))]()


class MergeWriter:
    """One hand being written: rounds of `<event>`s then `<cards>`, as Merge orders them."""

    def __init__(self, hand: Hand) -> None:
        self.hand = hand
        self.v2 = hand.max_seats is not None
        self.tournament = hand.tournament_id is not None
        self.seat = {s.player: s.seat for s in hand.seats}
        self.lines: list[str] = []
        self.round: str | None = None
        self.events: list[str] = []
        self.cards: list[str] = []
        self.n_rounds = self.n_events = 0
        self.held: dict[str, list[Card | None]] = {}  # each player's cards so far
        self.street = Street.THIRD
        self.community = False
        self.street_in: dict[str, int] = {}
        self.top = self.wagers = 0
        self.folded: set[str] = set()
        self.dealt: set[str] = set()  # on this street
        self.raise_adds = False  # a RAISE gives what it adds (the 2008-2010 era; game_line)
        self.shown = {e.player: e.cards for e in hand.events if isinstance(e, Show)}
        self.start = int(hand.started_at.timestamp() * 1000) if hand.started_at else 0

    # -- pieces ------------------------------------------------------------------------
    def amount(self, x: int) -> str:
        return f"{x}.00" if self.hand.unit is Unit.CHIP else f"{x // 100}.{x % 100:02d}"

    @staticmethod
    def dollars(x: int) -> str:
        """The stakes' form: "$0.50", "$1"."""
        whole, cents = divmod(x, 100)
        return f"${whole}.{cents:02d}" if cents else f"${whole}"

    def card_line(self, kind: str, cards: Iterable[Card | None], player: str) -> None:
        hidden = "" if self.v2 else "null"
        text = ",".join(hidden if c is None else str(c) for c in cards)
        self.cards.append(f'\t\t<cards type="{kind}" cards="{text}" player="{self.seat[player]}"/>')

    def event(self, kind: str, player: str | None = None, amount: int | None = None) -> None:
        self.n_events += 1
        who = f' player="{self.seat[player]}"' if player is not None else ""
        much = f' amount="{self.amount(amount)}"' if amount is not None else ""
        self.events.append(
            f'\t\t<event sequence="{self.n_events}" type="{kind}" '
            f'timestamp="{self.start + 1000 * self.n_events}"{who}{much}/>'
        )

    def open(self, round_id: str) -> None:
        self.close()
        self.round = round_id

    def close(self) -> None:
        """The round's lines: its events, then its cards (with the lists Merge repeats:
        a folded hero's cards, a live player's 7th card nobody saw)."""
        if self.round is None:
            return
        if self.round == "SEVENTH_STREET" and not self.community:
            for p, held in self.held.items():
                if p not in self.folded and p not in self.dealt and len(held) == 6:
                    held.append(None)
                    self.card_line("DRAW_DRAWN_CARDS", held, p)
        hero = self.hand.hero
        if self.round in _ROUNDS.values() and hero in self.folded and hero not in self.dealt:
            self.card_line("HOLE", self.held[hero], hero)
        self.n_rounds += 1
        self.lines.append(f'\t<round id="{self.round}" sequence="{self.n_rounds}">')
        self.lines += self.events + self.cards
        self.lines.append("\t</round>")
        self.round, self.events, self.cards, self.dealt = None, [], [], set()

    # -- the hand ----------------------------------------------------------------------
    def write(self) -> list[str]:
        h = self.hand
        kind = (h.mix or _TYPES[h.game]) + (" Tournament" if self.tournament else "")
        stakes = f"Limit {self.dollars(h.small_bet)}/{self.dollars(h.big_bet)}"
        version = ' version="2"' if self.v2 else ""
        self.lines = [
            f'<description type={quoteattr(kind)} stakes="{"Limit" if self.tournament else stakes}"'
            f"{version}/>",
            self.game_line(),
            f'\t<players dealer="{(h.max_seats or 8) - 1}">',
        ]
        antes = {a.player: a.amount for a in h.actions() if a.kind is A.ANTE}
        for s in h.seats:
            balance = s.stack - (antes.get(s.player, 0) if self.tournament else 0)
            self.lines.append(
                f'\t\t<player seat="{s.seat}" nickname={quoteattr(s.player)} '
                f'balance="${self.amount(balance)}" dealtin="{str(not s.sitting_out).lower()}" />'
            )
        self.lines.append("\t</players>")
        self.open("BLINDS")
        for e in h.events:
            self.write_event(e)
        self.ending()
        self.lines.append("</game>")
        return self.lines

    def game_line(self) -> str:
        h = self.hand
        if h.local_time and len(h.local_time) == 14 and h.local_time.isdigit():
            start = h.local_time
        elif h.started_at is not None:
            start = f"{h.started_at.astimezone(MERGE_ZONE):%Y%m%d%H%M%S}"
        else:
            raise ValueError(f"hand {h.hand_id}: neither local_time nor started_at is set")
        self.raise_adds = start < MERGE_RAISE_TO_FROM  # the 2008-2010 era's RAISE (the reader's)
        ref = h.tournament_id if self.tournament else h.hand_id.partition("-")[0]
        data = f"{start[:8]}|{h.table}|{ref}|{h.hand_id}|{str(self.tournament).lower()}"
        code = f'77" multigametype="{_LEG[h.game]}' if h.mix else _GAMETYPE[h.game]
        seats = f' seats="{h.max_seats}"' if self.v2 else ""
        money = "false" if h.unit is Unit.CHIP and not self.tournament else "true"
        version = ' version="2"' if self.v2 else ""
        return (
            f'<game id={quoteattr(h.hand_id)} starttime="{start}" numholecards="7" '
            f'gametype="{code}"{seats} realmoney="{money}" data={quoteattr(data)}{version}>'
        )

    def write_event(self, e: Event) -> None:
        if isinstance(e, StreetStart):
            self.street, self.street_in, self.top, self.wagers = e.street, {}, 0, 0
            self.open("BRING_IN" if e.street is Street.THIRD else _ROUNDS[e.street])
            self.community = e.community is not None
            if e.community is not None:
                self.cards.append(f'\t\t<cards type="COMMUNITY" cards="{e.community}"/>')
        elif isinstance(e, Deal):
            held = self.held.setdefault(e.player, [])
            if len(e.before) == len(held):  # earlier cards seen since (after an all-in show)
                held[:] = [h if b is None else b for h, b in zip(held, e.before, strict=True)]
            held += e.cards
            self.dealt.add(e.player)
            self.card_line("HOLE" if e.player == self.hand.hero else "DRAW_DRAWN_CARDS", held,
                           e.player)  # fmt: skip
        elif isinstance(e, Action):
            self.action(e)
        elif isinstance(e, TableNote) and e.kind is NoteKind.CHAT and e.player is not None:
            self.n_events += 1
            self.events.append(
                f'\t\t<event sequence="{self.n_events}" type="CHAT" '
                f"player={quoteattr(e.player)} text={quoteattr(e.text)}/>"
            )

    def action(self, a: Action) -> None:
        k, p = a.kind, a.player
        if k is A.ANTE or k is A.CHECK or k is A.FOLD:
            self.event(k.value.upper(), p, a.amount if k is A.ANTE else None)
            if k is A.FOLD:
                self.folded.add(p)
            return
        before = self.street_in.get(p, 0)
        if k is A.BRING_IN or k is A.CALL:
            to = before + a.amount
        elif a.to_amount is not None:
            to = a.to_amount
        else:
            to = (self.top if k is A.RAISE else before) + a.amount
        self.street_in[p], self.top = to, max(self.top, to)
        if k is A.BRING_IN or k is A.CALL:
            self.event("ALL_IN" if a.all_in and k is A.CALL else k.value.upper(), p, to - before)
        elif self.round == "BRING_IN":  # the bring-in player completes (R)
            self.event("BET", p, to)
        elif a.all_in:
            self.event("ALL_IN", p, to - before)
        elif self.street is Street.THIRD and not self.wagers:
            self.event("COMPLETE", p, to)
        else:
            said = to - before if k is not A.BET and self.raise_adds else to
            self.event("BET" if k is A.BET else "RAISE", p, said)
        if k is not A.BRING_IN and k is not A.CALL:
            self.wagers += 1
        if self.round == "BRING_IN":
            self.open("THIRD_STREET")

    def ending(self) -> None:
        """The showdown round (shows, mucks and their cards) or the winner's MUCK when all
        folded, then the winners."""
        h = self.hand
        ev = h.events
        showdown = bool(self.shown) or any(isinstance(e, Muck) and not e.declined for e in ev)
        seats = h.summary.seats if h.summary else ()
        mucked = {r.player: r.cards for r in seats if r.outcome is SeatOutcome.MUCKED}
        if showdown:
            self.open("SHOWDOWN")
            for e in ev:
                if isinstance(e, Show) or (isinstance(e, Muck) and not e.declined):
                    self.event("SHOW" if isinstance(e, Show) else "MUCK", e.player)
                    cards = e.cards if isinstance(e, Show) else mucked.get(e.player, ())
                    if cards:
                        self.card_line(
                            "SHOWN" if isinstance(e, Show) else "MUCKED", cards, e.player
                        )
        self.open("END_OF_GAME" if showdown else "END_OF_FOLDED_GAME")
        collects = [e for e in ev if isinstance(e, Collect)]
        uncalled = [e for e in ev if isinstance(e, UncalledBet)]
        if not showdown:
            winners = list(dict.fromkeys(c.player for c in collects))
            for p in winners:
                self.event("MUCK", p)
            for u in [u for u in uncalled if u.player in winners]:  # paid with the pot (R)
                i = next(i for i, c in enumerate(collects) if c.player == u.player)
                collects[i] = dataclasses.replace(collects[i], amount=collects[i].amount + u.amount)
                uncalled.remove(u)
        for note in ev:
            if (
                isinstance(note, TableNote)
                and note.kind is NoteKind.FINISHED
                and note.player in self.seat
            ):
                self.event("PLAYER_OUT", note.player)
        pots = 1
        for c in collects:
            pot = 1 if c.pot is not PotKind.SIDE else (c.pot_index or 1) + 1
            pots = max(pots, pot)
            self.winner(c.player, c.amount, pot, _HALF.get(c.half, "n"))
        for u in uncalled:
            self.winner(u.player, u.amount, pots + 1, "n", uncalled=True)
        if not showdown:
            self.open("END_OF_GAME")
        self.close()

    def winner(
        self, player: str, amount: int, pot: int, half: str, *, uncalled: bool = False
    ) -> None:
        cards = self.shown.get(player, ())
        said = ""
        if len(cards) >= 5:
            said = f" hand={quoteattr(merge_words(self.hand.game, cards, half))}"
        self.events.append(
            f'\t\t<winner amount="{self.amount(amount)}" uncalled="{str(uncalled).lower()}" '
            f'potnumber="{pot}" player="{self.seat[player]}"{said} pottype="{half}"/>'
        )


def write_hand(hand: Hand, *, newline: str = "\n") -> str:
    """One hand as Merge writes it (its description, then its game element)."""
    return newline.join(MergeWriter(hand).write())


def write_hands(hands: Iterable[Hand], *, newline: str = "\n") -> str:
    """Hands one after the other, each followed by a blank line (R)."""
    return "".join(write_hand(h, newline=newline) + newline * 2 for h in hands)
