"""All-in expected value: a real hand and a hand built here worked by hand, every all-in hand
of the real corpus (every site), when each pot's stake was settled, and the `allin_ev` table
through text, Parquet folders and the hand database."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from histkit.equity.allin import NotValued, allin_ev, pot_closings
from histkit.model import Action, Hand, Street
from histkit.phh import read_phh
from histkit.reader import iter_hands
from histkit.rules import replay
from histkit.tables import tables_from
from tests.conftest import CORPUS

IPOKER_STT = CORPUS / "ipoker" / "7-StudHi-USD-STT-5-201103.txt"

needs_corpus = pytest.mark.skipif(
    not CORPUS.is_dir(), reason="../shared/hands is absent (fresh clone without the corpus)"
)


def _hands(*paths: Path) -> list[Hand]:
    return [h for h in iter_hands(list(paths)) if isinstance(h, Hand)]


@pytest.mark.skipif(not IPOKER_STT.is_file(), reason="the real iPoker sit & go file is absent")
def test_one_real_hand_worked_by_hand() -> None:
    """iPoker sit & go #4045006063, Stud, 80-chip antes. Player0 brings in for 150 and
    folds, Player13 and Player19 fold on 3rd: their door cards 6c, 3d, 6h are dead. Player1
    (the hero) and Player11 bet it up; on 6th street Player1 is all-in for his last 216 and
    Player11 calls. The last money is in with one card each to come:

        Player1   Qs Ts | Qc 3c Kh 8s   a pair of queens
        Player11  Ac Kc | Th 2h Jh 5c   ace high, shown at the showdown

    Unseen: 52 - 12 cards held - 3 dead = 37, so 37 x 36 = 1,332 deals (Player1's card,
    then Player11's). Player11 wins only with
      - a queen (Qh, Qd: A-K-Q-J-T straight; Player1 can make no more than trips): 2 x 36 = 72
      - an ace (Ad, Ah, As: aces), unless Player1 improves: his 11 cards that make two pair
        or trips are Qh Qd, Kd Ks, Td Tc, 8c 8d 8h, 3h 3s, so 3 x (36 - 11) = 75
      - a king (Kd, Ks: kings), unless Player1 improves with one of the other 10: 2 x 26 = 52
    and with the other 30 cards he stays below a pair of queens. So Player11 wins
    72 + 75 + 52 = 199 deals and Player1 the other 1,133: equity 1133/1332 = 0.8506.

    The pot: antes 5 x 80 = 400, the bring-in 150, and 3,296 - 80 = 3,216 more from each of
    the two: 400 + 150 + 2 x 3,216 = 6,982 chips, no rake (a tournament). Player1 collected
    it all: net 6,982 - 3,296 = +3,686. His expected take is 6,982 x 1133/1332 = 5,938.9,
    so 5,939 and an EV-adjusted net of 5,939 - 3,296 = +2,643; Player11's is
    6,982 x 199/1332 = 1,043.1, so 1,043, net -3,296 and EV net 1,043 - 3,296 = -2,253.
    """
    (hand,) = [h for h in _hands(IPOKER_STT) if h.hand_id == "4045006063"]
    ev = allin_ev(hand, strict=True)
    assert ev is not None
    assert ev.street is Street.SIXTH and str(ev.method) == "exact" and ev.samples == 37 * 36
    p1, p11 = ev.seats
    assert (p1.player, p11.player) == ("Player1", "Player11")
    assert p1.all_in and not p11.all_in
    assert Fraction(p1.equity).limit_denominator(2000) == Fraction(1133, 1332)
    assert Fraction(p11.equity).limit_denominator(2000) == Fraction(199, 1332)
    assert (p1.contributed, p1.collected, p1.net) == (3296, 6982, 3686)
    assert (p11.contributed, p11.collected, p11.net) == (3296, 0, -3296)
    assert (p1.ev_collected, p1.ev_net) == (5939, 2643)
    assert (p11.ev_collected, p11.ev_net) == (1043, -2253)
    assert p1.street is p11.street is Street.SIXTH and p1.at_stake == p11.at_stake == 6982
    (pot,) = ev.pots
    assert (pot.pot, pot.amount, pot.players) == (0, 6982, ("Player1", "Player11"))


# A short stack all-in on 6th street while the two others bet on to 7th: a main pot, whose
# stake is settled on 6th, and a side pot played out on 7th (stud, PokerStars' rules)
_SIDE_POT_HAND = """variant = "F7S"
antes = [1, 1, 1, 1]
bring_in = 2
small_bet = 4
big_bet = 8
starting_stacks = [20, 100, 100, 100]
players = ["A", "B", "C", "D"]
actions = [
  "d dh p1 7c7d7h", "d dh p2 AhKh4h", "d dh p3 2c3d5s", "d dh p4 ????Ks",
  "p2 pb", "p3 cc", "p4 f", "p1 cc",
  "d dh p1 2s", "d dh p2 8h", "d dh p3 6d", "p2 cbr 4", "p3 cc", "p1 cc",
  "d dh p1 9c", "d dh p2 Th", "d dh p3 Qs", "p3 cc", "p1 cc", "p2 cbr 8", "p3 cc", "p1 cc",
  "d dh p1 Jd", "d dh p2 3c", "d dh p3 9s", "p3 cbr 8", "p1 cc", "p2 cc",
  "d dh p1 Js", "d dh p2 5c", "d dh p3 4c", "p3 cbr 8", "p2 cc",
  "p3 sm 2c3d5s6dQs9s4c", "p2 sm AhKh4h8hTh3c5c", "p1 sm 7c7d7h2s9cJdJs",
]
winnings = [61, 22, 0, 0]
hand = "built"
_site = "pokerstars"
_unit = "chip"
"""


def test_a_main_pot_is_valued_when_its_all_in_player_went_all_in() -> None:
    """A (20 chips) is all-in on 6th street calling C's bet; B calls, and on 7th C bets
    and B calls again: the hand's last chip goes in on 7th, but A's stake (the main pot)
    was settled on 6th, when B's call put in its last chip.

        A   7c 7d | 7h 2s 9c Jd    trips
        B   Ah Kh | 4h 8h Th 3c    an ace-high flush, no pair
        C   2c 3d | 5s 6d Qs 9s    at best a straight (a 4 to 2-3-4-5-6)
        D   folded on 3rd: his door card Ks is dead

    With one card to come each, B's flush stays a flush (no pair to fill, no straight
    flush draw) and beats anything C can make; A beats the flush only with a full house
    or quads: 7s, 2h 2d, 9h 9d, Jc Jh Js, 8 cards of the 52 - 18 held - 1 dead = 33
    unseen. A's card alone decides the main pot: A's equity is 8/33, B's 25/33, C's 0
    (exact: 33 x 32 x 31 = 32,736 deals).

    The main pot holds 20 from each of A, B and C and D's ante: 61. The side pot, B and C
    11 each (22), was played out on 7th: it counts as paid, to B (flush over C's straight).
    A filled up (Js) and took the main pot.

        A  ev_collected = 61 x 8/33 = 14.8 -> 15, ev_net 15 - 20 = -5 (net 61 - 20 = +41)
        B  ev_collected = 61 x 25/33 + 22 = 68.2 -> 68, ev_net 68 - 31 = +37 (net -9)
        C  ev_collected = 0, ev_net = net = -31
    """
    (hand,) = read_phh(_SIDE_POT_HAND.split("\n"), "built.phh")
    assert isinstance(hand, Hand)
    rp = replay(hand)
    assert not rp.errors, [v.message for v in rp.errors]
    assert [(p.amount, p.eligible) for p in rp.pots] == [(61, ("A", "B", "C")), (22, ("B", "C"))]
    last_chip = max(i for i, e in enumerate(hand.events) if isinstance(e, Action) and e.amount)
    assert hand.events[last_chip].street is Street.SEVENTH
    main, side = pot_closings(hand, rp)
    assert (main.street, main.players, main.all_in, main.valued) == (
        Street.SIXTH,
        ("A", "B", "C"),
        True,
        True,
    )
    assert (side.street, side.all_in, side.valued) == (Street.SEVENTH, False, False)
    ev = allin_ev(hand, rp, strict=True)
    assert ev is not None and ev.street is Street.SIXTH
    assert str(ev.method) == "exact" and ev.samples == 33 * 32 * 31
    (pot,) = ev.pots
    assert (pot.pot, pot.amount, pot.players) == (0, 61, ("A", "B", "C"))
    shares = [Fraction(x).limit_denominator(100) for x in pot.equity]
    assert shares == [Fraction(8, 33), Fraction(25, 33), 0]
    a, b, c = ev.seats
    assert [s.player for s in ev.seats] == ["A", "B", "C"]
    assert (a.all_in, b.all_in, c.all_in) == (True, False, False)
    assert all(s.street is Street.SIXTH and s.at_stake == 61 for s in ev.seats)
    assert (a.contributed, a.collected, a.net, a.ev_collected, a.ev_net) == (20, 61, 41, 15, -5)
    assert (b.contributed, b.collected, b.net, b.ev_collected, b.ev_net) == (31, 22, -9, 68, 37)
    assert (c.contributed, c.collected, c.net, c.ev_collected, c.ev_net) == (31, 0, -31, 0, -31)


def test_a_record_without_deals_is_not_valued_and_says_why() -> None:
    import json
    import tomllib

    head, _, rest = _SIDE_POT_HAND.partition("actions = [")
    actions = tomllib.loads(_SIDE_POT_HAND)["actions"]
    kept = [a for a in actions if not a.startswith("d dh") and " sm " not in a]
    text = head + "actions = " + json.dumps(kept) + "\n" + rest.partition("]\n")[2]
    (hand,) = read_phh(text.split("\n"), "no-deals.phh")
    assert isinstance(hand, Hand) and not replay(hand).coverage.deals
    with pytest.raises(NotValued, match="writes no deals"):
        allin_ev(hand, strict=True)
    assert allin_ev(hand) is None


# every hand of the real corpus with a player all-in before 7th street that has no all-in
# EV, and why (each reason is checked in the hand)
NOT_VALUED = {
    ("ipoker", "4044980507"): "uncontested",  # everyone folds to an all-in completion
}


def _all_in_before_seventh(hand: Hand) -> bool:
    return any(
        isinstance(e, Action) and e.all_in and e.street < Street.SEVENTH for e in hand.events
    )


@needs_corpus
def test_every_all_in_hand_of_the_real_corpus_is_valued() -> None:
    """Every hand of every site where a player went all-in before 7th street: valued, or
    listed above with its reason; each valued pot's expected takes add up to it."""
    hands = _hands(CORPUS)
    valued, sites, left_out = 0, set(), {}
    for hand in hands:
        if not _all_in_before_seventh(hand):
            assert allin_ev(hand) is None
            continue
        rp = replay(hand)
        ev = allin_ev(hand, rp, strict=True)
        closings = pot_closings(hand, rp)
        if ev is None:
            left_out[hand.site, hand.hand_id] = (
                "uncontested"
                if all(len(c.players) < 2 for c in closings if c.all_in)
                else "settled on 7th"
            )
            continue
        valued += 1
        sites.add(hand.site)
        assert ev.street < Street.SEVENTH and ev.pots
        at_equity = {c.pot: c for c in closings if c.valued}
        assert {v.pot for v in ev.pots} == {i for i in at_equity if rp.pots[i].net > 0}
        for v in ev.pots:
            assert v.players == at_equity[v.pot].players and v.street == at_equity[v.pot].street
            assert sum(v.equity) == pytest.approx(1.0)
        players = {p for v in ev.pots for p in v.players}
        assert [s.player for s in ev.seats] == [
            s.player for s in sorted(hand.seats, key=lambda s: s.seat) if s.player in players
        ]
        pots = sum(p.net for p in rp.pots)
        taken = sum(s.ev_collected for s in ev.seats)
        assert abs(taken - pots) <= len(ev.seats), (hand.hand_id, taken, pots)
        for s in ev.seats:
            assert 0.0 <= s.equity <= 1.0 and s.at_stake > 0
            assert s.ev_net == s.ev_collected - s.contributed
            assert (
                s.error == 0.0 if str(ev.method) == "exact" else s.error > 0 or s.equity in (0, 1)
            )
    assert left_out == NOT_VALUED
    assert valued >= 30  # 32 hands of six sites when this was written
    assert len(sites) >= 5


@needs_corpus
def test_all_in_players_whose_opponents_bet_on_to_seventh_street_are_valued() -> None:
    """The hands the first all-in EV left out: a player all-in before 7th street while
    the others kept betting a side pot to 7th. His pot is valued on his all-in street."""
    want = {
        # (site, hand): (all-in player, street his pot was settled, players in it then)
        ("merge", "36487050-15"): (
            "Player5",  # all-in with the ante: the main pot is the antes
            Street.THIRD,
            ("Player5", "Player15", "Player19", "Player0", "Player1", "Player17"),
        ),
        ("merge", "36487050-19"): (
            "Player11",
            Street.FOURTH,
            ("Player3", "Player17", "Player11", "Player9"),
        ),
        ("pokerstars", "80908721832"): (
            "RomiTu",
            Street.FIFTH,
            ("gugulu300", "RomiTu", "Kirilma"),
        ),
        ("pokerstars", "60974484959"): (
            "Spacemasa",  # mucked: his down cards stay unknown
            Street.FOURTH,
            ("ranchim", "Tumim", "Spacemasa"),
        ),
    }
    found = 0
    for hand in _hands(CORPUS):
        if (hand.site, hand.hand_id) not in want:
            continue
        player, street, players = want[hand.site, hand.hand_id]
        last_chip = max(i for i, e in enumerate(hand.events) if isinstance(e, Action) and e.amount)
        assert hand.events[last_chip].street is Street.SEVENTH  # the hand was played on
        ev = allin_ev(hand, strict=True)
        assert ev is not None
        main = ev.pots[0]
        assert (main.pot, main.street, main.players) == (0, street, players)
        seat = {s.player: s for s in ev.seats}[player]
        assert seat.all_in and seat.street is street and seat.at_stake == main.amount
        assert seat.ev_collected == round(main.amount * main.equity[players.index(player)])
        assert {v.pot for v in ev.pots} == {0}  # the side pot was played out on 7th
        found += 1
    assert found == len(want)


@needs_corpus
def test_the_allin_ev_table_has_a_row_per_player_still_in(tmp_path: Path) -> None:
    hands = _hands(CORPUS / "ipoker")
    t = tables_from(hands)
    assert t.allin_ev is not None
    rows = t.allin_ev.to_pylist()
    want = {(h.hand_id, s.player) for h in hands if (ev := allin_ev(h)) for s in ev.seats}
    assert {(r["hand_id"], r["player"]) for r in rows} == want
    units = {r["hand_id"]: r["money_unit"] for r in t.hands.to_pylist()}
    for r in rows:
        assert r["site"] == "ipoker" and r["money_unit"] == units[r["hand_id"]]
        assert r["net"] == r["collected"] - r["contributed"]
        assert r["ev_net"] == r["ev_collected"] - r["contributed"]
    audited = tables_from(hands, audit=True)
    assert audited.allin_ev is not None and audited.allin_ev.equals(t.allin_ev)


@pytest.mark.slow
def test_allin_ev_is_the_same_from_text_parquet_and_the_database(tmp_path: Path) -> None:
    """A simulated tournament (short stacks go all-in): the table, and stats' EV-adjusted
    net, read from the hand histories, from `histkit parse -o` and from the database."""
    import histkit.db as hdb
    from histkit.cli import main
    from histkit.simulate import write_session
    from histkit.sources import load, resolve
    from histkit.stats import player_stats

    text = tmp_path / "t.txt"
    write_session(text, "stud_hilo", 120, players=8, seed=104, tournament=True)
    out = tmp_path / "out"
    assert main(["parse", str(text), "-o", str(out), "--jobs", "1"]) == 0
    db = tmp_path / "h.duckdb"
    hdb.import_paths([text], db=db)
    got = {
        "text": load(resolve([text])),
        "parquet": load(resolve([out])),
        "db": load(resolve(db=db)),
    }
    keys = ["hand_id", "player"]

    def rows(t: dict) -> list[dict]:  # type: ignore[type-arg]
        return sorted(t["allin_ev"].to_pylist(), key=lambda r: [r[k] for k in keys])

    first = rows(got["text"])
    valued = {h.hand_id for h in _hands(text) if allin_ev(h) is not None}
    assert valued and {r["hand_id"] for r in first} == valued  # all-in hands were played
    for name, tables in got.items():
        assert rows(tables) == first, name
        st = player_stats(tables)
        assert st["ev_net"].notna().all() and int(st["allin_hands"].sum()) == len(first)
    # EV net differs from net only in the all-in hands, by what the cards gave there (per
    # player and money unit: each tournament's chips are their own)
    hands = got["text"]["hands"].to_pandas()
    unit_of = dict(zip(hands["hand_id"], hands["money_unit"], strict=True))
    st = player_stats(got["text"])
    assert st["money_unit"].nunique() > 1  # several tournaments, never added together
    luck: dict[tuple[str, str], int] = {}
    for r in first:
        key = (r["player"], unit_of[r["hand_id"]])
        luck[key] = luck.get(key, 0) + r["net"] - r["ev_net"]
    for row in st.itertuples():
        key = (str(row.player), str(row.money_unit))
        assert int(row.net) - int(row.ev_net) == luck.get(key, 0), key
    assert any(luck.values())


# ------------------------------------------------------------------ report and plots


def test_street_equities_value_each_street_with_the_cards_of_each_view() -> None:
    from histkit.cards import parse_cards
    from histkit.equity import equity, parse_holding
    from histkit.equity.streets import street_equities

    # Hero [As 2s] 3d, then 4d; Villain ?? ?? Kh, then Kd; Third ?? ?? 9c folds on 3rd;
    # Villain's down cards Qc Qh are shown at the end
    rows = [
        ("Hero", 3, "As", False), ("Hero", 3, "2s", False), ("Hero", 3, "3d", True),
        ("Villain", 3, "Qc", False), ("Villain", 3, "Qh", False), ("Villain", 3, "Kh", True),
        ("Third", 3, None, False), ("Third", 3, None, False), ("Third", 3, "9c", True),
        ("Hero", 4, "4d", True), ("Villain", 4, "Kd", True),
    ]  # fmt: skip
    folded = {"Third": 3}
    seen = street_equities("stud_hilo", rows, folded, hero="Hero", view="seen", seed=1)
    shown = street_equities("stud_hilo", rows, folded, hero="Hero", view="shown", seed=1)
    assert [e.street for e in seen] == [3, 4] == [e.street for e in shown]
    assert seen[0].players == ("Hero", "Villain", "Third")  # Third folds during 3rd
    assert seen[1].players == ("Hero", "Villain")
    # 4th street as Hero saw it: his four cards against Kh Kd, the folded 9c dead
    want = equity(
        "stud_hilo",
        [parse_holding("As 2s | 3d 4d"), parse_holding("| Kh Kd")],
        dead=parse_cards("9c"),
        samples=10_000,
        seed=1 + 4,
    )
    assert seen[1].equity == pytest.approx(tuple(p.equity for p in want.players))
    # with the queens shown, kings up over queens down: Villain is further ahead
    assert shown[1].equity[1] > seen[1].equity[1]


@pytest.mark.slow
def test_the_report_shows_ev_net_and_equity_street_by_street(tmp_path: Path) -> None:
    from histkit.report import build_report
    from histkit.simulate import write_session
    from histkit.stats import load

    text = tmp_path / "t.txt"
    write_session(text, "stud_hilo", 120, players=8, seed=104, tournament=True)
    tables = load([text])
    html = build_report(tables, "Hero", top=3)
    # tournaments only: chips won and chips at all-in EV, per tournament
    assert "<th>chips won</th><th>chips at all-in EV</th>" in html
    from histkit.stats import seat_facts
    from histkit.tournaments import tournament_results

    res = tournament_results(seat_facts(tables))
    for r in res[res["player"] == "Hero"].itertuples():
        assert f"<td>{r.chips_net:+,}</td><td>{int(r.chips_ev_net):+,}</td>" in html
    # and cash games: the EV-adjusted net in the summary
    cash = tmp_path / "c.txt"
    write_session(cash, "stud_hilo", 200, players=8, seed=7)
    html = build_report(load([cash]), "Hero", top=3)
    assert "EV-adjusted net (all-in hands at their equity)" in html
    html = build_report(tables, "Hero", top=3)
    assert "equity as Hero saw it:" in html
    assert "equity with the cards shown:" in html


def test_the_winnings_plot_draws_the_all_in_ev_line() -> None:
    from histkit import plots
    from histkit.simulate import simulate
    from histkit.stats import MixedMoneyError, seat_facts

    facts = seat_facts(
        tables_from(list(simulate("stud_hilo", 120, players=8, seed=104, tournament=True)))
    )
    # the three tournaments' chips cannot share an axis: one tournament, or big bets
    allin = facts[facts["allin"]]
    player = str(allin["player"].value_counts().index[0])
    with pytest.raises(MixedMoneyError):
        plots.cumulative_net(facts, player)
    bb = plots.cumulative_net(facts, player, in_big_bets=True)
    labels = [line.get_label() for line in bb.get_lines()]
    mine = facts[facts["player"] == player].sort_values(["started_at", "hand_id"])
    ev_bb = (mine["ev_net"].astype("float64") / mine["big_bet"].astype("float64")).sum()
    assert bb.get_lines()[labels.index("all-in EV")].get_ydata()[-1] == pytest.approx(ev_bb)
    unit = allin.loc[allin["player"] == player, "money_unit"].value_counts().index[0]
    facts = facts[facts["money_unit"] == unit]
    ax = plots.cumulative_net(facts, player)
    labels = [line.get_label() for line in ax.get_lines()]
    assert "all-in EV" in labels
    ev = ax.get_lines()[labels.index("all-in EV")].get_ydata()
    mine = facts[facts["player"] == player].sort_values(["started_at", "hand_id"])
    assert ev[-1] == pytest.approx(float(mine["ev_net"].sum()))
    nobody = facts[~facts["player"].isin(allin["player"])]
    if not nobody.empty:  # a player never all-in: no EV line (it would be the total's)
        other = str(nobody["player"].iloc[0])
        assert "all-in EV" not in [
            x.get_label() for x in plots.cumulative_net(facts, other).get_lines()
        ]
