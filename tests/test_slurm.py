"""Cluster execution: two tiny studies of config/test/config.yaml, one per model family (mm1_lambda:
the M/M/1 model; qt_single_static: the packet-network flow model, with traces), through the SLURM
executor plugin (`--profile workflow/profiles/slurm`) on the single-node cluster of
scripts/slurm_cluster.sh, compared byte for byte with the same files of a local run. (Two studies,
not all: each SLURM job costs seconds of scheduling, and more jobs would prove nothing more.)

Skipped, with the reason, when the cluster cannot be started here (not root, no apt/Debian
packages, no plugin). A cluster that was already running is used and left running; one this test
started is stopped (by PID) at the end. Every step has a timeout, so the test never hangs.
"""
import os
import shutil
import subprocess
import time

import pytest

from workflow_copy import ROOT, TEST_CONFIG, copy_repo, kill_group, result_files, snakemake_cmd

SCRIPT = ROOT / "scripts" / "slurm_cluster.sh"
STUDIES = ("mm1_lambda", "qt_single_static")
TARGETS = [f"results/tables/{s}.csv" for s in STUDIES] + ["results/traces/qt_single_static.csv"]


def of_studies(files: dict) -> dict:
    """The result files of STUDIES (run files, tables, provenance, traces)."""
    return {k: v for k, v in files.items() if any(f"/{s}/" in k or f"/{s}." in k for s in STUDIES)}


def cluster(action, timeout=900):
    return subprocess.run(["bash", str(SCRIPT), action], capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL)


@pytest.fixture(scope="module")
def slurm():
    if os.geteuid() != 0:
        pytest.skip("the single-node SLURM cluster needs root (apt-get, /etc/slurm, daemons)")
    pytest.importorskip("snakemake_executor_plugin_slurm", reason="pip install snakemake-executor-plugin-slurm")
    if not shutil.which("slurmctld") and not shutil.which("apt-get"):
        pytest.skip("slurmctld is not installed and apt-get is not available to install it")
    already = cluster("status", timeout=60).returncode == 0
    if not already:
        r = cluster("start")
        if r.returncode != 0:
            cluster("stop", timeout=120)
            pytest.skip(f"could not start the SLURM cluster: {(r.stdout + r.stderr)[-1500:]}")
    yield
    if not already:
        r = cluster("stop", timeout=120)
        assert r.returncode == 0, r.stderr


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_tiny_study_through_slurm_equals_local_run(tmp_path, slurm, built_report):
    reference = result_files(built_report)
    repo = copy_repo(tmp_path)
    cmd = snakemake_cmd("--profile", "workflow/profiles/slurm", *TARGETS, "--configfile", TEST_CONFIG)
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, cwd=repo, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=1500)
    except subprocess.TimeoutExpired:
        kill_group(proc)
        subprocess.run(["scancel", "--user", "root"], capture_output=True, timeout=60)
        pytest.fail("the SLURM run did not finish within 1500 s")
    wall = time.monotonic() - t0
    assert proc.returncode == 0, out[-5000:]
    assert "submitted with SLURM jobid" in out, out[-3000:]

    got, reference = result_files(repo), of_studies(reference)
    assert len(reference) > 10 and sorted(got) == sorted(reference)
    assert [k for k in reference if got[k] != reference[k]] == []
    msg = (f"SLURM run: {sum(1 for k in got if k.startswith('results/runs/'))} run files, "
           f"{sum(1 for k in got if k.endswith('.csv'))} tables identical to the local run; "
           f"wall time {wall:.0f} s")
    print(msg)
    (tmp_path / "slurm_wall_time.txt").write_text(msg + "\n")
