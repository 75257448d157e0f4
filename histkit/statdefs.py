"""The statistics histkit computes, each defined once: its column, its heading and title,
how it is made from the per-hand counters (`numerator` / `denominator`, each a sum of
counters over the hands of a row), and what it means. `histkit stats` (its columns, text
table and `--help`), the report's summary and `docs/stats.md`'s table of definitions are
all made from `STATS`; `histkit.statsql` computes the counters themselves, one row per
hand and player dealt in.

Imports nothing heavy: `--help` reads it.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

__all__ = [
    "STATS",
    "GROUPS",
    "LATER_STREETS",
    "ORDERS",
    "STREETS",
    "Kind",
    "Stat",
    "columns",
    "definitions_markdown",
    "help_lines",
    "layout",
    "stat",
]

STREETS: tuple[int, ...] = (3, 4, 5, 6, 7)

#: what `player_stats(by=...)` and `histkit stats --by` group by besides player and money
GROUPS: tuple[str, ...] = ("game", "stakes", "table", "session", "position", "door")
#: the values of the `position` and `door` groups (docs/stats.md), in the order rows are
#: shown: acting order on 3rd from the first to act after the bring-in, and door from best
ORDERS: dict[str, tuple[str, ...]] = {
    "position": ("early", "middle", "late", "bring-in", "none"),
    "door": ("best", "middle", "worst", "unknown"),
}
LATER_STREETS: tuple[int, ...] = (4, 5, 6, 7)


class Kind(StrEnum):
    """How a statistic is made from its sums, and how it is shown."""

    COUNT = "count"  # the numerator's sum (an integer)
    SHARE = "share"  # numerator / denominator, in [0, 1]; empty with no chance
    FACTOR = "factor"  # numerator / denominator, any size (aggression factor)
    MONEY = "money"  # the numerator's sum, integer minor units of the row's money
    BIG_BETS = "big_bets"  # a sum in big bets (float)
    PER_100 = "per_100"  # 100 x numerator / denominator (bb/100)


@dataclass(frozen=True)
class Stat:
    """One statistic. `column` is its output column; a statistic `per_street` gives one
    column per street, `column` with `{s}` replaced for each of its `streets` (`afq_{s}`:
    `afq_3` ... `afq_7`), and its counters likewise. `numerator` and `denominator` name counters of
    `histkit.statsql.COUNTERS`, summed over a row's hands (several: their sum).
    `chances` is the output column that counts a share's chances (a small sample is
    marked). `needs`: the table without which the statistic is empty (`awards` for the
    hi/lo outcomes, `allin_ev` for the EV-adjusted net). `heading` is the text table's
    short header (None: not in it); `title` the words a report reads; `help` one line
    for `--help`; the `doc_*` the three columns of docs/stats.md's table."""

    column: str
    kind: Kind
    title: str
    numerator: tuple[str, ...]
    denominator: tuple[str, ...] = ()
    help: str = ""
    heading: str | None = None
    chances: str | None = None
    streets: tuple[int, ...] = ()
    needs: str | None = None
    doc_numerator: str = ""
    doc_denominator: str = "–"
    doc_counts: str = ""

    @property
    def per_street(self) -> bool:
        return bool(self.streets)

    def columns(self) -> tuple[str, ...]:
        """The output columns (one per street for a statistic per street)."""
        if self.per_street:
            return tuple(self.column.format(s=s) for s in self.streets)
        return (self.column,)

    def counters(self, street: int | None = None) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """(numerator, denominator) counters, for `street` when per street."""
        if not self.per_street:
            return self.numerator, self.denominator
        return (
            tuple(c.format(s=street) for c in self.numerator),
            tuple(c.format(s=street) for c in self.denominator),
        )


_HANDS = ("hands",)

