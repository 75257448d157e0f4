"""The PHH writer and reader on their own: the fields PHH defines for stud, TOML that reads
back, PHH from elsewhere (PokerKit's, a dataset's), and bad input named at its line."""

from __future__ import annotations

import dataclasses
import tomllib
from pathlib import Path

import pytest

from histkit.model import ActionKind, Collect, Deal, Game, Hand, PotKind, Show, Street, Unit
from histkit.phh import VARIANTS, PhhError, dumps, hand_fields, read_phh
from histkit.phh.writer import level_number
from histkit.reader import ParseIssue, iter_files, iter_hands
from histkit.rules import Code, replay
from histkit.simulate import simulate
from tests.conftest import CORPUS


def _read(text: str, name: str = "x.phh") -> list[Hand | ParseIssue]:
    return list(read_phh(text.split("\n"), name))


def _one(text: str, name: str = "x.phh") -> Hand:
    (hand,) = _read(text, name)
    assert isinstance(hand, Hand), hand
    return hand


def _issue(text: str, name: str = "x.phh") -> ParseIssue:
    (issue,) = _read(text, name)
    assert isinstance(issue, ParseIssue), issue
    return issue


# -- writing ------------------------------------------------------------------------


@pytest.mark.parametrize("game", list(Game))
def test_every_field_phh_defines_for_stud(game: Game) -> None:
    cash, tournament = (
        next(iter(simulate(game, 1, players=5, seed=4, tournament=t))) for t in (False, True)
    )
    for hand in (cash, tournament):
        f = tomllib.loads(dumps(hand))
        assert (
            f["variant"]
            == VARIANTS[game]
            == {"stud": "F7S", "stud_hilo": "F7S/8"}.get(game.value, "FR")
        )
        n = len(f["players"])
        for key in ("antes", "starting_stacks", "seats", "finishing_stacks", "winnings"):
            assert len(f[key]) == n and all(type(v) is int for v in f[key]), key
        assert all(type(f[k]) is int for k in ("bring_in", "small_bet", "big_bet"))
        assert f["small_bet"] == hand.small_bet and f["big_bet"] == hand.big_bet
        assert f["ante_trimming_status"] is False and f["hand"] == hand.hand_id
        assert f["table"] == hand.table and f["seat_count"] == hand.max_seats
        assert f["venue"] == "PokerStars" and f["_site"] == "pokerstars"
        assert f["time_zone"] == "UTC" and hand.started_at is not None
        assert (f["year"], f["month"], f["day"]) == (
            hand.started_at.year,
            hand.started_at.month,
            hand.started_at.day,
        )
        deals = [a for a in f["actions"] if a.startswith("d dh")]
        assert deals and any("????" in a for a in deals)  # opponents' down cards unknown
    cash_f, tour_f = tomllib.loads(dumps(cash)), tomllib.loads(dumps(tournament))
    assert cash_f["currency"] == "USD" and cash_f["_unit"] == "cent"
    assert "currency" not in tour_f and tour_f["_unit"] == "chip"
    assert tour_f["event"] == f"Tournament {tournament.tournament_id}"
    assert tour_f["level"] == level_number(tournament.level)


def _cards_written(text: str) -> tuple[dict[str, int], bool]:
    """Cards each player (p1, p2, ...) is dealt in a PHH text, and whether a community
    card was dealt."""
    f = tomllib.loads(text)
    held: dict[str, int] = {}
    for a in f["actions"]:
        words = a.split()
        if words[:2] == ["d", "dh"]:
            held[words[2]] = held.get(words[2], 0) + len(words[3]) // 2
    return held, any(a.startswith("d db") for a in f["actions"])


def _cards_dealt(hand: Hand) -> dict[str, int]:
    """Cards each player was really dealt: the street he folded on, else the last
    street (7th at a showdown, the street the others folded on when they all did)."""
    folded = {a.player: int(a.street) for a in hand.actions() if a.kind is ActionKind.FOLD}
    players = list(dict.fromkeys(e.player for e in hand.events if isinstance(e, Deal)))
    last = max(int(e.street) for e in hand.events if hasattr(e, "street"))
    end = 7 if sum(1 for p in players if p not in folded) > 1 else last
    return {p: folded.get(p, end) for p in players}


