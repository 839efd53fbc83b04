"""htsim against our simulator on one open-loop dumbbell workload: speed and flow completion times.

The workload: TCP flows arriving as a Poisson process that offers `--load` (a fraction) of a 1 Gbit/s
bottleneck (10 ms one way, FIFO DropTail of 1,667 packets: 1 BDP at a 20 ms RTT, 1500-byte packets),
sizes from a bounded Pareto (shape 1.2, mean 100 kB, cut at --max-bytes; the same ppf as
simulator/workloads SizeDistribution "pareto"), 60 s simulated.  The flows are written once to a trace
CSV (`start_s,size_bytes`, --trace) and both simulators run that same trace:
* htsim: benchmarks/htsim/main_openloop.cpp (our driver of htsim's TcpSrc/TcpSink, NewReno-like), built
  outside this repository against an htsim checkout; give the binary as --htsim-bin.  No htsim code, binary
  or build recipe is kept here.
* ours: run_ours() below, the open-loop model (simulator/models/openloop_model.pyx) with a trace class.
A flow of S bytes is ceil(S / --mss) packets of --packet wire bytes on both sides (defaults 1446 + 54 header
bytes = 1500).  The arrival rate follows from the mean packets per flow, as simulator/workloads arrival_rate.

Prints, side by side: delivered packets per wall second (the event loop's wall time), flows completed, and
FCT p50/p99 by size bucket (< 100 kB, 100 kB-1 MB, > 1 MB).  A benchmark aid: not a test, never run by CI.
    python benchmarks/htsim_openloop.py --htsim-bin /tmp/htsim-build/main_openloop \\
        [--duration 60] [--load 0.85] [--flows-max N] [--seed 1] [--trace FILE] [--json FILE] [--no-ours]
        [--htsim-opt ssthresh_pkts=1000000] [--htsim-opt iw_pkts=9]

--flow-sweep instead: htsim on the flow sweep of scale.py --flow-sweep, N long flows (N = --flows, default
1,10,100,1000,10000) on the same dumbbell, 20 s, started one every 100 ms / N, each too long to finish; per N
the best of --repeat runs by loop wall time, and (unless --no-ours) ours beside it, scale.py's own run
flows-<N>-cubic (`scale.py --child`, run in --ours-repo with its .venv if it has one: our compiled modules).
Prints per N: delivered (in-order) packets, loop wall s, delivered packets per wall s, and wall time per
delivered packet against one flow's; --json FILE ('-': stdout, the table to stderr) as one JSON object.
What differs: htsim's senders share one access link each way (ours: one per flow, as the dumbbell model), its
TcpSrc grows NewReno-like without SACK and its sink ACKs every packet; ours runs CUBIC (HyStart) with SACK and
delayed ACKs (the ns3 stack, scale.py's runs); 1500-byte packets and 40-byte ACKs there, 1502 and 66 here.
htsim's timers are a scan of every unfinished flow each -rto_scan_ms (10 ms): part of its cost at many flows.
    python benchmarks/htsim_openloop.py --htsim-bin /tmp/htsim-build/main_openloop --flow-sweep \\
        [--flows 1,10,100] [--repeat 3] [--no-ours] [--ours-repo DIR] [--json FILE]
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

RATE_MBPS, DELAY_MS, BUFFER_PKTS = 1000.0, 10.0, 1667
PACKET, MSS = 1500, 1446                  # wire bytes per data packet; payload bytes per packet
PARETO_MEAN, PARETO_SHAPE, MAX_BYTES = 100e3, 1.2, 1e9
GRID = 1 << 20                             # as simulator/workloads: midpoints for the mean packets per flow
# our side set as close to htsim's TCP as our SACK sender goes (htsim's settings: the helper's notes in the
# commit adding this file): NewReno growth counted per ACK, no delayed ACKs, a first flight of 11 packets (htsim:
# 10 plus one for its SYN-ACK), a SYN exchange whose RTT seeds the estimate and a lost SYN retried after 3 s,
# RTO from 3 s with a 250 ms minimum; htsim's ssthresh of 100 packets is lifted there instead
# (--htsim-opt ssthresh_pkts=1000000, the default below). What stays different: ours has SACK (RFC 6675
# recovery), htsim NewReno without SACK and go-back-N after a timeout; ACKs 66 bytes here, 40 there.
OUR_ALGORITHM = "newreno"
OUR_TCP = {"init_cwnd": 11.0, "delack_count": 1, "delack_timeout": 0.2, "rto_min": 0.25, "rto_initial": 3.0,
           "syn_timeout": 3.0}
ACK_BYTES = 66
ACCESS_BPS, ACCESS_DELAY_S = 10e9, 1e-5    # as the htsim driver's access links
BUCKETS = (("< 100 kB", 0.0, 100e3), ("100 kB-1 MB", 100e3, 1e6), ("> 1 MB", 1e6, math.inf))  # [low, high)
SWEEP_FLOWS, SWEEP_S, SWEEP_START_S = (1, 10, 100, 1000, 10000), 20.0, 0.1   # as scale.py --flow-sweep
LONG_BYTES = 10 ** 11                      # a flow that cannot finish: 20 s at 1 Gbit/s carry 2.5 GB
# The sweep keeps htsim's own ssthresh (100 packets): lifted, one flow's slow start overshoots the 1-BDP buffer by
# some 3,300 packets and htsim's NewReno, without SACK, repairs one loss per RTT: 8,632 in-order packets of 497,000
# sent in 20 s, so its cost per delivered packet would mean nothing.  With it, one flow grows by one packet per RTT
# from 100 (about a third of the bottleneck in 20 s, no loss); 10 flows and more fill it.
SWEEP_HTSIM_OPTS = ["ssthresh_pkts=100"]


def pareto_ppf(u, mean=PARETO_MEAN, shape=PARETO_SHAPE, cap=MAX_BYTES):
    """Bytes at cumulative fraction(s) u: Pareto of `mean` (uncapped) and tail index `shape`, cut at `cap`."""
    scale = mean * (shape - 1) / shape
    return np.maximum(np.minimum(scale / (1.0 - np.asarray(u, dtype=float)) ** (1.0 / shape), cap), 1.0)


def mean_packets(mss=MSS, **pareto):
    """Mean packets per flow (sizes rounded up to whole segments), over GRID midpoints of u."""
    u = (np.arange(GRID) + 0.5) / GRID
    return float(np.ceil(pareto_ppf(u, **pareto) / mss).mean())


def write_trace(path, duration, load, seed, flows_max=None, rate_mbps=RATE_MBPS, mss=MSS, packet=PACKET,
                **pareto):
    """Write `start_s,size_bytes` of Poisson arrivals offering `load` of the bottleneck in wire bits, over
    [0, duration), at most flows_max flows; returns (flows, arrival rate /s, offered load of the trace)."""
    rate = load * rate_mbps * 1e6 / (mean_packets(mss, **pareto) * packet * 8.0)
    rng = np.random.default_rng(seed)
    n = int(rate * duration + 10 * math.sqrt(rate * duration) + 100)          # enough draws, then cut
    starts = np.cumsum(rng.exponential(1.0 / rate, n))
    sizes = np.ceil(pareto_ppf(rng.random(n), **pareto)).astype(np.int64)
    keep = starts < duration
    starts, sizes = starts[keep], sizes[keep]
    if flows_max is not None:
        starts, sizes = starts[:flows_max], sizes[:flows_max]
    with open(path, "w") as f:
        f.write("start_s,size_bytes\n")
        f.writelines(f"{s:.9f},{b}\n" for s, b in zip(starts, sizes))
    offered = float(np.ceil(sizes / mss).sum()) * packet * 8 / (rate_mbps * 1e6 * duration)
    return len(starts), rate, offered


def run_htsim(trace_csv, htsim_bin, duration, rate_mbps=RATE_MBPS, delay_ms=DELAY_MS,
              buffer_pkts=BUFFER_PKTS, mss=MSS, packet=PACKET, extra=()):
    """Run the htsim driver on the trace; its result as run_ours promises (see there), with
    per-flow fct_from_synack_s too."""
    cmd = [str(htsim_bin), str(trace_csv), "-duration", repr(duration), "-rate_mbps", repr(rate_mbps),
           "-delay_ms", repr(delay_ms), "-buffer_pkts", str(buffer_pkts), "-mss", str(mss), "-pkt", str(packet),
           *extra]
    t0 = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {r.returncode}: {r.stderr.strip()[-2000:]}")
    rows, summary = [], {}
    for line in r.stdout.splitlines():
        if line.startswith("flow "):
            _, _, start, size, _, fct, fct_syn = line.split()
            rows.append((float(start), float(size), float(fct), float(fct_syn)))
        elif line.startswith("summary "):
            summary = {k: float(v) for k, v in (kv.split("=") for kv in line.split()[1:])}
    if not summary:
        raise RuntimeError(f"{' '.join(cmd)} printed no summary line")
    flows = np.array(rows, dtype=float).reshape(-1, 4)
    return {"flows": flows[:, :3], "fct_from_synack_s": flows[:, 3], "process_wall_s": wall,
            "command": " ".join(cmd), **{k: (int(v) if v.is_integer() else v) for k, v in summary.items()}}


def run_ours(trace_csv, duration, rate_mbps=RATE_MBPS, delay_ms=DELAY_MS, buffer_pkts=BUFFER_PKTS,
             mss=MSS, packet=PACKET):
    """Our simulator on the same trace and dumbbell.  Returns a dict with at least:
    flows: array (n, 3) of (start_s, size_bytes, fct_s) of the flows completed within `duration`;
    flows_started, flows_completed: counts; delivered_pkts: in-order data packets at the receivers;
    loop_wall_s: wall seconds of the event loop alone; optionally process_wall_s, events,
    bottleneck_drops, peak_rss_mb (as the htsim driver reports)."""
    from simulator.models.openloop_config import FlowClass, OpenLoopConfig
    from simulator.models.openloop_model import OpenLoopModel
    from simulator.net.topology import dumbbell
    from simulator.tcp.cc import catalogue

    trace = np.loadtxt(trace_csv, delimiter=",", skiprows=1, ndmin=2)
    topo = dumbbell(1, rate_mbps * 1e6, delay_ms / 1e3, buffer_pkts, ACCESS_BPS, ACCESS_DELAY_S)

    def controller(serial):
        return catalogue.build(OUR_ALGORITHM, catalogue.Stack("ns3", sack=True))[0]

    cls = FlowClass("trace", "s0", "d0", controller, "trace", mss=mss, trace=[(t, b) for t, b in trace])
    config = OpenLoopConfig(topo, [cls], ("R1", "R2"), duration=duration, sample_interval=1.0, data_size=packet,
                            ack_size=ACK_BYTES, tcp=dict(OUR_TCP))
    model = OpenLoopModel("htsim-compare", config)
    t0 = time.perf_counter()
    out = model.run()
    wall = time.perf_counter() - t0
    done = out["done"]
    starts = done[:, 2]
    size_at = dict(zip(map(float, trace[:, 0]), trace[:, 1]))          # a finished flow's bytes by its start
    sizes = np.array([size_at[s] for s in starts]) if len(done) else done[:, 1]
    flows = np.column_stack([starts, sizes, done[:, 3]])
    return {"flows": flows, "flows_started": out["arrived"], "flows_completed": len(done),
            "delivered_pkts": int(done[:, 1].sum() + out["running"][:, 3].sum()), "loop_wall_s": wall,
            "events": int(out["events_processed"]), "bottleneck_drops": int(out["monitor"]["drops"]),
            "peak_rss_mb": peak_rss_mb()}


def peak_rss_mb():
    with open("/proc/self/status") as f:
        return next(int(l.split()[1]) * 1024 / 1e6 for l in f if l.startswith("VmHWM:"))


def summarize(res):
    """The table's figures of one run's result."""
    flows = res["flows"]
    out = {"flows started": res.get("flows_started"), "flows completed": res.get("flows_completed", len(flows)),
           "delivered data pkts": res.get("delivered_pkts"), "bottleneck drops": res.get("bottleneck_drops"),
           "events": res.get("events"), "loop wall s": res.get("loop_wall_s"),
           "process wall s": res.get("process_wall_s"), "peak RSS MB": res.get("peak_rss_mb")}
    if res.get("delivered_pkts") is not None and res.get("loop_wall_s"):
        out["delivered pkts / loop wall s"] = res["delivered_pkts"] / res["loop_wall_s"]
    if res.get("delivered_pkts") is not None and res.get("process_wall_s"):
        out["delivered pkts / process wall s"] = res["delivered_pkts"] / res["process_wall_s"]
    for name, lo, hi in BUCKETS:
        fct = flows[(flows[:, 1] >= lo) & (flows[:, 1] < hi), 2] * 1e3
        out[f"{name}: flows completed"] = len(fct)
        out[f"{name}: FCT p50 ms"] = float(np.percentile(fct, 50)) if len(fct) else None
        out[f"{name}: FCT p99 ms"] = float(np.percentile(fct, 99)) if len(fct) else None
    return out


def fmt(v):
    if v is None:
        return "-"
    if isinstance(v, float) and not v.is_integer():
        return f"{v:,.3f}" if abs(v) < 1000 else f"{v:,.0f}"
    return f"{int(v):,}"


def table(columns):
    """Rows of figures, one column per simulator ({name: summary or a note string})."""
    keys = next((list(s) for s in columns.values() if isinstance(s, dict)), [])
    width = max(map(len, keys), default=10) + 2
    lines = [f"{'':<{width}}" + "".join(f"{name:>20}" for name in columns)]
    for k in keys:
        lines.append(f"{k:<{width}}" + "".join(
            f"{fmt(s.get(k)) if isinstance(s, dict) else '(n/a)':>20}" for s in columns.values()))
    notes = [f"{name}: {s}" for name, s in columns.items() if not isinstance(s, dict)]
    return "\n".join(lines + notes)


def write_long_flows(path, flows, start_s=SWEEP_START_S, size=LONG_BYTES):
    """A trace of `flows` flows too long to finish, one started every start_s / flows (as our flow sweep)."""
    with open(path, "w") as f:
        f.write("start_s,size_bytes\n")
        f.writelines(f"{i * start_s / flows:.9f},{size}\n" for i in range(flows))


def best_of(run, repeat):
    """The run (a callable) with the least loop wall time of `repeat`: other jobs on the machine only slow it."""
    return min((run() for _ in range(max(1, repeat))), key=lambda r: r["loop_wall_s"])


def sweep_htsim(n, htsim_bin, duration, repeat, extra, mss=MSS, packet=PACKET):
    """htsim with n long flows: its summary (the driver's loop_wall_s is its event loop alone, flow set-up included)."""
    with tempfile.TemporaryDirectory() as tmp:          # not a fixed /tmp name: others may run this script too
        trace = Path(tmp) / f"flows-{n}.csv"
        write_long_flows(trace, n)
        r = best_of(lambda: run_htsim(trace, htsim_bin, duration, mss=mss, packet=packet, extra=extra), repeat)
    return {k: r[k] for k in ("delivered_pkts", "loop_wall_s", "events", "bottleneck_drops", "sent_data_pkts",
                              "peak_rss_mb", "command")}


def sweep_ours(n, repo, duration, repeat):
    """Our flows-<n>-cubic as scale.py --flow-sweep runs it (its child process: loop timed alone), in `repo`."""
    python = repo / ".venv" / "bin" / "python"
    cmd = [str(python if python.is_file() else sys.executable), str(repo / "benchmarks" / "scale.py"), "--child",
           f"flows-{n}-cubic", "cubic", repr(RATE_MBPS), repr(duration), str(BUFFER_PKTS), str(n), "1"]
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}

    def once():
        r = subprocess.run(cmd, cwd=repo, env=env, capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)} exited {r.returncode}: {r.stderr.strip()[-2000:]}")
        return json.loads(r.stdout.strip().splitlines()[-1])
    return {**best_of(once, repeat), "command": " ".join(cmd)}


