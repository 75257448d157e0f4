"""Stud equity: each player's expected share of a pot, over every deal of the unseen cards
(exact) or over random deals (Monte Carlo, with its standard error).

The cards nobody has seen are the 52 less every known card (players' cards, the dead
cards: folded up cards and any other card seen). Each player is dealt what is missing to
seven from them. For each deal the hands are valued with the numpy batch evaluators
(`histkit.evaluate`), the best high and the best qualifying low of each pot's players are
found, and the pot is paid by the rules engine's own `split_pot` (halves only when a low
qualifies, ties shared, no low: the high hand scoops). A deal's outcome is one of a few
patterns (who has the best high, who the best low), so the deals are counted per pattern
with `bincount` and `split_pot` runs once per pattern seen, not once per deal.

A player's hand values come from one of two places: evaluated for each deal, or looked up
in a table of every set of unknown cards that player could get (`deal.colex_rank`), built
once when there are fewer such sets than deals (a player with one or two cards to come
has 40-800 possible sets, against a million deals).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from math import comb
from typing import Any

import numpy as np
import numpy.typing as npt

from histkit.cards import DECK, Card
from histkit.equity import deal
from histkit.equity.holding import EquityError, Holding, check_cards
from histkit.evaluate import batch, high_values_batch, low8_values_batch, razz_values_batch
from histkit.evaluate._tables import NO_LOW
from histkit.model import Game
from histkit.rules.games import GameSpec, HighLow, spec_for
from histkit.rules.pots import Pot, split_pot
from histkit.rules.profile import POKERSTARS
from histkit.rules.showdown import low_qualifies

__all__ = [
    "DEFAULT_SAMPLES",
    "EXACT_LIMIT",
    "EXACT_MAX",
    "Method",
    "PlayerEquity",
    "Equity",
    "equity",
    "pot_equities",
    "count_deals",
    "equities_of",
]

EXACT_LIMIT = 1_000_000
"""`method="auto"` enumerates every deal when there are at most this many (one card to
come for up to three players, two each heads-up, ...); else Monte Carlo."""
EXACT_MAX = 200_000_000
"""`method="exact"` refuses more deals than this (hours of work): use Monte Carlo."""
DEFAULT_SAMPLES = 100_000
"""Monte Carlo deals by default: a standard error of at most 0.0016 on any equity."""

_UNITS = 1680  # a pot 2 x 840 (840 = lcm(1..8)): every half splits evenly among up to 8
_TABLE_MAX = 1 << 20  # largest value table built for one player
_IntArray = npt.NDArray[np.int64]
# one batch of deals: each player's high and low values (arrays that broadcast to one
# shape), and which cells of that shape are real deals (None: all)
_Values = tuple[
    "list[npt.NDArray[Any]] | None", "list[npt.NDArray[Any]] | None", "npt.NDArray[np.bool_] | None"
]


class Method(StrEnum):
    EXACT = "exact"
    MONTE_CARLO = "monte_carlo"


@dataclass(frozen=True, slots=True)
class PlayerEquity:
    """One player's share of one pot.

    `equity` is the expected share of the pot (ties split; in hi/lo each half as the
    award pays it, the high hand taking it all when no low qualifies). `high` is the
    expected share of the best high hand (a k-way tie counts 1/k), `low` the same of the
    best qualifying low (0 when no low qualifies), `scoop` the chance of taking the whole
    pot alone; each is None where the game has no such thing (no low in stud, no high in
    razz, no halves to scoop outside hi/lo). `error` is the standard error of `equity`
    (0.0 when exact)."""

    holding: Holding
    equity: float
    high: float | None
    low: float | None
    scoop: float | None
    error: float = 0.0


@dataclass(frozen=True, slots=True)
class Equity:
    """The players' shares of one pot, computed `method`-wise over `samples` deals
    (every deal when exact). `seats` are the indices, in the holdings given, of the
    players this pot is among; `no_low` is the chance no low qualifies (hi/lo)."""

    game: Game
    method: Method
    samples: int
    players: tuple[PlayerEquity, ...]
    seats: tuple[int, ...]
    no_low: float | None = None

    @property
    def standard_error(self) -> float:
        """The largest standard error of any player's equity (0.0 when exact)."""
        return max((p.error for p in self.players), default=0.0)


