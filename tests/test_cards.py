"""Cards: parsing the forms hand histories use, interning, the index layout evaluators rely on."""

from __future__ import annotations

import pytest

from histkit.cards import DECK, Card, Rank, Suit, parse_card, parse_cards


def test_deck_is_52_distinct_cards_indexed_rank_major() -> None:
    assert len(DECK) == 52
    assert len({(c.rank, c.suit) for c in DECK}) == 52
    for i, c in enumerate(DECK):
        assert c.index == i == 4 * (c.rank - 2) + c.suit
        assert Card.of(c.rank, c.suit) is c


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("Ah", Rank.ACE, Suit.HEARTS),
        ("Td", Rank.TEN, Suit.DIAMONDS),
        ("10d", Rank.TEN, Suit.DIAMONDS),
        ("2c", Rank.TWO, Suit.CLUBS),
        ("Ks", Rank.KING, Suit.SPADES),
        ("9s", Rank.NINE, Suit.SPADES),
    ],
)
def test_parse_card(text: str, rank: Rank, suit: Suit) -> None:
    card = parse_card(text)
    assert (card.rank, card.suit) == (rank, suit)
    assert card is Card.of(rank, suit)  # interned: identity, not just equality


@pytest.mark.parametrize("text", ["ah", "AH", "aH", "Ah", "TD", "td", "tD", "10D", "10d"])
def test_parse_card_is_case_insensitive(text: str) -> None:
    # the PokerTracker-2 re-export upper-cases whole hands; other exports lower-case them
    assert str(parse_card(text)) in ("Ah", "Td")


def test_every_card_round_trips_through_its_text() -> None:
    for c in DECK:
        assert parse_card(str(c)) is c
        assert repr(c) == f"Card({str(c)!r})"


@pytest.mark.parametrize(
    "text", ["", "A", "10", "1d", "11h", "Ax", "Zh", "Ahh", " Ah", "Ah ", "AhKd"]
)
def test_bad_card_raises_value_error_naming_the_text(text: str) -> None:
    with pytest.raises(ValueError) as err:
        parse_card(text)
    assert repr(text) in str(err.value)


def test_parse_cards_with_and_without_brackets() -> None:
    assert [str(c) for c in parse_cards("[3h Ah 2s]")] == ["3h", "Ah", "2s"]
    assert [str(c) for c in parse_cards("7h 2h 4c Jc 5h 7s 8c")] == [
        "7h",
        "2h",
        "4c",
        "Jc",
        "5h",
        "7s",
        "8c",
    ]
    assert parse_cards("[]") == ()


def test_parse_cards_names_the_bad_token() -> None:
    with pytest.raises(ValueError, match="'Xx'"):
        parse_cards("[3h Xx 2s]")


def test_rank_and_suit_helpers() -> None:
    assert Rank.ACE.low == 1 and Rank.KING.low == 13 and Rank.TWO.low == 2
    assert [s.char for s in Suit] == ["c", "d", "h", "s"]
    assert Suit.CLUBS < Suit.DIAMONDS < Suit.HEARTS < Suit.SPADES  # bring-in order
    assert "".join(r.char for r in Rank) == "23456789TJQKA"


def test_cards_order_by_index() -> None:
    assert sorted(parse_cards("As 2c Kd 2s")) == list(parse_cards("2c 2s Kd As"))


def test_hash_agrees_with_equality_and_cards_key_dicts() -> None:
    assert len({hash(c) for c in DECK}) == 52
    seen = {c: str(c) for c in DECK}
    assert seen[parse_card("10d")] == "Td"
    assert parse_card("Ah") == Card.of(Rank.ACE, Suit.HEARTS)
    assert parse_card("Ah") != parse_card("Ad")


def test_pickle_and_copy_keep_cards_interned() -> None:
    import copy
    import pickle

    for c in DECK:
        assert pickle.loads(pickle.dumps(c)) is c
        assert copy.deepcopy(c) is c
    hand = parse_cards("As Kd 2c")
    assert all(a is b for a, b in zip(pickle.loads(pickle.dumps(hand)), hand, strict=True))
