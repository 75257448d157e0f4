"""`histkit simulate`: legal random stud hands written as a site's hand histories."""

from __future__ import annotations

import argparse
import sys
from contextlib import ExitStack
from pathlib import Path

from histkit.commands._options import (
    EXIT_OK,
    GAME_HELP,
    ExamplesFormatter,
    UsageError,
    check_output_file,
    game_option,
    path_text,
    plural,
    progress_bar,
)
from histkit.textsafe import terminal_text

BAR_FROM = 2000  # hands: a shorter run ends before a bar would tell anything

EXAMPLES = """\
examples:
  histkit simulate --game razz --hands 500 -o razz.txt
  histkit simulate --site fulltilt --game stud --players 8 --stakes 0.10/0.20 -o stud.txt
  histkit simulate --site absolute --era late --tournament -o late.txt
  histkit simulate --game stud_hilo --tournament --players 5 --seats 8 -o mtt.txt
  histkit simulate --hands 2000 --faults 0.1 -o audit-me.txt   # truth in audit-me.truth.jsonl
"""


def _two_to_eight(text: str, what: str, example: str, beyond: str) -> int:
    """A whole number from 2 to 8 (argparse shows the message as is; `beyond` names the
    number out of range, with {n})."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"give {what}, 2 to 8 (e.g. {example}), not {text!r}"
        ) from None
    if not 2 <= n <= 8:
        raise argparse.ArgumentTypeError(beyond.format(n=n))
    return n


def _players(text: str) -> int:
    """--players N: players at each table."""
    return _two_to_eight(
        text,
        "the number of players at each table",
        "--players 6",
        "players at a table are 2 to 8, not {n}",
    )


def _seats(text: str) -> int:
    """--seats N: a table's size."""
    return _two_to_eight(
        text, "the table's size in seats", "--seats 6", "a stud table has 2 to 8 seats, not {n}"
    )


def _currency(text: str) -> str:
    """--currency CODE: one the simulator writes, in any case."""
    from histkit.simulate.session import CURRENCIES

    code = text.strip().upper()
    if code not in CURRENCIES:
        raise argparse.ArgumentTypeError(
            f"unknown currency {text!r}: choose {', '.join(CURRENCIES)}"
        )
    return code


