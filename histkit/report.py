"""A player's report as one self-contained HTML file: cash games per currency and
tournaments apart, each with its figures, plots, sessions or tournament results and the
biggest pots replayed street by street, then the audit's violations.

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
from typing import TYPE_CHECKING, Any

import pandas as pd

from histkit import plots
from histkit.money import money_parts
from histkit.replay_view import CARD_CSS, hand_view
from histkit.sessions import session_list
from histkit.stats import (
    Facts,
    Filters,
    MissingTableError,
    facts_of,
    format_money,
    load,
    player_stats,
)
from histkit.textsafe import html_text, html_with_names, isolate_plain
from histkit.tournaments import tournament_results, tournament_summary
from histkit.words import plural

if TYPE_CHECKING:
    from histkit.workspace import Workspace

__all__ = [
    "build_report",
    "report_of",
    "write_report",
    "pick_player",
    "hand_replay",
    "svg_data_uri",
]

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


def _pct(v: Any, chances: Any = None) -> str:
    """A share; "~" and its count of chances when those were few (a small sample)."""
    return _sample(v, chances, "{:.0%}")


def _sample(v: Any, chances: Any, form: str) -> str:
    if v is None or pd.isna(v):
        return "–"
    text = form.format(float(v))
    if chances is not None and not pd.isna(chances) and int(chances) < plots.SMALL_SAMPLE:
        return f'<span class="muted" title="a small sample">~{text} (n={int(chances)})</span>'
    return text


# --------------------------------------------------------------------------- replay


def hand_replay(fr: dict[str, pd.DataFrame], hand_id: str, *, hero: str | None = None) -> str:
    """One hand replayed street by street (HTML): cards as cards, actions, the pot and
    each stack, each player's equity where it is known, the showdown with hand names, the
    audit's verdict per pot (`histkit.replay_view.hand_view`)."""
    h = fr["hands"][fr["hands"]["hand_id"] == hand_id].iloc[0]
    cards = fr["cards"][fr["cards"]["hand_id"] == hand_id]
    acts = fr["actions"][fr["actions"]["hand_id"] == hand_id]
    equities = _street_equity_html(h, cards, acts)
    return hand_view(
        fr, hand_id, hero=hero, extra=lambda street: "<br>".join(equities.get(street, ()))
    )


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
    """A section's figures, each labelled with its title in `histkit.statdefs`."""
    from histkit.statdefs import stat

    unit, cur = money_parts(str(st["money_unit"]))

    def title(column: str) -> str:
        return _e(stat(column).title)

    def share(column: str) -> str:
        return _pct(st[column], st[stat(column).chances])

    went = " / ".join(share(f"went_{s}") for s in (4, 5, 6, 7))
    rows = [
        (title("hands"), f"{int(st['hands']):,}"),
        (title("net"), _money(int(st["net"]), unit, cur, signed=True)),
        (title("net_bb"), f"{float(st['net_bb']):+.2f}"),
        (title("bb_per_100"), f"{float(st['bb_per_100']):+.1f}"),
        (
            title("ev_net"),
            "–"
            if pd.isna(st.get("ev_net"))
            else f"{_money(int(st['ev_net']), unit, cur, True)} "
            f"({plural(int(st['allin_hands']), 'all-in hand')})",
        ),
        (
            "Showdown / non-showdown",
            f"{_money(int(st['showdown_net']), unit, cur, True)} / "
            f"{_money(int(st['non_showdown_net']), unit, cur, True)}",
        ),
        (title("rake"), _money(int(st["rake"]), unit, cur)),
        *[(title(c), share(c)) for c in ("vpip", "complete_raise", "steal", "fold_to_steal")],
        ("Went to 4th / 5th / 6th / 7th", went),
        *[(title(c), share(c)) for c in ("wtsd", "wsd", "won_saw_4")],
    ]
    body = "".join(f"<tr><td>{k}</td><td>{v}</td></tr>" for k, v in rows)
    return f'<table><tr><th colspan="2">{_u(st["money"])}</th></tr>{body}</table>'


