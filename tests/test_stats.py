"""Player statistics: constructed edge cases, hand-counted real hands, identities.

The constructed hands (tests/stud_builder.py) are small enough to count by eye; each
test says what it counted. The real-hand tests read ../shared/hands in place.
"""

from __future__ import annotations

import functools
from datetime import UTC, datetime

import numpy as np
import pandas as pd
import pytest

from histkit.model import Hand, Unit
from histkit.stats import (
    CATEGORIES,
    HILO_OUTCOMES,
    Filters,
    MissingTableError,
    MixedMoneyError,
    category_results,
    hilo_breakdown,
    player_stats,
    require_single_money,
    seat_facts,
    street_stats,
)
from histkit.tables import tables_from

from .conftest import needs_corpus
from .stud_builder import build


def _one(stats: pd.DataFrame, player: str) -> pd.Series:
    rows = stats[stats["player"] == player]
    assert len(rows) == 1, rows
    return rows.iloc[0]


def _facts(*hands):  # type: ignore[no-untyped-def]
    return seat_facts(tables_from(hands))


def _fact(facts: pd.DataFrame, hand_id: str, player: str) -> pd.Series:
    row = facts[(facts["hand_id"] == hand_id) & (facts["player"] == player)]
    assert len(row) == 1
    return row.iloc[0]


# ------------------------------------------------------------------ 3rd street, VPIP


def test_bring_in_player_who_calls_a_completion_is_vpip() -> None:
    # A brings in (2), B completes to 4, A calls 2 more: A put money in voluntarily.
    h = build(
        "vp1",
        seats="A:1:100 B:2:100",
        cards={"A": "?? ?? 2c", "B": "?? ?? Kd"},
        streets={3: "A bring_in 2; B raise 2 4; A call 2", 4: "A check; B check"},
        collects="B:10",
    )
    f = _facts(h)
    a, b = _fact(f, "vp1", "A"), _fact(f, "vp1", "B")
    assert a["vpip"] and a["bring_in"] and not a["complete_raise"]
    assert b["vpip"] and b["complete_raise"] and not b["bring_in"]


def test_bring_in_alone_is_not_vpip() -> None:
    # Everyone folds to... the bring-in: A brings in, B and C fold, A wins without acting.
    h = build(
        "vp2",
        seats="A:1:100 B:2:100 C:3:100",
        cards={"A": "?? ?? 2c", "B": "?? ?? Kd", "C": "?? ?? 7h"},
        streets={3: "A bring_in 2; B fold; C fold"},
        uncalled=("A", 1),
        collects="A:4",
    )
    st = player_stats(tables_from([h]))
    assert _one(st, "A")["vpip"] == 0.0
    assert _one(st, "A")["bring_in"] == 1.0
    assert _one(st, "B")["vpip"] == 0.0


def test_all_in_on_the_ante_is_dealt_in_but_not_vpip() -> None:
    # H posts the ante all-in (1 chip), is dealt cards, never acts; A and B check it down
    # after a bring-in call. H counts as a hand dealt, with VPIP 0 out of 1.
    h = build(
        "ai1",
        seats="A:1:100 B:2:100 H:3:1",
        cards={"A": "?? ?? 2c", "B": "?? ?? Kd", "H": "Ah 2h 3h"},
        ante_allin=("H",),
        streets={
            3: "A bring_in 2; B call 2",
            4: "B check; A check",
            5: "B check; A check",
            6: "B check; A check",
            7: "B check; A check",
        },
        shows={
            "A": "2c 3c 2c 4d 5d 6d 7d",
            "H": "Ah 2h 3h 4h 5h 6h 7h",
            "B": "Kd Ks Kd 2s 3s 4s 5s",
        },
        collects="H:3 B:4",
        hero="H",
    )
    st = player_stats(tables_from([h]))
    hh = _one(st, "H")
    assert hh["hands"] == 1 and hh["vpip"] == 0.0
    assert hh["showdowns"] == 1 and hh["wsd"] == 1.0


def test_a_hand_that_ends_on_third_street_is_no_showdown() -> None:
    # B completes, A folds; B shows his cards anyway: still no showdown (one player left).
    h = build(
        "sd0",
        seats="A:1:100 B:2:100",
        cards={"A": "?? ?? 2c", "B": "Ah Ad Kd"},
        streets={3: "A bring_in 2; B raise 2 4; A fold"},
        uncalled=("B", 2),
        shows={"B": "Ah Ad Kd"},
        collects="B:6",
    )
    f = _facts(h)
    assert not f["showdown"].any()
    st = player_stats(tables_from([h]))
    assert _one(st, "B")["showdowns"] == 0
    assert np.isnan(_one(st, "B")["wsd"])
    assert _one(st, "B")["went_4"] == 0.0


# ------------------------------------------------------------------------- steals


