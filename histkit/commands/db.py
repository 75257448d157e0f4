"""`histkit db [--db FILE]`: what the hand database holds."""

from __future__ import annotations

import argparse
import json
import sys

from histkit.commands._options import (
    EXIT_OK,
    ExamplesFormatter,
    UsageError,
    path_text,
)


def add_db_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--db",
        type=path_text,
        metavar="FILE",
        help="the hand database (default: $HISTKIT_DB, else hands.duckdb in your data folder)",
    )


def add_audit_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--audit",
        dest="audit",
        action="store_true",
        default=True,
        help="replay every hand and store its awards and violations (the default)",
    )
    p.add_argument(
        "--no-audit",
        dest="audit",
        action="store_false",
        help="store the hands without the audit (about a quarter less time)",
    )


EXAMPLES = """\
examples:
  histkit db                                          # the default database
  histkit db --db my.duckdb --format json
"""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "db",
        help="what the hand database holds",
        description=(
            "Print what the hand database holds: hands by site, game and money unit (a "
            "currency, or one tournament's chips: never added together), files, duplicates, "
            "conflicts, pending hands (files still being written), errors, the schema "
            "version, the file's path and size."
        ),
        epilog=EXAMPLES,
        formatter_class=ExamplesFormatter,
    )
    add_db_option(p)
    p.add_argument("--format", choices=("text", "json"), default="text", help="output format")
    p.set_defaults(run=_run)


def _run(args: argparse.Namespace) -> int:
    from histkit.db import DatabaseBusy, DatabaseError, connect
    from histkit.db.connection import resolve_path
    from histkit.db.summary import describe, text

    file = resolve_path(args.db)
    if file.is_dir():
        raise UsageError(f"--db {file}: is a folder, not a hand database file")
    try:
        with connect(file) as con:
            d = describe(con, file)
    except (DatabaseError, DatabaseBusy, FileNotFoundError) as e:
        raise UsageError(str(e)) from None
    sys.stdout.write(json.dumps(d, indent=2) + "\n" if args.format == "json" else text(d))
    return EXIT_OK
