"""The audit's stack records, kept for the continuity check across hands in bounded memory.

Stack continuity compares each hand with the one before it at its table, in the table's
order (`histkit.rules.continuity.table_order`), which need not be the order the hands are
read in (two files of one table, given in any order). So every hand's record is needed
until the end, but only two at a time then: up to `HELD` records stay in memory, and past
that they go to a temporary SQLite file, which hands each table's records back sorted.
An audit of any number of hands holds at most `HELD` of them (about 2 KB each).
"""

from __future__ import annotations

import pickle
import sqlite3
import tempfile
from collections.abc import Iterator
from itertools import groupby
from operator import itemgetter
from pathlib import Path

from histkit.rules.continuity import StackRecord, table_key, table_order

__all__ = ["HELD", "StackStore"]

HELD = 10_000  # records held in memory before they are written out (about 20 MB)


def _sortable(n: int) -> str:
    """A hand number as text that sorts as the number does (any size: SQLite's integers
    stop at 2**63); hand numbers are never negative."""
    digits = str(n)
    return f"{len(digits):04d}{digits}"


class StackStore:
    """Stack records in the order read (`add`), given back table by table (`tables`):
    the tables in the order first read, each table's records in `table_order`, ties in the
    order read, as sorting them all in memory would."""

    def __init__(self, held: int = HELD) -> None:
        self.held = max(1, held)
        self._rows: list[tuple[int, int, StackRecord]] = []  # (table, sequence, record)
        self._tables: dict[tuple[str, str | None, str], int] = {}  # key -> order first read
        self._seq = 0
        self._dir: tempfile.TemporaryDirectory[str] | None = None
        self._db: sqlite3.Connection | None = None

    def __len__(self) -> int:
        return self._seq

    @property
    def spilled(self) -> bool:
        """Whether records were written out (more than `held` were added)."""
        return self._db is not None

    def add(self, r: StackRecord) -> int:
        """Keep `r`; its sequence number (0, 1, ... in the order added)."""
        seq = self._seq
        self._seq += 1
        table = self._tables.setdefault(table_key(r), len(self._tables))
        self._rows.append((table, seq, r))
        if len(self._rows) >= self.held:
            self._write()
        return seq

    def _write(self) -> None:
        if self._db is None:
            self._dir = tempfile.TemporaryDirectory(prefix="histkit-audit-")
            self._db = sqlite3.connect(Path(self._dir.name) / "stacks.sqlite")
            self._db.execute("PRAGMA journal_mode = OFF")
            self._db.execute("PRAGMA synchronous = OFF")
            self._db.execute(
                "CREATE TABLE r (tbl INTEGER, t REAL, n TEXT, file BLOB, line INTEGER, "
                "seq INTEGER, rec BLOB)"
            )
        # file names as UTF-8 bytes (lone surrogates of undecodable names kept): byte order
        # is code point order, as Python compares the names
        self._db.executemany(
            "INSERT INTO r VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    table,
                    r.order[0],
                    _sortable(r.order[1]),
                    r.file.encode("utf-8", "surrogatepass"),
                    r.line,
                    seq,
                    pickle.dumps(r, pickle.HIGHEST_PROTOCOL),
                )
                for table, seq, r in self._rows
            ],
        )
        self._rows.clear()

    def tables(self) -> Iterator[Iterator[tuple[int, StackRecord]]]:
        """Each table's (sequence, record) pairs in the table's order, tables in the order
        first read. Each table's iterator must be used up before the next is asked for."""
        if self._db is None:
            groups: dict[int, list[tuple[int, StackRecord]]] = {}
            for table, seq, r in self._rows:
                groups.setdefault(table, []).append((seq, r))
            for table in sorted(groups):
                rows = groups[table]
                rows.sort(key=lambda row: table_order(row[1]))  # stable: ties as read
                yield iter(rows)
            return
        self._write()
        cursor = self._db.execute("SELECT tbl, seq, rec FROM r ORDER BY tbl, t, n, file, line, seq")
        for _, found in groupby(cursor, key=itemgetter(0)):
            yield ((seq, pickle.loads(rec)) for _, seq, rec in found)

    def source(self, seq: int) -> str:
        """Where the record of sequence `seq` was read ("file:line"; "?" when none was)."""
        for _, at, r in self._rows:
            if at == seq:
                return f"{r.file}:{r.line}"
        if self._db is not None:
            row = self._db.execute("SELECT rec FROM r WHERE seq = ?", (seq,)).fetchone()
            if row is not None:
                r = pickle.loads(row[0])
                return f"{r.file}:{r.line}"
        return "?"

    def close(self) -> None:
        """Drop the records and the temporary file."""
        self._rows.clear()
        if self._db is not None:
            self._db.close()
            self._db = None
        if self._dir is not None:
            self._dir.cleanup()
            self._dir = None
