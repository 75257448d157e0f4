"""Random faults planted in correct hands, to drive the engine's error paths.

`mutate` changes, drops, repeats or moves events; the engine must report, never crash.
(Until issue 6's speed work, these mutants were also compared field by field with a frozen
copy of the engine as it was, to prove the optimised replay gives the same results; that
comparison passed and the copy was retired, see git history at 1648a78.)
"""

from __future__ import annotations

import dataclasses
import random

from histkit.cards import DECK
from histkit.model import (
    Action,
    ActionKind,
    Collect,
    Deal,
    Event,
    Hand,
    Muck,
    PotKind,
    Show,
    Street,
    StreetStart,
    UncalledBet,
)

__all__ = ["mutate"]


# ----------------------------------------------------------------------------- faults

_KINDS = tuple(ActionKind)


def _mutate_event(e: Event, hand: Hand, rng: random.Random) -> Event | None:
    players = [s.player for s in hand.seats]
    who = rng.choice([*players, "Stranger"]) if rng.random() < 0.9 else "Stranger"
    small = hand.small_bet
    if isinstance(e, Action):
        r = rng.randrange(6)
        if r == 0:
            return dataclasses.replace(e, amount=max(0, e.amount + rng.choice((-1, 1, small))))
        if r == 1:
            to = e.to_amount if e.to_amount is not None else e.amount
            return dataclasses.replace(e, to_amount=to + rng.choice((-small, -1, 1, small)))
        if r == 2:
            return dataclasses.replace(e, all_in=not e.all_in)
        if r == 3:
            return dataclasses.replace(e, kind=rng.choice(_KINDS))
        if r == 4:
            return dataclasses.replace(e, player=who)
        return dataclasses.replace(e, street=Street(rng.randrange(3, 8)))
    if isinstance(e, Deal):
        r = rng.randrange(5)
        if r == 0 and e.cards:
            cards = list(e.cards)
            cards[rng.randrange(len(cards))] = rng.choice(DECK)
            return dataclasses.replace(e, cards=tuple(cards))
        if r == 1 and e.up:
            up = list(e.up)
            i = rng.randrange(len(up))
            up[i] = not up[i]
            return dataclasses.replace(e, up=tuple(up))
        if r == 2:
            return dataclasses.replace(e, player=who)
        if r == 3 and e.before:
            before = list(e.before)
            before[rng.randrange(len(before))] = rng.choice(DECK)
            return dataclasses.replace(e, before=tuple(before[: rng.randint(0, len(before))]))
        return dataclasses.replace(e, cards=e.cards[1:], up=e.up[1:])
    if isinstance(e, StreetStart):
        if rng.random() < 0.5:
            return dataclasses.replace(e, community=rng.choice(DECK))
        return dataclasses.replace(e, street=Street(rng.randrange(3, 8)))
    if isinstance(e, Show):
        cards = list(e.cards)
        if cards and rng.random() < 0.6:
            cards[rng.randrange(len(cards))] = rng.choice(DECK)
        elif cards:
            cards.pop(rng.randrange(len(cards)))
        return dataclasses.replace(e, cards=tuple(cards), player=e.player)
    if isinstance(e, Collect):
        r = rng.randrange(3)
        if r == 0:
            return dataclasses.replace(e, amount=e.amount + rng.choice((-1, 1, small)))
        if r == 1:
            return dataclasses.replace(e, player=who)
        return dataclasses.replace(e, pot=PotKind.SIDE, pot_index=rng.randint(1, 3))
    if isinstance(e, UncalledBet):
        return dataclasses.replace(e, amount=e.amount + rng.choice((-1, 1)), player=who)
    if isinstance(e, Muck):
        return dataclasses.replace(e, declined=not e.declined)
    return None


def mutate(hand: Hand, rng: random.Random, n: int = 1) -> Hand:
    """`hand` with `n` random faults: an event changed, dropped, repeated or moved."""
    events = list(hand.events)
    for _ in range(n):
        if not events:
            break
        i = rng.randrange(len(events))
        r = rng.random()
        if r < 0.6:
            new = _mutate_event(events[i], hand, rng)
            if new is not None:
                events[i] = new
        elif r < 0.75:
            del events[i]
        elif r < 0.85:
            events.insert(i, events[i])
        else:
            j = min(len(events) - 1, i + rng.randint(1, 3))
            events[i], events[j] = events[j], events[i]
    return dataclasses.replace(hand, events=tuple(events))
