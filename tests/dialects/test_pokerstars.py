"""The PokerStars dialect: every real stud hand parses and adds up; every line form maps to
the right event; headers of every era; errors that point at the line."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import Counter
from dataclasses import replace
from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import pytest

from histkit.accounting import collections, contributions
from histkit.cards import parse_card, parse_cards
from histkit.dialects import get_dialect
from histkit.dialects.base import Dialect, load_grammar
from histkit.model import (
    Action,
    ActionKind,
    BettingCapped,
    Collect,
    Deal,
    DoubleBetAllowed,
    Game,
    Hand,
    Muck,
    NoLowHand,
    NoteKind,
    PotKind,
    SeatOutcome,
    Show,
    Street,
    StreetStart,
    TableNote,
    UncalledBet,
    Unit,
)
from histkit.reader import ParseIssue, parse_text
from histkit.reading.split import file_lines, text_blocks
from histkit.rules import replay
from histkit.rules.violations import Code
from tests.conftest import POKERSTARS, ROOT, needs_corpus
from tests.dialects import helpers
from tests.dialects.helpers import read_without, strict_rejection, without_lines
from tests.dialects.synthetic import (
    chips,
    dollars,
    hilo_2008,
    holdem_hand,
    razz_tournament,
    stud_hand,
)

# ----------------------------------------------------------------------------- corpus


corpus_items = helpers.corpus_fixture(POKERSTARS)


@needs_corpus
def test_corpus_counts(corpus_items: list[Hand | ParseIssue]) -> None:
    hands = [h for h in corpus_items if isinstance(h, Hand)]
    issues = [i for i in corpus_items if isinstance(i, ParseIssue)]
    assert Counter(h.game for h in hands) == {Game.STUD_HILO: 28, Game.STUD: 30, Game.RAZZ: 28}
    assert [i for i in issues if i.kind != "skipped"] == []
    skipped = [i for i in issues if i.kind == "skipped"]
    assert len(skipped) == 84
    assert all(i.source_file.endswith("homeGame.shootout.txt") for i in skipped)
    assert Counter(i.game for i in skipped) == {
        "Hold'em No Limit": 24,
        "Hold'em Limit": 24,
        "Triple Draw 2-7 Lowball Limit": 18,
        "Omaha Hi/Lo Limit": 17,
        "Omaha Pot Limit": 1,
    }
    # the Cardtest file is a copy of one hand of the 2009-11 hi/lo file
    repeated = [k for k, n in Counter(h.hand_id for h in hands).items() if n > 1]
    assert repeated == ["35874676388"]


@needs_corpus
def test_corpus_chips_add_up(corpus_items: list[Hand | ParseIssue]) -> None:
    """collected + rake == total pot, and the players' nets sum to -rake, in every hand."""
    for h in (h for h in corpus_items if isinstance(h, Hand)):
        assert h.summary is not None
        paid, got = contributions(h), collections(h)
        assert sum(got.values()) + h.summary.rake == h.summary.total_pot, h.hand_id
        net = sum(got.get(p, 0) - paid.get(p, 0) for p in paid.keys() | got.keys())
        assert net == -h.summary.rake, h.hand_id
        # what the summary says each seat won is what the collect lines paid
        for r in h.summary.seats:
            assert r.won == got.get(r.player, 0), (h.hand_id, r)


@needs_corpus
def test_corpus_structure(corpus_items: list[Hand | ParseIssue]) -> None:
    """Shape checks that hold for every real hand: lines increase, every event's player is
    seated, deals follow the street rules, the hero is the 3-card 3rd-street player."""
    for h in (h for h in corpus_items if isinstance(h, Hand)):
        lines = [e.line for e in h.events]
        assert lines == sorted(lines) and len(set(lines)) == len(lines), h.hand_id
        assert h.source.line < lines[0]
        seated = {s.player for s in h.seats}
        for e in h.events:
            if isinstance(e, Action | Deal | Show | Muck | Collect | UncalledBet):
                assert e.player in seated
            if isinstance(e, Deal):
                if e.street is Street.THIRD:
                    assert e.up == (False, False, True) and len(e.cards) == 3
                    assert (e.cards[0] is not None) == (e.player == h.hero)
                else:
                    assert len(e.cards) == 1 and e.cards[0] is not None
                    assert e.up == ((e.street is not Street.SEVENTH),)
                    assert len(e.before) == int(e.street) - 3 + (2 if e.player == h.hero else 0)
        assert h.hero is not None
        assert h.started_at is not None and h.started_at.tzinfo is UTC
        assert h.small_bet * 2 == h.big_bet
        assert (h.unit is Unit.CHIP) == (h.tournament_id is not None)