# ------------------------------------------------------------------------------ setup


@dataclass(frozen=True, slots=True)
class _Deal:
    spec: GameSpec
    known: tuple[tuple[int, ...], ...]  # card indices per player, a known community card too
    own: tuple[int, ...]  # cards each player still gets for himself
    shared: int  # 1 when the last card is one community card still to come
    pool: npt.NDArray[np.int8]  # the unseen cards

    @property
    def sizes(self) -> tuple[int, ...]:
        return (*self.own, *((1,) if self.shared else ()))


def _setup(
    game: Game | GameSpec | str,
    holdings: Sequence[Holding],
    dead: Sequence[Card],
    community: Card | None,
    shared_last: bool | None,
) -> _Deal:
    spec = spec_for(Game(game) if isinstance(game, str) else game)
    holdings = list(holdings)
    check_cards(holdings, dead, community)
    seen = {c.index for h in holdings for c in h.known} | {c.index for c in dead}
    if community is not None:
        seen.add(community.index)
    pool = np.array([c.index for c in DECK if c.index not in seen], dtype=np.int8)
    base = 6 if community is not None else 7
    own = [base - len(h.known) for h in holdings]
    need = sum(own)
    shared = 0
    if community is None and shared_last is not False:
        # the dealer runs short: the last card is one face-up card for everyone
        short = need > len(pool) and all(k >= 1 for k in own)
        if shared_last or short:
            if any(k < 1 for k in own):
                raise EquityError("a community card needs every player to have a card to come")
            own = [k - 1 for k in own]
            shared = 1
            need = sum(own) + 1
    if need > len(pool):
        raise EquityError(
            f"too few cards left: the players need {need} more and {len(pool)} are unseen"
        )
    known = tuple(
        tuple(c.index for c in h.known) + ((community.index,) if community is not None else ())
        for h in holdings
    )
    return _Deal(spec, known, tuple(own), shared, pool)


def count_deals(
    game: Game | GameSpec | str,
    holdings: Sequence[Holding],
    *,
    dead: Sequence[Card] = (),
    community: Card | None = None,
    shared_last: bool | None = None,
) -> int:
    """How many different deals of the unseen cards exact equity would go through."""
    d = _setup(game, holdings, dead, community, shared_last)
    return deal.count_deals(len(d.pool), d.sizes)


# --------------------------------------------------------------------------- values


def _evaluate(
    spec: GameSpec, cards: npt.NDArray[np.int8]
) -> tuple[_IntArray | None, _IntArray | None]:
    """(high, low) values of each row of seven cards, as the showdown values them (None
    where the game has no such half)."""
    high = low = None
    if spec.pots is not HighLow.LOW:
        high = high_values_batch(cards, check=False)
    if low_qualifies(spec):
        low = low8_values_batch(cards, check=False)  # NO_LOW where none qualifies
    elif spec.pots is not HighLow.HIGH:
        low = razz_values_batch(cards, check=False)  # razz, or hi/lo without a qualifier
    return high, low


def _evaluate_after(
    spec: GameSpec, known: Sequence[int], unknown: npt.NDArray[np.int8]
) -> tuple[_IntArray | None, _IntArray | None]:
    """`_evaluate` of a player's known cards (indices) with each row of `unknown`: the
    known cards are walked once, not once per row."""
    high = low = None
    if spec.pots is not HighLow.LOW:
        high = batch.high_values_after(known, unknown)
    if low_qualifies(spec):
        low = batch.low8_values_after(known, unknown)
    elif spec.pots is not HighLow.HIGH:
        low = batch.razz_values_after(known, unknown)
    return high, low


