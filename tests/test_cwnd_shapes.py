"""Shapes of cwnd traces (simulator/report/cwnd_shapes.py), the statistics of claim mm1-8: drop events,
regrowth toward the previous maximum, and the concave-then-convex test on the slopes of each regrowth."""
import numpy as np
import pandas as pd
import pytest

from simulator.report import cwnd_shapes as cs


def trace(alg, cwnd, t=None, seed=0, N=50):
    t = np.arange(len(cwnd), dtype=float) if t is None else np.asarray(t, float)
    return pd.DataFrame({"study": "mm1_cwnd", "variant": "as_published", "algorithm": alg, "N": N, "seed": seed,
                         "t": t, "cwnd": cwnd})


TAHOE = [1, 2, 4, 8, 1, 2, 4, 6, 1, 2, 4, 1]
RENO = [1, 2, 3, 4, 8, 4, 5, 6, 3, 4, 5, 6, 7, 3, 4]


def cubic_epoch(rng, w_max, points=12, C=0.4, beta=0.2):
    """One regrowth of a cubic centred on w_max from (1 - beta) w_max: times drawn unevenly over
    (0, 2K) so it is concave before K and convex after."""
    k = np.cbrt(beta * w_max / C)
    t = np.r_[0.0, np.sort(rng.uniform(0, 2 * k, points))]
    return t, w_max + C * (t - k) ** 3


# ----- drops

def test_drop_events_merge_consecutive_decreases():
    assert cs.drop_events(np.array([1, 2, 4, 8, 1, 2, 3, 1.5, 1.0, 2])) == [(8.0, 1.0), (3.0, 1.0)]
    assert cs.drop_events(np.array([1, 2, 3])) == []


def test_regrowth_share():
    # drop from 10, regrow to 9 (>= 8), drop; drop from 9, regrow to 3 only, drop
    w = np.array([10, 2, 5, 9, 1, 3, 0.5])
    assert cs.regrowth_share(w) == (1, 2)


def test_trace_stats_per_seed_pool_the_n_of_a_seed():
    tr = pd.concat([trace("tahoe", TAHOE, seed=1, N=50), trace("tahoe", TAHOE, seed=1, N=300),
                    trace("tahoe", RENO, seed=2, N=50)])
    st = cs.trace_stats(tr, "tahoe")
    assert st["n_drops"] == 3 + 3 + 3
    assert st["per_seed"][1]["n_drops"] == 6 and st["per_seed"][1]["share_to_one"] == 1.0
    assert st["per_seed"][2]["share_to_one"] == 0.0 and st["per_seed"][2]["median_ratio"] == 0.5


# ----- regrowths

def test_collapse_instants_keeps_the_last_value_of_an_instant():
    t, w = cs.collapse_instants(np.array([0, 1, 1, 2.0]), np.array([1, 5, 4, 6.0]))
    assert list(t) == [0, 1, 2] and list(w) == [1, 4, 6]


def test_regrowths_between_two_drops_from_first_to_last_increase():
    #    start (not after a loss) | drop 8->4->2 (one run) | flat, regrowth 2..5, flat | drop | tail (no next drop)
    w = [1, 4, 8, 4, 2, 2, 3, 4, 5, 5, 1, 2, 3]
    out = cs.regrowths(np.arange(len(w), dtype=float), np.array(w, float))
    assert len(out) == 1
    t, g, before = out[0]
    assert list(g) == [2, 3, 4, 5] and list(t) == [5, 6, 7, 8] and before == 8


def test_regrowths_of_an_epoch_without_increase_is_empty():
    w = [4, 2, 2, 1, 3, 1]   # drop, flat, drop (a separate drop event), regrowth, drop
    out = cs.regrowths(np.arange(len(w), dtype=float), np.array(w, float))
    assert [len(t) for t, _, _ in out] == [0, 2]


def test_slopes_use_the_uneven_spacing():
    assert list(cs.slopes(np.array([0, 1, 3.0]), np.array([1, 3, 4.0]))) == [2.0, 0.5]


# ----- concave then convex

def test_a_cubic_sampled_unevenly_is_concave_then_convex():
    rng = np.random.default_rng(7)
    for _ in range(20):
        t, w = cubic_epoch(rng, 10.0)
        assert cs.concave_then_convex(cs.slopes(t, w))


@pytest.mark.parametrize("s", [
    [5, 4, 3, 2, 1, 0.5],            # concave only: the minimum at the end
    [0.5, 1, 2, 3, 4, 5],            # convex only: the minimum at the start
    [2, 2, 2, 2, 2, 2],              # linear: every slope is the minimum
    [5, 1, 2, 3, 4, 5],              # minimum one step from the start: the concave part is not seen
    [5, 4, 3, 1, 2],                 # minimum one step from the end
    [5, 6, 4, 3, 1, 2, 3],           # before: 3 of 4 falling is enough (>= 2/3) ...
])
def test_shapes_that_are_not_concave_then_convex(s):
    expected = s == [5, 6, 4, 3, 1, 2, 3]
    assert cs.concave_then_convex(np.array(s, float)) is expected


def test_mostly_means_two_thirds_on_each_side():
    assert not cs.concave_then_convex(np.array([5, 6, 1, 2, 3.0]))      # 1 of 2 falling
    assert cs.concave_then_convex(np.array([5, 4, 1, 2, 1.5, 3, 4.0]))  # after: 3 of 4 rising
    assert not cs.concave_then_convex(np.array([5, 4, 1, 2, 1.5, 1.2, 4.0]))  # after: 2 of 4 rising


def test_a_flat_bottom_counts_as_the_minimum():
    assert cs.concave_then_convex(np.array([3, 2, 0, 0, 0, 1, 2.0]))


def test_too_short_to_judge():
    assert cs.MIN_STEPS == 5
    assert not cs.concave_then_convex(np.array([3, 2, 1, 2.0]))
    assert cs.concave_then_convex(np.array([3, 2, 1, 2, 3.0]))


def cubic_run(seed, shapes, points=12):
    """A cubic trace of several regrowths (the first is not after a loss), each 'cubic' (concave then
    convex about the previous maximum) or 'linear', dropping to 0.8 of the last window."""
    rng = np.random.default_rng(seed)
    ts, ws, t0, w_max = [], [], 0.0, 10.0
    for shape in shapes:
        t, w = cubic_epoch(rng, w_max, points)
        if shape == "linear":
            w = w[0] + (w[-1] - w[0]) * t / t[-1]
        ts.append(t0 + t)
        ws.append(w)
        t0, w_max = t0 + t[-1] + 0.05, w[-1]
    return np.concatenate(ts), np.concatenate(ws)


def test_shape_stats_per_seed_pooled_over_n():
    t1, w1 = cubic_run(1, ["cubic"] * 4)
    t2, w2 = cubic_run(2, ["cubic", "cubic", "linear", "cubic"])
    t3, w3 = cubic_run(3, ["cubic"] * 4, points=3)                   # too short to judge
    tr = pd.concat([trace("cubic", w1, t1, seed=1, N=50), trace("cubic", w2, t2, seed=1, N=300),
                    trace("cubic", w3, t3, seed=2)])
    st = cs.shape_stats(tr, "cubic")
    # 4 regrowths, 3 drops, 2 regrowths between drops per run; the linear one is not concave then convex
    assert st[1] == dict(epochs=4, judged=4, ctc=3, share=0.75, past_max=4)
    assert st[2]["epochs"] == 2 and st[2]["judged"] == 0 and np.isnan(st[2]["share"])
