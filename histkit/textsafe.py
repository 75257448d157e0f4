"""User text made safe for each place histkit writes it.

Player, table and tournament names (and hand ids) are whatever a site, or anyone editing a
file, wrote: a name can be a spreadsheet formula, a right-to-left override or 5,000
characters long. Each output has one rule, kept here so every writer applies the same one:

- CSV: a text cell that a spreadsheet would evaluate (it begins with = + - @ tab or CR)
  gets a leading apostrophe and is quoted, as OWASP recommends for CSV injection. A cell
  that already begins with an apostrophe gets one more, so removing one leading apostrophe
  (`csv_value`) always gives the text back. Numbers are never touched: -120 stays a number.
- text meant for a terminal (every text output: tables, summaries, messages, the watch
  status): each control character (C0, DEL, C1, line and paragraph separators) is shown
  as an escape (`\\x1b`, `\\n`, `\\r`, `\\t`; `terminal_text`), so a name holding an
  ESC sequence cannot clear the screen and one holding CR or LF (XML's `&#13;`, `&#10;`)
  cannot forge a row; every writer prints its lines through `terminal_lines`. Names are
  also clipped to a width, ending in "…" (`clip`).
- HTML: text is escaped and, when it could reorder what surrounds it, isolated in a
  `<bdi>` (`html_text`, `bidi`, `html_with_names`).

CSV, JSON and Parquet keep every name whole; only text meant for eyes is clipped.
"""

from __future__ import annotations

import csv
import html
import re
import unicodedata
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "FORMULA_START",
    "NAME_WIDTH",
    "csv_cell",
    "csv_value",
    "CsvWriter",
    "frame_csv",
    "clip",
    "terminal_text",
    "terminal_lines",
    "needs_isolation",
    "bidi",
    "html_text",
    "html_with_names",
    "isolate_plain",
    "without_bidi_controls",
]

#: What a spreadsheet reads as the start of a formula (OWASP, "CSV Injection").
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
#: Characters of a name shown in a text table.
NAME_WIDTH = 24

# --------------------------------------------------------------------------- CSV


def csv_cell(value: Any) -> Any:
    """`value` as a CSV cell: text a spreadsheet would evaluate (or text beginning with an
    apostrophe, so that the rule can be undone) gets a leading apostrophe; anything
    that is not a `str` (numbers, None) is returned as it is."""
    if isinstance(value, str) and value.startswith((*FORMULA_START, "'")):
        return "'" + value
    return value


def csv_value(cell: str) -> str:
    """The text `csv_cell` was given: one leading apostrophe removed."""
    return cell[1:] if cell.startswith("'") else cell


class CsvWriter:
    """`csv.writer` for cells that may hold hostile text: every `str` goes through
    `csv_cell`, and a neutralised cell is always quoted (OWASP: apostrophe and quotes),
    other cells only when they must be. None and NaN are empty cells."""

    def __init__(self, f: TextIO, dialect: type[csv.Dialect] | csv.Dialect = csv.excel) -> None:
        self._f = f
        self._sep = dialect.delimiter
        self._quote = dialect.quotechar or '"'
        self._end = dialect.lineterminator
        self._special = (self._sep, self._quote, "\r", "\n")

    def _field(self, v: Any) -> str:
        if v is None or (isinstance(v, float) and v != v):
            return ""
        if not isinstance(v, str):
            return str(v)
        safe = csv_cell(v)
        if safe is v and not any(c in v for c in self._special):
            return v
        q = self._quote
        return q + safe.replace(q, q + q) + q

    def writerow(self, row: Iterable[Any]) -> None:
        self._f.write(self._sep.join(self._field(v) for v in row) + self._end)

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        for row in rows:
            self.writerow(row)


