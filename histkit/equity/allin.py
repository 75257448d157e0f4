"""All-in expected value: what each player would win on average from the moment his
stake in each pot was settled, beside what he did win.

A pot's stake is settled when its last chip goes in. For a pot that an all-in player is
in (the main pot of a short stack, a side pot capped by a bigger all-in), that happens
on the street he went all-in, and nothing anyone does later adds to it: the players who
go on betting only build side pots. Such a pot is valued **at the end of the betting
round in which its last chip went in** (a fold in that round, on the same cards, counts;
a later fold by a player still betting a side pot does not take him out of it: what he
gives up then is his own decision on later cards), among the players still in it then,
with the cards visible then. A pot nobody all-in is in (the last side pot, of the players
who kept betting) is valued at the last chip or fold of the hand, when they stop deciding
anything. A pot is valued only when cards were still to come then (before 7th street)
and two or more players were still in it; any other pot counts as it was paid.

A hand has an all-in EV when at least one pot an all-in player is in was valued. Each
player still in a valued pot is valued with the cards visible at its moment (every up
card, the hero's own down cards; folded players' visible cards are dead) plus his own
cards as shown at the showdown, for the cards dealt by then (his later cards are the ones
still to come; a player who never showed keeps unknown down cards). Each valued pot
(after the rake, as the rules engine builds it) is shared by its players' equity in it,
and

    ev_collected = sum over the valued pots of equity x pot
                   + what he was paid from the pots not valued,
    ev_net = ev_collected - contributed

rounded to whole minor units (an expectation; the players' ev_collected may differ from
the pots by a unit or two). `net` is what was really won, so `ev_net - net` is the luck
of the cards that came (and, for a player who folded a side pot later, what he gave up).

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
from histkit.model import Action, ActionKind, Hand, Street
from histkit.rules import HandState, Pot, Replay, replay
from histkit.rules.games import spec_for

__all__ = [
    "EXACT_DEALS",
    "SAMPLES",
    "AllInEV",
    "AllInSeat",
    "NotValued",
    "PotAtEquity",
    "PotClosing",
    "allin_ev",
    "pot_closings",
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
    that do not follow from the chips put in): the reason says which."""


@dataclass(frozen=True, slots=True)
class PotClosing:
    """When a pot's stake was settled: `pot` is its index (0 the main pot), `at` the index
    in `hand.events` of the moment (see the module), `street` its street, `players` those
    still in the pot then (seat order) and `all_in` whether an all-in player is in it."""

    pot: int
    at: int
    street: Street
    players: tuple[str, ...]
    all_in: bool

    @property
    def valued(self) -> bool:
        """Cards were still to come and two or more players were in it."""
        return self.street < Street.SEVENTH and len(self.players) > 1


@dataclass(frozen=True, slots=True)
class PotAtEquity:
    """One valued pot: its index, chips after rake, the street it was settled on, its
    players with their `equity` (expected share) and its standard `error` (0.0 when
    exact), and how it was computed."""

    pot: int
    amount: int
    street: Street
    players: tuple[str, ...]
    equity: tuple[float, ...]
    error: tuple[float, ...]
    method: Method
    samples: int


@dataclass(frozen=True, slots=True)
class AllInSeat:
    """One player still in a valued pot. `at_stake` is the chips (after rake) of the pots
    valued for him, `equity` his expected share of them and `error` its standard error
    (0.0 when exact); `street` is the street his last valued pot was settled on, and
    `all_in` whether he was all-in by then. Amounts in the hand's minor unit."""

    player: str
    seat: int
    all_in: bool
    street: Street
    at_stake: int
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
    """`street` is the earliest street a pot was valued on; `method` is exact when every
    valued pot was, `samples` the fewest deals of any of them."""

    hand_id: str
    site: str
    money_unit: str
    street: Street
    method: Method
    samples: int
    pots: tuple[PotAtEquity, ...]
    seats: tuple[AllInSeat, ...]


# --------------------------------------------------------------------- the moments


def _levels(pots: tuple[Pot, ...], paid: dict[str, int]) -> list[int]:
    """The contribution level at the top of each pot: the chips each player has in it are
    those of his contribution between the level below and its own."""
    values = sorted(set(paid.values()))

    def upto(level: int) -> int:
        return sum(min(c, level) for c in paid.values())

    levels = []
    total = 0
    for pot in pots:
        total += pot.amount
        level = next((v for v in values if upto(v) >= total), None)
        if level is None or upto(level) != total:
            raise NotValued("the pots do not follow from the chips put in")
        levels.append(level)
    return levels


