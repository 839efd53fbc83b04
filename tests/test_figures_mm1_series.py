"""Every M/M/1 figure (simulator/report/figures_mm1*.py) is complete and unmixed: on tables and traces with
every grid point of the real study files (config/studies/mm1/mm1_*.yaml) and on the tiny profile's real run
(fixture built_report), each figure draws every point of its study (so every algorithm and variant), no
series combines two grid points (figure_series.problems), and its caption names exactly what is drawn.
Deliberately mixed or incomplete inputs prove the check fails."""
import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

import study_tables as st  # noqa: E402
from simulator.report import figure_series, style  # noqa: E402
from simulator.report.papers.mm1 import figures as m1  # noqa: E402
from simulator.report.papers.mm1 import checks as checks
from simulator.report.papers.mm1 import scorecard as sc

REFERENCE = sc.load_reference(st.ROOT / "reference" / "mm1" / "jackson_mm1_tables.csv")
CURVES = {"lambda": "mm1_lambda_curve", "K": "mm1_K_curve", "N": "mm1_N_curve"}
TINY = st.ROOT / "config" / "test" / "studies"


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def points(study, folder=st.STUDIES, **where) -> set:
    """The grid points of the study file whose values match `where` (e.g. variant='standard')."""
    s = st.study(study, folder)
    return {p.path for p in s.points() if all(str({**s.fixed, **p.values}.get(k)) == str(v) for k, v in where.items())}


def drawn(fig) -> set:
    return {p for s in figure_series.series(fig) for _, p in figure_series.points(s)}


def check(fig, study, folder=st.STUDIES, **where) -> list[str]:
    """What is wrong with `fig`: series that combine grid points, and grid points (algorithm, variant,
    swept value) of the study that it does not draw."""
    missing = points(study, folder, **where) - drawn(fig)
    return figure_series.problems(fig) + [f"missing grid point {p}" for p in sorted(missing)]


def curve_tables(study, folder=st.STUDIES):
    return st.tables(study, list(style.METRICS), folder)


def cwnd_traces(folder=st.STUDIES):
    return st.traces("mm1_cwnd", lambda params: ["cwnd"], folder)


def analytic_tables(folder=st.STUDIES):
    return st.tables(sc.ANALYTIC_STUDY, list(sc.ABS_TOL), folder)


def cwnd_figures(traces):
    """{name: (figure, the `where` of the points it must draw)} of both variants, as show_cwnd draws them."""
    out, n = {}, checks.overlay_n(traces)
    for v in style.VARIANTS:
        tv = traces[traces["variant"] == v]
        out[f"cwnd_{v}"] = (checks.cwnd_grid(tv, v), dict(variant=v))
        one = tv[(tv["N"] == n) & (tv["seed"] == traces["seed"].min())]
        out[f"cwnd_fig1_2_{v}"] = (checks.cwnd_overlay(one, n), dict(variant=v, N=n))
    return out


class Captions:
    """A chapter that keeps only the captions shown."""

    def __init__(self):
        self.captions = []

    def figure(self, fig, name):
        plt.close(fig)

    def caption(self, text):
        self.captions.append(text)

    def markdown(self, text):
        pass

    def save_download(self, frame, name, index=False):
        pass

    @staticmethod
    def download_link(name, label="Download as CSV"):
        return f"[{label}]({name})"


# ------------------------------------------------------------------ every grid point of the real studies
@pytest.mark.parametrize("sweep", list(CURVES))
def test_curve_figure_draws_every_point_of_its_study_and_never_combines_two(sweep):
    study = CURVES[sweep]
    fig = m1.curve_figure(curve_tables(study), REFERENCE, sweep)
    assert check(fig, study) == []
    assert figure_series.algorithms(fig) == st.algorithms(study)
    panels = {s["panel"] for s in figure_series.series(fig)}
    assert panels == {f"{v} | {m}" for v in style.VARIANTS for m in style.METRICS}


def test_cwnd_figures_draw_every_traced_point_and_never_combine_two():
    traces = cwnd_traces()
    for name, (fig, where) in cwnd_figures(traces).items():
        assert check(fig, "mm1_cwnd", **where) == [], name
    grid = cwnd_figures(traces)["cwnd_standard"][0]
    assert figure_series.algorithms(grid) == {"tahoe", "reno", "cubic"}
    assert [ax.get_title().split("(")[-1] for ax in grid.axes] == ["Fig. 6a)", "Fig. 6b)", "Fig. 7a)", "Fig. 7b)",
                                                                   "Fig. 8a)", "Fig. 8b)"]


def test_closed_form_figure_draws_every_point_of_the_analytic_study_and_never_combines_two():
    fig = checks.closed_form_figure(sc.analytic_comparison(analytic_tables()))
    assert check(fig, sc.ANALYTIC_STUDY) == []
    assert figure_series.algorithms(fig) == set()          # the comparison is of `none` only: no colours


