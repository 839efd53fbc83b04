"""Bianchi's analytic model of saturated 802.11 DCF: G. Bianchi, "Performance analysis of the IEEE
802.11 distributed coordination function", IEEE JSAC 18(3):535-547, 2000.

The fixed point of his eqs. (7) and (9) gives tau, the probability that a station transmits in a
slot, and p, the probability that its transmission collides; throughput follows from eq. (13).  The
retry limit is kept (the chain ends at the last attempt, the form of Bianchi and Tinnirello,
INFOCOM 2005): with R attempts and windows W_j = min(2^j (CWmin + 1), CWmax + 1),
tau = sum_j p^j / sum_j p^j (W_j + 1) / 2, which tends to Bianchi's eq. (7) as R grows.
"""
from __future__ import annotations


def tau_of(p: float, cwmin: int, cwmax: int, attempts: int) -> float:
    """Transmission probability per slot for conditional collision probability p."""
    num = den = 0.0
    for j in range(attempts):
        w = min(2 ** j * (cwmin + 1), cwmax + 1)
        num += p ** j
        den += p ** j * (w + 1) / 2
    return num / den


def fixed_point(n: int, cwmin: int, cwmax: int, attempts: int) -> tuple[float, float]:
    """(tau, p) solving tau = tau_of(p), p = 1 - (1 - tau)^(n - 1), by bisection on p."""
    lo, hi = 0.0, 1.0
    for _ in range(200):
        p = (lo + hi) / 2
        if 1 - (1 - tau_of(p, cwmin, cwmax, attempts)) ** (n - 1) > p:
            lo = p
        else:
            hi = p
    p = (lo + hi) / 2
    return tau_of(p, cwmin, cwmax, attempts), p


def throughput_bps(n: int, payload_bits: float, slot_s: float, ts_s: float, tc_s: float,
                   cwmin: int = 15, cwmax: int = 1023, attempts: int = 7) -> float:
    """Saturation throughput, eq. (13): payload delivered per mean slot, with Ts (a success:
    DIFS + PPDU + SIFS + ACK) and Tc (a collision: PPDU + ACK timeout + DIFS) as the caller's
    PHY gives them."""
    tau, _ = fixed_point(n, cwmin, cwmax, attempts)
    ptr = 1 - (1 - tau) ** n
    ps = n * tau * (1 - tau) ** (n - 1) / ptr
    mean_slot = (1 - ptr) * slot_s + ptr * ps * ts_s + ptr * (1 - ps) * tc_s
    return ps * ptr * payload_bits / mean_slot
