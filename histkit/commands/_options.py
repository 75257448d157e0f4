"""What the commands share: the usage error and exit codes, options (sources, filters,
sites, jobs, games, output files) with their checks, help with examples, and the progress
bar. Every option value is checked here, before any work, so a mistake is one line naming
the fix (exit 2), never a traceback after minutes of parsing.

(Not a command: `histkit.cli` skips modules whose names start with "_".)
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from histkit.words import plural

if TYPE_CHECKING:
    from histkit.selection import Filters
    from histkit.sources import Source

__all__ = [
    "EXIT_FOUND",
    "EXIT_INTERNAL",
    "EXIT_OK",
    "EXIT_USAGE",
    "GAMES",
    "GAME_HELP",
    "ExamplesFormatter",
    "UsageError",
    "add_filter_options",
    "add_jobs_option",
    "add_scheduler_option",
    "add_site_option",
    "add_source_options",
    "check_jobs",
    "check_output_file",
    "check_scheduler",
    "check_site",
    "check_stakes",
    "existing_paths",
    "filters_from",
    "filters_given",
    "nothing_read",
    "game_option",
    "path_text",
    "input_bytes",
    "accounting_line",
    "add_alias_option",
    "aliases_from",
    "plural",
    "progress_bar",
    "require_hands",
    "source_from",
]

EXIT_OK, EXIT_FOUND, EXIT_USAGE = 0, 1, 2
EXIT_INTERNAL = 3  # a bug in histkit: one line, the traceback saved (histkit.cli)


class UsageError(Exception):
    """A problem with the command line or its inputs: printed without a traceback, exit 2."""


# ------------------------------------------------------------------------- help


class ExamplesFormatter(argparse.HelpFormatter):
    """Wraps the description as usual but prints an "examples:" epilog line by line."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if text.startswith("examples:"):
            return "".join(indent + line for line in text.splitlines(keepends=True))
        return super()._fill_text(text, width, indent)


# ------------------------------------------------------------------------ games

#: Every spelling a command accepts for a game (lower case), one table for all commands.
GAMES: dict[str, str] = {
    "stud": "stud",
    "stud_hi": "stud",
    "stud-hi": "stud",
    "7stud": "stud",
    "stud_hilo": "stud_hilo",
    "stud-hilo": "stud_hilo",
    "hilo": "stud_hilo",
    "stud8": "stud_hilo",
    "stud/8": "stud_hilo",
    "razz": "razz",
}
GAME_HELP = "stud, stud_hilo (also hilo, stud8), razz"


def game_option(text: str) -> str:
    """A --game value in any accepted spelling, as the tables name the game."""
    game = GAMES.get(text.strip().lower())
    if game is None:
        raise argparse.ArgumentTypeError(f"unknown game {text!r}: choose {GAME_HELP}")
    return game


# ------------------------------------------------------------------------ inputs


