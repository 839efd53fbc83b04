"""Claims mn-1 and mn-2 of the Mininet paper (reference/papers.yaml: mininet) from study mn_high_latency.

One scorecard row per claim and variant: "static" (the wired 10 Mbit/s path) and "fluctuating"
(capacity redrawn every second). Table metrics are means over all seeds; the time-series statistics
(early throughput, cwnd variability, regularity and median) are computed from the traces per seed,
for every seed the traces hold (every note says how many), and compared as samples over seeds.

Every claim is decided by the one rule of the scorecard (simulator/report/claim_rule.py): a list of
comparisons, reproduced when every one holds by mean and significantly (Welch's t-test, or one-sample
against a threshold, Holm-adjusted across the claim's comparisons, 5%), contradicted when any is
significantly reversed, inconclusive otherwise (always so when the traces hold one seed: no test);
runs identical over seeds (sd 0) are compared by value. Missing traces or table rows: not_testable.

Criteria, fixed before looking at the results (the first two parts of each are the notebook's):
  mn-1  (a) CUBIC has the highest mean throughput over the first 10 s (traces): CUBIC's per-seed
            early throughput above each other algorithm's;
        (b) every algorithm settles: goodput after the 10 s warm-up (goodput_warm_mbps, all seeds)
            above 85% of the link's goodput ceiling (rate x 1448/1502).
  mn-2  cwnd after 10 s (traces), one value per seed:
        (a) Reno and Vegas stabilize: their coefficients of variation (CV) are the two lowest (each
            below BBR's and CUBIC's);
        (b) Vegas is the most conservative: the lowest median cwnd (the table's median in-flight over
            all seeds is quoted as a cross-check, not scored);
        (c) BBR fluctuates regularly: regularity R above 0.5, where R is the highest local maximum of
            the autocorrelation of cwnd at lags 1-20 s after it has first gone negative (a repeat,
            not mere smoothness; R = 0 if there is none) and the lag of that maximum is the period;
        (d) CUBIC fluctuates irregularly: the largest CV (above BBR's; above Reno's and Vegas's is
            already in (a)) and R below BBR's.
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy import stats

from simulator.report import claim_rule
from simulator.report import claims_common as cc
from simulator.report.verdicts import decision_rows

PAPER = "mininet"
STUDY = "mn_high_latency"
ALGS = ("bbr", "reno", "vegas", "cubic")
VARIANTS = ("static", "fluctuating")
GOODPUT_SHARE = 1448 / 1502          # payload / wire bytes of a full segment
SETTLED_SHARE = 0.85                 # "near the link rate": at least 85% of the goodput ceiling
EARLY_END = 10.0                     # s: "early" = the warm-up, t <= 10 s
WARM_START = 10.0                    # s: cwnd statistics from here on
LAG_MIN, LAG_MAX = 1.0, 20.0         # s: lags searched for the dominant period
REGULAR_R = 0.5                      # autocorrelation at the period needed to call it regular
PAPER_SETTLED_MBPS = 10.5            # the paper: CUBIC "eventually stabilizes at ... 10.5 Mbps"


# --------------------------------------------------------------------------- per-seed statistics

def regularity(t: np.ndarray, x: np.ndarray) -> tuple[float, float]:
    """(R, period in s) of a series: the highest local maximum of its autocorrelation (Pearson,
    lag k vs the series) at lags LAG_MIN..LAG_MAX, searched only after the autocorrelation has first
    gone negative; (0, nan) if the series never repeats, (nan, nan) if it is constant or too short."""
    x = np.asarray(x, dtype=float)
    n = len(x)
    if n < 4 or np.std(x) == 0:
        return math.nan, math.nan
    dt = float(np.median(np.diff(t)))
    ks = np.arange(1, min(int(round(LAG_MAX / dt)), n - 3) + 1)
    r = np.full(len(ks), np.nan)
    for i, k in enumerate(ks):
        a, b = x[:n - k], x[k:]
        if np.std(a) > 0 and np.std(b) > 0:
            r[i] = np.corrcoef(a, b)[0, 1]
    neg = np.flatnonzero(r < 0)
    if not len(neg):
        return 0.0, math.nan
    best = None
    for i in range(max(int(neg[0]), 1), len(r) - 1):
        if ks[i] * dt >= LAG_MIN - 1e-9 and r[i] >= r[i - 1] and r[i] >= r[i + 1] \
                and (best is None or r[i] > r[best]):
            best = i
    return (0.0, math.nan) if best is None else (float(max(r[best], 0.0)), float(ks[best] * dt))


def seed_stats(traces: pd.DataFrame | None, alg: str, change: str, ceiling: float) -> pd.DataFrame:
    """One row per seed in the traces: early throughput, time to 90% of the ceiling, and cwnd
    median, coefficient of variation, regularity and period after WARM_START."""
    cols = ["seed", "early_mbps", "t90_s", "cwnd_median", "cwnd_cv", "cwnd_R", "cwnd_period_s"]
    if traces is None or traces.empty:
        return pd.DataFrame(columns=cols)
    g = traces[(traces["algorithm"].astype(str) == alg) & (traces["change"].astype(str) == change)]
    if "study" in g.columns:
        g = g[g["study"] == STUDY]
    out = []
    seeds = g["seed"] if "seed" in g.columns else pd.Series(0, index=g.index)
    for seed, s in g.groupby(seeds):
        s = s.sort_values("t")
        t, thr = s["t"].to_numpy(float), s["throughput_mbps_0"].to_numpy(float)
        dt = float(np.median(np.diff(t))) if len(t) > 1 else 0.1
        one_s = pd.Series(thr).rolling(max(int(round(1.0 / dt)), 1), min_periods=1).mean().to_numpy()
        hit = np.flatnonzero(one_s >= 0.9 * ceiling)
        w = s[s["t"] >= WARM_START]
        cw = w["cwnd_0"].to_numpy(float)
        R, period = regularity(w["t"].to_numpy(float), cw)
        out.append({"seed": seed, "early_mbps": float(thr[t <= EARLY_END].mean()),
                    "t90_s": float(t[hit[0]]) if len(hit) else math.nan,
                    "cwnd_median": float(np.median(cw)) if len(cw) else math.nan,
                    "cwnd_cv": float(cw.std() / cw.mean()) if len(cw) and cw.mean() > 0 else math.nan,
                    "cwnd_R": R, "cwnd_period_s": period})
    return pd.DataFrame(out, columns=cols)


def summary(values) -> pd.Series:
    """mean, sd, n and 95% CI of per-seed values, shaped like a table row (for the notes; the
    comparisons use claim_rule.sample of the same values)."""
    v = pd.Series(values, dtype=float).dropna()
    n = len(v)
    mean = float(v.mean()) if n else math.nan
    sd = float(v.std(ddof=1)) if n > 1 else math.nan
    half = float(stats.t.ppf(0.975, n - 1) * sd / math.sqrt(n)) if n > 1 else math.nan
    return pd.Series({"mean": mean, "sd": sd, "n": n, "ci_low": mean - half, "ci_high": mean + half,
                      "run_p025": float(v.quantile(0.025)) if n else math.nan,
                      "run_p975": float(v.quantile(0.975)) if n else math.nan})


def num(v, digits=3) -> str:
    return f"{v:.0f}" if abs(v) >= 10 ** digits else f"{v:.{digits}g}"


def fmt(s: pd.Series, digits=3) -> str:
    """'mean [ci_low, ci_high]', or just the mean when there is no CI (one seed)."""
    if s["n"] > 1 and np.isfinite(s["ci_low"]):
        return f"{num(s['mean'], digits)} [{num(s['ci_low'], digits)}, {num(s['ci_high'], digits)}]"
    return num(s["mean"], digits)


def table_row(tables, metric, alg, change):
    try:
        return cc.pick(tables[tables["study"] == STUDY] if "study" in tables else tables,
                       metric, algorithm=alg, change=change)
    except (KeyError, ValueError):
        return None


def ceiling_of(tables, change) -> float:
    """Goodput ceiling of the link (Mbit/s): its configured rate times payload/wire bytes."""
    rate = 10.0
    if "bottleneck_mbps" in tables.columns:
        r = tables.loc[tables["change"].astype(str) == change, "bottleneck_mbps"].dropna()
        if len(r):
            rate = float(r.iloc[0])
    return rate * GOODPUT_SHARE


def seeds_text(per: dict, tables, change) -> str:
    """How many seeds the traces hold, and which algorithms' runs are identical over seeds."""
    n = sorted({len(d) for d in per.values()})
    seeds = sorted({int(s) for d in per.values() for s in d["seed"]})
    text = (f"{n[0] if len(n) == 1 else f'{n[0]}-{n[-1]}'} seed{'' if n == [1] else 's'} in the traces (seed "
            + ",".join(map(str, seeds)) + ")" + ("; no significance test on one seed" if min(n) < 2 else ""))
    rows = {a: table_row(tables, "goodput_mbps", a, change) for a in ALGS}
    same = [a for a, r in rows.items() if r is not None and r["n"] > max(n) and r["sd"] == 0]
    if same:
        text += (f"; {', '.join(same)} identical over all {int(max(r['n'] for r in rows.values() if r is not None))} "
                 "seeds in the table (sd 0), but the rule tests only the seeds in the traces")
    return text


