"""ns-3's side of the Wi-Fi cells (simulator/validation/ns3_wifi.py defines the cells, our side and the records):
one cell per process, ns-3 3.44's Wi-Fi module through its Python bindings (the ns3 extra).  UDP cells: an
access point and 1-4 stations, saturating UdpClients; TCP cells: a wired server's bulk flow through the access
point to a station; SNR cells: a fixed received power (FixedRssLossModel) over ns-3's noise floor, the NIST
error model, and ConstantRateWifiManager or MinstrelHtWifiManager (whose statistics table gives the rate it
ended at)."""
from __future__ import annotations

import re
from pathlib import Path

from simulator.validation.wifi_cells import (NOISE_FIGURE_DB, START_S, TCP_QUEUE, TCP_SAMPLE_S, TCP_START_S,
                                           TCP_TYPES, TCP_WARM_S, UDP_PAYLOAD, tcp_end, udp_span)

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
double srtt[8] = {0};
void OnRtt(int socket, ns3::Time, ns3::Time now) { srtt[socket] = now.GetSeconds(); }
void Connect(int node, int sockets) {
  for (int i = 0; i < sockets; i++)
    ns3::Config::ConnectWithoutContext("/NodeList/" + std::to_string(node) + "/$ns3::TcpL4Protocol/SocketList/" +
                                       std::to_string(i) + "/RTT", ns3::MakeBoundCallback(&OnRtt, i));
}
}
"""


def run_ns3_tcp(cell: dict, seed: int = 1) -> dict:
    """One TCP cell in ns-3: a wired server's bulk flow through the access point to one station (direction up: the
    station's to the server), or (direction relay) one station's to another through the access point, which
    forwards between them."""
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
                       ("ns3::WifiMacQueue::MaxDelay", ns.TimeValue(ns.Seconds(1000))),
                       # ns-3's TCP timestamps count whole milliseconds (TcpOptionTS) and a zero RTT reads as 1 us:
                       # below 1 ms its BBR then takes the path's minimum RTT for 1 us; off, RTTs come from the
                       # send times, at the simulator's resolution
                       ("ns3::TcpSocketBase::Timestamp", ns.BooleanValue(cell.get("timestamps", True)))):
        ns.Config.SetDefault(key, value)
    if cell["direction"] == "relay":
        return _relay(ns, cppyy, cell)
    server, ap, sta = ns.NodeContainer(), ns.NodeContainer(), ns.NodeContainer()
    n = cell["stations"] if cell["direction"] == "down" else 1
    for c, k in ((server, 1), (ap, 1), (sta, n)):
        c.Create(k)
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
    wired_if = addr.Assign(wired)
    addr.SetBase(ns.Ipv4Address("10.1.2.0"), ns.Ipv4Mask("255.255.255.0"))
    addr.Assign(ap_dev)
    sta_if = addr.Assign(sta_dev)
    tc = ns.TrafficControlHelper()          # the MAC queue only (addresses install a queue disc: remove it)
    tc.Uninstall(ap_dev)
    tc.Uninstall(sta_dev)
    ns.Ipv4GlobalRoutingHelper.PopulateRoutingTables()
    if cell["direction"] == "up":
        return _bulk_flow(ns, cppyy, cell, sta.Get(0), [(server.Get(0), wired_if.GetAddress(0))])
    return _bulk_flow(ns, cppyy, cell, server.Get(0), [(sta.Get(i), sta_if.GetAddress(i)) for i in range(n)])


def _relay(ns, cppyy, cell) -> dict:
    """Station 0 to station 1 through the access point."""
    sta, ap = ns.NodeContainer(), ns.NodeContainer()
    sta.Create(2)
    ap.Create(1)
    ap_dev, sta_dev = _wifi_devices(ns, cell, ap, sta)
    _place(ns, ap, sta)
    stack = ns.InternetStackHelper()
    for c in (sta, ap):
        stack.Install(c)
    addr = ns.Ipv4AddressHelper()
    addr.SetBase(ns.Ipv4Address("10.1.2.0"), ns.Ipv4Mask("255.255.255.0"))
    addr.Assign(ap_dev)
    sta_if = addr.Assign(sta_dev)
    tc = ns.TrafficControlHelper()
    tc.Uninstall(ap_dev)
    tc.Uninstall(sta_dev)
    return _bulk_flow(ns, cppyy, cell, sta.Get(0), [(sta.Get(1), sta_if.GetAddress(1))])


def _bulk_flow(ns, cppyy, cell, sender, receivers) -> dict:
    """A bulk flow from sender to each (receiver, its address), measured from TCP_WARM_S to the cell's end:
    goodput summed over the flows, the sender's smoothed RTTs averaged over flows and samples."""
    sinks = []
    for receiver, address in receivers:
        target = ns.InetSocketAddress(address, 5000).ConvertTo()
        sink = ns.PacketSinkHelper("ns3::TcpSocketFactory",
                                   ns.InetSocketAddress(ns.Ipv4Address.GetAny(), 5000).ConvertTo())
        sinks.append(sink.Install(receiver).Get(0))
        sinks[-1].SetStartTime(ns.Seconds(0))
        bulk = ns.BulkSendHelper("ns3::TcpSocketFactory", target)
        bulk.SetAttribute("MaxBytes", ns.UintegerValue(0))
        bulk.Install(sender).Start(ns.Seconds(TCP_START_S))
    ns.Simulator.Stop(ns.Seconds(TCP_WARM_S))
    ns.Simulator.Run()
    received = sum(s.GetTotalRx() for s in sinks)
    cppyy.gbl.tcpsim_wifi.Connect(sender.GetId(), len(sinks))
    rtts = []
    for _ in range(int(round((tcp_end(cell) - TCP_WARM_S) / TCP_SAMPLE_S))):
        ns.Simulator.Stop(ns.Seconds(TCP_SAMPLE_S))
        ns.Simulator.Run()
        rtts.append(sum(cppyy.gbl.tcpsim_wifi.srtt[i] for i in range(len(sinks))) * 1e3 / len(sinks))
    goodput = (sum(s.GetTotalRx() for s in sinks) - received) * 8 / (tcp_end(cell) - TCP_WARM_S) / 1e6
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
    """A saturating UDP source per station and direction (to the access point, from it, or both) and its sink;
    returns the sinks."""
    sinks = []
    ways = ("up", "down") if cell["direction"] == "both" else (cell["direction"],)
    for w, way in enumerate(ways):
        for i in range(cell["stations"]):
            up = way == "up"
            src, dst = (sta.Get(i), ap.Get(0)) if up else (ap.Get(0), sta.Get(i))
            address = ap_if.GetAddress(0) if up else sta_if.GetAddress(i)
            port = 9 + i + 100 * w
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