# --------------------------------------------------------------------------- synthetic


one_hand = partial(helpers.one_hand, site=None)


def test_stud_cash_hand_events() -> None:
    h = one_hand(stud_hand())
    assert (h.site, h.hand_id, h.game, h.unit, h.currency) == (
        "pokerstars",
        "1000000001",
        Game.STUD,
        Unit.CENT,
        "USD",
    )
    assert (h.small_bet, h.big_bet, h.table, h.max_seats) == (10, 20, "Synthetic I", 8)
    assert h.started_at == datetime(2024, 3, 1, 17, 0, tzinfo=UTC)  # 12:00 EST
    assert h.local_time == "2024/03/01 12:00:00 ET"
    assert [(s.seat, s.player, s.stack) for s in h.seats] == [
        (1, "Alice", 500),
        (3, "PC [Mittel]", 400),
        (5, "Bob", 300),
    ]
    assert h.hero == "PC [Mittel]"
    deals = [e for e in h.events if isinstance(e, Deal)]
    assert deals[0] == Deal(
        Street.THIRD, "Alice", (None, None, parse_card("Kd")), (False, False, True), (), 10
    )
    assert deals[1].cards == parse_cards("9s 8s 3c") and deals[1].player == "PC [Mittel]"
    river = [d for d in deals if d.street is Street.SEVENTH]
    assert river == [
        Deal(
            Street.SEVENTH,
            "PC [Mittel]",
            (parse_card("Td"),),
            (False,),
            parse_cards("9s 8s 3c 7s 6s Ah"),
            35,
        )
    ]
    fourth = [d for d in deals if d.street is Street.FOURTH]
    assert fourth[1].before == parse_cards("9s 8s 3c") and fourth[1].up == (True,)
    acts = [(a.street, a.player, a.kind, a.amount, a.to_amount) for a in h.actions()]
    assert acts[:7] == [
        (Street.THIRD, "Alice", ActionKind.ANTE, 2, None),
        (Street.THIRD, "PC [Mittel]", ActionKind.ANTE, 2, None),
        (Street.THIRD, "Bob", ActionKind.ANTE, 2, None),
        (Street.THIRD, "PC [Mittel]", ActionKind.BRING_IN, 5, None),
        (Street.THIRD, "Bob", ActionKind.FOLD, 0, None),
        (Street.THIRD, "Alice", ActionKind.RAISE, 5, 10),
        (Street.THIRD, "PC [Mittel]", ActionKind.CALL, 5, None),
    ]
    assert (Street.FIFTH, "PC [Mittel]", ActionKind.RAISE, 20, 40) in acts
    assert DoubleBetAllowed(Street.FOURTH, 20) in h.events
    assert UncalledBet("Alice", 20, Street.SEVENTH, 38) in h.events
    assert Collect("Alice", 140, PotKind.POT, 0, 39) in h.events
    assert Muck("Alice", True, 40) in h.events
    starts = [e for e in h.events if isinstance(e, StreetStart)]
    assert [(s.street, s.line) for s in starts] == [
        (Street.THIRD, 9),
        (Street.FOURTH, 17),
        (Street.FIFTH, 23),
        (Street.SIXTH, 29),
        (Street.SEVENTH, 34),
    ]
    s = h.summary
    assert s is not None
    assert (s.total_pot, s.rake, s.main_pot, s.side_pots, s.board, s.line) == (
        146,
        6,
        None,
        (),
        (),
        41,
    )
    assert [
        (r.seat, r.player, r.outcome, r.won, r.folded_street, r.didnt_bet) for r in s.seats
    ] == [
        (1, "Alice", SeatOutcome.COLLECTED, 140, None, False),
        (3, "PC [Mittel]", SeatOutcome.FOLDED, 0, Street.SEVENTH, False),
        (5, "Bob", SeatOutcome.FOLDED, 0, Street.THIRD, True),
    ]
    assert contributions(h) == {"Alice": 72, "PC [Mittel]": 72, "Bob": 2}


