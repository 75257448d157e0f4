"""Files `histkit export --format phh` writes are read by PokerKit's own PHH loader
(`pokerkit.notation.HandHistory.load`) and replay, with PokerKit's own iteration, to the
final stacks the files state (`finishing_stacks`) and histkit's engine pays, every action
taken as written (PokerKit repairs nothing)."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from histkit.cli import main
from histkit.model import Hand
from histkit.reader import iter_hands
from histkit.rules import replay
from histkit.simulate import write_session
from tests.conftest import CORPUS
from tests.phh.differential import AGREE, compare
from tests.phh.pokerkit_driver import expected_stacks, needs_pokerkit, rake_of

pytestmark = needs_pokerkit


def _load_and_replay(path: Path, hand: Hand) -> None:
    from pokerkit.notation import HandHistory

    rp = replay(hand)
    with open(path, "rb") as f, warnings.catch_warnings():
        warnings.simplefilter("ignore")
        hh = HandHistory.load(f, rake=rake_of(rp))
        taken = [action for _, action in hh.state_actions if action is not None]
        final = list(hh)[-1]
    assert taken == hh.actions, f"{path.name}: PokerKit did not take every action as written"
    assert not final.status
    names = hh.players
    stacks = dict(zip(names, (int(s) for s in final.stacks), strict=True))
    assert stacks == dict(zip(names, hh.finishing_stacks, strict=True)), path.name
    paid = expected_stacks(rp)
    assert paid is not None and all(paid[p] == stacks[p] for p in names), path.name


def _exported(tmp_path: Path, source: Path) -> dict[str, Path]:
    out = tmp_path / "phh"
    assert main(["export", "--format", "phh", str(source), "-o", str(out), "-q"]) == 0
    return {p.stem: p for p in out.glob("*.phh")}


@pytest.mark.parametrize("game", ["stud", "stud_hilo", "razz"])
@pytest.mark.parametrize("tournament", [False, True])
def test_pokerkit_loads_and_replays_exported_simulated_hands(
    tmp_path: Path, game: str, tournament: bool
) -> None:
    source = tmp_path / "hands.txt"
    write_session(source, game, 40, players=6, seed=5, tournament=tournament)
    files = _exported(tmp_path, source)
    checked = 0
    for hand in iter_hands([source]):
        assert isinstance(hand, Hand)
        if compare(hand).kind != AGREE:
            continue  # a known difference: PokerKit's loader would repair that hand
        _load_and_replay(files[f"{hand.site}-{hand.hand_id}"], hand)
        checked += 1
    assert checked >= 30


@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/hands is absent")
def test_pokerkit_loads_and_replays_exported_real_hands(tmp_path: Path) -> None:
    files = _exported(tmp_path, CORPUS)
    checked = set()
    for hand in iter_hands([CORPUS]):
        if isinstance(hand, Hand) and compare(hand).kind == AGREE:
            _load_and_replay(files[f"{hand.site}-{hand.hand_id}"], hand)
            checked.add(hand.site)
    assert len(checked) >= 10
