"""Tournament results: what each tournament cost a player and paid them, where the hands
say so, and the totals per currency (ROI, in-the-money rate).

A tournament is (site, tournament id). Its buy-in and fee come from the header as the site
writes them (`hands.buy_in_amount`, `buy_in_fee`, `buy_in_currency`); the place and prize
from the line that says the player finished it (`seats.finish_place`, `prize`). Chips stay
per tournament (`chips_net`); money is added only within one currency, and only what was
written: a tournament whose end the hands do not show has no result, not a guessed one.
Definitions: docs/stats.md.
"""

from __future__ import annotations

import pandas as pd

__all__ = ["tournament_results", "tournament_summary"]

_COLUMNS = [
    "player",
    "site",
    "tournament_id",
    "money",
    "hands",
    "first",
    "last",
    "buy_in",
    "fee",
    "currency",
    "place",
    "prize",
    "result",
    "chips_net",
    "chips_ev_net",
]


def tournament_results(facts: pd.DataFrame) -> pd.DataFrame:
    """One row per player and tournament (`histkit.stats.seat_facts` rows of tournament
    hands): hands, first and last hand, buy-in and fee (minor units of `currency`), place
    and prize where a hand says so (prize 0 when the place is known and nothing was
    paid), `result` = prize - buy-in - fee when all are known, `chips_net` (the
    tournament's chips won or lost at the tables) and `chips_ev_net` (the same with all-in
    hands counted at their equity when the money went in)."""
    t = facts[facts["is_tournament"].fillna(False).astype(bool)]
    if t.empty:
        return pd.DataFrame(columns=_COLUMNS)
    t = t.assign(
        tournament_id=t["tournament_id"].astype(str),
        buy_in_amount=t.get("buy_in_amount"),
        buy_in_fee=t.get("buy_in_fee"),
        buy_in_currency=t.get("buy_in_currency"),
        finish_place=t.get("finish_place"),
        prize=t.get("prize"),
    )
    keys = ["player", "site", "tournament_id"]
    g = t.groupby(keys, sort=False, dropna=False)
    out = g.agg(
        money=("money", "first"),
        hands=("hand_id", "nunique"),
        first=("started_at", "min"),
        last=("started_at", "max"),
        buy_in=("buy_in_amount", "first"),
        fee=("buy_in_fee", "first"),
        currency=("buy_in_currency", "first"),
        place=("finish_place", "min"),
        prize=("prize", "max"),
        chips_net=("net", "sum"),
    ).reset_index()
    # all-in hands at their equity (NA where the tables carry no all-in EV)
    if "ev_net" in t and bool(t["ev_net"].notna().all()):
        ev = g["ev_net"].sum().to_numpy(dtype="int64")
        out["chips_ev_net"] = pd.array(ev, dtype="Int64")
    else:
        out["chips_ev_net"] = pd.array([pd.NA] * len(out), dtype="Int64")
    known_place = out["place"].notna()
    out["prize"] = out["prize"].where(out["prize"].notna() | ~known_place, 0)
    cost = out["buy_in"] + out["fee"].fillna(0)
    out["result"] = (out["prize"] - cost).where(known_place & out["buy_in"].notna())
    for c in ("buy_in", "fee", "place", "prize", "result"):
        out[c] = out[c].astype("Int64")
    out["chips_net"] = out["chips_net"].astype("int64")
    return out[_COLUMNS].sort_values(["player", "first"], kind="stable").reset_index(drop=True)


def tournament_summary(results: pd.DataFrame) -> pd.DataFrame:
    """Per player and buy-in currency (tournaments of no currency apart): tournaments,
    `buy_ins` (the buy-ins and fees of every tournament whose header writes them, ended or
    not), those with a known end, cashes, cost (buy-ins and fees), prizes and net over the
    ended ones, ROI = net / cost, and the in-the-money rate = cashes / ended. With no
    tournament ended, cost, prizes and net are unknown (NA), not 0: the buy-ins were paid,
    what came back is not written."""
    cols = ["player", "currency", "tournaments", "buy_ins", "ended", "cashes", "cost", "prizes"]
    if results.empty:
        return pd.DataFrame(columns=[*cols, "net", "roi", "itm"])
    entry = results["buy_in"] + results["fee"].fillna(0)
    r = results.assign(
        currency=results["currency"].fillna("(not money)"),
        ended=results["result"].notna(),
        cashed=results["result"].notna() & results["prize"].fillna(0).gt(0),
        entry=entry,
        cost=entry.where(results["result"].notna()),
        paid=results["prize"].where(results["result"].notna()),
    )
    g = r.groupby(["player", "currency"], sort=True)
    out = g.agg(
        tournaments=("tournament_id", "nunique"),
        ended=("ended", "sum"),
        cashes=("cashed", "sum"),
    ).reset_index()
    for col, of in (("buy_ins", "entry"), ("cost", "cost"), ("prizes", "paid")):
        # min_count=1: a sum of nothing known is unknown, not 0
        out[col] = g[of].sum(min_count=1).astype("Int64").array
    for c in ("ended", "cashes"):
        out[c] = out[c].astype("int64")
    out["net"] = out["prizes"] - out["cost"]
    cost = out["cost"].astype("Float64")
    out["roi"] = (out["net"].astype("Float64") / cost.where(cost > 0)).astype("float64")
    out["itm"] = out["cashes"] / out["ended"].where(out["ended"] > 0)
    return out[[*cols, "net", "roi", "itm"]]
