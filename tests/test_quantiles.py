"""Fixed-memory medians of event-sampled series: the RTT one within its stated 0.1 %, the integer
one exact, both as numpy computes a median (mean of the two middle values for an even count)."""
import numpy as np
import pytest

from simulator.core.quantiles import IntHistogram, LogHistogram


@pytest.mark.parametrize("n", [1, 2, 3, 10, 1001, 50_000])
def test_log_histogram_median_is_within_its_relative_error(n):
    x = np.random.default_rng(n).lognormal(-3.0, 1.5, n)
    h = LogHistogram()
    for v in x:
        h.record(v)
    assert h.rel_error == 1e-3 and h.n == n
    assert abs(h.median() / np.median(x) - 1) <= 1e-3


def test_log_histogram_counts_values_outside_its_range_in_the_end_bins():
    h = LogHistogram(1e-3, 1.0)
    for v in (1e-9, 0.0, 5e3):
        h.record(v)
    assert h.median() == pytest.approx(1e-3, rel=2e-3)
    with pytest.raises(ValueError, match="0 < lo < hi"):
        LogHistogram(1.0, 0.5)


@pytest.mark.parametrize("n", [1, 2, 7, 1000, 20_001])
def test_int_histogram_median_is_numpys_exactly(n):
    k = np.random.default_rng(n).integers(0, 3000, n)   # beyond the initial 1024 values: it grows
    h = IntHistogram()
    for v in k:
        h.record(int(v))
    assert h.median() == np.median(k)


def test_empty_histograms_give_nan_and_negative_counts_are_refused():
    assert np.isnan(LogHistogram().median()) and np.isnan(IntHistogram().median())
    with pytest.raises(ValueError, match=">= 0"):
        IntHistogram().record(-1)
