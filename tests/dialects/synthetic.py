"""Made-up PokerStars hands for parser tests (never copies of the real corpus).

Every hand's chips add up (contributions == total pot == collected + rake), its cards are
distinct, and it exercises forms the real corpus lacks or has only once: names with
brackets/dots/spaces, the 2008 date form with trailing blanks, "Side pot-N", a sitting-out
seat, chat and join lines.
"""

from __future__ import annotations

from collections.abc import Callable


def dollars(cents: int) -> str:
    """PokerStars cash amount: "$0.10", "$1", "$11"."""
    whole, rest = divmod(cents, 100)
    return f"${whole}" if rest == 0 else f"${whole}.{rest:02d}"


def chips(n: int) -> str:
    return str(n)


CASH_HEADER = (
    "PokerStars Hand #{hand_id}:  7 Card Stud Limit ($0.10/$0.20 USD) - 2024/03/01 12:00:00 ET"
)


def stud_hand(
    hand_id: str = "1000000001",
    *,
    header: str = CASH_HEADER,
    money: Callable[[int], str] = dollars,
    alice: str = "Alice",
    pc: str = "PC [Mittel]",
    bob: str = "Bob",
) -> str:
    """A 3-player 7 Card Stud hand: the hero `pc` folds on the river to a bet.

    Amounts are in minor units (10/20 stakes, ante 2, bring-in 5); `money` writes them.
    Total pot 146, rake 6, `alice` collects 140 without showing."""
    m = money
    lines = [
        header.format(hand_id=hand_id),
        "Table 'Synthetic I' 8-max",
        f"Seat 1: {alice} ({m(500)} in chips) ",
        f"Seat 3: {pc} ({m(400)} in chips) ",
        f"Seat 5: {bob} ({m(300)} in chips)",
        f"{alice}: posts the ante {m(2)}",
        f"{pc}: posts the ante {m(2)}",
        f"{bob}: posts the ante {m(2)}",
        "*** 3rd STREET ***",
        f"Dealt to {alice} [Kd]",
        f"Dealt to {pc} [9s 8s 3c]",
        f"Dealt to {bob} [Qh]",
        f"{pc}: brings in for {m(5)}",
        f"{bob}: folds ",
        f"{alice}: raises {m(5)} to {m(10)}",
        f"{pc}: calls {m(5)}",
        "*** 4th STREET ***",
        f"Dealt to {alice} [Kd] [Kc]",
        f"Dealt to {pc} [9s 8s 3c] [7s]",
        "Pair on board - a double bet is allowed",
        f"{alice}: bets {m(20)}",
        f"{pc}: calls {m(20)}",
        "*** 5th STREET ***",
        f"Dealt to {alice} [Kd Kc] [2h]",
        f"Dealt to {pc} [9s 8s 3c 7s] [6s]",
        f"{alice}: bets {m(20)}",
        f"{pc}: raises {m(20)} to {m(40)}",
        f"{alice}: calls {m(20)}",
        "*** 6th STREET ***",
        f"Dealt to {alice} [Kd Kc 2h] [2d]",
        f"Dealt to {pc} [9s 8s 3c 7s 6s] [Ah]",
        f"{alice}: checks ",
        f"{pc}: checks",
        "*** RIVER ***",
        f"Dealt to {pc} [9s 8s 3c 7s 6s Ah] [Td]",
        f"{alice}: bets {m(20)}",
        f"{pc}: folds",
        f"Uncalled bet ({m(20)}) returned to {alice}",
        f"{alice} collected {m(140)} from pot",
        f"{alice}: doesn't show hand ",
        "*** SUMMARY ***",
        f"Total pot {m(146)} | Rake {m(6)} ",
        f"Seat 1: {alice} collected ({m(140)})",
        f"Seat 3: {pc} folded on the River",
        f"Seat 5: {bob} folded on the 3rd Street (didn't bet)",
    ]
    return "\n".join(lines) + "\n"


