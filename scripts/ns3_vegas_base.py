"""Every flow's Vegas base RTT over time in ns-3 3.44 and in our dumbbell, with the bottleneck queue, for one
validation cell: evidence for the chapter "Agreement with ns-3", cause [late start] (needs the `ns3` extra; one
ns-3 process, ~10 s at 10 Mbit/s).

    python scripts/ns3_vegas_base.py '{"bottleneck_mbps": 10, "buffer_pkts": 69, "flows": 5}' --every 0.5

Prints t, the queue (packets) and each flow's base RTT (ms; "-" before its first) in ns-3 and ours, then our
run's mean RTT and retransmissions. With --handshake our Vegas takes ns-3's RTT input instead (a diagnostic, not
a model option): each flow's data starts one SYN round trip after its start time, and the srtt Vegas reads is
seeded by that SYN's RTT (the path's, with small packets, plus the queue our run had at the flow's start) and
then smoothed by 1/8 per sample, as TcpSocketBase::EstimateRtt does after the handshake.
"""
import bisect
import json
from contextlib import contextmanager

from simulator import registry
from simulator.scenarios import dumbbell
from simulator.tcp.cc import catalogue
from simulator.tcp.cc.vegas import Vegas
from simulator.validation import ns3_dumbbell as nd

from ns3_cwnd import cell_parser      # scripts/ is on sys.path when run as a script

BASE_CPP = r"""
namespace nsval {
std::vector<uint32_t> base_nodes;
Ptr<QueueDisc> base_queue;
std::vector<double> base_t, base_q, base_v;        // per sample: time, queue; then one base RTT (s) per flow
void SampleBases(double every)
{
  base_t.push_back(Simulator::Now().GetSeconds());
  base_q.push_back(base_queue->GetNPackets());
  for (uint32_t node : base_nodes) {
    ObjectVectorValue list;
    NodeList::GetNode(node)->GetObject<TcpL4Protocol>()->GetAttribute("SocketList", list);
    double b = -1;
    if (list.GetN() > 0) {
      Ptr<TcpVegas> v = DynamicCast<TcpVegas>(PeekPointer(SocketOf(node))->*get(CcOf()));
      Time base = PeekPointer(v)->*get(VegasBaseOf());
      if (base != Time::Max()) b = base.GetSeconds();
    }
    base_v.push_back(b);
  }
  Simulator::Schedule(Seconds(every), &SampleBases, every);
}
void StartBases(double every) { Simulator::Schedule(Seconds(every), &SampleBases, every); }
}
"""


def ns3_bases(p, seed, loss, every):
    """[(t, queue, [base RTT s or -1 per flow])] in ns-3."""
    from ns import ns

    ns.cppyy.cppdef(nd.PROBE_CPP)
    ns.cppyy.cppdef(BASE_CPP)
    g = ns.cppyy.gbl.nsval
    nd.configure_tcp(ns, "vegas", seed)
    senders, receivers, rx_addr = nd.build(ns, p, dumbbell.buffer_packets(p), loss)
    nd.applications(ns, p, senders, receivers, rx_addr)
    router = ns.NodeList.GetNode(2 * int(p["flows"]))     # senders, receivers, then the two routers
    g.base_queue = router.GetObject[ns.TrafficControlLayer]().GetRootQueueDiscOnDevice(router.GetDevice(1))
    for i in range(int(p["flows"])):
        g.base_nodes.push_back(senders.Get(i).GetId())
    g.StartBases(every)
    ns.Simulator.Stop(ns.Seconds(float(p["duration"])))
    ns.Simulator.Run()
    n = int(p["flows"])
    v = list(g.base_v)
    return [(t, q, v[k * n:(k + 1) * n]) for k, (t, q) in enumerate(zip(g.base_t, g.base_q))]


class TracedVegas(Vegas):
    """Our Vegas, logging (time, base RTT) at each change; with syn_rtt set, its RTT input is ns-3's."""

    def setup(self, log, syn_rtt):
        self.log, self.syn_rtt, self.own = log, syn_rtt, None

    def pkts_acked(self, s, rs):
        if self.syn_rtt is None:
            Vegas.pkts_acked(self, s, rs)
        else:
            if rs.rtt > 0 and rs.acked > 0:
                self.own = (self.syn_rtt if self.own is None else self.own) * 0.875 + 0.125 * rs.rtt
            kept, s.srtt = s.srtt, (self.own if self.own is not None else self.syn_rtt)
            Vegas.pkts_acked(self, s, rs)
            s.srtt = kept
        if not self.log or self.log[-1][1] != self.base_rtt:
            self.log.append((s.now, self.base_rtt))


