"""The one statistical rule of the scorecard (simulator/report/claim_rule.py), on constructed table rows:
significant, reversed, tied, deterministic and one-seed cases, Holm's adjustment and the verdicts."""
import math

import pytest
from scipy import stats

from simulator.report import claim_rule as rule


def row(mean, sd, n=10):
    return {"mean": mean, "sd": sd, "n": n}


def test_clear_ordering_holds_and_the_claim_is_reproduced():
    d = rule.decide([rule.greater(row(10, 1), row(5, 1), "a > b"), rule.less(row(1, 0.1), row(2, 0.1), "c < d")])
    assert d.verdict == "reproduced"
    assert 0 < d.p_value < 1e-6
    assert "2/2 comparisons hold significantly" in d.note


def test_a_significantly_reversed_ordering_contradicts_the_claim():
    d = rule.decide([rule.greater(row(10, 1), row(5, 1), "a > b"), rule.greater(row(5, 1), row(10, 1), "b > a")])
    assert d.verdict == "contradicted"
    assert "b > a: reversed" in d.note


def test_right_by_mean_but_not_significant_is_inconclusive_never_reproduced():
    # the case the old means-only rule called reproduced
    d = rule.decide([rule.greater(row(5.2, 2), row(5.0, 2), "a > b")])
    assert d.verdict == "inconclusive"
    assert d.p_value > 0.05


def test_welch_p_matches_scipy():
    c = rule.greater(row(6, 1.5, 8), row(5, 0.5, 12), "a > b")
    expected = stats.ttest_ind_from_stats(6, 1.5, 8, 5, 0.5, 12, equal_var=False).pvalue
    assert c.p == pytest.approx(expected) and c.how == "welch"


def test_deterministic_rows_are_decided_by_value():
    differ = rule.greater(row(3, 0), row(2, 0), "a > b")
    tie = rule.greater(row(2, 0), row(2, 0), "a > b")
    assert (differ.p, differ.how) == (0.0, "deterministic")
    assert rule.decide([differ]).verdict == "reproduced"
    assert rule.decide([tie]).verdict == "inconclusive"
    assert "deterministic" in rule.decide([differ]).note


def test_deterministic_rows_equal_but_for_rounding_are_a_tie():
    """Means of identical per-seed values summed in another order (NS-2 latency, 0.448 s on both sides)."""
    tie = rule.greater(row(0.44799999999995616, 0), row(0.447999999999956, 0), "a > b")
    assert tie.p == 1.0 and rule.decide([tie]).verdict == "inconclusive"
    assert rule.above(row(0.9000000000000001, 0), 0.9, "a > 0.9").p == 1.0
    assert rule.greater(row(0.44800001, 0), row(0.448, 0), "a > b").p == 0.0     # a real difference still counts


def test_one_seed_cannot_be_tested():
    c = rule.greater(row(3, math.nan, 1), row(2, math.nan, 1), "a > b")
    d = rule.decide([c])
    assert math.isnan(c.p) and d.verdict == "inconclusive" and math.isnan(d.p_value)
    assert "no test" in d.note


def test_holm_adjusts_across_the_comparisons_of_one_claim():
    cs = [rule.Comparison(f"c{i}", 1.0, p, "welch") for i, p in enumerate([0.01, 0.04, 0.03])]
    adjusted = [c.p_adj for c in rule.holm(cs)]
    assert adjusted == pytest.approx([0.03, 0.06, 0.06])
    # alone each would hold at 5%; together the two larger ones do not
    assert rule.decide(cs).verdict == "inconclusive"
    assert rule.decide(cs).p_value == pytest.approx(0.06)


def test_threshold_comparisons():
    assert rule.decide([rule.above(row(0.95, 0.01), 0.9, "jain > 0.9")]).verdict == "reproduced"
    assert rule.decide([rule.below(row(0.95, 0.01), 0.9, "jain < 0.9")]).verdict == "contradicted"
    assert rule.decide([rule.above(row(0.91, 0.1), 0.9, "jain > 0.9")]).verdict == "inconclusive"


