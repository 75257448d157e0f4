"""`histkit watch`: keep the hand database up to date while a poker client writes hands.

Polling, not file-system events (no inotify or FSEvents dependency, the same on every
system and on network folders): every `interval` seconds the folders are walked and each
file `stat`ed; the sizes and modification times of the poll before are kept in memory, so
a poll that finds nothing new costs no database access at all. A file that was there at the
last poll and is no longer (deleted, or renamed: found under its new name) is handed to the
import, which removes its hands, as an import of the folder does. A file is seen by its size,
modification and change time; one changed within `RACY_NS` of the poll is passed to the
import again at the next poll, which compares its bytes (a rewrite within one time stamp
tick keeps all three). The files that changed are
imported in batches of at most `BATCH_BYTES` to read (a larger file is read in several
batches, each up to a hand header), each batch one `import_paths`: one transaction, which
holds the database only while its rows are written, never while they are parsed. So
readers (`histkit stats --db`, `histkit.db.connect()`) get their turn between and during
batches; a reader finding the file held waits and tries again.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from histkit.db.connection import DatabaseBusy
from histkit.db.importer import ImportReport, import_paths
from histkit.db.scan import RACY_NS

__all__ = ["Watcher"]

# bytes read per transaction (about 4,000 hands): written in well under a second
BATCH_BYTES = 8 << 20


@dataclass
class Watcher:
    """Polls `folders` and imports what changed into `db`, reporting each batch."""

    folders: list[Path]
    db: str | None = None
    interval: float = 2.0
    audit: bool = True
    jobs: int = 1
    out: TextIO = field(default_factory=lambda: sys.stdout)
    added: int = 0
    removed: int = 0
    duplicates: int = 0
    conflicts: int = 0
    rejected: int = 0
    batches: int = 0
    pending: dict[str, int] = field(default_factory=dict)  # file -> line of its pending hand
    last_file: str | None = None
    _seen: dict[str, tuple[int, int, int]] = field(default_factory=dict)
    _listed: set[str] = field(default_factory=set)  # the files the last poll found
    _status_open: bool = False
    _started: bool = False

    def run(self, *, polls: int | None = None, sleep: Callable[[float], None] = time.sleep) -> None:
        """Poll until interrupted (Ctrl-C raises KeyboardInterrupt out of here), or
        `polls` times. The database is created first, so readers find one at once."""
        from histkit.db.importer import open_for_writing

        if not self._started:
            open_for_writing(self.db).close()
            self._started = True
        n = 0
        while polls is None or n < polls:
            self.poll()
            n += 1
            if polls is None or n < polls:
                sleep(self.interval)

    def poll(self) -> list[ImportReport]:
        """One look at the folders: the files that changed since the last look imported."""
        changed: list[tuple[str, int]] = []
        now: dict[str, tuple[int, int, int]] = {}
        racy: set[str] = set()
        looked = time.time_ns()
        for path in self._files():
            try:
                st = os.stat(path)
            except OSError:
                continue  # gone between the listing and the stat
            now[path] = (st.st_size, st.st_mtime_ns, st.st_ctime_ns)
            if max(st.st_mtime_ns, st.st_ctime_ns) >= looked - RACY_NS:
                racy.add(path)  # may change again unseen by its stat: looked at next time
            if self._seen.get(path) != now[path]:
                changed.append((path, st.st_size))
        gone = self._gone(now)
        changed += [(path, 0) for path in gone]  # the import removes their hands
        self._seen = {p: v for p, v in self._seen.items() if p in now}
        self._listed = set(now)
        reports = []
        batches = list(_batches(changed))
        while batches:
            batch = batches.pop(0)
            try:
                report = import_paths(
                    batch, db=self.db, audit=self.audit, jobs=self.jobs, max_bytes=BATCH_BYTES
                )
            except DatabaseBusy as e:
                self._say(f"waiting: {e}")
                left = {p for b in [batch, *batches] for p in b}
                self._listed |= {p for p in gone if p in left}  # gone still, next poll
                break  # the same files are tried again at the next poll
            unfinished = set(report.unfinished)  # absolute paths, as import_paths keeps them
            again = [path for path in batch if os.path.abspath(path) in unfinished]
            for path in batch:
                if path not in again and path not in racy and path in now:
                    self._seen[path] = now[path]
            if again:
                batches.insert(0, again)  # read on from where it stopped, at once
            self._tally(report)
            reports.append(report)
        return reports

    def _gone(self, now: dict[str, tuple[int, int, int]]) -> list[str]:
        """The files seen before that are no longer there, in folders where something is
        found still (an empty folder is more likely a disk not mounted: its files' hands
        are kept, as `import_paths` keeps them)."""
        out = []
        for folder in self.folders:
            inside = str(folder).rstrip(os.sep) + os.sep
            if not any(p.startswith(inside) for p in now):
                continue
            out += [p for p in self._listed if p.startswith(inside) and p not in now]
        return [p for p in dict.fromkeys(out) if not os.path.lexists(p)]

    def _files(self) -> Iterator[str]:
        from histkit.reader import iter_files

        for p in iter_files(self.folders):
            yield str(p)

    def _tally(self, r: ImportReport) -> None:
        for path in r.read_files:
            self.pending.pop(path, None)
        for path, line, _ in r.pending_hands:
            self.pending[path] = line
        if not r.read_files:
            return  # nothing new (a file touched): say nothing
        self.batches += 1
        self.added += r.hands_added
        self.removed += r.hands_removed
        self.duplicates += r.duplicates
        self.conflicts += r.conflicts
        self.rejected += r.rejected
        self.last_file = r.last_file or self.last_file
        self._say(self.status())
        for message in r.conflict_messages:
            self._say(f"conflict: {message}", line=True)

    def status(self) -> str:
        """The one-line status: hands imported, pending, the last file read."""
        net = self.added - self.removed
        parts = [f"{net:,} hand{'s' if net != 1 else ''} imported"]
        parts.append(f"{len(self.pending):,} pending")
        if self.duplicates:
            parts.append(f"{self.duplicates:,} duplicate{'s' if self.duplicates != 1 else ''}")
        if self.conflicts:
            parts.append(f"{self.conflicts:,} conflict{'s' if self.conflicts != 1 else ''}")
        if self.rejected:
            parts.append(f"{self.rejected:,} rejected")
        last = f"; last: {self.last_file}" if self.last_file else ""
        return f"{time.strftime('%H:%M:%S')} " + ", ".join(parts) + last

    def summary(self) -> str:
        """The final line, when watching stops."""
        from histkit.textsafe import terminal_text

        net = self.added - self.removed
        return terminal_text(
            f"Stopped watching: {net:,} hand{'s' if net != 1 else ''} imported in "
            f"{self.batches:,} batch{'es' if self.batches != 1 else ''}; "
            f"{len(self.pending):,} pending."
        )

    def _say(self, text: str, *, line: bool = False) -> None:
        """On a terminal the status line is rewritten in place; elsewhere each is a line.
        The text (a file's name, a conflict's names) goes through `terminal_text`, so only our own
        control sequence moves the cursor."""
        from histkit.textsafe import terminal_text

        text = terminal_text(text)
        if self.out.isatty() and not line:
            self.out.write("\r\x1b[K" + text)
            self._status_open = True
        else:
            if self._status_open:
                self.out.write("\n")
                self._status_open = False
            self.out.write(text + "\n")
        self.out.flush()

    def close(self) -> None:
        """End the status line (before the summary)."""
        if self._status_open:
            self.out.write("\n")
            self._status_open = False
            self.out.flush()


def _batches(changed: list[tuple[str, int]]) -> Iterator[list[str]]:
    batch: list[str] = []
    size = 0
    for path, n in changed:
        if batch and size + n > BATCH_BYTES:
            yield batch
            batch, size = [], 0
        batch.append(path)
        size += n
    if batch:
        yield batch
