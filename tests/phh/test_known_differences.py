"""Each known difference between PokerKit 0.7.7 and histkit on a hand built for it: PokerKit
disagrees and the difference's detector names it, and a like hand without the situation is
one they agree on (the detector recognises the situation, not just any hand).

The hands are written in PHH, read by histkit like any site's, under PokerStars' house
rules (`_site`); each record pays what histkit's engine pays and holds no violation, so the
disagreement is PokerKit's. (compare() writes each hand as PHH again, in PHH's own order.)
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from histkit.accounting import contributions
from histkit.model import Half, Hand, StreetStart
from histkit.phh.reader import read_phh
from histkit.rules import replay
from histkit.simulate import simulate
from tests.phh.differential import AGREE, compare
from tests.phh.known_differences import KNOWN
from tests.phh.pokerkit_driver import expected_stacks, needs_pokerkit

pytestmark = needs_pokerkit

_PER_STREET = {3: slice(0, 3), 4: slice(3, 4), 5: slice(4, 5), 6: slice(5, 6), 7: slice(6, 7)}


def _hand(
    variant: str,
    cards: dict[str, str],
    stacks: list[int],
    plan: list[str],
    *,
    antes: int = 1,
    bring_in: int = 2,
    small: int = 4,
    big: int = 8,
    site: str = "pokerstars",
) -> Hand:
    """A PHH hand of the players in `cards` (p1, p2, ... in that order; each one's seven
    cards in the order dealt). In `plan`, "D" deals the next street to everyone not folded
    and "S" shows their hands; the winnings are what histkit's engine pays, and the record
    is checked to hold no violation."""
    names = list(cards)
    dealt = {p: cards[p].split() for p in names}
    folded: set[str] = set()
    street = 2
    actions: list[str] = []
    for step in plan:
        if step == "D":
            street += 1
            for i, p in enumerate(names, 1):
                if p not in folded:
                    actions.append(f"d dh p{i} " + "".join(dealt[p][_PER_STREET[street]]))
        elif step == "S":
            for i, p in enumerate(names, 1):
                if p not in folded:
                    actions.append(f"p{i} sm " + "".join(dealt[p][: min(street, 7)]))
        else:
            if step.endswith(" f"):
                folded.add(names[int(step.split()[0][1:]) - 1])
            actions.append(step)
    quoted = ", ".join(f'"{a}"' for a in actions)
    players = ", ".join(f'"{p}"' for p in names)
    text = (
        f'variant = "{variant}"\nantes = {[antes] * len(names)}\nbring_in = {bring_in}\n'
        f"small_bet = {small}\nbig_bet = {big}\nstarting_stacks = {stacks}\n"
        f'actions = [{quoted}]\nplayers = [{players}]\nhand = "built"\n'
        f'_site = "{site}"\n_unit = "chip"\n'
    )
    (first,) = read_phh(text.split("\n"), "built.phh")
    assert isinstance(first, Hand), first
    paid = expected_stacks(replay(first))
    assert paid is not None
    put = contributions(first)
    won = [paid[p] - s + put.get(p, 0) for p, s in zip(names, stacks, strict=True)]
    (hand,) = read_phh((text + f"winnings = {won}\n").split("\n"), "built.phh")
    assert isinstance(hand, Hand), hand
    errors = replay(hand).errors
    assert not errors, [v.message for v in errors]
    return hand


def _check(hand: Hand, name: str) -> None:
    outcome = compare(hand)
    assert outcome.kind == name, outcome.detail


def test_every_known_difference_has_a_test_here() -> None:
    tested = {n.removeprefix("test_") for n in globals() if n.startswith("test_")}
    assert {k.name for k in KNOWN} <= tested


# -- betting ------------------------------------------------------------------------

_HEADS_UP = {"A": "Tc Td 2c 3d 4h 5s 6c", "B": "Jc Jd Kd Kh 9s 8d 7c"}


def test_double_bet() -> None:
    # B's open kings on 4th may bet the big bet (stud high); PokerKit allows the small one
    for bet, kind in ((8, "double_bet"), (4, AGREE)):
        hand = _hand(
            "F7S", _HEADS_UP, [100, 100], ["D", "p1 pb", "p2 cc", "D", f"p2 cbr {bet}", "p1 f"]
        )
        _check(hand, kind)


def _community(hand: Hand) -> bool:
    return any(isinstance(e, StreetStart) and e.community for e in hand.events)


def test_community_card() -> None:
    # eight players to 7th street: the deck runs out and one card is dealt face up for all
    _check(_simulated("stud", _community, "community_card"), "community_card")


def _all_in_best_board(stack_b: int) -> Hand:
    """B shows kings on 4th and bets all it has; on 5th its trips are the best board. The
    site has the best board of those who can still bet act first (A's aces), PokerKit the
    player after B (C)."""
    cards = {"A": "Tc Td 2c Ah As 7d 8c", "B": "Jc Jd Kd Kh Ks 9c 6c", "C": "Qc Qd 3h 4h 5d 6h 7h"}
    plan = ["D", "p1 pb", "p2 cc", "p3 cc", "D", "p2 cbr 4", "p3 cc", "p1 cc", "D"]
    if stack_b == 7:  # all-in after the bet on 4th
        plan += ["p1 cbr 8", "p3 f", "D", "D", "S"]
    else:
        plan += ["p2 cbr 8", "p3 f", "p1 f"]
    return _hand("F7S", cards, [100, stack_b, 100], plan)


def test_first_actor_left_of_all_in() -> None:
    _check(_all_in_best_board(7), "first_actor_left_of_all_in")
    _check(_all_in_best_board(100), AGREE)


_THREE = {"A": "7s 7c 2c 3d 4d 5d 6s", "B": "Ah Ad Kd Kh Ks 9c 6c", "C": "Jh Js Qd Qh Jd Tc 8h"}


def test_full_raise_after_short_all_in() -> None:
    # A, the bring-in, completes all-in for 4 of a 10 small bet; B completes to 10 (the
    # limit rule), where PokerKit wants a full bet above A's 4
    plan = ["D", "p1 cbr 4", "p2 cbr 10", "p3 f", "D", "D", "D", "D", "S"]
    _check(
        _hand("F7S", _THREE, [5, 100, 100], plan, bring_in=3, small=10, big=20),
        "full_raise_after_short_all_in",
    )
    plan = ["D", "p1 cbr 10", "p2 cbr 20", "p3 f", "p1 f"]
    _check(_hand("F7S", _THREE, [100, 100, 100], plan, bring_in=3, small=10, big=20), AGREE)


_FOUR = {
    "X": "8s 8c 2c 3c 4c 5c 6d",
    "A": "Qs Qc Kc Kd 9h 9s Td",
    "B": "Ah Ad 9d 5s 5h 7d 2h",
    "C": "Jh Js 8h 6h 3s 4s 2s",
}


def test_raise_from_bring_in() -> None:
    # Kings Club: A brings in for 7 of a 10 small bet, B completes to 10 (adding 3, less
    # than half a bet) and C raises to 17, a full bet above the bring-in (the house's
    # rule); PokerKit wants 20. Under PokerStars' rules C raises to 20: they agree.
    for to, site, kind in ((17, "kingsclub", "raise_from_bring_in"), (20, "pokerstars", AGREE)):
        plan = ["D", "p1 pb", "p2 cbr 10", f"p3 cbr {to}", "p1 f", "p2 f"]
        hand = _hand("F7S", _THREE, [100] * 3, plan, bring_in=7, small=10, big=20, site=site)
        _check(hand, kind)


def test_no_limit_reopening_rule() -> None:
    # B's all-in raise from 10 to 16 is more than half a bet: under the limit half-bet
    # rule it reopens the betting, and A, who completed, raises again; PokerKit refuses
    kw = {"bring_in": 3, "small": 10, "big": 20}
    stacks = [100, 100, 17, 100]
    rest = ["D", "p2 cbr 10", "p4 f", "D", "D", "D", "S"]
    plan = ["D", "p1 pb", "p2 cbr 10", "p3 cbr 16", "p4 cc", "p1 f", "p2 cbr 26", "p4 cc"]
    _check(_hand("F7S", _FOUR, stacks, plan + rest, **kw), "no_limit_reopening_rule")
    plan = ["D", "p1 pb", "p2 cbr 10", "p3 cbr 16", "p4 cc", "p1 f", "p2 cc"]  # A calls
    _check(_hand("F7S", _FOUR, stacks, plan + rest, **kw), AGREE)


def test_short_all_in_counts_to_cap() -> None:
    # on 3rd: completion to 10, raises to 20, C all-in to 24 (short), 34, 44: the site
    # counts bet + 3 full raises, PokerKit counts C's too and refuses the raise to 44
    kw = {"bring_in": 3, "small": 10, "big": 20}
    stacks = [100, 200, 200, 25]
    rest = ["D", "p2 cc", "p3 cc", "D", "p2 cc", "p3 cc", "D", "p2 cc", "p3 cc"]
    rest += ["D", "p2 cc", "p3 cc", "S"]
    plan = ["D", "p1 pb", "p2 cbr 10", "p3 cbr 20", "p4 cbr 24", "p1 f", "p2 cbr 34"]
    _check(
        _hand("F7S", _FOUR, stacks, [*plan, "p3 cbr 44", "p2 cc", *rest], **kw),
        "short_all_in_counts_to_cap",
    )
    _check(_hand("F7S", _FOUR, stacks, [*plan, "p3 cc", *rest], **kw), AGREE)


# -- pots ---------------------------------------------------------------------------


def test_short_ante_in_main_pot() -> None:
    # A has 1 chip for an ante of 2 and makes the best hand: it wins the 3 chips of the
    # main pot (one from each player); PokerKit gives it every ante
    cards = {"A": "Ac Ad Kd As Ks Kh 9c", "B": "3c 4c 2c 5h 6h 7d 8d", "C": "Tc Jd Qh Th Js 9d 9h"}
    plan = ["D", "p2 pb", "p3 f", "D", "D", "D", "D", "S"]
    _check(_hand("F7S", cards, [1, 100, 100], plan, antes=2), "short_ante_in_main_pot")
    plan = ["D", "p2 pb", "p3 f", "p1 cc", "D", "D", "D", "D", "S"]
    _check(_hand("F7S", cards, [3, 100, 100], plan, antes=2), AGREE)


_HILO = {
    "A": "Ac 2d 3h 4s 7d Tc Th",  # the only low (7-4-3-2-A), all-in on 3rd
    "B": "Kc Kd Qh Jd 9s 8c 7h",  # B and C: the same pair of kings, no low
    "C": "Ks Kh Qd Js 9h 8d 7c",
}


def test_side_pot_low_half() -> None:
    # the main pot splits A (low) and B, C (the tied high); the side pot of 10, between B
    # and C, has no low and is split between them 5 and 5. PokerKit halves it as if it
    # had a low (its low half shared by the two who have none): 3 + 3 and 2 + 2
    plan = ["D", "p1 pb", "p2 cbr 4", "p3 cc", "p1 cc", "D", "p2 cbr 4", "p3 cc"]
    plan += ["D", "p2 cc", "p3 cc", "D", "p2 cc", "p3 cc", "D", "p2 cc", "p3 cc", "S"]
    _check(_hand("F7S/8", _HILO, [4, 200, 200], plan), "side_pot_low_half")
    rich = ["D", "p1 pb", "p2 cbr 4", "p3 cc", "p1 cc", "D", "p2 cbr 4", "p3 cc", "p1 cc"]
    rich += ["D", "p2 cc", "p3 cc", "p1 cc", "D", "p2 cc", "p3 cc", "p1 cc"]
    rich += ["D", "p2 cc", "p3 cc", "p1 cc", "S"]
    _check(_hand("F7S/8", _HILO, [200, 200, 200], rich), AGREE)


def test_side_pot_low_half_paid_to_another_player() -> None:
    # A (the only low) is all-in on 3rd, B (trips) on 5th, C (kings) beats D (queens) in
    # the last side pot. Side pot 1, of B, C and D, has no low: B takes all 39. PokerKit
    # halves it, 20 to B's high and the low half of 19 shared by B and C (D, who wins
    # nothing, is out of its showdown): C gets 9 chips he never won
    cards = {
        "A": "Ac 2d 3h 4s 7d Tc Td",
        "B": "9c 9d 9h Jd Ks 5c 6d",
        "C": "Kc Kd Qh Js 8c 2c Th",
        "D": "Qc Qd Jh 8d 7c 3c 4c",
    }
    plan = ["D", "p1 pb", "p2 cbr 4", "p3 cc", "p4 cc", "p1 cc"]
    plan += ["D", "p3 cbr 4", "p4 cc", "p2 cc", "D", "p2 cc", "p3 cbr 8", "p4 cc", "p2 cc"]
    plan += ["D", "p3 cbr 8", "p4 cc", "D", "p3 cc", "p4 cc", "S"]
    hand = _hand("F7S/8", cards, [4, 17, 200, 200], plan)
    assert [p.amount for p in replay(hand).pots] == [16, 39, 16]
    outcome = compare(hand)
    assert outcome.kind == "side_pot_low_half", outcome.detail
    assert "'C': (" in outcome.detail  # C is paid from a pot he did not win


def _simulated(game: str, wanted: Callable[[Hand], bool], name: str) -> Hand:
    """The first simulated hand (eight players, cash and tournaments, seeds from 1) that
    `wanted` picks and on which PokerKit disagrees as `name`: for situations that need
    a long hand to build, the simulator's hands are the source."""
    for seed in range(1, 41):
        for tournament in (True, False):
            for hand in simulate(game, 150, players=8, seed=seed, tournament=tournament):
                if wanted(hand) and compare(hand).kind == name:
                    return hand
    raise AssertionError(f"no {name} in 12,000 simulated {game} hands")


def _split_pots(hand: Hand) -> bool:
    rp = replay(hand)
    return len(rp.pots) > 1 and any(a.half is Half.LOW for a in rp.awards)


@pytest.mark.slow
def test_merged_side_pots() -> None:
    # a main and a side pot with the same players still contending (those who win
    # nothing are out, for PokerKit), each split with an odd chip for its high half
    hand = _simulated("stud_hilo", _split_pots, "merged_side_pots")
    rp = replay(hand)
    winners = {p for a in rp.awards for p in (a.winners or ())}
    pots = [set(p.eligible) & winners for p in rp.pots]
    assert any(a == b for a, b in zip(pots, pots[1:], strict=False))


def test_tied_half_odd_chip() -> None:
    # razz: A and B make the same 8-6-4-3-2; the pot of 5 leaves a chip over. PokerStars
    # gives it by card (the lowest card by suit: B's 2c), PokerKit to the first seat (A)
    cards = {
        "A": "2d 3d Kd 4s 6s 8s Qh",
        "B": "2c 3h Ks 4h 6h 8h Qc",
        "C": "Jc Js Jd 9c 9d Tc Td",
    }
    # B's K of spades is the highest up card: B brings in; the tied boards act by seat
    later = ["D", "p1 cc", "p2 cc", "D", "p1 cc", "p2 cc", "D", "p1 cc", "p2 cc"]
    later += ["D", "p1 cc", "p2 cc", "S"]
    plan = ["D", "p2 pb", "p3 f", "p1 cc", *later]
    _check(_hand("FR", cards, [100, 100, 100], plan, bring_in=1), "tied_half_odd_chip")
    even = ["D", "p2 pb", "p3 cc", "p1 cc", "D", "p3 f", *later[1:]]  # C's J-9 acts first
    _check(_hand("FR", cards, [100, 100, 100], even, bring_in=1), AGREE)
