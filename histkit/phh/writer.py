"""A `Hand` as a Poker Hand History (PHH): the fields the format defines for stud, in its
own terms, and histkit's few facts the format has no field for as user-defined `_` fields.

PHH (the PokerKit project's format, https://phh.readthedocs.io) is TOML. For stud it
requires `variant` (F7S, F7S/8, FR), `antes`, `bring_in`, `small_bet`, `big_bet`,
`starting_stacks` and `actions`, one entry per player (p1, p2, ... in seat order) or per
event: `d dh p1 ????Ah` deals cards (`??` a card the record does not show), `p1 pb` posts
the bring-in, `p1 cbr 20` completes, bets or raises to a street total of 20, `p1 cc`
checks or calls, `p1 f` folds, `p1 sm AhKh...` shows (the player's whole hand, in the order
dealt; `p1 sm` alone mucks at a showdown), and `d db 7c` a community card. Everything else
is optional: venue, event, time, hand, level, seats, seat_count, table, players,
finishing_stacks, winnings, currency.

Amounts are integers in the hand's own unit (cents for cash, chips for tournaments and play
money; `_unit` says which). What PHH cannot hold is listed in `NOT_HELD`; the reader
(`histkit.phh.reader`) builds the same `Hand` from the rest.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterable
from typing import Any

from histkit.accounting import collections, contributions
from histkit.cards import Card
from histkit.model import (
    Action,
    ActionKind,
    Collect,
    Deal,
    Game,
    Hand,
    Muck,
    Show,
    StreetStart,
    TableNote,
    UncalledBet,
    Unit,
)
from histkit.phh.ledger import Ledger
from histkit.phh.toml import dump_fields

__all__ = [
    "NOT_HELD",
    "VARIANTS",
    "PhhError",
    "dumps",
    "dumps_all",
    "hand_fields",
    "join_hands",
    "level_number",
]

VARIANTS: dict[Game, str] = {Game.STUD: "F7S", Game.STUD_HILO: "F7S/8", Game.RAZZ: "FR"}

# what a hand's record holds that PHH has no place for (the round trip keeps the rest)
NOT_HELD: tuple[str, ...] = (
    "street markers (streets follow from the deals and the betting)",
    "uncalled bets returned (PHH returns them by its rules)",
    "each pot's and each half's collects (PHH has each player's winnings: `winnings`)",
    "the summary's seat lines, main and side pot figures and board",
    "hand descriptions, 'no low hand' lines, 'betting capped' and 'double bet' lines",
    "where among the actions a chat line or table note was written (`_notes` keeps them "
    "in order, with their player and text)",
    "a show by a player who folded, a muck outside a showdown, and whether a muck was a "
    "'doesn't show'",
    "which cards a show named when others were known already (PHH shows the whole hand), "
    "and whether a player at a showdown whose cards the record knows was written as showing "
    "(PHH asks each player at a showdown to show or muck: such a player shows)",
    "all-in marks (they follow from the stacks) and whether a completion was written as a "
    "bet or a raise",
    "the header's own ante and bring-in when the site did not state them",
)


class PhhError(ValueError):
    """A hand that cannot be written as PHH (a player who acts but is not seated...)."""


def level_number(text: str | None) -> int | None:
    """A tournament level as PHH's integer: "12" or a roman numeral ("IV"); else None."""
    if not text:
        return None
    t = text.strip().upper()
    if t.isdigit():
        return int(t)
    if not re.fullmatch(r"[IVXLCDM]+", t):
        return None
    values = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100, "D": 500, "M": 1000}
    total = 0
    for i, c in enumerate(t):
        v = values[c]
        total += -v if i + 1 < len(t) and values[t[i + 1]] > v else v
    return total


def _card(c: Card | None) -> str:
    return "??" if c is None else str(c)


def _in_hand(hand: Hand) -> list[str]:
    """The players dealt in (an ante, a deal or an action of theirs), in seat order."""
    took_part = {e.player for e in hand.events if isinstance(e, Action | Deal)}
    return [s.player for s in sorted(hand.seats, key=lambda s: s.seat) if s.player in took_part]


def _nominal_ante(hand: Hand, antes: dict[str, int], stacks: dict[str, int]) -> int | None:
    """The one ante every player posted (or all they had): PHH's antes as one figure,
    which also reads the same whichever way a reader orders a heads-up pair. None when the
    posted antes are not one figure."""
    nominal = hand.ante if hand.ante is not None else max(antes.values(), default=0)
    ok = all(antes.get(p, 0) == min(nominal, stacks[p]) for p in stacks)
    return nominal if ok else None


