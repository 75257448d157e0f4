"""A site's own mistakes are read for what they say and the audit names them (issue 24
item 3): constructed hands written with each site's own writer, the mistake put in, read
back by that site's reader without a line left out."""

from __future__ import annotations

import importlib

import pytest

from histkit.dialects import get_dialect
from histkit.model import Action, ActionKind, Hand
from histkit.reader import parse_text
from histkit.rules import replay
from histkit.rules.violations import Code, Severity
from tests.stud_builder import build

SITES = ("pokerstars", "absolute", "bovada", "everleaf", "fulltilt", "kingsclub", "ongame",
         "partypoker", "winamax", "wpn", "merge", "ipoker")  # fmt: skip
XML = ("merge", "ipoker")
CURRENCY = {"winamax": "EUR"}  # Winamax writes euros only (Bovada dollars only)


def _written(site: str, h: Hand) -> Hand:
    """`h` written by `site`'s writer and read back by its reader (one hand)."""
    w = importlib.import_module(f"histkit.dialects.{site}_writer")
    if site in XML:
        items = list(get_dialect(site).read_xml(w.write_hands([h]).split("\n"), "m.xml"))  # type: ignore[attr-defined]
    else:
        items = parse_text(w.write_hand(h), source="m.txt", site=site)  # type: ignore[arg-type]
    assert len(items) == 1 and isinstance(items[0], Hand), items
    assert items[0].site == site
    return items[0]


# 3rd street at 4/8 with a bring-in of 2: B completes to 4, then C raises
SHORT = ("C raise 2 6; A fold; B call 2", 17)  # by 2, where a raise is by 4 (to 8)
FLAT = ("C raise 0 4; A fold", 13)  # to the bet itself: a raise that does not top it


@pytest.mark.parametrize("site", SITES)
@pytest.mark.parametrize(("play", "won"), [SHORT, FLAT], ids=["short", "flat"])
def test_a_raise_smaller_than_the_rules_allow_is_read_as_written(
    site: str, play: str, won: int
) -> None:
    """Every site's reader takes a raise smaller than the rules allow (short of a full
    raise, or not topping the bet at all) as the site wrote it, and the audit's one error
    is RAISE_SIZE on that raise's line."""
    h = build("7001", seats="A:1:200 B:2:200 C:3:200", ante=1,
              cards={"A": "?? ?? 2c", "B": "?? ?? Kh", "C": "?? ?? 9d"},
              streets={3: f"A bring_in 2; B complete 4 4; {play}", 4: "B check; C bet 4; B fold"},
              uncalled=("C", 4), collects=f"C:{won}",
              currency=CURRENCY.get(site, "USD"))  # fmt: skip
    back = _written(site, h)
    assert back.gaps() == ()
    c = next(s.player for s in back.seats if s.seat == 3)  # "C" (Bovada: "Seat+3")
    raises = [
        e
        for e in back.events
        if isinstance(e, Action) and e.player == c and e.kind is ActionKind.RAISE
    ]
    assert [r.to_amount for r in raises] == [6 if play == SHORT[0] else 4]
    errors = [v for v in replay(back).violations if v.severity is not Severity.INFO]
    assert [(v.code, v.line) for v in errors] == [(Code.RAISE_SIZE, raises[0].line)]
