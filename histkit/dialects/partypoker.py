"""PartyPoker (2008-2012 client): 7 Card Stud and Stud Hi-Lo, over `grammars/partypoker.lark`.

Forms marked R are in the real files (/work/shared/hands/partypoker: hi-lo cash 9581478205,
stud cash 10399817763, stud MTT 11792805420); K forms come from what is known of the format
(FPDB's PartyPokerToFpdb, the client's hold'em histories) and no real stud file shows them.
The grammar lists each line form with its mark (R or K), docs/sites/partypoker.md each
with an example. Before a hand, "Game #N starts." and a blank line (R) are the reading
layer's business (`lead_in`): the hand starts at "#Game No". No Party razz is known:
"Razz" is histkit's own word, for simulated hands.

What the text leaves out, and how it is derived (never a card nor an action invented):
- Cards: "** Dealing .. **" deals everyone in the hand (who posted the ante, and has not
  folded) a card, but only the hero's are written. Another player's card is the one their
  show ("shows"/"doesn't show", seven cards) lists in that place: Party lists a shown hand
  in the order dealt (R 11792805420: the 2h that brings in, the open 2h 2d that "double
  bets" on 4th and who opens each street all agree with that order). Otherwise it is
  unknown (None), 3rd to 6th street; the engine adds unknown 7th cards itself. Who brings
  in, who acts first and an open pair on a board nobody shows cannot be checked.
- Amounts: an action's bracket is what it adds; the street total of a raise or completion
  (and the PokerStars increment) comes from the street's earlier lines. "is all-In [X]" is
  a bring-in, completion, bet, call or raise by what X does to the current bet, and all-in;
  any other line is all-in when it puts in the player's last chip (Party marks no other).
- Uncalled bets: no line returns one (R 10399817763: Player8's unmatched $1 on the river is
  in the $13.20 he wins): `prints_uncalled` is False, the bet stays in a pot only its bettor
  can win.
- No summary: one is derived at each "wins" line (the last stands). The total pot is what
  the players put in (unmatched bets too), the rake that less what is won (R: $13.80 put in,
  $13.20 won, $0.60 rake; $8.85, $8.45, $0.40; the MTT's 2,560 and 2,560), the main and
  side pots what is won from each (when a side pot is named), and each winner a COLLECTED
  seat line. So the audit checks the rake against the house's ceiling and that it is
  never negative, but the total is the players' own sum, not a figure the site wrote.
- "doesn't show [..]<words>." is a show (the words checked) and a muck; "does not show
  cards." is the uncontested winner's declined show, else (K) a loser's muck unseen.
- "opens" is a note (the engine finds the first actor itself); "wins X" without a pot is
  the only pot, "from the main pot" the main pot (R: even when it is the only one).
- The time is the player's local time with its zone's abbreviation (EDT, EEST: R), each
  read at its fixed offset.

The profile: see `PARTYPOKER`.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from typing import ClassVar, cast

from histkit.cards import Card
from histkit.dialects.base import FIXED_ZONES, Dialect, HandBlock
from histkit.dialects.builder import (
    BASE_HANDLERS,
    HandError,
    Handler,
    LineReader,
    ignore,
    no_show_alone,
    note_handler,
    put,
    summary_from_wins,
    unnamed_kind,
    utc_start,
)
from histkit.dialects.sink import UP3
from histkit.dialects.words import MONTHS, partypoker_words
from histkit.model import ActionKind, Game, NoteKind, PotKind, Street, Unit
from histkit.rules.profile import POKERSTARS, RakeSplit, RuleProfile

__all__ = ["PARTYPOKER", "PartyPoker"]

# Party's house rules. Settled by real hands: the open pair on 4th allows the big bet (R
# 11792805420, "double bets [120]" at 60/120 over 2h 2d); rake at most 5% of the pot (R:
# $0.60 of $13.80, $0.40 of $8.85); at least bet and 3 raises heads-up (R 11792805420, 6th
# street: bet, raise, raise, raise, call). No real hand settles the rest: the cap itself
# (bet + 3 raises, heads-up too), bring-in ties by suit (clubs lowest), half-bet all-ins,
# odd chips, ties for first action: PokerStars' rules, the usual online ones; and the rake
# comes from the main pot first (an uncalled bet, left in a pot of its own by a site that
# writes no return line, is not raked).
# showdown order (AGGRESSOR, as PokerStars): the last bettor first in 2 of 2 real showdowns
PARTYPOKER = dataclasses.replace(
    POKERSTARS, name="partypoker", rake_max_percent=5, rake_split=RakeSplit.MAIN_FIRST
)

_GAMES = {"7 CARD STUD": Game.STUD, "7 CARD STUD HI-LO": Game.STUD_HILO, "RAZZ": Game.RAZZ}
_NOTES = frozenset({"OPENS", "TIME_BANK", "NO_RESPONSE"})  # the site's own note lines
_MONTHS = {m.lower(): i for i, m in enumerate(MONTHS, 1)}
_DATE = re.compile(r"[A-Za-z]+, ([A-Za-z]+) (\d{1,2}), (\d{1,2}:\d{2}:\d{2}) ([A-Z]+) (\d{4})")


def _seven(r: LineReader, text: str) -> tuple[Card, ...] | None:
    """A show's seven cards, when every token is a card (else none is placed from it)."""
    got = r.cards(text.replace(",", " "), report=False)
    return cast("tuple[Card, ...]", got) if len(got) == 7 and None not in got else None


