"""histkit from Python, as a pandas user expects it: `read` the hands into tables, their
`stats`, their `audit`; each takes what the commands take (hand-history files or folders,
folders `histkit parse` wrote, or a hand database file) and the same filters, as keywords.

    import histkit
    t = histkit.read("hands/")                 # Tables: .to_pandas(), .to_arrow()
    histkit.stats("hands/", by="game", player="Hero")
    histkit.audit("hands/")                    # one row per finding

`histkit.stats` and `histkit.audit` are also the modules of those names (callable: see
`callable_module`); this module is imported only when one of them is called, so
`import histkit` stays cheap.
"""

from __future__ import annotations

import sys
import types
from collections.abc import Sequence
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd

    from histkit.rules import RuleProfile
    from histkit.selection import Filters
    from histkit.sources import Source
    from histkit.tables import Tables

__all__ = ["audit", "callable_module", "read", "stats"]

PathLike = str | Path
Paths = PathLike | Sequence[PathLike]
When = date | datetime | str | None


def read(
    source: Paths,
    *,
    audit: bool = False,
    site: str | None = None,
    jobs: int = 1,
    player: str | None = None,
    game: str | None = None,
    stakes: str | None = None,
    table: str | None = None,
    since: When = None,
    until: When = None,
    tournament: bool | None = None,
) -> Tables:
    """The tables of `source`: hand-history files or folders (read now; `audit=True`
    replays them so `awards` and `violations` exist), folders of tables, or a hand database
    file (their stored audit with `audit=True`). The filters keep whole hands, as the
    commands' options do (`since`/`until`: a day is a whole UTC day, both included;
    `player`: the hands that player sat in). A hand read twice is kept twice, as read:
    `histkit.stats` counts it once. Errors in the input are rows of `errors`."""
    from histkit.sources import load
    from histkit.tables import HAND_TABLES, SCHEMAS, Tables

    src = _source(source)
    filters = _filters(player, game, stakes, table, since, until, site, tournament)
    names = [*HAND_TABLES, "errors"]
    got = load(src, filters=filters, audit=audit, site=_dialect(site), jobs=jobs, names=names)
    required = ("hands", "seats", "actions", "cards", "errors", "allin_ev")
    kw = {n: got.get(n, SCHEMAS[n].empty_table() if n in required else None) for n in SCHEMAS}
    return Tables(**kw)


def stats(
    source: Paths,
    *,
    by: str | Sequence[str] | None = None,
    audit: bool = True,
    site: str | None = None,
    jobs: int = 1,
    player: str | None = None,
    game: str | None = None,
    stakes: str | None = None,
    table: str | None = None,
    since: When = None,
    until: When = None,
    tournament: bool | None = None,
) -> pd.DataFrame:
    """Per player and money unit (and `by`: game, stakes, table, session, position, door:
    `histkit.statdefs.GROUPS`; `by="position"` one row per position on 3rd) the figures
    of `histkit stats` (docs/stats.md), one row each: counts, fractions (float, NaN with no
    chance), money as int64 minor units of the row's `money_unit`. `audit=False` skips the
    replay (no hi/lo outcomes). With `player`, that player's rows."""
    from histkit.stats import player_stats

    t = read(source, audit=audit, site=site, jobs=jobs, player=player, game=game, stakes=stakes,
             table=table, since=since, until=until, tournament=tournament)  # fmt: skip
    filters = _filters(player, game, stakes, table, since, until, site, tournament)
    out = player_stats(t.to_arrow(), filters, by=by)
    if player is not None:
        out = out[out["player"] == player].reset_index(drop=True)
    return out


_FINDINGS = ("site", "hand_id", "code", "severity", "street", "line", "expected", "reported",
             "message", "seq", "caused_by", "source_file")  # fmt: skip


