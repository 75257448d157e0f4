"""Robust reading (issue 19, items 1 and 6): a stray byte that is not text costs its own
hand only, with its id and line, in one process or with --jobs; a binary file is one
unreadable file; so is a dangling link; a hand read more than once is audited once and
counted as a duplicate."""

from __future__ import annotations

import dataclasses
import json
import os
import random
from pathlib import Path

import pytest

from histkit import audit as hk_audit
from histkit import parallel
from histkit.audit import AuditReport, audit, audit_paths
from histkit.cli import main
from histkit.model import Hand
from histkit.reader import ParseIssue, iter_chunks, iter_hands, parse_chunk
from histkit.reading import decode
from histkit.reading.decode import binary_file
from histkit.rules.violations import Code, Severity
from histkit.simulate import write_session

HANDS = 500
DAMAGED = 10  # 0-based: the hand the stray byte goes into


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A simulated 500-hand PokerStars Stud Hi/Lo session (never real hands)."""
    path = tmp_path_factory.mktemp("robust") / "session.txt"
    write_session(path, "stud_hilo", HANDS, seed=19, players=6)
    return path


@pytest.fixture(scope="module")
def original(session: Path) -> list[Hand]:
    hands = [h for h in iter_hands([session]) if isinstance(h, Hand)]
    assert len(hands) == HANDS
    return hands


def _split(items: list[Hand | ParseIssue]) -> tuple[list[Hand], list[ParseIssue]]:
    hands = [i for i in items if isinstance(i, Hand)]
    return hands, [i for i in items if isinstance(i, ParseIssue)]


def _same_but_file(a: list[Hand], b: list[Hand]) -> bool:
    return [dataclasses.replace(h, source=h.source.__class__("", h.source.line)) for h in a] == [
        dataclasses.replace(h, source=h.source.__class__("", h.source.line)) for h in b
    ]


def _insert(session: Path, out: Path, original: list[Hand], offset: int, byte: bytes) -> int:
    """`byte` put into line `offset` of hand DAMAGED (inside the line, at its 8th column):
    the file line it went into."""
    lines = session.read_bytes().split(b"\n")
    no = original[DAMAGED].source.line + offset
    line = lines[no - 1]
    assert len(line) > 10
    lines[no - 1] = line[:7] + byte + line[7:]
    out.write_bytes(b"\n".join(lines))
    return no


@pytest.mark.parametrize("byte", [b"\x00", b"\x05", b"\x81"])
@pytest.mark.parametrize("offset", [0, 5])  # the header line, a seat line
def test_a_stray_byte_rejects_its_hand_only(
    session: Path, original: list[Hand], tmp_path: Path, byte: bytes, offset: int
) -> None:
    """Before: "unreadable file: binary data ... (line N)" and the 490 hands after it were
    gone. Now: its hand is rejected with its id, line and column, the others are read as
    in the undamaged file."""
    path = tmp_path / "damaged.txt"
    no = _insert(session, path, original, offset, byte)
    hands, issues = _split(list(iter_hands([path])))
    (issue,) = issues
    assert (issue.kind, issue.hand_id, issue.line, issue.column) == (
        "rejected",
        original[DAMAGED].hand_id,
        no,
        8,
    )
    what = "control byte" if byte != b"\x81" else "neither UTF-8 nor cp1252"
    assert f"0x{byte[0]:02x}" in issue.reason and what in issue.reason
    assert "binary data" in issue.reason and f"line {no}, column 8" in issue.reason
    assert len(hands) == HANDS - 1
    assert _same_but_file(hands, original[:DAMAGED] + original[DAMAGED + 1 :])


def test_the_audit_of_a_damaged_file(session: Path, original: list[Hand], tmp_path: Path) -> None:
    path = tmp_path / "damaged.txt"
    _insert(session, path, original, 3, b"\x00")
    whole, damaged = audit_paths([session]), audit_paths([path])
    assert (damaged.hands, len(damaged.rejected), damaged.unreadable) == (HANDS - 1, 1, ())
    assert damaged.rejected[0].hand_id == original[DAMAGED].hand_id
    lost = original[DAMAGED].hand_id
    # and the stacks across the rejected hand are not compared: no false alarm beside it;
    # the hand after it says why its stacks moved (one info record naming the line)
    said = [v for v in damaged.violations if v.hand_id == original[DAMAGED + 1].hand_id]
    new = [v for v in said if v not in whole.violations]
    assert [(v.code, v.severity) for v in new] == [(Code.STACK_CONTINUITY, Severity.INFO)]
    assert f"line {damaged.rejected[0].line}" in new[0].message
    assert tuple(v for v in damaged.violations if v not in new) == tuple(
        v for v in whole.violations if v.hand_id != lost
    )


@pytest.mark.parametrize("byte", [b"\x00", b"\x05"])
def test_byte_ranges_read_a_damaged_file_as_one_process(
    session: Path,
    original: list[Hand],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    byte: bytes,
) -> None:
    """--jobs: the file is cut at hand starts before the damage (small pieces, so there
    are cuts before it), and the rest is one range: the same hands and issues."""
    monkeypatch.setattr(decode, "_READ_CHUNK", 1 << 13)
    monkeypatch.setattr(parallel, "_SPAN_BYTES", 1 << 12)
    path = tmp_path / "damaged.txt"
    _insert(session, path, original, 4, byte)
    whole = list(iter_hands([path]))
    chunks = list(iter_chunks([path], span_bytes=1 << 12))
    assert len(chunks) > 2 and all(c.span is not None for c in chunks)
    assert [x for c in chunks for x in parse_chunk(c)] == whole
    one, two = audit_paths([path], jobs=1), audit_paths([path], jobs=2)
    assert one == two and one.hands == HANDS - 1 and len(one.rejected) == 1


# --- binary files ----------------------------------------------------------------------


def _random(n: int, seed: int = 7) -> bytes:
    return random.Random(seed).randbytes(n)


# (archives are read through: tests/test_review_inputs.py; a damaged one is below)
BINARIES = {
    "pdf": (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n" + _random(6000), "a PDF document"),
    "png": (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + _random(3000), "a PNG image"),
    "elf": (b"\x7fELF\x02\x01\x01" + bytes(9) + _random(3000), "an executable"),
    "random": (_random(10_000, 3), "binary data"),
}


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(BINARIES))
def test_a_binary_file_is_one_unreadable_file(
    name: str, session: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data, what = BINARIES[name]
    folder = tmp_path / "in"
    folder.mkdir()
    binary = folder / "a.txt"  # renamed .txt, as users do
    binary.write_bytes(data)
    (folder / "b.txt").write_bytes(session.read_bytes())
    hands, issues = _split(list(iter_hands([folder])))
    (issue,) = issues
    assert (issue.source_file, issue.kind, issue.hand_id, issue.line) == (
        str(binary),
        "unreadable",
        None,
        None,
    )
    assert what in issue.reason and "not a text hand history" in issue.reason
    assert len(hands) == HANDS
    for jobs in (1, 2):
        report = audit_paths([folder], jobs=jobs)
        assert (report.hands, report.rejected, len(report.unreadable)) == (HANDS, (), 1)
    assert main(["audit", str(folder), "-q"]) == 0
    out = capsys.readouterr().out
    assert f"Unreadable file {binary}: {what}" in out
    assert "1 file could not be read" in out and "rejected" not in out


def test_damaged_compressed_data_is_one_unreadable_file(session: Path, tmp_path: Path) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    broken = folder / "a.txt"  # gzip's magic, then noise
    broken.write_bytes(b"\x1f\x8b\x08\x00" + _random(3000))
    (folder / "b.txt").write_bytes(session.read_bytes())
    hands, issues = _split(list(iter_hands([folder])))
    (issue,) = issues
    assert (issue.source_file, issue.kind) == (str(broken), "unreadable")
    assert "compressed data" in issue.reason
    assert len(hands) == HANDS


def test_text_with_stray_bytes_is_not_a_binary_file(session: Path) -> None:
    head = session.read_bytes()[:4096]
    assert binary_file(head) is None
    assert binary_file(b"\x00" + head[:2000] + b"\x05\x00\x05" + head[2000:]) is None
    assert binary_file("\ufeffa hand".encode("utf-16")) is None
    assert binary_file(b"BZh is the start of a line\n") is None


def test_a_binary_stretch_keeps_the_hands_before_it_with_jobs(
    session: Path, original: list[Hand], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run of NULs (a zeroed tail, a blob appended) is binary data, not a damaged line:
    reading stops there, with the hands before it, in one process or in ranges."""
    monkeypatch.setattr(decode, "_READ_CHUNK", 1 << 13)
    data = session.read_bytes()
    at = data.index(b"PokerStars Hand #" + original[20].hand_id.encode())
    path = tmp_path / "zeroed.txt"
    path.write_bytes(data[:at] + b"\x00" * 5000 + data[at:])
    whole = list(iter_hands([path]))
    hands, issues = _split(whole)
    assert len(hands) == 20 and [i.kind for i in issues] == ["unreadable"]
    assert issues[0].line == original[20].source.line
    chunks = list(iter_chunks([path], span_bytes=1 << 12))
    assert len(chunks) > 1 and [x for c in chunks for x in parse_chunk(c)] == whole


