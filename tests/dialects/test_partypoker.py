"""The PartyPoker dialect: the real hands parse, add up and replay as the site played them;
each line form maps to the right event; simulated hands written as Party writes them come
back equal on what the text carries; bad input is rejected with its file, line and hand id.

Two things are not faults of the hands, and are pinned here (strict xfails, `test_gap_*`)
until the shared layers learn them:
- the reading layer: "Game #N starts." and a blank line come before each hand in Party's
  files (R: 2 of the 3 real files); the splitter makes that line a block of its own, which
  the reader reports as text between hands (`PartyPoker.lead_in` names the line);
- the engine: Party writes no opponent's up cards, so an open pair on 4th street that
  nobody shows is unknown, and the big bet (or big raise) it allows is reported as
  BET_SIZE/RAISE_SIZE. The round-trip checks allow exactly those, and only when the
  simulated hand, whose boards are known, replays clean.
"""

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
from histkit.dialects.partypoker import PARTYPOKER, PartyPoker
from histkit.dialects.partypoker_writer import write_hand, write_hands
from histkit.model import (
    Action,
    ActionKind,
    Collect,
    Deal,
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
from histkit.reader import ParseIssue, iter_hands
from histkit.reading.split import HandBlock
from histkit.rules import Code, replay
from histkit.simulate import simulate
from tests.conftest import CORPUS
from tests.dialects import helpers

K = ActionKind
S = Street
PARTY_DIR = CORPUS / "partypoker"
needs_party = helpers.needs_folder(PARTY_DIR)

STUD_CASH = "10399817763"  # 7-Stud-USD-1-2-201104.txt (NUL bytes, "Game #N starts.")
STUD_MTT = "11792805420"  # 7-Stud-USD-MTT-6.00-201205.txt
HILO_CASH = "9581478205"  # 7-StudHL-USD-0.50-1.00-201008.txt ("Game #N starts.")


def parse(text: str, source: str = "t.txt") -> list[Hand | ParseIssue]:
    return helpers.parse_as(text, "partypoker", source)


def strict(text: str, source: str = "t.txt") -> list[Hand | ParseIssue]:
    """As `parse --strict` reads it (the normal reading keeps what it rejects)."""
    return helpers.parse_strictly(text, "partypoker", source)


one_hand = partial(helpers.one_hand, site="partypoker")
errors = partial(helpers.error_counts, profile=PARTYPOKER)
corpus_items = helpers.corpus_fixture(PARTY_DIR, site="partypoker")
corpus_hands = helpers.hands_by_id


# ------------------------------------------------------------------------ real files


def lead_in(issue: ParseIssue) -> bool:
    """The reader's record of a "Game #N starts." line left as a block of its own."""
    return "text that is not part of any hand" in issue.reason and bool(
        re.search(r"'Game #\d+ starts\.'", issue.reason)
    )


@needs_party
def test_corpus_counts(corpus_items: list[Hand | ParseIssue]) -> None:
    """As ../shared/hands/README.md lists them: stud 2 (cash, MTT), stud_hilo 1; no other
    game; no hand rejected (the only records besides the hands are the "Game #N starts."
    lines, see `test_gap_lead_in_lines`). The file whose first byte is a NUL reads as text."""
    hands = [h for h in corpus_items if isinstance(h, Hand)]
    issues = [i for i in corpus_items if isinstance(i, ParseIssue)]
    assert Counter(h.game for h in hands) == {Game.STUD: 2, Game.STUD_HILO: 1}
    assert all(h.site == "partypoker" for h in hands)
    assert not [i for i in issues if i.kind == "skipped"]
    assert all(lead_in(i) for i in issues), issues
    assert all(i.hand_id is None for i in issues)
    # the site is found from the text alone, as `histkit parse` reads a mixed folder
    assert list(iter_hands([PARTY_DIR])) == corpus_items


@needs_party
def test_gap_lead_in_lines(corpus_items: list[Hand | ParseIssue]) -> None:
    assert [i for i in corpus_items if isinstance(i, ParseIssue)] == []


@needs_party
def test_corpus_headers(corpus_items: list[Hand | ParseIssue]) -> None:
    hands = corpus_hands(corpus_items)
    cash, mtt, hilo = hands[STUD_CASH], hands[STUD_MTT], hands[HILO_CASH]
    assert (cash.unit, cash.currency, cash.small_bet, cash.big_bet, cash.ante) == (
        Unit.CENT,
        "USD",
        50,
        100,
        None,
    )
    assert (cash.table, cash.max_seats, cash.hero, cash.is_tournament) == (
        "Table  136419",
        8,
        "Hero",
        False,
    )
    assert cash.started_at == datetime(2011, 4, 25, 18, 20, 12, tzinfo=UTC)  # EDT = UTC-4
    assert cash.local_time == "Monday, April 25, 14:20:12 EDT 2011"
    assert hilo.started_at == datetime(2010, 8, 30, 17, 20, 17, tzinfo=UTC)  # EEST = UTC+3
    assert (hilo.game, hilo.table, hilo.hero) == (Game.STUD_HILO, "Table  136403", "Hero")
    assert (mtt.unit, mtt.currency, mtt.small_bet, mtt.big_bet, mtt.ante) == (
        Unit.CHIP,
        None,
        60,
        120,
        10,
    )
    assert (mtt.tournament_id, mtt.level, mtt.buy_in, mtt.table, mtt.max_seats) == (
        "69784932",
        "2",
        "$6 USD Buy-in",
        "Regular (2629813) Table #2",
        8,
    )
    assert [(s.seat, s.player, s.stack) for s in mtt.seats][:2] == [
        (1, "Hero", 2930),
        (4, "Player0", 3955),
    ]
    # seats as listed (Party does not sort them); Player7 posts no ante: not dealt in
    assert [s.seat for s in cash.seats] == [7, 3, 4, 2, 5, 1, 8]
    assert all(not (isinstance(e, Deal) and e.player == "Player7") for e in cash.events)


@needs_party
def test_corpus_chips_add_up(corpus_items: list[Hand | ParseIssue]) -> None:
    """Party writes no pot and no rake: the derived summary's total is what the players put
    in (the unmatched $1 river bet of 10399817763 too, which Player8 wins back), the rake
    what is left when the winners are paid, and the winners' seat lines what they won."""
    hands = corpus_hands(corpus_items)
    for h in hands.values():
        assert h.summary is not None
        paid, got = contributions(h), collections(h)
        assert sum(paid.values()) == h.summary.total_pot, h.hand_id
        assert sum(got.values()) + h.summary.rake == h.summary.total_pot, h.hand_id
        assert {r.player: r.won for r in h.summary.seats} == got
    figures = {
        h.hand_id: (h.summary.total_pot, h.summary.rake) for h in hands.values() if h.summary
    }
    assert figures == {STUD_CASH: (1380, 60), HILO_CASH: (885, 40), STUD_MTT: (2560, 0)}


@needs_party
def test_corpus_replays(corpus_items: list[Hand | ParseIssue]) -> None:
    """Every real hand replays with no violation at all under Party's rules (the default
    for a Party hand): every action, the 4th-street double bet (the open 2h 2d that the
    show of 11792805420 places there), the pot, the rake under 5%, the "no low" line, and
    each shown hand's words in Party's own ("three of a kind, Twos")."""
    hands = corpus_hands(corpus_items)
    for h in hands.values():
        r = replay(h)
        assert r.profile == "partypoker"
        assert r.violations == (), (h.hand_id, r.violations)
    d = get_dialect("partypoker")
    for show in (e for h in hands.values() for e in h.events if isinstance(e, Show)):
        assert d.describe(Game.STUD, show.cards) == show.description
    assert [a.winners for a in replay(hands[STUD_MTT]).awards] == [("Player6",)]


@needs_party
def test_corpus_events(corpus_items: list[Hand | ParseIssue]) -> None:
    hands = corpus_hands(corpus_items)
    cash, mtt, hilo = hands[STUD_CASH], hands[STUD_MTT], hands[HILO_CASH]
    acts = [(a.street, a.player, a.kind, a.amount, a.to_amount, a.all_in) for a in cash.actions()]
    assert acts[6:9] == [
        (S.THIRD, "Hero", K.BRING_IN, 25, None, False),
        (S.THIRD, "Player3", K.FOLD, 0, None, False),
        (S.THIRD, "Player4", K.COMPLETE, 25, 50, False),  # "completes [$0.50 USD]"
    ]
    # "raises [$2 USD]" adds $2 over a $1 bet: to $2; the bettor's "raises [$2 USD]": to $3
    assert acts[-6:-1] == [
        (S.SIXTH, "Player8", K.BET, 100, None, False),
        (S.SIXTH, "Player4", K.RAISE, 100, 200, False),
        (S.SIXTH, "Player8", K.RAISE, 100, 300, False),
        (S.SIXTH, "Player4", K.CALL, 100, None, False),
        (S.SEVENTH, "Player8", K.BET, 100, None, False),
    ]
    assert not any(isinstance(e, UncalledBet) for e in cash.events)  # none is written
    assert [e for e in cash.events if isinstance(e, Muck | Collect)] == [
        Muck("Player8", True, 53),  # "does not show cards.": everyone else folded
        Collect("Player8", 1320, PotKind.POT, 0, 54),
    ]
    hero = [e for e in cash.events if isinstance(e, Deal) and e.player == "Hero"]
    assert hero == [
        Deal(S.THIRD, "Hero", parse_cards("3h 8c 7c"), (False, False, True), (), 23),
        Deal(S.FOURTH, "Hero", parse_cards("2c"), (True,), (), 33),
    ]
    # the others' cards: unknown, one deal a street, at the street's line
    assert Deal(S.THIRD, "Player8", (None, None, None), (False, False, True), (), 22) in cash.events
    assert TableNote(NoteKind.OTHER, "Hero", "Hero opens", 24) in cash.events
    # MTT: the shows place each card in the order dealt; "double bets" is a bet
    p4 = [e.cards for e in mtt.events if isinstance(e, Deal) and e.player == "Player4"]
    assert p4 == [parse_cards("2s Tc 2h"), *((parse_card(c),) for c in ("2d", "6d", "9s", "Qc"))]
    assert Action(S.FOURTH, "Player4", K.BET, 120, None, False, 38) in mtt.events
    assert [e for e in mtt.events if isinstance(e, Show | Muck | Collect)] == [
        Show("Player6", parse_cards("7s 8h 7c 5d 6h 4d Ad"), "a straight, Four to Eight", 62),
        Show("Player4", parse_cards("2s Tc 2h 2d 6d 9s Qc"), "three of a kind, Twos", 63),
        Muck("Player4", False, 63),  # "doesn't show [..]": shown by the site, mucked
        Collect("Player6", 2560, PotKind.MAIN, 0, 64),
    ]
    assert isinstance(hilo.events[-1], NoLowHand)
    assert Collect("PPPPPositive", 845, PotKind.MAIN, 0, 53) in hilo.events


@needs_party
def test_writer_reproduces_the_real_files(corpus_items: list[Hand | ParseIssue]) -> None:
    """Each hand comes back line for line; the writer leaves out only what the reading
    layer does not give the hand: the "Game #N starts." line and its blank line, and the
    NUL bytes around 10399817763."""
    for h in corpus_hands(corpus_items).values():
        real = Path(h.source.file).read_text(encoding="utf-8").replace("\x00", "").strip("\n")
        real = re.sub(r"\AGame #\d+ starts\.\n\n", "", real)
        assert write_hand(h) == real, h.hand_id


# ------------------------------------------------------------------- synthetic hands
# Made-up hands in forms the real files lack (K), never copies of them; chips add up.

HILO_SIDE_POT = """\
#Game No : 7000000001
***** Cash Game History for Game 7000000001 *****
$1/$2 USD 7 Card Stud Hi-Lo - Friday, January 06, 21:05:09 EST 2012
Table Table  200001 (Real Money)
Seat 0 is the button
Total number of players : 4/8
Seat 1: Anna ( $40 USD )
Seat 3: Bo Li ( $2.60 USD )
Seat 5: Hero ( $25.50 USD )
Seat 6: Zed ( $12 USD )
Anna posts ante [$0.10 USD]
Bo Li posts ante [$0.10 USD]
Hero posts ante [$0.10 USD]
Zed is sitting out
** Dealing **
Dealt to Hero [  Ah 2d 4s ]
Anna opens
Anna bring-ins [$0.25 USD]
Bo Li calls [$0.25 USD]
Hero completes [$1 USD]
Anna calls [$0.75 USD]
Bo Li calls [$0.75 USD]
** Dealing Fourth street **
Dealt to Hero [  3h ]
Bo Li opens
Bo Li bets [$1 USD]
Hero calls [$1 USD]
Anna calls [$1 USD]
** Dealing Fifth street **
Dealt to Hero [  8c ]
Bo Li opens
Bo Li checks
Hero bets [$2 USD]
Anna calls [$2 USD]
Bo Li is all-In  [$0.50 USD]
** Dealing Sixth street **
Dealt to Hero [  9s ]
Anna opens
Anna checks
Hero checks
** Dealing River **
Dealt to Hero [  Td ]
Anna opens
Anna bets [$2 USD]
Hero will be using his time bank for this hand.
Hero calls [$2 USD]
Anna shows [ 9c, Tc, 2h, 6c, 7d, Jc, 5c ]a flush, Jack high.
Hero shows [ Ah, 2d, 4s, 3h, 8c, 9s, Td ]high card Ace, 8, 4, 3, 2, A.
Bo Li shows [ Ks, Qh, Kd, Kh, Qs, 2c, 3c ]a full house, Kings full of Queens.
Bo Li wins $3.55 USD from the main pot with a full house, Kings full of Queens.
Hero wins $3.55 USD from the main pot with 8, 4, 3, 2, A.
Anna wins $3.50 USD from the side pot #1 with a flush, Jack high.
Hero wins $3.50 USD from the side pot #1 with 8, 4, 3, 2, A.
Bo Li has left the table.
"""

MTT_DOUBLE_BET = (
    (
        "#Game No : 7100000002\n"
        "***** Tournament History for Game 7100000002 *****\n"
        "FL 7 Card Stud $5 USD Buy-in + $0.50 USD Entry Trny:88123456 Level:5  "
        "Stakes-Antes(100/200-20) - Sunday, March 04, 02:10:00 CET 2012\n"
    )
    + """\
Table Regular (88123456) Table #7 (Real Money)
Seat 0 is the button
Total number of players : 3/8
Seat 2: Ann ( 3,000 )
Seat 4: Cid ( 15 )
Seat 7: Hero ( 2,500 )
Trny:88123456 Level:5
Stakes-Antes(100/200-20)
Ann posts ante [20]
Cid posts ante [15]
Hero posts ante [20]
** Dealing **
Dealt to Hero [  Ah Kc Qh ]
Ann opens
Ann bring-ins [30]
Hero completes [100]
Ann calls [70]
** Dealing Fourth street **
Dealt to Hero [  8s ]
Ann opens
Ann double bets [200]
Hero raises [400]
Ann calls [200]
** Dealing Fifth street **
Dealt to Hero [  4h ]
Ann opens
Ann checks
Hero checks
** Dealing Sixth street **
Dealt to Hero [  Jd ]
Ann opens
Ann checks
Hero checks
** Dealing River **
Dealt to Hero [  3s ]
Ann opens
Ann bets [200]
Hero calls [200]
Ann shows [ 9s, 9h, 5d, 5c, Kd, 7s, 2c ]two pairs, Nines and Fives.
Cid shows [ As, Ad, Ac, 6h, Tc, Ts, 8d ]a full house, Aces full of Tens.
Hero doesn't show [ Ah, Kc, Qh, 8s, 4h, Jd, 3s ]high card Ace.
Cid wins 45 chips from the main pot with a full house, Aces full of Tens.
Ann wins 1,410 chips from the side pot #1 with two pairs, Nines and Fives.
Zoe has joined the table.
"""
)

HOLDEM = """\
#Game No : 7200000003
***** Hand History for Game 7200000003 *****
$0.25/$0.50 USD NL Texas Hold'em - Saturday, June 04, 23:01:02 EDT 2011
Table Table  99001 (Real Money)
Seat 3 is the button
Total number of players : 2/6
Seat 1: Alpha ( $50 USD )
Seat 3: Beta ( $50 USD )
Alpha posts small blind [$0.25 USD].
Beta posts big blind [$0.50 USD].
** Dealing down cards **
"""


def test_hilo_side_pot_hand() -> None:
    """An all-in call short of the bet, a side pot, both pots split high and low: every
    action (the shows place every card, so even who brings in and who opens are checked),
    both pots, all four halves and the rake."""
    h = one_hand(HILO_SIDE_POT)
    assert (h.game, h.unit, h.currency, h.hero, h.table, h.max_seats) == (
        Game.STUD_HILO,
        Unit.CENT,
        "USD",
        "Hero",
        "Table  200001",
        8,
    )
    assert h.started_at == datetime(2012, 1, 7, 2, 5, 9, tzinfo=UTC)  # EST = UTC-5
    assert errors(h) == {}
    assert replay(h, PARTYPOKER).violations == ()
    line = HILO_SIDE_POT.splitlines().index("Bo Li is all-In  [$0.50 USD]") + 1
    assert Action(S.FIFTH, "Bo Li", K.CALL, 50, None, True, line) in h.events
    collects = [e for e in h.events if isinstance(e, Collect)]
    assert [(c.player, c.amount, c.pot, c.pot_index) for c in collects] == [
        ("Bo Li", 355, PotKind.MAIN, 0),
        ("Hero", 355, PotKind.MAIN, 0),
        ("Anna", 350, PotKind.SIDE, 1),
        ("Hero", 350, PotKind.SIDE, 1),
    ]
    s = h.summary
    assert s is not None
    assert (s.total_pot, s.rake, s.main_pot, s.side_pots) == (1480, 70, 710, (700,))
    assert [(r.seat, r.won) for r in s.seats] == [(3, 355), (1, 350), (5, 705)]
    # Zed posted no ante: not dealt in; his note and the others' are kept
    assert all(e.player != "Zed" for e in h.events if isinstance(e, Deal))
    notes = [(e.kind, e.player) for e in h.events if isinstance(e, TableNote)]
    assert (NoteKind.SIT_OUT, "Zed") in notes and (NoteKind.LEAVE, "Bo Li") in notes
    assert (NoteKind.OTHER, "Hero") in notes  # the time bank


def test_mtt_double_bet_and_an_all_in_ante() -> None:
    h = one_hand(MTT_DOUBLE_BET)
    assert (h.unit, h.tournament_id, h.level, h.ante, h.small_bet, h.big_bet) == (
        Unit.CHIP,
        "88123456",
        "5",
        20,
        100,
        200,
    )
    assert h.buy_in == "$5 USD Buy-in + $0.50 USD Entry"
    assert h.started_at == datetime(2012, 3, 4, 1, 10, tzinfo=UTC)  # CET = UTC+1
    lines = MTT_DOUBLE_BET.splitlines()
    at = {text: i for i, text in enumerate(lines, 1)}
    assert Action(S.THIRD, "Cid", K.ANTE, 15, None, True, at["Cid posts ante [15]"]) in h.events
    line = at["Ann double bets [200]"]
    assert Action(S.FOURTH, "Ann", K.BET, 200, None, False, line) in h.events
    assert Action(S.FOURTH, "Hero", K.RAISE, 200, 400, False, line + 1) in h.events
    assert errors(h) == {}  # the double bet over Ann's shown 5d 5c, the raise to 400
    s = h.summary
    assert s is not None
    assert (s.total_pot, s.rake, s.main_pot, s.side_pots) == (1455, 0, 45, (1410,))
    assert [w for a in replay(h).awards for w in a.winners or ()] == ["Cid", "Ann"]


def test_other_games_are_skipped_from_the_game_line() -> None:
    (item,) = parse(HOLDEM)
    assert isinstance(item, ParseIssue)
    assert (item.kind, item.game, item.hand_id) == ("skipped", "NL Texas Hold'em", "7200000003")
    d = get_dialect("partypoker")
    assert d.detect("#Game No : 7200000003") and not d.detect("Game #7200000003 starts.")
    assert not get_dialect("pokerstars").detect("#Game No : 7200000003")


def test_fast_path_lark_and_cython_agree_on_made_up_hands() -> None:
    """(Simulated hands and the real files: tests/dialects/test_contract.py.)"""
    bad = HILO_SIDE_POT.replace("Anna calls [$1 USD]", "Anna calIs [$1 USD]")
    text = "\n\n".join([HILO_SIDE_POT, MTT_DOUBLE_BET, HOLDEM, bad])
    want = list(PartyPoker(fast=False, cython=False).parse(text, "t.txt"))
    assert sum(isinstance(h, Hand) for h in want) == 3  # the garbled one read without its line
    for d in (PartyPoker(fast=True), PartyPoker(fast=False, cython=True)):
        assert list(d.parse(text, "t.txt")) == want


# --------------------------------------------------------------------- line by line

HEAD = [
    "#Game No : 1234",
    "***** Hand History for Game 1234 *****",
    "$1/$2 USD 7 Card Stud - Friday, June 03, 09:08:07 EDT 2011",
]
SEATS = ["Seat 1: Anna ( $50 USD )", "Seat 2: P [x] ( $30.50 USD )", "Seat 4: Hero ( $40 USD )"]


def reader(head: list[str] = HEAD, seats: list[str] = SEATS) -> LineReader:
    """A reader past the seats, the antes and the 3rd-street line."""
    d = get_dialect("partypoker")
    r = LineReader(d, HandBlock(1, list(head)), "t.txt")
    feed(r, "HEADER", head[0])
    feed(r, "HISTORY", head[1])
    feed(r, "TOURNAMENT" if "Trny:" in head[2] else "GAME", head[2])
    feed(r, "TABLE", "Table Table  1 (Real Money)")
    feed(r, "PLAYERS", "Total number of players : 3/8")
    for s in seats:
        feed(r, "SEAT", s)
    for s in seats:
        player = s.split(": ", 1)[1].rsplit(" (", 1)[0]
        feed(r, "ANTE", f"{player} posts ante [{'$0.10 USD' if '$' in s else '10'}]")
    feed(r, "STREET_3", "** Dealing **")
    return r


def feed(r: LineReader, terminal: str, text: str, line: int = 9) -> object:
    """One line through the terminal the grammar gives it; the first event it made."""
    m = r.regex[terminal].match(text + "\n")
    assert m is not None, (terminal, text)
    n = len(r.sink.events)
    r.d.handlers[terminal](r, m, line)
    return r.sink.events[n] if len(r.sink.events) > n else None


def act(
    player: str, kind: ActionKind, amount: int, to: int | None = None, allin: bool = False
) -> Action:
    return Action(S.THIRD, player, kind, amount, to, allin, 9)


@pytest.mark.parametrize(
    ("terminal", "text", "event"),
    [
        ("BRING_IN", "Anna bring-ins [$0.25 USD]", act("Anna", K.BRING_IN, 25)),
        ("BRING_IN", "Anna posts bring-in [$0.25 USD]", act("Anna", K.BRING_IN, 25)),
        ("COMPLETE", "P [x] completes [$1 USD]", act("P [x]", K.COMPLETE, 100, 100)),
        ("CALL", "Hero calls [$0.25 USD]", act("Hero", K.CALL, 25)),
        ("RAISE", "Hero raises [$1 USD]", act("Hero", K.BET, 100)),  # nothing in front
        ("CHECK", "Anna checks", act("Anna", K.CHECK, 0)),
        ("FOLD", "P [x] folds", act("P [x]", K.FOLD, 0)),
        ("ALL_IN", "Anna is all-In  [$0.20 USD]", act("Anna", K.BRING_IN, 20, None, True)),
        ("ALL_IN", "Anna is all-In [$1 USD]", act("Anna", K.COMPLETE, 100, 100, True)),
        ("ALL_IN", "Anna is all-In [$49.90 USD]", act("Anna", K.COMPLETE, 4990, 4990, True)),
        ("OPENS", "P [x] opens", TableNote(NoteKind.OTHER, "P [x]", "P [x] opens", 9)),
        (
            "DEALT",
            "Dealt to Hero [  4h Ac Qd ]",
            Deal(S.THIRD, "Hero", parse_cards("4h Ac Qd"), (False, False, True), (), 9),
        ),
        (
            "SHOW",
            "Anna shows [ 8c, Td, 9h, Kh, Kd, Qc, Jc ]a straight, Eight to Queen.",
            Show("Anna", parse_cards("8c Td 9h Kh Kd Qc Jc"), "a straight, Eight to Queen", 9),
        ),
        (
            "MUCK",
            "P [x] doesn't show [ 2s, Tc, 2h, 2d, 6d, 9s, Qc ]three of a kind, Twos.",
            Show("P [x]", parse_cards("2s Tc 2h 2d 6d 9s Qc"), "three of a kind, Twos", 9),
        ),
        ("NO_SHOW", "Anna does not show cards.", Muck("Anna", False, 9)),  # others still in: a muck
        ("COLLECT", "Hero wins $13.20 USD", Collect("Hero", 1320, PotKind.POT, 0, 9)),
        (
            "COLLECT",
            "Hero wins $8.45 USD from the main pot with a flush, Ace high.",
            Collect("Hero", 845, PotKind.MAIN, 0, 9),
        ),
        (
            "COLLECT",
            "Hero wins $3 USD from the side pot #2 with a pair of Nines.",
            Collect("Hero", 300, PotKind.SIDE, 2, 9),
        ),
        ("COLLECT", "Hero wins $3 USD from the side pot", Collect("Hero", 300, PotKind.SIDE, 1, 9)),
        ("NO_LOW", "There was no qualifying low hand", NoLowHand(9)),
        ("STREET_4", "** Dealing Fourth street **", StreetStart(S.FOURTH, None, 9)),
        ("STREET_7", "** Dealing River **", StreetStart(S.SEVENTH, None, 9)),
        ("STREET_7", "** Dealing River ** [ 6h ]", StreetStart(S.SEVENTH, parse_card("6h"), 9)),
        *(
            (t, text, TableNote(kind, "P [x]", text, 9))
            for t, text, kind in (
                ("JOIN", "P [x] has joined the table.", NoteKind.JOIN),
                ("LEAVE", "P [x] has left the table.", NoteKind.LEAVE),
                ("FINISHED", "P [x] finished in 3 place.", NoteKind.FINISHED),
                ("SIT_OUT", "P [x] is sitting out", NoteKind.SIT_OUT),
                ("DISCONNECTED", "P [x] is disconnected", NoteKind.DISCONNECT),
                ("CONNECTED", "P [x] has been reconnected", NoteKind.CONNECT),
                ("TIME_BANK", "P [x] will be using his time bank for this hand.", NoteKind.OTHER),
                ("NO_RESPONSE", "P [x] could not respond in time.", NoteKind.TIMED_OUT),
            )
        ),
    ],
)
def test_line_forms(terminal: str, text: str, event: object) -> None:
    assert feed(reader(), terminal, text) == event


def test_third_street_line_deals_everyone_in_the_hand() -> None:
    """Everyone who posted the ante gets three cards nobody saw (no hero in this block)."""
    r = reader()
    deals = [e for e in r.sink.events if isinstance(e, Deal)]
    assert [(d.player, d.cards) for d in deals] == [
        (p, (None, None, None)) for p in ("Anna", "P [x]", "Hero")
    ]
    feed(r, "FOLD", "Anna folds")
    assert feed(r, "STREET_4", "** Dealing Fourth street **") == StreetStart(S.FOURTH, None, 9)
    later = [(e.player, e.cards, e.up) for e in r.sink.events if isinstance(e, Deal)][3:]
    assert later == [("P [x]", (None,), (True,)), ("Hero", (None,), (True,))]


def test_amounts_are_what_each_action_adds() -> None:
    r = reader()
    feed(r, "BRING_IN", "Anna bring-ins [$0.25 USD]")
    feed(r, "COMPLETE", "P [x] completes [$1 USD]")
    assert feed(r, "RAISE", "Hero raises [$2 USD]") == act("Hero", K.RAISE, 100, 200)
    assert feed(r, "RAISE", "Anna raises [$2.75 USD]") == act("Anna", K.RAISE, 100, 300)
    assert feed(r, "CALL", "P [x] calls [$2 USD]") == act("P [x]", K.CALL, 200)
    assert feed(r, "ALL_IN", "Hero is all-In [$37.90 USD]") == act(
        "Hero", K.RAISE, 3690, 3990, True
    )
    all_in = feed(r, "ALL_IN", "P [x] is all-In [$27.40 USD]")
    assert all_in == act("P [x]", K.CALL, 2740, None, True)
    feed(r, "STREET_4", "** Dealing Fourth street **")
    assert feed(r, "DOUBLE_BETS", "Anna double bets [$2 USD]") == Action(
        S.FOURTH, "Anna", K.BET, 200, None, False, 9
    )


def test_tournament_lines() -> None:
    head = [
        *HEAD[:2],
        "FL 7 Card Stud $6 USD Buy-in Trny:69 Level:2  Stakes-Antes(60/120-10) - "
        "Wednesday, May 30, 14:41:43 EDT 2012",
    ]
    r = reader(head, ["Seat 1: Anna ( 2,930 )", "Seat 5: Bob ( 10 )"])
    h = r.sink.head
    assert (h["unit"], h["ante"], h["tournament_id"], h["level"], h["small_bet"]) == (
        Unit.CHIP,
        10,
        "69",
        "2",
        60,
    )
    # Bob's ante is all he has: all-in, though the line does not say so
    assert Action(S.THIRD, "Bob", K.ANTE, 10, None, True, 9) in r.sink.events
    assert feed(r, "TRNY_LEVEL", "Trny:69 Level:2") is None
    assert feed(r, "TRNY_STAKES", "Stakes-Antes(60/120-10)") is None
    feed(r, "COLLECT", "Anna wins 2,560 chips from the main pot with a pair of Nines.")
    assert r.sink.events[-1] == Collect("Anna", 2560, PotKind.MAIN, 0, 9)


def test_describe_in_partys_words() -> None:
    d = PartyPoker.describe
    assert d(Game.STUD, parse_cards("9d 9c 2h 5h Qc Kc Js")) == "a pair of Nines"
    assert d(Game.STUD, parse_cards("2s Tc 2h 2d 6d 9s Qc")) == "three of a kind, Twos"
    assert d(Game.STUD, parse_cards("2s Tc 2h 5d 6d 9s Qc")) == "a pair of Twos"
    assert d(Game.STUD, parse_cards("7s 8h 7c 5d 6h 4d Ad")) == "a straight, Four to Eight"
    assert d(Game.STUD_HILO, parse_cards("Ad Qd Ah 2d 7d Th 6d")) == "a flush, Ace high"
    # no real hand shows these: not checked
    assert d(Game.STUD, parse_cards("2s 3c 4h 5d 6d 9s Qc")) is None  # a straight with a deuce
    assert d(Game.STUD, parse_cards("9s 9h 5d 5c Kd 7s 2c")) is None  # two pair
    assert d(Game.STUD_HILO, parse_cards("Ah 2d 4s 3h 8c 9s Td")) is None  # a low
    assert d(Game.RAZZ, parse_cards("Ah 2d 4s 3h 8c 9s Td")) is None


# ------------------------------------------------------------------------ bad input


def test_truncated_hand_is_rejected_with_file_line_and_id() -> None:
    """Party's hand ends with who wins: a hand cut before it is incomplete."""
    lines = HILO_SIDE_POT.splitlines()
    cut = lines.index("Anna shows [ 9c, Tc, 2h, 6c, 7d, Jc, 5c ]a flush, Jack high.")
    text = "\n".join(lines[:cut]) + "\n\n" + MTT_DOUBLE_BET
    bad, good = strict(text, "cut.txt")
    assert isinstance(bad, ParseIssue) and isinstance(good, Hand)
    assert (bad.source_file, bad.line, bad.hand_id, bad.kind) == (
        "cut.txt",
        cut,
        "7000000001",
        "rejected",
    )
    assert "truncated" in bad.reason and "a pot won ('P wins X')" in bad.reason


def test_a_wrong_game_number_is_rejected() -> None:
    """(A player not seated: tests/dialects/test_contract.py.)"""
    (bad,) = parse(HILO_SIDE_POT.replace("History for Game 7000000001", "History for Game 7"))
    assert isinstance(bad, ParseIssue) and (bad.line, bad.hand_id) == (2, "7000000001")


def test_garbled_card_is_an_unknown_card() -> None:
    """A token that is no card parses as an unknown card; the audit names it. The hero's
    show later tells the engine the card, and the money still counts."""
    text = HILO_SIDE_POT.replace("Dealt to Hero [  Ah 2d 4s ]", "Dealt to Hero [  Ah Xx 4s ]")
    h = one_hand(text)
    line = text.splitlines().index("Dealt to Hero [  Ah Xx 4s ]") + 1
    deal = next(e for e in h.events if isinstance(e, Deal) and e.player == "Hero")
    assert deal.cards == (parse_card("Ah"), None, parse_card("4s")) and deal.line == line
    assert TableNote(NoteKind.GARBLED, None, "'Xx' where a card should be", line) in h.events
    assert errors(h) == {Code.GARBLED_CARD: 1}


# ------------------------------------------------------------------------- round trip

_MONEY = re.compile(r"[$€£]?[\d.,]+")


def flow(h: Hand) -> list[tuple[object, ...]]:
    """Each action as what it puts in: (street, player, kind, chips added, all-in), with a
    bet, completion or raise as one kind of wager (Party's words name them by position)."""
    out: list[tuple[object, ...]] = []
    street_in: dict[str, int] = {}
    top = 0
    for e in h.events:
        if isinstance(e, StreetStart):
            street_in, top = {}, 0
        if not isinstance(e, Action):
            continue
        before = street_in.get(e.player, 0)
        kind: object = e.kind
        if e.kind in (K.BET, K.RAISE, K.COMPLETE):
            kind = "wager"
            if e.to_amount is not None:
                to = e.to_amount
            else:
                to = top + e.amount if e.kind is K.RAISE else before + e.amount
            added = to - before
        else:
            added = e.amount
        if e.kind is not K.ANTE:
            street_in[e.player] = before + added
            top = max(top, before + added)
        out.append((e.street, e.player, kind, added, e.all_in))
    return out


def shown(h: Hand) -> dict[str, tuple[Card, ...]]:
    """The cards each player's hand is seen with at the end: shows, and mucked hands the
    summary lists with their cards (Party exposes them: "doesn't show [..]")."""
    got = {e.player: e.cards for e in h.events if isinstance(e, Show)}
    for r in h.summary.seats if h.summary else ():
        if r.outcome is SeatOutcome.MUCKED and len(r.cards) >= 5:
            got.setdefault(r.player, r.cards)
    return got


def carried(h: Hand) -> dict[str, object]:
    """What Party's text carries of a hand, in one comparable shape. What it cannot carry,
    by the writer's stated choices: opponents' cards but in shows, an uncalled bet (its
    bettor wins it with the pot: counted with what they win, and in the total), the
    summary (derived: total, rake, what each winner won), the words of a shown hand where
    Party's are unknown, the kind of a wager beyond its chips, levels as roman numerals."""
    returned: Counter[str] = Counter()
    for e in h.events:
        if isinstance(e, UncalledBet):
            returned[e.player] += e.amount
    got = Counter(collections(h)) + returned
    s = h.summary
    assert s is not None
    level = h.level and {"I": 1, "II": 2, "III": 3, "IV": 4, "V": 5}.get(h.level, h.level)
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
            str(level) if level else None,
            _MONEY.findall(h.buy_in or ""),
            h.max_seats,
            h.hero,
            h.table,
        ),  # fmt: skip
        "seats": [(x.seat, x.player, x.stack) for x in h.seats],
        "actions": flow(h),
        "hero": [
            (e.street, e.cards) for e in h.events if isinstance(e, Deal) and e.player == h.hero
        ],
        "community": [e.community for e in h.events if isinstance(e, StreetStart)],
        "shown": shown(h),
        "mucks": sorted(e.player for e in h.events if isinstance(e, Muck) and not e.declined),
        "declined": sorted(e.player for e in h.events if isinstance(e, Muck) and e.declined),
        "collected": {p: x for p, x in got.items() if x},
        "pot": (s.total_pot + sum(returned.values()), s.rake),
        "no_low": any(isinstance(e, NoLowHand) for e in h.events),
    }


