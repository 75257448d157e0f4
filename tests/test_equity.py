"""histkit.equity: exact equity against brute-force counts written here, Monte Carlo
within its stated error of the exact answer, hi/lo shares that add up to one pot, dead
cards, community cards, seeds, and the errors a set of holdings can have."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import pytest

from histkit.cards import DECK, Card, parse_cards
from histkit.equity import (
    EXACT_LIMIT,
    EquityError,
    Holding,
    Method,
    count_deals,
    equity,
    parse_dead,
    parse_holding,
    pot_equities,
)
from histkit.evaluate import high_value, low8_value, razz_value

H = parse_holding


# ------------------------------------------------------------------ the brute force
# Written without the engine: every deal of the unseen cards, one player after the other,
# each hand valued with the scalar evaluators, the pot split by the rule as the house
# deals it (best high takes the high half, best eight-or-better low the low half, ties
# share a half evenly; no qualifying low: the high hand takes the whole pot).


def _deals(unseen: list[Card], needs: list[int]):  # type: ignore[no-untyped-def]
    if not needs:
        yield []
        return
    for mine in combinations(unseen, needs[0]):
        rest = [c for c in unseen if c not in mine]
        for others in _deals(rest, needs[1:]):
            yield [list(mine), *others]


def _split(game: str, hands: list[list[Card]]) -> list[Fraction]:
    n = len(hands)
    share = [Fraction(0)] * n

    def give(amount: Fraction, winners: list[int]) -> None:
        for w in winners:
            share[w] += amount / len(winners)

    if game == "razz":
        vals = [razz_value(h) for h in hands]
        give(Fraction(1), [i for i in range(n) if vals[i] == max(vals)])
        return share
    highs = [high_value(h) for h in hands]
    high_winners = [i for i in range(n) if highs[i] == max(highs)]
    if game == "stud":
        give(Fraction(1), high_winners)
        return share
    lows = [low8_value(h) for h in hands]
    qualified = [v for v in lows if v is not None]
    if not qualified:
        give(Fraction(1), high_winners)
        return share
    give(Fraction(1, 2), high_winners)
    give(Fraction(1, 2), [i for i in range(n) if lows[i] == max(qualified)])
    return share


def brute_force(game: str, holdings: list[Holding], dead: tuple[Card, ...] = ()) -> list[Fraction]:
    seen = {c for h in holdings for c in h.known} | set(dead)
    unseen = [c for c in DECK if c not in seen]
    needs = [7 - len(h.known) for h in holdings]
    total = [Fraction(0)] * len(holdings)
    count = 0
    for deal in _deals(unseen, needs):
        hands = [list(h.known) + extra for h, extra in zip(holdings, deal, strict=True)]
        for i, s in enumerate(_split(game, hands)):
            total[i] += s
        count += 1
    return [t / count for t in total]


# ------------------------------------------------------------------ exact vs brute force

ONE_CARD_TO_COME = [
    # (game, holdings, dead)
    ("stud_hilo", ["As 2s | 3d 4d 5h 9c", "Kh Kd | Qc 7s 7h 8d"], "8c 9d Js 2h"),
    ("stud_hilo", ["Ac 3c | 5d 6h Kd 8s", "2d 4c | 7c 9h Qs Ts", "Kc Ks | Ad 2c 9s 9d"], "3h 4h"),
    ("stud_hilo", ["9c Tc | Jd Qh Kd 8s", "9d Td | Js Qs Kh 8h"], ""),  # tied highs, no low
    ("stud", ["Ah Ad | Kc Qd 7s 2c", "9s 9h | 9c 4d 4h Js"], "Ac Kd 4c"),
    ("stud", ["2c 3c | 4c 5c Kd Ks", "Qh Qd | Qs Jc Jd 8h", "Th Js | 9h 8d 7c 6s"], "Jh"),
    ("razz", ["Ac 2d | 3h 4s Kd 6c", "2c 3d | 4h 5s 7c 8d"], "Ah 5c 5d"),
    ("razz", ["Ac 2d | 3h 9s Kd Qc", "As 2h | 3c 9d Ks Qh", "4c 5d | 6h 7s Jc Jd"], ""),
]


@pytest.mark.parametrize(("game", "players", "dead"), ONE_CARD_TO_COME)
def test_exact_equity_equals_a_brute_force_count_with_one_card_to_come(
    game: str, players: list[str], dead: str
) -> None:
    holdings = [H(p) for p in players]
    dead_cards = parse_dead(dead)
    want = brute_force(game, holdings, dead_cards)
    got = equity(game, holdings, dead=dead_cards, method="exact")
    assert got.method is Method.EXACT and got.standard_error == 0.0
    assert got.samples == count_deals(game, holdings, dead=dead_cards)
    for p, w in zip(got.players, want, strict=True):
        assert p.equity == pytest.approx(float(w), abs=1e-12)


def test_exact_equity_equals_a_brute_force_count_with_two_cards_to_come() -> None:
    """Heads-up on 5th street in razz: two cards each (~400k deals in the brute force
    would be slow here, so the dead cards shrink the deck to 16 unseen)."""
    holdings = [H("Ac 2d | 3h 9s Kd"), H("As 3d | 4h 5s Kc")]
    keep = parse_cards("2c 4c 5c 6c 7c 8c 6d 7d 8d 9d Td 2h 5h 6h Ah 2s")
    dead = tuple(
        c for c in DECK if c not in keep and c not in {*holdings[0].known, *holdings[1].known}
    )
    want = brute_force("razz", holdings, dead)
    got = equity("razz", holdings, dead=dead, method="exact")
    assert got.samples == 16 * 15 * 14 * 13 // 4
    for p, w in zip(got.players, want, strict=True):
        assert p.equity == pytest.approx(float(w), abs=1e-12)


def test_many_players_with_one_card_each_are_counted_deal_by_deal_exactly(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Five players, one card each from eight unseen: the grid of every player's card
    (8^5 cells) is five times the deals (6,720), so the deals are listed instead. Both
    ways count the same deals: the brute force's figures, and the grid's to the bit."""
    from histkit.equity import engine

    holdings = [
        H("Ac 2d | 3h 9s Kd 4c"),
        H("As 3d | 4h 5s Kc 7d"),
        H("Qh Qd | Qs Jc Jd 8h"),
        H("Th Js | 9h 8d 7c 6s"),
        H("2c 3c | 5c 6c Ks 9d"),
    ]
    keep = parse_cards("2h 5h 6h Ah Tc Td 8s 7s")
    known = {c for h in holdings for c in h.known}
    dead = tuple(c for c in DECK if c not in keep and c not in known)
    want = brute_force("stud_hilo", holdings, dead)
    listed = equity("stud_hilo", holdings, dead=dead, method="exact")
    assert listed.samples == 8 * 7 * 6 * 5 * 4
    for p, w in zip(listed.players, want, strict=True):
        assert p.equity == pytest.approx(float(w), abs=1e-12)
    monkeypatch.setattr(engine, "_grid_size", lambda d: 0)  # force the grid
    assert equity("stud_hilo", holdings, dead=dead, method="exact") == listed


