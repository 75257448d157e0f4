"""The one builder of constructed stud hands for tests, in two styles.

`HandBuilder` builds a hand event by event, as the rules tests state only what matters to
them: `HandBuilder().seat(1, "A", 100).antes(1).start(3).deal("A", "?? ?? 6c").act(...)`.

`build` writes a hand in one call, for the stats/plots/report tests: a compact way to write
constructed stud hands.

Each hand is written like a hand history in miniature, so a reader can count the
statistics by eye:

    build("h1", game="stud", seats="A:1:100 B:2:100 C:3:100", ante=1,
          cards={"A": "?? ?? 2c", "B": "Ah Kh Qh", "C": "?? ?? 9d"},
          streets={3: "A bring_in 2; B raise 2 4; C call 4; A fold",
                   4: "B bet 4; C fold"},
          uncalled=("B", 4), collects="B:11", rake=0)

Actions are `PLAYER KIND [AMOUNT [TO]] [allin]`; `allin` on an ante is written in
`ante_allin`. Only the 3rd-street cards are dealt explicitly (later cards don't matter
to the statistics); `shows` names players who show at the end.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from histkit.cards import Card, parse_card
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
    PotKind,
    Seat,
    SeatOutcome,
    SeatResult,
    Show,
    SourceRef,
    Street,
    StreetStart,
    Summary,
    UncalledBet,
    Unit,
)

_T0 = datetime(2026, 1, 1, 12, 0, tzinfo=UTC)


_KINDS = {k.value: k for k in ActionKind}


def cards(text: str) -> tuple[Card | None, ...]:
    """'?? ?? 6c' -> (None, None, 6c)."""
    return tuple(None if t == "??" else parse_card(t) for t in text.split())


class HandBuilder:
    """A hand built event by event (the rules tests' style); `build` below is the compact
    style, written with it."""

    def __init__(
        self,
        game: Game = Game.STUD_HILO,
        small: int = 4,
        big: int = 8,
        unit: Unit = Unit.CENT,
        hand_id: str = "T1",
        table: str = "Test",
        tournament_id: str | None = None,
        started_at: datetime | None = None,
        currency: str | None = "",
        hero: str | None = None,
    ) -> None:
        self.game, self.small, self.big, self.unit = game, small, big, unit
        self.hand_id, self.table, self.tournament_id = hand_id, table, tournament_id
        self.started_at = started_at or datetime(2024, 1, 1, tzinfo=UTC)
        # "": dollars for a hand in cents, none for chips
        self.currency = ("USD" if unit is Unit.CENT else None) if currency == "" else currency
        self.hero = hero
        self.seats: list[Seat] = []
        self.events: list[Event] = []
        self.street = Street.THIRD
        self.line = 1
        self._summary: Summary | None = None

    def _l(self) -> int:
        self.line += 1
        return self.line

    def seat(self, n: int, player: str, stack: int, sitting_out: bool = False) -> HandBuilder:
        self.seats.append(Seat(n, player, stack, sitting_out, self._l()))
        return self

    def antes(self, amount: int, all_in: tuple[str, ...] = ()) -> HandBuilder:
        for s in self.seats:
            amt = min(amount, s.stack)
            self.act(s.player, "ante", amt, all_in=s.player in all_in or amt == s.stack)
        return self

    def start(self, street: int, community: str | None = None) -> HandBuilder:
        self.street = Street(street)
        comm = parse_card(community) if community else None
        self.events.append(StreetStart(self.street, comm, self._l()))
        return self

    def deal(self, player: str, text: str, before: str = "") -> HandBuilder:
        cs = cards(text)
        if self.street == Street.THIRD:
            up = (False, False, True)[-len(cs) :]
        else:
            up = (self.street != Street.SEVENTH,) * len(cs)
        bef = tuple(c for c in cards(before) if c is not None)
        self.events.append(Deal(self.street, player, cs, up, bef, self._l()))
        return self

    def deals(self, **ups: str) -> HandBuilder:
        for p, text in ups.items():
            self.deal(p, text)
        return self

    def act(
        self, player: str, kind: str, amount: int = 0, to: int | None = None, all_in: bool = False
    ) -> HandBuilder:
        self.events.append(Action(self.street, player, _KINDS[kind], amount, to, all_in, self._l()))
        return self

    def uncalled(self, player: str, amount: int) -> HandBuilder:
        self.events.append(UncalledBet(player, amount, self.street, self._l()))
        return self

    def show(self, player: str, text: str) -> HandBuilder:
        self.events.append(Show(player, tuple(c for c in cards(text) if c), None, self._l()))
        return self

    def muck(self, player: str, declined: bool = False) -> HandBuilder:
        self.events.append(Muck(player, declined, self._l()))
        return self

    def collect(self, player: str, amount: int, pot: str = "pot", index: int = 0) -> HandBuilder:
        self.events.append(Collect(player, amount, PotKind(pot), index, self._l()))
        return self

    def no_low(self) -> HandBuilder:
        self.events.append(NoLowHand(self._l()))
        return self

    def summary(
        self,
        total: int,
        rake: int = 0,
        main: int | None = None,
        sides: tuple[int, ...] = (),
        results: tuple[SeatResult, ...] | None = None,
    ) -> HandBuilder:
        if results is None:
            won: dict[str, int] = {}
            for e in self.events:
                if isinstance(e, Collect):
                    won[e.player] = won.get(e.player, 0) + e.amount
            results = tuple(
                SeatResult(
                    s.seat,
                    s.player,
                    SeatOutcome.COLLECTED if s.player in won else SeatOutcome.OTHER,
                    won.get(s.player, 0),
                )
                for s in self.seats
            )
        self._summary = Summary(total, rake, main, sides, (), results, self._l())
        return self

    def build(self) -> Hand:
        return Hand(
            site="pokerstars",
            hand_id=self.hand_id,
            game=self.game,
            small_bet=self.small,
            big_bet=self.big,
            unit=self.unit,
            currency=self.currency,
            started_at=self.started_at,
            table=self.table,
            max_seats=8,
            seats=tuple(self.seats),
            events=tuple(self.events),
            summary=self._summary,
            source=SourceRef("constructed", 1),
            tournament_id=self.tournament_id,
            hero=self.hero,
        )


def build(
    hand_id: str,
    *,
    seats: str,
    streets: dict[int, str],
    collects: str,
    game: str = "stud",
    ante: int = 1,
    cards: dict[str, str] | None = None,
    rake: int = 0,
    small_bet: int = 4,
    big_bet: int = 8,
    unit: Unit = Unit.CENT,
    currency: str | None = "USD",
    table: str = "Test I",
    minute: int = 0,
    shows: dict[str, str] | None = None,
    uncalled: tuple[str, int] | None = None,
    ante_allin: tuple[str, ...] = (),
    hero: str | None = None,
    sitting_out: tuple[str, ...] = (),
) -> Hand:
    """A hand in the compact style (module doc), built by `HandBuilder`."""
    b = HandBuilder(Game(game), small_bet, big_bet, unit, hand_id, table,
                    started_at=_T0 + timedelta(minutes=minute), currency=currency,
                    hero=hero)  # fmt: skip
    seat_list = []
    for spec in seats.split():
        name, no, stack = spec.split(":")
        b.seat(int(no), name, int(stack), sitting_out=name in sitting_out)
        seat_list.append((int(no), name))
    players = [s.player for s in b.seats if not s.sitting_out]
    for p in players:
        b.act(p, "ante", ante, all_in=p in ante_allin)
    dealt = cards or {}
    folded: dict[str, Street] = {}
    for st in sorted(streets):
        b.start(st)
        for p in players:
            if st == 3:
                b.deal(p, dealt[p])
            elif p not in folded:
                b.deal(p, "??")
        for text in filter(None, (t.strip() for t in streets[st].split(";"))):
            parts = text.split()
            allin = parts[-1] == "allin"
            if allin:
                parts = parts[:-1]
            p, kind = parts[0], parts[1]
            amount = int(parts[2]) if len(parts) > 2 else 0
            to = int(parts[3]) if len(parts) > 3 else None
            b.act(p, kind, amount, to, all_in=allin)
            if kind == "fold":
                folded[p] = Street(st)
    if uncalled:
        b.uncalled(*uncalled)
    shows = shows or {}
    for p, c in shows.items():
        b.show(p, c)
    won: dict[str, int] = {}
    for spec in collects.split():
        name, amt = spec.split(":")
        won[name] = won.get(name, 0) + int(amt)
        b.collect(name, int(amt))
    results = []
    for seat, p in seat_list:
        if p in folded:
            res = SeatResult(seat, p, SeatOutcome.FOLDED, folded_street=folded[p])
        elif p in shows:
            shown = tuple(parse_card(x) for x in shows[p].split())
            res = SeatResult(seat, p, SeatOutcome.SHOWED, won=won.get(p, 0), cards=shown)
        elif p in won:
            res = SeatResult(seat, p, SeatOutcome.COLLECTED, won=won[p])
        else:
            res = SeatResult(seat, p, SeatOutcome.OTHER)
        results.append(res)
    return b.summary(sum(won.values()) + rake, rake, results=tuple(results)).build()
