"""histkit's per-hand statistics beside FPDB's, player-hand by player-hand.

FPDB (the free poker database, fpdb-3) computes its statistics per hand and player in
`DerivedStats` and stores them as flags of its `HandsPlayers` rows (`street0VPI`,
`street0_3BChance`, `sawShowdown` ...). histkit's are the per-hand facts of
`histkit.statsql` (`histkit.stats.seat_facts`: one row per (site, hand id, player)). This
script imports the stud hands of the given paths (default `../shared/hands`) with FPDB,
headless, into a throwaway SQLite database in a temporary folder, reads the same files
with histkit, pairs the rows by (site, hand id, player) and compares each statistic FPDB
defines alike (`PAIRS`), printing a table (statistic, histkit counter, FPDB field,
player-hands compared, agreeing) and then every disagreement (site, hand id, player, both
values), so each one can be explained (docs/stats.md, "Compared with FPDB").

    FPDB_DIR=/path/to/fpdb-3 FPDB_PYTHON=/path/to/venv/bin/python \\
        python benchmarks/compare_fpdb.py [PATH...] [--json OUT] [--markdown OUT]

`FPDB_DIR` is a checkout of fpdb-3 (the folder holding `fpdb_3_legacy/`); `FPDB_PYTHON` a
Python with FPDB's dependencies (PySide6, pyzmq, pandas, pytz, defusedxml, beautifulsoup4,
colorlog, psutil, cachetools, xlrd, aiohttp; default: this Python). FPDB runs in its own
process (`--fpdb-dump`, which imports nothing of histkit) with `HOME` set to the temporary
folder, so it neither reads nor writes a user's FPDB configuration, and with
`QT_QPA_PLATFORM=offscreen`. Without `FPDB_DIR` (or when it is not an FPDB checkout) the
script says so and exits 0: FPDB is an optional comparison, not a dependency.

Only what FPDB itself computed is compared (its `HandsPlayers` row, and the donk-bet flags
its `DerivedStats` computes but does not store, kept as the import runs), and only in the
hands both read alike (the same actions street by street, `first_difference` names where
they part): a hand FPDB did not import (a site or game it does not parse) or a player it
names otherwise is listed as unpaired, never guessed at. Its street numbers are the stud
streets less 3 (street0 = 3rd street, street1 = 4th ... street4 = 7th).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_HANDS = ROOT.parent / "shared" / "hands"

#: FPDB's game categories that histkit reads (seven-card stud, hi/lo, razz).
STUD_CATEGORIES = ("studhi", "studhilo", "razz")

Row = dict[str, Any]

#: DerivedStats' per-hand flags that FPDB's HandsPlayers table does not store (its donk
#: bets on "flop", "turn" and "river": 4th, 5th and 6th street in stud).
UNSTORED = tuple(f"flg_{x}_donk{y}" for x in "ftr" for y in ("", "_opp"))


@dataclass(frozen=True)
class Pair:
    """One statistic compared: `histkit(facts row)` and `fpdb(HandsPlayers row)` each give
    the player-hand's value (None: the statistic does not apply to this row, e.g. a done
    flag where there was no chance; such rows are not compared). `note` says where the
    definitions differ."""

    stat: str
    histkit_name: str
    fpdb_name: str
    histkit: Callable[[Row], Any]
    fpdb: Callable[[Row], Any]
    note: str = ""


def _b(v: Any) -> bool:
    """A flag as stored (0/1, True/False, a share of a pot for the won fields)."""
    return bool(v) and v != "0"


def _flag(name: str) -> Callable[[Row], bool]:
    return lambda r: _b(r[name])


def _fpdb_position(r: Row) -> str:
    """FPDB's stud position as histkit's: S (the bring-in), 0-2 late (the last three to
    act before the bring-in, its steal seats), 3-4 middle, the rest early; 9, its
    "all-in on the ante", none."""
    p = str(r["position"])
    if p == "S":
        return "bring-in"
    if p == "9":
        return "none"
    return "late" if int(p) <= 2 else "middle" if int(p) <= 4 else "early"


def _positive(name: str) -> Callable[[Row], bool]:
    return lambda r: int(r[name] or 0) > 0


def _count(name: str) -> Callable[[Row], int]:
    return lambda r: int(r[name] or 0)


def _given(stat: str, histkit: str, histkit_if: str, fpdb: str, fpdb_if: str) -> Pair:
    """A flag compared only where each side's condition holds (a done flag where both saw
    the chance): the definitions of the chance aside, do they agree on the outcome?"""

    def mine(r: Row) -> bool | None:
        return _b(r[histkit]) if _b(r[histkit_if]) else None

    def theirs(r: Row) -> bool | None:
        return _b(r[fpdb]) if _b(r[fpdb_if]) else None

    return Pair(stat, histkit, fpdb, mine, theirs)


def _same(stat: str, histkit: str, fpdb: str, note: str = "") -> Pair:
    """A flag of each side, compared as it is."""
    return Pair(stat, histkit, fpdb, _flag(histkit), _flag(fpdb), note)


# Why the two sides differ where they do, found by reading each disagreement of the last
# run on ../shared/hands and FPDB's DerivedStats (docs/stats.md, "Compared with FPDB").
_ANTE = (
    "a player all-in on the ante (PokerStars 241636097024) sees every street dealt; FPDB "
    "counts him on none"
)
_COMPLETES = (
    "FPDB's 3rd-street aggressor is its last `bets`/`raises`: a completion written "
    "`completes` (Everleaf, PokerStars, Full Tilt ...) makes none, iPoker's (`bets`) does"
)
_NOT_DEALT = "FPDB gives the chance on streets never dealt (the hand over before them)"
_THIRD = "FPDB takes 3rd street's aggressor on every street, histkit the previous street's"


def _pairs() -> tuple[Pair, ...]:
    out = [
        _same("VPIP", "vpip", "street0VPI"),
        _same("completed or raised on 3rd", "complete_raise", "street0Aggr"),
        _same(
            "3-bet chance (facing a completion)", "three_bet_opp", "street0_2BChance",
            "FPDB's stud raise levels start at 0 (the bring-in is none), so its 2B is "
            "histkit's 3-bet. FPDB gives no chance to the last player facing an all-in "
            "completion nobody can raise (iPoker 4044980507); histkit counts one",
        ),
        _same("3-bet (raised the completion)", "three_bet", "street0_2BDone"),
        _same("4-bet chance (facing a 3-bet)", "four_bet_opp", "street0_3BChance",
              "as the 3-bet: FPDB's 3B is histkit's 4-bet"),
        _same("4-bet", "four_bet", "street0_3BDone"),
        _same("completer faced a 3-bet", "fold_to_three_bet_opp", "street0_FoldTo2BChance",
              "FPDB's first aggressor facing its 2B (histkit's 3-bet)"),
        _same("completer folded to a 3-bet", "fold_to_three_bet", "street0_FoldTo2BDone"),
        _same(
            "steal chance", "steal_opp", "stealChance",
            "**different definitions**: FPDB's steal seats are the last three to act before "
            "the bring-in, whatever the cards; histkit's steal spot is a first-in turn whose "
            "door card beats every door card still to act",
        ),
        _same("steal", "steal", "stealDone", "follows from the steal spots"),
        _same(
            "bring-in faced a steal", "fold_to_steal_opp", "foldSbToStealChance",
            "the bring-in is FPDB's small-blind seat (S) in stud; differs only where the "
            "steal spots differ",
        ),
        _same("bring-in folded to a steal", "fold_to_steal", "foldedSbToSteal",
              "as the steal spots"),
        _same("steal won (everyone folded to it)", "steal_won", "success_Steal",
              "only where the steals differ"),
        _given("steal won, of the steals both count", "steal_won", "steal",
               "success_Steal", "stealDone"),
        _given("bring-in folded, of the steals both count", "fold_to_steal",
               "fold_to_steal_opp", "foldedSbToSteal", "foldSbToStealChance"),
    ]  # fmt: skip
    out.append(
        Pair(
            "position (bring-in, late, middle, early)", "position", "position",
            lambda r: str(r["position"]), _fpdb_position,
            "FPDB numbers the players who act on 3rd before the bring-in acts again, from "
            "the last (0); histkit counts the seats dealt in (not all-in on the ante) from "
            "the bring-in's",
        )
    )  # fmt: skip
    out += [_same(f"saw {s}th", f"saw_{s}", f"street{s - 3}Seen", _ANTE) for s in (4, 5, 6, 7)]
    out += [
        _same("showdown", "showdown", "sawShowdown", _ANTE),
        Pair(
            "won at showdown", "won_showdown", "wonAtSD", _flag("won_showdown"),
            lambda r: _b(r["sawShowdown"]) and _b(r["wonAtSD"]),
            "iPoker players paid nothing (`win=\"0\"`): FPDB's iPoker reader makes every "
            "player a collectee, 0 included, and DerivedStats marks every collectee as won; "
            "and the all-in ante player",
        ),
        Pair(
            "won when saw 4th", "won_saw_4", "wonWhenSeenStreet1", _flag("won_saw_4"),
            lambda r: _b(r["street1Seen"]) and _b(r["wonWhenSeenStreet1"]),
            "the same FPDB fault (iPoker players who won nothing); and the all-in ante player",
        ),
    ]  # fmt: skip
    for s in (3, 4, 5, 6, 7):
        n = s - 3
        out += [
            Pair(
                f"aggressive on {s}", f"aggr_{s}", f"street{n}Aggr",
                _positive(f"aggr_{s}"), _flag(f"street{n}Aggr"),
            ),
            Pair(
                f"calls on {s} (how many)", f"calls_{s}", f"street{n}Calls",
                _count(f"calls_{s}"), _count(f"street{n}Calls"),
            ),
        ]  # fmt: skip
    for s in (4, 5, 6, 7):
        n = s - 3
        out += [
            _same(f"check-raise chance on {s}", f"check_raise_opp_{s}",
                  f"street{n}CheckCallRaiseChance"),
            _same(f"check-raise on {s}", f"check_raise_{s}", f"street{n}CheckRaiseDone"),
            _same(f"facing a bet on {s}", f"fold_to_bet_opp_{s}", f"otherRaisedStreet{n}"),
            _same(
                f"fold to a bet on {s}", f"fold_to_bet_{s}", f"foldToOtherRaisedStreet{n}",
                "histkit counts the first action facing a bet, FPDB a fold after any "
                "other player's bet or raise (PartyPoker 11792805420: two called the bet, "
                "then folded to a raise)",
            ),
        ]  # fmt: skip
    # the previous street's aggressor and the bets at him (docs/stats.md, "The stats
    # trackers have")
    for s in (4, 5, 6, 7):
        n = s - 3
        later = "" if s == 4 else f"; {_THIRD}"
        out += [
            _same(
                f"continuation bet chance on {s}", f"cbet_opp_{s}", f"street{n}CBChance",
                f"{_COMPLETES}; {_NOT_DEALT}, and when a bet came before his turn{later}",
            ),
            _same(
                f"continuation bet on {s}", f"cbet_{s}", f"street{n}CBDone",
                f"the aggressor as above; FPDB counts a check then a raise as done{later}",
            ),
            _same(
                f"facing a continuation bet on {s}", f"fold_to_cbet_opp_{s}",
                f"foldToStreet{n}CBChance",
                "the aggressor as above; FPDB counts every player's first action after the "
                f"bet, raised before his turn or not{later}",
            ),
            _same(
                f"fold to a continuation bet on {s}", f"fold_to_cbet_{s}",
                f"foldToStreet{n}CBDone", f"as facing it{later}",
            ),
            _given(f"continuation bet on {s}, of the chances both count", f"cbet_{s}",
                   f"cbet_opp_{s}", f"street{n}CBDone", f"street{n}CBChance"),
            _given(f"fold to it on {s}, of the chances both count", f"fold_to_cbet_{s}",
                   f"fold_to_cbet_opp_{s}", f"foldToStreet{n}CBDone",
                   f"foldToStreet{n}CBChance"),
        ]  # fmt: skip
    donk = {
        4: "FPDB's aggressor is 3rd street's (a `completes` is none, as for the continuation "
        "bet); its chance goes to every player acting before him, a bet made before their "
        "turn or not",
        5: "FPDB computes no donk bet on 5th in stud (its turn statistics stop where the "
        "street is not named TURN): never set",
        6: "FPDB's river is 6th street; with no aggressor on 5th it takes 4th's or 3rd's, "
        "where histkit has no aggressor and no chance",
    }
    for s, x in ((4, "f"), (5, "t"), (6, "r")):
        out += [
            _same(f"donk bet chance on {s}", f"donk_opp_{s}", f"flg_{x}_donk_opp", donk[s]),
            _same(f"donk bet on {s}", f"donk_{s}", f"flg_{x}_donk", "as the chance"),
            _given(
                f"donk bet on {s}, of the chances both count",
                f"donk_{s}",
                f"donk_opp_{s}",
                f"flg_{x}_donk",
                f"flg_{x}_donk_opp",
            ),
        ]
    return tuple(out)


PAIRS: tuple[Pair, ...] = _pairs()


# ------------------------------------------------------------------ FPDB's side (its process)


def _hand_files(paths: Sequence[str]) -> list[Path]:
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out += sorted(f for f in p.rglob("*") if f.is_file() and f.suffix.lower() != ".md")
        elif p.is_file():
            out.append(p)
    return out


def fpdb_dump(fpdb_dir: Path, paths: Sequence[str], out: Path) -> None:
    """Import `paths` with FPDB into a throwaway SQLite database and write its stud
    HandsPlayers rows (with site, hand number, player name, category and the file) as JSON
    to `out`. Runs in FPDB's Python: imports nothing of histkit."""
    tmp = Path(tempfile.mkdtemp(prefix="fpdb-compare-"))
    os.environ["HOME"] = str(tmp)  # FPDB's ~/.fpdb: a throwaway one
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    sys.path.insert(0, str(fpdb_dir))
    os.chdir(fpdb_dir)  # it finds HUD_config.xml and its SQL beside itself
    from fpdb_3_legacy import DerivedStats
    from fpdb_3_legacy.Configuration import Config
    from fpdb_3_legacy.Database import Database
    from fpdb_3_legacy.Importer import Importer

    # flags DerivedStats computes but HandsPlayers has no column for (the donk bets),
    # taken from its per-hand result as the import computes it
    unstored: dict[tuple[str, str], dict[str, Any]] = {}
    get_stats = DerivedStats.DerivedStats.getStats

    def keep_unstored(self: Any, hand: Any) -> None:
        get_stats(self, hand)
        number = "".join(c for c in str(hand.handid) if c.isdigit()).lstrip("0")
        for player, flags in self.handsplayers.items():
            unstored[(number, player)] = {k: flags.get(k) for k in UNSTORED}

    DerivedStats.DerivedStats.getStats = keep_unstored
    cfg = Config(file="HUD_config.xml")
    db_file = str(tmp / "fpdb.sqlite3")
    params = cfg.get_db_parameters()
    params.update({"db-host": "localhost", "db-server": "sqlite", "db-port": 5432,
                   "db-name": db_file, "db-user": "compare", "db-password": "compare",
                   "db-backend": 4, "db-databaseName": db_file, "db-path": ""})  # fmt: skip
    cfg.get_db_parameters = lambda: params
    db = Database(cfg)
    db.recreate_tables()
    rows: list[Row] = []
    files: list[dict[str, Any]] = []
    actions: dict[str, list[list[Any]]] = {}
    imp = Importer(caller=None, settings={"testData": False, "threads": 1}, config=cfg)
    imp.database = db
    for i, f in enumerate(_hand_files(paths)):
        copy = tmp / f"{i:03d}{f.suffix}"  # a copy: FPDB may move what it imported
        shutil.copy(f, copy)
        cur = db.get_cursor()
        cur.execute("SELECT coalesce(max(id), 0) FROM Hands")
        (before,) = cur.fetchone()
        imp.clearFileList()
        added = imp.addImportFile(str(copy))
        result = imp.runImport() if added else None
        cur.execute(
            "SELECT s.name AS site_name, h.siteHandNo AS site_hand_no, p.name AS player_name, "
            "g.category AS category, hp.* FROM HandsPlayers hp "
            "JOIN Hands h ON h.id = hp.handId JOIN Players p ON p.id = hp.playerId "
            "JOIN Sites s ON s.id = p.siteId JOIN Gametypes g ON g.id = h.gametypeId "
            "WHERE h.id > ? ORDER BY h.id, hp.seatNo",
            (before,),
        )
        names = [d[0] for d in cur.description]
        got = [dict(zip(names, r, strict=True)) for r in cur.fetchall()]
        cur.execute(
            "SELECT ha.handId, ha.street, p.name, a.name FROM HandsActions ha "
            "JOIN Players p ON p.id = ha.playerId JOIN Actions a ON a.id = ha.actionId "
            "WHERE ha.handId > ? ORDER BY ha.handId, ha.actionNo",
            (before,),
        )
        for hand, street, player, action in cur.fetchall():
            actions.setdefault(str(hand), []).append([street, player, action])
        for r in got:
            r["file"] = str(f)
            number = str(r["site_hand_no"]).lstrip("0")
            r.update(unstored.get((number, str(r["player_name"])), dict.fromkeys(UNSTORED)))
        unstored.clear()
        rows += got
        cats = sorted({str(r["category"]) for r in got})
        files.append({"file": str(f), "added": bool(added), "result": list(result or ()),
                      "hands": len({r["handId"] for r in got}), "categories": cats})  # fmt: skip
    db.disconnect()
    out.write_text(
        json.dumps({"files": files, "rows": rows, "actions": actions}, default=str),
        encoding="utf-8",
    )
    shutil.rmtree(tmp, ignore_errors=True)


