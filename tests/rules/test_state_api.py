"""The HandState contract the simulator codes against, short all-ins, and TOML profiles."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from histkit.cards import parse_card
from histkit.dialects.sink import UP3
from histkit.model import (
    Action,
    ActionKind,
    Deal,
    Game,
    Hand,
    Seat,
    Show,
    Street,
    StreetStart,
    Unit,
)
from histkit.rules import (
    CASINO,
    POKERSTARS,
    Code,
    HandState,
    PendingKind,
    load_profile,
)
from histkit.rules.profile import BringInAllIn, ShortAllIn
from histkit.simulate import simulate_with_faults
from tests.rules.mutate import mutate


def _state(profile=POKERSTARS, stacks=(100, 100, 100)) -> HandState:
    seats = [Seat(i + 1, n, s) for i, (n, s) in enumerate(zip("ABC", stacks, strict=False))]
    return HandState(
        game=Game.STUD,
        profile=profile,
        seats=seats,
        small_bet=4,
        big_bet=8,
        ante=1,
        bring_in=2,
        hand_id="S1",
        unit=Unit.CENT,
    )


def _deal(st: HandState, street: Street, cards: dict[str, str]) -> None:
    st.apply(StreetStart(street))
    for p, text in cards.items():
        cs = tuple(parse_card(t) for t in text.split())
        up = (False, False, True) if street == Street.THIRD else (street != Street.SEVENTH,)
        assert st.pending().kind is PendingKind.DEAL
        assert st.apply(Deal(street, p, cs, up)) == []


def _act(st: HandState, p: str, kind: str, amount: int = 0, to: int | None = None, **kw):
    return st.apply(Action(st.street, p, ActionKind(kind), amount, to, kw.get("all_in", False)))


def test_pending_and_legal_walk_a_hand_to_settlement() -> None:
    st = _state()
    for p in "ABC":
        assert st.pending().kind is PendingKind.ANTES and st.pending().player == p
        assert st.apply(Action(Street.THIRD, p, ActionKind.ANTE, 1)) == []
    assert st.pending().kind is PendingKind.DEAL
    _deal(st, Street.THIRD, {"A": "Ah Kh 9c", "B": "2s 3s 2c", "C": "Qd Qc Jd"})
    pend = st.pending()
    assert (pend.kind, pend.player) == (PendingKind.ACTION, "B")  # the 2 of clubs brings in
    assert _act(st, "B", "bring_in", 2) == []
    legal = st.legal()
    assert legal is not None and legal.player == "C"
    assert (legal.call, legal.complete_to, legal.raise_to, legal.can_check) == (2, 4, None, False)
    assert _act(st, "C", "raise", 2, 4) == []  # completion, written as a raise
    legal = st.legal()
    assert (legal.player, legal.call, legal.raise_to) == ("A", 4, 8)
    assert _act(st, "A", "call", 4) == [] and _act(st, "B", "fold") == []
    assert st.pending().kind is PendingKind.DEAL and st.pending().street == Street.FOURTH
    _deal(st, Street.FOURTH, {"A": "9d", "C": "5h"})
    legal = st.legal()  # a pair of nines showing acts first and may bet
    assert (legal.player, legal.bet, legal.bet_big, legal.can_check) == ("A", 4, 8, True)
    assert _act(st, "A", "bet", 8) == [] and _act(st, "C", "call", 8) == []
    for street, cards in ((5, {"A": "2d", "C": "6h"}), (6, {"A": "3d", "C": "7h"})):
        _deal(st, Street(street), cards)
        assert st.legal().player == "A" and st.legal().bet == 8
        assert _act(st, "A", "check") == [] and _act(st, "C", "check") == []
    _deal(st, Street.SEVENTH, {"A": "4d", "C": "8h"})
    assert _act(st, "A", "check") == [] and _act(st, "C", "check") == []
    assert st.pending().kind is PendingKind.SHOWDOWN
    for p, cs in (("A", "Ah Kh 9c 9d 2d 3d 4d"), ("C", "Qd Qc Jd 5h 6h 7h 8h")):
        st.apply(Show(p, tuple(parse_card(t) for t in cs.split())))
    assert st.pending().kind is PendingKind.DONE
    s = st.settle(rake=1)
    assert [(p.amount, p.rake, p.eligible) for p in s.pots] == [(3 + 2 + 12 + 12, 1, ("A", "C"))]
    assert s.awards[0].expected == (("C", 28),)  # C's eight-high straight beats nines
    assert st.stacks == {"A": 87, "B": 97, "C": 87}
    assert st.contributions == {"A": 13, "B": 3, "C": 13}


def _short_all_in(profile, b_stack: int, b_to: int) -> list:
    st = _state(profile, stacks=(100, b_stack, 100))
    for p in "ABC":
        st.apply(Action(Street.THIRD, p, ActionKind.ANTE, 1))
    _deal(st, Street.THIRD, {"A": "Ah Kh 2c", "B": "2s 3s 9c", "C": "Qd Qc Jd"})
    _act(st, "A", "bring_in", 2)
    _act(st, "B", "call", 2)
    _act(st, "C", "call", 2)
    _deal(st, Street.FOURTH, {"A": "3c", "B": "9d", "C": "5h"})  # B's nines act first
    st.apply(Action(Street.FOURTH, "B", ActionKind.CHECK))
    _act(st, "C", "bet", 4)
    _act(st, "A", "call", 4)
    v = _act(st, "B", "raise", b_to - 4, b_to, all_in=True)
    assert v == []
    _act(st, "C", "call", b_to - 4)
    return _act(st, "A", "raise", 4, b_to + 4)  # A already acted: may A raise again?


def test_short_all_in_raise_reopens_only_from_half_a_bet() -> None:
    # all-in to 5 over a bet of 4: 1 chip is less than half a 4-chip raise, no reopening
    assert [v.code for v in _short_all_in(POKERSTARS, 3 + 5, 5)] == [Code.RAISE_NOT_ALLOWED]
    # 6 - 4 = 2 chips is half the raise: a full raise under the half-bet rule
    assert _short_all_in(POKERSTARS, 3 + 6, 6) == []
    never = dataclasses.replace(POKERSTARS, short_all_in=ShortAllIn.NEVER)
    assert [v.code for v in _short_all_in(never, 3 + 6, 6)] == [Code.RAISE_NOT_ALLOWED]


def _heads_up_all_in(b_stack: int) -> HandState:
    """A and B see 4th street after C folds; B has `b_stack` chips left to bet with."""
    st = _state(stacks=(100, b_stack + 3, 100))
    for p in "ABC":
        st.apply(Action(Street.THIRD, p, ActionKind.ANTE, 1))
    _deal(st, Street.THIRD, {"A": "Ah Kh 2c", "B": "2s 3s 9c", "C": "Qd Qc 3d"})
    _act(st, "A", "bring_in", 2)
    _act(st, "B", "call", 2)
    _act(st, "C", "fold")
    _deal(st, Street.FOURTH, {"A": "3c", "B": "9d"})  # B's nines act first
    return st


def test_no_bet_or_raise_that_no_opponent_could_call() -> None:
    # B bets all-in for 3: A, the only opponent, may call or fold but not raise
    st = _heads_up_all_in(3)
    assert _act(st, "B", "bet", 3, all_in=True) == []
    legal = st.legal()
    assert (legal.player, legal.call, legal.raise_to) == ("A", 3, None)
    v = _act(st, "A", "raise", 4, 7)
    assert [x.code for x in v] == [Code.RAISE_NOT_ALLOWED] and "no opponent can call" in v[
        0
    ].message
    # with chips behind, B can call a raise: A may raise
    st = _heads_up_all_in(50)
    _act(st, "B", "bet", 4)
    assert st.legal().raise_to == 8 and _act(st, "A", "raise", 4, 8) == []


def test_no_bet_when_every_opponent_is_all_in() -> None:
    st = _heads_up_all_in(0)  # B is all-in after the bring-in call: nobody left to bet into
    assert st.legal() is None  # no betting on 4th street at all
    codes = [x.code for x in _act(st, "A", "bet", 4)]
    assert codes == [Code.OUT_OF_TURN, Code.RAISE_NOT_ALLOWED]


def test_profiles_load_from_toml_and_by_name(tmp_path: Path) -> None:
    assert load_profile("pokerstars") is POKERSTARS and load_profile("casino") is CASINO
    f = tmp_path / "homegame.toml"
    f.write_text(
        'base = "casino"\nmax_raises = 2\nbring_in_all_in = "next_clockwise"\n'
        'suit_order = ["s", "h", "d", "c"]\n',
        encoding="utf-8",
    )
    prof = load_profile(f)
    assert prof.name == "homegame" and prof.max_raises == 2 and prof.heads_up_uncapped
    assert prof.bring_in_all_in is BringInAllIn.NEXT_CLOCKWISE
    assert prof.cap(heads_up=False) == 3 and prof.cap(heads_up=True) is None
    assert prof.suit_rank(parse_card("2s").suit) == 0
    bad = tmp_path / "bad.toml"
    bad.write_text("max_raise = 2\n", encoding="utf-8")
    with pytest.raises(ValueError, match="max_raise"):
        load_profile(bad)
    with pytest.raises(ValueError, match="no such profile"):
        load_profile("nowhere")


def _state_of(hand: Hand, profile=POKERSTARS) -> HandState:
    return HandState.for_hand(hand, profile)


def test_a_query_does_not_open_the_betting() -> None:
    """A and B are dealt; C, who posted no ante, is dealt last with the lowest card and
    brings in. Asking who acts after B's deal must not fix the bring-in on B (the engine
    did once: a query opened the betting)."""
    st = _state()
    st.apply(Action(Street.THIRD, "A", ActionKind.ANTE, 1))
    st.apply(Action(Street.THIRD, "B", ActionKind.ANTE, 1))
    st.apply(StreetStart(Street.THIRD))
    for p, text in (("A", "Ah Kh Kd"), ("B", "2s 3s Qh")):
        st.apply(Deal(Street.THIRD, p, tuple(parse_card(t) for t in text.split()), UP3))
    assert st.pending().player == "B" and st.legal().player == "B" and st.to_act() == "B"
    assert st.bring_in_player == "B"  # as the cards dealt so far say
    late = st.apply(Deal(Street.THIRD, "C", tuple(parse_card(t) for t in ["4s", "5s", "2c"]), UP3))
    assert [v.code for v in late] == [Code.ANTE]  # dealt in without posting the ante
    assert st.bring_in_player == "C" and st.pending().player == "C"
    assert _act(st, "C", "bring_in", 2) == []


def test_queries_change_nothing() -> None:
    """Asking `pending`, `legal` and `to_act` before every event, or never, gives the same
    violations, over simulated hands and random faults planted in them."""
    rng = random.Random(11)
    hands = [h for h, _ in simulate_with_faults(Game.STUD, 60, players=6, seed=3, faults=0.2)]
    checked = 0
    for h in hands:
        for bad in (h, mutate(h, rng, 2), mutate(h, rng, 3)):
            asked, quiet = _state_of(bad), _state_of(bad)
            for e in bad.events:
                before = (asked.pending(), asked.legal(), asked.to_act())
                assert (asked.pending(), asked.legal(), asked.to_act()) == before
                assert asked.apply(e) == quiet.apply(e)
            assert asked.finish() == quiet.finish()
            checked += 1
    assert checked == 180
