"""Violation records: what the engine found wrong, in words an auditor can act on.

Codes are a stable contract (the `violations` table and `histkit audit` print them);
add new ones, never rename. The engine reports; it never repairs a hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from histkit.model import Street, Unit

__all__ = ["Code", "Severity", "Violation", "money", "street_name"]


class Code(StrEnum):
    BRING_IN_WRONG_PLAYER = "BRING_IN_WRONG_PLAYER"
    BRING_IN_AMOUNT = "BRING_IN_AMOUNT"
    BET_SIZE = "BET_SIZE"
    RAISE_SIZE = "RAISE_SIZE"
    # betting not reopened by a short all-in, or no opponent left who could call
    RAISE_NOT_ALLOWED = "RAISE_NOT_ALLOWED"
    CALL_AMOUNT = "CALL_AMOUNT"
    CHECK_FACING_BET = "CHECK_FACING_BET"
    OUT_OF_TURN = "OUT_OF_TURN"
    RAISE_CAP = "RAISE_CAP"
    ACTION_AFTER_FOLD = "ACTION_AFTER_FOLD"
    ACTION_AFTER_ALL_IN = "ACTION_AFTER_ALL_IN"
    ALL_IN_MARKER = "ALL_IN_MARKER"  # "and is all-in" missing or wrong
    OVER_STACK = "OVER_STACK"  # a player put in more chips than they had
    UNKNOWN_PLAYER = "UNKNOWN_PLAYER"
    ANTE = "ANTE"
    POT_TOTAL = "POT_TOTAL"
    AWARD_MISMATCH = "AWARD_MISMATCH"
    LOW_NOT_QUALIFIED = "LOW_NOT_QUALIFIED"
    NO_LOW_LINE = "NO_LOW_LINE"  # "No low hand qualified" printed wrongly or missing
    ODD_CHIP = "ODD_CHIP"
    RAKE = "RAKE"
    STACK_CONTINUITY = "STACK_CONTINUITY"
    CARD_DUPLICATE = "CARD_DUPLICATE"
    CARD_INCONSISTENT = "CARD_INCONSISTENT"
    COMMUNITY_CARD = "COMMUNITY_CARD"
    MISSING_DEAL = "MISSING_DEAL"
    UNCALLED_BET = "UNCALLED_BET"
    SUMMARY_MISMATCH = "SUMMARY_MISMATCH"
    MISSING_ACTION = "MISSING_ACTION"
    ACTION_AFTER_END = "ACTION_AFTER_END"  # betting after the hand or street was over
    UNCHECKABLE_SHOWDOWN = "UNCHECKABLE_SHOWDOWN"
    GARBLED_CARD = "GARBLED_CARD"  # the site wrote something that is not a card
    # the site wrote an amount with a minus sign: the action is read as that many chips put
    # in (the only thing a bet, call or raise can do), so the rest of the hand is checked
    NEGATIVE_AMOUNT = "NEGATIVE_AMOUNT"
    DEALS_NOT_RECORDED = "DEALS_NOT_RECORDED"  # a record with no deal lines (info)
    SHOWDOWN_ORDER = "SHOWDOWN_ORDER"  # someone else showed first than the profile says (info)
    LINE_NOT_UNDERSTOOD = "LINE_NOT_UNDERSTOOD"  # a line the hand was read without
    LINE_MISSING = "LINE_MISSING"  # a line the format requires that the record lacks


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@dataclass(frozen=True, slots=True)
class Violation:
    """One finding. `expected`/`reported` are plain values (ints in minor units or text).
    `seq`: its position among its hand's findings (None for a finding across hands, such
    as stack continuity); `caused_by`: the `seq` of the finding of the same hand this one
    follows from (`rules/causes.py`), None for a root cause and for what no rule links;
    `caused_by_hand`: for a finding across hands, the id of the earlier hand at the table
    whose damaged record it follows from (`rules/continuity.py`), None otherwise."""

    code: Code
    severity: Severity
    hand_id: str
    street: Street | None
    line: int
    expected: str | int | None
    reported: str | int | None
    message: str
    seq: int | None = None
    caused_by: int | None = None
    caused_by_hand: str | None = None

    @property
    def is_error(self) -> bool:
        return self.severity is not Severity.INFO

    @property
    def is_follow_on(self) -> bool:
        """It follows from another finding: of its own hand, or of a damaged hand before it."""
        return self.caused_by is not None or self.caused_by_hand is not None

    @property
    def is_root(self) -> bool:
        """A fault found on its own: an error or warning that follows from no other."""
        return not self.is_follow_on and self.severity is not Severity.INFO


_SYMBOLS = {"USD": "$", "EUR": "\u20ac", "GBP": "\u00a3"}


def money(amount: int, unit: Unit, currency: str | None = None) -> str:
    """Render minor units as a person reads them: $0.37 or 0.37€-style for cash (the
    currency's symbol, "$" when the hand names none, else its code after the amount), 150
    for chips."""
    if unit is Unit.CHIP:
        return str(amount)
    sign = "-" if amount < 0 else ""
    a = abs(amount)
    number = f"{a // 100}.{a % 100:02d}"
    if currency is None or currency in _SYMBOLS:
        return f"{sign}{_SYMBOLS.get(currency or 'USD')}{number}"
    return f"{sign}{number} {currency}"


_STREET_NAMES = {n: f"{n}{'rd' if n == 3 else 'th'} street" for n in range(3, 8)}


def street_name(street: int | None) -> str:
    """A street as a message names it ("5th street"); "the hand" when there is none."""
    return _STREET_NAMES.get(int(street or 3), "the hand")
