"""The statistics in SQL, computed by DuckDB where the hands are: one row of facts per hand
and player dealt in (`facts_sql`), and their sums per player (`sums_sql`), from which
`histkit.stats` makes each statistic of `histkit.statdefs.STATS`.

The facts are judged per hand, with the whole table in view (who was still to act, who
had brought in): every window and join below is within one hand, keyed by (site, hand_id).
They read the tables by name (`hands` filtered and labelled as `hk_hands`, `seats`,
`actions`, `cards`, `allin_ev`, `awards`), so the same SQL runs over the hand database,
over a temporary database a text input was streamed into, and over tables in memory. A
row order a statistic depends on (the first up card of 3rd street, the down cards in deal
order) is the order the rows were written in: `rowid`.

Definitions: docs/stats.md (made from `histkit.statdefs`).
"""

from __future__ import annotations

from histkit.statdefs import LATER_STREETS, STREETS

__all__ = [
    "COUNTERS",
    "FACT_FLAGS",
    "LEAD_FLAGS",
    "LEAD_STREETS",
    "HILO_OUTCOMES",
    "facts_sql",
    "sums_sql",
]

AGGRESSIVE = ("bet", "raise", "complete")
VOLUNTARY = ("call", "bet", "raise", "complete")
HILO_OUTCOMES: tuple[str, ...] = ("scooped", "high only", "low only", "split or quartered")


def _in(values: tuple[str, ...]) -> str:
    return "(" + ", ".join(f"'{v}'" for v in values) + ")"


#: The per-hand flags (booleans) of a facts row, in column order.
FACT_FLAGS: tuple[str, ...] = (
    "allin_ante",
    "vpip",
    "complete_raise",
    "bring_in",
    "three_bet_opp",
    "three_bet",
    "steal_opp",
    "steal",
    "resteal_opp",
    "resteal",
    "fold_to_steal_opp",
    "fold_to_steal",
    "four_bet_opp",
    "four_bet",
    "fold_to_three_bet_opp",
    "fold_to_three_bet",
    "fold_to_four_bet_opp",
    "fold_to_four_bet",
    "steal_won",
    "bring_in_def_opp",
    "bring_in_call",
    "bring_in_reraise",
    "bring_in_fold",
)

#: What `histkit.statdefs` sums, per hand and player: name -> SQL over a facts row.
COUNTERS: dict[str, str] = {
    "hands": "1",
    **{f: f"CAST({f} AS BIGINT)" for f in FACT_FLAGS if f != "allin_ante"},
    **{f"saw_{s}": f"CAST(saw_{s} AS BIGINT)" for s in (4, 5, 6, 7)},
    "showdown": "CAST(showdown AS BIGINT)",
    "won_showdown": "CAST(won_showdown AS BIGINT)",
    "won_saw_4": "CAST(won_saw_4 AS BIGINT)",
    "net": "net",
    "net_bb": "net_bb",
    "ev_net": "ev_net",
    "allin": "CAST(allin AS BIGINT)",
    "rake_paid": "rake_paid",
    "showdown_net": "CASE WHEN showdown THEN net ELSE 0 END",
    "non_showdown_net": "CASE WHEN showdown THEN 0 ELSE net END",
    "hilo_won": "CAST(game = 'stud_hilo' AND won_showdown AS BIGINT)",
    **{
        f"hilo_{o.replace(' ', '_')}": f"CAST(coalesce(hilo_outcome = '{o}', false) AS BIGINT)"
        for o in HILO_OUTCOMES
    },
}
for _s in STREETS:
    COUNTERS[f"aggr_{_s}"] = f"aggr_{_s}"
    COUNTERS[f"calls_{_s}"] = f"calls_{_s}"
    COUNTERS[f"folds_{_s}"] = f"folds_{_s}"
    for _f in ("fold_to_bet_opp", "fold_to_bet", "check_raise_opp", "check_raise"):
        COUNTERS[f"{_f}_{_s}"] = f"CAST({_f}_{_s} AS BIGINT)"
#: The per-street flags of 4th to 7th street facing the previous street's aggressor.
LEAD_FLAGS: tuple[str, ...] = (
    "cbet_opp", "cbet", "fold_to_cbet_opp", "fold_to_cbet", "donk_opp", "donk",
)  # fmt: skip
LEAD_STREETS = LATER_STREETS
for _s in LEAD_STREETS:
    for _f in LEAD_FLAGS:
        COUNTERS[f"{_f}_{_s}"] = f"CAST({_f}_{_s} AS BIGINT)"