@pytest.mark.parametrize(
    ("game", "doors", "steal"),
    [
        # Seats in this order: A brings in, B folds, C completes, D folds, A folds.
        # Stud: C (Kd) completes with only D (Qh) and the bring-in to act: steal.
        ("stud", {"A": "2c", "B": "As", "C": "Kd", "D": "Qh"}, True),
        # Stud: C (Qh) completes but D (Kd) is still to act with a higher door: no steal.
        ("stud", {"A": "2c", "B": "9s", "C": "Qh", "D": "Kd"}, False),
        # Stud: equal ranks do not beat each other.
        ("stud", {"A": "2c", "B": "9s", "C": "Qh", "D": "Qd"}, False),
        # Razz: the low door steals: C (3d) completes with D (Qh) still to act.
        ("razz", {"A": "Kc", "B": "2s", "C": "3d", "D": "Qh"}, True),
        # Razz: C (7d) with D (As) still to act: no steal.
        ("razz", {"A": "Kc", "B": "Qh", "C": "7d", "D": "As"}, False),
        # Hi/lo: a low door (5d) against a king still to act (the bring-in's 2c is
        # not compared): steal.
        ("stud_hilo", {"A": "2c", "B": "9s", "C": "5d", "D": "Kh"}, True),
        # Hi/lo: 5d against a 3 still to act (a better low card): no steal.
        ("stud_hilo", {"A": "2c", "B": "Qh", "C": "5d", "D": "3s"}, False),
        # Hi/lo: a king against a 9 still to act: steal; a king against a 6: no steal.
        ("stud_hilo", {"A": "2c", "B": "Qh", "C": "Kd", "D": "9s"}, True),
        ("stud_hilo", {"A": "2c", "B": "Qh", "C": "Kd", "D": "6s"}, False),
    ],
)
def test_steal_is_judged_by_the_door_cards_still_to_act(
    game: str, doors: dict[str, str], steal: bool
) -> None:
    h = build(
        "st1",
        game=game,
        seats="A:1:100 B:2:100 C:3:100 D:4:100",
        cards={p: f"?? ?? {d}" for p, d in doors.items()},
        streets={3: "A bring_in 2; B fold; C raise 2 4; D fold; A fold"},
        uncalled=("C", 2),
        collects="C:8",
    )
    f = _facts(h)
    c = _fact(f, "st1", "C")
    assert bool(c["steal"]) is steal and bool(c["steal_opp"]) is steal
    # B was first in too, with C and D still to act.
    assert not _fact(f, "st1", "B")["steal"]
    # The bring-in folded to an unaccompanied completion: fold-to-steal only when the
    # completion was a steal.
    a = _fact(f, "st1", "A")
    assert bool(a["fold_to_steal_opp"]) is steal and bool(a["fold_to_steal"]) is steal


def test_last_player_before_the_bring_in_always_has_a_steal_spot() -> None:
    # D is last to act before the bring-in: nobody else to beat, so folding is a missed
    # steal (spot 1, steals 0).
    h = build(
        "st2",
        seats="A:1:100 B:2:100 C:3:100 D:4:100",
        cards={"A": "?? ?? 2c", "B": "?? ?? Ks", "C": "?? ?? Kd", "D": "?? ?? 3h"},
        streets={3: "A bring_in 2; B fold; C fold; D fold"},
        uncalled=("A", 1),
        collects="A:5",
    )
    st = player_stats(tables_from([h]))
    assert _one(st, "D")["steal_opps"] == 1 and _one(st, "D")["steal"] == 0.0
    assert _one(st, "B")["steal_opps"] == 0  # C's king ties B's king


def test_no_steal_after_a_call_and_re_steal_counted() -> None:
    # Hand 1: B calls the bring-in, then C completes: not first in, so no steal spot.
    # Hand 2: C (Ks) steals against D (5h) and bring-in A (2c); D folds, A re-raises:
    # A had a re-steal chance and took it, D had one and folded; A also 3-bet.
    doors = {"A": "?? ?? 2c", "B": "?? ?? 9s", "C": "?? ?? Ks", "D": "?? ?? 5h"}
    h1 = build(
        "rs1",
        seats="A:1:100 B:2:100 C:3:100 D:4:100",
        cards=doors,
        streets={3: "A bring_in 2; B call 2; C raise 2 4; D fold; A fold; B fold"},
        uncalled=("C", 2),
        collects="C:10",
    )
    h2 = build(
        "rs2",
        seats="A:1:100 B:2:100 C:3:100 D:4:100",
        cards=doors,
        streets={3: "A bring_in 2; B fold; C raise 2 4; D fold; A raise 6 8; C fold"},
        uncalled=("A", 4),
        collects="A:12",
    )
    f = _facts(h1, h2)
    assert not f[f["hand_id"] == "rs1"]["steal_opp"].any()
    assert _fact(f, "rs2", "C")["steal"]
    a, d = _fact(f, "rs2", "A"), _fact(f, "rs2", "D")
    assert a["resteal_opp"] and a["resteal"] and a["three_bet_opp"] and a["three_bet"]
    assert d["resteal_opp"] and not d["resteal"]
    # A had only a re-steal chance, not a fold-to-steal one he declined: he re-raised.
    assert a["fold_to_steal_opp"] and not a["fold_to_steal"]
    st = player_stats(tables_from([h1, h2]))
    assert _one(st, "A")["resteal"] == 1.0
    assert _one(st, "D")["resteal"] == 0.0
    assert _one(st, "C")["steal"] == 1.0  # 1 steal out of 1 spot (rs1 was no spot)
    assert _one(st, "C")["steal_opps"] == 1


