"""The M/M/1 paper's model as its published code runs it (variant `as_published`).

A single sender wakes at Poisson(lambda) instants and sends a burst of int(cwnd) - in_flight
new packets ("none": one packet per wake-up); each packet's service time is drawn when it is
created; the router is M/M/1/K with a deadline theta on waiting; an ACK is instant at service
completion; every drop calls the algorithm at once; nothing is retransmitted.
Facts: book/published_code.md.
"""
import numpy as np

from libc.math cimport floor

from simulator.core.events cimport Event, EventQueue
from simulator.core.invariants import violated
from simulator.core.rng cimport Stream
from simulator.core.trace cimport Trace
from simulator.core.rng import legacy_stream
from simulator.net.queue_link cimport QueueLink
from simulator.tcp.cc.base cimport CA_EVENT_DROP, CongestionControl, TcpState

cdef enum:
    EV_WAKE = 0
    EV_DONE = 1
    EV_DEADLINE = 2


cdef class PublishedMM1:
    cdef double lam, mu, theta
    cdef long K, N
    cdef CongestionControl cc     # None: no congestion control (the paper's bypass path)
    cdef bint record, replay
    cdef double trace_interval
    cdef double min_cwnd           # smallest window after any hook (invariant check)
    cdef str key

    def __init__(self, str key, double lam, double mu, long K, double theta, long N,
                 CongestionControl cc=None, bint trace=False, bint paper_rng=False,
                 double trace_interval=0.0):
        """paper_rng: draw every number from one legacy numpy stream seeded 42 in event order,
        as the paper's code did (the seed index is then irrelevant)."""
        self.key = key
        self.replay = paper_rng
        self.lam, self.mu, self.K, self.theta, self.N = lam, mu, K, theta, N
        self.cc = cc
        self.record = trace
        self.trace_interval = trace_interval     # bounds trace memory on long runs

    cdef inline void _after_hook(self, TcpState s, Trace cw, double now) except *:
        if s.cwnd < self.min_cwnd or s.cwnd != s.cwnd:    # NaN is kept: the run's check reports it
            self.min_cwnd = s.cwnd
        if self.record:
            cw.add(now, s.cwnd)

    cdef inline void _on_drop(self, TcpState s, Trace cw, double now) except *:
        """Every drop calls the algorithm's loss handler at once (no retransmission)."""
        if self.cc is not None:
            s.now = now
            self.cc.cwnd_event(s, CA_EVENT_DROP)
            self._after_hook(s, cw, now)

    def run(self):
        cdef EventQueue events = EventQueue(4 * self.K + 64)
        cdef QueueLink link = QueueLink(events, self.K, self.theta, EV_DONE, EV_DEADLINE)
        cdef Stream wake_rng = legacy_stream(42) if self.replay else Stream(self.key, "sender")
        cdef Stream svc_rng = wake_rng if self.replay else Stream(self.key, "service")
        cdef TcpState s = TcpState()
        cdef double[::1] arrival = np.empty(self.N, dtype=np.float64)
        cdef Trace cw = Trace(self.trace_interval)
        cdef long created = 0, served = 0, dropped = 0, burst, i
        cdef long in_flight = 0
        cdef double now = 0.0, delay_sum = 0.0, svc
        cdef long long pid
        cdef Event ev
        cdef bint controlled = self.cc is not None
        self.min_cwnd = 0.0

        if controlled:
            s.now = 0.0
            self.cc.init(s)
            if self.record:
                cw.add(0.0, s.cwnd)
        events.push(0.0, EV_WAKE, 0)
        while not events.empty():
            ev = events.pop()
            if ev.time < now:
                violated(self.key, f"time went back from {now} to {ev.time}")
            now = ev.time
            if ev.kind == EV_WAKE:
                burst = 1 if not controlled else <long>floor(s.cwnd) - in_flight
                if controlled and in_flight == 0 and burst <= 0:
                    # nothing in the router and a window below one packet: no ACK can ever
                    # come, so the published sender would sleep and wake for ever
                    violated(self.key, f"congestion window {s.cwnd} < 1 with nothing in flight "
                                       f"(the sender can never send again; {created} of {self.N} sent)")
                if burst > self.N - created:
                    burst = self.N - created
                for i in range(burst):
                    pid = created
                    created += 1
                    svc = (svc_rng.legacy_exponential(1.0 / self.mu) if self.replay
                           else svc_rng.exponential(self.mu))
                    arrival[pid] = now
                    in_flight += 1
                    if not link.arrive(pid, now, svc):
                        dropped += 1
                        in_flight -= 1
                        self._on_drop(s, cw, now)
                if created < self.N:
                    events.push(now + (wake_rng.legacy_exponential(1.0 / self.lam) if self.replay
                                       else wake_rng.exponential(self.lam)), EV_WAKE, 0)
            elif ev.kind == EV_DONE:
                pid = link.complete(now)
                served += 1
                in_flight -= 1
                delay_sum += now - arrival[pid]
                if controlled:
                    s.now = now
                    self.cc.cong_avoid(s, 1)
                    self._after_hook(s, cw, now)
            else:
                if link.expire(now) >= 0:
                    dropped += 1
                    in_flight -= 1
                    self._on_drop(s, cw, now)

        if link.last_deadline > now:
            now = link.last_deadline      # the last idle deadline timer ends the published run
        if served + dropped != self.N or in_flight != 0 or link.in_system() != 0:
            violated(self.key, f"conservation: served {served} + dropped {dropped} != N {self.N} "
                               f"(in flight {in_flight})")
        if link.max_in_system > self.K:
            violated(self.key, f"{link.max_in_system} packets in a system of capacity K={self.K}")
        if controlled and not (self.min_cwnd >= 0):       # NaN too
            violated(self.key, f"congestion window {self.min_cwnd} (negative or NaN)")
        metrics = {
            "throughput": served / now if now > 0 else 0.0,
            "avg_delay": delay_sum / served if served else float("nan"),
            "loss_rate": 100.0 * dropped / self.N,
            "sent": self.N, "served": served, "dropped": dropped,
            "drops_overflow": link.drops_overflow, "drops_deadline": link.drops_deadline,
            "blocking_prob": <double>link.drops_overflow / self.N,  # cdivision: integer division without the cast
            "mean_in_system": link.area_in_system / now if now > 0 else 0.0,
            "max_in_system": link.max_in_system,
            "end_time": now, "events": events.pushed,
            "cwnd_floor_hits": getattr(self.cc, "floor_hits", 0) if controlled else 0,
        }
        out = {"metrics": metrics}
        if self.record:
            out["trace"] = cw.as_dict("cwnd")
        return out
