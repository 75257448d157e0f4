"""The dialect contract: what every registered site promises, run over the registry.

Each site's hands, simulated and written by its own writer, read back as the same hands
(every game, cash and tournament), and the reader meets bad text the same way everywhere:
a hand cut short, a line the grammar cannot read, a player who is not seated, another
game, and the Lark and fast paths agreeing. What a site's text carries differs, so the
comparison of a hand read back with the one written is the site's own (`same` in its
test module); where a site genuinely differs from the contract (an XML site, a site
without tournaments, a format with no writer) its row in `SITES` says so, and a site
missing from the table fails `test_every_registered_site_has_a_row`, never a silent skip.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from histkit.accounting import collections, contributions
from histkit.cli import main
from histkit.dialects import get_dialect, known_sites
from histkit.dialects.xmlbase import XmlDialect
from histkit.model import ActionKind, Hand, NoteKind, StreetStart
from histkit.reader import ParseIssue, iter_hands, parse_text, strictly
from histkit.simulate import simulate
from tests.conftest import CORPUS
from tests.dialects import (
    test_absolute,
    test_bovada,
    test_everleaf,
    test_fulltilt,
    test_ipoker,
    test_kingsclub,
    test_merge,
    test_ongame,
    test_partypoker,
    test_pokerstars,
    test_winamax,
    test_wpn,
)

Items = list[Hand | ParseIssue]
Same = Callable[[Hand, Hand], None]
GAMES = ("stud", "stud_hilo", "razz")
TABLES = ((2, 1), (3, 5), (5, 2), (6, 3), (8, 4))  # (players, seed) of each round trip
HANDS = 30  # per round trip
QUICK = (5, 2)  # the table of the quick loop (`-m "not slow"`); the others are marked slow


def by_tournament(name: str) -> Callable[[Hand], str]:
    """File names that keep a tournament's id where a site keeps it only there."""
    return lambda h: name.format(tid=h.tournament_id) if h.tournament_id else "sim.txt"


@dataclass(frozen=True)
class Site:
    """A site's row: what the contract feeds it and what it expects back, with every way
    the site differs from the rest said here."""

    same: Same | None  # the site's own comparison of a hand read back with the one written
    currencies: tuple[str, ...] = ("USD",)  # cash round trips (the first: samples, tournaments)
    any_currency: tuple[str, ...] = ()  # what the any-seed round trips draw (default: the above)
    tournaments: str = ""  # why its text has no tournament form ("" when it has one)
    tables: tuple[tuple[int, int], ...] = TABLES
    keep: Callable[[Hand], bool] = lambda h: True  # simulated hands its text can carry
    file_name: Callable[[Hand], str] = lambda h: "sim.txt"
    write: Callable[[list[Hand]], str] | None = None  # default: the dialect's writer
    folder: str = ""  # its real hands in ../shared/hands
    real: tuple[str, ...] = ()  # the files there (default: the whole folder)
    fast_path: bool = True
    xml: bool = False  # an XML site: bad text is an element, and broken XML loses the hand
    garble: tuple[str, str] = ("all", "alI")  # what garbles the line of a call
    garbled_says: str = "line not understood"
    broken: tuple[str, str] = ("", "")  # XML: what makes the call's element not well-formed
    stranger: tuple[str, str] = ("{p}", "Nobody")  # what seats a stranger on that line
    stranger_says: str = "'Nobody' is not seated"
    cut_at_hand: bool = False  # a cut or broken hand is reported at its first line
    other_game: tuple[str, str, str] = ("", "", "")  # header (old, new) and the game read
    audit_gaps: frozenset[str] = frozenset()  # what the audit of its stud text may name
    none: str = ""  # why the contract does not apply at all


# no deal lines for the boards: a 4th-street big bet over an open pair nobody wrote
OPEN_PAIR_UNKNOWN = frozenset({"BET_SIZE", "RAISE_SIZE"})


def _one_session_each(hands: list[Hand]) -> str:
    """iPoker as `histkit simulate` writes it: one session per hand (a session of several
    hands across levels names no stakes: test_ipoker covers that form)."""
    w = get_dialect("ipoker")
    return "".join(w.write_hands([h]) for h in hands)