def path_text(text: str) -> str:
    """A PATH, -o or --db value: not empty (an empty path is the working folder, which
    a command would read, or write its tables into, unasked)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("an empty path; name a file or folder")
    return text


def existing_paths(paths: list[str]) -> list[Path]:
    missing = [p for p in paths if not Path(p).exists()]
    if missing:
        raise UsageError("no such file or folder: " + ", ".join(missing))
    return [Path(p) for p in paths]


def add_source_options(p: argparse.ArgumentParser) -> None:
    """PATHs (optional with --db) and `--db [FILE]`, which `stats`, `report` and `audit`
    share."""
    p.add_argument(
        "paths",
        nargs="*",
        type=path_text,
        metavar="PATH",
        help="hand-history files or folders, or folders of tables written by histkit parse "
        "(not both kinds at once)",
    )
    p.add_argument(
        "--db",
        nargs="?",
        const=True,
        default=None,
        type=path_text,
        metavar="FILE",
        help="read the hand database instead of PATHs (histkit import writes it); FILE "
        "defaults to $HISTKIT_DB, else hands.duckdb in the user data folder",
    )


def source_from(args: argparse.Namespace) -> Source:
    """What PATHs / --db name, checked before any work: a usage error when nothing, or
    two kinds, or something that does not exist is given."""
    from histkit.sources import SourceError, resolve

    try:
        return resolve(args.paths, db=args.db)
    except SourceError as e:
        raise UsageError(str(e)) from None


def check_output_file(path: str | None, flag: str = "-o") -> None:
    """A usage error, before any work, when `path` cannot be written: a folder, or in a
    folder that does not exist (None: no output file asked for)."""
    if path is None:
        return
    target = Path(path)
    if target.is_dir():
        raise UsageError(f"{flag} {path}: is a folder; name a file")
    folder = target.parent
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist"
        raise UsageError(f"{flag} {path}: the folder {folder} {what}; create it first")


# ------------------------------------------------------------------------ filters


def add_filter_options(p: argparse.ArgumentParser, *, stakes: bool = True) -> None:
    """The hand filters `stats`, `report` and `audit` share; --site (added with the site
    option) filters too."""
    p.add_argument("--game", type=game_option, metavar="GAME", help=f"only this game: {GAME_HELP}")
    if stakes:
        p.add_argument(
            "--stakes",
            metavar="S",
            help='only these stakes, as --by stakes prints them ("$0.04/$0.08 USD", '
            '"$0.04/$0.08", "0.04/0.08"; a tournament level "100/200")',
        )
    p.add_argument("--table", metavar="NAME", help="only this table")
    p.add_argument(
        "--since",
        metavar="DAY",
        help="hands from this UTC day on (YYYY-MM-DD; or a UTC time YYYY-MM-DDTHH:MM)",
    )
    p.add_argument(
        "--until",
        metavar="DAY",
        help="hands up to this UTC day, that day included (YYYY-MM-DD; or a UTC time)",
    )
    money = p.add_mutually_exclusive_group()
    money.add_argument(
        "--cash",
        dest="tournament",
        action="store_const",
        const=False,
        help="only cash-game hands (play money included)",
    )
    money.add_argument(
        "--tournament",
        dest="tournament",
        action="store_const",
        const=True,
        help="only tournament hands",
    )


def filters_from(args: argparse.Namespace, *, player: str | None) -> Filters:
    """`Filters` from the options `add_filter_options` (and the site option) added: a
    date in the wrong form or an unknown site is a usage error, said before any work."""
    from histkit.selection import Filters
    from histkit.sources import SourceError, day_range, parse_day

    for flag, what in (("player", "player"), ("table", "table"), ("stakes", "stakes")):
        value = getattr(args, flag, None)
        if value is not None and not value.strip():
            raise UsageError(f"--{flag}: an empty value; name the {what} or leave it out")
    check_stakes(getattr(args, "stakes", None))
    try:
        since, until = day_range(
            None if args.since is None else parse_day(args.since, "--since"),
            None if args.until is None else parse_day(args.until, "--until"),
        )
    except SourceError as e:
        raise UsageError(str(e)) from None
    return Filters(
        player=player,
        game=args.game,
        stakes=getattr(args, "stakes", None),
        table=args.table,
        since=since,
        until=until,
        site=_site_of(check_site(args.site)),
        tournament=args.tournament,
    )


def check_stakes(stakes: str | None) -> None:
    """A usage error for a --stakes value in no form of stakes (it would match nothing,
    and say so only after the input is read)."""
    from histkit.money import STAKES_FORMS, is_stakes

    if stakes is not None and not is_stakes(stakes):
        raise UsageError(
            f"--stakes {stakes!r}: not stakes; write them as --by stakes prints them: "
            f"{STAKES_FORMS}"
        )


def _site_of(dialect: str | None) -> str | None:
    """The site a --site dialect's hands carry (`wpn_2016` reads hands of `wpn`)."""
    if dialect is None:
        return None
    from histkit.dialects import get_dialect

    return str(get_dialect(dialect).site or dialect)


# ------------------------------------------------------------------ nothing to do


def filters_given(args: argparse.Namespace) -> str:
    """The hand filters on the command line, as typed ("" when none)."""
    parts = []
    for flag in ("player", "site", "game", "stakes", "table", "since", "until"):
        value = getattr(args, flag, None)
        if value:
            parts.append(f"--{flag} {value}")
    tournament = getattr(args, "tournament", None)
    if tournament is not None:
        parts.append("--tournament" if tournament else "--cash")
    return " ".join(parts)


