"""The iPoker dialect: the real sessions parse, add up and replay as the site played them;
each element form maps to the right event; simulated hands written as iPoker's XML come
back equal on what the XML carries; bad input is rejected with file, line and hand id;
a long session parses in flat memory."""

from __future__ import annotations

import dataclasses
import json
import re
import subprocess
import sys
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from histkit.accounting import collections, contributions
from histkit.cards import parse_card, parse_cards
from histkit.cli import main
from histkit.dialects import get_dialect
from histkit.dialects.ipoker import IPOKER, IPoker
from histkit.dialects.ipoker_writer import card_token, format_amount, iter_session, write_hands
from histkit.model import (
    ActionKind,
    Collect,
    Deal,
    Game,
    Hand,
    Muck,
    NoteKind,
    PotKind,
    SeatOutcome,
    Show,
    SourceRef,
    Street,
    StreetStart,
    TableNote,
    UncalledBet,
    Unit,
)
from histkit.reader import ParseIssue, iter_hands
from histkit.rules import Code, replay
from histkit.rules.continuity import check_continuity
from histkit.rules.violations import Severity
from histkit.simulate import simulate
from tests.conftest import CORPUS, ROOT
from tests.dialects.helpers import (
    corpus_fixture,
    error_counts,
    hands_by_id,
    needs_folder,
    only_hand,
    only_issue,
)

IPOKER_DIR = CORPUS / "ipoker"
needs_ipoker = needs_folder(IPOKER_DIR)
HILO = IPOKER_DIR / "7-StudHL-EUR-0.05-0.10-201405.txt"
SNG = IPOKER_DIR / "7-StudHi-USD-STT-5-201103.txt"


def read(text: str, source: str = "t.xml") -> list[Hand | ParseIssue]:
    return list(get_dialect("ipoker").read_xml(text.splitlines(), source))  # type: ignore[attr-defined]


def one(text: str) -> Hand:
    return only_hand(read(text))


def issue(text: str) -> ParseIssue:
    return only_issue(read(text))


errors = error_counts
corpus = corpus_fixture(IPOKER_DIR, site="ipoker")
by_id = hands_by_id


# ------------------------------------------------------------------------ real files


@needs_ipoker
def test_corpus_counts_as_the_readme_lists(corpus: list[Hand | ParseIssue]) -> None:
    """stud_hilo 5, stud 117; the five-card stud hand is skipped by name (its file ends
    with the session still open: no hand is lost there); nothing is rejected. The site is
    found from the files' first text alone."""
    hands = [h for h in corpus if isinstance(h, Hand)]
    assert Counter(h.game for h in hands) == {Game.STUD: 117, Game.STUD_HILO: 5}
    assert [(i.kind, i.game, i.hand_id) for i in corpus if isinstance(i, ParseIssue)] == [
        ("skipped", "5 Card Stud L", "3013529647")
    ]
    assert all(h.site == "ipoker" and h.dialect == "ipoker" for h in hands)
    assert list(iter_hands([IPOKER_DIR])) == corpus


@needs_ipoker
def test_corpus_replays_clean_and_adds_up(corpus: list[Hand | ParseIssue]) -> None:
    """Zero errors or warnings under the iPoker profile (the default for these hands; the
    only infos: which pot paid what, for the five hands with side pots). Money: what the
    actions put in is the total pot, the wins plus the rake make it, no rake in chips."""
    infos: Counter[str] = Counter()
    for h in by_id(corpus).values():
        rp = replay(h)
        assert rp.profile == "ipoker"
        assert [v for v in rp.violations if v.severity is not Severity.INFO] == [], h.hand_id
        infos.update(v.code for v in rp.violations)
        s = h.summary
        assert s is not None
        assert sum(contributions(h).values()) == s.total_pot
        assert sum(collections(h).values()) + s.rake + s.fee == s.total_pot
        assert s.rake == 0 or h.unit is Unit.CENT
        assert all(c.pot is PotKind.TOTAL for c in h.events if isinstance(c, Collect))
    assert infos == {Code.UNCHECKABLE_SHOWDOWN: 5}
    rakes = {
        h.hand_id: h.summary.rake if h.summary else None
        for h in by_id(corpus).values()
        if h.unit is Unit.CENT
    }
    assert rakes == {  # 0.82 in, 0.79 won; 1.18, 1.14; ...; no rake on 3rd/4th-street ends
        "5710054735": 3,
        "5710056302": 4,
        "5710077134": 0,
        "5710078165": 3,
        "5710079903": 0,
    }


@needs_ipoker
def test_corpus_stacks_carry_over(corpus: list[Hand | ParseIssue]) -> None:
    """Stacks carry from hand to hand. One warning is the site's: Player0 goes broke in
    5710056302 (all-in for 0.59, loses) and sits in the next hand with €1 — chips added
    that the record does not write (its rebuy="0"). The sit & go's table move (every
    opponent new in 4044922862, the hero 20 chips short: a hand at the new table is not in
    the file) is noted by the dialect, so no stack is compared across it."""
    found = check_continuity([h for h in corpus if isinstance(h, Hand)])
    assert [(v.code, v.severity, v.hand_id, v.expected, v.reported) for v in found] == [
        (Code.STACK_CONTINUITY, Severity.INFO, "5710077134", 0, 100)
    ]
    moved = [
        (h.hand_id, e.player)
        for h in by_id(corpus).values()
        for e in h.events
        if isinstance(e, TableNote) and e.kind is NoteKind.JOIN
    ]
    assert moved == [("4044922862", "Player11")]


