"""The audit keeps its stack records in bounded memory (`histkit.stackstore`): written out
to a temporary file past a few, they give the same report as held in memory."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from histkit import stackstore
from histkit.audit import audit_paths
from histkit.model import Game, Unit
from histkit.rules.continuity import StackRecord, table_order
from histkit.rules.violations import Code
from histkit.simulate import write_session


def _record(table: str, hand: int, t: float, file: str, line: int) -> StackRecord:
    return StackRecord(
        site="pokerstars",
        tournament_id=None,
        table=table,
        hand_id=str(hand),
        order=(t, hand),
        file=file,
        line=line,
        game=Game.STUD,
        mix=None,
        unit=Unit.CENT,
        seats=(("a", 100, line + 1),),
        final=(("a", 100),),
        noted=frozenset(),
    )


@pytest.mark.parametrize("held", [1, 2, 3, 1000])
def test_tables_come_back_in_table_order_however_many_are_held(held: int) -> None:
    """Tables in the order first read; each table's records sorted as Python sorts them
    (hand numbers past 2**63, names beyond ASCII and undecodable ones), ties as read."""
    big = 2**70
    records = [
        _record("T2", big + 1, 5.0, "b.txt", 9),
        _record("T1", 10, 2.0, "z.txt", 1),
        _record("T2", big, 5.0, "b.txt", 1),
        _record("T1", 9, 2.0, "z.txt", 5),
        _record("T1", 9, 2.0, "é.txt", 5),
        _record("T1", 9, 2.0, "a\udcff.txt", 5),
        _record("T1", 9, 2.0, "a\udcff.txt", 5),  # a tie: kept in the order read
        _record("T2", 3, 1.0, "b.txt", 4),
    ]
    store = stackstore.StackStore(held=held)
    seqs = [store.add(r) for r in records]
    assert seqs == list(range(len(records)))
    assert store.spilled == (held < len(records))
    got = [[seq for seq, _ in table] for table in store.tables()]
    expected = []
    for name in ("T2", "T1"):
        mine = [i for i, r in enumerate(records) if r.table == name]
        expected.append(sorted(mine, key=lambda i: table_order(records[i])))
    assert got == expected
    assert store.source(3) == "z.txt:5"
    store.close()


def _session(path: Path) -> str:
    write_session(path, "stud_hilo", 120, players=5, seed=7, tables=2)
    return path.read_text(encoding="utf-8")


def test_a_spilled_audit_reports_what_one_held_in_memory_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stacks changed between hands (continuity findings), a hand read twice with another
    text (a duplicate named with where its first copy was read), and the session given in
    two files, the later hands first (each table's order is not the order read)."""
    text = _session(tmp_path / "s.txt")
    hands = text.split("\n\n\n")
    assert len(hands) >= 100
    # three players start a hand with more than they ended the last with (chips that
    # came from nowhere: continuity findings), in hands of both halves
    for i in (20, 50, 90):
        hands[i] = re.sub(r"^(Seat \d+: .*?)\(\$(\d+)", r"\1($9\2", hands[i], count=1, flags=re.M)
    copy = hands[70].replace(" - 2024/", " - 2023/", 1)  # the same hand id, another text
    (tmp_path / "a_late.txt").write_text("\n\n\n".join(hands[60:]) + "\n\n\n" + copy, "utf-8")
    (tmp_path / "b_early.txt").write_text("\n\n\n".join(hands[:60]), "utf-8")
    paths = [tmp_path / "a_late.txt", tmp_path / "b_early.txt"]

    held = audit_paths(paths)
    monkeypatch.setattr(stackstore, "HELD", 7)
    monkeypatch.setattr(stackstore.StackStore.__init__, "__defaults__", (7,))
    spilled = audit_paths(paths)

    codes = [v.code for v in held.violations]
    assert codes.count(Code.STACK_CONTINUITY) >= 3
    assert held.duplicates.different == 1
    (hid, first, again) = held.duplicates.examples[0]
    assert first.startswith(f"{paths[0]}:") and again.startswith(f"{paths[0]}:")
    assert int(first.rpartition(":")[2]) < int(again.rpartition(":")[2])
    assert spilled.to_json(include_info=True) == held.to_json(include_info=True)
    assert spilled.source_of == held.source_of and spilled.site_of == held.site_of
    assert set(held.source_of) == {v.hand_id for v in held.violations}
