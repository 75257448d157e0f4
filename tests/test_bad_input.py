"""Bad input never raises and never costs a good hand: each problem becomes a ParseIssue
with the file, line and a reason, and parsing goes on. All texts here are made up."""

from __future__ import annotations

from pathlib import Path

from histkit.model import Hand, NoteKind
from histkit.reader import ParseIssue, iter_hands, parse_text, strictly
from tests.dialects.synthetic import hilo_2008, holdem_hand, razz_tournament, stud_hand


def kinds(items: list[Hand | ParseIssue]) -> list[str]:
    return [it.hand_id if isinstance(it, Hand) else f"{it.kind}:{it.hand_id}" for it in items]


def write(tmp_path: Path, name: str, data: bytes) -> Path:
    p = tmp_path / name
    p.write_bytes(data)
    return p


def test_other_game_is_skipped_between_stud_hands() -> None:
    text = stud_hand("1") + "\n\n" + holdem_hand("2") + "\n\n\n" + stud_hand("3")
    items = parse_text(text, source="mixed.txt")
    assert kinds(items) == ["1", "skipped:2", "3"]
    skipped = items[1]
    assert isinstance(skipped, ParseIssue)
    assert skipped.game == "Hold'em No Limit" and skipped.line == 48  # after 2 blank lines
    assert "Hold'em No Limit" in skipped.reason and skipped.source_file == "mixed.txt"


def cut_short(item: object) -> bool:
    """A hand read as far as its text goes (`NoteKind.CUT`)."""
    return isinstance(item, Hand) and [g.kind for g in item.gaps()] == [NoteKind.CUT]


def test_truncated_last_hand_keeps_the_earlier_ones() -> None:
    cut = stud_hand("2").split("\n")[:30]  # stops in the middle of 6th street
    items = parse_text(stud_hand("1") + "\n" + "\n".join(cut) + "\n")
    # read as far as it goes (its end noted, `NoteKind.CUT`); a strict reading rejects it
    assert kinds(items) == ["1", "2"] and cut_short(items[1])
    items = list(strictly(items))
    assert kinds(items) == ["1", "rejected:2"]
    issue = items[1]
    assert isinstance(issue, ParseIssue)
    assert "ends early" in issue.reason and "truncated" in issue.reason
    assert issue.line == 47 + 30 - 1  # the last line of the cut hand
    assert "'*** SUMMARY ***'" in issue.reason


def test_hand_cut_mid_line_is_rejected_with_its_line() -> None:
    text = stud_hand("1") + "\n" + stud_hand("2")[:900]
    items = parse_text(text)
    # read as far as it goes: the cut line not understood, then the end noted
    hand = items[1]
    assert kinds(items) == ["1", "2"] and isinstance(hand, Hand)
    assert [g.kind for g in hand.gaps()] == [NoteKind.UNREAD, NoteKind.CUT]
    assert "truncated" in (hand.gaps()[1].reason or "")
    items = list(strictly(items))
    assert kinds(items) == ["1", "rejected:2"]
    issue = items[1]
    assert isinstance(issue, ParseIssue) and "'Alice: che'" in issue.reason
    assert issue.line == len(text.rstrip("\n").split("\n"))


def test_garbage_between_hands_is_reported_once_per_run() -> None:
    junk = "some notes the user pasted\nmore notes\n\nand a third paragraph\n"
    text = stud_hand("1") + "\n" + junk + "\n" + stud_hand("3") + "\n" + "trailing junk\n"
    items = parse_text(text, source="j.txt")
    assert kinds(items) == ["1", "rejected:None", "3", "rejected:None"]
    first, last = items[1], items[3]
    assert isinstance(first, ParseIssue) and isinstance(last, ParseIssue)
    assert first.line == 47 and "lines 47-50" in first.reason
    assert "'some notes the user pasted'" in first.reason
    assert last.line == 98 and "line 98" in last.reason


def test_rejected_hand_in_the_middle_keeps_neighbours() -> None:
    bad = stud_hand("2").replace(
        "Alice: bets $0.20\nPC [Mittel]: calls", "Alice: bets $0.20\nPC [Mittel]: ponders"
    )
    items = parse_text(stud_hand("1") + "\n" + bad + "\n" + stud_hand("3"), source="m.txt")
    assert kinds(items) == ["1", "2", "3"]  # read without the line
    items = list(strictly(items))
    assert kinds(items) == ["1", "rejected:2", "3"]
    issue = items[1]
    assert isinstance(issue, ParseIssue)
    assert (issue.source_file, issue.line) == ("m.txt", 47 + 22 - 1)
    assert "PC [Mittel]: ponders" in issue.reason and "a call ('P: calls X')" in issue.reason


def test_unknown_header_is_rejected_not_dropped() -> None:
    text = "PokerStars Hand #55: something new - 2030/01/01 ET\nTable 'x'\n"
    (issue,) = parse_text(text)
    assert isinstance(issue, ParseIssue)
    assert (issue.kind, issue.hand_id, issue.line) == ("rejected", "55", 1)
    assert "header not understood" in issue.reason