def _bring_in(hand: Hand) -> int:
    """The bring-in as stated, else as posted; 0 when the record gives neither (the
    bring-in player completed): then the completion opens the betting, the same chips."""
    if hand.bring_in is not None:
        return hand.bring_in
    posted = [a.amount for a in hand.actions() if a.kind is ActionKind.BRING_IN]
    return max(posted, default=0)


def _shown_hand(dealt: list[Card | None], shown: tuple[Card, ...]) -> list[Card | None]:
    """A show as PHH writes it: the player's whole hand in the order dealt, its unknown
    cards filled from the cards shown (a site may name only the down cards)."""
    known = {c for c in dealt if c is not None}
    extra = [c for c in shown if c not in known]
    out = list(dealt)
    for i, c in enumerate(out):
        if c is None and extra:
            out[i] = extra.pop(0)
    return out + extra


class _Showdown:
    """The hand's shows and mucks as PHH writes them: the players still in only (a muck
    only at a showdown), each show the player's whole hand in the order dealt, so far as
    the record knows it (`hands`: what was dealt, its unknown cards filled from the show).
    """

    def __init__(self, hand: Hand, index: dict[str, str]) -> None:
        folded = {a.player for a in hand.actions() if a.kind is ActionKind.FOLD}
        contested = sum(1 for p in index if p not in folded) > 1
        dealt: dict[str, list[Card | None]] = {p: [] for p in index}
        self.hands = dealt
        shown: dict[str, bool] = {}  # player -> shows, in the record's order
        for e in hand.events:
            if isinstance(e, Deal):
                dealt[e.player].extend(e.cards)
            elif isinstance(e, Show) and e.player not in folded:
                self.hands[e.player] = _shown_hand(self.hands[e.player], e.cards)
                shown[e.player] = True
            elif isinstance(e, Muck) and contested and e.player not in folded:
                shown.setdefault(e.player, False)
        if contested:
            # a player at the showdown whose every card the record knows, with no show or
            # muck written, shows (PHH asks each to do one; the audit reads those cards too)
            for p, cards in dealt.items():
                if p not in folded and p not in shown and cards and None not in cards:
                    shown[p] = True
        self.order = list(shown.items())  # one decision per player: a show outweighs a muck
        self.index = index
        self.done = False

    def card(self, p: str, position: int, card: Card | None) -> Card | None:
        """A card dealt after the showdown: as dealt, or as the show revealed it."""
        known = self.hands[p]
        if card is None and self.done and position < len(known):
            return known[position]
        return card

    def actions(self, held: dict[str, int] | None = None) -> list[str]:
        """The showdown's actions: after the last card (`held` None), each show of the
        whole hand, each muck; an all-in showdown (`held`: the cards dealt so far) shows
        those cards, and a player who mucks at the end keeps them face down till then."""
        out = []
        for p, shows in self.order:
            label = self.index[p]
            if held is None:
                if shows:
                    out.append(f"{label} sm " + "".join(map(_card, self.hands[p])))
                else:
                    out.append(f"{label} sm")
            elif shows and not self.done:
                out.append(f"{label} sm " + "".join(map(_card, self.hands[p][: held[p]])))
            elif not shows:  # and again after each card to come, as PHH asks
                out.append(f"{label} sm " + "??" * held[p])
        self.done = True
        return out