def _position_table(mine: pd.DataFrame) -> str:
    """A section's figures by position on 3rd street (docs/stats.md: acting order from
    the bring-in), one row each: hands, VPIP, completed/raised, steal, won when saw 4th,
    bb/100."""
    from histkit.statdefs import stat

    st = player_stats(None, facts=mine, by="position")
    shares = ("vpip", "complete_raise", "steal", "won_saw_4")
    head = "".join(f"<th>{_e(stat(c).title)}</th>" for c in shares)
    rows = "".join(
        f"<tr><td>{_e(r['position'])}</td><td>{int(r['hands']):,}</td>"
        + "".join(f"<td>{_pct(r[c], r[stat(c).chances])}</td>" for c in shares)
        + f"<td>{_sample(r['bb_per_100'], r['hands'], '{:+.1f}')}</td></tr>"
        for r in st.to_dict(orient="records")
    )
    return (
        '<h4>By position on 3rd street</h4><p class="muted">Acting order from the bring-in: '
        "late = the last three to act before the bring-in, middle the two before them, "
        "early the rest; none = no turn on 3rd (all-in on the ante).</p>"
        f"<table><tr><th>position</th><th>hands</th>{head}<th>bb/100</th></tr>{rows}</table>"
    )


def _figure(ax: Any, title: str) -> str:
    html_ = (
        f'<figure><img alt="{_e(title)}" src="{svg_data_uri(ax)}">'
        f"<figcaption>{_e(title)}</figcaption></figure>"
    )
    import matplotlib.pyplot as plt  # figures made without pyplot need no close,

    plt.close("all")  # but a caller's pyplot figures stay bounded
    return html_


def _plots(part: pd.DataFrame, player: str, *, money: bool) -> str:
    """The plots of one section: winnings by hand and by date (`money`: in the
    section's one money; else in big bets), results by starting hand, actions by street,
    and the hi/lo outcomes where the player played hi/lo."""
    out = []
    mine = part[part["player"] == player]
    label = "" if money else " (big bets)"
    out.append(_figure(plots.cumulative_net(part, player, in_big_bets=not money),
                       f"Winnings by hand{label}"))  # fmt: skip
    if mine["started_at"].notna().sum() >= 2:
        ax = plots.cumulative_net(part, player, in_big_bets=not money, by="date")
        out.append(_figure(ax, f"Winnings by date{label}"))
    out.append(_figure(plots.results_by_category(part, player), "Results by starting hand"))
    out.append(_figure(plots.action_frequencies(part, player), "Actions by street"))
    if (mine["game"] == "stud_hilo").any():
        try:
            out.append(_figure(plots.hilo_outcomes(part, player), "Hi/lo showdowns won"))
        except MissingTableError as e:
            out.append(f'<p class="muted">Hi/lo showdowns won: {_e(e)}</p>')
    return "\n".join(out)


def _sessions_table(part: pd.DataFrame, player: str, *, limit: int = 20) -> str:
    sessions = session_list(part[part["player"] == player])
    sessions = sessions[sessions["session"] != 0]
    if sessions.empty:
        return ""
    unit, cur = money_parts(str(sessions["money_unit"].iloc[0]))
    recent = sessions.sort_values("start", ascending=False).head(limit)
    rows = "".join(
        f"<tr><td>{r.start:%Y-%m-%d %H:%M}</td><td>{r.minutes:,.0f} min</td>"
        f"<td>{r.hands:,}</td><td>{r.tables:,}</td><td>{_money(int(r.net), unit, cur, True)}</td>"
        f"<td>{_sample(r.bb_per_100, r.hands, '{:+.1f}')}</td>"
        f"<td>{'–' if pd.isna(r.per_hour) else _money(int(round(r.per_hour)), unit, cur, True)}"
        "</td></tr>"
        for r in recent.itertuples()
    )
    more = (
        f'<p class="muted">The {limit} most recent of {len(sessions):,} sessions.</p>'
        if len(sessions) > limit
        else ""
    )
    return (
        "<h4>Sessions</h4><table><tr><th>start (UTC)</th><th>length</th><th>hands</th>"
        f"<th>tables</th><th>net</th><th>bb/100</th><th>per hour</th></tr>{rows}</table>{more}"
    )


