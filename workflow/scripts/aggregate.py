"""Seed-batch JSON lines of one study -> long-format tables.

Table (results/tables/<study>.csv): one row per grid point and metric, columns
    study, paper, point, <params: model, variant, algorithm, lambda, mu, K, theta, N, ...>,
    metric, mean, sd, n, ci_low, ci_high, run_p025, run_p975, run_min, run_max
mean/sd (ddof=1) over seeds; 95% CI = mean -/+ t(0.975, n-1) * sd / sqrt(n);
run_p025/run_p975 = 2.5/97.5 percentiles of the per-seed values (numpy, linear).
Non-finite per-seed values (e.g. the delay of a run that served nothing) are left out of n.
theta null (no deadline) is written as inf.

Traces (results/traces/<study>.csv): study, paper, point, <params>, seed, t, cwnd for the
first `n_seeds` seeds of every point.

Run by Snakemake (rules aggregate / traces); importable for tests.
"""

import json
import math
import sys
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

STAT_COLUMNS = ["mean", "sd", "n", "ci_low", "ci_high", "run_p025", "run_p975", "run_min", "run_max"]
NOT_PARAMS = {"trace"}  # recording switches, not model parameters


def read_records(files) -> list[dict]:
    """All records of the given .jsonl files, in file order."""
    records = []
    for f in files:
        with open(f) as fh:
            records += [json.loads(line) for line in fh if line.strip()]
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


def summarize(values) -> dict:
    """Statistics of one metric over seeds (non-finite values dropped)."""
    x = np.asarray([v for v in values if v is not None], dtype=float)
    x = x[np.isfinite(x)]
    n = int(x.size)
    if n == 0:
        return dict.fromkeys(STAT_COLUMNS, math.nan) | {"n": 0}
    mean = float(x.mean())
    sd = float(x.std(ddof=1)) if n > 1 else math.nan
    if n > 1:
        half = float(stats.t.ppf(0.975, n - 1)) * sd / math.sqrt(n)
        ci_low, ci_high = mean - half, mean + half
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
            rows.append({**head, "metric": m, **summarize(vals)})
    df = pd.DataFrame(rows)
    if df.empty:
        return df
    lead = ["study", "paper", "point"]
    params = [c for c in df.columns if c not in lead and c != "metric" and c not in STAT_COLUMNS]
    return df[lead + params + ["metric"] + STAT_COLUMNS]


def traces(records, n_seeds=3) -> pd.DataFrame:
    """cwnd traces of the first n_seeds seeds of every point."""
    frames = []
    for path, recs in group_by_point(records).items():
        for r in [r for r in recs if "trace" in r][:n_seeds]:
            tr = r["trace"]
            head = {"study": r["study"], "paper": r["paper"], "point": path, **param_columns(r), "seed": r["seed"]}
            df = pd.DataFrame({"t": tr["t"], "cwnd": tr["cwnd"]})
            for i, (k, v) in enumerate(head.items()):
                df.insert(i, k, v)
            frames.append(df)
    if not frames:
        raise ValueError("no run has a trace: set `trace: true` in the study")
    return pd.concat(frames, ignore_index=True)


def main(smk) -> None:
    records = read_records(smk.input)
    bad = {r["study"] for r in records} - {smk.wildcards.study}
    if bad:
        raise ValueError(f"runs of other studies among the inputs: {sorted(bad)}")
    if smk.params.kind == "traces":
        df = traces(records, smk.params.n_seeds)
    else:
        df = table(records)
    out = Path(smk.output[0])
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = out.with_name(f".{out.name}.tmp")
    df.to_csv(tmp, index=False)
    tmp.replace(out)
    print(f"{out}: {len(df)} rows from {len(records)} runs", file=sys.stderr)


if "snakemake" in globals():
    with open(snakemake.log[0], "w") as log:  # noqa: F821  (injected by Snakemake)
        sys.stderr = log
        try:
            main(snakemake)  # noqa: F821
        except Exception:
            import traceback

            traceback.print_exc(file=log)
            raise
