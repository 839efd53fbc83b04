"""The QtColFair chapter's figures and tables (figures_qtcol, figures_qtcol_multiflow, tables_qtcol) on
small synthetic frames; the paper's numbers come from the tracked reference file."""
import matplotlib

matplotlib.use("Agg")

from pathlib import Path  # noqa: E402

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from simulator.report import cells  # noqa: E402
from simulator.report.papers.qtcol import figures as qf  # noqa: E402
from simulator.report.papers.qtcol import figures_multiflow as qm  # noqa: E402
from simulator.report.papers.qtcol import scorecard as sq  # noqa: E402
from simulator.report import style  # noqa: E402
from simulator.report.papers.qtcol import tables as qt  # noqa: E402

REFERENCE = Path(__file__).resolve().parents[1] / "reference" / "qtcol" / "qtcolfair_results.csv"
SINGLE = [("cubic", None), ("bbr", None), ("qtcol", 1.2), ("qtcol", 1.5), ("qtcolfair", 1.2)]
MULTI = [("cubic", None), ("bbr", None), ("qtcol", 1.2), ("qtcol", 1.5), ("qtcolfair", 1.2), ("qtcolfair", 1.5)]


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


class FakeChapter:
    def __init__(self):
        self.figures, self.captions, self.texts, self.downloads = [], [], [], {}

    def figure(self, fig, name):
        self.figures.append(name)

    def caption(self, text):
        self.captions.append(text)

    def markdown(self, text):
        self.texts.append(text)

    def save_download(self, frame, name, index=False):
        self.downloads[name] = frame

    def download_link(self, name, label="Download as CSV"):
        return f"[{label}]({name})"


def reference():
    return sq.load_reference(REFERENCE)


def trace(study, algs, flows=1, seeds=(2, 1), times=np.arange(0, 100, 0.5), duration=100, jain=0.9):
    """A trace table like results/traces/qt_*.csv: one grid point per (algorithm, alpha), its `point` path unique."""
    rows = []
    for alg, alpha in algs:
        point = f"algorithm~{alg}" + (f"/alpha~{alpha}" if alpha else "") + f"/flows~{flows}/duration~{duration}"
        for seed in seeds:
            for t in times:
                row = dict(study=study, paper="qtcol", point=point, algorithm=alg, alpha=alpha, flows=flows,
                           duration=float(duration), seed=seed, t=t, jain=jain)
                for i in range(flows):
                    row.update({f"inflight_{i}": 400.0 + seed + t, f"cwnd_{i}": 410.0, f"srtt_ms_{i}": 48.0 + t % 3,
                                f"throughput_mbps_{i}": 90.0 / flows})
                rows.append(row)
    return pd.DataFrame(rows)


def table(study, algs, metrics, **params):
    """One table row per algorithm, metric and combination of `params` (lists)."""
    keys = list(params)
    combos = pd.MultiIndex.from_product([params[k] for k in keys]).tolist() if keys else [()]
    rows = [dict(study=study, algorithm=alg, alpha=alpha, metric=m, mean=0.95, ci_low=0.94, ci_high=0.96, n=3,
                 run_p025=0.94, run_p975=0.96, **dict(zip(keys, combo)))
            for alg, alpha in algs for m in metrics for combo in combos]
    return pd.DataFrame(rows)


def line_labels(ax):
    return [ln.get_label() for ln in ax.get_lines() if not ln.get_label().startswith("_")]


# --------------------------------------------------------------------------- one flow and path changes

def test_runs_keep_the_first_seed_in_the_books_order():
    rr = qf.runs(trace("qt_single_static", SINGLE[::-1]), "qt_single_static")
    assert [(a, al) for a, al, _ in rr] == SINGLE
    assert all(set(g["seed"]) == {1} for _, _, g in rr)
    assert qf.runs(None, "qt_single_static") == []


