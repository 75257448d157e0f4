"""Full Tilt Poker writer: `Hand` -> text, the other half of the Full Tilt dialect.

Every line is written in the form the 2010-2013 Full Tilt client used (the real files in
the shared corpus; see `histkit.dialects.fulltilt` for which forms are seen there and which
come from knowledge of the site). The writer prints what the `Hand` holds and invents no
card or action. Lines the model does not keep are placed by the site's rule:

- `X is low with [3c]` (razz: `is high with`) right after the 3rd-street deals, naming the
  player whose bring-in follows and that player's up card;
- `*** SHOW DOWN ***` before the first show after the last street began, unless cards were
  shown earlier (an all-in exposure: the client then prints no showdown line);
- `, mucked` after a summary's `collected (X)` when the player mucked in the hand;
- which half of a hi/lo pot a collect is: the model keeps no half, so the collect lines of
  one pot are read as the site writes them (high winners first, then low winners) and the
  split found from the collectors' shown cards (see `_halves`).

Choices, because the model or the site leaves them open:
- a hand read from Full Tilt (`site == "fulltilt"`) keeps its own hand descriptions and note
  lines word for word; a hand from elsewhere (the simulator, another site) gets Full Tilt's
  words: descriptions from the shown cards (`describe_words`), notes by kind ("sits down",
  "stands up", ...);
- "(didn't bet)" is never written (Full Tilt does not), nor a summary's "(partial)" marker;
- "Ante X" in the header is the hand's `ante`, else the largest ante posted;
- a tournament's title (`buy_in`, which holds Full Tilt's whole title) defaults to
  "Tournament" when the hand has none; the table attribute "(N max)" is written only for
  tables other than 8 seats (Full Tilt's stud tables are 8-max unless the name says so);
- amounts: "$0.50", "$3" (whole dollars lose the cents), chips and dollars with thousands
  separators ("12,245"), as the real files write them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from zoneinfo import ZoneInfo

from histkit.cards import Card
from histkit.evaluate._tables import CAT_SHIFT, HandCategory, unpack
from histkit.evaluate.names import name_low_value
from histkit.evaluate.scalar import high_value, low8_value, razz_value
from histkit.model import (
    Action,
    ActionKind,
    BettingCapped,
    Collect,
    Deal,
    DoubleBetAllowed,
    Event,
    Game,
    Hand,
    Muck,
    NoLowHand,
    NoteKind,
    PotKind,
    SeatOutcome,
    SeatResult,
    Show,
    Street,
    StreetStart,
    Summary,
    TableNote,
    UncalledBet,
    Unit,
)

__all__ = [
    "GAME_NAMES",
    "describe_words",
    "format_amount",
    "high_words",
    "low_words",
    "shown_order",
    "write_hand",
    "write_hands",
]

GAME_NAMES: dict[Game, str] = {
    Game.STUD: "Limit Stud Hi",
    Game.STUD_HILO: "Limit Stud H/L",
    Game.RAZZ: "Limit Razz",
}
_CURRENCY_SYMBOLS = {"USD": "$", "EUR": "\u20ac", "GBP": "\u00a3", "CAD": "$"}
_STREET_LINES = {s: f"*** {s.value}{'RD' if s == 3 else 'TH'} STREET ***" for s in Street}
_STREET_ABBR = {s: f"{s.value}{'rd' if s == 3 else 'th'} St." for s in Street}
_ET = ZoneInfo("America/New_York")
_FTP_DATE = re.compile(r"\d{1,2}:\d{2}(?::\d{2})? [A-Z]{1,5} - ")
_ORDINAL = re.compile(r"\d+(?:st|nd|rd|th)")
_ALL_IN = ", and is all in"

# -------------------------------------------------------------------- hand descriptions
# Full Tilt's words, as the real files write them: "a pair of Aces", "two pair, Aces and
# Kings", "a flush, Ten high", "a full house, Nines full of Tens", "Ace Jack high" (high
# card: the two top cards), razz "J,T,6,5,2". From knowledge, not in the files: "three of
# a kind, Nines", "a straight, Queen high", "four of a kind, Kings", "a straight flush,
# Nine high", "a royal flush", "Twos" for deuces, and the hi/lo form "<high>, for high and
# <low>, for low".
_ONE = {
    2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six", 7: "Seven", 8: "Eight",
    9: "Nine", 10: "Ten", 11: "Jack", 12: "Queen", 13: "King", 14: "Ace",
}  # fmt: skip
_MANY = {r: ("Sixes" if r == 6 else n + "s") for r, n in _ONE.items()}


def high_words(cards: Iterable[Card]) -> str:
    """Full Tilt's name of the best high hand of 5-7 cards."""
    value = high_value(cards)
    cat = HandCategory(value >> CAT_SHIFT)
    r = unpack(value)
    if cat is HandCategory.HIGH_CARD:
        return f"{_ONE[r[0]]} {_ONE[r[1]]} high"
    if cat is HandCategory.PAIR:
        return f"a pair of {_MANY[r[0]]}"
    if cat is HandCategory.TWO_PAIR:
        return f"two pair, {_MANY[r[0]]} and {_MANY[r[2]]}"
    if cat is HandCategory.THREE_OF_A_KIND:
        return f"three of a kind, {_MANY[r[0]]}"
    if cat is HandCategory.STRAIGHT:
        return f"a straight, {_ONE[r[0]]} high"
    if cat is HandCategory.FLUSH:
        return f"a flush, {_ONE[r[0]]} high"
    if cat is HandCategory.FULL_HOUSE:
        return f"a full house, {_MANY[r[0]]} full of {_MANY[r[3]]}"
    if cat is HandCategory.FOUR_OF_A_KIND:
        return f"four of a kind, {_MANY[r[0]]}"
    if r[0] == 14:
        return "a royal flush"
    return f"a straight flush, {_ONE[r[0]]} high"


