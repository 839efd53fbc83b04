"""Standard algorithms and loss-recovery plug-ins against hand calculations."""
import pytest

from simulator.tcp.cc.aimd import RenoGrowth
from simulator.tcp.cc.base import LOSS, OPEN, RECOVERY, CongestionControl, TcpState
from simulator.tcp.cc.cubic import Cubic
from simulator.tcp.recovery import NewRenoRecovery, RenoRecovery, TahoeRecovery


def state(cwnd, ssthresh, **kw):
    s = TcpState(cwnd, ssthresh)
    for k, v in kw.items():
        setattr(s, k, v)
    return s


def test_reno_growth_slow_start_then_linear():
    cc = RenoGrowth()
    s = state(1.0, 4.0)
    cc.cong_avoid(s, 1)
    assert s.cwnd == 2.0
    cc.cong_avoid(s, 3)                  # 2 of 3 packets reach ssthresh, 1 goes to CA
    assert s.cwnd == pytest.approx(4.0 + 1 / 4)
    cc.cong_avoid(s, 1)
    assert s.cwnd == pytest.approx(4.25 + 1 / 4.25)


def test_reno_ssthresh_is_half_flight_at_least_two():
    cc = RenoGrowth()
    assert cc.ssthresh(state(10, 100, in_flight=9)) == 4.5
    assert cc.ssthresh(state(10, 100, in_flight=1)) == 2.0


def test_cubic_slow_start_and_multiplicative_decrease_beta_07():
    cc = Cubic()
    s = state(10.0, 100.0)
    cc.init(s)
    cc.cong_avoid(s, 2)
    assert s.cwnd == 12.0
    assert cc.ssthresh(s) == pytest.approx(12.0 * 0.7)
    assert cc.w_max == 12.0


def test_cubic_fast_convergence_lowers_wmax():
    cc = Cubic()
    s = state(10.0, 5.0)
    cc.init(s)
    cc.w_max = 20.0
    cc.ssthresh(s)                        # cwnd 10 < previous W_max 20
    assert cc.w_max == pytest.approx(10.0 * 1.7 / 2)


def test_cubic_concave_growth_towards_wmax_with_k_from_rfc9438():
    cc = Cubic()
    s = state(70.0, 70.0, now=0.0, min_rtt=0.1)
    cc.init(s)
    cc.w_max = 100.0
    cc.cong_avoid(s, 1)                   # starts the epoch: K = cbrt((100 - 70) / 0.4)
    assert cc.k == pytest.approx((30 / 0.4) ** (1 / 3))
    grown = []
    for t in [1.0, 2.0, 3.0, 4.0]:
        s.now = t
        before = s.cwnd
        for _ in range(int(s.cwnd)):
            cc.cong_avoid(s, 1)
        grown.append(s.cwnd - before)
    assert all(g > 0 for g in grown)
    assert grown[0] > grown[-1]           # concave: growth slows approaching W_max
    assert s.cwnd < 100.0


def test_cubic_reno_friendly_region_when_wmax_is_small():
    cc = Cubic()
    s = state(10.0, 10.0, now=0.0, min_rtt=0.1)
    cc.init(s)
    cc.w_max = 10.0                       # K = 0, cubic curve flat near t = 0
    for _ in range(100):
        cc.cong_avoid(s, 1)
    # W_est grew by alpha * acked / cwnd per ACK, alpha = 3 * 0.3 / 1.7
    assert s.cwnd > 10.0 + 0.5 * (3 * 0.3 / 1.7) * 100 / 20


def test_tahoe_recovery_third_dupack_goes_back_to_one_packet():
    rec, cc = TahoeRecovery(), RenoGrowth()
    s = state(8.0, 100.0, snd_una=10, snd_nxt=18, snd_max=18, in_flight=8)
    for d in (1, 2):
        s.dupacks = d
        assert rec.on_dupack(s, cc) == 0
    s.dupacks = 3
    assert rec.on_dupack(s, cc) == 2       # go back N
    assert (s.cwnd, s.ssthresh, s.snd_nxt, s.recover, s.ca_state) == (1.0, 4.0, 10, 18, LOSS)


def test_reno_recovery_inflates_and_exits_on_first_new_ack():
    rec, cc = RenoRecovery(), RenoGrowth()
    s = state(8.0, 100.0, snd_una=10, snd_nxt=18, snd_max=18, in_flight=8, dupacks=3)
    assert rec.on_dupack(s, cc) == 1       # retransmit
    assert (s.ssthresh, s.cwnd, s.ca_state) == (4.0, 7.0, RECOVERY)
    s.dupacks = 4
    rec.on_dupack(s, cc)
    assert s.cwnd == 8.0
    s.snd_una = 12                         # a partial ACK still ends Reno's recovery
    assert rec.on_new_ack(s, cc, 2) == 0
    assert (s.cwnd, s.ca_state) == (4.0, OPEN)


def test_newreno_partial_ack_retransmits_and_stays_full_ack_exits():
    rec, cc = NewRenoRecovery(), RenoGrowth()
    s = state(8.0, 100.0, snd_una=10, snd_nxt=18, snd_max=18, in_flight=8, dupacks=3)
    rec.on_dupack(s, cc)
    s.cwnd = 9.0
    s.snd_una = 12
    assert rec.on_new_ack(s, cc, 2) == 1   # partial: retransmit next hole
    assert (s.cwnd, s.ca_state) == (8.0, RECOVERY)
    s.snd_una = 18
    assert rec.on_new_ack(s, cc, 6) == 0
    assert (s.cwnd, s.ca_state) == (min(4.0, 1.0 + 1.0), OPEN)


def test_python_subclass_overrides_hooks():
    class Fixed(CongestionControl):
        def cong_avoid(self, s, acked):
            s.cwnd = 42.0

    s = state(1.0, 10.0)
    Fixed().cong_avoid(s, 1)
    assert s.cwnd == 42.0


def test_cubic_before_any_loss_grows_at_least_one_packet_per_20_acked():
    # W_max 0 (HyStart left slow start, no loss yet): the cubic curve starts flat at the window, so
    # Linux and ns-3 cap cnt at 20: 100 packets acked at cwnd 100 add 100 / 20 = 5 packets (5% per RTT)
    cc = Cubic()
    s = state(100.0, 100.0, now=0.0, min_rtt=0.01)
    cc.init(s)
    for _ in range(100):
        cc.cong_avoid(s, 1)
    assert s.cwnd == pytest.approx(105.0, abs=0.01)


def test_cubic_after_a_loss_keeps_the_cubic_curve_without_the_floor():
    cc = Cubic()
    s = state(100.0, 100.0, now=0.0, min_rtt=0.01)
    cc.init(s)
    cc.w_max = 100.0                     # K = 0, origin 100: flat start, Reno-friendly growth only
    for _ in range(100):
        cc.cong_avoid(s, 1)
    assert 100.0 < s.cwnd < 101.0        # alpha 0.53 per window, far below the floor's 5


def test_cubic_timeout_forgets_wmax_as_linux_and_ns3():
    cc = Cubic()
    s = state(80.0, 100.0, now=1.0, min_rtt=0.05)
    cc.init(s)
    s.ssthresh = cc.ssthresh(s)           # the sender takes ssthresh first (sets W_max 80) ...
    assert cc.w_max == 80.0
    cc.set_state(s, LOSS)                 # ... then enters CA_LOSS, which resets it
    assert cc.w_max == 0.0 and cc.epoch_start == -1.0
    cc.set_state(s, RECOVERY)             # fast recovery keeps it
    cc.w_max = 50.0
    cc.set_state(s, RECOVERY)
    assert cc.w_max == 50.0
