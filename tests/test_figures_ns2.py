"""The NS-2 chapter's figures and tables (simulator/report/figures_ns2.py) on small synthetic frames."""
import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from simulator.report import figures_ns2 as ns2  # noqa: E402

SWEPT = {"ns2_queue": ("queue", ["fq", "droptail"]), "ns2_delay": ("delay_ms", [1000, 10, 100]),
         "ns2_flows": ("flows", [3, 1])}


def tables(study="ns2_queue", algs=ns2.ALGS, loss=0.0, flows=None):
    """Summary rows of `study`; with `flows` (counts) a flows column and the count as every mean."""
    key, values = SWEPT[study]
    counts = flows or [None]
    rows = [{"study": study, key: v, "window": w, "algorithm": a, "metric": m, "mean": float(n or 2.0),
             "ci_low": 1.0, "ci_high": 3.0, "n": 10, "run_max": loss if w == 0 else 0.0, **({"flows": n} if n else {})}
            for v in values for n in counts for w in ns2.WINDOWS for a in algs
            for m in [*ns2.SUMMARY_METRICS, "latency_sd_s"]]
    return pd.DataFrame(rows)


def traces(study="ns2_queue", algs=ns2.ALGS, flows=(3,)):
    """First-seed traces; with several `flows` counts flow 0's cwnd is the count."""
    key, values = SWEPT[study]
    rows = []
    for v in values:
        for n in ([v] if key == "flows" else flows):
            for w in ns2.WINDOWS:
                for a in algs:
                    for seed in (2, 1):
                        for t in (0.0, 0.5, 1.0):
                            r = {"study": study, key: v, "window": w, "algorithm": a, "seed": seed, "t": t,
                                 "flows": n, "cwnd_0": 5.0 if len(flows) == 1 else float(n),
                                 "latency_s": None if t == 0.0 else 0.3}
                            r.update({f"throughput_mbps_{i}": 0.1 * seed for i in range(n)})
                            r.update({f"loss_pct_{i}": 0.0 for i in range(n)})
                            rows.append(r)
    return pd.DataFrame(rows)


def labels(ax):
    return [ln.get_label() for ln in ax.get_lines()]


def test_sweep_values_are_ordered_categories_then_numbers():
    assert ns2.values_of(tables("ns2_queue"), "ns2_queue") == ["droptail", "fq"]
    assert ns2.values_of(tables("ns2_delay"), "ns2_delay") == [10, 100, 1000]


@pytest.mark.parametrize("missing", [None, "vegas"])
def test_timeseries_draws_each_algorithm_once_per_panel(missing):
    algs = [a for a in ns2.ALGS if a != missing]
    fig = ns2.timeseries(tables(), traces(algs=algs), "ns2_queue", 20)
    assert len(fig.axes) == 4 * 2                     # metric rows x queue disciplines
    expected = [ns2.style.label(a) for a in algs]
    for ax in fig.axes:
        assert labels(ax) == expected
    assert [ax.get_title() for ax in fig.axes[:2]] == ["DropTail", "FQ"]


def test_timeseries_uses_the_first_seed_and_sums_the_flows():
    fig = ns2.timeseries(tables(), traces(), "ns2_queue", 0)
    throughput = fig.axes[2].get_lines()[0]           # row 1 (throughput), column 0
    assert list(throughput.get_ydata()) == pytest.approx([0.3, 0.3, 0.3])      # seed 1: 3 flows x 0.1
    latency = fig.axes[4].get_lines()[0]
    assert list(latency.get_xdata()) == [0.5, 1.0]    # no latency sample at t=0


def test_summary_plot_has_a_row_per_window_and_a_log_axis_for_delay():
    fig = ns2.summary_plot(tables("ns2_delay"), "ns2_delay")
    assert len(fig.axes) == 2 * len(ns2.PLOT_METRICS)
    assert all(ax.get_xscale() == "log" for ax in fig.axes)
    for ax in fig.axes:
        assert len(ax.containers) == len(ns2.ALGS)    # one errorbar per algorithm
    flows = ns2.summary_plot(tables("ns2_flows"), "ns2_flows")
    flows.canvas.draw()
    assert [t.get_text() for t in flows.axes[-1].get_xticklabels()] == ["1 flow", "3 flows"]


