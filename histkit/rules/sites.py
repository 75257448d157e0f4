"""What the audit takes from the dialect that read a hand: the site's house rules and how
its record is written. The rules engine knows no site; it asks here, by the hand's site
and dialect names (the dialects are imported only when asked, as they import the rules).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from histkit.cards import Card
from histkit.model import Game
from histkit.rules.profile import RuleProfile

__all__ = ["Describe", "SiteRecord", "forget_sites", "site_record"]

Describe = Callable[[Game, tuple[Card, ...]], "str | None"]


@dataclass(frozen=True, slots=True)
class SiteRecord:
    """What the audit takes from the dialect that read a hand: the site's house rules and
    how its record is written (its words for hands, which lines it prints)."""

    profile: RuleProfile
    describe: Describe | None
    no_low_printed: bool
    returns_written: bool


_RECORDS: dict[tuple[str, str | None], SiteRecord] = {}


def forget_sites() -> None:
    """Drop what was learnt of each site's dialect (a dialect was registered again)."""
    _RECORDS.clear()


def site_record(site: str, dialect: str | None) -> SiteRecord:
    """The house rules and record habits of the dialect `dialect` of `site` (CASINO
    rules and no habits when no dialect is known)."""
    key = (site, dialect)
    got = _RECORDS.get(key)
    if got is None:
        from histkit.dialects import Dialect, dialect_for
        from histkit.rules.profile import CASINO

        d = dialect_for(site, dialect)
        if d is None:
            got = SiteRecord(CASINO, None, True, True)
        else:
            own = type(d).describe is not Dialect.describe
            got = SiteRecord(
                d.profile, d.describe if own else None, d.prints_no_low, d.prints_uncalled
            )
        _RECORDS[key] = got
    return got
