"""Simulated eras (issue 24 item 6): each era a site's writer declares
(`histkit.dialects.eras`, the names of its page's "## Eras" section) is written, read back
as the same hands by Lark and the fast path alike, and shows the era's own forms; the
default era is what the writer writes without one, byte for byte; `histkit simulate
--era` writes it and names the site's eras when asked for one it does not write."""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from itertools import takewhile
from pathlib import Path

import pytest

from histkit.cli import main
from histkit.dialects import get_dialect
from histkit.dialects.eras import SITE_ERAS, check_era, eras
from histkit.dialects.xmlbase import XmlDialect
from histkit.model import Hand
from histkit.simulate import simulate, write_session
from histkit.simulate.session import CURRENCIES
from tests.dialects import (
    test_absolute,
    test_bovada,
    test_everleaf,
    test_fulltilt,
    test_ipoker,
    test_kingsclub,
)

GAMES = ("stud", "stud_hilo", "razz")
FT = r"Full Tilt Poker Game #\d+: Table [^-]+ - "  # a Full Tilt header up to its stakes


@dataclass(frozen=True)
class Era:
    """What a round trip of one era needs: the site's `same`, the name of the file its
    hands are read from, and the lines only this era writes (each must be in the text)."""

    same: Callable[[Hand, Hand], None]
    forms: tuple[str, ...]  # regular expressions, each matching a whole line
    file_name: Callable[[Hand], str] = lambda h: "sim.txt"
    mix: str | None = None  # a mix to give some hands, for the era's form of it
    currencies: tuple[str, ...] = ("USD",)  # the cash hands' (one the simulator has not:
    # the first's hands in it)
    keeps: tuple[str, ...] = ()  # what else of a hand the era's text carries
    whole_minutes: bool = False  # the era writes no seconds: hands that start on a minute
    tournaments: bool = True  # whether the site writes tournaments (Kings Club: cash only)


def on_the_minute(h: Hand) -> Hand:
    assert h.started_at is not None
    return replace(h, started_at=h.started_at.replace(second=0))


def by_tournament(h: Hand) -> str:
    """Everleaf keeps a tournament's id in the file's name only."""
    return f"TID_{h.tournament_id}-1.txt" if h.tournament_id else "sim.txt"


