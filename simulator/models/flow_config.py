"""What a flow-model run is built from (FlowConfig), and the names of the columns it samples.

The flow model (simulator/models/flow_model.pyx) takes its key, one controller per TCP flow and a
FlowConfig: every other setting is declared here, once, with its unit and default. The samples stay
rows of numbers (no Python object per sample in the event loop); FLOW_SAMPLE and FLOW_COUNTERS name
their per-flow columns and `samples` reads them back by name."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

# `samples`: t, bottleneck queue (packets), then these per TCP flow
SAMPLE_HEAD = ("t", "queue_pkts")
FLOW_SAMPLE = ("cwnd", "in_flight", "srtt", "delivered")
# `samples2`, per TCP flow: cumulative drops and transmissions, one-way delay sum and count, the worst
# delay since the last sample, and the in-order edge (what the receiving application has got)
FLOW_COUNTERS = ("drops", "sent", "delay_sum", "delay_count", "delay_max", "in_order")


@dataclass
class FlowConfig:
    """A flow-model run's settings; times in s, rates in bit/s, sizes in bytes on the wire.

    Either the built-in dumbbell (bottleneck_bps, bottleneck_delay, buffer_pkts and the access
    links) or `topology` (simulator/net/topology.py) with `flow_ends` and `monitor`."""
    bottleneck_bps: float | None = None       # dumbbell: bottleneck rate
    bottleneck_delay: float | None = None     # dumbbell: bottleneck one-way delay
    buffer_pkts: int | None = None            # dumbbell: bottleneck buffer
    access_bps: float = 10e9                  # dumbbell: access link rate
    access_delay: float = 1e-5                # dumbbell: access link one-way delay
    duration: float = 10.0
    start_interval: float = 0.1               # flow i starts at i * start_interval (without start_times)
    sample_interval: float = 0.1
    data_size: int = 1502                     # data packet
    ack_size: int = 66                        # ACK, SYN and SYN-ACK
    schedule: list | None = None              # (t, "rate"|"delay", value[, link ids]) changes
    tcp: dict | None = None                   # TCP options (simulator/models/flow_endpoints.py)
    topology: object = None                   # a Topology instead of the dumbbell
    flow_ends: list | None = None             # topology: (source, destination) per TCP flow
    monitor: tuple | None = None              # topology: the sampled link (a, b)
    start_times: list | None = None           # per TCP flow
    stop_times: list | None = None            # per TCP flow; default: never
    recoveries: list | None = None            # per TCP flow: a classic (NS-2 style) recovery or None (SACK)
    udp: list | None = None                   # dicts: src, dst, rate_bps, size, mode, on, off[, start, stop]
    probes: list | None = None                # dicts: src, dst, interval, size[, start, stop]
    links: dict | None = None                 # {link id: {queue, loss, jitter}}
    medium: list | None = None                # link ids sharing one half-duplex channel
    wifi: dict | None = None                  # an 802.11 channel: WifiNetwork.set_wifi's links, owners, params
    extra_delays: list | None = None          # dumbbell: extra one-way delay per flow
    event_from: float = 0.0                   # event-sampled RTT and in-flight from this time on

    def check(self, n_flows: int) -> None:
        """ValueError naming the setting that does not fit `n_flows` TCP flows or the network chosen."""
        if n_flows < 1:
            raise ValueError("the flow model needs at least one flow")
        dumbbell = (self.bottleneck_bps, self.bottleneck_delay, self.buffer_pkts)
        if self.topology is None:
            if self.udp or self.probes:
                raise ValueError("UDP sources and probes need a topology (topology=)")
            if None in dumbbell:
                raise ValueError("the built-in dumbbell needs bottleneck_bps, bottleneck_delay and buffer_pkts "
                                 "(or give topology=)")
        else:
            if dumbbell != (None, None, None):
                raise ValueError("bottleneck_bps, bottleneck_delay and buffer_pkts describe the built-in dumbbell; "
                                 "with topology= the links are the topology's")
            if self.flow_ends is None or len(self.flow_ends) != n_flows:
                raise ValueError(f"a topology run needs (source, destination) for each of the {n_flows} flows")
        if len(self.flow_start_times(n_flows)) != n_flows:
            raise ValueError(f"{len(self.start_times)} start times for {n_flows} flows")
        if len(self.flow_stop_times(n_flows)) != n_flows:
            raise ValueError(f"{len(self.stop_times)} stop times for {n_flows} flows")

    def network_class(self):
        """Network, or WifiNetwork when wireless links share an 802.11 channel (simulator/net/wifi_network.pyx)."""
        from simulator.net.network import Network
        from simulator.net.wifi_network import WifiNetwork
        return WifiNetwork if self.wifi else Network

    def share_media(self, net, key: str) -> None:
        """Set up the run's shared channels on `net`: half-duplex (medium) or 802.11 (wifi)."""
        if self.medium and self.wifi:
            raise ValueError("medium (a half-duplex channel) and wifi (an 802.11 channel) exclude each other")
        if self.medium:
            net.set_medium(self.medium)
        if self.wifi:
            net.set_wifi(key=key, **self.wifi)

    def flow_start_times(self, n_flows: int) -> list:
        if self.start_times is not None:
            return list(self.start_times)
        return [i * float(self.start_interval) for i in range(n_flows)]

    def flow_stop_times(self, n_flows: int) -> list:
        return list(self.stop_times) if self.stop_times is not None else [math.inf] * n_flows


class Samples(NamedTuple):
    """A run's samples by name: `t` and `queue_pkts` one value per sample, the rest one column per TCP flow."""
    t: np.ndarray
    queue_pkts: np.ndarray      # the monitored (bottleneck) link's queue
    cwnd: np.ndarray
    in_flight: np.ndarray
    srtt: np.ndarray
    delivered: np.ndarray
    drops: np.ndarray
    sent: np.ndarray
    delay_sum: np.ndarray
    delay_count: np.ndarray
    delay_max: np.ndarray
    in_order: np.ndarray


def samples(out) -> Samples:
    """The samples of a run's output (FlowModel.run) as named float arrays, one row per sample."""
    s = np.asarray(out["samples"], dtype=float)
    s2 = np.asarray(out["samples2"], dtype=float)
    head = len(SAMPLE_HEAD)
    per_flow = [s[:, head + k::len(FLOW_SAMPLE)] for k in range(len(FLOW_SAMPLE))]
    counters = [s2[:, k::len(FLOW_COUNTERS)] for k in range(len(FLOW_COUNTERS))]
    return Samples(s[:, 0], s[:, 1], *per_flow, *counters)
