"""Kings Club: the grammar (`grammars/kingsclub.lark`) plus what is different about the site.

Forms marked R are in the real files (../shared/hands/kingsclub: one hand each of stud,
stud hi-lo and razz from 2020-2021 cash tables, two 2-7 razz hands that are skipped); K
forms are guessed from the site's own patterns (no source lists the client's other lines):
the grammar says which beside each terminal. R: "#<id>: Limit <game> - <sb>/<bb>", the date
on line 2, "Table '..'", "Seat N: P (X)", "P: posts ante X", 3rd-street cards with no
street line ("Dealt to P: [X X 4d]"), "*** 3RD STREET ***" .. "*** 6TH STREET ***" for 4th
.. 7th street, "brings in for", "bets", "calls X[, and is all in]", "raises to", "checks",
"folds", "shows [..]" (all cards dealt, or six after an all-in), "Seat N: P (final)
+/-net", "Rake X", "P wins pot (X)". K: all-in suffixes on other actions, "mucks", main and
side pots and hi/lo halves in "wins", "is sitting out", a few table notes, "N-max", the
community card ("*** 6TH STREET *** [6h]", histkit's own form); the later layout (FPDB
2023-10): "*** 3RD STREET ***" before 3rd street's cards, each marker the street it names,
"*** 7TH STREET ***" last (`marker_handler` tells the two apart). "Limit 2-7 Razz" and any
other game are skipped by name from the header.

Read as the site wrote them, and what is derived (the text leaves it out):
- unit: CENT. Amounts carry no currency symbol but up to two decimals ("1,662.75", R), and
  the house takes rake ("Rake 5", R), which only a money game does; the text names no
  currency, so `currency` is None (FPDB's file names say USD: a hint, not the text).
- time: "2020-10-26 19:00:47" with no zone: taken as UTC (an assumption; no file settles it).
- mix: the header names the game only; a table whose name has the word "Mix" deals a
  rotation (R: '8 Game Mix' deals razz #39969356 at 15:48:40, stud hi-lo #39969428 at
  15:52:36, with hands of other games between them), so `mix` is that name: a change of
  game there may hide hands the file does not hold, and stacks are not carried over it.
- every amount after a verb is the player's street total (R: "calls 121.16" after a 44
  completion adds 77.16; the summary's nets agree). What each action adds is derived from
  the hand's own lines; "bets X" over a bring-in is the completion, reported like
  PokerStars' "raises X to Y" (a RAISE to X by X less the bring-in).
- no uncalled-bet line: the site hands an unmatched bet back in silence (R: razz
  #39969356, 40 returned, "Hero wins pot (99)" with rake 1 on the 100 called; the 2-7
  hands too). The return is derived when the betting ends (a street line, a show or muck,
  the summary): the top street total less the next one goes back to its bettor. The
  summary's final stacks check it: a seat's winnings are its net plus what it put in.
- the summary writes no total pot: it is everything the players put in, less the returns.
- "Seat N: P (final) +/-net" is each seat's result: the final stack must be the start plus
  the net (else the hand is rejected); the winnings `won` are the net plus what the seat
  put in, and the audit compares them with the "wins" lines (the 2-7 hand
  #3703449 prints one "wins pot" for two pots: the side pot's winner goes unpaid in the
  text, which is exactly what this check reports). The outcome (folded on which street,
  showed, mucked, collected) is the seat's play, since the line says none of it.
- "wins pot" pays the only pot; with "main pot"/"side pot #N" (K) the pot is named. No
  "No low hand qualified" line (R: hi-lo #39969428, no low, none printed).
- a shown hand is kept with its cards in the slots they were dealt to (R: hero dealt
  [Qh 4s Qs] shows [4s Qh Qs ...]); the cards are the same, so the engine's slot-by-slot
  check holds.
- hero: the one player whose down cards show ("Dealt to Hero: [5h Qs Ah]").

The profile (`KINGSCLUB`), from the real hands: bring-in by the lowest up card (stud 2s,
hi-lo Td under Qs) and razz by the highest (Tc over 6d); first to act by the best board
(stud #37581152: the open sevens on 4th; hi-lo: K-high before Q-high, then the ace; razz:
6-2 before Q-T); the open pair allows the big bet on 4th (#37581152: "Player3 bets 88" on
[7c 7d]). The rest no real hand settles (the cap, heads-up, suit ties, short all-ins, odd
chips, rake ceiling: rakes of 5 on 1,299.60 and 1 on 660 and 100): PokerStars' rules.
One house rule of its own: stud #37581152 raises "to 77.16" after a 33.16 bring-in was
completed to 44 (and the 2-7 hand #40091899 "to 38.58" after 16.58 and 22): the house
treats a completion that adds less than half a bet to the bring-in as an incomplete
raise, so the next raise is a small bet over the bring-in
(`short_completion_raise_from_bring_in`; standard stud raises to 88 there, and the
casino profile reports the hand: tests/dialects/test_kingsclub.py).

Descriptions are not checked (`describe` is None): the site writes none.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from typing import ClassVar

from histkit.cards import Card
from histkit.dialects.base import Dialect
from histkit.dialects.builder import (
    BASE_HANDLERS,
    HandError,
    Handler,
    LineReader,
    on_collect,
    on_fold,
    put,
    return_unmatched,
    street_handler,
    utc_start,
)
from histkit.dialects.sink import UP3
from histkit.model import (
    ActionKind,
    Collect,
    Game,
    Half,
    NoteKind,
    PotKind,
    SeatOutcome,
    Street,
    Unit,
)
from histkit.rules.profile import POKERSTARS, RuleProfile
from histkit.rules.speed import SEVENTH as _SEVENTH
from histkit.rules.speed import THIRD as _THIRD

__all__ = ["KINGSCLUB", "KingsClub"]

# showdown order (AGGRESSOR, as PokerStars): the last bettor first in 2 of 2 real showdowns
KINGSCLUB: RuleProfile = dataclasses.replace(
    POKERSTARS, name="kingsclub", short_completion_raise_from_bring_in=True
)

_UP, _DOWN = (True,), (False,)
_MIX = re.compile(r"\bmix\b", re.IGNORECASE)


def _text(cents: int) -> str:
    """An amount as the site writes it, for messages ("1,662.75", "44")."""
    whole, part = divmod(cents, 100)
    return f"{whole:,}" + (f".{part:02d}" if part else "")


def on_header(r: LineReader, m: re.Match[str], line: int) -> None:
    """`#id: game - sb/bb`: the rest of the header is on the next line (the date)."""
    if m["tail"].strip():
        raise HandError(f"header text after the stakes not understood: {m['tail']!r}", line)
    r.set_unit(Unit.CENT)
    r.scratch["head"] = (m["id"], r.d.games[m["game"].strip().upper()], m["sb"], m["bb"])


def on_date(r: LineReader, m: re.Match[str], line: int) -> None:
    r.scratch["when"] = (m["date"], m["clock"])


def on_table(r: LineReader, m: re.Match[str], line: int) -> None:
    """The table, and with it the hand's header (read over the first three lines)."""
    hand_id, game, sb, bb = r.scratch["head"]
    date, clock = r.scratch["when"]
    name = m["name"]
    r.sink.header(
        hand_id=hand_id,
        game=game,
        small_bet=r.money(sb, line),
        big_bet=r.money(bb, line),
        unit=Unit.CENT,
        currency=None,
        started_at=utc_start(r.d, [(date, clock, r.d.reference_zone)]),
        local_time=f"{date} {clock}",
        mix=name if _MIX.search(name) else None,
        table=name,
        max_seats=int(m["max"]) if m["max"] else None,
    )


