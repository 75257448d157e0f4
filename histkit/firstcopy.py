"""Each hand once, from tables written with every copy of a hand (`histkit parse` keeps
every copy it reads, as read): the first copy, chosen in DuckDB, so a folder of tables
with a million copies of a hand is de-duplicated on disk, not in memory.

A copy's rows are written together and in the same order in every table, so the rows of
one hand in a table come in runs: copies far apart are separate runs, and the first run
is the first copy's. Copies written one after the other make one run, of `n` copies'
rows; the run in `hands` says how many copies it holds (`c`), and the first copy's rows
are the run's first `n / c`, when the run's rows are `c` equal copies. When they are not
(copies of one hand id that differ, written one after the other), which rows are whose
cannot be told, and the hand is left out and counted (`differ`), never half-read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import duckdb
    import pyarrow as pa

__all__ = ["STAGE", "Stager", "keep_first"]

STAGE = "hk_stage_"  # the staged rows of table X, in `hk_stage_X`
RUN = "hk_run"  # a staged row's run: consecutive rows of one hand, numbered in input order
OFF = "hk_off"  # the row's place in its run
_KEY = ("site", "hand_id")
_UNSPLIT = "hk_unsplit"  # hands whose copies differ within one run


class Stager:
    """Stages the rows of one table, in input order, numbering each row's run and its
    place in the run as they pass: DuckDB then needs no window over a run of any length
    (a million copies of a hand side by side are one run), only sums and joins, which
    it spills to disk past its memory limit."""

    def __init__(self, con: duckdb.DuckDBPyConnection, name: str) -> None:
        self.con, self.name = con, name
        self.last: tuple[object, ...] | None = None  # the previous row's hand
        self.run = -1  # the previous row's run
        self.off = 0  # the previous row's place in its run
        con.execute(
            f'CREATE TABLE IF NOT EXISTS "{STAGE}{name}" AS SELECT *, 0::BIGINT AS {RUN}, '
            f'0::BIGINT AS {OFF} FROM "{name}" LIMIT 0'
        )

    def add(self, batch: pa.Table) -> None:
        import numpy as np
        import pyarrow as pa

        n = batch.num_rows
        if not n:
            return
        keys = [] if self.name == "errors" else [c for c in _KEY if c in batch.column_names]
        new = np.zeros(n, dtype=bool)  # the row starts a run
        for name in keys:
            col = np.asarray(batch[name].to_numpy(zero_copy_only=False), dtype=object)
            new[1:] |= col[1:] != col[:-1]
        first = tuple(batch[c][0].as_py() for c in keys)
        new[0] = not keys or self.last is None or first != self.last
        if not keys:  # errors: no hand's rows, each row a run of its own
            new[:] = True
        runs = self.run + np.cumsum(new)
        place = np.arange(n)
        offs = place - np.maximum.accumulate(np.where(new, place, 0))
        if not new[0]:  # the first rows go on with the last batch's run
            offs[runs == self.run] += self.off + 1
        self.run, self.off = int(runs[-1]), int(offs[-1])
        self.last = tuple(batch[c][n - 1].as_py() for c in keys)
        rows = batch.append_column(RUN, pa.array(runs, pa.int64())).append_column(
            OFF, pa.array(offs, pa.int64())
        )
        self.con.register("hk_batch", rows)
        self.con.execute(f'INSERT INTO "{STAGE}{self.name}" BY NAME SELECT * FROM hk_batch')
        self.con.unregister("hk_batch")


def _columns(con: duckdb.DuckDBPyConnection, table: str) -> list[str]:
    return [str(c[0]) for c in con.execute(f'SELECT * FROM "{table}" LIMIT 0').description or []]


def _fill_site(con: duckdb.DuckDBPyConnection, name: str) -> None:
    """Rows of an older histkit's table without `site` take their hand's (by hand id, as
    that histkit read it; '' when `hands` has none either)."""
    if name != "hands":
        con.execute(
            f'UPDATE "{STAGE}{name}" t SET site = h.site FROM (SELECT hand_id, '
            f'any_value(site) AS site FROM "{STAGE}hands" GROUP BY hand_id) h '
            "WHERE t.site IS NULL AND t.hand_id = h.hand_id"
        )
    con.execute(f"UPDATE \"{STAGE}{name}\" SET site = '' WHERE site IS NULL")


def _first_runs(table: str) -> str:
    """Per hand of staged `table`: its first run and that run's length."""
    return f"""SELECT site, hand_id, min({RUN}) AS hk_r0, arg_min(hk_n, {RUN}) AS hk_n0
        FROM (SELECT site, hand_id, {RUN}, count(*) AS hk_n FROM "{table}" GROUP BY ALL)
        GROUP BY site, hand_id"""


