"""The fast path: a line matcher compiled from the grammar's own LALR tables and terminals.

Lark's LALR parser stays the reference and the validating path; this module only makes the
common case cheap. Three facts about the grammar make that possible (DESIGN.md
"Performance"):

- every terminal matches exactly one whole line, so lexing is "classify each line";
- the rules only fix the order of line kinds and use no recursion but left-recursive lists,
  so the parser's stack takes finitely many shapes: the LALR automaton, run over line kinds,
  is a finite automaton (`LineMatcher.states`), computed here once per grammar by
  simulating Lark's own shift/reduce table on every terminal from every reachable stack;
- Lark's contextual lexer takes, among the terminals its parser state accepts, the first
  whose regex matches, in its own priority order; the matcher tries the same terminals in
  the same order, with the same regexes, so it classifies every line exactly as Lark does.

Cheap filters skip regexes that cannot match: a terminal whose regex starts with literal
text ("Seat ", "*** 4th STREET ***") is tried only on lines that start with it; the others
("<player>: calls ...") only on lines containing their longest required literal
(": calls "). Both literals are read from the regex's parse tree, never written here.

What the matcher does not decide, it leaves to Lark: a line no terminal matches, a line
kind out of place, a hand that ends early. The caller then re-parses the hand with LALR,
which produces the error message. No regex is written in this module.
"""

from __future__ import annotations

import dataclasses
import re
import threading
from collections.abc import Callable, Iterable, Mapping
from re import _parser as _sre_parse  # the standard library's regex parser
from typing import Any, TypeVar

import lark
from lark.parsers.lalr_analysis import Shift

__all__ = ["Candidate", "LineMatcher", "build_matcher", "constructor", "literals"]

_T = TypeVar("_T")

# (terminal, its compiled regex, literal prefix or None, required literal or None,
#  the matcher state after this line (-1: Lark would reject the hand here), handler)
Candidate = tuple[str, re.Pattern[str], str | None, str | None, int, Any]

_MAX_STATES = 5_000  # a grammar whose stacks grow without bound gets no fast path


# what the matcher keeps per state: candidates by a line's first character, candidates for
# any other first character, and whether the hand may end there
Row = tuple[dict[str, tuple[Candidate, ...]], tuple[Candidate, ...], bool]


class LineMatcher:
    """The LALR automaton run over line kinds, built lazily: a state (one parser stack
    shape) gets its row the first time a hand reaches it. The grammar allows thousands of
    stack shapes (each street with or without plays, ...), real hands reach a few hundred.
    Rows are only ever added, so threads may share a matcher."""

    __slots__ = ("rows", "_stacks", "_index", "_states", "_end", "_lexers", "_cands", "_lock")

    def __init__(
        self,
        states: Mapping[int, Mapping[str, tuple[Any, Any]]],
        start: int,
        end: int,
        lexers: Mapping[int, Any],
        cands: Mapping[str, tuple[re.Pattern[str], str | None, str | None, Any]],
    ) -> None:
        self._states = states
        self._end = end
        self._lexers = lexers
        self._cands = cands
        self._stacks: list[tuple[int, ...]] = [(start,)]
        self._index: dict[tuple[int, ...], int] = {(start,): 0}
        self._lock = threading.Lock()
        self.rows: list[Row | None] = [None]  # state 0: before the header

    def row(self, i: int) -> Row | None:
        """State i's row, built on first use; None when the grammar has more stack shapes
        than we are willing to track (the caller then uses Lark)."""
        got = self.rows[i]
        if got is not None:
            return got
        with self._lock:
            got = self.rows[i]
            if got is not None:
                return got
            stack = self._stacks[i]
            cands: list[Candidate] = []
            for t in self._lexers[stack[-1]].terminals:  # Lark's order for this state
                nxt = _stack_after(self._states, stack, t.name, self._end)
                j = -1
                if isinstance(nxt, tuple):
                    j = self._index.get(nxt, -1)
                    if j < 0:
                        if len(self._stacks) >= _MAX_STATES:
                            return None
                        j = self._index[nxt] = len(self._stacks)
                        self._stacks.append(nxt)
                        self.rows.append(None)
                rx, prefix, anchor, handler = self._cands[t.name]
                cands.append((t.name, rx, prefix, anchor, j, handler))
            ok = _stack_after(self._states, stack, "$END", self._end) is True
            other = tuple(c for c in cands if c[2] is None)
            firsts = {c[2][0] for c in cands if c[2] is not None}
            by_char = {
                ch: tuple(c for c in cands if c[2] is None or c[2][0] == ch) for ch in firsts
            }
            got = self.rows[i] = (by_char, other, ok)
            return got

    def after(self, terminal: str) -> int:
        """The state after a hand's first line of this kind (-1: not a first line)."""
        row = self.row(0)
        for c in row[1] if row else ():
            if c[0] == terminal:
                return c[4]
        for cs in row[0].values() if row else ():
            for c in cs:
                if c[0] == terminal:
                    return c[4]
        return -1


