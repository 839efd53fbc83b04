"""The M/M/1 study with a standard TCP (variant `standard`).

Application: N packets written at Poisson(lambda) instants.  Sender -> M/M/1/K bottleneck (same
buffer and waiting-deadline rule as the published model) -> propagation delay -> receiver, whose
cumulative ACK returns after the same propagation delay on an uncongested path.  The TCP sender
does ACK clocking, duplicate-ACK fast retransmit, the algorithm's loss recovery, RFC 6298
timeouts and retransmissions.  "none" means no transport control: each packet goes straight
into the queue when written and is never retransmitted (the paper's bypass path).
"""
import math

from libc.math cimport INFINITY
from libc.stdlib cimport free, malloc, realloc

from simulator.core.events cimport Event, EventQueue
from simulator.core.invariants import violated
from simulator.core.rng cimport Stream
from simulator.core.trace cimport Trace
from simulator.net.queue_link cimport QueueLink
from simulator.tcp.cc import catalogue
from simulator.tcp.receiver cimport TcpReceiver
from simulator.tcp.recovery cimport ACT_RETRANSMIT
from simulator.tcp.rto cimport RtoEstimator
from simulator.tcp.sender cimport TcpSender

cdef enum:
    EV_APP = 0
    EV_DONE = 1
    EV_DEADLINE = 2
    EV_RX = 3
    EV_ACK = 4
    EV_RTO = 5


# the textbook sender: cumulative ACKs, each algorithm with its declared loss recovery
TEXTBOOK = catalogue.Stack("textbook", sack=False)


def make_sender(str algorithm, long long n, dict p):
    """The catalogue's algorithm (simulator/tcp/cc/catalogue/) on the textbook sender."""
    growth, recovery = catalogue.build(algorithm, TEXTBOOK)
    rto = RtoEstimator(float(p["rto_initial"]), float(p["rto_min"]))
    return TcpSender(n, growth, recovery, rto, float(p["init_cwnd"]), 1e9)


