"""Where a command's hands come from, read one way whatever the source.

`stats`, `report` and `audit` take hand histories (text or XML files and folders), folders
of tables that `histkit parse -o` wrote (flat or partitioned: `histkit.warehouse`), or the
hand database (`--db [FILE]`, a DuckDB file whose tables have the names and columns
`histkit parse` writes). `resolve` decides which kind an input is, once, and refuses a mix
(one run's figures must come from one kind of source); `load` returns the same dict of
Arrow tables for each kind, with the hand filters applied: so a figure never depends on
where the hands were read from.

The filters keep or drop whole hands (every table's rows of a kept hand stay, so a
statistic judged in the hand's full context is unchanged); `errors` is never filtered (a
rejected hand cannot be dated). On the database the simple filters run in SQL, so a large
database is never copied whole to answer a question about a few hands; the connection is
held only while the rows are copied (an import or `histkit watch` may be waiting for it).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime, time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:  # pyarrow imported where used: an audit of hand histories loads none
    import pyarrow as pa

    from histkit.rules.continuity import StackRecord
    from histkit.selection import Filters
    from histkit.tables import HAND_TABLES

__all__ = [
    "HAND_TABLES",
    "Source",
    "SourceError",
    "check_stored_audit",
    "day_range",
    "empty_db",
    "open_db",
    "load",
    "filter_tables",
    "parse_day",
    "players_like",
    "record_filter",
    "resolve",
    "resolve_player",
    "stored_audit",
]

#: HAND_TABLES (histkit.tables, from SCHEMAS): tables whose rows belong to one hand
#: (filtered with their hand); `errors` is not one. A database also has `duplicates` (the
#: copies of its hands an import did not store again), which `load` gives when asked by name.


def __getattr__(name: str) -> Any:
    """`HAND_TABLES` is histkit.tables' (from SCHEMAS), imported when asked: the tables
    module loads pyarrow, which an audit of hand histories never needs."""
    if name == "HAND_TABLES":
        from histkit.tables import HAND_TABLES

        return HAND_TABLES
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


_DUCKDB_MAGIC = b"DUCK"  # bytes 8-11 of a DuckDB database file

Kind = Literal["text", "tables", "db"]


class SourceError(ValueError):
    """An input the commands cannot read as asked (the command line's exit 2)."""


@dataclass(frozen=True)
class Source:
    """One command's input: hand histories (`text`), folders of tables (`tables`), or the
    hand database file (`db`, one path)."""

    kind: Kind
    paths: tuple[Path, ...]

    def describe(self) -> str:
        """The input in a few words, for messages."""
        if self.kind == "db":
            return f"the hand database {self.paths[0]}"
        return ", ".join(str(p) for p in self.paths)


# ---------------------------------------------------------------------------- deciding


def resolve(paths: Sequence[str | Path] = (), *, db: str | Path | bool | None = None) -> Source:
    """The kind of input `paths` (or `db`: True for the default database, a path for that
    file) are, or `SourceError` saying what is wrong: nothing given, both a database and
    paths, a path that does not exist, a database that does not exist, hand histories
    mixed with folders of tables."""
    given = [Path(p) for p in paths]
    if db is not None and db is not False:
        from histkit.db.connection import resolve_path

        file = resolve_path(None if db is True else Path(db))
        if given:
            raise SourceError(
                f"give either --db or paths, not both (--db {file} and "
                f"{', '.join(str(p) for p in given)})"
            )
        if file.is_dir():
            raise SourceError(
                f"--db {file}: is a folder, not a hand database file (give a folder of "
                "tables or of hand histories as a PATH, without --db)"
            )
        if not file.exists():
            raise SourceError(
                f"no hand database at {file}: create one with `histkit import PATH --db {file}`"
            )
        return Source("db", (file,))
    if not given:
        raise SourceError("give hand-history files or folders, folders of tables, or --db [FILE]")
    missing = [str(p) for p in given if not p.exists()]
    if missing:
        raise SourceError("no such file or folder: " + ", ".join(missing))
    databases = [str(p) for p in given if _is_database(p)]
    if databases:
        raise SourceError(
            f"{', '.join(databases)}: a hand database is read with --db FILE, not as a PATH"
        )
    tables: list[Path] = []
    if any(p.is_dir() for p in given):  # (the warehouse loads pyarrow: asked only of folders)
        from histkit.warehouse import holds_tables

        tables = [p for p in given if holds_tables(p)]
    if tables and len(tables) != len(given):
        text = [p for p in given if p not in tables]
        raise SourceError(
            "give either hand histories or folders of tables, not both: tables in "
            f"{', '.join(map(str, tables))}; hand histories in {', '.join(map(str, text))}"
        )
    return Source("tables" if tables else "text", tuple(given))


def _is_database(path: Path) -> bool:
    if not path.is_file():
        return False
    try:
        with path.open("rb") as f:
            head = f.read(12)
    except OSError:
        return False
    return head[8:12] == _DUCKDB_MAGIC


def parse_day(text: str, flag: str) -> date | datetime:
    """A command line's `--since`/`--until`: a day (YYYY-MM-DD, a whole UTC day) or an
    exact UTC date-time (YYYY-MM-DDTHH:MM[:SS]); anything else a `SourceError`."""
    try:
        if len(text) == 10:
            return date.fromisoformat(text)
        if len(text) > 10 and text[10] in "T ":
            return datetime.fromisoformat(text)
    except ValueError:
        pass
    raise SourceError(
        f"{flag}: expected a day YYYY-MM-DD (or a UTC date-time YYYY-MM-DDTHH:MM), got {text!r}"
    )


def day_range(
    since: date | datetime | None, until: date | datetime | None
) -> tuple[datetime | None, datetime | None]:
    """Inclusive UTC bounds: a day given as `since` starts at its midnight, as `until` ends
    at its last microsecond (so `--until 2024-06-12` keeps that day's hands); naive
    date-times are UTC."""

    def instant(d: date | datetime, end: bool) -> datetime:
        if not isinstance(d, datetime):
            d = datetime.combine(d, time.max if end else time.min)
        return d.replace(tzinfo=UTC) if d.tzinfo is None else d.astimezone(UTC)

    lo = None if since is None else instant(since, False)
    hi = None if until is None else instant(until, True)
    if lo is not None and hi is not None and hi < lo:
        raise SourceError(f"--until ({hi:%Y-%m-%d %H:%M}) is before --since ({lo:%Y-%m-%d %H:%M})")
    return lo, hi


# ---------------------------------------------------------------------------- loading


def load(
    source: Source,
    *,
    filters: Filters | None = None,
    audit: bool = True,
    site: str | None = None,
    jobs: int = 1,
    names: Iterable[str] | None = None,
    progress: Callable[[int, int], object] | None = None,
    counts: dict[str, Any] | None = None,
) -> dict[str, pa.Table]:
    """The tables of `source` (those of `names` it has; default: the hand tables), with
    the hands `filters` keep. `filters.player` keeps the hands that player sat in (their
    figures are judged in the whole hand). `audit`: hand histories are replayed so
    `awards` and `violations` exist; from tables or the database they are read only when
    `audit` is true (and were stored). `site` forces the dialect hand histories are read
    with (`--site`; `filters.site` keeps a site's hands); `jobs` worker processes read
    hand histories, calling `progress(n, nbytes)` as each chunk of them is done.

    `counts`, when given, is filled with what the input held, for a command that must say
    why nothing is left: "read" (hands before the filters; None when the database ran
    them), "skipped", "unknown", "unreadable" (from the errors), and "players" (names
    like `filters.player` when no hand of that player was found). A hand database that
    holds no hands at all is a `SourceError` saying how to fill it."""
    from histkit.tables import AUDIT_TABLES, HAND_TABLES

    wanted = list(HAND_TABLES if names is None else names)
    if not audit:
        wanted = [n for n in wanted if n not in AUDIT_TABLES]
    if source.kind == "db":
        out = _from_db(source.paths[0], [*wanted, "errors"], filters)
        if counts is not None:
            _count_input(out, counts, read=None)
            hands = out.get("hands")
            if filters is not None and filters.player and hands is not None and not hands.num_rows:
                _note_unknown_player(counts, filters.player, _db_players(source.paths[0]))
        return {n: t for n, t in out.items() if n in wanted}
    if source.kind == "tables":
        out = _from_folders(source.paths, [*wanted, "errors"], filters)
    else:
        from histkit.parallel import build_tables

        built = build_tables(
            list(source.paths), jobs=jobs, site=site, audit=audit, progress=progress
        )
        out = dict(built.items())
    if counts is not None:
        _count_input(out, counts, read=out["hands"].num_rows if "hands" in out else 0)
        if filters is not None and filters.player and "seats" in out:
            _note_unknown_player(
                counts, filters.player, out["seats"]["player"].unique().to_pylist()
            )
    out = filter_tables(out, filters)  # (seats, when a player filters, are read too)
    return {n: t for n, t in out.items() if n in wanted}


def _count_input(out: dict[str, pa.Table], counts: dict[str, Any], *, read: int | None) -> None:
    counts["read"] = read
    errors = out.get("errors")
    kinds = _counted_kinds(errors)
    for kind in ("skipped", "outside", "unknown", "unreadable"):
        counts[kind] = kinds.count(kind)


def _counted_kinds(errors: pa.Table | None) -> list[str]:
    """Each error's kind as counted (`histkit.tables.counted_kind`)."""
    from histkit.tables import counted_kind

    if errors is None or "kind" not in errors.column_names:
        return []
    about = (
        errors["about_hand"].to_pylist()
        if "about_hand" in errors.column_names
        else [None] * errors.num_rows
    )
    return [counted_kind(k, a) for k, a in zip(errors["kind"].to_pylist(), about, strict=True)]


def players_like(name: str, names: Iterable[Any]) -> list[str]:
    """Player names that look like `name` (another case, a typo), best first."""
    import difflib

    pool = sorted({str(n) for n in names if n is not None})
    folded = {n.casefold(): n for n in pool}
    close = difflib.get_close_matches(name.casefold(), list(folded), n=3, cutoff=0.6)
    return [folded[c] for c in close]


def resolve_player(name: str, names: Iterable[Any], where: str) -> str:
    """The player `name` means among `names`: itself, or the one name equal to it but for
    case; else `SourceError` naming the names that look like it."""
    pool = {str(n) for n in names if n is not None}
    if name in pool:
        return name
    same = sorted(n for n in pool if n.casefold() == name.casefold())
    if len(same) == 1:
        return same[0]
    raise SourceError(unknown_player(name, players_like(name, pool), where))


def unknown_player(name: str, like: list[str], where: str) -> str:
    """The message for a player found in no hand, with the names that look like it."""
    hint = f"; did you mean {', '.join(repr(n) for n in like)}?" if like else ""
    return f"no hands of a player {name!r} in {where}{hint}"


def _note_unknown_player(counts: dict[str, Any], name: str, names: list[Any]) -> None:
    """Into `counts`, when no player is called `name` (whatever the case): the names
    like it."""
    if name.casefold() not in {str(n).casefold() for n in names}:
        counts["players"] = players_like(name, names)


def _db_players(file: Path) -> list[Any]:
    from histkit.db.connection import connect_file

    try:
        con = connect_file(file, read_only=True)
    except Exception:  # the database went away meanwhile: no suggestion, the error stands
        return []
    try:
        return [r[0] for r in con.execute("SELECT DISTINCT player FROM seats").fetchall()]
    finally:
        con.close()


def _from_folders(
    folders: Sequence[Path], names: list[str], filters: Filters | None
) -> dict[str, pa.Table]:
    import pyarrow as pa

    from histkit.warehouse import read_tables

    need = list(names)
    if filters is not None and filters.player and "seats" not in need:
        need.append("seats")  # to know which hands the player sat in
    read = [read_tables(d, need) for d in folders]
    out: dict[str, pa.Table] = {}
    for name in need:
        if all(name in r for r in read):
            parts = [r[name] for r in read]
            out[name] = (
                parts[0] if len(parts) == 1 else pa.concat_tables(parts, promote_options="default")
            )
    return out


def filter_tables(tables: dict[str, pa.Table], filters: Filters | None) -> dict[str, pa.Table]:
    """`tables` with only the hands `filters` keep (all of them when nothing filters)."""
    if filters is None or not _filters_hands(filters) or "hands" not in tables:
        return tables
    import pyarrow.compute as pc

    hands = tables["hands"]
    keep = _hand_mask(hands, filters)
    if filters.player and "seats" in tables:
        seats = tables["seats"]
        sat = seats.filter(pc.equal(pc.utf8_lower(seats["player"]), filters.player.lower()))
        keep = pc.and_(keep, _in(hands, sat))
    if filters.stakes:
        keep = pc.and_(keep, _stakes_mask(hands, filters.stakes))
    return _keep_hands(tables, hands.filter(keep))


def _keep_hands(tables: dict[str, pa.Table], kept: pa.Table) -> dict[str, pa.Table]:
    """Every table's rows of the hands in `kept` (`errors` whole)."""
    from histkit.tables import HAND_TABLES

    out = {"hands": kept}
    for name, table in tables.items():
        if name != "hands":
            out[name] = table.filter(_in(table, kept)) if name in HAND_TABLES else table
    return out


def _in(table: pa.Table, hands: pa.Table) -> pa.Array:
    """Which rows of `table` belong to a hand of `hands`: by site and hand id where both
    tables carry the site (hand ids of two sites may coincide), else by hand id."""
    import pyarrow.compute as pc

    both = "site" in table.column_names and "site" in hands.column_names
    return pc.is_in(_key(table, both), value_set=_key(hands, both))


def _filters_hands(f: Filters) -> bool:
    return any(
        x is not None and x != ""
        for x in (f.player, f.game, f.stakes, f.table, f.since, f.until, f.site, f.tournament)
    )


def _key(table: pa.Table, with_site: bool) -> pa.Array:
    """What names a hand in `table`: its hand id, with its site when `with_site`."""
    import pyarrow.compute as pc

    hid = table["hand_id"].combine_chunks()
    if with_site:
        return pc.binary_join_element_wise(table["site"].combine_chunks(), hid, "\x1f")
    return hid


def _hand_mask(hands: pa.Table, f: Filters) -> pa.Array:
    import pyarrow as pa
    import pyarrow.compute as pc

    from histkit.selection import utc

    keep = pa.array([True] * hands.num_rows, pa.bool_())
    for column, value in (("site", f.site), ("game", f.game), ("table", f.table)):
        if value:
            keep = pc.and_kleene(keep, pc.equal(hands[column], value))
    if f.tournament is not None:
        keep = pc.and_kleene(keep, pc.equal(hands["is_tournament"], f.tournament))
    if f.since is not None:
        lo = pa.scalar(utc(f.since).to_pydatetime(), hands.schema.field("started_at").type)
        keep = pc.and_kleene(keep, pc.greater_equal(hands["started_at"], lo))
    if f.until is not None:
        hi = pa.scalar(utc(f.until).to_pydatetime(), hands.schema.field("started_at").type)
        keep = pc.and_kleene(keep, pc.less_equal(hands["started_at"], hi))
    return pc.fill_null(keep, False)


def _stakes_mask(hands: pa.Table, stakes: str) -> pa.Array:
    """Stakes as `histkit.stats.filter_hands` matches them (its labels, one rule)."""
    import pyarrow as pa

    from histkit.selection import Filters, filter_hands

    cols = ["hand_id", "small_bet", "big_bet", "unit", "currency", "rake", "fee"]
    frame = hands.select([c for c in cols if c in hands.column_names]).to_pandas()
    frame["_row"] = range(len(frame))
    kept = filter_hands(frame, Filters(stakes=stakes))["_row"]
    mask = [False] * hands.num_rows
    for i in kept:
        mask[int(i)] = True
    return pa.array(mask, pa.bool_())


# --------------------------------------------------------------------------- database


def _from_db(file: Path, names: list[str], filters: Filters | None) -> dict[str, pa.Table]:
    """The tables of the database with the filters pushed into SQL where they are simple
    (site, game, table, cash/tournament, dates, player seated); stakes are matched after."""
    from histkit.tables import AUDIT_TABLES, HAND_TABLES

    con = open_db(file)
    try:
        present = _db_tables(con)
        where, params = _sql_where(filters, present)
        out: dict[str, pa.Table] = {}
        if where:
            key = "site, hand_id" if "site" in present["hands"] else "hand_id"
            con.execute(
                f"CREATE TEMP TABLE histkit_keys AS SELECT {key} FROM hands WHERE {where}",
                params,
            )
        for name in names:
            cols = present.get(name)
            if cols is None:
                continue
            if not where:
                sql = f"SELECT * FROM {name}"
            elif name in HAND_TABLES or name == "duplicates":
                both = "site" in cols and "site" in present["hands"]  # hands: both
                key = "site, hand_id" if both else "hand_id"
                sql = (
                    f"SELECT * FROM {name} WHERE ({key}) IN (SELECT {key} FROM histkit_keys) "
                    "ORDER BY rowid"
                )
            else:
                sql = f"SELECT * FROM {name}"
            out[name] = _conform(name, _arrow(con.sql(sql)))
        hands = out.get("hands")
        if hands is not None and not hands.num_rows and (not where or _no_hands(con)):
            raise empty_db(file)
    finally:
        con.close()
    awards, hands = out.get("awards"), out.get("hands")
    if awards is not None and hands is not None and hands.num_rows and not awards.num_rows:
        # imported without the audit: the tables exist (the database always has them) but
        # are empty, and every audited hand has an award; read as not audited
        out = {n: t for n, t in out.items() if n not in AUDIT_TABLES}
    if filters is not None and filters.stakes and "hands" in out:
        hands = out["hands"]
        out = _keep_hands(out, hands.filter(_stakes_mask(hands, filters.stakes)))
    return out


def open_db(file: Path) -> Any:
    """A read-only connection to the hand database `file`, timestamps in UTC; a file that
    cannot be opened (held too long, missing, not a hand database) is a `SourceError`."""
    from histkit.db.connection import DatabaseBusy, DatabaseError, connect_file

    try:
        con = connect_file(file, read_only=True)
    except DatabaseBusy as e:
        raise SourceError(str(e)) from None
    except (FileNotFoundError, DatabaseError) as e:
        raise SourceError(str(e)) from None
    except Exception as e:  # duckdb.Error of another kind
        raise SourceError(f"cannot read the hand database {file}: {_first_line(e)}") from None
    try:
        con.execute("SET TimeZone = 'UTC'")  # timestamps come back in UTC, as parse writes
        _require_hand_database(con, file)
    except BaseException:
        con.close()
        raise
    return con


def empty_db(file: Path) -> SourceError:
    """The error for a hand database that holds no hands at all."""
    return SourceError(
        f"the hand database {file} holds no hands yet: import hand histories into it "
        f"(`histkit import PATH --db {file}`, or `histkit watch FOLDER --db {file}`)"
    )


def _no_hands(con: Any) -> bool:
    return not con.execute("SELECT count(*) FROM hands").fetchall()[0][0]


def _require_hand_database(con: Any, file: Path) -> None:
    """Refuse a DuckDB file that is not a hand database (another program's, even one with a
    `hands` table), the way `histkit db` does: by its `meta` table and schema version."""
    from histkit.db.schema import DatabaseError, version

    try:
        v = version(con)
    except DatabaseError as e:
        raise SourceError(f"{file}: {e}") from None
    if v is None:
        raise SourceError(
            f"{file} is an empty DuckDB database, not a hand database: import hand "
            f"histories into it with `histkit import PATH --db {file}`"
        )


def _first_line(e: BaseException) -> str:
    return (str(e).strip().splitlines() or [type(e).__name__])[0]


def _db_tables(con: Any) -> dict[str, list[str]]:
    """Table name -> its columns, for the tables of the main schema."""
    rows = con.execute(
        "SELECT table_name, column_name FROM information_schema.columns "
        "WHERE table_schema = 'main' ORDER BY table_name, ordinal_position"
    ).fetchall()
    out: dict[str, list[str]] = {}
    for table, column in rows:
        out.setdefault(str(table), []).append(str(column))
    return out


def hand_terms(f: Filters, prefix: str = "") -> tuple[list[str], list[Any]]:
    """The SQL terms on the `hands` columns of the simple filters (site, game, table,
    tournament, dates), each column after `prefix` (a table alias and its dot), and their
    parameters."""
    from histkit.selection import utc

    terms: list[str] = []
    params: list[Any] = []
    for column, value in (("site", f.site), ("game", f.game), ('"table"', f.table)):
        if value:
            terms.append(f"{prefix}{column} = ?")
            params.append(value)
    if f.tournament is not None:
        terms.append(f"{prefix}is_tournament = ?")
        params.append(f.tournament)
    if f.since is not None:
        terms.append(f"{prefix}started_at >= ?")
        params.append(utc(f.since).to_pydatetime())
    if f.until is not None:
        terms.append(f"{prefix}started_at <= ?")
        params.append(utc(f.until).to_pydatetime())
    return terms, params


def _sql_where(f: Filters | None, present: dict[str, list[str]]) -> tuple[str, list[Any]]:
    """The WHERE clause (on `hands`) of the simple filters, and its parameters."""
    if f is None:
        return "", []
    terms, params = hand_terms(f)
    if f.player and "seats" in present:
        both = "site" in present["seats"] and "site" in present["hands"]
        key = "site, hand_id" if both else "hand_id"
        terms.append(f"({key}) IN (SELECT {key} FROM seats WHERE lower(player) = lower(?))")
        params.append(f.player)
    if f.stakes and not terms:
        terms.append("TRUE")  # stakes are matched after: the keys table still narrows
    return " AND ".join(terms), params


def _arrow(rel: Any) -> pa.Table:
    """A DuckDB relation as one Arrow table (DuckDB 1.x and 2.x name it differently)."""
    fetch = getattr(rel, "to_arrow_table", None) or rel.fetch_arrow_table
    return fetch()


def _conform(name: str, table: pa.Table) -> pa.Table:
    """The table with the column types `histkit parse` writes (DuckDB may widen some),
    columns it does not know left as they are."""
    import pyarrow as pa

    from histkit.tables import SCHEMAS

    schema = SCHEMAS.get(name)
    if schema is None:
        return table
    types = {f.name: f.type for f in schema}
    target = pa.schema(
        [pa.field(c, types.get(c, table.schema.field(c).type)) for c in table.column_names]
    )
    return table if target == table.schema else table.cast(target)


# ------------------------------------------------------------------------ stored audit


def stored_audit(source: Source) -> None:
    """Nothing when `source` (folders of tables, or the database) says it holds the
    audit's tables (written by `histkit parse --audit`, or an import with the audit); else
    `SourceError` saying how to get one. See also `check_stored_audit`."""
    if source.kind == "tables":
        from histkit.warehouse import read_record

        for folder in source.paths:
            if not read_record(folder).get("audit"):
                raise SourceError(
                    f"{folder} was parsed without --audit: run `histkit parse ... -o {folder} "
                    "--audit` or audit the hand histories"
                )
    elif source.kind == "db" and not _db_audited(source.paths[0]):
        raise _not_audited(source.paths[0])


def check_stored_audit(source: Source, tables: dict[str, pa.Table]) -> None:
    """`SourceError` when hands of `tables` have no stored audit: a database keeps the
    audit tables whether or not an import filled them, and every audited hand has at
    least one award (its pot), so a hand without one was imported without the audit."""
    hands, awards = tables.get("hands"), tables.get("awards")
    if source.kind != "db" or hands is None or not hands.num_rows:
        return
    if awards is None:
        raise _not_audited(source.paths[0])
    missing = hands.num_rows - _in(hands, awards).true_count
    if missing == hands.num_rows:
        raise _not_audited(source.paths[0])
    if missing:
        raise SourceError(
            f"{missing:,} of the {hands.num_rows:,} hands in {source.paths[0]} were imported "
            "with --no-audit: audit their hand histories (histkit audit PATH), or narrow the "
            "filters to hands imported with the audit"
        )


def _not_audited(file: Path) -> SourceError:
    return SourceError(
        f"{file} holds no stored audit (its hands were imported with --no-audit): audit "
        "the hand histories (histkit audit PATH)"
    )


def _db_audited(file: Path) -> bool:
    """Whether the database holds the audit: both audit tables, and no `meta` entry
    saying the hands were imported without it."""
    from histkit.db.connection import DatabaseBusy, DatabaseError, connect_file
    from histkit.tables import AUDIT_TABLES

    try:
        con = connect_file(file, read_only=True)
    except (DatabaseBusy, FileNotFoundError, DatabaseError) as e:
        raise SourceError(str(e)) from None
    except Exception as e:  # duckdb.Error of another kind
        raise SourceError(f"cannot read the hand database {file}: {_first_line(e)}") from None
    try:
        _require_hand_database(con, file)
        present = _db_tables(con)
        if not all(t in present for t in AUDIT_TABLES):
            return False
        meta = present.get("meta", [])
        if {"key", "value"} <= set(meta):
            row = con.execute("SELECT value FROM meta WHERE key = 'audit'").fetchone()
            if row is not None and str(row[0]).strip().lower() in ("false", "0", "no", ""):
                return False
        return True
    finally:
        con.close()


def record_filter(filters: Filters | None) -> Callable[[StackRecord], bool] | None:
    """The filters as a test of one audited hand (its `StackRecord`), for the audit of
    hand histories: the same hands `filter_tables` keeps of their tables (None: no filter).
    Stakes are not in the record: `SourceError`."""
    if filters is None or not _filters_hands(filters):
        return None
    f = filters
    if f.stakes:
        raise SourceError("the audit cannot filter by stakes")
    player = (f.player or "").lower()
    lo = None if f.since is None else _epoch(f.since)
    hi = None if f.until is None else _epoch(f.until)

    def keep(r: StackRecord) -> bool:
        if f.site and r.site != f.site:
            return False
        if f.game and r.game.value != f.game:
            return False
        if f.table and r.table != f.table:
            return False
        if f.tournament is not None and (r.tournament_id is not None) != f.tournament:
            return False
        when = r.order[0] or None  # 0.0: the hand has no start time
        if lo is not None and (when is None or when < lo):
            return False
        if hi is not None and (when is None or when > hi):
            return False
        return not f.player or any(p.lower() == player for p, _, _ in r.seats)

    return keep


def _epoch(d: datetime) -> float:
    """A filter's date in seconds since the epoch, a naive one taken as UTC (as
    `histkit.selection.utc` takes it), without loading pandas into the audit."""
    return (d if d.tzinfo is not None else d.replace(tzinfo=UTC)).timestamp()
