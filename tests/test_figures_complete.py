"""Every figure of the QtColFair and Mininet chapters is complete and unmixed (tests/series_check.py):
it draws every algorithm and variant of its study, each series from one grid point. The frames are made
from the study files themselves (one trace and table row per grid point), and, on the tiny test
profile, from the real results of the built report."""
import matplotlib

matplotlib.use("Agg")

from pathlib import Path  # noqa: E402

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from series_check import assert_complete, assert_unmixed, expected_labels  # noqa: E402
from simulator import study_files  # noqa: E402
from simulator import study as studies  # noqa: E402
from simulator.report.papers.mininet import figures as mn  # noqa: E402
from simulator.report.papers.qtcol import figures as qf  # noqa: E402
from simulator.report.papers.qtcol import figures_multiflow as qm  # noqa: E402
from simulator.report import io, style  # noqa: E402
from simulator.report.papers.qtcol import scorecard as sq  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
STUDIES = ROOT / "config" / "studies"
REFERENCE = sq.load_reference(ROOT / "reference" / "qtcol" / "qtcolfair_results.csv")
METRICS = ["goodput_mbps", "utilization", "jain", "plr", "mean_rtt_ms", "median_rtt_ms", "goodput_warm_mbps",
           "median_inflight"]


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


class Collect:
    """A stand-in for chapter.Chapter that keeps every figure with its caption and data."""

    def __init__(self):
        self.figures, self.captions, self.downloads = {}, [], {}

    def figure(self, fig, name):
        self.figures[name] = fig

    def caption(self, text):
        self.captions.append(text)

    def markdown(self, text):
        self.captions.append(text)

    def save_download(self, frame, name, index=False):
        self.downloads[name] = frame

    def download_link(self, name, label="Download as CSV"):
        return f"[{label}]({name})"


def points(study, root=STUDIES):
    return studies.load_study(study_files.find(root, study)).points()


def params_row(p):
    return {**p.params, "alpha": p.params.get("alpha", np.nan), "point": p.path}


def traces_of(study, root=STUDIES, step=None):
    """A trace table with one series per grid point of the study file (two seeds, the first drawn)."""
    rows = []
    for p in points(study, root):
        duration = float(p.params.get("duration", 100))
        for seed in (2, 1):
            for t in np.arange(0, duration + 1e-9, step or duration / 50):
                row = dict(study=study, paper="x", **params_row(p), seed=seed, t=t, jain=0.9, queue=0)
                for i in range(int(p.params.get("flows", 1))):
                    row.update({f"inflight_{i}": 400.0 + t, f"cwnd_{i}": 410.0, f"srtt_ms_{i}": 48.0 + t % 3,
                                f"throughput_mbps_{i}": 9.0})
                rows.append(row)
    return pd.DataFrame(rows)


def tables_of(study, root=STUDIES):
    """A long table with one row per grid point of the study file and metric."""
    return pd.DataFrame([dict(study=study, paper="x", **params_row(p), metric=m, mean=0.9, sd=0.01, n=10,
                              ci_low=0.89, ci_high=0.91, run_p025=0.89, run_p975=0.91)
                         for p in points(study, root) for m in METRICS])


def qtcol_figures():
    """Every figure the QtColFair chapter draws, from frames made of its study files."""
    ch = Collect()
    single = qf.runs(traces_of("qt_single_static"), "qt_single_static")
    qf.show_single_flow(ch, single, qf.BDP_PKTS, REFERENCE)
    qf.show_single_boxes(ch, single, qf.BDP_PKTS, REFERENCE)
    for study in ("qt_bandwidth_change", "qt_delay_change"):
        qf.show_path_change(ch, traces_of(study), study, qf.BDP_PKTS, REFERENCE)
    mf = qf.five_flow_runs(traces_of("qt_multiflow", step=20.0))
    tables = pd.concat([tables_of(s) for s in ("qt_multiflow", "qt_buffer_sweep", "qt_buffer_sweep_devq")])
    qm.show_multi_boxes(ch, mf, qf.BDP_PKTS, REFERENCE)
    qm.show_multi_bars(ch, tables, REFERENCE)
    qm.show_multi_time(ch, mf)
    qm.show_buffer_sweeps(ch, tables, REFERENCE, qf.BDP_PKTS)
    qm.show_device_queue(ch, tables, REFERENCE)
    return ch


