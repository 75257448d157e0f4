"""A folder of PHH files, written whole or not at all.

The files are written into a hidden staging folder beside OUT
(`.OUT.histkit-staging-<pid>-<random>`), fsynced, and the staging folder is renamed to OUT
only when every hand has been written: a run that fails or is killed never leaves an OUT
that looks complete (issue 19's rule for every output). An earlier export in OUT (marked by
its hidden `.histkit-export.json`) is replaced whole; a folder holding anything else is
refused. A staging folder left by a killed run is removed by the next export into OUT.
"""

from __future__ import annotations

import json
import os
import re
import secrets
import shutil
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from histkit.atomic import fsync_dir
from histkit.model import Hand
from histkit.phh.writer import PhhError, dumps, join_hands
from histkit.reading.split import ParseIssue

__all__ = ["MARKER", "ExportError", "ExportReport", "export_phh"]

MARKER = ".histkit-export.json"  # hidden: a glob for *.phh or a folder read skips it
_STAGING = ".histkit-staging-"
_OLD = ".histkit-old-"
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


class ExportError(Exception):
    """OUT cannot be written (a file, or a folder of something else)."""


@dataclass
class ExportReport:
    """What an export wrote: hands and files, and the input's issues plus the hands PHH
    could not hold (`issues`), by kind in `counts`."""

    out: Path
    hands: int = 0
    files: int = 0
    replaced: bool = False
    issues: list[ParseIssue] = field(default_factory=list)
    counts: Counter[str] = field(default_factory=Counter)


def _safe(text: str) -> str:
    """A piece of a file name: letters, digits, '.', '_' and '-' only."""
    return _UNSAFE.sub("_", text).strip("._") or "hand"


class _Names:
    """Unique file names within the folder (a second hand of one id gets `-2`)."""

    def __init__(self) -> None:
        self.used: set[str] = set()

    def take(self, stem: str, suffix: str) -> str:
        name, n = f"{stem}{suffix}", 1
        while name.lower() in self.used:
            n += 1
            name = f"{stem}-{n}{suffix}"
        self.used.add(name.lower())
        return name


def _write(path: Path, text: str) -> None:
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)
        f.flush()
        os.fsync(f.fileno())


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # it exists (not ours to signal)
    return True


def _remove_stale(parent: Path, name: str) -> None:
    """Staging and old folders of earlier exports into `name` whose process is gone."""
    for prefix in (_STAGING, _OLD):
        start = f".{name}{prefix}"
        try:
            entries = list(parent.iterdir())
        except OSError:
            return
        for d in entries:
            if d.name.startswith(start) and d.is_dir():
                pid = d.name[len(start) :].split("-", 1)[0]
                if not pid.isdigit() or not _alive(int(pid)):
                    shutil.rmtree(d, ignore_errors=True)


def _check_target(out: Path) -> bool:
    """Whether OUT holds an earlier export (to be replaced); ExportError when it is
    something else."""
    if out.exists() and not out.is_dir():
        raise ExportError(f"{out} is a file, not a folder")
    if not out.is_dir():
        return False
    if (out / MARKER).is_file():
        return True
    if any(out.iterdir()):
        raise ExportError(
            f"{out} holds files that are not a histkit PHH export; name a new or empty folder"
        )
    return False


def export_phh(
    items: Iterable[Hand | ParseIssue],
    out: str | Path,
    *,
    multi: bool = False,
    progress: Callable[[int], None] | None = None,
) -> ExportReport:
    """Write every hand of `items` into the folder `out`: one `<site>-<hand id>.phh` per
    hand, or with `multi` one `<input file>.phhs` per input file. Issues among the items
    (and hands PHH cannot hold) are counted and kept in the report, never written."""
    out = Path(out)
    existed = _check_target(out)
    parent = out.absolute().parent
    parent.mkdir(parents=True, exist_ok=True)
    _remove_stale(parent, out.name)
    staging = parent / f".{out.name}{_STAGING}{os.getpid()}-{secrets.token_hex(4)}"
    staging.mkdir()
    report = ExportReport(out)
    names = _Names()
    try:
        group: list[str] = []  # the texts of one input file's hands (multi)
        group_source: str | None = None

        def flush() -> None:
            if group:
                stem = _safe(Path(group_source or "hands").stem)
                _write(staging / names.take(stem, ".phhs"), join_hands(group))
                report.files += 1
                group.clear()

        for item in items:
            if isinstance(item, ParseIssue):
                report.issues.append(item)
                report.counts[item.kind] += 1
                continue
            try:
                text = dumps(item)
            except PhhError as e:
                src = item.source
                why = f"not written as PHH: {e}"
                issue = ParseIssue(src.file, src.line, None, item.hand_id, "rejected", why)
                report.issues.append(issue)
                report.counts["not_written"] += 1
                continue
            if multi:
                if item.source.file != group_source:
                    flush()
                    group_source = item.source.file
                group.append(text)
            else:
                _write(staging / names.take(_safe(f"{item.site}-{item.hand_id}"), ".phh"), text)
                report.files += 1
            report.hands += 1
            if progress is not None:
                progress(report.hands)
        flush()
        record = {
            "format": "phh",
            "multi": multi,
            "hands": report.hands,
            "files": report.files,
            "written_at": datetime.now(UTC).isoformat(timespec="seconds"),
        }
        _write(staging / MARKER, json.dumps(record, indent=2) + "\n")
        fsync_dir(staging)
        _commit(staging, out, parent, existed)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    report.replaced = existed
    return report


def _commit(staging: Path, out: Path, parent: Path, existed: bool) -> None:
    """The staged folder becomes OUT (the earlier export moved aside first, then removed)."""
    target = parent / out.name
    if existed or target.is_dir():
        old = parent / f".{out.name}{_OLD}{os.getpid()}-{secrets.token_hex(4)}"
        os.rename(target, old)
        os.rename(staging, target)
        shutil.rmtree(old, ignore_errors=True)
    else:
        os.rename(staging, target)
    fsync_dir(parent)
