"""Value encodings and the lookup tables every evaluator path shares.

A hand value is ``category << 20 | ranks`` where ``ranks`` holds up to five 4-bit rank
nibbles, left-aligned and ordered the way poker compares them (bigger groups first, then
higher ranks). Integer comparison of two values is then exactly poker's comparison, and the
value can be decoded back into a PokerStars name without keeping the cards.

Lows use the same layout with the ace as 1 and measure *badness*; the public low values
are ``LOW_TOP - badness`` so that larger is better everywhere.

All tables are built once at import (about a tenth of a second): the best five of six or
seven ranks is found by dynamic programming over rank multisets (the best of n is the
best of the n ways to drop one card), so no combination is ever enumerated per hand.
"""

from __future__ import annotations

from enum import IntEnum
from itertools import combinations
from typing import Any

import numpy as np
import numpy.typing as npt

__all__ = [
    "HandCategory",
    "LOW_TOP",
    "NO_LOW",
    "pack",
    "unpack",
    "category_of",
]


class HandCategory(IntEnum):
    """High-hand categories, weakest first (the value is the top bits of a hand value)."""

    HIGH_CARD = 0
    PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8


CAT_SHIFT = 20
LOW_TOP = 1 << 24  # above any badness (category <= 7), so every low value is positive
NO_LOW = -1  # batch marker for "no qualifying low"
NRANKS = 13
MAX_CARDS = 7
POW5 = tuple(5**r for r in range(NRANKS + 1))


def pack(ranks: list[int] | tuple[int, ...]) -> int:
    """Left-align up to five rank numbers (1..14) into 4-bit nibbles."""
    v = 0
    for i, r in enumerate(ranks):
        v |= r << (4 * (4 - i))
    return v


def unpack(value: int) -> tuple[int, ...]:
    """The rank nibbles of a value, most significant first, without empty slots."""
    out = []
    for i in range(5):
        r = (value >> (4 * (4 - i))) & 0xF
        if r == 0:
            break
        out.append(r)
    return tuple(out)


def category_of(value: int) -> int:
    return value >> CAT_SHIFT


def _straight_top(rank_bits: int) -> int:
    """Top rank of a five-card straight given exactly five distinct rank bits, else 0."""
    if rank_bits == 0b1000000001111:  # A-2-3-4-5: the ace plays low
        return 5
    low = (rank_bits & -rank_bits).bit_length() - 1
    if rank_bits == 0b11111 << low:
        return low + 6
    return 0


def _straight_value(cat: HandCategory, top: int) -> int:
    ranks = [top - i for i in range(5)]
    if top == 5:
        ranks[4] = 1  # the wheel's ace is the lowest card of the straight
    return (int(cat) << CAT_SHIFT) | pack(ranks)


_STRAIGHT_TOP = np.array([_straight_top(m) if m.bit_count() == 5 else 0 for m in range(1 << 13)])
_STRAIGHT_VALUE = np.array(
    [0] * 5 + [_straight_value(HandCategory.STRAIGHT, t) for t in range(5, 15)], dtype=np.int64
)
# category from the two largest group sizes (c0, c1) of at most five cards
_SHAPE_CATEGORY = np.zeros((5, 5), dtype=np.int64)
_SHAPE_CATEGORY[4, :] = HandCategory.FOUR_OF_A_KIND
_SHAPE_CATEGORY[3, :] = HandCategory.THREE_OF_A_KIND
_SHAPE_CATEGORY[3, 2] = HandCategory.FULL_HOUSE
_SHAPE_CATEGORY[2, :] = HandCategory.PAIR
_SHAPE_CATEGORY[2, 2] = HandCategory.TWO_PAIR
_SHAPE_CATEGORY[1, :] = HandCategory.HIGH_CARD


