"""One input's hands in DuckDB, for the statistics: the hand database itself (read-only),
or a temporary database the tables of hand histories, folders of tables or tables in
memory are written into, a bounded batch at a time; removed when closed.

So `stats` and `report` hold no table whole in memory: DuckDB computes the facts and their
sums (`histkit.statsql`) within its memory limit, spilling to the temporary folder, and
pandas sees only the small per-player result.

Each hand is kept once, by (site, hand id): the first copy read (a hand id alone is not a
hand: two sites may number hands alike). Copies are dropped before their tables are
built (`histkit.parallel.process_chunk(keys=True)`) or written, and counted
(`Workspace.duplicates`).
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from histkit import tables as _tables

if TYPE_CHECKING:
    import duckdb
    import pyarrow as pa

    from histkit.parallel import ChunkResult
    from histkit.selection import Filters
    from histkit.sources import Source

__all__ = [
    "HAND_TABLES",
    "MEMORY_LIMIT",
    "Workspace",
    "from_arrow",
    "from_db",
    "from_folders",
    "from_text",
    "open_source",
    "select",
]

#: The tables of hands the statistics read (each keyed by site and hand_id), and `errors`.
HAND_TABLES = _tables.HAND_TABLES
_AUDIT = _tables.AUDIT_TABLES
MEMORY_LIMIT = "256MB"  # DuckDB's own memory: beyond it, it spills to the temporary folder
_THREADS = 2
_BATCH_HANDS = 4096  # hands of text written to the temporary database at a time
_KINDS = ("skipped", "rejected", "outside", "unknown", "unreadable")  # of the errors, counted


@dataclass
class Workspace:
    """A DuckDB connection that holds the input's tables under their own names (`tables`:
    those present), with `hk_hands` (the selected hands, labelled) once `histkit.stats`
    selects them. `duplicates`: (site, hand id) read more than once, as (count, example
    hand id); `counts`: what was read (hands, and the errors' kinds). Close it (or use
    `with`): a temporary database is removed."""

    con: duckdb.DuckDBPyConnection
    tables: set[str]
    folder: Path | None = None
    audited: bool = False
    duplicates: tuple[int, str | None] = (0, None)
    counts: dict[str, int] = field(default_factory=dict)
    aliased: bool = False  # `hk_alias` joins names of players (`set_aliases`)

    @property
    def has_awards(self) -> bool:
        return self.audited and "awards" in self.tables

    @property
    def has_ev(self) -> bool:
        return "allin_ev" in self.tables

    def close(self) -> None:
        try:
            self.con.close()
        finally:
            if self.folder is not None:
                shutil.rmtree(self.folder, ignore_errors=True)
                self.folder = None

    def __enter__(self) -> Workspace:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def arrow(self, sql: str, params: list[Any] | None = None) -> pa.Table:
        """The rows of `sql` as an Arrow table."""
        rel = self.con.sql(sql, params=params or None)
        fetch = getattr(rel, "to_arrow_table", None) or rel.arrow  # DuckDB 2.x, 1.x
        return fetch()


def _settings(con: duckdb.DuckDBPyConnection, folder: Path) -> None:
    """Bounded memory: DuckDB spills to `folder` past its limit; timestamps in UTC."""
    con.execute(f"SET temp_directory = '{_quote(str(folder / 'spill'))}'")
    con.execute(f"SET memory_limit = '{MEMORY_LIMIT}'")
    con.execute(f"SET threads = {_THREADS}")
    con.execute("SET TimeZone = 'UTC'")
    # the facts and what is made of them go to a database of their own in `folder`: on
    # disk, so DuckDB keeps in memory only what it works on (temporary tables stay there)
    con.execute(f"ATTACH '{_quote(str(folder / 'work.duckdb'))}' AS hk_work (READ_WRITE)")


def _quote(text: str) -> str:
    return text.replace("'", "''")


def _temporary(audit: bool) -> Workspace:
    """An empty workspace: a database file in a new temporary folder, every table of
    hands created with the columns `histkit.tables.SCHEMAS` gives it."""
    import duckdb

    from histkit.db.connection import _CONFIG
    from histkit.tables import SCHEMAS

    folder = Path(tempfile.mkdtemp(prefix="histkit-stats-"))
    try:
        con = duckdb.connect(str(folder / "hands.duckdb"), config=_CONFIG)
        _settings(con, folder)
        names = [n for n in (*HAND_TABLES, "errors") if audit or n not in _AUDIT]
        for name in names:
            con.register("hk_empty", SCHEMAS[name].empty_table())
            con.execute(f'CREATE TABLE "{name}" AS SELECT * FROM hk_empty')
            con.unregister("hk_empty")
        con.execute("CREATE TABLE hk_dups (site VARCHAR, hand_id VARCHAR)")
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return Workspace(con, set(names), folder, audited=audit)


class _Writer:
    """Tables into a temporary workspace, a batch of hands at a time, each (site, hand id)
    once: the first copy. Keeps only the batch's keys in memory; copies of hands already
    written are found by DuckDB."""

    def __init__(self, ws: Workspace) -> None:
        self.ws = ws
        self.parts: dict[str, list[pa.Table]] = {}
        self.keys: set[tuple[str, str]] = set()  # of this batch
        self.copies: set[tuple[str, str]] = set()  # of this batch
        self.written = 0  # hands written
        self.rows_in = 0  # rows of `hands` given, copies included

    def copy(self, site: str, hand_id: str) -> None:
        self.copies.add((site, hand_id))

    def add(self, tables: Mapping[str, pa.Table]) -> None:
        hands = tables["hands"]
        self.rows_in += hands.num_rows
        keys = list(zip(hands["site"].to_pylist(), hands["hand_id"].to_pylist(), strict=True))
        again = {k for k in keys if k in self.keys}
        if again or len(set(keys)) < len(keys):  # copies within the batch: the first stays
            tables, keys = _first_copies(tables, keys, self.keys)
            self.copies.update(again)
        self.keys.update(keys)
        for name, table in tables.items():
            if name in self.ws.tables:
                self.parts.setdefault(name, []).append(table)
        if len(self.keys) >= _BATCH_HANDS:
            self.flush()

    def flush(self) -> None:
        import pyarrow as pa

        con = self.ws.con
        parts, self.parts = self.parts, {}
        batch = {n: pa.concat_tables(p, promote_options="default") for n, p in parts.items()}
        hands = batch.get("hands")
        if hands is not None and hands.num_rows and self.written:
            con.register("hk_batch", hands.select(["site", "hand_id"]))
            stored = con.execute(
                "SELECT b.site, b.hand_id FROM hk_batch b SEMI JOIN hands h "
                "ON h.site = b.site AND h.hand_id = b.hand_id"
            ).fetchall()
            con.unregister("hk_batch")
            if stored:  # copies of hands written in an earlier batch
                old = {(str(s), str(h)) for s, h in stored}
                self.copies.update(old)
                batch = {n: _without(n, t, old) for n, t in batch.items()}
        for name, table in batch.items():
            if table.num_rows:
                con.register("hk_batch", table)
                con.execute(f'INSERT INTO "{name}" BY NAME SELECT * FROM hk_batch')
                con.unregister("hk_batch")
        if "hands" in batch:
            self.written += batch["hands"].num_rows
        if self.copies:
            con.register("hk_batch", _key_table(self.copies))
            con.execute(
                "INSERT INTO hk_dups SELECT DISTINCT b.site, b.hand_id FROM hk_batch b "
                "ANTI JOIN hk_dups d ON d.site = b.site AND d.hand_id = b.hand_id"
            )
            con.unregister("hk_batch")
        self.keys, self.copies = set(), set()

    def finish(self) -> None:
        self.flush()
        n, example = self.ws.con.execute("SELECT count(*), min(hand_id) FROM hk_dups").fetchall()[0]
        self.ws.duplicates = (int(n), None if example is None else str(example))
        self.ws.counts["kept"] = self.written  # each (site, hand id) once
        _count_errors(self.ws)


def _key_table(keys: Iterable[tuple[str, str]]) -> pa.Table:
    import pyarrow as pa

    sites, ids = zip(*keys, strict=True) if keys else ((), ())
    return pa.table({"site": pa.array(sites, pa.string()), "hand_id": pa.array(ids, pa.string())})


def _mask(table: pa.Table, keys: set[tuple[str, str]]) -> pa.Array:
    """True for the rows of `table` whose (site, hand id) is one of `keys`."""
    import pyarrow as pa

    rows = zip(table["site"].to_pylist(), table["hand_id"].to_pylist(), strict=True)
    return pa.array([k in keys for k in rows], pa.bool_())


def _without(name: str, table: pa.Table, keys: set[tuple[str, str]]) -> pa.Table:
    """`table` without the rows of the hands `keys` (errors are no hand's rows)."""
    import pyarrow.compute as pc

    if name == "errors" or not table.num_rows:
        return table
    return table.filter(pc.invert(_mask(table, keys)))


def _first_copies(
    tables: Mapping[str, pa.Table], keys: list[tuple[str, str]], before: set[tuple[str, str]]
) -> tuple[dict[str, pa.Table], list[tuple[str, str]]]:
    """The tables of one input with each hand once, the first copy: a hand's rows are
    written together, so the first copy's rows are the first run of the hand's key in
    each table; hands of `before` (written already) are dropped whole."""
    import pyarrow as pa

    out: dict[str, pa.Table] = {}
    for name, table in tables.items():
        if name == "errors" or not table.num_rows:
            out[name] = table
            continue
        seen: set[tuple[str, str]] = set(before)
        keep = []
        last = None
        for k in zip(table["site"].to_pylist(), table["hand_id"].to_pylist(), strict=True):
            if k != last:
                first_run = k not in seen
                seen.add(k)
                last = k
            keep.append(first_run)
        out[name] = table.filter(pa.array(keep, pa.bool_()))
    unique = list(dict.fromkeys(k for k in keys if k not in before))
    return out, unique


# ----------------------------------------------------------------------------- inputs


def from_text(
    paths: Iterable[str | Path],
    *,
    jobs: int = 1,
    site: str | None = None,
    audit: bool = True,
    progress: Callable[[int, int], object] | None = None,
) -> Workspace:
    """Hand histories read (`jobs` worker processes, `site` forced or detected), replayed
    when `audit`, and written into a temporary workspace chunk by chunk: copies of a hand
    are left out of the tables as they are built."""
    from histkit.parallel import run

    ws = _temporary(audit)
    try:
        writer = _Writer(ws)
        read = 0
        for r in run(list(paths), jobs=jobs, site=site, audit=audit, keys=True):
            read += r.hands
            _add_chunk(writer, r)
            if progress is not None:
                progress(r.hands, r.nbytes)
        writer.finish()
        ws.counts["read"] = read
    except BaseException:
        ws.close()
        raise
    return ws


def _add_chunk(writer: _Writer, r: ChunkResult) -> None:
    for k in r.keys:
        if not k.stored:
            writer.copy(k.site, k.hand_id)
    if r.tables is not None:
        writer.add(dict(r.tables.items()))


def from_arrow(tables: Any, *, audit: bool | None = None) -> Workspace:
    """Tables in memory (`histkit.tables.Tables`, or a mapping of names to Arrow tables or
    DataFrames) in a temporary workspace. `audit`: whether to read the audit's tables
    (default: when present)."""
    import pandas as pd
    import pyarrow as pa

    from histkit.selection import MissingTableError

    got: dict[str, pa.Table] = {}
    for name in (*HAND_TABLES, "errors"):
        t = tables.get(name) if isinstance(tables, Mapping) else getattr(tables, name, None)
        if t is None:
            continue
        got[name] = (
            pa.Table.from_pandas(t, preserve_index=False) if isinstance(t, pd.DataFrame) else t
        )
    missing = [n for n in ("hands", "seats", "actions", "cards") if n not in got]
    if missing:
        raise MissingTableError("statistics need the tables " + ", ".join(missing))
    audited = audit if audit is not None else "awards" in got
    ws = _temporary(audited)
    try:
        ws.tables = {n for n in ws.tables if n in got or n == "errors"}
        for name in list(got):
            if name not in ws.tables:
                continue
            got[name] = _conformed(name, got[name], got.get("hands"))
        writer = _Writer(ws)
        writer.add({n: t for n, t in got.items() if n in ws.tables})
        writer.finish()
        ws.counts["read"] = writer.rows_in
        for name in HAND_TABLES:
            if name not in got:
                ws.con.execute(f'DROP TABLE IF EXISTS "{name}"')
    except BaseException:
        ws.close()
        raise
    return ws


def _conformed(name: str, table: pa.Table, hands: pa.Table | None) -> pa.Table:
    """A table as the workspace takes it: the columns it knows, each row of a hand with
    the hand's site."""
    table = _known_columns(name, table)
    return table if name == "errors" else _with_site(table, hands)


def _known_columns(name: str, table: pa.Table) -> pa.Table:
    """The columns of `table` that `SCHEMAS` knows, with its types (a DataFrame's NaN
    columns come back typed)."""
    import pyarrow as pa

    from histkit.tables import SCHEMAS

    schema = SCHEMAS[name]
    cols = [f for f in schema if f.name in table.column_names]
    table = table.select([f.name for f in cols])
    try:
        return table.cast(pa.schema(cols))
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError, pa.ArrowTypeError):
        return table


