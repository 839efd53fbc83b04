"""Which studies the chapters read (simulator/report/chapter_studies.py): the repository's own studies
all belong to a chapter, so only a study of the user's gets a generated page."""
import json
from pathlib import Path

import pytest

from simulator.report.chapter_studies import CLAIMED, EXAMPLES, claimed, unclaimed
from simulator.study import load_study
from workflow_copy import ROOT

REPO_STUDIES = sorted((ROOT / "config/studies").rglob("*.yaml"))
TEST_STUDIES = sorted((ROOT / "config/test/studies").glob("*.yaml"))


def chapter_code(paper: str) -> str:
    """Text of a chapter's notebook and of the report modules (where its figures read studies by name)."""
    nb = json.loads((ROOT / f"notebooks/{paper}.ipynb").read_text())
    cells = "\n".join("".join(c["source"]) for c in nb["cells"])
    modules = "\n".join(p.read_text() for p in sorted((ROOT / "simulator/report").rglob("*.py")))
    return cells + modules


@pytest.mark.parametrize("path", REPO_STUDIES + TEST_STUDIES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_study_of_the_repository_is_read_by_its_papers_chapter(path):
    s = load_study(path)
    assert claimed(s.name, s.paper) or (s.name in EXAMPLES and path.parent == ROOT / "config/studies"), (
        f"{path.relative_to(ROOT)}: no chapter reads it; add it to CLAIMED in simulator/report/chapter_studies.py "
        "if a chapter draws it (otherwise it gets a generated page under 'Your studies')")


def test_claimed_names_are_studies_of_the_repository_and_their_chapter_names_them():
    names = {p.stem for p in REPO_STUDIES}
    for paper, studies in CLAIMED.items():
        code = chapter_code(paper)
        for name in studies:
            assert name in names, f"CLAIMED[{paper!r}] names {name}, which is no file of config/studies"
            # by name, or by the prefix a chapter selects a family with (mm1_replay_{sweep})
            assert name in code or name.rsplit("_", 1)[0] + "_" in code, f"{paper} chapter never reads {name}"


def test_a_new_name_or_a_paper_without_chapter_is_unclaimed():
    papers = {"mm1_lambda": "mm1", "my_sweep": "mm1", "mm1_K": "qtcol", "mine": "my_paper", "tb_matrix": "testbed"}
    assert unclaimed(papers) == ["my_sweep", "mm1_K", "mine"]
    assert unclaimed({}) == []


def test_every_chapter_of_claimed_has_a_notebook():
    assert all((ROOT / f"notebooks/{paper}.ipynb").exists() for paper in CLAIMED)
    assert not (Path(ROOT) / "notebooks/study.ipynb").read_text().count("/tmp/")
