"""The dumbbell scenario (simulator/scenarios/dumbbell.py) built and run in ns-3 3.44 (PyPI `ns3`).

N senders -> router -> bottleneck -> router -> N receivers, every link point-to-point; the access
links as the dumbbell's (access_gbps, access_delay_ms), the bottleneck bottleneck_mbps and delay_ms.
It measures what the dumbbell reports, defined the same way (simulator/scenarios/dumbbell.py
summarize; simulator/validation/run_cell.py picks the dumbbell's metrics):

- utilization_warm: payload bytes the receivers' applications got between `warmup` and the end,
  over that span, divided by the bottleneck rate (PacketSink::GetTotalRx at both times): the in-order
  edge, the dumbbell's utilization_warm_in_order (its utilization_warm counts data held out of order too);
- mean_rtt_ms: the senders' smoothed RTT (TcpSocketBase trace "RTT", ns-3's srtt) sampled every
  sample_interval s from warmup on, every flow whose srtt is set, pooled;
- jain: Jain's index of the flows' receiver goodput over the whole run;
- rtt_sample_max_ms and rtt_samples_over_path_pct: the largest RTT sample ns-3 took (trace
  "LastRTT") and the share of samples above the largest RTT the path allows (path_rtt_max_ms: base
  RTT plus a full queue disc, the device queue's packet and the one in transmission, plus 1 ms): a
  sample above it measured something other than the path (ns-3's own RTT estimation);
- retransmissions and sent: data segments retransmitted (trace "Retransmission", fired by
  TcpSocketBase::SendDataPacket for a retransmission) and all data segments sent (trace "Tx",
  segments with payload), over the whole run;
- timeouts: retransmission timeouts (trace "CongState" entering CA_LOSS, which only
  TcpSocketBase::ReTxTimeout sets), over the whole run. A timeout that fires again while the flow is
  already in CA_LOSS (backed off) is not an entry, so this counts fewer than ours, which counts every
  timeout that fires;
- handshake_rtt_ms, srtt_min_ms, data_rtt_min_ms: the smallest first srtt of any flow (set by the
  SYN/SYN-ACK exchange, TcpSocketBase::EstimateRtt, before any data), the smallest srtt any flow had
  (trace "RTT"; the congestion control's RTT input, TcpSocketBase passes m_tcb->m_srtt to PktsAcked)
  and the smallest RTT sample of a data segment (trace "LastRTT" after the handshake's instant):
  srtt_min_ms below data_rtt_min_ms means the handshake's sample set a base RTT no data can see;
  ss_exit_ssthresh_pkts and ss_exit_s: flow 0's ssthresh and time when it first fell (leaving slow
  start);
- recoveries, recoveries_lost_in_recovery, recovery_cwnd_rise_max_pkts: fast recoveries (trace
  "CongState" entering CA_RECOVERY), those whose first retransmission is a segment the flow first sent
  during its previous fast recovery (from that recovery's point, trace "HighestSequence" when it began,
  to the highest sequence when it ended; no timeout between), and the largest rise of a flow's cwnd
  (trace "CongestionWindow") above the value its recovery ops set on entering a fast recovery, while in
  it, from warm-up on (a recovery counts where it begins). RFC 6937's PRR never raises cwnd above that value by more than rounding:
  in-flight above ssthresh, it sends ssthresh / RecoverFS of what is delivered, and below, at most up to
  ssthresh. ns-3's TcpPrrRecovery::DoRecovery adds a segment to the delivered count of every duplicate
  ACK although TcpSocketBase::DupAck already passes the bytes its SACK blocks newly cover, so it may send
  2 ssthresh / RecoverFS per segment delivered: above one for a reduction to more than half (CUBIC's
  0.7), into a queue still full from the loss;
- Vegas only, handshake_rtt_max_ms and vegas_base_rtt_max_ms: the largest first srtt of any flow (its
  SYN/SYN-ACK sample: the flows that start last open while the others queue) and the largest base RTT
  any flow's TcpVegas held at the end (TcpVegas::m_baseRtt, the minimum of the srtt PktsAcked got):
  Vegas holds the RTT a few packets above its flows' largest base RTT;
- BBR only, rate_sample_max_over_link_pct: the largest delivery-rate sample any flow's BBR got
  after warm-up (TcpRateLinux::GenerateSample, trace "TcpRateSampleUpdated" of the socket's rate
  ops), in percent of the payload rate the bottleneck can carry (bottleneck_mbps * MSS / WIRE);
  rate_sample_linux_max_over_link_pct: the same samples with the ACK interval measured at the ACK
  that takes the sample, as Linux does (net/ipv4/tcp_input.c tcp_ack starts every ACK with a fresh
  `struct rate_sample rs = { .prior_delivered = 0 }`). ns-3 keeps its sample across ACKs
  (tcp-rate-ops.h m_rateSample, "continuously updated") and TcpRateLinux::SkbDelivered renews
  m_ackElapsed only for a segment sent after more data was delivered than the current sample's
  m_priorDelivered, so an ACK whose segments were all sent at that same delivered count keeps the
  previous ACK's interval while counting the new data: a rate above the link's.

ns-3 keeps global state (the simulator, node list, defaults), so one process runs one cell
(simulator/validation/run_cell.py, one workflow job each). The facts
issue 15 lists for running ns-3 from Python are followed: a FIFO queue disc is installed before
addresses are assigned (otherwise the traffic-control layer installs FqCoDel), device queues hold 1
packet (so the queue disc is the bottleneck buffer), socket buffers are 16 MB, SACK is on (ns-3's
default), and TcpVegas runs with Timestamp=false and DelAckCount=1.
"""
# study algorithm name -> ns-3 TcpCongestionOps type (src/internet/model/tcp-*.cc)
TCP_TYPES = {"newreno": "TcpNewReno", "cubic": "TcpCubic", "bbr": "TcpBbr", "vegas": "TcpVegas"}
SOCKET_BUFFER = 16 << 20           # bytes, send and receive
FIFO_ACCESS = 100_000               # packets: access links never queue this much
MSS = 1448                          # payload bytes, as simulator/scenarios/dumbbell.py MSS
WIRE = 1502                         # bytes on the bottleneck: payload, TCP with timestamps, IP, PPP
# ns-3's Vegas stalls far below the link rate with timestamps and delayed ACKs (issue 15)
VEGAS_SOCKET = {"Timestamp": False, "DelAckCount": 1}