# --- what still reads as before ----------------------------------------------------------


def test_nul_padding_still_reads(tmp_path: Path) -> None:
    """PartyPoker's padding (a NUL before the first line, NUL lines between hands) and one
    or two NULs at a line's edges are not damage: the same hands as without them."""
    plain = tmp_path / "plain.txt"
    write_session(plain, "stud", 30, seed=4, site="partypoker")
    lines = plain.read_bytes().split(b"\n")
    blank = [i for i, line in enumerate(lines) if not line.strip()]
    padded = list(lines)
    padded[0] = b"\x00" + padded[0]
    for i in blank[::3]:
        padded[i] = b"\x00"
    for i in blank[1::3]:
        padded[i] = b"\x00\x00"
    padded[5] = padded[5] + b"\x00\x00"
    path = tmp_path / "padded.txt"
    path.write_bytes(b"\n".join(padded))
    want = [h for h in iter_hands([plain]) if isinstance(h, Hand)]
    got = list(iter_hands([path]))
    assert len(want) == 30 and all(isinstance(h, Hand) for h in got)
    assert _same_but_file([h for h in got if isinstance(h, Hand)], want)


def test_utf16_still_reads(session: Path, original: list[Hand], tmp_path: Path) -> None:
    path = tmp_path / "utf16.txt"
    text = session.read_text(encoding="utf-8")
    path.write_bytes(text.replace("\n", "\r\n").encode("utf-16"))
    got = list(iter_hands([path]))
    assert all(isinstance(h, Hand) for h in got)
    assert _same_but_file([h for h in got if isinstance(h, Hand)], original)


