"""PHH, the Poker Hand History format of the PokerKit project, as one more dialect.

A PHH file is TOML (https://phh.readthedocs.io): `.phh` holds one hand, `.phhs` many. It is
claimed by its name, or by its first text (TOML with a `variant = "..."` line), and read
whole by `histkit.phh.reader`; hands of other variants (hold'em, draw games) are skipped
like a site's other games. A hand keeps the site it was played at (`_site`, else its
`venue` when that names a site histkit knows, else "phh") and is audited under that
site's house rules, as a record that writes no 'no low' lines and no hand descriptions
(`for_hand`); a bet nobody called is returned by PHH's rules, and the reader says so.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import PurePath
from typing import ClassVar

from histkit.dialects.base import Dialect, ParseIssue
from histkit.dialects.filebase import FileDialect
from histkit.model import Hand
from histkit.phh.reader import PHH_SUFFIXES, looks_like_phh, read_phh

__all__ = ["Phh"]


class Phh(FileDialect):
    name = "phh"
    site = "phh"
    title = "Poker Hand History (PHH)"
    suffixes: ClassVar[tuple[str, ...]] = PHH_SUFFIXES
    prints_no_low = False

    def claims_file(self, name: str, head: str) -> bool:
        return PurePath(name).suffix.lower() in self.suffixes or looks_like_phh(head)

    def read_file(
        self, lines: Iterable[str], source: str, *, digests: dict[int, int] | None = None
    ) -> Iterator[Hand | ParseIssue]:
        found: list[int | None] | None = [] if digests is not None else None
        for item in read_phh(lines, source, digests=found):
            if isinstance(item, Hand) and digests is not None and found:
                digest = found.pop()
                if digest is not None:
                    digests[id(item)] = digest
            yield item

    def for_site(self, site: str) -> Dialect:
        """A PHH hand of a known site is audited under that site's house rules (its
        profile), as PHH writes it."""
        got = _BY_SITE.get(site)
        if got is None:
            from histkit.dialects import site_profile

            profile = self.profile if site == self.site else site_profile(site)
            view = type(f"Phh_{site}", (Phh,), {"profile": profile, "site": site})
            got = _BY_SITE[site] = view()
        return got


_BY_SITE: dict[str, Dialect] = {}
