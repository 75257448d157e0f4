"""The hand database's tables, its schema version, and the steps that bring an older
database up to date.

The tables of hands are those `histkit parse` writes, with the same names and columns: their
DDL is derived from `histkit.tables.SCHEMAS` (an empty Arrow table of each schema, turned
into a table by DuckDB itself), so a column added there is a column here, with DuckDB's own
mapping of its type. Beside them the database keeps its own books:

- `meta`: key/value pairs, among them `schema_version`;
- `files`: every file imported, with what the next import needs to skip it at the cost of
  a `stat` call or to read on from where the last one stopped (see `histkit.db.scan`);
- `hand_index`: one row per stored hand: its key (site, hand_id), a checksum of its text,
  where it was read, and how many rows each of its tables holds (what `check` verifies);
- `duplicates`: each copy of a stored hand read in another file (or again), not stored.

A database is always built by the migrations: the base layout (version 1), then each step
from version N to N+1 in order, so every step runs on every new database too. Before them,
`sync_columns` gives each table of hands the columns SCHEMAS has (histkit columns are only
ever added): such a table is rebuilt in SCHEMAS' column order, a new column of a hand's
child table that `hands` also has (its `site`, its `money_unit`) taken from the row's hand.
A new column that cannot be taken from the hand marks every file to be read again by the
next import that names it, so it gets values. A table of hands that is new (`allin_ev`,
version 3) is created the same way, and every file marked to be read again, which gives
the hands stored before their rows in it. A change of what a table's rows mean comes with
a new column (`allin_ev`'s `at_stake`, version 4), so the same re-reading replaces the rows.

Versions: 1 the base layout; 2 each hand's row count per table in `hand_index`; 3 the
`allin_ev` table; 4 all-in EV valued pot by pot (`allin_ev.at_stake`); 5 `money_unit`
beside the amounts of `seats`, `actions`, `awards` and `violations` (never null, the
hand's: a GROUP BY on one table cannot mix units).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pyarrow as pa

from histkit.db.connection import DatabaseError
from histkit.tables import SCHEMAS

if TYPE_CHECKING:
    import duckdb

__all__ = [
    "BOOK_TABLES",
    "CHILD_TABLES",
    "MIGRATIONS",
    "SCHEMA_VERSION",
    "DatabaseError",
    "DatabaseFull",
    "StagingError",
    "create",
    "ensure",
    "key_columns",
    "needs_upgrade",
    "version",
]


class DatabaseFull(DatabaseError):
    """The disk of the database is full: the import wrote nothing (the CLI's exit 2)."""


class StagingError(Exception):
    """An import's temporary folder (where it stages rows while it parses) cannot be
    written, full most often: the database was not touched (the CLI's exit 2)."""


#: tables whose rows belong to one hand (besides `hands`): rows keyed by (site, hand_id)
CHILD_TABLES: tuple[str, ...] = tuple(n for n in SCHEMAS if n not in ("hands", "errors"))
BOOK_TABLES = ("meta", "files", "hand_index", "duplicates")
REREAD = -1  # `files.mtime_ns` of a file the next import reads again whole


def key_columns(table: str) -> tuple[str, ...]:
    """The columns that name a row's hand: (site, hand_id), or hand_id alone in a table
    without `site` (the tables of histkit before every table carried it)."""
    return ("site", "hand_id") if "site" in SCHEMAS[table].names else ("hand_id",)


def count_column(table: str) -> str:
    """The `hand_index` column that holds a hand's row count in `table`."""
    return f"n_{table}"


# ------------------------------------------------------------------------- versions

_BASE = (  # version 1
    "CREATE TABLE meta (key VARCHAR, value VARCHAR)",
    """CREATE TABLE files (
        path VARCHAR,             -- absolute path, as the hands' source_file
        size BIGINT,              -- bytes, at the import (-1: could not stat it)
        mtime_ns BIGINT,          -- modification time, ns (-1: read it again, whole)
        consumed_bytes BIGINT,    -- the next import reads on from this byte offset ...
        consumed_lines BIGINT,    -- ... which is the start of line consumed_lines + 1
        prefix_sha256 VARCHAR,    -- of bytes [0, consumed_bytes): unchanged means grown
        mode VARCHAR,             -- 'text' (read on from consumed_bytes) or 'whole'
        audited BOOLEAN,          -- its hands' awards and violations are stored
        sites VARCHAR,            -- the sites of its hands, comma separated
        hands BIGINT,             -- hands stored from it
        duplicates BIGINT,        -- copies of hands stored from another file (or earlier)
        conflicts BIGINT,         -- hands whose key is stored with another text
        rejected BIGINT,          -- stud hands that could not be parsed
        skipped BIGINT,           -- hands of other games
        pending_line BIGINT,      -- its last hand, not complete yet (NULL: none)
        pending_reason VARCHAR,
        provisional_line BIGINT,  -- its last hand, stored, read again when the file grows
        imported_at TIMESTAMPTZ
    )""",
    """CREATE TABLE hand_index (
        site VARCHAR, hand_id VARCHAR, text_hash BIGINT, source_file VARCHAR,
        source_line BIGINT
    )""",
    """CREATE TABLE duplicates (
        site VARCHAR, hand_id VARCHAR, text_hash BIGINT, source_file VARCHAR,
        source_line BIGINT
    )""",
)


def _v1_to_v2(con: duckdb.DuckDBPyConnection) -> None:
    """Each hand's row count per table in `hand_index`, counted from the rows stored:
    what `check` holds every hand's rows to."""
    _add_counts(con)


def _v2_to_v3(con: duckdb.DuckDBPyConnection) -> None:
    """`allin_ev` (all-in expected value, one row per player still in at the all-in) is a
    table of hands: its count column in `hand_index`. (`sync_columns` created the table and
    marked every file to be read again, which gives the hands stored before their rows.)"""
    _add_counts(con)


#: `Hand.money_unit` over the columns of `hands`: fills the column in a database written
#: before it existed (tests/test_db_import.py holds the two to the same units)
MONEY_UNIT_SQL = (
    "CASE WHEN tournament_id IS NOT NULL THEN 'chips:' || site || ':' || tournament_id "
    "WHEN coalesce(currency, '') <> '' THEN currency "
    "WHEN unit = 'chip' THEN 'chips:' || site || ':play' "
    "ELSE 'unknown-currency:' || site END"
)


def _v4_to_v5(con: duckdb.DuckDBPyConnection) -> None:
    """The unit beside every amount (`fill_units`)."""
    fill_units(con)


def fill_units(con: duckdb.DuckDBPyConnection) -> None:
    """`money_unit` where it is NULL (a column new to the database): in `hands` from the
    hand's other columns, in every table of amounts from the row's hand (`sync_columns`
    took it from the hand already where the hand had it)."""
    con.execute(f"UPDATE hands SET money_unit = {MONEY_UNIT_SQL} WHERE money_unit IS NULL")
    for table in CHILD_TABLES:
        if "money_unit" not in SCHEMAS[table].names:
            continue
        keys = key_columns(table)
        on = " AND ".join(f't."{c}" = h."{c}"' for c in keys)
        con.execute(
            f"""UPDATE "{table}" AS t SET money_unit = h.money_unit
            FROM (SELECT {", ".join(keys)}, any_value(money_unit) AS money_unit
                  FROM hands GROUP BY ALL) AS h
            WHERE t.money_unit IS NULL AND {on}"""
        )


def _add_counts(con: duckdb.DuckDBPyConnection) -> None:
    """The `hand_index` count column of every table of hands that has none yet, counted
    from the rows stored."""
    have = set(_columns(con, "hand_index"))
    for table in CHILD_TABLES:
        col = count_column(table)
        if col in have:
            continue
        con.execute(f"ALTER TABLE hand_index ADD COLUMN {col} BIGINT DEFAULT 0")
        keys = key_columns(table)
        on = " AND ".join(f"k.{c} = c.{c}" for c in keys)
        con.execute(
            f"""UPDATE hand_index AS k SET {col} = c.n
            FROM (SELECT {", ".join(keys)}, count(*) AS n FROM "{table}" GROUP BY ALL) AS c
            WHERE {on}"""
        )


def _v3_to_v4(con: duckdb.DuckDBPyConnection) -> None:
    """`allin_ev` values each pot when its own last chip went in (a short stack's main pot
    on the street he went all-in, however long the others bet on): hands the rows stored
    before left out or valued later. A database of version 3 has no `at_stake` column, so
    `sync_columns` (which runs first) has added it and marked every file to be read again,
    which replaces each hand's rows; this step has nothing left to do. The version keeps an
    older histkit from writing rows of the earlier definition beside these."""
    del con


def _v5_to_v6(con: duckdb.DuckDBPyConnection) -> None:
    """`files` keeps each file's change time and whether it was racy (changed just before
    it was read), so a file rewritten with the same size and modification time is seen
    (`db/scan.py`). A file imported before has neither: the next import compares its
    bytes once."""
    con.execute("ALTER TABLE files ADD COLUMN IF NOT EXISTS ctime_ns BIGINT")
    con.execute("ALTER TABLE files ADD COLUMN IF NOT EXISTS racy BOOLEAN")


#: MIGRATIONS[i] brings a database of version i + 1 to version i + 2
MIGRATIONS: tuple[Callable[[duckdb.DuckDBPyConnection], None], ...] = (
    _v1_to_v2,
    _v2_to_v3,
    _v3_to_v4,
    _v4_to_v5,
    _v5_to_v6,
)
SCHEMA_VERSION = 1 + len(MIGRATIONS)


def version(con: duckdb.DuckDBPyConnection) -> int | None:
    """The database's schema version; None for a database with no tables at all (new).
    A database with tables but no `meta` is not a hand database."""
    tables = _tables(con)
    if "meta" not in tables:
        if tables:
            raise DatabaseError(
                "it holds tables but is not a histkit hand database (no meta table)"
            )
        return None
    rows = con.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchall()
    row = rows[0] if rows else None
    if row is None:
        raise DatabaseError("it is not a histkit hand database (no schema version)")
    return int(row[0])


def create(con: duckdb.DuckDBPyConnection, *, upto: int = SCHEMA_VERSION) -> None:
    """A new database at version `upto`: the base layout, then the migrations."""
    for ddl in _BASE:
        con.execute(ddl)
    for name, schema in SCHEMAS.items():
        _create_table(con, name, schema)
    con.execute("INSERT INTO meta VALUES ('schema_version', '1')")
    _migrate(con, 1, upto)


def needs_upgrade(con: duckdb.DuckDBPyConnection) -> bool:
    """Whether `ensure` has anything to do (a read-only connection cannot do it)."""
    v = version(con)
    if v is None or v < SCHEMA_VERSION:
        return True
    _refuse_newer(v)
    return bool(_stale_tables(con))


def ensure(con: duckdb.DuckDBPyConnection) -> None:
    """Bring the database (a writable connection) to the current schema, in one
    transaction: created if new, migrated step by step if older, each table of hands given
    the columns SCHEMAS has. A database of a newer histkit is refused."""
    v = version(con)
    if v is not None:
        _refuse_newer(v)
        if v == SCHEMA_VERSION and not _stale_tables(con):
            return
    con.begin()
    try:
        if v is None:
            create(con)
        else:  # the tables of hands first: a step may count or read their rows
            sync_columns(con)
            _migrate(con, v, SCHEMA_VERSION)
            fill_units(con)  # (a column added by sync_columns, whatever the version)
        from histkit import __version__

        con.execute("DELETE FROM meta WHERE key = 'histkit_version'")
        con.execute("INSERT INTO meta VALUES ('histkit_version', ?)", [__version__])
        con.commit()
    except BaseException:
        con.rollback()
        raise


def _refuse_newer(v: int) -> None:
    if v > SCHEMA_VERSION:
        raise DatabaseError(
            f"it was written by a newer histkit (schema version {v}; this histkit reads "
            f"up to {SCHEMA_VERSION}): upgrade histkit"
        )


def _migrate(con: duckdb.DuckDBPyConnection, start: int, end: int) -> None:
    for v in range(start, end):
        MIGRATIONS[v - 1](con)
        con.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", [str(v + 1)])


# ------------------------------------------------------------------ columns of SCHEMAS


def _tables(con: duckdb.DuckDBPyConnection) -> set[str]:
    rows = con.execute(
        "SELECT table_name FROM duckdb_tables() WHERE database_name = current_database() "
        "AND schema_name = 'main'"
    ).fetchall()
    return {r[0] for r in rows}


def _columns(con: duckdb.DuckDBPyConnection, table: str) -> list[str]:
    rows = con.execute(
        "SELECT column_name FROM duckdb_columns() WHERE database_name = current_database() "
        "AND schema_name = 'main' AND table_name = ? ORDER BY column_index",
        [table],
    ).fetchall()
    return [r[0] for r in rows]


def _stale_tables(con: duckdb.DuckDBPyConnection) -> list[str]:
    """Tables of hands missing, or whose columns are not SCHEMAS' (in its order)."""
    have = _tables(con)
    return [n for n, s in SCHEMAS.items() if n not in have or _columns(con, n) != s.names]


def _create_table(con: duckdb.DuckDBPyConnection, name: str, schema: pa.Schema) -> None:
    """A table with the schema's columns, typed as DuckDB types them from Arrow."""
    con.register("histkit_empty", schema.empty_table())
    try:
        con.execute(f'CREATE TABLE "{name}" AS SELECT * FROM histkit_empty')
    finally:
        con.unregister("histkit_empty")


def _types(con: duckdb.DuckDBPyConnection, schema: pa.Schema) -> dict[str, str]:
    con.register("histkit_empty", schema.empty_table())
    try:
        rows = con.execute("DESCRIBE SELECT * FROM histkit_empty").fetchall()
    finally:
        con.unregister("histkit_empty")
    return {r[0]: r[1] for r in rows}


#: New columns that rows stored before get from their own values, without a re-reading:
#: whether an error is a hand's (a rejection no hand's was text between hands or an empty
#: file, in the words the reader used for them; every other row was counted a hand's).
_FILLED: dict[str, dict[str, str]] = {
    "errors": {
        "about_hand": (
            "NOT (t.kind = 'rejected' AND t.hand_id IS NULL AND (t.reason LIKE "
            "'text that is not part of any hand%' OR t.reason LIKE 'empty file%'))"
        )
    }
}


def sync_columns(con: duckdb.DuckDBPyConnection) -> list[str]:
    """Give every table of hands SCHEMAS' columns, in its order (the tables it names that
    were rebuilt). New columns are NULL in rows stored before, except a child table's
    column that `hands` also has (`site`, `money_unit`), taken from the row's hand; when
    some new column could not be filled so, every file is marked to be read again, which
    fills it."""
    have = _tables(con)
    rebuilt = []
    reread = False
    for name in _stale_tables(con):
        schema = SCHEMAS[name]
        if name not in have:
            _create_table(con, name, schema)
            if name in CHILD_TABLES and "hands" in have:
                rebuilt.append(name)  # the hands stored before have no rows in it yet
                reread = True
            continue
        old = _columns(con, name)
        types = _types(con, schema)
        hand_columns = _columns(con, "hands") if name in CHILD_TABLES else []
        from_hand = [c for c in schema.names if c not in old and c in hand_columns]
        cols = []
        for c in schema.names:
            if c in old:
                cols.append(f't."{c}"')
            elif c in from_hand:
                cols.append(f'h."{c}" AS "{c}"')
            elif c in _FILLED.get(name, {}):
                cols.append(f'{_FILLED[name][c]} AS "{c}"')
            else:
                cols.append(f'CAST(NULL AS {types[c]}) AS "{c}"')
                reread = True
        cols += [f't."{c}"' for c in old if c not in schema.names]  # never dropped
        join = ""
        if from_hand:
            # the row's hand: by (site, hand_id) where the row has its site already
            on = [c for c in ("site", "hand_id") if c in old and c in hand_columns]
            keys = ", ".join(f'"{c}"' for c in on)
            picked = ", ".join(f'any_value("{c}") AS "{c}"' for c in from_hand)
            match = " AND ".join(f'h."{c}" = t."{c}"' for c in on)
            join = f"LEFT JOIN (SELECT {keys}, {picked} FROM hands GROUP BY ALL) AS h ON {match}"
        rows = f'(SELECT *, rowid AS histkit_row FROM "{name}")'  # kept in their order
        con.execute(
            f'CREATE TABLE "{name}__new" AS SELECT {", ".join(cols)} FROM {rows} t {join} '
            "ORDER BY t.histkit_row"
        )
        con.execute(f'DROP TABLE "{name}"')
        con.execute(f'ALTER TABLE "{name}__new" RENAME TO "{name}"')
        rebuilt.append(name)
    if reread and "files" in have:
        con.execute(f"UPDATE files SET mtime_ns = {REREAD}")  # read again: columns filled
    return rebuilt
