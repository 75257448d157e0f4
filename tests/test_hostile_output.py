"""Hostile input on the output side (issue 28, items 4 and 7): a table name too long for a
folder, control characters in names and lines, a crash, a full disk."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from histkit.cli import main
from histkit.warehouse import EXACT_TABLE, FOLDER_BYTES, folder_value, read_tables

_TABLE = re.compile(r"^Table '([^']*)'", re.M)


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A simulated PokerStars session of 30 hands at one table."""
    d = tmp_path_factory.mktemp("session")
    path = d / "sim.txt"
    args = ["simulate", "--hands", "30", "--players", "5", "--seed", "7", "-q", "-o", str(path)]
    assert main(args) == 0
    return path


def _renamed_tables(source: Path, target: Path, names: list[str]) -> list[str]:
    """`source` with its hands' table names replaced, hand by hand, by `names` in turn;
    the names the hands have, in order."""
    text = source.read_text(encoding="utf-8")
    given: list[str] = []

    def name(_: re.Match[str]) -> str:
        given.append(names[len(given) % len(names)])
        return f"Table '{given[-1]}'"

    target.write_text(_TABLE.sub(name, text), encoding="utf-8")
    return given


# ------------------------------------------------------------------ item 4: folder names


def test_folder_value_is_bounded_readable_unique_and_stable() -> None:
    for value in ("x" * 300, "中" * 28, "é" * 100, "a b" * 90):
        named = folder_value("table", value)
        assert len("table=" + _quoted(named)) <= FOLDER_BYTES
        assert value.startswith(named[:-17]) and len(named) > 20  # readable: its start
        assert re.fullmatch(r".*~[0-9a-f]{16}", named)
        assert folder_value("table", value) == named  # stable
    assert folder_value("table", "x" * 300) != folder_value("table", "x" * 299 + "y")
    assert folder_value("table", "Bellatrix III") == "Bellatrix III"  # short: as it is
    cut = folder_value("table", "y" * 400)
    assert folder_value("table", cut) != cut  # a name shaped like a cut one cannot take it


def _quoted(value: str) -> str:
    from urllib.parse import quote

    return quote(value, safe="")


def test_long_table_names_partition_and_read_back_exactly(
    session: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    names = ["T" * 300, "中文桌子" * 7, "Bellatrix III", "T" * 299 + "U"]
    src = tmp_path / "long.txt"
    given = _renamed_tables(session, src, names)
    out = tmp_path / "out"
    argv = ["parse", "-j", "1", str(src), "-o", str(out), "--partition-by", "site,table"]
    assert main([*argv, "--audit"]) == 0
    assert "Wrote" in capsys.readouterr().out
    folders = {p.name for p in (out / "hands").glob("site=*/table=*")}
    assert len(folders) == len(names)  # one each: the two long T names stay apart
    assert all(len(f.encode()) <= FOLDER_BYTES for f in folders)
    assert "table=Bellatrix%20III" in folders
    tables = read_tables(out)
    assert sorted(tables["hands"]["table"].to_pylist()) == sorted(given)  # exact names
    assert EXACT_TABLE not in tables["hands"].column_names
    flat = tmp_path / "flat"
    assert main(["parse", "-j", "1", str(src), "-o", str(flat), "-q", "--audit"]) == 0
    want = read_tables(flat)
    for name, table in read_tables(out).items():
        order = [(c, "ascending") for c in table.column_names]
        assert table.sort_by(order).equals(want[name].sort_by(order)), name
    # the run is repeatable: the same folders
    again = tmp_path / "again"
    assert main([*argv[:5], str(again), *argv[6:], "-q"]) == 0
    assert {p.name for p in (again / "hands").glob("site=*/table=*")} == folders
    assert os.path.isfile(again / "_histkit.json")


# ------------------------------------------------------- item 7: control characters

#: every control character but the line end: none may reach a terminal from a name
_RAW = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029]")
#: a player name as XML writes it (ESC is no XML character: it comes in a file's name)
_XML_NAME = "H&#13;&#10;#1 FORGED&#9;&#x85;"
_SHOWN_NAME = "H\\r\\n#1 FORGED\\t\\x85"  # short enough not to be clipped
#: a file name that would clear the screen and forge a row of the report
_FILE_NAME = "evil\x1b[2J\r\nRejected fake.txt"


def test_terminal_text_escapes_every_control_character_and_nothing_else() -> None:
    from histkit.textsafe import clip, terminal_lines, terminal_text

    assert terminal_text("a\x1b[2Jb\r\n\tc\x00\x7f\x85\u2028") == (
        "a\\x1b[2Jb\\r\\n\\tc\\x00\\x7f\\x85\\u2028"
    )
    for plain in ("Jürgen", "中文桌子", "Bellatrix III", "\u202eevil", "a\\nb", ""):
        assert terminal_text(plain) is plain  # printable text is left as it is
    assert terminal_lines(["one\ntwo", "three"]) == "one\\ntwo\nthree\n"
    assert clip("x\x1b" * 20, 10) == "x\\x1bx\\x1…"  # escaped, then cut


