"""The Full Tilt Poker dialect: every real stud hand parses, adds up and replays clean; every
line form maps to the right event; simulated hands survive the writer and the parser; bad
input is rejected at its line."""

from __future__ import annotations

import re
from collections import Counter
from datetime import UTC, datetime
from functools import partial
from pathlib import Path

import pytest

from histkit.accounting import collections, contributions
from histkit.cards import Card, parse_card, parse_cards
from histkit.dialects import get_dialect, site_profile
from histkit.dialects.fulltilt import FULLTILT, FullTilt
from histkit.dialects.fulltilt_writer import describe_words, write_hand
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
from histkit.reader import ParseIssue
from histkit.rules import Code, Severity, replay
from histkit.rules.profile import load_profile
from histkit.simulate import simulate
from tests.conftest import CORPUS
from tests.dialects import helpers
from tests.dialects.helpers import strict_rejection

FULL_TILT = CORPUS / "fulltilt"
needs_files = helpers.needs_folder(FULL_TILT)
DIALECT = get_dialect("fulltilt")


parse = partial(helpers.parse_as, site="fulltilt")
one_hand = partial(helpers.one_hand, site="fulltilt")


def file_lines(path: Path) -> list[str]:
    """A real file's lines as text (UTF-16 files end in half a character: dropped)."""
    data = path.read_bytes()
    text = data.decode("utf-16", "ignore") if data[:2] == b"\xff\xfe" else data.decode()
    return text.replace("\r\n", "\n").split("\n")


# ----------------------------------------------------------------------------- corpus


corpus_items = helpers.corpus_fixture(FULL_TILT, site="fulltilt")


def real_hands(items: list[Hand | ParseIssue]) -> list[Hand]:
    return [h for h in items if isinstance(h, Hand)]


@needs_files
def test_corpus_counts(corpus_items: list[Hand | ParseIssue]) -> None:
    """As ../shared/hands/README.md lists them: 4 + 12 stud (the file named StudHL holds
    "Limit Stud Hi" hands), 1 stud hi/lo, 3 razz; the 5-card stud MTT hand is skipped."""
    hands = real_hands(corpus_items)
    assert Counter(h.game for h in hands) == {Game.STUD: 16, Game.STUD_HILO: 1, Game.RAZZ: 3}
    issues = [i for i in corpus_items if isinstance(i, ParseIssue)]
    assert [(i.kind, i.game, i.hand_id) for i in issues] == [
        ("skipped", "Limit 5 Card Stud", "32412111030")
    ]
    assert all(h.site == "fulltilt" for h in hands)


@needs_files
def test_corpus_replays_clean(corpus_items: list[Hand | ParseIssue]) -> None:
    """No violation at all (errors, warnings or notes) under Full Tilt's profile, the
    descriptions checked in Full Tilt's words."""
    for h in real_hands(corpus_items):
        found = replay(h, FULLTILT).violations
        assert [v for v in found if v.severity is Severity.ERROR] == [], h.hand_id
        assert found == (), (h.hand_id, found)


@needs_files
def test_corpus_chips_add_up(corpus_items: list[Hand | ParseIssue]) -> None:
    for h in real_hands(corpus_items):
        assert h.summary is not None
        paid, got = contributions(h), collections(h)
        assert sum(got.values()) + h.summary.rake == h.summary.total_pot, h.hand_id
        assert sum(paid.values()) == h.summary.total_pot, h.hand_id  # the total is before rake
        for r in h.summary.seats:
            assert r.won == got.get(r.player, 0), (h.hand_id, r)


@needs_files
def test_corpus_writer_gives_back_the_files(corpus_items: list[Hand | ParseIssue]) -> None:
    """Each real stud hand written again is its file's lines, word for word (the blank
    lines between hands and the UTF-16 files' double spacing aside)."""
    for path in sorted(FULL_TILT.iterdir()):
        hands = [h for h in real_hands(corpus_items) if h.source.file == str(path)]
        if not hands:
            continue
        real = [line for line in file_lines(path) if line.strip()]
        assert "\n".join(write_hand(h) for h in hands).split("\n") == real, path.name


@needs_files
def test_corpus_double_spaced_utf16_keeps_file_lines(corpus_items: list[Hand | ParseIssue]) -> None:
    """The UTF-16 files have a blank line after every line: events point at real lines."""
    path = FULL_TILT / "Razz-USD-0.10-0.20-201012.CCT.and.ET.timeformat.txt"
    lines = file_lines(path)
    (h,) = [h for h in real_hands(corpus_items) if h.source.file == str(path)]
    assert h.source.line == 1
    for e in h.events:
        if isinstance(e, Action) and e.kind is ActionKind.BRING_IN:
            assert lines[e.line - 1] == "Player5 brings in for $0.03"
    assert h.summary is not None and lines[h.summary.line - 1] == "*** SUMMARY ***"


