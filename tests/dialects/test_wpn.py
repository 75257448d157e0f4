"""The Winning Poker Network dialects (the 2019+ client and the old 2016 client): every real
hand parses and replays clean, each line form maps to the right event, the writers give the
real files back line for line, simulated hands survive a round trip, bad input is rejected
with its file, line and hand id."""

from __future__ import annotations

import dataclasses
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import pytest

from histkit.accounting import collections, contributions
from histkit.cards import parse_card, parse_cards
from histkit.dialects import get_dialect
from histkit.dialects.wpn import WPN, WinningPoker
from histkit.dialects.wpn_2016 import WinningPoker2016
from histkit.dialects.wpn_writer import (
    describe_2016,
    write_hand,
    write_hand_2016,
    write_hands,
    write_hands_2016,
)
from histkit.model import (
    Action,
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
from histkit.reader import ParseIssue
from histkit.rules import replay
from histkit.rules.violations import Code
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

A = ActionKind
S = Street
WPN_DIR = CORPUS / "wpn"
FILE_2016 = WPN_DIR / "7-Stud-8max-USD-1.00-2.00-201608.HH00000000 G0.txt"
FILE_2019 = WPN_DIR / "7Stud-8max-USD-0.04-0.08-201907.CASHID-TN-Gorham GAMETYPE.txt"
needs_wpn = needs_folder(WPN_DIR)


one = one_hand
issue = one_issue
corpus = corpus_fixture(WPN_DIR)
by_id = hands_by_id


def real_lines(path: Path) -> list[str]:
    """A real file's lines, blanks dropped. The 2016 file is UTF-16 whose last byte is a
    stray half character (FPDB's copy): it is cut before decoding."""
    data = path.read_bytes()
    if data.startswith(b"\xff\xfe"):
        text = data[: len(data) // 2 * 2].decode("utf-16")
    else:
        text = data.decode("utf-8")
    return [line for line in text.splitlines() if line.strip()]


# ----------------------------------------------------------------------- real files


@needs_wpn
def test_corpus_counts_as_the_readme_lists(corpus: list[Hand | ParseIssue]) -> None:
    """README: the 2016 file holds 4 stud hands, the 2019 file 1; nothing else, nothing lost."""
    assert [i for i in corpus if isinstance(i, ParseIssue)] == []
    per_file = Counter((Path(h.source.file).name, h.game) for h in corpus if isinstance(h, Hand))
    assert per_file == {(FILE_2016.name, Game.STUD): 4, (FILE_2019.name, Game.STUD): 1}
    assert all(h.site == "wpn" for h in corpus if isinstance(h, Hand))


@needs_wpn
def test_corpus_replays_clean_and_adds_up(corpus: list[Hand | ParseIssue]) -> None:
    """No error- or warning-level violation under the site's profile; collected + rake + fee
    is the total put in; every seat's summary figure is what it collected."""
    for h in (h for h in corpus if isinstance(h, Hand)):
        rp = replay(h, WPN)
        assert rp.errors == (), (h.hand_id, rp.errors)
        assert replay(h).profile == "wpn"  # the site's own profile is the default
        assert h.summary is not None
        paid, got = contributions(h), collections(h)
        taken = h.summary.rake + h.summary.fee
        assert sum(paid.values()) == h.summary.total_pot
        assert sum(got.values()) + taken == h.summary.total_pot, h.hand_id
        for r in h.summary.seats:
            assert r.won == got.get(r.player, 0)


@needs_wpn
def test_corpus_2016_facts(corpus: list[Hand | ParseIssue]) -> None:
    hands = by_id(corpus)
    h = hands["693977839"]
    assert (h.game, h.small_bet, h.big_bet, h.unit, h.currency) == (
        Game.STUD,
        100,
        200,
        Unit.CENT,
        "USD",
    )
    assert (h.table, h.max_seats, h.hero, h.tournament_id) == (
        "(PRR) Leyak",
        None,
        "ChazDazzle",
        None,
    )
    # 11:17:44 written without a zone: read as US Eastern (EDT in August)
    assert h.started_at == datetime(2016, 8, 2, 15, 17, 44, tzinfo=UTC)
    assert h.local_time == "2016/8/2 11:17:44"
    assert [(s.seat, s.player, s.stack) for s in h.seats] == [
        (1, "ChazDazzle", 1055),
        (5, "Nee", 4945),
    ]
    assert acts(h)[:5] == [
        (S.THIRD, "ChazDazzle", A.ANTE, 15, None, False),
        (S.THIRD, "Nee", A.ANTE, 15, None, False),
        (S.THIRD, "Nee", A.BRING_IN, 40, None, False),
        # "raises (1)" over the 0.40 bring-in: a completion to 1, increment 0.60
        (S.THIRD, "ChazDazzle", A.RAISE, 60, 100, False),
        (S.THIRD, "Nee", A.CALL, 60, None, False),  # "calls (0.60)": what the call adds
    ]
    deals = [e for e in h.events if isinstance(e, Deal)]
    assert deals[0] == Deal(
        S.THIRD, "ChazDazzle", parse_cards("Js 5s Ac"), (False, False, True), (), deals[0].line
    )
    assert deals[1].cards == (None, None, parse_card("8d"))
    assert [(d.street, d.player, d.cards, d.up) for d in deals[2:4]] == [
        (S.FOURTH, "ChazDazzle", (parse_card("9h"),), (True,)),
        (S.FOURTH, "Nee", (parse_card("Qd"),), (True,)),
    ]
    assert h.summary is not None
    # "Pot: 8.15. Rake 0.11. JP fee 0.04": the pot after rake and fee
    assert (h.summary.total_pot, h.summary.rake, h.summary.fee) == (830, 11, 4)
    assert [e for e in h.events if isinstance(e, Collect)] == [
        Collect("Nee", 815, PotKind.TOTAL, 0, h.summary.seats[1].line)
    ]
    assert [(r.player, r.outcome, r.won, r.folded_street) for r in h.summary.seats] == [
        ("ChazDazzle", SeatOutcome.FOLDED, 0, S.SIXTH),  # WPN's "Fifth street"
        ("Nee", SeatOutcome.COLLECTED, 815, None),
    ]
    assert [(m.player, m.declined) for m in h.events if isinstance(m, Muck)] == [("Nee", True)]

    show = hands["693978063"]
    assert (S.FIFTH, "Nee", A.RAISE, 200, 400, False) in acts(show)
    seventh = [d for d in show.events if isinstance(d, Deal) and d.street is S.SEVENTH]
    assert [(d.player, d.cards, d.up) for d in seventh] == [
        ("ChazDazzle", (parse_card("7h"),), (False,)),
        ("Nee", (None,), (False,)),  # "Player Nee received a card."
    ]
    shows = [e for e in show.events if isinstance(e, Show)]
    assert [(s.player, s.cards, s.description) for s in shows] == [
        ("ChazDazzle", parse_cards("Qc Ts 7d 9c 6c Qd 7h"), "Two pairs. Qs and 7s")
    ]
    assert [(m.player, m.declined) for m in show.events if isinstance(m, Muck)] == [("Nee", False)]
    assert [r.outcome for r in show.summary.seats] == [SeatOutcome.SHOWED, SeatOutcome.MUCKED]  # type: ignore[union-attr]
    assert describe_2016(Game.STUD, shows[0].cards) == "Two pairs. Qs and 7s"


@needs_wpn
def test_corpus_2019_facts(corpus: list[Hand | ParseIssue]) -> None:
    h = by_id(corpus)["85198832"]
    assert (h.game, h.small_bet, h.big_bet, h.unit, h.currency) == (
        Game.STUD,
        4,
        8,
        Unit.CENT,
        "USD",
    )
    assert (h.table, h.max_seats, h.hero) == ("Gorham", 8, "Hero")
    assert h.started_at == datetime(2019, 7, 28, 16, 15, 58, tzinfo=UTC)
    third = [a for a in acts(h) if a[0] is S.THIRD and a[2] is not A.ANTE]
    assert third == [
        (S.THIRD, "Player1", A.BRING_IN, 2, None, False),
        (S.THIRD, "Player2", A.CALL, 2, None, False),
        (S.THIRD, "Player3", A.FOLD, 0, None, False),
        # "raises $0.04 to $0.04" over the $0.02 bring-in: the increment is $0.02
        (S.THIRD, "Hero", A.RAISE, 2, 4, False),
        (S.THIRD, "Player0", A.CALL, 4, None, False),
        (S.THIRD, "Player1", A.CALL, 2, None, False),
        (S.THIRD, "Player2", A.CALL, 2, None, False),
    ]
    assert h.summary is not None
    # "Total pot $0.36 | Rake $0.01": 0.37 was put in, the winner "won $0.36"
    assert (h.summary.total_pot, h.summary.rake, h.summary.fee) == (37, 1, 0)
    assert [(c.player, c.amount, c.pot) for c in h.events if isinstance(c, Collect)] == [
        ("Player2", 36, PotKind.POT)
    ]
    assert [(r.seat, r.outcome, r.won, r.folded_street, r.didnt_bet) for r in h.summary.seats] == [
        (1, SeatOutcome.FOLDED, 0, S.SEVENTH, False),
        (4, SeatOutcome.FOLDED, 0, S.SIXTH, False),
        (5, SeatOutcome.FOLDED, 0, S.SIXTH, False),
        (7, SeatOutcome.COLLECTED, 36, None, False),
        (8, SeatOutcome.FOLDED, 0, S.THIRD, True),
    ]
    assert [(m.player, m.declined) for m in h.events if isinstance(m, Muck)] == [("Player2", True)]


@needs_wpn
def test_writers_give_the_real_files_back(corpus: list[Hand | ParseIssue]) -> None:
    """Every line of both real files, in order, from the parsed hands; the only line the
    2016 writer leaves out is "Game ended at:" (the model keeps no end time)."""
    hands = [h for h in corpus if isinstance(h, Hand)]
    old = [h for h in hands if Path(h.source.file) == FILE_2016]
    new = [h for h in hands if Path(h.source.file) == FILE_2019]
    want = [ln for ln in real_lines(FILE_2016) if not ln.startswith("Game ended at: ")]
    assert write_hands_2016(old).splitlines() == _with_blanks(want, "Game started")
    assert write_hands(new).splitlines() == [*real_lines(FILE_2019), "", ""]


def _with_blanks(lines: list[str], start: str) -> list[str]:
    """`lines` with one blank line after each hand (before each next start and at the end)."""
    out: list[str] = []
    for ln in lines:
        if ln.startswith(start) and out:
            out.append("")
        out.append(ln)
    return [*out, ""]


# ------------------------------------------------------------- 2019+ line by line

BRING = "Bob B. brings in $0.05"
CENT = Unit.CENT
HEAD_2019 = "Hand #1000 - {game} - {stakes} - 2024/03/01 17:00:00 UTC"


def hand_2019(body: list[str], *, game: str = "7Stud(Fixed Limit)", stakes: str = "$0.10/$0.20",
              head: str = HEAD_2019, summary: list[str] | None = None) -> str:  # fmt: skip
    """A 3-player hand around `body` (the 3rd street's plays onward)."""
    lines = [
        head.format(game=game, stakes=stakes),
        "Synthetic 8-max",
        "Seat 1: Alice ($5.00)",
        "Seat 3: Hero Two ($4.00)",
        "Seat 5: Bob B. ($0.30)",
        "Alice posts ante $0.02",
        "Hero Two posts ante $0.02",
        "Bob B. posts ante $0.02",
        "*** 3rd STREET ***",
        "Main pot $0.06 | Rake $0.00",
        "Dealt to Alice [Kd]",
        "Dealt to Hero Two [As 2s 3c]",
        "Dealt to Bob B. [Qh]",
        *body,
        "*** SUMMARY ***",
        *(summary or ["Total pot $0.06 | Rake $0.00"]),
    ]
    return "\n".join(lines) + "\n"


def last_events(text: str, n: int, site: str = "wpn") -> list[Event]:
    h = one(text, site)
    return list(h.events[-n:])


@pytest.mark.parametrize(
    ("body", "want"),
    [
        (["Bob B. brings in $0.05"], (A.BRING_IN, "Bob B.", 5, None, False)),
        (["Bob B. brings in $0.05 and is all-in"], (A.BRING_IN, "Bob B.", 5, None, True)),
        ([BRING, "Alice raises $0.10 to $0.10"], (A.RAISE, "Alice", 5, 10, False)),
        # a re-raise by a player with chips in: X is what it adds, the increment is Y - 10
        ([BRING, "Alice raises $0.10 to $0.10", "Bob B. raises $0.15 to $0.20"],
         (A.RAISE, "Bob B.", 10, 20, False)),
        ([BRING, "Alice raises $0.10 to $0.10", "Bob B. raises $0.23 to $0.28 and is all-in"],
         (A.RAISE, "Bob B.", 18, 28, True)),
        # a "raise" with nothing in front is the completion by the bring-in player: a bet
        (["Bob B. raises $0.10 to $0.10"], (A.BET, "Bob B.", 10, None, False)),
        (["Bob B. bets $0.10"], (A.BET, "Bob B.", 10, None, False)),
        (["Bob B. bets $0.10 and is all-in"], (A.BET, "Bob B.", 10, None, True)),
        ([BRING, "Alice calls $0.05"], (A.CALL, "Alice", 5, None, False)),
        ([BRING, "Alice calls $0.05 and is all-in"], (A.CALL, "Alice", 5, None, True)),
        ([BRING, "Alice checks"], (A.CHECK, "Alice", 0, None, False)),
        ([BRING, "Alice folds"], (A.FOLD, "Alice", 0, None, False)),
    ],
)  # fmt: skip
def test_2019_actions(body: list[str], want: tuple[object, ...]) -> None:
    (a,) = last_events(hand_2019(body), 1)
    assert isinstance(a, Action)
    assert (a.kind, a.player, a.amount, a.to_amount, a.all_in) == want


def test_2019_ante_all_in_and_seat_forms() -> None:
    text = hand_2019([]).replace("Bob B. posts ante $0.02", "Bob B. posts ante $0.02 and is all-in")
    text = text.replace("Seat 5: Bob B. ($0.30)", "Seat 5: Bob B. ($0.02)")
    text = text.replace("Seat 3: Hero Two ($4.00)", "Seat 3: Hero Two ($4.00) is sitting out")
    h = one(text, "wpn")
    assert [(s.player, s.stack, s.sitting_out) for s in h.seats][1:] == [
        ("Hero Two", 400, True),
        ("Bob B.", 2, False),
    ]
    assert acts(h)[2] == (S.THIRD, "Bob B.", A.ANTE, 2, None, True)


@pytest.mark.parametrize(
    ("line", "want"),
    [
        ("Alice shows [Kd 2h 5c Ks 9d 4s 6h] (One pair, Kings)",
         Show("Alice", parse_cards("Kd 2h 5c Ks 9d 4s 6h"), "One pair, Kings")),
        ("Alice shows [Kd 2h 5c Ks]", Show("Alice", parse_cards("Kd 2h 5c Ks"), None)),
        ("Alice mucks", Muck("Alice", False)),
        ("Alice mucks hand", Muck("Alice", False)),
        ("Alice does not show", Muck("Alice", True)),
        ("Uncalled bet ($0.10) returned to Alice", UncalledBet("Alice", 10, S.THIRD)),
        ("Alice collected $0.36 from main pot", Collect("Alice", 36, PotKind.MAIN, 0)),
        ("Alice collected $0.36 from pot", Collect("Alice", 36, PotKind.POT, 0)),
        ("Alice collected $0.36 from side pot 2", Collect("Alice", 36, PotKind.SIDE, 2)),
        ("Alice collected $0.36 from side pot", Collect("Alice", 36, PotKind.SIDE, 1)),
        ("Bob B. sits out", TableNote(NoteKind.SIT_OUT, "Bob B.", "Bob B. sits out")),
        ("Bob B. is sitting out", TableNote(NoteKind.SIT_OUT, "Bob B.", "Bob B. is sitting out")),
        ("Carol joins the table at seat #4",
         TableNote(NoteKind.JOIN, "Carol", "Carol joins the table at seat #4")),
        ("Bob B. leaves the table", TableNote(NoteKind.LEAVE, "Bob B.", "Bob B. leaves the table")),
    ],
)  # fmt: skip
def test_2019_showdown_and_note_lines(line: str, want: Event) -> None:
    (e,) = last_events(hand_2019([line]), 1)
    assert e == dataclasses.replace(want, line=e.line)


def test_2019_running_pot_lines_are_read_and_not_kept() -> None:
    body = [BRING, "*** 4th STREET ***",
            "Main pot $1.20 | Side pot 1 $0.40 | Rake $0.06 | JP Fee $0.02",
            "Dealt to Alice [Kd] [2c]", "*** SHOW DOWN ***",
            "Main pot $0.36 | Rake $0.01"]  # fmt: skip
    h = one(hand_2019(body), "wpn")
    assert [type(e).__name__ for e in h.events[-3:]] == ["Action", "StreetStart", "Deal"]
    assert h.events[-1] == Deal(
        S.FOURTH, "Alice", (parse_card("2c"),), (True,), (parse_card("Kd"),), h.events[-1].line
    )


@pytest.mark.parametrize(
    ("total", "want"),
    [
        ("Total pot $0.36 | Rake $0.01", (37, 1, 0, None, ())),
        ("Total pot $1.20 | Rake $0.06 | JP Fee $0.02", (128, 6, 2, None, ())),
        ("Total pot $1.20 Main pot $0.80. Side pot $0.40. | Rake $0.06",
         (126, 6, 0, 80, (40,))),
        ("Total pot $1.20 Main pot $0.60. Side pot-1 $0.40. Side pot-2 $0.20. | Rake $0"
         " | JP Fee $0",
         (120, 0, 0, 60, (40, 20))),
    ],
)  # fmt: skip
def test_2019_total_pot_is_after_rake_and_fee(total: str, want: tuple[object, ...]) -> None:
    s = one(hand_2019([], summary=[total]), "wpn").summary
    assert s is not None
    assert (s.total_pot, s.rake, s.fee, s.main_pot, s.side_pots) == want


def test_2019_summary_lines_and_collects_from_the_summary() -> None:
    """Without collect lines, each "won X" is the collect (the real file's uncontested pot);
    with them, the summary only reports."""
    results = [
        "Total pot $0.36 | Rake $0.01",
        "Seat 1: Alice showed [Kd 2h 5c Ks 9d 4s 6h] and won $0.20 with One pair, Kings",
        "Seat 3: Hero Two mucked [As 2s 3c 7d 8d Jh Qc]",
        "Seat 5: Bob B. won $0.16",
    ]
    h = one(hand_2019(["Bob B. brings in $0.05"], summary=results), "wpn")
    assert h.summary is not None
    assert [(r.outcome, r.won, r.cards, r.description) for r in h.summary.seats] == [
        (SeatOutcome.SHOWED, 20, parse_cards("Kd 2h 5c Ks 9d 4s 6h"), "One pair, Kings"),
        (SeatOutcome.MUCKED, 0, parse_cards("As 2s 3c 7d 8d Jh Qc"), None),
        (SeatOutcome.COLLECTED, 16, (), None),
    ]
    assert [(c.player, c.amount, c.pot) for c in h.events if isinstance(c, Collect)] == [
        ("Alice", 20, PotKind.POT),
        ("Bob B.", 16, PotKind.POT),
    ]
    body = ["Bob B. brings in $0.05", "Alice collected $0.20 from main pot",
            "Bob B. collected $0.16 from side pot 1"]  # fmt: skip
    h = one(hand_2019(body, summary=results), "wpn")
    assert [
        (c.player, c.amount, c.pot, c.pot_index) for c in h.events if isinstance(c, Collect)
    ] == [
        ("Alice", 20, PotKind.MAIN, 0),
        ("Bob B.", 16, PotKind.SIDE, 1),
    ]
    sat = hand_2019([], summary=["Total pot $0.06 | Rake $0", "Seat 3: Hero Two is sitting out"])
    assert one(sat, "wpn").summary.seats[0].outcome is SeatOutcome.OTHER  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("head", "game", "stakes", "want"),
    [
        (HEAD_2019, "7Stud(Fixed Limit)", "$0.10/$0.20", (Game.STUD, CENT, 10, 20, None, None)),
        (HEAD_2019, "7Stud HiLow(Fixed Limit)", "$1/$2",
         (Game.STUD_HILO, CENT, 100, 200, None, None)),
        (HEAD_2019, "7Stud H/L(Fixed Limit)", "$1.00/$2.00",
         (Game.STUD_HILO, CENT, 100, 200, None, None)),
        (HEAD_2019, "Razz(Fixed Limit)", "$0.10/$0.20", (Game.RAZZ, CENT, 10, 20, None, None)),
        ("Game Hand #1000 - Tournament #22016005 - {game} - Level 12 {stakes}- 2020/06/05 19:47:41"
         " UTC", "7Stud(Fixed Limit)", "(400.00/800.00)",
         (Game.STUD, Unit.CHIP, 400, 800, "22016005", "12")),
        ("Game Hand #1000 - Tournament #7 - {game} - Level 3 {stakes} - 2020/06/05 19:47:41 UTC",
         "Razz(Fixed Limit)", "(20/40)", (Game.RAZZ, Unit.CHIP, 20, 40, "7", "3")),
    ],
)  # fmt: skip
def test_2019_headers(head: str, game: str, stakes: str, want: tuple[object, ...]) -> None:
    text = hand_2019([], head=head, game=game, stakes=stakes)
    if want[1] is Unit.CHIP:
        text = text.replace("$", "").replace("0.02", "2").replace("5.00", "500")
        text = text.replace("4.00", "400").replace("0.30", "30").replace("0.06", "6")
    h = one(text, "wpn")
    assert (h.game, h.unit, h.small_bet, h.big_bet, h.tournament_id, h.level) == want
    assert h.currency == ("USD" if h.unit is Unit.CENT else None)


# ------------------------------------ 2019+ forms of the format page (docs/sites/wpn.md)


@pytest.mark.parametrize(
    ("body", "want"),
    [
        # K: FPDB's bring-in pattern, "brings[- ]in( low|)"
        (["Bob B. brings-in $0.05"], (A.BRING_IN, "Bob B.", 5, None, False)),
        (["Bob B. brings in low $0.05"], (A.BRING_IN, "Bob B.", 5, None, False)),
        # K: "caps" / "cap" (FPDB's action pattern): what the line adds, as "raises X"
        ([BRING, "Alice raises $0.10 to $0.10", "Hero Two caps $0.10"],
         (A.RAISE, "Hero Two", 0, 10, False)),
        ([BRING, "Alice raises $0.10 to $0.10", "Bob B. cap $0.15 and is all-in"],
         (A.RAISE, "Bob B.", 10, 20, True)),
    ],
)  # fmt: skip
def test_2019_page_action_forms(body: list[str], want: tuple[object, ...]) -> None:
    (a,) = last_events(hand_2019(body), 1)
    assert isinstance(a, Action)
    assert (a.kind, a.player, a.amount, a.to_amount, a.all_in) == want


def test_2019_page_muck_seat_and_summary_forms() -> None:
    # K: "mucks cards" beside "mucks hand" (FPDB's muck pattern)
    (e,) = last_events(hand_2019(["Alice mucks cards"]), 1)
    assert e == Muck("Alice", False, e.line)
    # K: one blank before a seat line (FPDB's seat pattern)
    text = hand_2019([]).replace("Seat 3: Hero Two ($4.00)", " Seat 3: Hero Two ($4.00)")
    assert one(text, "wpn").seat_of("Hero Two").stack == 400
    # K: a seat with no name (the site's mistake; FPDB names the player itself): kept as ""
    text = hand_2019([]).replace("Seat 5: Bob B. ($0.30)", "Seat 5:  ($0.30)")
    text = text.replace("Bob B. posts ante $0.02\n", "").replace("Dealt to Bob B. [Qh]\n", "")
    assert [(s.seat, s.player, s.stack) for s in one(text, "wpn").seats][-1] == (5, "", 30)
    # K: "showed [..] and collected X with .." beside "and won X"
    results = [
        "Total pot $0.36 | Rake $0.01",
        "Seat 1: Alice showed [Kd 2h 5c Ks 9d 4s 6h] and collected $0.36 with One pair, Kings",
    ]
    h = one(hand_2019([BRING], summary=results), "wpn")
    assert h.summary is not None
    assert [(r.outcome, r.won) for r in h.summary.seats] == [(SeatOutcome.SHOWED, 36)]
    assert [(c.player, c.amount) for c in h.events if isinstance(c, Collect)] == [("Alice", 36)]


def test_2019_page_header_forms() -> None:
    # K: a guaranteed tournament (FPDB's header pattern: "<amount> GTD Tournament #T")
    head = ("Game Hand #1000 - $2K GTD Tournament #22016011 - {game} - Level 1 {stakes}- "
            "2020/06/05 20:02:12 UTC")  # fmt: skip
    text = hand_2019([], head=head, stakes="(20.00/40.00)").replace("$", "")
    text = text.replace("0.02", "2").replace("5.00", "500").replace("4.00", "400")
    text = text.replace("0.30", "30").replace("0.06", "6")
    h = one(text, "wpn")
    assert (h.tournament_id, h.unit, h.small_bet) == ("22016011", Unit.CHIP, 20)
    # K: a blank before the limit's parenthesis
    h = one(hand_2019([], game="7Stud H/L (Fixed Limit)"), "wpn")
    assert h.game is Game.STUD_HILO
    # K: play money (FPDB: a cash hand with no currency): hundredths, a currency of its own
    text = hand_2019([BRING], stakes="0.10/0.20").replace("$", "")
    text = text.replace("Synthetic 8-max", "Synthetic 8-max (Play Money)")
    h = one(text, "wpn")
    assert (h.unit, h.currency, h.small_bet, h.seat_of("Alice").stack) == (CENT, "PLAY", 10, 500)
    assert acts(h)[-1] == (S.THIRD, "Bob B.", A.BRING_IN, 5, None, False)
    # dollars at a real-money table still need their sign
    got = strict_rejection(
        hand_2019([]).replace("Alice posts ante $0.02", "Alice posts ante 0.02"), "wpn"
    )
    assert "chip amount" in got.reason or "0.02" in got.reason, got.reason


@pytest.mark.parametrize(
    "game",
    ["Omaha HiLow(Pot Limit)", "7Stud(Pot Limit)", "Omaha5(Fixed Limit)"],
)
def test_2019_other_games_are_skipped_from_the_header(game: str) -> None:
    text = HEAD_2019.format(game=game, stakes="$0.01/$0.02") + "\nanything at all\n"
    got = issue(text, "wpn")
    assert (got.kind, got.hand_id, got.game, got.line) == ("skipped", "1000", game, 1)


# --------------------------------------------------------------- 2016 line by line

H2016_ALLIN_CALL = """\
Game started at: 2024/3/1 12:0:5
Game ID: 2000 1/2 Synth 2 (Seven Cards Stud)
Seat 1: Alice (20).
Seat 3: Hero (20).
Seat 5: Bob (1.50).
Player Alice ante (0.15)
Player Hero ante (0.15)
Player Bob ante (0.15)
Player Alice received a card.
Player Alice received a card.
Player Hero received card: [As]
Player Hero received card: [Ad]
Player Bob received a card.
Player Bob received a card.
Player Alice received card: [Kd]
Player Hero received card: [3c]
Player Bob received card: [2c]
Player Bob bring in (0.40)
Player Alice raises (1)
Player Hero raises (2)
Player Bob allin (0.95)
Player Alice raises (2)
Player Hero calls (1)
*** Third street ***
Player Alice received card: [Kh]
Player Hero received card: [4d]
Player Bob received card: [5h]
Player Alice bets (1)
Player Hero folds
Uncalled bet (1) returned to Alice
*** Fourth street ***
Player Alice received card: [9s]
Player Bob received card: [7h]
*** Fifth street ***
Player Alice received card: [8s]
Player Bob received card: [Jc]
*** Sixth street ***
Player Alice received a card.
Player Bob received a card.
------ Summary ------
Pot: 7.64. Rake 0.12. JP fee 0.04
*Player Alice shows: Two pairs. Ks and 9s [Qs 9d Kd Kh 9s 8s 2h]. Bets: 3.15. Collects: 7.64. \
Wins: 4.49.
Player Hero does not show cards.Bets: 3.15. Collects: 0. Loses: 3.15.
Player Bob shows: High card. J [10h 4c 2c 5h 7h Jc 6d]. Bets: 1.50. Collects: 0. Loses: 1.50.
Game ended at: 2024/3/1 12:1:5
"""


def test_2016_raises_add_chips_and_allin_is_derived() -> None:
    """ "raises (X)" adds X: Alice's re-raise after her completion to 1 goes to 3 (the
    summary's "Bets: 3.15" agrees); Bob's "allin (0.95)" tops nothing: an all-in call."""
    h = one(H2016_ALLIN_CALL, "wpn_2016")
    assert acts(h)[3:] == [
        (S.THIRD, "Bob", A.BRING_IN, 40, None, False),
        (S.THIRD, "Alice", A.RAISE, 60, 100, False),
        (S.THIRD, "Hero", A.RAISE, 100, 200, False),
        (S.THIRD, "Bob", A.CALL, 95, None, True),
        (S.THIRD, "Alice", A.RAISE, 100, 300, False),
        (S.THIRD, "Hero", A.CALL, 100, None, False),
        (S.FOURTH, "Alice", A.BET, 100, None, False),
        (S.FOURTH, "Hero", A.FOLD, 0, None, False),
    ]
    starts = [e.street for e in h.events if isinstance(e, StreetStart)]
    assert starts == [S.THIRD, S.FOURTH, S.FIFTH, S.SIXTH, S.SEVENTH]
    assert h.hero == "Hero"
    assert h.summary is not None
    assert (h.summary.total_pot, h.summary.rake, h.summary.fee) == (780, 12, 4)
    assert [(s.player, s.cards, s.description) for s in h.events if isinstance(s, Show)] == [
        ("Alice", parse_cards("Qs 9d Kd Kh 9s 8s 2h"), "Two pairs. Ks and 9s"),
        ("Bob", parse_cards("Th 4c 2c 5h 7h Jc 6d"), "High card. J"),
    ]
    assert [(r.outcome, r.won, r.folded_street) for r in h.summary.seats] == [
        (SeatOutcome.SHOWED, 764, None),
        (SeatOutcome.FOLDED, 0, S.FOURTH),
        (SeatOutcome.SHOWED, 0, None),
    ]


def test_2016_side_pots_are_paid_right_in_total() -> None:
    """The old client writes what each player collected over all pots, never per pot: with a
    side pot the engine cannot match pots (AWARD_MISMATCH, and warnings that the summary
    lists no side pots), but what each player got is what the engine says they should get."""
    h = one(H2016_ALLIN_CALL, "wpn_2016")
    rp = replay(h, WPN)
    assert len(rp.pots) == 2
    assert rp.codes() <= PER_POT_CODES
    assert_paid_right_in_total(h)


def assert_paid_right_in_total(h: Hand) -> None:
    rp = replay(h, WPN)
    expected: Counter[str] = Counter()
    for a in rp.awards:
        assert a.winners is not None, (h.hand_id, a)
        for p, amount in a.expected:
            expected[p] += amount
    assert +expected == +Counter(collections(h)), h.hand_id
    # what the engine says of each pot matched against one total: every way it words that
    other = {v.code for v in rp.errors} - PER_POT_CODES - {Code.NO_LOW_LINE}
    assert other == set(), (h.hand_id, rp.errors)


PER_POT_CODES = {Code.AWARD_MISMATCH, Code.ODD_CHIP, Code.LOW_NOT_QUALIFIED, Code.SUMMARY_MISMATCH}


def h2016_allin(variant: str) -> str:
    """Hero all-in on the ante; Bob all-in on 4th street with a bet or a raise."""
    bob = {"bet": "1.90", "raise": "2.40"}[variant]
    fourth = {
        "bet": ["Player Alice checks", "Player Bob allin (0.75)", "Player Alice calls (0.75)"],
        "raise": ["Player Alice bets (1)", "Player Bob allin (1.25)", "Player Alice calls (0.25)"],
    }[variant]
    put = {"bet": 190, "raise": 240}[variant]
    total = 2 * put + 15
    m = lambda c: f"{c // 100}" if c % 100 == 0 else f"{c // 100}.{c % 100:02d}"  # noqa: E731
    lines = [
        "Game started at: 2024/3/1 12:0:5",
        "Game ID: 2001 1/2 Synth 2 (Seven Cards Stud)",
        "Seat 1: Alice (10).",
        "Seat 3: Hero (0.15).",
        f"Seat 5: Bob ({bob}).",
        "Player Alice ante (0.15)",
        "Player Hero ante (0.15)",
        "Player Bob ante (0.15)",
        "Player Alice received a card.",
        "Player Alice received a card.",
        "Player Hero received card: [As]",
        "Player Hero received card: [Ad]",
        "Player Bob received a card.",
        "Player Bob received a card.",
        "Player Alice received card: [Kd]",
        "Player Hero received card: [2c]",
        "Player Bob received card: [3c]",
        "Player Bob bring in (0.40)",
        "Player Alice raises (1)",
        "Player Bob calls (0.60)",
        "*** Third street ***",
        "Player Alice received card: [9s]",
        "Player Hero received card: [5h]",
        "Player Bob received card: [4d]",
        *fourth,
        "*** Fourth street ***",
        "Player Alice received card: [8s]",
        "Player Hero received card: [7h]",
        "Player Bob received card: [10h]",
        "*** Fifth street ***",
        "Player Alice received card: [2h]",
        "Player Hero received card: [Jc]",
        "Player Bob received card: [4c]",
        "*** Sixth street ***",
        "Player Alice received a card.",
        "Player Hero received card: [6d]",
        "Player Bob received a card.",
        "------ Summary ------",
        f"Pot: {m(total)}. Rake 0",
        f"*Player Alice shows: Two pairs. Ks and 9s [Qs 9d Kd 9s 8s 2h Kh]. Bets: {m(put)}. "
        f"Collects: {m(total)}. Wins: {m(total - put)}.",
        "Player Hero shows: One pair. As [As Ad 2c 5h 7h Jc 6d]. Bets: 0.15. Collects: 0. "
        "Loses: 0.15.",
        f"Player Bob shows: Two pairs. 10s and 4s [10c Js 3c 4d 10h 4c 5d]. Bets: {m(put)}. "
        f"Collects: 0. Loses: {m(put)}.",
    ]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    ("variant", "want"),
    [
        ("bet", [(S.FOURTH, "Alice", A.CHECK, 0, None, False),
                 (S.FOURTH, "Bob", A.BET, 75, None, True),
                 (S.FOURTH, "Alice", A.CALL, 75, None, False)]),
        ("raise", [(S.FOURTH, "Alice", A.BET, 100, None, False),
                   (S.FOURTH, "Bob", A.RAISE, 25, 125, True),
                   (S.FOURTH, "Alice", A.CALL, 25, None, False)]),
    ],
)  # fmt: skip
def test_2016_allin_bet_or_raise_and_all_in_on_the_ante(variant: str, want: list[object]) -> None:
    h = one(h2016_allin(variant), "wpn_2016")
    assert acts(h)[1] == (S.THIRD, "Hero", A.ANTE, 15, None, True)  # ante == stack
    assert [a for a in acts(h) if a[0] is S.FOURTH] == want
    assert_paid_right_in_total(h)


