"""Shapes of congestion-window traces, for claim mm1-8 (scorecard_mm1.claim_mm1_8).

Drops: a *drop event* is a run of consecutive cwnd decreases, (window before, window after); Tahoe's
and Reno's parts of the claim are statistics of these (share ending at cwnd <= 1, median after/before).

Regrowth shape (CUBIC's part): a trace (cwnd recorded at every ACK and loss, unevenly spaced in t)
is cut into *epochs*, the stretches between two consecutive decreases (the stretch before the first
decrease and after the last one are not regrowths after a loss and are left out). An epoch's
*regrowth* runs from its first to its last increase (flat steps at its start, the window held at 1
or during recovery, and at its end are dropped); points recorded at the same instant count once (the
last value). Its slopes are dcwnd/dt between successive points. These are secant slopes: for a
window that is a convex (concave) function of time they rise (fall) from one step to the next
however unevenly the points are spaced, so the sign of their differences is the sign of the second
derivative, the test the claim's words name.

A regrowth is *judged* when it has at least MIN_STEPS slopes; it is *concave then convex* when its
slopes first fall then rise:
  * the minimum slope lies inside, with at least MIN_SIDE slope differences before its first
    occurrence and MIN_SIDE after its last (the difference right next to the minimum falls, or
    rises, by construction, so one difference a side would test nothing);
  * at least MOSTLY (2/3) of the differences before the minimum are < 0 (falling: concave), and at
    least MOSTLY of those after it are > 0 (rising: convex).
MIN_STEPS = 2 * MIN_SIDE + 1 is the fewest slopes for which the definition can hold, so it is the
judging threshold: shorter regrowths cannot show the shape and are not counted either way.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

MIN_SIDE = 2       # slope differences needed on each side of the minimum slope
MIN_STEPS = 2 * MIN_SIDE + 1   # slopes a regrowth needs to be judged (5: 6 points)
MOSTLY = 2 / 3     # share of differences that must fall before the minimum and rise after it
_EPS = 1e-12


# ----- drops (Tahoe, Reno, CUBIC's regrowth toward the previous maximum)

def drop_events(cwnd: np.ndarray) -> list[tuple[float, float]]:
    """(before, after) of each run of consecutive decreases of a cwnd trace."""
    events, i, n = [], 1, len(cwnd)
    while i < n:
        if cwnd[i] < cwnd[i - 1] - _EPS:
            before = cwnd[i - 1]
            while i + 1 < n and cwnd[i + 1] < cwnd[i] - _EPS:
                i += 1
            events.append((float(before), float(cwnd[i])))
        i += 1
    return events


def regrowth_share(cwnd: np.ndarray, frac: float = 0.8) -> tuple[int, int]:
    """Of the drops followed by another drop, how many regrew to >= frac * the previous max first."""
    events_idx, i, n = [], 1, len(cwnd)
    while i < n:
        if cwnd[i] < cwnd[i - 1] - _EPS:
            start, before = i, cwnd[i - 1]
            while i + 1 < n and cwnd[i + 1] < cwnd[i] - _EPS:
                i += 1
            events_idx.append((start, i, before))
        i += 1
    ok = 0
    for (s0, e0, wmax), (s1, _, _) in zip(events_idx, events_idx[1:]):
        peak = cwnd[e0:s1].max() if s1 > e0 else cwnd[e0]
        ok += peak >= frac * wmax
    return int(ok), max(len(events_idx) - 1, 0)


def drop_stats(events: list[tuple[float, float]], ok: int, tot: int) -> dict:
    """Statistics of a set of drop events: how many, the share ending at cwnd <= 1, the median
    after/before ratio, and the share of `tot` cycles that regrew (`ok`, from regrowth_share)."""
    if not events:
        return dict(n_drops=0, share_to_one=np.nan, median_ratio=np.nan, regrow=np.nan, n_cycles=tot)
    before = np.array([b for b, _ in events])
    after = np.array([a for _, a in events])
    return dict(n_drops=len(events), share_to_one=float(np.mean(after <= 1 + 1e-9)),
                median_ratio=float(np.median(after / before)), regrow=(ok / tot) if tot else np.nan,
                n_cycles=tot)


def _runs(traces: pd.DataFrame, alg: str):
    """(seed, t, cwnd) of every run of one algorithm (one per grid point and seed), sorted by t."""
    keys = [c for c in traces.columns if c not in ("t", "cwnd")]
    for _, g in traces[traces["algorithm"] == alg].groupby(keys, dropna=False, sort=False):
        g = g.sort_values("t", kind="stable")
        seed = g["seed"].iloc[0] if "seed" in g else 0
        yield seed, g["t"].to_numpy(float), g["cwnd"].to_numpy(float)


def trace_stats(traces: pd.DataFrame, alg: str) -> dict:
    """Drop statistics of one algorithm's traces, pooled over N and seeds, with `per_seed`: the same
    statistics per seed (pooled over the N of that seed), {seed: dict}."""
    runs = {}  # seed -> [events], ok, tot
    for seed, _, w in _runs(traces, alg):
        ev, (ok, tot) = drop_events(w), regrowth_share(w)
        e0, ok0, tot0 = runs.get(seed, ([], 0, 0))
        runs[seed] = (e0 + ev, ok0 + ok, tot0 + tot)
    pooled = drop_stats([e for ev, _, _ in runs.values() for e in ev],
                        sum(o for _, o, _ in runs.values()), sum(t for _, _, t in runs.values()))
    pooled["per_seed"] = {s: drop_stats(*r) for s, r in sorted(runs.items())}
    return pooled


# ----- regrowth shape (CUBIC)

def collapse_instants(t: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The trace with points recorded at the same instant merged into one (the last value)."""
    t, w = np.asarray(t, float), np.asarray(w, float)
    if len(t) == 0:
        return t, w
    last = np.append(t[1:] != t[:-1], True)
    return t[last], w[last]


