"""Bovada / Bodog / Ignition (site "bovada"), over `grammars/bovada.lark`.

Each line form is marked in the grammar: R seen in ../shared/hands/bovada (2012-05 Bodog
cash stud, 2012-06 Bovada stud MTT, 2014-04 Bovada stud hi/lo cash), K known of the format
(FPDB's BovadaToFpdb, the site's hold'em files); Ignition and Bodog write the same text (K).
What the text leaves out, and how it is derived (nothing is made up):
- players are anonymous: each is its seat as written ("Seat+3"); " [ME]" marks the hero
  (R). Every player's cards are written (R), the hero's included.
- stakes are never written (R; a tournament's "Level 1 (0/0)" are blinds, none in stud).
  Full (not all-in) wagers give them (`betting.stakes_shown`: the completion, a bet or a
  raise's increment is its street's bet, "Double bets" the big one on 4th; e.g. all-in 181
  over a 90 bring-in, then "Raises 300": a 300 small bet); one gives the other at 1:2,
  Bovada's fixed-limit structure (R: $0.05/$0.10, $5/$10, 10/20 .. 150/300 at nine MTT
  levels). A hand with no full wager (all fold to the bring-in, or check, or go all-in)
  takes the small bet as twice the bring-in (R at nine MTT levels and the 2014 table; the
  2012 cash table's is 2.5 times), raised as far as its all-ins need, and a note says so:
  nothing else is checked against it. The ante and the bring-in are no header facts.
- unit: chips in a tournament; cents in cash, "$" read as USD (K for Bodog UK/Canada); a
  cash hand written without "$" is read as play money, in chips (assumed). No time zone is
  written: US Eastern is assumed (as FPDB does).
- streets: the 2012 text has "*** HOLE CARDS ***" and no later street line (R): a street
  starts with its first card (a card to a player already dealt one on this street). 3rd
  street is [down down up] (R: the bring-in always has the lowest third card), 7th down.
- amounts: what the action adds, but the 2012 "Raises X" and "All-in(raise) X" give the
  street total, and "Raises X to Y" adds X to reach Y, checked (the grammar's R lines). "All-in
  X" is a call unless it tops the bet (R: "All-in 245" short of 400). An ante or bring-in
  that takes the whole stack is all-in (no all-in form of them is known). An action
  "(timeout)" (R) is the action and a TIMED_OUT note.
- "Showdown [..]" lists the best five (hi/lo: high five, low five; R): the show is every
  card dealt, in dealt order. "Mucks [..]" is a muck, "Does not show [..]" (R: the
  uncontested winner, whose cards are still listed) a declined show.
- "Hand result X" pays the pot, or the main pot beside a "Hand result-Side pot" line (R:
  one side pot). Two or more unnumbered side-pot lines cannot be told apart (a split pot
  and two pots read alike): all the hand's collects are then `PotKind.TOTAL`. Hi/lo
  halves are named only in the summary ("HI $73.50", "LO $73.50", R).
- "Total Pot(X)" is before rake (R: $0.59 put in, "| Rake ($0.02)", $0.57 won); the 2014
  text writes no rake (R: "Total Pot($150)", $147 won); no text lists the pots (both
  derived: `pot_line(from_wins=True)`).
- the summary's showed line lists the dealt cards without the Ace of clubs (R, all three
  times it was dealt: 2604291699, 2633119264, 2633132391); when that is all it lacks, the
  cards are those dealt.
Descriptions are checked in the site's words (`words.bovada_describe`).
Razz: the site deals none (K); "RAZZ Fixed Limit" is histkit's own word, for its writer.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from typing import ClassVar

from histkit.cards import parse_card
from histkit.dialects.base import STREET_WORDS, Dialect, HandBlock
from histkit.dialects.builder import (
    BASE_HANDLERS,
    HandError,
    Handler,
    LineReader,
    adds_handler,
    note_handler,
    pot_line,
    put,
    street_handler,
    street_total,
    utc_start,
)
from histkit.dialects.sink import UP3
from histkit.dialects.words import bovada_describe
from histkit.model import ActionKind, Game, NoteKind, PotKind, SeatOutcome, Street, Unit
from histkit.rules import betting
from histkit.rules.profile import POKERSTARS, RuleProfile, ShowdownOrder

__all__ = ["BOVADA", "Bovada"]

# House rules the real hands show: bring-in by the lowest up card, ties by suit clubs <
# diamonds < hearts < spades (2633125650: 6c under 6d; 2633118046: 3d under 3h; 2633123815:
# 5h under 5s); the best board first on 4th-7th; bet and three raises, multiway (2633132391:
# 100, 200, 400, 600, 800 on 3rd; 200 .. 800 on 4th, then calls); the open pair allows the
# big bet on 4th (2633116884 "Double bets 20"); the rake at most 5% (R: $0.02 of $0.47 and
# of $0.59, $3 of $150; K: the site's published 5%). No real hand settles the heads-up cap,
# short all-in reopening, the all-in bring-in or odd chips: PokerStars' rules there.
# showdown order (the real hands): the last bettor shows first in 6 of 6 showdowns after a bet
# on the last street, the best board showing in 6 of 6 without one (the first seat in 2)
BOVADA: RuleProfile = dataclasses.replace(
    POKERSTARS, name="bovada", rake_max_percent=5, showdown_order=ShowdownOrder.BEST_BOARD
)

_A = ActionKind
_ACE_CLUBS = parse_card("Ac")
_NO_WAGER = "no stakes written, no full bet made: the small bet is derived from the bring-in"
_WORDS = {"7CARD": Game.STUD, "RAZZ": Game.RAZZ} | dict.fromkeys(
    ("7CARD HILO", "7CARD_HILO", "7CARD_HL"), Game.STUD_HILO
)  # the game words (see Bovada.games)
# the site's own note lines: a deposit, a bounty (a tournament prize, no pot), the dealer
# line (the bring-in's seat: the cards settle it)
_NOTES = frozenset({"DEPOSIT", "BOUNTY", "BUTTON"})
_HEADS_UP = " 1 on 1 "  # K (FPDB 2012-10): a two-seat table, written between game and limit


def on_header(r: LineReader, m: re.Match[str], line: int) -> None:
    lines = r.block.lines
    cash = m["tid"] is None and len(lines) > 1 and "$" in lines[1]
    r.set_unit(Unit.CENT if cash else Unit.CHIP)
    r.sink.header(
        hand_id=m["id"],
        game=r.d.games[(r.d.game_text(m, r.block) or "").upper()],
        small_bet=0,  # settled at the summary, from the bets (`_stakes`)
        big_bet=0,
        unit=r.unit,
        currency="USD" if cash else None,
        started_at=utc_start(r.d, [(m["d1"], m["t1"], r.d.reference_zone)]),
        local_time=m["date"],
        tournament_id=m["tid"],
        level=m["level"],
        table=m["table"] or m["ttable"],
        max_seats=2 if _HEADS_UP in (m["game"] or "") else None,  # K: "7CARD 1 on 1 ..."
    )


def on_seat(r: LineReader, m: re.Match[str], line: int) -> None:
    name = f"Seat+{m['seat']}"
    r.sink.seat(int(m["seat"]), name, r.money(m["amount"], line), False, line)
    if m["me"]:
        r.sink.set_hero(name)


def on_deal(r: LineReader, m: re.Match[str], line: int) -> None:
    """A street's cards; a card to a player dealt one on this street starts the next."""
    sink = r.sink
    player = sink.player(m["player"], line)
    if sink.dealt_now(player):
        if sink.street is Street.SEVENTH:
            raise HandError(f"{player} is dealt a card after 7th street", line)
        sink.street_start(Street(sink.street + 1), line)
    up = UP3 if sink.street is Street.THIRD else (sink.street is not Street.SEVENTH,)
    sink.deal(player, r.cards(m["cards"], line), up, (), line)


