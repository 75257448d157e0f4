"""A file given as `--db` that is not a hand database is refused in one line, exit 2, by
every command that reads or writes the database, for what it is: a SQLite file (without
DuckDB reaching for the network to read it), another program's DuckDB file (even one
with a `hands` table), a place histkit may not open (issue 26 item 4)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from histkit.cli import main
from tests.conftest import SAMPLE_DATA

duckdb = pytest.importorskip("duckdb")

SAMPLE = str(SAMPLE_DATA / "razz_cash_200.txt")


def _commands(db: Path, tmp_path: Path) -> list[list[str]]:
    return [
        ["stats", "--db", str(db)],
        ["report", "--db", str(db), "-o", str(tmp_path / "r.html")],
        ["audit", "--db", str(db)],
        ["db", "--db", str(db)],
        ["import", SAMPLE, "--db", str(db), "-q"],
    ]


def _one_line_exit_2(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    capsys.readouterr()
    rc = main(argv)
    err = capsys.readouterr().err
    assert rc == 2, (argv, err)
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, (argv, err)
    return err


def test_a_sqlite_file_is_named_and_never_read_through_an_extension(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "tracker.db"
    with sqlite3.connect(db) as con:
        con.execute("create table hands(id integer)")
    before = db.read_bytes()
    for argv in _commands(db, tmp_path):
        err = _one_line_exit_2(argv, capsys)
        assert "is a SQLite database" in err, (argv, err)
        # once: "Failed to download extension sqlite_scanner at URL http://..."
        assert "extension" not in err and "http" not in err, (argv, err)
    assert db.read_bytes() == before  # nothing written into the user's file


@pytest.mark.parametrize("rows", [False, True])
def test_another_programs_duckdb_file_is_not_a_hand_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], rows: bool
) -> None:
    db = tmp_path / "other.duckdb"
    con = duckdb.connect(str(db))
    con.execute("create table hands(a integer, b varchar)")
    if rows:  # a table named as ours, with rows: once a traceback in `stats`
        con.execute("insert into hands values (1, 'x')")
    con.close()
    for argv in _commands(db, tmp_path):
        err = _one_line_exit_2(argv, capsys)
        assert "not a histkit hand database" in err, (argv, err)
    con = duckdb.connect(str(db), read_only=True)
    assert con.execute("select count(*) from hands").fetchone() == (int(rows),)
    assert [r[0] for r in con.execute("show tables").fetchall()] == ["hands"]
    con.close()


def test_a_file_that_is_no_database_at_all(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "notes.duckdb"
    db.write_text("these are my notes, not a database\n")
    for argv in _commands(db, tmp_path):
        err = _one_line_exit_2(argv, capsys)
        assert "is not a DuckDB database" in err, (argv, err)
    assert db.read_text() == "these are my notes, not a database\n"


def test_a_place_histkit_may_not_open_is_said_as_such(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """What DuckDB says of a read-only folder or file (seen as root's test cannot make
    one, the words are DuckDB's own)."""
    db = tmp_path / "ro" / "hands.duckdb"
    assert main(["import", SAMPLE, "--db", str(db), "-q"]) == 0

    def denied(path: str, **kwargs: object) -> None:
        raise duckdb.IOException(f'IO Error: Cannot open file "{path}": Permission denied')

    monkeypatch.setattr(duckdb, "connect", denied)
    for argv in _commands(db, tmp_path):
        err = _one_line_exit_2(argv, capsys)
        assert "permission denied" in err and "not a DuckDB database" not in err, (argv, err)


def test_connections_never_load_or_install_extensions(tmp_path: Path) -> None:
    from histkit.db.connection import connect_file

    con = connect_file(tmp_path / "h.duckdb", read_only=False)
    try:
        got = dict(
            con.execute(
                "select name, value from duckdb_settings() where name in "
                "('autoinstall_known_extensions', 'autoload_known_extensions')"
            ).fetchall()
        )
    finally:
        con.close()
    assert got == {"autoinstall_known_extensions": "false", "autoload_known_extensions": "false"}
