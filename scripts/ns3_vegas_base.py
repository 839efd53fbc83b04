"""Every flow's Vegas base RTT over time in ns-3 3.44 and in our dumbbell, with the bottleneck queue, for one
validation cell: evidence for the chapter "Agreement with ns-3", cause [late start] (needs the `ns3` extra; one
ns-3 process, ~10 s at 10 Mbit/s).

    python scripts/ns3_vegas_base.py '{"bottleneck_mbps": 10, "buffer_pkts": 69, "flows": 5}' --every 0.5

Prints t, the queue (packets) and each flow's base RTT (ms; "-" before its first) in ns-3 and ours, then our
run's mean RTT and retransmissions. Both sides open each connection with a SYN exchange whose RTT seeds the
srtt Vegas reads (our `stack: ns3`, detail `handshake`); '{"handshake": "none"}' in the cell's JSON runs ours
with data from the start time instead.
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
    """Our Vegas, logging (time, base RTT) at each change."""

    def setup(self, log):
        self.log = log

    def pkts_acked(self, s, rs):
        Vegas.pkts_acked(self, s, rs)
        if not self.log or self.log[-1][1] != self.base_rtt:
            self.log.append((s.now, self.base_rtt))


@contextmanager
def traced(logs):
    """Every Vegas flow built inside is a TracedVegas logging into logs[flow]."""
    build = catalogue.build

    def traced_build(name, stack):
        cc, rec = build(name, stack)
        t = TracedVegas(cc.alpha, cc.beta, cc.gamma, cc.use_srtt, cc.ns3_ssthresh)
        t.ack_counting = cc.ack_counting
        t.setup(logs.setdefault(stack.flow, []))
        return t, rec

    catalogue.build = traced_build
    try:
        yield
    finally:
        catalogue.build = build


def main():
    ap = cell_parser(__doc__)
    a = ap.parse_args()
    given = {"model": "dumbbell", "algorithm": "vegas", "duration": 20, "warmup": 5, "delay_ms": 20,
             "stack": "ns3", "delack_count": 1, **json.loads(a.params)}
    if a.loss_pct:
        given["loss_fwd_pct"] = a.loss_pct
    p = dumbbell.params_with_defaults(given)
    logs = {}
    with traced(logs):
        run = registry.run({**given, "trace": True}, a.seed)
    ours = run["trace"]
    theirs = ns3_bases(p, a.seed, a.loss_pct, a.every)
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
          f"utilization {100 * m['utilization_warm_in_order']:.1f}% (in order, as ns-3's)")


if __name__ == "__main__":
    main()
