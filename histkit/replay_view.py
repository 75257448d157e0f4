"""One hand replayed for people, as HTML: cards drawn as cards, street by street, with the
pot and every stack, who bet what, the showdown with each hand's name, and the audit's
verdict on each pot.

It reads only the tables (`histkit.stats.frames`), so a hand from text, a folder of tables
or the hand database looks the same. Text from the hands goes through `textsafe`, as in
the rest of the report.
"""

from __future__ import annotations

import html
from collections.abc import Callable
from typing import Any

import pandas as pd

from histkit.cards import parse_card
from histkit.evaluate import high_name, low8_name, low_name
from histkit.money import format_amount
from histkit.textsafe import html_text

__all__ = ["CARD_CSS", "card_html", "hand_name", "hand_view"]

_SUITS = {"s": ("\u2660", "spades"), "h": ("\u2665", "hearts"), "d": ("\u2666", "diamonds"),
          "c": ("\u2663", "clubs")}  # fmt: skip
_STREET = {3: "3rd street", 4: "4th street", 5: "5th street", 6: "6th street", 7: "7th street"}

#: the cards' look: a four-colour deck (spades black, hearts red, diamonds blue, clubs
#: green, as trackers draw them), down cards shaded, unknown cards as a card back
CARD_CSS = """
.card{display:inline-block;min-width:1.9em;padding:.05em .25em;margin:0 .08em;border:1px solid
#999;border-radius:.25em;background:#fff;font-weight:600;text-align:center;
font-family:ui-monospace,Menlo,Consolas,monospace;line-height:1.3}
.card.down{background:#eef1f5;border-style:dashed}.card.back{background:repeating-linear-gradient(
45deg,#7a8fb0,#7a8fb0 3px,#9db0cc 3px,#9db0cc 6px);color:transparent}
.card.spades{color:#111}.card.hearts{color:#c62828}.card.diamonds{color:#1565c0}
.card.clubs{color:#2e7d32}
table.replay{width:100%}table.replay td{vertical-align:top;text-align:left}
table.replay td.num{text-align:right;white-space:nowrap}
table.replay td:first-child{white-space:nowrap}
.street-head{background:#f3f6fa;font-weight:600}.verdict-ok{color:#2e7d32}
.verdict-bad{color:#c62828;font-weight:bold}
table.replay .nth{color:#777;font-size:.85em;font-weight:normal}
"""


def card_html(card: str | None, *, up: bool = True) -> str:
    """A card as a small glyph: rank and a coloured suit ("A♥"), a down card shaded, an
    unknown card (None or "??") as a card back."""
    if not card or len(card) < 2 or card[-1] not in _SUITS:
        return '<span class="card back" title="unknown card">??</span>'
    rank = "10" if card[0] == "T" else card[0]
    glyph, suit = _SUITS[card[-1]]
    down = "" if up else " down"
    where = "up" if up else "down"
    return (
        f'<span class="card {suit}{down}" title="{html.escape(card)} ({where})">'
        f"{html.escape(rank)}{glyph}</span>"
    )


def hand_name(game: str, cards: list[str]) -> str:
    """The name of the best hand the cards make in the game: "two pair, Jacks and
    Eights"; "8-7-5-4-3 low"; for hi/lo both halves, or "no low"."""
    known = [parse_card(c) for c in cards if c and len(c) == 2 and c[-1] in _SUITS]
    if len(known) < 5:
        return ""
    if game == "razz":
        return f"{low_name(known).replace(',', '-')} low"
    high = high_name(known)
    if game != "stud_hilo":
        return high
    low = low8_name(known)
    return f"{high}; {low.replace(',', '-')} low" if low else f"{high}; no low"


def _e(x: Any) -> str:
    return html.escape(str(x))


def _street_totals(acts: pd.DataFrame) -> dict[int, dict[str, int]]:
    """Street -> player -> chips put in on that street (antes as street 0): a line's
    "to" total where it has one, else what it adds."""
    out: dict[int, dict[str, int]] = {}
    for a in acts.itertuples():
        street = 0 if a.kind == "ante" else int(a.street)
        mine = out.setdefault(street, {})
        if a.kind in ("check", "fold"):
            mine.setdefault(a.player, 0)
            continue
        to = a.to_amount
        if to is not None and not pd.isna(to):
            mine[a.player] = int(to)
        else:
            mine[a.player] = mine.get(a.player, 0) + int(a.amount or 0)
    return out


