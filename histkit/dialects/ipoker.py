"""iPoker: XML sessions (`<session>`: a `<general>`, then one `<game>` per hand).

No grammar: `IPoker` is an `XmlDialect`; the reader streams each `<game>` with its session's
`<general>` as context. R marks a form seen in ../shared/hands/ipoker (a 2014 EUR stud hi/lo
cash session, a 2012 $5 stud sit & go, a 2011 five-card stud hand that is skipped); K one
known from FPDB's iPokerToFpdb.py and the format's other files; H histkit's own.

- Session `<general>` (R): `<gametype>` "7 Card Stud Hi-Lo L €0.05/€0.10" (cash: game,
  limit, small/big bet) or "7 Card Stud L" (the sit & go: no stakes); `<tablename>`,
  `<tablecurrency>` (R), `<nickname>` (the hero, R), tournament fields `<tournamentname>`,
  `<buyin>` (R), `<tournamentcode>` (K); `<place>` and `<win>` (R), the hero's finish and
  prize, a FINISHED note in the session's last hand. Games: "7 Card Stud L" and "7 Card
  Stud Hi-Lo L" (R), "7 Card Stud Hi/Lo L", "Razz L" (K); any other ("5 Card Stud L", R;
  hold'em, no-limit stud) is skipped by name. An "Ante X" after the stakes (K) is not read.
- Money (R): "€0.05", "€1" (whole euros, no decimals), "€0"; chips "1,440". The file says
  UTF-8 and writes "€" in cp1252 (the reading layer decodes each line either way). Unit CENT
  when amounts carry a symbol ($ € £), else CHIP; currency from the symbol (the EUR file's
  `<currency>` says USD: it is the account's, not the table's).
- Each `<game gamecode=ID>` (R): `<startdate>` "2014-05-10 18:02:19" (no zone written:
  `started_at` read as UTC, as FPDB does, K; `local_time` the text);
  `<player seat name chips win bet .../>`:
  chips = starting stack, bet = all the player put in, win = all they took, an uncalled bet
  returned included in both (R: 0.05 bet on 4th, nobody calls, win 0.17 = the whole pot).
- `<round no=N>` (R): 0 antes, 1 (blinds) empty, 2..6 = 3rd..7th street, each with
  `<cards type="Third Street|Fourth Street|Fifth Street|Sixth Street|River" player=P>` (R;
  "Seventh Street", K) and `<action no type sum>`. A round with nothing in it is no street.
  Cards (R): suit first, "10" for ten ("CA D5 H10"); "X" a card not seen, "[cards]" (K) all
  unseen; any other token is a garbled (unknown) card. 3rd street: two down then the up card;
  River: one down card. A River `<cards>` without a player is a community card (H: no form
  known). Opponents' down cards are written when they showed them (R).
- Actions are applied in `no` order, not document order (R). Types: 15 ante, 16 bring-in,
  3 call, 5 bet, 7 all-in: sum = the chips the action adds (R); 23 raise: sum = the
  player's street total after it (R: 0.10 bet, 0.20 raise, then "23 sum 0.30" adds 0.20 —
  the players' bet totals and the next hand's stacks agree); 4 check, 0 fold (R); 6 raise by
  sum (K, FPDB's guess); 8 no action (K: a note); 9 sitting out (K: a fold if dealt in, else a
  note); 1, 2 blinds (K: rejected in stud). Derived: the first wager over the bring-in on
  3rd street is a completion (R: "5 sum 60" after a 15 bring-in; an all-in, "7 sum 274", as
  the first chips on 3rd is a short completion, R), later ones raises; an all-in (7) is a
  call when it does not top the bet; a player is all-in when what they put in reaches their
  chips (type 7 always says so; the engine checks it leaves nothing).

Derived, and how the audit sees it:
- Stakes: from the gametype (R cash; K tournament). The sit & go writes none: they come
  from the hand's own wagers (a 3rd-street completion is the small bet, a 5th-7th street bet
  the big bet, a 4th-street bet the small bet when no board shows a pair), the big bet
  being twice the small (R: all ten levels, 15/60/120 .. 300/1000/2000); else from another
  hand of the file at the same level (same ante and bring-in; R: levels only rise). The one
  wager they come from is then not checked. A hand no wager of its level tells is rejected.
- No collect lines: each player's win is a `PotKind.TOTAL` collect (which pot paid what is
  not checked); the uncalled bet stays in the pot (`prints_uncalled` False). No summary
  block: the total pot is what the players' bets add up to, the rake what is left after the
  wins (R: 0.82 in, 0.79 won, rake 0.03); a tournament hand with a "rake" is flagged.
  Known misprint (R, 17 players in 13 hands of the 2012 file, always a player who raised with
  type 23): `bet` exceeds the actions by exactly the player's ante, while `win` and the next
  hand's chips agree with the actions. Those players' bets are taken from the actions and a
  note says so; any other disagreement stays in the total, for the audit to report.
- Shows: an opponent still in whose down cards are written showed them (a Show event: at a
  showdown, or a winner who showed, R 4044860560); at a showdown one whose are not mucked.
  The hero's cards are always written, so no show or muck is made up for the hero. Seat
  results: folded (street), showed (cards written), mucked, collected (won without a
  showdown), other (not dealt in: no ante, card or action: sitting out). Descriptions: none
  are written (`describe` is None).
- Table moves: a tournament hand in which no player but the hero sat in the table's last
  hand is a new table (R 4044922862: five new opponents, the hero 20 chips short, a hand at
  the new table missing); a JOIN note for the hero says so (the session keeps one table name).

The RuleProfile (`IPOKER`), with the real hands behind each choice: the bring-in is the
lowest up card (H8 < H9, H4 < DK), ties by suit clubs < diamonds < hearts < spades (16 sit &
go hands: 4d before 4h, 2d before 2s, 2c before 2h and 2s, 4h before 4s); completion to the
small bet, then raises of it (3rd-street caps reached: completion and three raises, with 5
and 6 dealt in, 4044980553 and 4045005684; never a fifth wager: max_raises 3); an open pair
on 4th allows the big bet (stud, 4045005063: 7d 7h bets 800 at 400/800); best board first
on 4th-7th; short all-in completions and raises (274 into a 300 completion). Not settled by
any real hand: the heads-up cap, whether a short all-in reopens the betting, first-act ties,
razz, the odd chip and hi/lo splits (each hi/lo hand is a scoop), the rake of side pots
(the raked hands have none): PokerStars' choices, the rake taken from the main pot first
(so an uncalled bet left in the pot, the bettor's own side pot, is never raked).
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from functools import partial
from typing import Any, ClassVar

from histkit.cards import Card, parse_card
from histkit.dialects.builder import HandError, LineReader, utc_start
from histkit.dialects.sink import UP3
from histkit.dialects.xmlbase import XmlDialect, read_or_leave_out
from histkit.model import (
    Action,
    ActionKind,
    Game,
    Hand,
    NoteKind,
    PotKind,
    SeatOutcome,
    Street,
    TableNote,
    Unit,
)
from histkit.reading.split import HandBlock, ParseIssue
from histkit.reading.xmlstream import XmlBreak, XmlElement, iter_xml_items
from histkit.rules.profile import RakeSplit, RuleProfile
from histkit.rules.speed import FOURTH as _FOURTH
from histkit.rules.speed import SEVENTH as _SEVENTH
from histkit.rules.speed import THIRD as _TH

__all__ = ["IPOKER", "IPoker"]

# showdown order: the XML lists the players' cards in seat order, whoever showed first (the
# last bettor comes first in 0 of 10 showdowns after a bet): its order says nothing
IPOKER = RuleProfile(name="ipoker", rake_split=RakeSplit.MAIN_FIRST, showdown_order=None)

_GAMETYPE = re.compile(
    r"\s*(?P<game>.+?)(?:\s+(?P<sb>[$€£]?[\d.,]+[$€£]?)\s*/\s*(?P<bb>[$€£]?[\d.,]+[$€£]?))?"
    r"(?:\s+Ante\s+\S+)?\s*$"
)

# K (FPDB): the French skins write a decimal comma and the sign after ("0,05€"); a comma
# before one or two final digits is a decimal comma, before three a thousands separator
_DECIMAL_COMMA = re.compile(r"^([$€£]?\d+),(\d{1,2}[$€£]?)$")


def _money(r: LineReader, text: str, line: int) -> int:
    """An amount as iPoker writes it, the French skins' decimal comma included."""
    return r.money(_DECIMAL_COMMA.sub(r"\1.\2", text), line)


