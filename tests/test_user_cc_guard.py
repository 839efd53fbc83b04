"""A user's algorithm is untrusted code (issue 33): its values are checked where they enter the compiled
sender (simulator/tcp/cc/guard.pyx), built-in algorithms are not wrapped, and a NaN window cannot
pass the runs' own invariant checks either."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

from simulator.core.invariants import InvariantError
from simulator.models.mm1_standard import StandardMM1
from simulator.tcp.cc import catalogue, user
from simulator.tcp.cc.aimd import RenoGrowth
from simulator.tcp.cc.guard import GuardedControl
from simulator.tcp.recovery import RenoRecovery
from simulator.tcp.rto import RtoEstimator
from simulator.tcp.sender import TcpSender
from test_user_cc import GOOD

ROOT = Path(__file__).resolve().parents[1]

HEAD = "\nimport math" + GOOD          # a sound algorithm (tests/test_user_cc.py); tests append what breaks it

STUDY = """study: s
paper: custom
title: user algorithm
model: dumbbell
algorithms:
  mine: mine.py:Mine
grid:
  algorithm: [mine]
fixed:
  flows: 2
  duration: 2
  warmup: 0
"""


def run_cli(tmp_path, *args):
    """`python -m simulator ARGS` from tmp_path (the repository root of the user's files)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "simulator", *args], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300)


def run_mine(tmp_path, methods: str, study: str = STUDY):
    (tmp_path / "mine.py").write_text(HEAD + methods)
    (tmp_path / "s.yaml").write_text(study)
    return run_cli(tmp_path, "run", "s.yaml", "--point", "algorithm=mine")


def assert_stopped(r, text):
    assert r.returncode == 1 and r.stdout == "", (r.returncode, r.stdout[:300], r.stderr)
    assert text in r.stderr and "the run stopped and wrote no result" in r.stderr, r.stderr


def test_nan_window_from_cong_avoid_stops_the_run(tmp_path):
    r = run_mine(tmp_path, """
    def cong_avoid(self, s, acked):
        s.cwnd = math.nan if s.now > 0.3 else s.cwnd + acked
""")
    assert_stopped(r, "mine.py:Mine.cong_avoid set cwnd to nan at simulated time 0.3")
    assert "allowed: finite, 0 < cwnd <= 1e9 packets" in r.stderr


@pytest.mark.parametrize("bad", ["math.nan", "-1.0", "0.0", "math.inf"])
def test_bad_ssthresh_return_stops_the_run(tmp_path, bad):
    r = run_mine(tmp_path, f"""
    def ssthresh(self, s):
        return {bad}
""")
    assert_stopped(r, f"mine.py:Mine.ssthresh returned {float(eval(bad, {'math': __import__('math')}))!r} "
                      "at simulated time ")
    assert "allowed: a finite threshold, 0 < ssthresh <= 1e9 packets" in r.stderr


def test_nan_ssthresh_field_stops_the_run(tmp_path):
    r = run_mine(tmp_path, """
    def cwnd_event(self, s, event):
        s.ssthresh = math.nan
""")
    assert_stopped(r, "mine.py:Mine.cwnd_event set ssthresh to nan")


def test_infinite_pacing_rate_from_cong_control_stops_the_run(tmp_path):
    r = run_mine(tmp_path, """
    NEEDS_RATE_SAMPLES = True

    def __init__(self):
        self.owns_cwnd = True

    def cong_control(self, s, rs):
        s.cwnd = 10.0
        s.pacing_rate = math.inf if s.now > 0.2 else 1000.0
""")
    assert_stopped(r, "mine.py:Mine.cong_control set pacing_rate to inf at simulated time 0.2")


def test_hook_writing_a_sender_field_stops_the_run(tmp_path):
    r = run_mine(tmp_path, """
    def pkts_acked(self, s, sample):
        if s.now > 0.4:
            s.snd_una += 1
""")
    assert_stopped(r, "mine.py:Mine.pkts_acked changed s.snd_una from ")
    assert "only the sender changes that field; a hook may set only cwnd, ssthresh and pacing_rate" in r.stderr


def test_hook_writing_the_ack_sample_stops_the_run(tmp_path):
    r = run_mine(tmp_path, """
    def pkts_acked(self, s, sample):
        sample.delivered = 0
""")
    assert_stopped(r, "mine.py:Mine.pkts_acked changed sample.delivered from ")


def test_sound_algorithm_runs_through_the_guard(tmp_path):
    r = run_mine(tmp_path, "")
    assert r.returncode == 0 and '"goodput_mbps"' in r.stdout, r.stderr


def test_builtin_algorithms_are_not_wrapped(tmp_path, monkeypatch):
    """Compiled algorithms pay nothing: the sender gets the catalogue's own compiled object."""
    stack = catalogue.Stack("linux", sack=True)
    for name in catalogue.NETWORK:
        cc, _ = catalogue.build(name, stack)
        assert not isinstance(cc, GuardedControl)
    assert type(catalogue.build("reno", stack)[0]) is RenoGrowth
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(catalogue, "USER", {})
    (tmp_path / "mine.py").write_text(HEAD)
    catalogue.add_user(user.parse("mine", "mine.py:Mine"))
    cc, _ = catalogue.build("mine", stack)
    assert isinstance(cc, GuardedControl) and type(cc.inner).__name__ == "Mine" and cc.where == "mine.py:Mine"
    assert cc.stack == stack                      # the user's attributes read through the guard


class WindowToNaN(RenoGrowth):
    def cong_avoid(self, s, acked):
        s.cwnd = float("nan") if s.snd_una > 20 else s.cwnd + 1


def test_nan_window_fails_the_run_invariant():
    """Without the guard (a compiled sender given the object directly) the run's own check catches NaN,
    which `min_cwnd < 1` used to let through."""
    sender = TcpSender(200, WindowToNaN(), RenoRecovery(), RtoEstimator(1.0, 1.0), 1.0, 1e9)
    sim = StandardMM1("run-N", 10.0, 10.0, 5, 1.0, 200, 0.01, sender)
    with pytest.raises(InvariantError, match="run-N: congestion window fell to nan"):
        sim.run()


# ---------------------------------------------------------------- a wall-clock budget per run
def test_endless_hook_is_stopped_by_the_run_time_limit(tmp_path):
    study = STUDY + "run_time_limit: 2\n"
    (tmp_path / "mine.py").write_text(HEAD + """
    def pkts_acked(self, s, sample):
        if s.now > 0.25:
            while True:
                pass
""")
    (tmp_path / "s.yaml").write_text(study)
    out = tmp_path / "runs/out.jsonl"
    r = run_cli(tmp_path, "batch", "s.yaml", "--point-path", "algorithm~mine", "--seeds", "1-2", "--out", str(out))
    assert r.returncode == 1 and not out.exists(), r.stderr
    assert ("s.yaml: point algorithm~mine, seed 1: the run did not finish within run_time_limit 2 s of wall-clock "
            "time and was stopped in mine.py:Mine.pkts_acked at simulated time 0.25") in r.stderr, r.stderr


def test_hook_swallowing_the_alarm_is_still_stopped(tmp_path):
    """The alarm is a BaseException (an `except Exception` cannot keep it) and repeats every second."""
    r = run_mine(tmp_path, """
    def cong_avoid(self, s, acked):
        while True:
            try:
                while True:
                    pass
            except Exception:
                pass
""", STUDY + "run_time_limit: 1\n")
    assert r.returncode == 1 and "run_time_limit 1 s" in r.stderr and "in mine.py:Mine.cong_avoid" in r.stderr, r.stderr


def test_time_limit_is_disarmed_after_the_run():
    import signal
    import time

    from simulator.run_budget import RunTimeLimitError, time_limit
    before = signal.getsignal(signal.SIGALRM)
    with time_limit(0.2, "quick"):
        pass
    time.sleep(0.4)                                # an armed timer would raise here
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0) and signal.getsignal(signal.SIGALRM) is before
    with pytest.raises(RunTimeLimitError, match="slow: the run did not finish within run_time_limit 0.1 s"
                                                 ".*outside any user algorithm's hook"):
        with time_limit(0.1, "slow"):
            time.sleep(1)
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)


