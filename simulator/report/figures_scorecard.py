"""Tables and the figure of the scorecard chapter (notebooks/scorecard.ipynb): the rows of
results/scorecard.csv and their notes, the papers at a glance (headline.py), then one section
per paper: a paper with a section of its own (catalogue.yaml `scorecard_section: own`) has it in its folder,
simulator/report/papers/<paper>/scorecard_section.py, built from the helpers here. Every verdict shown here was decided by the scorecard (simulator.report.scorecard and the
modules it calls); this module only counts and lays them out. Counts are integers; every table is
shown with the CSV of its data (chapter.Chapter.table and .claims)."""
from __future__ import annotations

from pathlib import Path
from typing import NamedTuple

import pandas as pd

from simulator import paper_catalogue
from simulator.report import attribution, chapter, claim_reasons, claim_words, claims_view, headline
from simulator.report.html_view import fmt
from simulator.report.verdicts import VERDICTS

# the papers without a section of their own in the scorecard chapter (catalogue.yaml `scorecard_section`), shown alike
OTHER_PAPERS = {p: headline.PAPERS[p][0] for p in paper_catalogue.load().generic_scorecard_papers()}
COUNT_NAMES = {"inside": "agree", "outside": "disagree", "missing": "not run", "total": "total"}
NOT_RUN = "*{}: no study of this paper ran in this build (see `config/config.yaml`).*"


class Card(NamedTuple):
    rows: pd.DataFrame   # results/scorecard.csv: every paper's numbers and claims
    notes: pd.DataFrame  # results/scorecard_notes.csv: the reasoning behind each claim's verdict
    claims_file: Path    # reference/claims.yaml: each claim in our words, where the paper states it
    reasons: dict        # reference/claim_reasons.yaml beside it: why a claim did not reproduce


def load(scorecard, scorecard_notes, claims_file) -> Card:
    return Card(pd.read_csv(scorecard), pd.read_csv(scorecard_notes), Path(claims_file),
                claim_reasons.load(Path(claims_file).parent))


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def paper_rows(card: Card, paper: str) -> pd.DataFrame:
    return card.rows[card.rows["paper"] == paper]


def numbers_of(rows: pd.DataFrame) -> pd.DataFrame:
    """The published-number rows (verdict inside / outside / missing) of some scorecard rows."""
    return rows[rows["verdict"].isin(COUNT_NAMES)]


def verdict_counts(numbers: pd.DataFrame, by: str) -> pd.DataFrame:
    """Integer counts of published numbers that agree / disagree / did not run, per `by`, with the total."""
    counts = (numbers.groupby([by, "verdict"]).size().unstack(fill_value=0)
              .reindex(columns=["inside", "outside", "missing"], fill_value=0).astype(int).rename_axis(columns=None))
    counts["total"] = counts.sum(axis=1)
    return counts


def counts_view(counts: pd.DataFrame, label: str) -> pd.DataFrame:
    """verdict_counts as a reader's table: the `by` values as the first column, plain headers."""
    return counts.rename(columns=COUNT_NAMES).rename_axis(label).reset_index()


def interval(lo, hi) -> str:
    """'low – high'; 'deterministic' for a zero-width interval (every seed the same)."""
    if pd.isna(lo):
        return "–"
    return "deterministic" if fmt(lo) == fmt(hi) else f"{fmt(lo)} – {fmt(hi)}"


def paper_column(frame: pd.DataFrame, k) -> list:
    """The paper's numbers as it gives them: '25 – 40' for a range (never its midpoint), '160' for a value."""
    if "paper_low" not in frame:        # a scorecard written before ranges were kept: single values only
        return list((k * frame["paper_value"]).map(fmt))
    low = frame["paper_low"].fillna(frame["paper_value"])
    high = frame["paper_high"].fillna(frame["paper_value"])
    return [fmt(a) if pd.isna(b) or fmt(a) == fmt(b) else f"{fmt(a)} – {fmt(b)}" for a, b in zip(k * low, k * high)]


