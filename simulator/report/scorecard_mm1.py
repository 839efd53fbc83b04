"""The M/M/1 paper (Jackson) on the scorecard: its published numbers and claims against our runs.

Rows in verdicts.SCORECARD_COLUMNS, paper `mm1`, one set per model variant:
  * one row per published number (108 numbers of Tables V-XIII); verdict `inside` / `outside` the
    per-run range [run_p025, run_p975] (widened by half a unit of the paper's last printed digit,
    since the paper rounds), or `missing` when no study produced it;
  * one row per claim mm1-1..mm1-9; verdict `reproduced` / `not_reproduced` / `untestable`, with
    the reasoning as a note row (item, variant, verdict, note).

Claim logic: one small function per claim, each taking the long table (all mm1 studies of one
variant) and returning a ClaimResult. Orderings are decided on our means; the note says which
comparisons are significant (95% CIs disjoint) and which are within the CIs.
`simulator.report.scorecard` merges these rows with the other papers' into results/scorecard.csv.
"""
from __future__ import annotations

import logging
import math
from pathlib import Path

import numpy as np
import pandas as pd

from simulator.report import mm1k
from simulator.report.io import read_csvs
from simulator.report.verdicts import SCORECARD_COLUMNS, ClaimResult, compare_greater, decided_rows, verdict_from

log = logging.getLogger("scorecard")

PAPER = "mm1"
VARIANTS = ("as_published", "standard")
# The table study of each sweep; any other study with the same parameters is a fallback.
SWEEP_STUDY = {"lambda": "mm1_lambda", "K": "mm1_K", "N": "mm1_N"}
PARAM_COLUMNS = ("lambda", "mu", "K", "theta", "N")
ANALYTIC_STUDY = "mm1_analytic"
# mm1-9: closed form agrees if inside our 95% CI or within max(REL_TOL * value, ABS_TOL[metric]).
REL_TOL = 0.03
ABS_TOL = {"throughput": 0.05, "avg_delay": 0.005, "loss_rate": 0.5}


def tcp_algorithms(df: pd.DataFrame) -> list[str]:
    return sorted(a for a in df["algorithm"].unique() if a != "none")


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
        c = cell(df, SWEEP_STUDY.get(ref.sweep), algorithm=ref.algorithm, metric=ref.metric, **params)
        paper_value = float(ref.value)
        row = dict(paper=PAPER, item=f"Table {ref.table} {ref.sweep}={ref.x:g} {ref.algorithm}",
                   variant=variant, metric=ref.metric, paper_value=paper_value)
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

def _extreme_claim(df, study, sweep_values, sweep, metric, target, among, lowest, extra_params):
    """target has the lowest (or highest) `metric` among `among` at every value of `sweep`."""
    comps, missing = [], []
    for x in sweep_values:
        params = dict(extra_params, **{sweep: x})
        t = cell(df, study, algorithm=target, metric=metric, **params)
        if t is None:
            missing.append(f"{study} {sweep}={x} {target}")
            continue
        for other in among:
            if other == target:
                continue
            o = cell(df, study, algorithm=other, metric=metric, **params)
            if o is None:
                missing.append(f"{study} {sweep}={x} {other}")
                continue
            lab = f"{sweep}={x:g} {target} {'<' if lowest else '>'} {other}"
            comps.append(compare_greater(o, t, lab) if lowest else compare_greater(t, o, lab))
    return comps, missing


FIXED = {  # the fixed parameters of each table study (paper Section IV)
    "mm1_lambda": dict(mu=10, K=5, theta=1, N=500),
    "mm1_K": {"mu": 10, "lambda": 15, "theta": 1, "N": 500},
    "mm1_N": {"mu": 10, "lambda": 10, "K": 5, "theta": 1},
}


def claim_mm1_1(df: pd.DataFrame) -> ClaimResult:
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
                comps.append(compare_greater(c, none, f"{alg} > none"))
    v, note = verdict_from(comps, missing)
    return ClaimResult(v, note, "throughput", 4.793, none)


