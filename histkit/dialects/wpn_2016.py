"""Winning Poker Network: the old (2016) client, over `grammars/wpn_2016.lark` (site "wpn").

Forms marked R are in the real files (../shared/hands/wpn/); K forms come from what is known
of the format. Read as the client wrote them (R throughout unless said):
- "Game started at: 2016/8/2 11:17:19" starts a hand; no zone is written: we assume US
  Eastern time (an assumption: a US-facing network; no real file settles it). The hand id,
  stakes, table and game are on the second line ("Game ID: 693977667 1/2 (PRR) Leyak (Seven
  Cards Stud)"); the game skip reads it there. Amounts have no symbol: cash in USD cents.
- 3rd street has no marker: its first card line starts it. One card a line: the two down
  cards then the up card make one 3rd-street deal ("received a card." is a card not seen).
  WPN's "Third street" deals the 4th card: Third..Sixth street are 4th..7th.
- "calls (X)", "raises (X)", "allin (X)" (K) give what the action ADDS (R: "calls (0.60)"
  after a $1 completion over a $0.40 bring-in). The street total, the PokerStars increment
  and the kind of an "allin" (bet, call or raise) are derived from the street's bets; a
  player is all-in when what they put in reaches their stack. Each summary line's "Bets:"
  (and Wins/Loses) is checked against the derived figures: a mismatch rejects the hand, so
  a wrong reading of "raises (X)" could not pass unseen (the real raises are all the first
  chips a player put in on the street, where both readings agree).
- No collect lines: "Collects: X" in the summary is the player's winnings over every pot
  (`PotKind.TOTAL`: the audit checks each player's total, and says that which pot paid
  what cannot be checked), and "shows: <words> [cards]" there is the show (the body shows
  nothing). "Pot: X. Rake R[. JP fee F]": X is
  after rake and fee (R: 8.15 + 0.11 + 0.04 = 8.30 put in); the total reported is X + R + F.
- "mucks cards" is a declined show when everyone else folded, else a muck. "does not show
  cards" in the summary is a folded seat (its street from the fold), or a seat that took no
  part. Neither client prints "Pair on board" or "Betting is capped" (R: an open pair on 4th
  with no such line).

Descriptions are not checked (`describe` is None): the old client's words for most hands
are not in any real file.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, ClassVar

from histkit.dialects.base import Dialect, HandBlock
from histkit.dialects.builder import (
    BASE_HANDLERS,
    HandError,
    Handler,
    LineReader,
    ignore,
    on_fold,
    on_uncalled,
    utc_start,
)
from histkit.dialects.sink import UP3
from histkit.dialects.wpn import WPN
from histkit.model import ActionKind, Game, PotKind, SeatOutcome, Street, Unit
from histkit.rules.profile import RuleProfile

__all__ = ["WinningPoker2016"]


class _Book:
    """The 2016 text's chips, as the handlers derive them: what each player put in on this
    street and in the hand, the current bet, who folded where, the 3rd-street cards."""

    __slots__ = ("street", "on_street", "in_hand", "top", "folded", "third")

    def __init__(self) -> None:
        self.street = Street.THIRD
        self.on_street: dict[str, int] = {}
        self.in_hand: dict[str, int] = {}
        self.top = 0
        self.folded: dict[str, Street] = {}
        self.third: dict[str, list[Any]] = {}


def _book(r: LineReader) -> _Book:
    b: _Book | None = r.scratch.get("book")
    if b is None:
        b = r.scratch["book"] = _Book()
    if b.street is not r.sink.street:
        b.street, b.on_street, b.top = r.sink.street, {}, 0
    return b


def _put_in(r: LineReader, kind: ActionKind | None, m: re.Match[str], line: int) -> None:
    """An ante, bring-in, bet, call, raise or all-in of X added chips (kind None: "allin")."""
    b = _book(r)
    player = r.sink.player(m["player"], line)
    if m["amount"] is None:  # "allin" with no amount (K): the stack left, as FPDB reads it
        added = r.sink.players[player].stack - b.in_hand.get(player, 0)
    else:
        added = r.money(m["amount"], line)
    b.in_hand[player] = b.in_hand.get(player, 0) + added
    all_in = kind is None or b.in_hand[player] >= r.sink.players[player].stack
    if kind is ActionKind.ANTE:
        r.sink.action(kind, player, added, None, all_in, line)
        return
    to = b.on_street.get(player, 0) + added
    b.on_street[player] = to
    top, b.top = b.top, max(b.top, to)
    if kind is None:  # "allin": a call when it does not top the bet
        kind = ActionKind.CALL if to <= top else ActionKind.RAISE if top else ActionKind.BET
    if kind is ActionKind.RAISE and top:
        r.sink.action(kind, player, to - top, to, all_in, line)
    else:  # a raise with nothing in front is a bet
        kind = ActionKind.BET if kind is ActionKind.RAISE else kind
        r.sink.action(kind, player, added, None, all_in, line)


def _money_action(kind: ActionKind | None) -> Handler:
    return lambda r, m, line: _put_in(r, kind, m, line)


def on_header_2016(r: LineReader, m: re.Match[str], line: int) -> None:
    """Only the time: the rest of the header is on the Game ID line."""
    r.scratch["start"] = (m["d1"], m["t1"], m["date"])


def on_game_id(r: LineReader, m: re.Match[str], line: int) -> None:
    r.set_unit(Unit.CENT)
    d1, t1, date = r.scratch["start"]
    r.sink.header(
        hand_id=m["id"],
        game=r.d.games[m["game"].upper()],
        small_bet=r.money(m["sb"], line),
        big_bet=r.money(m["bb"], line),
        unit=Unit.CENT,
        currency="USD",
        started_at=utc_start(r.d, [(d1, t1, r.d.reference_zone)]),
        local_time=date,
        table=m["name"],
        max_seats=int(m["max"]) if m["max"] else None,
    )


def on_card(r: LineReader, m: re.Match[str], line: int) -> None:
    """One card a line: 3rd street's three make one deal, reported with the third."""
    sink = r.sink
    player = sink.player(m["player"], line)
    card = r.cards(m["cards"])[0] if "cards" in m.re.groupindex else None
    if sink.street is Street.THIRD:
        b = _book(r)
        if not b.third:
            sink.street_start(Street.THIRD, line)
        got = b.third.setdefault(player, [])
        got.append(card)
        if len(got) == 3:
            sink.deal(player, tuple(got), UP3, (), line)
        elif len(got) > 3:
            raise HandError(f"{player} gets a 4th card on 3rd street", line)
        return
    sink.deal(player, (card,), ((sink.street is not Street.SEVENTH),), (), line)


