"""What is known of a player's seven cards, and the checks a set of holdings must pass.

A stud hand is seven cards: two down and one up on 3rd street, one up on each of 4th to
6th, one down on 7th. A `Holding` lists the cards known (down, up); the rest of the
seven are unknown: cards still to come, or down cards nobody has seen. Text is written
"down | up", e.g. "As 2s | 3d 4d 5h"; "?" or "??" marks a down card that is not known
("?? ?? | Kh" is a board with two unseen down cards, the same as "| Kh"). An up card is
never unknown (everyone at the table sees it): "??" among the up cards is refused, not
dropped, since a card dropped there would silently change how many cards are to come.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from histkit.cards import Card, parse_card

__all__ = ["EquityError", "Holding", "parse_holding", "parse_dead", "check_cards", "MAX_PLAYERS"]

MAX_PLAYERS = 8  # a stud table: 8 x 7 = 56 cards, so the 8th player's 7th card may be shared
MAX_DOWN = 3  # two on 3rd street, one on 7th
MAX_UP = 4  # 3rd to 6th street
_HIDDEN = {"?", "??", "x", "xx", "X", "XX"}


class EquityError(ValueError):
    """Holdings that cannot be dealt: a card twice, too many cards, too few left."""


@dataclass(frozen=True, slots=True)
class Holding:
    """A player's known cards. The unknown ones are what is missing to seven (six when
    the last card is a community card)."""

    down: tuple[Card, ...] = ()
    up: tuple[Card, ...] = ()

    @property
    def known(self) -> tuple[Card, ...]:
        return self.down + self.up

    def __str__(self) -> str:
        down = " ".join(str(c) for c in self.down)
        up = " ".join(str(c) for c in self.up)
        return f"{down} | {up}".strip() if down else f"| {up}".strip()


def parse_holding(text: str) -> Holding:
    """ "As 2s | 3d 4d 5h" -> Holding(down=(As, 2s), up=(3d, 4d, 5h)); without "|" every
    card is a down card, or, from four cards on, a whole hand in the order dealt (two
    down, up to four up, the 7th down: a player's cards as a showdown lists them).

    Refused rather than trimmed: more than seven cards, and "??" where an up card goes."""
    down_text, bar, up_text = text.partition("|")

    def tokens(part: str) -> list[str]:
        return part.replace(",", " ").split()

    def card(token: str) -> Card | None:
        if token in _HIDDEN:
            return None
        try:
            return parse_card(token)
        except ValueError:
            raise EquityError(f"not a card: {token!r} in {text!r}") from None

    def unknown_up(token: str) -> EquityError:
        return EquityError(
            f"{token!r} among the up cards of {text!r}: an up card is seen by everyone, so "
            "write it, or leave out one not dealt yet"
        )

    if bar:
        ups = tokens(up_text)
        if "|" in up_text:
            raise EquityError(f"more than one '|' in {text!r}: write DOWN | UP")
        for token in ups:
            if token in _HIDDEN:
                raise unknown_up(token)
        down = [c for t in tokens(down_text) if (c := card(t)) is not None]
        return Holding(tuple(down), tuple(c for t in ups if (c := card(t)) is not None))
    written = tokens(text)
    if len(written) > 7:
        raise EquityError(
            f"{len(written)} cards in {text!r}: a stud hand has seven (write DOWN | UP)"
        )
    if len(written) <= MAX_DOWN:
        return Holding(tuple(c for t in written if (c := card(t)) is not None))
    # a whole hand in the order dealt: positions 1, 2 and 7 down, 3 to 6 up
    down, up = [], []
    for i, token in enumerate(written):
        if 2 <= i <= 5:
            if token in _HIDDEN:
                raise unknown_up(token)
            up.append(card(token))
        elif (c := card(token)) is not None:
            down.append(c)
    return Holding(tuple(down), tuple(c for c in up if c is not None))


def parse_dead(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Dead cards from "8c 9d Js" (or a list of such strings)."""
    parts = [text] if isinstance(text, str) else list(text)
    out = []
    for part in parts:
        for token in part.replace(",", " ").split():
            try:
                out.append(parse_card(token))
            except ValueError:
                raise EquityError(f"not a card: {token!r} in the dead cards") from None
    return tuple(out)


def check_cards(
    holdings: Sequence[Holding], dead: Sequence[Card], community: Card | None = None
) -> None:
    """`EquityError` when the cards cannot all be real: a card twice, more than three
    down or four up cards, more than seven in all, more players than a table seats."""
    if len(holdings) < 2:
        raise EquityError("equity needs at least two players")
    if len(holdings) > MAX_PLAYERS:
        raise EquityError(f"at most {MAX_PLAYERS} players, got {len(holdings)}")
    top = 6 if community is not None else 7
    # the usual case in one pass (a bit per card; the simulator checks thousands of views)
    mask = count = 0
    for h in holdings:
        if len(h.down) > MAX_DOWN or len(h.up) > MAX_UP or len(h.down) + len(h.up) > top:
            break
        for c in h.down + h.up:
            mask |= 1 << c.index
            count += 1
    else:
        for c in (*dead, *((community,) if community is not None else ())):
            mask |= 1 << c.index
            count += 1
        if mask.bit_count() == count:
            return
    seen: dict[Card, str] = {}

    def see(c: Card, where: str) -> None:
        if c in seen:
            other = seen[c]
            raise EquityError(
                f"{c} appears twice ({other} and {where})"
                if other != where
                else f"{c} twice in {where}"
            )
        seen[c] = where

    for i, h in enumerate(holdings, 1):
        where = f"player {i}"
        if len(h.down) > MAX_DOWN or len(h.up) > MAX_UP or len(h.known) > top:
            raise EquityError(
                f"too many cards for {where} ({h}): at most {MAX_DOWN} down, {MAX_UP} up, "
                f"{top} in all"
            )
        for c in h.known:
            see(c, where)
    if community is not None:
        see(community, "the community card")
    for c in dead:
        see(c, "the dead cards")
