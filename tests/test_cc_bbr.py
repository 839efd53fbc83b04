"""BBR v1 driven by synthetic rate samples: filter, state machine, gains, cwnd and pacing."""
import pytest

from simulator.tcp.cc.base import (EVENT_COMPLETE_CWR, OPEN, RECOVERY, AckSample,
                                   CongestionControl, TcpState)
from simulator.tcp.cc.bbr import DRAIN, PROBE_BW, PROBE_RTT, STARTUP, Bbr, make

RTT = 0.0625


def start(cwnd=10.0, **kw):
    b = Bbr(**kw)
    s = TcpState(cwnd, 1e9)
    s.srtt = s.min_rtt = s.last_rtt = RTT
    b.init(s)
    return b, s


def ack(b, s, now, rate, acked=2, in_flight=None, new_round=True, losses=0, prior_in_flight=None,
        app_limited=False, srtt=None):
    """One ACK: delivers `acked` packets; new_round makes its prior_delivered reach the round end."""
    s.now = now
    prior = s.delivered
    s.delivered += acked
    if in_flight is not None:
        s.in_flight = in_flight
    if srtt is not None:
        s.srtt = srtt
    rs = AckSample(acked, s.srtt, s.in_flight, now)
    rs.delivered = acked
    rs.prior_delivered = prior if new_round else b.next_round_delivered - 1
    rs.delivery_rate = rate
    rs.interval = 0.1 if rate > 0 else -1.0
    rs.losses = losses
    rs.is_app_limited = app_limited
    rs.prior_in_flight = s.in_flight if prior_in_flight is None else prior_in_flight
    b.pkts_acked(s, rs)
    b.cong_control(s, rs)
    return rs


def fill_pipe(b, s, rate=1024.0):
    """Startup: bandwidth 1024 (>= 1.25 x the seed), then 3 rounds without 25% growth."""
    t = 0.1
    for r in (rate, rate * 1.1, rate * 1.1, rate * 1.1):
        ack(b, s, t, r, in_flight=100)
        t += 0.1
    return t


def test_is_an_owning_algorithm_with_startup_gains_and_initial_pacing():
    b, s = start()
    assert isinstance(b, CongestionControl) and b.owns_cwnd
    assert (b.mode, b.pacing_gain, b.cwnd_gain) == (STARTUP, 2.89, 2.89)
    # ns-3 InitPacingRate: high_gain * cwnd / min_rtt (whole ms: 62 ms), filter seeded with it
    assert s.pacing_rate == pytest.approx(2.89 * 10 / 0.062)
    assert b.btl_bw() == pytest.approx(10 / 0.062)


def test_max_filter_keeps_the_max_for_ten_rounds_then_expires():
    b = Bbr()
    b.bw_filter_reset(0.0, 0)
    b.bw_filter_update(100.0, 1)
    for t in range(2, 12):
        b.bw_filter_update(50.0, t)
        assert b.btl_bw() == 100.0            # round 11: 11 - 1 = 10 rounds, not more
    b.bw_filter_update(50.0, 12)
    assert b.btl_bw() == 50.0
    b.bw_filter_update(70.0, 13)              # a higher sample takes over at once
    assert b.btl_bw() == 70.0


def test_round_counting_by_prior_delivered():
    b, s = start()
    ack(b, s, 0.1, 500.0)                     # prior_delivered 0 >= next 0: round 1
    assert (b.round_count, b.round_start, b.next_round_delivered) == (1, True, 2)
    ack(b, s, 0.11, 500.0, new_round=False)
    assert (b.round_count, b.round_start) == (1, False)
    ack(b, s, 0.12, 500.0)                    # prior_delivered 4 >= 2: round 2
    assert (b.round_count, b.next_round_delivered) == (2, 6)
    ack(b, s, 0.13, -1.0)                     # no valid rate sample: no round, no filter
    assert (b.round_count, b.round_start) == (2, False)


def test_app_limited_sample_below_max_is_ignored():
    b, s = start()
    ack(b, s, 0.1, 1000.0)
    ack(b, s, 0.2, 400.0, app_limited=True)
    assert b.btl_bw() == 1000.0
    ack(b, s, 0.3, 2000.0, app_limited=True)  # not below the max: taken
    assert b.btl_bw() == 2000.0


def test_startup_grows_cwnd_by_acked_and_pacing_only_rises():
    b, s = start()
    ack(b, s, 0.1, 1000.0, acked=4)
    assert s.cwnd == 14.0                     # target 2.89 * 1000 * 0.0625 + 3 is far above
    assert s.pacing_rate == pytest.approx(2.89 * 1000 * 0.99)
    ack(b, s, 0.2, 900.0, acked=2)            # filter keeps 1000
    assert s.pacing_rate == pytest.approx(2.89 * 1000 * 0.99)