@needs_files
def test_corpus_hands_in_detail(corpus_items: list[Hand | ParseIssue]) -> None:
    by_id = {h.hand_id: h for h in real_hands(corpus_items)}
    h = by_id["21536466676"]  # Steal.from.Button.Failure
    assert (h.game, h.unit, h.currency, h.small_bet, h.big_bet, h.ante) == (
        Game.STUD, Unit.CENT, "USD", 300, 600, 50
    )  # fmt: skip
    assert h.table == "Hagan" and h.max_seats is None and h.hero == "Hero"
    assert h.started_at == datetime(2010, 6, 11, 16, 18, 37, tzinfo=UTC)
    assert h.seats[0].player == "bllodshot" and h.seats[0].sitting_out
    assert h.seat_of("FILL A RACK").stack == 12850
    acts = [(a.player, a.kind, a.amount, a.to_amount) for a in h.actions()]
    assert ("arjun1111", ActionKind.COMPLETE, 200, 300) in acts
    assert ("thebear666", ActionKind.CALL, 200, None) in acts
    notes = [(e.kind, e.player) for e in h.events if isinstance(e, TableNote)]
    assert notes == [
        (NoteKind.LEAVE, "FILL A RACK"),
        (NoteKind.OTHER, "chasrigg"),
        (NoteKind.OTHER, "shasatipu"),  # "adds $316": not seated, yet a note
    ]
    assert [e for e in h.events if isinstance(e, UncalledBet)][0].amount == 300
    assert [(c.player, c.amount, c.pot) for c in h.events if isinstance(c, Collect)] == [
        ("arjun1111", 950, PotKind.POT)
    ]

    h = by_id["26190453000"]  # CCT with ET in brackets: the ET time is the reference
    assert h.local_time == "17:10:10 CCT - 2010/12/07 [04:10:10 ET - 2010/12/07]"
    assert h.started_at == datetime(2010, 12, 7, 9, 10, 10, tzinfo=UTC)
    assert h.summary is not None and (h.summary.total_pot, h.summary.rake) == (117, 5)

    h = by_id["28333847000"]  # heads-up sit & go, razz, all-in on the bring-in
    assert (h.tournament_id, h.buy_in, h.table) == (
        "220338000",
        "$2 + $0.10 Heads Up Sit & Go",
        "1",
    )
    assert (h.unit, h.currency, h.ante, h.small_bet) == (Unit.CHIP, None, 15, 80)
    bring_in = h.actions()[2]
    assert (bring_in.kind, bring_in.amount, bring_in.all_in) == (ActionKind.BRING_IN, 9, True)
    early = [e for e in h.events if isinstance(e, Show)][:2]
    assert [len(e.cards) for e in early] == [3, 3]  # the all-in exposure on 3rd street

    h = by_id["11111112961"]  # Full Tilt sorts the down cards it shows: dealt order is kept
    hero_show = next(e for e in h.events if isinstance(e, Show) and e.player == "Hero")
    assert hero_show.cards[:2] == parse_cards("9h 9s")
    assert hero_show.description == "two pair, Nines and Fives"
    raises = [a for a in h.actions() if a.kind is ActionKind.RAISE]
    assert [(a.amount, a.to_amount) for a in raises] == [(400, 800)]  # over Hero's $4 bet

    h = by_id["11111111633"]  # a seat that sat out after the antes
    assert h.summary is not None
    outcomes = {r.player: r.outcome for r in h.summary.seats}
    assert outcomes["Player2"] is SeatOutcome.OTHER
    mucked = next(r for r in h.summary.seats if r.player == "Hero4")
    assert mucked.description == "a flush, Ten high" and len(mucked.cards) == 7


def test_profile_is_the_sites() -> None:
    assert FullTilt.profile is FULLTILT and site_profile("fulltilt") is FULLTILT
    assert load_profile("fulltilt") is FULLTILT
    assert FULLTILT.rake_max_percent == 5 and FULLTILT.cap(heads_up=False) == 4


# ------------------------------------------------------------------- line by line


