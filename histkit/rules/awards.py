"""The award checks: who the site paid from each pot and half, against who the cards say.

Run by `rules/replay.py` once a hand's facts are in and its pots are settled
(`HandState.settle`): each pot's collects against its expected winners (an odd chip, a low
paid without a qualifying low, a pot that does not exist), the halves where the site
names them, the totals where it writes only each player's winnings over all pots, the
"No low hand qualified" line, and what the unshown cards leave unchecked.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from histkit.cards import Card
from histkit.model import Collect
from histkit.rules import showdown
from histkit.rules.pots import Award, Pot, Settlement
from histkit.rules.speed import HALF_HIGH as _HALF_HIGH
from histkit.rules.speed import HALF_LOW as _HALF_LOW
from histkit.rules.speed import HIGHLOW_HILO as _HIGHLOW_HILO
from histkit.rules.speed import POT_POT as _POTKIND_POT
from histkit.rules.speed import POT_SIDE as _POTKIND_SIDE
from histkit.rules.speed import POT_TOTAL as _POTKIND_TOTAL
from histkit.rules.violations import Code, Severity

if TYPE_CHECKING:
    from histkit.rules.replay import HandAudit

__all__ = ["check_awards", "cards_of", "pot_index"]


def pot_index(c: Collect) -> int:
    """The pot a collect pays from: 0 the main (or only) pot, N side pot N."""
    if c.pot is _POTKIND_SIDE:
        return c.pot_index or 1
    return 0


def check_awards(au: HandAudit, s: Settlement, collects: list[Collect]) -> tuple[Award, ...]:
    if collects and any(c.pot is _POTKIND_TOTAL for c in collects):
        return _check_totals(au, s, collects)
    if len(s.pots) > 1 and _one_line_covers_pots(au, s, collects):
        return _check_totals(au, s, collects, per_pot_note=False)
    st = au.st
    # plain dicts, not Counters: this runs for every hand (a Counter's extra
    # methods cost more than the arithmetic)
    by_pot: dict[int, dict[str, int]] = {}
    lines: dict[int, int] = {}
    seat_no = st.index
    for c in collects:
        i = (c.pot_index or 1) if c.pot is _POTKIND_SIDE else 0
        got = by_pot.get(i)
        if got is None:
            by_pot[i] = got = {}
            lines[i] = c.line
        got[c.player] = got.get(c.player, 0) + c.amount
        if c.player not in seat_no:
            au.v(
                Code.UNKNOWN_PLAYER,
                f"{c.player} collects {au.m(c.amount)} but has no seat at this table.",
                line=c.line,
            )
    pots = s.pots
    n_pots = len(pots)
    for i in by_pot:
        if i >= n_pots:
            names = ", ".join(f"{p} {au.m(a)}" for p, a in by_pot[i].items())
            au.v(
                Code.AWARD_MISMATCH,
                f"Chips are collected from a pot that does not exist (pot {i}): {names}.",
                line=lines[i],
                expected=0,
                reported=sum(by_pot[i].values()),
            )
    if n_pots > 1 and any(c.pot is _POTKIND_POT for c in collects):
        au.v(
            Code.SUMMARY_MISMATCH,
            "Chips are collected from 'the pot' although the hand has side pots.",
            severity=Severity.WARNING,
        )
    undecided_reported = False
    halves_written = any(c.half is not None for c in collects)
    result: list[Award] = []
    for pot in pots:
        index = pot.index
        awards = [a for a in s.awards if a.pot == index]
        reported = by_pot.get(index, {})
        result.extend(_attach(au, awards, reported))
        line = lines.get(index, 0) if index < n_pots else 0
        if any(a.winners is None for a in awards):
            undecided_reported = True
            name = _pot_name(au, index, n_pots)
            _check_undecided(au, pot, Counter(reported), name, line)
            continue
        expected: dict[str, int] = {}
        for a in awards:
            for p, amt in a.expected:
                expected[p] = expected.get(p, 0) + amt
        # Counter's `+x == +y`: compare the positive entries only
        if expected == reported or {p: v for p, v in expected.items() if v > 0} == {
            p: v for p, v in reported.items() if v > 0
        }:
            if halves_written:
                _check_halves(au, index, awards, collects, _pot_name(au, index, n_pots))
            continue
        name = _pot_name(au, index, n_pots)
        _award_mismatch(au, pot, awards, Counter(expected), Counter(reported), name, line, s)
    _check_no_low(au, s)
    _info_unknown(au, s, undecided_reported)
    return tuple(result)


def _check_halves(
    au: HandAudit, index: int, awards: list[Award], collects: list[Collect], name: str
) -> None:
    """The site names the half each collect pays (high or low): each half must go to
    the players the engine gives it to. A pot paid whole (one scoop, no low) is not
    checked by label; the pot's total per player already is."""
    mine = [c for c in collects if pot_index(c) == index]
    if not mine or any(c.half is None for c in mine):
        return
    if any(a.half is not _HALF_HIGH and a.half is not _HALF_LOW for a in awards):
        return
    for a in awards:
        want = {p: v for p, v in a.expected if v > 0}
        got: dict[str, int] = {}
        line = 0
        for c in mine:
            if c.half is a.half:
                got[c.player] = got.get(c.player, 0) + c.amount
                line = line or c.line
        if got == want:
            continue
        half = f"the {a.half.value} half of {name}"
        exp_txt = ", ".join(f"{p} {au.m(v)}" for p, v in want.items()) or "nobody"
        rep_txt = ", ".join(f"{p} {au.m(v)}" for p, v in got.items()) or "nobody"
        odd = set(got) == set(want) and all(abs(got[p] - want[p]) <= 1 for p in want)
        au.v(
            Code.ODD_CHIP if odd else Code.AWARD_MISMATCH,
            f"The site pays {rep_txt} as {half}; it goes to {exp_txt}.",
            line=line or (mine[0].line if mine else 0),
            expected="; ".join(f"{p}={v}" for p, v in want.items()),
            reported="; ".join(f"{p}={v}" for p, v in got.items()),
        )


