"""The one narrow interface between a site's line handlers and the data model.

A dialect's handlers read what each line says and report it here, one method per kind of
fact (a seat, an ante, a deal, a bet, a collect, a summary figure); the sink checks what is
the model's business (players against the seat list, one seat per name, the deal shapes of
each street) and builds the immutable `Hand`. Handlers never construct model objects, so
site knowledge stays in the dialects and the model knows no site; and a later consumer (the
rules engine reading the same stream without building objects) can stand in for this class.

Conventions every dialect follows when it reports (docs/architecture.md, "The sink"):
- amounts are integers in the hand's unit (cents for cash, chips for tournaments and play
  money), already converted by the dialect; never floats;
- a raise reports `to` (the player's street total after it) and, as `amount`, the raise
  over the current bet when the site writes it that way (PokerStars' "raises X to Y");
- `pot_total` gets everything the players put in (before rake) and what the house took
  (rake, and any fee such as a jackpot drop); a site that prints the pot after rake adds
  the rake back in its handler and says so in its docstring;
- cards nobody saw are None; the sink never invents a card or an action.

The sink also keeps the chips as the reported actions move them (`street_in`, `hand_in`,
`bet`, `left`, `folded`): a site that writes only part of an action ("calls X" as what it
adds, "raises to Y", an all-in without its kind) asks it what the line means, instead of
keeping a ledger of its own. Its answers follow the reports, so a dialect reports each
action before the next line asks.
"""

# CONTRACT v1

from __future__ import annotations

import sys
from datetime import datetime
from typing import Any, Final

from histkit.cards import Card
from histkit.dialects.fastpath import constructor
from histkit.model import (
    Action,
    ActionKind,
    BettingCapped,
    Collect,
    Deal,
    DoubleBetAllowed,
    Event,
    Game,
    Half,
    Hand,
    Muck,
    NoLowHand,
    NoteKind,
    PotKind,
    Seat,
    SeatOutcome,
    SeatResult,
    Show,
    SourceRef,
    Street,
    StreetStart,
    Summary,
    TableNote,
    UncalledBet,
    Unit,
)
from histkit.rules import betting
from histkit.rules.games import spec_for
from histkit.rules.speed import ANTE as _ANTE
from histkit.rules.speed import BRING_IN as _BRING_IN
from histkit.rules.speed import FOLD as _FOLD
from histkit.rules.speed import FOURTH as _FOURTH
from histkit.rules.speed import POT_SIDE as _SIDE
from histkit.rules.speed import SEVENTH as _SEVENTH
from histkit.rules.speed import THIRD as _THIRD

__all__ = ["MAX_AMOUNT", "MAX_SEAT", "FrameError", "HandError", "HandSink", "UP3", "clip_line"]


