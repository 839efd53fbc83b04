"""The one statistical rule every claim of the scorecard is decided by (book/method.md says it in words).

A claim is a set of comparisons: an ordering between two table rows ("a > b"), or a table row against
a threshold ("a > 0.9"). Each table row is a grid point's mean, sd and number of seeds n.

- A comparison *holds* when it holds by mean AND is significant: Welch's t-test (two-sided, from mean,
  sd and n; a one-sample t-test against a threshold), its p adjusted by Holm's method across the
  comparisons of the one claim, below ALPHA. Runs of different grid points draw independent random
  streams (the run key holds every parameter), so the samples are independent: Welch, not paired.
- *Deterministic* rows (n >= 2, every seed gave the same value: sd 0) are compared by value: p = 0
  when the values differ, 1 when they are equal (but for floating-point noise: `same`); the note says so.
- A row from one seed cannot be tested: p is missing, the comparison cannot hold significantly.
- Every metric has a declared *resolution* and *practical threshold* (reference/metric_thresholds.yaml,
  declared before looking at the verdicts): two means closer than the resolution are a *tie* (p = 1,
  whatever the spread), and a difference smaller than the practical threshold is *negligible*: it
  neither holds nor reverses, significant or not. So a claim is never contradicted by a negligible
  difference; a claim whose comparisons are negligible or holding is at most inconclusive.
  A tolerance band (`within`: a paper's range, `near` x ± rel, a closed form ± its tolerance) is itself
  the declared practical threshold: its edges say how far off matters, so the metric's threshold does
  not apply on top of it (it would make a value 1% off a closed form, inside a 3% band, negligible
  against the band's edge); the resolution still makes a value at an edge a tie.
- The claim is `reproduced` when every comparison holds significantly, `contradicted` when any is
  significantly reversed, `inconclusive` otherwise, and `not_testable` when our setup cannot stand
  for the paper's or the runs it needs are missing (with the reason). Its p_value is the p that
  decides the verdict: for a contradicted claim the smallest adjusted p of its reversed comparisons
  (the evidence against the paper), otherwise the largest adjusted p of its comparisons, a negligible
  one counting as 1 (below 5% exactly when every comparison holds).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

from scipy import stats

from simulator.report import metric_thresholds, number_format

ALPHA = 0.05
RULE = "Welch t-test, Holm-adjusted, 5%, practical threshold per metric"
VERDICTS = ("reproduced", "contradicted", "inconclusive", "not_testable")


@dataclass(frozen=True)
class Comparison:
    label: str           # what is compared, in words: "cubic > reno (goodput, lambda=5)"
    diff: float          # claimed side minus other side: > 0 when it holds by mean
    p: float             # two-sided p of the difference (nan: cannot be tested)
    how: str             # "welch", "deterministic", "one seed", "tie"
    p_adj: float = math.nan
    practical: float = 0.0   # the metric's practical threshold at these values: a smaller |diff| is negligible
    shown: str = ""          # the unit the book prints the metric in ("%": a share times 100), for the note

    def amount(self, x: float) -> str:
        """A difference in the unit the book prints the metric in: '0.45 percentage points' of a share."""
        if self.shown == "%":
            text = number_format.num(abs(x) * 100)
            return f"{text} percentage point{'' if text == '1' else 's'}"
        return number_format.num(abs(x))

    @property
    def negligible(self) -> bool:
        """Smaller than the metric's practical threshold (a tie included): it can neither hold nor reverse."""
        return self.how == "tie" or abs(self.diff) < self.practical

    @property
    def holds(self) -> bool:
        """Holds by mean, by more than the practical threshold, and significantly (after Holm)."""
        return self.diff > 0 and not self.negligible and self.p_adj < ALPHA

    @property
    def reversed(self) -> bool:
        """Significantly the other way, by more than the practical threshold (after Holm)."""
        return self.diff < 0 and not self.negligible and self.p_adj < ALPHA

    def describe(self) -> str:
        if self.how == "tie":
            return f"{self.label}: tie (closer than the metric's resolution)"
        word = ("holds" if self.holds else "reversed" if self.reversed
                else f"negligible (|difference| {self.amount(self.diff)} smaller than the practical threshold "
                     f"{self.amount(self.practical)})" if self.negligible else "not significant")
        if self.how == "deterministic":     # compared by value: a p of exactly 0 or 1 says nothing more
            return f"{self.label}: {word} (deterministic)"
        extra = f", {self.how}" if self.how != "welch" else ""
        return f"{self.label}: {word} ({number_format.p_value(self.p_adj)}{extra})"


def _stat(row):
    """(mean, sd, n) of a table row; an sd that is floating-point noise (summing identical per-seed
    values in another order) counts as 0, so the row is compared as deterministic."""
    mean, n, sd = float(row["mean"]), int(row["n"]), float(row["sd"])
    if math.isnan(sd):
        return mean, sd, (n if n < 2 else 1)     # no spread recorded: cannot be tested
    return mean, (0.0 if sd <= 1e-9 * max(1.0, abs(mean)) else sd), n


