"""Claims of the NS-2 paper decided by the engine (simulator/report/claim_engine.py) from their decide:
blocks in reference/claims.yaml, under the one rule (claim_rule): verdicts on small synthetic tables that
satisfy a claim significantly, contradict it, tie, are deterministic or lack data; the CLI of
simulator/report/papers/ns2/claims.py; and a smoke test on the real tables when they exist."""
import copy
import math
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]
from simulator.report import claim_engine, claim_rule, claim_spec  # noqa: E402
from simulator.report.papers.ns2 import claims as claims_ns2
from simulator.report.verdicts import NUMBER_VERDICTS, SCORECARD_COLUMNS, VERDICTS  # noqa: E402

CLAIM_IDS = [f"ns2-{i}" for i in range(1, 8)]
VARIANTS = ("window20", "nocap")
PER_FLOW_COUNT = CLAIM_IDS[:6]                      # decided at each count of "multiple" flows their study ran

FIXED = {"topology": "mesh", "flows": 3, "bandwidth_mbps": 1.0, "delay_ms": 100}
W3, N3 = "window20, 3 flows", "nocap, 3 flows"      # the rows of a per-count claim whose study ran 3 flows


def row(study, algorithm, metric, mean, sd=0.01, n=10, **params):
    """One long-table row with the aggregate's columns; CI and run range from mean and sd."""
    p = dict(FIXED, **params)
    half = 2.262 * sd / n ** 0.5
    return {"study": study, "paper": "ns2", "point": f"algorithm~{algorithm}", "model": "ns2",
            "algorithm": algorithm, **p, "metric": metric, "mean": mean, "sd": sd, "n": n,
            "ci_low": mean - half, "ci_high": mean + half, "run_p025": mean - 2 * sd, "run_p975": mean + 2 * sd,
            "run_min": mean - 2.5 * sd, "run_max": mean + 2.5 * sd}


def topology_table(vegas_latency, other_latency, vegas_loss, other_loss, windows=(20, 0)):
    rows = []
    for window in windows:
        for top in ("linear", "star", "mesh"):
            for alg in ("reno", "newreno", "vegas"):
                v = alg == "vegas"
                sd_loss = 0.0 if (vegas_loss if v else other_loss) == 0 else 0.05
                rows += [row("ns2_topology", alg, "latency_mean_s", vegas_latency if v else other_latency,
                             topology=top, window=window),
                         row("ns2_topology", alg, "latency_sd_s", 0.05 if v else 0.2, topology=top, window=window),
                         row("ns2_topology", alg, "loss_pct", vegas_loss if v else other_loss, sd=sd_loss,
                             topology=top, window=window)]
    return pd.DataFrame(rows)


def queue_table(fq_latency, dt_latency, fq_loss, dt_loss, windows=(20, 0), flows=(3,)):
    """ns2_queue rows at each count of `flows`; a value given as a dict {count: value} differs per count."""
    at = lambda x, n: x[n] if isinstance(x, dict) else x      # noqa: E731
    rows = []
    for window in windows:
        for n in flows:
            for alg in ("reno", "newreno", "vegas"):
                for q, lat, loss in (("fq", at(fq_latency, n), at(fq_loss, n)),
                                     ("droptail", at(dt_latency, n), at(dt_loss, n))):
                    p = {"queue": q, "window": window, "flows": n}
                    rows += [row("ns2_queue", alg, "latency_mean_s", lat, **p),
                             row("ns2_queue", alg, "latency_max_s", 2 * lat, **p),
                             row("ns2_queue", alg, "loss_pct", loss, sd=0.0 if loss == 0 else 0.05, **p)]
    return pd.DataFrame(rows)


