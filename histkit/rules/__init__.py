"""The rules engine: replay a `Hand` under a `RuleProfile`, check every action and award.

Public API: `HandState` (the engine's state of one hand, advanced one fact at a time),
`replay()` -> `Replay` (immutable), `check_continuity()`, `RuleProfile` with the
`POKERSTARS` and `CASINO` profiles, games as data (`STUD`, `STUD_HILO`, `RAZZ`,
`STUD_HILO_NOQ`) and `Violation` records. Each rule has one home: `order` (who brings
in, who acts first, whose turn), `betting` (bet sizes, raises, the check of each action),
`ledger` (the cards), `pots` (pots and how each splits), `pending` (what may come next),
`awards` and `summary` (what the site paid and wrote, checked).
"""

from histkit.rules.continuity import check_continuity
from histkit.rules.games import RAZZ, STUD, STUD_HILO, STUD_HILO_NOQ, GameSpec, HighLow, spec_for
from histkit.rules.pending import Legal, Pending, PendingKind
from histkit.rules.phase import Phase
from histkit.rules.pots import Award, Half, Pot, Settlement
from histkit.rules.profile import CASINO, POKERSTARS, PROFILES, RuleProfile, load_profile
from histkit.rules.replay import Replay, replay
from histkit.rules.state import HandState
from histkit.rules.violations import Code, Severity, Violation, money

__all__ = [
    "RAZZ",
    "STUD",
    "STUD_HILO",
    "STUD_HILO_NOQ",
    "GameSpec",
    "HighLow",
    "spec_for",
    "Award",
    "Half",
    "Pot",
    "Settlement",
    "CASINO",
    "POKERSTARS",
    "PROFILES",
    "RuleProfile",
    "load_profile",
    "HandState",
    "Legal",
    "Pending",
    "PendingKind",
    "Phase",
    "Code",
    "Severity",
    "Violation",
    "money",
    "check_continuity",
    "replay",
    "Replay",
]
