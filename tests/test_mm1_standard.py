"""The standard-TCP M/M/1 model: reliability, conservation, and each algorithm's mechanisms."""
import pytest

import simulator


def params(**kw):
    p = {"model": "mm1", "variant": "standard", "algorithm": "newreno", "lambda": 15, "mu": 10,
         "K": 5, "theta": 1, "N": 500, "prop_delay": 0.01}
    p.update(kw)
    return p


@pytest.mark.parametrize("alg", ["tahoe", "reno", "newreno", "cubic"])
def test_every_packet_is_delivered_despite_losses(alg):
    for seed in range(5):
        m = simulator.run(params(algorithm=alg), seed)["metrics"]
        assert m["delivered_unique"] == 500
        assert m["dropped"] > 0 and m["retransmissions"] >= m["dropped"] - m["in_flight_at_end"]
        # conservation: every transmission was delivered, dropped, or is still in flight
        assert m["sent"] == m["delivered"] + m["dropped"] + m["in_flight_at_end"]


def test_fast_retransmit_and_timeouts_both_occur():
    ms = [simulator.run(params(algorithm="reno"), s)["metrics"] for s in range(10)]
    assert sum(m["fast_retransmits"] for m in ms) > 0
    assert sum(m["timeouts"] for m in ms) > 0


def test_none_is_uncontrolled_and_never_retransmits():
    m = simulator.run(params(algorithm="none"), 0)["metrics"]
    assert m["sent"] == 500 and "retransmissions" not in m
    assert m["delivered_unique"] == 500 - m["dropped"]


def test_delay_includes_propagation():
    light = params(algorithm="newreno", K=100, theta=None, N=200, **{"lambda": 0.5})
    m = simulator.run({**light, "prop_delay": 0.2}, 0)["metrics"]
    assert 0.2 < m["avg_delay"] < 0.2 + 0.5
    assert m["mean_rtt"] > 0.4                     # data and ACK both cross the propagation delay


def test_newreno_recovers_better_than_tahoe_at_high_load():
    def mean(alg, key):
        return sum(simulator.run(params(algorithm=alg), s)["metrics"][key] for s in range(20)) / 20
    assert mean("newreno", "timeouts") < mean("reno", "timeouts")


def test_bad_parameters_are_rejected_with_allowed_values():
    with pytest.raises(ValueError, match="allowed: none, tahoe, reno, newreno, cubic, vegas, qtcol, qtcolfair"):
        simulator.run(params(algorithm="bbr"), 0)
    with pytest.raises(ValueError, match="prop_delay"):
        simulator.run(params(prop_delay=-1), 0)
