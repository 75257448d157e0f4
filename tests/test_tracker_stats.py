"""The stats stud trackers have, each on a hand built to show it (docs/stats.md): where
the chance and the action are known, and where the chance is absent."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from histkit.stats import player_stats, seat_facts
from histkit.tables import tables_from

from .conftest import needs_corpus
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


# ------------------------------------------------------ 3rd street: 4-bets and folds

_FOUR = "A:1:100 B:2:100 C:3:100 D:4:100"
_DOORS = {"A": "?? ?? 2c", "B": "?? ?? 5s", "C": "?? ?? Kd", "D": "?? ?? Qh"}


def _raise_hands() -> list[object]:
    """Completion (B), 3-bet (C), and then: a 4-bet by D that C folds to (rb1); B folding
    to the 3-bet (rb2); B 4-betting and C calling it (rb3)."""
    return [
        build(
            "rb1", seats=_FOUR, cards=_DOORS,
            streets={3: "A bring_in 2; B raise 2 4; C raise 4 8; D raise 4 12; A fold; "
                        "B fold; C fold"},
            uncalled=("D", 4), collects="D:26",
        ),
        build(
            "rb2", seats=_FOUR, cards=_DOORS,
            streets={3: "A bring_in 2; B raise 2 4; C raise 4 8; D fold; A fold; B fold"},
            uncalled=("C", 4), collects="C:14",
        ),
        build(
            "rb3", seats=_FOUR, cards=_DOORS,
            streets={3: "A bring_in 2; B raise 2 4; C raise 4 8; D fold; A fold; "
                        "B raise 4 12; C call 4", 4: "B bet 4; C fold"},
            uncalled=("B", 4), collects="B:30",
        ),
    ]  # fmt: skip


def test_four_bet_and_folds_to_three_and_four_bets() -> None:
    f = _facts(*_raise_hands())
    # rb1: D faced exactly the 3-bet and raised: a 4-bet. B, the completer, next acted
    # facing the 4-bet: no fold-to-3-bet chance. C, the 3-bettor, folded to the 4-bet.
    d, b, c = _fact(f, "rb1", "D"), _fact(f, "rb1", "B"), _fact(f, "rb1", "C")
    assert d["four_bet_opp"] and d["four_bet"] and not d["three_bet_opp"]
    assert not b["fold_to_three_bet_opp"] and not b["four_bet_opp"]
    assert c["three_bet"] and c["fold_to_four_bet_opp"] and c["fold_to_four_bet"]
    # rb2: B folds to the 3-bet; D faced it and folded (a 4-bet chance not taken)
    b, d = _fact(f, "rb2", "B"), _fact(f, "rb2", "D")
    assert b["fold_to_three_bet_opp"] and b["fold_to_three_bet"]
    assert d["four_bet_opp"] and not d["four_bet"]
    assert not _fact(f, "rb2", "C")["fold_to_four_bet_opp"]  # no 4-bet: no chance
    # rb3: B (the completer) 4-bets the 3-bet; C calls the 4-bet
    b, c = _fact(f, "rb3", "B"), _fact(f, "rb3", "C")
    assert b["fold_to_three_bet_opp"] and not b["fold_to_three_bet"] and b["four_bet"]
    assert c["fold_to_four_bet_opp"] and not c["fold_to_four_bet"]
    st = player_stats(tables_from(_raise_hands()))
    assert (
        _one(st, "B")["fold_to_three_bet"] == 0.5 and _one(st, "B")["fold_to_three_bet_opps"] == 2
    )
    assert _one(st, "C")["fold_to_four_bet"] == 0.5 and _one(st, "C")["three_bet"] == 1.0
    # D faced the 3-bet in all three hands, and 4-bet it once
    assert _one(st, "D")["four_bet"] == 1 / 3 and _one(st, "D")["four_bet_opps"] == 3
    # A, the bring-in, faced a 3-bet or more at his next turn: no bring-in defence chance
    assert _one(st, "A")["bring_in_defences"] == 0 and np.isnan(_one(st, "A")["bring_in_fold"])


def test_no_four_bet_chance_without_a_three_bet() -> None:
    f = _facts(_cbet_hand())
    assert not f["four_bet_opp"].any() and not f["fold_to_three_bet_opp"].any()
    assert not f["fold_to_four_bet_opp"].any()


# ------------------------------------------------- steal success and bring-in defence


def _steal_hands() -> list[object]:
    """C (Kd) steals with only D (Qh) and the bring-in A to act: everyone folds (ss1); D
    calls (ss2). ss3: B calls the bring-in first, so C's completion is no steal."""
    return [
        build(
            "ss1", seats=_FOUR, cards=_DOORS,
            streets={3: "A bring_in 2; B fold; C raise 2 4; D fold; A fold"},
            uncalled=("C", 2), collects="C:8",
        ),
        build(
            "ss2", seats=_FOUR, cards=_DOORS,
            streets={3: "A bring_in 2; B fold; C raise 2 4; D call 4; A fold",
                     4: "D check; C bet 4; D fold"},
            uncalled=("C", 4), collects="C:14",
        ),
        build(
            "ss3", seats=_FOUR, cards=_DOORS,
            streets={3: "A bring_in 2; B call 2; C raise 2 4; D fold; A fold; B fold"},
            uncalled=("C", 0), collects="C:12",
        ),
    ]  # fmt: skip


