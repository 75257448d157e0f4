"""`histkit stats PATH...`: per-player statistics (definitions in docs/stats.md)."""

from __future__ import annotations

import argparse
import csv
import json
import math
import sys
import textwrap
from typing import TYPE_CHECKING, Any

from histkit.commands._options import (
    EXIT_OK,
    ExamplesFormatter,
    UsageError,
    accounting_line,
    add_alias_option,
    add_filter_options,
    add_jobs_option,
    add_site_option,
    add_source_options,
    aliases_from,
    check_jobs,
    check_output_file,
    filters_from,
    filters_given,
    input_bytes,
    path_text,
    plural,
    progress_bar,
    require_hands,
    source_from,
)
from histkit.statdefs import GROUPS
from histkit.textsafe import clip, frame_csv, terminal_lines, terminal_text

if TYPE_CHECKING:
    import pandas as pd

    from histkit.stats import Facts


# The text table's statistics (headings, kinds and chances from `histkit.statdefs`); a
# share from fewer than SMALL chances is marked "~".
_TEXT_STATS = ("hands", "vpip", "complete_raise", "steal", "fold_to_steal", "three_bet", "went_4",
               "went_7", "wtsd", "wsd", "net", "ev_net", "bb_per_100", "rake")  # fmt: skip
_CELL_KINDS = {"count": "int", "share": "pct", "money": "money", "per_100": "float"}


def _text_columns() -> tuple[tuple[str, str, str, str | None], ...]:
    """(column, header, kind, the column counting its chances) of the text table, with
    kind "int", "pct", "money", "float"."""
    from histkit.statdefs import stat

    out = []
    for column in _TEXT_STATS:
        st = stat(column)
        header = (st.heading or column).replace("{s}", column.rsplit("_", 1)[-1])
        out.append((column, header, _CELL_KINDS[st.kind.value], st.chances))
    return tuple(out)


_SESSION_COLUMNS = (
    ("session_start", "start (UTC)", "time", None),
    ("minutes", "min", "minutes", None),
    ("per_hour", "per hour", "money", None),
)
SMALL = 10  # chances below which a share is marked as a small sample
MAX_SESSION_GAP = 10 * 365 * 24 * 60  # minutes: a longer gap would overflow a time span
SORTS = {"hands": "hands", "net": "net", "name": "player", "vpip": "vpip", "bb100": "bb_per_100"}


EXAMPLES = """\
examples:
  histkit stats sessions/ --player Hero       # hand histories (files or folders)
  histkit stats out/ --game razz --format json   # a folder of tables: histkit parse ... -o out/
  histkit stats --db --since 2024-06-01 --until 2024-06-30   # the hand database, June (UTC)
  histkit stats --db my.duckdb --site pokerstars --cash --by stakes
  histkit stats sessions/ --player Hero --by position   # early, middle, late, bring-in
"""