def test_single_flow_draws_each_algorithm_of_its_group_once_per_panel():
    ss = qf.runs(trace("qt_single_static", SINGLE), "qt_single_static")
    group = qf.SINGLE_GROUPS[1]  # QtCol
    fig = qf.single_flow(ss, group, qf.BDP_PKTS)
    expected = [style.label("qtcol", 1.2), style.label("qtcol", 1.5)]
    for ax in fig.axes:
        assert line_labels(ax) == expected
    assert qf.single_flow([r for r in ss if r[0] != "qtcol"], group, qf.BDP_PKTS) is None


def test_show_single_flow_names_one_figure_per_group_or_says_skipped():
    ch = FakeChapter()
    qf.show_single_flow(ch, qf.runs(trace("qt_single_static", SINGLE[:2]), "qt_single_static"), qf.BDP_PKTS)
    assert ch.figures == ["single_cubic"] and "Figures 7 (in-flight) and 8 (RTT)" in ch.captions[0]
    ch = FakeChapter()
    qf.show_single_flow(ch, [], qf.BDP_PKTS)
    assert ch.figures == [] and "not enabled" in ch.captions[0]


def test_boxplot_has_one_box_per_run_labelled_in_order():
    ss = qf.runs(trace("qt_single_static", SINGLE), "qt_single_static")
    fig = qf.boxplot([(a, al, g["inflight_0"]) for a, al, g in ss], "inflight", "packets", "t", qf.BDP_PKTS)
    assert [t.get_text() for t in fig.axes[0].get_xticklabels()] == [style.label(a, al) for a, al in SINGLE]


def test_path_change_draws_each_run_once_in_each_of_three_panels():
    rr = qf.runs(trace("qt_bandwidth_change", SINGLE), "qt_bandwidth_change")
    fig = qf.path_change(rr, qf.CHANGES["qt_bandwidth_change"][1], qf.BDP_PKTS)
    assert len(fig.axes) == 3
    for ax in fig.axes:
        assert line_labels(ax) == [style.label(a, al) for a, al in SINGLE]
    ch = FakeChapter()
    assert qf.show_path_change(ch, None, "qt_delay_change", qf.BDP_PKTS) == [] and "qt_delay_change" in ch.captions[0]


def test_bdp_comes_from_the_tables_when_they_report_it():
    assert qf.bdp_pkts(pd.DataFrame()) == qf.BDP_PKTS
    assert qf.bdp_pkts(pd.DataFrame([dict(metric="bdp_pkts", mean=300.0)])) == 300.0


def test_phase_tables_have_one_row_per_run_and_the_papers_ranges_beside_ours():
    rr = qf.runs(trace("qt_delay_change", SINGLE), "qt_delay_change")
    d = qt.delay_phases(rr)
    assert len(d) == len(SINGLE) and d.columns[0] == "algorithm" and d["inflight_15_25s"].iloc[0] == pytest.approx(420.75)
    assert qt.delay_phases_shown(d)["in flight 15–25 s, 20 ms (packets)"].iloc[0] == "421"
    b = qt.bandwidth_phases(rr, reference())
    shown = qt.bandwidth_phases_shown(b)
    assert list(shown.columns[1:]) == ["RTT 10–25 s, 100 Mbit/s: p05–p95 (ms)", "RTT 25–50 s, 25 Mbit/s: p05–p95 (ms)",
                                       "RTT 50–100 s, 500 Mbit/s: p05–p95 (ms)", "paper: RTT over the run (ms)"]
    assert list(shown["paper: RTT over the run (ms)"]) == ["40–480", "45–58", "50", "–", "50"]  # QtCol α=1.5: none
    s = qt.single_ranges(rr, reference())
    assert s["inflight_median"].iloc[0] == pytest.approx(456, abs=1) and len(s) == len(SINGLE)  # after the 10 s warm-up
    shown = qt.single_ranges_shown(s)
    assert list(shown["paper: in flight (packets)"]) == ["1449–2070", "345–690", "400", "500", "–"]
    assert list(shown["paper: RTT (ms)"]) == ["170–250", "40–80", "48", "60", "–"]


