"""Bulk TCP flows over a packet network; by default the dumbbell of the QtColFair paper.

With `topology=` (simulator/net/topology.py) the same event loop runs flows between any hosts of
any topology on shortest-path routes (`flow_ends`, `start_times`, `monitor` for the sampled link).

    sender_i --access--> R1 ==bottleneck==> R2 --access--> receiver_i   (and the reverse path)

Flow i starts at i * start_interval s.  Each link: rate (bit/s), propagation delay, DropTail
buffer.  A schedule may change the bottleneck's rate (forward direction) or delay (both
directions) during the run.  Every `sample_interval` s the model records per-flow cwnd, data in
flight, smoothed RTT and delivered packets, and the bottleneck queue (time-weighted samples).
"""
import math

import numpy as np

from libc.math cimport INFINITY

from simulator.core.events cimport Event, EventQueue
from simulator.core.invariants import violated
from simulator.core.trace cimport Trace
from simulator.net.network cimport PKT_ACK, PKT_DATA, Network, Packet
from simulator.tcp.sack_receiver cimport SackReceiver
from simulator.tcp.sack_sender cimport SackSender

cdef enum:
    EV_LINK_DONE = 0
    EV_ARRIVE = 1
    EV_START = 2
    EV_RTO = 3
    EV_DELACK = 4
    EV_PACE = 5
    EV_SCHED = 6
    EV_SAMPLE = 7
    EV_END = 8


