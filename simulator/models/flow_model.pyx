"""Bulk TCP flows over a packet network; by default the dumbbell of the QtColFair paper.

With `topology=` (simulator/net/topology.py) the same event loop runs flows between any hosts of
any topology on shortest-path routes (`flow_ends`, `start_times`, `stop_times`, `monitor` for the
sampled link); links and routes: simulator/models/flow_routes.py.  Besides the SACK TCP flows:
  * classic flows (`recoveries=`: a Tahoe/Reno/NewReno loss-recovery plug-in per flow, as NS-2's
    one-way agents: cumulative ACKs for every packet, no SACK, a receive-window cap);
  * UDP-like cross traffic (`udp=`: Poisson or on-off packet sources at a set rate);
  * ping probes (`probes=`: one small packet every `interval` s, echoed by the far end);
  * per-link queue disciplines, random loss and jitter (`links=`: {link id: {queue, loss, jitter}})
    and links sharing one half-duplex channel (`medium=`), ids from Topology.link_id.
Flow i starts at i * start_interval s; with a handshake (tcp option `syn_timeout` > 0, the stack
detail `handshake`) a SACK flow first sends a SYN (an ACK-sized packet, answered at once by its
receiver) and starts its data, its RTT estimator seeded and its controller initialised, when the
SYN-ACK arrives; a SYN or SYN-ACK lost is retried after syn_timeout, doubling (NS-2's agents have
no handshake: the ns2 stack's default).  A schedule may change the bottleneck's rate (forward
direction) or delay (both directions) during the run.  Every `sample_interval` s the model records
per-flow cwnd, data in flight, smoothed RTT and delivered packets, and the bottleneck queue.
Its settings: FlowConfig (simulator/models/flow_config.py); its state: flow_model.pxd.
"""
import numpy as np

from libc.math cimport INFINITY

from simulator.core.events cimport Event, EventQueue
from simulator.core.rng cimport Stream
from simulator.core.invariants import violated
from simulator.core.quantiles cimport IntHistogram, LogHistogram
from simulator.models.flow_config import FlowConfig
from simulator.models.flow_endpoints import make_endpoints
from simulator.models.flow_routes import build_dumbbell, build_topology
from simulator.net.network cimport PKT_ACK, PKT_DATA, Network, Packet
from simulator.tcp.sack_receiver cimport SackReceiver
from simulator.tcp.sack_sender cimport SackSender
from simulator.tcp.sender cimport TcpSender
from simulator.tcp.recovery cimport ACT_RETRANSMIT

# False: every link takes two events per packet (Network.plan not called); "lazy": no link is eager (to find
# which of the two savings moves a result); tests compare the paths
PLAN_LINKS = True


