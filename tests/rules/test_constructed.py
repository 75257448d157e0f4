"""Each rule on a small constructed hand (no real hand is copied)."""

from __future__ import annotations

import dataclasses

from histkit.model import Action, ActionKind, Deal, Game, Muck, Street, StreetStart, Unit
from histkit.rules import (
    CASINO,
    POKERSTARS,
    STUD_HILO_NOQ,
    Code,
    Half,
    HandState,
    PendingKind,
    replay,
)
from histkit.rules.profile import OddChip
from tests.stud_builder import HandBuilder


def _show_all(b: HandBuilder, hands: dict[str, str]) -> None:
    for p, cs in hands.items():
        b.show(p, cs)


def three_all_ins() -> HandBuilder:
    """Hi/lo, four players, all-ins at 11, 31 and 61: a main pot and two side pots."""
    b = HandBuilder(Game.STUD_HILO, small=4, big=8)
    b.seat(1, "A", 11).seat(2, "B", 31).seat(3, "C", 61).seat(4, "D", 200).antes(1)
    b.start(3).deals(A="Ah 2h 9c", B="Ks Kc Kh", C="5h 7s Qh", D="Td Ts 2c")
    b.act("D", "bring_in", 2).act("A", "raise", 2, to=4).act("B", "raise", 4, to=8)
    b.act("C", "raise", 4, to=12).act("D", "call", 10).act("A", "call", 6, all_in=True)
    b.act("B", "call", 4)
    b.start(4).deals(A="3d", B="7h", C="3h", D="5c")
    b.act("B", "bet", 4).act("C", "raise", 4, to=8).act("D", "call", 8).act("B", "call", 4)
    b.start(5).deals(A="4s", B="7d", C="2s", D="5d")
    b.act("B", "bet", 8).act("C", "raise", 8, to=16).act("D", "call", 16)
    b.act("B", "call", 2, all_in=True)
    b.start(6).deals(A="6c", B="Jc", C="8d", D="Jd")
    b.act("D", "check").act("C", "bet", 8).act("D", "call", 8)
    b.start(7).deals(A="Kd", B="9h", C="Js", D="Qs")
    b.act("D", "check").act("C", "bet", 8).act("D", "raise", 8, to=16)
    b.act("C", "call", 8, all_in=True)
    _show_all(
        b,
        {
            "D": "Td Ts 2c 5c 5d Jd Qs",
            "C": "5h 7s Qh 3h 2s 8d Js",
            "B": "Ks Kc Kh 7h 7d Jc 9h",
            "A": "Ah 2h 9c 3d 4s 6c Kd",
        },
    )
    return b


def test_three_all_ins_two_side_pots_hilo() -> None:
    b = three_all_ins()
    b.collect("D", 30, "side", 2).collect("C", 30, "side", 2)
    b.collect("B", 30, "side", 1).collect("C", 30, "side", 1)
    b.collect("B", 22, "main").collect("A", 22, "main")
    r = replay(b.summary(164, 0, main=44, sides=(60, 60)).build())
    assert r.ok, [v.message for v in r.violations]
    assert [(p.amount, p.eligible) for p in r.pots] == [
        (44, ("A", "B", "C", "D")),
        (60, ("B", "C", "D")),
        (60, ("C", "D")),
    ]
    got = {(a.pot, a.half): a.expected for a in r.awards}
    assert got == {
        (0, Half.HIGH): (("B", 22),),  # kings full
        (0, Half.LOW): (("A", 22),),  # 6-4-3-2-A
        (1, Half.HIGH): (("B", 30),),
        (1, Half.LOW): (("C", 30),),  # 8-7-5-3-2 once A is out
        (2, Half.HIGH): (("D", 30),),  # two pair beats queen high
        (2, Half.LOW): (("C", 30),),
    }
    assert dict(r.final_stacks) == {"A": 22, "B": 52, "C": 60, "D": 200 - 61 + 30}


def test_side_pot_low_half_paid_to_a_player_not_in_it_is_flagged() -> None:
    b = three_all_ins()
    b.collect("D", 30, "side", 2).collect("C", 30, "side", 2)
    b.collect("B", 30, "side", 1).collect("A", 30, "side", 1)  # A is not in side pot 1
    b.collect("B", 22, "main").collect("C", 22, "main")
    r = replay(b.summary(164, 0, main=44, sides=(60, 60)).build())
    assert Code.AWARD_MISMATCH in r.codes()
    assert {v.line for v in r.violations if v.code is Code.AWARD_MISMATCH}


