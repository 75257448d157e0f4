"""One PHH hand's fields reported to a `HandSink`: the same facts a site's text gives, so
the same `Hand`, audit and tables.

PHH says less than a site's text in places, and the format's own rules fill them in (so
these are readings of the record, not guesses): a street begins with its first card or,
when no cards are written, with the first action after the betting before it is over; `cc`
is a check or a call of what the player owes (all-in when that is all they have); `cbr X`
is the completion on 3rd street, a bet or a raise to a street total of X; a `pb` posts the
`bring_in` (or all the player has); each ante is the `antes` figure or the player's stack;
a bet nobody called goes back to its bettor when its street ends (no action says so).
Winnings are each player's total over all pots (`PotKind.TOTAL`): `winnings`, else what
`finishing_stacks` leave after the betting; with histkit's `_total_pot` they make the
summary, one line per player. Shows come after the last card, where a site writes them.

Amounts are integers in the hand's unit: `_unit` (histkit's own field) names it; without
it, a hand with a `currency` (or `currency_symbol`) is cash written in the currency's
whole units, converted to cents exactly, and any other hand counts chips.
"""

from __future__ import annotations

import datetime
from collections.abc import Callable
from decimal import Decimal
from typing import Any, Final
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from histkit.cards import Card, parse_card
from histkit.dialects.sink import MAX_AMOUNT, HandError, HandSink
from histkit.model import ActionKind, Game, Hand, NoteKind, PotKind, SeatOutcome, Street, Unit
from histkit.phh.ledger import Ledger
from histkit.phh.reader import Lines
from histkit.phh.writer import VARIANTS
from histkit.reading.split import ParseIssue

__all__ = ["GAMES", "build_hand"]

GAMES: dict[str, Game] = {v: k for k, v in VARIANTS.items()}

# the street and face of a player's n-th card (0-based): two down and one up on 3rd, one
# up on each of 4th to 6th, one down on 7th
_STREET_OF_CARD: Final = (3, 3, 3, 4, 5, 6, 7)
_UP_OF_CARD: Final = (False, False, True, True, True, True, False)
_QUOTA: Final = {3: 3, 4: 1, 5: 1, 6: 1, 7: 1}
_WAGERS: Final = frozenset({"pb", "cbr", "cc", "f"})


def build_hand(
    fields: dict[str, Any], source: str, at: Lines, *, default_id: str
) -> Hand | ParseIssue:
    """The `Hand` of one hand's fields, or the issue (skipped: another game; rejected:
    what is wrong, at its line)."""
    hand_id = fields.get("hand")
    hand_id = str(hand_id) if isinstance(hand_id, str | int) and str(hand_id) else default_id
    variant = fields.get("variant")
    if not isinstance(variant, str):
        why = "no variant: a PHH hand names its game (F7S, F7S/8, FR for stud)"
        return ParseIssue(source, at.first, None, hand_id, "rejected", why)
    game = GAMES.get(variant)
    if game is None:
        line = at.of_key("variant")
        why = f"other game: {variant}"
        return ParseIssue(source, line, None, hand_id, "skipped", why, game=variant)
    try:
        return _HandReader(fields, source, at, hand_id, game).build()
    except HandError as e:
        return ParseIssue(source, e.line or at.first, None, hand_id, "rejected", e.message)


def _site_of(venue: object) -> str | None:
    """The site a `venue` names (a dialect's title, as histkit writes it), else None."""
    if not isinstance(venue, str):
        return None
    global _TITLES
    if _TITLES is None:
        from histkit.dialects import get_dialect, known_sites

        _TITLES = {}
        for name in known_sites():
            d = get_dialect(name)
            if d.title and d.site != "phh":
                _TITLES.setdefault(d.title.casefold(), d.site)
    return _TITLES.get(venue.strip().casefold())


_TITLES: dict[str, str] | None = None


