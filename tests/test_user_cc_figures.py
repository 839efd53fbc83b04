"""A user's algorithm (config extra_algorithms) in the chapters' figures, the Provenance page and the
algorithm listing: the testbed and NS-2 figures draw every algorithm of their data (the paper's first,
then the user's) and name it in the legend; the fixed-list figures of the QtCol and M/M/1 chapters
take it; the Provenance page lists its file relative to the repository root."""
import json

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

import test_figures_ns2 as ns2_data  # noqa: E402
import test_figures_testbed as tb_data  # noqa: E402
from simulator import cli  # noqa: E402
from simulator.report.papers.mm1 import scorecard_section as mm1_scorecard_section  # noqa: E402
from simulator.report import figure_series  # noqa: E402
from simulator.report.papers.mm1 import checks as figures_mm1_checks
from simulator.report.papers.qtcol import figures as figures_qtcol
from simulator.report.papers.qtcol import figures_multiflow as figures_qtcol_multiflow
from simulator.report.papers.ns2 import figures as ns2  # noqa: E402
from simulator.report.papers.testbed import figures as tb  # noqa: E402
from simulator.report import provenance_page as pp  # noqa: E402
from simulator.report import style  # noqa: E402
from simulator.report.papers.testbed import tables as tables_testbed

USER = "mynewreno"


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def legend_texts(fig) -> list:
    legends = fig.legends + [ax.get_legend() for ax in fig.axes if ax.get_legend()]
    return [t.get_text() for leg in legends for t in leg.get_texts()]


def drawn(fig, name) -> pd.DataFrame:
    """The figure's data rows of the series that name `name`."""
    d = figure_series.frame(fig)
    return d[d["series"].str.startswith(name)]


def assert_shows_user(fig, paper_algs):
    """The user's algorithm is drawn (data rows, algorithms) and in the legend, after the paper's."""
    assert USER in figure_series.algorithms(fig)
    assert len(drawn(fig, USER)) > 0
    labels = [t for t in legend_texts(fig) if t in {style.label(a) for a in [*paper_algs, USER]}]
    assert labels == [style.label(a) for a in [*paper_algs, USER]]
    assert not figure_series.problems(fig)


def test_style_drawn_puts_the_papers_algorithms_first_in_their_order():
    assert style.drawn(["bbr", "cubic", "reno"], {"reno", USER, "bbr"}) == ["bbr", "reno", USER]
    assert style.drawn(["reno"], {"reno"}) == ["reno"]


def user_testbed_tables():
    t = tb_data.tables(algs=[*tb.ALGS, USER])
    user_bidir = t[(t["algorithm"] == "bbr") & (t["bidir"] == True)].assign(  # noqa: E712
        algorithm=USER, point=lambda d: d["point"].str.replace("algorithm~bbr", f"algorithm~{USER}"))
    return pd.concat([t, user_bidir], ignore_index=True)


@pytest.mark.parametrize("draw", [
    lambda t: tb.bar_chart(t, "ping_rtt_mean_ms", "RTT", tb_data.NUMBERS),
    tb.throughput_vs_rtt,
])
def test_testbed_figures_draw_a_user_algorithm(draw):
    assert_shows_user(draw(user_testbed_tables()), tb.ALGS)


def test_testbed_bidirectional_figure_and_caption_name_a_user_algorithm():
    t = user_testbed_tables()
    fig = tb.bidirectional(t)
    assert USER in figure_series.algorithms(fig)
    assert [x.get_text() for x in fig.axes[0].get_xticklabels()] == ["BBR", "Cubic", USER]
    assert tb.bidirectional_names(t) == f"BBR, Cubic and {USER}"
    assert tb.bidirectional_names(tb_data.tables()) == "BBR and Cubic"


def test_testbed_paper_numbers_stay_on_the_papers_algorithms():
    """The report's grey marks are drawn at the paper's algorithms' bars, none at the user's."""
    fig = tb.bar_chart(user_testbed_tables(), "ping_rtt_mean_ms", "RTT", tb_data.NUMBERS)
    paper = figure_series.frame(fig)
    paper = paper[paper["paper_low"].notna()]
    assert len(paper) and not paper["series"].str.contains(USER).any()


def test_testbed_time_series_and_summary_keep_a_user_algorithm():
    tr = tb_data.traces()
    tr = pd.concat([tr, tr[tr["algorithm"] == "reno"].assign(
        algorithm=USER, point=lambda d: d["point"].str.replace("algorithm~reno", f"algorithm~{USER}"))])
    fig = tb.time_series(tr)
    assert USER in figure_series.algorithms(fig) and style.label(USER) in legend_texts(fig)
    summary = tables_testbed.summary(user_testbed_tables(), tb.algorithms(user_testbed_tables()))
    assert list(summary.index.get_level_values("algorithm")[:5]) == ["BBR", "Cubic", "Reno", "Vegas", USER]