def flows_table(vegas_cwnd=3.0, reno_cwnd=3.5, vegas_tput=0.35, reno_sd=0.1, windows=(20, 0), flows=(3,)):
    """ns2_flows rows at each count of `flows`; a value given as a dict {count: value} differs per count."""
    at = lambda x, n: x[n] if isinstance(x, dict) else x      # noqa: E731
    rows = []
    for window in windows:
        for n in flows:
            for alg in ("reno", "newreno", "vegas"):
                v = alg == "vegas"
                rows += [row("ns2_flows", alg, "cwnd_mean", at(vegas_cwnd, n) if v else at(reno_cwnd, n),
                             sd=0.1 if v else reno_sd, flows=n, window=window),
                         row("ns2_flows", alg, "throughput_per_flow_mbps", at(vegas_tput, n) if v else 0.3, flows=n,
                             window=window),
                         row("ns2_flows", alg, "throughput_mbps", n * (at(vegas_tput, n) if v else 0.3), flows=n,
                             window=window)]
    return pd.DataFrame(rows)


def bandwidth_table(cwnd_series=(10, 14, 12, 18), vegas_cwnd=5.0, loss_series=(3.0, 2.0, 1.0, 0.5), windows=(20, 0)):
    rows = []
    for window in windows:
        for i, bw in enumerate((0.1, 0.25, 0.5, 1.0)):
            for alg in ("reno", "newreno", "vegas"):
                v = alg == "vegas"
                rows += [row("ns2_bandwidth", alg, "cwnd_mean", vegas_cwnd if v else cwnd_series[i], sd=0.2,
                             bandwidth_mbps=bw, window=window),
                         row("ns2_bandwidth", alg, "loss_pct", loss_series[i], sd=0.1, bandwidth_mbps=bw,
                             window=window)]
    return pd.DataFrame(rows)


def newreno_table(timeouts, throughput, tput_sd=0.01, windows=(20, 0)):
    """ns2_queue rows for ns2-7: Reno drops 2% with 10 timeouts and 0.8 Mbit/s; NewReno as given."""
    rows = []
    for window in windows:
        for q in ("fq", "droptail"):
            for alg, to, tp in (("reno", 10.0, 0.8), ("newreno", timeouts, throughput)):
                rows += [row("ns2_queue", alg, "loss_pct", 2.0, sd=0.1, queue=q, window=window),
                         row("ns2_queue", alg, "timeouts", to, sd=0.5, queue=q, window=window),
                         row("ns2_queue", alg, "throughput_mbps", tp, sd=tput_sd, queue=q, window=window)]
    return pd.DataFrame(rows)


def paper_rows(tables):
    return claim_engine.paper_rows("ns2", tables, None)


def decided(tables, item, variant=None):
    """The row and note of `item`; by default its window20 row ("window20, 3 flows" for a per-count claim)."""
    variant = variant or (W3 if item in PER_FLOW_COUNT else "window20")
    rows, notes = paper_rows(tables)
    assert [r["item"] for r in rows] == [n["item"] for n in notes]
    r = next(r for r in rows if r["item"] == item and r["variant"] == variant)
    n = next(n for n in notes if n["item"] == item and n["variant"] == variant)
    return r, n["note"]


def verdicts(tables, item):
    rows, notes = paper_rows(tables)
    assert [r["item"] for r in rows] == [n["item"] for n in notes]
    return {r["variant"]: r["verdict"] for r in rows if r["item"] == item}


def test_every_claim_and_variant_has_a_row_even_without_data():
    rows, notes = paper_rows(topology_table(0.3, 0.6, 0.5, 2.0))
    # ns2-1 and ns2-2 at the one count of the topology table (3 flows), the others without their study
    expected = ({(c, v) for c in CLAIM_IDS if c not in ("ns2-1", "ns2-2") for v in VARIANTS}
                | {(c, v) for c in ("ns2-1", "ns2-2") for v in (W3, N3)})
    assert {(r["item"], r["variant"]) for r in rows} == expected
    assert all(r["verdict"] in VERDICTS for r in rows) and all(list(r) == SCORECARD_COLUMNS for r in rows)
    # claims whose study is missing are not testable, never a fake verdict, and say which cells are missing
    assert verdicts(topology_table(0.3, 0.6, 0.5, 2.0), "ns2-6") == {"window20": "not_testable",
                                                                      "nocap": "not_testable"}
    r, note = decided(topology_table(0.3, 0.6, 0.5, 2.0), "ns2-6", "window20")
    assert "no ns2_queue runs with more than one flow" in note and math.isnan(r["p_value"]) and r["rule"] == ""
    r, note = decided(topology_table(0.3, 0.6, 0.5, 2.0), "ns2-7", "window20")
    assert r["verdict"] == "not_testable" and "missing results: (a) ns2_topology topology=linear" in note
    assert "newreno timeouts" in note                               # a configuration without the rows it needs
    rows, _ = paper_rows(pd.DataFrame())
    assert len(rows) == 14 and {r["verdict"] for r in rows} == {"not_testable"}


