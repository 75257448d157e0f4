"""Name-keyed views of the engine's state, built on request.

`HandState` keeps a hand as per-seat data (lists indexed by seat position, bit masks of
positions); callers outside the engine (the simulator, the tests, the replay view) ask
by player name. These properties build those answers when asked and change nothing; the
engine's own rules read the per-seat data directly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from histkit.cards import Card
from histkit.model import Street

if TYPE_CHECKING:
    from histkit.rules.ledger import CardLedger

__all__ = ["StateViews"]


class StateViews:
    """The views `HandState` offers (the fields below are its own)."""

    __slots__ = ()

    n: int
    names: list[str]
    index: dict[str, int]
    seat_nos: list[int]
    start: list[int]
    stack: list[int]
    street_in: list[int]
    total_in: list[int]
    live_mask: int
    active_mask: int
    dealt_mask: int
    fold_mask: int
    allin_mask: int
    muck_mask: int
    decline_mask: int
    away_mask: int
    fold_streets: list[Street | None]
    ledger: CardLedger
    bet: int
    wagers: int
    deals_seen: bool

    def _who(self, mask: int) -> list[str]:
        names = self.names
        return [names[i] for i in range(self.n) if mask >> i & 1]

    @property
    def order(self) -> list[str]:
        return list(self.names)

    @property
    def seat_no(self) -> dict[str, int]:
        return dict(zip(self.names, self.seat_nos, strict=True))

    @property
    def start_stacks(self) -> dict[str, int]:
        return dict(zip(self.names, self.start, strict=True))

    @property
    def stacks(self) -> dict[str, int]:
        return dict(zip(self.names, self.stack, strict=True))

    @property
    def street_contributions(self) -> dict[str, int]:
        return dict(zip(self.names, self.street_in, strict=True))

    @property
    def contributions(self) -> dict[str, int]:
        return dict(zip(self.names, self.total_in, strict=True))

    @property
    def live(self) -> list[str]:
        """Players still in the hand (not folded), seat order; all-in players included."""
        return self._who(self.live_mask)

    @property
    def active(self) -> list[str]:
        """Players who can still act (live and not all-in), seat order."""
        return self._who(self.active_mask)

    @property
    def dealt_in(self) -> list[str]:
        return self._who(self.dealt_mask)

    @property
    def folded(self) -> set[str]:
        return set(self._who(self.fold_mask))

    @property
    def all_in(self) -> set[str]:
        return set(self._who(self.allin_mask))

    @property
    def mucked(self) -> set[str]:
        return set(self._who(self.muck_mask))

    @property
    def declined(self) -> set[str]:
        return set(self._who(self.decline_mask))

    @property
    def sitting_out(self) -> set[str]:
        return set(self._who(self.away_mask))

    @property
    def fold_street(self) -> dict[str, Street]:
        names = self.names
        return {names[i]: s for i, s in enumerate(self.fold_streets) if s is not None}

    @property
    def cards(self) -> dict[str, list[Card | None]]:
        """Each dealt-in player's card slots, as written (None: unknown)."""
        names = self.names
        return {names[i]: cs for i, cs in enumerate(self.ledger.slots) if cs is not None}

    @property
    def community(self) -> Card | None:
        return self.ledger.community

    @property
    def current_bet(self) -> int:
        return self.bet

    @property
    def raises_this_street(self) -> int:
        """Raises after the street's bet (the completion counts as the bet)."""
        return max(0, self.wagers - 1)

    @property
    def deals_written(self) -> bool:
        """Whether the record wrote any deal (else the cards cannot be checked)."""
        return self.deals_seen

    def marked(self, mask: int, player: str) -> bool:
        """Whether the player's position is in `mask` (one of the masks above)."""
        i = self.index.get(player)
        return i is not None and bool(mask >> i & 1)

    def cards_of(self, player: str) -> list[Card | None] | None:
        """The player's card slots (None: not dealt in)."""
        i = self.index.get(player)
        return None if i is None else self.ledger.slots[i]

    def fold_street_of(self, player: str) -> Street | None:
        i = self.index.get(player)
        return None if i is None else self.fold_streets[i]

    def up_cards(self, player: str) -> tuple[Card, ...]:
        """The player's face-up cards so far, in the order dealt."""
        i = self.index.get(player)
        return () if i is None else self.ledger.up_cards(i)
