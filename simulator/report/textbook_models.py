"""The closed-form models of the textbook chapter (simulator/report/textbook.py): TCP's rate under random
loss p at round-trip time RTT, in packets/s, and the constants each stack (simulator/tcp/stacks.py) gives
them. Pure functions of their arguments and the stack presets; the papers: textbook.py's docstring."""
from __future__ import annotations

import math

CUBIC_C, CUBIC_BETA = 0.4, 0.7  # RFC 9438 section 4.6 and 4.5


# --------------------------------------------------------------------------- closed forms (packets/s)

def mathis(rtt: float, p: float, c: float) -> float:
    """Mathis et al. 1997: C / (RTT sqrt(p))."""
    return c / (rtt * math.sqrt(p))


def padhye(rtt: float, p: float, b: float, t0: float) -> float:
    """Padhye et al. 1998, equation (32) without the receive-window cap."""
    return 1.0 / (rtt * math.sqrt(2 * b * p / 3)
                  + t0 * min(1.0, 3 * math.sqrt(3 * b * p / 8)) * p * (1 + 32 * p * p))


def cubic_window(rtt: float, p: float, c: float = CUBIC_C, beta: float = CUBIC_BETA) -> float:
    """RFC 9438 section 5.1: CUBIC's average window in its own region, packets."""
    return (c * (3 + beta) / (4 * (1 - beta))) ** 0.25 * rtt ** 0.75 / p ** 0.75


def reno_friendly_window(p: float) -> float:
    """RFC 9438 section 5.1: the Reno-friendly region's average window, AIMD(3(1-beta)/(1+beta), beta): sqrt(3/(2p))."""
    return math.sqrt(3 / (2 * p))


def cubic_rfc9438(rtt: float, p: float) -> float:
    """CUBIC's rate under RFC 9438's response function: the larger region's window per RTT."""
    return max(cubic_window(rtt, p), reno_friendly_window(p)) / rtt


# --------------------------------------------------------------------------- what each stack implies

def packets_per_increment(stack: str) -> int:
    """Padhye et al.'s b under `stack` (simulator/tcp/stacks.py): packets acknowledged per window increment of
    1/cwnd. Byte counting (Linux, RFC 3465) grows by the packets each ACK covers, so b = 1 whatever the receiver;
    growth per ACK (ns-3's TcpNewReno, NS-2's opencwnd) gives b = the receiver's packets per ACK."""
    from simulator.tcp import stacks
    d = stacks.preset(stack)
    return 1 if d.ack_counting == "linux" else int(d.delack_count)


def mathis_constant(stack: str) -> float:
    """Mathis et al.'s C = sqrt(3 / (2b)): sqrt(3/2) for one segment per RTT, sqrt(3/4) for one per two RTTs."""
    return math.sqrt(3 / (2 * packets_per_increment(stack)))


def timeout_s(stack: str, rtt: float) -> float:
    """Padhye et al.'s T0: the stack's RTO on a path whose RTT does not vary (RTTVAR -> 0; stacks.py RTO_TIMER):
    Linux's SRTT + rto_min (its variance term is floored at rto_min), else RFC 6298's max(SRTT + G, rto_min)."""
    from simulator.tcp import stacks
    d = stacks.preset(stack)
    timer = stacks.RTO_TIMER[d.rto_timer]
    if timer["rto_estimator"] == "linux":
        return rtt + d.rto_min
    return max(rtt + timer["rto_granularity"], d.rto_min)


def stack_why(stack: str) -> str:
    """Why the stack's constants are what they are, from its preset."""
    from simulator.tcp import stacks
    d = stacks.preset(stack)
    acks = "ACKs every packet" if d.delack_count == 1 else f"ACKs every {d.delack_count} packets"
    growth = ("counts the packets each ACK covers (byte counting)" if d.ack_counting == "linux"
              else "grows 1/cwnd per ACK, whatever it covers")
    per = "one segment per RTT" if packets_per_increment(stack) == 1 else \
        f"one segment per {packets_per_increment(stack)} RTTs"
    timer = ("SRTT + the minimum RTO (Linux floors the variance term)" if stacks.RTO_TIMER[d.rto_timer]["rto_estimator"] == "linux"
             else "max(SRTT, the minimum RTO) (RFC 6298 with RTTVAR near 0)")
    return f"the receiver {acks} and the window {growth}: {per}; T0 = {timer}, minimum RTO {d.rto_min:g} s"