@dataclass(slots=True)
class _Walk:
    """The hand played through the rules engine's `HandState`, event by event: after each
    one, every player's contribution (in `names` order), who was all-in and who still in
    (bit masks over `names`), and the cards dealt (as far as the record shows them then;
    an action deals none, so it shares the snapshot before it). `state` is as the last
    event left it."""

    state: HandState
    names: tuple[str, ...]
    paid: list[tuple[int, ...]]
    all_in_masks: list[int]
    live_masks: list[int]
    cards: list[dict[str, tuple[Card | None, ...]]]

    def live(self, at: int) -> list[str]:
        """Players still in after event `at`, seat order."""
        mask = self.live_masks[at]
        return [p for i, p in enumerate(self.names) if mask >> i & 1]

    def all_in(self, at: int, player: str) -> bool:
        """Whether `player` was all-in after event `at`."""
        if player not in self.names:
            return False
        return bool(self.all_in_masks[at] >> self.names.index(player) & 1)


def _walk(hand: Hand) -> _Walk:
    st = HandState.for_hand(hand)
    w = _Walk(st, tuple(st.names), [], [], [], [])
    paid, all_in, live, cards = w.paid, w.all_in_masks, w.live_masks, w.cards
    slots = st.ledger.slots
    now: dict[str, tuple[Card | None, ...]] = {}
    for e in hand.events:
        st.feed((e,))
        paid.append(tuple(st.total_in))
        all_in.append(st.allin_mask)
        live.append(st.live_mask)
        if type(e) is not Action:
            now = {p: tuple(cs) for p, cs in zip(w.names, slots, strict=True) if cs is not None}
        cards.append(now)
    return w


def pot_closings(hand: Hand, replayed: Replay | None = None) -> tuple[PotClosing, ...]:
    """When each pot of the hand (as the rules engine builds them) was settled, and who
    was still in it then (see the module). `NotValued` when the pots do not follow from
    the chips put in."""
    rp = replayed if replayed is not None else replay(hand)
    pots = rp.pots
    if not pots:
        return ()
    return _closings(hand, rp, _walk(hand))


def _closings(hand: Hand, rp: Replay, w: _Walk) -> tuple[PotClosing, ...]:
    pots = rp.pots
    events = hand.events
    if not pots or not events:
        return ()
    final = dict(rp.contributions)
    levels = _levels(pots, final)
    paid = w.paid
    last_decision = max(
        (
            i
            for i, e in enumerate(events)
            if type(e) is Action and (e.kind in _MONEY or e.kind is ActionKind.FOLD)
        ),
        default=len(events) - 1,
    )
    last_of_street: dict[Street, int] = {}
    for i, e in enumerate(events):
        if type(e) is Action:
            last_of_street[e.street] = i
    out = []
    low = 0
    for pot, level in zip(pots, levels, strict=True):
        # the chips in this pot after each event, and the event that completed it
        def inside(i: int, low: int = low, level: int = level) -> int:
            return sum(min(c, level) - min(c, low) for c in paid[i] if c > low)

        full = inside(len(events) - 1)
        last = next(i for i in range(len(events)) if inside(i) >= full)
        capped = any(w.all_in(-1, p) and final.get(p, 0) == level for p in pot.eligible)
        if capped:
            e = events[last]
            street = e.street if type(e) is Action else Street.THIRD
            at = max(last_of_street.get(street, last), last)
        else:
            at = last_decision
        e = events[at]
        street = e.street if type(e) is Action else Street.THIRD
        players = tuple(p for p in w.live(at) if final.get(p, 0) >= level)
        if not set(pot.eligible) <= set(players):
            raise NotValued("a pot's players were not in the hand when it was settled")
        out.append(PotClosing(pot.index, at, street, players, capped))
        low = level
    return tuple(out)


# ------------------------------------------------------------------------- valuing


def _seed(hand: Hand, moment: int) -> int:
    return zlib.crc32(f"{hand.site}\x1f{hand.hand_id}\x1f{moment}".encode())


def allin_ev(
    hand: Hand,
    replayed: object | None = None,
    *,
    strict: bool = False,
    exact_deals: int = EXACT_DEALS,
    samples: int = SAMPLES,
) -> AllInEV | None:
    """The all-in EV of `hand`: None when no pot an all-in player is in was settled with
    cards to come and two players in it, or, unless `strict`, when its record cannot be
    valued (no deals written, a card twice). Pass the hand's `Replay` as `replayed` when
    there is one (its pots are used)."""
    if not any(type(e) is Action and e.all_in for e in hand.events):
        return None
    rp = replayed if isinstance(replayed, Replay) else replay(hand)
    try:
        w = _walk(hand)
        closings = _closings(hand, rp, w)
        if not any(c.valued and c.all_in for c in closings):
            return None
        return _value(hand, rp, w, closings, exact_deals, samples)
    except EquityError:
        if strict:
            raise
        return None