def on_fold_2016(r: LineReader, m: re.Match[str], line: int) -> None:
    _book(r).folded[r.sink.player(m["player"], line)] = r.sink.street
    on_fold(r, m, line)


def on_uncalled_2016(r: LineReader, m: re.Match[str], line: int) -> None:
    b = _book(r)
    player = r.sink.player(m["player"], line)
    back = r.money(m["amount"], line)
    b.in_hand[player] = b.in_hand.get(player, 0) - back
    b.on_street[player] = b.on_street.get(player, 0) - back
    on_uncalled(r, m, line)


def on_muck_2016(r: LineReader, m: re.Match[str], line: int) -> None:
    """ "mucks cards" / "mucks hand": not showing an uncontested pot (declined), else a
    muck; "mucks (does not show: [..])" (K) names the cards, kept for the summary line."""
    b = _book(r)
    player = r.sink.player(m["player"], line)
    if m["cards"]:
        r.scratch.setdefault("mucked", {})[player] = r.known_cards(m["cards"], line)
    live = [p for p in b.third if p not in b.folded]
    r.sink.muck(player, live == [player], line)


def on_pot_2016(r: LineReader, m: re.Match[str], line: int) -> None:
    """ "Pot: X. Rake R[. JP fee F]": X after rake and fee."""
    short = [p for p, cards in _book(r).third.items() if len(cards) != 3]
    if short:
        raise HandError(f"{short[0]} got fewer than three cards on 3rd street", line)
    rake = r.money(m["rake"], line) if m["rake"] else 0
    fee = r.money(m["fee"], line) if m["fee"] else 0
    r.sink.pot_total(r.money(m["total"], line) + rake + fee, rake, None, (), line, fee=fee)