cdef class FlowModel:
    # its state: simulator/models/flow_model.pxd

    def __init__(self, str key, list controllers, config):
        """One run: `controllers`, one per TCP flow; `config`, every other setting (simulator/models/flow_config.py)."""
        if not isinstance(config, FlowConfig):
            raise TypeError(f"FlowModel takes a FlowConfig (simulator/models/flow_config.py), got {type(config).__name__}")
        c = config
        c.check(len(controllers))
        tcp = c.tcp or {}
        self.key, self.n = key, len(controllers)
        self.udp = list(c.udp or [])
        self.probes = list(c.probes or [])
        self.duration = c.duration
        self.start_interval = c.start_interval
        self.sample_interval = c.sample_interval
        self.data_size = c.data_size
        self.ack_size = c.ack_size
        self.schedule = sorted(c.schedule or [], key=lambda change: change[0])
        self.events = EventQueue(1 << 12)
        n_all = self.n + len(self.udp) + len(self.probes)
        self.net = c.network_class()(self.events, EV_LINK_DONE, EV_ARRIVE, n_all)
        self.kind = np.array([FLOW_TCP] * self.n + [FLOW_UDP] * len(self.udp)
                             + [FLOW_PROBE] * len(self.probes), dtype=np.uint8)
        self.link_ids = {}
        self.plan_links = True
        self.topology = c.topology
        if c.topology is None:
            self.bottleneck_fwd, self.bottleneck_rev = build_dumbbell(
                self.net, (PKT_DATA, PKT_ACK), self.n, float(c.bottleneck_bps), float(c.bottleneck_delay),
                int(c.buffer_pkts), c.access_bps, c.access_delay, c.extra_delays)
        else:
            ends = list(c.flow_ends) + [(u["src"], u["dst"]) for u in self.udp] \
                + [(pr["src"], pr["dst"]) for pr in self.probes]
            self.link_ids, self.bottleneck_fwd, self.bottleneck_rev = build_topology(
                self.net, (PKT_DATA, PKT_ACK), c.topology, ends, c.monitor)
        self.start_times = c.flow_start_times(self.n)
        self.stop_times = c.flow_stop_times(self.n)
        recoveries = c.recoveries or [None] * self.n
        self.classic = np.array([r is not None for r in recoveries], dtype=np.uint8)
        self.senders, self.receivers = make_endpoints(controllers, recoveries, tcp, self.data_size)
        n, n_udp, n_probes = self.n, len(self.udp), len(self.probes)
        self.stopped, self.syn_wait = np.zeros(n, dtype=np.uint8), np.zeros(n, dtype=np.uint8)
        self.sent_count, self.delay_cnt = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
        self.data_drops, self.syn_tries = np.zeros(n, dtype=np.int64), np.zeros(n, dtype=np.int64)
        self.delay_sum, self.delay_max = np.zeros(n), np.zeros(n)
        self.rto_scheduled, self.delack_scheduled = np.full(n, np.inf), np.full(n, np.inf)
        self.pace_scheduled, self.syn_deadline = np.full(n, np.inf), np.full(n, np.inf)
        self.udp_rng = [Stream(key, f"udp-{j}") for j in range(n_udp)]
        self.udp_until, self.udp_on = np.zeros(n_udp), np.ones(n_udp, dtype=np.uint8)
        self.udp_sent, self.udp_delivered = np.zeros(n_udp, dtype=np.int64), np.zeros(n_udp, dtype=np.int64)
        self.probe_sent, self.probe_replies = np.zeros(n_probes, dtype=np.int64), np.zeros(n_probes, dtype=np.int64)
        self.probe_log = [[] for _ in self.probes]
        self.syn_timeout = float(tcp.get("syn_timeout", 0.0))
        # a row per sample, allocated once (8 bytes a value; rows stacked at the end would be held twice)
        rows = int(self.duration / self.sample_interval) + 2
        self.samples, self.samples2 = np.empty((rows, 2 + 4 * self.n)), np.empty((rows, 6 * self.n))
        self.n_rows, self.event_every = 0, 8
        self.event_from = c.event_from
        self.ev_rtt = LogHistogram()
        self.ev_inflight = IntHistogram()
        for link in sorted(c.links or {}):
            self.configure_link(link, **c.links[link])
        c.share_media(self.net, key)

    cdef void transmit(self, int flow, long long seq, double now) except *:
        cdef int size = self.data_size
        if seq == 0 and self.classic[flow] and (<TcpSender>self.senders[flow]).syn_packet:
            size = self.ack_size                    # NS-2's SYN: a header without data
        cdef int pid = self.net.new_packet(flow, PKT_DATA, seq, -1, now, size)
        self.sent_count[flow] += 1
        if not self.net.send(pid, now):
            self.data_drops[flow] += 1
            self.net.free_packet(pid)

    cdef void classic_send_loop(self, int flow, double now) except *:
        cdef TcpSender snd = <TcpSender>self.senders[flow]
        cdef long long seq
        if not self.stopped[flow]:
            seq = snd.next_to_send(now)
            while seq >= 0:
                self.transmit(flow, seq, now)
                seq = snd.next_to_send(now)
        if snd.rto_deadline < self.rto_scheduled[flow]:
            self.rto_scheduled[flow] = snd.rto_deadline
            self.events.push_timer(snd.rto_deadline, EV_RTO, flow)

    cdef void send_loop(self, int flow, double now) except *:
        if self.classic[flow]:
            self.classic_send_loop(flow, now)
            return
        cdef SackSender snd = <SackSender>self.senders[flow]
        cdef long long seq
        while not self.stopped[flow] and snd.can_send(now):
            seq = snd.next_segment(now)
            self.transmit(flow, seq, now)
        if snd.s.pacing_rate > 0 and snd.next_send_time > now \
                and snd.in_flight() < <long long>snd.s.cwnd \
                and snd.next_send_time < self.pace_scheduled[flow]:
            self.pace_scheduled[flow] = snd.next_send_time
            self.events.push_timer(snd.next_send_time, EV_PACE, flow)
        if snd.rto_deadline < self.rto_scheduled[flow]:
            self.rto_scheduled[flow] = snd.rto_deadline
            self.events.push_timer(snd.rto_deadline, EV_RTO, flow)

    cdef void start_flow(self, int flow, double now) except *:
        if self.syn_timeout > 0:
            self.send_syn(flow, now)
        else:
            self.send_loop(flow, now)

    cdef void send_syn(self, int flow, double now) except *:
        """The handshake's SYN (seq -1), timed out after syn_timeout * 2^tries (ns-3 ConnTimeout
        doubling; Linux TCP_TIMEOUT_INIT, doubling)."""
        cdef int pid = self.net.new_packet(flow, PKT_DATA, -1, -1, now, self.ack_size)
        self.syn_wait[flow] = 1
        self.syn_deadline[flow] = now + self.syn_timeout * (1 << min(self.syn_tries[flow], 6))
        self.syn_tries[flow] += 1
        self.events.push_timer(self.syn_deadline[flow], EV_SYN, flow)
        if not self.net.send(pid, now):
            self.net.free_packet(pid)

    cdef void handshake_reply(self, int flow, Packet* p, double now) except *:
        """A SYN at the receiver: a SYN-ACK (seq -1) echoing its timestamp."""
        cdef int pid = self.net.new_packet(flow, PKT_ACK, -1, -1, p.ts, self.ack_size)
        if not self.net.send(pid, now):
            self.net.free_packet(pid)

    cdef void handshake_done(self, int flow, double echo_ts, double now) except *:
        """The first SYN-ACK at the sender: seed the RTT estimate, start the controller, send."""
        if not self.syn_wait[flow]:
            return                                  # the answer to a retried SYN came late
        self.syn_wait[flow] = 0
        self.syn_deadline[flow] = INFINITY
        if self.classic[flow]:
            (<TcpSender>self.senders[flow]).establish(now - echo_ts, now)
        else:
            (<SackSender>self.senders[flow]).establish(now - echo_ts, now)
        self.send_loop(flow, now)

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
        cdef TcpSender csnd
        cdef int action
        cdef double d
        if self.kind[flow] != FLOW_TCP:
            self.deliver_other(pid, now)
            return
        if p.seq < 0:                               # the handshake (start_flow)
            if p.kind == PKT_DATA:
                self.handshake_reply(flow, p, now)
            else:
                self.handshake_done(flow, p.ts, now)
            self.net.free_packet(pid)
            return
        if p.kind == PKT_DATA:
            d = now - p.ts                          # one-way delay of this transmission
            self.delay_sum[flow] += d
            self.delay_cnt[flow] += 1
            if d > self.delay_max[flow]:
                self.delay_max[flow] = d
            rcv = <SackReceiver>self.receivers[flow]
            if rcv.on_data(p.seq, p.ts, now):
                self.send_ack(flow, rcv, now)
            elif rcv.delack_deadline < self.delack_scheduled[flow]:
                self.delack_scheduled[flow] = rcv.delack_deadline
                self.events.push_timer(rcv.delack_deadline, EV_DELACK, flow)
            self.net.free_packet(pid)
        elif self.classic[flow]:
            csnd = <TcpSender>self.senders[flow]
            action = csnd.on_ack(p.seq, now)
            self.net.free_packet(pid)
            if action == ACT_RETRANSMIT:
                csnd.mark_retransmit(csnd.s.snd_una, now)
                self.transmit(flow, csnd.s.snd_una, now)
            self.classic_send_loop(flow, now)
        else:
            snd = <SackSender>self.senders[flow]
            snd.on_ack(p.seq, p.sack, p.ts, now)
            self.acks_seen += 1
            if self.acks_seen % self.event_every == 0 and snd.s.srtt > 0 and now >= self.event_from:
                self.ev_rtt.add(snd.s.srtt)
                self.ev_inflight.add(snd.in_flight())
            self.net.free_packet(pid)
            self.send_loop(flow, now)

    cdef void deliver_other(self, int pid, double now) except *:
        """A UDP packet reaches its sink, or a probe its far end (echoed) or its origin (RTT)."""
        cdef Packet* p = &self.net.pkts[pid]
        cdef int flow = p.flow, j, reply
        if self.kind[flow] == FLOW_UDP:
            self.udp_delivered[flow - self.n] += 1
        elif p.kind == PKT_DATA:                    # echo request at the far end: reply
            reply = self.net.new_packet(flow, PKT_ACK, p.seq, -1, p.ts, p.size)
            if not self.net.send(reply, now):
                self.net.free_packet(reply)
        else:
            j = flow - self.n - len(self.udp)
            self.probe_replies[j] += 1
            self.probe_log[j].append((p.ts, now - p.ts))
        self.net.free_packet(pid)

    cdef void udp_send(self, int j, double now) except *:
        """Source j sends one packet (if on) and schedules its next one."""
        src = self.udp[j]
        cdef Stream rng = <Stream>self.udp_rng[j]
        cdef int flow = self.n + j, pid
        cdef double gap = src["size"] * 8.0 / src["rate_bps"]
        if src["mode"] == "onoff" and now >= self.udp_until[j]:
            self.udp_on[j] = 1 - self.udp_on[j]
            self.udp_until[j] = now + rng.exponential(1.0 / (src["on"] if self.udp_on[j] else src["off"]))
        if self.udp_on[j]:
            pid = self.net.new_packet(flow, PKT_DATA, self.udp_sent[j], -1, now, src["size"])
            self.udp_sent[j] += 1
            if not self.net.send(pid, now):
                self.net.free_packet(pid)
            nxt = now + rng.exponential(1.0 / gap)
        else:
            nxt = self.udp_until[j]
        if src["mode"] == "onoff" and self.udp_on[j] and nxt > self.udp_until[j]:
            nxt = self.udp_until[j]
        if nxt < src.get("stop", INFINITY):
            self.events.push(nxt, EV_UDP, j)

    cdef void probe_send(self, int j, double now) except *:
        pr = self.probes[j]
        cdef int flow = self.n + len(self.udp) + j
        cdef int pid = self.net.new_packet(flow, PKT_DATA, self.probe_sent[j], -1, now, pr["size"])
        self.probe_sent[j] += 1
        if not self.net.send(pid, now):
            self.net.free_packet(pid)
        if now + pr["interval"] < pr.get("stop", INFINITY):
            self.events.push(now + pr["interval"], EV_PROBE, j)

    def set_schedule(self, list schedule):
        """Replace the schedule (before run): (t, "rate"|"delay", value[, link ids]) entries."""
        self.schedule = sorted(schedule, key=lambda c: c[0])

    @property
    def bottleneck_links(self):
        """(forward, reverse) network ids of the monitored link (the dumbbell's bottleneck)."""
        return (self.bottleneck_fwd, self.bottleneck_rev)

    def link_id(self, a, b):
        """Network id of the one-way link a -> b of the topology."""
        return self.topology.link_id(a, b)

    def configure_link(self, int link, queue=None, loss=None, jitter=None):
        """Queue discipline (a PacketQueue, or a function of the run's EventQueue giving one: CoDel reads
        the clock), random loss and jitter of one network link (see Network)."""
        if queue is not None:
            if callable(queue):
                queue = queue(self.events)
            self.net.set_queue(link, queue)
        if loss is not None:
            self.net.set_loss(link, loss)
        if jitter is not None:
            self.net.set_jitter(link, jitter)

    def run(self):
        cdef Event ev
        cdef double now = 0.0
        cdef int r, flow
        cdef SackSender snd
        cdef SackReceiver rcv
        self.net.monitored = self.bottleneck_fwd         # the smallest packet, and the sampled link: for Network.plan
        self.net.size_floor = min([self.data_size, self.ack_size] + [x["size"] for x in self.udp + self.probes])
        if PLAN_LINKS and self.plan_links:
            self.net.plan(self.timed_links(), PLAN_LINKS != "lazy")
        for i in range(self.n):
            self.events.push_timer(self.start_times[i], EV_START, i)
            if self.stop_times[i] < self.duration:
                self.events.push_timer(self.stop_times[i], EV_STOP, i)
        for j, src in enumerate(self.udp):
            self.events.push(src.get("start", 0.0), EV_UDP, j)
        for j, pr in enumerate(self.probes):
            self.events.push(pr.get("start", 0.0), EV_PROBE, j)
        for j, change in enumerate(self.schedule):
            self.events.push_timer(change[0], EV_SCHED, j)
        self.events.push_timer(0.0, EV_SAMPLE, 0)
        self.events.push_timer(self.duration, EV_END, 0)
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
                    flow = self.net.pkts[ev.data].flow
                    if self.net.pkts[ev.data].kind == PKT_DATA and flow < self.n and self.net.pkts[ev.data].seq >= 0:
                        self.data_drops[flow] += 1
                    self.net.free_packet(<int>ev.data)
            elif ev.kind == EV_RTO:
                flow = <int>ev.data
                if now != self.rto_scheduled[flow]:
                    continue                             # superseded by an earlier deadline
                self.rto_scheduled[flow] = INFINITY
                if self.classic[flow]:
                    self.classic_timeout(flow, now)
                    continue
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
                    self.events.push_timer(rcv.delack_deadline, EV_DELACK, flow)
            elif ev.kind == EV_PACE:
                flow = <int>ev.data
                if now != self.pace_scheduled[flow]:
                    continue
                self.pace_scheduled[flow] = INFINITY
                self.send_loop(flow, now)
            elif ev.kind == EV_START:
                self.start_flow(<int>ev.data, now)
            elif ev.kind == EV_SYN:
                flow = <int>ev.data
                if self.syn_wait[flow] and now == self.syn_deadline[flow]:
                    self.send_syn(flow, now)
            elif ev.kind == EV_SCHED:
                self.apply_change(self.schedule[ev.data])
            elif ev.kind == EV_UDP:
                self.udp_send(<int>ev.data, now)
            elif ev.kind == EV_PROBE:
                self.probe_send(<int>ev.data, now)
            elif ev.kind == EV_STOP:
                self.stopped[ev.data] = 1               # the application stops writing (FTP stop)
            elif ev.kind == EV_SAMPLE:
                self.sample(now)
                self.events.push_timer(now + self.sample_interval, EV_SAMPLE, 0)
            else:
                break
        return self.summary(now)

    cdef void classic_timeout(self, int flow, double now) except *:
        cdef TcpSender snd = <TcpSender>self.senders[flow]
        if snd.rto_deadline == INFINITY:
            return
        if now >= snd.rto_deadline:
            snd.on_timeout(now)
        self.classic_send_loop(flow, now)

    def timed_links(self):
        """The links whose rate or delay the schedule changes during the run (apply_change's defaults)."""
        out = set()
        for change in self.schedule:
            links = change[3] if len(change) > 3 else None
            out.update(links or ([self.bottleneck_fwd] if change[1] == "rate" else
                                 [self.bottleneck_fwd, self.bottleneck_rev]))
        return sorted(out)

    def apply_change(self, change):
        """(t, "rate"|"delay", value[, link ids]): without ids, the monitored link (both
        directions for a delay change)."""
        t, what, value = change[:3]
        links = change[3] if len(change) > 3 else None
        if what == "rate":
            for l in (links or [self.bottleneck_fwd]):
                self.net.set_rate(l, float(value))
        elif what == "delay":
            for l in (links or [self.bottleneck_fwd, self.bottleneck_rev]):
                self.net.set_delay(l, float(value))
        else:
            raise ValueError(f"schedule entry {change}: change must be 'rate' or 'delay'")

    def sample(self, double now):
        """A row of `samples` and of `samples2` (columns: SAMPLE_HEAD, FLOW_SAMPLE, FLOW_COUNTERS of flow_config.py,
        whose `samples` reads them by name), in the run's arrays: a many-flow run's memory is mostly these."""
        cdef int i, k, j
        cdef double[::1] row, row2
        if self.n_rows == self.samples.shape[0]:          # more samples than the duration gives: room for more
            self.samples = np.concatenate([self.samples, np.empty_like(self.samples)])
            self.samples2 = np.concatenate([self.samples2, np.empty_like(self.samples2)])
        row, row2 = self.samples[self.n_rows], self.samples2[self.n_rows]
        self.n_rows += 1
        row[0], row[1] = now, self.net.queue_length(self.bottleneck_fwd, now)
        for i in range(self.n):
            rcv = <SackReceiver>self.receivers[i]
            k, j = 2 + 4 * i, 6 * i
            if self.classic[i]:
                csnd = <TcpSender>self.senders[i]
                row[k], row[k + 1], row[k + 2] = csnd.s.cwnd, csnd.s.snd_max - csnd.s.snd_una, csnd.s.srtt
            else:
                snd = <SackSender>self.senders[i]
                # packets that reached the receiver (not the in-order edge, which jumps when a hole fills)
                row[k], row[k + 1], row[k + 2] = snd.s.cwnd, snd.in_flight(), snd.s.srtt
            row[k + 3] = rcv.unique
            # cumulative drops and transmissions, one-way delay sum/count, worst delay since last sample, and
            # the in-order edge (what the receiving application has got, as ns-3's PacketSink counts)
            row2[j], row2[j + 1] = self.data_drops[i] + self.net.pushed_out[i], self.sent_count[i]
            row2[j + 2], row2[j + 3], row2[j + 4], row2[j + 5] = (self.delay_sum[i], self.delay_cnt[i],
                                                                  self.delay_max[i], rcv.rcv_nxt)
            self.delay_max[i] = 0.0

    def _flow_counts(self, int i):
        """(sent, retransmitted, timeouts, recoveries, rtt sum, rtt samples, min cwnd, cwnd)."""
        if self.classic[i]:
            c = <TcpSender>self.senders[i]
            return (self.sent_count[i], c.retransmissions, c.timeouts, c.fast_retransmits,
                    c.rtt_sum, c.rtt_samples, c.min_cwnd, c.s.cwnd)
        s = <SackSender>self.senders[i]
        return (s.sent, s.retransmitted, s.timeouts, s.recoveries, s.srtt_sum, s.rtt_samples,
                s.min_cwnd, s.s.cwnd)

    def summary(self, double now):
        cdef SackReceiver rcv
        mss = self.data_size - 54.0
        flows = []
        for i in range(self.n):
            rcv = <SackReceiver>self.receivers[i]
            sent, retx, timeouts, recov, rtt_sum, rtt_n, min_cwnd, cwnd = self._flow_counts(i)
            if not (min_cwnd >= 0):                  # NaN too
                violated(self.key, f"flow {i}: congestion window {min_cwnd} (negative or NaN)")
            flows.append({
                "sent": sent, "retransmitted": retx,
                "drops": int(self.data_drops[i] + self.net.pushed_out_drops(i)),
                "delivered": rcv.rcv_nxt, "timeouts": timeouts, "recoveries": recov,
                "goodput_sender_mbps": (sent - retx) * 8 * mss / now / 1e6,
                "goodput_receiver_mbps": rcv.rcv_nxt * 8 * mss / now / 1e6,
                "mean_srtt_ms": 1e3 * rtt_sum / rtt_n if rtt_n else float("nan"),
                "final_cwnd": cwnd,
            })
        return {"flows": flows, "samples": self.samples[:self.n_rows], "end_time": now, "acks": self.acks_sent,
                "event_rtt_median_s": self.ev_rtt.median(), "event_rtt_rel_error": self.ev_rtt.rel_error,
                "event_inflight_median": self.ev_inflight.median(),
                "events": self.events.pushed, "events_processed": self.events.popped,
                "bottleneck": self.net.link_stats(self.bottleneck_fwd, now),
                "samples2": self.samples2[:self.n_rows],
                "udp": [{"sent": int(self.udp_sent[j]), "delivered": int(self.udp_delivered[j])}
                        for j in range(len(self.udp))],
                "probes": [{"sent": int(self.probe_sent[j]), "replies": int(self.probe_replies[j]),
                            "log": self.probe_log[j]} for j in range(len(self.probes))]}
