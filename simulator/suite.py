"""The standard evaluation suite (IRTF "Common TCP Evaluation Suite", reference/suite/scenarios.yaml).

A suite study (config/suite/*.yaml, `paper: suite`) is an ordinary study file without algorithms:
every grid gets the one algorithm list of the workflow config (`suite.algorithms` in
config/config.yaml), so an algorithm joins every suite scenario with one line. The suite runs only
behind `snakemake --cores all suite` (workflow/rules/suite.smk), never in the default run.

    python -m simulator.suite write config/suite/suite_access.yaml --algorithms reno cubic --out FILE
writes the effective study (the file plus its algorithm grid), which the suite's simulate jobs read.
"""
from __future__ import annotations

import argparse
import copy
import sys
from pathlib import Path

import yaml

from simulator.study import load_study, nearest
from simulator.study_errors import StudyError, read_yaml_mapping
from simulator.study_algorithms import join_algorithms

PAPER = "suite"                      # the `paper:` of every suite study (its chapter: notebooks/suite.ipynb)
ALGORITHMS_KEY = "suite.algorithms"  # where the algorithm list is written, for messages


def check_algorithms(algorithms, source: str) -> list:
    """The suite's algorithm list, each a network algorithm of the catalogue; StudyError naming `source`."""
    from simulator import registry

    known = list(dict.fromkeys(a for m in registry.MODELS if m != "mm1" for a in registry.model(m).algorithms))
    if not isinstance(algorithms, list) or not algorithms:
        raise StudyError(f"{source}: {ALGORITHMS_KEY}: {algorithms!r} is not a list of algorithm names; "
                         f"allowed values: {', '.join(known)}")
    for i, a in enumerate(algorithms):
        if a not in known:
            raise StudyError(f"{source}: {ALGORITHMS_KEY}[{i}]: {a!r} is not a network algorithm{nearest(a, known)}; "
                             f"allowed values: {', '.join(known)}")
    if len(set(algorithms)) != len(algorithms):
        raise StudyError(f"{source}: {ALGORITHMS_KEY}: values repeat in {algorithms!r}; each value must appear once")
    return list(algorithms)


def effective_doc(path, algorithms, extra=None) -> dict:
    """The suite study in `path` with `algorithm: <algorithms>` first in every grid, then the workflow
    config's `extra_algorithms` ({short name: 'file.py:Class'}: a user's own, README "Your own
    algorithm"), which join every suite scenario as they join the papers' studies."""
    path = Path(path)
    doc = read_yaml_mapping(path, "study")
    if doc.get("paper") != PAPER:
        raise StudyError(f"{path}: paper: {doc.get('paper')!r}; a suite study has paper: {PAPER}")
    grids = doc.get("grids") or [doc.get("grid") or {}]
    named = [f"grids[{j}]" if "grids" in doc else "grid" for j, g in enumerate(grids)
             if isinstance(g, dict) and "algorithm" in g]
    named += ["fixed"] if isinstance(doc.get("fixed"), dict) and "algorithm" in doc["fixed"] else []
    if named:
        raise StudyError(f"{path}: {named[0]}.algorithm: a suite study names no algorithm; every suite "
                         f"study runs the list {ALGORITHMS_KEY} of config/config.yaml")
    out = copy.deepcopy(doc)
    with_algorithm = [{"algorithm": list(algorithms), **(g if isinstance(g, dict) else {})} for g in grids]
    if "grids" in doc:
        out["grids"] = with_algorithm
    else:
        out["grid"] = with_algorithm[0]
    return join_algorithms(out, extra or {}, path)


def load_suite_study(path, algorithms, extra=None):
    """The Study of suite file `path` run with `algorithms` and `extra` (validated like any study)."""
    return load_study(path, doc=effective_doc(path, algorithms, extra))


def is_suite_file(path) -> bool:
    """A study file whose `paper:` is the suite's."""
    try:
        return read_yaml_mapping(path, "study").get("paper") == PAPER
    except StudyError:
        return False


def config_algorithms(config_path) -> list:
    """`suite.algorithms` of a workflow config file (for `python -m simulator validate` of a suite file)."""
    config = read_yaml_mapping(config_path, "config")
    return check_algorithms((config.get("suite") or {}).get("algorithms"), str(config_path))


def config_extra(config_path) -> dict:
    """`extra_algorithms` of a workflow config file: a user's own algorithms, which join the suite too."""
    return read_yaml_mapping(config_path, "config").get("extra_algorithms") or {}


def write(src, algorithms, out, extra=None) -> None:
    """Write the effective study of `src` to `out` (checked first, so a job never runs an invalid one)."""
    load_suite_study(src, algorithms, extra)
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    Path(out).write_text(f"# generated from {src} with {ALGORITHMS_KEY}; edit that file, not this one\n"
                         + yaml.safe_dump(effective_doc(src, algorithms, extra), sort_keys=False))


def parse_extra(items) -> dict:
    """{name: source} from `--extra NAME=FILE.py:Class` arguments."""
    bad = [i for i in items if "=" not in i]
    if bad:
        raise StudyError(f"--extra: {bad[0]!r} is not NAME=path/to/file.py:ClassName")
    return dict(i.split("=", 1) for i in items)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    w = sub.add_parser("write", help="write the effective study of a suite file")
    w.add_argument("study")
    w.add_argument("--algorithms", nargs="+", required=True)
    w.add_argument("--out", required=True)
    w.add_argument("--extra", nargs="*", default=[], help="a user's algorithm: NAME=path/to/file.py:ClassName")
    w.add_argument("--algorithm-folder", action="append", default=[], metavar="DIR",
                   help="a folder outside the repository whose algorithms may run (the config's algorithm_folders)")
    a = ap.parse_args(argv)
    try:
        from simulator.workflow_config import allow_algorithm_folders
        allow_algorithm_folders(a.algorithm_folder, "--algorithm-folder")
        write(a.study, check_algorithms(a.algorithms, "--algorithms"), a.out, parse_extra(a.extra))
    except StudyError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