def _with_site(table: pa.Table, hands: pa.Table | None) -> pa.Table:
    """A table of an older histkit without `site`: each row gets its hand's."""
    import pyarrow as pa

    if "site" in table.column_names or hands is None or "site" not in hands.column_names:
        return (
            table
            if "site" in table.column_names
            else table.append_column("site", pa.array([""] * table.num_rows, pa.string()))
        )
    site_of = dict(zip(hands["hand_id"].to_pylist(), hands["site"].to_pylist(), strict=True))
    sites = [site_of.get(h, "") for h in table["hand_id"].to_pylist()]
    return table.append_column("site", pa.array(sites, pa.string()))


def from_folders(folders: Iterable[Path], *, audit: bool = True) -> Workspace:
    """Folders of tables `histkit parse` wrote (complete results only) in a temporary
    workspace, read a batch of rows at a time (`histkit.warehouse.table_batches`) and each
    hand kept once, its first copy, by DuckDB (`histkit.firstcopy`): the folders' size
    does not set the memory used."""
    from histkit import firstcopy
    from histkit.warehouse import read_record, table_batches

    folders = list(folders)
    ws = _temporary(audit)
    try:
        present: dict[str, int] = {}
        stagers: dict[str, firstcopy.Stager] = {}
        for folder in folders:
            have = read_record(folder)["tables"]
            if "hands" not in have:
                continue
            for name in sorted(ws.tables):
                if name not in have:
                    continue
                present[name] = present.get(name, 0) + 1
                stager = stagers.setdefault(name, firstcopy.Stager(ws.con, name))
                for batch in table_batches(folder, name):
                    stager.add(_known_columns(name, batch))
        staged = list(stagers)
        got, example = firstcopy.keep_first(ws.con, staged) if "hands" in staged else ({}, None)
        ws.duplicates = (got.get("copies", 0), example)
        _count_kinds(ws, got)
        # a table some folder lacks (an older histkit) is absent, as reading them did
        for name in HAND_TABLES:
            if name in ws.tables and present.get(name, 0) < len(folders):
                ws.con.execute(f'DROP TABLE "{name}"')
                ws.tables.discard(name)
    except BaseException:
        ws.close()
        raise
    return ws