def claim_mm1_2(df: pd.DataFrame) -> ClaimResult:
    """Cubic has the lowest loss among TCP variants at every lambda, K and N of the tables."""
    comps, missing = [], []
    tcp = tcp_algorithms(df)
    for study, sweep, values in (("mm1_lambda", "lambda", (5, 10, 15)), ("mm1_K", "K", (1, 5, 10)),
                                 ("mm1_N", "N", (50, 300, 1000))):
        c, m = _extreme_claim(df, study, values, sweep, "loss_rate", "cubic", tcp, True, FIXED[study])
        comps += c
        missing += m
    v, note = verdict_from(comps, missing)
    head = cell(df, "mm1_lambda", algorithm="cubic", metric="loss_rate", **{"lambda": 15}, **FIXED["mm1_lambda"])
    return ClaimResult(v, note, "loss_rate", 4.60, head)


def claim_mm1_3(df: pd.DataFrame) -> ClaimResult:
    """At lambda=15 none has the highest throughput and the highest loss of all."""
    comps, missing = [], []
    algs = sorted(df["algorithm"].unique())
    for metric in ("throughput", "loss_rate"):
        c, m = _extreme_claim(df, "mm1_lambda", (15,), "lambda", metric, "none", algs, False, FIXED["mm1_lambda"])
        comps += c
        missing += m
    v, note = verdict_from(comps, missing)
    head = cell(df, "mm1_lambda", algorithm="none", metric="throughput", **{"lambda": 15}, **FIXED["mm1_lambda"])
    return ClaimResult(v, note, "throughput", 9.838, head)


def claim_mm1_4(df: pd.DataFrame) -> ClaimResult:
    """Reno has the highest loss of all at K=1."""
    algs = sorted(df["algorithm"].unique())
    comps, missing = _extreme_claim(df, "mm1_K", (1,), "K", "loss_rate", "reno", algs, False, FIXED["mm1_K"])
    v, note = verdict_from(comps, missing)
    head = cell(df, "mm1_K", algorithm="reno", metric="loss_rate", K=1, **FIXED["mm1_K"])
    return ClaimResult(v, note, "loss_rate", 84.4, head)


def claim_mm1_5(df: pd.DataFrame) -> ClaimResult:
    """Cubic has the lowest delay among TCP variants at lambda=5, 15 and at K=5, 10."""
    tcp = tcp_algorithms(df)
    c1, m1 = _extreme_claim(df, "mm1_lambda", (5, 15), "lambda", "avg_delay", "cubic", tcp, True, FIXED["mm1_lambda"])
    c2, m2 = _extreme_claim(df, "mm1_K", (5, 10), "K", "avg_delay", "cubic", tcp, True, FIXED["mm1_K"])
    v, note = verdict_from(c1 + c2, m1 + m2)
    head = cell(df, "mm1_lambda", algorithm="cubic", metric="avg_delay", **{"lambda": 15}, **FIXED["mm1_lambda"])
    return ClaimResult(v, note, "avg_delay", 0.3381, head)


def _trend(df, alg, metric, rising):
    """Comparison of metric at N=1000 vs N=50 (study mm1_N) for one algorithm."""
    lo = cell(df, "mm1_N", algorithm=alg, metric=metric, N=50, **FIXED["mm1_N"])
    hi = cell(df, "mm1_N", algorithm=alg, metric=metric, N=1000, **FIXED["mm1_N"])
    if lo is None or hi is None:
        return None, hi
    lab = f"{alg} {metric} N=1000 {'>' if rising else '<'} N=50"
    return (compare_greater(hi, lo, lab) if rising else compare_greater(lo, hi, lab)), hi


def claim_mm1_6(df: pd.DataFrame) -> ClaimResult:
    """Throughput of Tahoe and Reno rises with N (50 -> 1000)."""
    comps, missing, head = [], [], None
    for alg in ("tahoe", "reno"):
        c, hi = _trend(df, alg, "throughput", rising=True)
        if c is None:
            missing.append(f"mm1_N {alg}")
        else:
            comps.append(c)
        head = hi if alg == "tahoe" else head
    v, note = verdict_from(comps, missing)
    return ClaimResult(v, note, "throughput", 9.3578, head)