# ----------------------------------------------------------------- later streets


def _chip_hand(hand_id: str, minute: int = 0) -> Hand:
    """A tournament hand in chips: B completes, A folds (for the mixed-money tests)."""
    return build(
        hand_id,
        seats="A:1:1000 B:2:1000",
        cards={"A": "?? ?? 3c", "B": "?? ?? Jd"},
        streets={3: "A bring_in 20; B raise 20 40; A fold"},
        uncalled=("B", 20),
        collects="B:60",
        ante=10,
        small_bet=40,
        big_bet=80,
        unit=Unit.CHIP,
        currency=None,
        minute=minute,
    )


def _long_hand() -> object:
    """A: brings in, calls; B completes. 4th: A checks, B bets, A raises (check-raise),
    B calls. 5th: A bets, B folds."""
    return build(
        "ls1",
        seats="A:1:100 B:2:100",
        cards={"A": "?? ?? 3c", "B": "?? ?? Jd"},
        streets={
            3: "A bring_in 2; B raise 2 4; A call 2",
            4: "A check; B bet 4; A raise 4 8; B call 4",
            5: "A bet 8; B fold",
        },
        uncalled=("A", 8),
        collects="A:26",
    )


def test_check_raise_fold_to_bet_and_aggression_per_street() -> None:
    st = player_stats(tables_from([_long_hand()]))
    a, b = _one(st, "A"), _one(st, "B")
    # 4th: A checked then raised: 1 check-raise of 1 chance. B never checked.
    assert a["check_raise_4"] == 1.0 and np.isnan(b["check_raise_4"])
    # 5th: B faced A's bet and folded: fold to bet 1/1; 4th: B faced A's raise, called.
    assert b["fold_to_bet_5"] == 1.0 and b["fold_to_bet_4"] == 0.0
    # 3rd: A faced the completion and called (0/1); the bring-in is not counted.
    assert a["fold_to_bet_3"] == 0.0 and a["afq_3"] == 0.0 and a["af_3"] == 0.0
    # 4th: A 1 raise, 0 calls -> AFq 1, AF undefined; B 1 bet and 1 call -> AFq .5, AF 1.
    assert a["afq_4"] == 1.0 and np.isnan(a["af_4"])
    assert b["afq_4"] == 0.5 and b["af_4"] == 1.0
    # Went to: both saw 4th and 5th, nobody saw 6th.
    assert a["went_5"] == 1.0 and b["went_5"] == 1.0 and a["went_6"] == 0.0
    # 3rd: B completed, A did not 3-bet (he called at level 1).
    assert a["three_bet"] == 0.0 and b["complete_raise"] == 1.0


def test_seventh_street_aggression_is_counted() -> None:
    h = build(
        "s7",
        seats="A:1:100 B:2:100",
        cards={"A": "?? ?? 3c", "B": "?? ?? Jd"},
        streets={
            3: "A bring_in 2; B call 2",
            4: "B check; A check",
            5: "B check; A check",
            6: "B check; A check",
            7: "B bet 8; A raise 8 16; B raise 8 24; A call 8",
        },
        shows={"A": "2c 2d 3c 4d 5d 6d 7d", "B": "Jd Js Jh 4s 5s 6s 7s"},
        collects="B:54",
    )
    st = player_stats(tables_from([h]))
    a, b = _one(st, "A"), _one(st, "B")
    assert b["afq_7"] == 1.0 and a["afq_7"] == 0.5 and a["af_7"] == 1.0
    assert a["went_7"] == 1.0 and a["showdowns"] == 1 and a["wtsd"] == 1.0
    assert a["wsd"] == 0.0 and b["wsd"] == 1.0
    assert b["showdown_net"] == 27 and b["non_showdown_net"] == 0


# ------------------------------------------------------------------ money and rake


def test_rake_shared_by_contribution_in_whole_units() -> None:
    # Contributions A 7, B 7, C 3 (= 17); rake 5 -> exact shares 2.06, 2.06, 0.88:
    # floors 2, 2, 0 leave 1 unit, which goes to C (largest remainder .88).
    h = build(
        "rk1",
        seats="A:1:100 B:2:100 C:3:100",
        cards={"A": "?? ?? 3c", "B": "?? ?? Jd", "C": "?? ?? 8s"},
        streets={3: "A bring_in 2; B call 2; C call 2", 4: "B bet 4; C fold; A call 4"},
        collects="B:12",
        rake=5,
    )
    f = _facts(h)
    assert f.set_index("player")["rake_paid"].to_dict() == {"A": 2, "B": 2, "C": 1}
    assert f["net"].sum() == -5


def test_big_bets_and_bb_per_100() -> None:
    st = player_stats(tables_from([_long_hand()]))
    a = _one(st, "A")
    # A put in 1 + 4 + 8 + 8 (bet 8 returned) = 13, collected 26: net 13 cents,
    # 13 / 8 = 1.625 big bets in 1 hand = 162.5 bb/100.
    assert a["net"] == 13 and a["net_bb"] == pytest.approx(1.625)
    assert a["bb_per_100"] == pytest.approx(162.5)