# Trace sinks and the periodic sampler, in C++: ns-3 calls them per event, and a Python callback
# per ACK would be slow through cppyy.
PROBE_CPP = r"""
#include "ns3/core-module.h"
#include "ns3/network-module.h"
#include "ns3/internet-module.h"
#include "ns3/applications-module.h"
namespace nsval {
using namespace ns3;
std::vector<double> srtt;                 // latest smoothed RTT of each flow, s (0: none yet)
std::vector<uint64_t> retx, sent;         // per flow, whole run
std::vector<uint64_t> timeouts;           // per flow: entries into CA_LOSS (retransmission timeouts)
std::vector<double> rtt_samples;          // pooled srtt samples after warm-up, s
std::vector<uint64_t> rx_at_warmup;       // each sink's bytes at the warm-up instant
std::vector<Ptr<PacketSink>> sinks;
double path_max = 0;                      // the largest RTT the path allows, s
uint64_t rtt_n = 0, rtt_over = 0;         // RTT samples (trace "LastRTT") and those above path_max
double rtt_max = 0;
double warm = 0;                          // the warm-up instant, s
double rate_max = 0, rate_linux_max = 0;  // BBR's largest delivery-rate samples after warm-up, bit/s
// Where the RTT input of the congestion control starts (module docstring: handshake_rtt_ms ...)
std::vector<double> first_srtt_t;         // per flow: when its srtt was first set (the handshake), s (-1: not yet)
double handshake_rtt = 0, handshake_rtt_max = 0, srtt_min = 0, data_rtt_min = 0;   // s (0: none)
double ss_exit_ssthresh = 0, ss_exit_t = -1;                 // flow 0 leaving slow start: ssthresh (bytes), s
// Fast recoveries (module docstring: recoveries ...), per flow: the highest sequence sent so far, whether in
// recovery, its recovery point, the cwnd set on entering it (-1: not yet), the previous recovery's span of
// segments first sent during it [lo, hi) (none after a timeout), and whether its first retransmission is due
std::vector<uint32_t> high_tx, rec_point, prev_lo, prev_hi;
std::vector<double> rec_cwnd;
std::vector<char> in_rec, has_prev, first_retx;
uint64_t recoveries = 0, lost_in_recovery = 0;
double rec_cwnd_rise = 0;                 // bytes

// The socket's rate ops (TcpSocketBase::m_rateOps, protected, no attribute) through the explicit-
// instantiation rule (an explicit instantiation may name a private member): read-only use.
template <typename Tag, typename Tag::type M> struct Expose { friend typename Tag::type get(Tag) { return M; } };
struct RateOpsOf { typedef Ptr<TcpRateOps> TcpSocketBase::*type; friend type get(RateOpsOf); };
template struct Expose<RateOpsOf, &TcpSocketBase::m_rateOps>;
struct CcOf { typedef Ptr<TcpCongestionOps> TcpSocketBase::*type; friend type get(CcOf); };
template struct Expose<CcOf, &TcpSocketBase::m_congestionControl>;
struct VegasBaseOf { typedef Time TcpVegas::*type; friend type get(VegasBaseOf); };
template struct Expose<VegasBaseOf, &TcpVegas::m_baseRtt>;

Ptr<TcpSocketBase> SocketOf(uint32_t node)
{
  ObjectVectorValue list;
  NodeList::GetNode(node)->GetObject<TcpL4Protocol>()->GetAttribute("SocketList", list);
  return DynamicCast<TcpSocketBase>(list.Get(0));
}

// A rate-sample trace fires in SkbDelivered (when it renews the sample) and last in GenerateSample,
// all at the ACK's instant: the last one at an instant is the sample BBR gets.
struct Pending { bool set = false; double t = 0, delivered = 0, interval = 0, send = 0, prior = 0; bool app = false; };
std::vector<Pending> pending;
void Commit(Pending& p)
{
  if (!p.set || p.t < warm || p.interval <= 0 || p.delivered <= 0 || p.app) { p.set = false; return; }
  rate_max = std::max(rate_max, p.delivered * 8 / p.interval);
  rate_linux_max = std::max(rate_linux_max, p.delivered * 8 / std::max(p.send, p.t - p.prior));
  p.set = false;
}
void OnRateSample(uint32_t i, const TcpRateOps::TcpRateSample& s)
{
  double t = Simulator::Now().GetSeconds();
  if (pending[i].set && pending[i].t != t) Commit(pending[i]);
  pending[i] = Pending{true, t, (double)s.m_delivered, s.m_interval.GetSeconds(), s.m_sendElapsed.GetSeconds(),
                       s.m_priorTime.GetSeconds(), s.m_isAppLimited};
}
void ConnectRate(uint32_t i, uint32_t node)
{
  Ptr<TcpSocketBase> sock = SocketOf(node);
  Ptr<TcpRateOps> ops = PeekPointer(sock)->*get(RateOpsOf());
  ops->TraceConnectWithoutContext("TcpRateSampleUpdated", MakeBoundCallback(&OnRateSample, i));
}
void Finish() { for (auto& p : pending) Commit(p); }

double VegasBaseMax(const std::vector<uint32_t>& nodes)
{   // the largest TcpVegas::m_baseRtt of the flows' sockets now, s (0: none set)
  double m = 0;
  for (uint32_t node : nodes) {
    Ptr<TcpVegas> v = DynamicCast<TcpVegas>(PeekPointer(SocketOf(node))->*get(CcOf()));
    Time base = PeekPointer(v)->*get(VegasBaseOf());
    if (base != Time::Max()) m = std::max(m, base.GetSeconds());
  }
  return m;
}

void OnRtt(uint32_t i, Time, Time now)
{
  double r = now.GetSeconds();
  srtt[i] = r;
  if (first_srtt_t[i] < 0) {              // the SYN/SYN-ACK sample (TcpSocketBase::EstimateRtt) seeds srtt
    first_srtt_t[i] = Simulator::Now().GetSeconds();
    if (handshake_rtt == 0 || r < handshake_rtt) handshake_rtt = r;
    handshake_rtt_max = std::max(handshake_rtt_max, r);
  }
  if (srtt_min == 0 || r < srtt_min) srtt_min = r;
}
void OnDataRtt(uint32_t i, Time, Time now)
{   // a data segment's RTT sample: any LastRTT after the handshake's instant
  if (first_srtt_t[i] < 0 || Simulator::Now().GetSeconds() <= first_srtt_t[i]) return;
  double r = now.GetSeconds();
  if (data_rtt_min == 0 || r < data_rtt_min) data_rtt_min = r;
}
void OnSsThresh(uint32_t i, uint32_t old, uint32_t now)
{ if (i == 0 && ss_exit_t < 0 && now < old && now < 0x7fffffffu) { ss_exit_ssthresh = now; ss_exit_t = Simulator::Now().GetSeconds(); } }
void OnSample(Time, Time now)
{ double r = now.GetSeconds(); rtt_n++; if (r > path_max) rtt_over++; if (r > rtt_max) rtt_max = r; }
void OnTx(uint32_t i, Ptr<const Packet> p, const TcpHeader&, Ptr<const TcpSocketBase>)
{ if (p->GetSize() > 0) sent[i]++; }
void OnRetx(uint32_t i, Ptr<const Packet>, const TcpHeader& h, const Address&, const Address&,
            Ptr<const TcpSocketBase>)
{
  retx[i]++;
  uint32_t seq = h.GetSequenceNumber().GetValue();
  if (first_retx[i] && has_prev[i] && seq >= prev_lo[i] && seq < prev_hi[i] && Simulator::Now().GetSeconds() >= warm)
    lost_in_recovery++;
  first_retx[i] = 0;
}
void OnHighTx(uint32_t i, SequenceNumber32, SequenceNumber32 now) { high_tx[i] = now.GetValue(); }
void OnCwndRec(uint32_t i, uint32_t, uint32_t now)
{   // EnterRecovery sets the state before the recovery ops set cwnd: the first value after entry is the entry's
  if (!in_rec[i]) return;
  if (rec_cwnd[i] < 0) rec_cwnd[i] = now;
  else if (Simulator::Now().GetSeconds() >= warm) rec_cwnd_rise = std::max(rec_cwnd_rise, now - rec_cwnd[i]);
}
void OnCongState(uint32_t i, TcpSocketState::TcpCongState_t old, TcpSocketState::TcpCongState_t now)
{
  if (now == TcpSocketState::CA_LOSS) { timeouts[i]++; has_prev[i] = 0; }
  if (old == TcpSocketState::CA_RECOVERY && now == TcpSocketState::CA_OPEN) {
    prev_lo[i] = rec_point[i]; prev_hi[i] = high_tx[i]; has_prev[i] = 1;
  }
  if (now == TcpSocketState::CA_RECOVERY) {  // EnterRecovery: m_recover = m_highTxMark, then the state
    recoveries += Simulator::Now().GetSeconds() >= warm; rec_point[i] = high_tx[i]; rec_cwnd[i] = -1; first_retx[i] = 1;
  }
  in_rec[i] = now == TcpSocketState::CA_RECOVERY;
}

void Connect(uint32_t i, uint32_t node)
{
  std::string base = "/NodeList/" + std::to_string(node) + "/$ns3::TcpL4Protocol/SocketList/0/";
  Config::ConnectWithoutContext(base + "RTT", MakeBoundCallback(&OnRtt, i));
  Config::ConnectWithoutContext(base + "Tx", MakeBoundCallback(&OnTx, i));
  Config::ConnectWithoutContext(base + "Retransmission", MakeBoundCallback(&OnRetx, i));
  Config::ConnectWithoutContext(base + "LastRTT", MakeCallback(&OnSample));
  Config::ConnectWithoutContext(base + "CongState", MakeBoundCallback(&OnCongState, i));
  Config::ConnectWithoutContext(base + "LastRTT", MakeBoundCallback(&OnDataRtt, i));
  Config::ConnectWithoutContext(base + "SlowStartThreshold", MakeBoundCallback(&OnSsThresh, i));
  Config::ConnectWithoutContext(base + "HighestSequence", MakeBoundCallback(&OnHighTx, i));
  Config::ConnectWithoutContext(base + "CongestionWindow", MakeBoundCallback(&OnCwndRec, i));
}

void Sample(double interval, double warmup)
{
  double t = Simulator::Now().GetSeconds();
  if (t >= warmup) {
    if (rx_at_warmup.empty())
      for (auto& s : sinks) rx_at_warmup.push_back(s->GetTotalRx());
    for (double r : srtt) if (r > 0) rtt_samples.push_back(r);
  }
  Simulator::Schedule(Seconds(interval), &Sample, interval, warmup);
}

void Watch(uint32_t flows, double start_interval, std::vector<uint32_t> nodes, double interval,
           double warmup, std::vector<Ptr<PacketSink>> flow_sinks, double path_max_s, bool rate_samples)
{
  srtt.assign(flows, 0.0); retx.assign(flows, 0); sent.assign(flows, 0); timeouts.assign(flows, 0);
  pending.assign(flows, Pending{});
  first_srtt_t.assign(flows, -1.0);
  high_tx.assign(flows, 0); rec_point.assign(flows, 0); prev_lo.assign(flows, 0); prev_hi.assign(flows, 0);
  rec_cwnd.assign(flows, -1.0); in_rec.assign(flows, 0); has_prev.assign(flows, 0); first_retx.assign(flows, 0);
  path_max = path_max_s;
  warm = warmup;
  sinks = flow_sinks;
  for (uint32_t i = 0; i < flows; i++) {    // each socket exists once its application has started
    Simulator::Schedule(Seconds(i * start_interval) + NanoSeconds(1), &Connect, i, nodes[i]);
    if (rate_samples)
      Simulator::Schedule(Seconds(i * start_interval) + NanoSeconds(1), &ConnectRate, i, nodes[i]);
  }
  Simulator::Schedule(Seconds(interval), &Sample, interval, warmup);
}
}
"""