def _count_kinds(ws: Workspace, got: dict[str, int]) -> None:
    """The counts of a folders' workspace, as `_Writer.finish` makes them for text."""
    ws.counts["read"] = got.get("read", 0)
    ws.counts["kept"] = got.get("kept", 0)
    if got.get("differ"):
        ws.counts["differ"] = got["differ"]
    _count_errors(ws)


def _count_errors(ws: Workspace) -> None:
    """The errors' counts by kind, as counted (`histkit.tables.counted_kind`)."""
    columns = [str(c[0]) for c in ws.con.execute("SELECT * FROM errors LIMIT 0").description or []]
    kind = _tables.counted_kind_sql(columns)
    kinds = dict(ws.con.execute(f"SELECT {kind}, count(*) FROM errors GROUP BY 1").fetchall())
    for k in _KINDS:
        ws.counts[k] = int(kinds.get(k, 0))


def _count(ws: Workspace, name: str) -> int:
    return int(ws.con.execute(f'SELECT count(*) FROM "{name}"').fetchall()[0][0])


def from_db(file: Path, *, audit: bool = True) -> Workspace:
    """The hand database `file`, read in place (read-only): DuckDB's spills and the
    selection's temporary tables go to a temporary folder, removed when closed."""
    from histkit.sources import _db_tables, empty_db, open_db

    con = open_db(file)
    folder = Path(tempfile.mkdtemp(prefix="histkit-stats-"))
    try:
        _settings(con, folder)
        present = set(_db_tables(con))
        names = {n for n in (*HAND_TABLES, "errors") if n in present}
        names = {n for n in names if audit or n not in _AUDIT}
        ws = Workspace(con, names, folder, audited=audit and "awards" in names)
        _with_sites(con, names)
        ws.counts["stored"] = _count(ws, "hands")
        if not ws.counts["stored"]:
            raise empty_db(file)
        if "errors" in names:
            _count_errors(ws)
    except BaseException:
        con.close()
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return ws


