"""`histkit audit PATH...`: replay every hand, check every action and every payout."""

from __future__ import annotations

import argparse
import csv
import io
import json
import sys
from collections import Counter
from itertools import groupby
from typing import TYPE_CHECKING, Any

from histkit.commands._options import (
    EXIT_FOUND,
    EXIT_OK,
    ExamplesFormatter,
    UsageError,
    add_filter_options,
    add_jobs_option,
    add_scheduler_option,
    add_site_option,
    add_source_options,
    check_jobs,
    check_output_file,
    check_scheduler,
    filters_from,
    input_bytes,
    nothing_read,
    path_text,
    plural,
    progress_bar,
    source_from,
)
from histkit.textsafe import CsvWriter, terminal_lines, terminal_text

if TYPE_CHECKING:
    from histkit.audit import AuditReport
    from histkit.rules import Violation
    from histkit.selection import Filters
    from histkit.sources import Source

FIELDS = (
    "hand_id", "code", "severity", "street", "line", "expected", "reported", "message", "seq",
    "caused_by", "site", "source_file", "caused_by_hand",
)  # fmt: skip


EXAMPLES = """\
examples:
  histkit audit sessions/ --info              # hand histories, informational records too
  histkit audit out/ --format json            # stored by: histkit parse ... -o out/ --audit
  histkit audit --db --since 2024-06-01       # stored in the hand database (the default file)
  histkit audit --db my.duckdb --site wpn --cash
  histkit audit sessions/ --profile casino    # under Robert's Rules (hand histories only)
  histkit audit s3://bucket/hands/ --scheduler tcp://scheduler-host:8786   # on a Dask cluster
"""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "audit",
        help="check every action and every pot award",
        description=(
            "Replay every stud hand under a rule profile: check each action (turn order, "
            "bring-in, bet sizes, raise cap, all-ins) and recompute each pot, side pot, "
            "hi/lo half, odd chip and rake against what the site paid. A folder of tables "
            "written by 'histkit parse --audit', or the hand database (--db) imported with "
            "the audit, has no hands to replay: its stored audit is reported instead. Exit "
            "status: 0 no violation, 1 violations (or rejected hands) found, 2 usage or "
            "input error."
            " On folders of tables and the database, --site keeps only that site's hands "
            "(on hand histories it says how to read them)."
        ),
        epilog=EXAMPLES,
        formatter_class=ExamplesFormatter,
    )
    add_source_options(p)
    p.add_argument(
        "--profile",
        type=_profile,
        metavar="NAME|FILE",
        help="house rules to audit under: a site's (pokerstars, fulltilt, ...), casino "
        "(Robert's Rules), or a TOML file (default: each hand's own site's rules; hand "
        "histories only: a stored audit was made under each site's own)",
    )
    p.add_argument("--player", metavar="NAME", help="only hands this player sat in")
    add_filter_options(p, stakes=False)
    p.add_argument(
        "--format",
        choices=("text", "json", "csv"),
        default="text",
        help="text: a summary and each violation; json: counts, coverage and every record; "
        "csv: one row per violation (hand_id, code, severity, street, line, expected, "
        "reported, message, seq, caused_by, site, source_file: the file the line is in, "
        "caused_by_hand: the damaged hand before it a stack error follows from), "
        "a text cell that begins with = + - @ tab or CR getting a "
        "leading apostrophe so a spreadsheet shows it as text (default text)",
    )
    p.add_argument(
        "-o",
        "--output",
        type=path_text,
        metavar="FILE",
        help="write the report here (default stdout)",
    )
    p.add_argument(
        "--info",
        action="store_true",
        help="also list informational records (e.g. showdowns that cannot be checked)",
    )
    p.add_argument("--no-continuity", action="store_true", help="skip stack checks across hands")
    add_site_option(p)
    add_jobs_option(p)
    add_scheduler_option(p)
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p.set_defaults(run=run)


def _profile(text: str) -> str:
    """--profile: a profile's name or a TOML file; not empty, not a folder."""
    from pathlib import Path

    if not text.strip():
        raise argparse.ArgumentTypeError("an empty name; give a site's, casino, or a TOML file")
    if Path(text).is_dir():
        raise argparse.ArgumentTypeError(f"{text} is a folder; name a TOML file or a profile")
    return text


def run(args: argparse.Namespace) -> int:
    filters = filters_from(args, player=args.player)
    check_output_file(args.output)
    source = _source(args)
    client = check_scheduler(args) if source.kind == "text" else None
    try:
        return _audit(args, filters, source, client)
    finally:
        if client is not None:
            client.close()


