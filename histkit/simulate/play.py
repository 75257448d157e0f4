"""Play one simulated hand: a seeded deck, players who decide from their equity, the rules
engine as referee.

The simulator carries no copy of the rules. It asks the engine's `HandState` what comes
next (`pending`) and what the player to act may do (`legal`), lets the player's policy
pick among those options (`histkit.simulate.policy`: his equity against what he sees),
and builds the `Hand` events exactly as PokerStars would write them (a completion is a
raise, opponents' down cards are unknown, only the hero sees a 7th-street line). Pots and
awards come from `HandState.settle`. Every event the `Hand` holds is applied to the
state, and a violation raised there is a bug in the simulator: it stops with an error.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from histkit import evaluate
from histkit.cards import DECK, Card
from histkit.model import (
    Action,
    ActionKind,
    BettingCapped,
    Collect,
    Deal,
    DoubleBetAllowed,
    Event,
    Game,
    Hand,
    Muck,
    NoLowHand,
    PotKind,
    Seat,
    SeatOutcome,
    SeatResult,
    Show,
    SourceRef,
    Street,
    StreetStart,
    Summary,
    UncalledBet,
    Unit,
)
from histkit.rules.betting import street_bet
from histkit.rules.order import shows_first_of
from histkit.rules.pots import Pot, Settlement
from histkit.rules.profile import POKERSTARS, RuleProfile, ShowdownOrder
from histkit.rules.state import HandState, PendingKind
from histkit.rules.violations import Violation
from histkit.simulate.config import RakeSchedule, Stakes, Style
from histkit.simulate.policy import Choice, View, policy_for

if TYPE_CHECKING:
    from histkit.simulate.faults import Fault

__all__ = ["SimPlayer", "HandSetup", "PlayedHand", "play_hand", "SimulationError"]


class SimulationError(RuntimeError):
    """The engine rejected an event the simulator built: a simulator bug, never repaired."""


@dataclass(slots=True)
class SimPlayer:
    """A player sitting at a simulated table (mutable: the stack carries over)."""

    name: str
    seat: int
    stack: int
    style: Style


@dataclass(frozen=True, slots=True)
class HandSetup:
    """Everything about a hand that is fixed before the cards are dealt."""

    game: Game
    hand_id: str
    table: str
    max_seats: int
    stakes: Stakes
    started_at: datetime
    local_time: str
    unit: Unit
    currency: str | None
    rake: RakeSchedule
    hero: str | None
    tournament_id: str | None = None
    level: str | None = None
    buy_in: str | None = None
    profile: RuleProfile = POKERSTARS
    family_pot: bool = False  # nobody folds: the deck can run out (community card)
    play: str = "equity"  # how the players decide (histkit.simulate.policy.PLAYS)


@dataclass(frozen=True, slots=True)
class PlayedHand:
    """A hand as written, the engine's settlement of it, and the fault planted in it."""

    hand: Hand
    final_stacks: dict[str, int]
    settlement: Settlement
    fault: Fault | None = None


