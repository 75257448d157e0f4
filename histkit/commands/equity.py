"""`histkit equity`: each player's share of the pot from the cards known, with dead cards."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from histkit.commands._options import EXIT_OK, UsageError

if TYPE_CHECKING:
    from histkit.equity import Equity

GAMES = {
    "stud": "stud",
    "stud_hilo": "stud_hilo",
    "hilo": "stud_hilo",
    "stud-hilo": "stud_hilo",
    "stud8": "stud_hilo",
    "razz": "razz",
}
_TITLES = {"stud": "Stud", "stud_hilo": "Stud Hi/Lo", "razz": "Razz"}
MAX_SAMPLES = 10_000_000
"""--samples at most: a standard error below 0.0002 (two hundredths of a point, past the
digits printed), reached in 20 s heads-up and minutes with eight players; more would only
keep the terminal busy."""

EXAMPLES = """\
examples:
  histkit equity --game stud_hilo "As 2s | 3d 4d 5h" "Kh Kd | Qc 7s 7h" --dead "8c 9d Js 2h"
  histkit equity --game razz "Ah 2d | 3c 4s" "| 5h 6c" --samples 200000 --seed 7
  histkit equity --game stud "Ah Ad | Kc" "| 9s" "| 9h" --format json

A player is "DOWN | UP": the down cards known, then the up cards ("| 9s" is a board
with unseen down cards; "??" may stand for an unseen down card, never for an up card).
The rest of each player's seven cards are dealt from the cards nobody has seen: every
possible deal when there are at most {limit:,} (exact), else {samples:,} random deals
(Monte Carlo, with its standard error; --samples up to {max_samples:,}). --dead lists
cards out of play: folded up cards, any card you saw.
"""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from histkit.equity import DEFAULT_SAMPLES, EXACT_LIMIT

    p = sub.add_parser(
        "equity",
        help="each player's share of the pot, from the cards known (dead cards included)",
        description=(
            "Equity of stud hands: each player's expected share of the pot (ties split; in "
            "hi/lo each half as the award pays it, the high hand taking all when no low "
            "qualifies), and in hi/lo the shares of the high and of the low and the chance "
            "to scoop."
        ),
        epilog=EXAMPLES.format(limit=EXACT_LIMIT, samples=DEFAULT_SAMPLES, max_samples=MAX_SAMPLES),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("players", nargs="+", metavar="CARDS", help='a player: "DOWN | UP"')
    p.add_argument("--game", required=True, help="stud, stud_hilo or razz")
    p.add_argument("--dead", action="append", default=[], metavar="CARDS", help="dead cards")
    how = p.add_mutually_exclusive_group()
    how.add_argument(
        "--exact", action="store_true", help="every deal, however many (up to 200 million)"
    )
    how.add_argument("--samples", type=int, metavar="N", help="Monte Carlo with N random deals")
    p.add_argument("--seed", type=int, default=0, metavar="S", help="Monte Carlo seed (default 0)")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from histkit.equity import DEFAULT_SAMPLES, EquityError, equity, parse_dead, parse_holding

    game = GAMES.get(str(args.game).lower())
    if game is None:
        raise UsageError(f"--game: unknown game {args.game!r} (known: stud, stud_hilo, razz)")
    if args.samples is not None and args.samples < 2:
        raise UsageError("--samples must be at least 2")
    if args.samples is not None and args.samples > MAX_SAMPLES:
        raise UsageError(
            f"--samples {args.samples:,} is more than {MAX_SAMPLES:,} (a standard error "
            "below 0.02 points already): use fewer, or --exact when the deals are few"
        )
    if args.seed < 0:
        raise UsageError(f"--seed {args.seed}: a seed is a whole number from 0 up")
    try:
        holdings = [parse_holding(t) for t in args.players]
        dead = parse_dead(args.dead)
        result = equity(
            game,
            holdings,
            dead=dead,
            method="exact" if args.exact else "monte_carlo" if args.samples else "auto",
            samples=args.samples or DEFAULT_SAMPLES,
            seed=args.seed,
        )
    except EquityError as e:
        raise UsageError(str(e)) from None
    if args.format == "json":
        json.dump(as_json(result, dead, seed=args.seed), sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(as_text(result, dead, seed=args.seed))
    return EXIT_OK


def as_json(e: Equity, dead: tuple[Any, ...], *, seed: int) -> dict[str, Any]:
    """The issue's shape (game, method, samples, players with cards, equity, high, low,
    scoop), plus each player's standard error, the dead cards, the seed and no_low."""
    mc = e.method == "monte_carlo"
    return {
        "game": str(e.game),
        "method": str(e.method),
        "samples": e.samples,
        "seed": seed if mc else None,
        "dead": [str(c) for c in dead],
        "no_low": e.no_low,
        "players": [
            {
                "cards": str(p.holding),
                "equity": p.equity,
                "high": p.high,
                "low": p.low,
                "scoop": p.scoop,
                "error": p.error,
            }
            for p in e.players
        ],
    }


def _pct(v: float | None) -> str:
    return "–" if v is None else f"{100 * v:.2f}%"


def as_text(e: Equity, dead: tuple[Any, ...], *, seed: int) -> str:
    game = str(e.game)
    if e.method == "exact":
        how = f"exact: every one of {e.samples:,} deals of the unseen cards"
    else:
        how = (
            f"Monte Carlo: {e.samples:,} random deals (seed {seed}); standard error at most "
            f"{100 * e.standard_error:.2f} points"
        )
    cols = [("equity", "equity")]
    if game != "razz":
        cols.append(("high", "high"))
    if game != "stud":
        cols.append(("low", "low"))
    if game == "stud_hilo":
        cols.append(("scoop", "scoop"))
    cards = [str(p.holding) for p in e.players]
    width = max(len("cards"), *(len(c) for c in cards))
    head = f"{'':3} {'cards':<{width}}" + "".join(f" {h:>8}" for _, h in cols)
    lines = [f"{_TITLES.get(game, game)}, {how}", head]
    for i, (p, c) in enumerate(zip(e.players, cards, strict=True), 1):
        lines.append(
            f"{i:<3} {c:<{width}}" + "".join(f" {_pct(getattr(p, k)):>8}" for k, _ in cols)
        )
    notes = []
    if dead:
        notes.append("dead: " + " ".join(str(c) for c in dead))
    if e.no_low is not None:
        notes.append(f"no low qualifies in {_pct(e.no_low)} of deals")
    if notes:
        lines.append(" · ".join(notes))
    return "\n".join(lines) + "\n"
