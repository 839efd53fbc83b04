"""The M/M/1 study with a standard TCP (variant `standard`).

Application: N packets written at Poisson(lambda) instants.  Sender -> M/M/1/K bottleneck (same
buffer and waiting-deadline rule as the published model) -> propagation delay -> receiver, whose
cumulative ACK returns after the same propagation delay on an uncongested path.  The TCP sender
does ACK clocking, duplicate-ACK fast retransmit, the algorithm's loss recovery, RFC 6298
timeouts and retransmissions.  "none" means no transport control: each packet goes straight
into the queue when written and is never retransmitted (the paper's bypass path).

An algorithm that needs delivery-rate samples and pacing (BBR) runs instead on the SACK sender of
the network models (simulator/tcp/sack_sender.pyx: RFC 6675 recovery, timestamps, rate samples,
pacing), app-limited: it sends only packets the application has written and marks its rate
samples app-limited as Linux does.  Its receiver (simulator/tcp/sack_receiver.pyx) acknowledges
every packet at once, as the textbook receiver does, with the SACK of an out-of-order packet and
the echoed timestamp; a pacing timer event sends what pacing held back.
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
from simulator.tcp.cc.base cimport TcpState
from simulator.tcp.receiver cimport TcpReceiver
from simulator.tcp.recovery cimport ACT_RETRANSMIT
from simulator.tcp.rto cimport RtoEstimator
from simulator.tcp.sack_receiver cimport SackReceiver
from simulator.tcp.sack_sender cimport SackSender
from simulator.tcp.sender cimport TcpSender

cdef enum:
    EV_APP = 0
    EV_DONE = 1
    EV_DEADLINE = 2
    EV_RX = 3
    EV_ACK = 4
    EV_RTO = 5
    EV_PACE = 6


# the textbook sender: cumulative ACKs, each algorithm with its declared loss recovery
TEXTBOOK = catalogue.Stack("textbook", sack=False)


def make_sender(str algorithm, long long n, dict p, str key=""):
    """The catalogue's algorithm (simulator/tcp/cc/catalogue/) on the textbook sender, or on the
    app-limited SACK sender if it needs delivery-rate samples and pacing (BBR)."""
    rto = RtoEstimator(float(p["rto_initial"]), float(p["rto_min"]))
    if catalogue.algorithm(algorithm).needs_rate_samples:
        cc, _ = catalogue.build(algorithm, catalogue.Stack("textbook", sack=True, key=key))
        return SackSender(cc, rto, float(p["init_cwnd"]), 1448.0, window_cap(n), bulk=False)
    growth, recovery = catalogue.build(algorithm, TEXTBOOK)
    return TcpSender(n, growth, recovery, rto, float(p["init_cwnd"]), 1e9)


def window_cap(long long n):
    """Scoreboard size of the SACK sender and receiver: the N packets, at most the network models'
    2^17 (a window beyond it stops the run with an error)."""
    return min(max(n, 1), 1 << 17)


cdef class StandardMM1:
    cdef str key
    cdef double lam, mu, theta, prop
    cdef long K
    cdef long long N
    cdef TcpSender sender          # the textbook sender; None for "none" and on the SACK sender
    cdef SackSender sack           # the SACK sender (algorithms that need rate samples), or None
    cdef TcpState st               # the state of whichever sender runs
    cdef bint record
    cdef double trace_interval
    # one entry per transmission (a retransmitted packet has several)
    cdef long long* tx_seq
    cdef double* tx_time
    cdef long long n_tx, tx_cap
    # on the SACK sender: the ACK each transmission's arrival sent (ack, SACKed packet, echoed time)
    cdef long long* ack_no
    cdef long long* ack_sack
    cdef double* ack_ts
    # the run's components
    cdef EventQueue events
    cdef QueueLink link
    cdef Stream svc_rng
    cdef long long drops, in_prop
    cdef long long rto_gen
    cdef readonly long long pace_gen   # pacing events scheduled (SACK sender)
    cdef double rto_scheduled, pace_scheduled

    @staticmethod
    def from_params(str key, dict p):
        theta = math.inf if p["theta"] in (None, "inf") else float(p["theta"])
        sender = None if p["algorithm"] == "none" else make_sender(p["algorithm"], int(p["N"]), p, key)
        return StandardMM1(key, float(p["lambda"]), float(p["mu"]), int(p["K"]), theta, int(p["N"]),
                           float(p["prop_delay"]), sender, bool(p["trace"]),
                           float(p.get("trace_interval") or 0.0))

    def __init__(self, str key, double lam, double mu, long K, double theta, long long N,
                 double prop_delay, sender=None, bint trace=False, double trace_interval=0.0):
        if prop_delay < 0:
            raise ValueError(f"prop_delay must be >= 0, got {prop_delay}")
        self.key = key
        self.lam, self.mu, self.K, self.theta, self.N = lam, mu, K, theta, N
        self.prop = prop_delay
        if isinstance(sender, SackSender):
            self.sack = sender
            self.st = self.sack.s
        elif sender is not None:
            self.sender = sender
            self.st = self.sender.s
        self.record = trace
        self.trace_interval = trace_interval
        self.tx_cap = N + 16
        self.tx_seq = <long long*>malloc(self.tx_cap * sizeof(long long))
        self.tx_time = <double*>malloc(self.tx_cap * sizeof(double))
        if self.tx_seq == NULL or self.tx_time == NULL:
            raise MemoryError()
        if self.sack is not None:
            self.ack_no = <long long*>malloc(self.tx_cap * sizeof(long long))
            self.ack_sack = <long long*>malloc(self.tx_cap * sizeof(long long))
            self.ack_ts = <double*>malloc(self.tx_cap * sizeof(double))
            if self.ack_no == NULL or self.ack_sack == NULL or self.ack_ts == NULL:
                raise MemoryError()

    def __dealloc__(self):
        free(self.tx_seq)
        free(self.tx_time)
        free(self.ack_no)
        free(self.ack_sack)
        free(self.ack_ts)

    cdef void transmit(self, long long seq, double now) except *:
        cdef long long tx = self.n_tx
        if tx == self.tx_cap:
            self.tx_cap *= 2
            self.tx_seq = <long long*>realloc(self.tx_seq, self.tx_cap * sizeof(long long))
            self.tx_time = <double*>realloc(self.tx_time, self.tx_cap * sizeof(double))
            if self.tx_seq == NULL or self.tx_time == NULL:
                raise MemoryError()
            if self.sack is not None:
                self.ack_no = <long long*>realloc(self.ack_no, self.tx_cap * sizeof(long long))
                self.ack_sack = <long long*>realloc(self.ack_sack, self.tx_cap * sizeof(long long))
                self.ack_ts = <double*>realloc(self.ack_ts, self.tx_cap * sizeof(double))
                if self.ack_no == NULL or self.ack_sack == NULL or self.ack_ts == NULL:
                    raise MemoryError()
        self.n_tx += 1
        self.tx_seq[tx] = seq
        self.tx_time[tx] = now
        if not self.link.arrive(tx, now, self.svc_rng.exponential(self.mu)):
            self.drops += 1

    cdef void send_allowed(self, double now) except *:
        if self.sack is not None:
            self.send_sack(now)
            return
        cdef long long seq = self.sender.next_to_send(now)
        while seq >= 0:
            self.transmit(seq, now)
            seq = self.sender.next_to_send(now)
        self.arm_timer()

    cdef void send_sack(self, double now) except *:
        """What the SACK sender's window, pacing and the written data allow now; if pacing alone
        holds a packet back, a pacing event at the next send time (one pending, like the timer)."""
        cdef SackSender snd = self.sack
        while snd.can_send(now):
            self.transmit(snd.next_segment(now), now)
        if snd.s.pacing_rate > 0 and snd.next_send_time > now and snd.has_data() \
                and snd.in_flight() < <long long>snd.s.cwnd and snd.next_send_time < self.pace_scheduled:
            self.pace_gen += 1
            self.pace_scheduled = snd.next_send_time
            self.events.push(snd.next_send_time, EV_PACE, self.pace_gen)
        self.arm_timer()

    cdef double rto_deadline(self) noexcept:
        return self.sack.rto_deadline if self.sack is not None else self.sender.rto_deadline

    cdef void arm_timer(self) except *:
        # Lazy RFC 6298 timer: one pending event; when it fires early it re-arms at the deadline.
        cdef double deadline = self.rto_deadline()
        if deadline < self.rto_scheduled:
            self.rto_gen += 1
            self.rto_scheduled = deadline
            self.events.push(deadline, EV_RTO, self.rto_gen)

    def run(self):
        self.events = EventQueue(4 * self.K + 64)
        self.link = QueueLink(self.events, self.K, self.theta, EV_DONE, EV_DEADLINE)
        self.svc_rng = Stream(self.key, "service")
        cdef Stream app_rng = Stream(self.key, "application")
        cdef bint on_sack = self.sack is not None
        cdef TcpReceiver receiver = None if on_sack else TcpReceiver(self.N)
        # on the SACK sender: every packet acknowledged at once (delack_count 1), with SACK
        cdef SackReceiver sack_rcv = SackReceiver(1, 0.0, window_cap(self.N)) if on_sack else None
        cdef Trace cwnd = Trace(self.trace_interval)
        cdef bint controlled = self.st is not None
        cdef long long written = 0, delivered = 0, acks_in_flight = 0, tx, ack, unique
        cdef double now = 0.0, delay_sum = 0.0, completion = 0.0, last_delivery = 0.0
        cdef Event ev
        cdef int action
        self.rto_scheduled = INFINITY
        self.pace_scheduled = INFINITY
        if controlled and self.record:
            cwnd.add(0.0, self.st.cwnd)
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
                if on_sack:
                    self.sack.app_write(1)
                    self.send_allowed(now)
                elif controlled:
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
                if on_sack:
                    tx = ev.data
                    # the receiver acknowledges at once (delack_count 1): the ACK leaves now
                    if sack_rcv.on_data(self.tx_seq[tx], self.tx_time[tx], now):
                        self.ack_no[tx] = sack_rcv.rcv_nxt
                        self.ack_sack[tx] = sack_rcv.ack_sack
                        self.ack_ts[tx] = sack_rcv.ack_ts
                        acks_in_flight += 1
                        self.events.push(now + self.prop, EV_ACK, tx)
                    unique = sack_rcv.unique
                else:
                    ack = receiver.on_data(self.tx_seq[ev.data])
                    unique = receiver.unique
                    if controlled:
                        acks_in_flight += 1
                        self.events.push(now + self.prop, EV_ACK, ack)
                if unique == self.N and completion == 0.0:
                    completion = now
                last_delivery = now
            elif ev.kind == EV_ACK and on_sack:
                acks_in_flight -= 1
                tx = ev.data
                self.sack.on_ack(self.ack_no[tx], self.ack_sack[tx], self.ack_ts[tx], now)
                self.send_allowed(now)
                if self.record:
                    cwnd.add(now, self.st.cwnd)
                if self.st.snd_una >= self.N:
                    break                       # every packet acknowledged: the flow is done
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
                if self.rto_deadline() == INFINITY:
                    continue
                if now < self.rto_deadline():
                    self.arm_timer()
                    continue
                if on_sack:
                    self.sack.on_timeout(now)
                else:
                    self.sender.on_timeout(now)
                if self.record:
                    cwnd.add(now, self.st.cwnd)
                self.send_allowed(now)
            elif ev.kind == EV_PACE:
                if ev.data != self.pace_gen:
                    continue                    # superseded by an earlier send time
                self.pace_scheduled = INFINITY
                self.send_allowed(now)

        unique = sack_rcv.unique if on_sack else receiver.unique
        return self.summary(unique, sack_rcv.duplicates if on_sack else receiver.duplicates, cwnd, now,
                            delivered, delay_sum, completion, last_delivery, acks_in_flight)

    cdef dict summary(self, long long unique, long long duplicates, Trace cwnd, double now,
                      long long delivered, double delay_sum, double completion, double last_delivery,
                      long long acks_in_flight):
        cdef long long in_queue = self.link.in_system()
        if self.n_tx != delivered + self.drops + in_queue + self.in_prop:
            violated(self.key, f"conservation: {self.n_tx} transmissions != {delivered} delivered + "
                               f"{self.drops} dropped + {in_queue + self.in_prop} in flight")
        if self.link.max_in_system > self.K:
            violated(self.key, f"{self.link.max_in_system} packets in a system of capacity K={self.K}")
        cdef double min_cwnd = (self.sender.min_cwnd if self.sender is not None
                                else self.sack.min_cwnd if self.sack is not None else 1.0)
        if not (min_cwnd >= 1.0):                    # NaN too
            violated(self.key, f"congestion window fell to {min_cwnd} (< 1 packet)")
        end = completion if unique == self.N else last_delivery
        metrics = {
            "throughput": unique / end if end > 0 else 0.0,
            "avg_delay": delay_sum / delivered if delivered else float("nan"),
            "loss_rate": 100.0 * self.drops / self.n_tx if self.n_tx else 0.0,
            "sent": self.n_tx, "served": self.link.served, "dropped": self.drops,
            "delivered": delivered, "delivered_unique": unique, "duplicates": duplicates,
            "drops_overflow": self.link.drops_overflow, "drops_deadline": self.link.drops_deadline,
            "blocking_prob": <double>self.link.drops_overflow / self.n_tx if self.n_tx else 0.0,  # cdivision: the cast keeps the fraction
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
        elif self.sack is not None:
            # fast_retransmits: recovery episodes (each begins with a fast retransmit); mean_rtt
            # of the timestamp samples (every ACK that advances snd_una)
            metrics.update({
                "retransmissions": self.sack.retransmitted,
                "timeouts": self.sack.timeouts,
                "fast_retransmits": self.sack.recoveries,
                "mean_rtt": (self.sack.rtt_sum / self.sack.rtt_samples
                             if self.sack.rtt_samples else float("nan")),
                "final_cwnd": self.sack.s.cwnd,
            })
        out = {"metrics": metrics}
        if self.record and self.st is not None:
            out["trace"] = cwnd.as_dict("cwnd")
        return out
