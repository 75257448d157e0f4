"""replay(): a `Hand`'s events fed to the engine (`HandState`), then its pots, awards and
summary audited.

The result is an immutable `Replay`. It compares what the engine expects (pots, who wins
each pot and half, the odd chips) with what the site wrote (`collected` lines, summary).
Cards nobody showed stay unknown: such pots are checked for conservation only, and the
replay says so with an info record. `HandAudit` is the end of a hand's audit, whoever
fed the engine: `replay` from a `Hand`'s events, the audit of a text from its lines.
"""

from __future__ import annotations

from dataclasses import dataclass

from histkit.model import Game, Hand, Street, Summary
from histkit.rules.awards import check_awards
from histkit.rules.games import GameSpec
from histkit.rules.pots import Award, Pot
from histkit.rules.profile import RuleProfile
from histkit.rules.sites import Describe, SiteRecord, forget_sites, site_record
from histkit.rules.speed import POT_TOTAL as _POTKIND_TOTAL
from histkit.rules.state import HandState
from histkit.rules.summary import check_descriptions, check_summary
from histkit.rules.violations import Code, Severity, Violation, money

__all__ = [
    "Coverage",
    "HandAudit",
    "Replay",
    "SiteRecord",
    "forget_sites",
    "replay",
    "site_record",
]


@dataclass(frozen=True, slots=True)
class Coverage:
    """How much of a hand its record let the audit check, so that no violation never
    means nothing checked: the pots whose winners the cards settle (the others are checked
    for their total only), whether the deals were written (turn order, bring-in and the
    bet sizes that depend on the cards), whether payouts were written per pot (not only a
    player's total over all pots), whether a summary was written, and how many lines the
    hand was read without (`Hand.gaps`: what they said is unknown, so the betting after
    them and the pots are checked as the readable lines have them)."""

    pots: int
    pots_decided: int
    deals: bool
    per_pot: bool
    summary: bool
    unread: int = 0

    @property
    def complete(self) -> bool:
        return (
            self.pots_decided == self.pots
            and self.deals
            and self.per_pot
            and self.summary
            and not self.unread
        )

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
        if self.unread:
            n = self.unread
            lines = "a line" if n == 1 else f"{n} lines"
            out.append(f"what {lines} not read would have said (the play after it is as read)")
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


class HandAudit:
    """The end of one hand's audit: its facts are in the engine (`st`); the summary's
    cards are revealed, the pots settled, and the awards and the summary checked.
    `violations` are the engine's and these checks', in the order found."""

    __slots__ = (
        "st", "summary", "game", "spec", "profile", "describe", "no_low_printed", "out",
        "settlement", "awards", "collected",
    )  # fmt: skip

    def __init__(
        self,
        st: HandState,
        summary: Summary | None,
        game: Game,
        describe: Describe | None,
        no_low_printed: bool,
    ) -> None:
        self.st = st
        self.summary = summary
        self.game = game  # the hand's game as written (the engine's may be a variant)
        self.spec = st.spec
        self.profile = st.profile
        self.describe = describe
        self.no_low_printed = no_low_printed  # the site prints "No low hand qualified"
        st.finish()
        if summary is not None:
            for sr in summary.seats:
                if sr.cards and st.cards_of(sr.player) is not None:
                    st.reveal(sr.player, sr.cards, line=sr.line)
        s = self.settlement = st.settle(rake=summary.taken if summary is not None else 0)
        # one list: a finding's `seq` is its place among the hand's findings
        self.out: list[Violation] = st.violations
        collects = st.collects
        self.awards = check_awards(self, s, collects)
        check_descriptions(self)
        check_summary(self, s, collects)
        collected: dict[str, int] = {}
        for c in collects:
            collected[c.player] = collected.get(c.player, 0) + c.amount
        self.collected = collected

    def m(self, amount: int) -> str:
        return money(amount, self.st.unit, self.st.currency)

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
        blame: tuple[str | None, ...] = (),
    ) -> None:
        """Record a finding of the end of the hand; `blame` names the players it is about
        (as `HandState.report`'s positions)."""
        out, st = self.out, self.st
        seq = len(out)
        caused = st.causes.link(seq, code, severity, street, st.blame_of(*blame))
        out.append(
            Violation(
                code, severity, st.hand_id, street, line, expected, reported, message, seq, caused
            )
        )

    def coverage(self) -> Coverage:
        pots, awards = self.settlement.pots, self.awards
        return Coverage(
            pots=len(pots),
            pots_decided=sum(
                1
                for pot in pots
                if all(a.winners is not None for a in awards if a.pot == pot.index)
            ),
            deals=self.st.deals_seen,
            per_pot=len(pots) < 2 or not any(c.pot is _POTKIND_TOTAL for c in self.st.collects),
            summary=self.summary is not None,
            unread=self.st.unread,
        )

    def final_stacks(self) -> tuple[tuple[str, int], ...]:
        """Each player's stack at the end of the hand, seat order."""
        st, got = self.st, self.collected
        return tuple(
            [
                (p, start - put + got.get(p, 0))
                for p, start, put in zip(st.names, st.start, st.total_in, strict=True)
            ]
        )


def replay(
    hand: Hand, profile: RuleProfile | None = None, game: Game | GameSpec | None = None
) -> Replay:
    """Replay one hand under a profile (default: the house rules of the hand's site) and
    game (default: the hand's own). Shown hands' descriptions are checked in the site's
    words when its dialect has them."""
    rec = site_record(hand.site, hand.dialect)
    st = HandState.for_hand(hand, profile, game)
    prof = st.profile
    st.feed(hand.events)
    audit = HandAudit(st, hand.summary, hand.game, rec.describe, rec.no_low_printed)
    s = audit.settlement
    return Replay(
        hand=hand,
        profile=prof.name,
        violations=tuple(audit.out),
        pots=s.pots,
        awards=audit.awards,
        contributions=tuple(zip(st.names, st.total_in, strict=True)),
        collected=tuple([(p, audit.collected.get(p, 0)) for p in st.names]),
        final_stacks=audit.final_stacks(),
        coverage=audit.coverage(),
    )