_RANK = (
    "CASE substr({c}, 1, 1) WHEN '2' THEN 2 WHEN '3' THEN 3 WHEN '4' THEN 4 WHEN '5' THEN 5 "
    "WHEN '6' THEN 6 WHEN '7' THEN 7 WHEN '8' THEN 8 WHEN '9' THEN 9 WHEN 'T' THEN 10 "
    "WHEN 'J' THEN 11 WHEN 'Q' THEN 12 WHEN 'K' THEN 13 WHEN 'A' THEN 14 END"
)

# A door card's threat for a steal, higher is stronger (docs/stats.md): stud by rank, razz
# by low value (ace best), hi/lo the ace, then the low cards from the deuce up, then the
# high cards from the king down (a 2 threatens more than an 8, any low card more than a K).
_DOOR = """CASE WHEN game = 'razz' THEN 15 - (CASE WHEN r = 14 THEN 1 ELSE r END)
     WHEN game = 'stud_hilo' THEN CASE r WHEN 14 THEN 13 WHEN 2 THEN 12 WHEN 3 THEN 11
        WHEN 4 THEN 10 WHEN 5 THEN 9 WHEN 6 THEN 8 WHEN 7 THEN 7 WHEN 8 THEN 6 WHEN 13 THEN 5
        WHEN 12 THEN 4 WHEN 11 THEN 3 WHEN 10 THEN 2 WHEN 9 THEN 1 END
     ELSE r END"""


def _betting() -> str:
    """Non-ante actions of the selected hands with the state each one faced on its street:
    completions/bets/raises and calls before it."""
    return f"""
a AS (
    SELECT x.site, x.hand_id, x.street, x.seq, x.player, x.kind,
        x.kind IN {_in(AGGRESSIVE)} AS aggr,
        coalesce(sum(CAST(x.kind IN {_in(AGGRESSIVE)} AS INTEGER)) OVER w, 0)
            - CAST(x.kind IN {_in(AGGRESSIVE)} AS INTEGER) AS n_aggr_before,
        coalesce(sum(CAST(x.kind = 'call' AS INTEGER)) OVER w, 0)
            - CAST(x.kind = 'call' AS INTEGER) AS n_call_before
    FROM actions x SEMI JOIN hk_hands h ON x.site = h.site AND x.hand_id = h.hand_id
    WHERE x.kind IS DISTINCT FROM 'ante'
    WINDOW w AS (PARTITION BY x.site, x.hand_id, x.street ORDER BY x.seq
                 ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
),
a3 AS (SELECT * FROM a WHERE street = 3)"""


def _seats() -> str:
    """The seats dealt in, with their hand's labels, and who went all-in on the ante."""
    return """
f0 AS (
    SELECT s.* EXCLUDE (money_unit, showdown), s.showdown AS showdown_seen,
        h.game, h.money, h.money_unit, h.unit, h.currency, h.stakes, h."table",
        h.started_at, h.small_bet, h.big_bet, h.rake, h.is_tournament, h.tournament_id,
        h.buy_in_amount, h.buy_in_fee, h.buy_in_currency,
        EXISTS (SELECT 1 FROM actions y WHERE y.site = s.site AND y.hand_id = s.hand_id
                AND y.player = s.player AND y.kind = 'ante' AND y.all_in) AS allin_ante
    FROM seats s JOIN hk_hands h ON s.site = h.site AND s.hand_id = h.hand_id
    WHERE s.dealt_in
)"""


