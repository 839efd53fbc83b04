"""Claims of the Wi-Fi testbed paper on hand-made long tables: tb-1..tb-5 decided by the engine
(simulator/report/claim_engine.py) from their decide blocks in reference/claims.yaml, through the
workflow's entry simulator/report/papers/testbed/claims.py, which adds the rows of the numbers the paper quotes."""
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]
from simulator.report.claim_rule import VERDICTS
from simulator.report import claim_rule as cr  # noqa: E402
from simulator.report import claims_common as cc  # noqa: E402
from simulator.report.papers.testbed import claims as tb  # noqa: E402
from simulator.report import verdicts as vd  # noqa: E402

ALGS = ("bbr", "cubic", "reno", "vegas")
SETUPS = ("eth_wifi", "wifi_wifi")
BACKGROUNDS = ("none", "light", "heavy")
# a grid that satisfies every claim (means; sd 1% of the mean, 10 seeds)
GOOD = {
    "throughput_mean_mbps": {"eth_wifi": dict(bbr=40, cubic=42, reno=38, vegas=10),
                             "wifi_wifi": dict(bbr=20, cubic=21, reno=19, vegas=5)},
    "ping_rtt_mean_ms": {"eth_wifi": dict(bbr=25, cubic=28, reno=22, vegas=4),
                         "wifi_wifi": dict(bbr=30, cubic=35, reno=32, vegas=160)},
    "ping_loss_pct": {"eth_wifi": dict(bbr=3, cubic=2, reno=1.5, vegas=0.1),
                      "wifi_wifi": dict(bbr=5.5, cubic=5.2, reno=3.5, vegas=0.1)},
    "cwnd_median_pkts": {"eth_wifi": dict(bbr=80, cubic=90, reno=50, vegas=5),
                         "wifi_wifi": dict(bbr=90, cubic=70, reno=40, vegas=4)},
}
HEAVY_CWND_FACTOR = {"bbr": 0.8, "cubic": 0.4, "reno": 0.3, "vegas": 0.5}   # BBR largest under heavy


def row(metric, algorithm, link_setup, background, mean, sd=None, n=10, bidir=np.nan):
    sd = 0.01 * abs(mean) if sd is None else sd
    half = 1.96 * sd / np.sqrt(n)
    return dict(study="tb_matrix", paper="testbed", point="p", model="testbed", algorithm=algorithm,
                link_setup=link_setup, background=background, bidir=bidir, metric=metric, mean=mean, sd=sd,
                n=n, ci_low=mean - half, ci_high=mean + half, run_p025=mean - 2 * sd, run_p975=mean + 2 * sd,
                run_min=mean - 2.5 * sd, run_max=mean + 2.5 * sd)


def grid(values=GOOD, override=None, metrics=None, backgrounds=BACKGROUNDS):
    """Full unidirectional grid (+ bidirectional rows, which must be ignored); background rows
    copy the baseline except cwnd, which shrinks by HEAVY_CWND_FACTOR. override:
    {(metric, alg, setup, background): mean}."""
    override = override or {}
    rows = []
    for metric, by_setup in values.items():
        if metrics and metric not in metrics:
            continue
        for s in SETUPS:
            for a in ALGS:
                for bg in backgrounds:
                    mean = by_setup[s][a]
                    if metric == "cwnd_median_pkts" and bg != "none":
                        mean *= HEAVY_CWND_FACTOR[a]
                    rows.append(row(metric, a, s, bg, override.get((metric, a, s, bg), mean)))
            for a in ("bbr", "cubic"):     # bidir rows: background empty; a contradicting value
                rows.append(row(metric, a, s, np.nan, -1000.0, bidir=True))
    # the same rows as the 802.11 channel's matrix, which the quoted numbers are compared with
    return pd.DataFrame(rows + [dict(r, study="tb_wifi_matrix") for r in rows])


CLAIMS = ("tb-1", "tb-2", "tb-3", "tb-4", "tb-5")
DECIDED = ("tb-2", "tb-3", "tb-4", "tb-5")          # tb-1 is not_testable by construction of our model


def build(table):
    rows, notes = tb.build(table, None)
    assert [n["item"] for n in notes] == [r["item"] for r in rows]
    for r in rows:
        assert list(r) == vd.SCORECARD_COLUMNS
        if r["item"] in CLAIMS:
            assert r["verdict"] in vd.VERDICTS
        else:                                     # a number the paper quotes: no test
            assert r["verdict"] in vd.NUMBER_VERDICTS
            assert np.isnan(r["p_value"]) and r["rule"] == "" and r["note"] == ""
    return {r["item"]: r for r in rows}, {n["item"]: n["note"] for n in notes}


