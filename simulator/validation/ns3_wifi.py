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
Wi-Fi, with the same PHY, queue and algorithm (stack linux).

Our side of a UDP cell is WifiMedium with the same PHY and limits: uplink, `stations` saturated stations;
downlink, one (the access point: one backoff, whatever station it sends to). Bianchi's model (bianchi.py)
stands beside the cells without aggregation, whose exchange it describes. The default build reads ns-3's
committed records (reference/ns3_wifi/) and runs only our side (a few hundred ms); `snakemake --cores all
validation` reruns ns-3.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
import tempfile
from pathlib import Path

UDP_PAYLOAD, IP_PACKET = 1472, 1500
START_S, WARM_S = 1.0, 1.5          # the sources start, the measurement starts
DURATION_S = 3.0                     # the sources send from START_S for this long
OURS_SECONDS = 10.0                  # simulated seconds of our side (saturation: no warm-up needed)
RECORDS = "ns3_wifi/records.jsonl"   # in the reference folder (config key reference_dir)
TCP_QUEUE = 1000                     # the access point's MAC queue, packets (ours: ap_buffer_pkts)
TCP_START_S, TCP_WARM_S, TCP_END_S, TCP_SAMPLE_S = 1.0, 6.0, 20.0, 0.1
TCP_TYPES = {"cubic": "TcpCubic", "newreno": "TcpNewReno"}
HT20 = {"standard": "n", "channel_mhz": 20, "mcs": 7, "streams": 1}
VHT80 = {"standard": "ac", "channel_mhz": 80, "mcs": 9, "streams": 1}
RATE_WARM_S, RATE_END_S = 3.0, 6.0   # SNR cells: Minstrel has 2 s to settle, then 3 s are measured
NOISE_FIGURE_DB = 7                   # ns-3's RxNoiseFigure default: the noise floor the SNR is over


def snr_cells() -> list[dict]:
    """Cells with MPDU errors from the SNR (ns-3's NIST model, ours wifi_phy.log_bit_success), one station:
    a fixed MCS where a quarter, a twentieth or a sixth of the MPDUs fail; Minstrel-HT at SNRs where
    MCS 3, 5, 7 (802.11n) or 3, 5, 8, 9 (802.11ac) is the fastest that gets through; TCP CUBIC under
    Minstrel.  The SNRs are chosen from our error model's curves before any run, away from the points
    where two MCSs tie."""
    out = [{**HT20, "stations": 1, "direction": "up", "aggregation": True, "rate": "fixed", "snr_db": snr}
           for snr in (23.5, 24.0)]
    out.append({**VHT80, "stations": 1, "direction": "down", "aggregation": True, "rate": "fixed", "snr_db": 29.5})
    for phy, snrs in ((HT20, (15, 22, 27)), (VHT80, (15, 22, 28, 33))):
        out += [{**phy, "stations": 1, "direction": "down", "aggregation": True, "rate": "minstrel", "snr_db": snr}
                for snr in snrs]
    for phy, snr in ((HT20, 22), (VHT80, 28)):
        out.append({**phy, "stations": 1, "direction": "down", "aggregation": True, "rate": "minstrel",
                    "snr_db": snr, "tcp": "cubic"})
    return out


def cells() -> list[dict]:
    """The matrix: UDP saturation with 802.11n 20 MHz MCS 7 and 802.11ac 80 MHz MCS 9 (one stream each), 1-4
    stations, uplink and downlink, A-MPDU on and off (802.11ac: off only for one station); then one TCP bulk
    flow down to one station, CUBIC and NewReno, on each PHY."""
    out = []
    for phy, counts in ((HT20, (1, 2, 3, 4)), (VHT80, (1, 2, 4))):
        for n in counts:
            for direction in ("up", "down"):
                for agg in (True, False):
                    if agg or phy is HT20 or n == 1:
                        out.append({**phy, "stations": n, "direction": direction, "aggregation": agg})
    for phy in (HT20, VHT80):
        for cc in TCP_TYPES:
            out.append({**phy, "stations": 1, "direction": "down", "aggregation": True, "tcp": cc})
    return out + snr_cells()


