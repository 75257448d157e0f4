"""Everleaf Gaming: the grammar (`grammars/everleaf.lark`) plus what is different about the site.

Forms: R = in the real file (../shared/hands/everleaf: 19 hands of $0.05/$0.10 7 Card Stud,
2011-07, an Everleaf client file as FPDB keeps it); K = known of the format (FPDB's
EverleafToFpdb, the site's hold'em files) but in no real stud file; H = histkit's own form
where no source gives one. Each terminal in the grammar is marked the same way.
- R: the five header lines ("Everleaf Gaming Game #N", "***** Hand history for game #N
  *****", "$0.05/$0.10 7 Card Stud - 2011/07/08 - 00:08:53", "Table Clarkdale 20", "Total
  number of players: 4"), seats "(  $ 0.54 USD )", "P: posts ante [$ 0.01 USD]", "P posts
  bring-in $0.02.", "P completes to $0.05.", "P: bets [..]", "P calls [..]", "P raises [..]",
  checks, folds, "** Dealing down cards **", "**** dealing 4th street ****" .. "**** dealing
  river ****", "P shows [ 5d, 8d, .. ] a flush, king high", "P does not show cards", "P wins
  $ 0.98 USD from main pot[ with a flush, king high [ Kd, 9d, 8d, 7d, 5d ]]".
- K: euro tables ("[0.10 EUR]", "€"), chips ("Chips"), "Blinds .. NL Hold'em" and other
  games (skipped from line 3), "Seat N: P ( new player )" / "( All-in )" (no stack: kept as a
  note, not a seat), "P sits out", "Dealt to P [ 8h, Ac ]" (the hold'em form; FPDB reads no
  stud cards), "complete to", "from side pot #N", a tournament id in the file name
  ("..TID_<id>-<table>.txt", FPDB's only source of it). "7 Card Stud Hi/Lo" and "Razz" are
  assumed game names (FPDB knows "Razz"; no Everleaf hi/lo header is known to histkit).
- H: a community card on the river line "**** dealing river **** [ 6h ]".

Derived, because the site does not write it (the audit says what it cannot check):
- no deal lines (R): no card is known but the shown ones, so the bring-in, turn order and a
  4th-street big bet (open pair or not: 285999989 bets $0.10 there) cannot be checked.
- "calls [X]" and "raises [X]" give what the action ADDS (R: "calls [$ 0.03 USD]" after a
  $0.02 bring-in; for raises as FPDB's importer reads them, addCallandRaise: both real raises
  are the raiser's first chips on the street, where this and "raise to X" agree). The street
  total and the PokerStars increment come from the street's lines; a player is all-in when
  what they put in reaches their stack (no marker is written).
- no uncalled-bet line, yet the bet goes back (R, by the next hand's stacks: 285997460's $0.10
  bet on 6th returns, the pot won is $0.08): the return is reported at the end of each betting
  round (the next street line, or the first show or win line), the top street total less the
  next one, as the engine counts it.
- no summary: the "wins X" lines are the collects (MAIN pot 0, or SIDE N), and the summary is
  built from them: total pot = what the actions put in, rake = total less what was won (R: 34
  -> 2, 106 -> 8 cents), main and side pots = what each paid, one seat result per winner.
  So the rake is unchecked unless a profile sets a ceiling (a short payment looks like rake).
  The win line's words and best five cards are read as cards (a garbled one is reported),
  not kept: the model has no place for them, and the show line has all seven.
- "does not show cards" declines to show when everyone else folded, else mucks (R: 285997876,
  a called loser). "wins high|low X" names the half of a hi/lo pot (K).
- descriptions are checked in Everleaf's words for the kinds the real file shows (a pair,
  three of a kind, a straight, a flush: `describe_words`); other kinds, hi/lo and razz not.
- times: no zone is written; read as UTC (as FPDB's importer does; no real file settles it).
- unit: CENT when the stakes carry a sign or a currency code, or the first seat a currency
  code (USD, EUR/EURO); else CHIP (a tournament's, with the file name's id when there is one).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import ClassVar

from histkit.cards import Card
from histkit.dialects.base import Dialect, HandBlock
from histkit.dialects.builder import (
    BASE_HANDLERS,
    FrameError,
    HandError,
    Handler,
    LineReader,
    put,
    return_unmatched,
    summary_from_wins,
    utc_start,
)
from histkit.dialects.sink import UP3
from histkit.dialects.words import everleaf_words as describe_words
from histkit.model import ActionKind, Game, Half, NoteKind, PotKind, Street, TableNote, Unit
from histkit.rules.profile import RuleProfile, ShowdownOrder

__all__ = ["EVERLEAF", "Everleaf", "describe_words"]

# House rules. Settled by the real hands: completion to the small bet ($0.05), bets of the
# small bet on 4th and the big bet from 5th, raises of one bet (5th: $0.10 raised to $0.20),
# uncalled bets returned. No deal is written, so no real hand settles the bring-in, who acts
# first, the open-pair double bet (285999989 bets $0.10 on 4th: the cards are unknown), suit
# ties, the cap (no street has more than a bet and a raise), heads-up caps, short all-ins,
# odd chips, or the rake (derived, so unchecked): PokerStars' rules, the usual online ones.
# showdown order (the real hands): the last bettor first in 3 of 3 showdowns after a bet on
# the last street, the first seat in 2 of 2 without one (the best board in neither)
EVERLEAF = RuleProfile(name="everleaf", showdown_order=ShowdownOrder.FIRST_SEAT)

_A = ActionKind
_TID = re.compile(r"TID_(\d+)-\d+")
_CODES = {"USD": "USD", "EUR": "EUR", "EURO": "EUR", "GBP": "GBP", "GEL": "GEL"}  # GEL: K, lari
_CHIPS = ("CHIPS", None)
_GONE = NoteKind.OTHER  # a seat line without a stack


def _money(r: LineReader, m: re.Match[str], group: str, line: int) -> int:
    """An amount and its code ("USD", "Chips"): the code must be the hand's."""
    code = m["code"] if "code" in m.re.groupindex else None
    cash = r.unit is Unit.CENT
    if code is not None or not cash:
        key = code.upper() if code else None
        ok = _CODES.get(key or "") == r.sink.head.get("currency") if cash else key in _CHIPS
        if not ok:
            raise HandError(f"amount {m[group]} {code or ''} in a hand of {r.unit.value}s", line)
    return r.money(m[group].replace(" ", ""), line)


