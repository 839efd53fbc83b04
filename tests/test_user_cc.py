"""A researcher's own algorithm in Python (simulator/tcp/cc/user.py): named in a study, checked before
any job, run by the compiled senders of every model, keyed and recorded by its file's hash; a hook
that raises stops its run with the class, hook and simulated time, and writes nothing."""
import json
import shutil
from pathlib import Path

import pytest

from simulator import study_files
from simulator import cli, registry
from simulator.study import load_study
from simulator.study_errors import StudyError
from simulator.tcp.cc import catalogue, user

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = "examples/custom_cc/newreno_in_python.py"

GOOD = """
from simulator.tcp.cc.base import CongestionControl

class Mine(CongestionControl):
    def ssthresh(self, s):
        return max(s.in_flight / 2.0, 2.0)

    def cong_avoid(self, s, acked):
        s.cwnd += acked if s.cwnd < s.ssthresh else acked / s.cwnd
"""
RAISES = GOOD + """
    def pkts_acked(self, s, sample):
        if s.now > 0.5:
            raise RuntimeError("bad idea")
"""
STUDY = """study: {name}
paper: custom
title: user algorithm
model: dumbbell
algorithms:
  {short}: {source}
grid:
  algorithm: [{short}]
fixed:
  flows: 2
  duration: 2
  warmup: 0
"""


@pytest.fixture(autouse=True)
def in_tmp(tmp_path, monkeypatch):
    """Each test in its own directory (paths in `algorithms:` are relative to it), with the catalogue's
    user algorithms of this test only."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(catalogue, "USER", {})
    (tmp_path / "examples/custom_cc").mkdir(parents=True)
    for f in ("newreno_in_python.py", "newreno_in_python.yaml"):
        shutil.copy(ROOT / "examples/custom_cc" / f, tmp_path / "examples/custom_cc" / f)
    return tmp_path


def write_study(short="mine", source="mine.py:Mine", code=GOOD, name="s"):
    if code is not None:
        Path(source.split(":")[0]).write_text(code)
    Path(f"{name}.yaml").write_text(STUDY.format(name=name, short=short, source=source))
    return f"{name}.yaml"


@pytest.mark.parametrize("short, source, code, problem", [
    ("mine", "nowhere.py:Mine", None, "file nowhere.py does not exist"),
    ("mine", "mine.py:Mine", "class Mine(:\n", "mine.py, line 1: syntax error"),
    ("mine", "mine.py:Mine", "class Mine:\n    pass\n", "mine.py:Mine is not a CongestionControl"),
    ("mine", "mine.py:Mine", GOOD.replace("def cong_avoid", "def other"), "does not define hook(s) cong_avoid"),
    ("mine", "mine.py:Other", GOOD, "mine.py has no class 'Other'"),
    ("newreno", "mine.py:Mine", GOOD, "'newreno' is the name of a built-in algorithm"),
    ("mine", "mine.py", GOOD, "is not a class reference"),
])
def test_bad_algorithm_is_refused_naming_file_key_and_problem(short, source, code, problem):
    f = write_study(short, source, code)
    with pytest.raises(StudyError) as e:
        load_study(f)
    msg = str(e.value)
    assert msg.startswith(f"{f}: algorithms.{short}: ") and problem in msg, msg


def test_same_short_name_for_two_files_is_refused():
    load_study(write_study())
    Path("other.py").write_text(GOOD.replace("Mine", "Other"))
    with pytest.raises(StudyError, match="t.yaml: algorithms.mine: 'mine' already names mine.py:Mine"):
        load_study(write_study(source="other.py:Other", code=None, name="t"))


def test_undeclared_name_in_grid_is_refused():
    Path("s.yaml").write_text(STUDY.format(name="s", short="mine", source="mine.py:Mine").replace(
        "algorithm: [mine]", "algorithm: [yours]"))
    Path("mine.py").write_text(GOOD)
    with pytest.raises(StudyError, match=r"grid.algorithm\[0\]: 'yours' is not allowed"):
        load_study("s.yaml")


def test_owns_cwnd_needs_cong_control():
    code = GOOD + "\n    def __init__(self):\n        self.owns_cwnd = True\n"
    with pytest.raises(StudyError, match=r"does not define hook\(s\) cong_control"):
        load_study(write_study(code=code))


MODELS = {
    "dumbbell": {"model": "dumbbell", "flows": 3, "duration": 4.0, "warmup": 0.0, "loss_fwd_pct": 0.5},
    "ns2": {"model": "ns2", "duration": 10.0, "warmup": 0.0, "loss_fwd_pct": 1.0},
    "testbed": {"model": "testbed", "duration": 4.0, "warmup": 0.0},
    "mm1": {"model": "mm1", "variant": "standard", "lambda": 10.0, "mu": 10.0, "K": 5, "N": 300, "theta": None},
}


def same(a: dict, b: dict) -> bool:
    """Bit-identical metrics (NaN equal to NaN)."""
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


@pytest.mark.parametrize("model", MODELS)
def test_python_newreno_equals_builtin_in_every_model(model, monkeypatch):
    """Same random numbers (one run key), the built-in and the Python NewReno: identical metrics, in
    each model's stack (ns3, ns2 and linux ACK counting; SACK and one-way senders; M/M/1 textbook). On the
    ns2 stack the built-in NewReno is NS-2 2.35's own agent (its halving, limited transmit, bug_fix_), which a
    user's algorithm is not (its own ssthresh hook counts): there the built-in runs as a plain NewReno too."""
    catalogue.add_user(user.parse("mynewreno", f"{EXAMPLE}:NewRenoInPython"))
    monkeypatch.setattr(catalogue, "NS2_AGENTS", ())
    builtin = registry.resolve({**MODELS[model], "algorithm": "newreno"})
    mine = registry.resolve({**MODELS[model], "algorithm": "mynewreno"})
    key = registry.key(builtin, 3)
    a = registry.scenario(model).run(builtin, key)["metrics"]
    b = registry.scenario(model).run(mine, key)["metrics"]
    assert same(a, b)
    assert registry.key(mine, 3) != key                       # the user's runs have keys of their own


