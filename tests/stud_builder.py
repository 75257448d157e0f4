"""A compact way to write constructed stud hands for the stats/plots/report tests.

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


def _card(text: str) -> Card | None:
    return None if text == "??" else parse_card(text)


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
    seat_list = []
    for spec in seats.split():
        name, no, stack = spec.split(":")
        seat_list.append(Seat(int(no), name, int(stack), sitting_out=name in sitting_out))
    players = [s.player for s in seat_list if not s.sitting_out]
    ev: list[Event] = []
    for p in players:
        ev.append(Action(Street.THIRD, p, ActionKind.ANTE, ante, all_in=p in ante_allin))
    cards = cards or {}
    folded: set[str] = set()
    fold_street: dict[str, Street] = {}
    for st in sorted(streets):
        street = Street(st)
        ev.append(StreetStart(street))
        if street is Street.THIRD:
            for p in players:
                c = cards[p]
                three = tuple(_card(x) for x in c.split())
                ev.append(Deal(street, p, three, (False, False, True)))
        else:
            for p in players:
                if p not in folded:
                    ev.append(Deal(street, p, (None,), (street is not Street.SEVENTH,)))
        for text in filter(None, (t.strip() for t in streets[st].split(";"))):
            parts = text.split()
            allin = parts[-1] == "allin"
            if allin:
                parts = parts[:-1]
            p, kind = parts[0], ActionKind(parts[1])
            amount = int(parts[2]) if len(parts) > 2 else 0
            to = int(parts[3]) if len(parts) > 3 else None
            ev.append(Action(street, p, kind, amount, to, all_in=allin))
            if kind is ActionKind.FOLD:
                folded.add(p)
                fold_street[p] = street
    last = Street(max(streets))
    if uncalled:
        ev.append(UncalledBet(uncalled[0], uncalled[1], last))
    shows = shows or {}
    for p, c in shows.items():
        ev.append(Show(p, tuple(parse_card(x) for x in c.split())))
    won: dict[str, int] = {}
    for spec in collects.split():
        name, amt = spec.split(":")
        won[name] = won.get(name, 0) + int(amt)
        ev.append(Collect(name, int(amt), PotKind.POT))
    total = sum(won.values()) + rake
    results = []
    for s in seat_list:
        p = s.player
        if p in fold_street:
            res = SeatResult(s.seat, p, SeatOutcome.FOLDED, folded_street=fold_street[p])
        elif p in shows:
            shown = tuple(parse_card(x) for x in shows[p].split())
            res = SeatResult(s.seat, p, SeatOutcome.SHOWED, won=won.get(p, 0), cards=shown)
        elif p in won:
            res = SeatResult(s.seat, p, SeatOutcome.COLLECTED, won=won[p])
        else:
            res = SeatResult(s.seat, p, SeatOutcome.OTHER)
        results.append(res)
    return Hand(
        site="pokerstars",
        hand_id=hand_id,
        game=Game(game),
        small_bet=small_bet,
        big_bet=big_bet,
        unit=unit,
        currency=currency,
        started_at=_T0 + timedelta(minutes=minute),
        table=table,
        max_seats=8,
        seats=tuple(seat_list),
        events=tuple(ev),
        summary=Summary(total_pot=total, rake=rake, seats=tuple(results)),
        source=SourceRef("constructed", 1),
        hero=hero,
    )
