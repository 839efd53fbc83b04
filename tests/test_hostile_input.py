"""Hostile and careless input: each case is rejected before any job starts, by
`python -m simulator validate` and by real `snakemake -n` / `snakemake --cores 1` runs in a temporary
copy of the repository, with one message naming the file, the key and the allowed values (and the
nearest valid name for a misspelling); the results already in that copy stay byte-for-byte the same.

Classes: misspelled or unknown keys and names, wrong types, out-of-range, NaN and infinite numbers,
YAML duplicate keys and alias bombs, grids and seed counts above the size limit, memory caps,
`exclude:` in every model, and a configuration whose same-named studies would replace the results
of another. (The command line's --seed/--out and damaged run files: test_finite_ranges.py and
test_result_integrity.py.)

The copy first computes results/tables/mm1_lambda.csv of the tiny test config (real run files and
table); every case then breaks one study file of the tiny config (mm1_lambda, or the study of
another model) or config/config.yaml (config cases, default config), runs `validate` and one
snakemake command (dry run or real run, alternating), and puts the file back.
"""
import copy
import re
from pathlib import Path

import pytest
import yaml

from workflow_copy import TEST_CONFIG, copy_repo, simulator_cli, snakemake, snapshot

STUDY = "config/test/studies/mm1_lambda.yaml"
MN_STUDY = "config/test/studies/mn_high_latency.yaml"      # model dumbbell
NS2_STUDY = "config/test/studies/ns2_queue.yaml"           # model ns2
TB_STUDY = "config/test/studies/tb_matrix.yaml"            # model testbed
CONFIG = "config/config.yaml"
ROOT = Path(__file__).resolve().parents[1]
STUDY_TEXT = (ROOT / STUDY).read_text()
CONFIG_TEXT = (ROOT / CONFIG).read_text()
# a billion-laughs document: nine nested aliases, each a list of ten of the one before
ALIAS_BOMB = "study: mm1_lambda\na0: &a0 [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]\n" for i in range(1, 9))


def study_case(mutate=None, text=None, rel=STUDY):
    return ("study", mutate, text, rel)


def config_case(mutate=None, text=None):
    return ("config", mutate, text, CONFIG)


def same(doc):
    """No change: the file is fine, something around it is not."""


def setkey(*path, value):
    def f(doc):
        d = doc
        for k in path[:-1]:
            d = d[k]
        d[path[-1]] = value
    return f


def delkey(*path):
    def f(doc):
        d = doc
        for k in path[:-1]:
            d = d[k]
        del d[path[-1]]
    return f


def rename(*path, to):
    def f(doc):
        d = doc
        for k in path[:-1]:
            d = d[k]
        d[to] = d.pop(path[-1])
    return f


