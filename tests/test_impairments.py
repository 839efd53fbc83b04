"""Link impairments: Bernoulli and Gilbert-Elliott loss, jitter, capacity processes."""
import math

import pytest

from simulator.core.rng import Stream
from simulator.net.impairments import (BernoulliLoss, CapacitySchedule, GilbertElliottLoss, PeriodicLoss,
                                       Jitter, RandomCapacity, check_range)


def runs_of_true(xs):
    runs, n = [], 0
    for x in xs:
        if x:
            n += 1
        elif n:
            runs.append(n)
            n = 0
    return runs


# ------------------------------------------------------------------------------ loss
def test_bernoulli_rate_within_tolerance():
    n, p = 200_000, 0.05
    loss = BernoulliLoss(p, Stream("imp", "bern"))
    k = sum(loss.draws(n))
    se = math.sqrt(p * (1 - p) / n)
    assert abs(k / n - p) < 5 * se
    assert loss.packets == n and loss.losses == k and loss.loss_rate == k / n


def test_bernoulli_extremes():
    assert not any(BernoulliLoss(0.0, Stream("imp", "b0")).draws(1000))
    assert all(BernoulliLoss(1.0, Stream("imp", "b1")).draws(1000))


def test_gilbert_elliott_stationary_loss():
    p_gb, p_bg, lg, lb = 0.02, 0.2, 0.01, 0.5
    ge = GilbertElliottLoss(p_gb, p_bg, lg, lb, Stream("imp", "ge"))
    expected = (p_gb * lb + p_bg * lg) / (p_gb + p_bg)
    assert math.isclose(ge.stationary_loss, expected)
    n = 400_000
    rate = sum(ge.draws(n)) / n
    # losses are correlated through the state: effective sample ~ n / 8 here; 5 sd of that
    assert abs(rate - expected) < 5 * math.sqrt(expected * (1 - expected) * 8 / n)


def test_gilbert_elliott_bad_runs_have_mean_one_over_p_bg():
    # loss only in Bad, always: loss bursts are the stays in Bad, geometric with mean 1 / p_bg
    p_gb, p_bg = 0.01, 0.25
    ge = GilbertElliottLoss(p_gb, p_bg, 0.0, 1.0, Stream("imp", "ge-burst"))
    runs = runs_of_true(ge.draws(200_000))
    mean = sum(runs) / len(runs)
    sd = math.sqrt(1 - p_bg) / p_bg
    assert len(runs) > 1500
    assert abs(mean - 1 / p_bg) < 4 * sd / math.sqrt(len(runs))
    assert ge.mean_bad_run == 4.0
    assert abs(sum(runs) / 200_000 - ge.stationary_bad) < 0.006


def test_loss_determinism_per_stream():
    def seq(key, name):
        return GilbertElliottLoss(0.05, 0.3, 0.01, 0.6, Stream(key, name)).draws(5000)
    assert seq("run1", "loss:0") == seq("run1", "loss:0")
    assert seq("run1", "loss:0") != seq("run1", "loss:1")
    b1 = BernoulliLoss(0.1, Stream("run1", "x")).draws(5000)
    assert b1 == BernoulliLoss(0.1, Stream("run1", "x")).draws(5000)


# ------------------------------------------------------------------------------ jitter
def arrivals(jitter, n, gap):
    """(send time, arrival time) of n packets leaving a link every `gap` s."""
    out = []
    for i in range(n):
        now = i * gap
        out.append((now, now + jitter.py_extra_delay(now)))
    return out


@pytest.mark.parametrize("dist,spread", [("normal", 0.01), ("uniform", 0.02)])
def test_jitter_without_reorder_never_reorders(dist, spread):
    j = Jitter(0.02, spread, dist, Stream("imp", "jit"))
    arr = [a for _, a in arrivals(j, 20_000, 0.001)]
    assert all(b >= a for a, b in zip(arr, arr[1:]))
    assert j.clamped > 0 and j.packets == 20_000
    # the same draws with reorder=True do overtake: the test above has teeth
    r = Jitter(0.02, spread, dist, Stream("imp", "jit"), reorder=True)
    arr_r = [a for _, a in arrivals(r, 20_000, 0.001)]
    assert any(b < a for a, b in zip(arr_r, arr_r[1:]))
    # the clamp only ever lengthens a delay
    assert all(c >= s - 1e-15 for c, s in zip(arr, arr_r))


def test_arrival_time_keeps_order_with_base_delay():
    j = Jitter(0.02, 0.02, "uniform", Stream("imp", "jit-abs"))
    arr = [j.py_arrival_time(i * 0.0007 + 0.1) for i in range(20_000)]
    assert all(b >= a for a, b in zip(arr, arr[1:])) and j.clamped > 0
    assert all(a >= i * 0.0007 + 0.1 for i, a in enumerate(arr))


def test_jitter_distributions():
    n = 50_000
    u = Jitter(0.05, 0.01, "uniform", Stream("imp", "ju"), reorder=True)
    xs = [u.py_extra_delay(0.0) for _ in range(n)]
    assert 0.04 <= min(xs) and max(xs) <= 0.06
    assert abs(sum(xs) / n - 0.05) < 5 * (0.01 / math.sqrt(3)) / math.sqrt(n)
    g = Jitter(0.005, 0.01, "normal", Stream("imp", "jn"), reorder=True)
    ys = [g.py_extra_delay(0.0) for _ in range(n)]
    assert min(ys) >= 0.0
    assert g.expected_delay > 0.005                               # truncation raises the mean
    assert abs(sum(ys) / n - g.expected_delay) < 5 * 0.01 / math.sqrt(n)
    assert Jitter(0.03, 0.0, "normal", Stream("imp", "j0")).py_extra_delay(1.0) == 0.03


