"""Absolute Poker / UltimateBet / Cereus (2008-2011): what differs from PokerStars, over
`grammars/absolute.lark`.

Forms: R seen in the real file (/work/shared/hands/absolute: one 2009-03 Seven Card Hi/Lo
cash hand, FPDB's "River.with.mucked" test), K known of the format (FPDB's AbsoluteToFpdb and
the client's hold'em histories; no real stud file shows them), O histkit's own form for what
no source shows (the writer needs one; read back here). Each terminal is marked in the grammar.
- R: header "Stage #N: Seven Card Hi/Lo  Normal $0.02/$0.04 - 2009-03-18 19:10:00 (ET)", no
  table line, "Seat 1 - P ($0.17 in chips)", "P - Ante $0.01", "*** 3rd STREET ***", "*** 4TH
  STREET ***" .. "*** RIVER ***", "P - Pocket [H H Js 10d]", "P - Bring-In", "Calls", "Bets",
  "Checks", "Folds", "*** SHOW DOWN ***", "P - Shows [..] (One pair, queens)", "P Collects
  $0.19 from main pot", "Total Pot($0.43) | Rake ($0.04)", the seat lines "Folded on the 3rd
  STREET", "HI:lost with ..", "won Total ($0.20) HI:($0.20) with .. [cards - best five]",
  "won Total ($0.19) HI:with .. [..] LO:($0.19) [low five]".
- K: "Seven Card" and "Razz" headers, "#C<id>", "(1 on 1)", other games skipped by name
  ("Holdem  No Limit $0.02"), the tournament id slot "Seven Card (12345) Normal 100/200"
  (FPDB's tournament pattern; the empty slot is why cash headers have two spaces), chips
  without "$", "Game Type: Limit Horse", "Table: X (Real Money)", "Completes $X" (the total),
  "Raises $X to $Y", "All-In $X", "All-In(Raise) $X to $Y", "returned ($X) : not called",
  "Mucks", "Does not show", "from side pot #N", "collected Total ($X)", "Board [..]", the
  fold streets after 3rd; "7 Card Stud", "Tourney ID N .. Single Tournament", ", $X ante",
  "Turbo", a time's fraction, no zone (ET), "HORSE" with the game on a "Game Type" line,
  "Dealt to P [..]", position words in the summary, "72 Prop Win ($X)" (docs/sites/absolute.md).
  Of these, "returned ($X) : not called" is the least sure (remembered from the client's
  hold'em histories; FPDB reads no uncalled bets at Absolute): `prints_uncalled` stays True.
- O: "*** RIVER *** [6h]" (a community card), pots in the total line ("| Main Pot($X) |
  Side Pot #1($Y)"), "Table: X (Tournament)", "Seat N: P Mucked", razz seat lines ("LO:"),
  sitting out ("Seat N - P ($X in chips) - Sitting Out", "Seat N: P Sitting Out").

How the text is read (what it leaves out is derived, never made up):
- unit CENT when the stakes carry "$", else CHIP; "Normal" is fixed limit; the stakes are the
  small and big bet (ante and bring-in are not written); times are ET.
- a Pocket line lists all the player's cards: the last is the street's new card, the rest
  is `before`; "H" is a card nobody saw. A line that adds no card (a folded hero's cards,
  printed again on every street) repeats what is known and is not a deal.
- all-in is written only as "All-In": a bet when nothing is in front, a call when it does
  not top the bet, else a raise; any other action that puts in the player's last chip is
  all-in too (from the seat's stack and what the player put in).
- "Completes $X" is a completion to X (COMPLETE, amount X over the current bet).
- "Collects .. from main pot" is written for the only pot too: reported as MAIN.
- the summary's "HI:($X)" / "LO:($Y)" are the halves the player won: when they match the
  player's main-pot collects one to one (and no side pot was collected), those collects are
  reported with their half, so the audit checks who got which half. The best-five lists
  are not kept (they follow from the cards). A seat line's description is the hand's words
  ("One pair, aces"), as in the show line.

The profile: see `ABSOLUTE`.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from typing import ClassVar

from histkit.cards import Card
from histkit.dialects.base import HandBlock
from histkit.dialects.builder import HandError, Handler, LineReader, pot_line, put, utc_start
from histkit.dialects.pokerstars import PokerStars
from histkit.dialects.sink import UP3
from histkit.dialects.words import absolute_high
from histkit.evaluate._tables import CAT_SHIFT, HandCategory
from histkit.evaluate.scalar import high_value
from histkit.model import (
    ActionKind,
    Collect,
    Game,
    Half,
    NoteKind,
    PotKind,
    SeatOutcome,
    Street,
    Unit,
)
from histkit.rules.profile import POKERSTARS, RuleProfile

__all__ = ["ABSOLUTE", "Absolute", "describe_words"]

# Absolute's house rules. Settled by the real hand (1300000000): the bring-in by the lowest
# up card (PLAYER7's 3s); the best board first on 4th-7th (PLAYER3's A-6 on 4th and A-8-6 on
# 5th, PLAYER7's open queens on 6th and 7th); big bets from 5th street; the odd chip between
# the halves to the high ($0.39 after rake: $0.20 high, $0.19 low); a rake of $0.04 on a
# $0.43 pot (over 9%), so no percentage ceiling is checked. Not settled by any real hand
# (PokerStars' choices, the usual online rules): bet + 3 raises and the heads-up cap, the
# suit order of bring-in ties, the open pair's double bet, short all-ins, an all-in bring-in,
# odd chips inside a half, ties for first action, the community card.
# showdown order: one showdown in the real hands, no bet on its last street: not checked
ABSOLUTE: RuleProfile = dataclasses.replace(POKERSTARS, name="absolute", showdown_order=None)

_SETTLED = (HandCategory.PAIR, HandCategory.TWO_PAIR)


def describe_words(cards: tuple[Card, ...]) -> str | None:
    """Absolute's words for a high hand where a real hand settles them ("One pair,
    queens", "Two Pair, kings and tens"); None for the other categories."""
    return absolute_high(cards) if high_value(cards) >> CAT_SHIFT in _SETTLED else None


