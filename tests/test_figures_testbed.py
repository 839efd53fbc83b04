"""The Wi-Fi testbed chapter's figures and tables (simulator/report/figures_testbed.py) on small
synthetic frames."""
import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from simulator.report import figures_testbed as tb  # noqa: E402

BIDIR_ALGS = ["bbr", "cubic"]


def bars(ax):
    """The bar groups of `ax` (bars with error bars also add an errorbar container)."""
    from matplotlib.container import BarContainer

    return [c for c in ax.containers if isinstance(c, BarContainer)]


def row(study, alg, metric, mean=2.0, **params):
    return {"study": study, "algorithm": alg, "metric": metric, "mean": mean, "ci_low": mean - 1,
            "ci_high": mean + 1, "n": 10, **params}


def tables(algs=tb.ALGS):
    """The run matrix: every algorithm, link setup and background; BBR and CUBIC also both ways."""
    metrics = [m for m, *_ in tb.BARS] + ["throughput_p90_mbps"]
    rows = [row(tb.STUDY, a, m, link_setup=s, background=bg, bidir=None)
            for a in algs for s in tb.SETUPS for bg in tb.BACKGROUNDS for m in metrics]
    rows += [row(tb.STUDY, a, m, mean=5.0, link_setup=s, background="none", bidir=True)
             for a in BIDIR_ALGS for s in tb.SETUPS for m in ("throughput_mean_mbps", "reverse_throughput_mbps")]
    return pd.DataFrame(rows)


def traces():
    return pd.DataFrame([{"study": tb.STUDY, "algorithm": a, "link_setup": s, "background": bg, "bidir": None,
                          "seed": seed, "t": t, "throughput_mbps": 10.0 * seed, "cwnd": 20.0, "ping_rtt_ms": 5.0}
                         for a in tb.ALGS for s in tb.SETUPS for bg in ("none", "heavy") for seed in (3, 4)
                         for t in (1.0, 2.0)])


def test_bar_chart_has_one_bar_group_per_algorithm_and_background():
    fig = tb.bar_chart(tables(), "throughput_mean_mbps", "throughput")
    names = ["BBR", "Cubic", "Reno", "Vegas"]
    for ax in fig.axes:
        assert [c.get_label() for c in bars(ax)] == names
        assert [len(c) for c in bars(ax)] == [len(tb.BACKGROUNDS)] * len(names)
    assert [t.get_text() for t in fig.legends[0].get_texts()] == names


def test_bars_of_missing_points_are_empty():
    t = tables()
    t = t[~((t["algorithm"] == "reno") & (t["background"] == "heavy"))]
    fig = tb.bar_chart(t, "throughput_mean_mbps", "throughput")
    reno = bars(fig.axes[0])[tb.ALGS.index("reno")]
    assert [b.get_height() for b in reno][:2] == [2.0, 2.0]
    assert reno[2].get_height() != reno[2].get_height()      # NaN: no bar


def test_scatter_draws_a_point_per_algorithm_setup_and_background():
    fig = tb.throughput_vs_rtt(tables())
    assert len(fig.axes[0].containers) == len(tb.ALGS) * len(tb.SETUPS) * len(tb.BACKGROUNDS)
    legend = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert legend[:4] == ["BBR", "Cubic", "Reno", "Vegas"] and legend[4:6] == ["ETH-WiFi", "WiFi-WiFi"]


def test_bidirectional_figure_and_table_cover_the_algorithms_run_both_ways():
    fig = tb.bidirectional(tables())
    for ax in fig.axes:
        assert [t.get_text() for t in ax.get_xticklabels()] == ["BBR", "Cubic"]
        assert len(bars(ax)) == len(tb.BIDIR_KINDS) * len(BIDIR_ALGS)
    table = tb.bidirectional_table(tables())
    assert table.shape == (len(tb.SETUPS) * len(BIDIR_ALGS), len(tb.BIDIR_KINDS))
    assert table.loc[("eth_wifi", "BBR"), "bidir: reverse"] == "5 [4, 6]"
    assert table.loc[("eth_wifi", "BBR"), "unidirectional (baseline)"] == "2 [1, 3]"


def test_time_series_shows_the_first_seeds_baseline_run():
    fig = tb.time_series(traces())
    assert tb.first_seed(traces()) == 3
    for ax in fig.axes:
        assert [ln.get_label() for ln in ax.get_lines()] == ["BBR", "Cubic", "Reno", "Vegas"]
    assert list(fig.axes[0].get_lines()[0].get_ydata()) == [30.0, 30.0]      # seed 3, not 4
    assert fig.axes[0].get_ylim()[0] == 0


