"""The scorecard chapter's tables and figure (simulator/report/figures_scorecard.py) on a small synthetic
scorecard: counts per verdict, the as_published target, claim tables with the claims file's text and
the scorecard's notes, and each algorithm drawn once per panel."""
import matplotlib

matplotlib.use("Agg")

import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from simulator.report import chapter, figures_scorecard as fs, style  # noqa: E402

CLAIMS_YAML = """claims:
  - {id: mm1-1, paper: mm1, claim: TCP beats none., stated_in: Table V}
  - {id: qt-1, paper: qtcol, claim: QtCol is fair., stated_in: Fig. 9}
  - {id: mn-1, paper: mininet, claim: CUBIC first., stated_in: Fig. 1}
"""


def row(paper, item, variant, verdict, metric="throughput", paper_value=10.0, mean=10.0):
    return {"paper": paper, "item": item, "variant": variant, "metric": metric, "paper_value": paper_value,
            "ours_mean": mean, "ci_low": mean - 1, "ci_high": mean + 1, "run_p025": mean - 2, "run_p975": mean + 2,
            "n_seeds": 10, "verdict": verdict}


@pytest.fixture
def card(tmp_path):
    rows = [row("mm1", "Table V lambda=5 tahoe", "as_published", "inside"),
            row("mm1", "Table V lambda=5 reno", "as_published", "outside", mean=14.0),
            row("mm1", "Table XI N=50 tahoe", "as_published", "missing", mean=float("nan")),
            row("mm1", "Table V lambda=5 tahoe", "standard", "inside"),
            row("mm1", "Table V lambda=5 reno", "standard", "inside", mean=9.0),
            row("mm1", "Table XI N=50 tahoe", "standard", "outside", mean=5.0),
            row("mm1", "mm1-1", "as_published", "reproduced"), row("mm1", "mm1-1", "standard", "contradicted"),
            row("qtcol", "Fig 9 goodput qtcol", "ns3_scenario", "inside", metric="goodput"),
            row("qtcol", "Fig 9 rtt qtcol", "ns3_scenario", "missing", metric="median_rtt"),
            row("qtcol", "qt-1", "ns3_scenario", "not_testable"),
            row("mininet", "mn-1", "static", "reproduced"),
            row("mininet", "quoted goodput", "static", "inside")]
    notes = pd.DataFrame([{"item": "mm1-1", "variant": "standard", "verdict": "contradicted", "note": "tahoe < none"},
                          {"item": "qt-1", "variant": "ns3_scenario", "verdict": "not_testable", "note": "no run"},
                          {"item": "mn-1", "variant": "static", "verdict": "reproduced", "note": "all hold"}])
    (tmp_path / "card.csv").write_text(pd.DataFrame(rows).to_csv(index=False))
    (tmp_path / "notes.csv").write_text(notes.to_csv(index=False))
    (tmp_path / "claims.yaml").write_text(CLAIMS_YAML)
    return fs.load(tmp_path / "card.csv", tmp_path / "notes.csv", tmp_path / "claims.yaml")


class FakeChapter:
    downloads_url = "_static/downloads/scorecard"

    def __init__(self):
        self.shown, self.figures = [], []

    def markdown(self, text):
        self.shown.append(text)

    caption = markdown

    def figure(self, fig, name):
        self.figures.append(name)


@pytest.fixture
def shown_html(monkeypatch):
    out = []
    monkeypatch.setattr(chapter, "html", out.append)
    return out


def test_load_keeps_every_papers_claim_text_with_where_it_is_stated(card):
    assert card.texts["qt-1"] == "QtCol is fair. <i>(Fig. 9)</i>"
    assert len(card.texts) == 3


def test_mm1_numbers_parse_table_and_algorithm(card):
    numbers = fs.mm1_numbers(card)
    assert len(numbers) == 6
    std = numbers[numbers["variant"] == "standard"]
    assert set(zip(std["table"], std["algorithm"])) == {("V", "tahoe"), ("V", "reno"), ("XI", "tahoe")}
    pub = numbers[numbers["variant"] == "as_published"]   # the paper's rows ran as its published code
    assert set(zip(pub["table"], pub["algorithm"])) == {("V", "published_tahoe"), ("V", "published_reno"),
                                                        ("XI", "published_tahoe")}


