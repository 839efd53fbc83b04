"""Flow 0's congestion window over time in ns-3 3.44 and in our dumbbell, for one validation cell:
evidence for the chapter "Agreement with ns-3" (needs the `ns3` extra; one ns-3 process, ~15 s).

    python scripts/ns3_cwnd.py '{"algorithm": "cubic", "bottleneck_mbps": 100, "buffer_pkts": 86}' --every 0.5

Prints t, cwnd (packets) in ns-3 and ours, every --every s up to the cell's duration, then both sides'
utilization (in order, as the agreement table compares it, and received: counting the data the receivers hold
out of order too, as the studies count it), mean RTT, Jain's index, retransmissions and timeouts.
--prr-rfc6937 runs ns-3 with its PRR counting a duplicate ACK's SACKed bytes only (RFC 6937), without the
segment TcpPrrRecovery::DoRecovery adds per duplicate ACK (chapter: [PRR]). --fix-1190 runs ns-3 with ns-3-dev's
fix of its issue #1190 emulated (a SACKed retransmission no longer counted in flight; chapter: [SACKed
retransmission]); at 100 Mbit/s that run takes hours, as ns-3 searches the long send buffer it then keeps.
"""
import argparse
import json

from simulator import registry
from simulator.scenarios import dumbbell
from simulator.validation import ns3_dumbbell as nd
from simulator.validation.cells import MATCHED_KEYS, SOCKET_KEYS

CWND_CPP = r"""
namespace nsval {
std::vector<double> cwnd_t, cwnd_v;
void OnCwnd(uint32_t, uint32_t now)
{ cwnd_t.push_back(ns3::Simulator::Now().GetSeconds()); cwnd_v.push_back(now / 1448.0); }
void WatchCwnd(uint32_t node)
{
  ns3::Config::ConnectWithoutContext("/NodeList/" + std::to_string(node) +
    "/$ns3::TcpL4Protocol/SocketList/0/CongestionWindow", ns3::MakeCallback(&OnCwnd));
}
}
"""

# ns-3's PRR with a duplicate ACK's delivered data as RFC 6937 counts it: the extra segment only for a
# duplicate ACK that delivered nothing (no SACK); tcp-prr-recovery.cc TcpPrrRecovery::DoRecovery
PRR_RFC_CPP = r"""
namespace nsval {
class PrrRfc6937 : public ns3::TcpPrrRecovery {
 public:
  static ns3::TypeId GetTypeId() {
    static ns3::TypeId tid = ns3::TypeId("nsval::PrrRfc6937").SetParent<ns3::TcpPrrRecovery>()
      .SetGroupName("Internet").AddConstructor<PrrRfc6937>();
    return tid;
  }
  void DoRecovery(ns3::Ptr<ns3::TcpSocketState> tcb, uint32_t delivered, bool isDupAck) override
  { ns3::TcpPrrRecovery::DoRecovery(tcb, delivered, isDupAck && delivered == 0); }
  ns3::Ptr<ns3::TcpRecoveryOps> Fork() override { return ns3::CopyObject<PrrRfc6937>(this); }
};
ns3::TypeId PrrRfc6937Id() { return PrrRfc6937::GetTypeId(); }
}
"""