def _with_sites(con: duckdb.DuckDBPyConnection, names: set[str]) -> None:
    """Tables of an older histkit have no `site` but in `hands`: each such table is read
    as a temporary copy with its hand's site (by hand id alone, as that histkit read it),
    which the statistics' SQL finds first by the same name."""
    catalog = str(con.execute("SELECT current_database()").fetchall()[0][0]).replace('"', '""')
    for name in sorted(names - {"hands", "errors"}):
        columns = con.execute(f'SELECT * FROM "{name}" LIMIT 0').description or []
        if "site" in {c[0] for c in columns}:
            continue
        con.execute(
            f'CREATE TEMP TABLE "{name}" AS SELECT t.*, h.site FROM "{catalog}".main."{name}" t '
            f'LEFT JOIN (SELECT hand_id, any_value(site) AS site FROM "{catalog}".main.hands '
            "GROUP BY hand_id) h ON h.hand_id = t.hand_id ORDER BY t.rowid"
        )


# -------------------------------------------------------------------------- selection


def select(ws: Workspace, filters: Filters | None) -> int:
    """`hk_hands`: the hands `filters` keep (all but the player, who is kept in the facts:
    his spots are judged with everyone at the table; here, the hands he sat in), with
    their labels (`money`, `stakes`) and `rake` counting any fee. Returns how many."""
    from histkit.money import money_label, stakes_label
    from histkit.selection import Filters
    from histkit.sources import hand_terms

    f = filters or Filters()
    terms, params = hand_terms(f, "h.")
    if f.player:
        joined = (
            " OR EXISTS (SELECT 1 FROM hk_alias a WHERE a.site = s.site AND a.name = s.player "
            "AND lower(a.alias) = lower(?))"
            if ws.aliased
            else ""
        )
        terms.append(
            "EXISTS (SELECT 1 FROM seats s WHERE s.site = h.site AND s.hand_id = h.hand_id "
            f"AND (lower(s.player) = lower(?){joined}))"
        )
        params += [f.player, f.player] if ws.aliased else [f.player]
    where = " AND ".join(terms) or "true"
    con = ws.con
    con.execute(
        f"CREATE OR REPLACE TEMP TABLE hk_selected AS SELECT * FROM hands h WHERE {where} "
        "ORDER BY h.rowid",
        params,
    )
    units = [
        str(r[0]) for r in con.execute("SELECT DISTINCT money_unit FROM hk_selected").fetchall()
    ]
    combos = con.execute(
        "SELECT DISTINCT small_bet, big_bet, unit, currency FROM hk_selected"
    ).fetchall()
    labels = [stakes_label(int(s), int(b), u, c) for s, b, u, c in combos]
    if f.stakes:
        import pandas as pd

        from histkit.money import stakes_match

        keep = stakes_match(pd.Series(labels, dtype="object"), f.stakes).to_numpy()
        combos = [c for c, k in zip(combos, keep, strict=True) if k]
        labels = [x for x, k in zip(labels, keep, strict=True) if k]
    import pyarrow as pa

    con.register(
        "hk_money_labels",
        pa.table({"money_unit": units, "money": [money_label(u) for u in units]}),
    )
    con.register(
        "hk_stakes_labels",
        pa.table(
            {
                "small_bet": pa.array([c[0] for c in combos], pa.int64()),
                "big_bet": pa.array([c[1] for c in combos], pa.int64()),
                "unit": pa.array([c[2] for c in combos], pa.string()),
                "currency": pa.array([c[3] for c in combos], pa.string()),
                "stakes": pa.array(labels, pa.string()),
            }
        ),
    )
    con.execute(
        """CREATE OR REPLACE TEMP TABLE hk_hands AS
        SELECT h.* REPLACE (CAST(coalesce(h.rake, 0) + coalesce(h.fee, 0) AS BIGINT) AS rake),
            m.money, k.stakes
        FROM hk_selected h
        JOIN hk_money_labels m ON m.money_unit = h.money_unit
        JOIN hk_stakes_labels k ON k.small_bet = h.small_bet AND k.big_bet = h.big_bet
            AND k.unit = h.unit AND k.currency IS NOT DISTINCT FROM h.currency
        ORDER BY h.rowid"""
    )
    con.unregister("hk_money_labels")
    con.unregister("hk_stakes_labels")
    con.execute("DROP TABLE hk_selected")
    n = _count(ws, "hk_hands")
    if ws.folder is not None and "hk_dups" in _temp_or_main_tables(con):
        # copies are said of the hands selected, as reading them said them
        got = con.execute(
            "SELECT count(*), min(d.hand_id) FROM hk_dups d SEMI JOIN hk_hands h "
            "ON h.site = d.site AND h.hand_id = d.hand_id"
        ).fetchall()[0]
        ws.duplicates = (int(got[0]), None if got[1] is None else str(got[1]))
    if ws.audited and n and "awards" in ws.tables:
        # a database keeps the audit's tables whether or not an import filled them: hands
        # imported without the audit have no award at all (every audited hand has one)
        row = con.execute(
            "SELECT count(*) FROM awards w SEMI JOIN hk_hands h "
            "ON w.site = h.site AND w.hand_id = h.hand_id"
        ).fetchall()[0]
        if not row[0]:
            ws.audited = False
    return n


