"""Chip accounting read straight off a hand's events: who put in what, who took what.

This is bookkeeping of what was *written*, not a judgement of it (that is the rules
engine's job), so tables and tests can use it without replaying the hand.
"""

from __future__ import annotations

from histkit.model import Action, ActionKind, Collect, Hand, StreetStart, UncalledBet

__all__ = ["contributions", "collections", "street_contributions"]

_ADDS_AMOUNT = (ActionKind.ANTE, ActionKind.BRING_IN, ActionKind.BET, ActionKind.CALL)
_SETS_TOTAL = (ActionKind.RAISE, ActionKind.COMPLETE)


def contributions(hand: Hand) -> dict[str, int]:
    """Chips each player put into the pot: antes, bring-in, bets, calls and raises,
    minus any uncalled bet returned."""
    total: dict[str, int] = {}
    for (player, _street), chips in street_contributions(hand).items():
        total[player] = total.get(player, 0) + chips
    return total


def street_contributions(hand: Hand) -> dict[tuple[str, int], int]:
    """Chips each player put in on each street (antes count on 3rd): {(player, street): chips}.

    "raises X to Y" means the street total becomes Y; antes are dead money, not part of
    the street total a raise is measured from."""
    out: dict[tuple[str, int], int] = {}
    street_no = 3
    street: dict[str, int] = {}
    for e in hand.events:
        if isinstance(e, StreetStart):
            street_no, street = int(e.street), {}
        elif isinstance(e, Action):
            key = (e.player, street_no)
            if e.kind in _ADDS_AMOUNT:
                out[key] = out.get(key, 0) + e.amount
                if e.kind is not ActionKind.ANTE:
                    street[e.player] = street.get(e.player, 0) + e.amount
            elif e.kind in _SETS_TOTAL:
                to = e.to_amount if e.to_amount is not None else street.get(e.player, 0) + e.amount
                out[key] = out.get(key, 0) + to - street.get(e.player, 0)
                street[e.player] = to
        elif isinstance(e, UncalledBet):
            key = (e.player, street_no)
            out[key] = out.get(key, 0) - e.amount
    return out


def collections(hand: Hand) -> dict[str, int]:
    """Chips each player collected, summed over every `collected` line."""
    out: dict[str, int] = {}
    for e in hand.events:
        if isinstance(e, Collect):
            out[e.player] = out.get(e.player, 0) + e.amount
    return out
