"""All-in expected value: one real hand worked by hand, every all-in hand of the real corpus
(every site), the moment the last money went in, and the `allin_ev` table through text,
Parquet folders and the hand database."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from histkit.equity.allin import NotValued, all_in_moment, allin_ev
from histkit.model import Hand, Street
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


@needs_corpus
def test_every_all_in_hand_of_the_real_corpus_is_valued() -> None:
    """Every hand of every site where a player was all-in with cards to come: valued,
    or (a record without deals) said why not; the expected takes add up to the pots."""
    hands = _hands(CORPUS)
    valued = not_valued = 0
    sites = set()
    for hand in hands:
        moment = all_in_moment(hand)
        if moment is None:
            assert allin_ev(hand) is None
            continue
        try:
            ev = allin_ev(hand, strict=True)
        except NotValued as e:
            assert "no deals" in str(e), (hand.site, hand.hand_id, e)
            not_valued += 1
            continue
        assert ev is not None
        valued += 1
        sites.add(hand.site)
        assert ev.street < Street.SEVENTH
        assert [s.player for s in ev.seats] == list(moment.contenders)
        pots = sum(p.net for p in replay(hand).pots)
        taken = sum(s.ev_collected for s in ev.seats)
        assert abs(taken - pots) <= len(ev.seats), (hand.hand_id, taken, pots)
        for s in ev.seats:
            assert 0.0 <= s.equity <= 1.0
            assert s.ev_net == s.ev_collected - s.contributed
            assert (
                s.error == 0.0 if str(ev.method) == "exact" else s.error > 0 or s.equity in (0, 1)
            )
    assert valued >= 20  # 28 hands of five sites when this was written
    assert len(sites) >= 4


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