def _third_street() -> str:
    """VPIP, completion, bring-in, 3-bet and 4-bet flags; the completer's answer to a
    3-bet and the 3-bettor's to a 4-bet; the bring-in's answer to a completion; seats
    counted from the bring-in, each player's position (early, middle, late, bring-in)
    and his door's place among the doors (best, middle, worst); steal spots (the door
    beats every door still to act but the bring-in's), steals, whether anyone called or
    raised a steal, and the first answer of each player to a steal he faced alone."""
    return f"""
t3 AS (
    SELECT site, hand_id, player,
        bool_or(kind IN {_in(VOLUNTARY)}) AS vpip,
        bool_or(aggr) AS complete_raise,
        bool_or(kind = 'bring_in') AS bring_in,
        bool_or(n_aggr_before = 1) AS three_bet_opp,
        bool_or(n_aggr_before = 1 AND aggr) AS three_bet,
        bool_or(n_aggr_before = 2) AS four_bet_opp,
        bool_or(n_aggr_before = 2 AND aggr) AS four_bet
    FROM a3 WHERE player IS NOT NULL GROUP BY site, hand_id, player
),
raisers AS (
    SELECT site, hand_id, any_value(player) FILTER (k = 1) AS completer,
        any_value(player) FILTER (k = 2) AS three_bettor
    FROM (
        SELECT site, hand_id, player,
            row_number() OVER (PARTITION BY site, hand_id ORDER BY seq) AS k
        FROM a3 WHERE aggr
    ) WHERE k <= 2 GROUP BY site, hand_id
),
re_raised AS (
    SELECT x.site, x.hand_id, x.player,
        bool_or(x.player = r.completer AND x.n_aggr_before = 2) AS fold_to_three_bet_opp,
        coalesce(arg_min(x.kind, x.seq) FILTER (x.player = r.completer
            AND x.n_aggr_before = 2) = 'fold', false) AS fold_to_three_bet,
        bool_or(x.player = r.three_bettor AND x.n_aggr_before = 3) AS fold_to_four_bet_opp,
        coalesce(arg_min(x.kind, x.seq) FILTER (x.player = r.three_bettor
            AND x.n_aggr_before = 3) = 'fold', false) AS fold_to_four_bet
    FROM a3 x JOIN raisers r ON r.site = x.site AND r.hand_id = x.hand_id
    WHERE x.player IS NOT NULL GROUP BY x.site, x.hand_id, x.player
),
bring_in_answer AS (
    SELECT site, hand_id, player, true AS bring_in_def_opp, kind = 'call' AS bring_in_call,
        aggr AS bring_in_reraise, kind = 'fold' AS bring_in_fold
    FROM (
        SELECT x.* FROM a3 x JOIN (
            SELECT site, hand_id, player, min(seq) AS posted FROM a3
            WHERE kind = 'bring_in' AND player IS NOT NULL GROUP BY site, hand_id, player
        ) b ON b.site = x.site AND b.hand_id = x.hand_id AND b.player = x.player
            AND x.seq > b.posted
        QUALIFY row_number() OVER (PARTITION BY x.site, x.hand_id, x.player ORDER BY x.seq) = 1
    ) WHERE n_aggr_before = 1
),
opener AS (
    SELECT site, hand_id, player AS opener FROM a3
    QUALIFY row_number() OVER (PARTITION BY site, hand_id ORDER BY seq) = 1
),
door AS (
    SELECT c.site, c.hand_id, c.player, c.card FROM cards c
    SEMI JOIN hk_hands h ON c.site = h.site AND c.hand_id = h.hand_id
    WHERE c.street = 3 AND c.up AND c.player IS NOT NULL
    QUALIFY row_number() OVER (PARTITION BY c.site, c.hand_id, c.player ORDER BY c.rowid) = 1
),
doors AS (
    SELECT site, hand_id, player, allin_ante, seat, {_DOOR} AS door_rank FROM (
        SELECT f.site, f.hand_id, f.player, f.allin_ante, f.seat, f.game,
            {_RANK.format(c="d.card")} AS r
        FROM f0 f
        LEFT JOIN door d ON d.site = f.site AND d.hand_id = f.hand_id AND d.player = f.player
    )
),
pos AS (
    SELECT f.site, f.hand_id, f.player, f.allin_ante,
        ((f.seat - o.seat) % 1000 + 1000) % 1000 AS pos, f.door_rank
    FROM doors f
    JOIN opener op ON f.site = op.site AND f.hand_id = op.hand_id
    JOIN f0 o ON o.site = f.site AND o.hand_id = f.hand_id AND o.player = op.opener
),
places AS (
    SELECT site, hand_id, player, CASE WHEN pos = 0 THEN 'bring-in'
            WHEN to_bring_in <= 2 THEN 'late' WHEN to_bring_in <= 4 THEN 'middle'
            ELSE 'early' END AS position
    FROM (
        SELECT *, count(*) OVER (PARTITION BY site, hand_id)
            - row_number() OVER (PARTITION BY site, hand_id ORDER BY pos) AS to_bring_in
        FROM pos WHERE NOT allin_ante
    )
),
door_places AS (
    SELECT me.site, me.hand_id, me.player,
        CASE WHEN count(o.player) FILTER (o.door_rank > me.door_rank) = 0 THEN 'best'
            WHEN count(o.player) FILTER (o.door_rank < me.door_rank) = 0 THEN 'worst'
            ELSE 'middle' END AS door
    FROM doors me LEFT JOIN doors o ON o.site = me.site AND o.hand_id = me.hand_id
        AND o.player <> me.player AND o.door_rank IS NOT NULL
    WHERE me.door_rank IS NOT NULL
    GROUP BY me.site, me.hand_id, me.player
),
spots AS (
    SELECT x.site, x.hand_id, x.player, x.seq, x.aggr, p.pos, p.door_rank
    FROM a3 x JOIN pos p ON p.site = x.site AND p.hand_id = x.hand_id AND p.player = x.player
    WHERE x.n_aggr_before = 0 AND x.n_call_before = 0 AND x.kind IS DISTINCT FROM 'bring_in'
),
unbeaten AS (
    SELECT sp.site, sp.hand_id, sp.seq, count(*) AS n
    FROM spots sp JOIN pos o ON o.site = sp.site AND o.hand_id = sp.hand_id
    WHERE NOT o.allin_ante AND o.pos > 0 AND o.pos > sp.pos
        AND NOT coalesce(sp.door_rank > o.door_rank, false)
    GROUP BY sp.site, sp.hand_id, sp.seq
),
ok AS (
    SELECT sp.* FROM spots sp
    LEFT JOIN unbeaten u ON u.site = sp.site AND u.hand_id = sp.hand_id AND u.seq = sp.seq
    WHERE u.n IS NULL AND sp.door_rank IS NOT NULL
),
after AS (
    SELECT x.site, x.hand_id, x.player, x.kind, x.aggr, x.seq, st.player AS stealer,
        coalesce(sum(CAST(x.kind IN {_in(VOLUNTARY)} AS INTEGER)) OVER (
            PARTITION BY x.site, x.hand_id ORDER BY x.seq
            ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW), 0)
            - CAST(x.kind IN {_in(VOLUNTARY)} AS INTEGER) AS n_in_before
    FROM a3 x JOIN ok st ON st.site = x.site AND st.hand_id = x.hand_id AND st.aggr
    WHERE x.seq > st.seq
),
alone AS (
    SELECT * FROM (
        SELECT * FROM after WHERE player IS NOT NULL AND player <> stealer
        QUALIFY row_number() OVER (PARTITION BY site, hand_id, player ORDER BY seq) = 1
    ) WHERE n_in_before = 0
),
answered AS (
    SELECT site, hand_id, stealer, bool_or(player <> stealer AND kind IN {_in(VOLUNTARY)})
        AS answered
    FROM after GROUP BY site, hand_id, stealer
),
steals AS (
    SELECT o.site, o.hand_id, o.player, true AS steal_opp, bool_or(o.aggr) AS steal,
        bool_or(o.aggr AND NOT coalesce(w.answered, false)) AS steal_won
    FROM ok o LEFT JOIN answered w ON w.site = o.site AND w.hand_id = o.hand_id
        AND w.stealer = o.player
    GROUP BY o.site, o.hand_id, o.player
),
answers AS (
    SELECT al.site, al.hand_id, al.player, true AS resteal_opp, bool_or(al.aggr) AS resteal,
        bool_or(b.player IS NOT NULL) AS fold_to_steal_opp,
        bool_or(b.player IS NOT NULL AND al.kind = 'fold') AS fold_to_steal
    FROM alone al
    LEFT JOIN (SELECT DISTINCT site, hand_id, player FROM a3 WHERE kind = 'bring_in') b
        ON b.site = al.site AND b.hand_id = al.hand_id AND b.player = al.player
    GROUP BY al.site, al.hand_id, al.player
)"""