class _HandReader:
    """Reads one hand's fields into a sink, keeping the betting's bookkeeping that PHH
    leaves to its reader (who owes what, whose chips are all in, when a street is over)."""

    def __init__(self, f: dict[str, Any], source: str, at: Lines, hand_id: str, game: Game):
        self.f = f
        self.at = at
        self.hand_id = hand_id
        self.game = game
        site = f.get("_site")
        if not isinstance(site, str) or not site:
            site = _site_of(f.get("venue")) or "phh"
        self.sink = HandSink(site, source, at.first, "phh")
        unit = f.get("_unit")
        if unit is None:
            cash = isinstance(f.get("currency"), str) or isinstance(f.get("currency_symbol"), str)
            self.unit, self.scale = (Unit.CENT, 100) if cash else (Unit.CHIP, 1)
        elif unit in ("cent", "chip"):
            self.unit, self.scale = Unit(unit), 1
        else:
            raise HandError(f"_unit is {unit!r}, not 'cent' or 'chip'", at.of_key("_unit"))

    # -- fields ----------------------------------------------------------------------

    def line(self, name: str) -> int:
        return self.at.of_key(name)

    def get(self, name: str, kind: type | tuple[type, ...], *, required: bool = False) -> Any:
        value = self.f.get(name)
        if value is None:
            if required:
                raise HandError(f"the field {name} is missing", self.at.first)
            return None
        if isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
            raise HandError(f"{name} is {value!r}, not {_kind_name(kind)}", self.line(name))
        if not isinstance(value, kind):
            raise HandError(f"{name} is {value!r}, not {_kind_name(kind)}", self.line(name))
        return value

    def amount(self, value: object, what: str, line: int) -> int:
        """An amount of the hand's unit: an integer (or, for cash in whole currency units,
        a decimal of whole cents); never a float, never negative or absurd."""
        if isinstance(value, bool) or not isinstance(value, int | Decimal | str):
            raise HandError(f"{what} is {value!r}, not an amount", line)
        if isinstance(value, int):
            n = value * self.scale
        else:
            try:
                number = Decimal(value) * self.scale
                if not number.is_finite() or number.adjusted() >= 18:  # never expanded
                    raise HandError(f"{what} is {value!r}: out of range", line)
                whole = number == number.to_integral_value()
            except ArithmeticError:
                raise HandError(f"{what} is {value!r}, not an amount", line) from None
            if not whole:
                unit = "cents" if self.unit is Unit.CENT else "chips"
                raise HandError(f"{what} is {value!r}: not a whole number of {unit}", line)
            n = int(number)
        if not 0 <= n <= MAX_AMOUNT:
            raise HandError(f"{what} is {value!r}: out of range", line)
        return n

    def amounts(self, name: str, n: int, *, required: bool = False) -> list[int] | None:
        value = self.f.get(name)
        if value is None:
            if required:
                raise HandError(f"the field {name} is missing", self.at.first)
            return None
        line = self.line(name)
        if isinstance(value, int | Decimal) and not isinstance(value, bool):
            value = [value] * n
        if not isinstance(value, list) or len(value) != n:
            raise HandError(f"{name} must list one amount for each of the {n} players", line)
        return [self.amount(v, name, line) for v in value]

    # -- the hand --------------------------------------------------------------------

    def build(self) -> Hand:
        stacks_raw = self.get("starting_stacks", list, required=True)
        n = len(stacks_raw)
        if not 2 <= n <= 99:
            raise HandError(
                f"{n} starting stacks: a stud hand has 2 to 8 players", self.line("starting_stacks")
            )
        stacks = self.amounts("starting_stacks", n, required=True) or []
        names = self.get("players", list) or [f"p{i}" for i in range(1, n + 1)]
        if len(names) != n or not all(isinstance(x, str) and x for x in names):
            raise HandError(f"players must name each of the {n} players", self.line("players"))
        seat_nos = self.get("seats", list) or list(range(1, n + 1))
        if len(seat_nos) != n or not all(
            isinstance(x, int) and not isinstance(x, bool) for x in seat_nos
        ):
            raise HandError(
                f"seats must give a seat number for each of the {n} players", self.line("seats")
            )
        self._header(n)
        self._seats(names, seat_nos, stacks)
        antes = self.amounts("antes", n, required=True) or []
        bring_in = self.amount(
            self.get("bring_in", (int, Decimal), required=True), "bring_in", self.line("bring_in")
        )
        play = _Play(self, names, stacks, bring_in)
        for p, ante in zip(names, antes, strict=True):
            if ante > 0:
                play.ante(p, ante, self.line("antes"))
        actions = self.get("actions", list, required=True)
        lines = self.at.of_strings("actions", len(actions))
        self.sink.street_start(Street.THIRD, lines[0] if lines else self.line("actions"))
        for text, line in zip(actions, lines, strict=True):
            if not isinstance(text, str):
                raise HandError(f"an action is {text!r}, not a string", line)
            play.action(text, line)
        play.finish(lines[-1] if lines else self.line("actions"))
        self._notes()
        self._results(names, play)
        hero = self.get("_hero", str)
        if hero is not None:
            self.sink.set_hero(self.sink.player(hero, self.line("_hero")))
        return self.sink.build()

    def _header(self, n: int) -> None:
        small = self.amount(
            self.get("small_bet", (int, Decimal), required=True),
            "small_bet",
            self.line("small_bet"),
        )
        big = self.amount(
            self.get("big_bet", (int, Decimal), required=True), "big_bet", self.line("big_bet")
        )
        currency = self.get("currency", str) if self.unit is Unit.CENT else None
        currency = currency or self.get("_currency", str)
        level = self.get("_level", str)
        if level is None:
            number = self.get("level", (int, str))
            level = None if number is None else str(number)
        table = self.get("table", (str, int))
        started_at, local = self._time()
        tournament = self.get("_tournament", (str, int))
        antes = self.f.get("antes")
        ante = None
        if isinstance(antes, list) and antes and all(a == antes[0] for a in antes):
            ante = self.amount(antes[0], "antes", self.line("antes"))
        elif isinstance(antes, int | Decimal) and not isinstance(antes, bool):
            ante = self.amount(antes, "antes", self.line("antes"))
        bring_in = self.f.get("bring_in")
        stated_bring_in = None
        if bring_in:
            stated_bring_in = self.amount(bring_in, "bring_in", self.line("bring_in"))
        table_hand = self.get("_table_hand", int)
        self.sink.header(
            hand_id=self.hand_id,
            game=self.game,
            small_bet=small,
            big_bet=big,
            unit=self.unit,
            currency=currency,
            started_at=started_at,
            local_time=self.get("_local_time", str) or local,
            tournament_id=None if tournament is None else str(tournament),
            level=level,
            buy_in=self.get("_buy_in", str),
            mix=self.get("_mix", str),
            ante=ante or None,
            bring_in=stated_bring_in,
            table="" if table is None else str(table),
            max_seats=self.get("seat_count", int),
            table_hand=table_hand,
        )

    def _time(self) -> tuple[datetime.datetime | None, str | None]:
        """The start time (UTC) from PHH's time, time_zone, day, month and year, and the
        text it was read from; (None, None) when they do not give a date and a time."""
        day, month, year = (self.get(k, int) for k in ("day", "month", "year"))
        time = self.get("time", (datetime.time, str))
        if None in (day, month, year, time):
            return None, None
        try:
            if isinstance(time, str):
                time = datetime.time.fromisoformat(time)
            local = datetime.datetime.combine(datetime.date(year, month, day), time)
        except ValueError:
            raise HandError(
                f"no such date and time: {year}-{month}-{day} {time}", self.line("time")
            ) from None
        zone_name = self.get("time_zone", str)
        text = f"{year:04d}/{month:02d}/{day:02d} {time.strftime('%H:%M:%S')}"
        if zone_name is None:
            return None, text
        text += f" {zone_name}"
        try:
            zone = datetime.UTC if zone_name.upper() == "UTC" else ZoneInfo(zone_name)
        except (ZoneInfoNotFoundError, ValueError):
            return None, text  # a zone we cannot place: the time stays text
        return local.replace(tzinfo=zone).astimezone(datetime.UTC), text

    def _seats(self, names: list[str], seat_nos: list[int], stacks: list[int]) -> None:
        flagged = set(self.get("_sitting_out", list) or ())
        seats = [
            (no, name, stack, name in flagged, self.line("players"))
            for no, name, stack in zip(seat_nos, names, stacks, strict=True)
        ]
        line = self.line("_not_in_hand")
        for entry in self.get("_not_in_hand", list) or ():
            if not isinstance(entry, dict) or not isinstance(entry.get("player"), str):
                raise HandError("_not_in_hand lists seats as {seat, player, stack}", line)
            no = entry.get("seat")
            if not isinstance(no, int) or isinstance(no, bool):
                raise HandError(f"_not_in_hand: seat {no!r} is not a seat number", line)
            stack = self.amount(entry.get("stack", 0), "_not_in_hand stack", line)
            seats.append((no, entry["player"], stack, bool(entry.get("sitting_out", False)), line))
        for no, name, stack, out, at in sorted(seats, key=lambda s: s[0]):
            self.sink.seat(no, name, stack, out, at)
        seat_count = self.get("seat_count", int)
        self.sink.table(str(self.f.get("table", "")), seat_count, self.line("seat_count"))

    def _notes(self) -> None:
        """histkit's `_notes`: the record's chat lines and table notes, in order."""
        line = self.line("_notes")
        for n in self.get("_notes", list) or ():
            if not isinstance(n, dict) or not isinstance(n.get("text"), str):
                raise HandError("_notes lists notes as {kind, player, text}", line)
            try:
                kind = NoteKind(n.get("kind", "other"))
            except ValueError:
                raise HandError(f"_notes: no note kind {n.get('kind')!r}", line) from None
            who = n.get("player")
            player = who if isinstance(who, str) else None  # a note may name anyone
            self.sink.note(kind, player, n["text"], line)

    def _results(self, names: list[str], play: _Play) -> None:
        """PHH's `winnings` (each player's total over all pots) and, where histkit wrote
        them, the pot's total and rake: the hand's summary, one line per player."""
        winnings = self.amounts("winnings", len(names))
        won_line = self.line("winnings")
        finishing = self.amounts("finishing_stacks", len(names))
        if winnings is None and finishing is not None:  # what each took from the pot
            won_line = self.line("finishing_stacks")
            left = play.ledger.stack
            winnings = [end - left[p] for p, end in zip(names, finishing, strict=True)]
            if min(winnings) < 0:
                raise HandError(
                    "finishing_stacks leave a player with less than the betting left them",
                    won_line,
                )
        if winnings is not None:
            for p, won in zip(names, winnings, strict=True):
                if won > 0:
                    self.sink.collect(p, won, PotKind.TOTAL, 0, won_line)
        total = self.f.get("_total_pot")
        if total is None:
            return
        line = self.line("_total_pot")
        rake = self.amount(self.f.get("_rake", 0), "_rake", self.line("_rake"))
        fee = self.amount(self.f.get("_fee", 0), "_fee", self.line("_fee"))
        self.sink.summary_start(line)
        self.sink.pot_total(self.amount(total, "_total_pot", line), rake, None, (), line, fee)
        if winnings is None:
            return
        shown = {p: cards for p, (cards, _) in play.shows.items()}
        seat_of = {s.player: s.seat for s in self.sink.seats}
        for p, won in zip(names, winnings, strict=True):
            folded = play.folded_on.get(p)
            cards: tuple[Card, ...] = ()
            if folded is not None:
                outcome = SeatOutcome.FOLDED
            elif shown.get(p):
                outcome, cards = SeatOutcome.SHOWED, shown[p]
            elif p in shown:
                outcome = SeatOutcome.MUCKED
            elif won:
                outcome = SeatOutcome.COLLECTED
            else:
                outcome = SeatOutcome.OTHER
            street = None if folded is None else Street(folded)
            self.sink.result(seat_of[p], p, outcome, won, cards, None, street, False, won_line)


