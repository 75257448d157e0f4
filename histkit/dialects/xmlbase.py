"""The base of the XML sites' dialects: a hand is an element, not a block of lines.

An XML dialect names the tag of a hand's element (`hand_tags`) and says from a file's first
text whether the file is its own (`detect_xml`). The reader streams the file through
`histkit.reading.xmlstream.iter_xml`; each hand's element, with the document's top-level
context elements seen before it, goes to `read_hand`, which reports the hand's facts to a
`HandSink` through the same `LineReader` conveniences a text dialect's handlers use
(amounts, cards, the unit). Errors name the file, the element's line and the hand.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from typing import ClassVar

from histkit.dialects.base import Dialect, HandBlock, ParseIssue
from histkit.dialects.builder import FrameError, HandError, LineReader
from histkit.dialects.sink import HandSink
from histkit.model import Hand, NoteKind
from histkit.reading.xmlstream import XmlBreak, XmlElement, iter_xml_items

__all__ = ["XmlDialect", "read_or_leave_out"]


def read_or_leave_out(sink: HandSink, elem: XmlElement, read: Callable[[], None]) -> None:
    """`read()` the play element `elem`; when its content is refused (an unknown action
    type, an amount that does not fit), the hand is read without it, as a text site's
    line (issue 24): a note of kind UNREAD, the element as written, and why a strict
    reading rejects the hand. The hand's frame (`FrameError`) still rejects it."""
    try:
        read()
    except FrameError:
        raise
    except HandError as e:
        attrs = "".join(f' {k}="{v}"' for k, v in elem.attrib.items())
        text = f"<{elem.tag}{attrs}>{elem.text.strip()}"
        text = text if len(text) <= 200 else text[:197] + "..."
        sink.note(NoteKind.UNREAD, None, text, e.line or elem.line, e.message)


class XmlDialect(Dialect):
    """A site whose hand histories are XML. Subclasses set `hand_tags` and implement
    `detect_xml`, `game_text_of` and `read_hand`."""

    hand_tags: ClassVar[frozenset[str]] = frozenset()

    def detect_xml(self, head: str) -> bool:
        """Whether a file whose first text is `head` (about 4 KB) is this site's."""
        return False

    def header_match(self, line: str) -> re.Match[str] | None:
        return None  # no line of a text file starts an XML site's hand

    def hand_id_of(self, elem: XmlElement) -> str | None:
        """The hand's id, for issues about it."""
        return None

    def game_text_of(self, elem: XmlElement, context: dict[str, XmlElement]) -> str | None:
        """The game as the file writes it (for the skip check); None when it cannot say."""
        return None

    def read_hand(self, r: LineReader, elem: XmlElement, context: dict[str, XmlElement]) -> None:
        """Report one hand's facts to `r.sink` (raise `HandError` for what is wrong)."""
        raise NotImplementedError

    def read_xml(self, lines: Iterable[str], source: str) -> Iterator[Hand | ParseIssue]:
        """Every hand or issue of one XML file's lines, in order."""
        context: dict[str, XmlElement] = {}
        seen = False
        for kind, item in iter_xml_items(lines, self.hand_tags):
            if isinstance(item, XmlBreak):
                issue = self.broken(item, source, seen=seen)
                if issue is not None:
                    seen = True
                    yield issue
            elif kind == "context":
                context[item.tag] = item
            else:
                seen = True
                yield self._hand(item, context, source)
        if not seen:
            yield ParseIssue(
                source, None, None, None, "rejected", "empty file: no hands in it", about_hand=False
            )

    def broken(self, at: XmlBreak, source: str, *, seen: bool) -> ParseIssue | None:
        """Where the XML stops being well-formed: the hand open there is rejected by its
        id (reading goes on at the next hand); a file that ends with only its outer
        elements left open, after hands, loses nothing and says nothing."""
        if at.hand is not None:
            hand_id = self.hand_id_of(at.hand)
            if at.at_end:
                why = "the file ends inside it (truncated?)"
            else:  # expat may notice only lines later: the hand's own line, and where
                why = f"{at.message} (line {at.line})"
            return ParseIssue(
                source, at.hand.line, None, hand_id, "rejected", f"hand not read: {why}"
            )
        if at.in_start_tag:  # (its id is not known: the tag was not read)
            why = "the file ends inside it (truncated?)" if at.at_end else at.message
            return ParseIssue(source, at.line, None, None, "rejected", f"hand not read: {why}")
        if at.at_end and seen:
            return None
        return ParseIssue(source, at.line, None, None, "rejected", at.message, about_hand=False)

    def _hand(
        self, elem: XmlElement, context: dict[str, XmlElement], source: str
    ) -> Hand | ParseIssue:
        hand_id = self.hand_id_of(elem)
        game = self.game_text_of(elem, context)
        if game is not None and game.upper() not in self.games:
            return ParseIssue(
                source, elem.line, None, hand_id, "skipped", f"other game: {game}", game=game
            )
        r = LineReader(self, HandBlock(elem.line, []), source)
        try:
            self.read_hand(r, elem, context)
            return r.sink.build()
        except HandError as e:
            return ParseIssue(source, e.line or elem.line, None, hand_id, "rejected", e.message)
        except (KeyError, ValueError) as e:  # a missing or malformed attribute
            return ParseIssue(
                source, elem.line, None, hand_id, "rejected", f"hand not understood: {e}"
            )
