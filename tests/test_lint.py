"""The Snakemake workflow: lint clean, test config resolves, a bad study aborts before any job."""
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from workflow_copy import copy_repo

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    """A copy without results/: the checkout's own results (of whichever configuration) play no part."""
    return copy_repo(tmp_path_factory.mktemp("lint"))


def snakemake(repo, *args):
    return subprocess.run(
        [sys.executable, "-m", "snakemake", "-s", "Snakefile", *map(str, args)],
        cwd=repo, capture_output=True, text=True, timeout=600,
    )


def test_lint_is_clean(repo):
    r = snakemake(repo, "--lint")
    out = r.stdout + r.stderr
    assert r.returncode == 0, out
    assert "Congratulations, your workflow is in a good condition!" in out, out


def test_test_config_dry_run(repo):
    r = snakemake(repo, "--configfile", "config/test/config.yaml", "-n", "tables")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "simulate" in r.stdout and "aggregate" in r.stdout


def test_bad_study_aborts_with_its_message(repo, tmp_path):
    studies = tmp_path / "studies"
    studies.mkdir()
    good = (ROOT / "config/test/studies/mm1_lambda.yaml").read_text()
    (studies / "mm1_lambda.yaml").write_text(good.replace("[none, reno, published_reno]", "[none, renoo, published_reno]"))
    cfg = tmp_path / "config.yaml"
    cfg.write_text(yaml.safe_dump({"studies": ["mm1_lambda"], "study_dir": str(studies), "profile": "default",
                                   "profiles": {"default": {"seeds": 2}}}))
    r = snakemake(repo, "--configfile", cfg, "-n", "tables")
    out = r.stdout + r.stderr
    assert r.returncode != 0
    assert "grid.algorithm[1]" in out and "did you mean 'reno'" in out and "mm1_lambda.yaml" in out


def test_unknown_study_name_is_reported(repo, tmp_path):
    cfg = tmp_path / "config.yaml"
    cfg.write_text(yaml.safe_dump({"studies": ["mm1_lamda"], "study_dir": "config/test/studies",
                                   "profile": "default", "profiles": {"default": {"seeds": 2}}}))
    r = snakemake(repo, "--configfile", cfg, "-n", "tables")
    out = r.stdout + r.stderr
    assert r.returncode != 0 and "did you mean 'mm1_lambda'" in out
