"""Stud equity with dead cards: each player's expected share of the pot, exact or by
Monte Carlo, for Stud, Stud Hi/Lo (high, low, scoop) and Razz; all-in expected value of
real hands; equity street by street for the report.

    from histkit.equity import equity, parse_holding, parse_dead
    e = equity("stud_hilo", [parse_holding("As 2s | 3d 4d 5h"),
                             parse_holding("Kh Kd | Qc 7s 7h")],
               dead=parse_dead("8c 9d Js 2h"))
    e.method, e.samples, [p.equity for p in e.players]

Exact when there are at most `EXACT_LIMIT` deals of the unseen cards, else Monte Carlo
(`DEFAULT_SAMPLES` deals, seeded; `Equity.standard_error` says how close). Pots are paid
by the rules engine's own `histkit.rules.pots.split_pot`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from histkit.equity.engine import (
    DEFAULT_SAMPLES,
    EXACT_LIMIT,
    EXACT_MAX,
    Equity,
    Method,
    PlayerEquity,
    count_deals,
    equities_of,
    equity,
    pot_equities,
)
from histkit.equity.holding import EquityError, Holding, parse_dead, parse_holding

if TYPE_CHECKING:
    from histkit.equity.allin import AllInEV, allin_ev
    from histkit.equity.streets import street_equities

__all__ = [
    "DEFAULT_SAMPLES",
    "EXACT_LIMIT",
    "EXACT_MAX",
    "AllInEV",
    "Equity",
    "EquityError",
    "Holding",
    "Method",
    "PlayerEquity",
    "allin_ev",
    "count_deals",
    "equities_of",
    "equity",
    "parse_dead",
    "parse_holding",
    "pot_equities",
    "street_equities",
]


def __getattr__(name: str) -> Any:
    """The all-in EV and street-by-street parts read hands and the rules engine: imported
    when first asked for."""
    if name in ("AllInEV", "allin_ev"):
        from histkit.equity import allin

        return getattr(allin, name)
    if name == "street_equities":
        from histkit.equity import streets

        return streets.street_equities
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
