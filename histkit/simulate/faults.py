"""Fault injection: realistic payout errors, written consistently in body and summary.

Each fault changes who was paid (or how much rake was taken) and then rewrites the
`collected` lines and the summary so the hand is internally consistent, the way a buggy
site would write it. The ground truth goes to a sidecar record naming the violation code
an auditor must report. A fault is only planted where its code is unambiguous (e.g. a
low half moved to a hand with no qualifying low is LOW_NOT_QUALIFIED, to a worse low is
AWARD_MISMATCH).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace

from histkit import evaluate
from histkit.dialects.pokerstars_writer import format_amount
from histkit.model import Collect, Game, Hand, PotKind, SeatOutcome, Show, Summary
from histkit.rules.pots import Half
from histkit.simulate.config import RakeSchedule
from histkit.simulate.play import PlayedHand

__all__ = ["Fault", "FAULT_KINDS", "inject_fault"]


@dataclass(frozen=True, slots=True)
class Fault:
    """One planted fault: the sidecar line."""

    hand_id: str
    kind: str
    code: str
    detail: str

    def as_json(self) -> dict[str, str]:
        return {
            "hand_id": self.hand_id,
            "fault": self.kind,
            "code": self.code,
            "detail": self.detail,
        }


def _m(hand: Hand, amount: int) -> str:
    return format_amount(amount, hand.unit, hand.currency)


def _pot_of(c: Collect) -> int:
    return c.pot_index if c.pot is PotKind.SIDE else 0


def _rewrite(hand: Hand, collects: list[Collect], summary: Summary) -> Hand:
    """Put new `collected` lines in place of the old ones (same positions) and make the
    summary's seat results agree with them."""
    it = iter(collects)
    events = tuple(next(it) if isinstance(e, Collect) else e for e in hand.events)
    won: dict[str, int] = {}
    for c in collects:
        won[c.player] = won.get(c.player, 0) + c.amount
    seats = []
    for r in summary.seats:
        if r.outcome in (SeatOutcome.SHOWED, SeatOutcome.COLLECTED):
            r = replace(r, won=won.get(r.player, 0))
        seats.append(r)
    return replace(hand, events=events, summary=replace(summary, seats=tuple(seats)))


def _shown(hand: Hand) -> dict[str, tuple]:
    return {e.player: e.cards for e in hand.events if isinstance(e, Show)}


def _cards_with_board(hand: Hand, cards: tuple) -> tuple:
    board = hand.summary.board if hand.summary else ()
    return tuple(cards) + tuple(board)


def _low_half(ph: PlayedHand, rng: random.Random) -> tuple[Hand, Fault] | None:
    """The low half of a split pot is paid to another player who showed."""
    hand, s = ph.hand, ph.settlement
    if hand.game is not Game.STUD_HILO or hand.summary is None:
        return None
    shown = _shown(hand)
    options = []
    for low in (a for a in s.awards if a.half is Half.LOW and a.winners and len(a.winners) == 1):
        high = next(a for a in s.awards if a.pot == low.pot and a.half is Half.HIGH)
        for q in shown:
            if q in low.eligible and q not in (low.winners or ()) + (high.winners or ()):
                options.append((low, q))
    if not options:
        return None
    low, q = rng.choice(options)
    winner = low.winners[0] if low.winners else ""
    qual = evaluate.low8_value(_cards_with_board(hand, shown[q])) is not None
    code = "AWARD_MISMATCH" if qual else "LOW_NOT_QUALIFIED"
    collects = [e for e in hand.events if isinstance(e, Collect)]
    # the low half's line: the last line of that pot paid to the low winner
    idx = max(i for i, c in enumerate(collects) if _pot_of(c) == low.pot and c.player == winner)
    collects[idx] = replace(collects[idx], player=q)
    detail = f"pot {low.pot}: low half {_m(hand, low.amount)} paid to {q} instead of {winner}"
    return _rewrite(hand, collects, hand.summary), Fault(
        hand.hand_id, "low_half_wrong_player", code, detail
    )


