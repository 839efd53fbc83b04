"""The 802.11 medium (simulator/net/wifi_mac.pyx) against hand-computed timings from IEEE 802.11-2016
constants, and its saturation throughput against Bianchi's analytic DCF model."""
import numpy as np
import pytest

from simulator.net import bianchi
from simulator.net.wifi_mac import LOG_COLUMNS, WifiMedium, ampdu_bytes, block_ack_us, mpdu_bytes, ppdu_us, tcp_ack_us
from simulator.net.wifi_phy import DIFS_US, SIFS_US, SLOT_US, phy_mode, rate_table, wifi_config

C = {name: i for i, name in enumerate(LOG_COLUMNS)}
US = 1000   # the log is in ns
# 802.11n, 20 MHz, 1 stream, MCS 7, long GI (65 Mbit/s), DCF, no aggregation
HT20 = {"standard": "n", "channel_mhz": 20, "spatial_streams": 1, "mcs": 7, "access_category": "DCF",
        "max_ampdu_mpdus": 1}
# one 1500-byte IP packet: MPDU 1500 + 8 LLC/SNAP + 26 header + 4 FCS = 1538 bytes; at 260 data bits
# per symbol: ceil((16 + 8 * 1538 + 6) / 260) = ceil(12326 / 260) = 48 symbols = 192 us, + HT-mixed
# preamble 8 + 8 + 4 + 8 + 4 + 4 = 36 us
HT20_PPDU_US = 36 + 4 * 48                       # 228 us
ACK_24_US = 20 + 4 * 2                           # ACK 14 bytes at 24 Mbit/s: ceil((16 + 112 + 6) / 96) = 2 symbols
ACK_TIMEOUT_US = SIFS_US + SLOT_US + 33          # SIFS + slot + aRxPHYStartDelay = 58 us


def test_rates_match_the_standard_tables():
    n, ac = rate_table("n"), rate_table("ac")
    assert n[(20, 1, 800, 7)] == 65.0                         # Table 19-27, MCS 7
    assert round(n[(20, 1, 400, 7)], 1) == 72.2
    assert n[(40, 2, 400, 7)] == 300.0                        # Table 19-30, MCS 15, 40 MHz short GI
    assert n[(20, 1, 800, 0)] == 6.5
    assert round(ac[(80, 2, 400, 9)], 1) == 866.7             # Table 21-38 (80 MHz, 2 streams)
    assert ac[(20, 1, 800, 8)] == 78.0                        # Table 21-30
    assert ac[(80, 1, 800, 0)] == 29.25                        # printed 29.3
    assert (20, 1, 800, 9) not in ac                          # VHT 20 MHz MCS 9 is not a rate
    assert phy_mode("ac", 80, 2, 9, 800).encoders == 2        # N_ES of 780 Mbit/s


def test_one_frame_is_difs_backoff_ppdu_sifs_ack():
    m = WifiMedium(HT20, seed=1, log_capacity=4)
    m.set_backoff(0, 5)
    m.step()
    row = m.log_table[0]
    assert row[C["start_ns"]] == (DIFS_US + 5 * SLOT_US) * US                       # 34 + 45 = 79 us
    assert row[C["ppdu_end_ns"]] == (79 + HT20_PPDU_US) * US                        # 307 us
    assert row[C["exchange_end_ns"]] == (79 + HT20_PPDU_US + 16 + ACK_24_US) * US   # 307 + 16 + 28 = 351 us
    assert row[C["outcome"]] == 0 and row[C["mpdus_ok"]] == 1
    m.step()   # the next frame waits DIFS after the ACK, then its own fresh backoff
    nxt = m.log_table[1]
    assert nxt[C["start_ns"]] == (351 + DIFS_US + nxt[C["backoff_slots"]] * SLOT_US) * US


