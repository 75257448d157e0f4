"""Player statistics for stud, computed by DuckDB where the hands are.

Two layers, so every figure can be traced back to the hands it came from:

- the facts (`seat_facts`, `histkit.statsql.facts_sql`): one row per hand and player dealt
  in, with the counters and flags of that hand (VPIP, steal spot, went to 5th, aggressive
  actions on 6th, showdown, net, rake share, starting-hand category, hi/lo outcome ...).
  Nothing is summarised yet.
- `player_stats`: those rows summed per player (and per game/stakes/table/session with
  `by=`) in SQL, each statistic of `histkit.statdefs.STATS` made from the sums (a
  percentage is numerator / denominator of summed counters).

The facts are a DuckDB relation (`Facts`: a temporary table of the input's workspace, see
`histkit.workspace`), so a command holds no table of hands in memory, or a DataFrame (what
`seat_facts` returns, for notebooks and plots): every function here takes either, and
computes the same SQL over it.

The definitions are in docs/stats.md (made from `histkit.statdefs`). Money stays integer
minor units (`hands.unit`); only ratios (VPIP, bb/100) are floats. Figures are never summed
across currencies or units: `money_unit` is always part of the group key (and
`require_single_money` refuses a mix where one figure is wanted).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

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
from histkit.statdefs import GROUPS, ORDERS, STATS, STREETS, Kind, layout
from histkit.statsql import HILO_OUTCOMES, facts_sql, sums_sql

if TYPE_CHECKING:
    import duckdb

    from histkit.workspace import Workspace

__all__ = [
    "STREETS",
    "GROUPS",
    "HILO_OUTCOMES",
    "CATEGORIES",
    "Facts",
    "Filters",
    "MixedMoneyError",
    "MissingTableError",
    "facts_of",
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


_names = (f"hk_facts_{i}" for i in itertools.count())
_WORK = "hk_work."  # a workspace's database of its own work, on disk (`histkit.workspace`)
FACT_BATCH = 8192  # hands whose facts are computed at once


@dataclass(frozen=True)
class Facts:
    """The facts as a DuckDB relation: `relation` (a table or view of one row per hand and
    player, the columns `seat_facts` has) in `con`. `has_awards`: the hi/lo outcomes are
    known (the hands were audited); `has_ev`: the all-in EV is. `duplicates`: hands read
    more than once, (count, an example hand id)."""

    con: duckdb.DuckDBPyConnection
    relation: str
    has_awards: bool
    has_ev: bool
    duplicates: tuple[int, str | None] = (0, None)

    def df(
        self, columns: str = "*", where: str = "true", params: list[Any] | None = None
    ) -> pd.DataFrame:
        """Rows of the relation as a DataFrame, in its order."""
        return _frame(self.con, f"SELECT {columns} FROM {self.relation} WHERE {where}", params)

    def derived(self, sql: str, params: list[Any] | None = None) -> Facts:
        """A new temporary table made by `sql` over this one (`{relation}` in it)."""
        work = self.relation.startswith(_WORK)  # a workspace's: on disk, as this one
        name = (_WORK if work else "") + next(_names)
        self.con.execute(
            f"CREATE {'' if work else 'TEMP '}TABLE {name} AS {sql.format(relation=self.relation)}",
            params or None,
        )
        return Facts(self.con, name, self.has_awards, self.has_ev, self.duplicates)


def _frame(
    con: duckdb.DuckDBPyConnection, sql: str, params: list[Any] | None = None
) -> pd.DataFrame:
    """The rows of `sql` as a DataFrame with numpy dtypes where the values allow:
    booleans as bool, integers as int64 (nullable ones Int64), text as object."""
    rel = con.sql(sql, params=params or None)
    fetch = getattr(rel, "to_arrow_table", None) or rel.arrow  # DuckDB 2.x, 1.x
    table = fetch()
    import pyarrow as pa

    df = table.to_pandas(
        types_mapper={
            pa.string(): pd.StringDtype("python", na_value=float("nan")),
            pa.large_string(): pd.StringDtype("python", na_value=float("nan")),
        }.get
    )
    changed: dict[str, Any] = {}
    for field in table.schema:
        col = df[field.name]
        if pa.types.is_integer(field.type) and table[field.name].null_count:
            changed[field.name] = pd.array(table[field.name].to_pylist(), dtype="Int64")
        elif pa.types.is_boolean(field.type) and not table[field.name].null_count:
            changed[field.name] = col.astype(bool)
        elif pa.types.is_string(field.type) or pa.types.is_large_string(field.type):
            changed[field.name] = col.astype(object).where(col.notna(), None)
    if not changed:
        return df
    if not df.columns.is_unique:  # by name, one at a time
        for name, values in changed.items():
            df[name] = values
        return df
    # made at once: a column set at a time would leave the frame in as many pieces
    # (pandas' PerformanceWarning on the facts' hundred flags)
    return pd.DataFrame({c: changed.get(c, df[c]) for c in df.columns}, index=df.index)


def facts_of(ws: Workspace, player: str | None = None) -> Facts:
    """The facts of the hands `histkit.workspace.select` kept (`hk_hands`), of every player
    or only `player` (any case), as a temporary table of the workspace. A player is a name
    at a site (`player_site`), or the name the workspace's aliases join several under
    (`histkit.workspace.set_aliases`; `player_site` then lists their sites)."""
    where, params = ("lower(player) = lower(?)", [player]) if player else ("true", [])
    name = _WORK + next(_names)
    sql = facts_sql(has_ev=ws.has_ev, has_awards=ws.has_awards)
    if ws.aliased:
        sql = (
            "SELECT x.* REPLACE (coalesce(a.alias, x.player) AS player), "
            "coalesce(a.sites, x.site) AS player_site "
            f"FROM ({sql}) x LEFT JOIN hk_alias a ON a.site = x.site AND a.name = x.player"
        )
    else:
        sql = f"SELECT *, site AS player_site FROM ({sql})"
    con = ws.con
    n = int(con.execute("SELECT count(*) FROM hk_hands").fetchall()[0][0])
    if n <= FACT_BATCH:
        con.execute(f"CREATE TABLE {name} AS SELECT * FROM ({sql}) WHERE {where}", params)
        return Facts(con, name, ws.has_awards, ws.has_ev, ws.duplicates)
    # a batch of hands at a time (a hand's facts need only its own rows), in the facts'
    # order, so DuckDB's memory holds one batch's joins and windows, not every hand's
    con.execute(
        "CREATE OR REPLACE TEMP TABLE hk_hands_all AS SELECT * FROM hk_hands "
        "ORDER BY started_at NULLS LAST, hand_id, site"
    )
    try:
        for start in range(0, n, FACT_BATCH):
            con.execute(
                "CREATE OR REPLACE TEMP TABLE hk_hands AS SELECT * FROM hk_hands_all "
                f"WHERE rowid >= {start} AND rowid < {start + FACT_BATCH}"
            )
            into = f"CREATE TABLE {name} AS" if not start else f"INSERT INTO {name}"
            con.execute(f"{into} SELECT * FROM ({sql}) WHERE {where}", params)
    finally:
        con.execute("CREATE OR REPLACE TEMP TABLE hk_hands AS SELECT * FROM hk_hands_all")
        con.execute("DROP TABLE hk_hands_all")
    return Facts(con, name, ws.has_awards, ws.has_ev, ws.duplicates)


def _as_facts(facts: Facts | pd.DataFrame) -> Facts:
    """`facts` as a relation: a DataFrame is queried where it is, by a DuckDB of its own."""
    if isinstance(facts, Facts):
        return facts
    import duckdb

    from histkit.db.connection import _CONFIG

    con = duckdb.connect(config=_CONFIG)
    con.execute("SET TimeZone = 'UTC'")
    name = next(_names)
    if "player_site" not in facts:  # rows of an older histkit: each name at its site
        facts = facts.assign(player_site=facts.get("site", ""))
    con.register(name, facts)
    has_ev = "ev_net" in facts and bool(facts["ev_net"].notna().all())
    dup = facts.attrs.get("duplicates", [])
    return Facts(con, name, bool(facts.attrs.get("has_awards", False)), has_ev,
                 (len(dup), dup[0] if dup else None))  # fmt: skip


def _workspace(tables: Any, filters: Filters | None) -> Workspace:
    from histkit.workspace import from_arrow, select

    ws = from_arrow(tables)
    try:
        select(ws, filters)
    except BaseException:
        ws.close()
        raise
    return ws


def seat_facts(tables: Any, filters: Filters | None = None) -> pd.DataFrame:
    """One row per hand and player dealt in, with every per-hand flag and counter.

    Columns: the seat's (`seats`), the hand's labels (game, money, money_unit, stakes,
    table, started_at, big_bet ...), the seat's money (contributed, collected, net,
    rake_paid, ev_net) and the flags named in docs/stats.md. `filters.player` keeps that
    player's rows, judged in full context. `attrs`: `has_awards`, and `duplicates` (the
    hand ids read more than once, each counted once)."""
    with _workspace(tables, filters) as ws:
        facts = facts_of(ws, filters.player if filters else None)
        out = facts.df()
        dups = [
            str(r[0])
            for r in ws.con.execute("SELECT DISTINCT hand_id FROM hk_dups ORDER BY 1").fetchall()
        ]
    hands = tables.get("hands") if isinstance(tables, dict) else getattr(tables, "hands", None)
    earlier = getattr(hands, "attrs", {}).get("duplicates", [])  # frames of frames keep it
    out.attrs["has_awards"] = ws.has_awards
    out.attrs["duplicates"] = sorted(set(dups) | set(earlier))
    return out


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


def big_bets(f: Facts, keys: list[str], where: str = "true") -> pd.Series:
    """Net in big bets per group of `keys`: each hand's net / big bet (float64), summed
    with Kahan's compensation in the facts' order (time, then hand id, site and seat), as
    pandas sums a group, so the figure is the one it has always been whatever the input
    (hand histories, tables, the database). The rows are read in batches: no more than a
    batch and the groups' sums are held. Indexed by the keys (a MultiIndex)."""
    group = ", ".join(f'"{k}"' for k in keys)
    rel = f.con.sql(
        f"SELECT {group}, net, big_bet FROM {f.relation} WHERE {where} "
        "ORDER BY started_at NULLS LAST, hand_id, site, seat"
    )
    reader = (getattr(rel, "to_arrow_reader", None) or rel.fetch_record_batch)(_BATCH_ROWS)
    total: dict[tuple[Any, ...], float] = {}
    carry: dict[tuple[Any, ...], float] = {}
    n = len(keys)
    for batch in reader:
        cols = [batch.column(i).to_pylist() for i in range(n + 2)]
        for *key, net, big in zip(*cols, strict=True):
            k = tuple(key)
            value = _divide(net, big)
            if value != value and k in total:  # NaN: pandas skips it
                continue
            if value != value:
                total[k], carry[k] = 0.0, 0.0
                continue
            s, c = total.get(k, 0.0), carry.get(k, 0.0)
            y = value - c
            t = s + y
            c = t - s - y
            total[k], carry[k] = t, (0.0 if c != c else c)
    index = pd.MultiIndex.from_tuples(list(total), names=keys) if total else None
    return pd.Series(list(total.values()), index=index, dtype="float64")


