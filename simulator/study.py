"""Study files: load, validate, expand into grid points.

A study is one YAML file (see config/studies/). It is checked against
``simulator/schemas/study.schema.json`` and then semantically (algorithm names
from the simulator's registry for each variant, exclude entries that name real
grid values, ...). Every problem raises :class:`StudyError` whose message names
the file, the key path (``grid.algorithm[2]``), the bad value, the allowed
values and, for a misspelling, the nearest valid name.

Grid points are named Paramspace-style: ``variant~standard/algorithm~reno/lambda~5``
(grid keys in YAML order, values formatted as written, so paths never flip
between ``1.0`` and ``1``).
"""
from __future__ import annotations

import copy
import itertools
import json
import math
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from simulator.cost import MAX_PACKETS_PER_RUN, check_run_cost
from simulator.run_limits import MAX_RUN_FILES, trace_problem
from simulator.study_errors import StudyError, read_yaml_mapping
# format_value, key_path and nearest are re-exported: other modules import them from here
from simulator.schema_messages import allowed_text, describe, format_value, key_path, nearest, schema_message  # noqa: F401

SCHEMA_PATH = Path(__file__).with_name("schemas") / "study.schema.json"

# Python types that grid and fixed values of these parameters are converted to (the rest stay as written).
PARAM_TYPES = {
    "variant": str,
    "algorithm": str,
    "lambda": float,
    "mu": float,
    "K": int,
    "theta": float,  # None allowed: infinite deadline
    "N": int,
    "prop_delay": float,
    "rto_min": float,
    "rng": str,
    "alpha": float,
    "flows": int,
    "buffer_bdp": float,
    "duration": float,
    "warmup": float,
}


def _registry():
    """(variants, {variant: [algorithms]}) of the M/M/1 model (simulator/scenarios/mm1_queue.py)."""
    from simulator.scenarios import mm1_queue

    return list(mm1_queue.VARIANTS), {v: list(mm1_queue.algorithms_of(v)) for v in mm1_queue.VARIANTS}


def load_schema(user_algorithms=()) -> dict:
    """The study schema: its structure from simulator/schemas/study.schema.json, every parameter's
    definition generated from the models' declarations (simulator/registry.py, simulator/params.py);
    `user_algorithms`: the short names of the study's own algorithms, allowed as algorithm values."""
    from simulator import registry
    from simulator.params import grid_params, study_schema_params

    schema = json.loads(SCHEMA_PATH.read_text())
    models = [registry.model(m) for m in registry.MODELS]
    params = study_schema_params(models)
    params["variant"] = {"enum": list(registry.scenario("mm1").VARIANTS)}
    params["algorithm"] = {"enum": list(dict.fromkeys([a for m in models for a in m.algorithms] + list(user_algorithms)))}
    schema["$defs"]["param"] = params
    schema["$defs"]["grid"]["properties"] = {
        k: {"type": "array", "minItems": 1, "uniqueItems": True, "items": {"$ref": f"#/$defs/param/{k}"}}
        for k in grid_params(models)}
    schema["properties"]["fixed"]["properties"] = {k: {"$ref": f"#/$defs/param/{k}"} for k in params}
    return schema


# --------------------------------------------------------------------------- model
@dataclass(frozen=True)
class Point:
    """One grid point of a study."""

    study: str
    values: dict  # grid key -> value as written
    params: dict = field(compare=False)  # fixed + grid, typed for simulator.run

    @property
    def path(self) -> str:
        return "/".join(f"{k}~{format_value(v)}" for k, v in self.values.items())

    def __hash__(self):
        return hash((self.study, self.path))


