"""Money as histkit shows it: amounts are integers in a minor unit, and every amount
belongs to one money unit (`Hand.money_unit`: a currency code, or one tournament's chips)
that is never added to another. These helpers turn units and amounts into labels people
read, one label per unit, so that a label can key a row of a table.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pandas only where a table is labelled: the audit never loads it
    import pandas as pd

__all__ = [
    "format_amount",
    "format_money",
    "money_label",
    "money_parts",
    "money_unit_of",
    "parse_amount",
    "parse_buy_in",
    "STAKES_FORMS",
    "is_stakes",
    "stakes_label",
    "stakes_match",
]

_SYMBOLS = {"USD": "$", "EUR": "\u20ac", "GBP": "\u00a3", "CAD": "C$", "AUD": "A$"}


def _code(currency: object) -> str | None:
    """A currency code, or None when the hand states none: pandas hands a missing one over
    as NaN (a float), which would otherwise be written out as 'nan'."""
    return currency if isinstance(currency, str) and currency else None


def format_money(amount: int, unit: str, currency: str | None) -> str:
    """'$0.04', '-$1.20', '400' (chips), '40.00' (cents of a currency the hand does not
    name): a minor-unit amount for people."""
    currency = _code(currency)
    if unit != "cent":
        return f"{int(amount):,}"
    symbol = _SYMBOLS.get(currency or "", "")
    sign = "-" if amount < 0 else ""
    whole, cents = divmod(abs(int(amount)), 100)
    text = f"{sign}{symbol}{whole:,}.{cents:02d}"
    return text if symbol else f"{text} {currency or ''}".strip()


def stakes_label(small: int, big: int, unit: str, currency: str | None) -> str:
    """'$0.04/$0.08 USD' for cash, '200/400' for chips, '40.00/80.00' for a currency the
    hand does not name (Kings Club writes none)."""
    currency = _code(currency)
    label = f"{format_money(small, unit, currency)}/{format_money(big, unit, currency)}"
    return (
        f"{label} {currency}" if unit == "cent" and currency and _SYMBOLS.get(currency) else label
    )


def money_unit_of(hands: pd.DataFrame) -> pd.Series:
    """Each hand's money unit (`Hand.money_unit`: a currency code, or one tournament's
    chips): the column where the tables have it, else made the same way from the hand's
    site, tournament, currency and unit (tables of an older histkit)."""
    if "money_unit" in hands:
        return hands["money_unit"].astype(str)
    import numpy as np
    import pandas as pd

    site = hands["site"].astype(str) if "site" in hands else pd.Series("?", index=hands.index)
    tid = hands["tournament_id"] if "tournament_id" in hands else pd.Series(None, hands.index)
    cur = hands["currency"]
    out = np.where(
        tid.notna(),
        "chips:" + site + ":" + tid.astype(str),
        np.where(
            cur.notna(),
            cur.astype(str),
            np.where(
                hands["unit"].eq("chip"), "chips:" + site + ":play", "unknown-currency:" + site
            ),
        ),
    )
    return pd.Series(out, index=hands.index, dtype="object")


def money_label(money_unit: str) -> str:
    """A money unit as people read it: "USD", "PLAY", "chips T3540610518" (a tournament's
    chips), "play chips (pokerstars)", "unknown currency (kingsclub)". Rows are keyed by
    the unit itself (two sites may number tournaments alike), the label is for reading."""
    kind, _, rest = money_unit.partition(":")
    if kind == "chips":
        site, _, tid = rest.partition(":")
        return f"play chips ({site})" if tid == "play" else f"chips T{tid}"
    if kind == "unknown-currency":
        return f"unknown currency ({rest})"
    return money_unit


def money_parts(money_unit: str) -> tuple[str, str | None]:
    """(unit, currency) of a money unit, as `format_money` takes them."""
    if money_unit.startswith("chips:"):
        return "chip", None
    if money_unit.startswith("unknown-currency:"):
        return "cent", None
    return "cent", money_unit


def format_amount(amount: int, money_unit: str) -> str:
    """An amount of one money unit for people: '$0.04', '-€1.20', '400' (chips)."""
    unit, currency = money_parts(money_unit)
    return format_money(amount, unit, currency)


_AMOUNT = re.compile(r"^(?P<sym>[^\d\s.,+-]*)\s*(?P<num>\d[\d,]*(?:\.\d+)?)\s*(?P<code>[A-Z]{3})?$")


def parse_amount(text: str, symbols: Mapping[str, str]) -> tuple[int, str | None] | None:
    """A written amount ("$1.23", "€0.50", "12.50 EUR", "100") as (minor units, currency
    code): cents when a currency symbol or code is written (`symbols`: symbol -> code, the
    site's), else whole units of no currency (chips, play money). None when it is not an
    amount."""
    m = _AMOUNT.match(text.strip())
    if m is None:
        return None
    sym, code = m["sym"], m["code"]
    currency = code or symbols.get(sym) if sym or code else None
    if sym and currency is None:
        return None  # a symbol the site does not use
    digits = m["num"].replace(",", "")
    if currency is None:
        if "." in digits:
            return None
        return int(digits), None
    whole, _, frac = digits.partition(".")
    if len(frac) > 2:
        return None
    return int(whole) * 100 + int(frac.ljust(2, "0") or 0), currency


_BUY_IN = re.compile(r"^\s*(?P<parts>[^\s+]+(?:\s*\+\s*[^\s+]+)*)(?:\s+(?P<code>[A-Z]{3})\b)?")


def parse_buy_in(
    text: str | None, symbols: Mapping[str, str]
) -> tuple[int, int | None, str | None] | None:
    """A tournament's buy-in as written ("$0.98+$0.12 USD", "$2 + $0.10 Heads Up Sit &
    Go", "$6 USD Buy-in", "100+9"; a bounty "$1.00+$1.00+$0.20" counts with the buy-in) as
    (buy-in, fee, currency) in minor units of that currency (currency None: not money,
    e.g. play chips; fee None: not written); None when the text starts with no amount."""
    m = _BUY_IN.match(text or "")
    if m is None:
        return None
    code = m["code"] or ""
    parts = [p.strip() for p in m["parts"].split("+")]
    read = [parse_amount(p + (f" {code}" if code else ""), symbols) for p in parts]
    if any(r is None for r in read):
        return None
    units = {r[1] for r in read if r is not None}
    if len(units) != 1:
        return None
    amounts = [r[0] for r in read if r is not None]
    if len(amounts) == 1:
        return amounts[0], None, units.pop()
    return sum(amounts[:-1]), amounts[-1], units.pop()


#: The forms `stakes_match` takes, as `--by stakes` prints them (for messages).
STAKES_FORMS = '"$0.04/$0.08 USD", "$0.04/$0.08", "0.04/0.08", a tournament level "100/200"'
# a code is ISO's three letters, or "PLAY" (play money, `model.Hand.currency`)
_CODE = r"(?:[A-Z]{3}|PLAY)"
_STAKE_AMOUNT = rf"(?:[A-Z]{{0,2}}[$\u20ac\u00a3])?\d[\d,]*(?:\.\d+)?(?: {_CODE})?"
_STAKES = re.compile(rf"{_STAKE_AMOUNT}/{_STAKE_AMOUNT}(?: {_CODE})?", re.IGNORECASE)


def _stakes_text(wanted: str) -> str:
    """`wanted` as the labels write it: no spaces around the slash, codes in capitals."""
    return re.sub(r"\s*/\s*", "/", wanted.strip()).upper()


def is_stakes(wanted: str) -> bool:
    """Whether `wanted` has a form of stakes `stakes_match` can match (`STAKES_FORMS`):
    a small and a big bet, each with a symbol or a code or neither, and a code after."""
    return _STAKES.fullmatch(_stakes_text(wanted)) is not None


def stakes_match(labels: pd.Series, wanted: str) -> pd.Series:
    """Which stakes labels ("$0.04/$0.08 USD", "200/400") `wanted` names: the label itself,
    the label without its currency code ("$0.04/$0.08"), or, written with no currency at
    all, the same numbers ("0.04/0.08"); codes in any case."""
    text = _stakes_text(wanted)
    without_code = labels.str.replace(rf" {_CODE}$", "", regex=True)
    hit = labels.eq(text) | without_code.eq(text)
    if not any(c.isalpha() or not (c.isdigit() or c in "./,") for c in text):
        digits = text.replace(",", "")
        hit |= labels.str.replace(r"[^0-9./]", "", regex=True).eq(digits)
    return hit