def _hostile_inputs(folder: Path) -> tuple[Path, Path]:
    """A folder holding an iPoker file of faulty hands whose hero's name holds CR, LF,
    TAB and NEL, and a PokerStars file, with a hand the parser rejects, whose file name
    holds an ESC sequence and CR LF."""
    folder.mkdir()
    xml = folder / "faults.xml"
    args = ["simulate", "--site", "ipoker", "--hands", "60", "--players", "4", "--seed", "3"]
    assert main([*args, "--faults", "0.3", "-q", "-o", str(xml)]) == 0
    xml.write_text(xml.read_text(encoding="utf-8").replace("Hero", _XML_NAME), encoding="utf-8")
    for extra in folder.glob("faults.truth.jsonl"):
        extra.unlink()
    plain = folder.parent / "plain.txt"
    assert (
        main(["simulate", "--hands", "4", "--players", "3", "--seed", "2", "-q", "-o", str(plain)])
        == 0
    )
    # a header line garbled: the hand cannot be read (a later line would be left out)
    text = plain.read_text(encoding="utf-8").replace("Table '", "Tabel '", 1)
    (folder / _FILE_NAME).write_text(text, encoding="utf-8")
    return xml, folder / _FILE_NAME


def _clean(out: str) -> str:
    assert not _RAW.search(out), _RAW.findall(out)
    return out


@pytest.mark.slow
def test_no_control_character_reaches_the_terminal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "in"
    xml, evil = _hostile_inputs(folder)
    capsys.readouterr()

    assert main(["audit", str(folder), "-j", "1", "-q"]) == 1
    out = _clean(capsys.readouterr().out)
    assert _SHOWN_NAME in out and "evil\\x1b[2J\\r\\nRejected fake.txt:2" in out
    assert not any(line.startswith("Rejected fake") for line in out.splitlines())  # no forged row
    as_json = ["--format", "json", "-o", str(tmp_path / "a.json")]
    assert main(["audit", str(folder), "-j", "1", "-q", *as_json]) == 1
    _clean(capsys.readouterr().err)

    assert main(["stats", str(xml), "-j", "1", "-q"]) == 0
    out = _clean(capsys.readouterr().out)
    assert sum(_SHOWN_NAME in line for line in out.splitlines()) == 1  # the name's one row
    assert main(["stats", str(xml), "-j", "1", "-q", "--player", "H\r\n#1 FORGED\t\x85"]) == 0
    _clean(capsys.readouterr().out)

    assert main(["parse", str(folder), "-j", "1", "-q", "-o", str(tmp_path / "t")]) == 0
    assert main(["parse", str(folder), "-j", "1", "-o", str(tmp_path / "t")]) == 0
    out = _clean(capsys.readouterr().out)
    assert "evil\\x1b[2J\\r\\nRejected fake.txt" in out

    db = str(tmp_path / "h.duckdb")
    assert main(["import", str(folder), "--db", db, "-j", "1"]) == 0
    assert "evil\\x1b[2J" in _clean(capsys.readouterr().out)
    assert main(["db", "--db", db]) == 0
    assert "evil\\x1b[2J" in _clean(capsys.readouterr().out)
    assert main(["stats", "--db", db, "-q"]) == 0
    assert _SHOWN_NAME in _clean(capsys.readouterr().out)

    # a usage error naming a path, and the watch's status line naming the last file
    assert main(["audit", str(tmp_path / "no\x1b[2Jsuch")]) == 2
    err = capsys.readouterr().err
    assert "no\\x1b[2Jsuch" in err and err.count("\n") == 1 and not _RAW.search(err)

    import io

    from histkit.db.watch import Watcher

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    screen = Tty()
    watcher = Watcher([folder], db=str(tmp_path / "w.duckdb"), out=screen)
    watcher.run(polls=1)
    watcher.close()
    shown = screen.getvalue()
    assert "evil\\x1b[2J" in shown or "faults.xml" in shown
    assert _RAW.sub("", shown.replace("\r\x1b[K", "")) == shown.replace("\r\x1b[K", "")


# ----------------------------------------------------- item 7: exit status, full disk


