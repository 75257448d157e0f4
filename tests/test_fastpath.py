"""The fast path (line matcher) against the LALR parser, its reference.

Differential: real hands, simulated hands of every game and form, and thousands of broken
variants of them parse to identical results (the same `Hand`s, the same `ParseIssue`s)
with the matcher on and off. The matcher must also really carry the load: a test that
passed because every hand fell back to Lark would prove nothing, so the share of hands it
builds itself is checked too. Plus the pieces: the literal filters are sound, the fast
event constructors build equal objects, the chunked reader reads what the line-by-line
reader reads.
"""

from __future__ import annotations

import dataclasses
import io
import pickle
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from histkit import model
from histkit.dialects.base import Dialect, HandError
from histkit.dialects.builder import LineReader
from histkit.dialects.fastpath import LineMatcher, constructor, line_local, literals
from histkit.dialects.pokerstars import PokerStars
from histkit.dialects.pokerstars_writer import write_hands
from histkit.model import Hand
from histkit.reader import ParseIssue
from histkit.reading import decode, split
from histkit.reading.decode import UnreadableFile, decode_lines
from histkit.reading.split import file_blocks, file_lines, text_blocks
from tests.conftest import SAMPLE_DATA, corpus_files, needs_corpus
from tests.dialects.synthetic import hilo_2008, holdem_hand, razz_tournament, stud_hand

FAST = PokerStars(fast=True)
LALR = PokerStars(fast=False)


