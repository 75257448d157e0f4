"""The summary checks: the total pot, the rake, the main and side pots, each seat's line,
and the words a site uses for each shown hand.

Run by `rules/replay.py` after the award checks: what the summary says everyone put in,
took and did (folded, showed, won) against what the facts of the hand say.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from histkit.model import Collect
from histkit.rules.awards import cards_of
from histkit.rules.pots import Settlement
from histkit.rules.speed import CHIP as _UNIT_CHIP
from histkit.rules.speed import FOLDED as _SEATOUTCOME_FOLDED
from histkit.rules.speed import GAME_RAZZ as _GAME_RAZZ
from histkit.rules.speed import GAME_STUD as _GAME_STUD
from histkit.rules.speed import GAME_STUD_HILO as _GAME_STUD_HILO
from histkit.rules.speed import MUCKED as _SEATOUTCOME_MUCKED
from histkit.rules.speed import POT_TOTAL as _POTKIND_TOTAL
from histkit.rules.speed import SHOWED as _SEATOUTCOME_SHOWED
from histkit.rules.violations import Code, Severity

if TYPE_CHECKING:
    from histkit.rules.replay import HandAudit

__all__ = ["check_descriptions", "check_summary"]


def check_descriptions(au: HandAudit) -> None:
    game = au.game
    describe = au.describe
    if describe is None or game not in (_GAME_STUD, _GAME_STUD_HILO, _GAME_RAZZ):
        return
    if au.spec.game is _GAME_STUD_HILO and au.spec.low_qualifier is None:
        return
    items: list[tuple[str, str, int]] = [
        (e.player, e.description, e.line) for e in au.st.show_events if e.description
    ]
    if au.summary is not None:
        for sr in au.summary.seats:
            if sr.description and sr.outcome is _SEATOUTCOME_SHOWED:
                items.append((sr.player, sr.description, sr.line))
    if not items:
        return
    wants: dict[str, str | None] = {}  # a player's cards are described once
    for p, text, line in items:
        if p in wants:
            want = wants[p]
        else:
            cards = cards_of(au, p)
            want = None if cards is None or len(cards) < 5 else describe(game, cards)
            wants[p] = want
        if want is None:
            continue
        if _norm(want) != _norm(text):
            au.v(
                Code.SUMMARY_MISMATCH,
                f"{p}'s hand is described as '{text}', but the cards make '{want}'.",
                line=line,
                expected=want,
                reported=text,
                severity=Severity.WARNING,
            )


# --------------------------------------------------------------- summary
def check_summary(au: HandAudit, s: Settlement, collects: list[Collect]) -> None:
    st = au.st
    summary = au.summary
    total_in = sum(st.total_in)
    collected = sum([c.amount for c in collects])
    if summary is None:
        if collected != total_in:
            au.v(
                Code.POT_TOTAL,
                f"{au.m(collected)} is collected from a pot of {au.m(total_in)}.",
                expected=total_in,
                reported=collected,
            )
        return
    line = summary.line
    if summary.total_pot != total_in:
        au.v(
            Code.POT_TOTAL,
            f"The summary's total pot is {au.m(summary.total_pot)}, but the players put "
            f"in {au.m(total_in)}.",
            line=line,
            expected=total_in,
            reported=summary.total_pot,
        )
    rake = summary.taken
    if rake < 0 or rake > summary.total_pot:
        au.v(
            Code.RAKE,
            f"A rake of {au.m(rake)} is impossible on a pot of {au.m(summary.total_pot)}.",
            line=line,
            reported=rake,
        )
    elif rake > 0 and st.unit is _UNIT_CHIP:
        au.v(
            Code.RAKE,
            f"A rake of {au.m(rake)} is taken in a chip game (tournament or play money).",
            line=line,
            expected=0,
            reported=rake,
        )
    elif au.profile.rake_max_percent is not None:
        cap = -(-summary.total_pot * au.profile.rake_max_percent // 100)
        if rake > cap:
            au.v(
                Code.RAKE,
                f"The rake of {au.m(rake)} exceeds {au.profile.rake_max_percent}% of "
                f"the {au.m(summary.total_pot)} pot.",
                line=line,
                expected=cap,
                reported=rake,
            )
    if collected + rake != summary.total_pot:
        au.v(
            Code.POT_TOTAL,
            f"{au.m(collected)} collected plus {au.m(rake)} taken does not make the "
            f"total pot of {au.m(summary.total_pot)}.",
            line=line,
            expected=summary.total_pot - rake,
            reported=collected,
        )
    nets = [p.net for p in s.pots]
    if summary.main_pot is not None:
        written = (summary.main_pot, *summary.side_pots)
        if tuple(nets) != written:
            au.v(
                Code.SUMMARY_MISMATCH,
                "The summary's main/side pots are "
                + ", ".join(au.m(x) for x in written)
                + "; after rake they should be "
                + ", ".join(au.m(x) for x in nets)
                + ".",
                line=line,
                expected="/".join(map(str, nets)),
                reported="/".join(map(str, written)),
            )
    elif len(nets) > 1 and not any(c.pot is _POTKIND_TOTAL for c in collects):
        # (a site that writes only each player's total writes no pots either)
        au.v(
            Code.SUMMARY_MISMATCH,
            f"The hand has {len(nets) - 1} side pot(s), but the summary lists none.",
            line=line,
            expected="/".join(map(str, nets)),
            severity=Severity.WARNING,
        )
    won: dict[str, int] = {}
    for c in collects:
        won[c.player] = won.get(c.player, 0) + c.amount
    seen = set()
    folded_players = st.folded
    for sr in summary.seats:
        seen.add(sr.player)
        got = won.get(sr.player, 0)
        if sr.won != got:
            au.v(
                Code.SUMMARY_MISMATCH,
                f"The summary says {sr.player} won {au.m(sr.won)}, but they collected {au.m(got)}.",
                line=sr.line,
                expected=got,
                reported=sr.won,
            )
        folded = sr.player in folded_players
        if sr.outcome is _SEATOUTCOME_FOLDED:
            if not folded:
                au.v(
                    Code.SUMMARY_MISMATCH,
                    f"The summary says {sr.player} folded, but they never folded.",
                    line=sr.line,
                    blame=(sr.player,),
                )
            elif sr.folded_street is not None and st.fold_street_of(sr.player) != (
                sr.folded_street
            ):
                au.v(
                    Code.SUMMARY_MISMATCH,
                    f"The summary says {sr.player} folded on {int(sr.folded_street)}th "
                    f"street, but they folded on {int(st.fold_street_of(sr.player) or 0)}th.",
                    line=sr.line,
                    expected=int(st.fold_street_of(sr.player) or 0),
                    reported=int(sr.folded_street),
                    blame=(sr.player,),
                )
        elif sr.outcome in (_SEATOUTCOME_SHOWED, _SEATOUTCOME_MUCKED) and folded:
            au.v(
                Code.SUMMARY_MISMATCH,
                f"The summary shows {sr.player}'s hand at showdown, but they folded.",
                line=sr.line,
                blame=(sr.player,),
            )
    for p, amt in won.items():
        if amt and p not in seen:
            au.v(
                Code.SUMMARY_MISMATCH,
                f"{p} collected {au.m(amt)} but has no line in the summary.",
                line=line,
                expected=amt,
            )


_NORMS: dict[str, str] = {}


def _norm(text: str) -> str:
    """A description compared loosely (spaces, case); memoised: the same few thousand
    texts come back hand after hand."""
    got = _NORMS.get(text)
    if got is None:
        if len(_NORMS) >= 16384:
            _NORMS.clear()
        got = _NORMS[text] = " ".join(text.replace(" ;", ";").split()).lower()
    return got
