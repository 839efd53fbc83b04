"""Invariant checks inside every run: a broken algorithm stops the run with an error naming it."""
import math

import pytest

from simulator.core.invariants import InvariantError
from simulator.models.mm1_published import PublishedMM1
from simulator.models.mm1_standard import StandardMM1
from simulator.tcp.cc.aimd import RenoGrowth
from simulator.tcp.cc.base import CongestionControl
from simulator.tcp.recovery import RenoRecovery
from simulator.tcp.rto import RtoEstimator
from simulator.tcp.sender import TcpSender


class ShrinksBelowZero(CongestionControl):
    def init(self, s):
        s.cwnd = 3.0

    def cong_avoid(self, s, acked):
        s.cwnd -= 2.0


class ShrinksBelowOne(RenoGrowth):
    def cong_avoid(self, s, acked):
        s.cwnd = 0.5 if s.snd_una > 20 else s.cwnd + 1


def test_stalled_window_in_published_model_names_the_run():
    sim = PublishedMM1("run-A", 10.0, 10.0, 5, 1.0, 200, ShrinksBelowZero())
    with pytest.raises(InvariantError, match="run-A: congestion window -3.0 < 1 with nothing in flight"):
        sim.run()


def test_window_below_one_packet_in_standard_model_names_the_run():
    sender = TcpSender(200, ShrinksBelowOne(), RenoRecovery(), RtoEstimator(1.0, 1.0), 1.0, 1e9)
    sim = StandardMM1("run-B", 10.0, 10.0, 5, 1.0, 200, 0.01, sender)
    with pytest.raises(InvariantError, match="run-B: congestion window fell to 0.5"):
        sim.run()


def test_correct_runs_report_buffer_peak_within_limit():
    for K in (1, 3, 7):
        m = PublishedMM1("ok", 30.0, 10.0, K, math.inf, 300, None).run()["metrics"]
        assert m["max_in_system"] == K           # overloaded: the buffer fills, never beyond K