FIVE = dict(flows=5, duration=400)
# figure -> (study, the grid points it draws); None: every grid point
QTCOL_FIGURES = {
    "single_cubic": ("qt_single_static", dict(algorithm=("cubic", "bbr"))),
    "single_qtcol": ("qt_single_static", dict(algorithm=("qtcol",))),
    "single_qtcolfair": ("qt_single_static", dict(algorithm=("qtcolfair",))),
    "box_inflight": ("qt_single_static", None), "box_rtt": ("qt_single_static", None),
    "bandwidth_change": ("qt_bandwidth_change", None), "delay_change": ("qt_delay_change", None),
    "multi_box_inflight": ("qt_multiflow", FIVE), "multi_box_rtt": ("qt_multiflow", FIVE),
    "multi_goodput": ("qt_multiflow", dict(flows=5)), "multi_jain": ("qt_multiflow", dict(flows=5)),
    "multi_jain_time": ("qt_multiflow", FIVE),
    "multi_flows_throughput": ("qt_multiflow", "panels"),
    "buffer_goodput": ("qt_buffer_sweep", None), "buffer_plr": ("qt_buffer_sweep", None),
    "buffer_rtt": ("qt_buffer_sweep", None), "buffer_device_queue": ("qt_buffer_sweep_devq", None),
}


def expected(study, which):
    if which == "panels":   # Figures 22-23: the panels its caption names
        return {style.label(a, al) for a, al in qm.THROUGHPUT_PANELS}
    if which and "algorithm" in which:
        return {lab for lab in expected_labels(study_files.find(STUDIES, study))
                if any(lab.startswith(style.LABELS[a]) and (a != "qtcol" or not lab.startswith("QtColFair"))
                       for a in which["algorithm"])}
    return expected_labels(study_files.find(STUDIES, study), **(which or {}))


@pytest.fixture(scope="module")
def qtcol_chapter():
    return qtcol_figures()


def test_the_qtcol_chapter_draws_every_figure_this_file_checks(qtcol_chapter):
    assert set(qtcol_chapter.figures) == set(QTCOL_FIGURES)
    assert {f"{name}.csv" for name in QTCOL_FIGURES} <= set(qtcol_chapter.downloads)  # the data behind each


@pytest.mark.parametrize("name", sorted(QTCOL_FIGURES))
def test_qtcol_figure_is_complete_and_unmixed(qtcol_chapter, name):
    fig = qtcol_chapter.figures[name]
    assert_complete(fig, expected(*QTCOL_FIGURES[name]))
    assert_unmixed(fig)


def test_qtcol_figures_draw_the_papers_values_in_grey_hollow_markers(qtcol_chapter):
    for name in ("box_rtt", "multi_box_rtt", "multi_goodput", "multi_jain", "buffer_goodput", "single_cubic",
                 "single_qtcol", "bandwidth_change", "buffer_device_queue"):
        paper = [a for ax in qtcol_chapter.figures[name].axes for a in ax.get_children()
                 if str(getattr(a, "get_label", lambda: "")()).startswith("paper")]
        assert paper, f"{name}: no paper value drawn"
        for a in paper:
            if hasattr(a, "get_markerfacecolor"):
                assert a.get_markerfacecolor() == "none" and a.get_color() == qm.pm.GREY, name
            else:
                assert a.get_hatch() and a.get_facecolor()[3] == 0, name   # a hatched band, not filled


def test_the_checks_fail_on_a_missing_algorithm_and_on_two_points_joined():
    single = qf.runs(traces_of("qt_single_static"), "qt_single_static")
    fig = qf.path_change([r for r in single if r[0] != "bbr"], [], qf.BDP_PKTS)
    with pytest.raises(AssertionError, match="lacks"):
        assert_complete(fig, expected_labels(study_files.find(STUDIES, "qt_single_static")))
    joined = pd.concat([g for a, _, g in single if a == "qtcolfair"])  # five alphas' series under one label
    fig = qf.path_change([("qtcolfair", 1.2, joined.assign(point="p"))], [], qf.BDP_PKTS)
    with pytest.raises(AssertionError, match="goes back along x"):
        assert_unmixed(fig)
    tables = tables_of("qt_buffer_sweep")
    twice = pd.concat([tables, tables.assign(alpha=tables["alpha"].where(tables["algorithm"] != "bbr", 0))])
    with pytest.raises(AssertionError, match="goes back along x"):   # BBR at each buffer twice, one line
        assert_unmixed(qm.buffer_sweep(twice, REFERENCE, qm.SWEEPS[0], qf.BDP_PKTS))


