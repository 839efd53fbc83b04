"""Our 802.11 MAC (simulator/net/wifi_mac.pyx) against ns-3's Wi-Fi module: UDP saturation cells, and TCP
bulk flows over the packet network's channel (simulator/net/wifi_network.pyx).

One access point and 1-4 stations at 1-4 m (no frame errors at that range), YansWifiChannel, a fixed rate
(ConstantRateWifiManager: the data MCS, control frames at 24 Mbit/s), best effort, no RTS/CTS; every
station sends to the access point (uplink) or the access point to every station (downlink) 1,472-byte UDP
payloads (1,500-byte IP packets) far faster than the channel carries (UdpClient every 10 us), from 1 s;
goodput is the UDP payload the sinks receive from 1.5 s to the end. A-MPDU on (ns-3's default limits) or
off (BE_MaxAmpduSize 0: one MPDU a transmission, a normal ACK). ns-3 keeps global state, so each cell
is a process of its own (`python -m simulator.validation.ns3_wifi --cell NAME --out FILE`).

TCP cells: a server 1 Gbit/s and 0.1 ms from the access point sends one bulk flow (CUBIC or NewReno,
1,448-byte segments, 16 MB socket buffers, ns-3's defaults otherwise: SACK, timestamps, delayed ACKs of 2)
to one station; the access point's only queue is its MAC queue of TCP_QUEUE packets (no queue disc:
TrafficControlHelper.Uninstall; no MaxDelay drop); measured from 6 s to 20 s: goodput at the sink and the
sender's smoothed RTT sampled every 0.1 s. Our side is the testbed model on the 802.11 channel, Ethernet to
Wi-Fi, with the same PHY, queue and algorithm (stack linux). Relay cells: one station's flow to another through
the access point (ours: the testbed's Wi-Fi to Wi-Fi). SNR cells: MPDU errors from the SNR (ns-3's NIST
model), a fixed MCS or Minstrel-HT (snr_cells). ns-3's side of every cell is in ns3_wifi_peer.py.

Our side of a UDP cell is WifiMedium with the same PHY and limits: uplink, `stations` saturated stations;
downlink, one (the access point: one backoff, whatever station it sends to). Bianchi's model (bianchi.py)
stands beside the cells without aggregation, whose exchange it describes. The cells are defined in
wifi_cells.py. The default build reads ns-3's
committed records (reference/ns3_wifi/) and runs only our side (a few hundred ms); `snakemake --cores all
validation` reruns ns-3.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from pathlib import Path

from simulator.validation.wifi_cells import (IP_PACKET, START_S, TCP_QUEUE, TCP_START_S, TCP_WARM_S, UDP_PAYLOAD,
                                             by_name, cells, name, tcp_end, udp_span)

# the cells' definition lives in wifi_cells.py (ns-3's side reads it too); these names are read from here
__all__ = ["IP_PACKET", "RECORDS", "bianchi_mbps", "cells", "check", "name", "ours", "ours_on_network", "ours_tcp",
           "seal"]
OURS_SECONDS = 10.0                  # simulated seconds of our side (saturation: no warm-up needed)
RECORDS = "ns3_wifi/records.jsonl"   # in the reference folder (config key reference_dir)


def medium_params(cell: dict) -> dict:
    """WifiMedium's parameters (simulator/net/wifi.params.yaml) of a cell."""
    return {"standard": cell["standard"], "channel_mhz": cell["channel_mhz"], "spatial_streams": cell["streams"],
            "mcs": cell["mcs"], "msdu_bytes": IP_PACKET, "control_rate_mbps": 24,
            "stations": cell["stations"] if cell["direction"] == "up" else 1,
            "max_ampdu_mpdus": 64 if cell["aggregation"] else 1}


def snr_params(cell: dict) -> dict:
    """The channel keys of a cell with SNR errors (and Minstrel), none for the others."""
    if "snr_db" not in cell:
        return {}
    return {"error_model": "snr", "snr_db": cell["snr_db"], "rate_control": cell["rate"]}