#: Every statistic, in the order of `player_stats`'s columns.
STATS: tuple[Stat, ...] = (
    Stat(
        "hands", Kind.COUNT, "Hands dealt", _HANDS, heading="hands",
        help="hands the player was dealt cards in",
        doc_numerator="hands dealt", doc_counts="see above",
    ),
    Stat(
        "vpip", Kind.SHARE, "VPIP", ("vpip",), _HANDS, heading="VPIP", chances="hands",
        help="voluntarily put money in on 3rd street (call, complete, bet or raise)",
        doc_numerator="hands with a call, completion, bet or raise on 3rd street",
        doc_denominator="hands dealt",
        doc_counts="posting the ante or the bring-in alone does **not** count; the bring-in "
        "player who calls a completion **does**; a player all-in on the ante is dealt in but "
        "can never be VPIP",
    ),
    Stat(
        "complete_raise", Kind.SHARE, "Completed or raised on 3rd", ("complete_raise",),
        _HANDS, heading="compl", chances="hands",
        help="completed, bet or raised on 3rd street",
        doc_numerator="hands with a completion, bet or raise on 3rd", doc_denominator="hands dealt",
    ),
    Stat(
        "bring_in", Kind.SHARE, "Brought in", ("bring_in",), _HANDS, chances="hands",
        help="posted the bring-in",
        doc_numerator="hands where the player posted the bring-in", doc_denominator="hands dealt",
    ),
    Stat(
        "steal_opps", Kind.COUNT, "Steal spots", ("steal_opp",),
        help="first-in turns on 3rd with the best door card still to act (the bring-in's "
        "excepted)",
        doc_counts="a *first-in* turn on 3rd (nobody has called the bring-in or completed "
        "yet; the bring-in player's own forced post excluded) where the player's **door card "
        "beats every door card still to act, the bring-in's excepted**. \"Still to act\" = "
        "players dealt in, not all-in, clockwise after the player up to the bring-in. The "
        "bring-in is excepted because the steal is aimed at his forced partial bet (and his "
        "door is the weakest by rule in stud and razz). A player with nobody left to act but "
        "the bring-in always has a steal spot. Unknown door cards never count as beaten; "
        "door cards are ordered as below",
    ),
    Stat(
        "fold_to_steal_opps", Kind.COUNT, "Steals faced as the bring-in", ("fold_to_steal_opp",),
        help="times the bring-in faced a steal alone",
        doc_counts="the denominator of fold to steal",
    ),
    Stat(
        "three_bet_opps", Kind.COUNT, "Completions faced on 3rd", ("three_bet_opp",),
        help="turns on 3rd facing exactly a completion",
        doc_counts="the denominator of 3-bet",
    ),
    Stat(
        "four_bet_opps", Kind.COUNT, "3-bets faced on 3rd", ("four_bet_opp",),
        help="turns on 3rd facing exactly a 3-bet (the completion raised once)",
        doc_counts="the denominator of 4-bet",
    ),
    Stat(
        "fold_to_three_bet_opps", Kind.COUNT, "3-bets faced as the completer",
        ("fold_to_three_bet_opp",),
        help="times the completer's turn came facing exactly a 3-bet",
        doc_counts="the denominator of fold to 3-bet",
    ),
    Stat(
        "fold_to_four_bet_opps", Kind.COUNT, "4-bets faced as the 3-bettor",
        ("fold_to_four_bet_opp",),
        help="times the 3-bettor's turn came facing exactly a 4-bet",
        doc_counts="the denominator of fold to 4-bet",
    ),
    Stat(
        "steals", Kind.COUNT, "Steals made", ("steal",),
        help="completions in a steal spot",
        doc_counts="the denominator of steal success",
    ),
    Stat(
        "bring_in_defences", Kind.COUNT, "Completions faced as the bring-in",
        ("bring_in_def_opp",),
        help="times the bring-in's next turn came facing exactly a completion",
        doc_counts="the denominator of the bring-in's call, re-raise and fold",
    ),
    Stat(
        "saw_4", Kind.COUNT, "Hands that went to 4th", ("saw_4",),
        help="hands where the player had not folded when 4th street began",
        doc_counts="the denominator of WTSD and won when saw 4th",
    ),
    Stat(
        "steal", Kind.SHARE, "Steal attempts", ("steal",), ("steal_opp",), heading="steal",
        chances="steal_opps", help="completed in a steal spot",
        doc_numerator="steal spots where the player completed", doc_denominator="steal spots",
    ),
    Stat(
        "fold_to_steal", Kind.SHARE, "Fold to steal as bring-in", ("fold_to_steal",),
        ("fold_to_steal_opp",), heading="FtS", chances="fold_to_steal_opps",
        help="the bring-in folded to a steal he faced alone",
        doc_numerator="bring-in folds",
        doc_denominator="times the bring-in faced a steal **alone** (nobody between the "
        "stealer and him called or raised)",
        doc_counts="only the bring-in player is counted",
    ),
    Stat(
        "resteal", Kind.SHARE, "Re-steal", ("resteal",), ("resteal_opp",),
        help="re-raised a steal he faced alone",
        doc_numerator="re-raises of a steal",
        doc_denominator="times a player (bring-in or not) faced a steal alone",
    ),
    Stat(
        "three_bet", Kind.SHARE, "3-bet on 3rd", ("three_bet",), ("three_bet_opp",),
        heading="3bet", chances="three_bet_opps", help="raised a completion on 3rd",
        doc_numerator="raises at raise level 1 on 3rd (a raise of the completion)",
        doc_denominator="turns on 3rd facing exactly a completion",
        doc_counts="one per hand and player; bring-in ≈ blind, completion ≈ open raise, its "
        "raise = 3-bet",
    ),
    Stat(
        "four_bet", Kind.SHARE, "4-bet on 3rd", ("four_bet",), ("four_bet_opp",),
        chances="four_bet_opps", help="raised a 3-bet on 3rd",
        doc_numerator="raises at raise level 2 on 3rd (a raise of the 3-bet)",
        doc_denominator="turns on 3rd facing exactly a 3-bet",
        doc_counts="one per hand and player; any player facing the 3-bet, the completer or not",
    ),
    Stat(
        "fold_to_three_bet", Kind.SHARE, "Fold to a 3-bet on 3rd", ("fold_to_three_bet",),
        ("fold_to_three_bet_opp",), chances="fold_to_three_bet_opps",
        help="the completer folded to a 3-bet of his completion",
        doc_numerator="the completer's folds at his turn facing the 3-bet",
        doc_denominator="times the completer's turn came facing exactly a 3-bet (no 4-bet yet)",
        doc_counts="only the completer (the first to complete, bet or raise on 3rd) is counted",
    ),
    Stat(
        "fold_to_four_bet", Kind.SHARE, "Fold to a 4-bet on 3rd", ("fold_to_four_bet",),
        ("fold_to_four_bet_opp",), chances="fold_to_four_bet_opps",
        help="the 3-bettor folded to a 4-bet",
        doc_numerator="the 3-bettor's folds at his turn facing the 4-bet",
        doc_denominator="times the 3-bettor's turn came facing exactly a 4-bet",
        doc_counts="only the 3-bettor is counted",
    ),
    Stat(
        "steal_success", Kind.SHARE, "Steal success", ("steal_won",), ("steal",),
        chances="steals", help="steals nobody called or raised (everyone folded to it)",
        doc_numerator="steals after which every player who acted on 3rd folded",
        doc_denominator="steals",
        doc_counts="a player all-in on the ante has no turn and does not count against it",
    ),
    Stat(
        "bring_in_call", Kind.SHARE, "Bring-in defence: call", ("bring_in_call",),
        ("bring_in_def_opp",), chances="bring_in_defences",
        help="the bring-in called the completion he faced",
        doc_numerator="the bring-in's calls at his next turn",
        doc_denominator="times the bring-in's next turn after posting came facing exactly a "
        "completion (callers between allowed)",
        doc_counts="call, re-raise and fold add up to 1",
    ),
    Stat(
        "bring_in_reraise", Kind.SHARE, "Bring-in defence: re-raise", ("bring_in_reraise",),
        ("bring_in_def_opp",), chances="bring_in_defences",
        help="the bring-in re-raised the completion he faced",
        doc_numerator="the bring-in's raises at that turn", doc_denominator="as above",
    ),
    Stat(
        "bring_in_fold", Kind.SHARE, "Bring-in defence: fold", ("bring_in_fold",),
        ("bring_in_def_opp",), chances="bring_in_defences",
        help="the bring-in folded to the completion he faced",
        doc_numerator="the bring-in's folds at that turn", doc_denominator="as above",
    ),
    Stat(
        "went_{s}", Kind.SHARE, "Went to {s}th", ("saw_{s}",), _HANDS, heading="{s}th",
        chances="hands",
        streets=(4, 5, 6, 7), help="had not folded when the street began (4th to 7th)",
        doc_numerator="hands where the player had not folded when street N began",
        doc_denominator="hands dealt", doc_counts="all-in players go to every street that is dealt",
    ),
    Stat(
        "afq_{s}", Kind.SHARE, "Aggression frequency on {s}", ("aggr_{s}",),
        ("aggr_{s}", "calls_{s}", "folds_{s}"), streets=STREETS,
        help="completions, bets and raises among the street's actions (checks aside)",
        doc_numerator="completions + bets + raises on the street",
        doc_denominator="those + calls + folds on the street",
        doc_counts="counts actions, not hands; checks and the bring-in are not counted",
    ),
    Stat(
        "af_{s}", Kind.FACTOR, "Aggression factor on {s}", ("aggr_{s}",), ("calls_{s}",),
        streets=STREETS, help="completions, bets and raises per call on the street",
        doc_numerator="completions + bets + raises", doc_denominator="calls",
        doc_counts="empty when there was no call",
    ),
    Stat(
        "fold_to_bet_{s}", Kind.SHARE, "Fold to a bet on {s}", ("fold_to_bet_{s}",),
        ("fold_to_bet_opp_{s}",), streets=STREETS,
        help="folded at the first bet or raise faced on the street",
        doc_numerator="hands where the player's first action facing a bet or raise on the "
        "street was a fold",
        doc_denominator="hands where the player acted facing a bet/raise on the street",
        doc_counts="on 3rd, facing the bring-in alone is not \"facing a bet\" (facing the "
        "completion is)",
    ),
    Stat(
        "check_raise_{s}", Kind.SHARE, "Check-raise on {s}", ("check_raise_{s}",),
        ("check_raise_opp_{s}",), streets=STREETS,
        help="checked, then raised a bet behind him on the street",
        doc_numerator="hands where the player checked first and then raised on the street",
        doc_denominator="hands where the player checked first and acted again on the street "
        "(someone bet behind)",
    ),
    Stat(
        "cbet_{s}", Kind.SHARE, "Continuation bet on {s}", ("cbet_{s}",), ("cbet_opp_{s}",),
        streets=LATER_STREETS,
        help="the previous street's last aggressor bet first when no bet was made before his "
        "turn",
        doc_numerator="hands where the player, the previous street's last aggressor, bet at "
        "his first turn on the street",
        doc_denominator="hands where the player was the previous street's last aggressor "
        "(completion, bet or raise) and his first turn on the street came with no bet made",
        doc_counts="on 4th the aggressor of 3rd (the completion counts); the bring-in is no "
        "aggression; a check then a raise is no continuation bet",
    ),
    Stat(
        "fold_to_cbet_{s}", Kind.SHARE, "Fold to a continuation bet on {s}",
        ("fold_to_cbet_{s}",), ("fold_to_cbet_opp_{s}",), streets=LATER_STREETS,
        help="folded at the first turn facing a continuation bet (not yet raised)",
        doc_numerator="hands where the player's first turn facing the continuation bet was "
        "a fold",
        doc_denominator="hands where the player had a turn facing a continuation bet, no "
        "raise made after it",
        doc_counts="facing a raise of the continuation bet is not facing it",
    ),
    Stat(
        "donk_{s}", Kind.SHARE, "Donk bet on {s}", ("donk_{s}",), ("donk_opp_{s}",),
        streets=LATER_STREETS,
        help="led (bet first) into the previous street's last aggressor, acting before him",
        doc_numerator="hands where the player bet at his first turn on the street, before "
        "the previous street's last aggressor had acted",
        doc_denominator="hands where the player's first turn on the street came with no bet "
        "made and the previous street's last aggressor (another player) still to act on it",
        doc_counts="an aggressor all-in (no turn) leaves no chance",
    ),
    Stat(
        "showdowns", Kind.COUNT, "Showdowns", ("showdown",),
        help="hands that went to a showdown with the player in it",
        doc_numerator="hands where the player showed or mucked at the showdown without having "
        "folded, and at least two players had not folded",
        doc_counts="a hand that ends on 3rd street (everyone folds) is **no showdown**, even "
        "if the winner shows",
    ),
    Stat(
        "showdowns_won", Kind.COUNT, "Showdowns won", ("won_showdown",),
        help="showdowns where the player collected chips",
        doc_numerator="showdowns where the player collected chips",
    ),
    Stat(
        "wtsd", Kind.SHARE, "Went to showdown (of saw 4th)", ("showdown",), ("saw_4",),
        heading="WTSD", chances="saw_4", help="showdowns of the hands that went to 4th",
        doc_numerator="showdowns", doc_denominator="hands that went to 4th",
    ),
    Stat(
        "wsd", Kind.SHARE, "Won at showdown", ("won_showdown",), ("showdown",), heading="W$SD",
        chances="showdowns", help="showdowns where the player collected chips, of showdowns",
        doc_numerator="showdowns where the player collected chips", doc_denominator="showdowns",
        doc_counts="any part of any pot counts as won",
    ),
    Stat(
        "won_saw_4", Kind.SHARE, "Won when saw 4th", ("won_saw_4",), ("saw_4",), chances="saw_4",
        help="hands won of the hands that went to 4th",
        doc_numerator="hands that went to 4th where the player collected chips",
        doc_denominator="hands that went to 4th",
    ),
    Stat(
        "net", Kind.MONEY, "Net won", ("net",), heading="net",
        help="collected minus contributed, in minor units of the row's money",
        doc_numerator="collected − contributed (antes, bring-in, bets, calls, raises, minus "
        "uncalled bets returned)",
        doc_counts="minor units of the row's money; per hand the players' nets sum to −(rake "
        "+ fee)",
    ),
    Stat(
        "ev_net", Kind.MONEY, "EV-adjusted net (all-in hands at their equity)", ("ev_net",),
        heading="EV net", needs="allin_ev",
        help="net with all-in hands counted at their equity when the money went in",
        doc_numerator="Σ over the player's hands of `allin_ev.ev_net` where he has an all-in "
        "EV row, else of `net`",
        doc_counts="minor units of the row's money; an all-in hand counts at the equity he had "
        "in each pot when its last chip went in (definitions: [docs/equity.md](equity.md)); "
        "empty on tables without `allin_ev`",
    ),
    Stat(
        "allin_hands", Kind.COUNT, "All-in hands with cards to come", ("allin",),
        help="hands with an all-in EV row for the player",
        doc_numerator="hands with an all-in EV row for the player (still in a pot an all-in "
        "player is in, settled with cards to come)",
    ),
    Stat(
        "net_bb", Kind.BIG_BETS, "Net in big bets", ("net_bb",),
        help="the net of each hand in its big bets, summed",
        doc_numerator="Σ net / the hand's big bet",
    ),
    Stat(
        "bb_per_100", Kind.PER_100, "Big bets per 100 hands", ("net_bb",), _HANDS,
        heading="bb/100", chances="hands", help="100 x net in big bets / hands dealt",
        doc_numerator="100 × net in big bets", doc_denominator="hands dealt",
    ),
    Stat(
        "rake", Kind.MONEY, "Rake paid (share by contribution)", ("rake_paid",), heading="rake",
        help="the hands' rake and fees, shared by contribution",
        doc_numerator="the hand's rake and fees (a jackpot drop, where the site takes one) "
        "shared by contribution",
        doc_counts="whole units: each player gets ⌊rake × contributed / pot⌋, the units left "
        "go to the largest remainders (ties: larger contribution, then lower seat), so shares "
        "add up to the rake exactly",
    ),
    Stat(
        "showdown_net", Kind.MONEY, "Net at showdown", ("showdown_net",),
        help="the net of the hands with a showdown for the player",
        doc_numerator="Σ net of hands with a showdown for the player",
        doc_counts="with `non_showdown_net`, adds up to `net`",
    ),
    Stat(
        "non_showdown_net", Kind.MONEY, "Net without showdown", ("non_showdown_net",),
        help="the net of the hands without a showdown for the player",
        doc_numerator="Σ net of hands without a showdown for the player",
    ),
    Stat(
        "hilo_showdowns_won", Kind.COUNT, "Hi/lo showdowns won", ("hilo_won",),
        help="stud hi/lo showdowns where the player collected",
        doc_numerator="stud hi/lo showdowns where the player collected",
    ),
    Stat(
        "hilo_scooped", Kind.COUNT, "Scooped", ("hilo_scooped",), needs="awards",
        help="hi/lo showdowns won alone in every pot the player was paid from",
        doc_numerator="hi/lo showdowns won where, in every pot the player was paid from, "
        "nobody else was paid anything",
        doc_counts="from the audit's `awards` (what the site paid, `reported`); a pot with no "
        "qualifying low (\"whole\") won alone is a scoop",
    ),
    Stat(
        "hilo_high_only", Kind.COUNT, "High only", ("hilo_high_only",), needs="awards",
        help="hi/lo showdowns where the player was paid the high halves only",
        doc_numerator="… where the player was paid only high (or whole) halves, alone in each "
        "half, and someone else got a low",
    ),
    Stat(
        "hilo_low_only", Kind.COUNT, "Low only", ("hilo_low_only",), needs="awards",
        help="hi/lo showdowns where the player was paid the low halves only",
        doc_numerator="… paid only low halves, alone in each",
    ),
    Stat(
        "hilo_split_or_quartered", Kind.COUNT, "Split or quartered",
        ("hilo_split_or_quartered",), needs="awards",
        help="every other hi/lo showdown won (a tie, or high in one pot and low in another)",
        doc_numerator="… every other case: a half shared with a tie (quartered), or high in "
        "one pot and low in another",
        doc_counts="the four outcomes add up to `hilo_showdowns_won`; without an `awards` "
        "table they are empty and `hilo_breakdown` raises `MissingTableError`",
    ),
)  # fmt: skip


