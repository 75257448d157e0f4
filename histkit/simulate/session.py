"""Sessions: consecutive hands at tables, stacks carried over, players leaving and joining.

One hero sits at every table (the hero's hole cards are the ones written). Cash tables
have a currency, stakes and a rake schedule; tournaments have chips, levels that rise
every few hands and players who bust out. Everything is drawn from one seeded
`random.Random`, so a seed gives the same hands on every machine.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

from histkit.accounting import collections, contributions
from histkit.model import Collect, Deal, Game, Hand, NoteKind, TableNote, Unit
from histkit.money import parse_buy_in
from histkit.rules.profile import POKERSTARS, RuleProfile
from histkit.simulate.config import (
    NO_RAKE,
    TOURNAMENT_LEVELS,
    NameMaker,
    RakeSchedule,
    Stakes,
    Style,
    TableNamer,
    random_style,
)
from histkit.simulate.faults import FAULT_KINDS, inject_fault
from histkit.simulate.play import HandSetup, PlayedHand, SimPlayer, play_hand
from histkit.simulate.policy import PLAYS

__all__ = ["CURRENCIES", "TABLE_SIZES", "SessionConfig", "iter_played", "table_size"]

_ET = ZoneInfo("America/New_York")
MAX_SEATS = 8
#: The table sizes stud is dealt at (heads-up, 6-max, full ring: the corpus has all three;
#: 8 is the most seven cards each allow): without `seats`, a table is the smallest of them
#: that seats the players, as a site seats 5 players at a 6-max table.
TABLE_SIZES = (2, 6, 8)
#: The cash currencies the simulator writes ($, €, £).
CURRENCIES = ("USD", "EUR", "GBP")


def table_size(players: int) -> int:
    """The size of the table `players` are seated at when no size is asked for."""
    return next(n for n in TABLE_SIZES if n >= players)


@dataclass(frozen=True, slots=True)
class SessionConfig:
    game: Game
    n_hands: int
    players: int = 6  # players seated at each table (2..8)
    seats: int | None = None  # the table's size, N-max (default: `table_size(players)`)
    seed: int = 0
    stakes: Stakes | None = None
    tournament: bool = False
    hero: str = "Hero"
    tables: int = 1
    rake: RakeSchedule | None = None
    profile: RuleProfile = POKERSTARS
    family_pot_rate: float = 0.03  # hands where nobody folds (the deck can run out)
    currency: str = "USD"  # cash games: one of CURRENCIES
    faults: float = 0.0  # share of hands written with a payout fault
    fault_kinds: tuple[str, ...] = FAULT_KINDS
    start: datetime | None = None
    play: str = "equity"  # how the players decide: "equity" or "random" (policy.PLAYS)

    def __post_init__(self) -> None:
        if self.play not in PLAYS:
            raise ValueError(f"play must be one of {', '.join(PLAYS)}, got {self.play!r}")
        if unknown := set(self.fault_kinds) - set(FAULT_KINDS):
            raise ValueError(f"unknown fault kinds {sorted(unknown)}; known: {FAULT_KINDS}")
        if self.currency not in CURRENCIES:
            raise ValueError(f"currency must be {', '.join(CURRENCIES)}, got {self.currency!r}")
        if not self.hero.strip():
            raise ValueError("the hero needs a name")
        if not 0.0 <= self.faults <= 1.0:
            raise ValueError(f"faults must be a rate in [0, 1], got {self.faults}")
        if not 2 <= self.players <= MAX_SEATS:
            raise ValueError(f"players must be 2..{MAX_SEATS}, got {self.players}")
        if self.seats is not None and not self.players <= self.seats <= MAX_SEATS:
            raise ValueError(
                f"seats (the table's size) must be {self.players}..{MAX_SEATS} for "
                f"{self.players} players, got {self.seats}"
            )
        if self.n_hands < 0 or self.tables < 1:
            raise ValueError("n_hands must be >= 0 and tables >= 1")


class _SimTable:
    """One table of a session: seats, stacks and the next hand's setup."""

    def __init__(self, session: _Session, index: int) -> None:
        self.session = session
        self.rng = session.rng
        cfg = session.cfg
        self.max_seats = cfg.seats or table_size(cfg.players)
        self.seats: dict[int, SimPlayer] = {}
        self.hands_played = 0
        self.tournament_id: str | None = None
        self.buy_in: str | None = None
        if cfg.tournament:
            self.tournament_id = str(self.rng.randint(3_000_000_000, 3_900_000_000))
            self.name = f"{self.tournament_id} {self.rng.randint(1, 40)}"
            self.buy_in = self.rng.choice(["$0.98+$0.12 USD", "$3.00+$0.30 USD", "$9.60+$0.40 USD"])
        else:
            self.name = session.namer.cash()
        seats = list(range(1, self.max_seats + 1))
        self.rng.shuffle(seats)
        hero_seat = seats.pop()
        self.seats[hero_seat] = SimPlayer(
            cfg.hero, hero_seat, self.buy_in_stack(hero=True), self.style()
        )
        for seat in seats[: cfg.players - 1]:
            self.seats[seat] = self.new_player(seat)

    def style(self) -> Style:
        return random_style(self.rng)

    def stakes(self) -> tuple[Stakes, str | None]:
        cfg = self.session.cfg
        if cfg.tournament:
            level = TOURNAMENT_LEVELS[min(self.hands_played // 12, len(TOURNAMENT_LEVELS) - 1)]
            return level.stakes, level.name
        return cfg.stakes or Stakes.for_small_bet(4), None

    def buy_in_stack(self, *, hero: bool = False) -> int:
        """Cash: 10-60 big bets, sometimes a short 1-5; tournaments: the starting 1500
        early on, later a random stack around it (players moved in from other tables)."""
        r = self.rng
        if self.session.cfg.tournament:
            if self.hands_played == 0 or hero:
                return 1500
            return r.choice([r.randint(200, 1500), r.randint(1500, 6000)])
        stakes, _ = self.stakes()
        big = stakes.big_bet
        if not hero and r.random() < 0.2:
            return r.randint(1, 5) * big + r.randint(0, big - 1)
        return r.randint(10, 60) * big

    def new_player(self, seat: int) -> SimPlayer:
        return SimPlayer(self.session.names.make(), seat, self.buy_in_stack(), self.style())

    def play(self, hand_id: str, when: datetime) -> PlayedHand | None:
        """Play the next hand, then let players leave and join (the notes go into it)."""
        cfg = self.session.cfg
        stakes, level = self.stakes()
        players = [p for p in self.seats.values() if p.stack > 0]
        if len(players) < 2:
            return None
        hero = cfg.hero if any(p.name == cfg.hero for p in players) else None
        et = when.astimezone(_ET)
        setup = HandSetup(
            game=cfg.game,
            hand_id=hand_id,
            table=self.name,
            max_seats=self.max_seats,
            stakes=stakes,
            started_at=when.astimezone(UTC),
            local_time=f"{et:%Y/%m/%d} {et.hour}:{et:%M:%S} ET",
            unit=Unit.CHIP if cfg.tournament else Unit.CENT,
            currency=None if cfg.tournament else cfg.currency,
            rake=NO_RAKE if cfg.tournament else (cfg.rake or RakeSchedule()),
            hero=hero,
            tournament_id=self.tournament_id,
            level=level,
            buy_in=self.buy_in,
            profile=cfg.profile,
            family_pot=self.rng.random() < cfg.family_pot_rate,
            play=cfg.play,
        )
        played = play_hand(setup, players, self.rng)
        self.hands_played += 1
        session = self.session
        if cfg.faults and session.fault_rng.random() < cfg.faults:
            session.faults_owed += 1  # planted in this hand, or the next one that allows it
        if session.faults_owed:
            planted = inject_fault(played, session.fault_rng, setup.rake, cfg.fault_kinds)
            if planted is not None:
                session.faults_owed -= 1
                # the site's wrong payout is what the players really got: stacks follow it
                hand, fault = planted
                start = {s.player: s.stack for s in hand.seats}
                put, got = contributions(hand), collections(hand)
                final = {n: start[n] - put.get(n, 0) + got.get(n, 0) for n in start}
                played = replace(played, hand=hand, fault=fault, final_stacks=final)
        for p in players:
            p.stack = played.final_stacks[p.name]
        return replace(played, hand=self.comings_and_goings(played.hand))

    def hero_finish(self, name: str) -> TableNote:
        """The line that ends the hero's tournament: a place, and a prize when it is in
        the money (drawn apart from the play, so the hands stay as they were)."""
        r = self.session.result_rng
        field_size = r.choice([45, 90, 180, 360, 720])
        place = r.randint(2, field_size)
        text = f"{name} finished the tournament in {_ordinal(place)} place"
        paid = field_size * 15 // 100
        bought = parse_buy_in(self.buy_in, {"$": "USD"})
        if place <= paid and bought is not None:  # the prize pool shared as 1/place
            harmonic = sum(1_000_000 // k for k in range(1, paid + 1))
            cents = bought[0] * field_size * 1_000_000 // (place * harmonic)
            text += f" and received ${cents // 100}.{cents % 100:02d}."
        return TableNote(NoteKind.FINISHED, name, text)

    def comings_and_goings(self, hand: Hand) -> Hand:
        """Busted players and a few others leave, empty seats fill, someone chats or loses
        the connection. The site prints these lines inside the hand being played: a
        leaver after their last action, a newcomer after the 3rd-street cards, a busted
        tournament player after the pot is collected."""
        cfg, r = self.session.cfg, self.rng
        events = list(hand.events)
        deals = [i for i, e in enumerate(events) if isinstance(e, Deal) and e.street == 3]
        collects = [i for i, e in enumerate(events) if isinstance(e, Collect)]
        opened, paid = deals[-1] + 1, collects[0] if collects else len(events)
        placed: list[tuple[int, TableNote]] = []  # (insert before this event index, note)

        def after_last_move(name: str) -> int:
            mine = [i for i, e in enumerate(events) if getattr(e, "player", None) == name]
            first = (mine[-1] + 1) if mine else opened
            return r.randint(first, max(first, paid))

        for seat, p in sorted(self.seats.items()):
            if p.name == cfg.hero:
                if cfg.tournament and p.stack == 0:  # the hero's tournament ends here
                    placed.append((len(events), self.hero_finish(p.name)))
                continue
            busted = p.stack == 0
            if busted or r.random() < 0.03:
                if cfg.tournament and busted:
                    text = (
                        f"{p.name} finished the tournament in {_ordinal(r.randint(2, 400))} place"
                    )
                    placed.append((len(events), TableNote(NoteKind.FINISHED, p.name, text)))
                else:
                    note = TableNote(NoteKind.LEAVE, p.name, f"{p.name} leaves the table")
                    placed.append((after_last_move(p.name), note))
                del self.seats[seat]
        for seat in range(1, self.max_seats + 1):
            if len(self.seats) >= cfg.players:
                break
            if seat not in self.seats and r.random() < 0.5:
                newcomer = self.new_player(seat)
                self.seats[seat] = newcomer
                text = f"{newcomer.name} joins the table at seat #{seat}"
                placed.append(
                    (r.randint(opened, paid), TableNote(NoteKind.JOIN, newcomer.name, text))
                )
        seated = [p.name for p in self.seats.values() if p.name in {s.player for s in hand.seats}]
        if seated and r.random() < 0.04:
            who = r.choice(seated)
            at = r.randint(opened, paid)
            placed.append((at, TableNote(NoteKind.DISCONNECT, who, f"{who} is disconnected")))
            placed.append(
                (r.randint(at, paid), TableNote(NoteKind.CONNECT, who, f"{who} is connected"))
            )
        if seated and r.random() < 0.05:
            who = r.choice(seated)
            placed.append(
                (r.randint(opened, len(events)), TableNote(NoteKind.CHAT, who, r.choice(_CHAT)))
            )
        if not placed:
            return hand

        # insert from the back so earlier indices stay valid; at one index, in placing order
        def settled(at: int) -> int:  # never inside a street's block of `Dealt to` lines
            while at < len(events) and isinstance(events[at], Deal):
                at += 1
            return at

        placed = [(settled(at), note) for at, note in placed]
        order = sorted(range(len(placed)), key=lambda k: (placed[k][0], k), reverse=True)
        for k in order:
            events.insert(*placed[k])
        return replace(hand, events=tuple(events))


_CHAT = ("nh", "gl", "ty", "lol", "nice hand", "gg", "wow", "sick river", "ugh", "vnh")


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


class _Session:
    def __init__(self, cfg: SessionConfig) -> None:
        self.cfg = cfg
        self.rng = random.Random(cfg.seed)
        self.fault_rng = random.Random(f"faults-{cfg.seed}")  # faults never change the play
        self.result_rng = random.Random(f"results-{cfg.seed}")  # nor do tournament results
        # faults drawn but not yet planted: most hands allow no payout fault (no low half,
        # no tie, no side pot), so a drawn fault waits for the next hand that does, and
        # `faults` is the share of hands that carry one (as far as enough hands allow)
        self.faults_owed = 0
        self.names = NameMaker(self.rng, {cfg.hero})
        self.namer = TableNamer(self.rng)
        start = cfg.start or datetime(2024, 6, 3, 14, 0, tzinfo=UTC) + timedelta(
            days=self.rng.randint(0, 60), seconds=self.rng.randint(0, 36_000)
        )
        self.clock = start
        self.next_id = self.rng.randint(200_000_000_000, 250_000_000_000)

    def hands(self) -> Iterator[PlayedHand]:
        tables = [_SimTable(self, i) for i in range(self.cfg.tables)]
        done = 0
        while done < self.cfg.n_hands:
            for i, table in enumerate(tables):
                if done >= self.cfg.n_hands:
                    break
                self.next_id += self.rng.randint(1, 40_000)
                self.clock += timedelta(seconds=self.rng.randint(20, 120) // len(tables))
                played = table.play(str(self.next_id), self.clock)
                hero_in = any(p.name == self.cfg.hero and p.stack > 0 for p in table.seats.values())
                if played is None or not hero_in:
                    tables[i] = _SimTable(self, i)  # the hero busted: a new table
                if played is not None:
                    done += 1
                    yield played


def iter_played(cfg: SessionConfig) -> Iterator[PlayedHand]:
    """Every hand of the session, in the order played (tables interleaved)."""
    return _Session(cfg).hands()
