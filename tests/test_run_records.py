"""A run file is evidence (issue 33): every record line carries the sha256 of its canonical JSON
(simulator/run_records.py), every reader verifies it, the provenance lists each run file's sha256, and a
refused run file stops the workflow before the aggregate job, with the previous table kept byte for byte."""
import hashlib
import json
import math
import re
import subprocess
import sys
from pathlib import Path

import pytest

from simulator import run_records
from simulator.report.aggregate import RunFileError, read_records
from simulator.validation import agreement, ours_runs
from workflow_copy import TEST_CONFIG, copy_repo, snakemake

ROOT = Path(__file__).resolve().parents[1]
POINT = "variant~standard/algorithm~reno/lambda~5"
OTHER = "variant~standard/algorithm~reno/lambda~10"


@pytest.fixture(scope="module")
def sealed(tmp_path_factory) -> Path:
    """A run file the simulator wrote, where the workflow keeps it: runs/mm1_lambda/<point>/seeds~1-2.jsonl."""
    out = tmp_path_factory.mktemp("runs") / "mm1_lambda" / POINT / "seeds~1-2.jsonl"
    r = subprocess.run([sys.executable, "-m", "simulator", "batch", "config/studies/mm1/mm1_lambda.yaml", "--point-path",
                        POINT, "--seeds", "1-2", "--out", str(out)], cwd=ROOT, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0, r.stderr
    return out


def edited(sealed: Path, tmp_path: Path, change, line=2, where=POINT) -> Path:
    """A copy of the run file at runs/mm1_lambda/<where>/, with `change(record)` applied to one line's record,
    written back as valid JSON keeping the record's seal (a hand edit)."""
    f = tmp_path / "mm1_lambda" / where / sealed.name
    f.parent.mkdir(parents=True)
    lines = sealed.read_text().splitlines()
    rec = json.loads(lines[line - 1])
    change(rec)
    lines[line - 1] = json.dumps(rec, separators=(",", ":"))
    f.write_text("\n".join(lines) + "\n")
    return f


def test_the_simulators_run_file_is_sealed_and_read(sealed):
    assert [r["seed"] for r in read_records([sealed])] == [1, 2]
    assert all(line.startswith('{"sha256":"') for line in sealed.read_text().splitlines())


def times_ten(rec):
    rec["metrics"]["throughput"] *= 10


@pytest.mark.parametrize("change", [
    times_ten,
    lambda rec: rec["metrics"].update(throughput=math.nan),                        # a NaN typed in
    lambda rec: rec["provenance"].update(git_commit="0" * 40),                    # a forged commit
    lambda rec: rec["provenance"].update(simulator_version="9.9.9"),              # a forged version
], ids=["metric_x10", "nan_typed_in", "forged_git_commit", "forged_simulator_version"])
def test_an_edited_record_is_refused_naming_file_and_line(sealed, tmp_path, change):
    f = edited(sealed, tmp_path, change)
    message = rf"^{f}: line 2: the record does not match its sha256 seal: .*delete it and rerun snakemake"
    with pytest.raises(RunFileError, match=message):
        read_records([f])
    refused_by_the_workflows_check(f, tmp_path, message)


def refused_by_the_workflows_check(f, tmp_path, message):
    """Rule verify_runs' check (which reads records only up to their metrics) refuses it too, writing no manifest."""
    manifest, log = tmp_path / "m.sha256", tmp_path / "v.log"
    assert run_records.check([f], manifest, log) == 1
    assert re.match(message, log.read_text()) and not manifest.exists()


def test_the_workflows_check_lists_the_sha256_of_good_files(sealed, tmp_path):
    manifest = tmp_path / "m.sha256"
    assert run_records.check([sealed], manifest, tmp_path / "v.log") == 0
    assert manifest.read_text() == f"{hashlib.sha256(sealed.read_bytes()).hexdigest()}  {sealed}\n"


def test_a_nan_the_simulator_wrote_is_covered_by_the_seal(tmp_path):
    rec = {"study": "s", "point_path": "x~1", "params": {}, "seed": 1, "metrics": {"delay": math.nan, "inf": math.inf}}
    line = run_records.seal(rec)
    assert "NaN" in line and "Infinity" in line
    got = run_records.verify(line, "f.jsonl", 1)
    assert math.isnan(got["metrics"]["delay"]) and got["metrics"]["inf"] == math.inf


def test_a_record_of_another_point_is_refused_naming_the_file(sealed, tmp_path):
    f = edited(sealed, tmp_path, lambda rec: None, where=OTHER)       # the file moved under another point's folder
    message = rf"^{f}: line 1: a record of study mm1_lambda, point {POINT}, in the run file of study mm1_lambda, " \
              rf"point {OTHER}"
    with pytest.raises(RunFileError, match=message):
        read_records([f])
    refused_by_the_workflows_check(f, tmp_path, message)


def test_a_record_without_a_seal_is_refused_with_what_to_do(sealed, tmp_path):
    f = edited(sealed, tmp_path, lambda rec: rec.pop("sha256"), line=1)     # as an older simulator wrote it
    with pytest.raises(RunFileError, match=rf"^{f}: line 1: the record has no sha256 seal: it was written by an "
                                           "older version of the simulator, or by hand; delete the file and rerun "
                                           "snakemake to regenerate it"):
        read_records([f])


def test_the_peer_simulators_sealed_records_verify_with_the_same_seal():
    records = run_records.read(ROOT / "reference/ns3/records.jsonl")     # sorted keys: the seal is the same
    assert len(records) == 236


def test_the_validations_own_side_is_sealed_and_an_edit_is_refused(tmp_path):
    out = tmp_path / "part~1-of-8.jsonl"
    assert ours_runs.main(["--study", str(ROOT / "config/test/studies/validation_ns3.yaml"), "--part", "1",
                           "--of", "8", "--out", str(out)]) == 0
    rec = run_records.read(out)[0]
    assert rec["side"] == "ours"
    rec["metrics"]["utilization_warm"] *= 10
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(rec) + "\n")
    with pytest.raises(RunFileError, match=rf"^{bad}: line 1: the record does not match its sha256 seal"):
        agreement.read_runs([bad])