def _multisets() -> npt.NDArray[np.int8]:
    """Every rank multiset of 0..7 cards (each rank at most four times) as a count matrix."""
    counts = np.zeros((1, 0), dtype=np.int8)
    for _ in range(NRANKS):
        size = counts.sum(axis=1)
        parts = []
        for c in range(5):
            keep = counts[size + c <= MAX_CARDS]
            parts.append(np.hstack([keep, np.full((len(keep), 1), c, dtype=np.int8)]))
        counts = np.vstack(parts)
    return counts


def _group_values(counts: npt.NDArray[np.int8], ace_low: bool) -> npt.NDArray[np.int64]:
    """Pairs/trips/quads values of multisets of at most five cards (no straights/flushes)."""
    rank_of = np.arange(2, 15, dtype=np.int64)
    if ace_low:
        rank_of[12] = 1
    key = np.sort(counts.astype(np.int64) * 16 + rank_of[None, :], axis=1)[:, ::-1]
    csorted, rsorted = key >> 4, key & 0xF
    cum = np.cumsum(csorted, axis=1)
    size = cum[:, -1]
    rows = np.arange(len(counts))
    value = _SHAPE_CATEGORY[csorted[:, 0], csorted[:, 1]] << CAT_SHIFT
    for p in range(5):
        g = (cum <= p).sum(axis=1).clip(0, NRANKS - 1)
        value |= np.where(p < size, rsorted[rows, g], 0) << (4 * (4 - p))
    return value


def _build_rank_tables() -> tuple[
    npt.NDArray[np.int64], npt.NDArray[np.int32], npt.NDArray[np.int64], npt.NDArray[np.int64]
]:
    """Rank state machine plus high (no flush) values and razz badness per multiset.

    States are sorted by base-5 code; ``trans[s, r]`` adds a card of rank r (or goes to
    the dead state ``len(codes)``). Values of 6 and 7 cards are the best over the states
    one card smaller, propagated along the transitions.
    """
    counts = _multisets()
    pow5 = np.array(POW5[:NRANKS], dtype=np.int64)
    codes = counts.astype(np.int64) @ pow5
    order = np.argsort(codes)
    counts, codes = counts[order], codes[order]
    nstate = len(codes)
    size = counts.sum(axis=1)

    # one searchsorted per rank: the needles are sorted, which numpy's search exploits
    sentinel = np.append(codes, np.int64(1 << 40))  # above any code + 5**12
    trans = np.full((nstate + 1, NRANKS), nstate, dtype=np.int32)
    for r in range(NRANKS):
        nxt = codes + pow5[r]
        pos = np.searchsorted(sentinel, nxt)
        # a fifth card of a rank would carry into the next base-5 digit: dead, not aliased
        ok = (sentinel[pos] == nxt) & (counts[:, r] < 4) & (size < MAX_CARDS)
        trans[:nstate, r] = np.where(ok, pos, nstate)

    high = np.full(nstate + 1, -1, dtype=np.int64)
    bad = np.full(nstate + 1, LOW_TOP, dtype=np.int64)
    small = np.flatnonzero((size >= 1) & (size <= 5))
    high[small] = _group_values(counts[small], ace_low=False)
    bad[small] = _group_values(counts[small], ace_low=True)
    five = np.flatnonzero((size == 5) & (counts.max(axis=1) == 1))
    mask = (counts[five] > 0).astype(np.int64) @ (1 << np.arange(NRANKS, dtype=np.int64))
    top = _STRAIGHT_TOP[mask]
    high[five] = np.where(top > 0, _STRAIGHT_VALUE[top], high[five])
    for n in (5, 6):
        src = np.flatnonzero(size == n)
        dst = trans[src].ravel()
        ok = dst < nstate
        np.maximum.at(high, dst[ok], np.repeat(high[src], NRANKS)[ok])
        np.minimum.at(bad, dst[ok], np.repeat(bad[src], NRANKS)[ok])
    razz: npt.NDArray[np.int64] = np.where(size >= 1, LOW_TOP - bad[:nstate], -1).astype(np.int64)
    razz = np.append(razz, np.int64(-1))
    return codes, trans, high, razz


