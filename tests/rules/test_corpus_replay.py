"""The engine against the real PokerStars corpus: no false alarm, every award reproduced."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest

from histkit.model import Game
from histkit.rules import POKERSTARS, Code, Half, RuleProfile, Severity, check_continuity, replay
from histkit.rules.profile import BringInAllIn, RakeSplit
from tests.conftest import needs_corpus
from tests.rules.corpus import corpus_hands, corpus_items, corpus_replays, find_replay

pytestmark = needs_corpus


def test_all_86_hands_replay_without_violation() -> None:
    replays = corpus_replays()
    assert Counter(r.hand.game for r in replays) == {
        Game.STUD_HILO: 28,
        Game.STUD: 30,
        Game.RAZZ: 28,
    }
    bad = [(r.hand.hand_id, v.code, v.message) for r in replays for v in r.violations if v.is_error]
    assert bad == []
    infos = [v for r in replays for v in r.violations if not v.is_error]
    # PokerStars prints mucked hands in the summary, so every showdown can be checked
    assert all(v.code is Code.UNCHECKABLE_SHOWDOWN for v in infos)
    assert len(infos) == 0


def test_every_reported_award_is_reproduced_exactly() -> None:
    pots = 0
    for r in corpus_replays():
        assert r.awards, r.hand.hand_id
        for a in r.awards:
            assert a.winners is not None, (r.hand.hand_id, a)
            assert dict(a.expected) == dict(a.reported), (r.hand.hand_id, a)
        # every collected chip is accounted for by some award
        expected = Counter()
        for a in r.awards:
            for p, amt in a.expected:
                expected[p] += amt
        assert +expected == +Counter(dict(r.collected)), r.hand.hand_id
        pots += len(r.pots)
    assert pots == 89  # three hands have a main and a side pot


def test_2023_tournament_side_pot_split_and_main_pot_scoop() -> None:
    r = find_replay("241636097024")
    assert r.ok
    main, side = r.pots
    assert (main.amount, side.amount) == (320, 300)
    assert "Hero" in main.eligible and "Hero" not in side.eligible
    by = {(a.pot, a.half): a for a in r.awards}
    assert by[(1, Half.HIGH)].expected == (("Player3", 150),)
    assert by[(1, Half.LOW)].expected == (("Player0", 150),)
    # Hero wins both halves of the main pot (best high and best low): two lines of 160
    assert by[(0, Half.HIGH)].expected == (("Hero", 160),) == by[(0, Half.HIGH)].reported
    assert by[(0, Half.LOW)].expected == (("Hero", 160),) == by[(0, Half.LOW)].reported
    lines = [e for e in r.hand.events if type(e).__name__ == "Collect" and e.player == "Hero"]
    assert [c.amount for c in lines] == [160, 160]


def test_2023_bring_in_passes_clockwise_from_the_all_in_ante() -> None:
    from histkit.rules import POKERSTARS, HandState

    h = find_replay("241636097024").hand
    st = HandState.for_hand(h, POKERSTARS)
    for e in h.events:
        if type(e).__name__ == "Action" and e.kind.value == "bring_in":
            break
        st.apply(e)
    # Hero has the lowest up card (a deuce) but is all-in on the ante
    assert "Hero" in st.all_in
    assert st.pending().player == "Player5" == st.bring_in_player


def test_odd_chip_between_halves_goes_high() -> None:
    r = next(
        r
        for r in corpus_replays()
        if r.hand.source.file.endswith("7-StudHL-USD-0.04-0.08-200911.txt")
        and any(a.half is Half.LOW and a.expected == (("gashpor", 36),) for a in r.awards)
    )
    assert r.ok
    (pot,) = r.pots
    assert pot.net == 73 and pot.rake == r.hand.summary.rake
    by = {a.half: a for a in r.awards}
    assert by[Half.HIGH].expected == (("u.pressure", 37),)
    assert by[Half.LOW].expected == (("gashpor", 36),)


def test_no_low_scoop() -> None:
    r = find_replay("35874523510")
    assert r.ok
    (award,) = r.awards
    assert award.half is Half.WHOLE and award.expected == (("rdiezchang", 77),)
    scoops = [
        r
        for r in corpus_replays()
        if r.hand.game is Game.STUD_HILO
        and len(r.awards) == 1
        and len(r.awards[0].eligible) > 1
        and r.ok
    ]
    assert len(scoops) >= 4  # "No low hand qualified" showdowns, all reproduced


def test_eight_player_community_card_hand() -> None:
    r = find_replay("30506593746")
    assert r.ok
    start = next(e for e in r.hand.events if type(e).__name__ == "StreetStart" and e.street == 7)
    assert start.community is not None
    assert len(r.hand.seats) == 8
    (award,) = r.awards
    assert award.expected == (("Player3", 54),)
    assert len(award.eligible) == 4  # Player3, Player5, Player6, Player8 went to showdown


def test_side_pot_with_rake_spread_over_pots() -> None:
    r = find_replay("60974484959")
    assert r.ok
    assert [p.net for p in r.pots] == [42, 61]
    assert sum(p.rake for p in r.pots) == 5


def test_no_stack_continuity_false_alarm() -> None:
    assert check_continuity(corpus_items()) == []


@pytest.mark.parametrize(("delta", "severity"), [(-5, Severity.ERROR), (5, Severity.INFO)])
def test_continuity_catches_a_changed_stack(delta: int, severity: Severity) -> None:
    """Chips that vanish are an error; chips that appear at a cash table may be a top-up
    no site writes, so they are said (info), not called a fault."""
    hands = [h for h in corpus_hands() if h.table == "Dawn II"]
    hands.sort(key=lambda h: h.started_at)
    second, third = hands[1], hands[2]
    i, seat = next((i, s) for i, s in enumerate(second.seats) if s.player == "gashpor")
    bumped_seats = list(second.seats)
    bumped_seats[i] = dataclasses.replace(seat, stack=seat.stack + delta)
    bumped = dataclasses.replace(second, seats=tuple(bumped_seats))
    found = check_continuity([hands[0], bumped, *hands[2:]])
    # the stack changes before the second hand, and the second hand then ends off by delta
    assert [(v.code, v.hand_id, v.reported) for v in found] == [
        (Code.STACK_CONTINUITY, second.hand_id, seat.stack + delta),
        (Code.STACK_CONTINUITY, third.hand_id, third.seat_of("gashpor").stack),
    ]
    assert found[0].severity is severity and "gashpor" in found[0].message
    assert found[1].severity is (Severity.INFO if delta < 0 else Severity.ERROR)
    assert found[0].expected == seat.stack


def _errors(profile: RuleProfile) -> Counter[Code]:
    return Counter(
        v.code for h in corpus_hands() for v in replay(h, profile).violations if v.is_error
    )


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"bring_in_all_in": BringInAllIn.NEXT_BY_CARD}, Code.BRING_IN_WRONG_PLAYER),
        ({"bring_in_ties_by_suit": False}, Code.BRING_IN_WRONG_PLAYER),
        ({"suit_order": tuple(reversed(POKERSTARS.suit_order))}, Code.BRING_IN_WRONG_PLAYER),
        ({"heads_up_uncapped": True}, Code.RAISE_CAP),
        ({"max_raises": 4}, Code.RAISE_CAP),
        ({"max_raises": 2}, Code.RAISE_CAP),
        ({"open_pair_double": False}, Code.BET_SIZE),
        ({"odd_chip_between_halves_to_high": False}, Code.ODD_CHIP),
        ({"rake_split": RakeSplit.MAIN_FIRST}, Code.AWARD_MISMATCH),
    ],
    ids=lambda x: str(x) if isinstance(x, Code) else ",".join(x),
)
def test_each_pokerstars_choice_is_what_the_real_hands_show(change: dict, code: Code) -> None:
    """Flip one profile choice: the real hands then disagree, so the choice is evidenced
    (and the engine is not silently accepting anything)."""
    assert code in _errors(dataclasses.replace(POKERSTARS, **change))


def test_missing_hands_between_two_are_one_info_record() -> None:
    """When most of the table's stacks move between two hands (every one paid an ante in
    a hand the file does not hold), the record is a selection of hands: one info record
    says so, and no player is blamed; one player's stack moving alone is still an error."""
    hands = [h for h in corpus_hands() if h.table == "Dawn II"]
    hands.sort(key=lambda h: h.started_at)
    first, second = hands[0], hands[1]
    ends = dict(replay(first).final_stacks)
    assert len([p for p in ends if p in {s.player for s in second.seats}]) >= 3
    moved = dataclasses.replace(
        second,
        seats=tuple(
            dataclasses.replace(s, stack=s.stack - 1) if s.player in ends else s
            for s in second.seats
        ),
    )
    (found,) = check_continuity([first, moved])
    assert (found.code, found.severity) == (Code.STACK_CONTINUITY, Severity.INFO)
    assert "missing from the record" in found.message


def test_a_site_that_numbers_its_tables_hands_compares_consecutive_ones_only() -> None:
    hands = [h for h in corpus_hands() if h.table == "Dawn II"]
    hands.sort(key=lambda h: h.started_at)
    first, second = hands[0], hands[1]
    i, seat = next((i, s) for i, s in enumerate(second.seats) if s.player == "gashpor")
    bumped = dataclasses.replace(
        second,
        seats=(
            *second.seats[:i],
            dataclasses.replace(seat, stack=seat.stack - 5),
            *second.seats[i + 1 :],
        ),
    )
    numbered = [dataclasses.replace(first, table_hand=7), dataclasses.replace(bumped, table_hand=8)]
    assert [v.code for v in check_continuity(numbered)] == [Code.STACK_CONTINUITY]
    apart = [numbered[0], dataclasses.replace(numbered[1], table_hand=9)]  # a hand between
    assert check_continuity(apart) == []
