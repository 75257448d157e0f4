"""Statistics as a player reviewing with a tracker expects them (issue 15, "Seen" and
"What players expect"): money never mixed, groupings that hold in every section, stakes
written as they are printed, sessions and tournaments."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest

from histkit.cli import main
from histkit.stats import load, player_stats, seat_facts
from histkit.tournaments import tournament_results, tournament_summary
from tests.conftest import CORPUS, SAMPLE_DATA, needs_corpus

CASH = SAMPLE_DATA / "stud_hilo_cash_hero_500.txt"
TOURNAMENT = SAMPLE_DATA / "stud_hilo_tournament_150.txt"


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    rc = main([*argv, "-q"])
    got = capsys.readouterr()
    return rc, got.out, got.err


def rows(capsys: pytest.CaptureFixture[str], *argv: str) -> list[dict[str, object]]:
    rc, out, err = run(capsys, "stats", *argv, "--format", "json")
    assert rc == 0, err
    return list(json.loads(out))


# ------------------------------------------------------------------------ money


@needs_corpus
def test_a_header_with_only_a_currency_symbol_is_that_currency(corpus_dir: Path) -> None:
    """2009 PokerStars: "($0.04/$0.08)" with no code is dollars, not 'no currency'."""
    t = load([corpus_dir / "stud-hi" / "7-Stud-USD-0.04-0.08-200907.Missing.Showdown.Card.txt"])
    assert t["hands"]["currency"].to_pylist() == ["USD"]
    assert t["hands"]["money_unit"].to_pylist() == ["USD"]
    assert set(player_stats(t)["money"]) == {"USD"}


def test_two_tournaments_chips_are_never_added(capsys: pytest.CaptureFixture[str]) -> None:
    mine = rows(capsys, str(TOURNAMENT), "--player", "Hero")
    units = [r["money_unit"] for r in mine]
    assert len(units) == len(set(units)) > 1 and all(u.startswith("chips:") for u in units)
    facts = seat_facts(load([TOURNAMENT]))
    hero = facts[facts["player"] == "Hero"]
    for r in mine:
        part = hero[hero["money_unit"] == r["money_unit"]]
        assert r["net"] == int(part["net"].sum()) and r["hands"] == len(part)


@pytest.mark.slow
def test_cash_and_tournament_rows_apart(capsys: pytest.CaptureFixture[str]) -> None:
    both = rows(capsys, str(CASH), str(TOURNAMENT), "--player", "Hero")
    assert {r["money"] for r in both if not str(r["money_unit"]).startswith("chips:")} == {"USD"}
    cash = rows(capsys, str(CASH), str(TOURNAMENT), "--player", "Hero", "--cash")
    assert [r["money"] for r in cash] == ["USD"]


# --------------------------------------------------------------------- grouping


@pytest.mark.slow
def test_starting_hands_follow_the_grouping(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, _ = run(capsys, "stats", str(SAMPLE_DATA), "--player", "Hero", "--by", "stakes")
    assert rc == 0
    sections = re.split(r"\n== ", out)[1:]
    dime = [s for s in sections if "stakes $0.10/$0.20 USD" in s.splitlines()[0]]
    assert len(dime) == 1  # the $0.10/$0.20 sample is stud only
    table = dime[0].split("starting hands (known 3rd-street cards)")[1].splitlines()[1:]
    cats = [line.split()[0] for line in table if line.startswith("  ")]
    assert cats and set(cats) == {"stud"}


def test_tournament_levels_sort_by_size(capsys: pytest.CaptureFixture[str]) -> None:
    mine = rows(capsys, str(TOURNAMENT), "--player", "Hero", "--by", "stakes")
    for unit in {r["money_unit"] for r in mine}:
        levels = [str(r["stakes"]) for r in mine if r["money_unit"] == unit]
        bigs = [int(level.split("/")[1].replace(",", "")) for level in levels]
        assert bigs == sorted(bigs), levels


@pytest.mark.slow
@pytest.mark.parametrize(
    "written", ["$0.04/$0.08", "$0.04/$0.08 USD", "0.04/0.08", "$0.04/$0.08 usd", "0.04 / 0.08"]
)
def test_stakes_as_they_are_printed(written: str, capsys: pytest.CaptureFixture[str]) -> None:
    mine = rows(capsys, str(SAMPLE_DATA), "--player", "Hero", "--stakes", written)
    assert [r["money"] for r in mine] == ["USD"] and mine[0]["hands"] == 900


def test_stakes_of_a_hand_without_a_currency_are_plain_numbers(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A cash hand whose header names no currency: its stakes are the amounts, never
    '0.04 nan/0.08 nan' (pandas gives the missing code as NaN)."""
    from histkit.report import build_report
    from histkit.tables import tables_from

    from .stud_builder import build

    hand = build("nc1", seats="A:1:100 B:2:100", streets={3: "A bring_in 2; B fold"},
                 cards={"A": "?? ?? 2c", "B": "?? ?? 9d"}, collects="A:4",
                 currency=None)  # fmt: skip
    st = player_stats(tables_from([hand]), by="stakes")
    assert set(st["stakes"]) == {"0.04/0.08"}
    assert set(st["money"]) == {"unknown currency (pokerstars)"}
    text = build_report(tables_from([hand]), "A")
    assert "stud 0.04/0.08 · " in text and "nan" not in re.sub(r'src="[^"]*"', "", text)