def test_mixed_money_is_grouped_and_refused_as_one_figure() -> None:
    cash = _long_hand()
    chips = _chip_hand("tc1")
    st = player_stats(tables_from([cash, chips]))
    # a chip hand outside a tournament: play chips, never added to dollars
    assert sorted(st[st["player"] == "A"]["money"]) == ["USD", "play chips (pokerstars)"]
    a_usd = st[(st["player"] == "A") & (st["money"] == "USD")].iloc[0]
    assert a_usd["net"] == 13 and a_usd["hands"] == 1
    with pytest.raises(MixedMoneyError, match=r"USD, play chips \(pokerstars\)"):
        require_single_money(st)


# ----------------------------------------------------------------------- filters


@pytest.mark.slow
def test_filters_game_stakes_table_dates_player() -> None:
    h1 = _long_hand()
    h2 = build(
        "f2",
        game="razz",
        seats="A:1:100 B:2:100",
        cards={"A": "?? ?? Kc", "B": "?? ?? 3d"},
        streets={3: "A bring_in 2; B raise 2 4; A fold"},
        uncalled=("B", 2),
        collects="B:6",
        table="Other",
        minute=90,
        small_bet=10,
        big_bet=20,
    )
    t = tables_from([h1, h2])
    assert set(seat_facts(t, Filters(game="razz"))["hand_id"]) == {"f2"}
    assert set(seat_facts(t, Filters(stakes="$0.10/$0.20 USD"))["hand_id"]) == {"f2"}
    assert set(seat_facts(t, Filters(stakes="0.04/0.08"))["hand_id"]) == {"ls1"}
    assert set(seat_facts(t, Filters(table="Other"))["hand_id"]) == {"f2"}
    since = datetime(2026, 1, 1, 13, 0, tzinfo=UTC)
    assert set(seat_facts(t, Filters(since=since))["hand_id"]) == {"f2"}
    assert set(seat_facts(t, Filters(until=datetime(2026, 1, 1, 12, 30)))["hand_id"]) == {"ls1"}
    only_b = player_stats(t, Filters(player="B"))
    assert list(only_b["player"]) == ["B"] and only_b.iloc[0]["hands"] == 2
    by_game = player_stats(t, by="game")
    assert set(by_game[by_game["player"] == "B"]["game"]) == {"stud", "razz"}


# -------------------------------------------------------------- starting hands


@pytest.mark.parametrize(
    ("game", "cards", "category"),
    [
        ("stud", "7c 7d 7h", "rolled-up trips"),
        ("stud", "Qc Qd 4h", "buried pair"),
        ("stud", "Qc 4d Qh", "split pair"),
        ("stud", "9h Th Jh", "three to a straight flush"),
        ("stud", "2h 9h Kh", "three to a flush"),
        ("stud", "Ah 2d 3c", "three to a straight"),
        ("stud", "Qs Kd Ac", "three to a straight"),
        ("stud", "2c 9d Kh", "other"),
        ("stud_hilo", "Ah 2h 3h", "three low (8 or lower)"),
        ("stud_hilo", "8c 4d 6h", "three low (8 or lower)"),
        ("stud_hilo", "Kh 9h 2h", "three to a flush"),
        ("stud_hilo", "Ac 4d Ah", "split pair"),
        ("stud_hilo", "9c Td Jh", "three to a straight"),
        ("razz", "Ac 2d 5h", "three to a 5"),
        ("razz", "Ac 6d 3h", "three to a 6"),
        ("razz", "7c 2d 3h", "three to a 7"),
        ("razz", "8c 2d 3h", "three to an 8"),
        ("razz", "Kc 2d 3h", "three to a 9 or higher"),
        ("razz", "Ac Ad 3h", "paired"),
        ("razz", "4c 4d 4h", "rolled-up trips"),
    ],
)
def test_starting_hand_categories(game: str, cards: str, category: str) -> None:
    h = build(
        "c1",
        game=game,
        seats="H:1:100 V:2:100",
        cards={"H": cards, "V": "?? ?? 5s"},
        streets={3: "V bring_in 2; H raise 2 4; V fold"},
        uncalled=("H", 2),
        collects="H:6",
        hero="H",
    )
    f = _facts(h)
    assert _fact(f, "c1", "H")["category"] == category
    assert category in CATEGORIES[game]
    assert pd.isna(_fact(f, "c1", "V")["category"])  # villain's down cards unknown


def _buried_pair_win() -> Hand:
    """Hero (H) completes with buried queens and the bring-in folds: H puts in
    1 + 4 - 2 (uncalled) = 3 and takes 6, net +3."""
    return build(
        "k1",
        seats="H:1:100 V:2:100",
        cards={"H": "Qc Qd 4h", "V": "?? ?? 5s"},
        streets={3: "V bring_in 2; H raise 2 4; V fold"},
        uncalled=("H", 2),
        collects="H:6",
        hero="H",
    )