def verdicts(table):
    return {k: r["verdict"] for k, r in build(table)[0].items()}


def test_all_claims_reproduced_on_a_grid_that_satisfies_them():
    rows, notes = build(grid())
    assert {k: rows[k]["verdict"] for k in DECIDED} == dict.fromkeys(DECIDED, "reproduced")
    for k in DECIDED:
        assert rows[k]["p_value"] < 0.05 and rows[k]["rule"] == cr.RULE
    # quoted numbers inside / outside our per-run range
    assert rows["RTT wifi_wifi vegas (tb-3)"]["verdict"] == "inside"
    assert rows["RTT eth_wifi vegas (tb-3)"]["verdict"] == "inside"
    assert rows["loss wifi_wifi reno (tb-4)"]["verdict"] == "inside"
    # 30 ms +- 2% overlaps the paper's 25-40 ms (its midpoint 32.5 lies outside: the old midpoint test said outside)
    assert rows["RTT wifi_wifi bbr (tb-3)"]["verdict"] == "inside"
    assert "overlaps" in notes["RTT wifi_wifi bbr (tb-3)"] and "light" in notes["RTT wifi_wifi bbr (tb-3)"]
    assert rows["RTT eth_wifi reno (tb-3)"]["verdict"] == "inside"        # 22 ms +- 2% in 20-30 ms (midpoint 25 not)


def test_a_quoted_range_is_kept_as_a_range_never_its_midpoint():
    """The paper's 25-40 ms is the row's paper_low and paper_high; a range has no paper_value (no midpoint)."""
    rows, notes = build(grid())
    r = rows["RTT wifi_wifi bbr (tb-3)"]
    assert (r["paper_low"], r["paper_high"]) == (25.0, 40.0) and np.isnan(r["paper_value"])
    assert "25–40 ms" in notes["RTT wifi_wifi bbr (tb-3)"] and "32.5" not in notes["RTT wifi_wifi bbr (tb-3)"]
    v = rows["RTT wifi_wifi vegas (tb-3)"]
    assert v["paper_value"] == v["paper_low"] == v["paper_high"] == 160.0


def test_a_range_is_outside_only_when_it_misses_our_whole_per_run_range():
    """45 ms +- 2% (per-run range 44.1-45.9) misses 25-40 ms: outside; 40.5 +- 2% (39.69-41.31) touches it: inside."""
    m = "ping_rtt_mean_ms"
    far = verdicts(grid(metrics={m}, override={(m, "bbr", "wifi_wifi", "none"): 45.0}))
    near = verdicts(grid(metrics={m}, override={(m, "bbr", "wifi_wifi", "none"): 40.5}))
    assert far["RTT wifi_wifi bbr (tb-3)"] == "outside" and near["RTT wifi_wifi bbr (tb-3)"] == "inside"


def test_tb1_is_not_testable_by_construction_but_its_comparisons_are_listed():
    rows, notes = build(grid())
    r = rows["tb-1"]
    assert r["verdict"] == "not_testable" and np.isnan(r["p_value"]) and r["rule"] == ""
    assert "by construction" in r["note"]
    assert "(alone: reproduced)" in notes["tb-1"] and "4/4 comparisons hold" in notes["tb-1"]
    assert "with background: none, light, heavy" in notes["tb-1"]
    assert r["n_seeds"] == 10 and r["metric"].startswith("throughput_mean_mbps")


def test_tb1_note_says_when_its_comparisons_would_be_reversed():
    m = "throughput_mean_mbps"
    _, notes = build(grid(metrics={m}, override={(m, "reno", "wifi_wifi", "none"): 45.0}))
    assert "(alone: contradicted)" in notes["tb-1"] and "reversed" in notes["tb-1"]


