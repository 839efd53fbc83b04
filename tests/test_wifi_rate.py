"""Rate control and SNR errors on the packet network's 802.11 channel (simulator/net/wifi_rate.pyx,
simulator/validation/wifi_saturation.py): Minstrel's statistics worked by hand, its sampling rate, the
MCS it settles on, and the keys each setting reads."""
import pytest

from simulator.net import wifi_mac, wifi_phy
from simulator.net.wifi_rate import LinkRates
from simulator.validation import wifi_saturation

HT20 = {"standard": "n", "channel_mhz": 20, "spatial_streams": 1, "mcs": 7, "guard_interval_ns": 800}
MINSTREL = {**HT20, "rate_control": "minstrel"}
UPDATE_NS = 50_000_000


def rates(params=MINSTREL, links=1, snr_db=None):
    return LinkRates(wifi_phy.wifi_config(params), links, "wifi-rate-test", snr_db)


def test_each_update_folds_the_success_ratio_into_a_75_percent_average():
    r = rates()
    r.py_report(0, 3, 10, 7)
    r.py_pick(0, UPDATE_NS)                 # the first update: the ratio itself
    assert r.table(0) == {3: pytest.approx(0.7)}
    r.py_report(0, 3, 10, 10)
    r.py_pick(0, 2 * UPDATE_NS)             # 0.75 x 0.7 + 0.25 x 1.0
    assert r.table(0) == {3: pytest.approx(0.775)}


@pytest.mark.parametrize("p7, best", [(0.8, 7), (0.7, 5), (0.05, 5)])
def test_the_best_rate_is_the_highest_expected_throughput_with_probability_capped_at_90_percent(p7, best):
    # MCS 5 (52 Mbit/s) always gets through, MCS 7 (65 Mbit/s) with p7.  Per MPDU of a 1,500-byte packet
    # in an aggregate: 8 x 1546 bits / 52 = 237.8 us, / 65 = 190.3 us, plus the PPDU's overhead (AIFS 43 us,
    # mean backoff 67 us, preamble 36, SIFS 16, block ACK 32: 194 us) over the average A-MPDU length.
    # Uncapped, MCS 7 would need p7 > 0.85 to win; with MCS 5's 100% counted as 90%, p7 > 0.76 does.
    # Below 10% a rate counts as no throughput.
    r = rates()
    r.py_report(0, 5, 100, 100)
    r.py_report(0, 7, 100, round(100 * p7))
    assert r.py_pick(0, UPDATE_NS) == best


def test_a_ppdu_without_block_ack_sends_the_next_at_the_most_reliable_rate():
    r = rates()
    r.py_report(0, 4, 20, 20)
    r.py_report(0, 7, 20, 14)
    assert r.py_pick(0, UPDATE_NS) == 7          # 0.7 x 65 beats 0.9 x 39 (per MPDU, overhead shared)
    r.py_report(0, 7, 20, 0)                      # no block ACK
    assert r.py_pick(0, UPDATE_NS + 1) == 4      # MCS 7 is below 75%: MCS 4, which never failed
    r.py_report(0, 4, 20, 20)
    assert r.py_pick(0, UPDATE_NS + 2) == 7


def test_the_most_reliable_rate_is_the_fastest_above_75_percent():
    # a collision now and then takes MCS 7 below 100%: the fallback stays at MCS 7, not at a slow MCS that
    # happened never to fail (minstrel_ht's max_prob_rate)
    r = rates()
    for mcs, ok in ((2, 20), (4, 20), (7, 17)):
        r.py_report(0, mcs, 20, ok)
    r.py_pick(0, UPDATE_NS)
    r.py_report(0, 7, 20, 0)
    assert r.py_pick(0, UPDATE_NS + 1) == 7


def test_one_ppdu_in_16_plus_twice_the_average_aggregate_is_a_sample_of_a_faster_rate():
    r = rates()
    picks = [r.py_pick(0, 1000 * i) for i in range(180)]   # no report: average length 1, one sample in 18
    samples = [m for m in picks if m != 0]
    assert r.samples == 10 and len(samples) == 10
    assert sorted(samples[:7]) == [1, 2, 3, 4, 5, 6, 7]      # the sample table: every faster MCS once a round


