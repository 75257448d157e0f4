"""The OnGame dialect: every real hand parses and replays clean, the writer gives the real
files back byte for byte, each line form maps to the right event, what the text leaves out
is derived as the dialect says (returned bets, mucks, all-ins, raise totals), simulated
hands survive a round trip, bad input is rejected with its file, line and hand id."""

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
from histkit.dialects.ongame import ONGAME, OnGame
from histkit.dialects.ongame_writer import hand_words, write_hand, write_hands
from histkit.model import (
    ActionKind,
    Collect,
    Deal,
    Game,
    Half,
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
    parse_as,
    parse_strictly,
    strict_rejection,
)

A = ActionKind
S = Street
ONGAME_DIR = CORPUS / "ongame"
STUD_FILE = ONGAME_DIR / "7-Stud-USD-0.10-0.20-201009.Sample.txt"
HILO_FILE = ONGAME_DIR / "7-StudHL-USD-0.25-0.50-201008.All.streets.txt"
needs_ongame = needs_folder(ONGAME_DIR)


items = partial(parse_as, site="ongame")
items_of = partial(parse_as, site="ongame", source="sim.txt")
one = partial(one_hand, site="ongame")
issue = partial(one_issue, site="ongame")
rejected = partial(strict_rejection, site="ongame")
corpus = corpus_fixture(ONGAME_DIR)
by_id = hands_by_id


def errors(h: Hand) -> set[Code]:
    return {v.code for v in replay(h).errors}


# ----------------------------------------------------------------------- real files


@needs_ongame
def test_corpus_counts_as_the_readme_lists(corpus: list[Hand | ParseIssue]) -> None:
    """README: stud 4 in the 2010-09 file, stud_hilo 1 in the 2010-08 file; nothing else."""
    assert [i for i in corpus if isinstance(i, ParseIssue)] == []
    per_file = Counter((Path(h.source.file).name, h.game) for h in corpus if isinstance(h, Hand))
    assert per_file == {(STUD_FILE.name, Game.STUD): 4, (HILO_FILE.name, Game.STUD_HILO): 1}
    assert {h.site for h in corpus if isinstance(h, Hand)} == {"ongame"}


@needs_ongame
def test_corpus_replays_clean_and_adds_up(corpus: list[Hand | ParseIssue]) -> None:
    """No error- or warning-level violation under the site's own profile (the default);
    collected + rake + fee == total pot == what was put in; each seat's figure is what it
    collected; the shown hands' words are checked ("TWO_PAIR JACK, NINE")."""
    for h in (h for h in corpus if isinstance(h, Hand)):
        rp = replay(h)
        assert rp.profile == "ongame"
        assert rp.errors == (), (h.hand_id, rp.errors)
        assert h.summary is not None
        paid, got = contributions(h), collections(h)
        assert sum(paid.values()) == h.summary.total_pot
        assert sum(got.values()) + h.summary.rake + h.summary.fee == h.summary.total_pot
        for r in h.summary.seats:
            assert r.won == got.get(r.player, 0)
            if r.outcome is SeatOutcome.SHOWED:
                assert OnGame.describe(h.game, r.cards) == r.description


@needs_ongame
def test_corpus_facts(corpus: list[Hand | ParseIssue]) -> None:
    hands = by_id(corpus)
    h = hands["R5-82086688-607"]
    assert (h.game, h.small_bet, h.big_bet, h.ante, h.bring_in, h.unit, h.currency) == (
        Game.STUD, 10, 20, 2, None, Unit.CENT, "USD",
    )  # fmt: skip
    assert (h.table, h.table_hand, h.max_seats, h.hero, h.tournament_id) == (
        "Milwaukee", 607, None, "Hero", None,
    )  # fmt: skip
    # "Mon Sep 13 22:31:30 GMT+0100 2010"
    assert h.started_at == datetime(2010, 9, 13, 21, 31, 30, tzinfo=UTC)
    assert h.local_time == "Mon Sep 13 22:31:30 GMT+0100 2010"
    assert [(s.seat, s.player, s.stack) for s in h.seats] == [
        (1, "the bAAr", 653), (2, "Hero", 200), (6, "kueto", 630), (8, "E6y Ko3y", 270),
        (10, "telozver123", 649),
    ]  # fmt: skip
    deals = [e for e in h.events if isinstance(e, Deal)]
    kh = (None, None, parse_card("Kh"))
    assert deals[0] == Deal(S.THIRD, "the bAAr", kh, (False, False, True), (), deals[0].line)
    assert deals[1].cards == parse_cards("Jh 9d Ac")
    river = [(d.player, d.cards, d.up) for d in deals if d.street is S.SEVENTH]
    assert river == [("Hero", (parse_card("9h"),), (False,))]
    assert acts(h)[5:7] == [
        (S.THIRD, "kueto", A.BRING_IN, 5, None, False),
        (S.THIRD, "E6y Ko3y", A.CALL, 5, None, False),
    ]
    assert h.summary is not None
    # "Main pot: $2.35 won by Hero ($2.24)" and "Rake taken: $0.11"
    assert (h.summary.total_pot, h.summary.rake, h.summary.main_pot) == (235, 11, None)
    assert [e for e in h.events if isinstance(e, Collect)] == [
        Collect("Hero", 224, PotKind.POT, 0, h.summary.line + 1)
    ]
    # the river caller shows nothing: a muck; the winner's seat line is the show
    assert [(m.player, m.declined) for m in h.events if isinstance(m, Muck)] == [
        ("the bAAr", False)
    ]
    (show,) = [e for e in h.events if isinstance(e, Show)]
    assert (show.player, show.cards) == ("Hero", parse_cards("Jh 9d Ac 7h Js 5c 9h"))
    assert [(r.player, r.outcome, r.won, r.folded_street) for r in h.summary.seats] == [
        ("the bAAr", SeatOutcome.MUCKED, 0, None),
        ("Hero", SeatOutcome.SHOWED, 224, None),
        ("kueto", SeatOutcome.FOLDED, 0, S.FOURTH),
        ("E6y Ko3y", SeatOutcome.FOLDED, 0, S.SEVENTH),
        ("telozver123", SeatOutcome.FOLDED, 0, S.FIFTH),
    ]
    # the completion over the bring-in is written "bets $0.10"
    assert (S.THIRD, "Hero", A.BET, 10, None, False) in acts(hands["R5-82086688-609"])
    # "Hero raises $1 to $1.37": $1.37 is the $0.12 bring-in + $0.25 + this street's $1
    hilo = hands["R5-78227816-62"]
    assert (hilo.game, hilo.ante, hilo.table, hilo.table_hand) == (Game.STUD_HILO, 5, "Taegu", 62)
    assert (S.FIFTH, "Hero", A.RAISE, 50, 100, False) in acts(hilo)
    assert hilo.started_at == datetime(2010, 8, 28, 17, 33, 38, tzinfo=UTC)  # GMT+0300