def nothing_read(
    args: argparse.Namespace,
    where: str,
    *,
    read: int | None = 0,
    skipped: int = 0,
    unknown: int = 0,
    unreadable: int = 0,
) -> UsageError:
    """The one rule every command follows when there is nothing to work on: an input
    error (exit 2) saying why. `read`: stud hands read before the filters (None: not
    known, as when the filters ran in the database); with filters given and hands read,
    the filters matched none. The other counts say what the input held instead."""
    site = getattr(args, "site", None)
    if site and unknown and not read:
        return _not_of_site(args, site, where, unknown)
    given = filters_given(args)
    if given and read is None:
        return UsageError(f"no hands in {where} match {given}")
    if given and read:
        return UsageError(f"no hands match {given} ({plural(read, 'stud hand')} in {where})")
    held = []
    if skipped:
        held.append(f"{plural(skipped, 'hand')} of other games, skipped")
    if unknown:
        held.append(f"{plural(unknown, 'file')} of no known site (or empty)")
    if unreadable:
        held.append(f"{plural(unreadable, 'file')} that could not be read")
    if not held:
        from histkit.reader import folder_contents

        return UsageError(f"no hand histories in {where} (read in folders: {folder_contents()})")
    return UsageError(f"no stud hands in {where}: only " + "; ".join(held))


def _not_of_site(args: argparse.Namespace, site: str, where: str, unknown: int) -> UsageError:
    """Nothing read as the site --site names: what the files look like instead (detected
    as without --site), and how to read them."""
    from histkit.dialects import get_dialect
    from histkit.reader import sniff_sites

    title = get_dialect(site).title or site
    paths = [p for p in getattr(args, "paths", None) or () if "://" not in str(p)]
    looks = [n for n in sniff_sites(paths) if n != site]
    if unknown == 1:
        said, they, empty = f"it is not a {title} hand history", "it looks", "is"
    else:
        said, they, empty = f"{unknown:,} files are not {title} hand histories", "they look", "are"
    if not looks:
        return UsageError(f"no stud hands in {where}: {said} (--site {site}) or {empty} empty")
    named = ", ".join(f"{get_dialect(n).title} (--site {n})" for n in looks)
    return UsageError(
        f"no stud hands in {where}: {said} (--site {site}); {they} like {named}: leave "
        "--site out to detect each hand's site"
    )


def require_hands(
    args: argparse.Namespace, source: Source, tables: dict[str, Any] | int, counts: dict[str, Any]
) -> None:
    """Nothing when `tables` hold hands (or are a count of hands above 0); else the usage
    error saying why there are none (`counts` as `histkit.sources.load` fills it): a player
    no hand has, filters that match nothing, or an input with no stud hands at all."""
    if isinstance(tables, int):
        if tables:
            return
    else:
        hands = tables.get("hands")
        if hands is not None and hands.num_rows:
            return
    from histkit.sources import unknown_player

    where = source.describe()
    if "players" in counts:
        raise UsageError(unknown_player(args.player, counts["players"], where))
    raise nothing_read(
        args,
        where,
        read=counts.get("read", 0),
        skipped=counts.get("skipped", 0),
        unknown=counts.get("unknown", 0),
        unreadable=counts.get("unreadable", 0),
    )


# ------------------------------------------------------------------ sites and jobs


def add_jobs_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "-j",
        "--jobs",
        type=int,
        default=None,
        metavar="N",
        help="worker processes (default: the number of cores); results are the same, in "
        "input order, for any N",
    )


def add_site_option(p: argparse.ArgumentParser) -> None:
    """`--site NAME`: read every file as that site's (default: detect each hand's site)."""
    from histkit.dialects import get_dialect, known_sites

    sites = ", ".join(f"{n} ({get_dialect(n).title})" for n in known_sites())
    p.add_argument(
        "--site",
        "--dialect",
        dest="site",
        metavar="NAME",
        help=f"read every hand as this site's instead of detecting each hand's site: {sites}",
    )


def check_site(site: str | None) -> str | None:
    """The --site value, or a usage error naming the known sites."""
    if site is None:
        return None
    from histkit.dialects import known_sites

    if site not in known_sites():
        raise UsageError(f"--site: unknown site {site!r} (known: {', '.join(known_sites())})")
    return site


