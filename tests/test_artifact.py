"""What a reviewer needs for the ACM "available" badge is in the repository and says one thing: LICENSE,
CITATION.cff and .zenodo.json agree with pyproject.toml on version and licence; the book's Artifact
evaluation page (simulator/report/artifact_page.py) gives the README's own commands and never a path on
someone's machine as the repository's address."""
import json
import re

import pytest
import yaml

from simulator.report import artifact_page
from workflow_copy import ROOT

from test_book_pages import page


def test_citation_and_archive_metadata_agree_with_pyproject():
    version = artifact_page.project_field(ROOT / "pyproject.toml", "version")
    licence = artifact_page.project_field(ROOT / "pyproject.toml", "license")
    assert re.fullmatch(r"\d+\.\d+\.\d+", version) and licence == "MIT"
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    zenodo = json.loads((ROOT / ".zenodo.json").read_text())
    assert (cff["version"], cff["license"]) == (version, licence)
    assert (zenodo["version"], zenodo["license"]) == (version, licence)
    assert cff["cff-version"] == "1.2.0" and cff["authors"] and cff["title"] == zenodo["title"]
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")


@pytest.mark.parametrize("remote, shown", [
    ("https://user:token@example.org/group/tcpsim.git", "<https://example.org/group/tcpsim.git>"),
    ("git@example.org:group/tcpsim.git", "`git@example.org:group/tcpsim.git`"),
    ("/home/someone/tcpsim", artifact_page.NO_REMOTE),      # a clone of a local folder
    ("", artifact_page.NO_REMOTE),
])
def test_repository_address_is_public_or_said_to_be_missing(remote, shown):
    assert artifact_page.origin(remote) == shown


def test_repository_address_is_declared_once_and_the_archive_metadata_agrees():
    """CITATION.cff's repository-code is the one declared address; .zenodo.json's isSupplementTo URL repeats it
    (both empty while the project has no public address)."""
    assert artifact_page.declared_repository(ROOT) == artifact_page.archived_repository(ROOT)


def test_pages_take_the_repository_address_from_citation_cff_never_from_git(tmp_path):
    for f in ("README.md", "pyproject.toml"):
        (tmp_path / f).write_text((ROOT / f).read_text())
    cff = (ROOT / "CITATION.cff").read_text()
    (tmp_path / "CITATION.cff").write_text(cff)
    assert f"| repository | {artifact_page.NO_REMOTE} |" in artifact_page.generated(tmp_path, "0123abc")
    assert "not published yet" in artifact_page.NO_REMOTE and "/" not in artifact_page.NO_REMOTE.split("(")[0]
    (tmp_path / "CITATION.cff").write_text(cff + 'repository-code: "https://example.org/group/tcpsim"\n')
    assert "| repository | <https://example.org/group/tcpsim> |" in artifact_page.generated(tmp_path, "0123abc")


def test_page_gives_the_readme_commands_that_ci_runs():
    text = artifact_page.generated(ROOT, "0123abc")
    setup, tests = artifact_page.readme_commands(ROOT / "README.md")
    assert setup.startswith("python3 -m venv .venv && ") and "pytest" in tests
    assert f"```bash\n{setup}\n```" in text and f"```bash\n{tests}\n```" in text
    assert "`0123abc`" in text and "MIT" in text


@pytest.mark.slow
def test_built_artifact_page_names_version_and_commands(built_report):
    soup = page(built_report, "artifact")
    text = soup.get_text(" ")
    code = [pre.get_text("") for pre in soup.select("pre")]        # highlighted: a span per token
    version = artifact_page.project_field(ROOT / "pyproject.toml", "version")
    setup, tests = artifact_page.readme_commands(ROOT / "README.md")
    assert "Artifacts Available" in text and "Functional" in text and "Results Reproduced" in text
    assert version in text and any(setup in c for c in code) and any(tests in c for c in code), code
    assert "{{" not in text and str(built_report) not in text
    prov = page(built_report, "provenance").get_text(" ")
    assert "repository" in prov and str(built_report) not in prov
