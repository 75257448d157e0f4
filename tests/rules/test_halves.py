"""Sites that name the half a collect pays (Winamax "pot(HI)", Full Tilt "wins the low
pot"): each half must go to the players the engine gives it to."""

from __future__ import annotations

import re

from histkit.dialects.winamax_writer import write_hands
from histkit.model import Collect, Half, Hand
from histkit.reader import parse_text
from histkit.rules import replay
from histkit.rules.violations import Code
from histkit.simulate import simulate


def _split_hand() -> str:
    """A simulated hi/lo hand, in Winamax's text, whose pot is split between two players."""
    for h in simulate("stud_hilo", 300, players=4, seed=3, currency="EUR"):
        text = write_hands([h])
        hi = re.findall(r"^(.+) collected \S+ from pot\(HI\)$", text, re.M)
        lo = re.findall(r"^(.+) collected \S+ from pot\(LO\)$", text, re.M)
        if len(hi) == len(lo) == 1 and hi != lo:
            return text
    raise AssertionError("no split pot in 300 simulated hands")


def test_halves_are_read_and_a_correct_split_is_clean() -> None:
    (hand,) = parse_text(_split_hand())
    assert isinstance(hand, Hand)
    halves = [c.half for c in hand.events if isinstance(c, Collect)]
    assert set(halves) == {Half.HIGH, Half.LOW}
    assert replay(hand).errors == ()


def test_swapped_half_labels_are_an_award_mismatch() -> None:
    text = _split_hand()
    swapped = text.replace("pot(HI)", "pot(XX)").replace("pot(LO)", "pot(HI)")
    swapped = swapped.replace("pot(XX)", "pot(LO)")
    (hand,) = parse_text(swapped)
    assert isinstance(hand, Hand)
    errors = replay(hand).errors
    assert {v.code for v in errors} <= {Code.AWARD_MISMATCH, Code.ODD_CHIP} and errors
    assert any("high half" in v.message for v in errors)
