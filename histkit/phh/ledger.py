"""The betting bookkeeping PHH leaves to whoever reads or writes it.

A PHH action says less than a site's line: `cc` does not say how much, no line says a
street is over or a player all-in. Both directions need the same few facts, counted the
same way: what each player has put in on this street and has left, the bet standing, who
has acted since it was made, who is still in. These are the format's own rules of
counting (PokerKit's), not the rules engine's judgement: an illegal record is counted as
written and left to the audit.
"""

from __future__ import annotations

__all__ = ["Ledger"]


class Ledger:
    """One hand's chips, street by street."""

    __slots__ = ("stack", "live", "street", "street_in", "bet", "acted")

    def __init__(self, stacks: dict[str, int]) -> None:
        self.stack = dict(stacks)
        self.live = set(stacks)  # not folded
        self.street = 3
        self.street_in = dict.fromkeys(stacks, 0)
        self.bet = 0  # the street's highest total
        self.acted: set[str] = set()  # who has acted since the last wager

    def new_street(self, street: int) -> None:
        self.street = street
        self.street_in = dict.fromkeys(self.stack, 0)
        self.bet = 0
        self.acted = set()

    def dead(self, p: str, chips: int) -> None:
        """An ante: out of the stack, not part of the street's betting."""
        self.stack[p] -= chips

    def put(self, p: str, chips: int) -> None:
        """A bring-in or a call of `chips`."""
        self.stack[p] -= chips
        self.street_in[p] += chips
        self.acted.add(p)
        if self.street_in[p] > self.bet:
            self.bet = self.street_in[p]
            self.acted = {p}

    def wager_to(self, p: str, to: int) -> int:
        """A completion, bet or raise to a street total of `to`: the chips it puts in."""
        chips = to - self.street_in[p]
        self.stack[p] -= chips
        self.street_in[p] = to
        self.bet = max(self.bet, to)
        self.acted = {p}
        return chips

    def check(self, p: str) -> None:
        self.acted.add(p)

    def returned(self, p: str, chips: int) -> None:
        """An uncalled bet given back."""
        self.stack[p] += chips
        self.street_in[p] -= chips

    def uncalled(self) -> tuple[str, int] | None:
        """The street's bet nobody called: its bettor and the chips above the next
        highest total (None when there is none)."""
        top = max(self.street_in.values(), default=0)
        leaders = [p for p, v in self.street_in.items() if v == top]
        if top <= 0 or len(leaders) != 1:
            return None
        p = leaders[0]
        return p, top - max((v for q, v in self.street_in.items() if q != p), default=0)

    def fold(self, p: str) -> None:
        self.live.discard(p)

    def owed(self, p: str) -> int:
        """What `p` must put in to call (at most what they have)."""
        return max(0, min(self.bet - self.street_in[p], self.stack[p]))

    def round_over(self) -> bool:
        """Whether this street's betting is over: everyone still in with chips has acted
        since the last wager and owes nothing (with at most one such player and nothing
        owed, there is nobody to bet into)."""
        if len(self.live) <= 1:
            return True
        able = [p for p in self.live if self.stack[p] > 0]
        if len(able) <= 1 and all(self.street_in[p] >= self.bet for p in able):
            return True
        return all(p in self.acted and self.street_in[p] == self.bet for p in able)

    def all_in(self) -> bool:
        """Two or more players still in and at most one with chips left: the hand goes to
        its showdown now and the cards still to come are dealt after it (PHH's order)."""
        return len(self.live) > 1 and sum(1 for p in self.live if self.stack[p] > 0) <= 1
