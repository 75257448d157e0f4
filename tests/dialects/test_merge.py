"""The Merge Gaming Network dialect (XML): every real stud hand parses and replays clean and
every other game is skipped by name; each element form maps to the right event; the writer
gives the real hands back and simulated hands survive a round trip; bad input is rejected
with its file, line and hand id, and one broken hand loses only itself."""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

import pytest

from histkit.accounting import collections, contributions
from histkit.cards import parse_card, parse_cards
from histkit.cli import main
from histkit.dialects import get_dialect
from histkit.dialects.merge import MERGE, Merge
from histkit.dialects.merge_writer import merge_words, write_hand, write_hands
from histkit.model import (
    Action,
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
from histkit.reader import ParseIssue, iter_hands, strictly
from histkit.rules import replay
from histkit.rules.violations import Code
from histkit.simulate import simulate
from tests.conftest import CORPUS
from tests.dialects.helpers import (
    acts,
    corpus_fixture,
    hands_by_id,
    needs_folder,
    only_hand,
    only_issue,
)

A = ActionKind
S = Street
MERGE_DIR = CORPUS / "merge"
HORSE = "HORSE-Tournament-Freeroll.201107.xml"
needs_merge = needs_folder(MERGE_DIR)


def merge() -> Merge:
    d = get_dialect("merge")
    assert isinstance(d, Merge)
    return d


def read(text: str, source: str = "t.xml") -> list[Hand | ParseIssue]:
    return list(merge().read_xml(text.split("\n"), source))


def one(text: str) -> Hand:
    return only_hand(read(text))


def issue(text: str) -> ParseIssue:
    return only_issue(read(text))


corpus = corpus_fixture(MERGE_DIR)
by_id = hands_by_id


# ----------------------------------------------------------------------- real files


@needs_merge
def test_corpus_counts_as_the_readme_lists(corpus: list[Hand | ParseIssue]) -> None:
    """README: stud 1, stud_hilo 1 (text variant), stud_hilo 1, the HORSE freeroll's
    razz 4, stud 4, stud_hilo 6 and 14 other legs, and the no-limit hand skipped."""
    hands = [h for h in corpus if isinstance(h, Hand)]
    per_file = Counter((Path(h.source.file).name, h.game) for h in hands)
    assert per_file == {
        ("7-Stud-USD-0.50-1.00-201102.Sample.txt", Game.STUD): 1,
        ("7-StudHL-USD-0.25-0.50-201111.txt", Game.STUD_HILO): 1,
        ("7-StudHL-USD-0.25-0.50-201307.no.null.xml", Game.STUD_HILO): 1,
        (HORSE, Game.RAZZ): 4,
        (HORSE, Game.STUD): 4,
        (HORSE, Game.STUD_HILO): 6,
    }
    assert all(h.site == "merge" and h.dialect == "merge" for h in hands)
    issues = [i for i in corpus if isinstance(i, ParseIssue)]
    assert all(i.kind == "skipped" for i in issues), issues
    skipped = Counter((Path(i.source_file).name, i.game) for i in issues)
    assert skipped == {
        (HORSE, "Limit Holdem"): 10,
        (HORSE, "Limit Omaha H/L8"): 4,
        ("NL7-StudHL-0.01-0.02-0.10-201204.xml", "No Limit 7-Stud H/L8"): 1,
    }
    assert all(i.hand_id and i.line for i in issues)


@needs_merge
def test_corpus_replays_clean_and_adds_up(corpus: list[Hand | ParseIssue]) -> None:
    """Not a single violation, not even an info record, under the site's profile (the
    default); collected + rake + fee is the total put in; every summary line is what the
    player collected."""
    for h in (h for h in corpus if isinstance(h, Hand)):
        rp = replay(h)
        assert rp.profile == "merge"
        assert rp.violations == (), (h.hand_id, rp.violations)
        assert h.summary is not None
        paid, got = contributions(h), collections(h)
        assert sum(paid.values()) == h.summary.total_pot
        assert sum(got.values()) + h.summary.rake + h.summary.fee == h.summary.total_pot
        assert {r.player: r.won for r in h.summary.seats if r.won} == got


@needs_merge
def test_audit_command_is_clean_on_the_real_folder(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", str(MERGE_DIR)]) == 0
    out = capsys.readouterr().out
    assert "17 hands audited under 'merge', no violation" in out
    assert "15 hands of other games skipped" in out


@needs_merge
def test_corpus_cash_facts(corpus: list[Hand | ParseIssue]) -> None:
    h = by_id(corpus)["31423297-107"]
    assert (h.game, h.small_bet, h.big_bet, h.unit, h.currency) == (
        Game.STUD, 50, 100, Unit.CENT, "USD"
    )  # fmt: skip
    assert (h.table, h.table_hand, h.max_seats, h.hero, h.tournament_id) == (
        "Hudson (31423297)", 107, None, "Hero", None
    )  # fmt: skip
    # starttime 20:22:44 in Merge's UTC-5 (the first ante's epoch stamp is 01:22:16 UTC)
    assert h.started_at == datetime(2011, 2, 5, 1, 22, 44, tzinfo=UTC)
    assert h.local_time == "20110204202244"
    assert [(s.seat, s.player, s.stack) for s in h.seats][:2] == [
        (0, "Player1", 1580),
        (1, "Player2", 1161),
    ]
    third = [a for a in acts(h) if a[0] is S.THIRD and a[2] is not A.ANTE]
    assert third[:3] == [
        (S.THIRD, "Player5", A.BRING_IN, 10, None, False),  # 4s, the lowest up card
        (S.THIRD, "Player6", A.CALL, 10, None, False),
        (S.THIRD, "Player7", A.FOLD, 0, None, False),
    ]
    deals = [d for d in h.events if isinstance(d, Deal)]
    up7s = (None, None, parse_card("7s"))
    assert deals[0] == Deal(S.THIRD, "Player1", up7s, (False, False, True), (), deals[0].line)
    hero = [d for d in deals if d.player == "Hero"]
    assert len(hero) == 1 and hero[0].cards == parse_cards("4d 3d Qh")  # folded: repeats ignored
    seventh = [(d.player, d.cards, d.up) for d in deals if d.street is S.SEVENTH]
    assert seventh == [("Player5", (None,), (False,)), ("Player6", (None,), (False,))]
    assert [(e.player, e.cards, e.description) for e in h.events if isinstance(e, Show)] == [
        ("Player5", parse_cards("4c 2c 4s 7c Kh Kd Th"), "Two Pair Kings and Fours")
    ]
    assert [(m.player, m.declined) for m in h.events if isinstance(m, Muck)] == [("Player6", False)]
    assert [e for e in h.events if isinstance(e, Collect)] == [
        Collect("Player5", 347, PotKind.POT, 0, h.events[-1].line)
    ]
    # rake is not written: $3.65 went in, $3.47 was paid
    assert h.summary is not None
    assert (h.summary.total_pot, h.summary.rake, h.summary.main_pot) == (365, 18, None)
    mucked = [r for r in h.summary.seats if r.outcome is SeatOutcome.MUCKED]
    assert [(r.player, r.cards) for r in mucked] == [
        ("Player6", parse_cards("Js Jh Ts 7h 8d 6s 3s"))
    ]


@needs_merge
def test_corpus_text_variant_and_2013_forms(corpus: list[Hand | ParseIssue]) -> None:
    hands = by_id(corpus)
    folded = hands["40263637-116"]
    # everybody folds to a bet: the winner's 0.64 includes the uncalled 0.50 (no line)
    assert not any(isinstance(e, UncalledBet) for e in folded.events)
    assert [(m.player, m.declined) for m in folded.events if isinstance(m, Muck)] == [
        ("Hero", True)
    ]
    assert folded.summary is not None and (folded.summary.total_pot, folded.summary.rake) == (64, 0)
    h = hands["70969727-130"]  # "" for a card not seen, a seat not dealt in, seats="8"
    assert (h.max_seats, h.table, h.table_hand) == (8, "Guatemala II", 130)
    assert h.seats[0].player == "Player0" and h.seats[0].sitting_out
    assert (S.THIRD, "Player4", A.COMPLETE, 20, 25, False) in acts(h)
    assert (S.FOURTH, "Player5", A.RAISE, 25, 50, False) in acts(h)  # "RAISE 0.50": the total
    assert (S.FOURTH, "Player4", A.CALL, 25, None, False) in acts(h)
    assert h.summary is not None and (h.summary.total_pot, h.summary.rake) == (439, 16)


@needs_merge
def test_corpus_tournament_facts(corpus: list[Hand | ParseIssue]) -> None:
    hands = by_id(corpus)
    h = hands["36487050-15"]
    assert (h.unit, h.currency, h.tournament_id, h.table, h.mix, h.table_hand) == (
        Unit.CHIP, None, "36447024-1", "36487050", "HORSE", 15
    )  # fmt: skip
    # stakes="Limit": the bets come from the play (4th-street bet 50 in razz)
    assert (h.game, h.small_bet, h.big_bet) == (Game.RAZZ, 50, 100)
    # balances are after the antes: "$0.00" is a 5 stack, all-in on the ante
    assert h.seat_of("Player5").stack == 5
    assert acts(h)[0] == (S.THIRD, "Player5", A.ANTE, 5, None, True)
    collects = [
        (c.player, c.amount, c.pot, c.pot_index) for c in h.events if isinstance(c, Collect)
    ]
    assert collects == [("Player1", 40, PotKind.MAIN, 0), ("Player1", 925, PotKind.SIDE, 1)]
    assert h.summary is not None and (h.summary.main_pot, h.summary.side_pots) == (40, (925,))
    out = [n for n in h.events if isinstance(n, TableNote)]
    assert [(n.kind, n.player) for n in out] == [(NoteKind.FINISHED, "Player5")]

    h = hands["36487050-16"]  # ALL_IN as a short raise and as a call; an uncalled 27
    assert (h.small_bet, h.big_bet) == (100, 200)  # from the 5th-street bet of 200
    seventh = [a for a in acts(h) if a[0] is S.SEVENTH]
    assert seventh[5:] == [
        (S.SEVENTH, "Player0", A.RAISE, 185, 585, True),
        (S.SEVENTH, "Player9", A.RAISE, 200, 785, False),
        (S.SEVENTH, "Player15", A.CALL, 358, None, True),
    ]
    (back,) = [e for e in h.events if isinstance(e, UncalledBet)]
    assert (back.player, back.amount, back.street) == ("Player9", 27, S.SEVENTH)
    assert h.events.index(back) == h.events.index(next(e for e in h.events if isinstance(e, Action)
                                                        and e.player == "Player15"
                                                        and e.amount == 358)) + 1  # fmt: skip
    assert h.summary is not None and (h.summary.main_pot, h.summary.side_pots) == (3550, (346,))

    h = hands["36487050-18"]  # all-in on 3rd: shown there, then the runout lists
    shows = {s.player: s.cards for s in h.events if isinstance(s, Show)}
    assert shows == {"Player8": parse_cards("9h Jc Js 4s 7s Qc Th"),
                     "Player9": parse_cards("8s Qd As Ac Kh Jd 6h")}  # fmt: skip
    assert [type(e) for e in h.events[-4:]] == [Show, Show, TableNote, Collect]

    h = hands["36487050-24"]  # the bring-in player completes: a BET in the BRING_IN round
    assert (S.THIRD, "Player9", A.COMPLETE, 150, 150, False) in acts(h)
    chat = [n for n in h.events if isinstance(n, TableNote)]
    assert [(n.kind, n.player, n.text) for n in chat] == [
        (NoteKind.CHAT, "Player1", "stupid low..")
    ]
    halves = [(c.player, c.amount, c.half) for c in h.events if isinstance(c, Collect)]
    assert halves == [("Player16", 1860, Half.HIGH), ("Player9", 1860, Half.LOW)]
    assert [s.description for s in h.events if isinstance(s, Show)] == [
        "Two Pair Kings and Fours", "6-5-3-2-A"
    ]  # fmt: skip


@needs_merge
def test_writer_gives_the_real_hands_back(corpus: list[Hand | ParseIssue]) -> None:
    """Every real hand written and read again is the same hand (line numbers aside):
    the winners' words too, which the writer makes from the cards."""
    hands = [h for h in corpus if isinstance(h, Hand)]
    back = read(write_hands(hands), "w.xml")
    assert [unlined(h) for h in back] == [unlined(h) for h in hands]  # type: ignore[arg-type]


def unlined(h: Hand) -> Hand:
    s = h.summary
    assert s is not None
    return dataclasses.replace(
        h,
        events=tuple(dataclasses.replace(e, line=0) for e in h.events),
        seats=tuple(dataclasses.replace(x, line=0) for x in h.seats),
        summary=dataclasses.replace(
            s, line=0, seats=tuple(dataclasses.replace(r, line=0) for r in s.seats)
        ),
        source=dataclasses.replace(h.source, file="", line=0),
    )


@needs_merge
def test_reading_keeps_file_lines_and_detects_merge(corpus: list[Hand | ParseIssue]) -> None:
    path = MERGE_DIR / HORSE
    lines = path.read_text().split("\n")
    for h in (h for h in corpus if isinstance(h, Hand) and Path(h.source.file) == path):
        assert lines[h.source.line - 1].startswith(f'<game id="{h.hand_id}"')
        for e in h.events:
            assert lines[e.line - 1].lstrip().startswith(("<event", "<cards", "<winner", "<round"))
    assert merge().detect_xml(path.read_text()[:4096])


# ------------------------------------------------------------ element by element

HEAD = """<description type="7-Stud" stakes="Limit $0.10/$0.20"/>
<game id="1000-7" starttime="20240301120000" numholecards="7" gametype="39" realmoney="true" \
data="20240301|Synthetic (1000)|1000|1000-7|false">
\t<players dealer="7">
\t\t<player seat="1" nickname="Alice" balance="$5.00" dealtin="true" />
\t\t<player seat="3" nickname="Hero Two" balance="$4.00" dealtin="true" />
\t\t<player seat="5" nickname="Bob &amp; Co" balance="$0.30" dealtin="true" />
\t\t<player seat="6" nickname="Carl" balance="$2.00" dealtin="false" />
\t</players>
\t<round id="BLINDS" sequence="1">
\t\t<event sequence="1" type="ANTE" player="1" amount="0.02"/>
\t\t<event sequence="2" type="ANTE" player="3" amount="0.02"/>
\t\t<event sequence="3" type="ANTE" player="5" amount="0.02"/>
\t</round>
\t<round id="BRING_IN" sequence="2">
{bring}
\t\t<cards type="DRAW_DRAWN_CARDS" cards="null,null,Kd" player="1"/>
\t\t<cards type="HOLE" cards="As,2s,Qh" player="3" hand="Ace High"/>
\t\t<cards type="DRAW_DRAWN_CARDS" cards="null,null,3c" player="5"/>
\t</round>
\t<round id="THIRD_STREET" sequence="3">
{third}
\t</round>
{rest}
\t<round id="END_OF_FOLDED_GAME" sequence="9">
{end}
\t</round>
</game>
"""
BRING = '\t\t<event sequence="4" type="BRING_IN" player="5" amount="0.05"/>'
WIN = '\t\t<winner amount="0.11" uncalled="false" potnumber="1" player="5" pottype="n"/>'


def ev(kind: str, seat: int, amount: str | None = None, **more: str) -> str:
    much = f' amount="{amount}"' if amount is not None else ""
    extra = "".join(f' {k}="{v}"' for k, v in more.items())
    return f'\t\t<event sequence="9" type="{kind}" player="{seat}"{much}{extra}/>'


def hand(third: list[str] = (), *, bring: str = BRING, rest: list[str] = (),  # type: ignore[assignment]
         end: list[str] = (WIN,)) -> str:  # type: ignore[assignment]  # fmt: skip
    return HEAD.format(bring=bring, third="\n".join(third), rest="\n".join(rest),
                       end="\n".join(end))  # fmt: skip


def test_header_seats_and_antes() -> None:
    h = one(hand([ev("FOLD", 1), ev("FOLD", 3)]))
    assert (h.hand_id, h.game, h.small_bet, h.big_bet, h.unit, h.currency, h.table) == (
        "1000-7", Game.STUD, 10, 20, Unit.CENT, "USD", "Synthetic (1000)"
    )  # fmt: skip
    assert (h.table_hand, h.hero, h.started_at) == (
        7,
        "Hero Two",
        datetime(2024, 3, 1, 17, tzinfo=UTC),
    )
    assert [(s.seat, s.player, s.stack, s.sitting_out) for s in h.seats] == [
        (1, "Alice", 500, False), (3, "Hero Two", 400, False),
        (5, "Bob & Co", 30, False), (6, "Carl", 200, True),
    ]  # fmt: skip
    assert acts(h)[:3] == [
        (S.THIRD, p, A.ANTE, 2, None, False) for p in ("Alice", "Hero Two", "Bob & Co")
    ]
    assert h.summary is not None
    assert [(r.seat, r.outcome, r.won, r.folded_street) for r in h.summary.seats] == [
        (1, SeatOutcome.FOLDED, 0, S.THIRD), (3, SeatOutcome.FOLDED, 0, S.THIRD),
        (5, SeatOutcome.COLLECTED, 11, None),
    ]  # fmt: skip


BOB = "Bob & Co"


@pytest.mark.parametrize(
    ("bring", "third", "want"),
    [
        (BRING, [], (A.BRING_IN, BOB, 5, None, False)),
        # an all-in for the bring-in, and an ALL_IN with nothing in front on 3rd
        (ev("BRING_IN", 5, "0.28"), [], (A.BRING_IN, BOB, 28, None, True)),
        (ev("ALL_IN", 5, "0.28"), [], (A.BRING_IN, BOB, 28, None, True)),
        # the bring-in player completes: a BET in the BRING_IN round (R)
        (ev("BET", 5, "0.10"), [], (A.COMPLETE, BOB, 10, 10, False)),
        (BRING, [ev("COMPLETE", 1, "0.10")], (A.COMPLETE, "Alice", 5, 10, False)),
        (BRING, [ev("COMPLETE", 1, "0.10"), ev("RAISE", 3, "0.20")],
         (A.RAISE, "Hero Two", 10, 20, False)),
        # RAISE gives the total, by a player with chips in (R: 36487050-13)
        (BRING, [ev("COMPLETE", 1, "0.10"), ev("RAISE", 5, "0.20")], (A.RAISE, BOB, 10, 20, False)),
        (BRING, [ev("CALL", 1, "0.05")], (A.CALL, "Alice", 5, None, False)),
        # ALL_IN adds chips: a raise over the bet, or a call short of it
        (BRING, [ev("COMPLETE", 1, "0.10"), ev("ALL_IN", 5, "0.23")], (A.RAISE, BOB, 18, 28, True)),
        (BRING, [ev("COMPLETE", 1, "0.10"), ev("RAISE", 3, "0.20"), ev("ALL_IN", 5, "0.13")],
         (A.CALL, BOB, 13, None, True)),
        # a call that takes the last chips is all-in without ALL_IN
        (BRING, [ev("COMPLETE", 1, "0.10"), ev("RAISE", 3, "0.20"), ev("RAISE", 1, "0.30"),
                 ev("CALL", 5, "0.23")], (A.CALL, BOB, 23, None, True)),
        (BRING, [ev("CHECK", 1)], (A.CHECK, "Alice", 0, None, False)),
        (BRING, [ev("FOLD", 1)], (A.FOLD, "Alice", 0, None, False)),
    ],
)  # fmt: skip
def test_actions(bring: str, third: list[str], want: tuple[object, ...]) -> None:
    a = acts(one(hand(third, bring=bring)))[-1]
    assert (a[2], a[1], *a[3:]) == want


@pytest.mark.parametrize(
    ("start", "want"),
    [
        # K (FPDB: before 2010-09-08 a RAISE is a call and a raise together, what it adds)
        ("20100907235959",
         [(A.RAISE, "Hero Two", 10, 20, False), (A.RAISE, "Alice", 20, 40, False)]),
        # R: from then on, the street total after it
        ("20100908000000",
         [(A.RAISE, "Hero Two", 10, 20, False), (A.RAISE, "Alice", 10, 30, False)]),
    ],
)  # fmt: skip
def test_raise_amounts_by_era(start: str, want: list[tuple[object, ...]]) -> None:
    """The same events read by their start time: Hero Two's "RAISE 0.20" over Alice's 0.10
    with nothing in puts in 0.20 (to 0.20) in either era; Alice's "RAISE 0.30" with 0.10 in
    puts in 0.30 in the old era (to 0.40), or raises to 0.30."""
    third = [ev("COMPLETE", 1, "0.10"), ev("RAISE", 3, "0.20"), ev("RAISE", 1, "0.30")]
    text = hand(third).replace('starttime="20240301120000"', f'starttime="{start}"')
    h = one(text)
    got = [(a[2], a[1], *a[3:]) for a in acts(h) if a[2] is A.RAISE]
    assert got == want
    assert h.local_time == start


def test_a_hand_of_the_2008_2010_era_is_written_as_its_era_reads() -> None:
    """The writer writes a RAISE as the era of the hand's start time means it (what it adds
    before 2010-09-08): the amounts differ, and each reads back as the hands written."""
    hands = list(simulate("stud", 30, players=6, seed=1, profile=MERGE))
    raised = re.compile(r'type="RAISE" [^>]*amount="([\d.]+)"')
    amounts = []
    for start in ("20090314101500", "20100908000000"):
        era = [dataclasses.replace(h, local_time=start, started_at=None) for h in hands]
        text = write_hands(era)
        amounts.append(raised.findall(text))
        back = [h for h in read(text) if isinstance(h, Hand)]
        assert [wagers(h) for h in back] == [wagers(h) for h in era]
    assert len(amounts[0]) == len(amounts[1]) > 0 and amounts[0] != amounts[1]


FOURTH = [
    '\t<round id="FOURTH_STREET" sequence="4">',
    ev("CHECK", 3),
    ev("ALL_IN", 5, "0.13"),
    ev("CALL", 3, "0.13"),
    '\t\t<cards type="DRAW_DRAWN_CARDS" cards="null,null,Kd,5h" player="1"/>',
    '\t\t<cards type="HOLE" cards="As,2s,Qh,9h" player="3"/>',
    '\t\t<cards type="DRAW_DRAWN_CARDS" cards="null,null,3c,4c" player="5"/>',
    "\t</round>",
]


def test_later_streets_deals_and_all_in_bet() -> None:
    third = [ev("CALL", 3, "0.05"), ev("FOLD", 1), ev("CALL", 5, "0.00")]
    h = one(hand(third[:2], rest=FOURTH))
    deals = [(d.street, d.player, d.cards, d.up, d.before) for d in h.events if isinstance(d, Deal)]
    assert deals[3:] == [
        (S.FOURTH, "Hero Two", parse_cards("9h"), (True,), parse_cards("As 2s Qh")),
        (S.FOURTH, BOB, parse_cards("4c"), (True,), (None, None, parse_card("3c"))),
    ]  # Alice folded on 3rd: her list on 4th is not a deal
    assert acts(h)[-2] == (S.FOURTH, BOB, A.BET, 13, None, True)
    assert [e.street for e in h.events if isinstance(e, StreetStart)] == [S.THIRD, S.FOURTH]


def test_seventh_street_card_nobody_saw_and_hero_repeats() -> None:
    rounds = []
    cards = {1: ["null", "null", "Kd"], 3: ["As", "2s", "Qh"], 5: ["null", "null", "3c"]}
    new = {
        4: ("5h", "9h", "4c"),
        5: ("6h", "Td", "7d"),
        6: ("8h", "Jd", "8d"),
        7: ("null", "Jh", "null"),
    }
    for n, name in ((4, "FOURTH"), (5, "FIFTH"), (6, "SIXTH"), (7, "SEVENTH")):
        rounds.append(f'\t<round id="{name}_STREET" sequence="{n}">')
        rounds += [ev("CHECK", 3), ev("CHECK", 5)]
        for seat, card in zip((1, 3, 5), new[n], strict=True):
            if seat == 1:
                rounds.append(
                    '\t\t<cards type="DRAW_DRAWN_CARDS" cards="null,null,Kd" player="1"/>'
                )
                continue
            cards[seat].append(card)
            kind = "HOLE" if seat == 3 else "DRAW_DRAWN_CARDS"
            rounds.append(
                f'\t\t<cards type="{kind}" cards="{",".join(cards[seat])}" player="{seat}"/>'
            )
        rounds.append("\t</round>")
    h = one(hand([ev("CALL", 3, "0.05"), ev("FOLD", 1)], rest=rounds))
    seventh = [
        (d.player, d.cards, d.up) for d in h.events if isinstance(d, Deal) and d.street is S.SEVENTH
    ]
    assert seventh == [("Hero Two", parse_cards("Jh"), (False,)), (BOB, (None,), (False,))]
    assert sum(1 for d in h.events if isinstance(d, Deal) and d.player == "Alice") == 1


def test_notes() -> None:
    chat = '\t\t<event sequence="6" type="CHAT" player="Railbird" text="gl &amp; hf"/>'
    third = [ev("FOLD", 1), chat, ev("SIT_OUT", 6), ev("DISCONNECT", 1), ev("FOLD", 3)]
    h = one(hand(third, end=[ev("PLAYER_OUT", 1), ev("MUCK", 5), WIN]))
    notes = [(n.kind, n.player, n.text) for n in h.events if isinstance(n, TableNote)]
    assert notes == [
        (NoteKind.CHAT, "Railbird", "gl & hf"),
        (NoteKind.SIT_OUT, "Carl", "Carl: SIT_OUT"),
        (NoteKind.OTHER, "Alice", "DISCONNECT"),
        (NoteKind.FINISHED, "Alice", "Alice: PLAYER_OUT"),
    ]
    assert [(m.player, m.declined) for m in h.events if isinstance(m, Muck)] == [(BOB, True)]


SHOWDOWN_3RD = [
    ev("CALL", 3, "0.05"),
    ev("ALL_IN", 5, "0.23"),
    ev("CALL", 3, "0.23"),
    ev("FOLD", 1),
]


def showdown(end: list[str]) -> str:
    rounds = ['\t<round id="SHOWDOWN" sequence="8">', ev("SHOW", 5), ev("MUCK", 3),
              '\t\t<cards type="SHOWN" cards="7c,7d,3c" player="5"/>',
              '\t\t<cards type="MUCKED" cards="As,2s,Qh" player="3"/>', "\t</round>"]  # fmt: skip
    return hand(SHOWDOWN_3RD, rest=rounds, end=end).replace("END_OF_FOLDED_GAME", "END_OF_GAME")


def win(pot: int, half: str, amount: str = "0.63", seat: int = 5, uncalled: str = "false") -> str:
    return (f'\t\t<winner amount="{amount}" uncalled="{uncalled}" potnumber="{pot}" '
            f'player="{seat}" hand="Pair of Sevens" pottype="{half}"/>')  # fmt: skip


@pytest.mark.parametrize(
    ("end", "want"),
    [
        ([win(1, "n")], [Collect(BOB, 63, PotKind.POT, 0)]),
        ([win(1, "h"), win(1, "l")],
         [Collect(BOB, 63, PotKind.POT, 0, half=Half.HIGH),
          Collect(BOB, 63, PotKind.POT, 0, half=Half.LOW)]),
        ([win(2, "n"), win(1, "n")],
         [Collect(BOB, 63, PotKind.SIDE, 1), Collect(BOB, 63, PotKind.MAIN, 0)]),
    ],
)  # fmt: skip
def test_winners(end: list[str], want: list[Collect]) -> None:
    h = one(showdown(end))
    got = [dataclasses.replace(c, line=0) for c in h.events if isinstance(c, Collect)]
    assert got == want
    assert [(s.player, s.cards, s.description) for s in h.events if isinstance(s, Show)] == [
        (BOB, parse_cards("7c 7d 3c"), "Pair of Sevens")
    ]
    assert [(m.player, m.declined) for m in h.events if isinstance(m, Muck)] == [
        ("Hero Two", False)
    ]
    assert h.summary is not None
    (mucked,) = [r for r in h.summary.seats if r.outcome is SeatOutcome.MUCKED]
    assert (mucked.player, mucked.cards) == ("Hero Two", parse_cards("As 2s Qh"))


def test_uncalled_winner_is_an_uncalled_bet_after_the_streets_betting() -> None:
    third = [
        ev("COMPLETE", 1, "0.10"),
        ev("ALL_IN", 5, "0.23"),
        ev("RAISE", 1, "0.38"),
        ev("FOLD", 3),
    ]
    end = [win(2, "n", "0.10", 1, "true"), WIN]
    h = one(hand(third, end=end))
    kinds = [type(e).__name__ for e in h.events if isinstance(e, Action | UncalledBet)]
    assert kinds[-2:] == ["Action", "UncalledBet"]  # after Hero's fold, not before it
    (u,) = [e for e in h.events if isinstance(e, UncalledBet)]
    assert (u.player, u.amount, u.street) == ("Alice", 10, S.THIRD)


def test_tournament_forms() -> None:
    text = hand([ev("FOLD", 1), ev("FOLD", 3)])
    text = text.replace('<description type="7-Stud" stakes="Limit $0.10/$0.20"/>',
                        '<description type="HORSE Tournament" stakes="Limit"/>')  # fmt: skip
    text = text.replace('gametype="39"', 'gametype="77" multigametype="41"')
    text = text.replace("Synthetic (1000)|1000|1000-7|false", "Freeroll|777-1|1000-7|true")
    text = text.replace('amount="0.02"', 'amount="2.00"').replace('"0.05"', '"5.00"')
    text = text.replace('"0.11"', '"11.00"').replace("$0.30", "$30.00")
    h = one(text)
    assert (h.unit, h.tournament_id, h.table, h.mix, h.game) == (
        Unit.CHIP,
        "777-1",
        "1000",
        "HORSE",
        Game.STUD,
    )
    assert h.seat_of("Alice").stack == 7  # "$5.00" after the ante of 2
    # no wager shows the bets: 10 x the ante, the structure of the real freeroll
    assert (h.small_bet, h.big_bet) == (20, 40)
    other = text.replace('multigametype="41"', 'multigametype="23"')
    assert issue(other).kind == "skipped" and issue(other).game == "Limit Holdem"
    # K: leg codes 38 and 42 are stud in FPDB's table of Merge's codes (43 the first hi/lo)
    for code in ("38", "42"):
        assert one(text.replace('multigametype="41"', f'multigametype="{code}"')).game is Game.STUD
    assert one(text.replace('multigametype="41"', 'multigametype="43"')).game is Game.STUD_HILO
    other = text.replace('multigametype="41"', 'multigametype="99"')
    assert issue(other).game == "Limit game code 99"
    # K (FPDB's description pattern): a tournament's level after the limit
    level = one(text.replace('stakes="Limit"', 'stakes="Limit Level 3 Blinds"'))
    assert (level.game, level.tournament_id, level.small_bet) == (Game.STUD, "777-1", 20)
    # stakes in a form nobody recorded: the hand is skipped by its game text, not misread
    odd = issue(text.replace('stakes="Limit"', 'stakes="Limit 12 x"'))
    assert (odd.kind, odd.game) == ("skipped", "Limit 12 x 7-Stud")


def test_bets_carried_from_an_earlier_hand_of_the_level() -> None:
    text = hand([ev("FOLD", 1), ev("FOLD", 3)]).replace(
        'stakes="Limit $0.10/$0.20"', 'stakes="Limit"'
    )
    text = text.replace("|false", "|true").replace('"0.02"', '"2.00"').replace('"0.05"', '"5.00"')
    text = text.replace('"0.11"', '"11.00"').replace("$0.30", "$30.00")
    text = text.replace("$5.00", "$500.00").replace("$4.00", "$400.00")
    shown = text.replace(ev("FOLD", 3), ev("COMPLETE", 3, "25.00") + "\n" + ev("FOLD", 5))
    shown = shown.replace('player="5" pottype', 'player="3" pottype').replace('"11.00"', '"36.00"')
    items = read(shown.replace('id="1000-7"', 'id="1000-6"') + text)
    assert [(h.small_bet, h.big_bet) for h in items if isinstance(h, Hand)] == [(25, 50), (25, 50)]


def test_card_lists_and_garbled_cards() -> None:
    text = hand([ev("FOLD", 1), ev("FOLD", 3)]).replace('cards="null,null,Kd"', 'cards=",,Xx"')
    h = one(text)
    assert [d.cards for d in h.events if isinstance(d, Deal)][0] == (None, None, None)
    garbled = [v for v in replay(h).errors if v.code is Code.GARBLED_CARD]
    assert len(garbled) == 1 and "'Xx'" in garbled[0].message


def test_detection_and_registry() -> None:
    d = merge()
    assert d.profile is MERGE and d.site == "merge" and d.name == "merge"
    assert d.detect_xml(hand())
    assert d.detect_xml('<?xml version="1.0"?>\n<game id="1-2" starttime="20110101000000">')
    assert not d.detect_xml('<session sessioncode="1"><general><gametype>7 Card Stud')
    assert not d.is_header("PokerStars Hand #1: ")


def test_files_are_read_by_detection(tmp_path: Path) -> None:
    path = tmp_path / "merge.txt"  # the text variant: XML in a .txt file
    text = hand([ev("FOLD", 1), ev("FOLD", 3)])
    path.write_text(text * 2)
    got = list(iter_hands([path]))
    assert [type(h) for h in got] == [Hand, Hand] and all(h.site == "merge" for h in got)  # type: ignore[union-attr]
    assert got[1].source.line == text.count("\n") + 2  # type: ignore[union-attr]


# --------------------------------------------------------------------- round trips


def wagers(h: Hand) -> list[tuple[object, ...]]:
    """Actions with bets, completions and raises compared by the total they make (a
    completion by the bring-in player is a BET at PokerStars, a COMPLETE here)."""
    out: list[tuple[object, ...]] = []
    street: dict[str, int] = {}
    for e in h.events:
        if isinstance(e, StreetStart):
            street = {}
        elif isinstance(e, Action):
            if e.kind in (A.BET, A.RAISE, A.COMPLETE):
                to = e.to_amount if e.to_amount is not None else street.get(e.player, 0) + e.amount
                out.append((e.street, e.player, "wager", to, e.all_in))
                street[e.player] = to
            else:
                out.append((e.street, e.player, e.kind, e.amount, e.all_in))
                if e.kind is not A.ANTE:
                    street[e.player] = street.get(e.player, 0) + e.amount
    return out


def project(h: Hand, *, bets: bool) -> dict[str, object]:
    """What Merge's XML carries, comparable: Merge writes no uncalled bet when all fold
    (the winner's amount includes it), so chips are compared as each player's net; cards
    nobody saw and declined shows (Merge always writes the winner's MUCK) are left out;
    a tournament's bets only where a full wager shows them."""
    ev = h.events
    paid, got = contributions(h), collections(h)
    s = h.summary
    assert s is not None
    out: dict[str, object] = {
        "head": (h.hand_id, h.game, h.unit, h.currency, h.started_at, h.table, h.tournament_id,
                 h.hero, h.max_seats, h.mix),
        "seats": [(x.seat, x.player, x.stack, x.sitting_out) for x in h.seats],
        "actions": wagers(h),
        "streets": [(e.street, e.community) for e in ev if isinstance(e, StreetStart)],
        "deals": [(d.street, d.player, d.cards, d.up) for d in ev
                  if isinstance(d, Deal) and any(c is not None for c in d.cards)],
        "shows": sorted((x.player, x.cards) for x in ev if isinstance(x, Show)),
        "mucks": sorted(m.player for m in ev if isinstance(m, Muck) and not m.declined),
        "net": {p: got.get(p, 0) - paid.get(p, 0) for p in {*paid, *got}},
        "rake": s.rake,
        "chat": [(n.player, n.text) for n in ev
                 if isinstance(n, TableNote) and n.kind is NoteKind.CHAT],
    }  # fmt: skip
    if bets:
        out["bets"] = (h.small_bet, h.big_bet)
    return out


def shows_bets(h: Hand) -> bool:
    """Whether a full wager shows a tournament's bets as the reader reads them (not a
    3rd-street one after an all-in wager, not a stud 4th-street one: it may be double)."""
    short = False
    for a in h.actions():
        if a.kind in (A.BET, A.RAISE, A.COMPLETE):
            third = a.street is S.THIRD
            short |= a.all_in and third
            if not (
                a.all_in or (third and short) or (a.street is S.FOURTH and h.game is Game.STUD)
            ):
                return True
    return False


def same(orig: Hand, back: Hand) -> None:
    """The contract's round trip (tests/dialects/test_contract.py): `back`, read from the
    XML written of `orig`, replays clean and carries what the XML carries."""
    assert replay(back).errors == (), (orig.hand_id, replay(back).errors)
    bets = orig.tournament_id is None or shows_bets(orig)
    assert project(back, bets=bets) == project(orig, bets=bets), orig.hand_id


def test_writer_choices() -> None:
    h = next(simulate("stud_hilo", 1, players=3, seed=5, profile=MERGE))
    lines = write_hand(h).split("\n")
    assert lines[0] == '<description type="7-Stud H/L8" stakes="Limit $0.04/$0.08" version="2"/>'
    assert (
        lines[1].startswith(f'<game id="{h.hand_id}" starttime="') and 'gametype="43"' in lines[1]
    )
    assert lines[-1] == "</game>" and write_hands([h]).endswith("</game>\n\n")
    assert merge_words(Game.STUD, parse_cards("Ks Kd 4h 4s 7c 2d 3h")) == "Two Pair Kings and Fours"
    assert merge_words(Game.STUD, parse_cards("Qs Jd Th 9s 8c 2d 3h")) == "Queen High Straight"
    assert merge_words(Game.STUD, parse_cards("Kh 9h 4h 3h 2h Ad As")) == "Flush King High"
    assert merge_words(Game.STUD, parse_cards("As Qh 9c 7d 4s 3h 2c")) == "Ace High"
    assert merge_words(Game.STUD_HILO, parse_cards("8d 7s Ah Jc 5d 9h 4h"), "l") == "8-7-5-4-A"
    assert merge_words(Game.RAZZ, parse_cards("2h Ad 8d 9c 3h Jh Kh")) == "9-8-3-2-A"


# ------------------------------------------------------------------------ bad input


def test_a_hand_that_ends_before_its_pot_is_won_is_rejected() -> None:
    text = hand([ev("FOLD", 1)]).replace(WIN, "")
    lines = text.split("\n")
    got = issue(text)
    assert got.kind == "rejected" and got.hand_id == "1000-7" and "truncated" in got.reason
    assert lines[got.line - 1].startswith('\t<round id="END_OF_FOLDED_GAME"')  # type: ignore[operator]


@pytest.mark.parametrize(
    ("old", "new", "words"),
    [
        (ev("CALL", 3, "0.05"), ev("CALL", 3, "0.O5"), "amount '0.O5'"),
    ],
)  # fmt: skip
def test_garbled_lines_are_rejected_with_their_line(old: str, new: str, words: str) -> None:
    good = hand([ev("FOLD", 1), ev("CALL", 3, "0.05")])
    bad = good.replace(old, new)
    # an element of the play whose content is refused is left out (a strict reading
    # rejects the hand there); XML that is not well-formed loses the hand
    lenient = read(bad + good, "bad.xml")
    assert isinstance(lenient[0], Hand) == ("not well-formed" not in words)
    items = list(strictly(lenient))
    got = items[0]
    assert isinstance(got, ParseIssue) and isinstance(items[1], Hand)
    assert (got.kind, got.source_file, got.hand_id) == ("rejected", "bad.xml", "1000-7")
    assert got.line == bad.split("\n").index(new) + 1
    assert words in got.reason


def test_a_completion_that_does_not_top_the_bring_in_is_read_as_written() -> None:
    """The site's mistake (issue 24 item 3): a completion to less than the bring-in is
    the completion the site wrote, and the audit names it (the size, and the bring-in
    left unmatched), where it was a refused line before."""
    h = one(hand([ev("FOLD", 1), ev("COMPLETE", 3, "0.04")]))
    assert h.gaps() == ()
    (c,) = [e for e in h.events if isinstance(e, Action) and e.kind is A.COMPLETE]
    assert (c.player, c.to_amount, c.amount) == ("Hero Two", 4, -1)
    codes = {v.code for v in replay(h).errors}
    assert {Code.BET_SIZE, Code.MISSING_ACTION} <= codes


def test_a_hand_without_its_description_is_rejected() -> None:
    text = hand([ev("FOLD", 1), ev("FOLD", 3)]).split("\n", 1)[1]
    got = issue(text)
    assert got.kind == "rejected" and got.hand_id == "1000-7" and "description" in got.reason


def test_empty_input() -> None:
    assert [i.reason for i in read("")] == ["empty file: no hands in it"]  # type: ignore[union-attr]
    assert [i.reason for i in read('<description type="7-Stud" stakes="Limit $1/$2"/>\n')] == [  # type: ignore[union-attr]
        "empty file: no hands in it"
    ]


def test_a_wager_left_out_leaves_no_chips_behind() -> None:
    """A refused wager is read as if it were not there: the pot is what the actions kept
    put in (the sink's count), not what the refused element said."""
    good = hand([ev("FOLD", 1), ev("CALL", 3, "0.05")])
    # a raise to less than the player has in already takes chips back: refused
    bad = ev("CALL", 3, "0.05") + "\n" + ev("RAISE", 3, "0.03")
    got = read(good.replace(ev("CALL", 3, "0.05"), bad), "bad.xml")[0]
    assert isinstance(got, Hand) and got.summary is not None
    assert [n.kind for n in got.gaps()] == [NoteKind.UNREAD]
    put = sum(e.amount for e in got.events if isinstance(e, Action))
    back = sum(e.amount for e in got.events if isinstance(e, UncalledBet))
    assert got.summary.total_pot == put - back
