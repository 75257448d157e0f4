"""`histkit` command line: thin wrappers over the library, one function per command.

Exit status: 0 success, 1 the command found problems (e.g. `audit` violations, `parse
--strict` rejections), 2 a usage or input error.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, TypeVar

from histkit import __version__

__all__ = ["main"]

T = TypeVar("T")

EXIT_OK, EXIT_FOUND, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    """A problem with the command line or its inputs: printed without a traceback, exit 2."""


# ------------------------------------------------------------------------- helpers


def _existing_paths(paths: list[str]) -> list[Path]:
    missing = [p for p in paths if not Path(p).exists()]
    if missing:
        raise UsageError("no such file or folder: " + ", ".join(missing))
    return [Path(p) for p in paths]


def progress(items: Iterable[T], *, enabled: bool, desc: str, unit: str = "hand") -> Iterator[T]:
    """A progress bar on stderr when it is a terminal (tqdm), else the items unchanged."""
    if not enabled or not sys.stderr.isatty():
        yield from items
        return
    from tqdm import tqdm

    with tqdm(items, desc=desc, unit=unit, unit_scale=True, file=sys.stderr, leave=False) as bar:
        yield from bar


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


# --------------------------------------------------------------------------- parse


def _add_parse(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "parse",
        help="parse hand histories into Parquet tables",
        description=(
            "Parse hand-history files or folders (recursively) and write hands, seats, "
            "actions, cards and errors as Parquet files into OUTDIR. Hands of other games "
            "are skipped; stud hands that cannot be parsed are rejected and listed in "
            "errors.parquet with file, line and reason."
        ),
    )
    p.add_argument("paths", nargs="+", metavar="PATH", help="hand-history files or folders")
    p.add_argument("-o", "--output", required=True, metavar="OUTDIR", help="output folder")
    p.add_argument("--dialect", default="pokerstars", help="site dialect (default: pokerstars)")
    p.add_argument(
        "--batch-size", type=int, default=5000, help="hands per Parquet row group (default 5000)"
    )
    p.add_argument("--strict", action="store_true", help="exit 1 if any hand was rejected")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar, no summary")
    p.set_defaults(run=_run_parse)


def _run_parse(args: argparse.Namespace) -> int:
    from histkit.model import Hand
    from histkit.reader import iter_hands
    from histkit.tables import ParquetSink

    paths = _existing_paths(args.paths)
    if args.batch_size < 1:
        raise UsageError("--batch-size must be at least 1")
    files: set[str] = set()
    games: Counter[str] = Counter()
    skipped: Counter[str] = Counter()
    rejected: list[Any] = []
    with ParquetSink(args.output, batch_size=args.batch_size) as sink:
        items = iter_hands(paths, dialect=args.dialect)
        for item in progress(items, enabled=not args.quiet, desc="parsing"):
            sink.add(item)
            if isinstance(item, Hand):
                files.add(item.source.file)
                games[item.game.value] += 1
            else:
                files.add(item.source_file)
                if item.kind == "skipped":
                    skipped[item.game or "unknown game"] += 1
                else:
                    rejected.append(item)
    if not args.quiet:
        print(_parse_summary(len(files), games, skipped, rejected, args.output, sink.counts))
    return EXIT_FOUND if (args.strict and rejected) else EXIT_OK


def _parse_summary(
    n_files: int,
    games: Counter[str],
    skipped: Counter[str],
    rejected: list[Any],
    outdir: str,
    counts: dict[str, int],
) -> str:
    lines = [f"Read {_plural(n_files, 'file')}."]
    by_game = ", ".join(f"{g} {n:,}" for g, n in sorted(games.items()))
    lines.append(
        f"Parsed {_plural(sum(games.values()), 'stud hand')}" + (f": {by_game}." if games else ".")
    )
    if skipped:
        detail = ", ".join(f"{g} {n:,}" for g, n in skipped.most_common())
        lines.append(f"Skipped {_plural(sum(skipped.values()), 'hand')} of other games: {detail}.")
    else:
        lines.append("Skipped 0 hands of other games.")
    lines.append(f"Rejected {_plural(len(rejected), 'hand')}" + (":" if rejected else "."))
    for r in rejected[:20]:
        where = f"{r.source_file}:{r.line}" if r.line else r.source_file
        hid = f" hand #{r.hand_id}" if r.hand_id else ""
        lines.append(f"  {where}{hid}: {r.reason}")
    if len(rejected) > 20:
        lines.append(f"  ... and {len(rejected) - 20} more (see errors.parquet)")
    tables = ", ".join(f"{name} {n:,} rows" for name, n in counts.items())
    lines.append(f"Wrote {outdir}/: {tables}.")
    return "\n".join(lines)


# ---------------------------------------------------------------------------- main

COMMANDS: list[Callable[[argparse._SubParsersAction[argparse.ArgumentParser]], None]] = [
    _add_parse,
]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="histkit",
        description="Seven Card Stud hand histories: parse, audit, tabulate, analyse.",
    )
    parser.add_argument("--version", action="version", version=f"histkit {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for add in COMMANDS:
        add(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        return int(args.run(args))
    except UsageError as e:
        print(f"histkit {args.command}: error: {e}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
