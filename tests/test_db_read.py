"""`stats`, `report` and `audit` read hand histories, folders of tables (flat or
partitioned) and the hand database (`--db`) alike: the same figures, the same filters,
the same audit verdict whichever the source (issue 13, part C)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from histkit.cli import main
from histkit.simulate import write_session
from histkit.tables import AUDIT_TABLES, SCHEMAS
from tests.conftest import SAMPLE_DATA

duckdb = pytest.importorskip("duckdb")

FAULTS = SAMPLE_DATA / "stud_hilo_faults_200.txt"


@dataclass(frozen=True)
class Sources:
    """The same hands four ways: hand histories, flat tables, partitioned tables, a DB."""

    text: list[str]
    flat: Path
    part: Path
    db: Path

    def argv(self, kind: str) -> list[str]:
        if kind == "text":
            return list(self.text)
        if kind == "db":
            return ["--db", str(self.db)]
        return [str(self.flat if kind == "flat" else self.part)]


KINDS = ("text", "flat", "part", "db")
TABLES = ("flat", "part", "db")  # the kinds that are read, not parsed


def make_db(out: Path, file: Path, *, audit: bool = True, site_columns: bool = True) -> Path:
    """A hand database with the tables of the parse result `out` (flat), as `histkit
    import` writes one: the same table names and columns, the audit's tables empty when
    imported without it; without `site_columns`, child tables have no `site` (as an
    older histkit wrote them)."""
    con = duckdb.connect(str(file))
    try:
        for name, schema in SCHEMAS.items():
            if name in AUDIT_TABLES and not audit:
                table = schema.empty_table()
            else:
                table = pq.read_table(out / f"{name}.parquet")
            if not site_columns and name not in ("hands", "errors") and "site" in schema.names:
                table = table.drop_columns(["site"])
            con.register("incoming", table)
            con.execute(f"CREATE TABLE {name} AS SELECT * FROM incoming")
            con.unregister("incoming")
        # every histkit database has its `meta` from the first version on
        con.execute("CREATE TABLE meta (key VARCHAR, value VARCHAR)")
        con.execute("INSERT INTO meta VALUES ('schema_version', '1')")
    finally:
        con.close()
    return file


def import_db(paths: list[str], flat: Path, file: Path, *, audit: bool = True) -> Path:
    """The database `histkit import` makes of `paths` (by hand from the parse result `flat`
    where this histkit has no importer yet)."""
    try:
        from histkit.db import import_paths
    except ImportError:
        return make_db(flat, file, audit=audit)
    import_paths(paths, db=file, audit=audit, jobs=1)
    return file


def _parse(paths: list[str], out: Path, *extra: str) -> Path:
    assert main(["parse", *paths, "-o", str(out), "-q", "--jobs", "1", *extra]) == 0
    return out


@pytest.fixture(scope="module")
def sources(tmp_path_factory: pytest.TempPathFactory) -> Sources:
    """Three days of cash stud (2024-06-12/13), a hi/lo tournament (2024-06-04) and a
    Full Tilt razz session (2024-06-18): sites, games, cash and tournament, days."""
    d = tmp_path_factory.mktemp("sources")
    ft = d / "fulltilt_razz.txt"
    write_session(ft, "razz", 40, seed=3, site="fulltilt")
    text = [
        str(SAMPLE_DATA / "stud_cash_200.txt"),
        str(SAMPLE_DATA / "stud_hilo_tournament_150.txt"),
    ]
    text.append(str(ft))
    flat = _parse(text, d / "flat", "--audit")
    part = _parse(text, d / "part", "--audit", "--partition-by", "game,date")
    return Sources(text, flat, part, import_db(text, flat, d / "hands.duckdb"))


@pytest.fixture(scope="module")
def faults(tmp_path_factory: pytest.TempPathFactory) -> Sources:
    """The planted-fault sample, audited at parse time, four ways."""
    d = tmp_path_factory.mktemp("faults")
    flat = _parse([str(FAULTS)], d / "flat", "--audit")
    part = _parse([str(FAULTS)], d / "part", "--audit", "--partition-by", "game,date")
    return Sources([str(FAULTS)], flat, part, import_db([str(FAULTS)], flat, d / "f.duckdb"))


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    rc = main(list(argv))
    got = capsys.readouterr()
    return rc, got.out, got.err


def each(
    capsys: pytest.CaptureFixture[str],
    s: Sources,
    command: str,
    *argv: str,
    kinds: tuple[str, ...] = KINDS,
) -> Iterator[tuple[str, int, str]]:
    for kind in kinds:
        rc, out, err = run(capsys, command, *s.argv(kind), *argv, "--jobs", "1")
        yield kind, rc, out


# ------------------------------------------------------------------------------ stats


@pytest.mark.slow
def test_stats_give_the_same_figures_from_every_source(
    sources: Sources, capsys: pytest.CaptureFixture[str]
) -> None:
    """Hand histories, flat and partitioned tables, and the database: the same figures
    (every figure is in the JSON; the other formats only lay them out)."""
    outs = {kind: out for kind, rc, out in each(capsys, sources, "stats", "--format", "json")}
    assert len(set(outs.values())) == 1, {k: v[:300] for k, v in outs.items()}
    for fmt in ("csv", "text"):
        laid = {out for _, _, out in each(capsys, sources, "stats", "--format", fmt, kinds=TABLES)}
        assert len(laid) == 1, fmt
    rows = json.loads(outs["db"])
    moneys = {str(r["money"]) for r in rows}
    assert "USD" in moneys and len(rows) > 10
    chips = moneys - {"USD"}  # one unit per tournament
    assert len(chips) > 1 and all(m.startswith("chips T") for m in chips)
    assert any(r["hilo_scooped"] for r in rows)  # the stored audit is read (hi/lo outcomes)


FILTERS: list[list[str]] = [
    ["--site", "fulltilt"],
    ["--site", "pokerstars", "--cash"],
    ["--tournament"],
    ["--cash", "--game", "stud"],
    ["--until", "2024-06-12"],
    ["--since", "2024-06-13", "--until", "2024-06-13"],
    ["--since", "2024-06-12T20:00", "--game", "stud"],
    ["--player", "Hero", "--by", "game"],
    ["--stakes", "0.10/0.20", "--site", "pokerstars"],
]


@pytest.mark.slow
@pytest.mark.parametrize("flags", FILTERS, ids=" ".join)
def test_filters_give_the_same_figures_from_every_source(
    sources: Sources, flags: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    outs = {}
    argv = (*flags, "--format", "json", "--no-audit")
    for kind, rc, out in each(capsys, sources, "stats", *argv, kinds=("text", "part", "db")):
        assert rc == 0, kind
        outs[kind] = json.loads(out)
    assert outs["text"], flags  # each filter keeps some hands ...
    assert outs["text"] == outs["part"] == outs["db"], flags
    seats = sum(r["hands"] for r in outs["db"])
    assert seats < pq.read_table(sources.flat / "seats.parquet").num_rows  # ... not all


@pytest.mark.slow
def test_until_includes_its_whole_day(sources: Sources, capsys: pytest.CaptureFixture[str]) -> None:
    hands = pq.read_table(sources.flat / "hands.parquet").to_pandas()
    stud = hands[hands["game"].eq("stud")]
    on_12 = stud[stud["started_at"].dt.strftime("%Y-%m-%d").eq("2024-06-12")]
    assert len(on_12) > 100 and on_12["started_at"].dt.hour.max() >= 20  # late hands too
    seats = pq.read_table(sources.flat / "seats.parquet").to_pandas()
    mine = seats[seats["hand_id"].isin(on_12["hand_id"]) & seats["dealt_in"]]
    expected = mine.groupby("player").size().to_dict()
    argv = ["--game", "stud", "--until", "2024-06-12", "--format", "json", "--no-audit"]
    for kind in ("text", "db"):
        rc, out, _ = run(capsys, "stats", *sources.argv(kind), *argv)
        assert rc == 0 and {r["player"]: r["hands"] for r in json.loads(out)} == expected, kind
    # days without hands, and tournament days read as cash: nothing matches (exit 2)
    db = ["--db", str(sources.db)]
    rc, _, err = run(capsys, "stats", *db, "--since", "2024-06-05", "--until", "2024-06-11")
    assert rc == 2 and "no hands in the hand database" in err and "match --since" in err
    rc, _, err = run(capsys, "stats", *db, "--until", "2024-06-04", "--cash")
    assert rc == 2 and "match --until 2024-06-04 --cash" in err


def test_default_database_is_the_environment_s(
    sources: Sources, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HISTKIT_DB", str(sources.db))
    rc, out, _ = run(capsys, "stats", "--db", "--site", "fulltilt", "--format", "json")
    named = run(capsys, "stats", "--db", str(sources.db), "--site", "fulltilt", "--format", "json")
    assert rc == 0 and json.loads(out) and out == named[1]


@pytest.mark.slow
def test_report_reads_the_database(
    sources: Sources, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same report from the database as from the tables it was made of."""
    html = {}
    for kind in ("flat", "db"):
        out = tmp_path / f"{kind}.html"
        argv = [*sources.argv(kind), "--player", "Hero", "--site", "pokerstars", "--cash"]
        rc, _, err = run(capsys, "report", *argv, "--top", "1", "-o", str(out))
        assert rc == 0, err
        text = re.sub(r"Made by histkit on [^<]*", "", out.read_text(encoding="utf-8"))
        html[kind] = re.sub(r"data:image/[^\"']*", "", text)  # plots: ids differ per run
    assert html["flat"] == html["db"] and "Hero" in html["db"]


