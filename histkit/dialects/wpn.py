"""Winning Poker Network / Americas Cardroom: the 2019+ client (the 2016 client: `wpn_2016`).

Two eras, two grammars, one site ("wpn"). Forms marked R are in the real files
(/work/shared/hands/wpn/); K forms come from what is known of the format (FPDB's
WinningToFpdb, the clients' hold'em and omaha histories) and no real stud file shows them.

`WinningPoker` (grammars/wpn.lark) reads like PokerStars without the colon after names
("Player1 brings in $0.02", R) and inherits from it. What differs:
- header: "Hand #N - 7Stud(Fixed Limit) - $0.04/$0.08 - 2019/07/28 16:15:58 UTC" (R); the
  tournament form "Game Hand #N - Tournament #T - ... - Level L (sb/bb)- <date> UTC" (K).
  The game is read with its limit, so only fixed-limit stud games are parsed; hold'em,
  omaha and pot- or no-limit stud are skipped from the header. Times are UTC (R).
- play money (K): a cash header whose stakes have no "$" ("0.10/0.20"), counted in
  hundredths with the currency "PLAY"; "caps X" (K) is a raise adding X.
- "raises X to Y" (R: "raises $0.04 to $0.04" over a $0.02 bring-in): X is not the
  PokerStars increment, so the increment is derived as Y minus the street's current bet.
- "Main pot X | Rake Y" after each street header (R) is a running figure: not kept.
- "Total pot X | Rake R[ | JP Fee F]": X is the pot AFTER rake (R: the winner of a $0.37
  pot "won $0.36", "Total pot $0.36 | Rake $0.01"); the total reported is X + R + F.
- The real hand has no collect line: the winner's chips are only in the summary ("did not
  show and won $0.36", R). When a hand has no "collected ... from" line (K), each summary
  "won X" is reported as a collect from the pot; with collect lines, those are the collects.

Descriptions are not checked (`describe` is None): the new client's words for stud are not
in any real file.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from typing import ClassVar

from histkit.dialects.base import Dialect, HandBlock
from histkit.dialects.builder import (
    Handler,
    LineReader,
    ignore,
    on_collect,
    on_result_collected,
    on_result_showed,
    pot_line,
    put,
    utc_start,
)
from histkit.dialects.pokerstars import PokerStars
from histkit.model import (
    ActionKind,
    Game,
    PotKind,
    Unit,
)
from histkit.rules.profile import POKERSTARS, RuleProfile

__all__ = ["WPN", "WinningPoker"]

# House rules. Settled by real hands: bring-in by the lowest up card, ace high (2016 #693977839:
# Nee's 8d under Ac; 2019: 3h among Qd Tc 7d); first to act on 4th-7th by the best board
# (2019: Player1's open pair of threes on 4th and 5th, Player2's aces on 6th); no double-bet
# line is printed. The rest (bet + 3 raises, heads-up too; suit order for ties; half-bet
# all-ins; odd chips) no real hand settles: PokerStars' rules, the usual online ones.
# showdown order: one real showdown, no bet on its last street; the 2016 client writes a shown
# hand only as a summary seat line, in seat order: not checked
WPN: RuleProfile = dataclasses.replace(POKERSTARS, name="wpn", showdown_order=None)


# --------------------------------------------------------------------------- 2019+


PLAY_MONEY = "PLAY"  # the currency of play-money tables (hundredths of a play chip)


def game_key(text: str) -> str:
    """The game words as `games` keys them: "7Stud H/L (Fixed Limit)" (K, a blank before
    the limit) and "7Stud H/L(Fixed Limit)" (K) alike."""
    return re.sub(r" +\(", "(", text.strip()).upper()


def on_header(r: LineReader, m: re.Match[str], line: int) -> None:
    """Cash in dollars (R), tournament chips (K), or play money: a cash hand ("Hand #",
    no tournament) whose stakes have no sign (K: FPDB takes such a hand for play money;
    the table line then says "(Play Money)"), counted in hundredths like Winamax's."""
    sb, bb = m["sb"] or m["lsb"], m["bb"] or m["lbb"]
    play = m["tid"] is None and m["sb"] is not None and not r.is_money(sb)
    if play:
        r.set_play_money()
    else:
        r.set_unit(Unit.CENT if r.is_money(sb) else Unit.CHIP)
    currency = PLAY_MONEY if play else r.d.currency_symbols[sb[0]] if r.unit is Unit.CENT else None
    r.sink.header(
        hand_id=m["id"],
        game=r.d.games[game_key(m["game"])],
        small_bet=r.money(sb, line),
        big_bet=r.money(bb, line),
        unit=r.unit,
        currency=currency,
        started_at=utc_start(r.d, [(m["d1"], m["t1"], m["z1"])]),
        local_time=m["date"],
        tournament_id=m["tid"],
        level=m["level"],
    )