def low_words(game: Game, cards: Iterable[Card]) -> str | None:
    """The low as Full Tilt prints it ("8,6,4,3,2"); None for a hi/lo hand without one."""
    if game is Game.RAZZ:
        return name_low_value(razz_value(cards))
    value = low8_value(cards)
    return None if value is None else name_low_value(value)


def describe_words(game: Game, cards: Iterable[Card]) -> str | None:
    """Full Tilt's description of a shown hand of 5-7 cards; None for fewer cards."""
    hand = tuple(cards)
    if len(hand) < 5:
        return None
    if game is Game.RAZZ:
        return low_words(game, hand)
    high = high_words(hand)
    if game is Game.STUD_HILO:
        low = low_words(game, hand)
        return f"{high}, for high and {low}, for low" if low else high
    return high


def format_amount(amount: int, unit: Unit, currency: str | None) -> str:
    """ "$0.50", "$3", "$1,234.50" or chips "12,245", as Full Tilt writes them."""
    if unit is Unit.CHIP:
        return f"{amount:,}"
    symbol = _CURRENCY_SYMBOLS.get(currency or "USD", "$")
    sign = "-" if amount < 0 else ""
    whole, cents = divmod(abs(amount), 100)
    return f"{sign}{symbol}{whole:,}" if cents == 0 else f"{sign}{symbol}{whole:,}.{cents:02d}"


def _cards(cards: Iterable[Card | None]) -> str:
    return " ".join(str(c) for c in cards if c is not None)


def shown_order(game: Game, cards: tuple[Card, ...]) -> tuple[Card, ...]:
    """A shown hand as Full Tilt lists it: the two down cards sorted, highest first
    (11111112961: dealt [9h 9s], shown [9s 9h ...]), razz lowest first with the ace low
    (28333847000: [5d 6s 2s], [As 7c Kc]); the other cards in the order dealt."""
    if len(cards) < 2:
        return cards
    if game is Game.RAZZ:
        down = sorted(cards[:2], key=lambda c: (c.rank.low, -c.suit))
    else:
        down = sorted(cards[:2], key=lambda c: (-c.rank, -c.suit))
    return (*down, *cards[2:])


