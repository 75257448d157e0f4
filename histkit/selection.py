"""Which hands the statistics count: the histkit tables as DataFrames (each hand once), the
filters a command's options make, and the labels (money, stakes) they select by.

Split from `histkit.stats`, which sums what these select; both name the same tables."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from histkit.money import money_label, money_unit_of, stakes_label, stakes_match

if TYPE_CHECKING:  # imported where used: `Filters` serves commands that load no tables
    import pandas as pd
    import pyarrow as pa

__all__ = [
    "Filters",
    "MissingTableError",
    "filter_hands",
    "frames",
    "load",
    "utc",
]


class MissingTableError(LookupError):
    """Raised when a statistic needs a table (e.g. `awards`) the input does not have."""


@dataclass(frozen=True)
class Filters:
    """Which hands and players to count. `None` means no restriction.

    `stakes` matches the label `stakes_label` makes ("$0.04/$0.08 USD", "200/400"), the
    same without its code ("$0.04/$0.08"), or without symbols and code ("0.04/0.08").
    Dates are inclusive; naive datetimes are taken as UTC. `tournament`: True only
    tournament hands, False only cash (and play-money) hands.
    """

    player: str | None = None
    game: str | None = None
    stakes: str | None = None
    table: str | None = None
    since: datetime | None = None
    until: datetime | None = None
    site: str | None = None
    tournament: bool | None = None


# ----------------------------------------------------------------------------- inputs


def frames(tables: Any) -> dict[str, pd.DataFrame]:
    """The tables as DataFrames, from `Tables`, a mapping of Arrow tables or DataFrames.

    Tables the input lacks (e.g. `awards` before an audit) are simply absent. A hand is
    its site and hand id (two sites may number hands alike): a hand read twice (the same
    hand in two files) is counted once, the first copy; the ids are listed in
    `out["hands"].attrs["duplicates"]` so callers can say so."""
    import pandas as pd

    from histkit.tables import HAND_TABLES

    out: dict[str, pd.DataFrame] = {}
    for name in HAND_TABLES:
        t = tables.get(name) if isinstance(tables, Mapping) else getattr(tables, name, None)
        if t is None:
            continue
        out[name] = t if isinstance(t, pd.DataFrame) else t.to_pandas()
    missing = [n for n in ("hands", "seats", "actions", "cards") if n not in out]
    if missing:
        raise MissingTableError("statistics need the tables " + ", ".join(missing))
    dup = out["hands"].duplicated(_key(out["hands"]))
    duplicates = sorted(out["hands"].loc[dup, "hand_id"].unique().tolist())
    if duplicates:
        out = {name: _first_copy(name, df) for name, df in out.items()}
    earlier = out["hands"].attrs.get("duplicates", [])  # frames of frames keep the note
    out["hands"].attrs["duplicates"] = sorted(set(earlier) | set(duplicates))
    return out


_NATURAL_KEYS = {
    "hands": ["hand_id"],
    "seats": ["hand_id", "seat"],
    "actions": ["hand_id", "seq"],
    "awards": ["hand_id", "pot", "half", "player"],
}


def _first_copy(name: str, df: pd.DataFrame) -> pd.DataFrame:
    """Rows of the first copy of each hand: by the table's natural key, or (cards,
    violations) by the first run of consecutive rows of a hand id (builders write one
    hand's rows together)."""
    if name in _NATURAL_KEYS:
        keys = _NATURAL_KEYS[name]
        return df.drop_duplicates([*_key(df)[:-1], *keys]).reset_index(drop=True)
    if df.empty or "hand_id" not in df:
        return df
    hid = df["hand_id"].astype(str)
    if "site" in df:
        hid = df["site"].astype(str) + "\x1f" + hid
    run_start = hid.ne(hid.shift())
    run_no = run_start.astype("int64").groupby(hid).cumsum()
    return df[run_no.eq(1).to_numpy()].reset_index(drop=True)


def _key(df: pd.DataFrame) -> list[str]:
    """The columns naming a hand: site (where the table has it) and hand id."""
    return ["site", "hand_id"] if "site" in df else ["hand_id"]


def load(
    paths: Sequence[str | Path] = (),
    *,
    audit: bool = True,
    site: str | None = None,
    jobs: int = 1,
    db: str | Path | bool | None = None,
    filters: Filters | None = None,
) -> dict[str, pa.Table]:
    """The tables of hand-history files/folders, of folders `histkit parse` wrote (flat
    or partitioned; only a complete result is read, see `histkit.warehouse`: a folder whose
    run did not complete raises `WarehouseError`, a ValueError), or of the hand database
    (`db`: True for the default one, or its file). `histkit.sources` decides which (a mix
    is a ValueError) and applies `filters` to whole hands. `audit=True` replays each hand
    so `awards` and `violations` exist (the hi/lo outcomes and the report need them; tables
    and databases give theirs when stored); `jobs` worker processes read and replay hand
    histories (same tables for any number)."""
    from histkit.sources import load as load_source
    from histkit.sources import resolve

    source = resolve(paths, db=db)
    return load_source(source, filters=filters, audit=audit, site=site, jobs=jobs)


def _with_labels(hands: pd.DataFrame) -> pd.DataFrame:
    h = hands.copy()
    h["money_unit"] = money_unit_of(h)
    labels = {u: money_label(u) for u in h["money_unit"].unique()}
    h["money"] = h["money_unit"].map(labels)
    combos = h[["small_bet", "big_bet", "unit", "currency"]].drop_duplicates()
    combos["stakes"] = [
        stakes_label(int(s), int(b), u, c)
        for s, b, u, c in combos.itertuples(index=False, name=None)
    ]
    h = h.merge(combos, on=["small_bet", "big_bet", "unit", "currency"], how="left")
    # what the house took: the rake and any fee (a jackpot drop); tables written before
    # the fee column have none
    fee = h["fee"].fillna(0) if "fee" in h else 0
    h["rake"] = (h["rake"].fillna(0) + fee).astype("int64")
    return h


def utc(d: datetime) -> pd.Timestamp:
    """A filter's date as a UTC timestamp (a naive one is taken as UTC)."""
    import pandas as pd

    ts = pd.Timestamp(d)
    return ts.tz_localize(UTC) if ts.tzinfo is None else ts.tz_convert(UTC)


def filter_hands(hands: pd.DataFrame, f: Filters) -> pd.DataFrame:
    """The labelled `hands` rows the filters keep (player is applied later: it needs
    the whole table to judge the spots, e.g. who was still to act)."""
    import pandas as pd

    h = _with_labels(hands)
    keep = pd.Series(True, index=h.index)
    if f.game:
        keep &= h["game"].eq(f.game)
    if f.stakes:
        keep &= stakes_match(h["stakes"], f.stakes)
    if f.table:
        keep &= h["table"].eq(f.table)
    if f.since is not None:
        keep &= h["started_at"].ge(utc(f.since))
    if f.until is not None:
        keep &= h["started_at"].le(utc(f.until))
    if f.site:
        keep &= h["site"].eq(f.site)
    if f.tournament is not None:
        keep &= h["is_tournament"].eq(f.tournament)
    return h[keep].reset_index(drop=True)


# ---------------------------------------------------------------------- per-hand facts
