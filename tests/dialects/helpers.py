"""Helpers the site dialect tests share: parse a text as one site, take its one hand or
issue, count a hand's error codes, read a site's real folder once per module (or skip when
it is absent), and list a hand's actions as tuples."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from histkit.model import Hand, SourceRef
from histkit.reader import ParseIssue, iter_hands, parse_text, strictly
from histkit.rules import replay
from histkit.rules.profile import RuleProfile

Items = list[Hand | ParseIssue]


def parse_as(text: str, site: str | None, source: str = "t.txt", **kw: object) -> Items:
    """Every hand and issue of `text` read as `site` (None: found from the text)."""
    return parse_text(text, source=source, site=site, **kw)  # type: ignore[arg-type]


def only_hand(items: Items) -> Hand:
    """The one item of `items`, which must be a Hand."""
    assert len(items) == 1 and isinstance(items[0], Hand), items
    return items[0]


def only_issue(items: Items) -> ParseIssue:
    """The one item of `items`, which must be a ParseIssue."""
    assert len(items) == 1 and isinstance(items[0], ParseIssue), items
    return items[0]


def one_hand(text: str, site: str | None, source: str = "t.txt") -> Hand:
    """The one Hand of `text` read as `site`."""
    return only_hand(parse_as(text, site, source))


def one_issue(text: str, site: str | None, source: str = "t.txt") -> ParseIssue:
    """The one ParseIssue of `text` read as `site`."""
    return only_issue(parse_as(text, site, source))


def read_without(text: str, site: str | None, source: str = "t.txt") -> tuple[Hand, ParseIssue]:
    """`text`'s one hand read as `site` without a line it cannot read (it must have one:
    `Hand.gaps`), and the rejection a strict reading (`parse --strict`) gives it instead,
    at the first such line."""
    hand = one_hand(text, site, source)
    assert hand.gaps(), "the hand was read whole"
    issue = only_issue(list(strictly([hand])))
    assert issue.kind == "rejected" and issue.line == hand.gaps()[0].line
    assert (issue.source_file, issue.hand_id) == (source, hand.hand_id)
    return hand, issue


def parse_strictly(text: str, site: str | None, source: str = "t.txt") -> list[Hand | ParseIssue]:
    """`text` as a strict reading (`parse --strict`) gives it, after checking that the
    normal reading keeps every hand the strict one rejects for a line it reads without."""
    normal = parse_as(text, site, source)
    strict = list(strictly(normal))
    for n, x in zip(normal, strict, strict=True):
        assert isinstance(n, Hand) or n == x, n
    return strict


def strict_rejection(text: str, site: str | None, source: str = "t.txt") -> ParseIssue:
    """The rejection of `text`'s one hand by a strict reading, after checking that the
    normal reading keeps the hand, read without the line rejected (`read_without`)."""
    return read_without(text, site, source)[1]


def error_counts(h: Hand, profile: RuleProfile | None = None) -> Counter[str]:
    """How often each error code turns up when `h` is replayed under `profile` (default:
    the house rules of the hand's site)."""
    return Counter(v.code for v in replay(h, profile).errors)


def absent(folder: Path) -> str:
    """The skip reason for a real folder that is not there."""
    return f"../shared/hands/{folder.name} is absent (fresh clone without the corpus)"


def needs_folder(folder: Path) -> pytest.MarkDecorator:
    """A skip marker for tests that need the real folder `folder`."""
    return pytest.mark.skipif(not folder.is_dir(), reason=absent(folder))


def corpus_fixture(folder: Path, site: str | None = None) -> Callable[[], Items]:
    """A module-scoped fixture: every hand and issue of `folder` (read as `site`, or the
    site found from the text), or a skip when the folder is absent. Bind it to the name
    the tests ask for, e.g. `corpus = corpus_fixture(DIR)`."""

    @pytest.fixture(scope="module")
    def corpus() -> Items:
        if not folder.is_dir():
            pytest.skip(absent(folder))
        return list(iter_hands([folder], site=site))  # type: ignore[arg-type]

    return corpus


def hands_by_id(items: Items) -> dict[str, Hand]:
    """Hand id -> Hand for the hands of `items` (issues left out)."""
    return {h.hand_id: h for h in items if isinstance(h, Hand)}


def acts(h: Hand) -> list[tuple[object, ...]]:
    """Each action of `h` as (street, player, kind, amount, to_amount, all_in)."""
    return [(a.street, a.player, a.kind, a.amount, a.to_amount, a.all_in) for a in h.actions()]


def without_lines(hand: Hand) -> Hand:
    """The hand without source positions (a rewritten hand has new line numbers)."""

    def z(x: Any) -> Any:
        return replace(x, line=0)

    s = hand.summary
    if s is not None:
        s = replace(s, line=0, seats=tuple(z(r) for r in s.seats))
    return replace(
        hand,
        source=SourceRef("", 0),
        seats=tuple(z(x) for x in hand.seats),
        events=tuple(z(e) for e in hand.events),
        summary=s,
    )