def _product_values(d: _Deal, budget: int = 1 << 18) -> Iterator[_Values]:
    """Every deal (no community card to come), as each player's values over a grid.

    Each player's possible sets of unknown cards are valued once; a deal is one set per
    player, no card in two sets. So the deals are the product of the players' set lists
    less the overlapping combinations, found with a bit mask per set: the same count as
    `deal.exact_deals` (the product exceeds it by a few percent), and no deal is ever built
    card by card: player i's values lie along axis i and broadcast over the others."""
    n, m = len(d.pool), len(d.own)
    sets = [deal.combinations(n, k) for k in d.own]
    one = np.uint64(1)
    masks = [
        np.bitwise_or.reduce(np.left_shift(one, s.astype(np.uint64)), axis=1)
        if s.shape[1]
        else np.zeros(len(s), dtype=np.uint64)
        for s in sets
    ]
    vals = [_evaluate_after(d.spec, d.known[i], d.pool[sets[i]]) for i in range(m)]
    first = max(range(m), key=lambda i: len(sets[i]))  # the longest list is cut in parts
    rest = 1
    for i in range(m):
        rest *= 1 if i == first else len(sets[i])
    step = max(1, budget // rest)

    def along(i: int, a: npt.NDArray[Any], part: slice) -> npt.NDArray[Any]:
        shape = [1] * m
        shape[i] = -1
        return (a[part] if i == first else a).reshape(shape)

    for start in range(0, len(sets[first]), step):
        part = slice(start, start + step)
        used = along(0, masks[0], part)
        ok: npt.NDArray[np.bool_] | None = None
        for i in range(1, m):
            mine = along(i, masks[i], part)
            clash = (used & mine) == 0
            ok = clash if ok is None else ok & clash
            used = used | mine
        highs = None if vals[0][0] is None else [along(i, v[0], part) for i, v in enumerate(vals)]  # type: ignore[arg-type]
        lows = None if vals[0][1] is None else [along(i, v[1], part) for i, v in enumerate(vals)]  # type: ignore[arg-type]
        yield highs, lows, ok


def _grid_size(d: _Deal) -> int:
    """Cells of `_product_values`' grid: the product of the players' set lists. Near the
    deals' count for two or three players; for many players with one card each it is
    many times more (seven players of ten unseen cards: 10^7 cells for 604,800 deals),
    and listing the deals themselves is cheaper."""
    n, cells = len(d.pool), 1
    for k in d.own:
        cells *= comb(n, k)
    return cells


class _Hands:
    """Every player's hand values (high, low) for each deal of a batch: looked up in a
    table of all the sets of unknown cards the player could get when there are fewer such
    sets than deals, else evaluated from his known cards on (`_evaluate_after`)."""

    def __init__(self, d: _Deal, total_rows: int) -> None:
        self.spec = d.spec
        self.pool = d.pool
        self.m = len(d.own)
        n = len(d.pool)
        self.cols: list[list[int]] = []
        self.known: list[tuple[int, ...]] = []
        self.tables: dict[int, tuple[_IntArray | None, _IntArray | None]] = {}
        for i in range(self.m):
            start = sum(d.own[:i])
            cols = list(range(start, start + d.own[i]))
            if d.shared:
                cols.append(sum(d.own))  # the community card's column
            self.cols.append(cols)
            self.known.append(d.known[i])
            # a table pays off only when it is much smaller than the rows it serves: a
            # lookup (a sort and a rank per row) costs about what evaluating the row does
            if not cols or comb(n, len(cols)) * 8 <= min(total_rows, 8 * _TABLE_MAX):
                sets = deal.combinations(n, len(cols))
                sets = sets[np.argsort(deal.colex_rank(sets))]  # row r: the set of rank r
                self.tables[i] = _evaluate_after(self.spec, d.known[i], self.pool[sets])
        self.direct = [i for i in range(self.m) if i not in self.tables]

    def values(self, deals: npt.NDArray[np.int16]) -> _Values:
        """Each player's high and low values for the deals (one array per player)."""
        rows, m = len(deals), self.m
        spec = self.spec
        high: list[Any] = [None] * m
        low: list[Any] = [None] * m
        for i, (h, lo) in self.tables.items():
            cols = self.cols[i]
            if not cols:
                at: npt.NDArray[np.int64] = np.zeros(rows, dtype=np.int64)
            else:
                at = deal.set_rank(deals[:, cols])
            high[i] = None if h is None else h[at]
            low[i] = None if lo is None else lo[at]
        for i in self.direct:
            high[i], low[i] = _evaluate_after(
                spec, self.known[i], self.pool[deals[:, self.cols[i]]]
            )
        return (
            None if spec.pots is HighLow.LOW else high,
            None if spec.pots is HighLow.HIGH else low,
            None,
        )


# --------------------------------------------------------------------------- tallies


def _patterns(
    highs: Sequence[npt.NDArray[Any]] | None,
    lows: Sequence[npt.NDArray[Any]] | None,
    pot: Sequence[int],
) -> npt.NDArray[np.int32]:
    """Each deal's outcome in one pot as a number: bit j set when the pot's j-th player
    has the best high, bit m + j when he has the best qualifying low (no such bit when no
    low qualifies). `highs[i]` and `lows[i]` are player i's values, arrays that broadcast
    to one shape (a column per player, or the axes of a product of set lists)."""
    m = len(pot)
    key: npt.NDArray[np.int32] | None = None

    def add(winners: npt.NDArray[np.bool_], bit: int) -> None:
        nonlocal key
        term = np.left_shift(winners.astype(np.int32), bit)
        key = term if key is None else key | term

    if highs is not None:
        hs = [highs[i] for i in pot]
        best = hs[0]
        for h in hs[1:]:
            best = np.maximum(best, h)
        for j, h in enumerate(hs):
            add(h == best, j)
    if lows is not None:
        ls = [lows[i] for i in pot]
        best = ls[0]
        for lo in ls[1:]:
            best = np.maximum(best, lo)
        some = best != NO_LOW
        for j, lo in enumerate(ls):
            add((lo == best) & some, m + j)
    assert key is not None
    return key


@cache
def _outcome(key: int, m: int) -> tuple[tuple[int, ...], ...]:
    """What one pattern pays each of the pot's m players, in 1/1680ths of the pot (whole
    numbers: the sums over deals stay exact, so every machine gets the same figures), as
    rows: share of the pot (by `split_pot`, the award rule), share of the best high, of
    the best low, scoop, and (row 4, the same for every player) all of it when no low
    qualified."""
    names = tuple(str(i) for i in range(m))
    hw = tuple(names[i] for i in range(m) if key >> i & 1)
    lw = tuple(names[i] for i in range(m) if key >> (m + i) & 1)
    awards = split_pot(Pot(0, _UNITS, names), hw, lw, known={}, order=names, profile=POKERSTARS)
    paid = dict.fromkeys(names, 0)
    for a in awards:
        for p, amount in a.expected:
            paid[p] += amount
    return (
        tuple(paid[p] for p in names),
        tuple(_UNITS // len(hw) if p in hw else 0 for p in names),
        tuple(_UNITS // len(lw) if p in lw else 0 for p in names),
        tuple(_UNITS if paid[p] == _UNITS else 0 for p in names),
        tuple(0 if lw else _UNITS for _ in names),
    )


class _Outcomes:
    """`_outcome` of every pattern seen so far for pots of m players, as one array, so a
    call gathers them in one step (the same few patterns recur in every call)."""

    def __init__(self, m: int) -> None:
        self.m = m
        # dense up to 6 players (4,096 patterns, 1 MB); 7 or 8 share a pot rarely
        self.table = np.zeros((1 << (2 * m), 5, m), dtype=np.int64) if m <= 6 else None
        self.known = np.zeros(1 << (2 * m), dtype=bool)

    def of(self, keys: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
        if self.table is None:
            return np.array([_outcome(k, self.m) for k in keys.tolist()], dtype=np.int64)
        new = keys[~self.known[keys]]
        for k in new.tolist():
            self.table[k] = _outcome(k, self.m)
        self.known[new] = True
        return self.table[keys]


_OUTCOMES: dict[int, _Outcomes] = {}


def _outcomes(keys: npt.NDArray[np.int64], m: int) -> npt.NDArray[np.int64]:
    table = _OUTCOMES.get(m)
    if table is None:
        table = _OUTCOMES[m] = _Outcomes(m)
    return table.of(keys)


def _summarise(
    spec: GameSpec,
    counts: _IntArray,
    m: int,
    holdings: Sequence[Holding],
    method: Method,
) -> tuple[tuple[PlayerEquity, ...], float | None]:
    n = int(counts.sum())
    keys = np.flatnonzero(counts)
    x = _outcomes(keys, m)  # (patterns, 5, m), in 1/1680ths
    c = counts[keys]
    # whole-number sums (exact, in any order), one division each: the same on every machine
    mean = np.einsum("k,kij->ij", c, x) / (n * _UNITS)
    exact = method is Method.EXACT or n < 2
    if exact:
        err = np.zeros(m)
    else:
        second = np.einsum("k,ki->i", c, x[:, 0, :] ** 2) / (n * _UNITS * _UNITS)
        err = np.sqrt(np.maximum(second - mean[0] ** 2, 0) / (n - 1))
    hilo = spec.pots is HighLow.HILO
    players = tuple(
        PlayerEquity(
            holding=holdings[i],
            equity=float(mean[0, i]),
            high=float(mean[1, i]) if spec.pots is not HighLow.LOW else None,
            low=float(mean[2, i]) if spec.pots is not HighLow.HIGH else None,
            scoop=float(mean[3, i]) if hilo else None,
            error=float(err[i]),
        )
        for i in range(m)
    )
    return players, (float(mean[4, 0]) if hilo else None)


# ------------------------------------------------------------------------------ API


def pot_equities(
    game: Game | GameSpec | str,
    holdings: Sequence[Holding],
    pots: Sequence[Sequence[int]] | None = None,
    *,
    dead: Sequence[Card] = (),
    community: Card | None = None,
    shared_last: bool | None = None,
    method: str = "auto",
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    exact_limit: int = EXACT_LIMIT,
) -> tuple[Equity, ...]:
    """The equity of each pot's players (`pots`: the indices of the holdings each pot is
    among, main pot first; default one pot for all), over the same deals.

    `dead`: cards out of play (folded up cards, any card seen); `community`: a community
    card already dealt; `shared_last`: the last card to come is one community card (None:
    when the unseen cards cannot give every player his own). `method`: "exact" (every
    deal; `EquityError` beyond `EXACT_MAX`), "monte_carlo" (`samples` random deals from
    `seed`), or "auto" (exact up to `exact_limit` deals)."""
    d = _setup(game, holdings, dead, community, shared_last)
    pot_list = [tuple(range(len(holdings)))] if pots is None else [tuple(p) for p in pots]
    for p in pot_list:
        if len(p) < 1 or any(not 0 <= i < len(holdings) for i in p):
            raise EquityError(f"a pot names players that are not there: {p}")
    total = deal.count_deals(len(d.pool), d.sizes)
    if method == "auto":
        chosen = Method.EXACT if total <= exact_limit else Method.MONTE_CARLO
    else:
        try:
            chosen = Method(method)
        except ValueError:
            raise EquityError(
                f"method must be auto, exact or monte_carlo, not {method!r}"
            ) from None
    if chosen is Method.EXACT and total > EXACT_MAX:
        raise EquityError(
            f"{total:,} deals are too many to enumerate (at most {EXACT_MAX:,}): use Monte Carlo"
        )
    if chosen is Method.MONTE_CARLO and samples < 2:
        raise EquityError("Monte Carlo needs at least 2 samples")
    if chosen is Method.MONTE_CARLO and seed < 0:
        raise EquityError(f"seed {seed}: a seed is a whole number from 0 up")
    rows = total if chosen is Method.EXACT else samples
    counts = [np.zeros(1 << (2 * len(p)), dtype=np.int64) for p in pot_list]
    values: Iterator[_Values]
    if chosen is Method.EXACT and not d.shared and _grid_size(d) <= 2 * total:
        values = _product_values(d)
    else:
        hands = _Hands(d, rows)
        batches = (
            deal.exact_deals(len(d.pool), d.sizes)
            if chosen is Method.EXACT
            else deal.random_deals(len(d.pool), d.sizes, samples, seed)
        )
        values = (hands.values(b) for b in batches)
    for highs, lows, ok in values:
        for p, c in zip(pot_list, counts, strict=True):
            keys = _patterns(highs, lows, p)
            if ok is not None:
                keys = np.broadcast_to(keys, ok.shape)[ok]
            c += np.bincount(keys.ravel(), minlength=len(c))
    out = []
    for p, c in zip(pot_list, counts, strict=True):
        players, no_low = _summarise(d.spec, c, len(p), [holdings[i] for i in p], chosen)
        out.append(Equity(d.spec.game, chosen, rows, players, p, no_low))
    return tuple(out)


def equities_of(
    game: Game | GameSpec | str,
    problems: Sequence[tuple[Sequence[Holding], Sequence[Card]]],
    *,
    community: Card | None = None,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
) -> list[tuple[float, ...]]:
    """Monte Carlo equity of several spots at once: each problem is (holdings, dead
    cards), the answer each player's share of the pot, `samples` deals per problem.

    Problems of one shape (as many players, each with as many known cards, as many dead
    cards: the views the players at one table have of the same street) are dealt and
    valued in one vectorised pass, which costs little more than one problem; others one
    by one. The simulator asks this once per street for every player still in."""
    if not problems:
        return []
    if seed < 0:
        raise EquityError(f"seed {seed}: a seed is a whole number from 0 up")
    deals = [_setup(game, h, d, community, None) for h, d in problems]
    shapes = {(d.own, d.shared, len(d.pool), tuple(len(k) for k in d.known)) for d in deals}
    if len(shapes) > 1 or samples < 2:
        return [
            tuple(
                p.equity
                for p in equity(
                    game,
                    h,
                    dead=d,
                    community=community,
                    method="monte_carlo",
                    samples=max(samples, 2),
                    seed=seed,
                ).players
            )
            for h, d in problems
        ]
    first = deals[0]
    spec, m, n = first.spec, len(first.own), len(first.pool)
    count = len(deals)
    rows = count * samples
    which = np.repeat(np.arange(count), samples)
    draws = np.concatenate(list(deal.random_deals(n, first.sizes, rows, seed)))
    cards = np.stack([d.pool for d in deals])[which[:, None], draws]  # (rows, K) cards
    hands = []
    start = 0
    for j in range(m):
        known = np.array([d.known[j] for d in deals], dtype=np.int8).reshape(count, -1)
        own = cards[:, start : start + first.own[j]]
        start += first.own[j]
        parts = [known[which], own]
        if first.shared:
            parts.append(cards[:, -1:])
        hands.append(np.hstack(parts))
    high, low = _evaluate(spec, np.concatenate(hands))
    highs = None if high is None else [high[j * rows : (j + 1) * rows] for j in range(m)]
    lows = None if low is None else [low[j * rows : (j + 1) * rows] for j in range(m)]
    keys = _patterns(highs, lows, range(m)).astype(np.int64)
    width = 1 << (2 * m)
    counts = np.bincount(which * width + keys, minlength=count * width).reshape(count, width)
    seen = np.flatnonzero(counts.any(axis=0))
    shares = _outcomes(seen, m)[:, 0, :]  # (patterns, m): each pattern's share, in 1/1680ths
    eq = (counts[:, seen] @ shares) / (samples * _UNITS)  # whole-number sums: exact
    return [tuple(float(x) for x in row) for row in eq]


def equity(
    game: Game | GameSpec | str,
    holdings: Sequence[Holding],
    *,
    dead: Sequence[Card] = (),
    community: Card | None = None,
    shared_last: bool | None = None,
    method: str = "auto",
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    exact_limit: int = EXACT_LIMIT,
) -> Equity:
    """Each player's share of one pot among all of them (see `pot_equities`)."""
    (one,) = pot_equities(
        game,
        holdings,
        dead=dead,
        community=community,
        shared_last=shared_last,
        method=method,
        samples=samples,
        seed=seed,
        exact_limit=exact_limit,
    )
    return one