def hand_text(
    *,
    header: str = "Full Tilt Poker Game #1000: Table Mart - $1/$2 Ante $0.20 - Limit Stud Hi - "
    "12:00:00 ET - 2010/06/11",
    seats: tuple[str, ...] = ("Seat 1: Ann ($20)", "Seat 3: Hero ($30)", "Seat 5: Bob ($10)"),
    pre: tuple[str, ...] = (),
    third: tuple[str, ...] = (),
    later: tuple[str, ...] = (),
    summary: tuple[str, ...] | None = None,
) -> str:
    """A hand whose default play adds up: Ann brings in, Hero completes, both fold to him.
    The parts replace the defaults so one test changes one thing."""
    lines = [
        header,
        *seats,
        "Ann antes $0.20",
        "Hero antes $0.20",
        "Bob antes $0.20",
        *pre,
        "*** 3RD STREET ***",
        "Dealt to Ann [2c]",
        "Dealt to Hero [As Kd] [Qh]",
        "Dealt to Bob [9d]",
        "Ann is low with [2c]",
        *(
            third
            or (
                "Ann brings in for $0.50",
                "Hero completes it to $1",
                "Bob folds",
                "Ann folds",
                "Uncalled bet of $0.50 returned to Hero",
                "Hero mucks",
                "Hero wins the pot ($1.60)",
            )
        ),
        *later,
        "*** SUMMARY ***",
        *(
            summary
            or (
                "Total pot $1.60 | Rake $0",
                "Seat 1: Ann folded on 3rd St.",
                "Seat 3: Hero collected ($1.60), mucked",
                "Seat 5: Bob folded on 3rd St.",
            )
        ),
    ]
    return "\n".join(lines) + "\n"


def test_default_hand() -> None:
    h = one_hand(hand_text())
    assert (h.hand_id, h.game, h.ante, h.hero, h.small_bet) == ("1000", Game.STUD, 20, "Hero", 100)
    deals = [e for e in h.events if isinstance(e, Deal)]
    assert deals[1].cards == (*parse_cards("As Kd Qh"),) and deals[1].up == (False, False, True)
    assert deals[0].cards == (None, None, parse_card("2c"))
    assert replay(h, FULLTILT).violations == ()


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        (
            "Full Tilt Poker Game #5: Table Mart (6 max) - $0.10/$0.20 Ante $0.02 - Limit Razz - "
            "17:10:10 CCT - 2010/12/07 [04:10:10 ET - 2010/12/07]",
            {"game": Game.RAZZ, "max_seats": 6, "table": "Mart", "small_bet": 10, "ante": 2},
        ),
        (
            "Full Tilt Poker Game #5: Table Mart - $2/$4 Ante $0.40 - HORSE - Limit Stud H/L - "
            "01:12:00 ET - 2011/03/28",
            {"game": Game.STUD_HILO, "mix": "HORSE", "currency": "USD"},
        ),
        (
            "Full Tilt Poker Game #5: Table Mart - $2/$4 Ante $0.40 - Stud Hi/Lo - "
            "21:05 ET - Thursday, October 4, 2007",
            {
                "game": Game.STUD_HILO,
                "started_at": datetime(2007, 10, 5, 1, 5, tzinfo=UTC),
                "local_time": "21:05 ET - Thursday, October 4, 2007",
            },
        ),
        (
            "Full Tilt Poker Game #5: Big Game of the Week (251332389), Table 12 - "
            "1,000/2,000 Ante 150 - Limit Stud Hi - 18:30:57 ET - 2013/03/31",
            {"unit": Unit.CHIP, "tournament_id": "251332389", "big_bet": 2000, "table": "12"},
        ),
        (
            "FullTiltPoker Game #5: Table Mart - $2/$4 Ante $0.40 - Limit Stud Hi - "
            "01:12:00 ET - 2011/03/28 (partial)",
            {"game": Game.STUD, "started_at": datetime(2011, 3, 28, 5, 12, tzinfo=UTC)},
        ),
        (  # K: the French site's name (FPDB 2010-08)
            "Full Tilt Poker.fr Game #23057874100: Table Douai (6 max) - $1/$2 Ante $0.20 - "
            "Limit Stud Hi - 21:59:17 CET - 2010/08/13",
            {"hand_id": "23057874100", "table": "Douai", "max_seats": 6, "small_bet": 100},
        ),
        (  # K: the game before the stakes (FPDB 2013-05, STAKES2); the ET time the truth
            "Full Tilt Poker Game #5: Table Hagan - Limit Stud H/L - $1/$2 Ante $0.20 - "
            "19:26:50 CET - 2013/09/22 [13:26:50 ET - 2013/09/22]",
            {
                "game": Game.STUD_HILO,
                "table": "Hagan",
                "big_bet": 200,
                "ante": 20,
                "started_at": datetime(2013, 9, 22, 17, 26, 50, tzinfo=UTC),
            },
        ),
        (  # K: the limit written "FL" (FPDB 2013)
            "Full Tilt Poker Game #5: Table Hagan - FL Stud Hi - $1/$2 Ante $0.20 - "
            "19:27:31 CET - 2013/09/22 [13:27:31 ET - 2013/09/22]",
            {"game": Game.STUD, "table": "Hagan", "mix": None},
        ),
        (  # K: play money, "Play Chip" not the table's name (FPDB's PLAY)
            "Full Tilt Poker Game #5: Table Play Chip Hagan - 100/200 Ante 20 - Limit Stud Hi - "
            "12:24:02 ET - 2010/06/11",
            {"table": "Hagan", "unit": Unit.CHIP, "currency": None, "small_bet": 100},
        ),
    ],
)
def test_header_forms(header: str, expected: dict[str, object]) -> None:
    text = hand_text(header=header)
    if "$" not in header:  # a tournament: the same hand in chips ($1.60 -> 160)
        text = re.sub(
            r"\$(\d+)(?:\.(\d\d))?", lambda m: str(int(m[1]) * 100 + int(m[2] or 0)), text
        )
    h = one_hand(text)
    for key, value in expected.items():
        assert getattr(h, key) == value, key


