"""A study's cost is known before it runs (simulator/cost.py): `validate` prints each study's estimated
packets and wall time, a run estimated above `max_packets_per_run` is refused naming the point, and a
study's grid and seed counts are counted before any list of points, seeds or run files is built, so
that `validate` and `snakemake -n` answer with bounded memory at any declared maximum.
(Speed is measured by hand and in benchmarks, never here: these tests assert messages and memory.)"""
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

import simulator
from simulator.cost import MAX_PACKETS_PER_RUN, run_packets
from simulator.run_limits import MAX_RUN_FILES
from simulator.study import SCHEMA_PATH, load_study
from simulator.study_errors import StudyError
from workflow_copy import ROOT, copy_repo

MAX_RSS_MB = 300      # a refused study costs little more than the interpreter and its imports

# the example: 100 flows at 100 Gbit/s for 10,000 s validated "ok"; about 17 hours per seed
HUGE = {"study": "huge_run", "paper": "mininet", "title": "100 flows at 100 Gbit/s for 10,000 s",
        "model": "dumbbell", "grid": {"algorithm": ["cubic", "reno"]},
        "fixed": {"flows": 100, "bottleneck_mbps": 100000, "access_gbps": 1000, "duration": 10000,
                  "sample_interval": 1}}
MM1 = {"study": "s", "paper": "mm1", "title": "t", "model": "mm1",
       "grid": {"variant": ["standard"], "algorithm": ["reno"], "lambda": [5]},
       "fixed": {"mu": 10, "K": 5, "theta": 1, "N": 50}}


def write(folder: Path, doc: dict, name=None) -> Path:
    doc = {**doc, "study": name or doc["study"]}
    path = folder / f"{doc['study']}.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    return path


def with_peak_rss(cmd, cwd) -> tuple[subprocess.CompletedProcess, float]:
    """Run cmd; its result and the peak RSS (MB) of it and its children, measured by a fresh parent."""
    probe = ("import resource, subprocess, sys, json; r = subprocess.run(sys.argv[1:], capture_output=True, text=True); "
             "print(json.dumps([r.returncode, r.stdout, r.stderr, "
             "resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024]))")
    out = subprocess.run([sys.executable, "-c", probe, *map(str, cmd)], cwd=cwd, capture_output=True, text=True,
                         timeout=600)
    code, stdout, stderr, mb = json.loads(out.stdout)
    return subprocess.CompletedProcess(cmd, code, stdout, stderr), mb


def validate(*files, cwd=ROOT):
    return with_peak_rss([sys.executable, "-m", "simulator", "validate", *files], cwd)


# ----------------------------------------------------------------- the estimate
def test_huge_run_is_refused_naming_the_point_estimate_and_key(tmp_path):
    f = write(tmp_path, HUGE)
    with pytest.raises(StudyError) as e:
        load_study(f)
    msg = str(e.value)
    for part in [f"{f}: point 'algorithm~cubic'", "1.2e+11 packets", "h on this machine",
                 "above max_packets_per_run 1e+10", "add `max_packets_per_run: 2e+11`"]:
        assert part in msg, (part, msg)
    r, _ = validate(f)
    assert r.returncode == 2 and "Traceback" not in r.stderr and "point 'algorithm~cubic'" in r.stderr, r.stderr


def test_huge_run_validates_once_the_key_is_raised(tmp_path):
    f = write(tmp_path, {**HUGE, "max_packets_per_run": 2e11})
    assert load_study(f).max_packets_per_run == 2e11
    r, _ = validate(f)
    assert r.returncode == 0, r.stderr
    assert re.search(r"study huge_run, 2 points x \d+ seeds?, up to [\d.]+e\+1\d packets, up to [\d.]+ days", r.stdout)


def test_validate_prints_each_studys_estimate():
    r, _ = validate("config/studies/qtcol/qt_single_static.yaml", "config/config.yaml")
    assert r.returncode == 0, r.stderr
    line = r"study {}, \d+ points x \d+ seeds?, up to [\d.]+(e\+\d+)? packets, up to [\d.]+ (s|min|h) on this machine"
    assert re.search(line.format("qt_single_static"), r.stdout), r.stdout
    assert re.search(r"workflow config, \d+ studies, \d+ points, up to .* packets, up to .* on this machine", r.stdout)
    assert re.search(r"study ns2_queue: \d+ points x \d+ seeds, up to", r.stdout), r.stdout


def test_ceiling_is_declared_with_a_range_and_a_default_far_above_every_study():
    declared = json.loads(SCHEMA_PATH.read_text())["properties"]["max_packets_per_run"]
    assert declared["minimum"] == 1 and declared["maximum"] >= MAX_PACKETS_PER_RUN
    files = [*ROOT.glob("config/studies/**/*.yaml"), *ROOT.glob("config/test/studies/*.yaml")]
    assert len(files) > 40
    largest = max(run_packets(p.params) for f in files for p in load_study(f).points())
    assert largest * 100 < MAX_PACKETS_PER_RUN