def _name(text: str) -> str:
    """A player's name: not empty."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty name; give one (e.g. --hero Hero)")
    return text


def _rate(text: str) -> float:
    """--faults RATE: a share between 0 and 1 (0.1 = one hand in ten)."""
    try:
        r = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"a share of hands between 0 and 1 (e.g. 0.1), not {text!r}"
        ) from None
    if not 0.0 <= r <= 1.0:
        raise argparse.ArgumentTypeError(f"a share of hands is between 0 and 1, not {text}")
    return r


def _count(text: str) -> int:
    """A whole number of 1 or more."""
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a whole number of 1 or more, not {text!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"a whole number of 1 or more, not {n}")
    return n


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from histkit.simulate import FAULT_KINDS
    from histkit.simulate.session import CURRENCIES

    p = sub.add_parser(
        "simulate",
        help="write simulated hand histories (test and benchmark data)",
        description=(
            "Deal and play legal random stud hands (the rules engine referees every "
            "action, under the site's house rules) and write them as that site's "
            "hand-history file (--site, default pokerstars). The same seed gives the same "
            "file on every machine. With --faults, some hands are written with a realistic "
            "payout error and the ground truth goes to FILE's stem + .truth.jsonl (as in "
            "sample_data/)."
        ),
        epilog=EXAMPLES,
        formatter_class=ExamplesFormatter,
    )
    from histkit.dialects import get_dialect, known_sites

    writers = [n for n in known_sites() if get_dialect(n).writer]
    p.add_argument(
        "--site",
        default="pokerstars",
        choices=writers,
        help="whose text to write (default pokerstars)",
    )
    from histkit.dialects.eras import SITE_ERAS

    p.add_argument(
        "--era",
        metavar="ERA",
        help="write the site's lines as one era of its client wrote them (docs/sites/SITE.md, "
        '"Eras"; default: the site\'s first era): '
        + "; ".join(f"{site}: {', '.join(names)}" for site, names in SITE_ERAS.items()),
    )
    p.add_argument(
        "--game",
        type=game_option,
        default="stud_hilo",
        metavar="GAME",
        help=f"the game: {GAME_HELP} (default stud_hilo)",
    )
    p.add_argument("--hands", type=_count, default=1000, metavar="N", help="hands (default 1000)")
    p.add_argument(
        "--players",
        type=_players,
        default=6,
        metavar="N",
        help="players seated at each table, 2 to 8 (default 6)",
    )
    p.add_argument(
        "--seats",
        type=_seats,
        metavar="N",
        help="the table's size, N-max: the players plus empty seats, 2 to 8 (default: the "
        "smallest of the sizes sites deal stud at, 2, 6 or 8, that seats the players)",
    )
    p.add_argument(
        "--tables", type=_count, default=1, metavar="N", help="tables the hero plays (default 1)"
    )
    p.add_argument("--seed", type=int, default=0, metavar="S", help="random seed (default 0)")
    p.add_argument(
        "--stakes",
        metavar="SB/BB",
        help="cash stakes in dollars, small/big bet (default 0.04/0.08)",
    )
    p.add_argument(
        "--currency",
        type=_currency,
        metavar="CODE",
        help=f"cash currency: {', '.join(CURRENCIES)}, in any case (default: the site's, USD "
        "for most, EUR for Winamax)",
    )
    p.add_argument("--tournament", action="store_true", help="a tournament in chips")
    p.add_argument(
        "--hero", type=_name, default="Hero", metavar="NAME", help="whose hole cards are shown"
    )
    p.add_argument(
        "--faults",
        type=_rate,
        default=0.0,
        metavar="RATE",
        help="share of hands written with a payout error, 0 to 1 (0.1: one hand in ten; the "
        "truth goes to FILE's stem + .truth.jsonl)",
    )
    p.add_argument(
        "--fault-kinds",
        metavar="K,K",
        help=f"which faults to plant, from: {', '.join(FAULT_KINDS)} (default: all but "
        "wrong_rake, which an audit catches only with the house's rake ceiling; asking for "
        "it also writes FILE.profile.toml for `histkit audit --profile`)",
    )
    p.add_argument("--crlf", action="store_true", help="CRLF line ends, as the client writes")
    p.add_argument(
        "-o", "--output", required=True, type=path_text, metavar="FILE", help="the file to write"
    )
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar, no summary")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from histkit.atomic import atomic_path, atomic_write_text
    from histkit.simulate import (
        FAULT_KINDS,
        SimulationError,
        parse_stakes,
        truth_path,
        write_session,
    )
    from histkit.simulate.config import RakeSchedule

    RAKE_PERCENT = RakeSchedule().percent
    check_output_file(args.output)
    if args.era is not None:
        from histkit.dialects.eras import check_era

        try:
            check_era(args.site, args.era)
        except ValueError as e:
            raise UsageError(f"--era: {e}") from None
    if args.seats is not None and args.seats < args.players:
        raise UsageError(
            f"--seats {args.seats}: a table for {args.players} players has {args.players} "
            "seats or more"
        )
    kinds = tuple(k for k in FAULT_KINDS if k != "wrong_rake")
    if args.fault_kinds:
        kinds = tuple(k.strip() for k in args.fault_kinds.split(",") if k.strip())
        if not kinds:
            raise UsageError(f"--fault-kinds: name at least one of {', '.join(FAULT_KINDS)}")
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
    side = truth_path(out)
    last = 0

    def advance(n: int) -> None:
        nonlocal last
        bar.update(n - last)
        last = n

    # written under temporary names, renamed into place when complete: an interrupted run
    # leaves the earlier files (ExitStack renames the sidecar, then the hands)
    try:
        with (
            progress_bar(
                enabled=not args.quiet and args.hands >= BAR_FROM,
                desc="simulating",
                total=args.hands,
            ) as bar,
            ExitStack() as stack,
        ):
            tmp = stack.enter_context(atomic_path(out))
            tmp_side = stack.enter_context(atomic_path(side)) if args.faults else None
            report = write_session(
                tmp,
                args.game,
                args.hands,
                players=args.players,
                seats=args.seats,
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
                era=args.era,
                sidecar=tmp_side,
            )
    except (SimulationError, ValueError) as e:
        raise UsageError(str(e)) from None
    except OSError as e:  # named as the user named it, not by its temporary name
        what = side if args.faults and side.name in str(e.filename or "") else out
        raise UsageError(f"cannot write {what}: {e.strerror or e}") from None
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
        print(terminal_text(msg + "."), file=sys.stderr)
        asked = round(args.faults * report.hands)
        if args.faults and report.faults < asked:
            print(
                f"note: {asked:,} faults were asked for, but only {report.faults:,} hands "
                "allowed one of the kinds asked (a low half, a tie or a side pot to pay "
                "wrongly); play more hands or add --fault-kinds wrong_rake",
                file=sys.stderr,
            )
    return EXIT_OK
