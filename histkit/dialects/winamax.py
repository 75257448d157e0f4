"""Winamax: the grammar (`grammars/winamax.lark`) plus what is different about the site.

Where each line form comes from is written beside its terminal in the grammar: "seen" in
the real files (../shared/hands/winamax: 2016-11 client files of stud and stud hi/lo in
euros, a 2016-06 play-money "export" of stud, a 2-7 triple draw hand that is skipped) or
"known" from the site's other files and FPDB's WinamaxToFpdb.py (tournament headers and
tables, bounties, all-in suffixes, razz, main/side pots, "No rake", mucks, "sits out",
position markers, CET/CEST); the community-card form is histkit's own.

Choices (the site does not write them):
- unit: CHIP for tournaments; CENT for cash, in euros ("5€": the sign after the number) and
  for play money, whose amounts have decimals ("0.65"): hundredths of a play chip, with
  the currency code "PLAY" (not ISO: play money is its own currency, never added to
  euros or to anything else; CENT gives the right scale, and Winamax rakes play money,
  which the engine refuses in a CHIP hand).
- the total pot is written AFTER rake (real file: antes and bets make 460€, "Total pot 458€
  | Rake 2€"): the handler adds the rake back.
- "raises X to Y" with X == Y is a completion over the bring-in, where X is not the raise
  over the bring-in: reported as COMPLETE to Y. Other raises: X is the raise over the bet.
- a seat line printed once per hi/lo half ("Seat 2: Player0 won 114€" twice) is one seat
  result with the halves added up.
- Winamax prints no uncalled-bet line: an unmatched bet stays in the written pot and its
  bettor collects it. The hand keeps that as written (no UncalledBet is made up), and the
  audit knows it (`prints_uncalled` is False: no return line is asked for).
- the export writes no deal lines at all; none are made up either (the audit checks such
  a record's money and says the cards cannot be checked).
- a bet, call or raise with a minus sign before its amount (K: FPDB's action pattern
  allows one) is the site's mistake: read as the wager of that many chips, beside a note
  (NoteKind.NEGATIVE) the audit reports as NEGATIVE_AMOUNT.
- a deal token that is not a card ("[Xx]") is an unknown card. Hand ids keep their three
  parts ("9250793-470-1478990787": table, hand number, unix time). A tournament's id is
  the number in its table name ("Freeroll(15283474)#007"), else the tournament's name.
- descriptions are not checked (`describe` is None): the real files word hands three ways
  ("Flush Queen high", "Two pairs : Kings and 4") and no source lists the vocabulary.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import ClassVar

from histkit.dialects.base import Dialect
from histkit.dialects.builder import (
    BASE_HANDLERS,
    Handler,
    LineReader,
    ignore,
    on_result_collected,
    on_result_mucked,
    on_result_showed,
    pot_line,
    utc_start,
)
from histkit.model import ActionKind, Game, Half, NoteKind, PotKind, Street, Unit
from histkit.rules.profile import RakeSplit, RuleProfile

__all__ = ["MONEY", "PLAY_MONEY", "Winamax", "WINAMAX"]

# What the real hands settle: the bring-in by the lowest up card (9h < Qd, 7c < 8h), the
# best board first on 4th-7th, completion to the small bet, a 7th-street raise. Nothing
# else (no cap reached, suit tie, open pair on 4th, short all-in, side pot, odd chip or
# tie on board): PokerStars' defaults, except the rake comes from the main pot first, so
# the side pot the engine makes of an unmatched bet (which Winamax leaves in the pot and
# pays back) is not raked.
# showdown order: the last bettor shows first in 1 of the 2 real showdowns after a bet on the
# last street; too little to say which order its lines follow: not checked
WINAMAX = RuleProfile(name="winamax", rake_split=RakeSplit.MAIN_FIRST, showdown_order=None)

MONEY = "EUR"  # the one currency of Winamax's real-money tables
PLAY_MONEY = "PLAY"  # the currency of Winamax's play-money tables (counted in hundredths)
_TABLE_TID = re.compile(r"\((\d+)\)#\d+$")


def on_header(r: LineReader, m: re.Match[str], line: int) -> None:
    """Cash, play-money and tournament headers; the stakes are ante/small bet/big bet."""
    tournament = m["tname"] is not None
    sb, bb, ante = m["sb"], m["bb"], m["ante"]
    if tournament:
        r.set_unit(Unit.CHIP)
    else:
        r.set_unit(Unit.CENT)  # euros, or play money in hundredths
    r.sink.header(
        hand_id=m["id"],
        game=r.d.games[m["game"].strip().upper()],
        small_bet=r.money(sb, line),
        big_bet=r.money(bb, line),
        unit=r.unit,
        currency=None if tournament else MONEY if r.is_money(sb) else PLAY_MONEY,
        started_at=utc_start(r.d, [(m["d1"], m["t1"], m["z1"])]),
        local_time=m["date"],
        tournament_id=m["tname"],  # unless the table's name gives its id (`on_table`)
        buy_in=m["buyin"],
        level=m["level"],
        ante=r.money(ante, line) if ante else None,
        # "#9250793-470-1478990787": the table, its hand count, the time
        table_hand=int(parts[1]) if len(parts := m["id"].split("-")) == 3 else None,
    )


def on_table(r: LineReader, m: re.Match[str], line: int) -> None:
    """The table; a tournament's id is in its table name: 'NAME(tournament id)#table'."""
    name = m["name"]
    r.sink.table(name, int(m["max"]), line)
    tid = _TABLE_TID.search(name)
    if tid and r.unit is Unit.CHIP:
        r.sink.amend(tournament_id=tid.group(1))


