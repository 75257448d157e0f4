"""HandState: an incremental, *mutable* cursor over one stud hand.

Feed it the hand's events one at a time with `apply`; each call checks the event against
the rules of the game and the profile, records any violations, then applies what the
event says happened (the engine reports, it never repairs). `pending` and `legal` tell a
simulator what may come next; `settle` computes pots and expected awards. The replay and
the simulator share this one copy of the rules.

Speed (issue 6): an audit replays every hand, so nothing is re-derived per event. Seat
order rotations are built once per seating and shared; the live/active lists are kept
as players fold or go all-in, not rebuilt per question; `feed` dispatches on the event's
type; card owners are a list by card index; boards are ranked once per street in one
evaluator call; violation messages are formatted only when a violation exists.
tests/rules/test_differential.py holds the engine to the pre-optimisation copy in
tests/rules/reference/.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from histkit import evaluate as ev
from histkit.cards import DECK, Card, Suit
from histkit.model import (
    Action,
    ActionKind,
    BettingCapped,
    Collect,
    Deal,
    DoubleBetAllowed,
    Event,
    Game,
    Muck,
    NoLowHand,
    NoteKind,
    Seat,
    Show,
    Street,
    StreetStart,
    TableNote,
    UncalledBet,
    Unit,
)
from histkit.rules import showdown
from histkit.rules.games import GameSpec, spec_for
from histkit.rules.pots import Settlement, settle_pots
from histkit.rules.profile import BringInAllIn, FirstActTie, RuleProfile, ShortAllIn
from histkit.rules.violations import Code, Severity, Violation, money

__all__ = ["PendingKind", "Pending", "Legal", "HandState"]

# Enum members as module globals: `Street.THIRD` is an attribute lookup on the enum class
# (~90 ns on CPython 3.11), a global ~15 ns, and the engine compares them at every event.
_THIRD, _FOURTH, _FIFTH, _SIXTH, _SEVENTH = (
    Street.THIRD,
    Street.FOURTH,
    Street.FIFTH,
    Street.SIXTH,
    Street.SEVENTH,
)
_ANTE, _BRING_IN, _COMPLETE, _BET = (
    ActionKind.ANTE,
    ActionKind.BRING_IN,
    ActionKind.COMPLETE,
    ActionKind.BET,
)
_RAISE, _CALL, _CHECK, _FOLD = ActionKind.RAISE, ActionKind.CALL, ActionKind.CHECK, ActionKind.FOLD
_WAGERS = (_BET, _RAISE, _COMPLETE)
_STREET_NAMES = {
    3: "3rd street",
    4: "4th street",
    5: "5th street",
    6: "6th street",
    7: "7th street",
}


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


class HandState:
    """Mutable replay state of one hand (see module doc). Read-only views are properties."""

    # slots: faster attribute access at every event, and a typo cannot add state
    __slots__ = (
        "_acted",
        "_active",
        "_active_set",
        "_after",
        "_antes",
        "_bring_in_due",
        "_bring_in_player",
        "_cap_heads_up",
        "_cap_multi",
        "_card_owner",
        "_current_bet",
        "_dealt_this_street",
        "_deals_written",
        "_double_game",
        "_first",
        "_from",
        "_idx",
        "_inc",
        "_inc_options",
        "_last_actor",
        "_line",
        "_live",
        "_phase",
        "_stack",
        "_street_in",
        "_total_in",
        "_uncalled_done",
        "_up_range",
        "_up_slots",
        "_wagers",
        "all_in",
        "ante",
        "big_bet",
        "bring_in_amount",
        "cards",
        "collects",
        "community",
        "dealt_in",
        "declined",
        "fold_street",
        "folded",
        "hand_id",
        "returns_written",
        "currency",
        "mucked",
        "no_low_line",
        "order",
        "profile",
        "seat_no",
        "show_events",
        "shown",
        "sitting_out",
        "small_bet",
        "spec",
        "start_stacks",
        "street",
        "unit",
        "violations",
    )

    def __init__(
        self,
        *,
        game: Game | GameSpec,
        profile: RuleProfile,
        seats: Sequence[Seat],
        small_bet: int,
        big_bet: int,
        ante: int | None,
        bring_in: int | None,
        hand_id: str = "",
        unit: Unit = Unit.CENT,
        returns_written: bool = True,
        currency: str | None = None,
    ) -> None:
        spec = self.spec = game if type(game) is GameSpec else spec_for(game)
        # whether the site writes a line when an uncalled bet goes back (else the chips stay
        # in the pot, in a side pot only the bettor can win, and are collected with it)
        self.returns_written = returns_written
        self._deals_written = False  # a deal line seen: the record writes deals
        self.profile = profile
        self.small_bet = small_bet
        self.big_bet = big_bet
        self.ante = ante
        self.bring_in_amount = bring_in
        self.hand_id = hand_id
        self.unit = unit
        self.currency = currency
        order: list[str] = []
        seat_no: dict[str, int] = {}
        start: dict[str, int] = {}
        out: set[str] = set()
        for seat in sorted(seats, key=_seat_number):  # one pass: this runs for every hand
            q = seat.player
            order.append(q)
            seat_no[q] = seat.seat
            start[q] = seat.stack
            if seat.sitting_out:
                out.add(q)
        self.order = order
        # seat-order lookups, built once per seating (not per action, not per hand): a
        # player's position, the table clockwise starting at them, and from their left
        self._idx, self._from, self._after = _seating(tuple(order))
        self._up_slots, self._up_range = _up_layout(spec.up_pattern)
        self._cap_multi = profile.cap(heads_up=False)
        self._cap_heads_up = profile.cap(heads_up=True)
        self._double_game = spec.open_pair_double and profile.open_pair_double
        self.seat_no = seat_no
        self.sitting_out = out
        self.start_stacks = start
        self._stack: dict[str, int] = start.copy()
        self._street_in: dict[str, int] = dict.fromkeys(order, 0)
        self._total_in: dict[str, int] = self._street_in.copy()
        self._antes: dict[str, int] = {}
        self.dealt_in: list[str] = []  # players in the hand, seat order
        self.folded: set[str] = set()
        self.fold_street: dict[str, Street] = {}
        self.all_in: set[str] = set()
        self.cards: dict[str, list[Card | None]] = {}
        self.community: Card | None = None
        # who holds each card so far, by card index (None = not dealt yet)
        self._card_owner: list[tuple[str | None, int] | None] = [None] * 52
        self.street: Street | None = None
        self._phase = "antes"  # antes | deal | bet | over
        self._dealt_this_street: set[str] = set()
        self._acted: set[str] = set()
        self._current_bet = 0
        self._wagers = 0
        self._inc = 0  # full raise increment this street
        self._inc_options: tuple[int, ...] = ()
        self._bring_in_player: str | None = None
        self._bring_in_due = False
        self._first: str | None = None
        self._last_actor: str | None = None
        self._uncalled_done = False
        self.shown: dict[str, tuple[Card, ...]] = {}
        self.show_events: list[Show] = []  # as applied (the audit checks their words)
        self.mucked: set[str] = set()
        self.declined: set[str] = set()
        self.collects: list[Collect] = []
        self.no_low_line: NoLowHand | None = None
        self.violations: list[Violation] = []
        self._line = 0
        # `live` and `active` are asked for at every action: kept as lists, refreshed
        # whenever dealt_in, folded or all_in change (only this class changes them)
        self._live: list[str] = []
        self._active: list[str] = []
        self._active_set: set[str] = set()

    # ------------------------------------------------------------------ views
    @property
    def stacks(self) -> dict[str, int]:
        return dict(self._stack)

    @property
    def street_contributions(self) -> dict[str, int]:
        return dict(self._street_in)

    @property
    def contributions(self) -> dict[str, int]:
        return dict(self._total_in)

    @property
    def live(self) -> list[str]:
        """Players still in the hand (not folded), seat order; all-in players included."""
        return list(self._live)

    @property
    def active(self) -> list[str]:
        """Players who can still act (live and not all-in), seat order."""
        return list(self._active)

    def _refresh(self) -> None:
        """Recompute the live and active lists after dealt_in, folded or all_in changed."""
        folded, all_in = self.folded, self.all_in
        live = [p for p in self.dealt_in if p not in folded]
        self._live = live
        self._active = [p for p in live if p not in all_in]
        self._active_set = set(self._active)

    @property
    def current_bet(self) -> int:
        return self._current_bet

    @property
    def raises_this_street(self) -> int:
        """Raises after the street's bet (the completion counts as the bet)."""
        return max(0, self._wagers - 1)

    @property
    def bring_in_player(self) -> str | None:
        return self._bring_in_player

    def up_cards(self, player: str) -> tuple[Card, ...]:
        """The player's face-up cards so far, in the order dealt."""
        cs = self.cards.get(player, ())
        n = len(cs)
        return tuple(c for i in self._up_slots if i < n and (c := cs[i]) is not None)

    @property
    def deck_exhausted(self) -> bool:
        """True when the deck cannot give every live player a 7th-street card."""
        return self._deck_left() < len(self._live)

    def _deck_left(self) -> int:
        dealt = sum(len(c) for c in self.cards.values()) + (1 if self.community else 0)
        burns = 0
        if self.profile.burn_cards and self.street is not None:
            burns = int(self.street) - 2
        return 52 - dealt - burns

    def uncalled(self) -> tuple[str, int] | None:
        """The bet nobody matched at the end of a betting round: (player, chips), else None."""
        si = self._street_in
        if not si:
            return None
        # the top amount less the next one (the top player's own excess over the others)
        vals = sorted(si.values())
        top = vals[-1]
        excess = top - (vals[-2] if len(vals) > 1 else 0)
        if excess <= 0:
            return None
        for p, v in si.items():
            if v == top:
                return (p, excess)
        return None

    # ---------------------------------------------------------------- helpers
    def _v(
        self,
        code: Code,
        message: str,
        *,
        expected: str | int | None = None,
        reported: str | int | None = None,
        severity: Severity = Severity.ERROR,
        line: int | None = None,
    ) -> Violation:
        v = Violation(
            code=code,
            severity=severity,
            hand_id=self.hand_id,
            street=self.street,
            line=self._line if line is None else line,
            expected=expected,
            reported=reported,
            message=message,
        )
        self.violations.append(v)
        return v

    def m(self, amount: int) -> str:
        return money(amount, self.unit, self.currency)

    def _street_name(self) -> str:
        return _STREET_NAMES.get(int(self.street or 3), "the hand")

    def _next_clockwise(self, after: str, among: Sequence[str]) -> str | None:
        """The first player of `among` to the left of `after` (wrapping)."""
        pool = set(among)
        if not pool:
            return None
        for p in self._after[after]:
            if p in pool:
                return p
        return None

    # ------------------------------------------------------------ what's next
    def _needs_to_act(self, p: str) -> bool:
        return p not in self._acted or self._street_in[p] < self._current_bet

    def _round_complete(self) -> bool:
        act = self._active
        if len(self._live) <= 1:
            return True
        if not act:
            return True
        si = self._street_in
        if len(act) == 1 and si[act[0]] >= max(si.values()):
            return True
        acted, bet = self._acted, self._current_bet
        for p in act:  # noqa: SIM110 - a plain loop beats all() over a generator here
            if p not in acted or si[p] < bet:
                return False
        return True

    def _max_street_in(self) -> int:
        return max(self._street_in.values(), default=0)

    def to_act(self) -> str | None:
        """Whose turn it is in the current betting round (None if the round is over).

        One pass clockwise from the last actor (or the street's first) over precomputed
        seat order: the first active player who still has to act, if any."""
        if self._phase != "bet":
            return None
        act = self._active
        if len(self._live) <= 1 or not act:
            return None
        si = self._street_in
        if len(act) == 1 and si[act[0]] >= max(si.values()):
            return None
        acted, bet = self._acted, self._current_bet
        last = self._last_actor
        if self._bring_in_due or last is None:
            for p in act:
                if p not in acted or si[p] < bet:
                    break
            else:
                return None  # the round is complete
            if self._bring_in_due:
                return self._bring_in_player
            first = self._first
            if first is None:
                return None
            seq = self._from[first]
        else:
            seq = self._after[last]
        active = self._active_set
        for p in seq:
            if p in active and (p not in acted or si[p] < bet):
                return p
        return None

    def pending(self) -> Pending:
        if self._phase == "antes":
            if self.ante:
                for p in self.order:
                    if p not in self._antes and p not in self.sitting_out:
                        return Pending(PendingKind.ANTES, _THIRD, p)
            return Pending(PendingKind.DEAL, _THIRD, self._next_undealt(_THIRD))
        if self._phase == "over":
            return self._end_pending()
        if self._phase == "deal":
            if self.street == _SEVENTH and self._needs_community():
                return Pending(PendingKind.DEAL, self.street, None)  # None: the community card
            who = self._next_undealt(self.street or _THIRD)
            if who is not None:
                return Pending(PendingKind.DEAL, self.street, who)
            self._open_betting()
        if self._phase == "bet":
            who = self.to_act()
            if who is not None:
                return Pending(PendingKind.ACTION, self.street, who)
            if len(self._live) <= 1 or self.street == _SEVENTH:
                return self._end_pending()
            nxt = Street(int(self.street or 3) + 1)
            if nxt == _SEVENTH and self._community_needed(nxt):
                return Pending(PendingKind.DEAL, nxt, None)
            return Pending(PendingKind.DEAL, nxt, self._next_undealt(nxt, new_street=True))
        return self._end_pending()

    def _end_pending(self) -> Pending:
        if len(self._live) <= 1:
            return Pending(PendingKind.DONE, self.street)
        for p in self._live:
            if p not in self.shown and p not in self.mucked:
                return Pending(PendingKind.SHOWDOWN, self.street, p)
        return Pending(PendingKind.DONE, self.street)

    def _next_undealt(self, street: Street, new_street: bool = False) -> str | None:
        if street == _SEVENTH and self._community_needed(street):
            return None
        players = self.dealt_in if street == _THIRD and not self.dealt_in else self._live
        if street == _THIRD and self._phase == "antes":
            players = [p for p in self.order if p in self._antes] or [
                p for p in self.order if p not in self.sitting_out
            ]
        for p in players:
            if new_street or p not in self._dealt_this_street:
                return p
        return None

    def _needs_community(self) -> bool:
        """7th street, the deck is short and the community card is not out yet."""
        return (
            self.community is None
            and not self._dealt_this_street
            and self._community_needed(_SEVENTH)
        )

    def _community_needed(self, street: Street) -> bool:
        return (
            street == _SEVENTH
            and self.profile.community_card
            and self._deck_left() < len(self._live)
        )

    def legal(self) -> Legal | None:
        p = self.to_act() if self._phase == "bet" else None
        if (
            p is None
            and self._phase == "deal"
            and self._next_undealt(self.street or _THIRD) is None
        ):
            self._open_betting()
            p = self.to_act()
        if p is None or self.street is None:
            return None
        stack = self._stack[p]
        facing = self._current_bet - self._street_in[p]
        street = self.street
        small, big = self.small_bet, self.big_bet
        if self._bring_in_due:
            bi = self.bring_in_amount
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
        can_raise = self._may_raise(p)
        complete_to = bet = raise_to = bet_big = raise_big = None
        if street == _THIRD and self._wagers == 0:
            complete_to = min(small, stack + self._street_in[p]) if can_raise else None
        elif self._wagers == 0:
            if self._someone_could_call(p):
                size = small if street == _FOURTH else big
                bet = min(size, stack)
                if self._double_allowed():
                    bet_big = min(big, stack)
        elif can_raise:
            raise_to = min(self._current_bet + self._inc, stack + self._street_in[p])
            if self._double_allowed() and self._inc == small:
                raise_big = min(self._current_bet + big, stack + self._street_in[p])
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

    def _may_raise(self, p: str) -> bool:
        if self._street_in[p] + self._stack[p] <= self._current_bet:
            return False
        if self._capped() or not self._someone_could_call(p):
            return False
        # a player who has acted since the last full wager may not raise a short all-in
        return p not in self._acted

    def _someone_could_call(self, p: str) -> bool:
        """Is there an opponent a bet or raise by `p` could be called by: one still in the
        hand, not all-in, with more chips than the bet already standing? If not, no site
        lets `p` bet or raise (a wager no one can call is only returned to them)."""
        street_in, stacks, bet = self._street_in, self._stack, self._current_bet
        return any(q != p and street_in[q] + stacks[q] > bet for q in self._active)

    def _capped(self) -> bool:
        cap = self._cap_heads_up if len(self._live) == 2 else self._cap_multi
        return cap is not None and self._wagers >= cap

    def _double_allowed(self) -> bool:
        """4th street, stud high: an open pair on any live board allows the big bet. A live
        board whose up cards the record does not show may hold a pair: then the big bet
        cannot be ruled out (it is not checked, never called wrong)."""
        if not self._double_game:
            return False
        if self.street != _FOURTH:
            return False
        for p in self._live:
            up = self.up_cards(p)
            if len(up) >= 2 and len({c.rank for c in up}) < len(up):
                return True
            if len(up) < 2:  # an up card unknown (or no deals written)
                return True
        return False

    # ------------------------------------------------------------------ apply
    def apply(self, event: Event) -> list[Violation]:
        """Check one event against the rules, then apply it; returns the new violations."""
        violations = self.violations
        before = len(violations)
        self._dispatch(event)
        return violations[before:] if len(violations) > before else []

    def _dispatch(self, event: Event) -> None:
        """The event's handler by its type (TableNote: chat, joins, ... is part of the
        record, not of the play)."""
        self._line = getattr(event, "line", 0)
        handler = _HANDLERS.get(type(event))
        if handler is None:
            handler = _handler_of(event)
        if handler is not None:
            handler(self, event)

    def feed(self, events: Iterable[Event]) -> None:
        """`apply` every event in turn; the violations collect in `violations` (the
        replay's loop: no per-event list of new violations)."""
        for event in events:
            # the two commonest events skip the table lookup; direct method calls, which
            # the compiled build (mypyc) turns into native calls
            if type(event) is Deal:
                self._line = event.line
                self._deal(event)
            elif type(event) is Action:
                self._line = event.line
                self._action(event)
            else:
                self._dispatch(event)

    def _on_street(self, e: StreetStart) -> None:
        self._street_start(e.street, e.community)

    def _on_show(self, e: Show) -> None:
        self.show_events.append(e)
        self._show(e.player, e.cards)

    def _on_collect(self, e: Collect) -> None:
        self._close_round()
        self._phase = "over"
        self.collects.append(e)

    def _on_no_low(self, e: NoLowHand) -> None:
        self.no_low_line = e

    def _on_capped(self, e: BettingCapped) -> None:
        self._capped_line()

    def _on_double(self, e: DoubleBetAllowed) -> None:
        self._double_line()

    def _on_note(self, e: TableNote) -> None:
        """Chat, joins, ...: part of the record, not of the play; a garbled card is a
        fault of the record itself."""
        if e.kind is NoteKind.GARBLED:
            self._v(
                Code.GARBLED_CARD,
                f"The site wrote {e.text}; that card is unknown.",
                reported=e.text,
                line=e.line,
            )

    # antes --------------------------------------------------------------------
    def _ante(self, a: Action) -> None:
        p = a.player
        if p not in self.seat_no:
            self._v(Code.UNKNOWN_PLAYER, f"{p} posts an ante but has no seat at this table.")
            return
        if self._phase != "antes":
            self._v(Code.ANTE, f"{p} posts an ante after the cards were dealt.")
        if p in self._antes:
            self._v(Code.ANTE, f"{p} posts the ante twice.", reported=a.amount)
            return
        stack = self._stack[p]
        if self.ante is None and not a.all_in:
            self.ante = a.amount  # the header does not state the ante: the first full one does
        expected = self.ante
        short_all_in = a.all_in and a.amount == stack and expected is not None and stack <= expected
        if expected is not None and not short_all_in and a.amount != expected:
            self._v(
                Code.ANTE,
                f"{p} posts an ante of {self.m(a.amount)}, but the ante is {self.m(expected)}.",
                expected=expected,
                reported=a.amount,
            )
        self._antes[p] = a.amount
        self._put(p, a.amount, a.all_in, what="ante")
        self._street_in[p] = 0  # antes are dead money, not part of the street total

    # streets and cards --------------------------------------------------------------
    def _street_start(self, street: Street, community: Card | None) -> None:
        if self._phase == "antes":
            self._finish_antes()
        elif self.street is not None and street <= self.street:
            self._v(Code.CARD_INCONSISTENT, f"{_STREET_NAMES[int(street)]} starts twice.")
            return
        else:
            self._close_round()
            if len(self._live) <= 1:
                self._v(
                    Code.ACTION_AFTER_END,
                    f"{_STREET_NAMES[int(street)]} is dealt after the hand was over.",
                )
            self._check_missing_deals()
        self.street = street
        self._phase = "deal"
        self._dealt_this_street = set()
        self._street_in = dict.fromkeys(self._street_in, 0)
        self._acted = set()
        self._current_bet = 0
        self._wagers = 0
        self._inc = self.small_bet if street <= _FOURTH else self.big_bet
        self._last_actor = None
        self._first = None
        self._uncalled_done = False
        if community is not None:
            self._community(street, community)

    def _finish_antes(self) -> None:
        self._phase = "deal"
        if self._antes:
            self.dealt_in = [p for p in self.order if p in self._antes]
        else:
            self.dealt_in = [p for p in self.order if p not in self.sitting_out]
        for p in self.dealt_in:
            self.cards[p] = []
        self._refresh()

    def _community(self, street: Street, card: Card) -> None:
        if street != _SEVENTH or not self.profile.community_card:
            self._v(Code.COMMUNITY_CARD, f"A community card {card} is dealt on {street}.")
        elif self._deals_written and not self._community_needed(street):
            # (without deal lines the deck's count is unknown: nothing to check)
            self._v(
                Code.COMMUNITY_CARD,
                f"A community card {card} is dealt on 7th street although the deck has "
                f"{self._deck_left()} cards for {len(self._live)} players.",
                expected="one card each",
                reported=str(card),
            )
        self._record_card(None, 6, card)
        self.community = card

    def _check_missing_deals(self) -> None:
        if self.street is None or self.street == _SEVENTH:
            return  # the site does not print other players' 7th-street cards
        if not self._deals_written:
            return  # a record that writes no deals at all (`finish` says so once)
        if self._dealt_this_street.issuperset(self._live):
            return
        for p in self._live:
            if p not in self._dealt_this_street and p in self.cards:
                self._v(
                    Code.MISSING_DEAL,
                    f"{p} is still in the hand but no card is shown dealt to them on "
                    f"{self._street_name()}.",
                    severity=Severity.WARNING,
                )

    def _deal(self, d: Deal) -> None:
        p = d.player
        self._deals_written = True
        if self._phase == "antes":
            self._finish_antes()
            self.street = _THIRD
        street = d.street
        if self.street is None or street != self.street:
            self._street_start(street, None)
        mine = self.cards.get(p)
        if mine is None:
            if p in self.seat_no and p not in self.dealt_in and self._antes:
                self._v(Code.ANTE, f"{p} is dealt in without posting the ante.")
                self.dealt_in = [q for q in self.order if q in self.dealt_in or q == p]
                self.cards[p] = mine = []
                self._refresh()
            else:
                self._v(Code.UNKNOWN_PLAYER, f"Cards are dealt to {p}, who is not in the hand.")
                return
        if p in self.folded:
            self._v(Code.CARD_INCONSISTENT, f"{p} is dealt a card after folding.")
        dealt = self._dealt_this_street
        if p in dealt:
            self._v(Code.CARD_INCONSISTENT, f"{p} is dealt twice on {self._street_name()}.")
            return
        dealt.add(p)
        # PokerStars repeats earlier cards: all of them (own hand) or the up cards only
        if d.before:
            self._check_before(p, mine, d.before)
        third = street == _THIRD
        slots = 3 if third else 1
        new: Sequence[Card | None] = d.cards
        ups: Sequence[bool] = d.up
        if len(new) != slots:
            new, ups = list(new), list(ups)
            if len(new) < slots:  # only the up card was written: the rest are unknown downs
                pad = slots - len(new)
                unknown: list[Card | None] = [None] * pad
                new = unknown + new
                ups = [False] * pad + ups
            if len(new) > slots:
                self._v(
                    Code.CARD_INCONSISTENT,
                    f"{p} receives {len(new)} cards on {self._street_name()}, expected {slots}.",
                )
                new, ups = new[-slots:], ups[-slots:]
        start = 0 if third else street - 1
        if len(mine) != start:
            # earlier streets missing: keep slots aligned with unknown cards
            mine.extend([None] * (start - len(mine)))
            del mine[start:]
        pattern = self.spec.up_pattern
        owners = self._card_owner
        slot = start
        for c, up in zip(new, ups, strict=False):
            if c is None:
                mine.append(None)
            else:
                if slot < 7 and up != pattern[slot]:
                    self._v(
                        Code.CARD_INCONSISTENT,
                        f"{p}'s card {c} on {self._street_name()} is dealt "
                        f"{'up' if up else 'down'}; it must be dealt "
                        f"{'up' if pattern[slot] else 'down'}.",
                    )
                # the slot is new and empty: only a duplicate elsewhere can be wrong
                mine.append(c)  # as written (a duplicate stays visible on the board)
                owner = owners[c.index]
                if owner is not None and owner != (p, slot):
                    self._duplicate(c, owner, p)
                else:
                    owners[c.index] = (p, slot)
            slot += 1

    def _check_before(self, p: str, mine: list[Card | None], before: Sequence[Card | None]) -> None:
        n = len(mine)
        if len(before) == n:
            if before == tuple(mine):
                return  # the usual case: the repeat matches what was dealt
            slots: Sequence[int] = range(n)
        else:
            up = self._up_range
            if up is not None and before == tuple(mine[up[0] : min(n, up[1])]):
                return
            slots = [i for i in self._up_slots if i < n]
            if len(before) != len(slots):
                self._v(
                    Code.CARD_INCONSISTENT,
                    f"{p}'s earlier cards are shown as [{' '.join(map(str, before))}], which "
                    f"does not match the {len(mine)} cards dealt before.",
                    reported=" ".join(map(str, before)),
                )
                return
        for i, c in zip(slots, before, strict=True):
            old = mine[i]
            if c is None:  # the line repeats a card the writer does not show
                continue
            if old is None:
                self._record_card(p, i, c)
            elif old is not c and old != c:
                self._v(
                    Code.CARD_INCONSISTENT,
                    f"{p}'s earlier card {i + 1} was {mine[i]}, now shown as {c}.",
                    expected=str(mine[i]),
                    reported=str(c),
                )

    def _record_card(self, p: str | None, slot: int, c: Card) -> None:
        """Place a known card in a player's slot (or the community), checking duplicates."""
        if p is not None:
            mine = self.cards[p]
            while len(mine) <= slot:
                mine.append(None)
            old = mine[slot]
            if old is not None and old is not c and old != c:
                self._v(
                    Code.CARD_INCONSISTENT,
                    f"{p}'s card {slot + 1} was {old}, now shown as {c}.",
                    expected=str(old),
                    reported=str(c),
                )
                return
        owners = self._card_owner
        owner = owners[c.index]
        if owner is not None and owner != (p, slot):
            self._duplicate(c, owner, p)
        else:
            owners[c.index] = (p, slot)
        if p is not None:
            self.cards[p][slot] = c  # as written (a duplicate stays visible on the board)

    def _duplicate(self, c: Card, owner: tuple[str | None, int], p: str | None) -> None:
        who = owner[0] or "the board"
        self._v(
            Code.CARD_DUPLICATE,
            f"The {c} is dealt twice: to {who} and to {p or 'the board'}.",
            reported=str(c),
        )

    def _known_cards(self, p: str) -> list[Card]:
        return [c for c in self.cards.get(p, []) if c is not None]

    def _show(self, p: str, shown: Sequence[Card], source: str = "shows") -> None:
        """Merge a shown hand into the player's slots (positional when it is complete)."""
        if p not in self.cards:
            self._v(Code.UNKNOWN_PLAYER, f"{p} {source} cards but was not dealt in.")
            return
        self._close_round()
        if self._phase == "bet":
            self._phase = "over"
        shown = tuple(shown)
        mine = self.cards[p]
        dealt = len(mine)
        if not dealt and not self._deals_written and len(shown) <= 7:
            mine.extend([None] * len(shown))  # no deal lines: the show is all we know
            dealt = len(shown)
        if len(shown) == dealt:
            owners = self._card_owner
            for slot, c in enumerate(shown):
                # a card already in place and recorded there needs nothing (the usual
                # show); anything else (a new card, a change, a duplicate) the full check
                if mine[slot] is not c or owners[c.index] != (p, slot):
                    self._record_card(p, slot, c)
        else:
            known = [c for c in mine if c is not None]
            missing = [c for c in known if c not in shown]
            if missing or len(shown) > dealt:
                self._v(
                    Code.CARD_INCONSISTENT,
                    f"{p} {source} [{' '.join(map(str, shown))}], which does not match the "
                    f"{dealt} cards dealt to them.",
                    reported=" ".join(map(str, shown)),
                )
            else:
                free = [i for i, c in enumerate(mine) if c is None]
                extra = [c for c in shown if c not in known]
                if len(extra) == len(free):
                    for slot, c in zip(free, extra, strict=True):
                        self._record_card(p, slot, c)
                elif len(shown) < dealt:  # the site left cards out: they stay unknown
                    self._v(
                        Code.CARD_INCONSISTENT,
                        f"{p} {source} {len(shown)} cards [{' '.join(map(str, shown))}] but "
                        f"was dealt {dealt}; the missing cards are unknown.",
                        expected=dealt,
                        reported=" ".join(map(str, shown)),
                        severity=Severity.WARNING,
                    )
        if source == "shows":
            self.shown[p] = shown

    def _muck(self, m: Muck) -> None:
        if m.player not in self.cards:
            self._v(Code.UNKNOWN_PLAYER, f"{m.player} mucks but was not dealt in.")
            return
        self._close_round()
        if self._phase == "bet":
            self._phase = "over"
        if m.declined:
            self.declined.add(m.player)
        else:
            self.mucked.add(m.player)

    def reveal(self, player: str, cards: Sequence[Card], *, line: int = 0) -> None:
        """Cards the summary shows for a player (showed or mucked): checked and recorded."""
        self._line = line
        self._show(player, cards, source="is shown with")

    def _capped_line(self) -> None:
        if not self._capped():
            self._v(
                Code.RAISE_CAP,
                f"'Betting is capped' is printed after {self._wagers} wagers on "
                f"{self._street_name()}; the cap is {self.profile.cap(len(self._live) == 2)}.",
                severity=Severity.WARNING,
            )

    def _double_line(self) -> None:
        if not self._double_allowed():
            self._v(
                Code.BET_SIZE,
                "'a double bet is allowed' is printed without an open pair on 4th street.",
                severity=Severity.WARNING,
            )

    # betting ------------------------------------------------------------------------
    def _open_betting(self) -> None:
        if self._phase != "deal" or self.street is None:
            return
        self._phase = "bet"
        if self.street == _SEVENTH and self.community is None:
            if self._community_needed(_SEVENTH) and not self._dealt_this_street:
                self._v(
                    Code.COMMUNITY_CARD,
                    f"The deck cannot give {len(self._live)} players a 7th card, but no "
                    "community card is dealt.",
                )
            for p in self._live:  # the site does not print others' 7th cards: unknown
                if p not in self._dealt_this_street and len(self.cards.get(p, [])) == 6:
                    self.cards[p].append(None)
        if self.street == _THIRD:
            self._bring_in_player = self._find_bring_in()
            self._bring_in_due = self._bring_in_player is not None
            self._first = self._bring_in_player
        else:
            self._first = self._best_board()

    def _find_bring_in(self) -> str | None:
        cards, slots = self.cards, self._up_slots
        table = _bring_in_table(self.profile, self.spec.bring_in_lowest)
        idx = self._idx
        # (bring-in key of the first up card, position, player): the smallest brings in
        keyed = []
        for p in self._live:
            cs = cards.get(p, ())
            n = len(cs)
            for i in slots:
                if i < n and (c := cs[i]) is not None:
                    break
            else:
                return None  # an up card is unknown: the bring-in cannot be checked
            keyed.append((table[c.index], idx[p], p))
        if not keyed:
            return None
        all_in = self.all_in
        if not all_in:
            return min(keyed)[2]
        can = [k for k in keyed if k[2] not in all_in]
        if not can:
            return None
        if self.profile.bring_in_all_in is BringInAllIn.NEXT_BY_CARD:
            return min(can)[2]
        first = min(keyed)[2]
        if first not in all_in:
            return first
        return self._next_clockwise(first, [k[2] for k in can])

    def _best_board(self) -> str | None:
        pool = self._active if self.profile.first_act_skips_all_in else self._live
        if not pool:
            return None
        cards = self.cards
        up = self._up_range
        if up is not None:
            lo, hi = up
            boards = [cards.get(p, ())[lo:hi] for p in pool]
        else:
            boards = [
                [c for i, c in enumerate(cards.get(p, ())) if i in self._up_slots] for p in pool
            ]
        try:
            values = ev.rank_boards(boards, high=self.spec.board_best_high)
        except ValueError:
            return None  # a card twice on one board (reported when dealt): unchecked
        if values is None:
            return None  # an up card is unknown: who acts first cannot be checked
        best = max(values)
        tied = [p for p, v in zip(pool, values, strict=True) if v == best]
        if len(tied) == 1 or self.profile.first_act_tie is FirstActTie.LOWEST_SEAT:
            return tied[0]
        bi = self._bring_in_player or tied[0]
        return self._next_clockwise(bi, tied) if bi not in tied else bi

    def _action(self, a: Action) -> None:
        kind = a.kind
        if kind is _ANTE:
            self._ante(a)
            return
        p = a.player
        if p not in self.seat_no:
            self._v(Code.UNKNOWN_PLAYER, f"{p} acts but has no seat at this table.")
            return
        if self._phase == "antes":
            self._street_start(_THIRD, None)
        if self.street is None or a.street > self.street:
            self._street_start(a.street, None)
        phase = self._phase
        if phase == "deal":
            self._open_betting()
            phase = self._phase
        if p not in self._active_set:  # else dealt in, not folded, not all-in: all fine
            if p not in self.cards:
                self._v(Code.UNKNOWN_PLAYER, f"{p} acts but was not dealt in.")
                return
            if p in self.folded:
                self._v(Code.ACTION_AFTER_FOLD, f"{p} acts ({kind.value}) after folding.")
                return
            if p in self.all_in:
                self._v(
                    Code.ACTION_AFTER_ALL_IN,
                    f"{p} acts ({kind.value}) after going all-in.",
                )
                return
        if phase == "over" or len(self._live) <= 1:
            self._v(Code.ACTION_AFTER_END, f"{p} acts ({kind.value}) after the hand was over.")
            return
        expected = self.to_act()
        if expected != p:
            self._turn_violation(p, kind, expected)
        if kind is _CALL:
            if self._bring_in_due:
                self._bring_in_forced(a)
            self._call(a)
        elif kind is _CHECK:
            if self._bring_in_due:
                self._bring_in_forced(a)
            facing = self._current_bet - self._street_in[p]
            if facing > 0:
                self._v(
                    Code.CHECK_FACING_BET,
                    f"{p} checks facing a bet of {self.m(self._current_bet)}; they must "
                    f"call {self.m(min(facing, self._stack[p]))}, raise or fold.",
                    expected=min(facing, self._stack[p]),
                    reported=0,
                )
            self._acted.add(p)
        elif kind is _FOLD:
            if self._bring_in_due:
                self._bring_in_forced(a)
            self.folded.add(p)
            # p was live and active (checked above): drop it from the cached lists
            self._live.remove(p)
            self._active.remove(p)
            self._active_set.discard(p)
            self.fold_street[p] = self.street or _THIRD
            self._acted.add(p)
        elif kind is _BRING_IN:
            self._bring_in(a)
        elif kind in _WAGERS:
            self._wager(a)
        self._last_actor = p

    def _turn_violation(self, p: str, kind: ActionKind, expected: str | None) -> None:
        """`p` acts when `expected` should (None: nobody, the round was complete)."""
        if self._first is None and self._last_actor is None:
            pass  # an up card is unknown: who opens the street cannot be checked
        elif expected is None and not self._bring_in_due:
            self._v(
                Code.OUT_OF_TURN,
                f"{p} acts ({kind.value}) on {self._street_name()} after the betting round "
                "was complete.",
                reported=p,
            )
        elif self._bring_in_due and self._bring_in_player is not None:
            self._v(
                Code.BRING_IN_WRONG_PLAYER,
                f"{p} acts first on 3rd street, but {self._bring_in_player} has the "
                f"{self._bring_in_desc()} and must bring in.",
                expected=self._bring_in_player,
                reported=p,
            )
        else:
            self._v(
                Code.OUT_OF_TURN,
                f"{p} acts out of turn on {self._street_name()}: it is {expected}'s turn.",
                expected=expected,
                reported=p,
            )

    def _bring_in_desc(self) -> str:
        p = self._bring_in_player
        up = self.up_cards(p) if p else ()
        word = "lowest" if self.spec.bring_in_lowest else "highest"
        return f"{word} up card ({up[0]})" if up else f"{word} up card"

    def _bring_in_forced(self, a: Action) -> None:
        """Any non-wager first action on 3rd street where the bring-in was due."""
        if self._bring_in_due and a.player == self._bring_in_player:
            self._v(
                Code.BRING_IN_AMOUNT,
                f"{a.player} must bring in or complete, but {a.kind.value}s.",
                reported=a.kind.value,
            )
            self._bring_in_due = False

    def _bring_in(self, a: Action) -> None:
        p = a.player
        # a wrong player was reported by the turn check; an unknown up card leaves the
        # bring-in player unknown (nothing to check)
        unknown = self._bring_in_player is None and self._wagers == 0
        if self.street != _THIRD or not (self._bring_in_due or unknown):
            self._v(Code.BRING_IN_AMOUNT, f"{p} brings in when no bring-in is due.")
        self._bring_in_due = False
        amount = a.amount
        stack = self._stack[p]
        bi = self.bring_in_amount
        if bi is None:
            if amount >= self.small_bet or amount <= 0:
                self._v(
                    Code.BRING_IN_AMOUNT,
                    f"{p} brings in for {self.m(amount)}; a bring-in must be less than the "
                    f"small bet of {self.m(self.small_bet)}.",
                    reported=amount,
                )
            elif not a.all_in:
                self.bring_in_amount = amount
        elif amount != bi and not (a.all_in and amount == stack and stack < bi):
            self._v(
                Code.BRING_IN_AMOUNT,
                f"{p} brings in for {self.m(amount)}; the bring-in is {self.m(bi)}.",
                expected=bi,
                reported=amount,
            )
        self._put(p, amount, a.all_in, what="bring-in")
        self._current_bet = max(self._current_bet, self._street_in[p])
        self._acted.add(p)

    def _call(self, a: Action) -> None:
        p = a.player
        facing = self._current_bet - self._street_in[p]
        stack = self._stack[p]
        expected = facing if facing < stack else stack
        if facing <= 0:
            self._v(
                Code.CALL_AMOUNT,
                f"{p} calls {self.m(a.amount)} with nothing to call.",
                expected=0,
                reported=a.amount,
            )
        elif a.amount != expected:
            self._v(
                Code.CALL_AMOUNT,
                f"{p} calls {self.m(a.amount)}; the call is {self.m(expected)}.",
                expected=expected,
                reported=a.amount,
            )
        self._put(p, a.amount, a.all_in, what="call")
        self._acted.add(p)

    def _wager(self, a: Action) -> None:
        p = a.player
        before = self._street_in[p]
        stack = self._stack[p]
        if a.to_amount is not None:
            to = a.to_amount
            if a.kind is _RAISE and a.amount != to - self._current_bet:
                self._v(
                    Code.RAISE_SIZE,
                    f"{p} 'raises {self.m(a.amount)} to {self.m(to)}', but the bet was "
                    f"{self.m(self._current_bet)}.",
                    expected=to - self._current_bet,
                    reported=a.amount,
                )
        elif a.kind is _RAISE:
            to = self._current_bet + a.amount
        else:
            to = before + a.amount
        full_stack = before + stack
        all_in_short = a.all_in and to == full_stack
        if not self._someone_could_call(p):
            self._v(
                Code.RAISE_NOT_ALLOWED,
                f"{p} {a.kind.value}s to {self.m(to)}, but no opponent can call it: every "
                "other player still in the hand is all-in.",
                reported=to,
            )
        street = self.street or _THIRD
        if street == _THIRD and self._wagers == 0:
            self._complete(a, to, all_in_short)
        elif self._wagers == 0:
            self._bet(a, to, all_in_short)
        else:
            self._raise(a, to, all_in_short)
        self._put(p, to - before, a.all_in, what=a.kind.value)

    def _complete(self, a: Action, to: int, short: bool) -> None:
        p = a.player
        if self._bring_in_due:
            self._bring_in_due = False  # the bring-in player completes instead
        target = self.small_bet
        if to != target and not (short and self._current_bet < to < target):
            self._v(
                Code.BET_SIZE,
                f"{p} completes to {self.m(to)} on 3rd street; the completion is to "
                f"{self.m(target)}.",
                expected=target,
                reported=to,
            )
        self._register_wager(p, to, full=to >= target or self._half(to, target))
        self._inc = self.small_bet

    def _half(self, to: int, full_to: int) -> bool:
        """Does a short all-in wager count as a full one (profile: half-bet rule)?"""
        if self.profile.short_all_in is ShortAllIn.NEVER:
            return False
        need = full_to - self._current_bet
        return 2 * (to - self._current_bet) >= need

    def _bet(self, a: Action, to: int, short: bool) -> None:
        p = a.player
        street = self.street or _THIRD
        sizes = [self.small_bet] if street == _FOURTH else [self.big_bet]
        if self._double_allowed():
            sizes.append(self.big_bet)
        if to not in sizes and not (short and 0 < to < min(sizes)):
            self._v(
                Code.BET_SIZE,
                f"{p} bets {self.m(to)} on {self._street_name()}; the bet there is "
                f"{' or '.join(self.m(s) for s in sizes)}.",
                expected=sizes[0] if len(sizes) == 1 else "/".join(map(str, sizes)),
                reported=to,
            )
        self._inc = to if to in sizes else sizes[0]
        self._register_wager(p, to, full=to >= min(sizes) or self._half(to, min(sizes)))

    def _raise(self, a: Action, to: int, short: bool) -> None:
        p = a.player
        incs = [self._inc]
        if self._double_allowed() and self._inc == self.small_bet:
            incs.append(self.big_bet)
        targets = [self._current_bet + i for i in incs]
        if to <= self._current_bet:
            self._v(
                Code.RAISE_SIZE,
                f"{p} raises to {self.m(to)}, which does not exceed the bet of "
                f"{self.m(self._current_bet)}.",
                expected=targets[0],
                reported=to,
            )
        elif to not in targets and not (short and to < targets[0]):
            self._v(
                Code.RAISE_SIZE,
                f"{p} raises to {self.m(to)} on {self._street_name()}; a raise there is to "
                f"{self.m(targets[0])}.",
                expected=targets[0],
                reported=to,
            )
        if self._capped():
            self._v(
                Code.RAISE_CAP,
                f"{p} raises to {self.m(to)} on {self._street_name()} after betting was "
                f"capped at {self.m(self._current_bet)} (bet and {self.profile.max_raises} "
                "raises).",
                expected=self._current_bet,
                reported=to,
            )
        elif p in self._acted:
            self._v(
                Code.RAISE_NOT_ALLOWED,
                f"{p} raises although only a short all-in was made since they acted; "
                "the betting was not reopened.",
                reported=to,
            )
        if to - self._current_bet > self.small_bet and to in targets:
            self._inc = to - self._current_bet
        self._register_wager(p, to, full=to >= targets[0] or self._half(to, targets[0]))

    def _register_wager(self, p: str, to: int, *, full: bool) -> None:
        if full:
            self._wagers += 1
            self._acted = {p}
        else:
            self._acted.add(p)
        self._current_bet = max(self._current_bet, to)

    def _put(self, p: str, chips: int, all_in_flag: bool, *, what: str) -> None:
        stacks = self._stack
        stack = stacks[p]
        if chips < 0:
            chips = 0
        if chips > stack:
            self._v(
                Code.OVER_STACK,
                f"{p}'s {what} of {self.m(chips)} is more than the {self.m(stack)} they have.",
                expected=stack,
                reported=chips,
            )
            chips = stack
        stacks[p] = left = stack - chips
        self._street_in[p] += chips
        self._total_in[p] += chips
        if left == 0:
            if p not in self.all_in:
                self.all_in.add(p)
                if p in self._active_set:
                    self._active.remove(p)
                    self._active_set.discard(p)
            if not all_in_flag:
                self._v(
                    Code.ALL_IN_MARKER,
                    f"{p}'s {what} of {self.m(chips)} puts them all-in, but the line does not "
                    "say so.",
                    severity=Severity.WARNING,
                )
        elif all_in_flag:
            self._v(
                Code.ALL_IN_MARKER,
                f"{p}'s {what} is marked all-in but leaves {self.m(self._stack[p])} behind.",
                expected=chips + self._stack[p],
                reported=chips,
            )

    def _close_round(self) -> None:
        """A street ends (next street, showdown, or collection): check what was missed."""
        if self._phase == "deal" and self.street is not None:
            self._open_betting()
        if self._phase != "bet":
            return
        if not self._round_complete():
            waiting = [p for p in self._active if self._needs_to_act(p)]
            for p in waiting:
                self._v(
                    Code.MISSING_ACTION,
                    f"{p} never acts on {self._street_name()} although "
                    + (
                        f"facing {self.m(self._current_bet - self._street_in[p])} to call."
                        if self._street_in[p] < self._current_bet
                        else "it was their turn."
                    ),
                    expected=p,
                )
                self._acted.add(p)  # report once
        unc = None if self._uncalled_done or not self.returns_written else self.uncalled()
        if unc is not None:
            p, amount = unc
            self._v(
                Code.UNCALLED_BET,
                f"{self.m(amount)} of {p}'s bet on {self._street_name()} was never called "
                "but is not returned.",
                expected=amount,
                reported=0,
            )
            self._uncalled_done = True
        self._phase = "between"

    def _uncalled(self, u: UncalledBet) -> None:
        unc = self.uncalled()
        if u.player not in self._street_in:
            self._v(Code.UNKNOWN_PLAYER, f"An uncalled bet is returned to {u.player}.")
            return
        if unc is None or unc != (u.player, u.amount):
            exp = f"{self.m(unc[1])} to {unc[0]}" if unc else "nothing"
            self._v(
                Code.UNCALLED_BET,
                f"{self.m(u.amount)} is returned to {u.player} as uncalled; expected {exp}.",
                expected=exp,
                reported=f"{self.m(u.amount)} to {u.player}",
            )
        amount = min(u.amount, self._street_in[u.player])
        self._street_in[u.player] -= amount
        self._total_in[u.player] -= amount
        self._stack[u.player] += amount
        if self._stack[u.player] > 0 and u.player in self.all_in:
            self.all_in.discard(u.player)
            self._refresh()
        self._current_bet = self._max_street_in()  # the returned chips are no longer a bet
        self._uncalled_done = True

    # ----------------------------------------------------------------- settle
    def finish(self) -> list[Violation]:
        """The events are over: close the last betting round (missed actions, uncalled)."""
        before = len(self.violations)
        if self._phase == "antes":
            self._finish_antes()
        self._close_round()
        if not self._deals_written and len(self.dealt_in) > 1:
            self._v(
                Code.DEALS_NOT_RECORDED,
                "The record writes no deals: who brings in, who acts first and the bet sizes "
                "that depend on the cards cannot be checked.",
                severity=Severity.INFO,
            )
        return self.violations[before:]

    @property
    def deals_written(self) -> bool:
        """Whether the record wrote any deal (else the cards cannot be checked)."""
        return self._deals_written

    def hand_over(self) -> bool:
        return len(self._live) <= 1

    def settle(self, *, rake: int, shown: Mapping[str, Sequence[Card]] | None = None) -> Settlement:
        """Pots (main first, then side pots) and who should win each pot and half.

        `shown` adds known hands (player -> all their cards) to those seen in the events;
        a player whose cards are unknown and who did not muck makes the pot uncheckable.
        """
        known: dict[str, tuple[Card, ...]] = {}
        cards = self.cards
        for p in self._live:
            slots = cards.get(p, [])
            # every card known and no card twice (a bit per card index)
            mask = 0
            for c in slots:
                if c is None:
                    break
                mask |= 1 << c.index
            else:
                if slots and mask.bit_count() == len(slots):
                    known[p] = tuple(slots)  # type: ignore[arg-type]  # no None left
        for p, given in (shown or {}).items():
            known[p] = tuple(given)
        if self.community is not None:
            known = {
                p: cs + (self.community,) for p, cs in known.items() if self.community not in cs
            }
        # a mucked hand is dead; "doesn't show" is the uncontested winner's line, not a concession
        forfeits = {p for p in self.mucked if p not in known}
        return settle_pots(
            spec=self.spec,
            profile=self.profile,
            order=self.order,
            contributions=self._total_in,
            live=self.live,
            all_in=self.all_in,
            rake=rake,
            known=known,
            forfeits=forfeits,
            evaluator=showdown,
        )