# ns-3-dev's fix of issue #1190 (commit 380573ef1, in no release up to 3.48), emulated on 3.44: a retransmitted
# segment that is SACKed no longer counts as retransmitted, so no longer in flight. 3.44's TcpTxBuffer::Update
# clears a SACKed segment's lost mark but not its retransmit mark (nor m_retrans), and BytesInFlight adds m_retrans
# back, until the cumulative ACK passes the segment or a timeout clears every mark (SetSentListLost). The hook runs
# when the socket's rate sample is updated, once per ACK, before the window is used to send.
FIX_1190_CPP = r"""
namespace nsval {
struct SentListOf { typedef std::list<ns3::TcpTxItem*> ns3::TcpTxBuffer::*type; friend type get(SentListOf); };
template struct Expose<SentListOf, &ns3::TcpTxBuffer::m_sentList>;
struct RetransOf { typedef uint32_t ns3::TcpTxBuffer::*type; friend type get(RetransOf); };
template struct Expose<RetransOf, &ns3::TcpTxBuffer::m_retrans>;
struct TcbOf { typedef ns3::Ptr<ns3::TcpSocketState> ns3::TcpSocketBase::*type; friend type get(TcbOf); };
template struct Expose<TcbOf, &ns3::TcpSocketBase::m_tcb>;
uint64_t unmarked = 0;
void ClearSackedRetrans(ns3::Ptr<ns3::TcpSocketBase> s, const ns3::TcpRateOps::TcpRateSample&)
{
  ns3::TcpTxBuffer* b = ns3::PeekPointer(s->GetTxBuffer());
  uint32_t& retrans = b->*get(RetransOf());
  for (ns3::TcpTxItem* item : b->*get(SentListOf()))
    if (item->m_retrans && item->IsSacked()) { item->m_retrans = false; retrans -= item->GetSeqSize(); unmarked++; }
  (ns3::PeekPointer(s)->*get(TcbOf()))->m_bytesInFlight = b->BytesInFlight();
}
void Fix1190(uint32_t node)
{
  ns3::Ptr<ns3::TcpSocketBase> s = SocketOf(node);
  (ns3::PeekPointer(s)->*get(RateOpsOf()))->TraceConnectWithoutContext("TcpRateSampleUpdated",
    ns3::MakeBoundCallback(&ClearSackedRetrans, s));
}
// each socket exists once its application has started (flow i at i x start_interval)
void Fix1190All(double start_interval, std::vector<uint32_t> nodes)
{
  for (uint32_t i = 0; i < nodes.size(); i++)
    ns3::Simulator::Schedule(ns3::Seconds(i * start_interval) + ns3::NanoSeconds(1), &Fix1190, nodes[i]);
}
}
"""


# What the receivers hold out of order, to count utilization as the data that reached them (the dumbbell's
# utilization_warm, which the studies use) besides the in-order count the agreement table compares: the sinks read
# in-order data at once, so a receiving socket's buffer holds the out-of-order data (TcpRxBuffer::Size)
RECEIVED_CPP = r"""
namespace nsval {
double held_at_warmup = 0;
double HeldBytes()
{
  double held = 0;
  for (auto& sink : sinks)
    for (ns3::Ptr<ns3::Socket> s : sink->GetAcceptedSockets()) {
      ns3::Ptr<ns3::TcpSocketBase> tcp = ns3::DynamicCast<ns3::TcpSocketBase>(s);
      if (tcp) held += tcp->GetRxBuffer()->Size();
    }
  return held;
}
void HoldAtWarmup() { held_at_warmup = HeldBytes(); }
void WatchHeld(double warmup) { ns3::Simulator::Schedule(ns3::Seconds(warmup), &HoldAtWarmup); }
}
"""


def received_utilization(p, probe, sinks) -> float:
    """ns-3's utilization after warm-up counted as the data that reached the receivers (in order or held)."""
    got = sum(float(s.GetTotalRx()) for s in sinks) + probe.HeldBytes()
    at_warmup = sum(float(b) for b in probe.rx_at_warmup) + probe.held_at_warmup
    return (got - at_warmup) * 8 / (p["duration"] - p["warmup"]) / (p["bottleneck_mbps"] * 1e6)