def hand_view(
    fr: dict[str, pd.DataFrame],
    hand_id: str,
    *,
    hero: str | None = None,
    extra: Callable[[int], str] | None = None,
) -> str:
    """The hand `hand_id` replayed as an HTML table: a row per street with each player's
    cards, actions, the pot and the stacks after the street; the showdown with hand names;
    who collected what and the audit's verdict on each pot. `extra(street)` may add a line
    under a street (e.g. each player's equity)."""
    hands = fr["hands"]
    h = hands[hands["hand_id"] == hand_id].iloc[0]
    unit = str(h["money_unit"]) if "money_unit" in h and not pd.isna(h["money_unit"]) else "?"
    money: Callable[[Any], str] = lambda v: _e(format_amount(int(v), unit))  # noqa: E731
    acts = fr["actions"][fr["actions"]["hand_id"] == hand_id].sort_values("seq")
    cards = fr["cards"][fr["cards"]["hand_id"] == hand_id]
    seats = fr["seats"][(fr["seats"]["hand_id"] == hand_id) & fr["seats"]["dealt_in"]]
    seats = seats.sort_values("seat")
    players = seats["player"].tolist()
    stacks = dict(zip(players, seats["starting_stack"].astype("int64"), strict=True))
    totals = _street_totals(acts)
    rows = []
    head = "".join(
        f'<th>{html_text(p)}{" ★" if p == hero else ""}<br><span class="muted">seat '
        f"{int(s)}</span></th>"
        for p, s in zip(players, seats["seat"], strict=True)
    )
    rows.append(f"<tr><th>street</th>{head}<th>pot</th></tr>")
    start = "".join(f'<td class="num">{money(stacks[p])}</td>' for p in players)
    rows.append(f'<tr><td>stacks</td>{start}<td class="num"></td></tr>')
    pot = 0
    ante_put = totals.get(0, {})
    if ante_put:
        pot += sum(ante_put.values())
        for p, v in ante_put.items():
            if p in stacks:
                stacks[p] -= v
        paid = "".join(
            f'<td class="num">{money(ante_put[p]) if p in ante_put else ""}</td>' for p in players
        )
        rows.append(f'<tr><td>antes</td>{paid}<td class="num">{money(pot)}</td></tr>')
    streets = sorted(set(cards["street"].dropna().astype(int)) | set(acts["street"].astype(int)))
    for street in streets:
        dealt = cards[(cards["street"] == street) & cards["player"].notna()]
        board = cards[(cards["street"] == street) & cards["player"].isna() & cards["card"].notna()]
        cells: list[str] = []
        street_acts = acts[(acts["street"] == street) & (acts["kind"] != "ante")]
        words = _action_words(street_acts, street, money)
        for p in players:
            mine = dealt[dealt["player"] == p]
            glyphs = "".join(
                card_html(c if k else None, up=bool(u))
                for c, k, u in zip(mine["card"], mine["known"], mine["up"], strict=True)
            )
            said = [w for who, w in words if who == p]
            cells.append(f"<td>{glyphs}<br>{'<br>'.join(said)}</td>")
        put = totals.get(street, {})
        pot += sum(put.values())
        for p, v in put.items():
            if p in stacks:
                stacks[p] -= v
        community = ""
        if not board.empty:
            community = f"<br>community {card_html(str(board['card'].iloc[0]))}"
        rows.append(
            f'<tr class="street-head"><td>{_STREET.get(street, street)}{community}</td>'
            + "".join(cells)
            + f'<td class="num">{money(pot)}</td></tr>'
        )
        after = "".join(f'<td class="num muted">{money(stacks[p])}</td>' for p in players)
        rows.append(f'<tr><td class="muted">stacks after</td>{after}<td></td></tr>')
        if extra is not None and (more := extra(street)):
            rows.append(f'<tr><td class="muted">equity</td><td colspan="{len(players) + 1}">'
                        f"{more}</td></tr>")  # fmt: skip
    out = [f'<table class="replay">{"".join(rows)}</table>']
    out.append(_showdown(h, seats, cards, money))
    out.append(_result(h, seats, money))
    out.append(_verdicts(fr, hand_id, money))
    return "\n".join(x for x in out if x)


