"""Scorecard logic of the M/M/1 paper on hand-made tables: M/M/1/K closed forms, published numbers, and the
claims decided by the one rule (claim_rule): reproduced, contradicted, inconclusive, deterministic, one seed,
not testable."""
import math
from dataclasses import replace
from types import SimpleNamespace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from simulator.report import claim_rule as rule  # noqa: E402
from simulator.report import mm1k  # noqa: E402
from simulator.report.papers.mm1 import scorecard as sc  # noqa: E402

claim = sc.claim
REFERENCE = Path(__file__).resolve().parents[1] / "reference" / "mm1" / "jackson_mm1_tables.csv"


# --------------------------------------------------------------------------- closed forms

def test_mm1k_k1_hand_values():
    # rho = 0.5, K = 1: p0 = 1/(1+rho) = 2/3, p1 = 1/3; a served packet never waits: W = 1/mu
    assert mm1k.state_probs(5, 10, 1) == pytest.approx([2 / 3, 1 / 3])
    assert mm1k.blocking_prob(5, 10, 1) == pytest.approx(1 / 3)
    assert mm1k.throughput(5, 10, 1) == pytest.approx(10 / 3)
    assert mm1k.mean_sojourn(5, 10, 1) == pytest.approx(0.1)
    # rho = 1.5, K = 1: P_1 = rho / (1 + rho) = 0.6
    assert mm1k.blocking_prob(15, 10, 1) == pytest.approx(0.6)
    assert mm1k.mean_sojourn(15, 10, 1) == pytest.approx(0.1)


def test_mm1k_k2_hand_values():
    # rho = 0.5, K = 2: p = (4, 2, 1)/7; L = (2 + 2)/7 = 4/7; lambda_eff = 5 * 6/7 = 30/7; W = 4/30
    assert mm1k.state_probs(5, 10, 2) == pytest.approx([4 / 7, 2 / 7, 1 / 7])
    assert mm1k.mean_number(5, 10, 2) == pytest.approx(4 / 7)
    assert mm1k.mean_sojourn(5, 10, 2) == pytest.approx(4 / 30)
    cf = mm1k.closed_forms(5, 10, 2)
    assert cf["loss_rate"] == pytest.approx(100 / 7)
    assert cf["throughput"] == pytest.approx(30 / 7)


def test_mm1k_rho_one_is_uniform_and_continuous():
    assert mm1k.state_probs(10, 10, 4) == pytest.approx([0.2] * 5)
    assert mm1k.blocking_prob(10, 10, 4) == pytest.approx(0.2)
    assert mm1k.mean_sojourn(10, 10, 4) == pytest.approx(mm1k.mean_sojourn(10.0001, 10, 4), rel=1e-3)


def test_mm1k_large_k_tends_to_mm1():
    # K -> infinity with rho < 1: W -> 1/(mu - lambda)
    assert mm1k.mean_sojourn(5, 10, 200) == pytest.approx(1 / (10 - 5))
    assert mm1k.blocking_prob(5, 10, 200) < 1e-12


@pytest.mark.parametrize("args", [(0, 10, 5), (5, 0, 5), (5, 10, 0), (5, 10, 2.5)])
def test_mm1k_rejects_bad_parameters(args):
    with pytest.raises(ValueError):
        mm1k.state_probs(*args)


# --------------------------------------------------------------------------- hand-made tables

STAT = ["mean", "sd", "n", "ci_low", "ci_high", "run_p025", "run_p975", "run_min", "run_max"]


def row(study, algorithm, metric, mean, half=0.01, spread=0.1, variant="standard", **params):
    base = {"lambda": 10, "mu": 10, "K": 5, "theta": 1, "N": 500}
    base.update(sc.FIXED.get(study, {}))
    base.update(params)
    return {"study": study, "paper": "mm1", "variant": variant, "algorithm": algorithm, **base,
            "metric": metric, "mean": mean, "sd": half, "n": 10, "ci_low": mean - half, "ci_high": mean + half,
            "run_p025": mean - spread, "run_p975": mean + spread, "run_min": mean - 2 * spread,
            "run_max": mean + 2 * spread}


