"""Hand values for the showdown, per game, over the shared evaluator (`histkit.evaluate`).

Kept apart so the pot logic reads as rules, and so a game variant changes one function.
"""

from __future__ import annotations

from collections.abc import Sequence

from histkit.cards import Card
from histkit.rules.games import GameSpec, HighLow

__all__ = ["high", "low"]


def high(cards: Sequence[Card]) -> int:
    """Best high hand of 5–7 cards (larger is better)."""
    from histkit import evaluate as ev

    return int(ev.high_value(list(cards)))


def low(spec: GameSpec, cards: Sequence[Card]) -> int | None:
    """Best ace-to-five low (larger is better), None when it does not qualify.

    Hi/lo with a qualifier: five distinct ranks of eight or lower. Razz and the
    no-qualifier variant: the best five cards, pairs counting against, always a value."""
    from histkit import evaluate as ev

    if spec.pots is HighLow.HILO and spec.low_qualifier is not None:
        v = ev.low8_value(list(cards))
        return None if v is None else int(v)
    return int(ev.razz_value(list(cards)))
