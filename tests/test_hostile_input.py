"""Hostile input on the reading side (issue 28, items 1 to 5 and 9): archives of many
members, members and lines that expand without end, XML hands of any size or depth,
malformed stakes, duplicate names in a tar, hands that must each be accounted for once,
mixed encodings. Each: bounded time and memory, the hand rejected with a reason or one
clean error, and the rest of the run goes on."""

from __future__ import annotations

import dataclasses
import gzip
import io
import tarfile
import tracemalloc
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from histkit.cli import main
from histkit.model import Hand
from histkit.reader import ParseIssue, iter_hands
from histkit.reading import archive
from tests.conftest import SAMPLE_DATA

RAZZ = SAMPLE_DATA / "razz_cash_200.txt"
MERGE = Path(__file__).resolve().parents[2] / "shared" / "hands" / "merge"


def _razz_hands(n: int) -> list[bytes]:
    """The first n hands of the razz sample, each its own text."""
    return [h.strip().encode() + b"\n" for h in RAZZ.read_text().split("\n\n\n")[:n]]


def _read(*paths: Path) -> tuple[list[Hand], list[ParseIssue]]:
    hands: list[Hand] = []
    issues: list[ParseIssue] = []
    for item in iter_hands(list(paths)):
        (hands if isinstance(item, Hand) else issues).append(item)
    return hands, issues


# ------------------------------------------------------- item 3: archives of many members