def test_dead_cards_change_the_answer_and_are_never_dealt() -> None:
    """A four-heart flush draw against trip jacks, one card each to come: three hearts
    folded face up leave him fewer outs."""
    holdings = [H("Ah Kh | 2h 7h 9d Qc"), H("Jc Js | Jd 4s 8d 3c")]
    dead_cards = parse_dead("3h 5h 6h")
    live = equity("stud", holdings, method="exact")
    dead = equity("stud", holdings, dead=dead_cards, method="exact")
    assert 0 < dead.players[0].equity < live.players[0].equity
    assert live.samples == 40 * 39 and dead.samples == 37 * 36
    for e, d in ((live, ()), (dead, dead_cards)):
        want = brute_force("stud", holdings, d)
        assert [p.equity for p in e.players] == pytest.approx([float(w) for w in want])
    # the dead cards are never dealt: with every heart but the Ah Kh 2h 7h dead, no flush
    hearts = tuple(c for c in DECK if c.suit.char == "h" and c not in holdings[0].known)
    no_hearts = equity("stud", holdings, dead=hearts, method="exact")
    assert no_hearts.players[0].equity == pytest.approx(
        float(brute_force("stud", holdings, hearts)[0])
    )


# ------------------------------------------------------------------ hi/lo parts


def test_hilo_high_low_scoop_and_shares_add_up_to_one_pot() -> None:
    holdings = [H("Ac 3c | 5d 6h Kd 8s"), H("2d 4c | 7c 9h Qs Ts"), H("Kc Ks | Ad 2c 9s 9d")]
    e = equity("stud_hilo", holdings, method="exact")
    assert sum(p.equity for p in e.players) == pytest.approx(1.0, abs=1e-12)
    assert sum(p.high or 0 for p in e.players) == pytest.approx(1.0, abs=1e-12)
    # the low half is paid only when a low qualifies
    assert e.no_low is not None
    assert sum(p.low or 0 for p in e.players) == pytest.approx(1 - e.no_low, abs=1e-12)
    for p in e.players:
        assert 0 <= (p.scoop or 0) <= p.equity <= 1
    # equity = the high hand's whole pot when no low, its half otherwise, plus the low half
    # (checked against the brute force above); the kings never make a low
    assert e.players[2].low == 0.0
    mc = equity("stud_hilo", holdings, method="monte_carlo", samples=50_000, seed=3)
    assert sum(p.equity for p in mc.players) == pytest.approx(1.0, abs=1e-12)


