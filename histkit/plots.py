"""matplotlib figures of a player's session, drawn from `histkit.stats.seat_facts`.

Every function takes the facts (one row per hand and player dealt in), the player, and
an optional `ax`; it returns the Axes it drew on. Without `ax` a new `Figure` is made
directly (no pyplot state, so it works headless under Agg and in threads); in Jupyter,
pass `ax` from `plt.subplots()` or show `ax.figure`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from histkit.stats import (
    CATEGORIES,
    HILO_OUTCOMES,
    STREETS,
    MissingTableError,
    category_results,
    format_money,
    money_parts,
    require_single_money,
    street_stats,
)
from histkit.textsafe import clip, without_bidi_controls
from histkit.words import plural

__all__ = [
    "cumulative_net",
    "results_by_category",
    "action_frequencies",
    "hilo_outcomes",
    "stack_through_session",
    "ALL_PLOTS",
]

_COLORS = {
    "total": "#1f4e79",
    "showdown": "#2e8b57",
    "non-showdown": "#c0504d",
    "ev": "#e69f00",
}
SMALL_SAMPLE = 10  # hands below which a figure is drawn as a small sample
_STREET_NAMES = {3: "3rd", 4: "4th", 5: "5th", 6: "6th", 7: "7th"}


def _axes(ax: Axes | None, size: tuple[float, float] = (7.5, 3.6)) -> Axes:
    if ax is not None:
        return ax
    fig = Figure(figsize=size, layout="constrained")
    return fig.add_subplot()


def _name(text: Any) -> str:
    """A player or table name for a title or legend: clipped, so a 5,000-character name
    cannot push the plot off its figure; without bidi controls, which matplotlib draws
    as missing glyphs (it applies no bidi algorithm); and with each $ escaped, since a
    name like "$\\foo$" would be parsed as mathtext (and fail)."""
    return clip(without_bidi_controls(str(text)), 32).replace("$", r"\$")


def _player_rows(facts: pd.DataFrame, player: str) -> pd.DataFrame:
    rows = facts[facts["player"] == player]
    if rows.empty:
        raise ValueError(f"no hands of player {player!r}")
    return rows.sort_values(["started_at", "hand_id"], kind="stable")


def _money_axis(rows: pd.DataFrame, in_big_bets: bool) -> tuple[str, Any, Any]:
    """(column, label, tick formatter) for amounts: big bets, or the one money."""
    if in_big_bets:
        return "net_bb", "big bets", None
    unit_key = require_single_money(rows)
    label = str(rows["money"].iloc[0]) if "money" in rows and len(rows) else unit_key
    unit, cur = money_parts(unit_key)

    def fmt(v: float, _pos: int) -> str:
        return format_money(int(round(v)), unit, cur)

    return "net", label, fmt


def cumulative_net(
    facts: pd.DataFrame,
    player: str,
    *,
    in_big_bets: bool = False,
    by: str = "hand",
    ax: Axes | None = None,
) -> Axes:
    """Cumulative winnings over the player's hands (`by="hand"`) or over time (`by=
    "date"`): total, at showdown and without showdown (the two parts add up to the total
    at every hand), and the EV-adjusted total (all-in hands counted at the equity when the
    money went in), as trackers draw it. One money only (`MixedMoneyError` otherwise), or
    big bets."""
    rows = _player_rows(facts, player)
    col, label, fmt = _money_axis(rows, in_big_bets)
    ax = _axes(ax)
    if by == "date":
        rows = rows[rows["started_at"].notna()]
        x: Any = rows["started_at"].dt.tz_convert(None).to_numpy()
    else:
        x = np.arange(1, len(rows) + 1)
    amounts = rows[col].to_numpy(dtype="float64")
    sd = rows["showdown"].to_numpy(dtype=bool)
    ax.plot(x, np.cumsum(amounts), color=_COLORS["total"], lw=2, label="total")
    ax.plot(x, np.cumsum(np.where(sd, amounts, 0)), color=_COLORS["showdown"], label="showdown")
    ax.plot(
        x, np.cumsum(np.where(sd, 0, amounts)), color=_COLORS["non-showdown"], label="non-showdown"
    )
    ev = _ev_amounts(rows, col)
    if ev is not None:
        ax.plot(x, np.cumsum(ev), color=_COLORS["ev"], lw=1.4, ls="--", label="all-in EV")
    ax.axhline(0, color="0.6", lw=0.8)
    ax.set_xlabel("date (UTC)" if by == "date" else "hands")
    ax.set_ylabel(f"cumulative net ({_name(label)})")
    when = " by date" if by == "date" else ""
    ax.set_title(f"{_name(player)}: winnings over {plural(len(rows), 'hand')}{when}")
    if by == "date":
        ax.figure.autofmt_xdate()
    if fmt is not None:
        ax.yaxis.set_major_formatter(fmt)
    # beside the plot, not on it: the lines fill the axes (over time, from corner to corner)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0, frameon=False)
    return ax


def _ev_amounts(rows: pd.DataFrame, col: str) -> np.ndarray | None:
    """Each hand's EV-adjusted net in the units of `col` (None when the tables carry no
    all-in EV, or the player never was all-in with cards to come: the line would be the
    total's)."""
    if "ev_net" not in rows or rows["ev_net"].isna().any() or not rows["allin"].any():
        return None
    ev = rows["ev_net"].to_numpy(dtype="float64")
    return ev / rows["big_bet"].to_numpy(dtype="float64") if col == "net_bb" else ev


def results_by_category(facts: pd.DataFrame, player: str, *, ax: Axes | None = None) -> Axes:
    """Big bets won per hand for each starting-hand category (hands where all three
    3rd-street cards are known), the number of hands in each label: few hands, wide
    error bars.

    One bar per category over all the moneys in `facts`: a big bet is the unit of its
    own stakes or level, so several tournaments' results pool in big bets as a tracker
    pools them (one "split pair" bar, not four of two hands each). Pass one section's
    facts (cash or tournaments) to see it alone."""
    rows = _player_rows(facts, player)
    cr = _pooled_categories(rows)
    ax = _axes(ax, (7.5, max(2.5, 0.35 * max(len(cr), 1) + 1.2)))
    if cr.empty:
        ax.text(0.5, 0.5, "no starting hands known", ha="center", va="center")
        ax.set_axis_off()
        return ax
    order = {c: i for g in CATEGORIES for i, c in enumerate(CATEGORIES[g])}
    cr = cr.assign(_o=cr["category"].map(order)).sort_values(["game", "_o"], ascending=False)
    several = cr["game"].nunique() > 1
    labels = [
        (f"{c}, {g}" if several else c) + f" (n={n})"
        for g, c, n in zip(cr["game"], cr["category"], cr["hands"], strict=True)
    ]
    vals = cr["bb_per_hand"].to_numpy(dtype="float64")
    y = np.arange(len(cr))
    small = cr["hands"].to_numpy() < SMALL_SAMPLE
    colors = np.where(vals >= 0, _COLORS["showdown"], _COLORS["non-showdown"])
    bars = ax.barh(y, vals, color=colors)
    for bar, few in zip(bars, small, strict=True):
        if few:  # a handful of hands: drawn faint and hatched, not like hundreds
            bar.set_alpha(0.35)
            bar.set_hatch("//")
    ax.set_yticks(y, labels)
    ax.axvline(0, color="0.6", lw=0.8)
    note = f" (hatched: fewer than {SMALL_SAMPLE} hands)" if small.any() else ""
    ax.set_xlabel(f"big bets per hand{note}")
    ax.set_title(f"{_name(player)}: results by starting hand{_pooled_over(rows)}")
    return ax


def _pooled_categories(rows: pd.DataFrame) -> pd.DataFrame:
    """`category_results` of one player's rows with its money units pooled: hands and big
    bets summed per game and category (the amounts in minor units are left out: they
    cannot be added across units)."""
    cr = category_results(facts=rows)
    if cr.empty:
        return cr
    pooled = cr.groupby(["game", "category"], sort=False, as_index=False)[["hands", "net_bb"]]
    out = pooled.sum()
    out["bb_per_hand"] = out["net_bb"] / out["hands"]
    return out


def _pooled_over(rows: pd.DataFrame) -> str:
    """What a plot pooled in big bets, for its title: '' for one money, else e.g. ' (4
    tournaments)' or ' (USD, 2 tournaments)'."""
    units = rows.drop_duplicates("money_unit")
    if len(units) < 2:
        return ""
    tour = units["is_tournament"].fillna(False).astype(bool)
    parts = sorted(units.loc[~tour, "money"].astype(str))
    if tour.any():
        parts.append(plural(int(tour.sum()), "tournament"))
    return f" ({', '.join(parts)})"


def action_frequencies(facts: pd.DataFrame, player: str, *, ax: Axes | None = None) -> Axes:
    """Per street: share of hands reaching it, aggression frequency, fold to a bet and
    check-raise (each a fraction of its own opportunities; see docs/stats.md), over all
    the player's hands in `facts`: shares are counts of hands and actions, which pool
    across moneys (the street_stats rows are keyed by one label, and only their shares
    are read)."""
    rows = _player_rows(facts, player)
    ss = street_stats(facts=rows.assign(money_unit="all", money="all"))
    ax = _axes(ax)
    series = [
        ("reached", "reached street", "#8faadc"),
        ("aggression_frequency", "aggression freq.", _COLORS["total"]),
        ("fold_to_bet", "fold to a bet", _COLORS["non-showdown"]),
        ("check_raise", "check-raise", _COLORS["showdown"]),
    ]
    x = np.arange(len(STREETS))
    w = 0.2
    for i, (col, label, color) in enumerate(series):
        vals = ss.set_index("street").reindex(STREETS)[col].to_numpy(dtype="float64")
        ax.bar(x + (i - 1.5) * w, np.nan_to_num(vals), w, label=label, color=color)
    ax.set_xticks(x, [_STREET_NAMES[s] for s in STREETS])
    ax.set_ylim(0, 1.15)
    ax.set_yticks(np.linspace(0, 1, 6))
    ax.yaxis.set_major_formatter(lambda v, _p: f"{100 * v:.0f}%")
    ax.set_title(f"{_name(player)}: actions by street{_pooled_over(rows)}")
    ax.legend(loc="upper center", frameon=False, fontsize=8, ncols=4)
    return ax


def hilo_outcomes(facts: pd.DataFrame, player: str, *, ax: Axes | None = None) -> Axes:
    """How the player's hi/lo showdowns were won: scooped, high only, low only, split or
    quartered. Needs the audit's awards (`MissingTableError` otherwise)."""
    rows = _player_rows(facts, player)
    if not facts.attrs.get("has_awards", False):
        raise MissingTableError("the hi/lo breakdown needs the awards table (run the audit)")
    won = rows[rows["game"].eq("stud_hilo") & rows["won_showdown"]]
    counts = won["hilo_outcome"].value_counts().reindex(HILO_OUTCOMES, fill_value=0)
    ax = _axes(ax, (6, 3))
    colors = ["#1f4e79", "#5b9bd5", "#a9d18e", "#f4b183"]
    ax.bar(range(len(HILO_OUTCOMES)), counts.to_numpy(), color=colors)
    ax.set_xticks(range(len(HILO_OUTCOMES)), list(HILO_OUTCOMES))
    for i, n in enumerate(counts.to_numpy()):
        ax.annotate(str(n), (i, n), ha="center", va="bottom")
    ax.set_ylabel("showdowns won")
    ax.set_title(f"{_name(player)}: hi/lo showdowns won ({int(counts.sum())})")
    return ax


def stack_through_session(facts: pd.DataFrame, player: str, *, ax: Axes | None = None) -> Axes:
    """The player's stack after each hand (x: the player's hands in time order), one
    line per table; one money only: chips and dollars cannot share an axis."""
    rows = _player_rows(facts, player)
    _, label, fmt = _money_axis(rows, in_big_bets=False)
    ax = _axes(ax)
    rows = rows.assign(_x=np.arange(1, len(rows) + 1))
    for table, part in rows.groupby("table", sort=False):
        # Each table's line starts at its first hand's starting stack.
        xs = np.concatenate([part["_x"].to_numpy()[:1] - 1, part["_x"].to_numpy()])
        ys = np.concatenate([part["starting_stack"].to_numpy()[:1], part["ending_stack"]])
        ax.step(xs, ys, where="post", label=_name(table), marker=".", ms=3)
    ax.set_xlabel("hands (in time order)")
    ax.set_ylabel(f"stack ({label})")
    if fmt is not None:
        ax.yaxis.set_major_formatter(fmt)
    ax.set_title(f"{_name(player)}: stack through the session")
    ax.legend(loc="best", frameon=False, fontsize=8, title="table")
    return ax


#: The report's plots in order: (title, function). hilo_outcomes may raise
#: MissingTableError; stack/cumulative may raise MixedMoneyError.
ALL_PLOTS = (
    ("Winnings over the session", cumulative_net),
    ("Stack through the session", stack_through_session),
    ("Results by starting hand", results_by_category),
    ("Actions by street", action_frequencies),
    ("Hi/lo showdowns won", hilo_outcomes),
)
