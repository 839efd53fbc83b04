"""The generated page of a study no chapter reads (simulator/report/study_page.py), on study files and
long tables built here: parameters, the table of every metric per grid point, figures whose series
each come from one combination of the other swept keys, grouped bars when no swept key is numeric."""
import math

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from simulator.report import chapter, style  # noqa: E402
from simulator.report import study_page as sp  # noqa: E402

SWEEP = """study: my_sweep
paper: mm1
title: "My sweep"
model: mm1
grid:
  variant: [standard]
  algorithm: [reno, cubic]
  lambda: [5, 10]
  K: [1, 5]
fixed: {mu: 10, theta: 1, N: 100}
"""
# no numeric swept key: a grid per variant, so the points differ by variant and algorithm only
CATEGORIES = """study: my_bars
paper: mine
title: "Variants side by side"
model: mm1
grids:
  - {variant: [as_published], algorithm: [none, published_reno]}
  - {variant: [standard], algorithm: [none, reno]}
fixed: {mu: 10, theta: 1, N: 100, lambda: 5, K: 5}
"""
METRICS = ["throughput", "avg_delay", "sent", "mean_rtt"]   # in the model's declared order


def long_table(study):
    """A long table as the aggregate rule writes it: a value per point and metric that tells the point
    apart (so a figure's series can be checked), mean_rtt undefined everywhere, `sent` equal over seeds."""
    rows = []
    for i, p in enumerate(study.points()):
        for metric in METRICS:
            mean = {"throughput": 1.0 + i, "avg_delay": 0.1 * (i + 1), "mean_rtt": np.nan, "sent": 100.0}[metric]
            half = 0.0 if metric == "sent" else 0.5 * mean
            rows.append({"study": study.name, "paper": study.paper, "point": p.path, "model": "mm1", **p.params,
                         "metric": metric, "mean": mean, "sd": half, "n": 3, "ci_low": mean - half,
                         "ci_high": mean + half})
    return pd.DataFrame(rows).drop(columns=["trace"])


@pytest.fixture
def page(tmp_path):
    return make_page(tmp_path, SWEEP)


def make_page(tmp_path, text):
    from simulator.study import load_study

    f = tmp_path / f"{text.split()[1]}.yaml"
    f.write_text(text)
    table = tmp_path / "table.csv"
    long_table(load_study(f)).to_csv(table, index=False)
    return sp.load(f, table)


def test_swept_and_numeric_keys(page):
    assert page.swept == ["algorithm", "lambda", "K"]      # variant takes one value: not swept
    assert page.numeric == ["lambda", "K"]
    assert page.metrics == METRICS                          # in the model's declared order
    assert page.seeds() == "3"


def test_parameters_give_values_where_set_unit_and_meaning(page):
    p = sp.parameters(page).set_index("parameter")
    assert list(p.index) == ["variant", "algorithm", "lambda", "K", "mu", "theta", "N"]
    assert p.loc["lambda", "values"] == "5, 10" and p.loc["lambda", "set in"] == "grid (swept)"
    assert p.loc["variant", "set in"] == "grid" and p.loc["mu", "set in"] == "fixed"
    assert p.loc["lambda", "unit"] == "packets/s" and p.loc["theta", "unit"] == "s"
    assert p.loc["lambda", "meaning"] == "arrival rate"


def test_parameters_of_several_grids_say_which_grid_sets_what(tmp_path):
    p = sp.parameters(make_page(tmp_path, CATEGORIES)).set_index("parameter")
    assert p.loc["variant", "values"] == "grid 1: as_published; grid 2: standard"
    assert p.loc["algorithm", "values"] == "grid 1: none, published_reno; grid 2: none, reno"