def test_a_wheel_scoops_only_when_it_has_the_best_high_too() -> None:
    holdings = [H("As 2s | 3d 4d 5h 9c"), H("Kh Kd | Qc 7s 7h 8d")]
    e = equity("stud_hilo", holdings, method="exact")
    wheel, kings = e.players
    assert wheel.low == 1.0 and kings.low == 0.0  # A-2-3-4-5 is the best low there is
    assert wheel.scoop == pytest.approx(wheel.high)  # he scoops exactly when he wins high
    assert wheel.equity == pytest.approx(0.5 + wheel.high / 2)  # type: ignore[operator]


def test_stud_and_razz_leave_out_what_they_do_not_have() -> None:
    s = equity("stud", [H("Ah Ad | Kc"), H("| 9s")], method="monte_carlo", samples=2000)
    assert all(p.low is None and p.scoop is None and p.high == p.equity for p in s.players)
    r = equity("razz", [H("Ah 2d | 3c"), H("| 9s")], method="monte_carlo", samples=2000)
    assert all(p.high is None and p.scoop is None and p.low == p.equity for p in r.players)
    assert s.no_low is None and r.no_low is None


# ------------------------------------------------------------------ Monte Carlo


@pytest.mark.parametrize(
    ("game", "players", "dead"),
    [
        ("stud_hilo", ["As 2s | 3d 4d 5h", "Kh Kd | Qc 7s 7h"], "8c 9d Js 2h"),
        ("stud", ["2c 3c | 4c 5c Kd 9s", "Qh Qd | Qs Jc Jd 2s", "Th Js | 9h 8d 7c 3s"], "Jh"),
        ("razz", ["Ac 2d | 3h 9s Td", "As 3d | 4h 5s Qc"], "6c 6d"),
    ],
)
def test_monte_carlo_is_within_its_stated_error_of_the_exact_answer(
    game: str, players: list[str], dead: str
) -> None:
    holdings = [H(p) for p in players]
    dead_cards = parse_dead(dead)
    exact = equity(game, holdings, dead=dead_cards, method="exact")
    mc = equity(game, holdings, dead=dead_cards, method="monte_carlo", samples=40_000, seed=11)
    assert mc.method is Method.MONTE_CARLO and mc.samples == 40_000
    for e, m in zip(exact.players, mc.players, strict=True):
        assert m.error > 0 or e.equity in (0.0, 1.0)
        # 4.5 standard errors: with a handful of players the chance of a miss is ~1e-5
        assert abs(m.equity - e.equity) <= 4.5 * m.error + 1e-12


def test_the_same_seed_gives_the_same_answer_and_another_seed_another() -> None:
    holdings = [H("As 2s | 3d"), H("Kh Kd | Qc"), H("| 7s")]
    a = equity("stud_hilo", holdings, method="monte_carlo", samples=5000, seed=1)
    b = equity("stud_hilo", holdings, method="monte_carlo", samples=5000, seed=1)
    c = equity("stud_hilo", holdings, method="monte_carlo", samples=5000, seed=2)
    assert a == b
    assert a.players != c.players


