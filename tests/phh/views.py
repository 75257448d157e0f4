"""A hand as far as PHH holds it: the round trip (parse, write PHH, read PHH) must give
the same view. What PHH cannot hold is `histkit.phh.NOT_HELD`; the view leaves exactly
that out, so anything else lost or changed fails the test."""

from __future__ import annotations

from typing import Any

from histkit.accounting import collections, street_contributions
from histkit.cards import Card
from histkit.model import (
    Action,
    ActionKind,
    Deal,
    Hand,
    Muck,
    Show,
    StreetStart,
    TableNote,
    UncalledBet,
)

__all__ = ["phh_view"]

_WAGERS = (ActionKind.BET, ActionKind.RAISE, ActionKind.COMPLETE)


def _actions(hand: Hand) -> list[tuple[Any, ...]]:
    """Each action as PHH says it: a wager by its street total (a completion written as a
    bet or a raise is the same wager), a call by its chips, with its all-in mark."""
    out: list[tuple[Any, ...]] = []
    street_in: dict[tuple[str, int], int] = {}
    for e in hand.events:
        if not isinstance(e, Action) or e.kind is ActionKind.ANTE:
            continue
        key = (e.player, int(e.street))
        before = street_in.get(key, 0)
        if e.kind in _WAGERS:
            to = e.to_amount if e.to_amount is not None else before + e.amount
            out.append((int(e.street), e.player, "wager", to, e.all_in))
            street_in[key] = to
        else:
            out.append((int(e.street), e.player, e.kind.value, e.amount, e.all_in))
            street_in[key] = before + e.amount
    return out


def _dealt(hand: Hand) -> dict[str, list[Card | None]]:
    dealt: dict[str, list[Card | None]] = {}
    for e in hand.events:
        if isinstance(e, Deal):
            dealt.setdefault(e.player, []).extend(e.cards)
    return dealt


def _known_cards(hand: Hand) -> dict[str, frozenset[Card]]:
    known: dict[str, set[Card]] = {}
    for e in hand.events:
        if isinstance(e, Deal):
            known.setdefault(e.player, set()).update(c for c in e.cards if c is not None)
        elif isinstance(e, Show):
            known.setdefault(e.player, set()).update(e.cards)
    return {p: frozenset(v) for p, v in known.items()}


def phh_view(hand: Hand) -> dict[str, Any]:
    folded = {a.player for a in hand.actions() if a.kind is ActionKind.FOLD}
    dealt_in = {e.player for e in hand.events if isinstance(e, Action | Deal)}
    contested = len(dealt_in - folded) > 1
    antes: dict[str, int] = {}
    for a in hand.actions():
        if a.kind is ActionKind.ANTE:
            antes[a.player] = antes.get(a.player, 0) + a.amount
    ups = {
        (e.player, int(e.street)): tuple(c for c, up in zip(e.cards, e.up, strict=True) if up)
        for e in hand.events
        if isinstance(e, Deal) and e.street < 7
    }
    shows = {e.player for e in hand.events if isinstance(e, Show) and e.player not in folded}
    if contested:  # a player at the showdown whose every card the record knows shows, in PHH
        mucked = {e.player for e in hand.events if isinstance(e, Muck)}
        for p, cards in _dealt(hand).items():
            if p not in folded | mucked and cards and None not in cards:
                shows.add(p)
    summary = hand.summary
    returned: dict[str, int] = {}
    for e in hand.events:
        if isinstance(e, UncalledBet):
            returned[e.player] = returned.get(e.player, 0) + e.amount
    back = collections(hand)
    for p, chips in returned.items():
        back[p] = back.get(p, 0) + chips
    return {
        "header": (
            hand.site,
            hand.hand_id,
            hand.game,
            hand.small_bet,
            hand.big_bet,
            hand.unit,
            hand.currency,
            hand.started_at.replace(microsecond=0) if hand.started_at else None,
            hand.table,
            hand.max_seats,
            hand.tournament_id,
            hand.level,
            hand.buy_in,
            hand.mix,
            hand.local_time,
            hand.hero,
            hand.table_hand,
        ),
        "seats": sorted((s.seat, s.player, s.stack, s.sitting_out) for s in hand.seats),
        "antes": antes,
        "up_cards": ups,
        "known_cards": _known_cards(hand),
        "community": [
            e.community for e in hand.events if isinstance(e, StreetStart) and e.community
        ],
        "actions": _actions(hand),
        "put_in": street_contributions_without_returns(hand),
        "shows": sorted(shows),
        # a muck at a showdown, unless the player also shows (the show is what counts)
        "mucks": sorted(
            {
                e.player
                for e in hand.events
                if isinstance(e, Muck) and contested and e.player not in folded | shows
            }
        ),
        # what came back to each player: winnings and uncalled bets returned (a site may
        # pay an uncalled bet with the pot; PHH returns it)
        "won": {p: v for p, v in back.items() if v},
        "notes": [(n.kind, n.player, n.text) for n in hand.events if isinstance(n, TableNote)],
        "summary": None
        if summary is None
        else (summary.total_pot + sum(returned.values()), summary.rake, summary.fee),
    }


def street_contributions_without_returns(hand: Hand) -> dict[str, int]:
    """What each player put in before any uncalled bet came back (PHH returns those by
    its rules, in no action)."""
    out: dict[str, int] = {}
    for (player, _street), chips in street_contributions(hand).items():
        out[player] = out.get(player, 0) + chips
    for e in hand.events:
        if isinstance(e, UncalledBet):
            out[e.player] = out.get(e.player, 0) + e.amount
    return out
