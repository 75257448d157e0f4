"""`histkit import PATH... [--db FILE]`: hand histories into the hand database.

(A module named as its command, as every command's is; its options shared with `watch` and
`db` live in `histkit.commands.db`.)"""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from histkit.commands._options import (
    EXIT_FOUND,
    EXIT_OK,
    ExamplesFormatter,
    UsageError,
    add_jobs_option,
    add_site_option,
    check_jobs,
    check_site,
    existing_paths,
    nothing_read,
    path_text,
    plural,
    progress_bar,
)
from histkit.commands.db import add_audit_options, add_db_option
from histkit.textsafe import terminal_lines

if TYPE_CHECKING:
    from histkit.db import ImportReport


EXAMPLES = """\
examples:
  histkit import ~/PokerStars/HandHistory/            # into the default database
  histkit import sessions/ old-archive/ --db my.duckdb
  histkit import sessions/ --no-audit -q              # faster, no awards/violations stored
"""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "import",
        help="import hand histories into the hand database (DuckDB)",
        description=(
            "Import hand-history files or folders (recursively) into the hand database, "
            "a DuckDB file with the tables 'histkit parse' writes. Files imported before "
            "and unchanged are skipped; a file that grew is read on from where the last "
            "import stopped; a changed file is read again (a file cut shorter keeps only the "
            "hands still in it); the hands of a file no longer in a folder imported (deleted "
            "or renamed) are removed. Each hand (site and hand id) is "
            "stored once: another copy is counted as a duplicate, a different text under "
            "the same id is a conflict (exit status 1). The last hand of a file that is "
            "still being written is pending until the file completes it. An import is one "
            "transaction: interrupted, it leaves the database as it was. The database is held "
            "only while the hands read are written, not while they are read, so readers "
            "('histkit stats --db') wait at most that long."
        ),
        epilog=EXAMPLES,
        formatter_class=ExamplesFormatter,
    )
    p.add_argument(
        "paths", nargs="+", type=path_text, metavar="PATH", help="hand-history files or folders"
    )
    add_db_option(p)
    add_audit_options(p)
    add_site_option(p)
    add_jobs_option(p)
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar, no summary")
    p.set_defaults(run=_run)


def _run(args: argparse.Namespace) -> int:
    from histkit.db import (
        DatabaseBusy,
        DatabaseError,
        NothingToImport,
        StagingError,
        import_paths,
    )

    paths = existing_paths(args.paths)
    jobs = check_jobs(args.jobs)
    site = check_site(args.site)
    try:
        with progress_bar(enabled=not args.quiet, desc="importing") as bar:
            report = import_paths(
                paths,
                db=args.db,
                audit=args.audit,
                jobs=jobs,
                progress=bar.update,
                planned=bar.size,
                site=site,
                require_hands=True,
            )
    except NothingToImport as e:
        held = e.report
        raise nothing_read(
            args,
            ", ".join(args.paths),
            skipped=held.skipped,
            unknown=held.unknown,
            unreadable=held.unreadable,
        ) from None
    except (DatabaseError, DatabaseBusy, StagingError) as e:
        raise UsageError(str(e)) from None
    except OSError as e:
        raise UsageError(f"cannot write the database: {e.strerror or e}") from None
    if not args.quiet:
        sys.stdout.write(summary(report))
    return EXIT_FOUND if report.conflicts else EXIT_OK


def summary(r: ImportReport) -> str:
    """What `histkit import` prints, made safe for a terminal."""
    lines = [
        f"Imported into {r.db} in {r.seconds:,.1f} s: {plural(r.files_seen, 'file')} seen: "
        f"{r.files_read:,} new, {r.files_resumed:,} grown (read on), {r.files_reread:,} "
        f"changed (read again), {r.files_skipped:,} unchanged."
        + (
            f" {plural(r.files_gone, 'file')} imported before no longer there (deleted or "
            "renamed): their hands removed."
            if r.files_gone
            else ""
        ),
        f"Added {plural(r.hands_added, 'hand')}"
        + (
            f" (and removed {r.hands_removed:,} of files read again"
            + (" or gone)" if r.files_gone else ")")
            if r.hands_removed
            else ""
        )
        + f"; {plural(r.duplicates, 'duplicate')} (copies of stored hands) not stored again; "
        f"{plural(r.conflicts, 'conflict')}" + (":" if r.conflicts else "."),
    ]
    lines[1:1] = [f"  gone: {f}" for f in r.gone_files]
    lines.extend(f"  {m}" for m in r.conflict_messages[:20])
    if r.pending:
        lines.append(
            f"Pending: {plural(r.pending, 'hand')} not complete yet (imported when "
            "the file completes it):"
        )
        lines.extend(f"  {f}:{n} ({why})" for f, n, why in r.pending_hands[:20])
    if r.unread:
        lines.append(
            f"Stored {plural(r.unread, 'hand')} read without a line not understood "
            "(hands.unread_lines; `histkit audit --db` names each line)."
        )
    if r.skipped:
        lines.append(f"Skipped {plural(r.skipped, 'hand')} of other games.")
    if r.unknown:
        lines.append(f"Not hand histories of a known site: {plural(r.unknown, 'file')}:")
        lines.extend(f"  {f}: {why}" for f, why in r.unknown_examples)
    if r.unreadable:
        lines.append(f"Could not read {plural(r.unreadable, 'file')}:")
        lines.extend(f"  {f}: {why}" for f, why in r.unreadable_examples)
    lines.append(f"Rejected {plural(r.rejected, 'hand')}" + (":" if r.rejected else "."))
    lines += _examples(r.rejected, r.rejected_examples)
    if r.outside:
        what = plural(r.outside, "stretch", "stretches")
        lines.append(f"Not part of any hand: {what} of text:")
        lines += _examples(r.outside, r.outside_examples)
    return terminal_lines(lines)


def _examples(n: int, examples: tuple[tuple[str, int | None, str | None, str], ...]) -> list[str]:
    """The first few errors of a kind, one line each, and how many more there are."""
    lines = []
    for f, line, hand, why in examples:
        where = f"{f}:{line}" if line else f
        lines.append(f"  {where}" + (f" hand #{hand}" if hand else "") + f": {why}")
    if n > len(examples):
        lines.append(f"  ... and {n - len(examples):,} more (see `histkit db`)")
    return lines
