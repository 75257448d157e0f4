"""Root causes (`rules/causes.py`): one fault in a record is one problem, its consequences
listed under it; the audit's text, JSON, CSV and tables say which finding follows from
which, and `by_code` counts the problems apart from their follow-on findings."""

from __future__ import annotations

import csv
import io
import json
import random
from pathlib import Path

import pytest

from histkit.cli import main
from histkit.dialects.pokerstars_writer import write_hand
from histkit.model import Hand
from histkit.reader import parse_text
from histkit.rules import Code, Severity, replay
from histkit.rules.causes import Causes
from histkit.simulate import simulate, simulate_with_faults


def _without_line(hand: Hand, keep: object) -> list[str]:
    lines = write_hand(hand).split("\n")
    return [line for i, line in enumerate(lines) if i != keep]


def _one_hand(lines: list[str]) -> Hand | None:
    got = [h for h in parse_text("\n".join(lines)) if isinstance(h, Hand)]
    return got[0] if got else None


def _missing_fold_hand() -> tuple[Hand, str]:
    """A simulated hand whose second fold line is left out (the player folded on 3rd
    street; the record now has them silently staying in), and that player."""
    for hand in simulate("stud_hilo", 40, players=6, seed=5):
        lines = write_hand(hand).split("\n")
        folds = [i for i, line in enumerate(lines) if line.rstrip().endswith(": folds")]
        if len(folds) >= 2:
            player = lines[folds[1]].split(": ")[0]
            got = _one_hand(_without_line(hand, folds[1]))
            assert got is not None
            return got, player
    raise AssertionError("no simulated hand with two folds")


def test_a_missing_fold_is_one_root_cause() -> None:
    hand, player = _missing_fold_hand()
    found = replay(hand).violations
    errors = [v for v in found if v.is_error]
    roots = [v for v in errors if v.caused_by is None]
    assert len(errors) > 5  # the player's turn comes round on every street
    assert len(roots) == 1
    (root,) = roots
    assert player in root.message
    # every other finding names the root by its place among the hand's findings
    assert [v.seq for v in found] == list(range(len(found)))
    assert all(v.caused_by == root.seq for v in errors if v is not root)
    # the player's later streets, the summary's "folded" line: all follow from it
    codes = {v.code for v in errors if v is not root}
    assert {Code.MISSING_ACTION, Code.SUMMARY_MISMATCH} <= codes


def test_any_one_action_line_left_out_is_one_problem() -> None:
    """Leave out one action line (an ante, bring-in, bet, raise, call, check or fold) of
    simulated hands of each game: whatever the engine then finds is one root cause and
    its consequences."""
    rng = random.Random(1)
    hands = [
        *simulate("stud_hilo", 60, players=6, seed=5),
        *simulate("razz", 40, players=5, seed=2),
        *simulate("stud", 40, players=7, seed=3),
    ]
    tried = faulty = 0
    for hand in hands:
        lines = write_hand(hand).split("\n")
        acts = [
            i
            for i, line in enumerate(lines)
            if i and ": " in line and not line.startswith(("Seat ", "***", "Total pot"))
            and line.split(": ", 1)[1].split(" ")[0]
            in ("posts", "brings", "bets", "raises", "calls", "checks", "folds")
        ]  # fmt: skip
        for i in rng.sample(acts, min(3, len(acts))):
            got = _one_hand(_without_line(hand, i))
            if got is None:
                continue
            tried += 1
            errors = [v for v in replay(got).violations if v.is_error]
            if errors:
                faulty += 1
                roots = [v for v in errors if v.caused_by is None]
                assert len(roots) == 1, (lines[i], [(v.code, v.message) for v in errors])
    assert tried > 300 and faulty > 250


def test_planted_payout_faults_stay_problems_of_their_own() -> None:
    """A payout fault is found alone: nothing in the betting leads to it."""
    from histkit.simulate import FAULT_KINDS

    kinds = tuple(k for k in FAULT_KINDS if k != "wrong_rake")  # caught with a rake ceiling
    n = 0
    for hand, fault in simulate_with_faults(
        "stud_hilo", 300, players=6, seed=3, faults=0.2, fault_kinds=kinds
    ):
        if fault is None:
            continue
        for v in replay(hand).violations:
            if v.is_error:
                assert v.caused_by is None, (fault, v)
                n += 1
    assert n >= 5


def test_an_info_record_is_never_a_root() -> None:
    c = Causes()
    assert c.link(0, Code.UNCHECKABLE_SHOWDOWN, Severity.INFO, None, (2,)) is None
    assert c.players == {}  # it registers nothing: a later finding about seat 2 is a root
    assert c.link(1, Code.MISSING_ACTION, Severity.ERROR, None, (2,)) is None
    # ... and what follows is linked: the same player, the same street's betting, the pot
    assert c.link(2, Code.MISSING_DEAL, Severity.WARNING, None, (2,)) == 1
    assert c.link(3, Code.CALL_AMOUNT, Severity.ERROR, None, (4,)) == 1
    assert c.link(4, Code.POT_TOTAL, Severity.ERROR, None, ()) == 1
    assert c.link(5, Code.CARD_DUPLICATE, Severity.ERROR, None, ()) is None


# ----------------------------------------------------------------------------- outputs


@pytest.fixture(scope="module")
def one_fold_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    hand, _ = _missing_fold_hand()
    path = tmp_path_factory.mktemp("causes") / "one_fold.txt"
    path.write_text(write_hand(hand), encoding="utf-8")
    return path


def test_the_text_groups_a_problem_with_its_follow_ons(
    one_fold_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["audit", str(one_fold_file)]) == 1
    out = capsys.readouterr().out
    n = len(
        [
            v
            for v in replay(_missing_fold_hand()[0]).violations
            if v.is_error and v.caused_by is not None
        ]
    )
    assert f": 1 problem, {n} follow-on findings" in out
    assert out.count("\n    -> [") == n  # each follow-on listed under its problem
    assert f"1 problem and {n} follow-on findings" in out.splitlines()[-1]


def test_json_and_csv_carry_the_links(
    one_fold_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["audit", str(one_fold_file), "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    vs = report["violations"]
    roots = [v for v in vs if v["caused_by"] is None]
    assert len(roots) == 1 and all(v["caused_by"] == roots[0]["seq"] for v in vs[1:])
    assert sum(report["by_code"].values()) == 1
    assert sum(report["follow_on_by_code"].values()) == len(vs) - 1
    assert main(["audit", str(one_fold_file), "--format", "csv"]) == 1
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [r["caused_by"] for r in rows].count("") == 1


def test_the_violations_table_and_a_stored_audit_keep_the_links(
    one_fold_file: Path, tmp_path: Path
) -> None:
    from histkit.audit import stored_report
    from histkit.warehouse import read_tables

    out = tmp_path / "out"
    assert main(["parse", str(one_fold_file), "-o", str(out), "--audit", "-q"]) == 0
    tables = read_tables(out)
    v = tables["violations"].to_pylist()
    assert [r["caused_by"] for r in v if r["severity"] != "info"].count(None) == 1
    report = stored_report(tables, source=str(out))
    assert report.by_code == {"OUT_OF_TURN": 1}
    assert sum(report.follow_on_by_code.values()) == sum(
        1 for r in v if r["caused_by"] is not None and r["severity"] != "info"
    )
