"""XML hand histories, streamed: each hand's element is built, handed over and dropped.

Some sites (iPoker, Merge) write XML, which is not a job for a line grammar. The standard
library's expat parser reads the file a line at a time (so a session file of any size
never sits whole in memory, and every element knows its line), and `iter_xml` hands over
each hand element once it is closed, with the document's other top-level elements (a
session's `<general>`, Merge's `<description>`) as context before it.

The text is decoded by the reading layer's rules, line by line (UTF-8, else cp1252: real
iPoker files declare UTF-8 and write the euro sign in cp1252), so the encoding the file
declares is not trusted; and the document is wrapped in a root of our own, because Merge
writes its elements one after the other with no root.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from xml.parsers import expat

__all__ = [
    "MAX_DEPTH",
    "MAX_ELEMENT",
    "XmlBreak",
    "XmlElement",
    "XmlError",
    "XmlItem",
    "iter_xml",
    "iter_xml_items",
    "looks_like_xml",
]

_DECLARATION = re.compile(r"<\?xml[^>]*\?>")
_ROOT = "histkit-document"


@dataclass(slots=True)
class XmlElement:
    """An element as written: tag, attributes, its own text, children, and the file line
    where it starts."""

    tag: str
    attrib: dict[str, str]
    line: int
    children: list[XmlElement] = field(default_factory=list)
    text: str = ""

    def get(self, key: str, default: str | None = None) -> str | None:
        return self.attrib.get(key, default)

    def find(self, tag: str) -> XmlElement | None:
        """The first child with this tag."""
        return next((c for c in self.children if c.tag == tag), None)

    def findall(self, tag: str) -> list[XmlElement]:
        return [c for c in self.children if c.tag == tag]

    def iter(self, tag: str) -> Iterator[XmlElement]:
        """Every element below (and including) this one with this tag, in document order."""
        if self.tag == tag:
            yield self
        for c in self.children:
            yield from c.iter(tag)

    def findtext(self, tag: str, default: str = "") -> str:
        got = self.find(tag)
        return got.text.strip() if got is not None else default


class XmlError(ValueError):
    """The XML is not well-formed at `line`."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line


@dataclass(slots=True)
class XmlBreak:
    """Where the XML stopped being well-formed: the file line, expat's reason, and the hand
    element that was open there as far as it was read (None between hands). Reading goes on
    at the next line where a hand element starts."""

    line: int
    message: str
    hand: XmlElement | None
    at_end: bool = False  # found when the input ended (a truncated file, an unclosed root)
    # where in the text fed last it broke (None: on an earlier line, or not known): a hand
    # opening there or after it on the same line is read (`</game><game ...>` on one line)
    column: int | None = None
    # it broke inside the start tag of a hand element (`hand` is None: the tag was never
    # read): a hand not read, whose id is not known
    in_start_tag: bool = False


XmlItem = tuple[str, "XmlElement | XmlBreak"]


def looks_like_xml(head: str) -> bool:
    """Whether a file's first text is XML markup (after blanks and a BOM)."""
    return head.lstrip("\ufeff \t\r\n\x00").startswith("<")


def iter_xml(lines: Iterable[str], hands: frozenset[str]) -> Iterator[tuple[str, XmlElement]]:
    """("hand", element) for each closed element whose tag is in `hands`, and ("context",
    element) for each other closed element at the top two levels that holds no hand, in
    document order. Raises `XmlError` at the first line that is not well-formed (see
    `iter_xml_items` to read on past it)."""
    for kind, item in iter_xml_items(lines, hands):
        if isinstance(item, XmlBreak):
            raise XmlError(item.message, item.line)
        yield kind, item