def test_summary_orders_backgrounds_and_blanks_what_does_not_apply():
    wide = tb.summary(tables())
    eth = wide.loc["eth_wifi"]
    assert list(dict.fromkeys(eth.index.get_level_values("background"))) == [
        "none", "light", "heavy", "none (bidirectional)"]
    assert list(eth.loc["none"].index) == tb.ALGS
    assert wide.columns[0] == "throughput mean (Mbit/s)" and "reverse throughput (Mbit/s)" in wide.columns
    assert eth.loc[("none", "reno"), "reverse throughput (Mbit/s)"] == ""
    assert eth.loc[("none (bidirectional)", "bbr"), "reverse throughput (Mbit/s)"] == "5 [4, 6]"
    assert tb.summary_seeds(tables()) == 10


def sensitivity_tables():
    return pd.DataFrame([row(tb.SENS, a, m, link_setup="wifi_wifi", background=bg, bidir=None, ap_buffer_pkts=buf,
                             loss_pct=loss)
                         for a in tb.ALGS for bg in ("none", "heavy") for buf in tb.BUFFER_STYLE for loss in (0.5, 0.1)
                         for m, _, _ in tb.SENS_METRICS])


def test_sensitivity_figure_and_table():
    fig = tb.sensitivity(sensitivity_tables())
    assert len(fig.axes) == len(tb.SENS_METRICS) * 2
    assert len(fig.axes[0].containers) == len(tb.ALGS) * len(tb.BUFFER_STYLE)
    assert fig.axes[2].get_yscale() == "log"                 # ping RTT row
    table = tb.sensitivity_table(sensitivity_tables())
    assert table.shape == (2 * len(tb.BUFFER_STYLE) * 2 * len(tb.ALGS), len(tb.SENS_METRICS))
    assert table.index.get_level_values("loss_pct")[:2].tolist() == [0.1, 0.1]


def test_cross_traffic_bars_per_mode_and_load():
    ct = pd.DataFrame([row(tb.CROSS, a, m, cross_mode=mode, cross_mbps=load)
                       for a in tb.ALGS for mode in ("poisson", "onoff") for load in (25.0, 10.0)
                       for m, _ in tb.CROSS_METRICS])
    fig = tb.cross_traffic(ct)
    assert [t.get_text() for t in fig.axes[0].get_xticklabels()] == [
        "poisson\n10 Mbit/s", "poisson\n25 Mbit/s", "onoff\n10 Mbit/s", "onoff\n25 Mbit/s"]
    assert [c.get_label() for c in bars(fig.axes[0])] == ["BBR", "Cubic", "Reno", "Vegas"]


class FakeChapter:
    def __init__(self):
        self.shown = []

    def markdown(self, text):
        self.shown.append(text)


@pytest.mark.parametrize("section,study", [("sensitivity_section", tb.SENS), ("cross_traffic_section", tb.CROSS)])
def test_optional_study_that_did_not_run_says_so(section, study):
    ch = FakeChapter()
    getattr(tb, section)(ch, tables())
    assert ch.shown == [f"*Study `{study}` did not run in this build (enable it in `config/config.yaml`).*"]


CLAIMS_YAML = """claims:
  - {id: tb-1, paper: testbed, claim: Wired faster., stated_in: Results, studies: [s], metrics: [m]}
  - {id: mn-1, paper: mininet, claim: Other paper., stated_in: Fig. 1, studies: [s], metrics: [m]}
"""


def test_quoted_numbers_are_the_testbed_rows_that_are_not_claims(tmp_path):
    f = tmp_path / "claims.yaml"
    f.write_text(CLAIMS_YAML)
    card = pd.DataFrame([{"paper": p, "item": i, "variant": "sim", "metric": "m", "paper_value": 4.0,
                          "ours_mean": 5.0, "ci_low": 4.0, "ci_high": 6.0, "run_p025": 4.5, "run_p975": 5.5,
                          "n_seeds": 10, "verdict": v, "p_value": np.nan, "rule": "", "note": ""}
                         for p, i, v in [("testbed", "tb-1", "contradicted"),
                                         ("testbed", "RTT eth_wifi vegas (tb-3)", "outside"),
                                         ("mininet", "Table x", "inside")]])
    notes = pd.DataFrame([{"item": "RTT eth_wifi vegas (tb-3)", "variant": "sim", "verdict": "outside",
                           "note": "Paper: 4 ms"}])
    rows = tb.quoted_numbers(card, notes, f)
    assert rows["item"].tolist() == ["RTT eth_wifi vegas (tb-3)"]
    assert rows["note"].tolist() == ["Paper: 4 ms"]
    assert list(rows.columns) == tb.QUOTED_COLUMNS