def _action(kind: ActionKind | None, says_all_in: bool = False) -> Handler:
    """An ante, bring-in, bet, call, completion ("Completes X": the total), raise ("Raises
    X to Y", X checked by the audit) or all-in (kind None: "All-In X", X what it adds);
    all-in when the line says so or the chips reach the stack."""

    def handler(r: LineReader, m: re.Match[str], line: int) -> None:
        fields = m.re.groupindex
        amount = r.money(m["amount"], line) if "amount" in fields else 0
        to = r.money(m["to"], line) if "to" in fields else None
        increment = amount if kind is ActionKind.RAISE else None
        says = True if says_all_in else None
        put(r, kind, m["player"], line, adds=amount, to=to, all_in=says, increment=increment)

    return handler


def on_header(r: LineReader, m: re.Match[str], line: int) -> None:
    d = r.d
    sb, bb = m["sb"], m["bb"]
    if bb is None:
        raise HandError("the header states no big bet (not a limit game)", line)
    r.set_unit(Unit.CENT if r.is_money(sb) else Unit.CHIP)
    r.sink.header(
        hand_id=m["id"],
        game=d.games[d.game_text(m, r.block) or ""],
        small_bet=r.money(sb, line),
        big_bet=r.money(bb, line),
        unit=r.unit,
        currency=d.currency_symbols[sb[0]] if r.unit is Unit.CENT else None,
        started_at=utc_start(d, [(m["d1"], m["t1"], m["z1"] or "ET")]),  # K: no zone is ET
        local_time=m["date"],
        tournament_id=m["tid"] or m["trny"],
        mix=_HORSE if _horse(m) else None,
        ante=r.money(m["ante"], line) if m["ante"] else None,
        max_seats=2 if m["hu"] else None,
    )


_HORSE = "HORSE"


def _horse(m: re.Match[str]) -> bool:
    return str(m["game"]).strip().upper() == _HORSE


def _game(game: str, limit: str | None) -> str:
    """The game with its limit, as the games table keys it ("SEVEN CARD HI/LO NORMAL")."""
    return " ".join(f"{game} {limit or ''}".upper().split())


def on_game_type(r: LineReader, m: re.Match[str], line: int) -> None:
    """A HORSE hand's game (taken with the header, `Absolute.game_text`), or histkit's own
    form for the mix of a hand whose header names its game."""
    if r.sink.head.get("mix") != _HORSE:
        r.sink.amend(mix=m["game"])


def on_table(r: LineReader, m: re.Match[str], line: int) -> None:
    r.sink.table(m["name"], r.sink.max_seats)


def on_pocket(r: LineReader, m: re.Match[str], line: int) -> None:
    """All the player's cards so far: the last one is new (3rd street: all three)."""
    sink = r.sink
    player = sink.player(m["player"], line)
    cards = r.cards(m["cards"], line)
    held = sink.dealt(player)
    if held and cards == held:
        return  # the known cards again (a folded hero's): no new card
    third = sink.street is Street.THIRD
    if (len(cards) != 3 or held) if third else (not held or cards[:-1] != held):
        raise HandError(f"{player}'s cards {m['cards']} do not follow the earlier ones", line)
    if not held:
        sink.deal(player, cards, UP3, (), line)
    else:
        up = (sink.street is not Street.SEVENTH,)
        sink.deal(player, cards[-1:], up, held, line)


def on_result_folded(r: LineReader, m: re.Match[str], line: int) -> None:
    street = r.street_of(m["street"], line)
    r.sink.result(int(m["seat"]), m["player"], SeatOutcome.FOLDED, 0, (), None, street, False, line)


def _prop(r: LineReader, m: re.Match[str], player: str, line: int) -> int:
    """A 7-2 game's "72 Prop Win (X)" (K): part of the seat's total (FPDB takes it off the
    pot won), paid from no pot: a note with the line as written."""
    if not m["prop"]:
        return 0
    r.sink.note(NoteKind.OTHER, player, m[0].rstrip(), line)
    return r.money(m["prop"], line)