def _no_community_card(h: Hand) -> bool:
    return not any(isinstance(e, StreetStart) and e.community for e in h.events)


SITES: dict[str, Site] = {
    "pokerstars": Site(
        test_pokerstars.same,
        folder="pokerstars",
        other_game=("7 Card Stud Limit", "Hold'em No Limit", "Hold'em No Limit"),
    ),
    "fulltilt": Site(
        test_fulltilt.same,
        folder="fulltilt",
        other_game=("Limit Stud Hi", "No Limit Hold'em", "No Limit Hold'em"),
    ),
    "winamax": Site(
        test_winamax.same,
        currencies=("EUR",),  # Winamax writes euros only
        folder="winamax",
        other_game=("7-Card Stud fixed limit", "Holdem no limit", "Holdem no limit"),
    ),
    "wpn": Site(
        test_wpn.same_2019,
        folder="wpn",
        real=("7Stud-8max-USD-0.04-0.08-201907.CASHID-TN-Gorham GAMETYPE.txt",),
        other_game=("7Stud(Fixed Limit)", "Holdem(No Limit)", "Holdem(No Limit)"),
    ),
    "wpn_2016": Site(
        test_wpn.same_2016,
        tournaments="no tournament form of the old client is known",
        keep=_no_community_card,  # no old-client form of a community card is known
        folder="wpn",
        real=("7-Stud-8max-USD-1.00-2.00-201608.HH00000000 G0.txt",),
        other_game=("(Seven Cards Stud)", "(Hold'em)", "Hold'em"),
    ),
    "bovada": Site(
        test_bovada.same,
        folder="bovada",
        stranger=("{p}", "Seat+9"),  # seats for names
        stranger_says="'Seat+9' is not seated",
        other_game=("7CARD Fixed Limit", "HOLDEM No Limit", "HOLDEM No Limit"),
    ),
    "partypoker": Site(
        test_partypoker.same,
        audit_gaps=OPEN_PAIR_UNKNOWN,
        folder="partypoker",
        other_game=("7 Card Stud", "NL Texas Hold'em", "NL Texas Hold'em"),
    ),
    "ongame": Site(
        test_ongame.same,
        any_currency=("USD", "EUR", "GBP"),
        folder="ongame",
        other_game=("LIMIT SEVEN_CARD_STUD", "NO_LIMIT TEXAS_HOLDEM", "NO_LIMIT TEXAS_HOLDEM"),
    ),
    "everleaf": Site(
        test_everleaf.same,
        currencies=("USD", "EUR"),
        file_name=by_tournament("TID_{tid}-1.txt"),  # Everleaf keeps the id in the name only
        audit_gaps=OPEN_PAIR_UNKNOWN,
        folder="everleaf",
        other_game=("7 Card Stud", "7 Card Stud Hi-Lo Pot Limit", "7 Card Stud Hi-Lo Pot Limit"),
    ),
    "kingsclub": Site(
        test_kingsclub.same,
        tournaments="no Kings Club tournament form is known",
        tables=(*TABLES, (4, 2), (7, 9)),  # cash only: more tables for the same cost
        folder="kingsclub",
        other_game=("Limit Seven Card Stud", "No Limit Hold'em", "No Limit Hold'em"),
    ),
    "absolute": Site(
        test_absolute.same,
        any_currency=("USD", "EUR"),
        folder="absolute",
        other_game=("Seven Card  Normal", "Holdem  No Limit", "HOLDEM NO LIMIT"),  # upper case
    ),
    "ipoker": Site(
        test_ipoker.same,
        currencies=("EUR",),
        any_currency=("EUR", "USD", "GBP"),
        file_name=lambda h: "sim.xml",
        write=_one_session_each,
        folder="ipoker",
        fast_path=False,
        xml=True,
        garble=('type="3"', 'type="42"'),  # an action type nobody knows
        garbled_says="unknown action type '42'",
        broken=('type="3"', "type=3"),
        stranger=('player="{p}" type="3"', 'player="Nobody" type="3"'),
        cut_at_hand=True,  # the file ends inside the hand
        other_game=("7 Card Stud L", "Holdem NL", "Holdem NL"),
    ),
    "merge": Site(
        test_merge.same,
        file_name=lambda h: "sim.xml",
        folder="merge",
        fast_path=False,
        xml=True,
        garble=('type="CALL"', 'type="CALX"'),
        garbled_says="unknown event 'CALX'",
        broken=('type="CALL"', "type=CALL"),
        stranger=('player="{seat}"', 'player="9"'),
        stranger_says="no player sits at seat 9",
        other_game=('type="7-Stud"', 'type="Holdem"', "Limit Holdem"),
    ),
    "phh": Site(
        None,
        fast_path=False,
        none="PHH is PokerKit's TOML, read a file at a time and written by `histkit export "
        "--format phh`, not a site's text: tests/phh holds its round trips and bad input",
    ),
}