def test_a_failing_aggregate_script_prints_one_line_and_keeps_the_traceback_in_its_log(tmp_path):
    """workflow/scripts/aggregate.py swapped sys.stderr for its log: Python's own traceback then went to a
    closed file ("lost sys.stderr") and Snakemake showed an object dump."""
    log = tmp_path / "aggregate.log"
    code = ("import runpy, types\n"
            "smk = types.SimpleNamespace(input=types.SimpleNamespace(runs=['missing/seeds~1-1.jsonl']),"
            f" log=[{str(log)!r}], wildcards=types.SimpleNamespace(study='s'))\n"
            "runpy.run_path('workflow/scripts/aggregate.py', init_globals={'snakemake': smk})\n")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 1
    assert r.stderr.splitlines() == [f"FileNotFoundError: [Errno 2] No such file or directory: "
                                     f"'missing/seeds~1-1.jsonl' (traceback in {log})"], r.stderr
    assert "Traceback (most recent call last)" in log.read_text()


# --------------------------------------------------------------------------- the real workflow
TABLE = "results/tables/mm1_lambda.csv"


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """A repository copy with the tiny mm1_lambda study's table made by the workflow."""
    repo = copy_repo(tmp_path_factory.mktemp("evidence"))
    r = snakemake(repo, "--cores", "2", TABLE, "--configfile", TEST_CONFIG, timeout=300)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    return repo


def test_the_provenance_lists_each_run_files_sha256(built):
    prov = json.loads((built / "results/tables/mm1_lambda.provenance.json").read_text())
    for p in prov["points"]:
        assert list(p["run_file_sha256"]) == p["run_files"] and p["run_files"]
        for f, sha in p["run_file_sha256"].items():
            assert sha == hashlib.sha256((built / f).read_bytes()).hexdigest()


def metric_times_ten(text: str) -> str:
    lines = text.splitlines()
    rec = json.loads(lines[1])
    name, value = next((k, v) for k, v in rec["metrics"].items() if isinstance(v, float) and v)
    lines[1] = lines[1].replace(f'"{name}":{json.dumps(value)}', f'"{name}":{json.dumps(value * 10)}', 1)
    assert lines[1] != text.splitlines()[1]
    return "\n".join(lines) + "\n"


def cut_mid_line(text: str) -> str:
    return text[: len(text) - 40]


@pytest.mark.parametrize("damage, line", [(metric_times_ten, 2), (cut_mid_line, 3)], ids=["metric_x10", "cut"])
def test_a_refused_run_file_stops_the_build_and_keeps_the_last_table(built, damage, line):
    outputs = [built / TABLE, built / "results/tables/mm1_lambda.provenance.json"]
    before = {p: p.read_bytes() for p in outputs}
    run_file = sorted((built / "results/runs/mm1_lambda").rglob("seeds~*.jsonl"))[-1]
    good = run_file.read_bytes()
    run_file.write_text(damage(good.decode()))        # a user's edit: the file is now newer than the table
    rel = run_file.relative_to(built)
    try:
        for attempt in (1, 2):                        # refused again on the next run: not a one-time warning
            r = snakemake(built, "--cores", "2", TABLE, "--configfile", TEST_CONFIG, timeout=300)
            assert r.returncode != 0, r.stderr[-3000:]
            assert {p: p.read_bytes() for p in outputs} == before, f"attempt {attempt}: the table changed"
            ours = [s for s in r.stderr.splitlines() if s.startswith(f"{rel}: line {line}: ")
                    and s.endswith("(log: results/logs/verify_runs/mm1_lambda.log)")]   # (the profile shows the log too)
            assert len(ours) == 1, r.stderr
            assert "lost sys.stderr" not in r.stderr and "Traceback" not in r.stderr
    finally:
        run_file.write_bytes(good)
    r = snakemake(built, "--cores", "2", TABLE, "--configfile", TEST_CONFIG, timeout=300)
    assert r.returncode == 0 and {p: p.read_bytes() for p in outputs} == before, r.stderr[-3000:]


def test_every_reader_of_run_files_in_the_workflow_waits_for_their_check(tmp_path):
    """The suite's tables and traces and a paper study's table each need their run files' verify_runs job."""
    repo = copy_repo(tmp_path)
    r = snakemake(repo, "-n", "results/suite/tables/suite_access.csv", "results/suite/traces/suite_access.csv",
                  "results/tables/mm1_K.csv", "--configfile", TEST_CONFIG, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    stats = r.stdout.split("Job stats:")[1].split("total")[0]
    counts = dict(line.split() for line in stats.splitlines()[3:] if line.strip())
    assert {k: counts.get(k) for k in ("verify_runs", "aggregate", "suite_verify_runs", "suite_aggregate",
                                       "suite_traces")} == dict.fromkeys(
        ("verify_runs", "aggregate", "suite_verify_runs", "suite_aggregate", "suite_traces"), "1"), stats
    assert "results/runs/mm1_K.sha256" in r.stdout and "results/suite/runs/suite_access.sha256" in r.stdout
