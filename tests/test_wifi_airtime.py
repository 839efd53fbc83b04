"""The access point's airtime scheduler (simulator/net/wifi_network.pyx, airtime_fairness): two stations,
one near (33 dB: Minstrel settles on VHT MCS 9, 390 Mbit/s) and one far (15 dB: MCS 3, 117 Mbit/s), the
access point's queues to both kept full.  One A-MPDU each in turn gives them equal packets and the far one
most of the air; mac80211's airtime scheduler gives them equal air and the near one its higher rate."""
import pytest

from simulator.net import wifi_phy
from simulator.validation import wifi_saturation

AC80 = {"standard": "ac", "channel_mhz": 80, "spatial_streams": 1, "mcs": 9, "rate_control": "minstrel",
        "error_model": "snr"}
SNRS = {0: 33, 1: 15}


def shares(params):
    times, net = wifi_saturation.run(params, 2, "down", 3.0, snr_db=SNRS)
    air = [net.link_airtime(link) for link in (0, 1)]
    return [net.rates.current(link) for link in (0, 1)], [a / sum(air) for a in air], len(times)


def test_one_aggregate_each_in_turn_gives_the_far_station_most_of_the_air():
    mcs, air, _ = shares(AC80)
    assert mcs == [9, 3]
    assert air[1] > 0.7                       # its A-MPDUs of the same length take 3.3x as long


def test_the_airtime_scheduler_gives_each_station_half_of_the_air_and_the_cell_more_packets():
    mcs, air, delivered = shares({**AC80, "airtime_fairness": True})
    assert mcs[0] == 9 and mcs[1] in (2, 3)   # the far station sends less often, so samples less
    assert air == pytest.approx([0.5, 0.5], abs=0.03)
    assert delivered > 1.15 * shares(AC80)[2]     # the near station's air is worth 3.3x as many packets


def test_the_quantum_needs_the_airtime_scheduler():
    with pytest.raises(ValueError, match="'airtime_quantum_us' applies with airtime_fairness: True only"):
        wifi_phy.wifi_config({**AC80, "airtime_quantum_us": 500})
