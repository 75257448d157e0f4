"""Shared fixtures: the real PokerStars corpus lives beside the project in ../shared/hands."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "hands"
POKERSTARS = CORPUS / "pokerstars"
SAMPLE_DATA = ROOT / "sample_data"


def corpus_files() -> list[Path]:
    """Every real PokerStars file, or [] when ../shared is absent."""
    return sorted(p for p in POKERSTARS.rglob("*.txt")) if POKERSTARS.is_dir() else []


@pytest.fixture
def corpus_dir() -> Path:
    if not POKERSTARS.is_dir():
        pytest.skip("../shared/hands/pokerstars is absent (fresh clone without the shared corpus)")
    return POKERSTARS


needs_corpus = pytest.mark.skipif(
    not POKERSTARS.is_dir(),
    reason="../shared/hands/pokerstars is absent (fresh clone without the shared corpus)",
)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Tests that record a `summary` property (the PokerKit differential's counts) have it
    printed at the end of the run, also under pytest-xdist (properties travel with the
    reports to the controlling process)."""
    lines = []
    for reports in terminalreporter.stats.values():
        for rep in reports:
            for name, value in getattr(rep, "user_properties", ()):
                if name == "summary" and getattr(rep, "when", "") == "call":
                    lines.append(str(value))
    if lines:
        terminalreporter.section("recorded summaries")
        for text in lines:
            terminalreporter.write_line(text)


@pytest.fixture(autouse=True)
def _log_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tracebacks of internal errors (exit status 3) go to a folder of the test run's,
    never the user's log folder."""
    monkeypatch.setenv("HISTKIT_LOG_DIR", str(tmp_path_factory.getbasetemp() / "logs"))