# --------------------------------------------------------------------------- five flows and buffer sizes

def test_multiflow_bars_put_the_papers_value_beside_ours():
    tables = table("qt_multiflow", MULTI, ["goodput_mbps"], flows=[5])
    fig = qm.multiflow_bars(tables, reference(), "goodput_mbps", "goodput", "goodput", (90, 97.5))
    ax = fig.axes[0]
    assert len(ax.patches) == len(MULTI)
    diamonds = [ln for ln in ax.get_lines() if ln.get_label() == "paper"]
    assert len(diamonds) == 1 and len(diamonds[0].get_xdata()) == len(MULTI)  # the paper has every one of them
    assert diamonds[0].get_ydata()[0] == qt.paper(reference(), "multiflow", "cubic", "goodput")
    assert diamonds[0].get_markerfacecolor() == "none"
    assert qm.multiflow_bars(tables, reference(), "jain", "J", "jain", (0, 1)) is None


def test_flows_throughput_has_a_panel_per_shown_algorithm_and_a_line_per_flow():
    mf = qf.five_flow_runs(trace("qt_multiflow", MULTI, flows=5, times=np.arange(0, 20, 1.0), duration=400))
    fig = qm.flows_throughput(mf)
    shown = [(a, al) for a, al, _ in mf if (a, al) in qm.THROUGHPUT_PANELS]
    assert [ax.get_title(loc="left") for ax in fig.axes] == [style.label(a, al) for a, al in shown]
    assert all(len(ax.get_lines()) == 5 for ax in fig.axes)
    assert line_labels(qm.jain_over_time(mf).axes[0]) == [style.label(a, al) for a, al in MULTI]


def test_buffer_sweep_has_a_panel_per_flow_count_and_the_paper_only_at_five_flows():
    tables = table(qf.SWEEP, [("cubic", None), ("qtcolfair", 1.2)], ["goodput_mbps"], flows=[1, 5],
                   buffer_bdp=[0.5, 1, 2])
    fig = qm.buffer_sweep(tables, reference(), qm.SWEEPS[0], qf.BDP_PKTS)
    one, five = fig.axes
    assert one.get_title() == "1 flow" and five.get_title() == "5 flows"
    assert not any(lab.startswith("paper") for lab in line_labels(one))
    assert {"paper: Cubic", "paper: QtColFair α=1.2"} <= set(line_labels(five))
    paper = [ln for ln in five.get_lines() if ln.get_label() == "paper: Cubic"][0]
    assert paper.get_markerfacecolor() == "none" and paper.get_color() == qm.pm.GREY  # grey hollow markers
    assert qm.buffer_sweep(tables, reference(), qm.SWEEPS[1], qf.BDP_PKTS) is None


def test_device_queue_draws_qtcolfair_at_alpha_1_2_only():
    algs = [("cubic", None), ("qtcolfair", 1.2), ("qtcolfair", 1.5)]
    tables = pd.concat([table(qf.SWEEP, algs, ["utilization", "plr"], flows=[5], buffer_bdp=[0.003, 0.5]),
                        table(qf.DEVQ, algs, ["utilization", "plr"], flows=[5], buffer_bdp=[0.003, 0.5])])
    fig = qm.device_queue(tables)
    labels = [c.get_label() for c in fig.axes[0].containers]
    assert len(labels) == 4 and not any("1.5" in lab for lab in labels)
    # utilization and PLR in %, as everywhere else in the book (the table holds 0.95)
    assert "%" in fig.axes[0].get_ylabel() and "%" in fig.axes[1].get_ylabel()
    assert list(fig.axes[0].containers[0].lines[0].get_ydata()) == pytest.approx([95.0, 95.0])
    assert qm.device_queue(tables[tables["study"] == qf.SWEEP]) is None
    assert qt.device_queue_utilization(tables[tables["alpha"].fillna(0) != 1.5]) == (
        "At 0.003 BDP with the device queue, utilization is Cubic 95.0%, QtColFair α=1.2 95.0%.")
    with_paper = qm.device_queue(tables, reference())
    assert [ln.get_label() for ln in with_paper.axes[0].get_lines() if ln.get_label().startswith("paper")] == [
        "paper: Cubic, 1 BDP", "paper: QtColFair α=1.2, 1 BDP"]


