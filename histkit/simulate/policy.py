"""How a simulated player decides: from his hand's equity against what he sees.

The player to act knows his own cards, the up cards of the players still in, and the up
cards of those who folded (dead). `histkit.equity` turns that into his equity: his
expected share of the pot against opponents whose down cards he cannot see. He compares
it with his fair share (one over the players still in) and with the price of a call (the
pot odds), through his `Style`: a loose player plays weaker hands and calls lighter, an
aggressive one bets and raises more often and bluffs now and then. A small random error
on his read keeps him human. On 3rd street most hands are folded, as people fold them.

The policy only chooses among the options the rules engine offers (`Legal`); the
simulator turns the choice into the event, and the engine referees it.

Equity is estimated by Monte Carlo over a couple of hundred deals (a standard error of
about 0.03, finer than a person's read), for every player still in at once when a
street's cards are out (`histkit.equity.equities_of`), and kept for the rest of the street.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from histkit.cards import Card
from histkit.equity import EquityError, Holding, equities_of
from histkit.model import Game, Street
from histkit.rules.state import Legal
from histkit.simulate.config import Style

__all__ = ["PLAYS", "Choice", "Decision", "View", "Policy", "RandomPolicy", "SAMPLES", "policy_for"]

PLAYS = ("equity", "random")
"""How simulated players play: "equity" (the default: from their equity against what they
see, like people), or "random" (each option at random: fast, and most hands reach a
showdown, which is what a run that exercises the rules engine wants)."""

SAMPLES = 128


class Choice(StrEnum):
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BRING_IN = "bring_in"
    COMPLETE = "complete"  # the bring-in player completes instead of bringing in
    BET = "bet"
    RAISE = "raise"  # a raise, or the completion over the bring-in on 3rd street


@dataclass(frozen=True, slots=True)
class Decision:
    choice: Choice
    big: bool = False  # the open-pair big bet or raise (stud high, 4th street)


@dataclass(frozen=True, slots=True)
class View:
    """What the player to act sees: his own cards (down, up), each opponent still in by
    his up cards, the folded up cards, the community card if one is out, the pot and the
    bet sizes of the street."""

    game: Game
    street: Street
    down: tuple[Card, ...]
    up: tuple[Card, ...]
    opponents: tuple[tuple[str, tuple[Card, ...]], ...]
    dead: tuple[Card, ...]
    community: Card | None
    pot: int
    to_call: int
    bet: int  # the size of a bet on this street
    family_pot: bool = False  # nobody folds (a hand played to run the deck out)
    raises: int = 0  # raises already made on this street (after its bet)


@dataclass
class Policy:
    """One hand's decisions. When a street's cards are out (`deal`), every player still in
    values his hand against what he sees, all in one vectorised call; he decides on that
    equity for the rest of the street, his strength measured against the players who were
    in when the cards came (a fold after that leaves his read of his hand as it was)."""

    rng: random.Random
    seed: int = 0
    _equity: dict[str, tuple[float, int]] = field(default_factory=dict)
    _calls: int = 0

    def deal(self, views: Mapping[str, View]) -> None:
        """The street's cards are out: each player in `views` values his hand."""
        if not views:
            return
        first = next(iter(views.values()))
        problems = [
            ([Holding(v.down, v.up), *(Holding((), up) for _, up in v.opponents)], v.dead)
            for v in views.values()
        ]
        self._calls += 1
        try:
            eqs = equities_of(
                first.game,
                problems,
                community=first.community,
                samples=SAMPLES,
                seed=self.seed + self._calls,
            )
        except EquityError:  # cannot happen with a real deck: every hand average
            eqs = [tuple(1.0 / len(p[0]) for _ in p[0]) for p in problems]
        self._equity = {
            p: (e[0], len(v.opponents) + 1) for (p, v), e in zip(views.items(), eqs, strict=True)
        }

    def equity(self, player: str, view: View) -> tuple[float, int]:
        """The player's equity at this street's deal and the players in then (valued now
        if he was not: a hand the simulator did not announce)."""
        got = self._equity.get(player)
        if got is None:
            self.deal({player: view})
            got = self._equity[player]
        return got

    def decide(self, player: str, view: View, legal: Legal, style: Style) -> Decision:
        rng = self.rng
        n = len(view.opponents) + 1
        dealt_equity, dealt_players = self.equity(player, view)
        # his read of his chances: the equity, give or take a person's misjudgement
        e = min(1.0, max(0.0, dealt_equity * (1.0 + rng.gauss(0.0, 0.12))))
        strength = e * dealt_players  # 1.0: an average hand among these players
        loose, aggro = style.looseness, style.aggression
        third = view.street is Street.THIRD
        if legal.bring_in is not None:
            strong = strength > 1.5 - 0.3 * aggro
            if legal.complete_to is not None and strong and rng.random() < aggro:
                return Decision(Choice.COMPLETE)
            return Decision(Choice.BRING_IN)
        raise_to = legal.raise_to if legal.raise_to is not None else legal.complete_to
        can_big_raise = legal.raise_to_big is not None
        if legal.call:
            if view.family_pot:
                keep = True
            elif third:
                # 3rd street: play a hand better than this player's bar, else fold
                bar = 1.4 - 0.55 * loose + (0.15 if n <= 3 else 0.0)
                if raise_to is not None and legal.call > view.bet // 2:
                    bar += 0.15  # facing a completion or a raise, not just the bring-in
                keep = strength >= bar
            else:
                # later streets: go on with a hand near his fair share or better (a loose
                # player with less); a big pot against a small price keeps him in too
                price = legal.call / (view.pot + legal.call)
                bar = 1.2 - 0.45 * loose + 0.05 * (int(view.street) - 4)
                keep = strength >= bar or e >= 4.0 * price
            if legal.can_fold and not keep:
                return Decision(Choice.FOLD)
            want_raise = strength >= 1.6 - 0.3 * aggro and rng.random() < 0.3 + 0.6 * aggro
            if view.family_pot:
                want_raise = rng.random() < 0.2 * aggro
            if raise_to is not None and legal.call < legal.stack and want_raise:
                return Decision(Choice.RAISE, big=can_big_raise and rng.random() < 0.5)
            return Decision(Choice.CALL)
        if legal.bet is not None:
            value = strength >= 1.0 - 0.2 * aggro and rng.random() < 0.6 + 0.4 * aggro
            bluff = rng.random() < 0.3 * aggro
            if value or bluff:
                big = legal.bet_big is not None and strength >= 1.3 and rng.random() < 0.6
                return Decision(Choice.BET, big=big)
        if legal.can_check:
            return Decision(Choice.CHECK)
        return Decision(Choice.FOLD)


