"""The fast path: a line matcher compiled from the grammar's own LALR tables and terminals.

Lark's LALR parser stays the reference and the validating path; this module only makes the
common case cheap. Three facts about the grammar make that possible (docs/architecture.md
"Performance"):

- every terminal matches exactly one whole line and sees nothing beyond it (`line_local`,
  checked), so lexing is "classify each line", and a line's kind depends on the line and
  on the terminals tried, nothing else: it is memoised;
- the rules only fix the order of line kinds and use no recursion but left-recursive lists,
  so the parser's stack takes finitely many shapes: the LALR automaton, run over line kinds,
  is a finite automaton (`LineMatcher`), its states built lazily by simulating Lark's own
  shift/reduce table on each terminal from each stack a hand reaches;
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
from re import _compiler as _sre_compiler  # type: ignore[attr-defined]  # stdlib regex compiler
from re import _parser as _sre_parse  # the standard library's regex parser
from typing import Any, TypeVar

import lark
from lark.parsers.lalr_analysis import Shift

__all__ = [
    "Candidate",
    "LineMatcher",
    "build_matcher",
    "constructor",
    "line_local",
    "literals",
]

_T = TypeVar("_T")
_sre_compile: Callable[[Any, int], re.Pattern[str]] = _sre_compiler.compile

# (terminal, its compiled regex, literal prefix or None, required literal or None,
#  the matcher state after this line (-1: Lark would reject the hand here), handler)
Candidate = tuple[str, re.Pattern[str], str | None, str | None, int, Any]

_MAX_STATES = 5_000  # a grammar whose stacks grow without bound gets no fast path


# a line's reading: its terminal, that terminal's handler, its match (on the line + "\n")
Hit = tuple[str, Any, re.Match[str]]
# what the matcher keeps per state: candidates by a line's first character, candidates for
# any other first character, whether the hand may end there, lines already read by this
# state's lexer (shared by every state with the same terminals), and the state after each
# terminal (-1: Lark would reject the hand there)
Row = tuple[
    dict[str, tuple[Candidate, ...]],
    tuple[Candidate, ...],
    bool,
    dict[str, Hit],
    dict[str, int],
]

_MEMO_LINES = 16_384  # lines remembered per matcher (~4 MB); forgotten all at once when full


class LineMatcher:
    """The LALR automaton run over line kinds, built lazily: a state (one parser stack
    shape) gets its row the first time a hand reaches it. The grammar allows thousands of
    stack shapes (each street with or without plays, ...), real hands reach a few hundred.

    A line's reading depends only on the line and the terminals the state's lexer tries
    (terminals are line-local), so it is memoised per lexer: most lines of a session recur
    ("Hero: checks", "*** 3rd STREET ***", "P: posts the ante $0.01"), and a remembered line
    costs a dict lookup instead of a scan of the candidates and a regex match. Rows and
    memo entries are only ever added (or the memo dropped), so threads may share a
    matcher."""

    __slots__ = (
        "rows",
        "first",
        "_stacks",
        "_index",
        "_states",
        "_end",
        "_lexers",
        "_cands",
        "_lock",
        "_room",
        "_memos",
    )

    def __init__(
        self,
        states: Mapping[int, Mapping[str, tuple[Any, Any]]],
        start: int,
        end: int,
        lexers: Mapping[int, Any],
        cands: Mapping[str, tuple[re.Pattern[str], str | None, str | None, Any]],
        first_terminal: str,
    ) -> None:
        self._states = states
        self._end = end
        self._lexers = lexers
        self._cands = cands
        self._stacks: list[tuple[int, ...]] = [(start,)]
        self._index: dict[tuple[int, ...], int] = {(start,): 0}
        self._lock = threading.Lock()
        self._room = _MEMO_LINES
        self._memos: dict[int, dict[str, Hit]] = {}  # id(Lark lexer) -> its lines read
        self.rows: list[Row | None] = [None]  # state 0: before the header
        row = self.row(0)
        # the state after a hand's first line (the header), -1 when that cannot start one
        self.first = next((c[4] for c in (row[1] if row else ()) if c[0] == first_terminal), -1)
        if row is not None and self.first < 0:
            for cs in row[0].values():
                self.first = next((c[4] for c in cs if c[0] == first_terminal), self.first)

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
            lexer = self._lexers[stack[-1]]
            for t in lexer.terminals:  # Lark's order for this state
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
            memo = self._memos.setdefault(id(lexer), {})
            nexts = {c[0]: c[4] for c in cands}
            got = self.rows[i] = (by_char, other, ok, memo, nexts)
            return got

    def read(self, row: Row, line: str) -> Hit | None:
        """A line the row's memo does not know: the first terminal in Lark's order whose
        regex matches it (literal filters first), remembered; None when Lark would reject
        the hand here (no terminal matches it)."""
        text = line + "\n"
        # the loop variables are read after the break: the first match wins, as in Lark
        for name, rx, prefix, anchor, _nxt, handler in row[0].get(line[:1], row[1]):  # noqa: B007
            if prefix is not None:
                if not line.startswith(prefix):
                    continue
            elif anchor is not None and anchor not in line:
                continue
            m = rx.match(text)
            if m is not None:
                break
        else:
            return None
        if m.end() != len(text):  # pragma: no cover - line-local terminals end at "\n"
            return None
        hit = (name, handler, m)
        if self._room <= 0:
            self._room = _MEMO_LINES
            for memo in self._memos.values():
                memo.clear()
        self._room -= 1
        row[3][line] = hit
        return hit


# each terminal's regex as the standard library parses it: `line_local` and `literals` both
# read it, and parsing is most of what building a matcher costs at start-up
_PARSED: dict[tuple[str, int], Any] = {}


def _parsed(regex: re.Pattern[str]) -> Any:
    """The regex's parse tree (shared: nothing here changes it), or None."""
    key = (regex.pattern, regex.flags)
    tree = _PARSED.get(key)
    if tree is None:
        try:
            tree = _PARSED[key] = _sre_parse.parse(regex.pattern, regex.flags)
        except Exception:  # pragma: no cover - a pattern re compiled always parses
            return None
    return tree


