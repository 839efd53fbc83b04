"""The Wi-Fi testbed chapter's figures and tables (simulator/report/papers/testbed/figures.py, tables_testbed.py):
on small synthetic frames; on tables with every grid point of the real study files (every figure covers
its study's algorithms, no series combines two grid points, the report's numbers are drawn where the
scorecard compares them, ranges as ranges, text at least 10 px at page width); and on the tiny
profile's real run (fixture built_report)."""
import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

import study_tables as st  # noqa: E402
from simulator.report import figure_series, paper_values, style  # noqa: E402
from simulator.report.papers.testbed import claims as claims_testbed
from simulator.report.papers.testbed import tables as tables_testbed
from simulator.report.papers.testbed import wifi_channel  # noqa: E402
from simulator.report.papers.testbed import figures as tb  # noqa: E402

style.apply(plt)
BIDIR_ALGS = ["bbr", "cubic"]
NUMBERS = paper_values.load(st.ROOT / "reference", "testbed")


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def bars(ax):
    """The bar groups of `ax` (bars with error bars also add an errorbar container)."""
    from matplotlib.container import BarContainer

    return [c for c in ax.containers if isinstance(c, BarContainer)]


def row(study, alg, metric, mean=2.0, **params):
    point = "/".join(f"{k}~{v}" for k, v in {"algorithm": alg, **params}.items() if v is not None)
    return {"study": study, "point": point, "algorithm": alg, "metric": metric, "mean": mean, "ci_low": mean - 1,
            "ci_high": mean + 1, "n": 10, **params}


def tables(algs=tb.ALGS):
    """The run matrix: every algorithm, link setup and background; BBR and CUBIC also both ways."""
    metrics = [m for m, *_ in tb.BARS] + ["throughput_p90_mbps"]
    rows = [row(tables_testbed.STUDY, a, m, link_setup=s, background=bg, bidir=None)
            for a in algs for s in tb.SETUPS for bg in tb.BACKGROUNDS for m in metrics]
    rows += [row(tables_testbed.STUDY, a, m, mean=5.0, link_setup=s, background="none", bidir=True)
             for a in BIDIR_ALGS for s in tb.SETUPS for m in ("throughput_mean_mbps", "reverse_throughput_mbps")]
    return pd.DataFrame(rows)


def traces():
    return pd.DataFrame([{"study": tables_testbed.STUDY, "point": f"algorithm~{a}/link_setup~{s}/background~{bg}",
                          "algorithm": a, "link_setup": s, "background": bg, "bidir": None,
                          "seed": seed, "t": t, "throughput_mbps": 10.0 * seed, "cwnd": 20.0, "ping_rtt_ms": 5.0}
                         for a in tb.ALGS for s in tb.SETUPS for bg in ("none", "heavy") for seed in (3, 4)
                         for t in (1.0, 2.0)])


def test_bar_chart_has_one_bar_group_per_algorithm_and_background():
    fig = tb.bar_chart(tables(), "throughput_mean_mbps", "throughput")
    names = ["BBR", "Cubic", "Reno", "Vegas"]
    for ax in fig.axes:
        assert [c.get_label() for c in bars(ax)] == names
        assert [len(c) for c in bars(ax)] == [len(tb.BACKGROUNDS)] * len(names)
    assert [t.get_text() for t in fig.legends[0].get_texts()] == names      # no number of the report drawn


def test_bars_of_missing_points_are_empty():
    t = tables()
    t = t[~((t["algorithm"] == "reno") & (t["background"] == "heavy"))]
    fig = tb.bar_chart(t, "throughput_mean_mbps", "throughput")
    reno = bars(fig.axes[0])[tb.ALGS.index("reno")]
    assert [b.get_height() for b in reno][:2] == [2.0, 2.0]
    assert reno[2].get_height() != reno[2].get_height()      # NaN: no bar


def test_error_bars_are_cut_at_zero():
    t = tables()
    t.loc[t["metric"] == "ping_loss_pct", "ci_low"] = -3.0
    data = figure_series.frame(tb.bar_chart(t, "ping_loss_pct", "loss"))
    assert data["ci_low"].min() == 0


def test_scatter_draws_a_point_per_algorithm_setup_and_background():
    fig = tb.throughput_vs_rtt(tables())
    assert len(fig.axes[0].containers) == len(tb.ALGS) * len(tb.SETUPS) * len(tb.BACKGROUNDS)
    legend = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert legend[:4] == ["BBR", "Cubic", "Reno", "Vegas"] and legend[4:6] == ["ETH-WiFi", "WiFi-WiFi"]
    assert figure_series.problems(fig) == []


