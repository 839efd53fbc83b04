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
  * one row per claim qt-1..qt-9 (reference/claims.yaml), decided by the one rule of
    simulator/report/claim_rule.py: each claim is a list of comparisons (orderings with greater/less,
    thresholds with above/below, "within 15% of the paper's number" with within), a claim is
    reproduced / contradicted / inconclusive / not_testable (missing runs); every comparison with its
    Holm-adjusted p is in scorecard_notes.csv. qt-7 is computed from the traces, per seed, over every
    seed the traces hold (claim_rule.sample).

Merged by simulator.report.scorecard (`--qt-tables ... --qt-reference ...`), which appends these
rows after the unchanged M/M/1 rows. Also usable alone (rows to standard output):
  python -m simulator.report.scorecard_qtcol --tables results/tables/qt_*.csv \
      --traces results/traces/qt_*.csv --reference reference/qtcol/qtcolfair_results.csv
"""

from __future__ import annotations

import argparse
import math
import sys
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

from simulator.report import claim_rule as rule
from simulator.report.io import load_traces, read_csvs  # noqa: F401  (load_traces used by the qtcol chapter)
from simulator.report.verdicts import SCORECARD_COLUMNS, claims_in_order

PAPER = "qtcol"
VARIANT = "ns3_scenario"
BASE_RTT_MS = 40.04      # 2 x (20 + 0.01 + 0.01) ms propagation (the reference's "about 40.04 ms")
BDP_PKTS = 345.6         # 100 Mbit/s x 40.04 ms / (1448 x 8) bits, as the tables' bdp_pkts
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
REL_TOL = 0.15           # "within 15%" of the paper's number (claims qt-1, qt-2, qt-6)
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
        row = dict(paper=PAPER, item=item_name(ref), variant=VARIANT, metric=metric, paper_value=float(ref.value))
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


# --------------------------------------------------------------------------- claim helpers

@dataclass(frozen=True)
class Claim:
    """A claim decided by the one rule (claim_rule.decide), with what fills its scorecard row."""
    decision: rule.Decision
    metric: str = ""
    paper_value: float = np.nan
    headline: pd.Series | dict | None = None   # the table row whose numbers fill the scorecard row

    @property
    def verdict(self) -> str:
        return self.decision.verdict

    @property
    def p_value(self) -> float:
        return self.decision.p_value

    @property
    def note(self) -> str:
        return self.decision.note


def _decide(comps: list, missing: list[str], extra: str = "", what: str = "missing table cells") -> rule.Decision:
    """The claim's decision; not_testable when runs are missing; `extra` (our numbers) appended to the note."""
    if missing:
        return rule.decide([], not_testable=f"{what}: " + ", ".join(missing))
    d = rule.decide(comps)
    return replace(d, note=f"{d.note}. {extra}") if extra else d


def near(row, target: float, label: str, rel: float = REL_TOL) -> list[rule.Comparison]:
    """Our value within rel (15%) of the paper's number: two one-sided tests (claim_rule.within)."""
    return rule.within(row, (1 - rel) * target, (1 + rel) * target, f"{label} ({row['mean']:.4g}) near {target:g}")


def scaled(row, k: float) -> dict:
    """k times a table row (mean and sd scale exactly), to compare a row with a multiple of another."""
    return {"mean": k * float(row["mean"]), "sd": k * float(row["sd"]), "n": int(row["n"])}


def trace_headline(values) -> pd.Series:
    """A headline row for a per-seed statistic of the traces: mean, 95% CI and per-run range over seeds."""
    s = rule.sample(values)
    xs = np.array([v for v in values if not np.isnan(v)], dtype=float)
    half = stats.t.ppf(0.975, s["n"] - 1) * s["sd"] / math.sqrt(s["n"]) if s["n"] > 1 else np.nan
    lo, hi = (np.percentile(xs, [2.5, 97.5]) if s["n"] > 1 else (np.nan, np.nan))
    return pd.Series({"mean": s["mean"], "ci_low": s["mean"] - half, "ci_high": s["mean"] + half,
                      "run_p025": lo, "run_p975": hi, "n": s["n"]})


