"""The speed idioms of the hot path, in one place, each with what it buys.

Measured with `timeit` on CPython 3.11, pure Python (the mypyc-compiled modules gain the
same or more); a hand of 8-max Stud Hi/Lo is ~70 lines and ~40 facts:

1. **Enum members as module constants.** `Street.THIRD` is an attribute lookup on the
   enum's class, ~50 ns; a module global ~7 ns (7x). The engine compares streets,
   action kinds, phases and pot kinds at every fact. The members it compares are named
   here, once, and imported under the module's own names (`from histkit.rules.speed
   import THIRD as _THIRD`); nowhere else does a module alias an enum member.
2. **`constructor(cls)`** (`histkit.dialects.fastpath`, beside the reader that needs it):
   a frozen slotted dataclass built without the per-field `object.__setattr__` of its own
   `__init__`: an `Action` (7 fields) in 0.56 us instead of 2.7 us (5x), for the ~40
   events of every hand the sink builds (`histkit.dialects.sink`).
3. **Memoised readings**: a line's terminal and match (`LineMatcher`'s memo,
   `histkit.dialects.fastpath`), an amount's minor units and a card list's cards
   (`Dialect._money_memo`, `_cards_memo`). About 60% of a session's lines recur
   verbatim ("Hero: checks", "P: posts the ante $0.01"); a remembered line costs a dict
   lookup (~40 ns) instead of a regex match (~1 us). Each memo is bounded.
4. **Fewer garbage collections in bulk work** (`histkit.parallel.bulk_gc`): hands and
   replays hold no reference cycles, so the collector's passes over millions of young
   objects find nothing; a higher threshold for the youngest generation (and
   `gc.freeze()` of what a worker inherits) saves them.

What is not here on purpose: `__slots__` on the engine's state is there so that a typo
cannot add state (reads are ~30% cheaper too); seat positions as bit masks are the
state's representation (`HandState`), not a speed trick.
"""

from __future__ import annotations

from typing import Final

from histkit.model import ActionKind, Game, Half, PotKind, SeatOutcome, Street, Unit
from histkit.rules.games import HighLow
from histkit.rules.phase import Phase
from histkit.rules.profile import OddChip, RakeSplit

THIRD: Final = Street.THIRD
FOURTH: Final = Street.FOURTH
SEVENTH: Final = Street.SEVENTH

ANTE: Final = ActionKind.ANTE
BRING_IN: Final = ActionKind.BRING_IN
COMPLETE: Final = ActionKind.COMPLETE
BET: Final = ActionKind.BET
RAISE: Final = ActionKind.RAISE
CALL: Final = ActionKind.CALL
CHECK: Final = ActionKind.CHECK
FOLD: Final = ActionKind.FOLD

P_ANTES: Final = Phase.ANTES
P_DEAL: Final = Phase.DEAL
P_BET: Final = Phase.BET
P_BETWEEN: Final = Phase.BETWEEN
P_OVER: Final = Phase.OVER

POT_POT: Final = PotKind.POT
POT_SIDE: Final = PotKind.SIDE
POT_TOTAL: Final = PotKind.TOTAL

HALF_HIGH: Final = Half.HIGH
HALF_LOW: Final = Half.LOW
HALF_WHOLE: Final = Half.WHOLE
HIGHLOW_LOW: Final = HighLow.LOW
HIGHLOW_HILO: Final = HighLow.HILO

RAKE_MAIN_FIRST: Final = RakeSplit.MAIN_FIRST
ODD_BY_SEAT: Final = OddChip.BY_SEAT

GAME_STUD: Final = Game.STUD
GAME_STUD_HILO: Final = Game.STUD_HILO
GAME_RAZZ: Final = Game.RAZZ

SHOWED: Final = SeatOutcome.SHOWED
FOLDED: Final = SeatOutcome.FOLDED
MUCKED: Final = SeatOutcome.MUCKED

CHIP: Final = Unit.CHIP
