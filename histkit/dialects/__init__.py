"""Site dialects: a registry from name to `Dialect` (one shared instance per name)."""

from __future__ import annotations

from histkit.dialects.base import Dialect, ParseIssue
from histkit.dialects.pokerstars import PokerStars

__all__ = ["Dialect", "ParseIssue", "PokerStars", "get_dialect", "register", "DIALECTS"]

DIALECTS: dict[str, type[Dialect]] = {"pokerstars": PokerStars}
_INSTANCES: dict[str, Dialect] = {}


def register(cls: type[Dialect]) -> type[Dialect]:
    """Add a site dialect (usable as a class decorator)."""
    DIALECTS[cls.name] = cls
    _INSTANCES.pop(cls.name, None)
    return cls


def get_dialect(dialect: str | Dialect = "pokerstars") -> Dialect:
    """The dialect named `dialect` (one shared instance per class, so its parser is built
    once)."""
    if isinstance(dialect, Dialect):
        return dialect
    try:
        cls = DIALECTS[dialect]
    except KeyError:
        known = ", ".join(sorted(DIALECTS))
        raise ValueError(f"unknown dialect {dialect!r} (known: {known})") from None
    inst = _INSTANCES.get(dialect)
    if inst is None or type(inst) is not cls:
        inst = _INSTANCES[dialect] = cls()
    return inst
