"""HandState: the rules engine's state of one stud hand, advanced one fact at a time.

The state is plain per-seat data: players by seat position (0 = the first seat in seat
order), chips in lists indexed by position, who is in, folded, all-in or has acted as bit
masks of positions. It is advanced by one call per fact the record states (`on_action`,
`on_deal`, `on_street`, ... : the calls a dialect's sink makes, and what `feed` makes of a
`Hand`'s events); each call checks the fact against the game and the profile, records
any violation, then applies what the fact says happened (the engine reports, it never
repairs). `pending` and `legal` tell a simulator what may come next without changing
anything; `settle` computes pots and expected awards. The replay, the audit of a text and
the simulator all drive this one copy of the rules.

Where each rule lives: who brings in, who acts first and whose turn it is in
`rules/order.py`; what a player may bet and the check of each action in
`rules/betting.py`; the cards in `rules/ledger.py`; pots and how each splits in
`rules/pots.py`. Name-keyed views (`stacks`, `folded`, `cards`, ...) are built on request.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from histkit.cards import Card
from histkit.model import (
    GAP_NOTES,
    Action,
    ActionKind,
    BettingCapped,
    Collect,
    Deal,
    DoubleBetAllowed,
    Event,
    Game,
    Hand,
    Muck,
    NoLowHand,
    NoteKind,
    Seat,
    Show,
    Street,
    StreetStart,
    TableNote,
    UncalledBet,
    Unit,
)
from histkit.rules import betting, order, pending
from histkit.rules.causes import Causes
from histkit.rules.games import GameSpec, spec_for
from histkit.rules.ledger import CardLedger
from histkit.rules.pending import Legal, Pending, PendingKind
from histkit.rules.phase import Phase
from histkit.rules.pots import Settlement, settle_hand
from histkit.rules.profile import RuleProfile
from histkit.rules.sites import site_record
from histkit.rules.speed import ANTE as _ANTE
from histkit.rules.speed import P_ANTES as _ANTES
from histkit.rules.speed import P_BET as _BET
from histkit.rules.speed import P_BETWEEN as _BETWEEN
from histkit.rules.speed import P_DEAL as _DEAL
from histkit.rules.speed import P_OVER as _OVER
from histkit.rules.speed import SEVENTH as _SEVENTH
from histkit.rules.speed import THIRD as _THIRD
from histkit.rules.views import StateViews
from histkit.rules.violations import Code, Severity, Violation, money, street_name

__all__ = ["Phase", "PendingKind", "Pending", "Legal", "HandState"]


def _seat_number(seat: Seat) -> int:
    return seat.seat


class HandState(StateViews):
    """The state of one hand (see the module doc). Fields are the engine's own data,
    read by the rules modules; callers use the methods and the name-keyed views."""

    # slots: faster attribute access at every fact, and a typo cannot add state
    __slots__ = (
        "spec", "profile", "small_bet", "big_bet", "ante", "bring_in_amount", "hand_id",
        "unit", "currency", "returns_written", "n", "names", "index", "seat_nos", "start",
        "away_mask", "rings", "cap_multi", "cap_heads_up", "double_game", "phase", "street",
        "stack", "street_in", "total_in", "ante_mask", "dealt_mask", "fold_mask",
        "allin_mask", "live_mask", "active_mask", "acted_mask", "dealt_now", "muck_mask",
        "decline_mask", "fold_streets",
        "bet", "wagers", "inc", "opener", "bring_in_seat", "bring_in_due", "last", "aggressor",
        "showdown_seen",
        "uncalled_done", "deals_seen", "unread", "ledger", "shown", "show_events", "collects",
        "no_low_line", "violations", "causes", "line",
    )  # fmt: skip

    def __init__(
        self,
        *,
        game: Game | GameSpec,
        profile: RuleProfile,
        seats: Sequence[Seat],
        small_bet: int,
        big_bet: int,
        ante: int | None,
        bring_in: int | None,
        hand_id: str = "",
        unit: Unit = Unit.CENT,
        returns_written: bool = True,
        currency: str | None = None,
    ) -> None:
        spec = self.spec = game if type(game) is GameSpec else spec_for(game)
        self.profile = profile
        self.small_bet = small_bet
        self.big_bet = big_bet
        self.ante = ante
        self.bring_in_amount = bring_in
        self.hand_id = hand_id
        self.unit = unit
        self.currency = currency
        # whether the site writes a line when an uncalled bet goes back (else the chips stay
        # in the pot, in a side pot only the bettor can win, and are collected with it)
        self.returns_written = returns_written
        names: list[str] = []
        nos: list[int] = []
        start: list[int] = []
        index: dict[str, int] = {}
        away = 0
        for seat in sorted(seats, key=_seat_number):  # one pass: this runs for every hand
            i = len(names)
            q = seat.player
            names.append(q)
            nos.append(seat.seat)
            start.append(seat.stack)
            index.setdefault(q, i)
            if seat.sitting_out:
                away |= 1 << i
        n = self.n = len(names)
        self.names = names
        self.index = index
        self.seat_nos = nos
        self.start = start
        self.away_mask = away
        self.rings = order.ring(n)
        self.cap_multi = profile.cap(heads_up=False)
        self.cap_heads_up = profile.cap(heads_up=True)
        self.double_game = spec.open_pair_double and profile.open_pair_double
        self.phase = _ANTES
        self.street: Street | None = None
        self.stack = start.copy()
        self.street_in = [0] * n
        self.total_in = [0] * n
        self.ante_mask = self.dealt_mask = self.fold_mask = self.allin_mask = 0
        self.live_mask = self.active_mask = 0
        self.acted_mask = self.dealt_now = self.muck_mask = self.decline_mask = 0
        self.fold_streets: list[Street | None] = [None] * n
        self.bet = self.wagers = self.inc = 0
        self.opener: int | None = None  # who opens the street's betting (None: unknown)
        self.bring_in_seat: int | None = None
        self.bring_in_due = False
        self.last: int | None = None  # the last player to act this street
        self.aggressor: int | None = None  # the last to bet or raise this street
        self.showdown_seen = False  # the first show (or muck) of the showdown was checked
        self.uncalled_done = False
        self.deals_seen = False  # a deal line seen: the record writes deals
        self.unread = 0  # lines the hand was read without (`Hand.gaps`)
        self.ledger = CardLedger(names, spec.up_pattern, self.report)
        self.shown: dict[str, tuple[Card, ...]] = {}
        self.show_events: list[Show] = []  # as applied (the audit checks their words)
        self.collects: list[Collect] = []
        self.no_low_line: NoLowHand | None = None
        self.violations: list[Violation] = []
        self.causes = Causes()
        self.line = 0

    @classmethod
    def for_hand(
        cls,
        hand: Hand,
        profile: RuleProfile | None = None,
        game: Game | GameSpec | None = None,
    ) -> HandState:
        """The state of `hand` before its first fact: its seats and stakes, under
        `profile` (default: the house rules of the hand's site) and `game` (default: the
        hand's own), with its site's way of returning uncalled bets."""
        rec = site_record(hand.site, hand.dialect)
        return cls(
            game=spec_for(game if game is not None else hand.game),
            profile=profile if profile is not None else rec.profile,
            seats=hand.seats,
            small_bet=hand.small_bet,
            big_bet=hand.big_bet,
            ante=hand.ante,
            bring_in=hand.bring_in,
            hand_id=hand.hand_id,
            unit=hand.unit,
            returns_written=rec.returns_written,
            currency=hand.currency,
        )

    # ------------------------------------------------------------------ views
    def recount(self) -> None:
        """`live_mask` (dealt in, not folded) and `active_mask` (live, not all-in) again,
        after one of the masks they come from changed. They are asked for at every fact,
        so they are kept, not derived per question."""
        self.live_mask = live = self.dealt_mask & ~self.fold_mask
        self.active_mask = live & ~self.allin_mask

    @property
    def bring_in_player(self) -> str | None:
        """Who brings in on 3rd street (once its cards are all dealt)."""
        i = pending.bring_in_seat(self)
        return None if i is None else self.names[i]

    def deck_left(self) -> int:
        """Cards still in the deck (burn cards counted where the profile burns)."""
        burns = 0
        if self.profile.burn_cards and self.street is not None:
            burns = int(self.street) - 2
        return 52 - self.ledger.dealt() - burns

    @property
    def deck_exhausted(self) -> bool:
        """True when the deck cannot give every live player a 7th-street card."""
        return self.deck_left() < self.live_mask.bit_count()

    def community_needed(self, street: Street) -> bool:
        return (
            street == _SEVENTH
            and self.profile.community_card
            and self.deck_left() < self.live_mask.bit_count()
        )

    def hand_over(self) -> bool:
        return self.live_mask.bit_count() <= 1

    def uncalled(self) -> tuple[str, int] | None:
        """The bet nobody matched at the end of a betting round: (player, chips), else None."""
        return betting.unmatched(self)

    # ---------------------------------------------------------------- helpers
    def report(
        self,
        code: Code,
        message: str,
        *,
        expected: str | int | None = None,
        reported: str | int | None = None,
        severity: Severity = Severity.ERROR,
        line: int | None = None,
        blame: tuple[int, ...] = (),
    ) -> Violation:
        """Record a violation at the current street and line (or `line`). `blame`: the
        positions of the players it is about (the one whose action or line is missing or
        wrong), which links it to an earlier finding it follows from (`rules/causes.py`)."""
        found = self.violations
        street, seq = self.street, len(found)
        v = Violation(
            code,
            severity,
            self.hand_id,
            street,
            self.line if line is None else line,
            expected,
            reported,
            message,
            seq,
            self.causes.link(seq, code, severity, street, blame),
        )
        found.append(v)
        return v

    def blame_of(self, *players: str | None) -> tuple[int, ...]:
        """The positions of the named players (unknown names left out), for `report`."""
        index = self.index
        return tuple(index[p] for p in players if p is not None and p in index)

    def m(self, amount: int) -> str:
        return money(amount, self.unit, self.currency)

    def street_name(self) -> str:
        return street_name(self.street)

    # ------------------------------------------------------------ what's next
    # ------------------------------------------------------------ what's next
    def to_act(self) -> str | None:
        """Whose turn it is in the current betting round (None if it is over)."""
        return pending.to_act(self)

    def pending(self) -> Pending:
        """What the record should state next (`rules/pending.py`; nothing changes)."""
        return pending.pending(self)

    def legal(self) -> Legal | None:
        """The options of the player to act, None when nobody is to act (nothing changes)."""
        return pending.legal(self)

    def opening(self) -> tuple[int | None, int | None, bool]:
        """Who opens the street's betting, who brings in and whether the bring-in is due,
        as opening the betting now would decide (nothing changes)."""
        if self.street == _THIRD:
            i = order.bring_in_of(self)
            return i, i, i is not None
        return order.first_to_act_of(self), self.bring_in_seat, self.bring_in_due

    # ------------------------------------------------------------- the facts
    def apply(self, event: Event) -> list[Violation]:
        """Check one event against the rules, then apply it; returns the new violations."""
        violations = self.violations
        before = len(violations)
        self.feed((event,))
        return violations[before:] if len(violations) > before else []

    def feed(self, events: Iterable[Event]) -> None:
        """Each event as the fact it states, in turn; the violations collect in
        `violations`. A `Hand`'s replay is this loop: the same calls as a sink makes."""
        act, ante, deal = betting.act, self._ante, self.on_deal
        for e in events:
            if type(e) is Action:
                self.line = e.line
                if e.kind is _ANTE:
                    ante(e.player, e.amount, e.all_in)
                else:
                    act(self, e.street, e.player, e.kind, e.amount, e.to_amount, e.all_in)
            elif type(e) is Deal:
                deal(e.street, e.player, e.cards, e.up, e.before, e.line)
            elif type(e) is StreetStart:
                self.on_street(e.street, e.community, e.line)
            else:
                self._other(e)

    def _other(self, e: Event) -> None:
        """The rarer facts; an event of a subclass of an event type is fed as its type."""
        if isinstance(e, Show):
            self.on_show(e)
        elif isinstance(e, Collect):
            self.on_collect(e)
        elif isinstance(e, Muck):
            self.on_muck(e.player, e.declined, e.line)
        elif isinstance(e, UncalledBet):
            self.on_uncalled(e.player, e.amount, e.line)
        elif isinstance(e, TableNote):
            self.on_note(e.kind, e.player, e.text, e.line, e.reason)
        elif isinstance(e, NoLowHand):
            self.on_no_low(e)
        elif isinstance(e, BettingCapped):
            self.on_capped(e.line)
        elif isinstance(e, DoubleBetAllowed):
            self.on_double_bet(e.line)
        elif isinstance(e, Action):
            self.on_action(e.street, e.player, e.kind, e.amount, e.to_amount, e.all_in, e.line)
        elif isinstance(e, Deal):
            self.on_deal(e.street, e.player, e.cards, e.up, e.before, e.line)
        elif isinstance(e, StreetStart):
            self.on_street(e.street, e.community, e.line)

    def on_action(
        self,
        street: Street,
        player: str,
        kind: ActionKind,
        amount: int,
        to: int | None,
        all_in: bool,
        line: int,
    ) -> None:
        """An ante, bring-in, bet, completion, raise, call, check or fold."""
        self.line = line
        if kind is _ANTE:
            self._ante(player, amount, all_in)
        else:
            betting.act(self, street, player, kind, amount, to, all_in)

    def _ante(self, p: str, amount: int, all_in: bool) -> None:
        i = self.index.get(p)
        if i is None:
            self.report(Code.UNKNOWN_PLAYER, f"{p} posts an ante but has no seat at this table.")
            return
        if self.phase is not _ANTES:
            self.report(Code.ANTE, f"{p} posts an ante after the cards were dealt.")
        if self.ante_mask >> i & 1:
            self.report(Code.ANTE, f"{p} posts the ante twice.", reported=amount)
            return
        stack = self.stack[i]
        if self.ante is None and not all_in:
            self.ante = amount  # the header does not state the ante: the first full one does
        expected = self.ante
        short_all_in = all_in and amount == stack and expected is not None and stack <= expected
        if expected is not None and not short_all_in and amount != expected:
            self.report(
                Code.ANTE,
                f"{p} posts an ante of {self.m(amount)}, but the ante is {self.m(expected)}.",
                expected=expected,
                reported=amount,
            )
        self.ante_mask |= 1 << i
        betting.put(self, i, amount, all_in, "ante")
        self.street_in[i] = 0  # antes are dead money, not part of the street total

    def on_street(self, street: Street, community: Card | None, line: int) -> None:
        """A street begins (`community`: the one card for all when the deck ran short)."""
        self.line = line
        self.start_street(street, community)

    def start_street(self, street: Street, community: Card | None) -> None:
        if self.phase is _ANTES:
            self.finish_antes()
        elif self.street is not None and street <= self.street:
            self.report(Code.CARD_INCONSISTENT, f"{street_name(street)} starts twice.")
            return
        else:
            self.close_round()
            if self.live_mask.bit_count() <= 1:
                self.report(
                    Code.ACTION_AFTER_END,
                    f"{street_name(street)} is dealt after the hand was over.",
                )
            self._check_missing_deals()
        self.street = street
        self.phase = _DEAL
        self.dealt_now = self.acted_mask = 0
        self.street_in = [0] * self.n
        self.bet = self.wagers = 0
        self.inc = betting.street_bet(street, self.small_bet, self.big_bet)
        self.last = self.opener = self.aggressor = None
        self.uncalled_done = False
        if community is not None:
            self._community(street, community)

    def finish_antes(self) -> None:
        """The antes are in: whoever posted one is dealt in (without antes, everyone
        sitting in)."""
        self.phase = _DEAL
        dealt = self.ante_mask or ((1 << self.n) - 1) & ~self.away_mask
        self.dealt_mask = dealt
        self.recount()
        slots = self.ledger.slots
        for i in range(self.n):
            if dealt >> i & 1:
                slots[i] = []

    def _community(self, street: Street, card: Card) -> None:
        if street != _SEVENTH or not self.profile.community_card:
            self.report(Code.COMMUNITY_CARD, f"A community card {card} is dealt on {street}.")
        elif self.deals_seen and not self.community_needed(street):
            # (without deal lines the deck's count is unknown: nothing to check)
            self.report(
                Code.COMMUNITY_CARD,
                f"A community card {card} is dealt on 7th street although the deck has "
                f"{self.deck_left()} cards for {self.live_mask.bit_count()} players.",
                expected="one card each",
                reported=str(card),
            )
        self.ledger.place(-1, 6, card)
        self.ledger.community = card

    def _check_missing_deals(self) -> None:
        if self.street is None or self.street == _SEVENTH:
            return  # the site does not print other players' 7th-street cards
        if not self.deals_seen:
            return  # a record that writes no deals at all (`finish` says so once)
        missing = self.live_mask & ~self.dealt_now
        slots = self.ledger.slots
        for i in range(self.n):
            if missing >> i & 1 and slots[i] is not None:
                self.report(
                    Code.MISSING_DEAL,
                    f"{self.names[i]} is still in the hand but no card is shown dealt to them "
                    f"on {self.street_name()}.",
                    severity=Severity.WARNING,
                    blame=(i,),
                )

    def on_deal(
        self,
        street: Street,
        player: str,
        cards: Sequence[Card | None],
        up: Sequence[bool],
        before: Sequence[Card | None],
        line: int,
    ) -> None:
        """The cards one player gets on a street (`before`: earlier cards repeated)."""
        self.line = line
        self.deals_seen = True
        if self.phase is _ANTES:
            self.finish_antes()
            self.street = _THIRD
        if self.street is None or street != self.street:
            self.start_street(street, None)
        i = self.index.get(player, -1)
        ledger = self.ledger
        if i < 0 or ledger.slots[i] is None:
            if i >= 0 and not self.dealt_mask >> i & 1 and self.ante_mask:
                self.report(
                    Code.ANTE, f"{player} is dealt in without posting the ante.", blame=(i,)
                )
                self.dealt_mask |= 1 << i
                self.recount()
                ledger.slots[i] = []
            else:
                self.report(
                    Code.UNKNOWN_PLAYER, f"Cards are dealt to {player}, who is not in the hand."
                )
                return
        bit = 1 << i
        if self.fold_mask & bit:
            self.report(
                Code.CARD_INCONSISTENT, f"{player} is dealt a card after folding.", blame=(i,)
            )
        if self.dealt_now & bit:
            self.report(Code.CARD_INCONSISTENT, f"{player} is dealt twice on {self.street_name()}.")
            return
        self.dealt_now |= bit
        ledger.deal(i, int(street), cards, up, before, self.street)

    def on_show(self, show: Show) -> None:
        """A player shows cards at the showdown (`show.description`: the site's words)."""
        self.line = show.line
        self.show_events.append(show)
        self._show(show.player, show.cards, "shows")

    def reveal(self, player: str, cards: Sequence[Card], *, line: int = 0) -> None:
        """Cards the summary shows for a player (showed or mucked): checked and recorded."""
        self.line = line
        self._show(player, cards, "is shown with")

    def _show(self, p: str, shown: Sequence[Card], source: str) -> None:
        """Merge a shown hand into the player's slots (positional when it is complete)."""
        i = self.index.get(p, -1)
        if i < 0 or self.ledger.slots[i] is None:
            self.report(Code.UNKNOWN_PLAYER, f"{p} {source} cards but was not dealt in.")
            return
        self.close_round()
        cards = tuple(shown)
        self.ledger.show(i, cards, self.deals_seen, source)
        if source == "shows":
            if not self.showdown_seen:
                order.check_shows_first(self, i)
            self.shown[p] = cards

    def on_muck(self, player: str, declined: bool, line: int) -> None:
        """`mucks hand`, or `doesn't show hand` (`declined`)."""
        self.line = line
        i = self.index.get(player, -1)
        if i < 0 or self.ledger.slots[i] is None:
            self.report(Code.UNKNOWN_PLAYER, f"{player} mucks but was not dealt in.")
            return
        self.close_round()
        if not self.showdown_seen:
            order.check_shows_first(self, i)
        if declined:
            self.decline_mask |= 1 << i
        else:
            self.muck_mask |= 1 << i

    def on_collect(self, collect: Collect) -> None:
        """Chips paid from a pot: the betting is over (the award is checked at the end)."""
        self.line = collect.line
        self.close_round()
        self.phase = _OVER
        self.collects.append(collect)

    def on_no_low(self, e: NoLowHand) -> None:
        self.line = e.line
        self.no_low_line = e

    def on_capped(self, line: int) -> None:
        """'Betting is capped'."""
        self.line = line
        betting.capped_line(self)

    def on_double_bet(self, line: int) -> None:
        """'a double bet is allowed' (an open pair on 4th street)."""
        self.line = line
        betting.double_line(self)

    def on_note(
        self, kind: NoteKind, player: str | None, text: str, line: int, reason: str | None = None
    ) -> None:
        """Chat, joins, ...: part of the record, not of the play; a garbled card is a
        fault of the record itself, and so is a line the hand was read without (`reason`:
        why it was)."""
        self.line = line
        if kind is NoteKind.GARBLED:
            self.report(
                Code.GARBLED_CARD,
                f"The site wrote {text}; that card is unknown.",
                reported=text,
                line=line,
            )
        elif kind is NoteKind.NEGATIVE:
            self.report(
                Code.NEGATIVE_AMOUNT,
                f"The site wrote a negative amount: {text!r}. A wager can only put chips "
                f"in; {player or 'the player'}'s is read as the amount without its sign.",
                reported=text,
                line=line,
                blame=(self.index[player],) if player in self.index else (),
            )
        elif kind in GAP_NOTES:
            self.unread += 1
            if kind is NoteKind.UNREAD:
                self.report(
                    Code.LINE_NOT_UNDERSTOOD,
                    f"Line {line} is read without: {reason or repr(text)}.",
                    reported=text,
                    line=line,
                    severity=Severity.WARNING,
                )
                return
            message = (
                f"The record lacks {text} before line {line}; the hand is read without it."
                if kind is NoteKind.MISSING
                else f"The hand's text stops at line {line} (cut short?); its format still "
                f"requires {text}."
            )
            self.report(
                Code.LINE_MISSING, message, expected=text, line=line, severity=Severity.WARNING
            )

    def on_uncalled(self, player: str, amount: int, line: int) -> None:
        """An uncalled bet returned to the bettor (`rules/betting.py`)."""
        self.line = line
        betting.returned(self, player, amount)

    # ---------------------------------------------------------- rounds, the end
    def open_betting(self) -> None:
        """The street's cards are out: its betting opens (who brings in or acts first)."""
        if self.phase is not _DEAL or self.street is None:
            return
        self.phase = _BET
        if self.street == _SEVENTH and self.ledger.community is None:
            live = self.live_mask
            if self.community_needed(_SEVENTH) and not self.dealt_now:
                self.report(
                    Code.COMMUNITY_CARD,
                    f"The deck cannot give {live.bit_count()} players a 7th card, but no "
                    "community card is dealt.",
                )
            slots = self.ledger.slots
            for i in range(self.n):  # the site does not print others' 7th cards: unknown
                cs = slots[i]
                if (
                    live >> i & 1
                    and not self.dealt_now >> i & 1
                    and cs is not None
                    and len(cs) == 6
                ):
                    cs.append(None)
        self.opener, self.bring_in_seat, self.bring_in_due = self.opening()

    def close_round(self) -> None:
        """A street ends (next street, showdown, or collection): check what was missed."""
        if self.phase is _DEAL and self.street is not None:
            self.open_betting()
        if self.phase is not _BET:
            return
        betting.close(self)
        self.phase = _BETWEEN

    def finish(self) -> list[Violation]:
        """The facts are over: close the last betting round (missed actions, uncalled)."""
        before = len(self.violations)
        if self.phase is _ANTES:
            self.finish_antes()
        self.close_round()
        if not self.deals_seen and self.dealt_mask.bit_count() > 1:
            self.report(
                Code.DEALS_NOT_RECORDED,
                "The record writes no deals: who brings in, who acts first and the bet sizes "
                "that depend on the cards cannot be checked.",
                severity=Severity.INFO,
            )
        return self.violations[before:]

    def settle(self, *, rake: int, shown: Mapping[str, Sequence[Card]] | None = None) -> Settlement:
        """Pots (main first, then side pots) and who should win each pot and half
        (`rules/pots.py`). `shown` adds known hands (player -> all their cards) to those
        seen in the facts; a player whose cards are unknown and who did not muck makes the
        pot uncheckable."""
        return settle_hand(self, rake, shown or {})