def open_pair_unknown(back: Hand, original: Hand) -> bool:
    """The engine's gap: the parsed hand's only errors are 4th-street bet or raise sizes
    in stud, where an open pair allows the big bet but Party wrote nobody's board, and
    the simulated hand (every board known) replays clean."""
    codes = {(v.code, v.street) for v in replay(back, PARTYPOKER).errors}
    return (
        back.game is Game.STUD
        and codes <= {(Code.BET_SIZE, S.FOURTH), (Code.RAISE_SIZE, S.FOURTH)}
        and replay(original, PARTYPOKER).errors == ()
    )


def check_round_trip(hands: list[Hand], newline: str = "\n") -> Counter[str]:
    """Write, read back, compare; the replay of what was read may report only the engine's
    open-pair gap (module doc). Returns what the hands exercised."""
    items = parse(write_hands(hands, newline=newline), "sim.txt")
    assert len(items) == len(hands)
    seen: Counter[str] = Counter()
    for h, back in zip(hands, items, strict=True):
        assert isinstance(back, Hand), (back, write_hand(h))
        same(h, back)
        seen["open pair unknown"] += bool(errors(back))
        seen.update("uncalled" for e in h.events if isinstance(e, UncalledBet))
    return seen


def same(h: Hand, back: Hand) -> None:
    """The contract's round trip (tests/dialects/test_contract.py): `back`, read from the
    text written of `h`, carries what the text carries; its replay may report only the
    engine's open-pair gap (module doc)."""
    assert back.site == "partypoker" and back.dialect == "partypoker"
    assert carried(back) == carried(h), write_hand(h)
    if errors(back):
        assert open_pair_unknown(back, h), (errors(back), write_hand(h))