def test_tables_of_means_keep_every_grid_point_apart_with_the_paper_beside_ours():
    t = table("qt_multiflow", MULTI, ["goodput_mbps", "jain", "median_rtt_ms"], flows=[2, 5], duration=[400])
    m = qt.multiflow_means(t, reference())
    assert len(m) == 2 * len(MULTI) and list(m["flows"]) == [2] * len(MULTI) + [5] * len(MULTI)
    five = m[m["flows"] == 5].set_index("algorithm")
    assert five.loc["cubic", "paper_goodput_mbps"] == qt.paper(reference(), "multiflow", "cubic", "goodput")
    assert m[m["flows"] == 2]["paper_jain"].isna().all()  # the paper ran five flows only
    shown = qt.multiflow_means_shown(m)
    assert list(shown.columns) == ["algorithm", "flows", "run (s)", "goodput (Mbit/s): mean [95% CI]",
                                   "paper: goodput (Mbit/s)", "Jain's index: mean [95% CI]", "paper: Jain's index",
                                   "median RTT (ms): mean [95% CI]", "paper: median RTT (ms)"]
    algs = [("cubic", None), ("qtcolfair", 1.2), ("qtcolfair", 1.5)]  # two alphas: two rows, never averaged
    t = table(qf.SWEEP, algs, ["utilization", "plr", "mean_rtt_ms"], flows=[1, 5], buffer_bdp=[1, 2])
    t.loc[t["alpha"] == 1.5, "mean"] = 0.5
    w = qt.buffer_sweep_5flows(t, reference())
    assert len(w) == 2 * len(algs) and list(w["utilization_pct"]) == pytest.approx([95, 95, 50] * 2)
    assert w["paper_utilization"].iloc[0] == qt.paper(reference(), "buffer_sweep", "cubic", "goodput", buffer_bdp=1)
    assert list(qt.buffer_sweep_5flows_shown(w)["algorithm"][:3]) == ["Cubic", "QtColFair α=1.2", "QtColFair α=1.5"]


# --------------------------------------------------------------------------- one grid point per line

SHORT = [("cubic", None), ("bbr", None), ("qtcolfair", 1.2)]  # also run with 2-4 flows for 100 s, as in the real grid
FIVE_T = np.arange(0, 400.5, 2.0)  # the five-flow points: 400 s
SHORT_T = np.arange(0, 100.5, 1.0)  # the 2-flow points: 100 s


def multiflow_grid(short_first=True):
    """Like results/traces/qt_multiflow.csv: every algorithm at flows=5, duration=400, and CUBIC, BBR and
    QtColFair α=1.2 again at flows=2, duration=100 (same algorithm and alpha, another grid point; its Jain's
    index and throughput different). Grouping by (algorithm, alpha) drops those three from the five-flow
    figures when the short points come first, and mixes both points into one line when they come last."""
    short = trace("qt_multiflow", SHORT, flows=2, seeds=(1,), times=SHORT_T, duration=100, jain=0.5)
    five = trace("qt_multiflow", MULTI, flows=5, seeds=(2, 1), times=FIVE_T, duration=400)
    return pd.concat([short, five] if short_first else [five, short], ignore_index=True)


