"""Poker Hand History (PHH): hands written in and read from the PokerKit project's format.

    dumps(hand) -> str              one hand as a `.phh` file's text
    dumps_all(hands) -> str         hands as a `.phhs` file's text ([1], [2], ...)
    hand_fields(hand) -> dict       the hand's PHH fields, in the specification's order
    read_phh(lines, source)         a PHH file's hands (and issues), as `Hand`s
    export_phh(items, out, ...)     a folder of `.phh` (or `.phhs`) files, written whole

`histkit export --format phh` writes them and `histkit parse` (and audit, stats, report)
reads them like any site's hand histories (the `phh` dialect). The format cannot hold
everything a site writes: `NOT_HELD` says what it leaves out.

Each name is imported from its module on first use: every command's detection imports the
`phh` dialect, which needs only the reader.
"""

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from histkit.phh.export import ExportReport, export_phh
    from histkit.phh.reader import PHH_SUFFIXES, looks_like_phh, read_phh
    from histkit.phh.writer import NOT_HELD, VARIANTS, PhhError, dumps, dumps_all, hand_fields

__all__ = [
    "NOT_HELD",
    "PHH_SUFFIXES",
    "VARIANTS",
    "ExportReport",
    "PhhError",
    "dumps",
    "dumps_all",
    "export_phh",
    "hand_fields",
    "looks_like_phh",
    "read_phh",
]

_HOME = {
    "ExportReport": "export",
    "export_phh": "export",
    "PHH_SUFFIXES": "reader",
    "looks_like_phh": "reader",
    "read_phh": "reader",
    "NOT_HELD": "writer",
    "VARIANTS": "writer",
    "PhhError": "writer",
    "dumps": "writer",
    "dumps_all": "writer",
    "hand_fields": "writer",
}


def __getattr__(name: str) -> Any:
    """The package's names, imported from their modules on first use (PEP 562)."""
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(f"histkit.phh.{home}"), name)