def iter_xml_items(lines: Iterable[str], hands: frozenset[str]) -> Iterator[XmlItem]:
    """As `iter_xml`, and ("break", `XmlBreak`) where the XML is not well-formed, after
    which reading starts afresh where a hand element opens next (after the break on its
    line, else on a later line), inside the elements that were open around the broken
    hand: one damaged hand never costs the hands after it (expat itself cannot go on
    past an error)."""
    opening = _opening(hands)
    numbered = enumerate(lines, 1)
    reader = _Reader(hands, [], 0)
    for no, line in numbered:
        if no == 1 or "<?xml" in line:
            line = _DECLARATION.sub("", line)
        broken = reader.feed(line)
        yield from reader.take()
        if broken is None:
            continue
        yield "break", broken
        # look for the next hand's opening, from the break on; start a parser there
        text = line
        while True:
            after = len(text) if broken.column is None else max(broken.column, 1)
            m = opening.search(text, after) if hands else None
            while m is None:
                got = next(numbered, None)
                if got is None:
                    return
                no, text = got
                m = opening.search(text) if hands else None
            reader = _Reader(hands, reader.around, no - 1)
            text = text[m.start() :]
            broken = reader.feed(text)
            yield from reader.take()
            if broken is None:
                break
            yield "break", broken
    broken = reader.close()
    yield from reader.take()
    if broken is not None:
        yield "break", broken


def _opening(hands: frozenset[str]) -> re.Pattern[str]:
    """Where a hand element's start tag begins."""
    return re.compile("<(?:" + "|".join(re.escape(t) for t in sorted(hands)) + r")[\s/>]")


#: the most a hand (or another element kept whole) may weigh, in characters as written:
#: real hands are under 8 KB; a bigger one is rejected, never held in memory whole
MAX_ELEMENT = 1 << 20
#: elements nested deeper than this are not read (the hand around them is rejected)
MAX_DEPTH = 64
_TOO_BIG = f"more than {MAX_ELEMENT // 1024:,} KB of XML in one element"
_TOO_DEEP = f"elements nested more than {MAX_DEPTH} deep"
# stands for each element inside one that is not read (so ends still match starts)
_SKIPPED = XmlElement("", {}, 0)