def _one_line_covers_pots(au: HandAudit, s: Settlement, collects: list[Collect]) -> bool:
    """A hand with side pots whose winners each collect once, from "the pot" or the main
    pot, what they win over all the pots (a site's mistake, issue 24 item 3): named as such
    (a warning) and audited as each winner's total, as `PotKind.TOTAL` is, rather than as
    a wrong main pot and unpaid side pots. False (the pots checked one by one) when any
    collect names a side pot, a player collects twice, or the amounts are not the totals."""
    if not collects or any(c.pot is _POTKIND_SIDE for c in collects):
        return False
    reported: dict[str, int] = {}
    for c in collects:
        if c.player in reported:
            return False
        reported[c.player] = c.amount
    n = len(s.pots)
    if any(a.winners is None for a in s.awards):
        # who won which pot is not known: only one player taking everything is sure
        if len(reported) != 1 or sum(reported.values()) != sum(p.net for p in s.pots):
            return False
        covers = {collects[0].player: list(range(n))}
    else:
        expected: dict[str, int] = {}
        for a in s.awards:
            for p, amt in a.expected:
                expected[p] = expected.get(p, 0) + amt
        if {p: v for p, v in expected.items() if v > 0} != reported:
            return False
        covers = {}
        for a in s.awards:
            for p, amt in a.expected:
                if amt > 0 and a.pot not in covers.setdefault(p, []):
                    covers[p].append(a.pot)
    named = [c for c in collects if len(covers.get(c.player, ())) > 1]
    for c in named:
        pots = [_pot_name(au, i, n) for i in sorted(covers[c.player])]
        au.v(
            Code.SUMMARY_MISMATCH,
            f"{c.player} collects {au.m(c.amount)} in one line from "
            f"{'the pot' if c.pot is _POTKIND_POT else 'the main pot'}, which covers "
            f"{', '.join(pots[:-1])} and {pots[-1]}: audited as {c.player}'s total over them.",
            line=c.line,
            severity=Severity.WARNING,
            reported=c.amount,
        )
    return bool(named)