def _pots(ws: Workspace, part: pd.DataFrame, player: str, top: int) -> str:
    mine = part[part["player"] == player]
    out = []
    for label, picked in (
        ("Biggest pots won", mine[mine["net_bb"] > 0].nlargest(top, "net_bb")),
        ("Biggest pots lost", mine[mine["net_bb"] < 0].nsmallest(top, "net_bb")),
    ):
        out.append(f"<h4>{label}</h4>")
        if picked.empty:
            out.append('<p class="muted">none</p>')
        for r in picked.itertuples():
            when = "" if pd.isna(r.started_at) else f" · {r.started_at:%Y-%m-%d %H:%M} UTC"
            unit, cur = money_parts(str(r.money_unit))
            net = _money(int(r.net), unit, cur, True)
            out.append(
                f'<div class="hand"><h3>Hand #{_u(r.hand_id)} · {_e(r.game)} {_u(r.stakes)} · '
                f"{_u(r.table)}{when} · {net} ({float(r.net_bb):+.2f} BB)</h3>"
                + hand_replay(
                    _hand_frames(ws, str(r.site), str(r.hand_id)), str(r.hand_id), hero=player
                )  # fmt: skip
                + "</div>"
            )
    return "\n".join(out)


def _cash_section(ws: Workspace, facts: pd.DataFrame, who: str, top: int) -> str:
    cash = facts[~facts["is_tournament"].fillna(False).astype(bool)]
    mine = cash[cash["player"] == who]
    if mine.empty:
        return ""
    out = ['<h2 id="cash">Cash games</h2>',
           '<p class="muted">Each currency on its own: amounts of different currencies are '
           "never added together.</p>"]  # fmt: skip
    for unit_key, n in mine["money_unit"].value_counts().items():
        part = cash[cash["money_unit"] == unit_key]
        st = player_stats(None, facts=part[part["player"] == who]).iloc[0]
        out.append(f"<h3>{_u(st['money'])} · {plural(int(n), 'hand')}</h3>")
        out.append(_summary_table(st))
        out.append(_position_table(part[part["player"] == who]))
        out.append(_plots(part, who, money=True))
        out.append(_sessions_table(part, who))
        out.append(_pots(ws, part, who, top))
    return "\n".join(out)


def _chips(v: Any) -> str:
    return "–" if pd.isna(v) else f"{int(v):+,}"


def _tournament_section(ws: Workspace, facts: pd.DataFrame, who: str, top: int) -> str:
    tour = facts[facts["is_tournament"].fillna(False).astype(bool)]
    mine = tour[tour["player"] == who]
    if mine.empty:
        return ""
    results = tournament_results(mine)
    summary = tournament_summary(results)
    out = ['<h2 id="tournaments">Tournaments</h2>',
           '<p class="muted">Chips stay in their own tournament; buy-ins and prizes are added '
           "within one currency, and only where the hands write them.</p>"]  # fmt: skip
    for s in summary.itertuples():
        cur = None if s.currency == "(not money)" else str(s.currency)
        roi = "–" if pd.isna(s.roi) else f"{100 * s.roi:+.0f}%"
        itm = "–" if pd.isna(s.itm) else f"{100 * s.itm:.0f}%"
        unit = "cent" if cur else "chip"
        paid, cost, net = (
            "–" if pd.isna(v) else _money(int(v), unit, cur, signed)
            for v, signed in ((s.buy_ins, False), (s.cost, False), (s.net, True))
        )
        out.append(
            f"<p><b>{_e(s.currency)}</b>: {plural(int(s.tournaments), 'tournament')} "
            f"(buy-ins and fees {paid}), "
            f"{int(s.ended):,} with a known finish · cost {cost} · net {net} · ROI {roi} · "
            f"in the money {itm} ({plural(int(s.cashes), 'cash', 'cashes')})</p>"
        )
    rows = []
    for r in results.itertuples():
        cur = None if pd.isna(r.currency) else str(r.currency)

        def amount(v: Any, signed: bool = False, cur: str | None = cur) -> str:
            if pd.isna(v):
                return "–"
            return _money(int(v), "cent" if cur else "chip", cur, signed)

        first = "" if pd.isna(r.first) else f"{r.first:%Y-%m-%d %H:%M}"
        rows.append(
            f"<tr><td>{_u(r.site)} #{_u(r.tournament_id)}</td><td>{first}</td>"
            f"<td>{r.hands:,}</td><td>{amount(r.buy_in)}</td><td>{amount(r.fee)}</td>"
            f"<td>{'–' if pd.isna(r.place) else f'{int(r.place):,}'}</td>"
            f"<td>{amount(r.prize)}</td><td>{amount(r.result, True)}</td>"
            f"<td>{r.chips_net:+,}</td><td>{_chips(r.chips_ev_net)}</td></tr>"
        )
    out.append(
        "<table><tr><th>tournament</th><th>first hand (UTC)</th><th>hands</th><th>buy-in</th>"
        "<th>fee</th><th>place</th><th>prize</th><th>result</th><th>chips won</th>"
        "<th>chips at all-in EV</th></tr>" + "".join(rows) + "</table>"
    )
    out.append("<h3>Play in tournaments (in big bets of each level)</h3>")
    out.append(_plots(tour, who, money=False))
    out.append(_pots(ws, tour, who, top))
    return "\n".join(out)