def _build_flush_table() -> list[int]:
    """Best flush / straight flush value for each 13-bit rank mask of 5..7 suited cards."""
    table = [0] * (1 << NRANKS)
    for n in (5, 6, 7):
        for combo in combinations(range(NRANKS), n):
            mask = sum(1 << r for r in combo)
            if n == 5:
                top = _straight_top(mask)
                if top:
                    table[mask] = _straight_value(HandCategory.STRAIGHT_FLUSH, top)
                else:
                    ranks = sorted((r + 2 for r in combo), reverse=True)
                    table[mask] = (int(HandCategory.FLUSH) << CAT_SHIFT) | pack(ranks)
            else:
                table[mask] = max(table[mask & ~(1 << r)] for r in combo)
    return table


def _build_low8_table() -> list[int | None]:
    """Eight-or-better low value for each 8-bit mask of low ranks (bit 0 = ace ... bit 7 = 8)."""
    table: list[int | None] = [None] * 256
    for mask in range(256):
        if mask.bit_count() >= 5:
            ranks = [r + 1 for r in range(8) if mask >> r & 1][:5]
            table[mask] = LOW_TOP - pack(sorted(ranks, reverse=True))
    return table


_CODES, _TRANS, _HIGH, _RAZZ = _build_rank_tables()
HIGH_BY_CODE: dict[int, int] = dict(zip(_CODES[1:].tolist(), _HIGH[1:-1].tolist(), strict=True))
RAZZ_BY_CODE: dict[int, int] = dict(zip(_CODES[1:].tolist(), _RAZZ[1:-1].tolist(), strict=True))
FLUSH_BY_MASK: list[int] = _build_flush_table()
LOW8_BY_MASK: list[int | None] = _build_low8_table()

# Per-card-index keys for the scalar paths (index = 4 * (rank - 2) + suit). A hand's key is
# the plain sum of its cards' keys (one C-level `sum`), with these bit fields:
#   0..15   four 4-bit suit counters; biased by 3, bit 3 of a counter means five of a suit
#   16..55  the base-5 rank multiset code (the table key)
#   56..63  the number of cards
#   64..    the 52-bit set of card indices: a duplicate card carries, so popcount < count
SUIT_BIAS = 0x3333
SUIT_FLAGS = 0x8888
CODE_SHIFT = 16
CODE_MASK = (1 << 40) - 1
COUNT_SHIFT = 56
BITS_SHIFT = 64
CARD_KEY: tuple[int, ...] = tuple(
    (1 << (BITS_SHIFT + i)) | (1 << COUNT_SHIFT) | (POW5[i >> 2] << CODE_SHIFT) | (1 << 4 * (i & 3))
    for i in range(52)
)
# byte of the card set (two ranks x four suits) -> the ranks present (2 bits) ...
RANKS_IN_BYTE: tuple[int, ...] = tuple(
    int(b & 0x0F != 0) | int(b & 0xF0 != 0) << 1 for b in range(256)
)
# ... and, per suit, the ranks present in that suit
SUIT_RANKS_IN_BYTE: tuple[tuple[int, ...], ...] = tuple(
    tuple((b >> s) & 1 | ((b >> (s + 4)) & 1) << 1 for b in range(256)) for s in range(4)
)
# Dense forms for the batch path (see `_build_rank_tables`).
ARRAYS: dict[str, npt.NDArray[np.integer[Any]]] = {
    "trans": _TRANS.ravel(),
    "high": _HIGH,
    "razz": _RAZZ,
    "flush": np.array(FLUSH_BY_MASK, dtype=np.int64),
    "low8": np.array([NO_LOW if v is None else v for v in LOW8_BY_MASK], dtype=np.int64),
    "low_bit": np.array(
        [1 if r == 12 else 1 << (r + 1) if r <= 6 else 0 for r in (i >> 2 for i in range(52))],
        dtype=np.int64,
    ),
}