def table(rows):
    return pd.DataFrame(rows)


def test_cell_matches_numerically_and_prefers_the_named_study():
    df = table([row("mm1_lambda_curve", "reno", "throughput", 1.0, **{"lambda": 5.0}),
                row("mm1_lambda", "reno", "throughput", 2.0, **{"lambda": 5})])
    assert sc.cell(df, "mm1_lambda", algorithm="reno", metric="throughput", **{"lambda": 5})["mean"] == 2.0
    assert sc.cell(df, "mm1_X", algorithm="reno", metric="throughput", **{"lambda": 5.0}) is not None
    assert sc.cell(df, None, algorithm="cubic", metric="throughput", **{"lambda": 5}) is None


def test_select_treats_missing_theta_as_infinite():
    df = table([row("mm1_analytic", "none", "loss_rate", 1.0, theta=math.inf)])
    assert len(sc.select(df, theta=math.inf)) == 1
    df["theta"] = np.nan
    assert len(sc.select(df, theta=math.inf)) == 1


def test_printed_half_unit():
    assert sc.printed_half_unit("7.40") == pytest.approx(0.005)
    assert sc.printed_half_unit("11.0") == pytest.approx(0.05)
    assert sc.printed_half_unit("9.8380") == pytest.approx(0.00005)
    assert sc.printed_half_unit("5") == pytest.approx(0.5)


def test_number_rows_inside_outside_missing():
    ref = pd.DataFrame([
        {"table": "V", "metric": "throughput", "unit": "packets_per_s", "sweep": "lambda", "x": 5,
         "algorithm": "tahoe", "value": 8.429, "value_text": "8.429", "fixed": "mu=10;K=5;theta=1;N=500"},
        {"table": "V", "metric": "throughput", "unit": "packets_per_s", "sweep": "lambda", "x": 10,
         "algorithm": "tahoe", "value": 9.589, "value_text": "9.589", "fixed": "mu=10;K=5;theta=1;N=500"},
        {"table": "V", "metric": "throughput", "unit": "packets_per_s", "sweep": "lambda", "x": 15,
         "algorithm": "tahoe", "value": 9.289, "value_text": "9.289", "fixed": "mu=10;K=5;theta=1;N=500"},
    ])
    df = table([row("mm1_lambda", "tahoe", "throughput", 8.4, spread=0.1, **{"lambda": 5}),
                row("mm1_lambda", "tahoe", "throughput", 9.0, spread=0.1, **{"lambda": 10})])
    rows = sc.number_rows(df, ref, "standard")
    assert [r["verdict"] for r in rows] == ["inside", "outside", "missing"]
    assert rows[0]["item"] == "Table V lambda=5 tahoe"
    assert rows[0]["n_seeds"] == 10 and rows[2]["n_seeds"] == 0
    # as_published ran the paper's Tahoe row as the published code, published_tahoe; the item keeps
    # the paper's row name
    pub = df.assign(variant="as_published", algorithm="published_tahoe")
    rows = sc.number_rows(pd.concat([df, pub]), ref, "as_published")
    assert [r["verdict"] for r in rows] == ["inside", "outside", "missing"]
    assert rows[0]["item"] == "Table V lambda=5 tahoe" and rows[0]["variant"] == "as_published"
    assert [r["verdict"] for r in sc.number_rows(df.assign(variant="as_published"), ref, "as_published")] == \
        ["missing"] * 3   # 'tahoe' in as_published is no run of the paper's code


def test_rounding_tolerance_keeps_a_number_on_the_edge_inside():
    ref = pd.DataFrame([{"table": "VII", "metric": "loss_rate", "unit": "percent", "sweep": "lambda", "x": 5,
                         "algorithm": "none", "value": 0.2, "value_text": "0.20",
                         "fixed": "mu=10;K=5;theta=1;N=500"}])
    # per-run range [0.204, 0.5]: 0.20 printed could be 0.204 -> inside
    df = table([row("mm1_lambda", "none", "loss_rate", 0.352, spread=0.148, **{"lambda": 5})])
    assert sc.number_rows(df, ref, "standard")[0]["verdict"] == "inside"


