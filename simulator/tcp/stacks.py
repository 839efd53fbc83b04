"""The reference stacks' TCP details: one preset per stack and one resolver.

A study's `stack:` (ns2 | ns3 | linux) selects every detail below at once; each detail is also a
study key of its own (same name), which overrides the preset of the stack in force.  A study file
that sets `stack:` and also a detail to a value that contradicts that stack's preset is rejected
before any job (simulator/point_checks.py): the stack already fixes the detail.

Where each default comes from:
* linux: ack_counting: net/ipv4/tcp_cong.c tcp_slow_start, tcp_cong_avoid_ai (byte counting);
  delayed ACK every second full segment (net/ipv4/tcp_input.c __tcp_ack_snd_check) or after
  TCP_DELACK_MIN = HZ/25 = 40 ms (include/net/tcp.h; the adaptive ATO is not modelled);
  init_cwnd TCP_INIT_CWND = 10; rto_min TCP_RTO_MIN = HZ/5 = 200 ms; rto_initial
  TCP_TIMEOUT_INIT = 1 s (include/net/tcp.h); HyStart on (net/ipv4/tcp_cubic.c `hystart = 1`);
  SACK on (net.ipv4.tcp_sack = 1) with RFC 6675-style recovery; sack_recovery linux: RACK on
  (net.ipv4.tcp_recovery = 1, Documentation/networking/ip-sysctl.rst; net/ipv4/tcp_recovery.c
  tcp_rack_detect_loss), which also finds a retransmission lost again, and the window reduction
  sees the flight before the ACK that starts recovery (prior_in_flight, net/ipv4/tcp_input.c tcp_ack);
  handshake linux: the SYN-ACK's RTT seeds srtt and the min-RTT filter (tcp_input.c
  tcp_synack_rtt_meas), a lost SYN is retried after TCP_TIMEOUT_INIT = 1 s (the initial RTO,
  rto_initial), doubling; rto_timer linux: the minimum RTO floors the variance term, not the RTO
  (tcp_input.c tcp_rtt_estimator: rttvar_us >= mdev_max_us, which starts each round trip at
  tcp_rto_min; include/net/tcp.h __tcp_set_rto: RTO = SRTT + rttvar_us, at most TCP_RTO_MAX = 120 s),
  so RTO is about SRTT + 200 ms, and resending the head of the retransmission queue restarts the timer
  (net/ipv4/tcp_output.c tcp_xmit_retransmit_queue: skb == rtx_head -> tcp_reset_xmit_timer).
* ns3 (3.44): ack_counting: src/internet/model/tcp-congestion-ops.cc TcpNewReno::SlowStart and
  CongestionAvoidance (per ACK; the Reno family only: TcpCubic::IncreaseWindow in tcp-cubic.cc counts
  bytes in slow start, "to approximate the effect of QUICKACK", so CUBIC keeps byte counting under
  every stack); DelAckCount 2 and DelAckTimeout 200 ms, InitialCwnd 10
  (tcp-socket.cc TcpSocket::GetTypeId); MinRto 1 s and Sack true (tcp-socket-base.cc
  TcpSocketBase::GetTypeId); initial RTO 1 s (rtt-estimator.cc InitialEstimation 1 s, no
  variation yet); HyStart on (tcp-cubic.cc TcpCubic::GetTypeId HyStart true); sack_recovery ns3:
  no RACK, its SACK recovery retransmits a hole once (tcp-tx-buffer.cc TcpTxBuffer::NextSeg, RFC
  6675), so a retransmission lost again waits for the RTO; and the window reduction entering
  recovery sees the pipe after the ACK that starts it (tcp-socket-base.cc
  TcpSocketBase::EnterRecovery: GetSsThresh(BytesInFlight())); leaving CA_LOSS after a timeout
  sends the congestion control no CA_EVENT_COMPLETE_CWR (tcp-socket-base.cc ProcessAck, only the
  exit from CA_RECOVERY does), so TcpBbr does not restore its pre-timeout window, where Linux's
  BBR does (tcp_bbr.c bbr_set_cwnd_to_recover_or_restore); handshake ns3: a SYN/SYN-ACK exchange
  before the data, whose RTT sample seeds srtt (TcpSocketBase::ProcessSynSent -> EstimateRtt) and
  so TcpBbr's min RTT and TcpVegas' base RTT; a lost SYN is retried after ConnTimeout 3 s, doubling
  (tcp-socket.cc, TcpSocketBase::SendEmptyPacket m_cnTimeout * 2^k); rto_timer ns3: RFC 6298,
  RTO = max(SRTT + max(ClockGranularity 1 ms, 4 RTTVAR), MinRto) (tcp-socket-base.cc EstimateRtt and
  NewAck), at most 60 s (ReTxTimeout), restarted by every ACK that advances snd_una except the second
  and later partial ACKs of one fast recovery (ProcessAck: NewAck(ackNumber, m_isFirstPartialAck)),
  never by a retransmission (SendDataPacket schedules it only when it is not running). These ns-3 defaults were
  read from the ns3 3.44 Python package's attribute table (TypeId originalInitialValue).
* ns2 (2.35): ack_counting: tcp/tcp.cc TcpAgent::opencwnd (per ACK); TCPSink acknowledges every
  packet at once (tcp/tcp-sink.cc; DelAckSink's interval_ 100 ms is kept as the timeout, unused at
  a count of 1); windowInit_ 2, minrto_ 0.2 s, rtxcur_init_ 3 s (tcl/lib/ns-default.tcl); no
  HyStart; the one-way agents have no SACK, so each algorithm runs its own recovery
  (Tahoe/Reno/NewReno, simulator/tcp/recovery.pyx); with sack: true, ns-3's SACK recovery (NS-2's
  Sack1Agent has no RACK either); handshake ns2: `Agent/TCP set syn_ true` with delay_growth_ true
  (ns-default.tcl, defaults since 2001): the one-way agents send packet 0 as a 40-byte SYN in a window of one,
  timed like data (initial RTO rtxcur_init_ 3 s), and open windowInit_ 2 on its ACK (tcp/tcp.cc
  set_initial_window, TcpAgent::recv); a SYN that times out leaves ssthresh 2 and an initial window of 1
  (TcpAgent::timeout, bugfix_ss_). Over a path whose round trip exceeds 3 s this puts every agent in
  congestion avoidance from its first packet (simulator/tcp/sender.pyx use_syn_packet); rto_timer ns2: the
  one-way agents' timer (tcp/tcp.cc rtt_update, rtt_timeout, rtt_backoff, newack, reset_rtx_timer; tcpTick_
  0.01, simulator/tcp/rto.pyx Ns2Rto), restarted by a fast retransmission (tcp-reno.cc and tcp-newreno.cc
  dupack_action: reset_rtx_timer(1,0) before output(last_ack_ + 1)); a SACK flow on this stack (BBR) keeps
  RFC 6298's, restarted the same way.
"""
from __future__ import annotations

