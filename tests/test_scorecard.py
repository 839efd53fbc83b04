"""Scorecard logic on hand-made tables: M/M/1/K closed forms, claim functions, verdicts."""
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from simulator.report import mm1k  # noqa: E402
from simulator.report import scorecard_mm1 as sc  # noqa: E402

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


def row(study, algorithm, metric, mean, half=0.01, spread=0.1, variant="as_published", **params):
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
    rows = sc.number_rows(df, ref, "as_published")
    assert [r["verdict"] for r in rows] == ["inside", "outside", "missing"]
    assert rows[0]["item"] == "Table V lambda=5 tahoe"
    assert rows[0]["n_seeds"] == 10 and rows[2]["n_seeds"] == 0


def test_rounding_tolerance_keeps_a_number_on_the_edge_inside():
    ref = pd.DataFrame([{"table": "VII", "metric": "loss_rate", "unit": "percent", "sweep": "lambda", "x": 5,
                         "algorithm": "none", "value": 0.2, "value_text": "0.20",
                         "fixed": "mu=10;K=5;theta=1;N=500"}])
    # per-run range [0.204, 0.5]: 0.20 printed could be 0.204 -> inside
    df = table([row("mm1_lambda", "none", "loss_rate", 0.352, spread=0.148, **{"lambda": 5})])
    assert sc.number_rows(df, ref, "as_published")[0]["verdict"] == "inside"


def lam_table(metric, values, variant="as_published"):
    """{lambda: {alg: mean}} -> rows of study mm1_lambda."""
    return [row("mm1_lambda", a, metric, m, variant=variant, **{"lambda": lam})
            for lam, d in values.items() for a, m in d.items()]


def test_claim_mm1_1_reproduced_and_not():
    good = table(lam_table("throughput", {5: {"none": 4.8, "tahoe": 8.4, "reno": 8.5, "cubic": 7.6}}))
    r = sc.claim_mm1_1(good)
    assert r.verdict == "reproduced" and r.headline["mean"] == 4.8
    bad = table(lam_table("throughput", {5: {"none": 4.8, "tahoe": 8.4, "reno": 8.5, "cubic": 4.0}}))
    r = sc.claim_mm1_1(bad)
    assert r.verdict == "not_reproduced" and "cubic > none" in r.note and "(significant)" in r.note


def test_claim_untestable_when_cells_missing():
    only_none = table(lam_table("throughput", {5: {"none": 4.8}}))
    assert sc.claim_mm1_1(only_none).verdict == "untestable"
    assert sc.claim_mm1_1(table(lam_table("throughput", {10: {"none": 1.0}}))).verdict == "untestable"


def full_loss_table(cubic_offset):
    rows = []
    for study, sweep, xs in (("mm1_lambda", "lambda", (5, 10, 15)), ("mm1_K", "K", (1, 5, 10)),
                             ("mm1_N", "N", (50, 300, 1000))):
        for x in xs:
            for a, m in {"tahoe": 8.0, "reno": 12.0, "cubic": 5.0 + cubic_offset}.items():
                rows.append(row(study, a, "loss_rate", m, **{sweep: x}))
    return table(rows)


def test_claim_mm1_2_every_cell():
    assert sc.claim_mm1_2(full_loss_table(0)).verdict == "reproduced"
    r = sc.claim_mm1_2(full_loss_table(3.5))  # cubic 8.5 > tahoe 8.0 everywhere
    assert r.verdict == "not_reproduced"
    assert r.note.startswith("18/27") or r.note.startswith("9/18")


def test_close_comparison_is_flagged_not_significant():
    df = table(lam_table("throughput", {5: {"none": 4.8, "tahoe": 4.805}}))
    r = sc.claim_mm1_1(df)
    assert r.verdict == "reproduced" and "not significant" in r.note


def test_claim_mm1_3_and_4():
    df = table(lam_table("throughput", {15: {"none": 9.8, "tahoe": 9.3, "reno": 9.1, "cubic": 9.4}})
               + lam_table("loss_rate", {15: {"none": 30.4, "tahoe": 9.4, "reno": 15.8, "cubic": 4.6}}))
    assert sc.claim_mm1_3(df).verdict == "reproduced"
    k = table([row("mm1_K", a, "loss_rate", m, K=1) for a, m in
               {"none": 60.0, "tahoe": 49.8, "reno": 84.4, "cubic": 9.2}.items()])
    r = sc.claim_mm1_4(k)
    assert r.verdict == "reproduced" and r.paper_value == 84.4 and r.headline["mean"] == 84.4
    k.loc[k["algorithm"] == "none", ["mean", "ci_low", "ci_high"]] = [90.0, 89.0, 91.0]
    assert sc.claim_mm1_4(k).verdict == "not_reproduced"


def test_claim_mm1_5_uses_lambda_and_k_cells():
    rows = lam_table("avg_delay", {5: {"tahoe": 0.34, "reno": 0.34, "cubic": 0.31},
                                   15: {"tahoe": 0.41, "reno": 0.43, "cubic": 0.34}})
    rows += [row("mm1_K", a, "avg_delay", m, K=k) for k, d in
             {5: {"tahoe": 0.41, "reno": 0.43, "cubic": 0.34}, 10: {"tahoe": 0.54, "reno": 0.66, "cubic": 0.46}}.items()
             for a, m in d.items()]
    assert sc.claim_mm1_5(table(rows)).verdict == "reproduced"
    assert sc.claim_mm1_5(table(rows[:-1])).verdict == "untestable"