def _put(*, total: bool, all_in: bool = False, big: bool = False) -> Handler:
    """ "Bets X", "All-in X" (X added; `total` False), "Raises X", "All-in(raise) X" (X the
    street total), "Raises X to Y" (X added to reach Y, checked): a wager to a street total,
    a bet with nothing in front, else a raise; an all-in that does not top the bet is a
    call. What the others say of the stakes is kept for the summary (`_stakes`), but a
    raise on 4th over an open pair (stud), which may raise by either bet."""

    def on_put(r: LineReader, m: re.Match[str], line: int) -> None:
        sink = r.sink
        player, to = street_total(r, m, line, total=total)
        top = sink.bet
        if not (all_in and to <= top or sink.street is Street.FOURTH and top and sink.open_pair()):
            r.scratch.setdefault("wagers", []).append((sink.street, top, to, all_in, big))
        kind = _A.CALL if all_in and to <= top else _A.RAISE if top else _A.BET
        put(r, kind, player, line, to=to, all_in=all_in)

    return on_put


def on_call(r: LineReader, m: re.Match[str], line: int) -> None:
    r.sink.action(_A.CALL, m["player"], r.money(m["amount"], line), None, False, line)


def _timed(handler: Handler) -> Handler:
    """An action "(timeout)": the action, then a TIMED_OUT note with the line. An action
    line that repeats the line before it is the client's mistake (K: FPDB 2014-08, which
    drops it), refused (`LineReader.refuse_repeat`)."""

    def on_timed(r: LineReader, m: re.Match[str], line: int) -> None:
        r.refuse_repeat(m, line)
        handler(r, m, line)
        if m["timeout"]:
            r.sink.note(NoteKind.TIMED_OUT, m["player"], m[0].rstrip(), line)

    return on_timed


