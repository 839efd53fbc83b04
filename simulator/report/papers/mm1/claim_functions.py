"""Named functions of the M/M/1 paper's claims: cwnd-trace statistics (mm1-8), the M/M/1/K closed
forms (mm1-9) and the sentences that give their numbers in the notes."""
from __future__ import annotations

import numpy as np
import pandas as pd

from simulator.report import cwnd_shapes as shapes, mm1k
from simulator.report.claim_functions import Missing, context, reference, statistic


def _of(traces: pd.DataFrame | None, study: str | None) -> pd.DataFrame:
    if traces is None or traces.empty:
        raise Missing("no cwnd traces")
    return traces[traces["study"] == study] if study and "study" in traces else traces


@statistic("cwnd_drops")
def cwnd_drops(traces, algorithm, of, study=None, **_):
    """One value per seed of a drop statistic of `algorithm`'s cwnd (cwnd_shapes.trace_stats): `of` is
    share_to_one (share of drops ending at cwnd <= 1), median_ratio (median after/before) or regrow
    (share of cycles regrowing to 80% of the window before the previous drop)."""
    st = shapes.trace_stats(_of(traces, study), algorithm)
    if st["n_drops"] == 0:
        raise Missing(f"no drops in the cwnd traces of {algorithm}")
    return [s[of] for s in st["per_seed"].values()]


@statistic("cwnd_concave_then_convex")
def concave_then_convex(traces, algorithm, study=None, **_):
    """One value per seed: the share of `algorithm`'s judged regrowths between two drops whose slope
    first falls then rises (cwnd_shapes.shape_stats)."""
    per = shapes.shape_stats(_of(traces, study), algorithm)
    if not any(v["judged"] for v in per.values()):
        raise Missing(f"no {algorithm} regrowth between two drops is long enough to judge its shape "
                      f"({_shape_words()}; {_per_seed(per)})")
    return [v["share"] for v in per.values()]


def _shape_words() -> str:
    return (f"a regrowth (between two drops, from its first to its last increase) is judged with >= "
            f"{shapes.MIN_STEPS} slopes dcwnd/dt, and is concave then convex when its minimum slope has >= "
            f"{shapes.MIN_SIDE} slope steps on each side, >= 2/3 of those before it falling and >= 2/3 "
            "of those after it rising")


def _per_seed(per: dict) -> str:
    return "; ".join(f"seed {k}: {v['ctc']} of {v['judged']} judged ({v['epochs']} regrowths, "
                     f"{v['past_max']} judged ending above the window before the loss)" for k, v in per.items())


def _pct(x) -> str:
    return "n/a" if np.isnan(x) else f"{100 * x:.0f}%"


@context("mm1_cwnd_shapes")
def cwnd_shapes_context(cells, scope) -> str:
    """Every drop statistic pooled and per seed, and the judged shapes of Cubic's regrowths."""
    traces = _of(cells.traces, "mm1_cwnd")
    algs = [scope.aliases.get(a, a) for a in ("tahoe", "reno", "cubic")]
    s = {a: shapes.trace_stats(traces, a) for a in algs}

    def describe(a, st):
        seeds = ", ".join(f"seed {k}: {v['n_drops']} drops, {_pct(v['share_to_one'])} to 1, median "
                          f"{v['median_ratio']:.2f}, regrowth {_pct(v['regrow'])}" for k, v in st["per_seed"].items())
        return (f"{a}: {st['n_drops']} drops, {_pct(st['share_to_one'])} to cwnd 1, median after/before "
                f"{st['median_ratio']:.2f}, regrowth to 80% of previous max in {_pct(st['regrow'])} of "
                f"{st['n_cycles']} cycles ({seeds})")
    cubic = shapes.shape_stats(traces, algs[2])
    return ("Pooled over N and seeds: " + "; ".join(describe(a, st) for a, st in s.items())
            + f". Cubic's shape: {_shape_words()}; concave then convex: {_per_seed(cubic)}.")


@reference("mm1k_closed_form")
def closed_form(row) -> float:
    """The M/M/1/K closed form of a table row's metric (throughput, avg_delay, loss_rate); in the
    standard variant delivered packets also cross the one-way propagation delay."""
    cf = mm1k.closed_forms(float(row["lambda"]), float(row["mu"]), int(row["K"]))[row["metric"]]
    prop = row.get("prop_delay", np.nan)
    if row["metric"] == "avg_delay" and row.get("variant") == "standard" and pd.notna(prop) and np.isfinite(prop):
        cf += float(prop)
    return cf


@context("mm1k_cells")
def closed_form_cells(cells, scope) -> str:
    """How many cells have the closed form inside our 95% CI, and which means lie outside the tolerance."""
    t = cells.tables
    a = t[(t["study"] == "mm1_analytic") & (t["algorithm"] == "none")
          & t["metric"].isin(["throughput", "avg_delay", "loss_rate"])]
    if a.empty:
        raise Missing("no rows of study mm1_analytic")
    tol = {"throughput": 0.05, "avg_delay": 0.005, "loss_rate": 0.5}
    inside, far = 0, []
    for _, r in a.iterrows():
        cf = closed_form(r)
        inside += bool(r["ci_low"] <= cf <= r["ci_high"])
        if abs(r["mean"] - cf) > max(0.03 * abs(cf), tol[r["metric"]]):
            far.append(f"lambda={r['lambda']:g} K={r['K']} {r['metric']} ours {r['mean']:.4g} vs {cf:.4g}")
    text = (f"Tolerance max(3% of the closed form, {tol['throughput']} packets/s, {tol['avg_delay']} s, "
            f"{tol['loss_rate']} points of loss); closed form inside our 95% CI in {inside} of {len(a)} cells")
    return text + ("; mean outside the tolerance: " + "; ".join(far) if far else "") + "."
