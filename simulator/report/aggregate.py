"""Seed-batch JSON lines of one study -> long-format tables.

Table (results/tables/<study>.csv): one row per grid point and metric, columns
    study, paper, point, <params: model, variant, algorithm, lambda, mu, K, theta, N, ...>,
    metric, mean, sd, n, ci_low, ci_high, run_p025, run_p975, run_min, run_max
mean/sd (ddof=1) over seeds; 95% CI = mean -/+ t(0.975, n-1) * sd / sqrt(n), except for the metrics
of BOUNDED (ratios that cannot leave [0, 1], e.g. Jain's index), whose interval is the same t-interval
taken on the logit scale of the mean (delta method) and mapped back, so it never leaves the bounds;
run_p025/run_p975 = 2.5/97.5 percentiles of the per-seed values (numpy, linear).
Non-finite per-seed values (e.g. the delay of a run that served nothing) are left out of n.
theta null (no deadline) is written as inf.

Traces (results/traces/<study>.csv): study, paper, point, <params>, seed, t, <series> for the
first `n_seeds` seeds of every point.

Provenance (results/tables/<study>.provenance.json, next to the table): the study file and its
sha256, the simulator version(s), git commit(s) and Python version(s) recorded by the runs, and per
grid point its parameters, seeds, run files and each run file's sha256 (run_file_sha256). No timestamps:
the same runs give the same bytes. Every record read is verified against its seal (simulator/run_records.py).

Every file is written to a temporary name and renamed into place (os.replace), so a killed job
never leaves a half-written table.

Run by Snakemake (rules aggregate / traces, through workflow/scripts/aggregate.py): main(snakemake).
"""

import hashlib
import json
import math
import sys
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.special import stdtrit   # Student t quantile (what scipy.stats.t.ppf calls), without scipy.stats' import cost

from simulator.report.io import write_atomic
from simulator.run_records import RunFileError, read_run_file, seeds_in_name  # noqa: F401  (used by callers too)

STAT_COLUMNS = ["mean", "sd", "n", "ci_low", "ci_high", "run_p025", "run_p975", "run_min", "run_max"]
NOT_PARAMS = {"trace"}  # recording switches, not model parameters
# metric -> (lower, upper) bound of every value it can take: its CI stays inside (bounded_ci)
BOUNDED = {"jain": (0.0, 1.0), "plr": (0.0, 1.0), "loss_drop_ratio": (0.0, 1.0)}


def read_records(files) -> list[dict]:
    """All records of the given .jsonl run files, in file order, each file checked against its name."""
    records = []
    for f in files:
        records += read_run_file(f)
    return records


def group_by_point(records) -> dict:
    """{point_path: [records sorted by seed]} in first-appearance order; no seed twice."""
    groups: dict[str, list] = {}
    for r in records:
        groups.setdefault(r["point_path"], []).append(r)
    for path, recs in groups.items():
        recs.sort(key=lambda r: r["seed"])
        seeds = [r["seed"] for r in recs]
        if len(set(seeds)) != len(seeds):
            raise ValueError(f"point {path}: seed(s) appear twice: {sorted({s for s in seeds if seeds.count(s) > 1})}")
    return groups


def param_columns(rec) -> dict:
    return {k: (math.inf if v is None else v) for k, v in rec["params"].items() if k not in NOT_PARAMS}


def bounded_ci(mean, half, bounds) -> tuple[float, float]:
    """mean -/+ `half` (the t-interval's half-width) on the logit scale of `mean` within `bounds`,
    mapped back: logit(p) -/+ half / (p (1 - p)) with p the mean rescaled to (0, 1). Close to the
    t-interval away from the bounds, never outside them; a mean on a bound (every seed there) or a
    zero half-width gives the zero-width interval."""
    lo, hi = bounds
    p = (mean - lo) / (hi - lo)
    if half == 0 or p <= 0 or p >= 1:
        return mean, mean
    z, dz = math.log(p / (1 - p)), half / (hi - lo) / (p * (1 - p))
    back = lambda x: lo + (hi - lo) / (1 + math.exp(-x))  # noqa: E731
    return back(z - dz), back(z + dz)