def test_ns2_2_reproduced_when_vegas_has_lowest_latency_and_loss():
    assert verdicts(topology_table(0.3, 0.6, 0.5, 2.0), "ns2-2") == {W3: "reproduced", N3: "reproduced"}
    r, note = decided(topology_table(0.3, 0.6, 0.5, 2.0), "ns2-2")
    assert r["rule"] == claim_rule.RULE and 0 < r["p_value"] < 0.05
    assert "18/18 comparisons hold significantly" in note and "Holm" not in r["note"]


def test_ns2_2_contradicted_when_vegas_latency_is_significantly_higher():
    assert verdicts(topology_table(0.7, 0.6, 0.5, 2.0), "ns2-2") == {W3: "contradicted", N3: "contradicted"}
    r, note = decided(topology_table(0.7, 0.6, 0.5, 2.0), "ns2-2")
    assert "reversed" in note and "significantly reversed" in r["note"]


def test_ns2_2_tie_is_inconclusive():
    # identical latency (as with the window_ 20 cap on the mesh) does not make Vegas lowest, nor the opposite
    r, note = decided(topology_table(0.419, 0.419, 0.5, 2.0), "ns2-2")
    assert r["verdict"] == "inconclusive" and r["p_value"] == pytest.approx(1.0)


def test_ns2_2_overlap_is_inconclusive():
    t = topology_table(0.59, 0.6, 0.5, 2.0)
    t.loc[t["metric"] == "latency_mean_s", "sd"] = 0.2          # 0.59 vs 0.6 with sd 0.2: far from significant
    assert verdicts(t, "ns2-2")[W3] == "inconclusive"


def test_ns2_2_not_testable_without_drops_unless_contradicted():
    r, note = decided(topology_table(0.3, 0.6, 0.0, 0.0), "ns2-2")
    assert r["verdict"] == "not_testable" and math.isnan(r["p_value"])
    assert "so it cannot be tested" in note and "alone: reproduced" in note
    assert "(c) topology=mesh vegas loss_pct vs reno (loss_pct 0 on both sides)" in note
    # a significant reversal of another part still contradicts the claim
    r, note = decided(topology_table(0.7, 0.6, 0.0, 0.0), "ns2-2")
    assert r["verdict"] == "contradicted" and "although a part has nothing to compare: (c)" in note


def test_ns2_2_numerical_zeros_are_zero():
    """latency_sd_s of a constant delay is 1e-14 s of rounding: no ordering, whatever Welch would say."""
    t = topology_table(0.3, 0.6, 0.5, 2.0)
    sd = t["metric"] == "latency_sd_s"
    t.loc[sd, "mean"] = [1.0e-14 if a == "vegas" else 3.0e-14 for a in t.loc[sd, "algorithm"]]
    t.loc[sd, "sd"] = 1e-16
    r, note = decided(t, "ns2-2")
    assert r["verdict"] == "inconclusive" and "tie (closer than the metric's resolution)" in note   # 1e-6 s


def test_ns2_2_stat_row_fills_our_numbers():
    rows, _ = paper_rows(topology_table(0.3, 0.6, 0.5, 2.0))
    r = next(r for r in rows if r["item"] == "ns2-2" and r["variant"] == W3)
    assert r["ours_mean"] == pytest.approx(0.3) and r["ci_low"] < 0.3 < r["ci_high"] and r["n_seeds"] == 10


def test_ns2_6_reproduced_when_fq_has_lower_latency_and_loss():
    assert verdicts(queue_table(0.3, 0.5, 0.5, 2.0), "ns2-6") == {W3: "reproduced", N3: "reproduced"}


