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
