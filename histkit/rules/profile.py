"""RuleProfile: every rule that differs between houses, as data.

`POKERSTARS` matches the site's observed behaviour in the real corpus; `CASINO` follows
Robert's Rules of Poker. A user profile is a TOML file whose keys are field names
(`base = "casino"` starts from another profile).
"""

from __future__ import annotations

import dataclasses
import functools
import tomllib
import typing
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any, get_args

from histkit.cards import Suit

__all__ = [
    "BringInAllIn",
    "OddChip",
    "FirstActTie",
    "RakeSplit",
    "ShortAllIn",
    "ShowdownOrder",
    "RuleProfile",
    "POKERSTARS",
    "CASINO",
    "PROFILES",
    "load_profile",
]


class BringInAllIn(StrEnum):
    """Who brings in when the lowest (razz: highest) card is all-in on the ante."""

    NEXT_CLOCKWISE = "next_clockwise"  # the next player to the left (PokerStars, 2023 hand)
    NEXT_BY_CARD = "next_by_card"  # the next-worst up card among players with chips


class OddChip(StrEnum):
    """Who gets the indivisible chip of a half split between tied hands."""

    BY_CARD = "by_card"  # high half: highest card by suit; low half: lowest card by suit
    BY_SEAT = "by_seat"  # first tied player clockwise from seat 1


class FirstActTie(StrEnum):
    """Who acts first on 4th–7th when two boards rank equal."""

    LOWEST_SEAT = "lowest_seat"  # closest to the dealer's left (seat 1 first)
    LEFT_OF_BRING_IN = "left_of_bring_in"  # the first tied player clockwise from the bring-in


class ShortAllIn(StrEnum):
    """Whether an all-in wager smaller than a full bet/raise reopens the betting."""

    HALF_BET = "half_bet"  # half a bet or more counts as a full bet/raise
    NEVER = "never"  # only full bets/raises reopen


class RakeSplit(StrEnum):
    """How one reported rake is spread over main and side pots before awards."""

    PROPORTIONAL = "proportional"  # by pot size, remainders to the largest fractions
    MAIN_FIRST = "main_first"  # all from the main pot while it lasts


class ShowdownOrder(StrEnum):
    """Who shows first at the showdown. With a bet on the last street, always the last
    player to bet or raise on it; without one, as the value says. No site's text promises
    the order of its show lines, so a different order is an informational finding."""

    FIRST_SEAT = "first_seat"  # the first player in seat order (nearest the dealer's left)
    BEST_BOARD = "best_board"  # the best board showing (who would act first), Robert's Rules
    AGGRESSOR = "aggressor"  # the last aggressor; without a bet on the last street, unchecked


@dataclass(frozen=True, slots=True)
class RuleProfile:
    name: str
    max_raises: int | None = 3  # raises after the bet (completion counts as the bet); None = no cap
    heads_up_uncapped: bool = False
    suit_order: tuple[Suit, ...] = (Suit.CLUBS, Suit.DIAMONDS, Suit.HEARTS, Suit.SPADES)
    bring_in_ties_by_suit: bool = True  # else by position (lowest seat)
    bring_in_all_in: BringInAllIn = BringInAllIn.NEXT_CLOCKWISE
    open_pair_double: bool = True  # stud high: an open pair on 4th allows the big bet
    # a completion adding less than half a small bet to the bring-in is an incomplete
    # raise: the next raise is a small bet over the bring-in (Kings Club: 33.16 bring-in,
    # completed to 44, raised to 77.16), not over the completion (standard: to 88)
    short_completion_raise_from_bring_in: bool = False
    short_all_in: ShortAllIn = ShortAllIn.HALF_BET
    odd_chip: OddChip = OddChip.BY_CARD
    odd_chip_between_halves_to_high: bool = True
    first_act_tie: FirstActTie = FirstActTie.LOWEST_SEAT
    first_act_skips_all_in: bool = True  # rank only boards of players who can still act
    rake_split: RakeSplit = RakeSplit.PROPORTIONAL
    rake_max_percent: int | None = (
        None  # rake ceiling as % of the pot, rounded up; None = unchecked
    )
    community_card: bool = True  # one face-up 7th card for all when the deck runs short
    burn_cards: bool = False  # a burn before each street (deck exhaustion arithmetic)
    winners_must_show: bool = True  # a pot is never awarded to an unshown hand at showdown
    # who shows first (None: the record's order of shows says nothing, not checked)
    showdown_order: ShowdownOrder | None = ShowdownOrder.AGGRESSOR

    def suit_rank(self, suit: Suit) -> int:
        return self.suit_order.index(suit)

    def cap(self, heads_up: bool) -> int | None:
        """Total wagers (bet + raises) allowed on a street, None if uncapped."""
        if self.max_raises is None or (heads_up and self.heads_up_uncapped):
            return None
        return 1 + self.max_raises


