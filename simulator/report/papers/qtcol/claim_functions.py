"""Named functions of the QtColFair paper's claims: window statistics of the delay-change traces
(qt-7) and the sentences that give our numbers beside the paper's in the notes (qt-1, 3, 4, 6, 7, 8)."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd

from simulator.report import claim_rule as rule
from simulator.report.claim_functions import Missing, context, statistic

DELAY = dict(study="qt_delay_change", alpha=1.2)     # qt-7's runs
DELAY_WINDOWS = ((15, 25), (30, 50))                  # s: before the delay step (at 25 s), while longer
DEEP_BDP = (2, 3, 4, 5, 6, 8, 10)                     # qt-8's deep buffers


# --------------------------------------------------------------------------- trace statistics

def per_seed(traces: pd.DataFrame | None, study: str, algorithm: str, alpha=None) -> dict:
    """{seed: time-ordered trace} of every seed of `study` and algorithm (alpha None: no alpha) the
    traces hold; raises Missing when there is none."""
    what = f"{study} {algorithm}{'' if alpha is None else f' alpha={alpha:g}'} traces"
    if traces is None or traces.empty:
        raise Missing(what)
    a = pd.to_numeric(traces["alpha"], errors="coerce") if "alpha" in traces else pd.Series(np.nan, index=traces.index)
    m = (traces["study"] == study) & (traces["algorithm"] == algorithm)
    m &= a.isna() if alpha is None else np.isclose(a, float(alpha))
    t = traces[m]
    if t.empty:
        raise Missing(what)
    seeds = t["seed"] if "seed" in t else pd.Series(0, index=t.index)
    return {s: g.sort_values("t") for s, g in t.groupby(seeds)}


def window_mean(trace: pd.DataFrame, column: str, t0: float, t1: float) -> float:
    """Mean of `column` over t0 <= t < t1 (NaN when the window holds no sample)."""
    w = trace[(trace["t"] >= t0) & (trace["t"] < t1)][column]
    return float(w.mean()) if len(w) else math.nan


@statistic("window_mean")
def window_mean_per_seed(traces, study, algorithm, column, window, alpha=None, **_):
    """One value per seed: the mean of a trace column over a time window [start, end) s."""
    return [window_mean(t, column, *window) for t in per_seed(traces, study, algorithm, alpha).values()]


@statistic("window_ratio")
def window_ratio(traces, study, algorithm, column, during, before, alpha=None, **_):
    """One value per seed: the mean of a trace column over the window `during` divided by its mean
    over the window `before` (NaN, left out, when the mean before is not positive)."""
    out = []
    for t in per_seed(traces, study, algorithm, alpha).values():
        b, d = window_mean(t, column, *before), window_mean(t, column, *during)
        out.append(d / b if b > 0 else math.nan)
    return out


@context("qt_delay_windows")
def delay_windows(cells, scope) -> str:
    """qt-7: each seed's mean in-flight before and while the delay is longer, for QtCol and QtColFair;
    with fewer than two seeds, why the claim cannot be more than inconclusive."""
    (b0, b1), (d0, d1) = DELAY_WINDOWS
    seeds = {name: per_seed(cells.traces, DELAY["study"], alg, DELAY["alpha"])
             for name, alg in (("QtCol", "qtcol"), ("QtColFair", "qtcolfair"))}
    per = "; ".join(f"{name} " + ", ".join(
        f"seed {s}: {window_mean(t, 'inflight_0', b0, b1):.0f} -> {window_mean(t, 'inflight_0', d0, d1):.0f}"
        for s, t in ts.items()) for name, ts in seeds.items())
    text = f"Mean in-flight {b0}-{b1} s -> {d0}-{d1} s (packets): {per}."
    n = [len(ts) for ts in seeds.values()]
    if min(n) < 2:
        text += (f" The traces hold {n[0]} QtCol and {n[1]} QtColFair seed(s): a statistic of one seed cannot "
                 "be tested, so the claim stays inconclusive.")
    return text


# --------------------------------------------------------------------------- our numbers in the notes

def _mean(cells, **spec) -> float:
    return float(cells.get(spec)["mean"])


@context("qt_inflight_spread")
def inflight_spread(cells, scope) -> str:
    """qt-1: QtCol's in-flight p05-p95 after warm-up and its spread, per alpha."""
    out = []
    for a in (1.2, 1.5):
        p05, p95 = (_mean(cells, study="qt_single_static", algorithm="qtcol", alpha=a, flows=1, metric=m)
                    for m in ("p05_inflight", "p95_inflight"))
        out.append(f"a={a:g} in-flight p05-p95 {p05:.0f}-{p95:.0f} ({100 * (p95 / max(p05, 1e-9) - 1):.1f}% spread)")
    return "; ".join(out) + "."


