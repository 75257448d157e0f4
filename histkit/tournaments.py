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

from typing import Any

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


def tournament_results(facts: Any) -> pd.DataFrame:
    """One row per player and tournament (the facts, `histkit.stats.seat_facts` rows or a
    `histkit.stats.Facts` relation, of tournament hands): hands, first and last hand,
    buy-in and fee (minor units of `currency`, the first written in the hands' order),
    place and prize where a hand says so (prize 0 when the place is known and nothing was
    paid), `result` = prize - buy-in - fee when all are known, `chips_net` (the
    tournament's chips won or lost at the tables) and `chips_ev_net` (the same with all-in
    hands counted at their equity when the money went in)."""
    from histkit.stats import _as_facts, _frame

    f = _as_facts(facts)
    order = "started_at NULLS LAST, hand_id, site, seat"

    def first(column: str) -> str:  # the first value written, in the hands' order
        return f"first({column} ORDER BY {order}) FILTER (WHERE {column} IS NOT NULL)"

    ev = "CAST(sum(ev_net) AS BIGINT)" if f.has_ev else "NULL::BIGINT"
    out = _frame(
        f.con,
        f"""SELECT player, site, CAST(tournament_id AS VARCHAR) AS tournament_id,
                {first("money")} AS money, count(DISTINCT hand_id) AS hands,
                min(started_at) AS "first", max(started_at) AS "last",
                {first("buy_in_amount")} AS buy_in, {first("buy_in_fee")} AS fee,
                {first("buy_in_currency")} AS currency, min(finish_place) AS place,
                max(prize) AS prize, CAST(sum(net) AS BIGINT) AS chips_net,
                {ev} AS chips_ev_net,
                min(row_number) AS _seen
            FROM (SELECT *, row_number() OVER (ORDER BY {order}) AS row_number
                  FROM {f.relation} WHERE coalesce(is_tournament, false))
            GROUP BY player, site, CAST(tournament_id AS VARCHAR)""",
    )
    if out.empty:
        return pd.DataFrame(columns=_COLUMNS)
    for c in ("buy_in", "fee", "place", "prize", "chips_ev_net"):
        out[c] = pd.array(out[c].astype(object).where(out[c].notna(), None), dtype="Int64")
    known_place = out["place"].notna()
    out["prize"] = out["prize"].where(out["prize"].notna() | ~known_place, 0)
    cost = out["buy_in"] + out["fee"].fillna(0)
    out["result"] = (out["prize"] - cost).where(known_place & out["buy_in"].notna())
    for c in ("buy_in", "fee", "place", "prize", "result"):
        out[c] = out[c].astype("Int64")
    out["chips_net"] = out["chips_net"].astype("int64")
    out = out.sort_values("_seen", kind="stable")  # the hands' order, as read
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
