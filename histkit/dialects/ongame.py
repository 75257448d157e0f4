"""OnGame Network (the 2010 "R5-" client), over `grammars/ongame.lark` (site "ongame").

Forms (R: in the real files, ../shared/hands/ongame: four 2010-09 stud hands and one
2010-08 stud hi/lo hand, cash in USD; K: known of the client's other files and FPDB's
OnGameToFpdb reader, not seen in stud; H: histkit's own form where none is known). Each
terminal in the grammar is marked the same way. R: the header with the id "R5-<table
id>-<n>", "Start hand: Mon Sep 13 22:31:30 GMT+0100 2010", the table line with game words,
stakes, ante and "Real money", "User:", "Players in round:", seats, "posts ante", "---" and
"Dealing pocket cards" / "Dealing 4th street" .. "Dealing river", deals "[-, -, Kh]", "small
bring in", "bets", "calls", "raises $1 to $1.37", "checks", "folds", "Summary:", "Main pot:
$2.35 won by Hero ($2.24)", "Rake taken:", seat lines "($5.76), net: -$0.77[, [cards]
(TWO_PAIR JACK, NINE)]", "***** End of hand ... *****". K: tournament headers, "[SPEED]"
tables, "Play money", "Button: seat N", "big bring in", split pots "won by A ($x), B ($y)",
"Side pot N:", "and is all-in", euro and pound signs, a zone word for the offset
("CEST 2010"), "Players in round: 3 (10)" (the table's size), a tournament header
without name and buy-in, "New hand for P: [..]", the halves "($0.84 High)", "P sits out";
other games (hold'em, omaha, draw) are skipped by their table line. H: "Dealing river
[6h]" for a community card.

What the text leaves out, and how it is derived (never invented):
- amounts say what an action adds (R: every call; the completion "bets $0.10" over a $0.05
  bring-in). "raises X to Y": Y is the raiser's total in the hand without the ante (R:
  $0.12 bring-in + $0.25 + $1.00 = "to $1.37"); the street total is Y less what they put
  in on earlier streets, and X must be what the raise adds (or that street total; the one
  real raise is the first chips of the street, where both agree). Else the hand is rejected.
- all-in: written "and is all-in" (K) or not; a player whose chips reach 0 is all-in.
- no uncalled-bet line (prints_uncalled False): when the summary's pots add up to less than
  was put in by exactly the bet nobody matched, that bet was returned: an UncalledBet is
  placed where its street ended (an all-in call short on 4th street: before 5th street),
  with the pots' line number. Any other gap rejects the hand.
- no show, muck or collect lines: the pot lines are the collects (main pot, side pot N;
  "Main pot" of a hand with no side pot is the only pot; a half only where the site writes
  "High" or "Low"), the pot before rake is added up for the total pot and each pot's winnings
  for its amount after rake. A seat line with cards is the show (its words are the seat
  result's description, so they are checked once); a player still in at a showdown whose
  line shows no cards mucked (R: 2010-09 #607, the caller of the river bet); a winner with
  no showdown collected; a folder folded on the street of the fold.
- each seat line's final stack and net must be the seat's stack plus what it won less what
  it put in: a mismatch rejects the hand, so a misread action cannot pass unseen.
- the hero is "User:" when seated. "Players in round" and "Button" are read and not kept
  (but for a table's size after the count, "(10)").
  The hand id's last part is the table's hand number (`table_hand`). The start is in UTC
  from the written offset from GMT.

Profile (`ONGAME`): PokerStars' rules where no real hand settles otherwise. Settled: the
bring-in by the lowest up card, ace high (4h, 2h, 5c, 3s; hi/lo: Hero's 4d under As);
completion to the small bet (#609); first to act on 4th-7th the best board (#607: AdQs
over Ac7h, then AQ6 over AJ7); a raise to one bet over the bet (hi/lo 5th street); the
rake at most 5% (every hand: 5% of the pot rounded down). No real hand settles the raise
cap, the open-pair double bet (#609: Hero's open kings bet the small bet, legal either way;
no "pair on board" line is printed), suit ties, short all-ins, side pots and the rake split,
odd chips, hi/lo halves, or the community card.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from datetime import UTC, datetime, timedelta, timezone
from typing import ClassVar

from histkit.cards import Card
from histkit.dialects.base import Dialect, HandBlock
from histkit.dialects.builder import BASE_HANDLERS, HandError, Handler, LineReader, ignore, put
from histkit.dialects.sink import UP3
from histkit.dialects.words import MONTHS, ongame_high
from histkit.evaluate._tables import HandCategory
from histkit.evaluate.names import low8_name
from histkit.model import ActionKind, Game, Half, PotKind, SeatOutcome, Street, Unit
from histkit.rules.profile import POKERSTARS, RuleProfile

__all__ = ["ONGAME", "OnGame"]

# showdown order: the site writes no show lines (a shown hand is a summary seat line, in seat
# order): its order says nothing of who showed first, not checked
ONGAME: RuleProfile = dataclasses.replace(
    POKERSTARS, name="ongame", rake_max_percent=5, showdown_order=None
)

_A = ActionKind
_SEEN_WORDS = (HandCategory.TWO_PAIR, HandCategory.THREE_OF_A_KIND, HandCategory.FULL_HOUSE)
_WINNER = re.compile(r" \(([$€£]?\d[\d,]*(?:\.\d+)?)(?: (High|Low))?\)(?:, |$)")
_HALF = {"High": Half.HIGH, "Low": Half.LOW}
# zone words for the offset from GMT (K: FPDB 2011-08, "named zones (CET/CEST/EEST)")
_ZONE_WORDS = {"GMT": "+0000", "UTC": "+0000", "CET": "+0100", "CEST": "+0200", "EET": "+0200",
               "EEST": "+0300"}  # fmt: skip


def on_header(r: LineReader, m: re.Match[str], line: int) -> None:
    r.sink.amend(hand_id=m["id"], tournament_id=m["tid"], buy_in=m["buyin"])


def on_start(r: LineReader, m: re.Match[str], line: int) -> None:
    mon = MONTHS.index(m["mon"]) + 1 if m["mon"] in MONTHS else 0
    if not mon:
        raise HandError(f"unknown month {m['mon']!r}", line)
    off = _ZONE_WORDS.get(m["zone"]) if m["zone"] else (m["off"] or "+0000").replace(":", "")
    if off is None:
        raise HandError(f"unknown time zone {m['zone']!r}", line)
    zone = timezone(
        (-1 if off[0] == "-" else 1) * timedelta(hours=int(off[1:3]), minutes=int(off[3:]))
    )
    hh, mi, ss = map(int, m["clock"].split(":"))
    local = datetime(int(m["year"]), mon, int(m["day"]), hh, mi, ss, tzinfo=zone)
    r.sink.amend(started_at=local.astimezone(UTC), local_time=m["date"])


def on_table(r: LineReader, m: re.Match[str], line: int) -> None:
    sink = r.sink
    game = r.d.games.get(m["game"].upper())
    if game is None:
        raise HandError(f"not a stud game: {m['game']!r}", line)
    sb = m["sb"]
    r.set_unit(Unit.CENT if r.is_money(sb) else Unit.CHIP)
    head = sink.head
    parts = head["hand_id"].split("-")
    sink.header(
        hand_id=head["hand_id"],
        game=game,
        small_bet=r.money(sb, line),
        big_bet=r.money(m["bb"], line),
        unit=r.unit,
        currency=r.d.currency_symbols[sb[0]] if r.unit is Unit.CENT else None,
        started_at=head.get("started_at"),
        local_time=head.get("local_time"),
        tournament_id=head["tournament_id"],
        buy_in=head["buy_in"],
        ante=r.money(m["ante"], line) if m["ante"] else None,
        table=m["name"],
        table_hand=int(parts[-1]) if len(parts) == 3 and parts[-1].isdigit() else None,
    )


def on_user(r: LineReader, m: re.Match[str], line: int) -> None:
    r.sink.set_hero(m["player"])  # unless not seated (3rd street's line says)


def on_seat(r: LineReader, m: re.Match[str], line: int) -> None:
    r.sink.seat(int(m["seat"]), m["player"], r.money(m["amount"], line), False, line)


def _put(r: LineReader, kind: ActionKind, m: re.Match[str], line: int, to: int | None) -> None:
    """An action that puts chips in: `to` the street total it reaches (None: the line's
    amount is what it adds); all-in when the line says so or it takes the last chip."""
    sink = r.sink
    p = sink.player(m["player"], line)
    add = r.money(m["amount"], line) if to is None else to - sink.put_in(p)
    all_in = m["allin"] is not None or (add > 0 and sink.left(p) <= add)
    put(r, kind, p, line, adds=add, all_in=all_in, increment=add if kind is _A.COMPLETE else None)


def _adds(kind: ActionKind) -> Handler:
    return lambda r, m, line: _put(r, kind, m, line, None)


def on_big_bring_in(r: LineReader, m: re.Match[str], line: int) -> None:
    """The bring-in player opens for the full small bet: a completion."""
    to = r.sink.put_in(r.sink.player(m["player"], line)) + r.money(m["amount"], line)
    _put(r, _A.COMPLETE, m, line, to)


def on_raise(r: LineReader, m: re.Match[str], line: int) -> None:
    """ "raises X to Y": Y the total without antes; X what the raise adds (or the street total)."""
    sink = r.sink
    p = sink.player(m["player"], line)
    before = sink.put_in(p)
    to = r.money(m["to"], line) - sink.earlier(p)
    x = r.money(m["amount"], line)
    if to <= before or x not in (to - before, to):
        raise HandError(
            f"'raises {m['amount']} to {m['to']}' does not fit {p}'s {m['to']} in the hand so far",
            line,
        )
    _put(r, _A.RAISE, m, line, to)


def street_handler(street: Street) -> Handler:
    def on_street(r: LineReader, m: re.Match[str], line: int) -> None:
        sink = r.sink
        if street is Street.THIRD and sink.hero not in sink.players:
            sink.hero = None
        card = m["card"] if "card" in m.re.groupindex and m["card"] else None
        community = r.cards(card, line)[0] if card else None
        sink.street_start(street, line, community)
        if community is not None:
            sink.board_cards((community,))

    return on_street


def on_deal(r: LineReader, m: re.Match[str], line: int) -> None:
    sink = r.sink
    p = sink.player(m["player"], line)
    cards = r.cards(m["cards"].replace(",", " "), line)
    if sink.street is Street.THIRD:
        if len(cards) == 1:
            cards = (None, None, cards[0])
        sink.deal(p, cards, UP3, (), line)
    else:
        sink.deal(p, cards, (sink.street is not Street.SEVENTH,) * len(cards), (), line)


def on_pot(r: LineReader, m: re.Match[str], line: int) -> None:
    """A pot line waits for the rake (`_pots`)."""
    r.scratch.setdefault("pots", []).append((m, line))


def on_players(r: LineReader, m: re.Match[str], line: int) -> None:
    """The count is not kept (the seats say it); "(10)" after it is the table's size."""
    if m["max"]:
        r.sink.table(r.sink.table_name, int(m["max"]), line)