def _value(
    hand: Hand,
    rp: Replay,
    w: _Walk,
    closings: tuple[PotClosing, ...],
    exact_deals: int,
    samples: int,
) -> AllInEV:
    spec = spec_for(hand.game)
    st = w.state
    moments = sorted({c.at for c in closings if c.valued})
    if not st.deals_written:
        raise NotValued("the record writes no deals: its cards cannot be valued")
    st.finish()
    if hand.summary is not None:
        for r in hand.summary.seats:
            if r.cards and r.player in st.cards:
                st.reveal(r.player, r.cards, line=r.line)
    up = spec.up_pattern

    def holding(p: str, then: dict[str, tuple[Card | None, ...]]) -> Holding:
        # his cards dealt by the moment, as the record finally shows them
        final = st.cards.get(p, [])
        slots = [final[i] if i < len(final) else c for i, c in enumerate(then.get(p, []))]
        down = tuple(c for i, c in enumerate(slots) if c is not None and not up[i])
        ups = tuple(c for i, c in enumerate(slots) if c is not None and up[i])
        return Holding(down, ups)

    net = {p.index: p.net for p in rp.pots}
    valued: list[PotAtEquity] = []
    for n, at in enumerate(moments):
        players = w.live(at)
        index = {p: i for i, p in enumerate(players)}
        mine = [c for c in closings if c.valued and c.at == at and net[c.pot] > 0]
        if not mine:
            continue
        then = w.cards[at]
        dead = [c for p, cs in then.items() if p not in index for c in cs if c is not None]
        try:
            equities = pot_equities(
                spec,
                [holding(p, then) for p in players],
                [tuple(index[q] for q in c.players) for c in mine],
                dead=dead,
                shared_last=True if st.community is not None else None,
                method="auto",
                samples=samples,
                seed=_seed(hand, n),
                exact_limit=exact_deals,
            )
        except EquityError as e:
            raise NotValued(str(e)) from None
        for c, eq in zip(mine, equities, strict=True):
            valued.append(
                PotAtEquity(
                    pot=c.pot,
                    amount=net[c.pot],
                    street=c.street,
                    players=c.players,
                    equity=tuple(pe.equity for pe in eq.players),
                    error=tuple(pe.error for pe in eq.players),
                    method=eq.method,
                    samples=eq.samples,
                )
            )
    valued.sort(key=lambda v: v.pot)
    at_equity = {v.pot for v in valued}
    # the pots not valued count as they were paid (the site's own figures, pot by pot)
    paid_out: dict[str, int] = {}
    for a in rp.awards:
        if a.pot not in at_equity:
            for p, chips in a.reported:
                paid_out[p] = paid_out.get(p, 0) + chips
    rest = sum(net[i] for i in net if i not in at_equity)
    if sum(paid_out.values()) != rest:
        raise NotValued("which pot paid whom is not known: the pots played on cannot be told apart")
    expect: dict[str, float] = {}
    stake: dict[str, int] = {}
    spread: dict[str, float] = {}
    street: dict[str, Street] = {}
    for v in valued:
        for p, share, err in zip(v.players, v.equity, v.error, strict=True):
            expect[p] = expect.get(p, 0.0) + v.amount * share
            stake[p] = stake.get(p, 0) + v.amount
            spread[p] = spread.get(p, 0.0) + v.amount * err  # a bound: pots share deals
            street[p] = max(street.get(p, v.street), v.street)
    last_at = {
        p: max(c.at for c in closings if c.pot in at_equity and p in c.players) for p in stake
    }
    put_in, taken = contributions(hand), collections(hand)
    seat_of = {s.player: s.seat for s in hand.seats}
    if not valued:
        raise NotValued("no pot an all-in player is in holds chips after the rake")
    seats = tuple(
        AllInSeat(
            player=p,
            seat=seat_of[p],
            all_in=w.all_in(last_at[p], p),
            street=street[p],
            at_stake=stake[p],
            equity=expect[p] / stake[p] if stake[p] else 0.0,
            error=spread[p] / stake[p] if stake[p] else 0.0,
            contributed=put_in.get(p, 0),
            collected=taken.get(p, 0),
            ev_collected=round(expect[p] + paid_out.get(p, 0)),
        )
        for p in sorted(stake, key=lambda p: seat_of[p])
    )
    exact = all(v.method is Method.EXACT for v in valued)
    return AllInEV(
        hand_id=hand.hand_id,
        site=hand.site,
        money_unit=hand.money_unit,
        street=min(v.street for v in valued),
        method=Method.EXACT if exact else Method.MONTE_CARLO,
        samples=min(v.samples for v in valued),
        pots=tuple(valued),
        seats=seats,
    )
