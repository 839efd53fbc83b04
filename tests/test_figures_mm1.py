"""The M/M/1 chapter's tables and figures (simulator/report/figures_mm1*.py) on small synthetic frames:
Tables V-XIII carry the scorecard's verdict per published number, each algorithm is drawn once per
panel, and the replay audit tells exact, last-digit and differing numbers apart."""
import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from simulator.report import chapter, html_view, mm1k  # noqa: E402
from simulator.report.papers.mm1 import figures as m1
from simulator.report.papers.mm1 import checks as checks
from simulator.report import paper_marks as pm, style  # noqa: E402
from simulator.report.papers.mm1 import scorecard as sc
from simulator.scenarios.mm1_queue import run_name  # noqa: E402

REFERENCE_CSV = """table,metric,unit,sweep,x,algorithm,value,fixed
V,throughput,packets_per_s,lambda,5,none,4.793,mu=10;K=5;theta=1;N=500
V,throughput,packets_per_s,lambda,5,tahoe,4.80,mu=10;K=5;theta=1;N=500
V,throughput,packets_per_s,lambda,10,none,8.467,mu=10;K=5;theta=1;N=500
V,throughput,packets_per_s,lambda,10,tahoe,8.1,mu=10;K=5;theta=1;N=500
"""


class FakeChapter:
    """Collects what a show_* function would show and save."""

    downloads_url = "_static/downloads/mm1"

    def __init__(self):
        self.shown, self.figures, self.downloads = [], [], {}

    def markdown(self, text):
        self.shown.append(text)

    caption = markdown

    def figure(self, fig, name):
        self.figures.append((name, fig))

    def save_download(self, frame, name, index=False):
        self.downloads[name] = frame

    def download_link(self, name, label="Download as CSV"):
        return f"[{label}]({name})"

    def table(self, frame, name, note="", index=False, float_format=None):
        """As Chapter.table: the frame shown (kept in self.tables) and saved, the note under it."""
        self.tables = {**getattr(self, "tables", {}), name: frame}
        self.downloads[name] = frame
        self.shown.append(note)


@pytest.fixture
def shown_html(monkeypatch):
    out = []
    monkeypatch.setattr(chapter, "html", out.append)
    return out


@pytest.fixture
def reference(tmp_path):
    path = tmp_path / "ref.csv"
    path.write_text(REFERENCE_CSV)
    return sc.load_reference(path)


def table_row(study, variant, algorithm, metric, mean, lam=5.0, K=5, N=500, theta=1.0, n=10, half=0.1):
    return {"study": study, "paper": "mm1", "variant": variant, "algorithm": algorithm, "lambda": lam, "mu": 10.0,
            "K": K, "theta": theta, "N": N, "metric": metric, "mean": mean, "ci_low": mean - half,
            "ci_high": mean + half, "run_p025": mean - 2 * half, "run_p975": mean + 2 * half, "n": n}


def lambda_tables():
    """Both variants of mm1_lambda, except Tahoe at lambda=10 in `standard` (not run); our means sit on
    the paper's numbers except none at lambda=10, which is far off. as_published ran the paper's Tahoe
    as published_tahoe."""
    rows = []
    for variant in style.VARIANTS:
        for alg, lam, mean in (("none", 5, 4.793), ("tahoe", 5, 4.8), ("none", 10, 9.5), ("tahoe", 10, 8.1)):
            if not (variant == "standard" and alg == "tahoe" and lam == 10):
                rows.append(table_row("mm1_lambda", variant, run_name(variant, alg), "throughput", mean, lam=lam))
    return pd.DataFrame(rows)


