"""`histkit parse PATH... -o OUTDIR`: hand histories to Parquet tables."""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from typing import Any

from histkit.commands._options import (
    EXIT_FOUND,
    EXIT_OK,
    ExamplesFormatter,
    UsageError,
    add_jobs_option,
    add_scheduler_option,
    add_site_option,
    check_jobs,
    check_scheduler,
    check_site,
    input_bytes,
    nothing_read,
    path_text,
    plural,
    progress_bar,
)
from histkit.textsafe import terminal_lines

EXAMPLES = """\
examples:
  histkit parse sessions/ -o out/                     # hands, seats, actions, cards, errors
  histkit parse sessions/ -o out/ --audit             # and the audit's awards and violations
  histkit parse sessions/ -o warehouse/ --partition-by game,date --jobs 4
  histkit parse HH20240612.txt --site pokerstars -o out/ --strict   # exit 1 on a rejected hand
  histkit parse /shared/hands/ -o /shared/out/ --scheduler tcp://scheduler-host:8786
  histkit parse s3://bucket/hands/ -o s3://bucket/tables/ --partition-by game,date \\
      --scheduler tcp://scheduler-host:8786   # each task writes its own part files
"""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "parse",
        help="parse hand histories into Parquet tables",
        description=(
            "Parse hand-history files or folders (recursively) and write hands, seats, "
            "actions, cards and errors as Parquet files into OUTDIR. Hands of other games "
            "are skipped; stud hands that cannot be parsed are rejected and listed in "
            "errors.parquet with file, line and reason. The tables appear in OUTDIR only "
            "when the run completes, all together, with the completion record "
            "OUTDIR/_histkit.json that readers require; an earlier result in OUTDIR is "
            "replaced whole, and a run that fails or is interrupted leaves it as it was. "
            "A hand read more than once (a file given twice) is in the tables once per copy "
            "read, with its own source file and line, and the summary says how many; the "
            "commands that read the tables count it once."
        ),
        epilog=EXAMPLES,
        formatter_class=ExamplesFormatter,
    )
    p.add_argument(
        "paths", nargs="+", type=path_text, metavar="PATH", help="hand-history files or folders"
    )
    p.add_argument(
        "-o",
        "--output",
        required=True,
        type=path_text,
        metavar="OUTDIR",
        help="output folder (or fsspec URL)",
    )
    add_site_option(p)
    p.add_argument(
        "--batch-size", type=int, default=5000, help="hands per Parquet row group (default 5000)"
    )
    p.add_argument(
        "--audit",
        action="store_true",
        help="also replay every hand and write awards.parquet and violations.parquet",
    )
    p.add_argument(
        "--partition-by",
        type=_partition_keys,
        metavar="KEYS",
        help="write partitioned datasets <OUTDIR>/<table>/k=v/... by these comma-separated "
        "keys: game, date (UTC day), site, table (e.g. --partition-by game,date)",
    )
    p.add_argument(
        "--overwrite",
        action="store_true",
        help="accepted for older scripts; a result already in OUTDIR is always replaced whole",
    )
    add_jobs_option(p)
    add_scheduler_option(p, output=True)
    p.add_argument(
        "--strict",
        action="store_true",
        help="reject a hand with any line not understood (else it is read without the line, "
        "and marked); exit 1 if any hand was rejected",
    )
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar, no summary")
    p.set_defaults(run=_run_parse)


def _run_parse(args: argparse.Namespace) -> int:
    from histkit.cluster import ClusterError
    from histkit.storage import input_paths
    from histkit.warehouse import WarehouseError

    try:
        paths = input_paths(args.paths)
    except WarehouseError as e:
        raise UsageError(str(e)) from None
    if args.batch_size < 1:
        raise UsageError("--batch-size must be at least 1")
    client = check_scheduler(args)
    try:
        return _parse(args, paths, client)
    except ClusterError as e:
        raise UsageError(str(e)) from None
    finally:
        if client is not None:
            client.close()