def test_metrics_table_has_a_row_per_point_and_a_column_per_metric_with_its_unit(page):
    t = sp.metrics_table(page)
    assert len(t) == len(page.study.points()) == 8
    assert list(t.columns) == ["grid point", "seeds", "throughput (packets/s)", "avg delay (s)", "sent (packets)",
                               "mean rtt (s)"]
    first = t.iloc[0]
    assert first["grid point"] == "Reno, lambda=5, K=1"
    assert first["throughput (packets/s)"] == "1 [0.5, 1.5]"
    assert first["mean rtt (s)"] == "–"            # undefined at every point
    assert first["sent (packets)"] == "100 (deterministic)"   # every seed equal: no "[100, 100]"
    assert first["seeds"] == "3"
    numbers = sp.numbers_download(page)
    assert len(numbers) == 8 * len(METRICS) and {"mean", "ci_low", "ci_high", "n", "lambda", "K"} <= set(numbers)


@pytest.mark.parametrize("x, other", [("lambda", "K"), ("K", "lambda")])
def test_each_series_is_one_algorithm_at_one_value_of_the_other_keys(page, x, other):
    rows = sp.series_rows(page, x)
    # four series: 2 algorithms x 2 values of the other swept key, each with both x values once per metric
    assert rows["series"].nunique() == 4
    for (series, metric), g in rows.groupby(["series", "metric"]):
        assert sorted(g["x"]) == sorted({5.0, 10.0} if x == "lambda" else {1.0, 5.0}), series
        assert g[other].nunique() == 1 and g["algorithm"].nunique() == 1, series
    for alg, g in rows.groupby("algorithm"):
        assert set(g["color"]) == {style.PALETTE[alg]}
    assert rows.groupby(other)["linestyle"].nunique().eq(1).all()     # a line style per value of the other key


def test_sweep_figure_draws_every_metric_with_a_value_against_x(page):
    fig = sp.sweep_figure(page, "lambda")
    axes = fig.axes
    assert len(axes) == 3                       # mean_rtt has no value anywhere: no panel
    rows = sp.series_rows(page, "lambda")
    for ax, metric in zip(axes, ["throughput", "avg_delay", "sent"]):
        assert ax.get_xlabel() == "lambda (packets/s)"
        assert metric.replace("_", " ") in ax.get_ylabel()
        lines = ax.get_lines()
        assert len(lines) == 4
        for line in lines:
            want = rows[(rows["series"] == line.get_label()) & (rows["metric"] == metric)].sort_values("x")
            assert list(line.get_xdata()) == list(want["x"])
            assert list(line.get_ydata()) == list(want["mean"])
    assert axes[0].collections                  # CI bands
    assert "(packets/s)" in axes[0].get_ylabel()
    legend = [t.get_text() for t in fig.legends[0].get_texts()]
    assert legend == ["Reno, K=1", "Reno, K=5", "Cubic, K=1", "Cubic, K=5"]


def test_a_wide_positive_range_is_drawn_on_a_log_scale():
    assert sp.log_x(pd.DataFrame({"x": [0.003, 0.1, 10.0]}))
    assert not sp.log_x(pd.DataFrame({"x": [5.0, 10.0, 15.0]})) and not sp.log_x(pd.DataFrame({"x": [0.0, 100.0]}))


def test_bars_when_no_swept_key_is_a_number(tmp_path):
    page = make_page(tmp_path, CATEGORIES)
    assert page.swept == ["variant", "algorithm"] and page.numeric == []
    rows = sp.bar_rows(page)
    assert list(dict.fromkeys(rows["group"])) == ["variant=as_published", "variant=standard"]
    fig = sp.bars_figure(page)
    ax = fig.axes[0]
    assert ax.get_xlabel() == "throughput (packets/s)"
    bars = [p for p in ax.patches]
    # a bar per (group, algorithm) that ran: none in both variants, each Reno in its own
    heights = sorted(round(b.get_width(), 6) for b in bars if not math.isnan(b.get_width()))
    assert heights == sorted(rows[rows["metric"] == "throughput"]["mean"].round(6))


