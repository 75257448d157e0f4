"""The machinery of the site-page walker (`test_site_pages.py`): read the form blocks of
`docs/sites/*.md`, write the template hands in a site's own words, put one example where
its kind belongs, and read the result with histkit's reader.

A page's form block is a fenced block opened by ```` ```form kind=K era=E source=R|K
status=read|unread ```` (and, for a header whose hand is of another game, `game=other`:
the hand is skipped by its header, which is what reading it right means; and, for an
example whose amounts only add up in one of the template hands, `template=SHOWDOWN`,
`MUCK` or `FOLD`; and `currency=EUR` (or `GBP`, `GEL`) for an example in a currency that is not
the site's first). Its lines are the example. The template hands are stud hi/lo at
0.10/0.20 (ante 0.02, bring-in 0.05): `Hero` (seat 2), `stonewall7` (seat 4), `LuluBelle`
(seat 6); LuluBelle folds to the bring-in, the other two play to a showdown (SHOWDOWN), or
stonewall7 mucks to Hero's hand (MUCK), or stonewall7's 7th-street bet is not called
(FOLD). Each is written by the site's writer, so the slots are where the site's own writer
puts each kind of line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from decimal import Decimal
from pathlib import Path

from histkit.cards import Card, parse_card
from histkit.dialects import get_dialect
from histkit.dialects.base import Dialect
from histkit.dialects.eras import eras
from histkit.model import (
    Action,
    ActionKind,
    Collect,
    Deal,
    Event,
    Game,
    Half,
    Hand,
    Muck,
    PotKind,
    Seat,
    SeatOutcome,
    SeatResult,
    Show,
    SourceRef,
    Street,
    StreetStart,
    Summary,
    UncalledBet,
    Unit,
)
from histkit.reader import ParseIssue, parse_text, strictly

PAGES = Path(__file__).resolve().parents[2] / "docs" / "sites"
KINDS = (
    "header", "seat", "ante", "bringin", "street", "deal", "action", "show", "collect",
    "pot", "summary", "note",
)  # fmt: skip
PLAYERS = ("Hero", "stonewall7", "LuluBelle")
SEAT_OF = {"Hero": 2, "stonewall7": 4, "LuluBelle": 6}
PLAYER_AT = {str(v): k for k, v in SEAT_OF.items()}

_FENCE = re.compile(r"^```form ([^\n]*)\n(.*?)^```$", re.M | re.S)
_NO_FORMS = re.compile(r"<!-- no forms: ([a-z, ]+?)(?: \(.*?\))? -->")


@dataclass(frozen=True)
class Block:
    """One form block of a page: where it is, what it claims, its example lines."""

    page: str  # the page's stem: the dialect's name
    line: int  # the fence's line in the page
    kind: str
    era: str
    source: str
    status: str
    lines: tuple[str, ...]
    other_game: bool = False
    template: str = ""  # the template hand the example belongs to, when the page says
    currency: str = ""  # the cash currency of that hand, when not the site's own

    @property
    def id(self) -> str:
        return f"{self.page}:{self.line}:{self.kind}"

    @property
    def text(self) -> str:
        return "\n".join(self.lines)


@dataclass(frozen=True)
class Page:
    name: str
    blocks: tuple[Block, ...]
    no_forms: frozenset[str] = field(default_factory=frozenset)


def read_page(path: Path) -> Page:
    """The form blocks of one page; a fence with a missing or unknown attribute is kept
    with what it has, for the test to name."""
    text = path.read_text(encoding="utf-8")
    blocks = []
    for m in _FENCE.finditer(text):
        attrs = dict(a.partition("=")[::2] for a in m.group(1).split())
        blocks.append(
            Block(
                page=path.stem,
                line=text.count("\n", 0, m.start()) + 1,
                kind=attrs.get("kind", ""),
                era=attrs.get("era", ""),
                source=attrs.get("source", ""),
                status=attrs.get("status", ""),
                lines=tuple(m.group(2).rstrip("\n").split("\n")),
                other_game=attrs.get("game") == "other",
                template=attrs.get("template", ""),
                currency=attrs.get("currency", ""),
            )
        )
    no = frozenset(k.strip() for m in _NO_FORMS.finditer(text) for k in m.group(1).split(","))
    return Page(path.stem, tuple(blocks), no)


def pages() -> list[Page]:
    return [read_page(p) for p in sorted(PAGES.glob("*.md"))]


# ------------------------------------------------------------------ the template hands


def _cards(text: str) -> tuple[Card | None, ...]:
    return tuple(None if x == "X" else parse_card(x) for x in text.split())


def _a(street: Street, player: str, kind: str, amount: int = 0, to: int | None = None) -> Action:
    return Action(street, player, ActionKind(kind), amount, to)


HERO_CARDS = "Jc 9c 4c 6c Qc 8h 8c"
STONE_CARDS = "7s 3h 2h 8s 6s Tc 7h"


def _to_sixth() -> list[Event]:
    """Antes to the end of 6th street: 0.67 each from Hero and stonewall7."""
    s = Street
    hero, stone = HERO_CARDS.split(), ["X", "X", *STONE_CARDS.split()[2:6], "X"]
    ev: list[Event] = [_a(s.THIRD, p, "ante", 2) for p in PLAYERS]
    ev += [
        StreetStart(s.THIRD),
        Deal(s.THIRD, "Hero", _cards(" ".join(hero[:3])), (False, False, True)),
        Deal(s.THIRD, "stonewall7", _cards(" ".join(stone[:3])), (False, False, True)),
        Deal(s.THIRD, "LuluBelle", _cards("X X 5d"), (False, False, True)),
        _a(s.THIRD, "stonewall7", "bring_in", 5),
        _a(s.THIRD, "LuluBelle", "fold"),
        _a(s.THIRD, "Hero", "call", 5),
    ]
    plays: dict[Street, list[tuple[str, str, int, int | None]]] = {
        s.FOURTH: [("stonewall7", "check", 0, None), ("Hero", "check", 0, None)],
        s.FIFTH: [
            ("Hero", "check", 0, None),
            ("stonewall7", "bet", 20, None),
            ("Hero", "raise", 20, 40),
            ("stonewall7", "call", 20, None),
        ],
        s.SIXTH: [("Hero", "bet", 20, None), ("stonewall7", "call", 20, None)],
    }
    for street, moves in plays.items():
        n = int(street)
        ev.append(StreetStart(street))
        ev.append(
            Deal(street, "Hero", _cards(hero[n - 1]), (True,), _cards(" ".join(hero[: n - 1])))
        )
        ev.append(
            Deal(
                street,
                "stonewall7",
                _cards(stone[n - 1]),
                (True,),
                _cards(" ".join(stone[: n - 1])),
            )
        )
        ev += [_a(street, p, k, a, t) for p, k, a, t in moves]
    ev.append(StreetStart(s.SEVENTH))
    ev.append(Deal(s.SEVENTH, "Hero", _cards("8c"), (False,), _cards(" ".join(hero[:6]))))
    ev.append(Deal(s.SEVENTH, "stonewall7", (None,), (False,), _cards(" ".join(stone[:6]))))
    return ev


def _shown(text: str) -> tuple[Card, ...]:
    return tuple(parse_card(x) for x in text.split())


def _folded() -> SeatResult:
    return SeatResult(
        6, "LuluBelle", SeatOutcome.FOLDED, folded_street=Street.THIRD, didnt_bet=True
    )


def template_events(which: str) -> tuple[list[Event], Summary]:
    """The events and summary of template `which` (SHOWDOWN, MUCK or FOLD)."""
    s = Street
    ev = _to_sixth()
    if which == "FOLD":
        ev += [
            _a(s.SEVENTH, "Hero", "check"),
            _a(s.SEVENTH, "stonewall7", "bet", 20),
            _a(s.SEVENTH, "Hero", "fold"),
            UncalledBet("stonewall7", 20, s.SEVENTH),
            Collect("stonewall7", 128, PotKind.POT),
        ]
        results = (
            SeatResult(2, "Hero", SeatOutcome.FOLDED, folded_street=s.SEVENTH),
            SeatResult(4, "stonewall7", SeatOutcome.COLLECTED, 128),
            _folded(),
        )
        return ev, Summary(136, 8, seats=results)
    ev += [
        _a(s.SEVENTH, "Hero", "check"),
        _a(s.SEVENTH, "stonewall7", "bet", 20),
        _a(s.SEVENTH, "Hero", "call", 20),
    ]
    hero = SeatResult(2, "Hero", SeatOutcome.SHOWED, 84, _shown(HERO_CARDS))
    if which == "MUCK":
        ev += [
            Show("Hero", _shown(HERO_CARDS)),
            Muck("stonewall7"),
            Collect("Hero", 168, PotKind.POT, half=Half.WHOLE),
        ]
        results = (
            SeatResult(2, "Hero", SeatOutcome.SHOWED, 168, _shown(HERO_CARDS)),
            SeatResult(4, "stonewall7", SeatOutcome.MUCKED),
            _folded(),
        )
        return ev, Summary(176, 8, seats=results)
    ev += [
        Show("stonewall7", _shown(STONE_CARDS)),
        Show("Hero", _shown(HERO_CARDS)),
        Collect("Hero", 84, PotKind.POT, half=Half.HIGH),
        Collect("stonewall7", 84, PotKind.POT, half=Half.LOW),
    ]
    stone = SeatResult(4, "stonewall7", SeatOutcome.SHOWED, 84, _shown(STONE_CARDS))
    return ev, Summary(176, 8, seats=(hero, stone, _folded()))


def template_hand(
    dialect: Dialect, which: str, chips: bool = False, currency: str | None = None
) -> Hand:
    """Template `which` in the site's cash currency, or (`chips`) as a tournament's."""
    events, summary = template_events(which)
    hand = Hand(
        site=dialect.site if hasattr(dialect, "site") else dialect.name,
        hand_id="91203344",
        game=Game.STUD_HILO,
        small_bet=10,
        big_bet=20,
        unit=Unit.CENT,
        currency=currency or dialect.default_currency,
        started_at=datetime(2016, 11, 16, 21, 30, 6, tzinfo=UTC),
        table="Pampelune",
        max_seats=6,
        seats=tuple(
            Seat(n, p, st) for p, n, st in zip(PLAYERS, (2, 4, 6), (440, 1120, 200), strict=True)
        ),
        events=tuple(events),
        summary=summary,
        source=SourceRef("template", 1),
        hero="Hero",
        ante=2,
        bring_in=5,
    )
    if not chips:
        return hand
    return replace(hand, unit=Unit.CHIP, currency=None, tournament_id="4187203", level="1")


def needs_chips(block: Block) -> bool:
    """Whether the example belongs to a hand counted in chips (a tournament's, or play
    money at a site that counts it so)."""
    return bool(re.search(r'Tournament|realmoney="false"|\|true"|chips="[\d,]+"', block.text))


# ----------------------------------------------------------------------------- reading


def read(dialect: Dialect, text: str) -> list[Hand | ParseIssue]:
    """Every hand and issue of `text` read strictly as `dialect` (XML sites by their XML
    reader): a hand read without a line is rejected for that line, so an example is read
    only when it reads whole, and the reason says why not (the other unit, ...)."""
    if hasattr(dialect, "read_xml"):
        return list(strictly(dialect.read_xml(text.split("\n"), "page.xml")))
    return list(strictly(parse_text(text, source="page.txt", site=dialect)))


def unread_lines(hand: Hand) -> int:
    """How many of the hand's lines were not understood (`hands.unread_lines`); 0 where
    the reader rejects such a hand instead."""
    n = getattr(hand, "unread_lines", 0)
    return n if isinstance(n, int) else len(n)


def cents(text: str) -> list[int]:
    """The amounts written in `text`, in hundredths: a comma before three digits is a
    thousands separator, before one or two a decimal comma (the French skins')."""
    out = []
    number = r"(?<![\w.,#:/+-])-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:[.,]\d{1,2})?(?![\w,]|[.:/]\d)"
    for m in re.finditer(number, text):
        num = m.group(0)
        if re.search(r",\d{1,2}$", num):
            num = num.replace(".", "").replace(",", ".")
        else:
            num = num.replace(",", "")
        out.append(int(Decimal(num) * 100))
    return out


def dialect_of(page: str) -> Dialect:
    return get_dialect(page)


# --------------------------------------------------------------------------- placement


class CannotPlace(Exception):
    """The walker has no slot for a block: the page or the walker must change."""


@dataclass(frozen=True)
class Placed:
    """A template with one example in it: the text, the example's first line there, the
    template it went into."""

    text: str
    line: int
    template: str
    event: bool = True  # whether it took the place of (or joins) a line of play
    results: tuple[int, ...] = ()  # the template's summary seat lines, as placed


_NUMBERS = {
    "3rd": 3, "third": 3, "4th": 4, "fourth": 4, "5th": 5, "fifth": 5, "6th": 6,
    "sixth": 6, "7th": 7, "seventh": 7, "river": 7, "hole": 3,
}  # fmt: skip


def street_number(text: str) -> int | None:
    for word in re.findall(r"[a-z0-9]+", text.lower()):
        if word in _NUMBERS:
            return _NUMBERS[word]
    return None


# the test's players as a site that names seats writes them (Bovada: "Seat+2 [ME]")
SEAT_NAMES = tuple(f"Seat+{n}" for n in SEAT_OF.values())


def player_in(text: str) -> str | None:
    """The first of the test's players that `text` names (as the site names them)."""
    found = [(text.find(p), p) for p in (*PLAYERS, *SEAT_NAMES) if p in text]
    return min(found)[1] if found else None


def verb_after(text: str, player: str) -> str:
    rest = text[text.index(player) + len(player) :].split()
    while rest and rest[0] in ("[ME]", ":", "[ME]:", "-"):  # Absolute: "P - Calls X"
        rest.pop(0)
    return rest[0].strip(":") if rest else ""


def shape(text: str) -> tuple[tuple[str, ...], ...]:
    """A deal line's card groups, each card as X (not seen) or c."""
    return tuple(
        tuple("X" if t == "X" else "c" for t in g.split())
        for g in re.findall(r"\[([^\]]*)\]", text)
    )


def choose_template(block: Block) -> str:
    if block.template:
        return block.template
    low = block.text.lower()
    if block.kind == "action" and low.startswith("uncalled"):
        return "FOLD"
    if block.kind in ("show", "summary") and ("did not show" in low or "folded on the 7th" in low):
        return "FOLD"
    if block.kind == "action" and ("uncalled" in low or "not called" in low):
        return "FOLD"
    if block.kind in ("show", "summary") and "muck" in low:
        return "MUCK"
    return "SHOWDOWN"


def _event_lines(hand: Hand) -> list[tuple[int, object]]:
    return [(getattr(e, "line", 0), e) for e in hand.events]


# a verb the template lacks stands for one it has
_LIKE_VERB = {
    "caps": "raises", "cap": "raises", "allin": "calls", "all-in": "calls",
    "completes": "raises", "call": "calls", "bet": "bets", "d": "bets", "double": "bets",
    "raise": "raises", "check": "checks", "fold": "folds",
    "is": "calls",  # PartyPoker's "P is all-In [X]"
}  # fmt: skip


def _plain(verb: str) -> str:
    """A verb in lower case without what follows it in brackets ("Folds(timeout)")."""
    return verb.lower().partition("(")[0]


def _verbs(line: str) -> tuple[str, str]:
    """A template line's verb, plain and as the verb it is like ("Call" -> "calls")."""
    v = _plain(_verb_of(line))
    return v, _LIKE_VERB.get(v, v)


def _verb_of(line: str) -> str:
    """The word after the player's name in a template line (any of the players)."""
    who = player_in(line)
    return verb_after(line, who) if who else ""


def _tail_likeness(line: str, example: str) -> int:
    """How far two lines agree after their players' names."""
    a, b = player_in(line), player_in(example)
    if a is None or b is None:
        return 0

    def tail(text: str, who: str) -> str:
        return text[text.index(who) + len(who) :].removeprefix(" [ME]").lstrip(" :")

    return _common_prefix(tail(line, a), tail(example, b))


def _common_prefix(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def _text_slot(block: Block, hand: Hand, lines: list[str]) -> tuple[int, bool]:
    """(the 1-based template line, whether the example replaces it) for a text site;
    a line number of `n + 0.5`-style insertion is given as (n, False): insert after n."""
    kind, text = block.kind, block.lines[0]
    events = _event_lines(hand)
    player = player_in(text)

    def lines_of(cls: type, who: str | None = None, pred: object = None) -> list[int]:
        return [
            n
            for n, e in events
            if isinstance(e, cls)
            and (who is None or getattr(e, "player", None) == who)
            and (pred is None or pred(e))  # type: ignore[operator]
        ]

    if kind == "header":
        return 1, True
    if kind == "seat":
        m = re.match(r"\s*Seat[ +](\d+)", text)
        if not m:
            raise CannotPlace("a seat example must start 'Seat <n>:'")
        no = int(m.group(1))
        same = [s.line for s in hand.seats if s.seat == no]
        if same:
            return same[0], True
        before = [s.line for s in hand.seats if s.seat < no]
        return (max(before) if before else hand.seats[0].line - 1), False
    if kind in ("ante", "bringin"):
        act = ActionKind.ANTE if kind == "ante" else ActionKind.BRING_IN
        found = lines_of(Action, player, lambda e: e.kind is act) or lines_of(
            Action, None, lambda e: e.kind is act
        )
        taken = {n for n, _ in events}
        notes = [
            i for i in range(1, len(lines) + 1)
            if i not in taken and _tail_likeness(lines[i - 1], text) >= 3
        ]  # fmt: skip
        if notes or found:  # a line about the bring-in that is no play: "P is low with [2c]"
            return max(notes + found[:1], key=lambda x: _tail_likeness(lines[x - 1], text)), True
    if kind == "street":
        n = street_number(text)
        starts = lines_of(StreetStart)
        same = [x for x in starts if street_number(lines[x - 1]) == n]
        if same:
            return same[0], True
        exact = [ln for ln, e in events if isinstance(e, StreetStart) and int(e.street) == n]
        if exact:
            return exact[0], True
    if kind == "deal" and player:
        want = shape(text)
        for who in (player, None):  # the player's own deal, else anyone's of that shape
            mine = lines_of(Deal, who)
            for ok in (
                lambda x: shape(lines[x - 1]) == want,
                lambda x: [len(g) for g in shape(lines[x - 1])] == [len(g) for g in want],
            ):
                hit = [x for x in mine if ok(x)]
                if hit:
                    return hit[0], True
        third = lines_of(StreetStart, None, lambda e: e.street is Street.THIRD)
        if third and not lines_of(Deal):  # a site that writes no deal (Everleaf): 3rd street's
            return third[0], False
    if kind == "action":
        if "uncalled" in text.lower() or "not called" in text.lower():  # Absolute: the latter
            found = lines_of(UncalledBet)
            if found and "ncalled" not in lines[found[0] - 1]:
                return found[0] - 1, False  # a return the site does not print: before it
            if found:
                return found[0], True
        elif player:
            verb = _plain(verb_after(text, player))
            for who in (player, None):  # the player's own line, else anyone's
                mine = lines_of(Action, who)
                for v in (verb, _LIKE_VERB.get(verb)):
                    hit = [x for x in mine if v and v in _verbs(lines[x - 1])]
                    same = [x for x in hit if cents(lines[x - 1]) == cents(text)]
                    if hit:
                        return (same or hit)[0], True
    if kind in ("show", "collect") and player:
        cls: tuple[type, ...] = (Show, Muck) if kind == "show" else (Collect,)
        for who in (player, None):  # the player's own line, else the likest of anyone's
            found = [x for c in cls for x in lines_of(c, who)]
            if found:
                return max(found, key=lambda x: (_tail_likeness(lines[x - 1], text), -x)), True
    if kind == "note":
        sixth = [s.player for s in hand.seats if s.seat == SEAT_OF["LuluBelle"]]
        found = lines_of(Action, sixth[0] if sixth else None, lambda e: e.kind is ActionKind.FOLD)
        if found:
            return found[0], False
    if kind == "summary" and hand.summary is not None:
        m = re.match(r"Seat (\d+):", text)
        results = hand.summary.seats
        if m:
            same = [r.line for r in results if r.seat == int(m.group(1))]
            if same:
                return same[0], True
            return max(r.line for r in results), False
        if player:
            same = [r.line for r in results if r.player == player]
            if same:
                return same[0], True
    if kind != "header":
        start = hand.summary.line if kind == "summary" and hand.summary else 1
        taken = {n for n, _ in events}
        like = _tail_likeness if player else _common_prefix  # after the name, where one is
        best = max(
            ((like(lines[i - 1], text), i) for i in range(start, len(lines) + 1)
             if i not in taken),
            default=(0, 0),
        )  # fmt: skip
        if best[0] >= (4 if kind in ("pot", "summary") else 8):
            return best[1], True
        if kind == "summary" and hand.summary is not None and hand.summary.seats:
            return max(r.line for r in hand.summary.seats), False  # the hand's last line
    raise CannotPlace(f"no slot for a {kind} line like {text!r}")


def _own_id(template: str, example: str, hand_id: str) -> str | None:
    """The example header's hand id, where it stands where the template's first line has
    its own (after the same words)."""
    if hand_id not in template:
        return None
    before = template[: template.index(hand_id)]
    m = re.match(r"[-\w]+", example[len(before) :]) if example.startswith(before) else None
    return m.group(0) if m and m.group(0) != hand_id else None


def place_text(block: Block, dialect: Dialect, chips: bool) -> Placed:
    name = choose_template(block)
    hand_in = template_hand(dialect, name, chips, block.currency or None)
    later = block.era in eras(dialect.name)[1:]  # an era the writer writes besides its default
    written = dialect.write_hands([hand_in], era=block.era if later else None)
    items = read(dialect, written)
    hand = items[0]
    if len(items) != 1 or not isinstance(hand, Hand):
        raise CannotPlace(f"the {name} template of {dialect.name} does not read: {items}")
    lines = written.split("\n")
    at, replace = _text_slot(block, hand, lines)
    if block.kind == "header":
        rest = lines[len(block.lines) :]
        own = _own_id(lines[0], block.lines[0], hand.hand_id)
        if own:  # a site that repeats the hand's id at its end (OnGame) takes the example's
            rest = [line.replace(hand.hand_id, own) for line in rest]
        return Placed("\n".join([*block.lines, *rest]), 1, name)
    event = not replace or any(getattr(e, "line", None) == at for e in hand.events)
    new = [*lines[: at - 1], *block.lines, *lines[at:]] if replace else [
        *lines[:at], *block.lines, *lines[at:]
    ]  # fmt: skip
    shift = 0 if replace else 1
    results = tuple(
        r.line + (shift if r.line > at else 0) for r in (hand.summary.seats if hand.summary else ())
    )
    return Placed("\n".join(new), at if replace else at + 1, name, event, results)


# ------------------------------------------------------------------------ XML placement

_ELEMENT = re.compile(r"<(\w+)((?:\s+[\w:]+=\"[^\"]*\")*)\s*(/?)>")
_IDS = {
    "action": ("no",),
    "cards": ("type", "player"),
    "player": ("seat",),
    "event": ("sequence",),
    "winner": ("player", "potnumber", "pottype"),
    "round": ("no", "id"),
}
# where an element the template has none of goes: (site, kind) -> the text it follows
_PARENT = {
    ("ipoker", "header"): "<general>",
    ("ipoker", "seat"): "<players>",
    ("ipoker", "note"): '<round no="2">',
    ("ipoker", "action"): '<round no="2">',
    ("merge", "seat"): "<players",
    ("merge", "note"): '<round id="THIRD_STREET"',
    ("merge", "action"): '<round id="THIRD_STREET"',
    ("merge", "ante"): '<round id="BLINDS"',
    ("merge", "bringin"): '<round id="BRING_IN"',
    ("merge", "show"): '<round id="SHOWDOWN"',
    ("merge", "collect"): '<round id="END_OF_GAME"',
    ("merge", "deal"): '<round id="FOURTH_STREET"',
}


def attrs(text: str) -> dict[str, str]:
    return dict(re.findall(r"([\w:]+)=\"([^\"]*)\"", text))


def _spans(text: str, tag: str, ids: dict[str, str], open_only: bool) -> list[tuple[int, int]]:
    """Where the template's elements `tag` with attributes `ids` are: the open tag alone,
    or the whole element."""
    out = []
    for m in _ELEMENT.finditer(text):
        if m.group(1) != tag or any(attrs(m.group(2)).get(k) != v for k, v in ids.items()):
            continue
        end = m.end()
        if not open_only and not m.group(3):
            close = text.find(f"</{tag}>", end)
            end = close + len(f"</{tag}>") if close >= 0 else end
        out.append((m.start(), end))
    return out


# a play the template lacks stands in for one it has: (iPoker's type codes, Merge's words)
_LIKE = {"6": "23", "7": "3", "9": "0", "ALL_IN": "CALL", "COMPLETE": "CALL"}
_NOTE_TYPES = frozenset({"CHAT", "SIT_OUT", "DISCONNECTED", "RECONNECTED", "LEAVE", "PLAYER_OUT"})


def _play_slot(
    written: str, tag: str, own: dict[str, str], example: str
) -> tuple[list[tuple[int, int]], str]:
    """The template's play of the example's player and type (or a like type), the
    example taking its number: the numbers order the play, the form is the example's."""
    key = "no" if tag == "action" else "sequence"
    if own.get("type") in _NOTE_TYPES:
        return [], example
    mine = _spans(written, tag, {"player": own["player"]}, False)
    kinds = [own.get("type"), _LIKE.get(own.get("type", ""))]
    for ok in (
        lambda a: attrs(a).get(key) == own.get(key) and attrs(a).get("type") == own.get("type"),
        lambda a: attrs(a).get("type") == kinds[0],
        lambda a: attrs(a).get("type") == kinds[1],
        lambda a: attrs(a).get(key) == own.get(key),
    ):
        hit = [(a, b) for a, b in mine if ok(written[a:b])]
        if hit:
            number = attrs(written[hit[0][0] : hit[0][1]])[key]
            return hit[:1], re.sub(rf'\b{key}="[^"]*"', f'{key}="{number}"', example, count=1)
    return [], example


def place_xml(block: Block, dialect: Dialect, chips: bool) -> Placed:
    name = choose_template(block)
    written = dialect.write_hands([template_hand(dialect, name, chips, block.currency or None)])
    example = block.text
    first = _ELEMENT.search(example)
    if first is None:
        raise CannotPlace("an XML example must start with an element")
    tag, own = first.group(1), attrs(first.group(2))
    ids = {k: own[k] for k in _IDS.get(tag, ()) if k in own}
    open_only = not first.group(3) and f"</{tag}>" not in example
    spans = _spans(written, tag, ids, open_only)
    if tag in ("action", "event") and "player" in own:
        spans, example = _play_slot(written, tag, own, example)
    if tag == "cards" and "cards" in own and len(spans) > 1:  # Merge: the street by its size
        size = len(own["cards"].split(","))
        sized = [
            (a, b) for a, b in spans if len(attrs(written[a:b]).get("cards", "").split(",")) == size
        ]
        spans = sized or spans
    if spans:
        if tag == "cards":
            spans = spans[:1]
        for a, b in reversed(spans):
            written = written[:a] + example + written[b:]
        return Placed(written, written.count("\n", 0, spans[0][0]) + 1, name)
    parent = _PARENT.get((dialect.name, block.kind))
    at = written.find(parent) if parent else -1
    if at < 0:
        raise CannotPlace(f"no {tag} element like {example!r} and no parent for a {block.kind}")
    at = written.index(">", at) + 1
    return Placed(written[:at] + example + written[at:], written.count("\n", 0, at) + 1, name)


# ------------------------------------------------------------------------------ effect


def place(block: Block, chips: bool) -> tuple[Dialect, Placed]:
    dialect = dialect_of(block.page)
    if hasattr(dialect, "read_xml"):
        return dialect, place_xml(block, dialect, chips)
    return dialect, place_text(block, dialect, chips)


# a reader's words for an amount in the other unit: the example is a tournament's (or cash)
_OTHER_UNIT = re.compile(
    r"counted in (cents|chips)|chip amount .* is not a whole number|in a hand of (cents|chips)"
)


def _xml_player(block: Block) -> str | None:
    """The player an XML example names (Merge names a seat)."""
    who = attrs(block.text).get("player") or attrs(block.text).get("name")
    if who is None:
        return None
    return PLAYER_AT.get(who, who) if block.page == "merge" else who


def effect(block: Block, placed: Placed, hand: Hand) -> str | None:
    """Why the example's effect is not in `hand` (None: it is, or there is none to check
    cheaply)."""
    xml = block.text.startswith("<")
    amounts = cents(" ".join(attrs(block.text).get(k, "") for k in ("sum", "amount"))) if xml else [
        c for c in cents(block.text) if c
    ]  # fmt: skip
    if hand.unit is Unit.CHIP:  # chips are whole: "1,500" is 1500, not 150000 hundredths
        amounts = [a // 100 for a in amounts]
    at = placed.line
    here = (
        [e for e in hand.events if getattr(e, "line", None) == at] if not xml else list(hand.events)
    )
    if block.kind == "header":
        if xml:
            return None
        return (
            None if hand.hand_id in block.text else f"hand id {hand.hand_id} is not the example's"
        )
    if block.kind == "seat":
        m = re.search(r"[Ss]eat[ =\"+]*(\d+)", block.text)
        seats = [s for s in hand.seats if m and s.seat == int(m.group(1))]
        return None if seats else "no seat of the example's number"
    if block.kind in ("ante", "bringin", "action"):
        who = _xml_player(block) if xml else player_in(block.text)
        if not placed.event and not amounts:
            return None  # a line that is no play ("P is low with [2c]"): read is enough
        acts = [e for e in here if isinstance(e, (Action, UncalledBet))]
        if who is not None:
            acts = [e for e in acts if e.player == who]
        if not acts:
            return f"no action of {who} from the example"
        all_in = re.search(r"all[- ]in", block.text, re.I) is not None
        if all_in:  # what an all-in's amount means differs by site: the flag is the effect
            return None if any(getattr(e, "all_in", False) for e in acts) else "no all-in"
        # a wager written with a minus sign (a site's mistake) puts that many chips in
        wagers = {abs(a) for a in amounts}
        if amounts and not any(
            {getattr(e, "amount", None), getattr(e, "to_amount", None)} & wagers for e in acts
        ):
            return f"none of the amounts {amounts} in {acts}"
        return None
    if block.kind in ("deal", "street", "show", "collect") and not xml:
        want = {"deal": Deal, "street": StreetStart, "show": (Show, Muck), "collect": Collect}
        found = [e for e in here if isinstance(e, want[block.kind])]  # type: ignore[arg-type]
        if not found and not placed.event:
            return None  # a line that stands for no event ("*** SHOW DOWN ***"): read is enough
        if not found:
            return f"no {block.kind} event from line {at}"
        if (
            block.kind == "collect"
            and amounts
            and not any(getattr(e, "amount", None) in amounts for e in found)
        ):
            return f"none of the amounts {amounts} collected"
        return None
    if block.kind == "pot" and not xml and hand.summary is not None and at > hand.summary.line:
        rake = re.search(r"Rake:? ([^ |.]*(?:\.\d+)?)", block.text)
        if rake and cents(rake.group(1)) and hand.summary.rake not in cents(rake.group(1)):
            return f"the rake {hand.summary.rake} is not the example's"
    seat_line = block.kind == "summary" and re.match(r"\**(Seat \d+|Player )", block.text)
    results = hand.summary.seats if hand.summary is not None else ()
    if seat_line and not xml and not any(r.line == at for r in results):
        return f"no summary seat from line {at}"
    return None


def outcome(block: Block) -> tuple[bool, str]:
    """Whether the block's example reads cleanly in its slot, and what came of it."""
    chips = needs_chips(block)
    dialect, placed = place(block, chips)
    items = read(dialect, placed.text)
    if len(items) == 1 and _OTHER_UNIT.search(getattr(items[0], "reason", "") or ""):
        dialect, placed = place(block, not chips)  # the example is in the other unit
        items = read(dialect, placed.text)
    later = getattr(items[0], "line", None) if len(items) == 1 else None
    if block.kind in ("ante", "bringin", "action") and later and later in placed.results:
        # the template's summary no longer adds up with the example's chips (a site whose
        # summary repeats each player's bets): the play is read without the seat lines
        kept = [t for i, t in enumerate(placed.text.split("\n"), 1) if i not in placed.results]
        items = read(dialect, "\n".join(kept))
    if block.other_game:
        ok = [getattr(i, "kind", None) for i in items] == ["skipped"]
        return ok, f"{items}"
    if len(items) != 1 or not isinstance(items[0], Hand):
        return False, f"read as {items}"
    hand = items[0]
    if unread_lines(hand):
        return False, f"{unread_lines(hand)} line(s) not understood"
    why = effect(block, placed, hand)
    return why is None, why or "read, with its effect"