def configure_tcp(ns, algorithm, seed):
    """Global TCP defaults of this run: the variant, segment size, buffers, SACK, the RNG run."""
    ns.RngSeedManager.SetSeed(1)
    ns.RngSeedManager.SetRun(seed)
    ns.Config.SetDefault("ns3::TcpL4Protocol::SocketType",
                         ns.TypeIdValue(ns.TypeId.LookupByName(f"ns3::{TCP_TYPES[algorithm]}")))
    ns.Config.SetDefault("ns3::TcpSocket::SegmentSize", ns.UintegerValue(MSS))
    ns.Config.SetDefault("ns3::TcpSocket::SndBufSize", ns.UintegerValue(SOCKET_BUFFER))
    ns.Config.SetDefault("ns3::TcpSocket::RcvBufSize", ns.UintegerValue(SOCKET_BUFFER))
    ns.Config.SetDefault("ns3::TcpSocketBase::Sack", ns.BooleanValue(True))
    if algorithm == "vegas":
        ns.Config.SetDefault("ns3::TcpSocketBase::Timestamp", ns.BooleanValue(VEGAS_SOCKET["Timestamp"]))
        ns.Config.SetDefault("ns3::TcpSocket::DelAckCount", ns.UintegerValue(VEGAS_SOCKET["DelAckCount"]))


