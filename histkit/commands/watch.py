"""`histkit watch FOLDER... [--db FILE] [--interval S]`: import hands as they are written."""

from __future__ import annotations

import argparse
import signal
import sys
from pathlib import Path
from types import FrameType

from histkit.commands._options import (
    EXIT_OK,
    ExamplesFormatter,
    UsageError,
    add_jobs_option,
    check_jobs,
    path_text,
)
from histkit.commands.db import add_audit_options, add_db_option

MAX_INTERVAL = 86_400  # seconds: a day between looks (longer overflowed the clock)

EXAMPLES = """\
examples:
  histkit watch ~/PokerStars/HandHistory/             # Ctrl-C stops it
  histkit watch sessions/ --db my.duckdb --interval 5
"""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "watch",
        help="keep the hand database up to date while hands are written",
        description=(
            "Watch folders (recursively, by polling) and import new hands into the hand "
            "database as a poker client writes them, with a one-line status. A hand still "
            "being written is pending until its file completes it. The database is held "
            "only while a batch is written, so 'histkit stats --db' and other readers get "
            "their turn. Ctrl-C stops it (exit status 0)."
        ),
        epilog=EXAMPLES,
        formatter_class=ExamplesFormatter,
    )
    p.add_argument("folders", nargs="+", type=path_text, metavar="FOLDER", help="folders to watch")
    add_db_option(p)
    p.add_argument(
        "--interval",
        type=float,
        default=2.0,
        metavar="S",
        help="seconds between looks at the folders (default 2)",
    )
    add_audit_options(p)
    add_jobs_option(p)
    p.set_defaults(run=_run)


def _stop(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt  # SIGTERM stops as Ctrl-C does


def _run(args: argparse.Namespace) -> int:
    from histkit.db import DatabaseError, StagingError
    from histkit.db.watch import Watcher

    missing = [f for f in args.folders if not Path(f).is_dir()]
    if missing:
        raise UsageError("not a folder: " + ", ".join(missing))
    if not 0 < args.interval <= MAX_INTERVAL:  # NaN too
        raise UsageError(f"--interval must be more than 0 and at most {MAX_INTERVAL:,} seconds")
    jobs = check_jobs(args.jobs)
    watcher = Watcher(
        [Path(f) for f in args.folders],
        db=args.db,
        interval=args.interval,
        audit=args.audit,
        jobs=jobs,
        out=sys.stdout,
    )
    previous = signal.signal(signal.SIGTERM, _stop)
    try:
        watcher.run()
    except KeyboardInterrupt:
        pass
    except (DatabaseError, StagingError) as e:
        raise UsageError(str(e)) from None
    finally:
        signal.signal(signal.SIGTERM, previous)
        watcher.close()
    print(watcher.summary(), flush=True)
    return EXIT_OK