def summarize(values, bounds=None) -> dict:
    """Statistics of one metric over seeds (non-finite values dropped); `bounds` (lower, upper): the
    values' range, which the CI then keeps to (bounded_ci)."""
    x = np.asarray([v for v in values if v is not None], dtype=float)
    x = x[np.isfinite(x)]
    n = int(x.size)
    if n == 0:
        return dict.fromkeys(STAT_COLUMNS, math.nan) | {"n": 0}
    mean = float(x.mean())
    sd = float(x.std(ddof=1)) if n > 1 else math.nan
    if n > 1:
        half = float(stdtrit(n - 1, 0.975)) * sd / math.sqrt(n)
        ci_low, ci_high = bounded_ci(mean, half, bounds) if bounds else (mean - half, mean + half)
    else:
        ci_low = ci_high = math.nan
    p025, p975 = np.percentile(x, [2.5, 97.5])
    return {
        "mean": mean,
        "sd": sd,
        "n": n,
        "ci_low": ci_low,
        "ci_high": ci_high,
        "run_p025": float(p025),
        "run_p975": float(p975),
        "run_min": float(x.min()),
        "run_max": float(x.max()),
    }


def table(records) -> pd.DataFrame:
    """Long-format statistics table of the records of one study."""
    rows = []
    for path, recs in group_by_point(records).items():
        first = recs[0]
        head = {"study": first["study"], "paper": first["paper"], "point": path, **param_columns(first)}
        metrics = list(dict.fromkeys(k for r in recs for k in r["metrics"]))
        for m in metrics:
            vals = [r["metrics"].get(m) for r in recs]
            if not all(v is None or (isinstance(v, (int, float)) and not isinstance(v, bool)) for v in vals):
                continue  # non-numeric metric: not summarized
            rows.append({**head, "metric": m, **summarize(vals, BOUNDED.get(m))})
    df = pd.DataFrame(rows)
    if df.empty:
        return df
    lead = ["study", "paper", "point"]
    params = [c for c in df.columns if c not in lead and c != "metric" and c not in STAT_COLUMNS]
    return df[lead + params + ["metric"] + STAT_COLUMNS]


def traces(records, n_seeds=None) -> pd.DataFrame:
    """Time series (t plus every recorded series: cwnd, or per-flow columns of the packet network)
    of the first n_seeds seeds of every point (the study's `trace_seeds`); by default 3, and one
    for the dumbbell model, whose QtColFair runs differ between seeds only in BBR's random phase
    and whose series are long."""
    frames = []
    for path, recs in group_by_point(records).items():
        keep = n_seeds or (1 if recs[0].get("params", {}).get("model") == "dumbbell" else 3)
        for r in [r for r in recs if "trace" in r][:keep]:
            tr = r["trace"]
            head = {"study": r["study"], "paper": r["paper"], "point": path, **param_columns(r), "seed": r["seed"]}
            df = pd.DataFrame({k: tr[k] for k in tr})
            for i, (k, v) in enumerate(head.items()):
                df.insert(i, k, v)
            frames.append(df)
    if not frames:
        raise ValueError("no run has a trace: set `trace: true` in the study")
    return pd.concat(frames, ignore_index=True)


def seed_ranges(seeds) -> str:
    """[1, 2, 3, 5] -> '1-3,5'."""
    seeds, out = sorted(seeds), []
    for s in seeds:
        if out and s == out[-1][1] + 1:
            out[-1][1] = s
        else:
            out.append([s, s])
    return ",".join(f"{a}-{b}" if a != b else f"{a}" for a, b in out)


