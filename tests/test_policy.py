"""Simulated players who decide from their equity: 6-max sessions that look like play
(histkit's own VPIP and WTSD, docs/stats.md), no violation, weak hands folded on 3rd
street, strong ones played; the random players kept for runs that exercise the engine."""

from __future__ import annotations

import random

import pytest

from histkit.cards import parse_cards
from histkit.model import Game, Street
from histkit.rules.state import Legal
from histkit.simulate import simulate
from histkit.simulate.config import Style
from histkit.simulate.policy import Choice, Policy, RandomPolicy, View, policy_for
from histkit.stats import player_stats, seat_facts
from histkit.tables import tables_from


@pytest.mark.slow
@pytest.mark.parametrize(("game", "seed"), [("stud_hilo", 31), ("stud", 32), ("razz", 33)])
def test_six_max_sessions_reach_showdown_and_put_money_in_like_people(game: str, seed: int) -> None:
    """WTSD 20-40% and VPIP 20-45% for the average player (all their hands together, and
    the mean of the regular players' own figures), zero violations. The first simulator's
    random players went to showdown in about 80% of the hands that saw 4th street."""
    hands = list(simulate(game, 500, players=6, seed=seed))
    t = tables_from(hands, audit=True)
    assert t.violations is not None
    errors = [v for v in t.violations.to_pylist() if v["severity"] != "info"]
    assert errors == []
    facts = seat_facts(t)
    pooled = player_stats(None, facts=facts.assign(player="everyone"))
    assert 0.20 <= float(pooled["wtsd"].iloc[0]) <= 0.40
    assert 0.20 <= float(pooled["vpip"].iloc[0]) <= 0.45
    regulars = player_stats(None, facts=facts)
    regulars = regulars[regulars["hands"] >= 50]
    assert len(regulars) >= 3
    assert 0.20 <= regulars["wtsd"].mean() <= 0.40
    assert 0.20 <= regulars["vpip"].mean() <= 0.45
    # the figures differ from player to player: styles still matter
    assert regulars["vpip"].max() - regulars["vpip"].min() >= 0.1
    # most hands are folded on 3rd street, and some pots are won there
    third = facts["last_street"].fillna(3).eq(3) & facts["folded_street"].eq(3)
    assert third.mean() >= 0.4


def _view(down: str, up: str, others: list[str], *, game: Game = Game.STUD) -> View:
    return View(
        game=game,
        street=Street.THIRD,
        down=parse_cards(down),
        up=parse_cards(up),
        opponents=tuple((f"p{i}", parse_cards(u)) for i, u in enumerate(others)),
        dead=(),
        community=None,
        pot=6 + 2,
        to_call=2,
        bet=4,
    )


FACING_BRING_IN = Legal(
    player="me",
    street=Street.THIRD,
    can_fold=True,
    can_check=False,
    call=2,
    bring_in=None,
    complete_to=4,
    bet=None,
    raise_to=None,
    stack=400,
)


def test_trash_is_folded_and_rolled_up_trips_are_played_on_third_street() -> None:
    doors = ["Ah", "Kd", "Qs", "Jc", "Ts"]
    rock, maniac = Style(0.4, 0.2), Style(0.95, 0.8)
    folds = plays = 0
    for seed in range(20):
        p = Policy(random.Random(seed), seed=seed)
        trash = p.decide("me", _view("2c 7d", "3h", doors), FACING_BRING_IN, rock)
        folds += trash.choice is Choice.FOLD
        p = Policy(random.Random(seed), seed=seed)
        trips = p.decide("me", _view("9c 9d", "9h", doors), FACING_BRING_IN, maniac)
        plays += trips.choice in (Choice.CALL, Choice.RAISE)
    assert folds == 20 and plays == 20


def test_the_policy_chooses_only_what_the_engine_offers() -> None:
    """Nothing to call and no bet offered (a capped or all-in spot): check, never bet."""
    legal = Legal("me", Street.FIFTH, True, True, None, None, None, None, None, 100)
    view = _view("As Ah", "Ad Ac Kd", ["2c 3d 7h"])
    view = View(**{**{f: getattr(view, f) for f in view.__slots__}, "street": Street.FIFTH})
    for seed in range(10):
        for policy in (Policy(random.Random(seed)), RandomPolicy(random.Random(seed))):
            d = policy.decide("me", view, legal, Style(0.9, 0.9))
            assert d.choice is Choice.CHECK


@pytest.mark.slow
def test_players_play_by_equity_unless_asked_to_play_at_random() -> None:
    assert isinstance(policy_for("equity", random.Random(1)), Policy)
    assert isinstance(policy_for("random", random.Random(1)), RandomPolicy)
    with pytest.raises(ValueError, match="play must be"):
        policy_for("bluff", random.Random(1))
    with pytest.raises(ValueError, match="play must be"):
        list(simulate("stud", 1, play="bluff"))
    random_play = list(simulate("stud", 150, seed=4, play="random"))
    equity_play = list(simulate("stud", 150, seed=4))
    sd = [seat_facts(tables_from(h))["showdown"].mean() for h in (random_play, equity_play)]
    assert sd[0] > sd[1]  # the random players reach showdown far more often