def test_k_and_m_amounts_are_exact() -> None:
    """K: "1.5K" and "1M" (FPDB 2012-03, tournaments): thousands and millions, exactly;
    an amount that is no whole number of chips is refused, never rounded."""
    header = (
        "Full Tilt Poker Game #5: Big Game of the Week (251332389), Table 12 - "
        "100/200 Ante 20 - Limit Stud Hi - 18:30:57 ET - 2013/03/31"
    )
    seats = ("Seat 1: Ann (1.5K)", "Seat 3: Hero (2.25K)", "Seat 5: Bob (1M)")
    text = re.sub(r"\$(\d+)(?:\.(\d\d))?", lambda m: str(int(m[1]) * 100 + int(m[2] or 0)),
                  hand_text(header=header, seats=seats))  # fmt: skip
    h = one_hand(text.replace("Hero completes it to 100", "Hero completes it to 0.1K"))
    assert [s.stack for s in h.seats] == [1_500, 2_250, 1_000_000]
    (done,) = [a for a in h.actions() if a.kind is ActionKind.COMPLETE]
    assert (done.amount, done.to_amount) == (50, 100)  # "0.1K" is the completion to 100
    assert replay(h, FULLTILT).violations == ()
    (issue,) = parse(text.replace("(1.5K)", "(1.2345K)"))
    assert isinstance(issue, ParseIssue) and issue.kind == "rejected"
    assert "1.2345K" in issue.reason and "whole number of chips" in issue.reason


@pytest.mark.parametrize(
    "game",
    ["Limit 5 Card Stud", "Pot Limit Omaha H/L", "Limit 2-7 Triple Draw"],
)
def test_other_games_are_skipped_from_the_header(game: str) -> None:
    header = f"Full Tilt Poker Game #9: Table X (6 max) - $1/$2 - {game} - 12:00:00 ET - 2010/01/01"
    (issue,) = parse(header + "\nthis body is never read\n")
    assert isinstance(issue, ParseIssue)
    assert (issue.kind, issue.game, issue.hand_id) == ("skipped", game, "9")


def actions_of(text: str) -> list[tuple[str, ActionKind, int, int | None, bool]]:
    return [(a.player, a.kind, a.amount, a.to_amount, a.all_in) for a in one_hand(text).actions()]


