"""The "Agreement with ns-3" chapter (simulator/report/figures_validation.py): its not-run form, the
answer, the side-by-side table, the figure and the explanations, on a constructed agreement table."""
import matplotlib

matplotlib.use("Agg")

import pandas as pd  # noqa: E402

from simulator.report import figures_validation as val  # noqa: E402
from simulator.validation import agreement  # noqa: E402


def row(cell, alg="cubic", ours_u=0.95, ns3_u=0.95, ours_r=50.0, ns3_r=50.0, ours_to=0, ns3_to=0,
        sample_max=60.0):
    r = {"cell": cell, "algorithm": alg, "bottleneck_mbps": 100, "buffer_pkts": 86, "flows": 5, "loss_fwd_pct": 0.0,
         "duration": 20, "seeds": 1, "notes": "",
         "ours_utilization_warm": ours_u, "ns3_utilization_warm": ns3_u, "ours_mean_rtt_ms": ours_r,
         "ns3_mean_rtt_ms": ns3_r, "ours_jain": 0.9, "ns3_jain": 0.95, "ours_retransmissions": 10,
         "ns3_retransmissions": 12, "ours_timeouts": ours_to, "ns3_timeouts": ns3_to,
         "ns3_path_rtt_max_ms": 54.0, "ns3_rtt_sample_max_ms": sample_max, "ns3_rtt_samples_over_path_pct": 25.0}
    return r


def table():
    t = pd.DataFrame([row("a"), row("b", ours_u=0.95, ns3_u=0.75, ns3_to=1),
                      row("c", alg="vegas", ours_r=60.0, ns3_r=1400.0, sample_max=3044.0),
                      row("d", ours_r=111.0, ns3_r=95.0),
                      row("e")])
    t.loc[4, ["ours_utilization_warm", "ours_mean_rtt_ms"]] = float("nan")
    t["d_utilization_pp"] = 100 * (t["ours_utilization_warm"] - t["ns3_utilization_warm"])
    t["d_mean_rtt_pct"] = 100 * (t["ours_mean_rtt_ms"] / t["ns3_mean_rtt_ms"] - 1)
    t["agrees"] = [agreement.verdict(u, r) for u, r in zip(t["d_utilization_pp"], t["d_mean_rtt_pct"])]
    return t


def test_the_source_names_the_committed_records_and_how_to_rerun_ns3_without_paths_of_this_machine():
    assert "reference/ns3/records.jsonl" in val.SOURCE and "without ns-3 installed" in val.SOURCE
    assert "not run in this build" not in val.SOURCE       # the evidence is there: a reader must not read it as missing
    assert "snakemake --cores all validation" in val.SOURCE and 'pip install -e ".[ns3]"' in val.SOURCE
    assert "/work" not in val.SOURCE and "/tmp" not in val.SOURCE and "Error" not in val.SOURCE


def test_the_answer_counts_cells_inside_and_outside_and_says_why_some_were_not_compared():
    text = val.answer(table())
    assert text.startswith("**1 of the 4 cells run in both simulators agree**")
    assert "3 do not" in text and "1 of the 5 cells are not compared: a side's run is missing" in text


def test_the_table_shows_both_sides_the_differences_and_the_verdict():
    shown = val.shown(table())
    assert len(shown) == 5
    assert shown.loc[1, "utilization (%) ns-3"] == "75" and shown.loc[1, "Δ utilization (pp)"] == "20"
    assert shown["agrees"].tolist() == ["yes", "**no**", "**no**", "**no**", "–"]


