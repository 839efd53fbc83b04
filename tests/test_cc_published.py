"""The as_published algorithms, rule by rule (book/published_code.md)."""
import math

import pytest

from simulator.tcp.cc.base import EVENT_DROP, TcpState
from simulator.tcp.cc.published import PublishedCubic, PublishedReno, PublishedTahoe


def started(cc, now=0.0):
    s = TcpState()
    s.now = now
    cc.init(s)
    return s


def test_tahoe_doubles_per_ack_below_ssthresh_then_adds_one_over_cwnd():
    cc = PublishedTahoe()
    s = started(cc)
    assert (s.cwnd, s.ssthresh) == (1.0, 10.0)
    seen = []
    for _ in range(4):
        cc.cong_avoid(s, 1)
        seen.append(s.cwnd)
    assert seen == [2.0, 4.0, 8.0, 16.0]          # doubling on every ACK, overshooting 10
    cc.cong_avoid(s, 1)
    assert s.cwnd == pytest.approx(16.0 + 1 / 16)


def test_tahoe_drop_resets_to_one_with_floor_half_ssthresh():
    cc = PublishedTahoe()
    s = started(cc)
    s.cwnd = 7.9
    cc.cwnd_event(s, EVENT_DROP)
    assert (s.cwnd, s.ssthresh) == (1.0, 3.0)
    s.cwnd = 1.0
    cc.cwnd_event(s, EVENT_DROP)
    assert s.ssthresh == 1.0                      # max(floor(1/2), 1)


def test_reno_slow_start_plus_one_and_ca_plus_one_per_cwnd_acks():
    cc = PublishedReno()
    s = started(cc)
    for _ in range(9):
        cc.cong_avoid(s, 1)
    assert s.cwnd == 10.0
    for _ in range(9):
        cc.cong_avoid(s, 1)
    assert s.cwnd == 10.0                         # 9 ACKs < cwnd: unchanged
    cc.cong_avoid(s, 1)
    assert s.cwnd == 11.0


def test_reno_ignores_drops_within_one_second_of_last_reaction():
    cc = PublishedReno()
    s = started(cc)
    s.cwnd, s.now = 9.0, 5.0
    cc.cwnd_event(s, EVENT_DROP)
    assert (s.cwnd, s.ssthresh) == (4.0, 4.0)
    s.now = 5.99
    cc.cwnd_event(s, EVENT_DROP)
    assert s.cwnd == 4.0                          # inside the 1 s guard
    s.now = 6.0
    cc.cwnd_event(s, EVENT_DROP)
    assert s.cwnd == 2.0


def test_reno_floor_keeps_one_packet_and_counts_it():
    cc = PublishedReno()
    s = started(cc)
    s.cwnd = 1.0
    cc.cwnd_event(s, EVENT_DROP)
    assert (s.cwnd, s.ssthresh, cc.floor_hits) == (1.0, 0.0, 1)


def test_cubic_formula_uses_one_minus_beta_in_k():
    cc = PublishedCubic()
    s = started(cc, now=0.0)
    k = (1.0 * 0.8 / 0.4) ** (1 / 3)
    s.now = 3.0
    cc.cong_avoid(s, 1)
    assert s.cwnd == pytest.approx(0.4 * (3.0 - k) ** 3 + 1.0)
    s.now = 0.5
    cc.cong_avoid(s, 1)
    assert s.cwnd == 1.0                          # max(..., 1)


def test_cubic_drop_sets_wmax_and_next_ack_lands_near_fifth_of_wmax():
    cc = PublishedCubic()
    s = started(cc)
    s.cwnd, s.now = 20.0, 10.0
    cc.cwnd_event(s, EVENT_DROP)
    assert (cc.w_max, s.cwnd, cc.epoch) == (20.0, 16.0, 10.0)
    cc.cong_avoid(s, 1)                           # t = 0: C(-K)^3 + W_max = W_max (1 - (1-beta)) = 0.2 W_max
    assert s.cwnd == pytest.approx(0.2 * 20.0)
    assert math.isclose(cc.w_max * (1 - 0.8), 4.0)
