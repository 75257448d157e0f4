"""Player statistics for stud, computed from the histkit tables with pandas group-bys.

Two layers, so every figure can be traced back to the hands it came from:

- `seat_facts(tables)`: one row per hand and player dealt in, with the counters and flags
  of that hand (VPIP, steal spot, went to 5th, aggressive actions on 6th, showdown, net,
  rake share, starting-hand category, hi/lo outcome ...). Nothing is summarised yet.
- `player_stats(tables)`: those rows summed per player (and per game/stakes/table with
  `by=`), with each percentage as numerator / denominator of the summed counters.

The definitions are in docs/stats.md (one table); this module must agree with it.
Money stays integer minor units (`hands.unit`); only ratios (VPIP, bb/100) are floats.
Figures are never summed across currencies or units: `money` is always part of the
group key (and `require_single_money` refuses a mix where one figure is wanted).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from histkit.money import (
    format_amount,
    format_money,
    money_label,
    money_parts,
    money_unit_of,
    stakes_label,
)
from histkit.selection import (
    Filters,
    MissingTableError,
    filter_hands,
    frames,
    load,
)
from histkit.statdefs import STATS, STREETS, Kind, layout

__all__ = [
    "STREETS",
    "GROUPS",
    "HILO_OUTCOMES",
    "CATEGORIES",
    "Filters",
    "MixedMoneyError",
    "MissingTableError",
    "frames",
    "load",
    "filter_hands",
    "seat_facts",
    "player_stats",
    "category_results",
    "street_stats",
    "hilo_breakdown",
    "require_single_money",
    "format_money",
    "format_amount",
    "money_label",
    "money_parts",
    "money_unit_of",
    "stakes_label",
]

#: what `player_stats(by=...)` can group by besides player and money
GROUPS: tuple[str, ...] = ("game", "stakes", "table", "session")
AGGRESSIVE = ("bet", "raise", "complete")
VOLUNTARY = ("call", "bet", "raise", "complete")
HILO_OUTCOMES: tuple[str, ...] = ("scooped", "high only", "low only", "split or quartered")

#: Starting-hand categories per game, best first (the order plots use).
CATEGORIES: dict[str, tuple[str, ...]] = {
    "stud": (
        "rolled-up trips",
        "buried pair",
        "split pair",
        "three to a straight flush",
        "three to a flush",
        "three to a straight",
        "other",
    ),
    "stud_hilo": (
        "rolled-up trips",
        "buried pair",
        "split pair",
        "three low (8 or lower)",
        "three to a flush",
        "three to a straight",
        "other",
    ),
    "razz": (
        "three to a 5",
        "three to a 6",
        "three to a 7",
        "three to an 8",
        "three to a 9 or higher",
        "paired",
        "rolled-up trips",
    ),
}


class MixedMoneyError(ValueError):
    """Raised when one figure would add amounts of different currencies or units."""


_RANKS = {c: i + 2 for i, c in enumerate("23456789TJQKA")}
_TOURNAMENT_COLUMNS = ("tournament_id", "buy_in_amount", "buy_in_fee", "buy_in_currency")
_KEY = ["hand_id", "player"]


def _keys(facts: pd.DataFrame, df: pd.DataFrame) -> np.ndarray:
    """One int64 per (hand_id, player) of `df`, numbered like `facts` (-1: not in facts),
    so the per-seat flags below are integer `isin`s, not string joins."""
    hands = pd.Index(facts["hand_id"].unique())
    players = pd.Index(facts["player"].unique())
    h = hands.get_indexer(df["hand_id"])
    p = players.get_indexer(df["player"])
    return np.where((h >= 0) & (p >= 0), h.astype("int64") * len(players) + p, -1)


def _mark(facts: pd.DataFrame, rows: pd.DataFrame) -> np.ndarray:
    """True where (hand_id, player) of `facts` occurs in `rows` (both carry `_k`)."""
    if rows.empty:
        return np.zeros(len(facts), dtype=bool)
    return np.isin(facts["_k"].to_numpy(), rows["_k"].to_numpy())


def _count(facts: pd.DataFrame, rows: pd.DataFrame) -> np.ndarray:
    """Number of `rows` per (hand_id, player) of `facts` (both carry `_k`)."""
    if rows.empty:
        return np.zeros(len(facts), dtype="int64")
    n = rows["_k"].value_counts()
    return n.reindex(facts["_k"].to_numpy(), fill_value=0).to_numpy(dtype="int64")


def _betting(actions: pd.DataFrame) -> pd.DataFrame:
    """Non-ante actions in order with the state each one faced on its street."""
    a = actions[actions["kind"].ne("ante")].sort_values(["hand_id", "seq"]).reset_index(drop=True)
    a["aggr"] = a["kind"].isin(AGGRESSIVE)
    a["is_call"] = a["kind"].eq("call")
    g = a.groupby(["hand_id", "street"], sort=False)
    a["n_aggr_before"] = g["aggr"].cumsum() - a["aggr"]
    a["n_call_before"] = g["is_call"].cumsum() - a["is_call"]
    return a


def _door_cards(cards: pd.DataFrame) -> pd.DataFrame:
    up3 = cards[(cards["street"] == 3) & cards["up"] & cards["player"].notna()]
    d = up3.drop_duplicates(_KEY)[[*_KEY, "card"]].rename(columns={"card": "door"})
    return d


def _rank_hi(card: pd.Series) -> np.ndarray:
    return card.str[0].map(_RANKS).to_numpy(dtype="float64")


# Hi/lo door strength: ace, then the low cards from the deuce up, then the high cards
# from the king down (a 2 threatens more than an 8, any low card more than a king).
_HILO_STRENGTH = {
    14: 13,
    2: 12,
    3: 11,
    4: 10,
    5: 9,
    6: 8,
    7: 7,
    8: 6,
    13: 5,
    12: 4,
    11: 3,
    10: 2,
    9: 1,
}


def _door_strength(game: np.ndarray, rank: np.ndarray) -> np.ndarray:
    """A door card's threat for a steal, higher is stronger (docs/stats.md): stud by rank,
    razz by low value (ace best), hi/lo by `_HILO_STRENGTH`; NaN stays NaN."""
    hilo = pd.Series(rank).map(_HILO_STRENGTH).to_numpy(dtype="float64")
    razz = 15.0 - np.where(rank == 14, 1, rank)
    return np.where(game == "razz", razz, np.where(game == "stud_hilo", hilo, rank))


def _third_street(facts: pd.DataFrame, a: pd.DataFrame, fr: dict[str, pd.DataFrame]) -> None:
    """VPIP, completion, bring-in, steal, fold-to-steal, re-steal and 3-bet flags."""
    a3 = a[a["street"] == 3]
    facts["vpip"] = _mark(facts, a3[a3["kind"].isin(VOLUNTARY)])
    facts["complete_raise"] = _mark(facts, a3[a3["aggr"]])
    facts["bring_in"] = _mark(facts, a3[a3["kind"].eq("bring_in")])
    facts["three_bet_opp"] = _mark(facts, a3[a3["n_aggr_before"].eq(1)])
    facts["three_bet"] = _mark(facts, a3[a3["n_aggr_before"].eq(1) & a3["aggr"]])

    # Positions clockwise from the first player to act on 3rd (the bring-in).
    seats = facts[[*_KEY, "seat", "game", "allin_ante"]]
    opener = a3.drop_duplicates("hand_id")[["hand_id", "player"]].rename(
        columns={"player": "opener"}
    )
    pos = seats.merge(opener, on="hand_id").merge(
        seats[["hand_id", "player", "seat"]].rename(
            columns={"player": "opener", "seat": "opener_seat"}
        ),
        on=["hand_id", "opener"],
    )
    pos["pos"] = (pos["seat"] - pos["opener_seat"]) % 1000
    pos = pos.merge(_door_cards(fr["cards"]), on=_KEY, how="left")
    pos["door_rank"] = _door_strength(pos["game"].to_numpy(), _rank_hi(pos["door"].fillna("?")))

    # First-in spots: nobody has called the bring-in or completed yet. A spot is a steal
    # spot when the player's door beats every door still to act except the bring-in's.
    spots = a3[a3["n_aggr_before"].eq(0) & a3["n_call_before"].eq(0) & a3["kind"].ne("bring_in")][
        ["hand_id", "player", "seq", "aggr", "_k"]
    ]
    spots = spots.merge(pos[[*_KEY, "pos", "door_rank"]], on=_KEY)
    others = pos[~pos["allin_ante"] & pos["pos"].gt(0)][["hand_id", "player", "pos", "door_rank"]]
    others = others.rename(
        columns={"player": "other", "pos": "other_pos", "door_rank": "other_rank"}
    )
    pairs = spots.merge(others, on="hand_id")
    pairs = pairs[pairs["other_pos"].gt(pairs["pos"])]
    # Unknown doors never count as beaten (NaN comparisons are False).
    pairs = pairs.assign(unbeaten=~(pairs["door_rank"] > pairs["other_rank"]))
    if pairs.empty:  # heads-up, or nobody left to act but the bring-in
        spots["n_unbeaten"] = 0
    else:
        n = pairs.groupby(["hand_id", "seq"], as_index=False)["unbeaten"].sum()
        spots = spots.merge(n.rename(columns={"unbeaten": "n_unbeaten"}), how="left")
    ok = spots[spots["n_unbeaten"].fillna(0).eq(0) & spots["door_rank"].notna()]
    facts["steal_opp"] = _mark(facts, ok)
    steals = ok[ok["aggr"]][["hand_id", "player", "seq", "_k"]]
    facts["steal"] = _mark(facts, steals)

    # Responses to a steal: each player's first action after it, if nobody in between
    # called or raised (the steal is still "alone").
    stealers = steals.drop(columns="_k").rename(columns={"player": "stealer", "seq": "steal_seq"})
    after = a3.merge(stealers, on="hand_id")
    after = after[after["seq"].gt(after["steal_seq"])].sort_values(["hand_id", "seq"])
    after["in"] = after["kind"].isin(VOLUNTARY)
    after["n_in_before"] = after.groupby("hand_id")["in"].cumsum() - after["in"]
    first = after[after["player"].ne(after["stealer"])].drop_duplicates(_KEY)
    alone = first[first["n_in_before"].eq(0)]
    facts["resteal_opp"] = _mark(facts, alone)
    facts["resteal"] = _mark(facts, alone[alone["aggr"]])
    bi = alone.merge(a3[a3["kind"].eq("bring_in")][_KEY], on=_KEY)
    facts["fold_to_steal_opp"] = _mark(facts, bi)
    facts["fold_to_steal"] = _mark(facts, bi[bi["kind"].eq("fold")])


def _later_streets(facts: pd.DataFrame, a: pd.DataFrame) -> None:
    """Per street: action counts, fold to a bet, check-raise (numpy on the int keys:
    this runs 5 streets x 7 flags over every action)."""
    fk = facts["_k"].to_numpy()
    k = a["_k"].to_numpy()
    street = a["street"].to_numpy()
    kind = a["kind"].to_numpy(dtype=object)
    aggr = a["aggr"].to_numpy(dtype=bool)
    group = k * 8 + street  # one group per hand, player and street; `a` is in seq order
    first = ~pd.Series(group).duplicated().to_numpy()
    facing = a["n_aggr_before"].to_numpy() > 0
    first_facing = np.zeros(len(a), dtype=bool)
    idx = np.flatnonzero(facing)
    first_facing[idx[~pd.Series(group[idx]).duplicated().to_numpy()]] = True
    uniq, sizes = np.unique(group, return_counts=True)
    checked_groups = np.intersect1d(group[first & (kind == "check")], uniq[sizes > 1])
    checked_first = np.isin(group, checked_groups)
    not_bring_in = kind != "bring_in"
    is_call, is_fold = kind == "call", kind == "fold"

    def mark(mask: np.ndarray) -> np.ndarray:
        return np.isin(fk, k[mask])

    def count(mask: np.ndarray) -> np.ndarray:
        vals, n = np.unique(k[mask], return_counts=True)
        if not len(vals):
            return np.zeros(len(fk), dtype="int64")
        pos = np.clip(np.searchsorted(vals, fk), 0, len(vals) - 1)
        return np.where(vals[pos] == fk, n[pos], 0).astype("int64")

    for s in STREETS:
        on = street == s
        facts[f"aggr_{s}"] = count(on & aggr & not_bring_in)
        facts[f"calls_{s}"] = count(on & is_call)
        facts[f"folds_{s}"] = count(on & is_fold)
        facts[f"fold_to_bet_opp_{s}"] = mark(on & first_facing)
        facts[f"fold_to_bet_{s}"] = mark(on & first_facing & is_fold)
        facts[f"check_raise_opp_{s}"] = mark(on & checked_first)
        facts[f"check_raise_{s}"] = mark(on & checked_first & aggr)


def _rake_shares(facts: pd.DataFrame) -> np.ndarray:
    """Each hand's rake shared by contribution, in whole minor units summing to the rake
    (largest remainders first, ties to the larger contribution, then the lower seat)."""
    c = facts["contributed"].to_numpy(dtype="int64")
    rake = facts["rake"].to_numpy(dtype="int64")
    total = facts.groupby("hand_id")["contributed"].transform("sum").to_numpy(dtype="int64")
    safe = np.where(total > 0, total, 1)
    base = rake * c // safe
    rem = rake * c - base * safe
    left = rake - pd.Series(base).groupby(facts["hand_id"].to_numpy()).transform("sum").to_numpy()
    order = pd.DataFrame(
        {"h": facts["hand_id"].to_numpy(), "rem": -rem, "c": -c, "s": facts["seat"]}
    )
    order = order.sort_values(["h", "rem", "c", "s"])
    rank = np.empty(len(order), dtype="int64")
    rank[order.index.to_numpy()] = order.groupby("h").cumcount().to_numpy()
    return base + (rank < left).astype("int64")


def _categories(facts: pd.DataFrame, cards: pd.DataFrame) -> pd.Series:
    """The starting-hand category from the three 3rd-street cards, where all are known."""
    c3 = cards[(cards["street"] == 3) & cards["player"].notna() & cards["known"]]
    c3 = c3.assign(slot=c3.groupby([*_KEY, "up"]).cumcount())
    c3 = c3[(c3["up"] & c3["slot"].eq(0)) | (~c3["up"] & c3["slot"].lt(2))]
    wide = c3.pivot_table(index=_KEY, columns=["up", "slot"], values="card", aggfunc="first")
    need = [(False, 0), (False, 1), (True, 0)]
    if wide.empty or any(k not in wide.columns for k in need):
        return pd.Series(None, index=facts.index, dtype="object")
    wide = wide[need].dropna()
    wide.columns = ["d1", "d2", "door"]
    w = facts[[*_KEY, "game"]].merge(wide, left_on=_KEY, right_index=True, how="inner")
    r = np.stack([_rank_hi(w[k]) for k in ("d1", "d2", "door")], axis=1).astype("int64")
    s = np.stack([w[k].str[1].to_numpy() for k in ("d1", "d2", "door")], axis=1)
    lo = np.where(r == 14, 1, r)
    trips = (r[:, 0] == r[:, 1]) & (r[:, 1] == r[:, 2])
    buried = (r[:, 0] == r[:, 1]) & ~trips
    split = ((r[:, 2] == r[:, 0]) | (r[:, 2] == r[:, 1])) & ~trips
    paired = trips | buried | split
    flush = (s[:, 0] == s[:, 1]) & (s[:, 1] == s[:, 2])
    span_hi = r.max(1) - r.min(1)
    span_lo = lo.max(1) - lo.min(1)
    straight = ~paired & ((span_hi <= 4) | (span_lo <= 4))
    low3 = ~paired & (lo.max(1) <= 8)
    game = w["game"].to_numpy()
    high_cat = np.select(
        [trips, buried, split, straight & flush, flush, straight],
        [
            "rolled-up trips",
            "buried pair",
            "split pair",
            "three to a straight flush",
            "three to a flush",
            "three to a straight",
        ],
        "other",
    )
    hilo_cat = np.select(
        [trips, buried, split, low3, flush, straight],
        [
            "rolled-up trips",
            "buried pair",
            "split pair",
            "three low (8 or lower)",
            "three to a flush",
            "three to a straight",
        ],
        "other",
    )
    top = lo.max(1)
    razz_cat = np.select(
        [trips, paired, top <= 5, top == 6, top == 7, top == 8],
        [
            "rolled-up trips",
            "paired",
            "three to a 5",
            "three to a 6",
            "three to a 7",
            "three to an 8",
        ],
        "three to a 9 or higher",
    )
    cat = np.where(game == "razz", razz_cat, np.where(game == "stud_hilo", hilo_cat, high_cat))
    out = pd.Series(None, index=facts.index, dtype="object")
    out.loc[w.index] = cat
    return out


def _hilo_outcomes(facts: pd.DataFrame, awards: pd.DataFrame | None) -> pd.Series:
    """Scooped / high only / low only / split or quartered for each hi/lo showdown won,
    from what the site paid (`awards.reported`). None elsewhere; all None without awards."""
    out = pd.Series(None, index=facts.index, dtype="object")
    if awards is None:
        return out
    paid = awards[awards["reported"].gt(0)]
    paid = paid[paid["hand_id"].isin(facts["hand_id"])]
    if paid.empty:
        return out
    n_pot = paid.groupby(["hand_id", "pot"])["player"].transform("nunique")
    n_half = paid.groupby(["hand_id", "pot", "half"])["player"].transform("nunique")
    p = paid.assign(
        alone=n_pot.eq(1),
        tied=n_half.gt(1),
        high=paid["half"].isin(("high", "whole")),
        low=paid["half"].eq("low"),
    )
    g = p.groupby(_KEY).agg(
        alone=("alone", "all"), tied=("tied", "any"), high=("high", "any"), low=("low", "any")
    )
    kind = np.select(
        [g["alone"], g["tied"], g["high"] & ~g["low"], g["low"] & ~g["high"]],
        ["scooped", "split or quartered", "high only", "low only"],
        "split or quartered",
    )
    kinds = pd.Series(kind, index=g.index, name="k")
    m = facts[_KEY].merge(kinds, left_on=_KEY, right_index=True, how="left")["k"]
    won = facts["game"].eq("stud_hilo") & facts["won_showdown"]
    out[won.to_numpy()] = m[won.to_numpy()].fillna("unclassified").to_numpy()
    return out


def seat_facts(tables: Any, filters: Filters | None = None) -> pd.DataFrame:
    """One row per hand and player dealt in, with every per-hand flag and counter.

    Columns: the hand's labels (game, money, stakes, table, started_at, big_bet), the
    seat's money (contributed, collected, net, rake_paid) and the flags named in
    docs/stats.md. `filters.player` keeps that player's rows, judged in full context."""
    f = filters or Filters()
    fr = frames(tables)
    hands = filter_hands(fr["hands"], f)
    ids = hands["hand_id"]
    seats = fr["seats"]
    seats = seats[seats["hand_id"].isin(ids) & seats["dealt_in"]]
    acts = fr["actions"][fr["actions"]["hand_id"].isin(ids)]
    cols = ["hand_id", "game", "money", "money_unit", "unit", "currency", "stakes", "table"]
    cols += ["started_at"]
    cols += ["small_bet", "big_bet", "rake", "is_tournament"]
    cols += [c for c in _TOURNAMENT_COLUMNS if c in hands]
    # the hand's own columns win (seats carry its money_unit too)
    shared = [c for c in cols if c != "hand_id" and c in seats]
    facts = seats.drop(columns=shared).merge(hands[cols], on="hand_id", how="inner")
    facts = facts.sort_values(["started_at", "hand_id", "seat"], kind="stable").reset_index(
        drop=True
    )
    for c in ("contributed", "collected", "net"):
        facts[c] = facts[c].astype("int64")

    facts["_k"] = _keys(facts, facts)
    acts = acts.assign(_k=_keys(facts, acts))
    ante_allin = acts[acts["kind"].eq("ante") & acts["all_in"]]
    facts["allin_ante"] = _mark(facts, ante_allin)
    a = _betting(acts)
    _third_street(facts, a, fr)
    _later_streets(facts, a)

    last = facts["last_street"].fillna(3).astype("int64")
    for s in (4, 5, 6, 7):
        facts[f"saw_{s}"] = last.ge(s).to_numpy()
    unfolded = facts["folded_street"].isna()
    n_unfolded = unfolded.groupby(facts["hand_id"]).transform("sum")
    facts["showdown"] = facts["showdown"].fillna(False).astype(bool) & unfolded & n_unfolded.ge(2)
    facts["won"] = facts["collected"].gt(0)
    facts["won_showdown"] = facts["showdown"] & facts["won"]
    facts["won_saw_4"] = facts["won"] & facts["saw_4"]
    facts["net_bb"] = facts["net"] / facts["big_bet"]
    _allin_ev(facts, fr.get("allin_ev"), ids)
    facts["rake_paid"] = _rake_shares(facts)
    facts["category"] = _categories(facts, fr["cards"][fr["cards"]["hand_id"].isin(ids)])
    facts["hilo_outcome"] = _hilo_outcomes(facts, fr.get("awards"))
    facts = facts.drop(columns="_k")
    if f.player:  # names are matched whatever their case, as the sites treat them
        facts = facts[facts["player"].str.lower().eq(f.player.lower())].reset_index(drop=True)
    facts.attrs["has_awards"] = "awards" in fr
    facts.attrs["duplicates"] = fr["hands"].attrs["duplicates"]
    return facts


