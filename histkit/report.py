"""A session report as one self-contained HTML file: summary, plots, the biggest pots
won and lost replayed street by street, and the audit's violations.

Self-contained means a reader can mail the file: CSS is inline, each plot is an
`<img>` whose source is a `data:image/svg+xml;base64,...` URI, and nothing is loaded
from anywhere else (the tests check there is no external reference at all).

Text from the hands (player and table names, hand ids, stakes) goes in through `_u`:
escaped, and in a `<bdi>` when its direction could reorder the page around it (a name
with a right-to-left override); audit messages get the names inside them isolated.
"""

from __future__ import annotations

import base64
import html
import io
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pandas as pd

from histkit import plots
from histkit.stats import (
    Filters,
    MissingTableError,
    MixedMoneyError,
    format_money,
    frames,
    load,
    player_stats,
    seat_facts,
)
from histkit.textsafe import html_text, html_with_names, isolate_plain

__all__ = ["build_report", "write_report", "pick_player", "hand_replay", "svg_data_uri"]

_STREET_NAMES = {
    3: "3rd street",
    4: "4th street",
    5: "5th street",
    6: "6th street",
    7: "7th street",
}

_CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2em auto;
max-width:70em;color:#222;line-height:1.4;padding:0 1em}
h1{margin-bottom:.2em}h2{border-bottom:2px solid #1f4e79;padding-bottom:.2em;margin-top:2em}
table{border-collapse:collapse;margin:.5em 0}td,th{padding:.2em .7em;border-bottom:1px solid #ddd;
text-align:right}th{background:#f3f6fa}td:first-child,th:first-child{text-align:left}
.muted{color:#777}.pos{color:#2e7d32}.neg{color:#c62828}
figure{margin:1em 0}figure img{max-width:100%;height:auto;border:1px solid #eee}
.hand{border:1px solid #ddd;border-radius:6px;padding:.6em 1em;margin:1em 0;background:#fcfcfc}
.hand h3{margin:.2em 0}.street{margin:.4em 0}.street b{display:inline-block;min-width:7em}
.cards{font-family:ui-monospace,Menlo,Consolas,monospace}
.sev-error{color:#c62828;font-weight:bold}.sev-warning{color:#e65100}
h1,p,.hand,td.what{overflow-wrap:anywhere}
"""


def svg_data_uri(ax: Any) -> str:
    """The Axes' figure as a base64 `data:` URI of its SVG (no DOCTYPE fetch needed)."""
    buf = io.BytesIO()
    ax.figure.savefig(buf, format="svg", metadata={"Date": None})
    return "data:image/svg+xml;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def pick_player(facts: pd.DataFrame, hands: pd.DataFrame, player: str | None) -> str:
    """The player to report on: the one asked for, else the hands' hero (the most
    frequent one), else the player with the most hands."""
    if player:
        if not facts["player"].eq(player).any():
            raise ValueError(f"no hands of player {player!r}")
        return player
    heroes = hands["hero"].dropna()
    if not heroes.empty:
        return str(heroes.value_counts().index[0])
    if facts.empty:
        raise ValueError("no hands to report on")
    return str(facts["player"].value_counts().index[0])


def _e(x: Any) -> str:
    return html.escape(str(x))


def _u(x: Any) -> str:
    """Text from the hands: escaped and direction-isolated (`textsafe.html_text`)."""
    return html_text(x)


def _money(v: int, unit: str, currency: str | None, signed: bool = False) -> str:
    text = format_money(int(v), unit, currency)
    if signed and v > 0:
        text = "+" + text
    cls = "pos" if v > 0 else "neg" if v < 0 else ""
    return f'<span class="{cls}">{_e(text)}</span>' if signed else _e(text)


def _pct(v: Any) -> str:
    return "–" if v is None or pd.isna(v) else f"{100 * float(v):.0f}%"


# --------------------------------------------------------------------------- replay


def hand_replay(fr: dict[str, pd.DataFrame], hand_id: str) -> str:
    """A readable street-by-street account of one hand (HTML), from the tables: the
    cards each player was seen to hold, every action with its amount, the showdown,
    who collected what, and (when audited) the engine's award per pot half."""
    h = fr["hands"][fr["hands"]["hand_id"] == hand_id].iloc[0]
    unit, cur = str(h["unit"]), (None if pd.isna(h["currency"]) else str(h["currency"]))
    acts = fr["actions"][fr["actions"]["hand_id"] == hand_id].sort_values("seq")
    cards = fr["cards"][fr["cards"]["hand_id"] == hand_id]
    seats = fr["seats"][(fr["seats"]["hand_id"] == hand_id) & fr["seats"]["dealt_in"]]
    m = lambda v: _e(format_money(int(v), unit, cur))  # noqa: E731
    out = []
    equities = _street_equity_html(h, cards, acts)
    antes = acts[acts["kind"] == "ante"]
    if not antes.empty:
        amounts = sorted(set(antes["amount"]))
        allin = antes[antes["all_in"]]["player"].tolist()
        text = f"{len(antes)} antes of {', '.join(m(a) for a in amounts)}"
        if allin:
            text += " (all-in on the ante: " + ", ".join(_u(p) for p in allin) + ")"
        out.append(f'<div class="street"><b>Antes</b> {text}</div>')
    for street in sorted(set(cards["street"].dropna().astype(int)) | set(acts["street"])):
        dealt = cards[(cards["street"] == street) & cards["player"].notna()]
        shown = []
        for p, part in dealt.groupby("player", sort=False):
            down = [
                c if k else "??"
                for c, k, u in zip(part["card"], part["known"], part["up"], strict=True)
                if not u
            ]
            up = [
                c if k else "??"
                for c, k, u in zip(part["card"], part["known"], part["up"], strict=True)
                if u
            ]
            txt = (f"[{' '.join(down)}] " if down else "") + " ".join(up)
            shown.append(f'{_u(p)} <span class="cards">{_e(txt.strip())}</span>')
        community = cards[
            (cards["street"] == street) & cards["player"].isna() & cards["card"].notna()
        ]
        if not community.empty:
            shown.append(f'board <span class="cards">{_e(community["card"].iloc[0])}</span>')
        lines = []
        bets = 0
        for a in acts[(acts["street"] == street) & (acts["kind"] != "ante")].itertuples():
            kind = a.kind
            if kind == "bring_in":
                txt = f"brings in for {m(a.amount)}"
            elif kind in ("raise", "complete", "bet") and street == 3 and bets == 0:
                to = a.to_amount if not pd.isna(a.to_amount) else a.amount
                txt = f"completes to {m(to)}"
                bets += 1
            elif kind in ("raise", "complete"):
                to = a.to_amount if not pd.isna(a.to_amount) else a.amount
                txt = f"raises to {m(to)}"
                bets += 1
            elif kind == "bet":
                txt = f"bets {m(a.amount)}"
                bets += 1
            elif kind == "call":
                txt = f"calls {m(a.amount)}"
            else:
                txt = {"check": "checks", "fold": "folds"}.get(kind, _e(kind))
            if a.all_in:
                txt += " (all-in)"
            lines.append(f"{_u(a.player)} {txt}")
        dealt_html = " · ".join(shown)
        out.append(
            f'<div class="street"><b>{_STREET_NAMES.get(street, street)}</b>'
            + (f"{dealt_html}<br><b></b>" if dealt_html else "")
            + "".join(f"{e}<br><b></b>" for e in equities.get(street, ()))
            + ("; ".join(lines) if lines else '<span class="muted">no betting</span>')
            + "</div>"
        )
    sd = seats[seats["showdown"].fillna(False).astype(bool)]
    if len(sd) >= 2:
        hands_shown = []
        for p in sd["player"]:
            known = cards[(cards["player"] == p) & cards["known"]]["card"].tolist()
            hands_shown.append(f'{_u(p)} <span class="cards">{_e(" ".join(known))}</span>')
        out.append('<div class="street"><b>Showdown</b> ' + " · ".join(hands_shown) + "</div>")
    won = seats[seats["collected"] > 0]
    res = ", ".join(f"{_u(r.player)} collected {m(r.collected)}" for r in won.itertuples())
    rake = int(h["rake"]) if not pd.isna(h["rake"]) else 0
    out.append(
        f'<div class="street"><b>Result</b> {res or "nobody collected"}'
        + (f"; rake {m(rake)}" if rake else "")
        + "</div>"
    )
    aw = fr.get("awards")
    if aw is not None:
        mine = aw[
            (aw["hand_id"] == hand_id) & (aw["reported"].gt(0) | aw["expected"].fillna(0).gt(0))
        ]
        if not mine.empty:
            parts = []
            for r in mine.itertuples():
                pot = "main pot" if r.pot == 0 else f"side pot {r.pot}"
                exp = "–" if pd.isna(r.expected) else m(r.expected)
                flag = "" if pd.isna(r.expected) or r.expected == r.reported else " ≠"
                parts.append(
                    f"{pot} {r.half}: {_u(r.player)} paid {m(r.reported)} (engine {exp}){flag}"
                )
            out.append('<div class="street"><b>Audit</b> ' + "; ".join(parts) + "</div>")
    return "\n".join(out)


def _street_equity_html(
    h: pd.Series, cards: pd.DataFrame, acts: pd.DataFrame
) -> dict[int, list[str]]:
    """Per street, lines of each player's equity once the street's cards were out
    (`histkit.equity.street_equities`): as the hero saw it (his cards against the up
    cards, folded cards dead), and with every card the record shows when the showdown
    showed more. Empty for a game or record the equity cannot value."""
    from histkit.equity import street_equities

    game = str(h["game"])
    if game not in ("stud", "stud_hilo", "razz") or cards.empty:
        return {}
    hero = None if pd.isna(h["hero"]) else str(h["hero"])
    rows = [
        (None if pd.isna(p) else str(p), int(st), None if pd.isna(c) else str(c), bool(u))
        for p, st, c, u in zip(
            cards["player"], cards["street"], cards["card"], cards["up"], strict=True
        )
        if not pd.isna(st)
    ]
    folds = acts[acts["kind"] == "fold"]
    folded = {str(p): int(st) for p, st in zip(folds["player"], folds["street"], strict=True)}
    seed = f"{h['site']}:{h['hand_id']}"
    views = {
        view: {
            e.street: e
            for e in street_equities(game, rows, folded, hero=hero, view=view, seed=seed)
        }
        for view in ("seen", "shown")
    }
    n_seen = sum(1 for p, _, c, u in rows if p is not None and c is not None and (u or p == hero))
    n_known = sum(1 for p, _, c, _ in rows if p is not None and c is not None)

    def line(label: str, e: Any) -> str:
        parts = " · ".join(
            f"{_u(p)} {100 * q:.0f}%" for p, q in zip(e.players, e.equity, strict=True)
        )
        how = "exact" if str(e.method) == "exact" else f"{e.samples:,} deals"
        return (
            f'<span class="muted">equity {_e(label)}:</span> {parts} '
            f'<span class="muted">({how})</span>'
        )

    out: dict[int, list[str]] = {}
    seen, shown = views["seen"], views["shown"]
    for street in sorted(set(seen) | set(shown)):
        lines = []
        if street in seen:
            who = f"as {hero} saw it" if hero in seen[street].players else "on the up cards"
            lines.append(line(who, seen[street]))
        if street in shown and n_known > n_seen:
            lines.append(line("with the cards shown", shown[street]))
        out[street] = lines
    return out


# --------------------------------------------------------------------------- report


def _summary_table(st: pd.Series) -> str:
    unit = "chip" if st["money"] == "chips" else "cent"
    cur = None if unit == "chip" else str(st["money"])
    rows = [
        ("Hands dealt", f"{int(st['hands']):,}"),
        ("Net won", _money(int(st["net"]), unit, cur, signed=True)),
        ("Net in big bets", f"{float(st['net_bb']):+.2f}"),
        ("Big bets per 100 hands", f"{float(st['bb_per_100']):+.1f}"),
        (
            "EV-adjusted net (all-in hands at their equity)",
            "–"
            if pd.isna(st.get("ev_net"))
            else f"{_money(int(st['ev_net']), unit, cur, True)} "
            f"({int(st['allin_hands'])} all-in hands)",
        ),
        (
            "Showdown / non-showdown",
            f"{_money(int(st['showdown_net']), unit, cur, True)} / "
            f"{_money(int(st['non_showdown_net']), unit, cur, True)}",
        ),
        ("Rake paid (share by contribution)", _money(int(st["rake"]), unit, cur)),
        ("VPIP", _pct(st["vpip"])),
        ("Completed or raised on 3rd", _pct(st["complete_raise"])),
        ("Steal attempts (of spots)", f"{_pct(st['steal'])} of {int(st['steal_opps'])}"),
        ("Fold to steal as bring-in", _pct(st["fold_to_steal"])),
        ("Went to 4th / 5th / 6th / 7th", " / ".join(_pct(st[f"went_{s}"]) for s in (4, 5, 6, 7))),
        ("Went to showdown (of saw 4th)", _pct(st["wtsd"])),
        ("Won at showdown", _pct(st["wsd"])),
        ("Won when saw 4th", _pct(st["won_saw_4"])),
    ]
    body = "".join(f"<tr><td>{k}</td><td>{v}</td></tr>" for k, v in rows)
    return f'<table><tr><th colspan="2">{_u(st["money"])}</th></tr>{body}</table>'


def _plot_section(facts: pd.DataFrame, player: str) -> tuple[str, int]:
    out, n = [], 0
    mine = facts[facts["player"] == player]
    moneys = mine["money"].value_counts()
    for title, fn in plots.ALL_PLOTS:
        try:
            try:
                ax = fn(facts, player)
            except MixedMoneyError:
                if fn is plots.cumulative_net:
                    ax = plots.cumulative_net(facts, player, in_big_bets=True)
                else:  # the money the player played most
                    ax = fn(facts[facts["money"] == moneys.index[0]], player)
                    title += f" ({moneys.index[0]} only)"
        except MissingTableError as e:
            out.append(f'<p class="muted">{_e(title)}: {_e(e)}</p>')
            continue
        if fn is plots.hilo_outcomes and not (mine["game"] == "stud_hilo").any():
            continue
        out.append(
            f'<figure><img alt="{_e(title)}" src="{svg_data_uri(ax)}">'
            f"<figcaption>{_e(title)}</figcaption></figure>"
        )
        n += 1
        import matplotlib.pyplot as plt  # figures made without pyplot need no close,

        plt.close("all")  # but a caller's pyplot figures stay bounded
    return "\n".join(out), n


def _pots_section(fr: dict[str, pd.DataFrame], facts: pd.DataFrame, player: str, top: int) -> str:
    mine = facts[facts["player"] == player]
    out = []
    for label, part in (
        ("Biggest pots won", mine[mine["net_bb"] > 0].nlargest(top, "net_bb")),
        ("Biggest pots lost", mine[mine["net_bb"] < 0].nsmallest(top, "net_bb")),
    ):
        out.append(f"<h3>{label}</h3>")
        if part.empty:
            out.append('<p class="muted">none</p>')
        for r in part.itertuples():
            when = "" if pd.isna(r.started_at) else f" · {r.started_at:%Y-%m-%d %H:%M} UTC"
            net = _money(
                int(r.net), str(r.unit), None if pd.isna(r.currency) else str(r.currency), True
            )
            out.append(
                f'<div class="hand"><h3>Hand #{_u(r.hand_id)} · {_e(r.game)} {_u(r.stakes)} · '
                f"{_u(r.table)}{when} · {net} ({float(r.net_bb):+.2f} BB)</h3>"
                + hand_replay(fr, str(r.hand_id))
                + "</div>"
            )
    return "\n".join(out)


def _violations_section(fr: dict[str, pd.DataFrame], n_hands: int) -> str:
    v = fr.get("violations")
    if v is None:
        return '<p class="muted">The hands were not audited (no violations table).</p>'
    v = v[v["hand_id"].isin(fr["hands"]["hand_id"])]
    if v.empty:
        return f"<p>The audit found no violation in {n_hands:,} hands.</p>"
    names = fr["seats"]["player"].dropna().unique().tolist() if "seats" in fr else []
    rows = "".join(
        f'<tr><td>#{_u(r.hand_id)}</td><td class="sev-{_e(r.severity)}">{_e(r.severity)}</td>'
        f"<td>{_e(r.code)}</td><td>{'' if pd.isna(r.street) else int(r.street)}</td>"
        f"<td>{'' if pd.isna(r.line) else int(r.line)}</td>"
        f"<td class='what' style='text-align:left'>{html_with_names(str(r.message), names)}</td>"
        "</tr>"
        for r in v.itertuples()
    )
    return (
        f"<p>{len(v):,} violation record{'s' if len(v) != 1 else ''} in "
        f"{v['hand_id'].nunique():,} of {n_hands:,} hands.</p>"
        "<table><tr><th>hand</th><th>severity</th><th>code</th><th>street</th><th>line</th>"
        f"<th>what</th></tr>{rows}</table>"
    )


def build_report(
    tables: Any,
    player: str | None = None,
    *,
    filters: Filters | None = None,
    top: int = 3,
    title: str | None = None,
) -> str:
    """The HTML text of the report on `player` (default: the hero) over `tables`."""
    f = filters or Filters()
    fr = frames(tables)
    facts = seat_facts(fr, Filters(**{**f.__dict__, "player": None}))
    if facts.empty:
        raise ValueError("no hands match")
    who = pick_player(facts, fr["hands"][fr["hands"]["hand_id"].isin(facts["hand_id"])], player)
    st = player_stats(None, facts=facts[facts["player"] == who])
    mine = facts[facts["player"] == who]
    period = ""
    if mine["started_at"].notna().any():
        first, last = mine["started_at"].min(), mine["started_at"].max()
        period = f"{first:%Y-%m-%d %H:%M} – {last:%Y-%m-%d %H:%M} UTC"
    games = ", ".join(f"{g} {n}" for g, n in mine["game"].value_counts().items())
    plots_html, _ = _plot_section(facts, who)
    dup = facts.attrs.get("duplicates", [])
    notes = (
        f'<p class="muted">{len(dup)} hand(s) appeared more than once in the input and were '
        f"counted once: {', '.join('#' + _u(d) for d in dup)}.</p>"
        if dup
        else ""
    )
    ids = set(mine["hand_id"])
    fr_hands = {k: (df[df["hand_id"].isin(ids)] if "hand_id" in df else df) for k, df in fr.items()}
    body = [
        f"<h1>{_u(title) if title else f'Session report: {_u(who)}'}</h1>",
        f'<p class="muted">{_e(period)} · {_e(games)} · tables: '
        f"{', '.join(_u(t) for t in sorted(mine['table'].astype(str).unique()))}</p>",
        notes,
        "<h2>Summary</h2>",
        '<div style="display:flex;gap:2em;flex-wrap:wrap">'
        + "".join(_summary_table(r) for _, r in st.iterrows())
        + "</div>",
        '<p class="muted">Definitions of every figure: docs/stats.md. Amounts of different '
        "currencies or units are never added together.</p>",
        "<h2>Plots</h2>",
        plots_html,
        "<h2>Biggest pots</h2>",
        _pots_section(fr, facts, who, top),
        "<h2>Audit</h2>",
        _violations_section(fr_hands, len(ids)),
        f'<p class="muted">Made by histkit on {datetime.now(UTC):%Y-%m-%d %H:%M} UTC.</p>',
    ]
    head_title = isolate_plain(title) if title else f"histkit report: {isolate_plain(who)}"
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{_e(head_title)}</title><style>{_CSS}</style></head>"
        "<body>\n" + "\n".join(body) + "\n</body></html>\n"
    )


def write_report(
    paths: Sequence[str | Path],
    output: str | Path,
    player: str | None = None,
    *,
    filters: Filters | None = None,
    top: int = 3,
) -> Path:
    """Read (and audit) the hand histories at `paths` and write the report to `output`."""
    text = build_report(load(list(paths), audit=True), player, filters=filters, top=top)
    out = Path(output)
    out.write_text(text, encoding="utf-8")
    return out