def _every_card_is_written(hand: Hand) -> None:
    if not any(isinstance(e, Deal) for e in hand.events):
        return  # a record without deals: nothing says who was dealt what
    held, community = _cards_written(dumps(hand))
    labels = {p: f"p{i}" for i, p in enumerate(tomllib.loads(dumps(hand))["players"], 1)}
    want = {
        labels[p]: n - (1 if community and n == 7 else 0) for p, n in _cards_dealt(hand).items()
    }
    assert held == want, (hand.site, hand.hand_id)


@pytest.mark.parametrize("game", list(Game))
def test_every_card_dealt_is_written_the_unseen_as_unknown(game: Game) -> None:
    """Sites write no line for an opponent's 7th-street card (it is dealt face down): the
    PHH deals it all the same, as `??`, so a reader never deals a card itself."""
    n = sevenths = 0
    for tournament, seed in ((False, 1), (True, 2)):
        for hand in simulate(game, 30, players=6, seed=seed, tournament=tournament):
            _every_card_is_written(hand)
            actions = tomllib.loads(dumps(hand))["actions"]
            sevenths += any(a.startswith("d dh") and a.endswith(" ??") for a in actions)
            n += 1
    assert n == 60 and sevenths > 5  # showdowns with an opponent's unseen 7th card


def test_unseen_seventh_street_cards_read_back_as_unknown_deals() -> None:
    """The `d dh pN ??` of a card nobody saw is read as a 7th-street deal of an unknown
    card: the hand read back deals every player at the showdown his seven cards, and the
    audit finds nothing in it that it did not find in the text."""
    checked = 0
    for hand in simulate("stud", 40, players=4, seed=6):
        folded = {a.player for a in hand.actions() if a.kind is ActionKind.FOLD}
        players = {e.player for e in hand.events if isinstance(e, Deal)}
        at_showdown = players - folded
        if len(at_showdown) < 2:
            continue
        seventh = {
            e.player for e in hand.events if isinstance(e, Deal) and e.street is Street.SEVENTH
        }
        back = _one(dumps(hand))
        dealt = {e.player: e for e in back.events if isinstance(e, Deal) and e.street == 7}
        assert at_showdown <= set(dealt), hand.hand_id
        unwritten = at_showdown - seventh  # the record has no line for their 7th card
        shown = {e.player: e.cards for e in hand.events if isinstance(e, Show)}
        for p in unwritten:  # unknown, or (after an all-in showdown) as the show named it
            card = dealt[p].cards
            assert card == (None,) or card == shown[p][6:], (hand.hand_id, p, card)
        assert not replay(back).errors
        checked += bool(unwritten)
    assert checked >= 5


@pytest.mark.skipif(not CORPUS.is_dir(), reason="../shared/hands is absent")
def test_every_card_dealt_in_a_real_hand_is_written() -> None:
    n = 0
    for hand in iter_hands([CORPUS]):
        if isinstance(hand, Hand):
            _every_card_is_written(hand)
            n += 1
    assert n > 300


def test_names_of_any_characters_survive_toml() -> None:
    hand = next(iter(simulate("razz", 1, players=3, seed=1)))
    odd = ['Joe "the" \\ Bob', "tab\there", "é ü 中", "x\x01y"]
    names = {s.player: odd[i] for i, s in enumerate(hand.seats[:3])}

    def rename(e: object) -> object:
        p = getattr(e, "player", None)
        return dataclasses.replace(e, player=names[p]) if p in names else e  # type: ignore[type-var]

    hand = dataclasses.replace(
        hand,
        seats=tuple(rename(s) for s in hand.seats),  # type: ignore[misc]
        events=tuple(rename(e) for e in hand.events),  # type: ignore[misc]
        hero=names.get(hand.hero or "", hand.hero),
    )
    back = _one(dumps(hand))
    assert [s.player for s in back.seats] == [s.player for s in hand.seats]


def test_roman_levels_and_ints() -> None:
    assert [level_number(t) for t in ("IV", "XIX", "12", "MCMXC", "Final", None)] == [
        4,
        19,
        12,
        1990,
        None,
        None,
    ]


def test_a_player_who_plays_without_a_deal_cannot_be_written() -> None:
    hand = next(iter(simulate("stud", 1, players=3, seed=2)))
    ghost = dataclasses.replace(hand.seats[0], player="Ghost", seat=9)
    bad = dataclasses.replace(
        hand,
        seats=(*hand.seats, ghost),
        events=(*hand.events, Collect("Ghost", 1, PotKind.POT)),
    )
    with pytest.raises(PhhError, match="Ghost"):
        dumps(bad)


