"""Cards: ranks, suits and their parsing.

A `Card` is interned: there are exactly 52 instances, so identity, hashing and the
integer `index` (0..51, rank-major) are cheap for the evaluators and the engine.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import IntEnum

__all__ = ["Rank", "Suit", "Card", "parse_card", "parse_cards", "DECK"]


class Rank(IntEnum):
    """Card rank; the value is the high-ranking value (ace = 14)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def char(self) -> str:
        return _RANK_CHARS[self]

    @property
    def low(self) -> int:
        """Value in ace-to-five low (ace = 1)."""
        return 1 if self is Rank.ACE else int(self)


class Suit(IntEnum):
    """Suits in the bring-in order used at PokerStars and most casinos:
    clubs < diamonds < hearts < spades (the value is that order)."""

    CLUBS = 0
    DIAMONDS = 1
    HEARTS = 2
    SPADES = 3

    @property
    def char(self) -> str:
        return "cdhs"[self]


_RANK_CHARS = {r: c for r, c in zip(Rank, "23456789TJQKA", strict=True)}
_RANK_BY_CHAR = {c: r for r, c in _RANK_CHARS.items()}
_RANK_BY_CHAR["10"] = Rank.TEN
_SUIT_BY_CHAR = {s.char: s for s in Suit}


@dataclass(frozen=True, slots=True)
class Card:
    """One playing card. Use `parse_card` or `Card.of`; instances are interned."""

    rank: Rank
    suit: Suit
    index: int = field(compare=False, repr=False)  # 4 * (rank - 2) + suit

    @staticmethod
    def of(rank: Rank, suit: Suit) -> Card:
        return DECK[4 * (rank - 2) + suit]

    def __str__(self) -> str:
        return self.rank.char + self.suit.char

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __hash__(self) -> int:
        # the index determines (rank, suit): hashing it is ~5x cheaper than the enum pair,
        # which matters for dicts and sets of cards in the engine and the evaluators
        return self.index

    def __reduce__(self) -> tuple[object, tuple[int]]:
        # unpickle to the interned instance, so identity survives worker processes
        return _card_at, (self.index,)


def _card_at(index: int) -> Card:
    return DECK[index]


DECK: tuple[Card, ...] = tuple(
    Card(rank, suit, 4 * (rank - 2) + suit) for rank in Rank for suit in Suit
)
_BY_TEXT: dict[str, Card] = {}
for _c in DECK:
    for _rc, _r in _RANK_BY_CHAR.items():
        if _r is _c.rank:
            # every case mix ("Ah", "ah", "AH", "aH"): exports upper- or lower-case whole hands
            for _rt in {_rc.upper(), _rc.lower()}:
                for _st in (_c.suit.char, _c.suit.char.upper()):
                    _BY_TEXT[_rt + _st] = _c


def parse_card(text: str) -> Card:
    """Parse "Ah", "Td", "10d" (case-insensitive) into the interned `Card`."""
    try:
        return _BY_TEXT[text]
    except KeyError:
        raise ValueError(f"not a card: {text!r}") from None


def parse_cards(text: str) -> tuple[Card, ...]:
    """Parse a space-separated list such as "3h Ah 2s" (brackets allowed around it)."""
    return tuple(parse_card(t) for t in text.strip().strip("[]").split())
