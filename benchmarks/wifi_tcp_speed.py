"""Speed of TCP over the packet network's 802.11 channel (simulator/net/wifi_network.pyx) against the
same TCP over a wired dumbbell: delivered packets per wall second (the issue's figure: one 802.11ac
station, TCP CUBIC, 60 simulated s) and the ratio of their per-packet costs.

    .venv/bin/python benchmarks/wifi_tcp_speed.py [simulated seconds, default 60] [repeats, default 3]
"""
import sys
import time

from simulator import registry

WIFI = {"model": "testbed", "algorithm": "cubic", "medium": "wifi", "link_setup": "eth_wifi"}
# a wired path of about the same rate, so both carry about as many packets
DUMBBELL = {"model": "dumbbell", "algorithm": "cubic", "flows": 1, "bottleneck_mbps": 500,
            "delay_ms": 10, "buffer_pkts": 1000}


def packets_per_wall_second(params, seconds, repeats):
    """Best of `repeats`: (delivered data packets per wall s, Mbit/s, wall s)."""
    p = registry.resolve({**params, "duration": seconds, "warmup": 0})
    best = None
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = registry.scenario(p["model"]).run(p, registry.key(p, 0))
        wall = time.perf_counter() - t0
        mbps = out["metrics"].get("throughput_mean_mbps", out["metrics"].get("goodput_mbps"))
        pkts = mbps * 1e6 * seconds / 8 / p["mss_bytes"]
        if best is None or wall < best[2]:
            best = (pkts / wall, mbps, wall)
    return best


def main(seconds=60.0, repeats=3):
    rows = {"802.11ac 80 MHz 2x2 MCS 9, TCP CUBIC": WIFI, "wired dumbbell 500 Mbit/s, TCP CUBIC": DUMBBELL}
    rates = {}
    for name, params in rows.items():
        rate, mbps, wall = packets_per_wall_second(params, seconds, repeats)
        rates[name] = rate
        print(f"{name}: {rate:,.0f} delivered packets per wall s ({mbps:.0f} Mbit/s, "
              f"{seconds:g} simulated s in {wall:.2f} s wall, best of {repeats})")
    wifi, wired = rates.values()
    print(f"per-packet cost, Wi-Fi / wired: {wired / wifi:.2f}x (the issue's bound: 3x)")


if __name__ == "__main__":
    main(float(sys.argv[1]) if len(sys.argv) > 1 else 60.0, int(sys.argv[2]) if len(sys.argv) > 2 else 3)