def hilo_2008(hand_id: str = "15000000001") -> str:
    """Stud Hi/Lo in the 2008 form: "(ET)" date, every line ending in a blank, no currency
    code. A short all-in on 3rd street makes a main pot split high/low and a side pot."""
    lines = [
        f"PokerStars Game #{hand_id}:  7 Card Stud Hi/Lo Limit ($0.10/$0.20) - "
        "2008/02/03 - 22:04:15 (ET)",
        "Table 'Synthetic II' 8-max",
        "Seat 2: ann.b ($1 in chips)",
        "Seat 4: Carl 7 ($0.12 in chips)",
        "Seat 6: dee ($2 in chips)",
        "ann.b: posts the ante $0.02",
        "Carl 7: posts the ante $0.02",
        "dee: posts the ante $0.02",
        "*** 3rd STREET ***",
        "Dealt to ann.b [4c]",
        "Dealt to Carl 7 [2d]",
        "Dealt to dee [Kh Qs 9h]",
        "Carl 7: brings in for $0.05",
        "dee: raises $0.05 to $0.10",
        "ann.b: calls $0.10",
        "Carl 7: calls $0.05 and is all-in",
        "*** 4th STREET ***",
        "Dealt to ann.b [4c] [5c]",
        "Dealt to Carl 7 [2d] [3d]",
        "Dealt to dee [Kh Qs 9h] [Kd]",
        "dee: bets $0.10",
        "ann.b: calls $0.10",
        "*** 5th STREET ***",
        "Dealt to ann.b [4c 5c] [8h]",
        "Dealt to Carl 7 [2d 3d] [Jc]",
        "Dealt to dee [Kh Qs 9h Kd] [2s]",
        "dee: bets $0.20",
        "ann.b: calls $0.20",
        "*** 6th STREET ***",
        "Dealt to ann.b [4c 5c 8h] [Kc]",
        "Dealt to Carl 7 [2d 3d Jc] [4h]",
        "Dealt to dee [Kh Qs 9h Kd 2s] [7c]",
        "dee: checks",
        "ann.b: checks",
        "*** RIVER ***",
        "Dealt to dee [Kh Qs 9h Kd 2s 7c] [Ts]",
        "dee: bets $0.20",
        "ann.b: folds",
        "Uncalled bet ($0.20) returned to dee",
        "*** SHOW DOWN ***",
        "dee: shows [Kh Qs 9h Kd 2s 7c Ts] (HI: a pair of Kings)",
        "Carl 7: shows [6s 7d 2d 3d Jc 4h Qc] (HI: high card Queen; LO: 7,6,4,3,2)",
        "dee collected $0.60 from side pot",
        "dee collected $0.18 from main pot",
        "Carl 7 collected $0.18 from main pot",
        "*** SUMMARY ***",
        "Total pot $0.96 Main pot $0.36. Side pot $0.60. | Rake $0",
        "Seat 2: ann.b folded on the River",
        "Seat 4: Carl 7 showed [6s 7d 2d 3d Jc 4h Qc] and won ($0.18) with HI: high card "
        "Queen; LO: 7,6,4,3,2",
        "Seat 6: dee showed [Kh Qs 9h Kd 2s 7c Ts] and won ($0.78) with HI: a pair of Kings",
    ]
    return "".join(line + " \n" for line in lines)


