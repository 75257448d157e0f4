"""No bet or raise that no opponent could call (issue 18, part 1): the audit flags one in a
site's hand history, and 20,000 simulated hands (three games, 2-8 players, cash and
tournaments) hold none."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from histkit.cli import main
from histkit.model import Action, ActionKind, Hand, UncalledBet
from histkit.reader import parse_text
from histkit.rules import Code, replay
from histkit.simulate import simulate

_HAND = """\
PokerStars Hand #244646044069: Tournament #3051847156, $9.60+$0.40 USD 7 Card Stud Limit - \
Level III (50/100) - 2024/06/23 13:19:09 ET
Table '3051847156 5' 2-max
Seat 1: Hero (2310 in chips)
Seat 2: Villain (54 in chips)
Hero: posts the ante 10
Villain: posts the ante 10
*** 3rd STREET ***
Dealt to Hero [As Jc 4d]
Dealt to Villain [Qs]
Hero: brings in for 15
Villain: calls 15
*** 4th STREET ***
Dealt to Hero [As Jc 4d] [9s]
Dealt to Villain [Qs] [7h]
Villain: bets 29 and is all-in
{answer}
*** 5th STREET ***
Dealt to Hero [As Jc 4d 9s] [Th]
Dealt to Villain [Qs 7h] [3d]
*** 6th STREET ***
Dealt to Hero [As Jc 4d 9s Th] [Kh]
Dealt to Villain [Qs 7h 3d] [Ks]
*** RIVER ***
Dealt to Hero [As Jc 4d 9s Th Kh] [Kd]
*** SHOW DOWN ***
Hero: shows [As Jc 4d 9s Th Kh Kd] (a pair of Kings)
Villain: shows [6d Ts Qs 7h 3d Ks 8c] (high card King)
Hero collected 108 from pot
*** SUMMARY ***
Total pot 108 | Rake 0
Seat 1: Hero showed [As Jc 4d 9s Th Kh Kd] and won (108) with a pair of Kings
Seat 2: Villain showed [6d Ts Qs 7h 3d Ks 8c] and lost with high card King
"""
_RAISE = "Hero: raises 50 to 79\nUncalled bet (50) returned to Hero"
_CALL = "Hero: calls 29"


def _hand(answer: str) -> Hand:
    (hand,) = parse_text(_HAND.format(answer=answer), source="allin.txt")
    assert isinstance(hand, Hand), hand
    return hand


def test_a_raise_against_the_only_opponent_all_in_is_flagged() -> None:
    rp = replay(_hand(_RAISE))
    flagged = [v for v in rp.violations if v.code is Code.RAISE_NOT_ALLOWED]
    assert len(flagged) == 1 and "no opponent can call" in flagged[0].message
    assert flagged[0].street == 4
    assert not replay(_hand(_CALL)).violations  # calling the all-in bet is what is left
    # the independent count below sees the same wager
    assert [a.to_amount for a in _wagers_nobody_could_call(_hand(_RAISE))] == [79]
    assert not _wagers_nobody_could_call(_hand(_CALL))


def test_the_audit_command_reports_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "allin.txt"
    path.write_text(_HAND.format(answer=_RAISE), encoding="utf-8")
    assert main(["audit", str(path)]) == 1
    out = capsys.readouterr().out
    assert "RAISE_NOT_ALLOWED" in out and "no opponent can call" in out
    path.write_text(_HAND.format(answer=_CALL), encoding="utf-8")
    assert main(["audit", str(path)]) == 0


def _wagers_nobody_could_call(hand: Hand) -> list[Action]:
    """Bets and raises when every other player still in was all-in or had no more chips
    than the bet standing: counted from the hand's own events, not by the engine."""
    stack = {s.player: s.stack for s in hand.seats}
    folded: set[str] = set()
    street_in: dict[str, int] = {}
    bet, street = 0, None
    out = []
    for e in hand.events:
        if isinstance(e, UncalledBet):
            stack[e.player] += e.amount
            street_in[e.player] = street_in.get(e.player, 0) - e.amount
        if not isinstance(e, Action):
            continue
        if e.street != street:
            street, street_in, bet = e.street, {}, 0
        before = street_in.get(e.player, 0)
        if e.kind is ActionKind.ANTE:
            stack[e.player] -= e.amount
            continue
        if e.kind is ActionKind.FOLD:
            folded.add(e.player)
            continue
        if e.kind in (ActionKind.BET, ActionKind.RAISE, ActionKind.COMPLETE):
            can_call = [
                q
                for q in stack
                if q != e.player and q not in folded and street_in.get(q, 0) + stack[q] > bet
            ]
            if not can_call:
                out.append(e)
            to = e.to_amount if e.to_amount is not None else before + e.amount
        else:
            to = before + e.amount
        stack[e.player] -= to - before
        street_in[e.player] = to
        bet = max(bet, to)
    return out


@pytest.mark.slow
def test_twenty_thousand_simulated_hands_hold_no_such_wager() -> None:
    """Every game, 2 to 8 players, cash and tournaments (short stacks: all-ins are
    common), 20,000 hands: the simulator takes its options from `legal()`, so none."""
    configs = list(itertools.product(("stud", "stud_hilo", "razz"), range(2, 9), (False, True)))
    per = 20_000 // len(configs) + 1
    hands = flagged = 0
    for n, (game, players, tournament) in enumerate(configs):
        for hand in simulate(game, per, players=players, seed=100 + n, tournament=tournament):
            hands += 1
            assert not _wagers_nobody_could_call(hand), hand.hand_id
            codes = replay(hand).codes()
            flagged += Code.RAISE_NOT_ALLOWED in codes
            assert not codes, (hand.hand_id, codes)
    assert hands >= 20_000 and flagged == 0