cdef class Dumbbell:
    cdef str key
    cdef int n
    cdef public list senders, receivers
    cdef Network net
    cdef EventQueue events
    cdef int bottleneck_fwd, bottleneck_rev
    cdef double duration, start_interval, sample_interval
    cdef list start_times
    cdef int data_size, ack_size
    cdef list schedule
    cdef double[::1] rto_scheduled, delack_scheduled, pace_scheduled
    cdef long long[::1] data_drops
    cdef list samples
    cdef long long acks_sent
    # event-sampled distributions, as the authors log at every cwnd change: every k-th ACK
    cdef int event_every
    cdef long long acks_seen
    cdef Trace ev_rtt, ev_inflight

    def __init__(self, str key, list controllers, double bottleneck_bps, double bottleneck_delay,
                 long buffer_pkts, double access_bps=10e9, double access_delay=1e-5,
                 double duration=10.0, double start_interval=0.1, double sample_interval=0.1,
                 int data_size=1502, int ack_size=66, list schedule=None, dict tcp=None,
                 topology=None, list flow_ends=None, tuple monitor=None, start_times=None):
        tcp = tcp or {}
        self.key = key
        self.n = len(controllers)
        if self.n < 1:
            raise ValueError("a dumbbell needs at least one flow")
        self.duration = duration
        self.start_interval = start_interval
        self.sample_interval = sample_interval
        self.data_size = data_size
        self.ack_size = ack_size
        self.schedule = sorted(schedule or [], key=lambda c: c[0])
        self.events = EventQueue(1 << 12)
        self.net = Network(self.events, EV_LINK_DONE, EV_ARRIVE, self.n)
        if topology is None:
            self._build_dumbbell(bottleneck_bps, bottleneck_delay, buffer_pkts, access_bps, access_delay)
        else:
            self._build_topology(topology, flow_ends, monitor)
        self.start_times = list(start_times) if start_times is not None else \
            [i * start_interval for i in range(self.n)]
        if len(self.start_times) != self.n:
            raise ValueError(f"{len(self.start_times)} start times for {self.n} flows")
        from simulator.tcp.rto import RtoEstimator
        self.senders, self.receivers = [], []
        for i, cc in enumerate(controllers):
            rto = RtoEstimator(tcp.get("rto_initial", 1.0), tcp.get("rto_min", 1.0))
            self.senders.append(SackSender(cc, rto, tcp.get("init_cwnd", 10.0), data_size - 54.0))
            self.receivers.append(SackReceiver(tcp.get("delack_count", 2),
                                               tcp.get("delack_timeout", 0.2)))
        self.rto_scheduled = np.full(self.n, np.inf)
        self.delack_scheduled = np.full(self.n, np.inf)
        self.pace_scheduled = np.full(self.n, np.inf)
        self.data_drops = np.zeros(self.n, dtype=np.int64)
        self.samples = []
        self.event_every = 8
        self.ev_rtt = Trace(0.0, 1 << 16)
        self.ev_inflight = Trace(0.0, 1 << 16)

    cdef void send_loop(self, int flow, double now) except *:
        cdef SackSender snd = <SackSender>self.senders[flow]
        cdef long long seq
        cdef int pid
        while snd.can_send(now):
            seq = snd.next_segment(now)
            pid = self.net.new_packet(flow, PKT_DATA, seq, -1, now, self.data_size)
            if not self.net.send(pid, now):
                self.data_drops[flow] += 1
                self.net.free_packet(pid)
        if snd.s.pacing_rate > 0 and snd.next_send_time > now \
                and snd.in_flight() < <long long>snd.s.cwnd \
                and snd.next_send_time < self.pace_scheduled[flow]:
            self.pace_scheduled[flow] = snd.next_send_time
            self.events.push(snd.next_send_time, EV_PACE, flow)
        if snd.rto_deadline < self.rto_scheduled[flow]:
            self.rto_scheduled[flow] = snd.rto_deadline
            self.events.push(snd.rto_deadline, EV_RTO, flow)

    cdef void send_ack(self, int flow, SackReceiver rcv, double now) except *:
        cdef int pid = self.net.new_packet(flow, PKT_ACK, rcv.rcv_nxt, rcv.ack_sack, rcv.ack_ts,
                                           self.ack_size)
        self.acks_sent += 1
        if not self.net.send(pid, now):
            self.net.free_packet(pid)

    cdef void deliver(self, int pid, double now) except *:
        cdef Packet* p = &self.net.pkts[pid]
        cdef int flow = p.flow
        cdef SackReceiver rcv
        cdef SackSender snd
        if p.kind == PKT_DATA:
            rcv = <SackReceiver>self.receivers[flow]
            if rcv.on_data(p.seq, p.ts, now):
                self.send_ack(flow, rcv, now)
            elif rcv.delack_deadline < self.delack_scheduled[flow]:
                self.delack_scheduled[flow] = rcv.delack_deadline
                self.events.push(rcv.delack_deadline, EV_DELACK, flow)
            self.net.free_packet(pid)
        else:
            snd = <SackSender>self.senders[flow]
            snd.on_ack(p.seq, p.sack, p.ts, now)
            self.acks_seen += 1
            if self.acks_seen % self.event_every == 0 and snd.s.srtt > 0:
                self.ev_rtt.add(now, snd.s.srtt)
                self.ev_inflight.add(now, snd.in_flight())
            self.net.free_packet(pid)
            self.send_loop(flow, now)

    def _build_dumbbell(self, double bottleneck_bps, double bottleneck_delay, long buffer_pkts,
                        double access_bps, double access_delay):
        big = 1 << 20      # access links and the reverse path never drop in this scenario
        self.bottleneck_fwd = self.net.add_link(bottleneck_bps, bottleneck_delay, buffer_pkts)
        self.bottleneck_rev = self.net.add_link(bottleneck_bps, bottleneck_delay, big)
        for i in range(self.n):
            a_in = self.net.add_link(access_bps, access_delay, big)
            a_out = self.net.add_link(access_bps, access_delay, big)
            b_in = self.net.add_link(access_bps, access_delay, big)
            b_out = self.net.add_link(access_bps, access_delay, big)
            self.net.set_route(i, PKT_DATA, [a_in, self.bottleneck_fwd, a_out])
            self.net.set_route(i, PKT_ACK, [b_in, self.bottleneck_rev, b_out])

    def _build_topology(self, topology, flow_ends, monitor):
        """Any Topology (simulator/net/topology.py): flow i runs from flow_ends[i][0] to
        flow_ends[i][1] on shortest paths; `monitor` (a, b) names the link whose queue is sampled
        and whose rate/delay the schedule changes."""
        if flow_ends is None or len(flow_ends) != self.n:
            raise ValueError(f"a topology run needs (source, destination) for each of the {self.n} flows")
        ids = topology.install(self.net)
        for i, (src, dst) in enumerate(flow_ends):
            self.net.set_route(i, PKT_DATA, [ids[h] for h in topology.hops(src, dst)])
            self.net.set_route(i, PKT_ACK, [ids[h] for h in topology.hops(dst, src)])
        a, b = monitor if monitor is not None else tuple(topology.path(*flow_ends[0])[1:3])
        matches = [i for i, l in enumerate(topology.links) if (l.a, l.b) in ((a, b), (b, a))]
        if not matches:
            raise ValueError(f"monitor {a!r}-{b!r} is not a link of topology {topology.name}")
        d = 0 if topology.links[matches[0]].a == a else 1
        self.bottleneck_fwd, self.bottleneck_rev = ids[(matches[0], d)], ids[(matches[0], 1 - d)]

    def run(self):
        cdef Event ev
        cdef double now = 0.0
        cdef int r, flow
        cdef SackSender snd
        cdef SackReceiver rcv
        for i in range(self.n):
            self.events.push(self.start_times[i], EV_START, i)
        for j, change in enumerate(self.schedule):
            self.events.push(change[0], EV_SCHED, j)
        self.events.push(0.0, EV_SAMPLE, 0)
        self.events.push(self.duration, EV_END, 0)
        while not self.events.empty():
            ev = self.events.pop()
            if ev.time < now:
                violated(self.key, f"time went back from {now} to {ev.time}")
            now = ev.time
            if ev.kind == EV_LINK_DONE:
                self.net.link_done(<int>ev.data, now)
            elif ev.kind == EV_ARRIVE:
                r = self.net.arrive(<int>ev.data, now)
                if r == 1:
                    self.deliver(<int>ev.data, now)
                elif r == 0:
                    if self.net.pkts[ev.data].kind == PKT_DATA:
                        self.data_drops[self.net.pkts[ev.data].flow] += 1
                    self.net.free_packet(<int>ev.data)
            elif ev.kind == EV_RTO:
                flow = <int>ev.data
                if now != self.rto_scheduled[flow]:
                    continue                             # superseded by an earlier deadline
                self.rto_scheduled[flow] = INFINITY
                snd = <SackSender>self.senders[flow]
                if snd.rto_deadline == INFINITY:
                    continue
                if now >= snd.rto_deadline:
                    snd.on_timeout(now)
                self.send_loop(flow, now)
            elif ev.kind == EV_DELACK:
                flow = <int>ev.data
                if now != self.delack_scheduled[flow]:
                    continue
                self.delack_scheduled[flow] = INFINITY
                rcv = <SackReceiver>self.receivers[flow]
                if rcv.on_delack_timer(now):
                    self.send_ack(flow, rcv, now)
                elif rcv.delack_deadline < INFINITY:
                    self.delack_scheduled[flow] = rcv.delack_deadline
                    self.events.push(rcv.delack_deadline, EV_DELACK, flow)
            elif ev.kind == EV_PACE:
                flow = <int>ev.data
                if now != self.pace_scheduled[flow]:
                    continue
                self.pace_scheduled[flow] = INFINITY
                self.send_loop(flow, now)
            elif ev.kind == EV_START:
                self.send_loop(<int>ev.data, now)
            elif ev.kind == EV_SCHED:
                self.apply_change(self.schedule[ev.data])
            elif ev.kind == EV_SAMPLE:
                self.sample(now)
                self.events.push(now + self.sample_interval, EV_SAMPLE, 0)
            else:
                break
        return self.summary(now)

    def apply_change(self, change):
        t, what, value = change
        if what == "rate":
            self.net.set_rate(self.bottleneck_fwd, float(value))
        elif what == "delay":
            self.net.set_delay(self.bottleneck_fwd, float(value))
            self.net.set_delay(self.bottleneck_rev, float(value))
        else:
            raise ValueError(f"schedule entry {change}: change must be 'rate' or 'delay'")

    def sample(self, double now):
        row = [now, self.net.queue_length(self.bottleneck_fwd)]
        for i in range(self.n):
            snd = <SackSender>self.senders[i]
            rcv = <SackReceiver>self.receivers[i]
            # packets that reached the receiver (not the in-order edge, which jumps when a hole fills)
            row += [snd.s.cwnd, snd.in_flight(), snd.s.srtt, rcv.unique]
        self.samples.append(row)

    def summary(self, double now):
        cdef SackSender snd
        cdef SackReceiver rcv
        mss = self.data_size - 54.0
        flows = []
        for i in range(self.n):
            snd = <SackSender>self.senders[i]
            rcv = <SackReceiver>self.receivers[i]
            if snd.min_cwnd < 0:
                violated(self.key, f"flow {i}: negative congestion window {snd.min_cwnd}")
            flows.append({
                "sent": snd.sent, "retransmitted": snd.retransmitted, "drops": int(self.data_drops[i]),
                "delivered": rcv.rcv_nxt, "timeouts": snd.timeouts, "recoveries": snd.recoveries,
                "goodput_sender_mbps": (snd.sent - snd.retransmitted) * 8 * mss / now / 1e6,
                "goodput_receiver_mbps": rcv.rcv_nxt * 8 * mss / now / 1e6,
                "mean_srtt_ms": 1e3 * snd.srtt_sum / snd.rtt_samples if snd.rtt_samples else float("nan"),
                "final_cwnd": snd.s.cwnd,
            })
        return {"flows": flows, "samples": self.samples, "end_time": now, "acks": self.acks_sent,
                "event_rtt": self.ev_rtt.as_dict("v"), "event_inflight": self.ev_inflight.as_dict("v"),
                "events": self.events.pushed,
                "bottleneck": self.net.link_stats(self.bottleneck_fwd)}