def _cells(df, study, specs, missing, **params):
    """{key: row} for specs {key: (algorithm, alpha, metric)}; absent ones go to `missing`."""
    out = {}
    for key, (alg, alpha, metric) in specs.items():
        c = qt_cell(df, study, alg, metric, alpha, **params)
        if c is None:
            missing.append(f"{study} {alg}{'' if alpha is None else f' a={alpha:g}'} {metric} {params or ''}".strip())
        else:
            out[key] = c
    return out


# --------------------------------------------------------------------------- claims

def claim_qt_1(df: pd.DataFrame) -> Claim:
    """Single flow, 5 BDP: QtCol converges to in-flight ~alpha*BDP (400/500) and RTT ~alpha*baseRTT
    (48/60 ms) without sustained oscillation. Per alpha: median in-flight and median RTT within 15% of
    the paper's; after warm-up p95 in-flight < 1.05 x p05 (spread within 5%)."""
    comps, missing, extra = [], [], []
    head = None
    for alpha, inflight, rtt in ((1.2, 400, 48.0), (1.5, 500, 60.0)):
        c = _cells(df, "qt_single_static", {
            "med": ("qtcol", alpha, "median_inflight"), "p05": ("qtcol", alpha, "p05_inflight"),
            "p95": ("qtcol", alpha, "p95_inflight"), "rtt": ("qtcol", alpha, "median_rtt_ms")}, missing, flows=1)
        if len(c) < 4:
            continue
        head = head if head is not None else c["med"]
        comps += near(c["med"], inflight, f"a={alpha:g} median in-flight")
        comps += near(c["rtt"], rtt, f"a={alpha:g} median RTT ms")
        comps.append(rule.less(c["p95"], scaled(c["p05"], 1.05), f"a={alpha:g} in-flight p95 < 1.05 x p05"))
        spread = c["p95"]["mean"] / max(c["p05"]["mean"], 1e-9) - 1
        extra.append(f"a={alpha:g} in-flight p05-p95 {c['p05']['mean']:.0f}-{c['p95']['mean']:.0f} ({100 * spread:.1f}% spread)")
    return Claim(_decide(comps, missing, "; ".join(extra)), "median_inflight", 400.0, head)


def claim_qt_2(df: pd.DataFrame) -> Claim:
    """CUBIC in-flight oscillates between ~1449 and 2070 packets, RTT 0.17-0.25 s (p05/p95 after
    warm-up each within 15% of the paper's ends)."""
    missing = []
    c = _cells(df, "qt_single_static", {
        "p05": ("cubic", None, "p05_inflight"), "p95": ("cubic", None, "p95_inflight"),
        "r05": ("cubic", None, "p05_rtt_ms"), "r95": ("cubic", None, "p95_rtt_ms")}, missing, flows=1)
    comps = []
    if not missing:
        comps = (near(c["p05"], 1449, "in-flight p05") + near(c["p95"], 2070, "in-flight p95")
                 + near(c["r05"], 170, "RTT p05 ms") + near(c["r95"], 250, "RTT p95 ms"))
    return Claim(_decide(comps, missing), "p95_inflight", 2070.0, c.get("p95"))


