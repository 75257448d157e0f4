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


def board_rank(up: Sequence[Card], *, best_high: bool) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Rank of 1–4 exposed cards for who acts first; larger acts first.

    Only pairs, trips and quads count (no straights or flushes) and suits never break a
    tie. Stud/hi-lo: the best high board (ace high). Razz: the best low board (ace low,
    any unpaired board beats any paired one)."""
    ranks = [int(c.rank) if best_high else c.rank.low for c in up]
    counts: dict[int, int] = {}
    for r in ranks:
        counts[r] = counts.get(r, 0) + 1
    groups = sorted(counts.items(), key=lambda rc: (-rc[1], -rc[0]))
    pattern = tuple(n for _, n in groups)
    order = tuple(r for r, _ in groups)
    if best_high:
        return pattern, order
    return tuple(-n for n in pattern), tuple(-r for r in order)