def literals(regex: re.Pattern[str]) -> tuple[str | None, str | None]:
    """(prefix, anchor) of a regex: the literal text every match starts with (None when it
    starts otherwise), and the longest literal text every match contains (None when there
    is none of two characters or more). Case-insensitive parts give no literals; line
    breaks are left out (the matcher tests lines without them)."""
    if regex.flags & re.IGNORECASE:
        return None, None
    try:
        tree = _sre_parse.parse(regex.pattern, regex.flags)
    except Exception:  # pragma: no cover - a pattern re compiled always parses
        return None, None
    runs: list[str] = []  # required contiguous literal runs, in order
    cur: list[str] = []
    at_start = True  # still in the leading literal run
    prefix: str | None = None

    def flush() -> None:
        nonlocal at_start, prefix
        text = "".join(cur)
        if at_start:
            prefix = text.split("\n")[0] or None
            at_start = False
        runs.extend(p for p in text.split("\n") if p)
        cur.clear()

    def walk(items: Iterable[tuple[Any, Any]]) -> None:
        for op, av in items:
            name = str(op)
            if name == "LITERAL":
                cur.append(chr(av))
            elif name == "SUBPATTERN" and not (av[1] & re.IGNORECASE):
                walk(av[3])  # a plain group: its content is required and contiguous
            else:
                flush()

    walk(tree)
    flush()
    anchor = max(runs, key=len, default=None)
    if anchor is not None and len(anchor) < 2:
        anchor = None
    return prefix, anchor


def _stack_after(
    states: Mapping[int, Mapping[str, tuple[Any, Any]]],
    stack: tuple[int, ...],
    terminal: str,
    end_state: int,
) -> tuple[int, ...] | bool | None:
    """Lark's `feed_token` without values: the stack after shifting `terminal` (reducing
    first as needed), None when the parser would raise, True when `$END` is accepted."""
    st = list(stack)
    is_end = terminal == "$END"
    while True:
        action = states[st[-1]].get(terminal)
        if action is None:
            return None
        kind, arg = action
        if kind is Shift:
            if is_end:
                return None
            st.append(arg)
            return tuple(st)
        size = len(arg.expansion)
        if size:
            del st[-size:]
        goto = states[st[-1]].get(arg.origin.name)
        if goto is None or goto[0] is not Shift:  # pragma: no cover - Lark asserts this
            return None
        st.append(goto[1])
        if is_end and st[-1] == end_state:
            return True


def build_matcher(
    parser: lark.Lark,
    regex: Mapping[str, re.Pattern[str]],
    handlers: Mapping[str, Callable[..., None]],
) -> LineMatcher | None:
    """The line matcher of a plain-lark LALR parser with the contextual lexer, or None when
    the parser is not one or a terminal has no regex or no handler."""
    try:
        frontend: Any = parser.parser
        table = frontend.parser.parser.parse_table
        lexers = frontend.lexer.lexers
        start_name = parser.options.start[0]
        start, end = table.start_states[start_name], table.end_states[start_name]
    except (AttributeError, KeyError, IndexError, TypeError):
        return None
    if any(t.name not in handlers or t.name not in regex for t in parser.terminals):
        return None
    cands = {
        t.name: (regex[t.name], *literals(regex[t.name]), handlers[t.name])
        for t in parser.terminals
    }
    return LineMatcher(table.states, start, end, lexers, cands)


def constructor(cls: type[_T]) -> Callable[..., _T]:
    """A positional constructor for a frozen, slotted dataclass that writes the slots
    through their member descriptors: the dataclass's own `__init__` goes through
    `object.__setattr__` once per field (to get past `frozen`), which costs ~1.2 us for a
    7-field event, half the time of building one. Same fields, same order, same object:
    `constructor(C)(*args) == C(*args)`. Classes with `__post_init__`, non-field slots
    or init=False fields get their own `__init__` back."""
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]
    names = [f.name for f in fields]
    slots = getattr(cls, "__slots__", ())
    if (
        hasattr(cls, "__post_init__")
        or tuple(slots) != tuple(names)
        or not all(f.init for f in fields)
    ):
        return cls
    env: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    for i, name in enumerate(names):
        env[f"_s{i}"] = getattr(cls, name).__set__
    args = ", ".join(names)
    defaults = ", ".join(f"{k}={k}" for k in env)
    body = "".join(f"    _s{i}(o, {name})\n" for i, name in enumerate(names))
    src = f"def make({args}, *, {defaults}):\n    o = _new(_cls)\n{body}    return o\n"
    scope: dict[str, Any] = {}
    exec(compile(src, f"<constructor {cls.__name__}>", "exec"), env, scope)  # noqa: S102
    make: Callable[..., _T] = scope["make"]
    make.__doc__ = f"{cls.__name__}(...) without the per-field object.__setattr__"
    return make