def test_steal_success() -> None:
    f = _facts(*_steal_hands())
    assert _fact(f, "ss1", "C")["steal"] and _fact(f, "ss1", "C")["steal_won"]
    assert _fact(f, "ss2", "C")["steal"] and not _fact(f, "ss2", "C")["steal_won"]
    c3 = _fact(f, "ss3", "C")
    assert not c3["steal_opp"] and not c3["steal"] and not c3["steal_won"]
    st = player_stats(tables_from(_steal_hands()))
    c = _one(st, "C")
    assert c["steals"] == 2 and c["steal_success"] == 0.5 and c["steal_opps"] == 2
    assert np.isnan(_one(st, "B")["steal_success"])


def _defence_hands() -> list[object]:
    """The bring-in A faces a completion and calls (bd1, C's completion called by D
    first), re-raises (bd2) and folds (bd3)."""
    return [
        build(
            "bd1", seats=_FOUR, cards=_DOORS,
            streets={3: "A bring_in 2; B fold; C raise 2 4; D call 4; A call 2",
                     4: "A check; C bet 4; D fold; A fold"},
            uncalled=("C", 4), collects="C:16",
        ),
        build(
            "bd2", seats=_FOUR, cards=_DOORS,
            streets={3: "A bring_in 2; B raise 2 4; C fold; D fold; A raise 4 8; B call 4",
                     4: "A bet 4; B fold"},
            uncalled=("A", 4), collects="A:20",
        ),
        build(
            "bd3", seats=_FOUR, cards=_DOORS,
            streets={3: "A bring_in 2; B raise 2 4; C fold; D fold; A fold"},
            uncalled=("B", 2), collects="B:8",
        ),
    ]  # fmt: skip


def test_bring_in_defence_call_reraise_fold() -> None:
    f = _facts(*_defence_hands())
    answers = {h: _fact(f, h, "A") for h in ("bd1", "bd2", "bd3")}
    assert all(a["bring_in_def_opp"] for a in answers.values())
    assert answers["bd1"]["bring_in_call"] and not answers["bd1"]["bring_in_fold"]
    assert answers["bd2"]["bring_in_reraise"] and answers["bd2"]["three_bet"]
    assert answers["bd3"]["bring_in_fold"] and not answers["bd3"]["bring_in_call"]
    # only the bring-in is counted: D, facing the same completion in bd1, is not
    assert not _fact(f, "bd1", "D")["bring_in_def_opp"]
    st = player_stats(tables_from(_defence_hands()))
    a = _one(st, "A")
    assert a["bring_in_defences"] == 3
    shares = [a["bring_in_call"], a["bring_in_reraise"], a["bring_in_fold"]]
    assert shares == [1 / 3, 1 / 3, 1 / 3]
    # everyone called the bring-in: no completion, no chance
    f = _facts(_no_aggression_hand())
    assert not f["bring_in_def_opp"].any()


# ------------------------------------------------------------ by position and by door


def _full_table() -> object:
    """Eight seats, P3 brings in: P4 and P5 act first (early), P6 and P7 next (middle),
    P8, P1 and P2 last before the bring-in (late). Everyone folds to P3."""
    players = [f"P{i}" for i in range(1, 9)]
    doors = dict(zip(players, ["Ah", "Kd", "2c", "Qs", "Jh", "Td", "9s", "8c"], strict=True))
    folds = "; ".join(f"{p} fold" for p in ("P4", "P5", "P6", "P7", "P8", "P1", "P2"))
    return build(
        "pos8",
        seats=" ".join(f"{p}:{i}:100" for i, p in enumerate(players, 1)),
        cards={p: f"?? ?? {d}" for p, d in doors.items()},
        streets={3: f"P3 bring_in 2; {folds}"},
        uncalled=("P3", 1),
        collects="P3:9",
    )