def _streets() -> str:
    """Per hand, player and street: actions counted, the first action facing a bet, and
    whether a check came first and was followed by another action (and by a raise)."""
    per = []
    for s in STREETS:
        on = f"street = {s}"
        per += [
            f"coalesce(sum(n_aggr) FILTER ({on}), 0) AS aggr_{s}",
            f"coalesce(sum(n_call) FILTER ({on}), 0) AS calls_{s}",
            f"coalesce(sum(n_fold) FILTER ({on}), 0) AS folds_{s}",
            f"coalesce(bool_or(facing) FILTER ({on}), false) AS fold_to_bet_opp_{s}",
            f"coalesce(bool_or(facing_kind = 'fold') FILTER ({on}), false) AS fold_to_bet_{s}",
            f"coalesce(bool_or(checked) FILTER ({on}), false) AS check_raise_opp_{s}",
            f"coalesce(bool_or(checked AND any_aggr) FILTER ({on}), false) AS check_raise_{s}",
        ]
    columns = ",\n        ".join(per)
    return f"""
ps AS (
    SELECT site, hand_id, player, street,
        count(*) FILTER (aggr) AS n_aggr,
        count(*) FILTER (kind = 'call') AS n_call,
        count(*) FILTER (kind = 'fold') AS n_fold,
        count(*) FILTER (n_aggr_before > 0) > 0 AS facing,
        arg_min(kind, seq) FILTER (n_aggr_before > 0) AS facing_kind,
        arg_min(kind, seq) = 'check' AND count(*) > 1 AS checked,
        bool_or(aggr) AS any_aggr
    FROM a WHERE player IS NOT NULL GROUP BY site, hand_id, player, street
),
pst AS (
    SELECT site, hand_id, player,
        {columns}
    FROM ps GROUP BY site, hand_id, player
)"""