def _winners(r: LineReader, text: str, line: int) -> list[tuple[str, int, Half | None]]:
    """ "A ($1.37), B ($1.36 Low)" -> [(A, 137, None), (B, 136, LOW)]; names are matched
    to the seats (a name may itself hold ", " or " (...)")."""
    names = r.sink.names
    ends = list(_WINNER.finditer(text))

    def split(start: int, k: int) -> list[tuple[str, int, Half | None]] | None:
        if start == len(text):
            return []
        for j in range(k, len(ends)):
            e = ends[j]
            if text[start : e.start()] in names:
                rest = split(e.end(), j + 1)
                if rest is not None:
                    won = r.money(e.group(1), line)
                    return [(text[start : e.start()], won, _HALF.get(e.group(2))), *rest]
        return None

    got = split(0, 0)
    if not got:
        raise HandError(f"pot winners not seated at this table: {text!r}", line)
    return got


def _pots(r: LineReader, rake: int) -> None:
    """The pot lines are read once the rake is known: collects, the total, any bet returned."""
    sink = r.sink
    if sink.pot is not None:
        return
    pots: list[tuple[re.Match[str], int]] = r.scratch["pots"]
    sides = any(m["which"] != "Main pot" for m, _ in pots)
    gross = sum(r.money(m["amount"], line) for m, line in pots)
    first = pots[0][1]
    gap = sum(sink.hand_in.values()) - gross
    ended = sink.ended
    # the pots hold less than was put in by exactly the bet nobody called: it was returned
    # (the site writes no line for it); any other difference is the site's, read as
    # written for the audit to name (POT_TOTAL)
    if gap and ended is not None and ended[1] == gap:
        sink.uncalled(ended[0], ended[1], first, at=ended[3])
    nets: list[int] = []
    n_side = 0
    for m, line in pots:
        if m["which"] == "Main pot":
            kind, index = (PotKind.MAIN if sides else PotKind.POT), 0
        else:
            n_side += 1
            kind, index = PotKind.SIDE, int(m["index"]) if m["index"] else n_side
        net = 0
        for p, amount, half in _winners(r, m["winners"], line):
            sink.collect(p, amount, kind, index, line, half)
            net += amount
        nets.append(net)
    main = nets[0] if sides else None
    sink.pot_total(gross, rake, main, tuple(nets[1:]) if sides else (), first)