from dataclasses import dataclass, fields, replace


@dataclass(frozen=True)
class StackDetails:
    stack: str                # whose details these are (the preset they start from)
    ack_counting: str         # how window growth counts an ACK: linux | ns3 | ns2 (simulator/tcp/cc/aimd.pyx)
    delack_count: int         # in-order packets per ACK at the receiver
    delack_timeout_ms: float  # delayed-ACK timer
    init_cwnd: float          # initial window, packets
    rto_min: float            # minimum retransmission timeout, s
    rto_initial: float        # retransmission timeout before the first RTT sample, s
    hystart: bool             # CUBIC's HyStart slow-start exit
    sack: bool                # SACK sender with RFC 6675 recovery; False: each algorithm's own recovery
    sack_recovery: str        # the SACK sender's recovery style: linux | ns3 (SACK_RECOVERY)
    handshake: str            # a SYN exchange before the data: none | linux | ns3 (SACK flows) | ns2 (HANDSHAKE)
    rto_timer: str            # the retransmission timer's estimator and restarts: linux | ns3 | ns2 (RTO_TIMER)


PRESETS = {
    "linux": StackDetails("linux", "linux", 2, 40.0, 10.0, 0.2, 1.0, True, True, "linux", "linux", "linux"),
    "ns3": StackDetails("ns3", "ns3", 2, 200.0, 10.0, 1.0, 1.0, True, True, "ns3", "ns3", "ns3"),
    "ns2": StackDetails("ns2", "ns2", 1, 100.0, 2.0, 0.2, 3.0, False, False, "ns3", "ns2", "ns2"),
}
NAMES = tuple(PRESETS)
# how the SACK sender recovers, per style (simulator/tcp/sack_sender.pyx): whether it finds a retransmission
# lost again as RACK does (else only by its RTO), and whether the window reduction entering recovery sees the
# pipe after the ACK that starts it (else the flight before that ACK), and whether leaving the timeout's LOSS
# state ends a window reduction for the controller (CA_EVENT_COMPLETE_CWR: BBR restores its pre-loss window),
# and whether a lost packet above the highest SACK waits while there is new data to send (RFC 6675 NextSeg rule
# 1.b, as ns-3; Linux resends every lost packet first, so after a timeout it resends the whole flight)
SACK_RECOVERY = {"linux": {"rack": True, "ssthresh_pipe_after_ack": False, "cwr_event_after_loss": True,
                           "retx_below_sack": False},
                 "ns3": {"rack": False, "ssthresh_pipe_after_ack": True, "cwr_event_after_loss": False,
                         "retx_below_sack": True}}