# id -> (case, substrings the message must contain besides the file name)
CASES = {
    # ---- study files
    "unknown_algorithm": (study_case(setkey("grid", "algorithm", value=["none", "cubik"])),
                          ["grid.algorithm[1]", "'cubik'", "did you mean 'cubic'", "allowed values: none, tahoe, reno"]),
    "unknown_variant": (study_case(setkey("grid", "variant", value=["as_published", "standart"])),
                        ["grid.variant[1]", "did you mean 'standard'", "allowed values: as_published, standard"]),
    "unknown_model": (study_case(setkey("model", value="mm2")), ["model", "'mm2'", "allowed values: mm1"]),
    "misspelled_top_key": (study_case(setkey("seed_per_job", value=2)),
                           ["seed_per_job", "did you mean 'seeds_per_job'", "allowed keys:"]),
    "misspelled_grid_key": (study_case(rename("grid", "lambda", to="lamda")),
                            ["grid.lamda", "did you mean 'lambda'", "allowed keys:"]),
    "misspelled_fixed_key": (study_case(rename("fixed", "theta", to="thetta")),
                             ["fixed.thetta", "did you mean 'theta'", "allowed keys:"]),
    "wrong_type_rate": (study_case(setkey("grid", "lambda", value=["fast", 15])),
                        ["grid.lambda[0]", "'fast'", "allowed values: numbers > 0"]),
    "wrong_type_integer": (study_case(setkey("fixed", "K", value=2.5)),
                           ["fixed.K", "2.5", "allowed values: integers >= 1"]),
    "wrong_type_trace": (study_case(setkey("trace", value=1)), ["trace", "allowed values: true or false"]),
    "negative_arrival_rate": (study_case(setkey("grid", "lambda", value=[-5, 15])),
                              ["grid.lambda[0]", "-5", "allowed values: numbers > 0"]),
    "zero_service_rate": (study_case(setkey("fixed", "mu", value=0)), ["fixed.mu", "allowed values: numbers > 0"]),
    "buffer_zero": (study_case(setkey("fixed", "K", value=0)), ["fixed.K", "allowed values: integers >= 1"]),
    "deadline_zero": (study_case(setkey("fixed", "theta", value=0)),
                      ["fixed.theta", "allowed values: numbers > 0 and <= 10000 or null"]),
    "deadline_negative": (study_case(setkey("fixed", "theta", value=-1.5)),
                          ["fixed.theta", "-1.5", "allowed values: numbers > 0 and <= 10000 or null"]),
    "zero_packets": (study_case(setkey("fixed", "N", value=0)), ["fixed.N", "allowed values: integers >= 1"]),
    "negative_prop_delay": (study_case(setkey("fixed", "prop_delay", value=-0.01)),
                            ["fixed.prop_delay", "allowed values: numbers >= 0"]),
    "empty_grid_list": (study_case(setkey("grid", "algorithm", value=[])),
                        ["grid.algorithm", "empty list", "allowed values: none, tahoe"]),
    "empty_grid": (study_case(setkey("grid", value={})), ["grid", "empty mapping", "allowed keys: variant"]),
    "duplicate_grid_value": (study_case(setkey("grid", "lambda", value=[5, 5])), ["grid.lambda", "repeat"]),
    "seeds_zero": (study_case(setkey("seeds", value=0)), ["seeds", "allowed values: integers >= 1"]),
    "seeds_per_job_zero": (study_case(setkey("seeds_per_job", value=0)),
                           ["seeds_per_job", "allowed values: integers >= 1"]),
    "jobs_zero": (study_case(setkey("jobs", value=0)), ["jobs", "allowed values: integers >= 1"]),
    "missing_parameter": (study_case(delkey("fixed", "theta")), ["fixed", "'theta'", "variant, algorithm, lambda"]),
    "missing_required_key": (study_case(delkey("paper")), ["'paper'", "required keys: study, paper"]),
    "key_in_grid_and_fixed": (study_case(setkey("fixed", "lambda", value=3)), ["fixed.lambda", "grid"]),
    "file_stem_mismatch": (study_case(setkey("study", value="mm1_lambdas")),
                           ["study", "'mm1_lambdas'", "allowed values: 'mm1_lambda'"]),
    "exclude_non_grid_value": (study_case(setkey("exclude", value=[{"algorithm": "cubic"}])),
                               ["exclude[0].algorithm", "'cubic'", "allowed values: none, reno"]),
    "exclude_non_grid_key": (study_case(setkey("exclude", value=[{"lamda": 5}])),
                             ["exclude[0].lamda", "did you mean 'lambda'", "allowed keys: variant"]),
    "nan_arrival_rate": (study_case(setkey("grid", "lambda", value=[5, float("nan")])),
                         ["grid.lambda[1]", "nan is not a finite number", "allowed values: numbers > 0 and <= 100000"]),
    "infinite_deadline": (study_case(setkey("fixed", "theta", value=float("inf"))),
                          ["fixed.theta", "inf is not a finite number", "or null"]),
    "absurd_packet_count": (study_case(setkey("fixed", "N", value=10**12)),
                            ["fixed.N", "out of range", "integers >= 1 and <= 1000000"]),
    "seeds_not_whole": (study_case(setkey("seeds", value=3.0)), ["seeds: 3.0 is not a whole number"]),
    "exclude_everything": (study_case(setkey("exclude", value=[{"variant": "as_published"}, {"variant": "standard"}])),
                           ["exclude", "every grid point"]),
    "algorithm_not_of_variant": (study_case(lambda d: (d.pop("exclude"), d["grid"].update(algorithm=["none", "newreno"]))),
                                 ["grid.algorithm[1]", "'newreno'", "allowed values: none, published_tahoe", "exclude"]),
    # a name means one algorithm: the paper's Reno code is published_reno, reno is textbook Reno
    "textbook_name_for_the_papers_code": (study_case(delkey("exclude")),
                                          ["grid.algorithm[1]", "'reno'", "variant 'as_published'",
                                           "did you mean 'published_reno', the paper's Reno code?",
                                           "allowed values: none, published_tahoe, published_reno, published_cubic"]),
    "paper_legacy_with_standard": (study_case(setkey("fixed", "rng", value="paper_legacy")),
                                   ["rng", "'paper_legacy'", "as_published", "'standard'", "allowed values"]),
    "study_yaml_syntax_error": (study_case(text="study: mm1_lambda\ngrid: {variant: [standard\n"),
                                ["not valid YAML", "line"]),
    "study_top_level_list": (study_case(text="- study: mm1_lambda\n- paper: mm1\n"),
                             ["(top level)", "expected a mapping", "study, paper, title"]),
    "study_empty_file": (study_case(text="# nothing yet\n"), ["(top level)", "empty", "study, paper, title"]),
    # ---- workflow config (config/config.yaml)
    "config_unknown_study": (config_case(setkey("studies", 0, value="mm1_lamda")),
                             ["studies[0]", "did you mean 'mm1_lambda'", "allowed values"]),
    "config_unknown_profile": (config_case(setkey("profile", value="quick")),
                               ["profile", "'quick'", "allowed values (keys of profiles): default, paper"]),
    "config_seeds_zero": (config_case(setkey("profiles", "default", "seeds", value=0)),
                          ["profiles.default.seeds", "allowed values: integers >= 1"]),
    "config_seeds_empty": (config_case(setkey("profiles", "default", "seeds", value=None)),
                           ["profiles.default.seeds", "empty", "allowed values: integers >= 1"]),
    "config_seeds_wrong_type": (config_case(setkey("profiles", "default", "seeds", value="ten")),
                                ["profiles.default.seeds", "'ten'", "allowed values: integers >= 1"]),
    "config_empty_profile": (config_case(setkey("profiles", "default", value={})),
                             ["profiles.default", "'seeds'", "required keys: seeds"]),
    "config_misspelled_profile_key": (config_case(setkey("profiles", "default", value={"seed": 10})),
                                      ["profiles.default.seed", "did you mean 'seeds'", "allowed keys: seeds"]),
    "config_no_profiles": (config_case(setkey("profiles", value={})), ["profiles", "empty mapping"]),
    "config_misspelled_key": (config_case(rename("studies", to="studys")),
                              ["studys", "did you mean 'studies'", "allowed keys: studies"]),
    "config_empty_studies": (config_case(setkey("studies", value=[])), ["studies", "empty list"]),
    "config_missing_study_dir": (config_case(setkey("study_dir", value="config/no_such_dir")),
                                 ["study_dir", "'config/no_such_dir'", "not found", "allowed values"]),
    "config_yaml_syntax_error": (config_case(text="studies: [mm1_lambda\nprofile: default\n"),
                                 ["not valid YAML", "line"]),
    "config_top_level_list": (config_case(text="- mm1_lambda\n- mm1_K\n"),
                              ["(top level)", "expected a mapping", "studies, study_dir, profile"]),
    # ---- YAML loading
    "study_duplicate_key": (study_case(text=STUDY_TEXT + "fixed: {mu: 20}\n"),
                            ["key 'fixed' appears twice", "lines"]),
    "study_duplicate_grid_key": (study_case(text=re.sub(r"^(grid:.*)$", r"\1\n  lambda: [1]", STUDY_TEXT, count=1, flags=re.M)),
                                 ["key 'lambda' appears twice", "lines"]),
    "study_alias_bomb": (study_case(text=ALIAS_BOMB), ["alias"]),
    "config_duplicate_key": (config_case(text=CONFIG_TEXT + "profile: paper\n"), ["key 'profile' appears twice", "lines"]),
    "config_alias_bomb": (config_case(text=ALIAS_BOMB.replace("study: mm1_lambda", "studies: [mm1_lambda]")),
                          ["alias"]),
    # keys that are not names, nesting deeper than 50 levels (PyYAML's recursion ended in a traceback)
    "study_list_as_key": (study_case(text="? [a, b]\n: 1\n" + STUDY_TEXT),
                          ["line 1: a list is used as a key", "allowed keys: names (strings)"]),
    "study_number_key_in_grid": (study_case(text=re.sub(r"^(grid:.*)$", r"\1\n  5: [1]", STUDY_TEXT, count=1, flags=re.M)),
                                 ["key '5' reads as a number, not a name", "allowed keys: names (strings)"]),
    "study_deep_nesting": (study_case(text="study: mm1_lambda\nx: " + "[" * 100_000 + "\n"),
                           ["more than 50 levels of lists and mappings", "allowed: at most 50 levels"]),
    "config_mapping_as_key": (config_case(text="x: {? {a: 1} : 2}\n" + CONFIG_TEXT), ["a mapping is used as a key"]),
    "config_deep_nesting": (config_case(text="x: " + "{a: " * 100_000 + "\n" + CONFIG_TEXT),
                            ["more than 50 levels of lists and mappings"]),
    # ---- size and memory
    "grid_too_big": (study_case(setkey("grid", value={"variant": ["standard"], "algorithm": ["reno"],
                                                      **{k: list(range(1, 11)) for k in ("lambda", "mu", "N")},
                                                      "K": list(range(1, 101)), "init_cwnd": list(range(1, 101))})),
                     ["grid", "10000000 runs", "above the limit of 100000", "max_runs"]),
    "seeds_times_points_too_many": (study_case(setkey("seeds", value=100000)),
                                    ["grid", "points x 100000 seeds", "max_runs"]),
    "max_runs_not_integer": (study_case(setkey("max_runs", value="lots")), ["max_runs", "'lots'", "integers >= 1"]),
    "seeds_negative": (study_case(setkey("seeds", value=-3)), ["seeds", "-3", "allowed values: integers >= 1"]),
    "seeds_huge": (study_case(setkey("seeds", value=10**9)), ["seeds", "integers >= 1 and <= 100000"]),
    "trace_with_huge_N": (study_case(lambda d: (d.update(trace=True), d["fixed"].update(N=1000000))),
                          ["trace", "N <= 100000"]),
    "dumbbell_flows_times_samples": (study_case(lambda d: d["fixed"].update(flows=100, sample_interval=0.001),
                                                rel=MN_STUDY), ["flows", "allowed values: flows x duration"]),
    "dumbbell_sample_interval_tiny": (study_case(setkey("fixed", "sample_interval", value=0.0001), rel=MN_STUDY),
                                      ["fixed.sample_interval", "0.0001", ">= 0.001"]),
    "dumbbell_run_too_long": (study_case(lambda d: d["fixed"].update(flows=100, bottleneck_mbps=100000, access_gbps=1000,
                                                                     duration=10000, sample_interval=1), rel=MN_STUDY),
                              ["point 'algorithm~", "packets (data + ACK)", "above max_packets_per_run 1e+10",
                               "add `max_packets_per_run: "]),
    "seeds_one_per_job_too_many_files": (study_case(lambda d: d.update(seeds=100000, seeds_per_job=1, max_runs=10**8)),
                                         ["seeds_per_job: 12 points x 100000 seed batches", "run files, above the "
                                          "limit of 10000 run files per study", "Raise seeds_per_job"]),
    "ns2_flows_absurd": (study_case(setkey("fixed", "flows", value=10**6), rel=NS2_STUDY), ["fixed.flows", "<= "]),
    # ---- other models: exclude, names, non-finite numbers
    "dumbbell_exclude_typo": (study_case(setkey("exclude", value=[{"algoritm": "bbr"}]), rel=MN_STUDY),
                              ["exclude[0].algoritm", "did you mean 'algorithm'", "allowed keys: algorithm, alpha, flows"]),
    "dumbbell_exclude_value": (study_case(setkey("exclude", value=[{"algorithm": "qtcol"}]), rel=MN_STUDY),
                               ["exclude[0].algorithm", "'qtcol'", "allowed values: bbr, reno, vegas, cubic"]),
    "ns2_exclude_typo": (study_case(setkey("exclude", value=[{"queu": "fq"}]), rel=NS2_STUDY),
                         ["exclude[0].queu", "did you mean 'queue'", "allowed keys: algorithm, topology, flows"]),
    "testbed_exclude_value": (study_case(setkey("exclude", value=[{"background": "medium"}]), rel=TB_STUDY),
                              ["exclude[0].background", "'medium'", "allowed values: none, light, heavy"]),
    "dumbbell_unknown_algorithm": (study_case(setkey("grid", "algorithm", value=["bbr", "bbr2"]), rel=MN_STUDY),
                                   ["grid.algorithm[1]", "'bbr2'", "did you mean 'bbr'", "allowed values"]),
    "dumbbell_nan_rate": (study_case(setkey("fixed", "bottleneck_mbps", value=float("nan")), rel=MN_STUDY),
                          ["fixed.bottleneck_mbps", "not a finite number"]),
    "testbed_infinite_duration": (study_case(setkey("fixed", "duration", value=float("inf")), rel=TB_STUDY),
                                  ["fixed.duration", "not a finite number"]),
    "dumbbell_warmup_after_end": (study_case(setkey("fixed", "warmup", value=30), rel=MN_STUDY),
                                  ["warmup", "not shorter than duration", "0 <= warmup < duration"]),
    # ---- results of another configuration (the repository copy holds tiny-profile results)
    "config_results_of_other_study_files": (config_case(same),
                                            ["study_dir", "config/studies/mm1/mm1_lambda.yaml",
                                             "config/test/studies/mm1_lambda.yaml", "would replace them"]),
}


