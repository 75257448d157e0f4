"""Names from hand text are hostile input: spreadsheet formulas, bidi overrides, 5,000
characters, HTML. Every output keeps them inert (issue 19, items 4 and 5)."""

from __future__ import annotations

import csv
import io
import json
import re
from collections import Counter
from pathlib import Path

import pandas as pd
import pytest

from histkit import plots
from histkit.cli import main
from histkit.report import build_report
from histkit.stats import frames, load, seat_facts
from histkit.textsafe import (
    FORMULA_START,
    CsvWriter,
    clip,
    csv_cell,
    csv_value,
    frame_csv,
    html_text,
    html_with_names,
    isolate_plain,
    needs_isolation,
)

RLO = "\u202eevil"
LONG = "L" * 5000
HOSTILE = [
    '=HYPERLINK("http://x","y")',
    "+1+2",
    "-3",
    "@SUM(1)",
    RLO,
    LONG,
    "<b>&amp;x</b>",
    "$\\foo$",  # mathtext to matplotlib
]
_SEAT = re.compile(r"^Seat \d+: (.+) \(\$[\d.,]+ in chips\)", re.M)


class _LF(csv.excel):
    lineterminator = "\n"


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    """A simulated PokerStars file (with planted payout faults, so the audit has rows)
    whose players are renamed: HOSTILE first, the rest get a leading "+"; the hero stays
    "Hero". The dialect accepts every one of these names, the 5,000-character one too."""
    d = tmp_path_factory.mktemp("hostile")
    src = d / "sim.txt"
    args = ["simulate", "--hands", "40", "--players", "5", "--seed", "3", "--faults", "0.5"]
    assert main([*args, "--hero", "Hero", "-q", "-o", str(src)]) == 0
    text = src.read_text(encoding="utf-8")
    seen = Counter(_SEAT.findall(text))
    others = sorted((n for n in seen if n != "Hero"), key=lambda n: (-seen[n], n))
    assert len(others) >= len(HOSTILE)
    rename = {o: (HOSTILE[i] if i < len(HOSTILE) else "+" + o) for i, o in enumerate(others)}
    pattern = "|".join(re.escape(o) for o in sorted(rename, key=len, reverse=True))
    text = re.sub(rf"(?<![\w.])(?:{pattern})(?![\w.])", lambda m: rename[m.group()], text)
    path = d / "hostile.txt"
    path.write_text(text, encoding="utf-8")
    return path, ["Hero", *rename.values()]


def _rows(path: Path) -> list[list[str]]:
    with open(path, encoding="utf-8", newline="") as f:
        return list(csv.reader(f))


# --------------------------------------------------------------------------- the rules


@pytest.mark.parametrize("text", ["=1+2", "+1", "-3", "@SUM(1)", "\tx", "\rx", "'=x", "'"])
def test_csv_cell_neutralises_text_and_can_be_undone(text: str) -> None:
    assert csv_cell(text) == "'" + text
    assert csv_value(csv_cell(text)) == text


@pytest.mark.parametrize("value", ["Hero", "", "3-bet", "a=b", -120, -1.5, 0, None, True])
def test_csv_cell_leaves_plain_text_and_numbers(value: object) -> None:
    assert csv_cell(value) is value


def test_csv_writer_quotes_neutralised_cells_only() -> None:
    buf = io.StringIO()
    w = CsvWriter(buf)
    w.writerow(["+1+2", -120, 0.25, None, float("nan"), "Hero", "a,b", "\tx", '=A1"'])
    out = buf.getvalue()
    assert out == '"\'+1+2",-120,0.25,,,Hero,"a,b","\'\tx","\'=A1"""\r\n'
    (row,) = csv.reader(io.StringIO(out, newline=""))
    assert [csv_value(c) for c in row] == ["+1+2", "-120", "0.25", "", "", "Hero", "a,b"] + [
        "\tx",
        '=A1"',
    ]
    buf = io.StringIO()
    CsvWriter(buf).writerow(["\rx"])
    assert [csv_value(c) for c in next(csv.reader(io.StringIO(buf.getvalue(), newline="")))] == [
        "\rx"
    ]


def test_frame_csv_is_to_csv_for_plain_frames() -> None:
    df = pd.DataFrame(
        {
            "player": ["Hero", 'say "hi", bye', "x y"],
            "net": [-120, 0, 35],
            "vpip": [0.15789473684210525, float("nan"), 1.0],
            "n": pd.array([1, None, 3], dtype="Int64"),
            "flag": [True, False, True],
            "tiny": [1e-05, 1e16, -0.5],
        }
    )
    assert frame_csv(df, _LF) == df.to_csv(index=False)
    assert frame_csv(df) == df.to_csv(index=False, lineterminator="\r\n")


def test_clip_bounds_width() -> None:
    assert clip("Hero") == "Hero"
    assert clip("x" * 24) == "x" * 24
    assert clip(LONG) == "L" * 23 + "…" and len(clip(LONG, 8)) == 8


def test_html_isolation() -> None:
    assert not needs_isolation("Hero_1 (x) -3 $")
    for s in (RLO, "שלום", "a\u200fb", "\u2067x"):
        assert needs_isolation(s)
    assert html_text("<b>&</b>") == "&lt;b&gt;&amp;&lt;/b&gt;"
    assert html_text(RLO + "<") == f"<bdi>{RLO}&lt;</bdi>"
    msg = html_with_names(f"expected {RLO} $0.98, Hero <x> $0.97", ["Hero", RLO])
    assert f"expected <bdi>{RLO}</bdi> $0.98, Hero &lt;x&gt; $0.97" in msg
    assert html_with_names("plain <x>", ["Hero"]) == "plain &lt;x&gt;"
    assert isolate_plain(RLO) == f"\u2068{RLO}\u2069" and isolate_plain("Hero") == "Hero"