# ------------------------------------------------------------------------------ audit


def _audit_json(text: str) -> dict[str, object]:
    """An audit's JSON without what only an audit of the text can say (coverage details)
    or only a stored one (where it was stored)."""
    d = json.loads(text)
    d.pop("stored_audit", None)
    cov = d.pop("coverage")
    d["pots"] = (cov.get("pots"), cov.get("pots_decided"))
    return dict(d)


@pytest.mark.slow
def test_stored_audit_gives_the_audit_of_the_text(
    faults: Sources, capsys: pytest.CaptureFixture[str]
) -> None:
    """A folder parsed with --audit (flat or partitioned) and a database with the audit:
    the violations, the verdict and the exit status of auditing the text."""
    truth = [
        json.loads(line) for line in FAULTS.with_suffix(".truth.jsonl").read_text().splitlines()
    ]
    jsons = {
        kind: (rc, _audit_json(out))
        for kind, rc, out in each(capsys, faults, "audit", "--format", "json", "--info")
    }
    assert len({json.dumps(v, sort_keys=True) for v in jsons.values()}) == 1
    rc, report = jsons["db"]
    assert rc == 1 and report["hands"] == 200
    found = {(v["hand_id"], v["code"]) for v in report["violations"]}  # type: ignore[attr-defined]
    assert {(t["hand_id"], t["code"]) for t in truth} <= found
    csvs = {out for _, rc, out in each(capsys, faults, "audit", "--format", "csv")}
    assert len(csvs) == 1
    verdicts = {kind: out.splitlines()[-1] for kind, rc, out in each(capsys, faults, "audit")}
    assert len(set(verdicts.values())) == 1 and verdicts["db"].startswith("FAIL: 200 hands")
    rc, out, _ = run(capsys, "audit", str(faults.flat))
    assert f"Read the audit stored in {faults.flat}" in out