ERAS: dict[tuple[str, str], Era] = {
    ("absolute", "2008-2011"): Era(
        test_absolute.same,
        (
            r"Stage #\d+: Seven Card Hi/Lo  Normal \$0\.04/\$0\.08 - [\d-]+ [\d:]+ \(ET\)",
            r"Stage #\d+: Razz \(\d+\) Normal 20/40 - [\d-]+ [\d:]+ \(ET\)",
        ),
    ),
    ("absolute", "late"): Era(
        test_absolute.same,
        (
            r"Stage #\d+: 7 Card Stud  Normal \$0\.04/\$0\.08, \$0\.01 ante - "
            r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3} \(ET\)",
            r"Stage #\d+: Tourney ID \d+ Razz Single Tournament Normal [\d,]+/[\d,]+, "
            r"[\d,]+ ante - [\d-]+ [\d:.]+ \(ET\)",
            r"Stage #\d+: HORSE  Normal .*",
            r"Game Type: Limit Seven Card Hi/Lo",
            r"Seat \d - \S+ \(1,\d{3} in chips\)",
        ),
        mix="HORSE",
    ),
    ("everleaf", "2008-2012"): Era(
        test_everleaf.same,
        (
            r"\$0\.04/\$0\.08 7 Card Stud - \d{4}/\d\d/\d\d - \d\d:\d\d:\d\d",
            r"Seat \d: \S+ \(  \d+\.\d\d EUR \)",
            r"\S+: posts ante \[\d+ Chips\]",
        ),
        file_name=by_tournament,
        currencies=("USD", "EUR"),
    ),
    ("everleaf", "2012-2014"): Era(
        test_everleaf.same,
        (
            r" \$0\.04 / \$0\.08 7 Card Stud - 6 Max - \d{4}/\d\d/\d\d - \d\d:\d\d:\d\d",
            r" 20 / 40 Razz - 6 Max - .*",
            r"Seat \d: \S+ \(  \u02c6 \d+\.\d\d EURO \)",
            r"\S+: posts ante \[\u02c6 0\.01 EURO\]",
            r"\S+ posts bring-in \u02c60\.\d\d\.",
            r"\S+: posts ante \[\d+ Chips\]",
        ),
        file_name=by_tournament,
        currencies=("USD", "EUR"),
        keeps=("max_seats",),
    ),
    ("everleaf", "2014-"): Era(
        test_everleaf.same,
        (
            r" 0\.04 / 0\.08 7 Card Stud - 6 Max - .*",
            r"Seat \d: \S+ \(  \d+\.\d\d GEL \)",
            r"Seat \d: \S+ \(  \d+ Chips \)",
            r"\S+: posts ante \[\d+\]",
            r"\S+ calls \[\d+\]",
        ),
        file_name=by_tournament,
        currencies=("USD", "GEL"),
        keeps=("max_seats",),
    ),
    ("fulltilt", "2008-2011"): Era(
        test_fulltilt.same,
        (
            FT + r"\$0\.04/\$0\.08 Ante \$0\.01 - Limit Stud Hi - "
            r"\d\d:\d\d:\d\d ET - \d{4}/\d\d/\d\d",
            r"\*\*\* 4TH STREET \*\*\*",
        ),
    ),
    ("fulltilt", "2006-2007"): Era(
        test_fulltilt.same,
        (
            FT + r"\$0\.04/\$0\.08 Ante \$0\.01 - Limit Razz - "
            r"\d\d:\d\d ET - [A-Z][a-z]+day, [A-Z][a-z]+ \d{1,2}, \d{4}",
        ),
        whole_minutes=True,
    ),
    ("fulltilt", "2012-2016"): Era(
        test_fulltilt.same,
        (
            FT + r"Limit Stud H/L - \$0\.04/\$0\.08 Ante \$0\.01 - "
            r"\d\d:\d\d:\d\d ET - \d{4}/\d\d/\d\d",
            r"\*\*\* 3RD STREET \*\*\* \(Total Pot: \$0\.03, 3 Players\)",
            r"\*\*\* 3RD STREET \*\*\* \(Total Pot: \$0\.06, 6 Players\)",
            r"\*\*\* 4TH STREET \*\*\* \(Total Pot: \$0\.\d\d, \d Players\)",
        ),
    ),
    ("ipoker", "2011-2014"): Era(
        test_ipoker.same,
        (
            r"    <gametype>7 Card Stud Hi-Lo L \$0\.04/\$0\.08</gametype>",
            r"    <gametype>Razz L \u20ac0\.04/\u20ac0\.08</gametype>",
        ),
        currencies=("USD", "EUR"),
    ),
    ("ipoker", "newer"): Era(
        test_ipoker.same,
        (
            r"    <gametype>7 Card Stud HiLow L \$0\.04/\$0\.08 Ante \$0\.01</gametype>",
            r"    <gametype>7 Card Stud L 0,04\u20ac/0,08\u20ac Ante 0,01\u20ac</gametype>",
            r"    <tablesize>6</tablesize>",
            r'      <player seat="\d" name="[^"]+" chips="\d+,\d\d\u20ac" .*',
        ),
        currencies=("USD", "EUR"),
    ),
    ("bovada", "2012-2016"): Era(
        test_bovada.same,
        (
            r"Bovada Hand #\d+ TBL#\d+ 7CARD HiLo Fixed Limit - [\d-]+ [\d:]+",
            r"Bovada Hand #\d+: RAZZ Tournament #\d+ TBL#\d+, Fixed Limit- Level \d+ \(0/0\) - .*",
            r"\*\*\* 4TH STREET \*\*\*",
            r"Seat\+\d(?: \[ME\])? : Raises \$[\d.]+ to \$[\d.]+",
            r"Total Pot\(\$[\d.]+\)",
            r"Seat\+\d:  Folded on the .*",
        ),
    ),
    ("bovada", "2012"): Era(
        test_bovada.same,
        (
            r"Bodog Hand #\d+ TBL#\d+ 7CARD Fixed Limit - [\d-]+ [\d:]+",
            r"Bovada Hand #\d+: RAZZ Tournament #\d+ TBL#\d+, Normal- Level \d+ \(0/0\) - .*",
            r"Seat\+\d(?: \[ME\])? : Bring_in chip \$0\.02",
            r"Seat\+\d(?: \[ME\])? : Raises \$[\d.]+",
            r"Total Pot\(\$[\d.]+\) \| Rake \(\$[\d.]+\)",
            r"Seat \d:  Folded on the .*",
        ),
    ),
    ("bovada", "2016-"): Era(
        test_bovada.same,
        (
            r"Ignition Hand #\d+ TBL#\d+ 7CARD_HL Fixed Limit \[MVS\] - [\d-]+ [\d:]+",
            r"Ignition Hand #\d+: 7CARD Tournament #\d+ TBL#\d+, Fixed Limit- Level \d+ "
            r"\(0/0\) \[MVS\] - .*",
            r"Seat\+\d(?: \[ME\])? : Bring in \$0\.02 ",
            r"Seat\+\d(?: \[ME\])? : bets \$[\d.]+ ",
            r"Seat\+\d(?: \[ME\])? : raises \$[\d.]+ to \$[\d.]+",
        ),
    ),
    ("kingsclub", "2020-2021"): Era(
        test_kingsclub.same,
        (r"\*\*\* 3RD STREET \*\*\*", r"\*\*\* 6TH STREET \*\*\*"),
        tournaments=False,
    ),
    ("kingsclub", "2023-"): Era(
        test_kingsclub.same,
        (r"\*\*\* 3RD STREET \*\*\*", r"\*\*\* 7TH STREET \*\*\*"),
        tournaments=False,
    ),
}