def test_positions_from_the_bring_in() -> None:
    f = _facts(_full_table())
    got = {p: _fact(f, "pos8", p)["position"] for p in f["player"]}
    assert got == {
        "P4": "early", "P5": "early", "P6": "middle", "P7": "middle",
        "P8": "late", "P1": "late", "P2": "late", "P3": "bring-in",
    }  # fmt: skip
    # the doors: P1's ace is the best, P3's deuce (the bring-in's) the worst
    doors = {p: _fact(f, "pos8", p)["door"] for p in f["player"]}
    assert doors["P1"] == "best" and doors["P3"] == "worst" and doors["P5"] == "middle"
    st = player_stats(tables_from([_full_table()]), by="position")
    assert dict(zip(st["player"], st["position"], strict=True)) == got  # one row each
    one = player_stats(tables_from([_full_table(), _full_table_as("pos8b", "P5")]), by="position")
    p5 = one[one["player"] == "P5"]
    assert list(p5["position"]) == ["early", "bring-in"] and list(p5["hands"]) == [1, 1]


def _full_table_as(hand_id: str, bring_in: str) -> object:
    """Four seats, `bring_in` brings in and everyone folds."""
    players = ["P4", "P5", "P6", "P7"]
    order = players[players.index(bring_in) + 1 :] + players[: players.index(bring_in)]
    return build(
        hand_id,
        seats=" ".join(f"{p}:{i}:100" for i, p in enumerate(players, 4)),
        cards={p: "?? ?? 2c" if p == bring_in else "?? ?? Kd" for p in players},
        streets={3: f"{bring_in} bring_in 2; " + "; ".join(f"{p} fold" for p in order)},
        uncalled=(bring_in, 1),
        collects=f"{bring_in}:5",
    )


def test_short_tables_and_no_turn() -> None:
    # Five seats, E all-in on the ante: A brings in; B, C and D are the last three with
    # a turn before him (late); E had no turn (none). Doors: B and C tie for the best.
    h = build(
        "pos5",
        seats="A:1:100 B:2:100 C:3:100 D:4:100 E:5:1",
        cards={"A": "?? ?? 2c", "B": "?? ?? Kd", "C": "?? ?? Kh", "D": "?? ?? 9s",
               "E": "?? ?? 5d"},
        ante_allin=("E",),
        streets={3: "A bring_in 2; B fold; C fold; D fold"},
        uncalled=("A", 1),
        collects="A:6",
    )  # fmt: skip
    f = _facts(h)
    pos = {p: _fact(f, "pos5", p)["position"] for p in "ABCDE"}
    assert pos == {"A": "bring-in", "B": "late", "C": "late", "D": "late", "E": "none"}
    door = {p: _fact(f, "pos5", p)["door"] for p in "ABCDE"}
    assert door == {"A": "worst", "B": "best", "C": "best", "D": "middle", "E": "middle"}


def test_razz_doors_are_best_low() -> None:
    h = build(
        "rz1",
        game="razz",
        seats="A:1:100 B:2:100 C:3:100",
        cards={"A": "?? ?? Kc", "B": "?? ?? As", "C": "?? ?? 5d"},
        streets={3: "A bring_in 2; B fold; C fold"},
        uncalled=("A", 1),
        collects="A:4",
    )
    f = _facts(h)
    door = {p: _fact(f, "rz1", p)["door"] for p in "ABC"}
    assert door == {"A": "worst", "B": "best", "C": "middle"}