def layout() -> list[tuple[Stat, int | None, str]]:
    """(statistic, street or None, column) in the order of the output columns: a run of
    statistics per street with the same streets is laid out street by street (`afq_3`,
    `af_3`, `fold_to_bet_3`, `check_raise_3`, `afq_4`, ...)."""
    out: list[tuple[Stat, int | None, str]] = []
    i = 0
    while i < len(STATS):
        st = STATS[i]
        if not st.per_street:
            out.append((st, None, st.column))
            i += 1
            continue
        run = [st]
        while i + len(run) < len(STATS) and STATS[i + len(run)].streets == st.streets:
            run.append(STATS[i + len(run)])
        out += [(r, s, r.column.format(s=s)) for s in st.streets for r in run]
        i += len(run)
    return out


_BY_COLUMN = {c: s for s, _, c in layout()}


def stat(column: str) -> Stat:
    """The statistic that makes `column` (`afq_5` is `afq_{s}`'s)."""
    return _BY_COLUMN[column]


def columns() -> tuple[str, ...]:
    """Every statistic's output column, in order."""
    return tuple(_BY_COLUMN)


def street_title(column: str) -> str:
    """A statistic's title, a street's name filled in ("Aggression frequency on 5th")."""
    s = stat(column)
    if not s.per_street:
        return s.title
    street = int(column.rsplit("_", 1)[1])
    name = {3: "3rd"}.get(street, f"{street}th")
    return s.title.replace("{s}th", name).replace("{s}", name)


