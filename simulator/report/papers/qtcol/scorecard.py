"""The QtColFair paper (Ngwenya, Hlophe, Maharaj, Electronics 2025) on the scorecard: rows in
verdicts.SCORECARD_COLUMNS, paper `qtcol`, variant `ns3_scenario`.

  * one row per compared row of `qtcolfair_results.csv` (the paper's single ns-3 runs; the ranges
    the paper only states in its text, metrics outside METRIC_MAP, are not scored); verdict
    `inside` / `outside` a tolerance around the paper's number (TOLERANCES), `missing` when no study
    produced it. The paper has one run per number, so a per-run range is no test; the tolerances are
    the issue's targets: goodput within 1.5 Mbit/s (1.5 percentage points of utilization), median RTT
    within 15%, Jain's index within 0.05. For median in-flight (Little's law: in-flight = rate x RTT)
    we use the RTT's 15%, for PLR 0.01 absolute; both are our choice, not the issue's.
    These rows are no claims: p_value NaN, rule and note empty.
  * one row per claim qt-1..qt-9, decided by the one engine (simulator/report/claim_engine.py) from
    their `decide:` blocks in reference/qtcol/claims.yaml under the one rule (claim_rule.py): reproduced /
    contradicted / inconclusive / not_testable (missing runs); every comparison with its Holm-adjusted
    p is in scorecard_notes.csv. qt-7's per-seed window statistics of the delay-change traces and the
    sentences giving our numbers in the notes are named functions in
    simulator/report/papers/qtcol/claim_functions.py.

Written to results/claims/qtcol.csv by simulator/report/papers/qtcol/claims.py (the rule `claims`), which
simulator.report.scorecard joins with the other papers' rows. Also usable alone (rows to standard output):
  python -m simulator.report.papers.qtcol.scorecard --tables results/tables/qt_*.csv \
      --traces results/traces/qt_*.csv --reference reference/qtcol/qtcolfair_results.csv
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from simulator.report import claim_engine
from simulator.report.io import load_traces, read_csvs  # noqa: F401  (load_traces used by the qtcol chapter)
from simulator.report.verdicts import SCORECARD_COLUMNS

PAPER = "qtcol"
VARIANT = "ns3_scenario"
_CONSTANTS = claim_engine.load()["scoring"][PAPER]["constants"]    # one source: reference/qtcol/claims.yaml
BASE_RTT_MS = _CONSTANTS["base_rtt_ms"]   # 2 x (20 + 0.01 + 0.01) ms propagation
BDP_PKTS = _CONSTANTS["bdp_pkts"]         # 100 Mbit/s x 40.04 ms / (1448 x 8) bits, as the tables' bdp_pkts
# scenario of qtcolfair_results.csv -> (study, fixed parameters of that scenario's table points)
SCENARIO_STUDY = {
    "single_static": "qt_single_static",
    "multiflow": "qt_multiflow",
    "buffer_sweep": "qt_buffer_sweep",
}
# reference metric -> our metric (table column `metric`)
METRIC_MAP = {
    "goodput": "goodput_mbps", "median_rtt": "median_rtt_ms", "median_inflight": "median_inflight",
    "plr": "plr", "jain": "jain",
}
# our metric -> (kind, tolerance): |ours - paper| <= tol (abs) or <= tol * paper (rel)
TOLERANCES = {
    "goodput_mbps": ("abs", 1.5),     # issue: utilization within 1.5 percentage points of 100 Mbit/s
    "median_rtt_ms": ("rel", 0.15),   # issue: median RTT within 15%
    "jain": ("abs", 0.05),            # issue: Jain's index within 0.05
    "median_inflight": ("rel", 0.15),  # ours: as the RTT (in-flight = rate x RTT)
    "plr": ("abs", 0.01),             # ours: one percentage point
}
NUMBER_COLUMNS = ["mean", "ci_low", "ci_high", "run_p025", "run_p975", "n"]


# --------------------------------------------------------------------------- table lookup

def qt_cell(df: pd.DataFrame, study: str, algorithm: str, metric: str, alpha=None, **params) -> pd.Series | None:
    """The one table row of `study` for algorithm (and alpha: None = no alpha), metric and params."""
    if df is None or df.empty:
        return None
    m = (df["study"] == study) & (df["algorithm"] == algorithm) & (df["metric"] == metric)
    a = pd.to_numeric(df["alpha"], errors="coerce") if "alpha" in df else pd.Series(np.nan, index=df.index)
    m &= a.isna() if alpha is None or (isinstance(alpha, float) and math.isnan(alpha)) else np.isclose(a, float(alpha))
    for k, v in params.items():
        if k not in df:
            return None
        m &= np.isclose(pd.to_numeric(df[k], errors="coerce"), float(v))
    rows = df[m]
    return None if rows.empty else rows.iloc[0]


def reference_params(ref) -> dict:
    """Table parameters of a reference row: flows and buffer always; duration for multiflow."""
    params = {"flows": ref.flows, "buffer_bdp": ref.buffer_bdp}
    if ref.scenario == "multiflow":
        params["duration"] = ref.duration_s
    return params


def within(ours: float, paper: float, metric: str) -> bool:
    kind, tol = TOLERANCES[metric]
    limit = tol if kind == "abs" else tol * abs(paper)
    return bool(abs(ours - paper) <= limit + 1e-12)


def tolerance_text(metric: str) -> str:
    kind, tol = TOLERANCES[metric]
    return f"±{tol:g}" if kind == "abs" else f"±{100 * tol:g}%"


def item_name(ref) -> str:
    alg = ref.algorithm + ("" if pd.isna(ref.alpha) else f" a={float(ref.alpha):g}")
    where = f"{int(ref.flows)} flow{'s' if ref.flows > 1 else ''}"
    if ref.scenario == "buffer_sweep":
        where += f" {float(ref.buffer_bdp):g} BDP"
    return f"{ref.scenario} {where} {alg}"


def compared(reference: pd.DataFrame) -> pd.DataFrame:
    """The reference rows compared with our tables (metrics of METRIC_MAP, recomputed from the authors'
    result files); the other rows are ranges the paper states in its text, shown beside its figures."""
    return reference[reference["metric"].isin(list(METRIC_MAP))].reset_index(drop=True)


def number_rows(tables: pd.DataFrame, reference: pd.DataFrame) -> list[dict]:
    """One scorecard row per compared row of qtcolfair_results.csv."""
    rows = []
    for ref in compared(reference).itertuples(index=False):
        metric = METRIC_MAP[ref.metric]
        alpha = None if pd.isna(ref.alpha) else float(ref.alpha)
        c = qt_cell(tables, SCENARIO_STUDY[ref.scenario], ref.algorithm, metric, alpha, **reference_params(ref))
        row = dict(paper=PAPER, item=item_name(ref), variant=VARIANT, metric=metric, paper_value=float(ref.value),
                   paper_low=float(ref.value), paper_high=float(ref.value))
        if c is None:
            row.update(ours_mean=np.nan, ci_low=np.nan, ci_high=np.nan, run_p025=np.nan, run_p975=np.nan,
                       n_seeds=0, verdict="missing")
        else:
            row.update(ours_mean=c["mean"], ci_low=c["ci_low"], ci_high=c["ci_high"], run_p025=c["run_p025"],
                       run_p975=c["run_p975"], n_seeds=int(c["n"]),
                       verdict="inside" if within(c["mean"], float(ref.value), metric) else "outside")
        row.update(p_value=np.nan, rule="", note="")   # a published number is no claim: no test
        rows.append(row)
    return rows


# --------------------------------------------------------------------------- claims

def claim_rows(tables: pd.DataFrame, traces: pd.DataFrame | None) -> tuple[list[dict], list[dict]]:
    """(scorecard rows, note rows) of claims qt-1..qt-9, in claim order, decided by the engine from
    their decide: blocks in reference/qtcol/claims.yaml."""
    return claim_engine.paper_rows(PAPER, tables, traces)


# --------------------------------------------------------------------------- I/O

def load_tables(paths) -> pd.DataFrame:
    df = read_csvs(paths, PAPER)
    return pd.DataFrame(columns=["study", "paper", "algorithm", "alpha", "metric", *NUMBER_COLUMNS]) if df is None else df


def load_reference(path) -> pd.DataFrame:
    path = Path(path)
    if not path.exists():
        raise SystemExit(f"scorecard: reference table {path} not found; set config key reference_dir "
                         "to a folder laid out as the repository's reference/ (default reference)")
    ref = pd.read_csv(path)
    return ref[pd.to_numeric(ref["value"], errors="coerce").notna()].reset_index(drop=True)


def build(tables: pd.DataFrame, traces: pd.DataFrame | None, reference: pd.DataFrame):
    """(scorecard rows, note rows) of the QtColFair paper: numbers first, then claims qt-1..qt-9."""
    rows = number_rows(tables, reference)
    claims, notes = claim_rows(tables, traces)
    return rows + claims, notes


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", nargs="+", required=True)
    ap.add_argument("--traces", nargs="*", default=[])
    ap.add_argument("--reference", required=True)
    a = ap.parse_args()
    rows, notes = build(load_tables(a.tables), load_traces(a.traces), load_reference(a.reference))
    pd.DataFrame(rows, columns=SCORECARD_COLUMNS).to_csv(sys.stdout, index=False)
    for n in notes:
        print(f"# {n['item']}: {n['verdict']} ({n['note']})", file=sys.stderr)


if __name__ == "__main__":
    main()
