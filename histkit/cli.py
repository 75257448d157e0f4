"""`histkit` command line: thin wrappers over the library, one function per command.

Exit status: 0 success, 1 the command found problems (e.g. `audit` violations, `parse
--strict` rejections), 2 a usage or input error (a full disk included), 3 an internal error:
a bug, said in one line naming the file its traceback was saved in (`HISTKIT_LOG_DIR`, else
the user log folder), so a script can tell a crash from an audit that found violations.
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
from pathlib import Path
from typing import Any, NoReturn

from histkit import __version__, _native
from histkit.commands import _options
from histkit.textsafe import terminal_text

__all__ = ["main"]

# The shared pieces live with the commands (histkit.commands._options); named here too
# for scripts that imported them from histkit.cli.
EXIT_OK, EXIT_FOUND, EXIT_USAGE = _options.EXIT_OK, _options.EXIT_FOUND, _options.EXIT_USAGE
EXIT_INTERNAL = _options.EXIT_INTERNAL
LOG_ENV = "HISTKIT_LOG_DIR"  # where tracebacks of internal errors are saved

EXIT_STATUS = """\
exit status: 0 done (audit: no violation); 1 problems found (violations, rejected hands);
  2 a usage or input error (a full disk too); 3 an internal error (a bug in histkit: one
  line naming the file its traceback was saved in, in $HISTKIT_LOG_DIR or the user log folder)
"""
UsageError = _options.UsageError


# ---------------------------------------------------------------------------- main

# Each command is a module in histkit.commands with a `register(subparsers)` function;
# a new module is a new command. ORDER fixes the order in `histkit --help`. Only the
# command named on the line is imported and registered (every one for `histkit --help`
# or a name that is none of them), and each imports heavy dependencies only when run:
# start-up is paid by every command, however small its input.
ORDER: tuple[str, ...] = (
    "parse",
    "audit",
    "stats",
    "report",
    "export",
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


class OneLineParser(argparse.ArgumentParser):
    """A mistake on the command line is one line naming it and where help is (exit 2),
    not argparse's usage block: the same form as every other usage error."""

    def error(self, message: str) -> NoReturn:
        self.exit(
            EXIT_USAGE,
            terminal_text(f"{self.prog}: error: {message} (see {self.prog} --help)") + "\n",
        )


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The command line's parser: with `argv`, only the command it names (when it names
    one), else every command."""
    parser = OneLineParser(
        prog="histkit",
        description="Seven Card Stud hand histories: parse, audit, tabulate, analyse.",
        epilog=EXIT_STATUS,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "--version", action=PrintVersion, help="show the version and whether it runs compiled"
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=OneLineParser)
    names = command_names()
    if argv and argv[0] in names:
        names = [argv[0]]
    for name in names:
        importlib.import_module(f"histkit.commands.{name}").register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        return int(args.run(args))
    except UsageError as e:
        print(terminal_text(f"histkit {args.command}: error: {e}"), file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except Exception as e:  # what no command caught: said in one line
        if _no_space(e):
            where = f" ({e.filename})" if isinstance(e, OSError) and e.filename else ""
            print(
                terminal_text(f"histkit {args.command}: error: no space left on the disk{where}"),
                file=sys.stderr,
            )
            return EXIT_USAGE
        return _internal_error(args.command, e, argv)


def _no_space(e: BaseException) -> bool:
    from histkit.atomic import no_space

    return no_space(e)


def log_dir() -> Path:
    """Where the tracebacks of internal errors go: `$HISTKIT_LOG_DIR`, else the user log
    folder (platformdirs: e.g. ~/.local/state/histkit/log on Linux)."""
    env = os.environ.get(LOG_ENV)
    if env:
        return Path(env).expanduser()
    from platformdirs import user_log_path

    return user_log_path("histkit", appauthor=False)


def _internal_error(command: str, e: BaseException, argv: list[str]) -> int:
    """A bug: one line, naming what went wrong and the file its traceback is saved in
    (exit 3). When no file can be written, the traceback follows the line instead."""
    import time
    import traceback

    what = f"{type(e).__name__}: {str(e).strip()}".strip().rstrip(":")
    first = (what.splitlines() or [type(e).__name__])[0][:200]
    report = (
        f"histkit {__version__} ({_native.status().describe()}), Python {sys.version.split()[0]}\n"
        f"command: histkit {' '.join(argv)}\n\n"
        + "".join(traceback.format_exception(type(e), e, e.__traceback__))
    )
    name = f"histkit-error-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.txt"
    line = f"histkit {command}: internal error ({first}); a bug in histkit"
    try:
        folder = log_dir()
        folder.mkdir(parents=True, exist_ok=True)
        saved = folder / name
        saved.write_text(report, encoding="utf-8")
    except OSError as why:
        print(
            terminal_text(f"{line}; its traceback (not saved: {why.strerror or why}):"),
            file=sys.stderr,
        )
        sys.stderr.write(report)
        return EXIT_INTERNAL
    print(
        terminal_text(f"{line}: please report it with the traceback saved in {saved}"),
        file=sys.stderr,
    )
    return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