def on_seat(r: LineReader, m: re.Match[str], line: int) -> None:
    r.sink.seat(int(m["seat"]), m["player"], r.money(m["amount"], line), False, line)


def _signed(handler: Handler) -> Handler:
    """A bet, call or raise whose amount the site wrote with a minus sign (K: FPDB's action
    pattern allows one): the site's mistake, read as the wager of that many chips (what
    the line can only mean) beside a note the audit reports (NEGATIVE_AMOUNT)."""

    def on_signed(r: LineReader, m: re.Match[str], line: int) -> None:
        if m["minus"]:
            r.sink.note(NoteKind.NEGATIVE, m["player"], m.group(0).strip(), line)
        handler(r, m, line)

    return on_signed


def on_raise(r: LineReader, m: re.Match[str], line: int) -> None:
    """ "raises X to Y": a completion when X == Y, else X the raise over the bet."""
    x, y = r.money(m["amount"], line), r.money(m["to"], line)
    kind = ActionKind.COMPLETE if x == y else ActionKind.RAISE
    r.sink.action(kind, m["player"], x, y, m["allin"] is not None, line)


def _merged(handler: Handler) -> Handler:
    """A seat's summary line printed once per pot or half: one result, winnings added."""

    def on_result(r: LineReader, m: re.Match[str], line: int) -> None:
        results = r.sink.results
        seat = int(m["seat"])
        earlier = next((i for i, x in enumerate(results) if x.seat == seat), None)
        handler(r, m, line)
        if earlier is not None:
            first, last = results[earlier], results.pop()
            del results[earlier]
            r.sink.result(
                first.seat,
                first.player,
                first.outcome,
                first.won + last.won,
                first.cards or last.cards,
                first.description or last.description,
                None,
                False,
                first.line,
            )

    return on_result


class Winamax(Dialect):
    name = "winamax"
    site = "winamax"
    title = "Winamax"
    grammar_file = "winamax.lark"
    writer = "histkit.dialects.winamax_writer"
    default_currency = MONEY
    currencies = frozenset({MONEY})
    prints_uncalled = False  # the bettor collects an uncalled bet with the pot (hand 554)
    half_words: ClassVar[Mapping[str, Half]] = {"hi": Half.HIGH, "lo": Half.LOW}
    prints_no_low = False  # no Winamax line for "no low hand qualified" is known
    hand_start: ClassVar[tuple[str, ...]] = ("Winamax Poker - ",)
    profile: ClassVar[RuleProfile] = WINAMAX
    handlers: ClassVar[Mapping[str, Handler]] = {
        **BASE_HANDLERS,
        "HEADER": on_header,
        "TABLE": on_table,
        "SEAT": on_seat,
        "ANTE_BLINDS": ignore,
        "BET": _signed(BASE_HANDLERS["BET"]),
        "CALL": _signed(BASE_HANDLERS["CALL"]),
        "RAISE": _signed(on_raise),
        "TOTAL_POT": pot_line(after_rake=True),
        "RESULT_SHOWED": _merged(on_result_showed),
        "RESULT_COLLECTED": _merged(on_result_collected),
        "RESULT_MUCKED": _merged(on_result_mucked),
    }
    games: ClassVar[Mapping[str, Game]] = {
        "7-CARD STUD FIXED LIMIT": Game.STUD,
        "7STUD FIXED LIMIT": Game.STUD,  # the export's word
        "7-CARD STUD HI/LO FIXED LIMIT": Game.STUD_HILO,
        "7STUD8 FIXED LIMIT": Game.STUD_HILO,  # K: the export's hi/lo word (FPDB)
        "RAZZ FIXED LIMIT": Game.RAZZ,
    }
    currency_symbols: ClassVar[Mapping[str, str]] = {"€": "EUR"}
    symbol_marks_cash = False  # play money is counted in hundredths with no sign
    thousands = ""
    hidden_cards: ClassVar[frozenset[str]] = frozenset({"X"})
    reference_zone = "UTC"
    time_zones: ClassVar[Mapping[str, str]] = {
        "UTC": "UTC",
        "GMT": "UTC",
        "CET": "Europe/Paris",
        "CEST": "Europe/Paris",
    }
    street_words: ClassVar[Mapping[str, Street]] = {
        f"{s}{'rd' if s == 3 else 'th'} street": s for s in Street
    }
    pot_words: ClassVar[Mapping[str, PotKind]] = {
        "pot": PotKind.POT,
        "main pot": PotKind.MAIN,
        "side pot": PotKind.SIDE,
    }