@pytest.mark.parametrize("short_first", [True, False])
def test_runs_select_grid_points_and_never_merge_two_under_one_label(short_first):
    grid = multiflow_grid(short_first)
    mf = qf.five_flow_runs(grid)
    assert [(a, al) for a, al, _ in mf] == MULTI  # every algorithm and alpha, once
    for _, _, g in mf:
        assert g["point"].nunique() == 1 and set(g["flows"]) == {5} and set(g["seed"]) == {1}
        assert np.array_equal(g["t"].to_numpy(), FIVE_T) and g["t"].max() == g["duration"].iloc[0] == 400
    short = qf.runs(grid, qf.MULTI, flows=2, duration=100)  # the convergence points
    assert [(a, al) for a, al, _ in short] == SHORT and all(g["t"].max() == 100 for _, _, g in short)
    with pytest.raises(ValueError, match="both be drawn as Cubic"):
        qf.runs(grid, qf.MULTI)  # flows=2 and flows=5 share every label of SHORT
    no_path = qf.five_flow_runs(grid.drop(columns="point"))  # without the point column: by every parameter
    assert [(a, al, len(g)) for a, al, g in no_path] == [(a, al, len(FIVE_T)) for a, al in MULTI]


@pytest.mark.parametrize("short_first", [True, False])
def test_five_flow_time_figures_draw_each_line_from_the_five_flow_point_only(short_first):
    mf = qf.five_flow_runs(multiflow_grid(short_first))
    ax = qm.jain_over_time(mf).axes[0]
    lines = [ln for ln in ax.get_lines() if not ln.get_label().startswith("_")]
    assert [ln.get_label() for ln in lines] == [style.label(a, al) for a, al in MULTI]
    for ln in lines:
        assert np.array_equal(ln.get_xdata(), FIVE_T) and max(ln.get_xdata()) == 400
        assert set(ln.get_ydata()) == {0.9}  # the 2-flow points' 0.5 never appears
    fig = qm.flows_throughput(mf)
    shown = [(a, al) for a, al in MULTI if (a, al) in qm.THROUGHPUT_PANELS]
    assert len(shown) == len(qm.THROUGHPUT_PANELS)  # the caption's QtColFair, QtCol, CUBIC and BBR
    assert [ax.get_title(loc="left") for ax in fig.axes] == [style.label(a, al) for a, al in shown]
    for ax in fig.axes:
        assert len(ax.get_lines()) == 5
        for ln in ax.get_lines():
            assert np.array_equal(ln.get_xdata(), FIVE_T) and np.allclose(ln.get_ydata(), 90.0 / 5)


@pytest.mark.parametrize("short_first", [True, False])
def test_five_flow_boxes_take_their_samples_from_the_five_flow_point_only(monkeypatch, short_first):
    mf = qf.five_flow_runs(multiflow_grid(short_first))
    drawn = []
    monkeypatch.setattr(qm, "boxplot", lambda series, *a: drawn.append(series) or plt.figure())
    qm.show_multi_boxes(FakeChapter(), mf, qf.BDP_PKTS)
    inflight, rtt = drawn
    warm = int((FIVE_T >= qf.WARMUP_S).sum())
    assert [(a, al) for a, al, _ in inflight] == [(a, al) for a, al, _ in rtt] == MULTI
    assert all(len(s) == warm for _, _, s in inflight) and all(len(s) == 5 * warm for _, _, s in rtt)
    assert all(np.allclose(s, 5 * (401.0 + FIVE_T[FIVE_T >= qf.WARMUP_S])) for _, _, s in inflight)


def test_figures_refuse_a_trace_of_several_points_or_two_points_under_one_label():
    grid = multiflow_grid()
    mixed = grid[(grid["algorithm"] == "cubic") & (grid["seed"] == 1)].sort_values("t")
    with pytest.raises(ValueError, match="mixes grid points"):
        qm.jain_over_time([("cubic", None, mixed)])
    twice = qf.points(grid[grid["algorithm"] == "bbr"], qf.MULTI)
    assert len(twice) == 2
    with pytest.raises(ValueError, match="both be drawn as BBR"):
        qm.flows_throughput(twice)


# --------------------------------------------------------------------------- the paper's numbers

