"""Where PokerKit 0.7.7 and histkit are known to disagree, each recognised in the hand.

PokerKit is the second opinion: a hand on which it disagrees with histkit's engine must be
one of these situations, found by a function that looks at the hand (and at the action
PokerKit refused, when it refused one), never by a list of hand ids. Anything else is a
disagreement nobody has explained, and the differential test fails on it.

The first five are betting rules in which PokerKit follows other house rules than the
site's (histkit's profiles hold both); the rest are PokerKit's pot bugs and its odd-chip
house rule.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from histkit import evaluate
from histkit.cards import Card
from histkit.model import Action, ActionKind, Deal, Event, Game, Half, Hand, StreetStart
from histkit.rules import Replay

__all__ = ["KNOWN", "Case", "Known", "explain"]

_WAGERS = (ActionKind.BET, ActionKind.RAISE, ActionKind.COMPLETE)


@dataclass(frozen=True)
class Case:
    """One hand on which PokerKit disagrees: the hand, histkit's replay of it, the hand as
    read back from its PHH (`phh_hand`, whose events carry the PHH lines), and PokerKit's
    refusal (`refused`: the action, `event`: the event of `phh_hand` it is) or result."""

    hand: Hand
    replay: Replay
    phh_hand: Hand
    refused: str | None
    reason: str | None
    event: Event | None
    stacks: dict[str, int] | None
    expected: dict[str, int]


@dataclass(frozen=True)
class Known:
    name: str
    what: str
    detect: Callable[[Case], bool]


# -- helpers ------------------------------------------------------------------------


def _street_actions(hand: Hand, event: Event) -> list[Action]:
    """The actions of `event`'s street before it (antes left out)."""
    assert isinstance(event, Action)
    out = []
    for e in hand.events:
        if e is event:
            return out
        if isinstance(e, Action) and e.street == event.street and e.kind is not ActionKind.ANTE:
            out.append(e)
    return out


def _up_cards(hand: Hand, street: int) -> dict[str, list[Card | None]]:
    up: dict[str, list[Card | None]] = {}
    for e in hand.events:
        if isinstance(e, Deal) and e.street <= street:
            up.setdefault(e.player, []).extend(c for c, u in zip(e.cards, e.up, strict=True) if u)
    return up


def _all_in_before(hand: Hand, event: Event) -> set[str]:
    out: set[str] = set()
    for e in hand.events:
        if e is event:
            break
        if isinstance(e, Action) and e.all_in:
            out.add(e.player)
    return out


def _folded_before(hand: Hand, event: Event | None) -> set[str]:
    out: set[str] = set()
    for e in hand.events:
        if e is event:
            break
        if isinstance(e, Action) and e.kind is ActionKind.FOLD:
            out.add(e.player)
    return out


def _bet_size(hand: Hand, street: int) -> int:
    return hand.small_bet if street <= 4 else hand.big_bet


def _short_all_ins(case: Case) -> list[tuple[Action, int]]:
    """The all-in wagers before the refused one on its street that raised the bet by less
    than a full bet (or completed short of the small bet), with the bet they raised."""
    hand, e = case.phh_hand, case.event
    if not isinstance(e, Action) or e.kind not in _WAGERS:
        return []
    out = []
    bet = 0
    for a in _street_actions(hand, e):
        to = a.to_amount if a.to_amount is not None else None
        if a.kind is ActionKind.BRING_IN:
            bet = max(bet, a.amount)
            continue
        if a.kind in _WAGERS:
            to = to if to is not None else bet + a.amount
            full = hand.small_bet if a.kind is ActionKind.COMPLETE else _bet_size(hand, e.street)
            target = full if a.kind is ActionKind.COMPLETE else bet + full
            if a.all_in and to < target:
                out.append((a, bet))
            bet = max(bet, to)
    return out


def _odd_chips_only(case: Case) -> bool:
    """PokerKit's stacks differ from histkit's by odd chips only: at most a chip a pot."""
    assert case.stacks is not None
    most = len(case.replay.pots)
    return all(abs(case.stacks[p] - v) <= most for p, v in case.expected.items())


# -- the known differences ------------------------------------------------------------


def _double_bet(case: Case) -> bool:
    """Stud high, 4th street: an open pair lets a player bet the big bet; PokerKit allows
    only the small bet there."""
    e = case.event
    hand = case.phh_hand
    if hand.game is not Game.STUD or not isinstance(e, Action) or e.street != 4:
        return False
    if e.kind not in _WAGERS:
        return False
    wagers = sum(1 for a in _street_actions(hand, e) if a.kind in _WAGERS) + 1
    to = e.to_amount if e.to_amount is not None else e.amount
    paired = any(
        len({c.rank for c in cards if c is not None}) < len([c for c in cards if c])
        for cards in _up_cards(hand, 4).values()
    )
    return paired and to > hand.small_bet * wagers