def test_labels_and_numbers():
    assert sp.number(500.0) == "500" and sp.number(12345.6) == "12,346" and sp.number(0.123456) == "0.1235"
    assert sp.number(float("nan")) == "–"
    assert sp.mean_ci(2.0, 1.0, 3.0) == "2 [1, 3]" and sp.mean_ci(2.0, np.nan, np.nan) == "2"
    assert sp.suffix_unit("goodput_mbps") == "Mbit/s" and sp.suffix_unit("p95_rtt_ms") == "ms"
    assert sp.suffix_unit("jain") == ""
    assert sp.safe("a b/c") == "a_b_c"


def test_metric_label_unit_from_declaration_then_suffix_else_name(page):
    assert sp.metric_label(page, "throughput") == "throughput (packets/s)"     # mm1_queue.outputs.yaml units
    assert sp.metric_label(page, "latency_mean_s") == "latency mean (s)"
    assert sp.metric_label(page, "blocking_prob") == "blocking prob"


def test_page_writes_its_tables_figures_and_downloads(page, tmp_path, monkeypatch):
    import IPython.display

    shown = []
    monkeypatch.setattr(IPython.display, "display", lambda obj: shown.append(getattr(obj, "data", "")))
    ch = chapter.Chapter(tmp_path / "fig", tmp_path / "dl", "_static/downloads/study_my_sweep")
    sp.show_intro(ch, page)
    sp.show_parameters(ch, page)
    sp.show_metrics(ch, page)
    sp.show_figures(ch, page)
    shown = "\n".join(map(str, shown))
    for name in ("my_sweep_parameters.csv", "my_sweep_metrics.csv", "my_sweep_numbers.csv",
                 "my_sweep_vs_lambda.csv", "my_sweep_vs_K.csv"):
        assert (tmp_path / "dl" / name).exists(), name
    for name in ("my_sweep_vs_lambda", "my_sweep_vs_K"):
        assert (tmp_path / "fig" / f"{name}.png").exists() and (tmp_path / "fig" / f"{name}.svg").exists()
    data = pd.read_csv(tmp_path / "dl" / "my_sweep_vs_lambda.csv")
    assert {"lambda", "algorithm", "metric", "mean", "ci_low", "ci_high", "n"} <= set(data.columns)
    assert shown.count("Figure:") == 2 and "against lambda (arrival rate)" in shown
    assert shown.count("my_sweep.yaml") >= 4          # intro, parameters, metrics table, every figure caption
    assert 'class="table-scroll"' in shown and "_static/downloads/study_my_sweep/my_sweep_metrics.csv" in shown


def test_parameters_show_the_stack_in_force_when_the_study_leaves_it_to_the_model(tmp_path):
    text = """study: my_net
paper: mine
title: "A dumbbell"
model: dumbbell
grid: {algorithm: [reno]}
fixed: {duration: 2, warmup: 0}
"""
    from simulator import registry
    from simulator.study import load_study

    f = tmp_path / "my_net.yaml"
    f.write_text(text)
    page = sp.Page(load_study(f), pd.DataFrame(), registry.model("dumbbell"), {})
    p = sp.parameters(page).set_index("parameter")
    assert p.loc["stack", "values"] == "ns3" and p.loc["stack", "set in"] == "model default"
    page.study.fixed["stack"] = "linux"
    p = sp.parameters(page).set_index("parameter")
    assert p.loc["stack", "values"] == "linux" and p.loc["stack", "set in"] == "fixed"


def test_bars_of_runs_equal_over_seeds_draw_even_when_the_ci_rounds_past_the_mean(tmp_path):
    """Seeds that all give one value: the aggregate's CI ends can sit 1e-15 inside the mean (float rounding);
    the error bars are then 0, not an error (a new paper's deterministic example study hit it)."""
    page = make_page(tmp_path, CATEGORIES)
    page.table["ci_low"] = page.table["mean"] + 1e-12
    page.table["ci_high"] = page.table["mean"] - 1e-12
    fig = sp.bars_figure(page)
    assert fig.axes[0].patches
