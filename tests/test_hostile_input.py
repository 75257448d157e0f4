"""Hostile input on the reading side (issue 28, items 1 to 5 and 9): archives of many
members, members and lines that expand without end, XML hands of any size or depth,
malformed stakes, duplicate names in a tar, hands that must each be accounted for once,
mixed encodings. Each: bounded time and memory, the hand rejected with a reason or one
clean error, and the rest of the run goes on."""

from __future__ import annotations

import io
import tarfile
import zipfile
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
