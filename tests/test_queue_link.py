"""The bottleneck: K counts packets in the system, FIFO service, deadline on waiting only."""
import math

import pytest

from simulator.core.events import EventQueue
from simulator.net.queue_link import QueueLink

DONE, DEADLINE = 1, 2


class LinkHarness:
    """Drives a QueueLink with its own event queue, as a model does."""

    def __init__(self, K, theta):
        self.events = EventQueue()
        self.link = QueueLink(self.events, K, theta, DONE, DEADLINE)

    def arrive(self, tx, now, svc):
        return self.link.offer(tx, now, svc)

    def run(self):
        out = []
        while len(self.events):
            now, _, kind, data = self.events.next()
            if kind == DONE:
                out.append(("done", self.link.finish(now), now))
            else:
                tx = self.link.timeout(now)
                if tx >= 0:
                    out.append(("drop", tx, now))
        return out


def test_buffer_counts_packets_in_system():
    h = LinkHarness(K=3, theta=math.inf)
    assert [h.arrive(i, 0.0, 1.0) for i in range(5)] == [True, True, True, False, False]
    assert h.link.drops_overflow == 2
    assert h.link.number_in_system == 3


def test_fifo_service_and_completion_times():
    h = LinkHarness(K=5, theta=math.inf)
    for i, svc in enumerate([1.0, 2.0, 0.5]):
        h.arrive(i, 0.0, svc)
    assert h.run() == [("done", 0, 1.0), ("done", 1, 3.0), ("done", 2, 3.5)]


def test_deadline_drops_only_waiting_packets():
    h = LinkHarness(K=5, theta=0.5)
    h.arrive(0, 0.0, 2.0)     # served at once: its 2 s service exceeds theta but it is not dropped
    h.arrive(1, 0.1, 1.0)     # waits until t=2 > 0.1 + 0.5: dropped at t=0.6
    out = h.run()
    assert ("drop", 1, pytest.approx(0.6)) in out
    assert ("done", 0, 2.0) in out
    assert h.link.drops_deadline == 1 and h.link.served == 1


def test_rejects_bad_parameters():
    with pytest.raises(ValueError, match="K must be >= 1"):
        LinkHarness(K=0, theta=1.0)
    with pytest.raises(ValueError, match="theta must be > 0"):
        LinkHarness(K=1, theta=0.0)