def test_full_pipe_after_three_rounds_without_25_percent_growth_then_drain():
    b, s = start()
    ack(b, s, 0.1, 1024.0, in_flight=100)
    assert (b.full_bw, b.full_bw_count) == (1024.0, 0)
    ack(b, s, 0.2, 1126.4, in_flight=100)     # +10%: not growth
    ack(b, s, 0.3, 1126.4, in_flight=100)
    assert (b.full_pipe, b.full_bw_count, b.mode) == (False, 2, STARTUP)
    ack(b, s, 0.4, 1126.4, in_flight=100)
    assert b.full_pipe and b.mode == DRAIN
    bdp = 1126.4 * RTT
    assert s.ssthresh == pytest.approx(bdp + 3)                     # inflight(1)
    assert b.pacing_gain == pytest.approx(1 / 2.89) and b.cwnd_gain == 2.89
    assert s.pacing_rate == pytest.approx(1126.4 * 0.99 / 2.89)     # set although lower


def test_growth_of_25_percent_restarts_the_count():
    b, s = start()
    for r in (1000.0, 1100.0, 1100.0, 1375.0, 1400.0):
        ack(b, s, 0.1, r)
    assert (b.full_bw, b.full_bw_count, b.full_pipe) == (1375.0, 1, False)


def test_drain_to_probe_bw_when_in_flight_reaches_one_bdp():
    b, s = start(cycle_start=0)
    t = fill_pipe(b, s)
    bdp = 1126.4 * RTT
    ack(b, s, t, 1126.4, in_flight=int(bdp + 3) + 1, new_round=False)
    assert b.mode == DRAIN
    ack(b, s, t + 0.01, 1126.4, in_flight=int(bdp + 3), new_round=False)
    assert b.mode == PROBE_BW and b.cycle_index == 0 and b.pacing_gain == 1.25
    assert b.cwnd_gain == 2.0
    assert b.inflight(2.0) == pytest.approx(2 * bdp + 3 + 2)       # +2 in phase 0


def drained(**kw):
    b, s = start(cycle_start=0, **kw)
    t = fill_pipe(b, s)
    ack(b, s, t, 1126.4, in_flight=10, new_round=False)
    assert b.mode == PROBE_BW
    return b, s, t


def test_gain_cycle_phases_and_their_exit_conditions():
    b, s, t0 = drained()
    bdp = 1126.4 * RTT
    # phase 0 (1.25): needs > rtprop elapsed AND prior in-flight >= inflight(1.25)
    ack(b, s, t0 + 0.07, 1126.4, new_round=False, prior_in_flight=int(1.25 * bdp + 5) - 1)
    assert b.cycle_index == 0
    ack(b, s, t0 + 0.03, 1126.4, new_round=False, prior_in_flight=1000)
    assert b.cycle_index == 0                 # not a full rtprop yet
    ack(b, s, t0 + 0.08, 1126.4, new_round=False, prior_in_flight=int(1.25 * bdp + 5) + 1)
    assert (b.cycle_index, b.pacing_gain) == (1, 0.75)
    assert s.pacing_rate == pytest.approx(0.75 * 1126.4 * 0.99)
    # phase 1 (0.75): ends early once prior in-flight <= inflight(1)
    ack(b, s, t0 + 0.09, 1126.4, new_round=False, prior_in_flight=int(bdp + 3))
    assert (b.cycle_index, b.pacing_gain) == (2, 1.0)
    # phases 2..7 (1.0): one rtprop each, then back to 1.25
    t = t0 + 0.09
    for idx in (3, 4, 5, 6, 7, 0):
        ack(b, s, t + 0.05, 1126.4, new_round=False)
        assert b.cycle_index == (idx - 1) % 8
        t += 0.07
        ack(b, s, t, 1126.4, new_round=False)
        assert b.cycle_index == idx
    assert b.pacing_gain == 1.25


def test_probe_bw_cwnd_is_gain_times_bdp_plus_three_at_least_four():
    b, s, t = drained()
    s.cwnd = 500.0
    ack(b, s, t + 0.01, 1126.4, new_round=False, acked=2)
    assert s.cwnd == pytest.approx(2 * 1126.4 * RTT + 3 + 2)        # capped at target
    b2, s2, t2 = drained()
    s2.cwnd = 60.0
    ack(b2, s2, t2 + 0.01, 1126.4, new_round=False, acked=2)
    assert s2.cwnd == 62.0                                          # grows by acked
    b3, s3 = start()
    b3.full_pipe = True
    s3.cwnd = 2.0
    ack(b3, s3, 0.1, 1.0, acked=1)            # BDP tiny: target 3.06, then floor of 4
    assert s3.cwnd == 4.0


def test_random_start_phase_is_seeded_and_never_the_drain_phase():
    def start_phases():
        """The PROBE_BW cycle phase each of seeds 0..59 starts in."""
        phases = []
        for seed in range(60):
            b, s = start(seed=seed)
            t = fill_pipe(b, s)
            ack(b, s, t, 1126.4, in_flight=10, new_round=False)
            phases.append(b.cycle_index)
        return phases

    phases = start_phases()
    assert 1 not in phases
    assert set(phases) == {0, 2, 3, 4, 5, 6, 7}
    assert start_phases() == phases