def lam_table(metric, values, variant="standard", **kw):
    """{lambda: {alg: mean}} -> rows of study mm1_lambda."""
    return [row("mm1_lambda", a, metric, m, variant=variant, **kw, **{"lambda": lam})
            for lam, d in values.items() for a, m in d.items()]


def test_number_rows_fill_the_rule_columns_empty():
    ref = sc.load_reference(REFERENCE).head(2)
    rows = sc.number_rows(table(lam_table("throughput", {5: {"none": 4.8}})), ref, "standard")
    assert all(math.isnan(r["p_value"]) and r["rule"] == "" and r["note"] == "" for r in rows)


def test_claim_mm1_1_reproduced_when_every_ordering_is_significant():
    good = table(lam_table("throughput", {5: {"none": 4.8, "tahoe": 8.4, "reno": 8.5, "cubic": 7.6}}))
    r = claim("mm1-1", good)
    assert r.decision.verdict == "reproduced" and r.headline["mean"] == 4.8
    assert r.decision.p_value < 1e-10
    assert "3/3 comparisons hold significantly" in r.decision.note and "cubic throughput 7.6 > none 4.8" in r.decision.note


def test_claim_mm1_1_contradicted_when_an_ordering_is_significantly_reversed():
    bad = table(lam_table("throughput", {5: {"none": 4.8, "tahoe": 8.4, "reno": 8.5, "cubic": 4.0}}))
    d = claim("mm1-1", bad).decision
    assert d.verdict == "contradicted" and "cubic throughput 4 > none 4.8: reversed" in d.note


def test_right_by_mean_but_overlapping_is_inconclusive_not_reproduced():
    # the means-only rule called this reproduced: 4.805 > 4.8 with sd 0.01 over 10 seeds is no evidence
    df = table(lam_table("throughput", {5: {"none": 4.8, "tahoe": 4.9}}, half=0.3))
    d = claim("mm1-1", df).decision
    assert d.verdict == "inconclusive" and d.p_value > 0.05 and "not significant" in d.note
    # 4.805 > 4.8: 0.1%, below throughput's practical threshold (1%), negligible however many seeds
    d = claim("mm1-1", table(lam_table("throughput", {5: {"none": 4.8, "tahoe": 4.805}}))).decision
    assert d.verdict == "inconclusive" and "negligible" in d.note


def test_deterministic_rows_are_compared_by_value():
    df = table(lam_table("throughput", {5: {"none": 4.8, "tahoe": 4.9}}, half=0.0))
    d = claim("mm1-1", df).decision
    assert d.verdict == "reproduced" and d.p_value == 0 and "deterministic" in d.note
    tie = table(lam_table("throughput", {5: {"none": 4.8, "tahoe": 4.8}}, half=0.0))
    assert claim("mm1-1", tie).decision.verdict == "inconclusive"


def test_one_seed_cannot_be_tested():
    rows = lam_table("throughput", {5: {"none": 4.8, "tahoe": 8.4}})
    for r in rows:
        r.update(n=1, sd=np.nan)
    d = claim("mm1-1", table(rows)).decision
    assert d.verdict == "inconclusive" and math.isnan(d.p_value) and "no test" in d.note


def test_claim_not_testable_when_cells_missing():
    only_none = table(lam_table("throughput", {5: {"none": 4.8}}))
    assert claim("mm1-1", only_none).decision.verdict == "not_testable"  # no comparison at all
    d = claim("mm1-1", table(lam_table("throughput", {10: {"none": 1.0, "reno": 2.0}}))).decision
    assert d.verdict == "not_testable" and d.note.startswith("missing results: ") and "lambda=5 none throughput" in d.note
    assert math.isnan(d.p_value)


