"""The scorecard chapter's tables and figure (simulator/report/figures_scorecard.py) on a small synthetic
scorecard: integer counts per verdict, readable tables with their CSV beside them, every paper's claims
as its chapter shows them, and each algorithm drawn once per panel."""
import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from simulator.report import chapter, figures_scorecard as fs, style  # noqa: E402
from simulator.report.papers.mm1 import scorecard_section as mm1s  # noqa: E402
from simulator.report.papers.qtcol import scorecard_section as qts  # noqa: E402

CLAIMS_YAML = """claims:
  - {id: mm1-1, paper: mm1, claim: TCP beats none., stated_in: Table V}
  - {id: qt-1, paper: qtcol, claim: QtCol is fair., stated_in: Fig. 9}
  - {id: mn-1, paper: mininet, claim: CUBIC first., stated_in: Fig. 1}
"""
REASONS_YAML = """reasons:
  mm1-1:
    - variants: [standard]
      verdicts: [contradicted]
      kind: model_difference
      reason: Textbook TCP is different.
"""


def row(paper, item, variant, verdict, metric="throughput", paper_value=10.0, mean=10.0, n=10):
    return {"paper": paper, "item": item, "variant": variant, "metric": metric, "paper_value": paper_value,
            "ours_mean": mean, "ci_low": mean - 1, "ci_high": mean + 1, "run_p025": mean - 2, "run_p975": mean + 2,
            "n_seeds": n, "verdict": verdict}


@pytest.fixture
def card(tmp_path):
    rows = [row("mm1", "Table V lambda=5 tahoe", "as_published", "inside"),
            row("mm1", "Table V lambda=5 reno", "as_published", "outside", mean=14.0),
            row("mm1", "Table XI N=50 tahoe", "as_published", "missing", mean=float("nan"), n=0),
            row("mm1", "Table V lambda=5 tahoe", "standard", "inside"),
            row("mm1", "Table V lambda=5 reno", "standard", "inside", mean=9.0),
            row("mm1", "Table XI N=50 tahoe", "standard", "outside", mean=5.0),
            row("mm1", "mm1-1", "as_published", "reproduced"), row("mm1", "mm1-1", "standard", "contradicted"),
            row("qtcol", "Fig 9 goodput qtcol", "ns3_scenario", "inside", metric="goodput_mbps"),
            row("qtcol", "Fig 9 rtt qtcol", "ns3_scenario", "missing", metric="median_rtt_ms", n=0),
            row("qtcol", "qt-1", "ns3_scenario", "not_testable", n=0),
            row("mininet", "mn-1", "static", "reproduced"),
            row("mininet", "quoted goodput", "static", "inside")]
    notes = pd.DataFrame([{"item": "mm1-1", "variant": "as_published", "verdict": "reproduced", "note": "all hold", "why": ""},
                          {"item": "mm1-1", "variant": "standard", "verdict": "contradicted", "note": "tahoe < none",
                           "why": "Textbook TCP is different."},
                          {"item": "qt-1", "variant": "ns3_scenario", "verdict": "not_testable", "note": "no run", "why": "no run"},
                          {"item": "mn-1", "variant": "static", "verdict": "reproduced", "note": "all hold", "why": ""}])
    (tmp_path / "card.csv").write_text(pd.DataFrame(rows).to_csv(index=False))
    (tmp_path / "notes.csv").write_text(notes.to_csv(index=False))
    (tmp_path / "claims.yaml").write_text(CLAIMS_YAML)
    (tmp_path / "claim_reasons.yaml").write_text(REASONS_YAML)
    return fs.load(tmp_path / "card.csv", tmp_path / "notes.csv", tmp_path / "claims.yaml")


class FakeChapter:
    """Collects what the show_* functions show and save, as chapter.Chapter would."""
    downloads_url = "_static/downloads/scorecard"

    def __init__(self):
        self.shown, self.figures, self.tables, self.downloads, self.claims_rows = [], [], {}, {}, {}

    def markdown(self, text):
        self.shown.append(text)

    caption = markdown

    def figure(self, fig, name):
        self.figures.append(name)

    def download_link(self, name, label="Download as CSV"):
        return f'<a href="{self.downloads_url}/{name}" download>{label}</a>'

    def save_download(self, frame, name, index=False):
        self.downloads[name] = frame

    def table(self, frame, name, note="", index=False, float_format=None):
        self.tables[name] = frame
        self.save_download(frame, name)
        self.markdown(note)

    def claims(self, rows, name, note=""):
        self.claims_rows[name] = rows
        self.save_download(rows, name)
        self.markdown(note)