# -- reading PHH from elsewhere -----------------------------------------------------

_POKERKIT_STYLE = """\
variant = 'F7S'
ante_trimming_status = false
antes = [1, 1, 1]
bring_in = 2
small_bet = 5
big_bet = 10
starting_stacks = [100, 100, 100]
actions = ['d dh p1 AcKd2s', 'd dh p2 ????3h', 'd dh p3 ????4h', 'p1 pb # the deuce', \
'p2 f', 'p3 cc', 'd dh p1 5c', 'd dh p3 6c', 'p3 cbr 5', 'p1 cc', 'd dh p1 Jd', \
'd dh p3 Qd', 'p3 cc', 'p1 cbr 10', 'p3 f']
"""


def test_phh_of_no_site_reads_with_the_formats_own_defaults() -> None:
    hand = _one(_POKERKIT_STYLE + "finishing_stacks = [109, 99, 92]\n", "session/a hand.phh")
    assert (hand.site, hand.hand_id, hand.unit, hand.currency) == ("phh", "a hand", Unit.CHIP, None)
    assert [s.player for s in hand.seats] == ["p1", "p2", "p3"]
    assert [s.seat for s in hand.seats] == [1, 2, 3]
    kinds = [(a.street, a.player, a.kind, a.amount) for a in hand.actions()]
    assert kinds[3:] == [
        (3, "p1", ActionKind.BRING_IN, 2),
        (3, "p2", ActionKind.FOLD, 0),
        (3, "p3", ActionKind.CALL, 2),
        (4, "p3", ActionKind.BET, 5),
        (4, "p1", ActionKind.CALL, 5),
        (5, "p3", ActionKind.CHECK, 0),
        (5, "p1", ActionKind.BET, 10),
        (5, "p3", ActionKind.FOLD, 0),
    ]
    assert hand.money_unit == "chips:phh:play"
    # the winnings follow from the finishing stacks; the uncalled bet is returned by PHH's
    # rules; no site: Robert's Rules
    assert [(c.player, c.amount, c.pot) for c in hand.events if isinstance(c, Collect)] == [
        ("p1", 17, PotKind.TOTAL)
    ]
    rp = replay(hand)
    assert rp.profile == "casino" and not rp.errors
    # a record that says nobody's result: nothing is invented, the audit says so
    assert Code.POT_TOTAL in replay(_one(_POKERKIT_STYLE)).codes()


def test_streets_follow_the_betting_when_no_cards_are_written() -> None:
    text = _POKERKIT_STYLE.replace("'d dh p1 5c', 'd dh p3 6c', ", "").replace(
        "'d dh p1 Jd', 'd dh p3 Qd', ", ""
    )
    streets = [(a.street, a.kind) for a in _one(text).actions() if a.player == "p3"]
    assert [int(s) for s, _ in streets] == [3, 3, 4, 5, 5]


def test_cash_in_whole_currency_units_is_read_in_cents() -> None:
    text = _POKERKIT_STYLE.replace("bring_in = 2", "bring_in = 0.02")
    text = text.replace("small_bet = 5", "small_bet = 0.05").replace(
        "big_bet = 10", "big_bet = 0.10"
    )
    text = text.replace("[1, 1, 1]", "[0.01, 0.01, 0.01]").replace("[100, 100, 100]", "[1, 1, 1.5]")
    text = text.replace("cbr 5", "cbr 0.05").replace("cbr 10", "cbr 0.1")
    hand = _one(text + "currency = 'USD'\n")
    assert (hand.unit, hand.currency, hand.small_bet, hand.big_bet) == (Unit.CENT, "USD", 5, 10)
    assert [s.stack for s in hand.seats] == [100, 100, 150]
    issue = _issue(text.replace("0.05", "0.055", 1) + "currency = 'USD'\n")
    assert issue.kind == "rejected" and issue.line == 5 and "whole number of cents" in issue.reason