def _temp_or_main_tables(con: duckdb.DuckDBPyConnection) -> set[str]:
    return {str(r[0]) for r in con.execute("SELECT table_name FROM duckdb_tables()").fetchall()}


def open_source(
    source: Source,
    *,
    filters: Filters | None = None,
    audit: bool = True,
    site: str | None = None,
    jobs: int = 1,
    progress: Callable[[int, int], object] | None = None,
    counts: dict[str, Any] | None = None,
    aliases: Mapping[str, Iterable[tuple[str, str]]] | None = None,
) -> Workspace:
    """The workspace of a command's input (`histkit.sources.resolve`), its hands selected
    by `filters` (`select`). `counts`, when given, is filled as `histkit.sources.load` fills
    it ("read" is None for the database: its filters ran in SQL), with "selected": the
    hands kept. `aliases`: players joined (`set_aliases`)."""
    if source.kind == "db":
        ws = from_db(source.paths[0], audit=audit)
    elif source.kind == "tables":
        ws = from_folders(source.paths, audit=audit)
    else:
        ws = from_text(source.paths, jobs=jobs, site=site, audit=audit, progress=progress)
    try:
        if aliases:
            set_aliases(ws, aliases)
        n = select(ws, filters)
        if counts is not None:
            counts.update({k: v for k, v in ws.counts.items() if k != "read"})
            counts["read"] = None if source.kind == "db" else ws.counts.get("read", 0)
            counts["selected"] = n
            if not n and filters is not None and filters.player:
                from histkit.sources import _note_unknown_player

                names = [
                    r[0] for r in ws.con.execute("SELECT DISTINCT player FROM seats").fetchall()
                ]
                names += list(aliases or ())
                _note_unknown_player(counts, filters.player, names)
    except BaseException:
        ws.close()
        raise
    return ws


