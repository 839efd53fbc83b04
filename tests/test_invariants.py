"""Property-based: random small scenarios keep the invariants (conservation, bounds, time)."""
from hypothesis import given, settings
from hypothesis import strategies as st

import simulator
from simulator.scenarios.mm1_queue import run_name

scenario = st.fixed_dictionaries({
    "model": st.just("mm1"),
    "variant": st.sampled_from(["as_published", "standard"]),
    "algorithm": st.sampled_from(["none", "tahoe", "reno", "cubic"]),
    "lambda": st.floats(0.5, 40), "mu": st.floats(0.5, 40),
    "K": st.integers(1, 12), "theta": st.one_of(st.none(), st.floats(0.01, 5)),
    "N": st.integers(1, 300), "prop_delay": st.floats(0, 0.3),
}).map(lambda p: {**p, "algorithm": run_name(p["variant"], p["algorithm"])})   # as_published: published_reno, ...


@settings(max_examples=150, deadline=None)
@given(scenario, st.integers(0, 2**31))
def test_invariants_hold(p, seed):
    m = simulator.run(p, seed)["metrics"]
    assert 0 <= m["loss_rate"] <= 100
    assert m["served"] + m["drops_deadline"] <= m["sent"]
    assert m["dropped"] == m["drops_overflow"] + m["drops_deadline"]
    assert m["mean_in_system"] <= p["K"] + 1e-9      # the queue never exceeds its limit
    assert m["end_time"] >= 0
    if p["variant"] == "as_published":
        assert m["served"] + m["dropped"] == p["N"]
    elif p["algorithm"] != "none":
        assert m["delivered_unique"] == p["N"]      # reliable delivery
    else:
        assert m["delivered_unique"] == p["N"] - m["dropped"]


@settings(max_examples=30, deadline=None)
@given(scenario, st.integers(0, 2**31))
def test_cwnd_trace_is_positive_and_time_monotone(p, seed):
    if p["algorithm"] == "none":
        return
    tr = simulator.run({**p, "trace": True}, seed)["trace"]
    # positive; as_published Cubic may sit below 1 (0.8 cwnd) until the next ACK recomputes it
    assert all(w > 0.0 for w in tr["cwnd"])
    if p["variant"] == "standard":
        assert all(w >= 1.0 for w in tr["cwnd"])
    assert all(a <= b for a, b in zip(tr["t"], tr["t"][1:]))
