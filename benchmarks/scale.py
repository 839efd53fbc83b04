"""Scale benchmark (issue 18): cost per event, events per packet and memory against link speed and time.

Scenario S1: one long-lived flow over the dumbbell model (simulator/scenarios/dumbbell.py) with its
defaults (ns3 stack: SACK, delayed ACK every 2nd packet): 10 ms one-way bottleneck delay, DropTail
buffer of 5 BDP (833 packets at 100 Mbit/s, 8,330 at 1 Gbit/s), 10 Gbit/s / 10 us access links.
Runs: 100 Mbit/s for 3 s and 300 s, 1 Gbit/s for 60 s, each with cubic and newreno; with --hour
also 1 Gbit/s for 3,600 s (s1-1g-3600s-<alg>); with --flows also 100 Mbit/s for 30 s with 10 and
100 flows starting together (s1-100m-30s-<n>flows-<alg>).  --flow-sweep runs instead the flow sweep of
issues 37/38: N long CUBIC flows (flows-<N>-cubic, N = 1, 10, 100, 1000, 10000) over a 1 Gbit/s dumbbell,
10 ms one way, a 1-BDP DropTail buffer (1,667 packets), 20 s, every flow started within the first 100 ms,
sampled every 0.5 s; its derived figures give each run's wall time per delivered packet against one flow's;
and openloop-85-cubic: the network model (simulator/scenarios/open_network.py) on the same dumbbell, CUBIC
flows arriving as a Poisson process at 85% of the bottleneck with web-search sizes (heavy-tailed:
simulator/workloads/websearch.cdf), 60 s simulated; flows_completed counts the flows that finished.
The flow sweep also runs share-<N>-cubic (N = 1, 10, 100, 1000, 10000): N flows each with the share of the
1,000-flow run (1 Mbit/s of bottleneck, 1.667 packets of buffer, rounded; so about 5 packets of window), for
20,000 / N s simulated (about as many packets as flows-<N>): the same work per packet at every N, so its cost
against share-1-cubic is what the number of flows alone costs (flows-<N> against flows-1 also counts that many
flows sharing 1 Gbit/s do more per packet: smaller windows, more losses, timeouts and events).

Each run is its own process (subprocess of this script), so its peak RSS (VmHWM of that process,
read at its end: interpreter, imports, run and summary) is its own.  loop_wall_s is the event
loop alone (FlowModel.run), not start-up, network building or the summary.
delivered_pkts: in-order data packets at the receiver (its rcv_nxt, summed over flows).
events: events the loop processed (EventQueue.popped).

    python benchmarks/scale.py [--repeat K] [--json] [--quick] [--hour] [--flows] [--flow-sweep]

With --json the table goes to stderr.  --repeat K keeps, per run, the best of K processes by loop wall time; --quick runs 0.2 s of
simulated time per case (checks the harness; figures meaningless).  Prints figures; not a test.
"""
import argparse
import json
import os
import platform
import subprocess
import sys
import time

# (name prefix, bottleneck Mbit/s, simulated s, buffer packets)
CASES = [("s1-100m-3s", 100.0, 3.0, 833), ("s1-100m-300s", 100.0, 300.0, 833),
         ("s1-1g-60s", 1000.0, 60.0, 8330)]
HOUR_CASE = ("s1-1g-3600s", 1000.0, 3600.0, 8330)     # --hour: memory of a long fast run
FLOW_COUNTS = (10, 100)                                 # --flows: S1 at 100 Mbit/s, 30 s, this many flows
ALGORITHMS = ("cubic", "newreno")
SWEEP_FLOWS = (1, 10, 100, 1000, 10000)                # --flow-sweep: flows-<N>-cubic
SWEEP_MBPS, SWEEP_S, SWEEP_BUFFER, SWEEP_START_S, SWEEP_SAMPLE_S = 1000.0, 20.0, 1667, 0.1, 0.5
SHARE_FLOWS = 1000                                      # share-<N>-cubic: each flow has the share it has in flows-1000
OPENLOOP = ("openloop-85-cubic", 0.85, 60.0)            # --flow-sweep: name, offered load, simulated s
QUICK_S = 0.2
KEYS = ("name", "algorithm", "mbps", "sim_s", "loop_wall_s", "delivered_pkts", "events", "peak_rss_mb")
OPENLOOP_KEYS = ("load", "flows_completed", "flows_arrived", "peak_active_flows")