def _source(args: argparse.Namespace) -> Source:
    """As `source_from`; hand histories at fsspec URLs (read on a cluster's workers, or
    here) are a source of their own kind's."""
    from histkit.sources import Source

    if args.db is None and any(isinstance(p, str) and "://" in p for p in args.paths):
        # (storage loads pyarrow: imported only where a path may be a URL, as the reader does)
        from histkit.storage import input_paths, is_url

        if any(is_url(p) for p in args.paths):
            try:
                return Source("text", tuple(input_paths(args.paths)))  # type: ignore[arg-type]
            except ValueError as e:
                raise UsageError(str(e)) from None
    source = source_from(args)
    if source.kind != "text" and args.scheduler:
        raise UsageError(
            f"--scheduler: {source.describe()} holds a stored audit, read here; give hand "
            "histories to replay them on the cluster"
        )
    return source


def _audit(args: argparse.Namespace, filters: Filters, source: Source, client: Any) -> int:
    from histkit.audit import audit_paths
    from histkit.rules import RuleProfile, load_profile
    from histkit.sources import record_filter

    jobs = check_jobs(args.jobs) if client is None else 0
    profile: RuleProfile | None = None
    if source.kind != "text":
        if args.profile:
            raise UsageError(
                f"--profile: {source.describe()} holds an audit made under each site's own "
                "rules; audit the hand histories to apply other rules"
            )
        report = _stored(source, filters)
    else:
        try:
            profile = load_profile(args.profile) if args.profile else None
            keep = record_filter(filters)
        except (ValueError, OSError) as e:
            raise UsageError(str(e)) from None
        size = 0 if args.quiet else input_bytes(source.paths)
        cluster_errors: tuple[type[Exception], ...] = ()
        if client is not None:  # (the cluster's module loads the table builder's pyarrow)
            from histkit.cluster import ClusterError

            cluster_errors = (ClusterError,)
        try:
            with progress_bar(enabled=not args.quiet, desc="auditing", total_bytes=size) as bar:
                report = audit_paths(
                    source.paths,
                    profile,
                    jobs=jobs,
                    continuity=not args.no_continuity,
                    site=args.site,
                    on_progress=bar.update,
                    keep=keep,
                    client=client,
                )
        except cluster_errors as e:
            raise UsageError(str(e)) from None
    if report.hands == 0 and not report.rejected:
        raise nothing_read(
            args,
            source.describe(),
            read=report.filtered_out if source.kind == "text" else None,
            skipped=report.skipped,
            unknown=len(report.unknown),
            unreadable=len(report.unreadable),
        )
    shown = report.violations if args.info else report.errors
    profile_name = profile.name if profile is not None else _site_rules(report.sites)
    if args.format == "json":
        text = json.dumps(report.to_json(include_info=args.info), indent=2) + "\n"
    elif args.format == "csv":
        text = _csv(report, shown)
    else:
        text = _text(report, shown, profile_name, args.info)
    if args.output:
        from histkit.atomic import atomic_write_text

        try:
            atomic_write_text(args.output, text)  # whole or not at all
        except OSError as e:
            raise UsageError(f"cannot write {args.output}: {e.strerror or e}") from None
        if args.format != "text":
            print(terminal_text(_verdict(report, profile_name)), file=sys.stderr)
    else:
        sys.stdout.write(text)
    return EXIT_FOUND if (report.errors or report.rejected) else EXIT_OK


def _stored(source: Source, filters: Filters) -> AuditReport:
    """The audit stored with folders of tables or in the database, filtered; a usage
    error when none was stored."""
    from histkit.audit import stored_report
    from histkit.sources import check_stored_audit, load, stored_audit

    names = ("hands", "errors", "awards", "violations", "duplicates")
    try:
        stored_audit(source)
        tables = load(source, filters=filters, audit=True, names=names)
        check_stored_audit(source, tables)
    except ValueError as e:
        raise UsageError(str(e)) from None
    return stored_report(tables, source=source.describe())


def _csv(report: AuditReport, violations: tuple[Violation, ...]) -> str:
    """Excel's CSV; text cells starting like a formula get an apostrophe (`CsvWriter`).
    Each row names its hand's site and file: hand ids alone do not say which site's
    hand, nor which of several files `line` is in."""
    buf = io.StringIO()
    w = CsvWriter(buf, csv.excel)
    w.writerow(FIELDS)
    for v in violations:
        w.writerow(
            [
                v.hand_id,
                v.code,
                v.severity,
                "" if v.street is None else int(v.street),
                v.line,
                "" if v.expected is None else v.expected,
                "" if v.reported is None else v.reported,
                v.message,
                "" if v.seq is None else v.seq,
                "" if v.caused_by is None else v.caused_by,
                report.site_of.get(v.hand_id, ""),
                report.source_file(v.hand_id) or "",
                v.caused_by_hand or "",
            ]
        )
    return buf.getvalue()