def claim_qt_3(df: pd.DataFrame) -> Claim:
    """BBR in-flight oscillates between 1 and 2 BDP, RTT between baseRTT and 2 baseRTT (40-80 ms):
    p05..p95 inside the bands (15% slack) and reaching their upper ends (p95 > 85% of 2 BDP / 80 ms)."""
    missing = []
    c = _cells(df, "qt_single_static", {
        "p05": ("bbr", None, "p05_inflight"), "p95": ("bbr", None, "p95_inflight"),
        "r05": ("bbr", None, "p05_rtt_ms"), "r95": ("bbr", None, "p95_rtt_ms")}, missing, flows=1)
    comps, extra = [], ""
    if not missing:
        b1, b2, r1, r2 = BDP_PKTS, 2 * BDP_PKTS, BASE_RTT_MS, 2 * BASE_RTT_MS
        comps = [
            rule.above(c["p05"], 0.85 * b1, f"in-flight p05 > 85% of 1 BDP ({0.85 * b1:.0f})"),
            rule.below(c["p95"], 1.15 * b2, f"in-flight p95 < 115% of 2 BDP ({1.15 * b2:.0f})"),
            rule.above(c["p95"], 0.85 * b2, f"in-flight swings up to 2 BDP: p95 > 85% of 2 BDP ({0.85 * b2:.0f})"),
            rule.above(c["r05"], 0.85 * r1, f"RTT p05 > 85% of baseRTT ({0.85 * r1:.1f} ms)"),
            rule.below(c["r95"], 1.15 * r2, f"RTT p95 < 115% of 2 baseRTT ({1.15 * r2:.1f} ms)"),
            rule.above(c["r95"], 0.85 * r2, f"RTT swings up to 2 baseRTT: p95 > 85% of 2 baseRTT ({0.85 * r2:.1f} ms)"),
        ]
        extra = (f"ours: in-flight p05-p95 {c['p05']['mean']:.0f}-{c['p95']['mean']:.0f} packets "
                 f"(1-2 BDP = {b1:.0f}-{b2:.0f}), RTT p05-p95 {c['r05']['mean']:.1f}-{c['r95']['mean']:.1f} ms")
    return Claim(_decide(comps, missing, extra), "p95_inflight", 690.0, c.get("p95"))


def claim_qt_4(df: pd.DataFrame) -> Claim:
    """5 flows, 5 BDP (400 s): utilization QtColFair (every alpha) > BBR > CUBIC."""
    missing, comps = [], []
    p = dict(flows=5, duration=400)
    bbr = qt_cell(df, "qt_multiflow", "bbr", "utilization", None, **p)
    cubic = qt_cell(df, "qt_multiflow", "cubic", "utilization", None, **p)
    for name, c in (("bbr", bbr), ("cubic", cubic)):
        if c is None:
            missing.append(f"qt_multiflow {name} utilization flows=5")
    fair = {a: qt_cell(df, "qt_multiflow", "qtcolfair", "utilization", a, **p) for a in (1.1, 1.2, 1.3, 1.4, 1.5)}
    fair = {a: c for a, c in fair.items() if c is not None}
    if not fair:
        missing.append("qt_multiflow qtcolfair utilization flows=5")
    extra = ""
    if not missing:
        for a, c in fair.items():
            comps.append(rule.greater(c, bbr, f"QtColFair a={a:g} > BBR"))
        comps.append(rule.greater(bbr, cubic, "BBR > CUBIC"))
        extra = ("utilization: " + ", ".join(f"QtColFair a={a:g} {c['mean']:.4f}" for a, c in fair.items())
                 + f", BBR {bbr['mean']:.4f}, CUBIC {cubic['mean']:.4f}")
    return Claim(_decide(comps, missing, extra), "utilization", 0.96, fair.get(1.2))


