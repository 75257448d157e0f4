"""Tables: the contract columns, exact integer money, and bookkeeping identities."""

from __future__ import annotations

from datetime import UTC, datetime

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from histkit.cards import parse_card, parse_cards
from histkit.model import (
    Action,
    ActionKind,
    Collect,
    Deal,
    Game,
    Hand,
    Seat,
    SeatOutcome,
    SeatResult,
    Show,
    SourceRef,
    Street,
    StreetStart,
    Summary,
    UncalledBet,
    Unit,
)
from histkit.tables import SCHEMAS, ParquetSink, TableBuilder, tables_from

from .conftest import POKERSTARS, needs_corpus

CONTRACT = {
    "hands": "hand_id site game is_tournament currency money_unit buy_in small_bet big_bet ante "
    "bring_in started_at table max_seats total_pot rake source_file",
    "seats": "hand_id site seat player starting_stack contributed collected net sitting_out",
    "actions": "hand_id site street seq player kind amount to_amount all_in line",
    "cards": "hand_id site player street card up",
    "errors": "source_file line hand_id kind reason",
}


def _hand() -> Hand:
    """Three players; B completes, A folds, C calls; C bets 4th, B folds; C wins uncontested."""
    T, F = True, False
    ev = (
        Action(Street.THIRD, "A", ActionKind.ANTE, 1, line=5),
        Action(Street.THIRD, "B", ActionKind.ANTE, 1, line=6),
        Action(Street.THIRD, "C", ActionKind.ANTE, 1, line=7),
        StreetStart(Street.THIRD, line=8),
        Deal(Street.THIRD, "A", (None, None, parse_card("2c")), (F, F, T), line=9),
        Deal(Street.THIRD, "B", parse_cards("Ah Kh Qh"), (F, F, T), line=10),
        Deal(Street.THIRD, "C", (None, None, parse_card("9d")), (F, F, T), line=11),
        Action(Street.THIRD, "A", ActionKind.BRING_IN, 2, line=12),
        Action(Street.THIRD, "B", ActionKind.RAISE, 2, 4, line=13),
        Action(Street.THIRD, "C", ActionKind.CALL, 4, line=14),
        Action(Street.THIRD, "A", ActionKind.FOLD, line=15),
        StreetStart(Street.FOURTH, line=16),
        Deal(Street.FOURTH, "B", (parse_card("5s"),), (T,), parse_cards("Ah Kh Qh"), line=17),
        Deal(Street.FOURTH, "C", (parse_card("9s"),), (T,), parse_cards("9d"), line=18),
        Action(Street.FOURTH, "C", ActionKind.BET, 8, line=19),
        Action(Street.FOURTH, "B", ActionKind.FOLD, line=20),
        UncalledBet("C", 8, Street.FOURTH, line=21),
        Collect("C", 12, line=22),
    )
    summary = Summary(
        total_pot=13,
        rake=1,
        seats=(
            SeatResult(1, "A", SeatOutcome.FOLDED, folded_street=Street.THIRD, line=25),
            SeatResult(2, "B", SeatOutcome.FOLDED, folded_street=Street.FOURTH, line=26),
            SeatResult(3, "C", SeatOutcome.COLLECTED, won=12, line=27),
        ),
        line=23,
    )
    return Hand(
        site="pokerstars",
        hand_id="42",
        game=Game.STUD_HILO,
        small_bet=4,
        big_bet=8,
        unit=Unit.CENT,
        currency="USD",
        started_at=datetime(2009, 11, 26, 15, 22, 32, tzinfo=UTC),
        table="T",
        max_seats=8,
        seats=(Seat(1, "A", 100), Seat(2, "B", 200), Seat(3, "C", 300, sitting_out=False)),
        events=ev,
        summary=summary,
        source=SourceRef("x.txt", 1),
        hero="B",
    )


def test_contract_columns_present_and_amounts_int64() -> None:
    for name, cols in CONTRACT.items():
        names = SCHEMAS[name].names
        for col in cols.split():
            assert col in names, f"{name}.{col} missing"
    for name, schema in SCHEMAS.items():
        for f in schema:
            if f.name in {"small_bet", "big_bet", "ante", "bring_in", "total_pot", "rake"} | {
                "starting_stack",
                "contributed",
                "collected",
                "net",
                "amount",
                "to_amount",
            }:
                assert f.type == pa.int64(), f"{name}.{f.name} is {f.type}"


def test_every_row_carries_its_hands_site_and_the_unit_is_never_null() -> None:
    from dataclasses import replace

    cash = _hand()
    chips = replace(cash, hand_id="43", unit=Unit.CHIP, currency=None, tournament_id="9")
    other = replace(chips, hand_id="44", tournament_id="10", buy_in="$1+$0.10")
    nameless = replace(cash, hand_id="45", site="kingsclub", currency=None)
    t = tables_from([cash, chips, other, nameless], audit=True)
    assert t.hands["money_unit"].to_pylist() == [
        "USD",
        "chips:pokerstars:9",
        "chips:pokerstars:10",  # two tournaments' chips are two units
        "unknown-currency:kingsclub",
    ]
    assert t.hands["buy_in"].to_pylist()[2] == "$1+$0.10"

    def keys(table: pa.Table) -> set[tuple[str, str]]:
        return set(zip(table["site"].to_pylist(), table["hand_id"].to_pylist(), strict=True))

    for name, table in t.items():
        if name != "errors" and table.num_rows:
            assert keys(table) <= keys(t.hands), name

    # every table that holds amounts carries their unit beside them, never null, the
    # hand's own: a GROUP BY money_unit on that table alone cannot mix units
    hands = t.hands
    unit_of = dict(zip(hands["hand_id"].to_pylist(), hands["money_unit"].to_pylist(), strict=True))
    amounts = {"hands", "seats", "actions", "awards", "violations", "allin_ev"}
    for name, schema in SCHEMAS.items():
        money = [f.name for f in schema if f.type == pa.int64() and f.name not in ("line",)]
        money = [c for c in money if c not in ("source_line", "samples", "column")]
        if money or name == "violations":
            assert name in amounts and "money_unit" in schema.names, name
    for name in ("seats", "actions", "awards", "violations"):
        table = t[name]
        assert table.num_rows, name
        assert table["money_unit"].null_count == 0, name
        got = zip(table["hand_id"].to_pylist(), table["money_unit"].to_pylist(), strict=True)
        assert all(unit_of[h] == u for h, u in got), name