def on_rake(r: LineReader, m: re.Match[str], line: int) -> None:
    _pots(r, r.money(m["amount"], line))


def on_result(r: LineReader, m: re.Match[str], line: int) -> None:
    _pots(r, 0)
    sink = r.sink
    p = sink.player(m["player"], line)
    net_text = m["net"]
    net = r.money(net_text.lstrip("+-"), line) * (-1 if net_text.startswith("-") else 1)
    won = sink.won().get(p, 0)
    put_in = sink.hand_in.get(p, 0)
    start = sink.players[p].stack
    if r.money(m["final"], line) != start + net or net != won - put_in:
        raise HandError(
            f"the summary says {p} ends with {m['final']} (net {net_text}), but {p} started "
            f"with {start} and the hand's lines put in {put_in} and pay {won} (in "
            f"{r.unit.value}s)",
            line,
        )
    cards: tuple[Card, ...] = ()
    if m["cards"]:
        cards = r.known_cards(m["cards"].replace(",", " "), line)
    folded = sink.folded
    live = [q for q in sink.dealt_to if q not in folded]
    description = m["description"]
    if p in folded:
        outcome, street = SeatOutcome.FOLDED, folded[p]
    elif p not in sink.dealt_to:
        outcome, street = SeatOutcome.OTHER, None
    elif cards:
        outcome, street = SeatOutcome.SHOWED, None
        sink.show(p, cards, None, line)  # the words stay on the seat line (checked once)
    elif won and len(live) == 1:
        outcome, street = SeatOutcome.COLLECTED, None
    elif len(live) > 1 and not won:
        outcome, street = SeatOutcome.MUCKED, None
        sink.muck(p, False, line)
    else:
        outcome, street = SeatOutcome.COLLECTED, None
    sink.result(int(m["seat"]), p, outcome, won, cards, description, street, False, line)


