"""histkit: Seven Card Stud hand histories — parse, audit, tabulate, analyse."""

from histkit.cards import Card, parse_card, parse_cards
from histkit.model import Game, Hand, Street, Unit

__all__ = ["Card", "Game", "Hand", "Street", "Unit", "parse_card", "parse_cards", "__version__"]
__version__ = "0.1.0"
