"""Our side of a validation study, shared out over a few jobs (the default build runs it every time).

    python -m simulator.validation.ours_runs --study config/studies/validation_ns3.yaml \\
        --part 1 --of 4 --out results/validation/ours/part~1-of-4.jsonl

Part K of N takes every N-th (cell, seed) of the study from the K-th on and writes one record a
line, as simulator/validation/run_cell.py writes one (our dumbbell runs in well under a second, so
one process per run would cost more in start-up than in simulation). Which part runs a record
changes nothing in it.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from simulator.run_records import seal
from simulator.study_errors import StudyError
from simulator.validation.ns3_reference import needed
from simulator.validation.run_cell import record


def part(study_file, k, n) -> list[dict]:
    return [record(study_file, cell, seed, "ours") for cell, seed, _ in needed(study_file)[k - 1::n]]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--study", required=True, help="validation study YAML")
    ap.add_argument("--part", type=int, required=True, help="which part, from 1")
    ap.add_argument("--of", type=int, required=True, help="how many parts")
    ap.add_argument("--out", required=True, help="JSON lines to write")
    a = ap.parse_args(argv)
    if not 1 <= a.part <= a.of:
        print(f"--part {a.part} is not allowed; allowed values: 1 to {a.of}", file=sys.stderr)
        return 2
    try:
        records = part(a.study, a.part, a.of)
    except StudyError as e:
        print(e, file=sys.stderr)
        return 2
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    Path(a.out).write_text("".join(seal(r) + "\n" for r in records))   # sealed: agreement.py verifies each line
    return 0


if __name__ == "__main__":
    sys.exit(main())
