"""The M/M/1 paper's model (catalogue.yaml: mm1): one sender, one queue with K places and a
waiting deadline theta; parameters -> run -> metrics.

Two variants of the model: `as_published` runs the paper's published code (its algorithms are the
catalogue's published_* entries, named so in studies: published_tahoe, published_reno,
published_cubic; simulator/models/mm1_published.pyx), `standard` real ACK-clocked TCP over the same
queue (simulator/models/mm1_standard.pyx). "none" is the paper's sender without transport control.
A name means one algorithm everywhere: `reno` is RFC Reno, the paper's code is `published_reno`.
"""
import math
from pathlib import Path

from simulator.params import check_choice, defaults_of, load_params, with_defaults
from simulator.tcp.cc import catalogue

DESCRIPTION = "the M/M/1/K study: one sender, one queue with K places and a waiting deadline theta"
VARIANTS = ("as_published", "standard")
# the algorithms of each variant, by their catalogue names (simulator/tcp/cc/catalogue/): as_published
# runs the paper's code (published_tahoe, published_reno, published_cubic), standard every network
# algorithm: on its textbook sender, or on the app-limited SACK sender for an algorithm that needs
# delivery-rate samples and pacing (BBR; simulator/models/mm1_standard.pyx); "none" = no transport
# control (the paper's bypass path)
ALGORITHMS_OF = {
    "as_published": ["none"] + list(catalogue.PUBLISHED),
    "standard": ["none"] + list(catalogue.NETWORK),
}
# every algorithm of either variant: none, then in the catalogue's order (network algorithms, then the paper's code)
ALGORITHMS = ("none",) + tuple(a for a in catalogue.NAMES if any(a in ALGORITHMS_OF[v] for v in VARIANTS))
RNG_MODES = ("streams", "paper_legacy")   # paper_legacy: as_published only, one numpy stream seeded 42
# Run keys (simulator/core/seeding.py) were computed when studies named the published code by its
# base names (variant as_published, algorithm reno); the key keeps those names, so a run draws the
# same random numbers, and gives the same results, as before the published code got its own names.
# registry.run computes the run key from key_params(p).
KEY_NAMES = {"published_tahoe": "tahoe", "published_reno": "reno", "published_cubic": "cubic"}

# every parameter of this model, declared once in simulator/scenarios/mm1_queue.params.yaml; the
# defaults derive from them (simulator/params.py)
PARAMS = load_params(Path(__file__).with_suffix(".params.yaml"), ALGORITHMS)
DEFAULTS = defaults_of(PARAMS)


def key_params(p: dict) -> dict:
    """The parameters a run's key is computed from: `p` (full parameters) with a published
    algorithm under its key name (KEY_NAMES)."""
    if p.get("algorithm") in KEY_NAMES:
        return {**p, "algorithm": KEY_NAMES[p["algorithm"]]}
    return p


def paper_name(algorithm: str) -> str:
    """The paper's row label of an algorithm of either variant: published_reno -> reno, reno -> reno."""
    return KEY_NAMES.get(algorithm, algorithm)


def run_name(variant: str, paper_algorithm: str) -> str:
    """The algorithm that runs the paper's row `paper_algorithm` (none, tahoe, reno, cubic) in
    `variant`: the published code's catalogue name in as_published, the name itself otherwise."""
    if variant == "as_published" and f"published_{paper_algorithm}" in KEY_NAMES:
        return f"published_{paper_algorithm}"
    return paper_algorithm


def algorithms_of(variant: str) -> tuple:
    """The algorithms of `variant`: standard also runs the user algorithms of the studies loaded
    (simulator/tcp/cc/user.py); as_published only the paper's code."""
    names = ALGORITHMS_OF.get(variant, ())
    return catalogue.accepted(names) if variant == "standard" else tuple(names)


def params_with_defaults(params: dict) -> dict:
    """The run's full parameters: the declared defaults overridden by `params`, checked."""
    p = with_defaults(DEFAULTS, params)
    check_choice(p, "variant", VARIANTS, "mm1")
    if p["algorithm"] not in algorithms_of(p["variant"]):
        raise ValueError(f"algorithm {p['algorithm']!r} unknown for variant {p['variant']}; "
                         f"allowed: {', '.join(algorithms_of(p['variant']))}{suggestion(p['variant'], p['algorithm'])}")
    if p["rng"] not in RNG_MODES or (p["rng"] == "paper_legacy" and p["variant"] != "as_published"):
        raise ValueError(f"rng {p['rng']!r} not allowed for variant {p['variant']}; allowed: "
                         f"{', '.join(RNG_MODES) if p['variant'] == 'as_published' else 'streams'}")
    for key in ("lambda", "mu", "K", "N"):
        if key not in p:
            raise ValueError(f"parameter {key!r} missing")
    return p


def suggestion(variant: str, algorithm: str) -> str:
    """A hint when `algorithm` names the other variant's counterpart of one of `variant`'s algorithms:
    ' (did you mean 'published_reno', the paper's Reno code?)', else ''."""
    if variant == "as_published" and run_name(variant, algorithm) in KEY_NAMES:
        return f" (did you mean {run_name(variant, algorithm)!r}, the paper's {algorithm.capitalize()} code?)"
    if variant != "as_published" and algorithm in KEY_NAMES and paper_name(algorithm) in ALGORITHMS_OF.get(variant, ()):
        return f" (did you mean {paper_name(algorithm)!r}? {algorithm} runs only in variant as_published)"
    return ""


def published_controller(name):
    """The published code's controller for catalogue name `name` (None for "none")."""
    if name == "none":
        return None
    return catalogue.algorithm(name).make(catalogue.Stack("published", sack=False))


def run(p: dict, key: str) -> dict:
    """One run of parameters `p` (already through params_with_defaults) with run key `key`."""
    if p["variant"] == "as_published":
        from simulator.models.mm1_published import PublishedMM1
        theta = math.inf if p["theta"] is None or p["theta"] == "inf" else float(p["theta"])
        sim = PublishedMM1(key, float(p["lambda"]), float(p["mu"]), int(p["K"]), theta,
                           int(p["N"]), published_controller(p["algorithm"]), bool(p["trace"]),
                           p["rng"] == "paper_legacy", float(p.get("trace_interval") or 0.0))
    else:
        from simulator.models.mm1_standard import StandardMM1
        sim = StandardMM1.from_params(key, p)
    return sim.run()
