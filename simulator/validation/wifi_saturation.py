"""Saturated stations on the packet network's 802.11 channel (simulator/net/wifi_network.pyx): each link's
queue holds more 1,500-byte packets than the channel can carry in the run, as ns-3's UDP sources far
faster than the channel keep theirs full.  Used for the ns-3 cells with SNR errors and rate control
(simulator/validation/ns3_wifi.py), which the saturated medium (wifi_mac.pyx: one MCS, one error rate)
does not describe.  One packet in the queues per link and simulated packet time: no per-event allocation
beyond the network's own pool."""
from __future__ import annotations

import math

from simulator.core.events import EventQueue
from simulator.core.seeding import run_key
from simulator.net import wifi_phy
from simulator.net.wifi_network import WifiNetwork

DONE, ARRIVE, STOP = 0, 1, 2
FRAME = 1514                  # an Ethernet frame of a 1,500-byte IP packet


def delivered(params: dict, stations: int, direction: str, until: float, seed: int = 1) -> list:
    """Delivery times (s) of the packets that arrive by `until`, all links together; params: the
    channel's (wifi.params.yaml) keys; direction 'up' (each station its own backoff), 'down' (the
    access point one backoff for its links to every station) or 'both' (each station's link up, and the
    access point's down to it)."""
    return run(params, stations, direction, until, seed)[0]


def run(params: dict, stations: int, direction: str, until: float, seed: int = 1, snr_db=None) -> tuple:
    """(delivery times, the WifiNetwork after the run) of delivered(); snr_db: {station: dB} where it
    differs from the params' snr_db (error_model: snr)."""
    if direction not in ("up", "down", "both"):
        raise ValueError(f"direction must be 'up', 'down' or 'both', got {direction!r}")
    cfg = wifi_phy.wifi_config(dict(params))
    mode = wifi_phy.phy_mode(cfg["standard"], cfg["channel_mhz"], cfg["spatial_streams"], cfg["mcs"],
                             cfg["guard_interval_ns"])
    per_link = math.ceil(mode.rate_mbps * 1e6 * until / (8 * FRAME) * 1.1) + 64
    events = EventQueue()
    ways = 2 if direction == "both" else 1
    net = WifiNetwork(events, DONE, ARRIVE, stations * ways)
    links = [net.add_link(1e10, 0.0, per_link) for _ in range(stations * ways)]
    for i, link in enumerate(links):
        net.set_route(i, 0, [link])
    owners = ([f"sta{i}" for i in range(stations)] if direction in ("up", "both") else []) \
        + (["ap"] * stations if direction in ("down", "both") else [])
    net.set_wifi(links, owners, params, run_key({**wifi_phy.key_params(cfg), "direction": direction,
                                                 "stations": stations}, seed),
                 snr_db={links[i + w * stations]: v for i, v in (snr_db or {}).items() for w in range(ways)})
    for i in range(stations * ways):
        for seq in range(per_link):
            net.py_send(i, 0, seq, 0.0, FRAME)
    events.schedule(until, STOP)
    out = []
    while len(events):
        now, _, kind, data = events.next()
        if kind == STOP:
            break
        if kind == DONE:
            net.py_link_done(data, now)
        elif net.py_arrive(data, now) == 1:
            out.append(now)
            net.py_free(data)
    return out, net


def goodput_mbps(params: dict, stations: int, direction: str, span: tuple, payload_bytes: int,
                 seed: int = 1) -> float:
    """Payload Mbit/s delivered within span = (from, to) s, the queues full from time 0."""
    lo, hi = span
    count = sum(1 for t in delivered(params, stations, direction, hi, seed) if t > lo)
    return count * payload_bytes * 8 / (hi - lo) / 1e6
