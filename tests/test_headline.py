"""The five papers at a glance (simulator/report/headline.py), counted on a constructed scorecard:
integer counts per paper, claim rows counted per setting, the main reason from the kinds of the
reasons (reference/claim_reasons.yaml), and the table's links to each chapter."""
from pathlib import Path

import pandas as pd
import pytest

from simulator.report import book, figures_scorecard, headline, verdict_box
from simulator.reference import ReferenceDataError, check_claims


def row(paper, item, variant, verdict, n=10, metric="m"):
    return {"paper": paper, "item": item, "variant": variant, "metric": metric, "verdict": verdict, "n_seeds": n}


REASONS = {"ns2-1": [{"variants": ["window20"], "kind": "sensitivity", "reason": "r"}],
           "ns2-2": [{"kind": "model_difference", "reason": "r"}],
           "ns2-3": [{"variants": ["nocap"], "verdicts": ["contradicted"], "kind": "sensitivity", "reason": "r"}]}


def scorecard():
    rows = [row("testbed", "quoted rtt", "sim", "outside"), row("testbed", "tb-1", "sim", "reproduced")]
    rows += [row("mm1", f"Table V x={i} tahoe", v, verdict, metric="throughput")
             for v, verdicts in (("as_published", ["inside", "inside", "outside"]), ("standard", ["inside", "missing", "missing"]))
             for i, verdict in enumerate(verdicts)]
    rows += [row("mm1", "mm1-1", "as_published", "reproduced"), row("mm1", "mm1-1", "standard", "contradicted")]
    rows += [row("ns2", "ns2-1", "window20, 2 flows", "contradicted"), row("ns2", "ns2-1", "window20, 3 flows", "inconclusive"),
             row("ns2", "ns2-1", "nocap, 2 flows", "reproduced"), row("ns2", "ns2-2", "window20, 2 flows", "contradicted"),
             row("ns2", "ns2-3", "nocap, 2 flows", "contradicted"), row("ns2", "ns2-3", "window20, 2 flows", "not_testable", n=0),
             row("ns2", "ns2-4", "window20, 2 flows", "inconclusive", n=3)]
    return pd.DataFrame(rows)


def test_counts_per_paper_in_book_order_as_integers():
    counts = headline.paper_counts(scorecard(), REASONS).set_index("paper")
    assert list(counts.index) == ["mm1", "ns2", "testbed"]                 # the book's order, not the file's
    assert all(str(counts[c].dtype).startswith("int") for c in headline.COUNT_COLUMNS)
    mm1 = counts.loc["mm1"]
    assert (mm1.published, mm1.number_settings, mm1.numbers, mm1.agree, mm1.not_run) == (3, 2, 4, 3, 2)
    assert (mm1.claims, mm1.claim_rows, mm1.settings, mm1.reproduced, mm1.contradicted) == (1, 2, 2, 1, 1)
    assert mm1.agree_by_setting == "as_published 2 of 3; standard 1 of 1"
    assert "<br><small>as_published 2 of 3</small><br><small>standard 1 of 1</small>" in headline.agree_cell(
        headline.paper_counts(scorecard()).iloc[0])
    ns2 = counts.loc["ns2"]                                                # claim rows counted per setting
    assert (ns2.claims, ns2.claim_rows, ns2.settings) == (4, 7, 3)
    assert (ns2.reproduced, ns2.contradicted, ns2.inconclusive, ns2.not_testable) == (1, 3, 2, 1)
    assert (ns2.published, ns2.numbers) == (0, 0)
    tb = counts.loc["testbed"]
    assert (tb.numbers, tb.agree, tb.claim_rows, tb.reproduced) == (1, 0, 1, 1) and tb.main_reason == ""


def test_kinds_of_the_rows_not_reproduced_and_the_main_reason():
    card = scorecard()
    kinds = headline.row_kinds(card[card["paper"] == "ns2"], REASONS)
    # ns2-1 twice (window20: sensitivity), ns2-2 (model difference), ns2-3 nocap (sensitivity), ns2-4 with
    # 3 seeds and no entry (too few seeds); the not_testable and reproduced rows have no reason kind
    assert sorted(kinds) == ["model_difference", "sensitivity", "sensitivity", "sensitivity", "too_few_seeds"]
    reason = headline.main_reason(kinds)
    assert reason == ("Mostly the result turns on a parameter the paper leaves open (3 of 5 rows); also our model "
                      "differs from the paper's set-up or code (1); too few seeds to separate the means (1).")
    assert headline.main_reason(pd.Series(["unexplained"])) == "Not yet explained (1 row)."
    assert headline.main_reason(pd.Series(["sensitivity"] * 2)) == ("The result turns on a parameter the paper leaves "
                                                                    "open (all 2 rows).")
    assert headline.main_reason(pd.Series([], dtype=object)) == ""
    assert headline.main_reason(pd.Series(["too_few_seeds", "sensitivity", "sensitivity", "too_few_seeds"])) == (
        "Too few seeds to separate the means (2 of 4 rows); the result turns on a parameter the paper leaves open (2).")
    mm1 = headline.paper_counts(card, {}).set_index("paper").loc["mm1"]   # no entry, 10 seeds: not yet explained
    assert mm1.main_reason.startswith("Not yet explained")


