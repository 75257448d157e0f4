"""The base of a format read a whole file at a time: PHH's TOML has no hand header line for
the splitter to find, so its dialect claims files (by name and first text) and reads them
itself, reporting each hand's facts to the same `HandSink` as every site.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import ClassVar

from histkit.dialects.base import Dialect, ParseIssue
from histkit.model import Hand

__all__ = ["FileDialect"]


class FileDialect(Dialect):
    """A dialect whose files are read whole. Subclasses set `suffixes` and implement
    `claims_file` and `read_file`."""

    suffixes: ClassVar[tuple[str, ...]] = ()  # file names it reads inside folders

    def header_match(self, line: str) -> re.Match[str] | None:
        return None  # no line of a text hand history starts one of its hands

    def claims_file(self, name: str, head: str) -> bool:
        """Whether the file named `name` whose first text is `head` (about 4 KB) is one
        of this format's."""
        return False

    def read_file(
        self, lines: Iterable[str], source: str, *, digests: dict[int, int] | None = None
    ) -> Iterator[Hand | ParseIssue]:
        """Every hand or issue of one file's decoded lines, in order. `digests`: each
        hand's text checksum, by `id(hand)` (for telling copies from different hands)."""
        raise NotImplementedError
