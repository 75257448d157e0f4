"""Full Tilt Poker writer: `Hand` -> text, the other half of the Full Tilt dialect.

Every line is written in the form the 2010-2013 Full Tilt client used (the real files in
the shared corpus; see `histkit.dialects.fulltilt` for which forms are seen there and which
come from knowledge of the site). The writer prints what the `Hand` holds and invents no
card or action. Lines the model does not keep are placed by the site's rule:

- `X is low with [3c]` (razz: `is high with`) right after the 3rd-street deals, naming the
  player whose bring-in follows and that player's up card;
- `*** SHOW DOWN ***` before the first show after the last street began, unless cards were
  shown earlier (an all-in exposure: the client then prints no showdown line);
- `, mucked` after a summary's `collected (X)` when the player mucked in the hand;
- which half of a hi/lo pot a collect is: the model keeps no half, so the collect lines of
  one pot are read as the site writes them (high winners first, then low winners) and the
  split found from the collectors' shown cards (see `_halves`).

Choices, because the model or the site leaves them open:
- a hand read from Full Tilt (`site == "fulltilt"`) keeps its own hand descriptions and note
  lines word for word; a hand from elsewhere (the simulator, another site) gets Full Tilt's
  words: descriptions from the shown cards (`describe_words`), notes by kind ("sits down",
  "stands up", ...);
- "(didn't bet)" is never written (Full Tilt does not), nor a summary's "(partial)" marker;
- "Ante X" in the header is the hand's `ante`, else the largest ante posted;
- a tournament's title (`buy_in`, which holds Full Tilt's whole title) defaults to
  "Tournament" when the hand has none; the table attribute "(N max)" is written only for
  tables other than 8 seats (Full Tilt's stud tables are 8-max unless the name says so);
- amounts: "$0.50", "$3" (whole dollars lose the cents), chips and dollars with thousands
  separators ("12,245"), as the real files write them.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import datetime

from histkit.accounting import street_contributions
from histkit.cards import Card
from histkit.dialects.words import fulltilt_describe as describe_words
from histkit.dialects.words import fulltilt_high as high_words
from histkit.dialects.words import fulltilt_low as low_words
from histkit.dialects.writer import ET, TextWriter
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
    NoteKind,
    PotKind,
    SeatResult,
    Show,
    Street,
    StreetStart,
    TableNote,
)

__all__ = [
    "ERAS",
    "GAME_NAMES",
    "FullTilt2006Writer",
    "FullTilt2012Writer",
    "FullTiltWriter",
    "describe_words",
    "format_amount",
    "high_words",
    "low_words",
    "shown_order",
    "write_hand",
    "write_hands",
]

GAME_NAMES: dict[Game, str] = {
    Game.STUD: "Limit Stud Hi",
    Game.STUD_HILO: "Limit Stud H/L",
    Game.RAZZ: "Limit Razz",
}
_FTP_DATE = re.compile(r"\d{1,2}:\d{2}(?::\d{2})? [A-Z]{1,5} - ")
_ORDINAL = re.compile(r"\d+(?:st|nd|rd|th)")


def shown_order(game: Game, cards: tuple[Card, ...]) -> tuple[Card, ...]:
    """A shown hand as Full Tilt lists it: the two down cards sorted, highest first
    (11111112961: dealt [9h 9s], shown [9s 9h ...]), razz lowest first with the ace low
    (28333847000: [5d 6s 2s], [As 7c Kc]); the other cards in the order dealt."""
    if len(cards) < 2:
        return cards
    if game is Game.RAZZ:
        down = sorted(cards[:2], key=lambda c: (c.rank.low, -c.suit))
    else:
        down = sorted(cards[:2], key=lambda c: (-c.rank, -c.suit))
    return (*down, *cards[2:])


class FullTiltWriter(TextWriter):
    """Full Tilt's words; tracks the street's wagers to word completions and raises."""

    game_names = GAME_NAMES
    street_headers = {s: f"*** {s.value}{'RD' if s == 3 else 'TH'} STREET ***" for s in Street}
    fold_streets = {s: f"{s.value}{'rd' if s == 3 else 'th'} St." for s in Street}
    thousands = True
    own_date = _FTP_DATE
    zone = ET
    no_date = "neither a Full Tilt date nor started_at"
    sitting_out = ", is sitting out"
    action_words = {
        **TextWriter.action_words,
        ActionKind.ANTE: "antes {}",
        ActionKind.BRING_IN: "brings in for {}",
    }
    wager_kinds = frozenset({ActionKind.BET, ActionKind.RAISE, ActionKind.COMPLETE})
    all_in = ", and is all in"
    uncalled_form = "Uncalled bet of {amount} returned to {player}"
    declined_words = "mucks"
    board_form = "Board: [{}]"
    blank_lines = 3

    def __init__(self, hand: Hand) -> None:
        super().__init__(hand)
        self.own = hand.site == "fulltilt"  # keep its own descriptions and note lines
        self.current = 0  # the street's highest total (the bet to call)
        self.shown: dict[str, Show] = {}
        self.mucked = {e.player for e in hand.events if isinstance(e, Muck)}
        self.community = next(
            (e.community for e in hand.events if isinstance(e, StreetStart) and e.community),
            None,
        )
        self.halves = _halves(hand, self.community)
        self.low_line = self.bring_in_card_line()
        self.last_street = max(
            (i for i, e in enumerate(hand.events) if isinstance(e, StreetStart)), default=-1
        )
        # cards shown before the last street (an all-in exposure): no showdown line
        self.showdown = any(isinstance(e, Show) for e in hand.events[: self.last_street])

    # ------------------------------------------------------------------ header
    def head(self) -> list[str]:
        return [self.header()]

    def header(self) -> str:
        h = self.hand
        title = f"{h.buy_in or 'Tournament'} ({h.tournament_id}), " if h.is_tournament else ""
        attrs = f" ({h.max_seats} max)" if h.max_seats not in (None, 8) else ""
        stakes = self.stakes()
        ante = self.ante()
        if ante:
            stakes += f" Ante {self.money(ante)}"
        mix = f"{h.mix} - " if h.mix else ""
        return (
            f"Full Tilt Poker Game #{h.hand_id}: {title}Table {h.table}{attrs} - {stakes} - "
            f"{mix}{self.game_names[h.game]} - {self.date_text()}"
        )

    def clock(self, t: datetime) -> str:
        return f"{t:%H:%M:%S} ET - {t:%Y/%m/%d}"

    # ------------------------------------------------------------------ events
    def opens_showdown(self, i: int, e: Event) -> bool:
        """The first show after the last street began."""
        return i > self.last_street and isinstance(e, Show)

    def after(self, i: int, e: Event) -> None:
        """`X is low with [3c]` after the last of the 3rd-street deals."""
        events = self.hand.events
        if (
            self.low_line
            and isinstance(e, Deal)
            and e.street is Street.THIRD
            and not (
                i + 1 < len(events)
                and isinstance(events[i + 1], Deal)
                and events[i + 1].street is Street.THIRD  # type: ignore[union-attr]
            )
        ):
            self.lines.append(self.low_line)
            self.low_line = None

    def street_start(self, e: StreetStart) -> str | None:
        self.current = 0
        return super().street_start(e)

    def deal(self, e: Deal) -> str | None:
        if e.street is Street.THIRD:
            down, up = e.cards[:2], e.cards[2]
            if up is None:
                return None
            if down[0] is not None and down[1] is not None:
                return f"Dealt to {e.player} [{self.cards(down)}] [{up}]"
            return f"Dealt to {e.player} [{up}]"
        if e.cards[0] is None:
            return None  # the site writes no line for a card nobody saw
        if e.before:
            return f"Dealt to {e.player} [{self.cards(e.before)}] [{e.cards[0]}]"
        return f"Dealt to {e.player} [{e.cards[0]}]"

    def shown_cards(self, cards: tuple[Card, ...]) -> str:
        return self.cards(shown_order(self.hand.game, cards))

    def show(self, e: Show) -> str | None:
        self.shown[e.player] = e
        return super().show(e)

    def show_words(self, e: Show) -> str:
        desc = self.words(e.description, e.cards)
        return f" {desc}" if desc else ""

    def action(self, a: Action) -> str:
        text = super().action(a)
        if a.kind is ActionKind.BRING_IN or a.kind is ActionKind.CALL:
            self.put(a.player, self.street_in.get(a.player, 0) + a.amount)
        return text

    def wager(self, a: Action) -> str:
        """A bet, completion or raise, from the street's wagers so far."""
        m, k = self.money, a.kind
        before = self.street_in.get(a.player, 0)
        if a.to_amount is not None:
            to = a.to_amount
        elif k is ActionKind.RAISE:
            to = self.current + a.amount
        else:
            to = before + a.amount
        if self.street is Street.THIRD and self.wagers == 0:
            text = f"completes it to {m(to)}"
        elif k is ActionKind.BET or (k is ActionKind.COMPLETE and self.wagers == 0):
            text = f"bets {m(to - before)}"
        else:
            text = f"raises to {m(to)}"
        self.wagers += 1
        self.put(a.player, to)
        return text

    def put(self, player: str, total: int) -> None:
        self.street_in[player] = total
        self.current = max(self.current, total)

    def collect(self, e: Collect) -> str:
        half, tied = self.halves.get(id(e), (None, False))
        pot = self.pot_name(e)
        # "the pot", "the side pot", "side pot #2"; halves: "the high pot", "the low side pot #2"
        if half is not None:
            pot = f"the {half} {pot}"
        elif "#" not in pot:
            pot = f"the {pot}"
        verb = "ties for" if tied else "wins"
        text = f"{e.player} {verb} {pot} ({self.money(e.amount)})"
        desc = self.win_words(e.player, half)
        return f"{text} with {desc}" if desc else text

    def side_pot_name(self, index: int, count: int) -> str:
        """A lone side pot is "side pot", else "side pot #2"."""
        return "side pot" if count <= 1 else f"side pot #{index}"

    def win_words(self, player: str, half: str | None) -> str | None:
        """What a collect line says the winner won with: the shown hand's words, the
        high or low part of them for a half of a hi/lo pot."""
        show = self.shown.get(player)
        if show is None:
            return None
        game = self.hand.game
        if game is not Game.STUD_HILO:
            return self.words(show.description, show.cards)
        words = self.words(show.description, show.cards)
        high, sep, low = (words or "").partition(", for high and ")
        if half == "low":
            if sep:
                return low.removesuffix(", for low")
            cards = self.plays(show.cards)
            return low_words(game, cards) if len(cards) >= 5 else None
        return high or None

    def words(self, own: str | None, cards: tuple[Card, ...]) -> str | None:
        """A shown hand's words: its own when read from Full Tilt, else Full Tilt's words
        for the cards it plays (the community card of a short deck included)."""
        if self.own:
            return own
        return describe_words(self.hand.game, self.plays(cards)) or own

    def plays(self, cards: tuple[Card, ...]) -> tuple[Card, ...]:
        """The cards a shown hand plays: with the community card of a short deck."""
        if self.community is not None and len(cards) == 6:
            return (*cards, self.community)
        return cards

    def note(self, e: TableNote) -> str:
        k, p = e.kind, e.player
        if k is NoteKind.CHAT:
            return f"{p}: {e.text}"
        if self.own or k is NoteKind.OTHER or p is None:
            return e.text
        if k is NoteKind.FINISHED:
            place = _ORDINAL.search(e.text)
            return f"{p} finished in {place[0]} place" if place else f"{p} stands up"
        return f"{p} {_NOTE_WORDS.get(k, 'stands up')}"

    # ----------------------------------------------------------------- summary
    def described(self, r: SeatResult) -> str | None:
        return self.words(r.description, r.cards) if r.cards else r.description

    def result_mucked(self, r: SeatResult) -> str:
        desc = self.described(r)
        return super().result_mucked(r) + (f" - {desc}" if desc else "")

    def result_collected(self, r: SeatResult) -> str:
        mucked = ", mucked" if r.player in self.mucked else ""
        return super().result_collected(r) + mucked

    def bring_in_card_line(self) -> str | None:
        """`X is low with [3c]` for the player who brings in (razz: `is high with`)."""
        h = self.hand
        who = next((a.player for a in h.actions() if a.kind is ActionKind.BRING_IN), None)
        if who is None:
            return None
        up = next(
            (
                e.cards[2]
                for e in h.events
                if isinstance(e, Deal) and e.street is Street.THIRD and e.player == who
            ),
            None,
        )
        if up is None:
            return None
        which = "high" if h.game is Game.RAZZ else "low"
        return f"{who} is {which} with [{up}]"


