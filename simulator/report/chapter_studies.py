"""Which studies the paper chapters read, and so which enabled studies get a generated page instead.

A chapter receives the tables of every enabled study whose `paper:` is its paper
(workflow/rules/common.smk get_study_tables), but draws only the studies it was written for, by
name. A study is *claimed* when both hold: its paper has a chapter, and its name is one that
chapter reads (CLAIMED below). Every other enabled study (a new name such as a user's
`my_sweep.yaml`, whatever its `paper:`, or a paper with no chapter) is *unclaimed*: it gets a page
of its own under "Your studies" (notebooks/study.ipynb, study_page.py), so adding a sweep needs no
code. tests/test_chapter_studies.py checks that the repository's own studies are all claimed.
"""
from __future__ import annotations

# paper id (a chapter: notebooks/<paper>.ipynb) -> the studies its notebook and figure modules read
CLAIMED = {
    "mm1": ("mm1_lambda", "mm1_K", "mm1_N", "mm1_lambda_curve", "mm1_K_curve", "mm1_N_curve", "mm1_cwnd",
            "mm1_analytic", "mm1_replay_lambda", "mm1_replay_K", "mm1_replay_N"),
    "qtcol": ("qt_single_static", "qt_bandwidth_change", "qt_delay_change", "qt_multiflow", "qt_buffer_sweep",
              "qt_buffer_sweep_devq"),
    "mininet": ("mn_high_latency",),
    "ns2": ("ns2_topology", "ns2_flows", "ns2_bandwidth", "ns2_delay", "ns2_queue"),
    "testbed": ("tb_matrix", "tb_sensitivity", "tb_cross_traffic"),
    "textbook": ("textbook_loss", "textbook_periodic"),        # also reads mm1_analytic (the M/M/1/K closed forms), the mm1 paper's
    "validation": ("validation_ns3",),     # run by the optional target `validation`, not by config.yaml
}


def claimed(name: str, paper: str) -> bool:
    """Study `name` of paper `paper` is drawn by that paper's chapter."""
    return name in CLAIMED.get(paper, ())


def unclaimed(papers: dict) -> list:
    """Names of the studies no chapter reads, in the given order; `papers` maps study name -> paper id."""
    return [name for name, paper in papers.items() if not claimed(name, paper)]
