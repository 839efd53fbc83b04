"""Shared fixtures: one uninterrupted reference run of the tiny test config (tables target).

Used by the interruption, determinism and SLURM tests, which compare their own runs with it byte
for byte (results/tables/*, results/traces/*.csv, results/runs/**.jsonl).
"""
import time

import pytest

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