def _shown(r: LineReader) -> tuple[str | None, dict[str, tuple[Card, ...]]]:
    """What the text leaves to be worked out from the hand's later lines, read once: the
    hero (whose cards are dealt) and the other players' seven cards, as their shows list
    them."""
    got: tuple[str | None, dict[str, tuple[Card, ...]]] | None = r.scratch.get("shown")
    if got is not None:
        return got
    hero = next((m["player"] for m in r.scan("DEALT")), None)
    shown = {m["player"]: c for m in r.scan("SHOW", "MUCK") if (c := _seven(r, m["cards"]))}
    shown.pop(hero or "", None)
    got = r.scratch["shown"] = (hero, shown)
    return got


def on_header(r: LineReader, m: re.Match[str], line: int) -> None:
    r.sink.amend(hand_id=m["id"])


def on_history(r: LineReader, m: re.Match[str], line: int) -> None:
    hand_id = r.sink.head["hand_id"]
    if m["id"] != hand_id:
        raise HandError(f"the history is of game {m['id']}, the header's {hand_id}", line)


def _head(r: LineReader, m: re.Match[str], line: int, **more: object) -> None:
    date = _DATE.fullmatch(m["date"])
    month = _MONTHS.get(date[1][:3].lower()) if date else None
    if date is None or month is None:
        raise HandError(f"date {m['date']!r} not understood", line)
    when = [(f"{date[5]}/{month}/{date[2]}", date[3], date[4])]
    r.sink.header(
        hand_id=r.sink.head["hand_id"],
        game=r.d.games[m["game"].strip().upper()],
        small_bet=r.money(m["sb"], line),
        big_bet=r.money(m["bb"], line),
        unit=r.unit,
        started_at=utc_start(r.d, when),
        local_time=m["date"],
        **more,  # type: ignore[arg-type]
    )


def on_game(r: LineReader, m: re.Match[str], line: int) -> None:
    """A cash game line: stakes (small/big bet), currency, game, date."""
    sb = m["sb"]
    if m["bb"] is None:
        raise HandError("the game line states no stakes (small bet/big bet)", line)
    r.set_unit(Unit.CENT if r.is_money(sb) else Unit.CHIP)
    cur = m["cur"] or r.d.currency_symbols.get(sb[0])
    _head(r, m, line, currency=cur if r.unit is Unit.CENT else None)


