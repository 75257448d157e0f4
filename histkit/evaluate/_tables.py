"""Value encodings and the lookup tables every evaluator path shares.

A hand value is ``category << 20 | ranks`` where ``ranks`` holds up to five 4-bit rank
nibbles, left-aligned and ordered the way poker compares them (bigger groups first, then
higher ranks). Integer comparison of two values is then exactly poker's comparison, and the
value can be decoded back into a PokerStars name without keeping the cards.

Lows use the same layout with the ace as 1 and measure *badness*; the public low values
are ``LOW_TOP - badness`` so that larger is better everywhere.

The tables are built with numpy (about a tenth of a second): the best five of six or
seven ranks is found by dynamic programming over rank multisets (the best of n is the
best of the n ways to drop one card), so no combination is ever enumerated per hand. The
scalar paths' tables are kept in histkit's private cache (`histkit.cache`) and read back
at import without numpy, so that an audit of one hand starts quickly; the batch path's
dense arrays (`dense_arrays`) are built the first time it is used.
"""

from __future__ import annotations

import functools
import hashlib
import marshal
import sys
from enum import IntEnum
from itertools import combinations
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

__all__ = [
    "dense_arrays",
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


def _shape_category() -> npt.NDArray[np.int64]:
    """The category from the two largest group sizes (c0, c1) of at most five cards."""
    import numpy as np

    shape = np.zeros((5, 5), dtype=np.int64)
    shape[4, :] = HandCategory.FOUR_OF_A_KIND
    shape[3, :] = HandCategory.THREE_OF_A_KIND
    shape[3, 2] = HandCategory.FULL_HOUSE
    shape[2, :] = HandCategory.PAIR
    shape[2, 2] = HandCategory.TWO_PAIR
    shape[1, :] = HandCategory.HIGH_CARD
    return shape


def _multisets() -> npt.NDArray[np.int8]:
    """Every rank multiset of 0..7 cards (each rank at most four times) as a count matrix."""
    import numpy as np

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
    import numpy as np

    rank_of = np.arange(2, 15, dtype=np.int64)
    if ace_low:
        rank_of[12] = 1
    key = np.sort(counts.astype(np.int64) * 16 + rank_of[None, :], axis=1)[:, ::-1]
    csorted, rsorted = key >> 4, key & 0xF
    cum = np.cumsum(csorted, axis=1)
    size = cum[:, -1]
    rows = np.arange(len(counts))
    value = _shape_category()[csorted[:, 0], csorted[:, 1]] << CAT_SHIFT
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
    import numpy as np

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
    straight_top = np.array([_straight_top(m) if m.bit_count() == 5 else 0 for m in range(1 << 13)])
    straight_value = np.array(
        [0] * 5 + [_straight_value(HandCategory.STRAIGHT, t) for t in range(5, 15)], dtype=np.int64
    )
    top = straight_top[mask]
    high[five] = np.where(top > 0, straight_value[top], high[five])
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


_RankTables = tuple[
    "npt.NDArray[np.int64]",
    "npt.NDArray[np.int32]",
    "npt.NDArray[np.int64]",
    "npt.NDArray[np.int64]",
]
# the scalar paths' tables: rank-multiset code -> row, high and razz value by row, the flush
# value by rank mask, the eight-or-better low by low-rank mask
_ScalarTables = tuple[dict[int, int], list[int], list[int], list[int], list[int | None]]


@functools.cache
def _rank_tables() -> _RankTables:
    """`_build_rank_tables`, once per process (the scalar tables and the batch arrays
    both come from it)."""
    return _build_rank_tables()


_NSTATES = 76_154  # rank multisets of 1..7 cards, each rank at most four times


def _build_scalar_lists() -> tuple[list[int], list[int], list[int], list[int], list[int | None]]:
    """What the cache keeps: every rank-multiset code of 1..7 cards in order, its high and
    razz values, the flush and the eight-or-better tables (plain lists: `marshal` reads
    lists several times faster than dicts)."""
    codes, _trans, high, razz = _rank_tables()
    return (
        codes[1:].tolist(),  # (state 0 is no card at all, the last the dead state)
        high[1:-1].tolist(),
        razz[1:-1].tolist(),
        _build_flush_table(),
        _build_low8_table(),
    )


def _cache_file() -> Path | None:
    """This module's tables in the private cache, named by the module's source (a change
    to how they are built is a new file) and the marshal format of this Python."""
    from histkit.cache import cache_dir

    root = cache_dir()
    if root is None:
        return None
    try:
        source = Path(__file__).read_bytes()
    except OSError:
        return None
    tag = hashlib.sha256(source + repr((marshal.version, sys.version_info[:2])).encode())
    return root / f"evaluate-{tag.hexdigest()[:16]}.marshal"


def _read_cache(path: Path) -> tuple[Any, ...] | None:
    """The lists a cache file holds, or None when it is missing, damaged or not their
    shape (a checksum over the contents, then the types and sizes)."""
    try:
        data = path.read_bytes()
        if hashlib.sha256(data[32:]).digest() != data[:32]:
            return None
        got = marshal.loads(data[32:])
    except (OSError, EOFError, ValueError, TypeError):
        return None
    sizes = (_NSTATES, _NSTATES, _NSTATES, 1 << NRANKS, 256)
    ok = (
        isinstance(got, tuple)
        and len(got) == len(sizes)
        and all(isinstance(t, list) and len(t) == n for t, n in zip(got, sizes, strict=False))
    )
    return got if ok else None


def _scalar_tables() -> _ScalarTables:
    """The scalar paths' tables: from the cache when it holds them, else built (with
    numpy) and cached."""
    path = _cache_file()
    got = _read_cache(path) if path is not None else None
    if got is None:
        got = _build_scalar_lists()
        if path is not None:
            from histkit.cache import write_cache_file

            data = marshal.dumps(got)
            write_cache_file(path, hashlib.sha256(data).digest() + data)
    codes, high, razz, flush, low8 = got
    return dict(zip(codes, range(len(codes)), strict=True)), high, razz, flush, low8


# code -> row of HIGH_BY_STATE and RAZZ_BY_STATE (the multisets of 1..7 cards, in code order)
STATE_BY_CODE, HIGH_BY_STATE, RAZZ_BY_STATE, FLUSH_BY_MASK, LOW8_BY_MASK = _scalar_tables()

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


@functools.cache
def dense_arrays() -> dict[str, npt.NDArray[np.integer[Any]]]:
    """The batch path's tables as numpy arrays (see `_build_rank_tables`), built on its
    first use."""
    import numpy as np

    _codes, trans, high, razz = _rank_tables()
    return {
        "trans": trans.ravel(),
        "high": high,
        "razz": razz,
        "flush": np.array(FLUSH_BY_MASK, dtype=np.int64),
        "low8": np.array([NO_LOW if v is None else v for v in LOW8_BY_MASK], dtype=np.int64),
        "low_bit": np.array(
            [1 if r == 12 else 1 << (r + 1) if r <= 6 else 0 for r in (i >> 2 for i in range(52))],
            dtype=np.int64,
        ),
    }