def test_verdict_counts_and_target(card):
    counts = fs.verdict_counts(fs.mm1_numbers(card), "variant")
    assert list(counts.columns) == ["inside", "outside", "missing", "total"]
    assert counts.loc["as_published"].tolist() == [1, 1, 1, 3]
    assert counts.loc["standard"].tolist() == [2, 1, 0, 3]
    assert "target **not met**" in fs.target_sentence(counts, 2, "u/scorecard.csv")
    assert "target met" in fs.target_sentence(counts, 1, "u/scorecard.csv")
    assert fs.target_sentence(counts.drop(index="as_published"), 1, "u") is None


def test_inside_by_table_has_a_column_per_paper_table(card):
    by_table = fs.inside_by_table(fs.mm1_numbers(card))
    assert list(by_table.columns) == fs.MM1_TABLES
    assert by_table.loc["standard", "V"] == 2 and by_table.loc["as_published", "XI"] == 0


def test_show_mm1_counts_states_the_target(card, shown_html):
    ch = FakeChapter()
    fs.show_mm1_counts(ch, card, target_inside=1)
    assert ch.shown[0].startswith("**as_published: 1 of 3 published numbers lie inside")
    assert len(shown_html) == 2


def test_numbers_figure_draws_each_algorithm_once_per_panel(card):
    fig = fs.numbers_figure(fs.mm1_numbers(card))
    assert len(fig.axes) == len(style.VARIANTS)
    labels = [[ln.get_label() for ln in ax.get_lines() if not ln.get_label().startswith("_")] for ax in fig.axes]
    assert labels == [["Tahoe (paper's code)", "Reno (paper's code)"], ["Tahoe", "Reno"]]
    colours = [[ln.get_color() for ln in ax.get_lines() if not ln.get_label().startswith("_")] for ax in fig.axes]
    assert colours[0] == colours[1] == [style.PALETTE["tahoe"], style.PALETTE["reno"]]
    xs = [[ln.get_xdata()[0] for ln in ax.get_lines() if not ln.get_label().startswith("_")] for ax in fig.axes]
    assert xs[0] == xs[1]   # Table V: each algorithm at the same place in both panels


def test_show_mm1_outside_lists_numbers_not_inside(card, shown_html):
    ch = FakeChapter()
    fs.show_mm1_outside(ch, card)
    assert ch.shown == ["**as_published**: 2 published numbers outside our per-run range (or not run).",
                        "**standard**: 1 published numbers outside our per-run range."]
    assert len(shown_html) == 2


def test_mm1_claims_show_each_variants_verdict_and_note(card, shown_html):
    html = fs.mm1_claims_html(card)
    assert html.count("<tr><th style") == 1 and "TCP beats none. <i>(Table V)</i>" in html
    assert "#1a7f37'>reproduced" in html and "#cf222e'>contradicted" in html and "tahoe < none" in html
    ch = FakeChapter()
    fs.show_mm1_claims(ch, card)
    assert ch.shown == ["Claims per verdict: **as_published** reproduced 1; **standard** contradicted 1."]


def test_qtcol_sections(card, shown_html):
    ch = FakeChapter()
    fs.show_qtcol_numbers(ch, card)
    assert ch.shown[0].startswith("**1 of 1 published numbers we ran are inside the tolerance** (1 not run)")
    assert ch.shown[1] == "Published numbers outside the tolerance or not run (1):"
    fs.show_qtcol_claims(ch, card)
    assert "QtCol is fair." in shown_html[-1] and "no run" in shown_html[-1]
    assert ch.shown[-1] == "QtColFair claims per verdict: not_testable 1."


def test_other_papers_show_claims_quoted_numbers_and_papers_not_run(card, shown_html):
    ch = FakeChapter()
    fs.show_other_papers(ch, card)
    assert ch.shown[0] == "### Mininet (high latency)"
    assert ch.shown[2] == fs.NOT_RUN.format(fs.OTHER_PAPERS["ns2"])
    claims_html = shown_html[0]
    assert "CUBIC first." in claims_html and "throughput: 10 [9, 11]" in claims_html and "all hold" in claims_html
    tally = fs.verdict_tally("mininet", fs.paper_rows(card, "mininet").iloc[:1], fs.paper_rows(card, "mininet").iloc[1:])
    assert tally == [{"paper": "mininet", "rows": "claims", "verdict": "reproduced", "count": 1},
                     {"paper": "mininet", "rows": "quoted numbers", "verdict": "inside", "count": 1}]
    assert "Verdicts per paper" in ch.shown[-2]
