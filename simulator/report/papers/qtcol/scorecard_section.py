"""The QtColFair paper's section of the scorecard chapter (notebooks/scorecard.ipynb; catalogue.yaml
`scorecard_section: own`), laid out with the scorecard chapter's helpers (simulator/report/figures_scorecard.py)."""
from __future__ import annotations

from simulator.report import claim_words, headline
from simulator.report.figures_scorecard import (NOT_RUN, Card, counts_view, not_run, numbers_of, paper_rows,
                                                show_numbers, verdict_counts)
from simulator.report.papers.qtcol.scorecard import TOLERANCES, tolerance_text



def show_qtcol_numbers(ch, card: Card) -> None:
    """Published numbers per metric inside / outside the tolerance, and those outside or not run."""
    numbers = numbers_of(paper_rows(card, "qtcol"))
    if numbers.empty:
        ch.markdown(NOT_RUN.format(headline.PAPERS["qtcol"][0]))
        return
    counts = verdict_counts(numbers, "metric")
    view = counts_view(counts, "metric")
    view.insert(1, "tolerance", [tolerance_text(m) if m in TOLERANCES else "–" for m in view["metric"]])
    view["metric"] = view["metric"].map(claim_words.metric)      # median_rtt_ms -> median RTT (ms)
    ran = numbers[numbers["verdict"] != "missing"]
    ch.table(view, "qtcol_numbers_per_metric.csv",
             f"**{int((ran['verdict'] == 'inside').sum())} of {len(ran)} published numbers we ran agree within "
             f"the tolerance**{not_run(numbers)}.")
    out = numbers[numbers["verdict"] == "outside"]
    if len(out):
        show_numbers(ch, out, "qtcol_outside.csv", f"Published numbers outside the tolerance: {len(out)}.",
                     run_range=False)
