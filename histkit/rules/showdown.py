"""Hand values for the showdown, per game, over the shared evaluator (`histkit.evaluate`).

Kept apart so the pot logic reads as rules, and so a game variant changes one function.
"""

from __future__ import annotations

from collections.abc import Sequence

from histkit import evaluate as ev
from histkit.cards import Card
from histkit.rules.games import GameSpec, HighLow

__all__ = ["high", "low", "low_qualifies"]


def high(cards: Sequence[Card]) -> int:
    """Best high hand of 5–7 cards (larger is better)."""
    return int(ev.high_value(cards))


def low(spec: GameSpec, cards: Sequence[Card]) -> int | None:
    """Best ace-to-five low (larger is better), None when it does not qualify.

    Hi/lo with a qualifier: five distinct ranks of eight or lower. Razz and the
    no-qualifier variant: the best five cards, pairs counting against, always a value."""
    if low_qualifies(spec):
        v = ev.low8_value(cards)
        return None if v is None else int(v)
    return int(ev.razz_value(cards))


def low_qualifies(spec: GameSpec) -> bool:
    """Whether a low must qualify to win (hi/lo eight or better), else every hand has a
    low and the best one wins (razz, hi/lo without a qualifier). The equity engine picks
    its batch evaluator by this, so it values lows as the showdown does."""
    return spec.pots is HighLow.HILO and spec.low_qualifier is not None
