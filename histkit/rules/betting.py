"""What a player may bet, and the check of every betting action against it.

Limit stud: a bring-in or a completion to the small bet on 3rd street, small bets on 3rd
and 4th (the big bet on 4th over an open pair, stud high, where the profile allows it),
big bets on 5th–7th; raises by the street's increment up to the profile's cap; a short
all-in counts as a full wager from half a bet under the half-bet rule; no bet or raise
that no opponent could call. The questions (may a player raise, is the street capped)
serve `rules/pending.py`, which says what the player to act may do; `act` checks what a
player did, then applies it. Both read the engine's per-seat state (`HandState`'s
public fields); only `act`, `put`, `returned` and `close` change it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from histkit.cards import Card
from histkit.model import ActionKind, Street
from histkit.rules import order
from histkit.rules.profile import ShortAllIn
from histkit.rules.speed import BET as _BET
from histkit.rules.speed import BRING_IN as _BRING_IN
from histkit.rules.speed import CALL as _CALL
from histkit.rules.speed import CHECK as _CHECK
from histkit.rules.speed import COMPLETE as _COMPLETE
from histkit.rules.speed import FOLD as _FOLD
from histkit.rules.speed import FOURTH as _FOURTH
from histkit.rules.speed import P_ANTES as _P_ANTES
from histkit.rules.speed import P_BET as _P_BET
from histkit.rules.speed import P_DEAL as _P_DEAL
from histkit.rules.speed import P_OVER as _P_OVER
from histkit.rules.speed import RAISE as _RAISE
from histkit.rules.speed import THIRD as _THIRD
from histkit.rules.violations import Code, Severity

if TYPE_CHECKING:
    from histkit.rules.state import HandState

__all__ = [
    "big_street",
    "street_bet",
    "half_counts",
    "pair_showing",
    "excess",
    "stakes_shown",
    "act",
    "put",
    "close",
    "returned",
    "unmatched",
    "capped",
    "double_allowed",
    "may_raise",
    "someone_could_call",
]


# ------------------------------------------------------------------ the questions
def big_street(street: Street) -> bool:
    """Whether `street` is played for the big bet: from 5th street (the open pair's big
    bet on 4th is `double_allowed`'s question)."""
    return street > _FOURTH


def street_bet(street: Street, small: int, big: int) -> int:
    """The fixed-limit bet of a street: the small bet on 3rd and 4th, the big bet from
    5th (`big_street`)."""
    return big if big_street(street) else small


def half_counts(rule: ShortAllIn, bet: int, to: int, full_to: int) -> bool:
    """Does a short all-in wager from the standing `bet` to `to` count as a full wager to
    `full_to` (the half-bet rule: half the wager or more, where the profile has it)?"""
    if rule is ShortAllIn.NEVER:
        return False
    return 2 * (to - bet) >= full_to - bet


def pair_showing(boards: Iterable[Sequence[Card | None]]) -> bool:
    """Whether one of these 4th-street boards (each player's two up cards) shows an open
    pair, or may: a board the record does not show whole (a card unknown, or fewer than
    two) cannot be ruled out."""
    for up in boards:  # noqa: SIM110 - a plain loop beats any() over a generator
        if len(up) < 2 or len({c.rank for c in up if c is not None}) < len(up):
            return True
    return False


def excess(totals: Sequence[int]) -> tuple[int, int] | None:
    """The bet nobody matched among the street totals: (the index of the top total, its
    chips over the next one), else None."""
    if not totals:
        return None
    vals = sorted(totals)
    top = vals[-1]
    over = top - (vals[-2] if len(vals) > 1 else 0)
    return (totals.index(top), over) if over > 0 else None


def stakes_shown(
    wagers: Iterable[tuple[Street, int, int, bool, bool]], rule: ShortAllIn
) -> tuple[int | None, int | None, int]:
    """What a hand's wagers say of its fixed-limit bets, for a site that writes none:
    (the small bet, the big bet: None where no full wager shows it; the least small bet
    its all-ins allow, an all-in being only a bound: it may be short). A wager is (street,
    the bet standing, the street total it reaches, all-in, for the big bet on 4th); the
    caller leaves out a raise on 4th over an open pair, which may raise by either bet. A
    full wager shows its street's bet (`big_street`): 3rd street's first completes to the
    small bet, later ones add the bet. After only short all-ins on its street it raises by
    the bet over the last all-in that counted as a full wager (`half_counts`), or else
    completes the bet: the first reading that fits the all-ins gives the size, none none."""
    bets: dict[bool, int] = {}  # big -> the first size shown
    bound = 0
    wagered: set[Street] = set()
    full: set[Street] = set()
    shorts: dict[Street, list[tuple[int, int]]] = {}  # (bet standing, all-in total)
    for street, top, to, all_in, double in wagers:
        size = to if street is _THIRD and street not in wagered else to - top
        wagered.add(street)
        big = double or big_street(street)
        if all_in:
            bound = max(bound, -(-size // 2) if big else size)
            if street not in full:
                shorts.setdefault(street, []).append((top, to))
            continue
        if street in shorts and street not in full:
            fits = [s for s in (to - top, to) if s > 0 and _fits(rule, shorts[street], to, s)]
            size = fits[0] if fits else 0
        full.add(street)
        if size:
            bets.setdefault(big, size)
    return bets.get(False), bets.get(True), bound


def _fits(rule: ShortAllIn, shorts: list[tuple[int, int]], to: int, bet: int) -> bool:
    """Whether a full wager to `to`, after only the all-ins `shorts` on its street, fits a
    street bet of `bet`: it reaches `bet`, or the last all-in that counted as a full wager
    plus `bet`; every all-in must have been short of a full wager."""
    level = 0
    for before, allin in shorts:
        full_to = level + bet
        if allin >= full_to:
            return False  # it reached a full wager: it was no short all-in
        if half_counts(rule, before, allin, full_to):
            level = allin  # counted as a full wager: the next raises over it
    return to == level + bet


def someone_could_call(st: HandState, i: int) -> bool:
    """Is there an opponent a bet or raise by position i could be called by: one still in
    the hand, not all-in, with more chips than the bet already standing? If not, no site
    lets i bet or raise (a wager no one can call is only returned to them)."""
    si, stack, bet = st.street_in, st.stack, st.bet
    active = st.active_mask & ~(1 << i)
    for q in range(st.n):  # noqa: SIM110 - a plain loop beats any() over a generator
        if active >> q & 1 and si[q] + stack[q] > bet:
            return True
    return False


def capped(st: HandState) -> bool:
    """The street's wagers have reached the profile's cap (heads-up: its own cap)."""
    cap = st.cap_heads_up if st.live_mask.bit_count() == 2 else st.cap_multi
    return cap is not None and st.wagers >= cap


def double_allowed(st: HandState) -> bool:
    """4th street, stud high: an open pair on any live board allows the big bet. A live
    board whose up cards the record does not show may hold a pair: then the big bet
    cannot be ruled out (it is not checked, never called wrong)."""
    if not st.double_game or st.street != _FOURTH:
        return False
    live, ledger = st.live_mask, st.ledger
    return pair_showing([ledger.up_cards(i) for i in range(st.n) if live >> i & 1])


def may_raise(st: HandState, i: int) -> bool:
    if st.street_in[i] + st.stack[i] <= st.bet:
        return False
    if capped(st) or not someone_could_call(st, i):
        return False
    # a player who has acted since the last full wager may not raise a short all-in
    return not st.acted_mask >> i & 1


# -------------------------------------------------------------------- the checks
def act(
    st: HandState,
    street: Street,
    p: str,
    kind: ActionKind,
    amount: int,
    to: int | None,
    all_in: bool,
) -> None:
    """A bring-in, bet, completion, raise, call, check or fold: checked, then applied."""
    i = st.index.get(p)
    if i is None:
        st.report(Code.UNKNOWN_PLAYER, f"{p} acts but has no seat at this table.")
        return
    phase, cur = st.phase, st.street
    if phase is not _P_BET or cur is None or street > cur:  # (else as usual: betting is open)
        if phase is _P_ANTES:
            st.start_street(_THIRD, None)
        if st.street is None or street > st.street:
            st.start_street(street, None)
        if st.phase is _P_DEAL:
            st.open_betting()
        phase = st.phase
    bit = 1 << i
    if not st.active_mask & bit:  # else dealt in, not folded, not all-in: all fine
        if st.ledger.slots[i] is None:
            st.report(Code.UNKNOWN_PLAYER, f"{p} acts but was not dealt in.")
            return
        if st.fold_mask & bit:
            st.report(Code.ACTION_AFTER_FOLD, f"{p} acts ({kind.value}) after folding.", blame=(i,))
            return
        if st.allin_mask & bit:
            st.report(
                Code.ACTION_AFTER_ALL_IN,
                f"{p} acts ({kind.value}) after going all-in.",
                blame=(i,),
            )
            return
    live = st.live_mask
    if phase is _P_OVER or not live & (live - 1):  # over, or one player left in
        st.report(Code.ACTION_AFTER_END, f"{p} acts ({kind.value}) after the hand was over.")
        return
    turn = None
    if phase is _P_BET:
        turn = order.whose_turn(st, st.opener, st.bring_in_seat, st.bring_in_due)
    if turn != i:
        _turn_violation(st, i, kind, turn)
    if kind is _CALL:
        if st.bring_in_due:
            _bring_in_forced(st, i, kind)
        _call(st, i, amount, all_in)
    elif kind is _CHECK:
        if st.bring_in_due:
            _bring_in_forced(st, i, kind)
        facing = st.bet - st.street_in[i]
        if facing > 0:
            owe = min(facing, st.stack[i])
            st.report(
                Code.CHECK_FACING_BET,
                f"{p} checks facing a bet of {st.m(st.bet)}; they must call {st.m(owe)}, "
                "raise or fold.",
                expected=owe,
                reported=0,
            )
        st.acted_mask |= bit
    elif kind is _FOLD:
        if st.bring_in_due:
            _bring_in_forced(st, i, kind)
        st.fold_mask |= bit
        st.live_mask &= ~bit
        st.active_mask &= ~bit
        st.fold_streets[i] = st.street or _THIRD
        st.acted_mask |= bit
    elif kind is _BRING_IN:
        _bring_in(st, i, amount, all_in)
    elif kind is _BET or kind is _RAISE or kind is _COMPLETE:
        _wager(st, i, kind, amount, to, all_in)
    st.last = i


def _turn_violation(st: HandState, i: int, kind: ActionKind, turn: int | None) -> None:
    """Position i acts when position `turn` should (None: nobody, the round was
    complete). The finding is about both: one of their lines is missing or misplaced."""
    p = st.names[i]
    expected = None if turn is None else st.names[turn]
    if st.opener is None and st.last is None:
        pass  # an up card is unknown: who opens the street cannot be checked
    elif expected is None and not st.bring_in_due:
        st.report(
            Code.OUT_OF_TURN,
            f"{p} acts ({kind.value}) on {st.street_name()} after the betting round was complete.",
            reported=p,
            blame=(i,),
        )
    elif st.bring_in_due and st.bring_in_seat is not None:
        who = st.names[st.bring_in_seat]
        st.report(
            Code.BRING_IN_WRONG_PLAYER,
            f"{p} acts first on 3rd street, but {who} has the {_bring_in_desc(st)} and must "
            "bring in.",
            expected=who,
            reported=p,
            blame=(st.bring_in_seat, i),
        )
    else:
        st.report(
            Code.OUT_OF_TURN,
            f"{p} acts out of turn on {st.street_name()}: it is {expected}'s turn.",
            expected=expected,
            reported=p,
            blame=(i,) if turn is None else (turn, i),
        )


def _bring_in_desc(st: HandState) -> str:
    i = st.bring_in_seat
    up = st.ledger.up_cards(i) if i is not None else ()
    word = "lowest" if st.spec.bring_in_lowest else "highest"
    return f"{word} up card ({up[0]})" if up else f"{word} up card"


def _bring_in_forced(st: HandState, i: int, kind: ActionKind) -> None:
    """Any non-wager first action on 3rd street where the bring-in was due."""
    if st.bring_in_due and i == st.bring_in_seat:
        st.report(
            Code.BRING_IN_AMOUNT,
            f"{st.names[i]} must bring in or complete, but {kind.value}s.",
            reported=kind.value,
            blame=(i,),
        )
        st.bring_in_due = False


def _bring_in(st: HandState, i: int, amount: int, all_in: bool) -> None:
    p = st.names[i]
    # a wrong player was reported by the turn check; an unknown up card leaves the
    # bring-in player unknown (nothing to check)
    unknown = st.bring_in_seat is None and st.wagers == 0
    if st.street != _THIRD or not (st.bring_in_due or unknown):
        st.report(Code.BRING_IN_AMOUNT, f"{p} brings in when no bring-in is due.", blame=(i,))
    st.bring_in_due = False
    stack = st.stack[i]
    bi = st.bring_in_amount
    if bi is None:
        if amount >= st.small_bet or amount <= 0:
            st.report(
                Code.BRING_IN_AMOUNT,
                f"{p} brings in for {st.m(amount)}; a bring-in must be less than the small "
                f"bet of {st.m(st.small_bet)}.",
                reported=amount,
                blame=(i,),
            )
        elif not all_in:
            st.bring_in_amount = amount
    elif amount != bi and not (all_in and amount == stack and stack < bi):
        st.report(
            Code.BRING_IN_AMOUNT,
            f"{p} brings in for {st.m(amount)}; the bring-in is {st.m(bi)}.",
            expected=bi,
            reported=amount,
            blame=(i,),
        )
    put(st, i, amount, all_in, "bring-in")
    st.bet = max(st.bet, st.street_in[i])
    st.acted_mask |= 1 << i


def _call(st: HandState, i: int, amount: int, all_in: bool) -> None:
    p = st.names[i]
    facing = st.bet - st.street_in[i]
    stack = st.stack[i]
    expected = facing if facing < stack else stack
    if facing <= 0:
        st.report(
            Code.CALL_AMOUNT,
            f"{p} calls {st.m(amount)} with nothing to call.",
            expected=0,
            reported=amount,
            blame=(i,),
        )
    elif amount != expected:
        st.report(
            Code.CALL_AMOUNT,
            f"{p} calls {st.m(amount)}; the call is {st.m(expected)}.",
            expected=expected,
            reported=amount,
            blame=(i,),
        )
    put(st, i, amount, all_in, "call")
    st.acted_mask |= 1 << i


def _wager(
    st: HandState, i: int, kind: ActionKind, amount: int, to_amount: int | None, all_in: bool
) -> None:
    p = st.names[i]
    before = st.street_in[i]
    bet = st.bet
    if to_amount is not None:
        to = to_amount
        if kind is _RAISE and amount != to - bet:
            st.report(
                Code.RAISE_SIZE,
                f"{p} 'raises {st.m(amount)} to {st.m(to)}', but the bet was {st.m(bet)}.",
                expected=to - bet,
                reported=amount,
                blame=(i,),
            )
    elif kind is _RAISE:
        to = bet + amount
    else:
        to = before + amount
    short = all_in and to == before + st.stack[i]
    if not someone_could_call(st, i):
        st.report(
            Code.RAISE_NOT_ALLOWED,
            f"{p} {kind.value}s to {st.m(to)}, but no opponent can call it: every other "
            "player still in the hand is all-in.",
            reported=to,
            blame=(i,),
        )
    st.aggressor = i  # the last to bet or raise (who shows first at the showdown)
    if (st.street or _THIRD) == _THIRD and st.wagers == 0:
        _complete(st, i, to, short)
    elif st.wagers == 0:
        _bet(st, i, to, short)
    else:
        _raise(st, i, to, short)
    put(st, i, to - before, all_in, kind.value)


def _half(st: HandState, to: int, full_to: int) -> bool:
    """Does a short all-in wager count as a full one (profile: half-bet rule)?"""
    return half_counts(st.profile.short_all_in, st.bet, to, full_to)


def _complete(st: HandState, i: int, to: int, short: bool) -> None:
    st.bring_in_due = False  # the bring-in player completes instead, if it was due
    target = st.small_bet
    if to != target and not (short and st.bet < to < target):
        st.report(
            Code.BET_SIZE,
            f"{st.names[i]} completes to {st.m(to)} on 3rd street; the completion is to "
            f"{st.m(target)}.",
            expected=target,
            reported=to,
            blame=(i,),
        )
    _register(st, i, to, to >= target or _half(st, to, target))
    st.inc = st.small_bet


def _bet(st: HandState, i: int, to: int, short: bool) -> None:
    sizes = [street_bet(st.street or _FOURTH, st.small_bet, st.big_bet)]
    if double_allowed(st):
        sizes.append(st.big_bet)
    if to not in sizes and not (short and 0 < to < min(sizes)):
        st.report(
            Code.BET_SIZE,
            f"{st.names[i]} bets {st.m(to)} on {st.street_name()}; the bet there is "
            f"{' or '.join(st.m(s) for s in sizes)}.",
            expected=sizes[0] if len(sizes) == 1 else "/".join(map(str, sizes)),
            reported=to,
            blame=(i,),
        )
    st.inc = to if to in sizes else sizes[0]
    _register(st, i, to, to >= min(sizes) or _half(st, to, min(sizes)))


def _raise(st: HandState, i: int, to: int, short: bool) -> None:
    p = st.names[i]
    bet = st.bet
    incs = [st.inc]
    if double_allowed(st) and st.inc == st.small_bet:
        incs.append(st.big_bet)
    base = raise_base(st)
    targets = [base + k for k in incs]
    if to <= bet:
        st.report(
            Code.RAISE_SIZE,
            f"{p} raises to {st.m(to)}, which does not exceed the bet of {st.m(bet)}.",
            expected=targets[0],
            reported=to,
            blame=(i,),
        )
    elif to not in targets and not (short and to < targets[0]):
        st.report(
            Code.RAISE_SIZE,
            f"{p} raises to {st.m(to)} on {st.street_name()}; a raise there is to "
            f"{st.m(targets[0])}.",
            expected=targets[0],
            reported=to,
            blame=(i,),
        )
    if capped(st):
        st.report(
            Code.RAISE_CAP,
            f"{p} raises to {st.m(to)} on {st.street_name()} after betting was capped at "
            f"{st.m(bet)} (bet and {st.profile.max_raises} raises).",
            expected=bet,
            reported=to,
            blame=(i,),
        )
    elif st.acted_mask >> i & 1:
        st.report(
            Code.RAISE_NOT_ALLOWED,
            f"{p} raises although only a short all-in was made since they acted; the "
            "betting was not reopened.",
            reported=to,
            blame=(i,),
        )
    if to - bet > st.small_bet and to in targets:
        st.inc = to - bet
    _register(st, i, to, to >= targets[0] or _half(st, to, targets[0]))


def raise_base(st: HandState) -> int:
    """What a raise is measured from: the bet, except under a house that counts a short
    completion as an incomplete raise (`RuleProfile.short_completion_raise_from_bring_in`):
    the first raise after a completion that added less than half a small bet to the
    bring-in is measured from the bring-in."""
    bi = st.bring_in_amount
    if (
        st.profile.short_completion_raise_from_bring_in
        and (st.street or _THIRD) == _THIRD
        and st.wagers == 1
        and bi is not None
        and st.bet == st.small_bet
        and 2 * (st.small_bet - bi) < st.small_bet
    ):
        return bi
    return st.bet


def _register(st: HandState, i: int, to: int, full: bool) -> None:
    """A wager to `to`: a full one reopens the betting for everyone else."""
    if full:
        st.wagers += 1
        st.acted_mask = 1 << i
    else:
        st.acted_mask |= 1 << i
    st.bet = max(st.bet, to)


def put(st: HandState, i: int, chips: int, all_in_flag: bool, what: str) -> None:
    """Chips from position i's stack into the pot (no more than they have)."""
    p = st.names[i]
    stack = st.stack[i]
    if chips < 0:
        chips = 0
    if chips > stack:
        st.report(
            Code.OVER_STACK,
            f"{p}'s {what} of {st.m(chips)} is more than the {st.m(stack)} they have.",
            expected=stack,
            reported=chips,
            blame=(i,),
        )
        chips = stack
    st.stack[i] = left = stack - chips
    st.street_in[i] += chips
    st.total_in[i] += chips
    if left == 0:
        st.allin_mask |= 1 << i
        st.active_mask &= ~(1 << i)
        if not all_in_flag:
            st.report(
                Code.ALL_IN_MARKER,
                f"{p}'s {what} of {st.m(chips)} puts them all-in, but the line does not say so.",
                severity=Severity.WARNING,
                blame=(i,),
            )
    elif all_in_flag:
        st.report(
            Code.ALL_IN_MARKER,
            f"{p}'s {what} is marked all-in but leaves {st.m(left)} behind.",
            expected=chips + left,
            reported=chips,
            blame=(i,),
        )


def unmatched(st: HandState) -> tuple[str, int] | None:
    """The bet nobody matched at the end of a betting round: (player, chips), else None."""
    got = excess(st.street_in)
    return None if got is None else (st.names[got[0]], got[1])


def returned(st: HandState, player: str, amount: int) -> None:
    """An uncalled bet is returned: it must be the unmatched part of the top bet."""
    unc = unmatched(st)
    i = st.index.get(player)
    if i is None:
        st.report(Code.UNKNOWN_PLAYER, f"An uncalled bet is returned to {player}.")
        return
    if unc is None or unc != (player, amount):
        exp = f"{st.m(unc[1])} to {unc[0]}" if unc else "nothing"
        st.report(
            Code.UNCALLED_BET,
            f"{st.m(amount)} is returned to {player} as uncalled; expected {exp}.",
            expected=exp,
            reported=f"{st.m(amount)} to {player}",
            blame=(i,),
        )
    back = min(amount, st.street_in[i])
    st.street_in[i] -= back
    st.total_in[i] -= back
    st.stack[i] += back
    if st.stack[i] > 0:
        st.allin_mask &= ~(1 << i)
        st.recount()
    st.bet = max(st.street_in)  # the returned chips are no longer a bet
    st.uncalled_done = True


def close(st: HandState) -> None:
    """The street's betting ends: whoever still had to act never did, and a bet nobody
    called must be returned (where the site writes it)."""
    if _open(st):
        active = st.active_mask
        si, bet = st.street_in, st.bet
        # players already found missing first: the others' missed turns may follow from theirs
        found = st.causes.players
        for i in sorted(range(st.n), key=lambda i: i not in found):
            if active >> i & 1 and (not st.acted_mask >> i & 1 or si[i] < bet):
                st.report(
                    Code.MISSING_ACTION,
                    f"{st.names[i]} never acts on {st.street_name()} although "
                    + (
                        f"facing {st.m(bet - si[i])} to call."
                        if si[i] < bet
                        else "it was their turn."
                    ),
                    expected=st.names[i],
                    blame=(i,),
                )
                st.acted_mask |= 1 << i  # report once
    unc = None if st.uncalled_done or not st.returns_written else unmatched(st)
    if unc is not None:
        p, amount = unc
        st.report(
            Code.UNCALLED_BET,
            f"{st.m(amount)} of {p}'s bet on {st.street_name()} was never called but is not "
            "returned.",
            expected=amount,
            reported=0,
            blame=st.blame_of(p),
        )
        st.uncalled_done = True


def _open(st: HandState) -> bool:
    """The round is not complete: someone active has yet to act or to match the bet."""
    live, active = st.live_mask, st.active_mask
    if live.bit_count() <= 1 or not active:
        return False
    si = st.street_in
    if active.bit_count() == 1 and si[active.bit_length() - 1] >= max(si):
        return False
    return order.next_to_act(range(st.n), active, st.acted_mask, si, st.bet) is not None


def capped_line(st: HandState) -> None:
    """'Betting is capped' is printed: the street must be at its cap."""
    if not capped(st):
        st.report(
            Code.RAISE_CAP,
            f"'Betting is capped' is printed after {st.wagers} wagers on {st.street_name()}; "
            f"the cap is {st.profile.cap(st.live_mask.bit_count() == 2)}.",
            severity=Severity.WARNING,
        )


def double_line(st: HandState) -> None:
    """'a double bet is allowed' is printed: there must be an open pair on 4th street."""
    if not double_allowed(st):
        st.report(
            Code.BET_SIZE,
            "'a double bet is allowed' is printed without an open pair on 4th street.",
            severity=Severity.WARNING,
        )