def on_result_collected(r: LineReader, m: re.Match[str], line: int) -> None:
    player = r.sink.player(m["player"], line)
    won = r.money(m["won"], line) - _prop(r, m, player, line)
    r.sink.result(int(m["seat"]), player, SeatOutcome.COLLECTED, won, (), None, None, False, line)


def on_result_showed(r: LineReader, m: re.Match[str], line: int) -> None:
    """`won Total (X) HI:(H) with <words> [cards - best five] LO:(L) [low five]`."""
    player = r.sink.player(m["player"], line)
    won = (r.money(m["won"], line) if m["won"] else 0) - _prop(r, m, player, line)
    if m["part"] == "HI" and r.sink.head.get("game") is Game.STUD_HILO:
        hi = r.money(m["first"], line) if m["first"] else 0
        lo = r.money(m["lo"], line) if m["lo"] else 0
        if hi + lo == won:
            _name_halves(r, player, hi, lo)
    cards = r.known_cards(m["cards"], line)
    r.sink.result(
        int(m["seat"]), player, SeatOutcome.SHOWED, won, cards, m["description"], None, False, line
    )


def _name_halves(r: LineReader, player: str, hi: int, lo: int) -> None:
    """The player's main-pot collects get the halves the summary names, when one collect
    matches each half written (never when a side pot was collected)."""
    events = r.sink.events
    collects = [(i, e) for i, e in enumerate(events) if isinstance(e, Collect)]
    if any(e.pot is PotKind.SIDE for _, e in collects):
        return
    mine = [(i, e) for i, e in collects if e.player == player]
    halves = [(a, h) for a, h in ((hi, Half.HIGH), (lo, Half.LOW)) if a]
    if sorted(e.amount for _, e in mine) != sorted(a for a, _ in halves):
        return
    for i, e in mine:
        k = next(k for k, (a, _) in enumerate(halves) if a == e.amount)
        events[i] = dataclasses.replace(e, half=halves.pop(k)[1])


class Absolute(PokerStars):
    """PokerStars' tables (time zones, currency symbols) with Absolute's grammar, lines,
    words and house rules."""

    name = "absolute"
    site = "absolute"
    title = "Absolute Poker / UltimateBet"
    grammar_file = "absolute.lark"
    hand_start: ClassVar[tuple[str, ...]] = ("Stage #",)
    profile: ClassVar[RuleProfile] = ABSOLUTE
    writer = "histkit.dialects.absolute_writer"
    prints_no_low = False  # no Absolute line for it is known
    handlers: ClassVar[Mapping[str, Handler]] = {
        **PokerStars.handlers,
        "HEADER": on_header,
        "GAME_TYPE": on_game_type,
        "TABLE": on_table,
        "DEALT": on_pocket,
        "DEALT_TO": on_pocket,  # K: "Dealt to P [..]", the same cards
        "ANTE": _action(ActionKind.ANTE),
        "BRING_IN": _action(ActionKind.BRING_IN),
        "COMPLETE": _action(ActionKind.COMPLETE),
        "BET": _action(ActionKind.BET),
        "CALL": _action(ActionKind.CALL),
        "RAISE": _action(ActionKind.RAISE),
        "ALL_IN": _action(None, says_all_in=True),
        "ALL_IN_RAISE": _action(ActionKind.RAISE, says_all_in=True),
        "TOTAL_POT": pot_line(),
        "RESULT_FOLDED": on_result_folded,
        "RESULT_SHOWED": on_result_showed,
        "RESULT_COLLECTED": on_result_collected,
    }
    games: ClassVar[Mapping[str, Game]] = {
        f"{game} {limit}": kind
        for limit in ("NORMAL", "LIMIT")
        for game, kind in (
            ("SEVEN CARD", Game.STUD),
            ("7 CARD STUD", Game.STUD),  # K: FPDB's games table
            ("SEVEN CARD HI/LO", Game.STUD_HILO),
            ("RAZZ", Game.RAZZ),
        )
    }
    hidden_cards: ClassVar[frozenset[str]] = frozenset({"H"})
    street_words: ClassVar[Mapping[str, Street]] = {
        "3rd street": Street.THIRD,
        "4th street": Street.FOURTH,
        "5th street": Street.FIFTH,
        "6th street": Street.SIXTH,
        "river": Street.SEVENTH,
    }

    def game_text(self, m: re.Match[str], block: HandBlock) -> str | None:
        """The header's game and limit; a HORSE hand's from its "Game Type" line (K)."""
        if _horse(m) and len(block.lines) > 1:
            kind = self.compiled.line_regex["GAME_TYPE"].match(block.lines[1] + "\n")
            if kind is not None:
                return _game(kind["game"], kind["limit"])
        return _game(m["game"], m["limit"])

    @staticmethod
    def describe(game: Game, cards: tuple[Card, ...]) -> str | None:
        """Absolute's words for the high hand (hi/lo: the show names the high only) where
        a real hand settles them; None for razz and the other categories."""
        return None if game is Game.RAZZ else describe_words(cards)
