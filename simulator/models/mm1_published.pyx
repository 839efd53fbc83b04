"""The M/M/1 paper's model as its published code runs it (variant `as_published`).

A single sender wakes at Poisson(lambda) instants and sends a burst of int(cwnd) - in_flight
new packets ("none": one packet per wake-up); each packet's service time is drawn when it is
created; the router is M/M/1/K with a deadline theta on waiting; an ACK is instant at service
completion; every drop calls the algorithm at once; nothing is retransmitted.
Facts: ../shared/reference/mm1-paper-model.md.
"""
import numpy as np

from libc.math cimport floor

from simulator.core.events cimport Event, EventQueue
from simulator.core.rng cimport Stream
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
    cdef str key

    def __init__(self, str key, double lam, double mu, long K, double theta, long N,
                 CongestionControl cc=None, bint trace=False, bint paper_rng=False):
        """paper_rng: draw every number from one legacy numpy stream seeded 42 in event order,
        as the paper's code did (the seed index is then irrelevant)."""
        self.key = key
        self.replay = paper_rng
        self.lam, self.mu, self.K, self.theta, self.N = lam, mu, K, theta, N
        self.cc = cc
        self.record = trace

    def run(self):
        cdef EventQueue events = EventQueue(4 * self.K + 64)
        cdef QueueLink link = QueueLink(events, self.K, self.theta, EV_DONE, EV_DEADLINE)
        cdef Stream wake_rng = legacy_stream(42) if self.replay else Stream(self.key, "sender")
        cdef Stream svc_rng = wake_rng if self.replay else Stream(self.key, "service")
        cdef TcpState s = TcpState()
        cdef double[::1] arrival = np.empty(self.N, dtype=np.float64)
        cdef double[::1] tr_t = np.empty(2 * self.N + 1 if self.record else 1, dtype=np.float64)
        cdef double[::1] tr_w = np.empty(2 * self.N + 1 if self.record else 1, dtype=np.float64)
        cdef long n_trace = 0, created = 0, served = 0, dropped = 0, burst, i
        cdef long in_flight = 0
        cdef double now = 0.0, delay_sum = 0.0, svc
        cdef long long pid
        cdef Event ev
        cdef bint controlled = self.cc is not None

        if controlled:
            s.now = 0.0
            self.cc.init(s)
            if self.record:
                tr_t[0] = 0.0; tr_w[0] = s.cwnd; n_trace = 1
        events.push(0.0, EV_WAKE, 0)
        while not events.empty():
            ev = events.pop()
            now = ev.time
            if ev.kind == EV_WAKE:
                burst = 1 if not controlled else <long>floor(s.cwnd) - in_flight
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
                        if controlled:
                            s.now = now
                            self.cc.cwnd_event(s, CA_EVENT_DROP)
                            if self.record:
                                tr_t[n_trace] = now; tr_w[n_trace] = s.cwnd; n_trace += 1
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
                    if self.record:
                        tr_t[n_trace] = now; tr_w[n_trace] = s.cwnd; n_trace += 1
            else:
                if link.expire(now) >= 0:
                    dropped += 1
                    in_flight -= 1
                    if controlled:
                        s.now = now
                        self.cc.cwnd_event(s, CA_EVENT_DROP)
                        if self.record:
                            tr_t[n_trace] = now; tr_w[n_trace] = s.cwnd; n_trace += 1

        if link.last_deadline > now:
            now = link.last_deadline      # the last idle deadline timer ends the published run
        if served + dropped != self.N or in_flight != 0 or link.in_system() != 0:
            raise RuntimeError(f"conservation violated in run {self.key}: served {served} + "
                               f"dropped {dropped} != N {self.N} (in flight {in_flight})")
        metrics = {
            "throughput": served / now if now > 0 else 0.0,
            "avg_delay": delay_sum / served if served else float("nan"),
            "loss_rate": 100.0 * dropped / self.N,
            "sent": self.N, "served": served, "dropped": dropped,
            "drops_overflow": link.drops_overflow, "drops_deadline": link.drops_deadline,
            "blocking_prob": link.drops_overflow / self.N,
            "mean_in_system": link.area_in_system / now if now > 0 else 0.0,
            "end_time": now, "events": events.pushed,
            "cwnd_floor_hits": getattr(self.cc, "floor_hits", 0) if controlled else 0,
        }
        out = {"metrics": metrics}
        if self.record:
            out["trace"] = {"t": np.asarray(tr_t[:n_trace]).tolist(),
                            "cwnd": np.asarray(tr_w[:n_trace]).tolist()}
        return out