class _Table:
    """The bookkeeping of one hand being played (not rules: the engine owns those)."""

    def __init__(self, setup: HandSetup, players: Sequence[SimPlayer], rng: random.Random):
        self.setup = setup
        self.players = sorted(players, key=lambda p: p.seat)
        self.by_name = {p.name: p for p in self.players}
        self.rng = rng
        self.deck = list(DECK)
        rng.shuffle(self.deck)
        self.cards: dict[str, list[Card]] = {p.name: [] for p in self.players}
        self.ups: dict[str, list[Card]] = {p.name: [] for p in self.players}
        self.stacks = {p.name: p.stack for p in self.players}
        self.events: list[Event] = []
        self.street = Street.THIRD
        self.street_in: dict[str, int] = {}
        self.folded: dict[str, Street] = {}
        self.community: Card | None = None
        self.burned: list[Card] = []
        self.voluntary: set[str] = set()  # put chips in on 3rd street beyond the ante
        self.start_total = sum(self.stacks.values())
        self.policy = policy_for(setup.play, rng)
        seats = tuple(Seat(p.seat, p.name, p.stack) for p in self.players)
        self.state = HandState(
            game=setup.game,
            profile=setup.profile,
            seats=seats,
            small_bet=setup.stakes.small_bet,
            big_bet=setup.stakes.big_bet,
            ante=setup.stakes.ante,
            bring_in=setup.stakes.bring_in,
            hand_id=setup.hand_id,
            unit=setup.unit,
        )
        self.seats = seats

    # ------------------------------------------------------------------ events
    def check(self, violations: Sequence[Violation], what: object) -> None:
        """A violation the engine raises is a simulator bug (an informational record, such
        as a showdown order other than the profile's, is not)."""
        violations = [v for v in violations if v.is_error]
        if violations:
            raise SimulationError(
                f"hand {self.setup.hand_id}: engine rejected {what!r}: "
                + "; ".join(getattr(v, "message", str(v)) for v in violations)
            )

    def emit(self, e: Event) -> None:
        self.check(self.state.apply(e), e)
        self.events.append(e)
        if isinstance(e, Action):
            self._book(e)
        elif isinstance(e, UncalledBet | Collect):
            self.stacks[e.player] += e.amount

    def _book(self, a: Action) -> None:
        if a.kind is ActionKind.FOLD:
            self.folded[a.player] = a.street
            return
        if a.kind is ActionKind.ANTE:
            self.stacks[a.player] -= a.amount
            return
        if a.street is Street.THIRD:
            self.voluntary.add(a.player)
        before = self.street_in.get(a.player, 0)
        if a.kind in (ActionKind.RAISE, ActionKind.COMPLETE) and a.to_amount is not None:
            after = a.to_amount
        else:
            after = before + a.amount
        self.stacks[a.player] -= after - before
        self.street_in[a.player] = after

    def live(self) -> list[str]:
        return [p.name for p in self.players if p.name not in self.folded]

    def can_act(self) -> list[str]:
        """Players still in with chips behind: those who will decide on this street."""
        return [p for p in self.live() if self.stacks[p] > 0]

    # ------------------------------------------------------------------- deals
    def deal_street(self, street: Street) -> None:
        hero = self.setup.hero
        self.street = street
        self.street_in = {}
        live = self.live()
        if self.setup.profile.burn_cards and self.deck:
            self.burned.append(self.deck.pop())  # a house that burns before each street
        # the dealer cannot give every live player a card: one community card for all
        if street is Street.SEVENTH and len(self.deck) < len(live):
            self.community = (self.deck or self.burned).pop()
            self.emit(StreetStart(street, community=self.community))
            return
        self.emit(StreetStart(street))
        for name in live:
            if street is Street.THIRD:
                new = [self.deck.pop(), self.deck.pop(), self.deck.pop()]
                self.cards[name].extend(new)
                self.ups[name].append(new[2])
                known = tuple(new) if name == hero else (None, None, new[2])
                self.emit(Deal(street, name, known, (False, False, True)))
                continue
            before = tuple(self.cards[name]) if name == hero else tuple(self.ups[name])
            card = self.deck.pop()
            self.cards[name].append(card)
            if street is Street.SEVENTH:
                if name == hero:
                    self.emit(Deal(street, name, (card,), (False,), before))
                else:  # the site prints no line: the state hears of an unknown down card
                    self.check(self.state.apply(Deal(street, name, (None,), (False,))), name)
                continue
            self.ups[name].append(card)
            self.emit(Deal(street, name, (card,), (True,), before))

    # ----------------------------------------------------------------- actions
    def view(self, name: str, street: Street, to_call: int) -> View:
        """What `name` sees now: his cards, the others' up cards, the folded up cards."""
        ups = tuple(self.ups[name])
        stakes = self.setup.stakes
        return View(
            game=self.setup.game,
            street=street,
            down=tuple(c for c in self.cards[name] if c not in ups),
            up=ups,
            opponents=tuple((p, tuple(self.ups[p])) for p in self.live() if p != name),
            dead=tuple(c for p in self.folded for c in self.ups[p]),
            community=self.community,
            pot=self.start_total - sum(self.stacks.values()),
            to_call=to_call,
            bet=street_bet(street, stakes.small_bet, stakes.big_bet),
            family_pot=self.setup.family_pot,
            raises=self.state.raises_this_street,
        )

    def act(self) -> None:
        legal = self.state.legal()
        assert legal is not None
        name = legal.player
        street = legal.street
        # the engine's numbers, not our own: chips behind, chips in this street, the bet
        stack = legal.stack
        mine = self.state.street_contributions[name]
        top = self.state.current_bet

        def wager(kind: ActionKind, to: int) -> Action:
            to = min(to, mine + stack)
            all_in = to == mine + stack
            if kind is ActionKind.RAISE:
                return Action(street, name, kind, to - top, to, all_in=all_in)
            return Action(street, name, kind, to - mine, all_in=all_in)

        view = self.view(name, street, legal.call or 0)
        d = self.policy.decide(name, view, legal, self.by_name[name].style)
        c = d.choice
        if c is Choice.BRING_IN:
            assert legal.bring_in is not None
            self.emit(wager(ActionKind.BRING_IN, legal.bring_in))
        elif c is Choice.COMPLETE:
            assert legal.complete_to is not None
            self.emit(wager(ActionKind.BET, legal.complete_to))
        elif c is Choice.FOLD:
            self.emit(Action(street, name, ActionKind.FOLD))
        elif c is Choice.CHECK:
            self.emit(Action(street, name, ActionKind.CHECK))
        elif c is Choice.CALL:
            assert legal.call is not None
            call = min(legal.call, stack)
            self.emit(Action(street, name, ActionKind.CALL, call, all_in=call == stack))
        elif c is Choice.RAISE:
            raise_to = legal.raise_to if legal.raise_to is not None else legal.complete_to
            # the open-pair big raise is taken only with the chips for all of it: an all-in
            # between the two sizes is a house-rule grey zone we do not generate
            big = self.setup.stakes.big_bet
            if d.big and legal.raise_to_big is not None and legal.raise_to_big - top == big:
                raise_to = legal.raise_to_big
            assert raise_to is not None
            self.emit(wager(ActionKind.RAISE, raise_to))
            self._maybe_capped()
        else:
            bet = legal.bet
            if d.big and legal.bet_big == self.setup.stakes.big_bet:
                bet = legal.bet_big
            assert bet is not None
            self.emit(wager(ActionKind.BET, mine + bet))
            self._maybe_capped()

    def maybe_double_bet(self) -> None:
        """Stud high, 4th street: the site announces an open pair before the first action."""
        if self.street is Street.FOURTH:
            legal = self.state.legal()
            if legal is not None and legal.bet_big is not None:
                self.emit(DoubleBetAllowed(Street.FOURTH))

    def maybe_uncalled(self) -> None:
        """When a betting round closes with a bet nobody matched, the site returns it."""
        if self.state.to_act() is None:
            unc = self.state.uncalled()
            if unc is not None:
                self.emit(UncalledBet(unc[0], unc[1], self.street))

    def _maybe_capped(self) -> None:
        """ "Betting is capped" follows the wager that reaches the profile's cap."""
        st = self.state
        cap = self.setup.profile.cap(heads_up=len(st.live) == 2)
        if cap is not None and st.raises_this_street + 1 >= cap:
            self.emit(BettingCapped(self.street))

    # -------------------------------------------------------------- showdown
    def showdown_order(self, contenders: list[str]) -> list[str]:
        """Who shows first (`histkit.rules.order.shows_first_of`), then clockwise. The
        simulator writes every site's showdowns in one order, whatever the profile's: the
        last aggressor of the last betting round first, else the first seat (what
        PokerStars' ring tables show)."""
        seated = [p.name for p in self.players if p.name in contenders]
        first = shows_first_of(self.state, ShowdownOrder.FIRST_SEAT)
        if first is not None and self.state.names[first] in seated:
            i = seated.index(self.state.names[first])
            seated = seated[i:] + seated[:i]
        return seated

    def hand_cards(self, name: str) -> list[Card]:
        return self.cards[name] + ([self.community] if self.community else [])

    def describe(self, name: str) -> str:
        cards = self.hand_cards(name)
        game = self.setup.game
        if game is Game.RAZZ:
            return f"Lo: {evaluate.low_name(cards)}"
        if game is Game.STUD:
            return evaluate.high_name(cards)
        text = f"HI: {evaluate.high_name(cards)}"
        if evaluate.low8_value(cards) is not None:
            text += f"; LO: {evaluate.low_name(cards)}"
        return text