def _violations_section(ws: Workspace, mine: Facts, n_hands: int) -> str:
    """The audit's findings in the player's hands (`mine`: his facts)."""
    if "violations" not in ws.tables:
        return '<p class="muted">The hands were not audited (no violations table).</p>'
    his = f"(SELECT DISTINCT site, hand_id FROM {mine.relation})"
    v = ws.arrow(
        f"SELECT v.* FROM violations v SEMI JOIN {his} m "
        "ON m.site = v.site AND m.hand_id = v.hand_id ORDER BY v.rowid"
    ).to_pandas()
    if v.empty:
        return f"<p>The audit found no violation in {plural(n_hands, 'hand')}.</p>"
    seated = ws.con.execute(
        f"SELECT s.player FROM seats s SEMI JOIN {his} m "
        "ON m.site = s.site AND m.hand_id = s.hand_id WHERE s.player IS NOT NULL ORDER BY s.rowid"
    ).fetchall()
    names = list(dict.fromkeys(str(r[0]) for r in seated))
    rows = "".join(
        f'<tr><td>#{_u(r.hand_id)}</td><td class="sev-{_e(r.severity)}">{_e(r.severity)}</td>'
        f"<td>{_e(r.code)}</td><td>{'' if pd.isna(r.street) else int(r.street)}</td>"
        f"<td>{'' if pd.isna(r.line) else int(r.line)}</td>"
        f"<td class='what' style='text-align:left'>{html_with_names(str(r.message), names)}</td>"
        "</tr>"
        for r in v.itertuples()
    )
    hands = len(v[["site", "hand_id"]].drop_duplicates()) if "site" in v else v["hand_id"].nunique()
    return (
        f"<p>{plural(len(v), 'violation record')} in "
        f"{hands:,} of {plural(n_hands, 'hand')}.</p>"
        "<table><tr><th>hand</th><th>severity</th><th>code</th><th>street</th><th>line</th>"
        f"<th>what</th></tr>{rows}</table>"
    )


def _hand_frames(ws: Workspace, site: str, hand_id: str) -> dict[str, pd.DataFrame]:
    """The rows of one hand (its site and id) in each table, as `hand_replay` reads them."""
    return {
        name: ws.arrow(
            f'SELECT * FROM "{name}" WHERE site = ? AND hand_id = ? ORDER BY rowid',
            [site, hand_id],
        ).to_pandas()
        for name in sorted(ws.tables)
        if name != "errors"
    }


def build_report(
    tables: Any,
    player: str | None = None,
    *,
    filters: Filters | None = None,
    top: int = 3,
    title: str | None = None,
    aliases: dict[str, list[tuple[str, str]]] | None = None,
) -> str:
    """The HTML text of the report on `player` (default: the hero) over `tables`: cash
    games per currency and tournaments apart, each with its figures, plots and replays,
    then the audit. `aliases`: players joined, {name: [(site, name), ...]} (a name at one
    site is one player)."""
    from histkit.workspace import from_arrow, select, set_aliases

    f = filters or Filters()
    with from_arrow(tables) as ws:
        if aliases:
            set_aliases(ws, aliases)
        select(ws, Filters(**{**f.__dict__, "player": None}))
        return report_of(ws, player, top=top, title=title)[0]


def _pick(ws: Workspace, facts: Facts, player: str | None) -> tuple[str, str]:
    """The player to report on, as (name, site): the one asked for (his one site, or the
    sites an alias joins), else the hands' hero (the most frequent one), else the player
    with the most hands."""
    if player:
        sites = [
            str(r[0])
            for r in ws.con.execute(
                f"SELECT player_site, count(*) n FROM {facts.relation} WHERE player = ? "
                "GROUP BY ALL ORDER BY n DESC, player_site",
                [player],
            ).fetchall()
        ]
        if not sites:
            raise ValueError(f"no hands of player {player!r}")
        if len(sites) > 1:
            joined = ",".join(f"{s}:{player}" for s in sites)
            raise ValueError(
                f"{player!r} is a player at {len(sites)} sites ({', '.join(sites)}): a name at "
                f"each site is its own player; join them with --alias {player}={joined}"
            )
        return player, sites[0]
    got = (
        ws.con.execute(
            f"""SELECT f.player, f.player_site, count(*) AS n, min(h.rowid) AS first
        FROM hk_hands h JOIN {facts.relation} f
            ON f.site = h.site AND f.hand_id = h.hand_id AND f.player = h.hero
        GROUP BY ALL ORDER BY n DESC, first LIMIT 1"""
        ).fetchall()
        or ws.con.execute(
            f"""SELECT player, player_site, count(*) AS n FROM {facts.relation}
        GROUP BY ALL ORDER BY n DESC, player, player_site LIMIT 1"""
        ).fetchall()
    )
    if not got:
        raise ValueError("no hands to report on")
    return str(got[0][0]), str(got[0][1])


