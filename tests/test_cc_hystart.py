"""HyStart (ns-3 TcpCubic flavour and Linux flavour) and its use from Cubic."""
import math

import pytest

from simulator.tcp.cc.base import LOSS, AckSample, TcpState
from simulator.tcp.cc.cubic import Cubic
from simulator.tcp.cc.hystart import HyStart, make


def state(cwnd, ssthresh=1e9, **kw):
    s = TcpState(cwnd, ssthresh)
    for k, v in kw.items():
        setattr(s, k, v)
    return s


def new_round(h, s, now):
    s.now = now
    s.snd_una = h.end_seq + 1
    h.on_cong_avoid(s)


def acks_at_one_rtt(variant, delay_min, rtt, n, gap, detect="both", cwnd=20.0):
    """A fresh round at t = 0 with delay_min set, then n ACKs `gap` s apart, each with `rtt`."""
    h = HyStart(variant, detect=detect)
    s = state(cwnd)
    h.init(s)
    h.delay_min = delay_min
    new_round(h, s, 0.0)
    for k in range(1, n + 1):
        s.now = gap * k
        h.on_ack(s, rtt)
    return h, s


def test_delay_threshold_clamps():
    h = HyStart("ns3")
    for dmin, thr in ((0.04, 0.04), (0.002, 0.004), (2.0, 1.0)):
        h.delay_min = dmin
        assert h.delay_thresh() == pytest.approx(thr)
    lx = HyStart("linux")
    for dmin, thr in ((0.04, 0.005), (0.2, 0.016), (0.016, 0.004)):
        lx.delay_min = dmin
        assert lx.delay_thresh() == pytest.approx(thr)


def test_new_round_when_snd_una_passes_end_seq_in_slow_start_only():
    h = HyStart()
    s = state(20.0, snd_una=1, snd_max=50, now=1.0)
    h.init(s)
    h.on_cong_avoid(s)
    assert (h.round_start, h.last_ack, h.end_seq, h.sample_cnt) == (1.0, 1.0, 50, 0)
    s.snd_una, s.now = 50, 2.0                 # not past end_seq
    h.on_cong_avoid(s)
    assert h.round_start == 1.0
    s.snd_una, s.ssthresh = 51, 10.0           # congestion avoidance: no rounds
    h.on_cong_avoid(s)
    assert h.round_start == 1.0


def test_delay_increase_ends_slow_start_after_eight_samples_ns3():
    h = HyStart("ns3")
    s = state(20.0)
    h.init(s)
    new_round(h, s, 0.0)
    for k in range(8):                         # ACKs 5 ms apart: no ACK train
        s.now = 0.005 * (k + 1)
        h.on_ack(s, 0.04)
    new_round(h, s, 0.1)
    for k in range(8):                         # curr_rtt = min of 8 = 0.081 > 0.04 + 0.04
        s.now = 0.1 + 0.005 * (k + 1)
        h.on_ack(s, 0.081 + 0.001 * k)
    assert s.ssthresh == 1e9                   # decided only on the ninth ACK
    s.cwnd = 24.0
    s.now += 0.005
    h.on_ack(s, 0.09)
    assert s.ssthresh == 24.0 and h.found == 2 and h.exits == 1


@pytest.mark.parametrize("variant, delay_min, n, rtt, ssthresh, found", [
    pytest.param("ns3", 0.0625, 12, 0.125, 1e9, 0,        # not > 0.0625 + 0.0625
                 id="ns3_no_delay_exit_at_threshold_exactly_or_below"),
    pytest.param("linux", 0.04, 9, 0.0455, 20.0, 2,       # > 0.04 + 0.005
                 id="linux_delay_threshold_is_an_eighth_of_min_rtt"),
])
def test_delay_exit_against_threshold(variant, delay_min, n, rtt, ssthresh, found):
    h, s = acks_at_one_rtt(variant, delay_min, rtt, n, gap=0.005)
    assert s.ssthresh == ssthresh and h.found == found


@pytest.mark.parametrize("variant, n", [
    pytest.param("ns3", 40, id="ns3_ends_slow_start_after_delay_min"),
    pytest.param("linux", 20, id="linux_needs_half_of_delay_min"),
])
def test_ack_train(variant, n):
    # ACKs 1/1024 s apart (< 2 ms); the train must last delay_min (ns3) or half of it (linux)
    h, s = acks_at_one_rtt(variant, 40 / 1024, 40 / 1024, n, gap=1 / 1024, detect="train",
                           cwnd=30.0)
    assert s.ssthresh == 1e9                   # 40/1024 is not > delay_min
    s.now = (n + 1) / 1024
    h.on_ack(s, 40 / 1024)
    assert s.ssthresh == 30.0 and h.found == 1


def test_gapped_acks_break_the_train():
    h, s = acks_at_one_rtt("ns3", 0.01, 0.01, 29, gap=0.003, detect="train",   # 3 ms > ack_delta
                           cwnd=30.0)
    assert h.found == 0 and s.ssthresh == 1e9


def test_below_low_window_only_delay_min_is_learned():
    h = HyStart()
    s = state(15.0)
    h.init(s)
    new_round(h, s, 0.0)
    for k in range(20):
        s.now = 0.0001 * (k + 1)
        h.on_ack(s, 0.5 + k)
    assert h.delay_min == 0.5 and h.sample_cnt == 0 and s.ssthresh == 1e9


def test_loss_resets_detector():
    h = HyStart()
    s = state(20.0, snd_max=99, now=3.0)
    h.init(s)
    h.delay_min, h.found = 0.01, 2
    h.reset(s)
    assert (h.delay_min, h.found, h.round_start, h.end_seq) == (math.inf, 0, 3.0, 99)


def test_cubic_default_has_no_hystart_and_ignores_delays():
    cc = Cubic()
    assert cc.hystart is None
    s = state(20.0, srtt=5.0)
    cc.init(s)
    cc.pkts_acked(s, AckSample(rtt=5.0))
    assert s.ssthresh == 1e9


def test_cubic_with_hystart_leaves_slow_start_on_delay_growth():
    cc = Cubic(hystart=True)
    s = state(16.0, snd_una=0, snd_nxt=16, snd_max=16)
    cc.init(s)
    t = 0.0
    srtt = 0.04
    for rnd in range(6):                       # rounds of ACKs 5 ms apart, srtt growing
        s.snd_una = s.snd_max + 1 if rnd else 1
        for _ in range(int(s.cwnd)):
            t += 0.005
            s.now, s.srtt = t, srtt
            cc.pkts_acked(s, AckSample(rtt=srtt))
            if s.cwnd >= s.ssthresh:
                break
            cc.cong_avoid(s, 1)
            s.snd_max += 2
        if s.cwnd >= s.ssthresh:
            break
        srtt *= 1.5
    assert cc.hystart.found == 2
    assert s.ssthresh == s.cwnd < 16 * 2 ** 6
    cc.set_state(s, LOSS)
    assert cc.hystart.found == 0


def test_cubic_rejects_bad_hystart_and_make_checks():
    with pytest.raises(ValueError, match="hystart"):
        Cubic(hystart="yes")
    assert isinstance(Cubic(hystart=make(variant="linux")).hystart, HyStart)
    with pytest.raises(ValueError, match="variant"):
        make(variant="bsd")
    with pytest.raises(ValueError, match="low_window"):
        make(low_window=0)
    with pytest.raises(ValueError, match="detect"):
        make(detect="loss")
    with pytest.raises(ValueError, match="unknown parameter"):
        make(beta=1)