def test_each_outside_cell_gets_the_cause_its_evidence_shows_and_each_cause_is_said_once():
    t = table()
    t.loc[3, "ours_retransmissions"] = 40         # cell d: ours retransmits 40, ns-3 12: a bigger overshoot
    lines = val.explanations(t).splitlines()
    cells = [x for x in lines if x.startswith("- ")]
    assert len(cells) == 3
    assert cells[0].endswith("ns-3 took 1 retransmission timeout, ours 0 [timeouts].")
    assert "largest RTT sample is 3044 ms on a path whose RTT cannot exceed 54 ms" in cells[1] and "[Karn]" in cells[1]
    assert cells[2].endswith("ours retransmitted 40 segments, ns-3 12 [overshoot].")
    notes = [x for x in lines if x.startswith("**[")]
    assert [n.split("]")[0] for n in notes] == ["**[Karn", "**[timeouts", "**[overshoot"]
    assert val.explanations(t.iloc[[0]]) == "Every compared cell is inside the bounds."


def test_a_cell_no_cause_matches_is_said_to_be_unexplained():
    assert val.explanations(table().iloc[[3]]).startswith("- **Cubic") and "Not explained yet." in val.explanations(table())


def test_timeouts_are_blamed_only_where_ns3_carried_less():
    t = table().iloc[[1]].copy()
    t["ours_utilization_warm"], t["ns3_utilization_warm"], t["d_utilization_pp"] = 0.75, 0.95, -20.0
    assert "[timeouts]" not in val.explanations(t)


def test_a_few_percent_more_timeouts_among_dozens_are_not_blamed():
    """BBR, 5 flows: ns-3 54 timeouts, ours 52.8; a gap of 1.2 among 53 idles no flow long enough to matter."""
    t = table().iloc[[1]].copy()
    t["ours_timeouts"], t["ns3_timeouts"] = 52.8, 54.0
    assert "[timeouts]" not in val.explanations(t)
    t["ns3_timeouts"] = 60.0                                   # 14% more: named
    assert "ns-3 took 60 retransmission timeouts, ours 52.8 [timeouts]." in val.explanations(t)


def test_several_bbr_flows_retransmitting_far_more_than_ns3_name_its_sacked_retransmission_defect():
    t = table().iloc[[1]].copy()
    t["algorithm"] = "bbr"
    t["ours_retransmissions"], t["ns3_retransmissions"] = 3035, 1854
    assert "ns-3 retransmitted 1854 segments, ours 3035 [SACKed retransmission]" in val.explanations(t)
    assert "**[SACKed retransmission]** ns-3 3.44 counts a retransmitted segment" in val.explanations(t)
    t["flows"] = 1                                             # one flow: not this cause
    assert "[SACKed retransmission]" not in val.explanations(t)


def test_ns3_above_the_links_capacity_is_named_instead_of_timeouts():
    t = table().iloc[[1]].copy()
    t["ns3_utilization_warm"] = 1.04
    text = val.explanations(t)
    assert "[capacity]" in text and "[timeouts]" not in text


def test_the_figure_has_one_panel_per_bounded_metric_and_a_caption():
    fig = val.figure(table())
    assert [a.get_xlabel() for a in fig.axes] == ["ns-3 3.44: utilization (%)", "ns-3 3.44: mean RTT (ms) (log scale)"]
    assert val.caption(table()).startswith("Figure: each of the 4 cells")


def test_bbr_rate_samples_above_the_link_are_named_only_where_linux_timing_stays_within_it():
    t = table().iloc[[3]].copy()                  # ours 111 ms, ns-3 95 ms: ours above, not ns-3's queue
    t["algorithm"] = "bbr"
    t["ns3_rate_sample_max_over_link_pct"], t["ns3_rate_sample_linux_max_over_link_pct"] = 105.6, 100.0
    assert "[rate sample]" not in val.explanations(t)
    t["ours_mean_rtt_ms"], t["ns3_mean_rtt_ms"], t["d_mean_rtt_pct"] = 48.5, 82.7, 100 * (48.5 / 82.7 - 1)
    text = val.explanations(t)
    assert "delivery-rate sample 5.6% above what the link carries" in text and "largest is 100% of it" in text
    assert "**[rate sample]** ns-3's BBR measures delivery rates above the link's" in text
    t["ns3_rate_sample_linux_max_over_link_pct"] = 104.0     # Linux's timing would be above it too: not this cause
    assert "[rate sample]" not in val.explanations(t)
    assert "[rate sample]" not in val.explanations(t.drop(columns=["ns3_rate_sample_max_over_link_pct"]))