def on_show(r: LineReader, m: re.Match[str], line: int) -> None:
    """Every card dealt, then any written card neither dealt nor the community card (for
    the audit to see)."""
    sink = r.sink
    player = sink.player(m["player"], line)
    known = [c for c in sink.dealt(player) if c is not None]
    seen = (*known, *sink.community())
    extra = [c for c in dict.fromkeys(r.known_cards(m["cards"], line)) if c not in seen]
    sink.show(player, (*known, *extra), m["description"], line)


def on_collect(r: LineReader, m: re.Match[str], line: int) -> None:
    sides = r.scratch.get("sides")
    if sides is None:
        sides = r.scratch["sides"] = [x for x in r.scan("COLLECT") if x["side"]]
    kind, index = PotKind.MAIN if sides else PotKind.POT, 0
    if len(sides) > 1 and not all(x["index"] for x in sides):
        kind = PotKind.TOTAL
    elif m["side"]:
        kind, index = PotKind.SIDE, int(m["index"] or 1)
    r.sink.collect(m["player"], r.money(m["amount"], line), kind, index, line)


def _stakes(r: LineReader, line: int) -> dict[str, int]:
    """The full wagers' sizes (`betting.stakes_shown`); with none, the smallest small bet
    that is twice the bring-in and leaves every all-in within the limit (a note says so)."""
    small, big, bound = betting.stakes_shown(r.scratch.get("wagers", ()), BOVADA.short_all_in)
    if small is None and big is None:
        small = max(2 * (r.sink.brought_in() or 0), bound)
        r.sink.note(NoteKind.OTHER, None, _NO_WAGER, line)
    if small is None:
        small = (big or 0) // 2
    return {"small_bet": small, "big_bet": big if big is not None else 2 * small}


_POT = pot_line(from_wins=True)  # no pots listed, nor (2014) the rake


def on_total_pot(r: LineReader, m: re.Match[str], line: int) -> None:
    """`Total Pot(X)[ | Rake (R)]`, X before rake (module doc); the stakes settled here."""
    r.sink.amend(**_stakes(r, line))
    _POT(r, m, line)


