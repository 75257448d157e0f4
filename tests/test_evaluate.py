"""Hand evaluation: issue 2's must-shows, brute-force agreement, names against the real corpus.

The independent references here (`ref_high`, `ref_razz`, `ref_low8`) are written the
obvious slow way from the rules, so they share no code or table with histkit.evaluate.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
from collections import Counter
from collections.abc import Sequence
from itertools import combinations
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from histkit.cards import DECK, Card, parse_cards
from histkit.evaluate import (
    NO_LOW,
    HandCategory,
    best_high_five,
    best_low8_five,
    best_razz_five,
    board_high_value,
    board_low_value,
    describe,
    high_category,
    high_name,
    high_value,
    high_values_batch,
    low8_name,
    low8_value,
    low8_values_batch,
    low_name,
    razz_value,
    razz_values_batch,
)
from histkit.model import Game
from tests.conftest import corpus_files, needs_corpus

C = parse_cards


def s(cards: Sequence[Card]) -> str:
    return " ".join(str(c) for c in cards)


# --- independent references -------------------------------------------------------------


def ref_high(cards: Sequence[Card]) -> tuple[int, tuple[int, ...]]:
    """(category, tie-break ranks) of exactly five cards, from the rules."""
    ranks = [int(c.rank) for c in cards]
    counts = Counter(ranks)
    groups = tuple(
        r for r, _ in sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    )
    shape = tuple(sorted(counts.values(), reverse=True))
    flush = len({c.suit for c in cards}) == 1
    distinct = sorted(counts, reverse=True)
    top = 0
    if len(distinct) == 5 and distinct[0] - distinct[4] == 4:
        top = distinct[0]
    elif distinct == [14, 5, 4, 3, 2]:
        top = 5
    if top and flush:
        return 8, (top,)
    if shape == (4, 1):
        return 7, groups
    if shape == (3, 2):
        return 6, groups
    if flush:
        return 5, groups
    if top:
        return 4, (top,)
    return {(3, 1, 1): 3, (2, 2, 1): 2, (2, 1, 1, 1): 1}.get(shape, 0), groups


def ref_razz(cards: Sequence[Card]) -> tuple[int, tuple[int, ...]]:
    """Badness of five cards in ace-to-five low (smaller = better): pair shape, then ranks."""
    counts = Counter(c.rank.low for c in cards)
    groups = tuple(
        r for r, _ in sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    )
    shape = tuple(sorted(counts.values(), reverse=True))
    order = [(1, 1, 1, 1, 1), (2, 1, 1, 1), (2, 2, 1), (3, 1, 1), (3, 2), (4, 1)]
    return order.index(shape), groups


def ref_low8(cards: Sequence[Card]) -> tuple[int, ...] | None:
    """Ranks (high first) of a five-card eight-or-better low, smaller = better; else None."""
    lows = sorted({c.rank.low for c in cards}, reverse=True)
    return tuple(lows) if len(lows) == 5 and lows[0] <= 8 else None


def deal(n: int, k: int, seed: int) -> npt.NDArray[np.int8]:
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, 52)), axis=1)[:, :k].astype(np.int8)


def all_combinations(n: int, k: int) -> npt.NDArray[np.int8]:
    """Every k-subset of range(n), lexicographic, built with numpy (2.6M rows in ~0.2 s)."""
    c = np.arange(n, dtype=np.int64)[:, None]
    for _ in range(k - 1):
        last = c[:, -1]
        reps = n - 1 - last
        rows = np.repeat(np.arange(len(c)), reps)
        offset = np.arange(len(rows)) - np.repeat(np.cumsum(reps) - reps, reps)
        c = np.hstack([c[rows], (np.repeat(last + 1, reps) + offset)[:, None]])
    return c.astype(np.int8)


def hand(row: Sequence[int]) -> tuple[Card, ...]:
    return tuple(DECK[i] for i in row)


def assert_same_order(values: Sequence[int], keys: Sequence[object], *, reverse: bool) -> None:
    """values order the hands exactly as keys do (ties exactly where keys tie)."""
    pairs = sorted(zip(values, keys, strict=True), key=lambda p: p[0])
    for (v1, k1), (v2, k2) in zip(pairs, pairs[1:], strict=False):
        if v1 == v2:
            assert k1 == k2, (v1, k1, k2)
        elif reverse:
            assert k1 > k2, (v1, v2, k1, k2)  # type: ignore[operator]
        else:
            assert k1 < k2, (v1, v2, k1, k2)  # type: ignore[operator]


# --- issue 2 must-shows -------------------------------------------------------------------

TEN_LOWS = [  # weakest to best
    "8c 7d 6h 5s 4c",
    "8c 7d 6h 5s 3c",
    "8c 6d 4h 2s Ac",
    "8c 4d 3h 2s Ac",
    "7c 6d 5h 4s 2c",
    "7c 6d 5h 2s Ac",
    "7c 5d 4h 3s 2c",
    "6c 5d 4h 3s 2c",
    "6c 4d 3h 2s Ac",
    "5c 4d 3h 2s Ac",
]


def test_ten_qualifying_lows_in_strict_order() -> None:
    low8 = [low8_value(C(t)) for t in TEN_LOWS]
    razz = [razz_value(C(t)) for t in TEN_LOWS]
    assert None not in low8
    assert low8 == sorted(low8) and len(set(low8)) == 10  # type: ignore[type-var]
    assert razz == low8  # a qualifying low is the same value in both games
    names = [low_name(C(t)) for t in TEN_LOWS]
    assert names[0] == "8,7,6,5,4" and names[2] == "8,6,4,2,A" and names[-1] == "5,4,3,2,A"
    assert names == [low8_name(C(t)) for t in TEN_LOWS]


def test_wheel_is_a_five_high_straight_and_the_best_low() -> None:
    wheel = C("As 2c 3d 4h 5s")
    assert high_category(high_value(wheel)) is HandCategory.STRAIGHT
    assert high_name(wheel) == "a straight, Ace to Five"
    assert high_value(wheel) < high_value(C("2c 3d 4h 5s 6c"))  # the lowest straight
    assert high_value(wheel) > high_value(C("Ac Ad Ah Ks Qc"))  # beats any three of a kind
    best = low8_value(wheel)
    assert best is not None and best == razz_value(wheel)
    every_low = low8_values_batch(deal(20_000, 7, seed=5))
    assert best >= every_low.max()
    assert low_name(wheel) == "5,4,3,2,A"


def test_split_pot_example() -> None:
    first = C("As 2c 4d 5h 7s 9d Kc")
    second = C("8h 8d 6c 6s Qh Jd 3c")
    assert high_value(second) > high_value(first)
    assert high_category(high_value(second)) is HandCategory.TWO_PAIR
    assert high_name(second) == "two pair, Eights and Sixes"
    assert low8_value(second) is None
    assert low8_name(first) == "7,5,4,2,A"
    assert describe(Game.STUD_HILO, first) == "HI: high card Ace; LO: 7,5,4,2,A"
    assert describe(Game.STUD_HILO, second) == "HI: two pair, Eights and Sixes"


@pytest.mark.slow
def test_all_five_card_hands_categories_and_7462_ranks() -> None:
    combos = all_combinations(52, 5)
    assert len(combos) == 2_598_960
    values = high_values_batch(combos, check=False)
    counts = np.bincount(values >> 20, minlength=9).tolist()
    assert counts == [1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 40]
    assert len(np.unique(values)) == 7462
    # the scalar path agrees on a spread of them
    for row in combos[::9973].tolist():
        assert high_value(hand(row)) == values[combos_index(row)]


def combos_index(row: Sequence[int]) -> int:
    """Lexicographic rank of a 5-subset of range(52) (the row number in all_combinations)."""
    from math import comb

    rank, prev = 0, -1
    for pos, v in enumerate(row):
        for skipped in range(prev + 1, v):
            rank += comb(51 - skipped, 4 - pos)
        prev = v
    return rank


def test_five_card_values_match_the_rules_reference() -> None:
    rows = deal(30_000, 5, seed=11).tolist()
    # plus every straight and straight flush shape, and the wheel, on purpose
    for top in range(5, 15):
        ranks = [top - i if top - i >= 2 else 14 for i in range(5)]
        rows.append([4 * (r - 2) + (i % 2) for i, r in enumerate(ranks)])
        rows.append([4 * (r - 2) + 3 for r in ranks])
    hands = [hand(r) for r in rows]
    high = high_values_batch(np.array(rows)).tolist()
    assert high == [high_value(h) for h in hands[:3000]] + high[3000:]
    assert_same_order(high, [ref_high(h) for h in hands], reverse=False)
    assert [int(high_category(v)) for v in high] == [ref_high(h)[0] for h in hands]
    razz = razz_values_batch(np.array(rows)).tolist()
    assert_same_order(razz, [ref_razz(h) for h in hands], reverse=True)
    low8 = low8_values_batch(np.array(rows)).tolist()
    keys = [ref_low8(h) for h in hands]
    assert [v == NO_LOW for v in low8] == [k is None for k in keys]
    assert_same_order(
        [v for v in low8 if v != NO_LOW], [k for k in keys if k is not None], reverse=True
    )


@pytest.mark.parametrize("k", [6, 7])
def test_best_of_k_agrees_with_brute_force(k: int) -> None:
    n = 100_000 if k == 7 else 30_000
    idx = deal(n, k, seed=k)
    subsets = [list(c) for c in combinations(range(k), 5)]
    assert len(subsets) == (21 if k == 7 else 6)
    for batch, none in (
        (high_values_batch, None),
        (razz_values_batch, None),
        (low8_values_batch, NO_LOW),
    ):
        best = batch(idx)
        brute = np.max([batch(idx[:, sub]) for sub in subsets], axis=0)
        assert np.array_equal(best, brute), batch.__name__
        if none is not None:
            assert (best == none).any() and (best != none).any()
    # the scalar path, on a subset
    high, razz, low8 = high_values_batch(idx), razz_values_batch(idx), low8_values_batch(idx)
    for i, row in enumerate(idx[:4000].tolist()):
        cards = hand(row)
        assert high_value(cards) == high[i]
        assert razz_value(cards) == razz[i]
        low = low8_value(cards)
        assert (NO_LOW if low is None else low) == low8[i]
        if low is not None:
            assert low == razz[i]  # with a qualifying low, razz's best five is that low


# --- names ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "name"),
    [
        ("Ah Kd 9c 7s 3h", "high card Ace"),
        ("9h 7d 5c 4s 2h", "high card Nine"),
        ("7h 7s 2c 4d 9h", "a pair of Sevens"),
        ("2h 2s 9c 4d 8h", "a pair of Deuces"),
        ("6h 6s 9c 4d 8h", "a pair of Sixes"),
        ("Qc Qs 6d 6s Kh", "two pair, Queens and Sixes"),
        ("2c 2d 3h 3s 4c", "two pair, Threes and Deuces"),
        ("Kc Ks Kd 2h 9c", "three of a kind, Kings"),
        ("Tc Jd Qh Ks Ac", "a straight, Ten to Ace"),
        ("3c 4d 5h 6s 7c", "a straight, Three to Seven"),
        ("Ac 2d 3h 4s 5c", "a straight, Ace to Five"),
        ("Ah Jh 8h 4h 2h", "a flush, Ace high"),
        ("Kc Kd Kh 7s 7c", "a full house, Kings full of Sevens"),
        ("Ac Ad Ah As 2c", "four of a kind, Aces"),
        ("9s Ts Js Qs Ks", "a straight flush, Nine to King"),
        ("Ad 2d 3d 4d 5d", "a straight flush, Ace to Five"),
        ("Th Jh Qh Kh Ah", "a Royal Flush"),
        # seven cards: the best five
        ("Qc Kh Qs Td Jh 6d 6s", "two pair, Queens and Sixes"),
        ("Kc Kd 9h 9s 4c 4d 2h", "two pair, Kings and Nines"),
        ("5c 5d 5h 9c 9d 9h 2s", "a full house, Nines full of Fives"),
        ("4h 5h 6h 7c 8h Kh 2s", "a flush, King high"),
        ("4h 5h 6h 7h 8h 8c 8d", "a straight flush, Four to Eight"),
        ("As Ks Qs Js Ts 9s 8s", "a Royal Flush"),
        ("Ac Ad Ah As Kc Kd Kh", "four of a kind, Aces"),
        # fewer than five cards (a show after everyone folded): no straights or flushes
        ("Kh Kc", "a pair of Kings"),
        ("Jd Js Jh Ts", "three of a kind, Jacks"),
        ("Jd Js 7s 7h", "two pair, Jacks and Sevens"),
        ("Ac Kd", "high card Ace"),
    ],
)
def test_high_names(cards: str, name: str) -> None:
    assert high_name(C(cards)) == name


def test_seven_card_kickers_decide() -> None:
    # three pairs: the third pair is only a kicker, and a higher single card beats it
    assert high_value(C("Kc Kd 9h 9s 4c 4d 2h")) < high_value(C("Kh Ks 9c 9d 5h 3s 2c"))
    assert high_value(C("Kc Kd 9h 9s 4c 4d Qh")) == high_value(C("Kh Ks 9c 9d Qd 3s 2c"))
    # quads with a set beside them: the kicker is the set's rank
    assert high_value(C("Ac Ad Ah As Kc Kd Kh")) == high_value(C("Ac Ad Ah As Ks 2c 3d"))


@pytest.mark.parametrize(
    ("cards", "name"),
    [
        ("Ac Qd 6s 7h 2h 3h 4c", "6,4,3,2,A"),
        ("3d 2s As 6s 5c 5d 2d", "6,5,3,2,A"),
        ("6h 8h 3d Ad Ac Kh 8c", "K,8,6,3,A"),
        ("Ah Td As Th Jh 2c 8h", "J,T,8,2,A"),
        ("3d 3s 5h 4h", "3,3,5,4"),  # PokerStars' four-card razz show: the pair first
    ],
)
def test_razz_names(cards: str, name: str) -> None:
    assert low_name(C(cards)) == name


def test_describe_by_game() -> None:
    cards = C("7h 2h 4c Jc 5h 7s 8c")
    assert describe(Game.STUD, cards) == "a pair of Sevens"
    assert describe(Game.STUD_HILO, cards) == "HI: a pair of Sevens; LO: 8,7,5,4,2"
    assert describe(Game.RAZZ, cards) == "Lo: 8,7,5,4,2"
    assert describe(Game.STUD_HILO, C("Ad Ah 3d 2d 5s")) == "HI: a pair of Aces"


def test_best_fives_in_reading_order() -> None:
    assert s(best_high_five(C("Kc 7d Kh 7s Ks 2c 9d"))) == "Ks Kh Kc 7s 7d"
    assert s(best_high_five(C("Ac 2d 3h 4s 5c Kd Qh"))) == "5c 4s 3h 2d Ac"
    assert s(best_high_five(C("4h 5h 6h 7c 8h Kh 2s"))) == "Kh 8h 6h 5h 4h"
    assert s(best_razz_five(C("Ah Td As Th Jh 2c 8h"))) == "Jh Td 8h 2c Ah"
    low = best_low8_five(C("7h 2h 4c Jc 5h 7s 8c"))
    assert low is not None and s(low) == "8c 7h 5h 4c 2h"
    assert best_low8_five(C("8h 8d 6c 6s Qh Jd 3c")) is None


# --- boards and bring-in -------------------------------------------------------------------


def test_board_high_ranking() -> None:
    b = board_high_value
    assert b(C("Kd")) < b(C("As"))
    assert b(C("As Qd")) < b(C("Ah Kc")) < b(C("2c 2d"))
    assert b(C("2c 2d")) < b(C("3c 3d")) < b(C("3h 3s Ac"))
    assert b(C("Ac Ad Kh Qs")) < b(C("3c 3d 2h 2s")) < b(C("2c 2d 2h 9s")) < b(C("2c 2d 2h 2s"))
    # four to a straight or a flush is only high cards
    assert b(C("5c 6d 7h 8s")) < b(C("2c 2d 3h 4s"))
    assert b(C("Ah Kh Qh Jh")) < b(C("2c 2d 3h 4s"))
    assert b(C("Ah Kh Qh Jh")) == b(C("As Kd Qc Jh"))
    # suits never break a tie: that is the caller's (position)
    assert b(C("As Ks")) == b(C("Ac Kd"))
    assert b(C("7s 7h")) == b(C("7c 7d"))


def test_board_low_ranking_for_razz() -> None:
    b = board_low_value
    assert b(C("As")) > b(C("2c")) > b(C("Ks"))  # the ace is the best razz card
    assert b(C("Ad 2c")) > b(C("3c 2d")) > b(C("Kc Qd"))
    assert b(C("Kc Qd")) > b(C("Ac Ad"))  # any pair is worse than no pair
    assert b(C("7c 6d 5h 4s")) > b(C("8c 3d 2h As"))  # highest card first
    assert b(C("Kc Kd 2h")) > b(C("2c 2d 2s"))  # a pair beats trips
    assert b(C("5c 4d 3h 2s")) == b(C("5s 4h 3d 2c"))  # no suit tie-break


# --- bad input -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "fn", [high_value, razz_value, low8_value, high_name, low_name, best_high_five]
)
def test_duplicate_cards_are_an_error(fn: object) -> None:
    with pytest.raises(ValueError, match="twice among 5 cards: Ah$"):
        fn(C("Ah Ah 2c 3d 4s"))  # type: ignore[operator]
    with pytest.raises(ValueError, match="twice"):
        fn(iter(C("2c 3d 4s 5h 2c")))  # type: ignore[operator]


def test_card_counts_are_checked() -> None:
    with pytest.raises(ValueError, match="1..7 cards"):
        high_value(C("2c 3c 4c 5c 6c 7c 8c 9c"))
    with pytest.raises(ValueError, match="1..7 cards"):
        razz_value(())
    with pytest.raises(ValueError, match="1..4 cards"):
        board_high_value(C("2c 3c 4c 5c 6c"))
    with pytest.raises(ValueError, match="5..7 cards"):
        best_high_five(C("2c 3c 4c 5c"))


def test_batch_input_is_checked() -> None:
    with pytest.raises(ValueError, match="duplicate card in row 1"):
        high_values_batch(np.array([[0, 1, 2, 3, 4], [5, 5, 6, 7, 8]]))
    with pytest.raises(ValueError, match="out of 0..51"):
        low8_values_batch(np.array([[0, 1, 2, 3, 52]]))
    with pytest.raises(ValueError, match="shape"):
        razz_values_batch(np.arange(5))
    with pytest.raises(ValueError, match="integers"):
        high_values_batch(np.zeros((2, 5)))
    assert high_values_batch(np.zeros((0, 7), dtype=np.int8)).shape == (0,)


def test_batch_accepts_fewer_cards_like_the_scalar_path() -> None:
    for k in (1, 2, 3, 4, 5, 6):
        idx = deal(500, k, seed=100 + k)
        high, razz = high_values_batch(idx), razz_values_batch(idx)
        for i, row in enumerate(idx.tolist()):
            assert high[i] == high_value(hand(row))
            assert razz[i] == razz_value(hand(row))


def test_values_after_known_cards_are_those_of_the_whole_hands() -> None:
    """Equity values a player's known cards with each set of cards to come: the same
    values as the whole hands', the flushes too (some rows of seven cards have one)."""
    from histkit.evaluate import batch

    lowest_flush = high_value(parse_cards("2c 3c 4c 5c 7c"))
    flushes = 0
    for known_n in range(8):
        idx = deal(400, 7, seed=200 + known_n)
        idx[:, :known_n] = idx[0, :known_n]  # one player's known cards on every row
        ok = np.array([len(set(r)) == 7 for r in idx.tolist()])
        idx = idx[ok]
        known = idx[0, :known_n].tolist()
        rest = idx[:, known_n:]
        for after, whole in (
            (batch.high_values_after, high_values_batch),
            (batch.low8_values_after, low8_values_batch),
            (batch.razz_values_after, razz_values_batch),
        ):
            assert after(known, rest).tolist() == whole(idx).tolist()
        flushes += int((batch.high_values_after(known, rest) >= lowest_flush).sum())
    assert flushes > 0


