"""Interruption and core count: SIGKILL the whole workflow (snakemake and its jobs) in the middle of a
`--cores 2` run, resume with `snakemake --unlock` + `snakemake --cores 1 --rerun-incomplete`, and get
results identical byte for byte to the uninterrupted `--cores 2` run of the whole workflow (fixture
built_report): tables, traces, provenance records and every run file.  So an interruption, the
number of cores (job order) and the target (`tables` or the whole report) change no result.
"""
import json
import subprocess

import pytest

from workflow_copy import TEST_CONFIG, copy_repo, kill_group, result_files, snakemake, snakemake_cmd, wait_for


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_sigkill_mid_run_then_resume_on_one_core_gives_identical_results(tmp_path, built_report):
    reference = result_files(built_report)
    repo = copy_repo(tmp_path)
    n_tables = sum(1 for k in reference if k.startswith("results/tables/") and k.endswith(".csv"))
    runs = repo / "results" / "runs"
    tables = repo / "results" / "tables"

    proc = subprocess.Popen(snakemake_cmd("--cores", "2", "tables", "--configfile", TEST_CONFIG), cwd=repo,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        started = wait_for(lambda: len(list(runs.rglob("*.jsonl"))) >= 12, timeout=600)
    finally:
        kill_group(proc)  # SIGKILL to snakemake and every running job
    assert started, "no run files appeared"
    n_runs_at_kill = len(list(runs.rglob("*.jsonl")))
    n_tables_at_kill = len(list(tables.glob("*.csv"))) if tables.exists() else 0
    assert n_tables_at_kill < n_tables, "the run finished before it could be killed"
    for f in runs.rglob("*.jsonl"):  # whatever exists is complete: outputs are renamed into place
        for line in f.read_text().splitlines():
            json.loads(line)

    unlock = snakemake(repo, "--unlock", "tables", "--configfile", TEST_CONFIG, timeout=300)
    assert unlock.returncode == 0, unlock.stderr[-3000:]
    resume = snakemake(repo, "--cores", "1", "--rerun-incomplete", "tables", "--configfile", TEST_CONFIG,
                       timeout=1200)
    assert resume.returncode == 0, resume.stdout[-3000:] + resume.stderr[-3000:]

    got = result_files(repo)
    assert sorted(got) == sorted(reference)
    differ = [k for k in reference if got[k] != reference[k]]
    assert not differ, f"differ from the uninterrupted run: {differ[:10]}"
    print(f"killed after {n_runs_at_kill} run files and {n_tables_at_kill}/{n_tables} tables; "
          f"resumed: {len(got)} result files identical")