# ------------------------------------------------------------------ histkit's side


def fpdb_found(fpdb_dir: str | None) -> str | None:
    """Why FPDB cannot be run from `fpdb_dir` (None: it can)."""
    if not fpdb_dir:
        return "FPDB_DIR is not set (point it at an fpdb-3 checkout)"
    if not (Path(fpdb_dir) / "fpdb_3_legacy" / "DerivedStats.py").is_file():
        return f"FPDB_DIR={fpdb_dir} holds no fpdb_3_legacy/DerivedStats.py"
    return None


def run_fpdb(fpdb_dir: str, python: str, paths: Sequence[str], log: Path) -> dict[str, Any]:
    """FPDB's rows for `paths`, from its own process (its log in `log`)."""
    with tempfile.TemporaryDirectory(prefix="fpdb-rows-") as d:
        out = Path(d) / "rows.json"
        argv = [python, str(Path(__file__).resolve()), "--fpdb-dump", str(out),
                "--fpdb-dir", fpdb_dir, *map(str, paths)]  # fmt: skip
        env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": ""}
        with log.open("w", encoding="utf-8") as fh:
            proc = subprocess.run(argv, stdout=fh, stderr=subprocess.STDOUT, env=env, check=False)
        if proc.returncode != 0 or not out.is_file():
            tail = log.read_text(encoding="utf-8", errors="replace")[-2000:]
            raise SystemExit(
                f"FPDB's import failed (exit {proc.returncode}); its log ends:\n{tail}"
            )
        data: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
        return data


