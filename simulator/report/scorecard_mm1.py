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

Claim logic: one small function per claim, each taking the long table (all mm1 studies of one
variant; mm1-8 the cwnd traces) and returning the comparisons the claim makes, decided by
claim_rule.decide: orderings between table rows (Welch, Holm across the claim's comparisons),
per-seed trace statistics against thresholds (mm1-8, from cwnd_shapes), our means within a tolerance of the M/M/1/K
closed forms (mm1-9). A claim whose table cells are missing is `not_testable`.
`simulator.report.scorecard` merges these rows with the other papers' into results/scorecard.csv.
"""
from __future__ import annotations

import logging
import math
from dataclasses import replace
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pandas as pd

from simulator.report import claim_rule as rule, cwnd_shapes as shapes, mm1k
from simulator.report.claims_common import against_each
from simulator.report.io import read_csvs
from simulator.report.verdicts import SCORECARD_COLUMNS, claims_in_order
from simulator.scenarios.mm1_queue import paper_name, run_name

log = logging.getLogger("scorecard")

PAPER = "mm1"
VARIANTS = ("as_published", "standard")
# The table study of each sweep; any other study with the same parameters is a fallback.
SWEEP_STUDY = {"lambda": "mm1_lambda", "K": "mm1_K", "N": "mm1_N"}
PARAM_COLUMNS = ("lambda", "mu", "K", "theta", "N")
ANALYTIC_STUDY = "mm1_analytic"
# mm1-9: our mean must lie within max(REL_TOL * closed form, ABS_TOL[metric]) of the closed form.
REL_TOL = 0.03
ABS_TOL = {"throughput": 0.05, "avg_delay": 0.005, "loss_rate": 0.5}


def algorithms(df: pd.DataFrame) -> list[str]:
    """The algorithms of table rows `df`, in the order of the paper's row names (cubic, none, reno, tahoe)."""
    return sorted(df["algorithm"].unique(), key=lambda a: (paper_name(a), a))


def tcp_algorithms(df: pd.DataFrame) -> list[str]:
    return [a for a in algorithms(df) if a != "none"]


def named(df: pd.DataFrame, paper_algorithm: str) -> str:
    """The algorithm that ran the paper's row `paper_algorithm` in the rows `df` of one variant
    (published_reno for reno in as_published); the paper's name when `df` is not one variant's."""
    variants = df["variant"].unique() if "variant" in df else ()
    return run_name(variants[0], paper_algorithm) if len(variants) == 1 else paper_algorithm


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
                   variant=variant, metric=ref.metric, paper_value=paper_value, p_value=np.nan, rule="", note="")
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

class Decided(NamedTuple):
    """A claim decided by the rule, with what fills its scorecard row."""
    decision: rule.Decision
    metric: str
    paper_value: float = np.nan
    headline: pd.Series | None = None  # the table row whose numbers fill the scorecard row


def _vs(a, b) -> str:
    return f"{float(a['mean']):.4g} vs {float(b['mean']):.4g}"


def _decide(comps: list[rule.Comparison], missing: list[str]) -> rule.Decision:
    """The rule's decision; not testable when a table cell the claim needs is missing."""
    return rule.decide(comps, not_testable="missing table cells: " + ", ".join(missing) if missing else "")


def _extreme_claim(df, study, sweep_values, sweep, metric, target, among, lowest, extra_params):
    """target has the lowest (or highest) `metric` among `among` at every value of `sweep`: one
    comparison per other algorithm and sweep value, and the cells that are missing."""
    pairs, absent = against_each(lambda alg, params: cell(df, study, algorithm=alg, metric=metric, **params),
                                 sweep_values, sweep, target, among, extra_params)
    missing = [f"{study} {sweep}={x} {alg}" for x, alg in absent]
    comps = []
    for x, t, other, o in pairs:
        lab = f"{sweep}={x:g} {metric}: {target} {'<' if lowest else '>'} {other} ({_vs(t, o)})"
        comps.append(rule.less(t, o, lab) if lowest else rule.greater(t, o, lab))
    return comps, missing


FIXED = {  # the fixed parameters of each table study (paper Section IV)
    "mm1_lambda": dict(mu=10, K=5, theta=1, N=500),
    "mm1_K": {"mu": 10, "lambda": 15, "theta": 1, "N": 500},
    "mm1_N": {"mu": 10, "lambda": 10, "K": 5, "theta": 1},
}