def test_published_tables_carry_the_scorecards_verdicts(reference):
    long = m1.published_tables(lambda_tables(), reference)["V"]
    assert len(long) == len(reference) * len(style.VARIANTS)
    assert list(long.columns[:6]) == ["table", "metric", "lambda", "algorithm", "variant", "paper_value"]
    verdicts = {v: {r["item"]: r["verdict"] for r in sc.number_rows(lambda_tables(), reference, v)}
                for v in style.VARIANTS}
    inside = long.set_index(["variant", "algorithm", "lambda"])["inside_run_range"]
    assert inside[("as_published", "none", 10)] is False and verdicts["as_published"]["Table V lambda=10 none"] == "outside"
    assert inside[("as_published", "tahoe", 5)] is True
    assert inside[("standard", "tahoe", 10)] is None
    assert np.isnan(long.set_index(["variant", "algorithm", "lambda"]).loc[("standard", "tahoe", 10), "mean"])


def test_table_html_has_each_algorithm_once_and_marks_each_cell(reference):
    long = m1.published_tables(lambda_tables(), reference)["V"]
    html = m1.table_html(long, reference, "LINK")
    for alg in ("none", "tahoe"):
        assert html.count(f">{style.LABELS[alg]}</th>") == 1
    assert html.count("✓") == 5 and html.count("✗") == 2 and html.count("not run") == 1
    assert "Table V: Throughput (packets/s) vs λ</b> (μ=10, K=5, θ=1, N=500)" in html and "λ = 10</th>" in html
    assert "config/studies/mm1/mm1_lambda.yaml" in html and "LINK" in html


def test_show_published_tables_writes_each_table_and_counts_inside(reference, shown_html):
    ch = FakeChapter()
    m1.show_published_tables(ch, lambda_tables(), reference)
    assert set(ch.downloads) == {"table_V.csv", "tables_V-XIII.csv"}
    assert len(shown_html) == 1
    assert ch.shown[-1].startswith("Published numbers inside our per-run range: **as_published** 3 of 4; "
                                   "**standard** 2 of 3 run (1 not run)")


def curve_tables(study="mm1_lambda_curve"):
    return pd.DataFrame([table_row(study, v, run_name(v, a), m, 1.0 + x, lam=float(x))
                         for v in style.VARIANTS for a in ("none", "reno") for m in style.METRICS for x in (5, 7, 9)])


def test_curve_figure_draws_each_algorithm_once_per_panel(reference):
    fig = m1.curve_figure(curve_tables(), reference, "lambda")
    assert len(fig.axes) == len(style.VARIANTS) * len(style.METRICS)
    for ax, variant in zip(fig.axes, [v for v in style.VARIANTS for _ in style.METRICS]):
        reno = "Reno (model of the paper's code)" if variant == "as_published" else "Reno"
        ours = [ln.get_label() for ln in ax.get_lines() if not ln.get_label().startswith(("_", "paper"))]
        assert ours == ["none", reno]
        paper = [ln for ln in ax.get_lines() if pm.is_paper(ln)]     # the book's paper marks: grey, hollow
        assert all(ln.get_color() == pm.GREY and ln.get_markerfacecolor() == "none" for ln in paper)
    # one legend entry per colour, then one per algorithm the paper gives numbers for, by marker shape
    assert [t.get_text() for t in fig.legends[0].get_texts()] == ["none", "Reno", "paper: none"]   # (no Reno numbers in REFERENCE_CSV)
    # the paper's numbers: none has throughput at two lambdas, drawn in the throughput panels
    none = [ln for ln in fig.axes[0].get_lines() if ln.get_label() == "paper: none"]
    assert sum(len(ln.get_xdata()) for ln in none) == 2 and none[0].get_marker() == pm.marker("none")
    assert m1.fixed_params(curve_tables(), "lambda") == "mu=10, K=5, theta=1, N=500"


def test_show_curve_skips_a_study_the_profile_did_not_run(reference):
    ch = FakeChapter()
    m1.show_curve(ch, curve_tables(), reference, "mm1_K_curve", "K", table_study="mm1_K")
    assert ch.figures == [] and "not enabled" in ch.shown[0]
    m1.show_curve(ch, curve_tables(), reference, "mm1_lambda_curve", "lambda", table_study="mm1_lambda")
    assert ch.figures[0][0] == "curve_lambda" and "Tables V-VII" in ch.shown[-1]


