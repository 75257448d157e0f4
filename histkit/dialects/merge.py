"""Merge Gaming Network (Carbon, Lock, ...): XML hand histories (site "merge").

Forms marked R are in the real files (/work/shared/hands/merge/); K forms come from what is
known of the format (FPDB's MergeToFpdb) and no real stud file shows them.

The file: top-level elements one after the other with no root and no declaration (R, in
.txt and .xml files alike): a `<description type=.. stakes=..>` (R), then one `<game>` per
hand (R). Each top-level element is read on its own, so a hand that is not well-formed XML
loses only itself. What the elements say:
- the game: `<description type>` ("7-Stud", "7-Stud H/L8" R; "Razz" K; " Tournament" after
  it in tournaments, R) with the limit words of `stakes` ("Limit" R; "No Limit" R: skipped;
  "Fixed Limit", "Pot Limit" K). A mix ("HORSE Tournament", R) names each hand's leg by its
  `multigametype` code (R: 23 hold'em, 37 omaha hi/lo, 41 stud, 45 stud hi/lo, 49 razz; K,
  FPDB: 38, 39, 41, 42 stud, 43, 45 stud hi/lo, 46, 47, 49 razz; 40, 44, 48 by their range):
  other legs are skipped by name, and an unknown code is skipped as "game code N". The game
  read is "<limit> <leg>".
- `<game id="T-N">` (R): the hand id as written; N the table's hand number (`table_hand`).
  `starttime` "YYYYMMDDhhmmss" (R) is in a fixed UTC-5 (R: the events' epoch `timestamp`s
  sit five hours later in February, April, June, July and September alike).
  `data="date|name|ref|id|tournament"` (R): cash: the table name and its id; tournament
  (last field "true", R): the tournament's name and id; its table is T. `seats` (R, 2013)
  is the table size. Money is "$0.05" or "0.05" (R): cents for cash; chips in tournaments
  (R: `realmoney="true"` even in a freeroll, balances "$1000.00") and play money
  (`realmoney="false"`, K).
- stakes: cash "Limit $0.50/$1" (R). A tournament writes "Limit" only (R), so its bets
  come from the play: the small bet from a full completion or 3rd/4th-street bet or raise
  increment, the big bet from a full 5th-7th-street one, each giving the other (R: every
  level seen has big = 2 x small; 36487050-15: a razz 4th-street bet of 50; -16: a stud
  5th-street bet of 200). Where two readings fit, one is kept only for want of a plain one
  (a wager after a short all-in completion; a stud 4th-street bet after an open pair,
  which is the double bet when it is 20 x the ante). A hand with none takes the figures
  read earlier in the file at the same tournament, game, ante and bring-in, else 10 x the
  ante (the structure of all three stud levels of the real freeroll): an assumption the
  model forces (it has no "unknown" bet size).
- `<player seat nickname balance dealtin>` (R): seats as written (0-7). `dealtin="false"`
  (R) is a seat sitting out. `balance` is the stack before the hand in cash games (R: round
  buy-ins "$10.00", "$5.00", "$7.00") but after the antes in tournaments (R: a freeroll's
  1000 chips read 990/980 after the blinds; a player with "$0.00" posts a 5 ante and wins
  the 40 main pot), so there the antes are added back.
- `<round id=BLINDS>` antes (R); `BRING_IN` (R) then `THIRD_STREET` .. `SEVENTH_STREET` (R)
  hold each street's `<event>`s, then its `<cards>`: DRAW_DRAWN_CARDS (R) / HOLE (R, the
  hero's, which marks the hero) list a player's cards so far, "null" (R) or "" (R, 2013) for
  a card not seen; a shorter list than the street deals is a repeat (R: a folded hero's) and
  no deal; COMMUNITY (K in stud) is the 7th-street card for all. Cards are reported before
  the street's actions, as dealt.
- events: ANTE, BRING_IN, CALL, ALL_IN (R) give the chips the action adds; BET, COMPLETE,
  RAISE (R) the street total after it (R: 36487050-13, "RAISE 100" by a player with 15 in,
  called with 85); before 2010-09-08 (the written start time, K: FPDB's "new format" date) a
  RAISE gives what it adds, the call and the raise together (FPDB: addCallandRaise). A BET
  in the BRING_IN round is the bring-in player's completion (R: 36487050-24); ALL_IN (R:
  36487050-16, -18, -19) is a call, bet, completion or raise by what it does to the street's
  bet. A player is all-in when what they put in reaches their stack. CHECK, FOLD (R); CHAT
  (R, names the player by nickname, not seat), PLAYER_OUT (R: finished), SIT_OUT (K) are
  notes; an unknown event is a note, or rejects the hand when it moves chips.
- SHOW/MUCK events and SHOWN/MUCKED cards (R), in a SHOWDOWN round (R) or, after an all-in,
  in the betting round (R: 36487050-18, on 3rd street): shows are reported after the last
  street, with the cards the later rounds list for that player (R: the 3rd-street show's
  down cards reappear in the 4th-7th lists). A MUCK by the one player left (R) is a
  declined show; mucked cards (R) are the player's summary line.
- `<winner amount potnumber pottype player [hand] uncalled>` (R): pot 1 is the main pot,
  2.. the side pots (only pot: "the pot"); pottype "h"/"l" the high/low half (R), "n" the
  whole pot (R, also a hi/lo pot without a low); `hand` the site's words (R), kept as the
  show's description. `uncalled="true"` (R: 36487050-16) is an uncalled bet returned,
  reported when its street's betting ends. Merge writes no other uncalled line
  (`prints_uncalled = False`): when all fold to a bet, the bettor's winnings include it
  (R: 40263637-116), and a bet only an all-in player faced is a pot of its own (R:
  36487050-19).
- Not written, derived: the total pot (what the actions put in, less the uncalled bet);
  the rake, cash only: the total less what the winners got (so an underpayment cannot be
  told from rake; R: $3.65 -> $3.47); main and side pots as each pot's winners got them;
  each dealt-in seat's summary line from its fold, show, muck and winnings. No "no low"
  line exists (R). Descriptions are not checked (`describe` None: the words are known for
  few hands, and a hi/lo `hand` names only the half won).

House rules (`MERGE`), settled by real hands: bring-in by the lowest up card, ties by suit
clubs < diamonds < hearts < spades (R: 36487050-22, 2d brings in under 2h), razz by the
highest, ace low (R: 36487050-13, Jc over Ah; -15, Ts over Tc); a short all-in raise of at
least half a bet reopens the betting (R: 36487050-16, all-in 185 over a 200 bet, re-raised).
Not settled by any real hand: the raise cap and heads-up (bet + 3 raises, as PokerStars),
the open-pair double bet, odd chips (every real split is even), first-to-act ties, the
all-in bring-in, the community card and the rake split: PokerStars' choices.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Iterator, Mapping
from functools import partial
from itertools import chain
from typing import ClassVar

from histkit.cards import Card
from histkit.dialects.base import ParseIssue
from histkit.dialects.builder import HandError, LineReader, utc_start
from histkit.dialects.sink import UP3
from histkit.dialects.words import MERGE_RAISE_TO_FROM
from histkit.dialects.xmlbase import XmlDialect, read_or_leave_out
from histkit.model import ActionKind, Game, Half, Hand, NoteKind, PotKind, SeatOutcome, Street, Unit
from histkit.reading.xmlstream import MAX_ELEMENT, XmlElement, XmlError, iter_xml
from histkit.rules.profile import POKERSTARS, RuleProfile

__all__ = ["LEG_CODES", "MERGE", "Merge"]

# showdown order (AGGRESSOR, as PokerStars): the last bettor first in 6 of 6 real showdowns
MERGE: RuleProfile = dataclasses.replace(POKERSTARS, name="merge")

# `multigametype` (and `gametype`) codes -> the leg as `<description type>` names it
LEG_CODES: Mapping[str, str] = {
    "23": "Holdem",  # R
    "37": "Omaha H/L8",  # R
    **dict.fromkeys(("38", "39", "40", "41", "42"), "7-Stud"),  # R 39, 41; K 38, 42 (FPDB)
    **dict.fromkeys(("43", "44", "45"), "7-Stud H/L8"),  # R 43, 45
    **dict.fromkeys(("46", "47", "48", "49"), "Razz"),  # R 49
}
A = ActionKind
S = Street
_STREETS: Mapping[str, Street] = {
    "BRING_IN": S.THIRD,
    "THIRD_STREET": S.THIRD,
    "FOURTH_STREET": S.FOURTH,
    "FIFTH_STREET": S.FIFTH,
    "SIXTH_STREET": S.SIXTH,
    "SEVENTH_STREET": S.SEVENTH,
}
_ENDS = frozenset({"SHOWDOWN", "END_OF_FOLDED_GAME", "END_OF_GAME"})
_ADDS = frozenset({"ANTE", "BRING_IN", "CALL", "ALL_IN"})  # amount: the chips it adds
_TO = frozenset({"BET", "COMPLETE", "RAISE"})  # amount: the street total after it
_PLAY = _ADDS | _TO | {"CHECK", "FOLD"}
_NOTES: Mapping[str, NoteKind] = {"PLAYER_OUT": NoteKind.FINISHED, "SIT_OUT": NoteKind.SIT_OUT}
_HALVES: Mapping[str, Half | None] = {"h": Half.HIGH, "l": Half.LOW, "n": None}
_DETECT = re.compile(r'<description\s+type="[^"]*"\s+stakes="|<game\s+id="[^"]*"\s+starttime="')
_TOP = ("<game ", "<game>", "<description ")
_GAME_ID = re.compile(r'<game\s+id="([^"]*)"')
# "<limit>[ Level <n> Blinds][ [(]<small>/<big>...]": the level of a tournament (K)
_STAKES = re.compile(r"\s*([A-Za-z ]*?)\s*(?:Level \d+ Blinds\s*)?(?:\(?\$?([\d.]+)/\$?([\d.]+)|$)")
_HAND_NO = re.compile(r"(\d+)-(\d+)")


# limit words before amounts (a dollar sign, or a number and a slash) that `_STAKES` does not read
_LIMIT_WORDS = re.compile(r"\s*([A-Za-z ]*?)\s*(?:Level \d+ Blinds\s*)?(?=\(?\$|[\d.]+/)")


def _stakes(desc: XmlElement) -> tuple[str, str | None, str | None]:
    """`stakes` -> (limit words, small bet, big bet): "Limit $0.50/$1", "Limit" (R),
    "Limit Level 3 Blinds" (K). Amounts in another form ("$1e5/$0.50", "$0.25/") after
    limit words leave the words alone (`unread_stakes` rejects the hand); other stakes
    ("Limit 12 x", or amounts without limit words) stay whole, so the hand's game is
    not one histkit knows and it is skipped, never misread."""
    text = desc.get("stakes") or ""
    m = _STAKES.match(text)
    if m is None:
        words = _LIMIT_WORDS.match(text)
        return (words[1], None, None) if words is not None and words[1] else (text, None, None)
    return m[1], m[2], m[3]


def unread_stakes(desc: XmlElement) -> str | None:
    """Why a hand's stakes are not read, when they are not: limit words, then amounts
    that are not "$<small>/$<big>" (a damaged or forged file; the bets are never guessed
    from the play then)."""
    text = desc.get("stakes") or ""
    if _STAKES.match(text) is None and _stakes(desc)[0] != text:
        return f"stakes {text!r} not read: amounts are written '$<small bet>/$<big bet>'"
    return None


class _Play:
    """One hand's elements read in order and reported to the sink (which keeps the chips),
    with the cards and bet sizes the reading needs to know."""

    def __init__(self, d: Merge, r: LineReader, game: Game, words: dict[str, str]) -> None:
        self.d, self.r, self.sink, self.game, self.words = d, r, r.sink, game, words
        self.seat: dict[str, str] = {}  # seat as written -> name
        self.wagers = 0  # bets, completions and raises on this street
        self.short: tuple[int, int] | None = None  # a 3rd-street all-in wager: under, to
        self.street: Street | None = None
        self.dealt: dict[str, tuple[Card | None, ...]] = {}
        self.shown: dict[str, tuple[Card | None, ...]] = {}
        self.mucked: dict[str, tuple[Card | None, ...]] = {}
        self.showed: set[str] = set()
        self.mucks: set[str] = set()
        self.raise_adds = False  # the 2008-2010 era: a RAISE gives what it adds
        self.small: int | None = None  # the bet sizes the play shows
        self.big: int | None = None
        self.weak: int | None = None  # a small bet that only fits the play (see `size`)
        self.ante = self.bring_in = 0
        self.open_pair = False  # on 4th street (stud high: its bet may be the big one)

    def name(self, seat: str | None, line: int) -> str:
        got = self.seat.get(seat or "")
        if got is None:
            raise HandError(f"no player sits at seat {seat}", line)
        return got

    def money(self, elem: XmlElement) -> int:
        return self.r.money(elem.get("amount") or "", elem.line)

    def cards(self, elem: XmlElement) -> tuple[Card | None, ...]:
        """ "null,null,7s" / ",,7s" -> (None, None, 7s); a garbled token is None too."""
        hidden = self.d.hidden_cards
        toks = (t.strip() for t in (elem.get("cards") or "").split(","))
        return tuple(None if t in hidden else self.r.cards(t, elem.line)[0] for t in toks)

    # -- the rounds ----------------------------------------------------------------------

    def street_start(self, rnd: XmlElement) -> None:
        street = _STREETS[rnd.get("id") or ""]
        if street is self.street:
            return
        if self.street is not None and street < self.street:
            raise HandError(f"round {rnd.get('id')} after a later street", rnd.line)
        community = [self.cards(c)[0] for c in rnd.findall("cards") if c.get("type") == "COMMUNITY"]
        self.sink.street_start(street, rnd.line, community[0] if community else None)
        self.street, self.wagers = street, 0
        self.short = None

    def deal(self, c: XmlElement) -> None:
        """A player's cards so far: the street's new card (3rd street: all three)."""
        kind, line = c.get("type"), c.line
        if kind not in ("DRAW_DRAWN_CARDS", "HOLE"):
            if kind not in ("COMMUNITY", "SHOWN", "MUCKED"):
                raise HandError(f"unknown cards type {kind!r}", line)
            return
        player, cards = self.name(c.get("player"), line), self.cards(c)
        if kind == "HOLE":
            self.sink.set_hero(player)
        street = self.street or S.THIRD
        had = self.dealt.get(player, ())
        if player in self.sink.folded or len(cards) < street or had == cards:
            return  # a repeat of a folded player's cards, or of the list just read
        if len(cards) > street or len(had) == street:
            raise HandError(f"{len(cards)} cards for {player} on street {int(street)}", line)
        self.dealt[player] = cards
        if street is S.THIRD:
            self.sink.deal(player, cards, UP3, (), line)
            return
        self.sink.deal(player, cards[-1:], (street is not S.SEVENTH,), cards[:-1], line)
        if street is S.FOURTH and cards[2] is not None and cards[3] is not None:
            self.open_pair |= cards[2].rank == cards[3].rank

    def event(self, ev: XmlElement) -> None:
        kind, line = ev.get("type") or "", ev.line
        if kind in _ADDS or kind in _TO:
            if kind != "ANTE" and self.street is None:
                raise HandError(f"{kind} before the cards are dealt", line)
            self.wager(kind, ev)
        elif kind in ("CHECK", "FOLD"):
            player = self.name(ev.get("player"), line)
            self.sink.action(A.CHECK if kind == "CHECK" else A.FOLD, player, 0, None, False, line)
        elif kind == "CHAT":  # the player by nickname (R)
            self.sink.note(NoteKind.CHAT, ev.get("player"), ev.get("text") or "", line)
        elif kind in _NOTES:
            player = self.name(ev.get("player"), line)
            self.sink.note(_NOTES[kind], player, f"{player}: {kind}", line)
        elif ev.get("amount") is not None:
            raise HandError(f"unknown event {kind!r} with an amount", line)
        else:
            self.sink.note(NoteKind.OTHER, self.seat.get(ev.get("player") or ""), kind, line)

    def wager(self, kind: str, ev: XmlElement) -> None:
        """Antes, bring-ins, calls and all-ins give what they add; bets, completions and
        raises the street total after them."""
        line = ev.line
        sink = self.sink
        player, amount = self.name(ev.get("player"), line), self.money(ev)
        before, top = sink.put_in(player), sink.bet
        adds = kind in _ADDS or (kind == "RAISE" and self.raise_adds)
        added = amount if adds else amount - before
        if added < 0:
            raise HandError(f"{kind} to {ev.get('amount')} by {player}, who has more in", line)
        all_in = kind == "ALL_IN" or added >= sink.left(player)
        act = sink.action
        if kind == "ANTE":
            self.ante = max(self.ante, added)  # (a short one may be all-in)
            act(A.ANTE, player, added, None, all_in, line)
            return
        to = before + added
        third = self.street is S.THIRD
        if kind == "BRING_IN" or (kind == "ALL_IN" and third and not top):
            self.bring_in = self.bring_in or added
            act(A.BRING_IN, player, added, None, all_in, line)
        elif kind == "CALL" or (kind == "ALL_IN" and to <= top):
            act(A.CALL, player, added, None, all_in, line)
        else:
            if third and not self.wagers:  # the completion (the bring-in player's: a BET)
                act(A.COMPLETE, player, to - top, to, all_in, line)
            elif top:
                act(A.RAISE, player, to - top, to, all_in, line)
            else:
                act(A.BET, player, to, None, all_in, line)
            if to > top:  # one that does not top the bet is the site's mistake, read as
                self.size(to, top, all_in)  # written (the audit names its size)
                self.wagers += 1

    def size(self, to: int, top: int, all_in: bool) -> None:
        """The street's bet size, from a wager that shows it: a full bet or completion, or
        a full raise (over a short all-in bet: a full bet over it). Two readings fit, and
        the one kept (`weak`) counts only for want of a plain one: on 3rd street after a
        short all-in completion, the next wager raises over it if that counted as a full
        completion (half-bet rule), else it is the completion; in stud high after an open
        pair on 4th, a bet of 20 x the ante is the double bet, any other the small one."""
        street = self.street
        if all_in:
            if street is S.THIRD and self.short is None:
                self.short = (top, to)  # the bet under it, and its total
        elif street is S.THIRD and self.short is not None:
            under, short = self.short
            over = to - short
            full = short <= over and 2 * (short - under) >= over - under
            self.weak = self.weak or (over if full else to)
        elif street is S.FOURTH and self.open_pair and self.game is Game.STUD:
            bet = to - top if self.wagers else to  # small or double: 10 x the ante decides
            self.weak = self.weak or (bet // 2 if bet == 20 * self.ante else bet)
        elif street is S.THIRD or street is S.FOURTH:
            self.small = self.small or (to - top if self.wagers else to)
        else:
            self.big = self.big or (to - top if self.wagers else to)

    def show_or_muck(self, ev: XmlElement) -> None:
        player = self.name(ev.get("player"), ev.line)
        if ev.get("type") == "SHOW":
            self.showed.add(player)
            self.sink.show(player, self.show_cards(player), self.words.get(player), ev.line)
            return
        others = [p for p in self.dealt if p != player and p not in self.sink.folded]
        if others:
            self.mucks.add(player)
        self.sink.muck(player, not others, ev.line)  # the one player left: declined

    def show_cards(self, player: str) -> tuple[Card, ...]:
        """The SHOWN cards; a show before the last street (after an all-in) is completed
        with the cards the later rounds list for the player."""
        shown, dealt = self.shown.get(player, ()), self.dealt.get(player, ())
        cards = [d if s is None else s for s, d in zip(shown, dealt, strict=False)]
        cards += dealt[len(shown) :] if len(dealt) > len(shown) else shown[len(dealt) :]
        return tuple(c for c in cards if c is not None)

    def collect(self, w: XmlElement, pots: list[int]) -> None:
        player, amount = self.name(w.get("player"), w.line), self.money(w)
        n = int(w.get("potnumber") or 1)
        kind = PotKind.POT if len(pots) == 1 else PotKind.MAIN if n == 1 else PotKind.SIDE
        half = _HALVES.get(w.get("pottype") or "n")
        index = pots.index(n) if kind is PotKind.SIDE else 0
        self.sink.collect(player, amount, kind, index, w.line, half)

    def read(self, rounds: list[XmlElement], winners: list[XmlElement]) -> XmlElement:
        """Every round in order; the uncalled bet right after the last chips put in, shows
        made during a betting round after the last street. The end round, which must be."""
        uncalled = [w for w in winners if w.get("uncalled") == "true"]
        pots = sorted({int(w.get("potnumber") or 1) for w in winners if w not in uncalled})
        # an uncalled bet goes back when its street's betting ends
        acts = [(_STREETS[rnd.get("id") or ""], e) for rnd in rounds if rnd.get("id") in _STREETS
                for e in rnd.findall("event") if e.get("type") in _PLAY]  # fmt: skip
        wagered = [s for s, e in acts if e.get("type") != "CHECK" and e.get("type") != "FOLD"]
        anchor = [e for s, e in acts if wagered and s is wagered[-1]][-1:]
        later: list[XmlElement] = []
        end: XmlElement | None = None
        for rnd in rounds:
            rid = rnd.get("id") or ""
            if rid == "BLINDS":
                for ev in rnd.findall("event"):
                    if ev.get("type") not in ("ANTE", "CHAT"):
                        raise HandError(f"a {ev.get('type')} in a stud hand", ev.line)
                    self.event(ev)
            elif rid in _STREETS:
                if end is not None:
                    raise HandError(f"round {rid} after the showdown", rnd.line)
                self.street_start(rnd)
                for c in rnd.findall("cards"):
                    self.deal(c)
                for ev in rnd.findall("event"):
                    if ev.get("type") in ("SHOW", "MUCK"):
                        later.append(ev)
                        continue
                    read_or_leave_out(self.sink, ev, partial(self.event, ev))
                    if anchor and ev is anchor[0]:
                        for w in uncalled:
                            self.sink.uncalled(
                                self.name(w.get("player"), w.line), self.money(w), w.line
                            )
            elif rid in _ENDS:
                end = end or rnd
                for x in [*later, *rnd.children]:
                    if x.tag == "event" and x.get("type") in ("SHOW", "MUCK"):
                        self.show_or_muck(x)
                    elif x.tag == "event":
                        read_or_leave_out(self.sink, x, partial(self.event, x))
                    elif x.tag == "winner" and x not in uncalled:
                        self.collect(x, pots)
                later = []
            else:
                raise HandError(f"unknown round {rid!r}", rnd.line)
        if end is None or not winners:
            last = rounds[-1] if rounds else None
            raise HandError(
                "the hand ends before its pot is won (truncated?)", last.line if last else None
            )
        total = sum(self.sink.hand_in.values())  # the returns taken off
        paid = sum(self.sink.won().values())
        rake = 0 if self.r.unit is Unit.CHIP else max(0, total - paid)
        by_pot = [sum(self.money(w) for w in winners if w not in uncalled
                      and int(w.get("potnumber") or 1) == n) for n in pots]  # fmt: skip
        main = by_pot[0] if len(pots) > 1 else None
        self.sink.pot_total(total, rake, main, tuple(by_pot[1:]), end.line)
        return end

    def results(self, players: XmlElement, line: int) -> None:
        """Each dealt-in seat's line of a summary Merge does not write, from the play."""
        collected, folded = self.sink.won(), self.sink.folded
        for el in players.findall("player"):
            if el.get("dealtin") != "true":
                continue
            no, p = int(el.get("seat") or 0), self.seat[el.get("seat") or ""]
            won, words = collected.get(p, 0), None
            cards: tuple[Card, ...] = ()
            street = None
            if p in self.showed:
                outcome, cards, words = SeatOutcome.SHOWED, self.show_cards(p), self.words.get(p)
            elif p in folded:
                outcome, street = SeatOutcome.FOLDED, folded[p]
            elif p in self.mucks:
                outcome = SeatOutcome.MUCKED
                cards = tuple(c for c in self.mucked.get(p, ()) if c is not None)
            else:
                outcome = SeatOutcome.COLLECTED if won else SeatOutcome.OTHER
            self.sink.result(no, p, outcome, won, cards, words, street, False, line)


