"""A study's own algorithms: the `algorithms:` mapping of a study file (a researcher's Python
classes, simulator/tcp/cc/user.py) and the workflow config's `extra_algorithms`, which join the
algorithm axis of every study they can (README: Your own algorithm). Used by simulator/study.py
load_study and simulator/suite.py."""
from __future__ import annotations

import copy

from simulator.study_errors import StudyError


def _joinable(doc: dict, grid: dict) -> bool:
    """Whether a user algorithm can join this grid's algorithm axis: the grid compares network
    algorithms (not only M/M/1's "none"), sets no algorithm's own parameter (alpha), and, in the
    M/M/1 model, runs the standard variant (the published code's variant runs only its own)."""
    from simulator.tcp.cc import catalogue
    algs = grid.get("algorithm")
    if not isinstance(algs, list) or not any(a in catalogue.NETWORK for a in algs):
        return False
    own = {p.name for a in catalogue.NETWORK for p in catalogue.algorithm(a).params}
    if own & set(grid):
        return False
    variants = grid.get("variant", [(doc.get("fixed") or {}).get("variant", "standard")])
    return doc.get("model") != "mm1" or "standard" in variants


def join_algorithms(doc: dict, extra: dict, path) -> dict:
    """The study `doc` with each extra user algorithm added to the algorithm axis of every grid it
    can join (_joinable), its `algorithms:` mapping extended, and, in a grid that also runs the
    M/M/1 as_published variant, that combination excluded. A study it joins nowhere is unchanged."""
    doc = copy.deepcopy(doc)
    grids = [doc["grid"]] if isinstance(doc.get("grid"), dict) else [g for g in doc.get("grids") or [] if isinstance(g, dict)]
    for name, source in extra.items():
        own = (doc.get("algorithms") or {}).get(name) if isinstance(doc.get("algorithms"), dict) else None
        if own not in (None, source):
            raise StudyError(f"{path}: algorithms.{name}: {own!r}, but the workflow config's extra_algorithms."
                             f"{name} is {source!r}; give the config's algorithm another short name")
        joined = [g for g in grids if _joinable(doc, g) and name not in g["algorithm"]]
        for g in joined:
            g["algorithm"].append(name)
            if "as_published" in g.get("variant", ()):
                doc.setdefault("exclude", []).append({"variant": "as_published", "algorithm": name})
        if joined:
            doc["algorithms"] = {**(doc.get("algorithms") or {}), name: source}
    return doc


def user_algorithms(path, doc: dict) -> dict:
    """The study's own algorithms (`algorithms: {short_name: file.py:Class}`), each file imported,
    its class checked and registered in the catalogue (simulator/tcp/cc/user.py); StudyError naming
    the study file, the key and the problem."""
    from simulator.tcp.cc import catalogue, user

    given = doc.get("algorithms")
    if not isinstance(given, dict):
        return {}                       # absent, or the schema names the wrong type
    out = {}
    for name, source in given.items():
        try:
            spec = user.parse(str(name), source)
            catalogue.add_user(spec)
        except user.UserAlgorithmError as e:
            raise StudyError(f"{path}: algorithms.{name}: {e}") from None
        out[spec.name] = spec
    return out