def test_jitter_determinism():
    def seq(name):
        return [a for _, a in arrivals(Jitter(0.02, 0.01, "normal", Stream("k", name)), 2000, 0.001)]
    assert seq("j") == seq("j") and seq("j") != seq("j2")


# ------------------------------------------------------------------------------ capacity
def test_capacity_schedule():
    c = CapacitySchedule([(0.0, 10e6), (5.0, 2e6), (7.5, 8e6)])
    assert [c.py_rate_at(t) for t in (0, 4.999, 5.0, 6, 7.5, 100)] == [10e6, 10e6, 2e6, 2e6, 8e6, 8e6]
    assert [c.py_rate_at(t) for t in (100, 0, 6, 0)] == [8e6, 10e6, 2e6, 10e6]   # any order
    assert [c.py_next_change(t) for t in (0, 5.0, 7.0, 7.5)] == [5.0, 7.5, 7.5, math.inf]
    late = CapacitySchedule([(2.0, 1e6), (3.0, 5e6)])
    assert late.py_rate_at(0.5) == 1e6 and late.py_next_change(0.5) == 3.0


def test_random_capacity_clamped_piecewise_and_deterministic():
    mean = 10e6
    c = RandomCapacity(mean, 0.6, 0.5, Stream("imp", "cap"), rho=0.8)
    rates = [c.py_rate_at(0.5 * k + 0.25) for k in range(4000)]
    assert min(rates) >= 0.1 * mean and max(rates) <= 2 * mean
    assert min(rates) == 0.1 * mean and max(rates) == 2 * mean    # sd 0.6 x mean hits both clamps
    assert all(c.py_rate_at(0.5 * k) == c.py_rate_at(0.5 * k + 0.4999) == r
               for k, r in enumerate(rates))                      # constant within an interval
    assert len(set(rates)) > 1000
    assert c.py_next_change(1.2) == 1.5
    # query order and count do not matter; the seed does
    d = RandomCapacity(mean, 0.6, 0.5, Stream("imp", "cap"), rho=0.8)
    assert d.py_rate_at(1999.9) == rates[-1] and d.py_rate_at(0.0) == rates[0]
    e = RandomCapacity(mean, 0.6, 0.5, Stream("imp", "cap2"), rho=0.8)
    assert [e.py_rate_at(0.5 * k) for k in range(50)] != rates[:50]


def test_random_capacity_mean_and_correlation():
    mean, n, rho = 1e6, 20_000, 0.5
    c = RandomCapacity(mean, 0.1, 1.0, Stream("imp", "cap-stats"), rho=rho)   # clamps ~never hit
    xs = [c.py_rate_at(k + 0.5) for k in range(n)]
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / n)
    lag1 = sum((a - m) * (b - m) for a, b in zip(xs, xs[1:])) / (n - 1) / sd ** 2
    assert abs(m - mean) < 0.005 * mean
    assert abs(sd - 0.1 * mean) < 0.005 * mean
    assert abs(lag1 - rho) < 0.03


# ------------------------------------------------------------------------------ validation
@pytest.mark.parametrize("make,msg", [
    (lambda s: BernoulliLoss(1.5, s), r"p must be in \[0, 1\]"),
    (lambda s: GilbertElliottLoss(0.1, 0.0, 0, 1, s), r"p_bg .* must be in \(0, 1\]"),
    (lambda s: GilbertElliottLoss(0.1, 0.5, -0.1, 1, s), r"loss_good must be in \[0, 1\]"),
    (lambda s: Jitter(0.01, 0.02, "uniform", s), r"half-width .* must be in \[0, 0.01\]"),
    (lambda s: Jitter(0.01, 0.02, "pareto", s), r"one of \('uniform', 'normal'\)"),
    (lambda s: Jitter(-0.01, 0.0, "normal", s), r"mean .* must be in \[0, 60\]"),
    (lambda s: RandomCapacity(0, 0.1, 1.0, s), r"mean_bps .* must be in \(0, inf\)"),
    (lambda s: RandomCapacity(1e6, 0.1, 1.0, s, rho=1.0), r"rho .* must be in \[0, 1\)"),
    (lambda s: RandomCapacity(1e6, 0.1, 0.0, s), r"interval .* must be in \(0, inf\)"),
    (lambda s: CapacitySchedule([(0, 1e6), (0, 2e6)]), r"time #1 .* must be in \(0, inf\)"),
    (lambda s: CapacitySchedule([(0, 0)]), r"rate #0 .* must be in \(0, inf\)"),
    (lambda s: CapacitySchedule([]), "non-empty"),
    (lambda s: BernoulliLoss(0.1, "not a stream"), "Stream"),
])
def test_parameters_are_range_checked(make, msg):
    with pytest.raises((ValueError, TypeError), match=msg):
        make(Stream("imp", "v"))


def test_check_range_message():
    with pytest.raises(ValueError, match=r"x must be in \(0, 1\), got 1"):
        check_range("x", 1, 0, 1, low_open=True, high_open=True)
    assert check_range("x", "0.5", 0, 1) == 0.5


def test_periodic_loss_drops_the_last_packet_of_every_period():
    loss = PeriodicLoss(0.25)                       # period round(1 / 0.25) = 4
    assert loss.draws(12) == [False, False, False, True] * 3
    assert loss.loss_rate == 0.25 and PeriodicLoss(0.003).period == 333
    with pytest.raises(ValueError):
        PeriodicLoss(0.0)