def test_bidirectional_figure_and_table_cover_the_algorithms_run_both_ways():
    fig = tb.bidirectional(tables())
    for ax in fig.axes:
        assert [t.get_text() for t in ax.get_xticklabels()] == ["BBR", "Cubic"]
        assert len(bars(ax)) == len(tb.BIDIR_KINDS) * len(BIDIR_ALGS)
    table = tb.bidirectional_table(tables())
    assert table.shape == (len(tb.SETUPS) * len(BIDIR_ALGS), len(tb.BIDIR_KINDS))
    assert list(table.columns) == [f"{k} (Mbit/s)" for k, *_ in tb.BIDIR_KINDS]
    assert table.loc[("ETH-WiFi", "BBR"), "bidir: reverse (Mbit/s)"] == "5 [4, 6]"
    assert table.loc[("ETH-WiFi", "BBR"), "unidirectional (baseline) (Mbit/s)"] == "2 [1, 3]"


def test_time_series_shows_the_first_seeds_baseline_run():
    fig = tb.time_series(traces())
    assert tb.first_seed(traces()) == 3
    for ax in fig.axes:
        assert [ln.get_label() for ln in ax.get_lines()] == ["BBR", "Cubic", "Reno", "Vegas"]
    assert list(fig.axes[0].get_lines()[0].get_ydata()) == [30.0, 30.0]      # seed 3, not 4
    assert fig.axes[0].get_ylim()[0] == 0
    assert figure_series.problems(fig) == []
    wide = figure_series.frame(fig, wide=True)
    assert [c for c, _ in tb.SERIES if c] and set(y for _, y in tb.SERIES) <= set(wide.columns)
    assert len(wide) == len(tb.ALGS) * len(tb.SETUPS) * 2                    # 2 samples per run


def test_summary_orders_backgrounds_names_them_and_blanks_what_does_not_apply():
    wide = tables_testbed.summary(tables(), tb.ALGS)
    assert list(wide.index.names) == ["link setup", "background", "algorithm"]
    eth = wide.loc["ETH-WiFi"]
    assert list(dict.fromkeys(eth.index.get_level_values("background"))) == [
        "baseline", "light (8 flows)", "heavy (8 flows)", "baseline, bidirectional"]
    assert list(eth.loc["baseline"].index) == ["BBR", "Cubic", "Reno", "Vegas"]
    assert wide.columns[0] == "throughput mean (Mbit/s)" and "reverse throughput (Mbit/s)" in wide.columns
    assert eth.loc[("baseline", "Reno"), "reverse throughput (Mbit/s)"] == ""
    assert eth.loc[("baseline, bidirectional", "BBR"), "reverse throughput (Mbit/s)"] == "5 [4, 6]"
    assert tables_testbed.summary_seeds(tables()) == 10


def sensitivity_tables():
    return pd.DataFrame([row(tb.SENS, a, m, background=bg, ap_buffer_pkts=buf, loss_pct=loss, link_setup="wifi_wifi")
                         for a in tb.ALGS for bg in ("none", "heavy") for buf in tb.BUFFER_STYLE for loss in (0.5, 0.1)
                         for m, _, _ in tb.SENS_METRICS])


def test_sensitivity_figure():
    fig = tb.sensitivity(sensitivity_tables())
    assert len(fig.axes) == len(tb.SENS_METRICS) * 2
    assert len(fig.axes[0].containers) == len(tb.ALGS) * len(tb.BUFFER_STYLE)
    assert fig.axes[2].get_yscale() == "log"                 # ping RTT row
    assert figure_series.problems(fig) == []
    assert [t.get_text() for t in fig.legends[0].get_texts()][-2:] == ["1000-packet queue", "100-packet queue"]


def test_cross_traffic_bars_per_mode_and_load():
    ct = pd.DataFrame([row(tb.CROSS, a, m, cross_mode=mode, cross_mbps=load)
                       for a in tb.ALGS for m, _ in tb.CROSS_METRICS for mode in ("poisson", "onoff") for load in (10, 25)])
    fig = tb.cross_traffic(ct)
    assert [t.get_text() for t in fig.axes[0].get_xticklabels()] == [
        "poisson\n10 Mbit/s", "poisson\n25 Mbit/s", "onoff\n10 Mbit/s", "onoff\n25 Mbit/s"]
    assert [c.get_label() for c in bars(fig.axes[0])] == ["BBR", "Cubic", "Reno", "Vegas"]
    assert figure_series.problems(fig) == []


class FakeChapter:
    def __init__(self):
        self.shown, self.downloads = [], {}

    def markdown(self, text):
        self.shown.append(text)

    def figure(self, fig, name):
        self.shown.append(name)
        plt.close(fig)

    def caption(self, text):
        self.shown.append(text)

    def save_download(self, frame, name, index=False):
        self.downloads[name] = frame

    @staticmethod
    def download_link(name, label="Download as CSV"):
        return f"<a href='{name}'>{label}</a>"


