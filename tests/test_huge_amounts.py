"""Issue 19 item 2: an amount too large for the tables is a rejected hand, never a crash.

Each case takes a simulated three-hand file of one site, writes one amount of its middle
hand as 99999999999999999999 (a seat's stack, a bet or raise, a collect, the stakes), and
checks that the hand is rejected at that amount's line with its hand id, that the other
hands read exactly as without the change, and that `parse` and `audit` end normally.
"""

from __future__ import annotations

import dataclasses
import re
import subprocess
import sys
from pathlib import Path

import pytest

from histkit.cli import main
from histkit.dialects.sink import MAX_AMOUNT, MAX_SEAT, HandSink
from histkit.model import ActionKind, Game, Hand, PotKind, SourceRef, Unit
from histkit.reader import ParseIssue, iter_hands, strictly
from histkit.simulate import write_session

HUGE = "99999999999999999999"

# site -> what starts each hand in its file (the mutation goes into the second one)
STARTS = {
    "pokerstars": "PokerStars Hand #",
    "fulltilt": "Full Tilt Poker Game #",
    "winamax": "Winamax Poker - ",
    "ipoker": "<session ",
    "merge": "<description ",
}

# (site, case) -> a pattern whose group 1 is the digits of the amount to replace
CASES = {
    ("pokerstars", "stack"): r"^Seat \d+: .* \(\$([\d.]+) in chips\)",
    ("pokerstars", "bet"): r": (?:bets|raises \$[\d.]+ to) \$([\d.]+)",
    ("pokerstars", "collect"): r" collected \$([\d.]+) from",
    ("pokerstars", "stakes"): r"Limit \(\$([\d.]+)/",
    ("fulltilt", "stack"): r"^Seat \d+: \S+ \(\$([\d.]+)\)$",
    ("fulltilt", "bet"): r" (?:bets|raises to) \$([\d.]+)$",
    ("fulltilt", "collect"): r" wins .*?\(\$([\d.]+)\)",
    ("fulltilt", "stakes"): r" - \$([\d.]+)/\$",
    ("winamax", "stack"): r"^Seat \d+: \S+ \(([\d.]+)€\)$",
    ("winamax", "bet"): r" (?:bets|raises [\d.]+€ to) ([\d.]+)€",
    ("winamax", "collect"): r" collected ([\d.]+)€",
    ("winamax", "stakes"): r"\([\d.]+€/([\d.]+)€/",
    ("ipoker", "stack"): r'chips="€([\d.]+)"',
    ("ipoker", "bet"): r'type="(?:5|23)" sum="€([\d.]+)"',
    ("ipoker", "collect"): r'win="€((?!0")[\d.]+)"',
    ("ipoker", "stakes"): r"<gametype>.* €([\d.]+)/",
    ("merge", "stack"): r'balance="\$([\d.]+)"',
    ("merge", "bet"): r'type="(?:BET|RAISE)"[^>]*amount="([\d.]+)"',
    ("merge", "collect"): r'<winner amount="([\d.]+)"',
    ("merge", "stakes"): r'stakes="Limit \$([\d.]+)/',
}


