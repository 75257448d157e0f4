"""Root causes: which finding of a hand each later finding follows from.

One fault in a record shows up many times: a fold line missing makes its player's turn
come round on every street ("acts out of turn: it is P's turn", "P never acts", "no card
dealt to P", "P did not show", "the summary says P folded"), and a call line missing
leaves the pot short, so the pot total and the award disagree too. An auditor needs the
one problem, with its consequences beside it, not fifteen findings to untangle.

The engine reports each finding as before; `Causes.link` then says which earlier finding
of the same hand it follows from (`Violation.caused_by`, that finding's position in the
hand's findings), by three rules, tried in order:

1. the player: a finding about a player (`blame`: the player who should have acted and
   did not, or whose line is in question) follows from the first finding about that
   player;
2. the betting round: a finding about the betting of a street follows from the first
   finding about that street's betting (once the engine's picture of the round differs
   from the record's, who acts next and what a call costs differ too);
3. the pot: a finding about the pot, the awards or the summary follows from the first
   finding about the betting (the expected pots are computed from a betting record the
   engine already found wrong).

Before them, one rule overrides: every finding after a line the hand was read without
(`LINE_NOT_UNDERSTOOD`, `LINE_MISSING`) follows from the first such line. What that line
said is unknown, so the engine cannot tell a fault of the record after it from one of its
own reading of the record without it.

A finding none of them links is a root cause (an info record never is: it reports no
fault). A linked finding passes its root on to its player and street, so what follows
from a consequence follows from the same root. The grouping only says how findings
relate; every finding is still reported.
"""

from __future__ import annotations

from histkit.model import Street
from histkit.rules.violations import Code, Severity

__all__ = ["BETTING", "GAPS", "POT", "Causes"]

#: findings about a line the hand was read without: every later finding follows from it
GAPS = frozenset({Code.LINE_NOT_UNDERSTOOD, Code.LINE_MISSING})

#: findings about how a street's betting went
BETTING = frozenset(
    {
        Code.BRING_IN_WRONG_PLAYER,
        Code.BRING_IN_AMOUNT,
        Code.BET_SIZE,
        Code.RAISE_SIZE,
        Code.RAISE_NOT_ALLOWED,
        Code.CALL_AMOUNT,
        Code.CHECK_FACING_BET,
        Code.OUT_OF_TURN,
        Code.RAISE_CAP,
        Code.ACTION_AFTER_FOLD,
        Code.ACTION_AFTER_ALL_IN,
        Code.ACTION_AFTER_END,
        Code.ALL_IN_MARKER,
        Code.OVER_STACK,
        Code.MISSING_ACTION,
        Code.UNCALLED_BET,
        Code.ANTE,
        Code.NEGATIVE_AMOUNT,  # a wager written with a minus sign, read as its chips
    }
)
#: findings computed from the pots the betting made
POT = frozenset(
    {
        Code.POT_TOTAL,
        Code.AWARD_MISMATCH,
        Code.LOW_NOT_QUALIFIED,
        Code.NO_LOW_LINE,
        Code.ODD_CHIP,
        Code.RAKE,
        Code.SUMMARY_MISMATCH,
    }
)


class Causes:
    """The roots found so far in one hand, by player position and by street."""

    __slots__ = ("players", "streets", "betting", "gap")

    def __init__(self) -> None:
        self.players: dict[int, int] = {}  # position -> the root of findings about it
        self.streets: dict[Street | None, int] = {}  # street -> the root of its betting
        self.betting: int | None = None  # the first root about the betting
        self.gap: int | None = None  # the first line the hand was read without

    def link(
        self,
        index: int,
        code: Code,
        severity: Severity,
        street: Street | None,
        blame: tuple[int, ...],
    ) -> int | None:
        """The position of the finding that the finding at `index` follows from, None
        for a root cause (the rules in the module doc)."""
        players = self.players
        root = self.gap
        if root is None and code in GAPS:
            self.gap = index
        if root is not None:
            return None if severity is Severity.INFO else root
        root = next((players[i] for i in blame if i in players), None)
        betting = code in BETTING
        if root is None and betting:
            root = self.streets.get(street)
        if root is None and code in POT:
            root = self.betting
        if root is None and severity is Severity.INFO:
            return None  # an info record reports no fault: neither root nor consequence
        mine = index if root is None else root
        for i in blame:
            players.setdefault(i, mine)
        if betting:
            self.streets.setdefault(street, mine)
            if self.betting is None:
                self.betting = mine
        return root