def with_costs(runs):
    """Per run, delivered packets per loop wall s and wall time per delivered packet against the 1-flow run's."""
    per_pkt = {n: r["loop_wall_s"] / max(r["delivered_pkts"], 1) for n, r in runs.items()}
    return {n: {**r, "pkts_per_wall_s": r["delivered_pkts"] / r["loop_wall_s"],
                "cost_vs_1_flow": per_pkt[n] / per_pkt[1] if 1 in per_pkt else None} for n, r in runs.items()}


def sweep_table(sims):
    """One row per flow count, four columns per simulator ({name: {flows: run}})."""
    cols = (("delivered", "delivered_pkts", "{:,}"), ("loop s", "loop_wall_s", "{:.3f}"),
            ("pkts/wall s", "pkts_per_wall_s", "{:,.0f}"), ("cost vs 1", "cost_vs_1_flow", "{:.2f}x"))
    lines = [(f"{'':>7}" + "".join(f"{name + ':':<52}" for name in sims)).rstrip(),
             f"{'flows':>7}" + "".join(f"{h:>13}" for _ in sims for h, _, _ in cols)]
    for n in next(iter(sims.values())):
        lines.append(f"{n:>7,}" + "".join(f"{fmt_or_dash(f, runs.get(n, {}).get(k)):>13}"
                                          for runs in sims.values() for _, k, f in cols))
    return "\n".join(lines)