class _Reader:
    """One expat parser over a stretch of the file: from its start, or from the line where
    reading starts again after a break (`offset` file lines before it, the tags of the
    elements open around it re-opened first).

    Time and memory stay linear in the input: an element's text is collected in pieces
    and joined once, and kept only while the element has no children (the text between
    children is never read); a hand (else any element kept whole) that grows past
    `MAX_ELEMENT`, or nests past `MAX_DEPTH`, is not read further: it comes as a break
    (the hand rejected) when it closes, and the document goes on."""

    def __init__(self, hands: frozenset[str], around: list[str], offset: int) -> None:
        self.hands = hands
        self.offset = offset
        self.parser = parser = expat.ParserCreate()
        self.stack: list[XmlElement] = []
        self.texts: list[list[str] | None] = []  # per open element: its text's pieces
        self.sizes: list[int] = []  # per open element: what it and its kept children weigh
        self.done: list[XmlItem] = []
        self.holds_hand: list[bool] = []  # per open element: a hand was inside it
        self.fed = 0  # lines read
        # hand start tags in the lines read, and hand elements started (one fewer: a start
        # tag was not whole when the XML broke)
        self.opening = _opening(hands)
        self.opened = self.started = 0
        # the element not read further: (its index in `stack`, why, the line)
        self.over: tuple[int, str, int] | None = None
        parser.StartElementHandler = self._start
        parser.EndElementHandler = self._end
        parser.CharacterDataHandler = self._chars
        self.outside: list[str] | None = around if offset else None
        self.shift = len(f"<{_ROOT}>") + sum(len(t) + 2 for t in around)  # before line 1
        parser.Parse(f"<{_ROOT}>" + "".join(f"<{t}>" for t in around), False)

    @property
    def around(self) -> list[str]:
        """The tags of the elements open around the last hand that closed well (the
        session a hand sits in), else those outside the innermost open hand: a damaged
        hand may have left an element of its own open, which is no container."""
        if self.outside is not None:
            return self.outside
        return self._outside_hands()

    def _outside_hands(self) -> list[str]:
        """The open tags (our root apart) up to the first open hand element."""
        tags = [e.tag for e in self.stack[1:] if e is not _SKIPPED]
        inner = [i for i, t in enumerate(tags) if t in self.hands]
        return tags[: inner[0]] if inner else tags

    def feed(self, line: str) -> XmlBreak | None:
        self.fed += 1
        try:
            self.parser.Parse(line + "\n", False)
        except expat.ExpatError as e:
            return self._broken(e, line)
        if self.hands and "<" in line:
            self.opened += len(self.opening.findall(line))
        return None

    def close(self) -> XmlBreak | None:
        try:
            self.parser.Parse(f"</{_ROOT}>", True)
        except expat.ExpatError as e:
            broken = self._broken(e)
            broken.at_end = True
            return broken
        return None

    def take(self) -> list[XmlItem]:
        done, self.done = self.done, []
        return done

    def _broken(self, e: expat.ExpatError, text: str = "") -> XmlBreak:
        hand = next((x for x in reversed(self.stack) if x.tag in self.hands), None)
        line = min(e.lineno or 1, max(self.fed, 1)) + self.offset  # the end: its last line
        column = None
        if e.lineno == self.fed:  # on the line fed last
            column = max(e.offset - (self.shift if e.lineno == 1 else 0), 0)
        message = f"XML not well-formed: {expat.ErrorString(e.code)}"
        opened = self.opened  # and those before the break on the line it broke in
        if column is not None and self.hands:
            opened += len(self.opening.findall(text, 0, column))
        in_tag = hand is None and opened > self.started
        return XmlBreak(line, message, hand, column=column, in_start_tag=in_tag)

    def _line(self) -> int:
        return self.parser.CurrentLineNumber + self.offset

    def _start(self, tag: str, attrib: dict[str, str]) -> None:
        if tag in self.hands:
            self.started += 1
        stack = self.stack
        if self.over is None and len(stack) > MAX_DEPTH:
            self._stop(len(stack), _TOO_DEEP)
        if self.over is not None:
            stack.append(_SKIPPED)
            self.texts.append(None)
            self.sizes.append(0)
            self.holds_hand.append(False)
            return
        elem = XmlElement(tag, attrib, self._line())
        if stack:
            stack[-1].children.append(elem)
            self.texts[-1] = None  # its text: between children, never read
        stack.append(elem)
        self.texts.append([])
        self.sizes.append(2 * len(tag) + 5 + sum(len(k) + len(v) + 4 for k, v in attrib.items()))
        self.holds_hand.append(False)
        self._weigh(len(stack) - 1)

    def _stop(self, at: int, why: str) -> None:
        """Read nothing more of the element at `at` in the stack (`at` == its length: the
        one starting), or of the hand around it; what was kept of it is let go."""
        stack = self.stack
        hand = next(
            (i for i in range(min(at, len(stack) - 1), 0, -1) if stack[i].tag in self.hands), None
        )
        if hand is not None:
            at = hand
        if at < len(stack):
            stack[at].children.clear()
            self.texts[at] = None
        self.over = (at, why, self._line())

    def _weigh(self, at: int) -> None:
        """Stop reading the element at `at` (our root apart) once it weighs too much."""
        if at > 0 and self.over is None and self.sizes[at] > MAX_ELEMENT:
            self._stop(at, _TOO_BIG)

    def _end(self, tag: str) -> None:
        stack, holds_hand = self.stack, self.holds_hand
        elem = stack.pop()
        inner = holds_hand.pop()
        chunks = self.texts.pop()
        size = self.sizes.pop()
        over = self.over
        if over is not None:
            if len(stack) > over[0]:
                return  # inside what is not read
            if len(stack) == over[0]:  # it closes: a break, the hand named
                self.over = None
                hand = elem if elem.tag in self.hands else None
                self.done.append(("break", XmlBreak(over[2], over[1], hand)))
                if elem is not _SKIPPED and stack:
                    stack[-1].children.pop()
                if hand is not None:
                    self.outside = self._outside_hands()
                    if holds_hand:
                        holds_hand[-1] = True
                return
        if chunks:
            elem.text = chunks[0] if len(chunks) == 1 else "".join(chunks)
        handed = True
        if elem.tag in self.hands:
            self.done.append(("hand", elem))
            self.outside = self._outside_hands()
            if holds_hand:
                holds_hand[-1] = True
        elif not inner and 1 <= len(stack) <= 2 and not any(e.tag in self.hands for e in stack):
            self.done.append(("context", elem))
        else:
            handed = False
            if inner and holds_hand:
                holds_hand[-1] = True
            if self.sizes:
                self.sizes[-1] += size
                self._weigh(len(self.sizes) - 1)
        if handed and stack:
            stack[-1].children.pop()  # handed over (it is the last child): not kept

    def _chars(self, data: str) -> None:
        chunks = self.texts[-1] if self.texts else None
        if chunks is not None and self.over is None:
            chunks.append(data)
            self.sizes[-1] += len(data)
            self._weigh(len(self.sizes) - 1)