HandKey = tuple[str, str]
Action = tuple[int, str, str]

#: FPDB's action names (its `Actions` table) as histkit's action kinds.
KINDS = {"bringin": "bring_in", "completes": "complete", "bets": "bet", "raises": "raise",
         "calls": "call", "checks": "check", "folds": "fold"}  # fmt: skip


def histkit_side(
    paths: Sequence[str],
) -> tuple[list[Row], dict[HandKey, list[Action]], dict[str, str]]:
    """histkit's facts rows (one per hand and player dealt in) for `paths`, each with the
    file its hand was read from (`source_file`, resolved); and each hand's actions but the
    antes, (street, player, kind) in order, keyed and named as FPDB keys them; and the
    site of every file read."""
    from histkit.api import read
    from histkit.stats import seat_facts

    tables = read(list(paths), audit=False).to_arrow()
    facts = seat_facts(tables)
    h = tables["hands"].select(["site", "hand_id", "source_file"]).to_pylist()
    files: dict[tuple[str, str], str] = {}
    for r in h:  # a hand read twice: its first copy, as the facts count it
        files.setdefault((r["site"], r["hand_id"]), str(Path(r["source_file"]).resolve()))
    # every file's site, a hand read twice included (the facts count its first copy)
    every = {str(Path(r["source_file"]).resolve()): str(r["site"]) for r in h}
    rows = [dict(r) for r in facts.to_dict("records")]
    names = {}
    for r in rows:
        r["source_file"] = files.get((r["site"], r["hand_id"]), "")
        names[(r["site"], r["hand_id"], r["player"])] = histkit_key(r)[2]
    acts: dict[HandKey, list[Action]] = {}
    seen: set[tuple[str, str, int]] = set()
    cols = ["site", "hand_id", "street", "seq", "player", "kind"]
    for x in sorted(tables["actions"].select(cols).to_pylist(),
                    key=lambda x: (x["site"], x["hand_id"], x["seq"])):  # fmt: skip
        once = (x["site"], x["hand_id"], x["seq"])
        if x["kind"] == "ante" or x["player"] is None or once in seen:
            continue  # (a hand read twice has each seq twice: the first copy's kept)
        seen.add(once)
        name = names.get((x["site"], x["hand_id"], x["player"]), str(x["player"]))
        key = (str(x["site"]), hand_key(str(x["site"]), str(x["hand_id"])))
        acts.setdefault(key, []).append((int(x["street"]), name, str(x["kind"])))
    return rows, acts, every