def test_wagers_and_all_ins() -> None:
    third = (
        "Ann brings in for $0.50",
        "Hero completes it to $1",
        "Bob raises to $2",
        "Ann calls $1.50",
        "Hero raises to $3",
        "Bob calls $1, and is all in",
        "Ann calls $1",
    )
    got = actions_of(
        hand_text(
            seats=("Seat 1: Ann ($20)", "Seat 3: Hero ($30)", "Seat 5: Bob ($2.20)"),
            third=third,
            later=(
                "*** 4TH STREET *** (Total Pot: $9.60, 3 Players, 1 All-In)",
                "Dealt to Ann [2c] [3c]",
                "Dealt to Hero [As Kd Qh] [Jc]",
                "Dealt to Bob [9d] [9c]",
                "Ann checks",
                "Hero bets $1",
                "Ann folds",
                "Uncalled bet of $1 returned to Hero",
                "*** SHOW DOWN ***",
                "Bob shows [7h 6h 9d 9c] a pair of Nines",
                "Hero shows [As Kd Qh Jc] Ace King high",
                "Bob wins the pot ($9.60) with a pair of Nines",
            ),
            summary=("Total pot $9.60 | Rake $0",),
        )
    )
    assert got[3:] == [
        ("Ann", ActionKind.BRING_IN, 50, None, False),
        ("Hero", ActionKind.COMPLETE, 50, 100, False),  # the increment over the bring-in
        ("Bob", ActionKind.RAISE, 100, 200, False),
        ("Ann", ActionKind.CALL, 150, None, False),
        ("Hero", ActionKind.RAISE, 100, 300, False),
        ("Bob", ActionKind.CALL, 100, None, True),
        ("Ann", ActionKind.CALL, 100, None, False),
        ("Ann", ActionKind.CHECK, 0, None, False),
        ("Hero", ActionKind.BET, 100, None, False),
        ("Ann", ActionKind.FOLD, 0, None, False),
    ]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("Ann antes $0.20, and is all in", ("Ann", ActionKind.ANTE, 20, None, True)),
        ("Ann brings in for $0.10, and is all in", ("Ann", ActionKind.BRING_IN, 10, None, True)),
        ("Hero completes it to $1, and is all in", ("Hero", ActionKind.COMPLETE, 100, 100, True)),
        ("Hero raises to $1.50, and is all in", ("Hero", ActionKind.RAISE, 150, 150, True)),
        ("Hero bets $1, and is all in", ("Hero", ActionKind.BET, 100, None, True)),
    ],
)
def test_action_lines(line: str, expected: tuple[object, ...]) -> None:
    """Each line as its own hand's only line of its kind (the hand need not add up: the
    parser reports, the engine judges)."""
    if line.startswith("Ann antes"):
        text = hand_text().replace("Ann antes $0.20", line)
    else:
        text = hand_text(third=(line,))
    assert expected in actions_of(text)


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("Hero wins the pot ($1.60)", ("Hero", 160, PotKind.POT, 0)),
        ("Hero ties for the pot ($0.80) with a pair of Aces", ("Hero", 80, PotKind.POT, 0)),
        ("Hero wins the main pot ($1.60) with a pair of Aces", ("Hero", 160, PotKind.MAIN, 0)),
        ("Hero wins the side pot ($1.60) with a pair of Aces", ("Hero", 160, PotKind.SIDE, 1)),
        ("Hero wins side pot #2 ($1.60) with a pair of Aces", ("Hero", 160, PotKind.SIDE, 2)),
        ("Hero wins the high pot ($0.80) with a pair of Aces", ("Hero", 80, PotKind.POT, 0)),
        ("Hero wins the low pot ($0.80) with 8,6,4,3,2", ("Hero", 80, PotKind.POT, 0)),
        ("Hero ties for the high main pot ($0.40) with a flush", ("Hero", 40, PotKind.MAIN, 0)),
    ],
)
def test_collect_lines(line: str, expected: tuple[object, ...]) -> None:
    text = hand_text().replace("Hero wins the pot ($1.60)", line)
    (c,) = [e for e in one_hand(text).events if isinstance(e, Collect)]
    assert (c.player, c.amount, c.pot, c.pot_index) == expected


@pytest.mark.parametrize(
    ("line", "kind", "player"),
    [
        ("Zed sits down", NoteKind.JOIN, "Zed"),
        ("Bob stands up", NoteKind.LEAVE, "Bob"),
        ("Zed adds $40", NoteKind.OTHER, "Zed"),
        ("Bob has 15 seconds left to act", NoteKind.OTHER, "Bob"),
        ("5 seconds left to act", NoteKind.OTHER, None),
        ("Bob has requested TIME", NoteKind.OTHER, "Bob"),
        ("Bob is feeling happy", NoteKind.OTHER, "Bob"),
        ("Bob has timed out", NoteKind.TIMED_OUT, "Bob"),
        ("Bob is sitting out", NoteKind.SIT_OUT, "Bob"),
        ("Bob sits out", NoteKind.SIT_OUT, "Bob"),  # K: FPDB's sit-out note
        ("Bob has returned", NoteKind.RETURN, "Bob"),
        ("Bob is disconnected", NoteKind.DISCONNECT, "Bob"),
        ("Bob has reconnected", NoteKind.CONNECT, "Bob"),
        ("Zed finished in 12th place", NoteKind.FINISHED, "Zed"),
        ("Bob: gl all :)", NoteKind.CHAT, "Bob"),
    ],
)
def test_note_lines(line: str, kind: NoteKind, player: str | None) -> None:
    for text in (hand_text(pre=(line,)), hand_text().replace("Bob folds", f"{line}\nBob folds")):
        (note,) = [e for e in one_hand(text).events if isinstance(e, TableNote)]
        assert (note.kind, note.player) == (kind, player)
        assert note.text == ("gl all :)" if kind is NoteKind.CHAT else line)


def test_is_low_with_is_no_event() -> None:
    text = hand_text()
    line = text.split("\n").index("Ann is low with [2c]") + 1
    assert not any(e.line == line for e in one_hand(text).events)


