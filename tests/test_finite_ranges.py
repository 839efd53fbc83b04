"""Every numeric parameter has a finite declared range; NaN, infinities, absurd sizes and fractional
seed counts are rejected when a study is loaded, naming the file, the key, the value and the range.
(The workflow-level versions, with no job started and results untouched, are in test_hostile_input.py.)"""
import subprocess
import sys
from pathlib import Path

import pytest

from simulator import registry
from simulator.study import load_study
from simulator.study_errors import StudyError

ROOT = Path(__file__).resolve().parents[1]
MM1 = "paper: mm1\ntitle: t\nmodel: mm1\ngrid: {{variant: [standard], algorithm: [reno]}}\nfixed: {{{fixed}}}\n{extra}"
MM1_FIXED = {"lambda": "5", "mu": "10", "K": "5", "theta": "1", "N": "50"}


def mm1_study(**changes) -> str:
    extra = changes.pop("extra", "")
    fixed = {**MM1_FIXED, **changes}
    return MM1.format(fixed=", ".join(f"{k}: {v}" for k, v in fixed.items()), extra=extra)


def test_every_numeric_parameter_has_an_upper_bound():
    for name in registry.MODELS:
        for p in registry.model(name).params:
            kind = p.schema.get("type", "")
            if "number" in kind or "integer" in kind:
                assert "maximum" in p.schema or "exclusiveMaximum" in p.schema, (name, p.name)


@pytest.mark.parametrize("case, text, expected", [
    ("nan_rate", mm1_study(mu=".nan"), ["fixed.mu", "nan is not a finite number", "numbers > 0 and <= 100000"]),
    ("inf_rate", mm1_study(**{"lambda": ".inf"}), ["fixed.lambda", "inf is not a finite number"]),
    ("minus_inf", mm1_study(**{"lambda": "-.inf"}), ["fixed.lambda", "-inf is not a finite number"]),
    ("inf_deadline", mm1_study(theta=".inf"), ["fixed.theta", "inf is not a finite number", "or null"]),
    ("huge_n", mm1_study(N="1000000000000"), ["fixed.N", "out of range", "<= 1000000"]),
    ("huge_buffer", mm1_study(K="1e9"), ["fixed.K"]),
    ("seeds_float", mm1_study(extra="seeds: 3.0\n"), ["seeds: 3.0 is not a whole number"]),
    ("seeds_huge", mm1_study(extra="seeds: 1000000000\n"), ["seeds", "out of range", "<= 100000"]),
    ("seeds_per_job_float", mm1_study(extra="seeds_per_job: 2.5\n"), ["seeds_per_job: 2.5 is not a whole number"]),
    ("jobs_float", mm1_study(extra="jobs: 2.0\n"), ["jobs: 2.0 is not a whole number"]),
    ("nan_in_grid", "paper: qtcol\ntitle: t\nmodel: dumbbell\ngrid: {algorithm: [cubic], alpha: [1.2, .nan]}\n",
     ["grid.alpha[1]", "nan is not a finite number", "numbers > 1 and <= 10"]),
    ("inf_duration", "paper: qtcol\ntitle: t\nmodel: dumbbell\ngrid: {algorithm: [cubic]}\nfixed: {duration: .inf}\n",
     ["fixed.duration", "inf is not a finite number", "<= 1000000"]),
    ("tiny_sample_interval", "paper: qtcol\ntitle: t\nmodel: dumbbell\ngrid: {algorithm: [cubic]}\n"
     "fixed: {sample_interval: 1.0e-9}\n", ["fixed.sample_interval", "out of range", ">= 0.001"]),
    ("nan_in_nested_list", "paper: testbed\ntitle: t\nmodel: testbed\ngrid: {algorithm: [bbr]}\n"
     "fixed: {capacity_schedule: [[0, 50], [10, .nan]]}\n", ["fixed.capacity_schedule[1][1]", "nan is not a finite"]),
    ("nan_in_exclude", "paper: ns2\ntitle: t\nmodel: ns2\ngrid: {algorithm: [reno], delay_ms: [10, 20]}\n"
     "exclude: [{delay_ms: .nan}]\n", ["exclude[0].delay_ms", "nan is not a finite number"]),
    ("absurd_bandwidth", "paper: ns2\ntitle: t\nmodel: ns2\ngrid: {algorithm: [reno]}\nfixed: {bandwidth_mbps: 1.0e12}\n",
     ["fixed.bandwidth_mbps", "out of range", "<= 100000"]),
])
def test_non_finite_and_absurd_values_are_rejected(tmp_path, case, text, expected):
    f = tmp_path / "h.yaml"
    f.write_text("study: h\n" + text)
    with pytest.raises(StudyError) as e:
        load_study(f)
    msg = str(e.value)
    assert msg.startswith(f"{f}: "), msg
    for part in expected:
        assert part in msg, (case, part, msg)