def full_loss_table(cubic_offset):
    rows = []
    for study, sweep, xs in (("mm1_lambda", "lambda", (5, 10, 15)), ("mm1_K", "K", (1, 5, 10)),
                             ("mm1_N", "N", (50, 300, 1000))):
        for x in xs:
            for a, m in {"tahoe": 8.0, "reno": 12.0, "cubic": 5.0 + cubic_offset}.items():
                rows.append(row(study, a, "loss_rate", m, **{sweep: x}))
    return table(rows)


def test_claim_mm1_2_every_cell():
    assert claim("mm1-2", full_loss_table(0)).decision.verdict == "reproduced"
    d = claim("mm1-2", full_loss_table(3.5)).decision  # cubic 8.5 > tahoe 8.0 everywhere
    assert d.verdict == "contradicted"
    assert d.note.startswith("9/18 comparisons hold significantly")
    assert "K=10 cubic loss_rate 8.5 < tahoe 8: reversed" in d.note
    d = claim("mm1-2", full_loss_table(2.995)).decision  # cubic 7.995 vs tahoe 8.0: right by mean, a tie
    assert d.verdict == "inconclusive"


def test_claim_mm1_3_and_4():
    df = table(lam_table("throughput", {15: {"none": 9.8, "tahoe": 9.3, "reno": 9.1, "cubic": 9.4}})
               + lam_table("loss_rate", {15: {"none": 30.4, "tahoe": 9.4, "reno": 15.8, "cubic": 4.6}}))
    d = claim("mm1-3", df).decision
    assert d.verdict == "reproduced" and d.note.startswith("6/6")
    assert "none loss_rate 30.4 > reno" in d.note
    k = table([row("mm1_K", a, "loss_rate", m, K=1) for a, m in
               {"none": 60.0, "tahoe": 49.8, "reno": 84.4, "cubic": 9.2}.items()])
    r = claim("mm1-4", k)
    assert r.decision.verdict == "reproduced" and r.paper_value == 84.4 and r.headline["mean"] == 84.4
    k.loc[k["algorithm"] == "none", ["mean", "ci_low", "ci_high"]] = [90.0, 89.0, 91.0]
    assert claim("mm1-4", k).decision.verdict == "contradicted"


def test_claim_mm1_5_uses_lambda_and_k_cells():
    rows = lam_table("avg_delay", {5: {"tahoe": 0.34, "reno": 0.34, "cubic": 0.31},
                                   15: {"tahoe": 0.41, "reno": 0.43, "cubic": 0.34}})
    rows += [row("mm1_K", a, "avg_delay", m, K=k) for k, d in
             {5: {"tahoe": 0.41, "reno": 0.43, "cubic": 0.34}, 10: {"tahoe": 0.54, "reno": 0.66, "cubic": 0.46}}.items()
             for a, m in d.items()]
    assert claim("mm1-5", table(rows)).decision.verdict == "reproduced"
    d = claim("mm1-5", table(rows[:-1])).decision
    assert d.verdict == "not_testable" and "K=10 cubic avg_delay" in d.note


def test_claims_mm1_6_and_7_trends():
    rows = [row("mm1_N", a, "throughput", m, N=n) for a, d in
            {"tahoe": {50: 7.4, 1000: 9.4}, "reno": {50: 7.7, 1000: 9.35}}.items() for n, m in d.items()]
    rows += [row("mm1_N", a, "loss_rate", m, N=n) for a, d in
             {"tahoe": {50: 10.0, 1000: 7.6}, "reno": {50: 10.0, 1000: 16.0}}.items() for n, m in d.items()]
    df = table(rows)
    r6 = claim("mm1-6", df)
    assert r6.decision.verdict == "reproduced" and r6.headline["mean"] == 9.4 and r6.paper_value == 9.3578
    r7 = claim("mm1-7", df)
    assert r7.decision.verdict == "reproduced" and r7.headline["mean"] == 16.0
    assert "tahoe loss_rate falls from N=50 to 1000 (10 -> 7.6" in r7.decision.note
    df.loc[(df["algorithm"] == "tahoe") & (df["metric"] == "loss_rate") & (df["N"] == 1000), "mean"] = 12.0
    assert claim("mm1-7", df).decision.verdict == "contradicted"
    df.loc[(df["algorithm"] == "tahoe") & (df["metric"] == "loss_rate") & (df["N"] == 1000), "mean"] = 9.995
    assert claim("mm1-7", df).decision.verdict == "inconclusive"
    d = claim("mm1-6", df[df["algorithm"] != "reno"]).decision
    assert d.verdict == "not_testable" and "reno throughput: fewer than two values of N" in d.note