def test_run_time_limit_is_checked_and_defaults(tmp_path):
    from simulator.study import load_study
    from simulator.study_errors import StudyError
    plain = STUDY.replace("algorithms:\n  mine: mine.py:Mine\n", "").replace("[mine]", "[reno]")
    for folder, extra in (("default", ""), ("zero", "run_time_limit: 0\n"), ("text", "run_time_limit: soon\n")):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "s.yaml").write_text(plain + extra)
    from simulator.run_budget import seconds_for
    default = load_study(tmp_path / "default/s.yaml")
    assert default.run_time_limit is None and seconds_for(default, default.points()[0]) == 600
    long_run = default.points()[0]                      # a run the cost ceiling lets through gets 10x its estimate
    long_run = type(long_run)(long_run.study, long_run.values, {**long_run.params, "duration": 20000, "warmup": 1})
    assert seconds_for(default, long_run) > 600
    with pytest.raises(StudyError, match=r"zero/s.yaml: run_time_limit: 0 .*allowed values: numbers > 0 and <= 86400"):
        load_study(tmp_path / "zero/s.yaml")
    with pytest.raises(StudyError, match=r"text/s.yaml: run_time_limit: 'soon'"):
        load_study(tmp_path / "text/s.yaml")


# ---------------------------------------------------------------- where a user's file may lie
MARKER_CODE = """
from pathlib import Path
Path(__file__).with_name("imported.marker").write_text("ran")
""" + HEAD


@pytest.fixture
def repo_and_outside(tmp_path):
    """tmp/repo (the working directory: the repository root) and tmp/outside/mine.py, which leaves
    imported.marker beside itself if it is ever run."""
    repo, outside = tmp_path / "repo", tmp_path / "outside"
    repo.mkdir()
    outside.mkdir()
    (outside / "mine.py").write_text(MARKER_CODE)
    return repo, outside