@pytest.mark.parametrize(
    "name",
    ["PC [Mittel]", "Jo Ann Smith", "x.y_z-9", "[brackets]", "dots...", "12345", "a: b", "Kd [Ah]"],
)
def test_player_names(name: str) -> None:
    h = one_hand(stud_hand(pc=name))
    assert h.hero == name
    assert {e.player for e in h.events if isinstance(e, Action)} == {"Alice", name, "Bob"}
    assert h.summary is not None and h.summary.seats[1].player == name


def test_2008_form_with_trailing_blanks_and_side_pot() -> None:
    h = one_hand(hilo_2008())
    # no currency code, only "$": PokerStars' dollars (amounts of one unit with the rest)
    assert h.game is Game.STUD_HILO and h.unit is Unit.CENT and h.currency == "USD"
    assert h.local_time == "2008/02/03 - 22:04:15 (ET)"
    assert h.started_at == datetime(2008, 2, 4, 3, 4, 15, tzinfo=UTC)
    assert h.seats[0].stack == 100 and h.seats[1].stack == 12
    allin = [a for a in h.actions() if a.all_in]
    assert [(a.player, a.kind, a.amount) for a in allin] == [("Carl 7", ActionKind.CALL, 5)]
    shows = [e for e in h.events if isinstance(e, Show)]
    assert shows[1].description == "HI: high card Queen; LO: 7,6,4,3,2"
    collects = [
        (c.player, c.amount, c.pot, c.pot_index) for c in h.events if isinstance(c, Collect)
    ]
    assert collects == [
        ("dee", 60, PotKind.SIDE, 1),
        ("dee", 18, PotKind.MAIN, 0),
        ("Carl 7", 18, PotKind.MAIN, 0),
    ]
    assert h.summary is not None
    assert (h.summary.total_pot, h.summary.main_pot, h.summary.side_pots, h.summary.rake) == (
        96,
        36,
        (60,),
        0,
    )
    assert h.summary.seats[1].description == "HI: high card Queen; LO: 7,6,4,3,2"
    assert h.summary.seats[2].won == 78


def test_razz_tournament_side_pots_notes_and_zones() -> None:
    h = one_hand(razz_tournament())
    assert (h.game, h.unit, h.currency, h.tournament_id, h.buy_in, h.level, h.mix) == (
        Game.RAZZ,
        Unit.CHIP,
        None,
        "77",
        "$1+$0.10 USD",
        "II",
        None,
    )
    assert (h.small_bet, h.big_bet, h.table, h.max_seats) == (20, 40, "77 3", 6)
    # ET wins over the local CET time (both are written; they agree here: 07:05 UTC)
    assert h.started_at == datetime(2020, 7, 1, 7, 5, tzinfo=UTC)
    assert [s.sitting_out for s in h.seats] == [False, False, False, True, False]
    notes = [e for e in h.events if isinstance(e, TableNote)]
    assert [(n.kind, n.player, n.text) for n in notes] == [
        (NoteKind.CHAT, "a1", "gl: all"),
        (NoteKind.JOIN, "zed", "zed joins the table at seat #6"),
        (NoteKind.FINISHED, "b2", "b2 finished the tournament in 5th place"),
    ]
    assert [(c.pot, c.pot_index, c.amount) for c in h.events if isinstance(c, Collect)] == [
        (PotKind.SIDE, 2, 72),
        (PotKind.SIDE, 1, 45),
        (PotKind.MAIN, 0, 40),
    ]
    assert h.summary is not None
    assert (h.summary.main_pot, h.summary.side_pots) == (40, (45, 72))
    assert [r.outcome for r in h.summary.seats] == [
        SeatOutcome.SHOWED,
        SeatOutcome.SHOWED,
        SeatOutcome.SHOWED,
        SeatOutcome.FOLDED,
        SeatOutcome.SHOWED,
    ]
    assert [r.won for r in h.summary.seats] == [157, 0, 0, 0, 0]
    bring_in = next(a for a in h.actions() if a.kind is ActionKind.BRING_IN)
    assert (bring_in.player, bring_in.amount, bring_in.all_in) == ("b2", 5, True)
    assert sum(contributions(h).values()) == 157