def razz_tournament(hand_id: str = "200000000001") -> str:
    """Razz tournament: local CET time with [ET], a sitting-out seat, chat and a join,
    two all-ins making "Side pot-1" and "Side pot-2", the hero scooping all three pots."""
    lines = [
        f"PokerStars Hand #{hand_id}: Tournament #77, $1+$0.10 USD Razz Limit - Level II "
        "(20/40) - 2020/07/01 9:05:00 CET [2020/07/01 3:05:00 ET]",
        "Table '77 3' 6-max",
        "Seat 1: a1 (100 in chips) ",
        "Seat 2: b2 (9 in chips) ",
        "Seat 3: c3 (24 in chips) ",
        "Seat 4: d4 (200 in chips) is sitting out",
        "Seat 5: e5 (60 in chips) ",
        "a1: posts the ante 4",
        "b2: posts the ante 4",
        "c3: posts the ante 4",
        "d4: posts the ante 4",
        "e5: posts the ante 4",
        "*** 3rd STREET ***",
        "Dealt to a1 [Ah 2c 3s]",
        "Dealt to b2 [Kd]",
        "Dealt to c3 [4d]",
        "Dealt to d4 [Qc]",
        "Dealt to e5 [Jh]",
        "b2: brings in for 5 and is all-in",
        "c3: raises 15 to 20 and is all-in",
        "d4: folds ",
        'a1 said, "gl: all"',
        "e5: calls 20",
        "a1: calls 20",
        "*** 4th STREET ***",
        "Dealt to a1 [Ah 2c 3s] [5d]",
        "Dealt to b2 [Kd] [6c]",
        "Dealt to c3 [4d] [9h]",
        "Dealt to e5 [Jh] [6h]",
        "a1: bets 20",
        "e5: calls 20",
        "zed joins the table at seat #6 ",
        "*** 5th STREET ***",
        "Dealt to a1 [Ah 2c 3s 5d] [4c]",
        "Dealt to b2 [Kd 6c] [8c]",
        "Dealt to c3 [4d 9h] [Qs]",
        "Dealt to e5 [Jh 6h] [Th]",
        "a1: bets 40",
        "e5: calls 16 and is all-in",
        "Uncalled bet (24) returned to a1",
        "*** 6th STREET ***",
        "Dealt to a1 [Ah 2c 3s 5d 4c] [Kh]",
        "Dealt to b2 [Kd 6c 8c] [Qd]",
        "Dealt to c3 [4d 9h Qs] [Jd]",
        "Dealt to e5 [Jh 6h Th] [2h]",
        "*** RIVER ***",
        "Dealt to a1 [Ah 2c 3s 5d 4c Kh] [9c]",
        "*** SHOW DOWN ***",
        "e5: shows [7h 8s Jh 6h Th 2h 3h] (Lo: 8,7,6,3,2)",
        "a1: shows [Ah 2c 3s 5d 4c Kh 9c] (Lo: 5,4,3,2,A)",
        "a1 collected 72 from side pot-2",
        "c3: shows [Ts 8d 4d 9h Qs Jd 7s] (Lo: T,9,8,7,4)",
        "a1 collected 45 from side pot-1",
        "b2: shows [Tc 6d Kd 6c 8c Qd Jc] (Lo: Q,J,T,8,6)",
        "a1 collected 40 from main pot",
        "b2 finished the tournament in 5th place",
        "*** SUMMARY ***",
        "Total pot 157 Main pot 40. Side pot-1 45. Side pot-2 72. | Rake 0 ",
        "Seat 1: a1 showed [Ah 2c 3s 5d 4c Kh 9c] and won (157) with Lo: 5,4,3,2,A",
        "Seat 2: b2 showed [Tc 6d Kd 6c 8c Qd Jc] and lost with Lo: Q,J,T,8,6",
        "Seat 3: c3 showed [Ts 8d 4d 9h Qs Jd 7s] and lost with Lo: T,9,8,7,4",
        "Seat 4: d4 folded on the 3rd Street (didn't bet)",
        "Seat 5: e5 showed [7h 8s Jh 6h Th 2h 3h] and lost with Lo: 8,7,6,3,2",
    ]
    return "\n".join(lines) + "\n"


def holdem_hand(hand_id: str = "99000000001") -> str:
    """A hold'em hand of an 8-Game rotation: its header is enough to skip it."""
    return (
        "\n".join(
            [
                f"PokerStars Home Game Hand #{hand_id}: {{Club}} Tournament #5, 100+9 8-Game "
                "(Hold'em No Limit) - Match Round I, Level VII (15/30) - 2013/06/06 1:00:00 ET",
                "Table '5 1' 2-max Seat #1 is the button",
                "Seat 1: p1 (1127 in chips) ",
                "Seat 2: p2 (1873 in chips) ",
                "p1: posts small blind 15",
                "p2: posts big blind 30",
                "*** HOLE CARDS ***",
                "p1: folds ",
                "Uncalled bet (15) returned to p2",
                "p2 collected 30 from pot",
                "*** SUMMARY ***",
                "Total pot 30 | Rake 0 ",
                "Seat 1: p1 (button) (small blind) folded before Flop",
                "Seat 2: p2 (big blind) collected (30)",
            ]
        )
        + "\n"
    )