def on_tournament(r: LineReader, m: re.Match[str], line: int) -> None:
    r.set_unit(Unit.CHIP)
    ante = r.money(m["ante"], line) if m["ante"] else None
    more = {"tournament_id": m["tid"], "level": m["level"], "buy_in": m["buyin"]}
    _head(r, m, line, currency=None, ante=ante, **more)


def on_table(r: LineReader, m: re.Match[str], line: int) -> None:
    r.sink.table(m["name"], None)


def on_players(r: LineReader, m: re.Match[str], line: int) -> None:
    r.sink.table(r.sink.table_name, int(m["max"]) if m["max"] else None, line)


def on_seat(r: LineReader, m: re.Match[str], line: int) -> None:
    r.sink.seat(int(m["seat"]), m["player"], r.money(m["amount"], line), False, line)


def street(n: Street) -> Handler:
    """A street's line: a card to everyone in the hand; the hero's has a line of its own,
    the others' are what their shows list in that place, else unknown (module doc)."""
    slot = 0 if n is Street.THIRD else int(n) - 1
    up = UP3 if n is Street.THIRD else ((n is not Street.SEVENTH),)

    def on_street(r: LineReader, m: re.Match[str], line: int) -> None:
        sink = r.sink
        hero, seven = _shown(r)
        card = m["card"] if "card" in m.re.groupindex else None
        community = r.cards(card, line)[0] if card else None
        sink.street_start(n, line, community)
        players = sink.players
        for p in sorted(sink.live(), key=lambda p: players[p].seat):
            shown = seven.get(p)
            if p == hero or community is not None or (shown is None and n is Street.SEVENTH):
                continue
            cards = shown[slot : slot + len(up)] if shown else (None,) * len(up)
            sink.deal(p, cards, up, (), line)

    return on_street


def on_deal(r: LineReader, m: re.Match[str], line: int) -> None:
    """The hero's cards: all three on 3rd street, then each street's new card."""
    sink = r.sink
    sink.set_hero(sink.player(m["player"], line))
    up = UP3 if sink.street is Street.THIRD else ((sink.street is not Street.SEVENTH),)
    sink.deal(m["player"], r.cards(m["cards"], line), up, (), line)


def action(kind: ActionKind | None) -> Handler:
    """An ante, bring-in, completion, bet, call or raise adding X (a raise with nothing in
    front is a bet), all-in when it takes all they had; "is all-In" (kind None) is what it
    does to the current bet (`unnamed_kind`)."""

    def on_action(r: LineReader, m: re.Match[str], line: int) -> None:
        player = r.sink.player(m["player"], line)
        added = r.money(m["amount"], line)
        if kind is None:
            to = r.sink.put_in(player) + added
            put(r, unnamed_kind(r, player, to), player, line, adds=added, all_in=True)
        else:
            said = ActionKind.BET if kind is ActionKind.RAISE and not r.sink.bet else kind
            put(r, said, player, line, adds=added)

    return on_action


def on_show(r: LineReader, m: re.Match[str], line: int) -> None:
    cards = r.known_cards(m["cards"].replace(",", " "), line)
    r.sink.show(m["player"], cards, m["description"].strip() or None, line)


def on_muck(r: LineReader, m: re.Match[str], line: int) -> None:
    """ "doesn't show [..]<words>.": the site shows a loser's cards, who mucks."""
    on_show(r, m, line)
    r.sink.muck(m["player"], False, line)


def on_collect(r: LineReader, m: re.Match[str], line: int) -> None:
    """ "wins X[ from the main pot|side pot #N][ with <words>]", then the summary Party
    does not write, derived from what is won so far (module doc)."""
    player = r.sink.player(m["player"], line)
    pot = r.d.pot_words[m["pot"]] if m["pot"] else PotKind.POT
    index = (int(m["index"]) if m["index"] else 1) if pot is PotKind.SIDE else 0
    r.sink.collect(player, r.money(m["amount"], line), pot, index, line)
    summary_from_wins(r, player, line)


