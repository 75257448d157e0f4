"""Pots, side pots, hi/lo halves, odd chips and rake: who should be paid what.

Pots come from contribution levels: every all-in level closes a pot whose eligible
players are those still in the hand who reached it. Rake is spread over the pots before
any split (profile), the odd chip between halves goes to the high half, and the odd chip
inside a tied half goes by the profile's rule. A pot whose winner depends on cards
nobody showed is left undecided (winners None): the engine never guesses.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING

from histkit.cards import Card
from histkit.model import Half
from histkit.rules import showdown
from histkit.rules.games import GameSpec
from histkit.rules.profile import RakeSplit, RuleProfile
from histkit.rules.speed import HALF_HIGH as _HALF_HIGH
from histkit.rules.speed import HALF_LOW as _HALF_LOW
from histkit.rules.speed import HALF_WHOLE as _HALF_WHOLE
from histkit.rules.speed import HIGHLOW_HILO as _HIGHLOW_HILO
from histkit.rules.speed import HIGHLOW_LOW as _HIGHLOW_LOW
from histkit.rules.speed import ODD_BY_SEAT as _ODDCHIP_BY_SEAT
from histkit.rules.speed import RAKE_MAIN_FIRST as _RAKESPLIT_MAIN_FIRST

if TYPE_CHECKING:
    from histkit.rules.state import HandState

__all__ = [
    "Half",
    "Pot",
    "Award",
    "Settlement",
    "build_pots",
    "split_rake",
    "split_pot",
    "settle_pots",
    "settle_hand",
]


@dataclass(frozen=True, slots=True)
class Pot:
    """Pot `index` 0 is the main pot, 1.. the side pots in the order they were capped."""

    index: int
    amount: int
    eligible: tuple[str, ...]
    rake: int = 0

    @property
    def net(self) -> int:
        return self.amount - self.rake


@dataclass(frozen=True, slots=True)
class Award:
    """One pot or half of a pot. `winners` is None when it cannot be decided from the
    cards known; then `expected` is empty and only conservation can be checked."""

    pot: int
    half: Half
    amount: int
    eligible: tuple[str, ...]
    winners: tuple[str, ...] | None
    expected: tuple[tuple[str, int], ...]
    reported: tuple[tuple[str, int], ...] = ()
    reason: str = ""

    def expected_of(self, player: str) -> int:
        return sum(a for p, a in self.expected if p == player)

    def reported_of(self, player: str) -> int:
        return sum(a for p, a in self.reported if p == player)


@dataclass(frozen=True, slots=True)
class Settlement:
    pots: tuple[Pot, ...]
    awards: tuple[Award, ...]
    rake: int
    undecided: tuple[str, ...] = ()  # contenders whose unknown cards left a pot undecided
    no_low: tuple[int, ...] = ()  # hi/lo pots decided as scoops because no low qualified

    def expected_total(self, player: str) -> int:
        return sum(a.expected_of(player) for a in self.awards)


def build_pots(
    order: Sequence[str],
    contributions: Mapping[str, int],
    live: Sequence[str],
    all_in: set[str] | frozenset[str],
) -> list[Pot]:
    """Main and side pots from contribution levels (uncalled bets already returned)."""
    live_set = set(live)
    if not live_set:
        total = sum(contributions.values())
        return [Pot(0, total, ())] if total else []
    if live_set.isdisjoint(all_in):
        # the usual hand: nobody still in is all-in, so one pot for everyone still in
        # (the general loop below with a single level, short-cut)
        top = max([contributions[p] for p in live])
        amount = sum([c if c < top else top for c in contributions.values()])
        if amount <= 0:
            return []
        eligible = tuple([p for p in order if p in live_set])
        if not eligible:
            return []
        return [Pot(0, sum(contributions.values()), eligible)]
    levels = sorted({contributions[p] for p in live if p in all_in})
    top = max(contributions[p] for p in live)
    if not levels or levels[-1] < top:
        levels.append(top)
    pots: list[Pot] = []
    prev = 0
    for level in levels:
        amount = sum(min(c, level) - min(c, prev) for c in contributions.values())
        # a live player who is not all-in is in every pot (short only if a line was wrong)
        eligible = tuple(
            p for p in order if p in live_set and (contributions[p] >= level or p not in all_in)
        )
        if amount > 0 and eligible:
            if pots and pots[-1].eligible == eligible:
                last = pots[-1]
                pots[-1] = Pot(last.index, last.amount + amount, eligible)
            else:
                pots.append(Pot(len(pots), amount, eligible))
        prev = level
    extra = sum(max(0, c - prev) for c in contributions.values())
    if extra and pots:  # folded players' chips above every live level
        last = pots[-1]
        pots[-1] = Pot(last.index, last.amount + extra, last.eligible)
    return pots


def split_rake(pots: Sequence[Pot], rake: int, how: RakeSplit) -> list[Pot]:
    """Spread one rake over the pots (largest remainders get the leftover units)."""
    if len(pots) == 1 and rake > 0:  # the usual hand: one pot takes the whole rake
        (p,) = pots
        if p.amount > 0:
            share = min(rake, p.amount) if how is _RAKESPLIT_MAIN_FIRST else rake
            return [Pot(p.index, p.amount, p.eligible, share)]
    total = sum(p.amount for p in pots)
    if not pots or rake <= 0 or total <= 0:
        return list(pots)
    if how is _RAKESPLIT_MAIN_FIRST:
        shares, left = [], rake
        for p in pots:
            s = min(left, p.amount)
            shares.append(s)
            left -= s
    else:
        shares = [rake * p.amount // total for p in pots]
        rema = [rake * p.amount % total for p in pots]
        left = rake - sum(shares)
        for i in sorted(range(len(pots)), key=lambda i: (-rema[i], i))[:left]:
            shares[i] += 1
    return [Pot(p.index, p.amount, p.eligible, s) for p, s in zip(pots, shares, strict=True)]


def _share(
    amount: int,
    winners: Sequence[str],
    known: Mapping[str, Sequence[Card]],
    order: Sequence[str],
    profile: RuleProfile,
    half: Half,
) -> tuple[tuple[str, int], ...]:
    """Split `amount` evenly; the odd chips go one each in the profile's order."""
    n = len(winners)
    if n == 1:
        return ((winners[0], amount),)
    base, odd = divmod(amount, n)
    if not odd:
        return tuple([(w, base) for w in sorted(winners, key=order.index)])
    if profile.odd_chip is _ODDCHIP_BY_SEAT or any(not known.get(w) for w in winners):
        ranked = sorted(winners, key=order.index)
    elif half is _HALF_LOW:

        def low_key(w: str) -> tuple[int, int]:
            c = min(known[w], key=lambda c: (c.rank.low, profile.suit_rank(c.suit)))
            return (c.rank.low, profile.suit_rank(c.suit))

        ranked = sorted(winners, key=low_key)
    else:

        def high_key(w: str) -> tuple[int, int]:
            c = max(known[w], key=lambda c: (int(c.rank), profile.suit_rank(c.suit)))
            return (-int(c.rank), -profile.suit_rank(c.suit))

        ranked = sorted(winners, key=high_key)
    extra = set(ranked[:odd])
    return tuple((w, base + (1 if w in extra else 0)) for w in sorted(winners, key=order.index))


