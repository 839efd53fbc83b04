"""What an open-loop run is built from (simulator/models/openloop_model.pyx): a topology, flow classes and
the run's settings.  A FlowClass is one kind of traffic between two hosts: long-lived flows started at set
times, Poisson arrivals of flows whose sizes follow a distribution (simulator/workloads/), or a trace of
(time, bytes) arrivals; each class has its own controller (a function of the flow's serial number)."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

WORKLOADS = ("long", "poisson", "trace")


@dataclass
class FlowClass:
    name: str
    src: str
    dst: str
    controller: Callable            # serial number of the flow in the run -> its congestion controller
    workload: str = "long"          # WORKLOADS
    flows: int = 1                  # long: how many
    start: float = 0.0              # long: the first flow's start; poisson: the first arrival's earliest time
    start_interval: float = 0.0     # long: between starts
    stop: float = math.inf          # poisson: no arrivals from then on
    rate: float = 0.0               # poisson: arrivals per s
    sizes: object = None            # poisson: a SizeDistribution
    mss: int = 1448                 # poisson, trace: bytes per segment
    trace: list = field(default_factory=list)   # trace: (time s, bytes), times not falling
    via: list | None = None         # the nodes it crosses, src ... dst; None: the shortest path

    def path(self, topology) -> list:
        if self.via is None:
            return topology.path(self.src, self.dst)
        if self.via[0] != self.src or self.via[-1] != self.dst:
            raise ValueError(f"flow class {self.name}: its route {self.via} must run from {self.src} to {self.dst}")
        return list(self.via)

    def schedule_first(self, model, c) -> int:
        """Push the class's first flow event; returns how many flows it will start (-1: open-ended)."""
        if self.workload == "long":
            for i in range(self.flows):
                model.push_flow(self.start + i * self.start_interval, c)
            return self.flows
        if self.workload == "trace":
            self._next = 0
            if self.trace:
                model.push_flow(self.trace[0][0], c)
            return len(self.trace)
        model.push_flow(self.start + model.rng(c).draw_exponential(self.rate), c)
        return -1

    def draw(self, model, c, now) -> tuple[int, float]:
        """(segments of the flow arriving now, -1 if long-lived; when the class's next flow is due)."""
        if self.workload == "long":
            return -1, math.inf                      # each start has its own event
        if self.workload == "trace":
            _, size = self.trace[self._next]
            self._next += 1
            nxt = self.trace[self._next][0] if self._next < len(self.trace) else math.inf
            return max(1, math.ceil(size / self.mss)), nxt
        rng = model.rng(c)
        packets = self.sizes.packets(rng.draw_uniform(), self.mss)
        nxt = now + rng.draw_exponential(self.rate)
        return packets, (nxt if nxt < self.stop else math.inf)

    def check(self, topology):
        if self.workload not in WORKLOADS:
            raise ValueError(f"flow class {self.name}: workload {self.workload!r}; allowed: {', '.join(WORKLOADS)}")
        for n in (self.src, self.dst):
            if n not in topology.hosts:
                raise ValueError(f"flow class {self.name}: {n!r} is not a host; allowed: {', '.join(topology.hosts)}")
        if self.workload == "poisson" and not (self.rate > 0 and self.sizes is not None):
            raise ValueError(f"flow class {self.name}: Poisson arrivals need a rate > 0 and a size distribution")
        if self.workload == "trace" and any(b[0] < a[0] for a, b in zip(self.trace, self.trace[1:])):
            raise ValueError(f"flow class {self.name}: trace times must not fall")
        topology.hops_along(self.path(topology))


@dataclass
class OpenLoopConfig:
    topology: object                  # simulator/net/topology.py Topology
    classes: list                     # FlowClass
    monitor: tuple                    # (a, b): the link whose queue is sampled and reported
    duration: float = 10.0
    warmup: float = 0.0
    sample_interval: float = 0.1
    data_size: int = 1502
    ack_size: int = 66
    tcp: dict | None = None           # TCP options (simulator/models/flow_endpoints.py)
    links: dict | None = None         # {link id: {queue, loss}}

    def check(self):
        if not self.classes:
            raise ValueError("an open-loop run needs at least one flow class")
        names = [c.name for c in self.classes]
        if len(set(names)) != len(names):
            raise ValueError(f"flow class names repeat: {names}")
        for c in self.classes:
            c.check(self.topology)
        self.topology.link_id(*self.monitor)
