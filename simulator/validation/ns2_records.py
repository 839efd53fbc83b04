"""NS-2 2.35's records of the NS-2 chapter's grid points: made by `ns`, committed under reference/ns2_sim/, checked.

One JSON line per run (study, point, seed, start times, the Tcl script's sha256, metrics, the record's own
sha256), one file per study (<study>.jsonl, points in study order, seeds ascending), and MANIFEST.csv naming
each file's record count and sha256. The default build reads the committed records (check_dir stops it on a
missing, truncated or altered file, naming file, line and what was expected); `snakemake validation`
regenerates them where `ns` is installed and `compare` says which records changed (it never writes into
reference/).

  python -m simulator.validation.ns2_records run --studies config/studies/ns2/ns2_*.yaml --out DIR [--jobs 2]
  python -m simulator.validation.ns2_records compare --new DIR --ref reference/ns2_sim [--report FILE]
  python -m simulator.validation.ns2_records check --ref reference/ns2_sim
"""
from __future__ import annotations

import argparse
import csv
import hashlib
import json
import math
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from simulator import peers
from simulator.reference_errors import ReferenceDataError

MANIFEST = "MANIFEST.csv"
MANIFEST_COLUMNS = ["file", "records", "sha256"]
RECORD_KEYS = {"study", "point", "seed", "start_times_s", "tcl_sha256", "metrics", "sha256"}
# the metrics a record keeps: ns2_wired.summarize's, less those NS-2 cannot give as ours does (the mean RTT
# sample, our event count)
METRICS = ("cwnd_mean", "cwnd_sd", "cwnd_cv", "cwnd_stable_s", "throughput_mbps", "throughput_per_flow_mbps",
           "throughput_cv", "latency_mean_s", "latency_sd_s", "latency_p95_s", "latency_max_s", "loss_pct",
           "retransmit_pct", "timeouts", "fast_retransmits", "sent")


class Ns2RecordError(ReferenceDataError):
    """A committed NS-2 record file is missing, truncated or altered; the message names file and line."""


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _canonical(rec: dict) -> str:
    return json.dumps({k: v for k, v in rec.items() if k != "sha256"}, sort_keys=True)


def make_record(study: str, path: str, p: dict, seed: int) -> dict:
    """Run NS-2 once (grid point `path` of `study`, parameters `p`, our seed's start times): its record."""
    from simulator.validation import ns2_scripts
    starts = ns2_scripts.start_times(p, seed)
    stdout, trace = ns2_scripts.run_ns(p, starts)
    m = ns2_scripts.metrics(p, stdout, trace)
    rec = {"study": study, "point": path, "seed": seed, "start_times_s": starts,
           "tcl_sha256": _sha(ns2_scripts.script(p, starts, ns2_scripts.TRACE_FILE)),
           "metrics": {k: m[k] for k in METRICS}}
    rec["sha256"] = _sha(_canonical(rec))
    return rec


def _one(job):
    return make_record(*job)


def generate(study_files, out_dir, jobs: int = 1, seeds: int | None = None, select=None) -> dict:
    """Run NS-2 on every run of the studies (or those `select(study, path, seed)` keeps) and write
    <out_dir>/<study>.jsonl and MANIFEST.csv; {file name: [record]}."""
    from simulator.validation import ns2_scripts
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    written = {}
    for f in study_files:
        study, runs = ns2_scripts.study_runs(f, seeds)
        todo = [(study.name, path, p, seed) for path, p, seed in runs if select is None or select(study.name, path, seed)]
        if jobs > 1:
            with ProcessPoolExecutor(jobs) as pool:
                recs = list(pool.map(_one, todo, chunksize=4))
        else:
            recs = [_one(j) for j in todo]
        name = f"{study.name}.jsonl"
        (out / name).write_text("".join(json.dumps(r, sort_keys=True) + "\n" for r in recs))
        written[name] = recs
    write_manifest(out)
    return written


def write_manifest(folder) -> None:
    folder = Path(folder)
    rows = []
    for f in sorted(folder.glob("*.jsonl")):
        text = f.read_text()
        rows.append([f.name, str(text.count("\n")), _sha(text)])
    with (folder / MANIFEST).open("w", newline="") as fh:
        csv.writer(fh, lineterminator="\n").writerows([MANIFEST_COLUMNS] + rows)


def _manifest(folder: Path) -> dict:
    path = folder / MANIFEST
    if not path.is_file():
        raise Ns2RecordError(f"{path}: manifest not found; expected a CSV with columns {', '.join(MANIFEST_COLUMNS)} "
                             "(reference/ns2_sim/README.md says how the records are made)")
    rows = list(csv.reader(path.read_text().splitlines()))
    if not rows or rows[0] != MANIFEST_COLUMNS:
        raise Ns2RecordError(f"{path}: line 1: expected the header {', '.join(MANIFEST_COLUMNS)}")
    out = {}
    for lineno, r in enumerate(rows[1:], start=2):
        if len(r) != 3 or not r[1].isdigit() or len(r[2]) != 64:
            raise Ns2RecordError(f"{path}: line {lineno}: expected file, record count, sha256; got {r}")
        out[r[0]] = (int(r[1]), r[2])
    return out