# apply() dispatches on the event's type with one dict lookup instead of an isinstance
# chain; a subclass of an event type falls back to `_handler_of`.
_HANDLERS: dict[type, Callable[[HandState, Any], None]] = {
    Action: HandState._action,
    StreetStart: HandState._on_street,
    Deal: HandState._deal,
    UncalledBet: HandState._uncalled,
    Show: HandState._on_show,
    Muck: HandState._muck,
    Collect: HandState._on_collect,
    NoLowHand: HandState._on_no_low,
    BettingCapped: HandState._on_capped,
    DoubleBetAllowed: HandState._on_double,
    TableNote: HandState._on_note,
}


def _handler_of(event: object) -> Callable[[HandState, Any], None] | None:
    for cls, handler in _HANDLERS.items():
        if isinstance(event, cls):
            return handler
    return None


_BRING_IN_TABLES: dict[tuple[int, bool, bool], tuple[tuple[Suit, ...], list[tuple[int, int]]]] = {}


def _bring_in_table(profile: RuleProfile, lowest: bool) -> list[tuple[int, int]]:
    """Bring-in sort key of each card index (smallest brings in), built once per rule set.

    Keyed by the suit order's identity (hashing the enum tuple costs more than the
    lookup saves); the entry keeps the tuple alive, so the id cannot be reused."""
    order = profile.suit_order
    k = (id(order), profile.bring_in_ties_by_suit, lowest)
    got = _BRING_IN_TABLES.get(k)
    if got is None or got[0] is not order:
        table = []
        for c in DECK:
            suit = profile.suit_rank(c.suit) if profile.bring_in_ties_by_suit else 0
            table.append((int(c.rank), suit) if lowest else (-c.rank.low, -suit))
        if len(_BRING_IN_TABLES) >= 256:
            _BRING_IN_TABLES.clear()
        got = _BRING_IN_TABLES[k] = (order, table)
    return got[1]