def link(ns, rate_bps, delay_s):
    """A point-to-point helper whose device queues hold one packet."""
    h = ns.PointToPointHelper()
    h.SetDeviceAttribute("DataRate", ns.DataRateValue(ns.DataRate(int(rate_bps))))
    h.SetChannelAttribute("Delay", ns.TimeValue(ns.Seconds(delay_s)))
    h.SetQueue("ns3::DropTailQueue", "MaxSize", ns.QueueSizeValue(ns.QueueSize("1p")))
    return h


def fifo(ns, devices, packets):
    """A FIFO queue disc of `packets` on `devices` (before any address: else FqCoDel)."""
    tch = ns.TrafficControlHelper()
    tch.SetRootQueueDisc("ns3::FifoQueueDisc", "MaxSize", ns.QueueSizeValue(ns.QueueSize(f"{packets}p")))
    tch.Install(devices)


def build(ns, p, buffer_pkts, loss_pct):
    """The dumbbell's nodes and links; returns (sender nodes, receiver addresses)."""
    n = int(p["flows"])
    senders, receivers, routers = ns.NodeContainer(), ns.NodeContainer(), ns.NodeContainer()
    senders.Create(n)
    receivers.Create(n)
    routers.Create(2)
    for c in (senders, receivers, routers):
        ns.InternetStackHelper().Install(c)
    access = link(ns, p["access_gbps"] * 1e9, p["access_delay_ms"] / 1e3)
    bottleneck = link(ns, p["bottleneck_mbps"] * 1e6, p["delay_ms"] / 1e3)
    core = bottleneck.Install(routers.Get(0), routers.Get(1))
    fifo(ns, core, buffer_pkts)
    if loss_pct:        # forward (data) direction: the bottleneck's receiving device
        em = ns.CreateObject[ns.RateErrorModel]()
        em.SetAttribute("ErrorRate", ns.DoubleValue(loss_pct / 100.0))
        em.SetAttribute("ErrorUnit", ns.StringValue("ERROR_UNIT_PACKET"))
        core.Get(1).SetAttribute("ReceiveErrorModel", ns.PointerValue(em))
    edges = [access.Install(senders.Get(i), routers.Get(0)) for i in range(n)]
    edges += [access.Install(routers.Get(1), receivers.Get(i)) for i in range(n)]
    for d in edges:
        fifo(ns, d, FIFO_ACCESS)
    addr = ns.Ipv4AddressHelper()
    addr.SetBase(ns.Ipv4Address("10.0.0.0"), ns.Ipv4Mask("255.255.255.0"))
    addr.Assign(core)
    rx_addr = []
    for i, d in enumerate(edges):
        addr.SetBase(ns.Ipv4Address(f"10.{1 + i // 250}.{i % 250}.0"), ns.Ipv4Mask("255.255.255.0"))
        iface = addr.Assign(d)
        if i >= n:
            rx_addr.append(iface.GetAddress(1))
    ns.Ipv4GlobalRoutingHelper.PopulateRoutingTables()
    return senders, receivers, rx_addr