@pytest.mark.slow
@pytest.mark.skipif(not (CORPUS / "kingsclub").is_dir(), reason="../shared/hands is absent")
def test_kings_club_stakes(capsys: pytest.CaptureFixture[str]) -> None:
    """Kings Club writes amounts with no currency ("#39969428: Limit Seven Card Stud Hi-Lo
    - 40/80"): stakes and amounts are plain numbers, in the table and in the report."""
    kings = str(CORPUS / "kingsclub")
    rc, out, err = run(capsys, "stats", kings, "--by", "stakes")
    assert rc == 0, err
    assert "40.00/80.00" in out and "44.00/88.00" in out and "nan" not in out
    assert {str(r["stakes"]) for r in rows(capsys, kings, "--by", "stakes")} == {
        "40.00/80.00",
        "44.00/88.00",
    }
    from histkit.report import build_report

    text = build_report(load([kings], audit=True), "Hero")
    headers = re.findall(r"<h3>Hand #.*?</h3>", text)
    assert headers and all("nan" not in h for h in headers)
    assert any(" 40.00/80.00 · " in re.sub(r"<[^>]+>", "", h) for h in headers)


def test_stakes_that_match_nothing_do_not_blame_the_player(
    capsys: pytest.CaptureFixture[str],
) -> None:
    rc, _, err = run(capsys, "stats", str(CASH), "--player", "Hero", "--stakes", "$5/$10")
    assert rc == 2 and "no hands match --player Hero --stakes $5/$10" in err
    assert "no hands of a player" not in err