@pytest.mark.parametrize("section,study", [("sensitivity_section", tb.SENS), ("cross_traffic_section", tb.CROSS)])
def test_optional_study_that_did_not_run_says_so(section, study):
    ch = FakeChapter()
    getattr(tb, section)(ch, tables())
    assert ch.shown == [f"*Study `{study}` did not run in this build (enable it in `config/config.yaml`).*"]


def test_bar_charts_draw_the_reports_numbers_at_the_baseline_ranges_as_ranges():
    ch = FakeChapter()
    tb.bars_section(ch, tables(), NUMBERS, "src")
    captions = dict(zip(ch.shown[0::2], ch.shown[1::2]))
    assert "WiFi-WiFi: BBR, Cubic and Reno 25–40 ms, Vegas 160 ms" in captions["bars_rtt"]
    assert "WiFi-WiFi: BBR and Cubic 5–6%, Reno 3–4%, Vegas 0%" in captions["bars_loss"]
    assert "states no number" in captions["bars_throughput"]
    for name in ch.shown[0::2]:
        assert f"'{name}.csv'" in captions[name] and f"{name}.csv" in ch.downloads
    rtt = ch.downloads["bars_rtt.csv"].dropna(subset=["paper_low"])
    assert set(rtt["x"]) == {"none"} and len(rtt) == 8                 # at the baseline, 4 algorithms x 2 setups
    wifi_bbr = rtt[(rtt["series"] == "paper: BBR") & rtt["panel"].str.startswith("WiFi-WiFi")].iloc[0]
    assert (wifi_bbr["paper_low"], wifi_bbr["paper_high"]) == (25, 40)    # the range, not its midpoint 32.5


def test_tracked_numbers_are_the_ones_the_scorecard_compares():
    """The scorecard's quoted-number rows are reference/testbed/paper_numbers.csv's, each range kept as the
    report states it (paper_low, paper_high), not its midpoint."""
    rows, _ = claims_testbed.quoted(lambda *a: (_ for _ in ()).throw(KeyError("none")), NUMBERS)
    assert len(rows) == len(NUMBERS)
    for r, (_, n) in zip(rows, NUMBERS.iterrows()):
        assert (r["paper_low"], r["paper_high"]) == (n["low"], n["high"]) and n["algorithm"] in r["item"]


CLAIMS_YAML = """claims:
  - {id: tb-1, paper: testbed, claim: Wired faster., stated_in: Results, studies: [s], metrics: [m]}
  - {id: mn-1, paper: mininet, claim: Other paper., stated_in: Fig. 1, studies: [s], metrics: [m]}
"""


def channel_row(study, lo, hi, background="none", **params):
    return {"study": study, "metric": "ping_rtt_mean_ms", "algorithm": "bbr", "link_setup": "wifi_wifi",
            "background": background, "bidir": None, "mean": (lo + hi) / 2, "run_p025": lo, "run_p975": hi, **params}


def sweep_row(lo, hi, background="none", mcs=4, queue=1000, errors=0.1):
    return channel_row("tb_wifi_sensitivity", lo, hi, background, mac_mcs=mcs, ap_buffer_pkts=queue,
                       mac_mpdu_error_rate=errors)


def test_the_quoted_numbers_table_gives_both_channels_and_what_of_the_sweep_reaches_each():
    """The report's 25-40 ms for BBR on WiFi-WiFi beside our per-run ranges on both channels; outside on the
    802.11 channel, and why as the sweep shows it: some baseline setting reaches it (an open setting), only the
    heavy background does, or none does."""
    numbers = NUMBERS[(NUMBERS["metric"] == "ping_rtt_mean_ms") & (NUMBERS["algorithm"] == "bbr")
                      & (NUMBERS["where"] == "link_setup=wifi_wifi")]
    base = [channel_row("tb_matrix", 10.0, 12.0), channel_row("tb_wifi_matrix", 2.0, 3.0)]

    def table(sweep):
        return wifi_channel.numbers_table(pd.DataFrame(base + sweep), numbers).iloc[0].to_dict()

    opened = table([sweep_row(30.0, 35.0), sweep_row(2.0, 3.0, mcs=9)])
    assert {k: opened[k] for k in ("the report says", "abstract channel: per-run range", "abstract channel",
                                   "802.11 channel: per-run range", "verdict")} == {
        "the report says": "25–40", "abstract channel: per-run range": "10–12", "abstract channel": "outside",
        "802.11 channel: per-run range": "2–3", "verdict": "outside"}
    assert opened["sweep settings that reach it"] == "baseline: 1 of 2 (MCS 4, 1000-packet DropTail, 10% MPDU errors)"
    assert opened["why outside"] == wifi_channel.WHY["open"]
    assert table([sweep_row(2.0, 3.0), sweep_row(26.0, 50.0, "heavy")])["why outside"] == wifi_channel.WHY["background"]
    assert table([sweep_row(2.0, 3.0)])["why outside"] == wifi_channel.WHY["none"]
    base[1] = channel_row("tb_wifi_matrix", 20.0, 26.0)
    inside = table([])
    assert inside["verdict"] == "inside" and inside["why outside"] == ""


