"""The chapter of a paper that has no notebook of its own (catalogue.yaml `notebook: notebooks/paper.ipynb`,
as `python -m simulator new-paper` makes it): the same order and rules as the five papers' chapters, built
from the catalogue entry, the paper's studies and its scorecard rows alone.

notebooks/paper.ipynb only calls, in this order:

    verdict_box.show(scorecard, claims_file, paper)         # the answer first
    paper_chapter.show_intro(ch, paper)                       # what the paper is and what we compare
    paper_chapter.show_claims(ch, paper, scorecard, scorecard_notes, claims_file)
    paper_chapter.show_numbers(ch, paper, reference_dir, table_files)   # its quoted numbers beside ours
    paper_chapter.show_studies(ch, study_files, table_files)  # each study: parameters, metrics, figures
    paper_chapter.show_own(ch, paper, table_files, trace_files, reference_dir)   # the paper's own figures

The last step calls `show(ch, tables, traces, numbers)` of simulator/report/papers/<paper>/chapter.py
when the paper's folder has one: where a paper's figures go.
"""
from __future__ import annotations

import importlib
from pathlib import Path

import pandas as pd

from simulator import paper_catalogue
from simulator.report import claims_view, io, paper_values, study_page

CLAIMS_NOTE = ("As decided by the scorecard (the same verdicts as the scorecard chapter). *Ours* is the number named "
               "under it, with its 95% confidence interval over the seeds; *at fault* says who is at fault for a "
               "verdict other than reproduced; *why* gives the reason (How a claim is decided). {link}.")


def entry(paper: str):
    return paper_catalogue.load().papers[paper]


def show_intro(ch, paper: str) -> None:
    e = entry(paper)
    ch.markdown(f"This chapter reproduces *{e.citation}* It publishes {e.published}. Our model: {e.model}.")


def show_claims(ch, paper: str, scorecard, scorecard_notes, claims_file) -> None:
    ch.markdown("## The paper's claims")
    claims = claims_view.chapter_claims(scorecard, scorecard_notes, claims_file, paper)
    ch.claims(claims, f"{paper}_claims.csv", note=CLAIMS_NOTE)


def ours_beside(numbers: pd.DataFrame, tables: pd.DataFrame) -> pd.DataFrame:
    """Each quoted number of the paper with our mean and 95% CI over seeds at the points it names."""
    rows = []
    for _, n in numbers.iterrows():
        t = tables[(tables["study"] == n["study"]) & (tables["metric"] == n["metric"])]
        if isinstance(n.get("algorithm"), str) and n["algorithm"] and "algorithm" in t:
            t = t[t["algorithm"] == n["algorithm"]]
        t = t[[paper_values.holds(str(n.get("where") or ""), r.to_dict()) for _, r in t.iterrows()]]
        ours = (study_page.mean_ci(t["mean"].mean(), t["ci_low"].min(), t["ci_high"].max()) if len(t) else "not run")
        rows.append({"where the paper says it": n["source"], "study": n["study"], "algorithm": n["algorithm"],
                     "metric": n["metric"], "paper": paper_values.text(n), "ours (mean, 95% CI)": ours})
    return pd.DataFrame(rows)


def show_numbers(ch, paper: str, reference_dir, table_files) -> None:
    numbers = paper_values.load(Path(reference_dir).parent, paper)
    if numbers.empty:
        return
    ch.markdown("## The paper's numbers beside ours")
    tables = io.load_tables(list(table_files))
    ch.table(ours_beside(numbers, tables), f"{paper}_numbers.csv",
             f"Table: each number the paper states ({entry(paper).paper_numbers} in the reference folder) and ours at "
             "the same points, mean over seeds with the 95% CI in brackets. {link}.")


def show_studies(ch, study_files, table_files) -> None:
    tables = {Path(t).stem: t for t in table_files}
    for f in study_files:
        name = Path(f).stem
        if name not in tables:
            continue
        page = study_page.load(f, tables[name])
        ch.markdown(f"## {page.study.title}")
        study_page.show_parameters(ch, page)
        study_page.show_figures(ch, page)


def show_own(ch, paper: str, table_files, trace_files, reference_dir) -> None:
    """The paper's own figures: simulator/report/papers/<paper>/chapter.py `show`, when it has one."""
    try:
        module = importlib.import_module(f"simulator.report.papers.{paper}.chapter")
    except ModuleNotFoundError as e:
        if e.name not in (f"simulator.report.papers.{paper}", f"simulator.report.papers.{paper}.chapter"):
            raise
        return
    tables = io.load_tables(list(table_files))
    traces = io.load_traces(list(trace_files)) if trace_files else None
    module.show(ch, tables, traces, paper_values.load(Path(reference_dir).parent, paper))
