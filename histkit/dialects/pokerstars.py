"""PokerStars: the grammar (`grammars/pokerstars.lark`) plus the site's tables.

Choices (documented because the site does not write them):
- unit: CENT when the stakes carry a currency symbol ("$0.04/$0.08"), else CHIP (tournaments,
  play money); every amount of the hand must then agree (a "$" in a chip hand is rejected).
- currency: the ISO code as written in the cash stakes ("USD"); where only a symbol is
  written (2009 files: "($0.04/$0.08)"), the currency of that symbol at PokerStars ("$":
  USD); None for chip hands (the buy-in keeps its own text).
- started_at: the ET time when the header gives one ("CET [.. ET]" or "PT [.. ET]"), else
  the only time given, in UTC. PokerStars writes "CET" all year for Central European time
  (the 2011-04 file's CET is UTC+2), so abbreviations map to IANA regions, not fixed offsets.
  A zone missing from the table leaves started_at None (local_time keeps the text).
- hero: the one player whose 3rd-street line shows three cards; None when nobody's does
  (an observer) or several do (a tracker export showing every hand).
- "side pot" without a number is side pot 1; "collected ... from pot" is pot 0.
- TableNote.text: the message for chat, the whole line (trailing blanks dropped) otherwise.
- A hand whose header names any other game (hold'em, omaha, draw, or a non-limit stud)
  is skipped from its header alone; its body is never parsed.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import ClassVar

from histkit.cards import Card
from histkit.dialects.base import Dialect, HandBlock
from histkit.dialects.builder import (
    BASE_HANDLERS,
    HandError,
    Handler,
    LineReader,
    pot_line,
    utc_start,
)
from histkit.evaluate.names import describe as _describe
from histkit.model import Game, PotKind, Street, Unit
from histkit.rules.profile import POKERSTARS, RuleProfile

__all__ = ["PokerStars"]


def on_header(r: LineReader, m: re.Match[str], line: int) -> None:
    """Cash, mixed cash and tournament headers of every era (grammars/pokerstars.lark)."""
    d = r.d
    game_text = (m["mgame"] or m["game"]).strip()
    sb = m["msb"] or m["sb"] or m["lsb"]
    bb = m["mbb"] or m["bb"] or m["lbb"]
    if sb is None or bb is None:
        raise HandError("the header states no stakes (small bet/big bet)", line)
    r.set_unit(Unit.CENT if r.is_money(sb) else Unit.CHIP)
    times = [(m["d1"], m["t1"], m["z0"] or m["z1"])]
    if m["d2"]:
        times.append((m["d2"], m["t2"], m["z2"]))
    r.sink.header(
        hand_id=m["id"],
        game=d.games[game_text.upper()],
        small_bet=r.money(sb, line),
        big_bet=r.money(bb, line),
        unit=r.unit,
        currency=(m["mcur"] or m["cur"] or d.currency_symbols.get(sb[0]))
        if r.unit is Unit.CENT
        else None,
        started_at=utc_start(d, times),
        local_time=m["date"],
        tournament_id=m["tid"],
        level=m["level"],
        buy_in=m["buyin"],
        mix=m["mix"].strip() if m["mix"] else None,
    )


class PokerStars(Dialect):
    name = "pokerstars"
    site = "pokerstars"
    title = "PokerStars"
    grammar_file = "pokerstars.lark"
    hand_start: ClassVar[tuple[str, ...]] = ("PokerStars ",)
    profile: ClassVar[RuleProfile] = POKERSTARS
    writer = "histkit.dialects.pokerstars_writer"
    prints_no_low = True
    handlers: ClassVar[Mapping[str, Handler]] = {
        **BASE_HANDLERS,
        "HEADER": on_header,
        "TOTAL_POT": pot_line(),
    }
    games: ClassVar[Mapping[str, Game]] = {
        "7 CARD STUD LIMIT": Game.STUD,
        "7 CARD STUD HI/LO LIMIT": Game.STUD_HILO,
        "RAZZ LIMIT": Game.RAZZ,
    }
    street_words: ClassVar[Mapping[str, Street]] = {
        "3rd street": Street.THIRD,
        "4th street": Street.FOURTH,
        "5th street": Street.FIFTH,
        "6th street": Street.SIXTH,
        "7th street": Street.SEVENTH,
        "river": Street.SEVENTH,
    }
    pot_words: ClassVar[Mapping[str, PotKind]] = {
        "pot": PotKind.POT,
        "main pot": PotKind.MAIN,
        "side pot": PotKind.SIDE,
    }
    # "Hero finished the tournament in 28th place and received $1.23."; "Hero wins the
    # tournament and receives $12.34 - congratulations!"
    finish_lines = (
        (re.compile(r"finished the tournament in (?P<place>\d+)\w\w place"
                    r"(?: and received (?P<prize>\S+?)\.?$)?"), None),
        (re.compile(r"wins the tournament(?: and receives (?P<prize>\S+?))?(?: -|\.?$)"), 1),
    )  # fmt: skip
    currency_symbols: ClassVar[Mapping[str, str]] = {"$": "USD", "€": "EUR", "£": "GBP"}
    reference_zone = "ET"
    time_zones: ClassVar[Mapping[str, str]] = {
        "ET": "America/New_York",
        "CT": "America/Chicago",
        "MT": "America/Denver",
        "PT": "America/Los_Angeles",
        "AT": "America/Halifax",
        "NT": "America/St_Johns",
        "AKT": "America/Anchorage",
        "HT": "Pacific/Honolulu",
        "BRT": "America/Sao_Paulo",
        "ART": "America/Argentina/Buenos_Aires",
        "UTC": "UTC",
        "GMT": "Europe/London",
        "WET": "Europe/Lisbon",
        "CET": "Europe/Paris",
        "CEST": "Europe/Paris",
        "EET": "Europe/Helsinki",
        "EEST": "Europe/Helsinki",
        "MSK": "Europe/Moscow",
        "IST": "Asia/Kolkata",
        "CCT": "Asia/Shanghai",
        "HKT": "Asia/Hong_Kong",
        "JST": "Asia/Tokyo",
        "KST": "Asia/Seoul",
        "AWST": "Australia/Perth",
        "ACST": "Australia/Adelaide",
        "AEST": "Australia/Sydney",
        "NZT": "Pacific/Auckland",
    }

    def game_text(self, m: re.Match[str], block: HandBlock) -> str | None:
        return (m["mgame"] or m["game"] or "").strip()

    @staticmethod
    def describe(game: Game, cards: tuple[Card, ...]) -> str | None:
        """PokerStars' words for a shown hand ("a pair of Sevens", "8,7,5,4,2")."""
        return _describe(game, cards)
