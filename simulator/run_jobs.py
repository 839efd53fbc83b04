"""How the workflow shares a study's run files out over jobs (workflow/rules/simulate.smk).

A job costs about 0.3 s before it simulates anything (Python, the simulator's imports, the study file),
while most M/M/1 and NS-2 grid points simulate in milliseconds: with one job per run file, most of the
report's time went to starting processes.  So each study's run files are shared out over a few jobs: 8,
or the study's `jobs:` (the M/M/1 studies, whose whole grid simulates in a second, take one).

A run file's job follows from its own name (a SHA-256 of it), not from its place in the grid: adding or
removing a grid point changes the job it falls in and no other, and a study's heavy points (say, its
BBR rows) spread over its jobs instead of filling one.  Which files share a job changes no result: each
run file is simulated on its own, from its own seeds.
"""
from __future__ import annotations

import hashlib
import math
from pathlib import PurePosixPath

JOBS_PER_STUDY = 8
# A job's command line names its outputs; the kernel caps one argument (the shell command) at 128 KiB.
MAX_FILES_PER_JOB = 400


def job_count(n_files: int, jobs: int | None = None) -> int:
    """How many jobs a study's n_files run files are shared out over: the study's `jobs` (default
    JOBS_PER_STUDY), or more where a job would write more than MAX_FILES_PER_JOB."""
    return max(jobs or JOBS_PER_STUDY, math.ceil(n_files / MAX_FILES_PER_JOB))


def job_of(run_name: str, n_jobs: int) -> int:
    """The job (0..n_jobs-1) of one run file, from its name below the study's folder."""
    return int.from_bytes(hashlib.sha256(run_name.encode()).digest()[:8], "big") % n_jobs


def share_out(run_names: list[str], jobs: int | None = None) -> dict[int, list[str]]:
    """The run files (names below the study's folder, e.g. 'algorithm~reno/lambda~5/seeds~1-10.jsonl')
    by job number (over job_count jobs): only jobs with files, each job's files in the order given."""
    n_jobs = job_count(len(run_names), jobs)
    by_job: dict[int, list[str]] = {}
    for name in run_names:
        by_job.setdefault(job_of(name, n_jobs), []).append(name)
    return dict(sorted(by_job.items()))


def parse_run_name(run_name: str) -> tuple[str, str]:
    """'algorithm~reno/lambda~5/seeds~1-10.jsonl' -> ('algorithm~reno/lambda~5', '1-10')."""
    path = PurePosixPath(run_name)
    if not (path.name.startswith("seeds~") and path.name.endswith(".jsonl") and str(path.parent) != "."):
        raise ValueError(f"{run_name!r} is not a run file name; allowed values: <point path>/seeds~<A>-<B>.jsonl")
    return str(path.parent), path.name.removeprefix("seeds~").removesuffix(".jsonl")