def _leads() -> str:
    """4th to 7th street against the previous street's last aggressor: his continuation
    bet (he bets first, nobody having bet before his turn), each player's first answer to
    it, and a lead into him by a player who acts before him (a donk bet)."""
    per = []
    for s in LEAD_STREETS:
        on = f"street = {s}"
        per += [f"coalesce(bool_or({f}) FILTER ({on}), false) AS {f}_{s}" for f in LEAD_FLAGS]
    columns = ",\n        ".join(per)
    return f"""
first_act AS (
    SELECT site, hand_id, street, player, seq, aggr, kind, n_aggr_before FROM a
    WHERE player IS NOT NULL AND street > 3
    QUALIFY row_number() OVER (PARTITION BY site, hand_id, street, player ORDER BY seq) = 1
),
last_aggr AS (
    SELECT site, hand_id, street + 1 AS street, player AS aggressor FROM a
    WHERE aggr AND player IS NOT NULL AND street < 7
    QUALIFY row_number() OVER (PARTITION BY site, hand_id, street ORDER BY seq DESC) = 1
),
lead_spots AS (
    SELECT fa.site, fa.hand_id, fa.street, fa.player, fa.seq,
        fa.player = la.aggressor AND fa.n_aggr_before = 0 AS cbet_opp,
        fa.player = la.aggressor AND fa.n_aggr_before = 0 AND fa.aggr AS cbet,
        fa.player <> la.aggressor AND fa.n_aggr_before = 0 AND ag.seq > fa.seq AS donk_opp,
        fa.player <> la.aggressor AND fa.n_aggr_before = 0 AND ag.seq > fa.seq
            AND fa.aggr AS donk
    FROM first_act fa
    JOIN last_aggr la ON la.site = fa.site AND la.hand_id = fa.hand_id
        AND la.street = fa.street
    LEFT JOIN first_act ag ON ag.site = fa.site AND ag.hand_id = fa.hand_id
        AND ag.street = fa.street AND ag.player = la.aggressor
),
cbets AS (SELECT site, hand_id, street, player AS bettor FROM lead_spots WHERE cbet),
cbet_answers AS (
    SELECT x.site, x.hand_id, x.street, x.player, true AS fold_to_cbet_opp,
        arg_min(x.kind, x.seq) = 'fold' AS fold_to_cbet
    FROM a x JOIN cbets c ON c.site = x.site AND c.hand_id = x.hand_id
        AND c.street = x.street
    WHERE x.player IS NOT NULL AND x.player <> c.bettor AND x.n_aggr_before = 1
    GROUP BY x.site, x.hand_id, x.street, x.player
),
lead AS (
    SELECT site, hand_id, player,
        {columns}
    FROM (
        SELECT coalesce(l.site, c.site) AS site, coalesce(l.hand_id, c.hand_id) AS hand_id,
            coalesce(l.player, c.player) AS player, coalesce(l.street, c.street) AS street,
            coalesce(l.cbet_opp, false) AS cbet_opp, coalesce(l.cbet, false) AS cbet,
            coalesce(l.donk_opp, false) AS donk_opp, coalesce(l.donk, false) AS donk,
            coalesce(c.fold_to_cbet_opp, false) AS fold_to_cbet_opp,
            coalesce(c.fold_to_cbet, false) AS fold_to_cbet
        FROM lead_spots l FULL JOIN cbet_answers c ON c.site = l.site
            AND c.hand_id = l.hand_id AND c.street = l.street AND c.player = l.player
    ) GROUP BY site, hand_id, player
)"""