def test_hands_without_blank_line_between_them() -> None:
    items = parse_text(stud_hand("1") + stud_hand("2") + razz_tournament("3"))
    assert kinds(items) == ["1", "2", "3"]
    assert [h.source.line for h in items if isinstance(h, Hand)] == [1, 46, 91]


def test_empty_and_blank_files(tmp_path: Path) -> None:
    empty = write(tmp_path, "a_empty.txt", b"")
    blank = write(tmp_path, "b_blank.txt", b"\r\n  \r\n\t\n")
    items = list(iter_hands([empty, blank]))
    assert [(i.source_file, i.kind) for i in items if isinstance(i, ParseIssue)] == [
        (str(empty), "unknown"),  # a file with no hands: no site's, not a rejected hand
        (str(blank), "unknown"),
    ]
    assert all(isinstance(i, ParseIssue) and "empty file" in i.reason for i in items)


def test_binary_file_is_reported_and_the_next_file_still_read(tmp_path: Path) -> None:
    binary = write(tmp_path, "a.txt", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    good = write(tmp_path, "b.txt", stud_hand("9").encode())
    items = list(iter_hands([tmp_path]))
    assert len(items) == 2
    issue, hand = items
    assert isinstance(issue, ParseIssue) and isinstance(hand, Hand)
    # binary is a property of the file (its signature), not of a line: no line, no hand
    assert issue.source_file == str(binary) and issue.kind == "unreadable"
    assert "a PNG image" in issue.reason and issue.line is None
    assert hand.hand_id == "9" and hand.source.file == str(good)


def test_unreadable_path_is_an_issue(tmp_path: Path) -> None:
    missing = tmp_path / "nope.txt"
    items = list(iter_hands([missing, write(tmp_path, "ok.txt", stud_hand("5").encode())]))
    assert isinstance(items[0], ParseIssue) and "cannot read file" in items[0].reason
    assert items[0].source_file == str(missing)
    assert isinstance(items[1], Hand)


def test_utf16_with_bom(tmp_path: Path) -> None:
    text = stud_hand("1", alice="Zoë") + "\r\n" + hilo_2008("2")
    for enc in ("utf-16", "utf-16-le", "utf-16-be"):
        data = text.replace("\n", "\r\n").encode(enc)
        if enc != "utf-16":
            data = ("\ufeff").encode(enc) + data
        items = list(iter_hands([write(tmp_path, f"{enc}.txt", data)]))
        assert kinds(items) == ["1", "2"], enc
        assert isinstance(items[0], Hand) and items[0].seats[0].player == "Zoë"


def test_utf8_bom_and_cp1252_names(tmp_path: Path) -> None:
    text = stud_hand("1", alice="Jörg Müller", bob="Ça€va")
    bom = write(tmp_path, "bom.txt", b"\xef\xbb\xbf" + text.encode("utf-8"))
    legacy = write(tmp_path, "cp.txt", text.encode("cp1252"))
    a, b = list(iter_hands([bom, legacy]))
    assert isinstance(a, Hand) and isinstance(b, Hand)
    assert [s.player for s in a.seats] == [s.player for s in b.seats]
    assert b.seats[0].player == "Jörg Müller" and b.seats[2].player == "Ça€va"
    assert a.events == b.events


def test_crlf_lf_and_cr_give_the_same_hands(tmp_path: Path) -> None:
    text = stud_hand("1") + "\n\n" + razz_tournament("2")
    files = [
        write(tmp_path, "lf.txt", text.encode()),
        write(tmp_path, "crlf.txt", text.replace("\n", "\r\n").encode()),
        write(tmp_path, "cr.txt", text.replace("\n", "\r").encode()),
    ]
    runs = [[h for h in iter_hands([f]) if isinstance(h, Hand)] for f in files]
    assert [len(r) for r in runs] == [2, 2, 2]
    for r in runs[1:]:
        assert [(h.events, h.seats, h.summary) for h in r] == [
            (h.events, h.seats, h.summary) for h in runs[0]
        ]


def test_bom_inside_concatenated_files() -> None:
    text = stud_hand("1") + "\n\ufeff" + stud_hand("2")
    assert kinds(parse_text(text)) == ["1", "2"]


def test_binary_tail_keeps_the_hands_before_it(tmp_path: Path) -> None:
    # a run of control bytes is binary data, where reading stops (a stray byte or two in
    # a line is a damaged line instead: tests/test_robust_reading.py)
    tail = b"\x00" * 64 + b"\x01garbage\xff\n"
    data = stud_hand("1").encode() + b"\n" + tail + stud_hand("2").encode()
    items = list(iter_hands([write(tmp_path, "tail.txt", data)]))
    assert kinds(items) == ["1", "unreadable:None"]
    issue = items[1]
    assert isinstance(issue, ParseIssue) and issue.line == 47
    assert "binary data" in issue.reason and "line 47" in issue.reason


def test_huge_junk_file_is_one_issue(tmp_path: Path) -> None:
    junk = "".join(f"log line {i}\n\n" for i in range(5000)).encode()
    (issue,) = list(iter_hands([write(tmp_path, "log.txt", junk)]))
    assert isinstance(issue, ParseIssue)
    assert issue.kind == "unknown" and issue.line == 1
    assert "not a hand history of a known site" in issue.reason and "'log line 0'" in issue.reason