def literals(regex: re.Pattern[str]) -> tuple[str | None, str | None]:
    """(prefix, anchor) of a regex: the literal text every match starts with (None when it
    starts otherwise), and the longest literal text every match contains (None when there
    is none of two characters or more). Case-insensitive parts give no literals; line
    breaks are left out (the matcher tests lines without them)."""
    if regex.flags & re.IGNORECASE:
        return None, None
    tree = _parsed(regex)
    if tree is None:  # pragma: no cover - a pattern re compiled always parses
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


def line_local(regex: re.Pattern[str]) -> bool:
    """Whether a terminal's regex only ever matches within one line, ending with its line
    break: nothing in it but a final "\\n" can match a line break, and it has no anchors or
    lookbehinds (which could see the line before). Then matching a line on its own gives
    what Lark's lexer gets in the whole text, and a line's kind depends on the line alone
    (so the matcher may memoise it)."""
    tree = _parsed(regex)
    if tree is None:  # pragma: no cover - a pattern re compiled always parses
        return False
    items = list(tree)
    if len(items) == 1 and str(items[0][0]) == "SUBPATTERN":  # a flags group: (?i:...)
        group, add, remove, inner = items[0][1]
        flags = (regex.flags | add) & ~remove
        items = list(inner)
    else:
        flags = regex.flags
    if not items or items[-1] != (_sre_parse.LITERAL, 10):
        return False
    return _no_line_break(tree.state, items[:-1], flags)


_LEAVES = {"LITERAL", "NOT_LITERAL", "IN", "ANY", "CATEGORY"}
# whether a leaf matches a line break, by (kind, value, flags): the grammars repeat a few
# dozen leaves over a thousand times, and compiling each costs start-up time
_LEAF_BREAKS: dict[tuple[str, str, int], bool] = {}