def test_ns2_6_contradicted_when_fq_is_worse():
    assert verdicts(queue_table(0.5, 0.3, 0.5, 2.0), "ns2-6") == {W3: "contradicted", N3: "contradicted"}
    assert verdicts(queue_table(0.3, 0.5, 3.0, 2.0), "ns2-6")[W3] == "contradicted"


def test_ns2_6_not_testable_when_nothing_is_dropped():
    assert verdicts(queue_table(0.3, 0.5, 0.0, 0.0), "ns2-6")[W3] == "not_testable"


def test_ns2_6_not_significant_is_inconclusive():
    t = queue_table(0.49, 0.5, 0.5, 2.0)
    t.loc[t["metric"] == "latency_mean_s", "sd"] = 0.2          # 0.49 vs 0.5 with sd 0.2: p far above 0.05
    r, _ = decided(t, "ns2-6")
    assert r["verdict"] == "inconclusive" and r["p_value"] > 0.05


def test_ns2_6_deterministic_rows_are_compared_by_value():
    t = queue_table(0.3, 0.5, 0.5, 2.0)
    t["sd"] = 0.0
    r, note = decided(t, "ns2-6")
    assert r["verdict"] == "reproduced" and r["p_value"] == 0.0 and "deterministic" in note
    t = queue_table(0.4, 0.4, 0.5, 2.0)
    t["sd"] = 0.0
    assert decided(t, "ns2-6")[0]["verdict"] == "inconclusive"


def test_ns2_6_is_decided_at_every_flow_count_the_queue_study_ran():
    """The paper gives no count of "multiple nodes" in scenario 5 either: the queue study sweeps it and
    ns2-6 gets a row per window and count, each decided on its own rows (here fq's latency is below
    droptail's at 2 and 3 flows, above it at 4 flows, and nothing is dropped at 5 flows)."""
    t = queue_table({2: 0.3, 3: 0.3, 4: 0.6, 5: 0.3}, 0.5, {2: 0.5, 3: 0.5, 4: 0.5, 5: 0.0},
                    {2: 2.0, 3: 2.0, 4: 2.0, 5: 0.0}, flows=(2, 3, 4, 5))
    assert verdicts(t, "ns2-6") == {f"{w}, {n} flows": v for w in ("window20", "nocap")
                                    for n, v in ((2, "reproduced"), (3, "reproduced"), (4, "contradicted"),
                                                 (5, "not_testable"))}
    rows, notes = paper_rows(t)
    ns26 = [(r, n) for r, n in zip(rows, notes) if r["item"] == "ns2-6"]
    assert [r["variant"] for r, _ in ns26][:4] == [f"window20, {n} flows" for n in (2, 3, 4, 5)]
    for r, n in ns26:
        flows = int(r["variant"].split(", ")[1].split()[0])
        assert f"Decided at {flows} flows" in r["note"]
        assert "ns2_queue ran 2, 3, 4, 5 flows" in n["note"] and f"decides it at {flows} flows" in n["note"]
    r, note = decided(t, "ns2-6", "window20, 4 flows")
    assert "queue=fq reno latency_mean_s 0.6 < queue=droptail 0.5: reversed" in note
    assert "Peak latency (latency_max_s, s; the paper's peaks" in note and "Reno fq 1.2 [" in note
    assert r["ours_mean"] == pytest.approx(1.0)                     # latency_max_s of Reno with droptail
    # one count missing from the other window: that window has rows for the counts it ran only
    t = t[~((t["window"] == 0) & (t["flows"] == 4))]
    assert [v for v in verdicts(t, "ns2-6") if v.startswith("nocap")] == [f"nocap, {n} flows" for n in (2, 3, 5)]