def _community_card(case: Case) -> bool:
    """The deck ran out: one community card on 7th street, which PokerKit's stud has not."""
    has_card = any(isinstance(e, StreetStart) and e.community for e in case.phh_hand.events)
    return has_card and (case.refused or "").startswith("d db")


def _first_actor_all_in(case: Case) -> bool:
    """4th to 7th street: the best board belongs to a player who is all-in; the site lets
    the best board among those who can still bet act first, PokerKit the player after the
    all-in one (histkit's `casino` profile does the same)."""
    hand, e = case.phh_hand, case.event
    if not isinstance(e, Action) or e.street < 4 or _street_actions(hand, e):
        return False
    gone = _folded_before(hand, e)
    up = _up_cards(hand, e.street)
    pool = [s.player for s in hand.seats if s.player in up and s.player not in gone]
    values = evaluate.rank_boards([up[p] for p in pool], high=hand.game is not Game.RAZZ)
    if values is None:
        return False
    best = max(values)
    leaders = [p for p, v in zip(pool, values, strict=True) if v == best]
    return bool(set(leaders) & _all_in_before(hand, e))


def _full_raise_after_short_all_in(case: Case) -> bool:
    """An all-in completion or raise short of a full bet, then a wager to the next limit
    level; PokerKit wants a full raise above the short all-in (the no-limit minimum)."""
    return bool(_short_all_ins(case)) and "below the minimum" in (case.reason or "")


def _reopened_by_half_bet(case: Case) -> bool:
    """A short all-in raise of at least half a bet reopens the betting under the limit
    half-bet rule (the site's); PokerKit, with the no-limit rule, lets no one who acted
    before it raise again."""
    e = case.event
    if not isinstance(e, Action) or "Short all-in" not in (case.reason or ""):
        return False
    hand = case.phh_hand
    before = _street_actions(hand, e)
    for a, bet in _short_all_ins(case):
        to = a.to_amount if a.to_amount is not None else bet + a.amount
        acted_before = any(b.player == e.player for b in before[: before.index(a)])
        if acted_before and 2 * (to - bet) >= _bet_size(hand, e.street):
            return True
    return False


def _short_ante(case: Case) -> bool:
    """A player all-in for less than the ante stays in: PokerKit puts every ante in the
    main pot, so that player can win antes they could not match."""
    if case.stacks is None:
        return False
    antes = {a.player: a.amount for a in case.hand.actions() if a.kind is ActionKind.ANTE}
    if not antes:
        return False
    top = max(antes.values())
    gone = _folded_before(case.hand, None)
    short = [p for p, v in antes.items() if v < top and p not in gone]
    return any(case.stacks[p] > case.expected[p] for p in short)


def _side_pot_low(case: Case) -> bool:
    """Stud hi/lo: a side pot in which no eligible player has a low, while another pot
    has one: PokerKit halves it as if it had a low too, and shares its low half among the
    side pot's players who are still in contention at its showdown (those who win
    something; it kills the others' hands), none of whom has a low. Recognised by paying
    the hand that way: PokerKit's stacks are those, give or take an odd chip a pot. (When
    the side pot's players tie for the high, only its odd chips fall otherwise.)"""
    if case.stacks is None or case.hand.game is not Game.STUD_HILO:
        return False
    awards = case.replay.awards
    if not any(a.half is Half.LOW for a in awards):
        return False
    winners = {p for a in awards for p in (a.winners or ())}
    paid = dict(case.expected)
    halved = False
    for a in awards:
        if a.pot == 0 or a.half is not Half.WHOLE or not a.winners:
            continue
        live = [p for p in a.eligible if p in winners]
        if set(live) == set(a.winners) and len(a.winners) == 1:
            continue  # its low half goes back to the one who takes the high: no change
        low_half = a.amount // 2
        for p, chips in a.expected:
            paid[p] -= chips
        for p in a.winners:
            paid[p] += (a.amount - low_half) // len(a.winners)
        for p in live:
            paid[p] += low_half // len(live)
        halved = True
    most = len(case.replay.pots)
    return halved and all(abs(case.stacks[p] - v) <= most for p, v in paid.items())


