"""The standard suite at the draft's own scale (issue 37): config/suite_full/*.yaml at the loads and the warm-up
and test periods of draft-irtf-iccrg-tcpeval-01's tables, with open-loop traffic (simulator/scenarios/open_network.py).

Its runs take tens of minutes on two cores, so the default build never runs them: it reads the records committed
in reference/suite_full/records.jsonl (config key suite_full.records), as it reads a peer simulator's. The target
`snakemake --cores all suite_full` regenerates them:

    python -m simulator.suite_full run --config config/config.yaml --out results/suite_full/records.jsonl --jobs 2
    python -m simulator.suite_full compare --new results/suite_full/records.jsonl --ref reference/suite_full/records.jsonl

Each record is a run record of the simulator's own format (simulator/cli.py run_record, sealed by
simulator/run_records.py), one line per study point and seed, in a fixed order; `run` appends each line as its
run ends (a stopped run keeps what it finished: rerun with --resume) and writes the README beside the records
(simulator version, commit, command, date, sha256 of the records and of every study file); `readme` writes it
again beside records copied into reference/suite_full/.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import sys
import time
from multiprocessing import Pool
from pathlib import Path

from simulator.study_errors import StudyError, read_yaml_mapping


def settings(config_path) -> dict:
    """suite_full's dir, seeds, algorithms and records of the workflow config (defaults as its schema's)."""
    got = read_yaml_mapping(config_path, "config").get("suite_full") or {}
    return {"dir": got.get("dir", "config/suite_full"), "seeds": int(got.get("seeds", 3)),
            "algorithms": list(got.get("algorithms", ["reno", "newreno", "cubic", "vegas", "bbr", "qtcol", "qtcolfair"])),
            "records": got.get("records", "reference/suite_full/records.jsonl")}


def study_files(folder) -> list:
    return sorted(Path(folder).glob("*.yaml"))


def studies(folder, algorithms) -> list:
    """The Study of each file with the algorithm list as its grid's first key (checked like any suite study)."""
    from simulator.suite import load_suite_study
    out = [load_suite_study(f, algorithms) for f in study_files(folder)]
    if not out:
        raise StudyError(f"{folder}: no study files (*.yaml)")
    return out


def tasks(folder, algorithms, seeds) -> list:
    """(study file, point path, seed) of every run, in the records' order."""
    return [(str(s.file), p.path, seed) for s in studies(folder, algorithms) for p in s.points() for seed in range(1, seeds + 1)]


def _one(task):
    from simulator.cli import run_record
    from simulator.run_records import seal
    from simulator.suite import load_suite_study
    file, path, seed, algorithms = task
    study = load_suite_study(file, algorithms)
    point = next(p for p in study.points() if p.path == path)
    t0 = time.perf_counter()
    rec = run_record(study, point, seed)
    return seal(rec), time.perf_counter() - t0


def run(config_path, out, jobs=2, resume=False) -> int:
    s = settings(config_path)
    todo = tasks(s["dir"], s["algorithms"], s["seeds"])
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_suffix(".partial")
    done = partial.read_text().splitlines() if resume and partial.exists() else []
    with partial.open("w") as fh:
        for line in done:
            fh.write(line + "\n")
        with Pool(jobs) as pool:
            work = [(f, p, seed, s["algorithms"]) for f, p, seed in todo[len(done):]]
            for k, (line, wall) in enumerate(pool.imap(_one, work), len(done) + 1):
                fh.write(line + "\n")
                fh.flush()
                print(f"{k}/{len(todo)} {todo[k - 1][0]} {todo[k - 1][1]} seed {todo[k - 1][2]}: {wall:.1f} s", flush=True)
    partial.replace(out)
    write_readme(out, config_path, s, f"python -m simulator.suite_full run --config {config_path} --jobs {jobs}")
    return 0


def sha256(path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def write_readme(records, config_path, s, command) -> None:
    """README.md beside `records`: who made them (the records' own simulator version and commit), how, when,
    and the sha256 of the records and of every study file (tests/test_suite_full.py checks both)."""
    from simulator.run_records import read
    made = {(r["provenance"]["simulator_version"], r["provenance"]["git_commit"]) for r in read(records)}
    if len(made) != 1:
        raise StudyError(f"{records}: records of {len(made)} simulator versions or commits {sorted(made)}; rerun them all")
    (version, commit), = made
    files = study_files(s["dir"])
    lines = [
        "# The standard suite at the draft's own scale: our simulator's run records",
        "",
        "Reference data for the suite chapter's section \"At the draft's scale\" (simulator/report/suite_full_view.py),",
        "made by `snakemake --cores all suite_full` (simulator/suite_full.py) and copied here on purpose; the default",
        "build reads them and never reruns them. tests/test_suite_full.py reruns one record and checks it is the same.",
        "",
        f"- simulator version {version}, commit {commit}",
        f"- written {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}; made with `{command}`",
        f"- algorithms: {', '.join(s['algorithms'])}; seeds 1-{s['seeds']}; config: {config_path}",
        f"- records.jsonl sha256 {sha256(records)} ({sum(1 for _ in open(records))} runs)",
        "- study files (sha256):",
    ] + [f"  - {f}: {sha256(f)}" for f in files]
    Path(records).with_name("README.md").write_text("\n".join(lines) + "\n")


def compare(new, ref) -> int:
    """Print the records whose metrics differ (by study, point and seed); 1 if any differ or are missing."""
    from simulator.run_records import read
    key = lambda r: (r["study"], r["point_path"], r["seed"])  # noqa: E731
    a, b = {key(r): r for r in read(new)}, {key(r): r for r in read(ref)}
    changed = [k for k in sorted(set(a) | set(b)) if json.dumps(a.get(k, {}).get("metrics"), sort_keys=True)
               != json.dumps(b.get(k, {}).get("metrics"), sort_keys=True)]
    for k in changed:
        print(f"{'/'.join(map(str, k))}: {'missing in new' if k not in a else 'missing in ref' if k not in b else 'metrics differ'}")
    print(f"{len(changed)} of {len(set(a) | set(b))} records differ")
    return 1 if changed else 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="run every study point and seed, writing sealed records")
    r.add_argument("--config", default="config/config.yaml")
    r.add_argument("--out", required=True)
    r.add_argument("--jobs", type=int, default=2)
    r.add_argument("--resume", action="store_true", help="keep the lines of an earlier run's .partial file")
    m = sub.add_parser("readme", help="write README.md beside a records file (after copying it into reference/)")
    m.add_argument("--records", required=True)
    m.add_argument("--config", default="config/config.yaml")
    m.add_argument("--jobs", type=int, default=2)
    c = sub.add_parser("compare", help="which records differ between two record files")
    c.add_argument("--new", required=True)
    c.add_argument("--ref", required=True)
    a = ap.parse_args(argv)
    try:
        if a.cmd == "readme":
            write_readme(a.records, a.config, settings(a.config),
                         f"python -m simulator.suite_full run --config {a.config} --jobs {a.jobs}")
            return 0
        return run(a.config, a.out, a.jobs, a.resume) if a.cmd == "run" else compare(a.new, a.ref)
    except StudyError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