def _first_hands_with_faults(n: int) -> str:
    """The sample's text up to and including its `n`th hand with a planted fault."""
    truth = FAULTS.with_suffix(".truth.jsonl").read_text(encoding="utf-8").splitlines()
    text = FAULTS.read_text(encoding="utf-8")
    starts = sorted(text.index(f"PokerStars Hand #{json.loads(t)['hand_id']}:") for t in truth)
    at = starts[n - 1]
    following = text.find("PokerStars Hand #", at + 1)
    return text if following < 0 else text[:following]


def test_copies_are_counted_as_the_audit_of_the_text_counts_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A hand read twice is audited once: its copy's violations are not reported again,
    from a folder of tables (which stores every copy) or a database (which stores the
    copies apart, and a copy with another text as a conflict)."""
    text = _first_hands_with_faults(3)
    hands = text.count("PokerStars Hand #")
    first = tmp_path / "hh" / "a.txt"
    first.parent.mkdir()
    first.write_text(text, encoding="utf-8")
    (tmp_path / "hh" / "b.txt").write_text(text.replace("Table 'Vega X'", "Table 'Vega IX'", 1))
    flat = _parse([str(first.parent)], tmp_path / "flat", "--audit")
    db = import_db([str(first.parent)], flat, tmp_path / "copies.duckdb")
    got = {}
    inputs = {"text": [str(first.parent)], "flat": [str(flat)], "db": ["--db", str(db)]}
    for kind, argv in inputs.items():
        rc, out, _ = run(capsys, "audit", *argv, "--format", "json", "--jobs", "1")
        got[kind] = (rc, _audit_json(out))
    text_rc, text_report = got["text"]
    assert text_rc == 1 and len(text_report["violations"]) == 3  # type: ignore[arg-type]
    dup = text_report["duplicates"]
    assert dup["copies"] == dup["hands"] == hands and dup["different_text"] == 1  # type: ignore[index]
    assert got["db"] == got["text"]
    # a folder of tables keeps no text: its copies are all the same
    flat_dup = got["flat"][1].pop("duplicates")
    assert flat_dup == {**dup, "different_text": 0, "different_text_examples": []}  # type: ignore[dict-item]
    assert got["flat"][1] == {k: v for k, v in text_report.items() if k != "duplicates"}


@pytest.mark.parametrize(
    "flags",
    [
        ["--player", "{player}"],
        ["--until", "2024-07-29"],
        ["--cash", "--player", "{player}"],
        ["--site", "pokerstars", "--since", "2024-07-30", "--game", "stud_hilo"],
    ],
    ids=" ".join,
)
def test_audit_filters_agree(
    faults: Sources, flags: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """The filters pick the same hands of the text and of the stored audit (on hand
    histories --site says how to read them, so it filters only where it matches)."""
    flags = [f.format(player=_a_player(faults)) for f in flags]
    jsons = {
        kind: (rc, _audit_json(out))
        for kind, rc, out in each(capsys, faults, "audit", *flags, "--format", "json")
    }
    assert len({json.dumps(v, sort_keys=True) for v in jsons.values()}) == 1, flags
    everything = _audit_json(run(capsys, "audit", str(faults.flat), "--format", "json")[1])
    assert jsons["db"][1]["hands"] < everything["hands"]  # type: ignore[operator]


def _a_player(s: Sources) -> str:
    """The player with most hands in the sample, the hero aside."""
    seats = pq.read_table(s.flat / "seats.parquet").to_pandas()
    return str(seats[seats["player"] != "Hero"]["player"].value_counts().index[0])


@pytest.mark.slow
def test_a_database_of_an_older_histkit(
    faults: Sources, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Child tables without `site` (tables of an older histkit): read by hand id alone,
    with the same figures and the same audit."""
    old = make_db(faults.flat, tmp_path / "old.duckdb", site_columns=False)
    for argv in (["stats", "--format", "json"], ["audit", "--format", "json", "--info"]):
        for flags in ([], ["--player", _a_player(faults), "--until", "2024-07-29"]):
            got = {}
            for db in (old, faults.db):
                rc, out, _ = run(capsys, *argv, "--db", str(db), *flags)
                got[db] = (rc, _audit_json(out) if argv[0] == "audit" else out)
            assert got[old] == got[faults.db], (argv, flags)


