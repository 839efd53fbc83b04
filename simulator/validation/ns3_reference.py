"""ns-3's side of the validation study as committed reference data (reference/ns3/records.jsonl).

The default build compares our dumbbell with these records instead of running ns-3 (hours on 2
cores); the optional target `validation` reruns ns-3 and says which records changed:

    python -m simulator.validation.ns3_reference --study config/studies/validation_ns3.yaml \\
        --runs DIR/**/ns3.json --out results/validation/ns3_records.jsonl \\
        --committed reference/ns3/records.jsonl --changes results/validation/ns3_changes.txt

A record is simulator/validation/run_cell.py's, sealed by its sha256 (simulator/peer_records.py).
`check` makes sure the committed file holds a record of every cell and seed the study asks for,
with the cell's parameters, before any job runs.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from simulator import peer_records
from simulator.reference_errors import ReferenceDataError
from simulator.validation.cells import load_cells, seeds
from simulator import peers

NS3 = peers.label("ns3")

RECORDS = "ns3/records.jsonl"       # in the reference folder (config key reference_dir)
REGENERATE = "regenerate it with `snakemake --cores all validation` (needs the ns3 extra; reference/ns3/README.md)"


def key(rec) -> tuple:
    return rec["cell"], int(rec["seed"])


def needed(study_file) -> list:
    """[(cell, seed, params)] the study asks of each side."""
    study, cells = load_cells(study_file)
    return [(c.path, s, c.params) for c in cells for s in seeds(c, study.seeds or 1)]


def check(reference_dir, study_file, records: str = RECORDS) -> list[dict]:
    """The committed records the study needs (reference_dir/records: ns-3's validation cells by default,
    ns3_qtcol/records.jsonl for QtColFair's BBR at 1 BDP), each checked; ReferenceDataError naming file and
    line otherwise."""
    path = Path(reference_dir) / records
    records = peer_records.read(path, required=("cell", "seed", "side", "params", "metrics"))
    lines = {}
    for lineno, r in enumerate(records, start=1):
        if r["side"] != "ns3":
            raise ReferenceDataError(f"{path}: line {lineno}: side {r['side']!r}; expected 'ns3'")
        lines[key(r)] = (lineno, r)
    out = []
    for cell, seed, params in needed(study_file):
        if (cell, seed) not in lines:
            raise ReferenceDataError(f"{path}: no record of cell {cell} seed {seed}, which {study_file} asks for; "
                                     + REGENERATE)
        lineno, r = lines[(cell, seed)]
        if r["params"] != params:
            raise ReferenceDataError(f"{path}: line {lineno}: cell {cell} was run with parameters {r['params']}; "
                                     f"{study_file} now gives {params}: " + REGENERATE)
        out.append(r)
    return out


def unfinished_record(study_file, cell, seed, how_far) -> dict:
    """The record of an ns-3 run that was stopped before it finished: the run's identity as run_cell.py writes
    it, no metrics, and `unfinished` saying how far it got (the chapter says so; `validation` reruns it)."""
    by_path = {c.path: c for c in load_cells(study_file)[1]}
    c = by_path[cell]
    return {"study": Path(study_file).stem, "cell": cell, "seed": int(seed), "side": "ns3", "params": c.params,
            "notes": c.notes, "metrics": {}, "unfinished": how_far}


def write_records(run_files, out) -> list[dict]:
    """Seal the run records of `run_files` into one file, sorted by cell and seed."""
    records = sorted((json.loads(Path(f).read_text()) for f in run_files), key=key)
    peer_records.write(records, out)
    return records


# the code a record depends on: its sha256 goes in the README beside the records
SCRIPTS = ("simulator/validation/ns3_dumbbell.py", "simulator/validation/run_cell.py", "simulator/validation/cells.py",
           "simulator/scenarios/dumbbell.py")


def readme(records, study_file, made) -> str:
    """The README committed beside the records: what made them and the command of each (`made`: the ns-3
    version, the machine and the dates, as the maintainer who ran them states them)."""
    import hashlib

    digest = {f: hashlib.sha256(Path(f).read_bytes()).hexdigest() for f in (*SCRIPTS, study_file)}
    cmd = (f"python -m simulator.validation.run_cell --study {study_file} --cell CELL --seed SEED --side ns3 "
           "--out CELL/seed~SEED/ns3.json")
    lines = [
        f"# {NS3}'s records of the validation cells",
        "",
        "Reference data: ns-3's side of the chapter \"Agreement with ns-3\". The default build reads these records and",
        "runs only our side; `snakemake --cores all validation` reruns ns-3 and lists the records that differ",
        "(results/validation/ns3_changes.txt). Each line is one run, as `simulator/validation/run_cell.py` writes it,",
        "sealed by `sha256` (the digest of the line's sorted compact JSON without that key,",
        "`simulator/peer_records.py`); the workflow checks every seal, and that every cell and seed of the study has",
        "a record with the cell's parameters, before any job runs.",
        "",
        f"- ns-3: {made['ns3']}",
        f"- machine: {made['machine']}",
        f"- made: {made['date']}",
        f"- records: {len(records)}",
        f"- command of each record (from the repository root, `CELL` and `SEED` from the list below): `{cmd}`;",
        "  several at once from one loaded ns-3 (the same records, a fork per run, about 12 s of CPU less each):",
        f"  `python -m simulator.validation.ns3_batch --study {study_file} --runs LIST --out-dir DIR --parallel 2`,",
        "  then `python -m simulator.validation.ns3_reference --runs DIR/**/ns3.json --out reference/ns3/records.jsonl",
        "  --committed reference/ns3/records.jsonl --changes changes.txt`",
        "",
        "sha256 of the code and study the records come from:",
        "",
        *[f"- `{f}`: `{d}`" for f, d in digest.items()],
        "",
        "The records (cell, seed), in file order:",
        "",
        *[f"- `{r['cell']}` seed {r['seed']}" for r in records],
    ]
    return "\n".join(lines) + "\n"


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", nargs="+", required=True, help="ns-3 run records (simulator/validation/run_cell.py)")
    ap.add_argument("--out", required=True, help="sealed records to write")
    ap.add_argument("--committed", required=True, help="the committed records to compare with")
    ap.add_argument("--changes", required=True, help="text file: one line per record that differs")
    ap.add_argument("--readme", help="also write the README of the records here")
    ap.add_argument("--study", default="config/studies/validation_ns3.yaml", help="the study, for the README")
    ap.add_argument("--made", default="{}", help="JSON: ns3, machine, date, for the README")
    a = ap.parse_args(argv)
    fresh = write_records(a.runs, a.out)
    if a.readme:
        made = {"ns3": _ns3_version(), "machine": _machine(), "date": _today(), **json.loads(a.made)}
        Path(a.readme).write_text(readme(fresh, a.study, made))
    try:
        committed = peer_records.read(a.committed)
    except ReferenceDataError as e:
        print(e, file=sys.stderr)
        committed = []
    lines = peer_records.changes(committed, peer_records.read(a.out), key)
    head = (f"{len(fresh)} ns-3 records made, {len(lines)} differ from {a.committed}"
            + (f"; to commit them: cp {a.out} {a.committed}" if lines else ""))
    Path(a.changes).write_text("\n".join([head, *lines]) + "\n")
    print(head)
    return 0


def _ns3_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return f"{peers.version('ns3')} (PyPI `ns3` {version('ns3')})"
    except PackageNotFoundError:
        return "not installed where this README was written"


def _machine() -> str:
    import os
    import platform

    model = next((line.split(":", 1)[1].strip() for line in Path("/proc/cpuinfo").read_text().splitlines()
                  if line.startswith("model name")), platform.processor()) if Path("/proc/cpuinfo").exists() else ""
    return f"{model}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, Python {platform.python_version()}"


def _today() -> str:
    import datetime

    return datetime.date.today().isoformat()


if __name__ == "__main__":
    sys.exit(main())
