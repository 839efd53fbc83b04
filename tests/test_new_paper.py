"""`python -m simulator new-paper NAME` scaffolds a sixth paper that the workflow builds into the book, touching
only its own folders and the catalogue (README: Adding a paper)."""
import hashlib
import json

from workflow_copy import copy_repo, simulator_cli, snakemake

PAPER_FOLDERS = ("reference/demo/", "config/studies/demo/", "simulator/report/papers/demo/")


def tree(repo) -> dict:
    return {p.relative_to(repo).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in repo.rglob("*") if p.is_file() and not p.relative_to(repo).parts[0] in ("results", ".snakemake")
            and "__pycache__" not in p.parts}


def test_a_scaffolded_paper_is_built_into_the_book_and_changes_only_its_folders(tmp_path):
    repo = copy_repo(tmp_path)
    before = tree(repo)
    made = simulator_cli(repo, "new-paper", "demo", "--title", "Demo paper (Doe)")
    assert made.returncode == 0, made.stderr
    after = tree(repo)
    changed = sorted(p for p in set(before) | set(after) if before.get(p) != after.get(p))
    assert [p for p in changed if not p.startswith(PAPER_FOLDERS)] == ["catalogue.yaml"]
    assert len(changed) == 8          # the catalogue + 7 files of its own
    # the default config's `studies: [catalogue]` runs its study: validate loads it with the others
    listed = simulator_cli(repo, "validate", "config/studies/demo/demo_example.yaml")
    assert listed.returncode == 0, listed.stderr

    # its chapter, its claim on page 1 (only its study runs here, to keep the test short)
    built = snakemake(repo, "--configfile", "config/test/config.yaml", "--config", "studies=[demo_example]",
                      "study_dir=config/studies", "--cores", "2", "results/book/_build/html/index.html", timeout=1200)
    assert built.returncode == 0, built.stderr[-3000:]
    html = repo / "results" / "book" / "_build" / "html"
    chapter = (html / "demo.html").read_text()
    assert "Demo paper (Doe)" in chapter and "demo-1" in chapter
    intro = (html / "intro.html").read_text()
    assert "Demo paper (Doe)" in intro and "demo.html" in intro
    origin = json.loads((repo / "results" / "origin.json").read_text())["studies"]    # the study file in its folder
    assert origin["demo_example"].endswith("config/studies/demo/demo_example.yaml")
    card = (repo / "results" / "scorecard.csv").read_text().splitlines()
    assert [line.split(",")[:2] for line in card[1:]] == [["demo", "demo-1"]]


def test_a_taken_or_unusable_name_writes_nothing(tmp_path):
    repo = copy_repo(tmp_path)
    before = tree(repo)
    for name, message in (("ns2", "'ns2' is already a chapter"), ("Bad-Name", "not a usable paper id")):
        out = simulator_cli(repo, "new-paper", name)
        assert out.returncode == 2 and message in out.stderr
    assert tree(repo) == before