def mininet_figure(traces):
    return mn.throughput_cwnd(traces, mn.load_numbers(ROOT / "reference" / "mininet"))


@pytest.mark.parametrize("root", [STUDIES, ROOT / "config" / "test" / "studies"])
def test_mininet_figure_is_complete_and_unmixed_with_the_posters_number(root):
    traces = traces_of(mn.STUDY, root, step=1.0)
    fig = mininet_figure(traces)
    for change, axes in zip(mn.changes(traces), zip(fig.axes[:2], fig.axes[2:])):
        want = {style.label(p.params["algorithm"], None) for p in points(mn.STUDY, root) if p.params["change"] == change}
        labels = {ln.get_label() for ax in axes for ln in ax.get_lines()}
        assert want <= labels, f"{change}: {sorted(want - labels)} missing"
    assert_unmixed(fig)
    paper = [ln for ln in fig.axes[0].get_lines() if ln.get_label().startswith("paper")]
    assert len(paper) == 1 and set(paper[0].get_ydata()) == {10.5}  # reference/mininet/poster_numbers.csv
    data = mn.figure_data(traces)
    assert set(data.groupby(["change", "algorithm"])["seed"].unique().map(tuple)) == {(1,)}


def test_mininet_summary_prints_the_posters_number_beside_cubic_only():
    tables = tables_of(mn.STUDY)
    s = mn.summary(tables, mn.load_numbers(ROOT / "reference" / "mininet"))
    shown = mn.summary_shown(s)
    assert len(s) == len(points(mn.STUDY))
    assert set(shown.loc[shown["algorithm"] == "Cubic", "paper: settled throughput (Mbit/s)"]) == {"10.5"}
    assert set(shown.loc[shown["algorithm"] != "Cubic", "paper: settled throughput (Mbit/s)"]) == {"–"}
    low = tables.assign(ci_low=-5.0)
    assert "[0," in mn.summary_shown(mn.summary(low)).iloc[0, 2]   # never a negative RTT or goodput


# --------------------------------------------------------------------------- the tiny profile's real results

def test_tiny_profile_figures_are_complete_and_unmixed(built_report):
    results, test_studies = built_report / "results", built_report / "config" / "test" / "studies"
    traces = io.load_traces([results / "traces" / "qt_single_static.csv"])
    single = qf.runs(traces, "qt_single_static")
    ch = Collect()
    qf.show_single_flow(ch, single, qf.BDP_PKTS, REFERENCE)
    qf.show_single_boxes(ch, single, qf.BDP_PKTS, REFERENCE)
    want = expected_labels(test_studies / "qt_single_static.yaml")
    for name in ("box_inflight", "box_rtt"):
        assert_complete(ch.figures[name], want)
    drawn = set()
    for name, fig in ch.figures.items():
        assert_unmixed(fig)
        drawn |= {ln.get_label() for ax in fig.axes for ln in ax.get_lines()}
    assert want <= drawn
    mtraces = io.load_traces([results / "traces" / "mn_high_latency.csv"])
    fig = mininet_figure(mtraces)
    assert_unmixed(fig)
    labels = {ln.get_label() for ax in fig.axes for ln in ax.get_lines()}
    assert {style.label(p.params["algorithm"], None) for p in points(mn.STUDY, test_studies)} <= labels


@pytest.mark.parametrize("name", sorted(QTCOL_FIGURES))
def test_qtcol_figure_text_is_at_least_9_pixels_as_the_book_shows_it(qtcol_chapter, name):
    assert style.smallest_text_px(qtcol_chapter.figures[name]) >= style.MIN_TEXT_PX
