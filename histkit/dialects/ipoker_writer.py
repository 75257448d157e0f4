"""iPoker writer: `Hand`s -> iPoker's XML, the other half of the iPoker dialect.

A session is written as the real files have it (../shared/hands/ipoker): a `<session>`
whose `<general>` names the game, table and currency, then one `<game gamecode=ID>` per
hand with its `<players>` and `<round no=N>`s; in each round every player's `<cards>` is
followed by that player's `<action>`s, numbered in the order they were made (so not in
document order, as the client writes them). Choices, where a `Hand` holds more or other
than the XML carries (tests/dialects/test_ipoker.py checks them):

- Sessions: consecutive hands at one table, of one game, unit, currency, tournament and
  (cash) stakes share a session; a change starts a new one. `write_hands` of one hand (the
  simulator writes hands one call at a time) is a session of its own. `iter_session`
  writes a long session piece by piece (the benchmark's 100,000 hands).
- Stakes: cash in the gametype ("7 Card Stud Hi-Lo L €0.05/€0.10", R). A tournament's
  gametype names them only when every hand of the session has the same stakes (a K form
  FPDB's pattern reads); a session across levels writes "7 Card Stud L", as the real sit &
  go does, and the reader derives them.
- Money: "€0.05", "€1" for whole units, chips "1,440" (R); euros, dollars or pounds only.
- Action types (R): 15 ante, 16 bring-in, 3 call, 5 bet (a completion too), 23 raise with
  the street total, 7 any all-in after the ante and bring-in, with the chips it adds; 4
  check, 0 fold.
- Uncalled bets: no line for them; they stay in the bettor's `bet` and `win` (R).
- Cards: the hero's always, an opponent's down cards when the hand shows them (a show, or
  a summary "showed"); else "X". A community card is `<cards type="River">` with no player
  (histkit's own form: no real file shows one).
- Not written (the XML has no place for them): rake (the reader takes what the wins leave of
  the bets), per-pot and hi/lo collects (one `win` per player), descriptions, notes, the
  level, the table size, the time zone (`<startdate>` is the hand's own iPoker date text,
  else its start in UTC).
- Eras (`ERAS`): the above is `2011-2014`; `newer` writes FPDB's later forms (K):
  `HiLow`, the ante after the stakes, `<tablesize>`, euros as "0,05€".
- The hero's finish: a session's `<place>` and `<win>` (R) from a FINISHED note of the
  hero in iPoker's own words (the reader makes one of them); other notes are not written.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from histkit.cards import Card
from histkit.model import (
    Action,
    ActionKind,
    Collect,
    Deal,
    Game,
    Hand,
    NoteKind,
    SeatOutcome,
    Show,
    Street,
    StreetStart,
    TableNote,
    UncalledBet,
    Unit,
)

__all__ = [
    "ERAS",
    "Era",
    "card_token",
    "format_amount",
    "iter_session",
    "write_hand",
    "write_hands",
]

GAME_NAMES = {Game.STUD: "7 Card Stud", Game.STUD_HILO: "7 Card Stud Hi-Lo", Game.RAZZ: "Razz"}
SYMBOLS = {"EUR": "€", "USD": "$", "GBP": "£"}
STREET_NAMES = {
    Street.THIRD: "Third Street",
    Street.FOURTH: "Fourth Street",
    Street.FIFTH: "Fifth Street",
    Street.SIXTH: "Sixth Street",
    Street.SEVENTH: "River",
}
_DATE = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$")
_K = ActionKind
_WAGERS = (_K.BET, _K.COMPLETE, _K.RAISE)


@dataclass(frozen=True, slots=True)
class Era:
    """How one era of the client writes what differs between eras (the default: the real
    files' `2011-2014`)."""

    hilo: str = "Hi-Lo"  # the hi-lo game's word
    ante: bool = False  # the ante after the stakes in `<gametype>` ("... Ante €0.02")
    table_size: bool = False  # `<tablesize>`
    euro_after: bool = False  # euros as the French skins write them: "0,05€"

    def write_hands(self, hands: Iterable[Hand], *, newline: str = "\n") -> str:
        return write_hands(hands, newline=newline, era=self)


DEFAULT = Era()


def format_amount(amount: int, unit: Unit, currency: str | None, era: Era = DEFAULT) -> str:
    if unit is Unit.CHIP:
        return f"{amount:,}"
    sym = SYMBOLS.get(currency or "")
    if sym is None:
        raise ValueError(f"iPoker writes euros, dollars or pounds, not {currency!r}")
    whole, cents = divmod(amount, 100)
    if era.euro_after and currency == "EUR":  # no thousands: "1,440" would be chips
        return f"{whole}{sym}" if cents == 0 else f"{whole},{cents:02d}{sym}"
    return f"{sym}{whole:,}" if cents == 0 else f"{sym}{whole:,}.{cents:02d}"


def card_token(card: Card | None) -> str:
    """ "Ah" -> "HA", "Td" -> "D10"; an unknown card "X"."""
    if card is None:
        return "X"
    text = str(card)
    return text[1].upper() + ("10" if text[0] == "T" else text[0])


def _session_key(h: Hand) -> tuple[object, ...]:
    cash = (h.small_bet, h.big_bet) if h.unit is Unit.CENT else None
    return (h.table, h.game, h.unit, h.currency, h.tournament_id, h.hero, cash)


def _date(h: Hand) -> str:
    if h.local_time and _DATE.match(h.local_time):
        return h.local_time
    return h.started_at.strftime("%Y-%m-%d %H:%M:%S") if h.started_at else ""


_FINISH = re.compile(r"^<place>(\d+)</place>(?:<win>([^<]+)</win>)?$")


def _finish(hands: Iterable[Hand], hero: str | None) -> tuple[str, str | None] | None:
    """The hero's place and prize as written, from a FINISHED note in iPoker's words."""
    for h in hands:
        for e in h.events:
            if type(e) is TableNote and e.kind is NoteKind.FINISHED and e.player == hero:
                m = _FINISH.match(e.text)
                if m is not None:
                    return m[1], m[2]
    return None


def _ante(h: Hand) -> int | None:
    return h.ante or max((a.amount for a in h.actions() if a.kind is _K.ANTE), default=None)


def _head(h: Hand, hands: list[Hand] | None, nl: str, era: Era = DEFAULT) -> str:
    """The session's start: declaration, `<session>` and its `<general>`."""
    money = lambda x: format_amount(x, h.unit, h.currency, era)  # noqa: E731
    name = GAME_NAMES[h.game].replace("Hi-Lo", era.hilo)
    game = f"{name} L"
    if h.unit is Unit.CENT or (hands and len({(x.small_bet, x.big_bet) for x in hands}) == 1):
        game += f" {money(h.small_bet)}/{money(h.big_bet)}"
        antes = {_ante(x) for x in hands or [h]}
        if era.ante and len(antes) == 1 and (ante := antes.pop()):
            game += f" Ante {money(ante)}"
    rows = [
        '<?xml version="1.0" encoding="utf-8"?>',
        f'<session sessioncode="{escape(h.hand_id)}">',
        "  <general>",
        "    <mode>real</mode>",
        f"    <gametype>{escape(game)}</gametype>",
        f"    <tablename>{escape(h.table)}</tablename>",
    ]
    if era.table_size and h.max_seats:
        rows.append(f"    <tablesize>{h.max_seats}</tablesize>")
    if h.unit is Unit.CENT:
        rows.append(f"    <tablecurrency>{h.currency}</tablecurrency>")
    rows.append("    <duration>N/A</duration>")
    if hands is not None:
        rows.append(f"    <gamecount>{len(hands)}</gamecount>")
    rows += [
        f"    <startdate>{_date(h)}</startdate>",
        f"    <currency>{h.currency or 'USD'}</currency>",
        f"    <nickname>{escape(h.hero or '')}</nickname>",
    ]
    if h.tournament_id is not None:
        rows.append(f"    <tournamentcode>{escape(h.tournament_id)}</tournamentcode>")
        if h.buy_in:
            rows.append(f"    <buyin>{escape(h.buy_in)}</buyin>")
        finish = _finish(hands or (), h.hero)
        if finish is not None:
            place, win = finish
            rows.append(f"    <place>{place}</place>")
            if win is not None:
                rows.append(f"    <win>{escape(win)}</win>")
    rows.append("  </general>")
    return nl.join(rows) + nl


def _shown(h: Hand) -> dict[str, tuple[Card, ...]]:
    """The cards each player shows (a show, else a summary "showed")."""
    out = {e.player: e.cards for e in h.events if isinstance(e, Show)}
    if h.summary is not None:
        for r in h.summary.seats:
            if r.outcome is SeatOutcome.SHOWED and r.cards and r.player not in out:
                out[r.player] = r.cards
    return out


def _slots(h: Hand) -> dict[str, list[Card | None]]:
    """Every player's cards in dealt order, as far as the XML may show them."""
    slots: dict[str, list[Card | None]] = {}
    for e in h.events:
        if isinstance(e, Deal):
            mine = slots.setdefault(e.player, [])
            start = 0 if e.street is Street.THIRD else int(e.street) - 1
            mine.extend([None] * (start - len(mine)))
            del mine[start:]
            mine.extend(e.cards)
    community = next(
        (e.community for e in h.events if isinstance(e, StreetStart) and e.community), None
    )
    for p, cards in _shown(h).items():
        mine = slots.setdefault(p, [])
        cards = tuple(c for c in cards if c != community)
        if len(cards) >= len(mine) and all(
            m is None or m == c for m, c in zip(mine, cards, strict=False)
        ):
            mine[:] = cards
        else:
            extra = [c for c in cards if c not in mine]
            free = [i for i, c in enumerate(mine) if c is None]
            for i, c in zip(free, extra, strict=False):
                mine[i] = c
    return slots


def write_hand(h: Hand, nl: str = "\n", era: Era = DEFAULT) -> str:
    """One `<game>` element (no session around it)."""
    money = lambda x: format_amount(x, h.unit, h.currency, era)  # noqa: E731
    returned: dict[str, int] = {}
    won: dict[str, int] = {}
    for e in h.events:
        if isinstance(e, UncalledBet):
            returned[e.player] = returned.get(e.player, 0) + e.amount
        elif isinstance(e, Collect):
            won[e.player] = won.get(e.player, 0) + e.amount
    # what each action adds, its type and sum, numbered in play order, by street
    put: dict[str, int] = {}
    sixth = [e.player for e in h.events if isinstance(e, Deal) and e.street is Street.SIXTH]
    street_in: dict[str, int] = {}
    street, completed, no = 0, False, 0
    folded: set[str] = set()
    river: list[str] = []  # who is still in when 7th street is dealt
    actions: dict[int, list[tuple[int, str, str, str]]] = {0: []}
    for e in h.events:
        if isinstance(e, StreetStart):
            street, completed, street_in = int(e.street) - 1, False, {}
            if e.street is Street.SEVENTH:
                river = [q for q in sixth if q not in folded]
            actions.setdefault(street, [])
        elif isinstance(e, Action):
            p, k = e.player, e.kind
            before = street_in.get(p, 0)
            if k is _K.ANTE:
                typ, chips, total = "15", e.amount, before
            elif k in (_K.CHECK, _K.FOLD):
                typ, chips, total = ("4" if k is _K.CHECK else "0"), 0, before
            elif k in (_K.BRING_IN, _K.CALL) or (k is _K.BET and e.to_amount is None):
                typ, chips = {_K.BRING_IN: "16", _K.CALL: "3", _K.BET: "5"}[k], e.amount
                total = before + chips
            else:
                top = max(street_in.values(), default=0)
                total = e.to_amount if e.to_amount is not None else top + e.amount
                chips = total - before
                typ = "5" if (street == 2 and not completed) or top == 0 else "23"
            if street == 2 and k in _WAGERS:
                completed = True
            if e.all_in and k not in (_K.ANTE, _K.BRING_IN):
                typ = "7"
            street_in[p] = total
            put[p] = put.get(p, 0) + chips
            no += 1
            if k is _K.FOLD:
                folded.add(p)
            amount = money(total if typ == "23" else chips)
            actions.setdefault(street, []).append((no, p, typ, amount))
    rows = [
        f'<game gamecode="{escape(h.hand_id)}">',
        "  <general>",
        f"    <startdate>{_date(h)}</startdate>",
        "    <players>",
    ]
    for i, s in enumerate(sorted(h.seats, key=lambda s: s.seat)):
        p = s.player
        rows.append(
            f'      <player seat="{s.seat}" name={quoteattr(p)} chips="{money(s.stack)}" '
            f'dealer="{int(i == 0)}" win="{money(won.get(p, 0) + returned.get(p, 0))}" '
            f'bet="{money(put.get(p, 0))}" rebuy="0" addon="0"/>'
        )
    rows += ["    </players>", "  </general>"]
    slots = _slots(h)
    hero = h.hero
    shown = _shown(h)
    dealt: dict[int, list[str]] = {}
    for e in h.events:
        if isinstance(e, Deal) and e.street is not Street.SEVENTH:
            dealt.setdefault(int(e.street) - 1, []).append(e.player)
    community = {
        int(e.street) - 1: e.community
        for e in h.events
        if isinstance(e, StreetStart) and e.community
    }
    if 6 not in community:  # every player still in gets a 7th card (PokerStars shows one)
        dealt[6] = river
    streets = sorted({int(e.street) - 1 for e in h.events if isinstance(e, StreetStart)})
    for rnd in (0, 1, *streets):
        rows.append(f'  <round no="{rnd}">')
        acts = actions.get(rnd, []) if rnd != 1 else []
        parts = []
        if rnd in community:
            parts.append(f'<cards type="River">{card_token(community[rnd])}</cards>')
        order = list(dict.fromkeys([*dealt.get(rnd, []), *(a[1] for a in acts)]))
        for p in order:
            if p in dealt.get(rnd, []):
                mine = slots.get(p, [])
                lo = 0 if rnd == 2 else rnd
                cards = (mine + [None] * 7)[lo : rnd + 1]
                if p != hero and p not in shown:
                    cards = [c if i + lo in (2, 3, 4, 5) else None for i, c in enumerate(cards)]
                tokens = " ".join(card_token(c) for c in cards)
                word = STREET_NAMES[Street(rnd + 1)]
                parts.append(f'<cards type="{word}" player={quoteattr(p)}>{tokens}</cards>')
            for n, q, typ, amount in acts:
                if q == p:
                    attrs = f'no="{n}" player={quoteattr(q)} type="{typ}" sum="{amount}"'
                    parts.append(f'<action {attrs} cards="{"[cards]" if typ == "15" else ""}"/>')
        if parts:
            rows.append("    " + "".join(parts))
        rows.append("  </round>")
    rows.append("</game>")
    return nl.join(rows)


def iter_session(hands: Iterable[Hand], *, newline: str = "\n") -> Iterator[str]:
    """A session piece by piece (hands of one table, game and stakes: see the module)."""
    first: Hand | None = None
    for h in hands:
        if first is None:
            first = h
            yield _head(h, None, newline)
        yield write_hand(h, newline)
    if first is not None:
        yield newline + "</session>" + newline


def write_hands(hands: Iterable[Hand], *, newline: str = "\n", era: Era = DEFAULT) -> str:
    """Hands as iPoker's sessions: one per run of hands that share a table, game,
    tournament and (cash) stakes; in `era`'s forms."""
    out: list[str] = []
    run: list[Hand] = []
    for h in [*hands, None]:
        if run and (h is None or _session_key(h) != _session_key(run[0])):
            out.append(_head(run[0], run, newline, era))
            out.append("".join(write_hand(x, newline, era) for x in run))
            out.append(newline + "</session>" + newline)
            run = []
        if h is not None:
            run.append(h)
    return "".join(out)


# the eras the writer writes (`histkit.dialects.eras`, docs/sites/ipoker.md), the default
# first. `newer`: FPDB's forms of the later clients (K): `HiLow`, the ante after the stakes,
# `<tablesize>`, and euros as the French skins write them
ERAS: dict[str, Era] = {
    "2011-2014": DEFAULT,
    "newer": Era(hilo="HiLow", ante=True, table_size=True, euro_after=True),
}
