"""Packet network: serialisation + propagation timing, DropTail, multi-hop routes, packet pool."""
import pytest

from simulator.core.events import EventQueue
from simulator.net.network import Network

DONE, ARRIVE = 0, 1


class Harness:
    """Drives a Network from Python with packets injected through a tiny compiled helper."""

    def __init__(self, links, route, plan=False):
        self.events = EventQueue()
        self.net = Network(self.events, DONE, ARRIVE, 1)
        ids = [self.net.add_link(*spec) for spec in links]
        self.net.set_route(0, 0, [ids[i] for i in route])
        if plan:
            self.net.plan()

    def run(self, after_done=None):
        """Process every event; returns (packet, time) of each delivery.  `after_done(now)` is called
        after each link-done event; self.most_queued is the largest number of queued events seen;
        self.dropped lists (packet, time) of each drop reported at an arrival."""
        out, self.most_queued, self.dropped = [], 0, []
        while len(self.events):
            self.most_queued = max(self.most_queued, len(self.events))
            now, _, kind, data = self.events.next()
            if kind == DONE:
                self.net.py_link_done(data, now)
                if after_done:
                    after_done(now)
            else:
                r = self.net.py_arrive(data, now)
                if r == 0:
                    self.dropped.append((data, now))
                if r == 1:
                    out.append((data, now))
                    self.net.py_free(data)
        return out


@pytest.mark.parametrize("plan", [False, True])
def test_one_packet_pays_serialisation_and_propagation_on_each_hop(plan):
    h = Harness([(1e6, 0.010, 10), (2e6, 0.005, 10)], [0, 1], plan)
    h.net.py_send(0, 0, 0, 0.0, 1000)              # 1000 bytes: 8 ms at 1 Mbit/s, 4 ms at 2
    (_, t), = h.run()
    assert t == pytest.approx(0.008 + 0.010 + 0.004 + 0.005)
    assert h.net.in_network == 0


@pytest.mark.parametrize("plan", [False, True])
def test_back_to_back_packets_queue_and_droptail_drops_the_excess(plan):
    h = Harness([(1e6, 0.0, 2)], [0], plan)
    accepted = [h.net.py_send(0, 0, seq, 0.0, 1000) for seq in range(5)]
    assert accepted == [1, 1, 1, 0, 0]              # one serialising + 2 waiting; 2 dropped
    times = [t for _, t in h.run()]
    assert times == pytest.approx([0.008, 0.016, 0.024])
    assert h.net.link_stats(0)["drops"] == 2


def test_rate_change_applies_to_the_next_packet():
    h = Harness([(1e6, 0.0, 5)], [0])
    h.net.py_send(0, 0, 0, 0.0, 1000)
    h.net.py_send(0, 0, 1, 0.0, 1000)
    h.net.set_rate(0, 4e6)
    assert [t for _, t in h.run()] == pytest.approx([0.008, 0.010])


def test_bad_links_and_routes_are_rejected():
    h = Harness([(1e6, 0.0, 5)], [0])
    with pytest.raises(ValueError, match="rate > 0"):
        h.net.add_link(0, 0.01, 5)
    with pytest.raises(ValueError, match="does not exist"):
        h.net.set_route(0, 1, [7])


@pytest.mark.parametrize("plan", [False, True])
def test_random_loss_on_a_link_drops_after_serialisation(plan):
    from simulator.core.rng import Stream
    from simulator.net.impairments import BernoulliLoss
    h = Harness([(1e9, 0.0, 5000)], [0])
    h.net.set_loss(0, BernoulliLoss(0.3, Stream("k", "loss")))
    if plan:
        h.net.plan()
    for seq in range(4000):
        h.net.py_send(0, 0, seq, 0.0, 100)
    arrived = len(h.run())
    assert arrived == pytest.approx(0.7 * 4000, abs=4 * (0.21 * 4000) ** 0.5)
    assert h.net.random_losses == 4000 - arrived
    assert h.net.link_stats(0)["sent_pkts"] == 4000      # lost packets still used the link


def test_packets_on_a_wire_hold_one_queued_event_per_link():
    # 200 back-to-back packets, 8 us each on a 100 ms wire: up to 200 propagate at once, but only
    # the wire's head (and the link's serialisation) has an event queued
    h = Harness([(1e8, 0.100, 500)], [0])
    for seq in range(200):
        h.net.py_send(0, 0, seq, 0.0, 100)
    out = h.run()
    assert h.most_queued <= 2
    assert [pid for pid, _ in out] == list(range(200))
    assert [t for _, t in out] == pytest.approx([(k + 1) * 8e-6 + 0.100 for k in range(200)])


def test_a_delay_cut_lets_later_packets_overtake_those_already_on_the_wire():
    h = Harness([(1e6, 0.100, 50)], [0])
    for seq in range(4):
        h.net.py_send(0, 0, seq, 0.0, 1000)            # 8 ms each

    def cut(now):
        if now == pytest.approx(0.016):
            h.net.set_delay(0, 0.0)                     # packets 0, 1 already on the wire

    out = h.run(after_done=cut)
    assert [pid for pid, _ in out] == [2, 3, 0, 1]
    assert [t for _, t in out] == pytest.approx([0.024, 0.032, 0.108, 0.116])


