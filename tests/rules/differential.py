"""Differential checking of the engine against the frozen reference engine.

`tests/rules/reference/` is a verbatim copy of the engine as it was before the replay was
optimised (issue 6; only its imports point at the copy). The optimised engine must give
the same violations (every field, message included), pots, awards and stacks, and its
incremental API (pending, legal, to_act, uncalled) must answer the same at every step.
One deliberate difference: where the reference crashed in the evaluator on impossible
cards (a card twice in one hand), the engine reports a card violation and goes on.
`mutate` plants random faults in correct hands so that the error paths are compared too.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

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
from histkit.rules import POKERSTARS, Code, RuleProfile, replay
from histkit.rules.games import spec_for
from histkit.rules.state import HandState
from tests.rules.reference.replay import replay as reference_replay
from tests.rules.reference.state import HandState as ReferenceState

__all__ = ["normalize", "mutate", "compare_replays", "compare_states"]


def _plain(x: Any) -> Any:
    """Enums and dataclasses of either engine as plain values (the copies have own types)."""
    if isinstance(x, str):
        return str(x)
    if isinstance(x, tuple | list):
        return tuple(_plain(y) for y in x)
    if isinstance(x, set | frozenset):
        return tuple(sorted(_plain(y) for y in x))
    if isinstance(x, dict):
        return tuple((_plain(k), _plain(v)) for k, v in x.items())
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return (type(x).__name__,) + tuple(
            _plain(getattr(x, f.name)) for f in dataclasses.fields(x)
        )
    return x


def normalize(r: Any) -> tuple[Any, ...]:
    """Everything a `Replay` says, as plain comparable values."""
    return (
        r.profile,
        _plain(r.violations),
        _plain(r.pots),
        _plain(r.awards),
        r.contributions,
        r.collected,
        r.final_stacks,
    )


def compare_replays(hand: Hand, profile: RuleProfile = POKERSTARS) -> str | None:
    """None when both engines agree on the hand, else a short description of the first
    difference."""
    try:
        want = normalize(reference_replay(hand, profile))
    except ValueError as e:
        # the reference crashed in the evaluator on impossible cards (a card twice in one
        # hand, or seven cards beside a community card); the engine now reports them
        try:
            r = replay(hand, profile)
        except Exception as e2:  # noqa: BLE001
            return f"hand {hand.hand_id}: still raises {e2!r} (reference: {e!r})"
        card_codes = {Code.CARD_DUPLICATE, Code.CARD_INCONSISTENT, Code.COMMUNITY_CARD}
        if not r.codes() & card_codes:
            return f"hand {hand.hand_id}: impossible cards ({e}) but no card violation"
        return None
    try:
        got = normalize(replay(hand, profile))
    except Exception as e:  # noqa: BLE001
        got = ("raised", type(e).__name__)
    if want == got:
        return None
    for i, (w, g) in enumerate(zip(want, got, strict=False)):
        if w != g:
            return f"hand {hand.hand_id} part {i}: reference {w!r}\n  new {g!r}"
    return f"hand {hand.hand_id}: {want!r} != {got!r}"


def _state_view(st: Any) -> tuple[Any, ...]:
    legal = st.legal()
    return (
        _plain(st.pending()),
        _plain(legal),
        st.to_act(),
        st.uncalled(),
        st.current_bet,
        st.raises_this_street,
        st.live,
        st.active,
        st.stacks,
        st.street_contributions,
        st.contributions,
        st.deck_exhausted,
        st.hand_over(),
        len(st.violations),
    )


def compare_states(hand: Hand, profile: RuleProfile = POKERSTARS) -> str | None:
    """Step both `HandState`s through the events, asking the simulator's questions
    (pending, legal, to_act, uncalled, ...) before every event and after the last."""
    states = []
    for cls in (ReferenceState, HandState):
        states.append(
            cls(
                game=spec_for(hand.game),
                profile=profile,
                seats=hand.seats,
                small_bet=hand.small_bet,
                big_bet=hand.big_bet,
                ante=hand.ante,
                bring_in=hand.bring_in,
                hand_id=hand.hand_id,
                unit=hand.unit,
            )
        )
    ref, new = states
    for k, e in enumerate((*hand.events, None)):
        views = []
        for st in (ref, new):
            try:
                views.append(_state_view(st))
            except Exception as ex:  # noqa: BLE001
                views.append(("raised", type(ex).__name__))
        if views[0] == ("raised", "ValueError") and views[1][0] != "raised":
            return _reported_cards(hand, new)  # the reference crashed on impossible cards
        if views[0] != views[1]:
            return f"hand {hand.hand_id} before event {k} ({e!r}):\n  {views[0]}\n  {views[1]}"
        if e is None:
            break
        out = []
        for st in (ref, new):
            try:
                out.append(_plain(st.apply(e)))
            except Exception as ex:  # noqa: BLE001
                out.append(("raised", type(ex).__name__))
        if out[0] == ("raised", "ValueError") and out[1][:1] != ("raised",):
            return _reported_cards(hand, new)
        if out[0] != out[1]:
            return f"hand {hand.hand_id} event {k} ({e!r}):\n  {out[0]}\n  {out[1]}"
        if out[0] and out[0][0] == "raised":
            return None
    rake = hand.summary.rake if hand.summary is not None else 0
    ends = []
    for st in (ref, new):
        try:
            ends.append((_plain(st.finish()), _plain(st.settle(rake=rake))))
        except Exception as ex:  # noqa: BLE001
            ends.append(("raised", type(ex).__name__))
    if ends[0] == ("raised", "ValueError") and ends[1][0] != "raised":
        return _reported_cards(hand, new)
    if ends[0] != ends[1]:
        return f"hand {hand.hand_id} finish/settle:\n  {ends[0]}\n  {ends[1]}"
    return None


def _reported_cards(hand: Hand, st: Any) -> str | None:
    """Where the reference crashed on impossible cards, the engine must have said why."""
    card_codes = {Code.CARD_DUPLICATE, Code.CARD_INCONSISTENT, Code.COMMUNITY_CARD}
    if any(v.code in card_codes for v in st.violations):
        return None
    return f"hand {hand.hand_id}: impossible cards but no card violation"


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