def on_deal(r: LineReader, m: re.Match[str], line: int) -> None:
    """The first deal line starts 3rd street (the site writes no line for it)."""
    sink = r.sink
    if not sink.started:
        sink.street_start(_THIRD, line)
    cards = r.cards(m["cards"], line)
    up = UP3 if sink.street is _THIRD else _DOWN if sink.street is _SEVENTH else _UP
    sink.deal(m["player"], cards, up, (), line)


def _put_in(kind: ActionKind) -> Handler:
    """An ante, bring-in, bet, call or raise; X is the player's street total after it."""

    def handler(r: LineReader, m: re.Match[str], line: int) -> None:
        sink = r.sink
        player = sink.player(m["player"], line)
        x = r.money(m["amount"] if kind is not ActionKind.RAISE else m["to"], line)
        all_in = m["allin"] is not None
        if kind is ActionKind.ANTE:
            put(r, kind, player, line, adds=x, all_in=all_in)
            return
        before = sink.put_in(player)
        if x <= before:
            raise HandError(f"{player} has {_text(before)} in already on this street", line)
        said = ActionKind.RAISE if kind is ActionKind.BET and sink.bet else kind
        put(r, said, player, line, to=x, all_in=all_in)

    return handler


def on_fold_kc(r: LineReader, m: re.Match[str], line: int) -> None:
    """A fold; "folds (disconnect)" (K) is the client's fold of a disconnected player,
    noted as such."""
    player = r.sink.player(m["player"], line)
    on_fold(r, m, line)
    if m["disc"]:
        r.sink.note(NoteKind.DISCONNECT, player, f"{player} folds (disconnect)", line)