def claim_mm1_1(df: pd.DataFrame) -> Decided:
    """At lambda=5 every TCP variant has higher throughput than none."""
    comps, missing = [], []
    none = cell(df, "mm1_lambda", algorithm="none", metric="throughput", **{"lambda": 5}, **FIXED["mm1_lambda"])
    if none is None:
        missing.append("mm1_lambda lambda=5 none")
    else:
        for alg in tcp_algorithms(df):
            c = cell(df, "mm1_lambda", algorithm=alg, metric="throughput", **{"lambda": 5}, **FIXED["mm1_lambda"])
            if c is None:
                missing.append(f"mm1_lambda lambda=5 {alg}")
            else:
                comps.append(rule.greater(c, none, f"{alg} > none ({_vs(c, none)})"))
    return Decided(_decide(comps, missing), "throughput", 4.793, none)


def claim_mm1_2(df: pd.DataFrame) -> Decided:
    """Cubic has the lowest loss among TCP variants at every lambda, K and N of the tables."""
    comps, missing = [], []
    tcp, cubic = tcp_algorithms(df), named(df, "cubic")
    for study, sweep, values in (("mm1_lambda", "lambda", (5, 10, 15)), ("mm1_K", "K", (1, 5, 10)),
                                 ("mm1_N", "N", (50, 300, 1000))):
        c, m = _extreme_claim(df, study, values, sweep, "loss_rate", cubic, tcp, True, FIXED[study])
        comps += c
        missing += m
    head = cell(df, "mm1_lambda", algorithm=cubic, metric="loss_rate", **{"lambda": 15}, **FIXED["mm1_lambda"])
    return Decided(_decide(comps, missing), "loss_rate", 4.60, head)


def claim_mm1_3(df: pd.DataFrame) -> Decided:
    """At lambda=15 none has the highest throughput and the highest loss of all."""
    comps, missing = [], []
    algs = algorithms(df)
    for metric in ("throughput", "loss_rate"):
        c, m = _extreme_claim(df, "mm1_lambda", (15,), "lambda", metric, "none", algs, False, FIXED["mm1_lambda"])
        comps += c
        missing += m
    head = cell(df, "mm1_lambda", algorithm="none", metric="throughput", **{"lambda": 15}, **FIXED["mm1_lambda"])
    return Decided(_decide(comps, missing), "throughput", 9.838, head)


def claim_mm1_4(df: pd.DataFrame) -> Decided:
    """Reno has the highest loss of all at K=1."""
    algs, reno = algorithms(df), named(df, "reno")
    comps, missing = _extreme_claim(df, "mm1_K", (1,), "K", "loss_rate", reno, algs, False, FIXED["mm1_K"])
    head = cell(df, "mm1_K", algorithm=reno, metric="loss_rate", K=1, **FIXED["mm1_K"])
    return Decided(_decide(comps, missing), "loss_rate", 84.4, head)


def claim_mm1_5(df: pd.DataFrame) -> Decided:
    """Cubic has the lowest delay among TCP variants at lambda=5, 15 and at K=5, 10."""
    tcp, cubic = tcp_algorithms(df), named(df, "cubic")
    c1, m1 = _extreme_claim(df, "mm1_lambda", (5, 15), "lambda", "avg_delay", cubic, tcp, True, FIXED["mm1_lambda"])
    c2, m2 = _extreme_claim(df, "mm1_K", (5, 10), "K", "avg_delay", cubic, tcp, True, FIXED["mm1_K"])
    head = cell(df, "mm1_lambda", algorithm=cubic, metric="avg_delay", **{"lambda": 15}, **FIXED["mm1_lambda"])
    return Decided(_decide(c1 + c2, m1 + m2), "avg_delay", 0.3381, head)


def _trend(df, alg, metric, rising):
    """The comparison of metric at N=1000 vs N=50 (study mm1_N) for one algorithm (None when a cell
    is missing), and the N=1000 row."""
    lo = cell(df, "mm1_N", algorithm=alg, metric=metric, N=50, **FIXED["mm1_N"])
    hi = cell(df, "mm1_N", algorithm=alg, metric=metric, N=1000, **FIXED["mm1_N"])
    if lo is None or hi is None:
        return None, hi
    lab = f"{alg} {metric} N=1000 {'>' if rising else '<'} N=50 ({_vs(hi, lo)})"
    return (rule.greater(hi, lo, lab) if rising else rule.less(hi, lo, lab)), hi


def _trend_claim(df, metric, directions, head_alg, paper_value) -> Decided:
    """`directions`: (the paper's algorithm name, rising) pairs; `head_alg` a paper's name too."""
    comps, missing, head = [], [], None
    directions, head_alg = [(named(df, a), r) for a, r in directions], named(df, head_alg)
    for alg, rising in directions:
        c, hi = _trend(df, alg, metric, rising)
        if c is None:
            missing.append(f"mm1_N {alg}")
        else:
            comps.append(c)
        head = hi if alg == head_alg else head
    return Decided(_decide(comps, missing), metric, paper_value, head)


