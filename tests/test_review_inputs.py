"""Inputs as players have them (issue 15, "Seen"): nothing to do is one rule for every
command (an input error, exit 2, saying why); compressed histories are read as if they
were not; a player is found whatever the case of the name typed."""

from __future__ import annotations

import bz2
import gzip
import json
import lzma
import shutil
import tarfile
import zipfile
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from histkit.cli import main
from histkit.reader import iter_hands
from tests.conftest import CORPUS, SAMPLE_DATA, needs_corpus

RAZZ = SAMPLE_DATA / "razz_cash_200.txt"
STUD = SAMPLE_DATA / "stud_cash_200.txt"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    rc = main(list(argv))
    got = capsys.readouterr()
    return rc, got.out, got.err


# ---------------------------------------------------------------- nothing to do

COMMANDS = {
    "audit": [],
    "stats": ["-q"],
    "report": ["-q", "-o", "{tmp}/r.html"],
    "parse": ["-q", "-o", "{tmp}/out"],
    "export": ["-q", "-o", "{tmp}/out"],
    "import": ["-q", "--db", "{tmp}/h.duckdb"],
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_folder_without_hand_histories_is_an_input_error(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "README.md").write_text("no hands here\n")
    extra = [a.format(tmp=tmp_path) for a in COMMANDS[command]]
    rc, _, err = run(capsys, command, str(folder), *extra)
    assert rc == 2 and "no hand histories in" in err, err
    assert not (tmp_path / "out").exists() and not (tmp_path / "r.html").exists()


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_filters_that_match_nothing_are_an_input_error(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if command in ("parse", "export", "import"):
        pytest.skip(f"{command} has no filters")
    extra = [a.format(tmp=tmp_path) for a in COMMANDS[command]]
    rc, _, err = run(capsys, command, str(RAZZ), "--until", "2001-01-01", *extra)
    assert rc == 2 and "no hands match --until 2001-01-01 (200 stud hands in" in err, err


@pytest.mark.parametrize("command", ["export", "import", "parse"])
@pytest.mark.parametrize(
    "content", [b"", b"\x7fELF\x02\x01\x01" + bytes(200)], ids=["empty", "binary"]
)
def test_a_file_without_hands_is_an_input_error(
    command: str, content: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file named on its own, as a folder: nothing read is exit 2, and nothing is written
    (the database as it was, so a second import says the same)."""
    if command == "import":
        pytest.importorskip("duckdb")
    (tmp_path / "f.txt").write_bytes(content)
    extra = [a.format(tmp=tmp_path) for a in COMMANDS[command]]
    for _ in range(2 if command == "import" else 1):
        rc, out, err = run(capsys, command, str(tmp_path / "f.txt"), *extra)
        assert rc == 2 and out == "" and "no stud hands in" in err, err
    assert not (tmp_path / "out").exists()


def test_export_writes_each_hand_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The same file given twice (or copied into two folders): one file per hand, as every
    other command counts each (site, hand id) once, and the summary says how many copies
    were skipped."""
    for n, multi in enumerate(([], ["--phhs"])):
        out = tmp_path / f"phh{n}"
        rc, said, err = run(capsys, "export", str(RAZZ), str(RAZZ), "-o", str(out), *multi)
        assert rc == 0, err
        files = sorted(p.name for p in out.iterdir() if not p.name.startswith("."))
        assert files == (["razz_cash_200.phhs"] if multi else files)
        assert len(files) == (1 if multi else 200) and not any("-2." in f for f in files)
        assert "Wrote 200 hands" in said and "Skipped 200 duplicates" in said, said


@pytest.mark.slow
def test_parse_says_how_many_hands_it_read_twice(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The tables keep each copy as read (its own source file and line); the summary says
    so in one line, and the readers of the tables count each hand once."""
    (tmp_path / "copy.txt").write_bytes(RAZZ.read_bytes())
    rc, out, err = run(capsys, "parse", str(RAZZ), str(tmp_path / "copy.txt"), "-o",
                       str(tmp_path / "out"), "--jobs", "1")  # fmt: skip
    assert rc == 0, err
    said = [line for line in out.splitlines() if "more than once" in line]
    assert len(said) == 1 and said[0].startswith("Read 200 hands more than once"), out
    hands = pq.read_table(tmp_path / "out" / "hands.parquet")
    assert hands.num_rows == 400 and len(set(hands["source_file"].to_pylist())) == 2
    rc, out, _ = run(capsys, "stats", str(tmp_path / "out"), "--format", "json", "-q")
    assert rc == 0 and sum(r["hands"] for r in json.loads(out) if r["player"] == "Hero") == 200
    rc, out, _ = run(capsys, "parse", str(RAZZ), "-o", str(tmp_path / "one"))
    assert rc == 0 and "more than once" not in out


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_wrong_site_names_what_the_file_looks_like(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--site fulltilt on a PokerStars file: not "no known site (or empty)"."""
    if command == "import":
        pytest.importorskip("duckdb")
    extra = [a.format(tmp=tmp_path) for a in COMMANDS[command]]
    rc, _, err = run(capsys, command, str(RAZZ), "--site", "fulltilt", *extra)
    assert rc == 2 and len(err.strip().splitlines()) == 1, err
    assert "it is not a Full Tilt Poker hand history (--site fulltilt)" in err
    assert "it looks like PokerStars (--site pokerstars)" in err and "no known site" not in err
    (tmp_path / "empty.txt").write_bytes(b"")
    rc, _, err = run(capsys, command, str(tmp_path / "empty.txt"), "--site", "fulltilt", *extra)
    assert rc == 2 and "not a Full Tilt Poker hand history (--site fulltilt) or is empty" in err


@needs_corpus
def test_a_wrong_site_on_xml_names_its_site(capsys: pytest.CaptureFixture[str]) -> None:
    ipoker = CORPUS / "ipoker"
    rc, _, err = run(capsys, "stats", str(ipoker), "--site", "pokerstars", "-q", "--no-audit")
    assert rc == 2 and "are not PokerStars hand histories (--site pokerstars)" in err, err
    assert "they look like iPoker (--site ipoker)" in err


def test_an_empty_folder_names_every_kind_of_file_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The message lists what the reader reads (PHH too), from the suffixes it decides by."""
    from histkit.reading.archive import HAND_HISTORY_SUFFIXES, NAMED_SUFFIXES, OPENED_SUFFIXES

    rc, _, err = run(capsys, "stats", str(tmp_path), "-q")
    assert rc == 2 and "*.phh, *.phhs" in err, err
    for suffix in (*HAND_HISTORY_SUFFIXES, *OPENED_SUFFIXES, *NAMED_SUFFIXES):
        assert suffix in err, suffix


def test_phh_files_in_an_archive_are_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rc, _, err = run(capsys, "export", str(RAZZ), "-o", str(tmp_path / "phh"), "--phhs", "-q")
    assert rc == 0, err
    with zipfile.ZipFile(tmp_path / "phh.zip", "w") as z:
        z.write(tmp_path / "phh" / "razz_cash_200.phhs", "2024/razz.phhs")
    hands = [i for i in iter_hands([tmp_path / "phh.zip"]) if hasattr(i, "source")]
    assert len(hands) == 200 and hands[0].source.file.endswith("phh.zip/2024/razz.phhs")


def test_only_other_games_is_said_so(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    holdem = tmp_path / "holdem.txt"
    holdem.write_text(
        "PokerStars Hand #1: Hold'em No Limit ($0.01/$0.02 USD) - 2024/01/01 10:00:00 ET\n"
        "Table 'X' 6-max Seat #1 is the button\nSeat 1: A ($2 in chips)\n\n"
    )
    rc, _, err = run(capsys, "audit", str(holdem))
    assert rc == 2 and "no stud hands in" in err and "1 hand of other games" in err, err


def test_an_empty_file_is_no_rejected_hand(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copy(RAZZ, tmp_path / "razz.txt")
    (tmp_path / "empty.txt").write_bytes(b"")
    rc, out, _ = run(capsys, "audit", str(tmp_path))
    assert rc == 0 and "OK: 200 hands audited" in out, out
    rc, _, err = run(capsys, "audit", str(tmp_path / "empty.txt"))
    assert rc == 2 and "no stud hands in" in err and "(or empty)" in err, err


def test_one_exit_rule_for_nothing_matched(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    codes = set()
    for command, extra in (("audit", []), ("stats", ["-q"]), ("report", ["-q", "-o", "r.html"])):
        extra = [str(tmp_path / a) if a.endswith(".html") else a for a in extra]
        rc, _, _ = run(capsys, command, str(RAZZ), "--player", "nobody-at-all", *extra)
        codes.add(rc)
    assert codes == {2}


@pytest.mark.slow
def test_a_tournament_summary_of_no_tournament_is_nothing_matched(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """As stats' other filters: nothing to summarise is an input error (exit 2), one line."""
    _, _, nobody = run(capsys, "stats", str(RAZZ), "--player", "nobody-at-all", "-q")
    for fmt in ("text", "json", "csv"):
        rc, out, err = run(capsys, "stats", str(RAZZ), "--tournaments", "--format", fmt, "-q")
        assert rc == 2 and out == "" and len(err.strip().splitlines()) == 1, err
        assert "no tournament hands in" in err and "200 hands, all of cash games" in err
        assert err.split(":")[0] == nobody.split(":")[0] == "histkit stats"
    mtt = SAMPLE_DATA / "stud_hilo_tournament_150.txt"
    rc, out, err = run(capsys, "stats", str(RAZZ), str(mtt), "--tournaments", "-q")
    assert rc == 0 and "ROI" in out, err


# ------------------------------------------------------------------- players


@pytest.mark.slow
def test_a_player_is_found_whatever_the_case(capsys: pytest.CaptureFixture[str]) -> None:
    rc, exact, _ = run(capsys, "stats", str(RAZZ), "--player", "Hero", "--format", "json", "-q")
    assert rc == 0
    rc, lower, _ = run(capsys, "stats", str(RAZZ), "--player", "hero", "--format", "json", "-q")
    assert rc == 0 and lower == exact


def test_an_unknown_player_gets_a_suggestion(capsys: pytest.CaptureFixture[str]) -> None:
    rc, _, err = run(capsys, "stats", str(RAZZ), "--player", "Heor", "-q")
    assert rc == 2 and "did you mean 'Hero'?" in err and "Traceback" not in err
    rc, _, err = run(capsys, "report", str(RAZZ), "--player", "Heor", "-q", "-o", "/dev/null")
    assert rc == 2 and "did you mean 'Hero'?" in err


# ----------------------------------------------------------------- compressed


def _compressed_folder(tmp_path: Path) -> Path:
    """The same two files, compressed every way players keep them."""
    d = tmp_path / "archive"
    (d / "gz").mkdir(parents=True)
    (d / "gz" / "razz.txt.gz").write_bytes(gzip.compress(RAZZ.read_bytes()))
    (d / "razz.txt.bz2").write_bytes(bz2.compress(RAZZ.read_bytes()))
    (d / "stud.txt.xz").write_bytes(lzma.compress(STUD.read_bytes()))
    with zipfile.ZipFile(d / "sessions.zip", "w", zipfile.ZIP_DEFLATED) as z:
        z.write(STUD, "2024/stud.txt")
        z.writestr("notes/readme.md", "not a hand history")
        z.writestr("__MACOSX/2024/._stud.txt", b"\x00\x05\x16\x07")
    with tarfile.open(d / "old.tar.gz", "w:gz") as t:
        t.add(RAZZ, "razz.txt")
    return d


@pytest.mark.slow
def test_compressed_histories_are_read_as_if_they_were_not(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    d = _compressed_folder(tmp_path)
    items = list(iter_hands([d]))
    sources = sorted({i.source.file for i in items if hasattr(i, "source")})
    assert sources == sorted(
        [
            str(d / "gz" / "razz.txt.gz"),
            str(d / "old.tar.gz" / "razz.txt"),
            str(d / "razz.txt.bz2"),
            str(d / "sessions.zip" / "2024/stud.txt"),
            str(d / "stud.txt.xz"),
        ]
    )
    assert [i for i in items if not hasattr(i, "source")] == []  # nothing rejected
    plain = tmp_path / "plain"
    plain.mkdir()
    shutil.copy(RAZZ, plain / "razz.txt")
    shutil.copy(STUD, plain / "stud.txt")
    for name, folder in (("plain", plain), ("packed", d)):
        rc, _, err = run(capsys, "parse", str(folder), "-q", "-o", str(tmp_path / name))
        assert rc == 0, err
    # razz three times (gz, bz2, tar), stud twice (xz, zip): each copy as the plain file
    packed = pq.read_table(tmp_path / "packed" / "hands.parquet").to_pandas()
    flat = pq.read_table(tmp_path / "plain" / "hands.parquet").to_pandas()
    by_game = {g: sorted(h["hand_id"]) for g, h in flat.groupby("game")}
    copies = {g: 3 if g == "razz" else 2 for g in by_game}
    for source, h in packed.groupby("source_file"):
        game = h["game"].iloc[0]
        assert sorted(h["hand_id"]) == by_game[game], source
    assert packed["game"].value_counts().to_dict() == {g: 200 * n for g, n in copies.items()}
    cols = [c for c in flat.columns if c not in ("source_file", "source_line")]
    for game in copies:
        one = flat[flat["game"].eq(game)][cols].reset_index(drop=True)
        mine = packed[packed["game"].eq(game)][cols].reset_index(drop=True)
        assert mine.iloc[: len(one)].equals(one), game
    for jobs in ("1", "2"):
        rc, _, _ = run(capsys, "parse", str(d), "-q", "--jobs", jobs, "-o", str(tmp_path / jobs))
        assert rc == 0
    for table in ("hands", "seats", "actions", "cards"):
        one = pq.read_table(tmp_path / "1" / f"{table}.parquet")
        assert one.equals(pq.read_table(tmp_path / "2" / f"{table}.parquet")), table


def test_archives_histkit_cannot_open_are_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copy(RAZZ, tmp_path / "razz.txt")
    (tmp_path / "old.7z").write_bytes(b"7z\xbc\xaf\x27\x1c" + b"\x00" * 64)
    (tmp_path / "broken.txt.gz").write_bytes(gzip.compress(RAZZ.read_bytes())[:500])
    rc, out, err = run(capsys, "parse", str(tmp_path), "-o", str(tmp_path / "out"))
    assert rc == 0, err
    assert "old.7z: cannot read file: a 7-Zip archive" in out and "extract its files" in out
    assert "broken.txt.gz" in out


def test_the_database_imports_compressed_files_and_names_archives(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("duckdb")
    d = _compressed_folder(tmp_path)
    db = tmp_path / "h.duckdb"
    rc, out, err = run(capsys, "import", str(d), "--db", str(db), "--no-audit", "--jobs", "1")
    assert rc == 0, err
    assert "Added 400 hands" in out  # razz (gz, bz2) and stud (xz), each hand once
    assert "sessions.zip: unreadable file: a zip archive; extract its files" in out
    assert "old.tar.gz: unreadable file: a tar archive; extract its files" in out
    rc, out, _ = run(capsys, "import", str(d), "--db", str(db), "--no-audit")
    assert rc == 0 and "Added 0 hands" in out and "5 unchanged" in out


def test_a_refused_first_import_leaves_no_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An import refused for having read nothing does not leave an empty database file that a
    later `stats --db` would open; a database that held hands before keeps them."""
    pytest.importorskip("duckdb")
    (tmp_path / "f.txt").write_bytes(b"")
    db = tmp_path / "new.duckdb"
    rc, _, err = run(capsys, "import", str(tmp_path / "f.txt"), "--db", str(db), "-q")
    assert rc == 2 and "no stud hands in" in err, err
    assert not db.exists() and not (tmp_path / "new.duckdb.wal").exists()
    (tmp_path / "empty").mkdir()
    rc, _, err = run(capsys, "import", str(tmp_path / "empty"), "--db", str(db), "-q")
    assert rc == 2 and "no hand histories in" in err, err
    assert not db.exists() and not (tmp_path / "new.duckdb.wal").exists()
    rc, _, err = run(capsys, "import", str(RAZZ), "--db", str(db), "-q")
    assert rc == 0, err
    rc, _, err = run(capsys, "import", str(tmp_path / "f.txt"), "--db", str(db), "-q")
    assert rc == 2 and db.exists(), err
    rc, out, err = run(capsys, "db", "--db", str(db))
    assert rc == 0 and "200" in out, (out, err)