def claim_qt_5(df: pd.DataFrame) -> Claim:
    """5 flows: Jain > 0.9 for QtColFair (every alpha), CUBIC, BBR; QtCol about 1/N (we test < 0.5:
    the paper's own QtCol values are 0.22-0.45)."""
    missing, comps = [], []
    p = dict(flows=5, duration=400)
    specs = [("cubic", None), ("bbr", None)] + [("qtcolfair", a) for a in (1.1, 1.2, 1.3, 1.4, 1.5)]
    for alg, a in specs:
        c = qt_cell(df, "qt_multiflow", alg, "jain", a, **p)
        if c is None:
            if alg != "qtcolfair":
                missing.append(f"qt_multiflow {alg} jain")
            continue
        comps.append(rule.above(c, 0.9, f"{alg}{'' if a is None else f' a={a:g}'} Jain ({c['mean']:.3f}) > 0.9"))
    head = None
    for a in (1.1, 1.2, 1.5):
        c = qt_cell(df, "qt_multiflow", "qtcol", "jain", a, **p)
        if c is None:
            continue
        head = head if head is not None else c
        comps.append(rule.below(c, 0.5, f"qtcol a={a:g} Jain ({c['mean']:.3f}) < 0.5 (1/N = 0.2)"))
    if head is None:
        missing.append("qt_multiflow qtcol jain")
    return Claim(_decide(comps, missing), "jain", 0.2, head)


def claim_qt_6(df: pd.DataFrame) -> Claim:
    """Bandwidth change 100 -> 25 -> 500 Mbit/s: CUBIC's RTT swings widely (40-480 ms), BBR's less
    (45-58 ms), QtCol/QtColFair (alpha 1.2) stay near 50 ms. Tests: p95 RTT after warm-up
    CUBIC > BBR > each Qt algorithm, and each Qt algorithm's p05 and p95 within 15% of 50 ms."""
    missing = []
    c = _cells(df, "qt_bandwidth_change", {
        "cubic": ("cubic", None, "p95_rtt_ms"), "bbr": ("bbr", None, "p95_rtt_ms"),
        "qtcol": ("qtcol", 1.2, "p95_rtt_ms"), "qtcolfair": ("qtcolfair", 1.2, "p95_rtt_ms"),
        "qtcol05": ("qtcol", 1.2, "p05_rtt_ms"), "qtcolfair05": ("qtcolfair", 1.2, "p05_rtt_ms")}, missing)
    comps, extra = [], ""
    if not missing:
        comps.append(rule.greater(c["cubic"], c["bbr"], "p95 RTT CUBIC > BBR"))
        for q in ("qtcol", "qtcolfair"):
            comps.append(rule.greater(c["bbr"], c[q], f"p95 RTT BBR > {q}"))
            comps += near(c[q + "05"], 50, f"{q} p05 RTT ms") + near(c[q], 50, f"{q} p95 RTT ms")
        extra = (f"Paper: CUBIC 40-480 ms, BBR 45-58 ms; ours p95 CUBIC {c['cubic']['mean']:.0f} ms, "
                 f"BBR {c['bbr']['mean']:.1f} ms, QtCol {c['qtcol05']['mean']:.1f}-{c['qtcol']['mean']:.1f} ms, "
                 f"QtColFair {c['qtcolfair05']['mean']:.1f}-{c['qtcolfair']['mean']:.1f} ms (p05-p95)")
    return Claim(_decide(comps, missing, extra), "p95_rtt_ms", 50.0, c.get("qtcolfair"))


def window_mean(trace: pd.DataFrame, column: str, t0: float, t1: float) -> float:
    w = trace[(trace["t"] >= t0) & (trace["t"] < t1)][column]
    return float(w.mean()) if len(w) else np.nan


def _traces_of(traces, study, algorithm, alpha=None) -> dict:
    """{seed: time-ordered trace} of every seed of `study` and algorithm (and alpha) in the traces."""
    if traces is None or traces.empty:
        return {}
    m = (traces["study"] == study) & (traces["algorithm"] == algorithm)
    a = pd.to_numeric(traces["alpha"], errors="coerce") if "alpha" in traces else pd.Series(np.nan, index=traces.index)
    m &= a.isna() if alpha is None else np.isclose(a, alpha)
    t = traces[m]
    if t.empty:
        return {}
    seeds = t["seed"] if "seed" in t else pd.Series(0, index=t.index)
    return {s: g.sort_values("t") for s, g in t.groupby(seeds)}


