"""Who acts when (`histkit.rules.order`): the bring-in by door card and suit, its pass when
that player is all-in on the ante, who opens 4th–7th on ties, whose turn is next."""

from __future__ import annotations

import dataclasses

from histkit.cards import DECK, Suit, parse_card, parse_cards
from histkit.rules import CASINO, POKERSTARS, RAZZ, STUD, STUD_HILO
from histkit.rules.order import bring_in, bring_in_keys, first_to_act, next_to_act, ring
from histkit.rules.profile import FirstActTie

BRIDGE_REVERSED = (Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS, Suit.CLUBS)


def _doors(text: str) -> list[tuple[int, object]]:
    return list(enumerate(parse_cards(text)))


def test_bring_in_order_over_the_deck() -> None:
    high = bring_in_keys(POKERSTARS, lowest=True)
    high_order = sorted(DECK, key=lambda c: high[c.index])
    assert [str(c) for c in high_order[:5]] == ["2c", "2d", "2h", "2s", "3c"]
    assert str(high_order[-1]) == "As"  # the ace is high: the last to bring in
    razz = bring_in_keys(POKERSTARS, lowest=False)
    razz_order = sorted(DECK, key=lambda c: razz[c.index])
    assert [str(c) for c in razz_order[:5]] == ["Ks", "Kh", "Kd", "Kc", "Qs"]
    assert [str(c) for c in razz_order[-4:]] == ["As", "Ah", "Ad", "Ac"]
    assert len(set(high)) == len(set(razz)) == 52


def test_bring_in_suit_order_is_the_profiles() -> None:
    rings = ring(2)
    assert bring_in(_doors("2s 2c"), 0, STUD, POKERSTARS, rings) == 1  # 2c brings in
    reversed_suits = dataclasses.replace(POKERSTARS, suit_order=BRIDGE_REVERSED)
    assert bring_in(_doors("2s 2c"), 0, STUD, reversed_suits, rings) == 0
    assert bring_in(_doors("Kc Ks"), 0, RAZZ, POKERSTARS, rings) == 1  # K of spades
    assert bring_in(_doors("Kc Ks"), 0, RAZZ, reversed_suits, rings) == 0
    by_seat = dataclasses.replace(POKERSTARS, bring_in_ties_by_suit=False)
    assert bring_in(_doors("Ah 2s 2c"), 0, STUD_HILO, by_seat, ring(3)) == 1  # first deuce


def test_bring_in_passes_when_its_player_is_all_in_on_the_ante() -> None:
    doors = _doors("Kd 2c Qh 3h")  # seat 1 holds the deuce but is all-in (mask bit 1)
    rings = ring(4)
    assert bring_in(doors, 0b0010, STUD, POKERSTARS, rings) == 2  # next clockwise: Qh
    assert bring_in(doors, 0b0010, STUD, CASINO, rings) == 3  # next by card: 3h
    assert bring_in(doors, 0b1111, STUD, POKERSTARS, rings) is None  # nobody can
    assert bring_in([], 0, STUD, POKERSTARS, rings) is None


def test_first_to_act_is_the_best_board_ties_by_profile() -> None:
    boards = [parse_cards(t) for t in ("Kd 7c", "Ah 2c", "Kh 7s", "9s 9d")]
    pool = [0, 1, 2, 3]
    rings = ring(4)
    assert first_to_act(pool, boards, STUD, POKERSTARS, None, rings) == 3  # the pair
    no_pair = boards[:3]
    assert first_to_act(pool[:3], no_pair, STUD, POKERSTARS, None, rings) == 1  # ace high
    tie = [parse_cards("Kd 7c"), parse_cards("Qs 2c"), parse_cards("Kh 7s")]
    assert first_to_act([0, 1, 2], tie, STUD, POKERSTARS, 1, ring(3)) == 0  # lowest seat
    left = dataclasses.replace(POKERSTARS, first_act_tie=FirstActTie.LEFT_OF_BRING_IN)
    assert first_to_act([0, 1, 2], tie, STUD, left, 1, ring(3)) == 2  # left of the bring-in
    # razz: the best low board opens; an unknown up card makes it uncheckable
    low = [parse_cards("Kd 7c"), parse_cards("3h 2c")]
    assert first_to_act([0, 1], low, RAZZ, POKERSTARS, None, ring(2)) == 1
    assert first_to_act([0, 1], [[None], [parse_card("2c")]], STUD, POKERSTARS, None, ring(2)) is (
        None
    )


def test_next_to_act_goes_clockwise_over_who_still_has_to_act() -> None:
    rings = ring(5)
    assert rings[3] == (4, 0, 1, 2, 3)
    street_in = [4, 4, 0, 4, 2]
    active = 0b11011  # position 2 folded
    acted = 0b01011
    # after 3: position 4 is short of the bet of 4
    assert next_to_act(rings[3], active, acted, street_in, 4) == 4
    assert next_to_act(rings[3], active, acted | 0b10000, [4, 4, 0, 4, 4], 4) is None