def tie_high_stud() -> HandBuilder:
    """Stud: A and B make the same straight; a 9-chip pot cannot split evenly."""
    b = HandBuilder(Game.STUD, small=4, big=8)
    b.seat(1, "A", 100).seat(2, "B", 100).seat(3, "C", 100).antes(1)
    b.start(3).deals(A="5c 6c 7d", B="5d 6d 7s", C="Qc Jc 2c")
    b.act("C", "bring_in", 2).act("A", "call", 2).act("B", "call", 2)
    b.start(4).deals(A="8h", B="8s", C="4s")
    b.act("A", "check").act("B", "check").act("C", "check")  # 8-7 tie: lowest seat first
    b.start(5).deals(A="9s", B="9h", C="Jd")
    b.act("C", "check").act("A", "check").act("B", "check")
    b.start(6).deals(A="2d", B="2h", C="Qd")
    b.act("C", "check").act("A", "check").act("B", "check")
    b.start(7).deals(A="3d", B="Ks", C="Th")
    b.act("C", "check").act("A", "check").act("B", "check")
    _show_all(
        b, {"C": "Qc Jc 2c 4s Jd Qd Th", "A": "5c 6c 7d 8h 9s 2d 3d", "B": "5d 6d 7s 8s 9h 2h Ks"}
    )
    return b


def test_tie_in_high_odd_chip_by_card_and_by_seat() -> None:
    b = tie_high_stud()
    b.collect("B", 5).collect("A", 4)
    hand = b.summary(9).build()
    r = replay(hand)
    assert r.ok, [v.message for v in r.violations]
    (award,) = r.awards
    assert award.winners == ("A", "B")
    assert dict(award.expected) == {"A": 4, "B": 5}  # B holds the highest card (K of spades)
    by_seat = dataclasses.replace(POKERSTARS, odd_chip=OddChip.BY_SEAT)
    r2 = replay(hand, by_seat)
    assert [v.code for v in r2.violations] == [Code.ODD_CHIP]
    assert "A" in r2.violations[0].message and "$0.05" in r2.violations[0].message


def tie_low_hilo() -> HandBuilder:
    """Hi/lo: B scoops high; A and C tie for low with 7-5-4-2-A; a 10-cent pot."""
    b = HandBuilder(Game.STUD_HILO, small=4, big=8)
    b.seat(1, "A", 100).seat(2, "B", 100).seat(3, "C", 100).seat(4, "D", 100).antes(1)
    b.start(3).deals(A="Ad 2d 4d", B="Ts Td Tc", C="Ac 2c 4h", D="3s 8s Kc")
    b.act("A", "bring_in", 2).act("B", "call", 2).act("C", "call", 2).act("D", "fold")
    b.start(4).deals(A="5d", B="9d", C="5s")
    b.act("B", "check").act("C", "check").act("A", "check")
    b.start(5).deals(A="7h", B="9c", C="7c")
    b.act("B", "check").act("C", "check").act("A", "check")
    b.start(6).deals(A="Ks", B="Jh", C="Qs")
    b.act("B", "check").act("C", "check").act("A", "check")
    b.start(7).deals(A="Kh", B="Js", C="Qh")
    b.act("B", "check").act("C", "check").act("A", "check")
    _show_all(
        b,
        {"B": "Ts Td Tc 9d 9c Jh Js", "C": "Ac 2c 4h 5s 7c Qs Qh", "A": "Ad 2d 4d 5d 7h Ks Kh"},
    )
    return b


def test_tie_in_low_odd_chip_goes_to_lowest_card_by_suit() -> None:
    b = tie_low_hilo()
    b.collect("B", 5).collect("C", 3).collect("A", 2)
    r = replay(b.summary(10).build())
    assert r.ok, [v.message for v in r.violations]
    by = {a.half: a for a in r.awards}
    assert by[Half.HIGH].expected == (("B", 5),)
    assert by[Half.LOW].winners == ("A", "C")
    assert dict(by[Half.LOW].expected) == {"A": 2, "C": 3}  # C holds the ace of clubs