def test_a_control_byte_in_text_between_hands_is_named(tmp_path: Path, session: Path) -> None:
    data = session.read_bytes()
    cut = data.index(b"PokerStars Hand #", 10)
    path = tmp_path / "junk.txt"
    path.write_bytes(data[:cut] + b"notes \x05pasted here\n\n" + data[cut:])
    hands, issues = _split(list(iter_hands([path])))
    (issue,) = issues
    assert issue.kind == "rejected" and issue.hand_id is None and len(hands) == HANDS
    assert "not part of any hand" in issue.reason and "control byte 0x05" in issue.reason


# --- dangling links --------------------------------------------------------------------


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links here")
def test_a_dangling_link_is_an_unreadable_file(
    session: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "in"
    folder.mkdir()
    (folder / "a.txt").write_bytes(session.read_bytes())
    link = folder / "b.txt"
    link.symlink_to(tmp_path / "gone.txt")
    for paths in ([folder], [link, folder / "a.txt"]):  # inside a folder; named directly
        hands, issues = _split(list(iter_hands(paths)))
        (issue,) = issues
        assert (issue.source_file, issue.kind, issue.hand_id) == (str(link), "unreadable", None)
        assert "a link to" in issue.reason and "gone.txt" in issue.reason
        assert len(hands) == HANDS
        report = audit_paths(paths)
        assert (report.hands, report.rejected, len(report.unreadable)) == (HANDS, (), 1)
        assert json.loads(json.dumps(report.to_json()))["unreadable_files"][0][
            "source_file"
        ] == str(link)
    assert main(["audit", str(folder), "-q"]) == 0
    out = capsys.readouterr().out
    assert f"Unreadable file {link}: a link to" in out
    assert "OK: 500 hands audited" in out and "; 1 file could not be read." in out


# --- duplicates --------------------------------------------------------------------------


def _first_hand(session: Path) -> str:
    text = session.read_text(encoding="utf-8")
    return text[: text.index("PokerStars Hand #", 10)]


def test_one_hand_repeated_is_audited_once(
    session: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A file of one hand repeated 1,000 times: one hand audited, 999 copies counted (and
    not replayed again: a replay per chunk at most, not per copy)."""
    one = _first_hand(session)
    path = tmp_path / "repeated.txt"
    path.write_text(one * 1000, encoding="utf-8")
    single = audit_paths([_write(tmp_path / "one.txt", one)])
    calls = [0]
    real = hk_audit.replay  # (the one function that replays a chunk's hands: audit_hand)

    def counting(*args, **kw):  # type: ignore[no-untyped-def]
        calls[0] += 1
        return real(*args, **kw)

    monkeypatch.setattr(hk_audit, "replay", counting)
    report = audit_paths([path])
    assert calls[0] <= 4  # chunks of 256 blocks
    assert report.hands == 1 and report.violations == single.violations
    dup = report.duplicates
    assert (dup.hands, dup.copies, dup.different) == (1, 999, 0)
    monkeypatch.setattr(hk_audit, "replay", real)
    assert audit_paths([path], jobs=2) == report
    assert main(["audit", str(path), "-q"]) == 0
    out = capsys.readouterr().out
    assert "Duplicates: 1 hand read more than once; 999 copies not audited again." in out
    assert "OK: 1 hand audited" in out
    assert main(["audit", str(path), "-q", "--format", "json"]) == 0
    got = json.loads(capsys.readouterr().out)["duplicates"]
    assert got == {"hands": 1, "copies": 999, "different_text": 0, "different_text_examples": []}


def _write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def test_a_file_read_twice_changes_nothing_but_the_duplicates(
    session: Path, tmp_path: Path
) -> None:
    """The same hands in two files (a copy, a folder given twice): the report of one copy,
    with no false alarm from the stacks across hands, plus the count of copies."""
    copy = tmp_path / "copy.txt"
    copy.write_bytes(session.read_bytes())
    once = audit_paths([session])
    for jobs in (1, 2):
        twice = audit_paths([session, copy], jobs=jobs)
        assert twice.duplicates.copies == HANDS and twice.duplicates.hands == HANDS
        assert twice.duplicates.different == 0
        assert dataclasses.replace(twice, duplicates=once.duplicates) == once
    # in memory too (no text to compare: every copy is a copy)
    hands = list(iter_hands([session, copy]))
    mem = audit(hands)
    assert mem.hands == HANDS and mem.violations == once.violations
    assert (mem.duplicates.hands, mem.duplicates.copies) == (HANDS, HANDS)


def test_a_different_hand_under_the_same_id_is_counted_apart(
    session: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    one = _first_hand(session)
    other = one.replace("Table '", "Table 'Other ", 1)  # the same id, another text
    assert other != one
    path = _write(tmp_path / "two.txt", one + one + other)
    report: AuditReport = audit_paths([path])
    dup = report.duplicates
    assert (report.hands, dup.hands, dup.copies, dup.different) == (1, 1, 2, 1)
    ((hand_id, first, where),) = dup.examples
    lines = one.count("\n")
    assert (first, where) == (f"{path}:1", f"{path}:{2 * lines + 1}")
    assert main(["audit", str(path), "-q"]) in (0, 1)
    out = capsys.readouterr().out
    assert "2 copies not audited again; 1 of them with a text unlike the first copy's" in out
    assert f"#{hand_id} ({where}, first at {first})" in out


@pytest.mark.parametrize("site", ["ipoker", "merge"])
def test_a_stray_byte_in_an_xml_file_rejects_its_hand_only(site: str, tmp_path: Path) -> None:
    """The XML sites too: the parser never sees the byte (ESC, which XML forbids, as well),
    and the hand whose lines hold it is rejected."""
    path = tmp_path / f"{site}.xml"
    write_session(path, "stud", 20, seed=5, site=site)
    want = [h for h in iter_hands([path]) if isinstance(h, Hand)]
    lines = path.read_bytes().split(b"\n")
    first, end = want[DAMAGED].source.line, want[DAMAGED + 1].source.line
    for byte, no in ((b"\x05", first + 1), (b"\x1b", end - 1)):
        mutated = list(lines)
        line = mutated[no - 1]
        assert len(line) > 6
        mutated[no - 1] = line[:5] + byte + line[5:]
        damaged = tmp_path / f"damaged.{site}.xml"
        damaged.write_bytes(b"\n".join(mutated))
        hands, issues = _split(list(iter_hands([damaged])))
        (issue,) = issues
        assert (issue.kind, issue.hand_id, issue.line, issue.column) == (
            "rejected",
            want[DAMAGED].hand_id,
            no,
            6,
        )
        assert f"control byte 0x{byte[0]:02x}" in issue.reason
        assert _same_but_file(hands, want[:DAMAGED] + want[DAMAGED + 1 :])


def test_an_odd_byte_in_utf16_text_damages_its_line_only(
    session: Path, original: list[Hand], tmp_path: Path
) -> None:
    data = session.read_text(encoding="utf-8").replace("\n", "\r\n").encode("utf-16")
    tenth = original[9]
    at = data.index(f"Hand #{tenth.hand_id}".encode("utf-16-le"))
    at = data.index("Seat 1:".encode("utf-16-le"), at) + 4  # inside a seat line of hand 10
    path = tmp_path / "odd.txt"
    path.write_bytes(data[:at] + b"\x00" + data[at:])
    hands, issues = _split(list(iter_hands([path])))
    assert [(i.kind, i.hand_id) for i in issues] == [("rejected", tenth.hand_id)]
    assert "odd number of bytes" in issues[0].reason
    assert _same_but_file(hands, [h for h in original if h.hand_id != tenth.hand_id])