def _merged_pots(case: Case) -> bool:
    """Two pots with the same players still contending, one of them split (hi/lo halves
    or a tie): PokerKit merges them before splitting, which loses each pot's odd chip.
    For PokerKit only the players who can win still contend: it kills the others' hands
    at the showdown (a player who mucked, or whose hand wins nothing) before it builds
    the pots."""
    if case.stacks is None:
        return False
    if not _odd_chips_only(case):
        return False
    winners = {p for x in case.replay.awards for p in (x.winners or ())}
    pots = case.replay.pots
    for a, b in zip(pots, pots[1:], strict=False):
        if set(a.eligible) & winners == set(b.eligible) & winners:
            split = [
                x
                for x in case.replay.awards
                if x.pot in (a.index, b.index)
                and (x.half is not Half.WHOLE or len(x.winners or ()) > 1)
            ]
            if split:
                return True
    return False


def _raise_from_bring_in(case: Case) -> bool:
    """3rd street under a house that measures the raise after a short completion from the
    bring-in (Kings Club, `RuleProfile.short_completion_raise_from_bring_in`): the bring-in
    is more than half the small bet, a completion adds less than half a bet to it, and the
    next raise is a full bet above the bring-in; PokerKit wants a full bet above the
    completion."""
    from histkit.rules.sites import site_record

    hand, e = case.phh_hand, case.event
    if not isinstance(e, Action) or e.street != 3 or e.kind not in _WAGERS:
        return False
    if not site_record(
        case.hand.site, case.hand.dialect
    ).profile.short_completion_raise_from_bring_in:
        return False
    before = _street_actions(hand, e)
    bring = [a.amount for a in before if a.kind is ActionKind.BRING_IN]
    wagers = [a for a in before if a.kind in _WAGERS]
    if not bring or len(wagers) != 1 or wagers[0].kind is not ActionKind.COMPLETE:
        return False
    to = e.to_amount if e.to_amount is not None else hand.small_bet + e.amount
    short = 2 * (hand.small_bet - bring[0]) < hand.small_bet
    return short and to == bring[0] + hand.small_bet and "below the minimum" in (case.reason or "")


def _short_all_in_counts_to_cap(case: Case) -> bool:
    """A short all-in raise, then raises up to the cap: the site counts only full raises
    toward its cap (bet and three raises), PokerKit counts the short one too."""
    e = case.event
    if not isinstance(e, Action) or e.kind not in _WAGERS or not _short_all_ins(case):
        return False
    wagers = [a for a in _street_actions(case.phh_hand, e) if a.kind in _WAGERS]
    short = {id(a) for a, _ in _short_all_ins(case)}
    full = [a for a in wagers if id(a) not in short]
    return len(wagers) >= 4 > len(full)


def _tied_odd_chip(case: Case) -> bool:
    """A pot or half split between tied hands with a chip left over: the site gives it by
    its rule (PokerStars: the highest card by suit for high, the lowest for low), PokerKit
    to the first player in seat order."""
    if case.stacks is None or not _odd_chips_only(case):
        return False
    return any(
        a.winners is not None and len(a.winners) > 1 and a.amount % len(a.winners)
        for a in case.replay.awards
    )


KNOWN: tuple[Known, ...] = (
    Known("double_bet", "PokerKit has no open-pair double bet on 4th street", _double_bet),
    Known("community_card", "PokerKit's stud has no community card", _community_card),
    Known(
        "first_actor_left_of_all_in",
        "PokerKit starts 4th-7th left of an all-in best board",
        _first_actor_all_in,
    ),
    Known(
        "full_raise_after_short_all_in",
        "PokerKit demands a full raise after a short all-in",
        _full_raise_after_short_all_in,
    ),
    Known(
        "no_limit_reopening_rule",
        "PokerKit's no-limit full-raise rule instead of the limit half-bet rule",
        _reopened_by_half_bet,
    ),
    Known(
        "raise_from_bring_in",
        "a house that measures the raise after a short completion from the bring-in",
        _raise_from_bring_in,
    ),
    Known(
        "short_all_in_counts_to_cap",
        "PokerKit counts a short all-in raise toward the raise cap",
        _short_all_in_counts_to_cap,
    ),
    Known(
        "short_ante_in_main_pot",
        "PokerKit puts every ante in the main pot (a player all-in for less wins them)",
        _short_ante,
    ),
    Known(
        "side_pot_low_half",
        "PokerKit pays a low half from a side pot where no eligible player has a low",
        _side_pot_low,
    ),
    Known(
        "merged_side_pots",
        "PokerKit merges pots of the same players, losing each pot's odd chip",
        _merged_pots,
    ),
    Known(
        "tied_half_odd_chip",
        "the odd chip of a tied half: PokerKit gives it to the lowest seat",
        _tied_odd_chip,
    ),
)


def explain(case: Case) -> str | None:
    """The name of the known difference this case is, or None."""
    for k in KNOWN:
        if k.detect(case):
            return k.name
    return None
