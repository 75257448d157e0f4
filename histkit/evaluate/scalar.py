"""One hand at a time: high, eight-or-better low, razz low, exposed boards.

Every function is a handful of table lookups (see `_tables`): a card adds its rank's power
of five (the rank multiset code) and bumps a suit counter; the code indexes the best-five
table, and only a hand with five cards of one suit takes the flush table. The cards must be
distinct: a duplicate is an error here, never a quietly evaluated impossible hand (the
engine reports CARD_DUPLICATE itself before it gets this far).

There is no per-hand cache: hashing a tuple of seven cards costs about as much as the
whole evaluation (measured), so a cache would only add memory. Bulk work uses `batch`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import combinations

from histkit.cards import Card
from histkit.evaluate._tables import (
    BITS_SHIFT,
    CARD_KEY,
    CAT_SHIFT,
    CODE_MASK,
    CODE_SHIFT,
    COUNT_SHIFT,
    FLUSH_BY_MASK,
    HIGH_BY_STATE,
    LOW8_BY_MASK,
    RANKS_IN_BYTE,
    RAZZ_BY_STATE,
    STATE_BY_CODE,
    SUIT_BIAS,
    SUIT_FLAGS,
    SUIT_RANKS_IN_BYTE,
    HandCategory,
)

__all__ = [
    "high_value",
    "high_category",
    "low8_value",
    "razz_value",
    "board_high_value",
    "board_low_value",
    "rank_boards",
    "best_high_five",
    "best_low8_five",
    "best_razz_five",
]


def _key(cards: Iterable[Card], most: int = 7) -> int:
    """The summed card key of 1..`most` distinct cards (see `_tables.CARD_KEY`)."""
    acc = 0
    for c in cards:  # a plain loop beats sum(map(...)) here on CPython 3.11
        acc += CARD_KEY[c.index]
    n = (acc >> COUNT_SHIFT) & 0xFF
    if not 1 <= n <= most or (acc >> BITS_SHIFT).bit_count() != n:
        raise ValueError(_complaint(cards, n, most))
    return acc


def _complaint(cards: Iterable[Card], n: int, most: int) -> str:
    if not 1 <= n <= most:
        return f"expected 1..{most} cards, got {n}"
    if isinstance(cards, Sequence):
        twice = sorted({str(c) for c in cards if cards.count(c) > 1})
        return f"a card appears twice among {n} cards: {' '.join(twice)}"
    return f"a card appears twice among {n} cards"


def _high(acc: int) -> int:
    flags = (acc + SUIT_BIAS) & SUIT_FLAGS
    if flags:
        suit = (flags.bit_length() - 4) >> 2
        in_suit = SUIT_RANKS_IN_BYTE[suit]
        bits = acc >> BITS_SHIFT
        mask = 0
        for b in range(7):
            mask |= in_suit[(bits >> (8 * b)) & 0xFF] << (2 * b)
        return FLUSH_BY_MASK[mask]
    return HIGH_BY_STATE[STATE_BY_CODE[(acc >> CODE_SHIFT) & CODE_MASK]]


def high_value(cards: Iterable[Card]) -> int:
    """Value of the best five-card high hand in 5..7 cards; larger is better.

    The value is a total order consistent with poker (ties only between equal hands) and
    decodes back to a name (`high_name`). One to four cards are valued like an exposed
    board (pairs count, straights and flushes need five cards), which is what a PokerStars
    show of fewer than five cards is named by.
    """
    return _high(_key(cards))


def high_category(value: int) -> HandCategory:
    """The category (pair, flush, ...) of a `high_value`."""
    return HandCategory(value >> CAT_SHIFT)


def low8_value(cards: Iterable[Card]) -> int | None:
    """Eight-or-better low of 5..7 cards (ace low, straights/flushes ignored); larger is better.

    None when the cards do not hold five distinct ranks of eight or lower. A qualifying
    low has the same value as `razz_value` of the same cards, so the two compare directly.
    """
    bits = _key(cards) >> BITS_SHIFT
    two_to_nine = (
        RANKS_IN_BYTE[bits & 0xFF]
        | RANKS_IN_BYTE[(bits >> 8) & 0xFF] << 2
        | RANKS_IN_BYTE[(bits >> 16) & 0xFF] << 4
        | RANKS_IN_BYTE[(bits >> 24) & 0xFF] << 6
    )
    ace = (bits >> 48) != 0
    return LOW8_BY_MASK[((two_to_nine & 0x7F) << 1) | ace]


def razz_value(cards: Iterable[Card]) -> int:
    """Best ace-to-five low of the cards (pairs count against, no qualifier); larger is better.

    5..7 cards pick the best five. Fewer cards are valued as they are, so that a
    four-card show or an exposed razz board gets the same ordering rules.
    """
    return RAZZ_BY_STATE[STATE_BY_CODE[(_key(cards) >> CODE_SHIFT) & CODE_MASK]]


def board_high_value(up_cards: Iterable[Card]) -> int:
    """Rank of 1..4 exposed cards for who acts first in stud and stud hi/lo; larger = first.

    Quads > trips > two pair > pair > high cards, then ranks (ace high). Straights and
    flushes do not count and suits never break a tie: ties are the caller's (by position).
    """
    return HIGH_BY_STATE[STATE_BY_CODE[(_key(up_cards, 4) >> CODE_SHIFT) & CODE_MASK]]


def board_low_value(up_cards: Iterable[Card]) -> int:
    """Rank of 1..4 exposed razz cards; larger = the better (lower) board, which acts first.

    Ace is low, pairs are bad (any unpaired board beats any paired one), no suit ties.
    """
    return RAZZ_BY_STATE[STATE_BY_CODE[(_key(up_cards, 4) >> CODE_SHIFT) & CODE_MASK]]


def rank_boards(boards: Sequence[Sequence[Card | None]], *, high: bool = True) -> list[int] | None:
    """`board_high_value` (or, with high=False, `board_low_value`) of several exposed
    boards in one call; unknown cards (None) are skipped. None when some board has no
    known card at all (who acts first cannot be told). The engine ranks every live board
    once per street, so one call instead of one per board."""
    key, state = CARD_KEY, STATE_BY_CODE
    table = HIGH_BY_STATE if high else RAZZ_BY_STATE
    count_shift, bits_shift, code_shift, code_mask = COUNT_SHIFT, BITS_SHIFT, CODE_SHIFT, CODE_MASK
    out = []
    bad: Sequence[Card | None] | None = None
    for b in boards:
        acc = 0
        for c in b:
            if c is not None:
                acc += key[c.index]
        if not acc:
            return None
        n = (acc >> count_shift) & 0xFF
        if n > 4 or (acc >> bits_shift).bit_count() != n:
            bad = bad or b  # an error only if no board turns out empty
            continue
        out.append(table[state[(acc >> code_shift) & code_mask]])
    if bad is not None:
        cards = [c for c in bad if c is not None]
        raise ValueError(_complaint(cards, len(cards), 4))
    return out


def _best_five(
    cards: Iterable[Card], value: Callable[[tuple[Card, ...]], int | None]
) -> tuple[Card, ...]:
    """The five-card subset with the largest value (first in input order on ties), or ()."""
    hand = tuple(cards)
    if not 5 <= len(hand) <= 7:
        raise ValueError(f"expected 5..7 cards, got {len(hand)}")
    _key(hand)
    best: tuple[Card, ...] = ()
    best_v: int | None = None
    for five in combinations(hand, 5):
        v = value(five)
        if v is not None and (best_v is None or v > best_v):
            best, best_v = five, v
    return best


def _ordered(five: tuple[Card, ...], ace_low: bool) -> tuple[Card, ...]:
    """Cards in reading order: bigger groups first, then rank (high first), then suit."""

    def r(c: Card) -> int:
        return c.rank.low if ace_low else int(c.rank)

    count = {c.rank: 0 for c in five}
    for c in five:
        count[c.rank] += 1
    return tuple(sorted(five, key=lambda c: (count[c.rank], r(c), c.suit), reverse=True))


def best_high_five(cards: Iterable[Card]) -> tuple[Card, ...]:
    """The five cards (of 5..7) that make `high_value`, in reading order (for writers).

    A straight reads from its top card (a wheel: 5 4 3 2 A). Among equal choices (e.g.
    the kicker of quads when a second set is present) the first in input order is kept.
    """
    five = _best_five(cards, high_value)
    v = high_value(five)
    cat = v >> CAT_SHIFT
    if cat in (HandCategory.STRAIGHT, HandCategory.STRAIGHT_FLUSH) and v & 0xF == 1:
        # the wheel: the ace reads last
        return tuple(sorted(five, key=lambda c: c.rank.low, reverse=True))
    return _ordered(five, ace_low=False)


def best_razz_five(cards: Iterable[Card]) -> tuple[Card, ...]:
    """The five cards (of 5..7) that make `razz_value`, highest first, ace as one."""
    five = _best_five(cards, razz_value)
    return _ordered(five, ace_low=True)


def best_low8_five(cards: Iterable[Card]) -> tuple[Card, ...] | None:
    """The five cards (of 5..7) of the best eight-or-better low, highest first; None if none."""
    five = _best_five(cards, low8_value)
    return _ordered(five, ace_low=True) if five else None