# ------------------------------------------------------------------ every grid point of the real studies
def study_frames(study, folder=st.STUDIES):
    metrics = list(tables_testbed.METRICS)
    return st.tables(study, metrics, folder), st.traces(study, lambda p: ["throughput_mbps", "cwnd", "ping_rtt_ms"], folder)


def figures(t, tr, folder=st.STUDIES):
    """Every figure function of the chapter with what it draws: (figure, the algorithms it must show)."""
    algs = st.algorithms(tables_testbed.STUDY, folder)
    out = [(tb.bar_chart(t, m, y, NUMBERS), algs) for m, y, *_ in tb.BARS]
    out += [(tb.throughput_vs_rtt(t), algs), (tb.bidirectional(t), st.algorithms(tables_testbed.STUDY, folder, bidir=True)),
            (tb.time_series(tr), algs)]
    for study, draw in ((tb.SENS, tb.sensitivity), (tb.CROSS, tb.cross_traffic)):
        if study in set(t["study"]):
            out.append((draw(t), st.algorithms(study, folder)))
    return out


def test_every_figure_covers_its_study_and_never_combines_two_grid_points():
    frames = [study_frames(s) for s in (tables_testbed.STUDY, tb.SENS, tb.CROSS)]
    t, tr = pd.concat([f[0] for f in frames]), frames[0][1]
    for fig, algs in figures(t, tr):
        assert figure_series.problems(fig) == []
        assert figure_series.algorithms(fig) == algs
        assert st.smallest_font_px(fig) >= 10
        plt.close(fig)


def test_a_bar_that_combines_two_grid_points_is_caught():
    t, _ = study_frames(tables_testbed.STUDY)
    light = t[t["background"] == "light"].assign(background="heavy")      # a second point under heavy
    problems = figure_series.problems(tb.bar_chart(pd.concat([t, light]), "throughput_mean_mbps", "throughput"))
    assert problems and "combines grid points at ['heavy']" in problems[0]


# ------------------------------------------------------------------ the tiny profile's real run
def test_tiny_runs_figures_are_complete_unmixed_and_have_their_data(built_report):
    results = built_report / "results"
    t, tr = pd.read_csv(results / "tables" / "tb_matrix.csv"), pd.read_csv(results / "traces" / "tb_matrix.csv")
    for fig, algs in figures(t, tr, st.ROOT / "config" / "test" / "studies"):
        assert figure_series.problems(fig) == [] and figure_series.algorithms(fig) == algs
        plt.close(fig)
    figures_made = {p.stem for p in (results / "figures" / "testbed").glob("*.png")}
    downloads = {p.stem for p in (results / "downloads" / "testbed").glob("*.csv")}
    assert figures_made and figures_made <= downloads
    assert {"testbed_summary", "testbed_bidirectional", "testbed_claims", "testbed_numbers_by_channel"} <= downloads
    page = (results / "book" / "_build" / "html" / "testbed.html").read_text()
    assert page.count("Data of this figure (CSV)") == len(figures_made)
    assert "25–40" in page


def test_a_static_number_reason_that_disagrees_with_the_sweep_is_caught():
    """reference/testbed/number_reasons.yaml is text written by hand; the chapter stops when its kind for a number
    outside no longer says what the build's sweep shows (an open setting, only the heavy background, nothing)."""
    numbers = NUMBERS[(NUMBERS["metric"] == "ping_rtt_mean_ms") & (NUMBERS["algorithm"] == "bbr")
                      & (NUMBERS["where"] == "link_setup=wifi_wifi")]
    tables = pd.DataFrame([channel_row("tb_wifi_matrix", 2.0, 3.0), sweep_row(2.0, 3.0),
                           sweep_row(26.0, 50.0, "heavy")])
    said = lambda kind: {"testbed": [{"match": "^RTT wifi_wifi bbr ", "kind": kind}]}   # noqa: E731
    assert wifi_channel.check_reasons(tables, numbers, said("paper_ambiguity")) == []
    wrong = wifi_channel.check_reasons(tables, numbers, said("sensitivity"))
    assert len(wrong) == 1 and "RTT wifi_wifi bbr" in wrong[0] and "only runs with the heavy background" in wrong[0]
    assert "says nothing" in wifi_channel.check_reasons(tables, numbers, {"testbed": []})[0]
