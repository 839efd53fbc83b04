"""Named functions of the Mininet paper's claims (mn-1, mn-2): per-seed statistics of the traces of
study mn_high_latency and the sentences that give their numbers in the notes.

Per seed (one value per seed the traces hold, compared as samples over seeds by the one rule):
  mn_early_mbps        mean throughput over the warm-up, t <= 10 s ("early");
  mn_t90_s             first time the 1 s mean throughput reaches 90% of a goodput ceiling (notes only);
  mn_cwnd_median       median cwnd after 10 s;
  mn_cwnd_cv           coefficient of variation (sd / mean) of cwnd after 10 s;
  mn_cwnd_regularity   regularity R of cwnd after 10 s: the highest local maximum of its autocorrelation
                       at lags 1-20 s after the autocorrelation has first gone negative (a repeat, not
                       mere smoothness; R = 0 if there is none);
  mn_cwnd_period_s     the lag of that maximum (the period; nan when it never repeats).
The traces a statistic gets are those of the claim's scope (one `change`: static or fluctuating).
"""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from simulator.report import claim_rule, number_format
from simulator.report.claim_functions import Missing, context, headline_of_values, statistic

STUDY = "mn_high_latency"
ALGS = ("bbr", "reno", "vegas", "cubic")
GOODPUT_SHARE = 1448 / 1502          # payload / wire bytes of a full segment
EARLY_END = 10.0                     # s: "early" = the warm-up, t <= 10 s
WARM_START = 10.0                    # s: cwnd statistics from here on
LAG_MIN, LAG_MAX = 1.0, 20.0         # s: lags searched for the dominant period
PAPER_SETTLED_MBPS = 10.5            # the paper: CUBIC "eventually stabilizes at ... 10.5 Mbps"
COLUMNS = ["seed", "early_mbps", "cwnd_median", "cwnd_cv", "cwnd_R", "cwnd_period_s"]


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


def _runs(traces: pd.DataFrame | None, algorithm: str, study: str):
    """(seed, that seed's trace sorted by t) of one algorithm; Missing when the traces have none."""
    if traces is None or traces.empty:
        raise Missing("no traces")
    g = traces[traces["algorithm"].astype(str) == algorithm]
    if "study" in g.columns:
        g = g[g["study"] == study]
    if g.empty:
        raise Missing(f"traces of {algorithm}")
    seeds = g["seed"] if "seed" in g.columns else pd.Series(0, index=g.index)
    return [(seed, s.sort_values("t")) for seed, s in g.groupby(seeds)]


def _seed_row(seed, s: pd.DataFrame) -> dict:
    t, thr = s["t"].to_numpy(float), s["throughput_mbps_0"].to_numpy(float)
    w = s[s["t"] >= WARM_START]
    cw = w["cwnd_0"].to_numpy(float)
    R, period = regularity(w["t"].to_numpy(float), cw)
    return {"seed": seed, "early_mbps": float(thr[t <= EARLY_END].mean()),
            "cwnd_median": float(np.median(cw)) if len(cw) else math.nan,
            "cwnd_cv": float(cw.std() / cw.mean()) if len(cw) and cw.mean() > 0 else math.nan,
            "cwnd_R": R, "cwnd_period_s": period}


_cache: dict = {"traces": None, "stats": {}}    # the statistics of the last traces seen (one scope's)


def seed_stats(traces: pd.DataFrame | None, algorithm: str, study: str = STUDY) -> pd.DataFrame:
    """One row per seed of `algorithm` in the traces (COLUMNS). Kept for the traces object last asked
    about: a claim reads the same algorithm's statistics in several comparisons and sentences."""
    if _cache["traces"] is not traces:
        _cache.update(traces=traces, stats={})
    key = (algorithm, study)
    if key not in _cache["stats"]:
        _cache["stats"][key] = pd.DataFrame([_seed_row(seed, s) for seed, s in _runs(traces, algorithm, study)],
                                            columns=COLUMNS)
    return _cache["stats"][key]


def _statistic(column: str):
    def per_seed(traces, algorithm, study=STUDY, **_):
        return list(seed_stats(traces, algorithm, study)[column])
    per_seed.__doc__ = f"One value per seed: {column} (module docstring)."
    return per_seed


for _name, _column in (("mn_early_mbps", "early_mbps"), ("mn_cwnd_median", "cwnd_median"), ("mn_cwnd_cv", "cwnd_cv"),
                       ("mn_cwnd_regularity", "cwnd_R"), ("mn_cwnd_period_s", "cwnd_period_s")):
    statistic(_name)(_statistic(_column))


@statistic("mn_t90_s")
def t90(traces, algorithm, ceiling, study=STUDY, **_) -> list:
    """One value per seed: the first t at which the 1 s moving mean of throughput reaches 90% of
    `ceiling` (Mbit/s); nan if it never does."""
    out = []
    for _, s in _runs(traces, algorithm, study):
        t, thr = s["t"].to_numpy(float), s["throughput_mbps_0"].to_numpy(float)
        dt = float(np.median(np.diff(t))) if len(t) > 1 else 0.1
        one_s = pd.Series(thr).rolling(max(int(round(1.0 / dt)), 1), min_periods=1).mean().to_numpy()
        hit = np.flatnonzero(one_s >= 0.9 * ceiling)
        out.append(float(t[hit[0]]) if len(hit) else math.nan)
    return out


# --------------------------------------------------------------------------- note sentences

def ceiling_of(cells) -> float:
    """Goodput ceiling of the scope's link (Mbit/s): its configured rate times payload/wire bytes
    (the threshold of mn-1 (b) is 85% of it: "0.85 * (rate * (1448 / 1502))" in its decide block)."""
    rate = 10.0
    if cells.tables is not None and "bottleneck_mbps" in cells.tables.columns:
        r = cells.tables["bottleneck_mbps"].dropna()
        if len(r):
            rate = float(r.iloc[0])
    return rate * GOODPUT_SHARE