def name(cell: dict) -> str:
    """'n20-mcs7-up-4sta-ampdu', 'ac80-mcs9-down-1sta-tcp-cubic': a cell's key in the records."""
    tail = f"tcp-{cell['tcp']}" if cell.get("tcp") else ("ampdu" if cell["aggregation"] else "single")
    rate = "minstrel" if cell.get("rate") == "minstrel" else f"mcs{cell['mcs']}"
    snr = f"-snr{cell['snr_db']:g}" if "snr_db" in cell else ""
    return f"{cell['standard']}{cell['channel_mhz']}-{rate}-{cell['direction']}-{cell['stations']}sta-{tail}{snr}"


def by_name(cell_name: str) -> dict:
    found = [c for c in cells() if name(c) == cell_name]
    if not found:
        raise ValueError(f"no Wi-Fi cell {cell_name!r}; allowed: {', '.join(name(c) for c in cells())}")
    return found[0]


# ------------------------------------------------------------------ ours
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

    if "snr_db" in cell:
        return ours_on_network(cell, seed)["goodput_mbps"]

    m = WifiMedium(medium_params(cell), seed=seed)
    m.run(OURS_SECONDS)
    return float(m.delivered_payload_bytes.sum()) * 8 / (m.now_ns * 1e-9) / 1e6 * UDP_PAYLOAD / IP_PACKET


def ours_on_network(cell: dict, seed: int = 1) -> dict:
    """A UDP cell with SNR errors on the packet network's channel, its queues full from time 0 (ns-3's
    sources start at START_S): goodput over ns-3's span and, with Minstrel, the MCS it ended at."""
    from simulator.validation import wifi_saturation

    params = {k: v for k, v in medium_params(cell).items() if k not in ("stations", "msdu_bytes")}
    lo, hi = (t - START_S for t in udp_span(cell))
    times, net = wifi_saturation.run({**params, **snr_params(cell)}, cell["stations"], cell["direction"], hi, seed)
    out = {"goodput_mbps": sum(1 for t in times if t > lo) * UDP_PAYLOAD * 8 / (hi - lo) / 1e6}
    if cell.get("rate") == "minstrel":
        out["minstrel_mcs"] = net.rates.current(0)
    return out


def tcp_params(cell: dict) -> dict:
    """The testbed model's parameters of a TCP cell (simulator/scenarios/wifi_testbed.params.yaml)."""
    return {"model": "testbed", "algorithm": cell["tcp"], "medium": "wifi", "link_setup": "eth_wifi",
            "duration": TCP_END_S - TCP_START_S, "mac_standard": cell["standard"],
            "mac_channel_mhz": cell["channel_mhz"], "mac_spatial_streams": cell["streams"], "mac_mcs": cell["mcs"],
            "mac_mpdu_error_rate": 0.0, "ap_buffer_pkts": TCP_QUEUE, "wifi_delay_ms": 0.0,
            **{"mac_" + k: v for k, v in snr_params(cell).items()}}


def ours_tcp(cell: dict, seed: int = 1) -> dict:
    """Our goodput (Mbit/s) and mean smoothed RTT (ms) of a TCP cell, over ns-3's measured span."""
    import numpy as np

    from simulator import registry
    from simulator.models.flow_config import samples
    from simulator.scenarios import wifi_testbed

    p = registry.resolve(tcp_params(cell))
    out = wifi_testbed.simulate(p, registry.key(p, seed))
    s = samples(out)
    lo, hi = TCP_WARM_S - TCP_START_S, TCP_END_S - TCP_START_S
    span = (s.t > lo) & (s.t <= hi)
    delivered = np.interp([lo, hi], s.t, s.delivered[:, 0])
    return {"goodput_mbps": float(delivered[1] - delivered[0]) * p["mss_bytes"] * 8 / (hi - lo) / 1e6,
            "mean_rtt_ms": float(np.mean(s.srtt[span, 0])) * 1e3}


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