def ns3_cwnd(p, seed, loss, prr_rfc=False, fix_1190=False):
    """ns-3's flow-0 cwnd (times, packets) and the cell's metrics (simulator/validation/ns3_dumbbell.py)."""
    from ns import ns

    ns.cppyy.cppdef(nd.PROBE_CPP)
    ns.cppyy.cppdef(CWND_CPP)
    if prr_rfc:
        ns.cppyy.cppdef(PRR_RFC_CPP)
        ns.Config.SetDefault("ns3::TcpL4Protocol::RecoveryType", ns.TypeIdValue(ns.cppyy.gbl.nsval.PrrRfc6937Id()))
    probe = ns.cppyy.gbl.nsval
    nd.configure_tcp(ns, p["algorithm"], seed)
    buffer = dumbbell.buffer_packets(p)
    senders, receivers, rx_addr = nd.build(ns, p, buffer, loss)
    sinks = nd.applications(ns, p, senders, receivers, rx_addr)
    n = int(p["flows"])
    nodes = ns.cppyy.gbl.std.vector["uint32_t"]([senders.Get(i).GetId() for i in range(n)])
    probe.Watch(n, float(p["start_interval"]), nodes, float(p["sample_interval"]), float(p["warmup"]),
                ns.cppyy.gbl.std.vector[ns.Ptr[ns.PacketSink]](sinks), nd.path_rtt_max(p, buffer),
                p["algorithm"] == "bbr")
    ns.Simulator.Schedule(ns.NanoSeconds(1), probe.WatchCwnd, senders.Get(0).GetId())
    if fix_1190:
        ns.cppyy.cppdef(FIX_1190_CPP)
        probe.Fix1190All(float(p["start_interval"]), nodes)
    ns.cppyy.cppdef(RECEIVED_CPP)
    probe.WatchHeld(float(p["warmup"]))
    ns.Simulator.Stop(ns.Seconds(float(p["duration"])))
    ns.Simulator.Run()
    m = nd.metrics(p, probe, sinks)
    m["utilization_warm_received"] = received_utilization(p, probe, sinks)
    if fix_1190:
        m["sacked_retx_unmarked"] = int(probe.unmarked)
    return list(probe.cwnd_t), list(probe.cwnd_v), m


def at(ts, vs, t):
    """The value last set at or before t (0 before the first)."""
    import bisect

    i = bisect.bisect_right(ts, t) - 1
    return vs[i] if i >= 0 else 0.0


def cell_parser(doc: str) -> argparse.ArgumentParser:
    """The arguments every per-cell evidence script takes (also scripts/ns3_vegas_base.py)."""
    ap = argparse.ArgumentParser(description=doc.splitlines()[0])
    ap.add_argument("params", help="the cell's dumbbell parameters, JSON")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--loss-pct", type=float, default=0.0)
    ap.add_argument("--every", type=float, default=0.5, help="print interval, s")
    return ap


def main():
    ap = cell_parser(__doc__)
    ap.add_argument("--prr-rfc6937", action="store_true", help="ns-3's PRR without its per-duplicate-ACK segment")
    ap.add_argument("--fix-1190", action="store_true",
                    help="ns-3 with ns-3-dev's fix of its issue #1190: a SACKed retransmission is no longer in flight")
    a = ap.parse_args()
    cell = json.loads(a.params)
    given = {"model": "dumbbell", "duration": 20, "warmup": 5, "delay_ms": 20, **cell, **SOCKET_KEYS,
             **MATCHED_KEYS.get(cell.get("algorithm", "cubic"), {})}
    if a.loss_pct:
        given["loss_fwd_pct"] = a.loss_pct          # ours loses at the same rate (its own random stream)
    p = dumbbell.params_with_defaults(given)
    ts, vs, m = ns3_cwnd(p, a.seed, a.loss_pct, a.prr_rfc6937, a.fix_1190)
    run = registry.run({**given, "trace": True}, a.seed)
    ours = run["trace"]
    print("t_s  ns3_cwnd_pkts  ours_cwnd_pkts")
    k = 1
    while k * a.every <= p["duration"] + 1e-9:
        t = k * a.every
        j = min(range(len(ours["t"])), key=lambda i: abs(ours["t"][i] - t))
        print(f"{t:5.2f} {at(ts, vs, t):9.1f} {ours['cwnd_0'][j]:9.1f}")
        k += 1
    o = run["metrics"]
    print(f"ns-3: utilization {100 * m['utilization_warm']:.2f}% (received {100 * m['utilization_warm_received']:.2f}%), "
          f"mean RTT {m['mean_rtt_ms']:.1f} ms, Jain {m['jain']:.3f}, {m['retransmissions']} retransmissions, "
          f"{m['timeouts']} timeouts")
    if a.fix_1190:
        print(f"ns-3 (#1190 fix): {m['sacked_retx_unmarked']} SACKed retransmissions taken out of flight")
    print(f"ours: utilization {100 * o['utilization_warm_in_order']:.2f}% (received {100 * o['utilization_warm']:.2f}%), "
          f"mean RTT {o['mean_rtt_ms']:.1f} ms, Jain {o['jain']:.3f}, {round(o['plr'] * o['sent'])} retransmissions, "
          f"{o['timeouts']} timeouts")


if __name__ == "__main__":
    main()
