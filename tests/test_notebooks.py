"""The notebooks run top to bottom (nbclient, the venv's python3 kernel).

They read `HISTKIT_DATA` (default ../sample_data). When sample_data/ has no hands yet,
a small simulated session (all three games, a few planted payout faults) is written to
a temporary folder instead, so the notebooks are always exercised.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from .conftest import ROOT, SAMPLE_DATA

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if SAMPLE_DATA.is_dir() and any(SAMPLE_DATA.rglob("*.txt")):
        return SAMPLE_DATA
    from histkit.simulate import write_session

    d = tmp_path_factory.mktemp("session")
    write_session(d / "hilo.txt", "stud_hilo", 150, seed=11, faults=0.1, tables=2)
    write_session(d / "razz.txt", "razz", 60, seed=12)
    write_session(d / "stud.txt", "stud", 60, seed=13, tournament=True)
    return d


def test_the_notebooks_exist() -> None:
    names = [p.stem for p in NOTEBOOKS]
    assert names == [
        "01-session-review",
        "02-payout-audit",
        "03-explore-tables",
        "04-hand-database",
        "05-python-api",
    ]


#: a cell that draws: it must show the figure (an image/png output, the inline backend)
_PLOTS = re.compile(r"plt\.show\(\)|\.plot\b|\bplots\.\w+\(")
#: what a reader should never see in an output: numpy's reprs of numbers (np.int64(850)),
#: and absolute or temporary paths (they differ on every run and every machine)
_NUMPY_REPR = re.compile(r"\bnp\.(?:u?int|float|bool_?|str_)\d*\(")
_MACHINE_PATHS = re.compile(r"(?<![\w.:/$])/(?:[\w.-]+/)+[\w.-]+|\b[A-Z]:\\|\btmp[a-z0-9_]{8}\b")


def _text(output: dict) -> str:
    if output.get("output_type") == "stream":
        return str(output.get("text", ""))
    data = output.get("data", {})
    return "\n".join(str(data.get(k, "")) for k in ("text/plain", "text/html"))


def output_problems(nb: object, *, paths: bool = True) -> list[str]:
    """What a reader of the notebook's outputs would trip on: an error, a plotting cell
    without its figure, numpy reprs, temporary or checkout paths (`paths`)."""
    problems = []
    for i, cell in enumerate(c for c in nb.cells if c.cell_type == "code"):  # type: ignore[attr-defined]
        outputs = cell.get("outputs", [])
        if any(o.get("output_type") == "error" for o in outputs):
            problems.append(f"code cell {i}: an error")
        if _PLOTS.search(cell.source) and not any(
            "image/png" in o.get("data", {}) for o in outputs
        ):
            problems.append(f"code cell {i} draws but shows no figure")
        for o in outputs:
            text = _text(o)
            if m := _NUMPY_REPR.search(text):
                problems.append(f"code cell {i} shows a numpy repr: {m.group(0)}")
            if paths and (m := _MACHINE_PATHS.search(text)):
                problems.append(f"code cell {i} shows a path of this machine: {m.group(0)}")
    return problems


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs(path: Path, data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Run as a reader runs them (the inline backend: every figure is shown)."""
    monkeypatch.setenv("HISTKIT_DATA", str(data_dir))
    monkeypatch.delenv("MPLBACKEND", raising=False)
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        nb,
        kernel_name="python3",
        timeout=300,
        resources={"metadata": {"path": str(path.parent)}},
    )
    client.execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert output_problems(nb, paths=False) == []
    # Every notebook shows something: tables, figures or printed findings.
    assert any(o.get("output_type") in ("display_data", "execute_result") for o in outputs)
    assert os.environ["HISTKIT_DATA"] == str(data_dir)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebooks_are_committed_with_their_outputs(path: Path) -> None:
    """A reader on a web page sees the figures and tables without running anything: every
    code cell was run, in order; every cell that draws shows its figure; no output shows
    numpy reprs or paths of the machine that ran it. (Refresh them from notebooks/, with
    no MPLBACKEND set: jupyter nbconvert --to notebook --execute --inplace *.ipynb)"""
    nb = nbformat.read(path, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    counts = [c.get("execution_count") for c in code]
    assert all(isinstance(n, int) for n in counts), f"{path.name}: cells not run: {counts}"
    assert counts == sorted(counts), f"{path.name}: run out of order: {counts}"
    assert output_problems(nb) == []
    outputs = [o for c in code for o in c.get("outputs", [])]
    shown = [o for o in outputs if o.get("output_type") in ("display_data", "execute_result")]
    assert any("image/png" in o.get("data", {}) or "text/html" in o.get("data", {}) for o in shown)


def test_the_output_check_catches_what_it_should() -> None:
    """A drawing cell without its image, a numpy repr and a temporary path are caught."""
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell("fig, ax = plt.subplots()\nplt.show()", execution_count=1),
        nbformat.v4.new_code_cell("print(d)", execution_count=2),
    ]
    nb.cells[1].outputs = [
        nbformat.v4.new_output("stream", text="{'razz': np.int64(200)} in /tmp/tmpab12cd34/x\n")
    ]
    problems = output_problems(nb)
    assert any("shows no figure" in p for p in problems)
    assert any("np.int64(" in p for p in problems) and any("path" in p for p in problems)
    nb.cells[0].outputs = [
        nbformat.v4.new_output("display_data", data={"image/png": "iVBOR", "text/plain": "<Fig>"})
    ]
    nb.cells[1].outputs = []
    assert output_problems(nb) == []