_NOTE_WORDS = {
    NoteKind.JOIN: "sits down",
    NoteKind.LEAVE: "stands up",
    NoteKind.REMOVED: "stands up",
    NoteKind.SIT_OUT: "is sitting out",
    NoteKind.RETURN: "has returned",
    NoteKind.TIMED_OUT: "has timed out",
    NoteKind.DISCONNECT: "is disconnected",
    NoteKind.CONNECT: "is connected",
}


def _halves(hand: Hand, community: Card | None) -> dict[int, tuple[str | None, bool]]:
    """id(collect) -> (its half: "high", "low" or None for a whole pot, whether the half
    is shared). The model keeps no half, so a hi/lo pot's collect lines are split as the
    sites print them: the high winners first (each once, all with the best high among
    the pot's collectors), then the low winners. A pot whose collectors all hold the best
    high is a whole pot (no qualifying low)."""
    groups: dict[tuple[PotKind, int], list[Collect]] = {}
    for e in hand.events:
        if isinstance(e, Collect):
            groups.setdefault((e.pot, e.pot_index), []).append(e)
    shown: dict[str, tuple[Card, ...]] = {}
    for e in hand.events:
        if isinstance(e, Show):
            shown[e.player] = (*e.cards, community) if community and len(e.cards) == 6 else e.cards
    out: dict[int, tuple[str | None, bool]] = {}
    for group in groups.values():
        high_count = len(group)
        if hand.game is Game.STUD_HILO and all(len(shown.get(c.player, ())) >= 5 for c in group):
            values = [high_value(shown[c.player]) for c in group]
            best = max(values)
            high_count = 0
            seen: set[str] = set()
            for c, v in zip(group, values, strict=True):
                if v != best or c.player in seen:
                    break
                seen.add(c.player)
                high_count += 1
        split = high_count < len(group)
        highs, lows = group[:high_count], group[high_count:]
        for part, half in ((highs, "high" if split else None), (lows, "low")):
            tied = len({c.player for c in part}) > 1
            for c in part:
                out[id(c)] = (half, tied)
    return out


