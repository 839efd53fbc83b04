"""Which studies the paper chapters read, and so which enabled studies get a generated page instead.

A chapter receives the tables of every enabled study whose `paper:` is its paper
(workflow/rules/common.smk get_study_tables), but draws only the studies it was written for, by
name. A study is *claimed* when both hold: its paper has a chapter, and its name is one that
chapter reads (CLAIMED below). Every other enabled study (a new name such as a user's
`my_sweep.yaml`, whatever its `paper:`, or a paper with no chapter) is *unclaimed*: it gets a page
of its own under "Your studies" (notebooks/study.ipynb, study_page.py), so adding a sweep needs no
code. tests/test_chapter_studies.py checks that the repository's own studies are all claimed, but for EXAMPLES.
"""
from __future__ import annotations

from simulator import paper_catalogue

# chapter id (a paper's: notebooks/<paper>.ipynb, or another) -> the studies its notebook and figure modules
# read (catalogue.yaml); the textbook chapter also reads mm1_analytic, the M/M/1 paper's
CLAIMED = {c: paper_catalogue.load().studies_of(c) for c in (*paper_catalogue.load().papers, *paper_catalogue.load().chapters)}

# studies the repository ships as examples of a user's own study: no chapter reads them, and they get the generated
# page a user's study gets (README "Your own network")
EXAMPLES = ("network_parking_lot",)


def claimed(name: str, paper: str) -> bool:
    """Study `name` of paper `paper` is drawn by that paper's chapter."""
    return name in CLAIMED.get(paper, ())


def unclaimed(papers: dict) -> list:
    """Names of the studies no chapter reads, in the given order; `papers` maps study name -> paper id."""
    return [name for name, paper in papers.items() if not claimed(name, paper)]