def test_no_qualifier_variant_splits_what_eight_or_better_scoops() -> None:
    b = HandBuilder(Game.STUD_HILO, small=4, big=8)
    b.seat(1, "A", 100).seat(2, "B", 100).antes(1)
    b.start(3).deals(A="9d Td Jc", B="Ks Kd 3c")
    b.act("B", "bring_in", 2).act("A", "call", 2)
    for st, a, bb in [(4, "Qh", "Kh"), (5, "2s", "9s"), (6, "3h", "8s"), (7, "4c", "7d")]:
        b.start(st).deals(A=a, B=bb)
        b.act("B", "check").act("A", "check")  # B's kings lead every street
    _show_all(b, {"B": "Ks Kd 3c Kh 9s 8s 7d", "A": "9d Td Jc Qh 2s 3h 4c"})
    scoop = replay(b.build(), POKERSTARS)
    assert [(a.half, a.expected) for a in scoop.awards] == [(Half.WHOLE, (("B", 6),))]
    split = replay(b.build(), POKERSTARS, game=STUD_HILO_NOQ)
    assert [(a.half, a.expected) for a in split.awards] == [
        (Half.HIGH, (("B", 3),)),
        (Half.LOW, (("A", 3),)),  # 10-9-4-3-2 is no eight-or-better low, but the best low
    ]


def _state(game: Game, seats: list[tuple[int, str, int]], profile=POKERSTARS, **kw) -> HandState:
    b = HandBuilder(game)
    for n, p, s in seats:
        b.seat(n, p, s)
    return HandState(
        game=game,
        profile=profile,
        seats=b.seats,
        small_bet=kw.get("small", 4),
        big_bet=kw.get("big", 8),
        ante=kw.get("ante", 1),
        bring_in=kw.get("bring_in", 2),
        hand_id="C1",
        unit=Unit.CENT,
    )


def _feed(st: HandState, b: HandBuilder) -> list:
    out = []
    for e in b.events:
        out.extend(st.apply(e))
    return out


def test_bring_in_passes_when_the_lowest_card_is_all_in_on_the_ante() -> None:
    seats = [(1, "A", 1), (2, "B", 50), (3, "C", 50)]
    b = HandBuilder(Game.STUD_HILO)
    for n, p, s in seats:
        b.seat(n, p, s)
    b.antes(1).start(3).deals(A="?? ?? 2c", B="?? ?? Kd", C="?? ?? 3h")
    ps = _state(Game.STUD_HILO, seats)
    assert _feed(ps, b) == []
    assert "A" in ps.all_in
    assert ps.pending().kind is PendingKind.ACTION
    assert ps.pending().player == "B"  # PokerStars: the next player clockwise
    legal = ps.legal()
    assert legal is not None and legal.bring_in == 2 and legal.complete_to == 4
    assert not legal.can_fold and not legal.can_check
    casino = _state(Game.STUD_HILO, seats, CASINO)
    _feed(casino, b)
    assert casino.pending().player == "C"  # casino: the next-lowest card


def test_razz_bring_in_is_the_highest_card_aces_low_king_of_spades_highest() -> None:
    seats = [(1, "A", 50), (2, "B", 50), (3, "C", 50), (4, "D", 50)]
    b = HandBuilder(Game.RAZZ)
    for n, p, s in seats:
        b.seat(n, p, s)
    b.antes(1).start(3).deals(A="?? ?? Kh", B="?? ?? Ks", C="?? ?? Ac", D="?? ?? 2d")
    st = _state(Game.RAZZ, seats)
    _feed(st, b)
    assert st.pending().player == "B"
    b2 = HandBuilder(Game.RAZZ)
    for n, p, s in seats[:3]:
        b2.seat(n, p, s)
    b2.antes(1).start(3).deals(A="?? ?? Ac", B="?? ?? 2d", C="?? ?? Qd")
    st2 = _state(Game.RAZZ, seats[:3])
    _feed(st2, b2)
    assert st2.pending().player == "C"  # the ace is the lowest card in razz
    b2.act("A", "bring_in", 2)
    bad = _feed(_state(Game.RAZZ, seats[:3]), b2)
    assert [v.code for v in bad] == [Code.BRING_IN_WRONG_PLAYER]
    assert "C" in bad[0].message