def test_2016_hilo_is_stud_hilo() -> None:
    """(Other games skipped: tests/dialects/test_contract.py.)"""
    hilo = H2016_ALLIN_CALL.replace("(Seven Cards Stud)", "(Seven Cards Stud HiLow)")
    assert one(hilo, "wpn_2016").game is Game.STUD_HILO


def test_2016_page_forms() -> None:
    """The old client's forms of docs/sites/wpn_2016.md that no real file shows (K, FPDB's
    "version 1" patterns), each read."""
    base = h2016_allin("bet")
    # the table size after the game
    text = base.replace("(Seven Cards Stud)", "(Seven Cards Stud) 8-max")
    assert one(text, "wpn_2016").max_seats == 8
    # "posts ante" beside "ante"
    h = one(base.replace("Player Alice ante (0.15)", "Player Alice posts ante (0.15)"), "wpn_2016")
    assert acts(h)[0] == (S.THIRD, "Alice", A.ANTE, 15, None, False)
    # "allin" with no amount: the stack left (FPDB's reading)
    h = one(base.replace("Player Bob allin (0.75)", "Player Bob allin"), "wpn_2016")
    assert [a for a in acts(h) if a[1] == "Bob" and a[5]] == [
        (S.FOURTH, "Bob", A.BET, 75, None, True)
    ]
    # "caps" and "cap": a raise by what it adds
    text = h2016_allin("raise").replace("Player Bob allin (1.25)", "Player Bob caps (1.25)")
    assert acts(one(text, "wpn_2016"))[-2] == (S.FOURTH, "Bob", A.RAISE, 25, 125, True)
    # "mucks hand" and "mucks (does not show: [..])", whose cards the summary line keeps
    end = "Player Bob received a card.\n------"
    for muck in (
        "Player Bob mucks hand",
        "Player Bob mucks (does not show: [10c Js 3c 4d 10h 4c 5d])",
    ):
        text = base.replace(end, f"Player Bob received a card.\n{muck}\n------")
        text = text.replace(
            "Player Bob shows: Two pairs. 10s and 4s [10c Js 3c 4d 10h 4c 5d].",
            "Player Bob mucks (does not show cards).",
        )
        h = one(text, "wpn_2016")
        assert [(m.player, m.declined) for m in h.events if isinstance(m, Muck)] == [("Bob", False)]
        assert h.summary is not None
        bob = h.summary.seats[-1]
        shown = parse_cards("Tc Js 3c 4d Th 4c 5d") if "[" in muck else ()
        assert (bob.outcome, bob.cards) == (SeatOutcome.MUCKED, shown)
    # a hi/lo winner's low after the cards (FPDB's stud hi/lo example)
    text = base.replace("(Seven Cards Stud)", "(Seven Cards Stud HiLow)").replace(
        "[Qs 9d Kd 9s 8s 2h Kh]. Bets:", "[Qs 9d Kd 9s 8s 2h Kh] Low hand (A 2 4 6 7 ).Bets:"
    )
    h = one(text, "wpn_2016")
    assert [s.description for s in h.events if isinstance(s, Show)][0] == (
        "Two pairs. Ks and 9s Low hand (A 2 4 6 7)"
    )