@pytest.mark.parametrize("study", ["ns2_queue", "ns2_delay"])
def test_ns2_summary_figure_draws_a_user_algorithm(study):
    fig = ns2.summary_plot(ns2_data.tables(study, algs=[*ns2.ALGS, USER]), study, ns2_data.NUMBERS)
    assert_shows_user(fig, ns2.ALGS)


def test_ns2_time_series_draws_a_user_algorithm():
    algs = [*ns2.ALGS, USER]
    fig = ns2.timeseries(ns2_data.tables(algs=algs), ns2_data.traces(algs=algs), "ns2_queue", 20, ns2_data.NUMBERS)
    assert_shows_user(fig, ns2.ALGS)


def test_ns2_figures_without_a_user_algorithm_draw_the_papers_only():
    fig = ns2.summary_plot(ns2_data.tables(), "ns2_queue", ns2_data.NUMBERS)
    assert figure_series.algorithms(fig) == set(ns2.ALGS)
    assert [t for t in legend_texts(fig) if not t.startswith("paper")][:3] == [style.label(a) for a in ns2.ALGS]


def test_qtcol_and_mm1_fixed_figures_take_a_user_algorithm():
    baselines = figures_qtcol.SINGLE_GROUPS[0]
    assert figures_qtcol.in_group(baselines, USER) and figures_qtcol.in_group(baselines, "cubic")
    assert not any(figures_qtcol.in_group(g, USER) for g in figures_qtcol.SINGLE_GROUPS[1:])
    assert not figures_qtcol.in_group(baselines, "qtcol")
    assert figures_qtcol_multiflow.throughput_panel((USER, None, None))
    assert not figures_qtcol_multiflow.throughput_panel(("qtcol", 1.3, None))
    tv = pd.DataFrame({"algorithm": ["cubic", USER, "reno"]})
    assert figures_mm1_checks.cwnd_algorithms(tv) == ["reno", "cubic", USER]
    # the caption keeps the paper's figures to the paper's algorithms and names the user's beside them
    assert figures_mm1_checks.cwnd_names(tv) == "Reno and Cubic"
    assert figures_mm1_checks.beside_names(tv) == f", and {USER} beside them (not in the paper)"


def provenance(tmp_path, file):
    prov = {"study": "tb_matrix", "n_runs": 1, "simulator_version": ["0.3.1"], "git_commit": ["abc"],
            "points": [{"point": "algorithm~mynewreno", "params": {}, "seeds": "1", "run_files": []}],
            "study_file": "config/studies/testbed/tb_matrix.yaml", "study_file_sha256": "0" * 64,
            "user_algorithms": [{"name": USER, "file": file, "class": "NewRenoInPython", "sha256": "ab" * 32}]}
    path = tmp_path / "tb_matrix.provenance.json"
    path.write_text(json.dumps(prov))
    return path


def test_provenance_page_lists_a_user_algorithm_with_a_relative_file(tmp_path):
    page = pp.generated({"commit": "`abc`"}, [], [provenance(tmp_path, "examples/custom_cc/newreno_in_python.py")])
    row = next(line for line in page.splitlines() if line.startswith(f"| {USER} |"))
    assert row == (f"| {USER} | `examples/custom_cc/newreno_in_python.py` | `NewRenoInPython` | `{'ab' * 6}` "
                   "| tb_matrix |")
    assert str(tmp_path) not in page


def test_provenance_page_never_shows_an_absolute_user_file(tmp_path):
    page = pp.generated({}, [], [provenance(tmp_path, "/home/someone/cc/mine.py")])
    assert "/home/someone" not in page and "`mine.py`" in page


def test_provenance_page_without_user_algorithms_has_no_such_table(tmp_path):
    path = provenance(tmp_path, "x.py")
    prov = json.loads(path.read_text())
    del prov["user_algorithms"]
    path.write_text(json.dumps(prov))
    assert "own algorithms" not in pp.generated({}, [], [path])


def test_algorithms_command_lists_a_studys_user_algorithm(capsys):
    assert cli.main(["algorithms", "examples/custom_cc/newreno_in_python.yaml"]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{USER}: examples/custom_cc/newreno_in_python.py:NewRenoInPython (sha256 ")
    assert "studies: newreno_in_python" in out
    assert cli.main(["algorithms", "config/test/studies/tb_matrix.yaml"]) == 0
    assert "no user algorithm" in capsys.readouterr().out


def test_scorecard_figure_places_any_algorithm():
    """The M/M/1 numbers figure shifts each algorithm by its book position; a name outside the book's list
    (a user's) goes after all instead of raising."""
    assert style.rank("published_reno") == style.rank("reno") == style.ALGORITHMS.index("reno")
    assert style.rank(USER) == len(style.ALGORITHMS)
    numbers = pd.DataFrame({"variant": "standard", "verdict": "inside", "algorithm": ["reno", USER],
                            "table": ["V", "V"], "paper_value": 1.0, "run_p025": 0.9, "run_p975": 1.1,
                            "ours_mean": 1.0})
    fig = mm1_scorecard_section.numbers_figure(numbers)
    assert USER in [line.get_label() for ax in fig.axes for line in ax.lines]