def claim_mm1_6(df: pd.DataFrame) -> Decided:
    """Throughput of Tahoe and Reno rises with N (50 -> 1000)."""
    return _trend_claim(df, "throughput", (("tahoe", True), ("reno", True)), "tahoe", 9.3578)


def claim_mm1_7(df: pd.DataFrame) -> Decided:
    """Reno's loss rises with N while Tahoe's falls (50 -> 1000)."""
    return _trend_claim(df, "loss_rate", (("reno", True), ("tahoe", False)), "reno", 16.0)


# ----- mm1-8: cwnd traces

def _seeds(st: dict, key: str) -> dict:
    """The per-seed values of one statistic, as a sample for the rule."""
    return rule.sample([s[key] for s in st["per_seed"].values()])


def claim_mm1_8(traces: pd.DataFrame | None) -> Decided:
    """Tahoe resets to 1 after losses; Reno halves; Cubic regrows concave then convex toward the
    window before the loss.

    One value per seed (pooled over the N of that seed), compared over the seeds by the rule. On drop
    events (runs of consecutive cwnd decreases): Tahoe's share of drops ending at cwnd <= 1 above 0.9;
    Reno's median after/before ratio within (0.3, 0.7) and its share of drops ending at 1 below 0.5;
    Cubic's share of cycles in which cwnd regrows to >= 80% of the window before the previous drop
    above 0.5. On Cubic's regrowths between two drops (cwnd_shapes): the share of judged regrowths
    (at least cwnd_shapes.MIN_STEPS slopes) whose slope dcwnd/dt first falls then rises, above 0.5.
    """
    if traces is None or traces.empty:
        return Decided(rule.decide([], not_testable="no cwnd traces"), "cwnd")
    n = {a: named(traces, a) for a in ("tahoe", "reno", "cubic")}   # the algorithms that ran
    s = {n[a]: shapes.trace_stats(traces, n[a]) for a in ("tahoe", "reno", "cubic")}
    missing = [a for a, st in s.items() if st["n_drops"] == 0]
    if missing:
        return Decided(rule.decide([], not_testable="no drops in the traces of " + ", ".join(missing)), "cwnd")
    cubic = shapes.shape_stats(traces, n["cubic"])
    shape_words = (f"a regrowth (between two drops, from its first to its last increase) is judged with >= "
                   f"{shapes.MIN_STEPS} slopes dcwnd/dt, and is concave then convex when its minimum slope has >= "
                   f"{shapes.MIN_SIDE} slope steps on each side, >= 2/3 of those before it falling and >= 2/3 "
                   "of those after it rising")
    per_seed = "; ".join(f"seed {k}: {v['ctc']} of {v['judged']} judged ({v['epochs']} regrowths, "
                         f"{v['past_max']} judged ending above the window before the loss)" for k, v in cubic.items())
    if not any(v["judged"] for v in cubic.values()):
        return Decided(rule.decide([], not_testable=(
            f"no {n['cubic']} regrowth between two drops is long enough to judge its shape ({shape_words}; {per_seed})")), "cwnd")
    t, r, c = n["tahoe"], n["reno"], n["cubic"]
    comps = [rule.above(_seeds(s[t], "share_to_one"), 0.9, f"{t} resets to 1: share of drops to cwnd 1 > 0.9"),
             *rule.within(_seeds(s[r], "median_ratio"), 0.3, 0.7, f"{r} halves: median after/before"),
             rule.below(_seeds(s[r], "share_to_one"), 0.5, f"{r} halves: share of drops to cwnd 1 < 0.5"),
             rule.above(_seeds(s[c], "regrow"), 0.5,
                        f"{c} regrows toward previous max: share of cycles regrowing to 80% > 0.5"),
             rule.above(rule.sample([v["share"] for v in cubic.values()]), 0.5,
                        f"{c} regrows concave then convex: share of judged regrowths > 0.5")]
    decision = rule.decide(comps)

    def pct(x):
        return "n/a" if np.isnan(x) else f"{100 * x:.0f}%"

    def describe(a, st):
        seeds = ", ".join(f"seed {k}: {v['n_drops']} drops, {pct(v['share_to_one'])} to 1, median "
                          f"{v['median_ratio']:.2f}, regrowth {pct(v['regrow'])}" for k, v in st["per_seed"].items())
        return (f"{a}: {st['n_drops']} drops, {pct(st['share_to_one'])} to cwnd 1, median after/before "
                f"{st['median_ratio']:.2f}, regrowth to 80% of previous max in {pct(st['regrow'])} of "
                f"{st['n_cycles']} cycles ({seeds})")
    n_seeds = min(len(st["per_seed"]) for st in s.values())
    extra = ("pooled over N and seeds: " + "; ".join(describe(a, st) for a, st in s.items())
             + f". Cubic's shape: {shape_words}; concave then convex: {per_seed}")
    if n_seeds < 2:
        extra += ". The traces hold one seed: per-seed statistics cannot be tested (more seeds of study mm1_cwnd needed)"
    elif sum(v["judged"] > 0 for v in cubic.values()) < 2:
        extra += f". Only one seed has a {c} regrowth long enough to judge: its share cannot be tested"
    return Decided(replace(decision, note=f"{decision.note}. {extra}"), "cwnd")


