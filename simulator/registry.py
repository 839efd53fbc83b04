"""The model registry: every model a study may name, its declared parameters and algorithms, and the
dispatch from parameters to a run.

`model(name)` returns a simulator.params.Model (name, description, PARAMS, algorithms); the study
loader checks studies against these declarations and builds the study schema's parameter
definitions from them. Each model's parameters are declared once, in its module: M/M/1 below,
the packet-network models in simulator/scenarios/{dumbbell,ns2_wired,wifi_testbed}.py.
"""
import math

from simulator.core.seeding import run_key
from simulator.params import Model, Param, defaults_of
from simulator.tcp.cc import catalogue

VARIANTS = ("as_published", "standard")
# the algorithms of each variant, from the catalogue (simulator/tcp/cc/catalogue/): as_published runs
# the paper's code (study name X = catalogue entry published_X), standard every algorithm its textbook
# sender can run; "none" = no transport control (the paper's bypass path)
ALGORITHMS = {
    "as_published": ["none"] + [a.removeprefix("published_") for a in catalogue.PUBLISHED],
    "standard": ["none"] + list(catalogue.names_for(catalogue.Stack("textbook", sack=False))),
}
MODELS = ("mm1", "dumbbell", "ns2", "testbed")

# parameters of the mm1 model (one place): declarations, and the defaults studies override
MM1_PARAMS = (
    Param('variant', schema={'enum': list(VARIANTS)},
          help='model variant: the published code as it runs, or real ACK-clocked TCP'),
    Param('algorithm', help="congestion control: one of the model's algorithms"),
    Param('lambda', schema={'type': 'number', 'exclusiveMinimum': 0, 'maximum': 100000}, unit='packets/s', help='arrival rate'),
    Param('mu', schema={'type': 'number', 'exclusiveMinimum': 0, 'maximum': 100000}, unit='packets/s', help='service rate'),
    Param('K', schema={'type': 'integer', 'minimum': 1, 'maximum': 100000}, help='packets in system (waiting + in service)'),
    Param('theta', schema={'type': ['number', 'null'], 'exclusiveMinimum': 0, 'maximum': 10000}, default=None, must_give=True,
          unit='s', help='waiting deadline (null: no deadline)'),
    Param('N', schema={'type': 'integer', 'minimum': 1, 'maximum': 1000000}, help='packets to send'),
    Param('prop_delay', schema={'type': 'number', 'minimum': 0, 'maximum': 10}, default=0.01, unit='s',
          help='one-way propagation delay'),
    Param('rto_min', schema={'type': 'number', 'exclusiveMinimum': 0, 'maximum': 60}, default=1.0, unit='s',
          help='minimum retransmission timeout'),
    Param('rto_initial', schema={'type': 'number', 'exclusiveMinimum': 0, 'maximum': 60}, default=1.0, unit='s',
          help='initial retransmission timeout'),
    Param('init_cwnd', schema={'type': 'number', 'minimum': 1, 'maximum': 1000}, default=1.0, unit='packets',
          help='initial congestion window'),
    Param('trace_interval', schema={'type': 'number', 'minimum': 0, 'maximum': 10000}, default=0.0, unit='s',
          help='minimum spacing of cwnd trace points'),
    Param('rng', schema={'enum': ['streams', 'paper_legacy']}, default='streams',
          help="streams: named PCG64 streams per (parameters, seed); paper_legacy: as_published only, "
               "replays the paper's single numpy stream seeded 42 (the seed index is ignored)"),
)
MM1_DEFAULTS = defaults_of(MM1_PARAMS)
RNG_MODES = ("streams", "paper_legacy")   # paper_legacy: as_published only, one numpy stream seeded 42


def _theta(value):
    return math.inf if value is None or value == "inf" else float(value)


def _published_cc(name):
    """The published code's controller for study name `name` (None for "none")."""
    if name == "none":
        return None
    return catalogue.algorithm(f"published_{name}").make(catalogue.Stack("published", sack=False))


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


DESCRIPTIONS = {
    "mm1": "the M/M/1/K study: one sender, one queue with K places and a waiting deadline theta",
    "dumbbell": "bulk TCP flows over one bottleneck (QtColFair and Mininet studies)",
    "ns2": "NS-2-style wired topologies with NS-2's one-way TCP agents",
    "testbed": "hosts on Ethernet or Wi-Fi behind one access point, with background load and ping",
}


def scenario(name):
    """The module of packet-network model `name` (simulator/scenarios/)."""
    from simulator.scenarios import dumbbell, ns2_wired, wifi_testbed
    return {"dumbbell": dumbbell, "ns2": ns2_wired, "testbed": wifi_testbed}[name]


def model(name: str) -> Model:
    """The declaration of model `name` (one of MODELS)."""
    if name not in MODELS:
        raise ValueError(f"model {name!r} unknown; allowed: {', '.join(MODELS)}")
    if name == "mm1":
        algorithms = tuple(dict.fromkeys(a for v in VARIANTS for a in ALGORITHMS[v]))
        return Model(name, DESCRIPTIONS[name], MM1_PARAMS, algorithms)
    mod = scenario(name)
    return Model(name, DESCRIPTIONS[name], mod.PARAMS, tuple(mod.ALGORITHMS))


def run(params: dict, seed: int) -> dict:
    """Run one simulation of `params` (see MM1_DEFAULTS and the study files) with seed index `seed`."""
    model = params.get("model", "mm1")
    if model not in MODELS:
        raise ValueError(f"model {model!r} unknown; allowed: {', '.join(MODELS)}")
    if model != "mm1":
        mod = scenario(model)
        p = mod.params_with_defaults(params)
        return mod.run(p, run_key(p, seed))
    p = mm1_params(params)
    key = run_key({k: v for k, v in p.items()}, seed)
    if p["variant"] == "as_published":
        from simulator.models.mm1_published import PublishedMM1
        sim = PublishedMM1(key, float(p["lambda"]), float(p["mu"]), int(p["K"]), _theta(p["theta"]),
                           int(p["N"]), _published_cc(p["algorithm"]), bool(p["trace"]),
                           p["rng"] == "paper_legacy", float(p.get("trace_interval") or 0.0))
    else:
        from simulator.models.mm1_standard import StandardMM1
        sim = StandardMM1.from_params(key, p)
    return sim.run()
