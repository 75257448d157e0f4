"""Site dialects: a registry from name to `Dialect`, imported lazily, and detection.

Each site is one module (`histkit/dialects/<site>.py`) with its grammar and writer beside
it. `get_dialect(name)` gives one shared instance per name (its parser is built once);
`detector()` answers, for any line, whether it starts a hand and of which site, so a
folder that mixes sites is read with no option (`--site NAME` forces one).
"""

from __future__ import annotations

import importlib
import re
from typing import TYPE_CHECKING

from histkit.dialects.base import Dialect, ParseIssue

if TYPE_CHECKING:
    from histkit.model import Hand
    from histkit.rules.profile import RuleProfile

__all__ = [
    "DIALECTS",
    "Detector",
    "Dialect",
    "ParseIssue",
    "detector",
    "dialect_for",
    "dialect_of",
    "get_dialect",
    "known_sites",
    "register",
    "site_profile",
]

# name -> "module:Class" (imported on first use), or the class once registered
DIALECTS: dict[str, str | type[Dialect]] = {
    "pokerstars": "histkit.dialects.pokerstars:PokerStars",
    "fulltilt": "histkit.dialects.fulltilt:FullTilt",
    "winamax": "histkit.dialects.winamax:Winamax",
    "wpn": "histkit.dialects.wpn:WinningPoker",
    "wpn_2016": "histkit.dialects.wpn_2016:WinningPoker2016",
    "bovada": "histkit.dialects.bovada:Bovada",
    "partypoker": "histkit.dialects.partypoker:PartyPoker",
    "ongame": "histkit.dialects.ongame:OnGame",
    "everleaf": "histkit.dialects.everleaf:Everleaf",
    "kingsclub": "histkit.dialects.kingsclub:KingsClub",
    "absolute": "histkit.dialects.absolute:Absolute",
    "ipoker": "histkit.dialects.ipoker:IPoker",
    "merge": "histkit.dialects.merge:Merge",
    "phh": "histkit.dialects.phh:Phh",
}
_INSTANCES: dict[str, Dialect] = {}


def register(cls: type[Dialect]) -> type[Dialect]:
    """Add a site dialect (usable as a class decorator)."""
    DIALECTS[cls.name] = cls
    _INSTANCES.pop(cls.name, None)
    _DETECTORS.clear()
    _BY_SITE.clear()
    from histkit.rules.sites import forget_sites

    forget_sites()
    return cls


def _class(name: str) -> type[Dialect]:
    entry = DIALECTS[name]
    if isinstance(entry, str):
        module, _, attr = entry.partition(":")
        entry = DIALECTS[name] = getattr(importlib.import_module(module), attr)
    return entry


def known_sites() -> list[str]:
    """Every dialect name whose module is present (a site still being written is not)."""
    out = []
    for name in DIALECTS:
        try:
            _class(name)
        except (ImportError, AttributeError):
            continue
        out.append(name)
    return out


def get_dialect(dialect: str | Dialect = "pokerstars") -> Dialect:
    """The dialect named `dialect` (one shared instance per class, so its parser is built
    once)."""
    if isinstance(dialect, Dialect):
        return dialect
    try:
        cls = _class(dialect)
    except (KeyError, ImportError, AttributeError):
        known = ", ".join(known_sites())
        raise ValueError(f"unknown site {dialect!r} (known: {known})") from None
    inst = _INSTANCES.get(dialect)
    if inst is None or type(inst) is not cls:
        inst = _INSTANCES[dialect] = cls()
    return inst


_BY_SITE: dict[str, list[Dialect]] = {}


def _site_dialects(site: str) -> list[Dialect]:
    got = _BY_SITE.get(site)
    if got is None:
        got = _BY_SITE[site] = [d for d in map(get_dialect, known_sites()) if d.site == site]
    return got


def dialect_of(hand: Hand) -> Dialect | None:
    """The dialect that read a hand (`Hand.dialect`), else its site's first; None for a
    site histkit does not know."""
    return dialect_for(hand.site, hand.dialect)


def dialect_for(site: str, dialect: str | None) -> Dialect | None:
    """The dialect named `dialect`, else `site`'s first; None for a site histkit does not
    know (what `dialect_of` asks of a hand)."""
    if dialect:
        try:
            return get_dialect(dialect).for_site(site)
        except ValueError:
            pass
    found = _site_dialects(site)
    return found[0] if found else None


def site_profile(site: str) -> RuleProfile:
    """The house rules a site's real hands show (its first dialect's `profile`); Robert's
    Rules (`casino`) for a site histkit does not know."""
    found = _site_dialects(site)
    if found:
        return found[0].profile
    from histkit.rules.profile import CASINO

    return CASINO


class Detector:
    """Which dialect a hand's first line belongs to, among `dialects`: a line is tested
    only by the dialects whose `hand_start` prefixes it starts with, then by their
    header. Also the splitter's `HandStarts` (its prefixes and `is_header`)."""

    __slots__ = ("dialects", "prefixes", "_lead_ins")

    def __init__(self, dialects: list[Dialect]) -> None:
        self.dialects = dialects
        self.prefixes: tuple[str, ...] = tuple(
            dict.fromkeys(p for d in dialects for p in d.hand_start)
        )
        self._lead_ins = [d.lead_in for d in dialects if d.lead_in is not None]

    def lead_in(self, lines: list[str]) -> bool:
        """Whether a block is only lines a site writes before a hand (no part of it)."""
        return bool(self._lead_ins) and all(
            any(p.fullmatch(line.strip()) for p in self._lead_ins) for line in lines
        )

    def dialect_of(self, line: str) -> Dialect | None:
        found = self.header_of(line)
        return found[0] if found is not None else None

    def header_of(self, line: str) -> tuple[Dialect, re.Match[str]] | None:
        """The dialect whose header this line is, with the header's match (so the dialect
        need not match its longest regex again)."""
        if not line.startswith(self.prefixes):
            return None
        for d in self.dialects:
            m = d.header_match(line)
            if m is not None:
                return d, m
        return None

    def is_header(self, line: str) -> bool:
        return self.dialect_of(line) is not None


_DETECTORS: dict[str | None, Detector] = {}


def detector(site: str | Dialect | None = None) -> Detector:
    """The detector for one site (`--site`), or for every known site (None)."""
    if isinstance(site, Dialect):
        return Detector([site])
    got = _DETECTORS.get(site)
    if got is None:
        names = known_sites() if site is None else [site]
        got = _DETECTORS[site] = Detector([get_dialect(n) for n in names])
    return got