_BATCH_ROWS = 65_536


def _divide(net: int | None, big: int | None) -> float:
    """net / big bet as numpy divides int64 columns (float64; x/0 is inf or NaN)."""
    if net is None or big is None:
        return math.nan
    a, b = float(net), float(big)
    if b == 0.0:
        return math.nan if a == 0.0 else math.copysign(math.inf, a)
    return a / b


def _lookup(values: pd.Series, frame: pd.DataFrame, keys: list[str]) -> np.ndarray:
    """`values` (indexed by `keys`) for each row of `frame`."""
    if values.empty:
        return np.zeros(len(frame))
    got = {k: v for k, v in values.items()}
    return np.array(
        [got[k if isinstance(k, tuple) else (k,)] for k in _key_tuples(frame, keys)],
        dtype="float64",
    )


def _key_tuples(frame: pd.DataFrame, keys: list[str]) -> list[tuple[Any, ...]]:
    cols = [frame[k].astype(object).where(frame[k].notna(), None).tolist() for k in keys]
    return list(zip(*cols, strict=True))


def _group_keys(by: str | Sequence[str] | None) -> list[str]:
    extra = [by] if isinstance(by, str) else list(by or ())
    bad = [b for b in extra if b not in GROUPS]
    if bad:
        raise ValueError(f"cannot group by {', '.join(bad)}: choose {', '.join(GROUPS)}")
    return ["player", "player_site", "money_unit", *extra]