# --------------------------------------------------------------------------- claims

def rows_of(per: dict, key: str) -> dict:
    """{algorithm: claim_rule.sample of the per-seed values of `key`}."""
    return {a: claim_rule.sample(per[a][key]) for a in ALGS}


def claim_mn1(tables, per, change, ceiling):
    head = table_row(tables, "goodput_warm_mbps", "cubic", change)
    warm = {a: table_row(tables, "goodput_warm_mbps", a, change) for a in ALGS}
    thr = SETTLED_SHARE * ceiling
    crit = (f"Criterion: (a) CUBIC has the highest mean throughput over t <= {EARLY_END:g} s (traces, per seed); "
            f"(b) every algorithm's goodput after {WARM_START:g} s (all seeds) is above {SETTLED_SHARE:.0%} of the "
            f"{ceiling:.2f} Mbit/s goodput ceiling ({thr:.2f}). ")
    missing = [f"traces of {a}" for a in ALGS if per[a].empty] + \
        [f"goodput_warm_mbps {a}" for a in ALGS if warm[a] is None]
    if missing:
        d = claim_rule.decide([], not_testable="missing: " + ", ".join(missing))
        row, note = decision_rows(PAPER, "mn-1", change, d, metric="goodput_warm_mbps", headline=head,
                                  paper_value=PAPER_SETTLED_MBPS)
        note["note"] = crit + d.note
        return row, note
    early, t90 = ({a: summary(per[a][k]) for a in ALGS} for k in ("early_mbps", "t90_s"))
    sample = rows_of(per, "early_mbps")
    comps = [claim_rule.greater(sample["cubic"], sample[a],
                                f"(a) early throughput cubic {early['cubic']['mean']:.3g} > {a} {early[a]['mean']:.3g}")
             for a in ALGS if a != "cubic"]
    comps += [claim_rule.above(warm[a], thr, f"(b) {a} goodput_warm_mbps {warm[a]['mean']:.3g} > {thr:.2f}")
              for a in ALGS]
    d = claim_rule.decide(comps)
    note = (crit + d.note + f". Early throughput (Mbit/s, mean [95% CI], {seeds_text(per, tables, change)}): "
            + ", ".join(f"{a} {fmt(early[a])}" for a in ALGS)
            + ". Time to 90% of the ceiling (1 s means, not scored): "
            + ", ".join(f"{a} {fmt(t90[a], 2)} s" for a in ALGS)
            + f". Goodput after {WARM_START:g} s (Mbit/s, mean [95% CI] over {int(warm['cubic']['n'])} seeds): "
            + ", ".join(f"{a} {fmt(warm[a])}" for a in ALGS)
            + f". The paper's {PAPER_SETTLED_MBPS:g} Mbit/s for CUBIC exceeds the 10 Mbit/s link (its measurement "
            "is not described), so we test 'near the link rate', not the number.")
    row, nrow = decision_rows(PAPER, "mn-1", change, d, metric="goodput_warm_mbps", headline=head,
                              paper_value=PAPER_SETTLED_MBPS)
    nrow["note"] = note
    return row, nrow


