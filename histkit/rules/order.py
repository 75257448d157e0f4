"""Who acts when: who brings in, who acts first on 4th–7th, whose turn is next, who shows
first at the showdown.

One function per rule, each reading seat positions (0 = the first seat clockwise from the
dealer, in seat order) and bit masks of positions, so the engine, the simulator (through
`HandState.legal`) and the writers' tests ask the same code. House differences come from
the `RuleProfile` (suit order, ties, the all-in bring-in pass); game differences from the
`GameSpec` (lowest or highest card brings in, best high or best low board acts first).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import TYPE_CHECKING

from histkit import evaluate as ev
from histkit.cards import DECK, Card
from histkit.rules.games import GameSpec
from histkit.rules.profile import BringInAllIn, FirstActTie, RuleProfile, ShowdownOrder
from histkit.rules.violations import Code, Severity

if TYPE_CHECKING:
    from histkit.rules.state import HandState

__all__ = [
    "Ring",
    "ring",
    "bring_in",
    "bring_in_keys",
    "first_to_act",
    "next_to_act",
    "who_shows_first",
    "whose_turn",
    "bring_in_of",
    "first_to_act_of",
    "shows_first_of",
    "check_shows_first",
]

# ring[i]: every position clockwise after i, ending with i itself (the seat order wraps)
Ring = tuple[tuple[int, ...], ...]

_RINGS: dict[int, Ring] = {}


def ring(n: int) -> Ring:
    """The clockwise order after each of n positions; built once per table size."""
    got = _RINGS.get(n)
    if got is None:
        got = _RINGS[n] = tuple(tuple((i + k) % n for k in range(1, n + 1)) for i in range(n))
    return got


_KEYS: dict[tuple[int, bool, bool], tuple[tuple[object, ...], tuple[tuple[int, int], ...]]] = {}


def bring_in_keys(profile: RuleProfile, lowest: bool) -> tuple[tuple[int, int], ...]:
    """The bring-in sort key of each card index (the smallest brings in), built once per
    rule set: stud and hi/lo, the lowest rank (ace high) then the lowest suit in the
    profile's order; razz, the highest rank (ace low) then the highest suit.

    Keyed by the suit order's identity (hashing the enum tuple costs more than the
    lookup saves); the entry keeps the tuple alive, so the id cannot be reused."""
    order = profile.suit_order
    k = (id(order), profile.bring_in_ties_by_suit, lowest)
    got = _KEYS.get(k)
    if got is None or got[0] is not order:
        table = []
        for c in DECK:
            suit = profile.suit_rank(c.suit) if profile.bring_in_ties_by_suit else 0
            table.append((int(c.rank), suit) if lowest else (-c.rank.low, -suit))
        if len(_KEYS) >= 256:
            _KEYS.clear()
        got = _KEYS[k] = (order, tuple(table))
    return got[1]


def bring_in(
    doors: Sequence[tuple[int, Card]],
    all_in: int,
    spec: GameSpec,
    profile: RuleProfile,
    rings: Ring,
) -> int | None:
    """Who brings in on 3rd street: the lowest door card (razz: the highest), ties by the
    profile's suit order (or by position). `doors` are (position, door card) of every
    player in the hand, in seat order. When that player is all-in on the ante the
    bring-in passes, clockwise (PokerStars) or to the next door card by rank (casino);
    None when nobody with chips is left to bring in."""
    if not doors:
        return None
    keys = bring_in_keys(profile, spec.bring_in_lowest)
    keyed = [(keys[c.index], i) for i, c in doors]
    if not all_in:
        return min(keyed)[1]
    can = [k for k in keyed if not all_in >> k[1] & 1]
    if not can:
        return None
    if profile.bring_in_all_in is BringInAllIn.NEXT_BY_CARD:
        return min(can)[1]
    first = min(keyed)[1]
    if not all_in >> first & 1:
        return first
    return _next_of(first, [k[1] for k in can], rings)


def first_to_act(
    pool: Sequence[int],
    boards: Sequence[Sequence[Card | None]],
    spec: GameSpec,
    profile: RuleProfile,
    bring_in_seat: int | None,
    rings: Ring,
) -> int | None:
    """Who acts first on 4th–7th street: the best board showing (razz: the best low),
    among `pool` (positions in seat order, with their up cards in `boards`); ties go to the
    lowest position or clockwise from the bring-in (profile). None when an up card is
    unknown, or a card shows twice on one board (reported when dealt): not checkable."""
    if not pool:
        return None
    try:
        values = ev.rank_boards(boards, high=spec.board_best_high)
    except ValueError:
        return None
    if values is None:
        return None
    best = max(values)
    tied = [i for i, v in zip(pool, values, strict=True) if v == best]
    if len(tied) == 1 or profile.first_act_tie is FirstActTie.LOWEST_SEAT:
        return tied[0]
    start = bring_in_seat if bring_in_seat is not None else tied[0]
    return start if start in tied else _next_of(start, tied, rings)


def who_shows_first(
    contenders: Sequence[int],
    aggressor: int | None,
    boards: Sequence[Sequence[Card | None]],
    spec: GameSpec,
    profile: RuleProfile,
    rings: Ring,
) -> int | None:
    """Who shows first at the showdown among `contenders` (positions in seat order, with
    their up cards in `boards`): the last player to bet or raise on the last street
    (`aggressor`); without one, by the profile's order (`ShowdownOrder`): the first seat,
    or the best board showing. None when the profile checks no order, or who it is
    cannot be told (an up card unknown)."""
    rule = profile.showdown_order
    if rule is None or not contenders:
        return None
    if aggressor is not None and aggressor in contenders:
        return aggressor
    if rule is ShowdownOrder.FIRST_SEAT:
        return contenders[0]
    if rule is ShowdownOrder.BEST_BOARD:
        return first_to_act(contenders, boards, spec, profile, None, rings)
    return None  # AGGRESSOR: no bet on the last street, no order


def next_to_act(
    seq: Sequence[int], active: int, acted: int, street_in: Sequence[int], bet: int
) -> int | None:
    """The first position of `seq` (a clockwise order) that can still act and has yet to:
    one in `active` that has not acted since the last full wager, or is short of `bet`."""
    for i in seq:
        if active >> i & 1 and (not acted >> i & 1 or street_in[i] < bet):
            return i
    return None


def _next_of(after: int, among: Sequence[int], rings: Ring) -> int | None:
    """The first position of `among` clockwise after `after` (wrapping)."""
    pool = set(among)
    for i in rings[after]:
        if i in pool:
            return i
    return None


# --------------------------------------------------------- the engine's questions
# (read the engine's per-seat state, `HandState`'s public fields)


def whose_turn(
    st: HandState, opener: int | None, bring_in_seat: int | None, due: bool
) -> int | None:
    """Whose turn it is in the street's betting: the bring-in while it is due, else the
    opener's turn first, then clockwise from the last to act; None when the round is over
    (or who opens it cannot be told)."""
    live, active = st.live_mask, st.active_mask
    if not live & (live - 1) or not active:
        return None  # one player left in (or none), or nobody left who can act
    si, bet, acted = st.street_in, st.bet, st.acted_mask
    if not active & (active - 1) and si[active.bit_length() - 1] >= max(si):
        return None  # the one player left to act has matched every bet
    last = st.last
    if due or last is None:
        if next_to_act(range(st.n), active, acted, si, bet) is None:
            return None  # the round is complete
        if due:
            return bring_in_seat
        if opener is None:
            return None
        seq: Sequence[int] = st.rings[(opener - 1) % st.n]  # clockwise from the opener
    else:
        seq = st.rings[last]
    for i in seq:  # next_to_act, inline: this runs at every action
        if active >> i & 1 and (not acted >> i & 1 or si[i] < bet):
            return i
    return None


def bring_in_of(st: HandState) -> int | None:
    """Who brings in at this table now (None: an up card is unknown, or nobody can)."""
    ledger, live = st.ledger, st.live_mask
    doors = []
    for i in range(st.n):
        if live >> i & 1:
            c = ledger.door(i)
            if c is None:
                return None  # an up card is unknown: the bring-in cannot be checked
            doors.append((i, c))
    return bring_in(doors, st.allin_mask, st.spec, st.profile, st.rings)


def first_to_act_of(st: HandState) -> int | None:
    """Who opens this street's betting (4th–7th): among the players who can still act, or
    every player still in where the profile ranks all-in boards too."""
    mask = st.active_mask if st.profile.first_act_skips_all_in else st.live_mask
    pool = [i for i in range(st.n) if mask >> i & 1]
    boards = [st.ledger.board(i) for i in pool]
    return first_to_act(pool, boards, st.spec, st.profile, st.bring_in_seat, st.rings)


def shows_first_of(st: HandState, rule: ShowdownOrder | None = None) -> int | None:
    """Who shows first at this showdown (every player still in is a contender), by the
    profile's order or by `rule` where given (a writer keeps one order for every site)."""
    live = st.live_mask
    pool = [i for i in range(st.n) if live >> i & 1]
    boards = [st.ledger.board(i) for i in pool]
    prof = st.profile
    if rule is not None and rule is not prof.showdown_order:
        prof = dataclasses.replace(prof, showdown_order=rule)
    return who_shows_first(pool, st.aggressor, boards, st.spec, prof, st.rings)


def check_shows_first(st: HandState, i: int) -> None:
    """Position i is the first to show or muck at the showdown (two or more players still
    in): is it who the profile says shows first? Informational: no site's text promises
    the order of its show lines. Not asked where a player is all-in (side pots are shown
    down by their own contenders)."""
    live = st.live_mask
    if not live >> i & 1 or not live & (live - 1):
        return  # a folded player's cards, or no showdown
    st.showdown_seen = True
    if live & st.allin_mask:
        return
    due = shows_first_of(st)
    if due is None or due == i:
        return
    q = st.names[due]
    if due == st.aggressor:
        why = f"made the last bet on {st.street_name()}"
    elif st.profile.showdown_order is ShowdownOrder.FIRST_SEAT:
        why = "is the first player in seat order"
    else:
        why = "has the best board showing"
    st.report(
        Code.SHOWDOWN_ORDER,
        f"{st.names[i]} shows first at the showdown, but {q}, who {why}, was due to "
        f"({st.profile.name}'s order; the site's text does not promise it).",
        expected=q,
        reported=st.names[i],
        severity=Severity.INFO,
    )
