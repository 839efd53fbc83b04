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
    with pytest.raises(ValueError, match="allowed: none, tahoe, reno, newreno, cubic, vegas, bbr, qtcol, qtcolfair"):
        simulator.run(params(algorithm="westwood"), 0)
    with pytest.raises(ValueError, match="prop_delay"):
        simulator.run(params(prop_delay=-1), 0)


# BBR runs on the app-limited SACK sender (delivery-rate samples, pacing)

def test_bbr_is_app_limited_and_delivers_every_packet():
    for lam in (2, 5, 15):
        for seed in range(4):
            m = simulator.run(params(algorithm="bbr", N=400, **{"lambda": lam}), seed)["metrics"]
            assert m["delivered_unique"] == 400 and m["in_flight_at_end"] == 0
            assert m["sent"] - m["retransmissions"] == 400      # new data: exactly what was written
            assert m["sent"] == m["delivered"] + m["dropped"]
            assert 0 <= m["loss_rate"] <= 100
            # never faster than the application writes (nor the server serves), beyond Poisson noise
            assert m["throughput"] <= min(lam, 10) * (1 + 4 / 400 ** 0.5)


def test_bbr_at_light_load_with_a_large_buffer_delivers_all_at_the_offered_rate():
    for seed in range(3):
        m = simulator.run(params(algorithm="bbr", K=1000, theta=None, N=1000, **{"lambda": 3}), seed)["metrics"]
        assert m["delivered_unique"] == 1000 and m["dropped"] == 0 and m["timeouts"] == 0
        assert abs(m["throughput"] - 3) < 3 * 4 / 1000 ** 0.5  # the application's rate, within noise
        # a sender that ignored the application would finish in about N / mu = 100 s, not N / lambda
        assert m["end_time"] > 250


def test_bbr_run_is_deterministic_and_records_its_window():
    p = params(algorithm="bbr", trace=True)
    a, b = simulator.run(p, 3), simulator.run(p, 3)
    assert repr(a) == repr(b)
    assert repr(a) != repr(simulator.run(p, 4))
    t, cwnd = a["trace"]["t"], a["trace"]["cwnd"]
    assert len(t) == len(cwnd) > 1 and min(cwnd) >= 1 and t == sorted(t)


def test_bbr_paces_with_timer_events():
    from simulator.models.mm1_standard import StandardMM1
    from simulator.registry import key, resolve

    p = resolve(params(algorithm="bbr", K=50, theta=None, N=1000, **{"lambda": 9}))
    sim = StandardMM1.from_params(key(p, 0), p)
    m = sim.run()["metrics"]
    assert sim.pace_gen > 0                       # packets held back by pacing, sent by its timer
    assert m["delivered_unique"] == 1000


@pytest.mark.parametrize("variant, alg", [("standard", "reno"), ("standard", "none"), ("as_published", "none"),
                                          ("as_published", "published_reno")])
def test_blocking_prob_is_the_share_of_overflow_drops(variant, alg):
    # a fraction, not C integer division (it read 0 in every run before the cast)
    m = simulator.run(params(variant=variant, algorithm=alg, K=2), 0)["metrics"]
    assert m["drops_overflow"] > 0
    per = m["sent"] if variant == "standard" else 500
    assert m["blocking_prob"] == pytest.approx(m["drops_overflow"] / per)
    assert 0 < m["blocking_prob"] < 1
