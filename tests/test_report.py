"""The HTML report: every plot embedded, nothing external, the pots replayed, the audit."""

from __future__ import annotations

import base64
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pandas as pd
import pytest

from histkit.report import build_report, hand_replay
from histkit.stats import frames
from histkit.tables import tables_from

from .chromium import chromium_shot, colour_pixels, has_chromium
from .conftest import CORPUS, needs_corpus
from .test_stats import _awards, _hilo_hands, _long_hand

_DATA_IMG = re.compile(r'<img [^>]*src="data:image/svg\+xml;base64,([A-Za-z0-9+/=]+)"')


def _audited_frames() -> dict:
    t = tables_from([_long_hand(), *_hilo_hands()])
    awards = _awards(
        [
            ("ls1", 0, "whole", "A", 26),
            ("hl1", 0, "high", "A", 17),
            ("hl1", 0, "low", "A", 16),
            ("hl2", 0, "high", "A", 17),
            ("hl2", 0, "low", "B", 16),
            ("hl3", 0, "high", "A", 17),
            ("hl3", 0, "low", "B", 8),
            ("hl3", 0, "low", "C", 8),
        ]
    )
    violations = pd.DataFrame(
        [
            {
                "hand_id": "hl3",
                "code": "ODD_CHIP",
                "severity": "error",
                "street": 7,
                "line": 40,
                "expected": "B 9",
                "reported": "B 8",
                "message": "the odd chip of the low half went to the wrong <player>",
            }
        ]
    )
    return dict(t.items()) | {"awards": awards, "violations": violations}


def assert_self_contained(text: str) -> None:
    """No reference outside the file: every src/href is a data: URI or an #anchor."""
    for m in re.finditer(r'(?:src|href)\s*=\s*["\']([^"\']*)', text, re.I):
        assert m.group(1).startswith(("data:", "#")), m.group(0)[:80]
    assert not re.search(r"<(link|script|iframe|object|embed)\b", text, re.I)
    assert not re.search(r"url\(\s*['\"]?(?!data:)", text, re.I)
    assert "@import" not in text
    assert not re.search(r"https?://", text)


@pytest.mark.slow
def test_report_embeds_every_plot_and_nothing_external() -> None:
    text = build_report(_audited_frames(), "A")
    assert_self_contained(text)
    imgs = _DATA_IMG.findall(text)
    captions = re.findall(r"<figcaption>([^<]*)</figcaption>", text)
    # cash in USD: winnings by hand and by date, results by starting hand, actions by
    # street, hi/lo outcomes
    assert captions == [
        "Winnings by hand",
        "Winnings by date",
        "Results by starting hand",
        "Actions by street",
        "Hi/lo showdowns won",
    ]
    assert len(imgs) == len(captions) == len(re.findall(r"<img ", text))
    for b64 in imgs:
        root = ET.fromstring(base64.b64decode(b64))
        assert root.tag.endswith("svg")


@pytest.mark.slow
def test_report_summary_pots_and_violations() -> None:
    text = build_report(_audited_frames(), "A", top=2)
    assert "<h1>A: the session of 01 January 2026</h1>" in text and "Hands dealt" in text
    assert '<h2 id="cash">Cash games</h2>' in text and 'id="tournaments"' not in text
    # Biggest pot won is hl1 (scoop: 33 - 11 = +22); ls1 (+13) is second.
    won = text[text.index("Biggest pots won") : text.index("Biggest pots lost")]
    assert won.index("Hand #hl1") < won.index("Hand #ls1")
    plain = re.sub(r"<[^>]+>", " ", won)
    assert "completes to $0.04" in plain and "raises to $0.08" in plain
    assert "4th street" in plain and "Showdown" in plain
    assert "main pot, high half: A $0.17 — ✓ paid as the rules say" in " ".join(plain.split())
    # The violation is listed, with the message escaped.
    assert "ODD_CHIP" in text and "wrong &lt;player&gt;" in text
    assert "1 violation record in 1 of 4 hands" in text


