"""Queue disciplines: DropTail FIFO and per-flow deficit round robin (simulator.net.queue_disc, .fq)."""
import random

import pytest

from simulator.net.fq import DrrQueue
from simulator.net.queue_disc import FifoQueue, PacketQueue, make_queue


def conserved(q):
    return q.arrivals == q.dequeued + q.drops + len(q)


# ------------------------------------------------------------------------------ FIFO
def test_fifo_order_and_droptail():
    q = FifoQueue(3)
    assert isinstance(q, PacketQueue)
    assert [q.push(p, p % 2, 100 + p) for p in range(3)] == [1, 1, 1]
    assert q.last_dropped == -1 and q.bytes == 303
    assert q.push(3, 0, 100) == 0 and q.last_dropped == 3       # full: the arrival is dropped
    assert q.pop() == 0
    assert q.push(4, 1, 100) == 1 and q.last_dropped == -1
    assert [q.pop() for _ in range(4)] == [1, 2, 4, -1]
    assert len(q) == 0 and q.bytes == 0 and q.drops == 1 and q.max_length == 3 and conserved(q)


def test_fifo_ring_wraps_many_times():
    q, out, nxt = FifoQueue(5), [], 0
    for step in range(1000):
        while len(q) < 5:
            q.push(nxt, 0, 1500)
            nxt += 1
        out.append(q.pop())
    assert out == list(range(1000))


def test_zero_limit_drops_everything():
    for q in (FifoQueue(0), DrrQueue(0)):
        assert q.push(7, 0, 100) == 0 and q.last_dropped == 7 and q.pop() == -1 and conserved(q)


# ------------------------------------------------------------------------------ DRR
def test_drr_two_flows_hand_computed():
    # quantum 1000; flow 0 sends 1500-byte packets (ids 0..9), flow 1 500-byte ones (10..19).
    # round 1: f0 deficit 1000 < 1500, sends nothing; f1 1000 -> two packets, deficit 0
    # round 2: f0 2000 -> one packet (500 left); f1 -> two packets
    # round 3: f0 1500 -> one packet (0 left);   f1 -> two packets
    q = DrrQueue(100, quantum=1000)
    for p in range(10):
        q.push(p, 0, 1500)
    for p in range(10, 20):
        q.push(p, 1, 500)
    order = [q.pop() for _ in range(8)]
    assert order == [10, 11, 0, 12, 13, 1, 14, 15]
    sent = {0: 2 * 1500, 1: 6 * 500}
    assert sent[0] == sent[1] == 3000                              # equal bytes after 3 rounds
    # round 4: f0 deficit 1000 < 1500 again, f1 two more
    assert [q.pop() for _ in range(2)] == [16, 17]


def test_drr_three_flows_default_quantum_hand_computed():
    # quantum 1514; sizes A 1500, B 1000, C 300.  Each round adds 1514 to every deficit:
    # r1: A sends 1 (deficit 14), B 1 (514), C 5 (14)
    # r2: A 1528 -> 1 (28), B 2028 -> 2 (28), C 1528 -> 5 (28)
    # r3: A 1542 -> 1 (42), B 1542 -> 1 (542), C 1542 -> 5 (42)
    q = DrrQueue(1000)
    assert q.quantum == 1514
    size = {"A": 1500, "B": 1000, "C": 300}
    ids = {}
    for flow, name in enumerate("ABC"):
        for k in range(20):
            pid = 100 * flow + k
            ids[pid] = name
            q.push(pid, flow, size[name])
    seq = "".join(ids[q.pop()] for _ in range(7 + 8 + 7))
    assert seq == "ABCCCCC" + "ABBCCCCC" + "ABCCCCC"
    sent = {n: seq.count(n) * size[n] for n in "ABC"}
    assert sent == {"A": 4500, "B": 4000, "C": 4500}
    # bytes sent + deficit = quanta credited: every flow got the same credit per round.  A and B
    # already hold round 4's quantum (a flow is topped up when a pop finds its head packet too
    # big, then moved to the tail); C is at the head with round 3's remainder.
    assert [q.flow_deficit(f) for f in range(3)] == [42 + 1514, 542 + 1514, 42]
    for flow, name in enumerate("ABC"):
        assert sent[name] + q.flow_deficit(flow) == (4 if name != "C" else 3) * 1514


def test_drr_long_run_equal_byte_shares():
    q = DrrQueue(10_000)
    sizes = [1500, 576, 64]
    nxt = [0, 0, 0]
    for f in range(3):
        for _ in range(50):
            q.push(f * 1_000_000 + nxt[f], f, sizes[f])
            nxt[f] += 1
    sent = [0, 0, 0]
    for _ in range(20_000):
        pid = q.pop()
        f = pid // 1_000_000
        sent[f] += sizes[f]
        q.push(f * 1_000_000 + nxt[f], f, sizes[f])               # keep every flow backlogged
        nxt[f] += 1
    assert max(sent) - min(sent) <= 1514 + 1500                  # within a quantum + a packet
    assert min(sent) > 1_000_000


