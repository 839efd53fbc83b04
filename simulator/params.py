"""Declared parameters and models: the one place that says what a study may set.

Each model module declares `PARAMS`, a tuple of Param (name, the JSON-schema constraint of one
value, default, unit, help), and the registry (simulator/registry.py) gathers them into a Model.
From these declarations come the defaults a run uses (applied once, `Model.with_defaults`), the
study schema's parameter definitions (`study_schema_params`) and the check that a study names only
parameters its model knows (simulator/study.py), as ns-3 derives its attribute checks from one
declaration per attribute.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

REQUIRED = object()   # default of a parameter every point must give (from grid: or fixed:)


@dataclass(frozen=True)
class Param:
    name: str
    schema: dict = field(default_factory=dict)   # JSON-schema constraint of one value (type, range, enum)
    default: object = REQUIRED
    unit: str = ""
    help: str = ""
    must_give: bool = False     # a study must give it even though runs have a default (M/M/1's theta)
    in_grid: bool = True        # may be swept in grid: (False for values that are lists themselves)

    @property
    def required(self) -> bool:
        """A study must give it (from grid: or fixed:)."""
        return self.must_give or self.default is REQUIRED

    def describe(self) -> str:
        """The help text with its unit, as the schema's description."""
        return f"{self.help}, {self.unit}" if self.unit else self.help


@dataclass(frozen=True)
class Model:
    name: str
    description: str
    params: tuple          # of Param, in declaration order
    algorithms: tuple      # names a study may give as `algorithm`
    metrics: tuple = ()    # what a run reports (simulator/scenarios/<model>.outputs.yaml)
    trace: tuple = ()      # trace columns; "{i}" stands for a flow index

    def reports(self, name: str, traces: bool = False) -> bool:
        """A run of this model reports `name`: a metric, or (traces) a trace column."""
        import re

        if name in self.metrics:
            return True
        return traces and any(re.fullmatch(c.replace("{i}", r"\d+"), name) for c in self.trace)

    @property
    def names(self) -> list[str]:
        return [p.name for p in self.params]

    @property
    def required(self) -> tuple:
        return tuple(p.name for p in self.params if p.required)

    def defaults(self) -> dict:
        return defaults_of(self.params)


def defaults_of(params) -> dict:
    """{name: default} of the parameters of a PARAMS tuple that have one, plus trace off (the
    study's top-level `trace:` sets it)."""
    out = {p.name: p.default for p in params if p.default is not REQUIRED}
    out["trace"] = False
    return out


def grid_params(models) -> list[str]:
    """Names that may be swept in a study's grid: (every declared name but list-valued ones)."""
    return list(dict.fromkeys(p.name for m in models for p in m.params if p.in_grid))


def study_schema_params(models) -> dict:
    """{name: JSON-schema fragment with description} over every model's declarations; a name that
    several models declare must carry the same constraint in each (checked)."""
    out, owner = {}, {}
    for m in models:
        for p in m.params:
            frag = dict(p.schema)
            if p.name in out:
                if {k: v for k, v in out[p.name].items() if k != "description"} != frag:
                    raise ValueError(f"parameter {p.name!r}: models {owner[p.name]} and {m.name} declare different "
                                     f"constraints ({out[p.name]} vs {frag}); give one of them another name")
                continue
            if p.help:
                frag["description"] = p.describe()
            out[p.name], owner[p.name] = frag, m.name
    return out


def with_defaults(defaults: dict, params: dict) -> dict:
    """A model's declared defaults overridden by a run's parameters (None keeps a default): the one
    place defaults are applied, through each model's params_with_defaults."""
    p = dict(defaults)
    p.update({k: v for k, v in params.items() if v is not None or k not in defaults})
    return p


def check_choice(p: dict, key: str, allowed, model: str) -> None:
    """A named choice (algorithm, topology, ...) is one the model offers."""
    if p.get(key) not in allowed:
        raise ValueError(f"{key} {p.get(key)!r} unknown for model {model}; allowed: {', '.join(allowed)}")


def check_span(p: dict) -> None:
    """A run lasts some time, and its warm-up (excluded from the summaries) ends before it does."""
    if not p["duration"] > 0:
        raise ValueError(f"duration: {p['duration']} s; allowed values: duration > 0")
    if not 0 <= p["warmup"] < p["duration"]:
        raise ValueError(f"warmup: {p['warmup']} s is not shorter than duration {p['duration']} s; "
                         f"allowed values: 0 <= warmup < duration")


def load_outputs(path) -> tuple[tuple, tuple]:
    """(metrics, trace columns) of a model from its outputs file (simulator/scenarios/<model>.outputs.yaml)."""
    from simulator.safe_yaml import load_own

    doc = load_own(Path(path).read_text())
    return tuple(doc["metrics"]), tuple(doc["trace"])


SHARED = Path(__file__).parent / "scenarios" / "network.params.yaml"


@lru_cache(maxsize=None)
def shared_declarations() -> dict:
    """{name: entry} of SHARED, read once per process (every network model's file refers to it)."""
    from simulator.safe_yaml import load_own

    return {x["name"]: x for x in load_own(SHARED.read_text())}


WIFI = Path(__file__).parent / "net" / "wifi.params.yaml"


@lru_cache(maxsize=None)
def wifi_declarations() -> dict:
    """{name: entry} of the 802.11 channel's parameters (simulator/net/wifi.params.yaml)."""
    from simulator.safe_yaml import load_own

    return {x["name"]: x for x in load_own(WIFI.read_text())}


def load_params(path, algorithms=()) -> tuple:
    """A model's PARAMS from its declaration file (simulator/scenarios/<model>.params.yaml): one entry
    per parameter (name, schema, default, unit, help, must_give, in_grid; no default: required),
    `algorithm_param: <algorithm>.<name>` for a parameter an algorithm of the catalogue declares, or
    `shared: <name>` for one of the packet-network models' common declarations (SHARED), or
    `wifi: <name>` for a parameter of the 802.11 channel (WIFI), named mac_<name> in a study, each
    with the entry's own default or help where it gives them.  `enum: algorithms` in a schema stands for the
    model's own algorithm list."""
    from simulator.safe_yaml import load_own

    from simulator.tcp.cc import catalogue

    out = []
    for e in load_own(Path(path).read_text()):
        if "algorithm_param" in e:
            alg, name = e["algorithm_param"].split(".")
            out.append(next(p for p in catalogue.algorithm(alg).params if p.name == name))
            continue
        if "shared" in e:
            e = {**shared_declarations()[e["shared"]], **{k: v for k, v in e.items() if k != "shared"}}
        if "wifi" in e:
            base = wifi_declarations()[e["wifi"]]
            e = {**base, "name": "mac_" + base["name"], **{k: v for k, v in e.items() if k != "wifi"}}
        schema = dict(e.get("schema", {}))
        if schema.get("enum") == "algorithms":
            schema["enum"] = list(algorithms)
        out.append(Param(e["name"], schema=schema, default=e.get("default", REQUIRED), unit=e.get("unit", ""),
                         help=e.get("help", ""), must_give=e.get("must_give", False),
                         in_grid=e.get("in_grid", True)))
    return tuple(out)
