"""STACK_CONTINUITY: a player's stack carries over from one hand to the next at a table.

At one table (same site, tournament id and table name), a player's starting stack must
equal their ending stack in the previous hand played there, unless the record shows why
not. Silence is preferred over a false alarm, so a pair of hands is compared only when
they are known to be consecutive: no skipped hand (another game of a mixed rotation)
between them in the same file, no join/leave/removal of the player, and — when the caller
gives no skipped-hand records — no change of game inside a mixed rotation, and, where the
site numbers each table's hands (`Hand.table_hand`), consecutive numbers. When most of
the players' stacks (three or more) moved at once, hands are missing between the two (a
file that is a selection of hands): that is one info record, not an error per player.
A hand the parser rejected between two hands of a file was played all the same: their
stacks are not compared, and where they differ the later hand says why, in one info
record, instead of reporting unexplained chips.

A hand whose own record is damaged in its chips (a line left out, written twice or out of
place: a finding about the betting, the pots or the awards that follows from no other)
ends with stacks the replay cannot vouch for, so the next hand at the table starts off
them. Its stack errors are still reported, but as follow-on findings of that hand
(`Violation.caused_by_hand`), as a finding inside a hand follows from its root cause: the
clean neighbour shows no problem of its own.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, NamedTuple

from histkit.model import Game, Hand, NoteKind, TableNote, Unit
from histkit.rules.causes import BETTING, GAPS, POT
from histkit.rules.profile import RuleProfile
from histkit.rules.replay import Replay, replay
from histkit.rules.violations import Code, Severity, Violation, money

__all__ = [
    "StackRecord",
    "check_continuity",
    "check_table",
    "gap_lines",
    "stack_record",
    "table_key",
    "table_order",
]

_EXCUSES = (NoteKind.JOIN, NoteKind.LEAVE, NoteKind.REMOVED, NoteKind.FINISHED)
#: findings about a hand's chips (or a line it was read without): a root cause among them
#: leaves its final stacks in doubt
_CHIPS = BETTING | POT | GAPS | {Code.UNKNOWN_PLAYER}


class StackRecord(NamedTuple):
    """What the check reads of one replayed hand: small and flat, so worker processes can
    send it back cheaply (`histkit --jobs`)."""

    site: str
    tournament_id: str | None
    table: str
    hand_id: str
    order: tuple[float, int]  # start time, hand number
    file: str
    line: int
    game: Game
    mix: str | None
    unit: Unit
    seats: tuple[tuple[str, int, int], ...]  # player, starting stack, seat line
    final: tuple[tuple[str, int], ...]  # player, ending stack
    noted: frozenset[str]  # players who joined, left, were removed or finished here
    table_hand: int | None = None  # the table's own hand count (`Hand.table_hand`)
    damaged: tuple[str, int] | None = None  # its first root cause about chips: code, line


def stack_record(rp: Replay) -> StackRecord:
    h = rp.hand
    noted = frozenset(
        e.player
        for e in h.events
        if isinstance(e, TableNote) and e.kind in _EXCUSES and e.player is not None
    )
    return StackRecord(
        site=h.site,
        tournament_id=h.tournament_id,
        table=h.table,
        hand_id=h.hand_id,
        order=(
            h.started_at.timestamp() if h.started_at is not None else 0.0,
            int(h.hand_id) if h.hand_id.isdigit() else 0,
        ),
        file=h.source.file,
        line=h.source.line,
        game=h.game,
        mix=h.mix,
        unit=h.unit,
        seats=tuple((s.player, s.stack, s.line) for s in h.seats),
        final=rp.final_stacks,
        noted=noted,
        table_hand=h.table_hand,
        damaged=_damage(rp),
    )


def _damage(rp: Replay) -> tuple[str, int] | None:
    """The hand's first root cause about chips (its code and line), None when its record
    of them is sound: what the next hand's stack errors follow from."""
    for v in rp.violations:
        if v.is_root and v.code in _CHIPS:
            return str(v.code), v.line
    return None


def check_continuity(
    items: Iterable[Hand | Replay | StackRecord | Any], profile: RuleProfile | None = None
) -> list[Violation]:
    """Stack continuity over many hands. `items` may mix `Hand`s, `Replay`s, their
    `StackRecord`s and the parser's skipped-hand records (anything with kind == "skipped",
    source_file, line), which mark hands of other games that were played in between, and
    records of rejected hands (kind == "rejected"), which the hand after them names."""
    records: list[StackRecord] = []
    others: list[Any] = []
    for it in items:
        if isinstance(it, StackRecord):
            records.append(it)
        elif isinstance(it, Replay):
            records.append(stack_record(it))
        elif isinstance(it, Hand):
            records.append(stack_record(replay(it, profile)))
        else:
            others.append(it)
    gaps, rejected = gap_lines(others)
    groups: dict[tuple[str, str | None, str], list[StackRecord]] = {}
    seen: set[tuple[str, str]] = set()
    for r in records:
        if (r.site, r.hand_id) in seen:
            continue  # the same hand in two files is one hand
        seen.add((r.site, r.hand_id))
        groups.setdefault(table_key(r), []).append(r)
    out: list[Violation] = []
    for group in groups.values():
        group.sort(key=table_order)
        out.extend(v for _, v in check_table(group, gaps, rejected))
    return out


def table_key(r: StackRecord) -> tuple[str, str | None, str]:
    """The table a hand was played at: its stacks carry over only there."""
    return (r.site, r.tournament_id, r.table)


def table_order(r: StackRecord) -> tuple[float, int, str, int]:
    """The order of a table's hands: start time, hand number, then where read."""
    return (*r.order, r.file, r.line)