class Counting:
    """Counts the hands the matcher builds itself and the ones it leaves to Lark."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.built = self.left = 0
        real = LineReader.read_fast

        def spy(b: LineReader, matcher: LineMatcher, header: object) -> Hand | None:
            try:
                hand = real(b, matcher, header)  # type: ignore[arg-type]
            except HandError:
                hand = None
            if hand is None:
                self.left += 1
            else:
                self.built += 1
            return hand

        monkeypatch.setattr(LineReader, "read_fast", spy)


def both(text: str, source: str = "t.txt") -> list[Hand | ParseIssue]:
    """Parse both ways; they must agree exactly."""
    fast = list(FAST.parse(text, source))
    lalr = list(LALR.parse(text, source))
    assert fast == lalr
    return fast


def test_switches() -> None:
    assert FAST.uses_fast_path and not LALR.uses_fast_path
    assert FAST.matcher is PokerStars().matcher  # one matcher per grammar, shared


@needs_corpus
def test_real_corpus_both_ways(monkeypatch: pytest.MonkeyPatch) -> None:
    count = Counting(monkeypatch)
    hands = 0
    for f in corpus_files():
        with open(f, "rb") as a, open(f, "rb") as b:
            fast = list(FAST.parse(file_lines(a), str(f)))
            lalr = list(LALR.parse(file_lines(b), str(f)))
        assert fast == lalr, f
        hands += sum(isinstance(h, Hand) for h in fast)
    assert hands == 86
    assert (count.built, count.left) == (86, 0)  # the matcher reads every real stud hand


def simulated_text() -> str:
    """About 2,000 simulated hands: three games, cash and tournaments, 2 to 8 players,
    a few sample_data sessions (hero views, faults) when present."""
    from histkit.simulate import simulate

    parts = []
    for i, (game, players, tournament) in enumerate(
        [
            ("stud_hilo", 8, False),
            ("stud", 2, False),
            ("razz", 5, True),
            ("stud", 7, True),
            ("razz", 3, False),
            ("stud_hilo", 4, True),
        ]
    ):
        hands = simulate(game, 120, players=players, seed=40 + i, tournament=tournament)
        parts.append(write_hands(hands))
    for f in sorted(SAMPLE_DATA.glob("*.txt")):
        parts.append(f.read_text(encoding="utf-8"))
    return "".join(parts)


@pytest.fixture(scope="module")
def simulated() -> str:
    return simulated_text()


@pytest.mark.slow
def test_simulated_hands_both_ways(simulated: str, monkeypatch: pytest.MonkeyPatch) -> None:
    count = Counting(monkeypatch)
    items = both(simulated, "sim.txt")
    hands = [h for h in items if isinstance(h, Hand)]
    assert len(hands) >= 700 and {h.game for h in hands} == set(model.Game)
    assert {h.unit for h in hands} == set(model.Unit)
    assert count.built == len(hands) and count.left == 0


# ------------------------------------------------------------------ broken variants


def _blocks(text: str) -> list[list[str]]:
    return [b.strip("\n").split("\n") for b in text.split("\n\n") if b.strip()]


def mutants(hand: list[str], rng: random.Random, n: int) -> Iterator[str]:
    """Broken copies of one hand: lines dropped, doubled, swapped, cut, changed."""
    for _ in range(n):
        lines = list(hand)
        i = rng.randrange(1, len(lines))
        how = rng.randrange(9)
        if how == 0:
            del lines[i]
        elif how == 1:
            lines.insert(i, lines[i])
        elif how == 2 and i + 1 < len(lines):
            lines[i], lines[i + 1] = lines[i + 1], lines[i]
        elif how == 3:
            lines = lines[:i]
        elif how == 4:
            lines[i] = lines[i][: rng.randrange(len(lines[i]) + 1)]
        elif how == 5:
            lines.insert(i, lines[rng.randrange(len(lines))])
        elif how == 6:
            lines[i] = lines[i].replace("$", "", 1).replace("0", "9", 1)
        elif how == 7:
            words = lines[i].split(" ")
            words[0] = words[0] + "X"
            lines[i] = " ".join(words)
        else:
            lines[i] = lines[i] + rng.choice([" x", ".", "  ", ": folds", " [Ah]", "\u00a0"])
        yield "\n".join(lines) + "\n"


@pytest.mark.slow
def test_broken_hands_give_the_same_issues(simulated: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """~2,500 broken variants of synthetic, simulated (and real, when present) hands: the
    same result both ways, and the matcher hands every rejection to Lark (which words
    the issue) while still building the variants that are valid hands."""
    rng = random.Random(6)
    sources = [stud_hand(), hilo_2008(), razz_tournament(), stud_hand(pc="a: b")]
    blocks = [b for s in sources for b in _blocks(s)]
    sim = _blocks(simulated)
    blocks += rng.sample(sim, 60)
    for f in corpus_files()[:12]:
        blocks += [b for b in _blocks(f.read_text(encoding="utf-8-sig")) if "Stud" in b[0]]
    count = Counting(monkeypatch)
    broken = built = 0
    for block in blocks:
        for text in mutants(block, rng, 25):
            items = both(text)
            # rejected, or read without a line it could not read (`recover.py`)
            broken += any(
                isinstance(i, ParseIssue)
                and i.kind == "rejected"
                or isinstance(i, Hand)
                and i.gaps()
                for i in items
            )
            built += any(isinstance(i, Hand) and not i.gaps() for i in items)
    assert broken > 800 and built > 200  # both kinds of outcome are well covered
    assert count.built == built  # every valid variant the fast way, no hand built twice


def test_bad_input_cases_both_ways() -> None:
    text = stud_hand("1")
    cases = [
        text.replace("*** 4th STREET ***\n", ""),
        text.replace("Alice: raises", "Alicia: raises"),
        text.replace("$0.05", "5", 1),
        text + "Seat 9: Nobody folded on the 3rd Street\n",
        text.split("*** SUMMARY ***")[0],
        text.replace("*** SUMMARY ***", "*** SUMMARY ***\n*** SUMMARY ***"),
        text.replace("Dealt to Bob [Qh]", "Dealt to Bob [Qh] [2c]"),
        stud_hand("2") + "\n" + holdem_hand() + "\n" + "junk\n\n" + stud_hand("3"),
        text.replace("Table 'Synthetic I' 8-max", "Table 'Synthetic I' 8-max\nSeat 1: x"),
    ]
    for case in cases:
        items = both(case)
        broken = [i for i in items if isinstance(i, ParseIssue) or i.gaps()]
        assert items and broken, case


# ------------------------------------------------------------------------- pieces


def test_literal_filters_are_sound(simulated: str) -> None:
    """A line a terminal matches starts with its prefix and contains its anchor, for every
    line of the simulated (and real) hands and every terminal."""
    regex = FAST.compiled.line_regex
    found = {name: literals(rx) for name, rx in regex.items()}
    assert found["CALL"] == (None, ": calls ") and found["SEAT"][0] == "Seat "
    assert found["HEADER"] == (None, None)  # case-insensitive: no literal filters
    lines = {line for b in _blocks(simulated) for line in b}
    for f in corpus_files():
        lines |= set(f.read_text(encoding="utf-8-sig").splitlines())
    matched = 0
    for line in lines:
        for name, rx in regex.items():
            if rx.match(line + "\n"):
                matched += 1
                prefix, anchor = found[name]
                assert prefix is None or line.startswith(prefix), (name, line)
                assert anchor is None or anchor in line, (name, line)
    assert matched >= len(lines) * 0.9


def test_literals_of_odd_patterns() -> None:
    import re

    assert literals(re.compile(r"ab(?:cd|ef)gh\n")) == ("ab", "ab")
    assert literals(re.compile(r"(?P<x>[^\n]+): says (?P<y>\d+)\n")) == (None, ": says ")
    assert literals(re.compile(r"x?abc")) == (None, "abc")
    assert literals(re.compile(r"(?i:Seat) (\d+) in chips")) == (None, " in chips")
    assert literals(re.compile(r"Seat", re.IGNORECASE)) == (None, None)


def test_fast_constructors_build_equal_objects() -> None:
    probe = {
        int: 7,
        str: "Bob",
        bool: True,
    }
    classes: tuple[type[Any], ...] = (
        model.Action,
        model.Deal,
        model.StreetStart,
        model.Seat,
        model.SeatResult,
        model.Show,
        model.Muck,
        model.Collect,
        model.TableNote,
        model.UncalledBet,
    )
    for cls in classes:
        for twin in (True, False):
            make = constructor(cls, twin=twin)
            assert make is not cls
            args = [probe.get(type(f.default), f.name) for f in dataclasses.fields(cls)]
            made, ref = make(*args), cls(*args)
            assert type(made) is cls and made == ref and hash(made) == hash(ref)
            assert repr(made) == repr(ref) and pickle.loads(pickle.dumps(made)) == ref
            with pytest.raises(dataclasses.FrozenInstanceError):
                made.line = 3

    @dataclasses.dataclass(frozen=True, slots=True)
    class Checked:
        x: int

        def __post_init__(self) -> None:
            if self.x < 0:
                raise ValueError

    assert constructor(Checked) is Checked  # its own __init__ keeps the check

    # defaults are the dataclass's (a field added to the model later needs no change here)
    for twin in (True, False):
        make = constructor(model.Hand, twin=twin)
        h = make("s", "1", model.Game.RAZZ, 2, 4, model.Unit.CHIP, None, None, "t", None, (), (),
                 None, model.SourceRef("f", 1))  # fmt: skip
        assert h == model.Hand("s", "1", model.Game.RAZZ, 2, 4, model.Unit.CHIP, None, None, "t",
                               None, (), (), None, model.SourceRef("f", 1))  # fmt: skip
        assert h.hero is None and h.tournament_id is None and type(h) is model.Hand


def test_line_local_terminals() -> None:
    """The matcher reads lines on their own: only terminals that cannot see past their
    line qualify (every PokerStars terminal does)."""
    import re

    assert all(line_local(rx) for rx in FAST.compiled.line_regex.values())
    for pattern, ok in [
        (r"a[^\n]+b *\n", True),
        (r"(?i:Seat \d+)\n", True),
        (r"(?!x\d)[^(\n]+\n", True),
        (r"a\s+b\n", False),  # \s can take the line break
        (r"a\n\n", False),  # two lines
        (r"(?s:.)\n", False),
        (r"(?=[^x]*y)a\n", False),  # a lookahead into the next line
        (r"(?<=x)a\n", False),
        (r"^a\n", False),
        (r"a", False),  # not a whole line
    ]:
        assert line_local(re.compile(pattern)) is ok, pattern


def _slow_lines(d: Dialect, data: bytes) -> list[str]:
    """The reference: the line-by-line decoder over the whole file."""
    out: list[str] = []
    try:
        out.extend(decode_lines(data, 0))
    except UnreadableFile as e:
        out.append(f"<unreadable {e.line}: {e}>")
    return out


def _chunked_lines(d: Dialect, data: bytes) -> list[str]:
    out: list[str] = []
    try:
        out.extend(file_lines(io.BytesIO(data)))
    except UnreadableFile as e:
        out.append(f"<unreadable {e.line}: {e}>")
    return out


@pytest.mark.parametrize("chunk", [1, 7, 64, 1 << 20])
def test_chunked_reader_reads_like_line_by_line(
    chunk: int, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(decode, "_READ_CHUNK", chunk)
    text = stud_hand() + "\n\n" + hilo_2008()
    datas = [
        text.encode(),
        text.encode()[:-1],  # no final line end
        text.replace("\n", "\r\n").encode(),
        text.replace("\n", "\r").encode(),
        text.replace("Bob", "Bjørn").encode("cp1252"),
        text.replace("Bob", "Bjørn").encode(),
        "\ufeff".encode() + text.encode(),
        text.encode() + b"\x00\x01binary" + text.encode(),
        b"\x00" * 300,
        b"x" * 500 + b"\n" + text.encode(),
        b"",
        b"\n\n\n",
        text.encode()[:-1] + b"\r\r\n\x81\n",
        text.replace("\n", "\r\n", 3).encode(),  # mixed CRLF and LF
        text.replace("\n", "\r\r\n", 2).encode(),  # a doubled CR: line by line
        text.replace("\n", " \r\n").encode(),  # blanks before the CR
    ]
    for data in datas:
        assert _chunked_lines(FAST, data) == _slow_lines(FAST, data), data[:40]


def test_binary_tail_reported_at_its_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(decode, "_READ_CHUNK", 16)
    data = b"a\nb\nc\n" + b"\x00" * 100
    lines = _chunked_lines(FAST, data)
    assert lines[:3] == ["a", "b", "c"] and lines[3].startswith("<unreadable 4:")


@pytest.mark.slow
def test_regex_baselines_add_up(tmp_path: Path) -> None:
    """The benchmark's yardsticks do the arithmetic they claim: chips in minus chips
    returned is what was collected plus the rake, and both scans agree."""
    from benchmarks.naive_regex import scan, scan_tuned
    from histkit.simulate import simulate

    simulated = write_hands(simulate("stud_hilo", 150, players=7, seed=3))
    simulated += write_hands(simulate("razz", 100, players=4, seed=4, tournament=True))
    path = tmp_path / "sim.txt"
    path.write_text(simulated, encoding="utf-8")
    naive, tuned = scan(path), scan_tuned(path)
    assert naive == tuned
    assert naive["hands"] == simulated.count("PokerStars Hand #")
    assert naive["put_in"] - naive["returned"] == naive["collected"] + naive["rake"] > 0


def _blocks_or_error(make: Any) -> list[object]:
    out: list[object] = []
    try:
        out.extend(make())
    except UnreadableFile as e:
        out.append(f"<unreadable {e.line}: {e}>")
    return out


@pytest.mark.parametrize("chunk", [16, 100, 1000, 1 << 20])
def test_file_blocks_cuts_like_blocks_of_lines(chunk: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """The chunked splitter gives the blocks (and line numbers, and errors) of the line by
    line one, on random mixes of hands, blank and blank-looking lines, headers without a
    blank line before them, BOMs, junk, CR line ends and binary tails."""
    monkeypatch.setattr(decode, "_READ_CHUNK", chunk)
    rng = random.Random(chunk)
    hands = [stud_hand("7"), hilo_2008(), razz_tournament(), holdem_hand()]
    pieces = [
        "",
        " ",
        "\t \u00a0",
        "\u2028",
        "\ufeff",
        "junk line",
        "PokerStars is great",
        "\ufeffPokerStars Hand #1: not a header",
    ]
    for _ in range(40):
        lines: list[str] = []
        for _ in range(rng.randrange(1, 8)):
            if rng.random() < 0.3:  # a hand right after the previous line, no blank line
                lines += rng.choice(hands).rstrip("\n").split("\n")
            elif rng.random() < 0.6:
                lines += rng.choice(hands).split("\n")
            else:
                lines += rng.choices(pieces, k=rng.randrange(1, 4))
        text = "\n".join(lines) + rng.choice(["", "\n", "\n\n"])
        data = text.encode()
        variants = [data, data.replace(b"\n", b"\r\n"), data + b"\x00tail"]
        if rng.random() < 0.3:
            variants.append(text.encode("cp1252", errors="replace"))
        for raw in variants:
            fast = _blocks_or_error(lambda raw=raw: file_blocks(io.BytesIO(raw), FAST))
            slow = _blocks_or_error(lambda raw=raw: text_blocks(file_lines(io.BytesIO(raw)), FAST))
            assert fast == slow


def test_file_blocks_hands_over_whole_blocks(monkeypatch: pytest.MonkeyPatch) -> None:
    """In a file of hands and blank lines, only the edges go line by line."""
    text = "\n\n\n".join(stud_hand(str(i)) for i in range(1, 30)) + "\n"
    one_by_one = 0
    real = split.Splitter.lines

    def counting(self: Any, lines: Any) -> Iterator[split.HandBlock]:
        nonlocal one_by_one
        lines = list(lines)
        one_by_one += len(lines)
        return real(self, lines)

    monkeypatch.setattr(split.Splitter, "lines", counting)
    blocks = list(file_blocks(io.BytesIO(text.encode()), FAST))
    second = (stud_hand("1") + "\n\n\n").count("\n") + 1
    assert len(blocks) == 29 and [b.start_line for b in blocks[:2]] == [1, second]
    assert one_by_one < 3 * len(blocks[0].lines)  # the first block, a blank, the last block
    assert blocks == list(text_blocks(text, FAST))