def test_published_vs_ours_has_the_scorecards_numbers_and_verdicts():
    ref = reference()
    tables = table("qt_single_static", [("cubic", None)], ["goodput_mbps", "plr"], flows=[1], buffer_bdp=[5])
    tables["mean"] = [94.0, 0.05]
    compare = qt.published_vs_ours(tables, ref)
    assert len(compare) == len(sq.compared(ref)) == 87  # the text-stated ranges are not compared
    ran = compare[compare["within_tolerance"].notna()].set_index("metric")
    assert ran.loc["goodput_mbps", "within_tolerance"] and not ran.loc["plr", "within_tolerance"]
    assert ran.loc["goodput_mbps", "difference"] == pytest.approx(94.0 - 93.82)
    first, per_metric = qt.published_summary(compare, "LINK")
    assert first.startswith("**1 of 2 published numbers that we ran lie within the tolerance") and "(85 not run)" in first
    assert per_metric == "Per metric: goodput 1 of 1; PLR 0 of 1."
    html = qt.published_html(compare)
    assert html.count("<table") == 1 and "✓ yes" in html and "✗ no" in html  # the scenarios we did not run: one line
    assert "numbers are not compared: the study did not run" in html and "85" not in html.split("<table")[0][:0]


def test_table_cells_write_integers_as_integers_and_ties_as_ties():
    assert [cells.num(v) for v in (5.0, 96.40896943999999, 0.000241, 12345.0, float("nan"), 2.418e-05)] == [
        "5", "96.41", "0.000241", "12 345", "–", "2.418×10⁻⁵"]
    assert cells.difference(96.40896944, 96.40896943999999) == "tie"
    assert cells.difference(96.4, 93.1) == "+3.3 (+3.5%)" and cells.difference(0.2212, 0.22) == "+0.0012 (+0.55%)"


def test_paper_numbers_in_the_text_come_from_the_reference_file():
    ref = reference()
    tables = table("qt_single_static", [("cubic", None)], ["goodput_mbps", "plr"], flows=[1], buffer_bdp=[5])
    tables["mean"] = [96.4, 0.0002]
    assert "the paper's 0.027" in qt.disagreements(tables, ref)
    assert qt.disagreements(tables.assign(mean=[96.4, 0.03]), ref) == ""  # no departure shown that is not there
    ref.loc[(ref["metric"] == "plr") & (ref["algorithm"] == "cubic"), "value"] = 0.031
    assert "the paper's 0.031" in qt.disagreements(tables, ref)
    assert qt.disagreements(tables.iloc[0:0], ref) == ""
    assert qt.paper_range(ref, "single_static", "cubic", "inflight") == "1449-2070"
    with pytest.raises(KeyError, match="multiflow"):
        qt.paper(ref, "multiflow", "cubic", "plr")


# --------------------------------------------------------------------------- what our runs show, from the runs

def test_findings_are_computed_from_the_runs_and_name_the_papers_numbers():
    from simulator.report.papers.qtcol import findings as fd
    ref = reference()
    ss = qf.runs(trace("qt_single_static", SINGLE), "qt_single_static")
    text = fd.single_flow(ss, qf.BDP_PKTS, ref)
    assert "paper: 1449-2070 packets and 170-250 ms" in text and "Our BBR's data in flight reach" in text
    assert "QtCol settles at" in text and "(paper: about 400 and 48)" in text
    only = fd.single_flow([r for r in ss if r[0] == "qtcolfair"], qf.BDP_PKTS, ref)
    assert only.startswith("QtColFair's dips") and "CUBIC" not in only
    rr = qf.runs(trace("qt_bandwidth_change", SINGLE), "qt_bandwidth_change")
    assert "(paper: at most 480 ms over the run)" in fd.bandwidth_change(rr, qf.BDP_PKTS, ref)
    assert fd.bandwidth_change([r for r in rr if r[0] == "qtcol"], qf.BDP_PKTS, ref) == ""
    algs = [("cubic", None), ("bbr", None), ("qtcolfair", 1.2)]
    sweep = table(qf.SWEEP, algs, ["utilization", "plr"], flows=[5], buffer_bdp=[0.05, 1, 2, 10])
    sweep.loc[(sweep["algorithm"] == "qtcolfair") & (sweep["buffer_bdp"] == 0.05), "mean"] = 0.5
    text = fd.buffer_sweep(sweep, ref)
    assert "from 95% at 2 BDP to 95% at 10 BDP (paper: 94.2% to 91.4%)" in text
    assert "lowest utilization of the three at 5 flows: 0.05 BDP" in text
    assert fd.buffer_sweep(sweep.iloc[0:0], ref) == ""