def seeded(d_util_pp=3.0, p_util=0.4, d_rtt_pct=0.0, p_rtt=0.9):
    """An outside cell with random loss, five seeds a side, and the p of each bounded difference."""
    r = row("s", ours_u=0.60 + d_util_pp / 100, ns3_u=0.60, ours_r=50.0 * (1 + d_rtt_pct / 100), ns3_r=50.0)
    r.update({"loss_fwd_pct": 0.1, "seeds": 5, "ours_n": 5, "ns3_n": 5, "ours_utilization_warm_sd": 0.05,
              "ns3_utilization_warm_sd": 0.04, "ours_mean_rtt_ms_sd": 1.0, "ns3_mean_rtt_ms_sd": 1.0,
              "p_utilization": p_util, "p_mean_rtt": p_rtt,
              "d_utilization_pp": d_util_pp, "d_mean_rtt_pct": d_rtt_pct})
    return r


def test_a_difference_the_seeds_do_not_resolve_is_said_with_both_spreads():
    text = val.within_seed_spread(seeded())
    assert text.endswith("[seeds]") and "over 5 seeds" in text and "p = 0.4" in text
    assert "ours 63% (sd 5)" in text and "ns-3 60% (sd 4)" in text


def test_a_significant_difference_or_one_seed_is_not_explained_by_the_seeds():
    assert val.within_seed_spread(seeded(p_util=0.01)) == ""
    assert val.within_seed_spread(seeded(p_util=float("nan"))) == ""       # one seed: no test
    # both bounds broken: each difference must be unresolved, not only one
    assert val.within_seed_spread(seeded(d_rtt_pct=20.0, p_rtt=0.001)) == ""
    assert "mean RTT ours" in val.within_seed_spread(seeded(d_rtt_pct=20.0, p_rtt=0.3))


def test_the_seeds_text_says_which_cells_ran_more_seeds():
    t = pd.DataFrame([row("a"), seeded()])
    assert val.seeds_text(t) == ("mean over 5 seeds where a run depends on its seed or start phase (random loss "
                                 "with NewReno, CUBIC or Vegas), one seed elsewhere")
    assert val.seeds_text(t.iloc[:1]) == "one seed"
    bbr = {**row("b", alg="bbr"), "seeds": 5}
    assert val.seeds_text(pd.DataFrame([row("a"), bbr])) == (
        "mean over 5 seeds where a run depends on its seed or start phase (several BBR flows), one seed elsewhere")
    started = {**row("c", alg="newreno"), "seeds": 5}
    assert "(the start phase of several NewReno, CUBIC or Vegas flows without loss)" in val.seeds_text(
        pd.DataFrame([row("a"), started]))
    assert "(random loss with NewReno, CUBIC or Vegas; several BBR flows)" in val.seeds_text(
        pd.DataFrame([row("a"), seeded(), bbr]))


def test_prr_double_count_is_named_only_with_its_evidence_and_where_ns3_is_the_lower_side():
    t = table().iloc[[3]].copy()                  # cell d: ours 111 ms, ns-3 95 ms
    assert "[PRR]" not in val.explanations(t)     # older records: no evidence columns
    t["ns3_recoveries"], t["ns3_recoveries_lost_in_recovery"], t["ns3_recovery_cwnd_rise_max_pkts"] = 4, 2, 5.73
    text = val.explanations(t)
    assert "cwnd rose 5.73 packets above its value at the start of a fast recovery" in text
    assert "2 of its 4 fast recoveries after warm-up began with the loss of a segment sent during the one before" in text
    assert "**[PRR]** ns-3's proportional rate reduction counts each duplicate ACK twice" in text
    t["ns3_recovery_cwnd_rise_max_pkts"] = 0.33   # within PRR's rounding (NewReno's 2 x 0.5): not this cause
    assert "[PRR]" not in val.explanations(t)
    t["ns3_recovery_cwnd_rise_max_pkts"], t["ns3_recoveries_lost_in_recovery"] = 5.73, 0   # no second cut
    assert "[PRR]" not in val.explanations(t)
    t["ns3_recoveries_lost_in_recovery"] = 2
    t["ours_mean_rtt_ms"], t["ns3_mean_rtt_ms"] = 80.0, 95.0    # ns-3's queue the longer: not what it explains
    t["d_mean_rtt_pct"] = 100 * (80.0 / 95.0 - 1)
    assert val.ns3_prr_double_count(t.iloc[0]) == ""
    t["d_mean_rtt_pct"], t["algorithm"] = 20.0, "bbr"        # BBR sets its own window: PRR's count is not its cause
    assert val.ns3_prr_double_count(t.iloc[0]) == ""