# showdown order, PokerStars' real hands: the last bettor shows first in 28 of 28 showdowns after
# a bet on the last street; without one, seat 1 in the ring games (6 of 6) but the other seat in
# the 2-max home game (4 of 4): not settled, so not checked (ShowdownOrder.AGGRESSOR)
POKERSTARS = RuleProfile(name="pokerstars")
CASINO = RuleProfile(
    name="casino",
    max_raises=4,
    heads_up_uncapped=True,
    bring_in_all_in=BringInAllIn.NEXT_BY_CARD,
    first_act_skips_all_in=False,
    burn_cards=True,
    showdown_order=ShowdownOrder.BEST_BOARD,
)
PROFILES: dict[str, RuleProfile] = {p.name: p for p in (POKERSTARS, CASINO)}


def _coerce(field: dataclasses.Field[Any], value: Any, where: str) -> Any:
    """A TOML value for `field`, checked against the field's type: a wrong type is a
    ValueError naming the key, what it takes and what was given (never a TypeError deep
    in a replay)."""
    name = field.name
    hint = _hints()[name]
    if name == "suit_order":
        if not isinstance(value, list) or not all(isinstance(s, str) for s in value):
            raise ValueError(
                f'{where}: suit_order takes a list of suits, e.g. ["c", "d", "h", "s"]'
            )
        order = tuple(_suit(s) for s in value)
        if sorted(order) != list(Suit):
            raise ValueError(f"{where}: suit_order must list each of c, d, h, s once")
        return order
    optional = type(None) in get_args(hint)
    base = next((a for a in get_args(hint) if a is not type(None)), hint)
    if optional and isinstance(value, str) and value.strip().lower() == "none":
        return None  # TOML has no null: "none" (e.g. a showdown order not checked)
    if isinstance(base, type) and issubclass(base, StrEnum):
        allowed = ", ".join(m.value for m in base) + (", none" if optional else "")
        if not isinstance(value, str) or value not in {m.value for m in base}:
            raise ValueError(f"{where}: {name} takes one of {allowed}; got {value!r}")
        return base(value)
    if base is bool:
        if not isinstance(value, bool):
            raise ValueError(f"{where}: {name} takes true or false; got {value!r}")
        return value
    if base is int:
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            none = ' (or "none")' if optional else ""
            raise ValueError(f"{where}: {name} takes a whole number 0 or more{none}; got {value!r}")
        return value
    if base is str:
        if not isinstance(value, str):
            raise ValueError(f"{where}: {name} takes a text; got {value!r}")
        return value
    raise ValueError(f"{where}: {name} cannot be set from a profile file")


@functools.cache
def _hints() -> dict[str, Any]:
    return typing.get_type_hints(RuleProfile)


def _suit(text: str) -> Suit:
    key = text.strip().lower()[:1]
    for s in Suit:
        if s.char == key:
            return s
    raise ValueError(f"not a suit: {text!r}")


def load_profile(name_or_path: str | Path) -> RuleProfile:
    """A built-in profile by name, or one read from a TOML file (unknown keys are an error)."""
    if isinstance(name_or_path, str) and name_or_path in PROFILES:
        return PROFILES[name_or_path]
    sites = _site_profiles()
    if isinstance(name_or_path, str) and name_or_path in sites:
        return sites[name_or_path]
    path = Path(name_or_path)
    if not path.is_file():
        known = ", ".join(dict.fromkeys([*PROFILES, *sites]))
        raise ValueError(f"no such profile: {name_or_path} (built-in: {known})")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise ValueError(f"{path}: not a valid TOML file: {e}") from None
    except UnicodeDecodeError:
        raise ValueError(f"{path}: not a text file (a profile is TOML)") from None
    base_name = data.pop("base", "pokerstars")
    base = PROFILES.get(base_name) or _site_profiles().get(base_name)
    if base is None:
        raise ValueError(f"{path}: unknown base profile {base_name!r}")
    fields = {f.name: f for f in dataclasses.fields(RuleProfile)}
    unknown = set(data) - set(fields)
    if unknown:
        raise ValueError(f"unknown profile keys in {path}: {', '.join(sorted(unknown))}")
    changes = {k: _coerce(fields[k], v, str(path)) for k, v in data.items()}
    changes.setdefault("name", path.stem)
    return dataclasses.replace(base, **changes)


def _site_profiles() -> dict[str, RuleProfile]:
    """Each known site's house rules by its profile's name (the dialects own them)."""
    from histkit.dialects import get_dialect, known_sites

    out: dict[str, RuleProfile] = {}
    for name in known_sites():
        prof = get_dialect(name).profile
        out.setdefault(prof.name, prof)
    return out