def add_alias_option(p: argparse.ArgumentParser) -> None:
    """`--alias NAME=SITE:NAME,SITE:NAME`: one player under several sites' names."""
    p.add_argument(
        "--alias",
        action="append",
        default=[],
        metavar="NAME=SITE:NAME,...",
        help="count these sites' players as one, called NAME (a player is a name at a "
        "site: the same name at two sites is two players unless joined), e.g. --alias "
        "Hero=pokerstars:Hero,wpn:Hero2; repeat for more",
    )


def aliases_from(values: Iterable[str]) -> dict[str, list[tuple[str, str]]]:
    """The --alias values as {name: [(site, name), ...]}, or a usage error saying the form."""
    from histkit.dialects import known_sites

    out: dict[str, list[tuple[str, str]]] = {}
    sites = known_sites()
    for value in values:
        alias, eq, members = value.partition("=")
        pairs = [m.strip().partition(":") for m in members.split(",")] if eq else []
        if not alias.strip() or not pairs or any(not c or not n for _, c, n in pairs):
            raise UsageError(
                f"--alias {value!r}: write NAME=SITE:NAME,SITE:NAME (e.g. "
                "Hero=pokerstars:Hero,wpn:Hero2)"
            )
        bad = sorted({site for site, _, _ in pairs if site not in sites})
        if bad:
            raise UsageError(
                f"--alias {value!r}: unknown site {', '.join(map(repr, bad))} "
                f"(known: {', '.join(sites)})"
            )
        out.setdefault(alias.strip(), []).extend((site, name) for site, _, name in pairs)
    return out


JOBS_PER_CORE = 4  # --jobs above this many per core is refused


def check_jobs(jobs: int | None) -> int:
    from histkit.parallel import default_jobs

    if jobs is None:
        return default_jobs()
    if jobs < 1:
        raise UsageError("--jobs must be at least 1")
    cores = default_jobs()
    most = max(JOBS_PER_CORE * cores, 8)
    if jobs > most:  # each is a process started at once: thousands would stall the machine
        raise UsageError(
            f"--jobs {jobs:,} is more worker processes than this machine runs well: at most "
            f"{most} ({plural(cores, 'core')} here; results are the same for any N)"
        )
    return jobs


SCHEDULER_ENV = "HISTKIT_SCHEDULER"


def add_scheduler_option(p: argparse.ArgumentParser, *, output: bool = False) -> None:
    """`--scheduler ADDRESS`: run on a Dask cluster instead of local worker processes
    (`output`: -o may be a URL too)."""
    where = "Inputs and -o" if output else "Inputs"
    p.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run on the Dask cluster of this scheduler instead of local processes: "
        "tcp://host:8786 or a scheduler file (default: $HISTKIT_SCHEDULER, unless --jobs is "
        f"given); results are the same as a local run's. {where} may be fsspec URLs "
        "(s3://bucket/hands/) that every worker reads. Needs pip install 'histkit[dask]'",
    )


def check_scheduler(args: argparse.Namespace) -> Any:
    """A client of the --scheduler (or $HISTKIT_SCHEDULER) cluster, checked before any
    work, or None to run locally; a usage error for an address given with --jobs, for
    a scheduler that cannot be reached, or without Dask installed."""
    address, where = args.scheduler, "--scheduler"
    if address is not None and args.jobs is not None:
        raise UsageError("give --scheduler or --jobs, not both (--jobs runs local processes)")
    if address is None and args.jobs is None:
        address, where = os.environ.get(SCHEDULER_ENV, "").strip() or None, SCHEDULER_ENV
    if address is None:
        return None
    from histkit.cluster import ClusterError, connect

    try:
        return connect(address)
    except ClusterError as e:
        raise UsageError(f"{where}: {e}") from None


# ------------------------------------------------------------------------ progress


def input_bytes(paths: Iterable[str | Path]) -> int:
    """The size of the hand-history files the paths name (what a progress bar's share
    is of); 0 when it cannot be told."""
    from histkit.reader import iter_files

    total = 0
    try:
        for f in iter_files(paths):
            with contextlib.suppress(OSError):
                total += os.stat(f).st_size
    except OSError:
        return 0
    return total


