"""The testbed model's two media (simulator/scenarios/wifi_testbed.py): `simple`, the abstract
half-duplex channel every existing result used, and `wifi`, the 802.11 channel with its mac_ keys;
each medium's keys only with it, and the simple medium's run keys as before."""
import pytest

from simulator import registry
from simulator.net import wifi_mac
from simulator.scenarios import wifi_testbed as tb


def resolve(**kw):
    return registry.resolve({"model": "testbed", "algorithm": "cubic", **kw})


def test_a_simple_medium_run_keeps_its_key_without_the_new_keys():
    kp = tb.key_params(resolve())
    assert "medium" not in kp and not [k for k in kp if k.startswith("mac_")]
    assert {"wifi_mbps", "loss_pct", "jitter_ms"} <= set(kp)


def test_the_rate_control_keys_stay_out_of_an_802_11_run_s_key_at_their_defaults():
    plain = resolve(medium="wifi")
    assert not {"mac_error_model", "mac_snr_db", "mac_rate_control"} & set(tb.key_params(plain))
    assert tb.key_params(resolve(medium="wifi", mac_rate_control="fixed")) == tb.key_params(plain)
    minstrel = resolve(medium="wifi", mac_rate_control="minstrel", mac_error_model="snr", mac_snr_db=22)
    assert tb.key_params(minstrel)["mac_snr_db"] == 22 and registry.key(minstrel, 0) != registry.key(plain, 0)


def test_an_802_11_run_is_keyed_by_its_mac_keys_and_not_by_the_abstract_channel_s():
    kp = tb.key_params(resolve(medium="wifi", mac_mcs=5))
    assert kp["medium"] == "wifi" and kp["mac_mcs"] == 5
    assert not set(tb.SIMPLE_ONLY) & set(kp)
    assert registry.key(resolve(medium="wifi", mac_mcs=5), 0) != registry.key(resolve(medium="wifi", mac_mcs=6), 0)


@pytest.mark.parametrize("params, message", [
    ({"medium": "wifi", "loss_pct": 1.0}, r"keys \['loss_pct'\] apply to medium: simple only"),
    ({"mac_mcs": 3}, r"keys \['mac_mcs'\] apply to medium: wifi only"),
    ({"medium": "wifi", "mac_standard": "n", "mac_channel_mhz": 80}, "keys 'standard', 'channel_mhz'"),
    ({"medium": "radio"}, "medium 'radio' unknown for model testbed; allowed: simple, wifi"),
    ({"medium": "wifi", "mac_snr_db": 20}, "mac_ keys .*'snr_db' applies with error_model: snr only"),
    ({"medium": "wifi", "mac_rate_control": "minstrel", "mac_error_model": "snr", "mac_mpdu_error_rate": 0.1},
     "'mpdu_error_rate' \\(0.1\\) applies with error_model: fixed only"),
])
def test_each_medium_s_keys_only_with_that_medium(params, message):
    with pytest.raises(ValueError, match=message):
        resolve(**params)


def run(**kw):
    p = resolve(medium="wifi", duration=10, **kw)
    return tb.run(p, registry.key(p, 0))["metrics"]


def test_tcp_over_the_802_11_channel_is_deterministic_and_below_the_saturated_udp_rate():
    a, b = run(), run()
    assert repr(a) == repr(b)                  # repr: nan == nan
    cfg = {"standard": "ac", "channel_mhz": 80, "spatial_streams": 2, "mcs": 9, "msdu_bytes": 1500}
    sat = wifi_mac.WifiMedium(cfg, seed=1)
    sat.run(2.0)
    udp_mbps = sat.delivered_payload_bytes.sum() * 8 / 2.0 / 1e6
    # the TCP ACKs contend for the same channel, so TCP gets less than UDP, but most of it
    assert 0.6 * udp_mbps < a["throughput_mean_mbps"] < udp_mbps


def test_the_access_point_queue_sets_the_ping_delay_under_load():
    small, large = run(ap_buffer_pkts=50, wifi_delay_ms=0), run(ap_buffer_pkts=1000, wifi_delay_ms=0)
    # a full 1000-packet queue at about 460 Mbit/s holds about 25 ms; 50 packets about 1.3 ms
    assert large["ping_rtt_mean_ms"] > 10 * small["ping_rtt_mean_ms"]
    assert small["ping_rtt_mean_ms"] < 5
