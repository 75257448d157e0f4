"""`histkit export --format phh PATH... -o DIR`: hands as Poker Hand History files."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from histkit.commands._options import (
    EXIT_FOUND,
    EXIT_OK,
    ExamplesFormatter,
    UsageError,
    add_site_option,
    check_site,
    existing_paths,
    input_bytes,
    nothing_read,
    path_text,
    plural,
    progress_bar,
)
from histkit.textsafe import terminal_lines

if TYPE_CHECKING:
    from histkit.model import Hand
    from histkit.reading.split import ParseIssue

_SHOWN = 10  # issues listed by name in the summary; the rest are counted

EXAMPLES = """\
examples:
  histkit export --format phh hands/ -o phh/          # one .phh file per hand
  histkit export --format phh hands/ -o phh/ --phhs   # one .phhs file per input file
  # then, in Python: pokerkit.notation.HandHistory.load(open("phh/<file>.phh", "rb"))
"""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "export",
        help="write hands in another format (PHH, the Poker Hand History of PokerKit)",
        description=(
            "Read hand-history files or folders (any site histkit reads) and write every "
            "stud hand as a Poker Hand History file (PHH, https://phh.readthedocs.io: "
            "variants F7S, F7S/8 and FR), one DIR/<site>-<hand id>.phh per hand, or with "
            "--phhs one DIR/<input file>.phhs per input file. Amounts are the hand's own "
            "units (cents for cash, chips for tournaments; the field _unit says which). "
            "DIR appears only when every hand is written; an earlier export in DIR is "
            "replaced whole, and a folder of anything else is refused."
        ),
        epilog=EXAMPLES,
        formatter_class=ExamplesFormatter,
    )
    p.add_argument(
        "paths", nargs="+", type=path_text, metavar="PATH", help="hand-history files or folders"
    )
    p.add_argument(
        "-o", "--output", required=True, type=path_text, metavar="DIR", help="output folder"
    )
    p.add_argument(
        "--format",
        choices=("phh",),
        default="phh",
        help="the format to write (phh, the only one so far)",
    )
    p.add_argument(
        "--phhs",
        action="store_true",
        help="one .phhs file (many hands) per input file instead of a .phh file per hand",
    )
    add_site_option(p)
    p.add_argument(
        "--strict",
        action="store_true",
        help="reject a hand with a line not understood (else it is written without the "
        "line); exit 1 if any hand was rejected or not written",
    )
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar, no summary")
    p.set_defaults(run=_run_export)


def _run_export(args: argparse.Namespace) -> int:
    from histkit.phh.export import ExportError, export_phh

    paths = existing_paths(args.paths)
    site = check_site(args.site)
    reading = _Reading(args, paths, site)
    size = 0 if args.quiet else input_bytes(paths)
    try:
        with progress_bar(enabled=not args.quiet, desc="exporting", total_bytes=size) as bar:
            report = export_phh(reading.items(bar.update), args.output, multi=args.phhs)
    except ExportError as e:
        raise UsageError(str(e)) from None
    except OSError as e:
        raise UsageError(f"cannot write to {args.output}: {e.strerror or e}") from None
    bad = [i for i in report.issues if i.kind in ("rejected", "unreadable", "unknown")]
    if not args.quiet:
        sys.stdout.write(_summary(report, args.output.rstrip("/\\") or args.output, reading))
    return EXIT_FOUND if (args.strict and bad) else EXIT_OK


class _Reading:
    """The hands and issues of the input for the export, each hand (site and hand id) once
    as every other command counts it, with progress by bytes read. Nothing to export (no
    stud hand in the input) raises the usage error as the input ends, so the export's
    folder is never written."""

    def __init__(self, args: argparse.Namespace, paths: list[Path], site: str | None) -> None:
        self.args, self.paths, self.site = args, paths, site
        self.seen: set[tuple[str, str]] = set()
        self.duplicates = 0
        self.example: str | None = None  # the id of a hand read more than once
        self.kinds: Counter[str] = Counter()

    def items(self, progress: Callable[[int, int], None]) -> Iterator[Hand | ParseIssue]:
        from histkit.model import Hand
        from histkit.reader import chunk_bytes, iter_chunks, parse_chunk, strictly

        for chunk in iter_chunks(self.paths, site=self.site):
            hands = 0
            items = parse_chunk(chunk, site=self.site)
            for item in strictly(items) if self.args.strict else items:
                if isinstance(item, Hand):
                    key = (item.site, item.hand_id)
                    if key in self.seen:
                        self.duplicates += 1
                        self.example = self.example or item.hand_id
                        continue
                    self.seen.add(key)
                    hands += 1
                else:
                    self.kinds[item.kind] += 1
                yield item
            progress(hands, chunk_bytes(chunk))
        if not self.seen and not self.kinds["rejected"]:
            raise nothing_read(
                self.args,
                ", ".join(self.args.paths),
                skipped=self.kinds["skipped"],
                unknown=self.kinds["unknown"],
                unreadable=self.kinds["unreadable"],
            )


def _summary(report: object, out: str, reading: _Reading) -> str:
    from histkit.phh.export import ExportReport

    assert isinstance(report, ExportReport)
    kinds: Counter[str] = Counter(i.kind for i in report.issues)
    lines = [
        f"Wrote {plural(report.hands, 'hand')} as PHH to {out}/ "
        f"({plural(report.files, 'file')})"
        + (", replacing the earlier export." if report.replaced else ".")
    ]
    if reading.duplicates:
        lines.append(
            f"Skipped {plural(reading.duplicates, 'duplicate')} (hands read more than once, "
            f"e.g. #{reading.example}): each hand written once."
        )
    if kinds["skipped"]:
        lines.append(f"Skipped {plural(kinds['skipped'], 'hand')} of other games.")
    listed = [i for i in report.issues if i.kind != "skipped"]
    if listed:
        lines.append(f"Not written: {plural(len(listed), 'hand or file')}:")
        for i in listed[:_SHOWN]:
            where = f"{i.source_file}:{i.line}" if i.line else i.source_file
            hand = f" hand {i.hand_id}:" if i.hand_id else ""
            lines.append(f"  {where}:{hand} {i.reason}")
        if len(listed) > _SHOWN:
            lines.append(f"  ... and {len(listed) - _SHOWN:,} more")
    return terminal_lines(lines)