format_amount = FullTiltWriter.format_amount


class FullTilt2006Writer(FullTiltWriter):
    """The era `2006-2007`: the first client's date, hours and minutes with a weekday and
    a month name, `21:05 ET - Thursday, October 4, 2007` (K: FPDB's "short-lived date
    format"); the seconds of the start are not written, so they are lost."""

    def date_text(self) -> str:
        t = self.hand.started_at
        if t is None:
            return super().date_text()
        t = t.astimezone(self.zone)
        return f"{t:%H:%M} ET - {t:%A}, {t:%B} {t.day}, {t.year}"


class FullTilt2012Writer(FullTiltWriter):
    """The era `2012-2016`, the reopened site: every street marker carries the pot so far,
    the players still in and how many of them are all in, `*** 4TH STREET *** (Total Pot:
    1,050, 3 Players, 1 All-In)` (R, 2013-03); the game before the stakes, `Table Hagan -
    Limit Stud Hi - $3/$6 Ante $0.50 - ...` (K, from 2013-05); the time in ET alone."""

    def header(self) -> str:
        h = self.hand
        title = f"{h.buy_in or 'Tournament'} ({h.tournament_id}), " if h.is_tournament else ""
        attrs = f" ({h.max_seats} max)" if h.max_seats not in (None, 8) else ""
        ante = self.ante()
        stakes = self.stakes() + (f" Ante {self.money(ante)}" if ante else "")
        mix = f"{h.mix} - " if h.mix else ""
        return (
            f"Full Tilt Poker Game #{h.hand_id}: {title}Table {h.table}{attrs} - {mix}"
            f"{self.game_names[h.game]} - {stakes} - {self.date_text()}"
        )

    def date_text(self) -> str:
        t = self.hand.started_at
        return super().date_text() if t is None else self.clock(t.astimezone(self.zone))

    def street_start(self, e: StreetStart) -> str | None:
        line = super().street_start(e)
        return None if line is None else f"{line} ({self.street_pot(e)})"

    def street_pot(self, e: StreetStart) -> str:
        """`Total Pot: X, N Players[, M All-In]` before street `e`: what was put in so far
        (less bets returned), the players who have not folded, those of them all in."""
        h = self.hand
        before = h.events[: h.events.index(e)]
        pot = sum(street_contributions(replace(h, events=before)).values())
        acts = [a for a in before if isinstance(a, Action)]
        folded = {a.player for a in acts if a.kind is ActionKind.FOLD}
        playing = {s.player for s in h.seats if not s.sitting_out} - folded
        all_in = {a.player for a in acts if a.all_in} & playing
        text = f"Total Pot: {self.money(pot)}, {len(playing)} Players"
        return text + (f", {len(all_in)} All-In" if all_in else "")


# the eras the writer writes (`histkit.dialects.eras`, docs/sites/fulltilt.md), the default first
ERAS: dict[str, type[FullTiltWriter]] = {
    "2008-2011": FullTiltWriter,
    "2006-2007": FullTilt2006Writer,
    "2012-2016": FullTilt2012Writer,
}

write_hand = FullTiltWriter.write_hand
write_hands = FullTiltWriter.write_hands
