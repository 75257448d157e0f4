"""How counts are written for people: "1 hand", "2 hands", "1 cash", "3 cashes".

One helper for every writer (report, plots, audit and database summaries), so a count of
one never reads "1 cashes".
"""

from __future__ import annotations

__all__ = ["plural"]


def plural(n: int, word: str, many: str | None = None) -> str:
    """`n` and `word`, or its plural (`many`, else `word` + "s") when `n` is not 1."""
    return f"{n:,} {word if n == 1 else (many or word + 's')}"