def test_drr_single_flow_is_fifo_and_quantum_smaller_than_packets_still_sends():
    q = DrrQueue(50, quantum=100)
    for p in range(20):
        q.push(p, 3, 1500)
    assert [q.pop() for _ in range(21)] == list(range(20)) + [-1]
    assert q.active_flows() == [] and conserved(q)


def test_drr_new_flow_joins_at_tail_and_deficit_resets_when_empty():
    q = DrrQueue(10, quantum=1500)
    q.push(0, 0, 1500)
    q.push(1, 0, 1500)
    assert q.pop() == 0
    q.push(2, 1, 1500)
    assert q.active_flows() == [0, 1]
    # flow 0 spent its quantum on packet 0: it gets a new one and goes behind flow 1
    assert [q.pop(), q.pop()] == [2, 1]
    assert q.flow_deficit(0) == 0 and q.flow_deficit(1) == 0 and q.active_flows() == []


def test_drr_overflow_drops_tail_of_longest_flow():
    q = DrrQueue(4)
    for p in range(4):
        assert q.push(p, 0, 1000) == 1
    # full; flow 1 arrives: flow 0 is the longest, its tail (pid 3) is pushed out
    assert q.push(4, 1, 1000) == 1 and q.last_dropped == 3
    assert (q.flow_length(0), q.flow_length(1), q.flow_drops(0)) == (3, 1, 1)
    # flow 0 arrives while it is the longest: the arrival itself is dropped
    assert q.push(5, 0, 1000) == 0 and q.last_dropped == 5
    # tie: flow 1 grows to 2 = flow 0's 2 after a pop... make counts 2/2, then flow 1 arrives
    assert q.pop() == 0
    assert q.push(6, 1, 1000) == 1 and q.last_dropped == -1          # 2 + 2 = limit, no drop
    assert q.push(7, 1, 1000) == 0 and q.last_dropped == 7           # flow 1 now longest (3)
    assert q.push(8, 2, 1000) == 1 and q.last_dropped in (2, 6)      # tail of a 2-packet flow
    assert q.last_dropped == 6        # flow 1 reached 2 packets most recently: its tail goes
    assert len(q) == 4 and q.bytes == 4000 and conserved(q) and q.drops == 4
    assert sorted(q.pop() for _ in range(4)) == [1, 2, 4, 8]


def test_drr_greedy_flow_cannot_lock_others_out():
    q = DrrQueue(10)
    for p in range(100):
        q.push(p, 0, 1500)
    assert len(q) == 10
    for p in range(100, 105):
        assert q.push(p, 1, 1500) == 1                          # each pushes out a flow-0 packet
    assert (q.flow_length(0), q.flow_length(1)) == (5, 5)
    assert q.push(105, 1, 1500) == 0                            # now flow 1 is the longest


def test_drr_flow_emptied_by_drop_lingers_then_leaves():
    q = DrrQueue(2)
    q.push(0, 0, 100)
    q.push(1, 1, 100)
    assert q.push(2, 2, 100) == 0 and q.last_dropped == 2        # all at depth 1: arrival goes
    assert q.active_flows() == [0, 1, 2] and q.flow_length(2) == 0
    assert [q.pop(), q.pop(), q.pop()] == [0, 1, -1]
    assert q.active_flows() == [2]                               # removed at its turn
    q.push(3, 2, 100)
    assert q.pop() == 3 and q.active_flows() == [] and conserved(q)


def test_drr_random_stress_conserves_packets_and_per_flow_order():
    rng = random.Random(4)
    q = DrrQueue(30, quantum=700)
    flow_of, size_of, fate = {}, {}, {}
    last_out = {}
    for pid in range(20_000):
        if rng.random() < 0.55:
            f = rng.randrange(6)
            size = rng.choice([64, 576, 1500])
            flow_of[pid], size_of[pid] = f, size
            q.push(pid, f, size)
            if q.last_dropped >= 0:
                assert fate.setdefault(q.last_dropped, "drop") == "drop"
        else:
            pid = q.pop()
            if pid >= 0:
                assert pid not in fate
                fate[pid] = "out"
                f = flow_of[pid]
                assert last_out.get(f, -1) < pid                 # FIFO within a flow
                last_out[f] = pid
        assert conserved(q) and 0 <= len(q) <= 30
        assert sum(q.flow_length(f) for f in range(6)) == len(q)
        assert sum(q.flow_bytes(f) for f in range(6)) == q.bytes
    while len(q):
        fate[q.pop()] = "out"
    assert len(fate) == len(flow_of) and q.pop() == -1


def test_make_queue_and_bad_parameters():
    assert isinstance(make_queue("droptail", 5), FifoQueue)
    fq = make_queue("fq", 5, quantum=3000)
    assert isinstance(fq, DrrQueue) and fq.quantum == 3000 and fq.limit == 5
    with pytest.raises(ValueError, match="droptail"):
        make_queue("red", 5)
    with pytest.raises(ValueError, match=">= 0 packets"):
        FifoQueue(-1)
    with pytest.raises(ValueError, match="quantum"):
        DrrQueue(10, quantum=0)
    with pytest.raises(ValueError, match="quantum"):
        make_queue("fq", 5, weight=2)
    with pytest.raises(ValueError):
        FifoQueue(3).push(1, -1, 100)