def _names(s: Stat) -> str:
    if s.per_street:
        cols = s.columns()
        return f"`{cols[0]}` … `{cols[-1]}`"
    return f"`{s.column}`"


def help_lines(width: int = 100) -> list[str]:
    """Lines for `histkit stats --help`: each statistic's column(s) and meaning."""
    import textwrap

    names = []
    for s in STATS:
        cols = s.columns()
        names.append(f"{cols[0]} .. _{s.streets[-1]}" if s.per_street else s.column)
    indent = " " * (max(len(n) for n in names) + 4)
    out = []
    for name, s in zip(names, STATS, strict=True):
        first = f"  {name}".ljust(len(indent)) + s.help
        out += textwrap.wrap(first, width, subsequent_indent=indent, break_on_hyphens=False)
    return out


def _cell(text: str) -> str:
    return text.replace("|", "\\|").strip()


def definitions_markdown() -> str:
    """docs/stats.md's table of definitions, one row per statistic."""
    lines = [
        "| statistic (column) | numerator | denominator | what counts |",
        "|---|---|---|---|",
    ]
    for s in STATS:
        title = s.title.replace(" on {s}", "").replace("Went to {s}th", "Went to Nth")
        num = s.doc_numerator or "–"
        den = s.doc_denominator if s.denominator or s.doc_denominator != "–" else "–"
        lines.append(
            f"| {_cell(title)} ({_names(s)}) | {_cell(num)} | {_cell(den)} | "
            f"{_cell(s.doc_counts)} |"
        )
    return "\n".join(lines) + "\n"


if __name__ == "__main__":  # python -m histkit.statdefs: the table docs/stats.md holds
    print(definitions_markdown(), end="")
