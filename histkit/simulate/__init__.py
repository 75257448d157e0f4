"""Simulated stud hands with known ground truth, written as PokerStars hand histories.

    simulate(game, n_hands, ...) -> Iterator[Hand]         the hands of one session
    simulate_with_faults(...) -> Iterator[tuple[Hand, Fault | None]]
    write_session(path, game, n_hands, ...) -> SessionReport   text file + fault sidecar

The rules engine (`histkit.rules.state.HandState`) referees every hand: the simulator
asks it what is pending and what is legal and never carries its own copy of the rules.
A seed gives the same hands on every machine.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path

from histkit.model import Game, Hand
from histkit.rules.profile import POKERSTARS, RuleProfile
from histkit.simulate.config import RakeSchedule, Stakes, parse_stakes
from histkit.simulate.faults import FAULT_KINDS, Fault
from histkit.simulate.play import SimulationError
from histkit.simulate.session import SessionConfig, iter_played

__all__ = [
    "simulate",
    "simulate_with_faults",
    "write_session",
    "SessionReport",
    "Stakes",
    "RakeSchedule",
    "Fault",
    "FAULT_KINDS",
    "SimulationError",
    "parse_stakes",
    "house_profile",
    "truth_path",
]


def truth_path(path: str | Path) -> Path:
    """Where the ground truth of a simulated file with faults goes: `<stem>.truth.jsonl`
    beside it (`sample_data/stud_hilo_faults_200.truth.jsonl`)."""
    path = Path(path)
    return path.with_name(path.stem + ".truth.jsonl")


def simulate_with_faults(
    game: Game | str,
    n_hands: int,
    *,
    players: int = 6,
    seats: int | None = None,
    seed: int = 0,
    stakes: Stakes | str | None = None,
    tournament: bool = False,
    currency: str = "USD",
    hero: str = "Hero",
    faults: float = 0.0,
    fault_kinds: tuple[str, ...] = FAULT_KINDS,
    tables: int = 1,
    rake: RakeSchedule | None = None,
    profile: RuleProfile = POKERSTARS,
    play: str = "equity",
) -> Iterator[tuple[Hand, Fault | None]]:
    """Each hand with the fault planted in it (None for a correct hand). About `faults`
    of the hands get one (a fault drawn for a hand that allows none of `fault_kinds` goes
    to the next hand that does). Stacks in later hands follow what a faulty hand really
    paid, as they would at the site. `players` sit at each `seats`-max table (default: the
    smallest of 2, 6 and 8 seats that seats them, `session.table_size`)."""
    if isinstance(stakes, str):
        stakes = parse_stakes(stakes)
    cfg = SessionConfig(
        game=Game(game), n_hands=n_hands, players=players, seats=seats, seed=seed, stakes=stakes,
        tournament=tournament, currency=currency, hero=hero, tables=tables, rake=rake,
        profile=profile, play=play,
        faults=faults, fault_kinds=tuple(fault_kinds),
    )  # fmt: skip
    for played in iter_played(cfg):
        yield played.hand, played.fault


def simulate(
    game: Game | str,
    n_hands: int,
    *,
    players: int = 6,
    seats: int | None = None,
    seed: int = 0,
    stakes: Stakes | str | None = None,
    tournament: bool = False,
    currency: str = "USD",
    hero: str = "Hero",
    faults: float = 0.0,
    fault_kinds: tuple[str, ...] = FAULT_KINDS,
    tables: int = 1,
    rake: RakeSchedule | None = None,
    profile: RuleProfile = POKERSTARS,
    play: str = "equity",
) -> Iterator[Hand]:
    """`n_hands` legal hands of `game` ("stud_hilo", "stud", "razz") at `tables` tables of
    `players` (2-8) with one `hero`; cash at `stakes` (e.g. "0.10/0.20", default
    $0.04/$0.08) with `rake`, or a tournament in chips with rising levels. `play`: how the
    players decide, "equity" (from what they see, like people) or "random" (fast, every
    option: for runs that exercise the rules engine)."""
    for hand, _fault in simulate_with_faults(
        game, n_hands, players=players, seats=seats, seed=seed, stakes=stakes,
        tournament=tournament, currency=currency, hero=hero, faults=faults,
        fault_kinds=fault_kinds, tables=tables, rake=rake, profile=profile, play=play,
    ):  # fmt: skip
        yield hand


@dataclass(frozen=True, slots=True)
class SessionReport:
    path: Path
    hands: int
    faults: int
    sidecar: Path | None


def write_session(
    path: str | Path,
    game: Game | str,
    n_hands: int,
    *,
    players: int = 6,
    seats: int | None = None,
    seed: int = 0,
    stakes: Stakes | str | None = None,
    tournament: bool = False,
    currency: str | None = None,
    hero: str = "Hero",
    faults: float = 0.0,
    fault_kinds: tuple[str, ...] = FAULT_KINDS,
    tables: int = 1,
    rake: RakeSchedule | None = None,
    profile: RuleProfile | None = None,
    sidecar: str | Path | None = None,
    newline: str = "\n",
    progress: Callable[[int], None] | None = None,
    site: str = "pokerstars",
    play: str = "equity",
    era: str | None = None,
) -> SessionReport:
    """Write a session as one text file in `site`'s words (a dialect name: pokerstars,
    fulltilt, ...), played under `profile` (default: that site's house rules, so every
    hand is legal there). With `faults`, the ground truth goes
    to `sidecar` (default: `<stem>.truth.jsonl` beside `path`, as in `sample_data/`): one
    JSON object per faulty hand with
    `hand_id`, `fault`, `code` (the violation an audit must report) and `detail`.
    `progress` is called with the number of hands written so far; `play` as in
    `simulate`. `era`: one of the site's eras (`histkit.dialects.eras`, the names of its
    format page), written in that era's forms; None: the site's default era."""
    from histkit.dialects import get_dialect
    from histkit.dialects.eras import check_era

    dialect = get_dialect(site)
    if era is not None:
        check_era(dialect.name, era)
    if profile is None:
        profile = dialect.profile
    if currency is None:
        currency = dialect.default_currency
    if not tournament and dialect.currencies is not None and currency not in dialect.currencies:
        raise ValueError(
            f"{site} deals cash games in {', '.join(sorted(dialect.currencies))} only, "
            f"not {currency}"
        )
    path = Path(path)
    side = Path(sidecar) if sidecar else truth_path(path)
    n = n_faults = 0
    with ExitStack() as stack:
        out = stack.enter_context(open(path, "w", encoding="utf-8", newline=""))
        truth = stack.enter_context(open(side, "w", encoding="utf-8")) if faults else None
        for hand, fault in simulate_with_faults(
            game, n_hands, players=players, seats=seats, seed=seed, stakes=stakes,
            tournament=tournament, currency=currency, hero=hero, faults=faults,
            fault_kinds=fault_kinds,
            tables=tables, rake=rake,
            profile=profile, play=play,
        ):  # fmt: skip
            text = dialect.write_hands([hand], newline=newline, era=era)
            out.write(text)
            n += 1
            if fault is not None and truth is not None:
                fault = as_written(fault, hand, text, site)
                truth.write(json.dumps(fault.as_json()) + "\n")
                n_faults += 1
            if progress is not None:
                progress(n)
    return SessionReport(path, n, n_faults, side if faults else None)


def as_written(fault: Fault, hand: Hand, text: str, site: str) -> Fault:
    """The fault as the site's record of the hand shows it: in the names the text writes
    (Bovada writes seats, not names), and under AWARD_MISMATCH when the record gives each
    player's winnings over all pots (iPoker, WPN's 2016 client, Bovada's side pots): it no
    longer says which pot or half paid what, so a wrong half or odd chip is a wrong total."""
    import re
    from dataclasses import replace

    from histkit.dialects import get_dialect
    from histkit.dialects.xmlbase import XmlDialect
    from histkit.model import Collect, PotKind
    from histkit.reader import parse_text

    d = get_dialect(site)
    items = (
        d.read_xml(text.splitlines(), "<simulated>")
        if isinstance(d, XmlDialect)
        else parse_text(text, site=site)
    )
    (back,) = [h for h in items if isinstance(h, Hand)]
    written = {s.seat: s.player for s in back.seats}
    names = {
        s.player: written[s.seat] for s in hand.seats if written.get(s.seat, s.player) != s.player
    }
    detail = fault.detail
    if names:
        pattern = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
        detail = re.sub(pattern, lambda m: names[m[0]], detail)
    totals = any(type(e) is Collect and e.pot is PotKind.TOTAL for e in back.events)
    code = "AWARD_MISMATCH" if totals and fault.code in _PER_POT_CODES else fault.code
    return replace(fault, code=code, detail=detail)


# the codes that need the record to say which pot, or which half, paid whom
_PER_POT_CODES = frozenset({"ODD_CHIP", "LOW_NOT_QUALIFIED"})


def house_profile(rake: RakeSchedule | None = None, base: RuleProfile = POKERSTARS) -> RuleProfile:
    """The profile an auditor uses for simulated hands: the base rules plus the house's
    rake ceiling, so a rake above the schedule is a RAKE violation."""
    from dataclasses import replace

    return replace(
        base, name=f"{base.name}+rake", rake_max_percent=(rake or RakeSchedule()).percent
    )