class _Writer:
    """One hand being written; tracks the street's wagers to word completions and raises."""

    def __init__(self, hand: Hand) -> None:
        self.hand = hand
        self.own = hand.site == "fulltilt"  # keep its own descriptions and note lines
        self.lines: list[str] = []
        self.street = Street.THIRD
        self.street_in: dict[str, int] = {}
        self.current = 0  # the street's highest total (the bet to call)
        self.wagers = 0
        self.shown: dict[str, Show] = {}
        self.mucked = {e.player for e in hand.events if isinstance(e, Muck)}
        self.community = next(
            (e.community for e in hand.events if isinstance(e, StreetStart) and e.community),
            None,
        )
        self.halves = _halves(hand, self.community)
        self.n_sides = max(
            [len(hand.summary.side_pots) if hand.summary else 0]
            + [e.pot_index for e in hand.events if isinstance(e, Collect)]
        )

    def money(self, amount: int) -> str:
        return format_amount(amount, self.hand.unit, self.hand.currency)

    # ------------------------------------------------------------------ header
    def header(self) -> str:
        h = self.hand
        title = f"{h.buy_in or 'Tournament'} ({h.tournament_id}), " if h.is_tournament else ""
        attrs = f" ({h.max_seats} max)" if h.max_seats not in (None, 8) else ""
        stakes = f"{self.money(h.small_bet)}/{self.money(h.big_bet)}"
        ante = h.ante
        if ante is None:
            antes = [a.amount for a in h.actions() if a.kind is ActionKind.ANTE]
            ante = max(antes) if antes else None
        if ante:
            stakes += f" Ante {self.money(ante)}"
        mix = f"{h.mix} - " if h.mix else ""
        return (
            f"Full Tilt Poker Game #{h.hand_id}: {title}Table {h.table}{attrs} - {stakes} - "
            f"{mix}{GAME_NAMES[h.game]} - {self.date_text()}"
        )

    def date_text(self) -> str:
        """The header's own date text when it is in Full Tilt's form, else ET from UTC."""
        h = self.hand
        if h.local_time and _FTP_DATE.match(h.local_time):
            return h.local_time
        if h.started_at is None:
            raise ValueError(f"hand {h.hand_id}: neither a Full Tilt date nor started_at")
        et = h.started_at.astimezone(_ET)
        return f"{et:%H:%M:%S} ET - {et:%Y/%m/%d}"

    # ------------------------------------------------------------------ events
    def event(self, e: Event) -> str | None:
        if isinstance(e, Action):
            return self.action(e)
        if isinstance(e, StreetStart):
            self.street, self.street_in, self.current, self.wagers = e.street, {}, 0, 0
            head = _STREET_LINES[e.street]
            return f"{head} [{e.community}]" if e.community is not None else head
        if isinstance(e, Deal):
            return self.deal(e)
        if isinstance(e, UncalledBet):
            return f"Uncalled bet of {self.money(e.amount)} returned to {e.player}"
        if isinstance(e, Show):
            self.shown[e.player] = e
            desc = self.words(e.description, e.cards)
            shown = _cards(shown_order(self.hand.game, e.cards))
            return f"{e.player} shows [{shown}]" + (f" {desc}" if desc else "")
        if isinstance(e, Muck):
            return f"{e.player} mucks"
        if isinstance(e, Collect):
            return self.collect(e)
        if isinstance(e, NoLowHand):
            return "No low hand qualified"
        if isinstance(e, TableNote):
            return self.note(e)
        if isinstance(e, BettingCapped | DoubleBetAllowed):
            return None  # Full Tilt prints neither
        raise TypeError(f"cannot write event {e!r}")

    def deal(self, e: Deal) -> str | None:
        if e.street is Street.THIRD:
            down, up = e.cards[:2], e.cards[2]
            if up is None:
                return None
            if down[0] is not None and down[1] is not None:
                return f"Dealt to {e.player} [{_cards(down)}] [{up}]"
            return f"Dealt to {e.player} [{up}]"
        if e.cards[0] is None:
            return None  # the site writes no line for a card nobody saw
        if e.before:
            return f"Dealt to {e.player} [{_cards(e.before)}] [{e.cards[0]}]"
        return f"Dealt to {e.player} [{e.cards[0]}]"

    def action(self, a: Action) -> str:
        m, k, p = self.money, a.kind, a.player
        before = self.street_in.get(p, 0)
        if k is ActionKind.ANTE:
            text = f"antes {m(a.amount)}"
        elif k is ActionKind.CHECK:
            return f"{p} checks"
        elif k is ActionKind.FOLD:
            return f"{p} folds"
        elif k is ActionKind.BRING_IN or k is ActionKind.CALL:
            word = "brings in for" if k is ActionKind.BRING_IN else "calls"
            text = f"{word} {m(a.amount)}"
            self.put(p, before + a.amount)
        else:  # a wager: bet, completion, raise
            if a.to_amount is not None:
                to = a.to_amount
            elif k is ActionKind.RAISE:
                to = self.current + a.amount
            else:
                to = before + a.amount
            if self.street is Street.THIRD and self.wagers == 0:
                text = f"completes it to {m(to)}"
            elif k is ActionKind.BET or (k is ActionKind.COMPLETE and self.wagers == 0):
                text = f"bets {m(to - before)}"
            else:
                text = f"raises to {m(to)}"
            self.wagers += 1
            self.put(p, to)
        return f"{p} {text}{_ALL_IN if a.all_in else ''}"

    def put(self, player: str, total: int) -> None:
        self.street_in[player] = total
        self.current = max(self.current, total)

    def collect(self, e: Collect) -> str:
        half, tied = self.halves.get(id(e), (None, False))
        if e.pot is PotKind.POT:
            pot = "pot"
        elif e.pot is PotKind.MAIN:
            pot = "main pot"
        elif self.n_sides <= 1:
            pot = "side pot"
        else:
            pot = f"side pot #{e.pot_index}"
        # "the pot", "the side pot", "side pot #2"; halves: "the high pot", "the low side pot #2"
        if half is not None:
            pot = f"the {half} {pot}"
        elif "#" not in pot:
            pot = f"the {pot}"
        verb = "ties for" if tied else "wins"
        text = f"{e.player} {verb} {pot} ({self.money(e.amount)})"
        desc = self.win_words(e.player, half)
        return f"{text} with {desc}" if desc else text

    def win_words(self, player: str, half: str | None) -> str | None:
        """What a collect line says the winner won with: the shown hand's words, the
        high or low part of them for a half of a hi/lo pot."""
        show = self.shown.get(player)
        if show is None:
            return None
        game = self.hand.game
        if game is not Game.STUD_HILO:
            return self.words(show.description, show.cards)
        words = self.words(show.description, show.cards)
        high, sep, low = (words or "").partition(", for high and ")
        if half == "low":
            if sep:
                return low.removesuffix(", for low")
            cards = self.plays(show.cards)
            return low_words(game, cards) if len(cards) >= 5 else None
        return high or None

    def words(self, own: str | None, cards: tuple[Card, ...]) -> str | None:
        """A shown hand's words: its own when read from Full Tilt, else Full Tilt's words
        for the cards it plays (the community card of a short deck included)."""
        if self.own:
            return own
        return describe_words(self.hand.game, self.plays(cards)) or own

    def plays(self, cards: tuple[Card, ...]) -> tuple[Card, ...]:
        """The cards a shown hand plays: with the community card of a short deck."""
        if self.community is not None and len(cards) == 6:
            return (*cards, self.community)
        return cards

    def note(self, e: TableNote) -> str:
        k, p = e.kind, e.player
        if k is NoteKind.CHAT:
            return f"{p}: {e.text}"
        if self.own or k is NoteKind.OTHER or p is None:
            return e.text
        if k is NoteKind.FINISHED:
            place = _ORDINAL.search(e.text)
            return f"{p} finished in {place[0]} place" if place else f"{p} stands up"
        return f"{p} {_NOTE_WORDS.get(k, 'stands up')}"

    # ----------------------------------------------------------------- summary
    def summary(self, s: Summary) -> list[str]:
        m = self.money
        pots = ""
        if s.main_pot is not None:
            pots = f" Main pot {m(s.main_pot)}."
            if len(s.side_pots) == 1:
                pots += f" Side pot {m(s.side_pots[0])}."
            else:
                pots += "".join(f" Side pot #{i} {m(x)}." for i, x in enumerate(s.side_pots, 1))
        out = ["*** SUMMARY ***", f"Total pot {m(s.total_pot)}{pots} | Rake {m(s.rake)}"]
        if s.board:
            out.append(f"Board: [{_cards(s.board)}]")
        out.extend(self.seat_result(r) for r in s.seats)
        return out

    def seat_result(self, r: SeatResult) -> str:
        head = f"Seat {r.seat}: {r.player}"
        o = r.outcome
        if o is SeatOutcome.FOLDED:
            return f"{head} folded on {_STREET_ABBR[r.folded_street or Street.THIRD]}"
        desc = self.words(r.description, r.cards) if r.cards else r.description
        with_desc = f" with {desc}" if desc else ""
        shown = _cards(shown_order(self.hand.game, r.cards))
        if o is SeatOutcome.SHOWED:
            if r.won:
                return f"{head} showed [{shown}] and won ({self.money(r.won)}){with_desc}"
            return f"{head} showed [{shown}] and lost{with_desc}"
        if o is SeatOutcome.MUCKED:
            cards = f" [{shown}]" if r.cards else ""
            return f"{head} mucked{cards}" + (f" - {desc}" if desc else "")
        if o is SeatOutcome.COLLECTED:
            mucked = ", mucked" if r.player in self.mucked else ""
            return f"{head} collected ({self.money(r.won)}){mucked}"
        return f"{head} is sitting out"

    # -------------------------------------------------------------------- hand
    def write(self) -> list[str]:
        h = self.hand
        lines = [self.header()]
        for s in h.seats:
            out = ", is sitting out" if s.sitting_out else ""
            lines.append(f"Seat {s.seat}: {s.player} ({self.money(s.stack)}){out}")
        events = h.events
        low_line = self.bring_in_card_line()
        last_street = max(
            (i for i, e in enumerate(events) if isinstance(e, StreetStart)), default=-1
        )
        exposed = any(isinstance(e, Show) for e in events[:last_street])
        showdown = exposed
        for i, e in enumerate(events):
            if not showdown and i > last_street and isinstance(e, Show):
                lines.append("*** SHOW DOWN ***")
                showdown = True
            line = self.event(e)
            if line is not None:
                lines.append(line)
            if (
                low_line
                and isinstance(e, Deal)
                and e.street is Street.THIRD
                and not (
                    i + 1 < len(events)
                    and isinstance(events[i + 1], Deal)
                    and events[i + 1].street is Street.THIRD  # type: ignore[union-attr]
                )
            ):
                lines.append(low_line)
                low_line = None
        if h.summary is not None:
            lines.extend(self.summary(h.summary))
        return lines

    def bring_in_card_line(self) -> str | None:
        """`X is low with [3c]` for the player who brings in (razz: `is high with`)."""
        h = self.hand
        who = next((a.player for a in h.actions() if a.kind is ActionKind.BRING_IN), None)
        if who is None:
            return None
        up = next(
            (
                e.cards[2]
                for e in h.events
                if isinstance(e, Deal) and e.street is Street.THIRD and e.player == who
            ),
            None,
        )
        if up is None:
            return None
        which = "high" if h.game is Game.RAZZ else "low"
        return f"{who} is {which} with [{up}]"