def trace(alg, cwnd, variant="standard", seed=0, N=50, t=None):
    t = np.arange(len(cwnd), dtype=float) if t is None else t
    return pd.DataFrame({"study": "mm1_cwnd", "variant": variant, "algorithm": alg, "N": N, "seed": seed,
                         "t": t, "cwnd": cwnd})


TAHOE = [1, 2, 4, 8, 1, 2, 4, 6, 1, 2, 4, 1]
RENO = [1, 2, 3, 4, 8, 4, 5, 6, 3, 4, 5, 6, 7, 3, 4]


def cubic(seed, shapes, points=12, C=0.4, beta=0.2):
    """(t, cwnd) of regrowths dropping to (1 - beta) of the last window, each sampled at uneven times
    over (0, 2K): 'cubic' is C (t-K)^3 + the previous maximum (concave then convex), 'linear' and
    'convex' (C t^3) join the same first and last windows."""
    rng = np.random.default_rng(seed)
    ts, ws, t0, w_max = [], [], 0.0, 10.0
    for shape in shapes:
        k = np.cbrt(beta * w_max / C)
        t = np.r_[0.0, np.sort(rng.uniform(0, 2 * k, points))]
        w = w_max + C * (t - k) ** 3
        if shape != "cubic":
            u = t / t[-1] if shape == "linear" else (t / t[-1]) ** 3
            w = w[0] + (w[-1] - w[0]) * u
        ts.append(t0 + t)
        ws.append(w)
        t0, w_max = t0 + t[-1] + 0.05, w[-1]
    return np.concatenate(ts), np.concatenate(ws)


def seeds(seed_list, tahoe=TAHOE, reno=RENO, shape="cubic", points=12):
    """Tahoe's and Reno's traces the same in every seed; Cubic's six regrowths (four between two drops)
    of `shape`, the k-th seed's (k > 0) with its k-th one linear, so the share of concave-then-convex
    regrowths varies over seeds (tested by Welch, not by value)."""
    frames = []
    for i, s in enumerate(seed_list):
        shapes = [shape] * 6
        if shape == "cubic" and 0 < i <= 4:
            shapes[i] = "linear"
        t, w = cubic(s, shapes, points)
        frames += [trace("tahoe", tahoe, seed=s), trace("reno", reno, seed=s), trace("cubic", w, seed=s, t=t)]
    return pd.concat(frames)


SHAPE = "(e) cubic cwnd_concave_then_convex"


def mm1_8(traces):
    """Claim mm1-8's decision, with the full note (comparisons and the per-seed numbers of its context)."""
    r = claim("mm1-8", traces=traces)
    return SimpleNamespace(decision=replace(r.decision, note=r.note))


def test_claim_mm1_8_reproduced_over_seeds():
    d = mm1_8(seeds([1, 2, 3, 4, 5])).decision
    assert d.verdict == "reproduced", d.note
    assert "6/6 comparisons hold significantly" in d.note
    assert "tahoe cwnd_drops share_to_one" in d.note and "deterministic" in d.note  # tahoe: 100% to 1 in every seed
    how = {c.label.rsplit(" ", 3)[0]: c.how for c in d.comparisons}
    assert how[SHAPE] == "welch"  # shares 1, 3/4, 3/4, 3/4, 3/4
    assert "seed 1: 4 of 4 judged" in d.note and "seed 5: 3 of 4 judged" in d.note  # per-seed numbers reported
    assert ">= 5 slopes" in d.note and "2/3" in d.note  # the thresholds are stated


