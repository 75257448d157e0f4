"""Many hands at once with numpy: the same values as the scalar functions, in bulk.

Input is an integer array of shape (n, k), k = 1..7 card indices per row (index = 4 *
(rank - 2) + suit, i.e. `Card.index`). The rank multiset is found by walking a state
machine (one gather per card column over a 76k x 13 table); flushes are found from a
4-bit suit counter per suit and looked up by rank mask, only for the rows that have one.
Rows are processed in chunks so the intermediates stay in cache.

Outputs are int64 arrays equal, row by row, to `high_value`, `razz_value` and
`low8_value` of the same cards; `low8_values_batch` writes NO_LOW (-1) where there is no
qualifying low (every real value is positive).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from histkit.evaluate._tables import NO_LOW, NRANKS, SUIT_BIAS, SUIT_FLAGS, dense_arrays

__all__ = [
    "NO_LOW",
    "high_values_batch",
    "low8_values_batch",
    "razz_values_batch",
    "high_values_after",
    "low8_values_after",
    "razz_values_after",
]

IntArray = npt.NDArray[np.int64]
ARRAYS = dense_arrays()

_TRANS: npt.NDArray[np.int32] = ARRAYS["trans"].astype(np.int32, copy=False)
_HIGH: IntArray = ARRAYS["high"].astype(np.int64, copy=False)
_RAZZ: IntArray = ARRAYS["razz"].astype(np.int64, copy=False)
_FLUSH: IntArray = ARRAYS["flush"].astype(np.int64, copy=False)
_LOW8: IntArray = ARRAYS["low8"].astype(np.int64, copy=False)
_LOW_BIT: npt.NDArray[np.uint8] = ARRAYS["low_bit"].astype(np.uint8)
_SUIT_KEY = np.array([1 << (4 * (i & 3)) for i in range(52)], dtype=np.int32)
# states after the first two cards, indexed by rank0 * 13 + rank1
_TWO = np.array(
    [_TRANS[_TRANS[r0] * NRANKS + r1] for r0 in range(NRANKS) for r1 in range(NRANKS)],
    dtype=np.int32,
)
_CHUNK = 1 << 15


def _checked(idx: npt.ArrayLike, check: bool) -> npt.NDArray[np.int8]:
    a = np.asarray(idx)
    if a.ndim != 2 or not 1 <= a.shape[1] <= 7:
        raise ValueError(f"expected an (n, 1..7) array of card indices, got shape {a.shape}")
    if a.size and not np.issubdtype(a.dtype, np.integer):
        raise ValueError(f"card indices must be integers, got {a.dtype}")
    if check and a.size:
        lo, hi = int(a.min()), int(a.max())
        if lo < 0 or hi > 51:
            raise ValueError(f"card index out of 0..51: {lo if lo < 0 else hi}")
        # distinct cards: the OR of their bits equals the SUM (a repeat would carry)
        ored = np.zeros(len(a), dtype=np.int64)
        summed = np.zeros(len(a), dtype=np.int64)
        for j in range(a.shape[1]):  # column by column: faster than reducing along axis 1
            bit = np.left_shift(np.int64(1), a[:, j].astype(np.int64))
            ored |= bit
            summed += bit
        dup = ored != summed
        if dup.any():
            row = int(np.flatnonzero(dup)[0])
            raise ValueError(f"duplicate card in row {row}: {a[row].tolist()}")
    return a.astype(np.int8, copy=False)


def _states(a: npt.NDArray[np.int8]) -> npt.NDArray[np.int32]:
    """Rank-multiset state of every row."""
    ranks = (a >> 2).astype(np.int32)
    k = a.shape[1]
    if k == 1:
        return _TRANS[ranks[:, 0]]
    state = _TWO[ranks[:, 0] * NRANKS + ranks[:, 1]]
    for j in range(2, k):
        state = _TRANS[state * NRANKS + ranks[:, j]]
    return state


def _high_chunk(a: npt.NDArray[np.int8]) -> IntArray:
    value = _HIGH[_states(a)]
    if a.shape[1] < 5:
        return value
    suits = _SUIT_KEY[a[:, 0]] + SUIT_BIAS
    for j in range(1, a.shape[1]):
        suits += _SUIT_KEY[a[:, j]]
    rows = np.flatnonzero(suits & SUIT_FLAGS)
    if rows.size:
        value[rows] = _flush_values(a[rows].astype(np.int32), suits[rows] & SUIT_FLAGS)
    return value


def _flush_values(sub: npt.NDArray[np.int32], flags: npt.NDArray[np.int32]) -> IntArray:
    """The flush values of rows that hold five or more cards of one suit (`flags`: that
    suit's counter flag)."""
    suit = np.zeros(len(sub), dtype=np.int32)
    for s in range(1, 4):
        suit[flags == 8 << (4 * s)] = s
    in_suit = (sub & 3) == suit[:, None]
    mask = np.where(in_suit, np.left_shift(1, sub >> 2), 0).sum(axis=1)
    return _FLUSH[mask]


def _razz_chunk(a: npt.NDArray[np.int8]) -> IntArray:
    return _RAZZ[_states(a)]


def _chunked(a: npt.NDArray[np.int8], fn: Callable[[npt.NDArray[np.int8]], IntArray]) -> IntArray:
    out = np.empty(len(a), dtype=np.int64)
    for start in range(0, len(a), _CHUNK):
        out[start : start + _CHUNK] = fn(a[start : start + _CHUNK])
    return out


def high_values_batch(idx: npt.ArrayLike, *, check: bool = True) -> IntArray:
    """`high_value` of every row of an (n, k) array of card indices (k = 1..7).

    `check` validates the indices (0..51, no card twice in a row) first; pass False only
    for arrays you generated yourself.
    """
    return _chunked(_checked(idx, check), _high_chunk)


def razz_values_batch(idx: npt.ArrayLike, *, check: bool = True) -> IntArray:
    """`razz_value` of every row (best ace-to-five low, pairs count against)."""
    return _chunked(_checked(idx, check), _razz_chunk)


def low8_values_batch(idx: npt.ArrayLike, *, check: bool = True) -> IntArray:
    """`low8_value` of every row, with NO_LOW (-1) where there is no eight-or-better low."""
    a = _checked(idx, check)
    mask = np.bitwise_or.reduce(_LOW_BIT[a], axis=1) if a.size else np.zeros(len(a), np.uint8)
    return _LOW8[mask]


# ------------------------------------------------------------------ after known cards
# Equity values many hands that share a player's known cards and differ in the cards to
# come. The rank state, the suit counters and the low bits of the known cards are found
# once, and each row walks only its own unknown cards (three of seven on 4th street): the
# same values as the batch functions of the whole hands, in fewer passes.


def _known_start(known: Sequence[int]) -> tuple[int, int, int]:
    """(rank state, suit counters, low bits) of the known cards."""
    state, suits, low = 0, SUIT_BIAS, 0
    for c in known:
        state = int(_TRANS[state * NRANKS + (c >> 2)])
        suits += int(_SUIT_KEY[c])
        low |= int(_LOW_BIT[c])
    return state, suits, low


def _states_after(state: int, a: npt.NDArray[np.integer[Any]]) -> npt.NDArray[np.int32]:
    if a.shape[1] == 0:
        return np.full(len(a), state, dtype=np.int32)
    ranks = (a >> 2).astype(np.int32)
    out = _TRANS[state * NRANKS + ranks[:, 0]]
    for j in range(1, a.shape[1]):
        out = _TRANS[out * NRANKS + ranks[:, j]]
    return out


def high_values_after(known: Sequence[int], idx: npt.NDArray[np.integer[Any]]) -> IntArray:
    """`high_value` of the known cards (indices) with each row of `idx` (the cards to
    come, at most 7 in all); rows are not checked."""
    state, suits0, _ = _known_start(known)
    out = np.empty(len(idx), dtype=np.int64)
    for start in range(0, len(idx), _CHUNK):
        a = idx[start : start + _CHUNK]
        value = _HIGH[_states_after(state, a)]
        if len(known) + a.shape[1] >= 5:
            suits = np.full(len(a), suits0, dtype=np.int32)
            for j in range(a.shape[1]):
                suits += _SUIT_KEY[a[:, j]]
            rows = np.flatnonzero(suits & SUIT_FLAGS)
            if rows.size:
                sub = np.empty((rows.size, len(known) + a.shape[1]), dtype=np.int32)
                sub[:, : len(known)] = known
                sub[:, len(known) :] = a[rows]
                value[rows] = _flush_values(sub, suits[rows] & SUIT_FLAGS)
        out[start : start + len(a)] = value
    return out


def razz_values_after(known: Sequence[int], idx: npt.NDArray[np.integer[Any]]) -> IntArray:
    """`razz_value` of the known cards with each row of `idx` (see `high_values_after`)."""
    state = _known_start(known)[0]
    out = np.empty(len(idx), dtype=np.int64)
    for start in range(0, len(idx), _CHUNK):
        out[start : start + _CHUNK] = _RAZZ[_states_after(state, idx[start : start + _CHUNK])]
    return out


def low8_values_after(known: Sequence[int], idx: npt.NDArray[np.integer[Any]]) -> IntArray:
    """`low8_value` (NO_LOW where none) of the known cards with each row of `idx`."""
    mask = np.full(len(idx), _known_start(known)[2], dtype=np.uint8)
    for j in range(idx.shape[1]):
        mask |= _LOW_BIT[idx[:, j]]
    return _LOW8[mask]
