"""Plots: each returns the Axes it drew on, and what it drew is the statistics' data."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure

from histkit import plots
from histkit.stats import MissingTableError, MixedMoneyError, seat_facts
from histkit.tables import tables_from

from .test_stats import _buried_pair_win, _chip_hand, _hilo_awards, _hilo_hands, _long_hand


def _facts_with_awards() -> pd.DataFrame:
    t = tables_from([_long_hand(), *_hilo_hands()])
    return seat_facts(dict(t.items()) | {"awards": _hilo_awards()})


def test_cumulative_net_lines_add_up() -> None:
    f = _facts_with_awards()
    ax = plots.cumulative_net(f, "A")
    lines = {ln.get_label(): ln.get_ydata() for ln in ax.get_lines() if ln.get_label()[0] != "_"}
    assert set(lines) == {"total", "showdown", "non-showdown"}
    a = f[f["player"] == "A"]
    assert lines["total"][-1] == a["net"].sum()
    np.testing.assert_array_equal(lines["showdown"] + lines["non-showdown"], lines["total"])
    # ls1 (A's non-showdown win, +13) comes first in time; the hi/lo hands follow.
    assert lines["non-showdown"][-1] == 13


@pytest.mark.slow
def test_plots_draw_on_the_given_axes_and_return_it() -> None:
    f = _facts_with_awards()
    for _, fn in plots.ALL_PLOTS:
        fig = Figure()
        ax = fig.add_subplot()
        assert fn(f, "A", ax=ax) is ax
        assert ax.has_data() or ax.texts


def test_hilo_outcome_bars_are_the_counts() -> None:
    ax = plots.hilo_outcomes(_facts_with_awards(), "B")
    heights = [p.get_height() for p in ax.patches]
    # B: hl2 low only, hl3 quartered (tied low with C).
    assert heights == [0, 0, 1, 1]
    with pytest.raises(MissingTableError):
        plots.hilo_outcomes(seat_facts(tables_from(_hilo_hands())), "B")


def test_results_by_category_bars() -> None:
    win = _buried_pair_win()
    f = seat_facts(tables_from([win]))
    ax = plots.results_by_category(f, "H")
    assert [t.get_text() for t in ax.get_yticklabels()] == ["buried pair (n=1)"]
    assert ax.patches[0].get_hatch() == "//"  # one hand: drawn as the small sample it is
    # +3 cents at $0.04/$0.08 = 0.375 big bets in 1 hand.
    assert ax.patches[0].get_width() == pytest.approx(0.375)
    empty = plots.results_by_category(f, "V")  # V's down cards are unknown
    assert "no starting hands known" in empty.texts[0].get_text()


def _two_tournaments() -> pd.DataFrame:
    """H holds a buried pair in two tournaments: +30 chips at 40/80 (T111: +0.375 big
    bets), -125 chips at 100/200 (T222: -0.625 big bets)."""
    import dataclasses

    from histkit.model import Unit

    from .stud_builder import build

    chips = {"unit": Unit.CHIP, "currency": None, "hero": "H"}
    won = build("t1", seats="H:1:1000 V:2:1000", cards={"H": "Qc Qd 4h", "V": "?? ?? 5s"},
                streets={3: "V bring_in 20; H raise 20 40; V fold"}, uncalled=("H", 20),
                collects="H:60", ante=10, small_bet=40, big_bet=80, **chips)  # fmt: skip
    lost = build("t2", seats="H:1:1000 V:2:1000", cards={"H": "9c 9d 4h", "V": "?? ?? 5s"},
                 streets={3: "V bring_in 50; H raise 50 100; V raise 100 200; H fold"},
                 uncalled=("V", 100), collects="V:250", ante=25, small_bet=100, big_bet=200,
                 minute=30, **chips)  # fmt: skip
    return seat_facts(tables_from([dataclasses.replace(won, tournament_id="111"),
                                   dataclasses.replace(lost, tournament_id="222")]))  # fmt: skip


def test_results_by_category_pools_tournaments_in_big_bets() -> None:
    """One bar per category however many tournaments: big bets of each level pool, as a
    tracker pools them; the title says what was pooled."""
    f = _two_tournaments()
    assert f.loc[f["player"] == "H", "money_unit"].nunique() == 2
    ax = plots.results_by_category(f, "H")
    assert [t.get_text() for t in ax.get_yticklabels()] == ["buried pair (n=2)"]
    assert ax.patches[0].get_width() == pytest.approx((0.375 - 0.625) / 2)
    assert ax.get_title() == "H: results by starting hand (2 tournaments)"
    one = plots.results_by_category(f[f["hand_id"] == "t1"], "H")
    assert one.get_title() == "H: results by starting hand"


def test_action_frequencies_pool_tournaments() -> None:
    """Shares over every hand given, not the first tournament's alone: H completed in
    both hands, and faced a raise (and folded) only in the second."""
    ax = plots.action_frequencies(_two_tournaments(), "H")
    third = [ax.patches[i * 5].get_height() for i in range(4)]  # each series' 3rd street
    assert third[0] == 1.0  # reached: both hands
    assert third[1] == pytest.approx(2 / 3)  # aggression: 2 completions, 1 fold
    assert third[2] == 1.0  # fold to a bet: 1 of 1 (t2's raise)
    assert ax.get_title() == "H: actions by street (2 tournaments)"


def test_action_frequencies_bars() -> None:
    f = seat_facts(tables_from([_long_hand()]))
    ax = plots.action_frequencies(f, "A")
    # 4 series x 5 streets; A's 4th-street check-raise bar is 1 (1 of 1).
    assert len(ax.patches) == 20
    check_raise = ax.patches[15:20]
    assert check_raise[1].get_height() == 1.0


def test_stack_and_money_refusal() -> None:
    cash = _long_hand()
    chips = _chip_hand("tc1", minute=5)
    f = seat_facts(tables_from([cash]))
    ax = plots.stack_through_session(f, "A")
    line = ax.get_lines()[0]
    assert list(line.get_ydata()) == [100, 113]  # starts at 100, ends at 100 + 13
    mixed = seat_facts(tables_from([cash, chips]))
    with pytest.raises(MixedMoneyError):
        plots.stack_through_session(mixed, "A")
    with pytest.raises(MixedMoneyError):
        plots.cumulative_net(mixed, "A")
    # In big bets, dollars and chips can share an axis.
    ax = plots.cumulative_net(mixed, "A", in_big_bets=True)
    total = ax.get_lines()[0].get_ydata()
    assert total[-1] == pytest.approx(13 / 8 - 30 / 80)
    with pytest.raises(ValueError, match="no hands of player"):
        plots.cumulative_net(f, "nobody")


@pytest.mark.slow
@pytest.mark.parametrize("by", ["hand", "date"])
def test_the_winnings_legend_is_beside_the_lines_not_on_them(by: str) -> None:
    """Drawn, the legend is right of the plot area and inside the figure: it covers no
    line (over time the lines run from corner to corner, where 'best' still fell on them)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from histkit.stats import load

    from .conftest import SAMPLE_DATA

    f = seat_facts(load([SAMPLE_DATA / "stud_hilo_cash_hero_500.txt"]))
    ax = plots.cumulative_net(f, "Hero", by=by)
    fig = ax.figure
    FigureCanvasAgg(fig).draw()
    legend, area = ax.get_legend().get_window_extent(), ax.get_window_extent()
    assert [t.get_text() for t in ax.get_legend().get_texts()][:3] == [
        "total",
        "showdown",
        "non-showdown",
    ]
    assert legend.x0 >= area.x1 and not legend.overlaps(area)
    assert fig.bbox.x0 <= legend.x0 and legend.x1 <= fig.bbox.x1
