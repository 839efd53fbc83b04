"""The packet network's 802.11 channel (simulator/net/wifi_network.pyx): hand-computed timing, the
saturated medium's throughput (simulator/net/wifi_mac.pyx) with the network's own queues, retries
inside the next A-MPDU with in-order delivery, the retry limit, collisions."""
import pytest

from simulator.core.events import EventQueue
from simulator.net import wifi_mac
from simulator.net.wifi_network import WifiNetwork

DONE, ARRIVE, STOP = 0, 1, 2
# 802.11n, 20 MHz, one stream, MCS 7 (65 Mbit/s, long GI): 260 data bits per 4-us symbol
HT20 = {"standard": "n", "channel_mhz": 20, "spatial_streams": 1, "mcs": 7, "guard_interval_ns": 800}
FRAME = 1514            # an Ethernet frame of a 1500-byte IP packet: its MPDU is 1500 + 38 = 1538 bytes


class Channel:
    """Stations 0..n-1, each sending on its own link to the access point; flow i uses link i."""

    def __init__(self, stations, params, key="wifi-net", buffer=100_000):
        self.events = EventQueue()
        self.net = WifiNetwork(self.events, DONE, ARRIVE, stations)
        links = [self.net.add_link(1e9, 0.0, buffer) for _ in range(stations)]
        for i, link in enumerate(links):
            self.net.set_route(i, 0, [link])
        self.names = self.net.set_wifi(links, [f"sta{i}" for i in range(stations)], params, key)

    def send(self, flow, count, now=0.0, size=FRAME):
        return sum(self.net.py_send(flow, 0, seq, now, size) for seq in range(count))

    def run(self, until=float("inf")):
        """Events up to `until` s; (flow, seq, time) of each delivery, in delivery order."""
        out = []
        if until != float("inf"):
            self.events.schedule(until, STOP)
        while len(self.events):
            now, _, kind, data = self.events.next()
            if kind == STOP:
                break
            if kind == DONE:
                self.net.py_link_done(data, now)
            elif self.net.py_arrive(data, now) == 1:
                out.append((*self.net.py_packet(data), now))
                self.net.py_free(data)
        return out


def test_one_packet_waits_aifs_and_its_backoff_then_takes_its_ppdu():
    ch = Channel(1, HT20)
    ch.net.set_backoff(0, 3)
    ch.send(0, 1)
    (_, _, t), = ch.run()
    # AIFS[BE] = SIFS 16 + 3 slots of 9 = 43 us, backoff 3 slots = 27 us: the PPDU starts at 70 us.
    # A-MPDU of one subframe: delimiter 4 + MPDU 1538 = 1542 bytes = 16 + 12336 + 6 = 12358 bits,
    # 48 symbols of 260 bits = 192 us, + HT-mixed preamble 36 us = 228 us; received at its end: 298 us.
    assert t == pytest.approx(298e-6, abs=1e-12)


def test_a_station_whose_backoff_ran_out_while_idle_sends_at_once():
    ch = Channel(1, HT20)
    ch.net.set_backoff(0, 0)
    ch.send(0, 1, now=1.0)
    (_, _, t), = ch.run()
    # idle since time 0, far longer than AIFS, and no backoff left: the PPDU starts at the packet
    assert t == pytest.approx(1.0 + 228e-6, abs=1e-12)


def test_packets_queued_together_go_out_as_one_aggregate():
    ch = Channel(1, HT20)
    ch.net.set_backoff(0, 0)
    ch.send(0, 10)
    out = ch.run()
    times = {t for _, _, t in out}
    assert len(out) == 10 and len(times) == 1           # one A-MPDU, received together at its end
    # 10 subframes: 9 x (4 + 1538, padded to 1544) + 4 + 1538 = 15438 bytes = 123526 bits -> 476 symbols
    # = 1904 us + 36 us preamble; it starts at AIFS 43 us (idle since time 0, no backoff left)
    assert times.pop() == pytest.approx((43 + 36 + 1904) * 1e-6, abs=1e-12)
    assert ch.net.mpdus_sent == 10 and ch.net.exchanges == 1


