"""The regex baselines for parse speed (issue 6): scans that only add up chips.

Both read a PokerStars text file line by line, count hand headers and sum, in minor units,
the chips put in (antes, bring-ins, bets, calls; a raise "to Y" tops the player up to Y on
that street), returned, collected and raked, so that put_in - returned == collected + rake
over a file of complete hands. They validate nothing and build nothing. The regexes live
here on purpose: this is the yardstick, not part of histkit.

- `scan` is the naive scan the issue's anchor describes (~2,600 hands/s on a 2-core
  machine): every pattern searched on every line, as a first script would do it.
- `scan_tuned` is the same arithmetic written for speed: one anchored pattern per line
  kind, tried in order of frequency, first hit wins. It reads 2-3x faster than `scan`;
  benchmarks report the parser against both, so no one mistakes which bar was met.

    python benchmarks/naive_regex.py FILE...   prints the totals and hands/s of both
    from benchmarks.naive_regex import scan    scan(path) -> dict (same for scan_tuned)
"""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

_AMOUNT = r"([$€£]?[\d,]+(?:\.\d+)?)"


def _minor(text: str) -> int:
    """ "1,234" -> 1234 chips; "$0.35" -> 35 and "$1" -> 100 cents (exact integers)."""
    if text[0] in "$€£":
        whole, _, frac = text[1:].replace(",", "").partition(".")
        return int(whole) * 100 + int(frac.ljust(2, "0")[:2])
    return int(text.replace(",", ""))


# ------------------------------------------------------------------------ naive

_N_HAND = re.compile(r"PokerStars (?:Hand|Game|Zoom Hand|Home Game Hand) #\d+:")
_N_STREET = re.compile(r"^\*\*\* ")
_N_ANTE = re.compile(r"^(.+?): posts the ante " + _AMOUNT)
_N_PUT = re.compile(r"^(.+?): (?:brings in for|bets|calls) " + _AMOUNT)
_N_RAISE = re.compile(r"^(.+?): raises " + _AMOUNT + " to " + _AMOUNT)
_N_COLLECTED = re.compile(r" collected " + _AMOUNT + " from ")
_N_UNCALLED = re.compile(r"Uncalled bet \(" + _AMOUNT + r"\) returned to ")
_N_RAKE = re.compile(r"Total pot .*\| Rake " + _AMOUNT)


def scan(path: str | Path) -> dict[str, int]:
    """Totals of one file, the naive way: every pattern searched on every line."""
    hands = put_in = collected = returned = rake = 0
    street: dict[str, int] = {}  # player -> chips in on this street (antes excluded)
    with open(path, encoding="utf-8-sig", errors="replace") as f:
        for line in f:
            if _N_HAND.search(line):
                hands += 1
                street = {}
            if _N_STREET.search(line):
                street = {}
            m = _N_ANTE.search(line)
            if m:
                put_in += _minor(m.group(2))
            m = _N_PUT.search(line)
            if m:
                chips = _minor(m.group(2))
                put_in += chips
                street[m.group(1)] = street.get(m.group(1), 0) + chips
            m = _N_RAISE.search(line)
            if m:
                total = _minor(m.group(3))
                put_in += total - street.get(m.group(1), 0)
                street[m.group(1)] = total
            m = _N_COLLECTED.search(line)
            if m:
                collected += _minor(m.group(1))
            m = _N_UNCALLED.search(line)
            if m:
                returned += _minor(m.group(1))
            m = _N_RAKE.search(line)
            if m:
                rake += _minor(m.group(1))
    return _totals(hands, put_in, returned, collected, rake)


# ------------------------------------------------------------------------ tuned

_T_HEADER = re.compile(r"PokerStars (?:Hand|Game|Zoom Hand|Home Game Hand) #(\d+):")
_T_PUT_IN = re.compile(
    r"^(.+?): (posts the ante|brings in for|bets|calls|raises) "
    + _AMOUNT
    + r"(?: to "
    + _AMOUNT
    + ")?"
)
_T_STREET = re.compile(r"^\*\*\* ")
_T_RAKE = re.compile(r"^Total pot .*\| Rake " + _AMOUNT)
_T_COLLECTED = re.compile(r"^.+? collected " + _AMOUNT + " from ")
_T_UNCALLED = re.compile(r"^Uncalled bet \(" + _AMOUNT + r"\) returned to ")


def scan_tuned(path: str | Path) -> dict[str, int]:
    """Totals of one file, written for speed: anchored patterns, first hit wins."""
    hands = put_in = collected = returned = rake = 0
    street: dict[str, int] = {}
    with open(path, encoding="utf-8-sig", errors="replace") as f:
        for line in f:
            if _T_HEADER.match(line):
                hands += 1
                street = {}
                continue
            m = _T_PUT_IN.match(line)
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
            if _T_STREET.match(line):
                street = {}
                continue
            m = _T_COLLECTED.match(line)
            if m:
                collected += _minor(m.group(1))
                continue
            m = _T_UNCALLED.match(line)
            if m:
                returned += _minor(m.group(1))
                continue
            m = _T_RAKE.match(line)
            if m:
                rake += _minor(m.group(1))
    return _totals(hands, put_in, returned, collected, rake)


def _totals(hands: int, put_in: int, returned: int, collected: int, rake: int) -> dict[str, int]:
    return {
        "hands": hands,
        "put_in": put_in,
        "returned": returned,
        "collected": collected,
        "rake": rake,
    }


def main(argv: list[str]) -> None:
    for name in argv:
        for fn in (scan, scan_tuned):
            t = time.perf_counter()
            totals = fn(name)
            dt = time.perf_counter() - t
            rate = totals["hands"] / dt
            print(f"{fn.__name__:10s} {name}: {totals} in {dt:.2f} s = {rate:,.0f} hands/s")


if __name__ == "__main__":
    main(sys.argv[1:])
