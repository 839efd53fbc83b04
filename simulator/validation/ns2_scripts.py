"""The NS-2 chapter's grid points as NS-2 2.35 scripts, run by `ns`, measured as our ns2 model measures itself.

For every grid point and seed of the chapter's studies (config/studies/ns2/ns2_*.yaml, model ns2) this writes a
Tcl script with the same topology, links, queues, packet size, agents, window, start times and duration as
our run (simulator/scenarios/ns2_wired.py builds both from the same parameters):

* nodes and duplex links from `ns2_wired.build_topology` (every link: the scenario's bandwidth and delay, a
  DropTail queue of `buffer_pkts` packets, NS-2's `limit_`, which like ours counts waiting packets; or
  NS-2's `Queue/DRR` for `queue: fq`, whose buffer is bytes: `buffer_pkts` full-size packets, quantum one
  packet, a bucket per flow); NS-2 routes them by hop count, ours by delay then hops: the same paths here;
* one `AGENTS[algorithm]` per flow (NS-2's agents with every default as shipped: syn_, windowInit_, tcpTick_,
  singledup_ ...), packetSize_ = packet_bytes - 40 (NS-2 adds its 40-byte TCP/IP header), window_ =
  `window` (0: no cap, window_ above any reachable window), a TCPSink (an ACK per packet), an FTP;
* each FTP starts at the time our run of the same seed draws (ns2_wired.start_times), so a seed is the same
  start phase on both sides and NS-2, otherwise deterministic, gives one value per seed;
* a sampler every `sample_interval` s prints each agent's cwnd_, and `trace-all` logs every packet; `measure`
  turns both into the flow model's sample arrays and the metrics come from ns2_wired.summarize itself, so
  both sides' metrics share one definition (delivered, sent and dropped data packets, one-way latency from
  the source's enqueue to the sink's receipt, per flow; timeouts are the agent's nrexmit_).

BBR (and every algorithm without an NS-2 agent) has no NS-2 value: `agent` returns None.
"""
from __future__ import annotations

import hashlib
import io
import shutil
import subprocess
import tempfile
import warnings
from itertools import pairwise
from pathlib import Path

import numpy as np
import pandas as pd

from simulator import registry
from simulator import paper_catalogue
from simulator.scenarios import ns2_wired
from simulator.study import load_study

# our algorithm -> NS-2 2.35's one-way agent; Tahoe is the base agent
AGENTS = {"tahoe": "Agent/TCP", "reno": "Agent/TCP/Reno", "newreno": "Agent/TCP/Newreno",
          "vegas": "Agent/TCP/Vegas"}
RECORDS = "ns2_sim"          # the reference folder of NS-2 2.35's records (catalogue.yaml `own_tool_records`)
# the studies NS-2 runs: those of the paper whose own simulator NS-2 is (its catalogue.yaml entry)
STUDIES = tuple(s for p in paper_catalogue.load().papers.values() if p.own_tool_records == RECORDS for s in p.studies)
NS = "ns"
SCRIPT_FILE, TRACE_FILE = "run.tcl", "out.tr"     # in a fresh folder: the command is `ns run.tcl`
NO_CAP = 1_000_000          # window_ for `window: 0`: above any window these links can hold
# study keys whose values the scripts render; any other key a study sets must be at its default (check_point)
RENDERED = {"model", "algorithm", "topology", "flows", "bandwidth_mbps", "delay_ms", "queue", "buffer_pkts",
            "packet_bytes", "duration", "window", "start_spread", "sample_interval", "warmup", "trace"}


def agent(algorithm: str) -> str | None:
    """NS-2's agent for `algorithm`, or None when NS-2 2.35 has none (BBR, CUBIC, ...)."""
    return AGENTS.get(algorithm)


def study_runs(study_file, seeds: int | None = None):
    """(point path, full parameters, seed) of every run of the study in `study_file` with an NS-2 agent."""
    study = load_study(study_file)
    out = []
    for point in study.points():
        p = registry.resolve(point.params)
        if agent(p["algorithm"]) is None:
            continue
        check_point(p)
        for seed in range(1, (seeds or study.seeds or 1) + 1):
            out.append((point.path, p, seed))
    return study, out


def check_point(p: dict) -> None:
    """Refuse a point that sets something the scripts do not render (a stack detail, impairments...)."""
    defaults = ns2_wired.DEFAULTS
    extra = sorted(k for k, v in p.items() if k not in RENDERED and v != defaults.get(k))
    if extra:
        raise ValueError(f"NS-2 scripts render {', '.join(sorted(RENDERED))}; this point also sets "
                         f"{', '.join(extra)}")
    if p["queue_on"] != "all":
        raise ValueError("NS-2 scripts put the queue discipline on every link (queue_on: all)")


def start_times(p: dict, seed: int) -> list:
    """The flows' start times of our run of `p` with `seed` (the same draws ns2_wired.run makes)."""
    return ns2_wired.start_times(p, registry.key(p, seed))


def _num(x: float) -> str:
    return repr(float(x))