def _put_in(kind: ActionKind) -> Handler:
    """An ante, bring-in, completion (`to`), bet, call or raise (`amount`: what it adds)."""

    def handler(r: LineReader, m: re.Match[str], line: int) -> None:
        if kind is _A.COMPLETE:
            put(r, kind, m["player"], line, to=_money(r, m, "to", line))
        else:
            put(r, kind, m["player"], line, adds=_money(r, m, "amount", line))

    return handler


def on_game(r: LineReader, m: re.Match[str], line: int) -> None:
    """Line 3: the stakes, game and time. With no sign or code, the first seat says whether
    the hand is in money; the header is reported there (the line waits in `scratch`)."""
    r.scratch["game"] = m
    if r.is_money(m["sb"]) or m["cur"]:
        _header(r, m["cur"] or r.d.currency_symbols[m["sb"][0]], line)


def _header(r: LineReader, currency: str | None, line: int) -> None:
    m: re.Match[str] = r.scratch.pop("game")
    d = r.d
    r.set_unit(Unit.CENT if currency else Unit.CHIP)
    tid = None if currency else _TID.search(r.sink.source.replace("\\", "/").rsplit("/")[-1])
    r.sink.header(
        hand_id=r.sink.head["hand_id"],
        game=d.games[m["game"].upper()],
        small_bet=r.money(m["sb"].replace(" ", ""), line),
        big_bet=r.money(m["bb"].replace(" ", ""), line),
        unit=r.unit,
        currency=currency,
        started_at=utc_start(d, [(m["d1"], m["t1"], d.reference_zone)]),
        local_time=m["date"],
        tournament_id=tid[1] if tid else None,
        max_seats=int(m["max"]) if m["max"] else None,  # K: " - 6 Max"
    )


def on_header(r: LineReader, m: re.Match[str], line: int) -> None:
    r.sink.amend(hand_id=m["id"])


def on_history(r: LineReader, m: re.Match[str], line: int) -> None:
    hand_id = r.sink.head["hand_id"]
    if m["id"] != hand_id:
        raise HandError(f"hand history for game #{m['id']} in game #{hand_id}", line)


def on_table(r: LineReader, m: re.Match[str], line: int) -> None:
    r.sink.table(m["name"], r.sink.max_seats)  # the game line's " - 6 Max" (K)


def on_players(r: LineReader, m: re.Match[str], line: int) -> None:
    r.sink.amend(players=int(m["count"]))


def on_seat(r: LineReader, m: re.Match[str], line: int) -> None:
    if "game" in r.scratch:  # the stakes had no sign: this seat's code says
        code = (m["code"] or "").upper()
        _header(r, _CODES.get(code), line)
    r.sink.seat(int(m["seat"]), m["player"], _money(r, m, "amount", line), False, line)


def on_seat_gone(r: LineReader, m: re.Match[str], line: int) -> None:
    """A seat with no stack ("new player", "All-in"): a note, not a player of the hand."""
    r.sink.note(NoteKind.OTHER, m["player"], m[0].rstrip(), line)


def _street(street: Street) -> Handler:
    def on_street(r: LineReader, m: re.Match[str], line: int) -> None:
        sink = r.sink
        if street is Street.THIRD:
            # the seat lines: the seats, and those without a stack (their notes)
            gone = sum(1 for e in sink.events if type(e) is TableNote and e.kind is _GONE)
            seats, want = len(sink.seats) + gone, sink.head.get("players")
            if seats != want:
                raise FrameError(f"{seats} seat lines for {want} players", line)
            if "game" in r.scratch:
                raise FrameError("no seat line says the hand's currency", line)
        else:
            return_unmatched(r, line)
        card = m["card"] if "card" in m.re.groupindex else None
        sink.street_start(street, line, r.cards(card, line)[0] if card else None)

    return on_street