# --- the real corpus -----------------------------------------------------------------------

_SHOW = re.compile(r"^(?P<who>.+?): shows \[(?P<cards>[^\]]*)\] \((?P<text>.*)\)\s*$")
_SHOWED = re.compile(
    r" showed \[(?P<cards>[^\]]*)\] and (?:won \([^)]*\)|lost) with (?P<text>.*?)\s*$"
)
_BOARD = re.compile(r"^Board \[(?P<cards>[^\]]*)\]", re.IGNORECASE)


def _game(header: str) -> Game | None:
    if re.search(r"7 card stud hi/lo", header, re.IGNORECASE):
        return Game.STUD_HILO
    if re.search(r"razz", header, re.IGNORECASE):
        return Game.RAZZ
    if re.search(r"7 card stud", header, re.IGNORECASE):
        return Game.STUD
    return None  # hold'em, omaha, draw of a mixed rotation


def corpus_shows() -> list[tuple[str, Game, tuple[Card, ...], str]]:
    """(where, game, cards + the community card if any, PokerStars' text) per stud show."""
    out = []
    for path in corpus_files():
        text = path.read_bytes().decode("utf-8-sig")
        for block in re.split(r"(?m)^(?=PokerStars )", text):
            lines = block.splitlines()
            if not lines or (game := _game(lines[0])) is None:
                continue
            board: tuple[Card, ...] = ()
            for line in lines:
                if m := _BOARD.match(line):
                    board = parse_cards(m["cards"])
            for line in lines:
                m = _SHOW.match(line) or _SHOWED.search(line)
                if m:
                    where = f"{Path(path).name}: {line.strip()}" + (" +Board" if board else "")
                    out.append((where, game, parse_cards(m["cards"]) + board, m["text"]))
    return out


