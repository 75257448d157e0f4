"""The engine reports, never crashes: real and simulated hands with random faults planted
in their events (changed, dropped, repeated, moved) replay to a `Replay` under every
profile, and most planted faults are flagged."""

from __future__ import annotations

import dataclasses
import random

import pytest

from histkit.model import Deal, Game, Hand, Show, Street
from histkit.rules import CASINO, POKERSTARS, Code, RuleProfile, replay
from histkit.rules.state import HandState
from histkit.simulate import house_profile, simulate_with_faults
from tests.conftest import needs_corpus
from tests.rules.corpus import corpus_hands
from tests.rules.mutate import mutate

GAMES = (Game.STUD_HILO, Game.STUD, Game.RAZZ)


def _simulated(game: Game, n: int, seed: int, **kw: object) -> list[Hand]:
    return [h for h, _fault in simulate_with_faults(game, n, seed=seed, faults=0.3, **kw)]


def _walk(hand: Hand, profile: RuleProfile = POKERSTARS) -> None:
    """Step the incremental API the simulator uses through every event."""
    from histkit.model import Action

    st = HandState(
        game=hand.game,
        profile=profile,
        seats=hand.seats,
        small_bet=hand.small_bet,
        big_bet=hand.big_bet,
        ante=None,
        bring_in=None,
        hand_id=hand.hand_id,
    )
    for e in hand.events:
        st.pending()
        if isinstance(e, Action):
            st.legal()
        st.apply(e)


@needs_corpus
def test_real_hands_with_planted_faults() -> None:
    rng = random.Random(6)
    mutants = found = 0
    for h in corpus_hands():
        for _ in range(8):
            bad = mutate(h, rng, rng.randint(1, 3))
            for profile in (POKERSTARS, CASINO):
                r = replay(bad, profile)
            _walk(bad)
            mutants += 1
            found += not r.ok
    assert found > mutants // 2  # most planted faults are found


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.value)
def test_simulated_hands_with_faults(game: Game) -> None:
    rng = random.Random(60 + GAMES.index(game))
    hands = _simulated(game, 120, seed=63, players=rng.randint(2, 8))
    hands += _simulated(game, 40, seed=62, tournament=True, players=8)
    prof = house_profile(base=POKERSTARS)  # with the rake ceiling: rake faults are found too
    assert any(not replay(h, prof).ok for h in hands)  # the simulator's payout faults
    for h in hands:
        for _ in range(3):
            bad = mutate(h, rng, rng.randint(1, 4))
            replay(bad)
            replay(bad, CASINO)
            replay(bad, prof)
            _walk(bad)


def test_a_card_twice_in_one_hand_is_reported_not_a_crash() -> None:
    """A player's cards holding one card twice once crashed the audit in the evaluator;
    the engine reports the duplicate and finishes."""
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
        r = replay(bad)
        assert Code.CARD_DUPLICATE in r.codes()
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
