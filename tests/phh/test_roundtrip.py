"""Parse, write PHH, read PHH: the same hands, as far as PHH holds them (`phh_view`; what
it cannot hold is `histkit.phh.NOT_HELD`), and the same audit, on simulated hands of every
game and on every real hand of every site."""

from __future__ import annotations

import itertools
from collections import Counter
from pathlib import Path

import pytest

from histkit.cli import main
from histkit.model import Hand
from histkit.phh import dumps, dumps_all, read_phh
from histkit.reader import iter_hands
from histkit.rules import replay
from histkit.simulate import simulate
from tests.conftest import CORPUS
from tests.phh.views import phh_view


def _back(hand: Hand) -> Hand:
    (got,) = read_phh(dumps(hand).split("\n"), f"{hand.hand_id}.phh")
    assert isinstance(got, Hand), got
    return got


def _codes(hand: Hand) -> list[str]:
    return sorted(v.code.value for v in replay(hand).violations if v.is_error)


def _same(hand: Hand) -> None:
    back = _back(hand)
    a, b = phh_view(hand), phh_view(back)
    assert a == b, {k: (a[k], b[k]) for k in a if a[k] != b[k]}
    assert _codes(back) == _codes(hand)
    assert back.money_unit == hand.money_unit and back.dialect == "phh"


@pytest.mark.slow
@pytest.mark.parametrize("game", ["stud", "stud_hilo", "razz"])
def test_simulated_hands_round_trip(game: str) -> None:
    n = 0
    for players, tournament, seed in itertools.product((2, 5, 8), (False, True), (1, 2)):
        for hand in simulate(game, 25, players=players, seed=seed, tournament=tournament):
            _same(hand)
            n += 1
    assert n == 300


@pytest.mark.slow
def test_planted_faults_survive_the_round_trip() -> None:
    """A payout error in the record is in the PHH too: the audit of the PHH finds every one
    the audit of the text finds (as AWARD_MISMATCH where the text's audit could name the
    half: PHH keeps each player's winnings, not which half paid them)."""
    from histkit.simulate import FAULT_KINDS, simulate_with_faults

    # the payout faults (a wrong rake is caught only against a house's rake ceiling)
    kinds = tuple(k for k in FAULT_KINDS if k != "wrong_rake")
    found = 0
    for hand, fault in simulate_with_faults(
        "stud_hilo", 300, players=6, seed=3, faults=0.2, fault_kinds=kinds
    ):
        if fault is None:
            continue
        text_codes, phh_codes = _codes(hand), _codes(_back(hand))
        assert bool(text_codes) == bool(phh_codes), (fault, text_codes, phh_codes)
        assert set(phh_codes) <= set(text_codes) | {"AWARD_MISMATCH"}
        found += bool(phh_codes)
    assert found >= 5


def test_a_phhs_file_holds_the_same_hands() -> None:
    hands = list(simulate("razz", 30, players=4, seed=9))
    got = list(read_phh(dumps_all(hands).split("\n"), "many.phhs"))
    assert [phh_view(h) for h in got] == [phh_view(h) for h in hands]  # type: ignore[arg-type]
    assert [h.source.line for h in got][:2] == [1, got[1].source.line] and got[1].source.line > 1


@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/hands is absent")
def test_every_real_hand_round_trips() -> None:
    sites: Counter[str] = Counter()
    for hand in iter_hands([CORPUS]):
        if isinstance(hand, Hand):
            _same(hand)
            sites[hand.site] += 1
    assert len(sites) >= 12 and sum(sites.values()) > 300


@pytest.mark.slow
@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/hands is absent")
def test_exported_real_corpus_parses_to_the_same_tables(tmp_path: Path) -> None:
    """The command line end to end: export the real folder, parse both; the hands table
    agrees on every column PHH holds (the export writes a hand read twice once, as the
    parse's readers count it)."""
    import pyarrow.parquet as pq

    out = tmp_path / "phh"
    assert main(["export", str(CORPUS), "-o", str(out), "--phhs", "-q"]) == 0
    assert main(["parse", str(CORPUS), "-o", str(tmp_path / "a"), "-q"]) == 0
    assert main(["parse", str(out), "-o", str(tmp_path / "b"), "-q"]) == 0
    cols = ["site", "hand_id", "game", "small_bet", "big_bet", "money_unit", "table"]
    a = pq.read_table(tmp_path / "a" / "hands.parquet").select(cols).to_pylist()
    b = pq.read_table(tmp_path / "b" / "hands.parquet").select(cols).to_pylist()
    key = lambda r: (r["site"], r["hand_id"])  # noqa: E731
    once = list({key(r): r for r in reversed(a)}.values())  # the first copy of each hand
    assert len(once) < len(a)  # the corpus holds a hand twice
    assert sorted(once, key=key) == sorted(b, key=key)