def test_only_the_papers_asked_for():
    counts = headline.paper_counts(scorecard(), REASONS, papers=["ns2"])
    assert counts["paper"].tolist() == ["ns2"]


def test_headline_table_has_a_row_per_paper_linking_its_chapter():
    counts = headline.paper_counts(scorecard(), REASONS)
    html = headline.headline_html(counts)
    assert html.count("<tr class='paper'>") == 3 and html.count("<tr class='reason'>") == 2   # testbed has none
    assert "<td rowspan='2'><a href='ns2.html'>" in html and "<td rowspan='1'><a href='testbed.html'>" in html
    for page in ("mm1", "ns2", "testbed"):
        assert f"<a href='{page}.html'>" in html
    assert "3 published numbers in 2 settings (2 of 6 not run); 1 claim of the paper in 2 settings (2 claim rows)" in html
    assert "<b>3 of 4</b>" in html and ".0<" not in html                  # integers, never 3.0
    assert "4 claims of the paper in 3 settings (7 claim rows)" in html and "1 published number; 1 claim of the paper<" in html
    assert "<th>not testable</th>" in html and "claim rows</th>" in html
    assert list(headline.download_frame(counts).columns[:2]) == ["paper", "title"]


# --------------------------------------------------------------------------- our own checks counted apart
OWN_CLAIMS = """claims:
  - {id: mm1-1, paper: mm1, claim: TCP beats none., stated_in: Table V}
  - {id: mm1-9, paper: mm1, source: ours, claim: Matches the closed forms., stated_in: not in the paper}
"""


def with_own_check():
    return pd.concat([scorecard(), pd.DataFrame([row("mm1", "mm1-9", "as_published", "reproduced"),
                                                 row("mm1", "mm1-9", "standard", "reproduced")])], ignore_index=True)


def test_our_own_checks_are_counted_apart_from_the_papers_claims(tmp_path):
    """mm1-9 (source: ours) is no claim of the paper: '1 claim of the paper; 1 check of ours', and its rows are
    not in the paper's verdict columns (they were counted among the paper's claims before)."""
    claims = tmp_path / "claims.yaml"
    claims.write_text(OWN_CLAIMS)
    assert headline.own_checks(claims) == {"mm1-9"}
    mm1 = headline.counts(with_own_check(), claims).set_index("paper").loc["mm1"]
    assert (mm1.claims, mm1.claim_rows, mm1.reproduced, mm1.contradicted) == (1, 2, 1, 1)
    assert (mm1.own_checks, mm1.own_check_rows, mm1.own_reproduced) == (1, 2, 2)
    assert headline.compared_cell(mm1).endswith("1 claim of the paper in 2 settings (2 claim rows); "
                                               "1 check of ours (2 rows: 2 reproduced)")


def test_every_page_that_counts_claims_counts_them_alike(tmp_path):
    """Page 1 (book.chapter_counts), a chapter's verdict box and the scorecard page all call headline.counts."""
    claims = tmp_path / "claims.yaml"
    claims.write_text(OWN_CLAIMS)
    card = with_own_check()
    card.to_csv(tmp_path / "card.csv", index=False)
    (tmp_path / "mm1.ipynb").write_text("{}")
    first = book.chapter_counts(tmp_path, tmp_path / "card.csv", claims).set_index("paper").loc["mm1"]
    box = verdict_box.counts_of(card, claims, ["mm1"]).set_index("paper").loc["mm1"]
    assert first.to_dict() == box.to_dict() and first.own_checks == 1 and first.claims == 1
    assert "1 check of ours (2 rows: 2 reproduced)" in verdict_box.box_html(verdict_box.counts_of(card, claims, ["mm1"]))

    class Page:
        shown: list = []

        def markdown(self, text):
            self.shown.append(text)

        def claims(self, *a, **k):
            pass

    pd.DataFrame(columns=["item", "variant", "verdict", "note"]).to_csv(tmp_path / "notes.csv", index=False)
    page = Page()
    figures_scorecard.show_claims(page, figures_scorecard.load(tmp_path / "card.csv", tmp_path / "notes.csv", claims),
                                  "mm1")
    assert page.shown[0] == ("2 claim rows of the paper: 1 reproduced, 1 contradicted. 1 check of ours "
                             "(2 rows: 2 reproduced), counted apart.")


def test_a_claim_source_other_than_paper_or_ours_is_refused(tmp_path):
    claims = tmp_path / "claims.yaml"
    claims.write_text("claims:\n  - {id: mm1-9, paper: mm1, source: mine, claim: c., stated_in: s, studies: [mm1_analytic], "
                      "metrics: [throughput], decide: {}}\n")
    with pytest.raises(ReferenceDataError, match=r"claim mm1-9: source: 'mine'; allowed values: paper, ours"):
        check_claims(claims, {"mm1": {}}, ["mm1_analytic"])


def test_a_check_of_ours_says_so_in_the_chapters_claim_table():
    """mm1-9 (source: ours) is not a claim of the paper: its row in the chapter's table says so first."""
    from simulator.report import claims_view

    texts = claims_view.claim_texts(Path(__file__).resolve().parents[1] / "reference" / "claims.yaml", "mm1")
    assert texts["mm1-9"].startswith(claims_view.OWN_CHECK)
    assert not any(t.startswith(claims_view.OWN_CHECK) for cid, t in texts.items() if cid != "mm1-9")