def _allin_ev(facts: pd.DataFrame, allin: pd.DataFrame | None, ids: pd.Series) -> None:
    """`allin` (the player was still in a pot an all-in player is in, settled with cards to
    come) and `ev_net`: the expected net, each such pot at his equity when its last chip
    went in (`allin_ev`), else the net itself. Without an `allin_ev` table (tables of an
    older histkit) `ev_net` is empty, never the net passed off as its EV."""
    if allin is None:
        facts["allin"] = False
        facts["ev_net"] = pd.array([pd.NA] * len(facts), dtype="Int64")
        return
    rows = allin[allin["hand_id"].isin(ids)]
    rows = rows.assign(_k=_keys(facts, rows))
    rows = rows[rows["_k"].ge(0)].drop_duplicates("_k")
    ev = pd.Series(rows["ev_net"].to_numpy(dtype="int64"), index=rows["_k"].to_numpy())
    at = ev.reindex(facts["_k"].to_numpy())
    facts["allin"] = at.notna().to_numpy()
    facts["ev_net"] = np.where(facts["allin"], at.fillna(0).to_numpy(), facts["net"]).astype(
        "int64"
    )


# ------------------------------------------------------------------------- summaries


def _ratio(num: pd.Series, den: pd.Series) -> pd.Series:
    num = num.astype("float64")
    den = den.astype("float64")
    return (num / den.where(den > 0)).astype("float64")


