"""Our ns2 model against NS-2 2.35 itself, on the NS-2 chapter's grid points (records: reference/ns2_sim/).

NS-2's records (simulator/validation/ns2_records.py: one run per grid point and seed, the seed's start
times the same as ours) become a table of the same shape as ours (simulator/report/aggregate.py: mean, sd,
n per point and metric), so the chapter puts the two side by side and decides each claim on NS-2's output
by the same engine and rule as on ours (claims_ns2.build).

Agreement: a grid point agrees when our mean goodput (throughput_mbps, in-order data delivered over the
run, all flows) is within TOLERANCE of NS-2's mean over the same seeds. Points are counted once per
configuration: the studies share some (the mesh, 3 flows, 1 Mbit/s, 100 ms point is in four of them).
`summary` gives the count the book's page 1 shows.
"""
from __future__ import annotations

from pathlib import Path

import pandas as pd

from simulator import study_files
from simulator.report import aggregate
from simulator.study import load_study

TOLERANCE = 0.05
METRIC = "throughput_mbps"
RECORDS_DIR = "ns2_sim"            # under the reference folder
SAME_RUN = ["algorithm", "topology", "flows", "bandwidth_mbps", "delay_ms", "queue", "window"]


def load_records(reference_dir="reference") -> dict:
    """NS-2's committed records, checked ({study: [record]}; Ns2RecordError names a bad file and line)."""
    from simulator.validation import ns2_records
    return ns2_records.check_dir(Path(reference_dir) / RECORDS_DIR)


def ns2_tables(records: dict, studies_dir="config/studies") -> pd.DataFrame:
    """NS-2's records as a table of our shape (aggregate.table): the point's parameters from its study file."""
    frames = []
    for study, recs in records.items():
        params = {p.path: p.params for p in load_study(study_files.find(studies_dir, study)).points()}
        runs = [{"study": study, "paper": "ns2", "point_path": r["point"], "params": params[r["point"]],
                 "seed": r["seed"], "metrics": r["metrics"]} for r in recs]
        frames.append(aggregate.table(runs))
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame()


def paired(ours: pd.DataFrame, ns2: pd.DataFrame, metric: str = METRIC) -> pd.DataFrame:
    """One row per grid point NS-2 ran: its study, parameters, our mean and NS-2's, ours / NS-2's."""
    cols = ["study", "point"]
    a = ours[ours["metric"] == metric]
    b = ns2[ns2["metric"] == metric][cols + ["mean", "n"]]
    both = a.merge(b, on=cols, suffixes=("_ours", "_ns2"))
    both["ratio"] = both["mean_ours"] / both["mean_ns2"]
    return both


def agreement(ours: pd.DataFrame, ns2: pd.DataFrame, tolerance: float = TOLERANCE) -> pd.DataFrame:
    """paired() on goodput, one row per distinct configuration (first study that runs it), with `inside`."""
    both = paired(ours, ns2).drop_duplicates(subset=[c for c in SAME_RUN if c in ours])
    both["inside"] = (both["ratio"] - 1).abs() <= tolerance
    return both.reset_index(drop=True)


def summary(ours: pd.DataFrame, ns2: pd.DataFrame | None = None, tolerance: float = TOLERANCE,
            reference_dir="reference", studies_dir="config/studies") -> tuple[int, int]:
    """(points inside, points compared): distinct grid points of the NS-2 chapter where our mean goodput is
    within `tolerance` of NS-2 2.35's. `ours`: our tables of the ns2_* studies (results/tables/ns2_*.csv);
    `ns2`: NS-2's (ns2_tables), loaded from the committed records when not given."""
    if ns2 is None:
        ns2 = ns2_tables(load_records(reference_dir), studies_dir)
    a = agreement(ours, ns2, tolerance)
    return int(a["inside"].sum()), len(a)


def by_algorithm(ours: pd.DataFrame, ns2: pd.DataFrame, tolerance: float = TOLERANCE) -> pd.DataFrame:
    """Points inside / compared per algorithm and window setting, and the worst ratio."""
    a = agreement(ours, ns2, tolerance)
    g = a.groupby(["window", "algorithm"])
    out = pd.DataFrame({"inside": g["inside"].sum().astype(int), "points": g.size(),
                        "ratio_min": g["ratio"].min(), "ratio_max": g["ratio"].max()})
    return out.sort_index(level=0, ascending=False).reset_index()