@needs_ipoker
def test_corpus_headers(corpus: list[Hand | ParseIssue]) -> None:
    hands = by_id(corpus)
    cash, sng = hands["5710054735"], hands["4044858766"]
    assert (cash.unit, cash.currency, cash.small_bet, cash.big_bet) == (Unit.CENT, "EUR", 5, 10)
    assert (cash.table, cash.hero, cash.local_time, cash.started_at) == (
        "Beignon, 826907366",
        "Hero",
        "2014-05-10 18:02:19",
        datetime(2014, 5, 10, 18, 2, 19, tzinfo=UTC),  # no zone written: UTC, as FPDB
    )
    assert (sng.unit, sng.currency, sng.tournament_id, sng.buy_in, sng.hero) == (
        Unit.CHIP,
        None,
        "699476041",
        "$5+$0.50",
        "Player11",
    )
    assert [(s.seat, s.player, s.stack) for s in sng.seats][:3] == [
        (1, "Player2", 1440),
        (2, "Player20", 1405),
        (4, "Player11", 1500),
    ]


@needs_ipoker
def test_corpus_dates_and_the_sit_and_go_finish(
    corpus: list[Hand | ParseIssue], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Every hand dated (its <startdate>, UTC); the session header's <place> and <win> are
    the hero's finish, noted in his last hand only, and the tournament's result."""
    hands = [h for h in corpus if isinstance(h, Hand)]
    assert len(hands) == 122 and all(h.started_at is not None for h in hands)
    for h in hands:
        assert h.started_at is not None and h.local_time is not None
        assert h.started_at.strftime("%Y-%m-%d %H:%M:%S") == h.local_time
    sng = [h for h in hands if h.source.file == str(SNG)]
    notes = [
        (h.hand_id, e)
        for h in hands
        for e in h.events
        if isinstance(e, TableNote) and e.kind is NoteKind.FINISHED
    ]
    assert [(hid, e.player, e.text) for hid, e in notes] == [
        (sng[-1].hand_id, "Player11", "<place>5</place><win>$16.40</win>")
    ]
    assert IPoker().finish(notes[0][1].text) == (5, "$16.40")
    assert main(["stats", str(SNG), "--tournaments", "--format", "json", "-q"]) == 0
    got = json.loads(capsys.readouterr().out)
    (mine,) = [r for r in got["tournaments"] if r["player"] == "Player11"]
    assert (mine["place"], mine["prize"], mine["buy_in"], mine["fee"]) == (5, 1640, 500, 50)
    assert mine["result"] == 1640 - 550 and mine["first"].startswith("2012-03-19T20:46")
    assert all(r["place"] is None for r in got["tournaments"] if r["player"] != "Player11")


def test_a_session_finish_goes_to_its_last_hand_only() -> None:
    """<place> and <win> in the header: a note in the session's last hand, whichever hand
    comes last; none for a cash session, a place of "N/A", or a last hand without the hero."""
    two = session(rnd(0, xa("1 Ann 15 0.01; 2 Bob 15 0.01")), extra="").replace(
        "</game>\n</session>",
        "</game>\n"
        + session(rnd(0, xa("1 Ann 15 0.01; 2 Bob 15 0.01")), gamecode="101")
        .split("</general>\n", 1)[1]
        .removesuffix("</session>\n")
        + "</session>",
    )
    tour = (
        "<tournamentname>T</tournamentname><place>3</place><buyin>€1+€0.10</buyin> <win>€2</win>}"
    )
    got = [h for h in read(two.replace("<nickname>", tour + "\n<nickname>"))]
    assert [h.hand_id for h in got if isinstance(h, Hand)] == ["100", "101"]
    finished = [
        [e.text for e in h.events if isinstance(e, TableNote) and e.kind is NoteKind.FINISHED]
        for h in got
        if isinstance(h, Hand)
    ]
    assert finished == [[], ["<place>3</place><win>€2</win>"]]
    for other in ("<place>N/A</place>", ""):
        plain = read(
            two.replace("<nickname>", f"<tournamentname>T</tournamentname>{other}\n<nickname>")
        )
        assert not any(
            isinstance(e, TableNote) and e.kind is NoteKind.FINISHED
            for h in plain
            if isinstance(h, Hand)
            for e in h.events
        )


@needs_ipoker
def test_corpus_stakes_are_derived_level_by_level(corpus: list[Hand | ParseIssue]) -> None:
    """The sit & go writes no stakes: each level's (ante -> small/big bet) comes out as its
    hands bet, the big bet twice the small. 4044980507 has no full wager (a 274 all-in is the
    only bet): its level's other hands tell; the first hand of the 30-ante level has none
    either and waits for the next."""
    sng = [h for h in by_id(corpus).values() if h.unit is Unit.CHIP]
    levels: dict[int, set[tuple[int, int]]] = {}
    for h in sng:
        ante = max(a.amount for a in h.actions() if a.kind is ActionKind.ANTE)
        levels.setdefault(ante, set()).add((h.small_bet, h.big_bet))
    assert levels == {
        8: {(60, 120)},
        10: {(80, 160)},
        15: {(100, 200)},
        20: {(150, 300)},
        30: {(200, 400)},
        40: {(300, 600)},
        50: {(400, 800)},
        80: {(600, 1200)},
        100: {(800, 1600)},
        150: {(1000, 2000)},
    }
    assert [h.hand_id for h in sng] == sorted(h.hand_id for h in sng)  # order kept
    short = by_id(corpus)["4044980507"]
    assert [(a.kind, a.amount, a.to_amount, a.all_in) for a in short.actions()][6] == (
        ActionKind.COMPLETE,
        274,
        274,
        True,
    )


@needs_ipoker
def test_corpus_actions_follow_their_numbers(corpus: list[Hand | ParseIssue]) -> None:
    hands = by_id(corpus)
    acts = [
        (a.player, a.kind, a.amount, a.to_amount, a.all_in) for a in hands["5710056302"].actions()
    ]
    # 6th street: <action no=9 Hero 5>, <no=10 Player0 23 0.20>, <no=11 Hero 23 0.30>, ...
    assert acts[4:] == [
        ("Player0", ActionKind.BET, 5, None, False),
        ("Hero", ActionKind.CALL, 5, None, False),
        ("Player0", ActionKind.BET, 10, None, False),
        ("Hero", ActionKind.CALL, 10, None, False),
        ("Hero", ActionKind.BET, 10, None, False),
        ("Player0", ActionKind.RAISE, 10, 20, False),
        ("Hero", ActionKind.RAISE, 10, 30, False),
        ("Player0", ActionKind.CALL, 10, None, False),
        ("Hero", ActionKind.BET, 10, None, False),
        ("Player0", ActionKind.RAISE, 1, 11, True),  # "7 sum 0.11": all he had left
        ("Hero", ActionKind.CALL, 1, None, False),
    ]
    first = hands["5710054735"]  # the bring-in's lowest card completes: <no=3> before <no=4>
    assert [(a.player, a.kind) for a in first.actions()][2:4] == [
        ("Hero", ActionKind.COMPLETE),
        ("Player0", ActionKind.CALL),
    ]
    shows = [(e.player, e.cards) for e in first.events if isinstance(e, Show)]
    assert shows == [("Player0", parse_cards("7d 4d Kd 3c 9h Ad Jc"))]  # not the hero's
    assert first.summary is not None
    assert [(r.player, r.outcome, r.won) for r in first.summary.seats] == [
        ("Player0", SeatOutcome.SHOWED, 0),
        ("Hero", SeatOutcome.SHOWED, 79),
    ]
    deals = [e for e in first.events if isinstance(e, Deal)]
    assert deals[0] == Deal(
        Street.THIRD, "Player0", parse_cards("7d 4d Kd"), (False, False, True), (), 36
    )
    folded = hands["5710079903"]
    assert [e for e in folded.events if isinstance(e, Deal)][0].cards == (
        None,
        None,
        parse_card("9s"),
    )


@needs_ipoker
def test_corpus_bet_misprint_is_noted(corpus: list[Hand | ParseIssue]) -> None:
    """17 players of the sit & go who raised with type 23 have a `bet` one ante above what
    their actions put in (the wins and the next stacks agree with the actions): noted."""
    notes = [
        (h.hand_id, e.player)
        for h in by_id(corpus).values()
        for e in h.events
        if isinstance(e, TableNote) and e.kind is NoteKind.OTHER
    ]
    assert len(notes) == 17 and ("4044860560", "Player20") in notes


@needs_ipoker
def test_writer_gives_the_real_hands_back(corpus: list[Hand | ParseIssue]) -> None:
    """The real hands, written by the writer and read again, are the same hands (lines
    aside, and the misprint notes, which a correct writer has no cause for)."""
    for path in (HILO, SNG):
        hands = [h for h in corpus if isinstance(h, Hand) and h.source.file == str(path)]
        back = read(write_hands(hands))
        assert [facts(h) for h in back] == [facts(h) for h in hands]


def facts(h: Hand | ParseIssue) -> tuple[object, ...]:
    """A hand without its lines and source (and without misprint notes)."""
    assert isinstance(h, Hand), h
    ev = tuple(
        dataclasses.replace(e, line=0)
        for e in h.events
        if not (isinstance(e, TableNote) and e.kind is NoteKind.OTHER)
    )
    seats = tuple(dataclasses.replace(s, line=0) for s in h.seats)
    s = h.summary
    assert s is not None
    summary = dataclasses.replace(
        s, line=0, seats=tuple(dataclasses.replace(r, line=0) for r in s.seats)
    )
    return (
        dataclasses.replace(h, events=ev, seats=seats, summary=summary, source=SourceRef("", 0)),
    )


# ------------------------------------------------------------------ element forms


def session(
    rounds: str,
    players: str = "",
    gametype: str = "7 Card Stud L €0.05/€0.10",
    extra: str = "",
    gamecode: str = "100",
) -> str:
    """A session of one hand (made up: never a copy of a real one). Default players: Ann
    (seat 1, €1) and Bob (seat 3, €2), Ann the hero."""
    players = players or (
        '<player seat="1" name="Ann" chips="€1" dealer="1" win="€0" bet="€0" />'
        '<player seat="3" name="Bob" chips="€2" dealer="0" win="€0" bet="€0" />'
    )
    return (
        '<?xml version="1.0" encoding="utf-8"?>\n<session sessioncode="1">\n<general>\n'
        f"<gametype>{gametype}</gametype>\n<tablename>T, 1</tablename>\n"
        f"<nickname>Ann</nickname>\n{extra}</general>\n"
        f'<game gamecode="{gamecode}">\n<general>\n<startdate>2020-01-02 03:04:05</startdate>\n'
        f"<players>\n{players}\n</players>\n</general>\n{rounds}</game>\n</session>\n"
    )


def xa(spec: str, cur: str = "€") -> str:
    """Actions from "no player type sum; ..." ("3 Ann 16 0.02; 4 Bob 0")."""
    out = []
    for item in filter(None, (x.split() for x in spec.split(";"))):
        no, player, typ, amount = (*item, "0")[:4]
        out.append(f'<action no="{no}" player="{player}" type="{typ}" sum="{cur}{amount}"/>')
    return "".join(out)


def xc(street: str, spec: str) -> str:
    """Cards from "Ann: CA D5 H4; Bob: X X SK" (no name: the community card)."""
    out = []
    for item in spec.split(";"):
        player, _, cards = item.rpartition(":")
        who = f' player="{player.strip()}"' if player.strip() else ""
        out.append(f'<cards type="{street}"{who}>{cards.strip()}</cards>')
    return "".join(out)


def rnd(no: int, *parts: str) -> str:
    return f'<round no="{no}">' + "".join(parts) + "</round>\n"


ANTES = rnd(0, xa("1 Ann 15 0.01; 2 Bob 15 0.01"))
THIRD = xc("Third Street", "Ann: CA D5 H4; Bob: X X SK")
STREETS = "".join(
    rnd(n, xc(w, f"Ann: C{n}; Bob: D{n}"))
    for n, w in ((3, "Fourth Street"), (4, "Fifth Street"), (5, "Sixth Street"))
)
BOB_FOLDS = rnd(2, THIRD, xa("3 Bob 0"))


def acts(h: Hand) -> list[tuple[object, ...]]:
    return [(a.player, a.kind, a.amount, a.to_amount, a.all_in) for a in h.actions()[2:]]


@pytest.mark.parametrize(
    ("body", "want"),
    [
        (  # bring-in, a completion (5), a raise to the street total (23), a call
            "3 Ann 16 0.02; 4 Bob 5 0.05; 5 Ann 23 0.10; 6 Bob 3 0.05",
            [
                ("Ann", ActionKind.BRING_IN, 2, None, False),
                ("Bob", ActionKind.COMPLETE, 5, 5, False),
                ("Ann", ActionKind.RAISE, 5, 10, False),
                ("Bob", ActionKind.CALL, 5, None, False),
            ],
        ),
        (  # numbered out of document order; a fold (0)
            "4 Bob 0; 3 Ann 16 0.02",
            [
                ("Ann", ActionKind.BRING_IN, 2, None, False),
                ("Bob", ActionKind.FOLD, 0, None, False),
            ],
        ),
        (  # an all-in (7) that tops the bet is a raise (with what it adds)
            "3 Ann 5 0.05; 4 Bob 23 0.10; 5 Ann 7 0.94; 6 Bob 7 1.89",
            [
                ("Ann", ActionKind.COMPLETE, 5, 5, False),
                ("Bob", ActionKind.RAISE, 5, 10, False),
                ("Ann", ActionKind.RAISE, 89, 99, True),
                ("Bob", ActionKind.RAISE, 100, 199, True),
            ],
        ),
        (  # raise by (6, K: FPDB's reading): over the bet
            "3 Ann 5 0.05; 4 Bob 6 0.05; 5 Ann 3 0.05",
            [
                ("Ann", ActionKind.COMPLETE, 5, 5, False),
                ("Bob", ActionKind.RAISE, 5, 10, False),
                ("Ann", ActionKind.CALL, 5, None, False),
            ],
        ),
    ],
)
def test_action_types(body: str, want: list[tuple[object, ...]]) -> None:
    h = one(session(ANTES + rnd(1) + rnd(2, THIRD, xa(body))))
    assert acts(h) == want


def test_later_street_bet_check_all_in_call_and_notes() -> None:
    rounds = (
        ANTES
        + rnd(2, THIRD, xa("3 Ann 16 0.02; 4 Bob 3 0.02"))
        + rnd(
            3, xc("Fourth Street", "Ann: C2; Bob: H10"), xa("5 Bob 5 0.05; 6 Ann 3 0.05; 7 Bob 8")
        )
        + rnd(4, xc("Fifth Street", "Ann: C3; Bob: H9"), xa("8 Bob 4; 9 Ann 7 0.92; 10 Bob 9"))
    )
    h = one(session(rounds))
    assert acts(h)[2:] == [
        ("Bob", ActionKind.BET, 5, None, False),
        ("Ann", ActionKind.CALL, 5, None, False),
        ("Bob", ActionKind.CHECK, 0, None, False),
        ("Ann", ActionKind.BET, 92, None, True),
        ("Bob", ActionKind.FOLD, 0, None, False),  # type 9 (sitting out) while dealt in: a fold
    ]
    (note,) = [e for e in h.events if isinstance(e, TableNote)]
    assert (note.kind, note.player) == (NoteKind.OTHER, "Bob")  # type 8: no action
    deals = [(d.street, d.player, d.cards, d.up) for d in h.events if isinstance(d, Deal)]
    assert deals[2:4] == [
        (Street.FOURTH, "Ann", (parse_card("2c"),), (True,)),
        (Street.FOURTH, "Bob", (parse_card("Th"),), (True,)),
    ]


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("CA D5 H4", parse_cards("Ac 5d 4h")),
        ("X X S10", (None, None, parse_card("Ts"))),
        ("[cards]", (None, None, None)),
    ],
)
def test_card_forms(text: str, want: tuple[object, ...]) -> None:
    h = one(session(ANTES + rnd(2, xc("Third Street", f"Ann: {text}; Bob: X X SK"), xa("3 Bob 0"))))
    assert [d.cards for d in h.events if isinstance(d, Deal)][0] == want


def test_river_card_is_down_and_a_playerless_river_card_is_the_community_card() -> None:
    base = ANTES + rnd(2, THIRD, xa("3 Ann 16 0.02; 4 Bob 3 0.02")) + STREETS
    h = one(session(base + rnd(6, xc("River", "Ann: HQ; Bob: X"))))
    assert [(d.cards, d.up) for d in h.events if isinstance(d, Deal)][-2:] == [
        ((parse_card("Qh"),), (False,)),
        ((None,), (False,)),
    ]
    h = one(session(base + rnd(6, xc("River", "HQ"))))
    assert [e.community for e in h.events if isinstance(e, StreetStart)][-1] == parse_card("Qh")


@pytest.mark.parametrize(
    ("gametype", "want"),
    [
        ("7 Card Stud Hi-Lo L €0.05/€0.10", (Game.STUD_HILO, Unit.CENT, "EUR", 5, 10)),
        ("7 Card Stud L $2/$4", (Game.STUD, Unit.CENT, "USD", 200, 400)),
        ("Razz L £0.10/£0.20 Ante £0.02", (Game.RAZZ, Unit.CENT, "GBP", 10, 20)),
        ("7 Card Stud Hi/Lo L €1,000/€2,000", (Game.STUD_HILO, Unit.CENT, "EUR", 100000, 200000)),
        # K (FPDB's patterns): "HiLow" for hi/lo, the limit spelled "Limit"
        ("7 Card Stud HiLow L €0.10/€0.20", (Game.STUD_HILO, Unit.CENT, "EUR", 10, 20)),
        ("7 Card Stud Hi-Lo Limit €0.10/€0.20", (Game.STUD_HILO, Unit.CENT, "EUR", 10, 20)),
        ("7 Card Stud Limit $2/$4", (Game.STUD, Unit.CENT, "USD", 200, 400)),
        # K (FPDB): the French skins' decimal comma and sign after the amount
        ("7 Card Stud Hi-Lo L 0,10€/0,20€", (Game.STUD_HILO, Unit.CENT, "EUR", 10, 20)),
    ],
)
def test_gametype_forms(gametype: str, want: tuple[object, ...]) -> None:
    sym = next(c for c in "€$£" if c in gametype)
    h = one(session(ANTES + BOB_FOLDS, gametype=gametype).replace('"€', f'"{sym}'))
    assert (h.game, h.unit, h.currency, h.small_bet, h.big_bet) == want


def test_french_decimal_comma_amounts() -> None:
    """K (FPDB): FDJ, Betclic and PMU write "0,05€": a decimal comma, never thousands (a
    comma before three digits stays a thousands separator: "1,440" chips)."""
    french = session(ANTES + BOB_FOLDS).replace('sum="€0.01"', 'sum="0,01€"')
    h = one(french)
    assert [a.amount for a in h.actions()[:2]] == [1, 1]
    assert one(session(ANTES + BOB_FOLDS)) == h


@pytest.mark.parametrize("gametype", ["5 Card Stud L $0.05/$0.10", "7 Card Stud PL €1/€2"])
def test_other_games_are_skipped_by_name(gametype: str) -> None:
    got = issue(session(rnd(0), gametype=gametype))
    assert (got.kind, got.hand_id, got.game) == ("skipped", "100", gametype.rsplit(" ", 1)[0])


def test_money_card_and_detection_forms() -> None:
    d = get_dialect("ipoker")
    assert isinstance(d, IPoker)
    assert format_amount(100, Unit.CENT, "EUR") == "€1"
    assert format_amount(5, Unit.CENT, "EUR") == "€0.05"
    assert format_amount(123456, Unit.CENT, "USD") == "$1,234.56"
    assert format_amount(1440, Unit.CHIP, None) == "1,440"
    assert [card_token(c) for c in parse_cards("Ah Td 2c")] == ["HA", "D10", "C2"]
    with pytest.raises(ValueError, match="euros, dollars or pounds"):
        format_amount(1, Unit.CENT, "SEK")
    assert d.detect_xml('<?xml version="1.0"?>\n<session sessioncode="1">\n<general>')
    assert not d.detect_xml('<description type="7-Stud H/L8" stakes="Limit $0.25/$0.50"/>')


# ------------------------------------------------------------- derived facts


def sng(gamecode: str, body: str, ante: int = 10, more: str = "") -> tuple[str, str, str]:
    """A sit & go hand (no stakes written): Ann and Bob with 1,000 chips."""
    players = (
        '<player seat="1" name="Ann" chips="1,000" win="0" bet="0"/>'
        '<player seat="2" name="Bob" chips="1,000" win="0" bet="0"/>'
    )
    antes = rnd(0, xa(f"1 Ann 15 {ante}; 2 Bob 15 {ante}", ""))
    return antes + rnd(2, THIRD, xa(body, "")) + more, players, gamecode


def sessions(*hands: tuple[str, str, str]) -> str:
    """One sit & go session of several hands."""
    games = "".join(
        f'<game gamecode="{code}">\n<general><players>{players}</players></general>\n'
        f"{rounds}</game>"
        for rounds, players, code in hands
    )
    return (
        "<session>\n<general>\n<gametype>7 Card Stud L</gametype>\n<tablename>S, 5, 5</tablename>\n"
        "<nickname>Ann</nickname>\n<tournamentname>S</tournamentname>\n</general>\n"
        f"{games}\n</session>\n"
    )


FOLD_TO_BRING_IN = "3 Ann 16 20; 4 Bob 0"
COMPLETE_80 = "3 Ann 16 20; 4 Bob 5 80; 5 Ann 0"


def test_stakes_come_from_the_hand_or_its_level() -> None:
    """No stakes written: a completion gives the small bet (big = 2x); a hand that bets
    nothing waits for a later hand of its level (same ante and bring-in), which may come
    after it; a hand of another level ends the wait, and a hand no hand tells is rejected."""
    hands = (sng("1", FOLD_TO_BRING_IN), sng("2", COMPLETE_80), sng("3", FOLD_TO_BRING_IN))
    items = read(sessions(*hands))
    assert [(h.hand_id, h.small_bet, h.big_bet) for h in items if isinstance(h, Hand)] == [
        ("1", 80, 160),
        ("2", 80, 160),
        ("3", 80, 160),
    ]
    items = read(sessions(sng("1", FOLD_TO_BRING_IN), sng("2", COMPLETE_80, ante=15)))
    assert [type(i).__name__ for i in items] == ["ParseIssue", "Hand"]
    assert isinstance(items[0], ParseIssue) and items[0].hand_id == "1"
    assert "stakes are not written" in items[0].reason and items[0].kind == "rejected"


def one_sng(hand: tuple[str, str, str]) -> Hand | ParseIssue:
    (h,) = read(sessions(hand))
    return h


def test_stakes_from_later_streets() -> None:
    """A 5th-street bet is the big bet; a 4th-street bet the small one unless a board shows
    a pair (then it may be the double bet, and tells nothing)."""
    call = "3 Ann 16 20; 4 Bob 3 20"

    def fourth(ann: str, bet: int) -> str:
        return rnd(
            3, xc("Fourth Street", f"Ann: {ann}; Bob: HJ"), xa(f"5 Bob 5 {bet}; 6 Ann 0", "")
        )

    h = one_sng(sng("1", call, more=fourth("C9", 80)))
    assert isinstance(h, Hand) and (h.small_bet, h.big_bet) == (80, 160)
    got = one_sng(sng("1", call, more=fourth("H4", 160)))  # H4 pairs Ann's H4
    assert isinstance(got, ParseIssue) and "stakes" in got.reason
    fifth = rnd(3, xc("Fourth Street", "Ann: C9; Bob: HJ")) + rnd(
        4, xc("Fifth Street", "Ann: C8; Bob: HQ"), xa("5 Bob 5 160; 6 Ann 0", "")
    )
    h = one_sng(sng("1", call, more=fifth))
    assert isinstance(h, Hand) and (h.small_bet, h.big_bet) == (80, 160)


def test_wins_bets_shows_and_mucks() -> None:
    """`win` is a TOTAL collect; the pot is the bets' sum, the rake what the wins leave;
    at a showdown an opponent whose cards are written shows, one whose are not mucks; a
    `bet` that disagrees with the actions (not the known misprint) is left to the audit."""
    players = (
        '<player seat="1" name="Ann" chips="€1" win="€0.15" bet="€0.08"/>'
        '<player seat="3" name="Bob" chips="€2" win="€0" bet="€0.08"/>'
        '<player seat="5" name="Cy" chips="€2" win="€0" bet="€0"/>'
    )
    body = ANTES + rnd(2, THIRD, xa("3 Ann 16 0.02; 4 Bob 5 0.05; 5 Ann 3 0.03")) + STREETS
    h = one(session(body + rnd(6, xc("River", "Ann: HQ; Bob: X")), players=players))
    events = [(type(e).__name__, e.player) for e in h.events if isinstance(e, (Show, Muck))]
    assert events == [("Muck", "Bob")]
    collects = [(c.player, c.amount, c.pot) for c in h.events if isinstance(c, Collect)]
    assert collects == [("Ann", 15, PotKind.TOTAL)]
    assert h.summary is not None and (h.summary.total_pot, h.summary.rake) == (16, 1)
    assert [s.sitting_out for s in h.seats] == [False, False, True]
    outcomes = [r.outcome for r in h.summary.seats]
    assert outcomes == [SeatOutcome.SHOWED, SeatOutcome.MUCKED, SeatOutcome.OTHER]
    shown = body.replace("X X SK", "H2 H3 SK") + rnd(6, xc("River", "Ann: HQ; Bob: S2"))
    h = one(session(shown, players=players))
    assert [(e.player, len(e.cards)) for e in h.events if isinstance(e, Show)] == [("Bob", 7)]
    wrong = players.replace('bet="€0.08"/><player seat="3"', 'bet="€0.09"/><player seat="3"')
    h = one(session(body + rnd(6, xc("River", "Ann: HQ; Bob: X")), players=wrong))
    assert errors(h)[Code.POT_TOTAL] >= 1


# --------------------------------------------------------------------- bad input


def test_cards_dealt_to_a_player_not_seated_reject_the_hand() -> None:
    """Only action elements are left out (they, and XML not well-formed: the contract,
    tests/dialects/test_contract.py)."""
    text = session(ANTES + BOB_FOLDS.replace("Bob", "Zed"), gamecode="779")
    got = issue(text)
    assert (got.kind, got.hand_id, got.line) == ("rejected", "779", 16)
    assert "'Zed' is not seated" in got.reason


def test_garbled_card_is_an_unknown_card() -> None:
    h = one(session(ANTES + BOB_FOLDS.replace("X X SK", "X X ZK")))
    assert [d.cards for d in h.events if isinstance(d, Deal)][1] == (None, None, None)
    assert Code.GARBLED_CARD in errors(h)
    assert sum(contributions(h).values()) == 2  # the money still counts


# --------------------------------------------------------------------- round trips


def chips(h: Hand) -> list[tuple[object, ...]]:
    """Each action as the chips it adds and the street total after it (kinds of wager
    merged: PokerStars' "raise" is iPoker's completion)."""
    out: list[tuple[object, ...]] = []
    street: dict[str, int] = {}
    now = Street.THIRD
    for a in h.actions():
        if a.street is not now:
            now, street = a.street, {}
        before = street.get(a.player, 0)
        if a.kind in (ActionKind.RAISE, ActionKind.COMPLETE):
            top = max(street.values(), default=0)
            total = a.to_amount if a.to_amount is not None else top + a.amount
        elif a.kind is ActionKind.ANTE:
            total = before - a.amount
        else:
            total = before + a.amount
        kind = (
            "wager" if a.kind in (ActionKind.BET, ActionKind.RAISE, ActionKind.COMPLETE) else a.kind
        )
        street[a.player] = total if a.kind is not ActionKind.ANTE else before
        out.append((a.street, a.player, kind, total, a.all_in))
    return out


def project(h: Hand) -> dict[str, object]:
    """What iPoker's XML carries, comparable between a simulated hand and its reading."""
    ev = h.events
    back = Counter({u.player: u.amount for u in ev if isinstance(u, UncalledBet)})
    s = h.summary
    assert s is not None
    show = {e.player for e in ev if isinstance(e, Show)} - {h.hero}
    return {
        "head": (h.hand_id, h.game, h.small_bet, h.big_bet, h.unit, h.currency, h.table,
                 h.tournament_id, h.buy_in, h.hero),
        "seats": [(x.seat, x.player, x.stack, x.sitting_out) for x in h.seats],
        "actions": chips(h),
        "up": [(d.street, d.player, tuple(c if u or d.player == h.hero else None
                                          for c, u in zip(d.cards, d.up, strict=True)))
               for d in ev if isinstance(d, Deal) and (any(d.up) or d.player == h.hero)],
        "community": [e.community for e in ev if isinstance(e, StreetStart)],
        "shows": show,
        "won": +(Counter(collections(h)) + back),
        "pot": (s.total_pot + sum(back.values()), s.rake),
        "folds": [(r.player, r.folded_street) for r in s.seats],
    }  # fmt: skip


def check_round_trip(hands: list[Hand], text: str) -> list[Hand | ParseIssue]:
    items = read(text)
    assert len(items) == len(hands)
    for orig, got in zip(hands, items, strict=True):
        if isinstance(got, ParseIssue):  # only a hand whose level no hand of it tells
            assert "stakes are not written" in got.reason, got
            level = [x for x in hands if _ante(x) == _ante(orig)]
            assert not any(_tells(x) for x in level), orig.hand_id
            continue
        same(orig, got)
    return items


def same(orig: Hand, back: Hand) -> None:
    """The contract's round trip (tests/dialects/test_contract.py): `back`, read from the
    XML written of `orig`, replays clean and carries what the XML carries."""
    assert replay(back).errors == (), (orig.hand_id, replay(back).errors)
    assert project(back) == project(orig), orig.hand_id


def _ante(h: Hand) -> int:
    return max(a.amount for a in h.actions() if a.kind is ActionKind.ANTE)


def _tells(h: Hand) -> bool:
    """Whether the hand shows its level's bets as a reader can know them: a completion on
    3rd, a bet on 5th or later, or a bet on 4th when no up pair there allows the big bet
    (all-ins tell nothing)."""
    pair = _pair_on_4th(h)
    return any(
        not a.all_in
        and (
            a.kind is ActionKind.COMPLETE
            or (a.kind is ActionKind.BET and (a.street >= Street.FIFTH or not pair))
        )
        for a in h.actions()
    )


def _pair_on_4th(h: Hand) -> bool:
    """Whether a player's 4th-street up card pairs his door card."""
    up: dict[str, list[int]] = {}
    for d in h.events:
        if isinstance(d, Deal) and d.street in (Street.THIRD, Street.FOURTH):
            ranks = [c.rank for c, u in zip(d.cards, d.up, strict=True) if u and c is not None]
            up.setdefault(d.player, []).extend(ranks)
    return any(len(r) == 2 and r[0] == r[1] for r in up.values())


ROUND_TRIPS = [
    (game, players, tournament)
    for game in ("stud", "stud_hilo", "razz")
    for players in (2, 4, 6, 8)
    for tournament in (False, True)
]


@pytest.mark.parametrize(("game", "players", "tournament"), ROUND_TRIPS)
def test_round_trip_of_one_session(game: str, players: int, tournament: bool) -> None:
    """One session for all the hands, with CRLF: a tournament's session across levels
    names no stakes, they are derived (one session per hand, as `histkit simulate`
    writes them: tests/dialects/test_contract.py)."""
    hands = list(
        simulate(
            game,
            25,
            players=players,
            seed=players,
            tournament=tournament,
            currency="EUR",
            profile=IPOKER,
        )
    )
    check_round_trip(hands, write_hands(hands, newline="\r\n"))


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(["stud", "stud_hilo", "razz"]),
    players=st.integers(2, 8),
    seed=st.integers(0, 2**31),
    tournament=st.booleans(),
    currency=st.sampled_from(["EUR", "USD", "GBP"]),
)
def test_round_trip_any_seed(
    game: str, players: int, seed: int, tournament: bool, currency: str
) -> None:
    hands = list(
        simulate(
            game,
            5,
            players=players,
            seed=seed,
            tournament=tournament,
            currency=currency,
            profile=IPOKER,
        )
    )
    check_round_trip(hands, write_hands(hands))


