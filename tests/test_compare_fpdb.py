"""`benchmarks/compare_fpdb.py`: histkit's per-hand statistics beside FPDB's. Without FPDB
it says so and exits 0; its pairing of the two sides' rows (hand ids, Bovada's names, the
hands both read alike) is checked here on rows made for the purpose; with FPDB installed
(`FPDB_DIR`, `FPDB_PYTHON`) the real comparison runs on ../shared/hands."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from benchmarks.compare_fpdb import (
    PAIRS,
    compare,
    first_difference,
    fpdb_found,
    hand_key,
    markdown,
    player_key,
)
from tests.conftest import ROOT

SCRIPT = ROOT / "benchmarks" / "compare_fpdb.py"
HANDS = ROOT.parent / "shared" / "hands"


def _run(env: dict[str, str], *args: str, timeout: int = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT), **env},
        timeout=timeout,
        check=False,
    )


def test_without_fpdb_it_says_so_and_exits_0(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "FPDB_DIR"}
    proc = subprocess.run(
        [sys.executable, str(SCRIPT)],
        capture_output=True,
        text=True,
        env={**env, "PYTHONPATH": str(ROOT)},
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "FPDB not available: FPDB_DIR is not set" in proc.stdout
    proc = _run({"FPDB_DIR": str(tmp_path)})
    assert proc.returncode == 0, proc.stderr
    assert "holds no fpdb_3_legacy/DerivedStats.py" in proc.stdout
    assert fpdb_found(None) and fpdb_found(str(tmp_path))


def test_hand_ids_and_names_as_fpdb_stores_them() -> None:
    assert hand_key("merge", "31423297-107") == "31423297107"
    assert hand_key("ongame", "R5-78227816-62") == "57822781662"
    assert hand_key("winamax", "8835086-564-1465760198") == "8835086564"
    assert hand_key("pokerstars", "35874004239") == "35874004239"
    assert player_key("bovada", "Seat+3", True) == "Hero"
    assert player_key("bovada", "Seat+5", False) == "Seat 5"
    assert player_key("pokerstars", "Seat+5", False) == "Seat+5"


def _hk(player: str, **flags: Any) -> dict[str, Any]:
    row: dict[str, Any] = {"site": "merge", "hand_id": "1-2", "player": player, "is_hero": False,
                           "source_file": "/h/merge.txt"}  # fmt: skip
    for p in PAIRS:
        row.setdefault(p.histkit_name, 0)
    row.update(flags)
    return row


def _fp(player: str, **flags: Any) -> dict[str, Any]:
    row: dict[str, Any] = {"site_name": "Merge", "site_hand_no": 12, "player_name": player,
                           "category": "studhi", "handId": 1, "file": "/h/merge.txt"}  # fmt: skip
    for p in PAIRS:
        for field in p.fpdb_name.split():
            row.setdefault(field, 0)
    for s in range(5):
        row.setdefault(f"street{s}Aggr", 0)
        row.setdefault(f"street{s}Calls", 0)
    row.update(flags)
    return row


def test_compare_counts_agreement_and_names_each_disagreement() -> None:
    hk = [_hk("A", vpip=True), _hk("B", vpip=True)]
    fp = [_fp("A", street0VPI=1), _fp("B", street0VPI=0)]
    acts = [(3, "A", "bring_in"), (3, "B", "complete"), (3, "A", "call")]
    fp_acts = {"1": [[0, "A", "bringin"], [0, "B", "bets"], [0, "A", "calls"]]}
    results, unpaired = compare(hk, fp, {("merge", "12"): acts}, fp_acts)
    vpip = next(r for r in results if r.pair.histkit_name == "vpip")
    assert (vpip.compared, vpip.agreeing) == (2, 1)
    assert vpip.disagreements == ((("merge", "12", "B"), True, False),)
    assert unpaired["hands_alike"] == 1 and not unpaired["histkit_only"]
    table = markdown(results)
    row = next(x for x in table if x.startswith("| VPIP |"))
    assert row.startswith("| VPIP | `vpip` | `street0VPI` | 2 | 1 | 1 / 0 |")
    assert next(x for x in table if "`complete_raise`" in x).endswith("| 2 | 2 |  |  |")


def test_hands_read_differently_are_not_compared() -> None:
    hk = [_hk("A", vpip=True), _hk("B")]
    fp = [_fp("A", street0VPI=0), _fp("B")]
    acts = [(3, "A", "bring_in"), (3, "B", "complete"), (3, "A", "call")]
    fp_acts = {"1": [[0, "A", "bringin"], [0, "B", "completes"], [3, "A", "calls"]]}
    results, unpaired = compare(hk, fp, {("merge", "12"): acts}, fp_acts)
    assert all(r.compared == 0 for r in results)
    assert unpaired["read_differently"] == {
        ("merge", "12"): "action 3: histkit (3, 'A', 'call'), FPDB (6, 'A', 'call')"
    }
    assert first_difference(acts, acts[:2]) == "histkit 3 actions, FPDB 2"


@pytest.mark.slow
def test_with_fpdb_the_mechanical_stats_agree(tmp_path: Path) -> None:
    """Runs only where FPDB is installed: VPIP, 3-bet and 4-bet, position, the actions
    counted by street, check-raise, and every done flag where both count the chance:
    every player-hand agrees."""
    why = fpdb_found(os.environ.get("FPDB_DIR"))
    if why:
        pytest.skip(f"FPDB not available: {why}")
    if not HANDS.is_dir():
        pytest.skip(f"{HANDS} is absent")
    out = tmp_path / "cmp.json"
    proc = _run({}, "--json", str(out), timeout=900)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    rows = json.loads(out.read_text())["stats"]
    stats = {s["histkit"]: s for s in rows if "both count" not in s["stat"]}
    assert stats["vpip"]["compared"] > 1000
    for name in ("vpip", "complete_raise", "three_bet", "aggr_4", "calls_7", "check_raise_5",
                 "four_bet", "fold_to_three_bet", "position"):  # fmt: skip
        if name in stats:  # (a histkit without that statistic skips it)
            assert stats[name]["agreeing"] == stats[name]["compared"], stats[name]
    # where both count the chance, what the player did agrees
    for s in rows:
        if "both count" in s["stat"]:
            assert s["agreeing"] == s["compared"], s