_TOKENS: dict[str, Card | None] = {
    s + r: parse_card(("T" if r == "10" else r) + s.lower())
    for s in "CDHS"
    for r in (*"23456789TJQKA", "10")
}
_TOKENS["X"] = None
_ROUNDS = {2: Street.THIRD, 3: Street.FOURTH, 4: Street.FIFTH, 5: Street.SIXTH, 6: Street.SEVENTH}
_K = ActionKind

Stakes = tuple[int, int]
Level = tuple[int | None, int | None]  # (ante, bring-in) as the hand posted them


@dataclass(slots=True)
class _Read:
    """A hand read but for its stakes, which the file may leave to other hands."""

    r: LineReader
    head: dict[str, Any]
    stakes: Stakes | None
    level: Level
    line: int


class _File:
    """What one file's hands tell about the others: the stakes of each level (ante ->
    bring-in -> stakes) and the players of the last tournament hand (a table move)."""

    def __init__(self) -> None:
        self.levels: dict[int | None, dict[int | None, Stakes]] = {}
        self.last: dict[tuple[str | None, str], tuple[str, set[str]]] = {}  # per table

    def lookup(self, level: Level) -> Stakes | None:
        """The stakes of a level: the same ante, and the same bring-in where both post one."""
        ante, bring = level
        known = self.levels.get(ante)
        if not known:
            return None
        if bring in known:
            return known[bring]
        if bring is None or None in known:
            return known.get(None) or next(reversed(known.values()))
        return None

    def moved(self, r: LineReader, got: _Read) -> None:
        """A tournament hand none of whose players but the hero sat in the last hand: the
        hero was moved to another table (R: 4044922862), which is noted (the table name
        is the session's and stays the same)."""
        sink, hero = r.sink, r.sink.hero
        if got.head["unit"] is not Unit.CHIP or hero is None:
            return
        others = set(sink.players) - {hero}
        key = (got.head["tournament_id"], got.head["table"])
        last = self.last.get(key)
        if last is not None and len(others) > 1 and len(last[1]) > 1 and not others & last[1]:
            text = f"{hero} plays at another table: no other player of hand {last[0]} is here"
            sink.note(NoteKind.JOIN, hero, text, sink.players[hero].line)
        self.last[key] = (got.head["hand_id"], others)