def player_stats(
    tables: Any,
    filters: Filters | None = None,
    *,
    by: str | Sequence[str] | None = None,
    facts: Facts | pd.DataFrame | None = None,
) -> pd.DataFrame:
    """Per player (and `money`, plus `by` = game/stakes/table/session/position/door:
    `histkit.statdefs.GROUPS`): counts, fractions, money, each statistic of
    `histkit.statdefs.STATS`.

    Fractions are floats in [0, 1] (NaN when there was no opportunity); money columns
    are int64 minor units of the row's `money`; `*_bb` and `bb_per_100` are in big bets."""
    if facts is None:
        with _workspace(tables, filters) as ws:
            return player_stats(
                None, by=by, facts=facts_of(ws, filters.player if filters else None)
            )
    f = _as_facts(facts)
    keys = _group_keys(by)
    if "session" in keys and not _has_column(f, "session"):
        from histkit.sessions import assign_sessions

        f = assign_sessions(f)
    present = {"awards": f.has_awards, "allin_ev": f.has_ev}
    sums = [c for c in _counters() if c != "ev_net" or f.has_ev]
    g = _frame(f.con, sums_sql(f.relation, keys, sums))
    ordered = [k for k in keys if k in ORDERS]
    g = g.sort_values(
        keys, kind="stable", na_position="last", key=_in_order if ordered else None
    ).reset_index(drop=True)
    g["net_bb"] = _lookup(big_bets(f, keys), g, keys)
    out = g[keys].rename(columns={"player_site": "site"})  # a player: a name at a site
    out.insert(2, "money", g["money"].to_numpy())  # the unit's label, for people
    for name, values in from_sums(g, present).items():
        out[name] = values
    out.attrs["has_awards"] = f.has_awards
    if "session" in keys:  # when each session was, and what it was worth per hour
        minutes = (g["last_start"] - g["first_start"]).dt.total_seconds() / 60
        out["session_start"] = g["first_start"].to_numpy()
        out["minutes"] = minutes.round(1).to_numpy()
        out["per_hour"] = (out["net"] * 60 / minutes.where(minutes > 0)).to_numpy()
    if "stakes" in keys:  # stakes by size (a level 20/40 before 100/200), not as text
        rest = [k for k in keys if k not in ("player", "player_site", "money_unit")]
        order = ["player", "site", "money", "_big", *rest]
        out = (
            out.assign(_big=g["big_bet"].to_numpy())
            .sort_values(order, kind="stable", key=_in_order)
            .drop(columns="_big")
            .reset_index(drop=True)
        )
    return out