def _capped_street(players: int, wagers: int, profile) -> list:
    """Players check/call to 5th street, then `wagers` bets and raises there."""
    names = "ABCD"[:players]
    seats = [(i + 1, n, 500) for i, n in enumerate(names)]
    b = HandBuilder(Game.STUD)
    for n, p, s in seats:
        b.seat(n, p, s)
    ups = {3: "2c 9d Td Jd", 4: "3c 9h Th Jh", 5: "4c 8s 7s 6s"}
    b.antes(1).start(3)
    b.deals(**{p: "?? ?? " + c for p, c in zip(names, ups[3].split(), strict=False)})
    b.act("A", "bring_in", 2)
    for p in names[1:]:
        b.act(p, "call", 2)
    b.start(4).deals(**dict(zip(names, ups[4].split(), strict=False)))
    first4 = names[-1]  # J-high board acts first
    order = [first4, *[p for p in names if p != first4]]
    for p in order:
        b.act(p, "check")
    b.start(5).deals(**dict(zip(names, ups[5].split(), strict=False)))
    order = [names[-1], *[p for p in names if p != names[-1]]] if players > 2 else ["B", "A"]
    to = 0
    for k in range(wagers):
        p = order[k % players]
        if k == 0:
            b.act(p, "bet", 8)
        else:
            b.act(p, "raise", 8, to=to + 8)
        to += 8
    st = _state(Game.STUD, seats, profile)
    return _feed(st, b), st


def test_heads_up_cap_pokerstars_caps_casino_does_not() -> None:
    v, st = _capped_street(2, 4, POKERSTARS)
    assert v == []
    legal = st.legal()
    assert legal is not None and legal.raise_to is None and legal.call == 8
    v, _ = _capped_street(2, 5, POKERSTARS)
    assert [x.code for x in v] == [Code.RAISE_CAP]
    v, st = _capped_street(2, 7, CASINO)  # heads-up: uncapped in a casino
    assert v == [] and st.legal().raise_to == 7 * 8 + 8


def test_multiway_cap_is_bet_and_three_raises_at_pokerstars_four_in_a_casino() -> None:
    v, _ = _capped_street(3, 5, POKERSTARS)
    assert [x.code for x in v] == [Code.RAISE_CAP]
    v, st = _capped_street(3, 5, CASINO)
    assert v == [] and st.legal().raise_to is None
    v, _ = _capped_street(3, 6, CASINO)
    assert [x.code for x in v] == [Code.RAISE_CAP]


def _open_pair(game: Game) -> tuple[list, HandState]:
    seats = [(1, "A", 100), (2, "B", 100)]
    b = HandBuilder(game)
    for n, p, s in seats:
        b.seat(n, p, s)
    b.antes(1).start(3).deals(A="?? ?? 2c", B="?? ?? 9d")
    b.act("A", "bring_in", 2).act("B", "call", 2)
    b.start(4).deals(A="5h", B="9s")  # B shows a pair of nines
    st = _state(game, seats)
    v = _feed(st, b)
    assert v == [] and st.pending().player == "B"
    return v, st


def test_open_pair_allows_the_big_bet_in_stud_only() -> None:
    _, st = _open_pair(Game.STUD)
    legal = st.legal()
    assert legal is not None and legal.bet == 4 and legal.bet_big == 8
    big = Action(Street.FOURTH, "B", ActionKind.BET, 8)
    assert st.apply(big) == []
    _, hilo = _open_pair(Game.STUD_HILO)
    assert hilo.legal().bet_big is None
    assert [v.code for v in hilo.apply(big)] == [Code.BET_SIZE]


_DECK = [
    "2c",
    "3c",
    "4c",
    "5c",
    "6c",
    "7c",
    "8c",
    "9c",
    "Tc",
    "Jc",
    "Qc",
    "Kc",
    "Ac",
    "2d",
    "3d",
    "4d",
    "5d",
    "6d",
    "7d",
    "8d",
    "9d",
    "Td",
    "Jd",
    "Qd",
    "Kd",
    "Ad",
    "2h",
    "3h",
    "4h",
    "5h",
    "6h",
    "7h",
    "8h",
    "9h",
    "Th",
    "Jh",
    "Qh",
    "Kh",
    "Ah",
    "2s",
    "3s",
    "4s",
    "5s",
    "6s",
    "7s",
    "8s",
    "9s",
    "Ts",
    "Js",
    "Qs",
    "Ks",
    "As",
]