def _action_words(
    acts: pd.DataFrame, street: int, money: Callable[[Any], str]
) -> list[tuple[str, str]]:
    """(player, what they did) for a street's actions in order, each numbered within the
    street ("1. brings in", "2. completes", "3. calls"): with one column per player the
    order across players would be lost. On 3rd street the first bet or raise over the
    bring-in is the completion, whatever the site called it."""
    out = []
    wagers = 0
    for nth, a in enumerate(acts.itertuples(), start=1):
        completes = street == 3 and wagers == 0 and a.kind in ("raise", "complete", "bet")
        text = _action_text(a, money, completes=completes)
        out.append((a.player, f'<span class="nth" title="order on this street">{nth}.</span> '
                              f"{text}"))  # fmt: skip
        wagers += a.kind in ("raise", "complete", "bet")
    return out


def _action_text(a: Any, money: Callable[[Any], str], *, completes: bool = False) -> str:
    kind = a.kind
    to = a.to_amount if a.to_amount is not None and not pd.isna(a.to_amount) else None
    if kind == "bring_in":
        text = f"brings in {money(a.amount)}"
    elif kind == "complete" or completes:
        text = f"completes to {money(to if to is not None else a.amount)}"
    elif kind == "raise":
        text = f"raises to {money(to)}" if to is not None else f"raises {money(a.amount)}"
    elif kind == "bet":
        text = f"bets {money(a.amount)}"
    elif kind == "call":
        text = f"calls {money(a.amount)}"
    else:
        text = {"check": "checks", "fold": "folds"}.get(kind, _e(kind))
    return text + (" <b>all-in</b>" if a.all_in else "")


def _showdown(h: Any, seats: pd.DataFrame, cards: pd.DataFrame, money: Any) -> str:
    sd = seats[seats["showdown"].fillna(False).astype(bool)]
    if len(sd) < 2:
        return ""
    parts = []
    for p in sd["player"]:
        mine = cards[(cards["player"] == p) & cards["known"]]
        shown = mine.drop_duplicates("card")
        glyphs = "".join(
            card_html(str(c), up=bool(u)) for c, u in zip(shown["card"], shown["up"], strict=True)
        )
        board = cards[cards["player"].isna() & cards["card"].notna()]["card"].tolist()
        name = hand_name(str(h["game"]), [*shown["card"].astype(str).tolist(), *map(str, board)])
        parts.append(f"<li>{html_text(p)} {glyphs} <i>{_e(name)}</i></li>")
    return f"<p><b>Showdown</b></p><ul>{''.join(parts)}</ul>"


def _result(h: Any, seats: pd.DataFrame, money: Any) -> str:
    won = seats[seats["collected"] > 0]
    res = ", ".join(
        f"{html_text(r.player)} collected {money(r.collected)}" for r in won.itertuples()
    )
    rake = 0 if pd.isna(h["rake"]) else int(h["rake"])
    total = "" if pd.isna(h["total_pot"]) else f"total pot {money(h['total_pot'])}; "
    return (
        f"<p><b>Result</b> {total}{res or 'nobody collected'}"
        + (f"; rake {money(rake)}" if rake else "")
        + "</p>"
    )


def _verdicts(fr: dict[str, pd.DataFrame], hand_id: str, money: Any) -> str:
    """Each pot half with what the site paid and what the rules engine says."""
    aw = fr.get("awards")
    if aw is None:
        return '<p class="muted">Not audited.</p>'
    mine = aw[(aw["hand_id"] == hand_id) & (aw["reported"].gt(0) | aw["expected"].fillna(0).gt(0))]
    if mine.empty:
        return ""
    items = []
    for (pot, half), part in mine.groupby(["pot", "half"], sort=True):
        name = "main pot" if pot == 0 else f"side pot {pot}"
        name += "" if half == "whole" else f", {half} half"
        paid = ", ".join(
            f"{html_text(r.player)} {money(r.reported)}" for r in part.itertuples() if r.reported
        )
        unsettled = part["expected"].isna().any()
        right = not unsettled and (part["expected"] == part["reported"]).all()
        if unsettled:
            verdict = '<span class="muted">the cards shown do not settle it</span>'
        elif right:
            verdict = '<span class="verdict-ok">✓ paid as the rules say</span>'
        else:
            should = ", ".join(
                f"{html_text(r.player)} {money(r.expected)}"
                for r in part.itertuples()
                if r.expected
            )
            verdict = f'<span class="verdict-bad">✗ the rules say: {should}</span>'
        items.append(f"<li>{_e(name)}: {paid or 'nobody'} — {verdict}</li>")
    return f"<p><b>Audit</b></p><ul>{''.join(items)}</ul>"