# ----- mm1-9: analytic M/M/1/K

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
                     "run_p975": r.get("run_p975", np.nan), "tol": tol})
    return pd.DataFrame(rows)


def claim_mm1_9(df: pd.DataFrame) -> Decided:
    """'none' matches the M/M/1/K closed forms (blocking, sojourn, throughput) when theta is infinite:
    at every cell and metric of the analytic study, our mean lies within the tolerance of the closed
    form (two one-sided comparisons, `rule.within`)."""
    cmp = analytic_comparison(df)
    if cmp.empty:
        return Decided(rule.decide([], not_testable=f"no rows of study {ANALYTIC_STUDY}"), "loss_rate")
    comps = []
    for _, c in cmp.iterrows():
        ours = {"mean": c.ours_mean, "sd": c.sd, "n": c.n_seeds}
        lab = (f"lambda={c['lambda']:g} K={c.K} {c.metric} {c.ours_mean:.4g} (closed form {c.closed_form:.4g} "
               f"± {c.tol:.3g})")
        comps += rule.within(ours, c.closed_form - c.tol, c.closed_form + c.tol, lab)
    decision = rule.decide(comps)
    far = cmp[(cmp.ours_mean - cmp.closed_form).abs() > cmp.tol]
    extra = (f"tolerance max({REL_TOL:.0%} of the closed form, {ABS_TOL['throughput']} packets/s, "
             f"{ABS_TOL['avg_delay']} s, {ABS_TOL['loss_rate']} points of loss); closed form inside our 95% CI "
             f"in {int(cmp['inside_ci'].sum())} of {len(cmp)} cells")
    if not far.empty:
        extra += "; mean outside the tolerance: " + "; ".join(
            f"lambda={b['lambda']:g} K={b.K} {b.metric} ours {b.ours_mean:.4g} vs {b.closed_form:.4g}"
            for _, b in far.iterrows())
    decided = Decided(replace(decision, note=f"{decision.note}. {extra}"), "loss_rate")
    loss = cmp[cmp.metric == "loss_rate"]
    if not loss.empty:  # headline: the loss-rate cell farthest (relatively) from its closed form
        err = (loss.ours_mean - loss.closed_form).abs() / loss.closed_form.abs().clip(lower=1e-12)
        worst = loss.loc[err.idxmax()]
        head = pd.Series({"mean": worst.ours_mean, "ci_low": worst.ci_low, "ci_high": worst.ci_high,
                          "run_p025": worst.run_p025, "run_p975": worst.run_p975, "n": worst.n_seeds})
        decided = decided._replace(paper_value=worst.closed_form, headline=head)
    return decided


CLAIMS = {
    "mm1-1": claim_mm1_1, "mm1-2": claim_mm1_2, "mm1-3": claim_mm1_3, "mm1-4": claim_mm1_4,
    "mm1-5": claim_mm1_5, "mm1-6": claim_mm1_6, "mm1-7": claim_mm1_7, "mm1-9": claim_mm1_9,
}


def claim_rows(tables: pd.DataFrame, traces: pd.DataFrame | None, variant: str) -> tuple[list[dict], list[dict]]:
    """(scorecard rows, note rows) of the claims mm1-1..mm1-9 of one variant, in claim order."""
    df = tables[tables["variant"] == variant]
    tr = None if traces is None else traces[traces["variant"] == variant]
    results = {cid: fn(df) for cid, fn in CLAIMS.items()}
    results["mm1-8"] = claim_mm1_8(tr)
    return claims_in_order(PAPER, variant, results)


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
    for variant in VARIANTS:
        r, n = claim_rows(tables, traces, variant)
        rows += r
        notes += n
    return pd.DataFrame(rows, columns=SCORECARD_COLUMNS), pd.DataFrame(notes)