def test_2016_summary_that_disagrees_with_the_actions_is_rejected() -> None:
    bad = H2016_ALLIN_CALL.replace(
        "Bets: 3.15. Collects: 0. Loses: 3.15.", "Bets: 2.15. Collects: 0. Loses: 2.15."
    )
    got = strict_rejection(bad, "wpn_2016")
    assert got.kind == "rejected" and got.hand_id == "2000"
    assert "Hero bet 2.15" in got.reason and "put in 3.15" in got.reason
    assert (
        got.line
        == bad.splitlines().index(
            "Player Hero does not show cards.Bets: 2.15. Collects: 0. Loses: 2.15."
        )
        + 1
    )


def test_2016_body_show_and_sitting_out_forms() -> None:
    text = H2016_ALLIN_CALL.replace("Seat 3: Hero (20).", "Seat 3: Hero (20). (sitting out)")
    text = text.replace(
        "Player Bob received a card.\n------",
        "Player Bob received a card.\nPlayer Bob shows: High card. J [10h 4c 2c 5h 7h Jc 6d].\n"
        "Player Carl sitting out\n------",
    )
    h = one(text, "wpn_2016")
    assert h.seats[1].sitting_out
    shows = [e for e in h.events if isinstance(e, Show)]
    assert [(s.player, s.description) for s in shows] == [
        ("Bob", "High card. J"),
        ("Alice", "Two pairs. Ks and 9s"),
        ("Bob", "High card. J"),
    ]
    (note,) = [n for n in h.events if isinstance(n, TableNote)]
    assert (note.kind, note.player, note.text) == (
        NoteKind.SIT_OUT,
        "Carl",
        "Player Carl sitting out",
    )


