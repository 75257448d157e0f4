"""A tiny builder for constructed hands: rules tests state only what matters to them."""

from __future__ import annotations

from datetime import UTC, datetime

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

_KINDS = {k.value: k for k in ActionKind}


def cards(text: str) -> tuple[Card | None, ...]:
    """'?? ?? 6c' -> (None, None, 6c)."""
    return tuple(None if t == "??" else parse_card(t) for t in text.split())


class HandBuilder:
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
    ) -> None:
        self.game, self.small, self.big, self.unit = game, small, big, unit
        self.hand_id, self.table, self.tournament_id = hand_id, table, tournament_id
        self.started_at = started_at or datetime(2024, 1, 1, tzinfo=UTC)
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
            currency="USD" if self.unit is Unit.CENT else None,
            started_at=self.started_at,
            table=self.table,
            max_seats=8,
            seats=tuple(self.seats),
            events=tuple(self.events),
            summary=self._summary,
            source=SourceRef("constructed", 1),
            tournament_id=self.tournament_id,
        )
