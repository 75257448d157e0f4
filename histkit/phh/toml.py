"""The little TOML a PHH file needs, written by hand: the standard library reads TOML
(`tomllib`) but does not write it, and a dependency for a dozen value types would not earn
its place.

Values are what `histkit.phh.writer` puts in a hand: strings, integers, booleans, times of
day, lists of those (the `actions` list one string per line, as people read it) and inline
tables. What is written here reads back with `tomllib` to the same values (tests hold it).
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Mapping
from typing import Any

__all__ = ["dump_fields", "dump_value", "key"]

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")
_ESCAPES = {
    '"': '\\"',
    "\\": "\\\\",
    "\b": "\\b",
    "\t": "\\t",
    "\n": "\\n",
    "\f": "\\f",
    "\r": "\\r",
}
_NEEDS_ESCAPE = re.compile(r'["\\\x00-\x1f\x7f]')


def _escape(m: re.Match[str]) -> str:
    c = m.group()
    return _ESCAPES.get(c) or f"\\u{ord(c):04x}"


def string(text: str) -> str:
    """A TOML basic string: quotes, backslashes and control characters escaped (a player's
    name may hold any of them)."""
    return '"' + _NEEDS_ESCAPE.sub(_escape, text) + '"'


def key(name: str) -> str:
    """A key as TOML writes it: bare when it can be, else quoted."""
    return name if _BARE_KEY.fullmatch(name) else string(name)


def dump_value(value: Any) -> str:
    """One value on one line."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return string(value)
    if isinstance(value, datetime.time):
        return value.strftime("%H:%M:%S")
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{key(k)} = {dump_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(dump_value(v) for v in value) + "]"
    raise TypeError(f"no TOML form for {type(value).__name__}")


def dump_fields(fields: Mapping[str, Any], *, long_lists: frozenset[str] = frozenset()) -> str:
    """`key = value` lines in the mapping's order; the lists named in `long_lists` (the
    actions) one element per line. Ends with a line end."""
    lines = []
    for name, value in fields.items():
        if name in long_lists and isinstance(value, list | tuple) and value:
            items = "".join(f"  {dump_value(v)},\n" for v in value)
            lines.append(f"{key(name)} = [\n{items}]")
        else:
            lines.append(f"{key(name)} = {dump_value(value)}")
    return "\n".join(lines) + "\n"