@pytest.mark.parametrize(
    ("change", "line", "words"),
    [
        (("'p2 f'", "'p2 fold'"), 8, "action not understood"),
        (("'p2 f'", "'p9 f'"), 8, "no player of this hand"),
        (("'p2 f'", "'p2 sd 4h'"), 8, "no stud action"),
        (("'p1 cc', 'd dh p1 Jd'", "'p1 cbr 3', 'd dh p1 Jd'"), 8, "not above"),
        (("small_bet = 5\n", ""), 1, "small_bet is missing"),
        (("bring_in = 2", "bring_in = 'two'"), 4, "bring_in"),
    ],
)
def test_a_bad_hand_is_rejected_at_its_line(change: tuple[str, str], line: int, words: str) -> None:
    issue = _issue(_POKERKIT_STYLE.replace(*change) + "hand = 77\n", "bad.phh")
    assert (issue.kind, issue.line, issue.hand_id, issue.source_file) == (
        "rejected",
        line,
        "77",
        "bad.phh",
    )
    assert words in issue.reason


def test_one_bad_hand_of_a_phhs_costs_only_itself() -> None:
    hands = list(simulate("stud_hilo", 3, players=4, seed=6))
    from histkit.phh import dumps_all

    text = dumps_all(hands)
    second = text.index("[2]")
    broken = text[:second] + text[second:].replace("starting_stacks = [", "starting_stacks = [[", 1)
    items = _read(broken, "three.phhs")
    assert [type(i).__name__ for i in items] == ["Hand", "ParseIssue", "Hand"]
    issue = items[1]
    assert isinstance(issue, ParseIssue) and issue.kind == "rejected"
    assert issue.hand_id == hands[1].hand_id and "not valid TOML" in issue.reason
    lines = broken.split("\n")
    second_hand = range(lines.index("[2]") + 1, lines.index("[3]") + 1)
    assert issue.line in second_hand


def test_other_variants_are_skipped_like_other_games() -> None:
    text = _POKERKIT_STYLE.replace("variant = 'F7S'", "variant = 'NT'")
    issue = _issue(text)
    assert (issue.kind, issue.game, issue.line) == ("skipped", "NT", 1)


def test_a_value_outside_any_hand_in_a_phhs_is_named() -> None:
    text = "author = 'me'\n[1]\n" + _POKERKIT_STYLE
    items = _read(text, "two.phhs")
    assert isinstance(items[0], ParseIssue) and "'author' is not a hand" in items[0].reason
    assert isinstance(items[1], Hand) and items[1].hand_id == "two:1"


def test_pokerkits_own_phh_of_a_stud_hand_reads() -> None:
    pk = pytest.importorskip("pokerkit")
    from pokerkit.notation import HandHistory

    game = pk.FixedLimitRazz(
        (pk.Automation.ANTE_POSTING, pk.Automation.BET_COLLECTION, pk.Automation.CARD_BURNING,
         pk.Automation.HAND_KILLING, pk.Automation.CHIPS_PUSHING, pk.Automation.CHIPS_PULLING),
        True, 1, 2, 4, 8,
    )  # fmt: skip
    state = game((50, 50), 2)
    state.deal_hole("AcKd2s")
    state.deal_hole("????Qh")
    state.post_bring_in()
    state.fold()
    text = HandHistory.from_game_state(game, state).dumps()
    hand = _one(text)
    assert hand.game is Game.RAZZ and [a.kind for a in hand.actions()][-2:] == [
        ActionKind.BRING_IN,
        ActionKind.FOLD,
    ]
    deal = next(e for e in hand.events if isinstance(e, Deal) and e.player == "p2")
    assert (deal.cards[:2], deal.up) == ((None, None), (False, False, True))


def test_histkits_own_fields_give_the_site_and_its_house_rules() -> None:
    hand = next(iter(simulate("stud", 1, players=2, seed=3)))
    back = _one(dumps(hand))
    assert (back.site, back.dialect) == ("pokerstars", "phh")
    assert replay(back).profile == replay(hand).profile == "pokerstars"
    f = hand_fields(hand)
    f.pop("_site")
    assert _one(dumps_fields(f)).site == "pokerstars"  # from the venue, PokerStars


def dumps_fields(f: dict[str, object]) -> str:
    from histkit.phh.toml import dump_fields

    return dump_fields(f)


def test_a_bring_in_nobody_states_or_posts_is_written_as_0() -> None:
    text = _POKERKIT_STYLE.replace("bring_in = 2", "bring_in = 0").replace(
        "'p1 pb # the deuce'", "'p1 cbr 5'"
    )
    text = text.replace("'p3 cc', 'd dh p1 5c'", "'p3 cc', 'd dh p1 5c'")
    hand = _one(text)
    assert hand.bring_in is None and not [
        a for a in hand.actions() if a.kind is ActionKind.BRING_IN
    ]
    assert hand.actions()[3].kind is ActionKind.COMPLETE
    assert tomllib.loads(dumps(hand))["bring_in"] == 0
    issue = _issue(_POKERKIT_STYLE.replace("bring_in = 2", "bring_in = 0"))
    assert "bring_in is 0" in issue.reason and issue.line == 8


