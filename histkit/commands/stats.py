"""`histkit stats PATH...`: per-player statistics (definitions in docs/stats.md)."""

from __future__ import annotations

import argparse
import csv
import json
import math
import sys
from typing import TYPE_CHECKING, Any

from histkit.cli import (
    EXIT_OK,
    UsageError,
    add_jobs_option,
    add_site_option,
    check_jobs,
    check_site,
    plural,
)
from histkit.textsafe import clip, frame_csv

if TYPE_CHECKING:
    import pandas as pd

    from histkit.sources import Source
    from histkit.stats import Filters

GAMES = {
    "stud": "stud",
    "stud_hilo": "stud_hilo",
    "hilo": "stud_hilo",
    "stud-hilo": "stud_hilo",
    "stud8": "stud_hilo",
    "razz": "razz",
}

# Text table: (column, header, kind) with kind "int", "pct", "money", "float".
_TEXT_COLUMNS = (
    ("hands", "hands", "int"),
    ("vpip", "VPIP", "pct"),
    ("complete_raise", "compl", "pct"),
    ("steal", "steal", "pct"),
    ("fold_to_steal", "FtS", "pct"),
    ("three_bet", "3bet", "pct"),
    ("went_4", "4th", "pct"),
    ("went_7", "7th", "pct"),
    ("wtsd", "WTSD", "pct"),
    ("wsd", "W$SD", "pct"),
    ("net", "net", "money"),
    ("ev_net", "EV net", "money"),
    ("bb_per_100", "bb/100", "float"),
    ("rake", "rake", "money"),
)


EXAMPLES = """\
examples:
  histkit stats sessions/ --player Hero       # hand histories (files or folders)
  histkit stats out/ --game razz --format json   # a folder of tables: histkit parse ... -o out/
  histkit stats --db --since 2024-06-01 --until 2024-06-30   # the hand database, June (UTC)
  histkit stats --db my.duckdb --site pokerstars --cash --by stakes
"""


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
        epilog=EXAMPLES,
        formatter_class=ExamplesFormatter,
    )
    add_source_options(p)
    p.add_argument("--player", metavar="NAME", help="only this player")
    add_filter_options(p)
    p.add_argument("--by", choices=("game", "stakes", "table"), help="one row per player and ...")
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
    add_site_option(p)
    add_jobs_option(p)
    p.add_argument("-o", "--output", metavar="FILE", help="write here instead of stdout")
    p.set_defaults(run=run)


