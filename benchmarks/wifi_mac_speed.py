"""Speed of the 802.11 medium (simulator/net/wifi_mac.pyx): PPDUs (frames) and MPDUs per wall
second for one saturated station, with and without aggregation.

    .venv/bin/python benchmarks/wifi_mac_speed.py [simulated seconds, default 60]
"""
import sys
import time

from simulator.net.wifi_mac import WifiMedium

CASES = {
    "802.11ac 80 MHz 2x2 MCS 9, A-MPDU": {},
    "802.11ac 80 MHz 2x2 MCS 9, A-MPDU, 10% MPDU errors": {"mpdu_error_rate": 0.1},
    "802.11n 20 MHz 1x1 MCS 7, no aggregation": {"standard": "n", "channel_mhz": 20, "spatial_streams": 1,
                                                 "mcs": 7, "max_ampdu_mpdus": 1},
}


def main(seconds: float = 60.0) -> None:
    for name, params in CASES.items():
        m = WifiMedium(params, seed=1)
        t0 = time.perf_counter()
        m.run(seconds)
        wall = time.perf_counter() - t0
        mbps = m.delivered_payload_bytes.sum() * 8 / seconds / 1e6
        print(f"{name}: {m.exchanges / wall:,.0f} frames/s, {m.mpdus_sent / wall:,.0f} MPDUs/s "
              f"({seconds:g} simulated s in {wall:.3f} s wall; {mbps:.1f} Mbit/s goodput)")


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 60.0)
