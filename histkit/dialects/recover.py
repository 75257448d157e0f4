"""Reading a hand the grammar does not take whole: no hand is lost for one line.

A stud hand whose header and seats are readable is never rejected because a later line is
not understood (issue 24). When the grammar (or a line's handler) refuses a line after the
seats, the hand is read again through the grammar's line matcher (`fastpath.py`), walking
its states line by line:

- a line no terminal of the state takes (garbled, of a form the grammar does not know, or
  out of place) is left out and becomes a `NoteKind.UNREAD` note at its place, as written;
  so is a line whose handler refuses its content (an unknown player, an absurd amount);
  a street marker the hand cannot take where it stands (an earlier street's, or one
  repeated) is a site's mistake named as such, "a street marker out of order" (issue 24
  item 3). It is not read: the deals and bets around it say which street the hand is on,
  and going back a street would put them on another; the engine checks the rest as if
  the marker were not there, and its warning (LINE_NOT_UNDERSTOOD) names the marker;
- a line that is out of place only because one line before it is missing (a street or
  summary marker deleted, a total-pot line) is read, and the line the format requires
  there becomes a `NoteKind.MISSING` note naming it: nothing is invented, the missing
  line's content stays unknown (a missing street marker still moves the hand to its
  street, which the lines after it are on);
- a hand whose text stops before the format's end (cut short, or its last line left out)
  is read as far as it goes, with a `NoteKind.CUT` note naming what the format still
  requires.

The rules engine turns the notes into findings (`LINE_NOT_UNDERSTOOD`, `LINE_MISSING`) and
says what it could not check because of them. Each walk starts from scratch with the lines
decided so far (a handler that refused a line may have reported part of it), so a hand costs
one walk per line left out; only hands the normal path refused get here.

Rejection stays for what cannot be read: the lines before the first seat (the header),
a seat line, and a hand whose reading fails for another reason (`HandSink.build`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from histkit.dialects.builder import FrameError, HandError, LineReader, clip_line
from histkit.dialects.fastpath import Hit, LineMatcher, Row
from histkit.model import Hand, NoteKind, Street
from histkit.rules.violations import street_name

if TYPE_CHECKING:
    from histkit.dialects.base import Dialect, HandBlock

__all__ = ["read_leniently"]

# the street a street marker starts: a marker the record lacks still moves the hand on
_STREETS = {
    "STREET_3": Street.THIRD,
    "HOLE_CARDS": Street.THIRD,
    "STREET_4": Street.FOURTH,
    "STREET_5": Street.FIFTH,
    "STREET_6": Street.SIXTH,
    "STREET_7": Street.SEVENTH,
}
_SEAT = "SEAT"
_DEAL = "DEALT"  # the deal lines' terminals (DEALT, DEALT_DOWN)
_END_SEARCH = 6  # at most this many lines the format still requires at the hand's end
_TEXT = 200  # characters of an unread line kept in its note
_WALKS = 64  # a hand with more lines left out than this is not read


class _Reject(Exception):
    """The hand cannot be read: a header or seat line refused, or no way to its end."""


class _Again(Exception):
    """A line refused: walk the hand again with it left out (or a line missing before it)."""


def read_leniently(d: Dialect, block: HandBlock, source: str, header: re.Match[str]) -> Hand | None:
    """The hand of `block` read without the lines it cannot read (module doc); None when it
    cannot be read at all (then the caller rejects it with the normal path's reason)."""
    matcher = d.line_matcher()
    if matcher is None or matcher.first < 0:
        return None
    skip: dict[int, str] = {}  # block line index left out -> why
    missing: dict[int, str] = {}  # block line index -> the terminal missing before it
    refused: dict[int, str] = {}  # block line index -> why its handler first refused it
    for _ in range(min(len(block.lines), _WALKS) + 1):
        try:
            return _walk(d, matcher, block, source, header, skip, missing, refused)
        except _Again:
            continue
        except _Reject:
            return None
        except Exception:  # noqa: BLE001 - the header's handler or the build refused it
            return None
    return None


def _walk(
    d: Dialect,
    matcher: LineMatcher,
    block: HandBlock,
    source: str,
    header: re.Match[str],
    skip: dict[int, str],
    missing: dict[int, str],
    refused: dict[int, str],
) -> Hand:
    """One reading of the hand with the lines decided so far; `_Again` after deciding one
    more (added to `skip` or `missing`). A line refused where it is, then refused again
    after the street marker assumed missing before it, is left out for the first
    refusal's reason (`refused`)."""
    r = LineReader(d, block, source)
    sink = r.sink
    d.handlers[d.header_terminal](r, header, block.line_no(0))
    state = matcher.first
    seated = False  # a seat line was read: the lines after the seats may be left out
    seat_end = 0  # the block index of the last seat line read
    last = d.header_terminal
    for i in range(1, len(block.lines)):
        line = block.lines[i]
        line_no = block.line_no(i)
        if i in skip:
            text = line.rstrip()
            cut = text[:_TEXT] + ("..." if len(text) > _TEXT else "")
            sink.note(NoteKind.UNREAD, None, cut, line_no, skip[i])
            continue
        row = _row(matcher, state)
        if i in missing:
            name = missing[i]
            state = row[4][name]
            _assume(d, r, name, line, line_no)
            row = _row(matcher, state)
        hit = _read(matcher, row, line)
        if hit is None or row[4][hit[0]] < 0:
            if not seated or (last == _SEAT and _seat_like(d, line)):
                raise _Reject
            before = _missing_before(matcher, row, line) if i not in missing else None
            if before is not None:
                missing[i] = before
            else:
                why = _out_of_order(d, line, sink.street) or (
                    f"line not understood: {clip_line(line)}; expected {_expected(d, row)}"
                )
                _leave_out(i, why, skip, missing)
            raise _Again
        name, handler, m = hit
        try:
            handler(r, m, line_no)
        except Exception as e:  # noqa: BLE001 - a handler may count on the line kinds
            # before it (a line assumed missing is not there to read): the line is refused
            if not seated or name == _SEAT or isinstance(e, FrameError):
                raise _Reject from None
            at = _named(block, e, i, seat_end)
            if at is not None and at not in skip:
                # a check made on a later line (the pots once the rake is read) names the
                # line at fault: that line is left out, not the one that found it
                _leave_out(at, _refusal(e, block.lines[at]), skip, missing)
                raise _Again from None
            # only a deal of the next street tells that street's marker is missing: a
            # refused action is a wrong line, not a line of another street
            marker = None
            if i not in missing and name.startswith(_DEAL):
                marker = _street_before(matcher, row, line, sink.street)
            if marker is not None:
                missing[i] = marker  # (a deal of the next street, its marker missing)
                refused[i] = _refusal(e, line)
            else:
                _leave_out(i, refused.get(i) or _refusal(e, line), skip, missing)
            raise _Again from None
        state = row[4][name]
        last = name
        if name == _SEAT:
            seated, seat_end = True, i
    row = _row(matcher, state)
    if not row[2]:
        if not seated or last == _SEAT:  # (cut inside or right after its seat lines)
            raise _Reject
        wanted = "; ".join(d.terminal_labels.get(n, n) for n in _to_the_end(matcher, state))
        why = (
            f"hand ends early (truncated?) after {clip_line(block.lines[-1])}; "
            f"expected {_expected(d, row)}"
        )
        sink.note(NoteKind.CUT, None, wanted, block.end_line, why)
    return sink.build()


def _named(block: HandBlock, e: Exception, i: int, seat_end: int) -> int | None:
    """The block index of an earlier line after the seats that a handler's error at line
    i names as the one at fault; None when it names no such line."""
    at = e.line if isinstance(e, HandError) else None
    if at is None:
        return None
    for j in range(i - 1, seat_end, -1):
        if block.line_no(j) == at:
            return j
    return None


def _leave_out(i: int, why: str, skip: dict[int, str], missing: dict[int, str]) -> None:
    """Line i is read without (`why`): no line is assumed missing before it either."""
    skip[i] = why
    missing.pop(i, None)


def _out_of_order(d: Dialect, line: str, now: Street | None) -> str | None:
    """Why a street marker where the hand cannot take it is left out, in words that say
    so (issue 24 item 3: a site's street marker out of order is named, not called not
    understood); None for a line that is no street marker. The marker is not read: the
    hand's cards and bets stay on the street the lines before it put them on."""
    regex = d.compiled.line_regex
    text = line if line.endswith("\n") else line + "\n"  # (the terminals end in one)
    for name, street in _STREETS.items():
        rx = regex.get(name)
        if rx is not None and rx.match(text):
            where = f"on {street_name(now)}" if now is not None else "before 3rd street"
            return (
                f"a street marker out of order: {clip_line(line)} (the {street_name(street)} "
                f"marker) where the hand is {where}"
            )
    return None


def _expected(d: Dialect, row: Row) -> str:
    """What the state would have taken, in the dialect's words (as a rejection says)."""
    return d._labels(name for name, nxt in row[4].items() if nxt >= 0) or "the end of the hand"


def _refusal(e: Exception, line: str) -> str:
    """Why a handler refused a line, as a rejection words it."""
    if isinstance(e, HandError):
        return e.message
    if isinstance(e, (ValueError, OverflowError)):
        return f"line not understood: {clip_line(line)} ({e})"
    return f"line not understood here: {clip_line(line)}"


def _row(matcher: LineMatcher, state: int) -> Row:
    row = matcher.rows[state] or matcher.row(state)
    if row is None:  # more stack shapes than the matcher tracks: not read here
        raise _Reject
    return row


def _read(matcher: LineMatcher, row: Row, line: str) -> Hit | None:
    return row[3].get(line) or matcher.read(row, line)


def _seat_like(d: Dialect, line: str) -> bool:
    """Whether a line the seat list refused starts as the site's seat lines do (then it is
    an unreadable seat, and the hand is rejected)."""
    rx = d.compiled.line_regex.get(_SEAT)
    if rx is None:
        return False
    from histkit.dialects.fastpath import literals

    prefix, anchor = literals(rx)
    return (prefix is None or line.startswith(prefix)) and (anchor is None or anchor in line)


def _missing_before(matcher: LineMatcher, row: Row, line: str) -> str | None:
    """The one line kind whose absence puts `line` out of place: the first terminal (in
    the parser's order) after which the state takes the line; None when there is none."""
    return _taken_after(matcher, row, line, lambda name: name != _SEAT)


def _street_before(matcher: LineMatcher, row: Row, line: str, street: Street) -> str | None:
    """A later street's marker that the state takes, and after which it takes `line`: a
    line its handler refused on this street may be of the next one."""

    def later(name: str) -> bool:
        after = _STREETS.get(name)
        return after is not None and after > street

    return _taken_after(matcher, row, line, later)


def _taken_after(
    matcher: LineMatcher, row: Row, line: str, allowed: Callable[[str], bool]
) -> str | None:
    """The first terminal `allowed` (in the parser's order) that the state takes and after
    which the state takes `line`; None when there is none."""
    for name, nxt in row[4].items():
        if nxt < 0 or not allowed(name):
            continue
        after = matcher.rows[nxt] or matcher.row(nxt)
        if after is None:
            continue
        hit = _read(matcher, after, line)
        if hit is not None and after[4][hit[0]] >= 0:
            return name
    return None


def _to_the_end(matcher: LineMatcher, state: int) -> list[str]:
    """The fewest line kinds that take the hand from `state` to an end the format allows
    (breadth first, in the parser's order); `_Reject` when none is near."""
    frontier: list[tuple[int, list[str]]] = [(state, [])]
    seen = {state}
    for _ in range(_END_SEARCH):
        nxt_frontier: list[tuple[int, list[str]]] = []
        for s, path in frontier:
            row = _row(matcher, s)
            for name, nxt in row[4].items():
                if nxt < 0 or nxt in seen or name == _SEAT:
                    continue
                seen.add(nxt)
                after = _row(matcher, nxt)
                if after[2]:
                    return [*path, name]
                nxt_frontier.append((nxt, [*path, name]))
        frontier = nxt_frontier
    raise _Reject


def _assume(d: Dialect, r: LineReader, name: str, before: str, line: int) -> None:
    """A line of kind `name` the record lacks before the line `before` (at `line`): a note
    naming it (a street marker's street is the street of the lines after it)."""
    label = d.terminal_labels.get(name, name)
    r.sink.note(
        NoteKind.MISSING, None, label, line, f"{label} is missing before {clip_line(before)}"
    )
    street = _STREETS.get(name)
    if street is not None:
        r.sink.street = street