def on_summary_mangled(r: LineReader, m: re.Match[str], line: int) -> None:
    """ "*** SUMMARY * **" (K: a marker FPDB reads as the summary's): the summary, with a
    note that the site wrote its marker so."""
    on_summary(r, m, line)
    r.sink.note(NoteKind.OTHER, None, m.group(0).strip(), line)


def marker_handler(street: Street) -> Handler:
    """A street marker, `street` the one it heads in the real files' layout. In the later
    layout (K: FPDB 2023-10) "*** 3RD STREET ***" comes before any card and heads 3rd street
    itself, and every marker heads the street it names (FPDB tells them apart so)."""
    as_written = _after_betting(street_handler(street))
    named = _after_betting(street_handler(Street(street - 1)))

    def handler(r: LineReader, m: re.Match[str], line: int) -> None:
        if street is Street.FOURTH and not r.sink.started:
            r.scratch["named"] = True
            r.sink.street_start(_THIRD, line)
        elif not r.scratch.get("named"):
            as_written(r, m, line)
        elif "card" in m.re.groupindex and m["card"]:
            raise HandError(f"a community card on {street - 1}th street", line)
        else:
            named(r, m, line)

    return handler


def _after_betting(base: Handler) -> Handler:
    def handler(r: LineReader, m: re.Match[str], line: int) -> None:
        return_unmatched(r, line)
        base(r, m, line)

    return handler


def _dealt_order(r: LineReader, player: str, cards: tuple[Card, ...]) -> tuple[Card, ...]:
    """A shown hand with each card in the slot it was dealt to, when the show holds every
    card seen dealt to the player and as many cards as were dealt; else as written."""
    dealt = r.sink.dealt(player)
    known = {i: c for i, c in enumerate(dealt) if c is not None}
    rest = [c for c in cards if c not in known.values()]
    if len(dealt) != len(cards) or len(rest) + len(known) != len(cards):
        return cards
    left = iter(rest)
    return tuple(known[i] if i in known else next(left) for i in range(len(dealt)))


def on_show(r: LineReader, m: re.Match[str], line: int) -> None:
    player = r.sink.player(m["player"], line)
    return_unmatched(r, line)
    r.sink.show(player, _dealt_order(r, player, r.known_cards(m["cards"], line)), None, line)


def on_muck(r: LineReader, m: re.Match[str], line: int) -> None:
    player = r.sink.player(m["player"], line)
    return_unmatched(r, line)
    r.sink.muck(player, False, line)


def on_summary(r: LineReader, m: re.Match[str], line: int) -> None:
    """The total pot is not written: everything put in (returns taken off), raked later."""
    return_unmatched(r, line)
    r.sink.summary_start(line)
    r.sink.pot_total(sum(r.sink.hand_in.values()), 0, None, (), line)


def on_rake(r: LineReader, m: re.Match[str], line: int) -> None:
    r.sink.pot_total(sum(r.sink.hand_in.values()), r.money(m["amount"], line), None, (), line)


def on_collect_kc(r: LineReader, m: re.Match[str], line: int) -> None:
    """A pot won; where the lines name the pots ("main pot", "side pot #N": K), the
    summary's pot figures are what each pot paid (the site lists no pots of its own)."""
    on_collect(r, m, line)
    paid: dict[int, int] = {}
    for e in r.sink.events:
        if isinstance(e, Collect) and e.pot in (PotKind.MAIN, PotKind.SIDE):
            i = e.pot_index if e.pot is PotKind.SIDE else 0
            paid[i] = paid.get(i, 0) + e.amount
    if paid and r.sink.pot is not None:
        total, rake, _, _, fee = r.sink.pot
        sides = tuple(paid.get(i, 0) for i in range(1, max(paid) + 1))
        r.sink.pot_total(total, rake, paid.get(0, 0), sides, line, fee=fee)