class _Play:
    """What the XML leaves to be worked out beside the chips (which the sink keeps): the
    street's completion, each player's last cards' line, who raised, the antes, and
    whether a 4th-street board may hold a pair."""

    def __init__(self) -> None:
        self.completed = False
        self.last: dict[str, int] = {}  # player -> line of their last cards
        self.raised: set[str] = set()
        self.ante: dict[str, int] = {}
        self.pair_on_4th = False


def _at(el: XmlElement, key: str) -> str:
    """An attribute's text ("" when absent)."""
    return el.attrib.get(key, "")


def _cards(r: LineReader, text: str, n: int, line: int) -> tuple[Card | None, ...]:
    text = text.strip()
    if text == "[cards]":
        return (None,) * n
    out: list[Card | None] = []
    for tok in text.split():
        try:
            out.append(_TOKENS[tok])
        except KeyError:
            r.sink.note(NoteKind.GARBLED, None, f"{tok!r} where a card should be", line)
            out.append(None)
    return tuple(out)


class IPoker(XmlDialect):
    name = "ipoker"
    site = "ipoker"
    title = "iPoker"
    grammar_file = ""
    hand_tags: ClassVar[frozenset[str]] = frozenset({"game"})
    writer = "histkit.dialects.ipoker_writer"
    default_currency = "EUR"
    profile: ClassVar[RuleProfile] = IPOKER
    prints_uncalled = False  # the bettor's win includes it (R)
    prints_no_low = False
    games: ClassVar[Mapping[str, Game]] = {
        "7 CARD STUD L": Game.STUD,  # R
        "7 CARD STUD HI-LO L": Game.STUD_HILO,  # R
        "7 CARD STUD HI/LO L": Game.STUD_HILO,  # K
        "RAZZ L": Game.RAZZ,  # K
        # K (FPDB's patterns): hi/lo also written "HiLow", the limit also spelled out
        "7 CARD STUD HILOW L": Game.STUD_HILO,
        "7 CARD STUD LIMIT": Game.STUD,
        "7 CARD STUD HI-LO LIMIT": Game.STUD_HILO,
        "7 CARD STUD HILOW LIMIT": Game.STUD_HILO,
        "RAZZ LIMIT": Game.RAZZ,
    }
    currency_symbols: ClassVar[Mapping[str, str]] = {"€": "EUR", "$": "USD", "£": "GBP"}
    # no zone is written: UTC assumed, as FPDB reads it (K)
    reference_zone = "UTC"
    time_zones: ClassVar[Mapping[str, str]] = {"UTC": "UTC"}
    # the session header's <place> and <win> (R), made a note of the hero's last hand
    finish_lines = (
        (re.compile(r"^<place>(?P<place>\d+)</place>(?:<win>(?P<prize>[^<]+)</win>)?$"), None),
    )
    hidden_cards: ClassVar[frozenset[str]] = frozenset({"X"})
    street_words: ClassVar[Mapping[str, Street]] = {
        "third street": Street.THIRD,
        "fourth street": Street.FOURTH,
        "fifth street": Street.FIFTH,
        "sixth street": Street.SIXTH,
        "seventh street": Street.SEVENTH,  # K
        "river": Street.SEVENTH,
    }

    # -- what the reader asks ------------------------------------------------------------

    def detect_xml(self, head: str) -> bool:
        return "<session" in head and ("sessioncode=" in head or "<gametype>" in head)

    def hand_id_of(self, elem: XmlElement) -> str | None:
        return elem.get("gamecode")

    def game_text_of(self, elem: XmlElement, context: dict[str, XmlElement]) -> str | None:
        general = context.get("general")
        if general is None:
            return None
        m = _GAMETYPE.match(general.findtext("gametype"))
        return m["game"] if m else None

    def read_hand(self, r: LineReader, elem: XmlElement, context: dict[str, XmlElement]) -> None:
        """One hand, its stakes from the gametype or its own wagers only."""
        got = self._read(r, elem, context)
        if got.stakes is None:
            raise HandError(_untold(got.level), elem.line)
        r.sink.header(**got.head, small_bet=got.stakes[0], big_bet=got.stakes[1])

    def read_xml(self, lines: Iterable[str], source: str) -> Iterator[Hand | ParseIssue]:
        """As `XmlDialect.read_xml`, but a hand whose stakes only a later hand of its level
        tells waits for it (levels only rise: a hand of another level ends the wait); XML
        that breaks off inside a hand rejects that hand by its id, and a file that ends
        with only its session left open (R: the 2011 file) loses no hand."""
        context: dict[str, XmlElement] = {}
        state = _File()
        queue: deque[Hand | ParseIssue | _Read] = deque()
        seen = False
        # the session's finish for the hero (<place>, <win>), kept back with the session's
        # latest hand (by id) until the next hand or the session's end shows it was the last
        finish: TableNote | None = None
        last: str | None = None
        for kind, elem in iter_xml_items(lines, self.hand_tags):
            if isinstance(elem, XmlBreak):
                issue = self.broken(elem, source, seen=seen)
                if issue is not None:
                    seen = True
                    queue.append(issue)
                continue
            if kind == "context":
                if elem.tag == "general":  # a new session: the last one's last hand is known
                    yield from _flush(queue, source, finish, last)
                    finish, last = _session_finish(elem), None
                context[elem.tag] = elem
                continue
            seen = True
            got = self._one(elem, context, source, state)
            if queue and isinstance(got, (_Read, Hand)):
                level = got.level if isinstance(got, _Read) else _level_of(got)
                for i, item in enumerate(queue):
                    if not isinstance(item, _Read):
                        continue
                    known = state.lookup(item.level)
                    if known is not None and _same(item.level, level):
                        queue[i] = _finish(item, known, source)
                    elif not _same(item.level, level):
                        queue[i] = _issue(item, source)
            queue.append(got)
            if finish is not None and isinstance(got, (_Read, Hand)):
                last = got.head["hand_id"] if isinstance(got, _Read) else got.hand_id
            while queue and not isinstance(queue[0], _Read):
                if finish is not None and isinstance(queue[0], Hand) and queue[0].hand_id == last:
                    break  # perhaps the hero's last hand: held until the next one
                yield queue.popleft()  # type: ignore[misc]
        yield from _flush(queue, source, finish, last)
        if not seen:
            yield ParseIssue(
                source, None, None, None, "rejected", "empty file: no hands in it", about_hand=False
            )

    def _one(
        self, elem: XmlElement, context: dict[str, XmlElement], source: str, state: _File
    ) -> Hand | ParseIssue | _Read:
        hand_id = self.hand_id_of(elem)
        game = self.game_text_of(elem, context)
        if game is not None and game.upper() not in self.games:
            return ParseIssue(
                source, elem.line, None, hand_id, "skipped", f"other game: {game}", game=game
            )
        r = LineReader(self, HandBlock(elem.line, []), source)
        try:
            got = self._read(r, elem, context)
        except HandError as e:
            return ParseIssue(source, e.line or elem.line, None, hand_id, "rejected", e.message)
        except (KeyError, ValueError) as e:
            return ParseIssue(
                source, elem.line, None, hand_id, "rejected", f"hand not understood: {e}"
            )
        state.moved(r, got)
        if got.stakes is not None:
            state.levels.setdefault(got.level[0], {})[got.level[1]] = got.stakes
            return _finish(got, got.stakes, source)
        known = state.lookup(got.level)
        return got if known is None else _finish(got, known, source)

    # -- one hand --------------------------------------------------------------------

    def _read(self, r: LineReader, elem: XmlElement, context: dict[str, XmlElement]) -> _Read:
        sink = r.sink
        general = context.get("general")
        if general is None:
            raise HandError("the session's <general> (game, stakes, table) is missing", elem.line)
        m = _GAMETYPE.match(general.findtext("gametype"))
        if m is None:
            raise HandError("the session names no game (<gametype>)", general.line)
        game = self.games[m["game"].upper()]
        g = elem.find("general")
        players = g.find("players") if g is not None else None
        if g is None or players is None or not players.children:
            raise HandError("the hand lists no players", elem.line)
        hand_id = elem.get("gamecode")
        if not hand_id:
            raise HandError("the hand has no gamecode", elem.line)
        money_text = m["sb"] or _at(players.children[0], "chips")
        r.set_unit(Unit.CENT if r.is_money(money_text) else Unit.CHIP)
        tournament = any(general.find(t) is not None for t in ("tournamentcode", "tournamentname"))
        table = general.findtext("tablename")
        tid = None
        if tournament:
            parts = table.split(", ")
            tid = general.findtext("tournamentcode") or (
                parts[1] if len(parts) > 1 and parts[1].isdigit() else None
            )
        currency = None
        if r.unit is Unit.CENT:
            currency = next(
                (c for s, c in self.currency_symbols.items() if s in money_text),
                general.findtext("tablecurrency") or None,
            )
        start = g.findtext("startdate") or general.findtext("startdate") or None
        head: dict[str, Any] = {
            "hand_id": hand_id,
            "game": game,
            "unit": r.unit,
            "currency": currency,
            "started_at": _started(self, start),
            "local_time": start,
            "tournament_id": tid,
            "buy_in": (general.findtext("buyin") or None) if tournament else None,
            "table": table,
        }
        at = general.find("gametype")
        where = at.line if at is not None else general.line  # the line that states them
        stakes = (_money(r, m["sb"], where), _money(r, m["bb"], where)) if m["sb"] else None
        rounds = sorted(elem.findall("round"), key=lambda x: int(_at(x, "no") or "-1"))
        acting = {c.get("player") for rnd in rounds for c in rnd.children}
        rows = []
        for p in players.children:
            name, chips = _at(p, "name"), _money(r, _at(p, "chips"), p.line)
            sink.seat(int(_at(p, "seat")), name, chips, name not in acting, p.line)
            rows.append((p, sink.player(name, p.line)))
        nick = general.findtext("nickname")
        if nick in sink.players:
            sink.set_hero(nick)
        st = _Play()
        for rnd in rounds:
            self._round(r, st, rnd)
        self._results(r, st, rows, elem.line)
        if stakes is None:
            stakes = _stakes_of(sink.events, st.pair_on_4th)
        ante = max(st.ante.values(), default=None)
        bring = next(
            (
                e.amount
                for e in sink.events
                if type(e) is Action and e.kind is _K.BRING_IN and not e.all_in
            ),
            None,
        )
        return _Read(r, head, stakes, (ante, bring), elem.line)

    def _round(self, r: LineReader, st: _Play, rnd: XmlElement) -> None:
        sink = r.sink
        no = int(_at(rnd, "no"))
        street = _ROUNDS.get(no)
        if street is None and no not in (0, 1):
            raise HandError(f"a betting round numbered {no}", rnd.line)
        cards = rnd.findall("cards")
        actions = sorted(rnd.findall("action"), key=lambda a: int(_at(a, "no")))
        if street is None and cards:
            raise HandError("cards dealt before 3rd street", cards[0].line)
        if street is not None and (cards or actions):
            community = None
            for c in cards:
                if not c.get("player"):
                    if street is not _SEVENTH or community is not None:
                        raise HandError("cards without a player", c.line)
                    community = _cards(r, c.text, 1, c.line)[0]
            sink.street_start(street, rnd.line, community)
            st.completed = False
            for c in cards:
                player = c.get("player")
                if not player:
                    continue
                words = _at(c, "type").strip().lower()
                if words and self.street_words.get(words) is not street:
                    raise HandError(f"{c.get('type')!r} cards in round {no}", c.line)
                name = sink.player(player, c.line)
                got = _cards(r, c.text, 3 if street is _TH else 1, c.line)
                up = UP3 if street is _TH else (street is not _SEVENTH,)
                sink.deal(name, got, up, (), c.line)
                mine = sink.dealt(name)
                st.last[name] = c.line
                if street is _FOURTH and len(mine) == 4:
                    c3, c4 = mine[2], mine[3]
                    st.pair_on_4th |= c3 is None or c4 is None or c3.rank == c4.rank
        for a in actions:
            read_or_leave_out(sink, a, partial(self._action, r, st, a, street))

    def _action(self, r: LineReader, st: _Play, a: XmlElement, street: Street | None) -> None:
        sink, line, t = r.sink, a.line, _at(a, "type")
        p = sink.player(_at(a, "player"), line)
        if t == "0" or (t == "9" and p in sink.dealt_to):
            sink.action(_K.FOLD, p, 0, None, False, line)
            return
        if t == "4":
            sink.action(_K.CHECK, p, 0, None, False, line)
            return
        if t in ("8", "9"):
            kind = NoteKind.SIT_OUT if t == "9" else NoteKind.OTHER
            sink.note(
                kind,
                p,
                f"{p}: action type {t} ({'sitting out' if t == '9' else 'no action'})",
                line,
            )
            return
        if t in ("1", "2"):
            raise HandError(f"a blind (action type {t}) in a stud hand", line)
        if t not in ("3", "5", "6", "7", "15", "16", "23"):
            raise HandError(f"unknown action type {t!r}", line)
        amount = _money(r, _at(a, "sum"), line)
        if t == "15":
            st.ante[p] = amount
            sink.action(_K.ANTE, p, amount, None, amount >= sink.left(p), line)
            return
        if street is None:
            raise HandError(f"action type {t} before the cards are dealt", line)
        before, top = sink.put_in(p), sink.bet
        if t == "23":
            to, st.raised = amount, st.raised | {p}
        elif t == "6":
            to = top + amount
        else:
            to = before + amount
        all_in = to - before >= sink.left(p) or t == "7"
        if t == "16":
            sink.action(_K.BRING_IN, p, amount, None, all_in, line)
        elif t == "3" or (t == "7" and to <= top):
            sink.action(_K.CALL, p, to - before, None, all_in, line)
        elif street is _TH and not st.completed:
            st.completed = True
            sink.action(_K.COMPLETE, p, to, to, all_in, line)
        elif top == 0:
            sink.action(_K.BET, p, to - before, None, all_in, line)
        else:
            sink.action(_K.RAISE, p, to - top, to, all_in, line)

    def _results(
        self, r: LineReader, st: _Play, rows: list[tuple[XmlElement, str]], line: int
    ) -> None:
        """Showdown, wins, the pot: what the players' `bet` and `win` say."""
        sink = r.sink
        folded = sink.folded
        live = [p for p in sink.dealt_to if p not in folded]
        showdown = len(live) > 1
        total = won_total = 0
        shown = set()
        for _, p in rows:
            mine = sink.dealt(p)
            if p in live and p != sink.hero:
                if all(c is not None for c in mine):  # written: shown (a winner may show)
                    shown.add(p)
                    sink.show(p, tuple(mine), None, st.last[p])  # type: ignore[arg-type]
                elif showdown:
                    sink.muck(p, False, st.last[p])
        for el, p in rows:
            win_text, bet_text, put = el.get("win"), el.get("bet"), sink.hand_in.get(p, 0)
            won = _money(r, win_text, el.line) if win_text else 0
            bet = _money(r, bet_text, el.line) if bet_text else put
            if bet != put and bet - put == st.ante.get(p) and p in st.raised:
                sink.note(
                    NoteKind.OTHER,
                    p,
                    f"{p}'s bet is written as {bet_text}: the actions put in "
                    f"{put:,} {r.unit.value}s (the ante counted twice, a known misprint)",
                    el.line,
                )
                bet = put
            total += bet
            won_total += won
            if won:
                sink.collect(p, won, PotKind.TOTAL, 0, el.line)
            mine = sink.dealt(p)
            if p in folded:
                outcome, street = SeatOutcome.FOLDED, folded[p]
            elif p in shown or (showdown and p in live and all(c is not None for c in mine)):
                outcome, street = SeatOutcome.SHOWED, None
            elif showdown and p in live:
                outcome, street = SeatOutcome.MUCKED, None
            elif won:
                outcome, street = SeatOutcome.COLLECTED, None
            else:
                outcome, street = SeatOutcome.OTHER, None
            cards = tuple(c for c in mine if c is not None)
            seat = sink.players[p].seat
            cards = cards if outcome is SeatOutcome.SHOWED else ()
            sink.result(seat, p, outcome, won, cards, None, street, False, el.line)
        sink.pot_total(total, total - won_total, None, (), line)