def run_files_by_point(records_of_files) -> dict:
    """{point_path: [run files holding its records]} from [(file, its records), ...]."""
    by_point: dict[str, list] = {}
    for f, recs in records_of_files:
        for r in recs:
            by_point.setdefault(r["point_path"], []).append(str(f))
    return by_point


def file_sha256(f) -> str:
    with open(f, "rb") as fh:
        return hashlib.file_digest(fh, "sha256").hexdigest()


def provenance(records, by_file, study_file=None, sha256_of=None) -> dict:
    """What the table was made from: study file, simulator versions, commits, points, seeds, run files
    (by_file: run_files_by_point) and, given `sha256_of` ({run file: sha256}), each point's files' sha256."""
    prov = [r.get("provenance", {}) for r in records]
    first = records[0] if records else {}
    out = {
        "study": first.get("study"),
        "paper": first.get("paper"),
        "n_runs": len(records),
        "simulator_version": sorted({p.get("simulator_version", "unknown") for p in prov}),
        "git_commit": sorted({p.get("git_commit", "unknown") for p in prov}),
        "python": sorted({p.get("python", "unknown") for p in prov}),
    }
    users = {json.dumps(u, sort_keys=True) for p in prov for u in p.get("user_algorithms", ())}
    if users:      # file (relative, as the study wrote it), class and sha256 of each user algorithm
        out["user_algorithms"] = [json.loads(u) for u in sorted(users)]
    if study_file:
        out["study_file"] = str(study_file)
        out["study_file_sha256"] = hashlib.sha256(Path(study_file).read_bytes()).hexdigest()
    out["points"] = [
        {"point": path, "params": recs[0]["params"], "seeds": seed_ranges(r["seed"] for r in recs),
         "run_files": sorted(set(by_file.get(path, [])))}
        for path, recs in group_by_point(records).items()
    ]
    if sha256_of is not None:     # which bytes the table was made from: a run file changed since differs here
        for p in out["points"]:
            p["run_file_sha256"] = {f: sha256_of[f] for f in p["run_files"]}
    return out


def write_csv_atomic(df: pd.DataFrame, out) -> None:
    write_atomic(Path(out), lambda tmp: df.to_csv(tmp, index=False))


def main(smk) -> None:
    """One study's run files, read once: its table and provenance record, and its trace table if the rule
    has a `traces` output (rule aggregate_with_traces); kind "traces" writes the trace table alone."""
    records_of_files = [(f, read_run_file(f)) for f in smk.input.runs]
    for f, recs in records_of_files:
        for lineno, r in enumerate(recs, start=1):
            if r["study"] != smk.wildcards.study:
                raise RunFileError(f"{f}: line {lineno}: a record of study {r['study']} among the run files of "
                                   f"study {smk.wildcards.study}: delete the file and rerun snakemake")
    records = [r for _, recs in records_of_files for r in recs]
    if smk.params.kind == "traces":
        df = traces(records, smk.params.n_seeds)
        write_csv_atomic(df, smk.output[0])
        print(f"{smk.output[0]}: {len(df)} rows from {len(records)} runs", file=sys.stderr)
        return
    df = table(records)
    write_csv_atomic(df, smk.output[0])
    if "provenance" in smk.output.keys():
        prov = provenance(records, run_files_by_point(records_of_files), getattr(smk.params, "study_file", None),
                          {str(f): file_sha256(f) for f, _ in records_of_files})
        text = json.dumps(prov, indent=1, sort_keys=True) + "\n"
        write_atomic(Path(smk.output.provenance), lambda tmp: Path(tmp).write_text(text))
    print(f"{smk.output[0]}: {len(df)} rows from {len(records)} runs", file=sys.stderr)
    if "traces" in smk.output.keys():
        tr = traces(records, smk.params.n_seeds)
        write_csv_atomic(tr, smk.output.traces)
        print(f"{smk.output.traces}: {len(tr)} rows", file=sys.stderr)
