"""The driver queue below each wireless link's discipline (simulator/net/wifi_txq.pyx, driver_queue_pkts):
filled from the discipline as soon as it has room, so its packets wait outside the AQM.  With mac80211's
FQ-CoDel at the access point a ping under a bulk flow skips the bulk flow's queue, but not the driver's:
its RTT grows by about the driver queue's drain time (the bufferbloat that AQL was added to Linux for)."""
import pytest

import simulator
from simulator.net import wifi_mac
from simulator.scenarios import wifi_testbed as tb
from simulator import registry
from tests.test_wifi_network import FRAME, HT20, Channel


def test_packets_move_into_the_driver_queue_at_once_and_leave_in_order():
    ch = Channel(1, {**HT20, "driver_queue_pkts": 4})
    ch.net.set_backoff(0, 5)
    ch.send(0, 10)
    assert ch.net.txq.driver_queue(0) == 4 and ch.net.queue_length(0) == 6
    out = ch.run()
    assert [seq for _, seq, _ in out] == list(range(10))
    plain = Channel(1, HT20)
    plain.net.set_backoff(0, 5)
    plain.send(0, 10)
    assert [t for *_, t in out] == [t for *_, t in plain.run()]     # one A-MPDU either way, same timing


def test_the_driver_queue_holds_packets_beyond_the_discipline_s_limit():
    deep, shallow = Channel(1, {**HT20, "driver_queue_pkts": 4}, buffer=5), Channel(1, HT20, buffer=5)
    for ch in (deep, shallow):
        ch.net.set_backoff(0, 5)
    assert deep.send(0, 10) == 9 and shallow.send(0, 10) == 5


def ping_ms(depth):
    m = simulator.run({"model": "testbed", "algorithm": "cubic", "medium": "wifi", "ap_queue": "fq_codel",
                       "mac_standard": "n", "mac_channel_mhz": 20, "mac_spatial_streams": 1, "mac_mcs": 7,
                       "duration": 10.0, "mac_driver_queue_pkts": depth}, 1)["metrics"]
    return m["ping_rtt_mean_ms"], m["throughput_mean_mbps"]


def test_a_driver_queue_adds_its_drain_time_to_a_ping_that_fq_codel_would_let_pass():
    base, _ = ping_ms(0)
    deep, mbps = ping_ms(256)
    drain_ms = 256 * FRAME * 8 / (mbps * 1e6) * 1e3            # 256 frames at the bulk flow's rate: ~58 ms
    assert base < 25
    assert 0.5 * drain_ms < deep - base < 1.2 * drain_ms


def test_the_key_stays_out_of_run_keys_at_0_and_the_saturated_medium_refuses_it():
    def key(**kw):
        return tb.key_params(registry.resolve({"model": "testbed", "algorithm": "cubic", "medium": "wifi", **kw}))

    assert key(mac_driver_queue_pkts=0) == key() and key(mac_driver_queue_pkts=8)["mac_driver_queue_pkts"] == 8
    with pytest.raises(ValueError, match="driver_queue_pkts: 8: the saturated medium"):
        wifi_mac.WifiMedium({**HT20, "driver_queue_pkts": 8})