_NOTE_WORDS = {
    NoteKind.JOIN: "sits down",
    NoteKind.LEAVE: "stands up",
    NoteKind.REMOVED: "stands up",
    NoteKind.SIT_OUT: "is sitting out",
    NoteKind.RETURN: "has returned",
    NoteKind.TIMED_OUT: "has timed out",
    NoteKind.DISCONNECT: "is disconnected",
    NoteKind.CONNECT: "is connected",
}


def _halves(hand: Hand, community: Card | None) -> dict[int, tuple[str | None, bool]]:
    """id(collect) -> (its half: "high", "low" or None for a whole pot, whether the half
    is shared). The model keeps no half, so a hi/lo pot's collect lines are split as the
    sites print them: the high winners first (each once, all with the best high among
    the pot's collectors), then the low winners. A pot whose collectors all hold the best
    high is a whole pot (no qualifying low)."""
    groups: dict[tuple[PotKind, int], list[Collect]] = {}
    for e in hand.events:
        if isinstance(e, Collect):
            groups.setdefault((e.pot, e.pot_index), []).append(e)
    shown: dict[str, tuple[Card, ...]] = {}
    for e in hand.events:
        if isinstance(e, Show):
            shown[e.player] = (*e.cards, community) if community and len(e.cards) == 6 else e.cards
    out: dict[int, tuple[str | None, bool]] = {}
    for group in groups.values():
        high_count = len(group)
        if hand.game is Game.STUD_HILO and all(len(shown.get(c.player, ())) >= 5 for c in group):
            values = [high_value(shown[c.player]) for c in group]
            best = max(values)
            high_count = 0
            seen: set[str] = set()
            for c, v in zip(group, values, strict=True):
                if v != best or c.player in seen:
                    break
                seen.add(c.player)
                high_count += 1
        split = high_count < len(group)
        highs, lows = group[:high_count], group[high_count:]
        for part, half in ((highs, "high" if split else None), (lows, "low")):
            tied = len({c.player for c in part}) > 1
            for c in part:
                out[id(c)] = (half, tied)
    return out


def write_hand(hand: Hand, *, newline: str = "\n") -> str:
    """One hand as Full Tilt writes it, without the blank lines that follow it."""
    return newline.join(_Writer(hand).write())


def write_hands(hands: Iterable[Hand], *, newline: str = "\n") -> str:
    """Hands one after the other, each followed by three empty lines as in the client's
    files (pass newline="\\r\\n" for the client's CRLF line ends)."""
    end = newline * 4
    return "".join(write_hand(h, newline=newline) + end for h in hands)
