"""The evaluation suite's rankings: per scenario and metric, the algorithms ordered by mean with ties
where the difference is not significant (simulator/report/claim_rule.py: Welch t-test, Holm).

An algorithm's rank is 1 + the number of algorithms significantly better than it on that metric (all
pairs of one scenario point and metric, Holm-adjusted together): algorithms no test separates share
a rank, so a ranking never rests on means alone. Metrics read from traces (ramp-up time; the parking
lot's per-flow shares) are computed per seed and summarised like the tables' metrics.

    python -m simulator.report.suite_rank --tables results/suite/tables/*.csv \
        --traces results/suite/traces/*.csv --out-dir results/suite       # results/suite/<study>.csv
"""
from __future__ import annotations

import argparse
import itertools
from pathlib import Path

import numpy as np
import pandas as pd

from simulator.report import claim_rule, io
from simulator.report.aggregate import summarize

# metric -> (direction, label with unit); "higher" or "lower" is better
METRICS = {
    "utilization_warm": ("higher", "utilization after warm-up"),
    "median_rtt_ms": ("lower", "median RTT (ms)"),
    "p95_rtt_ms": ("lower", "95th-percentile RTT (ms)"),
    "plr": ("lower", "packet loss ratio"),
    "jain": ("higher", "Jain's fairness index"),
    "rampup_s": ("lower", "ramp-up time to 80% of capacity (s)"),
    "throughput_mbps": ("higher", "total throughput (Mbit/s)"),
    "latency_mean_s": ("lower", "mean one-way delay (s)"),
    "loss_pct": ("lower", "loss (%)"),
    "long_flow_share": ("higher", "long flow's throughput / mean flow throughput"),
}
RAMPUP_FRACTION = 0.8                # ramp-up ends when one flow first carries this share of the capacity
RANK_COLUMNS = ["study", "point", "metric", "better", "algorithm", "rank", "mean", "ci_low", "ci_high", "n"]


def rank(rows: pd.DataFrame, better: str) -> pd.DataFrame:
    """`rows` (one per algorithm: algorithm, mean, sd, n, ...) with a `rank` column, best first.
    rank = 1 + number of algorithms significantly better (Welch, Holm over all pairs of `rows`)."""
    if better not in ("higher", "lower"):
        raise ValueError(f"better: {better!r}; allowed values: higher, lower")
    recs = rows.to_dict("records")
    pairs = list(itertools.combinations(range(len(recs)), 2))
    tests = claim_rule.holm([claim_rule.greater(recs[i], recs[j], f"{i}>{j}") for i, j in pairs])
    beaten_by = [0] * len(recs)
    for (i, j), c in zip(pairs, tests):
        i_better = c.holds if better == "higher" else c.reversed
        j_better = c.reversed if better == "higher" else c.holds
        beaten_by[j] += i_better
        beaten_by[i] += j_better
    sign = -1 if better == "higher" else 1
    out = rows.assign(rank=[1 + b for b in beaten_by], _key=sign * rows["mean"].astype(float))
    return out.sort_values(["rank", "_key", "algorithm"], kind="stable").drop(columns="_key").reset_index(drop=True)


def point_label(row, grid_keys) -> str:
    """'buffer_bdp=0.5' (or 'buffer_pkts=83') for a point with grid keys besides the algorithm; '' otherwise."""
    return ", ".join(f"{k}={row[k]:g}" if isinstance(row[k], float) else f"{k}={row[k]}" for k in grid_keys)


def _stat_row(values, bounds=None) -> dict:
    return summarize(np.asarray(values, dtype=float), bounds)


def rampup_rows(traces: pd.DataFrame) -> pd.DataFrame:
    """Per algorithm: first time flow 0 carries RAMPUP_FRACTION of the bottleneck (the run's length if
    never), summarised over seeds."""
    out = []
    for alg, d in traces.groupby("algorithm", sort=False):
        times = []
        for _, s in d.groupby("seed"):
            hit = s[s["throughput_mbps_0"] >= RAMPUP_FRACTION * s["bottleneck_mbps"]]
            times.append(float(hit["t"].min()) if len(hit) else float(s["duration"].iloc[0]))
        out.append({"algorithm": alg, "metric": "rampup_s", **_stat_row(times)})
    return pd.DataFrame(out)


def share_rows(traces: pd.DataFrame) -> pd.DataFrame:
    """Per algorithm: Jain's index of the flows' mean throughputs after warm-up and flow 0's (the long
    flow's) throughput over the mean flow's, summarised over seeds."""
    out = []
    cols = sorted((c for c in traces if c.startswith("throughput_mbps_")), key=lambda c: int(c.rsplit("_", 1)[1]))
    for alg, d in traces.groupby("algorithm", sort=False):
        jains, shares = [], []
        for _, s in d.groupby("seed"):
            x = s.loc[s["t"] >= s["warmup"], cols].mean().to_numpy()
            jains.append(x.sum() ** 2 / (len(x) * (x ** 2).sum()))
            shares.append(x[0] / x.mean())
        out += [{"algorithm": alg, "metric": "jain", **_stat_row(jains, (0.0, 1.0))},
                {"algorithm": alg, "metric": "long_flow_share", **_stat_row(shares)}]
    return pd.DataFrame(out)


def study_rows(table: pd.DataFrame, traces: pd.DataFrame | None) -> pd.DataFrame:
    """Long rows (point, algorithm, metric, mean, sd, n, ci_low, ci_high) of one suite study: its
    table's ranked metrics plus those read from its traces."""
    grid_keys = [k for k in ("buffer_bdp", "buffer_pkts") if k in table and table[k].nunique() > 1]
    rows = table[table["metric"].isin(METRICS)].copy()
    if "flows" in rows and (rows["flows"] == 1).all():
        rows = rows[rows["metric"] != "jain"]           # one flow: nothing to be fair between
    rows["point"] = [point_label(r, grid_keys) for _, r in rows.iterrows()]
    if traces is not None and len(traces):
        derived = rampup_rows(traces) if "bottleneck_mbps" in traces else share_rows(traces)
        rows = pd.concat([rows, derived.assign(point="")], ignore_index=True)
    return rows


def ranking(study: str, rows: pd.DataFrame) -> pd.DataFrame:
    """Every (point, metric) of a study ranked; columns RANK_COLUMNS."""
    parts = []
    for (point, metric), d in rows.groupby(["point", "metric"], sort=False):
        better = METRICS[metric][0]
        parts.append(rank(d.reset_index(drop=True), better).assign(study=study, point=point, better=better))
    return pd.concat(parts, ignore_index=True)[RANK_COLUMNS] if parts else pd.DataFrame(columns=RANK_COLUMNS)


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", nargs="+", required=True)
    ap.add_argument("--traces", nargs="*", default=[])
    ap.add_argument("--out-dir", required=True)
    a = ap.parse_args(argv)
    traces = {Path(f).stem: pd.read_csv(f) for f in a.traces}
    for f in a.tables:
        study = Path(f).stem
        out = Path(a.out_dir) / f"{study}.csv"
        frame = ranking(study, study_rows(pd.read_csv(f), traces.get(study)))
        io.write_atomic(out, lambda tmp: frame.to_csv(tmp, index=False))
        print(f"{out}: {len(frame)} rows")


if __name__ == "__main__":
    main()
