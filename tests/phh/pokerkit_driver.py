"""PokerKit (pinned, the `pokerkit` extra) replaying histkit's PHH, strictly: every action
applied as written, in order, or the replay stops at the first one PokerKit refuses.

PokerKit's own `HandHistory` iteration repairs a hand it cannot follow (an action it
refuses becomes a check, a call or a fold); a second opinion must not, so this driver only
takes the steps no player decides: burning, dealing a card the record does not show
(`??`), and, at the end, the showdown of a player whose cards the record does not show.
"""

from __future__ import annotations

import importlib.util
import warnings
from dataclasses import dataclass
from importlib import metadata
from typing import Any

import pytest

from histkit.rules import Replay

__all__ = [
    "POKERKIT_VERSION",
    "PokerKitResult",
    "expected_stacks",
    "needs_pokerkit",
    "pokerkit_replay",
    "rake_of",
]

POKERKIT_VERSION = "0.7.7"  # the known differences (known_differences.py) are this version's


def _absent() -> str | None:
    if importlib.util.find_spec("pokerkit") is None:
        return "pokerkit is not installed (pip install -e '.[pokerkit]')"
    version = metadata.version("pokerkit")
    if version != POKERKIT_VERSION:
        return f"pokerkit {version} is installed; these tests know PokerKit {POKERKIT_VERSION}"
    return None


needs_pokerkit = pytest.mark.skipif(_absent() is not None, reason=_absent() or "")


@dataclass(frozen=True)
class PokerKitResult:
    """PokerKit's final stacks by player, or the action it refused (`refused`, with its
    index in the PHH actions and PokerKit's reason)."""

    stacks: dict[str, int] | None
    refused: str | None = None
    index: int | None = None
    reason: str | None = None


def rake_of(rp: Replay):
    """PokerKit's rake function for one hand: each pot pays the rake histkit's engine
    charged it (PokerKit asks per pot, and may have merged pots: a run of histkit's pots
    pays their rakes' sum), so the comparison is of the awards, not of a rake rule."""
    pots = rp.pots
    table: dict[int, int] = {}
    for i in range(len(pots)):
        for j in range(i + 1, len(pots) + 1):
            run = pots[i:j]
            table.setdefault(sum(p.amount for p in run), sum(p.rake for p in run))

    single = pots[0].rake if len(pots) == 1 else None

    def rake(amount: int, state: object = None) -> tuple[int, int]:
        # one pot: PokerKit may ask with its amount before the street's bets are in it
        taken = min(single if single is not None else table.get(amount, 0), amount)
        return taken, amount - taken

    return rake


def expected_stacks(rp: Replay) -> dict[str, int] | None:
    """Each player's stack after the hand as histkit's engine pays it (None when a pot's
    winner depends on cards the record does not show)."""
    if any(a.winners is None for a in rp.awards):
        return None
    start = {s.player: s.stack for s in rp.hand.seats}
    put = dict(rp.contributions)
    return {p: start[p] - put.get(p, 0) + sum(a.expected_of(p) for a in rp.awards) for p in put}


def pokerkit_replay(text: str, rp: Replay) -> PokerKitResult:
    """Replay one PHH hand's text in PokerKit, strictly (see the module's docstring)."""
    from pokerkit.notation import HandHistory, parse_action

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PokerKit warns of cards it would not deal
        hh = HandHistory.loads(text, rake=rake_of(rp))
        state = hh.create_state()
        i, action = 0, "(the start)"
        try:
            for i, action in enumerate(hh.actions):  # noqa: B007 - i names the refusal
                while True:
                    try:
                        parse_action(state, action, hh.parse_value)
                        break
                    except ValueError:
                        if state.can_burn_card():
                            state.burn_card("??")
                        elif state.can_deal_hole() and not action.startswith("d "):
                            state.deal_hole("??")
                        elif state.showdown_index is not None and " sm" not in action:
                            _keep_cards(state)
                        else:
                            raise
            i, action = len(hh.actions), "(end of the actions)"
            while state.status:
                if state.can_burn_card():
                    state.burn_card("??")
                elif state.can_deal_hole():
                    state.deal_hole("??")
                elif state.showdown_index is not None:
                    _keep_cards(state)
                else:
                    return PokerKitResult(None, action, i, "the hand is not over")
        except Exception as e:  # noqa: BLE001 - a refusal, or PokerKit failing
            why = str(e) if isinstance(e, ValueError) else f"{type(e).__name__} {e}"
            return PokerKitResult(None, action, i, why)
    players = hh.players or [f"p{i}" for i in range(1, len(hh.starting_stacks) + 1)]
    return PokerKitResult(dict(zip(players, (int(s) for s in state.stacks), strict=True)))


def _keep_cards(state: Any) -> None:
    """The showdown of a player the record neither shows nor mucks: the cards it knows
    stay known, the others unknown (PokerKit's own default, showing nothing, would
    forget the known ones on the last street)."""
    p = state.showdown_index
    state.show_or_muck_hole_cards("".join(map(repr, state.hole_cards[p])), p)