def hand_key(site: str, hand_id: str) -> str:
    """A hand id as FPDB stores it (`Hands.siteHandNo`, an integer): histkit keeps the
    site's own id ("31423297-107" at Merge, "R5-78227816-62" at OnGame), FPDB its digits;
    at Winamax FPDB keeps the first two of the three numbers ("8835086-564-1465760198"
    is 8835086564)."""
    if site == "winamax":
        hand_id = "".join(hand_id.split("-")[:2])
    return "".join(c for c in hand_id if c.isdigit()).lstrip("0")


def player_key(site: str, name: str, is_hero: bool) -> str:
    """A player's name as FPDB stores it: at Bovada, whose anonymised files name a seat
    "Seat+3" and the hero "Seat+3 [ME]", FPDB names them "Seat 3" and "Hero"."""
    if site == "bovada":
        return "Hero" if is_hero else name.replace("Seat+", "Seat ")
    return name


def histkit_key(r: Row) -> tuple[str, str, str]:
    site = str(r["site"])
    return site, hand_key(site, str(r["hand_id"])), player_key(site, str(r["player"]),
                                                                 bool(r["is_hero"]))  # fmt: skip


def fpdb_key(r: Row, site_of_file: dict[str, str]) -> tuple[str, str, str]:
    """(histkit's site, hand id, player) of an FPDB row: the site is histkit's for the
    file FPDB read the hand from (FPDB names skins: "PokerStars.COM", "Ya Poker" ...)."""
    site = site_of_file.get(str(Path(r["file"]).resolve()), str(r["site_name"]))
    return site, hand_key("", str(r["site_hand_no"])), str(r["player_name"])