def test_results_per_category() -> None:
    win = _buried_pair_win()
    lose = build(
        "k2",
        seats="H:1:100 V:2:100",
        minute=1,
        cards={"H": "Kc Kd 4h", "V": "?? ?? 2s"},
        streets={3: "V bring_in 2; H call 2; V check"},
        collects="V:6",
        hero="H",
    )
    cr = category_results(tables_from([win, lose]))
    h = cr[(cr["player"] == "H") & (cr["category"] == "buried pair")].iloc[0]
    # k1: H put in 1 + 4 - 2 = 3, took 6 -> +3; k2: H put in 1 + 2 = 3 -> -3.
    assert h["hands"] == 2 and h["net"] == 0 and h["won"] == 0.5 and h["vpip"] == 1.0


# ------------------------------------------------------------------------ hi/lo


def _hilo_hands() -> list:
    """Three hi/lo showdowns between A, B and C (pot 33 each, no rake): A has the high
    (a flush), B and C 8-low draws; who is paid what is in each test's awards rows."""
    shown = {
        "A": "Ah Kh 3c Qh Jh Th 9d",
        "B": "2d 6d 4d 7s 8s 9s Ts",
        "C": "2h 6h 5h 7c 8c 9c Tc",
    }
    three = {p: "?? ?? " + c.split()[2] for p, c in shown.items()}
    streets = {
        3: "A bring_in 2; B call 2; C call 2",
        4: "A check; B check; C check",
        5: "A check; B bet 8; C call 8; A call 8",
        6: "A check; B check; C check",
        7: "A check; B check; C check",
    }
    out = []
    for hid, coll in (("hl1", "A:33"), ("hl2", "A:17 B:16"), ("hl3", "A:17 B:8 C:8")):
        out.append(
            build(
                hid,
                game="stud_hilo",
                seats="A:1:100 B:2:100 C:3:100",
                cards=three,
                streets=streets,
                shows=shown,
                collects=coll,
            )
        )
    return out


def _awards(rows: list[tuple[str, int, str, str, int]]) -> pd.DataFrame:
    return pd.DataFrame(
        [
            {"hand_id": h, "pot": p, "half": half, "player": pl, "expected": amt, "reported": amt}
            for h, p, half, pl, amt in rows
        ]
    )


def _hilo_awards() -> pd.DataFrame:
    """What the site paid in the three `_hilo_hands`."""
    return _awards(
        [
            # hl1: A wins both halves alone: scooped.
            ("hl1", 0, "high", "A", 17),
            ("hl1", 0, "low", "A", 16),
            # hl2: A high, B low.
            ("hl2", 0, "high", "A", 17),
            ("hl2", 0, "low", "B", 16),
            # hl3: A high, B and C tie for low (quartered).
            ("hl3", 0, "high", "A", 17),
            ("hl3", 0, "low", "B", 8),
            ("hl3", 0, "low", "C", 8),
        ]
    )


def test_hilo_outcomes_from_the_awards_table() -> None:
    t = tables_from(_hilo_hands())
    awards = _hilo_awards()
    frames = {n: tb for n, tb in t.items()} | {"awards": awards}
    st = player_stats(frames)
    a, b, c = _one(st, "A"), _one(st, "B"), _one(st, "C")
    assert (a["hilo_scooped"], a["hilo_high_only"]) == (1, 2)
    assert (b["hilo_low_only"], b["hilo_split_or_quartered"]) == (1, 1)
    assert c["hilo_split_or_quartered"] == 1
    for r in (a, b, c):
        outcomes = sum(r[f"hilo_{o.replace(' ', '_')}"] for o in HILO_OUTCOMES)
        assert outcomes == r["hilo_showdowns_won"] == r["showdowns_won"]
    bd = hilo_breakdown(frames)
    assert bd.loc["A", "high only"] == 2 and bd.loc["C", "split or quartered"] == 1


def test_hilo_outcomes_without_awards_degrade_clearly() -> None:
    t = tables_from(_hilo_hands())
    st = player_stats(t)
    assert st["hilo_scooped"].isna().all()
    with pytest.raises(MissingTableError, match="awards"):
        hilo_breakdown(t)


def test_street_stats_long_form() -> None:
    ss = street_stats(tables_from([_long_hand()]))
    a4 = ss[(ss["player"] == "A") & (ss["street"] == 4)].iloc[0]
    assert a4["check_raise"] == 1.0 and a4["reached"] == 1.0
    assert set(ss["street"]) == {3, 4, 5, 6, 7}


# ---------------------------------------------------------- real hands, counted by hand


def _real(*relpaths: str):  # type: ignore[no-untyped-def]
    from histkit.reader import iter_hands

    from .conftest import POKERSTARS

    return tables_from(iter_hands([POKERSTARS / p for p in relpaths]))


