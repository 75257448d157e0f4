"""The sink keeps the chips: what a dialect may ask it while it reads a hand (what a player
has in on the street and in the hand, what is left, the bet, who is still in, the bet left
unmatched, an open pair), and the shared handlers that read the recurring forms with it."""

from __future__ import annotations

import re
from datetime import UTC, datetime

import pytest

from histkit.cards import parse_card, parse_cards
from histkit.dialects.builder import (
    HandError,
    LineReader,
    pot_line,
    put,
    return_unmatched,
    street_total,
    summary_from_wins,
    unnamed_kind,
)
from histkit.dialects.pokerstars import PokerStars
from histkit.dialects.sink import UP3, HandSink
from histkit.model import ActionKind, Game, PotKind, SeatOutcome, Street, UncalledBet, Unit
from histkit.reading.split import HandBlock

A = ActionKind


def _sink(game: Game = Game.STUD) -> HandSink:
    sink = HandSink("pokerstars", "test.txt", 1)
    sink.header(
        hand_id="1",
        game=game,
        small_bet=10,
        big_bet=20,
        unit=Unit.CHIP,
        currency=None,
        started_at=datetime(2024, 1, 1, tzinfo=UTC),
        local_time=None,
    )
    for no, name in ((1, "Ann"), (2, "Bob"), (3, "Cat")):
        sink.seat(no, name, 100, False, no + 1)
    return sink


def _reader() -> LineReader:
    r = LineReader(PokerStars(), HandBlock(1, ["x"]), "test.txt")
    r.sink = _sink()
    return r


def test_the_chips_follow_the_reported_actions() -> None:
    sink = _sink()
    for p in ("Ann", "Bob", "Cat"):
        sink.action(A.ANTE, p, 1, None, False, 5)
    sink.action(A.BRING_IN, "Ann", 3, None, False, 6)
    sink.action(A.COMPLETE, "Bob", 7, 10, False, 7)
    sink.action(A.RAISE, "Cat", 10, 20, False, 8)
    sink.action(A.CALL, "Ann", 17, None, False, 9)
    sink.action(A.FOLD, "Bob", 0, None, False, 10)
    assert (sink.put_in("Ann"), sink.put_in("Bob"), sink.put_in("Cat")) == (20, 10, 20)
    assert sink.bet == sink.current_bet() == 20
    assert sink.hand_in == {"Ann": 21, "Bob": 11, "Cat": 21}
    assert sink.left("Ann") == 79
    assert sink.live() == ["Ann", "Cat"]
    assert sink.folded == {"Bob": Street.THIRD}
    sink.street_start(Street.FOURTH, 11)
    assert sink.put_in("Ann") == 0 and sink.bet == 0
    sink.action(A.BET, "Cat", 10, None, False, 12)
    # what Cat put in on earlier streets: antes apart
    assert sink.earlier("Cat") == 20 and sink.antes["Cat"] == 1


def test_a_bet_nobody_matched_is_remembered_where_its_street_ended() -> None:
    sink = _sink()
    sink.action(A.BRING_IN, "Ann", 3, None, False, 5)
    sink.action(A.COMPLETE, "Bob", 7, 10, False, 6)
    sink.action(A.FOLD, "Cat", 0, None, False, 7)
    sink.action(A.FOLD, "Ann", 0, None, False, 8)
    assert sink.unmatched() == ("Bob", 7)
    at = len(sink.events)
    sink.summary_start(9)
    assert sink.ended == ("Bob", 7, Street.THIRD, at)
    # a site that learns of the return only from its pots reports it there
    sink.uncalled("Bob", 7, 12, at=at)
    assert sink.events[at] == UncalledBet("Bob", 7, Street.THIRD, 12)
    assert sink.hand_in["Bob"] == 3


def test_an_open_pair_is_the_rules_answer_and_unknown_cards_may_pair() -> None:
    def dealt(game: Game, up4: str | None) -> bool:
        sink = _sink(game)
        sink.deal("Ann", (None, None, parse_card("7c")), UP3, (), 2)
        sink.deal("Bob", (None, None, parse_card("9d")), UP3, (), 3)
        sink.street_start(Street.FOURTH, 4)
        sink.deal("Ann", (parse_card(up4) if up4 else None,), (True,), (), 5)
        sink.deal("Bob", (parse_card("2s"),), (True,), (), 6)
        return sink.open_pair()

    assert dealt(Game.STUD, "7h") is True
    assert dealt(Game.STUD, "8h") is False
    assert dealt(Game.STUD, None) is True  # not seen: it may be a pair
    assert dealt(Game.RAZZ, "7h") is False  # no big bet for a pair in razz


def test_header_facts_given_before_the_header_are_kept_and_amend_replaces() -> None:
    sink = HandSink("pokerstars", "test.txt", 1)
    sink.amend(hand_id="9", players=4)
    sink.header(
        hand_id="9",
        game=Game.RAZZ,
        small_bet=2,
        big_bet=4,
        unit=Unit.CHIP,
        currency=None,
        started_at=None,
        local_time=None,
    )
    sink.amend(small_bet=5)
    assert sink.head["players"] == 4 and sink.head["small_bet"] == 5
    assert sink.street_bet(Street.FOURTH) == 5 and sink.street_bet(Street.FIFTH) == 4


def test_who_showed_or_mucked() -> None:
    sink = _sink()
    sink.muck("Ann", True, 5)  # declined to show an uncontested pot: no showdown muck
    sink.muck("Bob", False, 6)
    sink.show("Cat", parse_cards("Ah Ad Kc"), None, 7)
    assert sink.shown == {"Bob": False, "Cat": True}