def test_a_fixed_rate_never_samples_and_keeps_its_mcs():
    r = rates({**HT20, "mcs": 4})
    assert {r.py_pick(0, 1000 * i) for i in range(100)} == {4} and r.samples == 0


@pytest.mark.parametrize("snr, settles", [(15, 3), (22, 5), (27, 7)])
def test_minstrel_settles_on_the_fastest_mcs_that_gets_through_and_nearly_matches_it(snr, settles):
    """Our error model's curves (wifi_phy): at 15 dB MCS 3 gets through and MCS 4 not, at 22 dB MCS 5 and
    not 6, at 27 dB MCS 7 (the top).  Minstrel, starting at MCS 0, ends there, and its goodput over the last
    second is within 5% of that MCS fixed (its samples and its climb cost the rest)."""
    snr_keys = {"error_model": "snr", "snr_db": snr}
    times, net = wifi_saturation.run({**MINSTREL, **snr_keys}, 1, "down", 3.0)
    assert net.rates.current(0) == settles
    fixed = wifi_saturation.delivered({**HT20, **snr_keys, "mcs": settles}, 1, "down", 3.0)
    late = lambda ts: sum(1 for t in ts if t > 2.0)
    assert late(times) == pytest.approx(late(fixed), rel=0.05)


def test_snr_errors_at_a_high_snr_change_nothing_and_at_23_5_db_cost_their_share():
    clean = wifi_saturation.delivered(HT20, 1, "up", 1.0)
    high = wifi_saturation.delivered({**HT20, "error_model": "snr", "snr_db": 40}, 1, "up", 1.0)
    assert len(high) == len(clean)
    per = wifi_phy.mpdu_error_rate(23.5, 7, wifi_mac.mpdu_bytes(1500))      # 22.6% of the MPDUs fail
    lossy = wifi_saturation.delivered({**HT20, "error_model": "snr", "snr_db": 23.5}, 1, "up", 1.0)
    assert len(lossy) == pytest.approx((1 - per) * len(clean), rel=0.03)


@pytest.mark.parametrize("params, words", [
    ({**HT20, "snr_db": 20}, "'snr_db' applies with error_model: snr only"),
    ({**HT20, "rate_update_ms": 100}, "'rate_update_ms' applies with rate_control: minstrel only"),
    ({**HT20, "rate_ewma_pct": 50}, "'rate_ewma_pct' applies with rate_control: minstrel only"),
    ({**HT20, "error_model": "snr", "mpdu_error_rate": 0.1}, "'mpdu_error_rate' (0.1) applies with error_model: fixed"),
    ({**HT20, "rate_control": "ideal"}, "key 'rate_control': 'ideal' is not allowed"),
    ({**HT20, "error_model": "snr", "snr_db": 99}, "key 'snr_db': 99 is not allowed"),
])
def test_keys_that_a_setting_would_not_read_are_refused(params, words):
    with pytest.raises(ValueError, match="wifi.params.yaml") as e:
        wifi_phy.wifi_config(params)
    assert words in str(e.value)


def test_the_saturated_medium_refuses_rate_control_and_snr_errors():
    for extra in ({"rate_control": "minstrel"}, {"error_model": "snr"}):
        with pytest.raises(ValueError, match="saturated medium sends every MPDU at one MCS"):
            wifi_mac.WifiMedium({**HT20, **extra})


def test_keys_added_later_stay_out_of_run_keys_at_their_declared_defaults():
    declared = wifi_phy.declared()
    assert {k: declared[k].default for k in wifi_phy.LATE_DEFAULTS} == wifi_phy.LATE_DEFAULTS
    cfg = wifi_phy.wifi_config(HT20)
    assert not set(wifi_phy.key_params(cfg)) & set(wifi_phy.LATE_DEFAULTS)
    assert wifi_phy.key_params(wifi_phy.wifi_config(MINSTREL))["rate_control"] == "minstrel"