def traces(Ns=(50, 300)):
    return pd.DataFrame([{"study": "mm1_cwnd", "variant": v, "algorithm": run_name(v, a), "N": n, "seed": s, "t": t,
                          "cwnd": c} for v in style.VARIANTS for a in checks.CWND_ALGS for n in Ns
                         for s in (1, 2) for t, c in ((0.0, 1.0), (1.0, 4.0), (2.0, 2.0))])


def test_cwnd_grid_is_algorithms_by_N_with_the_first_seed_labelled():
    fig = checks.cwnd_grid(traces()[lambda d: d["variant"] == "standard"], "standard")
    assert len(fig.axes) == 3 * 2
    for ax, alg in zip(fig.axes[::2], checks.CWND_ALGS):
        assert [ln.get_label() for ln in ax.get_lines() if not ln.get_label().startswith("_")] == \
            [f"{style.LABELS[alg]} seed 1"]
        assert len(ax.get_lines()) == 2  # both seeds drawn


def test_cwnd_overlay_puts_tahoe_and_reno_together_and_cubic_alone():
    one = traces()[lambda d: (d["N"] == 300) & (d["seed"] == 1) & (d["variant"] == "standard")]
    fig = checks.cwnd_overlay(one, 300)
    assert [[ln.get_label() for ln in ax.get_lines()] for ax in fig.axes] == [["Tahoe", "Reno"], ["Cubic"]]
    pub = traces()[lambda d: (d["N"] == 300) & (d["seed"] == 1) & (d["variant"] == "as_published")]
    fig = checks.cwnd_overlay(pub, 300)
    assert [[ln.get_label() for ln in ax.get_lines()] for ax in fig.axes] == \
        [["Tahoe (model of the paper's code)", "Reno (model of the paper's code)"], ["Cubic (model of the paper's code)"]]
    fig = checks.cwnd_grid(traces()[lambda d: d["variant"] == "as_published"], "as_published")
    assert len(fig.axes) == 3 * 2 and fig.axes[2].get_title().startswith("Reno (model of the paper's code), N = 50")


def test_overlay_n_prefers_the_papers_300():
    assert checks.overlay_n(traces()) == 300
    assert checks.overlay_n(traces(Ns=(50, 1000))) == 1000
    assert checks.overlay_n(None) == 0


def test_show_cwnd_without_traces_says_so():
    ch = FakeChapter()
    checks.show_cwnd(ch, None, "standard")
    assert ch.figures == [] and "No cwnd traces" in ch.shown[0]
    checks.show_cwnd(ch, traces(), "standard")
    assert [n for n, _ in ch.figures] == ["cwnd_standard", "cwnd_fig1_2_standard"]


def analytic_tables(off=0.0):
    rows = []
    for v in style.VARIANTS:
        for lam in (5.0, 9.0):
            for K in (1, 5):
                for metric, value in mm1k.closed_forms(lam, 10.0, K).items():
                    rows.append(table_row(sc.ANALYTIC_STUDY, v, "none", metric, value + off, lam=lam, K=K,
                                          theta=np.inf, half=1e-3))
    return pd.DataFrame(rows)


def test_closed_form_table_and_figure():
    cmp = sc.analytic_comparison(analytic_tables())
    wide = checks.closed_form_table(cmp)
    assert len(wide) == 2 * 2 * 2
    assert [c.split(":")[0] for c in wide.columns] == list(checks.CLOSED_FORM_COLUMNS.values())
    assert all(cell.endswith("✓") for cell in wide.to_numpy().ravel())
    fig = checks.closed_form_figure(cmp)
    for ax in fig.axes:
        labels = [ln.get_label() for ln in ax.get_lines() if ln.get_label().startswith("closed")]
        assert labels == ["closed form λ=5", "closed form λ=9"]
        assert len(ax.containers) == 2 * len(style.VARIANTS)  # our error bars, per lambda and variant


