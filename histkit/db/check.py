"""`check`: what must hold of a hand database, whatever happened to the import that wrote
it (the kill tests open a database left by an import killed at a random point and check it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from histkit.db.schema import (
    CHILD_TABLES,
    SCHEMA_VERSION,
    DatabaseError,
    count_column,
    key_columns,
    version,
)
from histkit.tables import SCHEMAS

if TYPE_CHECKING:
    import duckdb

__all__ = ["check"]


def check(con: duckdb.DuckDBPyConnection) -> list[str]:
    """The database's problems, one sentence each (empty: none): every stored hand once,
    in `hand_index` with where it was read; every hand with all of its rows in each table
    (the counts `hand_index` recorded when it was stored: its seats, actions, cards, and
    awards and violations when audited) and no row of a hand that is not stored; every
    row's `money_unit` its hand's; the
    `files` table consistent with the hands, copies and errors read from each file."""
    try:
        v = version(con)
    except DatabaseError as e:
        return [str(e)]
    if v != SCHEMA_VERSION:
        return [f"schema version {v}, not {SCHEMA_VERSION}: open it for writing to migrate it"]
    problems: list[str] = []

    def count(sql: str) -> int:
        rows = con.execute(sql).fetchall()  # all: DuckDB wants each result finished
        return int(rows[0][0]) if rows else 0

    def say(n: int, what: str) -> None:
        if n:
            problems.append(f"{n:,} {what}")

    say(
        count(
            "SELECT count(*) FROM (SELECT 1 FROM hands GROUP BY site, hand_id HAVING count(*) > 1)"
        ),
        "hand keys (site, hand_id) stored more than once",
    )
    say(
        count("SELECT count(*) FROM hands h ANTI JOIN hand_index k USING (site, hand_id)"),
        "hands missing from hand_index",
    )
    say(
        count("SELECT count(*) FROM hand_index k ANTI JOIN hands h USING (site, hand_id)"),
        "hand_index rows of hands that are not stored",
    )
    say(
        count(
            "SELECT count(*) FROM hand_index k JOIN hands h USING (site, hand_id) "
            "WHERE k.source_file IS DISTINCT FROM h.source_file "
            "OR k.source_line IS DISTINCT FROM h.source_line"
        ),
        "hand_index rows that disagree with their hand on where it was read",
    )
    for table in CHILD_TABLES:
        keys = ", ".join(key_columns(table))
        if "money_unit" in SCHEMAS[table].names:
            say(
                count(
                    f'SELECT count(*) FROM "{table}" c JOIN hands h USING ({keys}) '
                    "WHERE c.money_unit IS DISTINCT FROM h.money_unit"
                ),
                f"rows of {table} whose money_unit is not their hand's",
            )
        say(
            count(f'SELECT count(*) FROM "{table}" c ANTI JOIN hands h USING ({keys})'),
            f"rows of {table} whose hand is not stored",
        )
        say(
            count(
                f"SELECT count(*) FROM hand_index k LEFT JOIN "
                f'(SELECT {keys}, count(*) AS n FROM "{table}" GROUP BY ALL) c USING ({keys}) '
                f"WHERE coalesce(c.n, 0) <> k.{count_column(table)}"
            ),
            f"hands whose rows in {table} are not all there (or too many)",
        )
    say(
        count("SELECT count(*) FROM (SELECT path FROM files GROUP BY path HAVING count(*) > 1)"),
        "files listed more than once in files",
    )
    for table, col in (
        ("hands", "source_file"),
        ("duplicates", "source_file"),
        ("errors", "source_file"),
    ):
        say(
            count(
                f"SELECT count(DISTINCT {col}) FROM {table} "
                f"WHERE {col} NOT IN (SELECT path FROM files)"
            ),
            f"files with rows in {table} but not in the files table",
        )
    for table, col in (("hands", "hands"), ("duplicates", "duplicates")):
        say(
            count(
                f"SELECT count(*) FROM files f LEFT JOIN (SELECT source_file, count(*) AS n "
                f"FROM {table} GROUP BY 1) c ON c.source_file = f.path "
                f"WHERE coalesce(c.n, 0) <> f.{col}"
            ),
            f"files whose count of {col} disagrees with the {table} table",
        )
    return problems