# --------------------------------------------------------------------- round trips


def project(h: Hand, era: str) -> dict[str, object]:
    """What the site's text carries, in a form two hands can be compared by."""
    ev = h.events
    out: dict[str, object] = {
        "head": (h.hand_id, h.game, h.small_bet, h.big_bet, h.unit, h.currency,
                 h.started_at, h.table, h.tournament_id, h.hero),
        "seats": [(s.seat, s.player, s.stack, s.sitting_out) for s in h.seats],
        "actions": acts(h),
        "streets": [(e.street, e.community) for e in ev if isinstance(e, StreetStart)],
        # cards nobody saw on 7th street: the old client writes a line for them, PokerStars
        # (and so a simulated hand) none
        "deals": [(d.street, d.player, d.cards, d.up, d.before if era == "2019" else ())
                  for d in ev if isinstance(d, Deal) and any(c is not None for c in d.cards)],
        "uncalled": [(u.player, u.amount, u.street) for u in ev if isinstance(u, UncalledBet)],
        "shows": sorted((s.player, s.cards) for s in ev if isinstance(s, Show)),
        "mucks": sorted((m.player, m.declined) for m in ev if isinstance(m, Muck)),
    }  # fmt: skip
    s = h.summary
    assert s is not None
    out["pot"] = (s.total_pot, s.rake, s.fee)
    if era == "2019":
        out["head"] += (h.max_seats, h.level)  # type: ignore[operator]
        out["collects"] = [
            (c.player, c.amount, c.pot, c.pot_index) for c in ev if isinstance(c, Collect)
        ]
        out["pots"] = (s.main_pot, s.side_pots)
        out["results"] = [
            (r.seat, r.player, r.outcome, r.won, r.cards, r.folded_street, r.didnt_bet)
            for r in s.seats
        ]
    else:  # per player over all pots; no cards for a muck, no "didn't bet"
        out["collects"] = collections(h)
        out["results"] = [(r.seat, r.player, r.outcome, r.won,
                           r.cards if r.outcome is SeatOutcome.SHOWED else (), r.folded_street)
                          for r in s.seats]  # fmt: skip
    return out