def test_vegas_late_start_base_is_named_only_where_a_flow_started_into_a_queue_and_ours_ran_above_ns3s_bases():
    t = table().iloc[[3]].copy()                  # ours 111 ms, ns-3 95 ms: outside
    t["algorithm"], t["ns3_timeouts"] = "vegas", 2
    t["ours_mean_rtt_ms"], t["ns3_mean_rtt_ms"], t["d_mean_rtt_pct"] = 119.0, 81.1, 100 * (119.0 / 81.1 - 1)
    assert "[late start]" not in val.explanations(t)          # older records: no evidence columns
    t["ns3_handshake_rtt_ms"], t["ns3_handshake_rtt_max_ms"], t["ns3_vegas_base_rtt_max_ms"] = 40.12, 107.48, 77.5
    text = val.explanations(t)
    assert "40.1 ms for the first and up to 107 ms" in text and "at most 77.5 ms, while ours ran at 119 ms" in text
    assert "ns-3 took 2 retransmission timeouts, ours 0 [late start]" in text
    assert "**[late start]** Vegas cannot tell a queue that stood when a flow started" in text
    t["ns3_vegas_base_rtt_max_ms"] = 105.0        # ours within the bound of ns-3's largest base: not shown
    assert "[late start]" not in val.explanations(t)
    t["ns3_vegas_base_rtt_max_ms"], t["ns3_handshake_rtt_max_ms"] = 77.5, 42.0    # no flow started into a queue
    assert "[late start]" not in val.explanations(t)
    t["ns3_handshake_rtt_max_ms"], t["algorithm"] = 107.48, "cubic"
    assert "[late start]" not in val.explanations(t)
    t["algorithm"], t["ours_mean_rtt_ms"], t["d_mean_rtt_pct"] = "vegas", 60.0, 100 * (60.0 / 81.1 - 1)
    assert "[late start]" not in val.explanations(t)          # ours below ns-3: not this cause


def test_a_fraction_of_a_timeout_more_over_the_seeds_is_not_the_timeouts_cause():
    t = table().astype({"ns3_timeouts": float, "ours_timeouts": float})
    t.loc[1, ["ns3_timeouts", "ours_timeouts"]] = [0.2, 0.0]      # one seed in five took one
    assert "[timeouts]" not in val.reason(t.loc[1])
    t.loc[1, "ns3_timeouts"] = 1.2
    assert val.reason(t.loc[1]).endswith("ns-3 took 1.2 retransmission timeouts, ours 0 [timeouts].")


def test_an_unfinished_ns3_run_is_said_with_its_cell():
    t = table()
    t["ns3_unfinished"] = ["", "seed 2: stopped at 5.7 s of 20 s", "", "", ""]
    t.loc[1, ["algorithm", "loss_fwd_pct"]] = ["bbr", 0.1]
    text = val.answer(t)
    assert ("ns-3 did not finish 1 run(s), which were stopped; their cells are compared on ns-3's other seeds: "
            "BBR, 100 Mbit/s, 86 packets, 5 flows, 0.1% loss, seed 2: stopped at 5.7 s of 20 s.") in text
    assert "did not finish" not in val.answer(table())