@needs_corpus
def test_real_hilo_session_counted_by_hand_for_s0rrow() -> None:
    # stud-hilo/7-StudHL-USD-0.04-0.08-200911.txt, 7 hands, hero s0rrow. Counted:
    #  #35874487284 brings in, checks 4th/5th, checks then folds to a bet on 6th (-3)
    #  #35874523510 folds 3rd (-1)        #35874576282 calls 3rd, folds to a bet on 5th (-3)
    #  #35874635170 folds 3rd (-1)        #35874789183 folds 3rd (-1)
    #  #35874676388 calls 3rd, calls 5th/6th/7th bets, wins the low half $0.40 (+13)
    #  #35874733203 brings in; bets 4th, calls a raise; checks then calls 5th; wins $0.61 (+42)
    st = player_stats(_real("stud-hilo/7-StudHL-USD-0.04-0.08-200911.txt"))
    s = _one(st, "s0rrow")
    assert s["hands"] == 7
    assert s["vpip"] == pytest.approx(2 / 7) and s["bring_in"] == pytest.approx(2 / 7)
    assert s["complete_raise"] == 0.0
    went = [s[f"went_{n}"] * 7 for n in (4, 5, 6, 7)]
    assert went == pytest.approx([4, 4, 3, 2])
    assert s["fold_to_bet_4"] == 0.0  # 0 of 1 (called the raise in #35874733203)
    assert s["fold_to_bet_5"] == pytest.approx(1 / 3)
    assert s["fold_to_bet_6"] == 0.5 and s["fold_to_bet_7"] == 0.0
    assert s["check_raise_5"] == 0.0 and s["check_raise_6"] == 0.0
    assert s["afq_4"] == 0.5 and s["af_4"] == 1.0  # 1 bet, 1 call on 4th
    assert s["showdowns"] == 2 and s["wtsd"] == 0.5 and s["wsd"] == 1.0
    assert s["won_saw_4"] == 0.5
    assert s["net"] == 46 and s["showdown_net"] == 55 and s["non_showdown_net"] == -9
    assert s["bb_per_100"] == pytest.approx(100 * 46 / 8 / 7)
    # Rake: #35874676388 rake 4 of 84, s0rrow 27 -> 1.29 (floor 1, the spare units go to
    # Soroka69's .90 and gashpor's .29 at the lower seat); #35874733203 rake 3 of 64,
    # s0rrow 19 -> .89, one of the three largest remainders -> 1. Elsewhere 0.
    assert s["rake"] == 2
    # Rows for everyone else are there too: 8 players dealt in the 3rd hand.
    assert _one(st, "u.pressure")["showdowns"] == 1


@needs_corpus
def test_real_steals_and_three_bets_counted_by_hand() -> None:
    t = _real(
        "razz/Razz-USD-0.04-0.08-200911.txt",
        "stud-hi/7-Stud-USD-0.04-0.08-200911.txt",
        "mixed/8-Game-2max-STT-play-100-201306.homeGame.shootout.txt",
    )
    f = seat_facts(t)
    # Razz #35874780027: HIWAII2 (Qs) brings in, s0rrow (3d) completes first in with
    # SilkZone Qc, kobreli 6s, manga130 9d, meg100 5c still to act: a steal. SilkZone
    # calls, so the bring-in never faces it alone: no fold-to-steal chance.
    assert _fact(f, "35874780027", "s0rrow")["steal"]
    assert not _fact(f, "35874780027", "HIWAII2")["fold_to_steal_opp"]
    assert _fact(f, "35874780027", "SilkZone")["resteal_opp"]
    # Stud #35874081088: the bring-in s0rrow (2s) completes ("bets $0.04"): VPIP and a
    # completion; Nikolay Zem and RoadDevil call it; MasterTrini1 raises it: a 3-bet.
    s0 = _fact(f, "35874081088", "s0rrow")
    assert s0["vpip"] and s0["complete_raise"] and not s0["bring_in"] and not s0["steal"]
    assert _fact(f, "35874081088", "MasterTrini1")["three_bet"]
    for p in ("Nikolay Zem", "RoadDevil"):
        assert _fact(f, "35874081088", p)["three_bet_opp"]
        assert not _fact(f, "35874081088", p)["three_bet"]
    # 8-Game heads-up razz #99632279315: Hero brings in, Player0 completes (the only
    # player before the bring-in, so a steal), Hero folds: fold to steal.
    assert _fact(f, "99632279315", "Player0")["steal"]
    assert _fact(f, "99632279315", "Hero")["fold_to_steal"]
    # Stud #99632489947: same, but Hero calls: a fold-to-steal chance not taken, VPIP.
    h = _fact(f, "99632489947", "Hero")
    assert h["fold_to_steal_opp"] and not h["fold_to_steal"] and h["vpip"]


@needs_corpus
def test_real_all_in_on_the_ante() -> None:
    # stud-hilo/...202302.allin.ante.txt: Hero posts the ante 40 all-in, is dealt
    # [3h Ah 2s], never acts, shows down and scoops the 320 main pot (+280). Player2
    # "is sitting out" yet posts, is dealt [Js] and folds: dealt in, not VPIP.
    t = _real("stud-hilo/7-StudHL-USD-0.98-0.12-202302.allin.ante.txt")
    st = player_stats(t)
    hero = _one(st, "Hero")
    assert hero["hands"] == 1 and hero["vpip"] == 0.0 and hero["bring_in"] == 0.0
    assert hero["showdowns"] == 1 and hero["wsd"] == 1.0 and hero["net"] == 280
    assert _one(st, "Player2")["hands"] == 1 and _one(st, "Player2")["vpip"] == 0.0
    assert _fact(seat_facts(t), "241636097024", "Hero")["category"] == "three low (8 or lower)"


