"""The stats stud trackers have, each on a hand built to show it (docs/stats.md): where
the chance and the action are known, and where the chance is absent."""

from __future__ import annotations

import numpy as np
import pandas as pd

from histkit.stats import player_stats, seat_facts
from histkit.tables import tables_from

from .stud_builder import build


def _facts(*hands):  # type: ignore[no-untyped-def]
    return seat_facts(tables_from(hands))


def _fact(facts: pd.DataFrame, hand_id: str, player: str) -> pd.Series:
    row = facts[(facts["hand_id"] == hand_id) & (facts["player"] == player)]
    assert len(row) == 1
    return row.iloc[0]


def _one(stats: pd.DataFrame, player: str) -> pd.Series:
    rows = stats[stats["player"] == player]
    assert len(rows) == 1, rows
    return rows.iloc[0]


# --------------------------------------------------- continuation bets and donk bets


def _cbet_hand() -> object:
    """3rd: A brings in, B completes (the aggressor), C calls, A folds. 4th: C checks,
    B bets (a continuation bet), C folds to it."""
    return build(
        "cb1",
        seats="A:1:100 B:2:100 C:3:100",
        cards={"A": "?? ?? 2c", "B": "?? ?? Kd", "C": "?? ?? 9h"},
        streets={3: "A bring_in 2; B raise 2 4; C call 4; A fold", 4: "C check; B bet 4; C fold"},
        uncalled=("B", 4),
        collects="B:13",
    )


def _donk_hand() -> object:
    """3rd: A brings in, B completes, C calls, A calls. 4th: A leads (a donk bet into B,
    who acts after him), B raises, C folds, A calls. 5th: A checks, B bets (a
    continuation bet: B made 4th's last raise), A folds."""
    return build(
        "dk1",
        seats="A:1:100 B:2:100 C:3:100",
        cards={"A": "?? ?? 2c", "B": "?? ?? Kd", "C": "?? ?? 9h"},
        streets={
            3: "A bring_in 2; B raise 2 4; C call 4; A call 2",
            4: "A bet 4; B raise 4 8; C fold; A call 4",
            5: "A check; B bet 8; A fold",
        },
        uncalled=("B", 8),
        collects="B:31",
    )


def _no_aggression_hand() -> object:
    """3rd: A brings in, B and C call it: nobody completed, so nobody is 3rd's aggressor.
    4th: B bets, C calls, A folds. 5th: C bets, B folds: C was not 4th's aggressor."""
    return build(
        "na1",
        seats="A:1:100 B:2:100 C:3:100",
        cards={"A": "?? ?? 2c", "B": "?? ?? Kd", "C": "?? ?? 9h"},
        streets={
            3: "A bring_in 2; B call 2; C call 2",
            4: "B bet 4; C call 4; A fold",
            5: "C bet 8; B fold",
        },
        uncalled=("C", 8),
        collects="C:17",
    )


def test_continuation_bet_and_fold_to_it() -> None:
    f = _facts(_cbet_hand())
    b, c, a = _fact(f, "cb1", "B"), _fact(f, "cb1", "C"), _fact(f, "cb1", "A")
    assert b["cbet_opp_4"] and b["cbet_4"]
    assert c["fold_to_cbet_opp_4"] and c["fold_to_cbet_4"]
    # C checked before B's turn: no bet made, but C is not 3rd's aggressor and B was still
    # to act: a donk chance C did not take.
    assert c["donk_opp_4"] and not c["donk_4"] and not c["cbet_opp_4"]
    assert not a["fold_to_cbet_opp_4"] and not b["fold_to_cbet_opp_4"]
    st = player_stats(tables_from([_cbet_hand()]))
    assert _one(st, "B")["cbet_4"] == 1.0 and np.isnan(_one(st, "B")["cbet_5"])
    assert _one(st, "C")["fold_to_cbet_4"] == 1.0 and _one(st, "C")["donk_4"] == 0.0
    assert np.isnan(_one(st, "C")["cbet_4"])


def test_donk_bet_and_the_aggressor_facing_it() -> None:
    f = _facts(_donk_hand())
    a, b, c = _fact(f, "dk1", "A"), _fact(f, "dk1", "B"), _fact(f, "dk1", "C")
    assert a["donk_opp_4"] and a["donk_4"]
    # B's turn came after A's bet: no continuation bet chance on 4th
    assert not b["cbet_opp_4"] and not b["cbet_4"]
    # C's turn came after a bet: no donk chance; no continuation bet to fold to
    assert not c["donk_opp_4"] and not c["fold_to_cbet_opp_4"]
    # 5th: B made 4th's last raise; A checked to him, B bet, A folded
    assert b["cbet_opp_5"] and b["cbet_5"]
    assert a["donk_opp_5"] and not a["donk_5"]
    assert a["fold_to_cbet_opp_5"] and a["fold_to_cbet_5"]
    st = player_stats(tables_from([_donk_hand()]))
    assert _one(st, "A")["donk_4"] == 1.0 and _one(st, "A")["donk_5"] == 0.0
    assert np.isnan(_one(st, "B")["cbet_4"]) and _one(st, "B")["cbet_5"] == 1.0


def test_no_continuation_bet_without_an_aggressor() -> None:
    f = _facts(_no_aggression_hand())
    for p in ("A", "B", "C"):
        row = _fact(f, "na1", p)
        for flag in ("cbet_opp", "donk_opp", "fold_to_cbet_opp"):
            assert not row[f"{flag}_4"], (p, flag)
    # 4th's aggressor is B: C's bet on 5th, B still to act, is a donk bet; B folds to a
    # donk bet, not to a continuation bet
    c, b = _fact(f, "na1", "C"), _fact(f, "na1", "B")
    assert c["donk_opp_5"] and c["donk_5"] and not c["cbet_opp_5"]
    assert not b["cbet_opp_5"] and not b["fold_to_cbet_opp_5"]