def test_community_card_and_markers() -> None:
    text = stud_hand().replace("*** RIVER ***", "*** RIVER *** [6h]")
    text = text.replace("Dealt to PC [Mittel] [9s 8s 3c 7s 6s Ah] [Td]\n", "")
    text = text.replace("Pair on board - a double bet is allowed", "Betting is capped")
    text = text.replace(
        "Total pot $1.46 | Rake $0.06 \n", "Total pot $1.46 | Rake $0.06 \nBoard [6h]\n"
    )
    h = one_hand(text)
    river = next(e for e in h.events if isinstance(e, StreetStart) and e.street is Street.SEVENTH)
    assert river.community == parse_card("6h")
    assert not any(isinstance(e, Deal) and e.street is Street.SEVENTH for e in h.events)
    assert BettingCapped(Street.FOURTH, 20) in h.events
    assert h.summary is not None and h.summary.board == (parse_card("6h"),)


def test_no_low_and_mucks() -> None:
    text = hilo_2008().replace(
        "dee collected $0.60 from side pot \n",
        "No low hand qualified \ndee collected $0.60 from side pot \n",
    )
    h = one_hand(text)
    assert any(isinstance(e, NoLowHand) for e in h.events)


# ----------------------------------------------------------------------------- headers

HEADERS = [
    # (header, body money, expected fields)
    (
        "PokerStars Game #{hand_id}:  7 Card Stud Limit ($0.10/$0.20) - 2009/07/16 2:36:31 CET "
        "[2009/07/15 20:36:31 ET]",
        dollars,
        dict(
            game=Game.STUD,
            unit=Unit.CENT,
            currency="USD",  # only "$" written: PokerStars' dollars
            small_bet=10,
            big_bet=20,
            started_at=datetime(2009, 7, 16, 0, 36, 31, tzinfo=UTC),
        ),
    ),
    (
        "PokerStars Game #{hand_id}:  Razz Limit ($1/$2) - 2008/09/26 14:36:50 ET ",
        dollars,
        dict(
            game=Game.RAZZ,
            unit=Unit.CENT,
            small_bet=100,
            big_bet=200,
            started_at=datetime(2008, 9, 26, 18, 36, 50, tzinfo=UTC),
        ),
    ),
    (
        "PokerStars Hand #{hand_id}:  8-Game (7 Card Stud Hi/Lo Limit, $400/$800 USD) - "
        "2017/01/21 16:58:03 ET",
        dollars,
        dict(
            game=Game.STUD_HILO,
            mix="8-Game",
            small_bet=40000,
            big_bet=80000,
            currency="USD",
            started_at=datetime(2017, 1, 21, 21, 58, 3, tzinfo=UTC),
        ),
    ),
    (
        "PokerStars Game #{hand_id}: TOURNAMENT #169962475, $10+$1 7 CARD STUD HI/LO LIMIT - "
        "LEVEL I (25/50) - 2009/06/14 11:45:00 ET",
        chips,
        dict(
            game=Game.STUD_HILO,
            unit=Unit.CHIP,
            currency=None,
            tournament_id="169962475",
            buy_in="$10+$1",
            level="I",
            small_bet=25,
            big_bet=50,
        ),
    ),
    (
        "PokerStars Hand #{hand_id}: Tournament #664712833, $2.00+$0.20 USD Triple Stud "
        "(7 Card Stud Limit) - Level XXXI (250/500) - 2013/01/03 16:27:43 EET "
        "[2013/01/03 9:27:43 ET]",
        chips,
        dict(
            game=Game.STUD,
            mix="Triple Stud",
            level="XXXI",
            buy_in="$2.00+$0.20 USD",
            small_bet=250,
            big_bet=500,
            started_at=datetime(2013, 1, 3, 14, 27, 43, tzinfo=UTC),
        ),
    ),
    (
        "PokerStars Home Game Hand #{hand_id}: {{Dazzle's Room}} Tournament #743144019, 100+9 "
        "8-Game (Razz Limit) - Match Round I, Level IV (30/60) - 2013/06/06 0:00:10 ET",
        chips,
        dict(game=Game.RAZZ, mix="8-Game", buy_in="100+9", level="IV", small_bet=30, big_bet=60),
    ),
    (
        "PokerStars Hand #{hand_id}: Tournament #2010090015, $200+$15 USD Razz Limit - Level IV "
        "(50/100) - 2010/09/09 18:27:23 ET",
        chips,
        dict(game=Game.RAZZ, mix=None, buy_in="$200+$15 USD", small_bet=50, big_bet=100),
    ),
    (
        "PokerStars Hand #{hand_id}:  Razz Limit (10/20) - 2012/05/23 23:24:52 PT",
        chips,
        dict(
            game=Game.RAZZ,
            unit=Unit.CHIP,
            tournament_id=None,
            small_bet=10,
            big_bet=20,
            started_at=datetime(2012, 5, 24, 6, 24, 52, tzinfo=UTC),
        ),
    ),
    (
        "PokerStars Hand #{hand_id}:  7 Card Stud Limit (€0.10/€0.20 EUR) - 2012/05/23 "
        "23:24:52 XYZ",
        lambda c: dollars(c).replace("$", "€"),
        dict(currency="EUR", unit=Unit.CENT, started_at=None, local_time="2012/05/23 23:24:52 XYZ"),
    ),
]