@dataclass
class Study:
    name: str
    paper: str
    title: str
    model: str
    grid: dict
    fixed: dict
    file: Path
    seeds_per_job: int | None = None
    jobs: int | None = None          # workflow jobs its run files are shared out over (None: run_jobs' default)
    seeds: int | None = None
    grids: list = field(default_factory=list)   # several grids (the `grids:` key); else [grid]
    trace: bool = False
    trace_seeds: int | None = None   # seeds per point whose traces the trace table keeps (None: default)
    exclude: list = field(default_factory=list)
    description: str = ""
    max_runs: int = 100_000
    run_time_limit: float | None = None   # wall-clock seconds one run may take; None: run_budget.seconds_for's default
    max_packets_per_run: float = MAX_PACKETS_PER_RUN   # ceiling on one run's estimated packets (simulator/cost.py)
    algorithms: dict = field(default_factory=dict)   # short name -> user.UserAlgorithm (the `algorithms:` key)

    def grid_size(self) -> int:
        """Grid points before `exclude`, counted without expanding the grid."""
        return sum(math.prod(len(v) for v in g.values()) for g in self.grids or [self.grid])

    def check_runs(self, n_seeds: int) -> None:
        """Refuse a study whose runs (points x seeds) exceed its limit, or whose run files (points x seed
        batches) exceed MAX_RUN_FILES, counted before anything is expanded."""
        seeds = self.seeds or n_seeds
        points = self.grid_size()
        runs = points * seeds
        if runs > self.max_runs:
            fix = (f"add `max_runs: {runs}` to the study file" if points <= MAX_RUN_FILES else
                   f"split the grid over several study files: a study has at most {MAX_RUN_FILES} grid points, "
                   f"whatever max_runs says")
            raise StudyError(
                f"{self.file}: grid: {points} points x {seeds} seeds = {runs} runs, above the limit of "
                f"{self.max_runs} runs per study; allowed values: at most max_runs runs. To run a sweep this big "
                f"on purpose, {fix}")
        self._check_run_files(seeds)

    def _check_run_files(self, seeds: int) -> None:
        points, per = self.grid_size(), self.seeds_per_job or seeds
        batches = -(-seeds // per)
        if points * batches <= MAX_RUN_FILES:
            return
        if points > MAX_RUN_FILES:
            raise StudyError(
                f"{self.file}: grid: {points} points, above the limit of {MAX_RUN_FILES} grid points per study "
                f"(before exclude; each point is at least one run file and one set of checks, whatever max_runs "
                f"says); allowed values: at most {MAX_RUN_FILES} points. Split the grid over several study files")
        fewer = -(-seeds // (MAX_RUN_FILES // points))
        raise StudyError(
            f"{self.file}: seeds_per_job: {points} points x {batches} seed batches ({seeds} seeds, "
            f"{per} per job) = {points * batches} run files, above the limit of {MAX_RUN_FILES} run files "
            f"per study; allowed values: points x ceil(seeds / seeds_per_job) <= {MAX_RUN_FILES}. "
            f"Raise seeds_per_job (e.g. seeds_per_job: {fewer}) or lower seeds")

    def _excluded(self, values: dict) -> bool:
        return any(all(values.get(k) == v for k, v in e.items()) for e in self.exclude)

    def _params(self, values: dict) -> dict:
        merged = {"model": self.model}
        raw = {**self.fixed, **values}
        order = list(PARAM_TYPES) + [k for k in raw if k not in PARAM_TYPES]
        for k in order:
            if k in raw:
                v = raw[k]
                t = PARAM_TYPES.get(k)
                merged[k] = t(v) if (t is not None and v is not None) else v
        merged["trace"] = bool(self.trace)
        return merged

    @cached_property
    def _points(self) -> list:
        out, seen = [], set()
        for grid in self.grids or [self.grid]:
            keys = list(grid)
            for combo in itertools.product(*(grid[k] for k in keys)):
                values = dict(zip(keys, combo))
                point = Point(self.name, values, self._params(values))
                if not self._excluded(values) and point.path not in seen:
                    seen.add(point.path)
                    out.append(point)
        return out

    def points(self) -> list:
        """Grid points in YAML order (cartesian product minus exclude)."""
        return list(self._points)

    @cached_property
    def _by_path(self) -> dict:
        return {p.path: p for p in self._points}

    def point(self, path: str) -> Point:
        return point_from_path(self, path)

    def seed_batches(self, n_seeds: int) -> list:
        """Seeds 1..n_seeds (the study's own `seeds` if set) cut into (first, last) batches."""
        if n_seeds < 1:
            raise StudyError(f"{self.file}: number of seeds must be >= 1, got {n_seeds}")
        n_seeds = self.seeds or n_seeds
        per = self.seeds_per_job or n_seeds
        return [(a, min(a + per - 1, n_seeds)) for a in range(1, n_seeds + 1, per)]


def point_from_path(study: Study, path: str) -> Point:
    """The point of ``study`` whose wildcard path is ``path``."""
    try:
        return study._by_path[path.strip("/")]
    except KeyError:
        hint = nearest(path, study._by_path)
        raise StudyError(
            f"{study.file}: no grid point {path!r}{hint}; the study has {len(study._by_path)} points, "
            f"e.g. {next(iter(study._by_path), '(none)')!r}"
        ) from None


# --------------------------------------------------------------------------- loading
def load_study(path, extra_algorithms=None, doc: dict | None = None) -> Study:
    """Read, validate and return the study in ``path`` (or ``doc``, its contents as built by a caller such
    as simulator/suite.py; messages still name ``path``); raises StudyError. ``extra_algorithms``
    ({short name: 'file.py:Class'}, the workflow config's extra_algorithms) join its algorithm axis
    where they can (join_algorithms)."""
    path = Path(path)
    doc = read_yaml_mapping(path, "study") if doc is None else doc
    from simulator.study_algorithms import join_algorithms, user_algorithms

    doc = join_algorithms(doc, extra_algorithms or {}, path)

    if ("grid" in doc) == ("grids" in doc):
        raise StudyError(f"{path}: grid/grids: give exactly one of them ({'both are' if 'grid' in doc else 'neither is'} "
                         "there); allowed keys: grid (one cartesian product of lists) or grids (a list of such "
                         "products whose points are all run)")
    _check_size_early(path, doc)
    algorithms = user_algorithms(path, doc)
    schema = load_schema(algorithms)
    _check_finite(path, doc, schema)
    import jsonschema   # here, not at import: commands that validate no file do not pay for it

    validator = jsonschema.Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(doc), key=lambda e: [str(p) for p in e.absolute_path])
    if errors:
        raise StudyError("\n".join(f"{path}: {schema_message(e, schema)}" for e in errors))

    study = Study(
        name=doc["study"],
        paper=doc["paper"],
        title=doc["title"],
        model=doc["model"],
        grid=_union_grid(doc.get("grids") or [doc["grid"]]),
        grids=copy.deepcopy(doc.get("grids") or []),
        fixed=copy.deepcopy(doc.get("fixed") or {}),
        file=path,
        seeds_per_job=doc.get("seeds_per_job"),
        jobs=doc.get("jobs"),
        seeds=doc.get("seeds"),
        trace=doc.get("trace", False),
        trace_seeds=doc.get("trace_seeds"),
        exclude=copy.deepcopy(doc.get("exclude") or []),
        description=doc.get("description", ""),
        max_runs=doc.get("max_runs", Study.max_runs),
        run_time_limit=float(doc["run_time_limit"]) if "run_time_limit" in doc else None,
        max_packets_per_run=doc.get("max_packets_per_run", Study.max_packets_per_run),
        algorithms=algorithms,
    )
    study.check_runs(1)
    _check_semantics(study)
    return study


def _check_size_early(path, doc: dict) -> None:
    """The run-count limits, from the document's grid shapes, before the schema check (whose uniqueItems
    compares every pair of a list's values: minutes for a 10^4-value list); a malformed grid is left to it."""
    grids = doc.get("grids") if "grids" in doc else [doc.get("grid")]
    if not (isinstance(grids, list) and grids and all(isinstance(g, dict) and g for g in grids)
            and all(isinstance(v, list) for g in grids for v in g.values())):
        return
    sizes = {k: doc.get(k) for k in ("seeds", "seeds_per_job", "max_runs")}
    declared = json.loads(SCHEMA_PATH.read_text())["properties"]
    if not all(v is None or (isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= declared[k]["maximum"])
               for k, v in sizes.items()):
        return                        # the schema check names the key and its range
    draft = Study(name="", paper="", title="", model="", grid={}, fixed={}, file=Path(path), grids=grids,
                  seeds=sizes["seeds"], seeds_per_job=sizes["seeds_per_job"],
                  max_runs=sizes["max_runs"] or Study.max_runs)
    draft.check_runs(1)


def _values(doc: dict):
    """(key path, parameter name, value) of every grid, grids, fixed and exclude value, nested lists included."""
    def walk(parts, name, v):
        if isinstance(v, list):
            for i, x in enumerate(v):
                yield from walk(parts + [i], name, x)
        else:
            yield parts, name, v
    for g, grid in [("grid", doc.get("grid"))] + [(["grids", j], x) for j, x in enumerate(doc.get("grids") or [])]:
        for k, vs in (grid or {}).items() if isinstance(grid, dict) else ():
            yield from walk(([g] if isinstance(g, str) else g) + [k], k, vs)
    for k, v in (doc.get("fixed") or {}).items() if isinstance(doc.get("fixed"), dict) else ():
        yield from walk(["fixed", k], k, v)
    for i, e in enumerate(doc.get("exclude") or []) if isinstance(doc.get("exclude"), list) else ():
        for k, v in e.items() if isinstance(e, dict) else ():
            yield from walk(["exclude", i, k], k, v)


def _check_finite(path, doc: dict, schema: dict) -> None:
    """NaN and infinities are no parameter values (they pass JSON-schema ranges unnoticed); whole-number
    study keys (seeds, ...) are written without a decimal point."""
    params = schema["$defs"]["param"]
    for parts, name, v in _values(doc):
        if isinstance(v, float) and not math.isfinite(v):
            allowed = describe(params[name]) if name in params else "finite numbers"
            raise StudyError(f"{path}: {key_path(parts)}: {v!r} is not a finite number; allowed values: {allowed}")
    for key in ("seeds", "seeds_per_job", "jobs", "trace_seeds"):
        v = doc.get(key)
        if isinstance(v, float):
            raise StudyError(f"{path}: {key}: {v!r} is not a whole number; allowed values: "
                             f"{describe(schema['properties'][key])}, written without a decimal point")


def _union_grid(grids: list) -> dict:
    """Every grid key with all the values it takes in any grid (for messages and the CLI)."""
    union = {}
    for g in grids:
        for k, values in g.items():
            union.setdefault(k, [])
            union[k] += [v for v in values if v not in union[k]]
    return copy.deepcopy(union)


def _model(name):
    from simulator import registry
    return registry.model(name)


def _models_accepting(key: str) -> list:
    """The models that declare parameter `key`."""
    from simulator import registry
    return [m for m in registry.MODELS if key in registry.model(m).names]


def _check_keys_declared(s: Study, declared) -> None:
    """Every grid, fixed and exclude key is a parameter the study's model declares: nothing a user
    writes is silently ignored."""
    f, names = s.file, declared.names
    places = [(f"grid.{k}", k) for k in s.grid] + [(f"fixed.{k}", k) for k in s.fixed]
    places += [(f"exclude[{i}].{k}", k) for i, e in enumerate(s.exclude) for k in e]
    for where, k in places:
        if k not in names:
            others = _models_accepting(k)
            accepted = (f"; models that accept {k!r}: {', '.join(others)}" if others
                        else f"; no model accepts {k!r}")
            raise StudyError(f"{f}: {where}: {k!r} is not a parameter of model {declared.name}{nearest(k, names)}"
                             f"{accepted}; allowed keys: {', '.join(names)}")


def _check_exclude(s: Study) -> None:
    """Each exclude entry names grid keys and values the grid has (else it would exclude nothing)."""
    f = s.file
    for i, entry in enumerate(s.exclude):
        for k, v in entry.items():
            if k not in s.grid:
                raise StudyError(
                    f"{f}: exclude[{i}].{k}: unknown grid key {k!r}{nearest(k, s.grid)}; allowed keys: {', '.join(s.grid)}"
                )
            if v not in s.grid[k]:
                raise StudyError(
                    f"{f}: exclude[{i}].{k}: {v!r} is not a value of grid.{k}{nearest(v, s.grid[k])}; "
                    f"allowed values: {allowed_text(s.grid[k])}"
                )


def _algorithm_place(s: Study, p: Point) -> str:
    """Where point `p`'s algorithm is written: 'grid.algorithm[2]', 'grids[0].algorithm[1]' (the first
    grid that gives it, for the point's variant) or 'fixed.algorithm'."""
    if "algorithm" not in p.values:
        return "fixed.algorithm"
    variant, algorithm = p.params["variant"], p.values["algorithm"]
    grids = [("grid", s.grid)] if not s.grids else [(f"grids[{j}]", g) for j, g in enumerate(s.grids)]
    for name, g in grids:
        if algorithm in g.get("algorithm", []) and variant in g.get("variant", [s.fixed.get("variant")]):
            return f"{name}.algorithm[{g['algorithm'].index(algorithm)}]"
    return "grid.algorithm"


def _check_semantics(s: Study) -> None:
    f = s.file
    if s.name != f.stem:
        raise StudyError(f"{f}: study: {s.name!r} must equal the file name stem; allowed values: {f.stem!r}")

    both = [k for k in s.grid if k in s.fixed]
    if both:
        raise StudyError(f"{f}: fixed.{both[0]}: {both[0]!r} is also a grid key; give it in grid: or fixed:, not both")
    declared = _model(s.model)
    _check_keys_declared(s, declared)
    required = declared.required
    for grid in s.grids or [s.grid]:
        have = set(grid) | set(s.fixed)
        missing = [k for k in required if k not in have]
        if missing:
            raise StudyError(
                f"{f}: fixed: missing parameter(s) {', '.join(map(repr, missing))}; every point needs "
                f"{', '.join(required)} from grid: or fixed:" + (" (theta: null means no deadline)" if s.model == "mm1" else "")
            )
    _check_exclude(s)
    if s.model != "mm1":
        from simulator.point_checks import check_network_points   # loads the model registry: only for network studies
        check_network_points(s)
        check_run_cost(s)
        return

    _, algos = _registry()
    for p in s.points():
        variant, algorithm = p.params["variant"], p.params["algorithm"]
        if p.params.get("rng") == "paper_legacy" and variant != "as_published":
            raise StudyError(f"{f}: rng: 'paper_legacy' replays the published code's stream and needs "
                             f"variant as_published, got {variant!r}; allowed values for {variant}: streams")
        allowed = algos.get(variant, [])
        if algorithm not in allowed:
            from simulator.scenarios.mm1_queue import suggestion
            hint = suggestion(variant, algorithm) or nearest(algorithm, allowed)
            raise StudyError(
                f"{f}: {_algorithm_place(s, p)}: {algorithm!r} is not an algorithm of variant {variant!r}{hint}; "
                f"allowed values: {', '.join(allowed)}. To skip the combination add "
                f"exclude: [{{variant: {variant}, algorithm: {algorithm}}}]"
            )
        problem = s.trace and trace_problem(p.params["N"], p.path)
        if problem:
            raise StudyError(f"{f}: {problem}")
    if not s.points():
        raise StudyError(f"{f}: exclude: removes every grid point; nothing would run")
    check_run_cost(s)