def test_auto_enumerates_up_to_the_limit_and_samples_beyond_it() -> None:
    small = [H("As 2s | 3d 4d 5h 9c"), H("Kh Kd | Qc 7s 7h 8d")]
    big = [H("As 2s | 3d"), H("Kh Kd | Qc")]
    assert count_deals("stud", small) <= EXACT_LIMIT < count_deals("stud", big)
    assert equity("stud", small).method is Method.EXACT
    assert equity("stud", big, samples=1000).method is Method.MONTE_CARLO
    assert equity("stud", small, exact_limit=10).method is Method.MONTE_CARLO


# ------------------------------------------------------------------ several pots


def test_pot_equities_give_each_pot_among_its_own_players() -> None:
    holdings = [H("Ah Ad | Kc Qd 7s 2c"), H("9s 9h | 9c 4d 4h Js"), H("Th Jh | Qh Kh 2d 3d")]
    main, side = pot_equities("stud", holdings, [(0, 1, 2), (1, 2)], method="exact")
    assert main.seats == (0, 1, 2) and side.seats == (1, 2)
    alone = equity("stud", holdings[1:], dead=holdings[0].known, method="exact")
    # the side pot is between players 1 and 2 with player 0's cards out of the deck
    for s, a in zip(side.players, alone.players, strict=True):
        assert s.equity == pytest.approx(a.equity, abs=1e-12)
    assert sum(p.equity for p in main.players) == pytest.approx(1.0)


# ------------------------------------------------------------------ the deck running out


def test_eight_players_to_seventh_street_share_one_community_card() -> None:
    """8 players with six cards each: 48 dealt, 4 left, so the 7th card is one card for
    all. Exact over the 4 unseen cards: each is the community card in 1 deal of 4."""
    boards = [
        "2c 3c | 4c 5c 6c 7c",
        "8c 9c | Tc Jc Qc Kc",
        "Ac 2d | 3d 4d 5d 6d",
        "7d 8d | 9d Td Jd Qd",
        "Kd Ad | 2h 3h 4h 5h",
        "6h 7h | 8h 9h Th Jh",
        "Qh Kh | Ah 2s 3s 4s",
        "5s 6s | 7s 8s 9s Ts",
    ]
    holdings = [H(b) for b in boards]
    e = equity("stud", holdings, method="exact")
    assert e.samples == 4
    by_card = []
    for c in parse_cards("Js Qs Ks As"):
        hands = [list(h.known) + [c] for h in holdings]
        by_card.append(_split("stud", hands))
    for i, p in enumerate(e.players):
        assert p.equity == pytest.approx(float(sum(s[i] for s in by_card) / 4))
    with pytest.raises(EquityError, match="too few cards"):
        equity("stud", holdings, shared_last=False)


# ------------------------------------------------------------------ bad input


@pytest.mark.parametrize(
    ("players", "dead", "message"),
    [
        (["As 2s | 3d", "As Kd | Qc"], "", "As appears twice"),
        (["As 2s | 3d", "Kh Kd | Qc"], "3d", "3d appears twice"),
        (["As 2s 4s 5s | 3d", "Kh Kd | Qc"], "", "too many cards"),
        (["As 2s | 3d 4d 5d 6d 7d", "Kh Kd | Qc"], "", "too many cards"),
        (["As 2s | 3d"], "", "at least two players"),
    ],
)
def test_holdings_that_cannot_be_dealt_are_an_error(
    players: list[str], dead: str, message: str
) -> None:
    with pytest.raises(EquityError, match=message):
        equity("stud", [H(p) for p in players], dead=parse_dead(dead))


def test_parse_holding_reads_down_and_up_cards_and_unknown_marks() -> None:
    h = H("As 2s | 3d 4d 5h")
    assert h.down == parse_cards("As 2s") and h.up == parse_cards("3d 4d 5h")
    assert H("?? ?? | Kh") == H("| Kh") == Holding((), parse_cards("Kh"))
    assert H("As 2s 3d 4d 5h 6h 7c").down == parse_cards("As 2s 7c")  # stud order
    with pytest.raises(EquityError, match="not a card"):
        H("As 2z | 3d")
    # a whole hand with unknown down cards keeps its positions: the 7th card is down
    assert H("?? As 3d 4d 5h 6h ??") == Holding(parse_cards("As"), parse_cards("3d 4d 5h 6h"))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        # an eighth card was dropped without a word (the 8s of a hand of eight)
        ("As 2s 3s 4s 5s 6s 7s 8s", "8 cards"),
        # an unknown up card was dropped, so the player got one more card to come
        ("As 2s | 3d ??", "among the up cards"),
        ("As 2s | ?? 3d", "among the up cards"),
        ("As 2s ?? 4d 5d 6d 7d", "among the up cards"),
        ("As 2s | 3d | 4d", "more than one '|'"),
    ],
)
def test_parse_holding_refuses_what_it_used_to_drop(text: str, message: str) -> None:
    with pytest.raises(EquityError, match=message):
        H(text)


