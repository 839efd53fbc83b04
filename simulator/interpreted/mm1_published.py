"""The as_published M/M/1 model in plain Python: the interpreted path of the benchmark.

A line-by-line mirror of the compiled model: the same components (event queue with
(time, sequence) tie-breaking, queue link, random streams, algorithm objects with the same
hooks) and the same event order, so both paths give bit-identical summaries.  Tests check that;
benchmarks/speed.py times one against the other.
"""
import heapq
import math

from simulator.core.seeding import python_stream

WAKE, DONE, DEADLINE = 0, 1, 2
DROP = 3                      # CA_EVENT_DROP


class EventQueue:
    def __init__(self):
        self.heap = []
        self.next_seq = 0

    def push(self, time, kind, data):
        heapq.heappush(self.heap, (time, self.next_seq, kind, data))
        self.next_seq += 1

    def pop(self):
        return heapq.heappop(self.heap)

    def empty(self):
        return not self.heap


class QueueLink:
    """Mirror of net/queue_link.pyx (one deadline event at a time, for the waiting head)."""

    def __init__(self, events, capacity, theta):
        self.events, self.capacity, self.theta = events, capacity, theta
        self.waiting = []                       # (id, arrival, service)
        self.in_service = -1
        self.busy = False
        self.deadline_pending = False
        self.last_deadline = -math.inf
        self.drops_overflow = self.drops_deadline = self.served = 0

    def in_system(self):
        return len(self.waiting) + (1 if self.busy else 0)

    def arrive(self, tx, now, svc):
        if self.in_system() >= self.capacity:
            self.drops_overflow += 1
            return False
        if not math.isinf(self.theta):
            self.last_deadline = now + self.theta
        if not self.busy:
            self.busy, self.in_service = True, tx
            self.events.push(now + svc, DONE, tx)
        else:
            self.waiting.append((tx, now, svc))
            self.arm()
        return True

    def arm(self):
        if self.waiting and not self.deadline_pending and not math.isinf(self.theta):
            self.deadline_pending = True
            self.events.push(self.waiting[0][1] + self.theta, DEADLINE, 0)

    def complete(self, now):
        done = self.in_service
        self.served += 1
        if self.waiting:
            self.in_service, _, svc = self.waiting.pop(0)
            self.events.push(now + svc, DONE, self.in_service)
        else:
            self.busy, self.in_service = False, -1
        return done

    def expire(self, now):
        tx = -1
        self.deadline_pending = False
        if self.waiting and self.waiting[0][1] + self.theta <= now:
            tx = self.waiting.pop(0)[0]
            self.drops_deadline += 1
        self.arm()
        return tx


class State:
    __slots__ = ("cwnd", "ssthresh", "now")

    def __init__(self):
        self.cwnd, self.ssthresh, self.now = 1.0, 1e9, 0.0


class Tahoe:
    def init(self, s):
        s.cwnd, s.ssthresh = 1.0, 10.0

    def cong_avoid(self, s, acked):
        s.cwnd += s.cwnd if s.cwnd < s.ssthresh else 1.0 / s.cwnd

    def cwnd_event(self, s, event):
        if event == DROP:
            s.ssthresh = max(math.floor(s.cwnd / 2.0), 1.0)
            s.cwnd = 1.0


class Reno:
    def init(self, s):
        s.cwnd, s.ssthresh = 1.0, 10.0
        self.ack_count, self.last_reaction, self.floor_hits = 0, -math.inf, 0
        self.slow_start_step = False

    def cong_avoid(self, s, acked):
        if self.slow_start_step:      # the one slow-start ACK after a reacted loss
            s.cwnd += 1.0
            self.ack_count = 0
            self.slow_start_step = False
        elif s.cwnd < s.ssthresh:
            s.cwnd += 1.0
        else:
            self.ack_count += 1
            if self.ack_count >= s.cwnd:
                s.cwnd += 1.0
                self.ack_count = 0

    def cwnd_event(self, s, event):
        if event != DROP or s.now - self.last_reaction < 1.0:
            return
        self.last_reaction = s.now
        s.ssthresh = math.floor(s.cwnd / 2.0)
        s.cwnd = s.ssthresh
        self.slow_start_step = True
        if s.cwnd < 1.0:
            s.cwnd = 1.0
            self.floor_hits += 1


class Cubic:
    C, BETA = 0.4, 0.2

    def init(self, s):
        s.cwnd, s.ssthresh = 1.0, math.inf
        self.w_max, self.epoch = 1.0, s.now
        self.k = math.cbrt(self.w_max * (1.0 - self.BETA) / self.C)

    def cong_avoid(self, s, acked):
        d = s.now - self.epoch - self.k
        s.cwnd = max(self.C * (d * d * d) + self.w_max, 1.0)

    def cwnd_event(self, s, event):
        if event == DROP:
            self.w_max = s.cwnd
            s.cwnd = (1.0 - self.BETA) * s.cwnd
            self.epoch = s.now
            self.k = math.cbrt(self.w_max * (1.0 - self.BETA) / self.C)


# by catalogue name, as the as_published variant names them (simulator/scenarios/mm1_queue.py)
ALGORITHMS = {"none": None, "published_tahoe": Tahoe, "published_reno": Reno, "published_cubic": Cubic}


def run(key, lam, mu, K, theta, N, algorithm):
    """Same arguments and metrics (throughput, avg_delay, loss_rate, ...) as PublishedMM1."""
    events = EventQueue()
    link = QueueLink(events, K, theta)
    _, wake_exp = python_stream(key, "sender")
    _, svc_exp = python_stream(key, "service")
    cc = ALGORITHMS[algorithm]() if ALGORITHMS[algorithm] else None
    s = State()
    arrival = [0.0] * N
    created = served = dropped = in_flight = 0
    delay_sum = now = 0.0
    if cc:
        cc.init(s)
    events.push(0.0, WAKE, 0)
    while not events.empty():
        now, _, kind, data = events.pop()
        if kind == WAKE:
            burst = 1 if cc is None else math.floor(s.cwnd) - in_flight
            for _ in range(min(burst, N - created)):
                pid = created
                created += 1
                svc = svc_exp(mu)
                arrival[pid] = now
                in_flight += 1
                if not link.arrive(pid, now, svc):
                    dropped += 1
                    in_flight -= 1
                    if cc:
                        s.now = now
                        cc.cwnd_event(s, DROP)
            if created < N:
                events.push(now + wake_exp(lam), WAKE, 0)
        elif kind == DONE:
            pid = link.complete(now)
            served += 1
            in_flight -= 1
            delay_sum += now - arrival[pid]
            if cc:
                s.now = now
                cc.cong_avoid(s, 1)
        elif link.expire(now) >= 0:
            dropped += 1
            in_flight -= 1
            if cc:
                s.now = now
                cc.cwnd_event(s, DROP)
    now = max(now, link.last_deadline)
    return {"throughput": served / now if now > 0 else 0.0,
            "avg_delay": delay_sum / served if served else float("nan"),
            "loss_rate": 100.0 * dropped / N, "served": served, "dropped": dropped,
            "end_time": now, "events": events.next_seq}
