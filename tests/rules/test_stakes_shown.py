"""What a hand's wagers say of its fixed-limit bets (`betting.stakes_shown`), for a site
that writes no stakes: each wager is (street, the bet standing, the street total it
reaches, all-in, for the big bet on 4th); the answer is (small bet, big bet, the least
small bet the all-ins allow)."""

from __future__ import annotations

import pytest

from histkit.model import Street
from histkit.rules.betting import stakes_shown
from histkit.rules.profile import ShortAllIn

T, F4, F5, S6 = Street.THIRD, Street.FOURTH, Street.FIFTH, Street.SIXTH
HALF, NEVER = ShortAllIn.HALF_BET, ShortAllIn.NEVER


@pytest.mark.parametrize(
    ("wagers", "shown"),
    [
        # 3rd street's first wager completes to the small bet; a raise adds it
        ([(T, 5, 20, False, False), (T, 20, 40, False, False)], (20, None, 0)),
        # a bet on 4th is the small bet, "Double bets" on 4th the big one, 5th-7th the big
        ([(F4, 0, 20, False, False)], (20, None, 0)),
        ([(F4, 0, 40, False, True)], (None, 40, 0)),
        ([(F5, 0, 40, False, False), (F5, 40, 80, False, False)], (None, 40, 0)),
        # the first full wager of each size is the one kept
        ([(T, 5, 20, False, False), (S6, 0, 40, False, False)], (20, 40, 0)),
        # only all-ins: no size, a bound (a big-bet street's all-in bounds half as much)
        ([(T, 5, 15, True, False)], (None, None, 15)),
        ([(F5, 0, 30, True, False)], (None, None, 15)),
        ([(F5, 0, 31, True, False)], (None, None, 16)),
        # all-in 181 over a 90 bring-in is short of half a 300 bet: "raises to 300"
        # completes the bet, so the small bet is 300
        ([(T, 90, 181, True, False), (T, 181, 300, False, False)], (300, None, 181)),
    ],
)
def test_full_wagers_show_the_bets(
    wagers: list[tuple[Street, int, int, bool, bool]], shown: tuple[int | None, int | None, int]
) -> None:
    assert stakes_shown(wagers, HALF) == shown


def test_a_half_bet_all_in_counts_as_a_full_wager_where_the_house_says_so() -> None:
    # all-in to 15 over a 5 bring-in, then a raise to 35: under the half-bet rule the
    # all-in completed to a 20 small bet (10 of 15 added is half or more) and the raise
    # adds 20 over it; where only full wagers count, the raise itself completes, to 35
    wagers = [(T, 5, 15, True, False), (T, 15, 35, False, False)]
    assert stakes_shown(wagers, HALF) == (20, None, 15)
    assert stakes_shown(wagers, NEVER) == (35, None, 15)


def test_a_wager_that_fits_no_reading_shows_nothing() -> None:
    # an all-in that reached the full bet was no short one: no reading fits, no size
    wagers = [(F5, 0, 40, True, False), (F5, 40, 60, False, False)]
    assert stakes_shown(wagers, HALF) == (None, None, 20)