def _actions(
    hand: Hand, index: dict[str, str], stacks: dict[str, int]
) -> tuple[list[str], dict[str, int]]:
    """The hand's events as PHH actions (what PHH has no action for is left out), and the
    uncalled bets the record does not return (a site whose bettor collects them with the
    pot: PHH returns them, so they are no winnings). The showdown comes where PHH has it:
    when the betting is over with at most one player holding chips, before the cards
    still to come (which the shows then reveal); else at the end.

    Every card dealt is written: a card the record does not show (an opponent's 7th-street
    card, which sites write no line for) is dealt as `??` before the street's betting, or
    as the show named it once the showdown is out, so a reader deals nothing itself. A
    record that writes no deals at all gets none (nothing says who was dealt what)."""
    sd = _Showdown(hand, index)
    ledger = Ledger(stacks)
    held = dict.fromkeys(index, 0)  # cards dealt so far
    out: list[str] = []
    unreturned: dict[str, int] = {}
    writes_deals = any(isinstance(e, Deal) for e in hand.events)
    community = False  # a community card was dealt: 7th street has no card of one's own
    seat_order = list(index)

    def street_over(street: int | None) -> None:
        found = ledger.uncalled()
        if found is not None:
            unreturned[found[0]] = unreturned.get(found[0], 0) + found[1]
            ledger.returned(*found)
        if street is not None:
            ledger.new_street(street)

    def deal(p: str, cards: Iterable[Card | None]) -> None:
        got = [sd.card(p, held[p] + i, c) for i, c in enumerate(cards)]
        held[p] += len(got)
        out.append(f"d dh {index[p]} " + "".join(map(_card, got)))

    def complete_street() -> None:
        """Each player still in holds the street's cards (a player holds as many as the
        street's number, one less after a community card): the ones missing as unknown."""
        if not writes_deals:
            return
        want = ledger.street - (1 if community and ledger.street == 7 else 0)
        for p in sorted(ledger.live, key=seat_order.index):
            if held[p] < want:
                deal(p, [None] * (want - held[p]))

    def next_street(street: int) -> None:
        complete_street()
        if sd.done:
            if street > ledger.street:
                out.extend(sd.actions(held))
        elif ledger.all_in() and sd.order:
            out.extend(sd.actions(held))
        street_over(street)

    betting = False  # the street's betting has begun (its cards are all out)
    for e in hand.events:
        if isinstance(e, Deal):
            if e.street > ledger.street:
                next_street(e.street)
                betting = False
            deal(e.player, e.cards)
        elif isinstance(e, StreetStart):
            if e.street > ledger.street:
                next_street(e.street)
                betting = False
            if e.community is not None:
                out.append(f"d db {e.community}")
                community = True
        elif isinstance(e, Action):
            if e.street != ledger.street:
                if e.street > ledger.street:
                    complete_street()
                street_over(e.street)
                betting = False
            p, k = e.player, e.kind
            if k is ActionKind.ANTE:
                ledger.dead(p, e.amount)
                continue
            if not betting:
                complete_street()
                betting = True
            if k is ActionKind.BRING_IN:
                out.append(f"{index[p]} pb")
                ledger.put(p, e.amount)
            elif k in (ActionKind.BET, ActionKind.RAISE, ActionKind.COMPLETE):
                before = ledger.street_in[p]
                to = e.to_amount if e.to_amount is not None else before + e.amount
                out.append(f"{index[p]} cbr {to}")
                ledger.wager_to(p, to)
            elif k is ActionKind.CALL or k is ActionKind.CHECK:
                out.append(f"{index[p]} cc")
                ledger.put(p, e.amount)
            elif k is ActionKind.FOLD:
                out.append(f"{index[p]} f")
                ledger.fold(p)
        elif isinstance(e, UncalledBet) and e.player in index:
            ledger.returned(e.player, e.amount)
    # a hand still contested at the end was dealt to 7th street: the streets the record
    # stops short of (an all-in run-out it did not write) are dealt, as shown or unknown
    last = 7 if writes_deals and len(ledger.live) > 1 else ledger.street
    while ledger.street < last:
        next_street(ledger.street + 1)
    complete_street()
    street_over(None)
    out.extend(sd.actions())
    return out, unreturned