def same_2019(orig: Hand, back: Hand) -> None:
    """The contract's round trip (tests/dialects/test_contract.py): `back`, read from the
    text written of `orig`, replays clean and carries what the text carries."""
    assert replay(back, WPN).errors == (), orig.hand_id
    assert project(back, "2019") == project(orig, "2019"), orig.hand_id


def same_2016(orig: Hand, back: Hand) -> None:
    """The contract's round trip of the old client's text (cash only, and no hand whose
    7th card is a community card: no old-client form of either is known). Two things the
    old text cannot carry make the engine speak, and are checked instead: with side pots,
    what each player collected over all pots is what the engine says they should get; and
    the old client prints no "No low hand qualified" (NO_LOW_LINE warnings)."""
    rp = replay(back, WPN)
    if len(rp.pots) > 1:
        assert_paid_right_in_total(back)
    else:
        assert {v.code for v in rp.errors} <= {Code.NO_LOW_LINE}, (orig.hand_id, rp.errors)
    assert project(back, "2016") == project(orig, "2016"), orig.hand_id


def test_writer_choices() -> None:
    """Stated in the writer: no descriptions at the new client; the old one words hands in
    the pattern of its one real form; amounts as each client writes them."""
    h = next(simulate("stud", 1, players=3, seed=5, profile=WPN))
    new, old = write_hand(h).splitlines(), write_hand_2016(h).splitlines()
    assert new[0].startswith("Hand #") and new[0].endswith(" UTC") and "$0.04/$0.08" in new[0]
    assert old[1].startswith(f"Game ID: {h.hand_id} 0.04/0.08 ")
    assert "Pair on board" not in "\n".join(new + old)
    assert describe_2016(Game.STUD_HILO, parse_cards("As 2d 3h 4s 5c Kd Kh")) == (
        "Straight. 5 high; Low: 5 4 3 2 A"
    )
    assert describe_2016(Game.RAZZ, parse_cards("As 2d 3h 4s 6c Kd Kh")) == "Low: 6 4 3 2 A"
    assert describe_2016(Game.STUD, parse_cards("Ks Kd 7h 7s 7c 2d 3h")) == "Full house. 7s and Ks"