def test_cli_by_position_and_door(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    import json

    from histkit.cli import main

    path = tmp_path / "hands.txt"
    assert main(["simulate", "--hands", "30", "--seed", "3", "-o", str(path), "-q"]) == 0
    capsys.readouterr()
    assert main(["stats", str(path), "--by", "position", "--format", "json", "-q"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert {r["position"] for r in rows} <= {"early", "middle", "late", "bring-in", "none"}
    assert main(["stats", str(path), "--format", "json", "-q"]) == 0
    whole = json.loads(capsys.readouterr().out)
    # every hand of a player is in one position: the rows add up to his hands
    for r in whole:
        mine = [x for x in rows if x["player"] == r["player"] and x["site"] == r["site"]]
        assert sum(x["hands"] for x in mine) == r["hands"]
        assert sum(x["steal_opps"] for x in mine) == r["steal_opps"]
    assert main(["stats", str(path), "--by", "door", "--format", "json", "-q"]) == 0
    doors = json.loads(capsys.readouterr().out)
    assert {r["door"] for r in doors} <= {"best", "middle", "worst", "unknown"}
    assert sum(r["hands"] for r in doors) == sum(r["hands"] for r in whole)
    with pytest.raises(SystemExit):
        main(["stats", "--help"])
    assert "--by position" in capsys.readouterr().out


# ------------------------------------------------------------ won when saw 4th


def test_won_when_saw_fourth() -> None:
    # cb1: B and C saw 4th; B won (C folded to his continuation bet); A folded on 3rd, so
    # he has no chance. Everyone-folds-on-3rd (bd3): nobody saw 4th, no chance at all.
    st = player_stats(tables_from([_cbet_hand(), _defence_hands()[2]]))
    b, c, a = _one(st, "B"), _one(st, "C"), _one(st, "A")
    assert b["won_saw_4"] == 1.0 and b["saw_4"] == 1  # cb1 only: bd3 ended on 3rd
    assert c["won_saw_4"] == 0.0 and c["saw_4"] == 1
    assert np.isnan(a["won_saw_4"]) and a["saw_4"] == 0


# ---------------------------------------------------------------- real hands


@needs_corpus
def test_real_hands_counted_by_hand() -> None:
    from histkit.reader import iter_hands

    from .conftest import POKERSTARS

    path = POKERSTARS / "mixed/8-Game-2max-STT-play-100-201306.homeGame.shootout.txt"
    f = seat_facts(tables_from(iter_hands([path])))
    # Stud #99632489947, heads-up: Hero (door 2d) brings in, Player0 (As) completes (a
    # steal), Hero calls: the bring-in's defence is a call and the steal no success.
    # 4th: Player0 bets first (continuation bet), Hero calls it; 5th: Player0, 4th's
    # aggressor, bets again and Hero folds to it.
    hero, p0 = _fact(f, "99632489947", "Hero"), _fact(f, "99632489947", "Player0")
    assert hero["position"] == "bring-in" and p0["position"] == "late"
    assert hero["door"] == "worst" and p0["door"] == "best"
    assert hero["bring_in_def_opp"] and hero["bring_in_call"]
    assert p0["steal"] and not p0["steal_won"]
    assert p0["cbet_opp_4"] and p0["cbet_4"] and p0["cbet_5"]
    assert hero["fold_to_cbet_opp_4"] and not hero["fold_to_cbet_4"]
    assert hero["fold_to_cbet_opp_5"] and hero["fold_to_cbet_5"]
    # Stud #99632498288: Hero completes ("bets 40") instead of bringing in, Player0
    # calls. 4th: Player0 checks first (a donk chance not taken), Hero checks behind (a
    # continuation bet chance not taken); 5th: nobody bet 4th, so no chance at all.
    hero, p0 = _fact(f, "99632498288", "Hero"), _fact(f, "99632498288", "Player0")
    assert hero["position"] == "bring-in" and not hero["bring_in_def_opp"]
    assert hero["cbet_opp_4"] and not hero["cbet_4"]
    assert p0["donk_opp_4"] and not p0["donk_4"]
    assert not hero["cbet_opp_5"] and not p0["donk_opp_5"]
    # 8-Game heads-up razz #99632279315: Player0 steals, Hero (the bring-in) folds: a
    # steal success, and the bring-in's defence a fold.
    assert _fact(f, "99632279315", "Player0")["steal_won"]
    assert _fact(f, "99632279315", "Hero")["bring_in_fold"]


def test_api_by_position(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import histkit
    from histkit.cli import main

    path = tmp_path / "hands.txt"
    assert main(["simulate", "--hands", "20", "--seed", "5", "-o", str(path), "-q"]) == 0
    whole = histkit.stats(path, audit=False)
    rows = histkit.stats(path, by="position", audit=False)
    assert set(rows["position"]) <= {"early", "middle", "late", "bring-in", "none"}
    assert rows["hands"].sum() == whole["hands"].sum()
    # only the first to act on 3rd posts the bring-in
    others = rows[rows["position"].isin(["early", "middle", "late"])]
    assert (others["bring_in"] == 0).all() and len(others)
    assert (rows[rows["position"] == "bring-in"]["bring_in"] > 0).any()
    with pytest.raises(ValueError, match="position, door"):
        histkit.stats(path, by="seat", audit=False)