def test_figures_of_a_study_that_also_sweeps_flows_draw_one_count():
    """ns2_queue ran 2, 3 and 5 flows: every panel draws the 3-flow points only (never a mix), the
    captions say so, and the summary table keeps every count."""
    t, tr = tables(flows=[2, 3, 5]), traces(flows=(2, 3, 5))
    assert ns2.flow_counts(t, "ns2_queue") == [2, 3, 5] and ns2.figure_flows(t, "ns2_queue") == 3
    fig = ns2.timeseries(t, tr, "ns2_queue", 20)
    for ax in fig.axes[:2]:                           # cwnd row: flow 0's cwnd is the flow count
        for line in ax.get_lines():
            assert list(line.get_ydata()) == [3.0, 3.0, 3.0]
    assert list(fig.axes[2].get_lines()[0].get_ydata()) == pytest.approx([0.3, 0.3, 0.3])  # 3 flows x 0.1
    fig = ns2.summary_plot(t, "ns2_queue")
    for ax in fig.axes:
        for bars in ax.containers:
            assert list(bars.lines[0].get_ydata()) == [3.0, 3.0]     # droptail, fq at 3 flows
    wide = ns2.summary_table(t, "ns2_queue")
    assert list(wide.index.names) == ["window", "queue", "flows", "algorithm"] and len(wide) == 2 * 2 * 3 * 3
    assert list(wide.index[:4]) == [(20, "droptail", 2, "newreno"), (20, "droptail", 2, "reno"),
                                    (20, "droptail", 2, "vegas"), (20, "droptail", 3, "newreno")]
    ch = FakeChapter()
    ns2.timeseries_section(ch, t, tr, "ns2_queue")
    ns2.summary_section(ch, t, "ns2_queue")
    captions = [text for kind, text in ch.shown if kind == "caption"]
    assert len(captions) == 3 and all("3 flows only (the study also ran 2 and 5 flows" in c for c in captions)
    # without 3 flows the smallest count is drawn; the flows study itself has no count to choose
    assert ns2.figure_flows(tables(flows=[4, 5]), "ns2_queue") == 4
    assert ns2.figure_flows(tables("ns2_flows"), "ns2_flows") is None
    assert ns2.flows_caption(tables(flows=[3]), "ns2_queue") == "3 flows"


def test_summary_table_rows_columns_and_cells():
    wide = ns2.summary_table(tables(), "ns2_queue")
    assert len(wide) == 2 * 2 * len(ns2.ALGS)
    assert list(wide.columns) == list(ns2.SUMMARY_METRICS.values())
    assert wide.index.get_level_values("window")[0] == 20     # NS-2's default first
    assert set(wide.iloc[0]) == {"2 [1, 3]"}
    assert ns2.n_seeds(tables(), "ns2_queue") == 10


def test_drops_counts_points_with_drops_per_window():
    d = ns2.drops(tables(loss=5.0))
    assert d["window"].tolist() == ["20 (NS-2 default)", "0 (no cap)"]
    assert d["points"].tolist() == [6, 6]
    assert d["points_with_drops"].tolist() == [0, 6]


def test_verdict_counts():
    claims = pd.DataFrame({"variant": ["nocap", "nocap", "window20"],
                           "verdict": ["reproduced", "not_testable", "not_testable"]})
    counts = ns2.verdict_counts(claims)
    assert counts.loc["nocap", "reproduced"] == 1 and counts.loc["window20", "reproduced"] == 0


class FakeChapter:
    def __init__(self):
        self.shown = []

    def figure(self, fig, name):
        self.shown.append(("figure", name))
        plt.close(fig)

    def caption(self, text):
        self.shown.append(("caption", text))

    def markdown(self, text):
        self.shown.append(("markdown", text))

    def table(self, frame, name, note="", index=False):
        self.shown.append(("table", name))


def test_sections_of_a_study_that_did_not_run_say_so_once():
    ch = FakeChapter()
    ns2.timeseries_section(ch, tables(), traces(), "ns2_topology")
    ns2.summary_section(ch, tables(), "ns2_topology")
    assert ch.shown == [("markdown", "*Study `ns2_topology` did not run in this build (enable it in "
                                     "`config/config.yaml`).*")]


def test_sections_name_figures_and_the_papers_figure():
    ch = FakeChapter()
    ns2.timeseries_section(ch, tables(), traces(), "ns2_queue")
    ns2.summary_section(ch, tables(), "ns2_queue")
    names = [n for kind, n in ch.shown if kind in ("figure", "table")]
    assert names == ["queue_timeseries_w20", "queue_timeseries_w0", "queue_summary", "ns2_queue_summary.csv"]
    assert all("Figure 9 of the paper" in t for kind, t in ch.shown if kind == "caption")


def test_metric_columns_keep_the_metric_order_and_titles():
    from simulator.report import chapter_tables

    rows = pd.DataFrame([{"p": p, "metric": m, "mean": 1.23456, "ci_low": 1.0, "ci_high": 2.0}
                         for p in (2, 1) for m in ("b", "a", "c")])
    wide = chapter_tables.metric_columns(rows, ["p"], {"c": "C", "a": "A"})
    assert list(wide.columns) == ["C", "A"] and list(wide.index) == [1, 2]
    assert wide.loc[1, "A"] == "1.235 [1, 2]"
    assert chapter_tables.metric_columns(rows, ["p"], ["b", "a"], digits=2).loc[2, "b"] == "1.2 [1, 2]"