def _odd_chip(ph: PlayedHand, rng: random.Random) -> tuple[Hand, Fault] | None:
    """The odd chip of a split pot goes to the low half instead of the high half."""
    hand, s = ph.hand, ph.settlement
    if hand.summary is None:
        return None
    options = []
    for high in (a for a in s.awards if a.half is Half.HIGH and a.winners and len(a.winners) == 1):
        low = next(a for a in s.awards if a.pot == high.pot and a.half is Half.LOW)
        single = low.winners is not None and len(low.winners) == 1
        if single and low.winners != high.winners and high.amount == low.amount + 1:
            options.append((high, low))
    if not options:
        return None
    high, low = rng.choice(options)
    h, lo = high.winners[0], low.winners[0]  # type: ignore[index]
    collects = [e for e in hand.events if isinstance(e, Collect)]
    ih = next(i for i, c in enumerate(collects) if _pot_of(c) == high.pot and c.player == h)
    il = next(i for i, c in enumerate(collects) if _pot_of(c) == low.pot and c.player == lo)
    collects[ih] = replace(collects[ih], amount=collects[ih].amount - 1)
    collects[il] = replace(collects[il], amount=collects[il].amount + 1)
    detail = f"pot {high.pot}: odd chip paid to the low half ({lo}) instead of the high ({h})"
    return _rewrite(hand, collects, hand.summary), Fault(
        hand.hand_id, "odd_chip_wrong_half", "ODD_CHIP", detail
    )


def _side_pot(ph: PlayedHand, rng: random.Random) -> tuple[Hand, Fault] | None:
    """A side pot is paid to a player who is not eligible for it (a short all-in)."""
    hand, s = ph.hand, ph.settlement
    if hand.summary is None or len(s.pots) < 2:
        return None
    shown = _shown(hand)
    options = []
    for award in s.awards:
        if award.pot == 0 or award.winners is None or len(award.winners) != 1:
            continue
        for q in shown:
            if q in award.eligible:
                continue
            # in hi/lo a hand without a low would read as LOW_NOT_QUALIFIED: keep codes clear
            no_low = evaluate.low8_value(_cards_with_board(hand, shown[q])) is None
            if hand.game is Game.STUD_HILO and no_low:
                continue
            options.append((award, q))
    if not options:
        return None
    award, q = rng.choice(options)
    w = award.winners[0]  # type: ignore[index]
    collects = [e for e in hand.events if isinstance(e, Collect)]
    picks = [i for i, c in enumerate(collects) if _pot_of(c) == award.pot and c.player == w]
    i = picks[-1] if award.half is Half.LOW else picks[0]
    collects[i] = replace(collects[i], player=q)
    detail = (
        f"side pot {award.pot} ({award.half.value}, {_m(hand, award.amount)}) paid to {q}, "
        "who is not eligible for it"
    )
    return _rewrite(hand, collects, hand.summary), Fault(
        hand.hand_id, "side_pot_ineligible", "AWARD_MISMATCH", detail
    )


def _wrong_rake(
    ph: PlayedHand, rng: random.Random, schedule: RakeSchedule
) -> tuple[Hand, Fault] | None:
    """More rake than the house's percentage allows, taken from the winner's collection."""
    hand, s = ph.hand, ph.settlement
    summ = hand.summary
    if summ is None or hand.is_tournament or len(s.pots) != 1 or len(s.awards) != 1:
        return None
    award = s.awards[0]
    if award.winners is None or len(award.winners) != 1:
        return None
    ceiling = -(-summ.total_pot * schedule.percent // 100)
    new_rake = ceiling + rng.randint(1, max(1, summ.total_pot // 20))
    delta = new_rake - summ.rake
    collects = [e for e in hand.events if isinstance(e, Collect)]
    if len(collects) != 1 or collects[0].amount <= delta:
        return None
    collects[0] = replace(collects[0], amount=collects[0].amount - delta)
    detail = (
        f"rake {_m(hand, new_rake)} instead of {_m(hand, summ.rake)} on a pot of "
        f"{_m(hand, summ.total_pot)}"
    )
    new = _rewrite(hand, collects, replace(summ, rake=new_rake))
    return new, Fault(hand.hand_id, "wrong_rake", "RAKE", detail)


FAULT_KINDS = ("low_half_wrong_player", "odd_chip_wrong_half", "side_pot_ineligible", "wrong_rake")


def inject_fault(
    ph: PlayedHand,
    rng: random.Random,
    rake: RakeSchedule,
    kinds: tuple[str, ...] = FAULT_KINDS,
) -> tuple[Hand, Fault] | None:
    """Plant one fault the hand allows (kinds tried in random order), or None."""
    makers: list[Callable[[], tuple[Hand, Fault] | None]] = [
        lambda: _low_half(ph, rng),
        lambda: _odd_chip(ph, rng),
        lambda: _side_pot(ph, rng),
        lambda: _wrong_rake(ph, rng, rake),
    ]
    # the rarer payout faults first; the rake fault fits almost any cash hand
    head = makers[:3]
    rng.shuffle(head)
    makers = [makers[3], *head] if rng.random() < 0.3 else [*head, makers[3]]
    for make in makers:
        out = make()
        if out is not None and out[1].kind in kinds:
            return out
    return None