def set_aliases(ws: Workspace, aliases: Mapping[str, Iterable[tuple[str, str]]]) -> None:
    """Join players: each alias name stands for the (site, name) players it lists (a name
    at one site is one player; the same name at two sites is two unless joined here). The
    joined player's `player_site` is its sites, joined by "+". A (site, name) in two
    aliases is a `ValueError`."""
    import pyarrow as pa

    alias_of: dict[tuple[str, str], str] = {}
    sites_of: dict[str, str] = {}
    for alias, members in aliases.items():
        members = list(members)
        sites_of[alias] = "+".join(sorted({site for site, _ in members}))
        for key in members:
            if alias_of.get(key, alias) != alias:
                raise ValueError(
                    f"{key[0]}:{key[1]} is joined twice, as {alias_of[key]} and as {alias}"
                )
            alias_of[key] = alias
    table = pa.table(
        {
            "site": pa.array([k[0] for k in alias_of], pa.string()),
            "name": pa.array([k[1] for k in alias_of], pa.string()),
            "alias": pa.array(list(alias_of.values()), pa.string()),
            "sites": pa.array([sites_of[a] for a in alias_of.values()], pa.string()),
        }
    )
    ws.con.register("hk_alias_rows", table)
    ws.con.execute("CREATE OR REPLACE TEMP TABLE hk_alias AS SELECT * FROM hk_alias_rows")
    ws.con.unregister("hk_alias_rows")
    ws.aliased = bool(alias_of)
