"""CoDel and FQ-CoDel (simulator/net/codel.pyx): hand-computed drop times (RFC 8289), the sparse-flow
priority and the fattest-flow drop (RFC 8290, mac80211), and the testbed's ap_queue: fq_codel."""
import math

import pytest

from simulator import registry
from simulator.core.events import EventQueue
from simulator.net.codel import CoDelQueue, FqCoDelQueue
from simulator.scenarios import wifi_testbed as tb

TARGET, INTERVAL = 0.005, 0.100


def clock():
    return EventQueue()


def at(events, t):
    """Move the clock to t (the queue reads events.now)."""
    events.schedule(t)
    events.next()


def backlogged_codel(n=200):
    ev = clock()
    q = CoDelQueue(ev, 1000, target=TARGET, interval=INTERVAL, mtu=0)
    for pid in range(n):
        q.push(pid, 0, 1500)                   # all enqueued at t = 0
    return ev, q


def pop_at(ev, q, t):
    at(ev, t)
    pid = q.pop()
    return pid, q.dropped_at_dequeue()


def test_codel_does_not_drop_while_the_sojourn_time_is_below_target():
    ev, q = backlogged_codel()
    for k, t in enumerate([0.001, 0.002, 0.003, 0.0049]):
        assert pop_at(ev, q, t) == (k, [])
    assert q.drops == 0 and q.codel_state()["first_above_time"] == 0.0


def test_codel_drops_first_after_an_interval_above_target_then_at_interval_over_sqrt_count():
    ev, q = backlogged_codel()
    assert pop_at(ev, q, 0.010) == (0, [])      # above target: the interval starts (ends 0.110)
    assert q.codel_state()["first_above_time"] == pytest.approx(0.110)
    assert pop_at(ev, q, 0.110) == (1, [])      # not yet *after* the interval
    assert pop_at(ev, q, 0.111) == (3, [2])     # first drop; the next packet goes out
    st = q.codel_state()
    assert st["dropping"] and st["count"] == 1 and st["drop_next"] == pytest.approx(0.211)
    assert pop_at(ev, q, st["drop_next"] - 1e-6) == (4, [])
    assert pop_at(ev, q, st["drop_next"]) == (6, [5])     # count 2: next at + interval / sqrt(2)
    nxt = q.codel_state()["drop_next"]
    assert nxt == pytest.approx(0.211 + INTERVAL / math.sqrt(2))
    assert pop_at(ev, q, nxt - 1e-6) == (7, [])
    assert pop_at(ev, q, nxt) == (9, [8])       # count 3
    assert q.codel_state()["drop_next"] == pytest.approx(nxt + INTERVAL / math.sqrt(3))
    assert q.drops == 3 and q.arrivals == q.dequeued + q.drops + len(q)


def test_codel_leaves_the_dropping_state_below_target_and_reuses_its_count_when_back_soon():
    ev, q = backlogged_codel(400)
    pop_at(ev, q, 0.010)
    pop_at(ev, q, 0.111)                        # first drop: count 1, lastcount 1
    for _ in range(3):                          # three more drops on the control law: count 4
        pop_at(ev, q, q.codel_state()["drop_next"])
    assert q.codel_state()["count"] == 4 and q.drops == 4
    t = q.codel_state()["drop_next"]
    while len(q):                               # drain without waiting: the old packets keep it dropping
        q.pop()
    for pid in range(1000, 1200):               # fresh packets: below target -> leaves the dropping state
        q.push(pid, 0, 1500)
    assert pop_at(ev, q, t)[1] == [] and not q.codel_state()["dropping"]
    pop_at(ev, q, t + 0.010)                    # above target again: an interval to wait
    pop_at(ev, q, t + 0.111)
    st = q.codel_state()
    # RFC 8289 5.5: back within 16 intervals of drop_next, delta = count - lastcount = 3 > 1: count = 3
    assert st["dropping"] and st["count"] == 3 and st["lastcount"] == 3


def test_codel_drops_the_arrival_when_full_and_needs_a_clock():
    ev = clock()
    q = CoDelQueue(ev, 2)
    assert [q.push(p, 0, 100) for p in range(3)] == [1, 1, 0] and q.last_dropped == 2
    with pytest.raises(ValueError, match="target must be in"):
        CoDelQueue(ev, 2, target=0.2, interval=0.1)
    with pytest.raises(ValueError, match="EventQueue"):
        CoDelQueue(None, 2)


def test_fq_codel_sends_a_sparse_flow_s_packet_before_a_bulk_backlog():
    ev = clock()
    q = FqCoDelQueue(ev, 1000, quantum=1514)
    for pid in range(50):
        q.push(pid, 1, 1500)
    assert [q.pop() for _ in range(3)] == [0, 1, 2]
    q.push(999, 2, 98)                          # a ping: a new flow
    assert q.pop() == 999
    assert q.pop() == 3


def test_fq_codel_drops_from_the_head_of_the_fattest_flow_when_full():
    q = FqCoDelQueue(clock(), 4)
    for pid in range(3):
        q.push(pid, 1, 1500)
    q.push(3, 2, 100)
    assert q.push(4, 2, 100) == 1 and q.last_dropped == 0      # flow 1 has the most bytes
    assert q.flow_length(1) == 2 and q.flow_drops(1) == 1 and q.overlimit_drops == 1


