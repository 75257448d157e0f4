"""The Bovada / Bodog / Ignition dialect: every real hand parses, adds up and replays clean;
each line form maps to the right event; the writer gives two real files back line for line
and simulated hands survive a round trip; bad input is rejected with file, line and id."""

from __future__ import annotations

import dataclasses
from collections import Counter
from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import pytest

from histkit.accounting import collections, contributions
from histkit.cards import parse_card, parse_cards
from histkit.cli import main
from histkit.dialects import get_dialect
from histkit.dialects.bovada import BOVADA, Bovada
from histkit.dialects.bovada_writer import BovadaWriter, hand_words, write_hand, write_hands
from histkit.model import (
    ActionKind,
    Collect,
    Deal,
    Event,
    Game,
    Hand,
    Muck,
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
from histkit.rules import Code, replay
from histkit.simulate import simulate
from tests.conftest import CORPUS
from tests.dialects.helpers import (
    acts,
    corpus_fixture,
    hands_by_id,
    needs_folder,
    one_hand,
    one_issue,
    strict_rejection,
)

A, S = ActionKind, Street
BOVADA_DIR = CORPUS / "bovada"
CASH_2012 = BOVADA_DIR / "7-Stud-USD-2.00-4.00-201205.txt"
MTT_2012 = BOVADA_DIR / "7-Stud-USD-MTT - $10-$1 - 201206.txt"
HILO_2014 = BOVADA_DIR / "7-StudHL-USD - RING - $5-$10, $1.25 Ante - 201404.txt"
needs_bovada = needs_folder(BOVADA_DIR)


one = partial(one_hand, site="bovada")
issue = partial(one_issue, site="bovada")
rejected = partial(strict_rejection, site="bovada")
corpus = corpus_fixture(BOVADA_DIR)
by_id = hands_by_id


def notes(h: Hand, kind: NoteKind) -> list[TableNote]:
    return [e for e in h.events if isinstance(e, TableNote) and e.kind is kind]


# ----------------------------------------------------------------------- real files


@needs_bovada
def test_corpus_counts_as_the_readme_lists(corpus: list[Hand | ParseIssue]) -> None:
    assert [i for i in corpus if isinstance(i, ParseIssue)] == []
    got = Counter((Path(h.source.file).name, h.game) for h in corpus if isinstance(h, Hand))
    assert got == {
        (CASH_2012.name, Game.STUD): 4,
        (MTT_2012.name, Game.STUD): 40,
        (HILO_2014.name, Game.STUD_HILO): 1,
    }
    assert {h.site for h in corpus if isinstance(h, Hand)} == {"bovada"}


@needs_bovada
def test_corpus_replays_clean_and_adds_up(corpus: list[Hand | ParseIssue]) -> None:
    """Not one violation, not even an info record; collected + rake is the total put in;
    each seat's summary figure is what it collected."""
    for h in (h for h in corpus if isinstance(h, Hand)):
        rp = replay(h)
        assert rp.profile == "bovada"
        assert rp.violations == (), (h.hand_id, rp.violations)
        assert replay(h, BOVADA).violations == ()
        assert h.summary is not None
        paid, got = contributions(h), collections(h)
        assert sum(paid.values()) == h.summary.total_pot, h.hand_id
        assert sum(got.values()) + h.summary.rake + h.summary.fee == h.summary.total_pot
        for r in h.summary.seats:
            assert r.won == got.get(r.player, 0), (h.hand_id, r)


@needs_bovada
def test_audit_command_is_clean_on_the_real_files() -> None:
    assert main(["audit", str(BOVADA_DIR), "-q"]) == 0


@needs_bovada
def test_corpus_2012_cash_facts(corpus: list[Hand | ParseIssue]) -> None:
    hands = by_id(corpus)
    h = hands["2604291510"]
    assert (h.game, h.unit, h.currency, h.small_bet, h.big_bet, h.ante, h.bring_in) == (
        Game.STUD, Unit.CENT, "USD", 5, 10, None, None,
    )  # fmt: skip
    assert (h.table, h.hero, h.tournament_id, h.max_seats) == ("1178621", "Seat+3", None, None)
    # no zone is written: read as US Eastern (EDT in May)
    assert h.started_at == datetime(2012, 5, 7, 7, 40, 7, tzinfo=UTC)
    assert h.local_time == "2012-05-07 03:40:07"
    assert [(s.seat, s.player, s.stack) for s in h.seats] == [
        (1, "Seat+1", 57),
        (3, "Seat+3", 50),
        (5, "Seat+5", 51),
    ]
    # "*** HOLE CARDS ***" is the only street line: a street starts with its first card
    starts = [(e.street, e.line) for e in h.events if isinstance(e, StreetStart)]
    assert starts == [(S.THIRD, 8), (S.FOURTH, 15), (S.FIFTH, 21)]
    deals = [e for e in h.events if isinstance(e, Deal)]
    assert deals[0] == Deal(S.THIRD, "Seat+1", parse_cards("7h 8c Jc"), (False, False, True), (), 9)
    assert (deals[3].street, deals[3].cards, deals[3].up) == (S.FOURTH, parse_cards("9c"), (True,))
    assert acts(h)[3:] == [
        (S.THIRD, "Seat+5", A.BRING_IN, 2, None, False),
        (S.THIRD, "Seat+1", A.CALL, 2, None, False),
        (S.THIRD, "Seat+3", A.CALL, 2, None, False),
        (S.FOURTH, "Seat+1", A.CHECK, 0, None, False),
        (S.FOURTH, "Seat+3", A.CHECK, 0, None, False),
        (S.FOURTH, "Seat+5", A.CHECK, 0, None, False),
        (S.FIFTH, "Seat+3", A.BET, 10, None, False),
        (S.FIFTH, "Seat+5", A.FOLD, 0, None, False),
        (S.FIFTH, "Seat+1", A.FOLD, 0, None, False),
    ]
    # the winner "Does not show [..]": a declined show; the hand's only pot
    assert [(m.player, m.declined) for m in h.events if isinstance(m, Muck)] == [("Seat+3", True)]
    assert [(c.player, c.amount, c.pot) for c in h.events if isinstance(c, Collect)] == [
        ("Seat+3", 9, PotKind.POT)
    ]
    assert h.summary is not None and (h.summary.total_pot, h.summary.rake) == (9, 0)
    assert [(r.seat, r.outcome, r.won, r.folded_street) for r in h.summary.seats] == [
        (1, SeatOutcome.FOLDED, 0, S.FIFTH),
        (3, SeatOutcome.COLLECTED, 9, None),
        (5, SeatOutcome.FOLDED, 0, S.FIFTH),
    ]
    # 4th street: "D bets $0.10" over an open pair of threes is the big bet; the raise of
    # 2604291699 ("Raises $0.10" over $0.05) goes to the street total
    assert (S.FOURTH, "Seat+3", A.BET, 10, None, False) in acts(hands["2604291577"])
    assert (S.FOURTH, "Seat+3", A.RAISE, 5, 10, False) in acts(hands["2604291699"])
    # the hero sits out: seated, dealt nothing, no summary line
    out = hands["2604291787"]
    assert out.hero == "Seat+3" and "Seat+3" not in {d.player for d in out.actions()}
    assert [n.text for n in notes(out, NoteKind.SIT_OUT)] == ["Seat+3 [ME] : Seat sit out"]
    assert [n.text for n in notes(out, NoteKind.LEAVE)] == [
        "Seat+3 [ME] : Seat stand",
        "Seat+3 [ME] : Table leave user",
    ]


@needs_bovada
def test_corpus_showdowns_and_the_missing_ace_of_clubs(corpus: list[Hand | ParseIssue]) -> None:
    """ "Showdown [..]" writes the best five; the show is every card dealt. The summary's
    dealt list leaves the Ace of clubs out (all three times it was dealt): it is put back."""
    h = by_id(corpus)["2604291699"]
    shows = {s.player: s for s in h.events if isinstance(s, Show)}
    assert shows["Seat+5"] == Show(
        "Seat+5", parse_cards("9d 8s Jd 5c Td Ac Js"), "One pair", shows["Seat+5"].line
    )
    assert h.summary is not None
    five = {r.player: r for r in h.summary.seats}["Seat+5"]
    assert (five.outcome, five.won, five.cards, five.description) == (
        SeatOutcome.SHOWED, 0, parse_cards("9d 8s Jd 5c Td Ac Js"), "One pair",
    )  # fmt: skip
    assert "[9d 8s Jd 5c Td Js-Js Jd Ac Td 9d]" in CASH_2012.read_text(encoding="utf-8-sig")
    assert Bovada.describe(Game.STUD, parse_cards("9d 8s Jd 5c Td Ac Js")) == "One pair"


@needs_bovada
def test_corpus_mtt_facts(corpus: list[Hand | ParseIssue]) -> None:
    hands = by_id(corpus)
    h = hands["2633115879"]
    assert (h.game, h.unit, h.currency, h.tournament_id, h.level, h.table, h.hero) == (
        Game.STUD, Unit.CHIP, None, "1378659", "1", "1", "Seat+4",
    )  # fmt: skip
    assert (h.small_bet, h.big_bet) == (10, 20)  # "(0/0)" are blinds; 4th street "Bets 10"
    assert [s.stack for s in h.seats] == [1500] * 6
    assert [n.text for n in notes(h, NoteKind.JOIN)][0] == "Seat+4 [ME] : Table enter user"
    # "Raises X" is the street total: 10 over the 5 bring-in, 30 over 20 (called with 10)
    r = hands["2633117518"]
    assert (S.THIRD, "Seat+8", A.RAISE, 5, 10, False) in acts(r)
    assert [a for a in acts(r) if a[0] is S.FOURTH] == [
        (S.FOURTH, "Seat+8", A.BET, 10, None, False),
        (S.FOURTH, "Seat+1", A.RAISE, 10, 20, False),
        (S.FOURTH, "Seat+5", A.FOLD, 0, None, False),
        (S.FOURTH, "Seat+8", A.RAISE, 10, 30, False),
        (S.FOURTH, "Seat+1", A.CALL, 10, None, False),
    ]
    # the bring-in completes: "Bets 20" on 3rd street with no bring-in line
    assert acts(hands["2633119675"])[5] == (S.THIRD, "Seat+2", A.BET, 20, None, False)
    # "(timeout)": the action, and a TIMED_OUT note with the line
    t = hands["2633116884"]
    assert acts(t)[7] == (S.THIRD, "Seat+1", A.BRING_IN, 5, None, False)
    assert [(n.player, n.text) for n in notes(t, NoteKind.TIMED_OUT)] == [
        ("Seat+1", "Seat+1 : Big blind/Bring in(timeout) 5")
    ]
    out = hands["2633123306"]
    assert [n.text for n in notes(out, NoteKind.FINISHED)] == ["Seat+1 : Ranking 18"]


@needs_bovada
def test_corpus_all_ins_and_side_pots(corpus: list[Hand | ParseIssue]) -> None:
    hands = by_id(corpus)
    h = hands["2633131343"]
    assert [a for a in acts(h) if a[0] is S.FOURTH] == [
        (S.FOURTH, "Seat+4", A.BET, 200, None, False),
        (S.FOURTH, "Seat+5", A.RAISE, 200, 400, False),
        (S.FOURTH, "Seat+2", A.CALL, 245, None, True),  # "All-in 245": short of 400
        (S.FOURTH, "Seat+4", A.RAISE, 200, 600, False),
        (S.FOURTH, "Seat+5", A.CALL, 200, None, True),  # "All-in 200": a call to 600
    ]
    assert [
        (c.player, c.amount, c.pot, c.pot_index) for c in h.events if isinstance(c, Collect)
    ] == [
        ("Seat+4", 710, PotKind.SIDE, 1),
        ("Seat+4", 1755, PotKind.MAIN, 0),
    ]
    assert h.summary is not None and (h.summary.main_pot, h.summary.side_pots) == (1755, (710,))
    assert [len(p.eligible) for p in replay(h).pots] == [3, 2]
    # "All-in(raise) 195" with nothing bet is an all-in bet; "All-in(raise) 1054" the total
    assert (S.FIFTH, "Seat+8", A.BET, 195, None, True) in acts(hands["2633132391"])
    assert (S.THIRD, "Seat+4", A.RAISE, 154, 1054, True) in acts(hands["2633133863"])
    assert (S.FIFTH, "Seat+1", A.BET, 22, None, True) in acts(hands["2633123306"])


@needs_bovada
def test_corpus_stakes_are_derived_from_the_bets(corpus: list[Hand | ParseIssue]) -> None:
    """Nine MTT levels: the small bet twice the bring-in each time; a hand checked down
    takes it from the bring-in, and says so."""
    levels = {(h.level, h.small_bet, h.big_bet) for h in corpus if isinstance(h, Hand) and h.level}
    assert sorted(levels, key=lambda x: int(x[0] or 0)) == [
        ("1", 10, 20), ("2", 20, 40), ("3", 40, 80), ("4", 60, 120), ("5", 80, 160),
        ("6", 100, 200), ("7", 150, 300), ("8", 200, 400), ("9", 300, 600),
    ]  # fmt: skip
    checked = by_id(corpus)["2633132989"]
    assert (checked.small_bet, checked.big_bet) == (200, 400)
    (note,) = notes(checked, NoteKind.OTHER)
    assert "no full bet" in note.text and note.player is None
    with_bets = [h for h in corpus if isinstance(h, Hand) and h.hand_id != "2633132989"]
    assert all(not notes(h, NoteKind.OTHER) for h in with_bets)


@needs_bovada
def test_corpus_2014_hilo_facts(corpus: list[Hand | ParseIssue]) -> None:
    h = by_id(corpus)["2844383701"]
    assert (h.game, h.small_bet, h.big_bet, h.unit, h.currency, h.hero, h.table) == (
        Game.STUD_HILO, 500, 1000, Unit.CENT, "USD", "Seat+5", "7794710",
    )  # fmt: skip
    third = [a for a in acts(h) if a[0] is S.THIRD and a[2] is not A.ANTE]
    assert third[:4] == [
        (S.THIRD, "Seat+5", A.BRING_IN, 250, None, False),
        (S.THIRD, "Seat+6", A.FOLD, 0, None, False),
        (S.THIRD, "Seat+7", A.FOLD, 0, None, False),
        (S.THIRD, "Seat+8", A.RAISE, 250, 500, False),  # "Raises $5 to $5": the completion
    ]
    # "Raises $7.50 to $10": adds $7.50 to the $2.50 bring-in
    assert (S.THIRD, "Seat+5", A.RAISE, 500, 1000, False) in third
    starts = [e.street for e in h.events if isinstance(e, StreetStart)]
    assert starts == list(Street)
    shows = [(s.player, s.cards, s.description) for s in h.events if isinstance(s, Show)]
    assert shows == [
        ("Seat+5", parse_cards("Ad Qd 2d 2c Td Js Ks"), "Straight"),
        ("Seat+2", parse_cards("5c 2h 6c 3h 5s 7c 8h"), "One pair"),  # high words only
    ]
    # no rake is written: $150 in, $73.50 twice out, the rake $3
    assert h.summary is not None and (h.summary.total_pot, h.summary.rake) == (15000, 300)
    won = {r.player: r.won for r in h.summary.seats if r.won}
    assert won == {"Seat+2": 7350, "Seat+5": 7350}  # "LO $73.50", "HI $73.50"
    halves = {a.half.value: dict(a.expected) for a in replay(h).awards}
    assert halves == {"high": {"Seat+5": 7350}, "low": {"Seat+2": 7350}}


@needs_bovada
def test_writer_gives_two_real_files_back_line_for_line(corpus: list[Hand | ParseIssue]) -> None:
    """The 2014 cash form and the 2012 MTT form, every byte but the line ends, blank lines
    and the BOM; "(timeout)" comes back from the notes that keep it."""
    hands = [h for h in corpus if isinstance(h, Hand)]
    for path, newline in ((HILO_2014, "\r\n"), (MTT_2012, "\n")):
        mine = [h for h in hands if Path(h.source.file) == path]
        want = path.read_bytes().decode("utf-8-sig").rstrip("\r\n")
        got = write_hands(mine, newline=newline).rstrip("\r\n")
        assert got == want, path.name


@needs_bovada
def test_2012_cash_hands_come_back_in_the_2014_form(corpus: list[Hand | ParseIssue]) -> None:
    """The writer has one cash form (the 2014 client's): Bodog's 2012 hands read back equal."""
    old = [h for h in corpus if isinstance(h, Hand) and Path(h.source.file) == CASH_2012]
    text = write_hands(old)
    assert text.startswith("Bovada Hand #2604291510 TBL#1178621 7CARD Fixed Limit - 2012-05-07")
    assert "*** 4TH STREET ***" in text and "Raises $0.10 to $0.10" in text
    back = parse_text(text, source="w.txt", site="bovada")
    assert [project(b) for b in back] == [project(h) for h in old]  # type: ignore[arg-type]


# ------------------------------------------------------------------- line by line

HEAD = "Bovada Hand #3000000001 TBL#9001 7CARD Fixed Limit - 2014-04-06 19:50:19"
BRING = "Seat+5 : Bring_in chip $0.25 "


def hand(body: list[str], *, head: str = HEAD, summary: list[str] | None = None,
         third: str = "*** 3RD STREET ***") -> str:  # fmt: skip
    """A three-seat $0.50/$1 hand around `body` (3rd street's play onward)."""
    lines = [
        head,
        "Seat+1: $10 in chips",
        "Seat+3 [ME]: $8 in chips",
        "Seat+5: $1.20 in chips",
        "Seat+1 : Ante chip $0.10 ",
        "Seat+3 [ME] : Ante chip $0.10 ",
        "Seat+5 : Ante chip $0.10 ",
        third,
        "Seat+1 : Card dealt to a spot [Kd 9c Qh] ",
        "Seat+3 [ME] : Card dealt to a spot [As 2s 3c] ",
        "Seat+5 : Card dealt to a spot [7d 7h 2d] ",
        *body,
        "*** SUMMARY ***",
        *(summary or ["Total Pot($0.30)"]),
    ]
    return "\n".join(lines) + "\n"


FOURTH = [
    "*** 4TH STREET ***",
    "Seat+1 : Card dealt to a spot [Kc] ",
    "Seat+3 [ME] : Card dealt to a spot [4s] ",
    "Seat+5 : Card dealt to a spot [9d] ",
]
COMPLETE = [BRING, "Seat+1 : Raises $0.50 to $0.50"]


@pytest.mark.parametrize(
    ("body", "want"),
    [
        ([BRING], (A.BRING_IN, "Seat+5", 25, None, False)),
        (["Seat+5 : Big blind/Bring in $0.25"], (A.BRING_IN, "Seat+5", 25, None, False)),
        (["Seat+5 : Bets $0.50 "], (A.BET, "Seat+5", 50, None, False)),  # completes
        (COMPLETE, (A.RAISE, "Seat+1", 25, 50, False)),
        (["Seat+5 : Bring_in chip $0.25", "Seat+1 : Raises $0.50"],  # 2012: the total
         (A.RAISE, "Seat+1", 25, 50, False)),
        ([*COMPLETE, "Seat+3 [ME] : Raises $1 to $1"], (A.RAISE, "Seat+3", 50, 100, False)),
        ([*COMPLETE, "Seat+5 : Raises $0.75 to $1"], (A.RAISE, "Seat+5", 50, 100, False)),
        ([*COMPLETE, "Seat+5 : Raises $1"], (A.RAISE, "Seat+5", 50, 100, False)),
        ([BRING, "Seat+1 : Calls $0.25 "], (A.CALL, "Seat+1", 25, None, False)),
        ([BRING, "Seat+1 : Call $0.25"], (A.CALL, "Seat+1", 25, None, False)),
        ([BRING, "Seat+1 : Folds"], (A.FOLD, "Seat+1", 0, None, False)),
        ([BRING, "Seat+1 : Checks"], (A.CHECK, "Seat+1", 0, None, False)),
        # "All-in X" adds X: a call when it does not top the bet, else a raise or a bet
        ([*COMPLETE, "Seat+5 : All-in $0.25 "], (A.CALL, "Seat+5", 25, None, True)),
        ([BRING, "Seat+1 : All-in $1"], (A.RAISE, "Seat+1", 75, 100, True)),
        ([BRING, "Seat+5 : All-in(raise) $1.10"], (A.RAISE, "Seat+5", 85, 110, True)),
        ([BRING, "Seat+5 : All-in(raise) $0.85 to $1.10"], (A.RAISE, "Seat+5", 85, 110, True)),
        ([*COMPLETE, "Seat+5 : All-in(raise) $0.85 to $1.10"],
         (A.RAISE, "Seat+5", 60, 110, True)),
        ([*COMPLETE, *FOURTH, "Seat+5 : All-in $0.85 "], (A.BET, "Seat+5", 85, None, True)),
        ([*COMPLETE, *FOURTH, "Seat+1 : Bets $0.50 "], (A.BET, "Seat+1", 50, None, False)),
        ([*COMPLETE, *FOURTH, "Seat+1 : Double bets $1 "], (A.BET, "Seat+1", 100, None, False)),
        ([*COMPLETE, *FOURTH, "Seat+1 : D bets $1"], (A.BET, "Seat+1", 100, None, False)),
    ],
)  # fmt: skip
def test_actions(body: list[str], want: tuple[object, ...]) -> None:
    a = one(hand(body)).actions()[-1]
    assert (a.kind, a.player, a.amount, a.to_amount, a.all_in) == want


def test_forced_bets_all_in_on_the_stack_and_timeouts() -> None:
    """No all-in form of an ante or a bring-in is known: taking the whole stack is all-in."""
    text = hand(["Seat+5 : Big blind/Bring in(timeout) $0.25", "Seat+1 : Folds(timeout)"])
    h = one(text.replace("Seat+5: $1.20 in chips", "Seat+5: $0.35 in chips"))
    assert acts(h)[3:] == [
        (S.THIRD, "Seat+5", A.BRING_IN, 25, None, True),
        (S.THIRD, "Seat+1", A.FOLD, 0, None, False),
    ]
    assert [(n.player, n.text) for n in notes(h, NoteKind.TIMED_OUT)] == [
        ("Seat+5", "Seat+5 : Big blind/Bring in(timeout) $0.25"),
        ("Seat+1", "Seat+1 : Folds(timeout)"),
    ]
    h = one(hand([]).replace("Seat+5: $1.20 in chips", "Seat+5: $0.10 in chips"))
    assert acts(h)[2] == (S.THIRD, "Seat+5", A.ANTE, 10, None, True)


def test_raise_whose_amounts_disagree_is_rejected() -> None:
    text = hand([BRING, "Seat+1 : Raises $0.40 to $0.50"])
    got = rejected(text)
    assert (got.kind, got.hand_id) == ("rejected", "3000000001")
    assert got.line == text.splitlines().index("Seat+1 : Raises $0.40 to $0.50") + 1
    assert "'$0.40 to $0.50' does not add up: Seat+1 had 0 cents in" in got.reason


SHOWN = [*COMPLETE, "Seat+5 : Calls $0.25 "]


@pytest.mark.parametrize(
    ("line", "want"),
    [
        ("Seat+1 : Showdown [Kd Qh 9c] (High Card)",
         Show("Seat+1", parse_cards("Kd 9c Qh"), "High Card")),
        ("Seat+5 : Showdown [7d 7h 2d]", Show("Seat+5", parse_cards("7d 7h 2d"), None)),
        ("Seat+3 [ME] : Mucks [As 2s 3c] (High Card)", Muck("Seat+3", False)),
        ("Seat+3 [ME] : Mucks", Muck("Seat+3", False)),
        ("Seat+5 : Does not show [7d 7h 2d] (One pair)", Muck("Seat+5", True)),
        ("Seat+1 : Return uncalled portion of bet $0.25 ", UncalledBet("Seat+1", 25, S.THIRD)),
        ("Seat+1 : Hand result $0.55 ", Collect("Seat+1", 55, PotKind.POT, 0)),
        ("Seat+1 : Hand Result $0.55", Collect("Seat+1", 55, PotKind.POT, 0)),
        ("Seat+1 : Hand result-Side pot $0.20 ", Collect("Seat+1", 20, PotKind.SIDE, 1)),
        ("Seat+1 : Hand Result-Side Pot 2 $0.20", Collect("Seat+1", 20, PotKind.SIDE, 2)),
        ("Seat+2 : Table enter user",
         TableNote(NoteKind.JOIN, "Seat+2", "Seat+2 : Table enter user")),
        ("Seat+1 : Table leave user",
         TableNote(NoteKind.LEAVE, "Seat+1", "Seat+1 : Table leave user")),
        ("Seat+1 : Stand", TableNote(NoteKind.LEAVE, "Seat+1", "Seat+1 : Stand")),
        ("Seat+1 : Sit out", TableNote(NoteKind.SIT_OUT, "Seat+1", "Seat+1 : Sit out")),
        ("Seat+3 [ME] : Seat sit out",
         TableNote(NoteKind.SIT_OUT, "Seat+3", "Seat+3 [ME] : Seat sit out")),
        ("Seat+1 : Re-join", TableNote(NoteKind.RETURN, "Seat+1", "Seat+1 : Re-join")),
        ("Seat+1 : Ranking 18", TableNote(NoteKind.FINISHED, "Seat+1", "Seat+1 : Ranking 18")),
        ("Seat+1 : Table deposit $10",
         TableNote(NoteKind.OTHER, "Seat+1", "Seat+1 : Table deposit $10")),
    ],
)  # fmt: skip
def test_showdown_collect_and_note_lines(line: str, want: Event) -> None:
    e = one(hand([*SHOWN, line])).events[-1]
    assert e == dataclasses.replace(want, line=e.line)


def test_main_pot_beside_a_side_pot_and_totals_when_side_pots_are_ambiguous() -> None:
    lines = ["Seat+1 : Hand result-Side pot $0.20 ", "Seat+3 [ME] : Hand result $0.10 "]
    h = one(hand([*SHOWN, *lines]))
    assert [(c.pot, c.pot_index) for c in h.events if isinstance(c, Collect)] == [
        (PotKind.SIDE, 1),
        (PotKind.MAIN, 0),
    ]
    assert h.summary is not None and (h.summary.main_pot, h.summary.side_pots) == (10, (20,))
    # two unnumbered side-pot lines: a split side pot or two side pots? each player's total
    lines.append("Seat+5 : Hand result-Side pot $0.05 ")
    h = one(hand([*SHOWN, *lines]))
    assert {c.pot for c in h.events if isinstance(c, Collect)} == {PotKind.TOTAL}


@pytest.mark.parametrize(
    ("summary", "want"),
    [
        ("Total Pot($0.30) | Rake ($0.02)", (30, 2)),
        ("Total Pot($0.30) | Rake ($0)", (30, 0)),
        ("Total Pot($0.30)", (30, 2)),  # no rake written: what the collects leave
    ],
)
def test_total_pot_and_a_rake_not_written(summary: str, want: tuple[int, int]) -> None:
    s = one(hand([BRING, "Seat+5 : Hand result $0.28 "], summary=[summary])).summary
    assert s is not None and (s.total_pot, s.rake) == want


@pytest.mark.parametrize(
    ("line", "want"),
    [
        ("Seat+1:  Folded on the 3rd STREET",
         (1, "Seat+1", SeatOutcome.FOLDED, 0, (), None, S.THIRD)),
        ("Seat 1:  Folded on the 4TH STREET",
         (1, "Seat+1", SeatOutcome.FOLDED, 0, (), None, S.FOURTH)),
        ("Seat 1:  Folded on the RIVER", (1, "Seat+1", SeatOutcome.FOLDED, 0, (), None, S.SEVENTH)),
        ("Seat 3:  $0.30 [Does not show]",
         (3, "Seat+3", SeatOutcome.COLLECTED, 30, (), None, None)),
        ("Seat 3:  $0.30  with High Card [As 2s 3c-As 3c 2s]",
         (3, "Seat+3", SeatOutcome.SHOWED, 30, parse_cards("As 2s 3c"), "High Card", None)),
        ("Seat 5:   lose with One pair [7d 7h 2d-7d 7h 2d]",
         (5, "Seat+5", SeatOutcome.SHOWED, 0, parse_cards("7d 7h 2d"), "One pair", None)),
        ("Seat 5:   lost with One pair [7d 7h 2d-7d 7h 2d]",
         (5, "Seat+5", SeatOutcome.SHOWED, 0, parse_cards("7d 7h 2d"), "One pair", None)),
        ("Seat+5:  HI $0.20  with One pair [7d 7h 2d-7d 7h 2d]  ",
         (5, "Seat+5", SeatOutcome.SHOWED, 20, parse_cards("7d 7h 2d"), "One pair", None)),
        ("Seat+3:   with High Card [As 2s 3c-As 3c 2s] LO $0.10 [As 2s 3c-As 2s 3c]",
         (3, "Seat+3", SeatOutcome.SHOWED, 10, parse_cards("As 2s 3c"), "High Card", None)),
        ("Seat+3:  HI $0.20  with High Card [As 2s 3c-As 3c 2s] LO $0.10 [As 2s 3c-As 2s 3c]",
         (3, "Seat+3", SeatOutcome.SHOWED, 30, parse_cards("As 2s 3c"), "High Card", None)),
        ("Seat 5:   [Mucked] [7d 7h 2d ]",
         (5, "Seat+5", SeatOutcome.MUCKED, 0, parse_cards("7d 7h 2d"), None, None)),
    ],
)  # fmt: skip
def test_summary_seat_lines(line: str, want: tuple[object, ...]) -> None:
    s = one(hand([BRING], summary=["Total Pot($0.30)", line])).summary
    assert s is not None
    (r,) = s.seats
    assert (r.seat, r.player, r.outcome, r.won, r.cards, r.description, r.folded_street) == want


def test_summary_puts_back_the_ace_of_clubs_only_when_that_is_all_it_lacks() -> None:
    body = [BRING, "*** 4TH STREET ***", "Seat+1 : Card dealt to a spot [Ac] "]
    summary = ["Total Pot($0.30)", "Seat+1:   lose with High Card [Kd 9c Qh-Ac Kd Qh 9c]"]
    s = one(hand(body, summary=summary)).summary
    assert s is not None and s.seats[0].cards == parse_cards("Kd 9c Qh Ac")
    summary[1] = "Seat+1:   lose with High Card [Kd Qh-Ac Kd Qh 9c]"  # 9c left out too
    s = one(hand(body, summary=summary)).summary
    assert s is not None and s.seats[0].cards == parse_cards("Kd Qh")


@pytest.mark.parametrize(
    ("head", "want"),
    [
        (HEAD, (Game.STUD, Unit.CENT, "USD", None, None, "9001")),
        ("Bovada Hand #3000000001 TBL#9001 7CARD HiLo Fixed Limit - 2014-04-06 19:50:19",
         (Game.STUD_HILO, Unit.CENT, "USD", None, None, "9001")),
        ("Bodog Hand #3000000001 TBL#9001 7CARD Fixed Limit - 2014-04-06 19:50:19",
         (Game.STUD, Unit.CENT, "USD", None, None, "9001")),
        ("Ignition Hand #3000000001 TBL#9001 7CARD_HILO Fixed Limit - 2014-04-06 19:50:19",
         (Game.STUD_HILO, Unit.CENT, "USD", None, None, "9001")),
        ("Bovada Hand #3000000001: 7CARD Tournament #77 TBL#3, Fixed Limit- Level 12 (0/0) - "
         "2014-04-06 19:50:19", (Game.STUD, Unit.CHIP, None, "77", "12", "3")),
        ("Bovada Hand #3000000001 TBL#9001 RAZZ Fixed Limit - 2014-04-06 19:50:19",
         (Game.RAZZ, Unit.CENT, "USD", None, None, "9001")),
    ],
)  # fmt: skip
def test_headers(head: str, want: tuple[object, ...]) -> None:
    text = hand([BRING], head=head)
    if want[1] is Unit.CHIP:
        text = text.replace("$", "").replace("0.10", "10").replace("0.25", "25")
        text = text.replace("0.30", "30").replace("1.20", "120")
    h = one(text)
    assert (h.game, h.unit, h.currency, h.tournament_id, h.level, h.table) == want
    assert h.started_at == datetime(2014, 4, 6, 23, 50, 19, tzinfo=UTC)  # EDT


@pytest.mark.parametrize(
    ("head", "game"),
    [
        ("Ignition Hand #3116418452 TBL#14530474 OMAHA HiLo Pot Limit - 2015-08-09 20:27:04",
         "OMAHA HiLo Pot Limit"),
        ("Bovada Hand #3116418452 TBL#14530474 7CARD Pot Limit - 2015-08-09 20:27:04",
         "7CARD Pot Limit"),
        ("Bovada Hand #3116418452: HOLDEM Tournament #1 TBL#2, No Limit- Level 1 (10/20) - "
         "2015-08-09 20:27:04", "HOLDEM No Limit"),
        ("Bovada Hand #3116418452 Zone Poker ID#875 HOLDEMZonePoker No Limit - 2015-08-09 "
         "20:27:04", "HOLDEMZonePoker No Limit"),
    ],
)  # fmt: skip
def test_other_games_are_skipped_from_the_header(head: str, game: str) -> None:
    got = issue(head + "\nanything at all\n")
    assert (got.kind, got.hand_id, got.game, got.line) == ("skipped", "3116418452", game, 1)


@pytest.mark.parametrize(
    ("body", "stakes", "noted"),
    [
        (COMPLETE, (50, 100), False),  # the completion
        ([BRING, "Seat+1 : Calls $0.25 ", *FOURTH, "Seat+1 : Bets $0.50 "], (50, 100), False),
        ([BRING, "Seat+1 : Calls $0.25 ", *FOURTH, "Seat+1 : Double bets $1 "], (50, 100), False),
        # an all-in completion may be short: the raise over it is the measure
        ([BRING, "Seat+5 : All-in(raise) $0.45", "Seat+1 : Raises $0.95"], (50, 100), False),
        # no full wager at all: twice the bring-in, noted
        ([BRING, "Seat+1 : Calls $0.25 "], (50, 100), True),
        # ... raised to cover every all-in seen (here a 4th-street bet of $0.85)
        ([BRING, "Seat+1 : Calls $0.25 ", *FOURTH, "Seat+5 : All-in $0.85 "], (85, 170), True),
    ],
)  # fmt: skip
def test_stakes_from_the_bets(body: list[str], stakes: tuple[int, int], noted: bool) -> None:
    h = one(hand(body))
    assert (h.small_bet, h.big_bet) == stakes
    assert bool(notes(h, NoteKind.OTHER)) is noted


def test_2012_text_starts_each_street_with_its_first_card() -> None:
    body = [BRING, "Seat+1 : Calls $0.25", "Seat+3 [ME] : Calls $0.25",
            *FOURTH[1:], "Seat+1 : Checks",
            "Seat+1 : Card dealt to a spot [Ks]", "Seat+3 [ME] : Card dealt to a spot [5s]",
            "Seat+5 : Card dealt to a spot [9h]"]  # fmt: skip
    h = one(hand(body, third="*** HOLE CARDS ***"))
    assert [e.street for e in h.events if isinstance(e, StreetStart)] == [
        S.THIRD,
        S.FOURTH,
        S.FIFTH,
    ]
    deals = [(d.street, d.player) for d in h.events if isinstance(d, Deal)]
    assert deals[3:] == [(S.FOURTH, f"Seat+{n}") for n in (1, 3, 5)] + [
        (S.FIFTH, f"Seat+{n}") for n in (1, 3, 5)
    ]


# --------------------------------------------------------------------- round trips


def up_cards(d: Deal) -> tuple[object, ...]:
    return tuple(c for c, up in zip(d.cards, d.up, strict=True) if up)


def project(h: Hand) -> dict[str, object]:
    """What the site's text carries: players as seats (the text has no names), every card
    the hand holds for a player (the writer writes a shown hand's cards in the deals),
    per-player totals where side pots cannot be told apart."""
    seat = {s.player: s.seat for s in h.seats}
    ev = h.events
    held = {seat[p]: tuple(c for c in cs) for p, cs in BovadaWriter(h).held.items()}
    collects = [c for c in ev if isinstance(c, Collect)]
    if (
        any(c.pot is PotKind.TOTAL for c in collects)
        or sum(c.pot is PotKind.SIDE for c in collects) > 1
    ):
        paid: object = sorted((seat[p], v) for p, v in collections(h).items())
    else:
        main = {PotKind.POT: PotKind.MAIN}
        paid = sorted(
            (seat[c.player], c.amount, main.get(c.pot, c.pot), c.pot_index) for c in collects
        )
    s = h.summary
    assert s is not None
    return {
        "head": (h.hand_id, h.game, h.unit, h.currency, h.started_at, h.tournament_id,
                 seat.get(h.hero or "")),
        "seats": [(x.seat, x.stack) for x in h.seats],
        "actions": [(a.street, seat[a.player], a.kind, a.amount, a.to_amount, a.all_in)
                    for a in h.actions()],
        "streets": [(e.street, e.community) for e in ev if isinstance(e, StreetStart)],
        "ups": [(d.street, seat[d.player], up_cards(d))
                for d in ev if isinstance(d, Deal) and any(d.up)],
        "held": {k: tuple(c for c in v if c is not None) for k, v in held.items()},
        "uncalled": [(seat[u.player], u.amount, u.street)
                     for u in ev if isinstance(u, UncalledBet)],
        "shows": sorted((seat[x.player], x.cards) for x in ev if isinstance(x, Show)),
        "mucks": sorted((seat[m.player], m.declined) for m in ev if isinstance(m, Muck)),
        "paid": paid,
        "pot": (s.total_pot, s.rake + s.fee),
        "results": [(r.seat, r.outcome, r.won, r.folded_street) for r in s.seats
                    if r.outcome is not SeatOutcome.OTHER],
    }  # fmt: skip


def same(orig: Hand, back: Hand) -> None:
    """The contract's round trip (tests/dialects/test_contract.py): `back`, read from the
    text written of `orig`, replays clean and carries what the text carries."""
    assert replay(back).errors == (), (orig.hand_id, replay(back).errors)
    assert project(back) == project(orig), orig.hand_id
    if not notes(back, NoteKind.OTHER):  # the stakes are carried by the bets
        assert (back.small_bet, back.big_bet) == (orig.small_bet, orig.big_bet)


def test_writer_choices() -> None:
    """Seats for names, "X" for a card the hand does not hold, a shown hand's cards in its
    deals, a 7th-street line for every live player, the site's words."""
    h = next(h for h in simulate("stud", 30, players=4, seed=7, profile=BOVADA)
             if any(isinstance(e, Show) for e in h.events))  # fmt: skip
    text = write_hand(h)
    assert "Hero" not in text and " [ME] : " in text
    shown = {e.player for e in h.events if isinstance(e, Show)}
    seat = {s.player: s.seat for s in h.seats}
    for line in text.splitlines():
        for p in shown:
            if line.startswith(f"Seat+{seat[p]} : Card dealt") or line.startswith(
                f"Seat+{seat[p]} [ME] : Card dealt"
            ):
                assert "X" not in line
    assert hand_words(Game.STUD, parse_cards("As Kd")) == "High Card"
    assert hand_words(Game.STUD, parse_cards("As Ks Qs Js Ts 2d 3h")) == "Royal Flush"
    assert hand_words(Game.STUD_HILO, parse_cards("As 2d 3h 4s 5c Kd Kh")) == "Straight"
    assert hand_words(Game.RAZZ, parse_cards("As 2d 3h 4s 6c Kd Kh")) == "6,4,3,2,A"
    assert Bovada.describe(Game.STUD, parse_cards("As Ks Qs Js Ts 2d 3h")) is None
    assert Bovada.describe(Game.RAZZ, parse_cards("As 2d 3h 4s 6c Kd Kh")) is None


# ------------------------------------------------------------------------ bad input


@pytest.mark.parametrize(
    ("old", "new", "says"),
    [
        ("Seat+1 : Calls $0.25 ", "Seat+1 : Calls 25", "a chip amount"),
    ],
)
def test_garbled_lines_are_rejected_with_their_line(old: str, new: str, says: str) -> None:
    bad = hand([BRING, old]).replace(old, new)
    got = rejected(bad)
    assert (got.kind, got.source_file, got.hand_id) == ("rejected", "t.txt", "3000000001")
    assert got.line == bad.splitlines().index(new) + 1
    assert says in got.reason


def test_garbled_card_is_an_unknown_card_and_the_audit_says_so() -> None:
    text = hand([BRING]).replace("[Kd 9c Qh]", "[Kd Xq Qh]")
    h = one(text)
    deal = next(d for d in h.events if isinstance(d, Deal))
    assert deal.cards == (parse_card("Kd"), None, parse_card("Qh"))
    garbled = [v for v in replay(h).errors if v.code is Code.GARBLED_CARD]
    assert len(garbled) == 1 and "'Xq'" in garbled[0].message
    # histkit's own token for a card the record does not hold is no fault
    h = one(hand([BRING]).replace("[Kd 9c Qh]", "[X X Qh]"))
    assert next(d for d in h.events if isinstance(d, Deal)).cards == (None, None, parse_card("Qh"))
    assert not notes(h, NoteKind.GARBLED)


def test_dialect_is_registered_and_detects_its_headers() -> None:
    d = get_dialect("bovada")
    assert type(d) is Bovada and d.profile is BOVADA and d.site == "bovada"
    assert d.uses_fast_path
    for brand in ("Bovada", "Bodog", "Bodog.eu", "Ignition"):
        assert d.detect(HEAD.replace("Bovada", brand))
    assert not d.detect("PokerStars Hand #1: 7 Card Stud")
    assert BOVADA.suit_order[0].char == "c" and BOVADA.rake_max_percent == 5


# A short all-in completion before the full one: the stakes from the full wager
# (simulated hands: the simulator's players found these spots, the old sizing misread them)
SHORT_THEN_FULL = (
    (
        "Bovada Hand #201808344882: RAZZ Tournament #3041207244 TBL#2"
        "0, Fixed Limit- Level 6 (0/0) - 2024-07-27 19:07:04\n"
    )
    + """\
Seat+1: 2,633 in chips
Seat+2: 6,656 in chips
Seat+3: 241 in chips
Seat+4: 2,572 in chips
Seat+5: 3,268 in chips
Seat+7 [ME]: 456 in chips
Seat+1 : Ante chip 60
Seat+2 : Ante chip 60
Seat+3 : Ante chip 60
Seat+4 : Ante chip 60
Seat+5 : Ante chip 60
Seat+7 [ME] : Ante chip 60
*** HOLE CARDS ***
Seat+1 : Card dealt to a spot [X X 8s]
Seat+2 : Card dealt to a spot [X X 8c]
Seat+3 : Card dealt to a spot [5c 4c 7h]
Seat+4 : Card dealt to a spot [3c 2d 6c]
Seat+5 : Card dealt to a spot [5h 7c 3d]
Seat+7 [ME] : Card dealt to a spot [4d Js Tc]
Seat+7 [ME] : Big blind/Bring in 90
Seat+1 : Folds
Seat+2 : Folds
Seat+3 : All-in(raise) 181
Seat+4 : Raises 300
Seat+5 : Raises 600
Seat+7 [ME] : Folds
Seat+4 : Call 300
Seat+3 : Card dealt to a spot [8h]
Seat+4 : Card dealt to a spot [2s]
Seat+5 : Card dealt to a spot [6h]
Seat+4 : Bets 300
Seat+5 : Call 300
Seat+3 : Card dealt to a spot [2c]
Seat+4 : Card dealt to a spot [As]
Seat+5 : Card dealt to a spot [Ad]
Seat+6 : Table enter user
Seat+4 : Bets 600
Seat+5 : Raises 1200
Seat+4 : Call 600
Seat+3 : Card dealt to a spot [2h]
Seat+4 : Card dealt to a spot [9d]
Seat+5 : Card dealt to a spot [6s]
Seat+4 : Checks
Seat+5 : Bets 600
Seat+4 : All-in 412
Seat+5 : Return uncalled portion of bet 188
Seat+3 : Card dealt to a spot [5d]
Seat+4 : Card dealt to a spot [8d]
Seat+5 : Card dealt to a spot [Ah]
Seat+4 : Showdown [8d 6c 3c 2d As] (8,6,3,2,A)
Seat+5 : Showdown [7c 6h 5h 3d Ad] (7,6,5,3,A)
Seat+5 : Hand Result-Side Pot 4662
Seat+3 : Mucks [5c 4c 7h 8h 2c 2h 5d] (8,7,5,4,2)
Seat+5 : Hand Result 993
Seat+3 : Ranking 289
Seat+4 : Ranking 140
*** SUMMARY ***
Total Pot(5655)
Seat 1:  Folded on the 3rd STREET
Seat 2:  Folded on the 3rd STREET
Seat 3:   [Mucked] [5c 4c 7h 8h 2c 2h 5d ]
Seat 4:   lose with 8,6,3,2,A [3c 2d 6c 2s As 9d 8d-8d 6c 3c 2d As]
Seat 5:  5655  with 7,6,5,3,A [5h 7c 3d 6h Ad 6s Ah-7c 6h 5h 3d Ad]
Seat 7:  Folded on the 3rd STREET
"""
)
SHORT_COUNTED_THEN_RAISE = (
    (
        "Bovada Hand #201807019932: RAZZ Tournament #3278009742 TBL#3"
        "3, Fixed Limit- Level 4 (0/0) - 2024-07-27 17:47:14\n"
    )
    + """\
Seat+1: 1,399 in chips
Seat+2: 273 in chips
Seat+4: 119 in chips
Seat+5: 6,670 in chips
Seat+6: 865 in chips
Seat+7 [ME]: 299 in chips
Seat+1 : Ante chip 20
Seat+2 : Ante chip 20
Seat+4 : Ante chip 20
Seat+5 : Ante chip 20
Seat+6 : Ante chip 20
Seat+7 [ME] : Ante chip 20
*** HOLE CARDS ***
Seat+1 : Card dealt to a spot [X X 9s]
Seat+2 : Card dealt to a spot [X X Kc]
Seat+4 : Card dealt to a spot [4d Ad 6c]
Seat+5 : Card dealt to a spot [X X Td]
Seat+6 : Card dealt to a spot [5h 2h 7s]
Seat+7 [ME] : Card dealt to a spot [Tc Qs 8d]
Seat+2 : Big blind/Bring in 30
Seat+4 : All-in(raise) 99
Seat+5 : Folds
Seat+6 : Raises 199
Seat+7 [ME] : Folds
Seat+1 : Folds
Seat+2 : Folds
Seat+3 : Table enter user
Seat+6 : Return uncalled portion of bet 100
Seat+4 : Card dealt to a spot [3h]
Seat+6 : Card dealt to a spot [6s]
Seat+4 : Card dealt to a spot [Ah]
Seat+6 : Card dealt to a spot [Ts]
Seat+4 : Card dealt to a spot [3c]
Seat+6 : Card dealt to a spot [9d]
Seat+4 : Card dealt to a spot [Jh]
Seat+6 : Card dealt to a spot [4h]
Seat+4 : Showdown [Jh 6c 4d 3h Ad] (J,6,4,3,A)
Seat+6 : Showdown [7s 6s 5h 4h 2h] (7,6,5,4,2)
Seat+6 : Hand Result 348
Seat+4 : Ranking 223
*** SUMMARY ***
Total Pot(348)
Seat 1:  Folded on the 3rd STREET
Seat 2:  Folded on the 3rd STREET
Seat 4:   lose with J,6,4,3,A [4d Ad 6c 3h Ah 3c Jh-Jh 6c 4d 3h Ad]
Seat 5:  Folded on the 3rd STREET
Seat 6:  348  with 7,6,5,4,2 [5h 2h 7s 6s Ts 9d 4h-7s 6s 5h 4h 2h]
Seat 7:  Folded on the 3rd STREET
"""
)


@pytest.mark.parametrize(
    ("text", "small"),
    [(SHORT_THEN_FULL, 300), (SHORT_COUNTED_THEN_RAISE, 100)],
    ids=["completion-after-short-all-in", "raise-over-half-bet-all-in"],
)
def test_a_short_all_in_before_the_full_wager_does_not_size_the_bets(text: str, small: int) -> None:
    """All-in 181 over a 90 bring-in, then "Raises 300": the 300 completes the bet (the
    all-in was short of it and under half of it), so the small bet is 300, not 300 - 181.
    All-in 99 over a 30 bring-in, then "Raises 199": the 99 counted as a full completion
    (more than half of 100), so 199 raises it by a full 100."""
    (h,) = [x for x in parse_text(text, source="t.txt", site="bovada") if isinstance(x, Hand)]
    assert (h.small_bet, h.big_bet) == (small, 2 * small)
    assert replay(h).errors == ()


# ------------------------------------------------ forms known of the format (K)


@pytest.mark.parametrize(
    ("head", "want"),
    [
        # the hi/lo word of 2013-08 (FPDB)
        ("Bovada Hand #3000000001 TBL#9001 7CARD_HL Fixed Limit - 2014-04-06 19:50:19",
         ("3000000001", Game.STUD_HILO, None, None)),
        # a heads-up table (2012-10): "1 on 1" is two seats; the "C" stays in the id
        ("Bovada Hand #C3000000001 TBL#9001 7CARD 1 on 1 Fixed Limit - 2014-04-06 19:50:19",
         ("C3000000001", Game.STUD, 2, None)),
        ("Bovada Hand #C3000000001 TBL#9001 7CARD HiLo 1 on 1 Fixed Limit - 2014-04-06 19:50:19",
         ("C3000000001", Game.STUD_HILO, 2, None)),
        # a client version tag before the date (2016)
        ("Ignition Hand #3000000001 TBL#9001 7CARD Fixed Limit [MVS] - 2014-04-06 19:50:19",
         ("3000000001", Game.STUD, None, None)),
        # the older tournament header: "Normal" where the limit goes (2013-01), fixed limit
        ("Bovada Hand #3000000001: 7CARD Tournament #77 TBL#3, Normal- Level 2 (0/0) - "
         "2014-04-06 19:50:19", ("3000000001", Game.STUD, None, "77")),
    ],
)  # fmt: skip
def test_known_headers(head: str, want: tuple[object, ...]) -> None:
    text = hand([BRING], head=head)
    if "Tournament" in head:
        text = text.replace("$", "").replace("0.10", "10").replace("0.25", "25")
        text = text.replace("0.30", "30").replace("1.20", "120")
    h = one(text)
    assert (h.hand_id, h.game, h.max_seats, h.tournament_id) == want
    assert h.started_at == datetime(2014, 4, 6, 23, 50, 19, tzinfo=UTC)


def test_a_heads_up_word_is_no_game_of_its_own() -> None:
    """'1 on 1' is read only between the game and the limit: any other game is skipped."""
    got = issue("Bovada Hand #C3116418452 TBL#1 HOLDEM 1 on 1 No Limit - 2015-08-09 20:27:04\nx\n")
    assert (got.kind, got.hand_id, got.game) == ("skipped", "C3116418452", "HOLDEM No Limit")


@pytest.mark.parametrize(
    ("body", "want"),
    [
        # FPDB's bring-in pattern (2015-12): "Bring in" alone
        (["Seat+5 : Bring in $0.25"], (A.BRING_IN, "Seat+5", 25, None, False)),
        # lower-case verbs (FPDB's "(B|b)ets", "(R|r)aises", 2012-12)
        (["Seat+5 : bets $0.50 "], (A.BET, "Seat+5", 50, None, False)),
        ([BRING, "Seat+1 : raises $0.50 to $0.50"], (A.RAISE, "Seat+1", 25, 50, False)),
        ([BRING, "Seat+1 : raises $0.50"], (A.RAISE, "Seat+1", 25, 50, False)),
        # the all-in raise by the clock: the street total, as "All-in(raise) X"
        ([BRING, "Seat+5 : All-in(raise-timeout) $1.10"], (A.RAISE, "Seat+5", 85, 110, True)),
    ],
)  # fmt: skip
def test_known_actions(body: list[str], want: tuple[object, ...]) -> None:
    h = one(hand(body))
    a = h.actions()[-1]
    assert (a.kind, a.player, a.amount, a.to_amount, a.all_in) == want
    timed = [n.text for n in notes(h, NoteKind.TIMED_OUT)]
    assert timed == (["Seat+5 : All-in(raise-timeout) $1.10"] if "timeout" in body[-1] else [])


def test_known_show_bounty_and_dealer_lines() -> None:
    """'Shows [..]' is a show like 'Showdown [..]'; the dealer line and a knockout bounty
    are notes, the lines as written: neither puts a chip in nor takes one from the pot."""
    body = [
        "Dealer : Set dealer/Bring in spot [5]",
        *SHOWN,
        "Seat+1 : Shows [Kd Qh 9c] (High Card)",
        "Seat+1 : Hand result $0.30 ",
        "Seat+1 : BOUNTY PRIZE [$5]",
    ]
    h = one(hand(body, summary=["Total Pot($0.30)"]))
    shows = [e for e in h.events if isinstance(e, Show)]
    assert [(s.player, s.cards, s.description) for s in shows] == [
        ("Seat+1", parse_cards("Kd 9c Qh"), "High Card")
    ]
    assert [(n.player, n.text) for n in notes(h, NoteKind.OTHER)] == [
        (None, "Dealer : Set dealer/Bring in spot [5]"),
        ("Seat+1", "Seat+1 : BOUNTY PRIZE [$5]"),
    ]
    assert collections(h) == {"Seat+1": 30}
    assert h.summary is not None and (h.summary.total_pot, h.summary.rake) == (30, 0)


def test_a_low_half_written_low() -> None:
    """The summary's low half written 'LOW' (FPDB, 2014-09) as 'LO': its amount is won."""
    line = "Seat+3:  HI $0.20  with High Card [As 2s 3c-As 3c 2s] LOW $0.10 [As 2s 3c-As 2s 3c]"
    s = one(hand([BRING], summary=["Total Pot($0.30)", line])).summary
    assert s is not None
    (r,) = s.seats
    assert (r.seat, r.outcome, r.won, r.cards) == (
        3,
        SeatOutcome.SHOWED,
        30,
        parse_cards("As 2s 3c"),
    )


@pytest.mark.parametrize(
    "twice",
    ["Seat+1 : Calls $0.25 ", "Seat+1 : Folds", "Seat+1 : Raises $0.50 to $0.50"],
)
def test_a_line_written_twice_in_a_row_is_read_once_and_named(twice: str) -> None:
    """The client's duplicated line (K: FPDB 2014-08 drops it): the hand is read once
    without the repeat, which the audit names as the site's mistake; the rest is read and
    checked as without it."""
    once = hand([BRING, twice, "Seat+3 [ME] : Folds"])
    h = one(once.replace(twice, f"{twice}\n{twice}"))
    clean = one(once)

    def plays(x: Hand) -> list[tuple[object, ...]]:
        return [(a.street, a.player, a.kind, a.amount, a.to_amount) for a in x.actions()]

    assert plays(h) == plays(clean)
    (gap,) = h.gaps()
    assert (gap.line, gap.text) == (14, twice.rstrip())
    assert gap.reason == f"a line written twice in a row: {twice.rstrip()!r} (the site's mistake)"
    found = [(v.code, v.line) for v in replay(h).violations]
    before = [(v.code, v.line and v.line + 1) for v in replay(clean).violations]
    assert sorted(found) == sorted([(Code.LINE_NOT_UNDERSTOOD, 14), *before])
    assert rejected(once.replace(twice, f"{twice}\n{twice}")).line == 14  # --strict


def test_the_same_action_apart_is_no_repeat() -> None:
    """Two checks by one player on two streets (a street line between them) are two."""
    body = [*COMPLETE, "Seat+5 : Calls $0.25 ", "Seat+3 [ME] : Folds", *FOURTH, "Seat+5 : Checks",
            "Seat+1 : Checks", "*** 5TH STREET ***", "Seat+5 : Checks"]  # fmt: skip
    h = one(hand(body))
    assert h.gaps() == ()
    assert [a.street for a in h.actions() if a.player == "Seat+5" and a.kind is A.CHECK] == [
        S.FOURTH,
        S.FIFTH,
    ]