def play_hand(setup: HandSetup, players: Sequence[SimPlayer], rng: random.Random) -> PlayedHand:
    """Play one hand to the end and return it as PokerStars would have written it."""
    t = _Table(setup, players, rng)
    state = t.state
    dealt: set[Street] = set()
    while True:
        p = state.pending()
        if p.kind is PendingKind.ANTES:
            assert p.player is not None
            amount = min(setup.stakes.ante, t.stacks[p.player])
            all_in = amount == t.stacks[p.player]
            t.emit(Action(Street.THIRD, p.player, ActionKind.ANTE, amount, all_in=all_in))
        elif p.kind is PendingKind.DEAL:
            street = p.street or Street.THIRD
            if street in dealt:
                raise SimulationError(f"hand {setup.hand_id}: {street} is pending twice")
            dealt.add(street)
            t.deal_street(street)
            t.policy.deal({name: t.view(name, street, 0) for name in t.can_act()})
            t.maybe_double_bet()
        elif p.kind is PendingKind.ACTION:
            t.act()
            t.maybe_uncalled()
        else:
            break
    return _finish(t)


# --------------------------------------------------------------------- the end of a hand
def _finish(t: _Table) -> PlayedHand:
    setup, st, rng = t.setup, t.state, t.rng
    live = st.live
    total = sum(st.contributions.values())
    rake = setup.rake.rake(total, ended_on_third=t.street is Street.THIRD)
    shown: dict[str, tuple[Card, ...]] = {}
    mucked: set[str] = set()
    if t.stacks != st.stacks:  # our chip bookkeeping must agree with the engine's
        raise SimulationError(f"hand {setup.hand_id}: stacks {t.stacks} != engine {st.stacks}")
    if len(live) == 1:
        settlement = st.settle(rake=rake)
        for c in _collects(settlement, settlement.pots[0].index if settlement.pots else 0, True):
            t.emit(c)
        if rng.random() < 0.5:
            t.emit(Muck(live[0], declined=True))
    else:
        full = {p: tuple(t.cards[p]) for p in live}
        pots = st.settle(rake=rake, shown=full).pots
        order = t.showdown_order(live)
        plan: list[tuple[int, list[str]]] = []
        for pot in sorted(pots, key=lambda x: -x.index):
            who = [p for p in order if p in pot.eligible and p not in shown and p not in mucked]
            for p in who:
                if shown and _beaten(t, p, pots, shown) and rng.random() < 0.75:
                    mucked.add(p)
                else:
                    shown[p] = full[p]
            plan.append((pot.index, who))
        # the muckers' cards change no award (see `_beaten`), so the engine may know them
        settlement = st.settle(rake=rake, shown=full)
        single = len(settlement.pots) == 1
        for index, who in plan:
            for p in who:
                if p in shown:
                    t.emit(Show(p, shown[p], evaluate.describe(setup.game, t.hand_cards(p))))
                else:
                    t.emit(Muck(p))
            for c in _collects(settlement, index, single):
                t.emit(c)
        if setup.game is Game.STUD_HILO and not any(a.half == "low" for a in settlement.awards):
            t.emit(NoLowHand())
    won: dict[str, int] = {}
    for e in t.events:
        if isinstance(e, Collect):
            won[e.player] = won.get(e.player, 0) + e.amount
    results = []
    for sp in t.players:
        name = sp.name
        if name in t.folded:
            street = t.folded[name]
            results.append(
                SeatResult(
                    sp.seat,
                    name,
                    SeatOutcome.FOLDED,
                    folded_street=street,
                    didnt_bet=street is Street.THIRD and name not in t.voluntary,
                )
            )
        elif name in shown:
            desc = evaluate.describe(setup.game, t.hand_cards(name))
            results.append(
                SeatResult(
                    sp.seat,
                    name,
                    SeatOutcome.SHOWED,
                    won=won.get(name, 0),
                    cards=shown[name],
                    description=desc,
                )
            )
        elif name in mucked:
            results.append(
                SeatResult(sp.seat, name, SeatOutcome.MUCKED, cards=tuple(t.cards[name]))
            )
        else:
            results.append(SeatResult(sp.seat, name, SeatOutcome.COLLECTED, won=won.get(name, 0)))
    pots_net = [
        sum(a.amount for a in settlement.awards if a.pot == p.index) for p in settlement.pots
    ]
    multi = len(settlement.pots) > 1
    summary = Summary(
        total_pot=total,
        rake=rake,
        main_pot=pots_net[0] if multi else None,
        side_pots=tuple(pots_net[1:]) if multi else (),
        board=(t.community,) if t.community is not None else (),
        seats=tuple(results),
    )
    hand = Hand(
        site="pokerstars",
        hand_id=setup.hand_id,
        game=setup.game,
        small_bet=setup.stakes.small_bet,
        big_bet=setup.stakes.big_bet,
        unit=setup.unit,
        currency=setup.currency,
        started_at=setup.started_at,
        table=setup.table,
        max_seats=setup.max_seats,
        seats=t.seats,
        events=tuple(t.events),
        summary=summary,
        source=SourceRef("<simulated>", 0),
        tournament_id=setup.tournament_id,
        level=setup.level,
        buy_in=setup.buy_in,
        local_time=setup.local_time,
        hero=setup.hero,
    )
    return PlayedHand(hand, dict(t.stacks), settlement)


