"""Seeded fuzzing: one random mutation of a real or simulated file never costs the hands it
did not touch, and no command answers it with a traceback.

Each case mutates the lines of one hand (line deletion, duplication, swaps, byte flips and
insertions of NUL and control bytes, truncation, huge and malformed amounts, odd cards) and
checks: reading does not raise; every hand outside the damaged one and its two neighbours
(a deleted first line merges a hand into the one before it) parses to the same `Hand` and
replays to the same violations as in the unmutated file, line numbers apart; every issue the
mutation adds lies in that stretch; every hand is accounted for once (hands read + skipped +
rejected = the hand starts in the mutated input); and `histkit parse` / `histkit audit`
exit 0, 1 or 2. The run is bounded (about a minute on a 2-core machine) by the number of
cases. The accounting alone is also checked over mutations of every real file.
"""

from __future__ import annotations

import contextlib
import dataclasses
import io
import os
import random
import re
from pathlib import Path
from typing import Any

import pytest

from histkit.cli import main
from histkit.dialects import detector
from histkit.model import Hand
from histkit.reader import ParseIssue, iter_hands
from histkit.reading.split import file_lines
from histkit.rules import replay

SHARED = Path(__file__).resolve().parents[2] / "shared" / "hands"

# simulated files: (site, game, hands); small, so each case reads fast
SIMULATED = [
    ("pokerstars", "stud_hilo", 40),
    ("fulltilt", "razz", 30),
    ("partypoker", "stud", 30),
    ("winamax", "stud_hilo", 30),
    ("ipoker", "stud_hilo", 30),
    ("merge", "stud", 30),
]
CASES = int(os.environ.get("HISTKIT_FUZZ_CASES", "400"))  # ~40 s with the CLI runs below
SEED = int(os.environ.get("HISTKIT_FUZZ_SEED", "20261201"))  # another seed explores further
CLI_EVERY = 8  # one in this many cases also runs the commands
ACCOUNTING_CASES = int(os.environ.get("HISTKIT_FUZZ_ACCOUNTING", "12"))  # per real file