APPLIES = [s for s, row in SITES.items() if not row.none]


def read(site: str, text: str, source: str) -> Items:
    """Every hand and issue of `text` read as `site`, as the reading layer reads a file."""
    d = get_dialect(site)
    if isinstance(d, XmlDialect):
        return list(d.read_xml(text.replace("\r\n", "\n").split("\n"), source))
    return parse_text(text, source=source, site=site)


def write(site: str, hands: list[Hand], newline: str = "\n") -> str:
    row = SITES[site]
    if row.write is not None:
        return row.write(hands)
    return get_dialect(site).write_hands(hands, newline=newline)


def kinds(site: str) -> Iterator[tuple[bool, str]]:
    """(tournament, currency) of each round trip: cash in each currency the site writes,
    and a tournament where it has one."""
    row = SITES[site]
    for currency in row.currencies:
        yield False, currency
    if not row.tournaments:
        yield True, row.currencies[0]


# --------------------------------------------------------------------------- registry


def test_every_registered_site_has_a_row() -> None:
    assert set(SITES) == set(known_sites())
    for site, row in SITES.items():
        d = get_dialect(site)
        assert (row.none == "") == bool(d.writer), site  # a writer, or a reason for none
        if row.none:
            continue
        assert isinstance(d, XmlDialect) == row.xml, site
        if row.xml:  # read by ElementTree: no grammar, no fast path
            assert not d.grammar_file and not row.fast_path, site
        else:
            assert d.uses_fast_path == row.fast_path, site


# ------------------------------------------------------------------------- round trips


def round_trip(site: str, hands: list[Hand], newline: str = "\n") -> None:
    """`hands` written as `site` writes them and read back: as many hands, in order, each
    with its id, game, seats, stacks and every player's chips in and out, and the same
    on all that the site's text carries (the site's `same`)."""
    row = SITES[site]
    assert row.same is not None
    hands = [h for h in hands if row.keep(h)]
    files: dict[str, list[Hand]] = {}
    for h in hands:
        files.setdefault(row.file_name(h), []).append(h)
    for name, group in files.items():
        items = read(site, write(site, group, newline), name)
        assert len(items) == len(group)
        for orig, back in zip(group, items, strict=True):
            assert isinstance(back, Hand), back
            assert back.gaps() == (), (orig.hand_id, back.gaps())
            assert (back.hand_id, back.game) == (orig.hand_id, orig.game)
            assert (back.site, back.dialect) == (get_dialect(site).site, site)
            assert back.is_tournament == orig.is_tournament, orig.hand_id
            seat = {s.player: s.seat for s in back.seats}
            assert [(s.seat, s.stack) for s in back.seats] == [
                (s.seat, s.stack) for s in orig.seats if s.seat in seat.values()
            ], orig.hand_id
            assert _chips_by_seat(back) == _chips_by_seat(orig), orig.hand_id
            row.same(orig, back)


@pytest.mark.parametrize("site", [s for s in APPLIES if SITES[s].tournaments])
def test_a_site_without_tournaments_refuses_to_write_one(site: str) -> None:
    """The exception in the table is the writer's: it refuses, it does not write a cash
    hand that is not."""
    (h,) = simulate("stud", 1, players=3, seed=1, tournament=True,
                    profile=get_dialect(site).profile)  # fmt: skip
    with pytest.raises(ValueError, match="cash only"):
        write(site, [h])


