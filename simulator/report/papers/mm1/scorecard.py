"""The M/M/1 paper (Jackson) on the scorecard: its published numbers and claims against our runs.

Rows in verdicts.SCORECARD_COLUMNS, paper `mm1`, one set per model variant:
  * one row per published number (108 numbers of Tables V-XIII); verdict `inside` / `outside` the
    per-run range [run_p025, run_p975] (widened by half a unit of the paper's last printed digit,
    since the paper rounds), or `missing` when no study produced it;
  * one row per claim mm1-1..mm1-9; verdict `reproduced` / `contradicted` / `inconclusive` /
    `not_testable`, decided by the one rule (simulator/report/claim_rule.py) with its p_value, and
    every comparison as a note row (item, variant, verdict, note).

Names: the paper's rows are none, tahoe, reno, cubic; in variant as_published they ran as the published
code's catalogue entries (published_tahoe, ...; simulator/scenarios/mm1_queue.py run_name), in standard
as the textbook algorithms of the same names. A published number's item keeps the paper's row
('Table V lambda=5 tahoe'); a claim's comparisons name the algorithm that ran ('published_tahoe > none').

Claims: decided by the one engine (simulator/report/claim_engine.py) from their `decide:` blocks in
reference/mm1/claims.yaml (mm1-8's cwnd statistics and mm1-9's closed forms are named functions in
simulator/report/papers/mm1/claim_functions.py).
Written to results/claims/mm1.csv by simulator/report/papers/mm1/claims.py (the rule `claims`);
`simulator.report.scorecard` joins these rows with the other papers' into results/scorecard.csv.
"""
from __future__ import annotations

import logging
import math
from pathlib import Path

import numpy as np
import pandas as pd

from simulator.report import claim_engine, mm1k
from simulator.report.io import read_csvs
from simulator.report.verdicts import SCORECARD_COLUMNS
from simulator.scenarios.mm1_queue import run_name

log = logging.getLogger("scorecard")

PAPER = "mm1"
VARIANTS = ("as_published", "standard")
# The table study of each sweep; any other study with the same parameters is a fallback.
SWEEP_STUDY = {"lambda": "mm1_lambda", "K": "mm1_K", "N": "mm1_N"}
PARAM_COLUMNS = ("lambda", "mu", "K", "theta", "N")

# --------------------------------------------------------------------------- table lookup

def parse_fixed(fixed: str) -> dict[str, float]:
    """'mu=10;K=5;theta=1;N=500' -> {'mu': 10.0, ...}"""
    out = {}
    for part in str(fixed).split(";"):
        if part.strip():
            k, v = part.split("=")
            out[k.strip()] = float(v)
    return out


def select(df: pd.DataFrame, **params) -> pd.DataFrame:
    """Rows whose parameter columns equal params (numeric compare; NaN matches inf/NaN)."""
    mask = pd.Series(True, index=df.index)
    for k, v in params.items():
        col = df[k]
        if isinstance(v, str):
            mask &= col.astype(str) == v
        else:
            num = pd.to_numeric(col, errors="coerce")
            if v is None or (isinstance(v, float) and (math.isnan(v) or math.isinf(v))):
                mask &= num.isna() | np.isinf(num)
            else:
                mask &= np.isclose(num, float(v))
    return df[mask]


def cell(df: pd.DataFrame, study: str | None = None, **params) -> pd.Series | None:
    """The one table row for a grid point and metric (prefer `study`); None if absent."""
    rows = select(df, **params)
    if study is not None and (rows["study"] == study).any():
        rows = rows[rows["study"] == study]
    if rows.empty:
        return None
    if len(rows) > 1:
        log.warning("%d rows match %s (study %s); using the first", len(rows), params, study)
    return rows.iloc[0]


def printed_half_unit(text: str) -> float:
    """Half a unit of the last printed digit: '7.40' -> 0.005, '11.0' -> 0.05, '5' -> 0.5."""
    text = str(text).strip()
    decimals = len(text.split(".")[1]) if "." in text else 0
    return 0.5 * 10.0 ** (-decimals)


def number_rows(tables: pd.DataFrame, reference: pd.DataFrame, variant: str) -> list[dict]:
    """One scorecard row per published number, for one variant."""
    rows = []
    df = tables[tables["variant"] == variant]
    for ref in reference.itertuples(index=False):
        params = parse_fixed(ref.fixed)
        params[ref.sweep] = float(ref.x)
        c = cell(df, SWEEP_STUDY.get(ref.sweep), algorithm=run_name(variant, ref.algorithm), metric=ref.metric,
                 **params)
        paper_value = float(ref.value)
        row = dict(paper=PAPER, item=f"Table {ref.table} {ref.sweep}={ref.x:g} {ref.algorithm}",
                   variant=variant, metric=ref.metric, paper_value=paper_value,
                   paper_low=paper_value, paper_high=paper_value, p_value=np.nan, rule="", note="")
        if c is None:
            row.update(ours_mean=np.nan, ci_low=np.nan, ci_high=np.nan, run_p025=np.nan,
                       run_p975=np.nan, n_seeds=0, verdict="missing")
        else:
            tol = printed_half_unit(ref.value_text)
            inside = c.run_p025 - tol <= paper_value <= c.run_p975 + tol
            row.update(ours_mean=c["mean"], ci_low=c.ci_low, ci_high=c.ci_high, run_p025=c.run_p025,
                       run_p975=c.run_p975, n_seeds=int(c.n), verdict="inside" if inside else "outside")
        rows.append(row)
    return rows


