"""One hand through histkit and PokerKit: agreement, a known difference, a hand that
cannot be compared (and why), or a disagreement nobody has explained."""

from __future__ import annotations

from dataclasses import dataclass, replace

from histkit.model import Action, Deal, Event, Hand
from histkit.phh import dumps
from histkit.phh.reader import Lines, read_phh
from histkit.rules import Replay, replay
from tests.phh.known_differences import Case, explain
from tests.phh.pokerkit_driver import expected_stacks, pokerkit_replay

__all__ = ["AGREE", "Outcome", "compare"]

AGREE = "agree"
# hands that are not compared, and why (counted, never failed)
NOT_COMPARED = {
    "no_deals": "the record writes no deals (PokerKit cannot replay it)",
    "unknown_up_card": "an up card the record does not show (who acts first is unknown)",
    "undecided": "a pot's winner depends on cards the record does not show",
    "breaks_a_rule": "the record breaks a rule (histkit's audit reports it)",
}


@dataclass(frozen=True)
class Outcome:
    kind: str  # AGREE, a known difference's name, a NOT_COMPARED key, or "unexplained"
    hand: Hand
    detail: str = ""


def _up(d: Deal) -> tuple[object, ...]:
    return tuple(c for c, up in zip(d.cards, d.up, strict=True) if up)


def _event_at(phh_hand: Hand, text: str, index: int) -> Event | None:
    """The event of `phh_hand` that the PHH action number `index` became."""
    lines = Lines(tuple(text.split("\n")), 1).of_strings("actions", index + 1)
    line = lines[index]
    for e in phh_hand.events:
        if isinstance(e, Action | Deal) and e.line == line:
            return e
    return None


def compare(hand: Hand, rp: Replay | None = None) -> Outcome:
    rp = rp if rp is not None else replay(hand)
    if rp.errors:
        return Outcome("breaks_a_rule", hand, ", ".join(sorted(rp.codes())))
    if not any(isinstance(e, Deal) for e in hand.events):
        return Outcome("no_deals", hand)
    if any(isinstance(e, Deal) and None in _up(e) for e in hand.events):
        return Outcome("unknown_up_card", hand)
    expected = expected_stacks(rp)
    if expected is None:
        return Outcome("undecided", hand)
    text = dumps(hand)
    result = pokerkit_replay(text, rp)
    if result.stacks is not None:  # a seat that took no part is in no PHH player list
        start = {s.player: s.stack for s in hand.seats}
        result = replace(result, stacks={**{p: start[p] for p in expected}, **result.stacks})
    if result.stacks is not None and all(result.stacks[p] == v for p, v in expected.items()):
        return Outcome(AGREE, hand)
    (phh_hand,) = read_phh(text.split("\n"), f"{hand.hand_id}.phh")
    assert isinstance(phh_hand, Hand), phh_hand
    refused_at = result.index if result.index is not None and result.refused else None
    n_actions = len(phh_hand.events)  # an upper bound: the PHH has no more actions than events
    event = None
    if refused_at is not None and refused_at < n_actions and not result.refused.startswith("("):
        event = _event_at(phh_hand, text, refused_at)
    case = Case(hand, rp, phh_hand, result.refused, result.reason, event, result.stacks, expected)
    name = explain(case)
    if result.stacks is None:
        detail = f"PokerKit refuses {result.refused!r}: {result.reason}"
    else:
        diff = {
            p: (expected[p], result.stacks[p]) for p in expected if expected[p] != result.stacks[p]
        }
        detail = f"stacks differ (histkit, PokerKit): {diff}"
    return Outcome(name or "unexplained", hand, detail)
