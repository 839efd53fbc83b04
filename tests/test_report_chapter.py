"""The chapter helpers of the report package: claim rows as the scorecard decided them, the Mininet
chapter's figure and summary, and a chapter's downloads."""
import matplotlib

matplotlib.use("Agg")

import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from simulator.report import chapter, claims_view  # noqa: E402
from simulator.report.papers.mininet import figures as figures_mininet

CLAIMS_YAML = """claims:
  - {id: mn-1, paper: mininet, claim: CUBIC first., stated_in: Fig. 1, studies: [s], metrics: [m]}
  - {id: mn-2, paper: mininet, claim: Vegas calm., stated_in: Fig. 2, studies: [s], metrics: [m]}
  - {id: tb-1, paper: testbed, claim: Other paper., stated_in: Fig. 3, studies: [s], metrics: [m]}
"""


def card():
    rows = [("mininet", "mn-2", "static", "reproduced"), ("mininet", "mn-1", "static", "inconclusive"),
            ("testbed", "tb-1", "sim", "reproduced"), ("mininet", "Table x", "static", "inside")]
    return pd.DataFrame([{"paper": p, "item": i, "variant": v, "verdict": d, "metric": "m", "ours_mean": 1.0,
                          "ci_low": 0.5, "ci_high": 1.5, "n_seeds": 10, "p_value": 0.01, "rule": "r", "note": "short"}
                         for p, i, v, d in rows])


def test_chapter_claims_keeps_the_papers_claims_in_file_order(tmp_path):
    f = tmp_path / "claims.yaml"
    f.write_text(CLAIMS_YAML)
    notes = pd.DataFrame([{"item": "mn-1", "variant": "static", "verdict": "inconclusive", "note": "note 1",
                           "why": "few seeds"},
                          {"item": "mn-2", "variant": "static", "verdict": "reproduced", "note": "note 2", "why": ""}])
    rows = claims_view.chapter_claims(card(), notes, f, "mininet")
    assert rows["claim"].tolist() == ["mn-1", "mn-2"]
    assert rows["note"].tolist() == ["note 1", "note 2"]
    assert rows["why"].tolist() == ["few seeds", ""]       # the reason beside a verdict other than reproduced
    assert rows["the paper says"].iloc[0] == "CUBIC first. (Fig. 1)"
    assert list(rows.columns) == claims_view.COLUMNS


MN_ALGS = ["bbr", "reno", "vegas", "cubic"]


def mininet_tables():
    rows = []
    for change in figures_mininet.CHANGES:
        for alg in MN_ALGS:
            for metric in figures_mininet.SUMMARY_METRICS:
                rows.append({"study": figures_mininet.STUDY, "change": change, "algorithm": alg, "metric": metric,
                             "mean": 2.0, "ci_low": 1.0, "ci_high": 3.0, "n": 10})
    return pd.DataFrame(rows)


def test_mininet_summary_has_one_row_per_point_and_a_column_per_metric():
    wide = figures_mininet.summary(mininet_tables())
    assert len(wide) == len(figures_mininet.CHANGES) * len(MN_ALGS)
    shown = figures_mininet.summary_shown(wide)
    assert list(shown.columns[:2]) == ["path", "algorithm"]
    assert [c.split(":")[0] for c in shown.columns[2:] if not c.startswith("paper")] == list(
        figures_mininet.SUMMARY_METRICS.values())
    assert shown.iloc[0, 2] == "2 <small>[1, 3]</small>"
    assert list(shown["algorithm"][:4]) == ["Reno", "Cubic", "BBR", "Vegas"]  # the book's order, static first
    assert figures_mininet.n_seeds(mininet_tables()) == 10


@pytest.mark.parametrize("missing", [None, "vegas"])
def test_mininet_figure_draws_each_traced_algorithm_once_per_panel(missing):
    rows = [{"study": figures_mininet.STUDY, "point": f"algorithm~{a}/change~{c}", "algorithm": a, "change": c,
             "seed": s, "t": t, "throughput_mbps_0": 5.0, "cwnd_0": 10.0}
            for a in MN_ALGS if a != missing for c in figures_mininet.CHANGES
            for s in (1, 2) for t in (0.1, 0.2)]
    fig = figures_mininet.throughput_cwnd(pd.DataFrame(rows))
    expected = [figures_mininet.style.label(a) for a in figures_mininet.style.order(MN_ALGS) if a != missing]
    for ax in fig.axes:
        labels = [ln.get_label() for ln in ax.get_lines() if not ln.get_label().startswith("link")]
        assert labels == expected


def test_chapter_writes_downloads_and_figures(tmp_path, monkeypatch):
    ch = chapter.Chapter(tmp_path / "fig", tmp_path / "dl", "_static/dl")
    ch.save_download(pd.DataFrame({"a": [1]}), "x.csv")
    assert (tmp_path / "dl" / "x.csv").read_text() == "a\n1\n"
    import matplotlib.pyplot as plt

    shown = []
    monkeypatch.setattr("IPython.display.display", shown.append)
    ch.figure(plt.figure(figsize=(4, 3)), "f")
    assert (tmp_path / "fig" / "f.png").exists() and (tmp_path / "fig" / "f.svg").exists()
    png = (tmp_path / "fig" / "f.png").read_bytes()
    assert chapter.png_width(png) > 0 and [s.data for s in shown] == [png]     # the saved PNG, drawn once
    assert shown[0].width == round(chapter.png_width(png) * 110 / 130)         # at the notebook's own size
    assert ch.download_link("x.csv") == '<a href="_static/dl/x.csv" download>Download as CSV</a>'
    assert chapter.files(["b", "a"], "*") == ["b", "a"]


def test_claims_table_cuts_the_interval_at_0_and_shows_the_reason_and_every_comparison():
    rows = pd.DataFrame([{"claim": "mn-1", "the paper says": "CUBIC first.", "variant": "static",
                          "verdict": "inconclusive", "why": "few seeds", "p_value": 0.3, "metric": "goodput",
                          "ours_mean": 2.5, "ci_low": -29.27, "ci_high": 34.27, "n_seeds": 2, "note": "a < b"}])
    html = claims_view.claims_html(rows)
    assert "2.5 [0, 34.27]" in html and "-29" not in html
    assert "few seeds" in html and "<details><summary>every comparison</summary>" in html and "a &lt; b" in html


def test_every_figure_is_refused_when_its_text_would_show_under_9_px(tmp_path):
    # the check is in Chapter.figure, the one helper that saves and shows every figure of the book:
    # the saved image's width (legends outside included), shrunk to the 900-px column, decides
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from simulator.report import chapter as chapter_module, style

    ch = chapter_module.Chapter(tmp_path / "figures", tmp_path / "downloads", "downloads")
    ok, ax = plt.subplots(figsize=(6, 3))
    ax.plot([0, 1], [0, 1], label="x")
    ax.legend(fontsize=9)
    ch.figure(ok, "readable")
    assert (tmp_path / "figures" / "readable.png").exists()
    wide, ax = plt.subplots(figsize=(16, 3))       # shrunk to about half: 9 pt shows at about 6 px
    ax.plot([0, 1], [0, 1], label="a legend entry")
    ax.legend(fontsize=9)
    with pytest.raises(style.FigureTextTooSmall, match=r"figure too_wide: text '.*' \(\d+ pt\) shows at \d\.\d px "
                                                       r"in the book \(at least 9 px\)"):
        ch.figure(wide, "too_wide")
    assert not (tmp_path / "figures" / "too_wide.png").exists()     # nothing half-written is left