def _stakes_of(events: Iterable[Any], pair_on_4th: bool) -> Stakes | None:
    """Small and big bet from the hand's full wagers (all-ins tell nothing)."""
    small = big = fourth = None
    for e in events:
        if type(e) is not Action or e.all_in:
            continue
        if e.kind is _K.COMPLETE and small is None:
            small = e.to_amount
        elif e.kind is _K.BET and e.street >= Street.FIFTH and big is None:
            big = e.amount
        elif e.kind is _K.BET and e.street is _FOURTH and fourth is None:
            fourth = e.amount
    if small is None and not pair_on_4th:
        small = fourth
    if small is None and big is not None and big % 2 == 0:
        small = big // 2
    if small is None:
        return None
    return small, big if big is not None else 2 * small


def _level_of(hand: Hand) -> Level:
    ante = max((a.amount for a in hand.actions() if a.kind is _K.ANTE), default=None)
    bring = next((a.amount for a in hand.actions() if a.kind is _K.BRING_IN and not a.all_in), None)
    return ante, bring


def _same(a: Level, b: Level) -> bool:
    """Two hands of one level: the same ante, and the same bring-in where both post one."""
    return a[0] == b[0] and (a[1] == b[1] or a[1] is None or b[1] is None)


_START = re.compile(r"(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)$")


