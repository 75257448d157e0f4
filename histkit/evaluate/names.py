"""Hand names in PokerStars' words, decoded from the evaluators' values.

Checked against every stud-family show in the real corpus (tests/test_evaluate.py):
"a pair of Sevens", "two pair, Queens and Sixes", "a straight, Ten to Ace", "a flush, Ace
high", "a full house, Kings full of Sevens", "8,7,5,4,2", "6,4,3,2,A". Forms the corpus
does not show are written the way PokerStars writes them in its other games ("a straight,
Ace to Five", "a straight flush, Nine to King", "a Royal Flush").

Lows read highest card first with the ace as "A". A low of fewer than five cards or with
pairs lists the pairs first, then the rest highest first: the only such show in the corpus,
[3d 3s 5h 4h], is printed "Lo: 3,3,5,4".
"""

from __future__ import annotations

from collections.abc import Iterable

from histkit.cards import Card
from histkit.evaluate._tables import CAT_SHIFT, LOW_TOP, HandCategory, unpack
from histkit.evaluate.scalar import high_value, low8_value, razz_value
from histkit.model import Game

__all__ = [
    "high_name",
    "low_name",
    "low8_name",
    "describe",
    "name_high_value",
    "name_low_value",
]

_ONE = {
    1: "Ace",
    2: "Deuce",
    3: "Three",
    4: "Four",
    5: "Five",
    6: "Six",
    7: "Seven",
    8: "Eight",
    9: "Nine",
    10: "Ten",
    11: "Jack",
    12: "Queen",
    13: "King",
    14: "Ace",
}
_MANY = {r: ("Sixes" if r == 6 else n + "s") for r, n in _ONE.items()}
_CHAR = {1: "A", 10: "T", 11: "J", 12: "Q", 13: "K", 14: "A"} | {r: str(r) for r in range(2, 10)}


# Names by value, filled as values are met: there are only a few thousand distinct
# values, and an audit names the same ones over and over.
_HIGH_NAMES: dict[int, str] = {}
_LOW_NAMES: dict[int, str] = {}


def name_high_value(value: int) -> str:
    """The PokerStars name of a `high_value` (no cards needed)."""
    name = _HIGH_NAMES.get(value)
    if name is None:
        name = _HIGH_NAMES[value] = _name_high(value)
    return name


def _name_high(value: int) -> str:
    cat = HandCategory(value >> CAT_SHIFT)
    r = unpack(value)
    if cat is HandCategory.HIGH_CARD:
        return f"high card {_ONE[r[0]]}"
    if cat is HandCategory.PAIR:
        return f"a pair of {_MANY[r[0]]}"
    if cat is HandCategory.TWO_PAIR:
        return f"two pair, {_MANY[r[0]]} and {_MANY[r[2]]}"
    if cat is HandCategory.THREE_OF_A_KIND:
        return f"three of a kind, {_MANY[r[0]]}"
    if cat is HandCategory.STRAIGHT:
        return f"a straight, {_ONE[r[4]]} to {_ONE[r[0]]}"
    if cat is HandCategory.FLUSH:
        return f"a flush, {_ONE[r[0]]} high"
    if cat is HandCategory.FULL_HOUSE:
        return f"a full house, {_MANY[r[0]]} full of {_MANY[r[3]]}"
    if cat is HandCategory.FOUR_OF_A_KIND:
        return f"four of a kind, {_MANY[r[0]]}"
    if r[0] == 14:
        return "a Royal Flush"
    return f"a straight flush, {_ONE[r[4]]} to {_ONE[r[0]]}"


def name_low_value(value: int) -> str:
    """The PokerStars text of a `razz_value` / `low8_value`: "8,7,5,4,2", "3,3,5,4"."""
    name = _LOW_NAMES.get(value)
    if name is None:
        name = _LOW_NAMES[value] = ",".join(_CHAR[r] for r in unpack(LOW_TOP - value))
    return name


def high_name(cards: Iterable[Card]) -> str:
    """PokerStars' name of the best high hand: "two pair, Queens and Sixes"."""
    return name_high_value(high_value(cards))


def low_name(cards: Iterable[Card]) -> str:
    """PokerStars' text of the best ace-to-five low (razz): "6,4,3,2,A", "K,8,6,3,A"."""
    return name_low_value(razz_value(cards))


def low8_name(cards: Iterable[Card]) -> str | None:
    """PokerStars' text of the eight-or-better low ("8,7,5,4,2"), None without one."""
    v = low8_value(cards)
    return None if v is None else name_low_value(v)


def describe(game: Game, cards: Iterable[Card]) -> str:
    """The text PokerStars prints in parentheses after a show, for this game.

    stud: "a pair of Sevens"; stud hi/lo: "HI: a pair of Sevens; LO: 8,7,5,4,2" (no LO
    part without a qualifying low); razz: "Lo: 6,4,3,2,A". Pass every card the player
    plays, a community card included.
    """
    hand = tuple(cards)
    if game is Game.STUD:
        return high_name(hand)
    if game is Game.RAZZ:
        return f"Lo: {low_name(hand)}"
    if game is Game.STUD_HILO:
        low = low8_name(hand)
        high = f"HI: {high_name(hand)}"
        return high if low is None else f"{high}; LO: {low}"
    raise ValueError(f"not a stud-family game: {game!r}")