class HandError(ValueError):
    """A line the grammar accepted but whose content is wrong (unknown player, bad amount)."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.line = line


class FrameError(HandError):
    """The hand's frame is wrong (its header and seat list disagree), found on a later
    line: the hand cannot be read, however its other lines are (`recover.py`)."""


def clip_line(text: str, width: int = 100) -> str:
    """A line quoted for an error message, cut to `width` characters."""
    text = text.rstrip()
    return repr(text if len(text) <= width else text[: width - 3] + "...")


# the model's events built without the per-field object.__setattr__ (fastpath.constructor)
_ACTION = constructor(Action)
_DEAL = constructor(Deal)
_STREET_START = constructor(StreetStart)
_SEAT = constructor(Seat)
_SEAT_RESULT = constructor(SeatResult)
_UNCALLED = constructor(UncalledBet)
_COLLECT = constructor(Collect)
_SHOW = constructor(Show)
_MUCK = constructor(Muck)
_NOTE = constructor(TableNote)
_NO_LOW = constructor(NoLowHand)
_CAPPED = constructor(BettingCapped)
_DOUBLE_BET = constructor(DoubleBetAllowed)
_SUMMARY = constructor(Summary)
_SOURCE = constructor(SourceRef)
_HAND = constructor(Hand)

# the up/down pattern of a 3rd-street deal: two down, one up
UP3: Final = (False, False, True)

# The largest amount a hand may state, in minor units (10**13 dollars, or a quadrillion
# chips: no real hand comes near). The tables hold amounts as int64 (up to ~9.2 * 10**18),
# and they also hold sums of a hand's amounts (contributions, pots, net, ending stacks):
# with each amount at most 10**15, a hand's sums stay below 10**18 unless it states
# thousands of amounts, which `HandSink.build` then adds up (`_MANY`). A larger amount is
# a rejected hand at its line, never an overflow when the tables are built (issue 19).
MAX_AMOUNT: Final = 10**15
# Seat numbers, a table's seat count and side pot numbers go to int32 columns; any real
# one is a few units (seat 0 exists: iPoker), so anything above this is a misread.
MAX_SEAT: Final = 999
# Facts (events, seats, summary lines) a hand may have before `build` adds up its amounts:
# below this many, no sum of amounts of at most MAX_AMOUNT each (or of a site's
# running totals of them) can reach int64's range.
_MANY: Final = 500
_SUM_LIMIT: Final = 2**62  # half of int64's range: a margin for a difference of two sums


class HandSink:
    """Collects one hand's facts, in line order, and builds its `Hand`.

    `street` is the street of the last `street_start` (3rd until then): handlers read it
    when a line does not name its street. `players` maps each seated name to its seat."""

    __slots__ = (
        "site",
        "dialect",
        "source",
        "start_line",
        "street",
        "events",
        "seats",
        "seat_nos",
        "players",
        "names",
        "known_down",
        "hero",
        "head",
        "table_name",
        "max_seats",
        "results",
        "pot",
        "board",
        "summary_line",
        "street_in",
        "hand_in",
        "antes",
        "dealt_to",
        "bet",
        "folded",
        "ended",
        "started",
        "partial",
        "muck_cards",
        "shown",
    )

    def __init__(self, site: str, source: str, start_line: int, dialect: str | None = None) -> None:
        self.site = site
        self.dialect = dialect
        self.source = source
        self.start_line = start_line
        self.street = _THIRD
        self.events: list[Event] = []
        self.seats: list[Seat] = []
        self.seat_nos: set[int] = set()
        self.players: dict[str, Seat] = {}
        self.names: dict[str, str] = {}  # name as written -> the seat line's interned name
        # players whose 3rd-street deal shows their down cards: the hero when exactly one
        # (a tracker's export may show everyone's; then there is no single hero)
        self.known_down: list[str] = []
        self.hero: str | None = None  # set by a dialect whose site marks the hero
        self.head: dict[str, Any] = {}
        self.table_name = ""
        self.max_seats: int | None = None
        self.results: list[SeatResult] = []
        self.pot: tuple[int, int, int | None, tuple[int, ...], int] | None = None
        self.board: tuple[Card, ...] = ()
        self.summary_line = 0
        # the chips as the reported actions move them (see the module's docstring)
        self.street_in: dict[str, int] = {}  # this street's total, per player (no antes)
        self.hand_in: dict[str, int] = {}  # the hand's total, antes in, returns out
        self.antes: dict[str, int] = {}  # the antes in `hand_in`
        self.dealt_to: dict[str, None] = {}  # the players dealt a card, in deal order
        self.bet = 0  # the street's highest total: the bet a raise is measured from
        self.folded: dict[str, Street] = {}  # who folded, on which street
        # the bet nobody matched when the last street with one ended: (player, chips,
        # street, the index in `events` where that street ended)
        self.ended: tuple[str, int, Street, int] | None = None
        self.started = False  # a street has started (a site without a 3rd-street line)
        self.partial: dict[str, list[Card | None]] = {}  # 3rd-street cards one a line
        self.muck_cards: dict[str, tuple[Card, ...]] = {}  # the cards a muck line names
        self.shown: dict[str, bool] = {}  # who showed (True) or mucked (False) a hand

    # -- header and seats ------------------------------------------------------------

    def header(
        self,
        *,
        hand_id: str,
        game: Game,
        small_bet: int,
        big_bet: int,
        unit: Unit,
        currency: str | None,
        started_at: datetime | None,
        local_time: str | None,
        tournament_id: str | None = None,
        level: str | None = None,
        buy_in: str | None = None,
        mix: str | None = None,
        ante: int | None = None,
        bring_in: int | None = None,
        table: str | None = None,
        max_seats: int | None = None,
        table_hand: int | None = None,
    ) -> None:
        """What the hand's header says (`ante`/`bring_in` only when the site states them;
        `table_hand` the table's own count of its hands, where the site writes one). Facts
        `amend` gave before it that it does not name are kept."""
        self.head = {
            **self.head,
            "hand_id": hand_id,
            "game": game,
            "small_bet": small_bet,
            "big_bet": big_bet,
            "unit": unit,
            "currency": currency,
            "started_at": started_at,
            "local_time": local_time,
            "tournament_id": tournament_id,
            "level": level,
            "buy_in": buy_in,
            "mix": mix,
            "ante": ante,
            "bring_in": bring_in,
            "table_hand": table_hand,
        }
        if table is not None:
            self.table_name = table
        if max_seats is not None:
            self.max_seats = _seat_count(max_seats, self.start_line)

    def amend(self, **facts: object) -> None:
        """Header facts a line other than the header gives (a site that spreads its header
        over several lines: the hand id before the stakes, a mix or a tournament id after
        them, stakes settled at the summary): they replace what `header` said. A fact the
        model has no field for (a count of players the seat lines are checked against) is
        the dialect's to read back."""
        self.head.update(facts)

    def table(self, name: str, max_seats: int | None, line: int | None = None) -> None:
        """The table's name and seat count (`line`: the line that says so, for an error)."""
        self.table_name = name
        if max_seats is not None:
            max_seats = _seat_count(max_seats, line or self.start_line)
        self.max_seats = max_seats

    def seat(self, no: int, player: str, stack: int, sitting_out: bool, line: int) -> None:
        if not 0 <= no <= MAX_SEAT:
            raise HandError(f"seat number {_num(no)} is out of range (0 to {MAX_SEAT})", line)
        if player in self.players or no in self.seat_nos:
            raise HandError(f"seat {no} ({player!r}) is listed twice", line)
        player = sys.intern(player)
        seat = _SEAT(no, player, stack, sitting_out, line)
        self.seats.append(seat)
        self.seat_nos.add(no)
        self.players[player] = seat
        self.names[player] = player

    def player(self, name: str, line: int) -> str:
        """The seated player's name (the seat line's string); HandError when not seated."""
        got = self.names.get(name)
        if got is None:
            raise HandError(f"player {name!r} is not seated at this table", line)
        return got

    def set_hero(self, name: str) -> None:
        """The site marks whose hand this is (else: the one player whose down cards show)."""
        self.hero = name

    # -- play --------------------------------------------------------------------------

    def street_start(self, street: Street, line: int, community: Card | None = None) -> None:
        if self.street_in:
            self._street_over()
            self.street_in = {}
            self.bet = 0
        self.street = street
        self.started = True
        self.events.append(_STREET_START(street, community, line))

    def _street_over(self) -> None:
        """A street's betting ends: remember any bet nobody matched (`ended`)."""
        got = self.unmatched()
        if got is not None:
            self.ended = (got[0], got[1], self.street, len(self.events))

    def deal(
        self,
        player: str,
        cards: tuple[Card | None, ...],
        up: tuple[bool, ...],
        before: tuple[Card | None, ...],
        line: int,
    ) -> None:
        """The cards one player gets on the current street (`up[i]`: card i face up);
        `before`: earlier cards the line repeats. On 3rd street: three cards, two down."""
        name = self.names.get(player)
        if name is None:
            raise HandError(f"player {player!r} is not seated at this table", line)
        street = self.street
        if street is _THIRD:
            if len(cards) != 3:
                raise HandError(f"a 3rd-street deal of {len(cards)} cards", line)
            if cards[0] is not None and cards[1] is not None:
                self.known_down.append(name)
        elif len(cards) != 1:
            raise HandError(f"a deal of {len(cards)} new cards on one street", line)
        self.dealt_to[name] = None
        self.events.append(_DEAL(street, name, cards, up, before, line))

    def deal_card(self, player: str, card: Card | None, line: int) -> None:
        """One card to one player, for a site that writes a line per card: 3rd street's
        three make one deal (reported with the third; `partial` holds the first two)."""
        if self.street is not _THIRD:
            self.deal(player, (card,), (self.street is not _SEVENTH,), (), line)
            return
        got = self.partial.setdefault(self.player(player, line), [])
        got.append(card)
        if len(got) == 3:
            self.deal(player, tuple(got), UP3, (), line)
        elif len(got) > 3:
            raise HandError(f"{player} gets a 4th card on 3rd street", line)

    def dealt_now(self, player: str) -> bool:
        """Whether `player` has been dealt a card on this street."""
        for e in reversed(self.events):
            if type(e) is StreetStart:
                return False
            if type(e) is Deal and e.player == player:
                return True
        return False

    def action(
        self,
        kind: ActionKind,
        player: str,
        amount: int,
        to: int | None,
        all_in: bool,
        line: int,
    ) -> None:
        """An ante, bring-in, bet, completion, raise, call, check or fold (`to`: the
        street total after a raise or completion; else `amount` is what it adds)."""
        name = self.names.get(player)
        if name is None:
            raise HandError(f"player {player!r} is not seated at this table", line)
        self.events.append(_ACTION(self.street, name, kind, amount, to, all_in, line))
        hand_in = self.hand_in
        if kind is _ANTE:
            hand_in[name] = hand_in.get(name, 0) + amount
            self.antes[name] = self.antes.get(name, 0) + amount
            return
        street_in = self.street_in
        before = street_in.get(name, 0)
        total = to if to is not None else before + amount
        street_in[name] = total
        if total != before:
            hand_in[name] = hand_in.get(name, 0) + total - before
            if total > self.bet:
                self.bet = total
        elif kind is _FOLD:
            self.folded[name] = self.street

    def current_bet(self) -> int:
        """The street's highest total so far, as reported (the bet a raise is measured
        from, for a site that writes only "raises to Y")."""
        return self.bet

    def put_in(self, player: str) -> int:
        """What `player` has in on this street so far (antes not counted)."""
        return self.street_in.get(player, 0)

    def earlier(self, player: str) -> int:
        """What `player` put in on the streets before this one (antes not counted)."""
        return self.hand_in.get(player, 0) - self.antes.get(player, 0) - self.put_in(player)

    def left(self, player: str) -> int:
        """What is left of `player`'s stack: the seat's stack less what they have in the
        hand (returns given back)."""
        return self.players[player].stack - self.hand_in.get(player, 0)

    def live(self) -> list[str]:
        """The players in the hand who have not folded, in seat-list order: those dealt a
        card or who put chips in (before anyone did: everyone seated)."""
        ins = set(self.hand_in)
        ins.update(self.dealt_to)
        folded = self.folded
        return [
            s.player for s in self.seats if (not ins or s.player in ins) and s.player not in folded
        ]

    def dealt(self, player: str) -> tuple[Card | None, ...]:
        """The cards dealt to `player` so far, in the order dealt (None: not seen)."""
        return tuple(
            c for e in self.events if type(e) is Deal and e.player == player for c in e.cards
        )

    def brought_in(self) -> int | None:
        """The bring-in as reported (the first), None before one."""
        for e in self.events:
            if type(e) is Action and e.kind is _BRING_IN:
                return e.amount
        return None

    def community(self) -> tuple[Card, ...]:
        """The community cards so far (the deck ran out: one card for everyone on 7th)."""
        return tuple(e.community for e in self.events if type(e) is StreetStart and e.community)

    def unmatched(self) -> tuple[str, int] | None:
        """This street's bet nobody matched: (its bettor, the chips over the next total),
        else None (`betting.excess`, the engine's own count)."""
        totals = self.street_in
        got = betting.excess(list(totals.values()))
        return None if got is None else (list(totals)[got[0]], got[1])

    def open_pair(self) -> bool:
        """Whether a 4th-street board (the two up cards of each player dealt one) shows an
        open pair or may, in a game where it allows the big bet (`betting.pair_showing`)."""
        game = self.head.get("game")
        if not isinstance(game, Game) or not spec_for(game).open_pair_double:
            return False
        ups: dict[str, list[Card | None]] = {}
        for e in self.events:
            if type(e) is Deal and e.street <= _FOURTH:
                ups.setdefault(e.player, []).extend(
                    c for c, u in zip(e.cards, e.up, strict=False) if u
                )
        return betting.pair_showing(u for u in ups.values() if len(u) >= 2)

    def street_bet(self, street: Street) -> int:
        """The header's small or big bet, the one `street` is played for."""
        return betting.street_bet(street, self.head["small_bet"], self.head["big_bet"])

    def uncalled(self, player: str, amount: int, line: int, at: int | None = None) -> None:
        """Chips returned to `player`, in the current street's place (`at`: the index in
        `events` where `ended` says the street ended, for a return read after it)."""
        name = self.player(player, line)
        street = self.street
        if at is None:
            self.events.append(_UNCALLED(name, amount, street, line))
        else:
            assert self.ended is not None
            street = self.ended[2]
            self.events.insert(at, _UNCALLED(name, amount, street, line))
        self.hand_in[name] = self.hand_in.get(name, 0) - amount
        street_in = self.street_in
        if at is None and name in street_in:
            street_in[name] -= amount
            self.bet = max(street_in.values())

    def won(self) -> dict[str, int]:
        """What each player collected so far, over every pot."""
        out: dict[str, int] = {}
        for e in self.events:
            if type(e) is Collect:
                out[e.player] = out.get(e.player, 0) + e.amount
        return out

    def paid(self) -> tuple[int | None, tuple[int, ...]]:
        """What the main pot and each side pot paid out, by the collects so far, where a
        collect names a side pot; else (None, ()): the summary's pots, derived."""
        pots: dict[int, int] = {}
        side = False
        for e in self.events:
            if type(e) is Collect:
                pots[e.pot_index] = pots.get(e.pot_index, 0) + e.amount
                side = side or e.pot is _SIDE
        if not side:
            return None, ()
        return pots.get(0, 0), tuple(pots.get(i, 0) for i in range(1, max(pots) + 1))

    def show(
        self, player: str, cards: tuple[Card, ...], description: str | None, line: int
    ) -> None:
        name = self.player(player, line)
        self.events.append(_SHOW(name, cards, description, line))
        self.shown[name] = True

    def muck(self, player: str, declined: bool, line: int, cards: tuple[Card, ...] = ()) -> None:
        """`declined`: the player did not show (a "doesn't show" line), else mucked;
        `cards`: what a muck line names (kept for the summary's seat line, `muck_cards`)."""
        name = self.player(player, line)
        self.events.append(_MUCK(name, declined, line))
        if not declined:
            self.shown.setdefault(name, False)
        if cards:
            self.muck_cards[name] = cards

    def collect(
        self,
        player: str,
        amount: int,
        pot: PotKind,
        index: int,
        line: int,
        half: Half | None = None,
    ) -> None:
        """Chips paid from a pot: PotKind.POT (the only pot), MAIN, SIDE `index` (1..), or
        TOTAL (the player's winnings over all pots); `half` when the site names it."""
        if not 0 <= index <= MAX_SEAT:
            raise HandError(f"side pot number {_num(index)} is out of range", line)
        self.events.append(_COLLECT(self.player(player, line), amount, pot, index, line, half))

    def no_low(self, line: int) -> None:
        self.events.append(_NO_LOW(line))

    def capped(self, line: int) -> None:
        self.events.append(_CAPPED(self.street, line))

    def double_bet(self, line: int) -> None:
        self.events.append(_DOUBLE_BET(self.street, line))

    def note(
        self, kind: NoteKind, player: str | None, text: str, line: int, reason: str | None = None
    ) -> None:
        """A line that is part of the record but not of the play (chat, joins, ...), or
        one the hand is read without (`reason`: why)."""
        self.events.append(_NOTE(kind, player, text, line, reason))

    # -- summary -----------------------------------------------------------------------

    def summary_start(self, line: int) -> None:
        if self.street_in:
            self._street_over()
        self.summary_line = line

    def pot_total(
        self,
        total: int,
        rake: int,
        main: int | None,
        sides: tuple[int, ...],
        line: int,
        fee: int = 0,
    ) -> None:
        """The summary's figures: `total` all the players put in (before rake), `rake`,
        the main and side pots when written (after rake), `fee` any other money the house
        takes from the pot (a jackpot drop)."""
        self.pot = (total, rake, main, sides, fee)
        if not self.summary_line:
            self.summary_line = line

    def board_cards(self, cards: tuple[Card, ...]) -> None:
        self.board = cards

    def result(
        self,
        seat: int,
        player: str,
        outcome: SeatOutcome,
        won: int,
        cards: tuple[Card, ...],
        description: str | None,
        folded_street: Street | None,
        didnt_bet: bool,
        line: int,
    ) -> None:
        """One seat's line in the summary (checked against the seat list)."""
        known = self.players.get(player)
        if known is None or known.seat != seat:
            raise HandError(f"summary names {player!r} at seat {seat}, not the seat list's", line)
        self.results.append(
            _SEAT_RESULT(
                seat,
                known.player,
                outcome,
                won,
                cards,
                description,
                folded_street,
                didnt_bet,
                line,
            )
        )

    # -- the hand ----------------------------------------------------------------------

    def _check_sums(self) -> None:
        """A hand of very many facts: its amounts, added up, must fit the tables' int64
        columns (every sum the tables hold is at most this one); else it is rejected at
        the line where the total goes over."""
        total = sum(abs(s.stack) for s in self.seats)
        for e in self.events:
            if isinstance(e, Action):
                total += abs(e.amount) + abs(e.to_amount or 0)
            elif isinstance(e, (Collect, UncalledBet)):
                total += abs(e.amount)
            else:
                continue
            if total > _SUM_LIMIT:
                raise HandError("the hand's amounts add up to more than the tables hold", e.line)
        total += sum(abs(r.won) for r in self.results)
        if self.pot is not None:
            pot_total, rake, main, sides, fee = self.pot
            total += abs(pot_total) + abs(rake) + abs(main or 0) + sum(map(abs, sides)) + abs(fee)
        if total > _SUM_LIMIT:
            raise HandError(
                "the hand's amounts add up to more than the tables hold",
                self.summary_line or self.start_line,
            )

    def build(self) -> Hand:
        h = self.head
        if "game" not in h:
            raise HandError("the hand has no header", self.start_line)
        if len(self.events) + len(self.seats) + len(self.results) > _MANY:
            self._check_sums()
        summary = None
        if self.pot is not None:
            total, rake, main, sides, fee = self.pot
            summary = _SUMMARY(
                total_pot=total,
                rake=rake,
                main_pot=main,
                side_pots=sides,
                board=self.board,
                seats=tuple(self.results),
                line=self.summary_line,
                fee=fee,
            )
        hero = self.hero
        if hero is None:
            seen = self.known_down
            if seen and seen.count(seen[0]) == len(seen):
                hero = seen[0]
        return _HAND(
            site=self.site,
            hand_id=h["hand_id"],
            game=h["game"],
            small_bet=h["small_bet"],
            big_bet=h["big_bet"],
            unit=h["unit"],
            currency=h["currency"],
            started_at=h["started_at"],
            table=self.table_name,
            max_seats=self.max_seats,
            seats=tuple(self.seats),
            events=tuple(self.events),
            summary=summary,
            source=_SOURCE(self.source, self.start_line),
            tournament_id=h["tournament_id"],
            level=h["level"],
            buy_in=h["buy_in"],
            mix=h["mix"],
            ante=h["ante"],
            bring_in=h["bring_in"],
            local_time=h["local_time"],
            hero=hero,
            table_hand=h["table_hand"],
            dialect=self.dialect,
        )


def _num(n: int) -> str:
    """A number for an error message, cut short when it is absurdly long."""
    text = str(n)
    return text if len(text) <= 24 else f"{text[:20]}... ({len(text)} digits)"


def _seat_count(n: int, line: int) -> int:
    """A table's seat count, checked: it goes to an int32 column."""
    if not 0 <= n <= MAX_SEAT:
        raise HandError(f"a table of {_num(n)} seats is out of range (at most {MAX_SEAT})", line)
    return n