@contextmanager
def traced(logs, syn):
    """Every Vegas flow built inside is a TracedVegas logging into logs[flow] (SYN RTT syn.get(flow))."""
    build = catalogue.build

    def traced_build(name, stack):
        cc, rec = build(name, stack)
        t = TracedVegas(cc.alpha, cc.beta, cc.gamma, cc.use_srtt, cc.ns3_ssthresh)
        t.ack_counting = cc.ack_counting
        t.setup(logs.setdefault(stack.flow, []), syn.get(stack.flow))
        return t, rec

    catalogue.build = traced_build
    try:
        yield
    finally:
        catalogue.build = build


def syn_rtts(given, p):
    """Each flow's SYN round trip on our side: flow i's SYN sees the queue the flows before it built (one run
    per flow, each with the SYN RTTs found so far), at 1 ms resolution."""
    path = 2 * (p["delay_ms"] + 2 * p["access_delay_ms"]) / 1e3 + 2 * dumbbell.ACK_WIRE * 8 / (p["bottleneck_mbps"] * 1e6)
    per_packet = (p["mss_bytes"] + dumbbell.HEADERS) * 8 / (p["bottleneck_mbps"] * 1e6)
    starts = [i * p["start_interval"] for i in range(int(p["flows"]))]
    syn = {0: path}
    for i in range(1, len(starts)):
        with traced({}, syn):
            tr = registry.run({**given, **delayed(starts, syn), "trace": True, "sample_interval": 0.001}, 1)["trace"]
        k = bisect.bisect_left(tr["t"], starts[i])
        syn[i] = path + tr["queue"][min(k, len(tr["t"]) - 1)] * per_packet
    return syn


def delayed(starts, syn):
    return {"start_times_s": [t + syn.get(i, 0.0) for i, t in enumerate(starts)], "start_interval": None}


def main():
    ap = cell_parser(__doc__)
    ap.add_argument("--handshake", action="store_true", help="our Vegas with ns-3's RTT input (docstring)")
    a = ap.parse_args()
    given = {"model": "dumbbell", "algorithm": "vegas", "duration": 20, "warmup": 5, "delay_ms": 20,
             "stack": "ns3", "delack_count": 1, **json.loads(a.params)}
    if a.loss_pct:
        given["loss_fwd_pct"] = a.loss_pct
    p = dumbbell.params_with_defaults(given)
    syn = syn_rtts(given, p) if a.handshake else {}
    logs = {}
    with traced(logs, syn):
        run = registry.run({**given, **(delayed([i * p["start_interval"] for i in range(int(p["flows"]))], syn)
                                        if syn else {}), "trace": True}, a.seed)
    ours = run["trace"]
    theirs = ns3_bases(p, a.seed, a.loss_pct, a.every)
    if syn:
        print("our SYN RTTs (ms):", " ".join(f"{1e3 * syn[i]:.2f}" for i in sorted(syn)))
    n = int(p["flows"])
    print("t_s  queue_ns3 queue_ours  " + "  ".join(f"base{i}_ns3 base{i}_ours" for i in range(n)))
    for t, q, bases in theirs:
        j = min(bisect.bisect_left(ours["t"], t - 1e-9), len(ours["t"]) - 1)
        row = [f"{t:5.2f}", f"{q:6.0f}", f"{ours['queue'][j]:6.0f}"]
        for i in range(n):
            log = logs.get(i, [])
            k = bisect.bisect_right([x[0] for x in log], t) - 1
            mine = f"{1e3 * log[k][1]:8.2f}" if k >= 0 and log[k][1] < float("inf") else "       -"
            row += [f"{1e3 * bases[i]:8.2f}" if bases[i] >= 0 else "       -", mine]
        print(" ".join(row))
    m = run["metrics"]
    print(f"ours: mean RTT {m['mean_rtt_ms']:.1f} ms, retransmissions {round(m['plr'] * m['sent'])}, "
          f"utilization {100 * m['utilization_warm']:.1f}%")


if __name__ == "__main__":
    main()