# ------------------------------------------------------------ identities on every input


@functools.cache
def _hands_of(source: str) -> tuple:
    """The hands of one input, parsed once per test session; skips when absent."""
    from histkit.model import Hand

    from .conftest import POKERSTARS, SAMPLE_DATA

    if source == "constructed":
        return (_long_hand(), *_hilo_hands())
    if source == "simulated":  # all three games, cash with rake and a tournament
        from histkit.simulate import simulate

        return (
            *simulate("stud_hilo", 200, seed=21, tables=2),
            *simulate("stud", 100, seed=22, players=8),
            *simulate("razz", 100, seed=23, tournament=True),
        )
    root = {"corpus": POKERSTARS, "sample_data": SAMPLE_DATA}[source]
    if not (root.is_dir() and any(root.rglob("*.txt"))):
        pytest.skip(f"{root} has no hand histories")
    from histkit.reader import iter_hands

    return tuple(h for h in iter_hands([root]) if isinstance(h, Hand))


SOURCES = ("constructed", "simulated", "corpus", "sample_data")


@pytest.mark.slow
@pytest.mark.parametrize("source", SOURCES)
def test_identities(source: str) -> None:
    t = tables_from(_hands_of(source))
    f = seat_facts(t)
    per_hand = f.groupby("hand_id").agg(
        net=("net", "sum"), rake=("rake", "first"), paid=("rake_paid", "sum")
    )
    assert (per_hand["net"] == -per_hand["rake"]).all()  # nets sum to -rake
    assert (per_hand["paid"] == per_hand["rake"]).all()  # rake shares add up
    st = player_stats(t)
    fractions = [c for c in st.columns if c.split("_")[0] in ("vpip", "went", "afq", "wsd")]
    fractions += ["wtsd", "won_saw_4", "steal", "fold_to_steal", "three_bet", "resteal"]
    for c in fractions:
        v = st[c].dropna()
        assert ((v >= 0) & (v <= 1)).all(), c
    assert (st["showdowns_won"] <= st["showdowns"]).all()
    assert (st["showdown_net"] + st["non_showdown_net"] == st["net"]).all()
    assert st["hands"].sum() == len(f)
    # A showdown needs two players who did not fold.
    sd = f[f["showdown"]]
    assert (sd.groupby("hand_id").size() >= 2).all()


@pytest.mark.slow
@pytest.mark.parametrize("source", SOURCES)
def test_hilo_outcomes_add_up_with_the_audit(source: str) -> None:
    from histkit.tables import audit_tables

    st = player_stats(audit_tables(_hands_of(source)))
    assert st.attrs["has_awards"]
    hilo = sum(st[f"hilo_{o.replace(' ', '_')}"] for o in HILO_OUTCOMES)
    assert (hilo == st["hilo_showdowns_won"]).all()
    assert (st["hilo_showdowns_won"] <= st["showdowns_won"]).all()


# ------------------------------------------------------------------------------ CLI


def _write_hands(tmp_path, hands, first_id: int = 1000) -> str:  # type: ignore[no-untyped-def]
    from dataclasses import replace

    from histkit.dialects.pokerstars_writer import write_hands

    # PokerStars hand ids are numbers; the constructed ones are names.
    numbered = [replace(h, hand_id=str(first_id + i)) for i, h in enumerate(hands)]
    path = tmp_path / "constructed.txt"
    path.write_text(write_hands(numbered), encoding="utf-8")
    return str(path)


@pytest.fixture
def constructed_file(tmp_path) -> str:  # type: ignore[no-untyped-def]
    return _write_hands(tmp_path, [_long_hand(), *_hilo_hands()])


