"""Many ns-3 runs of a validation study from one loaded ns-3: fork a child per run.

    python -m simulator.validation.ns3_batch --study config/studies/validation_ns3.yaml \\
        --runs LIST --out-dir DIR [--parallel 2]

LIST has one run a line, `<cell> <seed>`; each record goes to DIR/<cell>/seed~<seed>/ns3.json, as
simulator/validation/run_cell.py writes it (a run whose record exists is skipped). Loading ns-3's
bindings and compiling the probes costs about 12 s of CPU a process, more than a 10 Mbit/s cell's
run: the parent pays it once, and each forked child starts from that state, which no run has
touched (ns-3 keeps global state, so a run never shares its process with another). A child's
record equals the record of a process of its own (tests/test_validation_reference.py).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

from simulator.validation import ns3_dumbbell
from simulator.validation.run_cell import record


def record_path(out_dir, cell, seed) -> Path:
    return Path(out_dir) / cell / f"seed~{seed}" / "ns3.json"


def _child(study, cell, seed, out: Path) -> int:
    rec = record(study, cell, seed, "ns3")
    tmp = out.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(rec, indent=1, sort_keys=True) + "\n")
    tmp.replace(out)        # a record appears whole or not at all
    return 0


def _start(study, cell, seed, out: Path) -> int:
    out.parent.mkdir(parents=True, exist_ok=True)
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            log = open(out.with_suffix(".log"), "w")
            os.dup2(log.fileno(), 1)
            os.dup2(log.fileno(), 2)
            code = _child(study, cell, seed, out)
        finally:
            os._exit(code)
    return pid


def run_all(study, runs, out_dir, parallel=1, progress=sys.stdout) -> int:
    """Run every (cell, seed) of `runs` whose record is missing; returns how many failed."""
    todo = [(c, s) for c, s in runs if not record_path(out_dir, c, s).exists()]
    if not todo:
        return 0
    ns3_dumbbell.load()
    running, failed = {}, 0
    while todo or running:
        while todo and len(running) < parallel:
            cell, seed = todo.pop(0)
            running[_start(study, cell, seed, record_path(out_dir, cell, seed))] = (cell, seed, time.time())
        pid, status = os.wait()
        cell, seed, t0 = running.pop(pid)
        ok = os.waitstatus_to_exitcode(status) == 0
        failed += not ok
        print(f"{time.strftime('%H:%M:%S')} {cell} seed {seed}: {'ok' if ok else 'FAILED'} "
              f"{time.time() - t0:.0f} s", file=progress, flush=True)
    return failed


def read_list(path) -> list:
    runs = []
    for line in Path(path).read_text().splitlines():
        if line.strip():
            cell, seed = line.split()
            runs.append((cell, int(seed)))
    return runs


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--study", required=True, help="validation study YAML")
    ap.add_argument("--runs", required=True, help="file of '<cell> <seed>' lines")
    ap.add_argument("--out-dir", required=True, help="folder of the records")
    ap.add_argument("--parallel", type=int, default=1, help="children at once")
    a = ap.parse_args(argv)
    return 1 if run_all(a.study, read_list(a.runs), a.out_dir, a.parallel) else 0


if __name__ == "__main__":
    sys.exit(main())
