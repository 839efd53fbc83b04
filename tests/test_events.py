"""Event queue: earliest time first; equal times in insertion order (deterministic runs)."""
import random

import pytest

from simulator.core.events import EventQueue


def test_pops_in_time_order():
    q = EventQueue(4)                     # small capacity: exercises growth
    times = [random.Random(1).uniform(0, 10) for _ in range(1)] + [3.0, 1.0, 2.0, 0.5] * 50
    for i, t in enumerate(times):
        q.schedule(t, 0, i)
    popped = [q.next()[0] for _ in range(len(times))]
    assert popped == sorted(times)


def test_ties_break_by_insertion_sequence():
    q = EventQueue()
    for data in range(20):
        q.schedule(1.0, data % 3, data)
    q.schedule(0.5, 9, 99)
    assert q.next()[3] == 99
    assert [q.next()[3] for _ in range(20)] == list(range(20))


def test_empty_queue_raises():
    with pytest.raises(IndexError):
        EventQueue().next()


def test_counts_events_scheduled_and_processed():
    q = EventQueue()
    for t in (3.0, 1.0, 2.0):
        q.schedule(t)
    q.next()
    assert (q.pushed, q.popped, len(q)) == (3, 1, 2)


def test_simultaneous_events_go_in_the_order_they_were_or_would_have_been_scheduled():
    q = EventQueue()
    q.schedule(5.0, kind=0)
    q.next()                                        # now 5: what push records as scheduled-at
    q.schedule(10.0, kind=1)                        # scheduled at 5
    q.schedule_as_of(10.0, 7.0, kind=2)             # worked out now, would have been scheduled at 7
    q.schedule_as_of(10.0, 3.0, kind=3)             # ... at 3
    q.schedule(10.0, kind=4)                        # scheduled at 5, after kind 1
    assert [q.next()[2] for _ in range(4)] == [3, 1, 4, 2]


def test_the_timer_heap_changes_no_order():
    """Events split between the main heap and the timer heap pop as if all were in one heap."""
    rng = random.Random(7)
    plan = [(rng.choice([0.5, 1.0, 1.5, rng.uniform(0, 2)]), rng.random() < 0.5) for _ in range(500)]
    one, two = EventQueue(4), EventQueue(4)
    for i, (t, timer) in enumerate(plan):
        one.schedule(t, 0, i)
        (two.schedule_timer if timer else two.schedule)(t, 0, i)
    assert len(two) == len(plan)
    assert [two.next() for _ in plan] == [one.next() for _ in plan]
    with pytest.raises(IndexError):
        two.next()