@pytest.mark.slow
def test_report_without_audit_says_so_and_defaults_to_the_hero() -> None:
    t = tables_from([_long_hand()])
    text = build_report(t)
    assert "not audited" in text.lower()
    assert re.search(r"<h1>[AB]: the session of ", text)  # no hero: the most hands
    assert_self_contained(text)


def test_hand_replay_reads_like_the_hand() -> None:
    fr = frames(tables_from([_long_hand()]))
    page = hand_replay(fr, "ls1")
    text = " ".join(re.sub(r"<[^>]+>", " ", page).split())
    assert "antes $0.01 $0.01 $0.02" in text  # each ante, then the pot
    # 3rd street: A's cards and line, then B's, each action numbered in the street's
    # order; the pot after the street
    assert "1. brings in $0.02 3. calls $0.02" in text and "2. completes to $0.04" in text
    assert "1. checks 3. raises to $0.08" in text and "2. bets $0.04 4. calls $0.04" in text
    assert "1. bets $0.08" in text and "2. folds" in text
    assert "A collected $0.26" in text
    # cards are drawn as cards: a coloured suit each, a down card shaded
    assert re.search(r'<span class="card (spades|hearts|diamonds|clubs)', page)


def test_hand_replay_keeps_the_order_across_players() -> None:
    """Each player's actions are in his own column; the numbers give back the street's
    order: read in number order, they are the hand's actions in sequence."""
    from .test_stats import _hilo_hands

    fr = frames(tables_from([_long_hand(), *_hilo_hands()]))
    acts = fr["actions"][fr["actions"]["kind"] != "ante"]
    for hand_id in ("ls1", "hl2"):
        page = hand_replay(fr, hand_id)
        players = re.findall(r"<th>([^<]+)<br>", page)
        mine = acts[acts["hand_id"] == hand_id]
        rows = re.findall(r'<tr class="street-head">(.*?)</tr>', page)
        for street, row in zip(sorted(set(mine["street"])), rows, strict=True):
            cells = re.findall(r"<td>(.*?)</td>", row)[1:]  # the street's name first
            said = sorted(
                (int(n), p)
                for p, cell in zip(players, cells, strict=True)
                for n in re.findall(r'<span class="nth"[^>]*>(\d+)\.</span>', cell)
            )
            want = mine[mine["street"] == street].sort_values("seq")["player"].tolist()
            assert [n for n, _ in said] == list(range(1, len(want) + 1))
            assert [p for _, p in said] == want, (hand_id, street)