def _allin(has_ev: bool) -> str:
    if not has_ev:
        return """
ev AS (SELECT NULL::VARCHAR AS site, NULL::VARCHAR AS hand_id, NULL::VARCHAR AS player,
              NULL::BIGINT AS ev_net WHERE false)"""
    return """
ev AS (
    SELECT e.site, e.hand_id, e.player, e.ev_net FROM allin_ev e
    SEMI JOIN hk_hands h ON e.site = h.site AND e.hand_id = h.hand_id
    WHERE e.player IS NOT NULL
    QUALIFY row_number() OVER (PARTITION BY e.site, e.hand_id, e.player ORDER BY e.rowid) = 1
)"""


def _categories() -> str:
    """The three 3rd-street cards (two down in deal order, the door), where all are known."""
    return f"""
c3 AS (
    SELECT c.site, c.hand_id, c.player, c.up, c.card,
        row_number() OVER (PARTITION BY c.site, c.hand_id, c.player, c.up ORDER BY c.rowid)
            - 1 AS slot
    FROM cards c SEMI JOIN hk_hands h ON c.site = h.site AND c.hand_id = h.hand_id
    WHERE c.street = 3 AND c.player IS NOT NULL AND c.known
),
three AS (
    SELECT site, hand_id, player,
        {_RANK.format(c="d1")} AS r1, {_RANK.format(c="d2")} AS r2, {_RANK.format(c="d3")} AS r3,
        substr(d1, 2, 1) AS s1, substr(d2, 2, 1) AS s2, substr(d3, 2, 1) AS s3
    FROM (
        SELECT site, hand_id, player,
            first(card) FILTER (NOT up AND slot = 0) AS d1,
            first(card) FILTER (NOT up AND slot = 1) AS d2,
            first(card) FILTER (up AND slot = 0) AS d3
        FROM c3 WHERE slot < 2 GROUP BY site, hand_id, player
    ) WHERE d1 IS NOT NULL AND d2 IS NOT NULL AND d3 IS NOT NULL
),
shape AS (
    SELECT *, NOT paired AND (greatest(r1, r2, r3) - least(r1, r2, r3) <= 4
                              OR greatest(l1, l2, l3) - least(l1, l2, l3) <= 4) AS straight,
        NOT paired AND greatest(l1, l2, l3) <= 8 AS low3,
        greatest(l1, l2, l3) AS top
    FROM (
        SELECT *, trips OR buried OR split AS paired FROM (
            SELECT *, r1 = r2 AND r2 = r3 AS trips,
                r1 = r2 AND NOT (r1 = r2 AND r2 = r3) AS buried,
                (r3 = r1 OR r3 = r2) AND NOT (r1 = r2 AND r2 = r3) AS split,
                s1 = s2 AND s2 = s3 AS flush,
                CASE WHEN r1 = 14 THEN 1 ELSE r1 END AS l1,
                CASE WHEN r2 = 14 THEN 1 ELSE r2 END AS l2,
                CASE WHEN r3 = 14 THEN 1 ELSE r3 END AS l3
            FROM three
        )
    )
)"""


_CATEGORY = """CASE
        WHEN k.r1 IS NULL THEN NULL
        WHEN f.game = 'razz' THEN CASE WHEN k.trips THEN 'rolled-up trips'
            WHEN k.paired THEN 'paired' WHEN k.top <= 5 THEN 'three to a 5'
            WHEN k.top = 6 THEN 'three to a 6' WHEN k.top = 7 THEN 'three to a 7'
            WHEN k.top = 8 THEN 'three to an 8' ELSE 'three to a 9 or higher' END
        WHEN f.game = 'stud_hilo' THEN CASE WHEN k.trips THEN 'rolled-up trips'
            WHEN k.buried THEN 'buried pair' WHEN k.split THEN 'split pair'
            WHEN k.low3 THEN 'three low (8 or lower)' WHEN k.flush THEN 'three to a flush'
            WHEN k.straight THEN 'three to a straight' ELSE 'other' END
        ELSE CASE WHEN k.trips THEN 'rolled-up trips' WHEN k.buried THEN 'buried pair'
            WHEN k.split THEN 'split pair'
            WHEN k.straight AND k.flush THEN 'three to a straight flush'
            WHEN k.flush THEN 'three to a flush' WHEN k.straight THEN 'three to a straight'
            ELSE 'other' END
    END"""