def test_one_aggregate_is_aifs_backoff_ampdu_sifs_block_ack():
    # 802.11ac, 80 MHz, 2 streams, MCS 9, long GI (780 Mbit/s, 3120 bits per symbol, 2 encoders), BE
    m = WifiMedium({}, seed=1, log_capacity=2)
    m.set_backoff(0, 4)
    m.step()
    row = m.log_table[0]
    # subframes of 4 + 1538 bytes, padded to 1544 but the last: 42 fit 65535 bytes
    # (41 * 1544 + 1542 = 64846; 43 would be 66390)
    assert row[C["mpdus"]] == 42
    assert ampdu_bytes([1538] * 42) == 64846
    # ceil((16 + 8 * 64846 + 2 * 6) / 3120) = ceil(518796 / 3120) = 167 symbols = 668 us,
    # + VHT preamble 8 + 8 + 4 + 8 + 4 + 2 * 4 + 4 = 44 us
    ppdu = 44 + 4 * 167                                       # 712 us
    start = SIFS_US + 3 * SLOT_US + 4 * SLOT_US               # AIFS[BE] 43 us + 4 slots = 79 us
    ba = 20 + 4 * 3                                           # BlockAck 32 bytes at 24 Mbit/s: ceil(278 / 96) = 3 symbols
    assert row[C["start_ns"]] == start * US
    assert row[C["ppdu_end_ns"]] == (start + ppdu) * US
    assert row[C["exchange_end_ns"]] == (start + ppdu + SIFS_US + ba) * US   # 79 + 712 + 16 + 32 = 839 us
    assert block_ack_us(wifi_config({})) == 32


def test_the_ppdu_time_limit_caps_the_aggregate():
    # 802.11n 20 MHz MCS 0 (26 bits per symbol): 2 subframes (3086 bytes) take
    # 36 + 4 * ceil((16 + 24688 + 6) / 26) = 36 + 4 * 951 = 3840 us; 3 (4630 bytes) would take
    # 36 + 4 * 1426 = 5740 us > 5484 us
    cfg = {"standard": "n", "channel_mhz": 20, "spatial_streams": 1, "mcs": 0}
    m = WifiMedium(cfg, seed=1, log_capacity=1)
    m.step()
    row = m.log_table[0]
    assert row[C["mpdus"]] == 2
    assert row[C["ppdu_end_ns"]] - row[C["start_ns"]] == 3840 * US
    assert ppdu_us(wifi_config(cfg), ampdu_bytes([1538] * 3)) == 5740


def test_a_tcp_ack_has_its_own_airtime():
    # 52-byte TCP ACK: MPDU 90 bytes + a 4-byte delimiter (VHT): ceil((16 + 752 + 12) / 3120) = 1
    # symbol: 44 + 4 = 48 us, + SIFS 16 + ACK 28 = 92 us
    assert tcp_ack_us(wifi_config({})) == 92
    assert mpdu_bytes(52) == 90


def test_one_collision_both_lose_and_double_their_window():
    m = WifiMedium({**HT20, "stations": 2}, seed=1, log_capacity=4)
    m.set_backoff(0, 3)
    m.set_backoff(1, 3)
    m.step()
    a, b = m.log_table
    start = DIFS_US + 3 * SLOT_US                              # both start at 61 us
    for row in (a, b):
        assert row[C["start_ns"]] == start * US
        assert row[C["outcome"]] == 1 and row[C["mpdus_ok"]] == 0 and row[C["cw"]] == 15
        # both wait the ACK timeout after the 228 us PPDU: 61 + 228 + 58 = 347 us
        assert row[C["exchange_end_ns"]] == (start + HT20_PPDU_US + ACK_TIMEOUT_US) * US
    assert m.contention_windows == [31, 31]
    assert m.collisions == 1
    m.step()   # the retry: DIFS after the timeout, then a backoff drawn from [0, 31]
    nxt = m.log_table[2]
    assert 0 <= nxt[C["backoff_slots"]] <= 31 and nxt[C["cw"]] == 31
    assert nxt[C["start_ns"]] == (347 + DIFS_US + nxt[C["backoff_slots"]] * SLOT_US) * US


def test_a_retry_chain_ends_in_a_drop_and_a_reset_window():
    m = WifiMedium({**HT20, "mpdu_error_rate": 1.0}, seed=3, log_capacity=8)
    for _ in range(8):
        m.step()
    log = m.log_table
    assert list(log[:7, C["cw"]]) == [15, 31, 63, 127, 255, 511, 1023]   # 7 attempts (retry limit 7)
    assert (log[:, C["outcome"]] == 2).all()
    assert log[7, C["cw"]] == 15                                          # the next MPDU starts over
    assert list(m.dropped_mpdus) == [1]
    for prev, row in zip(log[:-1], log[1:]):
        # each attempt: ACK timeout after its PPDU, DIFS, its own backoff
        assert prev[C["exchange_end_ns"]] == prev[C["ppdu_end_ns"]] + ACK_TIMEOUT_US * US
        assert row[C["start_ns"]] == prev[C["exchange_end_ns"]] + (DIFS_US + row[C["backoff_slots"]] * SLOT_US) * US
        assert 0 <= row[C["backoff_slots"]] <= row[C["cw"]]