def test_a_negative_seed_is_an_equity_error_not_numpy_s() -> None:
    holdings = [H("As 2s | 3d"), H("Kh Kd | Qc")]
    with pytest.raises(EquityError, match="seed -1"):
        equity("stud", holdings, method="monte_carlo", samples=100, seed=-1)


# ------------------------------------------------------------------ the command line


def test_histkit_equity_prints_json_in_the_documented_shape(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import json

    from histkit.cli import main

    argv = ["equity", "--game", "stud_hilo", "As 2s | 3d 4d 5h", "Kh Kd | Qc 7s 7h"]
    argv += ["--dead", "8c 9d Js 2h", "--format", "json"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert {"game", "method", "samples", "players"} <= set(out)
    assert out["game"] == "stud_hilo" and out["method"] == "exact"
    want = equity(
        "stud_hilo",
        [H("As 2s | 3d 4d 5h"), H("Kh Kd | Qc 7s 7h")],
        dead=parse_dead("8c 9d Js 2h"),
    )
    assert out["samples"] == want.samples
    assert [p["cards"] for p in out["players"]] == ["As 2s | 3d 4d 5h", "Kh Kd | Qc 7s 7h"]
    for got, p in zip(out["players"], want.players, strict=True):
        assert {"equity", "high", "low", "scoop"} <= set(got)
        assert (got["equity"], got["high"], got["low"], got["scoop"]) == (
            p.equity,
            p.high,
            p.low,
            p.scoop,
        )
    assert sum(p["equity"] for p in out["players"]) == pytest.approx(1.0)


def test_histkit_equity_samples_with_a_seed_and_says_how(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from histkit.cli import main

    argv = ["equity", "--game", "razz", "Ah 2d | 3c", "| 9s", "--samples", "5000"]
    assert main([*argv, "--seed", "3"]) == 0
    first = capsys.readouterr().out
    assert main([*argv, "--seed", "3"]) == 0
    assert capsys.readouterr().out == first
    assert "Razz, Monte Carlo: 5,000 random deals (seed 3); standard error" in first
    assert "high" not in first.splitlines()[1]  # razz has no high column


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--game", "holdem", "As Kd", "Qc Qh"], "unknown game 'holdem'"),
        (["--game", "stud", "As 2s | 3d", "As Kd | Qc"], "As appears twice"),
        (["--game", "stud", "As 2s 4s 5s | 3d", "Kh Kd | Qc"], "too many cards"),
        (["--game", "stud", "As 2s | 3d", "Kh Kd | Qc", "--dead", "3d"], "3d appears twice"),
        (["--game", "stud", "As 2s | 3d", "Kh Kd | Qc", "--exact"], "too many to enumerate"),
        (["--game", "stud", "As 2s | Zd", "Kh Kd | Qc"], "not a card"),
        (["--game", "stud", "As 2s | 3d", "Kh Kd | Qc", "--samples", "1"], "at least 2"),
        (["--game", "stud8", "As 2s | 3d", "Kh Kd | Qc", "--seed", "-5"], "--seed -5"),
        (
            ["--game", "stud8", "As 2s | 3d", "Kh Kd | Qc", "--samples", "10000001"],
            "more than 10,000,000",
        ),
        (["--game", "stud", "As 2s 3s 4s 5s 6s 7s 8s", "Kh Kd | Qc"], "8 cards"),
        (["--game", "stud", "As 2s | 3s ??", "Kh Kd | Qc"], "among the up cards"),
    ],
)
def test_histkit_equity_bad_input_is_a_one_line_usage_error(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from histkit.cli import main

    assert main(["equity", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("histkit equity: error: ")
    assert message in err
