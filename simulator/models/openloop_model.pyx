"""Open-loop TCP flows over any topology: flows arrive during the run, send their bytes and finish.

Each flow class (simulator/models/openloop_config.py) has a source, a destination, a route (given, or the
shortest path), its controller and a workload: long-lived flows started at set times, Poisson arrivals
whose sizes come from a declared distribution (simulator/workloads/), or a trace of (time, bytes).  A
flow takes a slot when it arrives: the network's flow id, its SACK sender and receiver, its timers.  When
its receiver has every byte the flow is finished (its completion time recorded, its last segment ACKed
at once, as a FIN is) and its slot is given back once no packet of it is left in the network, so a
stale packet never reaches the next flow of that slot and memory follows the flows active at once.
Data and ACKs of a class share one route each, added once before the network plans its links. Timers (RTO,
delayed ACK, pacing, SYN, arrivals, samples) go to the event queue's timer heap (simulator/core/events.pyx), which
pops in the same order as one heap would, so the packets' heap stays small however many flows are active.
"""
import math

import numpy as np

from libc.math cimport INFINITY

from simulator.core.events cimport Event, EventQueue
from simulator.core.invariants import violated
from simulator.core.rng cimport Stream
from simulator.models.flow_endpoints import sack_flow
from simulator.net.network cimport PKT_ACK, PKT_DATA, Network, Packet
from simulator.tcp.sack_receiver cimport SackReceiver
from simulator.tcp.sack_sender cimport SackSender

DONE_COLUMNS = ("class", "packets", "arrival", "fct")      # `finished` rows
# flows active at once: as many as the flow limit of simulator/scenarios/network.params.yaml (an active flow with a
# small window takes about 1.6 kB, plus about 50 bytes per packet of its largest window: benchmarks/openloop_memory.py);
# more means the offered load outruns the network for long
MAX_ACTIVE = 100_000