def test_ns2_7_takes_every_flow_count_as_a_configuration():
    rows = []
    for n, nr_timeouts in ((2, 6.0), (3, 12.0)):
        t = newreno_table(nr_timeouts, 0.85)
        t["flows"] = n
        rows.append(t)
    r, note = decided(pd.concat(rows, ignore_index=True), "ns2-7")
    assert r["verdict"] == "contradicted"                           # reversed at 3 flows
    assert "ns2_queue topology=mesh flows=2 bandwidth_mbps=1 delay_ms=100 queue=fq newreno timeouts 6" in note
    assert "flows=3 bandwidth_mbps=1 delay_ms=100 queue=droptail newreno timeouts 12 < reno 10: reversed" in note


def test_ns2_3_ranges_are_two_one_sided_tests():
    assert decided(flows_table(), "ns2-3", "window20, 3 flows")[0]["verdict"] == "reproduced"
    # Reno's window pinned at 20 in every run (sd 0): outside [3, 4] by value
    r, note = decided(flows_table(reno_cwnd=20.0, reno_sd=0.0), "ns2-3", "window20, 3 flows")
    assert r["verdict"] == "contradicted" and "deterministic" in note
    # Vegas cwnd at the edge of its range, noisy: neither inside nor outside significantly
    t = flows_table(vegas_cwnd=3.95)
    t.loc[(t["algorithm"] == "vegas") & (t["metric"] == "cwnd_mean"), "sd"] = 1.0
    assert decided(t, "ns2-3", "window20, 3 flows")[0]["verdict"] == "inconclusive"


def test_ns2_3_is_decided_at_every_swept_flow_count():
    """The paper does not give the number of "multiple" flows: a row per window and count above one,
    each decided by the rule on its own (here it holds at 2 flows and is reversed at 3 and 5)."""
    t = flows_table(flows=(1, 2, 3, 5), vegas_cwnd={1: 20.0, 2: 3.0, 3: 8.0, 5: 3.0},
                    vegas_tput={1: 0.9, 2: 0.35, 3: 0.35, 5: 0.19})
    assert verdicts(t, "ns2-3") == {"window20, 2 flows": "reproduced", "window20, 3 flows": "contradicted",
                                    "window20, 5 flows": "contradicted", "nocap, 2 flows": "reproduced",
                                    "nocap, 3 flows": "contradicted", "nocap, 5 flows": "contradicted"}
    rows, notes = paper_rows(t)
    ns23 = [(r, n) for r, n in zip(rows, notes) if r["item"] == "ns2-3"]
    assert [r["variant"] for r, _ in ns23][:3] == ["window20, 2 flows", "window20, 3 flows", "window20, 5 flows"]
    for r, n in ns23:
        flows = int(r["variant"].split(", ")[1].split()[0])
        assert r["rule"] == claim_rule.RULE and r["metric"] == "cwnd_mean (Vegas)"
        assert "the paper does not give it" in r["note"]
        assert 'The paper does not give the number of "multiple" flows' in n["note"]
        assert f"decides it at {flows} flows" in n["note"] and "ns2_flows ran 2, 3, 5 flows" in n["note"]
    r, note = decided(t, "ns2-3", "window20, 3 flows")
    assert r["ours_mean"] == pytest.approx(8.0) and "vegas cwnd_mean 8 < 4: reversed" in note
    assert "Vegas cwnd 1 flow 20 [" in note and "vs 3 flows 8 [" in note     # context: the single flow against this count
    r, note = decided(t, "ns2-3", "window20, 5 flows")
    assert "vegas throughput_per_flow_mbps 0.19 > 0.25: reversed" in note
    # one flow is the paper's "single" case: no row; without any count above one the claim is not testable
    t1 = flows_table(flows=(1,))
    assert verdicts(t1, "ns2-3") == {"window20": "not_testable", "nocap": "not_testable"}
    assert "more than one flow" in decided(t1, "ns2-3", "window20")[1]


def test_ns2_4_trend_is_decided_by_its_ends_and_steps_go_to_the_note():
    r, note = decided(bandwidth_table(), "ns2-4")
    assert r["verdict"] == "reproduced"
    assert "0.25 -> 0.5" in note and "significantly the other way" in note     # 14 -> 12 noted, not scored
    r, _ = decided(bandwidth_table(loss_series=(0.5, 1.0, 2.0, 3.0)), "ns2-4")
    assert r["verdict"] == "contradicted"
    r, _ = decided(bandwidth_table(cwnd_series=(18.0, 18.0, 18.0, 18.05)), "ns2-4")
    assert r["verdict"] == "inconclusive"