def showdown_hand(game: str = "Limit Stud Hi") -> str:
    """Hero and Bob see 7th street; Hero wins a side pot from Bob, the main pot with Ann's
    ante; a community card for a short deck."""
    return (
        hand_text(
            header=f"Full Tilt Poker Game #1000: Table Mart - $1/$2 Ante $0.20 - {game} - "
            "12:00:00 ET - 2010/06/11",
            seats=("Seat 1: Ann ($0.20)", "Seat 3: Hero ($30)", "Seat 5: Bob ($10)"),
            third=(
                "Ann is sitting out",
                "Bob brings in for $0.50",
                "Hero calls $0.50",
            ),
            later=(
                "*** 4TH STREET ***",
                "Dealt to Hero [As Kd Qh] [Jc]",
                "Dealt to Bob [9d] [9c]",
                "Bob checks",
                "Hero checks",
                "*** 5TH STREET ***",
                "Dealt to Hero [As Kd Qh Jc] [Tc]",
                "Dealt to Bob [9d 9c] [8c]",
                "Bob checks",
                "Hero checks",
                "*** 6TH STREET ***",
                "Dealt to Hero [As Kd Qh Jc Tc] [2d]",
                "Dealt to Bob [9d 9c 8c] [3d]",
                "Bob checks",
                "Hero checks",
                "*** 7TH STREET *** [4d]",
                "Bob checks",
                "Hero checks",
                "*** SHOW DOWN ***",
                "Hero shows [As Kd Qh Jc Tc 2d] a straight, Ace high",
                "Bob mucks",
                "Hero wins the side pot ($0.40) with a straight, Ace high",
                "Hero wins the main pot ($1.20) with a straight, Ace high",
            ),
            summary=(
                "Total pot $1.60 Main pot $1.20. Side pot $0.40. | Rake $0",
                "Board: [4d]",
                "Seat 1: Ann is sitting out",
                "Seat 3: Hero showed [As Kd Qh Jc Tc 2d] and won ($1.60) with a straight, Ace high",
                "Seat 5: Bob mucked [7h 6h 9d 9c 8c 3d] - a pair of Nines",
            ),
        )
        .replace("Dealt to Ann [2c]\n", "")
        .replace("Ann is low with [2c]\n", "Bob is low with [9d]\n")
    )


def test_showdown_summary_and_community_card() -> None:
    h = one_hand(showdown_hand())
    sevenths = [e for e in h.events if isinstance(e, StreetStart) and e.street is Street.SEVENTH]
    assert sevenths[0].community == parse_card("4d")
    s = h.summary
    assert s is not None
    assert (s.total_pot, s.rake, s.main_pot, s.side_pots, s.board) == (
        160, 0, 120, (40,), (parse_card("4d"),)
    )  # fmt: skip
    assert [(r.outcome, r.won, r.description) for r in s.seats] == [
        (SeatOutcome.OTHER, 0, None),
        (SeatOutcome.SHOWED, 160, "a straight, Ace high"),
        (SeatOutcome.MUCKED, 0, "a pair of Nines"),
    ]
    assert [m.declined for m in h.events if isinstance(m, Muck)] == [False]


@pytest.mark.parametrize(
    ("pots", "main", "sides"),
    [
        ("Main pot $1.20. Side pot #1 $0.30. Side pot #2 $0.10.", 120, (30, 10)),
        ("Main pot $1.20. Side pot 1 $0.30. Side pot 2 $0.10.", 120, (30, 10)),
    ],
)
def test_several_side_pots(pots: str, main: int, sides: tuple[int, ...]) -> None:
    text = showdown_hand().replace("Main pot $1.20. Side pot $0.40.", pots)
    s = one_hand(text).summary
    assert s is not None and (s.main_pot, s.side_pots) == (main, sides)


def test_mangled_summary_seat_line() -> None:
    """K: a summary seat line in the play's collect words (FPDB 2012-12, "for when the
    summary lines get mangled"): the seat collected what it says."""
    text = hand_text().replace(
        "Seat 3: Hero collected ($1.60), mucked", "Seat 3: Hero wins the pot ($1.60)"
    )
    h = one_hand(text)
    assert h.summary is not None
    assert [(r.player, r.outcome, r.won) for r in h.summary.seats][1] == (
        "Hero",
        SeatOutcome.COLLECTED,
        160,
    )
    assert replay(h, FULLTILT).violations == ()