@pytest.mark.parametrize("header,money,expected", HEADERS)
def test_header_forms(header: str, money: object, expected: dict[str, object]) -> None:
    h = one_hand(stud_hand("42", header=header, money=money))  # type: ignore[arg-type]
    assert h.hand_id == "42"
    for field, value in expected.items():
        assert getattr(h, field) == value, field


def test_header_decides_skip_without_parsing_body() -> None:
    (issue,) = parse_text(holdem_hand("7") + "\n", source="s.txt")
    assert isinstance(issue, ParseIssue)
    assert (issue.kind, issue.hand_id, issue.game, issue.line) == (
        "skipped",
        "7",
        "Hold'em No Limit",
        1,
    )


# ------------------------------------------------------------------------------ errors


def test_rejection_points_at_line_and_says_what_was_expected() -> None:
    text = stud_hand().replace("Alice: checks ", "Alice: ponders")
    issue = strict_rejection(text, "pokerstars", source="r.txt")
    assert (issue.kind, issue.hand_id, issue.line) == ("rejected", "1000000001", 32)
    assert "'Alice: ponders'" in issue.reason
    assert "a check ('P: checks')" in issue.reason and "'*** RIVER ***'" in issue.reason


def test_line_out_of_order_is_rejected() -> None:
    text = (
        stud_hand()
        .replace("*** 5th STREET ***\n", "")
        .replace("*** 6th STREET ***\n", "*** 6th STREET ***\n*** 5th STREET ***\n")
    )
    hand, issue = read_without(text, "pokerstars")
    # the 6th street's marker where the 5th's should be: the 5th's is missing there, and
    # where it is written after the 6th's it is out of place
    assert issue.reason == "'*** 5th STREET ***' is missing before '*** 6th STREET ***'"
    assert [(g.kind, g.text) for g in hand.gaps()] == [
        (NoteKind.MISSING, "'*** 5th STREET ***'"),
        (NoteKind.UNREAD, "*** 5th STREET ***"),
    ]
    found = replay(hand).violations
    gaps = [v for v in found if v.code in (Code.LINE_MISSING, Code.LINE_NOT_UNDERSTOOD)]
    assert [v.line for v in gaps] == [28, 29] and gaps[0].caused_by is None
    # everything the engine finds after the first gap follows from it
    first = found.index(gaps[0])
    assert all(v.caused_by == gaps[0].seq for v in found[first + 1 :] if v.is_error)


@pytest.mark.parametrize(
    "old,new,words",
    [
        ("Alice: bets $0.20\nPC", "Alice: bets $0.205\nPC", "more than cents"),
        ("Alice: bets $0.20\nPC", "Alice: bets 20\nPC", "chip amount '20'"),
        ("Dealt to Bob [Qh]", "Dealt to Bob [Qh 2c]", "3rd-street deal of 2 cards"),
        ("Dealt to Alice [Kd] [Kc]", "Dealt to Alice [Kd Kc]", "without a new card"),
        ("Seat 5: Bob folded", "Seat 4: Bob folded", "not the seat list's"),
    ],
)
def test_content_errors_leave_the_line_out(old: str, new: str, words: str) -> None:
    """A line after the seats whose content is wrong: the hand is read without it (and a
    strict reading rejects the hand there, saying why)."""
    text = stud_hand()
    assert old in text
    issue = strict_rejection(text.replace(old, new, 1), "pokerstars")
    assert words in issue.reason
    assert issue.line is not None and issue.hand_id == "1000000001"


