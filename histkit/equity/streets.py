"""Each player's equity at each street of a hand, from its `cards` table rows: where a pot
was won or lost.

At each street, after its cards are dealt, the players still in are valued against each
other with the cards of the view asked for, the cards of players who had folded before
that street dead (what of them was seen: their up cards, the hero's own down cards):

- "seen": what the hero saw then — his own cards and everybody's up cards;
- "shown": every card the record shows, the down cards shown at the end included (as the
  hand looks once it is over).

The report draws both; the table rows are those `histkit.tables` writes (player, street,
card, up, known), so the same works on hands read from text, Parquet or the database.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal

from histkit.cards import Card, parse_card
from histkit.equity.engine import Method, equity
from histkit.equity.holding import EquityError, Holding
from histkit.model import Game

__all__ = ["CardRow", "StreetEquity", "street_equities"]

View = Literal["seen", "shown"]
CardRow = tuple[str | None, int, str | None, bool]
"""(player, street, card or None when unknown, dealt face up); player None: community."""

EXACT_DEALS = 200_000  # a report replays a few hands: each street well under a second
SAMPLES = 10_000  # a standard error of at most 0.005


@dataclass(frozen=True, slots=True)
class StreetEquity:
    """The equity of each player still in when `street`'s cards were out."""

    street: int
    players: tuple[str, ...]
    equity: tuple[float, ...]
    method: Method
    samples: int
    error: float = 0.0  # the largest standard error (0.0 when exact)


def street_equities(
    game: Game | str,
    rows: Iterable[CardRow],
    folded: Mapping[str, int],
    *,
    hero: str | None = None,
    view: View = "shown",
    seed: int | str = 0,
) -> list[StreetEquity]:
    """The equities street by street (streets where two or more players were still in
    and the cards can be valued). `folded`: the street each player folded on."""
    g = Game(game) if isinstance(game, str) else game
    cards: list[tuple[str, int, Card | None, bool]] = []
    community: tuple[int, Card] | None = None
    for player, street, text, up in rows:
        card = None if text is None else parse_card(text)
        if player is None:
            if card is not None:
                community = (int(street), card)
            continue
        cards.append((player, int(street), card, bool(up)))
    base = seed if isinstance(seed, int) else zlib.crc32(seed.encode())
    out = []
    dealt_in = list(dict.fromkeys(p for p, _, _, _ in cards))
    streets = {s for _, s, _, _ in cards} | ({community[0]} if community is not None else set())
    for street in sorted(streets):
        # still in when the street's cards are out: nobody folds before the deal
        live = [p for p in dealt_in if folded.get(p, 8) >= street]
        if len(live) < 2:
            continue
        holdings = []
        for p in live:
            mine = [(c, up) for q, s, c, up in cards if q == p and s <= street and c is not None]
            if view == "seen" and p != hero:
                mine = [(c, up) for c, up in mine if up]
            holdings.append(
                Holding(tuple(c for c, up in mine if not up), tuple(c for c, up in mine if up))
            )
        dead = [
            c
            for q, s, c, up in cards
            if q not in live and c is not None and s <= street and folded.get(q, 8) < street
            if up or q == hero or view == "shown"
        ]
        board = community[1] if community is not None and community[0] <= street else None
        try:
            e = equity(
                g,
                holdings,
                dead=dead,
                community=board,
                method="auto",
                samples=SAMPLES,
                seed=base + street,
                exact_limit=EXACT_DEALS,
            )
        except EquityError:
            continue  # a record whose cards cannot all be real: no figure rather than a wrong one
        out.append(
            StreetEquity(
                street,
                tuple(live),
                tuple(p.equity for p in e.players),
                e.method,
                e.samples,
                e.standard_error,
            )
        )
    return out