@pytest.mark.slow
@needs_corpus
def test_report_on_real_hands(corpus_dir: Path, tmp_path: Path) -> None:
    from histkit.cli import main

    out = tmp_path / "r.html"
    assert main(["report", str(corpus_dir), "--player", "s0rrow", "-o", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    assert_self_contained(text)
    assert len(_DATA_IMG.findall(text)) >= 4
    # stud-hi/7-Stud-USD-0.04-0.08-200911.txt #35874081088: s0rrow (the bring-in, 2s)
    # completes, MasterTrini1 raises; s0rrow wins $1.04, net +$0.59 - his biggest pot.
    won = text[text.index("Biggest pots won") : text.index("Biggest pots lost")]
    assert "Hand #35874081088" in won
    hand = won[won.index("Hand #35874081088") :]
    hand = " ".join(re.sub(r"<[^>]+>", " ", hand[: hand.index("Result")]).split())
    assert "s0rrow" in hand and "MasterTrini1" in hand
    assert "completes to $0.04" in hand and "raises to $0.08" in hand
    assert "The audit found no violation" in text
    # #35874676388 is in two corpus files: counted once, and the report says so.
    assert "appeared more than once" in text and "#35874676388" in text


def test_report_cli_errors(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    from histkit.cli import main

    assert main(["report", str(tmp_path / "missing.txt"), "-o", str(tmp_path / "r.html")]) == 2
    assert "no such file" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.skipif(not has_chromium(), reason="no chromium")
def test_report_renders_in_headless_chromium(tmp_path: Path) -> None:
    """The sample data's report in a browser: separate cash and tournament sections, and
    hands replayed with card glyphs in their suits' colours."""
    from histkit.sources import load, resolve

    from .conftest import SAMPLE_DATA

    tables = load(resolve([SAMPLE_DATA / "stud_hilo_cash_hero_500.txt",
                           SAMPLE_DATA / "stud_hilo_tournament_150.txt"]))  # fmt: skip
    text = build_report(tables, "Hero", top=1)
    assert text.index('<h2 id="cash">Cash games</h2>') < text.index(
        '<h2 id="tournaments">Tournaments</h2>'
    )
    assert re.search(r'<span class="card hearts[^"]*"[^>]*>[0-9AKQJ]+\u2665</span>', text)
    page = tmp_path / "r.html"
    page.write_text(text, encoding="utf-8")
    data = chromium_shot(page, tmp_path / "shot.png")
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000
    # one replayed hand alone, so that its cards fill the picture: hearts red, diamonds
    # blue, clubs green, as the four-colour deck draws them
    first = text.index("</h3>", text.index('<div class="hand">')) + 5  # no net amount
    hand = text[first : text.index("</div>", first)]
    style = text[text.index("<style>") : text.index("</style>") + 8]
    one = tmp_path / "hand.html"
    one.write_text(f"<!DOCTYPE html><html><head>{style}</head><body>{hand}</body></html>")
    chromium_shot(one, tmp_path / "hand.png", "1300,1200")
    for colour in ((0xC6, 0x28, 0x28), (0x15, 0x65, 0xC0), (0x2E, 0x7D, 0x32)):
        assert colour_pixels(tmp_path / "hand.png", colour) > 50, colour


@pytest.mark.slow
def test_a_count_of_one_is_singular() -> None:
    """'1 hand', '1 table', '(1 cash)', never '1 hands' or '1 cashes'."""
    from histkit import plots
    from histkit.stats import load, seat_facts

    from .conftest import SAMPLE_DATA

    one = dict(tables_from([_long_hand()]).items()) | {
        "awards": _awards([("ls1", 0, "whole", "A", 26)]),
        "violations": pd.DataFrame(columns=["hand_id", "code", "severity", "message"]),
    }
    plain = " ".join(re.sub(r"<[^>]+>", " ", build_report(one, "A")).split())
    assert "1 hand · stud 1 · pokerstars · 1 table" in plain
    assert "USD · 1 hand " in plain and "no violation in 1 hand." in plain
    facts = seat_facts(one)
    assert plots.cumulative_net(facts, "A").get_title() == "A: winnings over 1 hand"
    # the sample tournaments: Hero cashed in one of the three he finished
    tour = build_report(load([SAMPLE_DATA / "stud_hilo_tournament_150.txt"], audit=True), "Hero")
    plain = " ".join(re.sub(r"<[^>]+>", " ", tour).split())
    assert re.search(
        r"4 tournaments \(buy-ins and fees \$[\d,]+\.\d\d\), 3 with a known finish", plain
    )
    assert "(1 cash)" in plain
    assert not re.search(r"(?<![\d,.])1 (hands|tables|tournaments|cashes|records)\b", plain)


def test_the_audit_coverage_sentence_counts_one_as_one() -> None:
    from histkit.audit import AuditReport

    full = AuditReport(hands=1, violations=(), coverage={"pots": 1, "pots_decided": 1})
    assert full.checked_text() == "Checked in full: every action and every award of 1 pot."
    part = AuditReport(
        hands=2, violations=(), coverage={"pots": 1, "pots_decided": 0, "partly_checked": 1}
    )
    assert part.checked_text().startswith(
        "Checked in full: 1 of 2 hands; the winners of 0 of 1 pot; 1 hand only in part"
    )


@pytest.mark.slow
def test_the_title_counts_undated_hands() -> None:
    """A hand with no start time (iPoker writes none) is not 'the session of' a day."""
    import dataclasses

    from .stud_builder import build

    def hand(hid: str, minute: int) -> object:
        return build(hid, seats="A:1:100 B:2:100", streets={3: "A bring_in 2; B fold"},
                     cards={"A": "?? ?? 2c", "B": "?? ?? 9d"}, collects="A:4",
                     minute=minute)  # fmt: skip

    dated = [hand("d1", 0), hand("d2", 5)]
    undated = [dataclasses.replace(hand(h, 0), started_at=None) for h in ("u1", "u2")]
    title = re.compile(r"<h1>(.*)</h1>")
    assert title.findall(build_report(tables_from(dated), "A")) == [
        "A: the session of 01 January 2026"
    ]
    assert title.findall(build_report(tables_from([*dated, *undated]), "A")) == [
        "A: 01 January 2026 and 2 undated hands"
    ]
    assert title.findall(build_report(tables_from([*dated, *undated[:1]]), "A")) == [
        "A: 01 January 2026 and 1 undated hand"
    ]
    assert title.findall(build_report(tables_from(undated), "A")) == ["A: 2 undated hands"]


@pytest.mark.slow
@pytest.mark.skipif(not (CORPUS / "ipoker").is_dir(), reason="../shared/hands is absent")
def test_the_title_spans_the_real_corpus_days() -> None:
    """Player11 plays a Merge freeroll of 22 June 2011 and an iPoker sit-and-go of 19 March
    2012 (its <startdate>, UTC): every hand dated, the title spans both days. (Two sites'
    names are two players: joined here as one.)"""
    from histkit.stats import load

    tables = load([CORPUS / "ipoker", CORPUS / "merge"], audit=True)
    hands = tables["hands"].to_pandas()
    seats = tables["seats"].to_pandas()
    mine = hands[hands["hand_id"].isin(seats.loc[seats["player"] == "Player11", "hand_id"])]
    assert mine["started_at"].notna().all() and len(mine) > 100
    joined = {"Player11": [("ipoker", "Player11"), ("merge", "Player11")]}
    with pytest.raises(ValueError, match="a player at 2 sites"):
        build_report(tables, "Player11")
    text = build_report(tables, "Player11", aliases=joined)
    assert re.findall(r"<h1>(.*)</h1>", text) == ["Player11: 22 Jun 2011 to 19 Mar 2012 (272 days)"]


def test_the_readme_links_files_that_exist() -> None:
    """The README's pictures of the report (and every other file it links) are committed."""
    from .conftest import ROOT

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    links = re.findall(r"\]\(((?!https?:|#|mailto:)[^)\s#]+)", readme)
    assert "docs/report-summary.png" in links and "docs/report-replay.png" in links
    assert [link for link in links if not (ROOT / link).exists()] == []
    for name in ("report-summary.png", "report-replay.png"):
        data = (ROOT / "docs" / name).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and 20_000 < len(data) < 300_000


@pytest.mark.slow
@pytest.mark.skipif(not has_chromium(), reason="no chromium")
def test_the_readme_pictures_can_be_remade(tmp_path: Path) -> None:
    """docs/screenshots.py draws them again from sample_data/: the summary, and a replayed
    hand whose cards are drawn in the four suits' colours."""
    import importlib.util

    from matplotlib import image

    from .conftest import ROOT

    spec = importlib.util.spec_from_file_location("screenshots", ROOT / "docs" / "screenshots.py")
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    summary, replay = script.make_screenshots(tmp_path)
    for png in (summary, replay):
        height, width = image.imread(png).shape[:2]
        assert width == script.WIDTH and 500 < height < 3000
        assert png.stat().st_size < 300_000
    for colour in ((0xC6, 0x28, 0x28), (0x15, 0x65, 0xC0), (0x2E, 0x7D, 0x32)):
        assert colour_pixels(replay, colour) > 50, colour
    # the summary's section rule and its winnings line are the report's blue
    assert colour_pixels(summary, (0x1F, 0x4E, 0x79), 20) > 500


def test_report_has_the_figures_by_position() -> None:
    # A is the bring-in in every hand of these (seat 1, the lowest door, acts first)
    text = build_report(_audited_frames(), "A")
    table = text[text.index("<h4>By position on 3rd street</h4>") :]
    table = table[: table.index("</table>")]
    rows = re.findall(r"<tr><td>([^<]+)</td><td>([\d,]+)</td>", table)
    assert rows == [("bring-in", "4")]
    assert "<th>VPIP</th>" in table and "<th>bb/100</th>" in table