def _check_totals(
    au: HandAudit, s: Settlement, collects: list[Collect], *, per_pot_note: bool = True
) -> tuple[Award, ...]:
    """The site wrote each player's winnings over all pots, not per pot: the totals
    are checked, and which pot paid what is said to be uncheckable (`per_pot_note`: the
    site's way of writing, not where one line covers several pots, which is named on its
    own)."""
    reported: dict[str, int] = {}
    line = 0
    for c in collects:
        reported[c.player] = reported.get(c.player, 0) + c.amount
        line = line or c.line
    undecided = any(a.winners is None for a in s.awards)
    paid = sum(reported.values())
    net = sum(p.net for p in s.pots)
    if undecided:
        if paid != net:
            au.v(
                Code.AWARD_MISMATCH,
                f"{au.m(paid)} is paid out of pots that hold {au.m(net)} after rake.",
                line=line,
                expected=net,
                reported=paid,
            )
    else:
        expected: dict[str, int] = {}
        for a in s.awards:
            for p, amt in a.expected:
                expected[p] = expected.get(p, 0) + amt
        want = {p: v for p, v in expected.items() if v > 0}
        got = {p: v for p, v in reported.items() if v > 0}
        if want != got:
            exp_txt = ", ".join(f"{p} {au.m(a)}" for p, a in want.items()) or "nobody"
            rep_txt = ", ".join(f"{p} {au.m(a)}" for p, a in got.items()) or "nobody"
            au.v(
                Code.AWARD_MISMATCH,
                f"Over all pots ({au.m(net)} after rake) the hand should pay {exp_txt}, "
                f"but paid {rep_txt}.",
                line=line,
                expected="; ".join(f"{p}={a}" for p, a in want.items()),
                reported="; ".join(f"{p}={a}" for p, a in got.items()),
            )
    if len(s.pots) > 1 and per_pot_note:
        au.v(
            Code.UNCHECKABLE_SHOWDOWN,
            "The site writes each player's winnings over all pots, not per pot: which "
            "pot paid what cannot be checked, only the totals.",
            severity=Severity.INFO,
        )
    # each award gets the reported chips that fit it, pot by pot
    left = dict(reported)
    order = au.st.names
    result: list[Award] = []
    for a in s.awards:
        got_a: dict[str, int] = {}
        for p, amt in a.expected:
            take = min(left.get(p, 0), amt)
            if take:
                got_a[p] = take
                left[p] -= take
        rep = tuple([(p, got_a[p]) for p in order if got_a.get(p)])
        result.append(
            Award(a.pot, a.half, a.amount, a.eligible, a.winners, a.expected, rep, a.reason)
        )
    _check_no_low(au, s)
    _info_unknown(au, s, undecided)
    return tuple(result)


def _pot_name(au: HandAudit, index: int, n: int) -> str:
    if n == 1:
        return "the pot"
    return "the main pot" if index == 0 else f"side pot {index}"


def _attach(au: HandAudit, awards: list[Award], reported: dict[str, int]) -> list[Award]:
    """Give each half the reported chips that match it; leftovers go to the first."""
    left = dict(reported)
    out: list[tuple[Award, dict[str, int]]] = []
    for a in awards:
        got: dict[str, int] = {}
        for p, amt in a.expected:
            take = min(left.get(p, 0), amt)
            if take:
                got[p] = got.get(p, 0) + take
                left[p] = left.get(p, 0) - take
        out.append((a, got))
    if out:
        first = out[0][1]
        for p, amt in left.items():
            if amt:
                first[p] = first.get(p, 0) + amt
    res = []
    order = au.st.names
    for a, got in out:
        rep = tuple([(p, got[p]) for p in order if got.get(p)])
        res.append(Award(a.pot, a.half, a.amount, a.eligible, a.winners, a.expected, rep, a.reason))
    return res


def _check_undecided(au: HandAudit, pot: Pot, reported: Counter[str], name: str, line: int) -> None:
    total = sum(reported.values())
    if total != pot.net:
        au.v(
            Code.AWARD_MISMATCH,
            f"{au.m(total)} is collected from {name}, which holds {au.m(pot.net)} after rake.",
            line=line,
            expected=pot.net,
            reported=total,
        )
    for p, amt in reported.items():
        if amt and p not in pot.eligible:
            au.v(
                Code.AWARD_MISMATCH,
                f"{p} collects {au.m(amt)} from {name} but is not eligible for it.",
                line=line,
                expected=0,
                reported=amt,
            )
        elif amt and au.st.marked(au.st.muck_mask | au.st.decline_mask, p) and not _known(au, p):
            au.v(
                Code.AWARD_MISMATCH,
                f"{p} collects {au.m(amt)} from {name} after mucking their hand.",
                line=line,
                expected=0,
                reported=amt,
            )


def _known(au: HandAudit, p: str) -> bool:
    cs = au.st.cards_of(p) or []
    return bool(cs) and all(c is not None for c in cs)