def _epilog() -> str:
    """The examples, then every statistic's column and meaning (`histkit.statdefs`)."""
    from histkit.statdefs import help_lines

    head = "statistics (csv and json columns; definitions: docs/stats.md):"
    return EXAMPLES + "\n" + head + "\n" + "\n".join(help_lines()) + "\n"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "stats",
        help="player statistics (VPIP, steals, streets, showdowns, winnings)",
        description=(
            "Per-player stud statistics from hand-history files or folders, folders of "
            "tables written by 'histkit parse' (flat or partitioned), or the hand database "
            "(--db). Amounts are never added across currencies or units: each row belongs "
            "to one 'money' (USD, chips, ...). Definitions: docs/stats.md."
            " On folders of tables and the database, --site keeps only that site's hands "
            "(on hand histories it says how to read them)."
        ),
        epilog=_epilog(),
        formatter_class=ExamplesFormatter,
    )
    add_source_options(p)
    p.add_argument("--player", metavar="NAME", help="only this player")
    add_filter_options(p)
    p.add_argument(
        "--by",
        choices=GROUPS,
        help="one row per player, money and game, stakes, table, session (hands no more "
        "than --session-gap apart), position (acting order on 3rd street: early, middle, "
        "late = the last three to act before the bring-in, bring-in) or door (the door "
        "card against the other doors: best, middle, worst); e.g. --by position",
    )
    p.add_argument(
        "--session-gap",
        type=int,
        default=30,
        metavar="MIN",
        help="minutes without a hand that end a session (default 30)",
    )
    p.add_argument(
        "--tournaments",
        action="store_true",
        help="a tournament summary instead: each tournament's buy-in, fee, place and prize "
        "where the hands say them, and per currency the ROI and in-the-money rate",
    )
    p.add_argument(
        "--sort",
        choices=sorted(SORTS),
        default="hands",
        help="order of the text table's rows (default hands: the largest samples first)",
    )
    p.add_argument(
        "--limit",
        type=int,
        default=25,
        metavar="N",
        help="rows the text table shows (default 25; 0: all); csv and json give every row",
    )
    p.add_argument(
        "--format",
        choices=("text", "csv", "json"),
        default="text",
        help="text (names clipped to fit), csv or json (names whole); in csv, a text cell "
        "beginning with = + - @ tab or CR, or with an apostrophe, gets a leading apostrophe "
        "so spreadsheets do not run it as a formula: remove one to recover the name",
    )
    p.add_argument("--min-hands", type=int, default=1, metavar="N", help="hide smaller samples")
    p.add_argument(
        "--no-audit",
        action="store_true",
        help="skip the replay (faster; no hi/lo scoop/split counts); from tables or the "
        "database: leave the stored audit unread",
    )
    add_alias_option(p)
    add_site_option(p)
    add_jobs_option(p)
    p.add_argument(
        "-q", "--quiet", action="store_true", help="no progress bar and no count of the hands"
    )
    p.add_argument(
        "-o", "--output", type=path_text, metavar="FILE", help="write here instead of stdout"
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from histkit.stats import facts_of
    from histkit.workspace import open_source

    if args.min_hands < 0:
        raise UsageError("--min-hands must be 0 or more")
    if args.limit < 0:
        raise UsageError("--limit must be 0 or more (0: every row)")
    if not 1 <= args.session_gap <= MAX_SESSION_GAP:
        raise UsageError(
            f"--session-gap must be 1 to {MAX_SESSION_GAP:,} minutes (ten years), "
            f"not {args.session_gap:,}"
        )
    check_output_file(args.output)
    filters = filters_from(args, player=args.player)
    jobs = check_jobs(args.jobs)
    source = source_from(args)
    aliases = aliases_from(args.alias)
    counts: dict[str, Any] = {}
    try:
        size = input_bytes(source.paths) if source.kind == "text" and not args.quiet else 0
        with progress_bar(enabled=size > 0, desc="reading", total_bytes=size) as bar:
            ws = open_source(
                source,
                filters=filters,
                audit=not args.no_audit,
                site=args.site,
                jobs=jobs,
                progress=bar.update,
                counts=counts,
                aliases=aliases,
            )
    except ValueError as e:
        raise UsageError(str(e)) from None
    with ws:
        require_hands(args, source, counts["selected"], counts)
        facts = facts_of(ws, args.player)
        n_copies, example = facts.duplicates
        if n_copies:
            print(
                f"note: {plural(n_copies, 'hand')} read more than once "
                f"(e.g. #{terminal_text(str(example))}); each counted once",
                file=sys.stderr,
            )
        text = _output(args, source.describe(), facts)
        counted = _hands(facts)
    _emit(text, args.output)
    if not args.quiet:
        print(terminal_text(accounting_line(counts, counted=counted)), file=sys.stderr)
    return EXIT_OK


def _hands(facts: Facts) -> int:
    """How many hands the facts are of."""
    row = facts.con.execute(
        f"SELECT count(*) FROM (SELECT DISTINCT site, hand_id FROM {facts.relation})"
    ).fetchall()
    return int(row[0][0])


def _output(args: argparse.Namespace, where: str, facts: Facts) -> str:
    """The command's output (text, csv or json) from the facts."""
    from histkit.stats import player_stats

    if args.tournaments:
        return _tournaments(facts, args.format, _no_tournament(args, where, facts))
    if args.by == "session":
        from datetime import timedelta

        from histkit.sessions import assign_sessions

        facts = assign_sessions(facts, gap=timedelta(minutes=args.session_gap))
    stats = player_stats(None, by=args.by, facts=facts)
    stats = stats[stats["hands"] >= args.min_hands].reset_index(drop=True)
    if stats.empty:  # every row under --min-hands
        raise UsageError(f"no player has {args.min_hands:,} hands or more (--min-hands)")
    if args.format == "json":
        return json.dumps(_records(stats), indent=2) + "\n"
    if args.format == "csv":
        return frame_csv(stats, _CsvLf)
    shown = _with_sites(stats)
    text = _text(shown, args.by, n_hands=_hands(facts), sort=SORTS[args.sort], limit=args.limit)
    if args.player:
        from histkit.stats import category_results

        by = args.by if args.by != "session" else None
        cats = category_results(facts=facts, by=by)
        rows = zip(stats.to_dict(orient="records"), shown["player"], strict=True)
        text += "".join(_detail(r, cats, by, name) for r, name in rows)
    return text


def _with_sites(stats: pd.DataFrame) -> pd.DataFrame:
    """The rows with each name the text shows: a name found at more than one site is as
    many players, each shown with its site ("Hero (pokerstars)")."""
    sites = stats.groupby("player")["site"].nunique()
    several = set(sites[sites > 1].index)
    if not several:
        return stats
    names = [
        f"{p} ({s})" if p in several else p
        for p, s in zip(stats["player"], stats["site"], strict=True)
    ]
    return stats.assign(player=names)


def _emit(text: str, output: str | None) -> None:
    if output:
        from histkit.atomic import atomic_write_text

        try:
            atomic_write_text(output, text, newline="")  # whole or not at all
        except OSError as e:
            raise UsageError(f"cannot write {output}: {e.strerror or e}") from None
    else:
        sys.stdout.write(text)


class _CsvLf(csv.excel):
    """Line ends as pandas' `to_csv` wrote them before the cells were made safe."""

    lineterminator = "\n"


def _plain(v: Any) -> Any:
    """numpy/pandas scalars to JSON values; NaN and NA to null."""
    if v is None:
        return None
    if hasattr(v, "item"):
        v = v.item()
    if isinstance(v, float) and math.isnan(v):
        return None
    if hasattr(v, "isoformat"):  # a timestamp: ISO 8601 text
        return None if str(v) == "NaT" else v.isoformat()
    try:
        import pandas as pd

        if v is pd.NA:
            return None
    except ImportError:  # pragma: no cover
        pass
    return v


def _records(stats: pd.DataFrame) -> list[dict[str, Any]]:
    return [{k: _plain(v) for k, v in row.items()} for row in stats.to_dict(orient="records")]


def _minute(v: Any) -> str:
    """A timestamp to the minute ("2024-06-12 21:05"); "-" when there is none. (Formatted
    from the timestamp itself: `_plain` would have made it ISO text.)"""
    if v is None or str(v) in ("NaT", "NaN", "nan", "<NA>"):
        return "-"
    return f"{v:%Y-%m-%d %H:%M}"


def _cell(v: Any, kind: str, unit: str, currency: str | None, chances: Any = None) -> str:
    from histkit.stats import format_money

    if kind == "time":
        return _minute(v)
    v = _plain(v)
    if v is None:
        return "-"
    small = "~" if chances is not None and _plain(chances) is not None and chances < SMALL else ""
    if kind == "pct":
        return f"{small}{100 * v:.0f}%"
    if kind == "money":
        return format_money(int(round(v)), unit, currency)
    if kind == "float":
        return f"{small}{v:+.1f}"
    if kind == "minutes":
        return f"{v:,.0f}"
    return f"{v:,}"


def _text(
    stats: pd.DataFrame, by: str | None, *, n_hands: int, sort: str = "hands", limit: int = 0
) -> str:
    from histkit.money import money_parts

    keys = ["player", "money", *([by] if by else [])]
    columns = (*(_SESSION_COLUMNS if by == "session" else ()), *_text_columns())
    header = [k for k in keys] + [h for _, h, _, _ in columns]
    ordered = stats.sort_values(
        sort, ascending=sort == "player", kind="stable", key=lambda s: s.fillna(float("-inf"))
    )
    kept = ordered if not limit else ordered.head(limit)
    rows = []
    for r in kept.to_dict(orient="records"):
        unit, cur = money_parts(str(r["money_unit"]))
        rows.append(
            [clip(str(r[k])) for k in keys]
            + [_cell(r[c], kind, unit, cur, r.get(n) if n else None) for c, _, kind, n in columns]
        )
    widths = [max(len(x) for x in col) for col in zip(header, *rows, strict=True)]
    n_keys = len(keys)

    def line(cells: list[str]) -> str:
        return "  ".join(
            c.ljust(w) if i < n_keys else c.rjust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    out = [line(header), line(["-" * w for w in widths])]
    out += [line(r) for r in rows]
    moneys = sorted(set(stats["money"]))
    out.append("")
    rows_said = plural(len(stats), "row")
    if len(kept) < len(stats):
        order = "largest samples" if sort == "hands" else f"by {sort}"
        rows_said = f"{len(kept):,} of {rows_said} shown ({order} first; --limit 0 shows all)"
    out.append(
        f"{plural(n_hands, 'hand')}, {rows_said}."
        + (
            f" Amounts are per money ({len(moneys)} of them), never added across."
            if len(moneys) > 1
            else ""
        )
    )
    legend = (
        "compl = completed or raised on 3rd; FtS = fold to steal as the bring-in; "
        f"4th/7th = went to; ~ = from fewer than {SMALL} chances; EV net = net with all-in "
        "hands counted at their equity when the money went in; definitions: docs/stats.md"
    )
    out += textwrap.wrap(legend, width=100, break_on_hyphens=False)
    return terminal_lines(out)


def _no_tournament(args: argparse.Namespace, where: str, facts: Facts) -> UsageError:
    """What --tournaments says when no hand read is a tournament's: nothing to summarise
    is an input error, as filters that match nothing are."""
    given = filters_given(args)
    hands = plural(_hands(facts), "hand")
    kept = f" that match {given}" if given else ""
    return UsageError(
        f"no tournament hands in {where}{kept}: {hands}, all of cash games (--tournaments "
        "summarises tournaments; leave it out for the players' statistics)"
    )


def _tournaments(facts: Facts, fmt: str, none: UsageError) -> str:
    """The tournament summary: each tournament, then the totals per currency (`none`:
    raised when no hand is a tournament's)."""
    from histkit.money import format_amount
    from histkit.tournaments import tournament_results, tournament_summary

    results = tournament_results(facts)
    if results.empty:
        raise none
    summary = tournament_summary(results)
    if fmt == "json":
        return (
            json.dumps({"tournaments": _records(results), "summary": _records(summary)}, indent=2)
            + "\n"
        )
    if fmt == "csv":
        return frame_csv(results, _CsvLf)

    def money(v: Any, currency: Any, signed: bool = False) -> str:
        v, currency = _plain(v), _plain(currency)
        if v is None:
            return "-"
        text = format_amount(int(v), currency) if currency else f"{int(v):,}"
        return ("+" if signed and v > 0 else "") + text

    header = ["player", "site", "tournament", "hands", "first (UTC)", "buy-in", "fee", "place",
              "prize", "result", "chips", "EV chips"]  # fmt: skip
    rows = []
    for r in results.to_dict(orient="records"):
        first = _minute(r["first"])
        place = _plain(r["place"])
        rows.append([clip(str(r["player"])), str(r["site"]), terminal_text(str(r["tournament_id"])),
                     f"{r['hands']:,}", first, money(r["buy_in"], r["currency"]),
                     money(r["fee"], r["currency"]), "-" if place is None else f"{place:,}",
                     money(r["prize"], r["currency"]), money(r["result"], r["currency"], True),
                     f"{r['chips_net']:+,}", money(r["chips_ev_net"], None, True)])  # fmt: skip
    out = _table(header, rows, left=3)
    out.append("")
    for s in summary.to_dict(orient="records"):
        cur = None if s["currency"] == "(not money)" else s["currency"]
        roi, itm = _plain(s["roi"]), _plain(s["itm"])
        out.append(
            f"{clip(str(s['player']))}, {s['currency']}: {plural(s['tournaments'], 'tournament')}"
            f" (buy-ins and fees {money(s['buy_ins'], cur)})"
            f", {s['ended']:,} with a known finish: cost {money(s['cost'], cur)}, prizes "
            f"{money(s['prizes'], cur)}, net {money(s['net'], cur, True)}; ROI "
            f"{'-' if roi is None else f'{100 * roi:+.0f}%'}, in the money "
            f"{'-' if itm is None else f'{100 * itm:.0f}%'} "
            f"({plural(s['cashes'], 'cash', 'cashes')})"
        )
    out.append(
        "buy-in, fee, place and prize as the hands write them ('-': not written); chips: the "
        "tournament's chips won or lost at the tables; definitions: docs/stats.md"
    )
    return terminal_lines(out)


def _table(header: list[str], rows: list[list[str]], *, left: int) -> list[str]:
    widths = [max(len(x) for x in col) for col in zip(header, *rows, strict=True)]

    def line(cells: list[str]) -> str:
        return "  ".join(
            c.ljust(w) if i < left else c.rjust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    return [line(header), line(["-" * w for w in widths]), *[line(r) for r in rows]]


def _detail(
    r: dict[str, Any], cats: pd.DataFrame, by: str | None = None, name: str | None = None
) -> str:
    """Every figure of one row, grouped as a stud player reads them; the starting hands
    of the row's own group (`by`: its stakes, table or game)."""
    from histkit.money import money_parts
    from histkit.stats import HILO_OUTCOMES, STREETS, format_money

    unit, cur = money_parts(str(r["money_unit"]))

    def pct(c: str) -> str:
        return _cell(r[c], "pct", unit, cur)

    def money(c: str) -> str:
        v = int(r[c])
        return ("+" if v > 0 else "") + format_money(v, unit, cur)

    group = "".join(
        f", {k} {clip(str(r[k]))}"
        for k in ("game", "stakes", "table", "position", "door")
        if k in r
    )
    if "session" in r:
        group += f", session {r['session']} from {_cell(r['session_start'], 'time', unit, cur)}"
    who = clip(name or r["player"])
    out = ["", f"== {who} ({r['money']}{group}): {r['hands']:,} hands"]
    out.append(
        f"3rd street: VPIP {pct('vpip')} · completed/raised {pct('complete_raise')} · "
        f"bring-in {pct('bring_in')} · steal {pct('steal')} of {plural(r['steal_opps'], 'spot')} · "
        f"fold to steal {pct('fold_to_steal')} · re-steal {pct('resteal')} · "
        f"3-bet {pct('three_bet')}"
    )
    out.append(
        f"           4-bet {pct('four_bet')} · fold to 3-bet {pct('fold_to_three_bet')} · "
        f"fold to 4-bet {pct('fold_to_four_bet')} · steal success {pct('steal_success')} · "
        f"as the bring-in facing a completion: call {pct('bring_in_call')}, re-raise "
        f"{pct('bring_in_reraise')}, fold {pct('bring_in_fold')}"
    )
    out.append(
        "street  went to  aggr freq  aggr factor  fold to bet  check-raise   c-bet  "
        "fold to c-bet  donk"
    )
    for s in STREETS:
        went = "100%" if s == 3 else pct(f"went_{s}")
        af = _plain(r[f"af_{s}"])
        lead = (
            ""
            if s == 3
            else (f"{pct(f'cbet_{s}'):>8}{pct(f'fold_to_cbet_{s}'):>15}{pct(f'donk_{s}'):>6}")
        )
        out.append(
            f"{s}{'rd' if s == 3 else 'th':<6}{went:>8}{pct(f'afq_{s}'):>11}"
            f"{'-' if af is None else f'{af:.2f}':>13}{pct(f'fold_to_bet_{s}'):>13}"
            f"{pct(f'check_raise_{s}'):>13}{lead}"
        )
    out.append(
        f"showdown: {r['showdowns']} showdowns, {r['showdowns_won']} won · WTSD {pct('wtsd')} · "
        f"W$SD {pct('wsd')} · won when saw 4th {pct('won_saw_4')}"
    )
    out.append(
        f"money: net {money('net')} ({r['net_bb']:+.2f} big bets, {r['bb_per_100']:+.1f} bb/100) "
        f"· at showdown {money('showdown_net')} · without {money('non_showdown_net')} · "
        f"rake paid {format_money(int(r['rake']), unit, cur)}"
    )
    if _plain(r.get("ev_net")) is not None:
        luck = int(r["net"]) - int(r["ev_net"])
        out.append(
            f"all-in EV: net {money('net')} · EV-adjusted net {money('ev_net')} · "
            f"{r['allin_hands']} all-in hands with cards to come, where the cards gave "
            f"{'+' if luck > 0 else ''}{format_money(luck, unit, cur)}"
        )
    if r["hilo_showdowns_won"]:
        cols = [f"hilo_{o.replace(' ', '_')}" for o in HILO_OUTCOMES]
        if _plain(r[cols[0]]) is None:
            out.append("hi/lo: outcomes need the audit (run without --no-audit)")
        else:
            parts = " · ".join(f"{o} {r[c]}" for o, c in zip(HILO_OUTCOMES, cols, strict=True))
            out.append(f"hi/lo: {r['hilo_showdowns_won']} showdowns won: {parts}")
    mine = cats[
        (cats["player"] == r["player"])
        & (cats["site"] == r["site"])
        & (cats["money_unit"] == r["money_unit"])
    ]
    for key in ("game", by):
        if key and key in r and key in mine:
            mine = mine[mine[key] == r[key]]
    if not mine.empty:
        out.append(
            "starting hands (known 3rd-street cards): hands, VPIP, won, big bets/hand "
            f"(~: fewer than {SMALL} hands)"
        )
        for c in mine.to_dict(orient="records"):
            small = "~" if c["hands"] < SMALL else " "
            out.append(
                f"  {c['game']:<10}{c['category']:<28}{c['hands']:>5}{100 * c['vpip']:>6.0f}%"
                f"{100 * c['won']:>6.0f}%{small}{c['bb_per_hand']:>+7.2f}"
            )
    return terminal_lines(out)