def _no_line_break(state: Any, items: Iterable[tuple[Any, Any]], flags: int) -> bool:
    for op, av in items:
        name = str(op)
        if name in _LEAVES:
            key = (name, repr(av), flags)
            breaks = _LEAF_BREAKS.get(key)
            if breaks is None:
                one = _sre_parse.SubPattern(state, [(op, av)])
                breaks = _LEAF_BREAKS[key] = bool(_sre_compile(one, flags).fullmatch("\n"))
            if breaks:
                return False
        elif name in ("ASSERT", "ASSERT_NOT"):
            if av[0] < 0 or not _no_line_break(state, av[1], flags):  # lookbehind: no
                return False
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            if not _no_line_break(state, av[2], flags):
                return False
        elif name == "SUBPATTERN":
            if not _no_line_break(state, av[3], (flags | av[1]) & ~av[2]):
                return False
        elif name == "BRANCH":
            if not all(_no_line_break(state, alt, flags) for alt in av[1]):
                return False
        elif name == "ATOMIC_GROUP":
            if not _no_line_break(state, av, flags):
                return False
        else:  # anchors, back references, conditionals: not worth proving
            return False
    return True


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
    first_terminal: str,
) -> LineMatcher | None:
    """The line matcher of a plain-lark LALR parser with the contextual lexer, or None when
    the parser is not one, a terminal has no regex or no handler, or a terminal is not
    line-local. `first_terminal` is the hand's first line (the header)."""
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
    if not all(line_local(regex[t.name]) for t in parser.terminals):
        return None
    cands = {
        t.name: (regex[t.name], *literals(regex[t.name]), handlers[t.name])
        for t in parser.terminals
    }
    return LineMatcher(table.states, start, end, lexers, cands, first_terminal)


def constructor(cls: type[_T], *, twin: bool = True) -> Callable[..., _T]:
    """A faster constructor for a frozen, slotted dataclass, same arguments, same object:
    `constructor(C)(*args) == C(*args)` and `type(...) is C`.

    The dataclass's own `__init__` writes each field with `object.__setattr__` (to get past
    `frozen`): ~1.2 us for a 7-field event, more than half of what reading its line costs.
    The constructor is a twin class with the same slots whose `__init__` stores the fields
    as plain slot writes and then sets `__class__` to the real class (Python allows that
    between classes of identical layout); the object is an ordinary instance of `cls`
    from then on. Checked once here with a probe; if Python refuses the switch, slot
    writes through the member descriptors are used instead. Classes with `__post_init__`,
    extra slots, init=False fields or default factories keep their own `__init__`. Field
    defaults are the dataclass's. `twin=False`: descriptors."""
    fields = dataclasses.fields(cls)  # type: ignore[arg-type]
    names = [f.name for f in fields]
    if (
        hasattr(cls, "__post_init__")
        or tuple(getattr(cls, "__slots__", ())) != tuple(names)
        or not all(f.init and f.default_factory is dataclasses.MISSING for f in fields)
    ):
        return cls
    defaults = {f"_d_{f.name}": f.default for f in fields if f.default is not dataclasses.MISSING}
    args = ", ".join(f"{n}=_d_{n}" if f"_d_{n}" in defaults else n for n in names)
    stores = "".join(f"        self.{n} = {n}\n" for n in names)
    src = (
        f"class {cls.__name__}:\n"
        f"    __slots__ = {tuple(names)!r}\n"
        f"    def __init__(self, {args}):\n{stores}        self.__class__ = _cls\n"
    )
    make: Callable[..., _T] = _compile_constructor(src, cls, cls.__name__, **defaults)
    probe = [object() for _ in names]
    try:
        if not twin:
            raise TypeError("twin class not wanted")
        made = make(*probe)
        ok = type(made) is cls and all(
            getattr(made, n) is v for n, v in zip(names, probe, strict=True)
        )
    except TypeError:  # "object layout differs": write the slots through descriptors
        ok = False
    if not ok:
        setters = "".join(f"    _{n}(o, {n})\n" for n in names)
        keywords = ", ".join(f"_{n}=_{n}" for n in names)
        head = f"def make({args}, *, _new=_new, {keywords}):\n    o = _new(_cls)\n"
        src = f"{head}{setters}    return o\n"
        extra = {f"_{n}": getattr(cls, n).__set__ for n in names}
        make = _compile_constructor(src, cls, "make", _new=object.__new__, **extra, **defaults)
    return make


def _compile_constructor(src: str, cls: type, name: str, **env: Any) -> Any:
    scope: dict[str, Any] = {"_cls": cls, **env}
    exec(compile(src, f"<constructor {cls.__name__}>", "exec"), scope)  # noqa: S102
    return scope[name]