def _result_2016(outcome: SeatOutcome) -> Handler:
    """A summary line: "Bets: B. Collects: C. Wins|Loses: N." checked against the actions;
    C is the player's collect; a SHOWED line is also the player's show."""

    def handler(r: LineReader, m: re.Match[str], line: int) -> None:
        sink, b = r.sink, _book(r)
        player = sink.player(m["player"], line)
        bets, won, net = (r.money(m[k], line) for k in ("bets", "won", "net"))
        put = b.in_hand.get(player, 0)
        if bets != put or (won - bets if m["wl"] == "Wins" else bets - won) != net:
            raise HandError(
                f"the summary says {player} bet {m['bets']} and {m['wl'].lower()} {m['net']}, "
                f"but the actions put in {put // 100}.{put % 100:02d}",
                line,
            )
        cards: tuple[Any, ...] = ()
        description = None
        folded = b.folded.get(player)
        kind = outcome
        if outcome is SeatOutcome.SHOWED:
            cards, description = r.known_cards(m["cards"], line), m["description"] or None
            if m["low"] is not None:  # hi/lo (K): "Low hand (A A 2 4 6 7 )" after the cards
                description = f"{description or ''} Low hand ({m['low'].strip()})".strip()
            sink.show(player, cards, description, line)
        elif outcome is SeatOutcome.MUCKED:
            cards = r.scratch.get("mucked", {}).get(player, ())
            if won:
                kind = SeatOutcome.COLLECTED  # the uncontested winner
        elif outcome is SeatOutcome.FOLDED and folded is None:
            kind = SeatOutcome.OTHER  # never dealt in
        if won:  # one figure over every pot: the audit checks the totals
            sink.collect(player, won, PotKind.TOTAL, 0, line)
        seat = sink.players[player].seat
        street = folded if kind is SeatOutcome.FOLDED else None
        sink.result(seat, player, kind, won, cards, description, street, False, line)

    return handler


class WinningPoker2016(Dialect):
    name = "wpn_2016"
    site = "wpn"
    title = "Winning Poker Network (2016 client)"
    grammar_file = "wpn_2016.lark"
    hand_start: ClassVar[tuple[str, ...]] = ("Game started at: ",)
    profile: ClassVar[RuleProfile] = WPN
    writer = "histkit.dialects.wpn_writer:write_hands_2016"
    games: ClassVar[Mapping[str, Game]] = {
        "SEVEN CARDS STUD": Game.STUD,  # R
        "SEVEN CARDS STUD HILOW": Game.STUD_HILO,  # K
        "RAZZ": Game.RAZZ,  # not known to exist at the old client
    }
    symbol_marks_cash = False
    prints_no_low = False  # no such line is known of the old client
    reference_zone = "ET"  # assumed: the client wrote no zone
    time_zones: ClassVar[Mapping[str, str]] = {"ET": "America/New_York"}
    handlers: ClassVar[Mapping[str, Handler]] = {
        **BASE_HANDLERS,
        "HEADER": on_header_2016,
        "TABLE": on_game_id,
        "GAME_END": ignore,
        "DEALT": on_card,
        "DEALT_DOWN": on_card,
        "ANTE": _money_action(ActionKind.ANTE),
        "BRING_IN": _money_action(ActionKind.BRING_IN),
        "BET": _money_action(ActionKind.BET),
        "CALL": _money_action(ActionKind.CALL),
        "RAISE": _money_action(ActionKind.RAISE),
        "ALL_IN": _money_action(None),
        "FOLD": on_fold_2016,
        "UNCALLED": on_uncalled_2016,
        "MUCK": on_muck_2016,
        "TOTAL_POT": on_pot_2016,
        "RESULT_SHOWED": _result_2016(SeatOutcome.SHOWED),
        "RESULT_MUCKED": _result_2016(SeatOutcome.MUCKED),
        "RESULT_FOLDED": _result_2016(SeatOutcome.FOLDED),
    }
    terminal_labels: ClassVar[Mapping[str, str]] = {
        **Dialect.terminal_labels,
        "HEADER": "a hand header ('Game started at: ...')",
        "TABLE": "the game line ('Game ID: N sb/bb table (game)')",
        "SEAT": "a seat line ('Seat N: P (X).')",
        "GAME_END": "'Game ended at: ...'",
        "DEALT": "a card ('Player P received card: [..]')",
        "DEALT_DOWN": "a hidden card ('Player P received a card.')",
        "ALL_IN": "an all-in ('Player P allin (X)')",
        "STREET_4": "'*** Third street ***'",
        "STREET_5": "'*** Fourth street ***'",
        "STREET_6": "'*** Fifth street ***'",
        "STREET_7": "'*** Sixth street ***'",
        "SUMMARY": "'------ Summary ------'",
        "TOTAL_POT": "the pot ('Pot: X. Rake Y')",
    }

    def game_text(self, m: re.Match[str], block: HandBlock) -> str | None:
        """From the Game ID line (the second); None when it is not one (the grammar says why)."""
        got = self._game_line(block)
        return got["game"].strip() if got else None

    def _game_line(self, block: HandBlock) -> re.Match[str] | None:
        if len(block.lines) < 2:
            return None
        return self.compiled.line_regex["TABLE"].match(block.lines[1] + "\n")

    def hand_id(self, m: re.Match[str], block: HandBlock) -> str | None:
        """On the Game ID line (the second), not in the header."""
        got = self._game_line(block)
        return got["id"] if got else None
