"""QtCol / QtColFair against hand calculations of the authors' ns-3 update rules.

Numbers are chosen binary-exact (1/16, 3/32, 1.25) so W*R/Rt has no rounding surprises."""
import math

import pytest

from simulator.tcp.cc.aimd import RenoGrowth
from simulator.tcp.cc.base import AckSample, TcpState
from simulator.tcp.cc.qtcol import QtCol, QtColFair, make

RMIN, ALPHA = 0.0625, 1.25          # Rt = 0.078125


def state(cwnd, ssthresh=1e9, **kw):
    s = TcpState(cwnd, ssthresh)
    for k, v in kw.items():
        setattr(s, k, v)
    return s


def primed(cc, s, rmin=RMIN, n=3):
    """n ACKs whose smoothed RTT is rmin: Rmin = rmin, cnt_rtt = n."""
    cc.init(s)
    srtt = s.srtt
    s.srtt = rmin
    for _ in range(n):
        cc.pkts_acked(s, AckSample())
    s.srtt = srtt


def test_qtcol_is_a_newreno_extension_with_newreno_ssthresh():
    cc = QtCol(1.2)
    assert isinstance(cc, RenoGrowth)
    assert cc.ssthresh(state(10, in_flight=9)) == 4.5


def test_pkts_acked_tracks_min_smoothed_rtt_and_counts_acks():
    cc = QtCol(ALPHA)
    s = state(10)
    cc.init(s)
    cc.pkts_acked(s, AckSample())              # srtt < 0: no sample, not counted
    assert (cc.cnt_rtt, cc.rmin) == (0, math.inf)
    for srtt in (0.1, 0.0625, 0.09):
        s.srtt = srtt
        cc.pkts_acked(s, AckSample(rtt=0.01))  # the raw sample is ignored: R is srtt
    assert (cc.cnt_rtt, cc.rmin, cc.target) == (3, 0.0625, 0.078125)


BOTH = (QtCol, QtColFair)


# (classes, cwnd, srtt R, in-flight L, expected Wnew, expected Lpred); Rmin = 1/16, alpha = 1.25
UPDATE_CASES = {
    # W=100, L=90, R=3/32, Rmin=1/16, alpha=1.25: W*R/Rt = 120, Lpred = 190 - 120 = 70,
    # Wnew = 100 + ceil(1/16 * (70 - 90) / (3/32)) = 100 + ceil(-13.33) = 87
    "formula_hand_case": (BOTH, 100.0, 0.09375, 90, 87, 70),
    # W=101: W*R/Rt = 121.2; QtCol ceil -> 122, Lpred = 191 - 122 = 69;
    # QtColFair trunc(191 - 121.2) = 69 as well; Wnew = 101 + ceil(-14.0) = 87
    "fractional_w_r_over_rt": (BOTH, 101.9, 0.09375, 90, 87, 69),     # W = floor(cwnd) = 101
    # W=10, L=10, R=0.25: W*R/Rt = 32 > L+W -> Lpred = 4; Wnew = 10 + ceil(-1.5) = 9
    "lpred_floor_of_four_when_rtt_far_above_target": ((QtCol,), 10.0, 0.25, 10, 9, 4),
    # R = Rt: Lpred = L = 18 -> 19; Wnew = 20 + ceil(1/16 * 1 / 0.078125) = 20 + ceil(0.8) = 21
    "lpred_equal_to_l_is_bumped_by_one": ((QtCol,), 20.0, 0.078125, 18, 21, 19),
    # R = 21/256: W*R/Rt = 21, Lpred = 38 - 21 = 17; ceil(1/16 * -1 / R) = ceil(-0.76) = 0
    "wnew_equal_to_w_is_bumped_by_one": ((QtCol,), 20.0, 21 / 256, 18, 21, 17),
    # W=5, L=30, R=0.25: x = 16, Lpred = 19, Wnew = 5 + ceil(-2.75) = 3 -> 4
    "wnew_floor_of_four": ((QtCol,), 5.0, 0.25, 30, 4, 19),
}


@pytest.mark.parametrize("cls, cwnd, srtt, in_flight, wnew, lpred", [
    pytest.param(cls, *case, id=f"{name}-{cls.__name__}")
    for name, (classes, *case) in UPDATE_CASES.items() for cls in classes])
def test_update_hand_cases(cls, cwnd, srtt, in_flight, wnew, lpred):
    cc = cls(ALPHA)
    s = state(cwnd, srtt=srtt, in_flight=in_flight)
    primed(cc, s)
    assert cc.compute_cwnd(s) == wnew
    assert cc.last_lpred == lpred


def test_cong_avoid_updates_once_per_rtt_after_three_acks_and_caps_ssthresh():
    cc = QtCol(ALPHA)
    s = state(100.0, 1e9, srtt=0.09375, in_flight=90, snd_una=500, snd_nxt=600)
    primed(cc, s, n=2)
    cc.cong_avoid(s, 1)                          # only 2 ACKs since the last update: nothing
    assert (s.cwnd, s.ssthresh, cc.updates) == (100.0, 1e9, 0)
    cc.pkts_acked(s, AckSample())                # the third
    cc.cong_avoid(s, 1)
    assert s.cwnd == 87.0
    assert s.ssthresh == 90.0                    # R > 1.01 Rmin: min(ssthresh, 0.9 * 100)
    assert (cc.beg_snd_nxt, cc.cnt_rtt, cc.updates) == (600, 0, 1)
    for _ in range(5):                           # same RTT round: no second update
        cc.pkts_acked(s, AckSample())
        s.snd_una += 1
        cc.cong_avoid(s, 1)
    assert s.cwnd == 87.0 and cc.updates == 1


