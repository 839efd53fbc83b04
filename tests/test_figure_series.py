"""What each plotted series was drawn from (simulator/report/figure_series.py): the check that no series
combines grid points, the algorithms drawn, and the data behind a figure."""
import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
import pandas as pd  # noqa: E402

from simulator.report import figure_series as fs  # noqa: E402


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def rows(*points, study="s"):
    return pd.DataFrame({"study": study, "point": list(points),
                         "algorithm": [dict(p.split("~") for p in pt.split("/"))["algorithm"] for pt in points]})


def test_a_time_series_is_one_grid_point():
    fig, ax = plt.subplots()
    fs.record(ax, "Reno", rows("algorithm~reno/q~fq", "algorithm~reno/q~fq"), [0, 1], [2, 3])
    assert fs.problems(fig) == [] and fs.algorithms(fig) == {"reno"}
    fs.record(ax, "Reno", rows("algorithm~reno/q~fq", "algorithm~reno/q~droptail"), [0, 1], [2, 3])
    assert fs.problems(fig) == ["'Reno' (): combines 2 grid points ['algorithm~reno/q~droptail', 'algorithm~reno/q~fq']"]


def test_a_sweep_differs_only_along_its_parameter_and_once_per_value():
    fig, ax = plt.subplots()
    fs.record(ax, "ok", rows("algorithm~reno/q~fq/n~2", "algorithm~reno/q~droptail/n~2"), ["fq", "droptail"], [1, 2],
              along="q")
    assert fs.problems(fig) == []
    fs.record(ax, "mixed", rows("algorithm~reno/q~fq/n~2", "algorithm~reno/q~droptail/n~3"), ["fq", "droptail"],
              [1, 2], along="q")
    fs.record(ax, "twice", [rows("algorithm~reno/q~fq/n~2"), rows("algorithm~reno/q~fq/n~2", "algorithm~reno/q~fq/n~3")],
              ["fq", "droptail"], [1, 2], along="q")
    fs.record(ax, "none", pd.DataFrame({"point": []}), [], [])
    problems = fs.problems(fig)
    assert len(problems) == 3 and "beyond q" in problems[0] and "at ['droptail']" in problems[1]
    assert "drawn from no grid point" in problems[2]
    mix = plt.figure()
    fs.record(mix.add_subplot(), "two studies", pd.concat([rows("algorithm~reno", study="a"),
                                                           rows("algorithm~reno", study="b")]), 0, 1)
    assert "combines studies" in fs.problems(mix)[0]


def test_frame_is_the_data_behind_the_figure_with_the_papers_values():
    fig, ax = plt.subplots()
    ax.set_ylabel("cwnd (packets)")
    fs.record(ax, "Reno", rows("algorithm~reno/q~fq", "algorithm~reno/q~droptail"), ["fq", "droptail"],
              [1.0, 2.0], [0.5, 1.5], [1.5, 2.5], along="q")
    fs.record_paper(ax, "paper: Reno", 3, 4, "Figure 4: between 3 and 4", x="fq")
    d = fs.frame(fig)
    assert d[["panel", "series", "point", "x", "mean", "ci_low"]].iloc[1].tolist() == [
        "cwnd (packets)", "Reno", "algorithm~reno/q~droptail", "droptail", 2.0, 1.5]
    assert d.iloc[2][["series", "x", "paper_low", "paper_high"]].tolist() == ["paper: Reno", "fq", 3, 4]


def test_wide_frame_puts_panels_side_by_side():
    fig, (a, b) = plt.subplots(1, 2)
    r = rows("algorithm~reno", "algorithm~reno")
    fs.record(a, "Reno", r, [0.0, 0.5], [1.0, 2.0], panel="cwnd")
    fs.record(b, "Reno", r, [0.0, 0.5], [0.3, 0.1 + 0.2], panel="throughput")
    d = fs.frame(fig, wide=True)
    assert list(d.columns) == ["series", "study", "point", "x", "cwnd", "throughput"]
    assert d["throughput"].tolist() == [0.3, 0.3]          # 0.30000000000000004 written as 0.3
