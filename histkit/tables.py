"""Arrow tables from hands: one schema definition per table, built from column lists.

The column names and meanings of `hands`, `seats`, `actions`, `cards` and `errors` are a
contract other tools read (issue 2); columns may be added, never renamed. All amounts
are int64 in the hand's minor unit (see `hands.unit`), and every table that holds amounts
carries the hand's `money_unit` beside them, never null (a currency code, or one
tournament's chips): so a `GROUP BY money_unit` on that table alone, in pandas or SQL,
can never add two units together or silently drop rows whose unit is null.

Builders append to plain Python lists and turn them into Arrow once per batch: that is
both the fastest way to build Arrow from Python and what lets `ParquetSink` stream row
groups to disk with memory bounded by the batch, not the input.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import pyarrow as pa

from histkit.accounting import collections, contributions
from histkit.cards import DECK
from histkit.model import (
    Action,
    ActionKind,
    Deal,
    Hand,
    Muck,
    NoteKind,
    SeatOutcome,
    Show,
    StreetStart,
    TableNote,
)
from histkit.money import parse_amount, parse_buy_in
from histkit.rules.replay import Replay, replay

if TYPE_CHECKING:
    import pandas as pd

    from histkit.dialects.base import Dialect
    from histkit.rules import Violation

__all__ = [
    "SCHEMAS",
    "counted_kind",
    "counted_kind_sql",
    "TABLE_NAMES",
    "Tables",
    "TableBuilder",
    "ParquetSink",
    "tables_from",
    "audit_tables",
    "AUDIT_TABLES",
    "HAND_TABLES",
]

_I64 = pa.int64()
_I32 = pa.int32()
_STR = pa.string()
_BOOL = pa.bool_()
_F64 = pa.float64()
_TS = pa.timestamp("us", tz="UTC")

SCHEMAS: dict[str, pa.Schema] = {
    "hands": pa.schema(
        [
            ("hand_id", _STR),
            ("site", _STR),
            ("game", _STR),
            ("is_tournament", _BOOL),
            ("tournament_id", _STR),
            ("buy_in", _STR),  # as the site writes it ("$0.98+$0.12 USD")
            ("level", _STR),
            ("mix", _STR),
            # the currency the site names for a cash hand's amounts: null for a tournament
            # hand (its amounts are chips, not money: see money_unit, tournament_id and
            # buy_in_currency) and for cash whose header names none; never group by it
            ("currency", _STR),
            ("unit", _STR),  # never null: "cent" (a currency's minor unit) or "chip"
            # never null: what the amounts count (a currency, or one tournament's chips);
            # group by it before adding amounts of different hands (Hand.money_unit)
            ("money_unit", _STR),
            ("small_bet", _I64),
            ("big_bet", _I64),
            ("ante", _I64),
            ("bring_in", _I64),
            ("started_at", _TS),
            ("table", _STR),
            ("max_seats", _I32),
            ("players", _I32),
            ("hero", _STR),
            ("total_pot", _I64),
            ("rake", _I64),
            ("fee", _I64),  # other money the house took from the pot (a jackpot drop)
            ("community_card", _STR),
            ("source_file", _STR),
            ("source_line", _I64),
            # the tournament's buy-in read from `buy_in` (a bounty counted in it) and fee,
            # in minor units of buy_in_currency (null: not written, or not money)
            ("buy_in_amount", _I64),
            ("buy_in_fee", _I64),
            ("buy_in_currency", _STR),
            # lines the hand was read without (not understood, missing or cut short:
            # `Hand.gaps`; the audit's LINE_NOT_UNDERSTOOD and LINE_MISSING findings say
            # which); 0 for a hand read whole
            ("unread_lines", _I32),
        ]
    ),
    "seats": pa.schema(
        [
            ("hand_id", _STR),
            ("site", _STR),
            ("money_unit", _STR),  # the unit of every amount here (as hands.money_unit)
            ("seat", _I32),
            ("player", _STR),
            ("starting_stack", _I64),
            ("contributed", _I64),
            ("collected", _I64),
            ("net", _I64),
            ("ending_stack", _I64),
            ("sitting_out", _BOOL),
            ("dealt_in", _BOOL),
            ("is_hero", _BOOL),
            ("last_street", _I32),
            ("folded_street", _I32),
            ("showdown", _BOOL),
            ("outcome", _STR),
            ("summary_won", _I64),
            # where the hand says the player finished the tournament (a note), and the
            # prize it says they received, in minor units of prize_currency
            ("finish_place", _I32),
            ("prize", _I64),
            ("prize_currency", _STR),
        ]
    ),
    "actions": pa.schema(
        [
            ("hand_id", _STR),
            ("site", _STR),
            ("money_unit", _STR),  # the unit of amount and to_amount (as hands.money_unit)
            ("street", _I32),
            ("seq", _I32),
            ("player", _STR),
            ("kind", _STR),
            ("amount", _I64),
            ("to_amount", _I64),
            ("all_in", _BOOL),
            ("line", _I64),
        ]
    ),
    "cards": pa.schema(
        [
            ("hand_id", _STR),
            ("site", _STR),
            ("player", _STR),
            ("street", _I32),
            ("card", _STR),
            ("up", _BOOL),
            ("known", _BOOL),
            ("source", _STR),
            ("line", _I64),
        ]
    ),
    "errors": pa.schema(
        [
            ("source_file", _STR),
            ("line", _I64),
            ("column", _I64),
            ("hand_id", _STR),
            ("kind", _STR),
            ("reason", _STR),
            ("game", _STR),
            ("about_hand", _BOOL),
        ]
    ),
    # one row per player still in a pot an all-in settled with cards to come, each pot
    # valued when its last chip went in (histkit.equity.allin, docs/equity.md):
    # expected vs actual winnings
    "allin_ev": pa.schema(
        [
            ("hand_id", _STR),
            ("site", _STR),
            ("money_unit", _STR),  # the unit of every amount here (as hands.money_unit)
            ("player", _STR),
            ("seat", _I32),
            ("street", _I32),  # the street his last pot at equity was settled on
            ("all_in", _BOOL),  # he was all-in by then
            ("equity", _F64),  # expected share of the pots at equity (at_stake)
            ("equity_error", _F64),  # its standard error (0 when every deal was counted)
            ("method", _STR),  # "exact" (every pot valued exactly) or "monte_carlo"
            ("samples", _I64),  # deals counted (exact) or drawn (Monte Carlo), the fewest
            ("contributed", _I64),
            ("collected", _I64),
            ("net", _I64),
            ("ev_collected", _I64),  # equity x pots at equity + paid from the others, rounded
            ("ev_net", _I64),  # ev_collected - contributed
            ("at_stake", _I64),  # the chips (after rake) of the pots valued for him
        ]
    ),
    # --- audit tables (from the rules engine's Replay)
    "awards": pa.schema(
        [
            ("hand_id", _STR),
            ("site", _STR),
            ("money_unit", _STR),  # the unit of every amount here (as hands.money_unit)
            ("pot", _I32),  # 0 = main (or only) pot, N = side pot N
            ("half", _STR),  # "high", "low" or "whole"
            ("amount", _I64),  # chips in this pot half after rake
            ("player", _STR),
            ("eligible", _BOOL),
            ("winner", _BOOL),
            ("expected", _I64),  # what the engine says this player should get
            ("reported", _I64),  # what the site paid this player from this pot half
        ]
    ),
    "violations": pa.schema(
        [
            ("hand_id", _STR),
            ("site", _STR),
            # the unit of expected/reported when they are amounts (as hands.money_unit)
            ("money_unit", _STR),
            ("code", _STR),
            ("severity", _STR),
            ("street", _I32),
            ("line", _I64),
            ("expected", _STR),
            ("reported", _STR),
            ("message", _STR),
            ("source_file", _STR),
            # its place among the hand's findings, and the place of the one it follows
            # from (null: a root cause, or a finding across hands such as continuity)
            ("seq", _I32),
            ("caused_by", _I32),
        ]
    ),
}
AUDIT_TABLES = ("awards", "violations")


def counted_kind(kind: str, about_hand: bool | None) -> str:
    """How an `errors` row is counted: a rejection that is no hand's (`about_hand` false:
    text between hands, an empty file) is "outside", apart from rejected hands; a row of
    an older histkit (no such value) counts as it did."""
    return "outside" if kind == "rejected" and about_hand is False else kind


def counted_kind_sql(columns: Iterable[str]) -> str:
    """`counted_kind` in SQL over an `errors` table with these columns."""
    if "about_hand" not in set(columns):
        return "kind"
    return "CASE WHEN kind = 'rejected' AND about_hand IS FALSE THEN 'outside' ELSE kind END"


TABLE_NAMES: tuple[str, ...] = tuple(n for n in SCHEMAS if n not in AUDIT_TABLES)
#: Tables whose rows belong to one hand, keyed by (site, hand_id): filtered, de-duplicated
#: and loaded with their hand (`errors` is not one). Every list of tables is taken from
#: SCHEMAS, so a table added there is loaded everywhere.
HAND_TABLES: tuple[str, ...] = tuple(
    n for n, s in SCHEMAS.items() if {"site", "hand_id"} <= set(s.names)
)

# Position of each card in a PokerStars-style seven-card show line: two down cards and
# the door card on 3rd, one up card on 4th..6th, the down card on 7th.
_SHOW_SLOTS: tuple[tuple[int, bool], ...] = (
    (3, False),
    (3, False),
    (3, True),
    (4, True),
    (5, True),
    (6, True),
    (7, False),
)


class IssueLike(Protocol):
    """What the `errors` table reads of a parse issue (`histkit.reader.ParseIssue`)."""

    @property
    def source_file(self) -> str: ...
    @property
    def line(self) -> int | None: ...
    @property
    def column(self) -> int | None: ...
    @property
    def hand_id(self) -> str | None: ...
    @property
    def kind(self) -> str: ...
    @property
    def reason(self) -> str: ...
    @property
    def game(self) -> str | None: ...


@dataclass(frozen=True)
class Tables:
    """The histkit tables of a set of hands, as Arrow tables."""

    hands: pa.Table
    seats: pa.Table
    actions: pa.Table
    cards: pa.Table
    errors: pa.Table
    awards: pa.Table | None = None  # present when the hands were audited
    violations: pa.Table | None = None
    allin_ev: pa.Table | None = None  # None only from code that built Tables without it

    def __getitem__(self, name: str) -> pa.Table:
        table = getattr(self, name, None) if name in SCHEMAS else None
        if table is None:
            have = ", ".join(n for n, _ in self.items())
            raise KeyError(f"no table {name!r}; tables are {have}")
        return table

    def items(self) -> Iterator[tuple[str, pa.Table]]:
        for name in SCHEMAS:
            table = getattr(self, name)
            if table is not None:
                yield name, table

    def to_arrow(self) -> dict[str, pa.Table]:
        return dict(self.items())

    def to_pandas(self, *, arrow_dtypes: bool = True) -> dict[str, pd.DataFrame]:
        """DataFrames per table, with pandas' Arrow-backed dtypes (`pd.ArrowDtype`): an
        integer amount stays an integer where some are null (`buy_in_amount`), a null
        stays null. `arrow_dtypes=False`: NumPy dtypes (such columns become float64)."""
        import pandas as pd

        kw: dict[str, Any] = {"types_mapper": pd.ArrowDtype} if arrow_dtypes else {}
        return {name: t.to_pandas(**kw) for name, t in self.items()}

    def to_parquet(self, directory: str | Path, *, compression: str = "zstd") -> list[Path]:
        """Write `<name>.parquet` per table into `directory` as one complete result (with
        the completion record readers require; an earlier result there is replaced whole)."""
        from histkit.warehouse import write_tables

        write_tables(directory, self, compression=compression)
        out = Path(directory)
        return [out / f"{name}.parquet" for name, _ in self.items()]


_CARD_TEXT = tuple(str(c) for c in DECK)  # "Ah" by card index: str(Card) is Python-level


def _dialect_of(hand: Hand) -> Dialect | None:
    """The dialect whose words a hand is in: the one that read it, else its site's (a
    simulated hand); None for a site histkit does not know."""
    from histkit.dialects import get_dialect

    try:
        return get_dialect(hand.dialect or hand.site)
    except ValueError:
        return None


def _finishes(
    hand: Hand, words: Dialect | None
) -> dict[str, tuple[int | None, tuple[int, str | None] | None]]:
    """Player -> (place, (prize, currency)) from the hand's notes that say a player
    finished the tournament, in the site's words."""
    out: dict[str, tuple[int | None, tuple[int, str | None] | None]] = {}
    if words is None or not hand.is_tournament:
        return out
    for e in hand.events:
        if isinstance(e, TableNote) and e.kind is NoteKind.FINISHED and e.player:
            found = words.finish(e.text)
            if found is not None:
                place, prize_text = found
                prize = parse_amount(prize_text, words.currency_symbols) if prize_text else None
                out[e.player] = (place, prize)
    return out


