"""Audit many hands: replay each under a profile, check stacks across hands, and tally.

This is the library behind `histkit audit`; the engine itself (one hand at a time) is
`histkit.rules`. Rejected hands are input errors, reported beside the violations.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from histkit.model import Hand
from histkit.rules import RuleProfile, Violation
from histkit.rules.continuity import StackRecord, check_continuity, stack_record
from histkit.rules.replay import Replay, replay

if TYPE_CHECKING:
    from histkit.parallel import ChunkResult

__all__ = ["AuditReport", "audit", "audit_paths", "replays", "tally_coverage"]


@dataclass(frozen=True)
class AuditReport:
    """Everything `histkit audit` prints: per-hand violations, input errors, tallies."""

    hands: int
    violations: tuple[Violation, ...]
    rejected: tuple[Any, ...] = ()  # the reader's ParseIssue records of kind "rejected"
    skipped: int = 0
    unknown: tuple[Any, ...] = ()  # ParseIssues of kind "unknown": files of no known site
    sites: tuple[str, ...] = ()  # the sites whose hands were audited
    # what could be checked: pots, pots_decided (winners settled by the cards), and
    # partly_checked (hands whose record let the audit check only part of them), with
    # those hands: (hand id, "file:line", what could not be checked)
    coverage: dict[str, int] = field(default_factory=dict)
    partly_checked: tuple[tuple[str, str, tuple[str, ...]], ...] = ()

    def checked_text(self) -> str:
        """One sentence: how much of the audited hands could be checked."""
        pots, decided = self.coverage.get("pots", 0), self.coverage.get("pots_decided", 0)
        partly = self.coverage.get("partly_checked", 0)
        if not self.hands:
            return "Nothing was checked: no hand was audited."
        if not partly:
            return f"Checked in full: every action and every one of the {pots:,} pots' awards."
        some = f"{partly:,} hand" + ("s" if partly != 1 else "")
        return (
            f"Checked in full: {self.hands - partly:,} of {self.hands:,} hands; the winners of "
            f"{decided:,} of {pots:,} pots; {some} only in part (the record leaves facts out: "
            "--info lists what each could not check)."
        )

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
            "coverage": {
                **self.coverage,
                "partly_checked_hands": [
                    {"hand_id": h, "source": where, "unchecked": list(what)}
                    for h, where, what in self.partly_checked
                ],
            },
            "unknown_files": [
                {"source_file": r.source_file, "reason": r.reason} for r in self.unknown
            ],
        }


def replays(
    items: Iterable[Hand | Any], profile: RuleProfile | None = None
) -> Iterator[Replay | Any]:
    """Replay every hand of `items` (as `histkit.reader.iter_hands` yields); parse issues
    pass through unchanged, in input order."""
    for it in items:
        yield replay(it, profile) if isinstance(it, Hand) else it


def tally_coverage(
    rp: Replay, counts: Counter[str], partly: list[tuple[str, str, tuple[str, ...]]]
) -> None:
    """Add one replay's coverage to an audit's counts (pots, pots whose winners the cards
    settle, hands checked only in part) and list it when it was checked only in part."""
    cov = rp.coverage
    counts["pots"] += cov.pots
    counts["pots_decided"] += cov.pots_decided
    if not cov.complete:
        counts["partly_checked"] += 1
        h = rp.hand
        partly.append((h.hand_id, f"{h.source.file}:{h.source.line}", cov.unchecked()))


class _Tally:
    """What an audit accumulates, whether hands arrive one by one or as worker results."""

    def __init__(self) -> None:
        self.hands = 0
        self.violations: list[Violation] = []
        self.rejected: list[Any] = []
        self.stacks: list[StackRecord] = []  # for stack continuity
        self.skipped: list[Any] = []
        self.unknown: list[Any] = []  # files of no known site's format
        self.sites: set[str] = set()
        self.sources: dict[str, str] = {}
        self.coverage: Counter[str] = Counter()
        self.partly: list[tuple[str, str, tuple[str, ...]]] = []

    def add_replay(self, rp: Replay) -> None:
        h = rp.hand
        self.hands += 1
        self.sites.add(h.site)
        tally_coverage(rp, self.coverage, self.partly)
        self.violations.extend(rp.violations)
        self.stacks.append(stack_record(rp))
        self.sources[h.hand_id] = f"{h.source.file}:{h.source.line}"

    def add_issue(self, issue: Any) -> None:
        if issue.kind == "skipped":
            self.skipped.append(issue)
        elif issue.kind == "unknown":
            self.unknown.append(issue)
        else:
            self.rejected.append(issue)

    def add_chunk(self, r: ChunkResult) -> None:
        self.hands += r.hands
        self.violations.extend(r.violations)
        self.rejected.extend(r.rejected)
        self.stacks.extend(r.stack_records)
        self.skipped.extend(r.skipped_records)
        self.unknown.extend(r.unknown)
        self.sites.update(site for site, _ in r.sites)
        self.coverage.update(r.coverage)
        self.partly.extend(r.partly_checked)
        self.sources.update(r.hand_sources)

    def report(self, profile: RuleProfile | None, continuity: bool) -> AuditReport:
        found = list(self.violations)
        if continuity:
            found.extend(check_continuity([*self.stacks, *self.skipped], profile))
        order = {hid: i for i, hid in enumerate(self.sources)}
        found.sort(key=lambda v: (order.get(v.hand_id, len(order)), v.line))
        return AuditReport(
            hands=self.hands,
            violations=tuple(found),
            rejected=tuple(self.rejected),
            skipped=len(self.skipped),
            unknown=tuple(self.unknown),
            sites=tuple(sorted(self.sites)),
            coverage=dict(self.coverage),
            partly_checked=tuple(self.partly),
            by_code=dict(Counter(str(v.code) for v in found if v.is_error)),
            source_of=dict(self.sources),
        )


def audit(
    items: Iterable[Hand | Replay | Any],
    profile: RuleProfile | None = None,
    *,
    continuity: bool = True,
) -> AuditReport:
    """Replay and audit hands (or take ready `Replay`s), then check stacks across hands."""
    tally = _Tally()
    for it in items:
        if isinstance(it, Hand):
            tally.add_replay(replay(it, profile))
        elif isinstance(it, Replay):
            tally.add_replay(it)
        else:
            tally.add_issue(it)
    return tally.report(profile, continuity)


def audit_paths(
    paths: Iterable[str | Path],
    profile: RuleProfile | None = None,
    *,
    jobs: int = 1,
    continuity: bool = True,
    site: str | None = None,
    on_progress: Callable[[int], None] | None = None,
) -> AuditReport:
    """Audit hand-history files or folders, replaying in `jobs` processes; the report is
    the same for any `jobs`. `profile` None: each hand under its site's house rules;
    `site` None: each hand's site detected from its text. `on_progress(n)` is called as
    each chunk of n hands is done."""
    from histkit.parallel import run

    tally = _Tally()
    for r in run(paths, jobs=jobs, site=site, tables=False, audit=True, profile=profile):
        tally.add_chunk(r)
        if on_progress is not None:
            on_progress(r.hands)
    return tally.report(profile, continuity)