def _seat_number(seat: Seat) -> int:
    return seat.seat


_SEATINGS: dict[
    tuple[str, ...],
    tuple[dict[str, int], dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]],
] = {}


def _seating(
    order: tuple[str, ...],
) -> tuple[dict[str, int], dict[str, tuple[str, ...]], dict[str, tuple[str, ...]]]:
    """Position of each player and the clockwise rotations starting at / after them.

    Shared (read-only) by every hand with the same seating: a session repeats it."""
    got = _SEATINGS.get(order)
    if got is None:
        n = len(order)
        idx: dict[str, int] = {}
        for i, q in enumerate(order):
            idx.setdefault(q, i)
        start = {q: tuple(order[(i + k) % n] for k in range(n)) for q, i in idx.items()}
        after = {q: tuple(order[(i + k) % n] for k in range(1, n + 1)) for q, i in idx.items()}
        if len(_SEATINGS) >= 4096:
            _SEATINGS.clear()  # bounded: a long audit meets many seatings
        got = _SEATINGS[order] = (idx, start, after)
    return got


_UP_LAYOUTS: dict[tuple[bool, ...], tuple[tuple[int, ...], tuple[int, int] | None]] = {}


def _up_layout(pattern: tuple[bool, ...]) -> tuple[tuple[int, ...], tuple[int, int] | None]:
    """The up-card slots of a game, and the same as a slice when they are contiguous."""
    got = _UP_LAYOUTS.get(pattern)
    if got is None:
        slots = tuple(i for i, up in enumerate(pattern[:7]) if up)
        lo = slots[0] if slots else 0
        contiguous = slots == tuple(range(lo, lo + len(slots)))
        got = _UP_LAYOUTS[pattern] = (slots, (lo, lo + len(slots)) if contiguous else None)
    return got
