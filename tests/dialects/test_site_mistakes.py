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


def _winamax_hand() -> str:
    """A Winamax cash hand written by its writer: a bet, calls and a raise to sign."""
    from histkit.dialects.winamax_writer import write_hand

    h = build("7002", seats="A:1:200 B:2:200 C:3:200", ante=1,
              cards={"A": "?? ?? 2c", "B": "?? ?? Kh", "C": "?? ?? 9d"},
              streets={3: "A bring_in 2; B complete 4 4; C call 4; A fold",
                       4: "B check; C bet 4; B call 4", 5: "B bet 8; C raise 8 16; B call 8"},
              collects="C:53", currency="EUR")  # fmt: skip
    return write_hand(h)


@pytest.mark.parametrize(
    ("line", "signed"),
    [
        ("C calls 0.04€", "C calls -0.04€"),
        ("C bets 0.04€", "C bets -0.04€"),
        ("B calls 0.08€", "B calls -0.08€"),
        ("C raises 0.08€ to 0.16€", "C raises -0.08€ to 0.16€"),
    ],
)
def test_a_winamax_amount_with_a_minus_sign_is_read_and_named(line: str, signed: str) -> None:
    """Winamax's negative amount (FPDB's action pattern allows the sign): the wager is read
    as the chips it can only put in, no line left out, and the audit's one error is
    NEGATIVE_AMOUNT on that line, naming the line as written."""
    text = _winamax_hand()
    assert text.count(f"\n{line}\n") == 1, text
    clean = parse_text(text, source="w.txt")
    signed_items = parse_text(text.replace(f"\n{line}\n", f"\n{signed}\n"), source="w.txt")
    (h,) = signed_items
    assert isinstance(h, Hand) and h.gaps() == ()
    (c,) = clean
    assert isinstance(c, Hand)
    acts = [(a.player, a.kind, a.amount, a.to_amount) for a in h.events if isinstance(a, Action)]
    assert acts == [
        (a.player, a.kind, a.amount, a.to_amount) for a in c.events if isinstance(a, Action)
    ]
    lineno = text.split("\n").index(line) + 1
    errors = [v for v in replay(h).violations if v.severity is not Severity.INFO]
    assert [(v.code, v.line, v.reported) for v in errors] == [
        (Code.NEGATIVE_AMOUNT, lineno, signed)
    ]
    assert replay(c).errors == ()


TEXT_SITES = tuple(s for s in SITES if s not in XML)


@pytest.mark.parametrize("site", TEXT_SITES)
def test_a_street_marker_out_of_order_is_named(site: str) -> None:
    """A 4th-street marker written again on 5th street (the site's mistake) is left out,
    and the audit's warning names it as a street marker out of order, not as a line not
    understood; the hand is read otherwise whole, the rest of it checked clean."""
    w = importlib.import_module(f"histkit.dialects.{site}_writer")
    h = build("7003", seats="A:1:200 B:2:200 C:3:200", ante=1,
              cards={"A": "?? ?? 2c", "B": "?? ?? Kh", "C": "?? ?? 9d"},
              streets={3: "A bring_in 2; B complete 4 4; C call 4; A fold",
                       4: "B check; C check", 5: "B bet 8; C call 8", 6: "B bet 8; C fold"},
              uncalled=("B", 8), collects="B:29", currency=CURRENCY.get(site, "USD"))  # fmt: skip
    text = w.write_hand(h)
    lines = text.split("\n")
    rx = get_dialect(site).compiled.line_regex
    (fourth,) = [i for i, t in enumerate(lines) if rx["STREET_4"].match(t + "\n")]
    (sixth,) = [i for i, t in enumerate(lines) if rx["STREET_6"].match(t + "\n")]
    lines.insert(sixth, lines[fourth])
    (back,) = parse_text("\n".join(lines), source="o.txt", site=site)  # type: ignore[arg-type]
    assert isinstance(back, Hand)
    (gap,) = back.gaps()
    assert gap.line == back.source.line + sixth
    assert gap.reason is not None and gap.reason.startswith("a street marker out of order")
    assert "(the 4th street marker) where the hand is on 5th street" in gap.reason
    (clean,) = parse_text(text, source="o.txt", site=site)  # type: ignore[arg-type]
    assert isinstance(clean, Hand)
    before = [(v.code, v.severity, v.message) for v in replay(clean).violations]
    found = [(v.code, v.severity, v.message) for v in replay(back).violations]
    (extra,) = [v for v in found if v not in before]
    assert extra[:2] == (Code.LINE_NOT_UNDERSTOOD, Severity.WARNING)
    assert "street marker out of order" in extra[2]
    assert [v for v in found if v != extra] == before  # the rest is read as without it


def test_what_follows_from_a_negative_amount_is_linked_to_it() -> None:
    """Where the rest of the record took the minus sign at its word (the total pot and the
    collect 0.08€ less, as if the call took 0.04€ back), the pot's findings follow from
    the NEGATIVE_AMOUNT line: one root cause, the site's mistake."""
    text = _winamax_hand().replace("\nC calls 0.04€\n", "\nC calls -0.04€\n")
    assert text.count("0.53€") == 3  # the collect, the total pot and the seat's winnings
    (h,) = parse_text(text.replace("0.53€", "0.45€"), source="w.txt")
    assert isinstance(h, Hand)
    found = [v for v in replay(h).violations if v.severity is not Severity.INFO]
    (root,) = [v for v in found if v.is_root]
    assert root.code is Code.NEGATIVE_AMOUNT
    assert {v.code for v in found if v.caused_by == root.seq} == {
        Code.POT_TOTAL,
        Code.AWARD_MISMATCH,
    }
