"""The as_published model's rules, one by one, and its interpreted twin."""
import math

import pytest

import simulator
from simulator.core.seeding import run_key
from simulator.interpreted import mm1_published as interpreted
from simulator.models.mm1_published import PublishedMM1
from simulator.registry import key, resolve
from simulator.scenarios.mm1_queue import ALGORITHMS_OF
from simulator.tcp.cc.base import CongestionControl


class FixedWindow(CongestionControl):
    """A prototype algorithm in pure Python: a constant window."""

    def __init__(self, cwnd):
        self.w = cwnd

    def init(self, s):
        s.cwnd = self.w

    def cong_avoid(self, s, acked):
        pass


def params(**kw):
    p = {"model": "mm1", "variant": "as_published", "algorithm": "published_tahoe", "lambda": 10, "mu": 10,
         "K": 5, "theta": 1, "N": 500}
    p.update(kw)
    return p


def test_burst_at_wakeup_and_overflow_counts_packets_in_system():
    # one wake-up at t=0 (the next is ~1000 s later): a window of 50 sends all 50 at once;
    # K=10 admits 10, so 40 are dropped and nothing is ever retransmitted
    m = PublishedMM1("k", 0.001, 10.0, 10, math.inf, 50, FixedWindow(1000.0)).run()["metrics"]
    assert (m["served"], m["dropped"], m["drops_overflow"]) == (10, 40, 40)
    assert m["loss_rate"] == 80.0


def test_deadline_applies_to_waiting_not_service():
    # mu=0.5: services take ~2 s >> theta; the first packet is served, the second dies waiting
    m = PublishedMM1("k", 0.001, 0.5, 5, 0.01, 2, FixedWindow(2.0)).run()["metrics"]
    assert (m["served"], m["drops_deadline"]) == (1, 1)
    assert m["avg_delay"] > 0.01                  # a served packet's delay may exceed theta


def test_throughput_divides_by_last_event_including_idle_deadline_timers():
    m = PublishedMM1("k", 1.0, 1000.0, 1, 5.0, 1, None).run()["metrics"]
    assert m["served"] == 1
    assert m["end_time"] == 5.0                   # the timer fires at t = theta with nothing to do
    assert m["throughput"] == pytest.approx(1 / 5.0)


def test_no_retransmission_served_plus_dropped_is_n():
    for alg in ALGORITHMS_OF["as_published"]:
        for seed in range(5):
            m = simulator.run(params(algorithm=alg, K=2, **{"lambda": 15}), seed)["metrics"]
            assert m["served"] + m["dropped"] == 500
            assert m["loss_rate"] == pytest.approx(100 * m["dropped"] / 500)


def test_none_sends_one_packet_per_poisson_arrival():
    # rho = 0.1 with a huge buffer: nearly M/M/1, throughput ~ lambda, delay ~ 1/(mu - lambda)
    ms = [simulator.run(params(algorithm="none", K=1000, theta=None, N=5000,
                               **{"lambda": 1, "mu": 10}), s)["metrics"] for s in range(4)]
    assert sum(m["throughput"] for m in ms) / 4 == pytest.approx(1.0, rel=0.05)
    assert sum(m["avg_delay"] for m in ms) / 4 == pytest.approx(1 / 9, rel=0.05)


def test_cwnd_trace_shows_tahoe_returning_to_one():
    out = simulator.run(params(N=300, trace=True), 0)
    cw = out["trace"]["cwnd"]
    assert len(out["trace"]["t"]) == len(cw) > 300
    assert cw[0] == 1.0 and cw.count(1.0) > 3 and max(cw) > 4


@pytest.mark.parametrize("alg", ["none", "published_tahoe", "published_reno", "published_cubic"])
def test_interpreted_twin_is_bit_identical(alg):
    for seed in range(3):
        p = params(algorithm=alg, **{"lambda": 15})
        compiled = simulator.run(p, seed)["metrics"]
        twin = interpreted.run(key(resolve(p), seed), 15.0, 10.0, 5, 1.0, 500, alg)
        for k, v in twin.items():
            assert compiled[k] == v, (alg, seed, k)


@pytest.mark.parametrize("alg,expected", [
    ("none", (8.467, 0.2492, 11.0)), ("published_tahoe", (9.5885, 0.3495, 7.6)),
    ("published_reno", (9.652, 0.3617, 15.4)), ("published_cubic", (8.791, 0.3424, 5.0))])
def test_replaying_the_papers_stream_gives_its_printed_lambda10_column(alg, expected):
    # one legacy numpy stream seeded 42, drawn in event order, as the paper's code did
    m = simulator.run(params(algorithm=alg, rng="paper_legacy"), 0)["metrics"]
    got = (round(m["throughput"], 4 if alg == "published_tahoe" else 3), round(m["avg_delay"], 4),
           round(m["loss_rate"], 1))
    assert got == expected
    assert simulator.run(params(algorithm=alg, rng="paper_legacy"), 5) == \
        simulator.run(params(algorithm=alg, rng="paper_legacy"), 0)     # seed index ignored


def test_paper_stream_only_for_as_published():
    with pytest.raises(ValueError, match="rng 'paper_legacy' not allowed for variant standard"):
        simulator.run(params(variant="standard", algorithm="tahoe", rng="paper_legacy"), 0)


def test_trace_interval_bounds_the_trace():
    full = simulator.run(params(N=2000, trace=True), 0)["trace"]
    thin = simulator.run(params(N=2000, trace=True, trace_interval=1.0), 0)["trace"]
    assert len(thin["t"]) < len(full["t"]) / 10
    assert all(b - a >= 1.0 for a, b in zip(thin["t"], thin["t"][1:]))
    assert simulator.run(params(N=2000, trace_interval=1.0), 0)["metrics"] == \
        simulator.run(params(N=2000), 0)["metrics"]          # recording never changes the run


@pytest.mark.parametrize("alg", ["published_tahoe", "published_reno", "published_cubic"])
def test_published_names_keep_the_run_keys_of_their_former_names(alg):
    # studies once wrote variant as_published with algorithm tahoe|reno|cubic: the run key keeps that
    # name (mm1_queue.KEY_NAMES), so every run draws the same random numbers as before the renaming
    p = resolve(params(algorithm=alg))
    for seed in (1, 7):
        assert key(p, seed) == run_key({**p, "algorithm": alg.removeprefix("published_")}, seed)
        assert key(p, seed) != run_key(p, seed)
    standard = resolve(params(variant="standard", algorithm="reno"))
    assert key(standard, 1) == run_key(standard, 1)         # other names: the key is the parameters'


@pytest.mark.parametrize("variant,alg,hint", [
    ("as_published", "reno", "did you mean 'published_reno', the paper's Reno code?"),
    ("standard", "published_cubic", "did you mean 'cubic'? published_cubic runs only in variant as_published")])
def test_a_name_means_one_algorithm(variant, alg, hint):
    with pytest.raises(ValueError) as e:
        simulator.run(params(variant=variant, algorithm=alg), 0)
    assert hint in str(e.value) and f"algorithm {alg!r} unknown for variant {variant}" in str(e.value)