class Merge(XmlDialect):
    name = "merge"
    site = "merge"
    title = "Merge Gaming Network"
    grammar_file = ""
    hand_tags: ClassVar[frozenset[str]] = frozenset({"game"})
    games: ClassVar[Mapping[str, Game]] = {
        "LIMIT 7-STUD": Game.STUD,  # R
        "LIMIT 7-STUD H/L8": Game.STUD_HILO,  # R
        "LIMIT RAZZ": Game.RAZZ,  # R (a HORSE leg)
        "FIXED LIMIT 7-STUD": Game.STUD,  # K, and below
        "FIXED LIMIT 7-STUD H/L8": Game.STUD_HILO,
        "FIXED LIMIT RAZZ": Game.RAZZ,
    }
    currency_symbols: ClassVar[Mapping[str, str]] = {"$": "USD"}
    symbol_marks_cash = False  # tournament chips are written "$1000.00" too (R)
    hidden_cards: ClassVar[frozenset[str]] = frozenset({"null", ""})
    time_zones: ClassVar[Mapping[str, str]] = {"EST": "Etc/GMT+5"}
    reference_zone = "EST"
    profile: ClassVar[RuleProfile] = MERGE
    writer = "histkit.dialects.merge_writer"
    prints_uncalled = False

    def detect_xml(self, head: str) -> bool:
        return _DETECT.search(head) is not None

    def hand_id_of(self, elem: XmlElement) -> str | None:
        return elem.get("id")

    def game_text_of(self, elem: XmlElement, context: dict[str, XmlElement]) -> str | None:
        """ "<limit> <leg>": "Limit 7-Stud H/L8", "No Limit 7-Stud H/L8", "Limit Holdem"."""
        desc = context.get("description")
        if desc is None:
            return None
        code = elem.get("multigametype")
        if code is not None:
            leg = LEG_CODES.get(code, f"game code {code}")
        else:
            leg = desc.get("type") or LEG_CODES.get(elem.get("gametype") or "", "")
        return f"{_stakes(desc)[0]} {leg.removesuffix(' Tournament')}".strip()

    def read_hand(self, r: LineReader, elem: XmlElement, context: dict[str, XmlElement]) -> None:
        text = self.game_text_of(elem, context)
        desc = context.get("description")
        if text is None or desc is None:
            raise HandError("no <description> before the hand: its game is unknown", elem.line)
        if (why := unread_stakes(desc)) is not None:
            raise HandError(why, desc.line)
        game, sink, hand_id = self.games[text.upper()], r.sink, elem.get("id") or ""
        data = (elem.get("data") or "").split("|")
        tournament = len(data) > 4 and data[4] == "true"
        r.set_unit(Unit.CHIP if tournament or elem.get("realmoney") == "false" else Unit.CENT)
        rounds, players = elem.findall("round"), elem.find("players")
        if players is None:
            raise HandError("the hand has no <players>", elem.line)
        winners = [w for rnd in rounds for w in rnd.findall("winner")]
        words: dict[str, str] = {}  # the site's words for each winner's hand
        play = _Play(self, r, game, words)
        start = elem.get("starttime") or ""
        play.raise_adds = len(start) == 14 and start < MERGE_RAISE_TO_FROM
        added: dict[str, int] = {}  # a tournament balance is after the antes (R)
        for ev in (e for rnd in rounds if rnd.get("id") == "BLINDS" for e in rnd.children):
            if tournament and ev.get("type") == "ANTE":
                seat = ev.get("player") or ""
                added[seat] = added.get(seat, 0) + play.money(ev)
        for el in players.findall("player"):
            seat, name = el.get("seat") or "", el.get("nickname") or ""
            stack = r.money(el.get("balance") or "", el.line) + added.get(seat, 0)
            sink.seat(int(seat), name, stack, el.get("dealtin") != "true", el.line)
            play.seat[seat] = name
        for c in (c for rnd in rounds for c in rnd.findall("cards")):
            if c.get("type") in ("SHOWN", "MUCKED"):
                player = play.name(c.get("player"), c.line)
                (play.shown if c.get("type") == "SHOWN" else play.mucked)[player] = play.cards(c)
        for w in winners:
            player, said = play.name(w.get("player"), w.line), w.get("hand")
            if said and said not in words.get(player, "").split("; "):
                words[player] = f"{words[player]}; {said}" if player in words else said
        end = play.read(rounds, winners)
        play.results(players, end.line)
        _, small, big = _stakes(desc)
        if small is not None and big is not None:
            bets = r.money(small, desc.line), r.money(big, desc.line)
        else:
            bets = self._bets(play, f"{data[2] if tournament else ''}|{text}", context)
        day, clock = (
            f"{start[:4]}/{start[4:6]}/{start[6:8]}",
            f"{start[8:10]}:{start[10:12]}:{start[12:]}",
        )
        number = _HAND_NO.fullmatch(hand_id)
        sink.header(
            hand_id=hand_id,
            game=game,
            small_bet=bets[0],
            big_bet=bets[1],
            unit=r.unit,
            currency="USD" if r.unit is Unit.CENT else None,
            started_at=utc_start(self, [(day, clock, "EST")]) if len(start) == 14 else None,
            local_time=start or None,
            tournament_id=data[2] if tournament else None,
            mix=(desc.get("type") or "").removesuffix(" Tournament")
            if "multigametype" in elem.attrib
            else None,
            table=number[1] if tournament and number else data[1] if len(data) > 1 else "",
            max_seats=int(elem.get("seats") or 0) or None,
            table_hand=int(number[2]) if number else None,
        )

    @staticmethod
    def _bets(play: _Play, where: str, context: dict[str, XmlElement]) -> tuple[int, int]:
        """Bet sizes no `stakes` states: from the play, else as earlier in the file at the
        same tournament, game, ante and bring-in, else 10 x the ante (see the docstring)."""
        known = context.setdefault("merge-bets", XmlElement("merge-bets", {}, 0)).attrib
        key = f"{where}|{play.ante}|{play.bring_in}"
        small = play.small or (play.big // 2 if play.big else None) or play.weak
        if small is None:
            if key in known:
                s, b = known[key].split("/")
                return int(s), int(b)
            small = 10 * play.ante or 2 * play.bring_in
            return small, 2 * small
        big = play.big or 2 * small
        known[key] = f"{small}/{big}"
        return small, big

    def read_xml(self, lines: Iterable[str], source: str) -> Iterator[Hand | ParseIssue]:
        """Merge writes its elements with no root (R): each top-level element is read on
        its own, so a hand that is not well-formed is rejected alone; a file with a root
        is streamed whole, as any XML site's."""
        it = iter(lines)
        head: list[str] = []
        for line in it:
            head.append(line)
            text = line.lstrip("\ufeff \t")
            if text and not text.startswith("<?xml"):
                break
        if not head or not head[-1].lstrip("\ufeff \t").startswith(_TOP):
            yield from super().read_xml(chain(head, it), source)
            return
        context: dict[str, XmlElement] = {}
        chunk: list[str] = []
        first, seen = 1, False
        size, big = 0, 0  # the element's characters; the line where it grew too big
        for no, line in _line_parts(chain(head, it)):
            if line.lstrip().startswith(_TOP) and any(x.strip() for x in chunk):
                for item in self._element(chunk, first, context, source, big):
                    seen = True
                    yield item
                chunk, first, size, big = [], no, 0, 0
            size += len(line) + 1
            if big:
                continue  # not kept: the element is rejected from its first line
            if size > MAX_ELEMENT:
                big = no
                del chunk[1:]
                continue
            chunk.append(line)
        for item in self._element(chunk, first, context, source, big):
            seen = True
            yield item
        if not seen:
            yield ParseIssue(
                source, None, None, None, "rejected", "empty file: no hands in it", about_hand=False
            )

    def _element(
        self, chunk: list[str], first: int, context: dict[str, XmlElement], source: str, big: int
    ) -> Iterator[Hand | ParseIssue]:
        """One top-level element (and the blank lines after it), at file line `first`;
        `big`: the line where it grew past `MAX_ELEMENT` (then only its first line is
        kept, to name it)."""
        hand = chunk[0].lstrip().startswith(_TOP[:2])  # a hand's element (its id or not)
        if big:
            m = _GAME_ID.search(chunk[0])
            what = "hand not read" if m else "XML element not read"
            why = f"{what}: more than {MAX_ELEMENT // 1024:,} KB of XML in one element (line {big})"
            yield ParseIssue(
                source, first, None, m[1] if m else None, "rejected", why, about_hand=hand
            )
            return
        read = False  # the hand was read: what breaks after it is no hand's
        try:
            for kind, elem in iter_xml(chunk, self.hand_tags):
                _shift(elem, first - 1)
                if kind == "context":
                    context[elem.tag] = elem
                else:
                    read = True
                    yield self._hand(elem, context, source)
        except XmlError as e:
            m = None if read else _GAME_ID.search(chunk[0])
            hand = hand and not read
            end = len(chunk) - next(i for i, x in enumerate(reversed(chunk)) if x.strip())
            note = " (the hand's last line: truncated?)" if e.line >= end and not read else ""
            line = first - 1 + min(e.line, end)
            yield ParseIssue(
                source, line, None, m[1] if m else None, "rejected", f"{e}{note}", about_hand=hand
            )


_TOP_INSIDE = re.compile(r"<(?:game[\s>]|description\s)")


def _line_parts(lines: Iterable[str]) -> Iterator[tuple[int, str]]:
    """(file line, text) for each line, cut before each top-level element that starts
    inside it (a truncated line joined to the next hand's: the hand after a broken one is
    read, not taken into it)."""
    for no, line in enumerate(lines, 1):
        at = len(line) - len(line.lstrip())
        while (m := _TOP_INSIDE.search(line, at + 1)) is not None:
            yield no, line[: m.start()]
            line, at = line[m.start() :], 0
        yield no, line


def _shift(elem: XmlElement, by: int) -> None:
    """File lines for an element read from a piece of the file (a loop, not a recursion:
    any depth the reader keeps)."""
    todo = [elem]
    while todo:
        e = todo.pop()
        e.line += by
        todo.extend(e.children)
