"""Sessions: a player's hands grouped by time, as trackers group them.

A session is a run of one player's hands in one money unit (a currency, or one
tournament's chips: amounts of two units are never added) where no two consecutive hands
start more than `gap` apart (default 30 minutes); hands at several tables at once belong to
the same session. Hands with no start time are one session of their own ("undated").
Definitions of the figures: docs/stats.md.
"""

from __future__ import annotations

from datetime import timedelta

import numpy as np
import pandas as pd

__all__ = ["GAP", "assign_sessions", "session_list"]

GAP = timedelta(minutes=30)
UNDATED = 0  # the session number of hands without a start time


def assign_sessions(facts: pd.DataFrame, *, gap: timedelta = GAP) -> pd.DataFrame:
    """`facts` (`histkit.stats.seat_facts`) with `session` (1, 2, ... per player and
    money unit, in time order; 0 for undated hands) and `session_start` (the first hand's
    start)."""
    f = facts.copy()
    if f.empty:
        f["session"] = pd.Series(dtype="int64")
        f["session_start"] = pd.Series(dtype=f["started_at"].dtype)
        return f
    order = f.sort_values(["player", "money_unit", "started_at", "hand_id"], kind="stable")
    dated = order["started_at"].notna()
    keys = order["player"].astype(str) + "\x1f" + order["money_unit"].astype(str)
    same_owner = keys.eq(keys.shift())
    step = order["started_at"].diff()
    new = ~same_owner | (step > pd.Timedelta(gap)) | ~order["started_at"].shift().notna()
    number = new.astype("int64").groupby(keys).cumsum()
    number = number.where(dated, UNDATED)
    f.loc[order.index, "session"] = number.to_numpy()
    f["session"] = f["session"].astype("int64")
    starts = f.groupby(["player", "money_unit", "session"])["started_at"].transform("min")
    f["session_start"] = starts
    return f


def session_list(facts: pd.DataFrame, *, gap: timedelta = GAP) -> pd.DataFrame:
    """One row per player, money unit and session: start, end, minutes, hands, tables,
    net (minor units of the money), net in big bets, big bets per 100 hands, and the net
    per hour (minor units; NaN for a session of one moment)."""
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