def test_on_the_ns2_stack_only_the_builtin_reno_family_is_ns2s_own_agent():
    from simulator.tcp import stacks

    catalogue.add_user(user.parse("mynewreno", f"{EXAMPLE}:NewRenoInPython"))
    ns2 = stacks.catalogue_stack(stacks.preset("ns2"))
    assert catalogue.build("newreno", ns2)[1].ns2
    assert not catalogue.build("mynewreno", ns2)[1].ns2


def test_example_study_points_are_identical_for_the_same_seed():
    """issue 16 item 2: the example study's two points (built-in and Python NewReno, several flows,
    random loss), shortened, give identical metrics with the same random numbers."""
    s = load_study("examples/custom_cc/newreno_in_python.yaml")
    assert [p.values["algorithm"] for p in s.points()] == ["newreno", "mynewreno"]
    builtin, mine = (registry.resolve({**p.params, "duration": 8.0}) for p in s.points())
    assert builtin["flows"] > 1 and builtin["loss_fwd_pct"] > 0
    key = registry.key(builtin, 1)
    a, b = (registry.scenario("dumbbell").run(p, key)["metrics"] for p in (builtin, mine))
    assert same(a, b) and a["plr"] > 0


def test_as_published_variant_does_not_take_user_algorithms():
    Path("mine.py").write_text(GOOD)
    catalogue.add_user(user.parse("mine", "mine.py:Mine"))
    with pytest.raises(ValueError, match="'mine' unknown for variant as_published"):
        registry.resolve({**MODELS["mm1"], "variant": "as_published", "algorithm": "mine"})


def test_file_hash_is_in_run_key_and_provenance():
    s = load_study(write_study())
    p = s.points()[0]
    before = registry.key(registry.resolve(p.params), 1)
    rec = cli.run_record(s, p, 1)
    assert rec["provenance"]["user_algorithms"] == [
        {"name": "mine", "file": "mine.py", "class": "Mine", "sha256": s.algorithms["mine"].sha256}]
    catalogue.USER.clear()
    Path("mine.py").write_text(GOOD + "# edited\n")
    s2 = load_study("s.yaml")
    assert s2.algorithms["mine"].sha256 != s.algorithms["mine"].sha256
    assert registry.key(registry.resolve(p.params), 1) != before