def _award_mismatch(
    au: HandAudit,
    pot: Pot,
    awards: list[Award],
    expected: Counter[str],
    reported: Counter[str],
    name: str,
    line: int,
    s: Settlement,
) -> None:
    exp_txt = ", ".join(f"{p} {au.m(a)}" for p, a in expected.items() if a) or "nobody"
    rep_txt = ", ".join(f"{p} {au.m(a)}" for p, a in reported.items() if a) or "nobody"
    exp_s = "; ".join(f"{p}={a}" for p, a in expected.items() if a)
    rep_s = "; ".join(f"{p}={a}" for p, a in reported.items() if a)
    recips_e = {p for p, a in expected.items() if a}
    recips_r = {p for p, a in reported.items() if a}
    if (
        recips_e == recips_r
        and sorted(expected[p] for p in recips_e) == sorted(reported[p] for p in recips_r)
        and all(abs(expected[p] - reported[p]) <= 1 for p in recips_e)
    ):
        au.v(
            Code.ODD_CHIP,
            f"The odd chip of {name} went to the wrong player: expected {exp_txt}, paid {rep_txt}.",
            line=line,
            expected=exp_s,
            reported=rep_s,
        )
        return
    if au.spec.pots is _HIGHLOW_HILO:
        high_winners: set[str] = set()
        for a in awards:
            if a.half is not _HALF_LOW and a.winners:
                high_winners.update(a.winners)
        extra = [p for p in recips_r if reported[p] > expected[p] and p not in high_winners]
        cards = {p: cards_of(au, p) for p in extra}
        not_qual = [
            p
            for p in extra
            if cards[p] is not None and showdown.low(au.spec, cards[p] or ()) is None
        ]
        if not_qual:
            who = not_qual[0]
            au.v(
                Code.LOW_NOT_QUALIFIED,
                f"{who} is paid {au.m(reported[who])} from {name} as a low half, but "
                f"{who}'s hand has no qualifying low (eight or better): expected "
                f"{exp_txt}, paid {rep_txt}.",
                line=line,
                expected=exp_s,
                reported=rep_s,
            )
            return
    au.v(
        Code.AWARD_MISMATCH,
        f"{name[0].upper() + name[1:]} ({au.m(pot.net)} after rake) should pay "
        f"{exp_txt}, but paid {rep_txt}.",
        line=line,
        expected=exp_s,
        reported=rep_s,
    )


def cards_of(au: HandAudit, p: str) -> tuple[Card, ...] | None:
    """All the cards p plays (the community card included) when every one is known
    and they can make a hand; None otherwise (unknown cards, or a card problem the
    replay reports on its own: a duplicate, or a 7th card beside a community card)."""
    cs = au.st.cards_of(p)
    if not cs:
        return None
    mask = 0  # a bit per card index: duplicates show as too few bits
    for c in cs:
        if c is None:
            return None
        mask |= 1 << c.index
    known: tuple[Card, ...] = tuple(cs)  # type: ignore[arg-type]  # no None left
    distinct = mask.bit_count() == len(known)
    community = au.st.community
    if community is not None:
        known += (community,)
        distinct = distinct and not mask >> community.index & 1
    if len(known) > 7 or not distinct:
        _card_problem(au, p, known)
        return None
    return known


def _card_problem(au: HandAudit, p: str, cards: tuple[Card, ...]) -> None:
    """Report cards that cannot make a hand, unless a card record is already there."""
    card_codes = (Code.CARD_DUPLICATE, Code.CARD_INCONSISTENT, Code.COMMUNITY_CARD)
    if any(v.code in card_codes for v in (*au.st.violations, *au.out)):
        return
    au.v(
        Code.CARD_INCONSISTENT,
        f"{p} plays {len(cards)} cards ({' '.join(map(str, cards))}), which cannot make "
        "a stud hand.",
        reported=" ".join(map(str, cards)),
    )


def _check_no_low(au: HandAudit, s: Settlement) -> None:
    st = au.st
    line = st.no_low_line
    if au.spec.pots is not _HIGHLOW_HILO or au.spec.low_qualifier is None:
        if line is not None:
            au.v(
                Code.NO_LOW_LINE,
                "'No low hand qualified' is printed in a game without a low qualifier.",
                line=line.line,
                severity=Severity.WARNING,
            )
        return
    decided_lows = [a for a in s.awards if a.half is _HALF_LOW and a.winners is not None]
    contested = [a for a in s.awards if a.winners is not None and len(a.eligible) > 1]
    if (
        line is None
        and au.no_low_printed
        and contested
        and not decided_lows
        and len(s.no_low) == len({a.pot for a in contested})
        and st.live_mask.bit_count() > 1
    ):
        au.v(
            Code.NO_LOW_LINE,
            "No hand qualifies for low at the showdown, but 'No low hand qualified' is "
            "not printed.",
            severity=Severity.WARNING,
        )
    if line is not None and decided_lows and len(s.no_low) == 0:
        who = ", ".join(w for a in decided_lows for w in (a.winners or ()))
        au.v(
            Code.NO_LOW_LINE,
            f"'No low hand qualified' is printed, but {who} has a qualifying low.",
            line=line.line,
        )


def _info_unknown(au: HandAudit, s: Settlement, undecided: bool) -> None:
    st = au.st
    if st.live_mask.bit_count() <= 1:
        return
    out = st.muck_mask | st.decline_mask
    hidden = [p for p in st.live if (st.marked(out, p) or p in s.undecided) and not _known(au, p)]
    if hidden:
        who = ", ".join(hidden)
        what = "the winners of some pots" if undecided else "whether they lost"
        au.v(
            Code.UNCHECKABLE_SHOWDOWN,
            f"{who} did not show their cards at the showdown, so {what} cannot be checked.",
            severity=Severity.INFO,
            reported=who,
            blame=tuple(hidden),
        )


# --------------------------------------------------------- descriptions
