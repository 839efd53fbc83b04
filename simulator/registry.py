"""The model registry: every model a study may name, its declared parameters and algorithms, and the
dispatch from parameters to a run.

Each model is one module of simulator/scenarios/ that declares DESCRIPTION, PARAMS (simulator/
params.py), ALGORITHMS, `params_with_defaults(params)` (the one place its defaults are applied and
its choices checked) and `run(p, key)`, and may declare `key_params(p)`: the parameters its run key is
computed from (mm1_queue keeps the key names of renamed algorithms, so their runs draw the same
random numbers as before). `model(name)` returns the declaration as a
simulator.params.Model; the study loader checks studies against it and builds the study schema's
parameter definitions from it; `run(params, seed)` resolves the parameters once, derives the run key
from them and runs.
"""
from functools import lru_cache

from simulator.core.seeding import run_key
from simulator.params import Model

# model name -> module of simulator/scenarios/
MODULES = {"mm1": "mm1_queue", "dumbbell": "dumbbell", "ns2": "ns2_wired", "testbed": "wifi_testbed"}
MODELS = tuple(MODULES)


def scenario(name):
    """The module of model `name` (simulator/scenarios/)."""
    import importlib

    if name not in MODULES:
        raise ValueError(f"model {name!r} unknown; allowed: {', '.join(MODELS)}")
    return importlib.import_module(f"simulator.scenarios.{MODULES[name]}")


@lru_cache(maxsize=None)
def model(name: str) -> Model:
    """The declaration of model `name` (one of MODELS): parameters and algorithms from its module, what a
    run reports from its outputs file (simulator/scenarios/<module>.outputs.yaml)."""
    from pathlib import Path

    from simulator.params import load_outputs

    mod = scenario(name)
    metrics, trace = load_outputs(Path(mod.__file__).with_suffix(".outputs.yaml"))
    return Model(name, mod.DESCRIPTION, mod.PARAMS, tuple(mod.ALGORITHMS), metrics, trace)


def resolve(params: dict) -> dict:
    """A run's full parameters: its model's defaults overridden by `params`, checked by the model."""
    return scenario(params.get("model", "mm1")).params_with_defaults(params)


def key(p: dict, seed: int) -> str:
    """The run key of full parameters `p` (from resolve) and seed index `seed`: computed from the
    model's key_params(p) where it declares one, else from `p`."""
    key_params = getattr(scenario(p.get("model", "mm1")), "key_params", None)
    return run_key(key_params(p) if key_params else p, seed)


def run(params: dict, seed: int) -> dict:
    """Run one simulation of `params` (a study point's parameters) with seed index `seed`."""
    p = resolve(params)
    return scenario(params.get("model", "mm1")).run(p, key(p, seed))
