"""Games as data: what differs between Stud, Stud Hi/Lo, Razz and the no-qualifier variant.

The engine reads these fields instead of branching on the game name, so a variant is a
new `GameSpec` value, not new code.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from histkit.model import Game

__all__ = ["HighLow", "GameSpec", "STUD", "STUD_HILO", "RAZZ", "STUD_HILO_NOQ", "spec_for"]


class HighLow(StrEnum):
    """Which hands win a pot."""

    HIGH = "high"  # best high hand takes it all
    HILO = "hilo"  # best high and best ace-to-five low split
    LOW = "low"  # best ace-to-five low takes it all (razz: pairs count against)


@dataclass(frozen=True, slots=True)
class GameSpec:
    """One stud-family game.

    `up_pattern` is the up/down pattern of the seven cards; `bring_in_lowest` says the
    lowest up card brings in (stud, hi/lo) rather than the highest (razz); `board_best_high`
    says the best *high* board acts first on 4th–7th (else the best low board);
    `low_qualifier` is the highest rank a low may contain (8) or None for no qualifier.
    """

    name: str
    game: Game
    pots: HighLow
    up_pattern: tuple[bool, ...] = (False, False, True, True, True, True, False)
    bring_in_lowest: bool = True
    board_best_high: bool = True
    low_qualifier: int | None = 8
    open_pair_double: bool = False  # the open-pair big-bet option exists (stud high only)


STUD = GameSpec(
    "Seven Card Stud", Game.STUD, HighLow.HIGH, open_pair_double=True, low_qualifier=None
)
STUD_HILO = GameSpec("Seven Card Stud Hi/Lo Eight or Better", Game.STUD_HILO, HighLow.HILO)
RAZZ = GameSpec(
    "Razz", Game.RAZZ, HighLow.LOW, bring_in_lowest=False, board_best_high=False, low_qualifier=None
)
STUD_HILO_NOQ = GameSpec(
    "Seven Card Stud Hi/Lo (no qualifier)", Game.STUD_HILO, HighLow.HILO, low_qualifier=None
)

_BY_GAME = {Game.STUD: STUD, Game.STUD_HILO: STUD_HILO, Game.RAZZ: RAZZ}


def spec_for(game: Game | GameSpec) -> GameSpec:
    """The spec of a model `Game` (a `GameSpec` passes through)."""
    return game if isinstance(game, GameSpec) else _BY_GAME[game]