def test_tournament_hand_without_a_level() -> None:
    h = dataclasses.replace(
        next(simulate("razz", 1, players=3, seed=2, tournament=True, profile=WPN)), level=None
    )
    back = one(write_hand(h), "wpn")
    assert (back.tournament_id, back.level, back.unit) == (h.tournament_id, None, Unit.CHIP)
    assert project(back, "2019") == project(h, "2019")


# ------------------------------------------------------------------------ bad input


def test_garbled_card_tokens_are_unknown_cards() -> None:
    h = one(
        hand_2019(["Bob B. brings in $0.05"]).replace("Dealt to Alice [Kd]", "Dealt to Alice [Xx]"),
        "wpn",
    )
    assert [d.cards for d in h.events if isinstance(d, Deal)][0] == (None, None, None)
    h = one(
        H2016_ALLIN_CALL.replace(
            "Player Hero received card: [Ad]", "Player Hero received card: [Xx]"
        ),
        "wpn_2016",
    )
    hero = [d for d in h.events if isinstance(d, Deal) and d.player == "Hero"][0]
    assert hero.cards == (parse_card("As"), None, parse_card("3c"))
    # a garbled card in a show: the hand parses with that card unknown, and the audit
    # names the garbled text
    bad = H2016_ALLIN_CALL.replace("[10h 4c 2c 5h 7h Jc 6d]. Bets", "[10h 4c Xx 5h 7h Jc 6d]. Bets")
    h = one(bad, "wpn_2016")
    garbled = [v for v in replay(h).errors if v.code is Code.GARBLED_CARD]
    assert len(garbled) == 1 and "'Xx'" in garbled[0].message