def split_pot(
    pot: Pot,
    high: Sequence[str],
    low: Sequence[str],
    *,
    known: Mapping[str, Sequence[Card]],
    order: Sequence[str],
    profile: RuleProfile,
) -> list[Award]:
    """How one pot is paid once its winners are known: the one place that says it.

    `high` are the players with the best high hand, `low` those with the best low that
    counts (empty in hi/lo when no low qualifies; in razz `high` is empty and `low` takes
    the pot). With both, the pot is halved (the odd chip between halves by the profile,
    to the high half at most houses); with one, that side takes the whole pot. Each half
    is shared evenly among its winners, its odd chips by the profile's rule. The equity
    engine (`histkit.equity`) pays its simulated pots through this function too.
    """
    net = pot.net
    if not low or not high:
        ws = tuple(high) if high else tuple(low)
        half = _HALF_HIGH if high else _HALF_LOW
        shares = _share(net, ws, known, order, profile, half)
        return [Award(pot.index, _HALF_WHOLE, net, pot.eligible, ws, shares)]
    low_amt = net // 2
    high_amt = net - low_amt
    if not profile.odd_chip_between_halves_to_high:
        high_amt, low_amt = low_amt, high_amt
    hw, lw = tuple(high), tuple(low)
    return [
        Award(
            pot.index,
            _HALF_HIGH,
            high_amt,
            pot.eligible,
            hw,
            _share(high_amt, hw, known, order, profile, _HALF_HIGH),
        ),
        Award(
            pot.index,
            _HALF_LOW,
            low_amt,
            pot.eligible,
            lw,
            _share(low_amt, lw, known, order, profile, _HALF_LOW),
        ),
    ]