def test_community_card_only_when_the_deck_is_short() -> None:
    """Driven through pending()/legal() as a simulator would: check and call down."""
    names = [f"P{i}" for i in range(1, 9)]
    for players in (names, names[:7]):
        deck = iter(_DECK)
        seats = [(i + 1, p, 100) for i, p in enumerate(players)]
        st = _state(Game.STUD, seats)
        b = HandBuilder(Game.STUD)
        for n, p, s in seats:
            b.seat(n, p, s)
        b.antes(1).start(3)
        b.deals(**{p: " ".join(next(deck) for _ in range(3)) for p in players})
        _feed(st, b)
        # everyone checks through 6th street (bring-in, then calls)
        while st.pending().kind is not PendingKind.DEAL or st.pending().street != Street.SEVENTH:
            pend = st.pending()
            if pend.kind is PendingKind.ACTION:
                lg = st.legal()
                if lg.bring_in:
                    st.apply(Action(pend.street, pend.player, ActionKind.BRING_IN, lg.bring_in))
                elif lg.call:
                    st.apply(Action(pend.street, pend.player, ActionKind.CALL, lg.call))
                else:
                    st.apply(Action(pend.street, pend.player, ActionKind.CHECK))
            elif pend.kind is PendingKind.DEAL:
                if st.street != pend.street:
                    st.apply(StreetStart(pend.street))
                st.apply(Deal(pend.street, pend.player, (_card(next(deck)),), (True,)))
        pend = st.pending()
        if len(players) == 8:
            assert pend.player is None and st.deck_exhausted  # 48 dealt, 4 left for 8
            v = st.apply(StreetStart(Street.SEVENTH, _card(next(deck))))
            assert v == []
        else:
            assert pend.player == players[0] and not st.deck_exhausted
            v = st.apply(StreetStart(Street.SEVENTH, _card(next(deck))))
            assert [x.code for x in v] == [Code.COMMUNITY_CARD]


def _card(text: str):
    from histkit.cards import parse_card

    return parse_card(text)


def test_everyone_folds_remaining_player_takes_the_pot_and_gets_the_bet_back() -> None:
    b = HandBuilder(Game.STUD_HILO)
    b.seat(1, "A", 100).seat(2, "B", 100).seat(3, "C", 100).antes(1)
    b.start(3).deals(A="?? ?? 2c", B="?? ?? 9d", C="?? ?? Kh")
    b.act("A", "bring_in", 2).act("B", "raise", 2, to=4).act("C", "fold").act("A", "fold")
    b.uncalled("B", 2).collect("B", 7).muck("B", declined=True)
    r = replay(b.summary(7).build())
    assert r.ok, [v.message for v in r.violations]
    assert r.awards[0].expected == (("B", 7),)
    assert dict(r.final_stacks) == {"A": 97, "B": 104, "C": 99}  # 100 - 1 - 2 + 7
    missing = HandBuilder(Game.STUD_HILO)
    missing.seats, missing.events = (
        b.seats,
        [e for e in b.events if type(e).__name__ != "UncalledBet"],
    )
    r2 = replay(missing.summary(9).build())
    assert Code.UNCALLED_BET in r2.codes()


def test_mucked_hand_without_cards_is_an_info_record_never_a_guess() -> None:
    b = tie_high_stud()
    events = [e for e in b.events if not (type(e).__name__ == "Show" and e.player == "A")]
    b.events = events
    b.events.insert(len(events) - 1, Muck("A"))
    # hide A's down cards: rebuild the deals with unknown hole cards
    b.events = [
        Deal(e.street, e.player, (None, None, e.cards[2]), e.up, e.before, e.line)
        if isinstance(e, Deal) and e.player == "A" and e.street == Street.THIRD
        else (
            Deal(e.street, e.player, (None,), e.up, e.before, e.line)
            if isinstance(e, Deal) and e.player == "A" and e.street == Street.SEVENTH
            else e
        )
        for e in b.events
    ]
    b.collect("B", 9)
    r = replay(b.summary(9).build())
    assert r.ok, [v.message for v in r.violations]
    assert [v.code for v in r.infos] == [Code.UNCHECKABLE_SHOWDOWN]
    assert "A" in r.infos[0].message


def test_first_to_act_best_board_in_stud_lowest_in_razz() -> None:
    ups = {"A": ("Ac", "Kd"), "B": ("4c", "4d"), "C": ("3s", "2h")}
    for game, first in ((Game.STUD, "B"), (Game.STUD_HILO, "B"), (Game.RAZZ, "C")):
        seats = [(i + 1, p, 100) for i, p in enumerate(ups)]
        st = _state(game, seats)
        b = HandBuilder(game)
        for n, p, s in seats:
            b.seat(n, p, s)
        b.antes(1).start(3).deals(**{p: "?? ?? " + u[0] for p, u in ups.items()})
        _feed(st, b)
        while (pend := st.pending()).kind is PendingKind.ACTION:
            lg = st.legal()
            kind = ActionKind.BRING_IN if lg.bring_in else ActionKind.CALL
            st.apply(Action(Street.THIRD, pend.player, kind, lg.bring_in or lg.call or 0))
        st.apply(StreetStart(Street.FOURTH))
        for p, u in ups.items():
            st.apply(Deal(Street.FOURTH, p, (_card(u[1]),), (True,)))
        # stud: a pair of fours beats ace-king; razz: 3-2 is the best low, the pair worst
        assert st.pending().player == first, game
        wrong = next(p for p in ups if p != first)
        v = st.apply(Action(Street.FOURTH, wrong, ActionKind.CHECK))
        assert [x.code for x in v] == [Code.OUT_OF_TURN] and first in v[0].message


