"""End to end: a tiny real run of the whole workflow (simulate -> tables -> scorecard -> notebooks -> book).

Copies the repository's files (tracked and not ignored, plus the built simulator extensions) to a
temporary directory, puts the shared reference data beside it as ../shared (the layout of a clone),
runs `snakemake --cores 2 --configfile config/test/config.yaml` and checks the outputs.
Slow (a few minutes; subprocess timeout 30 min): deselect with `pytest -m "not slow"`.
"""
import subprocess
import sys

import pandas as pd
import pytest

from workflow_copy import copy_repo, find_reference

SCORECARD_COLUMNS = ["paper", "item", "variant", "metric", "paper_value", "ours_mean", "ci_low", "ci_high",
                     "run_p025", "run_p975", "n_seeds", "verdict"]


@pytest.mark.slow
def test_tiny_workflow_builds_scorecard_and_book(tmp_path):
    reference = find_reference()
    if reference is None:
        pytest.skip("shared reference data not found (set TCPSIM_REFERENCE_DIR)")
    repo = copy_repo(tmp_path)            # with ../shared/reference beside it, as in a clone

    cmd = [sys.executable, "-m", "snakemake", "--cores", "2", "--configfile", "config/test/config.yaml"]
    r = subprocess.run(cmd, cwd=repo, capture_output=True, text=True, timeout=1800)
    logs = "\n".join(f"--- {p}\n{p.read_text()[-3000:]}" for p in sorted((repo / "results/logs").rglob("*.log"))
                     if "report" in str(p)) if (repo / "results/logs").exists() else ""
    assert r.returncode == 0, r.stdout[-5000:] + r.stderr[-5000:] + logs

    html = repo / "results/book/_build/html"
    for page in ("index", "intro", "method", "mm1", "qtcol", "mininet", "ns2", "testbed", "scorecard", "provenance",
                 "mininet_parameters", "ns2_parameters", "testbed_parameters"):
        assert (html / f"{page}.html").exists(), page
    mm1 = (html / "mm1.html").read_text()
    assert "Table V" in mm1 and "<img" in mm1 and "mathjax" in mm1.lower()
    assert "cdn.jsdelivr" not in mm1  # offline MathJax
    prov = (html / "provenance.html").read_text()
    assert "provenance.json" in prov and "git commit" in prov and "simulator version" in prov
    assert "mm1_lambda" in prov and "1-3" in prov  # per-study table: study, seeds per point
    qtcol = (html / "qtcol.html").read_text()  # the QtColFair chapter (tiny qt_single_static study)
    assert "qt_single_static.yaml" in qtcol and "<img" in qtcol and "Figures 7" in qtcol
    assert list((repo / "results/figures/qtcol").glob("*.png"))
    assert (repo / "results/downloads/qtcol/qtcol_published_vs_ours.csv").exists()
    for chapter, study in (("mininet", "mn_high_latency"), ("ns2", "ns2_queue"), ("testbed", "tb_matrix")):
        page = (html / f"{chapter}.html").read_text()
        assert f"{study}.yaml" in page and "<img" in page, chapter
        assert list((repo / f"results/figures/{chapter}").glob("*.png")), chapter
        assert list((repo / f"results/downloads/{chapter}").glob("*.csv")), chapter
    for nb in ("mm1", "qtcol", "mininet", "ns2", "testbed", "scorecard"):
        assert (repo / f"results/notebooks/{nb}.ipynb").exists()
    assert list((repo / "results/figures/mm1").glob("*.png"))

    card = pd.read_csv(repo / "results/scorecard.csv")
    assert list(card.columns) == SCORECARD_COLUMNS
    mm1_rows = card[card["paper"] == "mm1"]
    assert len(mm1_rows) == 2 * 108 + 2 * 9
    # mm1 rows first, then the QtColFair rows, then the other papers' claims
    assert list(card["paper"].unique()) == ["mm1", "qtcol", "mininet", "ns2", "testbed"]
    for paper, claims in (("mininet", ["mn-1", "mn-2"]), ("ns2", [f"ns2-{i}" for i in range(1, 8)]),
                          ("testbed", [f"tb-{i}" for i in range(1, 6)])):
        assert set(claims) <= set(card[card["paper"] == paper]["item"]), paper
    qt = card[card["paper"] == "qtcol"]
    reference_rows = len(pd.read_csv(reference / "qtcolfair_results.csv"))
    assert len(qt) == reference_rows + 9 and (qt["variant"] == "ns3_scenario").all()
    assert set(qt[qt["item"] == "qt-1"]["verdict"]) <= {"reproduced", "not_reproduced", "untestable"}
    assert set(card["verdict"]) <= {"inside", "outside", "missing", "reproduced", "not_reproduced", "untestable"}
    assert (card["verdict"].isin(["inside", "outside"])).any()

    # editing a notebook reruns only report rules, never a simulation
    dry = subprocess.run(cmd + ["-n", "--forcerun", "notebook_mm1"], cwd=repo, capture_output=True, text=True)
    assert dry.returncode == 0, dry.stderr
    assert "simulate" not in dry.stdout and "aggregate" not in dry.stdout
