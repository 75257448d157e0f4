"""The statistics are defined once (`histkit.statdefs`): what `player_stats` computes,
`histkit stats --help` lists, the text table shows and docs/stats.md's table says all
come from it."""

from __future__ import annotations

import re
from pathlib import Path

from histkit.statdefs import STATS, columns, definitions_markdown, help_lines, layout, stat
from histkit.stats import player_stats
from histkit.tables import tables_from

from .stud_builder import build

DOCS = Path(__file__).parent.parent / "docs" / "stats.md"


def test_docs_table_is_the_registry() -> None:
    text = DOCS.read_text(encoding="utf-8")
    m = re.search(r"<!-- begin: python -m histkit.statdefs -->\n(.*?)<!-- end -->", text, re.S)
    assert m is not None, "docs/stats.md lost its generated table"
    assert m.group(1) == definitions_markdown(), "run: python -m histkit.statdefs"


def test_player_stats_columns_are_the_registry_in_order() -> None:
    h = build(
        "r1",
        seats="A:1:100 B:2:100",
        cards={"A": "?? ?? 2c", "B": "?? ?? Kd"},
        streets={3: "A bring_in 2; B raise 2 4; A fold"},
        uncalled=("B", 2),
        collects="B:6",
    )
    st = player_stats(tables_from([h]))
    assert list(st.columns) == ["player", "site", "money", "money_unit", *columns()]
    # streets laid out street by street, as the columns always were
    assert list(columns()).index("af_3") == list(columns()).index("afq_3") + 1
    assert list(columns()).index("afq_4") == list(columns()).index("check_raise_3") + 1


def test_every_statistic_has_words_and_counters() -> None:
    for st in STATS:
        assert st.title and st.help, st.column
        for street in st.streets or (None,):
            num, den = st.counters(street)
            assert num and "{s}" not in "".join((*num, *den)), st.column
        if st.chances is not None:
            assert st.chances in columns(), st.column
    assert len({c for _, _, c in layout()}) == len(layout())
    assert stat("afq_5").column == "afq_{s}"


def test_help_lists_every_statistic() -> None:
    text = "\n".join(help_lines())
    for st in STATS:
        assert st.columns()[0] in text
