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
    pot_line,
    put,
    utc_start,
)
from histkit.dialects.wpn import WPN
from histkit.model import ActionKind, Game, PotKind, SeatOutcome, Street, Unit
from histkit.rules.profile import RuleProfile

__all__ = ["WinningPoker2016"]


_pot_after_rake = pot_line(after_rake=True)


def _money_action(kind: ActionKind | None) -> Handler:
    """An ante, bring-in, bet, call, raise or all-in (kind None: "allin") of X added chips;
    an "allin" with no amount (K) adds the stack left, as FPDB reads it; a raise with
    nothing in front is a bet."""

    def handler(r: LineReader, m: re.Match[str], line: int) -> None:
        player = r.sink.player(m["player"], line)
        adds = r.sink.left(player) if m["amount"] is None else r.money(m["amount"], line)
        said = ActionKind.BET if kind is ActionKind.RAISE and not r.sink.bet else kind
        put(r, said, player, line, adds=adds, all_in=True if kind is None else None)

    return handler


def on_header_2016(r: LineReader, m: re.Match[str], line: int) -> None:
    """Only the time: the rest of the header is on the Game ID line."""
    r.sink.amend(
        started_at=utc_start(r.d, [(m["d1"], m["t1"], r.d.reference_zone)]), local_time=m["date"]
    )


def on_game_id(r: LineReader, m: re.Match[str], line: int) -> None:
    r.set_unit(Unit.CENT)
    head = r.sink.head
    r.sink.header(
        hand_id=m["id"],
        game=r.d.games[m["game"].upper()],
        small_bet=r.money(m["sb"], line),
        big_bet=r.money(m["bb"], line),
        unit=Unit.CENT,
        currency="USD",
        started_at=head["started_at"],
        local_time=head["local_time"],
        table=m["name"],
        max_seats=int(m["max"]) if m["max"] else None,
    )


def on_card(r: LineReader, m: re.Match[str], line: int) -> None:
    """One card a line: 3rd street's three make one deal, reported with the third."""
    sink = r.sink
    player = sink.player(m["player"], line)
    card = r.cards(m["cards"])[0] if "cards" in m.re.groupindex else None
    if not sink.started:
        sink.street_start(Street.THIRD, line)
    sink.deal_card(player, card, line)


def on_muck_2016(r: LineReader, m: re.Match[str], line: int) -> None:
    """ "mucks cards" / "mucks hand": not showing an uncontested pot (declined), else a
    muck; "mucks (does not show: [..])" (K) names the cards, kept for the summary line."""
    player = r.sink.player(m["player"], line)
    cards = r.known_cards(m["cards"], line) if m["cards"] else ()
    r.sink.muck(player, r.sink.live() == [player], line, cards)


def on_pot_2016(r: LineReader, m: re.Match[str], line: int) -> None:
    """ "Pot: X. Rake R[. JP fee F]": X after rake and fee."""
    short = [p for p, cards in r.sink.partial.items() if len(cards) != 3]
    if short:
        raise HandError(f"{short[0]} got fewer than three cards on 3rd street", line)
    _pot_after_rake(r, m, line)


def _result_2016(outcome: SeatOutcome) -> Handler:
    """A summary line: "Bets: B. Collects: C. Wins|Loses: N." checked against the actions;
    C is the player's collect; a SHOWED line is also the player's show."""

    def handler(r: LineReader, m: re.Match[str], line: int) -> None:
        sink = r.sink
        player = sink.player(m["player"], line)
        bets, won, net = (r.money(m[k], line) for k in ("bets", "won", "net"))
        put_in = sink.hand_in.get(player, 0)
        if bets != put_in or (won - bets if m["wl"] == "Wins" else bets - won) != net:
            raise HandError(
                f"the summary says {player} bet {m['bets']} and {m['wl'].lower()} {m['net']}, "
                f"but the actions put in {put_in // 100}.{put_in % 100:02d}",
                line,
            )
        cards: tuple[Any, ...] = ()
        description = None
        folded = sink.folded.get(player)
        kind = outcome
        if outcome is SeatOutcome.SHOWED:
            cards, description = r.known_cards(m["cards"], line), m["description"] or None
            if m["low"] is not None:  # hi/lo (K): "Low hand (A A 2 4 6 7 )" after the cards
                description = f"{description or ''} Low hand ({m['low'].strip()})".strip()
            sink.show(player, cards, description, line)
        elif outcome is SeatOutcome.MUCKED:
            cards = sink.muck_cards.get(player, ())
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
        "MUCK": on_muck_2016,
        "TOTAL_POT": on_pot_2016,
        "RESULT_SHOWED": _result_2016(SeatOutcome.SHOWED),
        "RESULT_MUCKED": _result_2016(SeatOutcome.MUCKED),
        "RESULT_FOLDED": _result_2016(SeatOutcome.FOLDED),
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