def test_seventh_card_dealt_up_and_a_shown_hand_that_contradicts_the_board() -> None:
    b = tie_high_stud()
    events = list(b.events)
    i = next(
        k
        for k, e in enumerate(events)
        if isinstance(e, Deal) and e.street == Street.SEVENTH and e.player == "A"
    )
    events[i] = dataclasses.replace(events[i], up=(True,))
    j = next(k for k, e in enumerate(events) if type(e).__name__ == "Show" and e.player == "B")
    shown = list(events[j].cards)
    shown[3] = _card("As")  # B's 4th-street up card was the 8 of spades
    events[j] = dataclasses.replace(events[j], cards=tuple(shown))
    b.events = events
    b.collect("B", 5).collect("A", 4)
    r = replay(b.summary(9).build())
    codes = [v.code for v in r.violations]
    assert codes.count(Code.CARD_INCONSISTENT) == 2
    assert any("dealt up" in v.message for v in r.violations)
    assert any("8s" in v.message and "As" in v.message for v in r.violations)


def _short_completion(profile) -> tuple[list, HandState]:
    """A 33 bring-in (three quarters of the 44 small bet) completed to 44, then raised."""
    seats = [(1, "A", 1000), (2, "B", 1000), (3, "C", 1000)]
    b = HandBuilder(Game.STUD, small=44, big=88)
    for n, p, s in seats:
        b.seat(n, p, s)
    b.antes(5).start(3).deals(A="?? ?? 2c", B="?? ?? 9d", C="?? ?? Kh")
    b.act("A", "bring_in", 33).act("B", "complete", 44)
    st = _state(Game.STUD, seats, profile, small=44, big=88, ante=5, bring_in=33)
    return _feed(st, b), st


def test_a_short_completion_is_raised_from_the_bring_in_where_the_house_says_so() -> None:
    """Standard stud: a completion is a full bet, so the raise is to 88. Under a house that
    counts a completion adding less than half a bet (11 of 44) as an incomplete raise, the
    raise is a small bet over the bring-in: to 77."""
    house = dataclasses.replace(POKERSTARS, short_completion_raise_from_bring_in=True)
    for profile, legal_to, wrong_to in ((POKERSTARS, 88, 77), (house, 77, 88)):
        v, st = _short_completion(profile)
        assert v == [] and st.legal().raise_to == legal_to, profile.name
        raised = Action(Street.THIRD, "C", ActionKind.RAISE, wrong_to - 44, wrong_to)
        (bad,) = st.apply(raised)
        assert (bad.code, bad.expected, bad.reported) == (Code.RAISE_SIZE, legal_to, wrong_to)
        v, st = _short_completion(profile)
        assert st.apply(Action(Street.THIRD, "C", ActionKind.RAISE, legal_to - 44, legal_to)) == []
        # the next raise is a small bet over that one, whichever rule measured it
        assert st.legal().raise_to == legal_to + 44


def test_a_completion_of_half_a_bet_or_more_is_a_full_bet_in_every_house() -> None:
    house = dataclasses.replace(POKERSTARS, short_completion_raise_from_bring_in=True)
    seats = [(1, "A", 1000), (2, "B", 1000), (3, "C", 1000)]
    b = HandBuilder(Game.STUD, small=44, big=88)
    for n, p, s in seats:
        b.seat(n, p, s)
    b.antes(5).start(3).deals(A="?? ?? 2c", B="?? ?? 9d", C="?? ?? Kh")
    b.act("A", "bring_in", 22).act("B", "complete", 44)  # adds 22, half a bet
    st = _state(Game.STUD, seats, house, small=44, big=88, ante=5, bring_in=22)
    assert _feed(st, b) == [] and st.legal().raise_to == 88