@pytest.mark.slow
@pytest.mark.parametrize("tournament", [False, True], ids=["cash", "mtt"])
@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("site", APPLIES)
def test_the_simulate_command_writes_what_the_audit_passes(
    site: str, game: str, tournament: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`histkit simulate --site S` and then `histkit audit`: every hand read, none
    rejected, no violation (but the row's known gaps in stud); a site without tournaments
    refuses `--tournament` with a usage error."""
    row = SITES[site]
    out = tmp_path / "sim.txt"
    argv = ["simulate", "--site", site, "--game", game, "--hands", "200", "-o", str(out), "-q",
            "--currency", row.currencies[0], *(["--tournament"] if tournament else [])]  # fmt: skip
    if tournament and row.tournaments:
        assert main(argv) == 2
        return
    assert main(argv) == 0
    first = next(iter(iter_hands([out])))  # found to be the site's with no option
    assert isinstance(first, Hand) and first.dialect == site, first
    capsys.readouterr()
    rc = main(["audit", str(out), "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    assert (data["hands"], data["rejected"], data["skipped"], data["unread_hands"]) == (
        200, [], 0, 0
    )  # fmt: skip
    allowed = row.audit_gaps if game == "stud" else frozenset()
    assert set(data["by_code"]) <= allowed, data["by_code"]
    assert all(v["street"] == 4 for v in data["violations"])
    assert rc == (1 if data["by_code"] else 0)


def _chips_by_seat(h: Hand) -> dict[int, int]:
    """What each seat ends the hand up or down (the pot's money, whoever the text names)."""
    seat = {s.player: s.seat for s in h.seats}
    paid, got = contributions(h), collections(h)
    return {seat[p]: got.get(p, 0) - paid.get(p, 0) for p in {*paid, *got}}


ROUND_TRIPS = [
    pytest.param(site, game, tournament, currency, players, seed,
                 id=f"{site}-{game}-{'mtt' if tournament else currency}-{players}p",
                 marks=() if (players, seed) == QUICK else pytest.mark.slow)
    for site in APPLIES
    for game in GAMES
    for tournament, currency in kinds(site)
    for players, seed in SITES[site].tables
]  # fmt: skip


@pytest.mark.parametrize(("site", "game", "tournament", "currency", "players", "seed"), ROUND_TRIPS)
def test_round_trip(
    site: str, game: str, tournament: bool, currency: str, players: int, seed: int
) -> None:
    hands = simulate(game, HANDS, players=players, seed=seed, tournament=tournament,
                     currency=currency, profile=get_dialect(site).profile)  # fmt: skip
    round_trip(site, list(hands))


@pytest.mark.parametrize("site", APPLIES)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(GAMES),
    players=st.integers(2, 8),
    seed=st.integers(0, 2**31),
    tournament=st.booleans(),
    data=st.data(),
)
def test_round_trips_at_any_seed(
    site: str, game: str, players: int, seed: int, tournament: bool, data: st.DataObject
) -> None:
    """Any table, in any currency the site writes, with the clients' CRLF line ends."""
    row = SITES[site]
    currency = data.draw(st.sampled_from(row.any_currency or row.currencies))
    hands = simulate(game, 5, players=players, seed=seed, currency=currency,
                     tournament=tournament and not row.tournaments,
                     profile=get_dialect(site).profile)  # fmt: skip
    round_trip(site, list(hands), newline="\r\n")


# -------------------------------------------------------------------------- bad text


@dataclass(frozen=True)
class Sample:
    """Two hands as the site writes them, the first with a call (not all in) on `line`
    of its text by `caller` (in seat `seat`), and both as read back."""

    first: str
    second: str
    back: Hand
    next_back: Hand
    line: int
    caller: str
    seat: int

    def lines(self) -> list[str]:
        return self.first.split("\n")

    def with_line(self, old: str, new: str) -> tuple[str, str]:
        """The first hand with `old` replaced by `new` on the call's line, and that line."""
        lines = self.lines()
        was = lines[self.line - 1]
        lines[self.line - 1] = was.replace(old.format(p=self.caller, seat=self.seat), new, 1)
        assert lines[self.line - 1] != was, (old, was)
        return "\n".join(lines), lines[self.line - 1]


@cache
def sample(site: str) -> Sample:
    row = SITES[site]
    hands = simulate("stud", 20, players=4, seed=7, currency=row.currencies[0],
                     profile=get_dialect(site).profile)  # fmt: skip
    kept = [h for h in hands if row.keep(h)]
    for h, following in zip(kept, kept[1:], strict=False):
        first, second = write(site, [h]), write(site, [following])
        back = read(site, first, "t.txt")[0]
        assert isinstance(back, Hand), back
        calls = [a for a in back.actions() if a.kind is ActionKind.CALL and not a.all_in]
        if calls:
            (next_back,) = read(site, second, "t.txt")
            assert isinstance(next_back, Hand), next_back
            caller = calls[0].player
            seat = next(s.seat for s in back.seats if s.player == caller)
            return Sample(first, second, back, next_back, calls[0].line, caller, seat)
    raise AssertionError(f"no simulated {site} hand with a call")


def strict(items: Items) -> Items:
    """What a strict reading (`parse --strict`) gives: a hand read without a line is
    rejected there; the rest as read."""
    out = list(strictly(items))
    for was, now in zip(items, out, strict=True):
        assert isinstance(was, Hand) or was == now
    return out


def kept_without(site: str, text: str, line: int, source: str = "t.txt") -> ParseIssue:
    """`text`'s hand, read without its line `line` (a gap note there), and the rejection
    a strict reading gives it instead, at that line, with its file and hand id."""
    items = read(site, text, source)
    hand = items[0]
    assert isinstance(hand, Hand), hand
    assert hand.gaps() and hand.gaps()[0].line == line, hand.gaps()
    issue = strict(items)[0]
    assert isinstance(issue, ParseIssue)
    assert (issue.kind, issue.source_file, issue.hand_id, issue.line) == (
        "rejected", source, hand.hand_id, line
    )  # fmt: skip
    return issue


@pytest.mark.parametrize("site", APPLIES)
def test_a_hand_cut_short_is_reported_at_its_file_line_and_id_and_the_next_is_read(
    site: str,
) -> None:
    """Text: the hand is kept without what is missing (a CUT note at its last line), and
    a strict reading rejects it there; XML: the hand is lost (rejected). The next hand
    is read either way."""
    row, s = SITES[site], sample(site)
    cut = "\n".join(s.lines()[: s.line]) + "\n" + s.second
    items = read(site, cut, "cut.txt")
    if row.cut_at_hand:  # known only where the file ends: after the next hand
        items.reverse()
    assert len(items) == 2 and isinstance(items[1], Hand)
    assert items[1].hand_id == s.next_back.hand_id
    bad = strict(items)[0]
    assert isinstance(bad, ParseIssue)
    line = s.back.source.line if row.cut_at_hand else s.line
    assert (bad.kind, bad.source_file, bad.hand_id, bad.line) == (
        "rejected", "cut.txt", s.back.hand_id, line
    )  # fmt: skip
    assert "truncated" in bad.reason
    if row.xml:
        assert isinstance(items[0], ParseIssue)  # broken XML: the hand is lost
    else:
        assert isinstance(items[0], Hand)
        assert [(g.kind, g.line) for g in items[0].gaps()] == [(NoteKind.CUT, s.line)]
        last = s.lines()[s.line - 1].strip()
        assert f"ends early (truncated?) after {last!r}; expected " in bad.reason


@pytest.mark.parametrize("site", APPLIES)
def test_a_garbled_line_is_left_out_and_named(site: str) -> None:
    """The hand is kept without the line (an UNREAD note), and a strict reading rejects
    it at that line, saying what it could not read."""
    row, s = SITES[site], sample(site)
    text, new = s.with_line(*row.garble)
    issue = kept_without(site, text, s.line)
    assert row.garbled_says in issue.reason
    if not row.xml:
        assert f"line not understood: {new.strip()!r}" in issue.reason
    gap = read(site, text, "t.txt")[0].gaps()[0]  # type: ignore[union-attr]
    assert gap.kind is NoteKind.UNREAD


@pytest.mark.parametrize("site", [s for s in APPLIES if SITES[s].xml])
def test_xml_that_is_not_well_formed_loses_the_hand_and_says_where(site: str) -> None:
    """The frame itself garbled: the hand is rejected with its file, line and id (at the
    broken element, or at the hand's first line naming the broken one), the next read."""
    row, s = SITES[site], sample(site)
    text, _ = s.with_line(*row.broken)
    items = read(site, text + s.second, "bad.xml")
    assert [type(i) for i in items] == [ParseIssue, Hand], items
    got = items[0]
    assert isinstance(got, ParseIssue)
    line = s.back.source.line if row.cut_at_hand else s.line
    assert (got.kind, got.source_file, got.hand_id, got.line) == (
        "rejected", "bad.xml", s.back.hand_id, line
    )  # fmt: skip
    assert "not well-formed" in got.reason
    if row.cut_at_hand:
        assert f"(line {s.line})" in got.reason


@pytest.mark.parametrize("site", APPLIES)
def test_a_player_not_seated_is_left_out_and_named(site: str) -> None:
    row, s = SITES[site], sample(site)
    text, _ = s.with_line(*row.stranger)
    issue = kept_without(site, text, s.line)
    assert row.stranger_says in issue.reason


@pytest.mark.parametrize("site", APPLIES)
def test_another_game_is_skipped_by_its_header(site: str) -> None:
    row, s = SITES[site], sample(site)
    old, new, game = row.other_game
    assert old in s.first
    (got,) = read(site, s.first.replace(old, new, 1), "t.txt")
    assert isinstance(got, ParseIssue)
    assert (got.kind, got.hand_id, got.game, got.line) == (
        "skipped", s.back.hand_id, game, s.back.source.line
    )  # fmt: skip
    assert got.reason.startswith("other game")


# ------------------------------------------------------------- Lark and the fast path

FAST = [s for s in APPLIES if SITES[s].fast_path]


@pytest.mark.parametrize("site", FAST)
def test_lark_and_the_fast_path_agree_on_written_and_bad_text(site: str) -> None:
    """Every game, cash and tournament, and the bad text above: the same hands and issues
    either way."""
    row, s = SITES[site], sample(site)
    d = get_dialect(site)
    hands = [h for game in GAMES for tournament, currency in kinds(site)
             for h in simulate(game, 10, players=6, seed=11, tournament=tournament,
                               currency=currency, profile=d.profile)]  # fmt: skip
    bad = [
        "\n".join(s.lines()[: s.line]) + "\n",
        s.with_line(*row.garble)[0],
        s.with_line(*row.stranger)[0],
        s.first.replace(row.other_game[0], row.other_game[1], 1),
    ]
    text = write(site, [h for h in hands if row.keep(h)]) + "".join(bad) + s.second
    fast, slow = type(d)(fast=True), type(d)(fast=False, cython=False)
    assert fast.uses_fast_path and not slow.uses_fast_path
    got = list(slow.parse(text, "t.txt"))
    assert sum(isinstance(h, Hand) for h in got) >= len(hands)
    assert list(fast.parse(text, "t.txt")) == got


@pytest.mark.parametrize("site", FAST)
def test_lark_and_the_fast_path_agree_on_the_real_files(site: str) -> None:
    row = SITES[site]
    folder = CORPUS / row.folder
    if not folder.is_dir():
        pytest.skip(f"../shared/hands/{row.folder} is absent (fresh clone without the corpus)")
    paths: list[Path] = [folder / f for f in row.real] or [folder]
    d = get_dialect(site)
    fast, slow = type(d)(fast=True), type(d)(fast=False, cython=False)
    got = list(iter_hands(paths, site=slow))
    assert any(isinstance(h, Hand) for h in got)
    assert list(iter_hands(paths, site=fast)) == got
