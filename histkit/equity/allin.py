"""All-in expected value: what each player would win on average from the moment the last
money went in, beside what he did win.

A hand counts when a player still in it was all-in at that moment and cards were still to
come (the last chip went in before 7th street was dealt). The moment is the last action
that put chips in or folded: from there on nobody decides anything, the cards are only
run out. Each player still in then is valued with the cards visible at that moment (every
up card, the hero's own down cards; folded players' visible cards are dead) plus his own
cards as shown at the showdown, for the cards dealt by then: his cards dealt later are
the ones still to come. Each pot (main and side pots, after the rake, as the rules engine
builds them) is shared by its players' equity in it, and

    ev_collected = sum over the pots of equity x pot,    ev_net = ev_collected - contributed

rounded to whole minor units (an expectation; the players' ev_collected may differ from
the pots by a unit or two). `net` is what was really won, so `ev_net - net` is the luck
of the cards that came.

Exact over every deal of the cards to come when there are at most `EXACT_DEALS` of them
(one card each, or two each heads-up), else Monte Carlo with `SAMPLES` deals seeded from
the hand's site and id, so a hand always gets the same figures.
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass

from histkit.accounting import collections, contributions
from histkit.cards import Card
from histkit.equity.engine import Method, pot_equities
from histkit.equity.holding import EquityError, Holding
from histkit.model import Action, ActionKind, Deal, Hand, Street
from histkit.rules.games import spec_for

__all__ = [
    "EXACT_DEALS",
    "SAMPLES",
    "AllInMoment",
    "AllInSeat",
    "AllInEV",
    "NotValued",
    "all_in_moment",
    "allin_ev",
]

EXACT_DEALS = 1_000_000
SAMPLES = 10_000  # a standard error of at most 0.005 on each equity

_MONEY = (
    ActionKind.ANTE,
    ActionKind.BRING_IN,
    ActionKind.COMPLETE,
    ActionKind.BET,
    ActionKind.RAISE,
    ActionKind.CALL,
)


class NotValued(EquityError):
    """An all-in hand whose record cannot be valued (no deals written, a card twice, pots
    that are not among the players still in): the reason says which."""


@dataclass(frozen=True, slots=True)
class AllInMoment:
    """When the last money went in: the index of that event in `hand.events`, its street,
    the players still in (seat order) and those of them all-in."""

    index: int
    street: Street
    contenders: tuple[str, ...]
    all_in: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class AllInSeat:
    """One player still in at the all-in: `equity` is his expected share of the pots he
    could win (by their size), `error` its standard error (0.0 when exact); amounts in the
    hand's minor unit."""

    player: str
    seat: int
    all_in: bool
    equity: float
    error: float
    contributed: int
    collected: int
    ev_collected: int

    @property
    def net(self) -> int:
        return self.collected - self.contributed

    @property
    def ev_net(self) -> int:
        return self.ev_collected - self.contributed


@dataclass(frozen=True, slots=True)
class AllInEV:
    hand_id: str
    site: str
    money_unit: str
    street: Street
    method: Method
    samples: int
    seats: tuple[AllInSeat, ...]


def all_in_moment(hand: Hand) -> AllInMoment | None:
    """The moment the last money went in, when a player still in was all-in then and a
    card was still to come; else None."""
    events = hand.events
    last = None
    for i in range(len(events) - 1, -1, -1):
        e = events[i]
        if type(e) is Action and (e.kind in _MONEY or e.kind is ActionKind.FOLD):
            last = i
            break
    if last is None:
        return None
    street = events[last].street  # type: ignore[union-attr]
    if street is Street.SEVENTH:
        return None
    all_in: set[str] = set()
    folded: set[str] = set()
    dealt: list[str] = []
    for e in events[: last + 1]:
        if type(e) is Action:
            if e.all_in:
                all_in.add(e.player)
            if e.kind is ActionKind.FOLD:
                folded.add(e.player)
            elif e.kind is ActionKind.ANTE and e.player not in dealt:
                dealt.append(e.player)
    seat_order = [s.player for s in sorted(hand.seats, key=lambda s: s.seat)]
    for e in events:
        if type(e) is Deal and e.player not in dealt:
            dealt.append(e.player)
    contenders = tuple(p for p in seat_order if p in dealt and p not in folded)
    allin = tuple(p for p in contenders if p in all_in)
    if len(contenders) < 2 or not allin:
        return None
    return AllInMoment(last, street, contenders, allin)