def test_ssthresh_not_capped_when_rtt_within_one_percent():
    cc = QtCol(ALPHA)
    s = state(100.0, 1e9, srtt=0.0625 * 1.005, in_flight=90, snd_una=1, snd_nxt=2)
    primed(cc, s)
    cc.cong_avoid(s, 1)
    assert s.ssthresh == 1e9
    assert cc.updates == 1


def test_ssthresh_cap_not_below_two():
    cc = QtCol(ALPHA)
    s = state(2.0, 1e9, srtt=0.09375, in_flight=2, snd_una=1, snd_nxt=2)
    primed(cc, s)
    cc.cong_avoid(s, 1)
    assert s.ssthresh == 2.0


def test_slow_start_between_updates_one_packet_per_ack_below_target():
    cc = QtCol(ALPHA)
    s = state(10.0, 1e9, srtt=0.07, in_flight=10, snd_una=5, snd_nxt=15)
    primed(cc, s)
    cc.beg_snd_nxt = 12                          # mid-round: snd_una < saved snd_nxt
    cc.cong_avoid(s, 2)                          # srtt 0.07 < Rt 0.078125: +1 whatever acked
    assert s.cwnd == 11.0
    assert cc.beg_snd_nxt == 15                  # the code moves the saved edge too
    s.srtt = 0.08                                # above target: no slow start
    cc.cong_avoid(s, 1)
    assert s.cwnd == 11.0
    s.srtt, s.ssthresh = 0.07, 11.0              # cwnd == ssthresh: no slow start
    cc.cong_avoid(s, 1)
    assert s.cwnd == 11.0


def test_qtcol_rmin_never_expires():
    cc = QtCol(ALPHA)
    s = state(50.0, srtt=0.09375, in_flight=40, snd_una=1, snd_nxt=2, now=25.0)
    primed(cc, s)
    cc.cong_avoid(s, 1)
    assert cc.rmin == RMIN
    assert s.cwnd != 4.0


def test_qtcolfair_probe_cycle_and_recovery_from_saved_in_flight():
    cc = QtColFair(ALPHA)
    s = state(210.0, 1e9, srtt=RMIN, in_flight=200, snd_una=1000, snd_nxt=1200, now=9.99)
    primed(cc, s)
    cc.beg_snd_nxt = 2000                        # mid-round so no update interferes
    cc.cong_avoid(s, 1)
    assert not cc.probing and s.cwnd == 211.0    # slow start, no probe before 10 s
    cc.beg_snd_nxt = 2000
    s.now, s.srtt = 10.5, 0.09375
    cc.cong_avoid(s, 1)                          # Rmin expired (10.5 > 0 + 10): probe
    assert cc.probing and s.cwnd == 4.0
    assert (cc.prior_in_flight, cc.probe_duration, cc.rmin_stamp) == (200, RMIN, 10.5)
    assert cc.rmin == 0.09375                    # reset, then refilled from this ACK's srtt
    s.srtt = RMIN
    cc.pkts_acked(s, AckSample())
    assert cc.rmin == RMIN
    s.now, s.in_flight, s.snd_una = 10.55, 4, 2000
    cc.cong_avoid(s, 1)                          # only 0.05 s < old Rmin since probe start
    assert cc.probing and s.cwnd == 4.0
    s.now, s.in_flight = 10.6, 10                # one old Rmin passed but in-flight > 4
    cc.cong_avoid(s, 1)
    assert cc.probing and s.cwnd == 4.0
    s.now, s.in_flight = 10.65, 4
    cc.cong_avoid(s, 1)                          # 0.15 >= 0.0625 and in-flight <= 4: end
    assert not cc.probing and not cc.use_prior_in_flight
    # first update after the probe: Lpred = trunc(0.9 * 200) = 180, W = L = 4, R = Rmin
    # Wnew = 4 + ceil(1/16 * (180 - 4) / (1/16)) = 180
    assert cc.last_lpred == 180 and s.cwnd == 180.0
    assert cc.probes == 1


def test_qtcolfair_probes_on_a_common_schedule_from_time_zero():
    def probe_times(start):
        cc = QtColFair(ALPHA)
        s = state(50.0, 10.0, srtt=RMIN, in_flight=4, snd_una=0, snd_nxt=100, now=start)
        cc.init(s)
        times = []
        k = 0
        while start + 0.25 * k < 31:
            s.now = start + 0.25 * k
            before = cc.probes
            cc.cong_avoid(s, 1)              # in-flight 4: a probe ends one Rmin later
            if cc.probes > before:
                times.append(round(s.now, 2))
            k += 1
        return times

    # the expiry clock starts at t = 0, not at the flow's start, and restarts at each probe
    assert probe_times(0.0) == [10.25, 20.5, 30.75]
    assert probe_times(0.3) == [10.05, 20.3, 30.55]
    assert probe_times(5.0) == [10.25, 20.5, 30.75]


def test_make_and_range_checks():
    assert type(make()) is QtCol
    fair = make(fair=True, alpha=1.5, rmin_window=5.0)
    assert type(fair) is QtColFair and fair.alpha == 1.5 and fair.rmin_window == 5.0
    for bad in (1.0, 0.9, -2.0, float("inf")):
        with pytest.raises(ValueError, match="alpha must be > 1"):
            make(alpha=bad)
    with pytest.raises(ValueError, match="rmin_window"):
        make(fair=True, rmin_window=0)
    with pytest.raises(ValueError, match="unknown parameter"):
        make(beta=2)