def test_ns2_7_needs_fewer_timeouts_and_higher_throughput():
    assert decided(newreno_table(6.0, 0.85), "ns2-7")[0]["verdict"] == "reproduced"
    assert decided(newreno_table(6.0, 0.8), "ns2-7")[0]["verdict"] == "inconclusive"     # a throughput tie
    assert decided(newreno_table(6.0, 0.7), "ns2-7")[0]["verdict"] == "contradicted"
    assert decided(newreno_table(12.0, 0.85), "ns2-7")[0]["verdict"] == "contradicted"
    t = newreno_table(6.0, 0.85)
    t.loc[t["metric"] == "loss_pct", ["mean", "sd"]] = 0.0
    r, note = decided(t, "ns2-7")
    assert r["verdict"] == "not_testable" and "so it cannot be tested" in note
    assert "2 configurations without any drop were left out" in note and math.isnan(r["ours_mean"])


def test_ns2_7_takes_a_configuration_several_studies_ran_once_and_heads_where_reno_loses_most():
    """The base point is in every study: ns2_queue runs it with queue=droptail, ns2_bandwidth without a
    queue column (droptail too), so it is one configuration, taken from the first study by name."""
    q = newreno_table(6.0, 0.85)
    b = newreno_table(6.0, 0.85).query("queue == 'droptail'").drop(columns="queue").assign(study="ns2_bandwidth")
    b.loc[(b["algorithm"] == "reno") & (b["metric"] == "loss_pct"), "mean"] = 3.0
    b.loc[(b["algorithm"] == "newreno") & (b["metric"] == "timeouts"), "mean"] = 5.0
    t = pd.concat([q, b], ignore_index=True)
    r, note = decided(t, "ns2-7")
    assert r["verdict"] == "reproduced" and "4/4 comparisons" in note         # fq and the base point, not 3 points
    assert "ns2_bandwidth topology=mesh" in note and "queue=droptail newreno" not in note
    assert r["ours_mean"] == pytest.approx(5.0)          # NewReno's timeouts where Reno's loss is largest (3%)


def delay_table(cv_high=2.0, vegas_latency=1.5, loss=0.0, windows=(20, 0)):
    """ns2_delay rows at 100, 150 and 500-1500 ms: throughput_cv 0.5 at 100 ms and `cv_high` above it,
    Reno/NewReno latency 1.6 s, loss `loss` everywhere and 2% retransmissions."""
    rows = []
    for window in windows:
        for d in (100, 150, 500, 1000, 1500):
            for alg in ("reno", "newreno", "vegas"):
                p = {"delay_ms": d, "window": window}
                rows += [row("ns2_delay", alg, "throughput_cv", 0.5 if d == 100 else cv_high, **p),
                         row("ns2_delay", alg, "latency_mean_s", vegas_latency if alg == "vegas" else 1.6, **p),
                         row("ns2_delay", alg, "loss_pct", loss if alg != "vegas" else loss / 2,
                             sd=0.0 if loss == 0 else 0.05, **p),
                         row("ns2_delay", alg, "cwnd_cv", 0.3, **p),
                         row("ns2_delay", alg, "retransmit_pct", 2.0, **p)]
    return pd.DataFrame(rows)


def test_ns2_5_throughput_fluctuates_more_and_vegas_keeps_lower_latency_and_loss():
    r, note = decided(delay_table(loss=1.0), "ns2-5")
    assert r["verdict"] == "reproduced" and "24/24 comparisons" in note       # 12 cv, 6 latency, 6 loss
    assert r["ours_mean"] == pytest.approx(1.5)                      # Vegas latency at 1500 ms
    assert "cwnd_cv by delay (ms): Reno 100: 0.30" in note and "spurious" not in note
    assert decided(delay_table(cv_high=0.3, loss=1.0), "ns2-5")[0]["verdict"] == "contradicted"
    # nothing dropped at 500-1500 ms: (c) cannot be decided, and the retransmissions there are spurious
    r, note = decided(delay_table(), "ns2-5")
    assert r["verdict"] == "not_testable" and "alone: reproduced" in note
    assert "No packet is dropped at 500-1500 ms, yet retransmit_pct is 2-2%: spurious timeouts" in note