def params(alg, mbps, sim_s, buffer_pkts, flows=1, sweep=False):
    """S1's dumbbell parameters (everything else the model's defaults; access links 10 Gbit/s, or 100x a faster
    bottleneck); with more than one flow all start at 0 s, or in the flow sweep one every 100 ms / flows, sampled
    every 0.5 s."""
    starts = {"start_interval": SWEEP_START_S / flows, "sample_interval": SWEEP_SAMPLE_S} if sweep else \
        {"start_interval": 0.0} if flows > 1 else {}
    return {"model": "dumbbell", "algorithm": alg, "flows": flows, "bottleneck_mbps": mbps,
            "delay_ms": 10.0, "buffer_pkts": buffer_pkts, "access_gbps": max(10.0, mbps / 100),
            "access_delay_ms": 0.01, "duration": sim_s, "warmup": 0.0, **starts}


def peak_rss_mb():
    """This process's peak resident set (VmHWM), MB (10^6 bytes)."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024 / 1e6
    import resource                                          # not Linux: ru_maxrss in KiB
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 / 1e6


def timed_run(module, name, run_params):
    """simulator.run(run_params) with the model class `module.name` (the scenario builds it by that name)
    timing its event loop alone: (its output, {"wall": s, "cpu": s})."""
    import simulator
    loop = {}

    class Timed(getattr(module, name)):
        def run(self):
            t0, c0 = time.perf_counter(), time.process_time()
            loop["out"] = super().run()
            loop["wall"], loop["cpu"] = time.perf_counter() - t0, time.process_time() - c0
            return loop["out"]

    setattr(module, name, Timed)
    simulator.run(run_params, 1)
    return loop.pop("out"), loop


def child(name, alg, mbps, sim_s, buffer_pkts, flows=1, sweep=False):
    """One run in this process: time FlowModel.run alone; print the run's record as JSON."""
    import simulator
    import simulator.models.flow_model as fm
    out, loop = timed_run(fm, "FlowModel", params(alg, mbps, sim_s, buffer_pkts, flows, sweep))
    rec = {"name": name, "algorithm": alg, "mbps": mbps, "sim_s": sim_s,
           "loop_wall_s": loop["wall"], "loop_cpu_s": loop["cpu"],
           "delivered_pkts": int(sum(f["delivered"] for f in out["flows"])),
           "events": int(out["events_processed"])}
    del out
    rec["peak_rss_mb"] = peak_rss_mb()
    rec["simulator"] = os.path.dirname(os.path.dirname(os.path.abspath(simulator.__file__)))
    print(json.dumps(rec))


def openloop_params(load, sim_s):
    """The flow sweep's dumbbell as a study of the network model, with one class of arriving web-search flows."""
    access = {"mbps": 10000, "delay_ms": 0.01, "buffer_pkts": 1 << 20}
    return {"model": "network", "algorithm": "cubic", "stack": "ns3", "hosts": ["s", "d"], "routers": ["R1", "R2"],
            "links": [{"between": ["s", "R1"], **access}, {"between": ["R2", "d"], **access},
                      {"between": ["R1", "R2"], "mbps": SWEEP_MBPS, "delay_ms": 10.0, "buffer_pkts": SWEEP_BUFFER}],
            "flow_classes": [{"name": "web", "from": "s", "to": "d", "workload": "poisson"}],
            "load": load, "sizes": "websearch", "monitor": ["R1", "R2"], "duration": sim_s, "warmup": 0.0,
            "sample_interval": SWEEP_SAMPLE_S}


def openloop_child(name, load, sim_s):
    """The open-loop run in this process, its loop timed alone, printed as JSON."""
    import simulator
    import simulator.models.openloop_model as om
    out, loop = timed_run(om, "OpenLoopModel", openloop_params(load, sim_s))
    rec = {"name": name, "algorithm": "cubic", "mbps": SWEEP_MBPS, "sim_s": sim_s, "load": load,
           "loop_wall_s": loop["wall"], "loop_cpu_s": loop["cpu"],
           "delivered_pkts": int(out["done"][:, 1].sum() + out["running"][:, 3].sum()),
           "events": int(out["events_processed"]), "flows_completed": int(len(out["done"])),
           "flows_arrived": out["arrived"], "peak_active_flows": out["peak_active"]}
    rec["peak_rss_mb"] = peak_rss_mb()
    rec["simulator"] = os.path.dirname(os.path.dirname(os.path.abspath(simulator.__file__)))
    print(json.dumps(rec))