def claim_qt_7(traces: pd.DataFrame | None) -> Claim:
    """Delay change 20 -> 40 -> 20 ms (at 25 s and 50 s): QtCol's in-flight collapses while the delay
    is higher; QtColFair keeps it. Per seed of the traces, the ratio of mean in-flight in [30, 50) s to
    that in [15, 25) s: QtCol's below 0.5 (collapse), QtColFair's above 1 (kept)."""
    qc = _traces_of(traces, "qt_delay_change", "qtcol", 1.2)
    qf = _traces_of(traces, "qt_delay_change", "qtcolfair", 1.2)
    missing = [n for n, t in (("qtcol a=1.2", qc), ("qtcolfair a=1.2", qf)) if not t]
    if missing:
        return Claim(_decide([], missing, what="missing delay-change traces"), "inflight_30_50s")

    def windows(per_seed):
        return {s: (window_mean(t, "inflight_0", 15, 25), window_mean(t, "inflight_0", 30, 50)) for s, t in per_seed.items()}
    wc, wf = windows(qc), windows(qf)
    ratio = lambda w: [d / b if b > 0 else np.nan for b, d in w.values()]  # noqa: E731
    comps = [rule.below(rule.sample(ratio(wc)), 0.5, "QtCol in-flight 30-50 s / 15-25 s < 0.5 (collapse)"),
             rule.above(rule.sample(ratio(wf)), 1.0, "QtColFair in-flight 30-50 s / 15-25 s > 1 (kept)")]
    per = lambda name, w: f"{name} " + ", ".join(f"seed {s}: {b:.0f} -> {d:.0f}" for s, (b, d) in w.items())  # noqa: E731
    extra = f"mean in-flight 15-25 s -> 30-50 s (packets): {per('QtCol', wc)}; {per('QtColFair', wf)}"
    if min(len(wc), len(wf)) < 2:
        extra += (f". The traces hold {len(wc)} QtCol and {len(wf)} QtColFair seed(s): a statistic of one "
                  "seed cannot be tested, so the claim stays inconclusive")
    return Claim(_decide(comps, [], extra), "inflight_30_50s", np.nan, trace_headline([d for _, d in wc.values()]))


def claim_qt_8(df: pd.DataFrame) -> Claim:
    """Deep buffers (2-10 BDP, 5 flows, 100 s): CUBIC's utilization falls and its mean RTT rises from
    2 to 10 BDP; QtColFair (alpha 1.2) holds ~96% (> 94.5%) with mean RTT within 1-2 baseRTT at every
    deep buffer; BBR stays below 95% at every deep buffer."""
    deep = [2, 3, 4, 5, 6, 8, 10]
    comps = []
    get = lambda alg, a, m, b: qt_cell(df, "qt_buffer_sweep", alg, m, a, flows=5, buffer_bdp=b)  # noqa: E731
    cells = {(alg, m, b): get(alg, a, m, b) for alg, a in (("cubic", None), ("bbr", None), ("qtcolfair", 1.2))
             for m in ("utilization", "mean_rtt_ms") for b in deep}
    missing = [f"qt_buffer_sweep {k[0]} {k[1]} {k[2]} BDP" for k, v in cells.items() if v is None]
    extra = ""
    if not missing:
        u2, u10 = cells[("cubic", "utilization", 2)], cells[("cubic", "utilization", 10)]
        r2, r10 = cells[("cubic", "mean_rtt_ms", 2)], cells[("cubic", "mean_rtt_ms", 10)]
        comps.append(rule.less(u10, u2, "CUBIC utilization falls: 10 BDP < 2 BDP"))
        comps.append(rule.greater(r10, r2, "CUBIC mean RTT rises: 10 BDP > 2 BDP"))
        for b in deep:
            comps.append(rule.above(cells[("qtcolfair", "utilization", b)], 0.945, f"QtColFair a=1.2 utilization > 94.5% at {b} BDP"))
        for b in deep:
            comps += rule.within(cells[("qtcolfair", "mean_rtt_ms", b)], 0.95 * BASE_RTT_MS, 2 * BASE_RTT_MS,
                                 f"QtColFair a=1.2 mean RTT ms at {b} BDP")
        for b in deep:
            comps.append(rule.below(cells[("bbr", "utilization", b)], 0.95, f"BBR utilization < 95% at {b} BDP"))
        fu = [cells[("qtcolfair", "utilization", b)]["mean"] for b in deep]
        fr = [cells[("qtcolfair", "mean_rtt_ms", b)]["mean"] for b in deep]
        bu = [cells[("bbr", "utilization", b)]["mean"] for b in deep]
        extra = (f"ours: CUBIC utilization {100 * u2['mean']:.1f}% at 2 BDP -> {100 * u10['mean']:.1f}% at 10 BDP, "
                 f"mean RTT {r2['mean']:.0f} -> {r10['mean']:.0f} ms; QtColFair utilization {100 * min(fu):.1f}-"
                 f"{100 * max(fu):.1f}%, mean RTT {min(fr):.0f}-{max(fr):.0f} ms; BBR utilization "
                 f"{100 * min(bu):.1f}-{100 * max(bu):.1f}%")
    return Claim(_decide(comps, missing, extra), "utilization", 0.958, cells.get(("qtcolfair", "utilization", 10)))