def test_fq_codel_drops_in_each_flow_by_its_own_sojourn_time():
    ev = clock()
    q = FqCoDelQueue(ev, 1000, target=TARGET, interval=INTERVAL, quantum=1514, mtu=0)
    for pid in range(100):
        q.push(pid, 1, 1500)
    out = []
    for k in range(1, 30):
        at(ev, 0.01 * k)
        out.append(q.pop())
        if k == 15:
            q.push(500, 2, 98)                  # arrives at 0.15, sent at 0.16: 10 ms, but its own flow
    assert 500 in out and q.flow_drops(2) == 0 and q.flow_drops(1) > 0


def test_a_network_link_with_codel_frees_and_counts_the_packets_it_drops_at_dequeue():
    from simulator.net.network import Network
    ev = clock()
    net = Network(ev, 1, 2, 1)
    link = net.add_link(1e6, 0.0, 1000)         # 1000 bytes: 8 ms each
    q = CoDelQueue(ev, 1000, target=TARGET, interval=INTERVAL, mtu=0)
    net.set_queue(link, q)
    net.set_route(0, 0, [link])
    for seq in range(100):
        net.py_send(0, 0, seq, 0.0, 1000)
    delivered = 0
    while len(ev):
        now, _, kind, data = ev.next()
        if kind == 1:
            net.py_link_done(data, now)
        elif net.py_arrive(data, now) == 1:
            delivered += 1
            net.py_free(data)
    assert q.codel_drops > 0 and delivered + q.codel_drops == 100
    assert net.link_stats(link)["drops"] == q.codel_drops == net.pushed_out_drops(0)
    assert net.in_network == 0                  # every dropped packet was freed


def test_the_802_11_channel_frees_and_counts_every_packet_codel_drops_at_dequeue():
    from simulator.net.wifi_network import WifiNetwork
    ev = clock()
    net = WifiNetwork(ev, 0, 1, 1)
    link = net.add_link(1e9, 0.0, 10_000)
    # a microsecond target and interval: CoDel drops most of each backlog, several per dequeue
    q = CoDelQueue(ev, 10_000, target=1e-6, interval=1e-6, mtu=0)
    net.set_queue(link, q)
    net.set_route(0, 0, [link])
    net.set_wifi([link], ["sta"], {"standard": "n", "channel_mhz": 20, "spatial_streams": 1, "mcs": 7}, "codel")
    sent = delivered = 0
    for burst in range(20):                     # bursts 1 ms apart
        ev.schedule(burst * 1e-3, 2, burst)
    while len(ev):
        now, _, kind, data = ev.next()
        if kind == 2:
            for seq in range(200):
                sent += net.py_send(0, 0, 200 * data + seq, now, 1514)
        elif kind == 0:
            net.py_link_done(data, now)
        elif net.py_arrive(data, now) == 1:
            delivered += 1
            net.py_free(data)
    assert q.codel_drops > 0 and delivered > 0
    assert delivered + q.codel_drops == sent and net.in_network == 0


# ------------------------------------------------------------------------------ the testbed's access point
def resolve(**kw):
    return registry.resolve({"model": "testbed", "algorithm": "cubic", **kw})


def test_fifo_runs_keep_their_keys_and_fq_codel_runs_are_keyed_by_its_parameters():
    assert not set(tb.AP_QUEUE_KEYS) & set(tb.key_params(resolve()))
    assert not set(tb.AP_QUEUE_KEYS) & set(tb.key_params(resolve(medium="wifi")))
    kp = tb.key_params(resolve(medium="wifi", ap_queue="fq_codel"))
    assert kp["ap_queue"] == "fq_codel" and kp["ap_codel_target_ms"] == 20 and kp["ap_codel_interval_ms"] == 100
    assert kp["ap_fq_quantum_bytes"] == 300
    assert registry.key(resolve(medium="wifi", ap_queue="fq_codel"), 0) != \
        registry.key(resolve(medium="wifi", ap_queue="fq_codel", ap_codel_target_ms=5), 0)


@pytest.mark.parametrize("params, message", [
    ({"ap_queue": "fq_codel"}, r"ap_queue: fq_codel needs medium: wifi .* allowed: ap_queue: fifo, or medium: wifi"),
    ({"medium": "wifi", "ap_codel_target_ms": 5}, r"keys \['ap_codel_target_ms'\] apply to ap_queue: fq_codel only"),
    ({"medium": "wifi", "ap_queue": "red"}, "ap_queue"),
    ({"medium": "wifi", "ap_queue": "fq_codel", "ap_codel_target_ms": 200},
     "ap_codel_target_ms: 200 exceeds ap_codel_interval_ms: 100"),
])
def test_bad_ap_queue_settings_are_rejected(params, message):
    with pytest.raises(ValueError, match=message):
        resolve(**params)


def run(**kw):
    p = resolve(medium="wifi", duration=10, wifi_delay_ms=0, **kw)
    return tb.run(p, registry.key(p, 0))["metrics"]


def test_fq_codel_at_the_access_point_cuts_the_ping_rtt_under_a_cubic_flow():
    fifo, fq = run(), run(ap_queue="fq_codel")
    assert repr(fq) == repr(run(ap_queue="fq_codel"))          # deterministic
    assert fifo["ping_rtt_mean_ms"] > 10
    assert fq["ping_rtt_mean_ms"] < 5 and fq["ping_rtt_mean_ms"] < fifo["ping_rtt_mean_ms"] / 4
    assert fq["throughput_mean_mbps"] > 0.8 * fifo["throughput_mean_mbps"]
    # the bulk flow's own queueing delay follows CoDel's target (mac80211's 20 ms; 5 ms here)
    short = run(ap_queue="fq_codel", ap_codel_target_ms=5)
    assert short["tcp_rtt_mean_ms"] < 12 < fifo["tcp_rtt_mean_ms"] and short["retransmit_pct"] > 0