@pytest.mark.parametrize("args, expected", [
    (["--seed", "-1"], "--seed: -1 is out of range"),
    (["--seed", str(2 ** 70)], "< 2**63"),
])
def test_cli_seed_must_be_a_non_negative_integer_below_2_63(args, expected):
    r = subprocess.run([sys.executable, "-m", "simulator", "run", "config/studies/mm1/mm1_lambda.yaml", "--point",
                        "variant=standard", "--point", "algorithm=reno", "--point", "lambda=5", *args],
                       cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and expected in r.stderr, r.stderr


def test_batch_seed_range_is_bounded_too():
    from simulator.cli import parse_seeds
    with pytest.raises(StudyError, match="< 2\\*\\*63"):
        parse_seeds(f"1-{2 ** 64}")
    assert parse_seeds("1-10") == (1, 10)


def test_sample_count_is_bounded(tmp_path):
    f = tmp_path / "h.yaml"
    f.write_text("study: h\npaper: qtcol\ntitle: t\nmodel: dumbbell\ngrid: {algorithm: [cubic]}\n"
                 "fixed: {duration: 10000, sample_interval: 0.01}\n")
    with pytest.raises(StudyError, match=r"sample_interval: 0.01 s gives 1000000 samples .* <= 100000"):
        load_study(f)


def test_yaml_key_given_twice_is_rejected_naming_both_lines(tmp_path):
    f = tmp_path / "h.yaml"
    f.write_text("study: h\n" + mm1_study() + "fixed: {lambda: 6, mu: 10, K: 5, theta: 1, N: 50}\n")
    with pytest.raises(StudyError, match=r"h.yaml: not valid YAML: key 'fixed' appears twice in one mapping "
                                         r"\(lines 6 and 7\)"):
        load_study(f)


def test_yaml_alias_bomb_is_refused_before_it_expands(tmp_path):
    lines = ["study: h", "a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    lines += [f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 12)]
    f = tmp_path / "h.yaml"
    f.write_text("\n".join(lines) + "\n")
    with pytest.raises(StudyError, match="more than 50 aliases"):
        load_study(f)


def test_config_file_with_a_key_twice_is_rejected():
    from simulator.workflow_config import config_file_error
    import tempfile
    with tempfile.NamedTemporaryFile("w", suffix=".yaml", delete=False) as t:
        t.write("studies: [mm1_lambda]\nprofile: default\nprofile: paper\n")
    assert "key 'profile' appears twice" in config_file_error(t.name)
    Path(t.name).unlink()


# a key that is not a name, and nesting deep enough to overflow PyYAML's recursion (a traceback before)
DEEP_MAPPINGS = "x:\n" + "".join(" " * i + "a:\n" for i in range(1, 2001))   # 100,000 levels: a 5 GB file
YAML_SHAPES = {
    "complex_list_key": ("? [a, b]\n: 1\n", "line 1: a list is used as a key (a `?` complex key); allowed keys: names"),
    "complex_mapping_key": ("x: {? {a: 1} : 2}\n", "line 1: a mapping is used as a key"),
    "number_key_top_level": ("1: x\n", "line 1: key '1' reads as a number, not a name; allowed keys: names (strings)"),
    "number_key_in_grid": ("algorithm: [reno]}", "algorithm: [reno], 5: [1]}", "line 5: key '5' reads as a number"),
    "bool_key_in_fixed": ("fixed: {", "fixed: {on: 3, ", "line 6: key 'on' reads as true/false, not a name"),
    "null_key_in_algorithms": ("algorithms:\n  ~: x.py:X\n", "line 2: key '~' reads as null, not a name"),
    "deep_flow_lists": ("x: " + "[" * 100_000 + "\n", "more than 50 levels of lists and mappings"),
    "deep_flow_mappings": ("x: " + "{a: " * 100_000 + "\n", "more than 50 levels of lists and mappings"),
    "deep_block_lists": ("x:\n" + "- " * 100_000 + "y\n", "more than 50 levels of lists and mappings"),
    "deep_indented_mappings": (DEEP_MAPPINGS, "more than 50 levels of lists and mappings inside one another (line 50)"),
}


@pytest.mark.parametrize("case", list(YAML_SHAPES))
def test_yaml_keys_that_are_not_names_and_deep_nesting_name_the_file(tmp_path, case):
    *change, expected = YAML_SHAPES[case]
    study = "study: h\n" + mm1_study()
    f = tmp_path / "h.yaml"
    f.write_text(study.replace(*change) if len(change) == 2 else change[0] + study)   # (old, new) or a first line
    with pytest.raises(StudyError) as e:
        load_study(f)
    assert str(e.value).startswith(f"{f}: not valid YAML: ") and expected in str(e.value), str(e.value)
    r = subprocess.run([sys.executable, "-m", "simulator", "validate", str(f)], capture_output=True, text=True)
    assert r.returncode == 2 and "Traceback" not in r.stderr and r.stderr.count(str(f)) == 1, r.stderr


@pytest.mark.parametrize("case", ["complex_list_key", "number_key_top_level", "deep_flow_lists"])
def test_config_file_keys_and_nesting_name_the_file(tmp_path, case):
    from simulator.workflow_config import config_file_error

    f = tmp_path / "config.yaml"
    f.write_text(YAML_SHAPES[case][0] + "studies: [mm1_lambda]\nprofile: default\n")
    assert config_file_error(f).startswith(f"{f}: not valid YAML: ")
    assert YAML_SHAPES[case][1] in config_file_error(f)
