"""`histkit export --format phh PATH... -o DIR`: hands as Poker Hand History files."""

from __future__ import annotations

import argparse
from collections import Counter

from histkit.commands._options import (
    EXIT_FOUND,
    EXIT_OK,
    ExamplesFormatter,
    UsageError,
    add_site_option,
    check_site,
    existing_paths,
    plural,
    progress_bar,
)

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
    p.add_argument("paths", nargs="+", metavar="PATH", help="hand-history files or folders")
    p.add_argument("-o", "--output", required=True, metavar="DIR", help="output folder")
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
        "--strict", action="store_true", help="exit 1 if any hand was rejected or not written"
    )
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar, no summary")
    p.set_defaults(run=_run_export)


def _run_export(args: argparse.Namespace) -> int:
    from histkit.phh.export import ExportError, export_phh
    from histkit.reader import iter_hands

    paths = existing_paths(args.paths)
    site = check_site(args.site)
    try:
        with progress_bar(enabled=not args.quiet, desc="exporting") as bar:
            seen = [0]

            def progress(n: int) -> None:
                bar.update(n - seen[0])
                seen[0] = n

            report = export_phh(
                iter_hands(paths, site=site), args.output, multi=args.phhs, progress=progress
            )
    except ExportError as e:
        raise UsageError(str(e)) from None
    except OSError as e:
        raise UsageError(f"cannot write to {args.output}: {e.strerror or e}") from None
    bad = [i for i in report.issues if i.kind in ("rejected", "unreadable", "unknown")]
    if not args.quiet:
        print(_summary(report, args.output.rstrip("/\\") or args.output))
    return EXIT_FOUND if (args.strict and bad) else EXIT_OK


def _summary(report: object, out: str) -> str:
    from histkit.phh.export import ExportReport

    assert isinstance(report, ExportReport)
    kinds: Counter[str] = Counter(i.kind for i in report.issues)
    lines = [
        f"Wrote {plural(report.hands, 'hand')} as PHH to {out}/ "
        f"({plural(report.files, 'file')})"
        + (", replacing the earlier export." if report.replaced else ".")
    ]
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
    return "\n".join(lines)