@pytest.mark.parametrize("study, index, low, high", [
    ("config/test/studies/qt_single_static.yaml", 0, 0.9, 1.05),   # one flow keeps its link full
    ("config/test/studies/mn_high_latency.yaml", 0, 0.75, 1.05),  # 15 s at a 400 ms RTT: start-up is a fifth of it
    ("config/test/studies/mm1_lambda.yaml", 0, 1.0, 1.0),         # the paper's code sends exactly N
])
def test_estimate_against_real_runs(study, index, low, high):
    """The estimate bounds what a real run simulates, and is close to it where the link stays full."""
    point = load_study(ROOT / study).points()[index]
    m = simulator.run(point.params, 1)["metrics"]
    actual = m["sent"] + m.get("acks", 0)
    assert low <= actual / run_packets(point.params) <= high, (actual, run_packets(point.params))


# ----------------------------------------------------------------- counting before expanding
def test_seeds_at_their_maximum_one_per_job_are_refused_with_the_keys(tmp_path):
    f = write(tmp_path, {**MM1, "seeds": 100000, "seeds_per_job": 1})
    r, mb = validate(f)
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert (f"{f}: seeds_per_job: 1 points x 100000 seed batches (100000 seeds, 1 per job) = 100000 run files, "
            f"above the limit of {MAX_RUN_FILES} run files per study") in r.stderr
    assert "Raise seeds_per_job (e.g. seeds_per_job: 10)" in r.stderr
    assert mb < MAX_RSS_MB, mb


def grid_of(n_lambda, n_k):
    return {**MM1["grid"], "lambda": list(range(1, n_lambda + 1)), "K": list(range(1, n_k + 1))}


@pytest.mark.parametrize("points, expected", [
    (10**8, "grid: 100000000 points, above the limit of 10000 grid points per study"),   # max_runs allows it
    (10**8 + 10**4, "grid: 100010000 points x 1 seeds = 100010000 runs, above the limit of 100000000 runs"),
])
def test_max_runs_at_its_declared_maximum_refuses_a_huge_grid_with_little_memory(tmp_path, points, expected):
    declared = json.loads(SCHEMA_PATH.read_text())["properties"]["max_runs"]["maximum"]
    assert declared == 10**8
    doc = {**MM1, "max_runs": declared, "grid": grid_of(10**4, points // 10**4)}
    doc["fixed"] = {k: v for k, v in MM1["fixed"].items() if k != "K"}
    f = write(tmp_path, doc)
    r, mb = validate(f)
    assert r.returncode == 2 and f"{f}: {expected}" in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert mb < MAX_RSS_MB, mb


def test_a_grid_at_the_run_file_limit_still_validates(tmp_path):
    doc = {**MM1, "grid": grid_of(100, MAX_RUN_FILES // 100), "seeds": 1}
    doc["fixed"] = {k: v for k, v in MM1["fixed"].items() if k != "K"}
    r, mb = validate(write(tmp_path, doc))
    assert r.returncode == 0 and f"{MAX_RUN_FILES} points x 1 seed," in r.stdout, r.stderr
    assert mb < MAX_RSS_MB, mb


@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    return copy_repo(tmp_path_factory.mktemp("cost"))


def dry_run(repo: Path, doc: dict):
    """`snakemake -n` with a config enabling only this study (one seed per point)."""
    studies = repo / "tmp_studies"
    studies.mkdir(exist_ok=True)
    for old in studies.glob("*.yaml"):
        old.unlink()
    write(studies, doc)
    (repo / "tmp_config.yaml").write_text(f"studies: [{doc['study']}]\nstudy_dir: tmp_studies\nprofile: default\n"
                                          "profiles:\n  default:\n    seeds: 1\n")
    return with_peak_rss([sys.executable, "-m", "snakemake", "-n", "tables", "--configfile", "tmp_config.yaml"], repo)


@pytest.mark.parametrize("name, doc, expected", [
    ("huge_run", HUGE, "point 'algorithm~cubic': one run is estimated at 1.2e+11 packets"),
    ("seeds", {**MM1, "study": "seeds", "seeds": 100000, "seeds_per_job": 1}, "= 100000 run files, above the limit"),
    ("grid", {**MM1, "study": "grid", "max_runs": 10**8, "grid": grid_of(10**4, 10**4),
              "fixed": {"mu": 10, "theta": 1, "N": 50}}, "grid: 100000000 points, above the limit"),
])
def test_snakemake_dry_run_refuses_before_any_list_is_built(repo, name, doc, expected):
    r, mb = dry_run(repo, doc)
    out = r.stdout + r.stderr
    assert r.returncode != 0 and f"tmp_studies/{doc['study']}.yaml: " in out and expected in out, out[-2000:]
    assert out.count(expected) == 1 and "rule simulate" not in out, out[-2000:]
    assert mb < MAX_RSS_MB, mb