def _hilo(has_awards: bool) -> str:
    """Per player paid at a hi/lo showdown: scooped, high only, low only, or split."""
    if not has_awards:
        return """
hilo AS (SELECT NULL::VARCHAR AS site, NULL::VARCHAR AS hand_id, NULL::VARCHAR AS player,
                NULL::VARCHAR AS kind WHERE false)"""
    return """
paid AS (
    SELECT w.site, w.hand_id, w.pot, w.half, w.player FROM awards w
    SEMI JOIN hk_hands h ON w.site = h.site AND w.hand_id = h.hand_id
    WHERE w.reported > 0
),
per_pot AS (
    SELECT site, hand_id, pot, count(DISTINCT player) AS n FROM paid GROUP BY ALL
),
per_half AS (
    SELECT site, hand_id, pot, half, count(DISTINCT player) AS n FROM paid GROUP BY ALL
),
hilo AS (
    SELECT site, hand_id, player, CASE
            WHEN bool_and(alone) THEN 'scooped'
            WHEN bool_or(tied) THEN 'split or quartered'
            WHEN bool_or(high) AND NOT bool_or(low) THEN 'high only'
            WHEN bool_or(low) AND NOT bool_or(high) THEN 'low only'
            ELSE 'split or quartered' END AS kind
    FROM (
        SELECT p.site, p.hand_id, p.player, pp.n = 1 AS alone, ph.n > 1 AS tied,
            p.half IN ('high', 'whole') AS high, p.half = 'low' AS low
        FROM paid p
        JOIN per_pot pp ON pp.site = p.site AND pp.hand_id = p.hand_id
            AND pp.pot IS NOT DISTINCT FROM p.pot
        JOIN per_half ph ON ph.site = p.site AND ph.hand_id = p.hand_id
            AND ph.pot IS NOT DISTINCT FROM p.pot AND ph.half IS NOT DISTINCT FROM p.half
        WHERE p.player IS NOT NULL
    ) GROUP BY site, hand_id, player
)"""


RE_RAISED = ("fold_to_three_bet_opp", "fold_to_three_bet", "fold_to_four_bet_opp",
             "fold_to_four_bet")  # fmt: skip
BRING_IN_ANSWERS = ("bring_in_def_opp", "bring_in_call", "bring_in_reraise", "bring_in_fold")


def _flags_of(alias: str, names: tuple[str, ...]) -> str:
    return ", ".join(f"coalesce({alias}.{n}, false) AS {n}" for n in names)