@pytest.mark.parametrize("shape", ["linear", "convex"])
def test_claim_mm1_8_linear_or_convex_regrowth_is_contradicted(shape):
    d = mm1_8(seeds([1, 2, 3], shape=shape)).decision
    assert d.verdict == "contradicted", d.note
    assert SHAPE in d.note and "0 > 0.5: reversed" in d.note and "seed 2: 0 of 4 judged" in d.note
    assert sum(c.holds for c in d.comparisons) == 5   # only the shape fails


def test_claim_mm1_8_names_the_published_code_in_as_published():
    frames = seeds([1, 2, 3, 4, 5]).assign(variant="as_published")
    frames["algorithm"] = "published_" + frames["algorithm"]
    d = mm1_8(frames).decision
    assert d.verdict == "reproduced", d.note
    assert "published_tahoe cwnd_drops share_to_one" in d.note and "published_reno cwnd_drops median_ratio" in d.note
    assert any(c.label.startswith(SHAPE.replace("cubic", "published_cubic", 1)) for c in d.comparisons)
    plain = seeds([1, 2, 3]).assign(variant="as_published")   # textbook names: no run of the paper's code
    assert mm1_8(plain).decision.verdict == "not_testable"


def test_claim_mm1_8_contradicted_when_a_pattern_is_absent():
    d = mm1_8(seeds([1, 2, 3], tahoe=RENO)).decision
    assert d.verdict == "contradicted" and "tahoe cwnd_drops share_to_one 0 > 0.9: reversed" in d.note


def test_claim_mm1_8_one_seed_is_inconclusive():
    d = mm1_8(seeds([1])).decision
    assert d.verdict == "inconclusive" and math.isnan(d.p_value)
    assert "no test, one seed" in d.note and all(c.how == "one seed" for c in d.comparisons)


def test_claim_mm1_8_not_testable_without_traces_or_drops():
    assert mm1_8(None).decision.verdict == "not_testable"
    t, w = cubic(1, ["cubic"] * 4)
    d = mm1_8(pd.concat([trace("tahoe", [1, 2, 3]), trace("reno", RENO), trace("cubic", w, t=t)])).decision
    assert d.verdict == "not_testable" and "no drops in the cwnd traces of tahoe" in d.note


def test_claim_mm1_8_not_testable_when_regrowths_are_too_short():
    d = mm1_8(seeds([1, 2, 3], points=3)).decision   # 3 slopes per regrowth, 5 needed
    assert d.verdict == "not_testable" and not d.comparisons
    assert "no cubic regrowth between two drops is long enough to judge its shape" in d.note
    assert ">= 5 slopes" in d.note and "seed 3: 0 of 0 judged (4 regrowths" in d.note


def analytic_rows(bias=0.0, variant="as_published", prop=0.0, sd_rel=1e-4):
    rows = []
    for lam in (5, 9, 15):
        for K in (1, 5, 10):
            for metric, value in mm1k.closed_forms(lam, 10, K).items():
                if metric == "avg_delay" and variant == "standard":
                    value += prop
                m = value * (1 + bias)
                rows.append(row("mm1_analytic", "none", metric, m, half=sd_rel * abs(m) + 1e-9,
                                variant=variant, theta=math.inf, N=20000, prop_delay=prop, **{"lambda": lam, "K": K}))
    return rows


