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


# ------------------------------------------------------------------ across hands (item 8)


def _session(tournament: bool) -> list[str]:
    """A simulated session at one table, each hand's text."""
    hands = simulate("stud", 12, players=5, seed=7, tournament=tournament)
    return [write_hand(h) for h in hands]


def _damaged(texts: list[str], n: int, i: int, how: str) -> str:
    """The session with line `i` of hand `n` deleted, written twice, or swapped with the
    next line."""
    lines = texts[n].split("\n")
    if how == "delete":
        lines = lines[:i] + lines[i + 1 :]
    elif how == "duplicate":
        lines = lines[: i + 1] + lines[i:]
    else:
        lines = [*lines[:i], lines[i + 1], lines[i], *lines[i + 2 :]]
    return "\n\n\n".join([*texts[:n], "\n".join(lines), *texts[n + 1 :]])


@pytest.mark.parametrize("tournament", [False, True], ids=["cash", "tournament"])
def test_a_damaged_hand_leaves_its_neighbours_clean(tournament: bool) -> None:
    """Every line of a hand deleted, written twice or swapped with the next: the next hand
    at the table starts off stacks the damaged record got wrong, and its stack errors
    follow from that hand (`caused_by_hand`), as a finding inside a hand follows from its
    root: no other hand has a problem of its own."""
    from histkit.audit import audit

    texts = _session(tournament)
    ids = [h.hand_id for h in parse_text("\n\n\n".join(texts)) if isinstance(h, Hand)]
    assert len(ids) == 12
    n = 5
    linked = {"delete": 0, "duplicate": 0, "swap": 0}
    for how in linked:
        for i in range(1, len(texts[n].split("\n")) - 1):
            report = audit(parse_text(_damaged(texts, n, i, how)))
            for v in report.errors:
                where = (how, i, v.message)
                if v.hand_id == ids[n + 1]:
                    assert v.code is Code.STACK_CONTINUITY and v.caused_by_hand == ids[n], where
                    assert not v.is_root and ids[n] in v.message and "damaged" in v.message
                else:
                    assert v.hand_id == ids[n], where  # the damaged hand itself
            linked[how] += any(v.caused_by_hand for v in report.errors)
            assert not any(v.is_root for v in report.errors if v.hand_id != ids[n])
    # a line left out or written twice moves chips often enough to be seen
    assert linked["delete"] >= 5 and linked["duplicate"] >= 1, linked


def test_the_audit_says_a_neighbours_stack_errors_follow_from_the_damaged_hand(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    texts = _session(False)
    lines = texts[2].split("\n")
    ante = next(i for i, line in enumerate(lines) if ": posts the ante" in line)
    path = tmp_path / "damaged.txt"
    path.write_text(_damaged(texts, 2, ante, "delete"), encoding="utf-8")
    ids = [h.hand_id for h in parse_text(path.read_text(encoding="utf-8")) if isinstance(h, Hand)]

    assert main(["audit", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"Hand #{ids[3]}" in out and ": 0 problems, 1 follow-on finding" in out
    assert "  -> [error] STACK_CONTINUITY" in out
    assert f"It follows from hand {ids[2]}, whose record is damaged (ANTE at line" in out
    verdict = out.splitlines()[-1]
    assert "1 problem and 3 follow-on findings" in verdict
    assert "1 of them in the next hand, off a damaged hand's stacks (ANTE 1)" in verdict

    assert main(["audit", str(path), "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    (across,) = [v for v in report["violations"] if v["caused_by_hand"] is not None]
    assert (across["hand_id"], across["caused_by_hand"]) == (ids[3], ids[2])
    assert "STACK_CONTINUITY" not in report["by_code"]
    assert report["follow_on_by_code"]["STACK_CONTINUITY"] == 1
    assert main(["audit", str(path), "--format", "csv"]) == 1
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [r["caused_by_hand"] for r in rows if r["hand_id"] == ids[3]] == [ids[2]]
