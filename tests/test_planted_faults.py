"""Planted faults: real hands copied in memory, one fault planted at a time by a string
edit, parsed and replayed. Each fault must be flagged on its hand with the right code,
and every other hand of the same file must stay clean. Nothing is written to disk."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pytest

from histkit.rules import Code, replay
from tests.conftest import needs_corpus
from tests.rules.corpus import file_text, hand_block, parse_hands

pytestmark = needs_corpus

HILO_2009 = "stud-hilo/7-StudHL-USD-0.04-0.08-200911.txt"
HILO_2023 = "stud-hilo/7-StudHL-USD-0.98-0.12-202302.allin.ante.txt"
STUD_2009 = "stud-hi/7-Stud-USD-0.04-0.08-200911.txt"
STUD_COMMUNITY = "stud-hi/7-Stud-USD-0.04-0.08-200907.Missing.Showdown.Card.txt"


@dataclass(frozen=True)
class Fault:
    name: str
    file: str
    hand_id: str
    edits: tuple[tuple[str, str], ...]  # (regex, replacement), each must match
    code: Code


FAULTS = [
    Fault(
        "chip moved from one collector to another",
        HILO_2023,
        "241636097024",
        (
            (r"^Player3 collected 150 from side pot", "Player3 collected 151 from side pot"),
            (r"^Player0 collected 150 from side pot", "Player0 collected 149 from side pot"),
            (r"^(Seat 1: Player0 showed \[[^\]]*\] and won \()150\)", r"\g<1>149)"),
            (r"^(Seat 4: Player3 showed \[[^\]]*\] and won \()150\)", r"\g<1>151)"),
        ),
        Code.AWARD_MISMATCH,
    ),
    Fault(
        "showdown loser paid instead of the winner",
        STUD_COMMUNITY,
        "30506593746",
        (
            (r"^Player3 collected \$0\.54 from pot", "Player5 collected $0.54 from pot"),
            (r"^(Seat 3: Player3 showed \[[^\]]*\]) and won \(\$0\.54\) with", r"\1 and lost with"),
            (
                r"^Seat 5: Player5 mucked (\[[^\]]*\])",
                r"Seat 5: Player5 showed \1 and won ($0.54) with a pair of Kings",
            ),
        ),
        Code.AWARD_MISMATCH,
    ),
    Fault(
        "wrong total pot",
        STUD_COMMUNITY,
        "30506593746",
        ((r"^Total pot \$0\.56 ", "Total pot $0.58 "),),
        Code.POT_TOTAL,
    ),
    Fault(
        "two actions swapped out of turn",
        HILO_2009,
        "35874487284",
        ((r"^(gashpor: calls \$0\.02 *)\n(denny501: calls \$0\.02 *)$", r"\2\n\1"),),
        Code.OUT_OF_TURN,
    ),
    Fault(
        "5th-street bet at the small bet",
        HILO_2009,
        "35874523510",
        (
            (
                r"^(\*\*\* 5th STREET \*\*\*\n(?:Dealt.*\n)*)rdiezchang: bets \$0\.08",
                r"\1rdiezchang: bets $0.04",
            ),
        ),
        Code.BET_SIZE,
    ),
    Fault(
        "missing fold",
        HILO_2009,
        "35874523510",
        ((r"^s0rrow: folds *\n", ""),),
        Code.MISSING_ACTION,
    ),
    Fault(
        "duplicated card",
        HILO_2023,
        "241636097024",
        ((r"^(Dealt to Player1 \[)5c", r"\g<1>6c"),),  # Player0's up card is the 6c
        Code.CARD_DUPLICATE,
    ),
    Fault(
        "wrong bring-in player",
        HILO_2009,
        "35874487284",
        # rdiezchang's up card becomes the lowest (2d < 2h by suit): he must bring in
        ((r"^(Dealt to rdiezchang \[)3d", r"\g<1>2d"),),
        Code.BRING_IN_WRONG_PLAYER,
    ),
    Fault(
        "raise past the cap",
        STUD_2009,
        "35874289931",
        (
            (
                r"^Betting is capped *\ntrs2758: calls \$0\.08 *$",
                "Betting is capped\ntrs2758: raises $0.08 to $0.40\nMasterTrini1: calls $0.08",
            ),
        ),
        Code.RAISE_CAP,
    ),
    Fault(
        "low half paid to a hand that does not qualify",
        HILO_2009,
        "35874523510",
        (
            (
                r"^rdiezchang collected \$0\.77 from pot",
                "rdiezchang collected $0.39 from pot\n123smoothie collected $0.38 from pot",
            ),
            (r"^(Seat 8: rdiezchang showed \[[^\]]*\] and won \()\$0\.77\)", r"\g<1>$0.39)"),
        ),
        Code.LOW_NOT_QUALIFIED,
    ),
    Fault(
        "odd chip paid to the low half",
        HILO_2009,
        "35874576282",
        (
            (r"^u\.pressure collected \$0\.37", "u.pressure collected $0.36"),
            (r"^gashpor collected \$0\.36", "gashpor collected $0.37"),
            (r"^(Seat 1: u\.pressure showed \[[^\]]*\] and won \()\$0\.37\)", r"\g<1>$0.36)"),
            (r"^(Seat 3: gashpor showed \[[^\]]*\] and won \()\$0\.36\)", r"\g<1>$0.37)"),
        ),
        Code.ODD_CHIP,
    ),
    Fault(
        "call of the wrong amount",
        HILO_2009,
        "35874487284",
        ((r"^rdiezchang: calls \$0\.02", "rdiezchang: calls $0.03"),),
        Code.CALL_AMOUNT,
    ),
    Fault(
        "check facing a bet",
        HILO_2009,
        "35874487284",
        ((r"^gashpor: folds *$", "gashpor: checks "),),
        Code.CHECK_FACING_BET,
    ),
    Fault(
        "action after folding",
        HILO_2009,
        "35874487284",
        ((r"^(s0rrow: folds *)$", r"\1\ngashpor: calls $0.08"),),
        Code.ACTION_AFTER_FOLD,
    ),
    Fault(
        "wrong uncalled bet returned",
        HILO_2009,
        "35874487284",
        ((r"^Uncalled bet \(\$0\.08\)", "Uncalled bet ($0.06)"),),
        Code.UNCALLED_BET,
    ),
    Fault(
        "summary won amount differs from the collected line",
        HILO_2009,
        "35874487284",
        ((r"^Seat 8: rdiezchang collected \(\$0\.12\)", "Seat 8: rdiezchang collected ($0.13)"),),
        Code.SUMMARY_MISMATCH,
    ),
    Fault(
        "rake taken in a tournament",
        HILO_2023,
        "241636097024",
        ((r"\| Rake 0 *$", "| Rake 10"),),
        Code.RAKE,
    ),
    Fault(
        "short ante",
        HILO_2023,
        "241636097024",
        ((r"^Player1: posts the ante 40", "Player1: posts the ante 30"),),
        Code.ANTE,
    ),
    Fault(
        "bring-in as large as the completion",
        HILO_2023,
        "241636097024",
        ((r"^Player5: brings in for 60", "Player5: brings in for 200"),),
        Code.BRING_IN_AMOUNT,
    ),
]


def plant(fault: Fault) -> str:
    text = file_text(fault.file)
    start, end = hand_block(text, fault.hand_id)
    block = text[start:end]
    for pattern, repl in fault.edits:
        block, n = re.subn(pattern, repl, block, flags=re.MULTILINE)
        assert n >= 1, f"{fault.name}: the edit {pattern!r} matched nothing"
    return text[:start] + block + text[end:]


@pytest.mark.parametrize("fault", FAULTS, ids=[f.name for f in FAULTS])
def test_planted_fault_is_flagged_on_its_hand(fault: Fault) -> None:
    hands = parse_hands(plant(fault))
    original = parse_hands(file_text(fault.file))
    assert [h.hand_id for h in hands] == [h.hand_id for h in original]
    for h in hands:
        r = replay(h)
        if h.hand_id == fault.hand_id:
            assert fault.code in r.codes(), [(v.code, v.message) for v in r.violations]
            hit = next(v for v in r.violations if v.code is fault.code)
            assert hit.hand_id == fault.hand_id and hit.message
        else:
            assert r.ok, (h.hand_id, [v.message for v in r.violations])


@pytest.mark.parametrize("file", sorted({f.file for f in FAULTS}))
def test_unmodified_files_stay_clean(file: str) -> None:
    hands = parse_hands(file_text(file))
    assert hands
    assert all(replay(h).ok for h in hands)


def test_bring_in_fault_plants_no_duplicate() -> None:
    """The wrong-bring-in edit must not create a duplicate card by accident."""
    text = file_text(HILO_2009)
    start, end = hand_block(text, "35874487284")
    assert "2d" not in text[start:end]