def claim_mm1_7(df: pd.DataFrame) -> ClaimResult:
    """Reno's loss rises with N while Tahoe's falls (50 -> 1000)."""
    comps, missing, head = [], [], None
    for alg, rising in (("reno", True), ("tahoe", False)):
        c, hi = _trend(df, alg, "loss_rate", rising=rising)
        if c is None:
            missing.append(f"mm1_N {alg}")
        else:
            comps.append(c)
        head = hi if alg == "reno" else head
    v, note = verdict_from(comps, missing)
    return ClaimResult(v, note, "loss_rate", 16.0, head)


# ----- mm1-8: cwnd traces

def drop_events(cwnd: np.ndarray) -> list[tuple[float, float]]:
    """(before, after) of each run of consecutive decreases of a cwnd trace."""
    events, i, n = [], 1, len(cwnd)
    while i < n:
        if cwnd[i] < cwnd[i - 1] - 1e-12:
            before = cwnd[i - 1]
            while i + 1 < n and cwnd[i + 1] < cwnd[i] - 1e-12:
                i += 1
            events.append((float(before), float(cwnd[i])))
        i += 1
    return events


def regrowth_share(cwnd: np.ndarray, frac: float = 0.8) -> tuple[int, int]:
    """Of the drops followed by another drop, how many regrew to >= frac * the previous max first."""
    events_idx, i, n = [], 1, len(cwnd)
    while i < n:
        if cwnd[i] < cwnd[i - 1] - 1e-12:
            start, before = i, cwnd[i - 1]
            while i + 1 < n and cwnd[i + 1] < cwnd[i] - 1e-12:
                i += 1
            events_idx.append((start, i, before))
        i += 1
    ok = 0
    for (s0, e0, wmax), (s1, _, _) in zip(events_idx, events_idx[1:]):
        peak = cwnd[e0:s1].max() if s1 > e0 else cwnd[e0]
        ok += peak >= frac * wmax
    return int(ok), max(len(events_idx) - 1, 0)


def trace_stats(traces: pd.DataFrame, alg: str) -> dict:
    """Pooled drop statistics of one algorithm's traces (all N, seeds)."""
    keys = [c for c in traces.columns if c not in ("t", "cwnd")]
    ev, ok, tot = [], 0, 0
    for _, g in traces[traces["algorithm"] == alg].groupby(keys, dropna=False, sort=False):
        w = g.sort_values("t")["cwnd"].to_numpy(float)
        ev += drop_events(w)
        o, t = regrowth_share(w)
        ok, tot = ok + o, tot + t
    if not ev:
        return dict(n_drops=0)
    before = np.array([b for b, _ in ev])
    after = np.array([a for _, a in ev])
    ratio = after / before
    return dict(n_drops=len(ev), share_to_one=float(np.mean(after <= 1 + 1e-9)),
                median_ratio=float(np.median(ratio)),
                share_halved=float(np.mean((ratio >= 0.3) & (ratio <= 0.7))),
                regrow=(ok / tot) if tot else np.nan, n_cycles=tot)


