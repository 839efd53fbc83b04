"""The evaluation suite: its studies validate with the config's algorithm list, a bad list or a suite
file naming an algorithm is refused, rankings tie what the claim rule cannot separate, and the
chapter says how to run the suite when it has not run."""
import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
import yaml

from simulator.report import suite_chapter
from simulator.report.suite_rank import rank
from simulator.study_errors import StudyError
from simulator.suite import check_algorithms, config_algorithms, load_suite_study

ROOT = Path(__file__).resolve().parents[1]
SUITE_FILES = sorted((ROOT / "config" / "suite").glob("*.yaml"))


def test_every_suite_study_validates_with_the_configs_algorithms():
    algorithms = config_algorithms(ROOT / "config" / "config.yaml")
    assert len(SUITE_FILES) == len(suite_chapter.SCENARIOS)
    for f in SUITE_FILES:
        s = load_suite_study(f, algorithms)
        assert sorted({p.values["algorithm"] for p in s.points()}) == sorted(algorithms), f


def test_cli_validates_a_suite_file():
    out = subprocess.run([sys.executable, "-m", "simulator", "validate", str(SUITE_FILES[0])], cwd=ROOT,
                         capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert "8 points" in out.stdout


def test_one_more_algorithm_joins_every_scenario():
    s = load_suite_study(ROOT / "config/suite/suite_buffer.yaml", ["reno", "cubic"])
    assert len(s.points()) == 2 * 5


def test_a_users_algorithm_from_the_config_line_joins_every_scenario(tmp_path):
    """The README's one line, extra_algorithms: {mynewreno: ...}, puts a user's algorithm in the suite too."""
    from simulator.suite import write

    extra = {"mynewreno": "examples/custom_cc/newreno_in_python.py:NewRenoInPython"}
    for f in SUITE_FILES:
        s = load_suite_study(f, ["reno"], extra)
        assert {p.values["algorithm"] for p in s.points()} == {"reno", "mynewreno"}, f
    out = tmp_path / "buffer.yaml"
    write(ROOT / "config/suite/suite_buffer.yaml", ["reno"], out, extra)
    assert yaml.safe_load(out.read_text())["algorithms"] == extra       # the jobs load the user's class from it


def test_bad_algorithm_list_names_the_key():
    with pytest.raises(StudyError, match=r"suite.algorithms\[1\]: 'cubik'.*did you mean 'cubic'"):
        check_algorithms(["reno", "cubik"], "config/config.yaml")


def test_suite_file_naming_an_algorithm_is_refused(tmp_path):
    doc = yaml.safe_load((ROOT / "config/suite/suite_access.yaml").read_text())
    doc["grid"] = {"algorithm": ["reno"]}
    f = tmp_path / "suite_access.yaml"
    f.write_text(yaml.safe_dump(doc))
    with pytest.raises(StudyError, match=r"suite_access.yaml: grid.algorithm: a suite study names no algorithm"):
        load_suite_study(f, ["reno"])


def _rows(*stats):
    return pd.DataFrame([{"algorithm": a, "mean": m, "sd": sd, "n": 5} for a, m, sd in stats])


def test_rank_ties_what_is_not_significant_and_orders_the_rest():
    rows = _rows(("slow", 5.0, 0.1), ("a", 10.0, 0.5), ("b", 9.9, 0.5))   # a and b overlap
    higher = rank(rows, "higher")
    assert list(higher["algorithm"]) == ["a", "b", "slow"]
    assert list(higher["rank"]) == [1, 1, 3]
    lower = rank(rows, "lower")
    assert list(lower["algorithm"]) == ["slow", "b", "a"]
    assert list(lower["rank"]) == [1, 2, 2]
    assert list(higher["algorithm"]) != ["slow", "a", "b"]     # a ranking by the wrong direction fails


def test_rank_separates_significant_differences():
    rows = _rows(("a", 10.0, 0.1), ("b", 9.0, 0.1), ("c", 8.0, 0.1))
    assert list(rank(rows, "higher")["rank"]) == [1, 2, 3]
    with pytest.raises(ValueError, match="allowed values: higher, lower"):
        rank(rows, "up")


def test_chapter_not_run_form(tmp_path):
    """The notebook with no rankings (the default build): says how to run the suite, no error."""
    nb = tmp_path / "suite.ipynb"
    params = {"ranking_files": [], "figures_dir": str(tmp_path / "f"), "downloads_dir": str(tmp_path / "d"),
              "downloads_url": "_static/downloads/suite"}
    run = subprocess.run([sys.executable, "-m", "papermill", str(ROOT / "notebooks/suite.ipynb"), str(nb),
                          "-k", "python3", "-y", json.dumps(params), "--cwd", str(tmp_path)],
                         capture_output=True, text=True, env={**__import__("os").environ, "PYTHONPATH": str(ROOT)})
    assert run.returncode == 0, run.stderr[-2000:]
    text = nb.read_text()
    assert suite_chapter.RUN_COMMAND in text
    assert "Traceback" not in text and "Error" not in text


def test_a_buffer_grid_in_packets_gives_one_ranking_per_point():
    """suite_buffer and suite_rtt_fairness grid buffer_pkts (the draft's buffers): each value its own point."""
    from simulator.report.suite_rank import study_rows

    table = pd.DataFrame([{"algorithm": a, "buffer_pkts": b, "flows": 9, "metric": "plr", "mean": 0.01, "sd": 0.001, "n": 5}
                          for a in ("reno", "cubic") for b in (83, 833)])
    assert sorted(set(study_rows(table, None)["point"])) == ["buffer_pkts=83", "buffer_pkts=833"]
