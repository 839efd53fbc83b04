"""Claims mn-1 and mn-2 of the Mininet paper (reference/papers.yaml: mininet) from study mn_high_latency.

One scorecard row per claim and variant: "static" (the wired 10 Mbit/s path) and "fluctuating"
(capacity redrawn every second). Table metrics are means over all seeds with 95% CIs; the
time-series statistics (early throughput, cwnd variability and regularity) come from the traces,
which hold only the first seed(s) of each point; every note says how many.

Criteria, fixed before looking at the results (the first two parts of each are the notebook's):
  mn-1  (a) CUBIC has the highest mean throughput over the first 10 s (traces);
        (b) every algorithm settles: mean goodput after the 10 s warm-up (goodput_warm_mbps, all
            seeds) is at least 85% of the link's goodput ceiling (rate x 1448/1502).
  mn-2  cwnd after 10 s (traces), per seed, then averaged over the seeds in the traces:
        (a) Reno and Vegas stabilize: their coefficients of variation are the two lowest;
        (b) Vegas is the most conservative: the lowest median cwnd (cross-checked with the table's
            median in-flight over all seeds, Welch's t-test);
        (c) BBR fluctuates regularly: regularity R >= 0.5, where R is the highest local maximum of
            the autocorrelation of cwnd at lags 1-20 s after it has first gone negative (a repeat,
            not mere smoothness; R = 0 if there is none) and the lag of that maximum is the period;
        (d) CUBIC fluctuates irregularly: the largest coefficient of variation and R below BBR's.
A claim is reproduced when all its parts hold by mean; the note says which comparisons are
significant (Welch's t-test at 5% over seeds; with one seed in the traces no test is possible).
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy import stats

from simulator.report import claims_common as cc

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
    """mean, sd, n and 95% CI of per-seed values, shaped like a table row (for cc.less)."""
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


def compare(a_name, a: pd.Series, b_name, b: pd.Series, sign="<") -> tuple[bool, str]:
    """a < b (sign '<') or a > b (sign '>') by mean; text with the significance of the order found."""
    lo, hi = (a, b) if sign == "<" else (b, a)
    holds, sig = cc.less(lo, hi)
    _, rev = cc.less(hi, lo)
    if min(a["n"], b["n"]) < 2 and not (a["sd"] == 0 and b["sd"] == 0):
        return holds, f"{a_name} {sign} {b_name}: {'yes' if holds else 'no'}"
    if a["sd"] == 0 and b["sd"] == 0:
        how = "identical over seeds"
    else:
        how = "significant" if (sig if holds else rev) else "not significant"
    return holds, f"{a_name} {sign} {b_name}: {'yes' if holds else 'no'} ({how})"


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
        text += f"; {', '.join(same)} identical over all seeds in the table (sd 0), so the traced seed stands for all"
    return text


# --------------------------------------------------------------------------- claims

def claim_mn1(tables, per, change, ceiling):
    head = table_row(tables, "goodput_warm_mbps", "cubic", change)
    warm = {a: table_row(tables, "goodput_warm_mbps", a, change) for a in ALGS}
    missing = [a for a in ALGS if per[a].empty] + [f"goodput_warm_mbps {a}" for a in ALGS if warm[a] is None]
    crit = (f"Criterion: (a) CUBIC has the highest mean throughput over t <= {EARLY_END:g} s (traces); "
            f"(b) every algorithm's goodput after {WARM_START:g} s (all seeds) is >= {SETTLED_SHARE:.0%} of the "
            f"{ceiling:.2f} Mbit/s goodput ceiling ({SETTLED_SHARE * ceiling:.2f}). ")
    if missing:
        return cc.claim_row(PAPER, "mn-1", change, "goodput_warm_mbps", "untestable", head, PAPER_SETTLED_MBPS), \
            cc.note_row("mn-1", change, "untestable", crit + "missing: " + ", ".join(missing))
    early = {a: summary(per[a]["early_mbps"]) for a in ALGS}
    t90 = {a: summary(per[a]["t90_s"]) for a in ALGS}
    comps = [compare("cubic", early["cubic"], a, early[a], ">") for a in ALGS if a != "cubic"]
    part_a = all(h for h, _ in comps)
    thr = SETTLED_SHARE * ceiling
    settled = {a: bool(warm[a]["mean"] >= thr) for a in ALGS}
    part_b = all(settled.values())
    verdict = "reproduced" if part_a and part_b else "not_reproduced"
    note = (crit + f"Early throughput (Mbit/s, {seeds_text(per, tables, change)}): "
            + ", ".join(f"{a} {fmt(early[a])}" for a in ALGS) + "; " + "; ".join(t for _, t in comps)
            + f" -> (a) {'holds' if part_a else 'fails'}. Time to 90% of the ceiling (1 s means): "
            + ", ".join(f"{a} {fmt(t90[a], 2)} s" for a in ALGS)
            + f" (not scored). Goodput after {WARM_START:g} s (Mbit/s, mean [95% CI] over "
            + f"{int(warm['cubic']['n'])} seeds): "
            + ", ".join(f"{a} {fmt(warm[a])}" + ("" if settled[a] else " (below)") + (
                " (CI above)" if settled[a] and warm[a]["ci_low"] >= thr else "") for a in ALGS)
            + f" -> (b) {'holds' if part_b else 'fails'}. The paper's {PAPER_SETTLED_MBPS:g} Mbit/s for CUBIC exceeds "
            "the 10 Mbit/s link (its measurement is not described), so we test 'near the link rate', not the number.")
    return cc.claim_row(PAPER, "mn-1", change, "goodput_warm_mbps", verdict, head, PAPER_SETTLED_MBPS), \
        cc.note_row("mn-1", change, verdict, note)


def claim_mn2(tables, per, change):
    head = table_row(tables, "median_inflight", "vegas", change)
    inflight = {a: table_row(tables, "median_inflight", a, change) for a in ALGS}
    crit = (f"Criterion (cwnd after {WARM_START:g} s, per seed, mean over the seeds in the traces): "
            "(a) Reno and Vegas stabilize = their coefficients of variation (CV) are the two lowest; "
            "(b) Vegas most conservative = lowest median cwnd; "
            f"(c) BBR regular = regularity R >= {REGULAR_R:g} (R: highest autocorrelation peak at lags "
            f"{LAG_MIN:g}-{LAG_MAX:g} s after the autocorrelation first goes negative, 0 if it never repeats; "
            "its lag = period); (d) CUBIC irregular = largest CV and R below BBR's. ")
    missing = [a for a in ALGS if per[a].empty]
    if missing:
        return cc.claim_row(PAPER, "mn-2", change, "median_inflight", "untestable", head), \
            cc.note_row("mn-2", change, "untestable", crit + "no cwnd traces for " + ", ".join(missing))
    s = {k: {a: summary(per[a][k]) for a in ALGS} for k in ("cwnd_median", "cwnd_cv", "cwnd_R", "cwnd_period_s")}
    cv, med, R = s["cwnd_cv"], s["cwnd_median"], s["cwnd_R"]
    cv_rank = sorted(ALGS, key=lambda a: cv[a]["mean"])
    part_a = set(cv_rank[:2]) == {"reno", "vegas"}
    comps_b = [compare("vegas", med["vegas"], a, med[a], "<") for a in ALGS if a != "vegas"]
    part_b = all(h for h, _ in comps_b)
    part_c = bool(R["bbr"]["mean"] >= REGULAR_R)
    comps_d = [compare("cubic", cv["cubic"], a, cv[a], ">") for a in ALGS if a != "cubic"]
    r_d = compare("cubic R", R["cubic"], "bbr R", R["bbr"], "<")
    part_d = all(h for h, _ in comps_d) and r_d[0]
    verdict = "reproduced" if part_a and part_b and part_c and part_d else "not_reproduced"
    if any(inflight[a] is None for a in ALGS):
        check = "table median in-flight missing"
    else:
        tc = [compare("vegas", inflight["vegas"], a, inflight[a], "<") for a in ALGS if a != "vegas"]
        check = (f"median in-flight after warm-up (packets, mean [95% CI] over {int(inflight['vegas']['n'])} seeds): "
                 + ", ".join(f"{a} {fmt(inflight[a])}" for a in ALGS) + "; " + "; ".join(t for _, t in tc))
    period = {a: s["cwnd_period_s"][a]["mean"] for a in ALGS}
    note = (crit + f"From {seeds_text(per, tables, change)}. CV: " + ", ".join(f"{a} {fmt(cv[a], 2)}" for a in ALGS)
            + f" -> (a) {'holds' if part_a else 'fails'} (two lowest: {', '.join(cv_rank[:2])}). "
            + "Median cwnd (packets): " + ", ".join(f"{a} {fmt(med[a])}" for a in ALGS) + "; "
            + "; ".join(t for _, t in comps_b) + f" -> (b) {'holds' if part_b else 'fails'}; cross-check, "
            + check + ". R (period): " + ", ".join(
                f"{a} {fmt(R[a], 2)}" + (f" ({period[a]:.1f} s)" if np.isfinite(period[a]) else " (no repeat)")
                for a in ALGS)
            + f" -> (c) {'holds' if part_c else 'fails'}; " + "; ".join(t for _, t in comps_d) + "; " + r_d[1]
            + f" -> (d) {'holds' if part_d else 'fails'}.")
    return cc.claim_row(PAPER, "mn-2", change, "median_inflight", verdict, head), \
        cc.note_row("mn-2", change, verdict, note)


def build(tables: pd.DataFrame, traces: pd.DataFrame | None):
    """Scorecard rows and notes of mn-1 and mn-2 for the static and the fluctuating path."""
    rows, notes = [], []
    for change in VARIANTS:
        if tables.empty or "change" not in tables.columns or not (tables["change"].astype(str) == change).any():
            for item, metric in (("mn-1", "goodput_warm_mbps"), ("mn-2", "median_inflight")):
                rows.append(cc.claim_row(PAPER, item, change, metric, "untestable"))
                notes.append(cc.note_row(item, change, "untestable", f"no {STUDY} table rows for change={change}"))
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
