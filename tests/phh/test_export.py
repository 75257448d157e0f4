"""`histkit export --format phh`: the files, the options, and an output that appears whole
or not at all."""

from __future__ import annotations

import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from histkit.cli import main
from histkit.model import Hand
from histkit.phh import export_phh
from histkit.phh.export import MARKER
from histkit.reader import iter_hands
from histkit.simulate import write_session


@pytest.fixture
def two_files(tmp_path: Path) -> list[Path]:
    a, b = tmp_path / "in" / "razz.txt", tmp_path / "in" / "stud.txt"
    a.parent.mkdir()
    write_session(a, "razz", 12, players=4, seed=1)
    write_session(b, "stud", 8, players=3, seed=2, site="fulltilt")
    return [a, b]


def test_one_file_per_hand(
    tmp_path: Path, two_files: list[Path], capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "phh"
    assert main(["export", "--format", "phh", str(two_files[0].parent), "-o", str(out)]) == 0
    said = capsys.readouterr().out
    assert said.startswith(f"Wrote 20 hands as PHH to {out}/ (20 files).")
    names = sorted(p.name for p in out.iterdir())
    assert (out / MARKER).is_file() and len(names) == 21
    hands = [h for h in iter_hands(two_files) if isinstance(h, Hand)]
    assert {f"{h.site}-{h.hand_id}.phh" for h in hands} == set(names) - {MARKER}
    f = tomllib.loads((out / f"fulltilt-{hands[-1].hand_id}.phh").read_text("utf-8"))
    assert f["variant"] == "F7S" and f["venue"] == "Full Tilt Poker"


def test_phhs_one_file_per_input_file(tmp_path: Path, two_files: list[Path]) -> None:
    out = tmp_path / "phh"
    assert main(["export", str(two_files[0].parent), "-o", str(out), "--phhs", "-q"]) == 0
    razz = tomllib.loads((out / "razz.phhs").read_text("utf-8"))
    assert list(razz) == [str(i) for i in range(1, 13)]
    assert {h["variant"] for h in razz.values()} == {"FR"}
    assert len(tomllib.loads((out / "stud.phhs").read_text("utf-8"))) == 8


def test_an_earlier_export_is_replaced_whole_and_other_folders_refused(
    tmp_path: Path, two_files: list[Path], capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "phh"
    assert main(["export", str(two_files[1]), "-o", str(out), "-q"]) == 0
    assert main(["export", str(two_files[0]), "-o", str(out)]) == 0
    assert "replacing the earlier export" in capsys.readouterr().out
    assert not [p for p in out.glob("fulltilt-*")] and len(list(out.glob("*.phh"))) == 12
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("keep me", encoding="utf-8")
    assert main(["export", str(two_files[0]), "-o", str(mine)]) == 2
    err = capsys.readouterr().err
    assert "not a histkit PHH export" in err and "Traceback" not in err
    assert [p.name for p in mine.iterdir()] == ["notes.txt"]
    assert main(["export", str(two_files[0]), "-o", str(mine / "notes.txt")]) == 2


def test_a_failed_run_leaves_the_earlier_export_and_no_staging(
    tmp_path: Path, two_files: list[Path]
) -> None:
    out = tmp_path / "phh"
    assert main(["export", str(two_files[1]), "-o", str(out), "-q"]) == 0
    before = sorted(p.name for p in out.iterdir())

    def failing() -> object:
        for i, item in enumerate(iter_hands(two_files)):
            if i == 5:
                raise KeyboardInterrupt
            yield item

    with pytest.raises(KeyboardInterrupt):
        export_phh(failing(), out)  # type: ignore[arg-type]
    assert sorted(p.name for p in out.iterdir()) == before
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
    fresh = tmp_path / "fresh"
    with pytest.raises(KeyboardInterrupt):
        export_phh(failing(), fresh)  # type: ignore[arg-type]
    assert not fresh.exists()


def test_a_killed_run_leaves_nothing_that_looks_complete(
    tmp_path: Path, two_files: list[Path]
) -> None:
    """A run killed (SIGKILL) while it writes: no OUT at all, only a hidden staging folder,
    which the next export into OUT removes."""
    out = tmp_path / "phh"
    script = (
        "import sys, os, signal\n"
        "import histkit.phh.export as ex\n"
        "from histkit.reader import iter_hands\n"
        "real = ex._write\n"
        "n = [0]\n"
        "def write(path, text):\n"
        "    real(path, text)\n"
        "    n[0] += 1\n"
        "    if n[0] == 7:\n"
        "        os.kill(os.getpid(), signal.SIGKILL)\n"
        "ex._write = write\n"
        f"ex.export_phh(iter_hands([{str(two_files[0])!r}]), {str(out)!r})\n"
    )
    proc = subprocess.run([sys.executable, "-c", script], check=False)
    assert proc.returncode == -9
    assert not out.exists()
    staged = [p for p in tmp_path.iterdir() if p.name.startswith(".phh.histkit-staging-")]
    assert len(staged) == 1 and len(list(staged[0].iterdir())) == 7
    assert main(["export", str(two_files[0]), "-o", str(out), "-q"]) == 0
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]
    assert len(list(out.glob("*.phh"))) == 12


def test_bad_input_is_listed_not_written(
    tmp_path: Path, two_files: list[Path], capsys: pytest.CaptureFixture[str]
) -> None:
    broken = two_files[0].parent / "broken.txt"
    text = two_files[0].read_text("utf-8").split("\n\n\n")
    broken.write_text(text[0].replace("posts the ante", "posts ze ante", 1), encoding="utf-8")
    out = tmp_path / "phh"
    assert main(["export", str(broken), str(two_files[1]), "-o", str(out), "--strict"]) == 1
    said = capsys.readouterr().out
    assert "Wrote 8 hands" in said and "Not written: 1 hand or file:" in said
    assert f"{broken}:" in said
    assert os.path.isdir(out)