def test_put_reads_a_total_an_addition_and_an_unnamed_all_in() -> None:
    r = _reader()
    put(r, A.BRING_IN, "Ann", 5, adds=3)
    put(r, A.COMPLETE, "Bob", 6, to=10)
    put(r, None, "Cat", 7, adds=100)  # all-in for the stack: over the bet, a raise
    put(r, None, "Ann", 8, adds=97)  # all-in that does not top the bet: a call
    got = [(e.kind, e.amount, e.to_amount, e.all_in) for e in r.sink.events]
    assert got == [
        (A.BRING_IN, 3, None, False),
        (A.COMPLETE, 7, 10, False),
        (A.RAISE, 90, 100, True),
        (A.CALL, 97, None, True),
    ]


def test_put_keeps_a_raise_the_site_names_with_nothing_in_front() -> None:
    r = _reader()
    r.sink.street_start(Street.FOURTH, 4)
    put(r, A.RAISE, "Ann", 5, adds=10)
    e = r.sink.events[-1]
    assert (e.kind, e.amount, e.to_amount) == (A.RAISE, 10, 10)  # the audit's to report


def test_the_unmatched_bet_goes_back_and_the_summary_is_rebuilt_from_wins() -> None:
    r = _reader()
    sink = r.sink
    for p in ("Ann", "Bob", "Cat"):
        put(r, A.ANTE, p, 5, adds=1)
    put(r, A.BRING_IN, "Ann", 6, adds=3)
    put(r, A.CALL, "Bob", 7, adds=3)
    put(r, A.RAISE, "Cat", 8, to=10)
    sink.action(A.FOLD, "Ann", 0, None, False, 9)
    sink.action(A.FOLD, "Bob", 0, None, False, 10)
    return_unmatched(r, 11)
    assert sink.events[-1] == UncalledBet("Cat", 7, Street.THIRD, 11)
    return_unmatched(r, 12)  # once: the bet is matched now
    assert len(sink.events) == 9
    sink.collect("Cat", 11, PotKind.POT, 0, 13)
    summary_from_wins(r, "Cat", 13)
    assert sink.pot == (12, 1, None, (), 0)  # 3 antes and 3 each: 12 in, 11 won, 1 raked
    (res,) = sink.results
    assert (res.player, res.outcome, res.won) == ("Cat", SeatOutcome.COLLECTED, 11)


def test_an_unnamed_wager_is_what_it_does_to_the_bet() -> None:
    r = _reader()  # small bet 10
    assert unnamed_kind(r, "Ann", 3) is A.BRING_IN  # nothing in front, short of the small bet
    assert unnamed_kind(r, "Ann", 10) is A.COMPLETE
    put(r, A.BRING_IN, "Ann", 5, adds=3)
    assert unnamed_kind(r, "Bob", 3) is A.CALL
    assert unnamed_kind(r, "Bob", 7) is A.COMPLETE  # a short completion is still one
    put(r, A.COMPLETE, "Bob", 6, to=10)
    assert unnamed_kind(r, "Cat", 15) is A.RAISE
    r.sink.street_start(Street.FOURTH, 7)
    assert unnamed_kind(r, "Cat", 5) is A.BET


_WAGER = re.compile(r"(?P<player>\w+) (?P<amount>\d+)(?: to (?P<to>\d+))?")


def test_street_total_reads_a_total_an_addition_and_x_to_y() -> None:
    r = _reader()
    put(r, A.BRING_IN, "Ann", 5, adds=3)
    line = _WAGER.fullmatch
    assert street_total(r, line("Ann 7"), 6, total=False) == ("Ann", 10)  # adds 7 to 3
    assert street_total(r, line("Ann 20"), 6, total=True) == ("Ann", 20)  # to 20
    assert street_total(r, line("Ann 7 to 10"), 6, total=False) == ("Ann", 10)
    with pytest.raises(HandError, match="does not add up: Ann had 3"):
        street_total(r, line("Ann 10 to 10"), 6, total=True)


def test_the_bring_in_and_the_community_card_as_reported() -> None:
    sink = _sink()
    assert sink.brought_in() is None
    sink.action(A.BRING_IN, "Ann", 3, None, False, 5)
    assert sink.brought_in() == 3
    assert sink.community() == ()
    sink.street_start(Street.SEVENTH, 6, parse_card("6h"))
    assert sink.community() == (parse_card("6h"),)


_POT = re.compile(r"Total (?P<total>\d+)(?: rake (?P<rake>\d+))?")


def test_a_pot_line_without_rake_or_pots_takes_them_from_the_wins() -> None:
    r = _reader()
    for p in ("Ann", "Bob", "Cat"):
        put(r, A.ANTE, p, 5, adds=10)
    r.sink.collect("Ann", 18, PotKind.MAIN, 0, 6)
    r.sink.collect("Bob", 10, PotKind.SIDE, 1, 7)
    pot_line(from_wins=True)(r, _POT.fullmatch("Total 30"), 8)
    assert r.sink.pot == (30, 2, 18, (10,), 0)  # 30 in, 28 won: 2 raked
    pot_line(from_wins=True)(r, _POT.fullmatch("Total 30 rake 1"), 8)
    assert r.sink.pot == (30, 1, 18, (10,), 0)  # a rake written is kept
    pot_line()(r, _POT.fullmatch("Total 30"), 8)
    assert r.sink.pot == (30, 0, None, (), 0)  # without: only what the line says
