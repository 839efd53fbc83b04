"""The algorithm catalogue: every congestion-control algorithm a study may name, one module each.

Each module declares NAME, DESCRIPTION (one line), PARAMS (study parameters it reads, with
defaults and ranges; simulator/params.py), RECOVERY (its loss recovery on a sender without SACK:
tahoe, reno or newreno), SACK (False: it never runs on the SACK sender), NEEDS_RATE_SAMPLES (it
needs the SACK sender's delivery-rate samples and pacing), and `make(stack)` returning its window
controller for one flow. NETWORK algorithms run in every network model; PUBLISHED ones are the
M/M/1 paper's code, run by that model's as_published variant. The compiled
implementations live beside this package (simulator/tcp/cc/*.pyx), the hooks in base.pxd.

A model describes its TCP stack once (Stack below); `build(name, stack)` gives the controller and,
for a sender without SACK, the recovery object. So a name means one thing in every model: the
same window algorithm, with the stack's own loss-recovery machinery (RFC 6675 SACK recovery in
the Linux- and ns-3-like stacks; the algorithm's declared recovery in NS-2's one-way agents and
the textbook M/M/1 sender), as in Linux and ns-3, where congestion control and loss recovery are
separate modules.

A study may add its own algorithms (simulator/tcp/cc/user.py): `add_user` registers them in this
process under their short names, after which `algorithm`, `build` and `accepted` treat them as
network algorithms of family "user".
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import lru_cache

# network algorithms first, in the order the report lists them; then the M/M/1 paper's published code
NETWORK = ("tahoe", "reno", "newreno", "cubic", "vegas", "bbr", "qtcol", "qtcolfair")
PUBLISHED = ("published_tahoe", "published_reno", "published_cubic")
# the algorithms NS-2 2.35 ships a one-way agent of whose loss recovery the ns2 stack reproduces (Agent/TCP,
# Agent/TCP/Reno, Agent/TCP/Newreno); the others run their declared recovery on the ns2 stack's sender
NS2_AGENTS = ("tahoe", "reno", "newreno")
NAMES = NETWORK + PUBLISHED
# short name -> simulator.tcp.cc.user.UserAlgorithm, for the studies loaded in this process
USER = {}


@dataclass(frozen=True)
class Stack:
    """What a model's TCP stack is: whose details the algorithms follow and what its sender offers.

    name: "ns3" or "linux" (the QtColFair, Mininet and testbed models), "ns2" (NS-2's one-way
    agents), "textbook" (the M/M/1 model's RFC sender); sack: the sender keeps a SACK scoreboard,
    takes delivery-rate samples and paces; key/flow: the run key and flow index, for algorithms
    that draw a random start (BBR's gain-cycle phase) from the run's own streams; ack_counting:
    how Reno-family growth counts an ACK (linux, ns3, ns2: simulator/tcp/cc/aimd.pyx).
    """
    name: str
    sack: bool
    hystart: bool = False
    alpha: float = 1.2
    key: str = ""
    flow: int = 0
    ack_counting: str = "linux"


@dataclass(frozen=True)
class Algorithm:
    name: str
    description: str
    params: tuple
    recovery: str | None
    sack: bool
    needs_rate_samples: bool
    family: str          # "network" or "published"
    module: object

    def runs_on(self, stack: Stack) -> bool:
        """Whether this stack's sender gives the algorithm what it needs."""
        return stack.sack or not self.needs_rate_samples

    def make(self, stack: Stack):
        return self.module.make(stack)


def add_user(spec) -> None:
    """Register a user's algorithm (simulator.tcp.cc.user.UserAlgorithm); its class is imported and
    checked first. A built-in name, or a name this process already gave another file, is refused."""
    from simulator.tcp.cc import user
    if spec.name in NAMES or spec.name == "none":
        raise user.UserAlgorithmError(f"{spec.name!r} is the name of a built-in algorithm; choose another "
                                      f"short name (built-ins: none, {', '.join(NAMES)})")
    if USER.get(spec.name, spec) != spec:
        raise user.UserAlgorithmError(f"{spec.name!r} already names {USER[spec.name].source} "
                                      f"(sha256 {USER[spec.name].sha256[:12]}) in this run; give each file its own name")
    user.load(spec)
    USER[spec.name] = spec


def accepted(names, stack: Stack | None = None) -> tuple:
    """`names` (a model's built-in algorithms) and the registered user algorithms (those `stack` runs)."""
    return tuple(names) + tuple(n for n in USER if stack is None or algorithm(n).runs_on(stack))


def _user_entry(name: str) -> Algorithm:
    from types import SimpleNamespace

    from simulator.tcp.cc import user
    spec = USER[name]
    cls = user.load(spec)
    make = SimpleNamespace(make=lambda stack: user.make(spec, stack))
    return Algorithm(name, f"user algorithm {spec.source}", (), getattr(cls, "RECOVERY", "newreno"),
                     True, bool(getattr(cls, "NEEDS_RATE_SAMPLES", False)), "user", make)


def algorithm(name: str) -> Algorithm:
    """The catalogue entry `name` (built-in or registered user algorithm); ValueError naming the
    known algorithms otherwise."""
    if name in USER:
        return _user_entry(name)
    return _builtin(name)


@lru_cache(maxsize=None)
def _builtin(name: str) -> Algorithm:
    if name not in NAMES:
        raise ValueError(f"algorithm {name!r} unknown; allowed: {', '.join(NAMES)}")
    m = importlib.import_module(f"{__name__}.{name}")
    return Algorithm(m.NAME, m.DESCRIPTION, tuple(getattr(m, "PARAMS", ())), getattr(m, "RECOVERY", None),
                     getattr(m, "SACK", True), getattr(m, "NEEDS_RATE_SAMPLES", False),
                     "published" if name in PUBLISHED else "network", m)


def names_for(stack: Stack) -> tuple:
    """The network algorithms a stack runs (every one, unless its sender lacks what one needs)."""
    return tuple(n for n in NETWORK if algorithm(n).runs_on(stack))


def recovery(name: str):
    """A fresh loss-recovery object of kind `name` (tahoe, reno, newreno; ns2_vegas: NS-2's Vegas agent's)."""
    from simulator.tcp import recovery as r
    return {"tahoe": r.TahoeRecovery, "reno": r.RenoRecovery, "newreno": r.NewRenoRecovery,
            "ns2_vegas": r.Ns2VegasRecovery}[name]()


def build(name: str, stack: Stack):
    """(controller, recovery) of algorithm `name` for one flow of `stack`; recovery is None when the
    flow runs on the SACK sender, which does its own (RFC 6675) recovery."""
    from simulator.tcp.cc.aimd import RenoGrowth, counting_code
    a = algorithm(name)
    if not a.runs_on(stack):
        raise ValueError(f"algorithm {name!r} needs delivery-rate samples and pacing, which the "
                         f"{stack.name} stack's sender does not take; allowed: {', '.join(names_for(stack))}")
    on_sack = stack.sack and a.sack
    cc = a.make(stack)
    if isinstance(cc, RenoGrowth):          # Tahoe, Reno, NewReno and Vegas's Reno growth
        cc.ack_counting = counting_code(stack.ack_counting)
    if a.family == "user":                  # its values checked where they enter the sender (guard.pyx)
        from simulator.tcp.cc.guard import GuardedControl
        cc = GuardedControl(cc, USER[name].source)
    kind = getattr(a.module, "NS2_RECOVERY", a.recovery) if stack.name == "ns2" else a.recovery
    rec = None if on_sack or kind is None else recovery(kind)
    if rec is not None and stack.name == "ns2" and name in NS2_AGENTS:
        rec.ns2 = rec.limited_transmit = True    # NS-2 2.35's own agent for this algorithm (simulator/tcp/recovery.pyx)
    return cc, rec