class TableBuilder:
    """Accumulates hands, replays and parse issues as column lists; `build()` makes
    `Tables` (with the audit tables when `audit=True`)."""

    def __init__(self, *, audit: bool = False) -> None:
        self.audit = audit
        self._cols: dict[str, dict[str, list[Any]]] = {
            name: {f.name: [] for f in schema}
            for name, schema in SCHEMAS.items()
            if audit or name not in AUDIT_TABLES
        }
        self.n_hands = 0

    def __len__(self) -> int:
        return self.n_hands

    def add(self, item: Hand | Replay | IssueLike) -> None:
        """A hand's rows, a replayed hand's rows with its awards and violations, or a
        parse issue's. The builder tabulates; it never replays: a builder of the audit
        tables takes `Replay`s (`tables_from(..., audit=True)` replays for you)."""
        if isinstance(item, Hand):
            if self.audit:
                raise TypeError(
                    f"hand {item.hand_id}: the audit tables need its replay "
                    "(histkit.rules.replay(hand)), not the hand"
                )
            self.add_hand(item)
        elif isinstance(item, Replay):
            self.add_replay(item)
        else:
            self.add_issue(item)

    def add_replay(self, rp: Replay) -> None:
        """The hand's rows plus, in the audit tables, its awards and violations."""
        self.add_hand(rp.hand, replayed=rp)
        if not self.audit:
            return
        hid = rp.hand.hand_id
        a = self._cols["awards"]
        before = len(a["hand_id"])
        for aw in rp.awards:
            expected, reported = dict(aw.expected), dict(aw.reported)
            winners = set(aw.winners or ())
            players = [p for p in aw.eligible if p in expected or p in reported or p in winners]
            players += [p for p in {**expected, **reported} if p not in players]
            for p in players:
                a["hand_id"].append(hid)
                a["pot"].append(aw.pot)
                a["half"].append(str(aw.half))
                a["amount"].append(aw.amount)
                a["player"].append(p)
                a["eligible"].append(p in aw.eligible)
                a["winner"].append(p in winners)
                a["expected"].append(expected.get(p, 0) if aw.winners is not None else None)
                a["reported"].append(reported.get(p, 0))
        added = len(a["hand_id"]) - before
        a["site"].extend([rp.hand.site] * added)
        a["money_unit"].extend([rp.hand.money_unit] * added)
        for x in rp.violations:
            self.add_violation(x, rp.hand.source.file, rp.hand.site, rp.hand.money_unit)

    def add_violation(
        self,
        x: Violation,
        source_file: str | None = None,
        site: str | None = None,
        money_unit: str | None = None,
    ) -> None:
        v = self._cols["violations"]
        v["hand_id"].append(x.hand_id)
        v["site"].append(site)
        v["money_unit"].append(money_unit)
        v["code"].append(str(x.code))
        v["severity"].append(str(x.severity))
        v["street"].append(None if x.street is None else int(x.street))
        v["line"].append(x.line)
        v["expected"].append(None if x.expected is None else str(x.expected))
        v["reported"].append(None if x.reported is None else str(x.reported))
        v["message"].append(x.message)
        v["source_file"].append(source_file)
        v["seq"].append(x.seq)
        v["caused_by"].append(x.caused_by)

    def add_issue(self, issue: IssueLike) -> None:
        c = self._cols["errors"]
        c["source_file"].append(issue.source_file)
        c["line"].append(issue.line)
        c["column"].append(issue.column)
        c["hand_id"].append(issue.hand_id)
        c["kind"].append(issue.kind)
        c["reason"].append(issue.reason)
        c["game"].append(getattr(issue, "game", None))
        c["about_hand"].append(bool(getattr(issue, "about_hand", True)))

    def add_hand(self, hand: Hand, *, replayed: Replay | None = None) -> None:
        self.n_hands += 1
        hid = hand.hand_id
        paid_in = contributions(hand)
        taken = collections(hand)
        summary = hand.summary

        # ---- actions, cards, and what each seat saw
        ca, cc = self._cols["actions"], self._cols["cards"]
        actions_before, cards_before = len(ca["hand_id"]), len(cc["hand_id"])
        dealt: set[str] = set()
        max_street = 3
        folded: dict[str, int] = {}
        antes: list[int] = []
        bring_in: int | None = hand.bring_in
        community: str | None = None
        dealt_slots: dict[str, list[int]] = {}  # player -> row indices of cards in deal order
        shown: dict[str, tuple[Any, ...]] = {}
        mucked: set[str] = set()  # mucked at the showdown (not a declined show)
        seq = 0
        all_in = False
        # a record without deal lines (Everleaf, Winamax's play-money export): who was dealt
        # in is who antes or acts, and shown cards are the only cards it names
        hand_deals = any(isinstance(e, Deal) for e in hand.events)
        if not hand_deals:
            dealt.update(e.player for e in hand.events if isinstance(e, Action))
        for e in hand.events:
            if isinstance(e, Action):
                all_in = all_in or e.all_in
                ca["hand_id"].append(hid)
                ca["street"].append(int(e.street))
                ca["seq"].append(seq)
                ca["player"].append(e.player)
                ca["kind"].append(str(e.kind))  # StrEnum: its value, without the enum property
                ca["amount"].append(e.amount)
                ca["to_amount"].append(e.to_amount)
                ca["all_in"].append(e.all_in)
                ca["line"].append(e.line)
                seq += 1
                if e.kind is ActionKind.ANTE:
                    antes.append(e.amount)
                elif e.kind is ActionKind.BRING_IN and bring_in is None:
                    bring_in = e.amount
                elif e.kind is ActionKind.FOLD:
                    folded[e.player] = int(e.street)
            elif isinstance(e, Deal):
                dealt.add(e.player)
                rows = dealt_slots.setdefault(e.player, [])
                for card, up in zip(e.cards, e.up, strict=True):
                    rows.append(len(cc["hand_id"]))
                    self._card_row(hid, e.player, int(e.street), card, up, "dealt", e.line)
            elif isinstance(e, StreetStart):
                max_street = int(e.street)
                if e.community is not None:
                    community = str(e.community)
                    self._card_row(hid, None, max_street, e.community, True, "community", e.line)
            elif isinstance(e, Muck) and not e.declined:
                mucked.add(e.player)
            elif isinstance(e, Show):
                shown[e.player] = e.cards
                self._fill_from_show(
                    e,
                    dealt_slots.setdefault(e.player, []),
                    hid=hid,
                    community=community is not None,
                    undealt=not hand_deals,
                )
        if summary is not None:
            # Cards revealed only in the summary ("mucked [..]", "showed [..]").
            for r in summary.seats:
                if r.cards and r.player not in shown:
                    self._fill_from_show(
                        Show(r.player, r.cards, None, r.line),
                        dealt_slots.setdefault(r.player, []),
                        hid=hid,
                        community=community is not None,
                        undealt=not hand_deals,
                    )

        site = hand.site  # every table's rows carry it: a hand's key is (site, hand_id)
        money_unit = hand.money_unit  # and every table of amounts their unit
        ca["site"].extend([site] * (len(ca["hand_id"]) - actions_before))
        ca["money_unit"].extend([money_unit] * (len(ca["hand_id"]) - actions_before))
        cc["site"].extend([site] * (len(cc["hand_id"]) - cards_before))

        # ---- hands
        h = self._cols["hands"]
        h["hand_id"].append(hid)
        h["site"].append(site)
        h["game"].append(str(hand.game))
        h["is_tournament"].append(hand.is_tournament)
        h["tournament_id"].append(hand.tournament_id)
        h["buy_in"].append(hand.buy_in)
        h["level"].append(hand.level)
        h["mix"].append(hand.mix)
        h["currency"].append(hand.currency)
        h["unit"].append(str(hand.unit))
        h["money_unit"].append(money_unit)
        h["small_bet"].append(hand.small_bet)
        h["big_bet"].append(hand.big_bet)
        h["ante"].append(hand.ante if hand.ante is not None else (max(antes) if antes else None))
        h["bring_in"].append(bring_in)
        h["started_at"].append(hand.started_at)
        h["table"].append(hand.table)
        h["max_seats"].append(hand.max_seats)
        h["players"].append(sum(1 for s in hand.seats if s.player in paid_in))
        h["hero"].append(hand.hero)
        h["total_pot"].append(summary.total_pot if summary else None)
        h["rake"].append(summary.rake if summary else None)
        h["fee"].append(summary.fee if summary else None)
        h["community_card"].append(community)
        h["source_file"].append(hand.source.file)
        h["source_line"].append(hand.source.line)
        words = _dialect_of(hand)
        buy_in = parse_buy_in(hand.buy_in, words.currency_symbols) if words else None
        h["buy_in_amount"].append(buy_in[0] if buy_in else None)
        h["buy_in_fee"].append(buy_in[1] if buy_in else None)
        h["buy_in_currency"].append(buy_in[2] if buy_in else None)
        h["unread_lines"].append(hand.unread_lines)
        finishes = _finishes(hand, words)

        # ---- seats
        results = {r.player: r for r in summary.seats} if summary else {}
        s = self._cols["seats"]
        s["site"].extend([site] * len(hand.seats))
        s["money_unit"].extend([money_unit] * len(hand.seats))
        # a muck is at a showdown where two or more did not fold (a site that writes no
        # summary says so only by the muck line: Everleaf's "does not show cards")
        contested = len(dealt - folded.keys()) >= 2
        for seat in hand.seats:
            p = seat.player
            put, got = paid_in.get(p, 0), taken.get(p, 0)
            res = results.get(p)
            at_showdown = (
                p in shown
                or (p in mucked and contested)
                or (res is not None and res.outcome in (SeatOutcome.SHOWED, SeatOutcome.MUCKED))
            )
            s["hand_id"].append(hid)
            s["seat"].append(seat.seat)
            s["player"].append(p)
            s["starting_stack"].append(seat.stack)
            s["contributed"].append(put)
            s["collected"].append(got)
            s["net"].append(got - put)
            s["ending_stack"].append(seat.stack - put + got)
            s["sitting_out"].append(seat.sitting_out)
            s["dealt_in"].append(p in dealt)
            s["is_hero"].append(p == hand.hero)
            s["last_street"].append(folded.get(p, max_street) if p in dealt else None)
            s["folded_street"].append(folded.get(p))
            s["showdown"].append(at_showdown and p not in folded)
            s["outcome"].append(str(res.outcome) if res else None)
            s["summary_won"].append(res.won if res else None)
            place, prize = finishes.get(p, (None, None))
            s["finish_place"].append(place)
            s["prize"].append(prize[0] if prize else None)
            s["prize_currency"].append(prize[1] if prize else None)
        if all_in:
            self._add_allin_ev(hand, replayed)

    def _add_allin_ev(self, hand: Hand, replayed: Replay | None) -> None:
        from histkit.equity.allin import allin_ev

        ev = allin_ev(hand, replayed)
        if ev is None:
            return
        c = self._cols["allin_ev"]
        for seat in ev.seats:
            c["hand_id"].append(ev.hand_id)
            c["site"].append(ev.site)
            c["money_unit"].append(ev.money_unit)
            c["player"].append(seat.player)
            c["seat"].append(seat.seat)
            c["street"].append(int(seat.street))
            c["all_in"].append(seat.all_in)
            c["equity"].append(seat.equity)
            c["equity_error"].append(seat.error)
            c["method"].append(str(ev.method))
            c["samples"].append(ev.samples)
            c["contributed"].append(seat.contributed)
            c["collected"].append(seat.collected)
            c["net"].append(seat.net)
            c["ev_collected"].append(seat.ev_collected)
            c["ev_net"].append(seat.ev_net)
            c["at_stake"].append(seat.at_stake)

    def _card_row(
        self,
        hid: str,
        player: str | None,
        street: int | None,
        card: Any,
        up: bool | None,
        src: str,
        line: int,
    ) -> None:
        cc = self._cols["cards"]
        cc["hand_id"].append(hid)
        cc["player"].append(player)
        cc["street"].append(street)
        cc["card"].append(None if card is None else _CARD_TEXT[card.index])
        cc["up"].append(up)
        cc["known"].append(card is not None)
        cc["source"].append(src)
        cc["line"].append(line)

    def _fill_from_show(
        self,
        show: Show,
        rows: list[int],
        *,
        hid: str = "",
        community: bool = False,
        undealt: bool = False,
    ) -> None:
        """A show line lists the cards in deal order; name the dealt cards the writer could
        not see (they stay rows of source "shown" so nothing looks dealt face up). In a
        record without deal lines (`undealt`) every shown card is a row of its own with no
        street and no face: such a record need not show cards in deal order (Everleaf puts
        a flush's cards first), so which was dealt when, up or down, is not known."""
        cc = self._cols["cards"]
        if undealt:
            if not rows:  # once per player (a show, then the summary's same cards)
                for card in show.cards:
                    rows.append(len(cc["hand_id"]))
                    self._card_row(hid, show.player, None, card, None, "shown", show.line)
            return
        for i, card in enumerate(show.cards[: len(_SHOW_SLOTS)]):
            if i < len(rows):
                row = rows[i]
                if cc["card"][row] is None:
                    cc["card"][row] = _CARD_TEXT[card.index]
                    cc["known"][row] = True
                    cc["source"][row] = "shown"
                    cc["line"][row] = show.line
            elif i == len(rows) and not community and rows:
                # a card the record never dealt to the player (an opponent's 7th-street
                # card): shown, so it is known, in the slot the show puts it
                street, up = _SHOW_SLOTS[i]
                rows.append(len(cc["hand_id"]))
                self._card_row(hid, show.player, street, card, up, "shown", show.line)

    def build(self) -> Tables:
        return Tables(
            **{
                name: pa.Table.from_pydict(cols, schema=SCHEMAS[name])
                for name, cols in self._cols.items()
            }
        )


def tables_from(items: Iterable[Hand | IssueLike], *, audit: bool = False) -> Tables:
    """Tables of an iterable of hands and parse issues (as `histkit.reader.iter_hands`
    yields); with `audit=True` each hand is replayed under its site's rules and
    `awards`/`violations` added."""
    b = TableBuilder(audit=audit)
    for it in items:
        b.add(replay(it) if audit and isinstance(it, Hand) else it)
    return b.build()


def audit_tables(items: Iterable[Hand | IssueLike]) -> Tables:
    """All seven tables, the audit ones included (per-hand violations; stack continuity
    across hands is `histkit.audit.audit`'s job)."""
    return tables_from(items, audit=True)


if TYPE_CHECKING:
    from histkit.warehouse import PARTITION_KEYS, ParquetSink  # noqa: F401


def __getattr__(name: str) -> Any:
    """`ParquetSink` and `PARTITION_KEYS` live in `histkit.warehouse` (which owns a folder
    of tables, written whole); imported from here too, lazily since warehouse imports this
    module."""
    if name in ("ParquetSink", "PARTITION_KEYS"):
        from histkit import warehouse

        return getattr(warehouse, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
