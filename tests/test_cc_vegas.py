"""Vegas against hand calculations of ns-3's TcpVegas::IncreaseWindow (binary-exact RTTs)."""
import math

import pytest

from simulator.tcp.cc.base import LOSS, OPEN, RECOVERY, AckSample, TcpState
from simulator.tcp.cc.vegas import Vegas, make


def state(cwnd, ssthresh, **kw):
    s = TcpState(cwnd, ssthresh)
    for k, v in kw.items():
        setattr(s, k, v)
    return s


def round_end(cc, s, base, minrtt, n=3):
    """A finished round: base RTT seen earlier, n samples whose minimum is minrtt."""
    cc.init(s)
    s.srtt = base
    cc.pkts_acked(s, AckSample())
    cc.min_rtt, cc.cnt_rtt = math.inf, 0
    s.srtt = minrtt
    for _ in range(n):
        cc.pkts_acked(s, AckSample())
    s.snd_una, s.snd_nxt = 100, 130            # snd_una >= beg_snd_nxt (0): round over


def test_pkts_acked_base_and_round_minimum_use_smoothed_rtt_by_default():
    cc = Vegas()
    s = state(10, 100)
    cc.init(s)
    for srtt, raw in ((0.2, 0.05), (0.1, 0.3), (0.15, 0.01)):
        s.srtt = srtt
        cc.pkts_acked(s, AckSample(rtt=raw))
    assert (cc.base_rtt, cc.min_rtt, cc.cnt_rtt) == (0.1, 0.1, 3)
    raw = Vegas(use_srtt=False)
    raw.init(s)
    raw.pkts_acked(s, AckSample(rtt=0.01))
    raw.pkts_acked(s, AckSample(rtt=-1.0))     # no sample (Karn): ignored
    assert (raw.base_rtt, raw.cnt_rtt) == (0.01, 1)


# (cwnd, ssthresh, base RTT, round minimum RTT, acked, expected diff, cwnd, ssthresh);
# after every finished round: beg_snd_nxt = snd_nxt (130), cnt_rtt = 0, min_rtt reset
ROUND_CASES = {
    # W=16, target = floor(16 * 0.05859375/0.0625) = 15, diff = 1 < alpha 2 -> 17;
    # ssthresh = max(8, 3/4 cwnd) = 12.75
    "ca_increase_when_diff_below_alpha": (16.0, 8.0, 0.05859375, 0.0625, 1, 1, 17.0, 0.75 * 17),
    # W=20, target = floor(20 * 0.5) = 10, diff = 10 > beta 4 -> 19;
    # ssthresh = max(min(10, 19 - 1), 2) = 10, then max(10, 3/4 * 19) = 14.25
    "ca_decrease_when_diff_above_beta": (20.0, 10.0, 0.1, 0.2, 1, 10, 19.0, 14.25),
    # W=20, target = floor(20 * 0.8) = 16, diff = 4: not > beta, not < alpha;
    # ssthresh = max(10, 3/4 * 20) = 15
    "ca_hold_when_diff_between_alpha_and_beta": (20.0, 10.0, 0.0625, 0.078125, 1, 4, 20.0, 15.0),
    # W=20 < ssthresh, diff = 4 > gamma 1: cwnd = min(20, 16 + 1) = 17,
    # ssthresh = max(min(1e9, 16), 2) = 16; max(16, 12.75) = 16
    "slow_start_exit_when_diff_above_gamma": (20.0, 1e9, 0.0625, 0.078125, 2, 4, 17.0, 16.0),
}


@pytest.mark.parametrize("cwnd, ssthresh, base, minrtt, acked, diff, new_cwnd, new_ssthresh",
                         list(ROUND_CASES.values()), ids=list(ROUND_CASES))
def test_round_end_hand_cases(cwnd, ssthresh, base, minrtt, acked, diff, new_cwnd, new_ssthresh):
    cc = Vegas()
    s = state(cwnd, ssthresh)
    round_end(cc, s, base, minrtt)
    cc.cong_avoid(s, acked)
    assert cc.last_diff == diff
    assert (s.cwnd, s.ssthresh) == (new_cwnd, new_ssthresh)
    assert (cc.beg_snd_nxt, cc.cnt_rtt, cc.min_rtt) == (130, 0, math.inf)


def test_slow_start_continues_one_packet_per_ack_when_diff_small():
    cc = Vegas()
    s = state(16.0, 1e9)
    round_end(cc, s, 0.05859375, 0.0625)       # diff 1 <= gamma
    cc.cong_avoid(s, 2)                        # ns-3 SlowStart: +1 per ACK, not per packet
    assert s.cwnd == 17.0
    s.snd_una = 110                            # mid-round (beg = 130): slow start goes on
    cc.cong_avoid(s, 2)
    assert s.cwnd == 18.0


def test_newreno_fallback_with_fewer_than_three_samples():
    cc = Vegas()
    s = state(20.0, 10.0)
    round_end(cc, s, 0.1, 0.2, n=2)            # would be -1 with enough samples
    cc.cong_avoid(s, 1)
    assert s.cwnd == pytest.approx(20.0 + 1 / 20)
    assert cc.beg_snd_nxt == 130 and cc.cnt_rtt == 0


def test_no_change_mid_round_in_congestion_avoidance():
    cc = Vegas()
    s = state(20.0, 10.0)
    round_end(cc, s, 0.1, 0.2)
    cc.beg_snd_nxt = 200
    cc.cong_avoid(s, 1)
    assert s.cwnd == 20.0 and cc.cnt_rtt == 3


def test_vegas_disabled_outside_open_state_then_reenabled():
    cc = Vegas()
    s = state(20.0, 10.0, snd_nxt=77)
    round_end(cc, s, 0.1, 0.2)
    cc.set_state(s, RECOVERY)
    assert not cc.doing_vegas
    cc.cong_avoid(s, 1)                        # NewReno growth
    assert s.cwnd == pytest.approx(20.05)
    s.snd_nxt = 140
    cc.set_state(s, OPEN)
    assert cc.doing_vegas and (cc.beg_snd_nxt, cc.cnt_rtt, cc.min_rtt) == (140, 0, math.inf)
    assert cc.base_rtt == 0.1                  # base RTT survives
    cc.set_state(s, LOSS)
    assert not cc.doing_vegas


def test_loss_ssthresh_ns3_and_reno():
    s = state(20.0, 1e9, in_flight=18)
    assert Vegas().ssthresh(s) == 19.0         # ns-3: max(min(ssthresh, cwnd - 1), 2)
    assert Vegas(ns3_ssthresh=False).ssthresh(s) == 9.0
    assert Vegas().ssthresh(state(2.5, 1e9)) == 2.0


def test_make_and_range_checks():
    cc = make(alpha=1, beta=3, gamma=2)
    assert (cc.alpha, cc.beta, cc.gamma) == (1, 3, 2)
    with pytest.raises(ValueError, match="alpha <= beta"):
        make(alpha=5, beta=4)
    with pytest.raises(ValueError, match="alpha <= beta"):
        make(alpha=-1)
    with pytest.raises(ValueError, match="gamma"):
        make(gamma=-1)
    with pytest.raises(ValueError, match="whole number"):
        make(alpha=1.5)
    with pytest.raises(ValueError, match="unknown parameter"):
        make(delta=1)