def test_failed_mpdus_go_out_again_in_the_next_aggregate():
    # each MPDU fails with probability 1/2 per attempt: 7 attempts lose 1/128 of them and take
    # sum(0.5^j, j < 7) = 1.98 transmissions each
    m = WifiMedium({"mpdu_error_rate": 0.5}, seed=2)
    m.run(2.0)
    done = m.delivered_mpdus.sum() + m.dropped_mpdus.sum()
    assert done > 40000
    assert m.dropped_mpdus.sum() / done == pytest.approx(1 / 128, rel=0.15)
    assert m.mpdus_sent / done == pytest.approx(1.984, rel=0.02)


def test_same_seed_same_run():
    logs = []
    for _ in range(2):
        m = WifiMedium({"stations": 3, "mpdu_error_rate": 0.1}, seed=7, log_capacity=500)
        m.run(0.2)
        logs.append(m.log_table)
    assert np.array_equal(logs[0], logs[1]) and len(logs[0]) > 200


@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_saturation_throughput_agrees_with_bianchi(n):
    # Bianchi's model charges every station the same Tc after a collision: eifs off.  Tolerance 2%
    # (measured: within 0.7% over 3 seeds of 5 s each).
    p = {**HT20, "stations": n, "eifs": False}
    cfg = wifi_config(p)
    ppdu = ppdu_us(cfg, mpdu_bytes(1500))
    ts = DIFS_US + ppdu + SIFS_US + ACK_24_US                 # a success: 34 + 228 + 16 + 28 = 306 us
    tc = ppdu + ACK_TIMEOUT_US + DIFS_US                      # a collision: 228 + 58 + 34 = 320 us
    expected = bianchi.throughput_bps(n, 1500 * 8, SLOT_US * 1e-6, ts * 1e-6, tc * 1e-6)
    m = WifiMedium(p, seed=11)
    m.run(4.0)
    ours = m.delivered_payload_bytes.sum() * 8 / (m.now_ns * 1e-9)
    assert ours == pytest.approx(expected, rel=0.02)
    if n > 1:
        assert m.collisions > 0


def test_bianchi_fixed_point_matches_his_example():
    # one station never collides: tau = 2 / (CWmin + 2) (eq. 7 with p = 0)
    assert bianchi.fixed_point(1, 15, 1023, 7)[0] == pytest.approx(2 / 17)
    tau, p = bianchi.fixed_point(10, 31, 1023, 6)
    assert p == pytest.approx(1 - (1 - tau) ** 9)


@pytest.mark.parametrize("params, words", [
    ({"standard": "n", "channel_mhz": 20, "mcs": 9}, ["wifi.params.yaml", "'mcs'", "MCS 0-7"]),
    ({"channel_mhz": 20, "spatial_streams": 1, "mcs": 9}, ["wifi.params.yaml", "not a valid rate"]),
    ({"channel_mhz": 160}, ["wifi.params.yaml", "'channel_mhz'", "160", "[20, 40, 80]"]),
    ({"retry_limit": 0}, ["wifi.params.yaml", "'retry_limit'", "minimum"]),
    ({"cw_min": 3}, ["wifi.params.yaml", "unknown key", "cw_min", "allowed"]),
])
def test_bad_parameters_are_refused_with_file_key_and_allowed_values(params, words):
    with pytest.raises(ValueError) as e:
        WifiMedium(params)
    for w in words:
        assert w in str(e.value)


def test_a_bystander_to_a_collision_waits_eifs():
    # stations 0 and 1 collide at 61 us; station 2 (20 slots drawn) counted the 4 boundaries
    # 34, 43, 52, 61 us and has 16 left.  The busy medium ends at 61 + 228 = 289 us; station 2 waits
    # EIFS = SIFS 16 + ACK at 6 Mbit/s (20 + 4 * ceil(134 / 24) = 44) + DIFS 34 = 94 us, then 16 slots
    m = WifiMedium({**HT20, "stations": 3}, seed=1, log_capacity=4)
    for station, slots in ((0, 3), (1, 3), (2, 20)):
        m.set_backoff(station, slots)
    m.step()
    m.set_backoff(0, 31)
    m.set_backoff(1, 31)
    m.step()
    row = m.log_table[2]
    assert row[C["station"]] == 2
    assert row[C["start_ns"]] == (289 + 16 + 44 + 34 + 16 * SLOT_US) * US       # 527 us
