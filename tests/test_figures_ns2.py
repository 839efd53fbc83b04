"""The NS-2 chapter's figures and tables (simulator/report/papers/ns2/figures.py, tables_ns2.py): on small
synthetic frames; on tables with every grid point of the real study files (every figure covers its
study's algorithms, no series combines two grid points, the paper's numbers are drawn where they hold,
text is at least 10 px at page width); and on the tiny profile's real run (fixture built_report)."""
import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

import study_tables as st  # noqa: E402
from simulator.report import figure_series, paper_values, style  # noqa: E402
from simulator.report.papers.ns2 import tables as tables_ns2
from simulator.report.papers.ns2 import figures as ns2  # noqa: E402

style.apply(plt)
SWEPT = {"ns2_queue": ("queue", ["fq", "droptail"]), "ns2_delay": ("delay_ms", [1000, 10, 100]),
         "ns2_flows": ("flows", [3, 1])}
NUMBERS = paper_values.load(st.ROOT / "reference", "ns2")
TRACE_METRICS = [*ns2.SUMMARY_METRICS, "latency_sd_s"]


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def tables(study="ns2_queue", algs=ns2.ALGS, loss=0.0, flows=None):
    """Summary rows of `study`; with `flows` (counts) a flows column and the count as every mean."""
    key, values = SWEPT[study]
    counts = flows or [None]
    rows = [{"study": study, "point": f"algorithm~{a}/{key}~{v}/window~{w}" + (f"/flows~{n}" if n else ""),
             key: v, "window": w, "algorithm": a, "metric": m, "mean": float(n or 2.0),
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
                            r = {"study": study, "point": f"algorithm~{a}/{key}~{v}/window~{w}/flows~{n}", key: v,
                                 "window": w, "algorithm": a, "seed": seed, "t": t,
                                 "flows": n, "cwnd_0": 5.0 if len(flows) == 1 else float(n),
                                 "latency_s": None if t == 0.0 else 0.3}
                            r.update({f"throughput_mbps_{i}": 0.1 * seed for i in range(n)})
                            r.update({f"loss_pct_{i}": 0.0 for i in range(n)})
                            rows.append(r)
    return pd.DataFrame(rows)


def study_frames(study, folder=st.STUDIES):
    """Tables and traces with every grid point of the study file."""
    def columns(p):
        n = int(p["flows"])
        return ["latency_s", *[f"{c}_{i}" for i in range(n) for c in ("cwnd", "throughput_mbps", "loss_pct")]]
    return st.tables(study, TRACE_METRICS, folder), st.traces(study, columns, folder)


def labels(ax):
    return [ln.get_label() for ln in ax.get_lines()]


def test_sweep_values_are_ordered_categories_then_numbers():
    assert ns2.values_of(tables("ns2_queue"), "ns2_queue") == ["droptail", "fq"]
    assert ns2.values_of(tables("ns2_delay"), "ns2_delay") == [10, 100, 1000]


@pytest.mark.parametrize("missing", [None, "vegas"])
def test_timeseries_draws_each_algorithm_once_per_panel(missing):
    algs = [a for a in ns2.ALGS if a != missing]
    fig = ns2.timeseries(tables(), traces(algs=algs), "ns2_queue", 20)
    assert len(fig.axes) == 2 * 4                     # queue disciplines x metric columns
    expected = [ns2.style.label(a) for a in algs]
    for ax in fig.axes:
        assert labels(ax) == expected
    assert [fig.axes[i].get_ylabel() for i in (0, 4)] == ["DropTail", "FQ"]     # one row per swept value
    assert [ax.get_title() for ax in fig.axes[:4]] == [t for t, _ in ns2.TIMESERIES_COLUMNS]


def test_timeseries_uses_the_first_seed_and_sums_the_flows():
    fig = ns2.timeseries(tables(), traces(), "ns2_queue", 0)
    throughput = fig.axes[1].get_lines()[0]           # row 0 (DropTail), column 1 (throughput)
    assert list(throughput.get_ydata()) == pytest.approx([0.3, 0.3, 0.3])      # seed 1: 3 flows x 0.1
    latency = fig.axes[2].get_lines()[0]
    assert list(latency.get_xdata()) == [0.5, 1.0]    # no latency sample at t=0


def test_summary_plot_has_a_row_per_metric_a_column_per_window_and_a_log_axis_for_delay():
    fig = ns2.summary_plot(tables("ns2_delay"), "ns2_delay")
    assert len(fig.axes) == 2 * len(ns2.PLOT_METRICS)
    assert all(ax.get_xscale() == "log" for ax in fig.axes)
    for ax in fig.axes:
        assert len(ax.containers) == len(ns2.ALGS)    # one errorbar per algorithm
    assert [ax.get_title() for ax in fig.axes[:2]] == list(ns2.WINDOWS.values())
    flows = ns2.summary_plot(tables("ns2_flows"), "ns2_flows")
    flows.canvas.draw()
    assert [t.get_text() for t in flows.axes[-1].get_xticklabels()] == ["1", "3"]
    assert flows.axes[-1].get_xlabel() == "number of flows"


def test_figures_of_a_study_that_also_sweeps_flows_draw_one_count():
    """ns2_queue ran 2, 3 and 5 flows: every panel draws the 3-flow points only (never a mix), the
    captions say so, and the summary table keeps every count."""
    t, tr = tables(flows=[2, 3, 5]), traces(flows=(2, 3, 5))
    assert ns2.flow_counts(t, "ns2_queue") == [2, 3, 5] and ns2.figure_flows(t, "ns2_queue") == 3
    fig = ns2.timeseries(t, tr, "ns2_queue", 20)
    for ax in (fig.axes[0], fig.axes[4]):             # cwnd column: flow 0's cwnd is the flow count
        for line in ax.get_lines():
            assert list(line.get_ydata()) == [3.0, 3.0, 3.0]
    assert list(fig.axes[1].get_lines()[0].get_ydata()) == pytest.approx([0.3, 0.3, 0.3])  # 3 flows x 0.1
    assert figure_series.problems(fig) == []
    fig = ns2.summary_plot(t, "ns2_queue")
    for ax in fig.axes:
        for bars in ax.containers:
            assert list(bars.lines[0].get_ydata()) == [3.0, 3.0]     # droptail, fq at 3 flows
    assert figure_series.problems(fig) == []
    wide = ns2.summary_table(t, "ns2_queue")
    assert list(wide.index.names) == ["window_ (packets)", "queue", "flows", "algorithm"]
    assert len(wide) == 2 * 2 * 3 * 3
    assert list(wide.index[:4]) == [("20 (NS-2 default)", "DropTail", "2", "NewReno"),
                                    ("20 (NS-2 default)", "DropTail", "2", "Reno"),
                                    ("20 (NS-2 default)", "DropTail", "2", "Vegas"),
                                    ("20 (NS-2 default)", "DropTail", "3", "NewReno")]
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
    assert wide.index.get_level_values(0)[0] == "20 (NS-2 default)"     # NS-2's default first
    assert set(wide.iloc[0]) == {"2 [1, 3]"}
    assert ns2.n_seeds(tables(), "ns2_queue") == 10


def test_summary_cells_write_a_point_ci_as_deterministic_cut_at_zero_and_float_noise_as_zero():
    t = tables()
    t.loc[t["metric"] == "cwnd_mean", ["mean", "ci_low", "ci_high"]] = [20.0, 20.0, 20.0]
    t.loc[t["metric"] == "loss_pct", ["mean", "ci_low", "ci_high"]] = [0.5, -1.25, 2.25]
    t.loc[t["metric"] == "timeouts", ["mean", "ci_low", "ci_high"]] = [5.206e-14, 0.0, 1e-13]
    row = ns2.summary_table(t, "ns2_queue").iloc[0]
    assert row["cwnd (packets)"] == "20 (deterministic)" and row["loss (%)"] == "0.5 [0, 2.25]"
    assert row["timeouts (per run)"] == "0 (deterministic)"   # float noise of a zero over every seed


def test_drops_counts_points_with_drops_per_window():
    d = tables_ns2.drops(tables(loss=5.0))
    assert d["window_ (packets)"].tolist() == ["20 (NS-2 default)", "0 (no cap)"]
    assert d["grid points"].tolist() == [6, 6] and d["grid points"].dtype.kind == "i"
    assert d["points where a run dropped packets"].tolist() == [0, 6]
    assert d["scenario (study file)"].tolist() == ["5: queue (config/studies/ns2/ns2_queue.yaml)"] * 2


def test_verdict_counts_are_integers_per_setting_with_every_verdict():
    claims = pd.DataFrame({"variant": ["nocap", "nocap, 3 flows", "window20"],
                           "verdict": ["reproduced", "not_testable", "not_testable"]})
    assert tables_ns2.verdict_counts(claims).columns.name is None      # no stray header cell
    counts = tables_ns2.verdict_counts(claims).set_index("setting")
    assert list(counts.columns) == ["reproduced", "contradicted", "inconclusive", "not testable", "claim rows"]
    assert counts.loc["no cap (window 0)"].tolist() == [1, 0, 0, 1, 2]
    assert counts.loc["window 20 (NS-2 default)", "reproduced"] == 0
    assert all(dtype.kind == "i" for dtype in counts.dtypes)


class FakeChapter:
    def __init__(self):
        self.shown, self.downloads = [], {}

    def figure(self, fig, name):
        self.shown.append(("figure", name))
        plt.close(fig)

    def caption(self, text):
        self.shown.append(("caption", text))

    def markdown(self, text):
        self.shown.append(("markdown", text))

    def table(self, frame, name, note="", index=False):
        self.shown.append(("table", name))
        self.downloads[name] = frame

    def save_download(self, frame, name, index=False):
        self.downloads[name] = frame

    @staticmethod
    def download_link(name, label="Download as CSV"):
        return f"<a href='{name}'>{label}</a>"


def test_sections_of_a_study_that_did_not_run_say_so_once():
    ch = FakeChapter()
    ns2.timeseries_section(ch, tables(), traces(), "ns2_topology")
    ns2.summary_section(ch, tables(), "ns2_topology")
    assert ch.shown == [("markdown", "*Study `ns2_topology` did not run in this build (enable it in "
                                     "`config/config.yaml`).*")]


def test_sections_name_figures_the_papers_figure_and_link_each_figures_data():
    ch = FakeChapter()
    ns2.timeseries_section(ch, tables(), traces(), "ns2_queue", NUMBERS)
    ns2.summary_section(ch, tables(), "ns2_queue", NUMBERS)
    names = [n for kind, n in ch.shown if kind in ("figure", "table")]
    assert names == ["queue_timeseries_w20", "queue_timeseries_w0", "queue_summary", "ns2_queue_summary.csv"]
    captions = [t for kind, t in ch.shown if kind == "caption"]
    assert all("Figure 9 of the paper" in t for t in captions)
    for name, caption in zip(names, captions):         # every figure: its data as CSV, linked in its caption
        assert f"{name}.csv" in ch.downloads and f"'{name}.csv'" in caption and len(ch.downloads[f"{name}.csv"])
    assert "Reno 0.14 s" in captions[2] and "Reno and NewReno 0.08–0.09 s" in captions[2]


# ------------------------------------------------------------------ every grid point of the real studies
@pytest.mark.parametrize("study", list(ns2.PAPER_FIGURES))
def test_every_figure_covers_the_study_and_never_combines_two_grid_points(study):
    t, tr = study_frames(study)
    algs = st.algorithms(study)
    figs = [ns2.timeseries(t, tr, study, w, NUMBERS) for w in ns2.WINDOWS] + [ns2.summary_plot(t, study, NUMBERS)]
    for fig in figs:
        assert figure_series.problems(fig) == []
        assert figure_series.algorithms(fig) == algs
        data = figure_series.frame(fig)
        drawn = set(data["point"].dropna())
        n = ns2.figure_flows(t, study)
        at = t[(t["study"] == study) & ((t["flows"] == n) if n else True)]
        assert drawn <= set(at["point"]) and len(drawn) >= len(at["point"].unique()) // 2   # each window's half
        assert st.smallest_font_px(fig) >= 10, fig.get_suptitle()
        plt.close(fig)


def test_a_series_that_combines_flow_counts_is_caught(monkeypatch):
    """The check fails on the very mix the figures avoid: drawing every flow count at once."""
    t, tr = study_frames("ns2_queue")
    monkeypatch.setattr(ns2, "at_figure_flows", lambda frame, tables, study: frame)
    problems = figure_series.problems(ns2.timeseries(t, tr, "ns2_queue", 20, NUMBERS))
    assert problems and "combines 4 grid points" in problems[0]
    with pytest.raises(ValueError):                    # the summary cannot even place two points at one x
        ns2.summary_plot(t, "ns2_queue", NUMBERS)


def test_the_papers_numbers_are_drawn_where_they_hold():
    t, tr = study_frames("ns2_flows")
    paper = figure_series.frame(ns2.summary_plot(t, "ns2_flows", NUMBERS)).dropna(subset=["paper_low"])
    cwnd = paper[paper["panel"].str.endswith("cwnd (packets)")]
    assert set(cwnd["x"]) == {2, 3, 4, 5}                        # "multiple flows": not at one flow
    assert set(cwnd["series"]) == {"paper: Reno", "paper: NewReno", "paper: Vegas"}
    vegas = paper[paper["series"] == "paper: Vegas"]
    assert {(r.paper_low, r.paper_high) for r in vegas.itertuples()} == {(3, 3), (0.35, 0.35)}
    assert "throughput per flow (Mbit/s)" in ns2.plot_metrics("ns2_flows", NUMBERS).values()
    t, tr = study_frames("ns2_queue")
    ts = figure_series.frame(ns2.timeseries(t, tr, "ns2_queue", 20, NUMBERS)).dropna(subset=["paper_low"])
    assert {(p.split(" |")[0], lo, hi) for p, lo, hi in zip(ts["panel"], ts["paper_low"], ts["paper_high"])} == {
        ("DropTail", 0.14, 0.14), ("FQ", 0.08, 0.09)}
    assert ns2.plot_metrics("ns2_topology", NUMBERS) == ns2.PLOT_METRICS      # nothing stated for it


# ------------------------------------------------------------------ the tiny profile's real run
def test_tiny_runs_figures_are_complete_unmixed_and_have_their_data(built_report):
    results = built_report / "results"
    t = pd.read_csv(results / "tables" / "ns2_queue.csv")
    tr = pd.read_csv(results / "traces" / "ns2_queue.csv")
    algs = st.algorithms("ns2_queue", st.ROOT / "config" / "test" / "studies")
    for fig in [ns2.timeseries(t, tr, "ns2_queue", w, NUMBERS) for w in ns2.WINDOWS] + [
            ns2.summary_plot(t, "ns2_queue", NUMBERS)]:
        assert figure_series.problems(fig) == [] and figure_series.algorithms(fig) == algs
        assert paper_values.drawn(fig)
        plt.close(fig)
    figures = {p.stem for p in (results / "figures" / "ns2").glob("*.png")}
    downloads = {p.stem for p in (results / "downloads" / "ns2").glob("*.csv")}
    assert figures and figures <= downloads                      # every figure's data is a download
    assert {"ns2_drops", "ns2_queue_summary", "ns2_claims", "ns2_verdict_counts"} <= downloads
    page = (results / "book" / "_build" / "html" / "ns2.html").read_text()
    assert page.count("Data of this figure (CSV)") == len(figures)


def delay_points(rows):
    """ns2_delay summary rows of (algorithm, delay_ms, loss %, timeouts, smoothed RTT ms), 2 flows, window 20."""
    return pd.DataFrame([{"study": "ns2_delay", "algorithm": a, "delay_ms": d, "flows": 2, "window": 20,
                          "topology": "mesh", "metric": m, "mean": v}
                         for a, d, loss, to, srtt in rows
                         for m, v in (("loss_pct", loss), ("timeouts", to), ("mean_srtt_ms", srtt))])


def test_timeouts_without_a_loss_are_named_and_put_beside_ns2s_own_count():
    ours = delay_points([("reno", 100, 0.0, 0.0, 620.0), ("reno", 500, 0.0, 2.0, 3040.0),
                         ("vegas", 1000, 0.0, 4.0, 6040.0), ("vegas", 150, 0.0, 0.2, 920.0),
                         ("newreno", 1500, 1.5, 4.0, 9040.0)])
    w = tables_ns2.lossless_timeouts(ours, "ns2_delay")
    assert sorted(zip(w["delay_ms"], w["initial"])) == [(150, False), (500, True), (1000, True)]
    note = tables_ns2.lossless_timeouts_note(ours, "ns2_delay")
    assert note.startswith("At 2 of 5 grid points every run lost nothing yet timed out, at 500-1000 ms per link, "
                           "1 or 2 per flow: the round trip (3 s or more) is at least NS-2's 3 s initial")
    assert note.endswith("At 1 point with shorter round trips some runs timed out without a loss (0.1 per flow at "
                         "most, averaged over the seeds); we have not traced these.")
    theirs = delay_points([("reno", 500, 0.0, 2.0, 3040.0), ("vegas", 1000, 0.0, 2.0, 6040.0),
                           ("vegas", 150, 0.0, 0.2, 920.0)])
    assert tables_ns2.lossless_timeouts_against(ours, theirs, "ns2_delay") == (
        "Timeouts without a loss (delay scenario): NS-2 2.35's own runs lose nothing and time out exactly as often "
        "as ours at 2 of the 3 points where ours do; at the other 1 (Vegas at 1000 ms per link) NS-2 times out 1 "
        "per flow on average, ours 2.")
    assert tables_ns2.lossless_timeouts_note(delay_points([("reno", 500, 0.5, 2.0, 3040.0)]), "ns2_delay") == ""
    with_queue = pd.concat([ours, tables("ns2_queue")], ignore_index=True)   # the chapter's tables of every study
    assert tables_ns2.lossless_timeouts_note(with_queue, "ns2_delay") == note


def test_no_point_outside_gives_an_empty_table_not_a_row_of_blanks():
    """NS-2 2.35's records against themselves: every ratio is 1, so nothing is outside (an assignment on the
    empty selection once filled it with every point's index as blank rows)."""
    from simulator.report.papers.ns2 import agreement as ns2_agreement
    from simulator.report.papers.ns2 import figures_ns2_sim
    from pathlib import Path
    ns2 = ns2_agreement.ns2_tables(ns2_agreement.load_records(Path(__file__).resolve().parents[1] / "reference"))
    assert figures_ns2_sim.outside_points(ns2, ns2).empty
