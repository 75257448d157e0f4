"""Text between hands is no hand (issue 28 item 5): `parse` and `audit` listed it apart
from rejected hands, but `import`, `histkit db`, `stats` and `report` counted each stretch
as a rejected hand ("1 hand rejected" in a file whose every hand was read). The `errors`
table says whether a row is a hand's (`about_hand`), and every command counts the same
way; a database of the layout before gets the column from each row's own words, without
reading its files again."""

from __future__ import annotations

from pathlib import Path

import pytest

from histkit.cli import main

pytest.importorskip("duckdb")

import duckdb  # noqa: E402

JUNK = "notes pasted between two hands\nand a second line of them\n"


@pytest.fixture(scope="module")
def padded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("outside")
    two = folder / "two.txt"
    assert main(["simulate", "--hands", "3", "--seed", "11", "-o", str(two), "-q"]) == 0
    hands = [h.strip() for h in two.read_text().split("\n\n\n") if h.strip()]
    path = folder / "padded.txt"
    path.write_text(hands[0] + "\n\n\n" + JUNK + "\n\n" + "\n\n\n".join(hands[1:]) + "\n\n\n")
    return path


def test_import_and_db_count_text_between_hands_apart(
    padded: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "h.duckdb"
    assert main(["import", str(padded), "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "Rejected 0 hands." in out
    assert "Not part of any hand: 1 stretch of text:" in out
    assert f"{padded}:" in out and "notes pasted between two hands" in out
    assert main(["db", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "Errors: 0 hands rejected; 1 stretch of text not part of any hand;" in out
    with duckdb.connect(str(db), read_only=True) as con:
        rows = con.execute("SELECT kind, about_hand FROM errors").fetchall()
    assert rows == [("rejected", False)]


@pytest.mark.parametrize("command", ["stats", "report"])
def test_stats_and_report_do_not_count_it_as_a_rejected_hand(
    command: str, padded: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    args = [command, str(padded)] + (
        ["-o", str(tmp_path / "r.html")] if command == "report" else []
    )
    assert main(args) == 0
    err = capsys.readouterr().err
    assert "3 stud hands" in err
    assert "0 hands rejected, 1 stretch of text not part of any hand" in err
    assert "counted in the figures: 3." in err


def test_a_database_of_the_layout_before_gets_the_column_without_reading_again(
    padded: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "old.duckdb"
    assert main(["import", str(padded), "--db", str(db), "-q"]) == 0
    with duckdb.connect(str(db)) as con:  # as a histkit before the column wrote it
        con.execute("ALTER TABLE errors DROP COLUMN about_hand")
        con.execute(
            "INSERT INTO errors VALUES ('x.txt', 9, NULL, '123', 'rejected', 'hand not read', NULL)"
        )
        mtimes = con.execute("SELECT path, mtime_ns FROM files").fetchall()
    capsys.readouterr()
    assert main(["db", "--db", str(db)]) == 0
    assert "Errors: 1 hand rejected; 1 stretch of text not part of any hand;" in (
        capsys.readouterr().out
    )
    with duckdb.connect(str(db), read_only=True) as con:
        got = con.execute("SELECT hand_id, about_hand FROM errors ORDER BY line").fetchall()
        assert con.execute("SELECT path, mtime_ns FROM files").fetchall() == mtimes
    assert sorted(got, key=str) == sorted([("123", True), (None, False)], key=str)