def applications(ns, p, senders, receivers, rx_addr):
    """Bulk senders (flow i from i * start_interval s) and packet sinks; returns the sinks."""
    sinks, port = [], 5000
    for i in range(int(p["flows"])):
        sink = ns.PacketSinkHelper("ns3::TcpSocketFactory",
                                   ns.InetSocketAddress(ns.Ipv4Address.GetAny(), port).ConvertTo())
        app = sink.Install(receivers.Get(i))
        app.Start(ns.Seconds(0.0))
        sinks.append(app.Get(0).GetObject[ns.PacketSink]())
        bulk = ns.BulkSendHelper("ns3::TcpSocketFactory", ns.InetSocketAddress(rx_addr[i], port).ConvertTo())
        bulk.SetAttribute("MaxBytes", ns.UintegerValue(0))
        bulk.SetAttribute("SendSize", ns.UintegerValue(MSS * 10))
        app = bulk.Install(senders.Get(i))
        app.Start(ns.Seconds(i * float(p["start_interval"])))
        app.Stop(ns.Seconds(float(p["duration"])))
    return sinks


def vegas_checks(probe, nodes) -> dict:
    """Vegas's RTT input at the flows' start and its base RTTs at the end (module docstring)."""
    base = float(probe.VegasBaseMax(nodes))
    return {"handshake_rtt_max_ms": 1e3 * float(probe.handshake_rtt_max) if probe.handshake_rtt_max else float("nan"),
            "vegas_base_rtt_max_ms": 1e3 * base if base else float("nan")}


