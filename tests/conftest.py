"""Shared fixtures: real runs of the tiny test config, each made once per test session.

* `reference_run`: `snakemake --cores 1 tables`, the uninterrupted reference that the interruption,
  determinism and SLURM tests compare their own runs with byte for byte.
* `built_report`: the whole workflow, `snakemake --cores 2` (simulations -> tables -> claims ->
  scorecard -> notebooks -> HTML book), read by the end-to-end tests and by the claim tests that
  need real tables.

Both run in a fresh copy of the repository with nothing beside it, as a user's clone.
The skip policy (which reasons may skip a test) is in skip_policy.py.
"""
import time

import pytest

from skip_policy import check_skips
from workflow_copy import TEST_CONFIG, copy_repo, result_files, snakemake


@pytest.fixture(scope="session")
def reference_run(tmp_path_factory):
    """(repo copy, {path: bytes}, wall seconds) of `snakemake --cores 1 tables` with the tiny config."""
    repo = copy_repo(tmp_path_factory.mktemp("reference"))
    t0 = time.monotonic()
    r = snakemake(repo, "--cores", "1", "tables", "--configfile", TEST_CONFIG, timeout=1200)
    wall = time.monotonic() - t0
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    files = result_files(repo)
    assert any(k.startswith("results/runs/") for k in files) and any(k.endswith(".provenance.json") for k in files)
    return repo, files, wall


@pytest.fixture(scope="session")
def built_report(tmp_path_factory):
    """The repo copy after `snakemake --cores 2 --configfile config/test/config.yaml` (the whole workflow)."""
    repo = copy_repo(tmp_path_factory.mktemp("report"))
    r = snakemake(repo, "--cores", "2", "--configfile", TEST_CONFIG, timeout=1800)
    logs = "\n".join(f"--- {p}\n{p.read_text()[-3000:]}" for p in sorted((repo / "results/logs").rglob("*.log"))
                     if "report" in str(p)) if (repo / "results/logs").exists() else ""
    assert r.returncode == 0, r.stdout[-5000:] + r.stderr[-5000:] + logs
    return repo


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    check_skips(terminalreporter)