def _counters() -> list[str]:
    """The counters the statistics sum (`histkit.statdefs`), each once, in order."""
    out: dict[str, None] = {}
    for st in STATS:
        for street in st.streets or (None,):
            num, den = st.counters(street)
            out.update(dict.fromkeys((*num, *den)))
    return list(out)


def from_sums(g: pd.DataFrame, present: dict[str, bool]) -> dict[str, Any]:
    """Each statistic of `histkit.statdefs.STATS` from `g`, the counters summed per row:
    counts and money as integers, shares and factors as floats (NaN with no chance), a
    statistic whose table is absent (`present[needs]` false) empty."""
    out: dict[str, Any] = {}
    for st, street, column in layout():
        if st.needs is not None and not present.get(st.needs, False):
            empty = pd.array([pd.NA] * len(g), dtype="Int64")
            out[column] = empty if st.kind is Kind.MONEY else pd.NA
            continue
        num, den = st.counters(street)
        top = g[num[0]]
        for c in num[1:]:
            top = top + g[c]
        if st.kind in (Kind.COUNT, Kind.MONEY):
            out[column] = top.astype("int64")
            if st.needs is not None and st.kind is Kind.MONEY:
                out[column] = pd.array(top.to_numpy(dtype="int64"), dtype="Int64")
            continue
        if st.kind is Kind.BIG_BETS:
            out[column] = top.astype("float64")
            continue
        bottom = g[den[0]]
        for c in den[1:]:
            bottom = bottom + g[c]
        if st.kind is Kind.PER_100:
            top = 100 * top
        out[column] = _ratio(top, bottom)
    return out


