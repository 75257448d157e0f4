"""docs/schema.md is made from `histkit.tables.SCHEMAS` and `histkit.schemadoc`: every column
described, nothing described that is not a column, and the page as the module makes it."""

from __future__ import annotations

import subprocess
import sys

from histkit.schemadoc import COLUMNS, TABLES, schema_markdown
from histkit.tables import SCHEMAS
from tests.conftest import ROOT


def test_every_column_of_every_table_is_described() -> None:
    assert list(TABLES) == list(SCHEMAS) and list(COLUMNS) == list(SCHEMAS)
    for name, schema in SCHEMAS.items():
        assert list(COLUMNS[name]) == schema.names, name
        for column, (unit, meaning) in COLUMNS[name].items():
            assert meaning and unit, (name, column)
            # an amount names the column that says its unit
            if str(schema.field(column).type) == "int64" and unit not in ("-", "share"):
                assert unit in schema.names, (name, column, unit)


def test_the_schema_page_is_what_the_module_makes() -> None:
    page = (ROOT / "docs" / "schema.md").read_text(encoding="utf-8")
    assert page == schema_markdown(), "run: python -m histkit.schemadoc > docs/schema.md"
    for name, schema in SCHEMAS.items():
        assert f"## {name}\n" in page
        assert all(f"| `{c}` |" in page for c in schema.names)
    out = subprocess.run(
        [sys.executable, "-m", "histkit.schemadoc"], capture_output=True, text=True, check=True
    )
    assert out.stdout == page


def test_table_names_are_taken_from_the_schemas() -> None:
    """No module keeps its own list of the tables (a table added to SCHEMAS would be
    silently never loaded): the per-hand ones are those keyed by (site, hand_id)."""
    import re

    from histkit.tables import AUDIT_TABLES, HAND_TABLES

    keyed = [n for n, s in SCHEMAS.items() if {"site", "hand_id"} <= set(s.names)]
    assert list(HAND_TABLES) == keyed and "errors" not in HAND_TABLES
    assert set(AUDIT_TABLES) < set(HAND_TABLES)
    listed = re.compile(r'\(\s*"hands",\s*"seats",\s*"actions",\s*"cards",\s*"allin_ev"')
    package = ROOT / "histkit"
    found = [
        str(p.relative_to(ROOT))
        for p in package.rglob("*.py")
        if listed.search(p.read_text(encoding="utf-8"))
    ]
    assert found == []