def test_claims_mm1_6_and_7_trends():
    rows = [row("mm1_N", a, "throughput", m, N=n) for a, d in
            {"tahoe": {50: 7.4, 1000: 9.4}, "reno": {50: 7.7, 1000: 9.35}}.items() for n, m in d.items()]
    rows += [row("mm1_N", a, "loss_rate", m, N=n) for a, d in
             {"tahoe": {50: 10.0, 1000: 7.6}, "reno": {50: 10.0, 1000: 16.0}}.items() for n, m in d.items()]
    df = table(rows)
    assert sc.claim_mm1_6(df).verdict == "reproduced"
    assert sc.claim_mm1_7(df).verdict == "reproduced"
    df.loc[(df["algorithm"] == "tahoe") & (df["metric"] == "loss_rate") & (df["N"] == 1000),
           ["mean", "ci_low", "ci_high"]] = [12.0, 11.9, 12.1]
    assert sc.claim_mm1_7(df).verdict == "not_reproduced"


def test_drop_events_merge_consecutive_decreases():
    assert sc.drop_events(np.array([1, 2, 4, 8, 1, 2, 3, 1.5, 1.0, 2])) == [(8.0, 1.0), (3.0, 1.0)]
    assert sc.drop_events(np.array([1, 2, 3])) == []


def test_regrowth_share():
    # drop from 10, regrow to 9 (>= 8), drop; drop from 9, regrow to 3 only, drop
    w = np.array([10, 2, 5, 9, 1, 3, 0.5])
    assert sc.regrowth_share(w) == (1, 2)


def trace(alg, cwnd, variant="as_published", seed=0):
    return pd.DataFrame({"study": "mm1_cwnd", "variant": variant, "algorithm": alg, "N": 50, "seed": seed,
                         "t": np.arange(len(cwnd), dtype=float), "cwnd": cwnd})


def test_claim_mm1_8_patterns():
    tahoe = [1, 2, 4, 8, 1, 2, 4, 6, 1, 2, 4, 1]
    reno = [1, 2, 3, 4, 8, 4, 5, 6, 3, 4, 5, 6, 7, 3, 4]
    cubic = [1, 3, 6, 10, 2, 5, 8, 9.5, 10, 11, 2.2, 6, 10, 11.5]
    traces = pd.concat([trace("tahoe", tahoe), trace("reno", reno), trace("cubic", cubic)])
    r = sc.claim_mm1_8(traces)
    assert r.verdict == "reproduced", r.note
    wrong = pd.concat([trace("tahoe", reno), trace("reno", reno), trace("cubic", cubic)])
    r = sc.claim_mm1_8(wrong)
    assert r.verdict == "not_reproduced" and "tahoe resets to 1" in r.note
    assert sc.claim_mm1_8(None).verdict == "untestable"
    assert sc.claim_mm1_8(pd.concat([trace("tahoe", [1, 2, 3]), trace("reno", reno),
                                     trace("cubic", cubic)])).verdict == "untestable"


def analytic_rows(bias=0.0, variant="as_published", prop=0.0):
    rows = []
    for lam in (5, 9, 15):
        for K in (1, 5, 10):
            for metric, value in mm1k.closed_forms(lam, 10, K).items():
                if metric == "avg_delay" and variant == "standard":
                    value += prop
                m = value * (1 + bias)
                rows.append(row("mm1_analytic", "none", metric, m, half=1e-4 * abs(m) + 1e-9,
                                variant=variant, theta=math.inf, N=20000, prop_delay=prop, **{"lambda": lam, "K": K}))
    return rows


def test_claim_mm1_9_agreement_tolerance_and_propagation():
    assert sc.claim_mm1_9(table(analytic_rows())).verdict == "reproduced"
    assert sc.claim_mm1_9(table(analytic_rows(bias=0.01))).verdict == "reproduced"  # within 3%
    r = sc.claim_mm1_9(table(analytic_rows(bias=0.2)))
    assert r.verdict == "not_reproduced" and "disagree" in r.note
    # standard variant: delivered packets also cross one propagation delay
    assert sc.claim_mm1_9(table(analytic_rows(variant="standard", prop=0.05))).verdict == "reproduced"
    assert sc.claim_mm1_9(table(lam_table("throughput", {5: {"none": 1.0}}))).verdict == "untestable"


def test_analytic_comparison_ignores_prop_delay_for_as_published():
    rows = analytic_rows()
    for r in rows:
        r["prop_delay"] = 0.05  # present in the table, but the published model has no propagation
    cmp = sc.analytic_comparison(table(rows))
    assert cmp["agree"].all()


# --------------------------------------------------------------------------- whole scorecard

def test_build_has_the_expected_shape():
    ref = sc.load_reference(REFERENCE)
    assert len(ref) == 108
    df = table(lam_table("throughput", {5: {"none": 4.8, "tahoe": 8.4, "reno": 8.5, "cubic": 7.6}})
               + lam_table("throughput", {5: {"none": 4.8, "tahoe": 8.4, "reno": 8.5, "newreno": 8.5, "cubic": 7.6}},
                           variant="standard"))
    card, notes = sc.build(df, None, ref)
    assert list(card.columns) == sc.SCORECARD_COLUMNS
    assert len(card) == 2 * 108 + 2 * 9
    claims = card[card["item"].str.startswith("mm1-")]
    assert sorted(claims["item"].unique()) == [f"mm1-{i}" for i in range(1, 10)]
    assert set(claims["verdict"]) <= {"reproduced", "not_reproduced", "untestable"}
    assert claims.set_index(["item", "variant"]).loc[("mm1-1", "standard"), "verdict"] == "reproduced"
    nums = card[~card["item"].str.startswith("mm1-")]
    assert set(nums["verdict"]) <= {"inside", "outside", "missing"}
    assert (nums["verdict"] == "inside").sum() >= 2
    assert len(notes) == 18


def test_missing_reference_fails_clearly(tmp_path):
    with pytest.raises(SystemExit, match="reference_dir"):
        sc.load_reference(tmp_path / "nope.csv")
