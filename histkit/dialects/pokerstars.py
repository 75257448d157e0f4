"""PokerStars: the grammar (`grammars/pokerstars.lark`) plus the site's tables.

Choices (documented because the site does not write them):
- unit: CENT when the stakes carry a currency symbol ("$0.04/$0.08"), else CHIP (tournaments,
  play money); every amount of the hand must then agree (a "$" in a chip hand is rejected).
- currency: the ISO code as written in the cash stakes ("USD"); None when only a symbol is
  written (2009 files: "($0.04/$0.08)") and for chip hands (the buy-in keeps its own text).
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

from collections.abc import Mapping
from typing import ClassVar

from histkit.dialects.base import Dialect
from histkit.model import Game

__all__ = ["PokerStars"]


class PokerStars(Dialect):
    name = "pokerstars"
    site = "pokerstars"
    grammar_file = "pokerstars.lark"
    hand_start: ClassVar[tuple[str, ...]] = ("PokerStars ",)
    games: ClassVar[Mapping[str, Game]] = {
        "7 CARD STUD LIMIT": Game.STUD,
        "7 CARD STUD HI/LO LIMIT": Game.STUD_HILO,
        "RAZZ LIMIT": Game.RAZZ,
    }
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