@needs_corpus
def test_every_stud_show_in_the_corpus_is_named_as_pokerstars_did() -> None:
    shows = corpus_shows()
    assert len(shows) >= 100  # 71 shows + 69 summary lines in the 2026 corpus
    games = Counter(g for _, g, _, _ in shows)
    assert set(games) == {Game.STUD, Game.STUD_HILO, Game.RAZZ}
    assert any(len(cards) == 4 for _, _, cards, _ in shows)  # the "Lo: 3,3,5,4" show
    assert any("Board" in w for w, _, _, _ in shows)  # the six-card show + community card
    wrong = [
        f"{where}\n   ours: {describe(game, cards)}"
        for where, game, cards, text in shows
        if describe(game, cards) != text
    ]
    assert not wrong, "\n".join(wrong)


@pytest.mark.slow
def test_cached_tables_are_the_built_ones_and_a_damaged_cache_is_rebuilt(tmp_path: Path) -> None:
    """The scalar tables come from histkit's private cache after the first run (no numpy
    at import then); what the cache gives is exactly what the build makes, and a cache
    file that is damaged or of the wrong shape is not trusted: the tables are built again
    and the file rewritten."""
    from histkit.evaluate import _tables

    codes, high, razz, flush, low8 = _tables._build_scalar_lists()
    assert dict(zip(codes, range(len(codes)), strict=True)) == _tables.STATE_BY_CODE
    assert (high, razz) == (_tables.HIGH_BY_STATE, _tables.RAZZ_BY_STATE)
    assert (flush, low8) == (_tables.FLUSH_BY_MASK, _tables.LOW8_BY_MASK)
    program = (
        "import hashlib, sys; from histkit.evaluate import _tables as t;"
        "from histkit.evaluate import high_value, razz_value;"
        "from histkit.cards import parse_cards;"
        "h = parse_cards('Ah Kh Qh Jh Th 2c 2d');"
        "print('numpy' in sys.modules, high_value(h), razz_value(h),"
        "hashlib.sha256(repr((sorted(t.STATE_BY_CODE.items()), t.HIGH_BY_STATE, t.RAZZ_BY_STATE,"
        "t.FLUSH_BY_MASK, t.LOW8_BY_MASK)).encode()).hexdigest())"
    )
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    env = {**os.environ, "HISTKIT_CACHE_DIR": str(cache)}
    env.pop("HISTKIT_NO_CACHE", None)
    root = Path(__file__).resolve().parents[1]

    def run() -> list[str]:
        out = subprocess.run(
            [sys.executable, "-c", program],
            env=env,
            capture_output=True,
            text=True,
            check=True,
            cwd=root,
        )
        return out.stdout.split()

    here = hashlib.sha256(
        repr(
            (
                sorted(_tables.STATE_BY_CODE.items()),
                _tables.HIGH_BY_STATE,
                _tables.RAZZ_BY_STATE,
                _tables.FLUSH_BY_MASK,
                _tables.LOW8_BY_MASK,
            )
        ).encode()
    ).hexdigest()
    built = run()  # an empty cache: built (with numpy) and written
    (file,) = cache.glob("evaluate-*.marshal")
    assert built[0] == "True" and built[3] == here
    cached = run()  # read back: the same tables, and numpy not loaded
    assert cached == ["False", *built[1:]]
    data = bytearray(file.read_bytes())
    data[len(data) // 2] ^= 0xFF  # one flipped byte
    file.write_bytes(bytes(data))
    assert run() == built  # not trusted: built again ...
    assert run() == cached  # ... and cached again
