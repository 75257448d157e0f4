"""Full Tilt Poker (2006-2013): what differs from PokerStars, over `grammars/fulltilt.lark`.

Lines (R: seen in the real files of ../shared/hands/fulltilt; K: from knowledge of the
site's format, FPDB's FullTiltToFpdb importer and hands of the era, not in those files):
- header R: cash "Table Hagan - $3/$6 Ante $0.50 - Limit Stud Hi - 12:18:37 ET - 2010/06/11",
  a second time "17:10:10 CCT - 2010/12/07 [04:10:10 ET - 2010/12/07]", sit & go and MTT
  titles "$2 + $0.10 Heads Up Sit & Go (220338000), Table 1", other games ("Limit 5 Card
  Stud") skipped; K: table attributes "(6 max)", a mix "- HORSE - Limit Stud H/L -", the
  old date "21:05 ET - Thursday, October 4, 2007", "(partial)", "Stud Hi/Lo" spellings.
- R: seats "($31), is sitting out", "antes $0.50", "is low with [3c]" / razz "is high with
  [Ks]" (ignored: the engine finds the bring-in), "brings in for 9, and is all in",
  "completes it to $3", "bets", "calls 255, and is all in", "raises to 1,345, and is all in",
  "checks", "folds", "Uncalled bet of $3 returned to X", "shows [..] a pair of Aces", shows
  of an all-in exposure on 3rd street, "mucks", "wins the pot ($9.50)", "wins the side
  pot (6,910) with ..", "wins the main pot", the 2013 street pots "(Total Pot: 1,050, 7
  Players)", notes "sits down", "stands up", "adds $316", "is sitting out", "has returned",
  "has timed out", "has 15 seconds left to act", "5 seconds left to act"; summary "Total
  pot $42.80 | Rake $2", "Main pot 5,335. Side pot 6,910.", "folded on 3rd St.",
  "collected ($9.50), mucked", "showed [..] and won ($40.80) with ..", "and lost with ..",
  "mucked [..] - a flush, Ten high", "is sitting out".
- K: "ties for the pot", hi/lo "wins the high pot" / "the low pot" / "ties for the high
  pot", "side pot #2", "Side pot #2 X.", "No low hand qualified", "antes 10, and is all in",
  "has requested TIME", "is feeling happy", "is disconnected", "finished in 5th place",
  "wins the tournament", chat "X: text", the community card "*** 7TH STREET *** [6h]" and
  "Board: [6h]"; "Full Tilt Poker.fr", the game before the stakes ("Table Hagan - Limit
  Stud Hi - $3/$6 ..."), the limit "FL", "Table Play Chip <name>", "1.5K" / "1M" amounts,
  "sits out", a mangled summary seat "Seat 6: Hero wins the pot ($9.50)".

Choices:
- unit CENT when the stakes carry a currency symbol, currency from the symbol ("$": USD, the
  site's only cash currency in these years); ante from the header (`Hand.ante`).
- "raises to Y" and "completes it to Y" give the street total only: the increment (the
  `amount` PokerStars writes) is Y less the street's highest total so far, known from the
  hand's own lines; a completion is reported as COMPLETE.
- "Total pot" is everything put in, before rake (hand 11111112961: $42.80 = antes and bets,
  $40.80 won, $2 rake), so it is reported as written.
- `buy_in` holds a tournament's whole title ("$2 + $0.10 Heads Up Sit & Go"): the model has
  no title field and Full Tilt writes the buy-in only inside it. A table's "(6 max)" is
  `max_seats`; the hero is the one player whose down cards show.
- "mucks" is a muck (`declined=False`): Full Tilt has one word for a losing hand mucked at
  showdown and a winner who shows nothing.
- a shown hand keeps its two down cards in the order they were dealt (Full Tilt sorts them
  in a show; see `_dealt_order`); text garbled where a card should be ("[Xx]") is an unknown
  card, reported as a GARBLED note (Full Tilt writes no token for a hidden card).

The profile: see `FULLTILT`.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from typing import ClassVar

from histkit.cards import Card
from histkit.dialects.base import HandBlock
from histkit.dialects.builder import Handler, LineReader, ignore, note_handler, pot_line, utc_start
from histkit.dialects.pokerstars import PokerStars
from histkit.dialects.words import fulltilt_high, fulltilt_low
from histkit.evaluate._tables import CAT_SHIFT, HandCategory
from histkit.evaluate.scalar import high_value
from histkit.model import (
    ActionKind,
    Game,
    Half,
    NoteKind,
    SeatOutcome,
    Street,
    Unit,
)
from histkit.rules.profile import POKERSTARS, RuleProfile

__all__ = ["FULLTILT", "FullTilt"]

# Full Tilt's house rules, from the real hands where they show:
# - bring-in by suit, clubs lowest: 11111111146 (2c, 2d and 2h up; 2c brings in);
# - rake at most 5% of the pot: 11111112961 ($2 of $42.80), 11111111633 ($1 of $30.50),
#   razz 26190453000 ($0.05 of $1.17) and 26190500040 ($0.02 of $0.43);
# - a short all-in raise of half a bet or more reopens the betting: the 2013 5-card stud
#   MTT hand (skipped, same house): 1,345 all-in over an 800 completion, then "raises to
#   2,145";
# and from knowledge where no real hand settles it: bet + 3 raises, uncapped heads-up (no
# hand reaches a cap), open pair on 4th allows the big bet, the all-in bring-in passes
# clockwise, odd chips by card, ties for first action by seat, no burn arithmetic.
# showdown order (AGGRESSOR, as PokerStars): the last bettor first in 2 of 2 real showdowns
FULLTILT = dataclasses.replace(
    POKERSTARS, name="fulltilt", heads_up_uncapped=True, rake_max_percent=5
)

_MONTH_NAMES = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
_MONTHS = {m: i for i, m in enumerate(_MONTH_NAMES, 1)}
_MAX_SEATS = re.compile(r"(\d+) max")
_UNSETTLED = (HandCategory.STRAIGHT, HandCategory.STRAIGHT_FLUSH)


def on_header(r: LineReader, m: re.Match[str], line: int) -> None:
    d = r.d
    sb, bb, ante = m["sb"], m["bb"], m["ante"]
    r.set_unit(Unit.CENT if r.is_money(sb) else Unit.CHIP)
    if m["t1"]:
        times = [(m["d1"], m["t1"], m["z1"])]
        if m["d2"]:
            times.append((m["d2"], m["t2"], m["z2"]))
    else:  # the 2006-2007 form: "21:05 ET - Thursday, October 4, 2007"
        month = _MONTHS.get(m["omon"][:3].lower(), 0)
        times = [(f"{m['oyr']}/{month}/{m['oday']}", f"{m['ot']}:00", m["oz"])] if month else []
    seats = _MAX_SEATS.search(m["attrs"] or "")
    r.sink.header(
        hand_id=m["id"],
        game=d.games[(m["game"] or m["game2"]).strip().upper()],
        small_bet=r.money(sb, line),
        big_bet=r.money(bb, line),
        unit=r.unit,
        currency=d.currency_symbols[sb[0]] if r.unit is Unit.CENT else None,
        started_at=utc_start(d, times),
        local_time=m["date"],
        tournament_id=m["tid"],
        buy_in=m["title"],
        mix=m["mix"],
        ante=r.money(ante, line) if ante else None,
        table=m["table"],
        max_seats=int(seats[1]) if seats else None,
    )


def wager_handler(kind: ActionKind) -> Handler:
    """ "completes it to Y" / "raises to Y": the street total; the increment over the
    current bet is the `amount` (PokerStars' "raises X to Y")."""

    def on_wager(r: LineReader, m: re.Match[str], line: int) -> None:
        to = r.money(m["to"], line)
        r.sink.action(
            kind, m["player"], to - r.sink.current_bet(), to, m["allin"] is not None, line
        )

    return on_wager


def _dealt_order(r: LineReader, player: str, cards: tuple[Card, ...]) -> tuple[Card, ...]:
    """A shown hand with its two down cards in the order they were dealt. Full Tilt sorts
    them when it shows a hand (11111112961: dealt [9h 9s], shown [9s 9h ...]); the cards
    are the same, so the dealt order is kept for the engine's card-by-card check."""
    dealt = r.sink.dealt(r.sink.names.get(player, player))
    if len(dealt) >= 3 and cards[:2] == dealt[1::-1] and cards[0] != cards[1]:
        return (cards[1], cards[0], *cards[2:])
    return cards


def on_show(r: LineReader, m: re.Match[str], line: int) -> None:
    cards = _dealt_order(r, m["player"], r.known_cards(m["cards"], line))
    r.sink.show(m["player"], cards, m["description"], line)


def result_handler(outcome: SeatOutcome) -> Handler:
    """`Seat N: P showed [..] and won (X) with ..` / `P mucked [..] - ..` (the words kept)."""

    def on_result(r: LineReader, m: re.Match[str], line: int) -> None:
        player = m["player"]
        cards = _dealt_order(r, player, r.known_cards(m["cards"], line)) if m["cards"] else ()
        won = r.money(m["won"], line) if m.re.groupindex.get("won") and m["won"] else 0
        r.sink.result(
            int(m["seat"]), player, outcome, won, cards, m["description"], None, False, line
        )

    return on_result


class FullTilt(PokerStars):
    """PokerStars' tables (time zones, currency symbols, pot words) with Full Tilt's
    grammar, header, wagers, words and house rules."""

    finish_lines = (  # "X finished in 5th place", "X wins the tournament"
        (re.compile(r"(?:finished|finishes) in (?P<place>\d+)\w\w place"), None),
        (re.compile(r"wins the tournament"), 1),
    )

    name = "fulltilt"
    site = "fulltilt"
    title = "Full Tilt Poker"
    grammar_file = "fulltilt.lark"
    hand_start: ClassVar[tuple[str, ...]] = (
        "Full Tilt Poker ",
        "Full Tilt Poker.fr ",
        "FullTiltPoker ",
    )
    magnitudes: ClassVar[Mapping[str, int]] = {"K": 1_000, "M": 1_000_000}
    profile: ClassVar[RuleProfile] = FULLTILT
    writer = "histkit.dialects.fulltilt_writer"
    handlers: ClassVar[Mapping[str, Handler]] = {
        **PokerStars.handlers,
        "HEADER": on_header,
        "COMPLETE": wager_handler(ActionKind.COMPLETE),
        "RAISE": wager_handler(ActionKind.RAISE),
        "BRING_IN_CARD": ignore,
        "TOTAL_POT": pot_line(),
        "SHOW": on_show,
        "RESULT_SHOWED": result_handler(SeatOutcome.SHOWED),
        "RESULT_MUCKED": result_handler(SeatOutcome.MUCKED),
        "SIT_DOWN": note_handler(NoteKind.JOIN),
        "STAND_UP": note_handler(NoteKind.LEAVE),
        "ADD_CHIPS": note_handler(NoteKind.OTHER),
        "TIME_LEFT": note_handler(NoteKind.OTHER),
        "REQUEST_TIME": note_handler(NoteKind.OTHER),
        "FEELING": note_handler(NoteKind.OTHER),
    }
    games: ClassVar[Mapping[str, Game]] = {
        limit + game: kind
        for limit in ("LIMIT ", "FL ", "")
        for game, kind in (
            *(("STUD HI", Game.STUD), ("STUD", Game.STUD), ("7 CARD STUD", Game.STUD)),
            *((g, Game.STUD_HILO) for g in ("STUD H/L", "STUD HI/LO", "7 CARD STUD HI/LO")),
            ("RAZZ", Game.RAZZ),
        )
    }
    note_terminals: ClassVar[frozenset[str]] = PokerStars.note_terminals | {
        "SIT_DOWN",
        "STAND_UP",
        "ADD_CHIPS",
        "TIME_LEFT",
        "REQUEST_TIME",
        "FEELING",
    }
    half_words: ClassVar[Mapping[str, Half]] = {"high": Half.HIGH, "low": Half.LOW}
    street_words: ClassVar[Mapping[str, Street]] = {
        f"{s.value}{'rd' if s == 3 else 'th'} st.": s for s in Street
    }

    def game_text(self, m: re.Match[str], block: HandBlock) -> str | None:
        return (m["game"] or m["game2"] or "").strip()

    @staticmethod
    def describe(game: Game, cards: tuple[Card, ...]) -> str | None:
        """Full Tilt's words for a shown hand where they are settled (stud high, razz);
        None for hi/lo (no real hand shows its words), straights and straight flushes
        ("Queen high" or "Eight to Queen"?), a deuce named ("Twos" or "Deuces"?) and a
        razz low with a pair."""
        if len(cards) < 5 or game is Game.STUD_HILO:
            return None
        if game is Game.RAZZ:
            words = fulltilt_low(game, cards)
            return words if words and len(set(words.split(","))) == 5 else None
        category = high_value(cards) >> CAT_SHIFT
        words = fulltilt_high(cards)
        if category in _UNSETTLED or "Two" in words:
            return None
        return words