# ------------------------------------------------------------------ ns-3
def run_ns3(cell: dict, seed: int = 1) -> dict:
    """One cell in ns-3: {'goodput_mbps', 'per_station_mbps'} (UDP) or {'goodput_mbps', 'mean_rtt_ms'} (TCP)."""
    if cell.get("tcp"):
        return run_ns3_tcp(cell, seed)
    from ns import ns

    ns.RngSeedManager.SetSeed(1)
    ns.RngSeedManager.SetRun(seed)
    ap, sta = ns.NodeContainer(), ns.NodeContainer()
    ap.Create(1)
    sta.Create(cell["stations"])
    ap_dev, sta_dev = _wifi_devices(ns, cell, ap, sta)
    _place(ns, ap, sta)
    stack = ns.InternetStackHelper()
    stack.Install(ap)
    stack.Install(sta)
    addr = ns.Ipv4AddressHelper()
    addr.SetBase(ns.Ipv4Address("10.1.0.0"), ns.Ipv4Mask("255.255.255.0"))
    ap_if, sta_if = addr.Assign(ap_dev), addr.Assign(sta_dev)
    sinks = _traffic(ns, cell, ap, sta, ap_if, sta_if)
    warm, end = udp_span(cell)
    ns.Simulator.Stop(ns.Seconds(warm))
    ns.Simulator.Run()
    before = [s.GetTotalRx() for s in sinks]
    ns.Simulator.Stop(ns.Seconds(end - warm))
    ns.Simulator.Run()
    span = end - warm
    per = [(s.GetTotalRx() - b) * 8 / span / 1e6 for s, b in zip(sinks, before)]
    ns.Simulator.Destroy()
    return {"goodput_mbps": sum(per), "per_station_mbps": per, **minstrel_choice(cell)}


# the sender's smoothed RTT (trace "RTT" of socket 0 of node 0, the server), kept in C++: it fires per ACK
RTT_CPP = r"""
#include "ns3/core-module.h"
namespace tcpsim_wifi {
double srtt = 0;
void OnRtt(ns3::Time, ns3::Time now) { srtt = now.GetSeconds(); }
void Connect() {
  ns3::Config::ConnectWithoutContext("/NodeList/0/$ns3::TcpL4Protocol/SocketList/0/RTT", ns3::MakeCallback(&OnRtt));
}
}
"""


def run_ns3_tcp(cell: dict, seed: int = 1) -> dict:
    """One TCP cell in ns-3: a wired server's bulk flow through the access point to one station."""
    import cppyy
    from ns import ns

    cppyy.cppdef(RTT_CPP)
    ns.RngSeedManager.SetSeed(1)
    ns.RngSeedManager.SetRun(seed)
    for key, value in (("ns3::TcpL4Protocol::SocketType", ns.StringValue(f"ns3::{TCP_TYPES[cell['tcp']]}")),
                       ("ns3::TcpSocket::SegmentSize", ns.UintegerValue(1448)),
                       ("ns3::TcpSocket::SndBufSize", ns.UintegerValue(16 << 20)),
                       ("ns3::TcpSocket::RcvBufSize", ns.UintegerValue(16 << 20)),
                       ("ns3::TcpSocket::InitialCwnd", ns.UintegerValue(10)),
                       ("ns3::WifiMacQueue::MaxSize", ns.QueueSizeValue(ns.QueueSize(f"{TCP_QUEUE}p"))),
                       ("ns3::WifiMacQueue::MaxDelay", ns.TimeValue(ns.Seconds(1000)))):
        ns.Config.SetDefault(key, value)
    server, ap, sta = ns.NodeContainer(), ns.NodeContainer(), ns.NodeContainer()
    for c in (server, ap, sta):
        c.Create(1)
    p2p = ns.PointToPointHelper()
    p2p.SetDeviceAttribute("DataRate", ns.StringValue("1Gbps"))
    p2p.SetChannelAttribute("Delay", ns.StringValue("0.1ms"))
    wired = p2p.Install(server.Get(0), ap.Get(0))
    ap_dev, sta_dev = _wifi_devices(ns, cell, ap, sta)
    _place(ns, ap, sta)
    stack = ns.InternetStackHelper()
    for c in (server, ap, sta):
        stack.Install(c)
    addr = ns.Ipv4AddressHelper()
    addr.SetBase(ns.Ipv4Address("10.1.1.0"), ns.Ipv4Mask("255.255.255.0"))
    addr.Assign(wired)
    addr.SetBase(ns.Ipv4Address("10.1.2.0"), ns.Ipv4Mask("255.255.255.0"))
    addr.Assign(ap_dev)
    sta_if = addr.Assign(sta_dev)
    tc = ns.TrafficControlHelper()          # the MAC queue only (addresses install a queue disc: remove it)
    tc.Uninstall(ap_dev)
    tc.Uninstall(sta_dev)
    ns.Ipv4GlobalRoutingHelper.PopulateRoutingTables()
    target = ns.InetSocketAddress(sta_if.GetAddress(0), 5000).ConvertTo()
    sink = ns.PacketSinkHelper("ns3::TcpSocketFactory", ns.InetSocketAddress(ns.Ipv4Address.GetAny(), 5000).ConvertTo())
    sink_app = sink.Install(sta.Get(0))
    sink_app.Start(ns.Seconds(0))
    bulk = ns.BulkSendHelper("ns3::TcpSocketFactory", target)
    bulk.SetAttribute("MaxBytes", ns.UintegerValue(0))
    bulk.Install(server.Get(0)).Start(ns.Seconds(TCP_START_S))
    ns.Simulator.Stop(ns.Seconds(TCP_WARM_S))
    ns.Simulator.Run()
    received = sink_app.Get(0).GetTotalRx()
    cppyy.gbl.tcpsim_wifi.Connect()
    rtts = []
    for _ in range(int(round((TCP_END_S - TCP_WARM_S) / TCP_SAMPLE_S))):
        ns.Simulator.Stop(ns.Seconds(TCP_SAMPLE_S))
        ns.Simulator.Run()
        rtts.append(cppyy.gbl.tcpsim_wifi.srtt * 1e3)
    goodput = (sink_app.Get(0).GetTotalRx() - received) * 8 / (TCP_END_S - TCP_WARM_S) / 1e6
    ns.Simulator.Destroy()
    return {"goodput_mbps": goodput, "mean_rtt_ms": sum(rtts) / len(rtts), **minstrel_choice(cell)}