def test_not_testable_needs_a_reason_and_overrides():
    d = rule.decide([rule.greater(row(10, 1), row(5, 1), "a > b")], not_testable="the paper's Wi-Fi is not modelled")
    assert d.verdict == "not_testable" and d.note == "the paper's Wi-Fi is not modelled"
    assert rule.decide([]).verdict == "not_testable"


def test_within_a_tolerance_is_two_one_sided_tests():
    inside = rule.decide(rule.within(row(100, 2), 90, 110, "goodput"))
    outside = rule.decide(rule.within(row(120, 2), 90, 110, "goodput"))
    unsure = rule.decide(rule.within(row(108, 10), 90, 110, "goodput"))
    assert (inside.verdict, outside.verdict, unsure.verdict) == ("reproduced", "contradicted", "inconclusive")


def test_sample_gives_a_row_from_per_seed_values():
    r = rule.sample([1.0, 2.0, 3.0, float("nan")])
    assert r == {"mean": 2.0, "sd": 1.0, "n": 3}
    assert rule.sample([4.0])["n"] == 1 and math.isnan(rule.sample([4.0])["sd"])


def test_summary_is_one_sentence():
    d = rule.decide([rule.greater(row(10, 1), row(5, 1), "a > b"), rule.greater(row(5, 0), row(9, 0), "c > d")])
    assert d.summary == ("1 of 2 comparisons hold significantly; significantly reversed: c > d (deterministic); "
                         "deterministic runs compared by value.")


def test_float_noise_sd_counts_as_deterministic():
    c = rule.greater(row(10.0, 3e-15), row(9.0, 0.0), "a > b")
    assert (c.how, c.p) == ("deterministic", 0.0)
    assert rule.greater(row(10.0, 1e-3), row(9.0, 0.0), "a > b").how == "welch"


def test_a_contradiction_shows_the_p_of_its_reversal_not_of_another_comparison():
    reversed_ = rule.Comparison("a > b", -1.0, 0.001, "welch")
    unsure = rule.Comparison("c > d", 1.0, 0.4, "welch")
    d = rule.decide([reversed_, unsure])
    assert d.verdict == "contradicted" and d.p_value == pytest.approx(0.002)    # Holm: 2 x 0.001
    assert rule.decide([unsure]).p_value == pytest.approx(0.4)


# ------------------------------------------------------------ resolution and practical threshold per metric
# (reference/metric_thresholds.yaml: utilization 0.01 absolute, latency_sd_s resolution 1e-6 s,
#  throughput_mbps 1% relative)

def test_a_significant_but_negligible_difference_does_not_contradict():
    # BBR's utilization 0.9445 against the paper's "below 0.95": significant (p < 1e-6), by less than
    # one percentage point: negligible, so the claim is inconclusive, not contradicted
    c = rule.above(row(0.9545, 0.0005, 10), 0.95, "bbr utilization < 0.95", "utilization")
    assert c.p < 1e-6 and c.negligible and not c.reversed
    d = rule.decide([rule.below(row(0.9545, 0.0005, 10), 0.95, "bbr utilization < 0.95", "utilization")])
    assert d.verdict == "inconclusive"
    assert ("negligible (|difference| 0.45 percentage points smaller than the practical threshold "
            "1 percentage point)") in d.note
    assert "1 negligible" in d.summary and d.p_value == 1.0
    # the same comparison without a declared threshold reverses, as before
    assert rule.decide([rule.below(row(0.9545, 0.0005, 10), 0.95, "x")]).verdict == "contradicted"


def test_a_difference_beyond_the_practical_threshold_still_decides():
    d = rule.decide([rule.greater(row(0.90, 0.001), row(0.95, 0.001), "a > b", "utilization")])
    assert d.verdict == "contradicted"
    d = rule.decide([rule.greater(row(0.97, 0.001), row(0.95, 0.001), "a > b", "utilization")])
    assert d.verdict == "reproduced"


