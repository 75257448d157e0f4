"""The hand database (issue 13 part A): `histkit import` into DuckDB, each hand once,
incremental (unchanged files skipped, grown files read on, changed files read again), a
file still being written imported to exactly its complete hands, `histkit db`, and the
schema's migrations."""

from __future__ import annotations

import json
import os
import random
import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from histkit.cli import main
from histkit.simulate import write_session
from tests.conftest import CORPUS

duckdb = pytest.importorskip("duckdb")

import histkit.db as hdb  # noqa: E402
from histkit.db import schema  # noqa: E402

TABLES = (
    "hands",
    "seats",
    "actions",
    "cards",
    "allin_ev",
    "errors",
    "awards",
    "violations",
    "hand_index",
    "duplicates",
)


def dump(db: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every table of the database, sorted (`files` without when it was imported, nor the
    change time and racy mark its stat gave then)."""
    with hdb.connect(db) as con:
        out = {t: con.sql(f'select * from "{t}" order by all').fetchall() for t in TABLES}
        out["files"] = con.sql(
            "select * exclude (imported_at, ctime_ns, racy) from files order by all"
        ).fetchall()
    return out


def problems(db: Path) -> list[str]:
    with hdb.connect(db) as con:
        return hdb.check(con)


def simulated(path: Path, hands: int, seed: int, **kw: Any) -> Path:
    write_session(path, "stud_hilo", hands, players=6, seed=seed, **kw)
    return path


def assert_same(a: dict[str, Any], b: dict[str, Any]) -> None:
    for table in a:
        assert a[table] == b[table], table


# ------------------------------------------------------------------------ real hands

needs_shared = pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/hands is absent")
TWICE = "35874676388"  # in two PokerStars files


@needs_shared
def test_real_hands_of_every_site_imported_once_and_not_again(tmp_path: Path) -> None:
    db = tmp_path / "hands.duckdb"
    first = hdb.import_paths([CORPUS], db=db)
    assert first.files_read == first.files_seen > 40
    assert first.hands_added > 300 and first.rejected == 0 and first.conflicts == 0
    assert first.duplicates == 1
    # the one file that does not end with a line end: its last hand parses, so it is stored
    # (provisionally: read again if the file grows), not left waiting
    assert first.pending == 0

    again = hdb.import_paths([CORPUS], db=db)
    assert again.hands_added == again.hands_removed == again.duplicates == 0
    assert again.files_skipped == again.files_seen == first.files_seen

    with hdb.connect(db) as con:
        assert hdb.check(con) == []
        # every kind of file has its content hash (XML and UTF-16 files: the whole file's)
        unhashed = con.sql(
            "select path from files where coalesce(prefix_sha256, '') = ''"
        ).fetchall()
        assert unhashed == []
        sites = {r[0] for r in con.sql("select distinct site from hands").fetchall()}
        assert sites == {d.name for d in CORPUS.iterdir() if d.is_dir()}
        stored = con.sql(f"select source_file from hands where hand_id = '{TWICE}'").fetchall()
        copies = con.sql(f"select source_file from duplicates where hand_id = '{TWICE}'").fetchall()
        assert [Path(f).name for (f,) in stored] == ["7-StudHL-USD-0.04-0.08-200911.Cardtest.txt"]
        assert [Path(f).name for (f,) in copies] == ["7-StudHL-USD-0.04-0.08-200911.txt"]
        copy_file = con.sql(
            "select hands, duplicates from files "
            "where path like '%/7-StudHL-USD-0.04-0.08-200911.txt'"
        ).fetchall()
        assert copy_file == [(6, 1)]
        provisional = con.sql(
            "select hands from files where provisional_line is not null "
            "and path like '%/7-StudHL-USD-0.98-0.12-202302.allin.ante.txt'"
        ).fetchall()
        assert provisional == [(1,)]


# --------------------------------------------------------------- growing and changing


def cuts(data: bytes, rng: random.Random, n: int) -> list[int]:
    """Where a writer stops: anywhere, and at line ends (where a cut hand may parse)."""
    ends = [i + 1 for i, b in enumerate(data) if b == 10]
    points = {rng.randrange(1, len(data)) for _ in range(n)} | set(rng.sample(ends, n))
    return sorted(points) + [len(data)]


def grow(path: Path, data: bytes, db: Path, rng: random.Random, n: int) -> list[hdb.ImportReport]:
    """Write `data` to `path` piece by piece, importing after each piece."""
    path.write_bytes(b"")
    reports = []
    done = 0
    for cut in cuts(data, rng, n):
        with open(path, "ab") as f:
            f.write(data[done:cut])
        done = cut
        reports.append(hdb.import_paths([path], db=db))
    return reports


@pytest.mark.slow
def test_a_file_written_hand_by_hand_ends_with_exactly_its_hands(tmp_path: Path) -> None:
    data = simulated(tmp_path / "src.txt", 30, seed=11).read_bytes()
    live = tmp_path / "live" / "session.txt"
    live.parent.mkdir()
    reports = grow(live, data, tmp_path / "grown.duckdb", random.Random(5), 14)
    assert all(r.rejected == r.conflicts == r.duplicates == 0 for r in reports)
    assert any(r.pending for r in reports)  # a partial last hand waited
    assert any(r.files_resumed for r in reports)  # read on from where it stopped
    assert reports[-1].pending == 0
    assert problems(tmp_path / "grown.duckdb") == []

    clean = tmp_path / "clean.duckdb"
    hdb.import_paths([live], db=clean)
    assert_same(dump(tmp_path / "grown.duckdb"), dump(clean))
    assert len(dump(clean)["hands"]) == 30


def test_the_last_hand_of_a_file_without_a_blank_line_is_kept_and_read_again(
    tmp_path: Path,
) -> None:
    """A hand cut at a line end may parse: stored provisionally, replaced when the file
    grows and its text turns out longer."""
    data = simulated(tmp_path / "src.txt", 3, seed=2).read_bytes()
    blocks = data.split(b"\n\n\n\n")
    live = tmp_path / "s.txt"
    db = tmp_path / "h.duckdb"
    cut_hand = blocks[1].rsplit(b"\n", 2)[0] + b"\n"  # without its last two summary lines
    live.write_bytes(blocks[0] + b"\n\n\n\n" + cut_hand)
    first = hdb.import_paths([live], db=db)
    assert first.hands_added == 2 and first.pending == 0
    with hdb.connect(db) as con:
        assert con.sql("select provisional_line from files").fetchall()[0][0] is not None
    live.write_bytes(data)
    second = hdb.import_paths([live], db=db)
    assert second.files_resumed == 1 and second.hands_removed == 1 and second.hands_added == 2
    clean = tmp_path / "clean.duckdb"
    hdb.import_paths([live], db=clean)
    assert_same(dump(db), dump(clean))


def test_a_file_changed_in_the_middle_is_read_again(tmp_path: Path) -> None:
    path = simulated(tmp_path / "s.txt", 12, seed=3)
    db = tmp_path / "h.duckdb"
    hdb.import_paths([path], db=db)
    data = path.read_bytes()
    hands = data.split(b"\n\n\n\n")
    changed = b"\n\n\n\n".join(hands[:4] + hands[6:])  # two hands gone from the middle
    path.write_bytes(changed)
    r = hdb.import_paths([path], db=db)
    assert r.files_reread == 1 and r.hands_removed == 12 and r.hands_added == 10
    clean = tmp_path / "clean.duckdb"
    hdb.import_paths([path], db=clean)
    assert_same(dump(db), dump(clean))
    assert problems(db) == []


def test_a_file_changed_without_growing_is_read_again(tmp_path: Path) -> None:
    path = simulated(tmp_path / "s.txt", 6, seed=4)
    db = tmp_path / "h.duckdb"
    hdb.import_paths([path], db=db)
    data = bytearray(path.read_bytes())
    at = data.index(b"Table '", len(data) // 3) + len(b"Table '")
    data[at : at + 1] = b"#"  # same size: one hand's table renamed
    path.write_bytes(bytes(data))
    r = hdb.import_paths([path], db=db)
    assert r.files_reread == 1 and r.hands_added == 6 and r.rejected == 0
    with hdb.connect(db) as con:
        renamed = con.sql("select count(*) from hands where starts_with(\"table\", '#')")
        assert renamed.fetchall() == [(1,)]
    assert problems(db) == []


# ------------------------------------------------------------------------ duplicates


def test_the_same_file_under_two_names_is_stored_once(tmp_path: Path) -> None:
    a = simulated(tmp_path / "a.txt", 8, seed=5)
    shutil.copy(a, tmp_path / "b.txt")
    db = tmp_path / "h.duckdb"
    r = hdb.import_paths([tmp_path], db=db)
    assert (r.files_read, r.hands_added, r.duplicates, r.conflicts) == (2, 8, 8, 0)
    again = hdb.import_paths([tmp_path], db=db)
    assert again.hands_added == again.duplicates == 0
    with hdb.connect(db) as con:
        assert hdb.check(con) == []
        assert con.sql("select count(*) from duplicates").fetchall() == [(8,)]
        rows = con.sql("select path, hands, duplicates from files order by path").fetchall()
    assert [(Path(p).name, h, d) for p, h, d in rows] == [("a.txt", 8, 0), ("b.txt", 0, 8)]


def test_another_text_under_a_stored_id_is_a_conflict_naming_both_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a = simulated(tmp_path / "a.txt", 6, seed=6)
    data = a.read_bytes()
    at = data.index(b"Table '", len(data) // 2) + len(b"Table '")
    b = tmp_path / "b.txt"
    b.write_bytes(data[:at] + b"#" + data[at + 1 :])  # one hand's text differs
    extra = simulated(tmp_path / "c.txt", 3, seed=7)
    db = tmp_path / "h.duckdb"
    code = main(["import", str(a), str(b), str(extra), "--db", str(db), "--jobs", "1"])
    out = capsys.readouterr().out
    assert code == 1  # found a problem; the rest was imported
    assert "1 conflict:" in out and f"{a}:" in out and f"{b}:" in out
    with hdb.connect(db) as con:
        assert hdb.check(con) == []
        assert con.sql("select count(*) from hands").fetchall() == [(9,)]
        assert con.sql("select count(*) from duplicates").fetchall() == [(5,)]
        (reason,) = con.sql("select reason from errors where kind = 'conflict'").fetchall()[0]
    assert str(a) in reason and str(b) in reason


# ------------------------------------------------------------------- other formats


@pytest.mark.slow
def test_a_growing_xml_session_waits_for_the_hand_element_to_close(tmp_path: Path) -> None:
    xml = simulated(tmp_path / "src.xml", 5, seed=8, site="ipoker").read_bytes()
    live = tmp_path / "session.xml"
    db = tmp_path / "h.duckdb"
    reports = grow(live, xml, db, random.Random(3), 4)
    assert all(r.rejected == 0 for r in reports) and any(r.pending for r in reports)
    assert reports[-1].pending == 0
    clean = tmp_path / "clean.duckdb"
    hdb.import_paths([live], db=clean)
    assert_same(dump(db), dump(clean))
    # the same hands in another file: copies (their elements' lines are the same)
    shutil.copy(live, tmp_path / "copy.xml")
    r = hdb.import_paths([tmp_path / "copy.xml"], db=db)
    assert (r.hands_added, r.duplicates, r.conflicts) == (0, 5, 0)


@pytest.mark.slow
def test_a_growing_utf16_file_is_read_again_whole(tmp_path: Path) -> None:
    text = simulated(tmp_path / "src.txt", 6, seed=9).read_text(encoding="utf-8")
    data = text.encode("utf-16")
    live = tmp_path / "utf16.txt"
    db = tmp_path / "h.duckdb"
    reports = grow(live, data, db, random.Random(4), 3)
    assert all(r.rejected == 0 for r in reports)
    clean = tmp_path / "clean.duckdb"
    hdb.import_paths([live], db=clean)
    assert_same(dump(db), dump(clean))
    assert len(dump(db)["hands"]) == 6


@needs_shared
@pytest.mark.parametrize(
    "name, encoding, player",
    [
        ("merge/7-StudHL-USD-0.25-0.50-201307.no.null.xml", "utf-8", "Player2"),
        ("ipoker/7-StudHL-EUR-0.05-0.10-201405.txt", "utf-8", "Player0"),
        ("fulltilt/Razz-USD-0.10-0.20-201012.CCT.and.ET.timeformat.txt", "utf-16-le", "Player2"),
    ],
    ids=["merge-xml", "ipoker-xml", "fulltilt-utf16"],
)
def test_a_whole_file_touched_is_skipped_and_changed_is_read_again(
    tmp_path: Path, name: str, encoding: str, player: str
) -> None:
    """Files read whole (XML, UTF-16) are known by the hash of their bytes: touched (a
    new modification time, the same bytes) they are not read again; changed, even to the
    same size, they are."""
    import hashlib
    import os

    path = tmp_path / "hh" / Path(name).name
    path.parent.mkdir()
    shutil.copy(CORPUS / name, path)
    db = tmp_path / "h.duckdb"
    first = hdb.import_paths([path], db=db)
    assert first.files_read == 1

    def row() -> tuple[Any, ...]:
        with hdb.connect(db) as con:
            rows = con.sql("select mode, prefix_sha256, mtime_ns, hands from files").fetchall()
        assert len(rows) == 1
        return rows[0]

    mode, digest, _, hands = row()
    assert mode == "whole" and digest == hashlib.sha256(path.read_bytes()).hexdigest()

    st = path.stat()
    later = st.st_mtime_ns + 10**9
    os.utime(path, ns=(st.st_atime_ns, later))
    touched = hdb.import_paths([path], db=db)
    assert touched.files_skipped == 1 and touched.files_reread == 0
    assert touched.hands_removed == touched.hands_added == 0
    assert row()[2] == later  # the next import skips it at the cost of a stat
    assert hdb.import_paths([path], db=db).files_skipped == 1

    data = path.read_bytes()
    changed = data.replace(player.encode(encoding), "Villain".encode(encoding))
    assert changed != data and len(changed) == len(data)
    path.write_bytes(changed)
    os.utime(path, ns=(st.st_atime_ns, later + 10**9))
    again = hdb.import_paths([path], db=db)
    assert again.files_reread == 1 and again.hands_removed == hands
    clean = tmp_path / "clean.duckdb"
    hdb.import_paths([path], db=clean)
    assert_same(dump(db), dump(clean))
    with hdb.connect(db) as con:
        players = {r[0] for r in con.sql("select player from seats").fetchall()}
    assert hands > 0 and "Villain" in players and player not in players


def test_an_audit_asked_for_reads_again_a_file_imported_without_it(tmp_path: Path) -> None:
    path = simulated(tmp_path / "s.txt", 5, seed=10)
    db = tmp_path / "h.duckdb"
    hdb.import_paths([path], db=db, audit=False)
    assert dump(db)["awards"] == []
    r = hdb.import_paths([path], db=db)
    assert r.files_reread == 1
    clean = tmp_path / "clean.duckdb"
    hdb.import_paths([path], db=clean)
    assert_same(dump(db), dump(clean))


# ------------------------------------------------------------------ schema versions


def copy_rows(con: Any, current: Path) -> None:
    """Fill an older layout's tables with a current database's rows (its columns only)."""
    con.execute(f"ATTACH '{current}' AS cur (READ_ONLY)")
    for table in [*TABLES, "files"]:
        cols = [r[0] for r in con.execute(f'DESCRIBE "{table}"').fetchall()]
        names = ", ".join(f'"{c}"' for c in cols)
        con.execute(f'INSERT INTO "{table}" SELECT {names} FROM cur."{table}"')
    con.execute("DETACH cur")


def test_a_database_of_schema_version_1_is_migrated(tmp_path: Path) -> None:
    path = simulated(tmp_path / "s.txt", 6, seed=12)
    current = tmp_path / "current.duckdb"
    hdb.import_paths([path], db=current)
    # version 1, built by the schema's own first layout, holding the same rows
    old = tmp_path / "old.duckdb"
    con = duckdb.connect(str(old))
    schema.create(con, upto=1)
    copy_rows(con, current)
    assert schema.version(con) == 1
    assert "n_seats" not in [r[0] for r in con.execute("DESCRIBE hand_index").fetchall()]
    con.close()

    with hdb.connect(old) as con:  # read-only: migrated first
        assert schema.version(con) == schema.SCHEMA_VERSION
        assert hdb.check(con) == []
    assert_same(dump(old), dump(current))
    assert hdb.import_paths([path], db=old).files_skipped == 1


@pytest.mark.slow
def test_a_version_3_database_has_its_all_in_rows_valued_again(tmp_path: Path) -> None:
    """Version 4 values each pot of an all-in hand when its own last chip went in: the
    rows a version 3 database holds are the earlier definition's (and have no `at_stake`).
    Opening it migrates it; the next import reads every file again and replaces them."""
    path = tmp_path / "t.txt"
    write_session(path, "stud_hilo", 60, players=8, seed=104, tournament=True)
    current = tmp_path / "current.duckdb"
    hdb.import_paths([path], db=current)
    old = tmp_path / "old.duckdb"
    con = duckdb.connect(str(old))
    schema.create(con, upto=3)
    con.execute("ALTER TABLE allin_ev DROP COLUMN at_stake")
    copy_rows(con, current)
    assert con.sql("select count(*) from allin_ev").fetchall()[0][0] > 0
    con.execute("UPDATE allin_ev SET ev_collected = 0, ev_net = -contributed")  # stale rows
    assert schema.version(con) == 3
    con.close()

    with hdb.connect(old) as con:
        assert schema.version(con) == schema.SCHEMA_VERSION == 6
        assert hdb.check(con) == []
    assert hdb.import_paths([path], db=old).files_reread == 1
    assert_same(dump(old), dump(current))


@pytest.mark.slow
def test_a_database_of_schema_version_4_gets_the_unit_beside_every_amount(
    tmp_path: Path,
) -> None:
    """Version 4 had `money_unit` in `hands` and `allin_ev` only: a `GROUP BY` on seats,
    actions, awards or violations mixed dollars and chips. Migrated, every row carries its
    hand's unit, taken from the hand (no file needs reading again)."""
    folder = tmp_path / "hh"
    folder.mkdir()
    simulated(folder / "cash.txt", 5, seed=18)
    simulated(folder / "tour.txt", 4, seed=19, tournament=True)
    current = tmp_path / "current.duckdb"
    hdb.import_paths([folder], db=current)
    # the same database as histkit wrote it at version 4: without those columns
    old = tmp_path / "v4.duckdb"
    shutil.copy(current, old)
    con = duckdb.connect(str(old))
    for table in ("seats", "actions", "awards", "violations"):
        con.execute(f"ALTER TABLE {table} DROP COLUMN money_unit")
    con.execute("UPDATE meta SET value = '4' WHERE key = 'schema_version'")
    assert schema.version(con) == 4
    con.close()

    with hdb.connect(old) as con:  # read-only: migrated first
        assert schema.version(con) == schema.SCHEMA_VERSION == 6
        assert hdb.check(con) == []
        units = con.sql(
            "select money_unit, count(*) from seats group by all order by all"
        ).fetchall()
        assert [u.split(":")[0] for u, _ in units] == ["USD", "chips"]
        for table in ("seats", "actions", "awards", "violations"):
            mixed = con.sql(
                f"select count(*) from {table} t join hands h using (site, hand_id) "
                "where t.money_unit is distinct from h.money_unit"
            ).fetchall()
            assert mixed == [(0,)], table
    assert_same(dump(old), dump(current))
    again = hdb.import_paths([folder], db=old)
    assert again.files_skipped == 2 and again.hands_added == 0


def test_the_money_unit_in_sql_is_the_hands() -> None:
    """`schema.MONEY_UNIT_SQL` fills `money_unit` in a database written before the column:
    the same units as `Hand.money_unit` (cash, tournaments, play chips, no currency)."""
    from dataclasses import replace

    from histkit.model import Unit
    from histkit.tables import tables_from
    from tests.test_tables import _hand

    cash = _hand()
    chips = replace(cash, hand_id="43", unit=Unit.CHIP, currency=None, tournament_id="9")
    play = replace(cash, hand_id="44", unit=Unit.CHIP, currency=None)
    nameless = replace(cash, hand_id="45", site="kingsclub", currency=None)
    hands = tables_from([cash, chips, play, nameless]).hands
    con = duckdb.connect()
    con.register("hands", hands)
    got = con.sql(f"select {schema.MONEY_UNIT_SQL} from hands").fetchall()
    assert [u for (u,) in got] == hands["money_unit"].to_pylist()
    assert len(set(got)) == 4


@pytest.mark.slow
def test_tables_of_an_older_histkit_get_the_new_columns(tmp_path: Path) -> None:
    """A database written before every table carried `site` (and hands `money_unit`):
    the columns are added in SCHEMAS' order, `site` taken from each row's hand, and the
    next import reads each file again, which fills the rest."""
    path = simulated(tmp_path / "s.txt", 4, seed=13)
    db = tmp_path / "h.duckdb"
    hdb.import_paths([path], db=db)
    con = duckdb.connect(str(db))
    con.execute("ALTER TABLE seats DROP COLUMN site")
    con.execute("ALTER TABLE hands DROP COLUMN money_unit")
    con.close()
    with hdb.connect(db) as con:
        assert hdb.check(con) == []
        assert con.sql("select count(*) from seats where site is null").fetchall() == [(0,)]
        units = con.sql("select money_unit, count(*) from hands group by all").fetchall()
        assert units == [("USD", 4)]  # filled from the hands' other columns
    r = hdb.import_paths([path], db=db)
    assert r.files_reread == 1
    clean = tmp_path / "clean.duckdb"
    hdb.import_paths([path], db=clean)
    assert_same(dump(db), dump(clean))


def test_a_database_of_a_newer_histkit_or_not_a_database_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "h.duckdb"
    hdb.import_paths([simulated(tmp_path / "s.txt", 2, seed=14)], db=db)
    con = duckdb.connect(str(db))
    con.execute("UPDATE meta SET value = '99' WHERE key = 'schema_version'")
    con.close()
    assert main(["db", "--db", str(db)]) == 2
    assert "newer histkit" in capsys.readouterr().err
    text = tmp_path / "notes.txt"
    text.write_text("not a database\n")
    assert main(["import", str(tmp_path / "s.txt"), "--db", str(text)]) == 2
    assert main(["db", "--db", str(tmp_path / "missing.duckdb")]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and "histkit import" in err


def test_check_names_what_is_wrong(tmp_path: Path) -> None:
    db = tmp_path / "h.duckdb"
    hdb.import_paths([simulated(tmp_path / "s.txt", 3, seed=15)], db=db)
    con = duckdb.connect(str(db))
    con.execute("DELETE FROM actions WHERE seq = 0")
    con.execute("INSERT INTO cards (hand_id, site) VALUES ('nope', 'pokerstars')")
    con.execute("UPDATE files SET hands = 7")
    con.execute("UPDATE seats SET money_unit = 'EUR' WHERE seat = (SELECT min(seat) FROM seats)")
    found = hdb.check(con)
    con.close()
    assert any("actions are not all there" in p for p in found)
    assert any("rows of cards whose hand is not stored" in p for p in found)
    assert any("count of hands disagrees" in p for p in found)
    assert any("rows of seats whose money_unit is not their hand's" in p for p in found)


# --------------------------------------------------------------------- the commands


def test_import_and_db_commands(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "hh"
    folder.mkdir()
    data = simulated(tmp_path / "src.txt", 5, seed=16).read_bytes()
    last = data.rindex(b"PokerStars Hand #")
    cut = last + (len(data) - last) // 2
    (folder / "live.txt").write_bytes(data[:cut])  # its last hand: cut in the middle
    simulated(folder / "t.txt", 3, seed=17, tournament=True)
    shutil.copy(folder / "t.txt", folder / "t-copy.txt")
    db = tmp_path / "h.duckdb"
    assert main(["import", str(folder), "--db", str(db), "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "3 files seen: 3 new" in out and "Added 7 hands" in out
    assert "3 duplicates" in out and "Pending: 1 hand" in out

    assert main(["db", "--db", str(db), "--format", "json"]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["schema_version"] == schema.SCHEMA_VERSION and d["hands"] == 7
    units = {(r["money_unit"].split(":")[0], r["hands"]) for r in d["hands_by_unit"]}
    assert units == {("USD", 4), ("chips", 3)}  # cash and the tournament's chips, apart
    assert d["files"]["count"] == 3 and d["duplicates"] == 3
    assert [Path(p["file"]).name for p in d["pending"]] == ["live.txt"]
    assert main(["db", "--db", str(db)]) == 0
    text = capsys.readouterr().out
    assert "Hands: 7, by site, game and money unit:" in text
    assert "Pending: 1 hand not complete yet:" in text and "live.txt:" in text
    assert f"schema version {schema.SCHEMA_VERSION}" in text


def test_reading_commands_never_create_a_database_and_say_what_is_wrong(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def refused(argv: list[str], said: str) -> str:
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert said in err and len(err.strip().splitlines()) == 1, (argv, err)
        assert "Traceback" not in err and "IO Error" not in err, err
        return err

    # an empty DuckDB file of someone else's: refused, and left without histkit's tables
    empty = tmp_path / "empty.duckdb"
    duckdb.connect(str(empty)).close()
    refused(["db", "--db", str(empty)], "is an empty DuckDB database, not a hand database")
    refused(["stats", "--db", str(empty)], "is an empty DuckDB database, not a hand database")
    with pytest.raises(hdb.DatabaseError, match="histkit import PATH --db"):
        hdb.connect(empty)
    con = duckdb.connect(str(empty), read_only=True)
    assert con.sql("select count(*) from duckdb_tables()").fetchall() == [(0,)]
    con.close()

    # a folder given as the database
    refused(["db", "--db", str(tmp_path)], f"{tmp_path}: is a folder, not a hand database file")

    # a hand database with no hands yet: said as a database, not as a folder to read
    folder = tmp_path / "hh"
    folder.mkdir()
    db = tmp_path / "h.duckdb"
    hdb.import_paths([folder], db=db)
    report = ["-o", str(tmp_path / "r.html")]
    for argv in (["stats"], ["audit"], ["report", *report], ["stats", "--player", "Hero"]):
        err = refused([*argv, "--db", str(db)], f"the hand database {db} holds no hands yet")
        assert f"histkit import PATH --db {db}" in err and "read in folders" not in err
    assert main(["db", "--db", str(db)]) == 0
    assert "Hands: 0." in capsys.readouterr().out


# ------------------------------------------- a rewrite that keeps size and time (issue 28)


def rewritten_in_place(path: Path) -> None:
    """`path` rewritten with other hands (every hand id changed, one digit) of the very
    same size, its modification time set back to what it was: its size and modification
    time say nothing changed."""
    before = path.stat()
    text = path.read_text(encoding="utf-8")
    new = text.replace("Hand #2", "Hand #3")
    assert new != text and len(new.encode()) == before.st_size
    path.write_text(new, encoding="utf-8")
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = path.stat()
    assert (after.st_size, after.st_mtime_ns) == (before.st_size, before.st_mtime_ns)


@pytest.mark.slow
def test_a_file_rewritten_with_the_same_size_and_time_is_read_again(tmp_path: Path) -> None:
    path = simulated(tmp_path / "s.txt", 10, seed=41)
    db = tmp_path / "h.duckdb"
    assert hdb.import_paths([path], db=db).hands_added == 10
    rewritten_in_place(path)
    r = hdb.import_paths([path], db=db)
    assert (r.files_reread, r.hands_removed, r.hands_added) == (1, 10, 10)
    fresh = tmp_path / "fresh.duckdb"
    hdb.import_paths([path], db=fresh)
    assert_same(dump(db), dump(fresh))  # as if imported new
    # unchanged since: skipped
    assert hdb.import_paths([path], db=db).files_skipped == 1


def test_a_racy_file_is_compared_by_its_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file changed just before it was read is racy: a rewrite within the same time
    stamp tick would keep its size, modification and change time, so the next import
    compares its bytes (and finds them the same: nothing read, nothing removed)."""
    import histkit.db.scan
    from histkit.db.scan import RACY_NS, SKIP, Known, unchanged

    assert RACY_NS >= 2_000_000_000  # FAT's modification times are kept to 2 s
    path = simulated(tmp_path / "s.txt", 4, seed=42)
    db = tmp_path / "h.duckdb"
    # written "just now" whatever the load of the machine: no wall-clock race in the test
    monkeypatch.setattr(histkit.db.scan, "RACY_NS", 3600 * 10**9)
    hdb.import_paths([path], db=db)
    with hdb.connect(db) as con:
        ((racy, ctime),) = con.sql("select racy, ctime_ns from files").fetchall()
    st = path.stat()
    assert racy and ctime == st.st_ctime_ns  # just written: within RACY_NS of the import
    known = Known(st.st_size, st.st_mtime_ns, st.st_size, 0, "x", "text", True, ctime, racy)
    assert unchanged(str(path), known) is None  # not skipped on its stat
    plan = unchanged(str(path), replace(known, racy=False))
    assert plan is not None and plan.action == SKIP  # one that is not: skipped on its stat
    assert unchanged(str(path), replace(known, racy=False, ctime_ns=ctime - 1)) is None
    r = hdb.import_paths([path], db=db)
    assert (r.files_skipped, r.hands_removed, r.hands_added) == (1, 0, 0)
    monkeypatch.setattr(histkit.db.scan, "RACY_NS", 0)  # looked at long after its writing
    hdb.import_paths([path], db=db)
    with hdb.connect(db) as con:
        assert con.sql("select racy from files").fetchall() == [(False,)]
    assert hdb.import_paths([path], db=db).files_skipped == 1  # skipped on its stat


# ---------------------------------- truncated, renamed, deleted: the same way (issue 28)


def _cut(path: Path, keep: int) -> None:
    """`path` cut after its first `keep` hands (at the next hand's header)."""
    data = path.read_bytes()
    at = -1
    for _ in range(keep + 1):
        at = data.index(b"PokerStars Hand #", at + 1)
    path.write_bytes(data[:at])


def _change(folder: Path, how: str) -> None:
    a = folder / "a.txt"
    if how == "truncated":
        _cut(a, 6)
    elif how == "renamed":
        a.rename(folder / "c.txt")
    else:
        a.unlink()


@pytest.mark.parametrize("how", ["truncated", "renamed", "deleted"])
def test_the_hands_a_file_no_longer_holds_leave_the_database(how: str, tmp_path: Path) -> None:
    """A file cut shorter, renamed or deleted: the next import of its folder leaves the
    database as a fresh import of the folder as it is now (hands no longer in a file are
    removed; a renamed file's hands are stored from its new name, no duplicates)."""
    folder = tmp_path / "hh"
    folder.mkdir()
    simulated(folder / "a.txt", 10, seed=44)
    simulated(folder / "b.txt", 5, seed=45)
    db = tmp_path / "h.duckdb"
    assert hdb.import_paths([folder], db=db).hands_added == 15
    _change(folder, how)
    r = hdb.import_paths([folder], db=db)
    fresh = tmp_path / "fresh.duckdb"
    expected = {"truncated": 11, "renamed": 15, "deleted": 5}[how]
    assert hdb.import_paths([folder], db=fresh).hands_added == expected
    assert_same(dump(db), dump(fresh))
    assert r.hands_removed - r.hands_added == 15 - expected and r.duplicates == 0
    assert r.files_gone == (how != "truncated")
    # said: the summary names what happened
    text = summary_of(r)
    if how == "truncated":
        assert "1 changed (read again)" in text and "removed 10 of files read again" in text
    else:
        assert "1 file imported before no longer there (deleted or renamed)" in text
        assert f"\n  gone: {folder / 'a.txt'}\n" in text
    assert hdb.import_paths([folder], db=db).files_skipped == (1 if how == "deleted" else 2)


def summary_of(r: hdb.ImportReport) -> str:
    import importlib

    return str(importlib.import_module("histkit.commands.import").summary(r))


def test_a_folder_found_empty_keeps_its_hands(tmp_path: Path) -> None:
    """Nothing found in a folder imported before (a disk not mounted, more likely than every
    file deleted): its files' hands are kept."""
    folder = tmp_path / "hh"
    (folder / "sub").mkdir(parents=True)
    simulated(folder / "sub" / "a.txt", 4, seed=46)
    db = tmp_path / "h.duckdb"
    hdb.import_paths([folder], db=db)
    (folder / "sub" / "a.txt").unlink()
    r = hdb.import_paths([folder], db=db)
    assert (r.files_gone, r.hands_removed) == (0, 0)
    with hdb.connect(db) as con:
        assert con.sql("select count(*) from hands").fetchall() == [(4,)]