def test_round_trip_covers_the_writer_choices() -> None:
    hands = [
        h
        for game in ("stud", "stud_hilo", "razz")
        for h in simulate(game, 40, players=8, seed=11, currency="EUR", profile=IPOKER)
    ]
    text = write_hands(hands)
    check_round_trip(hands, text)
    assert any(isinstance(e, UncalledBet) for h in hands for e in h.events)
    assert re.search(r'<cards type="River">', text)  # a community card
    for typ in ("15", "16", "3", "5", "23", "7", "4", "0"):
        assert f'type="{typ}"' in text, typ
    assert "<gametype>7 Card Stud Hi-Lo L €0.04/€0.08</gametype>" in text


def test_streamed_session_is_one_session() -> None:
    hands = list(simulate("stud", 30, players=5, seed=3, currency="EUR", profile=IPOKER))
    text = "".join(iter_session(hands))
    assert text.count("<session") == 1
    assert [facts(h) for h in read(text)] == [facts(h) for h in read(write_hands(hands))]


# --------------------------------------------------------------------- memory


@pytest.mark.slow
def test_memory_benchmark_runs_and_prints_a_ratio() -> None:
    proc = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_ipoker_memory.py"),
         "--small", "500", "--big", "5000"],
        capture_output=True, text=True, timeout=900, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert re.search(r"ratio \d+\.\d+", proc.stdout), proc.stdout