def _in_order(column: pd.Series) -> pd.Series:
    """A group's values in the order `histkit.statdefs.ORDERS` gives them (positions in
    acting order, doors from the best), any other column as it is."""
    order = ORDERS.get(str(column.name))
    if order is None:
        return column
    return column.map({v: i for i, v in enumerate(order)})


def _has_column(f: Facts, column: str) -> bool:
    return column in f.con.sql(f"SELECT * FROM {f.relation} LIMIT 0").columns


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
    facts: Facts | pd.DataFrame | None = None,
    by: str | Sequence[str] | None = None,
) -> pd.DataFrame:
    """Results per starting-hand category (hands whose three 3rd-street cards are known):
    hands, VPIP, hands won, net (minor units), net in big bets and big bets per hand;
    one row per player, money and game (and `by`, as `player_stats` groups)."""
    if facts is None:
        with _workspace(tables, filters) as ws:
            return category_results(facts=facts_of(ws, filters.player if filters else None), by=by)
    f = _as_facts(facts)
    keys = list(dict.fromkeys([*_group_keys(by), "game"]))
    if "session" in keys and not _has_column(f, "session"):
        from histkit.sessions import assign_sessions

        f = assign_sessions(f)
    group = ", ".join(f'"{k}"' for k in [*keys, "category"])
    out = _frame(
        f.con,
        f"""SELECT {group}, any_value(money) AS money, count(*) AS hands,
            CAST(sum(CAST(vpip AS BIGINT)) AS BIGINT) AS n_vpip,
            CAST(sum(CAST(won AS BIGINT)) AS BIGINT) AS n_won,
            CAST(sum(net) AS BIGINT) AS net
        FROM {f.relation} WHERE category IS NOT NULL GROUP BY {group}""",
    )
    cat_keys = [*keys, "category"]
    out["net_bb"] = _lookup(big_bets(f, cat_keys, "category IS NOT NULL"), out, cat_keys)
    out["vpip"] = out.pop("n_vpip") / out["hands"]
    out["won"] = out.pop("n_won") / out["hands"]
    out = out[[*keys, "category", "money", "hands", "vpip", "won", "net", "net_bb"]]
    out["bb_per_hand"] = out["net_bb"] / out["hands"]
    # a category's place as before: its place in the last game listing it (so rolled-up
    # trips come last in every game, as razz ranks them)
    order = {c: i for cats in CATEGORIES.values() for i, c in enumerate(cats)}
    out["_o"] = out["category"].map(order)
    # (a tie, razz's rolled-up trips and another game's "other", by name, as before)
    out = out.sort_values([*keys, "_o", "category"], kind="stable").drop(columns="_o")
    return out.rename(columns={"player_site": "site"}).reset_index(drop=True)