def test_summary_seat_lines() -> None:
    text = hand_text(
        summary=(
            "Total pot $1.60 | Rake $0",
            "Seat 1: Ann folded on 3rd St. (didn't bet)",
            "Seat 3: Hero collected ($1.60)",
            "Seat 5: Bob folded on 7th St.",
        )
    )
    s = one_hand(text).summary
    assert s is not None
    assert [(r.outcome, r.folded_street, r.didnt_bet, r.won) for r in s.seats] == [
        (SeatOutcome.FOLDED, Street.THIRD, True, 0),
        (SeatOutcome.COLLECTED, None, False, 160),
        (SeatOutcome.FOLDED, Street.SEVENTH, False, 0),
    ]


def test_no_low_line() -> None:
    text = showdown_hand("Limit Stud H/L").replace(
        "Hero wins the side pot", "No low hand qualified\nHero wins the side pot"
    )
    h = one_hand(text)
    assert h.game is Game.STUD_HILO
    assert sum(isinstance(e, NoLowHand) for e in h.events) == 1


def test_describe_words() -> None:
    d = FullTilt.describe
    assert d(Game.STUD, parse_cards("9s 9h 5c 3s Kh 5d 8s")) == "two pair, Nines and Fives"
    assert d(Game.STUD, parse_cards("Ac Js 9h 4c 2d 8c 7d")) == "Ace Jack high"
    assert d(Game.RAZZ, parse_cards("5d 6s 2s Td Jh 2h Qc")) == "J,T,6,5,2"
    assert d(Game.STUD, parse_cards("As Kd Qh Jc Tc 2d 4d")) is None  # straights unsettled
    assert d(Game.STUD, parse_cards("2s 2h 5c 3s Kh 9d 8s")) is None  # "Twos" unsettled
    assert d(Game.STUD_HILO, parse_cards("9s 9h 5c 3s Kh 5d 8s")) is None
    assert describe_words(Game.STUD_HILO, parse_cards("As 2d 3h 4c 9s 9h Kd")) == "a pair of Nines"
    assert describe_words(Game.STUD_HILO, parse_cards("As 2d 3h 4c 8s 9h Kd")) == (
        "Ace King high, for high and 8,4,3,2,A, for low"
    )


# ----------------------------------------------------------------------- round trip


def _view(h: Hand) -> dict[str, object]:
    """What Full Tilt's text carries of a hand, with the lines dropped. Lossy on purpose
    where the site writes less than the model holds: the header's level and local time,
    "(didn't bet)", "Betting is capped" and the double-bet line (Full Tilt writes none),
    deals of cards nobody saw, whether a muck was a refusal to show, the order of a
    shown hand's down cards (Full Tilt sorts them), a note's wording (chat text kept), and
    descriptions (checked on their own)."""
    seats = [(s.seat, s.player, s.stack, s.sitting_out) for s in h.seats]
    events: list[tuple[object, ...]] = []
    street_in: dict[str, int] = {}
    current = wagers = 0
    street = Street.THIRD
    for e in h.events:
        if isinstance(e, BettingCapped | DoubleBetAllowed):
            continue
        if isinstance(e, StreetStart):
            street, street_in, current, wagers = e.street, {}, 0, 0
            events.append(("street", e.street, e.community))
        elif isinstance(e, Action):
            before = street_in.get(e.player, 0)
            kind = e.kind
            if kind in (ActionKind.BET, ActionKind.RAISE, ActionKind.COMPLETE):
                if e.to_amount is not None:
                    to = e.to_amount
                else:
                    to = (current if kind is ActionKind.RAISE else before) + e.amount
                kind = ActionKind.COMPLETE if street is Street.THIRD and not wagers else kind
                wagers += 1
                street_in[e.player] = to
                current = max(current, to)
                events.append(("wager", street, e.player, kind, to, e.all_in))
            else:
                if kind in (ActionKind.BRING_IN, ActionKind.CALL):
                    street_in[e.player] = before + e.amount
                    current = max(current, before + e.amount)
                events.append(("action", street, e.player, kind, e.amount, e.all_in))
        elif isinstance(e, Deal):
            if e.cards[-1] is not None:
                events.append(("deal", e.street, e.player, e.cards, e.up, e.before))
        elif isinstance(e, Show):
            events.append(("show", e.player, frozenset(e.cards[:2]), e.cards[2:]))
        elif isinstance(e, Muck):
            events.append(("muck", e.player))
        elif isinstance(e, Collect):
            events.append(("collect", e.player, e.amount, e.pot, e.pot_index))
        elif isinstance(e, UncalledBet):
            events.append(("uncalled", e.player, e.amount, e.street))
        elif isinstance(e, NoLowHand):
            events.append(("no low",))
        elif isinstance(e, TableNote):
            events.append(("note", e.kind, e.player, e.text if e.kind is NoteKind.CHAT else ""))
    s = h.summary
    assert s is not None
    results = [
        (r.seat, r.player, r.outcome, r.won, frozenset(r.cards[:2]), r.cards[2:], r.folded_street)
        for r in s.seats
    ]
    return {
        "head": (h.hand_id, h.game, h.small_bet, h.big_bet, h.unit, h.started_at, h.hero),
        "table": (h.table, h.max_seats if h.max_seats != 8 else None),
        "tournament": (h.tournament_id, h.buy_in if h.is_tournament else None, h.mix),
        "currency": h.currency if h.unit is Unit.CENT else None,
        "seats": seats,
        "events": events,
        "summary": (s.total_pot, s.rake, s.main_pot, s.side_pots, s.board, results),
    }