# --------------------------------------------------------------------------- claims

FIXED = {  # the fixed parameters of each table study (paper Section IV; reference/mm1/claims.yaml repeats them)
    "mm1_lambda": dict(mu=10, K=5, theta=1, N=500),
    "mm1_K": {"mu": 10, "lambda": 15, "theta": 1, "N": 500},
    "mm1_N": {"mu": 10, "lambda": 10, "K": 5, "theta": 1},
}
ANALYTIC_STUDY = "mm1_analytic"
# the closed-form table of the report: agreement when the closed form is inside our 95% CI or our mean
# within max(REL_TOL * closed form, ABS_TOL[metric]) of it (mm1-9's tolerance in reference/mm1/claims.yaml)
REL_TOL = 0.03
ABS_TOL = {"throughput": 0.05, "avg_delay": 0.005, "loss_rate": 0.5}


def _variant_of(frame) -> str:
    vs = frame["variant"].unique() if frame is not None and "variant" in frame else ()
    return vs[0] if len(vs) == 1 else "standard"


def claim(cid: str, tables: pd.DataFrame | None = None, traces: pd.DataFrame | None = None,
          variant: str | None = None) -> claim_engine.Decided:
    """Claim `cid` decided by the engine from its entry of reference/mm1/claims.yaml, for one variant
    (default: the one variant of the rows given)."""
    tables = pd.DataFrame() if tables is None else tables
    variant = variant or _variant_of(tables if not tables.empty else traces)
    return claim_engine.decide_by_id(cid, tables, traces, variant)


def analytic_comparison(df: pd.DataFrame) -> pd.DataFrame:
    """Our 'none' runs of the analytic study vs the M/M/1/K closed forms, one row per cell and metric.
    `tol` is the claim's tolerance max(REL_TOL * closed form, ABS_TOL[metric]); `agree` (shown by the
    report's closed-form table) is: closed form inside our 95% CI, or our mean within `tol` of it."""
    a = df[(df["study"] == ANALYTIC_STUDY) & (df["algorithm"] == "none")]
    a = a[a["metric"].isin(ABS_TOL)]
    rows = []
    for _, r in a.iterrows():  # iterrows: 'lambda' is a keyword, itertuples would rename it
        lam, mu, K = float(r["lambda"]), float(r["mu"]), int(r["K"])
        cf = mm1k.closed_forms(lam, mu, K)[r.metric]
        has_prop = "prop_delay" in a.columns and pd.notna(r["prop_delay"]) and np.isfinite(r["prop_delay"])
        if r.metric == "avg_delay" and r.variant == "standard" and has_prop:
            cf += float(r["prop_delay"])  # standard: delivered packets also cross the one-way propagation delay
        tol = max(REL_TOL * abs(cf), ABS_TOL[r.metric])
        in_ci = r.ci_low <= cf <= r.ci_high
        agree = bool(in_ci or abs(r["mean"] - cf) <= tol)
        rows.append({"variant": r.variant, "lambda": lam, "mu": mu, "K": K, "metric": r.metric,
                     "closed_form": cf, "ours_mean": r["mean"], "ci_low": r.ci_low, "ci_high": r.ci_high,
                     "n_seeds": int(r.n), "inside_ci": bool(in_ci), "agree": agree,
                     "sd": r.get("sd", np.nan), "run_p025": r.get("run_p025", np.nan),
                     "run_p975": r.get("run_p975", np.nan), "tol": tol,
                     "study": r["study"], "point": r.get("point")})   # the grid point, for the figure's check
    return pd.DataFrame(rows)



def claim_rows(tables: pd.DataFrame, traces: pd.DataFrame | None) -> tuple[list[dict], list[dict]]:
    """(scorecard rows, note rows) of the claims mm1-1..mm1-9, each in both variants, in claim order."""
    return claim_engine.paper_rows(PAPER, tables, traces)


# --------------------------------------------------------------------------- inputs

def load_tables(paths) -> pd.DataFrame:
    df = read_csvs(paths, PAPER)
    if df is None:
        raise SystemExit("scorecard: no result tables given")
    return df


def load_reference(path) -> pd.DataFrame:
    path = Path(path)
    if not path.exists():
        raise SystemExit(f"scorecard: reference table {path} not found; set config key reference_dir "
                         "to a folder laid out as the repository's reference/ (default reference)")
    ref = pd.read_csv(path, dtype={"value": str})
    ref["value_text"] = ref["value"]
    ref["value"] = ref["value"].astype(float)
    return ref


def build(tables: pd.DataFrame, traces: pd.DataFrame | None, reference: pd.DataFrame):
    rows, notes = [], []
    for variant in VARIANTS:
        rows += number_rows(tables, reference, variant)
    r, n = claim_rows(tables, traces)
    rows += r
    notes += n
    return pd.DataFrame(rows, columns=SCORECARD_COLUMNS), pd.DataFrame(notes)
