"""replay(): walk a `Hand` through `HandState`, then audit pots, awards and the summary.

The result is an immutable `Replay`. It compares what the engine expects (pots, who wins
each pot and half, the odd chips) with what the site wrote (`collected` lines, summary).
Cards nobody showed stay unknown: such pots are checked for conservation only, and the
replay says so with an info record.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from histkit.cards import Card
from histkit.model import Collect, Game, Hand, PotKind, SeatOutcome, Street, Unit
from histkit.rules import showdown
from histkit.rules.games import GameSpec, HighLow, spec_for
from histkit.rules.pots import Award, Half, Pot, Settlement
from histkit.rules.profile import RuleProfile
from histkit.rules.state import HandState
from histkit.rules.violations import Code, Severity, Violation, money

__all__ = ["Coverage", "Replay", "replay"]

Describe = Callable[[Game, tuple[Card, ...]], "str | None"]


# enum members as globals (cheaper than the class attribute lookup, per hand)
_POTKIND_SIDE = PotKind.SIDE
_POTKIND_POT = PotKind.POT
_POTKIND_TOTAL = PotKind.TOTAL
_HIGHLOW_HILO = HighLow.HILO
_HALF_LOW = Half.LOW
_HALF_HIGH = Half.HIGH
_GAME_STUD_HILO = Game.STUD_HILO
_GAME_STUD = Game.STUD
_GAME_RAZZ = Game.RAZZ
_SEATOUTCOME_SHOWED = SeatOutcome.SHOWED
_SEATOUTCOME_FOLDED = SeatOutcome.FOLDED
_SEATOUTCOME_MUCKED = SeatOutcome.MUCKED
_UNIT_CHIP = Unit.CHIP


@dataclass(frozen=True, slots=True)
class Coverage:
    """How much of a hand its record let the audit check, so that no violation never
    means nothing checked: the pots whose winners the cards settle (the others are checked
    for their total only), whether the deals were written (turn order, bring-in and the
    bet sizes that depend on the cards), whether payouts were written per pot (not only a
    player's total over all pots), and whether a summary was written."""

    pots: int
    pots_decided: int
    deals: bool
    per_pot: bool
    summary: bool

    @property
    def complete(self) -> bool:
        return self.pots_decided == self.pots and self.deals and self.per_pot and self.summary

    def unchecked(self) -> tuple[str, ...]:
        """What could not be checked, in words (empty when everything could)."""
        out = []
        if self.pots_decided < self.pots:
            n = self.pots - self.pots_decided
            out.append(f"the winners of {n} of {self.pots} pot{'s' if self.pots > 1 else ''}")
        if not self.deals:
            out.append("turn order and bet sizes (no deals written)")
        if not self.per_pot:
            out.append("which pot paid what (only totals written)")
        if not self.summary:
            out.append("the summary (none written)")
        return tuple(out)


@dataclass(frozen=True, slots=True)
class Replay:
    """The audit of one hand. Mappings are tuples of (player, amount) in seat order."""

    hand: Hand
    profile: str
    violations: tuple[Violation, ...]
    pots: tuple[Pot, ...]
    awards: tuple[Award, ...]
    contributions: tuple[tuple[str, int], ...]
    collected: tuple[tuple[str, int], ...]
    final_stacks: tuple[tuple[str, int], ...]
    coverage: Coverage = Coverage(0, 0, True, True, True)

    @property
    def ok(self) -> bool:
        """No error or warning (info records about unverifiable showdowns are allowed)."""
        return not any(v.is_error for v in self.violations)

    @property
    def errors(self) -> tuple[Violation, ...]:
        return tuple(v for v in self.violations if v.is_error)

    @property
    def infos(self) -> tuple[Violation, ...]:
        return tuple(v for v in self.violations if not v.is_error)

    def codes(self) -> set[Code]:
        return {v.code for v in self.violations if v.is_error}

    def contribution(self, player: str) -> int:
        return dict(self.contributions).get(player, 0)

    def final_stack(self, player: str) -> int:
        return dict(self.final_stacks)[player]


def _pot_index(c: Collect) -> int:
    if c.pot is _POTKIND_SIDE:
        return c.pot_index or 1
    return 0


class _Audit:
    def __init__(
        self,
        hand: Hand,
        profile: RuleProfile,
        spec: GameSpec,
        describe: Describe | None,
        *,
        returns_written: bool = True,
    ) -> None:
        self.hand = hand
        self.describe = describe
        self.no_low_printed = True  # the site prints "No low hand qualified" when so
        self.profile = profile
        self.spec = spec
        self.st = HandState(
            game=spec,
            profile=profile,
            seats=hand.seats,
            small_bet=hand.small_bet,
            big_bet=hand.big_bet,
            ante=hand.ante,
            bring_in=hand.bring_in,
            hand_id=hand.hand_id,
            unit=hand.unit,
            returns_written=returns_written,
            currency=hand.currency,
        )
        self.out: list[Violation] = []

    def m(self, amount: int) -> str:
        return money(amount, self.hand.unit, self.hand.currency)

    def v(
        self,
        code: Code,
        message: str,
        *,
        line: int = 0,
        expected: str | int | None = None,
        reported: str | int | None = None,
        severity: Severity = Severity.ERROR,
        street: Street | None = None,
    ) -> None:
        self.out.append(
            Violation(code, severity, self.hand.hand_id, street, line, expected, reported, message)
        )

    # ----------------------------------------------------------------------
    def run(self) -> Replay:
        hand, st = self.hand, self.st
        st.feed(hand.events)
        st.finish()
        summary = hand.summary
        if summary is not None:
            for sr in summary.seats:
                if sr.cards and sr.player in st.cards:
                    st.reveal(sr.player, sr.cards, line=sr.line)
        rake = summary.taken if summary is not None else 0
        settlement = st.settle(rake=rake)
        self.out.extend(st.violations)
        collects = st.collects
        awards = self.check_awards(settlement, collects)
        self.check_descriptions()
        self.check_summary(settlement, collects)
        collected: dict[str, int] = {}
        for c in collects:
            collected[c.player] = collected.get(c.player, 0) + c.amount
        order = st.order
        contrib = st._total_in
        start = st.start_stacks
        return Replay(
            hand=hand,
            profile=self.profile.name,
            violations=tuple(self.out),
            pots=settlement.pots,
            awards=awards,
            contributions=tuple([(p, contrib[p]) for p in order]),
            collected=tuple([(p, collected.get(p, 0)) for p in order]),
            final_stacks=tuple([(p, start[p] - contrib[p] + collected.get(p, 0)) for p in order]),
            coverage=Coverage(
                pots=len(settlement.pots),
                pots_decided=sum(
                    1
                    for pot in settlement.pots
                    if all(a.winners is not None for a in awards if a.pot == pot.index)
                ),
                deals=st.deals_written,
                per_pot=len(settlement.pots) < 2
                or not any(c.pot is _POTKIND_TOTAL for c in collects),
                summary=summary is not None,
            ),
        )

    # ---------------------------------------------------------------- awards
    def check_awards(self, s: Settlement, collects: list[Collect]) -> tuple[Award, ...]:
        if collects and any(c.pot is _POTKIND_TOTAL for c in collects):
            return self._check_totals(s, collects)
        st = self.st
        # plain dicts, not Counters: this runs for every hand (a Counter's extra
        # methods cost more than the arithmetic)
        by_pot: dict[int, dict[str, int]] = {}
        lines: dict[int, int] = {}
        seat_no = st.seat_no
        for c in collects:
            i = (c.pot_index or 1) if c.pot is _POTKIND_SIDE else 0
            got = by_pot.get(i)
            if got is None:
                by_pot[i] = got = {}
                lines[i] = c.line
            got[c.player] = got.get(c.player, 0) + c.amount
            if c.player not in seat_no:
                self.v(
                    Code.UNKNOWN_PLAYER,
                    f"{c.player} collects {self.m(c.amount)} but has no seat at this table.",
                    line=c.line,
                )
        pots = s.pots
        n_pots = len(pots)
        for i in by_pot:
            if i >= n_pots:
                names = ", ".join(f"{p} {self.m(a)}" for p, a in by_pot[i].items())
                self.v(
                    Code.AWARD_MISMATCH,
                    f"Chips are collected from a pot that does not exist (pot {i}): {names}.",
                    line=lines[i],
                    expected=0,
                    reported=sum(by_pot[i].values()),
                )
        if n_pots > 1 and any(c.pot is _POTKIND_POT for c in collects):
            self.v(
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
            result.extend(self._attach(awards, reported))
            line = lines.get(index, 0) if index < n_pots else 0
            if any(a.winners is None for a in awards):
                undecided_reported = True
                name = self._pot_name(index, n_pots)
                self._check_undecided(pot, Counter(reported), name, line)
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
                    self._check_halves(index, awards, collects, self._pot_name(index, n_pots))
                continue
            name = self._pot_name(index, n_pots)
            self._award_mismatch(pot, awards, Counter(expected), Counter(reported), name, line, s)
        self._check_no_low(s)
        self._info_unknown(s, undecided_reported)
        return tuple(result)

    def _check_halves(
        self, index: int, awards: list[Award], collects: list[Collect], name: str
    ) -> None:
        """The site names the half each collect pays (high or low): each half must go to
        the players the engine gives it to. A pot paid whole (one scoop, no low) is not
        checked by label; the pot's total per player already is."""
        mine = [c for c in collects if _pot_index(c) == index]
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
            exp_txt = ", ".join(f"{p} {self.m(v)}" for p, v in want.items()) or "nobody"
            rep_txt = ", ".join(f"{p} {self.m(v)}" for p, v in got.items()) or "nobody"
            odd = set(got) == set(want) and all(abs(got[p] - want[p]) <= 1 for p in want)
            self.v(
                Code.ODD_CHIP if odd else Code.AWARD_MISMATCH,
                f"The site pays {rep_txt} as {half}; it goes to {exp_txt}.",
                line=line or (mine[0].line if mine else 0),
                expected="; ".join(f"{p}={v}" for p, v in want.items()),
                reported="; ".join(f"{p}={v}" for p, v in got.items()),
            )

    def _check_totals(self, s: Settlement, collects: list[Collect]) -> tuple[Award, ...]:
        """The site wrote each player's winnings over all pots, not per pot: the totals
        are checked, and which pot paid what is said to be uncheckable."""
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
                self.v(
                    Code.AWARD_MISMATCH,
                    f"{self.m(paid)} is paid out of pots that hold {self.m(net)} after rake.",
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
                exp_txt = ", ".join(f"{p} {self.m(a)}" for p, a in want.items()) or "nobody"
                rep_txt = ", ".join(f"{p} {self.m(a)}" for p, a in got.items()) or "nobody"
                self.v(
                    Code.AWARD_MISMATCH,
                    f"Over all pots ({self.m(net)} after rake) the hand should pay {exp_txt}, "
                    f"but paid {rep_txt}.",
                    line=line,
                    expected="; ".join(f"{p}={a}" for p, a in want.items()),
                    reported="; ".join(f"{p}={a}" for p, a in got.items()),
                )
        if len(s.pots) > 1:
            self.v(
                Code.UNCHECKABLE_SHOWDOWN,
                "The site writes each player's winnings over all pots, not per pot: which "
                "pot paid what cannot be checked, only the totals.",
                severity=Severity.INFO,
            )
        # each award gets the reported chips that fit it, pot by pot
        left = dict(reported)
        order = self.st.order
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
        self._check_no_low(s)
        self._info_unknown(s, undecided)
        return tuple(result)

    def _pot_name(self, index: int, n: int) -> str:
        if n == 1:
            return "the pot"
        return "the main pot" if index == 0 else f"side pot {index}"

    def _attach(self, awards: list[Award], reported: dict[str, int]) -> list[Award]:
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
        order = self.st.order
        for a, got in out:
            rep = tuple([(p, got[p]) for p in order if got.get(p)])
            res.append(
                Award(a.pot, a.half, a.amount, a.eligible, a.winners, a.expected, rep, a.reason)
            )
        return res

    def _check_undecided(self, pot: Pot, reported: Counter[str], name: str, line: int) -> None:
        total = sum(reported.values())
        if total != pot.net:
            self.v(
                Code.AWARD_MISMATCH,
                f"{self.m(total)} is collected from {name}, which holds {self.m(pot.net)} "
                "after rake.",
                line=line,
                expected=pot.net,
                reported=total,
            )
        for p, amt in reported.items():
            if amt and p not in pot.eligible:
                self.v(
                    Code.AWARD_MISMATCH,
                    f"{p} collects {self.m(amt)} from {name} but is not eligible for it.",
                    line=line,
                    expected=0,
                    reported=amt,
                )
            elif amt and (p in self.st.mucked or p in self.st.declined) and not self._known(p):
                self.v(
                    Code.AWARD_MISMATCH,
                    f"{p} collects {self.m(amt)} from {name} after mucking their hand.",
                    line=line,
                    expected=0,
                    reported=amt,
                )

    def _known(self, p: str) -> bool:
        cs = self.st.cards.get(p, [])
        return bool(cs) and all(c is not None for c in cs)

    def _award_mismatch(
        self,
        pot: Pot,
        awards: list[Award],
        expected: Counter[str],
        reported: Counter[str],
        name: str,
        line: int,
        s: Settlement,
    ) -> None:
        exp_txt = ", ".join(f"{p} {self.m(a)}" for p, a in expected.items() if a) or "nobody"
        rep_txt = ", ".join(f"{p} {self.m(a)}" for p, a in reported.items() if a) or "nobody"
        exp_s = "; ".join(f"{p}={a}" for p, a in expected.items() if a)
        rep_s = "; ".join(f"{p}={a}" for p, a in reported.items() if a)
        recips_e = {p for p, a in expected.items() if a}
        recips_r = {p for p, a in reported.items() if a}
        if (
            recips_e == recips_r
            and sorted(expected[p] for p in recips_e) == sorted(reported[p] for p in recips_r)
            and all(abs(expected[p] - reported[p]) <= 1 for p in recips_e)
        ):
            self.v(
                Code.ODD_CHIP,
                f"The odd chip of {name} went to the wrong player: expected {exp_txt}, "
                f"paid {rep_txt}.",
                line=line,
                expected=exp_s,
                reported=rep_s,
            )
            return
        if self.spec.pots is _HIGHLOW_HILO:
            high_winners: set[str] = set()
            for a in awards:
                if a.half is not _HALF_LOW and a.winners:
                    high_winners.update(a.winners)
            extra = [p for p in recips_r if reported[p] > expected[p] and p not in high_winners]
            cards = {p: self._cards(p) for p in extra}
            not_qual = [
                p
                for p in extra
                if cards[p] is not None and showdown.low(self.spec, cards[p] or ()) is None
            ]
            if not_qual:
                who = not_qual[0]
                self.v(
                    Code.LOW_NOT_QUALIFIED,
                    f"{who} is paid {self.m(reported[who])} from {name} as a low half, but "
                    f"{who}'s hand has no qualifying low (eight or better): expected "
                    f"{exp_txt}, paid {rep_txt}.",
                    line=line,
                    expected=exp_s,
                    reported=rep_s,
                )
                return
        self.v(
            Code.AWARD_MISMATCH,
            f"{name[0].upper() + name[1:]} ({self.m(pot.net)} after rake) should pay "
            f"{exp_txt}, but paid {rep_txt}.",
            line=line,
            expected=exp_s,
            reported=rep_s,
        )

    def _cards(self, p: str) -> tuple[Card, ...] | None:
        """All the cards p plays (the community card included) when every one is known
        and they can make a hand; None otherwise (unknown cards, or a card problem the
        replay reports on its own: a duplicate, or a 7th card beside a community card)."""
        cs = self.st.cards.get(p)
        if not cs:
            return None
        mask = 0  # a bit per card index: duplicates show as too few bits
        for c in cs:
            if c is None:
                return None
            mask |= 1 << c.index
        known: tuple[Card, ...] = tuple(cs)  # type: ignore[arg-type]  # no None left
        distinct = mask.bit_count() == len(known)
        community = self.st.community
        if community is not None:
            known += (community,)
            distinct = distinct and not mask >> community.index & 1
        if len(known) > 7 or not distinct:
            self._card_problem(p, known)
            return None
        return known

    def _card_problem(self, p: str, cards: tuple[Card, ...]) -> None:
        """Report cards that cannot make a hand, unless a card record is already there."""
        card_codes = (Code.CARD_DUPLICATE, Code.CARD_INCONSISTENT, Code.COMMUNITY_CARD)
        if any(v.code in card_codes for v in (*self.st.violations, *self.out)):
            return
        self.v(
            Code.CARD_INCONSISTENT,
            f"{p} plays {len(cards)} cards ({' '.join(map(str, cards))}), which cannot make "
            "a stud hand.",
            reported=" ".join(map(str, cards)),
        )

    def _check_no_low(self, s: Settlement) -> None:
        st = self.st
        line = st.no_low_line
        if self.spec.pots is not _HIGHLOW_HILO or self.spec.low_qualifier is None:
            if line is not None:
                self.v(
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
            and self.no_low_printed
            and contested
            and not decided_lows
            and len(s.no_low) == len({a.pot for a in contested})
            and len(st._live) > 1
        ):
            self.v(
                Code.NO_LOW_LINE,
                "No hand qualifies for low at the showdown, but 'No low hand qualified' is "
                "not printed.",
                severity=Severity.WARNING,
            )
        if line is not None and decided_lows and len(s.no_low) == 0:
            who = ", ".join(w for a in decided_lows for w in (a.winners or ()))
            self.v(
                Code.NO_LOW_LINE,
                f"'No low hand qualified' is printed, but {who} has a qualifying low.",
                line=line.line,
            )

    def _info_unknown(self, s: Settlement, undecided: bool) -> None:
        st = self.st
        if len(st._live) <= 1:
            return
        hidden = [
            p
            for p in st._live
            if (p in st.mucked or p in st.declined or p in s.undecided) and not self._known(p)
        ]
        if hidden:
            who = ", ".join(hidden)
            what = "the winners of some pots" if undecided else "whether they lost"
            self.v(
                Code.UNCHECKABLE_SHOWDOWN,
                f"{who} did not show their cards at the showdown, so {what} cannot be checked.",
                severity=Severity.INFO,
                reported=who,
            )

    # --------------------------------------------------------- descriptions
    def check_descriptions(self) -> None:
        game = self.hand.game
        describe = self.describe
        if describe is None or game not in (_GAME_STUD, _GAME_STUD_HILO, _GAME_RAZZ):
            return
        if self.spec.game is _GAME_STUD_HILO and self.spec.low_qualifier is None:
            return
        items: list[tuple[str, str, int]] = [
            (e.player, e.description, e.line) for e in self.st.show_events if e.description
        ]
        if self.hand.summary is not None:
            for sr in self.hand.summary.seats:
                if sr.description and sr.outcome is _SEATOUTCOME_SHOWED:
                    items.append((sr.player, sr.description, sr.line))
        if not items:
            return
        wants: dict[str, str | None] = {}  # a player's cards are described once
        for p, text, line in items:
            if p in wants:
                want = wants[p]
            else:
                cards = self._cards(p)
                want = None if cards is None or len(cards) < 5 else describe(game, cards)
                wants[p] = want
            if want is None:
                continue
            if _norm(want) != _norm(text):
                self.v(
                    Code.SUMMARY_MISMATCH,
                    f"{p}'s hand is described as '{text}', but the cards make '{want}'.",
                    line=line,
                    expected=want,
                    reported=text,
                    severity=Severity.WARNING,
                )

    # --------------------------------------------------------------- summary
    def check_summary(self, s: Settlement, collects: list[Collect]) -> None:
        hand, st = self.hand, self.st
        summary = hand.summary
        total_in = sum(st._total_in.values())
        collected = sum([c.amount for c in collects])
        if summary is None:
            if collected != total_in:
                self.v(
                    Code.POT_TOTAL,
                    f"{self.m(collected)} is collected from a pot of {self.m(total_in)}.",
                    expected=total_in,
                    reported=collected,
                )
            return
        line = summary.line
        if summary.total_pot != total_in:
            self.v(
                Code.POT_TOTAL,
                f"The summary's total pot is {self.m(summary.total_pot)}, but the players put "
                f"in {self.m(total_in)}.",
                line=line,
                expected=total_in,
                reported=summary.total_pot,
            )
        rake = summary.taken
        if rake < 0 or rake > summary.total_pot:
            self.v(
                Code.RAKE,
                f"A rake of {self.m(rake)} is impossible on a pot of {self.m(summary.total_pot)}.",
                line=line,
                reported=rake,
            )
        elif rake > 0 and hand.unit is _UNIT_CHIP:
            self.v(
                Code.RAKE,
                f"A rake of {self.m(rake)} is taken in a chip game (tournament or play money).",
                line=line,
                expected=0,
                reported=rake,
            )
        elif self.profile.rake_max_percent is not None:
            cap = -(-summary.total_pot * self.profile.rake_max_percent // 100)
            if rake > cap:
                self.v(
                    Code.RAKE,
                    f"The rake of {self.m(rake)} exceeds {self.profile.rake_max_percent}% of "
                    f"the {self.m(summary.total_pot)} pot.",
                    line=line,
                    expected=cap,
                    reported=rake,
                )
        if collected + rake != summary.total_pot:
            self.v(
                Code.POT_TOTAL,
                f"{self.m(collected)} collected plus {self.m(rake)} taken does not make the "
                f"total pot of {self.m(summary.total_pot)}.",
                line=line,
                expected=summary.total_pot - rake,
                reported=collected,
            )
        nets = [p.net for p in s.pots]
        if summary.main_pot is not None:
            written = (summary.main_pot, *summary.side_pots)
            if tuple(nets) != written:
                self.v(
                    Code.SUMMARY_MISMATCH,
                    "The summary's main/side pots are "
                    + ", ".join(self.m(x) for x in written)
                    + "; after rake they should be "
                    + ", ".join(self.m(x) for x in nets)
                    + ".",
                    line=line,
                    expected="/".join(map(str, nets)),
                    reported="/".join(map(str, written)),
                )
        elif len(nets) > 1 and not any(c.pot is _POTKIND_TOTAL for c in collects):
            # (a site that writes only each player's total writes no pots either)
            self.v(
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
                self.v(
                    Code.SUMMARY_MISMATCH,
                    f"The summary says {sr.player} won {self.m(sr.won)}, but they collected "
                    f"{self.m(got)}.",
                    line=sr.line,
                    expected=got,
                    reported=sr.won,
                )
            folded = sr.player in folded_players
            if sr.outcome is _SEATOUTCOME_FOLDED:
                if not folded:
                    self.v(
                        Code.SUMMARY_MISMATCH,
                        f"The summary says {sr.player} folded, but they never folded.",
                        line=sr.line,
                    )
                elif sr.folded_street is not None and st.fold_street.get(sr.player) != (
                    sr.folded_street
                ):
                    self.v(
                        Code.SUMMARY_MISMATCH,
                        f"The summary says {sr.player} folded on {int(sr.folded_street)}th "
                        f"street, but they folded on {int(st.fold_street[sr.player])}th.",
                        line=sr.line,
                        expected=int(st.fold_street[sr.player]),
                        reported=int(sr.folded_street),
                    )
            elif sr.outcome in (_SEATOUTCOME_SHOWED, _SEATOUTCOME_MUCKED) and folded:
                self.v(
                    Code.SUMMARY_MISMATCH,
                    f"The summary shows {sr.player}'s hand at showdown, but they folded.",
                    line=sr.line,
                )
        for p, amt in won.items():
            if amt and p not in seen:
                self.v(
                    Code.SUMMARY_MISMATCH,
                    f"{p} collected {self.m(amt)} but has no line in the summary.",
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


@dataclass(frozen=True, slots=True)
class _SiteRecord:
    """What the audit takes from the dialect that read a hand: the site's house rules and
    how its record is written (its words for hands, which lines it prints)."""

    profile: RuleProfile
    describe: Describe | None
    no_low_printed: bool
    returns_written: bool


_RECORDS: dict[tuple[str, str | None], _SiteRecord] = {}


def forget_sites() -> None:
    """Drop what was learnt of each site's dialect (a dialect was registered again)."""
    _RECORDS.clear()


def _site_record(hand: Hand) -> _SiteRecord:
    key = (hand.site, hand.dialect)
    got = _RECORDS.get(key)
    if got is None:
        from histkit.dialects import Dialect, dialect_of
        from histkit.rules.profile import CASINO

        d = dialect_of(hand)
        if d is None:
            got = _SiteRecord(CASINO, None, True, True)
        else:
            own = type(d).describe is not Dialect.describe
            got = _SiteRecord(
                d.profile, d.describe if own else None, d.prints_no_low, d.prints_uncalled
            )
        _RECORDS[key] = got
    return got


def replay(
    hand: Hand, profile: RuleProfile | None = None, game: Game | GameSpec | None = None
) -> Replay:
    """Replay one hand under a profile (default: the house rules of the hand's site) and
    game (default: the hand's own). Shown hands' descriptions are checked in the site's
    words when its dialect has them."""
    rec = _site_record(hand)
    spec = spec_for(game if game is not None else hand.game)
    audit = _Audit(
        hand,
        profile if profile is not None else rec.profile,
        spec,
        rec.describe,
        returns_written=rec.returns_written,
    )
    audit.no_low_printed = rec.no_low_printed
    return audit.run()
