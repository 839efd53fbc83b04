"""The agreement table: one row per cell, our dumbbell and ns-3 side by side, differences and
whether the cell is inside the bounds issue 15 sets (2 percentage points of utilization, 15% of
mean RTT).

    python -m simulator.validation.agreement --runs results/validation/ours/*.jsonl \
        reference/ns3/records.jsonl --out results/validation/ns3_agreement.csv

Each run record is simulator/validation/run_cell.py's; a cell's value is the mean over its seeds.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import pandas as pd

from simulator import run_records
from simulator.report import claim_rule

METRICS = ("utilization_warm", "mean_rtt_ms", "jain", "retransmissions", "timeouts")
# ns-3's RTT samples against the largest RTT its path allows (simulator/validation/ns3_dumbbell.py)
RTT_CHECKS = ("path_rtt_max_ms", "rtt_sample_max_ms", "rtt_samples_over_path_pct")
# ns-3 BBR's largest delivery-rate sample over the link's payload rate, as ns-3 takes it and as Linux would
# (simulator/validation/ns3_dumbbell.py); absent (NaN) for the other algorithms
RATE_CHECKS = ("rate_sample_max_over_link_pct", "rate_sample_linux_max_over_link_pct")
# ns-3's RTT input to the congestion control: the handshake's sample that seeds srtt, srtt's minimum, the
# smallest data-segment RTT, and flow 0 leaving slow start (simulator/validation/ns3_dumbbell.py); absent (NaN)
# in records made before they were recorded
START_CHECKS = ("handshake_rtt_ms", "srtt_min_ms", "data_rtt_min_ms", "ss_exit_ssthresh_pkts", "ss_exit_s")
# ns-3's fast recoveries from warm-up on: how many, how many began with the loss of a segment sent during the one
# before, and the largest rise of cwnd above its value at a recovery's start (PRR's duplicate-ACK count,
# simulator/validation/ns3_dumbbell.py); absent (NaN) in records made before they were recorded
RECOVERY_CHECKS = ("recoveries", "recoveries_lost_in_recovery", "recovery_cwnd_rise_max_pkts")
# Vegas only: the largest handshake sample of any flow and the largest base RTT any flow's Vegas held at the end
# (simulator/validation/ns3_dumbbell.py); absent (NaN) for the other algorithms and in older records
VEGAS_CHECKS = ("handshake_rtt_max_ms", "vegas_base_rtt_max_ms")
NS3_CHECKS = RTT_CHECKS + RATE_CHECKS + START_CHECKS + RECOVERY_CHECKS + VEGAS_CHECKS
FACTORS = ("algorithm", "bottleneck_mbps", "buffer_pkts", "flows", "loss_fwd_pct", "duration")
# the metrics the bounds apply to: per side their sd over seeds, and the p of ours against ns-3 by the book's one
# rule (simulator/report/claim_rule.py: Welch, deterministic by value, no test from one seed)
BOUNDED = {"utilization_warm": "p_utilization", "mean_rtt_ms": "p_mean_rtt"}
UTILIZATION_PP = 2.0        # bound on |ours - ns-3| utilization, percentage points
RTT_REL = 0.15              # bound on |ours - ns-3| / ns-3 mean RTT


def records(files):
    """The run records of `files`: a .json file holds one (simulator/validation/run_cell.py), a .jsonl file one a
    line (our side's parts, simulator/validation/ours_runs.py; ns-3's committed records, reference/ns3/), each
    line's sha256 seal verified (simulator/run_records.py: RunFileError naming file and line)."""
    for f in files:
        if str(f).endswith(".jsonl"):
            yield from run_records.read(f)
        else:
            yield json.loads(Path(f).read_text())


def unfinished(files) -> list[dict]:
    """The committed ns-3 records of runs that did not finish (no metrics; `unfinished` says how far they got)."""
    return [r for r in records(files) if r.get("unfinished")]


def read_runs(files) -> pd.DataFrame:
    """One row per finished record: cell, seed, side, the cell's factors, notes, the metrics."""
    rows = []
    for r in records(files):
        if r.get("unfinished"):
            continue
        row = {"cell": r["cell"], "seed": r["seed"], "side": r["side"], "notes": r["notes"]}
        row.update({k: r["params"].get(k, 0.0 if k == "loss_fwd_pct" else None) for k in FACTORS})
        row.update({k: r.get("metrics", {}).get(k, float("nan")) for k in METRICS + NS3_CHECKS})
        rows.append(row)
    return pd.DataFrame(rows)


