"""The Winamax dialect: the real hands parse, add up and replay as the site played them;
each line form maps to the right event; simulated hands written as Winamax writes them
come back equal on what the text carries; bad input is rejected with file, line and id."""

from __future__ import annotations

import re
from collections import Counter
from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import pytest

from histkit.accounting import collections, contributions
from histkit.cards import Card, parse_card, parse_cards
from histkit.dialects import get_dialect
from histkit.dialects.builder import LineReader
from histkit.dialects.winamax import WINAMAX, Winamax
from histkit.dialects.winamax_writer import format_amount, write_hand, write_hands
from histkit.model import (
    Action,
    ActionKind,
    Collect,
    Deal,
    Game,
    Half,
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
from histkit.reader import ParseIssue, iter_hands
from histkit.reading.split import HandBlock
from histkit.rules import Code, replay
from histkit.simulate import simulate
from tests.conftest import CORPUS
from tests.dialects import helpers

WINAMAX_DIR = CORPUS / "winamax"
needs_winamax = helpers.needs_folder(WINAMAX_DIR)

STUD_EUR = "9250793-470-1478990787"
STUD_PLAY = "8835086-564-1465760198"
HILO_EUR = "9250793-554-1478991850"


def parse(text: str, source: str = "t.txt") -> list[Hand | ParseIssue]:
    return helpers.parse_as(text, "winamax", source)


def strict(text: str, source: str = "t.txt") -> list[Hand | ParseIssue]:
    """As `parse --strict` reads it (the normal reading keeps what it rejects)."""
    return helpers.parse_strictly(text, "winamax", source)


one_hand = partial(helpers.one_hand, site="winamax")
errors = partial(helpers.error_counts, profile=WINAMAX)
corpus_items = helpers.corpus_fixture(WINAMAX_DIR, site="winamax")
corpus_hands = helpers.hands_by_id


# ------------------------------------------------------------------------ real files


@needs_winamax
def test_corpus_counts(corpus_items: list[Hand | ParseIssue]) -> None:
    """As ../shared/hands/README.md lists them: stud 2 (EUR, play), stud_hilo 1; the 2-7
    triple draw hand is skipped from its header; nothing is rejected."""
    hands = [h for h in corpus_items if isinstance(h, Hand)]
    issues = [i for i in corpus_items if isinstance(i, ParseIssue)]
    assert Counter(h.game for h in hands) == {Game.STUD: 2, Game.STUD_HILO: 1}
    assert [(i.kind, i.game, i.hand_id) for i in issues] == [
        ("skipped", "2-7 Triple Draw fixed limit", "9250793-388-1478989461")
    ]
    assert all(h.site == "winamax" for h in hands)
    # the site is found from the text alone, as `histkit parse` reads a mixed folder
    assert list(iter_hands([WINAMAX_DIR])) == corpus_items


@needs_winamax
def test_corpus_headers(corpus_items: list[Hand | ParseIssue]) -> None:
    hands = corpus_hands(corpus_items)
    eur, play, hilo = hands[STUD_EUR], hands[STUD_PLAY], hands[HILO_EUR]
    assert (eur.unit, eur.currency, eur.ante, eur.small_bet, eur.big_bet) == (
        Unit.CENT,
        "EUR",
        500,
        2500,
        5000,
    )
    # play money: hundredths of a play chip, its own currency
    assert (play.unit, play.currency, play.ante, play.small_bet, play.big_bet) == (
        Unit.CENT,
        "PLAY",
        1,
        5,
        10,
    )
    assert eur.started_at == datetime(2016, 11, 12, 22, 46, 27, tzinfo=UTC)
    assert eur.local_time == "2016/11/12 22:46:27 UTC"
    assert (eur.table, eur.max_seats, eur.hero) == ("Pampelune", 6, "Hero")
    assert (play.table, play.hero) == ("Ceské Budejovice", None)  # the export deals nothing
    assert hilo.hero == "Hero" and not eur.is_tournament
    assert [(s.seat, s.player, s.stack) for s in play.seats] == [
        (2, "Player0", 205),
        (3, "Player1", 315),
        (6, "Player2", 148),
    ]


@needs_winamax
def test_corpus_chips_add_up(corpus_items: list[Hand | ParseIssue]) -> None:
    """collected + rake == total pot (the site writes it after rake: 458€ + 2€ = 460€
    put in), the nets sum to -rake, the summary's winnings are the collected chips."""
    for h in corpus_hands(corpus_items).values():
        assert h.summary is not None
        paid, got = contributions(h), collections(h)
        assert sum(paid.values()) == h.summary.total_pot, h.hand_id
        assert sum(got.values()) + h.summary.rake == h.summary.total_pot, h.hand_id
        net = sum(got.get(p, 0) - paid.get(p, 0) for p in paid.keys() | got.keys())
        assert net == -h.summary.rake
        for r in h.summary.seats:
            assert r.won == got.get(r.player, 0), (h.hand_id, r)
    totals = {
        h.hand_id: (h.summary.total_pot, h.summary.rake)
        for h in corpus_hands(corpus_items).values()
        if h.summary
    }
    assert totals == {STUD_EUR: (46000, 200), STUD_PLAY: (69, 4), HILO_EUR: (23000, 200)}


@needs_winamax
def test_corpus_replays(corpus_items: list[Hand | ParseIssue]) -> None:
    """Every real hand replays with no violation under the Winamax profile (also the
    default profile for a Winamax hand), including the two the site writes its own way:

    - hi/lo: Player0 bets 50€ on 7th, Hero folds, and the site prints no "uncalled bet"
      line: the 50€ stays in the written pot (180€ of matched money + 50€ = 228€ + 2€ rake)
      and Player0 collects it as two halves (`Winamax.prints_uncalled` is False: the
      engine leaves the bet in a pot only its bettor can win, and asks for no return line);
    - play-money export: no "Dealt to" line at all. The engine reads such a record as one
      that writes no deals (an info record says so), takes the shown cards as all it
      knows, and checks the money; the dialect invents no deal.
    """
    hands = corpus_hands(corpus_items)
    assert replay(hands[STUD_EUR]).profile == "winamax"
    assert errors(hands[STUD_EUR]) == {}
    hilo = replay(hands[HILO_EUR], WINAMAX)
    assert hilo.errors == ()
    assert [(a.pot, a.winners) for a in hilo.awards][0] == (0, ("Player0",))
    play = replay(hands[STUD_PLAY])
    assert play.errors == ()
    assert [v.code for v in play.violations] == [Code.DEALS_NOT_RECORDED]
    assert all(not isinstance(e, Deal) for e in hands[STUD_PLAY].events)


@needs_winamax
def test_corpus_events(corpus_items: list[Hand | ParseIssue]) -> None:
    hands = corpus_hands(corpus_items)
    eur = hands[STUD_EUR]
    acts = [(a.street, a.player, a.kind, a.amount, a.to_amount) for a in eur.actions()]
    assert acts[2:5] == [
        (Street.THIRD, "Player0", ActionKind.BRING_IN, 1000, None),
        (Street.THIRD, "Hero", ActionKind.COMPLETE, 2500, 2500),  # "raises 25€ to 25€"
        (Street.THIRD, "Player0", ActionKind.CALL, 1500, None),
    ]
    assert (Street.SEVENTH, "Hero", ActionKind.RAISE, 5000, 10000) in acts
    deals = [e for e in eur.events if isinstance(e, Deal)]
    assert deals[1] == Deal(
        Street.THIRD, "Player0", (None, None, parse_card("9h")), (False, False, True), (), 10
    )
    assert deals[-2] == Deal(
        Street.SEVENTH,
        "Player0",
        (None,),
        (False,),
        (None, None, *parse_cards("9h Kh Kd Qc")),
        30,
    )
    shows = [e for e in eur.events if isinstance(e, Show)]
    assert shows[1].description == "Flush Queen high"
    hilo = hands[HILO_EUR]
    assert [e for e in hilo.events if isinstance(e, Collect)] == [
        Collect("Player0", 11400, PotKind.POT, 0, 35, Half.HIGH),
        Collect("Player0", 11400, PotKind.POT, 0, 36, Half.LOW),
    ]
    # "Seat 2: Player0 won 114€" twice (once per half): one seat result of 228€
    assert hilo.summary is not None
    assert [(r.seat, r.outcome, r.won, r.line) for r in hilo.summary.seats] == [
        (2, SeatOutcome.COLLECTED, 22800, 39)
    ]
    play = hands[STUD_PLAY]
    assert (Street.THIRD, "Player1", ActionKind.BRING_IN, 2, None) in [
        (a.street, a.player, a.kind, a.amount, a.to_amount) for a in play.actions()
    ]  # the export's "bring-in 0.02"


@needs_winamax
def test_writer_reproduces_the_client_files(corpus_items: list[Hand | ParseIssue]) -> None:
    """The two client files come back byte for byte (the export's own words, "*** THIRD
    ***" and "bring-in", are written in the client's forms)."""
    for h in corpus_hands(corpus_items).values():
        real = Path(h.source.file).read_text(encoding="utf-8").replace("\r\n", "\n")
        if h.hand_id == STUD_PLAY:
            assert "*** 3rd STREET ***" in write_hand(h)
            continue
        assert write_hand(h) == real.rstrip("\n"), h.hand_id


# ------------------------------------------------------------------- synthetic hands
# Made-up hands in forms the real files lack (never copies of them); chips add up.

HILO_SIDE_POT = (
    (
        "Winamax Poker - CashGame - HandId: #7000001-12-1700000000 - "
        "7-Card Stud Hi/Lo fixed limit (0.10€/1€/2€) - 2023/11/14 22:13:20 UTC\n"
    )
    + """\
Table: 'Synthétique' 6-max (real money)
Seat 1: Anna (10€)
Seat 3: Bo Li (1.60€)
Seat 5: Hero (20€)
Seat 6: Zed (5€)
*** ANTE/BLINDS ***
Anna posts ante 0.10€
Bo Li posts ante 0.10€
Hero posts ante 0.10€
Zed sits out
*** 3rd STREET ***
Dealt to Anna [X X 5c]
Dealt to Bo Li [X X Kd]
Dealt to Hero [Ah 2d 4s]
Hero brings in 0.25€
Anna raises 1€ to 1€
Bo Li calls 1€
Hero calls 0.75€
*** 4th STREET ***
Dealt to Anna [X X 5c] [6c]
Dealt to Bo Li [X X Kd] [Kh]
Dealt to Hero [Ah 2d 4s] [3h]
Bo Li bets 0.50€ and is all-in
Hero calls 0.50€
Anna calls 0.50€
*** 5th STREET ***
Dealt to Anna [X X 5c 6c] [7d]
Dealt to Bo Li [X X Kd Kh] [Qs]
Dealt to Hero [Ah 2d 4s 3h] [8c]
Hero bets 2€
Anna calls 2€
*** 6th STREET ***
Dealt to Anna [X X 5c 6c 7d] [Jc]
Dealt to Bo Li [X X Kd Kh Qs] [2c]
Dealt to Hero [Ah 2d 4s 3h 8c] [9s]
Anna checks
Hero checks
*** 7th STREET ***
Dealt to Anna [X X 5c 6c 7d Jc] [X]
Dealt to Bo Li [X X Kd Kh Qs 2c] [X]
Dealt to Hero [Ah 2d 4s 3h 8c 9s] [Td]
Anna bets 2€
Hero calls 2€
*** SHOW DOWN ***
Anna shows [9c Tc 5c 6c 7d Jc 2h] (Flush Jack high)
Hero shows [Ah 2d 4s 3h 8c 9s Td] (High card : Ace - Low : 8 4 3 2 A)
Bo Li shows [Ks Qh Kd Kh Qs 2c 3c] (Full of Kings by Queens)
Anna collected 4€ from side pot 1(HI)
Hero collected 4€ from side pot 1(LO)
Bo Li collected 2.20€ from main pot(HI)
Hero collected 2.20€ from main pot(LO)
*** SUMMARY ***
Total pot 12.40€ | Main pot 4.40€ | Side pot 1 8€ | Rake 0.40€
Seat 1: Anna showed [9c Tc 5c 6c 7d Jc 2h] and won 4€ with Flush Jack high
Seat 3: Bo Li showed [Ks Qh Kd Kh Qs 2c 3c] and won 2.20€ with Full of Kings by Queens
Seat 5: Hero showed [Ah 2d 4s 3h 8c 9s Td] and won 4€ with High card : Ace - Low : 8 4 3 2 A
Seat 5: Hero showed [Ah 2d 4s 3h 8c 9s Td] and won 2.20€ with High card : Ace - Low : 8 4 3 2 A
"""
)

RAZZ_TOURNAMENT = (
    (
        'Winamax Poker - Tournament "Razz Party" buyIn: 4.50€ + 0.50€ level: 3 - HandId: '
        "#1234567890123-7-1700000000 - Razz fixed limit (5/20/40) - 2023/11/14 23:13:20 CET\n"
    )
    + """\
Table: 'Razz Party(654321)#003' 6-max (real money) Seat #1 is the button
Seat 1: Ann (800, 2.50€ bounty)
Seat 2: Cid (3)
Seat 4: Hero (1200, 2.50€ bounty)
*** ANTE/BLINDS ***
Ann posts ante 5
Cid posts ante 3 and is all-in
Hero posts ante 5
*** 3rd STREET ***
Dealt to Ann [X X Kc]
Dealt to Cid [X X Qd]
Dealt to Hero [2s 3d 7h]
Ann brings in 10
Hero raises 20 to 20
Ann calls 10
*** 4th STREET ***
Dealt to Ann [X X Kc] [5c]
Dealt to Cid [X X Qd] [Qc]
Dealt to Hero [2s 3d 7h] [Ah]
Hero checks
Ann checks
*** 5th STREET ***
Dealt to Ann [X X Kc 5c] [6d]
Dealt to Cid [X X Qd Qc] [Js]
Dealt to Hero [2s 3d 7h Ah] [4d]
Hero checks
Ann checks
*** 6th STREET ***
Dealt to Ann [X X Kc 5c 6d] [Jd]
Dealt to Cid [X X Qd Qc Js] [9s]
Dealt to Hero [2s 3d 7h Ah 4d] [5h]
Hero checks
Ann checks
*** 7th STREET ***
Dealt to Ann [X X Kc 5c 6d Jd] [X]
Dealt to Cid [X X Qd Qc Js 9s] [X]
Dealt to Hero [2s 3d 7h Ah 4d 5h] [Kd]
Hero checks
Ann checks
*** SHOW DOWN ***
Ann shows [8h 9h Kc 5c 6d Jd 4h]
Cid shows [Ts Th Qd Qc Js 9s 8s]
Hero shows [2s 3d 7h Ah 4d 5h Kd]
Hero collected 44 from side pot 1
Hero collected 9 from main pot
*** SUMMARY ***
Total pot 53 | Main pot 9 | Side pot 1 44 | No rake
Seat 1: Ann showed [8h 9h Kc 5c 6d Jd 4h] and lost
Seat 2: Cid showed [Ts Th Qd Qc Js 9s 8s] and lost
Seat 4: Hero showed [2s 3d 7h Ah 4d 5h Kd] and won 44
Seat 4: Hero showed [2s 3d 7h Ah 4d 5h Kd] and won 9
"""
)

HOLDEM = (
    (
        'Winamax Poker - Tournament "Freeroll 250€" buyIn: 0€ + 0€ level: 1 - HandId: '
        "#335624437813657601-1-1319830069 - Holdem no limit (10/20) - 2011/10/28 19:27:49 UTC\n"
    )
    + """\
Table: 'Freeroll 250€(15283474)#007' 9-max (real money) Seat #9 is the button
Seat 1: Someone (1500)
Seat 9: Other (1500)
*** ANTE/BLINDS ***
Someone posts small blind 10
Other posts big blind 20
"""
)


def test_hilo_side_pot_hand() -> None:
    h = one_hand(HILO_SIDE_POT)
    assert (h.game, h.unit, h.currency, h.ante, h.hero, h.table) == (
        Game.STUD_HILO,
        Unit.CENT,
        "EUR",
        10,
        "Hero",
        "Synthétique",
    )
    assert errors(h) == {}  # every action, both pots and all four halves check out
    assert TableNote(NoteKind.SIT_OUT, "Zed", "Zed sits out", 11) in h.events
    line = HILO_SIDE_POT.splitlines().index("Bo Li bets 0.50€ and is all-in") + 1
    assert Action(Street.FOURTH, "Bo Li", ActionKind.BET, 50, None, True, line) in h.events
    assert [
        (c.player, c.amount, c.pot, c.pot_index) for c in h.events if isinstance(c, Collect)
    ] == [
        ("Anna", 400, PotKind.SIDE, 1),
        ("Hero", 400, PotKind.SIDE, 1),
        ("Bo Li", 220, PotKind.MAIN, 0),
        ("Hero", 220, PotKind.MAIN, 0),
    ]
    s = h.summary
    assert s is not None
    assert (s.total_pot, s.rake, s.main_pot, s.side_pots) == (1280, 40, 440, (800,))
    assert [(r.seat, r.won) for r in s.seats] == [(1, 400), (3, 220), (5, 620)]


def test_razz_tournament_hand() -> None:
    h = one_hand(RAZZ_TOURNAMENT)
    assert (h.game, h.unit, h.currency, h.tournament_id, h.level, h.buy_in) == (
        Game.RAZZ,
        Unit.CHIP,
        None,
        "654321",
        "3",
        "4.50€ + 0.50€",
    )
    assert (h.ante, h.small_bet, h.big_bet, h.table) == (5, 20, 40, "Razz Party(654321)#003")
    assert h.started_at == datetime(2023, 11, 14, 22, 13, 20, tzinfo=UTC)  # CET = UTC+1
    assert [(s.player, s.stack) for s in h.seats] == [("Ann", 800), ("Cid", 3), ("Hero", 1200)]
    assert Action(Street.THIRD, "Cid", ActionKind.ANTE, 3, None, True, 8) in h.events
    assert Action(Street.THIRD, "Hero", ActionKind.COMPLETE, 20, 20, False, 15) in h.events
    s = h.summary
    assert s is not None
    assert (s.total_pot, s.rake, s.main_pot, s.side_pots) == (53, 0, 9, (44,))
    assert errors(h) == {}


def test_other_games_are_skipped_from_the_header() -> None:
    (item,) = parse(HOLDEM)
    assert isinstance(item, ParseIssue)
    assert (item.kind, item.game, item.hand_id) == (
        "skipped",
        "Holdem no limit",
        "335624437813657601-1-1319830069",
    )
    d = get_dialect("winamax")
    assert d.detect(HOLDEM.splitlines()[0]) and d.detect(HILO_SIDE_POT.splitlines()[0])
    assert not get_dialect("pokerstars").detect(HILO_SIDE_POT.splitlines()[0])


def test_fast_path_lark_and_cython_agree_on_made_up_hands() -> None:
    """(Simulated hands and the real files: tests/dialects/test_contract.py.)"""
    bad = HILO_SIDE_POT.replace("Anna calls 0.50€", "Anna calIs 0.50€")
    text = "\n\n".join([HILO_SIDE_POT, RAZZ_TOURNAMENT, HOLDEM, bad])
    want = list(Winamax(fast=False, cython=False).parse(text, "t.txt"))
    assert sum(isinstance(h, Hand) for h in want) == 3  # the garbled one read without its line
    for d in (Winamax(fast=True), Winamax(fast=False, cython=True)):
        assert list(d.parse(text, "t.txt")) == want


# --------------------------------------------------------------------- line by line

HEAD = (
    "Winamax Poker - CashGame - HandId: #1-2-3 - 7-Card Stud fixed limit (0.50€/2€/4€) - "
    "2016/11/12 22:46:27 UTC"
)
SEATS = ["Seat 1: Anna (50€)", "Seat 2: P [x] (30.50€)", "Seat 4: Hero (40€)"]


def reader(header: str = HEAD, seats: list[str] = SEATS) -> LineReader:
    d = get_dialect("winamax")
    r = LineReader(d, HandBlock(1, [header]), "t.txt")
    feed(r, "HEADER", header)
    feed(r, "TABLE", "Table: 'T' 6-max (real money)")
    for s in seats:
        feed(r, "SEAT", s)
    return r


def feed(r: LineReader, terminal: str, text: str, line: int = 9) -> object:
    """One line through the terminal the grammar gives it; the event it made."""
    m = r.regex[terminal].match(text + "\n")
    assert m is not None, (terminal, text)
    n = len(r.sink.events)
    r.d.handlers[terminal](r, m, line)
    return r.sink.events[n] if len(r.sink.events) > n else None


def act(player: str, kind: ActionKind, amount: int, to: int | None = None, allin: bool = False):
    return Action(Street.THIRD, player, kind, amount, to, allin, 9)


def third(player: str, cards: tuple[Card | None, ...]) -> Deal:
    return Deal(Street.THIRD, player, cards, (False, False, True), (), 9)


NINE_H = (None, None, parse_card("9h"))
K = ActionKind


@pytest.mark.parametrize(
    ("terminal", "text", "event"),
    [
        ("ANTE", "Anna posts ante 0.50€", act("Anna", K.ANTE, 50)),
        ("ANTE", "Anna posts ante 0.20€ and is all-in", act("Anna", K.ANTE, 20, None, True)),
        ("BRING_IN", "Hero brings in 1€", act("Hero", K.BRING_IN, 100)),
        ("BRING_IN", "Hero bring-in 1€", act("Hero", K.BRING_IN, 100)),
        ("BRING_IN", "Hero brings in 0.30€ and is all-in", act("Hero", K.BRING_IN, 30, None, True)),
        ("BET", "P [x] bets 2€", act("P [x]", K.BET, 200)),
        ("BET", "P [x] bets 1.25€ and is all-in", act("P [x]", K.BET, 125, None, True)),
        ("CALL", "Anna calls 1.50€", act("Anna", K.CALL, 150)),
        ("CALL", "Anna calls 0.75€ and is all-in", act("Anna", K.CALL, 75, None, True)),
        ("RAISE", "Hero raises 2€ to 2€", act("Hero", K.COMPLETE, 200, 200)),
        ("RAISE", "Hero raises 2€ to 4€", act("Hero", K.RAISE, 200, 400)),
        ("RAISE", "Hero raises 1€ to 3€ and is all-in", act("Hero", K.RAISE, 100, 300, True)),
        ("CHECK", "Anna checks", act("Anna", K.CHECK, 0)),
        ("FOLD", "P [x] folds", act("P [x]", K.FOLD, 0)),
        ("DEALT", "Dealt to Hero [4h Ac Qd]", third("Hero", parse_cards("4h Ac Qd"))),
        ("DEALT", "Dealt to Anna [X X 9h]", third("Anna", NINE_H)),
        ("DEALT", "Dealt to P [x] [X X 9h]", third("P [x]", NINE_H)),
        (
            "SHOW",
            "Anna shows [8c Td 9h Kh Kd Qc Jc] (Straight King high)",
            Show("Anna", parse_cards("8c Td 9h Kh Kd Qc Jc"), "Straight King high", 9),
        ),
        ("SHOW", "Anna shows [8c Td 9h Kh]", Show("Anna", parse_cards("8c Td 9h Kh"), None, 9)),
        ("MUCK", "Anna mucks hand", Muck("Anna", False, 9)),
        ("COLLECT", "Hero collected 458€ from pot", Collect("Hero", 45800, PotKind.POT, 0, 9)),
        (
            "COLLECT",
            "Hero collected 114€ from pot(HI)",
            Collect("Hero", 11400, PotKind.POT, 0, 9, Half.HIGH),
        ),
        (
            "COLLECT",
            "Hero collected 114€ from pot(LO)",
            Collect("Hero", 11400, PotKind.POT, 0, 9, Half.LOW),
        ),
        ("COLLECT", "Hero collected 3€ from main pot", Collect("Hero", 300, PotKind.MAIN, 0, 9)),
        ("COLLECT", "Hero collected 3€ from side pot", Collect("Hero", 300, PotKind.SIDE, 1, 9)),
        (
            "COLLECT",
            "Hero collected 3€ from side pot 2(LO)",
            Collect("Hero", 300, PotKind.SIDE, 2, 9, Half.LOW),
        ),
        ("SIT_OUT", "Anna sits out", TableNote(NoteKind.SIT_OUT, "Anna", "Anna sits out", 9)),
        ("STREET_4", "*** FOURTH ***", StreetStart(Street.FOURTH, None, 9)),
        ("STREET_7", "*** SEVENTH ***", StreetStart(Street.SEVENTH, None, 9)),
        ("STREET_7", "*** 7th STREET *** [6h]", StreetStart(Street.SEVENTH, parse_card("6h"), 9)),
    ],
)
def test_line_forms(terminal: str, text: str, event: object) -> None:
    assert feed(reader(), terminal, text) == event


def test_later_street_deals() -> None:
    r = reader()
    feed(r, "STREET_4", "*** 4th STREET ***")
    assert feed(r, "DEALT", "Dealt to Anna [X X 9h] [Kh]") == Deal(
        Street.FOURTH, "Anna", (parse_card("Kh"),), (True,), (None, None, parse_card("9h")), 9
    )
    feed(r, "STREET_7", "*** 7th STREET ***")
    assert feed(r, "DEALT", "Dealt to Anna [X X 9h Kh Kd Qc] [X]") == Deal(
        Street.SEVENTH, "Anna", (None,), (False,), (None, None, *parse_cards("9h Kh Kd Qc")), 9
    )
    assert feed(r, "DEALT", "Dealt to Hero [4h Ac Qd 3h Qh 5h] [Th]") == Deal(
        Street.SEVENTH, "Hero", (parse_card("Th"),), (False,), parse_cards("4h Ac Qd 3h Qh 5h"), 9
    )


@pytest.mark.parametrize(
    ("text", "figures"),
    [
        ("Total pot 458€ | Rake 2€", (46000, 200, None, ())),  # after rake: 458 + 2
        ("Total pot 0.65 | Rake 0.04", None),  # play money: see test_play_money_unit
        ("Total pot 298€ | No rake", (29800, 0, None, ())),
        ("Total pot 12.40€ | Main pot 4.40€ | Side pot 1 8€ | Rake 0.40€", (1280, 40, 440, (800,))),
        (
            "Total pot 9€ | Main pot 3€ | Side pot 1 4€ | Side pot 2 2€ | No rake",
            (900, 0, 300, (400, 200)),
        ),
    ],
)
def test_total_pot(text: str, figures: tuple[int, int, int | None, tuple[int, ...]] | None) -> None:
    if figures is None:
        return
    r = reader()
    feed(r, "TOTAL_POT", text)
    assert r.sink.pot is not None
    assert r.sink.pot[:4] == figures


def test_play_money_unit() -> None:
    """Play money is counted in hundredths (0.65 -> 65), in its own currency "PLAY" (never
    added to euros, nor to another site's cents)."""
    r = reader(
        "Winamax Poker - CashGame - HandId: #8-5-1 - 7stud fixed limit (0.01/0.05/0.10) - "
        "2016/06/12 19:36:38 UTC",
        ["Seat 2: Anna (2.05)"],
    )
    feed(r, "TOTAL_POT", "Total pot 0.65 | Rake 0.04")
    assert r.sink.head["unit"] is Unit.CENT and r.sink.head["currency"] == "PLAY"
    assert r.sink.pot is not None and r.sink.pot[:2] == (69, 4)
    assert r.sink.seats[0].stack == 205


def test_export_hilo_game_word() -> None:
    """K (FPDB's Winamax game words): the export writes stud hi/lo as "7stud8"."""
    r = reader(
        "Winamax Poker - CashGame - HandId: #8-5-2 - 7stud8 fixed limit (0.01/0.05/0.10) - "
        "2016/06/12 19:41:42 UTC",
        ["Seat 2: Anna (2.05)"],
    )
    assert r.sink.head["game"] is Game.STUD_HILO and r.sink.head["currency"] == "PLAY"


def test_summary_lines() -> None:
    r = reader()
    cards = "4h Ac Qd 3h Qh 5h Th"
    feed(r, "RESULT_SHOWED", f"Seat 1: Anna showed [{cards}] and won 458€ with Flush Queen high")
    feed(r, "RESULT_SHOWED", f"Seat 2: P [x] showed [{cards}] and lost with Flush Queen high")
    feed(r, "RESULT_COLLECTED", "Seat 4: Hero (button) won 114€")
    feed(r, "RESULT_COLLECTED", "Seat 4: Hero (button) won 114€")
    got = [(x.seat, x.player, x.outcome, x.won, x.description) for x in r.sink.results]
    assert got == [
        (1, "Anna", SeatOutcome.SHOWED, 45800, "Flush Queen high"),
        (2, "P [x]", SeatOutcome.SHOWED, 0, "Flush Queen high"),
        (4, "Hero", SeatOutcome.COLLECTED, 22800, None),  # two lines, one result
    ]
    r = reader()
    feed(r, "RESULT_MUCKED", "Seat 2: P [x] mucked")
    assert [(x.seat, x.outcome, x.cards) for x in r.sink.results] == [(2, SeatOutcome.MUCKED, ())]


def test_header_forms() -> None:
    r = reader()
    assert r.sink.head["hand_id"] == "1-2-3" and r.sink.head["ante"] == 50
    r = reader(HEAD.replace("7-Card Stud fixed limit (0.50€/2€/4€)", "Razz fixed limit (2€/4€)"))
    assert r.sink.head["game"] is Game.RAZZ and r.sink.head["ante"] is None


def test_format_amount() -> None:
    assert format_amount(500, Unit.CENT, "EUR") == "5€"
    assert format_amount(174922, Unit.CENT, "EUR") == "1749.22€"
    assert format_amount(65, Unit.CENT, None) == "0.65"
    assert format_amount(4000, Unit.CHIP, None) == "4000"


# ------------------------------------------------------------------------ bad input


def test_garbled_card_is_an_unknown_card() -> None:
    """A token that is no card parses as an unknown card; the audit names it (and only
    it: the later "[Ah 2d 4s] [3h]" line and the show tell the engine the card)."""
    text = HILO_SIDE_POT.replace("Dealt to Hero [Ah 2d 4s]\n", "Dealt to Hero [Ah Xx 4s]\n")
    h = one_hand(text)
    line = text.splitlines().index("Dealt to Hero [Ah Xx 4s]") + 1
    deal = next(e for e in h.events if isinstance(e, Deal) and e.player == "Hero")
    assert deal.cards == (parse_card("Ah"), None, parse_card("4s")) and deal.line == line
    assert TableNote(NoteKind.GARBLED, None, "'Xx' where a card should be", line) in h.events
    assert errors(h) == {Code.GARBLED_CARD: 1}


# ------------------------------------------------------------------------- round trip

_TABLE_SUFFIX = re.compile(r"\(\d+\)#\d+$")
_ROMAN = {r: i for i, r in enumerate(["I", "II", "III", "IV", "V", "VI", "VII", "VIII"], 1)}
EUR: dict[str, object] = {"currency": "EUR", "profile": WINAMAX}


def carried(h: Hand) -> dict[str, object]:
    """What Winamax's text can carry of a hand, in one comparable shape. Differences it
    cannot carry, by the writer's stated choices: an uncalled bet is part of what its
    bettor collects and of the total pot; a completion over the bring-in is COMPLETE to Y;
    no descriptions, no "doesn't show", no cards for a mucked hand, no capped/open-pair/
    no-low lines, no folded seats in the summary, opponents' unseen 7th cards (a line with
    no known card) not compared; levels are numbers."""
    returned: Counter[str] = Counter()
    for e in h.events:
        if isinstance(e, UncalledBet):
            returned[e.player] += e.amount
    got = Counter(collections(h)) + returned
    acts = []
    wagers = 0
    for e in h.events:
        if isinstance(e, StreetStart):
            wagers = 0
        if not isinstance(e, Action):
            continue
        kind, amount = e.kind, e.amount
        if (
            kind in (ActionKind.RAISE, ActionKind.COMPLETE)
            and e.street is Street.THIRD
            and not wagers
        ):
            kind, amount = ActionKind.COMPLETE, e.to_amount
        wagers += kind in (ActionKind.BET, ActionKind.RAISE, ActionKind.COMPLETE)
        acts.append((e.street, e.player, kind, amount, e.to_amount, e.all_in))
    s = h.summary
    assert s is not None
    results = sorted(
        (r.seat, r.player, r.outcome, r.cards if r.outcome is SeatOutcome.SHOWED else ())
        for r in s.seats
        if r.outcome in (SeatOutcome.SHOWED, SeatOutcome.MUCKED)
    )
    return {
        "header": (
            h.hand_id,
            h.game,
            h.small_bet,
            h.big_bet,
            h.unit,
            h.currency,
            h.started_at,
            h.tournament_id,
            h.buy_in,
            h.max_seats,
            h.hero,
            str(_ROMAN.get(h.level, h.level)) if h.level else None,
            _TABLE_SUFFIX.sub("", h.table),
        ),  # fmt: skip
        "seats": [(x.seat, x.player, x.stack) for x in h.seats],
        "actions": acts,
        "deals": [
            (e.street, e.player, e.cards, e.up)
            for e in h.events
            if isinstance(e, Deal) and any(c is not None for c in e.cards)
        ],
        "community": [e.community for e in h.events if isinstance(e, StreetStart)],
        "shows": [(e.player, e.cards) for e in h.events if isinstance(e, Show)],
        "mucks": [e.player for e in h.events if isinstance(e, Muck) and not e.declined],
        "collected": {p: x for p, x in got.items() if x},
        "pot": (s.total_pot + sum(returned.values()), s.rake),
        "results": results,
        "won": {
            r.player: got.get(r.player, 0) for r in s.seats if r.outcome is not SeatOutcome.FOLDED
        },
    }


def check_round_trip(hands: list[Hand], newline: str = "\n") -> Counter[str]:
    """Write, read back, compare; the replay of what was read may report only what the
    writer's choices explain: none (the site prints no uncalled bet: the chips stay in
    the pot and the bettor collects them, which the audit knows from `prints_uncalled`).
    A contested hi/lo showdown with no low has no line either, and the audit does not ask
    for one (`prints_no_low` is False)."""
    items = parse(write_hands(hands, newline=newline), "sim.txt")
    assert len(items) == len(hands)
    seen: Counter[str] = Counter()
    for h, back in zip(hands, items, strict=True):
        assert isinstance(back, Hand), (back, write_hand(h))
        same(h, back)
        seen.update("uncalled" for e in h.events if isinstance(e, UncalledBet))
    return seen


def same(h: Hand, back: Hand) -> None:
    """The contract's round trip (tests/dialects/test_contract.py): `back`, read from the
    text written of `h`, carries what the text carries and replays with no error."""
    assert back.site == "winamax"
    assert carried(back) == carried(h), write_hand(h)
    codes = errors(back)
    assert not codes, (codes, write_hand(h))


def test_round_trip_play_money() -> None:
    """Cash hands without a currency are play money: hundredths, no sign, "(play money)"."""
    hands = [
        Hand(**{**{f: getattr(h, f) for f in h.__dataclass_fields__}, "currency": "PLAY"})
        for h in simulate("stud", 10, players=4, seed=7, currency="EUR", profile=WINAMAX)
    ]
    text = write_hands(hands)
    assert "(play money)" in text and "€" not in text
    check_round_trip(hands)


def test_writer_refuses_other_currencies() -> None:
    (h,) = simulate("stud", 1, players=3, seed=1, currency="USD")
    with pytest.raises(ValueError, match="euros only"):
        write_hand(h)


def test_round_trip_covers_the_writer_choices() -> None:
    """The fixed seeds above do meet every choice the writer makes."""
    hands = [
        h
        for game in ("stud", "stud_hilo", "razz")
        for h in simulate(game, 40, players=3, seed=11, currency="EUR", profile=WINAMAX)
    ]
    text = write_hands(hands)
    seen = check_round_trip(hands)
    assert seen["uncalled"] > 0  # hands whose uncalled bet the site leaves in the pot
    assert any(isinstance(e, NoLowHand) for h in hands for e in h.events)
    assert "from pot(HI)" in text and "from pot(LO)" in text
    assert re.search(r"raises (\S+) to \1\n", text)  # a completion
    assert re.search(r"\[X\]\n", text)  # an opponent's unseen 7th card


_COLLECT_LINE = re.compile(r"(.+) collected (\S+) from .*?\((HI|LO)\)$")


def test_hilo_halves_are_labelled_as_the_engine_splits_them() -> None:
    """Each "(HI)"/"(LO)" collect line carries what the engine pays that half (showdown
    hands; an uncontested pot is written as two halves, as in the real file)."""
    checked = 0
    for h in simulate("stud_hilo", 60, players=4, seed=5, **EUR):
        if any(isinstance(e, UncalledBet) for e in h.events):
            continue  # an unmatched bet's own side pot has no half
        awards = replay(h, WINAMAX).awards
        if all(len(a.eligible) == 1 for a in awards):
            continue
        want: Counter[tuple[str, str]] = Counter()
        for a in awards:
            for p, x in a.expected:
                want[(p, "LO" if a.half == "low" else "HI")] += x
        got: Counter[tuple[str, str]] = Counter()
        for line in write_hand(h).splitlines():
            m = _COLLECT_LINE.match(line)
            if m:
                whole, _, frac = m[2].rstrip("€").partition(".")
                got[(m[1], m[3])] += int(whole) * 100 + int(frac.ljust(2, "0"))
        assert +got == +want, write_hand(h)
        checked += 1
    assert checked > 5


def test_simulate_refuses_other_currencies_before_dealing(tmp_path: Path) -> None:
    """`histkit simulate --site winamax --currency USD` is refused before a hand is dealt,
    and no file is left behind."""
    from histkit.simulate import write_session

    dealt: list[int] = []
    out = tmp_path / "w.txt"
    with pytest.raises(ValueError, match="EUR only, not USD"):
        write_session(out, "stud", 10, currency="USD", site="winamax", progress=dealt.append)
    assert dealt == [] and not out.exists()


@needs_winamax
def test_the_play_money_export_without_deal_lines_deals_in_whoever_acts(
    corpus_items: list[Hand | ParseIssue],
) -> None:
    """The play-money export writes no deal lines: who antes or acts was dealt in, so the
    hand has seats dealt in and stats rows (it had none)."""
    from histkit.model import Action, Deal
    from histkit.stats import player_stats
    from histkit.tables import tables_from

    play = corpus_hands(corpus_items)[STUD_PLAY]
    assert not any(isinstance(e, Deal) for e in play.events)
    actors = {e.player for e in play.events if isinstance(e, Action)}
    t = tables_from([play])
    assert {r["player"] for r in t.seats.to_pylist() if r["dealt_in"]} == actors
    assert set(player_stats(t)["player"]) == actors