def test_probe_rtt_after_ten_seconds_without_new_min_then_back():
    b, s, t = drained()
    s.cwnd = 80.0
    stamp = b.rtprop_stamp
    ack(b, s, stamp + 5.0, 1126.4, new_round=False, srtt=0.07, in_flight=60)
    assert b.mode == PROBE_BW and b.rtprop == RTT          # larger RTT, filter not expired
    now = stamp + 10.01
    ack(b, s, now, 1126.4, new_round=False, srtt=0.07, in_flight=60)
    assert b.mode == PROBE_RTT and s.cwnd == 4.0
    assert b.rtprop == 0.07 and b.prior_cwnd >= 74.0
    prior = b.prior_cwnd
    assert (b.pacing_gain, b.cwnd_gain) == (1.0, 1.0)
    ack(b, s, now + 0.05, 1126.4, new_round=False, in_flight=4)    # reached 4: timer starts
    assert b.probe_rtt_done_stamp == pytest.approx(now + 0.25)
    ack(b, s, now + 0.10, 1126.4, new_round=True, in_flight=4)     # a round passes
    assert b.probe_rtt_round_done and b.mode == PROBE_RTT and s.cwnd == 4.0
    ack(b, s, now + 0.26, 1126.4, new_round=False, in_flight=4, acked=2)
    assert b.mode == PROBE_BW and b.rtprop_stamp == now + 0.26
    assert s.cwnd == pytest.approx(min(prior + 2, b.inflight(2.0)))


def test_probe_rtt_lasts_a_round_even_after_200_ms():
    b, s, t = drained()
    now = b.rtprop_stamp + 10.01
    ack(b, s, now, 1126.4, new_round=False, srtt=0.07, in_flight=4)   # enter
    ack(b, s, now + 0.01, 1126.4, new_round=False, in_flight=4)      # timer starts
    ack(b, s, now + 0.5, 1126.4, new_round=False, in_flight=4)
    assert b.mode == PROBE_RTT
    ack(b, s, now + 0.6, 1126.4, new_round=True, in_flight=4)
    assert b.mode == PROBE_BW


def test_recovery_packet_conservation_and_restore():
    b, s, t = drained()
    s.cwnd = 80.0
    ack(b, s, t + 0.01, 1126.4, new_round=False, acked=3, in_flight=70)
    cwnd_before = s.cwnd
    b.set_state(s, RECOVERY)                   # first round of recovery: conservation
    assert s.cwnd == 70 + 3 and b.packet_conservation and b.prior_cwnd == cwnd_before
    assert b.ssthresh(s) == s.cwnd             # BBR ignores ssthresh
    assert b.prior_cwnd == cwnd_before
    s.ca_state = RECOVERY
    ack(b, s, t + 0.02, 1126.4, new_round=False, acked=2, in_flight=60, losses=5)
    assert s.cwnd == max(73 - 5, 60 + 2)       # cwnd - losses, at least in_flight + acked
    ack(b, s, t + 0.03, 1126.4, new_round=False, acked=2, in_flight=70)
    assert s.cwnd == 72.0
    ack(b, s, t + 0.04, 1126.4, new_round=True, acked=2, in_flight=60)   # round ends it
    assert not b.packet_conservation
    assert s.cwnd == 74.0                      # ordinary rule: min(cwnd + acked, target)
    b.set_state(s, OPEN)
    s.ca_state = OPEN
    s.cwnd = 30.0                              # sender: cwnd = ssthresh on leaving recovery
    b.cwnd_event(s, EVENT_COMPLETE_CWR)
    assert s.cwnd == cwnd_before               # restored


def test_make_and_range_checks():
    b = make(cycle_start=3, seed=7, use_srtt=False, pacing_margin=0.0)
    assert (b.cycle_start, b.use_srtt, b.pacing_margin) == (3, False, 0.0)
    for kw, msg in (({"high_gain": 1.0}, "high_gain"), ({"bw_window": 0}, "bw_window"),
                    ({"rtprop_window": 0}, "rtprop_window"),
                    ({"probe_rtt_duration": -1}, "probe_rtt_duration"),
                    ({"pacing_margin": 1.0}, "pacing_margin"), ({"cycle_start": 8}, "cycle_start"),
                    ({"seed": -1}, "seed"), ({"gain": 2}, "unknown parameter")):
        with pytest.raises(ValueError, match=msg):
            make(**kw)


def test_raw_rtt_source_uses_rate_sample_rtt():
    b, s = start(use_srtt=False)
    s.now = 0.1
    rs = AckSample(2, 0.05, 10, 0.1)
    rs.delivered, rs.delivery_rate = 2, 500.0
    b.cong_control(s, rs)
    assert b.rtprop == 0.05                    # s.srtt is 0.0625