@pytest.fixture(scope="module")
def originals(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A three-hand cash file of each site, simulated once."""
    out = tmp_path_factory.mktemp("original")
    files = {}
    for site in STARTS:
        path = out / f"{site}.txt"
        write_session(path, "stud_hilo", 3, seed=1, site=site)
        files[site] = path
    return files


def _mutate(text: str, site: str, case: str) -> tuple[str, int]:
    """The text with one amount of the second hand replaced; the file line of it."""
    start = STARTS[site]
    begin = text.index(start, text.index(start) + 1)
    end = text.index(start, begin + 1)
    m = re.compile(CASES[site, case], re.M).search(text, begin, end)
    assert m is not None, f"no {case} amount in {site}'s second hand"
    line = text.count("\n", 0, m.start(1)) + 1
    return text[: m.start(1)] + HUGE + text[m.end(1) :], line


def _plain(items: list[Hand | ParseIssue]) -> list[Hand | ParseIssue]:
    """Hands and issues without the file name, to compare two files' readings."""
    return [
        dataclasses.replace(h, source=SourceRef("f", h.source.line))
        if isinstance(h, Hand)
        else dataclasses.replace(h, source_file="f")
        for h in items
    ]


@pytest.mark.parametrize(("site", "case"), sorted(CASES))
def test_huge_amount_rejects_its_hand(
    originals: dict[str, Path], tmp_path: Path, site: str, case: str
) -> None:
    original = originals[site]
    text = original.read_text(encoding="utf-8")
    before = list(iter_hands([original]))
    assert len(before) == 3 and all(isinstance(h, Hand) for h in before)

    mutated, line = _mutate(text, site, case)
    path = tmp_path / original.name
    path.write_text(mutated, encoding="utf-8")
    after = list(iter_hands([path]))

    assert len(after) == 3
    # a play line (a bet; a text site's collect) is left out and the hand read without it
    # (issue 24), a strict reading rejecting it there; a stack or the stakes is the hand's
    # frame, and an XML site's winner element is not a play element: rejected
    kept = case == "bet" or (case == "collect" and site not in ("ipoker", "merge"))
    if kept:
        hand = after[1]
        assert isinstance(hand, Hand) and hand.gaps(), hand
        after[1] = next(iter(strictly([hand])))
    issue = after[1]
    assert isinstance(issue, ParseIssue), issue
    assert issue.kind == "rejected"
    assert issue.hand_id == before[1].hand_id  # type: ignore[union-attr]
    assert issue.line == line
    assert HUGE in issue.reason and "too large" in issue.reason
    assert _plain([after[0], after[2]]) == _plain([before[0], before[2]])

    # the commands end normally: parse 0 (1 with --strict), audit 1 (a hand rejected, or
    # a line not read)
    assert main(["parse", str(path), "-o", str(tmp_path / "out"), "-q", "-j", "1"]) == 0
    out = str(tmp_path / "strict")
    assert main(["parse", str(path), "-o", out, "-q", "-j", "1", "--strict"]) == 1
    assert main(["audit", str(path), "-q", "-j", "1"]) == 1


@pytest.mark.slow
@pytest.mark.parametrize("site", ["pokerstars", "ipoker"])
def test_cli_no_traceback(originals: dict[str, Path], tmp_path: Path, site: str) -> None:
    mutated, line = _mutate(originals[site].read_text(encoding="utf-8"), site, "stack")
    path = tmp_path / f"{site}.txt"
    path.write_text(mutated, encoding="utf-8")
    run = [sys.executable, "-m", "histkit"]
    out = tmp_path / "out"
    for argv, code in (
        (["parse", str(path), "-o", str(out)], 0),
        (["parse", str(path), "-o", str(out), "--strict"], 1),
        (["audit", str(path)], 1),
    ):
        got = subprocess.run([*run, *argv], capture_output=True, text=True, timeout=120)
        assert "Traceback" not in got.stderr + got.stdout, got.stderr
        assert got.returncode == code, (argv, got.stdout, got.stderr)
        assert f"{path.name}:{line}" in got.stdout + got.stderr
        assert HUGE in got.stdout + got.stderr


def _stars(tmp_path: Path, **kw: object) -> tuple[Path, str]:
    path = tmp_path / "stars.txt"
    write_session(path, "stud_hilo", 3, seed=2, **kw)  # type: ignore[arg-type]
    return path, path.read_text(encoding="utf-8")


def _read_one(tmp_path: Path, text: str) -> list[Hand | ParseIssue]:
    path = tmp_path / "changed.txt"
    path.write_text(text, encoding="utf-8")
    return list(iter_hands([path]))


def test_tournament_chips(tmp_path: Path) -> None:
    """Chip amounts (a tournament) are bounded too: 10**15 chips read, one more not."""
    _, text = _stars(tmp_path, tournament=True)
    m = re.search(r"^Seat \d+: .* \((\d+) in chips", text, re.M)
    assert m is not None
    at_limit = text[: m.start(1)] + str(MAX_AMOUNT) + text[m.end(1) :]
    first = _read_one(tmp_path, at_limit)[0]
    assert isinstance(first, Hand) and first.seats[0].stack == MAX_AMOUNT
    over = text[: m.start(1)] + str(MAX_AMOUNT + 1) + text[m.end(1) :]
    got = _read_one(tmp_path, over)
    assert isinstance(got[0], ParseIssue) and "too large" in got[0].reason
    assert all(isinstance(h, Hand) for h in got[1:])


def test_leading_zeros_are_not_large(tmp_path: Path) -> None:
    _, text = _stars(tmp_path)
    changed = re.sub(r"\(\$([\d.]+) in chips", r"($000000000000000000\1 in chips", text, count=1)
    first = _read_one(tmp_path, changed)[0]
    assert isinstance(first, Hand)


@pytest.mark.parametrize(
    ("pattern", "value", "words"),
    [
        # an amount of more digits than int() converts (Python's 4,300-digit limit)
        (r"\(\$(\d+)\.\d+ in chips", "9" * 5000, "too large"),
        # seat numbers and seat counts go to int32 columns
        (r"^Seat (\d+):", "3000000000", "seat number"),
        (r"^Seat (\d+):", "9" * 5000, "line not understood"),
        (r"' (\d+)-max", "99999999999", "seats is out of range"),
        # a date out of the calendar
        (r" - \d{4}/(\d\d)/\d\d ", "13", "line not understood"),
    ],
)
def test_other_numbers_reject_their_hand(
    tmp_path: Path, pattern: str, value: str, words: str
) -> None:
    _, text = _stars(tmp_path)
    m = re.search(pattern, text, re.M)
    assert m is not None
    got = _read_one(tmp_path, text[: m.start(1)] + value + text[m.end(1) :])
    assert isinstance(got[0], ParseIssue), got[0]
    assert got[0].kind == "rejected" and words in got[0].reason
    assert got[0].line == text.count("\n", 0, m.start(1)) + 1
    assert all(isinstance(h, Hand) for h in got[1:])


def test_side_pot_number() -> None:
    sink = HandSink("pokerstars", "f", 1)
    sink.seat(1, "a", 100, False, 2)
    sink.collect("a", 10, PotKind.SIDE, MAX_SEAT, 3)
    with pytest.raises(ValueError, match="side pot number"):
        sink.collect("a", 10, PotKind.SIDE, 10**20, 4)


def test_many_amounts_cannot_overflow_the_tables(tmp_path: Path) -> None:
    """A hand of thousands of bets each under the bound: its sums would pass int64, so it
    is rejected at the line where they do; a long hand of small amounts is read."""
    _, text = _stars(tmp_path)
    lines = text.split("\n")
    at = next(i for i, x in enumerate(lines) if x.startswith("*** 4th STREET ***"))
    player = re.match(r"Seat \d+: (\S+) ", lines[2])
    assert player is not None
    big = f"{player[1]}: bets ${MAX_AMOUNT // 100:,}.00"
    many = [*lines[:at], *[big] * 10_000, *lines[at:]]
    got = _read_one(tmp_path, "\n".join(many))
    assert isinstance(got[0], ParseIssue) and "add up to more" in got[0].reason
    assert got[0].line is not None and at < got[0].line <= at + 10_000
    assert all(isinstance(h, Hand) for h in got[1:])

    small = [*lines[:at], *[f"{player[1]}: bets $0.01"] * 1_000, *lines[at:]]
    first = _read_one(tmp_path, "\n".join(small))[0]
    assert isinstance(first, Hand)
    assert sum(1 for a in first.actions() if a.kind is ActionKind.BET) >= 1_000


def test_sink_sum_check_direct() -> None:
    """The sink's own check, without any dialect: over the limit only with many facts."""
    sink = HandSink("pokerstars", "f", 1)
    sink.header(
        hand_id="1",
        game=Game.STUD,
        small_bet=2,
        big_bet=4,
        unit=Unit.CHIP,
        currency=None,
        started_at=None,
        local_time=None,
    )
    sink.seat(1, "a", MAX_AMOUNT, False, 2)
    for i in range(5_000):
        sink.action(ActionKind.BET, "a", MAX_AMOUNT, None, False, 3 + i)
    with pytest.raises(ValueError, match="add up to more"):
        sink.build()