def ours(cell: dict, seed: int = 1) -> float:
    """Our goodput of a UDP cell, Mbit/s of UDP payload: the saturated medium, or with SNR errors and rate
    control (which it does not model) the packet network's channel with full queues, over ns-3's span."""
    from simulator.net.wifi_mac import WifiMedium

    if "snr_db" in cell or cell["direction"] == "both":
        return ours_on_network(cell, seed)["goodput_mbps"]

    m = WifiMedium(medium_params(cell), seed=seed)
    m.run(OURS_SECONDS)
    return float(m.delivered_payload_bytes.sum()) * 8 / (m.now_ns * 1e-9) / 1e6 * UDP_PAYLOAD / IP_PACKET


def ours_on_network(cell: dict, seed: int = 1) -> dict:
    """A UDP cell with SNR errors, or both ways at once, on the packet network's channel, its queues full from
    time 0 (ns-3's sources start at START_S): goodput over ns-3's span and, with Minstrel, the MCS it ended at."""
    from simulator.validation import wifi_saturation

    params = {k: v for k, v in medium_params(cell).items() if k not in ("stations", "msdu_bytes")}
    lo, hi = (t - START_S for t in udp_span(cell))
    times, net = wifi_saturation.run({**params, **snr_params(cell)}, cell["stations"], cell["direction"], hi, seed)
    out = {"goodput_mbps": sum(1 for t in times if t > lo) * UDP_PAYLOAD * 8 / (hi - lo) / 1e6}
    if cell.get("rate") == "minstrel":
        out["minstrel_mcs"] = net.rates.current(0)
    return out


def tcp_params(cell: dict) -> dict:
    """The testbed model's parameters of a TCP cell (simulator/scenarios/wifi_testbed.params.yaml): Ethernet to
    Wi-Fi, or Wi-Fi to Wi-Fi for the relay cells.  ns-3's MAC queue limit (TCP_QUEUE) holds for all the stations
    of its access category together, ours for each wireless link: a downlink cell of n stations gives each an
    n-th of it."""
    setup = "wifi_wifi" if cell["direction"] == "relay" else "eth_wifi"
    shared = cell["stations"] if cell["direction"] == "down" else 1
    return {"model": "testbed", "algorithm": cell["tcp"], "medium": "wifi", "link_setup": setup,
            "duration": tcp_end(cell) - TCP_START_S, "mac_standard": cell["standard"],
            "mac_channel_mhz": cell["channel_mhz"], "mac_spatial_streams": cell["streams"], "mac_mcs": cell["mcs"],
            "mac_mpdu_error_rate": 0.0, "ap_buffer_pkts": TCP_QUEUE // shared, "wifi_delay_ms": 0.0,
            **{"mac_" + k: v for k, v in snr_params(cell).items()}}


def ours_tcp(cell: dict, seed: int = 1) -> dict:
    """Our goodput (Mbit/s) and mean smoothed RTT (ms) of a TCP cell, over ns-3's measured span (an uplink cell:
    the testbed model's measured flow from the wireless host to the wired one; a downlink cell of n stations: one
    flow to each, their goodputs summed and their RTTs averaged)."""
    import numpy as np

    from simulator import registry
    from simulator.models.flow_config import samples
    from simulator.scenarios import wifi_testbed

    p = registry.resolve(tcp_params(cell))
    n = cell["stations"] if cell["direction"] == "down" else 1
    out = wifi_testbed.simulate(p, registry.key(p, seed), upload=cell["direction"] == "up", stations=n)
    s = samples(out)
    lo, hi = TCP_WARM_S - TCP_START_S, tcp_end(cell) - TCP_START_S
    span = (s.t > lo) & (s.t <= hi)
    delivered = sum(np.diff(np.interp([lo, hi], s.t, s.delivered[:, i]))[0] for i in range(n))
    rtt = s.srtt[span, 0] if n == 1 else s.srtt[span, :n]
    return {"goodput_mbps": float(delivered) * p["mss_bytes"] * 8 / (hi - lo) / 1e6,
            "mean_rtt_ms": float(np.mean(rtt)) * 1e3}