def _seed(hand: Hand) -> int:
    return zlib.crc32(f"{hand.site}\x1f{hand.hand_id}".encode())


def allin_ev(
    hand: Hand,
    replayed: object | None = None,
    *,
    strict: bool = False,
    exact_deals: int = EXACT_DEALS,
    samples: int = SAMPLES,
) -> AllInEV | None:
    """The all-in EV of `hand` (None when it is no all-in with cards to come, or, unless
    `strict`, when its record cannot be valued: no deals written, a card twice). Pass the
    hand's `Replay` as `replayed` when there is one (its pots are used)."""
    moment = all_in_moment(hand)
    if moment is None:
        return None
    try:
        return _value(hand, moment, replayed, exact_deals, samples)
    except EquityError:
        if strict:
            raise
        return None


def _value(
    hand: Hand, moment: AllInMoment, replayed: object | None, exact_deals: int, samples: int
) -> AllInEV:
    from histkit.dialects import dialect_of
    from histkit.rules.profile import CASINO
    from histkit.rules.replay import Replay, replay
    from histkit.rules.state import HandState

    rp = replayed if isinstance(replayed, Replay) else replay(hand)
    d = dialect_of(hand)
    spec = spec_for(hand.game)
    st = HandState(
        game=spec,
        profile=d.profile if d is not None else CASINO,
        seats=hand.seats,
        small_bet=hand.small_bet,
        big_bet=hand.big_bet,
        ante=hand.ante,
        bring_in=hand.bring_in,
        hand_id=hand.hand_id,
        unit=hand.unit,
    )
    events = hand.events
    for e in events[: moment.index + 1]:
        st.apply(e)
    if not st.deals_written:
        raise NotValued("the record writes no deals: its cards cannot be valued")
    then = {p: list(cs) for p, cs in st.cards.items()}  # what was visible at the moment
    for e in events[moment.index + 1 :]:
        st.apply(e)
    st.finish()
    if hand.summary is not None:
        for r in hand.summary.seats:
            if r.cards and r.player in st.cards:
                st.reveal(r.player, r.cards, line=r.line)
    up = spec.up_pattern

    def holding(p: str) -> Holding:
        # his cards dealt by the moment, as the record finally shows them
        final = st.cards.get(p, [])
        slots = [final[i] if i < len(final) else c for i, c in enumerate(then.get(p, []))]
        down = tuple(c for i, c in enumerate(slots) if c is not None and not up[i])
        ups = tuple(c for i, c in enumerate(slots) if c is not None and up[i])
        return Holding(down, ups)

    players = list(moment.contenders)
    holdings = [holding(p) for p in players]
    dead: list[Card] = [
        c for p, cs in then.items() if p not in players for c in cs if c is not None
    ]
    index = {p: i for i, p in enumerate(players)}
    pots = [p for p in rp.pots if p.net > 0]
    if not pots or any(q not in index for p in pots for q in p.eligible):
        raise NotValued("the pots are not among the players still in")
    try:
        equities = pot_equities(
            spec,
            holdings,
            [tuple(index[q] for q in p.eligible) for p in pots],
            dead=dead,
            shared_last=st.community is not None,
            method="auto",
            samples=samples,
            seed=_seed(hand),
            exact_limit=exact_deals,
        )
    except EquityError as e:
        raise NotValued(str(e)) from None
    expect = [0.0] * len(players)
    could = [0] * len(players)
    spread = [0.0] * len(players)
    for pot, eq in zip(pots, equities, strict=True):
        for i, pe in zip(eq.seats, eq.players, strict=True):
            expect[i] += pot.net * pe.equity
            could[i] += pot.net
            spread[i] += pot.net * pe.error  # a bound: the pots' errors are not independent
    paid_in, taken = contributions(hand), collections(hand)
    seat_of = {s.player: s.seat for s in hand.seats}
    seats = tuple(
        AllInSeat(
            player=p,
            seat=seat_of[p],
            all_in=p in moment.all_in,
            equity=expect[i] / could[i] if could[i] else 0.0,
            error=spread[i] / could[i] if could[i] else 0.0,
            contributed=paid_in.get(p, 0),
            collected=taken.get(p, 0),
            ev_collected=round(expect[i]),
        )
        for i, p in enumerate(players)
    )
    first = equities[0]
    return AllInEV(
        hand_id=hand.hand_id,
        site=hand.site,
        money_unit=hand.money_unit,
        street=moment.street,
        method=first.method,
        samples=first.samples,
        seats=seats,
    )
