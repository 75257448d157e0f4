"""The naive baseline for parse speed (issue 6): a regex scan that only adds up chips.

It reads a PokerStars text file line by line, counts hand headers and sums, in minor units,
the chips put in (antes, bring-ins, bets, calls; a raise "to Y" tops the player up to Y on
that street), the chips returned, collected and raked, so that put_in - returned ==
collected + rake over a file of complete hands. It validates nothing and builds
nothing; `histkit audit` (parse, replay, award check) must be at least as fast as this.
The regexes live here on purpose: this is the yardstick, not part of histkit.

    python benchmarks/naive_regex.py FILE     prints the totals and hands/s
    from benchmarks.naive_regex import scan   scan(path) -> dict
"""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

_HEADER = re.compile(r"PokerStars (?:Hand|Game|Zoom Hand|Home Game Hand) #(\d+):")
_PUT_IN = re.compile(
    r"^(.+?): (posts the ante|brings in for|bets|calls|raises) ([$€£]?[\d,]+(?:\.\d+)?)"
    r"(?: to ([$€£]?[\d,]+(?:\.\d+)?))?"
)
_STREET = re.compile(r"^\*\*\* ")
_RAKE = re.compile(r"^Total pot .*\| Rake ([$€£]?[\d,]+(?:\.\d+)?)")
_COLLECTED = re.compile(r"^.+? collected ([$€£]?[\d,]+(?:\.\d+)?) from ")
_UNCALLED = re.compile(r"^Uncalled bet \(([$€£]?[\d,]+(?:\.\d+)?)\) returned to ")


def _minor(text: str) -> int:
    """ "1,234" -> 1234 chips; "$0.35" -> 35 and "$1" -> 100 cents (exact integers)."""
    if text[0] in "$€£":
        whole, _, frac = text[1:].replace(",", "").partition(".")
        return int(whole) * 100 + int(frac.ljust(2, "0")[:2])
    return int(text.replace(",", ""))


def scan(path: str | Path) -> dict[str, int]:
    """Totals of one file: hands, chips put in, collected and returned (minor units)."""
    hands = put_in = collected = returned = rake = 0
    street: dict[str, int] = {}  # player -> chips in on this street (antes excluded)
    with open(path, encoding="utf-8-sig", errors="replace") as f:
        for line in f:
            if _HEADER.match(line):
                hands += 1
                street = {}
                continue
            m = _PUT_IN.match(line)
            if m:
                player, verb, amount, to = m.groups()
                if verb == "raises":
                    total = _minor(to)
                    put_in += total - street.get(player, 0)
                    street[player] = total
                elif verb == "posts the ante":
                    put_in += _minor(amount)
                else:
                    chips = _minor(amount)
                    put_in += chips
                    street[player] = street.get(player, 0) + chips
                continue
            if _STREET.match(line):
                street = {}
                continue
            m = _COLLECTED.match(line)
            if m:
                collected += _minor(m.group(1))
                continue
            m = _UNCALLED.match(line)
            if m:
                returned += _minor(m.group(1))
                continue
            m = _RAKE.match(line)
            if m:
                rake += _minor(m.group(1))
    return {
        "hands": hands,
        "put_in": put_in,
        "returned": returned,
        "collected": collected,
        "rake": rake,
    }


def main(argv: list[str]) -> None:
    for name in argv:
        t = time.perf_counter()
        totals = scan(name)
        dt = time.perf_counter() - t
        print(f"{name}: {totals} in {dt:.2f} s = {totals['hands'] / dt:,.0f} hands/s")


if __name__ == "__main__":
    main(sys.argv[1:])