def _parse(args: argparse.Namespace, paths: list[Any], client: Any) -> int:
    from histkit.storage import open_sink
    from histkit.warehouse import WarehouseError

    jobs = check_jobs(args.jobs) if client is None else 0
    files: dict[str, set[str]] = {}  # file -> the sites of its hands
    sites: Counter[tuple[str, str]] = Counter()
    skipped: Counter[str] = Counter()
    rejected: list[Any] = []
    unread: list[tuple[str, int, str]] = []
    unknown: list[Any] = []
    unreadable: list[Any] = []  # files that could not be read (counted as files, not hands)
    copies = _Copies()
    try:
        sink = open_sink(
            args.output,
            batch_size=args.batch_size,
            audit=args.audit,
            partition_by=parse_partition(args.partition_by),
        )
    except WarehouseError as e:
        raise UsageError(str(e)) from None
    except OSError as e:
        raise UsageError(f"cannot write to {args.output}: {e.strerror or e}") from None
    try:
        # the tables become OUTDIR's result when the block ends normally, all together;
        # an exception or Ctrl-C leaves OUTDIR as it was
        size = 0 if args.quiet else input_bytes(paths)
        with sink, progress_bar(enabled=not args.quiet, desc="parsing", total_bytes=size) as bar:
            for r in _results(args, paths, sink, jobs, client):
                if r.tables is not None:
                    sink.add_tables(r.tables)
                    copies.add(r.tables.hands)
                found = files.setdefault(r.source, set())
                found.update(site for site, _ in r.sites)
                sites.update(r.sites)
                skipped.update(r.skipped)
                rejected.extend(x for x in r.rejected if x.kind != "unreadable")
                unreadable.extend(x for x in r.rejected if x.kind == "unreadable")
                unknown.extend(r.unknown)
                unread.extend(r.unread)
                bar.update(r.hands, r.nbytes)
            if not sites and not rejected:  # nothing to write: OUTDIR is left as it was
                raise nothing_read(
                    args,
                    ", ".join(args.paths),
                    skipped=sum(skipped.values()),
                    unknown=len(unknown),
                    unreadable=len(unreadable),
                )
    except WarehouseError as e:
        raise UsageError(str(e)) from None
    except OSError as e:
        from histkit.atomic import no_space

        if not no_space(e):
            raise
        raise UsageError(
            f"cannot write {args.output}: no space left on the disk; it holds what it held "
            "before this run"
        ) from None
    if not args.quiet:
        summary = _parse_summary(
            files, sites, skipped, rejected, unknown, unreadable, args.output, sink.counts
        )
        lines = [
            *summary,
            *_unread_said(unread),
            *copies.said(),
            *_replaced(sink.replaced, args.output),
        ]
        sys.stdout.write(terminal_lines(lines))
    return EXIT_FOUND if (args.strict and rejected) else EXIT_OK


def _results(args: argparse.Namespace, paths: list[Any], sink: Any, jobs: int, client: Any) -> Any:
    """Each chunk's result, from local processes or the cluster (where the tasks write a
    partitioned result's part files themselves)."""
    site = check_site(args.site)
    if client is None:
        from histkit.parallel import run

        return run(paths, jobs=jobs, site=site, audit=args.audit, strict=args.strict)
    from histkit.cluster import PartTarget
    from histkit.cluster import run as on_cluster

    parts = None
    if sink.partition_by:
        parts = PartTarget(sink.parts_location(), sink.partition_by, sink.compression)
    return on_cluster(
        paths,
        client=client,
        site=site,
        audit=args.audit,
        parts=parts,
        on_written=sink.add_written,
        strict=args.strict,
    )


class _Copies:
    """Hands read more than once (the same site and hand id: a file given twice, or in two
    folders). The tables keep every copy as read, each with its own source file and line
    (a cluster's tasks write their part files themselves, so only the summary can say
    it); `stats`, `report`, `audit` and `import` count a hand once. Kept as a hash of each
    key, to stay small on a large input."""

    def __init__(self) -> None:
        self.seen: set[int] = set()
        self.n = 0
        self.example: str | None = None

    def add(self, hands: Any) -> None:
        for site, hand_id in zip(
            hands["site"].to_pylist(), hands["hand_id"].to_pylist(), strict=True
        ):
            key = hash((site, hand_id))
            if key in self.seen:
                self.n += 1
                self.example = self.example or hand_id
            else:
                self.seen.add(key)

    def said(self) -> list[str]:
        if not self.n:
            return []
        return [
            f"Read {plural(self.n, 'hand')} more than once (the same site and hand id, e.g. "
            f"#{self.example}): every copy is in the tables, as read; stats, report, audit "
            "and import count each hand once."
        ]


def _replaced(held: str | None, outdir: str) -> list[str]:
    """Said, not silent: what the run replaced in OUTDIR."""
    if held == "complete":
        return [f"Replaced the earlier result in {outdir}/."]
    if held == "incomplete":
        return [f"Replaced the tables of an earlier run in {outdir}/ that did not complete."]
    return []