def study_naming(repo, source):
    (repo / "s.yaml").write_text(STUDY.replace("mine.py:Mine", source))


@pytest.mark.parametrize("how", ["dotdot", "absolute", "symlink"])
def test_file_outside_the_repository_is_refused_and_never_run(repo_and_outside, how):
    repo, outside = repo_and_outside
    source = {"dotdot": "../outside/mine.py", "absolute": str(outside / "mine.py"), "symlink": "link.py"}[how]
    if how == "symlink":
        (repo / "link.py").symlink_to(outside / "mine.py")
    study_naming(repo, f"{source}:Mine")
    for command in (["validate", "s.yaml"], ["run", "s.yaml", "--point", "algorithm=mine"], ["algorithms", "s.yaml"]):
        r = run_cli(repo, *command)
        assert r.returncode == 2, (command, r.stderr)
        assert f"s.yaml: algorithms.mine: {source} lies outside the repository (it resolves to " in r.stderr, r.stderr
        assert "To run algorithms from another folder, name it in the workflow config's algorithm_folders" in r.stderr
    assert not (outside / "imported.marker").exists()


def test_dotdot_inside_the_repository_is_fine(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "algs").mkdir()
    (tmp_path / "algs/mine.py").write_text(HEAD)
    assert user.parse("mine", "algs/../algs/mine.py:Mine").path == "algs/../algs/mine.py"


def test_folder_named_with_algorithm_folder_may_hold_algorithms(repo_and_outside):
    repo, outside = repo_and_outside
    study_naming(repo, "../outside/mine.py:Mine")
    r = run_cli(repo, "run", "s.yaml", "--point", "algorithm=mine", "--algorithm-folder", "../outside")
    assert r.returncode == 0 and '"goodput_mbps"' in r.stdout, r.stderr
    r = run_cli(repo, "validate", "s.yaml", "--algorithm-folder", str(outside / "nowhere"))
    assert r.returncode == 2 and "--algorithm-folder[0]:" in r.stderr and "is not a directory" in r.stderr, r.stderr


def test_config_algorithm_folders_allow_an_outside_folder(repo_and_outside, monkeypatch):
    from simulator.study_errors import StudyError
    from simulator.workflow_config import check_config
    repo, outside = repo_and_outside
    monkeypatch.chdir(repo)
    monkeypatch.setattr(user, "FOLDERS", [])
    monkeypatch.setattr(catalogue, "USER", {})
    (repo / "studies").mkdir()
    (repo / "studies/s.yaml").write_text(STUDY)
    schema = ROOT / "workflow/schemas/config.schema.yaml"
    base = "studies: [s]\nstudy_dir: studies\nprofiles: {default: {seeds: 1}}\nextra_algorithms: {mine: ../outside/mine.py:Mine}\n"
    (repo / "refused.yaml").write_text(base)
    with pytest.raises(StudyError, match=r"refused.yaml: extra_algorithms.mine: ../outside/mine.py lies outside the repository"):
        check_config(yaml_of(repo / "refused.yaml"), [repo / "refused.yaml"], schema, base_dir=repo)
    (repo / "missing.yaml").write_text(base + "algorithm_folders: [../elsewhere]\n")
    with pytest.raises(StudyError, match=r"missing.yaml: algorithm_folders\[0\]: '../elsewhere' is not a directory"):
        check_config(yaml_of(repo / "missing.yaml"), [repo / "missing.yaml"], schema, base_dir=repo)
    (repo / "allowed.yaml").write_text(base + "algorithm_folders: [../outside]\n")
    check_config(yaml_of(repo / "allowed.yaml"), [repo / "allowed.yaml"], schema, base_dir=repo)
    assert catalogue.USER["mine"].path == "../outside/mine.py"
    assert (outside / "imported.marker").exists()       # allowed on purpose: it was imported and checked


def yaml_of(path):
    import yaml
    return yaml.safe_load(path.read_text())


def test_syntax_error_is_reported_without_running_the_file(tmp_path):
    (tmp_path / "mine.py").write_text(MARKER_CODE + "\n    def broken(self:\n")
    (tmp_path / "s.yaml").write_text(STUDY)
    r = run_cli(tmp_path, "validate", "s.yaml")
    assert r.returncode == 2 and f"s.yaml: algorithms.mine: mine.py, line {len(MARKER_CODE.splitlines()) + 2}: syntax error:" in r.stderr, r.stderr
    assert not (tmp_path / "imported.marker").exists()


def test_parse_checks_syntax_before_anything_imports_the_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine.py").write_text(MARKER_CODE + "\nclass Broken(:\n")
    with pytest.raises(user.UserAlgorithmError, match=rf"mine.py, line {len(MARKER_CODE.splitlines()) + 2}: syntax error"):
        user.parse("mine", "mine.py:Mine")
    assert not (tmp_path / "imported.marker").exists()