def claim_mm1_8(traces: pd.DataFrame | None) -> ClaimResult:
    """Tahoe resets to 1 after losses; Reno halves; Cubic regrows toward the previous maximum.

    Criteria on drop events (runs of consecutive cwnd decreases), pooled over N and seeds:
    Tahoe >= 90% of drops end at cwnd <= 1; Reno: median after/before ratio in [0.3, 0.7]
    and under half of its drops end at 1; Cubic: median ratio below 1 and, in >= half of its
    cycles, cwnd regrows to >= 80% of the window before the previous drop.
    """
    if traces is None or traces.empty:
        return ClaimResult("untestable", "no cwnd traces", "cwnd")
    s = {a: trace_stats(traces, a) for a in ("tahoe", "reno", "cubic")}
    missing = [a for a, st in s.items() if st["n_drops"] == 0]
    if missing:
        return ClaimResult("untestable", "no drops in the traces of " + ", ".join(missing), "cwnd")
    checks = {
        "tahoe resets to 1": s["tahoe"]["share_to_one"] >= 0.9,
        "reno halves": 0.3 <= s["reno"]["median_ratio"] <= 0.7 and s["reno"]["share_to_one"] < 0.5,
        "cubic regrows toward previous max": s["cubic"]["median_ratio"] < 1
        and (s["cubic"]["regrow"] >= 0.5 if not np.isnan(s["cubic"]["regrow"]) else False),
    }
    def describe(a, st):
        regrow = "n/a" if np.isnan(st["regrow"]) else "{:.0f}%".format(100 * st["regrow"])
        return (f"{a}: {st['n_drops']} drops, {100 * st['share_to_one']:.0f}% to cwnd 1, median "
                f"after/before {st['median_ratio']:.2f}, regrowth to 80% of previous max in {regrow} "
                f"of {st['n_cycles']} cycles")
    note = "; ".join(describe(a, st) for a, st in s.items())
    failed = [k for k, ok in checks.items() if not ok]
    note += ". " + ("all three patterns present" if not failed else "missing: " + ", ".join(failed))
    return ClaimResult("not_reproduced" if failed else "reproduced", note, "cwnd", extra=s)


# ----- mm1-9: analytic M/M/1/K

def analytic_comparison(df: pd.DataFrame) -> pd.DataFrame:
    """Our 'none' runs of the analytic study vs the M/M/1/K closed forms, one row per cell and metric."""
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
                     "n_seeds": int(r.n), "inside_ci": bool(in_ci), "agree": agree})
    return pd.DataFrame(rows)


def claim_mm1_9(df: pd.DataFrame) -> ClaimResult:
    """'none' matches the M/M/1/K closed forms (blocking, sojourn, throughput) when theta is infinite."""
    cmp = analytic_comparison(df)
    if cmp.empty:
        return ClaimResult("untestable", f"no rows of study {ANALYTIC_STUDY}", "loss_rate")
    bad = cmp[~cmp["agree"]]
    note = (f"{int(cmp['agree'].sum())}/{len(cmp)} cells agree (closed form inside our 95% CI in "
            f"{int(cmp['inside_ci'].sum())}; otherwise within max({REL_TOL:.0%} of the value, "
            f"{ABS_TOL['throughput']} packets/s, {ABS_TOL['avg_delay']} s, {ABS_TOL['loss_rate']} points of loss))")
    if not bad.empty:
        note += "; disagree: " + "; ".join(
            f"lambda={b['lambda']:g} K={b.K} {b.metric} ours {b.ours_mean:.4g} vs {b.closed_form:.4g}"
            for _, b in bad.iterrows())
    worst = cmp.assign(err=(cmp.ours_mean - cmp.closed_form).abs() / cmp.closed_form.abs().clip(lower=1e-12))
    worst = worst[worst.metric == "loss_rate"].sort_values("err").iloc[-1] if (worst.metric == "loss_rate").any() else None
    res = ClaimResult("reproduced" if bad.empty else "not_reproduced", note, "loss_rate")
    if worst is not None:  # headline: the loss-rate cell farthest from its closed form
        res.paper_value = worst.closed_form
        res.headline = pd.Series({"mean": worst.ours_mean, "ci_low": worst.ci_low, "ci_high": worst.ci_high,
                                  "run_p025": np.nan, "run_p975": np.nan, "n": worst.n_seeds})
    return res


CLAIMS = {
    "mm1-1": claim_mm1_1, "mm1-2": claim_mm1_2, "mm1-3": claim_mm1_3, "mm1-4": claim_mm1_4,
    "mm1-5": claim_mm1_5, "mm1-6": claim_mm1_6, "mm1-7": claim_mm1_7, "mm1-9": claim_mm1_9,
}


def claim_rows(tables: pd.DataFrame, traces: pd.DataFrame | None, variant: str) -> tuple[list[dict], list[dict]]:
    df = tables[tables["variant"] == variant]
    tr = None if traces is None else traces[traces["variant"] == variant]
    results = {cid: fn(df) for cid, fn in CLAIMS.items()}
    results["mm1-8"] = claim_mm1_8(tr)
    return decided_rows(PAPER, variant, results)


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