def test_headline_cells_the_results_choose():
    m = "throughput_mean_mbps"
    rows, _ = build(grid())
    # tb-1: the smallest ETH-WiFi / WiFi-WiFi ratio (CUBIC 42 / 21 = 2.0, Vegas 10 / 5 = 2.0, Reno 38 / 19
    # = 2.0, BBR 40 / 20 = 2.0 tie: the first); then Reno, made the weakest
    assert rows["tb-1"]["metric"] == f"{m}: bbr wifi_wifi none" and rows["tb-1"]["ours_mean"] == 20
    rows, _ = build(grid(override={(m, "reno", "wifi_wifi", "none"): 30.0}))
    assert rows["tb-1"]["metric"] == f"{m}: reno wifi_wifi none" and rows["tb-1"]["ours_mean"] == 30
    # tb-2: "similar" holds by mean, so Vegas on the setup where it comes closest (10 / 38 vs 5 / 19)
    rows, _ = build(grid())
    assert rows["tb-2"]["metric"] == f"{m}: vegas eth_wifi none" and rows["tb-2"]["ours_mean"] == 10
    # ... else the highest of BBR/CUBIC/Reno where they spread most
    rows, _ = build(grid(override={(m, "bbr", "wifi_wifi", "none"): 40.0}))
    assert rows["tb-2"]["metric"] == f"{m}: bbr wifi_wifi none" and rows["tb-2"]["verdict"] == "contradicted"
    # fixed headline cells; the plain metric when the claim's rows are missing
    assert rows["tb-5"]["metric"] == "cwnd_median_pkts: bbr eth_wifi heavy"
    rows, _ = build(grid(metrics={m}))
    assert rows["tb-3"]["metric"] == "ping_rtt_mean_ms" and rows["tb-3"]["n_seeds"] == 0


def test_a_headline_chooser_must_be_a_named_function():
    from simulator.report import claim_engine, claim_spec
    from simulator.workflow_config import _model_of
    doc = claim_engine.load()
    claim = next(c for c in doc["claims"] if c["id"] == "tb-1")
    bad = {**claim, "decide": {**claim["decide"], "headline": {"choose": "nope"}}}
    models = {p.stem: _model_of(p) for p in (ROOT / "config/studies").rglob("*.yaml")}
    claim_spec.check(claim, doc["scoring"], models)
    with pytest.raises(claim_spec.ClaimSpecError, match="choose: 'nope' is not allowed; allowed values: .*tb1_weakest"):
        claim_spec.check(bad, doc["scoring"], models)


CLAIM_METRIC = {"tb-1": "throughput_mean_mbps", "tb-2": "throughput_mean_mbps", "tb-3": "ping_rtt_mean_ms",
                "tb-4": "ping_loss_pct", "tb-5": "cwnd_median_pkts"}


@pytest.mark.parametrize("claim", DECIDED)
def test_claim_reproduced_on_its_metric_alone(claim):
    assert verdicts(grid(metrics={CLAIM_METRIC[claim]}))[claim] == "reproduced"


# (claim, algorithm, link setup, background, mean): one value on the claim's metric alone that
# significantly reverses one of its comparisons
@pytest.mark.parametrize("claim, alg, setup, background, mean", [
    # tb-2: BBR, CUBIC and Reno similar, Vegas far lower
    pytest.param("tb-2", "bbr", "eth_wifi", "none", 60.0, id="tb2-spread"),            # 60 > 1.25 x 38
    pytest.param("tb-2", "vegas", "wifi_wifi", "none", 12.0, id="tb2-vegas_close"),    # 12 > 19 / 2
    # tb-3: Vegas must inflate on Wi-Fi
    pytest.param("tb-3", "vegas", "wifi_wifi", "none", 9.0, id="tb3-vegas_calm_on_wifi"),
    pytest.param("tb-4", "vegas", "wifi_wifi", "none", 4.0, id="tb4-vegas_lossy"),
    pytest.param("tb-4", "reno", "wifi_wifi", "none", 7.0, id="tb4-reno_top"),
    # tb-5: background must shrink every window
    pytest.param("tb-5", "bbr", "eth_wifi", "heavy", 200.0, id="tb5-bbr_grows"),
    # 80 > BBR's 72 under heavy
    pytest.param("tb-5", "cubic", "wifi_wifi", "heavy", 80.0, id="tb5-cubic_top"),
])
def test_one_value_contradicts_the_claim(claim, alg, setup, background, mean):
    metric = CLAIM_METRIC[claim]
    rows, notes = build(grid(metrics={metric}, override={(metric, alg, setup, background): mean}))
    assert rows[claim]["verdict"] == "contradicted"
    assert "reversed" in rows[claim]["note"] and "reversed" in notes[claim]


def test_tb2_similar_is_each_pair_within_25_percent():
    m = "throughput_mean_mbps"
    # 46 / 38 = 1.21: every pair within 1.25 x significantly (sd 1%)
    assert verdicts(grid(metrics={m}, override={(m, "bbr", "eth_wifi", "none"): 46.0}))["tb-2"] == "reproduced"
    # 47.5 / 38 = 1.25 exactly: BBR < 1.25 x Reno is a tie, neither holds nor is reversed
    assert verdicts(grid(metrics={m}, override={(m, "bbr", "eth_wifi", "none"): 47.5}))["tb-2"] == "inconclusive"