@context("qt_bbr_bands")
def bbr_bands(cells, scope) -> str:
    """qt-3: BBR's in-flight and RTT p05-p95 beside the bands 1-2 BDP."""
    v = {m: _mean(cells, study="qt_single_static", algorithm="bbr", flows=1, metric=m)
         for m in ("p05_inflight", "p95_inflight", "p05_rtt_ms", "p95_rtt_ms")}
    bdp = scope.constants["bdp_pkts"]
    return (f"Ours: in-flight p05-p95 {v['p05_inflight']:.0f}-{v['p95_inflight']:.0f} packets (1-2 BDP = "
            f"{bdp:.0f}-{2 * bdp:.0f}), RTT p05-p95 {v['p05_rtt_ms']:.1f}-{v['p95_rtt_ms']:.1f} ms.")


@context("qt_multiflow_utilization")
def multiflow_utilization(cells, scope) -> str:
    """qt-4: every algorithm's utilization with 5 flows (QtColFair at each alpha it ran with)."""
    cell = dict(study="qt_multiflow", metric="utilization", flows=5, duration=400)
    fair = []
    for a in (1.1, 1.2, 1.3, 1.4, 1.5):
        try:
            fair.append(f"QtColFair a={a:g} {rule.shown(_mean(cells, algorithm='qtcolfair', alpha=a, **cell), 'utilization')}")
        except Missing:
            continue
    return ("Utilization: " + ", ".join(fair) + f", BBR {rule.shown(_mean(cells, algorithm='bbr', **cell), 'utilization')}, "
            f"CUBIC {rule.shown(_mean(cells, algorithm='cubic', **cell), 'utilization')}.")


@context("qt_bandwidth_rtt")
def bandwidth_rtt(cells, scope) -> str:
    """qt-6: the RTT ranges of the paper beside ours."""
    def rtt(alg, metric, alpha=None):
        return _mean(cells, study="qt_bandwidth_change", algorithm=alg, metric=metric,
                     **({} if alpha is None else {"alpha": alpha}))
    qt = {name: f"{rtt(alg, 'p05_rtt_ms', 1.2):.1f}-{rtt(alg, 'p95_rtt_ms', 1.2):.1f}"
          for name, alg in (("QtCol", "qtcol"), ("QtColFair", "qtcolfair"))}
    return (f"Paper: CUBIC 40-480 ms, BBR 45-58 ms; ours p95 CUBIC {rtt('cubic', 'p95_rtt_ms'):.0f} ms, "
            f"BBR {rtt('bbr', 'p95_rtt_ms'):.1f} ms, QtCol {qt['QtCol']} ms, QtColFair {qt['QtColFair']} ms (p05-p95).")


@context("qt_deep_buffers")
def deep_buffers(cells, scope) -> str:
    """qt-8: CUBIC's utilization and RTT at 2 and 10 BDP, QtColFair's and BBR's ranges over the deep buffers."""
    def v(alg, metric, b, alpha=None):
        return _mean(cells, study="qt_buffer_sweep", algorithm=alg, metric=metric, flows=5, buffer_bdp=b,
                     **({} if alpha is None else {"alpha": alpha}))
    fu = [v("qtcolfair", "utilization", b, 1.2) for b in DEEP_BDP]
    fr = [v("qtcolfair", "mean_rtt_ms", b, 1.2) for b in DEEP_BDP]
    bu = [v("bbr", "utilization", b) for b in DEEP_BDP]
    lo, hi = DEEP_BDP[0], DEEP_BDP[-1]
    return (f"Ours: CUBIC utilization {100 * v('cubic', 'utilization', lo):.1f}% at {lo} BDP -> "
            f"{100 * v('cubic', 'utilization', hi):.1f}% at {hi} BDP, mean RTT {v('cubic', 'mean_rtt_ms', lo):.0f} -> "
            f"{v('cubic', 'mean_rtt_ms', hi):.0f} ms; QtColFair utilization {100 * min(fu):.1f}-{100 * max(fu):.1f}%, "
            f"mean RTT {min(fr):.0f}-{max(fr):.0f} ms; BBR utilization {100 * min(bu):.1f}-{100 * max(bu):.1f}%.")