def hands_of(site: str, era: Era) -> list[Hand]:
    """Each game, cash in each of the era's currencies and a tournament, 3 and 6 players;
    every other hand of a mix era is given the mix."""
    profile = get_dialect(site).profile
    out = []
    for game in GAMES:
        for currency in (*era.currencies, *((None,) if era.tournaments else ())):
            dealt = currency if currency in CURRENCIES else "USD"
            for players, seed in ((3, 1), (6, 2)):
                for h in simulate(
                    game, 6, players=players, seed=seed, profile=profile,
                    tournament=currency is None, currency=dealt,
                ):  # fmt: skip
                    out.append(h if currency in (dealt, None) else replace(h, currency=currency))
    if era.whole_minutes:
        out = [on_the_minute(h) for h in out]
    if era.mix is not None:
        out = [replace(h, mix=era.mix) if i % 2 else h for i, h in enumerate(out)]
    return out


def test_every_declared_era_is_written_and_tested() -> None:
    """The names are the pages' and the writer modules', in the same order, the default
    first; every (site, era) has a round trip below."""
    for site, names in SITE_ERAS.items():
        d = get_dialect(site)
        module = importlib.import_module(d.writer.partition(":")[0])
        assert tuple(module.ERAS) == names, site
        page = (Path(__file__).parents[2] / "docs" / "sites" / f"{site}.md").read_text()
        section = page.split("## Eras", 1)[1].split("\n## ", 1)[0]
        for name in names:
            assert f"| `{name}` |" in section, (site, name)
        assert set(ERAS) >= {(site, n) for n in names}
    assert set(ERAS) == {(s, n) for s, names in SITE_ERAS.items() for n in names}


@pytest.mark.parametrize("site", sorted(SITE_ERAS))
def test_the_default_era_is_what_the_writer_writes(site: str) -> None:
    d = get_dialect(site)
    hands = hands_of(site, ERAS[site, eras(site)[0]])
    assert d.write_hands(hands, era=eras(site)[0]) == d.write_hands(hands)
    assert d.write_hands(hands, newline="\r\n", era=eras(site)[0]) == d.write_hands(
        hands, newline="\r\n"
    )


@pytest.mark.parametrize(("site", "era"), sorted(ERAS), ids=[f"{s}-{e}" for s, e in sorted(ERAS)])
def test_round_trip_in_each_era(site: str, era: str) -> None:
    """Written in the era, read back by Lark and by the fast path: the same hands, each
    equal to the one written on all the site's text carries, no line left unread; and the
    text shows each of the era's forms."""
    row = ERAS[site, era]
    d = get_dialect(site)
    hands = hands_of(site, row)
    files: dict[str, list[Hand]] = {}
    for h in hands:
        files.setdefault(row.file_name(h), []).append(h)
    fast, slow = type(d)(fast=True), type(d)(fast=False, cython=False)
    texts = []
    for name, group in files.items():
        text = d.write_hands(group, era=era)
        texts.append(text)
        if isinstance(d, XmlDialect):  # read by ElementTree: no grammar, no fast path
            got = list(d.read_xml(text.split("\n"), name))
        else:
            got = list(slow.parse(text, name))
            assert list(fast.parse(text, name)) == got
        assert len(got) == len(group)
        for orig, back in zip(group, got, strict=True):
            assert isinstance(back, Hand), back
            assert back.gaps() == () and not back.unread_lines, (orig.hand_id, back.gaps())
            assert (back.hand_id, back.mix) == (orig.hand_id, orig.mix)
            for name in row.keeps:
                assert getattr(back, name) == getattr(orig, name), (orig.hand_id, name)
            row.same(orig, back)
    lines = "\n".join(texts).splitlines()
    for form in row.forms:
        assert any(re.fullmatch(form, line) for line in lines), (era, form)