@dataclass(frozen=True)
class Result:
    pair: Pair
    compared: int
    agreeing: int
    disagreements: tuple[tuple[tuple[str, str, str], Any, Any], ...]


def fpdb_actions(
    fp: list[Row], raw: dict[str, list[list[Any]]], site_of_file: dict[str, str]
) -> dict[HandKey, list[Action]]:
    """FPDB's actions of each stud hand but the antes, as `histkit_side` gives histkit's
    (its street 0 is 3rd street)."""
    out: dict[HandKey, list[Action]] = {}
    done = set()
    for r in fp:
        if r["category"] not in STUD_CATEGORIES or r["handId"] in done:
            continue
        done.add(r["handId"])
        key = fpdb_key(r, site_of_file)[:2]
        out[key] = [(int(st) + 3, str(p), KINDS.get(str(k), str(k)))
                    for st, p, k in raw.get(str(r["handId"]), []) if k != "ante"]  # fmt: skip
    return out


def _alike(a: list[Action]) -> list[Action]:
    """Actions as compared: a completion, bet and raise are one kind ("aggressive"), as
    sites and the two readers name the first aggressive action on 3rd differently (iPoker
    writes a completion as a bet; FPDB stores some as a raise)."""
    return [(st, p, "aggressive" if k in ("complete", "bet", "raise") else k) for st, p, k in a]