STATS_LINE = re.compile(r"^(V?HT)\s+(\d+)\s+\+(\d+)ns\s+(\d+)\s+(\S*(?: \S)?)\s+MCS(\d+)(?:/\d+)?")


def minstrel_choice(cell: dict) -> dict:
    """Minstrel-HT's highest-throughput rate at the end of an ns-3 run, from the statistics table it writes
    (PrintStats) for the busiest sender: {'minstrel_rate': 'VHT 80 MHz MCS 1'}, none without Minstrel."""
    if cell.get("rate") != "minstrel":
        return {}
    files = sorted(Path.cwd().glob("minstrel-ht-stats-*.txt"), key=lambda f: f.stat().st_size)
    if not files:
        raise RuntimeError("ns-3's Minstrel-HT wrote no statistics table (PrintStats)")
    best = None
    for line in files[-1].read_text().splitlines():
        m = STATS_LINE.match(line)
        if m and "A" in m.group(5).split():
            best = f"{m.group(1)} {m.group(2)} MHz MCS {m.group(6)}"
    for f in files:
        f.unlink()
    return {"minstrel_rate": best}


def udp_span(cell: dict) -> tuple:
    """(from, to) s of a UDP cell's measurement; its sources send from START_S to `to`."""
    return (RATE_WARM_S, RATE_END_S) if "snr_db" in cell else (WARM_S, START_S + DURATION_S)


def rss_dbm(cell: dict) -> float:
    """The received power giving the cell's SNR over ns-3's noise floor (kT at 290 K over the channel's
    width, times the noise figure)."""
    import math

    return cell["snr_db"] + 10 * math.log10(1.3803e-23 * 290 * cell["channel_mhz"] * 1e6 * 1e3) + NOISE_FIGURE_DB


def _channel(ns, cell):
    if "snr_db" not in cell:
        return ns.YansWifiChannelHelper.Default().Create()
    helper = ns.YansWifiChannelHelper()
    helper.SetPropagationDelay("ns3::ConstantSpeedPropagationDelayModel")
    helper.AddPropagationLoss("ns3::FixedRssLossModel", "Rss", ns.DoubleValue(rss_dbm(cell)))
    return helper.Create()