class _Bar:
    """tqdm on stderr when it is a terminal. With the input's size in bytes the bar shows
    the share read and the time left (each piece of work reports its hands and bytes);
    with a number of hands to make (`total`), the share made and the time left; with
    neither, a count of hands."""

    def __init__(self, enabled: bool, desc: str, unit: str, total_bytes: int, total: int) -> None:
        self._bar: Any = None
        self._by_bytes = False
        self.hands = 0
        self.unit = unit
        self.desc = desc
        if enabled and sys.stderr.isatty():
            self._open(total_bytes, total)

    def _open(self, total_bytes: int, total: int) -> None:
        from tqdm import tqdm

        shown: dict[str, Any] = {"desc": self.desc, "file": sys.stderr, "leave": False}
        if total_bytes > 0:
            shown.update(total=total_bytes, unit="B", unit_scale=True, unit_divisor=1024)
        else:
            shown.update(total=total or None, unit=self.unit, unit_scale=True)
        self._bar = tqdm(**shown)
        self._by_bytes = total_bytes > 0

    def size(self, total_bytes: int) -> None:
        """The input's size in bytes, known only once the work has begun (what an import
        will read): a bar that has counted nothing yet shows the share from now on."""
        if self._bar is None or self._by_bytes or total_bytes <= 0 or self.hands:
            return
        self._bar.close()
        self._open(total_bytes, 0)

    def update(self, n: int, nbytes: int = 0) -> None:
        """`n` more hands done, `nbytes` more bytes of input read."""
        self.hands += n
        if self._bar is None:
            return
        if self._by_bytes:
            left = self._bar.total - self._bar.n
            self._bar.update(max(0, min(nbytes, left)))
            self._bar.set_postfix_str(f"{self.hands:,} {self.unit}s", refresh=False)
        else:
            self._bar.update(n)

    def __enter__(self) -> _Bar:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.close()


def progress_bar(
    *, enabled: bool, desc: str, unit: str = "hand", total_bytes: int = 0, total: int = 0
) -> _Bar:
    """A progress bar on stderr when it is a terminal; `.update(hands, nbytes)` as work
    ends (`total_bytes`: the input's size, for the share done and the time left; `total`:
    else the number of hands the work makes, for the same)."""
    return _Bar(enabled, desc, unit, total_bytes, total)


def accounting_line(counts: dict[str, Any], *, counted: int) -> str:
    """What a reading command made of its input, in one line, as `parse` counts it: hands
    read (a copy of a hand read before counted once), skipped (other games), rejected,
    files unreadable or of no known site; then the hands counted in the figures and why
    any other is left out (the filters, no player dealt in, or copies of a hand in a
    folder of tables that differ: `histkit.firstcopy`). `counts` as
    `histkit.workspace.open_source` fills it ("stored": the database's hands; "kept": the
    hands read, each once)."""
    stored = counts.get("stored")
    read = int(counts.get("read") or 0) if stored is None else int(stored)
    copies = read - int(counts.get("kept", read))
    held = "read" if stored is None else "the database holds"
    parts = [f"{held} {plural(read, 'stud hand')}"]
    if copies:
        what = "a copy" if copies == 1 else "copies"
        parts[0] += f" ({copies:,} of them {what} of a hand read before: each hand counted once)"
    parts.append(f"{plural(int(counts.get('skipped', 0)), 'hand')} of other games skipped")
    parts.append(f"{plural(int(counts.get('rejected', 0)), 'hand')} rejected")
    if counts.get("outside"):
        what = plural(int(counts["outside"]), "stretch", "stretches")
        parts.append(f"{what} of text not part of any hand")
    parts.append(f"{plural(int(counts.get('unreadable', 0)), 'file')} unreadable")
    if counts.get("unknown"):
        parts.append(f"{plural(int(counts['unknown']), 'file')} of no known site")
    differ = int(counts.get("differ", 0))
    distinct = read - copies - differ
    selected = int(counts.get("selected", distinct))
    out = []
    if differ:
        out.append(
            f"{differ:,} whose copies in the tables differ and cannot be told apart "
            "(read its hand histories instead)"
        )
    if distinct > selected:
        out.append(f"{distinct - selected:,} not matching the filters")
    if selected > counted:
        out.append(f"{selected - counted:,} with no player (or not the player asked for) dealt in")
    left = f"; left out: {', '.join(out)}" if out else ""
    return f"Hands: {', '.join(parts)}; counted in the figures: {counted:,}{left}."