def _kind_name(kind: type | tuple[type, ...]) -> str:
    names = {
        int: "an integer",
        str: "a string",
        list: "a list",
        Decimal: "a number",
        datetime.time: "a time",
        dict: "a table",
        bool: "true or false",
    }
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(names.get(k, k.__name__) for k in kinds)


class _Play:
    """The actions of one hand, in order, reported to the sink with what PHH leaves to
    its reader (`Ledger`): the street, the chips a check or call puts in, all-in marks,
    and which wager a `cbr` is. Shows and mucks are reported after the last card, where a
    site writes its showdown (PHH has an all-in showdown before the cards still to come)."""

    def __init__(self, r: _HandReader, names: list[str], stacks: list[int], bring_in: int):
        self.r = r
        self.sink = r.sink
        self.names = names
        self.ledger = Ledger(dict(zip(names, stacks, strict=True)))
        self.bring_in = bring_in
        small_bet = r.sink.head["small_bet"]
        assert isinstance(small_bet, int)
        self.small_bet = small_bet
        self.dealt = dict.fromkeys(names, 0)  # cards dealt so far
        self.pending: dict[str, list[Card | None]] = {}  # this street's cards not reported yet
        self.completed = False  # 3rd street: the betting has been completed
        # each player's showdown, held to the end: the cards shown (none: a muck) and the
        # line; PHH may show a hand twice (an all-in showdown, then the cards after it)
        self.shows: dict[str, tuple[tuple[Card, ...], int]] = {}
        self.folded_on: dict[str, int] = {}  # who folded, on which street
        self._handlers: dict[str, Callable[[str, list[str], int], None]] = {
            "pb": self._bring_in,
            "cbr": self._wager,
            "cc": self._check_call,
            "f": self._fold,
            "sm": self._show,
        }

    def player(self, label: str, line: int) -> str:
        if label[:1] == "p" and label[1:].isdigit() and 1 <= int(label[1:]) <= len(self.names):
            return self.names[int(label[1:]) - 1]
        raise HandError(f"{label!r} is no player of this hand (p1 to p{len(self.names)})", line)

    def cards(self, text: str, line: int) -> list[Card | None]:
        if len(text) % 2:
            raise HandError(f"cards {text!r}: each card is two characters (Ah, ??)", line)
        out: list[Card | None] = []
        for i in range(0, len(text), 2):
            token = text[i : i + 2]
            if token == "??":
                out.append(None)
                continue
            try:
                out.append(parse_card(token))
            except ValueError:
                raise HandError(f"{token!r} is not a card", line) from None
        return out

    def ante(self, p: str, ante: int, line: int) -> None:
        chips = min(ante, self.ledger.stack[p])
        self.ledger.dead(p, chips)
        self.sink.action(ActionKind.ANTE, p, chips, None, self.ledger.stack[p] == 0, line)

    # -- streets ---------------------------------------------------------------------

    def _start(self, street: int, line: int, community: Card | None = None) -> None:
        self._check_dealt(line)
        self._return_uncalled(line)
        self.ledger.new_street(street)
        self.sink.street_start(Street(street), line, community)

    def _check_dealt(self, line: int) -> None:
        for p, cards in self.pending.items():
            if cards:
                street = self.ledger.street
                raise HandError(
                    f"{p!r} is dealt {len(cards)} of the {_QUOTA[street]} cards of street {street}",
                    line,
                )

    # -- actions ---------------------------------------------------------------------

    def action(self, text: str, line: int) -> None:
        words = (text[: text.index("#")] if "#" in text else text).split()
        if not words:
            return  # a comment
        if words[0] == "d":
            if len(words) == 4 and words[1] == "dh":
                self._deal(self.player(words[2], line), self.cards(words[3], line), line)
            elif len(words) == 3 and words[1] == "db":
                self._board(self.cards(words[2], line), line)
            else:
                raise HandError(f"a dealing action not understood: {text!r}", line)
            return
        handler = self._handlers.get(words[1]) if len(words) >= 2 else None
        if handler is None:
            if len(words) >= 2 and words[1] == "sd":
                raise HandError(f"{text!r} draws cards: no stud action", line)
            raise HandError(f"action not understood: {text!r}", line)
        p = self.player(words[0], line)
        if words[1] in _WAGERS:
            if len(words) != (3 if words[1] == "cbr" else 2):
                raise HandError(f"action not understood: {text!r}", line)
            ledger = self.ledger
            if len(ledger.live) > 1 and ledger.round_over():
                if ledger.street == 7:
                    raise HandError(f"{text!r} comes after the last betting round is over", line)
                self._start(ledger.street + 1, line)
        handler(p, words[2:], line)

    def _deal(self, p: str, cards: list[Card | None], line: int) -> None:
        for card in cards:
            n = self.dealt[p]
            if n >= 7:
                raise HandError(f"more than seven cards dealt to {p!r}", line)
            street = _STREET_OF_CARD[n]
            if street > self.ledger.street:
                self._start(street, line)
            elif street < self.ledger.street:
                raise HandError(
                    f"{p!r} is dealt a card of street {street} on street {self.ledger.street}",
                    line,
                )
            self.dealt[p] = n + 1
            got = self.pending.setdefault(p, [])
            got.append(card)
            if len(got) == _QUOTA[street]:
                up = _UP_OF_CARD[n + 1 - len(got) : n + 1]
                self.sink.deal(p, tuple(got), up, (), line)
                got.clear()

    def _board(self, cards: list[Card | None], line: int) -> None:
        """`d db C`: the community card dealt face up when the deck cannot give every
        player a 7th-street card; it opens 7th street, before any 7th-street card."""
        if len(cards) != 1 or cards[0] is None:
            raise HandError("a board card in stud is the one community card of 7th street", line)
        if self.ledger.street >= 7:
            raise HandError("the community card comes after 7th street began", line)
        self._start(7, line, cards[0])

    def _bring_in(self, p: str, args: list[str], line: int) -> None:
        if self.bring_in <= 0:
            raise HandError(f"{p!r} posts the bring-in, but the hand's bring_in is 0", line)
        chips = min(self.bring_in, self.ledger.stack[p])
        self.ledger.put(p, chips)
        all_in = self.ledger.stack[p] == 0
        self.sink.action(ActionKind.BRING_IN, p, chips, None, all_in, line)

    def _wager(self, p: str, args: list[str], line: int) -> None:
        ledger = self.ledger
        to = self.r.amount(args[0], "the amount of a cbr", line)
        bet = ledger.bet
        if to <= bet:
            raise HandError(f"{p!r} bets or raises to {to}, not above the {bet} standing", line)
        all_in = to - ledger.street_in[p] == ledger.stack[p]
        if ledger.street == 3 and not self.completed and bet < self.small_bet:
            kind, amount = ActionKind.COMPLETE, to - bet
            self.completed = True
        elif bet == 0:
            kind, amount = ActionKind.BET, to - ledger.street_in[p]
        else:
            kind, amount = ActionKind.RAISE, to - bet
        ledger.wager_to(p, to)
        self.sink.action(kind, p, amount, None if kind is ActionKind.BET else to, all_in, line)

    def _check_call(self, p: str, args: list[str], line: int) -> None:
        chips = self.ledger.owed(p)
        self.ledger.put(p, chips)
        if chips == 0:
            self.sink.action(ActionKind.CHECK, p, 0, None, False, line)
        else:
            all_in = self.ledger.stack[p] == 0
            self.sink.action(ActionKind.CALL, p, chips, None, all_in, line)

    def _fold(self, p: str, args: list[str], line: int) -> None:
        self.ledger.fold(p)
        self.folded_on[p] = self.ledger.street
        self.sink.action(ActionKind.FOLD, p, 0, None, False, line)

    def _show(self, p: str, args: list[str], line: int) -> None:
        if len(args) > 1:
            raise HandError(f"a show not understood: {' '.join(args)!r}", line)
        if args and args[0] == "-":
            raise HandError(f"{p!r} shows '-': name the cards shown", line)
        if not args:  # a muck, unless the hand was shown already
            self.shows.setdefault(p, ((), line))
            return
        known = tuple(c for c in self.cards(args[0], line) if c is not None)
        if not known:
            return  # the cards stay face down (till a later showdown)
        before = self.shows.get(p, ((), line))[0]
        self.shows[p] = (before + tuple(c for c in known if c not in before), line)

    def _return_uncalled(self, line: int) -> None:
        """The street's bet that nobody called goes back to its bettor (PHH's rule: no
        action says so)."""
        found = self.ledger.uncalled()
        if found is not None:
            self.ledger.returned(*found)
            self.sink.uncalled(found[0], found[1], line)

    def finish(self, line: int) -> None:
        """The end of the actions: every street's deal complete, the bet nobody called
        returned, the showdown reported."""
        self._check_dealt(line)
        self._return_uncalled(line)
        for p, (cards, at) in self.shows.items():
            if cards:
                self.sink.show(p, cards, None, at)
            else:
                self.sink.muck(p, False, at)
