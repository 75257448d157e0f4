"""Regenerate `sample_data/`: `python -m histkit.simulate.samples [OUTDIR]`.

Every file is simulated (never a copied real hand) from a fixed seed, so the command
gives byte-identical files on every machine. The list below is the one place that says
what the bundled data is.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from histkit.simulate import SessionReport, write_session

__all__ = ["SAMPLES", "write_samples", "main"]

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


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    out = Path(args[0]) if args else Path("sample_data")
    for s, r in write_samples(out):
        extra = f", {r.faults} faults in {r.sidecar.name}" if r.sidecar else ""
        print(f"{r.path}: {r.hands} hands{extra} - {s.what}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
