"""The model registry (simulator/registry.py) and parameter declarations (simulator/params.py):
defaults come from the declarations, the study schema is generated from them, and a study may name
only parameters its model declares, in grid:, fixed: and exclude: alike."""
from pathlib import Path

import pytest

from simulator import registry
from simulator.params import Model, Param, defaults_of, study_schema_params
from simulator.study import load_schema, load_study
from simulator.study_errors import StudyError

MODELS = [registry.model(m) for m in registry.MODELS]


def test_every_model_declares_its_parameters_with_help():
    for m in MODELS:
        assert m.names[0] in ("variant", "algorithm") and "algorithm" in m.names
        assert m.algorithms and len(set(m.names)) == len(m.names)
        for p in m.params:
            assert p.help, (m.name, p.name)
            assert p.name in ("variant", "algorithm") or p.schema, (m.name, p.name)


def test_defaults_are_the_declared_ones_and_runs_start_from_them():
    from simulator.scenarios import dumbbell, ns2_wired, wifi_testbed
    for m, mod in (("dumbbell", dumbbell), ("ns2", ns2_wired), ("testbed", wifi_testbed)):
        assert mod.DEFAULTS == registry.model(m).defaults()
        p = mod.params_with_defaults({"algorithm": mod.ALGORITHMS[0]})
        assert all(p[k] == v for k, v in mod.DEFAULTS.items() if k not in ("flows",)), m
    assert registry.scenario("mm1").DEFAULTS == registry.model("mm1").defaults()
    assert registry.model("mm1").required == ("variant", "algorithm", "lambda", "mu", "K", "theta", "N")


def test_schema_parameters_are_generated_from_the_declarations():
    schema = load_schema()
    declared = {p.name for m in MODELS for p in m.params}
    assert set(schema["$defs"]["param"]) == declared
    assert set(schema["properties"]["fixed"]["properties"]) == declared
    grid = set(schema["$defs"]["grid"]["properties"])
    lists = {"flow_pairs", "capacity_schedule", "start_times_s", "flow_extra_delay_ms",   # lists themselves
             "hosts", "routers", "links", "flow_classes", "load_link", "monitor"}          # the network model's
    assert grid == declared - lists
    assert schema["$defs"]["param"]["lambda"]["description"] == "arrival rate, packets/s"
    assert "bbr" in schema["$defs"]["param"]["algorithm"]["enum"]


def test_one_name_must_mean_one_constraint():
    a = Model("a", "", (Param("x", {"type": "number"}, 1.0, help="x"),), ("reno",))
    b = Model("b", "", (Param("x", {"type": "integer"}, 1, help="x"),), ("reno",))
    with pytest.raises(ValueError, match="parameter 'x': models a and b declare different constraints"):
        study_schema_params([a, b])
    assert defaults_of(a.params) == {"x": 1.0, "trace": False}


def write(tmp_path: Path, name: str, text: str) -> Path:
    f = tmp_path / f"{name}.yaml"
    f.write_text(f"study: {name}\n" + text)
    return f


@pytest.mark.parametrize("name, body, expected", [
    ("mm1_with_flows", "paper: mm1\ntitle: t\nmodel: mm1\ngrid: {variant: [standard], algorithm: [reno]}\n"
     "fixed: {lambda: 5, mu: 10, K: 5, theta: 1, N: 50, flows: 3}\n",
     ["fixed.flows", "'flows' is not a parameter of model mm1", "allowed keys: variant, algorithm, lambda"]),
    ("dumbbell_with_lambda", "paper: qtcol\ntitle: t\nmodel: dumbbell\ngrid: {algorithm: [cubic], lambda: [5]}\n",
     ["grid.lambda", "'lambda' is not a parameter of model dumbbell", "allowed keys: algorithm, alpha"]),
    ("ns2_with_misspelt_key", "paper: ns2\ntitle: t\nmodel: ns2\ngrid: {algorithm: [reno]}\nfixed: {alpha: 1.2}\n",
     ["fixed.alpha", "not a parameter of model ns2", "allowed keys: algorithm, topology"]),
    ("testbed_exclude_typo", "paper: testbed\ntitle: t\nmodel: testbed\ngrid: {algorithm: [bbr, cubic]}\n"
     "exclude: [{algoritm: bbr}]\n", ["exclude[0].algoritm", "did you mean 'algorithm'"]),
    ("dumbbell_exclude_value", "paper: qtcol\ntitle: t\nmodel: dumbbell\ngrid: {algorithm: [bbr, cubic]}\n"
     "exclude: [{algorithm: reno}]\n", ["exclude[0].algorithm", "'reno' is not a value of grid.algorithm",
                                        "allowed values: bbr, cubic"]),
    ("ns2_exclude_non_grid_key", "paper: ns2\ntitle: t\nmodel: ns2\ngrid: {algorithm: [reno, vegas]}\n"
     "exclude: [{queue: fq}]\n", ["exclude[0].queue", "unknown grid key 'queue'", "allowed keys: algorithm"]),
])
def test_keys_a_model_does_not_declare_are_rejected(tmp_path, name, body, expected):
    f = write(tmp_path, name, body)
    with pytest.raises(StudyError) as e:
        load_study(f)
    msg = str(e.value)
    assert msg.startswith(str(f)), msg
    for part in expected:
        assert part in msg, (part, msg)


def test_every_shipped_study_uses_only_declared_keys():
    root = Path(__file__).resolve().parents[1]
    for f in sorted((root / "config").glob("**/studies/**/*.yaml")):
        load_study(f)


RUNS = {  # a short run of each model, in the variants whose outputs differ
    "mm1": [{"model": "mm1", "variant": v, "algorithm": a, "lambda": 9, "mu": 10, "K": 5, "theta": None, "N": 300}
            for v, a in (("as_published", "none"), ("as_published", "published_reno"), ("standard", "none"),
                         ("standard", "reno"))],
    "dumbbell": [{"model": "dumbbell", "algorithm": "cubic", "flows": 2, "duration": 3, "warmup": 1}],
    "ns2": [{"model": "ns2", "algorithm": "reno", "duration": 20}],
    "testbed": [{"model": "testbed", "algorithm": "cubic", "duration": 5, "warmup": 1, "bidir": b} for b in (False, True)],
}


@pytest.mark.parametrize("name", list(RUNS))
def test_declared_outputs_are_what_runs_report(name):
    """The outputs file of each model lists exactly the metrics its runs report and matches every trace
    column, so a claim naming a metric no run reports is refused before any job (simulator/reference.py)."""
    m = registry.model(name)
    metrics, columns = set(), set()
    for p in RUNS[name]:
        out = registry.run({**p, "trace": True}, 1)
        metrics |= set(out["metrics"])
        columns |= set(out.get("trace", {}))   # no cwnd trace without congestion control
    assert metrics == set(m.metrics)
    assert all(m.reports(c, traces=True) for c in columns)
    assert not m.reports("no_such_metric", traces=True)