def _wifi_devices(ns, cell, ap, sta):
    phy = ns.YansWifiPhyHelper()
    phy.SetChannel(_channel(ns, cell))
    if "snr_db" in cell:
        phy.SetErrorRateModel("ns3::NistErrorRateModel")
    channel = {20: 36, 40: 38, 80: 42}[cell["channel_mhz"]]
    phy.Set("ChannelSettings", ns.StringValue(f"{{{channel}, {cell['channel_mhz']}, BAND_5GHZ, 0}}"))
    for attr in ("Antennas", "MaxSupportedTxSpatialStreams", "MaxSupportedRxSpatialStreams"):
        phy.Set(attr, ns.UintegerValue(cell["streams"]))
    wifi = ns.WifiHelper()
    wifi.SetStandard(ns.WIFI_STANDARD_80211ac if cell["standard"] == "ac" else ns.WIFI_STANDARD_80211n)
    mode = f"VhtMcs{cell['mcs']}" if cell["standard"] == "ac" else f"HtMcs{cell['mcs'] + 8 * (cell['streams'] - 1)}"
    if cell.get("rate") == "minstrel":
        wifi.SetRemoteStationManager("ns3::MinstrelHtWifiManager", "PrintStats", ns.BooleanValue(True))
    else:
        wifi.SetRemoteStationManager("ns3::ConstantRateWifiManager", "DataMode", ns.StringValue(mode),
                                     "ControlMode", ns.StringValue("OfdmRate24Mbps"))
    mac = ns.WifiMacHelper()
    ssid = ns.Ssid("tcpsim")
    mac.SetType("ns3::StaWifiMac", "Ssid", ns.SsidValue(ssid))
    sta_dev = wifi.Install(phy, mac, sta)
    mac.SetType("ns3::ApWifiMac", "Ssid", ns.SsidValue(ssid))
    ap_dev = wifi.Install(phy, mac, ap)
    if not cell["aggregation"]:
        for devs in (sta_dev, ap_dev):
            for i in range(devs.GetN()):
                devs.Get(i).GetObject[ns.WifiNetDevice]().GetMac().SetAttribute("BE_MaxAmpduSize", ns.UintegerValue(0))
    return ap_dev, sta_dev


def _place(ns, ap, sta):
    mobility = ns.MobilityHelper()
    pos = ns.ListPositionAllocator()
    pos.Add(ns.Vector(0, 0, 0))
    for i in range(sta.GetN()):
        pos.Add(ns.Vector(1.0 + i, 0, 0))
    mobility.SetPositionAllocator(pos)
    mobility.SetMobilityModel("ns3::ConstantPositionMobilityModel")
    mobility.Install(ap)
    mobility.Install(sta)


def _traffic(ns, cell, ap, sta, ap_if, sta_if):
    """A saturating UDP source per station (to or from the access point) and its sink; returns the sinks."""
    sinks = []
    for i in range(cell["stations"]):
        up = cell["direction"] == "up"
        src, dst = (sta.Get(i), ap.Get(0)) if up else (ap.Get(0), sta.Get(i))
        address = ap_if.GetAddress(0) if up else sta_if.GetAddress(i)
        port = 9 + i
        sink = ns.PacketSinkHelper("ns3::UdpSocketFactory",
                                   ns.InetSocketAddress(ns.Ipv4Address.GetAny(), port).ConvertTo())
        app = sink.Install(dst)
        app.Start(ns.Seconds(0))
        sinks.append(app.Get(0))
        client = ns.UdpClientHelper(ns.InetSocketAddress(address, port).ConvertTo())
        client.SetAttribute("MaxPackets", ns.UintegerValue(0))
        client.SetAttribute("Interval", ns.TimeValue(ns.MicroSeconds(10)))
        client.SetAttribute("PacketSize", ns.UintegerValue(UDP_PAYLOAD))
        c = client.Install(src)
        c.Start(ns.Seconds(START_S))
        c.Stop(ns.Seconds(udp_span(cell)[1]))
    return sinks


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
    cell = by_name(a.cell)
    out = Path(a.out).resolve()
    with tempfile.TemporaryDirectory() as scratch:
        os.chdir(scratch)                      # Minstrel-HT's statistics tables are written here
        rec = record(cell, a.seed, run_ns3(cell, a.seed))
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(rec, sort_keys=True) + "\n")
    print(f"{a.cell}: {rec['metrics']['goodput_mbps']:.2f} Mbit/s", file=sys.stderr)


if __name__ == "__main__":
    main()
