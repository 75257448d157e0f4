"""The notebooks run top to bottom (nbclient, the venv's python3 kernel).

They read `HISTKIT_DATA` (default ../sample_data). When sample_data/ has no hands yet,
a small simulated session (all three games, a few planted payout faults) is written to
a temporary folder instead, so the notebooks are always exercised.
"""

from __future__ import annotations

import os
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
    ]


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs(path: Path, data_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HISTKIT_DATA", str(data_dir))
    monkeypatch.setenv("MPLBACKEND", "Agg")
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        nb,
        kernel_name="python3",
        timeout=300,
        resources={"metadata": {"path": str(path.parent)}},
    )
    client.execute()
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    # Every notebook shows something: tables, figures or printed findings.
    assert any(o.get("output_type") in ("display_data", "execute_result") for o in outputs)
    assert os.environ["HISTKIT_DATA"] == str(data_dir)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebooks_are_committed_with_their_outputs(path: Path) -> None:
    """A reader on a web page sees the figures and tables without running anything: every
    code cell was run, in order, and the notebook shows at least one figure or table.
    (Refresh them with: jupyter nbconvert --to notebook --execute --inplace notebooks/*.ipynb)"""
    nb = nbformat.read(path, as_version=4)
    code = [c for c in nb.cells if c.cell_type == "code"]
    counts = [c.get("execution_count") for c in code]
    assert all(isinstance(n, int) for n in counts), f"{path.name}: cells not run: {counts}"
    assert counts == sorted(counts), f"{path.name}: run out of order: {counts}"
    outputs = [o for c in code for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    shown = [o for o in outputs if o.get("output_type") in ("display_data", "execute_result")]
    assert any("image/png" in o.get("data", {}) or "text/html" in o.get("data", {}) for o in shown)