def test_an_internal_error_exits_3_with_one_line_and_a_saved_traceback(
    session: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import histkit.audit

    def bug(*args: object, **kw: object) -> None:
        raise RuntimeError("a bug\x1b[2J\nsecond line")

    logs = tmp_path / "logs"
    monkeypatch.setenv("HISTKIT_LOG_DIR", str(logs))
    monkeypatch.setattr(histkit.audit, "audit_paths", bug)
    assert main(["audit", str(session), "-q", "-j", "1"]) == 3  # not 1: no violation found
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err and not _RAW.search(err)
    assert err.startswith("histkit audit: internal error (RuntimeError: a bug\\x1b[2J); a bug")
    (saved,) = logs.iterdir()
    assert str(saved) in err
    text = saved.read_text(encoding="utf-8")
    assert (
        "Traceback" in text
        and "RuntimeError: a bug\x1b[2J\nsecond line" in text
        and "in bug" in text
    )
    assert f"command: histkit audit {session} -q -j 1" in text

    # no folder to save it in: the traceback follows the line, the status is the same
    monkeypatch.setenv("HISTKIT_LOG_DIR", str(session))  # a file, not a folder
    assert main(["audit", str(session), "-q", "-j", "1"]) == 3
    err = capsys.readouterr().err
    assert "not saved" in err.splitlines()[0] and "Traceback" in err

    # documented where a script's author looks
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "3 an internal error" in capsys.readouterr().out
    readme = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    assert "3 an internal error" in readme


def _tree(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def test_a_full_disk_during_parse_leaves_the_earlier_result(
    session: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import pyarrow.parquet as pq

    import histkit.warehouse

    out = tmp_path / "out"
    argv = ["parse", "-j", "1", str(session), "-o", str(out), "-q", "--batch-size", "10"]
    assert main(argv) == 0
    before = _tree(out)

    def full(*args: object, **kw: object) -> None:  # as pyarrow says it: no errno
        raise OSError("Error writing bytes to file. Detail: [errno 28] No space left on device")

    real_write = pq.ParquetWriter.write_table
    writes = [0]

    def write_table(self: pq.ParquetWriter, *args: object, **kw: object) -> None:
        writes[0] += 1
        if writes[0] > 2:  # two tables written, then the disk is full
            full()
        real_write(self, *args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(pq.ParquetWriter, "write_table", write_table)
    assert main(argv) == 2, writes
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no space left on the disk" in err and str(out) in err
    assert _tree(out) == before  # whole, not grown: no staging folder left behind
    monkeypatch.setattr(pq.ParquetWriter, "write_table", real_write)

    # full when the completion record is written: the earlier result is still whole
    monkeypatch.setattr(histkit.warehouse, "atomic_write_text", full)
    assert main([*argv, "--audit"]) == 2
    assert "no space left on the disk" in capsys.readouterr().err
    assert _tree(out) == before
    # a new folder the run made goes with it
    assert main(["parse", "-j", "1", str(session), "-o", str(tmp_path / "new"), "-q"]) == 2
    assert not (tmp_path / "new").exists()


def _db_state(db: Path) -> tuple[bytes, list[str]]:
    return db.read_bytes(), sorted(p.name for p in db.parent.iterdir())


def test_a_full_disk_during_import_leaves_the_database(
    session: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import duckdb
    import pyarrow.ipc

    import histkit.db.store
    from histkit.db.store import Store

    first, second = tmp_path / "first.txt", tmp_path / "second.txt"
    assert main(["simulate", "--hands", "20", "--seed", "11", "-q", "-o", str(first)]) == 0
    second.write_bytes(session.read_bytes())
    folder = tmp_path / "db"
    folder.mkdir()
    db = folder / "hands.duckdb"
    assert main(["import", str(first), "--db", str(db), "-q", "-j", "1"]) == 0
    before = _db_state(db)

    # the database's disk fills while the rows are inserted (some already are)
    real_insert = Store._insert
    inserts = [0]

    def insert(self: Store, name: str, table: object) -> None:
        inserts[0] += 1
        if inserts[0] > 3:
            raise duckdb.IOException(
                f'IO Error: Could not write file "{db}.wal": No space left on device'
            )
        real_insert(self, name, table)  # type: ignore[arg-type]

    monkeypatch.setattr(Store, "_insert", insert)
    assert main(["import", str(second), "--db", str(db), "-q", "-j", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert f"cannot write the database {db}: no space left on the disk" in err
    assert _db_state(db) == before  # as it was, not grown
    monkeypatch.setattr(Store, "_insert", real_insert)

    # the temporary folder fills while the rows are staged: not the database's fault
    def new_file(*args: object, **kw: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(histkit.db.store, "BATCH_HANDS", 5)  # staged to disk early
    monkeypatch.setattr(pyarrow.ipc, "new_file", new_file)
    assert main(["import", str(second), "--db", str(db), "-q", "-j", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "temporary files" in err and "TMPDIR" in err
    assert "cannot write the database" not in err
    assert _db_state(db) == before
    import tempfile

    assert not list(Path(tempfile.gettempdir()).glob(f"histkit-import-{os.getpid()}-*"))

    # with room again, the same import goes through
    monkeypatch.undo()
    assert main(["import", str(second), "--db", str(db), "-q", "-j", "1"]) == 0
    assert _db_state(db) != before