def script(p: dict, starts: list, trace_file: str) -> str:
    """The Tcl script of one run of `p` whose flows start at `starts`, logging packets to `trace_file`."""
    topo, ends, _ = ns2_wired.build_topology(p)
    payload = int(p["packet_bytes"]) - ns2_wired.HEADER_BYTES
    window = int(p["window"]) or NO_CAP
    qtype = "DropTail" if p["queue"] == "droptail" else "DRR"
    lines = ["set ns [new Simulator]",
             f"Queue set limit_ {int(p['buffer_pkts'])}",
             # DRR's buffer is bytes: buffer_pkts full packets; quantum one packet; a bucket per flow
             f"Queue/DRR set blimit_ {int(p['buffer_pkts']) * int(p['packet_bytes'])}",
             f"Queue/DRR set quantum_ {int(p['packet_bytes'])}",
             f"Queue/DRR set buckets_ {4 * len(ends) + 16}",
             f"set tf [open {{{trace_file}}} w]"]
    lines += [f"set n({n}) [$ns node]" for n in topo.nodes]
    for link in topo.links:
        lines.append(f"$ns duplex-link $n({link.a}) $n({link.b}) {_num(link.rate_bps / 1e6)}Mb "
                     f"{_num(link.delay * 1e3)}ms {qtype}")
    # packets are logged on the links data crosses (their ACK directions carry only ACKs): half of trace-all
    hops = dict.fromkeys((u, v) for src, dst in ends for u, v in pairwise(topo.path(src, dst)))
    lines += [f"$ns trace-queue $n({u}) $n({v}) $tf" for u, v in hops]
    cls = agent(p["algorithm"])
    for i, ((src, dst), t0) in enumerate(zip(ends, starts)):
        lines += [f"set tcp({i}) [new {cls}]",
                  f"$tcp({i}) set packetSize_ {payload}",
                  f"$tcp({i}) set window_ {window}",
                  f"$tcp({i}) set fid_ {i}",
                  f"$ns attach-agent $n({src}) $tcp({i})",
                  f"set sink({i}) [new Agent/TCPSink]",
                  f"$ns attach-agent $n({dst}) $sink({i})",
                  f"$ns connect $tcp({i}) $sink({i})",
                  f"set ftp({i}) [new Application/FTP]",
                  f"$ftp({i}) attach-agent $tcp({i})",
                  f"$ns at {_num(t0)} \"$ftp({i}) start\""]
    n, dt, end = len(ends), float(p["sample_interval"]), float(p["duration"])
    # the sampler prints at k * dt as ours samples (k = 0, 1, ...), the counters at the end
    lines += [f"proc sample {{k}} {{",
              "  global ns tcp",
              f"  set now [expr {{$k * {_num(dt)}}}]",
              "  set row \"S $now\"",
              f"  for {{set i 0}} {{$i < {n}}} {{incr i}} {{ append row \" [$tcp($i) set cwnd_]\" }}",
              "  puts $row",
              f"  if {{[expr {{($k + 1) * {_num(dt)}}}] <= {_num(end)}}} {{",
              f"    $ns at [expr {{($k + 1) * {_num(dt)}}}] \"sample [expr {{$k + 1}}]\" }}",
              "}",
              "$ns at 0.0 \"sample 0\"",
              "proc finish {} {",
              "  global ns tcp tf",
              f"  for {{set i 0}} {{$i < {n}}} {{incr i}} {{",
              "    puts \"F $i [$tcp($i) set ndatapack_] [$tcp($i) set nrexmitpack_] [$tcp($i) set nrexmit_] "
              "[$tcp($i) set ncwndcuts1_]\" }",
              "  $ns flush-trace",
              "  close $tf",
              "  exit 0",
              "}",
              f"$ns at {_num(end)} \"finish\"",
              "$ns run"]
    return "\n".join(lines) + "\n"


def command(script_name: str) -> list:
    return [NS, script_name]


def ns_available() -> bool:
    return shutil.which(NS) is not None


def run_ns(p: dict, starts: list) -> tuple[str, str]:
    """Run NS-2 on the script of `p`: (its stdout, its packet trace)."""
    with tempfile.TemporaryDirectory(prefix="ns2_") as tmp:
        (Path(tmp) / SCRIPT_FILE).write_text(script(p, starts, TRACE_FILE))
        proc = subprocess.run(command(SCRIPT_FILE), cwd=tmp, capture_output=True, text=True, timeout=600)
        if proc.returncode != 0:
            raise RuntimeError(f"ns failed (rc {proc.returncode}): {proc.stderr.strip()[-500:]}")
        return proc.stdout, (Path(tmp) / TRACE_FILE).read_text()