def test_dialects_are_registered() -> None:
    assert type(get_dialect("wpn")) is WinningPoker
    assert type(get_dialect("wpn_2016")) is WinningPoker2016
    assert get_dialect("wpn").site == get_dialect("wpn_2016").site == "wpn"
    assert get_dialect("wpn").profile is WPN
    assert get_dialect("wpn").uses_fast_path and get_dialect("wpn_2016").uses_fast_path
    # both detect their own headers only
    assert get_dialect("wpn").detect(HEAD_2019.format(game="7Stud(Fixed Limit)", stakes="$1/$2"))
    assert not get_dialect("wpn").detect("Game started at: 2016/8/2 11:17:19")
    assert get_dialect("wpn_2016").detect("Game started at: 2016/8/2 11:17:19")


@needs_wpn
def test_double_spaced_2016_file_keeps_file_lines(corpus: list[Hand | ParseIssue]) -> None:
    """FPDB's copy has a blank line after every line: events point at the file's own lines."""
    data = FILE_2016.read_bytes()
    lines = data[: len(data) // 2 * 2].decode("utf-16").split("\n")
    for h in (h for h in corpus if isinstance(h, Hand) and Path(h.source.file) == FILE_2016):
        assert lines[h.source.line - 1].startswith("Game started at: ")
        for e in h.events:
            player = getattr(e, "player", None)
            if player is not None:
                assert player in lines[e.line - 1], (h.hand_id, e)
        assert h.summary is not None
        assert lines[h.summary.line - 1] == "------ Summary ------"