def on_table(r: LineReader, m: re.Match[str], line: int) -> None:
    r.sink.table(
        m["qname"] if m["qname"] is not None else m["name"],
        int(m["max"]) if m["max"] else None,
        line,
    )


def on_raise(r: LineReader, m: re.Match[str], line: int) -> None:
    """ "raises X to Y": Y is the street total; the increment is Y over the current bet
    (X is what the raise adds, not the increment). With nothing in front, it is a bet."""
    to = r.money(m["to"], line)
    top = r.sink.current_bet()
    kind, amount = (ActionKind.RAISE, to - top) if top else (ActionKind.BET, to)
    r.sink.action(kind, m["player"], amount, to if top else None, m["allin"] is not None, line)


def on_cap(r: LineReader, m: re.Match[str], line: int) -> None:
    """ "caps X" (K: FPDB's action pattern; no real file): the last raise allowed. X is
    taken as what the line adds, as the client's "raises X to Y" writes what a raise
    adds (R); the street total is the player's chips in so far plus X. (FPDB reads X as
    a raise by X over the bet called; no record settles it.)"""
    kind = ActionKind.RAISE if r.sink.bet else ActionKind.BET
    put(r, kind, m["player"], line, adds=r.money(m["amount"], line), all_in=m["allin"] is not None)


def on_collect_line(r: LineReader, m: re.Match[str], line: int) -> None:
    r.scratch["collects"] = True
    on_collect(r, m, line)


def _summary_collect(base: Handler) -> Handler:
    """A summary "won X" is the collect itself when the hand printed no collect line."""

    def handler(r: LineReader, m: re.Match[str], line: int) -> None:
        base(r, m, line)
        if m["won"] and not r.scratch.get("collects"):
            r.sink.collect(m["player"], r.money(m["won"], line), PotKind.POT, 0, line)

    return handler


class WinningPoker(PokerStars):
    name = "wpn"
    site = "wpn"
    title = "Winning Poker Network"
    grammar_file = "wpn.lark"
    hand_start: ClassVar[tuple[str, ...]] = ("Hand #", "Game Hand #")
    profile: ClassVar[RuleProfile] = WPN
    writer = "histkit.dialects.wpn_writer"
    games: ClassVar[Mapping[str, Game]] = {
        "7STUD(FIXED LIMIT)": Game.STUD,  # R
        "7STUD HILOW(FIXED LIMIT)": Game.STUD_HILO,  # K, and the spellings below
        "7STUD HI/LO(FIXED LIMIT)": Game.STUD_HILO,
        "7STUD H/L(FIXED LIMIT)": Game.STUD_HILO,
        "RAZZ(FIXED LIMIT)": Game.RAZZ,
    }
    currency_symbols: ClassVar[Mapping[str, str]] = {"$": "USD"}
    reference_zone = "UTC"
    time_zones: ClassVar[Mapping[str, str]] = {"UTC": "UTC"}
    handlers: ClassVar[Mapping[str, Handler]] = {
        **PokerStars.handlers,
        "HEADER": on_header,
        "TABLE": on_table,
        "RAISE": on_raise,
        "CAP": on_cap,
        "STREET_POT": ignore,
        "COLLECT": on_collect_line,
        "TOTAL_POT": pot_line(after_rake=True),
        "RESULT_COLLECTED": _summary_collect(on_result_collected),
        "RESULT_SHOWED": _summary_collect(on_result_showed),
    }

    def game_text(self, m: re.Match[str], block: HandBlock) -> str | None:
        return re.sub(r" +\(", "(", m["game"].strip())

    describe = staticmethod(Dialect.describe)