def same(a: float, b: float) -> bool:
    """Equal values of deterministic rows: equal but for floating-point noise (a mean of identical per-seed
    values summed in another order differs in its last digits, e.g. 0.447999999999956 and
    0.44799999999995616), the tolerance _stat gives an sd."""
    return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)


def _nan(x) -> bool:
    return x is None or (isinstance(x, float) and math.isnan(x))


_THRESHOLDS: dict = {}      # name -> metric_thresholds.Threshold, read once from the file in use
_THRESHOLDS_FILE: list = []


def use_thresholds(path=None) -> None:
    """Decide with this thresholds file (a user's reference folder) instead of the repository's (None:
    the repository's again)."""
    _THRESHOLDS_FILE[:] = [path] if path is not None else []
    _THRESHOLDS.clear()


def threshold(metric: str | None) -> "metric_thresholds.Threshold":
    """The metric's declared resolution and practical threshold; none for metric None (comparisons made
    outside the claims: suite ranks, agreement tests). A claim's metric is checked to have an entry
    before any job (simulator/reference.py), so a missing one here is an error, not a silent zero."""
    if metric is None:
        return metric_thresholds.NONE
    if metric not in declared():
        path = _THRESHOLDS_FILE[0] if _THRESHOLDS_FILE else metric_thresholds.REPOSITORY
        raise metric_thresholds.ThresholdError(
            f"{path}: no entry for metric {metric!r}; every metric a claim reads needs unit, resolution, practical and why")
    return _THRESHOLDS[metric]


def _judged(label: str, ma: float, mb: float, p: float, how: str, metric: str | None,
            band: bool = False) -> Comparison:
    """A comparison of means ma and mb (diff ma - mb) with the metric's tie and practical threshold;
    `band`: mb is the edge of a tolerance band, itself the practical threshold (no second one on top)."""
    t = threshold(metric)
    if how != "one seed" and abs(ma - mb) <= t.resolution and t.resolution > 0:
        p, how = 1.0, "tie"
    return Comparison(label, ma - mb, p, how, practical=0.0 if band else t.practical(ma, mb), shown=t.shown)


def shown(x: float, metric: str | None, digits: int = 4) -> str:
    """A value of `metric` (in the tables' unit) as every note of the book prints it, in the unit
    declared for it: utilization 0.9581 -> '95.81%' (so one unit per metric across the book)."""
    t = threshold(metric) if metric is not None and metric in declared() else metric_thresholds.NONE
    v, step = float(x) * t.scale, t.resolution * t.scale
    if math.isnan(v):
        return "–"
    if step > 0:        # no digit finer than the resolution: 5.698e-14 s of a delay's spread is 0
        v = round(v / step) * step
    text = f"{v:.{digits}g}"
    if "e" in text:     # no exponent: as many decimals as the resolution (or the digits) resolve
        places = 0 if abs(v) >= 1 else (math.ceil(-math.log10(step)) if step > 0
                                        else digits - 1 - math.floor(math.log10(abs(v))))
        text = f"{v:.{max(places, 0)}f}"
        text = text.rstrip("0").rstrip(".") if "." in text else text
    return f"{'0' if text in ('-0', '') else text}{t.shown}"


def declared() -> dict:
    """The thresholds of the file in use, read once."""
    if not _THRESHOLDS:
        path = _THRESHOLDS_FILE[0] if _THRESHOLDS_FILE else metric_thresholds.REPOSITORY
        _THRESHOLDS.update(metric_thresholds.load(path))
    return _THRESHOLDS


def greater(a, b, label: str, metric: str | None = None) -> Comparison:
    """The ordering mean(a) > mean(b); a and b are table rows (mean, sd, n) of `metric`."""
    (ma, sa, na), (mb, sb, nb) = _stat(a), _stat(b)
    if na < 2 or nb < 2:
        return _judged(label, ma, mb, math.nan, "one seed", metric)
    if sa == 0 and sb == 0:
        return _judged(label, ma, mb, 1.0 if same(ma, mb) else 0.0, "deterministic", metric)
    p = stats.ttest_ind_from_stats(ma, sa, na, mb, sb, nb, equal_var=False).pvalue
    return _judged(label, ma, mb, float(p), "welch", metric)


def less(a, b, label: str, metric: str | None = None) -> Comparison:
    """The ordering mean(a) < mean(b)."""
    return greater(b, a, label, metric)