@pytest.mark.parametrize("reorder", [False, True])
def test_jitter_adds_delay_and_reorders_only_if_allowed(reorder):
    from simulator.core.rng import Stream
    from simulator.net.impairments import Jitter
    h = Harness([(1e8, 0.010, 100)], [0])
    h.net.set_jitter(0, Jitter(0.002, 0.002, "uniform", Stream("k", "jitter"), reorder=reorder))
    for seq in range(50):
        h.net.py_send(0, 0, seq, 0.0, 100)
    out = h.run()
    times = [t for _, t in out]
    assert times == sorted(times) and len(out) == 50     # each delivered at its own time
    assert times[0] > 8e-6 + 0.010                       # serialisation + delay + some jitter
    assert ([pid for pid, _ in out] != list(range(50))) == reorder   # overtaking only if allowed
    assert h.net.in_network == 0


@pytest.mark.parametrize("plan", [False, True])
def test_a_deep_queue_grows_its_waiting_room_and_keeps_the_order(plan):
    h = Harness([(1e9, 0.0, 100_000)], [0], plan)
    assert all(h.net.py_send(0, 0, seq, 0.0, 100) for seq in range(5000))
    assert h.net.queue_length(0) == 4999
    assert [pid for pid, _ in h.run()] == list(range(5000))
    assert h.net.link_stats(0)["max_queue"] == 4999


def test_plan_takes_events_off_fifo_links_with_fixed_rate_and_delay():
    from simulator.core.rng import Stream
    from simulator.net.impairments import Jitter
    from simulator.net.queue_disc import FifoQueue
    events = EventQueue()
    net = Network(events, DONE, ARRIVE, 3)
    a, b, shared, after, jittered, behind, disc, timed = (net.add_link(1e9, 0.001, 100) for _ in range(8))
    net.set_route(0, 0, [a, shared, after])       # `shared` is fed by two links, `after` by one
    net.set_route(1, 0, [b, shared, after])
    net.set_route(2, 0, [jittered, behind, timed])
    net.set_route(2, 1, [disc, timed])
    net.set_jitter(jittered, Jitter(0.001, 0.001, "uniform", Stream("k", "j"), reorder=False))
    net.set_queue(disc, FifoQueue(10))
    net.plan(timed_links=[timed])
    modes = net.link_modes()
    # first links and a shared link take their arrival events but no end-of-serialisation event; a link fed
    # only by one steady link takes neither; jitter, a discipline or a changing rate keep both
    assert [modes[k] for k in (a, b, shared, after)] == ["lazy", "lazy", "lazy", "eager"]
    assert [modes[k] for k in (jittered, behind, disc, timed)] == ["events", "lazy", "events", "events"]
    with pytest.raises(ValueError, match="timed_links"):
        net.set_rate(after, 2e9)
    net.set_rate(timed, 2e9)


def test_a_planned_network_delivers_and_drops_at_the_same_times_with_fewer_events():
    """Bursts into a slow, shallow second hop: every delivery and every drop (reported when the packet
    would have reached the full buffer) at the same time as with two events per packet per link."""
    def run(plan):
        h = Harness([(1e8, 0.002, 1000), (1e6, 0.010, 3), (1e9, 0.001, 1000)], [0, 1, 2], plan)
        for burst in range(3):
            h.events.schedule(0.05 * burst, 9, burst)
        out = []
        while len(h.events):
            now, _, kind, data = h.events.next()
            if kind == 9:                                     # a burst of 6 packets of 1000 bytes
                for seq in range(6):
                    h.net.py_send(0, 0, 6 * data + seq, now, 1000)
            elif kind == DONE:
                h.net.py_link_done(data, now)
            else:
                r = h.net.py_arrive(data, now)
                if r in (0, 1):
                    out.append(("dropped" if r == 0 else "delivered", now))
                if r == 1:
                    h.net.py_free(data)
        return out, h.events.popped, h.net.link_stats(1)["drops"]
    (planned, n_planned, drops_planned), (stepped, n_stepped, drops_stepped) = run(True), run(False)
    assert planned == stepped
    assert drops_planned == drops_stepped == 3 * 2         # 1 serialising + 3 waiting of each 6
    assert [w for w, _ in planned].count("dropped") == 6
    assert n_planned < n_stepped / 3


def test_a_link_fed_by_alike_first_links_merges_once_the_smallest_packet_is_known():
    """A lazy link fed by several first links of one rate and one delay takes at once, with no arrival event,
    a packet of the smallest size sent onto an idle one (Network._depart): only once the model has said what
    the smallest size is (size_floor), never on the sampled link, not when the first links differ."""
    def modes(size_floor, monitored=-1, second_delay=0.001):
        net = Network(EventQueue(), DONE, ARRIVE, 2)
        a, b, shared = net.add_link(1e9, 0.001, 100), net.add_link(1e9, second_delay, 100), net.add_link(1e8, 0.01, 100)
        net.set_route(0, 0, [a, shared])
        net.set_route(1, 0, [b, shared])
        net.size_floor, net.monitored = size_floor, monitored
        net.plan()
        return net.link_modes()[shared]
    assert modes(0) == "lazy"
    assert modes(64) == "merge"
    assert modes(64, monitored=2) == "lazy"
    assert modes(64, second_delay=0.002) == "lazy"