class ExamplesFormatter(argparse.HelpFormatter):
    """Wraps the description as usual but prints an "examples:" epilog line by line."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if text.startswith("examples:"):
            return "".join(indent + line for line in text.splitlines(keepends=True))
        return super()._fill_text(text, width, indent)


def add_source_options(p: argparse.ArgumentParser) -> None:
    """PATHs (optional with --db) and `--db [FILE]`, which `stats`, `report` and `audit`
    share."""
    p.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="hand-history files or folders, or folders of tables written by histkit parse "
        "(not both kinds at once)",
    )
    p.add_argument(
        "--db",
        nargs="?",
        const=True,
        default=None,
        metavar="FILE",
        help="read the hand database instead of PATHs (histkit import writes it); FILE "
        "defaults to $HISTKIT_DB, else hands.duckdb in the user data folder",
    )


def add_filter_options(p: argparse.ArgumentParser, *, stakes: bool = True) -> None:
    """The hand filters `stats`, `report` (and, without stakes, `audit`) share; --site
    (added with the site option) filters too."""
    p.add_argument("--game", choices=sorted(GAMES), help="only this game")
    if stakes:
        p.add_argument("--stakes", metavar="S", help='only these stakes, e.g. "0.04/0.08"')
    p.add_argument("--table", metavar="NAME", help="only this table")
    p.add_argument(
        "--since",
        metavar="DAY",
        help="hands from this UTC day on (YYYY-MM-DD; or a UTC time YYYY-MM-DDTHH:MM)",
    )
    p.add_argument(
        "--until",
        metavar="DAY",
        help="hands up to this UTC day, that day included (YYYY-MM-DD; or a UTC time)",
    )
    money = p.add_mutually_exclusive_group()
    money.add_argument(
        "--cash",
        dest="tournament",
        action="store_const",
        const=False,
        help="only cash-game hands (play money included)",
    )
    money.add_argument(
        "--tournament",
        dest="tournament",
        action="store_const",
        const=True,
        help="only tournament hands",
    )


def filters_from(args: argparse.Namespace, *, player: str | None) -> Filters:
    """`Filters` from the options `add_filter_options` (and the site option) added: a
    date in the wrong form or an unknown site is a usage error, said before any work."""
    from histkit.sources import SourceError, day_range, parse_day
    from histkit.stats import Filters

    try:
        since, until = day_range(
            None if args.since is None else parse_day(args.since, "--since"),
            None if args.until is None else parse_day(args.until, "--until"),
        )
    except SourceError as e:
        raise UsageError(str(e)) from None
    return Filters(
        player=player,
        game=GAMES[args.game] if args.game else None,
        stakes=getattr(args, "stakes", None),
        table=args.table,
        since=since,
        until=until,
        site=_site_of(check_site(args.site)),
        tournament=args.tournament,
    )


def _site_of(dialect: str | None) -> str | None:
    """The site a --site dialect's hands carry (`wpn_2016` reads hands of `wpn`)."""
    if dialect is None:
        return None
    from histkit.dialects import get_dialect

    return str(get_dialect(dialect).site or dialect)


def source_from(args: argparse.Namespace) -> Source:
    """What PATHs / --db name, checked before any work: a usage error when nothing, or
    two kinds, or something that does not exist is given."""
    from histkit.sources import SourceError, resolve

    try:
        return resolve(args.paths, db=args.db)
    except SourceError as e:
        raise UsageError(str(e)) from None


def run(args: argparse.Namespace) -> int:
    from histkit.sources import load
    from histkit.stats import player_stats, seat_facts

    if args.min_hands < 0:
        raise UsageError("--min-hands must be 0 or more")
    filters = filters_from(args, player=args.player)
    jobs = check_jobs(args.jobs)
    source = source_from(args)
    try:
        tables = load(source, filters=filters, audit=not args.no_audit, site=args.site, jobs=jobs)
    except ValueError as e:
        raise UsageError(str(e)) from None
    facts = seat_facts(tables, filters)
    for hid in facts.attrs.get("duplicates", []):
        print(f"note: hand #{hid} was read more than once; counted once", file=sys.stderr)
    stats = player_stats(None, by=args.by, facts=facts)
    stats = stats[stats["hands"] >= args.min_hands].reset_index(drop=True)
    if args.player and stats.empty:
        raise UsageError(f"no hands of player {args.player!r} match")
    if args.format == "json":
        text = json.dumps(_records(stats), indent=2) + "\n"
    elif args.format == "csv":
        text = frame_csv(stats, _CsvLf)
    else:
        text = _text(stats, args.by, n_hands=int(facts["hand_id"].nunique()))
        if args.player:
            from histkit.stats import category_results

            cats = category_results(facts=facts)
            text += "".join(_detail(r, cats) for r in stats.to_dict(orient="records"))
    if args.output:
        from histkit.atomic import atomic_write_text

        atomic_write_text(args.output, text, newline="")  # whole or not at all
    else:
        sys.stdout.write(text)
    return EXIT_OK


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
    try:
        import pandas as pd

        if v is pd.NA:
            return None
    except ImportError:  # pragma: no cover
        pass
    return v


def _records(stats: pd.DataFrame) -> list[dict[str, Any]]:
    return [{k: _plain(v) for k, v in row.items()} for row in stats.to_dict(orient="records")]


