"""Audit many hands: replay each under a profile, check stacks across hands, and tally.

This is the library behind `histkit audit`; the engine itself (one hand at a time) is
`histkit.rules`. Rejected hands are input errors, reported beside the violations.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from histkit.model import Hand
from histkit.rules import POKERSTARS, RuleProfile, Violation
from histkit.rules.continuity import check_continuity
from histkit.rules.replay import Replay, replay

__all__ = ["AuditReport", "audit", "replays"]


@dataclass(frozen=True)
class AuditReport:
    """Everything `histkit audit` prints: per-hand violations, input errors, tallies."""

    hands: int
    violations: tuple[Violation, ...]
    rejected: tuple[Any, ...] = ()  # the reader's ParseIssue records of kind "rejected"
    skipped: int = 0
    by_code: dict[str, int] = field(default_factory=dict)
    source_of: dict[str, str] = field(default_factory=dict)  # hand id -> "file:line"

    @property
    def errors(self) -> tuple[Violation, ...]:
        return tuple(v for v in self.violations if v.is_error)

    @property
    def clean(self) -> bool:
        return not self.errors

    def to_json(self, *, include_info: bool = False) -> dict[str, Any]:
        shown = self.violations if include_info else self.errors
        return {
            "hands": self.hands,
            "violations": [
                {
                    "hand_id": v.hand_id,
                    "code": str(v.code),
                    "severity": str(v.severity),
                    "street": None if v.street is None else int(v.street),
                    "line": v.line,
                    "expected": v.expected,
                    "reported": v.reported,
                    "message": v.message,
                    "source": self.source_of.get(v.hand_id),
                }
                for v in shown
            ],
            "by_code": dict(Counter(str(v.code) for v in shown)),
            "rejected": [
                {
                    "source_file": r.source_file,
                    "line": r.line,
                    "hand_id": r.hand_id,
                    "reason": r.reason,
                }
                for r in self.rejected
            ],
            "skipped": self.skipped,
        }


def replays(
    items: Iterable[Hand | Any], profile: RuleProfile = POKERSTARS
) -> Iterator[Replay | Any]:
    """Replay every hand of `items` (as `histkit.reader.iter_hands` yields); parse issues
    pass through unchanged, in input order."""
    for it in items:
        yield replay(it, profile) if isinstance(it, Hand) else it


def audit(
    items: Iterable[Hand | Replay | Any],
    profile: RuleProfile = POKERSTARS,
    *,
    continuity: bool = True,
) -> AuditReport:
    """Replay and audit hands (or take ready `Replay`s), then check stacks across hands."""
    done: list[Replay] = []
    rejected: list[Any] = []
    skipped_records: list[Any] = []
    for it in items:
        if isinstance(it, Hand):
            done.append(replay(it, profile))
        elif isinstance(it, Replay):
            done.append(it)
        elif getattr(it, "kind", None) == "skipped":
            skipped_records.append(it)
        else:
            rejected.append(it)
    found: list[Violation] = [v for r in done for v in r.violations]
    if continuity:
        found.extend(check_continuity([*done, *skipped_records], profile))
    order = {r.hand.hand_id: i for i, r in enumerate(done)}
    found.sort(key=lambda v: (order.get(v.hand_id, len(order)), v.line))
    return AuditReport(
        hands=len(done),
        violations=tuple(found),
        rejected=tuple(rejected),
        skipped=len(skipped_records),
        by_code=dict(Counter(str(v.code) for v in found if v.is_error)),
        source_of={r.hand.hand_id: f"{r.hand.source.file}:{r.hand.source.line}" for r in done},
    )
