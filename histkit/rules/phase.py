"""Where a hand is, as the engine advances it (one value at a time, in this order)."""

from __future__ import annotations

from enum import Enum

__all__ = ["Phase"]


class Phase(Enum):
    """Antes being posted; a street's cards being dealt; its betting; between betting
    rounds (a street closed, the showdown); over (the pot is being paid)."""

    ANTES = "antes"
    DEAL = "deal"
    BET = "bet"
    BETWEEN = "between"
    OVER = "over"