@pytest.fixture
def shown_html(monkeypatch):
    out = []
    monkeypatch.setattr(chapter, "html", out.append)
    return out


def ints(frame):
    return all(str(t).startswith("int") for t in frame.dtypes)


def test_load_reads_the_reasons_beside_the_claims_file(card):
    assert card.reasons["mm1-1"][0]["kind"] == "model_difference"
    assert card.claims_file.name == "claims.yaml"


def test_mm1_numbers_parse_table_and_algorithm(card):
    numbers = mm1s.mm1_numbers(card)
    assert len(numbers) == 6
    std = numbers[numbers["variant"] == "standard"]
    assert set(zip(std["table"], std["algorithm"])) == {("V", "tahoe"), ("V", "reno"), ("XI", "tahoe")}
    pub = numbers[numbers["variant"] == "as_published"]   # the paper's rows ran as its published code
    assert set(zip(pub["table"], pub["algorithm"])) == {("V", "published_tahoe"), ("V", "published_reno"),
                                                        ("XI", "published_tahoe")}


def test_verdict_counts_are_integers_with_reader_headers(card):
    counts = fs.verdict_counts(mm1s.mm1_numbers(card), "variant")
    assert list(counts.columns) == ["inside", "outside", "missing", "total"] and ints(counts)
    assert counts.loc["as_published"].tolist() == [1, 1, 1, 3]
    assert counts.loc["standard"].tolist() == [2, 1, 0, 3]
    view = fs.counts_view(counts, "model variant")
    assert list(view.columns) == ["model variant", "agree", "disagree", "not run", "total"]


def test_inside_by_table_is_integer_with_a_column_per_paper_table(card):
    numbers = mm1s.mm1_numbers(card)
    by_table = mm1s.inside_by_table(numbers[numbers["table"] == "V"])    # tables with no number stay 0, not NaN
    assert list(by_table.columns) == mm1s.MM1_TABLES and ints(by_table)
    assert by_table.loc["standard", "V"] == 2 and by_table.loc["as_published", "XI"] == 0


def test_show_mm1_counts_states_each_variant_and_downloads_both_tables(card, shown_html):
    ch = FakeChapter()
    mm1s.show_mm1_counts(ch, card)
    assert ch.shown[0] == ("Published numbers inside our per-run range: **as_published**: 1 of 2; "
                           "**standard**: 2 of 3 (1 not run in this build).")
    assert set(ch.tables) == {"mm1_numbers_per_variant.csv", "mm1_agree_per_table.csv"}
    assert all(ints(t.drop(columns="model variant")) for t in ch.tables.values())
    assert not any("target" in s for s in ch.shown)


def test_numbers_figure_draws_each_algorithm_once_per_panel_and_links_its_data(card):
    fig = mm1s.numbers_figure(mm1s.mm1_numbers(card))
    assert len(fig.axes) == len(style.VARIANTS)
    labels = [[ln.get_label() for ln in ax.get_lines() if not ln.get_label().startswith("_")] for ax in fig.axes]
    assert labels == [[style.LABELS["published_tahoe"], style.LABELS["published_reno"]], ["Tahoe", "Reno"]]
    colours = [[ln.get_color() for ln in ax.get_lines() if not ln.get_label().startswith("_")] for ax in fig.axes]
    assert colours[0] == colours[1] == [style.PALETTE["tahoe"], style.PALETTE["reno"]]
    ch = FakeChapter()
    mm1s.show_numbers_figure(ch, card)
    assert "scorecard_numbers.csv" in ch.downloads and "scorecard_numbers.csv" in ch.shown[-1]


def test_show_mm1_outside_lists_numbers_not_inside_in_a_readable_table(card, shown_html):
    ch = FakeChapter()
    mm1s.show_mm1_outside(ch, card)
    assert ch.shown[0] == "**as_published**: 1 published number outside our per-run range (1 more not run in this build):"
    assert ch.shown[2] == "**standard**: 1 published number outside our per-run range:"
    assert set(ch.tables) == {"mm1_outside_as_published.csv", "mm1_outside_standard.csv"}
    view = ch.tables["mm1_outside_as_published.csv"]
    assert view.columns.tolist() == ["published number", "setting", "metric", "paper", "ours (mean)", "95% CI",
                                     "per-run range", "seeds", "verdict"]
    assert view.iloc[0].tolist() == ["Table V lambda=5 reno", "as_published", "throughput (packets/s)", "10", "14", "13 – 15",
                                     "12 – 16", 10, "disagrees"]


