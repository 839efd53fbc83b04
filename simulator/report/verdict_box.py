"""The answer first: the box at the top of each paper's chapter (and of the scorecard) that says, before
any figure or table, how the paper's claims and published numbers came out and who is at fault for the
claim rows not reproduced. Counted from results/scorecard.csv by headline.counts (the same counts as the
first page's table, our own checks apart) and its fault column (headline.fault_text); short enough for the first screen."""
from __future__ import annotations

import html

import pandas as pd

from simulator.report import claim_words, headline
from simulator.report.html_view import BADGE
from simulator.report.verdicts import VERDICTS

CLASS = "verdict-box"      # book/_static/report.css draws it; tests/test_book_pages.py finds it by it


def claims_line(c) -> str:
    """'7 claims in 8 settings (50 claim rows): 30 reproduced, 10 contradicted, ...', each verdict in its colour."""
    if not c.claim_rows and not c.own_check_rows:
        return "No claim of this paper was decided in this build."
    counts = ", ".join(f"<b style='color:{BADGE.get(v, 'black')}'>{getattr(c, v)} {v.replace('_', ' ')}</b>"
                       for v in VERDICTS if getattr(c, v))
    return f"<b>Compared:</b> {headline.compared_cell(c)}. <b>Claim rows:</b> {counts}."


def numbers_line(c, with_fault: bool = True) -> str:
    if not c.numbers and not c.not_run:
        return ""
    by = f" ({html.escape(claim_words.prose(c.agree_by_setting))})" if c.agree_by_setting else ""
    missing = f"; {c.not_run} not run" if c.not_run else ""
    fault = getattr(c, "numbers_at_fault", "") if with_fault else ""
    outside = f" Outside, at fault: {html.escape(fault)}." if fault else ""
    return f"<b>Published numbers:</b> <b>{c.agree} of {c.numbers}</b> agree with ours{by}{missing}.{outside}"


def fault_line(c, reason: bool = True) -> str:
    """Who is at fault for the rows not reproduced; with `reason`, the main reason in words too."""
    unresolved = c.contradicted + c.inconclusive
    if not unresolved:
        return ""
    fault = f" At fault: {html.escape(c.at_fault)}." if c.at_fault else ""
    why = f" {html.escape(c.main_reason)}" if reason and c.main_reason else ""
    return f"<b>Not reproduced:</b> {unresolved} claim rows contradicted or inconclusive.{fault}{why}"


def paper_html(c, titled: bool) -> str:
    """One paper's paragraph: a line each in its chapter; in the scorecard's box of every paper
    (`titled`) one flowing paragraph without the main reason (its chapter's box gives it), so that the
    box ends on the first screen (tests/test_book_browser.py: above 800 px at 1,280 px)."""
    lines = [claims_line(c), numbers_line(c, with_fault=not titled), fault_line(c, reason=not titled)]
    title = f"<b>{html.escape(c.title)}.</b> " if titled else ""
    return f"<p>{title}{(' ' if titled else '<br>').join(line for line in lines if line)}</p>"


def box_html(counts: pd.DataFrame, titled: bool = False) -> str:
    """The verdict box of the papers in `counts` (headline.paper_counts): one paragraph each."""
    if counts.empty:
        body = "<p>No study of this paper ran in this build (see <code>config/config.yaml</code>).</p>"
    else:
        body = "".join(paper_html(c, titled) for c in counts.itertuples())
    return (f"<div class='{CLASS}'><p class='verdict-title'><b>Verdict</b> (the claim table below gives each row, "
            f"its reason and its evidence)</p>{body}</div>")


def counts_of(scorecard, claims_file, papers) -> pd.DataFrame:
    rows = pd.read_csv(scorecard) if not isinstance(scorecard, pd.DataFrame) else scorecard
    ran = rows[rows["n_seeds"].fillna(0) > 0] if "n_seeds" in rows else rows
    return headline.counts(rows, claims_file, papers=[p for p in papers if p in set(ran["paper"])])


def show(scorecard, claims_file, *papers) -> None:
    """Show the verdict box of one paper (a chapter) or of several (the scorecard: every paper that ran)."""
    from IPython.display import HTML, display

    papers = papers or tuple(headline.PAPERS)
    display(HTML(box_html(counts_of(scorecard, claims_file, papers), titled=len(papers) > 1)))