def test_round_trip_covers_the_writer_choices() -> None:
    """The fixed seeds above do meet every choice the writer makes."""
    hands = [
        h
        for game, players in (("stud", 3), ("stud_hilo", 3), ("razz", 3), ("stud", 8))
        for h in simulate(game, 40, players=players, seed=11, profile=PARTYPOKER)
    ]
    text = write_hands(hands)
    seen = check_round_trip(hands)
    assert seen["uncalled"] > 0  # hands whose uncalled bet the site leaves in what is won
    assert "There was no qualifying low hand" in text
    for form in (" opens\n", " completes [", " double bets [", " is all-In  [", " raises ["):
        assert form in text, form
    assert " doesn't show [ " in text and " does not show cards.\n" in text
    assert re.search(r" wins \$[\d.]+ USD\n", text)  # uncontested: no pot named
    assert re.search(r" wins \$[\d.]+ USD from the main pot with [^\n]+\.\n", text)
    assert "from the side pot #1" in text
    assert "** Dealing River ** [ " in text  # a community card: eight players to the river


def test_simulated_tournaments_and_currencies() -> None:
    (h,) = simulate("stud", 1, players=3, seed=2, tournament=True, profile=PARTYPOKER)
    head = write_hand(h).splitlines()[2]
    assert re.fullmatch(
        r"FL 7 Card Stud \$[\d.]+ USD Buy-in \+ \$[\d.]+ USD Entry Trny:\d+ Level:1  "
        r"Stakes-Antes\(\d+/\d+-\d+\) - [A-Z][a-z]+, [A-Z][a-z]+ \d\d, [\d:]{8} E[DS]T \d{4}",
        head,
    ), head
    (e,) = simulate("stud", 1, players=3, seed=2, currency="EUR", profile=PARTYPOKER)
    assert "€0.04/€0.08 EUR 7 Card Stud" in write_hand(e) and "[€0.01 EUR]" in write_hand(e)
    check_round_trip([h, e])


def test_gap_open_pair_nobody_shows() -> None:
    hands = list(simulate("stud", 30, players=5, seed=10, profile=PARTYPOKER))
    items = parse(write_hands(hands))
    assert [h.hand_id for h in items if isinstance(h, Hand) and errors(h)] == []