def _group_keys(by: str | Sequence[str] | None) -> list[str]:
    extra = [by] if isinstance(by, str) else list(by or ())
    bad = [b for b in extra if b not in GROUPS]
    if bad:
        raise ValueError(f"cannot group by {', '.join(bad)}: choose {', '.join(GROUPS)}")
    return ["player", "money_unit", *extra]


def player_stats(
    tables: Any,
    filters: Filters | None = None,
    *,
    by: str | Sequence[str] | None = None,
    facts: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """Per player (and `money`, plus `by` = game/stakes/table): counts, fractions, money.

    Fractions are floats in [0, 1] (NaN when there was no opportunity); money columns
    are int64 minor units of the row's `money`; `*_bb` and `bb_per_100` are in big bets."""
    facts = seat_facts(tables, filters) if facts is None else facts
    keys = _group_keys(by)
    if "session" in keys and "session" not in facts:
        from histkit.sessions import assign_sessions

        facts = assign_sessions(facts)
    work = facts.assign(
        showdown_net=facts["net"].where(facts["showdown"], 0),
        non_showdown_net=facts["net"].where(~facts["showdown"], 0),
        hands=1,
        hilo_won=facts["game"].eq("stud_hilo") & facts["won_showdown"],
    )
    for o in HILO_OUTCOMES:
        work[f"hilo_{o.replace(' ', '_')}"] = work["hilo_outcome"].eq(o)
    # ev_net is empty (NA) when the tables have no allin_ev (written by an older histkit)
    has_ev = "ev_net" in work and bool(work["ev_net"].notna().all())
    sums = [c for c in _counters() if c != "ev_net" or has_ev]
    grouped = work.groupby(keys, sort=True, dropna=False)
    g = grouped[sums].sum(numeric_only=False).reset_index()
    first = grouped[["money", "big_bet"]].first().reset_index(drop=True)
    if "session" in keys:  # when each session was, and what it was worth per hour
        span = grouped["started_at"].agg(["min", "max"]).reset_index(drop=True)
    out = g[keys].copy()
    out.insert(1, "money", first["money"].to_numpy())  # the unit's label, for people
    has_awards = bool(facts.attrs.get("has_awards", False))
    present = {"awards": has_awards, "allin_ev": has_ev}
    for name, values in from_sums(g, present).items():
        out[name] = values
    out.attrs["has_awards"] = has_awards
    if "session" in keys:
        minutes = (span["max"] - span["min"]).dt.total_seconds() / 60
        out["session_start"] = span["min"].to_numpy()
        out["minutes"] = minutes.round(1).to_numpy()
        out["per_hour"] = (out["net"] * 60 / minutes.where(minutes > 0)).to_numpy()
    if "stakes" in keys:  # stakes by size (a level 20/40 before 100/200), not as text
        order = ["player", "money", "_big", *[k for k in keys if k not in ("player", "money_unit")]]
        out = (
            out.assign(_big=first["big_bet"].to_numpy())
            .sort_values(order, kind="stable")
            .drop(columns="_big")
            .reset_index(drop=True)
        )
    return out


def require_single_money(facts_or_stats: pd.DataFrame) -> str:
    """The one money unit of the rows (`money_unit`; `money` in tables without it), or
    `MixedMoneyError` naming the mix as people read it."""
    column = "money_unit" if "money_unit" in facts_or_stats else "money"
    kinds = sorted(facts_or_stats[column].dropna().unique().tolist())
    if len(kinds) > 1:
        labels = [money_label(str(k)) for k in kinds]
        raise MixedMoneyError(
            "these hands mix currencies/units ("
            + ", ".join(labels)
            + "); amounts of different units cannot be added: filter with --cash, "
            "--tournament, --game or --stakes, or group with --by stakes"
        )
    return kinds[0] if kinds else ""


def category_results(
    tables: Any = None,
    filters: Filters | None = None,
    *,
    facts: pd.DataFrame | None = None,
    by: str | Sequence[str] | None = None,
) -> pd.DataFrame:
    """Results per starting-hand category (hands whose three 3rd-street cards are known):
    hands, VPIP, hands won, net (minor units), net in big bets and big bets per hand;
    one row per player, money and game (and `by`, as `player_stats` groups)."""
    facts = seat_facts(tables, filters) if facts is None else facts
    known = facts[facts["category"].notna()]
    keys = [*_group_keys(by), "game"]
    keys = list(dict.fromkeys(keys))
    g = known.groupby([*keys, "category"], sort=False)
    out = g.agg(
        money=("money", "first"),
        hands=("hand_id", "size"),
        vpip=("vpip", "mean"),
        won=("won", "mean"),
        net=("net", "sum"),
        net_bb=("net_bb", "sum"),
    ).reset_index()
    out["bb_per_hand"] = out["net_bb"] / out["hands"]
    order = {c: i for cats in CATEGORIES.values() for i, c in enumerate(cats)}
    out["_o"] = out["category"].map(order)
    return out.sort_values([*keys, "_o"]).drop(columns="_o").reset_index(drop=True)


def street_stats(
    tables: Any = None, filters: Filters | None = None, *, facts: pd.DataFrame | None = None
) -> pd.DataFrame:
    """Per player and street: aggression frequency and factor, fold to a bet, check-raise
    and the share of hands that reached the street (long form, for plots)."""
    facts = seat_facts(tables, filters) if facts is None else facts
    st = player_stats(None, facts=facts)
    rows = []
    for s in STREETS:
        part = st[["player", "money", "hands"]].copy()
        part["street"] = s
        part["reached"] = 1.0 if s == 3 else st[f"went_{s}"]
        part["aggression_frequency"] = st[f"afq_{s}"]
        part["aggression_factor"] = st[f"af_{s}"]
        part["fold_to_bet"] = st[f"fold_to_bet_{s}"]
        part["check_raise"] = st[f"check_raise_{s}"]
        rows.append(part)
    return pd.concat(rows, ignore_index=True)


def hilo_breakdown(
    tables: Any = None, filters: Filters | None = None, *, facts: pd.DataFrame | None = None
) -> pd.DataFrame:
    """Counts of hi/lo showdowns won per outcome and player; `MissingTableError` without
    an `awards` table (run the audit: `histkit.tables.audit_tables`)."""
    facts = seat_facts(tables, filters) if facts is None else facts
    if not facts.attrs.get("has_awards", False):
        raise MissingTableError(
            "hi/lo outcomes need the awards table (histkit.tables.audit_tables); "
            "the input has only the parsed tables"
        )
    won = facts[facts["game"].eq("stud_hilo") & facts["won_showdown"]]
    t = pd.crosstab(won["player"], won["hilo_outcome"])
    for o in HILO_OUTCOMES:
        if o not in t.columns:
            t[o] = 0
    return t[[*HILO_OUTCOMES, *[c for c in t.columns if c not in HILO_OUTCOMES]]]


# `histkit.stats(...)`: this module is also the API's function (histkit.api)
from histkit.api import callable_module  # noqa: E402

callable_module(__name__)