def _partition_keys(text: str) -> str:
    """--partition-by KEYS: one or more of the keys, each once (said before any work)."""
    from histkit.warehouse import PARTITION_KEYS

    keys = [k.strip() for k in text.split(",")]
    choose = f"choose from {', '.join(PARTITION_KEYS)}"
    if not any(keys):
        raise argparse.ArgumentTypeError(f"no keys; {choose} (e.g. game,date)")
    if "" in keys:
        raise argparse.ArgumentTypeError(f"an empty key in {text!r}; {choose}")
    unknown = [k for k in keys if k not in PARTITION_KEYS]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown key {', '.join(map(repr, unknown))}; {choose}")
    twice = sorted({k for k in keys if keys.count(k) > 1})
    if twice:
        raise argparse.ArgumentTypeError(f"{', '.join(twice)} given twice; give each key once")
    return text


def parse_partition(text: str | None) -> tuple[str, ...]:
    return tuple(k.strip() for k in text.split(",") if k.strip()) if text else ()


def _listed(rejected: list[Any]) -> list[str]:
    """The first 20 rejections, one line each."""
    lines = []
    for r in rejected[:20]:
        where = f"{r.source_file}:{r.line}" if r.line else r.source_file
        hid = f" hand #{r.hand_id}" if r.hand_id else ""
        lines.append(f"  {where}{hid}: {r.reason}")
    if len(rejected) > 20:
        lines.append(f"  ... and {len(rejected) - 20} more (see errors.parquet)")
    return lines


def _unread_said(unread: list[tuple[str, int, str]]) -> list[str]:
    """The hands read without a line (`Hand.gaps`), after the summary: none said nothing."""
    if not unread:
        return []
    lines = [
        f"Kept {plural(len(unread), 'hand')} read without a line not understood "
        "(hands.unread_lines; the audit names each line; --strict rejects such hands):"
    ]
    lines.extend(f"  {f}:{line} hand #{hid}" for f, line, hid in unread[:20])
    if len(unread) > 20:
        lines.append(f"  ... and {len(unread) - 20} more")
    return lines


def _parse_summary(
    files: dict[str, set[str]],
    sites: Counter[tuple[str, str]],
    skipped: Counter[str],
    rejected: list[Any],
    unknown: list[Any],
    unreadable: list[Any],
    outdir: str,
    counts: dict[str, int],
) -> list[str]:
    """The summary's lines."""
    by_site: Counter[str] = Counter()
    for found in files.values():
        for site in found:
            by_site[site] += 1
    detail = ", ".join(f"{site} {n:,}" for site, n in sorted(by_site.items()))
    others = len(files) - sum(1 for found in files.values() if found)
    tail = []
    if detail:
        tail.append(detail)
    if others:
        tail.append(f"{others:,} with no stud hand")
    lines = [f"Read {plural(len(files), 'file')}" + (f": {'; '.join(tail)}." if tail else ".")]
    total = sum(sites.values())
    lines.append(f"Parsed {plural(total, 'stud hand')}" + (":" if total else "."))
    for site in sorted({s for s, _ in sites}):
        games = ", ".join(f"{g} {n:,}" for (s, g), n in sorted(sites.items()) if s == site)
        lines.append(f"  {site}: {games}")
    if skipped:
        detail = ", ".join(f"{g} {n:,}" for g, n in skipped.most_common())
        lines.append(f"Skipped {plural(sum(skipped.values()), 'hand')} of other games: {detail}.")
    else:
        lines.append("Skipped 0 hands of other games.")
    if unknown:
        lines.append(f"Not hand histories of a known site: {plural(len(unknown), 'file')}:")
        lines.extend(f"  {u.source_file}: {u.reason}" for u in unknown[:20])
        if len(unknown) > 20:
            lines.append(f"  ... and {len(unknown) - 20} more (see errors.parquet)")
    if unreadable:
        lines.append(f"Could not read {plural(len(unreadable), 'file')}:")
        lines.extend(f"  {u.source_file}: {u.reason}" for u in unreadable[:20])
        if len(unreadable) > 20:
            lines.append(f"  ... and {len(unreadable) - 20} more (see errors.parquet)")
    by_hand = [r for r in rejected if r.about_hand]
    lines.append(f"Rejected {plural(len(by_hand), 'hand')}" + (":" if by_hand else "."))
    lines += _listed(by_hand)
    outside = [r for r in rejected if not r.about_hand]  # text between hands, an empty file
    if outside:
        lines.append(f"Not part of any hand: {plural(len(outside), 'stretch', 'stretches')}:")
        lines += _listed(outside)
    tables = ", ".join(f"{name} {n:,} rows" for name, n in counts.items())
    lines.append(f"Wrote {outdir}/: {tables}.")
    return lines
