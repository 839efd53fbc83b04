"""Packet-network speed: simulated packets (data + ACK) and events per wall-clock second.

The issue's reference runs: 100 Mbit/s, 20 ms, 5-BDP bottleneck, 20 s, single-flow CUBIC, and
the same with 5 flows; then one run of each NS-2 and testbed study's heaviest point (wall time
and events per second: these models report no ACK count).  Prints figures; not a test.
    python benchmarks/network_speed.py [--duration 20] [--repeat 3]
"""
import simulator
from timing import best_time, parse_args      # benchmarks/ is on sys.path when run as a script


def main():
    args = parse_args(__doc__, "--duration", type=float, default=20.0, help="simulated seconds per run")
    print(f"simulator {simulator.__version__}: dumbbell 100 Mbit/s, 20 ms, 5 BDP, "
          f"{args.duration:g} s simulated, best of {args.repeat}")
    print(f"{'run':<24}{'wall s':>8}{'packets/s':>14}{'events/s':>14}")
    for alg, flows in [("cubic", 1), ("cubic", 5), ("newreno", 1), ("qtcolfair", 5), ("bbr", 1)]:
        p = {"model": "dumbbell", "algorithm": alg, "flows": flows, "duration": args.duration,
             "warmup": 0.0}
        best, out = best_time(lambda: simulator.run(p, 1), args.repeat)
        m = out["metrics"]
        # each data packet is acknowledged about every second packet (delayed ACKs)
        packets = m["sent"] + m["acks"]
        print(f"{alg + ' x' + str(flows):<24}{best:>8.3f}{packets / best:>14,.0f}"
              f"{m['events'] / best:>14,.0f}")
    print(f"\n{'study run (as in config/studies)':<44}{'wall s':>8}{'events/s':>14}")
    for name, p in [
        ("ns2 mesh, 3 reno flows, no cap, 130 s", {"model": "ns2", "algorithm": "reno", "window": 0}),
        ("ns2 mesh, 3 vegas flows, fq, 130 s", {"model": "ns2", "algorithm": "vegas", "queue": "fq"}),
        ("testbed eth_wifi bbr + 8 cubic, 60 s", {"model": "testbed", "algorithm": "bbr", "background": "heavy"}),
        ("testbed wifi_wifi cubic bidir, 60 s", {"model": "testbed", "algorithm": "cubic", "bidir": True,
                                                 "link_setup": "wifi_wifi"}),
    ]:
        best, out = best_time(lambda: simulator.run(p, 1), args.repeat)
        print(f"{name:<44}{best:>8.3f}{out['metrics']['events'] / best:>14,.0f}")


if __name__ == "__main__":
    main()