def report_of(
    ws: Workspace, player: str | None = None, *, top: int = 3, title: str | None = None
) -> tuple[str, int]:
    """The report on `player` (default: the hero) over the hands `histkit.workspace.select`
    kept in `ws`, and how many hands it covers: only the player's facts, and the hands
    replayed, come out of DuckDB."""
    facts = facts_of(ws)
    if not ws.con.execute(f"SELECT 1 FROM {facts.relation} LIMIT 1").fetchall():
        raise ValueError("no hands match")
    who, site = _pick(ws, facts, player)
    his = facts.derived(
        "SELECT * FROM {relation} WHERE player = ? AND player_site = ?", [who, site]
    )
    mine = his.df()
    mine.attrs["has_awards"] = his.has_awards
    covers = _covers(mine)
    games = ", ".join(f"{g} {n:,}" for g, n in mine["game"].value_counts().items())
    sites = ", ".join(sorted(mine["site"].astype(str).unique())) if "site" in mine else ""
    n_dup, example = ws.duplicates
    notes = (
        f'<p class="muted">{plural(n_dup, "hand")} appeared more than once in the input '
        f"and {'was' if n_dup == 1 else 'were'} counted once (e.g. #{_u(example)}).</p>"
        if n_dup
        else ""
    )
    n_hands = len(mine[["site", "hand_id"]].drop_duplicates())
    cash = _cash_section(ws, mine, who, top)
    tour = _tournament_section(ws, mine, who, top)
    links = " · ".join(
        link for link, there in (('<a href="#cash">Cash games</a>', cash),
                                 ('<a href="#tournaments">Tournaments</a>', tour),
                                 ('<a href="#audit">Audit</a>', True)) if there
    )  # fmt: skip
    body = [
        f"<h1>{_u(title) if title else f'{_u(who)}: {_e(covers)}'}</h1>",
        f'<p class="muted">{plural(n_hands, "hand")} · {_e(games)} · {_u(sites)} · '
        f"{plural(mine['table'].nunique(), 'table')}</p>",
        notes,
        f"<p>{links}</p>",
        cash,
        tour,
        '<p class="muted">Definitions of every figure: docs/stats.md. "~" or a hatched bar: '
        f"a figure from fewer than {plots.SMALL_SAMPLE} chances.</p>",
        '<h2 id="audit">Audit</h2>',
        _violations_section(ws, his, n_hands),
        f'<p class="muted">Made by histkit on {datetime.now(UTC):%Y-%m-%d %H:%M} UTC.</p>',
    ]
    head_title = isolate_plain(title) if title else f"{isolate_plain(who)}: {covers}"
    html_ = (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>{_e(head_title)}</title><style>{_CSS}{CARD_CSS}</style></head>"
        "<body>\n" + "\n".join(x for x in body if x) + "\n</body></html>\n"
    )
    return html_, n_hands


def _covers(mine: pd.DataFrame) -> str:
    """What the report covers, for its title: one day, or the span of days, and the hands
    with no time (iPoker writes none), which no date can stand for."""
    dated = mine["started_at"].notna()
    undated = mine.loc[~dated, "hand_id"].nunique()
    when = mine.loc[dated, "started_at"]
    if when.empty:
        return plural(mine["hand_id"].nunique(), "undated hand")
    first, last = when.min(), when.max()
    if first.date() == last.date():
        span = f"{first:%d %B %Y}" if undated else f"the session of {first:%d %B %Y}"
    else:
        days = (last.date() - first.date()).days + 1
        span = f"{first:%d %b %Y} to {last:%d %b %Y} ({days:,} days)"
    return f"{span} and {plural(undated, 'undated hand')}" if undated else span


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
