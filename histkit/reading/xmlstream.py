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

__all__ = ["XmlElement", "XmlError", "iter_xml", "looks_like_xml"]

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
    """The XML is not well-formed at `line` (reading stops there: XML cannot resync)."""

    def __init__(self, message: str, line: int) -> None:
        super().__init__(message)
        self.line = line


def looks_like_xml(head: str) -> bool:
    """Whether a file's first text is XML markup (after blanks and a BOM)."""
    return head.lstrip("\ufeff \t\r\n\x00").startswith("<")


def iter_xml(lines: Iterable[str], hands: frozenset[str]) -> Iterator[tuple[str, XmlElement]]:
    """("hand", element) for each closed element whose tag is in `hands`, and ("context",
    element) for each other closed element at the top two levels that holds no hand, in
    document order. Raises `XmlError` at the first line that is not well-formed."""
    parser = expat.ParserCreate()
    stack: list[XmlElement] = []
    done: list[tuple[str, XmlElement]] = []
    holds_hand: list[bool] = []  # per open element: a hand was inside it

    def start(tag: str, attrib: dict[str, str]) -> None:
        elem = XmlElement(tag, attrib, parser.CurrentLineNumber)
        if stack:
            stack[-1].children.append(elem)
        stack.append(elem)
        holds_hand.append(False)

    def end(tag: str) -> None:
        elem = stack.pop()
        inner = holds_hand.pop()
        handed = True
        if elem.tag in hands:
            done.append(("hand", elem))
            if holds_hand:
                holds_hand[-1] = True
        elif not inner and 1 <= len(stack) <= 2 and not any(e.tag in hands for e in stack):
            done.append(("context", elem))
        else:
            handed = False
            if inner and holds_hand:
                holds_hand[-1] = True
        if handed and stack:
            stack[-1].children.pop()  # handed over (it is the last child): not kept

    def chars(data: str) -> None:
        if stack:
            stack[-1].text += data

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = chars
    try:
        parser.Parse(f"<{_ROOT}>", False)
        for i, line in enumerate(lines):
            if i == 0 or "<?xml" in line:
                line = _DECLARATION.sub("", line)
            parser.Parse(line + "\n", False)
            if done:
                yield from done
                done.clear()
        parser.Parse(f"</{_ROOT}>", True)
    except expat.ExpatError as e:
        yield from done
        raise XmlError(f"XML not well-formed: {expat.ErrorString(e.code)}", e.lineno or 1) from None
    yield from done