def _finding(v: Violation, lead: str) -> list[str]:
    """One finding as text: its line, and what was expected and reported."""
    street = f"street {int(v.street)}, " if v.street is not None else ""
    out = [f"{lead}[{v.severity}] {v.code} ({street}line {v.line}): {v.message}"]
    if v.expected is not None or v.reported is not None:
        out.append(" " * (len(lead) + 4) + f"expected {v.expected}, reported {v.reported}")
    return out


def _site_rules(sites: tuple[str, ...]) -> str:
    """The house rules each hand was audited under, when every site used its own."""
    from histkit.dialects import site_profile

    names = sorted({site_profile(s).name for s in sites})
    return ", ".join(names) if names else "each site's own"


def _verdict(report: AuditReport, profile: str) -> str:
    errors = report.errors
    unread = (
        f"; {plural(len(report.unreadable), 'file')} could not be read" if report.unreadable else ""
    )
    if not errors and not report.rejected:
        return (
            f"OK: {plural(report.hands, 'hand')} audited under '{profile}', no violation{unread}."
        )
    parts = []
    if errors:
        hands = len({v.hand_id for v in errors})
        roots = [v for v in errors if not v.is_follow_on]
        codes = ", ".join(f"{c} {n}" for c, n in Counter(str(v.code) for v in roots).most_common())
        found = f"{plural(len(errors), 'violation')} in {plural(hands, 'hand')}"
        if len(roots) < len(errors):  # say how many problems the findings come to
            found += (
                f": {plural(len(roots), 'problem')} and "
                f"{plural(len(errors) - len(roots), 'follow-on finding')}"
            )
            after = sum(1 for v in errors if v.caused_by_hand is not None)
            if after:  # the stacks a damaged hand left to the next at its table
                found += f", {after:,} of them in the next hand, off a damaged hand's stacks"
        parts.append(f"{found} ({codes})")
    if report.unread_hands:
        parts.append(
            f"{plural(report.unread_hands, 'hand')} read without a line not understood "
            "(LINE_NOT_UNDERSTOOD, LINE_MISSING)"
        )
    hands = sum(1 for r in report.rejected if r.about_hand)
    if hands:
        parts.append(f"{plural(hands, 'hand')} rejected by the parser")
    if hands < len(report.rejected):  # text between hands, damage outside them: no hands
        others = plural(len(report.rejected) - hands, "stretch", "stretches")
        parts.append(f"{others} of the input outside any hand not read")
    return (
        f"FAIL: {plural(report.hands, 'hand')} audited under '{profile}': "
        + "; ".join(parts)
        + f"{unread}."
    )


def _text(
    report: AuditReport, shown: tuple[Violation, ...], profile: str, info: bool = False
) -> str:
    out: list[str] = []
    for hand_id, group in groupby(shown, key=lambda v: v.hand_id):
        vs = list(group)
        roots = sum(1 for v in vs if v.is_root)
        follow = [v for v in vs if v.is_follow_on]
        counts = (
            f": {plural(roots, 'problem')}, {plural(len(follow), 'follow-on finding')}"
            if follow
            else ""
        )
        out.append(f"Hand #{hand_id}  ({report.source_of.get(hand_id, '?')}){counts}")
        under: dict[int, list[Violation]] = {}
        for v in follow:
            if v.caused_by is not None:
                under.setdefault(v.caused_by, []).append(v)
        for v in vs:
            if v.caused_by is not None and v.caused_by in {x.seq for x in vs}:
                continue  # listed under the finding it follows from
            # a stack error after a damaged hand follows from that hand (its message says so)
            out += _finding(v, "  " if v.caused_by_hand is None else "  -> ")
            for w in under.get(v.seq, ()) if v.seq is not None else ():
                out += _finding(w, "    -> ")
        out.append("")
    for r in report.rejected:
        where = f"{r.source_file}:{r.line}" if r.line else r.source_file
        verdict = "Rejected" if r.about_hand else "Not part of any hand:"
        out.append(
            f"{verdict} {where}" + (f" hand #{r.hand_id}" if r.hand_id else "") + f": {r.reason}"
        )
    for r in report.unreadable:  # files, not hands
        where = f"{r.source_file}:{r.line}" if r.line else r.source_file
        why = r.reason.removeprefix("unreadable file: ").removeprefix("cannot read file: ")
        out.append(f"Unreadable file {where}: {why}")
    if report.rejected or report.unreadable:
        out.append("")
    if report.skipped:
        out.append(f"({plural(report.skipped, 'hand')} of other games skipped.)")
    if report.duplicates.copies:
        out.append(report.duplicates.text())
    if info:
        for hand_id, where, what in report.partly_checked:
            out.append(f"Hand #{hand_id} ({where}) checked in part: not {'; not '.join(what)}.")
    out.append(report.checked_text())
    out.append(_verdict(report, profile))
    return terminal_lines(out)
