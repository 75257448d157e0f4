"""The reader: decoding, folder walking, input order, streaming, the parse_text API."""

from __future__ import annotations

import types
from collections.abc import Iterator
from pathlib import Path

import pytest

from histkit.dialects import get_dialect
from histkit.model import Hand
from histkit.reader import ParseIssue, iter_files, iter_hands, parse_text, read_file_text
from histkit.reading.decode import UnreadableFile, decode_bytes
from histkit.reading.split import text_blocks
from tests.dialects.synthetic import hilo_2008, razz_tournament, stud_hand


@pytest.mark.parametrize(
    "data,text",
    [
        (b"a\r\nb\r\n", "a\nb\n"),
        (b"\xef\xbb\xbfa\nb", "a\nb"),
        ("\ufeffé\r\n".encode("utf-16-le"), "é\n"),
        ("\ufeffé\r\n".encode("utf-16-be"), "é\n"),
        ("é€".encode("cp1252"), "é€"),
        ("é€".encode(), "é€"),
        (b"a\rb", "a\nb"),
    ],
)
def test_decode(data: bytes, text: str) -> None:
    assert decode_bytes(data) == text


@pytest.mark.parametrize("data", [b"abc\x00def", b"\x01\x02\x03", b"ok\x81\x8d"])
def test_decode_refuses_binary(data: bytes) -> None:
    with pytest.raises(UnreadableFile):
        decode_bytes(data)


def test_read_file_text(tmp_path: Path) -> None:
    p = tmp_path / "h.txt"
    p.write_bytes(b"\xef\xbb\xbfline one\r\nline two\r\n")
    assert read_file_text(p) == "line one\nline two\n"
    assert read_file_text(str(p)) == "line one\nline two\n"


def test_folders_are_walked_sorted_recursively_in_input_order(tmp_path: Path) -> None:
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "deep").mkdir(parents=True)
    (tmp_path / ".hidden").mkdir()
    (tmp_path / "b" / "2.txt").write_text(stud_hand("2"))
    (tmp_path / "a" / "deep" / "1.TXT").write_text(stud_hand("1"))
    (tmp_path / "a" / "deep" / "notes.md").write_text("# not a hand history\n")  # not *.txt
    (tmp_path / "a" / "0.txt").write_text(stud_hand("0"))
    (tmp_path / ".hidden" / "x.txt").write_text(stud_hand("99"))
    (tmp_path / ".DS_Store").write_bytes(b"\x00\x00\x00\x01Bud1")
    single = tmp_path / "single.log"  # a file named on its own is read whatever its name
    single.write_text(razz_tournament("7"))
    files = list(iter_files([single, tmp_path]))
    assert [f.relative_to(tmp_path).as_posix() for f in files] == [
        "single.log",
        "a/0.txt",
        "a/deep/1.TXT",
        "b/2.txt",
    ]
    ids = [h.hand_id for h in iter_hands([single, tmp_path]) if isinstance(h, Hand)]
    assert ids == ["7", "0", "1", "2"]
    assert not [i for i in iter_hands([tmp_path]) if not isinstance(i, Hand)]


def test_iter_hands_streams(tmp_path: Path) -> None:
    """The first hand arrives before the next path is even asked for."""
    first = tmp_path / "first.txt"
    first.write_text(stud_hand("1") + "\n" + stud_hand("2"))

    def paths() -> Iterator[Path]:
        yield first
        raise AssertionError("iter_hands read ahead")

    it = iter_hands(paths())
    assert isinstance(it, types.GeneratorType)
    a, b = next(it), next(it)
    assert isinstance(a, Hand) and isinstance(b, Hand) and (a.hand_id, b.hand_id) == ("1", "2")
    blocks = text_blocks(stud_hand("1"), get_dialect())
    assert isinstance(blocks, types.GeneratorType)


def test_parse_text_api() -> None:
    text = "\ufeff" + (hilo_2008("1") + "\n" + stud_hand("2")).replace("\n", "\r\n")
    items = parse_text(text, source="clip.txt")
    assert [type(i) for i in items] == [Hand, Hand]
    hand = items[0]
    assert isinstance(hand, Hand)
    assert hand.source.file == "clip.txt" and hand.source.line == 1
    assert items[1].source.line == 52  # type: ignore[union-attr]
    assert parse_text("", source="e") == [
        ParseIssue(
            "e", None, None, None, "rejected", "empty file: no hands in it", about_hand=False
        )
    ]


def test_dialect_can_be_passed_as_object() -> None:
    d = get_dialect("pokerstars")
    assert [type(i) for i in parse_text(stud_hand(), dialect=d)] == [Hand]
    with pytest.raises(ValueError):
        parse_text(stud_hand(), dialect="unknown-site")


def test_source_lines_are_file_lines(tmp_path: Path) -> None:
    p = tmp_path / "two.txt"
    p.write_bytes(("\n\n" + stud_hand("1") + "\n\n\n" + stud_hand("2")).encode())
    h1, h2 = iter_hands([p])
    assert isinstance(h1, Hand) and isinstance(h2, Hand)
    assert (h1.source.line, h2.source.line) == (3, 51)
    lines = p.read_text().split("\n")
    for h in (h1, h2):
        for s in h.seats:
            assert lines[s.line - 1].startswith(f"Seat {s.seat}: {s.player} (")
        for e in h.events:
            assert lines[e.line - 1].strip()
        assert h.summary is not None and lines[h.summary.line - 1] == "*** SUMMARY ***"