def on_end(r: LineReader, m: re.Match[str], line: int) -> None:
    _pots(r, 0)
    hand_id = r.sink.head["hand_id"]
    if m["id"] != hand_id:
        raise HandError(f"hand {hand_id} ends as hand {m['id']!r}", line)


class OnGame(Dialect):
    name = "ongame"
    site = "ongame"
    title = "OnGame Network"
    grammar_file = "ongame.lark"
    hand_start: ClassVar[tuple[str, ...]] = ("***** History for hand ",)
    profile: ClassVar[RuleProfile] = ONGAME
    writer = "histkit.dialects.ongame_writer"
    prints_uncalled = False  # no such line is known: the summary's pots say it
    games: ClassVar[Mapping[str, Game]] = {
        "LIMIT SEVEN_CARD_STUD": Game.STUD,  # R
        "LIMIT SEVEN_CARD_STUD_HI_LO": Game.STUD_HILO,  # R
        "LIMIT RAZZ": Game.RAZZ,  # K
    }
    currency_symbols: ClassVar[Mapping[str, str]] = {"$": "USD", "€": "EUR", "£": "GBP"}
    hidden_cards: ClassVar[frozenset[str]] = frozenset({"-"})
    handlers: ClassVar[Mapping[str, Handler]] = {
        **BASE_HANDLERS,
        "HEADER": on_header,
        "START": on_start,
        "TABLE": on_table,
        "USER": on_user,
        "BUTTON": ignore,
        "PLAYERS": on_players,
        "SEAT": on_seat,
        "SEP": ignore,
        "STREET_3": street_handler(Street.THIRD),
        "STREET_4": street_handler(Street.FOURTH),
        "STREET_5": street_handler(Street.FIFTH),
        "STREET_6": street_handler(Street.SIXTH),
        "STREET_7": street_handler(Street.SEVENTH),
        "DEALT": on_deal,
        "ANTE": _adds(_A.ANTE),
        "BRING_IN": _adds(_A.BRING_IN),
        "BIG_BRING_IN": on_big_bring_in,
        "BET": _adds(_A.BET),
        "CALL": _adds(_A.CALL),
        "RAISE": on_raise,
        "SUMMARY": BASE_HANDLERS["SUMMARY"],
        "POT": on_pot,
        "RAKE": on_rake,
        "RESULT": on_result,
        "END": on_end,
    }

    def game_text(self, m: re.Match[str], block: HandBlock) -> str | None:
        """From the table line (the third); None when there is none (the grammar says why)."""
        for text in block.lines[1:4]:
            if text.startswith("Table: "):
                got = self.compiled.line_regex["TABLE"].match(text + "\n")
                return got["game"] if got else None
        return None

    @staticmethod
    def describe(game: Game, cards: tuple[Card, ...]) -> str | None:
        """OnGame's words where real hands show them (two pair, three of a kind, full house,
        in stud and in a hi/lo hand without a low); None otherwise (not checked)."""
        if game is Game.RAZZ or (game is Game.STUD_HILO and low8_name(cards) is not None):
            return None
        cat, words = ongame_high(cards)
        return words if cat in _SEEN_WORDS else None