def test_hook_exception_stops_the_run_and_writes_nothing(capsys):
    f = write_study(code=RAISES)
    out = Path("runs/out.jsonl")
    rc = cli.main(["batch", f, "--point-path", "algorithm~mine", "--seeds", "1-2", "--out", str(out)])
    err = capsys.readouterr().err
    assert rc == 1 and not out.exists() and not list(Path("runs").glob("*"))
    assert "mine.py:Mine.pkts_acked raised RuntimeError: bad idea at simulated time 0.5" in err, err


def test_batch_records_runs_of_user_algorithm():
    f = write_study()
    out = Path("out.jsonl")
    assert cli.main(["batch", f, "--point-path", "algorithm~mine", "--seeds", "1-1", "--out", str(out)]) == 0
    rec = json.loads(out.read_text())
    assert rec["params"]["algorithm"] == "mine" and rec["metrics"]["goodput_mbps"] > 0


# ---------------------------------------------------------------- item 3: beside the built-ins in any study
NEWRENO_PY = {"mynewreno": f"{EXAMPLE}:NewRenoInPython"}


def paper_study(name):
    shutil.copy(study_files.find(ROOT / "config/studies", name), f"{name}.yaml")
    return f"{name}.yaml"


def test_extra_algorithm_joins_algorithm_axes_it_can():
    """Grids comparing network algorithms get it; grids of an algorithm's own parameter (alpha), the
    M/M/1 published-code variant and the none-only analytic study do not."""
    new = {}
    for name in ("qt_single_static", "mm1_lambda", "mm1_analytic", "mn_high_latency"):
        f = paper_study(name)
        before = {p.path for p in load_study(f).points()}
        new[name] = [p.path for p in load_study(f, NEWRENO_PY).points() if p.path not in before]
    assert new["qt_single_static"] == ["algorithm~mynewreno"]
    assert new["mm1_lambda"] and all(p.startswith("variant~standard/algorithm~mynewreno/") for p in new["mm1_lambda"])
    assert new["mm1_analytic"] == []
    assert new["mn_high_latency"] == ["algorithm~mynewreno/change~static", "algorithm~mynewreno/change~fluctuating"]


def test_extra_algorithm_other_file_under_study_name_is_refused():
    f = write_study(short="mynewreno")
    with pytest.raises(StudyError, match="s.yaml: algorithms.mynewreno: 'mine.py:Mine', but the workflow config's"):
        load_study(f, NEWRENO_PY)


def test_bad_extra_algorithm_in_config_names_config_file_and_key():
    from simulator.workflow_config import check_config
    shutil.copytree(ROOT / "config", "config")
    Path("config/config.yaml").write_text((ROOT / "config/config.yaml").read_text()
                                          + "extra_algorithms:\n  mine: nowhere.py:Mine\n")
    import yaml
    cfg = yaml.safe_load(Path("config/config.yaml").read_text())
    with pytest.raises(StudyError, match="config/config.yaml: extra_algorithms.mine: file nowhere.py does not exist"):
        check_config(cfg, ["config/config.yaml"], ROOT / "workflow/schemas/config.schema.yaml")


def test_batch_job_joins_algorithm_given_on_command_line(tmp_path):
    f = paper_study("qt_single_static")
    out = tmp_path / "out.jsonl"
    args = ["batch", f, "--point-path", "algorithm~mynewreno", "--seeds", "1-1", "--out", str(out)]
    assert cli.main(args) == 2                                 # without --algorithm: no such point
    catalogue.USER.clear()
    Path(f).write_text(Path(f).read_text().replace("duration: 100 ", "duration: 3 ").replace("warmup: 10 ", "warmup: 1 "))
    assert cli.main(args + ["--algorithm", "mynewreno=" + NEWRENO_PY["mynewreno"]]) == 0
    assert json.loads(out.read_text())["provenance"]["user_algorithms"][0]["file"] == EXAMPLE


def test_user_algorithm_has_a_stable_colour_of_its_own_and_a_label():
    from simulator.report import style
    builtin = {style.PALETTE[a] for a in style.ALGORITHMS}
    assert style.PALETTE["mynewreno"] == style.PALETTE["mynewreno"] not in builtin
    assert style.label("mynewreno") == "mynewreno" and "mynewreno" not in style.PALETTE   # nothing cached