def fmt_or_dash(f, v):
    return "-" if v is None else f.format(v)


def flow_sweep(a, extra):
    """--flow-sweep: htsim (and ours) per flow count; the table, and the JSON object if asked."""
    flows = [int(x) for x in a.flows.split(",")]
    duration = a.duration or SWEEP_S
    sims = {"htsim": {}}
    for n in flows:
        sims["htsim"][n] = sweep_htsim(n, a.htsim_bin, duration, a.repeat, extra, a.mss, a.packet)
        if not a.no_ours:
            sims.setdefault("ours", {})[n] = sweep_ours(n, Path(a.ours_repo).resolve(), duration, a.repeat)
    sims = {name: with_costs(runs) for name, runs in sims.items()}
    head = (f"flow sweep: N long flows, dumbbell {RATE_MBPS:g} Mbit/s, {DELAY_MS:g} ms one way, {BUFFER_PKTS} packets "
            f"DropTail, {duration:g} s, started within {SWEEP_START_S:g} s; best of {a.repeat}; htsim options "
            f"{' '.join(extra)}; ours: scale.py flows-<N>-cubic")
    out = sys.stderr if a.json == "-" else sys.stdout
    print(head + "\n" + sweep_table(sims), file=out)
    if a.json:
        dump = json.dumps({"duration": duration, "repeat": a.repeat, "htsim_options": extra,
                           "runs": [{"flows": n, **{name: runs[n] for name, runs in sims.items()}} for n in flows]},
                          indent=1)
        if a.json == "-":
            print(dump)
        else:
            Path(a.json).write_text(dump)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--htsim-bin", required=True, help="the driver built from benchmarks/htsim/main_openloop.cpp")
    ap.add_argument("--duration", type=float, default=None, help="simulated seconds (arrivals and the run; "
                    f"default 60, with --flow-sweep {SWEEP_S:g})")
    ap.add_argument("--load", type=float, default=0.85, help="offered load, fraction of the bottleneck")
    ap.add_argument("--flows-max", type=int, default=None, help="at most this many flows in the trace")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--max-bytes", type=float, default=MAX_BYTES, help="the Pareto's cut")
    ap.add_argument("--mss", type=int, default=MSS, help="payload bytes per packet (flow packets: ceil(S/mss))")
    ap.add_argument("--packet", type=int, default=PACKET, help="wire bytes per data packet")
    ap.add_argument("--trace", default="/tmp/htsim_openloop_trace.csv", help="where the trace CSV is written")
    ap.add_argument("--json", help="write both runs' figures (and htsim's per-flow FCTs) to this file")
    ap.add_argument("--no-ours", action="store_true", help="run htsim alone")
    ap.add_argument("--htsim-opt", action="append", default=[], metavar="KEY=VALUE",
                    help="an extra driver option, e.g. ssthresh_pkts=1000000 or iw_pkts=9 (repeatable; after the "
                    "defaults ssthresh_pkts=1000000, with --flow-sweep ssthresh_pkts=100)")
    ap.add_argument("--flow-sweep", action="store_true", help="the flow sweep instead (see above)")
    ap.add_argument("--flows", default=",".join(map(str, SWEEP_FLOWS)), help="--flow-sweep: the flow counts")
    ap.add_argument("--repeat", type=int, default=1, help="--flow-sweep: best of this many runs per flow count")
    ap.add_argument("--ours-repo", default=str(Path(__file__).resolve().parents[1]),
                    help="--flow-sweep: the checkout whose scale.py runs ours (its .venv/bin/python if any)")
    a = ap.parse_args()
    if not Path(a.htsim_bin).is_file():
        sys.exit(f"--htsim-bin {a.htsim_bin}: no such file (build benchmarks/htsim/main_openloop.cpp against htsim)")
    # a later driver option wins, so the defaults go first
    opts = (SWEEP_HTSIM_OPTS if a.flow_sweep else ["ssthresh_pkts=1000000"]) + a.htsim_opt
    extra = [x for opt in opts for x in ("-" + opt.lstrip("-")).split("=", 1)]
    if a.flow_sweep:
        return flow_sweep(a, extra)
    a.duration = a.duration or 60.0
    n, rate, offered = write_trace(a.trace, a.duration, a.load, a.seed, a.flows_max, mss=a.mss, packet=a.packet,
                                   cap=a.max_bytes)
    print(f"trace {a.trace}: {n:,} flows, {rate:,.1f} arrivals/s, offered load {offered:.3f} (target {a.load:g}) "
          f"(mean {mean_packets(a.mss, cap=a.max_bytes):.2f} packets/flow), seed {a.seed}")
    print(f"dumbbell {RATE_MBPS:g} Mbit/s, {DELAY_MS:g} ms one way, {BUFFER_PKTS} packets DropTail, "
          f"{a.packet} B packets carrying {a.mss} B, {a.duration:g} s simulated\n")
    kw = dict(duration=a.duration, mss=a.mss, packet=a.packet)
    results = {"htsim": run_htsim(a.trace, a.htsim_bin, extra=extra, **kw)}
    columns = {"htsim": summarize(results["htsim"])}
    if not a.no_ours:
        try:
            results["ours"] = run_ours(a.trace, **kw)
            columns["ours"] = summarize(results["ours"])
        except NotImplementedError as e:
            columns["ours"] = f"not run: {e}"
    print(table(columns))
    if a.json:
        dump = {"trace": a.trace, "flows": n, "arrival_rate": rate, "offered_load": offered, "args": vars(a),
                "columns": columns, "htsim_command": results["htsim"]["command"],
                "htsim_flows": results["htsim"]["flows"].tolist()}
        Path(a.json).write_text(json.dumps(dump, indent=1))


if __name__ == "__main__":
    main()