class PartyPoker(Dialect):
    finish_lines = ((re.compile(r"finished in (?P<place>\d+)(?:st|nd|rd|th)? place"), None),)
    name = "partypoker"
    site = "partypoker"
    title = "PartyPoker"
    grammar_file = "partypoker.lark"
    hand_start: ClassVar[tuple[str, ...]] = ("#Game No",)
    # The line before each hand, then a blank line (R); not part of the hand. For the
    # reading layer, which today leaves it as a block of its own (text between hands).
    lead_in: ClassVar[re.Pattern[str]] = re.compile(r"Game #\d+ starts\.")
    profile: ClassVar[RuleProfile] = PARTYPOKER
    writer = "histkit.dialects.partypoker_writer"
    prints_no_low = True  # R 9581478205: "There was no qualifying low hand"
    prints_uncalled = False  # R 10399817763: the unmatched river bet is in what is won
    handlers: ClassVar[Mapping[str, Handler]] = {
        **BASE_HANDLERS,
        "HEADER": on_header,
        "HISTORY": on_history,
        "GAME": on_game,
        "TOURNAMENT": on_tournament,
        "TABLE": on_table,
        "PLAYERS": on_players,
        "SEAT": on_seat,
        **dict.fromkeys(("BUTTON", "TRNY_LEVEL", "TRNY_STAKES"), ignore),  # repeats
        **{f"STREET_{int(s)}": street(s) for s in Street},
        "DEALT": on_deal,
        **{t: action(k) for t, k in (("ANTE", ActionKind.ANTE), ("BRING_IN", ActionKind.BRING_IN))},
        **{t: action(k) for t, k in (("BET", ActionKind.BET), ("DOUBLE_BETS", ActionKind.BET))},
        **{t: action(k) for t, k in (("CALL", ActionKind.CALL), ("RAISE", ActionKind.RAISE))},
        "COMPLETE": action(ActionKind.COMPLETE),
        "ALL_IN": action(None),
        "SHOW": on_show,
        "MUCK": on_muck,
        "NO_SHOW": no_show_alone,  # "does not show cards."
        "COLLECT": on_collect,
        **{t: note_handler(NoteKind.OTHER) for t in ("OPENS", "TIME_BANK")},
        "DISCONNECTED": note_handler(NoteKind.DISCONNECT),
        "CONNECTED": note_handler(NoteKind.CONNECT),
        "NO_RESPONSE": note_handler(NoteKind.TIMED_OUT),
    }
    games: ClassVar[Mapping[str, Game]] = {
        limit + game: kind for limit in ("", "FL ") for game, kind in _GAMES.items()
    }  # a tournament's game line starts with its limit (R: "FL 7 Card Stud")
    currency_symbols: ClassVar[Mapping[str, str]] = {"$": "USD", "€": "EUR", "£": "GBP"}
    time_zones: ClassVar[Mapping[str, str]] = FIXED_ZONES  # the player's zone (R: EDT, EEST)
    pot_words: ClassVar[Mapping[str, PotKind]] = {
        "main pot": PotKind.MAIN,
        "side pot": PotKind.SIDE,
    }
    note_terminals: ClassVar[frozenset[str]] = Dialect.note_terminals | _NOTES

    def game_text(self, m: re.Match[str], block: HandBlock) -> str | None:
        """From the game line (the third, or after notes there); None without one."""
        regex = self.compiled.line_regex
        for text in block.lines[2:8]:
            got = regex["GAME"].match(text + "\n") or regex["TOURNAMENT"].match(text + "\n")
            if got is not None:
                return got["game"].strip()
        return None

    describe = staticmethod(partypoker_words)  # the site's words (histkit/dialects/words.py)