@dataclass
class RandomPolicy:
    """The first simulator's players: each option the engine offers taken at random, at
    rates set by looseness and aggression, with no look at the cards. Fast, and it walks
    into every corner of the rules (most hands reach a showdown, so ties, capped betting
    and community cards come often): for runs that test the engine, not for data that
    should look like play."""

    rng: random.Random

    def deal(self, views: Mapping[str, View]) -> None:
        """Nothing to value."""

    def decide(self, player: str, view: View, legal: Legal, style: Style) -> Decision:
        rng = self.rng
        if legal.bring_in is not None:
            if legal.complete_to is not None and rng.random() < style.aggression * 0.3:
                return Decision(Choice.COMPLETE)
            return Decision(Choice.BRING_IN)
        raise_to = legal.raise_to if legal.raise_to is not None else legal.complete_to
        big_raise = legal.raise_to_big is not None and rng.random() < 0.5
        big_bet = legal.bet_big is not None and rng.random() < 0.5
        if legal.call:
            third = view.street is Street.THIRD
            keep = style.looseness * 0.7 if third else (style.looseness + 1) / 2
            keep -= 0.08 * view.raises
            if view.family_pot:
                keep = 1.0
            if legal.can_fold and rng.random() > keep:
                return Decision(Choice.FOLD)
            raise_rate = style.aggression * (0.2 if view.family_pot else 0.6)
            if raise_to is not None and legal.call < legal.stack and rng.random() < raise_rate:
                return Decision(Choice.RAISE, big=big_raise)
            return Decision(Choice.CALL)
        if legal.bet is not None and rng.random() < style.aggression * 0.8:
            return Decision(Choice.BET, big=big_bet)
        if legal.can_check:
            return Decision(Choice.CHECK)
        return Decision(Choice.FOLD)


def policy_for(play: str, rng: random.Random) -> Policy | RandomPolicy:
    """The policy of one hand for a `PLAYS` name."""
    if play == "equity":
        return Policy(rng, seed=rng.getrandbits(32))
    if play == "random":
        return RandomPolicy(rng)
    raise ValueError(f"play must be one of {', '.join(PLAYS)}, not {play!r}")
