"""The eras each site's writer can write (`histkit simulate --site S --era E`), as data.

An era is a period of a site's client whose lines differ from another's; its name is the
one on the site's format page (`docs/sites/<site>.md`, "## Eras"). The first era of a site
is its default: what the writer writes when no era is asked for, byte for byte. The
writer module of a site that declares eras maps each name to the class that writes it
(`ERAS` in `histkit/dialects/<site>_writer.py`). Kept apart from the readers and writers so
that the command line can list the eras without importing any writer.
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["SITE_ERAS", "check_era", "eras"]

SITE_ERAS: Mapping[str, tuple[str, ...]] = {
    "absolute": ("2008-2011", "late"),
    "everleaf": ("2008-2012", "2012-2014", "2014-"),
    "bovada": ("2012-2016", "2012", "2016-"),
    "fulltilt": ("2008-2011", "2006-2007", "2012-2016"),
    "kingsclub": ("2020-2021", "2023-"),
    "ipoker": ("2011-2014", "newer"),
}


def eras(site: str) -> tuple[str, ...]:
    """The eras `site`'s writer writes, its default first (none declared: ())."""
    return SITE_ERAS.get(site, ())


def check_era(site: str, era: str) -> str:
    """`era` when `site`'s writer writes it, else a ValueError naming the site's eras."""
    known = eras(site)
    if era in known:
        return era
    if not known:
        raise ValueError(f"unknown era {era!r}: the {site} writer writes one era only")
    raise ValueError(f"unknown era {era!r} for {site}: choose {', '.join(known)}")
