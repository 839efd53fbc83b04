"""Command line: run one point or a seed batch, write a workflow job's run files, validate studies.

    python -m simulator run STUDY.yaml --point algorithm=reno --point lambda=5 ... --seed 1
    python -m simulator batch STUDY.yaml --point-path variant~standard/algorithm~reno/lambda~5 \
        --seeds 1-10 --out results/runs/.../seeds~1-10.jsonl
    python -m simulator runs STUDY.yaml --under results/runs/STUDY RUN_FILE ...   (a workflow job)
    python -m simulator validate config/studies/*.yaml config/config.yaml
    python -m simulator points STUDY.yaml
    python -m simulator models | algorithms [STUDY.yaml | config/config.yaml ...]

Errors in the study or the arguments exit with status 2 and a one-paragraph message.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
from functools import lru_cache
from pathlib import Path

import yaml

from simulator.run_budget import RunTimeLimitError
from simulator.study import Point, Study, format_value, load_study, nearest, point_from_path
from simulator.study_errors import StudyError, read_yaml_mapping
from simulator.suite import is_suite_file
from simulator.tcp.cc.user import UserAlgorithmError
from simulator.workflow_config import is_config_file, validate_config_file


@lru_cache(maxsize=None)
def git_commit() -> str:
    """Commit of the source tree the simulator runs from ('unknown' outside git)."""
    here = Path(__file__).resolve().parent
    try:
        out = subprocess.run(
            ["git", "-C", str(here), "rev-parse", "HEAD"], capture_output=True, text=True, timeout=10, check=True
        )
        return out.stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def provenance() -> dict:
    import simulator

    return {
        "simulator_version": getattr(simulator, "__version__", "unknown"),
        "git_commit": git_commit(),
        "python": platform.python_version(),
    }


def run_record(study: Study, point: Point, seed: int) -> dict:
    """Run one seed of one point; the JSON record written per seed."""
    import simulator
    from simulator import registry

    from simulator.run_budget import seconds_for, time_limit

    with time_limit(seconds_for(study, point), f"{study.file}: point {point.path}, seed {seed}"):
        summary = simulator.run(dict(point.params), seed)
    rec = {
        "study": study.name,
        "paper": study.paper,
        "point_path": point.path,
        "params": point.params,
        "seed": seed,
        "metrics": summary["metrics"],
    }
    if point.params.get("trace") and "trace" in summary:
        rec["trace"] = summary["trace"]
    rec["provenance"] = provenance()
    users = registry.user_algorithms(point.params)
    if users:      # the user's file as written (relative), its class and hash
        rec["provenance"]["user_algorithms"] = [u.provenance() for u in users]
    return rec


def parse_seeds(text: str) -> tuple[int, int]:
    """'3' -> (3, 3); '1-10' -> (1, 10)."""
    try:
        a, _, b = text.partition("-")
        first, last = int(a), int(b or a)
    except ValueError:
        raise StudyError(f"--seeds: {text!r} is not a seed range; allowed values: A-B or A (integers, A <= B)") from None
    if first > last or first < 0 or last >= MAX_SEED:
        raise StudyError(f"--seeds: {text!r} is not a seed range; allowed values: A-B with 0 <= A <= B < 2**63")
    return first, last


MAX_SEED = 2 ** 63   # seeds are non-negative integers below 2**63 everywhere


def check_seed(seed: int) -> int:
    if not 0 <= seed < MAX_SEED:
        raise StudyError(f"--seed: {seed} is out of range; allowed values: integers 0 <= seed < 2**63")
    return seed


def point_from_assignments(study: Study, assignments: list[str]) -> Point:
    """--point KEY=VALUE ... -> the grid point; every grid key of that point must be given."""
    chosen = {}
    for a in assignments:
        key, eq, value = a.partition("=")
        if not eq:
            raise StudyError(f"--point {a!r}: expected KEY=VALUE, e.g. --point algorithm=reno")
        if key not in study.grid:
            raise StudyError(
                f"{study.file}: --point {key}: unknown grid key {key!r}{nearest(key, study.grid)}; "
                f"allowed keys: {', '.join(study.grid)}"
            )
        written = [format_value(v) for v in study.grid[key]]
        if value in written:
            chosen[key] = study.grid[key][written.index(value)]
            continue
        parsed = yaml.safe_load(value)
        matches = [v for v in study.grid[key] if v == parsed and type(v) is not bool]
        if not matches:
            raise StudyError(
                f"{study.file}: --point {key}: {value!r} is not a value of grid.{key}{nearest(value, written)}; "
                f"allowed values: {', '.join(written)}"
            )
        chosen[key] = matches[0]
    # the point whose grid values are exactly those given (a study with several grids has points
    # with different keys, e.g. alpha only for the algorithms that have it)
    matching = [p for p in study.points() if p.values == chosen]
    if len(matching) == 1:
        return matching[0]
    candidates = [p for p in study.points() if all(p.values.get(k) == v for k, v in chosen.items())]
    example = (candidates or study.points())[0]
    missing = [k for k in example.values if k not in chosen]
    raise StudyError(
        f"{study.file}: --point: missing grid key(s) {', '.join(missing) or '(none)'}; give every grid key "
        f"of the point, e.g. " + " ".join(f"--point {k}={format_value(v)}" for k, v in example.values.items())
    )


def write_jsonl_atomic(records, out: Path) -> None:
    """Write records, one sealed JSON line each (simulator/run_records.py), to out via a temp file in the same
    directory."""
    from simulator.run_records import seal

    out.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=out.parent, prefix=f".{out.name}.", suffix=".tmp")
    umask = os.umask(0)
    os.umask(umask)
    try:
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; give the file normal permissions
        with os.fdopen(fd, "w") as fh:
            for rec in records:
                fh.write(seal(rec) + "\n")
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, out)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


# --------------------------------------------------------------------------- commands
def extra_algorithms(assignments) -> dict:
    """--algorithm NAME=FILE.py:CLASS ... -> {NAME: 'FILE.py:CLASS'} (the config's extra_algorithms)."""
    out = {}
    for a in assignments:
        name, eq, source = a.partition("=")
        if not eq:
            raise StudyError(f"--algorithm {a!r}: expected NAME=FILE.py:CLASS, e.g. "
                             "--algorithm mynewreno=examples/custom_cc/newreno_in_python.py:NewRenoInPython")
        out[name] = source
    return out


def allow_folders(args) -> None:
    """--algorithm-folder DIR ...: folders outside the repository whose algorithms may run (the config's
    algorithm_folders)."""
    from simulator.workflow_config import allow_algorithm_folders
    allow_algorithm_folders(args.algorithm_folder, "--algorithm-folder")


def _load(args) -> Study:
    """The study of the command line, with the --algorithm ones joined as the workflow joins its config's."""
    allow_folders(args)
    extra = extra_algorithms(args.algorithm)
    if extra:
        from simulator.workflow_config import check_extra_algorithms
        check_extra_algorithms(extra, "--algorithm")
    return load_study(args.study, extra)


def cmd_run(args) -> int:
    study = _load(args)
    point = point_from_path(study, args.point_path) if args.point_path else point_from_assignments(study, args.point)
    if args.trace is not None:
        point = Point(point.study, point.values, {**point.params, "trace": args.trace})
    print(json.dumps(run_record(study, point, check_seed(args.seed)), indent=2))
    return 0


def check_output(out: Path, study: Study, point: Point, force: bool) -> None:
    """Before simulating: the output may be written, and it is not a file this command did not make
    (a run file of the same study and point may be replaced; anything else needs --force)."""
    if out.exists() and not force:
        try:
            first = json.loads(out.read_text().split("\n", 1)[0])
            ours = first.get("study") == study.name and first.get("point_path") == point.path
        except (OSError, UnicodeDecodeError, ValueError, AttributeError):
            ours = False
        if not ours:
            raise StudyError(f"--out: {out} exists and is not a run file of {study.name} {point.path}; "
                             "refusing to overwrite it (choose another path, or give --force)")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        tempfile.NamedTemporaryFile(dir=out.parent, prefix=f".{out.name}.", suffix=".probe").close()
    except OSError as e:
        raise StudyError(f"--out: cannot write in {out.parent}: {e.strerror}") from None


def cmd_batch(args) -> int:
    study = _load(args)
    point = point_from_path(study, args.point_path)
    first, last = parse_seeds(args.seeds)
    check_output(Path(args.out), study, point, args.force)
    write_jsonl_atomic(batch_records(study, point, first, last), Path(args.out))
    return 0


def cmd_runs(args) -> int:
    """The workflow's job: every run file named, each <under>/<point path>/seeds~A-B.jsonl (simulator/run_jobs.py).
    All names are checked before the first simulation; each file is written atomically as it is done."""
    from simulator.run_jobs import parse_run_name

    study, under, todo = _load(args), Path(args.under), []
    for out in map(Path, args.files):
        try:
            point_path, seeds = parse_run_name(out.relative_to(under).as_posix())
        except ValueError as e:
            raise StudyError(f"runs: {out}: not below --under {under}, or {e}") from None
        point = point_from_path(study, point_path)
        check_output(out, study, point, args.force)
        todo.append((out, point, *parse_seeds(seeds)))
    for out, point, first, last in todo:
        write_jsonl_atomic(batch_records(study, point, first, last), out)
    return 0


def batch_records(study: Study, point: Point, first: int, last: int) -> list[dict]:
    """The records of seeds first..last.  A run that made no seeded random stream is the same for
    every seed (only streams read the seed), so the other seeds get its record with their own seed
    number instead of rerunning it: bit-identical, and 10x less work for deterministic points.
    Points with a user's algorithm always run each seed (its code could read the seed elsewhere)."""
    from simulator import registry
    from simulator.core.seeding import streams_made

    records = []
    for seed in range(first, last + 1):
        made = streams_made()
        records.append(run_record(study, point, seed))
        if streams_made() == made and not registry.user_algorithms(point.params):
            records += [{**records[-1], "seed": s} for s in range(seed + 1, last + 1)]
            break
    return records


def load_suite_file(path):
    """A suite study with the algorithm list of the repository's config/config.yaml (suite.algorithms)."""
    from simulator.suite import config_algorithms, config_extra, load_suite_study
    from simulator.workflow_config import find_config_schema

    schema = find_config_schema(Path(path).parent) or find_config_schema(Path.cwd())
    if schema is None:
        raise StudyError(f"{path}: a suite study; cannot find config/config.yaml (its suite.algorithms) above it")
    config = schema.parents[2] / "config" / "config.yaml"
    from simulator.workflow_config import allow_algorithm_folders
    folders = read_yaml_mapping(config, "config").get("algorithm_folders")
    if isinstance(folders, list):       # the config's own check names any other mistake
        allow_algorithm_folders(folders, f"{config}: algorithm_folders", schema.parents[2])
    return load_suite_study(path, config_algorithms(config), config_extra(config))


def profile_seeds(config_file, of: str = "profile") -> int:
    """Seeds per point of a workflow config's profile (`of` "suite": of its suite), 1 if there is no
    config to ask."""
    from simulator.study_errors import read_yaml_mapping

    if config_file is None or not Path(config_file).is_file():
        return 1
    config = read_yaml_mapping(config_file, "config")
    try:
        if of == "suite":
            return int(config["suite"]["seeds"])
        return int(config["profiles"][config.get("profile", "default")]["seeds"])
    except (KeyError, TypeError, ValueError):
        return 1


def _repo_config(study_file):
    """config/config.yaml of the repository holding a study file (or the working directory's)."""
    from simulator.workflow_config import find_config_schema

    schema = find_config_schema(Path(study_file).parent) or find_config_schema(Path.cwd())
    return None if schema is None else schema.parents[2] / "config" / "config.yaml"


def cmd_validate(args) -> int:
    """Check each file; print each study's points, seeds and estimated cost (simulator/cost.py)."""
    from simulator.cost import cost_text, duration_text, study_cost

    allow_folders(args)
    for f in args.files:
        if is_config_file(f):
            studies = validate_config_file(f)
            seeds = profile_seeds(f)
            costs = [study_cost(s, seeds) for s in studies]
            print(f"ok  {f}: workflow config, {len(studies)} studies, "
                  f"{sum(len(s.points()) for s in studies)} points, up to {sum(c[0] for c in costs):.2g} packets, "
                  f"up to {duration_text(sum(c[1] for c in costs))} on this machine (one core)")
            for s in studies:
                print(f"      study {s.name}: {cost_text(s, seeds)}")
            continue
        suite = is_suite_file(f)
        s = load_suite_file(f) if suite else load_study(f)
        seeds = profile_seeds(_repo_config(f), "suite" if suite else "profile")
        s.check_runs(seeds)
        print(f"ok  {f}: study {s.name}, {cost_text(s, seeds)}")
    return 0


def cmd_points(args) -> int:
    for p in _load(args).points():
        print(p.path)
    return 0


def _range(schema: dict) -> str:
    """'> 0', '>= 1', 'one of a, b', ... from a parameter's JSON-schema constraint."""
    if "enum" in schema:
        return "one of " + ", ".join(map(str, schema["enum"]))
    parts = [f"> {schema['exclusiveMinimum']}"] if "exclusiveMinimum" in schema else []
    parts += [f">= {schema['minimum']}"] if "minimum" in schema else []
    parts += [f"<= {schema['maximum']}"] if "maximum" in schema else []
    kind = schema.get("type", "")
    kind = "/".join(kind) if isinstance(kind, list) else kind
    return " ".join([kind] + parts).strip()


def cmd_models(args) -> int:
    """Every model (or the named ones) with its algorithms and declared parameters."""
    from simulator import registry

    for name in args.models or registry.MODELS:
        try:
            m = registry.model(name)
        except ValueError as e:
            raise StudyError(str(e)) from None
        print(f"{m.name}: {m.description}\n  algorithms: {', '.join(m.algorithms)}")
        for p in m.params:
            default = "required; " if p.required else f"default {p.default!r}; "
            if "default:" in p.help:         # the help says it (e.g. a stack detail: "default: the stack's")
                default = ""
            unit = f" [{p.unit}]" if p.unit else ""
            print(f"  {p.name}{unit}: {p.help} ({default}{_range(p.schema) or 'see above'})")
        print()
    return 0


USER_HINT = ("Your own algorithms: a study's `algorithms: {name: file.py:Class}`, or the config's `extra_algorithms: "
             "{name: file.py:Class}` for every enabled study that can run it (README: Your own algorithm); "
             "`python -m simulator algorithms STUDY.yaml | CONFIG.yaml` lists those a study or config runs.")


def user_algorithms_of(files) -> dict:
    """{(name, 'file.py:Class', sha256): [studies]} of the study files, or of the studies a config enables
    (with its extra_algorithms joined)."""
    studies = [s for f in files for s in (validate_config_file(f) if is_config_file(f) else [load_study(f)])]
    out = {}
    for study in studies:
        for u in study.algorithms.values():
            if u.name in study.grid.get("algorithm", ()):
                out.setdefault((u.name, u.source, u.sha256), []).append(study.name)
    return out


def cmd_algorithms(args) -> int:
    """The algorithm catalogue: name, description, loss recovery without SACK, parameters, models; or,
    given study or config files, the user algorithms they run."""
    if args.files:
        allow_folders(args)
        found = user_algorithms_of(args.files)
        for (name, source, sha), studies in sorted(found.items()):
            print(f"{name}: {source} (sha256 {sha[:12]})\n  studies: {', '.join(studies)}")
        if not found:
            print(f"no user algorithm in {', '.join(args.files)}. {USER_HINT}")
        return 0
    from simulator import registry
    from simulator.scenarios import mm1_queue
    from simulator.tcp.cc import catalogue

    takers = {m: registry.model(m).algorithms for m in registry.MODELS}
    for name in catalogue.NAMES:
        a = catalogue.algorithm(name)
        # the M/M/1 model with the variant(s) that run it: a name means one algorithm in every model
        variants = [v for v, algs in mm1_queue.ALGORITHMS_OF.items() if name in algs]
        models = [f"mm1 (variant {', '.join(variants)})" if m == "mm1" else m
                  for m, algs in takers.items() if name in algs]
        print(f"{a.name}: {a.description}\n  recovery without SACK: {a.recovery or 'n/a'}; models: {', '.join(models)}")
        for p in a.params:
            print(f"  {p.name}: {p.help} (default {p.default!r}; {_range(p.schema)})")
    print(f"\n{USER_HINT}")
    return 0


def cmd_new_paper(args) -> int:
    from simulator import new_paper
    return new_paper.cli(args)


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python -m simulator", description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="command", required=True)

    r = sub.add_parser("run", help="run one grid point for one seed and print its JSON record")
    r.add_argument("study", help="study YAML file")
    r.add_argument("--point", action="append", default=[], metavar="KEY=VALUE", help="grid value; give every grid key")
    r.add_argument("--point-path", help="instead of --point: a wildcard path like variant~standard/algorithm~reno/lambda~5")
    r.add_argument("--seed", type=int, default=1, help="seed (default 1)")
    r.add_argument("--trace", action=argparse.BooleanOptionalAction, default=None, help="record (or not) the cwnd trace")
    r.set_defaults(func=cmd_run)

    b = sub.add_parser("batch", help="run seeds A..B of one grid point into a JSON-lines file (the suite's workflow jobs)")
    b.add_argument("study", help="study YAML file")
    b.add_argument("--point-path", required=True, help="wildcard path of the grid point")
    b.add_argument("--seeds", required=True, help="inclusive seed range A-B")
    b.add_argument("--out", required=True, help="output .jsonl, written atomically")
    b.add_argument("--force", action="store_true", help="overwrite --out even if it is not a run file of this point")
    b.set_defaults(func=cmd_batch)

    j = sub.add_parser("runs", help="write several run files, each <under>/<point path>/seeds~A-B.jsonl (one "
                                    "workflow job: workflow/rules/simulate.smk)")
    j.add_argument("study", help="study YAML file")
    j.add_argument("files", nargs="+", help="run files to write, below --under")
    j.add_argument("--under", required=True, help="the study's run folder, e.g. results/runs/mm1_lambda")
    j.add_argument("--force", action="store_true", help="overwrite files that are not run files of their point")
    j.set_defaults(func=cmd_runs)

    v = sub.add_parser("validate", help="validate study files or workflow config files (exit 2 on the first error)")
    v.add_argument("files", nargs="+")
    v.set_defaults(func=cmd_validate)

    p = sub.add_parser("points", help="list the wildcard paths of a study's grid points")
    p.add_argument("study")
    p.set_defaults(func=cmd_points)

    m = sub.add_parser("models", help="list the models, their algorithms and every parameter a study may set")
    m.add_argument("models", nargs="*", help="model names (default: all)")
    m.set_defaults(func=cmd_models)
    for cmd in (r, b, j, p):
        cmd.add_argument("--algorithm", action="append", default=[], metavar="NAME=FILE.py:CLASS",
                         help="your own algorithm joined to the study's algorithm axis, as the workflow "
                              "config's extra_algorithms does (path relative to the repository root)")
    a = sub.add_parser("algorithms", help="list the algorithm catalogue (simulator/tcp/cc/catalogue/), or the user "
                                          "algorithms of study or config files")
    a.add_argument("files", nargs="*", help="study or workflow config YAML files (default: the catalogue)")
    a.set_defaults(func=cmd_algorithms)
    n = sub.add_parser("new-paper", help="scaffold a paper: its reference, study and report folders and one catalogue "
                                         "entry (README: Adding a paper)")
    n.add_argument("name", help="the paper's id: 2-20 lower-case letters and digits")
    n.add_argument("--title", help="how page 1 and the scorecard name it (default 'Paper NAME')")
    n.set_defaults(func=cmd_new_paper)
    for cmd in (r, b, j, p, v, a):
        cmd.add_argument("--algorithm-folder", action="append", default=[], metavar="DIR",
                         help="a folder outside the repository whose user algorithms may run (the workflow "
                              "config's algorithm_folders); files elsewhere outside the repository are refused")
    return ap


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except StudyError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except (UserAlgorithmError, RunTimeLimitError) as e:   # a user's hook raised or the run hung: nothing written
        print(f"error: {e}", file=sys.stderr)
        return 1
