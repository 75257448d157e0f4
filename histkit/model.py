"""The immutable data model: a `Hand` is what the site wrote, nothing more.

Amounts are exact integers in the hand's minor unit (cents for cash, chips for
tournaments and play money). Every event keeps the 1-based source line so errors
and violations can point at it. Cards the writer did not see are `None`; the
parser never invents a card or an action.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import IntEnum, StrEnum

from histkit.cards import Card

__all__ = [
    "Game",
    "Street",
    "Unit",
    "ActionKind",
    "PotKind",
    "Half",
    "NoteKind",
    "GAP_NOTES",
    "Seat",
    "Action",
    "StreetStart",
    "Deal",
    "BettingCapped",
    "DoubleBetAllowed",
    "UncalledBet",
    "Show",
    "Muck",
    "Collect",
    "NoLowHand",
    "TableNote",
    "Event",
    "SeatOutcome",
    "SeatResult",
    "Summary",
    "Hand",
    "SourceRef",
]


class Game(StrEnum):
    """Stud-family games histkit understands; the value is the `game` column."""

    STUD = "stud"
    STUD_HILO = "stud_hilo"
    RAZZ = "razz"


class Street(IntEnum):
    """Betting rounds; the value is the street number used in the tables (3..7)."""

    THIRD = 3
    FOURTH = 4
    FIFTH = 5
    SIXTH = 6
    SEVENTH = 7


class Unit(StrEnum):
    """The minor unit every amount of a hand is counted in."""

    CENT = "cent"  # real-money cash: 1/100 of the currency
    CHIP = "chip"  # tournament or play-money chips


class ActionKind(StrEnum):
    """What a player did. PokerStars writes a completion as a raise: the parser keeps
    RAISE as written and the engine decides whether it was a completion."""

    ANTE = "ante"
    BRING_IN = "bring_in"
    COMPLETE = "complete"  # for sites that write "completes"
    BET = "bet"
    RAISE = "raise"
    CALL = "call"
    CHECK = "check"
    FOLD = "fold"


class PotKind(StrEnum):
    POT = "pot"  # the only pot ("collected X from pot")
    MAIN = "main"
    SIDE = "side"
    TOTAL = "total"  # a player's winnings over every pot: a site that writes no more


class Half(StrEnum):
    """Which part of a pot an award is: the high or low half of a hi/lo pot, or all of it."""

    HIGH = "high"
    LOW = "low"
    WHOLE = "whole"  # the whole pot: high games, razz, a hi/lo scoop or an undecided pot


class NoteKind(StrEnum):
    """Lines that are part of the record but not of the play."""

    CHAT = "chat"
    JOIN = "join"
    LEAVE = "leave"
    SIT_OUT = "sit_out"
    RETURN = "return"
    CONNECT = "connect"
    DISCONNECT = "disconnect"
    TIMED_OUT = "timed_out"
    REMOVED = "removed"
    FINISHED = "finished"
    GARBLED = "garbled"  # text the site garbled where a card should be (the card is unknown)
    # an amount the site wrote with a minus sign (Winamax's "calls -0.05€"): its own mistake,
    # the action read as that many chips put in; the note's text is the line as written
    NEGATIVE = "negative"
    OTHER = "other"
    # a line of the hand the reader did not understand, or found out of place: the hand is
    # read without it (the note's text is the line as written)
    UNREAD = "unread"
    # a line the record lacks where its format requires one (a section's marker, a total):
    # the note's text names what was expected there
    MISSING = "missing"
    # the hand's text stops before the end its format requires (cut short): the note's text
    # names what the format still expected
    CUT = "cut"


# the notes of lines a hand was read without (`Hand.gaps`)
GAP_NOTES = frozenset({NoteKind.UNREAD, NoteKind.MISSING, NoteKind.CUT})


@dataclass(frozen=True, slots=True)
class SourceRef:
    """Where a hand came from: the file and the 1-based line of its first line."""

    file: str
    line: int


@dataclass(frozen=True, slots=True)
class Seat:
    seat: int
    player: str
    stack: int
    sitting_out: bool = False
    line: int = 0


# --------------------------------------------------------------------------- events


@dataclass(frozen=True, slots=True)
class Action:
    """A chip-moving or betting decision.

    `amount` is what the line says the player put in with this action (for a raise,
    the "raises X" part); `to_amount` is the street total after it ("to Y") where the
    site writes it, else None. Antes are actions of kind ANTE on 3rd street.
    """

    street: Street
    player: str
    kind: ActionKind
    amount: int = 0
    to_amount: int | None = None
    all_in: bool = False
    line: int = 0


@dataclass(frozen=True, slots=True)
class StreetStart:
    """`*** 3rd STREET ***` .. `*** RIVER ***`; a community card if the header shows one."""

    street: Street
    community: Card | None = None
    line: int = 0


@dataclass(frozen=True, slots=True)
class Deal:
    """The cards one player receives on one street, as the writer saw them.

    `cards[i]` is None when the writer did not see that card; `up[i]` says whether it
    was dealt face up. `before` repeats the cards the line shows from earlier streets
    (PokerStars' `[old] [new]` form), kept so the engine can check consistency.
    """

    street: Street
    player: str
    cards: tuple[Card | None, ...]
    up: tuple[bool, ...]
    before: tuple[Card | None, ...] = ()
    line: int = 0


@dataclass(frozen=True, slots=True)
class BettingCapped:
    street: Street
    line: int = 0


@dataclass(frozen=True, slots=True)
class DoubleBetAllowed:
    """`Pair on board - a double bet is allowed` (stud high, 4th street)."""

    street: Street
    line: int = 0


@dataclass(frozen=True, slots=True)
class UncalledBet:
    player: str
    amount: int
    street: Street
    line: int = 0


@dataclass(frozen=True, slots=True)
class Show:
    """A player shows cards; `description` is the site's own words, e.g.
    "HI: a pair of Sevens; LO: 8,7,5,4,2" (None when not written)."""

    player: str
    cards: tuple[Card, ...]
    description: str | None = None
    line: int = 0


@dataclass(frozen=True, slots=True)
class Muck:
    """`mucks hand` (shown=False) or `doesn't show hand` (declined=True)."""

    player: str
    declined: bool = False
    line: int = 0


@dataclass(frozen=True, slots=True)
class Collect:
    """`P collected X from pot | main pot | side pot[-N]`; `pot_index` is N (1-based)
    for side pots, 0 for the main pot or the only pot; `half` the half of a hi/lo pot when
    the site says which (Full Tilt's "wins the low pot", Winamax's "pot(LO)"), else None."""

    player: str
    amount: int
    pot: PotKind = PotKind.POT
    pot_index: int = 0
    line: int = 0
    half: Half | None = None


@dataclass(frozen=True, slots=True)
class NoLowHand:
    line: int = 0


@dataclass(frozen=True, slots=True)
class TableNote:
    """A line of the record that is no play. For a line the hand was read without (UNREAD,
    MISSING, CUT), `reason` says why, as a strict reading rejects the hand."""

    kind: NoteKind
    player: str | None
    text: str
    line: int = 0
    reason: str | None = None


Event = (
    Action
    | StreetStart
    | Deal
    | BettingCapped
    | DoubleBetAllowed
    | UncalledBet
    | Show
    | Muck
    | Collect
    | NoLowHand
    | TableNote
)


# -------------------------------------------------------------------------- summary


class SeatOutcome(StrEnum):
    FOLDED = "folded"
    SHOWED = "showed"  # "showed [..] and won (X) with .." / "and lost with .."
    MUCKED = "mucked"  # "mucked [..]"
    COLLECTED = "collected"  # "collected (X)" without a showdown
    OTHER = "other"  # a seat line with no result (sat out, etc.)


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One `Seat N: ...` line of the summary."""

    seat: int
    player: str
    outcome: SeatOutcome
    won: int = 0
    cards: tuple[Card, ...] = ()
    description: str | None = None
    folded_street: Street | None = None
    didnt_bet: bool = False
    line: int = 0


@dataclass(frozen=True, slots=True)
class Summary:
    total_pot: int
    rake: int
    main_pot: int | None = None
    side_pots: tuple[int, ...] = ()
    board: tuple[Card, ...] = ()
    seats: tuple[SeatResult, ...] = ()
    line: int = 0
    fee: int = 0  # money the house takes from the pot besides the rake (a jackpot drop)

    @property
    def taken(self) -> int:
        """What the house keeps of the pot: rake and fees."""
        return self.rake + self.fee


# ----------------------------------------------------------------------------- hand


@dataclass(frozen=True, slots=True)
class Hand:
    """One hand as written. Header fields the site does not write are None."""

    site: str
    hand_id: str
    game: Game
    small_bet: int
    big_bet: int
    unit: Unit
    currency: str | None
    started_at: datetime | None  # timezone-aware UTC
    table: str
    max_seats: int | None
    seats: tuple[Seat, ...]
    events: tuple[Event, ...]
    summary: Summary | None
    source: SourceRef
    tournament_id: str | None = None
    level: str | None = None
    buy_in: str | None = None  # as written, e.g. "$0.98+$0.12 USD"
    mix: str | None = None  # "HORSE", "8-Game", "Triple Stud"
    ante: int | None = None  # only when the header states it
    bring_in: int | None = None  # only when the header states it
    local_time: str | None = None  # the header's own date text, zone included
    hero: str | None = None
    # the table's own count of its hands, where the site writes one (Winamax's hand ids):
    # two hands at a table are consecutive exactly when these differ by one
    table_hand: int | None = None
    # the dialect that read it (a site may have several eras); provenance, not content:
    # equal hands read by two dialects are equal
    dialect: str | None = field(default=None, compare=False)

    @property
    def is_tournament(self) -> bool:
        return self.tournament_id is not None

    @property
    def money_unit(self) -> str:
        """What every amount of this hand counts, as one never-empty key: amounts of two
        hands may be added only when their keys are equal. A currency code for cash
        ("USD", "EUR", "PLAY"), `chips:<site>:<tournament id>` for a tournament's chips,
        `chips:<site>:play` for chips at a cash table, `unknown-currency:<site>` for cash
        whose header names no currency."""
        if self.tournament_id is not None:
            return f"chips:{self.site}:{self.tournament_id}"
        if self.currency:
            return self.currency
        if self.unit is Unit.CHIP:
            return f"chips:{self.site}:play"
        return f"unknown-currency:{self.site}"

    def seat_of(self, player: str) -> Seat:
        for s in self.seats:
            if s.player == player:
                return s
        raise KeyError(player)

    def actions(self) -> tuple[Action, ...]:
        return tuple(e for e in self.events if isinstance(e, Action))

    def gaps(self) -> tuple[TableNote, ...]:
        """The lines the hand was read without: not understood or out of place (UNREAD),
        required but missing (MISSING), and the end of a text cut short (CUT)."""
        return tuple(e for e in self.events if type(e) is TableNote and e.kind in GAP_NOTES)

    @property
    def unread_lines(self) -> int:
        """How many lines the hand was read without (`gaps`): 0 for a hand read whole."""
        return len(self.gaps())