def test_constructed_hand_rows() -> None:
    t = tables_from([_hand()])
    h = t.hands.to_pylist()[0]
    assert (h["game"], h["ante"], h["bring_in"], h["total_pot"], h["rake"]) == (
        "stud_hilo",
        1,
        2,
        13,
        1,
    )
    assert h["started_at"] == datetime(2009, 11, 26, 15, 22, 32, tzinfo=UTC)
    seats = {r["player"]: r for r in t.seats.to_pylist()}
    assert seats["A"]["contributed"] == 3  # ante + bring-in
    assert seats["B"]["contributed"] == 5  # ante + completion to 4
    assert seats["C"]["contributed"] == 5  # ante + call 4 + bet 8 - uncalled 8
    assert seats["C"]["collected"] == 12 and seats["C"]["net"] == 7
    assert sum(r["net"] for r in seats.values()) == -1  # = -rake
    assert seats["A"]["last_street"] == 3 and seats["B"]["last_street"] == 4
    assert seats["C"]["last_street"] == 4 and not seats["C"]["showdown"]
    assert seats["B"]["is_hero"] and not seats["A"]["is_hero"]
    kinds = [r["kind"] for r in t.actions.to_pylist()]
    assert kinds == ["ante"] * 3 + ["bring_in", "raise", "call", "fold", "bet", "fold"]
    assert [r["seq"] for r in t.actions.to_pylist()] == list(range(9))
    cards = t.cards.to_pylist()
    assert len(cards) == 11  # 3 x 3 on 3rd street, 2 on 4th
    assert sum(r["known"] for r in cards) == 3 + 2 + 2  # B's three, two door cards, 4th street
    assert {r["card"] for r in cards if r["player"] == "B"} == {"Ah", "Kh", "Qh", "5s"}


def test_show_names_hidden_cards_without_inventing() -> None:
    hand = _hand()
    show = Show("C", parse_cards("Tc Js 9d 9s"), "a pair of Nines", line=30)
    hand = Hand(
        **{
            **{f: getattr(hand, f) for f in hand.__dataclass_fields__},
            "events": hand.events + (show,),
        }
    )
    cards = [r for r in tables_from([hand]).cards.to_pylist() if r["player"] == "C"]
    assert [(r["card"], r["source"]) for r in cards] == [
        ("Tc", "shown"),
        ("Js", "shown"),
        ("9d", "dealt"),
        ("9s", "dealt"),
    ]


def test_parquet_sink_streams_row_groups(tmp_path) -> None:
    with ParquetSink(tmp_path, batch_size=2) as sink:
        for _ in range(5):
            sink.add(_hand())
    f = pq.ParquetFile(tmp_path / "hands.parquet")
    assert f.metadata.num_rows == 5
    assert f.metadata.num_row_groups == 3  # 2 + 2 + 1
    assert pq.read_table(tmp_path / "seats.parquet").num_rows == 15
    assert pq.read_table(tmp_path / "errors.parquet").schema == SCHEMAS["errors"]


def test_pandas_views() -> None:
    t = tables_from([_hand()])
    plain = t.to_pandas(arrow_dtypes=False)
    arrow = t.to_pandas()  # Arrow-backed dtypes by default
    assert plain["seats"]["net"].dtype == "int64"
    assert str(arrow["hands"]["ante"].dtype) == "int64[pyarrow]"
    # a cash hand's buy_in_amount is null: NumPy makes the column float, Arrow keeps int
    assert str(plain["hands"]["buy_in_amount"].dtype) in ("float64", "object")
    assert str(arrow["hands"]["buy_in_amount"].dtype) == "int64[pyarrow]"
    with pytest.raises(KeyError, match="no table"):
        t["nope"]


def test_builder_counts_hands() -> None:
    b = TableBuilder()
    b.add(_hand())
    assert len(b) == 1


@needs_corpus
def test_corpus_tables_identities() -> None:
    from histkit.reader import iter_hands

    n_hands = n_skipped = 0
    # Per file: the same real hand appears in two files of the corpus (an fpdb card test
    # copied from a session file), so hand ids are unique only within a file.
    for path in sorted(POKERSTARS.rglob("*.txt")):
        t = tables_from(iter_hands([path]))
        hands = t.hands.to_pandas()
        seats = t.seats.to_pandas()
        assert hands["hand_id"].is_unique, path
        per_hand = seats.groupby("hand_id")[["collected", "net"]].sum()
        joined = hands.set_index("hand_id").join(per_hand)
        assert (joined["collected"] + joined["rake"] == joined["total_pot"]).all(), path
        assert (joined["net"] == -joined["rake"]).all(), path
        assert (seats["ending_stack"] >= 0).all(), path
        assert hands["started_at"].notna().all(), path
        errors = t.errors.to_pandas()
        assert set(errors["kind"]) <= {"skipped"}, errors
        n_hands += len(hands)
        n_skipped += len(errors)
    assert (n_hands, n_skipped) == (86, 84)
