"""Flow 0's congestion window over time in ns-3 3.44 and in our dumbbell, for one validation cell:
evidence for the chapter "Agreement with ns-3" (needs the `ns3` extra; one ns-3 process, ~15 s).

    python scripts/ns3_cwnd.py '{"algorithm": "cubic", "bottleneck_mbps": 100, "buffer_pkts": 86}' --every 0.5

Prints t, cwnd (packets) in ns-3 and ours, every --every s up to the cell's duration.
"""
import argparse
import json

from simulator import registry
from simulator.scenarios import dumbbell
from simulator.validation import ns3_dumbbell as nd

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


def ns3_cwnd(p, seed, loss):
    from ns import ns

    ns.cppyy.cppdef(nd.PROBE_CPP)
    ns.cppyy.cppdef(CWND_CPP)
    nd.configure_tcp(ns, p["algorithm"], seed)
    senders, receivers, rx_addr = nd.build(ns, p, dumbbell.buffer_packets(p), loss)
    nd.applications(ns, p, senders, receivers, rx_addr)
    ns.Simulator.Schedule(ns.NanoSeconds(1), ns.cppyy.gbl.nsval.WatchCwnd, senders.Get(0).GetId())
    ns.Simulator.Stop(ns.Seconds(float(p["duration"])))
    ns.Simulator.Run()
    return list(ns.cppyy.gbl.nsval.cwnd_t), list(ns.cppyy.gbl.nsval.cwnd_v)


def at(ts, vs, t):
    """The value last set at or before t (0 before the first)."""
    import bisect

    i = bisect.bisect_right(ts, t) - 1
    return vs[i] if i >= 0 else 0.0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("params", help="the cell's dumbbell parameters, JSON")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--loss-pct", type=float, default=0.0)
    ap.add_argument("--every", type=float, default=0.5, help="print interval, s")
    a = ap.parse_args()
    given = {"model": "dumbbell", "duration": 20, "warmup": 5, "delay_ms": 20, **json.loads(a.params)}
    p = dumbbell.params_with_defaults(given)
    ts, vs = ns3_cwnd(p, a.seed, a.loss_pct)
    ours = registry.run({**given, "trace": True}, a.seed)["trace"]
    print("t_s  ns3_cwnd_pkts  ours_cwnd_pkts")
    k = 1
    while k * a.every <= p["duration"] + 1e-9:
        t = k * a.every
        j = min(range(len(ours["t"])), key=lambda i: abs(ours["t"][i] - t))
        print(f"{t:5.2f} {at(ts, vs, t):9.1f} {ours['cwnd_0'][j]:9.1f}")
        k += 1


if __name__ == "__main__":
    main()