def keep_first(
    con: duckdb.DuckDBPyConnection, names: list[str]
) -> tuple[dict[str, int], str | None]:
    """Write each staged table's first copies into the table itself, drop the stages and
    return the counts: `read` (rows of `hands`, copies included), `kept` (hands, each once),
    `copies` (hands read more than once) and `differ` (hands left out: their copies
    differ within one run); and a hand read more than once, for an example."""
    con.execute(f"CREATE OR REPLACE TEMP TABLE {_UNSPLIT} (site VARCHAR, hand_id VARCHAR)")
    for name in names:
        if name != "errors":
            _fill_site(con, name)
    con.execute(  # per hand: the copies side by side in its first run (hk_c), all copies
        f"""CREATE OR REPLACE TEMP TABLE hk_first AS
        SELECT r.site, r.hand_id, r.hk_n0 AS hk_c, c.hk_copies
        FROM ({_first_runs(STAGE + "hands")}) r
        JOIN (SELECT site, hand_id, count(*) AS hk_copies FROM "{STAGE}hands" GROUP BY ALL) c
        USING (site, hand_id)"""
    )
    for name in names:
        if name not in ("hands", "errors"):
            _unsplit(con, name)
    for name in names:
        cols = ", ".join(f'"{c}"' for c in _columns(con, STAGE + name) if c not in (RUN, OFF))
        if name == "errors":
            source, where = f'"{STAGE}{name}" x', "true"
        else:
            source = (
                f'"{STAGE}{name}" x JOIN ({_first_runs(STAGE + name)}) r USING (site, hand_id) '
                "LEFT JOIN hk_first f USING (site, hand_id)"
            )
            where = (
                f"x.{RUN} = r.hk_r0 AND x.{OFF} < r.hk_n0 // coalesce(f.hk_c, 1) AND NOT EXISTS "
                f"(SELECT 1 FROM {_UNSPLIT} u WHERE u.site = x.site AND u.hand_id = x.hand_id)"
            )
        con.execute(
            f'INSERT INTO "{name}" ({cols}) SELECT {cols} FROM {source} WHERE {where} '
            f"ORDER BY x.{RUN}, x.{OFF}"
        )
        con.execute(f'DROP TABLE "{STAGE}{name}"')
    read, kept, copies, example = con.execute(
        "SELECT coalesce(sum(hk_copies), 0), count(*), count(*) FILTER (hk_copies > 1), "
        "min(hand_id) FILTER (hk_copies > 1) FROM hk_first"
    ).fetchall()[0]
    differ = con.execute(f"SELECT count(*) FROM (SELECT DISTINCT * FROM {_UNSPLIT})").fetchall()
    con.execute("DROP TABLE hk_first")
    counts = {
        "read": int(read),
        "kept": int(kept),
        "copies": int(copies),
        "differ": int(differ[0][0]),
    }
    return counts, None if example is None else str(example)


def _unsplit(con: duckdb.DuckDBPyConnection, name: str) -> None:
    """Note the hands whose first run in staged table `name` is not its copies' rows
    repeated alike: a length the copies do not divide, or rows that differ from the
    first copy's at the same place (the source line aside: each copy has its own)."""
    own = [c for c in _columns(con, STAGE + name) if c not in (RUN, OFF, "line")]
    digest = "hash(" + ", ".join(f'x."{c}"' for c in own) + ")"
    con.execute(
        f"""INSERT INTO {_UNSPLIT}
        SELECT DISTINCT x.site, x.hand_id
        FROM "{STAGE}{name}" x JOIN ({_first_runs(STAGE + name)}) r USING (site, hand_id)
        JOIN hk_first f USING (site, hand_id)
        WHERE x.{RUN} = r.hk_r0 AND f.hk_c > 1
        GROUP BY x.site, x.hand_id, x.{OFF} % nullif(r.hk_n0 // f.hk_c, 0)
        HAVING any_value(r.hk_n0) % any_value(f.hk_c) <> 0 OR count(DISTINCT {digest}) > 1"""
    )