@pytest.fixture(scope="module")
def repo(tmp_path_factory):
    """A repository copy with real results of the tiny mm1_lambda study."""
    repo = copy_repo(tmp_path_factory.mktemp("bad_input"))
    r = snakemake(repo, "--cores", "2", "results/tables/mm1_lambda.csv", "--configfile", TEST_CONFIG)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert list((repo / "results/runs/mm1_lambda").rglob("*.jsonl"))
    return repo


def apply_case(repo: Path, case) -> tuple[str, str]:
    """Write the malformed file; return (its path, the original text)."""
    kind, mutate, text, rel = case
    original = (repo / rel).read_text()
    if text is None:
        doc = copy.deepcopy(yaml.safe_load(original))
        mutate(doc)
        text = yaml.safe_dump(doc, sort_keys=False)
    (repo / rel).write_text(text)
    return rel, original


def commands(kind, index):
    """validate, then a dry run or a real run (alternating by case, so each meets half the cases; both
    parse the workflow the same way), for a study case (tiny config) or a config case (default config)."""
    extra = ["--configfile", TEST_CONFIG] if kind == "study" else []
    target = ["tables"] if kind == "study" else []
    mode = ["-n"] if index % 2 == 0 else ["--cores", "1"]
    return [
        ("validate", lambda repo, rel: simulator_cli(repo, "validate", rel)),
        (f"snakemake {' '.join(mode)}", lambda repo, rel: snakemake(repo, *mode, *target, *extra, timeout=300)),
    ]


def test_at_least_sixty_cases():
    assert len(CASES) >= 60


@pytest.mark.parametrize("name", list(CASES))
def test_malformed_input_is_rejected_before_any_job(repo, name):
    case, expected = CASES[name]
    before = snapshot(repo / "results")
    rel, original = apply_case(repo, case)
    try:
        first_line = None
        for label, run in commands(case[0], list(CASES).index(name)):
            r = run(repo, rel)
            out = r.stdout + r.stderr
            assert r.returncode != 0, f"{label} accepted {name}:\n{out[-2000:]}"
            assert f"{rel}: " in out, f"{label}: message does not name {rel}:\n{out[-2000:]}"
            for s in expected:
                assert s in out, f"{label}: {s!r} missing from:\n{out[-2000:]}"
            if label == "validate":
                assert r.returncode == 2 and "Traceback" not in out, out
                first_line = next(line for line in r.stderr.splitlines() if rel in line).removeprefix("error: ")
            else:
                assert out.count(first_line) == 1, f"{label}: not one message {first_line!r}:\n{out[-2000:]}"
                assert "Job stats" not in out and "rule simulate" not in out, out[-2000:]
    finally:
        (repo / rel).write_text(original)
    assert snapshot(repo / "results") == before, "a rejected run touched results/"