def metrics(p, probe, sinks):
    """The dumbbell's metrics from the probe's counters and the sinks (module docstring)."""
    from simulator.scenarios.dumbbell import jain

    probe.Finish()
    link_payload_bps = p["bottleneck_mbps"] * 1e6 * MSS / WIRE
    rates = ({"rate_sample_max_over_link_pct": 100 * float(probe.rate_max) / link_payload_bps,
              "rate_sample_linux_max_over_link_pct": 100 * float(probe.rate_linux_max) / link_payload_bps}
             if p["algorithm"] == "bbr" else {})
    duration, warmup = float(p["duration"]), float(p["warmup"])
    total = [float(s.GetTotalRx()) for s in sinks]
    warm_bytes = sum(total) - sum(float(b) for b in probe.rx_at_warmup)
    rtt = [float(r) for r in probe.rtt_samples]
    goodput = [b * 8 / duration / 1e6 for b in total]
    return {
        "utilization_warm": warm_bytes * 8 / (duration - warmup) / (p["bottleneck_mbps"] * 1e6),
        "mean_rtt_ms": 1e3 * sum(rtt) / len(rtt) if rtt else float("nan"),
        "jain": jain(goodput) if len(goodput) > 1 else 1.0,
        "retransmissions": int(sum(int(x) for x in probe.retx)),
        "sent": int(sum(int(x) for x in probe.sent)),
        "timeouts": int(sum(int(x) for x in probe.timeouts)),
        "goodput_mbps": sum(goodput),
        "path_rtt_max_ms": 1e3 * float(probe.path_max),
        "rtt_sample_max_ms": 1e3 * float(probe.rtt_max),
        "rtt_samples_over_path_pct": 100.0 * int(probe.rtt_over) / max(1, int(probe.rtt_n)),
        "handshake_rtt_ms": 1e3 * float(probe.handshake_rtt) if probe.handshake_rtt else float("nan"),
        "srtt_min_ms": 1e3 * float(probe.srtt_min) if probe.srtt_min else float("nan"),
        "data_rtt_min_ms": 1e3 * float(probe.data_rtt_min) if probe.data_rtt_min else float("nan"),
        "ss_exit_ssthresh_pkts": float(probe.ss_exit_ssthresh) / MSS if probe.ss_exit_t >= 0 else float("nan"),
        "ss_exit_s": float(probe.ss_exit_t) if probe.ss_exit_t >= 0 else float("nan"),
        "recoveries": int(probe.recoveries),
        "recoveries_lost_in_recovery": int(probe.lost_in_recovery),
        "recovery_cwnd_rise_max_pkts": float(probe.rec_cwnd_rise) / MSS,
        **rates,
    }


