"""PokerKit as a standing second opinion: simulated hands of the three games (2 to 8
players, cash and tournaments, several seeds), a batch of players who choose at random
(whose all-ins and showdowns reach the side pots where PokerKit's pot bugs show), and
every real hand, written as PHH and replayed by PokerKit 0.7.7, give every player the
result histkit's engine gives, or the hand is one of the known differences
(known_differences.py), each recognised in the hand. Any other disagreement fails. The
counts, per game (and per site for the real hands) and per difference, are printed at the
end of the run ("recorded summaries") and recorded as the test's `summary` property."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from histkit.model import Hand
from histkit.reader import iter_hands
from tests.conftest import CORPUS
from tests.phh.differential import AGREE, NOT_COMPARED, Outcome, compare
from tests.phh.known_differences import KNOWN
from tests.phh.pokerkit_driver import needs_pokerkit

pytestmark = [needs_pokerkit, pytest.mark.slow]

_GAMES = ("stud", "stud_hilo", "razz")
_PLAYERS = (2, 3, 5, 8)
_SEEDS = (11, 12)
_HANDS = 60  # per game, table size, cash or tournament, and seed: 2,880 hands
# players who choose every option at random (`play="random"`) go all-in and to showdowns
# far more often than people: side pots split high and low, where PokerKit's pot bugs
# and its odd-chip rule show (players who play like people fold before most of them).
# Long tournaments reach the levels where every stack is short.
_RANDOM = (  # (game, players, tournament, seed, hands): 2,200 hands
    *(("stud_hilo", 8, True, seed, 300) for seed in range(1, 5)),
    *(("stud_hilo", 8, False, seed, 100) for seed in range(1, 7)),
    *((game, 8, False, seed, 100) for game in ("stud", "razz") for seed in (1, 2)),
)
_POT_DIFFERENCES = ("side_pot_low_half", "merged_side_pots", "tied_half_odd_chip")


def _table(title: str, counts: Counter[tuple[str, str]]) -> str:
    """The counts as a table: one row per game (or site), one column per outcome."""
    groups = sorted({g for g, _ in counts})
    kinds = [AGREE, *(k.name for k in KNOWN), *NOT_COMPARED, "unexplained"]
    kinds = [k for k in kinds if any(counts[g, k] for g in groups)]
    width = max(len(k) for k in kinds)
    lines = [title, f"{'':<{width}}  " + "  ".join(f"{g:>10}" for g in groups)]
    for k in kinds:
        lines.append(f"{k:<{width}}  " + "  ".join(f"{counts[g, k]:>10,}" for g in groups))
    compared = [sum(counts[g, k] for k in kinds if k not in NOT_COMPARED) for g in groups]
    lines.append(f"{'compared':<{width}}  " + "  ".join(f"{n:>10,}" for n in compared))
    return "\n".join(lines)


def _report(
    tables: list[tuple[str, list[tuple[str, Outcome]]]], record: pytest.RecordProperty
) -> None:
    """Print and record each table of counts; fail on any disagreement nobody explained."""
    text = "\n".join(_table(title, Counter((g, o.kind) for g, o in rows)) for title, rows in tables)
    record("summary", text)
    print(text)
    outcomes = tables[0][1]
    bad = [o for _, o in outcomes if o.kind == "unexplained"]
    assert not bad, "\n".join(
        f"{o.hand.site} {o.hand.hand_id} ({o.hand.source.file}:{o.hand.source.line}): {o.detail}"
        for o in bad[:20]
    )


def test_simulated_hands_agree_with_pokerkit(record_property: pytest.RecordProperty) -> None:
    outcomes = []
    for game, players, tournament, seed in itertools.product(
        _GAMES, _PLAYERS, (False, True), _SEEDS
    ):
        from histkit.simulate import simulate

        for hand in simulate(game, _HANDS, players=players, seed=seed, tournament=tournament):
            outcomes.append((game, compare(hand)))
    _report([("PokerKit 0.7.7 vs histkit, simulated hands (per game):", outcomes)], record_property)
    agree = sum(1 for _, o in outcomes if o.kind == AGREE)
    assert agree > 0.9 * len(outcomes)  # the known differences stay the exception


def test_simulated_random_players_agree_with_pokerkit(
    record_property: pytest.RecordProperty,
) -> None:
    """The known pot differences (PokerKit's hi/lo side-pot bugs, its odd chip) need side
    pots split high and low: hands of players who choose at random reach them."""
    from histkit.simulate import simulate

    outcomes = [
        (game, compare(hand))
        for game, players, tournament, seed, n in _RANDOM
        for hand in simulate(
            game, n, players=players, seed=seed, tournament=tournament, play="random"
        )
    ]
    _report(
        [("PokerKit 0.7.7 vs histkit, simulated random players (per game):", outcomes)],
        record_property,
    )
    assert any(o.kind in _POT_DIFFERENCES for _, o in outcomes)


@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/hands is absent")
def test_real_hands_agree_with_pokerkit(record_property: pytest.RecordProperty) -> None:
    hands = [h for h in iter_hands([CORPUS]) if isinstance(h, Hand)]
    outcomes = [(h.site, compare(h)) for h in hands]
    per_game = [(str(h.game), o) for h, (_, o) in zip(hands, outcomes, strict=True)]
    _report(
        [
            ("PokerKit 0.7.7 vs histkit, real hands (per site):", outcomes),
            ("PokerKit 0.7.7 vs histkit, real hands (per game):", per_game),
        ],
        record_property,
    )
    assert {g for g, o in per_game if o.kind == AGREE} == set(_GAMES)
    compared = [o for _, o in outcomes if o.kind not in NOT_COMPARED]
    assert len(compared) > 250 and len({s for s, o in outcomes if o.kind == AGREE}) >= 10
