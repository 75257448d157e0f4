"""Regenerate `sample_data/`: `python -m histkit.simulate.samples [OUTDIR]`; print the
figures its README quotes: `python -m histkit.simulate.samples --figures [DIR]`.

Every file is simulated (never a copied real hand) from a fixed seed, so the command
gives byte-identical files on every machine. The list below is the one place that says
what the bundled data is.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from histkit.simulate import SessionReport, write_session

__all__ = ["SAMPLES", "figures", "write_samples", "main"]

# payout faults an audit finds under the default `pokerstars` profile (the rake fault
# needs the house's rake ceiling: see `house_profile`)
PAYOUT_FAULTS = ("low_half_wrong_player", "odd_chip_wrong_half", "side_pot_ineligible")


@dataclass(frozen=True, slots=True)
class Sample:
    file: str
    game: str
    hands: int
    seed: int
    players: int = 6
    seats: int = 8  # every sample is dealt at 8-max tables (written before the default
    # table followed the players: kept so the files stay byte for byte the same)
    tables: int = 1
    tournament: bool = False
    stakes: str | None = None
    faults: float = 0.0
    what: str = ""


SAMPLES = (
    Sample("stud_hilo_cash_hero_500.txt", "stud_hilo", 500, seed=101, tables=3,
           what="a 500-hand Stud Hi/Lo $0.04/$0.08 session for Hero over three tables"),
    Sample("stud_cash_200.txt", "stud", 200, seed=102, players=8, stakes="0.10/0.20",
           what="200 hands of Stud $0.10/$0.20, 8-max"),
    Sample("razz_cash_200.txt", "razz", 200, seed=103, players=7,
           what="200 hands of Razz $0.04/$0.08"),
    Sample("stud_hilo_tournament_150.txt", "stud_hilo", 150, seed=104, players=8,
           tournament=True, what="150 hands of a Stud Hi/Lo tournament, levels I-XII in chips"),
    Sample("stud_hilo_faults_200.txt", "stud_hilo", 200, seed=105, players=8, faults=0.1,
           what="200 Stud Hi/Lo hands, some with a planted payout fault"),
)  # fmt: skip


def write_samples(out: str | Path) -> list[tuple[Sample, SessionReport]]:
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    done = []
    for s in SAMPLES:
        report = write_session(
            out / s.file,
            s.game,
            s.hands,
            players=s.players,
            seats=s.seats,
            seed=s.seed,
            stakes=s.stakes,
            tournament=s.tournament,
            tables=s.tables,
            faults=s.faults,
            fault_kinds=PAYOUT_FAULTS,
            sidecar=out / (Path(s.file).stem + ".truth.jsonl") if s.faults else None,
        )
        done.append((s, report))
    return done


def _money(minor: float, unit: str) -> str:
    """An average amount of the file's money: "$0.50" (cents of USD), "670 chips"."""
    if unit == "chip":
        return f"{minor:,.0f} chips"
    if unit == "USD":
        return f"${minor / 100:,.2f}"
    return f"{minor / 100:,.2f} {unit}"


def figures(folder: str | Path) -> str:
    """The README's table of each sample file, over all its players' hands together:

    - VPIP: seats dealt in with a voluntary call, completion, bet or raise on 3rd street
      (`histkit stats`' `vpip`, summed over every player), over all seats dealt in;
    - WTSD: showdowns over the seats that saw 4th street, every player together;
    - average pot: the mean, over the file's hands, of the total pot its summary writes
      (rake included), in its money, and the mean of each hand's total pot in big bets
      (in big bets only for a file of several tournaments, whose chips are never added).
    """
    from histkit.stats import load, seat_facts

    lines = ["| file | VPIP | WTSD | average pot |", "|---|---:|---:|---:|"]
    for s in SAMPLES:
        tables = load([Path(folder) / s.file])
        facts = seat_facts(tables)
        hands = tables["hands"].to_pandas()
        vpip = facts["vpip"].sum() / len(facts)
        wtsd = facts["showdown"].sum() / facts["saw_4"].sum()
        units = sorted(set(hands["money_unit"]))
        big_bets = (hands["total_pot"] / hands["big_bet"]).mean()
        if len(units) == 1:
            pot = _money(hands["total_pot"].mean(), "chip" if s.tournament else units[0])
            pot += f" ({big_bets:.1f} big bets)"
        else:  # several tournaments: their chips are never added together
            pot = f"{big_bets:.1f} big bets ({len(units)} tournaments)"
        lines.append(f"| `{s.file}` | {100 * vpip:.1f}% | {100 * wtsd:.1f}% | {pot} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["--figures"]:
        print(figures(Path(args[1]) if len(args) > 1 else Path("sample_data")))
        return 0
    out = Path(args[0]) if args else Path("sample_data")
    for s, r in write_samples(out):
        extra = f", {r.faults} faults in {r.sidecar.name}" if r.sidecar else ""
        print(f"{r.path}: {r.hands} hands{extra} - {s.what}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