def _row(cells, metric: str, alg: str):
    try:
        return cells.get({"study": STUDY, "metric": metric, "algorithm": alg})
    except Missing:
        return None


def num(v, digits=3) -> str:
    return f"{v:.0f}" if abs(v) >= 10 ** digits else f"{v:.{digits}g}"


def fmt(s, digits=3) -> str:
    """'mean [ci_low, ci_high]', 'mean (deterministic)' for a zero-width CI, or just the mean when there
    is no CI (one seed)."""
    if s["n"] > 1 and np.isfinite(s["ci_low"]):
        return number_format.mean_ci(s["mean"], s["ci_low"], s["ci_high"], lower=None, fmt=lambda v: num(v, digits))
    return num(s["mean"], digits)


def _summary(values, digits=3) -> str:
    """'mean [95% CI]' of per-seed values; 'n/a' when no seed has a value."""
    try:
        return fmt(headline_of_values(values), digits)
    except Missing:
        return "n/a"


def _listed(values_of, digits=3, unit="") -> str:
    """'bbr mean [CI]<unit>, reno ...' of every algorithm's per-seed values."""
    return ", ".join(f"{a} {_summary(values_of(a), digits)}{unit}" for a in ALGS)


def seeds_text(cells) -> str:
    """How many seeds the traces hold, and which algorithms' runs are identical over seeds."""
    per = {a: seed_stats(cells.traces, a) for a in ALGS}
    n = sorted({len(d) for d in per.values()})
    seeds = sorted({int(s) for d in per.values() for s in d["seed"]})
    text = (f"{n[0] if len(n) == 1 else f'{n[0]}-{n[-1]}'} seed{'' if n == [1] else 's'} in the traces (seed "
            + ",".join(map(str, seeds)) + ")" + ("; no significance test on one seed" if min(n) < 2 else ""))
    rows = {a: _row(cells, "goodput_mbps", a) for a in ALGS}
    same = [a for a, r in rows.items() if r is not None and r["n"] > max(n) and r["sd"] == 0]
    if same:
        text += (f"; {', '.join(same)} identical over all {int(max(r['n'] for r in rows.values() if r is not None))} "
                 "seeds in the table (sd 0), but the rule tests only the seeds in the traces")
    return text


@context("mn1_numbers")
def mn1_numbers(cells, scope) -> str:
    """Early throughput and time to 90% of the ceiling per seed, goodput after the warm-up, and why
    mn-1 tests 'near the link rate' rather than the paper's 10.5 Mbit/s (a published-number row of its own)."""
    tr, ceiling = cells.traces, ceiling_of(cells)
    warm = {a: _row(cells, "goodput_warm_mbps", a) for a in ALGS}
    n_warm = max((int(r["n"]) for r in warm.values() if r is not None), default=0)
    return (f"Goodput ceiling {ceiling:.2f} Mbit/s (rate x 1448/1502). Early throughput (t <= {EARLY_END:g} s, "
            f"Mbit/s, mean [95% CI], {seeds_text(cells)}): {_listed(lambda a: seed_stats(tr, a)['early_mbps'])}. "
            "Time to 90% of the ceiling (1 s means, not scored): "
            f"{_listed(lambda a: t90(tr, a, ceiling), 2, ' s')}. Goodput after {WARM_START:g} s (Mbit/s, mean "
            f"[95% CI] over {n_warm} seeds): " + ", ".join(f"{a} {fmt(r) if r is not None else 'n/a'}"
                                                          for a, r in warm.items())
            + f". The paper's {PAPER_SETTLED_MBPS:g} Mbit/s for CUBIC exceeds the 10 Mbit/s link (its measurement "
            "is not described), so mn-1 tests 'near the link rate'; the number has its own published-number row.")


@context("mn2_numbers")
def mn2_numbers(cells, scope) -> str:
    """CV, median and regularity (with its period) of every algorithm's cwnd after the warm-up."""
    stats = {a: seed_stats(cells.traces, a) for a in ALGS}

    def period(a) -> str:
        p = stats[a]["cwnd_period_s"].dropna()
        return f" ({p.mean():.1f} s)" if len(p) else " (no repeat)"

    return (f"From {seeds_text(cells)}. CV: {_listed(lambda a: stats[a]['cwnd_cv'], 2)}. Median cwnd (packets): "
            f"{_listed(lambda a: stats[a]['cwnd_median'])}. R (period; R = the highest autocorrelation peak at lags "
            f"{LAG_MIN:g}-{LAG_MAX:g} s after the autocorrelation first goes negative, 0 if it never repeats): "
            + ", ".join(f"{a} {_summary(stats[a]['cwnd_R'], 2)}{period(a)}" for a in ALGS) + ".")


@context("mn2_inflight")
def mn2_inflight(cells, scope) -> str:
    """The table's median in-flight over all seeds, Vegas against the others by the rule: a cross-check
    of (b), not scored."""
    rows = {a: _row(cells, "median_inflight", a) for a in ALGS}
    if any(r is None for r in rows.values()):
        return "Cross-check (not scored): table median in-flight missing."
    tc = claim_rule.decide([claim_rule.less(rows["vegas"], rows[a], f"vegas < {a}") for a in ALGS if a != "vegas"])
    return (f"Cross-check (not scored), median in-flight after warm-up (packets, mean [95% CI] over "
            f"{int(rows['vegas']['n'])} seeds): " + ", ".join(f"{a} {fmt(r)}" for a, r in rows.items())
            + f"; by the rule {tc.verdict}: {tc.note}.")