# the handshake, per style: the SYN's first timeout in s, doubling per retry (0: no handshake, data at the start
# time; linux: the initial RTO, rto_initial, as TCP_TIMEOUT_INIT times Linux's SYN). The SYN-ACK's RTT sample
# seeds the RTT estimate (and BBR's min RTT, Vegas' base RTT) before any data.
# ns2: no exchange before the data; packet 0 itself is the SYN (NS-2's one-way syn_, tcp_options' syn_packet)
HANDSHAKE = {"none": 0.0, "linux": None, "ns3": 3.0, "ns2": 0.0}
# the retransmission timer, per style (simulator/tcp/rto.pyx, sack_sender.pyx, sender.pyx; sources in the module
# docstring): Linux's estimator or RFC 6298's, the clock granularity G of RFC 6298's max(G, 4 RTTVAR), the
# largest RTO, whether resending snd_una restarts the timer, and whether only a recovery's first partial ACK does;
# ns2's one-way agents time one packet per round trip in 10 ms ticks instead (rto.pyx Ns2Rto, `rto_timer` option)
RTO_TIMER = {"linux": {"rto_estimator": "linux", "rto_granularity": 0.0, "rto_max": 120.0,
                       "rearm_on_head_retx": True, "rto_first_partial_only": False},
             "ns3": {"rto_estimator": "rfc6298", "rto_granularity": 0.001, "rto_max": 60.0,
                     "rearm_on_head_retx": False, "rto_first_partial_only": True},
             "ns2": {"rto_estimator": "rfc6298", "rto_granularity": 0.0, "rto_max": 60.0,
                     "rearm_on_head_retx": True, "rto_first_partial_only": False}}
# the study keys that set one detail each (every field but the stack's name)
DETAILS = tuple(f.name for f in fields(StackDetails) if f.name != "stack")


def preset(name: str) -> StackDetails:
    """The preset of stack `name`; ValueError naming the allowed stacks otherwise."""
    if name not in PRESETS:
        raise ValueError(f"stack {name!r} unknown; allowed: {', '.join(NAMES)}")
    return PRESETS[name]


def resolve(p: dict) -> StackDetails:
    """The details in force for parameters `p`: the preset of p['stack'], each detail that p sets
    (not None) overriding it."""
    given = {k: p[k] for k in DETAILS if p.get(k) is not None}
    base = preset(p["stack"])
    return replace(base, **{k: type(getattr(base, k))(v) for k, v in given.items()})


def contradictions(stack: str, given: dict) -> list:
    """(key, value, preset value) of every detail in `given` that differs from `stack`'s preset."""
    base = preset(stack)
    return [(k, v, getattr(base, k)) for k, v in given.items()
            if k in DETAILS and v is not None and type(getattr(base, k))(v) != getattr(base, k)]


def catalogue_stack(d: StackDetails, key: str = "", flow: int = 0, alpha: float = 1.2):
    """The catalogue's Stack (simulator/tcp/cc/catalogue/) of one flow under details `d`."""
    from simulator.tcp.cc import catalogue
    return catalogue.Stack(d.stack, sack=d.sack, hystart=d.hystart, alpha=alpha, key=key, flow=flow,
                           ack_counting=d.ack_counting)


def tcp_options(d: StackDetails) -> dict:
    """The flow model's TCP options (simulator/models/flow_endpoints.py) of details `d`."""
    return {"init_cwnd": float(d.init_cwnd), "rto_min": float(d.rto_min), "rto_initial": float(d.rto_initial),
            "delack_count": int(d.delack_count), "delack_timeout": d.delack_timeout_ms / 1e3,
            "syn_timeout": syn_timeout(d), "syn_packet": d.handshake == "ns2", "rto_timer": d.rto_timer,
            **SACK_RECOVERY[d.sack_recovery], **RTO_TIMER[d.rto_timer]}


def syn_timeout(d: StackDetails) -> float:
    """The SYN's first timeout under details `d`, s (0: no handshake)."""
    t = HANDSHAKE[d.handshake]
    return float(d.rto_initial if t is None else t)
