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
MODULES = {"mm1": "mm1_queue", "dumbbell": "dumbbell", "ns2": "ns2_wired", "testbed": "wifi_testbed",
           "network": "open_network"}
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


def user_algorithms(p: dict) -> list:
    """The user algorithms (simulator/tcp/cc/user.py) run `p` names: its algorithm and, in the
    testbed model, its background flows' algorithm."""
    from simulator.tcp.cc import catalogue
    names = dict.fromkeys(p.get(k) for k in ("algorithm", "background_cc"))
    return [catalogue.USER[n] for n in names if n in catalogue.USER]


def key(p: dict, seed: int) -> str:
    """The run key of full parameters `p` (from resolve) and seed index `seed`: computed from the
    model's key_params(p) where it declares one, else from `p`; with the sha256 of each user
    algorithm's file, so an edited file is a different run."""
    key_params = getattr(scenario(p.get("model", "mm1")), "key_params", None)
    kp = key_params(p) if key_params else p
    users = user_algorithms(p)
    if users:
        kp = {**kp, "user_algorithms": {u.name: u.sha256 for u in users}}
    return run_key(kp, seed)


def run(params: dict, seed: int) -> dict:
    """Run one simulation of `params` (a study point's parameters) with seed index `seed`. An
    exception inside a user algorithm's hook becomes a UserAlgorithmError naming the class, the hook
    and the simulated time."""
    from simulator.tcp.cc.user import hook_failure
    p = resolve(params)
    try:
        return scenario(params.get("model", "mm1")).run(p, key(p, seed))
    except Exception as e:
        for u in user_algorithms(p):
            failure = hook_failure(u, e)
            if failure is not None:
                raise failure from e
        raise