def frame_csv(df: pd.DataFrame, dialect: type[csv.Dialect] | csv.Dialect = csv.excel) -> str:
    """`df.to_csv(index=False)` through `CsvWriter`: the same numbers (Python's shortest
    float repr, as pandas writes), text cells neutralised; NaN and NA are empty."""
    import io

    import pandas as pd

    buf = io.StringIO()
    w = CsvWriter(buf, dialect)
    w.writerow(str(c) for c in df.columns)
    for row in df.itertuples(index=False, name=None):
        w.writerow(None if v is pd.NA or v is pd.NaT else v for v in row)
    return buf.getvalue()


# --------------------------------------------------------------------------- text


# C0 controls, DEL, C1 controls, and the Unicode line and paragraph separators
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _escape(m: re.Match[str]) -> str:
    c = m.group()
    named = _NAMED.get(c)
    if named is not None:
        return named
    return f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}"


def terminal_text(text: str) -> str:
    """`text` for a terminal: each control character written as an escape (`\\x1b`,
    `\\n`, ...), so that the text stays on its line and cannot command the terminal.
    Text without one is returned as it is (the usual case costs one search)."""
    if _CONTROL.search(text) is None:
        return text
    return _CONTROL.sub(_escape, text)


def terminal_lines(lines: Iterable[str]) -> str:
    """`lines` (each one line, without its line end) as text for a terminal or a text
    file: each through `terminal_text`, each ended by a line end. The one way every text output
    is written, so a line end inside a line's text is escaped, never a new row."""
    return "".join(terminal_text(line) + "\n" for line in lines)


def clip(text: str, width: int = NAME_WIDTH) -> str:
    """`text` (through `terminal_text`) cut to `width` characters, the last one "…" when anything
    was cut, so a very long name cannot widen a text table without bound."""
    text = terminal_text(text)
    if len(text) <= width:
        return text
    return text[: max(width - 1, 0)] + "…"


# --------------------------------------------------------------------------- HTML

# Bidi classes that, in a left-to-right paragraph, render the same isolated or not.
_LTR_SAFE = frozenset({"L", "EN", "ES", "ET", "CS", "ON", "WS", "S", "NSM", "BN"})
_BIDI_CONTROLS = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def needs_isolation(text: str) -> bool:
    """Whether `text` holds right-to-left letters, Arabic digits or bidi controls (an
    override such as U+202E), which would reorder the text around it."""
    return any(unicodedata.bidirectional(c) not in _LTR_SAFE for c in text)


def bidi(html_text: str) -> str:
    """Escaped HTML in a `<bdi>` when its direction could leak into its neighbours.
    Left-to-right text renders the same either way, so it stays bare (smaller pages)."""
    return f"<bdi>{html_text}</bdi>" if needs_isolation(html_text) else html_text


def html_text(value: Any) -> str:
    """User text for an HTML text node: escaped, then isolated (`bidi`)."""
    return bidi(html.escape(str(value)))


def html_with_names(text: str, names: Iterable[str]) -> str:
    """`text` (e.g. an audit message) escaped, with each occurrence of one of `names`
    that needs it isolated, so an override inside a name cannot reverse the sentence."""
    risky = sorted({n for n in names if n and needs_isolation(n)}, key=len, reverse=True)
    if not risky:
        return bidi(html.escape(text))
    out, pos = [], 0
    for m in re.finditer("|".join(map(re.escape, risky)), text):
        out.append(html.escape(text[pos : m.start()]))
        out.append(f"<bdi>{html.escape(m.group())}</bdi>")
        pos = m.end()
    out.append(html.escape(text[pos:]))
    return bidi("".join(out))


def isolate_plain(text: str) -> str:
    """`text` between FSI and PDI when it needs isolating: the `<bdi>` of places where
    tags are not allowed (`<title>`, attributes). Escape it after."""
    return f"\u2068{text}\u2069" if needs_isolation(text) else text


def without_bidi_controls(text: str) -> str:
    """`text` without bidi control characters, for renderers that do not apply the
    bidi algorithm (matplotlib draws each control as a missing glyph)."""
    return _BIDI_CONTROLS.sub("", text)
