"""histkit: Seven Card Stud hand histories — parse, audit, tabulate, analyse."""

from typing import TYPE_CHECKING, Any

# First, before anything imports a mypyc-compiled module: compiled or all pure (see _native).
from histkit import _native

_native.install()

from histkit.cards import Card, parse_card, parse_cards  # noqa: E402
from histkit.model import Game, Hand, Street, Unit  # noqa: E402

if TYPE_CHECKING:  # for type checkers: the API's functions (imported lazily, below)
    from histkit.api import audit, read, stats

__all__ = [
    "Card",
    "Game",
    "Hand",
    "Street",
    "Unit",
    "audit",
    "parse_card",
    "parse_cards",
    "read",
    "stats",
    "__version__",
]
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    """`histkit.read`, `histkit.stats`, `histkit.audit` (histkit.api), imported when first
    used: `import histkit` stays cheap. `stats` and `audit` are the modules of those
    names, callable as the API's functions."""
    import importlib

    if name == "read":
        from histkit.api import read

        return read
    if name in ("stats", "audit"):
        return importlib.import_module(f"histkit.{name}")
    raise AttributeError(f"module 'histkit' has no attribute {name!r}")