def agreement_table(runs: pd.DataFrame) -> pd.DataFrame:
    """Per cell: ours_<metric>, ns3_<metric> (means over seeds; ns-3's NS3_CHECKS too), per side the sd of the
    BOUNDED metrics and the seeds (<side>_n), the differences (utilization in percentage points, mean RTT relative to
    ns-3, Jain and retransmissions as ours - ns-3), `agrees` (True/False; empty where a side's run is missing) and
    the p of each bounded difference."""
    keys = ["cell", *FACTORS]
    sides = {}
    for side in ("ours", "ns3"):
        part = runs[runs["side"] == side]
        shown = list(METRICS + NS3_CHECKS) if side == "ns3" else list(METRICS)
        groups = part.groupby(keys, sort=False, dropna=False)
        spread = groups[list(BOUNDED)].std().add_suffix("_sd").assign(n=groups["seed"].nunique())
        sides[side] = groups[shown].mean().join(spread).add_prefix(f"{side}_")
    t = sides["ns3"].join(sides["ours"], how="outer").reset_index()
    meta = runs.groupby("cell", sort=False).agg(seeds=("seed", "nunique"),
                                                notes=("notes", "max"))
    t = t.merge(meta, on="cell", how="left")
    t["d_utilization_pp"] = 100 * (t["ours_utilization_warm"] - t["ns3_utilization_warm"])
    t["d_mean_rtt_pct"] = 100 * (t["ours_mean_rtt_ms"] / t["ns3_mean_rtt_ms"] - 1)
    t["d_jain"] = t["ours_jain"] - t["ns3_jain"]
    t["d_retransmissions"] = t["ours_retransmissions"] - t["ns3_retransmissions"]
    t["agrees"] = [verdict(u, r) for u, r in zip(t["d_utilization_pp"], t["d_mean_rtt_pct"])]
    for metric, p in BOUNDED.items():
        t[p] = [difference_p(row, metric) for _, row in t.iterrows()]
    return t


def difference_p(row, metric) -> float:
    """Two-sided p of ours against ns-3 on `metric` across the cell's seeds (NaN from one seed a side)."""
    def side(s):
        return {"mean": row[f"{s}_{metric}"], "sd": row[f"{s}_{metric}_sd"], "n": row[f"{s}_n"]}
    if pd.isna(row["ours_n"]) or pd.isna(row["ns3_n"]):
        return float("nan")
    return claim_rule.greater(side("ours"), side("ns3"), metric).p


def verdict(d_util_pp, d_rtt_pct):
    """True inside both bounds, False outside either, None when a side is missing (NaN)."""
    if pd.isna(d_util_pp) or pd.isna(d_rtt_pct):
        return None
    return bool(abs(d_util_pp) <= UTILIZATION_PP and abs(d_rtt_pct) <= 100 * RTT_REL)


def counts(table: pd.DataFrame) -> dict:
    """Cells in total, compared (both sides ran), inside the bounds, outside, not compared."""
    compared = table["agrees"].notna()
    inside = int((table["agrees"] == True).sum())        # noqa: E712 (object column of True/False/None)
    return {"cells": len(table), "compared": int(compared.sum()), "inside": inside,
            "outside": int(compared.sum()) - inside, "not_compared": int((~compared).sum())}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", nargs="+", required=True, help="run records (simulator/validation/run_cell.py)")
    ap.add_argument("--out", required=True, help="CSV to write")
    a = ap.parse_args(argv)
    try:
        table, stopped_runs = agreement_table(read_runs(a.runs)), unfinished(a.runs)
    except run_records.RunFileError as e:
        print(e, file=sys.stderr)
        return 2
    stopped = {}
    for r in stopped_runs:
        stopped.setdefault(r["cell"], []).append(f"seed {r['seed']}: {r['unfinished']}")
    table["ns3_unfinished"] = ["; ".join(stopped.get(c, [])) for c in table["cell"]]
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    table.to_csv(a.out, index=False)
    print(json.dumps(counts(table)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
