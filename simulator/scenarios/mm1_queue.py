"""The M/M/1 paper's model (reference/papers.yaml: mm1): one sender, one queue with K places and a
waiting deadline theta; parameters -> run -> metrics.

Two variants of the model: `as_published` runs the paper's published code (its algorithms are the
catalogue's published_* entries: study name X = published_X; simulator/models/mm1_published.pyx),
`standard` real ACK-clocked TCP over the same queue (simulator/models/mm1_standard.pyx). "none" is
the paper's sender without transport control.
"""
import math
from pathlib import Path

from simulator.params import check_choice, defaults_of, load_params, with_defaults
from simulator.tcp.cc import catalogue

DESCRIPTION = "the M/M/1/K study: one sender, one queue with K places and a waiting deadline theta"
VARIANTS = ("as_published", "standard")
# the algorithms of each variant, from the catalogue (simulator/tcp/cc/catalogue/): as_published runs
# the paper's code (study name X = catalogue entry published_X), standard every algorithm its textbook
# sender can run; "none" = no transport control (the paper's bypass path)
ALGORITHMS_OF = {
    "as_published": ["none"] + [a.removeprefix("published_") for a in catalogue.PUBLISHED],
    "standard": ["none"] + list(catalogue.names_for(catalogue.Stack("textbook", sack=False))),
}
ALGORITHMS = tuple(dict.fromkeys(a for v in VARIANTS for a in ALGORITHMS_OF[v]))
RNG_MODES = ("streams", "paper_legacy")   # paper_legacy: as_published only, one numpy stream seeded 42

# every parameter of this model, declared once in simulator/scenarios/mm1_queue.params.yaml; the
# defaults derive from them (simulator/params.py)
PARAMS = load_params(Path(__file__).with_suffix(".params.yaml"), ALGORITHMS)
DEFAULTS = defaults_of(PARAMS)


def params_with_defaults(params: dict) -> dict:
    """The run's full parameters: the declared defaults overridden by `params`, checked."""
    p = with_defaults(DEFAULTS, params)
    check_choice(p, "variant", VARIANTS, "mm1")
    if p["algorithm"] not in ALGORITHMS_OF[p["variant"]]:
        raise ValueError(f"algorithm {p['algorithm']!r} unknown for variant {p['variant']}; "
                         f"allowed: {', '.join(ALGORITHMS_OF[p['variant']])}")
    if p["rng"] not in RNG_MODES or (p["rng"] == "paper_legacy" and p["variant"] != "as_published"):
        raise ValueError(f"rng {p['rng']!r} not allowed for variant {p['variant']}; allowed: "
                         f"{', '.join(RNG_MODES) if p['variant'] == 'as_published' else 'streams'}")
    for key in ("lambda", "mu", "K", "N"):
        if key not in p:
            raise ValueError(f"parameter {key!r} missing")
    return p


def published_controller(name):
    """The published code's controller for study name `name` (None for "none")."""
    if name == "none":
        return None
    return catalogue.algorithm(f"published_{name}").make(catalogue.Stack("published", sack=False))


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