# --------------------------------------------------------------------------- the commands


def test_stats_csv_neutralised_and_round_trips(hostile, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path, names = hostile
    out, js = tmp_path / "s.csv", tmp_path / "s.json"
    assert main(["stats", str(path), "--format", "csv", "-o", str(out)]) == 0
    assert main(["stats", str(path), "--format", "json", "-o", str(js)]) == 0
    raw = out.read_text(encoding="utf-8")
    site = _rows(out)[1][1]
    for name in ("+1+2", "-3", "@SUM(1)"):
        assert f'"\'{name}",{site},USD,' in raw
    rows = _rows(out)
    assert rows[0][:5] == ["player", "site", "money", "money_unit", "hands"]
    assert not any(c.startswith(FORMULA_START) for r in rows for c in r[:3])
    assert sorted(csv_value(r[0]) for r in rows[1:]) == sorted(names)
    # Numbers stay numbers: a negative net is written -24, not '-24.
    df = pd.read_csv(out)
    assert df["net"].dtype == "int64" and df["hands"].dtype == "int64"
    assert df["vpip"].dtype == "float64" and (df["net"] < 0).any()
    records = {r["player"]: r for r in json.loads(js.read_text(encoding="utf-8"))}
    for r in df.to_dict(orient="records"):
        want = records[csv_value(r["player"])]
        assert (r["net"], r["hands"], r["rake"]) == (want["net"], want["hands"], want["rake"])


def test_audit_csv_neutralised_and_round_trips(hostile, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path, _ = hostile
    out, js = tmp_path / "a.csv", tmp_path / "a.json"
    assert main(["audit", str(path), "-q", "--format", "csv", "-o", str(out)]) == 1
    assert main(["audit", str(path), "-q", "--format", "json", "-o", str(js)]) == 1
    rows = _rows(out)
    fields = rows[0]
    assert fields == ["hand_id", "code", "severity", "street", "line"] + [
        "expected",
        "reported",
        "message",
        "seq",
        "caused_by",
        "site",
        "source_file",
        "caused_by_hand",
    ]
    assert len(rows) > 2
    cells = [c for r in rows for c in r]
    assert not any(c.startswith(FORMULA_START) for c in cells)
    assert any(c.startswith("'") and c[1:].startswith(FORMULA_START) for c in cells)
    want = json.loads(js.read_text(encoding="utf-8"))["violations"]
    assert len(want) == len(rows) - 1
    for row, v in zip(rows[1:], want, strict=True):
        got = dict(zip(fields, (csv_value(c) for c in row), strict=True))
        assert got == {k: "" if v[k] is None else str(v[k]) for k in fields}


@pytest.mark.slow
def test_text_tables_are_bounded(hostile, capsys: pytest.CaptureFixture[str]) -> None:  # type: ignore[no-untyped-def]
    path, _ = hostile
    for extra in ([], ["--by", "table"], ["--player", LONG]):
        assert main(["stats", str(path), *extra]) == 0
        text = capsys.readouterr().out
        assert "L" * 23 + "…" in text and LONG not in text
        assert max(len(line) for line in text.splitlines()) < 200


@pytest.mark.slow
def test_report_escapes_and_isolates(hostile, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    path, _ = hostile
    out = tmp_path / "r.html"
    assert main(["report", str(path), "--player", RLO, "-o", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert re.search(f"<h1><bdi>{RLO}</bdi>: [^<]*20\\d\\d[^<]*</h1>", text)  # : the days covered
    assert re.search(f"<title>\u2068{RLO}\u2069: [^<]*20\\d\\d[^<]*</title>", text)
    assert text.count(f"<bdi>{RLO}</bdi>") > 5  # the replays name the player everywhere
    outside = re.sub(r"<bdi>.*?</bdi>", "", text, flags=re.S)
    outside = re.sub("\u2068[^\u2069]*\u2069", "", outside)
    assert "\u202e" not in outside
    assert "=HYPERLINK(&quot;http://x&quot;,&quot;y&quot;)" in text
    assert main(["report", str(path), "--player", "<b>&amp;x</b>", "-o", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert "<h1>&lt;b&gt;&amp;amp;x&lt;/b&gt;: " in text
    assert "<b>&amp;x" not in text


@pytest.mark.slow
def test_report_isolates_names_in_audit_messages(hostile) -> None:  # type: ignore[no-untyped-def]
    path, _ = hostile
    fr = frames(load([str(path)], audit=True))
    hid = fr["seats"].loc[fr["seats"]["player"].eq(RLO), "hand_id"].iloc[0]
    fr["violations"] = pd.DataFrame(
        [
            {
                "hand_id": hid,
                "code": "ODD_CHIP",
                "severity": "error",
                "street": 7,
                "line": 1,
                "expected": f"{RLO}=98",
                "reported": f"{RLO}=97",
                "message": f"expected {RLO} $0.98 <paid> $0.97",
            }
        ]
    )
    text = build_report(fr, RLO)
    assert f"expected <bdi>{RLO}</bdi> $0.98 &lt;paid&gt; $0.97" in text


@pytest.mark.slow
@pytest.mark.parametrize("who", [LONG, "$\\foo$", RLO])
def test_plots_clip_and_escape_names(hostile, who: str) -> None:  # type: ignore[no-untyped-def]
    path, _ = hostile
    facts = seat_facts(load([str(path)], audit=False))
    for _, fn in plots.ALL_PLOTS:
        if fn is plots.hilo_outcomes:
            continue  # needs the audit's awards
        ax = fn(facts, who)
        assert len(ax.get_title()) < 80 and "\u202e" not in ax.get_title()
        ax.figure.savefig(io.BytesIO(), format="svg")  # mathtext would raise here
