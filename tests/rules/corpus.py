"""Shared helpers for rules tests over the real corpus (read in place, never copied)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from histkit.model import Hand
from histkit.reader import iter_hands, parse_text
from histkit.rules.replay import Replay, replay
from tests.conftest import POKERSTARS


@cache
def corpus_items() -> tuple[object, ...]:
    return tuple(iter_hands([POKERSTARS]))


def corpus_hands() -> list[Hand]:
    return [h for h in corpus_items() if isinstance(h, Hand)]


@cache
def corpus_replays() -> tuple[Replay, ...]:
    return tuple(replay(h) for h in corpus_hands())


def find_replay(hand_id: str) -> Replay:
    return next(r for r in corpus_replays() if r.hand.hand_id == hand_id)


def file_text(relative: str) -> str:
    """A corpus file's text, decoded the way the reader does (BOM and CRLF removed)."""
    raw = (POKERSTARS / relative).read_bytes().decode("utf-8-sig")
    return raw.replace("\r\n", "\n")


def parse_hands(text: str, source: str = "<planted>") -> list[Hand]:
    return [h for h in parse_text(text, source=source) if isinstance(h, Hand)]


def hand_block(text: str, hand_id: str) -> tuple[int, int]:
    """(start, end) offsets of one hand's text inside a file's text."""
    start = text.index(f"#{hand_id}:")
    start = text.rfind("\n", 0, start) + 1
    nxt = text.find("PokerStars ", start + 10)
    return start, (nxt if nxt != -1 else len(text))


def relpath(p: str | Path) -> str:
    return str(Path(p).relative_to(POKERSTARS))