def test_show_closed_forms_counts_agreeing_cells(shown_html):
    ch = FakeChapter()
    checks.show_closed_forms(ch, analytic_tables(off=5.0))
    assert ch.shown[0].startswith("0 of 24 cells agree")
    assert list(ch.downloads) == ["mm1k_closed_forms.csv"] and ch.figures[0][0] == "mm1k_closed_forms"
    ch = FakeChapter()
    checks.show_closed_forms(ch, lambda_tables())
    assert "not enabled" in ch.shown[0] and not ch.downloads


def test_replay_audit_tells_exact_last_digit_and_differing_apart(reference, shown_html):
    means = {("none", 5): 4.79304, ("tahoe", 5): 4.81, ("none", 10): 8.5, ("tahoe", 10): 8.1}
    replay = pd.DataFrame([table_row("mm1_replay_lambda", "as_published", run_name("as_published", a), "throughput", m,
                                     lam=float(x)) for (a, x), m in means.items()])
    audit = checks.replay_audit(replay, reference)
    assert audit["match"].tolist() == ["exact", "last digit", "differs", "exact"]
    assert audit["algorithm"].tolist() == ["none", "published_tahoe", "none", "published_tahoe"]
    assert audit["replay"].tolist() == ["4.793", "4.81", "8.500", "8.1"]
    assert audit["sweep"].tolist() == ["lambda=5", "lambda=5", "lambda=10", "lambda=10"]
    ch = FakeChapter()
    checks.show_replay_audit(ch, replay, reference)
    counts = ch.tables["replay_counts.csv"]
    assert counts.to_dict("records") == [
        {"algorithm": "none", "exact": 1, "last digit": 0, "differs": 1, "total": 2},
        {"algorithm": "Tahoe", "exact": 1, "last digit": 1, "differs": 0, "total": 2}]   # the paper's row names
    assert all(str(t) == "int64" for t in counts.dtypes[1:])           # integers, never 3.0
    assert len(ch.shown) == 2                                         # the counts' note, the differing cells'
    statement = checks.replay_statement(checks.replay_audit(replay, reference))   # shown at the chapter's top
    assert statement.startswith("**What the `as_published` model replays.**")
    assert "**2 of the 4 published cells exactly as the paper does** and 1 more within one unit" in statement
    assert "no cell of Tahoe differs; 1 of the 2 none cells differ." in statement
    assert "we have not found" in statement                            # a cell differs: said plainly
    assert list(ch.tables["replay_differs.csv"]["match"]) == ["differs"]
    assert checks.replay_audit(lambda_tables(), reference).empty


def test_html_view_formats_numbers_and_verdicts():
    assert html_view.fmt(float("nan")) == "–" and html_view.fmt(1234.567) == "1235"
    cell = html_view.verdict_cell("reproduced", "why", "<span>x</span>")
    assert cell.startswith("<b style='color:#1a7f37'>reproduced</b><br><span>x</span><div") and "why</div>" in cell


def test_replay_statement_counts_cells_and_says_when_cells_differ():
    rows = [{"algorithm": a, "match": m, "table": "V", "sweep": "lambda=10", "paper": "9.589", "replay": "9.588"}
            for a, ms in (("none", ["exact"] * 3), ("published_tahoe", ["exact", "exact", "last digit"]),
                          ("published_reno", ["differs"] * 3)) for m in ms]
    text = checks.replay_statement(pd.DataFrame(rows))
    assert "**5 of the 9 published cells exactly as the paper does** and 1 more within one unit" in text
    assert "(Table V λ=10 Tahoe: 9.588 against the printed 9.589)" in text        # which cell, not only how many
    assert "no cell of none or Tahoe differs; all 3 Reno cells differ." in text
    assert "we have not found" in text
    exact = [{"algorithm": "none", "match": "exact"}]
    assert "we have not found" not in checks.replay_statement(pd.DataFrame(exact))
    assert "not enabled" in checks.replay_statement(pd.DataFrame())
