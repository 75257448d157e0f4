"""`histkit simulate`: legal random stud hands written as a site's hand histories."""

from __future__ import annotations

import argparse
import sys
from contextlib import ExitStack
from pathlib import Path

from histkit.cli import EXIT_OK, UsageError, plural, progress_bar


def _players(text: str) -> int:
    n = int(text)
    if not 2 <= n <= 8:
        raise argparse.ArgumentTypeError("players must be 2 to 8")
    return n


def _rate(text: str) -> float:
    r = float(text)
    if not 0.0 <= r <= 1.0:
        raise argparse.ArgumentTypeError("a rate is between 0 and 1")
    return r


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from histkit.simulate import FAULT_KINDS

    p = sub.add_parser(
        "simulate",
        help="write simulated hand histories (test and benchmark data)",
        description=(
            "Deal and play legal random stud hands (the rules engine referees every "
            "action, under the site's house rules) and write them as that site's "
            "hand-history file (--site, default pokerstars). The same seed gives the same "
            "file on every machine. With --faults, some hands are written with a realistic "
            "payout error and the ground truth goes to FILE.faults.jsonl. Example: "
            "histkit simulate --site fulltilt --game razz --hands 500 -o razz.txt"
        ),
    )
    from histkit.dialects import get_dialect, known_sites

    writers = [n for n in known_sites() if get_dialect(n).writer]
    p.add_argument(
        "--site",
        default="pokerstars",
        choices=writers,
        help="whose text to write (default pokerstars)",
    )
    p.add_argument("--game", choices=("stud_hilo", "stud", "razz"), default="stud_hilo")
    p.add_argument("--hands", type=int, default=1000, metavar="N", help="hands (default 1000)")
    p.add_argument(
        "--players", type=_players, default=6, metavar="2-8", help="seats per table (default 6)"
    )
    p.add_argument("--tables", type=int, default=1, metavar="N", help="tables the hero plays")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="random seed (default 0)")
    p.add_argument(
        "--stakes",
        metavar="SB/BB",
        help="cash stakes in dollars, small/big bet (default 0.04/0.08)",
    )
    p.add_argument(
        "--currency", help="cash currency code (default: the site's, USD for most, EUR for Winamax)"
    )
    p.add_argument("--tournament", action="store_true", help="a tournament in chips")
    p.add_argument("--hero", default="Hero", metavar="NAME", help="whose hole cards are shown")
    p.add_argument(
        "--faults",
        type=_rate,
        default=0.0,
        metavar="RATE",
        help="share of hands written with a payout error (0-1; truth in FILE.faults.jsonl)",
    )
    p.add_argument(
        "--fault-kinds",
        metavar="K,K",
        help=f"which faults to plant, from: {', '.join(FAULT_KINDS)} (default: all but "
        "wrong_rake, which an audit catches only with the house's rake ceiling; asking for "
        "it also writes FILE.profile.toml for `histkit audit --profile`)",
    )
    p.add_argument("--crlf", action="store_true", help="CRLF line ends, as the client writes")
    p.add_argument("-o", "--output", required=True, metavar="FILE", help="the file to write")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar, no summary")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from histkit.atomic import atomic_path, atomic_write_text
    from histkit.simulate import FAULT_KINDS, SimulationError, parse_stakes, write_session
    from histkit.simulate.config import RakeSchedule

    RAKE_PERCENT = RakeSchedule().percent
    if args.hands < 1 or args.tables < 1:
        raise UsageError("--hands and --tables must be at least 1")
    kinds = tuple(k for k in FAULT_KINDS if k != "wrong_rake")
    if args.fault_kinds:
        kinds = tuple(k.strip() for k in args.fault_kinds.split(",") if k.strip())
        unknown = [k for k in kinds if k not in FAULT_KINDS]
        if unknown:
            raise UsageError(
                f"unknown fault kind {', '.join(unknown)}; known: {', '.join(FAULT_KINDS)}"
            )
    try:
        stakes = parse_stakes(args.stakes) if args.stakes else None
    except ValueError as e:
        raise UsageError(str(e)) from None
    if stakes is not None and args.tournament:
        raise UsageError("--stakes is for cash games; tournaments use their own levels")
    out = Path(args.output)
    side = out.with_name(out.name + ".faults.jsonl")
    last = 0
    # written under temporary names, renamed into place when complete: an interrupted run
    # leaves the earlier files (ExitStack renames the sidecar, then the hands)
    with (
        progress_bar(enabled=not args.quiet and args.hands >= 2000, desc="simulating") as bar,
        ExitStack() as stack,
    ):

        def advance(n: int) -> None:
            nonlocal last
            bar.update(n - last)
            last = n

        try:
            tmp = stack.enter_context(atomic_path(out))
            tmp_side = stack.enter_context(atomic_path(side)) if args.faults else None
            report = write_session(
                tmp,
                args.game,
                args.hands,
                players=args.players,
                seed=args.seed,
                stakes=stakes,
                tournament=args.tournament,
                currency=args.currency,
                hero=args.hero,
                faults=args.faults,
                fault_kinds=kinds,
                tables=args.tables,
                newline="\r\n" if args.crlf else "\n",
                progress=advance,
                site=args.site,
                sidecar=tmp_side,
            )
        except (SimulationError, ValueError) as e:
            raise UsageError(str(e)) from None
        except OSError as e:
            raise UsageError(f"cannot write {e.filename or args.output}: {e.strerror}") from None
    profile_note = ""
    if args.faults and "wrong_rake" in kinds and not args.tournament:
        toml = f"{out}.profile.toml"
        atomic_write_text(
            toml,
            "# The house's rules for this simulated file: PokerStars' plus its rake ceiling,\n"
            "# so that `histkit audit --profile` can flag a rake above the schedule.\n"
            'base = "pokerstars"\nname = "simulated-house"\n'
            f"rake_max_percent = {RAKE_PERCENT}\n",
        )
        profile_note = f" (audit it with --profile {toml})"
    if not args.quiet:
        msg = f"Wrote {plural(report.hands, 'hand')} of {args.game} ({args.site}) to {out}"
        if report.sidecar is not None:
            msg += f"; {plural(report.faults, 'planted fault')} listed in {side}"
            msg += profile_note
        print(msg + ".", file=sys.stderr)
    return EXIT_OK