def claim_mn2(tables, per, change):
    head = table_row(tables, "median_inflight", "vegas", change)
    inflight = {a: table_row(tables, "median_inflight", a, change) for a in ALGS}
    crit = (f"Criterion (cwnd after {WARM_START:g} s, one value per seed in the traces): "
            "(a) Reno and Vegas stabilize = their coefficients of variation (CV) are the two lowest; "
            "(b) Vegas most conservative = lowest median cwnd; "
            f"(c) BBR regular = regularity R above {REGULAR_R:g} (R: highest autocorrelation peak at lags "
            f"{LAG_MIN:g}-{LAG_MAX:g} s after the autocorrelation first goes negative, 0 if it never repeats; "
            "its lag = period); (d) CUBIC irregular = largest CV (above BBR's here; above Reno's and Vegas's is "
            "in (a)) and R below BBR's. ")
    missing = [a for a in ALGS if per[a].empty]
    if missing:
        d = claim_rule.decide([], not_testable="no cwnd traces for " + ", ".join(missing))
        row, note = decision_rows(PAPER, "mn-2", change, d, metric="median_inflight", headline=head)
        note["note"] = crit + d.note
        return row, note
    s = {k: {a: summary(per[a][k]) for a in ALGS} for k in ("cwnd_median", "cwnd_cv", "cwnd_R", "cwnd_period_s")}
    cv, med, R = rows_of(per, "cwnd_cv"), rows_of(per, "cwnd_median"), rows_of(per, "cwnd_R")
    m = {k: {a: s[k][a]["mean"] for a in ALGS} for k in s}
    comps = [claim_rule.less(cv[a], cv[b], f"(a) CV {a} {m['cwnd_cv'][a]:.3g} < {b} {m['cwnd_cv'][b]:.3g}")
             for a in ("reno", "vegas") for b in ("bbr", "cubic")]
    comps += [claim_rule.less(med["vegas"], med[a],
                              f"(b) median cwnd vegas {m['cwnd_median']['vegas']:.4g} < {a} {m['cwnd_median'][a]:.4g}")
              for a in ALGS if a != "vegas"]
    comps.append(claim_rule.above(R["bbr"], REGULAR_R, f"(c) R bbr {m['cwnd_R']['bbr']:.2f} > {REGULAR_R:g}"))
    comps.append(claim_rule.greater(cv["cubic"], cv["bbr"],
                                    f"(d) CV cubic {m['cwnd_cv']['cubic']:.3g} > bbr {m['cwnd_cv']['bbr']:.3g}"))
    comps.append(claim_rule.less(R["cubic"], R["bbr"],
                                 f"(d) R cubic {m['cwnd_R']['cubic']:.2f} < bbr {m['cwnd_R']['bbr']:.2f}"))
    d = claim_rule.decide(comps)
    if any(inflight[a] is None for a in ALGS):
        check = "table median in-flight missing"
    else:
        tc = claim_rule.decide([claim_rule.less(inflight["vegas"], inflight[a], f"vegas < {a}")
                                for a in ALGS if a != "vegas"])
        check = (f"median in-flight after warm-up (packets, mean [95% CI] over {int(inflight['vegas']['n'])} seeds): "
                 + ", ".join(f"{a} {fmt(inflight[a])}" for a in ALGS) + f"; by the rule {tc.verdict}: {tc.note}")
    period = m["cwnd_period_s"]
    note = (crit + d.note + f". From {seeds_text(per, tables, change)}. CV: "
            + ", ".join(f"{a} {fmt(s['cwnd_cv'][a], 2)}" for a in ALGS)
            + ". Median cwnd (packets): " + ", ".join(f"{a} {fmt(s['cwnd_median'][a])}" for a in ALGS)
            + ". R (period): " + ", ".join(
                f"{a} {fmt(s['cwnd_R'][a], 2)}"
                + (f" ({period[a]:.1f} s)" if np.isfinite(period[a]) else " (no repeat)")
                for a in ALGS)
            + ". Cross-check (not scored), " + check + ".")
    row, nrow = decision_rows(PAPER, "mn-2", change, d, metric="median_inflight", headline=head)
    nrow["note"] = note
    return row, nrow


def build(tables: pd.DataFrame, traces: pd.DataFrame | None):
    """Scorecard rows and notes of mn-1 and mn-2 for the static and the fluctuating path."""
    rows, notes = [], []
    for change in VARIANTS:
        if tables.empty or "change" not in tables.columns or not (tables["change"].astype(str) == change).any():
            for item, metric in (("mn-1", "goodput_warm_mbps"), ("mn-2", "median_inflight")):
                d = claim_rule.decide([], not_testable=f"no {STUDY} table rows for change={change}")
                row, note = decision_rows(PAPER, item, change, d, metric=metric)
                rows.append(row)
                notes.append(note)
            continue
        ceiling = ceiling_of(tables, change)
        per = {a: seed_stats(traces, a, change, ceiling) for a in ALGS}
        for fn in (lambda: claim_mn1(tables, per, change, ceiling), lambda: claim_mn2(tables, per, change)):
            row, note = fn()
            rows.append(row)
            notes.append(note)
    return rows, notes


if __name__ == "__main__":
    cc.cli(build, __doc__)