@needs_ongame
def test_writer_gives_the_real_files_back(corpus: list[Hand | ParseIssue]) -> None:
    """Byte for byte: no blank line between hands, every line in the client's form."""
    hands = [h for h in corpus if isinstance(h, Hand)]
    for path in (STUD_FILE, HILO_FILE):
        mine = [h for h in hands if Path(h.source.file) == path]
        assert write_hands(mine) == path.read_text(encoding="utf-8")


@needs_ongame
def test_audit_command_is_clean_on_the_real_files(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", str(ONGAME_DIR)]) == 0
    assert "OK: 5 hands audited under 'ongame', no violation." in capsys.readouterr().out


# --------------------------------------------------------------------- line by line

HEAD = "***** History for hand R5-1000-7 *****"
TABLE = "Table: Synth [1000] (LIMIT SEVEN_CARD_STUD $0.10/$0.20, ante: $0.02, Real money)"
BRING = "Bob B. small bring in $0.05"


def hand(
    body: list[str],
    pots: list[str],
    *,
    results: list[str] | None = None,
    head: str = HEAD,
    table: str = TABLE,
    bob: str = "$3",
    rake: str | None = "Rake taken: $0",
) -> str:
    """A 3-player hand: 3rd street dealt (Bob's 2h brings in), then `body` and the summary."""
    lines = [
        head,
        "Start hand: Fri Mar 01 17:00:00 GMT+0100 2024",
        table,
        "User: Hero Two",
        "Players in round: 3",
        "Seat 1: Alice ($5)",
        "Seat 3: Hero Two ($4)",
        f"Seat 5: Bob B. ({bob})",
        "Alice posts ante $0.02",
        "Hero Two posts ante $0.02",
        "Bob B. posts ante $0.02",
        "---",
        "Dealing pocket cards",
        "Dealing to Alice: [-, -, Kd]",
        "Dealing to Hero Two: [As, 2s, 3c]",
        "Dealing to Bob B.: [-, -, 2h]",
        *body,
        "---",
        "Summary:",
        *pots,
        *([rake] if rake else []),
        *(results or []),
        f"***** End of hand {head.split()[4]} *****",
    ]
    return "\n".join(lines) + "\n"


def pot(cents: int, who: str = "Alice") -> list[str]:
    m = f"${cents // 100}.{cents % 100:02d}"
    return [f"Main pot: {m} won by {who} ({m})"]


FOURTH = ["---", "Dealing 4th street", "Dealing to Alice: [Ks]", "Dealing to Hero Two: [4d]",
          "Dealing to Bob B.: [7c]"]  # fmt: skip


@pytest.mark.parametrize(
    ("body", "put", "want"),
    [
        ([BRING], 11, (S.THIRD, "Bob B.", A.BRING_IN, 5, None, False)),
        ([BRING + " and is all-in"], 11, (S.THIRD, "Bob B.", A.BRING_IN, 5, None, True)),
        ([BRING, "Alice calls $0.05"], 16, (S.THIRD, "Alice", A.CALL, 5, None, False)),
        ([BRING, "Alice checks"], 11, (S.THIRD, "Alice", A.CHECK, 0, None, False)),
        ([BRING, "Alice folds"], 11, (S.THIRD, "Alice", A.FOLD, 0, None, False)),
        # the completion over the bring-in (R): what it adds, which is the street total
        ([BRING, "Alice bets $0.10"], 21, (S.THIRD, "Alice", A.BET, 10, None, False)),
        ([BRING, "Alice bets $0.10", "Hero Two raises $0.20 to $0.20"], 41,
         (S.THIRD, "Hero Two", A.RAISE, 10, 20, False)),
        # a re-raise by the bring-in player: adds $0.25 to its $0.05, to $0.30 in the hand
        ([BRING, "Alice bets $0.10", "Hero Two raises $0.20 to $0.20",
          "Bob B. raises $0.25 to $0.30"], 66, (S.THIRD, "Bob B.", A.RAISE, 10, 30, False)),
        # ... or X read as the street total: both readings give the same raise
        ([BRING, "Alice bets $0.10", "Hero Two raises $0.20 to $0.20",
          "Bob B. raises $0.30 to $0.30"], 66, (S.THIRD, "Bob B.", A.RAISE, 10, 30, False)),
        # K: the bring-in player opens for the full small bet
        (["Bob B. big bring in $0.10"], 16, (S.THIRD, "Bob B.", A.COMPLETE, 10, 10, False)),
        # 4th street: "to Y" counts the earlier streets (R: "raises $1 to $1.37")
        ([BRING, "Alice calls $0.05", "Hero Two calls $0.05", *FOURTH, "Alice bets $0.10",
          "Hero Two raises $0.20 to $0.25"], 51, (S.FOURTH, "Hero Two", A.RAISE, 10, 20, False)),
        ([BRING, "Alice calls $0.05", "Hero Two calls $0.05", *FOURTH, "Alice bets $0.10",
          "Hero Two calls $0.10 and is all-in"], 41,
         (S.FOURTH, "Hero Two", A.CALL, 10, None, True)),
    ],
)  # fmt: skip
def test_actions(body: list[str], put: int, want: tuple[object, ...]) -> None:
    assert acts(one(hand(body, pot(put))))[-1] == want


def test_antes_and_all_in_read_from_the_stacks() -> None:
    """All-in without the words: the bring-in that takes Bob's last chips; an ante that
    does; the ante from the table line."""
    h = one(hand([BRING, "Alice calls $0.05", "Hero Two calls $0.05"], pot(21), bob="$0.07"))
    assert acts(h)[:3] == [
        (S.THIRD, "Alice", A.ANTE, 2, None, False),
        (S.THIRD, "Hero Two", A.ANTE, 2, None, False),
        (S.THIRD, "Bob B.", A.ANTE, 2, None, False),
    ]
    assert acts(h)[3] == (S.THIRD, "Bob B.", A.BRING_IN, 5, None, True)
    assert h.ante == 2 and h.bring_in is None
    h = one(hand(["Alice small bring in $0.05"], pot(11), bob="$0.02"))
    assert acts(h)[2] == (S.THIRD, "Bob B.", A.ANTE, 2, None, True)


def test_deal_forms() -> None:
    body = [BRING, "Alice calls $0.05", "Hero Two calls $0.05", *FOURTH,
            "---", "Dealing 5th street", "Dealing to Alice: [2c]", "Dealing to Hero Two: [5d]",
            "Dealing to Bob B.: [8c]", "---", "Dealing 6th street", "Dealing to Alice: [3d]",
            "Dealing to Hero Two: [6d]", "Dealing to Bob B.: [9c]", "---", "Dealing river",
            "Dealing to Hero Two: [9h]"]  # fmt: skip
    h = one(hand(body, pot(21, "Hero Two")))
    deals = [(d.street, d.player, d.cards, d.up) for d in h.events if isinstance(d, Deal)]
    assert deals[:3] == [
        (S.THIRD, "Alice", (None, None, parse_card("Kd")), (False, False, True)),
        (S.THIRD, "Hero Two", parse_cards("As 2s 3c"), (False, False, True)),
        (S.THIRD, "Bob B.", (None, None, parse_card("2h")), (False, False, True)),
    ]
    assert deals[3] == (S.FOURTH, "Alice", (parse_card("Ks"),), (True,))
    assert deals[-1] == (S.SEVENTH, "Hero Two", (parse_card("9h"),), (False,))
    starts = [e.street for e in h.events if isinstance(e, StreetStart)]
    assert starts == [S.THIRD, S.FOURTH, S.FIFTH, S.SIXTH, S.SEVENTH]
    assert h.hero == "Hero Two"
    # an up card alone on 3rd street; H: a community card on the river line
    text = hand([BRING], pot(11)).replace("[-, -, Kd]", "[Kd]")
    assert [d.cards for d in one(text).events if isinstance(d, Deal)][0] == (
        None, None, parse_card("Kd"),
    )  # fmt: skip
    h = one(hand(body, pot(21, "Hero Two")).replace("Dealing river\nDealing to Hero Two: [9h]",
                                                    "Dealing river [6h]"))  # fmt: skip
    assert StreetStart(S.SEVENTH, parse_card("6h"), 36) in h.events
    assert h.summary is not None and h.summary.board == (parse_card("6h"),)


@pytest.mark.parametrize(
    ("pots", "rake", "want_collects", "want_pot"),
    [
        (["Main pot: $0.21 won by Alice ($0.20)"], "Rake taken: $0.01",
         [("Alice", 20, PotKind.POT, 0)], (21, 1, None, ())),
        # K: a split pot lists its winners; a name may hold ", " and "(..)"
        (["Main pot: $0.21 won by Alice ($0.10), Hero Two ($0.11)"], None,
         [("Alice", 10, PotKind.POT, 0), ("Hero Two", 11, PotKind.POT, 0)], (21, 0, None, ())),
        # K: side pots (the pot before rake, each winner's chips after it)
        (["Main pot: $0.15 won by Alice ($0.14)", "Side pot 1: $0.06 won by Hero Two ($0.06)"],
         "Rake taken: $0.01",
         [("Alice", 14, PotKind.MAIN, 0), ("Hero Two", 6, PotKind.SIDE, 1)], (21, 1, 14, (6,))),
    ],
)  # fmt: skip
def test_pot_and_rake_lines(
    pots: list[str],
    rake: str | None,
    want_collects: list[tuple[object, ...]],
    want_pot: tuple[object, ...],
) -> None:
    body = [BRING, "Alice calls $0.05", "Hero Two calls $0.05"]
    h = one(hand(body, pots, rake=rake))
    got = [(c.player, c.amount, c.pot, c.pot_index) for c in h.events if isinstance(c, Collect)]
    assert got == want_collects
    s = h.summary
    assert s is not None and (s.total_pot, s.rake, s.main_pot, s.side_pots) == want_pot


def test_pot_winner_names_are_matched_to_the_seats() -> None:
    text = hand([BRING, "Alice calls $0.05", "Hero Two calls $0.05"],
                ["Main pot: $0.21 won by Smith, J (x) ($0.10), Hero Two ($0.11)"])  # fmt: skip
    text = text.replace("Alice", "Smith, J (x)")
    got = [(c.player, c.amount) for c in one(text).events if isinstance(c, Collect)]
    assert got == [("Smith, J (x)", 10), ("Hero Two", 11)]


SHOWDOWN = [BRING, "Alice bets $0.10", "Hero Two calls $0.10", "Bob B. folds"]
RESULTS = [
    "Seat 1: Alice ($5.19), net: +$0.19, [7c, 7d, Kd] (PAIR SEVEN)",
    "Seat 3: Hero Two ($3.88), net: -$0.12",
    "Seat 5: Bob B. ($2.93), net: -$0.07",
]


def test_seat_lines_are_the_shows_mucks_and_results() -> None:
    """A hand written as over after 3rd street (the lines are read, not played): Alice's
    line with cards is her show; Hero Two, still in and showing nothing, mucked; Bob
    folded. The engine's own verdict is not the point here."""
    h = one(hand(SHOWDOWN, pot(31), results=RESULTS))
    s = h.summary
    assert s is not None
    assert [(r.player, r.outcome, r.won, r.cards, r.description, r.folded_street)
            for r in s.seats] == [
        ("Alice", SeatOutcome.SHOWED, 31, parse_cards("7c 7d Kd"), "PAIR SEVEN", None),
        ("Hero Two", SeatOutcome.MUCKED, 0, (), None, None),
        ("Bob B.", SeatOutcome.FOLDED, 0, (), None, S.THIRD),
    ]  # fmt: skip
    assert [(e.player, e.cards) for e in h.events if isinstance(e, Show)] == [
        ("Alice", parse_cards("7c 7d Kd"))
    ]
    assert [(m.player, m.declined) for m in h.events if isinstance(m, Muck)] == [
        ("Hero Two", False)
    ]


def test_a_bet_nobody_calls_is_returned_where_the_pots_say_so() -> None:
    """No uncalled-bet line: the pot written is what was put in less Alice's unmatched $0.10
    (an UncalledBet on 4th street); a pot that holds it pays it with the pot. Either way
    the seat lines agree (Alice nets $0.14)."""
    body = [BRING, "Alice calls $0.05", "Hero Two calls $0.05", *FOURTH, "Alice bets $0.10",
            "Hero Two folds", "Bob B. folds"]  # fmt: skip
    results = ["Seat 1: Alice ($5.14), net: +$0.14", "Seat 3: Hero Two ($3.93), net: -$0.07",
               "Seat 5: Bob B. ($2.93), net: -$0.07"]  # fmt: skip
    h = one(hand(body, pot(21), results=results))
    (u,) = [e for e in h.events if isinstance(e, UncalledBet)]
    assert (u.player, u.amount, u.street) == ("Alice", 10, S.FOURTH)
    assert isinstance(h.events[h.events.index(u) + 1], Collect)
    assert errors(h) == set()
    assert h.summary is not None and h.summary.seats[0].outcome is SeatOutcome.COLLECTED
    kept = one(hand(body, pot(31), results=results))
    assert not [e for e in kept.events if isinstance(e, UncalledBet)]
    assert errors(kept) == set()


def test_an_all_in_call_short_returns_the_excess_on_its_own_street() -> None:
    """Bob calls all-in short on 4th; the later streets are dealt; Alice's excess is
    returned on 4th street (placed there, before 5th street starts)."""
    body = [BRING, "Alice calls $0.05", "Hero Two folds", "---", "Dealing 4th street",
            "Dealing to Alice: [Ks]", "Dealing to Bob B.: [7c]", "Alice bets $0.10",
            "Bob B. calls $0.03", "---", "Dealing 5th street", "Dealing to Alice: [2c]",
            "Dealing to Bob B.: [8c]", "---", "Dealing 6th street", "Dealing to Alice: [3d]",
            "Dealing to Bob B.: [9c]", "---", "Dealing river"]  # fmt: skip
    results = ["Seat 1: Alice ($4.90), net: -$0.10", "Seat 3: Hero Two ($3.98), net: -$0.02",
               "Seat 5: Bob B. ($0.22), net: +$0.12, [5d, 6d, 2h, 7c, 8c, 9c, Ts] "
               "(STRAIGHT NINE)"]  # fmt: skip
    h = one(hand(body, pot(22, "Bob B."), bob="$0.10", results=results))
    (u,) = [e for e in h.events if isinstance(e, UncalledBet)]
    assert (u.player, u.amount, u.street) == ("Alice", 7, S.FOURTH)
    after = h.events[h.events.index(u) + 1]
    assert isinstance(after, StreetStart) and after.street is S.FIFTH
    assert (S.FOURTH, "Bob B.", A.CALL, 3, None, True) in acts(h)
    assert [(m.player, m.declined) for m in h.events if isinstance(m, Muck)] == [("Alice", False)]
    assert errors(h) == set()


@pytest.mark.parametrize(
    ("head", "table", "want"),
    [
        (HEAD, TABLE, (Game.STUD, Unit.CENT, "USD", 10, 20, None, None, 7)),
        (HEAD, TABLE.replace("LIMIT SEVEN_CARD_STUD", "LIMIT SEVEN_CARD_STUD_HI_LO"),
         (Game.STUD_HILO, Unit.CENT, "USD", 10, 20, None, None, 7)),
        (HEAD, TABLE.replace("LIMIT SEVEN_CARD_STUD", "LIMIT RAZZ"),
         (Game.RAZZ, Unit.CENT, "USD", 10, 20, None, None, 7)),
        ("***** History for hand 123456 *****", TABLE.replace("$", "€"),
         (Game.STUD, Unit.CENT, "EUR", 10, 20, None, None, None)),
        (HEAD, TABLE.replace("Table: Synth", "Table: [SPEED] Synth"),
         (Game.STUD, Unit.CENT, "USD", 10, 20, None, None, 7)),
        # K: FPDB's tournament header; chips carry no sign
        ('***** History for hand R5-1000-7 (TOURNAMENT: "Stud Daily", R5-99-1, buy-in: $5) *****',
         "Table: Synth [1000] (LIMIT SEVEN_CARD_STUD 10/20, ante: 2)",
         (Game.STUD, Unit.CHIP, None, 10, 20, "R5-99-1", "$5", 7)),
        # K: a tournament without its name and buy-in (FPDB 2012-02)
        ("***** History for hand R5-1000-7 (TOURNAMENT: T5-99-1) *****",
         "Table: Synth [1000] (LIMIT SEVEN_CARD_STUD 10/20, ante: 2, Chips)",
         (Game.STUD, Unit.CHIP, None, 10, 20, "T5-99-1", None, 7)),
    ],
)  # fmt: skip
def test_headers(head: str, table: str, want: tuple[object, ...]) -> None:
    text = hand([BRING], pot(11), table=table)
    if want[1] is Unit.CHIP:
        text = text.replace("$0.02", "2").replace("$0.05", "5").replace("$0.11", "11")
        text = text.replace("$5", "500").replace("$4", "400").replace("$3", "300")
        text = text.replace("$0", "0")
    elif want[2] == "EUR":
        text = text.replace("$", "€")
    text = text.replace(HEAD, head).replace("hand R5-1000-7 *", f"hand {head.split()[4]} *")
    h = one(text)
    assert (h.game, h.unit, h.currency, h.small_bet, h.big_bet, h.tournament_id, h.buy_in,
            h.table_hand) == want  # fmt: skip
    assert h.table == "Synth" and h.started_at == datetime(2024, 3, 1, 16, 0, tzinfo=UTC)


def test_start_offsets_and_optional_lines() -> None:
    text = hand([BRING], pot(11)).replace("GMT+0100", "GMT-0500").replace("User: Hero Two\n", "")
    text = text.replace("Players in round: 3\n", "Button: seat 3\nPlayers in round: 3\n")
    h = one(text)
    assert h.started_at == datetime(2024, 3, 1, 22, 0, tzinfo=UTC)
    assert h.hero == "Hero Two"  # the one player whose down cards show


@pytest.mark.parametrize(
    ("zone", "utc_hour"), [("CEST", 15), ("CET", 16), ("EEST", 14), ("GMT", 17)]
)
def test_a_zone_word_for_the_offset(zone: str, utc_hour: int) -> None:
    """K: "Start hand: Wed Aug 18 19:45:30 CEST 2010" (FPDB 2011-08): the word's offset."""
    h = one(hand([BRING], pot(11)).replace("GMT+0100", zone))
    assert h.started_at == datetime(2024, 3, 1, utc_hour, 0, tzinfo=UTC)
    assert h.local_time == f"Fri Mar 01 17:00:00 {zone} 2024"
    got = issue(hand([BRING], pot(11)).replace("GMT+0100", "XYZ"))
    assert got.kind == "rejected" and "unknown time zone 'XYZ'" in got.reason


def test_the_table_size_after_the_players_in_round() -> None:
    """K: "Players in round: 3 (10)" (FPDB 2012-08): the table's size."""
    h = one(hand([BRING], pot(11)).replace("Players in round: 3", "Players in round: 3 (10)"))
    assert (h.max_seats, len(h.seats)) == (10, 3)


def test_new_hand_for_is_a_deal_and_sits_out_a_note() -> None:
    """K: FPDB's second deal words and its sit-out note."""
    text = hand([BRING, "Alice sits out", "Alice calls $0.05", "Hero Two calls $0.05"], pot(21))
    text = text.replace("Dealing to Hero Two: [As, 2s, 3c]", "New hand for Hero Two: [As, 2s, 3c]")
    text = text.replace("Bob B. posts ante", "Hero Two sits out\nBob B. posts ante")
    h = one(text)
    deals = [(d.player, d.cards) for d in h.events if isinstance(d, Deal)]
    assert deals[1] == ("Hero Two", parse_cards("As 2s 3c"))
    notes = [(n.kind, n.player, n.text) for n in h.events if isinstance(n, TableNote)]
    assert notes == [(NoteKind.SIT_OUT, "Hero Two", "Hero Two sits out"),
                     (NoteKind.SIT_OUT, "Alice", "Alice sits out")]  # fmt: skip
    plain = one(hand([BRING, "Alice calls $0.05", "Hero Two calls $0.05"], pot(21)))
    assert acts(h) == acts(plain)  # notes, not play


def test_the_hi_lo_halves_named() -> None:
    """K: "won by Alice ($0.11 High), Hero Two ($0.10 Low)" (FPDB's collect pattern): each
    collect names its half."""
    body = [BRING, "Alice calls $0.05", "Hero Two calls $0.05"]
    pots = ["Main pot: $0.21 won by Alice ($0.11 High), Hero Two ($0.10 Low)"]
    table = TABLE.replace("SEVEN_CARD_STUD", "SEVEN_CARD_STUD_HI_LO")
    h = one(hand(body, pots, table=table))
    got = [(c.player, c.amount, c.pot, c.half) for c in h.events if isinstance(c, Collect)]
    assert got == [("Alice", 11, PotKind.POT, Half.HIGH), ("Hero Two", 10, PotKind.POT, Half.LOW)]


@pytest.mark.parametrize(
    "game", ["POT_LIMIT OMAHA_HI", "LIMIT FIVE_CARD_DRAW",
             "POT_LIMIT SEVEN_CARD_STUD"],
)  # fmt: skip
def test_other_games_are_skipped_by_name(game: str) -> None:
    text = (f"{HEAD}\nStart hand: Fri Mar 01 17:00:00 GMT+0100 2024\n"
            f"Table: Synth [1000] ({game} $0.01/$0.02, Real money)\nanything\n")  # fmt: skip
    got = issue(text)
    assert (got.kind, got.hand_id, got.game, got.line) == ("skipped", "R5-1000-7", game, 1)


# ------------------------------------------------------------------------ bad input


def test_a_hand_cut_before_its_end_line_is_rejected_and_the_next_read() -> None:
    """(A hand cut in its play: tests/dialects/test_contract.py.)"""
    lines = hand([BRING, "Alice calls $0.05"], pot(16)).splitlines()
    text = "\n".join(lines[:-1]) + "\n" + hand([BRING], pot(11), head=HEAD.replace("-7", "-8"))
    bad, good = parse_strictly(text, "ongame")
    assert isinstance(bad, ParseIssue) and isinstance(good, Hand)
    assert (bad.hand_id, bad.line) == ("R5-1000-7", len(lines) - 1)


@pytest.mark.parametrize(
    ("old", "new", "words"),
    [
        ("Alice calls $0.05", "Alice raises $0.03 to $0.05", "does not fit"),
        ("Main pot: $0.16 won by Alice ($0.16)", "Main pot: $0.16 won by Carol ($0.16)",
         "pot winners not seated"),
        ("***** End of hand R5-1000-7 *****", "***** End of hand R5-1000-9 *****",
         "ends as hand 'R5-1000-9'"),
    ],
)  # fmt: skip
def test_garbled_lines_are_rejected_with_their_line(old: str, new: str, words: str) -> None:
    bad = hand([BRING, "Alice calls $0.05"], pot(16)).replace(old, new)
    got = rejected(bad)
    assert (got.kind, got.source_file, got.hand_id) == ("rejected", "t.txt", "R5-1000-7")
    assert got.line == bad.splitlines().index(new) + 1
    assert words in got.reason, got.reason


def test_a_pot_that_disagrees_with_the_actions_is_read_and_audited() -> None:
    """The site's own mistake (issue 24): the pot as written, the audit names it."""
    bad = hand([BRING, "Alice calls $0.05"], pot(16)).replace(
        "Main pot: $0.16 won by Alice ($0.16)", "Main pot: $0.15 won by Alice ($0.15)"
    )
    h = one(bad)
    assert not h.gaps() and h.summary is not None and h.summary.total_pot == 15
    assert "POT_TOTAL" in replay(h).codes()


def test_a_seat_line_that_disagrees_with_the_actions_is_rejected() -> None:
    wrong = [RESULTS[0], "Seat 3: Hero Two ($3.94), net: -$0.06", RESULTS[2]]
    text = hand(SHOWDOWN, pot(31), results=wrong)
    got = rejected(text)
    assert got.line == text.splitlines().index(wrong[1]) + 1
    assert "Hero Two ends with $3.94 (net -$0.06)" in got.reason and "put in 12" in got.reason


def test_garbled_card_tokens_are_unknown_cards() -> None:
    text = hand([BRING], pot(11)).replace("[-, -, Kd]", "[-, -, Xq]")
    h = one(text)
    assert [d.cards for d in h.events if isinstance(d, Deal)][0] == (None, None, None)
    line = text.splitlines().index("Dealing to Alice: [-, -, Xq]") + 1
    assert TableNote(NoteKind.GARBLED, None, "'Xq' where a card should be", line) in h.events
    garbled = [v for v in replay(h).errors if v.code is Code.GARBLED_CARD]
    assert len(garbled) == 1 and "'Xq'" in garbled[0].message and garbled[0].line == line


def test_wrong_hand_words_are_reported() -> None:
    """The seat line's words are checked in OnGame's (Alice holds kings full of sevens)."""
    body = [*SHOWDOWN,
            "---", "Dealing 4th street", "Dealing to Alice: [Ks]", "Dealing to Hero Two: [4d]",
            "Alice checks", "Hero Two checks",
            "---", "Dealing 5th street", "Dealing to Alice: [7h]", "Dealing to Hero Two: [5d]",
            "Alice checks", "Hero Two checks",
            "---", "Dealing 6th street", "Dealing to Alice: [2c]", "Dealing to Hero Two: [6d]",
            "Alice checks", "Hero Two checks",
            "---", "Dealing river", "Dealing to Hero Two: [9h]", "Alice checks",
            "Hero Two checks"]  # fmt: skip
    alice = "Seat 1: Alice ($5.19), net: +$0.19, [7c, 7d, Kd, Ks, 7h, 2c, Kh] ({})"
    others = RESULTS[1:]
    right = one(hand(body, pot(31), results=[alice.format("FULL_HOUSE KING, SEVEN"), *others]))
    assert errors(right) == set()
    wrong = one(hand(body, pot(31), results=[alice.format("TWO_PAIR KING, SEVEN"), *others]))
    (v,) = [v for v in replay(wrong).errors if v.code is Code.SUMMARY_MISMATCH]
    assert (v.expected, v.reported) == ("FULL_HOUSE KING, SEVEN", "TWO_PAIR KING, SEVEN")


# --------------------------------------------------------------------- round trips

WAGERS = (A.BET, A.RAISE, A.COMPLETE)


def flow(h: Hand) -> list[tuple[object, ...]]:
    """Each action as the chips it moves: (street, player, kind, added, all-in); bets,
    completions and raises are one kind (the site words them by what came before)."""
    out: list[tuple[object, ...]] = []
    street: dict[str, int] = {}
    current = None
    for a in h.actions():
        if a.street != current:
            current, street = a.street, {}
        before = street.get(a.player, 0)
        if a.kind is A.ANTE:
            out.append((a.street, a.player, "ante", a.amount, a.all_in))
            continue
        if a.kind in (A.RAISE, A.COMPLETE):
            top = max(street.values(), default=0)
            to = a.to_amount if a.to_amount is not None else top + a.amount
        elif a.kind in (A.BET, A.CALL, A.BRING_IN):
            to = before + a.amount
        else:
            to = before
        street[a.player] = to
        kind = "wager" if a.kind in WAGERS else a.kind.value
        out.append((a.street, a.player, kind, to - before, a.all_in))
    return out


def carried(h: Hand) -> dict[str, object]:
    """What OnGame's text carries of a hand, in one comparable shape. Not carried (the
    writer's stated choices): the hand's own date text and level, table notes, "doesn't
    show", a mucked hand's cards, the words for a hand, the half a collect pays."""
    ev, s = h.events, h.summary
    assert s is not None
    paid: Counter[tuple[str, int]] = Counter()
    for c in ev:
        if isinstance(c, Collect):
            paid[c.player, c.pot_index if c.pot is PotKind.SIDE else 0] += c.amount
    return {
        "head": (h.hand_id, h.game, h.small_bet, h.big_bet, h.unit, h.currency, h.started_at,
                 h.table, h.tournament_id, h.buy_in, h.hero),
        "seats": [(x.seat, x.player, x.stack) for x in h.seats],
        "actions": flow(h),
        "streets": [(e.street, e.community) for e in ev if isinstance(e, StreetStart)],
        "deals": [(d.street, d.player, d.cards, d.up) for d in ev if isinstance(d, Deal)],
        "uncalled": [(u.player, u.amount, u.street) for u in ev if isinstance(u, UncalledBet)],
        "shows": sorted((x.player, x.cards) for x in ev if isinstance(x, Show)),
        "mucks": sorted(m.player for m in ev if isinstance(m, Muck) and not m.declined),
        "collects": dict(paid),
        "pot": (s.total_pot, s.rake, s.main_pot, s.side_pots, s.board),
        "results": [(r.seat, r.player, r.outcome, r.won,
                     r.cards if r.outcome is SeatOutcome.SHOWED else (), r.folded_street)
                    for r in s.seats],
    }  # fmt: skip


def same(orig: Hand, back: Hand) -> None:
    """The contract's round trip (tests/dialects/test_contract.py): `back`, read from the
    text written of `orig`, replays clean and carries what the text carries."""
    assert replay(back).errors == (), (orig.hand_id, replay(back).errors)
    assert carried(back) == carried(orig), orig.hand_id


@pytest.mark.slow
def test_round_trips_cover_what_the_text_leaves_out() -> None:
    """The contract's round trips of OnGame (tests/dialects/test_contract.py) hold bets
    returned on an earlier street than the last (an all-in call short), side pots, split
    pots, a completion by the bring-in player ("big bring in") and a community card: the
    derivations are exercised, not only the plain hands."""
    from tests.dialects.test_contract import HANDS, ROUND_TRIPS

    seen: Counter[str] = Counter()
    for p in ROUND_TRIPS:
        site, game, tournament, currency, players, seed = p.values
        if site != "ongame":
            continue
        hands = simulate(game, HANDS, players=players, seed=seed, tournament=tournament,  # type: ignore[arg-type]
                         currency=currency, profile=ONGAME)  # fmt: skip
        for h in hands:
            text = write_hand(h)
            last = max(e.street for e in h.events if isinstance(e, StreetStart))
            seen["early return"] += any(
                isinstance(u, UncalledBet) and u.street < last for u in h.events
            )
            seen["side pot"] += "Side pot 1:" in text
            seen["split"] += any(
                ln.startswith("Main pot:") and "), " in ln for ln in text.split("\n")
            )
            seen["big bring in"] += " big bring in " in text
            seen["community"] += "Dealing river [" in text
    assert all(seen[k] for k in ("early return", "side pot", "split", "big bring in",
                                 "community")), seen  # fmt: skip


def test_writer_choices() -> None:
    h = next(simulate("stud_hilo", 1, players=3, seed=5, profile=ONGAME))
    lines = write_hand(h).splitlines()
    assert lines[0] == f"***** History for hand {h.hand_id} *****"
    assert lines[1].startswith("Start hand: ") and lines[1].endswith(" GMT+0000 2024")
    assert lines[2].endswith("(LIMIT SEVEN_CARD_STUD_HI_LO $0.04/$0.08, ante: $0.01, Real money)")
    assert lines[-1] == f"***** End of hand {h.hand_id} *****"
    assert hand_words(Game.STUD, parse_cards("Ks Kd 7h 7s 7c 2d 3h")) == "FULL_HOUSE SEVEN, KING"
    assert hand_words(Game.STUD, parse_cards("Ks Kd 7h 8s 2c 4d 3h")) == "PAIR KING"
    assert hand_words(Game.STUD_HILO, parse_cards("As 2d 3h 4s 5c Kd Kh")) == (
        "STRAIGHT FIVE; LOW 5,4,3,2,A"
    )
    assert hand_words(Game.RAZZ, parse_cards("As 2d 3h 4s 6c Kd Kh")) == "LOW 6,4,3,2,A"
    # a hand with no summary cannot be written: the client always writes one
    with pytest.raises(ValueError, match="summary"):
        write_hand(dataclasses.replace(h, summary=None))


def test_lark_fast_path_and_cython_agree_on_made_up_hands() -> None:
    """(Simulated hands and the real files: tests/dialects/test_contract.py.)"""
    bad = hand([BRING, "Alice calls $0.05"], pot(16)).replace("Alice calls", "Alice calIs")
    text = hand([BRING], pot(11)) + bad
    fast, slow = OnGame(fast=True), OnGame(fast=False, cython=False)
    want = list(slow.parse(text, "t.txt"))
    assert sum(isinstance(h, Hand) for h in want) == 2  # the garbled one read without its line
    assert list(fast.parse(text, "t.txt")) == want
    assert list(OnGame(fast=False, cython=True).parse(text, "t.txt")) == want


def test_dialect_is_registered() -> None:
    d = get_dialect("ongame")
    assert type(d) is OnGame and d.site == "ongame" and d.profile is ONGAME
    assert d.profile.rake_max_percent == 5 and not d.prints_uncalled
    assert d.uses_fast_path and d.detect(HEAD) and not d.detect("***** End of hand R5-1-2 *****")
    assert not get_dialect("pokerstars").detect(HEAD)