def settle_pots(
    *,
    spec: GameSpec,
    profile: RuleProfile,
    order: Sequence[str],
    contributions: Mapping[str, int],
    live: Sequence[str],
    all_in: set[str],
    rake: int,
    known: Mapping[str, Sequence[Card]],
    forfeits: set[str],
    evaluator: ModuleType,
) -> Settlement:
    pots = split_rake(build_pots(order, contributions, live, all_in), rake, profile.rake_split)
    awards: list[Award] = []
    undecided: set[str] = set()
    no_low: list[int] = []
    for pot in pots:
        net = pot.net
        contenders = (
            tuple([p for p in pot.eligible if p not in forfeits]) or pot.eligible
            if forfeits
            else pot.eligible
        )
        if len(contenders) == 1:
            w = contenders[0]
            awards.append(Award(pot.index, _HALF_WHOLE, net, pot.eligible, (w,), ((w, net),)))
            continue
        missing = [p for p in contenders if len(known.get(p, ())) < 5]
        if not missing:
            # more than seven cards (a 7th card beside a community card: a wrong deal,
            # reported by the replay) cannot be valued either
            missing = [p for p in contenders if len(known[p]) > 7]
        if missing:
            undecided.update(missing)
            awards.append(
                Award(
                    pot.index,
                    _HALF_WHOLE,
                    net,
                    pot.eligible,
                    None,
                    (),
                    reason="cards of " + ", ".join(missing) + " are unknown",
                )
            )
            continue
        if spec.pots is _HIGHLOW_LOW:
            vals = {p: evaluator.low(spec, known[p]) for p in contenders}
            best = max(v for v in vals.values() if v is not None)
            ws = tuple(p for p in contenders if vals[p] == best)
            awards.extend(split_pot(pot, (), ws, known=known, order=order, profile=profile))
            continue
        high = evaluator.high
        highs = [high(known[p]) for p in contenders]
        best_high = max(highs)
        hw = tuple([p for p, v in zip(contenders, highs, strict=True) if v == best_high])
        lw: tuple[str, ...] = ()
        if spec.pots is _HIGHLOW_HILO:
            low = evaluator.low
            lows = [low(spec, known[p]) for p in contenders]
            qualified = [v for v in lows if v is not None]
            if qualified:
                best_low = max(qualified)
                lw = tuple([p for p, v in zip(contenders, lows, strict=True) if v == best_low])
            else:
                no_low.append(pot.index)
        awards.extend(split_pot(pot, hw, lw, known=known, order=order, profile=profile))
    return Settlement(
        pots=tuple(pots),
        awards=tuple(awards),
        rake=rake,
        undecided=tuple([p for p in order if p in undecided]) if undecided else (),
        no_low=tuple(no_low),
    )


def settle_hand(st: HandState, rake: int, shown: Mapping[str, Sequence[Card]]) -> Settlement:
    """The pots of a hand as the engine (`st`) ends it: the hands known are every live
    player's whose cards are all known (and `shown`, player -> all their cards), the
    community card added; a mucked hand nobody saw is dead."""
    names, ledger = st.names, st.ledger
    live = st.live_mask
    known: dict[str, tuple[Card, ...]] = {}
    for i in range(st.n):
        if live >> i & 1:
            cs = ledger.known(i)
            if cs is not None:
                known[names[i]] = cs
    for p, given in shown.items():
        known[p] = tuple(given)
    community = ledger.community
    if community is not None:
        known = {p: cs + (community,) for p, cs in known.items() if community not in cs}
    # a mucked hand is dead; "doesn't show" is the uncontested winner's line, not a concession
    forfeits = {p for p in st.mucked if p not in known}
    return settle_pots(
        spec=st.spec,
        profile=st.profile,
        order=names,
        contributions=st.contributions,
        live=st.live,
        all_in=st.all_in,
        rake=rake,
        known=known,
        forfeits=forfeits,
        evaluator=showdown,
    )
