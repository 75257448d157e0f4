"""Copies of a hand in a folder of tables (issue 28 item 6): `histkit parse` writes every
copy it reads; `stats` on that folder keeps each (site, hand id) once, its first copy, in
DuckDB (`histkit.firstcopy`), and gives the figures of the hands read once. Copies of one
hand id that differ and were written one after the other cannot be told apart in the
tables: that hand is left out and the accounting line says so."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from histkit.cli import main


@pytest.fixture(scope="module")
def hands(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    folder = tmp_path_factory.mktemp("hands")
    two = folder / "two.txt"
    assert main(["simulate", "--hands", "2", "--seed", "5", "--hero", "Hero", "-o", str(two),
                 "-q"]) == 0  # fmt: skip
    texts = [h.strip() + "\n\n\n" for h in two.read_text().split("\n\n\n") if h.strip()]
    assert len(texts) == 2
    return texts


def _stats(source: Path, capsys: pytest.CaptureFixture[str]) -> tuple[list[dict], str]:
    capsys.readouterr()
    assert main(["stats", str(source), "--format", "json"]) == 0
    got = capsys.readouterr()
    return json.loads(got.out), got.err


def _parsed(text: str, tmp_path: Path, name: str) -> Path:
    src = tmp_path / f"{name}.txt"
    src.write_text(text)
    out = tmp_path / f"{name}_tables"
    assert main(["parse", str(src), "-o", str(out), "-q"]) == 0
    return out


def test_copies_side_by_side_and_apart_count_once(
    hands: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = hands
    once = _parsed(a + b, tmp_path, "once")
    many = _parsed(a + a + a + b + a + b + b, tmp_path, "many")
    want, _ = _stats(once, capsys)
    got, err = _stats(many, capsys)
    assert got == want
    assert "read 7 stud hands (5 of them copies of a hand read before" in err
    assert "counted in the figures: 2." in err


def test_copies_that_differ_side_by_side_are_left_out_and_said(
    hands: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = hands
    stack = next(line for line in a.splitlines() if line.startswith("Seat 1:"))
    changed = a.replace(stack, stack.replace("($", "($1", 1))
    assert changed != a
    only_b, _ = _stats(_parsed(b, tmp_path, "b"), capsys)
    got, err = _stats(_parsed(a + changed + b, tmp_path, "differ"), capsys)
    assert got == only_b  # the hand whose copies differ is in no figure; b is whole
    assert "counted in the figures: 1; left out: 1 whose copies in the tables differ" in err


def test_copies_that_differ_apart_keep_the_first(
    hands: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Copies not side by side are runs of their own: the first is kept, as for text."""
    a, b = hands
    stack = next(line for line in a.splitlines() if line.startswith("Seat 1:"))
    changed = a.replace(stack, stack.replace("($", "($1", 1))
    want, _ = _stats(_parsed(a + b, tmp_path, "ab"), capsys)
    got, err = _stats(_parsed(a + b + changed, tmp_path, "apart"), capsys)
    assert got == want
    assert "counted in the figures: 2." in err