@pytest.fixture(scope="module")
def originals(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """The files to mutate: simulated ones of several sites, and a few real ones."""
    folder = tmp_path_factory.mktemp("fuzz-originals")
    files = []
    for i, (site, game, hands) in enumerate(SIMULATED):
        ext = "xml" if site in ("ipoker", "merge") else "txt"
        out = folder / f"{site}-{game}.{ext}"
        args = ["simulate", "--site", site, "--game", game, "--hands", str(hands)]
        args += ["--seed", str(100 + i), "--players", "5", "-o", str(out), "-q"]
        assert _quiet(args) == 0
        files.append(out)
    files.extend(_real_files())
    return files


def _real_files() -> list[Path]:
    """One small real file of each site folder (sorted, so the same ones every run)."""
    if not SHARED.is_dir():
        return []
    picked = []
    for site in sorted(p for p in SHARED.iterdir() if p.is_dir()):
        found = sorted(
            (f for f in site.rglob("*") if f.suffix.lower() in (".txt", ".xml") and f.is_file()),
            key=lambda f: (f.stat().st_size, str(f)),
        )
        sized = [f for f in found if 2_000 <= f.stat().st_size <= 60_000]
        if sized:
            picked.append(sized[len(sized) // 2])
    return picked


def _quiet(args: list[str]) -> int:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            return main(args)
        except SystemExit as e:  # argparse's usage errors
            return int(e.code or 0)


# --- comparing hands, line numbers apart ---------------------------------------------------


def _relative(obj: Any, base: int) -> Any:
    """obj with every `line` field made relative to `base` and file names dropped."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        changes = {}
        for f in dataclasses.fields(obj):
            value = getattr(obj, f.name)
            if f.name == "line" and isinstance(value, int):
                changes[f.name] = value - base if value else 0
            elif f.name in ("file", "source_file"):
                changes[f.name] = ""
            else:
                new = _relative(value, base)
                if new is not value:
                    changes[f.name] = new
        return dataclasses.replace(obj, **changes) if changes else obj
    if isinstance(obj, tuple):
        items = tuple(_relative(x, base) for x in obj)
        return items if any(a is not b for a, b in zip(items, obj, strict=True)) else obj
    return obj


def _read(path: Path) -> tuple[list[Hand], list[ParseIssue]]:
    hands, issues = [], []
    for item in iter_hands([path]):
        (hands if isinstance(item, Hand) else issues).append(item)
    return hands, issues


def _key(hand: Hand) -> str:
    return f"{hand.site}:{hand.hand_id}"


def _signature(hand: Hand) -> tuple[Any, Any]:
    base = hand.source.line
    violations = tuple(_relative(v, base) for v in replay(hand).violations)
    return _relative(hand, base), violations


# --- every hand accounted for ---------------------------------------------------------------

_XML_HAND = re.compile(r"<game[\s/>]")  # iPoker's and Merge's hand element


def _hand_starts(path: Path) -> list[str]:
    """The lines where a hand starts in a file, found apart from the reader's splitting: a
    line of text that starts like any site's hand header, or each opening of an XML hand
    element (the same line once per opening)."""
    with path.open("rb") as f:
        lines = [str(x) for x in file_lines(f)]
    if lines:
        lines[0] = lines[0].removeprefix("\ufeff")
    if any(x.strip() for x in lines) and next(x for x in lines if x.strip()).lstrip().startswith(
        "<"
    ):
        return [x for x in lines for _ in _XML_HAND.finditer(x)]
    prefixes = detector().prefixes
    return [x for x in lines if x.startswith(prefixes)]


def _accounting(path: Path, hands: list[Hand], issues: list[ParseIssue]) -> str | None:
    """What is wrong with the accounting of a file's hands, if anything: each hand start
    is one hand read, or one skipped or rejected issue about a hand (not text between
    hands); a hand id both read and in an issue is two starts of that id."""
    starts = _hand_starts(path)
    about = [i for i in issues if i.kind in ("skipped", "rejected") and i.about_hand]
    if len(hands) + len(about) != len(starts):
        return (
            f"{len(starts)} hand starts, {len(hands)} hands read and {len(about)} skipped or "
            f"rejected: {[(i.line, i.hand_id, i.reason[:60]) for i in issues][:4]}"
        )
    read = {h.hand_id for h in hands}
    twice = {i.hand_id for i in about if i.hand_id in read}
    once = [x for x in twice if sum(x in s for s in starts) < 2]
    return f"hands both read and rejected: {once[:3]}" if once else None


# --- mutations ---------------------------------------------------------------------------

_AMOUNT = re.compile(r"(?<![\w.])(\d[\d,]*(?:\.\d+)?)(?![\w])")
_CARD = re.compile(r"\b([2-9TJQKA][cdhs])\b")
_BYTES = [b"\x00", b"\x05", b"\x1b", b"\x7f", b"\xff", b"\t", b"\r", b"\x00\x00\x00", b"\xc3"]


def _mutate(lines: list[bytes], rng: random.Random) -> tuple[list[bytes], str]:
    """One mutation of these lines (one hand's), and its name."""
    kind = rng.choice(
        ["delete", "duplicate", "swap", "flip", "insert", "truncate", "huge", "malformed", "card"]
    )
    out = list(lines)
    i = rng.randrange(len(out))
    if kind == "delete":
        del out[i]
    elif kind == "duplicate":
        out.insert(i, out[i])
    elif kind == "swap" and len(out) > 1:
        j = rng.randrange(len(out))
        out[i], out[j] = out[j], out[i]
    elif kind == "flip" and out[i].strip():
        line = bytearray(out[i])
        at = rng.randrange(len(line.rstrip(b"\r\n")) or 1)
        line[at] = rng.randrange(256)
        out[i] = bytes(line)
    elif kind == "insert":
        at = rng.randrange(len(out[i]) or 1)
        out[i] = out[i][:at] + rng.choice(_BYTES) + out[i][at:]
    elif kind == "truncate":
        at = rng.randrange(len(out[i]) or 1)
        out[i : len(out)] = [out[i][:at]]
    elif kind in ("huge", "malformed", "card"):
        text = out[i].decode("utf-8", "surrogateescape")
        pattern = _CARD if kind == "card" else _AMOUNT
        found = list(pattern.finditer(text))
        if found:
            m = rng.choice(found)
            new = {
                "huge": "99999999999999999999",
                "malformed": rng.choice(["1.2.3", "1,,0", "-5", "0x10", "1e9", ""]),
                "card": rng.choice(["Xx", "1h", "Ahh", "As", "Zz", "??"]),
            }[kind]
            text = text[: m.start(1)] + new + text[m.end(1) :]
            out[i] = text.encode("utf-8", "surrogateescape")
    return out, kind


def _file_lines(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines(keepends=True)


@pytest.mark.slow
def test_one_mutation_never_costs_the_untouched_hands(
    originals: list[Path], tmp_path: Path
) -> None:
    rng = random.Random(SEED)
    known: dict[Path, tuple[list[Hand], list[ParseIssue]]] = {}
    failures: list[str] = []
    for case in range(CASES):
        path = rng.choice(originals)
        if path not in known:
            known[path] = _read(path)
        hands, issues = known[path]
        if len(hands) < 4:
            continue
        k = rng.randrange(1, len(hands) - 1)
        lines = _file_lines(path)
        starts = [h.source.line for h in hands]
        first, end = starts[k] - 1, starts[k + 1] - 1  # 0-based: hand k's lines
        if path.suffix == ".xml" and first >= end:
            continue
        mutated, kind = _mutate(lines[first:end], rng)
        delta = len(mutated) - (end - first)
        target = tmp_path / f"case{case}{path.suffix}"
        target.write_bytes(b"".join(lines[:first] + mutated + lines[end:]))
        where = f"case {case}: {kind} in hand {hands[k].hand_id} of {path.name}"

        try:
            got_hands, got_issues = _read(target)
        except Exception as e:  # noqa: BLE001 - the property: reading never raises
            failures.append(f"{where}: reading raised {e!r}")
            continue
        if (wrong := _accounting(target, got_hands, got_issues)) is not None:
            failures.append(f"{where}: {wrong}")
        touched = {_key(h) for h in hands[k - 1 : k + 2]}
        by_key: dict[str, list[Hand]] = {}
        for h in got_hands:
            by_key.setdefault(_key(h), []).append(h)
        lost, changed = [], []
        for h in hands:
            key = _key(h)
            if key in touched:
                continue
            got = by_key.get(key, [])
            if len(got) != 1:
                lost.append(h.hand_id)
            elif _signature(got[0]) != _signature(h):
                changed.append(h.hand_id)
        if lost or changed:
            failures.append(
                f"{where}: {len(lost)} hands lost {lost[:3]}, {len(changed)} "
                f"read differently {changed[:3]}"
            )
        # the issues the mutation adds lie in the damaged stretch (hand k and neighbours)
        low = starts[k - 1]
        high = (starts[k + 2] if k + 2 < len(starts) else 10**9) + max(delta, 0)
        before = {(i.kind, i.reason) for i in issues}
        for i in got_issues:
            if (i.kind, i.reason) in before:
                continue
            if i.line is None or not low <= i.line <= high:
                failures.append(f"{where}: issue far from the damage: {i.line} {i.reason}")
        if case % CLI_EVERY == 0:
            for args in (
                ["audit", str(target), "-q", "--format", "json", "-o", str(tmp_path / "a.json")],
                ["parse", str(target), "-q", "-o", str(tmp_path / f"out{case}"), "--audit"],
            ):
                try:
                    code = _quiet(args)
                except Exception as e:  # noqa: BLE001 - the property: no traceback
                    failures.append(f"{where}: {args[0]} raised {e!r}")
                    continue
                if code not in (0, 1, 2):
                    failures.append(f"{where}: {args[0]} exit {code}")
    assert not failures, "\n".join(failures[:40])


def _every_real_file() -> list[Path]:
    if not SHARED.is_dir():
        return []
    return sorted(f for f in SHARED.rglob("*") if f.is_file() and f.name != "README.md")


@pytest.mark.slow
@pytest.mark.skipif(not SHARED.is_dir(), reason="the real hand histories (../shared) are absent")
def test_every_hand_is_accounted_for_once(tmp_path: Path) -> None:
    """Over every real file as it is and seeded mutations of each: hands read + skipped +
    rejected = hand starts in the input, each hand in exactly one (a damaged line that
    glues two hands' lines, an XML break in a start tag or outside any hand, a Merge
    element that breaks after its hand was read: each lost a hand, or counted one twice
    or a non-hand as a rejected hand)."""
    rng = random.Random(SEED + 28)
    failures: list[str] = []
    for path in _every_real_file():
        hands, issues = _read(path)
        if (wrong := _accounting(path, hands, issues)) is not None:
            failures.append(f"{path.name} as it is: {wrong}")
        lines = _file_lines(path)
        for case in range(ACCOUNTING_CASES):
            first = rng.randrange(len(lines))
            end = min(len(lines), first + rng.randrange(1, 40))
            mutated, kind = _mutate(lines[first:end], rng)
            target = tmp_path / f"{path.stem}-{case}{path.suffix}"
            target.write_bytes(b"".join(lines[:first] + mutated + lines[end:]))
            try:
                got = _read(target)
            except Exception as e:  # noqa: BLE001 - the property: reading never raises
                failures.append(f"{target.name}: {kind} at line {first + 1}: raised {e!r}")
                continue
            if (wrong := _accounting(target, *got)) is not None:
                failures.append(f"{target.name}: {kind} at line {first + 1}: {wrong}")
            target.unlink()
    assert not failures, "\n".join(failures[:40])