# --------------------------------------------------------------------------- what a reader sees (issue 34)

def test_each_alpha_of_qtcolfair_has_a_colour_of_its_own_not_only_a_dash():
    alphas = sorted(qm.style.ALPHA_STYLES)
    colours = {qm.style.colour("qtcolfair", a) for a in alphas}
    assert len(colours) == len(alphas)                                    # one colour per curve
    assert qm.style.colour("qtcolfair", 1.2) == qm.style.PALETTE["qtcolfair"]
    assert qm.style.colour("qtcolfair", None) == qm.style.PALETTE["qtcolfair"]
    others = {qm.style.PALETTE[a] for a in qm.style.ALGORITHMS if a != "qtcolfair"}
    assert not colours & others
    bars = qm.multiflow_bars(table("qt_multiflow", MULTI, ["goodput_mbps"], flows=[5]), reference(),
                             "goodput_mbps", "goodput", "goodput", (90, 97.5))
    faces = {tuple(p.get_facecolor()[:3]) for p in bars.axes[0].patches}
    assert len(faces) == len(MULTI)                                       # a colour per bar, alphas apart


def test_a_bar_axis_that_does_not_start_at_0_is_marked_broken():
    tables = table("qt_multiflow", MULTI, ["goodput_mbps", "jain"], flows=[5])
    from90 = qm.multiflow_bars(tables, reference(), "goodput_mbps", "goodput", "goodput", (90, 97.5))
    assert len([ln for ln in from90.axes[0].get_lines() if ln.get_gid() == "axis-break"]) == 2
    from0 = qm.multiflow_bars(tables, reference(), "jain", "J", "jain", (0, 1.05))
    assert not [ln for ln in from0.axes[0].get_lines() if ln.get_gid() == "axis-break"]


def test_figure_text_is_at_least_9_pixels_as_the_book_shows_it():
    tables = table("qt_multiflow", MULTI, ["goodput_mbps"], flows=[5])
    fig = qm.multiflow_bars(tables, reference(), "goodput_mbps", "goodput", "goodput", (90, 97.5))
    assert qm.style.smallest_text_px(fig) >= qm.style.MIN_TEXT_PX
    fig, ax = plt.subplots(figsize=(12, 4))
    ax.legend(handles=[plt.Line2D([], [], label="x")], fontsize=6)      # what the check must catch
    assert qm.style.smallest_text_px(fig) < qm.style.MIN_TEXT_PX


def test_no_figure_of_the_report_asks_for_text_below_9_points():
    """Every figure is at most 12 inches wide and shown at figure.dpi, shrunk to the 900-pixel column:
    9 points is then at least 9 pixels; a smaller explicit size anywhere is a regression."""
    import re
    from pathlib import Path

    small = re.compile(r"(fontsize|labelsize|size)\s*=\s*([0-8](\.\d+)?)\b")
    root = Path(qm.__file__).parent
    found = [f"{p.name}: {m.group(0)}" for p in sorted(root.glob("*.py")) for m in small.finditer(p.read_text())
             if "fontsize" in m.group(0) or "labelsize" in m.group(0)]
    assert not found, found
    assert 9 / 72 * 110 * min(1, qm.style.PAGE_PX / (12 * 110)) >= qm.style.MIN_TEXT_PX