def regrowths(t: np.ndarray, w: np.ndarray) -> list[tuple[np.ndarray, np.ndarray, float]]:
    """(t, cwnd, w_before) of each epoch's regrowth: the points between two consecutive drop events
    (runs of decreases), from the epoch's first increase to its last (empty when it has no increase),
    and the window before the drop that opened the epoch."""
    t, w = collapse_instants(t, w)
    d = np.diff(w)                            # step i goes from point i to point i + 1
    down = d < -_EPS
    starts = np.flatnonzero(down & ~np.r_[False, down[:-1]])
    ends = np.flatnonzero(down & ~np.r_[down[1:], False])
    out = []
    for s0, e0, s1 in zip(starts, ends, starts[1:]):   # epoch: the trough e0+1 .. s1, the last point before the next drop
        steps = np.arange(e0 + 1, s1)
        up = steps[d[steps] > _EPS]
        if len(up) == 0:
            out.append((t[:0], w[:0], float(w[s0])))
            continue
        lo, hi = up[0], up[-1] + 1
        out.append((t[lo:hi + 1], w[lo:hi + 1], float(w[s0])))
    return out


def slopes(t: np.ndarray, w: np.ndarray) -> np.ndarray:
    """dcwnd/dt between successive points (t strictly increasing)."""
    return np.diff(w) / np.diff(t)


def concave_then_convex(s: np.ndarray) -> bool:
    """The slope sequence first falls then rises (module docstring: MIN_SIDE, MOSTLY)."""
    s = np.asarray(s, float)
    if len(s) < MIN_STEPS:
        return False
    lo = s.min()
    at_min = np.flatnonzero(s <= lo + 1e-9 * max(1.0, abs(lo)))
    first, last = at_min[0], at_min[-1]
    if first < MIN_SIDE or len(s) - 1 - last < MIN_SIDE:
        return False
    before, after = np.diff(s[:first + 1]), np.diff(s[last:])
    return bool(np.mean(before < 0) >= MOSTLY - 1e-12 and np.mean(after > 0) >= MOSTLY - 1e-12)


def shape_stats(traces: pd.DataFrame, alg: str) -> dict:
    """Regrowth shapes of one algorithm's traces per seed (pooled over the N of that seed): {seed:
    dict(epochs, judged, ctc, share, past_max)}: epochs between two drops, regrowths with at least
    MIN_STEPS slopes (judged), how many of those are concave then convex and their share (nan: none
    judged), and how many judged ones end above the window before the drop that opened them (where a
    cubic curve centred on that window turns convex)."""
    per = {}
    for seed, t, w in _runs(traces, alg):
        e, j, c, m = per.get(seed, (0, 0, 0, 0))
        for rt, rw, w_before in regrowths(t, w):
            e += 1
            if len(rt) - 1 >= MIN_STEPS:
                j += 1
                c += concave_then_convex(slopes(rt, rw))
                m += int(rw[-1] > w_before + _EPS)
        per[seed] = (e, j, c, m)
    return {s: dict(epochs=e, judged=j, ctc=c, share=(c / j) if j else np.nan, past_max=m)
            for s, (e, j, c, m) in sorted(per.items())}