def test_differences_inside_the_noise_are_inconclusive():
    noisy = grid().assign(sd=lambda d: d["mean"].abs() * 2)
    rows, notes = build(noisy)
    assert {k: rows[k]["verdict"] for k in DECIDED} == dict.fromkeys(DECIDED, "inconclusive")
    assert all(rows[k]["p_value"] >= 0.05 for k in DECIDED)
    assert rows["tb-1"]["verdict"] == "not_testable" and "(alone: inconclusive)" in notes["tb-1"]


def test_tie_is_inconclusive():
    m = "ping_loss_pct"     # tb-4: Reno as lossy as BBR and CUBIC
    tie = grid(metrics={m}, override={(m, "reno", "wifi_wifi", "none"): 5.5, (m, "cubic", "wifi_wifi", "none"): 5.5})
    assert verdicts(tie)["tb-4"] == "inconclusive"


def test_deterministic_rows_are_compared_by_value():
    exact = grid().assign(sd=0.0)
    rows, notes = build(exact)
    assert {k: rows[k]["verdict"] for k in DECIDED} == dict.fromkeys(DECIDED, "reproduced")
    assert "deterministic" in rows["tb-3"]["note"] and rows["tb-3"]["p_value"] == 0.0
    m = "ping_loss_pct"
    tie = grid(metrics={m}, override={(m, "reno", "wifi_wifi", "none"): 5.5,
                                      (m, "cubic", "wifi_wifi", "none"): 5.5}).assign(sd=0.0)
    assert verdicts(tie)["tb-4"] == "inconclusive"          # Reno = BBR = CUBIC by value: p = 1
    rev = grid(metrics={m}, override={(m, "vegas", "wifi_wifi", "none"): 4.0}).assign(sd=0.0)
    assert verdicts(rev)["tb-4"] == "contradicted"


def test_one_seed_cannot_be_tested():
    rows, _ = build(grid(metrics={"ping_rtt_mean_ms"}).assign(n=1))
    assert rows["tb-3"]["verdict"] == "inconclusive" and np.isnan(rows["tb-3"]["p_value"])
    assert "one seed" in rows["tb-3"]["note"]


def test_other_claims_not_testable_without_their_metrics():
    rows, notes = build(grid(metrics={"throughput_mean_mbps"}))
    for k in ("tb-3", "tb-4", "tb-5"):
        assert rows[k]["verdict"] == "not_testable" and np.isnan(rows[k]["p_value"]) and rows[k]["rule"] == ""
        assert "Not testable: missing results: " in notes[k] and CLAIM_METRIC[k] in notes[k]
    assert rows["tb-2"]["verdict"] == "reproduced"
    assert rows["RTT wifi_wifi bbr (tb-3)"]["verdict"] == "missing"


def test_tb5_needs_only_baseline_and_heavy():
    rows, notes = build(grid(metrics={"cwnd_median_pkts"}, backgrounds=("none", "heavy")))
    assert rows["tb-5"]["verdict"] == "reproduced" and "Light" not in notes["tb-5"]
    assert "Light" in build(grid(metrics={"cwnd_median_pkts"}))[1]["tb-5"]


def test_empty_table_is_not_testable_and_quoted_numbers_missing():
    rows, _ = build(pd.DataFrame())
    assert {k: rows[k]["verdict"] for k in CLAIMS} == dict.fromkeys(CLAIMS, "not_testable")
    quoted = [r for k, r in rows.items() if k not in CLAIMS]
    assert len(quoted) == 12 and all(r["verdict"] == "missing" and r["n_seeds"] == 0 for r in quoted)


@pytest.mark.slow
def test_real_tables_give_an_allowed_verdict_for_every_claim(built_report):
    """Tables of the tiny test profile's real run (fixture built_report: the whole tb_matrix for the claims,
    tb_wifi_matrix for the quoted numbers)."""
    paths = [built_report / "results" / "tables" / f"{s}.csv" for s in ("tb_matrix", "tb_wifi_matrix")]
    rows, notes = tb.build(cc.load_tables(paths), None)
    card = pd.DataFrame(rows, columns=cc.SCORECARD_COLUMNS)
    for cid in CLAIMS:
        got = card[card["item"] == cid]
        assert len(got) == 1 and got["verdict"].iloc[0] in VERDICTS
    assert card.loc[card["item"] == "tb-1", "verdict"].iloc[0] == "not_testable"
    quoted = card[card["paper_low"].notna()]
    assert len(quoted) == 12 and quoted["verdict"].isin(["inside", "outside"]).all()
    assert all(n["note"] for n in notes)