def _plays(h: Hand, cards: tuple[Card, ...]) -> tuple[Card, ...]:
    community = next(
        (e.community for e in h.events if isinstance(e, StreetStart) and e.community), None
    )
    return (*cards, community) if community is not None and len(cards) == 6 else cards


def same(orig: Hand, back: Hand) -> None:
    """The contract's round trip (tests/dialects/test_contract.py): `back`, read from the
    text written of `orig`, carries what the text carries, with the header's ante and Full
    Tilt's words for every shown hand, and replays with no violation at all."""
    assert _view(back) == _view(orig), orig.hand_id
    antes = [a.amount for a in orig.actions() if a.kind is ActionKind.ANTE]
    assert back.ante == max(antes)  # the header's "Ante X"
    for e in back.events:  # Full Tilt's words for every shown hand
        if isinstance(e, Show) and len(_plays(back, e.cards)) >= 5:
            assert e.description == describe_words(back.game, _plays(back, e.cards))
    assert replay(back, FULLTILT).violations == (), (orig.hand_id, replay(back).violations)


def simulated(game: str, players: int, seed: int, tournament: bool, n: int = 25) -> list[Hand]:
    return list(simulate(game, n, players=players, seed=seed, tournament=tournament))


def test_written_hand_reads_like_full_tilt() -> None:
    """The writer's choices on a simulated hi/lo hand: completion words, "is low with",
    high and low halves, "mucks"."""
    hands = simulated("stud_hilo", 6, 3, True, n=200)
    split = next(
        h for h in hands if sum(isinstance(e, Collect) for e in h.events) >= 2
        and not any(isinstance(e, NoLowHand) for e in h.events)
    )  # fmt: skip
    text = write_hand(split)
    assert " wins the high " in text or " ties for the high " in text
    assert " wins the low " in text or " ties for the low " in text
    assert text.startswith("Full Tilt Poker Game #")
    assert " is low with [" in text and "*** 3RD STREET ***" in text
    assert "posts the ante" not in text and "collected" not in text.split("*** SUMMARY")[0]


# ---------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("Hero completes it to $1", "Hero completes it to $1x"),
        ("Dealt to Bob [9d]", "Dealt to Bob [9d 8d 7d 6d]"),  # four cards on 3rd street
        ("Hero antes $0.20", "Hero antes 20"),  # chips in a cash hand
    ],
)
def test_garbled_line_is_rejected_at_its_line(old: str, new: str) -> None:
    text = hand_text()
    line = text.split("\n").index(old) + 1
    issue = strict_rejection("\n\n" + text.replace(old, new), "fulltilt")
    assert (issue.kind, issue.hand_id, issue.line) == ("rejected", "1000", line + 2)


def test_garbled_card_is_unknown_and_reported() -> None:
    """Text garbled where a card should be ("[Xx]", "[Zq]") parses: the card is unknown,
    a GARBLED note names it and the audit reports it; the hand's money still counts."""
    text = hand_text()
    for old, new in (("Dealt to Bob [9d]", "Dealt to Bob [Xx]"), ("[As Kd] [Qh]", "[Zq Kd] [Qh]")):
        h = one_hand(text.replace(old, new))
        line = text.split("\n").index(next(x for x in text.split("\n") if old in x)) + 1
        (deal,) = [e for e in h.events if isinstance(e, Deal) and e.line == line]
        assert None in deal.cards and len(deal.cards) == 3
        (note,) = [e for e in h.events if isinstance(e, TableNote)]
        assert (note.kind, note.line) == (NoteKind.GARBLED, line)
        assert [v.code for v in replay(h, FULLTILT).violations] == [Code.GARBLED_CARD]
    h = one_hand(text.replace("Hero mucks", "Hero shows [Xx Kd Qh]"))
    (show,) = [e for e in h.events if isinstance(e, Show)]
    assert show.cards == parse_cards("Kd Qh")  # the known ones