def _cards(r: LineReader, text: str, line: int) -> tuple[Card | None, ...]:
    return r.cards(text.replace(",", " "), line)


def on_deal(r: LineReader, m: re.Match[str], line: int) -> None:
    """K: "Dealt to P [ a, b, c ]": 3rd street's three cards; later the new card last."""
    cards = _cards(r, m["cards"], line)
    sink = r.sink
    if sink.street is Street.THIRD:
        sink.deal(m["player"], cards, UP3, (), line)
    else:
        sink.deal(m["player"], cards[-1:], ((sink.street is not Street.SEVENTH),), cards[:-1], line)


def _shown(muck: bool) -> Handler:
    """ "shows [..] words" (R), or "mucks [..]" (K): a muck with the cards it names."""

    def on_shown(r: LineReader, m: re.Match[str], line: int) -> None:
        return_unmatched(r, line)
        cards = tuple(c for c in _cards(r, m["cards"], line) if c is not None)
        if muck:
            r.sink.muck(m["player"], False, line, cards)
        else:
            r.sink.show(m["player"], cards, m["description"] or None, line)

    return on_shown


def on_no_show(r: LineReader, m: re.Match[str], line: int) -> None:
    """Declined when everyone else folded; a muck when another hand is still in."""
    return_unmatched(r, line)
    player = r.sink.player(m["player"], line)
    r.sink.muck(player, r.sink.live() == [player], line)


def on_collect(r: LineReader, m: re.Match[str], line: int) -> None:
    """A pot won; the summary the site does not write is rebuilt from the wins so far."""
    return_unmatched(r, line)
    player = r.sink.player(m["player"], line)
    if m["cards"]:
        _cards(r, m["cards"], line)  # a garbled card is reported; the best five are not kept
    amount = _money(r, m, "amount", line)
    side = m["pot"] == "side pot"
    index = (int(m["index"]) if m["index"] else 1) if side else 0
    half = r.d.half_words[m["half"]] if m["half"] else None  # K: "wins low X"
    r.sink.collect(player, amount, PotKind.SIDE if side else PotKind.MAIN, index, line, half)
    summary_from_wins(r, player, line, shown=True)


class Everleaf(Dialect):
    name = "everleaf"
    site = "everleaf"
    title = "Everleaf Gaming"
    grammar_file = "everleaf.lark"
    writer = "histkit.dialects.everleaf_writer"
    hand_start: ClassVar[tuple[str, ...]] = ("Everleaf Gaming Game #",)
    profile: ClassVar[RuleProfile] = EVERLEAF
    games: ClassVar[Mapping[str, Game]] = {
        "7 CARD STUD": Game.STUD,  # R
        "7 CARD STUD HI/LO": Game.STUD_HILO,  # assumed
        "RAZZ": Game.RAZZ,  # K
    }
    # K: "ˆ" (U+02C6) for the euro sign in some files (FPDB 2012-06)
    currency_symbols: ClassVar[Mapping[str, str]] = {"$": "USD", "€": "EUR", "ˆ": "EUR", "£": "GBP"}
    half_words: ClassVar[Mapping[str, Half]] = {"high": Half.HIGH, "low": Half.LOW}
    symbol_marks_cash = False  # euro amounts may carry only the code ("[0.10 EUR]")
    reference_zone = "UTC"
    time_zones: ClassVar[Mapping[str, str]] = {"UTC": "UTC"}
    prints_no_low = False  # no such line is known
    handlers: ClassVar[Mapping[str, Handler]] = {
        **BASE_HANDLERS,
        "HEADER": on_header, "HISTORY": on_history, "GAME": on_game, "TABLE": on_table,
        "PLAYERS": on_players, "SEAT": on_seat, "SEAT_GONE": on_seat_gone, "DEALT": on_deal,
        "SHOW": _shown(False), "MUCK": _shown(True), "NO_SHOW": on_no_show, "COLLECT": on_collect,
        **{f"STREET_{int(s)}": _street(s) for s in Street},
        **{k.name: _put_in(k) for k in (_A.ANTE, _A.BRING_IN, _A.COMPLETE, _A.BET, _A.CALL,
                                         _A.RAISE)},
    }  # fmt: skip

    def game_text(self, m: re.Match[str], block: HandBlock) -> str | None:
        """From the third line (stakes, game, time); None when it is not one."""
        got = self._game_line(block)
        return got["game"].strip() if got else None

    def _game_line(self, block: HandBlock) -> re.Match[str] | None:
        if len(block.lines) < 3:
            return None
        return self.compiled.line_regex["GAME"].match(block.lines[2] + "\n")

    @staticmethod
    def describe(game: Game, cards: tuple[Card, ...]) -> str | None:
        return describe_words(game, cards)