def numbers_view(frame: pd.DataFrame, run_range: bool = True) -> pd.DataFrame:
    """Published numbers as a reader's table: the item, the paper's number, our mean with its 95% CI
    (and per-run range), the seeds and the verdict."""
    k = frame["metric"].map(claim_words.scale)       # a share of 1 in %, as the chapters write it
    view = pd.DataFrame({
        "published number": frame["item"].map(claim_words.prose), "setting": frame["variant"].map(claim_words.setting),
        "metric": frame["metric"].map(claim_words.metric),
        "paper": paper_column(frame, k), "ours (mean)": (k * frame["ours_mean"]).map(fmt),
        "95% CI": [interval(lo, hi) for lo, hi in zip(k * frame["ci_low"], k * frame["ci_high"])]})
    if run_range:
        view["per-run range"] = [interval(lo, hi) for lo, hi in zip(k * frame["run_p025"], k * frame["run_p975"])]
    view["seeds"] = frame["n_seeds"].fillna(0).astype(int)
    view["verdict"] = frame["verdict"].map({**COUNT_NAMES, "inside": "agrees", "outside": "disagrees"})
    if "fault" in frame:         # who is at fault for a number outside (attribution.py); evidence: show_numbers
        view["at fault"] = frame["fault"].map(attribution.words).fillna("")
    return view


def evidence_lines(frame: pd.DataFrame) -> str:
    """Each distinct fault and its evidence once, with how many of the table's numbers it covers ('' for none)."""
    if "fault" not in frame:
        return ""
    out = frame[frame["fault"].fillna("") != ""]
    groups = out.groupby(["fault", "evidence"], sort=False).size()
    return "\n".join(f"- **{attribution.words(f)}** ({n} {'number' if n == 1 else 'numbers'}): {e}"
                     for (f, e), n in groups.items())


def show_numbers(ch, frame: pd.DataFrame, name: str, head: str, run_range: bool = True) -> None:
    """`head`, then a table of published numbers (numbers_view) with its data as downloads/<name>."""
    ch.markdown(head)
    ch.table(numbers_view(frame, run_range), name)
    lines = evidence_lines(frame)
    if lines:
        ch.markdown("Who is at fault, and the evidence that decides it:\n\n" + lines)


def not_run(numbers: pd.DataFrame) -> str:
    """' (12 more not run in this build)' for the numbers of studies this build did not run."""
    n = int((numbers["verdict"] == "missing").sum())
    return f" ({n} more not run in this build)" if n else ""


# --------------------------------------------------------------------------- every paper

def show_papers(ch, card: Card) -> None:
    """The five papers at a glance (as on the book's first page), with its CSV."""
    ran = card.rows[card.rows["n_seeds"].fillna(0) > 0]["paper"].unique()   # a paper none of whose studies ran has no chapter
    counts = headline.counts(card.rows, card.claims_file, papers=ran)
    ch.save_download(headline.download_frame(counts), "papers_at_a_glance.csv")
    chapter.html(headline.headline_html(counts))
    ch.markdown("Claim columns count claim rows: a claim decided in several settings counts once per setting. "
                + ch.download_link("papers_at_a_glance.csv") + ".")
    faults = headline.fault_summary(card.rows, papers=list(ran))
    if faults:
        ch.markdown(f"**Who is at fault.** {faults} Each paper's claim table below gives every row's fault and the "
                    "evidence that decides it.")


def show_claims(ch, card: Card, paper: str) -> None:
    """A paper's claims as its chapter shows them (claims_view), with the count per verdict."""
    rows = claims_view.chapter_claims(card.rows, card.notes, card.claims_file, paper)
    if rows.empty:
        return
    c = next(headline.counts(card.rows, card.claims_file, papers=[paper]).itertuples())   # as page 1 counts
    own = f" {headline.own_cell(c)}, counted apart." if headline.own_cell(c) else ""
    ch.markdown(f"{plural(c.claim_rows, 'claim row')} of the paper: " + ", ".join(
        f"{getattr(c, v)} {v.replace('_', ' ')}" for v in VERDICTS if getattr(c, v)) + "." + own)
    # the chapter shows the same table: here it is folded, so the scorecard stays one page of answers
    with chapter.folded("Each claim row, its reason and who is at fault (the table of the paper's chapter)"):
        ch.claims(rows, f"{paper}_claims.csv", "As in the paper's chapter.")


# --------------------------------------------------------------------------- the other papers


def show_other_papers(ch, card: Card) -> None:
    """Per paper its claims and the numbers it quotes."""
    for paper, title in OTHER_PAPERS.items():
        rows = paper_rows(card, paper)
        if rows.empty:
            ch.markdown(NOT_RUN.format(title))
            continue
        ch.markdown(f"### {title}")
        show_claims(ch, card, paper)
        quoted = numbers_of(rows)
        if len(quoted):
            show_numbers(ch, quoted, f"{paper}_quoted_numbers.csv",
                         "Numbers the paper quotes in its text, against our per-run range.")