# -- files and folders ----------------------------------------------------------------


def test_folders_are_read_for_phh_files_and_content_decides_for_others(tmp_path: Path) -> None:
    hands = list(simulate("razz", 3, players=3, seed=8))
    (tmp_path / "a.phh").write_text(dumps(hands[0]), encoding="utf-8")
    (tmp_path / "b.PHHS").write_text("[1]\n" + dumps(hands[1]), encoding="utf-8")
    (tmp_path / "notes.md").write_text("variant = 'F7S'\n", encoding="utf-8")
    named = tmp_path / "hand.toml"
    named.write_text("# a hand\n" + dumps(hands[2]), encoding="utf-8")
    assert sorted(p.name for p in iter_files([tmp_path])) == ["a.phh", "b.PHHS"]
    got = [h for h in iter_hands([tmp_path, named]) if isinstance(h, Hand)]
    assert [h.hand_id for h in got] == [h.hand_id for h in hands]


def test_a_damaged_line_rejects_its_hand_only(tmp_path: Path) -> None:
    from histkit.phh import dumps_all

    hands = list(simulate("stud", 3, players=3, seed=5))
    text = dumps_all(hands)
    at = text.index("players", text.index("[2]"))
    data = text[:at].encode() + b"\xff\xfe\x00\x01" + text[at:].encode()
    path = tmp_path / "damaged.phhs"
    path.write_bytes(data)
    items = list(iter_hands([path]))
    kinds = ["hand" if isinstance(i, Hand) else i.kind for i in items]
    assert kinds.count("hand") == 2 and kinds.count("rejected") == 1
    issue = next(i for i in items if isinstance(i, ParseIssue))
    assert issue.hand_id == hands[1].hand_id and issue.line is not None


def test_the_same_hand_in_two_files_is_audited_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from histkit.cli import main

    hand = next(iter(simulate("stud", 1, players=3, seed=7)))
    (tmp_path / "one.phh").write_text(dumps(hand), encoding="utf-8")
    (tmp_path / "all.phhs").write_text("[7]\n" + dumps(hand), encoding="utf-8")
    assert main(["audit", str(tmp_path)]) == 0
    assert "1 hand read more than once" in capsys.readouterr().out


def test_winnings_become_each_players_total_and_the_summary(tmp_path: Path) -> None:
    hand = next(h for h in simulate("stud_hilo", 30, players=4, seed=2) if len(replay(h).pots) > 0)
    back = _one(dumps(hand))
    collects = [e for e in back.events if isinstance(e, Collect)]
    assert collects and {c.pot for c in collects} == {PotKind.TOTAL}
    assert back.summary is not None and hand.summary is not None
    assert back.summary.rake == hand.summary.rake
    assert {r.player for r in back.summary.seats} == {
        s.player for s in hand.seats if any(a.player == s.player for a in hand.actions())
    }
    assert not replay(back).errors and Code.SUMMARY_MISMATCH not in replay(back).codes()
    assert all(e.street <= Street.SEVENTH for e in back.actions())


def test_mangled_phh_never_raises() -> None:
    """Random damage to a PHH file (characters changed, lines dropped or repeated) gives
    hands or issues, never an exception."""
    import random

    from histkit.phh import dumps_all

    text = dumps_all(simulate("stud_hilo", 3, players=3, seed=12))
    rng = random.Random(18)
    pieces = ["[", "]", "=", '"', "'", "#", "\n", "-1", "1e999", "0.5", "p9", "??", "d db"]
    for _ in range(400):
        lines = text.split("\n")
        for _ in range(rng.randint(1, 4)):
            i = rng.randrange(len(lines))
            what = rng.random()
            if what < 0.3:
                del lines[i]
            elif what < 0.5:
                lines.insert(i, lines[rng.randrange(len(lines))])
            else:
                line = lines[i]
                at = rng.randrange(len(line) + 1)
                lines[i] = line[:at] + rng.choice(pieces) + line[at + rng.randint(0, 3) :]
        for item in read_phh(lines, "mangled.phhs"):
            assert isinstance(item, Hand | ParseIssue)
