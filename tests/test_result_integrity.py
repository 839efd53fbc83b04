"""Result integrity: aggregation reads a run file only if it holds exactly what its name says, and the
CLI never overwrites a file it did not make, checking that it can write before it simulates."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from simulator.report.aggregate import RunFileError, read_records
from simulator.run_records import seal

ROOT = Path(__file__).resolve().parents[1]
POINT = "variant~standard/algorithm~reno/lambda~5"


def batch(out, *extra, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "simulator", "batch", "config/studies/mm1/mm1_lambda.yaml",
                           "--point-path", POINT, "--seeds", "1-2", "--out", str(out), *extra],
                          cwd=cwd, capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def run_file(tmp_path_factory):
    out = tmp_path_factory.mktemp("runs") / "seeds~1-2.jsonl"
    r = batch(out)
    assert r.returncode == 0, r.stderr
    return out


def test_a_complete_run_file_is_read(run_file):
    assert [r["seed"] for r in read_records([run_file])] == [1, 2]


def test_a_run_file_with_fewer_records_than_its_name_is_refused(run_file, tmp_path):
    cut = tmp_path / "seeds~1-2.jsonl"
    cut.write_text(run_file.read_text().splitlines()[0] + "\n")
    with pytest.raises(RunFileError, match=r"seeds~1-2.jsonl: holds seeds \[1\] but its name says 1-2"):
        read_records([cut])


def test_a_run_file_cut_mid_line_names_file_and_line(run_file, tmp_path):
    cut = tmp_path / "seeds~1-2.jsonl"
    text = run_file.read_text()
    cut.write_text(text[: len(text) - 40])
    with pytest.raises(RunFileError, match=r"seeds~1-2.jsonl: line 2: not valid JSON"):
        read_records([cut])


def test_a_record_without_its_fields_is_refused(tmp_path):
    f = tmp_path / "seeds~1-1.jsonl"
    f.write_text(seal({"seed": 1}) + "\n")     # sealed, so the check of its keys is what refuses it
    with pytest.raises(RunFileError, match="line 1: run record lacks study, point_path, params, metrics"):
        read_records([f])


def test_batch_refuses_to_overwrite_a_file_it_did_not_make(tmp_path):
    victim = tmp_path / "study.yaml"
    victim.write_text("study: precious\n")
    r = batch(victim)
    assert r.returncode == 2 and "refusing to overwrite" in r.stderr and str(victim) in r.stderr, r.stderr
    assert victim.read_text() == "study: precious\n"
    assert batch(victim, "--force").returncode == 0
    assert json.loads(victim.read_text().splitlines()[0])["point_path"] == POINT


def test_batch_may_replace_its_own_run_file(run_file):
    before = run_file.read_bytes()
    assert batch(run_file).returncode == 0
    assert run_file.read_bytes() == before


def test_batch_reports_an_unwritable_place_without_a_traceback(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    r = batch(blocker / "sub" / "seeds~1-2.jsonl")      # a file where a folder must be
    assert r.returncode == 2 and "cannot write in" in r.stderr and "Traceback" not in r.stderr, r.stderr


def test_results_origin_refuses_same_named_study_from_another_file(tmp_path, monkeypatch):
    from simulator.results_origin import check_origin, read_origin, record_origin
    from simulator.study_errors import StudyError
    monkeypatch.chdir(tmp_path)
    (tmp_path / "config/test/studies").mkdir(parents=True)
    (tmp_path / "config/test/studies/mm1_lambda.yaml").write_text("study: mm1_lambda\n")
    record_origin(Path("results"), {"mm1_lambda": Path("config/test/studies/mm1_lambda.yaml")})
    assert read_origin(Path("results")) == {"mm1_lambda": "config/test/studies/mm1_lambda.yaml"}
    # the same file, however it is spelled, is accepted; a new study name too
    check_origin(Path("results"), {"mm1_lambda": tmp_path / "config/test/studies/mm1_lambda.yaml",
                                   "mm1_K": Path("config/studies/mm1/mm1_K.yaml")}, "cfg.yaml")
    check_origin(Path("results"), {"mm1_lambda": Path("./config/test/studies/../studies/mm1_lambda.yaml")}, "cfg.yaml")
    with pytest.raises(StudyError, match=r"cfg.yaml: study_dir: study 'mm1_lambda' would be read from "
                                         r"config/studies/mm1/mm1_lambda.yaml, but results/ holds"):
        check_origin(Path("results"), {"mm1_lambda": Path("config/studies/mm1/mm1_lambda.yaml")}, "cfg.yaml")


def test_results_of_a_study_file_that_moved_are_kept(tmp_path, monkeypatch):
    """A paper's studies moved into config/studies/<paper>/: the recorded file is gone, so its results are
    this study's; no refusal, and no rerun of what they hold."""
    from simulator.results_origin import check_origin, record_origin
    monkeypatch.chdir(tmp_path)
    record_origin(Path("results"), {"mm1_lambda": Path("config/studies/mm1/mm1_lambda.yaml")})   # no longer there
    (tmp_path / "config/studies/mm1").mkdir(parents=True)
    (tmp_path / "config/studies/mm1/mm1_lambda.yaml").write_text("study: mm1_lambda\n")
    check_origin(Path("results"), {"mm1_lambda": Path("config/studies/mm1/mm1_lambda.yaml")}, "cfg.yaml")