cdef class OpenLoopModel:
    # its state: simulator/models/openloop_model.pxd

    def __init__(self, str key, config):
        c = config
        c.check()
        self.key = key
        self.duration, self.warmup, self.sample_interval = c.duration, c.warmup, c.sample_interval
        self.data_size, self.ack_size = c.data_size, c.ack_size
        self.tcp = dict(c.tcp or {})
        self.syn_timeout = float(self.tcp.get("syn_timeout", 0.0))
        self.events = EventQueue(1 << 12)
        self.n_slots = 0
        self.net = Network(self.events, OL_LINK_DONE, OL_ARRIVE, 1)
        ids = c.topology.install(self.net)
        self.classes = []
        for k, fc in enumerate(c.classes):
            data, ack = c.topology.hops_along(fc.path(c.topology)), c.topology.hops_along(fc.path(c.topology)[::-1])
            self.classes.append({"spec": fc, "data": self.net.add_route([ids[h] for h in data]),
                                 "ack": self.net.add_route([ids[h] for h in ack])})
        self.class_rng = [Stream(key, f"class-{fc.name}") for fc in c.classes]
        self.class_left = np.zeros(len(c.classes), dtype=np.int64)
        self.monitor = c.topology.link_id(*c.monitor)
        for link in sorted(c.links or {}):
            cfg = c.links[link]
            if cfg.get("queue") is not None:
                q = cfg["queue"]
                self.net.set_queue(link, q(self.events) if callable(q) else q)
            if cfg.get("loss") is not None:
                self.net.set_loss(link, cfg["loss"])
        self.senders, self.receivers, self.free_slots = [], [], []
        self.state, self.syn_wait = np.zeros(0, dtype=np.uint8), np.zeros(0, dtype=np.uint8)
        self.cls = np.zeros(0, dtype=np.int32)
        self.size, self.serial, self.created, self.freed, self.syn_tries = (np.zeros(0, dtype=np.int64) for _ in range(5))
        self.born, self.rto_scheduled, self.delack_scheduled, self.pace_scheduled, self.syn_deadline = \
            (np.zeros(0) for _ in range(5))
        self.grow_slots()
        self.done = np.empty((1024, len(DONE_COLUMNS)))
        self.queue_samples = np.empty((int(self.duration / self.sample_interval) + 2, 2))

    cdef int grow_slots(self) except -1:
        """Twice the slots (64 at first): per-slot arrays copied over, the network's flow tables grown."""
        cdef int old = self.n_slots, new = max(64, 2 * old), i
        def more(a, fill):
            b = np.full(new, fill, dtype=np.asarray(a).dtype)
            b[:old] = a
            return b
        self.state, self.syn_wait, self.cls = more(self.state, 0), more(self.syn_wait, 0), more(self.cls, -1)
        self.size, self.serial, self.created = more(self.size, 0), more(self.serial, -1), more(self.created, 0)
        self.freed, self.syn_tries, self.born = more(self.freed, 0), more(self.syn_tries, 0), more(self.born, 0.0)
        self.rto_scheduled, self.delack_scheduled = more(self.rto_scheduled, INFINITY), more(self.delack_scheduled, INFINITY)
        self.pace_scheduled, self.syn_deadline = more(self.pace_scheduled, INFINITY), more(self.syn_deadline, INFINITY)
        self.senders += [None] * (new - old)
        self.receivers += [None] * (new - old)
        self.free_slots += list(range(new - 1, old - 1, -1))      # lowest first out
        self.net.ensure_flows(new)
        self.n_slots = new
        return 0

    # ------------------------------------------------------------------ flows come and go
    cdef int arrive_flow(self, int c, long long packets, double now) except -1:
        """A flow of class c arrives with `packets` segments (-1: long-lived) and starts at once."""
        if self.n_active >= MAX_ACTIVE:
            raise ValueError(f"{self.key}: {MAX_ACTIVE:,} flows active at once at t = {now:.3f} s (of {self.n_arrived:,} "
                             f"arrived): the offered load outruns what the network carries for too long; allowed: at most "
                             f"{MAX_ACTIVE:,} at once (a lower load, or a shorter run)")
        if not self.free_slots:
            self.grow_slots()
        cdef int slot = self.free_slots.pop()
        cls = self.classes[c]
        cc = cls["spec"].controller(self.n_arrived)
        snd, rcv = sack_flow(cc, self.tcp, self.data_size, bulk=packets < 0)
        if packets > 0:
            (<SackSender>snd).app_write(packets)
        self.senders[slot], self.receivers[slot] = snd, rcv
        self.net.use_route(slot, PKT_DATA, cls["data"])
        self.net.use_route(slot, PKT_ACK, cls["ack"])
        self.net.pushed_out[slot] = 0
        self.state[slot], self.cls[slot], self.size[slot], self.serial[slot] = SLOT_ACTIVE, c, packets, self.n_arrived
        self.born[slot], self.created[slot], self.freed[slot], self.syn_tries[slot] = now, 0, 0, 0
        self.rto_scheduled[slot] = self.delack_scheduled[slot] = self.pace_scheduled[slot] = INFINITY
        self.n_arrived += 1
        self.n_active += 1
        if self.n_active > self.peak_active:
            self.peak_active = self.n_active
        if self.syn_timeout > 0:
            self.send_syn(slot, now)
        else:
            self.send_loop(slot, now)
        return slot

    cdef void finished(self, int slot, double now) except *:
        """Slot's receiver has all its data: a row of `done`."""
        if self.n_done == self.done.shape[0]:
            self.done = np.concatenate([self.done, np.empty_like(self.done)])
        self.done[self.n_done, 0] = self.cls[slot]
        self.done[self.n_done, 1] = self.size[slot]
        self.done[self.n_done, 2] = self.born[slot]
        self.done[self.n_done, 3] = now - self.born[slot]
        self.n_done += 1
        self.state[slot] = SLOT_DONE

    cdef void release_if_clear(self, int slot) except *:
        """Give a finished flow's slot back once none of its packets is in the network."""
        if self.state[slot] != SLOT_DONE or self.created[slot] - self.freed[slot] - self.net.pushed_out[slot] > 0:
            return
        self.state[slot] = SLOT_FREE
        self.senders[slot] = self.receivers[slot] = None
        self.rto_scheduled[slot] = self.delack_scheduled[slot] = self.pace_scheduled[slot] = INFINITY
        self.syn_deadline[slot] = INFINITY
        self.syn_wait[slot] = 0
        self.free_slots.append(slot)
        self.n_active -= 1

    cdef void free_pkt(self, int pid) noexcept:
        self.freed[self.net.pkts[pid].flow] += 1
        self.net.free_packet(pid)

    # ------------------------------------------------------------------ packets
    cdef void transmit(self, int slot, long long seq, double now) except *:
        cdef int pid = self.net.new_packet(slot, PKT_DATA, seq, -1, now, self.data_size if seq >= 0 else self.ack_size)
        self.created[slot] += 1
        if not self.net.send(pid, now):
            self.free_pkt(pid)

    cdef void send_loop(self, int slot, double now) except *:
        cdef SackSender snd = <SackSender>self.senders[slot]
        while snd.can_send(now):
            self.transmit(slot, snd.next_segment(now), now)
        if snd.s.pacing_rate > 0 and snd.next_send_time > now and snd.in_flight() < <long long>snd.s.cwnd \
                and snd.next_send_time < self.pace_scheduled[slot]:
            self.pace_scheduled[slot] = snd.next_send_time
            self.events.push_timer(snd.next_send_time, OL_PACE, slot)
        if snd.rto_deadline < self.rto_scheduled[slot]:
            self.rto_scheduled[slot] = snd.rto_deadline
            self.events.push_timer(snd.rto_deadline, OL_RTO, slot)

    cdef void send_syn(self, int slot, double now) except *:
        """The handshake's SYN (seq -1), retried after syn_timeout, doubling (as the flow model's)."""
        self.syn_wait[slot] = 1
        self.syn_deadline[slot] = now + self.syn_timeout * (1 << min(self.syn_tries[slot], 6))
        self.syn_tries[slot] += 1
        self.events.push_timer(self.syn_deadline[slot], OL_SYN, slot)
        self.transmit(slot, -1, now)

    cdef void send_ack(self, int slot, SackReceiver rcv, double now) except *:
        cdef int pid = self.net.new_packet(slot, PKT_ACK, rcv.rcv_nxt, rcv.ack_sack, rcv.ack_ts, self.ack_size)
        self.created[slot] += 1
        if not self.net.send(pid, now):
            self.free_pkt(pid)

    cdef void deliver(self, int pid, double now) except *:
        cdef Packet* p = &self.net.pkts[pid]
        cdef int slot = p.flow, reply
        cdef SackReceiver rcv
        cdef SackSender snd
        cdef bint ack_now
        if p.seq < 0:                                   # the handshake
            if p.kind == PKT_DATA:
                reply = self.net.new_packet(slot, PKT_ACK, -1, -1, p.ts, self.ack_size)
                self.created[slot] += 1
                if not self.net.send(reply, now):
                    self.free_pkt(reply)
            elif self.syn_wait[slot]:
                self.syn_wait[slot] = 0
                self.syn_deadline[slot] = INFINITY
                (<SackSender>self.senders[slot]).establish(now - p.ts, now)
                self.send_loop(slot, now)
            self.free_pkt(pid)
        elif p.kind == PKT_DATA:
            rcv = <SackReceiver>self.receivers[slot]
            ack_now = rcv.on_data(p.seq, p.ts, now)
            self.free_pkt(pid)
            if self.state[slot] == SLOT_ACTIVE and self.size[slot] > 0 and rcv.rcv_nxt >= self.size[slot]:
                self.finished(slot, now)
                if not ack_now:
                    rcv.on_delack_timer(INFINITY)      # the last segment is ACKed at once
                ack_now = True
            if ack_now:
                self.send_ack(slot, rcv, now)
            elif rcv.delack_deadline < self.delack_scheduled[slot]:
                self.delack_scheduled[slot] = rcv.delack_deadline
                self.events.push_timer(rcv.delack_deadline, OL_DELACK, slot)
        else:
            snd = <SackSender>self.senders[slot]
            snd.on_ack(p.seq, p.sack, p.ts, now)
            self.free_pkt(pid)
            self.send_loop(slot, now)
        self.release_if_clear(slot)

    # ------------------------------------------------------------------ the run
    def run(self):
        cdef Event ev
        cdef double now = 0.0
        cdef int r, slot
        cdef SackSender snd
        cdef SackReceiver rcv
        self.net.plan((), True)
        for c, cls in enumerate(self.classes):
            self.class_left[c] = cls["spec"].schedule_first(self, c)
        self.events.push_timer(0.0, OL_SAMPLE, 0)
        self.events.push_timer(self.duration, OL_END, 0)
        while not self.events.empty():
            ev = self.events.pop()
            if ev.time < now:
                violated(self.key, f"time went back from {now} to {ev.time}")
            now = ev.time
            if ev.kind == OL_LINK_DONE:
                self.net.link_done(<int>ev.data, now)
            elif ev.kind == OL_ARRIVE:
                r = self.net.arrive(<int>ev.data, now)
                if r == 1:
                    self.deliver(<int>ev.data, now)
                elif r == 0:
                    slot = self.net.pkts[ev.data].flow
                    self.free_pkt(<int>ev.data)
                    self.release_if_clear(slot)
            elif ev.kind == OL_RTO:
                slot = <int>ev.data
                if self.state[slot] == SLOT_FREE or now != self.rto_scheduled[slot]:
                    continue                                 # superseded, or the flow is gone
                self.rto_scheduled[slot] = INFINITY
                snd = <SackSender>self.senders[slot]
                if snd.rto_deadline == INFINITY:
                    continue
                if now >= snd.rto_deadline:
                    snd.on_timeout(now)
                self.send_loop(slot, now)
            elif ev.kind == OL_DELACK:
                slot = <int>ev.data
                if self.state[slot] == SLOT_FREE or now != self.delack_scheduled[slot]:
                    continue
                self.delack_scheduled[slot] = INFINITY
                rcv = <SackReceiver>self.receivers[slot]
                if rcv.on_delack_timer(now):
                    self.send_ack(slot, rcv, now)
                elif rcv.delack_deadline < INFINITY:
                    self.delack_scheduled[slot] = rcv.delack_deadline
                    self.events.push_timer(rcv.delack_deadline, OL_DELACK, slot)
            elif ev.kind == OL_PACE:
                slot = <int>ev.data
                if self.state[slot] == SLOT_FREE or now != self.pace_scheduled[slot]:
                    continue
                self.pace_scheduled[slot] = INFINITY
                self.send_loop(slot, now)
            elif ev.kind == OL_SYN:
                slot = <int>ev.data
                if self.state[slot] != SLOT_FREE and self.syn_wait[slot] and now == self.syn_deadline[slot]:
                    self.send_syn(slot, now)
            elif ev.kind == OL_FLOW:
                self.next_flow(<int>ev.data, now)
            elif ev.kind == OL_SAMPLE:
                self.sample(now)
                self.events.push_timer(now + self.sample_interval, OL_SAMPLE, 0)
            else:
                break
        return self.summary(now)

    def next_flow(self, int c, double now):
        """Class c's flow due now arrives; the class schedules its next one (FlowClass.next_arrival)."""
        spec = self.classes[c]["spec"]
        packets, nxt = spec.draw(self, c, now)
        self.arrive_flow(c, packets, now)
        if nxt < self.duration:
            self.events.push_timer(nxt, OL_FLOW, c)

    def push_flow(self, double t, int c):
        """Schedule class c's next flow at t (FlowClass.schedule_first)."""
        if t < self.duration:
            self.events.push_timer(t, OL_FLOW, c)

    def rng(self, int c):
        return self.class_rng[c]

    def sample(self, double now):
        """The monitored link's queue; finished slots whose last packets a discipline dropped are released."""
        cdef int slot
        if self.n_rows == self.queue_samples.shape[0]:
            self.queue_samples = np.concatenate([self.queue_samples, np.empty_like(self.queue_samples)])
        self.queue_samples[self.n_rows, 0] = now
        self.queue_samples[self.n_rows, 1] = self.net.queue_length(self.monitor, now)
        self.n_rows += 1
        for slot in range(self.n_slots):
            if self.state[slot] == SLOT_DONE:
                self.release_if_clear(slot)

    def summary(self, double now):
        """Finished flows (`done`: DONE_COLUMNS), the flows still running, the monitored link, the run's size."""
        cdef int slot
        running = []
        for slot in range(self.n_slots):
            if self.state[slot] == SLOT_ACTIVE:
                rcv = <SackReceiver>self.receivers[slot]
                running.append((int(self.cls[slot]), int(self.size[slot]), float(self.born[slot]), int(rcv.rcv_nxt)))
        return {"done": self.done[:self.n_done].copy(), "running": np.array(running, dtype=float).reshape(-1, 4),
                "arrived": int(self.n_arrived), "peak_active": int(self.peak_active), "slots": int(self.n_slots),
                "queue": self.queue_samples[:self.n_rows].copy(), "end_time": now,
                "monitor": self.net.link_stats(self.monitor, now),
                "events": self.events.pushed, "events_processed": self.events.popped}
