"""What a hand database holds, as `histkit db` says it: hands by site, game and money unit
(never one sum of amounts across units: hands are counted, not their money), files,
copies, conflicts, pending hands, errors, the schema version."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from histkit.db.schema import MONEY_UNIT_SQL, version
from histkit.tables import counted_kind_sql
from histkit.words import plural

if TYPE_CHECKING:
    import duckdb

__all__ = ["describe", "text"]

EXAMPLES = 10  # rejected hands and pending files listed


def describe(con: duckdb.DuckDBPyConnection, path: str | os.PathLike[str]) -> dict[str, Any]:
    """The database's contents as plain data (what `--format json` prints)."""

    def rows(sql: str) -> list[tuple[Any, ...]]:
        return con.execute(sql).fetchall()

    def one(sql: str) -> Any:
        return rows(sql)[0][0]

    hand_cols = {r[0] for r in rows("DESCRIBE hands")}
    unit = "money_unit" if "money_unit" in hand_cols else MONEY_UNIT_SQL
    by_unit = [
        {"site": s, "game": g, "money_unit": u, "hands": n, "first": _iso(a), "last": _iso(b)}
        for s, g, u, n, a, b in rows(
            f"SELECT site, game, {unit} AS u, count(*), min(started_at), max(started_at) "
            "FROM hands GROUP BY ALL ORDER BY site, game, u"
        )
    ]
    meta = dict(rows("SELECT key, value FROM meta"))
    files, size, last = rows(
        "SELECT count(*), coalesce(sum(greatest(size, 0)), 0), max(imported_at) FROM files"
    )[0]
    kind = counted_kind_sql(str(c[0]) for c in con.execute("DESCRIBE errors").fetchall())
    errors = dict(rows(f"SELECT {kind}, count(*) FROM errors GROUP BY 1"))
    skipped = rows(
        "SELECT coalesce(game, '?'), count(*) FROM errors WHERE kind = 'skipped' "
        "GROUP BY ALL ORDER BY 2 DESC, 1"
    )
    rejected = rows(
        "SELECT source_file, line, hand_id, reason FROM errors "
        f"WHERE kind IN ('rejected', 'unreadable', 'conflict') ORDER BY source_file, line "
        f"LIMIT {EXAMPLES}"
    )
    pending = rows(
        "SELECT path, pending_line, pending_reason FROM files WHERE pending_line IS NOT NULL "
        "ORDER BY path"
    )
    file = Path(path)
    return {
        "database": str(file),
        "size_bytes": file.stat().st_size if file.exists() else None,
        "schema_version": version(con),
        "histkit_version": meta.get("histkit_version"),
        "hands": one("SELECT count(*) FROM hands"),
        "hands_by_unit": by_unit,
        "audited_hands": one(
            "SELECT count(*) FROM hand_index k JOIN files f "
            "ON f.path = k.source_file WHERE f.audited"
        ),
        "violations": one("SELECT count(*) FROM violations"),
        "files": {"count": files, "bytes": int(size), "last_import": _iso(last)},
        "duplicates": one("SELECT count(*) FROM duplicates"),
        "conflicts": errors.get("conflict", 0),
        "provisional": one("SELECT count(*) FROM files WHERE provisional_line IS NOT NULL"),
        "pending": [{"file": f, "line": n, "reason": why} for f, n, why in pending],
        "errors": {
            "rejected": errors.get("rejected", 0),
            "outside": errors.get("outside", 0),
            "unreadable_files": errors.get("unreadable", 0),
            "unknown_files": errors.get("unknown", 0),
            "skipped": {g: n for g, n in skipped},
            "first": [
                {"file": f, "line": n, "hand_id": h, "reason": why} for f, n, h, why in rejected
            ],
        },
    }


def _iso(value: Any) -> str | None:
    return None if value is None else value.isoformat()


def _size(n: int | None) -> str:
    if n is None:
        return "?"
    for unit in ("bytes", "KB", "MB", "GB"):
        if n < 1000 or unit == "GB":
            return f"{n:,} {unit}" if unit == "bytes" else f"{n:,.1f} {unit}"
        n /= 1000  # type: ignore[assignment]
    return str(n)


def text(d: dict[str, Any]) -> str:
    """What `histkit db` prints (its lines made safe for a terminal: `textsafe`)."""
    from histkit.textsafe import terminal_lines

    lines = [
        f"Hand database {d['database']} ({_size(d['size_bytes'])}, schema version "
        f"{d['schema_version']})",
        f"Hands: {d['hands']:,}"
        + (", by site, game and money unit:" if d["hands_by_unit"] else "."),
    ]
    if d["hands_by_unit"]:
        table = [("site", "game", "money unit", "hands", "from", "to")]
        for r in d["hands_by_unit"]:
            day = [(x or "")[:10] for x in (r["first"], r["last"])]
            table.append((r["site"], r["game"], r["money_unit"], f"{r['hands']:,}", *day))
        widths = [max(len(str(row[i])) for row in table) for i in range(len(table[0]))]
        for row in table:
            cells = [
                str(c).rjust(w) if i == 3 else str(c).ljust(w)
                for i, (c, w) in enumerate(zip(row, widths, strict=True))
            ]
            lines.append("  " + "  ".join(cells).rstrip())
    audited = d["audited_hands"]
    lines.append(
        f"Audited: {audited:,} of {plural(d['hands'], 'hand')} "
        f"({plural(d['violations'], 'violation')} stored)."
    )
    f = d["files"]
    last = (
        f" (last import {f['last_import'][:19].replace('T', ' ')} UTC)" if f["last_import"] else ""
    )
    lines.append(f"Files: {f['count']:,}, {_size(f['bytes'])}{last}.")
    lines.append(
        f"Duplicates: {plural(d['duplicates'], 'copy', 'copies')} of stored hands, not "
        "stored again."
    )
    lines.append(
        f"Conflicts: {plural(d['conflicts'], 'hand')} whose id is stored with "
        "another text (listed with the errors)."
    )
    pending = d["pending"]
    lines.append(
        f"Pending: {plural(len(pending), 'hand')} not complete yet" + (":" if pending else ".")
    )
    for p in pending[:EXAMPLES]:
        lines.append(f"  {p['file']}:{p['line']} ({p['reason']})")
    if len(pending) > EXAMPLES:
        lines.append(f"  ... and {len(pending) - EXAMPLES} more")
    e = d["errors"]
    skipped = sum(e["skipped"].values())
    detail = ", ".join(f"{g} {n:,}" for g, n in e["skipped"].items())
    lines.append(
        f"Errors: {plural(e['rejected'], 'hand')} rejected; "
        + (
            f"{plural(e['outside'], 'stretch', 'stretches')} of text not part of any hand; "
            if e.get("outside")
            else ""
        )
        + f"{plural(skipped, 'hand')} of other games skipped"
        + (f" ({detail})" if detail else "")
        + f"; {plural(e['unknown_files'], 'file')} of no known site; "
        f"{plural(e['unreadable_files'], 'file')} unreadable" + (":" if e["first"] else ".")
    )
    for r in e["first"]:
        where = f"{r['file']}:{r['line']}" if r["line"] is not None else r["file"]
        hand = f" hand #{r['hand_id']}" if r["hand_id"] else ""
        lines.append(f"  {where}{hand}: {r['reason']}")
    return terminal_lines(lines)