def test_two_stations_with_the_same_backoff_collide_and_double_their_windows():
    ch = Channel(2, HT20)
    ch.net.set_backoff(0, 2)
    ch.net.set_backoff(1, 2)
    ch.send(0, 1)
    ch.send(1, 1)
    ch.run(until=70e-6)          # both start at 43 + 18 = 61 us, the PPDUs end at 289 us
    ch.run(until=300e-6)
    assert ch.net.collisions == 1
    assert ch.net.contention_windows() == [31, 31]
    out = ch.run()
    assert sorted(f for f, _, _ in out) == [0, 1]        # both get through later
    assert ch.net.contention_windows() == [15, 15]


@pytest.mark.parametrize("stations", [1, 2, 4])
def test_saturated_stations_get_the_saturated_medium_s_throughput(stations):
    """The network's channel, with real queues kept full, against wifi_mac.WifiMedium (whose own
    timing tests/test_wifi_mac.py pins and whose throughput is within 1% of Bianchi's model)."""
    seconds = 2.0
    ch = Channel(stations, HT20)
    for i in range(stations):
        ch.send(i, 20_000)
    got = len(ch.run(until=seconds))
    sat = wifi_mac.WifiMedium({**HT20, "stations": stations, "msdu_bytes": 1500}, seed=3)
    sat.run(seconds)
    want = int(sat.delivered_mpdus.sum())
    assert got == pytest.approx(want, rel=0.02)


def test_mpdus_in_error_are_sent_again_and_arrive_in_order():
    ch = Channel(1, {**HT20, "mpdu_error_rate": 0.3})
    ch.send(0, 3000)
    out = ch.run()
    seqs = [s for _, s, _ in out]
    assert seqs == sorted(seqs)                          # the receiver's reorder buffer
    assert len(seqs) + ch.net.mac_drops == 3000
    assert ch.net.mpdus_sent == pytest.approx(3000 / 0.7, rel=0.03)   # each tries until it gets through
    assert ch.net.mac_drops <= 5                          # 0.3 ** 7 per MPDU: about 0.7 of 3000


def test_the_retry_limit_drops_an_mpdu_and_resets_the_window():
    ch = Channel(1, {**HT20, "mpdu_error_rate": 0.5, "retry_limit": 1})
    ch.send(0, 4000)
    out = ch.run()
    assert ch.net.mac_drops == pytest.approx(2000, abs=150)   # binomial(4000, 0.5): sd 32
    assert len(out) + ch.net.mac_drops == 4000
    assert ch.net.contention_windows() == [15]


def test_the_same_key_gives_the_same_run_and_another_key_another():
    def deliveries(key):
        ch = Channel(3, {**HT20, "mpdu_error_rate": 0.1}, key=key)
        for i in range(3):
            ch.send(i, 500)
        return ch.run()
    assert deliveries("a") == deliveries("a")
    assert deliveries("a") != deliveries("b")


@pytest.mark.parametrize("params, message", [
    ({"stations": 2}, "describe the saturated medium only"),
    ({"channel_mhz": 80, "standard": "n"}, "keys 'standard', 'channel_mhz'"),
    ({"mcs": 12}, "key 'mcs'"),
])
def test_channel_parameters_are_checked_against_their_declarations(params, message):
    events = EventQueue()
    net = WifiNetwork(events, DONE, ARRIVE, 1)
    link = net.add_link(1e9, 0.0, 10)
    with pytest.raises(ValueError, match=message):
        net.set_wifi([link], ["sta"], params, "k")


def test_the_access_point_takes_turns_between_its_stations_when_both_queues_stay_full():
    """A packet that does not fit an A-MPDU waits for its link's next turn outside the block-ACK window, so
    the window empties and the access point moves on to its other station (it used to stay on one)."""
    from simulator.validation import wifi_saturation

    _, net = wifi_saturation.run(HT20, 2, "down", 1.0)
    air = [net.link_airtime(link) for link in (0, 1)]
    assert air[0] / sum(air) == pytest.approx(0.5, abs=0.02)