def _zip_of(path: Path, members: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            z.writestr(name, data)
    return path


def _tar_of(path: Path, members: list[tuple[str, bytes | str]], mode: str = "w") -> Path:
    """A tar of regular files (bytes) and symbolic links (str: the link's target)."""
    with tarfile.open(path, mode) as t:
        for name, data in members:
            info = tarfile.TarInfo(name)
            if isinstance(data, str):
                info.type, info.linkname = tarfile.SYMTYPE, data
                t.addfile(info)
            else:
                info.size = len(data)
                t.addfile(info, io.BytesIO(data))
    return path


def test_sample_is_what_the_tests_think() -> None:
    hands = _razz_hands(3)
    assert len(hands) == 3 and all(h.startswith(b"PokerStars Hand #") for h in hands)


@pytest.mark.parametrize("kind", ["zip", "tar", "tar.gz"])
def test_an_archive_directory_is_read_once_for_all_its_members(
    kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each member used to open the archive again and read its whole directory: a zip of
    2,000 tiny members took 2 minutes. Now the directory is read once."""
    hands = _razz_hands(120)
    members = {f"day{i:03d}/h{i}.txt": data for i, data in enumerate(hands)}
    if kind == "zip":
        path = _zip_of(tmp_path / "many.zip", members)
    else:
        mode = "w:gz" if kind == "tar.gz" else "w"
        path = _tar_of(tmp_path / f"many.{kind}", list(members.items()), mode)
    directories = []
    real_zip, real_tar = zipfile.ZipFile._RealGetContents, tarfile.TarFile.__init__
    monkeypatch.setattr(
        zipfile.ZipFile, "_RealGetContents", lambda self: directories.append(1) or real_zip(self)
    )
    monkeypatch.setattr(
        tarfile.TarFile,
        "__init__",
        lambda self, *a, **k: directories.append(1) or real_tar(self, *a, **k),
    )
    got, issues = _read(path)
    assert issues == [] and len(got) == 120
    assert [h.hand_id for h in got] == [h.split(b"#")[1].split(b":")[0].decode() for h in hands]
    assert got[7].source.file == f"{path}/day007/h7.txt"
    assert len(directories) == 1


def test_an_archive_of_too_many_entries_is_one_clear_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(archive, "MAX_MEMBERS", 10)
    hand = _razz_hands(1)[0]
    many = _zip_of(tmp_path / "a-many.zip", {f"h{i}.txt": hand for i in range(11)})
    _tar_of(tmp_path / "b-many.tar", [(f"h{i}.txt", hand) for i in range(11)])
    _zip_of(tmp_path / "c-ten.zip", {f"h{i}.txt": hand for i in range(10)})
    got, issues = _read(tmp_path)
    assert len(got) == 10  # the archive of ten beside them is read
    assert [(i.source_file, i.kind) for i in issues] == [
        (str(many), "unreadable"),
        (str(tmp_path / "b-many.tar"), "unreadable"),
    ]
    assert "a zip archive of 11 entries, and histkit reads at most 10 in one" in issues[0].reason
    assert "a tar archive of more than 10 entries" in issues[1].reason
    assert "extract its files first" in issues[1].reason


def test_xml_members_read_again_by_name_read_the_directory_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An XML member is read whole by its site's reader, which opens it again by its name
    (`archive.zip/member.xml`): that reads no directory again either."""
    xml = tmp_path / "merge.xml"
    args = ["simulate", "--site", "merge", "--game", "stud", "--hands", "3", "--seed", "5"]
    assert main([*args, "-q", "-o", str(xml)]) == 0
    path = _zip_of(tmp_path / "xml.zip", {f"s{i}.xml": xml.read_bytes() for i in range(40)})
    directories = []
    real_zip = zipfile.ZipFile._RealGetContents
    monkeypatch.setattr(
        zipfile.ZipFile, "_RealGetContents", lambda self: directories.append(1) or real_zip(self)
    )
    got, issues = _read(path)
    assert issues == [] and len(got) == 120 and len(directories) == 1


def test_a_tar_name_given_twice_is_the_file_extracting_leaves(tmp_path: Path) -> None:
    """(item 4) A name whose last entry is a symbolic link raised KeyError from tarfile and
    ended the run; a name given twice was read twice, both times as its last entry."""
    one, two, three = _razz_hands(3)
    path = _tar_of(
        tmp_path / "dup.tar",
        [("a.txt", one), ("a.txt", "missing.txt"), ("b.txt", one), ("b.txt", two)],
    )
    _tar_of(tmp_path / "next.tar", [("c.txt", three)])
    got, issues = _read(path, tmp_path / "next.tar")
    assert issues == []
    assert [(h.hand_id, h.source.file) for h in got] == [
        (two.split(b"#")[1].split(b":")[0].decode(), f"{path}/b.txt"),
        (three.split(b"#")[1].split(b":")[0].decode(), f"{tmp_path / 'next.tar'}/c.txt"),
    ]


# ------------------------------------------------------------ item 2: XML of any size


@pytest.fixture(scope="module")
def xml_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """A simulated file of three hands for each XML site."""
    folder = tmp_path_factory.mktemp("xml")
    files = {}
    for site in ("merge", "ipoker"):
        path = folder / f"{site}.xml"
        args = ["simulate", "--site", site, "--game", "stud", "--hands", "3", "--seed", "5"]
        assert main([*args, "-q", "-o", str(path)]) == 0
        files[site] = path
    return files


def _into_second_hand(source: Path, target: Path, lines: list[str]) -> tuple[str, int]:
    """`source` with `lines` put inside its second hand, right after the hand's first
    line; the hand's id and its first line."""
    text = source.read_text(encoding="utf-8").split("\n")
    starts = [i for i, x in enumerate(text) if x.startswith("<game ")]
    at = starts[1]
    hand_id = text[at].split('"')[1]
    target.write_text("\n".join([*text[: at + 1], *lines, *text[at + 1 :]]), encoding="utf-8")
    return hand_id, at + 1


def _one_rejected(path: Path, hand_id: str, line: int, why: str) -> None:
    got, issues = _read(path)
    assert len(got) == 2 and hand_id not in {h.hand_id for h in got}
    assert [(i.hand_id, i.kind) for i in issues] == [(hand_id, "rejected")]
    assert issues[0].line in (line, line + 1)  # the hand's first line, or where it broke
    assert why in issues[0].reason, issues[0].reason


@pytest.mark.parametrize("site", ["merge", "ipoker"])
def test_a_hand_of_megabytes_of_text_is_rejected_by_its_id(
    site: str, xml_files: dict[str, Path], tmp_path: Path
) -> None:
    """Text inside one hand was joined with `+=` for every piece: 8 MB took a minute. Now
    a hand is read up to 1 MB (real ones are under 8 KB) and rejected past it."""
    block = ["<note>", *(["x" * 10_000] * 120), "</note>"]  # 1.2 MB of text
    hand_id, line = _into_second_hand(xml_files[site], tmp_path / "big.xml", block)
    _one_rejected(tmp_path / "big.xml", hand_id, line, "more than 1,024 KB of XML in one element")


@pytest.mark.slow
@pytest.mark.parametrize("site", ["merge", "ipoker"])
def test_a_hand_of_many_elements_is_rejected_by_its_id(
    site: str, xml_files: dict[str, Path], tmp_path: Path
) -> None:
    block = ["<n/>" * 1000] * 300  # 300,000 elements
    hand_id, line = _into_second_hand(xml_files[site], tmp_path / "many.xml", block)
    _one_rejected(tmp_path / "many.xml", hand_id, line, "more than 1,024 KB of XML")


@pytest.mark.parametrize("site", ["merge", "ipoker"])
def test_elements_nested_a_thousand_deep_reject_their_hand(
    site: str, xml_files: dict[str, Path], tmp_path: Path
) -> None:
    """(item 4) A 7 KB Merge file of 1,000 nested elements raised RecursionError and ended
    the whole run."""
    block = ["<n>" * 1000 + "</n>" * 1000]
    hand_id, line = _into_second_hand(xml_files[site], tmp_path / "deep.xml", block)
    _one_rejected(tmp_path / "deep.xml", hand_id, line, "elements nested more than 64 deep")


@pytest.mark.parametrize(
    ("stakes", "kind"),
    [
        ("Limit $1e5/$0.50", "rejected"),
        ("Limit $abc/$1", "rejected"),
        ("Limit $0.25/", "rejected"),
        ("Limit Level 3 Blinds $0.25/$", "rejected"),
        ("$1e5/$0.50", "skipped"),  # no limit words: not a game histkit knows
    ],
)
def test_malformed_merge_stakes_reject_their_hand(
    stakes: str, kind: str, xml_files: dict[str, Path], tmp_path: Path
) -> None:
    """(item 4) Malformed stakes raised AssertionError in the probe's day; now a known
    game's hand with stakes not read is rejected naming them (its bets are never guessed
    from the play), and the hands around it are read."""
    text = xml_files["merge"].read_text(encoding="utf-8").split("\n")
    descs = [i for i, x in enumerate(text) if x.startswith("<description ")]
    assert len(descs) == 3 and 'stakes="Limit $0.04/$0.08"' in text[descs[1]]
    text[descs[1]] = text[descs[1]].replace("Limit $0.04/$0.08", stakes)
    path = tmp_path / "stakes.xml"
    path.write_text("\n".join(text), encoding="utf-8")
    got, issues = _read(path)
    assert len(got) == 2 and [i.kind for i in issues] == [kind]
    assert issues[0].hand_id not in {h.hand_id for h in got}
    if kind == "rejected":
        assert f"stakes {stakes!r} not read" in issues[0].reason, issues[0].reason
        assert issues[0].line == descs[1] + 1


def test_text_between_children_is_not_kept() -> None:
    from histkit.reading.xmlstream import iter_xml

    got = list(
        iter_xml(["<game>lead<a>one</a>two<b>th", "ree</b>tail</game>"], frozenset({"game"}))
    )
    game = got[0][1]
    assert game.text == "" and [(c.tag, c.text) for c in game.children] == [
        ("a", "one"),
        ("b", "th\nree"),
    ]


# -------------------------------------------- item 1: bounded memory on compressed input


def _peak_while(read: Callable[[], object]) -> tuple[object, int]:
    """What `read` returns and the peak of the memory Python allocated meanwhile."""
    tracemalloc.start()
    try:
        got = read()
        return got, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _with_long_line(target: Path, at: int, extra: bytes) -> tuple[list[bytes], int]:
    """Three razz hands, `extra` added to the end of line `at` (0-based) of the second:
    the hands, and the file line that is long."""
    hands = _razz_hands(3)
    lines = hands[1].split(b"\n")
    lines[at] += extra
    hands[1] = b"\n".join(lines)
    target.write_bytes(b"\n\n".join(hands))
    return hands, hands[0].count(b"\n") + 3 + at


@pytest.mark.parametrize("at", [0, 3])  # the header line, a seat line
def test_a_line_of_megabytes_rejects_its_hand_by_its_id(at: int, tmp_path: Path) -> None:
    path = tmp_path / "long.txt"
    hands, line = _with_long_line(path, at, b"x" * (3 << 20))
    got, issues = _read(path)
    ids = [h.split(b"#")[1].split(b":")[0].decode() for h in hands]
    assert [h.hand_id for h in got] == [ids[0], ids[2]]
    assert [(i.hand_id, i.kind, i.line) for i in issues] == [(ids[1], "rejected", line)]
    assert "a line longer than 1,048,576 bytes" in issues[0].reason


def test_a_long_line_reads_the_same_in_byte_ranges(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """--jobs cuts a file into byte ranges before the long line; the results are those of
    one pass (small reads, so a line is long at 8 KB and there are ranges to cut)."""
    from histkit.reader import iter_chunks, parse_chunk
    from histkit.reading import decode

    monkeypatch.setattr(decode, "_READ_CHUNK", 1 << 13)
    monkeypatch.setattr(decode, "MAX_LINE", 1 << 13)
    text = RAZZ.read_bytes().split(b"\n")
    text[2000] += b"y" * 30_000  # a seat or action line about a tenth into the file
    path = tmp_path / "long.txt"
    path.write_bytes(b"\n".join(text))
    whole = list(iter_hands([path]))
    issues = [i for i in whole if isinstance(i, ParseIssue)]
    assert len(issues) == 1 and "a line longer than 8,192 bytes" in issues[0].reason
    assert issues[0].line == 2001 and issues[0].hand_id is not None
    chunks = list(iter_chunks([path], span_bytes=1 << 12))
    assert len(chunks) > 2 and all(c.span is not None for c in chunks)
    assert [x for c in chunks for x in parse_chunk(c)] == whole


def test_a_gz_of_one_endless_line_is_read_in_bounded_memory(tmp_path: Path) -> None:
    """A small .gz of one letter repeated, no line end: the line grew without bound (1 GB
    reached 3.3 GB). Now it is one damaged line (a file of no known site), and the file
    beside it is read."""
    path = tmp_path / "a-endless.txt.gz"
    with gzip.open(path, "wb", compresslevel=1) as f:
        for _ in range(64):
            f.write(b"a" * (1 << 20))
    (tmp_path / "b-razz.txt").write_bytes(b"\n\n".join(_razz_hands(2)))
    (got, issues), peak = _peak_while(lambda: _read(tmp_path))  # type: ignore[misc]
    assert len(got) == 2  # not a hand history: one issue, its first line said (cut short)
    assert [(i.source_file, i.kind) for i in issues] == [(str(path), "unknown")]
    assert peak < 16 << 20, peak


@pytest.mark.parametrize("compressed", [False, True])
def test_a_zip_member_of_zeros_is_refused_without_reading_it_whole(
    compressed: bool, tmp_path: Path
) -> None:
    """A zip member expanding to a run of zeros was read whole into memory (1 GB reached
    2.2 GB RSS) before being judged binary; now it is judged from its first bytes, as a
    plain .gz is, and the member after it is read."""
    path = tmp_path / "bomb.zip"
    zeros = b"\x00" * (64 << 20)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr(
            "a.txt.gz" if compressed else "a.txt", gzip.compress(zeros, 1) if compressed else zeros
        )
        z.writestr("b.txt", b"\n\n".join(_razz_hands(2)))
    del zeros
    (got, issues), peak = _peak_while(lambda: _read(path))  # type: ignore[misc]
    name = "a.txt.gz" if compressed else "a.txt"
    assert len(got) == 2 and [(i.source_file, i.kind) for i in issues] == [
        (f"{path}/{name}", "unreadable")
    ]
    assert "binary data" in issues[0].reason
    assert peak < 16 << 20, peak


def test_a_utf16_file_of_one_endless_line_is_read_in_bounded_memory(tmp_path: Path) -> None:
    path = tmp_path / "endless16.txt"
    with path.open("wb") as f:
        f.write(b"\xff\xfe")
        for _ in range(12):
            f.write("b".encode("utf-16-le") * (1 << 19))
        f.write(
            "\n".encode("utf-16-le") + b"\n\n".join(_razz_hands(2)).decode().encode("utf-16-le")
        )
    (got, issues), peak = _peak_while(lambda: _read(path))  # type: ignore[misc]
    assert len(got) == 2 and [(i.line, i.kind) for i in issues] == [(1, "rejected")]
    assert "a line longer than 1,048,576 bytes" in issues[0].reason
    assert peak < 24 << 20, peak


@pytest.mark.parametrize("end", [b"\r", b"\r\n"])
def test_old_mac_line_ends_are_line_ends_for_the_cap(
    end: bytes, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file of CR line ends (or CRLF) has no LF, or one every line: its lines are short,
    whatever the file's size (small reads: a line is long at 8 KB, the file is 160 KB)."""
    from histkit.reading import decode

    monkeypatch.setattr(decode, "_READ_CHUNK", 1 << 13)
    monkeypatch.setattr(decode, "MAX_LINE", 1 << 13)
    path = tmp_path / "mac.txt"
    path.write_bytes(RAZZ.read_bytes().replace(b"\n", end))
    assert path.stat().st_size > 20 * (1 << 13)
    got, issues = _read(path)
    plain, _ = _read(RAZZ)
    assert issues == [] and [h.hand_id for h in got] == [h.hand_id for h in plain]


@pytest.mark.parametrize("after", [b"", b"x\n", b"\n"])
def test_an_endless_run_of_crs_is_read_in_bounded_memory(after: bytes, tmp_path: Path) -> None:
    """CRs may end lines (old Mac files) or, in a run before an LF, one line end: a run of
    megabytes of them was kept whole while its end was looked for. Now a line with such a
    run is damaged like any long line, and the hands after it are read."""
    path = tmp_path / "a-crs.txt.gz"
    with gzip.open(path, "wb", compresslevel=1) as f:
        f.write(b"start")
        for _ in range(32):
            f.write(b"\r" * (1 << 20))
        f.write(after)
    (tmp_path / "b-razz.txt").write_bytes(b"\n\n".join(_razz_hands(2)))
    (got, issues), peak = _peak_while(lambda: _read(tmp_path))  # type: ignore[misc]
    assert len(got) == 2 and [(i.source_file, i.kind) for i in issues] == [(str(path), "unknown")]
    assert peak < 16 << 20, peak


# ------------------------------------------------------ item 5: every hand accounted for


def _one_session(source: Path, broken: int | None) -> tuple[Path, list[str]]:
    """A simulated iPoker file's hands in one session, written as real files write them,
    `</game><game gamecode=...>` on one line; hand `broken` (0-based) with its rounds left
    unclosed. The file, and the hands' ids."""
    lines = source.read_text(encoding="utf-8").split("\n")
    starts = [i for i, x in enumerate(lines) if x.startswith("<game ")]
    ends = [i for i, x in enumerate(lines) if x == "</game>"]
    out = lines[: starts[0] + 1]
    for k, (s, e) in enumerate(zip(starts, ends, strict=True)):
        body = lines[s + 1 : e]
        if k == broken:
            body = [x for x in body if x.strip() != "</round>"]
        if k:
            out.append("</game>" + lines[s])
        out += body
    out += ["</game>", "</session>", ""]
    target = source.with_name(f"session-{broken}.xml")
    target.write_text("\n".join(out), encoding="utf-8")
    return target, [lines[s].split('"')[1] for s in starts]


@pytest.mark.parametrize("broken", [0, 1])
def test_the_hand_opening_on_a_broken_hands_last_line_is_read(
    broken: int, xml_files: dict[str, Path]
) -> None:
    """Reading started again at the line after a break: the hand opening on the line where
    the broken one closes was in neither the hands nor the issues."""
    whole, ids = _one_session(xml_files["ipoker"], None)
    assert [h.hand_id for h in _read(whole)[0]] == ids and len(ids) == 3
    path, _ = _one_session(xml_files["ipoker"], broken)
    got, issues = _read(path)
    assert [h.hand_id for h in got] == [x for i, x in enumerate(ids) if i != broken]
    assert [(i.hand_id, i.kind) for i in issues] == [(ids[broken], "rejected")]


def _lines_of(source: Path) -> tuple[list[str], list[int], list[str]]:
    """A file's lines, where its hand elements start, and the hands' ids."""
    lines = source.read_text(encoding="utf-8").split("\n")
    starts = [i for i, x in enumerate(lines) if x.startswith("<game ")]
    return lines, starts, [lines[s].split('"')[1] for s in starts]


def test_merge_xml_broken_after_a_hand_was_read_is_no_hands_rejection(
    xml_files: dict[str, Path], tmp_path: Path
) -> None:
    """A broken line after a Merge hand's end, before the next element, rejected the hand
    by its id although it was read: the hand was in both the hands and the errors."""
    lines, starts, ids = _lines_of(xml_files["merge"])
    end = lines.index("</game>", starts[1])
    lines.insert(end + 1, "</game>")
    path = tmp_path / "after.xml"
    path.write_text("\n".join(lines), encoding="utf-8")
    got, issues = _read(path)
    assert [h.hand_id for h in got] == ids
    assert [(i.line, i.hand_id, i.about_hand) for i in issues] == [(end + 2, None, False)]


@pytest.mark.parametrize("site", ["merge", "ipoker"])
def test_a_line_cut_short_and_glued_to_the_next_hand_loses_only_its_own(
    site: str, xml_files: dict[str, Path], tmp_path: Path
) -> None:
    """A line of hand 2 cut short runs into hand 3's first line: hand 3 was taken into
    hand 2's element (Merge) and lost; now hand 2 is rejected and hand 3 read."""
    lines, starts, ids = _lines_of(xml_files[site])
    at = starts[1] + 3
    lines[at : starts[2] + 1] = [lines[at][: len(lines[at]) // 2] + lines[starts[2]]]
    path = tmp_path / "glued.xml"
    path.write_text("\n".join(lines), encoding="utf-8")
    got, issues = _read(path)
    assert [h.hand_id for h in got] == [ids[0], ids[2]]
    assert [(i.hand_id, i.kind, i.about_hand) for i in issues] == [(ids[1], "rejected", True)]


@pytest.mark.parametrize("cut", ["middle", "end"])
def test_a_broken_hand_start_tag_is_a_rejected_hand(
    cut: str, xml_files: dict[str, Path], tmp_path: Path
) -> None:
    """XML broken inside a hand's start tag (its element never started) was reported as
    a break outside any hand, or not at all at the end of a file: a hand start in neither
    the hands nor the hands rejected."""
    lines, starts, ids = _lines_of(xml_files["ipoker"])
    if cut == "middle":
        lines[starts[1]] = lines[starts[1]][:20] + ">"  # '<game gamecode="2246>'
    else:
        lines[starts[2] :] = [lines[starts[2]][:20]]
    path = tmp_path / "tag.xml"
    path.write_text("\n".join(lines), encoding="utf-8")
    got, issues = _read(path)
    assert [h.hand_id for h in got] == ([ids[0], ids[2]] if cut == "middle" else ids[:2])
    assert [(i.kind, i.about_hand) for i in issues] == [("rejected", True)]
    assert issues[0].reason.startswith("hand not read: ")


def test_xml_broken_outside_every_hand_is_not_counted_as_a_hand(
    xml_files: dict[str, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A break between hands (here a stray end tag in a session's head) was counted as a
    rejected hand: '1 hand rejected' for a file whose hands were all read."""
    lines, starts, ids = _lines_of(xml_files["ipoker"])
    lines.insert(starts[1], "</general>")
    path = tmp_path / "stray.xml"
    path.write_text("\n".join(lines), encoding="utf-8")
    got, issues = _read(path)
    assert [h.hand_id for h in got] == ids
    assert [(i.kind, i.about_hand) for i in issues] == [("rejected", False)]
    assert main(["parse", str(path), "-o", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert "Rejected 0 hands.\nNot part of any hand: 1 stretch:\n" in out, out
    assert main(["audit", str(path)]) == 1
    out = capsys.readouterr().out
    assert "1 stretch of the input outside any hand not read" in out
    assert f"Not part of any hand: {path}:{starts[1] + 1}: XML not well-formed" in out
    assert "rejected" not in out.lower()


# ------------------------------------------------------------------ item 9: mixed encodings


def test_a_utf8_name_on_a_line_with_a_cp1252_euro_sign_reads_the_same(
    xml_files: dict[str, Path], tmp_path: Path
) -> None:
    """Real iPoker files declare UTF-8 and write the euro sign in cp1252: a line holding
    both a UTF-8 name and that byte was read wholly as cp1252 ('JÃ¼rgen' there, 'Jürgen'
    on the lines without a euro sign), and the hero was lost. Now each run of a line is
    read as what it is: the hands are those of the file written wholly in UTF-8."""
    text = xml_files["ipoker"].read_text(encoding="utf-8").replace("Hero", "Jürgen")
    assert "€" in text and "Jürgen" in text
    utf8 = tmp_path / "utf8.xml"
    utf8.write_bytes(text.encode("utf-8"))
    mixed = tmp_path / "mixed.xml"
    mixed.write_bytes(text.encode("utf-8").replace("€".encode(), b"\x80"))
    lines = mixed.read_bytes().split(b"\n")
    assert any(b"\x80" in x and "ü".encode() in x for x in lines)  # both on one line
    want, got = _read(utf8), _read(mixed)
    assert want[1] == [] and got[1] == [] and len(want[0]) == 3
    assert [h.hero for h in got[0]] == ["Jürgen"] * 3
    assert [
        dataclasses.replace(h, source=h.source.__class__("", h.source.line)) for h in got[0]
    ] == [dataclasses.replace(h, source=h.source.__class__("", h.source.line)) for h in want[0]]


def test_a_line_is_read_by_runs() -> None:
    from histkit.reading.decode import decode_line

    assert decode_line("Jürgen ".encode() + b"\x80" + b"5") == "Jürgen €5"
    assert decode_line(b"J\xfcrgen \x80") == "Jürgen €"  # cp1252 alone, as before
    assert decode_line("Ã¼".encode("cp1252")) == "ü"  # valid UTF-8 is UTF-8, as before
    with pytest.raises(UnicodeDecodeError):
        decode_line("Jürgen ".encode() + b"\x81")  # a byte cp1252 does not read either
