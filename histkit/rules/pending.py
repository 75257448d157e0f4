"""What may come next in a hand: the simulator's questions, answered without changing it.

`pending` says what the record should state next (antes to post, cards to deal, whose
turn, the showdown, or nothing: settle); `legal` what the player to act may do. A street
whose cards are all dealt is about to open its betting: the queries answer as the opening
would decide (who brings in, who acts first), and leave the opening itself to the next
fact, so asking twice, or not at all, never changes the audit of a hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from histkit.model import Street
from histkit.rules import betting, order
from histkit.rules.speed import P_ANTES as _ANTES
from histkit.rules.speed import P_BET as _BET
from histkit.rules.speed import P_DEAL as _DEAL
from histkit.rules.speed import P_OVER as _OVER
from histkit.rules.speed import SEVENTH as _SEVENTH
from histkit.rules.speed import THIRD as _THIRD

if TYPE_CHECKING:
    from histkit.rules.state import HandState

__all__ = [
    "PendingKind",
    "Pending",
    "Legal",
    "bring_in_seat",
    "pending",
    "legal",
    "options",
    "to_act",
]


class PendingKind(StrEnum):
    ANTES = "antes"
    DEAL = "deal"
    ACTION = "action"
    SHOWDOWN = "showdown"
    DONE = "done"


@dataclass(frozen=True, slots=True)
class Pending:
    """What comes next: antes still to post, cards to deal, a player to act, the
    showdown, or nothing (DONE: settle the hand).

    A 7th-street DEAL with `player` None means the deck is short: deal one community
    card, as `StreetStart(SEVENTH, community=card)`."""

    kind: PendingKind
    street: Street | None = None
    player: str | None = None


@dataclass(frozen=True, slots=True)
class Legal:
    """The options of the player to act. Every wager is capped at `stack` (all-in)."""

    player: str
    street: Street
    can_fold: bool
    can_check: bool
    call: int | None  # chips to add to call (capped at stack), None if nothing to call
    bring_in: int | None  # the forced bring-in, when it is due (None if the amount is unknown)
    complete_to: int | None  # street total of a completion (3rd street, to the small bet)
    bet: int | None  # chips of an opening bet on 4th–7th
    raise_to: int | None  # street total after a full raise, None if capped/not allowed
    stack: int
    bet_big: int | None = None  # 4th street open pair (stud high): the optional big bet
    raise_to_big: int | None = None  # ... and the big raise after a small bet


def to_act(st: HandState) -> str | None:
    """Whose turn it is in the current betting round (None if it is over); a street whose
    cards are all dealt is about to open its betting."""
    open_, opener, bring_in, due = _betting(st)
    if not open_:
        return None
    i = order.whose_turn(st, opener, bring_in, due)
    return None if i is None else st.names[i]


def bring_in_seat(st: HandState) -> int | None:
    """Who brings in, as the betting stands or as opening it now would decide."""
    open_, _, seat, _ = _betting(st)
    return seat if open_ else st.bring_in_seat


def _betting(st: HandState) -> tuple[bool, int | None, int | None, bool]:
    """(the betting is open or about to open, its opener, the bring-in seat, whether the
    bring-in is due), as the betting round stands or as opening it now would decide."""
    phase = st.phase
    if phase is _BET:
        return True, st.opener, st.bring_in_seat, st.bring_in_due
    if phase is _DEAL and st.street is not None and _next_undealt(st, st.street) is None:
        return (True, *st.opening())
    return False, None, None, False


def pending(st: HandState) -> Pending:
    """What the record should state next."""
    phase = st.phase
    if phase is _ANTES:
        if st.ante:
            done = st.ante_mask | st.away_mask
            for i in range(st.n):
                if not done >> i & 1:
                    return Pending(PendingKind.ANTES, _THIRD, st.names[i])
        return Pending(PendingKind.DEAL, _THIRD, _next_undealt(st, _THIRD))
    if phase is _OVER:
        return _end(st)
    if phase is _DEAL:
        if st.street == _SEVENTH and _needs_community(st):
            return Pending(PendingKind.DEAL, st.street, None)  # None: the community card
        who = _next_undealt(st, st.street or _THIRD)
        if who is not None:
            return Pending(PendingKind.DEAL, st.street, who)
    open_, opener, bring_in, due = _betting(st)
    if not open_:
        return _end(st)
    turn = order.whose_turn(st, opener, bring_in, due)
    if turn is not None:
        return Pending(PendingKind.ACTION, st.street, st.names[turn])
    if st.live_mask.bit_count() <= 1 or st.street == _SEVENTH:
        return _end(st)
    nxt = Street(int(st.street or 3) + 1)
    if nxt == _SEVENTH and st.community_needed(nxt):
        return Pending(PendingKind.DEAL, nxt, None)
    return Pending(PendingKind.DEAL, nxt, _next_undealt(st, nxt, new_street=True))


def _end(st: HandState) -> Pending:
    """The betting is over: the showdown of whoever has yet to show or muck, or done."""
    live = st.live_mask
    if live.bit_count() <= 1:
        return Pending(PendingKind.DONE, st.street)
    for i in range(st.n):
        if live >> i & 1 and not st.muck_mask >> i & 1 and st.names[i] not in st.shown:
            return Pending(PendingKind.SHOWDOWN, st.street, st.names[i])
    return Pending(PendingKind.DONE, st.street)


def _next_undealt(st: HandState, street: Street, new_street: bool = False) -> str | None:
    """The next player to be dealt on `street` (a new street: its first), seat order."""
    if street == _SEVENTH and st.community_needed(street):
        return None
    if street == _THIRD and st.phase is _ANTES:
        pool = st.ante_mask or ((1 << st.n) - 1) & ~st.away_mask
    elif street == _THIRD and not st.dealt_mask:
        pool = 0
    else:
        pool = st.live_mask
    if not new_street:
        pool &= ~st.dealt_now
    for i in range(st.n):
        if pool >> i & 1:
            return st.names[i]
    return None


def _needs_community(st: HandState) -> bool:
    """7th street, the deck is short and the community card is not out yet."""
    return st.ledger.community is None and not st.dealt_now and st.community_needed(_SEVENTH)


def legal(st: HandState) -> Legal | None:
    """The options of the player to act, None when nobody is to act."""
    open_, opener, bring_in, due = _betting(st)
    if not open_ or st.street is None:
        return None
    i = order.whose_turn(st, opener, bring_in, due)
    if i is None:
        return None
    return options(st, i, due)


def options(st: HandState, i: int, bring_in_due: bool) -> Legal:
    """What position i, whose turn it is, may do (`bring_in_due`: the forced bring-in)."""
    p = st.names[i]
    street = st.street or _THIRD
    stack = st.stack[i]
    mine = st.street_in[i]
    facing = st.bet - mine
    small, big = st.small_bet, st.big_bet
    if bring_in_due:
        bi = st.bring_in_amount
        return Legal(
            player=p,
            street=street,
            can_fold=False,
            can_check=False,
            call=None,
            bring_in=None if bi is None else min(bi, stack),
            complete_to=min(small, stack),
            bet=None,
            raise_to=None,
            stack=stack,
        )
    can_raise = betting.may_raise(st, i)
    complete_to = bet = raise_to = bet_big = raise_big = None
    if street == _THIRD and st.wagers == 0:
        complete_to = min(small, stack + mine) if can_raise else None
    elif st.wagers == 0:
        if betting.someone_could_call(st, i):
            bet = min(betting.street_bet(street, small, big), stack)
            if betting.double_allowed(st):
                bet_big = min(big, stack)
    elif can_raise:
        raise_to = min(betting.raise_base(st) + st.inc, stack + mine)
        if betting.double_allowed(st) and st.inc == small:
            raise_big = min(st.bet + big, stack + mine)
    return Legal(
        player=p,
        street=street,
        can_fold=True,
        can_check=facing <= 0,
        call=min(facing, stack) if facing > 0 else None,
        bring_in=None,
        complete_to=complete_to,
        bet=bet,
        raise_to=raise_to,
        stack=stack,
        bet_big=bet_big,
        raise_to_big=raise_big,
    )