def _check_record(path, lineno, line) -> dict:
    try:
        rec = json.loads(line)
    except json.JSONDecodeError as e:
        raise Ns2RecordError(f"{path}: line {lineno}: not a JSON record ({e}); the file may be truncated") from None
    if not isinstance(rec, dict) or set(rec) != RECORD_KEYS:
        got = sorted(rec) if isinstance(rec, dict) else type(rec).__name__
        raise Ns2RecordError(f"{path}: line {lineno}: expected the keys {', '.join(sorted(RECORD_KEYS))}; got {got}")
    if set(rec["metrics"]) != set(METRICS):
        raise Ns2RecordError(f"{path}: line {lineno}: expected the metrics {', '.join(METRICS)}; "
                             f"got {', '.join(sorted(rec['metrics']))}")
    if _sha(_canonical(rec)) != rec["sha256"]:
        raise Ns2RecordError(f"{path}: line {lineno}: the record's content does not match its sha256 "
                             f"{rec['sha256'][:12]}...: it was altered after NS-2 wrote it")
    return rec


def check_dir(folder, parse: bool = True) -> dict:
    """Validate a records folder; {study: [record]} (parse=False: {study: record count}, without reading the
    records of a file whose sha256 matches the manifest: the workflow's check before every build). A
    mismatch reads the file record by record, so Ns2RecordError names the file, the line and what was expected."""
    folder = Path(folder)
    if not folder.is_dir():
        raise Ns2RecordError(f"{folder}: NS-2 records folder not found; it holds {peers.label('ns2')}'s runs of the NS-2 "
                             "chapter's grid points (reference/ns2_sim/README.md)")
    out = {}
    for name, (count, sha) in _manifest(folder).items():
        path = folder / name
        if not path.is_file():
            raise Ns2RecordError(f"{path}: record file not found; {MANIFEST} lists it with {count} records")
        text = path.read_text()
        intact = _sha(text) == sha
        if intact and not parse:
            out[name[:-len(".jsonl")]] = count
            continue
        lines = text.splitlines()
        recs = [_check_record(path, i, line) for i, line in enumerate(lines, start=1)]
        if len(lines) != count or not text.endswith("\n"):
            raise Ns2RecordError(f"{path}: line {len(lines) + 1}: the file ends after {len(lines)} records; "
                                 f"{MANIFEST} expects {count}: the file is truncated")
        if not intact:
            raise Ns2RecordError(f"{path}: sha256 {_sha(text)[:12]}... differs from {MANIFEST}'s {sha[:12]}...: "
                                 "records were reordered, removed or replaced")
        out[name[:-len(".jsonl")]] = recs if parse else count
    return out


def _key(rec):
    return rec["study"], rec["point"], rec["seed"]


def differences(new: dict, ref: dict) -> list[str]:
    """One line per record that differs between two {study: [record]} sets (new, changed, gone)."""
    a = {_key(r): r for recs in new.values() for r in recs}
    b = {_key(r): r for recs in ref.values() for r in recs}
    out = []
    for k in sorted(set(a) | set(b), key=str):
        where = f"{k[0]} {k[1]} seed {k[2]}"
        if k not in b:
            out.append(f"{where}: new (not in the committed records)")
        elif k not in a:
            out.append(f"{where}: not regenerated (only in the committed records)")
        elif a[k]["metrics"] != b[k]["metrics"] or a[k]["tcl_sha256"] != b[k]["tcl_sha256"]:
            changed = [f"{m} {b[k]['metrics'][m]!r} -> {a[k]['metrics'][m]!r}" for m in METRICS
                       if not _same(a[k]["metrics"][m], b[k]["metrics"][m])]
            if a[k]["tcl_sha256"] != b[k]["tcl_sha256"]:
                changed.insert(0, "script changed")
            out.append(f"{where}: " + "; ".join(changed))
    return out


def _same(x, y) -> bool:
    return x == y or (isinstance(x, float) and isinstance(y, float) and math.isnan(x) and math.isnan(y))


def _load_any(folder) -> dict:
    return {f.stem: [json.loads(line) for line in f.read_text().splitlines()] for f in sorted(Path(folder).glob("*.jsonl"))}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--studies", nargs="+", required=True)
    r.add_argument("--out", required=True)
    r.add_argument("--jobs", type=int, default=1)
    c = sub.add_parser("compare")
    c.add_argument("--new", required=True)
    c.add_argument("--ref", required=True)
    c.add_argument("--report")
    k = sub.add_parser("check")
    k.add_argument("--ref", required=True)
    a = ap.parse_args(argv)
    if a.cmd == "run":
        written = generate(a.studies, a.out, a.jobs)
        print(f"{sum(map(len, written.values()))} NS-2 records in {a.out}")
    elif a.cmd == "check":
        recs = check_dir(a.ref)
        print(f"{a.ref}: {sum(map(len, recs.values()))} records, all as committed")
    else:
        diff = differences(_load_any(a.new), check_dir(a.ref))
        text = (f"{len(diff)} NS-2 records differ from {a.ref}:\n" + "\n".join(diff) if diff
                else f"every NS-2 record equals the committed one in {a.ref}") + "\n"
        sys.stdout.write(text)
        if a.report:
            Path(a.report).write_text(text)


if __name__ == "__main__":
    main()
