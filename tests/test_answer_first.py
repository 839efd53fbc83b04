"""The answer first (issue 34, item 3), on the report package's own parts: each chapter's verdict box,
a long table shown as a preview with the whole table folded, secondary sections folded, and a reason
the settings of a claim share said once. The built book's pages are checked in test_book_pages.py."""
import html
import re

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402

from simulator.report import chapter, claims_view, verdict_box  # noqa: E402


def scorecard_rows():
    numbers = [{"paper": "mm1", "item": f"Table V {i}", "metric": "m", "variant": "standard",
                "verdict": "inside" if i < 7 else "outside", "n_seeds": 10} for i in range(9)]
    claims = [{"paper": "mm1", "item": "mm1-1", "metric": "m", "variant": v, "verdict": d, "n_seeds": 10,
               "fault": f} for v, d, f in (("standard", "reproduced", None), ("as_published", "contradicted", "paper_text"),
                                           ("other", "inconclusive", "our_seeds"))]
    return pd.DataFrame(numbers + claims)


def test_verdict_box_gives_the_claims_the_numbers_and_who_is_at_fault(tmp_path):
    (tmp_path / "claims.yaml").write_text("claims: []\n")
    box = verdict_box.box_html(verdict_box.counts_of(scorecard_rows(), tmp_path / "claims.yaml", ["mm1"]))
    text = html.unescape(re.sub(r"<[^>]+>", "", box))
    assert box.startswith(f"<div class='{verdict_box.CLASS}'>")
    assert "1 reproduced, 1 contradicted, 1 inconclusive" in text
    assert "7 of 9 agree with ours" in text
    assert "2 claim rows contradicted or inconclusive" in text
    assert "the paper's text 1" in text and "our runs (too few seeds) 1" in text


def test_verdict_box_says_when_no_study_of_the_paper_ran(tmp_path):
    (tmp_path / "claims.yaml").write_text("claims: []\n")
    box = verdict_box.box_html(verdict_box.counts_of(scorecard_rows(), tmp_path / "claims.yaml", ["ns2"]))
    assert "No study of this paper ran" in box


def test_a_long_table_shows_a_preview_and_folds_the_whole_table():
    long = pd.DataFrame({"x": range(chapter.LONG_TABLE + 1)})
    page = chapter.long_frame_html(long, index=False)
    preview, folded = page.split("<details", 1)
    assert preview.count("<tr") == chapter.PREVIEW_ROWS + 1          # header and the first rows
    assert folded.count("<tr") == len(long) + 1 and f"all {len(long)} rows" in folded
    assert "<details" not in chapter.long_frame_html(long.head(chapter.LONG_TABLE), index=False)


def test_a_folded_section_collects_its_figures_captions_and_tables(tmp_path, monkeypatch):
    shown = []
    monkeypatch.setattr("IPython.display.display", shown.append)
    ch = chapter.Chapter(tmp_path / "fig", tmp_path / "dl", "_static/dl")
    with chapter.folded("Time series of each run"):
        ch.figure(plt.figure(figsize=(2, 2)), "f")
        ch.caption("Figure: a caption.")
        ch.table(pd.DataFrame({"a": [1]}), "a.csv", note="A note. {link}.")
    assert len(shown) == 1          # one folded section, nothing shown outside it
    page = shown[0].data
    assert page.startswith("<details class='folded'><summary>Time series of each run</summary>")
    assert '<img src="data:image/png;base64,' in page and "<p><em>Figure: a caption.</em></p>" in page
    assert "<table" in page and 'href="_static/dl/a.csv"' in page and page.endswith("</details>")


def test_a_reason_the_settings_of_a_claim_share_is_said_once():
    rows = pd.DataFrame([{"claim": "ns2-5", "the paper says": "Delay hurts.", "variant": f"window 20, {n} flows",
                          "verdict": "contradicted", "why": "The figure says otherwise.", "at fault": "the paper's text",
                          "evidence": "NS-2 2.35 contradicts it too.", "p_value": 0.01, "metric": "goodput",
                          "ours_mean": 1.0, "ci_low": 0.5, "ci_high": 1.5, "n_seeds": 10, "note": f"comparisons at {n}"}
                         for n in range(2, 10)])
    page = claims_view.claims_html(rows)
    assert page.count("The figure says otherwise.") == 1
    assert page.count("NS-2 2.35 contradicts it too.") == 1 and "rowspan='8'" in page
    assert page.count("goodput") == 1        # what our number is: said once, in the claim's cell
    assert all(f"comparisons at {n}" in page for n in range(2, 10))        # every row's own comparisons stay
    rows.loc[0, "why"] = "A different reason."
    assert claims_view.claims_html(rows).count("The figure says otherwise.") == 1     # once for rows 2-8
    rows.loc[4, "why"] = "A different reason."
    assert claims_view.claims_html(rows).count("The figure says otherwise.") == 2     # rows 2-4, 6-8


def test_a_long_claim_table_shows_one_row_per_claim_and_folds_the_rest(tmp_path, monkeypatch):
    shown = []
    monkeypatch.setattr("IPython.display.display", shown.append)
    rows = pd.DataFrame([{"claim": f"ns2-{c}", "the paper says": f"Claim {c}.", "variant": f"{n} flows",
                          "verdict": "reproduced" if n % 2 else "contradicted",
                          "at fault": "" if n % 2 else "the paper's text", "evidence": "", "why": "", "p_value": 0.01,
                          "metric": "goodput", "ours_mean": 1.0, "ci_low": 0.5, "ci_high": 1.5, "n_seeds": 10,
                          "note": "n"} for c in range(1, 5) for n in range(2, 10)])
    assert len(rows) > chapter.LONG_TABLE
    ch = chapter.Chapter(tmp_path / "fig", tmp_path / "dl", "_static/dl")
    ch.claims(rows, "ns2_claims.csv")
    summary, table = shown[0].data, shown[1].data
    assert summary.count("<tr>") == 1 + 4 and "4 reproduced" in summary and "4 contradicted" in summary
    assert "the paper&#x27;s text 4" in summary
    assert table.startswith("<details class='folded'><summary>Each of the 32 claim rows") and table.count("<tr>") == 33
