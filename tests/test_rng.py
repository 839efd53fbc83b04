"""Named streams: deterministic, independent per name, identical in the C and Python paths."""
import math

from simulator.core.rng import Stream
from simulator.core.seeding import python_stream, run_key


def test_same_key_same_draws():
    a, b = Stream("k", "service"), Stream("k", "service")
    assert [a.draw_uniform() for _ in range(100)] == [b.draw_uniform() for _ in range(100)]


def test_names_and_keys_give_different_streams():
    a, b, c = Stream("k", "service"), Stream("k", "sender"), Stream("k2", "service")
    xs = [a.draw_uniform() for _ in range(10)]
    assert xs != [b.draw_uniform() for _ in range(10)]
    assert xs != [c.draw_uniform() for _ in range(10)]


def test_python_twin_matches_bit_for_bit():
    c = Stream("key", "service")
    uniform, exponential = python_stream("key", "service")
    for _ in range(1000):
        assert c.draw_exponential(10.0) == exponential(10.0)
    assert c.draw_uniform() == uniform()


def test_exponential_mean():
    s = Stream("mean", "x")
    n = 200_000
    mean = sum(s.draw_exponential(4.0) for _ in range(n)) / n
    assert math.isclose(mean, 0.25, rel_tol=0.01)


def test_run_key_ignores_trace_and_int_float_spelling():
    assert run_key({"N": 10, "mu": 10.0, "trace": True}, 3) == run_key({"N": 10.0, "mu": 10}, 3)
    assert run_key({"N": 10}, 3) != run_key({"N": 10}, 4)