def test_a_seat_listed_twice_is_rejected() -> None:
    """The seat list is the hand's frame: a hand whose seats cannot be read is rejected."""
    (issue,) = parse_text(stud_hand().replace("Seat 5: Bob ($3", "Seat 3: Bob ($3", 1))
    assert isinstance(issue, ParseIssue) and issue.kind == "rejected", issue
    assert "listed twice" in issue.reason and issue.hand_id == "1000000001"


# ----------------------------------------------------------------------------- grammar


def test_grammar_loads_and_parser_is_shared() -> None:
    text = load_grammar("pokerstars.lark")
    assert "HEADER" in text and "start:" in text
    d = get_dialect("pokerstars")
    assert d is get_dialect("pokerstars") and d.compiled is d.compiled
    with pytest.raises(ValueError, match="unknown site"):
        get_dialect("nosuchsite")


def test_pure_lark_and_cython_agree() -> None:
    """The optional lark-cython front end and plain lark give identical hands."""
    pytest.importorskip("lark_cython")
    from histkit.dialects.pokerstars import PokerStars

    texts = [stud_hand(), hilo_2008(), razz_tournament(), stud_hand(pc="a: b")]
    plain: Dialect = PokerStars(cython=False)
    fast: Dialect = PokerStars(cython=True)
    assert not plain.uses_cython and fast.uses_cython
    for t in texts:
        assert list(plain.parse(t, "x")) == list(fast.parse(t, "x"))


@pytest.mark.parametrize(
    "line,kind,player",
    [
        ("Bob leaves the table ", NoteKind.LEAVE, "Bob"),
        ("new guy joins the table at seat #7 ", NoteKind.JOIN, "new guy"),
        ("Bob is sitting out", NoteKind.SIT_OUT, "Bob"),
        ("Bob: sits out ", NoteKind.SIT_OUT, "Bob"),
        ("Bob has returned", NoteKind.RETURN, "Bob"),
        ("Alice is connected ", NoteKind.CONNECT, "Alice"),
        ("Alice is disconnected ", NoteKind.DISCONNECT, "Alice"),
        ("Alice has timed out while disconnected", NoteKind.TIMED_OUT, "Alice"),
        ("Katica6x was removed from the table for failing to post", NoteKind.REMOVED, "Katica6x"),
        ("Bob finished the tournament in 28th place", NoteKind.FINISHED, "Bob"),
        (
            "Alice wins the tournament and receives $9.00 - congratulations!",
            NoteKind.FINISHED,
            "Alice",
        ),
        ('Bob said, "nh: really, "nice" hand"', NoteKind.CHAT, "Bob"),
    ],
)
def test_table_notes(line: str, kind: NoteKind, player: str) -> None:
    text = stud_hand().replace("*** 4th STREET ***\n", f"{line}\n*** 4th STREET ***\n")
    h = one_hand(text)
    (note,) = [e for e in h.events if isinstance(e, TableNote)]
    assert (note.kind, note.player, note.line) == (kind, player, 17)
    if kind is NoteKind.CHAT:
        assert note.text == 'nh: really, "nice" hand'
    else:
        assert note.text == line.rstrip()


def test_zoom_hand_of_another_game_is_skipped() -> None:
    text = holdem_hand("8").replace(
        holdem_hand("8").split("\n")[0],
        "PokerStars Zoom Hand #8:  Hold'em No Limit ($0.01/$0.02) - 2020/01/01 1:00:00 ET",
    )
    (issue,) = parse_text(text)
    assert isinstance(issue, ParseIssue)
    assert (issue.kind, issue.game, issue.reason) == (
        "skipped",
        "Hold'em No Limit",
        "other game: Hold'em No Limit",
    )


def test_everyones_hole_cards_means_no_single_hero() -> None:
    """A tracker's export may show every player's down cards: parsed, but no hero."""
    h = one_hand(stud_hand().replace("Dealt to Bob [Qh]", "Dealt to Bob [2c Jd Qh]"))
    assert h.hero is None
    bob = next(e for e in h.events if isinstance(e, Deal) and e.player == "Bob")
    assert bob.cards == parse_cards("2c Jd Qh")


