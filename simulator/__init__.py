"""tcpsim: a fast discrete-event simulator for TCP congestion-control studies.

`simulator.run(params, seed)` runs one simulation and returns {"metrics": {...}, "trace"?: {...}}.
"""
__version__ = "0.4.0"

from simulator.registry import MODELS, run  # noqa: E402,F401