def first_difference(a: list[Action], b: list[Action]) -> str:
    """Where two action lists part (histkit's `a`, FPDB's `b`), in words."""
    a, b = _alike(a), _alike(b)
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return f"action {i + 1}: histkit {x}, FPDB {y}"
    if len(a) != len(b):
        return f"histkit {len(a)} actions, FPDB {len(b)}"
    return "none"


def compare(
    hk: list[Row],
    fp: list[Row],
    hk_actions: dict[HandKey, list[Action]],
    fp_actions: dict[str, list[list[Any]]],
    site_of_file: dict[str, str] | None = None,
) -> tuple[list[Result], dict[str, Any]]:
    """Each pair's figures over the player-hands both sides hold in the hands both read
    alike (the same actions street by street, antes aside); what did not pair; and the
    hands read differently, each with its first difference."""
    mine = {histkit_key(r): r for r in hk}
    if site_of_file is None:
        site_of_file = {str(r["source_file"]): str(r["site"]) for r in hk}
    theirs = {fpdb_key(r, site_of_file): r for r in fp if r["category"] in STUD_CATEGORIES}
    theirs_acts = fpdb_actions(fp, fp_actions, site_of_file)
    paired = sorted(mine.keys() & theirs.keys())
    hands = sorted({k[:2] for k in paired})
    differ = {h: first_difference(hk_actions.get(h, []), theirs_acts.get(h, []))
              for h in hands
              if _alike(hk_actions.get(h, [])) != _alike(theirs_acts.get(h, []))}  # fmt: skip
    both = [k for k in paired if k[:2] not in differ]
    results = []
    have = set(hk[0]) if hk else set()
    for p in PAIRS:
        if p.histkit_name not in have:  # a histkit without that statistic yet
            continue
        n = ok = 0
        bad = []
        for k in both:
            a, b = p.histkit(mine[k]), p.fpdb(theirs[k])
            if a is None or b is None:
                continue
            n += 1
            if a == b:
                ok += 1
            else:
                bad.append((k, a, b))
        results.append(Result(p, n, ok, tuple(bad)))
    unpaired = {
        "histkit_only": sorted(mine.keys() - theirs.keys()),
        "fpdb_only": sorted(theirs.keys() - mine.keys()),
        "paired": len(paired),
        "hands_paired": len(hands),
        "alike": len(both),
        "hands_alike": len({k[:2] for k in both}),
        "read_differently": differ,
    }
    return results, unpaired