def test_parser_cache_is_private_and_gives_the_same_hands(tmp_path: Path) -> None:
    """Lark's cache (a pickle) goes only to a private directory; a parser loaded from it
    parses exactly like a freshly built one. A second process finds and only reads what
    the first cached (the cache's key is the same in every process: a key that differs
    rebuilds and rewrites the cache on every run, which cost every command its start)."""
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    program = (
        "import sys; from histkit.reader import parse_text;"
        "from tests.dialects.synthetic import razz_tournament, stud_hand;"
        "print(repr(parse_text(stud_hand() + chr(10) + razz_tournament())))"
    )
    env = {**os.environ, "HISTKIT_CACHE_DIR": str(cache)}
    env.pop("HISTKIT_NO_CACHE", None)
    run = [sys.executable, "-c", program]
    first = subprocess.run(run, env=env, capture_output=True, text=True, check=True, cwd=ROOT)
    written = {p.name: p.stat().st_mtime_ns for p in cache.iterdir()}
    parsers = [f for f in written if f.endswith(".cache")]
    assert parsers and all(f.startswith("pokerstars-") for f in parsers)
    assert any(f.startswith("evaluate-") for f in written)  # the evaluator's tables
    second = subprocess.run(run, env=env, capture_output=True, text=True, check=True, cwd=ROOT)
    assert first.stdout == second.stdout and "Hand(" in first.stdout
    assert {p.name: p.stat().st_mtime_ns for p in cache.iterdir()} == written

    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    env["HISTKIT_CACHE_DIR"] = str(shared)
    subprocess.run(run, env=env, capture_output=True, text=True, check=True, cwd=ROOT)
    assert list(shared.iterdir()) == []  # world-writable: no cache written there


def test_a_site_variant_is_a_short_class() -> None:
    """Site behaviour lives in tables: a variant that reads only razz and knows no time
    zones is a subclass with two tables, registered by name."""
    from histkit.dialects import DIALECTS, register
    from histkit.dialects.pokerstars import PokerStars

    @register
    class RazzOnly(PokerStars):
        name = "pokerstars-razz-only"
        games = {"RAZZ LIMIT": Game.RAZZ}
        time_zones: dict[str, str] = {}

    try:
        items = parse_text(stud_hand("1") + "\n" + razz_tournament("2"), dialect=RazzOnly.name)
        assert isinstance(items[0], ParseIssue) and items[0].game == "7 Card Stud Limit"
        razz = items[1]
        assert isinstance(razz, Hand) and razz.game is Game.RAZZ and razz.started_at is None
    finally:
        DIALECTS.pop(RazzOnly.name)


@pytest.mark.parametrize(
    "when,utc",
    [
        # 2023-11-05 01:30 ET happens twice; the CET time says which
        (
            "2023/11/05 6:30:00 CET [2023/11/05 1:30:00 ET]",
            datetime(2023, 11, 5, 5, 30, tzinfo=UTC),
        ),
        (
            "2023/11/05 7:30:00 CET [2023/11/05 1:30:00 ET]",
            datetime(2023, 11, 5, 6, 30, tzinfo=UTC),
        ),
        ("2023/11/05 1:30:00 ET", datetime(2023, 11, 5, 5, 30, tzinfo=UTC)),  # first reading
        ("2023/07/01 10:00:00 MSK", datetime(2023, 7, 1, 7, 0, tzinfo=UTC)),
    ],
)
def test_start_time_zones(when: str, utc: datetime) -> None:
    header = "PokerStars Hand #{hand_id}:  7 Card Stud Limit ($0.10/$0.20 USD) - " + when
    h = one_hand(stud_hand(header=header))
    assert h.started_at == utc and h.local_time == when


def test_summary_sitting_out_and_muck_without_cards() -> None:
    text = stud_hand().replace(
        "Seat 5: Bob folded on the 3rd Street (didn't bet)", "Seat 5: Bob is sitting out "
    )
    text = text.replace("Seat 3: PC [Mittel] folded on the River", "Seat 3: PC [Mittel] mucked ")
    h = one_hand(text)
    assert h.summary is not None
    pc, bob = h.summary.seats[1], h.summary.seats[2]
    assert (pc.outcome, pc.cards, pc.player) == (SeatOutcome.MUCKED, (), "PC [Mittel]")
    assert (bob.outcome, bob.seat, bob.won) == (SeatOutcome.OTHER, 5, 0)