def _started(d: IPoker, text: str | None) -> Any:
    """The start in UTC of a `YYYY-MM-DD HH:MM:SS` start time (R; no zone written, UTC
    assumed as FPDB does); None for the other forms, kept as text only."""
    m = _START.match(text.strip()) if text else None
    return utc_start(d, [(m[1], m[2], d.reference_zone)]) if m else None


def _session_finish(general: XmlElement) -> TableNote | None:
    """The hero's finish the session header writes (<place>, and <win> the prize, R), as
    a note in the site's own words; None when it writes no place (a cash session, or
    "N/A", K) or names no hero."""
    place, hero = general.find("place"), general.findtext("nickname")
    if place is None or not place.text.strip().isdigit() or not hero:
        return None
    text = f"<place>{place.text.strip()}</place>"
    win = (general.findtext("win") or "").strip()
    if win:
        text += f"<win>{win}</win>"
    return TableNote(NoteKind.FINISHED, hero, text, place.line)


def _flush(
    queue: deque[Hand | ParseIssue | _Read], source: str, finish: TableNote | None, last: str | None
) -> Iterator[Hand | ParseIssue]:
    """Everything queued, in order, the session's finish noted in its last hand (`last`)
    when the hero sat in it: the hand in which the file says where he finished."""
    while queue:
        item = _issue(queue.popleft(), source)
        if (
            finish is not None
            and isinstance(item, Hand)
            and item.hand_id == last
            and any(s.player == finish.player for s in item.seats)
        ):
            item = replace(item, events=(*item.events, finish))
        yield item


def _untold(level: Level) -> str:
    return (
        f"the stakes are not written and no hand of this level (ante {level[0]}, bring-in "
        f"{level[1]}) shows a full bet"
    )


def _finish(got: _Read, stakes: Stakes, source: str) -> Hand | ParseIssue:
    got.r.sink.header(**got.head, small_bet=stakes[0], big_bet=stakes[1])
    try:
        return got.r.sink.build()
    except HandError as e:
        return ParseIssue(
            source, e.line or got.line, None, got.head["hand_id"], "rejected", e.message
        )


def _issue(item: Hand | ParseIssue | _Read, source: str) -> Hand | ParseIssue:
    if not isinstance(item, _Read):
        return item
    return ParseIssue(
        source, item.line, None, item.head["hand_id"], "rejected", _untold(item.level)
    )