def _files_short(hk: list[Row], files: list[dict[str, Any]], fp: list[Row]) -> list[str]:
    """A line per file where FPDB stored fewer stud hands than histkit read."""
    mine: dict[str, set[Any]] = {}
    for r in hk:
        mine.setdefault(str(r["source_file"]), set()).add(r["hand_id"])
    theirs: dict[str, set[Any]] = {}
    for r in fp:
        if r["category"] in STUD_CATEGORIES:
            theirs.setdefault(str(Path(r["file"]).resolve()), set()).add(r["handId"])
    out = []
    for f in files:
        path = str(Path(f["file"]).resolve())
        n, m = len(mine.get(path, ())), len(theirs.get(path, ()))
        if m < n:
            res = ", ".join(str(x) for x in f["result"][:5]) or "not added"
            out.append(f"  {Path(path).parent.name}/{Path(path).name}: histkit {n} hands, "
                       f"FPDB {m} ({res})")  # fmt: skip
    return out


def _table(results: list[Result]) -> list[str]:
    head = ("statistic", "histkit", "FPDB field", "compared", "agreeing")
    rows = [(r.pair.stat, r.pair.histkit_name, r.pair.fpdb_name, str(r.compared),
             str(r.agreeing)) for r in results]  # fmt: skip
    widths = [max(len(x[i]) for x in (head, *rows)) for i in range(len(head))]
    line = lambda x: "  ".join(c.ljust(w) if i < 3 else c.rjust(w)  # noqa: E731
                               for i, (c, w) in enumerate(zip(x, widths, strict=True)))  # fmt: skip
    return [line(head), line(tuple("-" * w for w in widths)), *map(line, rows)]


