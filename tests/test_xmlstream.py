"""Streaming XML: hands handed over one by one with their lines, context before them,
no root needed, the declared encoding not trusted, errors at their line."""

from __future__ import annotations

import pytest

from histkit.reading.xmlstream import XmlBreak, XmlError, iter_xml, iter_xml_items, looks_like_xml

SESSION = """<?xml version="1.0" encoding="utf-8"?>
<session code="1">
  <general><currency>EUR</currency></general>
  <game code="10">
    <round no="1"><action player="A" sum="\u20ac1"/></round>
  </game>
  <game code="11"><round no="1"/></game>
</session>
"""


def test_hands_and_context_in_document_order_with_lines() -> None:
    got = list(iter_xml(SESSION.split("\n"), frozenset({"game"})))
    assert [(k, e.tag, e.line) for k, e in got] == [
        ("context", "general", 3),
        ("hand", "game", 4),
        ("hand", "game", 7),
    ]
    game = got[1][1]
    (action,) = list(game.iter("action"))
    assert action.get("sum") == "\u20ac1" and action.line == 5
    assert got[0][1].findtext("currency") == "EUR"


def test_elements_without_a_root_are_read() -> None:
    text = '<description type="7-Stud"/>\n<game id="1"/>\n<game id="2"/>\n'
    got = list(iter_xml(text.split("\n"), frozenset({"game"})))
    assert [(k, e.tag, e.line) for k, e in got] == [
        ("context", "description", 1),
        ("hand", "game", 2),
        ("hand", "game", 3),
    ]


def test_a_broken_document_stops_at_its_line_after_the_good_hands() -> None:
    text = '<game id="1"/>\n<game id="2">\n<round>\n</game>\n'
    it = iter_xml(text.split("\n"), frozenset({"game"}))
    assert next(it)[1].get("id") == "1"
    with pytest.raises(XmlError) as e:
        list(it)
    assert e.value.line == 4


def test_looks_like_xml() -> None:
    assert looks_like_xml('\ufeff <?xml version="1.0"?>') and looks_like_xml("<game>")
    assert not looks_like_xml("PokerStars Hand #1")


def test_reading_starts_again_at_the_next_hand_after_a_break() -> None:
    text = SESSION.replace("</round>\n  </game>", "\n  </game>")  # a closing tag lost
    got = list(iter_xml_items(text.split("\n"), frozenset({"game"})))
    assert [(k, getattr(e, "tag", None), e.line) for k, e in got] == [
        ("context", "general", 3),
        ("break", None, 6),
        ("hand", "game", 7),
    ]
    broken = got[1][1]
    assert isinstance(broken, XmlBreak) and broken.hand is not None
    assert broken.hand.get("code") == "10" and "mismatched tag" in broken.message


def test_a_break_between_hands_and_at_the_end() -> None:
    text = '<s>\n<game id="1"/>\n<junk <<\n<x/>\n<game id="2"/>\n<game id="3">\n'
    got = list(iter_xml_items(text.split("\n"), frozenset({"game"})))
    kinds = [(k, e.line, getattr(e, "hand", None) is not None) for k, e in got]
    assert kinds == [
        ("hand", 2, False),
        ("break", 3, False),
        ("hand", 5, False),
        ("break", 7, True),  # the file ends inside hand 3 (its last line)
    ]