def path_rtt_max(p, buffer_pkts):
    """The largest RTT a packet can see on this path, s: propagation both ways, the bottleneck
    queue disc full, the device queue's packet and the one on the wire ahead of it, and 1 ms for
    the access links' serialisation and ACKs' own transmission (a generous margin)."""
    base = 2 * (p["delay_ms"] + 2 * p["access_delay_ms"]) / 1e3
    return base + (buffer_pkts + 2) * WIRE * 8 / (p["bottleneck_mbps"] * 1e6) + 1e-3


_loaded = []     # the ns module once this process has loaded ns-3 and compiled the probes


def load():
    """ns-3's bindings with the probes compiled (about 12 s of CPU, once per process; a process forked after it
    starts its run from this state: simulator/validation/ns3_batch.py)."""
    if not _loaded:
        from ns import ns

        ns.cppyy.cppdef(PROBE_CPP)
        _loaded.append(ns)
    return _loaded[0]


def run(p, seed, buffer_pkts, loss_pct):
    """One ns-3 run of the dumbbell's full parameters `p` (simulator/scenarios/dumbbell.py
    params_with_defaults) with RNG run `seed`; returns its metrics. One run per process: ns-3 keeps
    global state, so a second run needs a fresh process (or a fork made after `load`)."""
    ns = load()
    probe = ns.cppyy.gbl.nsval
    configure_tcp(ns, p["algorithm"], seed)
    senders, receivers, rx_addr = build(ns, p, buffer_pkts, loss_pct)
    sinks = applications(ns, p, senders, receivers, rx_addr)
    nodes = ns.cppyy.gbl.std.vector["uint32_t"]([senders.Get(i).GetId() for i in range(int(p["flows"]))])
    sink_vec = ns.cppyy.gbl.std.vector[ns.Ptr[ns.PacketSink]](sinks)
    probe.Watch(int(p["flows"]), float(p["start_interval"]), nodes, float(p["sample_interval"]),
                float(p["warmup"]), sink_vec, path_rtt_max(p, buffer_pkts), p["algorithm"] == "bbr")
    ns.Simulator.Stop(ns.Seconds(float(p["duration"])))
    ns.Simulator.Run()
    out = metrics(p, probe, sinks)
    if p["algorithm"] == "vegas":
        out.update(vegas_checks(probe, nodes))
    ns.Simulator.Destroy()
    return out
