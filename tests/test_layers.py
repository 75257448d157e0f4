"""The package's layers import downwards only: the command modules never import the
command-line entry point back (`histkit.cli` imports them), and the tables module builds
rows without replaying hands behind the caller's back."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import histkit
from histkit.tables import TableBuilder

ROOT = Path(histkit.__file__).parent


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return out


@pytest.mark.parametrize("path", sorted((ROOT / "commands").glob("*.py")), ids=lambda p: p.name)
def test_commands_never_import_the_cli(path: Path) -> None:
    assert "histkit.cli" not in _imports(path)


_READERS = sorted(p for p in (ROOT / "dialects").glob("*.py") if not p.stem.endswith("writer"))


@pytest.mark.parametrize("path", _READERS, ids=lambda p: p.name)
def test_readers_never_import_writers(path: Path) -> None:
    """A site's reader shares what its writer also needs (its words for a hand, its month
    names) through a module of their own (`dialects/words.py`), never by importing it."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        found.update(n for n in names if n.startswith("histkit.dialects.") and n.endswith("writer"))
    assert found == set()


def test_a_builder_of_audit_tables_takes_replays_not_hands() -> None:
    from histkit.rules import replay
    from histkit.simulate import simulate

    hand = next(iter(simulate("razz", 1, players=3, seed=1)))
    b = TableBuilder(audit=True)
    with pytest.raises(TypeError, match="replay"):
        b.add(hand)
    b.add(replay(hand))
    assert b.build().hands.num_rows == 1


def test_enum_members_are_aliased_in_one_place() -> None:
    """The speed idiom of enum members as module constants lives in `rules/speed.py`:
    no other module assigns an enum member to a module-level name."""
    import re

    alias = re.compile(
        r"^_?[A-Z][A-Z_0-9]*(?:, *_?[A-Z][A-Z_0-9]*)*(?:: Final)? = "
        r"(?:Street|ActionKind|PotKind|Half|Game|SeatOutcome|Unit|Phase|HighLow|RakeSplit"
        r"|OddChip|Severity)\.",
        re.M,
    )
    found = [
        str(p.relative_to(ROOT))
        for p in ROOT.rglob("*.py")
        if p.name != "speed.py" and alias.search(p.read_text(encoding="utf-8"))
    ]
    assert found == []


def test_an_audit_loads_no_pandas() -> None:
    """The audit reads text and replays it: pandas (half a second to import) is for tables
    and statistics, so no module on the audit's path may import it at the top."""
    import subprocess
    import sys

    sample = ROOT.parent / "sample_data" / "razz_cash_200.txt"
    code = (
        "import sys\n"
        "from histkit.audit import audit_paths\n"
        f"r = audit_paths([{str(sample)!r}], jobs=1)\n"
        "assert r.hands == 200, r.hands\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pandas', 'matplotlib')))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip() == "[]", out


def test_a_command_line_audit_of_one_file_starts_light(tmp_path: Path) -> None:
    """`histkit audit FILE` (the command line, default options) loads what an audit needs
    and nothing more: no pandas, pyarrow or matplotlib (tables and plots), no numpy once
    the evaluator's tables are cached, no other command's modules, no worker processes
    for one chunk of input, and only the parser of the site the file is written in
    (issue 25: every command paid over a second of start-up)."""
    import os
    import subprocess
    import sys

    hand = (ROOT.parent / "sample_data" / "stud_cash_200.txt").read_text(encoding="utf-8")
    one = tmp_path / "one.txt"
    one.write_text(hand.split("\n\n\n")[0].strip() + "\n", encoding="utf-8")
    code = (
        "import sys\n"
        "from histkit.cli import main\n"
        f"status = main(['audit', {str(one)!r}, '-q'])\n"
        "from histkit.dialects import base\n"
        "heavy = ('pandas', 'pyarrow', 'matplotlib', 'numpy', 'duckdb', 'dask', 'lark_cython')\n"
        "others = ('histkit.commands.', 'histkit.tables', 'histkit.simulate', 'histkit.equity',\n"
        "          'concurrent.futures.')\n"
        "print(status, sorted({m.split('.')[0] for m in sys.modules} & set(heavy)),\n"
        "      sorted(m for m in sys.modules if m.startswith(others)),\n"
        "      sorted({f for f, _ in base._COMPILED}))\n"
    )
    cache = tmp_path / "cache"
    cache.mkdir(mode=0o700)
    env = {**os.environ, "HISTKIT_CACHE_DIR": str(cache)}
    env.pop("HISTKIT_NO_CACHE", None)

    def audit() -> str:
        run = [sys.executable, "-c", code]
        out = subprocess.run(run, env=env, capture_output=True, text=True, check=True).stdout
        return out.splitlines()[-1]  # (the audit's own lines before it)

    first = audit()  # fills the cache: numpy builds the evaluator's tables
    assert first.startswith("0 ") and "'numpy'" in first, first
    got = audit()
    assert got == (
        "0 [] ['histkit.commands._options', 'histkit.commands.audit'] ['pokerstars.lark']"
    ), got