def measure(p: dict, stdout: str, trace: str) -> dict:
    """Our flow model's output layout (samples, samples2, flows) built from NS-2's sampler and trace."""
    topo, ends, _ = ns2_wired.build_topology(p)
    names = {n: i for i, n in enumerate(topo.nodes)}
    n = len(ends)
    src = np.array([names[s] for s, _ in ends])
    dst = np.array([names[d] for _, d in ends])
    rows = [line.split() for line in stdout.splitlines()]
    samples = np.array([[float(x) for x in r[1:]] for r in rows if r and r[0] == "S"])
    final = {int(r[1]): [int(float(x)) for x in r[2:]] for r in rows if r and r[0] == "F"}
    t = samples[:, 0]
    ev = _tcp_events(trace)
    sent = ev[(ev["ev"] == "+") & (ev["frm"] == src[ev["fid"]])]          # the source's transmissions
    sent_at = pd.Series(sent["t"].to_numpy(), index=sent["uid"].to_numpy())
    recv = ev[(ev["ev"] == "r") & (ev["to"] == dst[ev["fid"]])]
    recv = recv.assign(delay=recv["t"].to_numpy() - sent_at.reindex(recv["uid"]).to_numpy())
    drop = ev[ev["ev"] == "d"]
    per = [dict(sent=sent["t"][sent["fid"] == i].to_numpy(), drop=drop["t"][drop["fid"] == i].to_numpy(),
                recv=recv["t"][recv["fid"] == i].to_numpy(), seq=recv["seq"][recv["fid"] == i].to_numpy(),
                delay=recv["delay"][recv["fid"] == i].to_numpy()) for i in range(n)]
    s_cols, s2_cols, flows = [], [], []
    for i in range(n):
        f = per[i]
        recv, seq, delay = f["recv"], f["seq"], f["delay"]
        first = _first_arrivals(seq)
        uniq = np.searchsorted(np.sort(recv[first]), t, side="right")
        in_order = _in_order_edges(recv, seq, t)
        cum = lambda times: np.searchsorted(np.sort(times), t, side="right")
        k = np.searchsorted(t, recv, side="left")          # the sample at or after each receipt
        dsum = np.cumsum(np.bincount(k, weights=delay, minlength=len(t))[:len(t)])
        dcnt = np.cumsum(np.bincount(k, minlength=len(t))[:len(t)])
        dmax = np.zeros(len(t))
        np.maximum.at(dmax, np.minimum(k, len(t) - 1), delay)
        cwnd = samples[:, 1 + i]
        s_cols.append(np.column_stack([cwnd, np.zeros(len(t)), np.full(len(t), np.nan), uniq]))
        s2_cols.append(np.column_stack([cum(f["drop"]), cum(f["sent"]), dsum, dcnt, dmax, in_order]))
        ndata, nrexmitpack, nrexmit, cuts = final[i]
        flows.append({"sent": ndata, "retransmitted": nrexmitpack, "drops": len(f["drop"]),
                      "delivered": int(in_order[-1]), "timeouts": nrexmit, "recoveries": max(cuts - nrexmit, 0),
                      "mean_srtt_ms": float("nan")})
    samples_out = np.column_stack([t, np.zeros(len(t))] + [c for c in s_cols])
    return {"samples": samples_out.tolist(), "samples2": np.column_stack(s2_cols).tolist(), "flows": flows,
            "end_time": float(p["duration"]), "events": len(ev)}


def _tcp_events(trace: str) -> pd.DataFrame:
    """Every data-packet event of the trace: ev, t, frm (node), to (node), fid, seq, uid."""
    cols = {0: "ev", 1: "t", 2: "frm", 3: "to", 4: "type", 7: "fid", 10: "seq", 11: "uid"}
    if not trace.strip():
        return pd.DataFrame({c: pd.Series(dtype=float if c == "t" else int if c != "ev" else object)
                             for c in cols.values()})
    d = pd.read_csv(io.StringIO(trace), sep=" ", header=None, usecols=list(cols), names=range(12))
    d = d.rename(columns=cols)
    return d[d["type"] == "tcp"].reset_index(drop=True)


def _first_arrivals(seq: np.ndarray) -> np.ndarray:
    """Indices of the first arrival of each sequence number (arrays in time order)."""
    _, idx = np.unique(seq, return_index=True)
    return np.sort(idx)


def _in_order_edges(recv: np.ndarray, seq: np.ndarray, t: np.ndarray) -> np.ndarray:
    """The receiver's in-order edge (packets 0..edge-1 all arrived) at each sample time."""
    got, edge, out, j = set(), 0, np.zeros(len(t), dtype=int), 0
    for k, tk in enumerate(t):
        while j < len(recv) and recv[j] <= tk:
            got.add(int(seq[j]))
            j += 1
            while edge in got:
                edge += 1
        out[k] = edge
    return out


def metrics(p: dict, stdout: str, trace: str) -> dict:
    """The run's metrics as ns2_wired.summarize defines them (our own runs' definitions); NS-2 gives no
    RTT samples, so its mean_srtt_ms is NaN (records leave it out)."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "Mean of empty slice", RuntimeWarning)
        return ns2_wired.summarize({**p, "trace": False}, measure(p, stdout, trace))["metrics"]


def script_sha256() -> str:
    """sha256 of this generator: a record made by another version of it may differ."""
    return hashlib.sha256(Path(__file__).read_bytes()).hexdigest()
