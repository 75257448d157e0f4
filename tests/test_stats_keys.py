"""A hand is (site, hand id) and a player is (site, name) in the statistics, and every
reading command says what it made of its input (issue 26 item 1)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from histkit.cli import main
from histkit.selection import frames
from histkit.stats import load


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    rc = main(list(argv))
    got = capsys.readouterr()
    return rc, got.out, got.err


@pytest.fixture(scope="module")
def two_sites(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The same three deals written as PokerStars' and as WPN's hands: the same hand
    numbers and player names at two sites."""
    folder = tmp_path_factory.mktemp("two_sites")
    out = []
    for site in ("pokerstars", "wpn"):
        path = folder / f"{site}.txt"
        args = ["simulate", "--site", site, "--hands", "3", "--seed", "1", "--hero", "Hero"]
        assert main([*args, "-o", str(path), "-q"]) == 0
        out.append(path)
    return out[0], out[1]


def _ids(path: Path) -> list[str]:
    return re.findall(r"(?:Hand|Game) #(\d+)", path.read_text())


def test_two_sites_hands_of_one_number_are_two_hands(
    two_sites: tuple[Path, Path], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    stars, wpn = two_sites
    assert _ids(stars) == _ids(wpn) and len(_ids(stars)) == 3  # the collision itself
    fr = frames(load([stars, wpn], audit=False))
    assert len(fr["hands"]) == 6 and not fr["hands"].attrs["duplicates"]
    rc, out, err = run(capsys, "stats", str(stars), str(wpn), "--format", "json", "-j", "1")
    assert rc == 0, err
    hero = [r for r in json.loads(out) if r["player"] == "Hero"]
    assert sorted((r["site"], r["hands"]) for r in hero) == [("pokerstars", 3), ("wpn", 3)]
    assert "read more than once" not in err
    assert "read 6 stud hands" in err and "counted in the figures: 6." in err
    # a copy of a hand of one site is still one hand, and said so
    rc, out, err = run(capsys, "stats", str(stars), str(wpn), str(stars), "--format", "json")
    assert rc == 0, err
    hero = [r for r in json.loads(out) if r["player"] == "Hero"]
    assert sorted((r["site"], r["hands"]) for r in hero) == [("pokerstars", 3), ("wpn", 3)]
    assert "read 9 stud hands (3 of them copies" in err and "counted in the figures: 6." in err
    # the database keeps both sites' hands and counts them alike
    db = tmp_path / "h.duckdb"
    assert main(["import", "--db", str(db), str(stars), str(wpn), "-q"]) == 0
    rc, out_db, err = run(capsys, "stats", "--db", str(db), "--format", "json")
    assert rc == 0, err
    assert [r for r in json.loads(out_db) if r["player"] == "Hero"] == hero
    assert "the database holds 6 stud hands" in err and "counted in the figures: 6." in err


@pytest.mark.slow
def test_a_name_at_two_sites_is_two_players_unless_joined(
    two_sites: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    stars, wpn = two_sites
    paths = [str(stars), str(wpn)]
    rc, out, err = run(capsys, "stats", *paths, "--format", "json", "-q")
    assert rc == 0, err
    apart = {r["site"]: r for r in json.loads(out) if r["player"] == "Hero"}
    assert set(apart) == {"pokerstars", "wpn"}
    alias = "Hero=pokerstars:Hero,wpn:Hero"
    rc, out, err = run(capsys, "stats", *paths, "--format", "json", "-q", "--alias", alias)
    assert rc == 0, err
    joined = [r for r in json.loads(out) if r["player"] == "Hero"]
    assert len(joined) == 1 and joined[0]["site"] == "pokerstars+wpn"
    for column in ("hands", "net", "rake", "showdowns", "vpip_hands"):
        if column in joined[0]:
            assert joined[0][column] == apart["pokerstars"][column] + apart["wpn"][column]
    others = [r for r in json.loads(out) if r["player"] != "Hero"]
    assert {r["site"] for r in others} == {"pokerstars", "wpn"}  # the others stay apart
    # the joined player is the one --player names
    rc, out, err = run(capsys, "stats", *paths, "--format", "json", "-q", "--alias", alias,
                       "--player", "hero")  # fmt: skip
    assert rc == 0, err
    assert [(r["player"], r["site"], r["hands"]) for r in json.loads(out)] == [
        ("Hero", "pokerstars+wpn", 6)
    ]
    # text: names found at two sites are shown with their site
    rc, out, err = run(capsys, "stats", *paths, "-q")
    assert rc == 0 and "Hero (pokerstars)" in out and "Hero (wpn)" in out, err


@pytest.mark.parametrize(
    "alias", ["Hero", "Hero=", "Hero=Hero", "=pokerstars:Hero", "Hero=nosuchsite:Hero"]
)
def test_a_bad_alias_is_a_usage_error(
    two_sites: tuple[Path, Path], capsys: pytest.CaptureFixture[str], alias: str
) -> None:
    rc, out, err = run(capsys, "stats", str(two_sites[0]), "-q", "--alias", alias)
    assert rc == 2 and out == ""
    assert err.count("\n") == 1 and "--alias" in err and "Traceback" not in err


def test_the_accounting_line_names_rejected_and_skipped_hands(
    two_sites: tuple[Path, Path], capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A damaged hand is counted as rejected, not dropped in silence."""
    text = two_sites[0].read_text()
    hands = text.split("\n\n\n")
    assert len(hands) >= 3
    lines = hands[1].splitlines()
    at = next(i for i, x in enumerate(lines) if x.startswith("Table "))
    hands[1] = "\n".join([*lines[: at + 1], lines[at], *lines[at + 1 :]])  # a table line twice
    damaged = tmp_path / "damaged.txt"
    damaged.write_text("\n\n\n".join(hands))
    rc, out, err = run(capsys, "stats", str(damaged), "--format", "json")
    assert rc == 0, err
    assert "read 2 stud hands" in err and "1 hand rejected" in err
    assert "counted in the figures: 2." in err