def markdown(results: list[Result]) -> list[str]:
    """docs/stats.md's table of the run: each statistic, how many player-hands were
    compared and agreed, how many only histkit / only FPDB counted, and why."""
    out = [
        "| statistic | histkit | FPDB field | compared | agreeing | only histkit / only FPDB "
        "| why they differ |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in results:
        mine = sum(1 for _, x, y in r.disagreements if x is True and y is False)
        theirs = sum(1 for _, x, y in r.disagreements if x is False and y is True)
        split = f"{mine} / {theirs}" if r.disagreements else ""
        if r.disagreements and mine + theirs < len(r.disagreements):
            split = f"{len(r.disagreements)} differ"
        why = r.pair.note.replace("|", "\\|") if r.disagreements else ""
        out.append(f"| {r.pair.stat} | `{r.pair.histkit_name}` | `{r.pair.fpdb_name}` | "
                   f"{r.compared:,} | {r.agreeing:,} | {split} | {why} |")  # fmt: skip
    return out


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "paths", nargs="*", help="hand-history files or folders (default ../shared/hands)"
    )
    ap.add_argument("--json", help="also write the figures and disagreements to this file")
    ap.add_argument("--markdown", help="also write docs/stats.md's table of the run here")
    ap.add_argument("--fpdb-dump", help=argparse.SUPPRESS)
    ap.add_argument("--fpdb-dir", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.fpdb_dump:  # FPDB's own process
        fpdb_dump(Path(a.fpdb_dir), a.paths, Path(a.fpdb_dump))
        return 0
    fpdb_dir = os.environ.get("FPDB_DIR")
    why = fpdb_found(fpdb_dir)
    if why:
        print(f"FPDB not available: {why}; nothing compared.")
        return 0
    assert fpdb_dir is not None
    paths = a.paths or [str(DEFAULT_HANDS)]
    if not a.paths and not DEFAULT_HANDS.is_dir():
        print(f"no hands to compare: {DEFAULT_HANDS} is absent; nothing compared.")
        return 0
    python = os.environ.get("FPDB_PYTHON", sys.executable)
    log = Path(tempfile.gettempdir()) / "histkit-compare-fpdb.log"
    data = run_fpdb(fpdb_dir, python, paths, log)
    hk, hk_actions, sites = histkit_side(paths)
    results, unpaired = compare(hk, data["rows"], hk_actions, data["actions"], sites)
    stud = [r for r in data["rows"] if r["category"] in STUD_CATEGORIES]
    n_fpdb = len({(r["site_name"], r["site_hand_no"]) for r in stud})
    print(f"FPDB: {n_fpdb} stud hands imported ({len(stud)} player-hands) "
          f"from {len(data['files'])} files; its log: {log}")  # fmt: skip
    print(f"histkit: {len({(r['site'], r['hand_id']) for r in hk})} hands ({len(hk)} player-hands)")
    print(f"paired: {unpaired['hands_paired']} hands, {unpaired['paired']} player-hands; "
          f"read alike (the same actions street by street): {unpaired['hands_alike']} hands, "
          f"{unpaired['alike']} player-hands, compared below")  # fmt: skip
    print()
    print("\n".join(_table(results)))
    short = _files_short(hk, data["files"], data["rows"])
    if short:
        print("\nfiles whose hands FPDB did not all import (FPDB's stored, duplicates, partial, "
              "skipped, errors):")  # fmt: skip
        print("\n".join(short))
    for side in ("histkit_only", "fpdb_only"):
        keys = unpaired[side]
        if keys:
            hands = sorted({k[:2] for k in keys})
            print(f"\n{side.replace('_', ' ')}: {len(keys)} player-hands in {len(hands)} hands")
            for site, hand in hands:
                print(f"  {site} {hand}: " + ", ".join(k[2] for k in keys if k[:2] == (site, hand)))
    differ = unpaired["read_differently"]
    if differ:
        print(f"\nread differently: {len(differ)} hands (not compared), by first difference")
        for (site, hand), why in sorted(differ.items()):
            print(f"  {site} {hand}: {why}")
    for r in results:
        if r.disagreements:
            print(f"\n{r.pair.stat} ({r.pair.histkit_name} vs {r.pair.fpdb_name}): "
                  f"{len(r.disagreements)} disagreements (histkit, FPDB)")  # fmt: skip
            for (site, hand, player), x, y in r.disagreements:
                print(f"  {site} {hand} {player}: {x} {y}")
    if a.markdown:
        Path(a.markdown).write_text("\n".join(markdown(results)) + "\n", encoding="utf-8")
    if a.json:
        Path(a.json).write_text(json.dumps({
            "paired_hands": unpaired["hands_paired"], "paired_player_hands": unpaired["paired"],
            "alike_hands": unpaired["hands_alike"], "alike_player_hands": unpaired["alike"],
            "read_differently": [[*k, v] for k, v in sorted(unpaired["read_differently"].items())],
            "stats": [{"stat": r.pair.stat, "histkit": r.pair.histkit_name,
                       "fpdb": r.pair.fpdb_name, "compared": r.compared, "agreeing": r.agreeing,
                       "disagreements": [list(k) + [x, y] for k, x, y in r.disagreements]}
                      for r in results],
            "histkit_only": unpaired["histkit_only"], "fpdb_only": unpaired["fpdb_only"],
        }, indent=1, default=str), encoding="utf-8")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