cdef class StandardMM1:
    cdef str key
    cdef double lam, mu, theta, prop
    cdef long K
    cdef long long N
    cdef TcpSender sender          # None for "none"
    cdef bint record
    cdef double trace_interval
    # one entry per transmission (a retransmitted packet has several)
    cdef long long* tx_seq
    cdef double* tx_time
    cdef long long n_tx, tx_cap
    # the run's components
    cdef EventQueue events
    cdef QueueLink link
    cdef Stream svc_rng
    cdef long long drops, in_prop
    cdef long long rto_gen
    cdef double rto_scheduled

    @staticmethod
    def from_params(str key, dict p):
        theta = math.inf if p["theta"] in (None, "inf") else float(p["theta"])
        sender = None if p["algorithm"] == "none" else make_sender(p["algorithm"], int(p["N"]), p)
        return StandardMM1(key, float(p["lambda"]), float(p["mu"]), int(p["K"]), theta, int(p["N"]),
                           float(p["prop_delay"]), sender, bool(p["trace"]),
                           float(p.get("trace_interval") or 0.0))

    def __init__(self, str key, double lam, double mu, long K, double theta, long long N,
                 double prop_delay, TcpSender sender=None, bint trace=False,
                 double trace_interval=0.0):
        if prop_delay < 0:
            raise ValueError(f"prop_delay must be >= 0, got {prop_delay}")
        self.key = key
        self.lam, self.mu, self.K, self.theta, self.N = lam, mu, K, theta, N
        self.prop = prop_delay
        self.sender = sender
        self.record = trace
        self.trace_interval = trace_interval
        self.tx_cap = N + 16
        self.tx_seq = <long long*>malloc(self.tx_cap * sizeof(long long))
        self.tx_time = <double*>malloc(self.tx_cap * sizeof(double))
        if self.tx_seq == NULL or self.tx_time == NULL:
            raise MemoryError()

    def __dealloc__(self):
        free(self.tx_seq)
        free(self.tx_time)

    cdef void transmit(self, long long seq, double now) except *:
        cdef long long tx = self.n_tx
        if tx == self.tx_cap:
            self.tx_cap *= 2
            self.tx_seq = <long long*>realloc(self.tx_seq, self.tx_cap * sizeof(long long))
            self.tx_time = <double*>realloc(self.tx_time, self.tx_cap * sizeof(double))
            if self.tx_seq == NULL or self.tx_time == NULL:
                raise MemoryError()
        self.n_tx += 1
        self.tx_seq[tx] = seq
        self.tx_time[tx] = now
        if not self.link.arrive(tx, now, self.svc_rng.exponential(self.mu)):
            self.drops += 1

    cdef void send_allowed(self, double now) except *:
        cdef long long seq = self.sender.next_to_send(now)
        while seq >= 0:
            self.transmit(seq, now)
            seq = self.sender.next_to_send(now)
        self.arm_timer()

    cdef void arm_timer(self) except *:
        # Lazy RFC 6298 timer: one pending event; when it fires early it re-arms at the deadline.
        cdef double deadline = self.sender.rto_deadline
        if deadline < self.rto_scheduled:
            self.rto_gen += 1
            self.rto_scheduled = deadline
            self.events.push(deadline, EV_RTO, self.rto_gen)

    def run(self):
        self.events = EventQueue(4 * self.K + 64)
        self.link = QueueLink(self.events, self.K, self.theta, EV_DONE, EV_DEADLINE)
        self.svc_rng = Stream(self.key, "service")
        cdef Stream app_rng = Stream(self.key, "application")
        cdef TcpReceiver receiver = TcpReceiver(self.N)
        cdef Trace cwnd = Trace(self.trace_interval)
        cdef bint controlled = self.sender is not None
        cdef long long written = 0, delivered = 0, acks_in_flight = 0, tx, ack
        cdef double now = 0.0, delay_sum = 0.0, completion = 0.0, last_delivery = 0.0
        cdef Event ev
        cdef int action
        self.rto_scheduled = INFINITY
        if controlled and self.record:
            cwnd.add(0.0, self.sender.s.cwnd)
        self.events.push(0.0, EV_APP, 0)
        while not self.events.empty():
            ev = self.events.pop()
            if ev.time < now:
                violated(self.key, f"time went back from {now} to {ev.time}")
            now = ev.time
            if ev.kind == EV_APP:
                written += 1
                if written < self.N:
                    self.events.push(now + app_rng.exponential(self.lam), EV_APP, 0)
                if controlled:
                    self.sender.app_write(1)
                    self.send_allowed(now)
                else:
                    self.transmit(written - 1, now)
            elif ev.kind == EV_DONE:
                tx = self.link.complete(now)
                self.in_prop += 1
                self.events.push(now + self.prop, EV_RX, tx)
            elif ev.kind == EV_DEADLINE:
                if self.link.expire(now) >= 0:
                    self.drops += 1
            elif ev.kind == EV_RX:
                self.in_prop -= 1
                delivered += 1
                delay_sum += now - self.tx_time[ev.data]
                ack = receiver.on_data(self.tx_seq[ev.data])
                if receiver.unique == self.N and completion == 0.0:
                    completion = now
                last_delivery = now
                if controlled:
                    acks_in_flight += 1
                    self.events.push(now + self.prop, EV_ACK, ack)
            elif ev.kind == EV_ACK:
                acks_in_flight -= 1
                action = self.sender.on_ack(ev.data, now)
                if action == ACT_RETRANSMIT:
                    self.sender.mark_retransmit(self.sender.s.snd_una, now)
                    self.transmit(self.sender.s.snd_una, now)
                self.send_allowed(now)
                if self.record:
                    cwnd.add(now, self.sender.s.cwnd)
                if self.sender.s.snd_una >= self.N:
                    break                       # every packet acknowledged: the flow is done
            elif ev.kind == EV_RTO:
                if ev.data != self.rto_gen:
                    continue                    # superseded by an earlier deadline
                self.rto_scheduled = INFINITY
                if self.sender.rto_deadline == INFINITY:
                    continue
                if now < self.sender.rto_deadline:
                    self.arm_timer()
                    continue
                self.sender.on_timeout(now)
                if self.record:
                    cwnd.add(now, self.sender.s.cwnd)
                self.send_allowed(now)

        return self.summary(receiver, cwnd, now, delivered, delay_sum, completion,
                            last_delivery, acks_in_flight)

    cdef dict summary(self, TcpReceiver receiver, Trace cwnd, double now, long long delivered,
                      double delay_sum, double completion, double last_delivery,
                      long long acks_in_flight):
        cdef long long in_queue = self.link.in_system()
        if self.n_tx != delivered + self.drops + in_queue + self.in_prop:
            violated(self.key, f"conservation: {self.n_tx} transmissions != {delivered} delivered + "
                               f"{self.drops} dropped + {in_queue + self.in_prop} in flight")
        if self.link.max_in_system > self.K:
            violated(self.key, f"{self.link.max_in_system} packets in a system of capacity K={self.K}")
        if self.sender is not None and self.sender.min_cwnd < 1.0:
            violated(self.key, f"congestion window fell to {self.sender.min_cwnd} (< 1 packet)")
        end = completion if receiver.unique == self.N else last_delivery
        metrics = {
            "throughput": receiver.unique / end if end > 0 else 0.0,
            "avg_delay": delay_sum / delivered if delivered else float("nan"),
            "loss_rate": 100.0 * self.drops / self.n_tx if self.n_tx else 0.0,
            "sent": self.n_tx, "served": self.link.served, "dropped": self.drops,
            "delivered": delivered, "delivered_unique": receiver.unique, "duplicates": receiver.duplicates,
            "drops_overflow": self.link.drops_overflow, "drops_deadline": self.link.drops_deadline,
            "blocking_prob": self.link.drops_overflow / self.n_tx if self.n_tx else 0.0,
            "mean_in_system": self.link.area_in_system / now if now > 0 else 0.0,
            "max_in_system": self.link.max_in_system,
            "in_flight_at_end": in_queue + self.in_prop,
            "end_time": end, "events": self.events.pushed,
        }
        if self.sender is not None:
            metrics.update({
                "retransmissions": self.sender.retransmissions,
                "timeouts": self.sender.timeouts,
                "fast_retransmits": self.sender.fast_retransmits,
                "mean_rtt": (self.sender.rtt_sum / self.sender.rtt_samples
                             if self.sender.rtt_samples else float("nan")),
                "final_cwnd": self.sender.s.cwnd,
            })
        out = {"metrics": metrics}
        if self.record and self.sender is not None:
            out["trace"] = cwnd.as_dict("cwnd")
        return out
