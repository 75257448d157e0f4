"""Golden tests: real PokerStars hands (read in place from ../shared) field by field.

One hand of each game and every awkward form: the 2023 HORSE tournament hand (all-in on
the ante, side pot split high/low, main pot scooped), the 8-player stud hand whose deck ran
out (community card), a razz hand with a 4-card show, the hi/lo odd-chip split, the 2011
UTF-8-BOM file (double bet, all-in, side pot) and the PokerTracker 2 re-export.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from histkit.cards import parse_card, parse_cards
from histkit.model import (
    Action,
    ActionKind,
    Collect,
    Deal,
    DoubleBetAllowed,
    Game,
    Hand,
    Muck,
    PotKind,
    Seat,
    SeatOutcome,
    SeatResult,
    Show,
    SourceRef,
    Street,
    StreetStart,
    UncalledBet,
    Unit,
)
from histkit.reader import iter_hands
from tests.conftest import POKERSTARS, needs_corpus

pytestmark = needs_corpus

A = ActionKind
S = Street


def hand(relpath: str, hand_id: str | None = None) -> Hand:
    path = POKERSTARS / relpath
    hands = [h for h in iter_hands([path]) if isinstance(h, Hand)]
    if hand_id is None:
        assert len(hands) == 1
        return hands[0]
    (found,) = [h for h in hands if h.hand_id == hand_id]
    return found


def test_2023_horse_tournament_allin_ante_side_pot_split() -> None:
    rel = "stud-hilo/7-StudHL-USD-0.98-0.12-202302.allin.ante.txt"
    h = hand(rel)
    assert (h.site, h.hand_id, h.game, h.mix) == (
        "pokerstars",
        "241636097024",
        Game.STUD_HILO,
        "HORSE",
    )
    assert (h.tournament_id, h.buy_in, h.level) == ("3540610518", "$0.98+$0.12 USD", "V")
    assert (h.small_bet, h.big_bet, h.unit, h.currency) == (200, 400, Unit.CHIP, None)
    assert (h.ante, h.bring_in) == (None, None)  # not in the header
    assert h.local_time == "2023/02/05 10:25:51 PT [2023/02/05 13:25:51 ET]"
    assert h.started_at == datetime(2023, 2, 5, 18, 25, 51, tzinfo=UTC)
    assert (h.table, h.max_seats, h.hero) == ("3540610518 2", 8, "Hero")
    assert h.source == SourceRef(str(POKERSTARS / rel), 1)
    assert h.seats == (
        Seat(1, "Player0", 8835, False, 3),
        Seat(2, "Player1", 1485, False, 4),
        Seat(3, "Player2", 1285, True, 5),
        Seat(4, "Player3", 3265, False, 6),
        Seat(5, "Player4", 3939, False, 7),
        Seat(6, "Hero", 40, False, 8),
        Seat(7, "Player5", 4490, False, 9),
        Seat(8, "Player6", 3798, False, 10),
    )
    ev = h.events
    antes = [e for e in ev if isinstance(e, Action) and e.kind is A.ANTE]
    assert [(a.player, a.amount, a.all_in, a.street, a.line) for a in antes] == [
        ("Player0", 40, False, S.THIRD, 11),
        ("Player1", 40, False, S.THIRD, 12),
        ("Player2", 40, False, S.THIRD, 13),
        ("Player3", 40, False, S.THIRD, 14),
        ("Player4", 40, False, S.THIRD, 15),
        ("Hero", 40, True, S.THIRD, 16),
        ("Player5", 40, False, S.THIRD, 17),
        ("Player6", 40, False, S.THIRD, 18),
    ]
    assert ev[8] == StreetStart(S.THIRD, None, 19)
    assert ev[9] == Deal(
        S.THIRD, "Player0", (None, None, parse_card("6c")), (False, False, True), (), 20
    )
    assert ev[14] == Deal(S.THIRD, "Hero", parse_cards("3h Ah 2s"), (False, False, True), (), 25)
    assert ev[17] == Action(S.THIRD, "Player5", A.BRING_IN, 60, None, False, 28)
    assert ev[18] == Action(S.THIRD, "Player6", A.CALL, 60, None, False, 29)
    assert ev[21] == Action(S.THIRD, "Player2", A.FOLD, 0, None, False, 32)
    hero4 = next(
        e for e in ev if isinstance(e, Deal) and e.player == "Hero" and e.street is S.FOURTH
    )
    assert hero4 == Deal(
        S.FOURTH, "Hero", (parse_card("4d"),), (True,), parse_cards("3h Ah 2s"), 39
    )
    river = [e for e in ev if isinstance(e, Deal) and e.street is S.SEVENTH]
    assert river == [
        Deal(S.SEVENTH, "Hero", (parse_card("6d"),), (False,), parse_cards("3h Ah 2s 4d 7d 5h"), 72)
    ]
    tail = ev[-10:]
    assert tail == (
        Show(
            "Player0",
            parse_cards("3d 8c 6c 7h As 8d Tc"),
            "HI: a pair of Eights; LO: 8,7,6,3,A",
            79,
        ),
        Muck("Player1", False, 80),
        Show("Player3", parse_cards("Qs Ks Qd 9c Jh 5d 5s"), "HI: two pair, Queens and Fives", 81),
        Muck("Player5", False, 82),
        Muck("Player6", False, 83),
        Collect("Player3", 150, PotKind.SIDE, 1, 84),
        Collect("Player0", 150, PotKind.SIDE, 1, 85),
        Show(
            "Hero",
            parse_cards("3h Ah 2s 4d 7d 5h 6d"),
            "HI: a straight, Three to Seven; LO: 5,4,3,2,A",
            86,
        ),
        Collect("Hero", 160, PotKind.MAIN, 0, 87),
        Collect("Hero", 160, PotKind.MAIN, 0, 88),
    )
    s = h.summary
    assert s is not None
    assert (s.total_pot, s.main_pot, s.side_pots, s.rake, s.board, s.line) == (
        620,
        320,
        (300,),
        0,
        (),
        89,
    )
    assert s.seats[0] == SeatResult(
        1,
        "Player0",
        SeatOutcome.SHOWED,
        150,
        parse_cards("3d 8c 6c 7h As 8d Tc"),
        "HI: a pair of Eights; LO: 8,7,6,3,A",
        None,
        False,
        91,
    )
    assert s.seats[1] == SeatResult(
        2,
        "Player1",
        SeatOutcome.MUCKED,
        0,
        parse_cards("Jd 7c 5c Qc 4s 6s 7s"),
        None,
        None,
        False,
        92,
    )
    assert s.seats[2] == SeatResult(
        3, "Player2", SeatOutcome.FOLDED, 0, (), None, S.THIRD, True, 93
    )
    assert s.seats[5].won == 320 and s.seats[5].player == "Hero"
    assert [r.seat for r in s.seats] == list(range(1, 9))


def test_eight_players_community_card() -> None:
    h = hand("stud-hi/7-Stud-USD-0.04-0.08-200907.Missing.Showdown.Card.txt")
    assert (h.hand_id, h.game, h.small_bet, h.big_bet) == ("30506593746", Game.STUD, 4, 8)
    # 2009 headers write only the symbol ("$0.04/$0.08"): "$" is PokerStars' USD
    assert (h.unit, h.currency, h.mix, h.tournament_id) == (Unit.CENT, "USD", None, None)
    assert h.local_time == "2009/07/16 2:36:31 CET [2009/07/15 20:36:31 ET]"
    assert h.started_at == datetime(2009, 7, 16, 0, 36, 31, tzinfo=UTC)  # from the ET time
    assert (h.table, h.max_seats, h.hero) == ("Laomedon", 8, "Player1")
    assert [s.stack for s in h.seats] == [181, 246, 167, 35, 175, 292, 154, 71]
    assert len(h.seats) == 8
    river = next(e for e in h.events if isinstance(e, StreetStart) and e.street is S.SEVENTH)
    assert river == StreetStart(S.SEVENTH, parse_card("6h"), 87)
    assert not [e for e in h.events if isinstance(e, Deal) and e.street is S.SEVENTH]
    sixth = [e for e in h.events if isinstance(e, Deal) and e.street is S.SIXTH]
    assert len(sixth) == 8 and sixth[0].before == parse_cards("Ac Kc 8c 9c 9d")
    assert sixth[0].cards == (parse_card("Th"),) and sixth[0].up == (True,)
    river_actions = [(a.player, a.kind, a.amount) for a in h.actions() if a.street is S.SEVENTH]
    assert river_actions == [
        ("Player1", A.CHECK, 0),
        ("Player2", A.CHECK, 0),
        ("Player3", A.BET, 8),
        ("Player4", A.FOLD, 0),
        ("Player5", A.CALL, 8),
        ("Player6", A.CALL, 8),
        ("Player7", A.FOLD, 0),
        ("Player8", A.CALL, 8),
        ("Player1", A.FOLD, 0),
        ("Player2", A.FOLD, 0),
    ]
    show = next(e for e in h.events if isinstance(e, Show))
    assert show == Show(
        "Player3", parse_cards("7s Qs 6c 7h 3s Qh"), "two pair, Queens and Sevens", 99
    )
    assert [e for e in h.events if isinstance(e, Collect)] == [
        Collect("Player3", 54, PotKind.POT, 0, 103)
    ]
    s = h.summary
    assert s is not None
    assert (s.total_pot, s.rake, s.main_pot, s.side_pots) == (56, 2, None, ())
    assert s.board == (parse_card("6h"),)
    assert s.seats[2] == SeatResult(
        3,
        "Player3",
        SeatOutcome.SHOWED,
        54,
        parse_cards("7s Qs 6c 7h 3s Qh"),
        "two pair, Queens and Sevens",
        None,
        False,
        109,
    )
    assert s.seats[4].cards == parse_cards("Kd Ks Jd 4h 9h 2s")
    assert [r.folded_street for r in s.seats if r.outcome is SeatOutcome.FOLDED] == [S.SEVENTH] * 4


def test_razz_four_card_show_after_uncalled_bet() -> None:
    h = hand("razz/Razz-USD-0.04-0.08-200911.txt", "35874664176")
    assert (h.game, h.small_bet, h.big_bet, h.currency, h.table) == (
        Game.RAZZ,
        4,
        8,
        "USD",
        "Gotha II",
    )
    assert h.started_at == datetime(2009, 11, 26, 15, 27, 26, tzinfo=UTC)  # EST
    assert h.source.line == 195 and h.hero == "s0rrow"
    assert [(s.seat, s.player, s.stack) for s in h.seats] == [
        (1, "kobreli", 124),
        (3, "manga130", 68),
        (5, "meg100", 138),
        (6, "HIWAII2", 154),
        (7, "s0rrow", 163),
        (8, "SilkZone", 171),
    ]
    acts = [(a.street, a.player, a.kind, a.amount) for a in h.actions() if a.kind is not A.ANTE]
    assert acts == [
        (S.THIRD, "kobreli", A.BRING_IN, 2),
        (S.THIRD, "manga130", A.FOLD, 0),
        (S.THIRD, "meg100", A.FOLD, 0),
        (S.THIRD, "HIWAII2", A.CALL, 2),
        (S.THIRD, "s0rrow", A.FOLD, 0),
        (S.THIRD, "SilkZone", A.CALL, 2),
        (S.FOURTH, "HIWAII2", A.BET, 4),
        (S.FOURTH, "SilkZone", A.FOLD, 0),
        (S.FOURTH, "kobreli", A.FOLD, 0),
    ]
    assert h.events[-3:] == (
        UncalledBet("HIWAII2", 4, S.FOURTH, 229),
        Collect("HIWAII2", 12, PotKind.POT, 0, 230),
        Show("HIWAII2", parse_cards("3d 3s 5h 4h"), "Lo: 3,3,5,4", 231),
    )
    s = h.summary
    assert s is not None and (s.total_pot, s.rake) == (12, 0)
    assert s.seats[3] == SeatResult(6, "HIWAII2", SeatOutcome.COLLECTED, 12, line=237)
    assert s.seats[0].folded_street is S.FOURTH and not s.seats[0].didnt_bet


def test_hilo_odd_chip_split() -> None:
    h = hand("stud-hilo/7-StudHL-USD-0.04-0.08-200911.txt", "35874576282")
    assert (h.game, h.table, h.currency) == (Game.STUD_HILO, "Dawn II", "USD")
    assert h.seats[0] == Seat(1, "u.pressure", 1100, False, 146)  # "$11 in chips"
    collects = [e for e in h.events if isinstance(e, Collect)]
    assert collects == [
        Collect("u.pressure", 37, PotKind.POT, 0, 230),
        Collect("gashpor", 36, PotKind.POT, 0, 231),
    ]
    shows = [e for e in h.events if isinstance(e, Show)]
    assert [(s.player, s.description) for s in shows] == [
        ("gashpor", "HI: a pair of Sevens; LO: 8,7,5,4,2"),
        ("rdiezchang", "HI: a pair of Aces"),
        ("u.pressure", "HI: two pair, Queens and Sixes"),
    ]
    s = h.summary
    assert s is not None and (s.total_pot, s.rake) == (76, 3)
    assert s.seats[7] == SeatResult(
        8,
        "rdiezchang",
        SeatOutcome.SHOWED,
        0,
        parse_cards("As Qh 5s 7c 4d Th Ac"),
        "HI: a pair of Aces",
        None,
        False,
        241,
    )


def test_2011_bom_double_bet_allin_side_pot() -> None:
    h = hand("stud-hi/HH20110417 Salm IX - $0.04-$0.08 Ante $0.01 - USD Limit Stud.txt")
    assert (h.hand_id, h.game, h.currency, h.hero) == (
        "60974484959",
        Game.STUD,
        "USD",
        "steffen780",
    )
    assert h.started_at == datetime(2011, 4, 18, 0, 21, 35, tzinfo=UTC)  # EDT; CET meant CEST
    assert DoubleBetAllowed(S.FOURTH, 43) in h.events
    assert Action(S.FOURTH, "Spacemasa", A.BET, 8, None, True, 44) in h.events
    assert Action(S.FIFTH, "ranchim", A.RAISE, 8, 16, False, 56) in h.events
    assert [e for e in h.events if isinstance(e, Collect)] == [
        Collect("ranchim", 61, PotKind.SIDE, 1, 70),
        Collect("ranchim", 42, PotKind.MAIN, 0, 72),
    ]
    s = h.summary
    assert s is not None
    assert (s.total_pot, s.main_pot, s.side_pots, s.rake) == (108, 42, (61,), 5)
    assert s.seats[3].won == 103 and s.seats[3].description == "a straight, Ten to Ace"


def test_pt2_reexport_uppercase_header() -> None:
    h = hand("stud-hilo/7-StudHL-USD-10-1-200906.PT2.export.txt")
    assert (h.hand_id, h.game, h.tournament_id, h.buy_in, h.level) == (
        "29356803849",
        Game.STUD_HILO,
        "169962475",
        "$10+$1",
        "I",
    )
    assert (h.small_bet, h.big_bet, h.unit, h.mix) == (25, 50, Unit.CHIP, None)
    assert h.started_at == datetime(2009, 6, 14, 15, 45, tzinfo=UTC)
    assert h.seats[6].sitting_out and h.hero == "Hero"
    # the hero folded on 3rd street: no later deals for him
    assert [e.street for e in h.events if isinstance(e, Deal) and e.player == "Hero"] == [S.THIRD]
    assert [(c.player, c.amount) for c in h.events if isinstance(c, Collect)] == [
        ("Player4", 220),
        ("Player2", 220),
    ]


@pytest.mark.parametrize(
    "rel,ids",
    [
        ("stud-hi/7-Stud-USD-0.04-0.08-201205.embedded.txt", ["80908721832"]),
        ("stud-hilo/7-StudHL-USD-0.04-0.08-200911.Cardtest.txt", ["35874676388"]),
    ],
)
def test_single_hand_files(rel: str, ids: list[str]) -> None:
    assert [h.hand_id for h in iter_hands([POKERSTARS / rel]) if isinstance(h, Hand)] == ids