def run_in_process(name, alg, mbps, sim_s, buffer_pkts, flows=1, sweep=False):
    cmd = [sys.executable, os.path.abspath(__file__), "--child", name, alg, repr(mbps), repr(sim_s),
           str(buffer_pkts), str(flows), str(int(sweep))]
    return _child(cmd, name)


def _child(cmd, name):
    done = subprocess.run(cmd, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit(f"run {name} failed:\n{done.stderr}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def derived(runs):
    """Figures per run (the loop's CPU time: near its wall time unless other jobs took the CPU;
    events/s, events per delivered packet, delivered packets per wall s) and,
    per algorithm, events/s at 1 Gbit/s over 100 Mbit/s (300 s) and RSS growth 300 s minus 3 s."""
    by = {r["name"]: r for r in runs}
    per_run = {r["name"]: {"loop_cpu_s": r["loop_cpu_s"],
                           "events_per_s": r["events"] / r["loop_wall_s"],
                           "events_per_delivered": r["events"] / max(r["delivered_pkts"], 1),
                           "delivered_per_wall_s": r["delivered_pkts"] / r["loop_wall_s"]}
               for r in runs}
    per_alg = {}
    for alg in ALGORITHMS if "s1-1g-60s-cubic" in by else ():
        fast, slow = per_run[f"s1-1g-60s-{alg}"], per_run[f"s1-100m-300s-{alg}"]
        per_alg[alg] = {
            "events_per_s_ratio_1g_over_100m": fast["events_per_s"] / slow["events_per_s"],
            "rss_growth_300s_minus_3s_mb": (by[f"s1-100m-300s-{alg}"]["peak_rss_mb"]
                                            - by[f"s1-100m-3s-{alg}"]["peak_rss_mb"])}
    for family in ("flows", "share"):       # the flow sweeps: wall time per delivered packet against one flow's
        one = by.get(f"{family}-1-cubic")
        for r in runs if one else ():
            if r["name"].startswith(f"{family}-"):
                per_run[r["name"]]["cost_per_packet_vs_1_flow"] = (
                    r["loop_wall_s"] / max(r["delivered_pkts"], 1) / (one["loop_wall_s"] / max(one["delivered_pkts"], 1)))
    return {"per_run": per_run, "per_algorithm": per_alg}


def share_case(n):
    """share-<n>: n flows, each with the bottleneck rate and buffer it has among SHARE_FLOWS, for as many packets."""
    share = n / SHARE_FLOWS
    return (f"share-{n}", SWEEP_MBPS * share, SWEEP_S / share, max(1, round(SWEEP_BUFFER * share)), n, True)


def table(runs, d):
    lines = [f"{'run':<30}{'sim s':>7}{'loop s':>9}{'cpu s':>8}{'delivered':>13}{'events':>15}{'events/s':>13}"
             f"{'ev/pkt':>8}{'pkts/wall s':>13}{'RSS MB':>9}"]
    for r in runs:
        x = d["per_run"][r["name"]]
        lines.append(f"{r['name']:<30}{r['sim_s']:>7g}{r['loop_wall_s']:>9.3f}{r['loop_cpu_s']:>8.3f}{r['delivered_pkts']:>13,}"
                     f"{r['events']:>15,}{x['events_per_s']:>13,.0f}{x['events_per_delivered']:>8.2f}"
                     f"{x['delivered_per_wall_s']:>13,.0f}{r['peak_rss_mb']:>9.1f}")
    for r in runs:
        if "flows_completed" in r:
            lines.append(f"{r['name']}: {r['flows_completed']:,} of {r['flows_arrived']:,} arriving flows completed, "
                         f"at most {r['peak_active_flows']:,} at once")
    for r in runs:
        if "cost_per_packet_vs_1_flow" in d["per_run"][r["name"]]:
            lines.append(f"{r['name']}: wall time per delivered packet {d['per_run'][r['name']]['cost_per_packet_vs_1_flow']:.2f}x "
                         f"one flow's")
    for alg, x in d["per_algorithm"].items():
        lines.append(f"{alg}: events/s 1 Gbit/s over 100 Mbit/s (300 s) "
                     f"{x['events_per_s_ratio_1g_over_100m']:.3f}; peak RSS 300 s minus 3 s "
                     f"{x['rss_growth_300s_minus_3s_mb']:+.1f} MB")
    return "\n".join(lines)


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--openloop-child":
        openloop_child(sys.argv[2], float(sys.argv[3]), float(sys.argv[4]))
        return
    if len(sys.argv) > 1 and sys.argv[1] == "--child":
        name, alg, mbps, sim_s, buf, flows, sweep = sys.argv[2:9]
        child(name, alg, float(mbps), float(sim_s), int(buf), int(flows), sweep == "1")
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=1, help="best of this many processes per run (loop wall time)")
    ap.add_argument("--json", action="store_true", help="print one JSON object {runs: [...], derived: {...}}")
    ap.add_argument("--quick", action="store_true", help=f"{QUICK_S} s simulated per case (checks the harness)")
    ap.add_argument("--hour", action="store_true", help="also one hour at 1 Gbit/s per algorithm (about a "
                    "minute each): its peak RSS")
    ap.add_argument("--flows", action="store_true", help="also 100 Mbit/s for 30 s with "
                    f"{' and '.join(map(str, FLOW_COUNTS))} flows starting together (cost against flows)")
    ap.add_argument("--flow-sweep", action="store_true", help="only the flow sweep: flows-<N>-cubic, N = "
                    f"{', '.join(map(str, SWEEP_FLOWS))} (1 Gbit/s, 20 s, 1-BDP buffer), share-<N>-cubic (each flow "
                    f"with its share of flows-{SHARE_FLOWS}), and {OPENLOOP[0]} (60 s)")
    args = ap.parse_args()
    runs = []
    cases = [(*c, 1, False) for c in CASES + ([HOUR_CASE] if args.hour else [])]
    cases += [(f"s1-100m-30s-{n}flows", 100.0, 30.0, 833, n, False) for n in (FLOW_COUNTS if args.flows else ())]
    algs = {}
    if args.flow_sweep:
        cases = [(f"flows-{n}", SWEEP_MBPS, SWEEP_S, SWEEP_BUFFER, n, True) for n in SWEEP_FLOWS]
        cases += [share_case(n) for n in SWEEP_FLOWS]
        algs = ("cubic",)
    for prefix, mbps, sim_s, buf, flows, sweep in cases:
        for alg in algs or ALGORITHMS:
            name = f"{prefix}-{alg}"
            tries = [run_in_process(name, alg, mbps, QUICK_S if args.quick else sim_s, buf, flows, sweep)
                     for _ in range(max(1, args.repeat))]
            runs.append(min(tries, key=lambda r: r["loop_wall_s"]))
    if args.flow_sweep:
        name, load, sim_s = OPENLOOP
        cmd = [sys.executable, os.path.abspath(__file__), "--openloop-child", name, repr(load),
               repr(QUICK_S if args.quick else sim_s)]
        runs.append(min((_child(cmd, name) for _ in range(max(1, args.repeat))), key=lambda r: r["loop_wall_s"]))
    d = derived(runs)
    header = (f"S1 dumbbell, one flow unless named, best of {args.repeat} process(es) per run, simulator from "
              f"{runs[0]['simulator']}{' (QUICK: 0.2 s simulated per case)' if args.quick else ''}")
    if args.json:                                            # the table goes to stderr
        print(header + "\n" + table(runs, d), file=sys.stderr)
        print(json.dumps({"runs": [{k: r[k] for k in KEYS + OPENLOOP_KEYS if k in r} for r in runs], "derived": d,
                          "repeat": args.repeat, "quick": args.quick,
                          "python": platform.python_version(), "cpus": os.cpu_count(),
                          "simulator": runs[0]["simulator"]}, indent=1))
    else:
        print(header + "\n" + table(runs, d))


if __name__ == "__main__":
    main()