def _collects(settlement: Settlement, index: int, single: bool) -> list[Collect]:
    """The `collected` lines of one pot: the high half first, then the low half; one line
    per winner (a scoop of a split pot is two lines, as the site prints it)."""
    if single:
        kind, pot_index = PotKind.POT, 0
    elif index == 0:
        kind, pot_index = PotKind.MAIN, 0
    else:
        kind, pot_index = PotKind.SIDE, index
    out = []
    rank = {"high": 0, "whole": 0, "low": 1}
    for award in sorted(
        (a for a in settlement.awards if a.pot == index), key=lambda a: rank[a.half]
    ):
        if award.winners is None:
            raise SimulationError(f"pot {index} undecided: {award.reason}")
        for player, amount in award.expected:
            if amount > 0:
                out.append(Collect(player, amount, kind, pot_index))
    return out


def _beaten(t: _Table, p: str, pots: Sequence[Pot], shown: dict[str, tuple[Card, ...]]) -> bool:
    """True when a hand already shown, in every pot `p` plays for, beats `p` in every half:
    mucking then changes no award (the site's auto-muck of a losing hand)."""
    deepest = max(x.index for x in pots if p in x.eligible)
    rivals = [q for q in shown if q in next(x for x in pots if x.index == deepest).eligible]
    game = t.setup.game
    mine = t.hand_cards(p)
    for q in rivals:
        theirs = t.hand_cards(q)
        if game is Game.RAZZ:
            if evaluate.razz_value(theirs) > evaluate.razz_value(mine):
                return True
            continue
        if evaluate.high_value(theirs) <= evaluate.high_value(mine):
            continue
        if game is Game.STUD:
            return True
        my_low, their_low = evaluate.low8_value(mine), evaluate.low8_value(theirs)
        if my_low is None or (their_low is not None and their_low > my_low):
            return True
    return False
