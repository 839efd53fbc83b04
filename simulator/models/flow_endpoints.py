"""The TCP ends of the flow model's flows (simulator/models/flow_model.pyx): one sender and one
receiver per flow, from its window controller, its loss recovery and the model's TCP options."""
from simulator.tcp.cc.ns2_vegas import Ns2Vegas
from simulator.tcp.rto import LinuxRtoEstimator, Ns2Rto, RtoEstimator
from simulator.tcp.sack_receiver import SackReceiver
from simulator.tcp.sack_sender import SackSender
from simulator.tcp.sender import TcpSender


def sack_flow(cc, tcp: dict, data_size: int, bulk: bool = True):
    """The SACK sender (RFC 6675 recovery in the options' style: rack, ssthresh_pipe_after_ack, cwr_event_after_loss,
    retx_below_sack from simulator/tcp/stacks.py SACK_RECOVERY; rate samples, pacing) and a delayed-ACK receiver.
    bulk: the application always has data; else the sender sends only what app_write gives it (a finite flow)."""
    sender = SackSender(cc, rto(tcp), tcp.get("init_cwnd", 10.0), data_size - 54.0, bulk=bulk)
    sender.max_window = int(tcp.get("max_window", 0))
    sender.rack = bool(tcp.get("rack", True))
    sender.ssthresh_pipe_after_ack = bool(tcp.get("ssthresh_pipe_after_ack", False))
    sender.cwr_event_after_loss = bool(tcp.get("cwr_event_after_loss", True))
    sender.retx_below_sack = bool(tcp.get("retx_below_sack", False))
    sender.rearm_on_head_retx = bool(tcp.get("rearm_on_head_retx", False))
    sender.rto_first_partial_only = bool(tcp.get("rto_first_partial_only", False))
    return sender, SackReceiver(tcp.get("delack_count", 2), tcp.get("delack_timeout", 0.2))


def classic_flow(cc, recovery, tcp: dict):
    """NS-2's one-way TCP: a packet budget large enough never to run out (FTP), a receive-window
    cap, the algorithm's own recovery, and a cumulative-ACK sink (every packet at once unless the
    options give a delayed-ACK count).  How an ACK grows the window is the controller's
    (ack_counting, simulator/tcp/cc/aimd.pyx)."""
    ns2_timer = tcp.get("rto_timer", "rfc6298") == "ns2"
    timer = Ns2Rto(tcp.get("rto_initial", 3.0), tcp.get("rto_min", 0.2)) if ns2_timer else rto(tcp)
    sender = TcpSender(int(tcp.get("packets", 1 << 20)), cc, recovery, timer,
                       tcp.get("init_cwnd", 2.0), tcp.get("init_ssthresh", 1e9))
    sender.timed_rtt = ns2_timer
    sender.max_window = int(tcp.get("max_window", 0))
    recovery.wnd = float(sender.max_window)        # NS-2's cuts halve min(cwnd, window_)
    sender.impatient = bool(tcp.get("impatient", False))
    sender.rearm_on_head_retx = bool(tcp.get("rearm_on_head_retx", False))
    if tcp.get("syn_packet", False):
        sender.use_syn_packet()
        # NS-2's Vegas opens windowInit_ one ACK later, itself (simulator/tcp/cc/ns2_vegas.pyx)
        sender.syn_opens_window = not isinstance(cc, Ns2Vegas)
    sender.app_write(sender.n)
    return sender, SackReceiver(tcp.get("delack_count", 1), tcp.get("delack_timeout", 0.2))


def rto(tcp: dict) -> RtoEstimator:
    """The timer's estimator (stacks.py RTO_TIMER): Linux's, or RFC 6298's (the default)."""
    cls = LinuxRtoEstimator if tcp.get("rto_estimator", "rfc6298") == "linux" else RtoEstimator
    return cls(tcp.get("rto_initial", 1.0), tcp.get("rto_min", 1.0), tcp.get("rto_max", 60.0),
               tcp.get("rto_granularity", 0.0))


def make_endpoints(controllers, recoveries, tcp: dict, data_size: int):
    """([sender], [receiver]) of every flow: the SACK sender where recovery is None, else classic."""
    ends = [sack_flow(cc, tcp, data_size) if rec is None else classic_flow(cc, rec, tcp)
            for cc, rec in zip(controllers, recoveries)]
    return [s for s, _ in ends], [r for _, r in ends]