@pytest.mark.slow
def test_folder_or_database_without_the_audit(
    sources: Sources, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    plain = _parse(sources.text[:1], tmp_path / "plain")
    rc, out, err = run(capsys, "audit", str(plain))
    assert rc == 2 and not out
    assert f"{plain} was parsed without --audit: run `histkit parse ... -o {plain} --audit`" in err
    db = import_db(sources.text[:1], plain, tmp_path / "plain.duckdb", audit=False)
    rc, _, err = run(capsys, "audit", "--db", str(db))
    assert rc == 2 and f"{db} holds no stored audit" in err
    # some hands imported with the audit, some without
    part = make_db(sources.flat, tmp_path / "part.duckdb")
    con = duckdb.connect(str(part))
    con.execute("DELETE FROM awards WHERE site = 'fulltilt'")
    con.close()
    rc, _, err = run(capsys, "audit", "--db", str(part))
    assert rc == 2 and f"40 of the 390 hands in {part} were imported with --no-audit" in err
    assert run(capsys, "audit", "--db", str(part), "--site", "pokerstars")[0] == 0
    # statistics need no audit: the same figures as the text without one
    a = run(capsys, "stats", "--db", str(db), "--format", "json")
    b = run(capsys, "stats", sources.text[0], "--format", "json", "--no-audit")
    assert a[0] == b[0] == 0 and a[1] == b[1]


# ------------------------------------------------------------------------- usage errors


def test_usage_errors_are_one_line_and_exit_2(
    sources: Sources, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nowhere" / "hands.duckdb"
    db = ["--db", str(sources.db)]
    cases: list[tuple[list[str], str]] = [
        (
            ["stats", "--db", str(missing)],
            f"no hand database at {missing}: create one with `histkit import PATH --db {missing}`",
        ),
        (["audit", "--db", str(missing)], f"no hand database at {missing}"),
        (["report", "--db", str(missing), "-o", str(tmp_path / "r.html")], "histkit import"),
        (["stats", sources.text[0], *db], "give either --db or paths, not both"),
        (["audit", sources.text[0], *db], "give either --db or paths, not both"),
        (
            ["stats", sources.text[0], str(sources.flat)],
            f"tables in {sources.flat}; hand histories in {sources.text[0]}",
        ),
        (
            ["audit", str(sources.part), sources.text[0]],
            "give either hand histories or folders of tables",
        ),
        (["stats", str(sources.db)], "a hand database is read with --db FILE, not as a PATH"),
        (["stats", "--db", str(sources.flat)], "is a folder, not a hand database file"),
        (["audit", "--db", sources.text[0]], f"{sources.text[0]} is not a DuckDB database"),
        (["stats"], "give hand-history files or folders, folders of tables, or --db"),
        (["audit"], "give hand-history files or folders, folders of tables, or --db"),
        (["stats", *db, "--until", "12/06/2024"], "--until: expected a day YYYY-MM-DD"),
        (["audit", *db, "--since", "2024-6-1"], "--since: expected a day YYYY-MM-DD"),
        (
            ["stats", *db, "--since", "2024-06-13", "--until", "2024-06-12"],
            "--until (2024-06-12 23:59) is before --since",
        ),
        (["stats", *db, "--site", "nosuch"], "--site: unknown site 'nosuch'"),
        (["audit", *db, "--profile", "casino"], "--profile: the hand database"),
        (
            ["audit", str(sources.flat), "--profile", "casino"],
            "audit the hand histories to apply other rules",
        ),
    ]
    for argv, said in cases:
        rc, out, err = run(capsys, *argv)
        assert rc == 2, argv
        assert said in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err, (
            argv,
            err,
        )
    with pytest.raises(SystemExit) as e:  # argparse's own: one of two
        main(["stats", *db, "--cash", "--tournament"])
    assert e.value.code == 2


def test_help_shows_a_database_and_a_folder_of_tables(capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("stats", "report", "audit"):
        with pytest.raises(SystemExit):
            main([command, "--help"])
        text = capsys.readouterr().out
        examples = text[text.index("examples:") :]
        assert f"histkit {command} --db" in examples and f"histkit {command} out/" in examples
        assert "--db [FILE]" in text and "--cash" in text and "--since DAY" in text
