"""What a simulated session is made of: stakes, rake, tournament levels, player styles, names.

All amounts are integers in the hand's minor unit (cents for cash, chips for tournaments).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

__all__ = [
    "Stakes",
    "RakeSchedule",
    "Level",
    "TOURNAMENT_LEVELS",
    "Style",
    "random_style",
    "NameMaker",
    "TableNamer",
    "parse_stakes",
]


@dataclass(frozen=True, slots=True)
class Stakes:
    """Limit stud stakes: small bet (3rd/4th), big bet (5th-7th), ante and bring-in."""

    small_bet: int
    big_bet: int
    ante: int
    bring_in: int

    def __post_init__(self) -> None:
        if not 0 < self.ante <= self.bring_in < self.small_bet <= self.big_bet:
            raise ValueError(
                "stakes must rise from the ante to the bring-in, the small bet and the big bet "
                f"(0 < ante <= bring-in < small bet <= big bet); got an ante of {self.ante}, a "
                f"bring-in of {self.bring_in}, a small bet of {self.small_bet} and a big bet of "
                f"{self.big_bet} (minor units)"
            )

    @classmethod
    def for_small_bet(cls, small_bet: int, big_bet: int | None = None) -> Stakes:
        """PokerStars-like structure: ante ~ 1/5 of the small bet, bring-in ~ 1/2 ... 1/4 of it
        ($0.04/$0.08: ante $0.01, bring-in $0.02; $0.10/$0.20: $0.02 and $0.05)."""
        big = big_bet if big_bet is not None else 2 * small_bet
        ante = max(1, small_bet // 5)
        return cls(small_bet, big, ante, max(ante + 1, small_bet // 2))


MIN_SMALL_BET = 3  # cents: an ante of 1 and a bring-in of 2 below it


def parse_stakes(text: str) -> Stakes:
    """ "0.10/0.20" or "$0.10/$0.20" (dollars, to cents), as the CLI takes them."""
    try:
        sb, bb = (Decimal(p.strip().lstrip("$")) for p in text.split("/"))
    except (ValueError, InvalidOperation):
        raise ValueError(f"stakes must look like 0.10/0.20, got {text!r}") from None
    small, big = int(sb * 100), int(bb * 100)
    if small * 100 != int(sb * 10000) or big * 100 != int(bb * 10000) or small <= 0:
        raise ValueError(f"stakes must be positive whole cents, got {text!r}")
    if small > big:
        raise ValueError(
            f"stakes are the small bet, then the big bet (e.g. 0.04/0.08): the small bet "
            f"is above the big bet in {text!r}"
        )
    if small < MIN_SMALL_BET:
        raise ValueError(
            f"the small bet must be {MIN_SMALL_BET / 100:.2f} or more (an ante and a larger "
            f"bring-in are dealt below it), got {text!r}"
        )
    return Stakes.for_small_bet(small, big)


@dataclass(frozen=True, slots=True)
class RakeSchedule:
    """A percentage of the pot (rounded down) with a cap; no rake when the hand ends on 3rd street
    (the stud form of "no flop, no drop")."""

    percent: int = 5
    cap: int = 300
    third_street_free: bool = True

    def rake(self, pot: int, ended_on_third: bool) -> int:
        if ended_on_third and self.third_street_free:
            return 0
        return min(self.cap, pot * self.percent // 100)


NO_RAKE = RakeSchedule(percent=0, cap=0)


@dataclass(frozen=True, slots=True)
class Level:
    """A tournament level: roman numeral as printed, stakes in chips."""

    name: str
    stakes: Stakes


def _levels() -> tuple[Level, ...]:
    rows = [
        ("I", 20, 40, 4, 6),
        ("II", 30, 60, 6, 9),
        ("III", 50, 100, 10, 15),
        ("IV", 100, 200, 20, 30),
        ("V", 200, 400, 40, 60),
        ("VI", 300, 600, 60, 90),
        ("VII", 400, 800, 80, 125),
        ("VIII", 600, 1200, 120, 180),
        ("IX", 800, 1600, 150, 250),
        ("X", 1000, 2000, 200, 300),
        ("XI", 1500, 3000, 300, 450),
        ("XII", 2000, 4000, 400, 600),
    ]
    return tuple(Level(n, Stakes(s, b, a, bi)) for n, s, b, a, bi in rows)


TOURNAMENT_LEVELS = _levels()


@dataclass(frozen=True, slots=True)
class Style:
    """How a simulated player plays: `looseness` = chance to continue rather than fold when
    facing a bet, `aggression` = chance to bet or raise when allowed."""

    looseness: float
    aggression: float


def random_style(rng: random.Random) -> Style:
    kind = rng.random()
    if kind < 0.2:  # calling station
        return Style(rng.uniform(0.9, 0.99), rng.uniform(0.05, 0.2))
    if kind < 0.4:  # maniac
        return Style(rng.uniform(0.75, 0.95), rng.uniform(0.45, 0.8))
    if kind < 0.65:  # rock
        return Style(rng.uniform(0.35, 0.6), rng.uniform(0.1, 0.35))
    return Style(rng.uniform(0.55, 0.85), rng.uniform(0.15, 0.45))


_SYL = [
    "ka",
    "ro",
    "mi",
    "ta",
    "su",
    "ne",
    "do",
    "li",
    "pa",
    "ve",
    "zor",
    "gan",
    "tri",
    "bel",
    "mar",
    "sol",
    "fen",
    "dar",
    "quin",
    "tho",
    "wes",
    "lu",
    "ny",
    "bra",
    "ko",
    "sen",
    "vik",
    "ash",
    "pol",
    "rin",
    "ter",
    "mon",
    "gal",
    "hel",
]
_WORDS = [
    "poker",
    "stud",
    "razz",
    "river",
    "ace",
    "king",
    "queen",
    "lucky",
    "fish",
    "shark",
    "chip",
    "donk",
    "tilt",
    "grind",
    "nut",
    "bluff",
    "maverick",
    "ghost",
    "tiger",
    "lobo",
    "falcon",
    "moon",
]


class NameMaker:
    """Screen names in the shapes PokerStars allows and the corpus shows: digits, dots,
    underscores, spaces and square brackets (e.g. "denny501", "u.pressure", "PC [Mittel]")."""

    def __init__(self, rng: random.Random, taken: set[str]) -> None:
        self.rng = rng
        self.taken = taken

    def make(self) -> str:
        r = self.rng
        while True:
            base = "".join(r.choice(_SYL) for _ in range(r.randint(2, 3)))
            shape = r.random()
            if shape < 0.3:
                name = f"{base}{r.randint(1, 999)}"
            elif shape < 0.45:
                name = f"{r.choice(_WORDS)}.{base}"
            elif shape < 0.6:
                name = f"{base}_{r.choice(_WORDS)}"
            elif shape < 0.68:
                name = f"{base.capitalize()} {r.choice(_WORDS).capitalize()}"
            elif shape < 0.72:
                name = f"{base[:2].upper()} [{r.choice(_WORDS).capitalize()}]"
            elif shape < 0.85:
                name = base.capitalize() + str(r.randint(10, 99))
            else:
                name = r.choice(_WORDS) + base
            if name not in self.taken:
                self.taken.add(name)
                return name


_TABLE_WORDS = [
    "Dawn",
    "Gotha",
    "Atalante",
    "Salm",
    "Equinox",
    "Laomedon",
    "Vesta",
    "Hydra",
    "Kallisto",
    "Mira",
    "Orion",
    "Pallas",
    "Rhea",
    "Sirius",
    "Thule",
    "Umbriel",
    "Vega",
    "Zeta",
    "Ariadne",
    "Bellatrix",
]
_ROMAN = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X")


class TableNamer:
    """Cash table names like 'Dawn II'; tournament tables '<tournament id> <n>'."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.used: set[str] = set()

    def cash(self) -> str:
        while True:
            name = f"{self.rng.choice(_TABLE_WORDS)} {self.rng.choice(_ROMAN)}"
            if name not in self.used:
                self.used.add(name)
                return name