def test_a_relative_practical_threshold_scales_with_the_values():
    small = rule.greater(row(100.5, 0.01), row(100.0, 0.01), "a > b", "throughput_mbps")    # 0.5% of 100
    large = rule.greater(row(102.0, 0.01), row(100.0, 0.01), "a > b", "throughput_mbps")    # 2%
    assert small.practical == pytest.approx(1.005) and small.negligible and not small.holds
    assert rule.holm([large])[0].holds


def test_values_closer_than_the_resolution_are_a_tie_whatever_the_spread():
    # the reader's case: standard deviations of 5.23e-14 s and 5.225e-14 s, float noise of a delay
    c = rule.greater(row(5.23e-14, 1e-16), row(5.225e-14, 1e-16), "sd a > sd b", "latency_sd_s")
    assert c.how == "tie" and c.p == 1.0 and c.negligible and not c.holds and not c.reversed
    d = rule.decide([c])
    assert d.verdict == "inconclusive" and "tie (closer than the metric's resolution)" in d.note


def test_a_metric_without_a_declaration_is_refused_by_name(tmp_path):
    path = tmp_path / "metric_thresholds.yaml"
    path.write_text("jain: {unit: index, resolution: 0, practical: {abs: 0.01}, why: one point}\n")
    rule.use_thresholds(path)
    try:
        with pytest.raises(ValueError, match=r"metric_thresholds.yaml: no entry for metric 'utilization'"):
            rule.greater(row(1, 0.1), row(0.5, 0.1), "a > b", "utilization")
    finally:
        rule.use_thresholds(None)


def test_a_tolerance_band_is_the_practical_threshold_no_second_one_on_top():
    # mm1-9's case: a loss rate 1% off its closed form (10 %), inside the 3% band 9.7..10.3. The
    # metric's 2% threshold on top would make the 0.2 to the upper edge negligible (inconclusive).
    d = rule.decide(rule.within(row(10.1, 0.01), 9.7, 10.3, "loss vs closed form", "loss_rate"))
    assert d.verdict == "reproduced"
    assert all(c.practical == 0.0 for c in d.comparisons)
    # outside the band by less than the metric's threshold: outside, not negligible
    assert rule.decide(rule.within(row(10.35, 0.01), 9.7, 10.3, "x", "loss_rate")).verdict == "contradicted"
    # the resolution still applies: a value at the band's edge is a tie, not a holding comparison
    assert rule.decide(rule.within(row(10.3, 0.01), 9.7, 10.3, "x", "loss_rate")).verdict == "inconclusive"
    # a threshold comparison (not a band) keeps the metric's practical threshold
    assert rule.below(row(10.1, 0.01), 10.3, "x", "loss_rate").negligible


def test_notes_print_a_metric_in_the_unit_declared_for_it():
    # utilization and PLR are shares of 1 in the tables and % in the book (metric_thresholds.yaml
    # `shown`): the reader saw "0.9581 > 0.945" in a note beside 95.8% in the chapter
    assert rule.shown(0.9581, "utilization") == "95.81%"
    assert rule.shown(0.05893, "plr") == "5.893%"
    assert rule.shown(9.307, "throughput") == "9.307"          # no `shown`: the tables' unit
    assert rule.shown(0.5, None) == "0.5"
    d = rule.decide(rule.within(row(0.9581, 0.001), 0.90, 0.945, "bbr utilization 95.81%", "utilization"))
    assert "bbr utilization 95.81% < 94.5%: reversed" in d.note


def test_notes_print_no_digit_finer_than_the_metric_resolves():
    # the reader's "5.698e-14 < reno 0.2088": a delay's spread of 5.7e-14 s is float noise (resolution 1e-6 s)
    assert rule.shown(5.698e-14, "latency_sd_s") == "0"
    assert rule.shown(0.2088, "latency_sd_s") == "0.2088"
    assert rule.shown(1.2345e-5, "latency_sd_s") == "0.000012"
    assert rule.shown(96.38000001, "mean_rtt_ms") == "96.38"
    assert "e" not in rule.shown(3e-7, None)