def _cell(v: Any, kind: str, unit: str, currency: str | None) -> str:
    from histkit.stats import format_money

    v = _plain(v)
    if v is None:
        return "-"
    if kind == "pct":
        return f"{100 * v:.0f}%"
    if kind == "money":
        return format_money(int(v), unit, currency)
    if kind == "float":
        return f"{v:+.1f}"
    return f"{v:,}"


def _text(stats: pd.DataFrame, by: str | None, *, n_hands: int) -> str:
    if stats.empty:
        return "No hands match.\n"
    keys = ["player", "money", *([by] if by else [])]
    header = [k for k in keys] + [h for _, h, _ in _TEXT_COLUMNS]
    rows = []
    for r in stats.to_dict(orient="records"):
        unit = "chip" if r["money"] == "chips" else "cent"
        cur = None if unit == "chip" else r["money"]
        rows.append(
            [clip(str(r[k])) for k in keys]
            + [_cell(r[c], kind, unit, cur) for c, _, kind in _TEXT_COLUMNS]
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
    out.append(
        f"{plural(n_hands, 'hand')}, {plural(len(stats), 'row')}."
        + (
            f" Amounts are per money ({', '.join(moneys)}), never added across."
            if len(moneys) > 1
            else ""
        )
    )
    out.append(
        "compl = completed or raised on 3rd; FtS = fold to steal as the bring-in; "
        "4th/7th = went to; EV net = net with all-in hands counted at their equity when "
        "the money went in; definitions: docs/stats.md"
    )
    return "\n".join(out) + "\n"


def _detail(r: dict[str, Any], cats: pd.DataFrame) -> str:
    """Every figure of one row, grouped as a stud player reads them."""
    from histkit.stats import HILO_OUTCOMES, STREETS, format_money

    unit = "chip" if r["money"] == "chips" else "cent"
    cur = None if unit == "chip" else r["money"]

    def pct(c: str) -> str:
        return _cell(r[c], "pct", unit, cur)

    def money(c: str) -> str:
        v = int(r[c])
        return ("+" if v > 0 else "") + format_money(v, unit, cur)

    by = "".join(f", {k} {clip(str(r[k]))}" for k in ("game", "stakes", "table") if k in r)
    out = ["", f"== {clip(r['player'])} ({r['money']}{by}): {r['hands']:,} hands"]
    out.append(
        f"3rd street: VPIP {pct('vpip')} · completed/raised {pct('complete_raise')} · "
        f"bring-in {pct('bring_in')} · steal {pct('steal')} of {r['steal_opps']} spots · "
        f"fold to steal {pct('fold_to_steal')} · re-steal {pct('resteal')} · "
        f"3-bet {pct('three_bet')}"
    )
    out.append("street  went to  aggr freq  aggr factor  fold to bet  check-raise")
    for s in STREETS:
        went = "100%" if s == 3 else pct(f"went_{s}")
        af = _plain(r[f"af_{s}"])
        out.append(
            f"{s}{'rd' if s == 3 else 'th':<6}{went:>8}{pct(f'afq_{s}'):>11}"
            f"{'-' if af is None else f'{af:.2f}':>13}{pct(f'fold_to_bet_{s}'):>13}"
            f"{pct(f'check_raise_{s}'):>13}"
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
    mine = cats[(cats["player"] == r["player"]) & (cats["money"] == r["money"])]
    if "game" in r:
        mine = mine[mine["game"] == r["game"]]
    if not mine.empty:
        out.append("starting hands (known 3rd-street cards): hands, VPIP, won, big bets/hand")
        for c in mine.to_dict(orient="records"):
            out.append(
                f"  {c['game']:<10}{c['category']:<28}{c['hands']:>5}{100 * c['vpip']:>6.0f}%"
                f"{100 * c['won']:>6.0f}%{c['bb_per_hand']:>+8.2f}"
            )
    return "\n".join(out) + "\n"