def above(a, threshold: float, label: str, metric: str | None = None, band: bool = False) -> Comparison:
    """mean(a) > threshold (one-sample t-test); `band`: the threshold is a tolerance band's edge."""
    m, s, n = _stat(a)
    if n < 2:
        return _judged(label, m, threshold, math.nan, "one seed", metric, band)
    if s == 0:
        return _judged(label, m, threshold, 1.0 if same(m, threshold) else 0.0, "deterministic", metric, band)
    p = 2 * stats.t.sf(abs((m - threshold) / (s / math.sqrt(n))), n - 1)
    return _judged(label, m, threshold, float(p), "welch", metric, band)


def below(a, threshold: float, label: str, metric: str | None = None, band: bool = False) -> Comparison:
    """mean(a) < threshold (one-sample t-test)."""
    c = above(a, threshold, label, metric, band)
    return replace(c, diff=-c.diff)


def within(a, low: float, high: float, label: str, metric: str | None = None) -> list[Comparison]:
    """low < mean(a) < high, as two comparisons (equivalence by two one-sided tests): the value is
    within the paper's tolerance when both hold significantly, outside when either is reversed. The band
    is the declared practical threshold, so the metric's own threshold is not added (only its resolution)."""
    return [above(a, low, f"{label} > {shown(low, metric)}", metric, band=True),
            below(a, high, f"{label} < {shown(high, metric)}", metric, band=True)]


def sample(values) -> dict:
    """A table-like row (mean, sd, n) of per-seed values computed outside the tables (e.g. from the
    traces of every seed), so they are compared by the same rule."""
    xs = [float(v) for v in values if not _nan(float(v))]
    n = len(xs)
    mean = sum(xs) / n if n else math.nan
    sd = math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1)) if n > 1 else math.nan
    return {"mean": mean, "sd": sd, "n": n}


def holm(comparisons: list[Comparison]) -> list[Comparison]:
    """The comparisons with Holm-adjusted p (untestable ones keep nan and count in m)."""
    m = len(comparisons)
    order = sorted(range(m), key=lambda i: (math.isnan(comparisons[i].p), comparisons[i].p))
    adjusted, running = [math.nan] * m, 0.0
    for rank, i in enumerate(order):
        p = comparisons[i].p
        if math.isnan(p):
            continue
        running = max(running, min(1.0, (m - rank) * p))
        adjusted[i] = running
    return [replace(c, p_adj=q) for c, q in zip(comparisons, adjusted)]


@dataclass(frozen=True)
class Decision:
    verdict: str
    p_value: float
    note: str                # every comparison with its adjusted p (the notes file)
    comparisons: tuple = ()

    @property
    def summary(self) -> str:
        """One sentence for the scorecard row."""
        if not self.comparisons:
            return self.note
        n, held = len(self.comparisons), sum(c.holds for c in self.comparisons)
        parts = [f"{held} of {n} comparisons hold significantly"]
        rev = [f"{c.label} (" + ("deterministic" if c.how == "deterministic" else number_format.p_value(c.p_adj)) + ")"
               for c in self.comparisons if c.reversed]
        if rev:
            parts.append("significantly reversed: " + ", ".join(rev))
        untested = sum(math.isnan(c.p) for c in self.comparisons)
        if untested:
            parts.append(f"{untested} from one seed, not testable")
        negligible = sum(c.negligible for c in self.comparisons)
        if negligible:
            parts.append(f"{negligible} negligible (smaller than the metric's practical threshold)")
        if any(c.how == "deterministic" for c in self.comparisons):
            parts.append("deterministic runs compared by value")
        return "; ".join(parts) + "."


def _deciding_p(verdict: str, done) -> float:
    """The p a reader sees beside the verdict: a contradiction's strongest reversal; else the weakest
    comparison (nan when one cannot be tested), a negligible one counting as p = 1 (no evidence of a
    difference that matters), so the p is below 5% exactly when every comparison holds."""
    if verdict == "contradicted":
        return min(c.p_adj for c in done if c.reversed)
    ps = [1.0 if c.negligible and not math.isnan(c.p_adj) else c.p_adj for c in done]
    return math.nan if any(math.isnan(p) for p in ps) else max(ps)


def decide(comparisons: list[Comparison], not_testable: str = "") -> Decision:
    """The claim's verdict under the rule, with the largest adjusted p and a note listing every
    comparison; `not_testable` (a reason) overrides when our setup or runs cannot stand for the paper's."""
    if not_testable:
        return Decision("not_testable", math.nan, not_testable)
    if not comparisons:
        return Decision("not_testable", math.nan, "no comparison could be made")
    done = holm(comparisons)
    if any(c.reversed for c in done):
        verdict = "contradicted"
    elif all(c.holds for c in done):
        verdict = "reproduced"
    else:
        verdict = "inconclusive"
    p_value = _deciding_p(verdict, done)
    held = sum(c.holds for c in done)
    note = f"{held}/{len(done)} comparisons hold significantly: " + "; ".join(c.describe() for c in done)
    return Decision(verdict, p_value, note, tuple(done))
