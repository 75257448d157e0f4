"""Hostile input on the output side (issue 28, items 4 and 7): a table name too long for a
folder, control characters in names and lines, a crash, a full disk."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from histkit.cli import main
from histkit.warehouse import EXACT_TABLE, FOLDER_BYTES, folder_value, read_tables

_TABLE = re.compile(r"^Table '([^']*)'", re.M)


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A simulated PokerStars session of 30 hands at one table."""
    d = tmp_path_factory.mktemp("session")
    path = d / "sim.txt"
    args = ["simulate", "--hands", "30", "--players", "5", "--seed", "7", "-q", "-o", str(path)]
    assert main(args) == 0
    return path


def _renamed_tables(source: Path, target: Path, names: list[str]) -> list[str]:
    """`source` with its hands' table names replaced, hand by hand, by `names` in turn;
    the names the hands have, in order."""
    text = source.read_text(encoding="utf-8")
    given: list[str] = []

    def name(_: re.Match[str]) -> str:
        given.append(names[len(given) % len(names)])
        return f"Table '{given[-1]}'"

    target.write_text(_TABLE.sub(name, text), encoding="utf-8")
    return given


# ------------------------------------------------------------------ item 4: folder names


def test_folder_value_is_bounded_readable_unique_and_stable() -> None:
    for value in ("x" * 300, "中" * 28, "é" * 100, "a b" * 90):
        named = folder_value("table", value)
        assert len("table=" + _quoted(named)) <= FOLDER_BYTES
        assert value.startswith(named[:-17]) and len(named) > 20  # readable: its start
        assert re.fullmatch(r".*~[0-9a-f]{16}", named)
        assert folder_value("table", value) == named  # stable
    assert folder_value("table", "x" * 300) != folder_value("table", "x" * 299 + "y")
    assert folder_value("table", "Bellatrix III") == "Bellatrix III"  # short: as it is
    cut = folder_value("table", "y" * 400)
    assert folder_value("table", cut) != cut  # a name shaped like a cut one cannot take it


def _quoted(value: str) -> str:
    from urllib.parse import quote

    return quote(value, safe="")


def test_long_table_names_partition_and_read_back_exactly(
    session: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    names = ["T" * 300, "中文桌子" * 7, "Bellatrix III", "T" * 299 + "U"]
    src = tmp_path / "long.txt"
    given = _renamed_tables(session, src, names)
    out = tmp_path / "out"
    argv = ["parse", "-j", "1", str(src), "-o", str(out), "--partition-by", "site,table"]
    assert main([*argv, "--audit"]) == 0
    assert "Wrote" in capsys.readouterr().out
    folders = {p.name for p in (out / "hands").glob("site=*/table=*")}
    assert len(folders) == len(names)  # one each: the two long T names stay apart
    assert all(len(f.encode()) <= FOLDER_BYTES for f in folders)
    assert "table=Bellatrix%20III" in folders
    tables = read_tables(out)
    assert sorted(tables["hands"]["table"].to_pylist()) == sorted(given)  # exact names
    assert EXACT_TABLE not in tables["hands"].column_names
    flat = tmp_path / "flat"
    assert main(["parse", "-j", "1", str(src), "-o", str(flat), "-q", "--audit"]) == 0
    want = read_tables(flat)
    for name, table in read_tables(out).items():
        order = [(c, "ascending") for c in table.column_names]
        assert table.sort_by(order).equals(want[name].sort_by(order)), name
    # the run is repeatable: the same folders
    again = tmp_path / "again"
    assert main([*argv[:5], str(again), *argv[6:], "-q"]) == 0
    assert {p.name for p in (again / "hands").glob("site=*/table=*")} == folders
    assert os.path.isfile(again / "_histkit.json")
