"""What each column of the histkit tables means: its unit and meaning beside
`histkit.tables.SCHEMAS`, which gives its name and type. `docs/schema.md` is made from both
(`python -m histkit.schemadoc > docs/schema.md`); a test fails when a column of SCHEMAS has
no entry here, an entry names no column, or the page differs from what this makes.

Units: `money_unit` is the minor unit of the row's `money_unit` (a currency's cents, or
one tournament's chips: never add two units); `buy_in_currency` and `prize_currency` the
minor unit of that column's currency; "-" a column that is no amount.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import pyarrow as pa

__all__ = ["COLUMNS", "TABLES", "schema_markdown"]

_M = "money_unit"  # the minor unit of the row's money_unit
_KEY = ("-", "the hand's id as the site writes it; a hand is (site, hand_id)")
_SITE = ("-", "the site whose record it is (`--site` names); with hand_id, the hand's key")
_UNIT = ("-", "what every amount of the row counts (as hands.money_unit); never null")

#: What each table holds, one sentence.
TABLES: dict[str, str] = {
    "hands": "One row per hand read: its header, stakes, pot and where it was read.",
    "seats": "One row per seat of a hand: the player, the chips in and out, how the hand ended.",
    "actions": "One row per action (antes and bring-ins included), in the order taken.",
    "cards": "One row per card dealt or shown, with what is known of it.",
    "errors": "One row per hand or file that could not be read, or hand of another game.",
    "allin_ev": (
        "One row per player still in a pot an all-in settled with cards to come, each pot "
        "valued when its last chip went in (docs/equity.md)."
    ),
    "awards": "The audit: one row per player and pot half, what the rules pay and the site paid.",
    "violations": "The audit: one row per finding (docs/architecture.md, rules).",
}

#: table -> column -> (unit, meaning)
COLUMNS: dict[str, dict[str, tuple[str, str]]] = {
    "hands": {
        "hand_id": _KEY,
        "site": _SITE,
        "game": ("-", "stud, stud_hilo or razz"),
        "is_tournament": ("-", "a tournament hand (its amounts are that tournament's chips)"),
        "tournament_id": ("-", "the tournament's id as written; null for cash"),
        "buy_in": ("-", 'the buy-in as the site writes it ("$0.98+$0.12 USD")'),
        "level": ("-", "the tournament level as written"),
        "mix": ("-", "the mixed game the hand is a leg of (HORSE, 8-Game), as written"),
        "currency": (
            "-",
            "the currency a cash hand's header names; null for tournaments and cash that "
            "names none: never group by it (use money_unit)",
        ),
        "unit": ("-", '"cent" (a currency\'s minor unit) or "chip"; never null'),
        "money_unit": (
            "-",
            "what the hand's amounts count: a currency code, `chips:<site>:<tournament>`, "
            "`chips:<site>:play`, `unknown-currency:<site>`; never null: group by it before "
            "adding",
        ),
        "small_bet": (_M, "the small bet (3rd and 4th street)"),
        "big_bet": (_M, "the big bet (5th to 7th street)"),
        "ante": (_M, "the ante; null when not known"),
        "bring_in": (_M, "the bring-in; null when not known"),
        "started_at": ("UTC", "when the hand started; null when its record gives no time"),
        "table": ("-", "the table's name as written"),
        "max_seats": ("-", "the table's size (N-max); null when not written"),
        "players": ("-", "players in the hand (who put chips in, antes included)"),
        "hero": ("-", "the player whose hole cards the record shows; null if none"),
        "total_pot": (_M, "the pot, rake included"),
        "rake": (_M, "what the house took from the pot as rake"),
        "fee": (_M, "other money the house took from the pot (a jackpot drop)"),
        "community_card": ("-", 'the card dealt to all when the deck runs out ("Ah"); null'),
        "source_file": ("-", "the file the hand was read from"),
        "source_line": ("-", "the line of that file where the hand starts (1-based)"),
        "buy_in_amount": (
            "buy_in_currency",
            "the tournament's buy-in read from buy_in (a bounty counted in it); null: not "
            "written, or not money",
        ),
        "buy_in_fee": ("buy_in_currency", "the tournament's fee read from buy_in"),
        "buy_in_currency": ("-", "the currency of buy_in_amount and buy_in_fee"),
        "unread_lines": (
            "-",
            "lines the hand was read without: not understood, missing where the format "
            "requires one, or the end of a text cut short (the audit's LINE_NOT_UNDERSTOOD and "
            "LINE_MISSING name each); 0 for a hand read whole",
        ),
    },
    "seats": {
        "hand_id": _KEY,
        "site": _SITE,
        "money_unit": _UNIT,
        "seat": ("-", "the seat number as written"),
        "player": ("-", "the player's name as written (a player is (site, player))"),
        "starting_stack": (_M, "chips in front of the player as the hand starts"),
        "contributed": (_M, "all the player put in the pot (antes included)"),
        "collected": (_M, "all the player took from the pot (an uncalled bet included)"),
        "net": (_M, "collected - contributed"),
        "ending_stack": (_M, "starting_stack + net"),
        "sitting_out": ("-", "the seat line says the player sits out"),
        "dealt_in": ("-", "the player was dealt cards"),
        "is_hero": ("-", "the player is the hand's hero"),
        "last_street": ("-", "the last street (3-7) the player saw"),
        "folded_street": ("-", "the street the player folded on; null if never"),
        "showdown": ("-", "the player went to showdown (showed or mucked at the end)"),
        "outcome": ("-", "the summary's result: folded, showed, mucked, collected or other"),
        "summary_won": (_M, "what the summary says the player won; null if it says none"),
        "finish_place": ("-", "where a hand says the player finished the tournament"),
        "prize": ("prize_currency", "the prize that line says the player received"),
        "prize_currency": ("-", "the currency of prize"),
    },
    "actions": {
        "hand_id": _KEY,
        "site": _SITE,
        "money_unit": _UNIT,
        "street": ("-", "the street, 3 to 7"),
        "seq": ("-", "the action's place in the hand, from 0"),
        "player": ("-", "who acted"),
        "kind": ("-", "ante, bring_in, complete, bet, raise, call, check or fold"),
        "amount": (_M, "the chips the action adds to the pot"),
        "to_amount": (_M, "a raise's street total after it, as written; null otherwise"),
        "all_in": ("-", "the action put the player all-in"),
        "line": ("-", "the line of the source file it is written on"),
    },
    "cards": {
        "hand_id": _KEY,
        "site": _SITE,
        "player": ("-", "whose card; null for the community card"),
        "street": ("-", "the street it was dealt on; null when not known"),
        "card": ("-", 'the card ("Ah", "Td"); null when not seen'),
        "up": ("-", "dealt face up; null when not known"),
        "known": ("-", "the card is known (card not null)"),
        "source": ("-", "dealt, shown or community: where the card's face was read"),
        "line": ("-", "the line of the source file it is read from"),
    },
    "errors": {
        "source_file": ("-", "the file"),
        "line": ("-", "the line the problem is on; null for a whole file"),
        "column": ("-", "the column on that line; null when not known"),
        "hand_id": ("-", "the hand's id when it could be read; null otherwise"),
        "kind": (
            "-",
            "rejected (a hand not read), skipped (another game), unknown (no known site's "
            "format), unreadable (a file), or conflict (a database's copy of a stored hand "
            "with another text)",
        ),
        "reason": ("-", "why, in words"),
        "game": ("-", "a skipped hand's game as written"),
        "about_hand": (
            "-",
            "false for a rejection that is no hand's (text between hands, an empty file, "
            "XML broken outside any hand), which is counted apart from rejected hands",
        ),
    },
    "allin_ev": {
        "hand_id": _KEY,
        "site": _SITE,
        "money_unit": _UNIT,
        "player": ("-", "the player"),
        "seat": ("-", "the player's seat"),
        "street": ("-", "the street his last pot at equity was settled on"),
        "all_in": ("-", "the player was all-in by then"),
        "equity": ("share", "expected share of the pots at equity (0 to 1, a float)"),
        "equity_error": ("share", "its standard error (0 when every deal was counted)"),
        "method": ("-", "exact (every pot valued exactly) or monte_carlo"),
        "samples": ("-", "deals counted (exact) or drawn (Monte Carlo), the fewest of its pots"),
        "contributed": (_M, "all the player put in"),
        "collected": (_M, "all the player took"),
        "net": (_M, "collected - contributed"),
        "ev_collected": (_M, "equity x pots at equity + paid from the others, rounded"),
        "ev_net": (_M, "ev_collected - contributed"),
        "at_stake": (_M, "the chips (after rake) of the pots valued for him"),
    },
    "awards": {
        "hand_id": _KEY,
        "site": _SITE,
        "money_unit": _UNIT,
        "pot": ("-", "0 the main (or only) pot, N side pot N"),
        "half": ("-", "high, low or whole"),
        "amount": (_M, "chips in this pot half after rake"),
        "player": ("-", "a player in this pot half"),
        "eligible": ("-", "the player may win it (put chips in it, did not fold)"),
        "winner": ("-", "the rules give the player a share"),
        "expected": (_M, "what the rules say the player gets from it"),
        "reported": (_M, "what the site paid the player from it"),
    },
    "violations": {
        "hand_id": _KEY,
        "site": _SITE,
        "money_unit": ("-", "the unit of expected/reported when they are amounts"),
        "code": ("-", "the finding's code (ODD_CHIP, AWARD_MISMATCH, ...)"),
        "severity": ("-", "error, warning or info"),
        "street": ("-", "the street it is on; null for the whole hand"),
        "line": ("-", "the line of the source file it is about"),
        "expected": ("-", "what the rules expect, as text (amounts in money_unit)"),
        "reported": ("-", "what the record says, as text"),
        "message": ("-", "the finding in words"),
        "source_file": ("-", "the file the hand was read from"),
        "seq": ("-", "its place among the hand's findings; null for one across hands"),
        "caused_by": ("-", "the seq of the finding it follows from; null for a root cause"),
    },
}


def _type(t: pa.DataType) -> str:
    import pyarrow as pa

    if pa.types.is_timestamp(t):
        return f"timestamp ({t.unit}, {t.tz})"
    return {"double": "float64", "bool": "bool"}.get(str(t), str(t))


def schema_markdown() -> str:
    """docs/schema.md: every table of SCHEMAS, each column's type, unit and meaning."""
    from histkit.tables import AUDIT_TABLES, SCHEMAS

    out = [
        "# The histkit tables",
        "",
        "Generated from `histkit.tables.SCHEMAS` and `histkit/schemadoc.py` by",
        "`python -m histkit.schemadoc > docs/schema.md` (a test holds this page equal to it).",
        "`histkit parse` writes them as Parquet, `histkit import` as DuckDB tables, and",
        "`histkit.read(...)` gives them to Python. Columns may be added, never renamed.",
        "",
        "Every amount is an integer (int64) in the minor unit of its unit column: `money_unit`",
        "(a currency's cents, or one tournament's chips), `buy_in_currency` or",
        "`prize_currency`. Never add amounts of two units: group by the unit column first. A",
        "hand is identified by (`site`, `hand_id`), a player by (`site`, `player`).",
        f"The audit tables ({', '.join(f'`{n}`' for n in AUDIT_TABLES)}) exist when the hands",
        "were audited (`parse --audit`, `import`, `histkit.read(..., audit=True)`).",
        "",
    ]
    for name, schema in SCHEMAS.items():
        out += [f"## {name}", "", TABLES[name], "", "| column | type | unit | meaning |"]
        out.append("|---|---|---|---|")
        for f in schema:
            unit, meaning = COLUMNS[name][f.name]
            unit_text = "-" if unit == "-" else f"`{unit}`" if "_" in unit else unit
            out.append(f"| `{f.name}` | {_type(f.type)} | {unit_text} | {meaning} |")
        out.append("")
    return "\n".join(out)


if __name__ == "__main__":
    sys.stdout.write(schema_markdown())
