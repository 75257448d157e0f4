"""Hand evaluation for the stud family: high, eight-or-better low, razz, boards, names.

Every value is an int where larger is better, so winners are found with `max` and ties
with `==`. The scalar functions take `Card`s; the `*_batch` functions take an (n, k)
numpy array of card indices and return the same values in bulk.

    high_value, high_category, best_high_five      best five of 5..7 cards
    low8_value (None = no low), razz_value          ace-to-five lows
    board_high_value, board_low_value               who acts first on 4th..7th street
    rank_boards                                     the same for every board at once
    high_name, low_name, low8_name, describe        PokerStars' words
    high_values_batch, low8_values_batch, razz_values_batch

The batch functions (and numpy with them) are imported on first use: an audit values a
handful of hands with the scalar functions and starts faster without numpy.
"""

from typing import TYPE_CHECKING, Any

from histkit.evaluate._tables import LOW_TOP, NO_LOW, HandCategory
from histkit.evaluate.names import (
    describe,
    high_name,
    low8_name,
    low_name,
    name_high_value,
    name_low_value,
)

if TYPE_CHECKING:
    from histkit.evaluate.batch import high_values_batch, low8_values_batch, razz_values_batch
from histkit.evaluate.scalar import (
    best_high_five,
    best_low8_five,
    best_razz_five,
    board_high_value,
    board_low_value,
    high_category,
    high_value,
    low8_value,
    rank_boards,
    razz_value,
)

__all__ = [
    "LOW_TOP",
    "NO_LOW",
    "HandCategory",
    "best_high_five",
    "best_low8_five",
    "best_razz_five",
    "board_high_value",
    "board_low_value",
    "describe",
    "high_category",
    "high_name",
    "high_value",
    "high_values_batch",
    "low8_name",
    "low8_value",
    "low8_values_batch",
    "low_name",
    "name_high_value",
    "name_low_value",
    "rank_boards",
    "razz_value",
    "razz_values_batch",
]

_BATCH = frozenset({"high_values_batch", "low8_values_batch", "razz_values_batch"})


def __getattr__(name: str) -> Any:
    """The batch functions, imported on first use (PEP 562)."""
    if name in _BATCH:
        from histkit.evaluate import batch

        return getattr(batch, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