def _result(outcome: SeatOutcome) -> Handler:
    """A summary seat line; a showed line's dealt list lacks the Ace of clubs (R)."""

    def on_result(r: LineReader, m: re.Match[str], line: int) -> None:
        seat, sink, fields = int(m["seat"]), r.sink, m.re.groupindex
        player = sink.player(f"Seat+{seat}", line)
        won = sum(r.money(m[k], line) for k in ("won", "lo") if k in fields and m[k])
        cards = r.known_cards(m["cards"], line) if "cards" in fields and m["cards"] else ()
        dealt = sink.dealt(player)
        if outcome is SeatOutcome.SHOWED and [c for c in dealt if c != _ACE_CLUBS] == [*cards]:
            cards = tuple(c for c in dealt if c is not None)
        street = r.street_of(m["street"], line) if "street" in fields else None
        words = m["description"] if "description" in fields else None
        sink.result(seat, player, outcome, won, cards, words or None, street, False, line)

    return on_result


class Bovada(Dialect):
    name = "bovada"
    site = "bovada"
    title = "Bovada / Bodog / Ignition"
    grammar_file = "bovada.lark"
    hand_start: ClassVar[tuple[str, ...]] = ("Bovada Hand #", "Bodog", "Ignition Hand #")
    profile: ClassVar[RuleProfile] = BOVADA
    writer = "histkit.dialects.bovada_writer"
    # the grammar's game words, RAZZ histkit's own; the limit "Fixed Limit" (R) or an older
    # tournament's "Normal" (K, FPDB 2013-01: no limit written, and stud is fixed limit)
    games: ClassVar[Mapping[str, Game]] = {
        f"{w} {limit}": g for w, g in _WORDS.items() for limit in ("FIXED LIMIT", "NORMAL")
    }
    currency_symbols: ClassVar[Mapping[str, str]] = {"$": "USD"}
    hidden_cards: ClassVar[frozenset[str]] = frozenset({"X"})  # histkit's writer's token
    reference_zone = "ET"  # assumed: no zone is written
    time_zones: ClassVar[Mapping[str, str]] = {"ET": "America/New_York"}
    street_words: ClassVar[Mapping[str, Street]] = {**STREET_WORDS, "river": Street.SEVENTH}
    handlers: ClassVar[Mapping[str, Handler]] = {
        **BASE_HANDLERS,
        "HEADER": on_header,
        "SEAT": on_seat,
        "HOLE_CARDS": street_handler(Street.THIRD),
        **{f"STREET_{s.value}": street_handler(s) for s in Street},
        "DEALT": on_deal,
        "ANTE": adds_handler(_A.ANTE),  # all-in when it takes the stack (no all-in form known)
        "SHOW": on_show,
        "COLLECT": on_collect,
        "TOTAL_POT": on_total_pot,
        "RESULT_FOLDED": _result(SeatOutcome.FOLDED),
        "RESULT_SHOWED": _result(SeatOutcome.SHOWED),
        "RESULT_MUCKED": _result(SeatOutcome.MUCKED),
        "RESULT_COLLECTED": _result(SeatOutcome.COLLECTED),
        **dict.fromkeys(_NOTES, note_handler(NoteKind.OTHER)),
        **{
            name: _timed(handler)
            for name, handler in (
                ("BRING_IN", adds_handler(_A.BRING_IN)),
                ("BET", _put(total=False)),
                ("DOUBLE_BET_AMOUNT", _put(total=False, big=True)),
                ("CALL", on_call),
                ("RAISE", _put(total=True)),
                ("ALL_IN", _put(total=False, all_in=True)),
                ("ALL_IN_RAISE", _put(total=True, all_in=True)),
                ("CHECK", BASE_HANDLERS["CHECK"]),
                ("FOLD", BASE_HANDLERS["FOLD"]),
            )
        },
    }
    note_terminals: ClassVar[frozenset[str]] = Dialect.note_terminals | _NOTES

    def game_text(self, m: re.Match[str], block: HandBlock) -> str | None:
        """The game with its limit ("7CARD HiLo Fixed Limit")."""
        if m["tgame"] is not None:
            return f"{m['tgame'].strip()} {m['tlimit'].strip()}".strip()
        return str(m["game"] or m["zgame"]).replace(_HEADS_UP, " ").strip()

    describe = staticmethod(bovada_describe)  # the site's words (histkit/dialects/words.py)
