"""No hand is lost for one line (issue 24): in every real stud hand of a text site, deleting,
duplicating or garbling any one line after the seat list leaves the hand read, under its
own id, either whole or without that line (`Hand.gaps`, the audit's LINE_NOT_UNDERSTOOD or
LINE_MISSING). The header and the seat list are the hand's frame: a hand whose frame cannot
be read is rejected, as before.

Each mutated hand is read alone through the reader API; every line of every hand is tried
(about 40,000 readings), so the test is marked slow.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from histkit.model import Hand
from histkit.reader import parse_text
from histkit.reading.split import file_lines
from histkit.rules import replay
from histkit.rules.violations import Code

SHARED = Path(__file__).resolve().parents[2] / "shared" / "hands"
XML_SITES = ("ipoker", "merge")  # elements, not lines: read by their own readers

pytestmark = pytest.mark.skipif(not SHARED.is_dir(), reason="../shared/hands not present")


def _hands() -> Iterator[tuple[str, Hand, list[str]]]:
    """(file, hand, the hand's lines) for every stud hand of the text sites."""
    for path in sorted(SHARED.rglob("*")):
        if not path.is_file() or path.suffix.lower() != ".txt":
            continue
        if path.relative_to(SHARED).parts[0] in XML_SITES:
            continue
        with open(path, "rb") as f:  # as the reader decodes it (a UTF-16 file's stray byte)
            lines = [line.rstrip("\r\n") for line in file_lines(f)]
        text = "\n".join(lines) + "\n"
        hands = [h for h in parse_text(text, source=str(path)) if isinstance(h, Hand)]
        starts = [h.source.line - 1 for h in hands] + [len(lines)]
        for h, a, b in zip(hands, starts, starts[1:], strict=False):
            block = lines[a:b]
            while block and not block[-1].strip():
                block.pop()
            yield str(path), h, block


def _mutations(block: list[str], i: int) -> Iterator[tuple[str, list[str]]]:
    line = block[i]
    # a file written with a blank line after each line (Full Tilt's UTF-16 files) loses
    # the line with its blank: two blank lines in a row end a hand
    spaced = 0 < i < len(block) - 1 and not block[i - 1].strip() and not block[i + 1].strip()
    yield "deleted", block[:i] + block[i + 1 + spaced :]
    yield "duplicated", block[: i + 1] + block[i:]
    half = len(line) // 2
    yield "garbled", [*block[:i], line[:half] + "~#~" + line[half:], *block[i + 1 :]]


@pytest.mark.slow
def test_no_real_hand_is_lost_for_one_line() -> None:
    lost: list[str] = []
    tried = kept_whole = 0
    for where, hand, block in _hands():
        frame = max(s.line for s in hand.seats) - hand.source.line + 1
        for i in range(frame, len(block)):
            if not block[i].strip():
                continue
            for how, lines in _mutations(block, i):
                tried += 1
                text = "\n".join(lines) + "\n"
                got = parse_text(text, source=where, site=hand.dialect or hand.site)
                read = [h for h in got if isinstance(h, Hand) and h.hand_id == hand.hand_id]
                if len(read) != 1:
                    why = "; ".join(
                        getattr(x, "reason", "") for x in got if not isinstance(x, Hand)
                    )
                    lost.append(f"{where} hand {hand.hand_id}, line {i + 1} {how}: {why[:200]}")
                    continue
                kept_whole += not read[0].gaps()
    assert tried > 20_000  # every text site's hands were tried
    assert not lost, f"{len(lost)} of {tried} readings lost the hand:\n" + "\n".join(lost[:30])
    assert kept_whole < tried  # (most mutations leave a gap the hand is read without)


def test_the_audit_names_the_line_and_says_what_it_could_not_check() -> None:
    """A garbled action line: the hand is read without it, the audit names the line and
    its text, and the coverage says the hand was not checked in full."""
    where, hand, block = next(
        (w, h, b) for w, h, b in _hands() if h.site == "pokerstars" and len(b) > 30
    )
    i = next(k for k, line in enumerate(block) if ": calls " in line and k > len(hand.seats) + 2)
    lines = [*block[:i], block[i].replace(": calls ", ": callz "), *block[i + 1 :]]
    (read,) = parse_text("\n".join(lines) + "\n", source=where, site=hand.site)
    assert isinstance(read, Hand) and read.unread_lines == 1
    rp = replay(read)
    (finding,) = [v for v in rp.violations if v.code is Code.LINE_NOT_UNDERSTOOD]
    assert finding.line == i + 1 and ": callz " in (finding.reported or "")
    assert not rp.coverage.complete and rp.coverage.unread == 1
    assert any("not read" in what for what in rp.coverage.unchecked())
