"""Absolute Poker / UltimateBet: the real hand parses and replays clean, each line form maps
to the right event, the writer gives the real file back, simulated hands survive a round
trip, bad input is rejected with its file, line and hand id."""

from __future__ import annotations

import re
from collections import Counter
from datetime import UTC, datetime
from functools import partial

import pytest

from histkit.accounting import collections, contributions
from histkit.cards import parse_card, parse_cards
from histkit.cli import main
from histkit.dialects import get_dialect
from histkit.dialects.absolute import ABSOLUTE, Absolute
from histkit.dialects.absolute_writer import high_words, write_hand, write_hands
from histkit.model import (
    Action,
    ActionKind,
    Collect,
    Deal,
    Event,
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
from histkit.reader import ParseIssue, parse_text
from histkit.rules import replay
from histkit.rules.violations import Code
from histkit.simulate import simulate
from tests.conftest import CORPUS
from tests.dialects.helpers import (
    acts,
    corpus_fixture,
    needs_folder,
    one_hand,
    one_issue,
    strict_rejection,
)

A = ActionKind
S = Street
ABS_DIR = CORPUS / "absolute"
REAL = ABS_DIR / "7-StudHL-USD-0.02-0.04-200903.River.with.mucked.txt"
needs_absolute = needs_folder(ABS_DIR)


one = partial(one_hand, site="absolute")
issue = partial(one_issue, site="absolute")
rejected = partial(strict_rejection, site="absolute")
corpus = corpus_fixture(ABS_DIR)


# ----------------------------------------------------------------------- the real file


@needs_absolute
def test_corpus_counts_replays_clean_and_adds_up(corpus: list[Hand | ParseIssue]) -> None:
    """README: one Seven Card Hi/Lo hand; nothing skipped or rejected; no error- or
    warning-level violation under the site's own profile (the default); the money adds up."""
    assert [i for i in corpus if isinstance(i, ParseIssue)] == []
    assert Counter(h.game for h in corpus if isinstance(h, Hand)) == {Game.STUD_HILO: 1}
    for h in (h for h in corpus if isinstance(h, Hand)):
        rp = replay(h)
        assert rp.profile == "absolute" and rp.violations == (), rp.violations
        assert h.summary is not None
        assert sum(contributions(h).values()) == h.summary.total_pot
        assert sum(collections(h).values()) + h.summary.rake + h.summary.fee == 43


@needs_absolute
def test_corpus_facts(corpus: list[Hand | ParseIssue]) -> None:
    (h,) = [h for h in corpus if isinstance(h, Hand)]
    assert (h.site, h.hand_id, h.game, h.small_bet, h.big_bet, h.unit, h.currency) == (
        "absolute", "1300000000", Game.STUD_HILO, 2, 4, Unit.CENT, "USD",
    )  # fmt: skip
    assert (h.table, h.max_seats, h.hero, h.tournament_id, h.ante, h.bring_in) == (
        "", None, "Hero", None, None, None,
    )  # fmt: skip
    assert h.started_at == datetime(2009, 3, 18, 23, 10, tzinfo=UTC)  # 19:10 EDT
    assert h.local_time == "2009-03-18 19:10:00 (ET)"
    assert [(s.seat, s.player, s.stack) for s in h.seats][:4] == [
        (1, "PLAYER1", 17), (2, "PLAYER2", 36), (3, "PLAYER3", 346), (5, "Hero", 100),
    ]  # fmt: skip
    third = [a for a in acts(h) if a[0] is S.THIRD and a[2] is not A.ANTE]
    assert third[:3] == [
        (S.THIRD, "PLAYER7", A.BRING_IN, 1, None, False),
        (S.THIRD, "PLAYER1", A.CALL, 1, None, False),
        (S.THIRD, "PLAYER2", A.FOLD, 0, None, False),
    ]
    deals = [e for e in h.events if isinstance(e, Deal)]
    assert deals[0].cards == (None, None, parse_card("Js"))
    assert [d.cards for d in deals if d.player == "Hero"] == [parse_cards("Tc 5c 7s")]  # once
    p1 = [d for d in deals if d.player == "PLAYER1"]
    assert [(d.street, d.cards, d.up) for d in p1[1:]] == [
        (S.FOURTH, (parse_card("Td"),), (True,)),
        (S.FIFTH, (parse_card("Kh"),), (True,)),
        (S.SIXTH, (parse_card("2c"),), (True,)),
        (S.SEVENTH, (None,), (False,)),  # "[H H Js 10d Kh 2c H]"
    ]
    assert p1[4].before == (None, None, *parse_cards("Js Td Kh 2c"))
    shows = [(s.player, s.description) for s in h.events if isinstance(s, Show)]
    assert shows[0] == ("PLAYER7", "One pair, queens")
    # "Collects ... from main pot", the halves named by the summary's HI:/LO:
    assert [(c.player, c.amount, c.pot, c.half) for c in h.events if isinstance(c, Collect)] == [
        ("PLAYER3", 19, PotKind.MAIN, Half.LOW),
        ("PLAYER6", 20, PotKind.MAIN, Half.HIGH),
    ]
    s = h.summary
    assert s is not None and (s.total_pot, s.rake, s.main_pot) == (43, 4, None)
    assert [(r.seat, r.outcome, r.won, r.description, r.folded_street) for r in s.seats] == [
        (1, SeatOutcome.SHOWED, 0, "Two Pair, jacks and twos", None),
        (2, SeatOutcome.FOLDED, 0, None, S.THIRD),
        (3, SeatOutcome.SHOWED, 19, "One pair, aces", None),
        (5, SeatOutcome.FOLDED, 0, None, S.THIRD),
        (6, SeatOutcome.FOLDED, 0, None, S.THIRD),
        (7, SeatOutcome.SHOWED, 20, "Two Pair, kings and tens", None),
        (8, SeatOutcome.SHOWED, 0, "One pair, queens", None),
    ]
    assert s.seats[2].cards == parse_cards("3d 5d 6s Ah 8c Jc As")


@needs_absolute
def test_writer_gives_the_real_file_back(corpus: list[Hand | ParseIssue]) -> None:
    """Every line, the folded hero's repeated cards, the best five and the halves included."""
    hands = [h for h in corpus if isinstance(h, Hand)]
    assert write_hands(hands).splitlines() == [*REAL.read_text().splitlines(), "", ""]


@needs_absolute
def test_audit_command_is_clean_on_the_real_folder(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", str(ABS_DIR)]) == 0
    assert "no violation" in capsys.readouterr().out


# ------------------------------------------------------------------- a whole hand

SYNTH = """\
Stage #C2000000001: Seven Card Hi/Lo  Normal $0.10/$0.20 - 2010-05-01 21:30:00 (ET)
Table: Synthetic Row (Real Money)
Seat 1 - Alice ($5 in chips)
Seat 3 - Bob B. ($0.32 in chips)
Seat 6 - Hero ($3 in chips)
Alice - Ante $0.02
Bob B. - Ante $0.02
Hero - Ante $0.02
*** 3rd STREET ***
Alice - Pocket [H H Kd]
Bob B. - Pocket [H H 2c]
Hero - Pocket [9s 8s 3h]
Bob B. - Bring-In $0.05
Hero - Completes $0.10
Alice - Calls $0.10
Bob B. - Calls $0.05
*** 4TH STREET ***
Alice - Pocket [H H Kd 7h]
Bob B. - Pocket [H H 2c 5d]
Hero - Pocket [9s 8s 3h 4s]
Alice - Checks
Bob B. - Bets $0.10
Hero - Raises $0.10 to $0.20
Alice - Folds
Bob B. - All-In $0.10
*** 5TH STREET ***
Bob B. - Pocket [H H 2c 5d 6h]
Hero - Pocket [9s 8s 3h 4s 7c]
*** 6TH STREET ***
Bob B. - Pocket [H H 2c 5d 6h Jd]
Hero - Pocket [9s 8s 3h 4s 7c Kc]
*** RIVER ***
Bob B. - Pocket [H H 2c 5d 6h Jd H]
Hero - Pocket [9s 8s 3h 4s 7c Kc Kh]
*** SHOW DOWN ***
Bob B. - Shows [Ac 3d 2c 5d 6h Jd Qs] (High card, ace)
Hero - Shows [9s 8s 3h 4s 7c Kc Kh] (One pair, kings)
Hero Collects $0.36 from main pot
Bob B. Collects $0.36 from main pot
*** SUMMARY ***
Total Pot($0.76) | Rake ($0.04)
Seat 1: Alice Folded on the 4TH STREET
Seat 3: Bob B. won Total ($0.36) HI:with High card, ace [Ac 3d 2c 5d 6h Jd Qs - P:Ac,P:Qs,B:Jd,B:6h,B:5d] LO:($0.36) [P:Ac,B:2c,P:3d,B:5d,B:6h]
Seat 6: Hero won Total ($0.36) HI:($0.36) with One pair, kings [9s 8s 3h 4s 7c Kc Kh - P:Kh,B:Kc,P:9s,P:8s,B:7c]
"""  # noqa: E501


def test_a_whole_made_up_hand_reads_replays_and_writes_back() -> None:
    h = one(SYNTH)
    assert (h.hand_id, h.table, h.hero) == ("C2000000001", "Synthetic Row", "Hero")
    assert [a for a in acts(h) if a[2] not in (A.ANTE, A.CHECK)] == [
        (S.THIRD, "Bob B.", A.BRING_IN, 5, None, False),
        (S.THIRD, "Hero", A.COMPLETE, 5, 10, False),  # "Completes $0.10": to $0.10
        (S.THIRD, "Alice", A.CALL, 10, None, False),
        (S.THIRD, "Bob B.", A.CALL, 5, None, False),
        (S.FOURTH, "Bob B.", A.BET, 10, None, False),
        (S.FOURTH, "Hero", A.RAISE, 10, 20, False),
        (S.FOURTH, "Alice", A.FOLD, 0, None, False),
        (S.FOURTH, "Bob B.", A.CALL, 10, None, True),  # "All-In $0.10" not topping the bet
    ]
    assert [(c.player, c.half) for c in h.events if isinstance(c, Collect)] == [
        ("Hero", Half.HIGH),
        ("Bob B.", Half.LOW),
    ]
    assert replay(h).violations == ()
    assert write_hand(h) + "\n" == SYNTH


def test_the_audit_checks_the_halves_and_the_words_the_summary_gives() -> None:
    """Swapped halves in the summary: the collects carry them, and the engine disagrees;
    a wrong description of a settled category is a warning."""
    bob, hero = (ln for ln in SYNTH.splitlines() if ln.startswith(("Seat 3:", "Seat 6:")))
    swapped = SYNTH.replace(bob, bob.replace("HI:with", "HI:($0.36) with").split("] LO:")[0] + "]")
    swapped = swapped.replace(
        hero, hero.replace("HI:($0.36) with", "HI:with") + " LO:($0.36) [P:3h]"
    )
    h = one(swapped)
    assert [c.half for c in h.events if isinstance(c, Collect)] == [Half.LOW, Half.HIGH]
    assert Code.AWARD_MISMATCH in {v.code for v in replay(h).errors}
    worded = one(SYNTH.replace("(One pair, kings)", "(One pair, queens)"))
    (v,) = replay(worded).errors
    assert v.code is Code.SUMMARY_MISMATCH and "One pair, kings" in v.message


# ------------------------------------------------------------------ line by line

HEAD = "Stage #2000000002: Seven Card  Normal $0.10/$0.20 - 2010-05-01 21:30:00 (ET)"


def hand(body: list[str], *, head: str = HEAD, about: tuple[str, ...] = ()) -> str:
    """A 3-player hand around `body` (3rd street's plays after the bring-in onward)."""
    return "\n".join([
        head,
        *about,
        "Seat 1 - Alice ($5 in chips)",
        "Seat 3 - Bob B. ($0.32 in chips)",
        "Seat 6 - Hero ($3 in chips)",
        "Alice - Ante $0.02",
        "Bob B. - Ante $0.02",
        "Hero - Ante $0.02",
        "*** 3rd STREET ***",
        "Alice - Pocket [H H Kd]",
        "Bob B. - Pocket [H H 2c]",
        "Hero - Pocket [9s 8s 3h]",
        "Bob B. - Bring-In $0.05",
        *body,
        "*** SUMMARY ***",
        "Total Pot($0.11) | Rake ($0)",
    ]) + "\n"  # fmt: skip


def last(text: str) -> Event:
    return one(text).events[-1]


@pytest.mark.parametrize(
    ("body", "want"),
    [
        ([], (A.BRING_IN, "Bob B.", 5, None, False)),
        (["Hero - Completes $0.10"], (A.COMPLETE, "Hero", 5, 10, False)),
        (["Hero - Completes to $0.10"], (A.COMPLETE, "Hero", 5, 10, False)),
        (["Hero - Calls $0.05"], (A.CALL, "Hero", 5, None, False)),
        (["Hero - Folds"], (A.FOLD, "Hero", 0, None, False)),
        (["Hero - Completes $0.10", "Alice - Raises $0.10 to $0.20"],
         (A.RAISE, "Alice", 10, 20, False)),
        # "All-In X": X is what it adds; the kind from the bet it meets
        (["Hero - Completes $0.10", "Bob B. - All-In $0.25"], (A.RAISE, "Bob B.", 20, 30, True)),
        (["Hero - Completes $0.10", "Bob B. - All-In $0.04"], (A.CALL, "Bob B.", 4, None, True)),
        (["Hero - Completes $0.10", "Bob B. - All-In(Raise) $0.20 to $0.30"],
         (A.RAISE, "Bob B.", 20, 30, True)),
        # a call that takes the last chip is all-in though the line does not say so
        (["Hero - Completes $0.10", "Alice - Raises $0.10 to $0.20",
          "Hero - Raises $0.10 to $0.30", "Bob B. - Calls $0.25"],
         (A.CALL, "Bob B.", 25, None, True)),
        (["Hero - Completes $0.10", "Alice - Calls $0.10", "Bob B. - Calls $0.05",
          "*** 4TH STREET ***", "Hero - Checks", "Alice - Bets $0.10"],
         (A.BET, "Alice", 10, None, False)),
        (["Hero - Completes $0.10", "Alice - Calls $0.10", "Bob B. - Calls $0.05",
          "*** 4TH STREET ***", "Hero - All-In $0.20"], (A.BET, "Hero", 20, None, True)),
    ],
)  # fmt: skip
def test_actions(body: list[str], want: tuple[object, ...]) -> None:
    a = last(hand(body))
    assert isinstance(a, Action)
    assert (a.kind, a.player, a.amount, a.to_amount, a.all_in) == want


def test_uncalled_bet_show_muck_and_collect_lines() -> None:
    body = [
        "Hero - Completes $0.10",
        "Alice - Folds",
        "Bob B. - Folds",
        "Hero - returned ($0.05) : not called",
        "*** SHOW DOWN ***",
        "Hero - Does not show",
        "Alice - Mucks",
        "Hero - Shows [9s 8s 3h]",
        "Hero Collects $0.16 from main pot",
        "Hero Collects $0.01 from side pot #2",
        "Hero Collects $0.01 from pot",
    ]
    ev = list(one(hand(body)).events[-7:])
    assert ev == [
        UncalledBet("Hero", 5, S.THIRD, 16),
        Muck("Hero", True, 18),
        Muck("Alice", False, 19),
        Show("Hero", parse_cards("9s 8s 3h"), None, 20),
        Collect("Hero", 16, PotKind.MAIN, 0, 21),
        Collect("Hero", 1, PotKind.SIDE, 2, 22),
        Collect("Hero", 1, PotKind.POT, 0, 23),
    ]


def test_pocket_lines() -> None:
    """All cards so far; the last is new; "H" is unknown; a line adding nothing is no deal."""
    body = [
        "Hero - Folds", "Alice - Calls $0.05", "*** 4TH STREET ***",
        "Alice - Pocket [H H Kd 10c]", "Bob B. - Pocket [H H 2c Ad]", "Hero - Pocket [9s 8s 3h]",
    ]  # fmt: skip
    ev = list(one(hand(body)).events[-2:])
    assert ev == [
        Deal(S.FOURTH, "Alice", (parse_card("Tc"),), (True,), (None, None, parse_card("Kd")), 16),
        Deal(S.FOURTH, "Bob B.", (parse_card("Ad"),), (True,), (None, None, parse_card("2c")), 17),
    ]
    # a line that does not follow the earlier cards is rejected
    bad = rejected(hand([*body[:4], "Bob B. - Pocket [H H 3c Ad]"]))
    assert bad.kind == "rejected" and bad.line == 17 and "do not follow" in bad.reason


@pytest.mark.parametrize(
    ("line", "want"),
    [
        ("Seat 3: Bob B. Folded on the RIVER", (SeatOutcome.FOLDED, 0, (), None, S.SEVENTH)),
        ("Seat 3: Bob B. Folded on the 5TH STREET", (SeatOutcome.FOLDED, 0, (), None, S.FIFTH)),
        ("Seat 3: Bob B. collected Total ($0.11)", (SeatOutcome.COLLECTED, 11, (), None, None)),
        ("Seat 3: Bob B. collected Total ($0.11) HI:($0.11)",
         (SeatOutcome.COLLECTED, 11, (), None, None)),
        ("Seat 3: Bob B. Mucked [Ac 3d 2c]",
         (SeatOutcome.MUCKED, 0, parse_cards("Ac 3d 2c"), None, None)),
        ("Seat 3: Bob B. HI:lost with One pair, twos [Ac 2d 2c 5d 6h Jd Qs - P:2d,B:2c,P:Ac]",
         (SeatOutcome.SHOWED, 0, parse_cards("Ac 2d 2c 5d 6h Jd Qs"), "One pair, twos", None)),
        ("Seat 3: Bob B. won Total ($0.11) LO:($0.11) with 6,5,3,2,A [Ac 3d 2c 5d 6h Jd Qs - P:Ac]",
         (SeatOutcome.SHOWED, 11, parse_cards("Ac 3d 2c 5d 6h Jd Qs"), "6,5,3,2,A", None)),
    ],
)  # fmt: skip
def test_summary_seat_lines(line: str, want: tuple[object, ...]) -> None:
    h = one(hand([]) + line + "\n")
    assert h.summary is not None
    r = h.summary.seats[-1]
    assert (r.outcome, r.won, r.cards, r.description, r.folded_street) == want


def test_total_pot_with_pots_and_board() -> None:
    text = hand([]).replace(
        "Total Pot($0.11) | Rake ($0)",
        "Total Pot($0.90) | Main Pot($0.50) | Side Pot #1($0.30) | Side Pot #2($0.05) | "
        "Rake ($0.05)\nBoard [6h]",
    )
    s = one(text).summary
    assert s is not None
    assert (s.total_pot, s.rake, s.main_pot, s.side_pots, s.board) == (
        90, 5, 50, (30, 5), (parse_card("6h"),),
    )  # fmt: skip


@pytest.mark.parametrize(
    ("head", "about", "want"),
    [
        (HEAD, (), (Game.STUD, 10, 20, Unit.CENT, "USD", None, None, None, "")),
        (HEAD.replace("Seven Card ", "Razz (1 on 1)"), (),
         (Game.RAZZ, 10, 20, Unit.CENT, "USD", None, 2, None, "")),
        ("Stage #7: Seven Card Hi/Lo (123456) Normal 100/200 - 2010-05-01 21:30:00 (ET)",
         ("Table: 123456 7 (Tournament)",),
         (Game.STUD_HILO, 100, 200, Unit.CHIP, None, "123456", None, None, "123456 7")),
        (HEAD, ("Game Type: Limit Horse", "Table: GARNET (Real Money) Seat #1 is the dealer"),
         (Game.STUD, 10, 20, Unit.CENT, "USD", None, None, "Horse", "GARNET")),
        (HEAD.replace("Normal", "Limit"), (),
         (Game.STUD, 10, 20, Unit.CENT, "USD", None, None, None, "")),
    ],
)  # fmt: skip
def test_headers(head: str, about: tuple[str, ...], want: tuple[object, ...]) -> None:
    body = hand([], head=head, about=about)
    if "100/200" in head:
        for cash, chips in (("$5 ", "500 "), ("$3 ", "300 "), ("$0.32", "32"), ("$0.0", ""),
                            ("$0.11", "11"), ("$0", "0")):  # fmt: skip
            body = body.replace(cash, chips)
    h = one(body)
    got = (h.game, h.small_bet, h.big_bet, h.unit, h.currency, h.tournament_id, h.max_seats,
           h.mix, h.table)  # fmt: skip
    assert got == want
    assert h.started_at == datetime(2010, 5, 2, 1, 30, tzinfo=UTC)


@pytest.mark.parametrize(
    "head",
    [
        "Stage #1571362963: Omaha Hi/Lo  Pot Limit $0.10/$0.25 - 2009-08-05 15:24:06 (ET)",
        "Stage #1571362964: Seven Card  No Limit $0.10/$0.25 - 2009-08-05 15:24:06 (ET)",
    ],
)
def test_other_games_are_skipped_by_name(head: str) -> None:
    got = issue(head + "\nTable: X (Real Money)\nSeat 1 - A ($1 in chips)\n")
    assert got.kind == "skipped" and got.hand_id == head[7:17]
    assert got.reason.startswith("other game: ") and got.game


def test_descriptions_are_checked_only_where_settled() -> None:
    d = get_dialect("absolute")
    assert d.describe(Game.STUD, parse_cards("Kc Th 9c Ks Ts 8h 2s")) == "Two Pair, kings and tens"
    assert d.describe(Game.STUD_HILO, parse_cards("5s 8d 3s Qc 6c Qs 9s")) == "One pair, queens"
    assert d.describe(Game.STUD, parse_cards("Kc Kh Kd Ks Ts 8h 2s")) is None
    assert d.describe(Game.RAZZ, parse_cards("5s 8d 3s Qc 6c Qs 9s")) is None
    assert high_words(parse_cards("9c 8h 7c 6s 5s 2d 2h")) == "Straight, nine high"
    assert high_words(parse_cards("Kc Kh Kd Ts Th 8h 2s")) == "Full house, kings full of tens"


# --------------------------------------------------------------------- round trips


def project(h: Hand) -> dict[str, object]:
    """What the site's text carries. Normalised: the first wager of 3rd street ("Completes",
    or a raise or bet over the bring-in) by its total; a pot that is the only one is
    written "main pot"; 7th-street lines whose card nobody saw; no didn't-bet marks."""
    ev = h.events
    actions, first = [], True
    for a in h.actions():
        k, amount, to = a.kind, a.amount, a.to_amount
        if a.street is S.THIRD and k in (A.BET, A.RAISE, A.COMPLETE) and first:
            first = False
            k, amount, to = A.COMPLETE, 0, to if to is not None else amount
        actions.append((a.street, a.player, k, amount, to, a.all_in))
    s = h.summary
    assert s is not None
    pot = {PotKind.POT: PotKind.MAIN}
    return {
        "head": (h.hand_id, h.game, h.small_bet, h.big_bet, h.unit, h.currency, h.started_at,
                 h.table, h.tournament_id, h.hero, h.max_seats == 2),
        "seats": [(x.seat, x.player, x.stack) for x in h.seats],
        "actions": actions,
        "streets": [(e.street, e.community) for e in ev if isinstance(e, StreetStart)],
        "deals": [(d.street, d.player, d.cards, d.up) for d in ev
                  if isinstance(d, Deal) and any(c is not None for c in d.cards)],
        "uncalled": [(u.player, u.amount, u.street) for u in ev if isinstance(u, UncalledBet)],
        "shows": [(x.player, x.cards) for x in ev if isinstance(x, Show)],
        "mucks": [(m.player, m.declined) for m in ev if isinstance(m, Muck)],
        "collects": [(c.player, c.amount, pot.get(c.pot, c.pot), c.pot_index)
                     for c in ev if isinstance(c, Collect)],
        "pot": (s.total_pot, s.rake, s.main_pot, s.side_pots, s.board),
        "results": [(r.seat, r.player, r.outcome, r.won, r.cards, r.folded_street)
                    for r in s.seats],
    }  # fmt: skip


def same(orig: Hand, back: Hand) -> None:
    """The contract's round trip (tests/dialects/test_contract.py): `back`, read from the
    text written of `orig`, replays clean and carries what the text carries."""
    assert replay(back).errors == (), (orig.hand_id, replay(back).errors)
    assert project(back) == project(orig), orig.hand_id


def test_writer_choices() -> None:
    """Written as the site writes: "Normal", "(1 on 1)", tens as "10", no lines for notes,
    caps, the open pair or "no low"; the folded hero's cards on every later street."""
    hands = list(simulate("stud", 40, players=2, seed=9, profile=ABSOLUTE))
    text = write_hands(hands)
    assert text.startswith("Stage #") and "  Normal $0.04/$0.08 - " in text.splitlines()[0]
    assert "Seven Card (1 on 1)  Normal" in text
    assert "Pair on board" not in text and "capped" not in text
    assert not re.search(r"\bT[cdhs]\b", text) and re.search(r"\b10[cdhs]\b", text)
    h = next(h for h in hands if any(a.kind is A.FOLD and a.player == "Hero" for a in h.actions()))
    lines = write_hand(h).splitlines()
    fold = lines.index("Hero - Folds")
    pockets = [ln for ln in lines[fold:] if ln.startswith("Hero - Pocket")]
    streets = sum(1 for ln in lines[fold:] if ln.startswith("*** ") and "STREET" in ln)
    assert len(pockets) == streets


# ------------------------------------------------------------------------ bad input


def test_chips_in_a_cash_hand_are_rejected_with_their_line() -> None:
    """(A line not understood and a player not seated: tests/dialects/test_contract.py.)"""
    new = "Alice - Calls 10"
    bad = SYNTH.replace("Alice - Calls $0.10", new)
    got = rejected(bad)
    assert (got.kind, got.source_file, got.hand_id) == ("rejected", "t.txt", "C2000000001")
    assert got.line == bad.splitlines().index(new) + 1
    assert "'10'" in got.reason


def test_garbled_card_tokens_are_unknown_cards() -> None:
    bad = SYNTH.replace("Alice - Pocket [H H Kd]", "Alice - Pocket [H H Kx]").replace(
        "Alice - Pocket [H H Kd 7h]", "Alice - Pocket [H H Kx 7h]"
    )
    h = one(bad)
    alice = [d for d in h.events if isinstance(d, Deal) and d.player == "Alice"]
    assert alice[0].cards == (None, None, None)
    notes = [n for n in h.events if isinstance(n, TableNote) and n.kind is NoteKind.GARBLED]
    assert notes and "'Kx'" in notes[0].text
    errors = replay(h).errors
    garbled = [v for v in errors if v.code is Code.GARBLED_CARD]
    assert garbled and "'Kx'" in garbled[0].message
    assert not {v.code for v in errors} & {Code.POT_TOTAL, Code.AWARD_MISMATCH}


def test_dialect_is_registered() -> None:
    d = get_dialect("absolute")
    assert type(d) is Absolute and d.site == "absolute" and d.profile is ABSOLUTE
    assert d.uses_fast_path
    assert d.detect(HEAD) and not d.detect("PokerStars Hand #1: Razz Limit ($1/$2) - x")
    assert ABSOLUTE.rake_max_percent is None and ABSOLUTE.odd_chip_between_halves_to_high


def test_hands_of_another_site_are_written_in_absolute_form() -> None:
    """PokerStars hands (a sitting-out seat, notes, side pots, an all-in, chips) written as
    Absolute text read back with the same play and money, and replay clean."""
    from tests.dialects.synthetic import hilo_2008, razz_tournament, stud_hand

    for text in (stud_hand(), hilo_2008(), razz_tournament()):
        (orig,) = parse_text(text, source="ps.txt")
        assert isinstance(orig, Hand) and orig.site == "pokerstars"
        back = one(write_hand(orig))
        assert replay(back).errors == ()
        assert [(s.seat, s.player, s.stack, s.sitting_out) for s in back.seats] == [
            (s.seat, s.player, s.stack, s.sitting_out) for s in orig.seats
        ]
        assert project(back)["collects"] == project(orig)["collects"]
        assert project(back)["actions"] == project(orig)["actions"]


def test_one_main_pot_line_over_three_pots_is_audited_as_the_total() -> None:
    """Absolute writing a scoop of the main pot and two side pots as one 'collected X
    from main pot' (issue 24 item 3): read as written and audited as the winner's total,
    with a warning naming the line, not as a wrong main pot and two unpaid side pots."""
    import dataclasses

    from tests.dialects.synthetic import razz_tournament

    (orig,) = parse_text(razz_tournament(), source="ps.txt")
    assert isinstance(orig, Hand)
    events, done = [], False
    for e in orig.events:
        if isinstance(e, Collect):
            if not done:
                events.append(Collect("a1", 157, PotKind.MAIN, 0))
                done = True
            continue
        events.append(e)
    text = write_hand(dataclasses.replace(orig, events=tuple(events)))
    assert len(re.findall(r" Collects ", text)) == 1, text
    h = one(text)
    collects = [(c.player, c.amount, c.pot) for c in h.events if isinstance(c, Collect)]
    assert collects == [("a1", 157, PotKind.MAIN)]
    (w,) = replay(h).errors
    assert (w.code, w.severity.value, w.reported) == (Code.SUMMARY_MISMATCH, "warning", 157)
    assert "the main pot, side pot 1 and side pot 2" in w.message


# ------------------------------------------------ forms known of the format (K)


def _chips(text: str) -> str:
    for cash, chips in (("$5 ", "500 "), ("$3 ", "300 "), ("$0.32", "32"), ("$0.0", ""),
                        ("$0.11", "11"), ("$0", "0")):  # fmt: skip
        text = text.replace(cash, chips)
    return text


@pytest.mark.parametrize(
    ("head", "about", "want"),
    [
        # FPDB's "7 Card Stud"
        ("Stage #2000000002: 7 Card Stud  Normal $0.10/$0.20 - 2010-05-01 21:30:00 (ET)", (),
         (Game.STUD, 10, 20, None, Unit.CENT, None, None, "2010-05-01 21:30:00 (ET)")),
        # the ante in the game line (FPDB 2014-07): kept
        ("Stage #2000000002: Seven Card  Normal $0.10/$0.20, $0.02 ante - 2010-05-01 21:30:00 "
         "(ET)", (), (Game.STUD, 10, 20, 2, Unit.CENT, None, None, "2010-05-01 21:30:00 (ET)")),
        # a fraction of a second (FPDB 2011-03): the time as written, the second whole
        ("Stage #2000000002: Seven Card  Normal $0.10/$0.20 - 2010-05-01 21:30:00.374 (ET)", (),
         (Game.STUD, 10, 20, None, Unit.CENT, None, None, "2010-05-01 21:30:00.374 (ET)")),
        # no zone: ET, as FPDB takes it
        ("Stage #2000000002: Seven Card  Normal $0.10/$0.20 - 2010-05-01 21:30:00", (),
         (Game.STUD, 10, 20, None, Unit.CENT, None, None, "2010-05-01 21:30:00")),
        # the speed word (FPDB)
        ("Stage #2000000002: Seven Card  Normal $0.10/$0.20 Turbo - 2010-05-01 21:30:00 (ET)", (),
         (Game.STUD, 10, 20, None, Unit.CENT, None, None, "2010-05-01 21:30:00 (ET)")),
        # a tournament as FPDB reads it (2014-07): chips, the id from "Tourney ID"
        ("Stage #2000000002: Tourney ID 5512345 Seven Card Hi/Lo Single Tournament Normal "
         "100/200 - 2010-05-01 21:30:00 (ET)", (),
         (Game.STUD_HILO, 100, 200, None, Unit.CHIP, "5512345", None,
          "2010-05-01 21:30:00 (ET)")),
        ("Stage #2000000002: Tourney ID 77 Razz Multi Normal Tournament Normal 100/200 - "
         "2010-05-01 21:30:00 (ET)", (),
         (Game.RAZZ, 100, 200, None, Unit.CHIP, "77", None, "2010-05-01 21:30:00 (ET)")),
        # a HORSE hand: its game on the next line (FPDB), the mix from the header
        ("Stage #2000000002: HORSE  Normal $0.10/$0.20 - 2010-05-01 21:30:00 (ET)",
         ("Game Type: Limit Seven Card Hi/Lo",),
         (Game.STUD_HILO, 10, 20, None, Unit.CENT, None, "HORSE", "2010-05-01 21:30:00 (ET)")),
    ],
)  # fmt: skip
def test_known_headers(head: str, about: tuple[str, ...], want: tuple[object, ...]) -> None:
    body = hand([], head=head, about=about)
    h = one(_chips(body) if "100/200" in head else body)
    got = (h.game, h.small_bet, h.big_bet, h.ante, h.unit, h.tournament_id, h.mix, h.local_time)
    assert got == want
    assert h.started_at == datetime(2010, 5, 2, 1, 30, tzinfo=UTC)


@pytest.mark.parametrize(
    ("second", "game"),
    [("Game Type: Limit Holdem", "HOLDEM LIMIT"), ("Table: X (Real Money)", "HORSE NORMAL")],
)
def test_a_horse_hand_of_another_game_or_without_its_game_is_skipped(
    second: str, game: str
) -> None:
    head = "Stage #1571362965: HORSE  Normal $0.10/$0.20 - 2009-08-05 15:24:06 (ET)"
    got = issue(f"{head}\n{second}\nSeat 1 - A ($1 in chips)\n")
    assert (got.kind, got.hand_id, got.game) == ("skipped", "1571362965", game)


def test_dealt_to_is_the_pocket_line() -> None:
    """FPDB's other hero-card form, "Dealt to P [..]": every card so far, as "Pocket"."""
    text = hand(["Hero - Folds", "Alice - Calls $0.05", "*** 4TH STREET ***",
                 "Alice - Pocket [H H Kd 10c]", "Dealt to Bob B. [H H 2c Ad]"])  # fmt: skip
    text = text.replace("Hero - Pocket [9s 8s 3h]", "Dealt to Hero [9s 8s 3h]")
    h = one(text)
    deals = [e for e in h.events if isinstance(e, Deal)]
    assert [(d.street, d.player, d.cards) for d in deals] == [
        (S.THIRD, "Alice", (None, None, parse_card("Kd"))),
        (S.THIRD, "Bob B.", (None, None, parse_card("2c"))),
        (S.THIRD, "Hero", parse_cards("9s 8s 3h")),
        (S.FOURTH, "Alice", (parse_card("Tc"),)),
        (S.FOURTH, "Bob B.", (parse_card("Ad"),)),
    ]


@pytest.mark.parametrize(
    ("line", "want"),
    [
        # position words after the name (FPDB)
        ("Seat 3: Bob B. (dealer) collected Total ($0.11)",
         (3, "Bob B.", SeatOutcome.COLLECTED, 11, None)),
        ("Seat 3: Bob B. (small blind) Folded on the RIVER",
         (3, "Bob B.", SeatOutcome.FOLDED, 0, None)),
        ("Seat 3: Bob B. (dealer) (big blind) HI:lost with One pair, twos [Ac 2d 2c - P:2d]",
         (3, "Bob B.", SeatOutcome.SHOWED, 0, None)),
        # a 7-2 game's prop win (FPDB 2016-07): part of the total, no pot's; a note
        ("Seat 3: Bob B. collected Total ($0.21) 72 Prop Win ($0.10)",
         (3, "Bob B.", SeatOutcome.COLLECTED, 11,
          "Seat 3: Bob B. collected Total ($0.21) 72 Prop Win ($0.10)")),
        ("Seat 3: Bob B. won Total ($0.21) HI:($0.11) with One pair, twos [Ac 2d 2c - P:2d] "
         "72 Prop Win ($0.10)", (3, "Bob B.", SeatOutcome.SHOWED, 11,
          "Seat 3: Bob B. won Total ($0.21) HI:($0.11) with One pair, twos [Ac 2d 2c - P:2d] "
          "72 Prop Win ($0.10)")),
    ],
)  # fmt: skip
def test_known_summary_seat_lines(line: str, want: tuple[object, ...]) -> None:
    h = one(hand([]) + line + "\n")
    assert h.summary is not None
    r = h.summary.seats[-1]
    props = [e.text for e in h.events if isinstance(e, TableNote) and e.kind is NoteKind.OTHER]
    assert (r.seat, r.player, r.outcome, r.won, props[0] if props else None) == want
    assert len(props) == (1 if "Prop" in line else 0)