def audit(
    source: Paths,
    *,
    profile: str | RuleProfile | None = None,
    info: bool = False,
    continuity: bool = True,
    site: str | None = None,
    jobs: int = 1,
) -> pd.DataFrame:
    """One row per finding of `histkit audit` (errors and warnings; `info=True` adds the
    informational ones): site, hand_id, code, severity, street, line (in source_file),
    expected, reported, message, seq and caused_by (the finding it follows from). Hand
    histories are replayed under `profile` (default each site's own house rules; a name or
    a TOML file as `--profile`); folders of tables and databases give their stored audit.
    The whole report (rejected hands, coverage, duplicates) is in `.attrs["report"]`."""
    import pandas as pd

    from histkit.audit import audit_paths, stored_report
    from histkit.rules import load_profile
    from histkit.sources import check_stored_audit, load, stored_audit

    src = _source(source)
    if src.kind == "text":
        rules = load_profile(profile) if isinstance(profile, str) else profile
        report = audit_paths(src.paths, rules, jobs=jobs, continuity=continuity,
                             site=_dialect(site))  # fmt: skip
    else:
        if profile is not None:
            raise ValueError(
                f"{src.describe()} holds an audit made under each site's own rules; audit "
                "the hand histories to apply other rules"
            )
        names = ["hands", "errors", "awards", "violations", "duplicates"]
        stored_audit(src)
        tables = load(src, audit=True, names=names)
        check_stored_audit(src, tables)
        report = stored_report(tables, source=src.describe())
    shown = report.violations if info else report.errors
    rows = [
        (
            report.site_of.get(v.hand_id),
            v.hand_id,
            str(v.code),
            str(v.severity),
            None if v.street is None else int(v.street),
            v.line,
            None if v.expected is None else str(v.expected),
            None if v.reported is None else str(v.reported),
            v.message,
            v.seq,
            v.caused_by,
            report.source_file(v.hand_id),
        )
        for v in shown
    ]
    frame = pd.DataFrame.from_records(rows, columns=list(_FINDINGS))
    types = {"street": "Int32", "line": "Int64", "seq": "Int32", "caused_by": "Int32"}
    frame = frame.astype({**{c: "string" for c in _FINDINGS if c not in types}, **types})
    frame.attrs["report"] = report
    return frame


# ------------------------------------------------------------------------------ inputs


def _source(source: Paths) -> Source:
    """What `source` is, as the commands decide; one DuckDB file is the hand database."""
    from histkit.sources import _is_database, resolve

    paths = [source] if isinstance(source, (str, Path)) else list(source)
    if len(paths) == 1 and _is_database(Path(paths[0])):
        return resolve(db=Path(paths[0]))
    return resolve(paths)


def _dialect(site: str | None) -> str | None:
    """The dialect to read hand histories with, as `--site` (`wpn_2016` reads hands of
    `wpn`); an unknown one is a ValueError naming the known."""
    from histkit.dialects import known_sites

    if site is not None and site not in known_sites():
        raise ValueError(f"unknown site {site!r} (known: {', '.join(known_sites())})")
    return site


def _filters(
    player: str | None,
    game: str | None,
    stakes: str | None,
    table: str | None,
    since: When,
    until: When,
    site: str | None,
    tournament: bool | None,
) -> Filters:
    from histkit.dialects import get_dialect
    from histkit.selection import Filters
    from histkit.sources import day_range

    lo, hi = day_range(_when(since), _when(until))
    return Filters(
        player=player,
        game=game,
        stakes=stakes,
        table=table,
        since=lo,
        until=hi,
        site=None if site is None else str(get_dialect(_dialect(site) or "").site or site),
        tournament=tournament,
    )


def _when(value: When) -> date | datetime | None:
    """A day or an instant; text as ISO 8601 ("2024-06-12" a whole day)."""
    if value is None or isinstance(value, (date, datetime)):
        return value
    text = str(value)
    return date.fromisoformat(text) if len(text) == 10 else datetime.fromisoformat(text)


# ------------------------------------------------------------------- callable modules


class _CallableModule(types.ModuleType):
    """A module that is also the API function of its name: `histkit.stats(...)` beside
    `histkit.stats.player_stats` (a package's submodule is the attribute of its name, so a
    function of that name could not live in the package)."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return globals()[self.__name__.rpartition(".")[2]](*args, **kwargs)


def callable_module(name: str) -> None:
    """Make the module `name` (histkit.stats, histkit.audit) call this module's function
    of the same last name."""
    sys.modules[name].__class__ = _CallableModule