def test_captions_name_the_algorithms_drawn():
    ch = Captions()
    checks.show_cwnd(ch, cwnd_traces(), "standard")
    assert "Figures 6-8 (Tahoe, Reno and Cubic)" in ch.captions[0]
    checks.show_cwnd(ch, cwnd_traces(), "as_published")
    assert ("Figures 6-8 (Tahoe, Reno and Cubic: our model of the paper's code of each, published_tahoe, "
            "published_reno, published_cubic)") in ch.captions[2]
    assert ch.captions[1].startswith("Figure: Tahoe (red) and Reno (blue) as in the paper's Figure 1, and Cubic "
                                     "(green) as in the paper's Figure 2;")
    m1.show_curve(ch, curve_tables("mm1_lambda_curve"), REFERENCE, "mm1_lambda_curve", "lambda", "mm1_lambda")
    assert ("variant `as_published` (our model of the paper's code of each algorithm, in the algorithm's colour): "
            "none, Tahoe, Reno and Cubic (`published_tahoe`, `published_reno`, `published_cubic`); variant "
            "`standard`: none, Tahoe, Reno, NewReno and Cubic.") in ch.captions[-1]


# ------------------------------------------------------------------ the check fails on mixed or missing series
def test_a_curve_mixing_two_buffers_or_missing_an_algorithm_is_caught():
    t = curve_tables("mm1_lambda_curve")
    other = t.assign(K=10, point=t["point"].str.replace("lambda~", "K~10/lambda~", regex=False))
    mixed = pd.concat([t, other[other["lambda"] >= 10]])         # K=5 below lambda 10, K=10 above: one line
    problems = check(m1.curve_figure(mixed, REFERENCE, "lambda"), "mm1_lambda_curve")
    assert problems and all("combines grid points beyond lambda" in p for p in problems)
    assert len(problems) == len(style.METRICS) * (4 + 5)         # every series of every panel
    without_reno = t[t["algorithm"] != "reno"]
    problems = check(m1.curve_figure(without_reno, REFERENCE, "lambda"), "mm1_lambda_curve")
    assert problems and all(p.startswith("missing grid point variant~standard/algorithm~reno/") for p in problems)


def test_a_cwnd_series_joining_two_flows_or_missing_tahoe_is_caught():
    traces = cwnd_traces()
    joined = traces.assign(N=300)                                # N=50 and N=300 runs drawn as one N
    fig, where = cwnd_figures(joined)["cwnd_standard"]
    problems = check(fig, "mm1_cwnd", **where)
    assert problems and all("combines 2 grid points" in p for p in problems)
    fig, where = cwnd_figures(traces[traces["algorithm"] != "tahoe"])["cwnd_fig1_2_standard"]
    assert check(fig, "mm1_cwnd", **where) == ["missing grid point variant~standard/algorithm~tahoe/N~300"]


def test_a_closed_form_series_joining_two_arrival_rates_is_caught():
    t = analytic_tables()
    fig = checks.closed_form_figure(sc.analytic_comparison(t.assign(**{"lambda": 5.0})))
    problems = check(fig, sc.ANALYTIC_STUDY)
    assert problems and all("combines grid points beyond K" in p for p in problems)


# ------------------------------------------------------------------ the tiny profile's real run
def test_tiny_runs_mm1_figures_are_complete_unmixed_and_captioned_as_drawn(built_report):
    results = built_report / "results"
    tables = pd.concat([pd.read_csv(p) for p in sorted((results / "tables").glob("mm1_*.csv"))], ignore_index=True)
    traces = pd.read_csv(results / "traces" / "mm1_cwnd.csv")
    for sweep, study in CURVES.items():
        fig = m1.curve_figure(tables[tables["study"] == study], REFERENCE, sweep)
        assert check(fig, study, TINY) == [] and figure_series.algorithms(fig) == st.algorithms(study, TINY)
    for name, (fig, where) in cwnd_figures(traces).items():
        assert check(fig, "mm1_cwnd", TINY, **where) == [], name
    fig = checks.closed_form_figure(sc.analytic_comparison(tables))
    assert check(fig, sc.ANALYTIC_STUDY, TINY) == []
    ch = Captions()
    checks.show_cwnd(ch, traces, "standard")
    assert "Tahoe" not in " ".join(ch.captions)                  # the tiny study does not trace Tahoe
    assert "Figures 6-8 (Reno and Cubic)" in ch.captions[0]
    page = (results / "book" / "_build" / "html" / "mm1.html").read_text()
    assert "Figures 6-8 (Reno and Cubic)" in page and "Tahoe (red)" not in page
