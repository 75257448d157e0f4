"""STACK_CONTINUITY: a player's stack carries over from one hand to the next at a table.

At one table (same site, tournament id and table name), a player's starting stack must
equal their ending stack in the previous hand played there, unless the record shows why
not. Silence is preferred over a false alarm, so a pair of hands is compared only when
they are known to be consecutive: no skipped hand (another game of a mixed rotation)
between them in the same file, no join/leave/removal of the player, and — when the caller
gives no skipped-hand records — no change of game inside a mixed rotation.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from histkit.model import Hand, NoteKind, TableNote, Unit
from histkit.rules.profile import POKERSTARS, RuleProfile
from histkit.rules.replay import Replay, replay
from histkit.rules.violations import Code, Severity, Violation, money

__all__ = ["check_continuity"]

_EXCUSES = (NoteKind.JOIN, NoteKind.LEAVE, NoteKind.REMOVED, NoteKind.FINISHED)


def _order_key(h: Hand) -> tuple[Any, ...]:
    hid = int(h.hand_id) if h.hand_id.isdigit() else 0
    ts = h.started_at.timestamp() if h.started_at is not None else 0.0
    return (ts, hid, h.source.file, h.source.line)


def _noted(h: Hand, player: str) -> bool:
    return any(
        isinstance(e, TableNote) and e.player == player and e.kind in _EXCUSES for e in h.events
    )


def check_continuity(
    items: Iterable[Hand | Replay | Any], profile: RuleProfile = POKERSTARS
) -> list[Violation]:
    """Stack continuity over many hands. `items` may mix `Hand`s, `Replay`s and the
    parser's skipped-hand records (anything with kind == "skipped", source_file, line),
    which mark hands of other games that were played in between."""
    replays: list[Replay] = []
    gaps: dict[str, list[int]] = {}
    for it in items:
        if isinstance(it, Replay):
            replays.append(it)
        elif isinstance(it, Hand):
            replays.append(replay(it, profile))
        elif getattr(it, "kind", None) == "skipped" and getattr(it, "source_file", None):
            gaps.setdefault(str(it.source_file), []).append(int(it.line or 0))
    groups: dict[tuple[str, str | None, str], list[Replay]] = {}
    seen: set[tuple[str, str]] = set()
    for r in replays:
        h = r.hand
        if (h.site, h.hand_id) in seen:
            continue  # the same hand in two files is one hand
        seen.add((h.site, h.hand_id))
        groups.setdefault((h.site, h.tournament_id, h.table), []).append(r)
    out: list[Violation] = []
    for group in groups.values():
        group.sort(key=lambda r: _order_key(r.hand))
        for prev, cur in zip(group, group[1:], strict=False):
            if _gap_between(prev.hand, cur.hand, gaps):
                continue
            out.extend(_compare(prev, cur))
    return out


def _gap_between(a: Hand, b: Hand, gaps: dict[str, list[int]]) -> bool:
    if a.source.file == b.source.file:
        lines = gaps.get(a.source.file)
        if lines is not None:
            lo, hi = sorted((a.source.line, b.source.line))
            return any(lo < ln < hi for ln in lines)
    # no record of what was skipped: inside a mixed rotation a change of game may hide
    # hands of other games
    return bool(a.mix or b.mix) and a.game is not b.game and not gaps.get(a.source.file)


def _compare(prev: Replay, cur: Replay) -> list[Violation]:
    out = []
    ph, ch = prev.hand, cur.hand
    ends = dict(prev.final_stacks)
    for seat in ch.seats:
        p = seat.player
        if p not in ends or _noted(ph, p) or _noted(ch, p):
            continue
        if ends[p] != seat.stack:
            diff = seat.stack - ends[p]
            # a cash player may add chips between hands and PokerStars does not write it
            topup = diff > 0 and ch.unit is Unit.CENT
            out.append(
                Violation(
                    code=Code.STACK_CONTINUITY,
                    severity=Severity.WARNING if topup else Severity.ERROR,
                    hand_id=ch.hand_id,
                    street=None,
                    line=seat.line,
                    expected=ends[p],
                    reported=seat.stack,
                    message=(
                        f"{p} starts hand {ch.hand_id} with {money(seat.stack, ch.unit)}, but "
                        f"ended hand {ph.hand_id} at {ch.table} with "
                        f"{money(ends[p], ch.unit)} ({'+' if diff > 0 else '-'}"
                        f"{money(abs(diff), ch.unit)} unexplained"
                        + (", perhaps chips added between hands)." if topup else ").")
                    ),
                )
            )
    return out
