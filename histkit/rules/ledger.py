"""The card ledger: which card sits in which slot of whose hand, and who holds each card.

Each player dealt in has seven slots (3rd street's three cards, then one a street), kept
as written (a card nobody saw is None); the board's community card is slot 6 of no one.
Every known card is recorded against its one holder, so a card dealt or shown twice is
found when it appears (CARD_DUPLICATE), and a repeat or a show that contradicts an earlier
card is CARD_INCONSISTENT. The ledger reports through the engine's `report` (the
violation carries the engine's street and line); it never repairs a card.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from histkit.cards import Card
from histkit.rules.violations import Code, Severity, street_name

__all__ = ["CardLedger", "up_layout"]

_UP_LAYOUTS: dict[tuple[bool, ...], tuple[tuple[int, ...], tuple[int, int] | None]] = {}


def up_layout(pattern: tuple[bool, ...]) -> tuple[tuple[int, ...], tuple[int, int] | None]:
    """The up-card slots of a game, and the same as a slice when they are contiguous."""
    got = _UP_LAYOUTS.get(pattern)
    if got is None:
        slots = tuple(i for i, up in enumerate(pattern[:7]) if up)
        lo = slots[0] if slots else 0
        contiguous = slots == tuple(range(lo, lo + len(slots)))
        got = _UP_LAYOUTS[pattern] = (slots, (lo, lo + len(slots)) if contiguous else None)
    return got


class CardLedger:
    """Cards by seat position and slot (`slots[i]` None: position i is not dealt in), the
    holder of each card by card index (`(i + 1) * 8 + slot`, the board's card `slot`;
    -1: not seen yet), and the community card."""

    __slots__ = ("names", "slots", "owner", "community", "pattern", "up_slots", "up_range", "v")

    def __init__(
        self, names: Sequence[str], pattern: tuple[bool, ...], report: Callable[..., Any]
    ) -> None:
        self.names = names
        self.slots: list[list[Card | None] | None] = [None] * len(names)
        self.owner = [-1] * 52
        self.community: Card | None = None
        self.pattern = pattern
        self.up_slots, self.up_range = up_layout(pattern)
        self.v = report

    # ------------------------------------------------------------------ reading
    def up_cards(self, i: int) -> tuple[Card, ...]:
        """Position i's face-up cards so far, in the order dealt."""
        cs = self.slots[i] or ()
        n = len(cs)
        return tuple(c for k in self.up_slots if k < n and (c := cs[k]) is not None)

    def board(self, i: int) -> Sequence[Card | None]:
        """Position i's up slots as dealt (None where unknown): what "acts first" ranks."""
        cs = self.slots[i] or []
        up = self.up_range
        if up is not None:
            return cs[up[0] : up[1]]
        return [c for k, c in enumerate(cs) if k in self.up_slots]

    def door(self, i: int) -> Card | None:
        """Position i's first known up card (3rd street's door card, for the bring-in)."""
        cs = self.slots[i] or ()
        n = len(cs)
        for k in self.up_slots:
            if k < n and (c := cs[k]) is not None:
                return c
        return None

    def dealt(self) -> int:
        """Cards out of the deck so far (unknown ones included), the community card too."""
        return sum(len(c) for c in self.slots if c is not None) + (1 if self.community else 0)

    def known(self, i: int) -> tuple[Card, ...] | None:
        """All of position i's cards when every one is known and none is there twice."""
        cs = self.slots[i]
        if not cs:
            return None
        mask = 0  # a bit per card index
        for c in cs:
            if c is None:
                return None
            mask |= 1 << c.index
        if mask.bit_count() != len(cs):
            return None
        return tuple(cs)  # type: ignore[arg-type]  # no None left

    # ------------------------------------------------------------------- deals
    def deal(
        self,
        i: int,
        street: int,
        cards: Sequence[Card | None],
        up: Sequence[bool],
        before: Sequence[Card | None],
        at: int | None,
    ) -> None:
        """One street's cards to position i (who is dealt in), after `before`, the earlier
        cards the line repeats, are checked; `at`: the street the hand is on (messages)."""
        mine = self.slots[i]
        assert mine is not None
        p = self.names[i]
        if before:
            self._check_before(i, mine, before)
        third = street == 3
        slots = 3 if third else 1
        new: Sequence[Card | None] = cards
        ups: Sequence[bool] = up
        if len(new) != slots:
            new, ups = list(new), list(ups)
            if len(new) < slots:  # only the up card was written: the rest are unknown downs
                pad = slots - len(new)
                unknown: list[Card | None] = [None] * pad
                new = unknown + new
                ups = [False] * pad + ups
            if len(new) > slots:
                self.v(
                    Code.CARD_INCONSISTENT,
                    f"{p} receives {len(new)} cards on {street_name(at)}, expected {slots}.",
                    blame=(i,),
                )
                new, ups = new[-slots:], ups[-slots:]
        start = 0 if third else street - 1
        if len(mine) != start:
            # earlier streets missing: keep slots aligned with unknown cards
            mine.extend([None] * (start - len(mine)))
            del mine[start:]
        pattern = self.pattern
        owners = self.owner
        slot = start
        base = (i + 1) * 8
        for c, u in zip(new, ups, strict=False):
            if c is None:
                mine.append(None)
            else:
                if slot < 7 and u != pattern[slot]:
                    self.v(
                        Code.CARD_INCONSISTENT,
                        f"{p}'s card {c} on {street_name(at)} is dealt {'up' if u else 'down'}; "
                        f"it must be dealt {'up' if pattern[slot] else 'down'}.",
                        blame=(i,),
                    )
                # the slot is new and empty: only a duplicate elsewhere can be wrong
                mine.append(c)  # as written (a duplicate stays visible on the board)
                owner = owners[c.index]
                if owner >= 0 and owner != base + slot:
                    self._duplicate(c, owner, i)
                else:
                    owners[c.index] = base + slot
            slot += 1

    def _check_before(self, i: int, mine: list[Card | None], before: Sequence[Card | None]) -> None:
        p = self.names[i]
        n = len(mine)
        if len(before) == n:
            if before == tuple(mine):
                return  # the usual case: the repeat matches what was dealt
            slots: Sequence[int] = range(n)
        else:
            up = self.up_range
            if up is not None and before == tuple(mine[up[0] : min(n, up[1])]):
                return
            slots = [k for k in self.up_slots if k < n]
            if len(before) != len(slots):
                self.v(
                    Code.CARD_INCONSISTENT,
                    f"{p}'s earlier cards are shown as [{' '.join(map(str, before))}], which "
                    f"does not match the {len(mine)} cards dealt before.",
                    reported=" ".join(map(str, before)),
                    blame=(i,),
                )
                return
        for k, c in zip(slots, before, strict=True):
            old = mine[k]
            if c is None:  # the line repeats a card the writer does not show
                continue
            if old is None:
                self.place(i, k, c)
            elif old is not c and old != c:
                self.v(
                    Code.CARD_INCONSISTENT,
                    f"{p}'s earlier card {k + 1} was {mine[k]}, now shown as {c}.",
                    expected=str(mine[k]),
                    reported=str(c),
                    blame=(i,),
                )

    def place(self, i: int, slot: int, c: Card) -> None:
        """A known card in position i's slot (i = -1: the community card), checked against
        what the slot held and against every other holder."""
        mine: list[Card | None] | None = None
        if i >= 0:
            mine = self.slots[i]
            assert mine is not None
            while len(mine) <= slot:
                mine.append(None)
            old = mine[slot]
            if old is not None and old is not c and old != c:
                self.v(
                    Code.CARD_INCONSISTENT,
                    f"{self.names[i]}'s card {slot + 1} was {old}, now shown as {c}.",
                    expected=str(old),
                    reported=str(c),
                    blame=(i,),
                )
                return
        owners = self.owner
        key = (i + 1) * 8 + slot
        owner = owners[c.index]
        if owner >= 0 and owner != key:
            self._duplicate(c, owner, i)
        else:
            owners[c.index] = key
        if mine is not None:
            mine[slot] = c  # as written (a duplicate stays visible on the board)

    def _duplicate(self, c: Card, owner: int, i: int) -> None:
        holder = owner // 8 - 1
        who = self.names[holder] if holder >= 0 else "the board"
        self.v(
            Code.CARD_DUPLICATE,
            f"The {c} is dealt twice: to {who} and to {self.names[i] if i >= 0 else 'the board'}.",
            reported=str(c),
        )

    def show(self, i: int, shown: tuple[Card, ...], deals_written: bool, source: str) -> None:
        """Merge a shown hand into position i's slots: slot by slot when it has as many
        cards as were dealt, else the new cards into the unknown slots; a show that
        contradicts the cards dealt is reported."""
        mine = self.slots[i]
        assert mine is not None
        p = self.names[i]
        dealt = len(mine)
        if not dealt and not deals_written and len(shown) <= 7:
            mine.extend([None] * len(shown))  # no deal lines: the show is all we know
            dealt = len(shown)
        if len(shown) == dealt:
            owners = self.owner
            base = (i + 1) * 8
            for slot, c in enumerate(shown):
                # a card already in place and recorded there needs nothing (the usual
                # show); anything else (a new card, a change, a duplicate) the full check
                if mine[slot] is not c or owners[c.index] != base + slot:
                    self.place(i, slot, c)
            return
        known = [c for c in mine if c is not None]
        missing = [c for c in known if c not in shown]
        if missing or len(shown) > dealt:
            self.v(
                Code.CARD_INCONSISTENT,
                f"{p} {source} [{' '.join(map(str, shown))}], which does not match the "
                f"{dealt} cards dealt to them.",
                reported=" ".join(map(str, shown)),
                blame=(i,),
            )
            return
        free = [k for k, c in enumerate(mine) if c is None]
        extra = [c for c in shown if c not in known]
        if len(extra) == len(free):
            for slot, c in zip(free, extra, strict=True):
                self.place(i, slot, c)
        elif len(shown) < dealt:  # the site left cards out: they stay unknown
            self.v(
                Code.CARD_INCONSISTENT,
                f"{p} {source} {len(shown)} cards [{' '.join(map(str, shown))}] but "
                f"was dealt {dealt}; the missing cards are unknown.",
                expected=dealt,
                reported=" ".join(map(str, shown)),
                severity=Severity.WARNING,
                blame=(i,),
            )