def gap_lines(items: Iterable[Any]) -> tuple[dict[str, list[int]], dict[str, list[int]]]:
    """Where hands that were played but not replayed lie, per file: (skipped and rejected
    hands, rejected hands), from the parser's records (kind, source_file, line)."""
    gaps: dict[str, list[int]] = {}
    rejected: dict[str, list[int]] = {}
    for it in items:
        if getattr(it, "kind", None) in _GAPS and getattr(it, "source_file", None):
            gaps.setdefault(str(it.source_file), []).append(int(it.line or 0))
            if it.kind == "rejected":
                rejected.setdefault(str(it.source_file), []).append(int(it.line or 0))
    return gaps, rejected


def check_table(
    group: Iterable[StackRecord], gaps: dict[str, list[int]], rejected: dict[str, list[int]]
) -> Iterator[tuple[StackRecord, Violation]]:
    """Stack continuity at one table: its hands in `table_order`, one hand each (what
    `gap_lines` found between them excuses a pair); each finding with the hand it is
    about, yielded before the next hand is taken. Only two hands are held at a time, so
    the hands may come from a store on disk."""
    prev: StackRecord | None = None
    for cur in group:
        if prev is not None:
            found = (
                _after_rejected(prev, cur, rejected)
                if _gap_between(prev, cur, gaps)
                else _compare(prev, cur)
            )
            for v in found:
                yield cur, v
        prev = cur


_GAPS = ("skipped", "rejected")


def _after_rejected(
    prev: StackRecord, cur: StackRecord, rejected: dict[str, list[int]]
) -> list[Violation]:
    """One info record on `cur` when a rejected hand lies between it and `prev` in their
    file and stacks changed between them (the chips went where that hand sent them)."""
    if prev.file != cur.file:
        return []
    lo, hi = sorted((prev.line, cur.line))
    lines = [ln for ln in rejected.get(cur.file, ()) if lo < ln < hi]
    ends = dict(prev.final)
    changed = [p for p, stack, _ in cur.seats if p in ends and ends[p] != stack]
    if not lines or not changed:
        return []
    where = ", ".join(f"line {ln}" for ln in lines)
    return [
        _not_carried(
            cur,
            len(changed),
            f"{len(changed)} players' stacks changed between hand {prev.hand_id} and hand "
            f"{cur.hand_id} at {cur.table}, across the hand the parser rejected between "
            f"them ({where}): not compared.",
        )
    ]


def _not_carried(cur: StackRecord, changed: int, message: str) -> Violation:
    """The one info record that says why `cur`'s stacks are not compared with the hand
    before it at its table (`changed` of them moved)."""
    return Violation(
        code=Code.STACK_CONTINUITY,
        severity=Severity.INFO,
        hand_id=cur.hand_id,
        street=None,
        line=cur.seats[0][2] if cur.seats else cur.line,
        expected=None,
        reported=changed,
        message=message,
    )


def _gap_between(a: StackRecord, b: StackRecord, gaps: dict[str, list[int]]) -> bool:
    if a.table_hand is not None and b.table_hand is not None:
        return b.table_hand != a.table_hand + 1  # the site numbers the table's hands
    if a.file == b.file:
        lines = gaps.get(a.file)
        if lines is not None:
            lo, hi = sorted((a.line, b.line))
            return any(lo < ln < hi for ln in lines)
    # no record of what was skipped: inside a mixed rotation a change of game may hide
    # hands of other games
    return bool(a.mix or b.mix) and a.game is not b.game and not gaps.get(a.file)


def _compare(prev: StackRecord, cur: StackRecord) -> list[Violation]:
    out = []
    ends = dict(prev.final)
    excused = prev.noted | cur.noted
    both = [(p, stack, line) for p, stack, line in cur.seats if p in ends and p not in excused]
    changed = [p for p, stack, _ in both if ends[p] != stack]
    if len(changed) >= 3 and 2 * len(changed) >= len(both):
        # most of the table's stacks moved: hands are missing from the record between
        # the two (a file that is a selection of hands), not a fault of the site's
        return [
            _not_carried(
                cur,
                len(changed),
                f"{len(changed)} of {len(both)} players' stacks changed between hand "
                f"{prev.hand_id} and hand {cur.hand_id} at {cur.table}: hands seem to be "
                "missing from the record between them, so stacks are not carried over.",
            )
        ]
    for p, stack, line in cur.seats:
        if p not in ends or p in excused:
            continue
        if ends[p] != stack:
            diff = stack - ends[p]
            # a cash player may add chips between hands, and no site writes it: said (info),
            # not called a fault; chips that vanish are one
            topup = diff > 0 and cur.unit is Unit.CENT
            after = None if topup or prev.damaged is None else prev.hand_id
            out.append(
                Violation(
                    code=Code.STACK_CONTINUITY,
                    severity=Severity.INFO if topup else Severity.ERROR,
                    hand_id=cur.hand_id,
                    street=None,
                    line=line,
                    expected=ends[p],
                    reported=stack,
                    message=(
                        f"{p} starts hand {cur.hand_id} with {money(stack, cur.unit)}, but "
                        f"ended hand {prev.hand_id} at {cur.table} with "
                        f"{money(ends[p], cur.unit)} ({'+' if diff > 0 else '-'}"
                        f"{money(abs(diff), cur.unit)} unexplained"
                        + (", perhaps chips added between hands)." if topup else ").")
                        + ("" if after is None else _after_damaged(prev))
                    ),
                    caused_by_hand=after,
                )
            )
    return out


def _after_damaged(prev: StackRecord) -> str:
    """What a stack error says when the hand before it is damaged: that it follows from it."""
    code, line = prev.damaged or ("?", 0)
    return (
        f" It follows from hand {prev.hand_id}, whose record is damaged ({code} at line "
        f"{line}), so the stacks it ends with are in doubt."
    )
