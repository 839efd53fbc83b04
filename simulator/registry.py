"""Names a study may use, and the dispatch from parameters to a model run."""
import math

from simulator.core.seeding import run_key

VARIANTS = ("as_published", "standard")
ALGORITHMS = {
    "as_published": ["none", "tahoe", "reno", "cubic"],
    "standard": ["none", "tahoe", "reno", "newreno", "cubic"],
}
MODELS = ("mm1", "dumbbell", "ns2", "testbed")

# parameter defaults of the mm1 model (one place); studies override them
MM1_DEFAULTS = {"theta": None, "prop_delay": 0.01, "rto_min": 1.0, "rto_initial": 1.0,
                "init_cwnd": 1.0, "trace": False, "trace_interval": 0.0, "rng": "streams"}
RNG_MODES = ("streams", "paper_legacy")   # paper_legacy: as_published only, one numpy stream seeded 42


def _theta(value):
    return math.inf if value is None or value == "inf" else float(value)


def _published_cc(name):
    from simulator.tcp.cc import published
    return {"none": None, "tahoe": published.PublishedTahoe, "reno": published.PublishedReno,
            "cubic": published.PublishedCubic}[name]


def mm1_params(params: dict) -> dict:
    p = dict(MM1_DEFAULTS)
    p.update(params)
    variant, algorithm = p.get("variant"), p.get("algorithm")
    if variant not in VARIANTS:
        raise ValueError(f"variant {variant!r} unknown; allowed: {', '.join(VARIANTS)}")
    if algorithm not in ALGORITHMS[variant]:
        raise ValueError(f"algorithm {algorithm!r} unknown for variant {variant}; "
                         f"allowed: {', '.join(ALGORITHMS[variant])}")
    if p["rng"] not in RNG_MODES or (p["rng"] == "paper_legacy" and variant != "as_published"):
        raise ValueError(f"rng {p['rng']!r} not allowed for variant {variant}; allowed: "
                         f"{', '.join(RNG_MODES) if variant == 'as_published' else 'streams'}")
    for key in ("lambda", "mu", "K", "N"):
        if key not in p:
            raise ValueError(f"parameter {key!r} missing")
    return p


def run(params: dict, seed: int) -> dict:
    """Run one simulation of `params` (see MM1_DEFAULTS and the study files) with seed index `seed`."""
    model = params.get("model", "mm1")
    if model not in MODELS:
        raise ValueError(f"model {model!r} unknown; allowed: {', '.join(MODELS)}")
    if model in ("dumbbell", "ns2", "testbed"):
        from simulator.scenarios import dumbbell, ns2_wired, wifi_testbed
        scenario = {"dumbbell": dumbbell, "ns2": ns2_wired, "testbed": wifi_testbed}[model]
        p = scenario.params_with_defaults(params)
        return scenario.run(p, run_key(p, seed))
    p = mm1_params(params)
    key = run_key({k: v for k, v in p.items()}, seed)
    if p["variant"] == "as_published":
        from simulator.models.mm1_published import PublishedMM1
        cls = _published_cc(p["algorithm"])
        sim = PublishedMM1(key, float(p["lambda"]), float(p["mu"]), int(p["K"]), _theta(p["theta"]),
                           int(p["N"]), cls() if cls else None, bool(p["trace"]),
                           p["rng"] == "paper_legacy", float(p.get("trace_interval") or 0.0))
    else:
        from simulator.models.mm1_standard import StandardMM1
        sim = StandardMM1.from_params(key, p)
    return sim.run()