def facts_sql(*, has_ev: bool, has_awards: bool) -> str:
    """One row per hand (of `hk_hands`) and player dealt in, with every per-hand flag and
    counter of docs/stats.md, in time order (then hand id, site and seat)."""
    street_cols = []
    for s in STREETS:
        street_cols += [f"coalesce(p.aggr_{s}, 0) AS aggr_{s}"]
        street_cols += [f"coalesce(p.calls_{s}, 0) AS calls_{s}"]
        street_cols += [f"coalesce(p.folds_{s}, 0) AS folds_{s}"]
        for flag in ("fold_to_bet_opp", "fold_to_bet", "check_raise_opp", "check_raise"):
            street_cols.append(f"coalesce(p.{flag}_{s}, false) AS {flag}_{s}")
    for s in LEAD_STREETS:
        street_cols += [f"coalesce(ld.{f}_{s}, false) AS {f}_{s}" for f in LEAD_FLAGS]
    saw = ", ".join(f"coalesce(f.last_street, 3) >= {s} AS saw_{s}" for s in (4, 5, 6, 7))
    hilo = (
        "CASE WHEN f.game = 'stud_hilo' AND f.won_showdown THEN coalesce(hl.kind, "
        "'unclassified') END"
        if has_awards
        else "NULL::VARCHAR"
    )
    ev_net = "coalesce(ev.ev_net, f.net)" if has_ev else "NULL::BIGINT"
    key = "{0}.site = f.site AND {0}.hand_id = f.hand_id AND {0}.player = f.player"
    return f"""
WITH {_betting()},
{_seats()},
{_third_street()},
{_streets()},
{_leads()},
{_allin(has_ev)},
{_categories()},
{_hilo(has_awards)},
f1 AS (
    SELECT f0.* EXCLUDE (showdown_seen),
        coalesce(f0.showdown_seen, false) AND f0.folded_street IS NULL
            AND count(*) FILTER (f0.folded_street IS NULL)
                OVER (PARTITION BY f0.site, f0.hand_id) >= 2 AS showdown,
        f0.collected > 0 AS won
    FROM f0
),
f2 AS (
    SELECT f1.*, f1.showdown AND f1.won AS won_showdown,
        CAST(f1.net AS DOUBLE) / f1.big_bet AS net_bb
    FROM f1
),
rk AS (
    SELECT site, hand_id, seat, base, rem, c, rake - sum(base) OVER hw AS left_over
    FROM (
        SELECT site, hand_id, seat, contributed AS c, rake, total,
            CAST(CAST(rake AS HUGEINT) * contributed // greatest(total, 1) AS BIGINT) AS base,
            CAST(CAST(rake AS HUGEINT) * contributed
                 - (CAST(rake AS HUGEINT) * contributed // greatest(total, 1))
                   * greatest(total, 1) AS BIGINT) AS rem
        FROM (SELECT *, sum(contributed) OVER (PARTITION BY site, hand_id) AS total FROM f0)
    )
    WINDOW hw AS (PARTITION BY site, hand_id)
),
rake AS (
    SELECT site, hand_id, seat,
        base + CAST(row_number() OVER (PARTITION BY site, hand_id
                                       ORDER BY rem DESC, c DESC, seat) - 1 < left_over
                    AS BIGINT) AS rake_paid
    FROM rk
)
SELECT f.*,
    {_flags_of("t", ("vpip", "complete_raise", "bring_in", "three_bet_opp", "three_bet"))},
    {_flags_of("st", ("steal_opp", "steal"))},
    {_flags_of("an", ("fold_to_steal_opp", "fold_to_steal", "resteal_opp", "resteal"))},
    {_flags_of("t", ("four_bet_opp", "four_bet"))},
    {_flags_of("rr", RE_RAISED)},
    {_flags_of("st", ("steal_won",))},
    {_flags_of("bi", BRING_IN_ANSWERS)},
    {", ".join(street_cols)},
    {saw},
    f.won AND coalesce(f.last_street, 3) >= 4 AS won_saw_4,
    ev.player IS NOT NULL AS allin,
    {ev_net} AS ev_net,
    r.rake_paid,
    coalesce(pl.position, 'none') AS position,
    coalesce(dp.door, 'unknown') AS door,
    {_CATEGORY} AS category,
    {hilo} AS hilo_outcome
FROM f2 f
LEFT JOIN t3 t ON {key.format("t")}
LEFT JOIN steals st ON {key.format("st")}
LEFT JOIN answers an ON {key.format("an")}
LEFT JOIN re_raised rr ON {key.format("rr")}
LEFT JOIN places pl ON {key.format("pl")}
LEFT JOIN door_places dp ON {key.format("dp")}
LEFT JOIN bring_in_answer bi ON {key.format("bi")}
LEFT JOIN pst p ON {key.format("p")}
LEFT JOIN lead ld ON {key.format("ld")}
LEFT JOIN ev ON {key.format("ev")}
LEFT JOIN shape k ON {key.format("k")}
LEFT JOIN hilo hl ON {key.format("hl")}
LEFT JOIN rake r ON r.site = f.site AND r.hand_id = f.hand_id AND r.seat = f.seat
ORDER BY f.started_at NULLS LAST, f.hand_id, f.site, f.seat
"""


def sums_sql(relation: str, keys: list[str], counters: list[str]) -> str:
    """Each counter summed per `keys` over `relation` (a table or view of facts), with the
    group's `money` label and big bet, and its first and last start (sessions); net in
    big bets apart (`histkit.stats.big_bets`: exact)."""
    sums = ",\n    ".join(
        f"CAST(sum({COUNTERS[c]}) AS BIGINT) AS {c}" for c in counters if c != "net_bb"
    )
    group = ", ".join(f'"{k}"' for k in keys)
    return f"""
SELECT {group}, any_value(money) AS money, any_value(big_bet) AS big_bet,
    {sums},
    min(started_at) AS first_start, max(started_at) AS last_start
FROM {relation}
GROUP BY {group}
"""
