"""End to end, as a new user: copy a study to my_sweep.yaml, change its grid, list it in the config, run
snakemake; the book gets a page for it (its parameters, a table of every metric, a figure per swept
numeric parameter) under "Your studies", and the browser check finds nothing wrong with it.

Done with the tiny test profile (its config and study folder) on a copy of the tiny book the session
fixture `built_report` built, so only the new study's runs, the pages that read it and the book run
again. The repository's own studies are all read by a chapter: the tiny book has no "Your studies".
"""
import json
import re
import shutil

import pandas as pd
import pytest
import yaml

from workflow_copy import TEST_CONFIG, snakemake

GRID = [4, 8, 12]


def add_users_sweep(repo):
    """The README's steps (Adding a sweep), with the tiny profile's study folder and config."""
    studies = repo / "config/test/studies"
    text = (studies / "mm1_lambda.yaml").read_text()
    assert "study: mm1_lambda" in text and "lambda: [5, 15]" in text
    text = text.replace("study: mm1_lambda", "study: my_sweep").replace("lambda: [5, 15]", f"lambda: {GRID}")
    (studies / "my_sweep.yaml").write_text(text + "seeds: 2                              # a quick look\n")
    config = repo / TEST_CONFIG
    lines = config.read_text().splitlines()
    at = lines.index("studies:") + 1
    config.write_text("\n".join(lines[:at] + ["  - my_sweep          # mine"] + lines[at:]) + "\n")
    assert "my_sweep" in yaml.safe_load(config.read_text())["studies"]


@pytest.mark.slow
def test_the_tiny_book_has_no_page_of_its_own_studies(built_report):
    html = built_report / "results/book/_build/html"
    assert not (html / "your_studies.html").exists() and not list(html.glob("study_*.html"))


@pytest.mark.slow
def test_a_users_own_sweep_gets_a_page_with_its_table_and_figures(built_report, tmp_path):
    repo = tmp_path / "repo"
    shutil.copytree(built_report, repo, symlinks=True)     # results/ and .snakemake/ too: a user's built clone
    add_users_sweep(repo)
    r = snakemake(repo, "--cores", "2", "--configfile", TEST_CONFIG, timeout=1200)
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-4000:]
    assert "rule notebook_study" in r.stdout + r.stderr

    table = pd.read_csv(repo / "results/tables/my_sweep.csv")
    points = table["point"].nunique()
    assert points == 4 * len(GRID) and set(table["n"]) == {2}

    html = repo / "results/book/_build/html"
    page = (html / "study_my_sweep.html").read_text()
    assert "my_sweep</span></code>: Tables V-VII" in page or "my_sweep</code>: Tables V-VII" in page   # titled by the study
    assert "config/test/studies/my_sweep.yaml" in page            # captions name the study file
    # the parameters and the table of every metric, one row per grid point, units in the headers
    assert "arrival rate" in page and "grid (swept)" in page
    metrics = pd.read_csv(repo / "results/downloads/study_my_sweep/my_sweep_metrics.csv")
    assert len(metrics) == points and "throughput (packets/s)" in metrics.columns
    assert "throughput (packets/s)" in page and "Reno, variant=standard, lambda=12" in page
    assert "_static/downloads/study_my_sweep/my_sweep_metrics.csv" in page
    assert (html / "_static/downloads/study_my_sweep/my_sweep_metrics.csv").exists()
    # a figure of every metric against lambda, as an image that exists, with its caption and data
    images = re.findall(r'<img[^>]+src="([^"]+\.png)"', page)
    assert images and all((html / src).exists() for src in images), images
    assert (repo / "results/figures/study_my_sweep/my_sweep_vs_lambda.png").exists()
    assert "Figure: every metric of" in page and "against lambda" in page
    assert (html / "_static/downloads/study_my_sweep/my_sweep_vs_lambda.csv").exists()
    # listed under "Your studies", and clean in the browser
    assert 'href="study_my_sweep.html"' in (html / "your_studies.html").read_text()
    report = json.loads((repo / "results/book_check.json").read_text())
    assert "study_my_sweep.html" in report["pages"] and "your_studies.html" in report["pages"]
    assert not report["problems"], report["problems"]