def bianchi_mbps(cell: dict) -> float | None:
    """Bianchi's saturation goodput of a cell without aggregation (None with A-MPDU, which his model lacks)."""
    if cell["aggregation"] or cell.get("tcp"):
        return None
    from simulator.net import bianchi, wifi_mac, wifi_phy

    cfg = wifi_phy.wifi_config(medium_params(cell))
    n = cfg["stations"]
    aifsn, cwmin, cwmax = wifi_phy.EDCA[cfg["access_category"]]
    aifs = wifi_phy.SIFS_US + aifsn * wifi_phy.SLOT_US
    ppdu = wifi_mac.ppdu_us(cfg, wifi_mac.mpdu_bytes(IP_PACKET) + (4 if cfg["standard"] == "ac" else 0))
    ts = aifs + ppdu + wifi_phy.SIFS_US + wifi_mac.ack_us(cfg)
    tc = ppdu + wifi_phy.SIFS_US + wifi_phy.SLOT_US + cfg["rx_phy_start_delay_us"] + aifs
    bps = bianchi.throughput_bps(n, UDP_PAYLOAD * 8, wifi_phy.SLOT_US * 1e-6, ts * 1e-6, tc * 1e-6, cwmin, cwmax,
                                 cfg["retry_limit"])
    return bps / 1e6


def record(cell: dict, seed: int, metrics: dict) -> dict:
    return {"cell": name(cell), "params": cell, "seed": seed, "side": "ns3", "metrics": metrics}


def seal(run_files, out) -> int:
    """ns-3's run files (one record each) as sealed reference data at `out`, in the matrix's order."""
    from simulator import peer_records

    got = {}
    for f in run_files:
        r = json.loads(Path(f).read_text())
        got[r["cell"]] = r
    order = [name(c) for c in cells()]
    missing = [c for c in order if c not in got]
    if missing:
        raise ValueError(f"no ns-3 run of cells {missing}; run them first (--cell NAME --out FILE)")
    peer_records.write([got[c] for c in order], out)
    return len(order)


def check(reference_dir) -> list[dict]:
    """The committed records (reference_dir/ns3_wifi/records.jsonl), every seal checked, one per cell of the
    matrix with the cell's parameters; ReferenceDataError naming the file and line otherwise."""
    from simulator import peer_records
    from simulator.reference_errors import ReferenceDataError

    path = Path(reference_dir) / RECORDS
    records = peer_records.read(path, required=("cell", "params", "seed", "side", "metrics"))
    by_cell = {r["cell"]: (i, r) for i, r in enumerate(records, start=1)}
    for cell in cells():
        if name(cell) not in by_cell:
            raise ReferenceDataError(f"{path}: no record of Wi-Fi cell {name(cell)}; regenerate them with "
                                     "`snakemake --cores all validation` (needs the ns3 extra)")
        line, r = by_cell[name(cell)]
        if r["params"] != cell:
            raise ReferenceDataError(f"{path}: line {line}: cell {name(cell)} was run with {r['params']}; the "
                                     f"matrix now gives {cell}: regenerate the records")
    return [by_cell[name(c)][1] for c in cells()]


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cell", help="a cell's name (see cells(); `list` prints them)")
    ap.add_argument("--seal", nargs="+", help="run files to seal into --out, one per cell")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", help="JSON file of the run's record (required but for --cell list)")
    a = ap.parse_args(argv)
    if a.seal:
        print(f"{seal(a.seal, a.out)} records sealed into {a.out}", file=sys.stderr)
        return
    if a.cell == "list":
        print("\n".join(name(c) for c in cells()))
        return
    if not a.out:
        ap.error("--out is required to run a cell")
    from simulator.validation import ns3_wifi_peer

    cell = by_name(a.cell)
    out = Path(a.out).resolve()
    with tempfile.TemporaryDirectory() as scratch:
        os.chdir(scratch)                      # Minstrel-HT's statistics tables are written here
        rec = record(cell, a.seed, ns3_wifi_peer.run_ns3(cell, a.seed))
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(rec, sort_keys=True) + "\n")
    print(f"{a.cell}: {rec['metrics']['goodput_mbps']:.2f} Mbit/s", file=sys.stderr)


if __name__ == "__main__":
    main()