def test_claims_of_each_paper_shown_as_its_chapter_shows_them_with_integer_tally(card):
    ch = FakeChapter()
    fs.show_claims(ch, card, "mm1")
    rows = ch.claims_rows["mm1_claims.csv"]
    assert rows["claim"].tolist() == ["mm1-1", "mm1-1"] and "Textbook TCP is different." in rows["why"].tolist()
    assert "2 claim rows of the paper: 1 reproduced, 1 contradicted." in ch.shown     # the tally, above the folded table
    fs.show_claims(ch, card, "qtcol")
    assert "1 claim row of the paper: 1 not testable." in ch.shown


def test_qtcol_numbers_give_the_tolerance_of_each_metric(card, shown_html):
    ch = FakeChapter()
    qts.show_qtcol_numbers(ch, card)
    view = ch.tables["qtcol_numbers_per_metric.csv"]
    assert view.set_index("metric").loc["goodput (Mbit/s)", "tolerance"]   # the metric in words == "±1.5"
    assert ch.shown[0] == "**1 of 1 published numbers we ran agree within the tolerance** (1 more not run in this build)."
    assert "qtcol_outside.csv" not in ch.downloads              # none outside; the one not run is counted


def test_show_papers_counts_only_papers_that_ran(card, shown_html):
    ch = FakeChapter()
    fs.show_papers(ch, card)
    frame = ch.downloads["papers_at_a_glance.csv"]
    assert frame["paper"].tolist() == ["mm1", "qtcol", "mininet"]
    assert "href='mm1.html'" in shown_html[0]


def test_other_papers_show_claims_quoted_numbers_and_papers_not_run(card, shown_html):
    ch = FakeChapter()
    fs.show_other_papers(ch, card)
    assert ch.shown[0] == "### " + fs.OTHER_PAPERS["mininet"]
    assert "mininet_claims.csv" in ch.claims_rows and "mininet_quoted_numbers.csv" in ch.downloads
    assert fs.NOT_RUN.format(fs.OTHER_PAPERS["ns2"]) in ch.shown


def test_a_zero_width_interval_is_written_deterministic_never_x_to_x():
    from simulator.report import figures_scorecard as fs

    assert fs.interval(96.38, 96.38) == "deterministic"
    assert fs.interval(float("nan"), float("nan")) == "–"
    assert fs.interval(95.0, 97.0) == "95 – 97"


def test_utilization_and_plr_are_written_in_percent_as_in_the_chapters():
    import pandas as pd

    from simulator.report import claim_words, claims_view, figures_scorecard as fs

    row = {"item": "qt-4", "variant": "ns3_scenario", "metric": "utilization", "paper_value": 0.96,
           "ours_mean": 0.9598, "ci_low": 0.9598, "ci_high": 0.9598, "run_p025": 0.9598, "run_p975": 0.9598,
           "n_seeds": 10, "verdict": "inside"}
    view = fs.numbers_view(pd.DataFrame([row]))
    assert view.loc[0, "paper"] == "96" and view.loc[0, "ours (mean)"].startswith("95.98")
    assert view.loc[0, "95% CI"] == "deterministic" and "%" in view.loc[0, "metric"]
    assert claims_view._ours(pd.Series(row)).startswith("95.98 (deterministic)<br><small>utilization (% of the link")
    assert claim_words.scale("plr") == 100 and claim_words.scale("jain") == 1


def test_a_quoted_range_is_shown_as_the_paper_gives_it_never_its_midpoint():
    """The scorecard's table of quoted numbers prints 25 – 40 (paper_low, paper_high), a value as itself."""
    frame = pd.DataFrame([
        {"item": "RTT wifi_wifi bbr (tb-3)", "variant": "sim", "metric": "ping_rtt_mean_ms", "paper_value": np.nan,
         "paper_low": 25.0, "paper_high": 40.0, "ours_mean": 14.9, "ci_low": 14.5, "ci_high": 15.2, "run_p025": 14.0,
         "run_p975": 15.6, "n_seeds": 10, "verdict": "outside"},
        {"item": "RTT wifi_wifi vegas (tb-3)", "variant": "sim", "metric": "ping_rtt_mean_ms", "paper_value": 160.0,
         "paper_low": 160.0, "paper_high": 160.0, "ours_mean": 8.8, "ci_low": 8.7, "ci_high": 8.9, "run_p025": 8.6,
         "run_p975": 9.0, "n_seeds": 10, "verdict": "outside"}])
    view = fs.numbers_view(frame)
    assert list(view["paper"]) == ["25 – 40", "160"] and "32.5" not in view.to_string()