def on_result(r: LineReader, m: re.Match[str], line: int) -> None:
    """`Seat N: P (final) +/-net`: the seat's winnings are its net plus what it put in."""
    sink = r.sink
    player = sink.player(m["player"], line)
    seat = sink.players[player]
    final, signed = r.money(m["final"], line), m["net"]
    net = r.money(signed.lstrip("+-"), line) * (-1 if signed.startswith("-") else 1)
    won = net + sink.hand_in.get(player, 0)
    if final - seat.stack != net or won < 0:
        raise HandError(
            f"the summary says {player} ends with {m['final']} ({signed}), but started with "
            f"{_text(seat.stack)} and put in {_text(sink.hand_in.get(player, 0))}",
            line,
        )
    folded = sink.folded.get(player)
    outcome = SeatOutcome.COLLECTED if won else SeatOutcome.OTHER
    if folded is not None:
        outcome = SeatOutcome.FOLDED
    elif player in sink.shown:
        outcome = SeatOutcome.SHOWED if sink.shown[player] else SeatOutcome.MUCKED
    sink.result(int(m["seat"]), player, outcome, won, (), None, folded, False, line)


class KingsClub(Dialect):
    """Starts from the shared handlers, not from a site: its lines are PokerStars-like,
    but its amounts, streets, summary and silences are its own."""

    name = "kingsclub"
    site = "kingsclub"
    title = "Kings Club"
    grammar_file = "kingsclub.lark"
    # "#<digits>: ": a line starting with '#' and a digit (PartyPoker's "#Game No" is not)
    hand_start: ClassVar[tuple[str, ...]] = tuple(f"#{d}" for d in "0123456789")
    profile: ClassVar[RuleProfile] = KINGSCLUB
    writer = "histkit.dialects.kingsclub_writer"
    # the site writes no return line, but the chips do go back: the dialect derives the
    # return (see above), so the engine is to expect one
    prints_uncalled = True
    prints_no_low = False
    games: ClassVar[Mapping[str, Game]] = {
        "LIMIT SEVEN CARD STUD": Game.STUD,  # R
        "LIMIT SEVEN CARD STUD HI-LO": Game.STUD_HILO,  # R
        "LIMIT SEVEN CARD STUD HI/LO": Game.STUD_HILO,  # K
        "LIMIT RAZZ": Game.RAZZ,  # R
    }
    # K: FPDB's amounts allow a sign before them; the hand names no currency all the same
    currency_symbols: ClassVar[Mapping[str, str]] = {"$": "USD", "€": "EUR", "£": "GBP"}
    symbol_marks_cash = False
    hidden_cards: ClassVar[frozenset[str]] = frozenset({"X"})
    reference_zone = "UTC"
    time_zones: ClassVar[Mapping[str, str]] = {"UTC": "UTC"}
    pot_words: ClassVar[Mapping[str, PotKind]] = {
        "pot": PotKind.POT, "main pot": PotKind.MAIN, "side pot": PotKind.SIDE
    }  # fmt: skip
    half_words: ClassVar[Mapping[str, Half]] = {
        "high": Half.HIGH, "hi": Half.HIGH, "low": Half.LOW, "lo": Half.LOW
    }  # fmt: skip
    handlers: ClassVar[Mapping[str, Handler]] = {
        **BASE_HANDLERS,
        "HEADER": on_header,
        "DATE": on_date,
        "TABLE": on_table,
        "DEALT": on_deal,
        "ANTE": _put_in(ActionKind.ANTE),
        "BRING_IN": _put_in(ActionKind.BRING_IN),
        "BET": _put_in(ActionKind.BET),
        "CALL": _put_in(ActionKind.CALL),
        "RAISE": _put_in(ActionKind.RAISE),
        "FOLD": on_fold_kc,
        "SHOW": on_show,
        "MUCK": on_muck,
        **{f"STREET_{int(s)}": marker_handler(s) for s in Street if s > _THIRD},
        "STREET_7TH": _after_betting(street_handler(_SEVENTH)),
        "SUMMARY": on_summary,
        "RESULT": on_result,
        "RAKE": on_rake,
        "COLLECT": on_collect_kc,
        "COLLECT_FROM": on_collect_kc,
        "SUMMARY_MANGLED": on_summary_mangled,
    }