def street_stats(
    tables: Any = None,
    filters: Filters | None = None,
    *,
    facts: Facts | pd.DataFrame | None = None,
) -> pd.DataFrame:
    """Per player and street: aggression frequency and factor, fold to a bet, check-raise
    and the share of hands that reached the street (long form, for plots)."""
    st = player_stats(tables, filters, facts=facts)
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
    tables: Any = None,
    filters: Filters | None = None,
    *,
    facts: Facts | pd.DataFrame | None = None,
) -> pd.DataFrame:
    """Counts of hi/lo showdowns won per outcome and player; `MissingTableError` without
    an `awards` table (run the audit: `histkit.tables.audit_tables`)."""
    if facts is None:
        with _workspace(tables, filters) as ws:
            return hilo_breakdown(facts=facts_of(ws, filters.player if filters else None))
    f = _as_facts(facts)
    if not f.has_awards:
        raise MissingTableError(
            "hi/lo outcomes need the awards table (histkit.tables.audit_tables); "
            "the input has only the parsed tables"
        )
    won = f.df("player, hilo_outcome", "game = 'stud_hilo' AND won_showdown")
    t = pd.crosstab(won["player"], won["hilo_outcome"])
    for o in HILO_OUTCOMES:
        if o not in t.columns:
            t[o] = 0
    return t[[*HILO_OUTCOMES, *[c for c in t.columns if c not in HILO_OUTCOMES]]]


# `histkit.stats(...)`: this module is also the API's function (histkit.api)
from histkit.api import callable_module  # noqa: E402

callable_module(__name__)
