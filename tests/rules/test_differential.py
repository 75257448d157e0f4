"""The optimised engine agrees with the reference engine (tests/rules/reference/, the
engine as it was before issue 6's speed work) on everything it reports: violations with
their messages, pots, awards, stacks, and every answer of the incremental API the
simulator uses. Checked on the real corpus, on simulated sessions with planted payout
faults, and on the same hands with random faults planted in their events."""

from __future__ import annotations

import dataclasses
import random

import pytest

from histkit.model import Deal, Game, Hand, Show, Street
from histkit.rules import CASINO, POKERSTARS, Code, replay
from histkit.simulate import house_profile, simulate_with_faults
from tests.conftest import needs_corpus
from tests.rules.corpus import corpus_hands
from tests.rules.differential import compare_replays, compare_states, mutate

GAMES = (Game.STUD_HILO, Game.STUD, Game.RAZZ)


def _simulated(game: Game, n: int, seed: int, **kw: object) -> list[Hand]:
    return [h for h, _fault in simulate_with_faults(game, n, seed=seed, faults=0.3, **kw)]


@needs_corpus
def test_real_hands_agree_with_the_reference() -> None:
    hands = corpus_hands()
    assert len(hands) == 86
    for h in hands:
        assert compare_replays(h) is None
        assert compare_states(h) is None
        assert compare_replays(h, CASINO) is None


@needs_corpus
def test_real_hands_with_planted_faults_agree() -> None:
    rng = random.Random(6)
    mutants = found = 0
    for h in corpus_hands():
        for _ in range(8):
            bad = mutate(h, rng, rng.randint(1, 3))
            assert compare_replays(bad) is None
            assert compare_states(bad) is None
            mutants += 1
            found += _flagged(bad)
    assert found > mutants // 2  # most planted faults are found (with the same codes)


def _flagged(h: Hand) -> bool:
    """The engine reports an error (a few mutants trip the evaluator, in both engines
    alike: compare_replays has checked that they fail the same way)."""
    try:
        return not replay(h).ok
    except ValueError:
        return True


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.value)
def test_simulated_sessions_with_payout_faults_agree(game: Game) -> None:
    hands = _simulated(game, 150, seed=61)
    hands += _simulated(game, 50, seed=62, tournament=True, players=8)
    faulty = sum(not replay(h).ok for h in hands)
    assert faulty > 0  # the simulator's planted payout faults are there to be found
    for h in hands:
        assert compare_replays(h) is None
    for h in hands[:40]:
        assert compare_states(h) is None


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.value)
def test_simulated_hands_with_random_faults_agree(game: Game) -> None:
    rng = random.Random(60 + GAMES.index(game))
    hands = _simulated(game, 120, seed=63, players=rng.randint(2, 8))
    for h in hands:
        for _ in range(3):
            bad = mutate(h, rng, rng.randint(1, 4))
            assert compare_replays(bad) is None
            assert compare_states(bad) is None


def test_other_house_rules_agree() -> None:
    """The casino profile (burns, next-by-card bring-in, heads-up uncapped) and a rake cap."""
    rng = random.Random(64)
    prof = house_profile(base=POKERSTARS)
    for game in GAMES:
        for h in _simulated(game, 60, seed=65, profile=CASINO):
            assert compare_replays(h, CASINO) is None
            assert compare_replays(mutate(h, rng, 2), CASINO) is None
            assert compare_states(mutate(h, rng, 2), CASINO) is None
        for h in _simulated(game, 40, seed=66):
            assert compare_replays(h, prof) is None


def test_a_card_twice_in_one_hand_is_reported_not_a_crash() -> None:
    """The reference engine raised (from the evaluator) when a player's cards held one
    card twice; the engine reports the duplicate and finishes the audit."""
    from tests.rules.reference.replay import replay as reference_replay

    for h in _simulated(Game.STUD_HILO, 200, seed=67):
        shows = {e.player for e in h.events if isinstance(e, Show)}
        deals = [e for e in h.events if isinstance(e, Deal) and e.player in shows]
        fourth = next((d for d in deals if d.street == Street.FOURTH), None)
        fifth = next(
            (d for d in deals if d.street == Street.FIFTH and fourth and d.player == fourth.player),
            None,
        )
        if fourth is None or fifth is None:
            continue
        twice = fifth.__class__(
            fifth.street, fifth.player, fourth.cards, fifth.up, fifth.before, fifth.line
        )
        bad = dataclasses.replace(h, events=tuple(twice if e is fifth else e for e in h.events))
        with pytest.raises(ValueError):
            reference_replay(bad)
        r = replay(bad)
        assert Code.CARD_DUPLICATE in r.codes()
        assert compare_replays(bad) is None and compare_states(bad) is None
        return
    pytest.fail("no showdown hand to plant the duplicate in")


def test_rank_boards_matches_the_one_board_evaluators() -> None:
    """The engine ranks all boards of a street in one call; it must agree with
    board_high_value / board_low_value board by board, skip unknown cards, say None
    when a board has no known card, and refuse a card twice like they do."""
    from histkit.cards import DECK
    from histkit.evaluate import board_high_value, board_low_value, rank_boards

    rng = random.Random(68)
    for _ in range(2000):
        deck = list(DECK)
        rng.shuffle(deck)
        boards = [[deck.pop() for _ in range(rng.randint(1, 4))] for _ in range(rng.randint(1, 8))]
        holes = [[None, *b] if rng.random() < 0.3 else b for b in boards]
        assert rank_boards(holes) == [board_high_value(b) for b in boards]
        assert rank_boards(holes, high=False) == [board_low_value(b) for b in boards]
    assert rank_boards([[DECK[0]], [None]]) is None
    with pytest.raises(ValueError, match="twice"):
        rank_boards([[DECK[0], DECK[0]], [DECK[1]]])
    assert rank_boards([[DECK[0], DECK[0]], [None]]) is None  # unknown board first: no check
