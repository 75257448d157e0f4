"""`histkit report PATH... -o report.html`: one self-contained HTML session report."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from histkit.commands._options import (
    EXIT_OK,
    ExamplesFormatter,
    UsageError,
    accounting_line,
    add_alias_option,
    add_filter_options,
    add_jobs_option,
    add_site_option,
    add_source_options,
    aliases_from,
    check_jobs,
    check_output_file,
    filters_from,
    input_bytes,
    path_text,
    progress_bar,
    require_hands,
    source_from,
)
from histkit.textsafe import terminal_text

EXAMPLES = """\
examples:
  histkit report sessions/ -o report.html     # hand histories; the hero's report
  histkit report out/ --player Hero -o h.html # a folder of tables: histkit parse ... -o out/
  histkit report --db --since 2024-06-01 -o june.html   # the hand database, June 1 on (UTC)
  histkit report --db my.duckdb --site pokerstars --cash -o cash.html
"""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "report",
        help="a self-contained HTML session report with plots",
        description=(
            "Write one HTML file (plots embedded, no external references) with a player's "
            "summary, plots, the biggest pots won and lost replayed street by street, and "
            "the audit's violations. The player defaults to the hands' hero. Reads hand "
            "histories, folders of tables written by 'histkit parse' (the violations when "
            "parsed with --audit), or the hand database (--db)."
            " On folders of tables and the database, --site keeps only that site's hands "
            "(on hand histories it says how to read them)."
        ),
        epilog=EXAMPLES,
        formatter_class=ExamplesFormatter,
    )
    add_source_options(p)
    p.add_argument(
        "-o",
        "--output",
        required=True,
        type=path_text,
        metavar="FILE",
        help="the HTML file to write",
    )
    p.add_argument("--player", metavar="NAME", help="the player to report on (default: hero)")
    add_filter_options(p)
    p.add_argument("--top", type=int, default=3, metavar="N", help="pots won/lost to replay")
    add_alias_option(p)
    add_site_option(p)
    add_jobs_option(p)
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar, no summary")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from histkit.atomic import atomic_write_text
    from histkit.report import report_of
    from histkit.sources import resolve_player
    from histkit.workspace import open_source

    check_output_file(args.output)  # said before the work, not after
    if args.top < 0:
        raise UsageError("--top must be 0 or more")
    filters = filters_from(args, player=None)
    jobs = check_jobs(args.jobs)
    source = source_from(args)
    aliases = aliases_from(args.alias)
    counts: dict[str, Any] = {}
    try:
        size = input_bytes(source.paths) if source.kind == "text" and not args.quiet else 0
        with progress_bar(enabled=size > 0, desc="reading", total_bytes=size) as bar:
            ws = open_source(
                source,
                filters=filters,
                audit=True,
                site=args.site,
                jobs=jobs,
                progress=bar.update,
                counts=counts,
                aliases=aliases,
            )
        with ws:
            require_hands(args, source, counts["selected"], counts)
            player = args.player
            if player is not None:
                names = [
                    r[0] for r in ws.con.execute("SELECT DISTINCT player FROM seats").fetchall()
                ]
                player = resolve_player(player, [*names, *aliases], source.describe())
            html, counted = report_of(ws, player, top=args.top)
    except ValueError as e:
        raise UsageError(str(e)) from None
    try:
        atomic_write_text(args.output, html)  # whole or not at all
    except OSError as e:
        raise UsageError(f"cannot write {args.output}: {e.strerror or e}") from None
    if not args.quiet:
        print(terminal_text(f"Wrote {args.output} ({len(html) // 1024:,} KiB)."), file=sys.stderr)
        print(terminal_text(accounting_line(counts, counted=counted)), file=sys.stderr)
    return EXIT_OK
