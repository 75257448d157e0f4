"""`histkit` command line: thin wrappers over the library, one function per command.

Exit status: 0 success, 1 the command found problems (e.g. `audit` violations, `parse
--strict` rejections), 2 a usage or input error.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from pathlib import Path
from typing import Any

from histkit import __version__, _native

__all__ = ["main"]

EXIT_OK, EXIT_FOUND, EXIT_USAGE = 0, 1, 2


class UsageError(Exception):
    """A problem with the command line or its inputs: printed without a traceback, exit 2."""


# ------------------------------------------------------------------------- helpers


def existing_paths(paths: list[str]) -> list[Path]:
    missing = [p for p in paths if not Path(p).exists()]
    if missing:
        raise UsageError("no such file or folder: " + ", ".join(missing))
    return [Path(p) for p in paths]


class _Bar:
    def __init__(self, enabled: bool, desc: str, unit: str) -> None:
        self._bar: Any = None
        if enabled and sys.stderr.isatty():
            from tqdm import tqdm

            self._bar = tqdm(desc=desc, unit=unit, unit_scale=True, file=sys.stderr, leave=False)

    def update(self, n: int) -> None:
        if self._bar is not None:
            self._bar.update(n)

    def __enter__(self) -> _Bar:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.close()


def progress_bar(*, enabled: bool, desc: str, unit: str = "hand") -> _Bar:
    """A counting progress bar on stderr when it is a terminal; `.update(n)` as work ends."""
    return _Bar(enabled, desc, unit)


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


def check_jobs(jobs: int | None) -> int:
    from histkit.parallel import default_jobs

    if jobs is None:
        return default_jobs()
    if jobs < 1:
        raise UsageError("--jobs must be at least 1")
    return jobs


def plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


# ---------------------------------------------------------------------------- main

# Each command is a module in histkit.commands with a `register(subparsers)` function;
# a new module is a new command. ORDER fixes the order in `histkit --help`. Modules are
# imported when the parser is built and import heavy dependencies only when run.
ORDER: tuple[str, ...] = (
    "parse",
    "audit",
    "stats",
    "report",
    "equity",
    "simulate",
    "import",
    "watch",
    "db",
)


def command_names() -> list[str]:
    import histkit.commands as pkg

    names = [m.name for m in pkgutil.iter_modules(pkg.__path__) if not m.name.startswith("_")]
    return sorted(names, key=lambda n: (ORDER.index(n) if n in ORDER else len(ORDER), n))


class PrintVersion(argparse.Action):
    """--version with compiled or pure Python (see histkit._native), printed as is: argparse's
    own version action rewraps a long line."""

    def __init__(self, option_strings: list[str], dest: str, **kwargs: Any) -> None:
        kwargs.update(nargs=0, default=argparse.SUPPRESS)
        super().__init__(option_strings, argparse.SUPPRESS, **kwargs)

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: object,
        option_string: str | None = None,
    ) -> None:
        print(f"histkit {__version__} ({_native.status().describe()})")
        parser.exit()


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="histkit",
        description="Seven Card Stud hand histories: parse, audit, tabulate, analyse.",
    )
    parser.add_argument(
        "--version", action=PrintVersion, help="show the version and whether it runs compiled"
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in command_names():
        importlib.import_module(f"histkit.commands.{name}").register(sub)
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