@pytest.mark.parametrize("command", ["stats", "report"])
@pytest.mark.parametrize("written", ["garbage", "1/2/3", "$0.04", " "])
def test_stakes_in_no_form_of_stakes_are_a_usage_error(
    command: str,
    written: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Said before any hand is read, naming the forms, not "no hands match" after."""

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("hands were read before --stakes was checked")

    monkeypatch.setattr("histkit.sources.load", refuse)
    rc, _, err = run(capsys, command, str(CASH), "--stakes", written, "-o", str(tmp_path / "x"))
    assert rc == 2 and len(err.strip().splitlines()) == 1, err
    assert "--stakes" in err and "no hands match" not in err
    assert ('"$0.04/$0.08 USD"' in err) == bool(written.strip())


@pytest.mark.slow
@needs_corpus
def test_every_stakes_label_printed_is_a_stakes_filter(
    corpus_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """What --by stakes prints on every site's hands, given back to --stakes, keeps those
    hands (a cash game of no known currency is "40.00/80.00", not "40.00 nan/80.00 nan")."""
    from histkit.money import is_stakes

    where = str(corpus_dir.parent)
    found = rows(capsys, where, "--by", "stakes", "--no-audit")
    labels = {str(r["stakes"]) for r in found}
    assert not any("nan" in label for label in labels), labels
    assert "40.00/80.00" in labels and all(is_stakes(label) for label in labels)
    for label in ("40.00/80.00", "€25.00/€50.00 EUR", "1,000/2,000", "0.05 PLAY/0.10 PLAY"):
        kept = rows(capsys, where, "--stakes", label, "--no-audit")
        assert sum(int(r["hands"]) for r in kept) == sum(
            int(r["hands"]) for r in found if r["stakes"] == label
        ), label


@pytest.mark.slow
def test_the_text_table_shows_the_largest_samples_first(
    capsys: pytest.CaptureFixture[str],
) -> None:
    rc, out, _ = run(capsys, "stats", str(SAMPLE_DATA))
    lines = out.splitlines()
    end = lines[0].index(" hands") + len(" hands")  # numbers are right-aligned to it
    table = lines[2 : lines.index("")]
    hands = [int(line[:end].split()[-1].replace(",", "")) for line in table]
    assert len(hands) == 25 and hands == sorted(hands, reverse=True)
    assert "25 of" in out and "--limit 0 shows all" in out
    rc, out, _ = run(capsys, "stats", str(SAMPLE_DATA), "--limit", "0", "--sort", "name")
    assert "shown" not in out.split("\n\n")[-1].splitlines()[0]


@pytest.mark.slow
def test_duplicates_are_one_summary_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "a.txt").write_bytes(CASH.read_bytes())
    (tmp_path / "b.txt").write_bytes(CASH.read_bytes())
    rc, _, err = run(capsys, "stats", str(tmp_path))
    assert rc == 0
    notes = [line for line in err.splitlines() if line.startswith("note:")]
    assert notes == [notes[0]] and "500 hands read more than once" in notes[0]


# ---------------------------------------------------------------------- sessions


@pytest.mark.slow
def test_sessions_split_at_a_gap(capsys: pytest.CaptureFixture[str]) -> None:
    files = [str(CASH), str(SAMPLE_DATA / "stud_cash_200.txt")]  # played on other days
    mine = rows(capsys, *files, "--player", "Hero", "--by", "session")
    assert len(mine) > 1 and sum(int(r["hands"]) for r in mine) == 700
    starts = [str(r["session_start"]) for r in mine]
    assert starts == sorted(starts)
    facts = seat_facts(load(files))
    hero = facts[facts["player"] == "Hero"].sort_values("started_at")
    gaps = hero["started_at"].diff().dt.total_seconds().div(60).gt(30).sum()
    assert len(mine) == gaps + 1  # a new session at every gap over 30 minutes
    for r in mine:
        if r["minutes"]:
            # minutes are printed to a tenth: the rate is from the exact span
            assert r["per_hour"] == pytest.approx(
                int(r["net"]) * 60 / float(r["minutes"]), rel=0.01
            )
    wide = rows(capsys, *files, "--player", "Hero", "--by", "session", "--session-gap", "99999")
    assert len(wide) == 1


# -------------------------------------------------------------------- tournaments


def test_tournament_results_and_summary(capsys: pytest.CaptureFixture[str]) -> None:
    facts = seat_facts(load([TOURNAMENT]))
    results = tournament_results(facts[facts["player"] == "Hero"])
    assert len(results) == facts[facts["player"] == "Hero"]["money_unit"].nunique()
    text = TOURNAMENT.read_text()
    for r in results.itertuples():
        header = re.search(rf"Tournament #{r.tournament_id}, (\S+) USD", text)
        assert header is not None
        buy, fee = header.group(1).split("+")
        assert r.buy_in == round(float(buy[1:]) * 100) and r.fee == round(float(fee[1:]) * 100)
        finish = re.search(r"Hero finished the tournament in (\d+)\w\w place", _of(text, r))
        assert (None if finish is None else int(finish.group(1))) == (
            None if r.place is None or str(r.place) == "<NA>" else int(r.place)
        )
    summary = tournament_summary(results).iloc[0]
    ended = results[results["result"].notna()]
    assert summary["ended"] == len(ended)
    assert summary["net"] == int(ended["result"].sum())
    assert summary["cost"] == int((ended["buy_in"] + ended["fee"]).sum())
    rc, out, _ = run(capsys, "stats", str(TOURNAMENT), "--player", "Hero", "--tournaments")
    assert rc == 0 and "ROI" in out and "in the money" in out


@pytest.mark.slow
def test_a_tournament_with_no_known_finish_shows_its_buy_in_not_zero_cost(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Players whose finish no hand writes: their buy-ins and fees are known and shown; the
    cost, prizes and net of ended tournaments are unknown ('-', null), not $0.00."""
    results = tournament_results(seat_facts(load([TOURNAMENT])))
    summary = tournament_summary(results).set_index("player")
    open_ = results[results["result"].isna()].groupby("player")["tournament_id"].nunique()
    never = [
        p for p in open_.index if p not in set(results.loc[results["result"].notna(), "player"])
    ]
    assert never, "the sample has players whose finish is not written"
    for p in never:
        mine = results[results["player"] == p]
        s = summary.loc[p]
        assert s["ended"] == 0 and s["buy_ins"] == int((mine["buy_in"] + mine["fee"]).sum()) > 0
        assert all(s[c] is pd.NA for c in ("cost", "prizes", "net"))
    ended = summary[summary["ended"] > 0]
    assert (ended["cost"] > 0).all() and (ended["buy_ins"] >= ended["cost"]).all()
    rc, out, _ = run(capsys, "stats", str(TOURNAMENT), "--tournaments", "--player", never[0])
    line = next(x for x in out.splitlines() if x.startswith(f"{never[0]}, USD:"))
    assert "cost $0.00" not in line and "cost -, prizes -, net -" in line
    assert f"(buy-ins and fees ${int(summary.loc[never[0], 'buy_ins']) / 100:.2f})" in line
    rc, out, _ = run(capsys, "stats", str(TOURNAMENT), "--tournaments", "--format", "json")
    got = {r["player"]: r for r in json.loads(out)["summary"]}
    assert got[never[0]]["cost"] is None and got[never[0]]["buy_ins"] > 0
    html = tmp_path / "r.html"
    assert main(["report", str(TOURNAMENT), "--player", never[0], "-o", str(html)]) == 0
    text = html.read_text(encoding="utf-8")
    assert "with a known finish · cost – · net –" in text and "cost $0.00" not in text


def _of(text: str, r: object) -> str:
    """The text of one tournament's hands."""
    tid = r.tournament_id  # type: ignore[attr-defined]
    hands = [h for h in text.split("\n\n\n") if f"Tournament #{tid}," in h]
    return "\n".join(hands)


@needs_corpus
def test_tournament_summary_on_the_real_corpus(
    corpus_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rc, out, _ = run(capsys, "stats", str(corpus_dir.parent), "--tournaments", "--format", "json")
    assert rc == 0
    got = json.loads(out)
    ids = {(r["site"], r["tournament_id"]) for r in got["tournaments"]}
    assert ("pokerstars", "3540610518") in ids and ("ipoker", "699476041") in ids
    horse = next(r for r in got["tournaments"] if r["tournament_id"] == "3540610518")
    assert (horse["buy_in"], horse["fee"], horse["currency"]) == (98, 12, "USD")


@pytest.mark.slow
@needs_corpus
def test_sessions_on_the_real_corpus(corpus_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    mine = rows(capsys, str(corpus_dir.parent), "--by", "session", "--player", "s0rrow")
    assert mine and all(r["money"] == "USD" for r in mine)
    assert sum(int(r["hands"]) for r in mine) == sum(
        int(r["hands"]) for r in rows(capsys, str(corpus_dir.parent), "--player", "s0rrow")
    )


def _text_sessions(out: str) -> list[tuple[str, str, str]]:
    """(player, session, start) of each row of the text table of `--by session`."""
    lines = out.splitlines()
    assert lines[0].split()[:5] == ["player", "money", "session", "start", "(UTC)"], lines[0]
    cut = [i for i, c in enumerate(lines[1]) if c == " " and lines[1][i - 1] == "-"]
    table = lines[2 : lines.index("")]
    return [
        (line[: cut[0]].strip(), line[cut[1] : cut[2]].strip(), line[cut[2] : cut[3]].strip())
        for line in table
    ]


def _json_sessions(found: list[dict[str, object]]) -> set[tuple[str, str, str]]:
    def minute(v: object) -> str:  # hands without a time are in a session without a start
        return "-" if v is None else str(v)[:16].replace("T", " ")

    sites: dict[str, set[str]] = {}
    for r in found:
        sites.setdefault(str(r["player"]), set()).add(str(r["site"]))

    def name(r: dict[str, object]) -> str:  # a name at several sites: as the text shows it
        return (
            f"{r['player']} ({r['site']})" if len(sites[str(r["player"])]) > 1 else str(r["player"])
        )

    return {(name(r), str(r["session"]), minute(r["session_start"])) for r in found}


@pytest.mark.slow
@pytest.mark.parametrize("player", [None, "Hero"])
def test_sessions_as_a_text_table(player: str | None, capsys: pytest.CaptureFixture[str]) -> None:
    """The default text format of --by session prints each session's start to the minute,
    as the json gives it (it failed on a timestamp already made text)."""
    who = ["--player", player] if player else []
    how = ["--by", "session", "--no-audit", *who]
    rc, out, err = run(capsys, "stats", str(SAMPLE_DATA), *how, "--limit", "0")
    assert rc == 0 and "Traceback" not in err, err
    shown = _text_sessions(out)
    assert shown and set(shown) == _json_sessions(rows(capsys, str(SAMPLE_DATA), *how))
    if player:  # the per-row detail names the session and its start too
        assert all(f"session {s} from {start}" in out for _, s, start in shown)


@pytest.mark.slow
@needs_corpus
def test_sessions_as_a_text_table_on_the_real_corpus(
    corpus_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    where = str(corpus_dir.parent)
    how = ["--by", "session", "--no-audit"]
    rc, out, err = run(capsys, "stats", where, *how, "--limit", "0")
    assert rc == 0 and "Traceback" not in err, err
    shown = _text_sessions(out)
    assert len(shown) > 1 and set(shown) == _json_sessions(rows(capsys, where, *how))
    rc, out, err = run(capsys, "stats", where, *how, "--player", "s0rrow")
    assert rc == 0 and "== s0rrow (USD, session " in out, err