def test_full_tilt_2012_street_pots_count_players_and_all_ins() -> None:
    """Each 2012-2016 street marker's players are the seats less the folds written above
    it, its all-ins those of them whose line says "and is all in"; its pot is what the
    lines above it put in, less bets returned (the tournament's chips)."""
    hands = list(simulate("stud", 60, players=6, seed=3, tournament=True))
    text = get_dialect("fulltilt").write_hands(hands, era="2012-2016")
    marker = re.compile(
        r"\*\*\* \w+ STREET \*\*\* \(Total Pot: ([\d,]+), (\d) Players(?:, (\d) All-In)?\)"
    )
    adds = re.compile(r"(.+?) (antes|brings in for|calls|bets) ([\d,]+)(?:, and is all in)?")
    sets = re.compile(r"(.+?) (?:raises|completes it) to ([\d,]+)(?:, and is all in)?")
    checked = all_ins = 0
    for block in text.split("Full Tilt Poker Game #")[1:]:
        lines = block.splitlines()[1:]
        seats = len(list(takewhile(lambda ln: ln.startswith("Seat "), lines)))
        folded: set[str] = set()
        allin: set[str] = set()
        street: dict[str, int] = {}
        pot = 0
        for line in lines[seats:]:
            if line.startswith("*** SUMMARY"):
                break
            if m := marker.fullmatch(line):
                got = (int(m[1].replace(",", "")), int(m[2]), int(m[3] or 0))
                assert got == (pot, seats - len(folded), len(allin - folded)), line
                checked += 1
                all_ins += bool(m[3])
                street = {}
                continue
            m = None
            if line.endswith(" folds"):
                folded.add(line.removesuffix(" folds"))
            elif m := adds.fullmatch(line):
                chips = int(m[3].replace(",", ""))
                pot += chips
                if m[2] != "antes":
                    street[m[1]] = street.get(m[1], 0) + chips
            elif m := sets.fullmatch(line):
                to = int(m[2].replace(",", ""))
                pot += to - street.get(m[1], 0)
                street[m[1]] = to
            elif m := re.fullmatch(r"Uncalled bet of ([\d,]+) returned to .*", line):
                pot -= int(m[1].replace(",", ""))
            if m and line.endswith(", and is all in"):
                allin.add(m[1])
    assert checked > 200 and all_ins >= 3, (checked, all_ins)


def test_an_unknown_era_names_the_sites_eras() -> None:
    with pytest.raises(
        ValueError, match=r"unknown era 'nope' for absolute: choose 2008-2011, late"
    ):
        check_era("absolute", "nope")
    with pytest.raises(ValueError, match="writes one era only"):
        check_era("pokerstars", "late")
    (h,) = simulate("razz", 1, players=3, seed=1)
    with pytest.raises(ValueError, match="choose 2008-2011"):
        get_dialect("absolute").write_hands([h], era="1999")


def test_write_session_in_an_era(tmp_path: Path) -> None:
    path = tmp_path / "late.txt"
    report = write_session(path, "stud", 4, players=3, site="absolute", era="late")
    text = path.read_text(encoding="utf-8")
    assert report.hands == 4 and text.count("Stage #") == 4
    assert re.search(r"^Stage #\d+: 7 Card Stud  Normal .*\.\d{3} \(ET\)$", text, re.M)
    with pytest.raises(ValueError, match="unknown era"):
        write_session(tmp_path / "x.txt", "stud", 1, site="absolute", era="x")
    assert not (tmp_path / "x.txt").exists()


def test_cli_simulate_era(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "late.txt"
    argv = ["simulate", "--site", "absolute", "--era", "late", "--tournament", "--hands", "3",
            "--players", "3", "-q", "-o", str(out)]  # fmt: skip
    assert main(argv) == 0
    assert re.search(r"^Stage #\d+: Tourney ID \d+ ", out.read_text(encoding="utf-8"), re.M)
    assert main(["simulate", "--site", "absolute", "--era", "1999", "-o", str(tmp_path / "y")]) == 2
    err = capsys.readouterr().err
    assert "unknown era '1999' for absolute: choose 2008-2011, late" in err
    assert "Traceback" not in err and not (tmp_path / "y").exists()
    with pytest.raises(SystemExit):
        main(["simulate", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    for site, names in SITE_ERAS.items():
        assert f"{site}: {', '.join(names)}" in help_text