def test_ns2_1_timeouts_only_where_packets_are_dropped():
    rows = []
    for window in (20, 0):
        for top in ("linear", "star", "mesh"):
            for alg, cv, to, loss in (("reno", 0.4, 10.0, 1.0), ("newreno", 0.4, 6.0, 1.0), ("vegas", 0.1, 2.0, 0.0)):
                p = {"topology": top, "window": window}
                rows += [row("ns2_topology", alg, "cwnd_cv", cv, **p),
                         row("ns2_topology", alg, "cwnd_stable_s", 10 * cv, **p),
                         row("ns2_topology", alg, "timeouts", to, **p),
                         row("ns2_topology", alg, "loss_pct", loss if top != "star" else 0.0, sd=0.1 * loss, **p)]
    t = pd.DataFrame(rows)
    r, note = decided(t, "ns2-1")
    assert r["verdict"] == "reproduced" and "14/14 comparisons" in note      # 6 cwnd_cv, 6 stable, 2 timeouts
    assert "(c) topology=star newreno timeouts vs reno (loss_pct 0 on both sides)" in note
    t.loc[(t["metric"] == "timeouts") & (t["algorithm"] == "newreno"), "mean"] = 14.0
    assert decided(t, "ns2-1")[0]["verdict"] == "contradicted"


def test_the_ns2_decide_blocks_pass_the_checks_and_a_wrong_domain_key_is_refused():
    doc = claim_engine.load()
    models_of = {s: "ns2" for s in claims_ns2.SWEEPS}
    claims = [c for c in doc["claims"] if c["paper"] == "ns2"]
    for c in claims:
        claim_spec.check(c, doc["scoring"], models_of)
    ns27 = copy.deepcopy(claims[-1])
    ns27["decide"]["parts"][0]["for"]["c"]["default"] = {"queue": "droptail"}
    with pytest.raises(claim_spec.ClaimSpecError, match="unknown key.*default"):
        claim_spec.check(ns27, doc["scoring"], models_of)


def test_cli_writes_rows_and_notes(tmp_path):
    tables = tmp_path / "ns2_queue.csv"
    queue_table(0.3, 0.5, 0.5, 2.0).to_csv(tables, index=False)
    out, notes = tmp_path / "claims.csv", tmp_path / "notes.csv"
    r = subprocess.run([sys.executable, "-m", "simulator.report.papers.ns2.claims", "--tables", str(tables),
                        "--out", str(out), "--notes", str(notes)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    card = pd.read_csv(out)
    assert list(card.columns) == SCORECARD_COLUMNS and len(card) == 14 + 9 * 2    # + the paper's 9 numbers x 2 windows
    assert set(pd.read_csv(notes)["item"]) - set(CLAIM_IDS) == set(card["item"][card["verdict"].isin(NUMBER_VERDICTS)])


@pytest.mark.slow
def test_real_tables_give_a_verdict_per_claim(built_report):
    """Tables of the tiny test profile's real run (fixture built_report: ns2_queue)."""
    real = sorted((built_report / "results" / "tables").glob("ns2_*.csv"))
    assert real
    tables = pd.concat([pd.read_csv(p) for p in real], ignore_index=True)
    rows, notes = claims_ns2.build(tables, None)
    claims = [r for r in rows if r["item"] in CLAIM_IDS]     # then the paper's quoted numbers, one row each
    assert {r["item"] for r in claims} == set(CLAIM_IDS)
    assert {r["variant"].split(", ")[0] for r in claims} == set(VARIANTS)   # "window20, 3 flows" too
    assert all(r["verdict"] in VERDICTS for r in claims)
    assert all(r["verdict"] in ("inside", "outside", "missing") for r in rows if r["item"] not in CLAIM_IDS)
    assert all(n["note"] for n in notes)