def test_cli_json_has_the_contract_fields(constructed_file, capsys) -> None:  # type: ignore[no-untyped-def]
    import json

    from histkit.cli import main

    assert main(["stats", constructed_file, "--format", "json", "--no-audit"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert isinstance(rows, list) and rows
    need = {"player", "hands", "vpip", "net", "showdowns", "wtsd", "wsd", "bb_per_100"}
    assert all(need <= set(r) for r in rows)
    a = next(r for r in rows if r["player"] == "A")
    # A: 4 hands (ls1 + hl1..hl3); net +13 in ls1 (see test_big_bets_and_bb_per_100).
    assert a["hands"] == 4 and isinstance(a["net"], int) and 0 <= a["vpip"] <= 1
    assert a["showdowns"] == 3


def test_cli_player_game_by_and_csv(constructed_file, capsys) -> None:  # type: ignore[no-untyped-def]
    from histkit.cli import main

    assert (
        main(["stats", constructed_file, "--player", "B", "--by", "game", "--format", "csv"]) == 0
    )
    lines = capsys.readouterr().out.strip().splitlines()
    assert lines[0].startswith("player,site,money,money_unit,game,hands,vpip")
    assert sorted(line.split(",")[4] for line in lines[1:]) == ["stud", "stud_hilo"]
    assert main(["stats", constructed_file, "--game", "razz"]) == 2  # nothing matched
    assert "no hands match --game razz" in capsys.readouterr().err
    assert main(["stats", constructed_file, "--player", "nobody"]) == 2
    assert "no hands of a player 'nobody'" in capsys.readouterr().err
    assert main(["stats", constructed_file, "--since", "yesterday"]) == 2


def test_cli_text_separates_currencies(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    from histkit.cli import main

    chips = _chip_hand("tc9")
    f1 = _write_hands(tmp_path, [_long_hand()])
    (tmp_path / "t").mkdir()
    f2 = _write_hands(tmp_path / "t", [chips], 2000)
    assert main(["stats", f1, f2, "--no-audit"]) == 0
    out = capsys.readouterr().out
    assert "never added across" in out
    a_rows = [ln for ln in out.splitlines() if ln.startswith("A ")]
    assert len(a_rows) == 2 and any("$0.13" in r for r in a_rows)


def test_cli_player_detail_and_parquet_folders(constructed_file, tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    from histkit.cli import main

    assert main(["stats", constructed_file, "--player", "A"]) == 0
    out = capsys.readouterr().out
    # A's detail: 4 hands, 4th-street check-raise 1 of 1 in ls1 (see _long_hand), and the
    # audit's hi/lo outcomes for the three hi/lo showdowns A won.
    assert "== A (USD): 4 hands" in out
    row4 = next(line for line in out.splitlines() if line.startswith("4th"))
    # street, went to, aggr freq, aggr factor, fold to bet, check-raise, c-bet, ...
    assert row4.split()[5] == "100%"
    assert "hi/lo: 3 showdowns won" in out
    # The same numbers from the Parquet tables `histkit parse` writes.
    pq_dir = tmp_path / "pq"
    assert main(["parse", constructed_file, "-o", str(pq_dir), "-q"]) == 0
    capsys.readouterr()
    assert main(["stats", str(pq_dir), "--format", "json"]) == 0
    from_parquet = {r["player"]: r for r in __import__("json").loads(capsys.readouterr().out)}
    assert main(["stats", constructed_file, "--format", "json", "--no-audit"]) == 0
    from_text = {r["player"]: r for r in __import__("json").loads(capsys.readouterr().out)}
    for p, r in from_text.items():
        for k in ("hands", "vpip", "net", "showdowns", "wtsd", "wsd", "bb_per_100"):
            assert from_parquet[p][k] == r[k], (p, k)


@needs_corpus
def test_real_hilo_outcomes_and_categories_counted_by_hand() -> None:
    from histkit.reader import iter_hands
    from histkit.tables import audit_tables

    from .conftest import POKERSTARS

    files = [
        POKERSTARS / "stud-hilo/7-StudHL-USD-0.04-0.08-200911.txt",
        POKERSTARS / "stud-hilo/7-StudHL-USD-0.98-0.12-202302.allin.ante.txt",
        POKERSTARS / "stud-hi/7-Stud-USD-0.04-0.08-200911.txt",
        POKERSTARS / "razz/Razz-USD-0.04-0.08-200911.txt",
    ]
    t = audit_tables(iter_hands(files))
    bd = hilo_breakdown(t)
    # Counted from the "collected" lines of the hi/lo hands:
    #  #35874576282 u.pressure $0.37 (high) + gashpor $0.36 (low)
    #  #35874676388 gashpor $0.40 (high, flush) + s0rrow $0.40 (low 7,6,5,4,3)
    #  #35874733203 s0rrow, #35874523510 and #35874635170 rdiezchang, #35874789183
    #  TomSludge: "No low hand qualified", one player takes the pot: scoops
    #  #241636097024 Hero alone in the main pot (scoop); side pot: Player3 high,
    #  Player0 low.
    expect = {
        "s0rrow": (1, 0, 1, 0),
        "gashpor": (0, 1, 1, 0),
        "u.pressure": (0, 1, 0, 0),
        "rdiezchang": (2, 0, 0, 0),
        "TomSludge": (1, 0, 0, 0),
        "Hero": (1, 0, 0, 0),
        "Player3": (0, 1, 0, 0),
        "Player0": (0, 0, 1, 0),
    }
    got = {p: tuple(int(bd.loc[p, o]) for o in HILO_OUTCOMES) for p in expect}
    assert got == expect
    # 11 showdown wins in 7 hi/lo showdowns: 2 + 2 + 1 + 1 + 1 + 1 + 3 winners.
    assert int(bd.to_numpy().sum()) == 11
    f = seat_facts(t)
    # s0rrow's stud #35874081088 [5h 5c] 2s: buried pair; razz #35874780027 [6d 9c] 3d:
    # three to a 9; MasterTrini1 showed [Qs Qd 8h ...] in #35874081088: buried pair.
    assert _fact(f, "35874081088", "s0rrow")["category"] == "buried pair"
    assert _fact(f, "35874780027", "s0rrow")["category"] == "three to a 9 or higher"
    assert _fact(f, "35874081088", "MasterTrini1")["category"] == "buried pair"
    # 7th street in the hi/lo file: s0rrow acted facing a bet only in #35874676388 (one
    # call; checks elsewhere do not count): aggression frequency 0 of 1.
    st = player_stats(t, Filters(player="s0rrow", game="stud_hilo"))
    assert st.iloc[0]["afq_7"] == 0.0 and st.iloc[0]["hilo_scooped"] == 1
