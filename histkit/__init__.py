"""histkit: Seven Card Stud hand histories — parse, audit, tabulate, analyse."""

# First, before anything imports a mypyc-compiled module: compiled or all pure (see _native).
from histkit import _native

_native.install()

from histkit.cards import Card, parse_card, parse_cards  # noqa: E402
from histkit.model import Game, Hand, Street, Unit  # noqa: E402

__all__ = ["Card", "Game", "Hand", "Street", "Unit", "parse_card", "parse_cards", "__version__"]
__version__ = "0.1.0"
