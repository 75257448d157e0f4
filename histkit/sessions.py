"""Sessions: a player's hands grouped by time, as trackers group them.

A session is a run of one player's hands in one money unit (a currency, or one
tournament's chips: amounts of two units are never added) where no two consecutive hands
start more than `gap` apart (default 30 minutes); hands at several tables at once belong to
the same session. Hands with no start time are one session of their own ("undated").
Definitions of the figures: docs/stats.md.
"""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["GAP", "assign_sessions", "session_list"]

GAP = timedelta(minutes=30)
UNDATED = 0  # the session number of hands without a start time


def _session_sql(gap: timedelta) -> str:
    """`{relation}` with `session` and `session_start`: per player and money unit in time
    order, a new session where a hand starts more than `gap` after the one before (a
    player: a name at a site, `player_site`)."""
    micros = int(gap / timedelta(microseconds=1))
    who = "player, player_site, money_unit"
    w = f"PARTITION BY {who} ORDER BY started_at NULLS LAST, hand_id, site"
    return f"""SELECT *, min(started_at) OVER (PARTITION BY {who}, session)
            AS session_start
        FROM (
            SELECT * EXCLUDE (hk_new), CASE WHEN started_at IS NULL THEN {UNDATED}
                ELSE CAST(sum(hk_new) OVER ({w} ROWS BETWEEN UNBOUNDED PRECEDING
                                            AND CURRENT ROW) AS BIGINT) END AS session
            FROM (
                SELECT *, CASE WHEN lag(started_at) OVER w IS NULL
                    OR started_at - lag(started_at) OVER w > to_microseconds({micros})
                    THEN 1 ELSE 0 END AS hk_new
                FROM {{relation}} WINDOW w AS ({w})
            )
        )"""


def assign_sessions(facts: Any, *, gap: timedelta = GAP) -> Any:
    """The facts (`histkit.stats.seat_facts` rows, or a `histkit.stats.Facts` relation:
    the same kind comes back) with `session` (1, 2, ... per player and money unit, in
    time order; 0 for undated hands) and `session_start` (the first hand's start)."""
    if not isinstance(facts, pd.DataFrame):
        return facts.derived(_session_sql(gap))
    from histkit.stats import _as_facts, _frame

    f = facts.copy()
    if f.empty:
        f["session"] = pd.Series(dtype="int64")
        f["session_start"] = pd.Series(dtype=f["started_at"].dtype)
        return f
    keep = ["player", "money_unit", "started_at", "hand_id", "site", "player_site"]
    cols = f[[c for c in keep if c in f]]
    rel = _as_facts(cols.assign(hk_row=np.arange(len(f))))
    sql = _session_sql(gap).format(relation=rel.relation)
    got = _frame(rel.con, f"SELECT hk_row, session, session_start FROM ({sql}) ORDER BY hk_row")
    f["session"] = got["session"].to_numpy(dtype="int64")
    f["session_start"] = got["session_start"].set_axis(f.index)
    if f["session_start"].dtype != f["started_at"].dtype:
        f["session_start"] = f["session_start"].astype(f["started_at"].dtype)
    return f


def session_list(facts: Any, *, gap: timedelta = GAP) -> pd.DataFrame:
    """One row per player, money unit and session: start, end, minutes, hands, tables,
    net (minor units of the money), net in big bets, big bets per 100 hands, and the net
    per hour (minor units; NaN for a session of one moment)."""
    if not isinstance(facts, pd.DataFrame):  # a relation: the few columns counted here
        from histkit.stats import _has_column

        rel = facts if _has_column(facts, "session") else assign_sessions(facts, gap=gap)
        facts = rel.df("player, money, money_unit, session, started_at, hand_id, \"table\", "
                       "net, net_bb")  # fmt: skip
    f = facts if "session" in facts else assign_sessions(facts, gap=gap)
    cols = ["player", "money", "money_unit", "session"]
    if f.empty:
        return pd.DataFrame(
            columns=[*cols, "start", "end", "minutes", "hands", "tables", "net", "net_bb"]
        )
    g = f.groupby(cols, sort=True)
    out = g.agg(
        start=("started_at", "min"),
        end=("started_at", "max"),
        hands=("hand_id", "nunique"),
        tables=("table", "nunique"),
        net=("net", "sum"),
        net_bb=("net_bb", "sum"),
    ).reset_index()
    minutes = (out["end"] - out["start"]).dt.total_seconds() / 60
    out["minutes"] = minutes.round(1)
    out["bb_per_100"] = 100 * out["net_bb"] / out["hands"]
    out["per_hour"] = np.where(minutes > 0, out["net"] * 60 / minutes.where(minutes > 0), np.nan)
    out["net"] = out["net"].astype("int64")
    return out.sort_values(["player", "start", "money"], kind="stable").reset_index(drop=True)
