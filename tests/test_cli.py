"""python -m simulator run / batch / runs / validate, through a real subprocess."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import simulator

ROOT = Path(__file__).resolve().parents[1]
TINY = ROOT / "config/test/studies"
POINT = "variant~standard/algorithm~reno/lambda~5"


def cli(*args):
    """Run the CLI with the same simulator package this test imported (python -m puts cwd first)."""
    env = dict(os.environ)
    pkg_parent = str(Path(simulator.__file__).parents[1])
    env["PYTHONPATH"] = os.pathsep.join([pkg_parent] + [p for p in [env.get("PYTHONPATH")] if p])
    return subprocess.run(
        [sys.executable, "-m", "simulator", *map(str, args)],
        capture_output=True, text=True, cwd=pkg_parent, env=env, timeout=300,
    )


def test_run_prints_json_with_metrics():
    r = cli("run", TINY / "mm1_lambda.yaml", "--point", "variant=standard", "--point", "algorithm=reno",
            "--point", "lambda=5", "--seed", "2")
    assert r.returncode == 0, r.stderr
    rec = json.loads(r.stdout)
    assert rec["study"] == "mm1_lambda" and rec["seed"] == 2 and rec["point_path"] == POINT
    assert rec["params"]["algorithm"] == "reno" and rec["params"]["lambda"] == 5.0
    for m in ("throughput", "avg_delay", "loss_rate"):
        assert isinstance(rec["metrics"][m], (int, float))
    assert set(rec["provenance"]) == {"simulator_version", "git_commit", "python"}
    assert rec["provenance"]["simulator_version"] == simulator.__version__


def test_run_requires_every_grid_key():
    r = cli("run", TINY / "mm1_lambda.yaml", "--point", "algorithm=reno")
    assert r.returncode == 2
    assert "missing grid key(s) variant, lambda" in r.stderr


def test_run_unknown_value_has_hint():
    r = cli("run", TINY / "mm1_lambda.yaml", "--point", "variant=standard", "--point", "algorithm=renno",
            "--point", "lambda=5")
    assert r.returncode == 2
    assert "did you mean 'reno'" in r.stderr and "allowed values: none, reno" in r.stderr


def test_batch_one_line_per_seed_and_deterministic(tmp_path):
    outs = []
    for name in ("a", "b"):
        out = tmp_path / name / "seeds~1-3.jsonl"
        r = cli("batch", TINY / "mm1_lambda.yaml", "--point-path", POINT, "--seeds", "1-3", "--out", out)
        assert r.returncode == 0, r.stderr
        outs.append(out.read_bytes())
        assert [p.name for p in out.parent.iterdir()] == [out.name]  # no temp file left behind
    assert outs[0] == outs[1]
    recs = [json.loads(line) for line in outs[0].decode().splitlines()]
    assert [r["seed"] for r in recs] == [1, 2, 3]
    assert all(r["point_path"] == POINT and r["paper"] == "mm1" for r in recs)
    assert len({json.dumps(r["metrics"], sort_keys=True) for r in recs}) > 1  # seeds differ


def test_batch_trace_study_records_traces(tmp_path):
    out = tmp_path / "t.jsonl"
    r = cli("batch", TINY / "mm1_cwnd.yaml", "--point-path", "variant~standard/algorithm~cubic", "--seeds", "4-5",
            "--out", out)
    assert r.returncode == 0, r.stderr
    recs = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["seed"] for r in recs] == [4, 5]
    for rec in recs:
        assert len(rec["trace"]["t"]) == len(rec["trace"]["cwnd"]) > 0


def test_batch_unknown_point(tmp_path):
    r = cli("batch", TINY / "mm1_lambda.yaml", "--point-path", "variant~standard/algorithm~reno/lambda~6",
            "--seeds", "1-2", "--out", tmp_path / "x.jsonl")
    assert r.returncode == 2 and "no grid point" in r.stderr
    assert not (tmp_path / "x.jsonl").exists()


def test_validate(tmp_path):
    r = cli("validate", *sorted(TINY.glob("*.yaml")))
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("ok ") == len(list(TINY.glob("*.yaml")))
    bad = tmp_path / "mm1_lambda.yaml"
    bad.write_text((TINY / "mm1_lambda.yaml").read_text().replace("[none, reno, published_reno]", "[none, tahoee, published_reno]"))
    r = cli("validate", bad)
    assert r.returncode == 2
    assert str(bad) in r.stderr and "grid.algorithm[1]" in r.stderr and "did you mean 'tahoe'" in r.stderr


# ---------------------------------------------------------------- seed batches of seed-independent runs
def _records(study_file, point_path, first, last, shortcut=True):
    """batch_records of a point, or (shortcut=False) each seed run on its own."""
    from simulator.cli import batch_records, run_record
    from simulator.study import load_study, point_from_path

    study = load_study(study_file)
    point = point_from_path(study, point_path)
    if shortcut:
        return batch_records(study, point, first, last)
    return [run_record(study, point, s) for s in range(first, last + 1)]


def test_seed_independent_run_is_reused_bit_identically():
    """CUBIC on a loss-free dumbbell makes no random stream: the batch runs seed 1 once, and its
    records are byte for byte those of running each seed."""
    from simulator.core.seeding import streams_made

    made = streams_made()
    fast = _records(TINY / "qt_single_static.yaml", "algorithm~cubic", 1, 3)
    assert streams_made() == made                      # no stream: the reuse applies
    slow = _records(TINY / "qt_single_static.yaml", "algorithm~cubic", 1, 3, shortcut=False)
    assert [r["seed"] for r in fast] == [1, 2, 3]
    assert [json.dumps(r) for r in fast] == [json.dumps(r) for r in slow]


def test_seeded_runs_each_run():
    """A run that draws random numbers (M/M/1 arrivals) runs every seed: the records differ."""
    recs = _records(TINY / "mm1_lambda.yaml", POINT, 1, 3)
    assert [r["seed"] for r in recs] == [1, 2, 3]
    assert len({json.dumps(r["metrics"], sort_keys=True) for r in recs}) == 3


def test_runs_writes_each_named_file_as_batch_would(tmp_path):
    """A workflow job (`runs`, several run files) writes each file byte for byte as `batch` writes it alone,
    whatever else the job holds: here two points of a seeded study and one seed-independent point."""
    under = tmp_path / "runs"
    names = [f"{POINT}/seeds~1-3.jsonl", "variant~standard/algorithm~none/lambda~15/seeds~2-4.jsonl"]
    r = cli("runs", TINY / "mm1_lambda.yaml", "--under", under, *[under / n for n in names])
    assert r.returncode == 0, r.stderr
    for name in names:
        point, seeds = name.rsplit("/seeds~", 1)
        alone = tmp_path / "alone" / name
        assert cli("batch", TINY / "mm1_lambda.yaml", "--point-path", point, "--seeds", seeds.removesuffix(".jsonl"),
                   "--out", alone).returncode == 0
        assert (under / name).read_bytes() == alone.read_bytes()


@pytest.mark.parametrize("name, message", [
    ("variant~standard/algorithm~reno/lambda~6/seeds~1-2.jsonl", "no grid point"),
    ("variant~standard/algorithm~reno/lambda~5/seeds~2-1.jsonl", "not a seed range"),
    ("variant~standard/algorithm~reno/lambda~5/run.jsonl", "not a run file name"),
])
def test_runs_checks_every_name_before_simulating(tmp_path, name, message):
    under = tmp_path / "runs"
    good = under / POINT / "seeds~1-2.jsonl"
    r = cli("runs", TINY / "mm1_lambda.yaml", "--under", under, good, under / name)
    assert r.returncode == 2 and message in r.stderr, r.stderr
    assert not good.exists()                       # nothing written: the bad name came before any run


def test_runs_refuses_a_file_outside_its_folder(tmp_path):
    r = cli("runs", TINY / "mm1_lambda.yaml", "--under", tmp_path / "runs", tmp_path / f"{POINT}/seeds~1-2.jsonl")
    assert r.returncode == 2 and "not below --under" in r.stderr


# ---------------------------------------------------------------- which run files share a workflow job
def test_run_files_share_jobs_by_their_own_name():
    """Every file in exactly one job; a file's job does not depend on the other files (so adding grid points
    moves no existing file to another job); at most 8 jobs for a default study; more for huge ones."""
    from simulator.run_jobs import MAX_FILES_PER_JOB, job_count, share_out

    names = [f"algorithm~a{i}/x~{j}/seeds~1-10.jsonl" for i in range(5) for j in range(30)]
    jobs = share_out(names)
    assert sorted(n for files in jobs.values() for n in files) == sorted(names)
    assert len(jobs) == 8 and max(map(len, jobs.values())) < len(names) / 4
    more = share_out(names + ["algorithm~new/x~0/seeds~1-10.jsonl"])
    assert all(set(files) <= set(more[job]) for job, files in jobs.items())
    assert job_count(8 * MAX_FILES_PER_JOB + 1) == 9 and len(share_out(names, jobs=1)) == 1
    assert job_count(10, jobs=3) == 3 and job_count(3 * MAX_FILES_PER_JOB + 1, jobs=1) == 4
    assert max(map(len, share_out([f"p~{i}/seeds~1-1.jsonl" for i in range(20_000)]).values())) < 1.3 * MAX_FILES_PER_JOB