def claim_qt_9(df: pd.DataFrame) -> Claim:
    """Shallow buffers (0.003-0.75 BDP, 5 flows): CUBIC has the highest utilization, QtColFair
    (alpha 1.2) lies between CUBIC and BBR, BBR has the highest PLR; the orderings at every size."""
    shallow = [0.003, 0.05, 0.1, 0.25, 0.5, 0.75]
    comps, missing = [], []
    get = lambda alg, a, m, b: qt_cell(df, "qt_buffer_sweep", alg, m, a, flows=5, buffer_bdp=b)  # noqa: E731
    head = None
    for b in shallow:
        c = {(alg, m): get(alg, a, m, b) for alg, a in (("cubic", None), ("bbr", None), ("qtcolfair", 1.2))
             for m in ("utilization", "plr")}
        miss = [f"qt_buffer_sweep {k[0]} {k[1]} {b:g} BDP" for k, v in c.items() if v is None]
        if miss:
            missing += miss
            continue
        head = head if head is not None else c[("bbr", "plr")]
        comps.append(rule.greater(c[("cubic", "utilization")], c[("qtcolfair", "utilization")], f"{b:g} BDP util CUBIC > QtColFair"))
        comps.append(rule.greater(c[("qtcolfair", "utilization")], c[("bbr", "utilization")], f"{b:g} BDP util QtColFair > BBR"))
        comps.append(rule.greater(c[("bbr", "plr")], c[("cubic", "plr")], f"{b:g} BDP PLR BBR > CUBIC"))
        comps.append(rule.greater(c[("bbr", "plr")], c[("qtcolfair", "plr")], f"{b:g} BDP PLR BBR > QtColFair"))
    return Claim(_decide(comps, missing), "plr", np.nan, head)


TABLE_CLAIMS = {
    "qt-1": claim_qt_1, "qt-2": claim_qt_2, "qt-3": claim_qt_3, "qt-4": claim_qt_4, "qt-5": claim_qt_5,
    "qt-6": claim_qt_6, "qt-8": claim_qt_8, "qt-9": claim_qt_9,
}


def claim_rows(tables: pd.DataFrame, traces: pd.DataFrame | None) -> tuple[list[dict], list[dict]]:
    """(scorecard rows, note rows) of claims qt-1..qt-9, in claim order."""
    results = {cid: fn(tables) for cid, fn in TABLE_CLAIMS.items()}
    results["qt-7"] = claim_qt_7(traces)
    return claims_in_order(PAPER, VARIANT, results)


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