@needs_corpus
def test_pure_lark_and_cython_agree_on_the_corpus() -> None:
    pytest.importorskip("lark_cython")
    from histkit.dialects.pokerstars import PokerStars
    from tests.conftest import corpus_files

    plain, fast = PokerStars(cython=False), PokerStars(cython=True)
    for f in corpus_files():
        with open(f, "rb") as a, open(f, "rb") as b:
            assert list(plain.parse(file_lines(a), str(f))) == list(
                fast.parse(file_lines(b), str(f))
            )


@needs_corpus
def test_no_line_is_lost(corpus_items: list[Hand | ParseIssue]) -> None:
    """Every line of every real stud hand lands somewhere in the Hand: header, table,
    a seat, an event, the summary (SHOW DOWN is the only marker the model drops)."""
    d = get_dialect()
    blocks = {}
    for f in {h.source.file for h in corpus_items if isinstance(h, Hand)}:
        with open(f, "rb") as fh:
            for b in text_blocks(file_lines(fh), d):
                blocks[(f, b.start_line)] = b
    for h in (h for h in corpus_items if isinstance(h, Hand)):
        block = blocks[(h.source.file, h.source.line)]
        assert h.summary is not None
        used = {h.source.line, h.source.line + 1, h.summary.line, h.summary.line + 1}
        used |= {s.line for s in h.seats} | {e.line for e in h.events}
        used |= {r.line for r in h.summary.seats}
        if h.summary.board:
            used.add(h.summary.line + 2)
        unused = set(range(block.start_line, block.end_line + 1)) - used
        assert [block.lines[n - block.start_line] for n in sorted(unused)] in (
            [],
            ["*** SHOW DOWN ***"],
        ), h.hand_id


def _one_collect_for(text: str, player: str, amount: str) -> str:
    """`text` with `player`'s collect lines replaced by one "collected X from pot" where
    the first of them was (the site's mistake of issue 24 item 3)."""
    out: list[str] = []
    for line in text.splitlines(keepends=True):
        if line.startswith(f"{player} collected "):
            if not any(o.startswith(f"{player} collected ") for o in out):
                out.append(f"{player} collected {amount} from pot \n")
            continue
        out.append(line)
    return "".join(out)


def test_one_collect_over_several_pots_is_audited_as_the_winners_total() -> None:
    """A winner of the main pot's high half and the side pot who collects both in one
    line 'from pot' is read as written and audited as that winner's total over the pots
    (a warning naming the line), not as a wrong main pot and an unpaid side pot; the
    other winner's main pot line is checked as before. A wrong total is still an error."""
    h = one_hand(_one_collect_for(hilo_2008(), "dee", "$0.78"))
    collects = [(c.player, c.amount, c.pot) for c in h.events if isinstance(c, Collect)]
    assert collects == [("dee", 78, PotKind.POT), ("Carl 7", 18, PotKind.MAIN)]
    r = replay(h)
    (w,) = r.errors  # a warning, the one finding
    assert w.code is Code.SUMMARY_MISMATCH
    assert w.severity.value == "warning" and w.reported == 78
    assert "dee collects $0.78 in one line" in w.message
    assert "the main pot and side pot 1" in w.message
    assert [(a.pot, a.reported) for a in r.awards] == [
        (0, (("dee", 18),)),
        (0, (("Carl 7", 18),)),
        (1, (("dee", 60),)),
    ]
    # the same line one cent short: the pots are checked one by one and found wrong
    r2 = replay(one_hand(_one_collect_for(hilo_2008(), "dee", "$0.77")))
    assert Code.AWARD_MISMATCH in {v.code for v in r2.errors}
    # the scoop of three pots in one line: that warning only
    r3 = replay(one_hand(_one_collect_for(razz_tournament(), "a1", "157")))
    assert [(v.code, v.severity.value) for v in r3.errors] == [(Code.SUMMARY_MISMATCH, "warning")]
    assert "side pot 1 and side pot 2" in r3.errors[0].message


def same(orig: Hand, back: Hand) -> None:
    """The contract's round trip (tests/dialects/test_contract.py): PokerStars' text
    carries the whole hand, so `back` is `orig` but for line numbers and the dialect that
    read it, and replays clean."""
    assert back.dialect == "pokerstars"
    assert without_lines(replace(back, dialect=orig.dialect)) == without_lines(orig), orig.hand_id
    assert replay(back).errors == (), (orig.hand_id, replay(back).errors)