def test_claim_mm1_9_within_the_tolerance_of_the_closed_forms():
    r = claim("mm1-9", table(analytic_rows()))
    assert r.decision.verdict == "reproduced" and r.decision.note.startswith("54/54")
    assert r.headline is not None and r.paper_value > 0
    assert "Tolerance max(3% of the closed form" in r.note
    # 0.5% off: within 3% by more than each metric's practical threshold (2% of a loss rate, 1% otherwise)
    assert claim("mm1-9", table(analytic_rows(bias=0.005))).decision.verdict == "reproduced"
    # 1% off, inside the 3% band: within it (issue 34 item 5). The band is the declared practical threshold;
    # a loss rate's own 2% threshold on top used to call the distance to the band's edge negligible
    assert claim("mm1-9", table(analytic_rows(bias=0.01))).decision.verdict == "reproduced"
    r = claim("mm1-9", table(analytic_rows(bias=0.2)))
    assert r.decision.verdict == "contradicted" and "mean outside the tolerance" in r.note
    # within the tolerance by mean, but runs too spread to say so significantly
    assert claim("mm1-9", table(analytic_rows(bias=0.01, sd_rel=0.2))).decision.verdict == "inconclusive"
    # standard variant: delivered packets also cross one propagation delay
    assert claim("mm1-9", table(analytic_rows(variant="standard", prop=0.05))).decision.verdict == "reproduced"
    d = claim("mm1-9", table(lam_table("throughput", {5: {"none": 1.0}}))).decision
    assert d.verdict == "not_testable" and "mm1_analytic" in d.note


def test_claim_mm1_9_deterministic_rows_by_value():
    rows = analytic_rows()
    for r in rows:
        r["sd"] = 0.0
    d = claim("mm1-9", table(rows)).decision
    assert d.verdict == "reproduced" and d.p_value == 0 and "deterministic" in d.note


def test_analytic_comparison_ignores_prop_delay_for_as_published():
    rows = analytic_rows()
    for r in rows:
        r["prop_delay"] = 0.05  # present in the table, but the published model has no propagation
    cmp = sc.analytic_comparison(table(rows))
    assert cmp["agree"].all()
    assert (cmp["tol"] >= 0.03 * cmp["closed_form"].abs() - 1e-12).all()


# --------------------------------------------------------------------------- whole scorecard

def test_build_has_the_expected_shape():
    ref = sc.load_reference(REFERENCE)
    assert len(ref) == 108
    df = table(lam_table("throughput", {5: {"none": 4.8, "published_tahoe": 8.4, "published_reno": 8.5,
                                            "published_cubic": 7.6}}, variant="as_published")
               + lam_table("throughput", {5: {"none": 4.8, "tahoe": 8.4, "reno": 8.5, "newreno": 8.5, "cubic": 7.6}},
                           variant="standard"))
    card, notes = sc.build(df, None, ref)
    assert list(card.columns) == sc.SCORECARD_COLUMNS
    assert len(card) == 2 * 108 + 2 * 9
    claims = card[card["item"].str.startswith("mm1-")]
    assert list(claims["item"][:9]) == [f"mm1-{i}" for i in range(1, 10)]
    assert set(claims["verdict"]) <= set(rule.VERDICTS)
    one = claims.set_index(["item", "variant"]).loc[("mm1-1", "standard")]
    assert one["verdict"] == "reproduced" and one["p_value"] < 1e-10 and one["rule"] == rule.RULE
    assert one["note"] == "4 of 4 comparisons hold significantly."
    pub = claims.set_index(["item", "variant"]).loc[("mm1-1", "as_published")]
    assert pub["verdict"] == "reproduced" and pub["note"] == "3 of 3 comparisons hold significantly."
    pub_notes = notes.set_index(["item", "variant"]).loc[("mm1-1", "as_published"), "note"]
    assert "published_tahoe throughput 8.4 > none 4.8" in pub_notes and " tahoe >" not in pub_notes
    untested = claims.set_index(["item", "variant"]).loc[("mm1-2", "standard")]
    assert untested["verdict"] == "not_testable" and untested["rule"] == "" and math.isnan(untested["p_value"])
    nums = card[~card["item"].str.startswith("mm1-")]
    assert set(nums["verdict"]) <= {"inside", "outside", "missing"}
    assert (nums["verdict"] == "inside").sum() >= 2
    assert nums["p_value"].isna().all() and (nums["rule"] == "").all() and (nums["note"] == "").all()
    assert len(notes) == 18 and list(notes.columns) == ["item", "variant", "verdict", "note", "why"]


def test_missing_reference_fails_clearly(tmp_path):
    with pytest.raises(SystemExit, match="reference_dir"):
        sc.load_reference(tmp_path / "nope.csv")