def hand_fields(hand: Hand) -> dict[str, Any]:
    """The hand's PHH fields, in the specification's order, then histkit's own."""
    players = _in_hand(hand)
    if not players:
        raise PhhError("no player takes part in the hand")
    index = {p: f"p{i}" for i, p in enumerate(players, 1)}
    for e in hand.events:
        who = getattr(e, "player", None)
        if isinstance(e, Action | Deal | Show | Muck | Collect) and who not in index:
            raise PhhError(f"{who!r} plays in the hand without being dealt in")
    seats = {s.player: s for s in hand.seats}
    stacks = {p: seats[p].stack for p in players}
    posted: dict[str, int] = {}
    for a in hand.actions():
        if a.kind is ActionKind.ANTE:
            posted[a.player] = posted.get(a.player, 0) + a.amount
    nominal = _nominal_ante(hand, posted, stacks)
    antes = [nominal] * len(players) if nominal is not None else [posted.get(p, 0) for p in players]
    actions, unreturned = _actions(hand, index, stacks)
    put_in = contributions(hand)
    won = collections(hand)
    for p, chips in unreturned.items():  # collected with the pot, but returned in PHH
        if won.get(p, 0) >= chips:
            won[p] -= chips
            put_in[p] = put_in.get(p, 0) - chips
        else:
            unreturned[p] = 0

    f: dict[str, Any] = {
        "variant": VARIANTS[hand.game],
        "ante_trimming_status": False,
        "antes": antes,
        "bring_in": _bring_in(hand),
        "small_bet": hand.small_bet,
        "big_bet": hand.big_bet,
        "starting_stacks": [stacks[p] for p in players],
        "actions": actions,
    }
    if hand.tournament_id is not None:
        f["event"] = f"Tournament {hand.tournament_id}"
    venue = _venue(hand)
    if venue:
        f["venue"] = venue
    if hand.started_at is not None:
        utc = hand.started_at.astimezone(datetime.UTC)
        f["time"] = utc.time().replace(microsecond=0)
        f["time_zone"] = "UTC"
        f["day"], f["month"], f["year"] = utc.day, utc.month, utc.year
    f["hand"] = hand.hand_id
    level = level_number(hand.level)
    if level is not None:
        f["level"] = level
    f["seats"] = [seats[p].seat for p in players]
    if hand.max_seats is not None:
        f["seat_count"] = hand.max_seats
    if hand.table:
        f["table"] = hand.table
    f["players"] = players
    f["finishing_stacks"] = [stacks[p] - put_in.get(p, 0) + won.get(p, 0) for p in players]
    if won:
        f["winnings"] = [won.get(p, 0) for p in players]
    if hand.unit is Unit.CENT and hand.currency:
        f["currency"] = hand.currency
    f.update(_own_fields(hand, players, level, sum(unreturned.values())))
    return f


def _venue(hand: Hand) -> str | None:
    from histkit.dialects import dialect_of

    d = dialect_of(hand)
    return d.title if d is not None and d.title else None


def _own_fields(
    hand: Hand, players: list[str], level: int | None, unreturned: int
) -> dict[str, Any]:
    """histkit's facts PHH has no field for, as user-defined fields (PHH keeps any key
    that starts with `_`), so that reading the file back gives the same hand."""
    f: dict[str, Any] = {"_site": hand.site, "_unit": hand.unit.value}
    if hand.unit is not Unit.CENT and hand.currency:
        f["_currency"] = hand.currency
    optional = {
        "_tournament": hand.tournament_id,
        "_buy_in": hand.buy_in,
        "_mix": hand.mix,
        "_level": hand.level if hand.level and str(level) != hand.level else None,
        "_local_time": hand.local_time,
        "_hero": hand.hero,
        "_table_hand": hand.table_hand,
    }
    f.update((k, v) for k, v in optional.items() if v is not None)
    out = [s for s in hand.seats if s.player not in players]
    if out:
        f["_not_in_hand"] = [
            {"seat": s.seat, "player": s.player, "stack": s.stack, "sitting_out": s.sitting_out}
            for s in sorted(out, key=lambda s: s.seat)
        ]
    flagged = [s.player for s in hand.seats if s.sitting_out and s.player in players]
    if flagged:
        f["_sitting_out"] = flagged
    notes = [e for e in hand.events if isinstance(e, TableNote)]
    if notes:
        f["_notes"] = [
            {"kind": n.kind.value, **({"player": n.player} if n.player else {}), "text": n.text}
            for n in notes
        ]
    if hand.summary is not None:
        f["_total_pot"] = hand.summary.total_pot - unreturned
        f["_rake"] = hand.summary.rake
        if hand.summary.fee:
            f["_fee"] = hand.summary.fee
    return f


def dumps(hand: Hand) -> str:
    """One hand as the text of a `.phh` file."""
    return dump_fields(hand_fields(hand), long_lists=frozenset({"actions"}))


def dumps_all(hands: Iterable[Hand]) -> str:
    """Hands as the text of a `.phhs` file: one table per hand, `[1]`, `[2]`, ..."""
    return join_hands(dumps(h) for h in hands)


def join_hands(texts: Iterable[str]) -> str:
    """`.phh` texts as one `.phhs` text."""
    return "\n".join(f"[{i}]\n{text}" for i, text in enumerate(texts, 1))
