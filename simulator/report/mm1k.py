"""Closed forms of the M/M/1/K queue (K = most packets in the system, waiting plus in service).

Used by the scorecard (claim mm1-9) and the report's analytic page. Pure functions, no I/O.
"""

from __future__ import annotations

import math


def state_probs(lam: float, mu: float, K: int) -> list[float]:
    """Stationary probabilities p_0..p_K of the number in an M/M/1/K system."""
    if lam <= 0 or mu <= 0:
        raise ValueError("lambda and mu must be positive")
    if K < 1 or int(K) != K:
        raise ValueError("K must be a positive integer")
    K = int(K)
    rho = lam / mu
    if math.isclose(rho, 1.0):
        return [1.0 / (K + 1)] * (K + 1)
    norm = (1 - rho) / (1 - rho ** (K + 1))
    return [norm * rho**n for n in range(K + 1)]


def blocking_prob(lam: float, mu: float, K: int) -> float:
    """P_K = (1 - rho) rho^K / (1 - rho^(K+1)); 1/(K+1) when rho = 1 (PASTA: an arrival is blocked)."""
    return state_probs(lam, mu, K)[-1]


def mean_number(lam: float, mu: float, K: int) -> float:
    """L = sum_n n p_n, the mean number in the system."""
    return sum(n * p for n, p in enumerate(state_probs(lam, mu, K)))


def throughput(lam: float, mu: float, K: int) -> float:
    """lambda_eff = lambda (1 - P_K), the rate of admitted (= served) packets."""
    return lam * (1 - blocking_prob(lam, mu, K))


def mean_sojourn(lam: float, mu: float, K: int) -> float:
    """W = L / lambda_eff (Little's law): mean time in system of an admitted packet."""
    return mean_number(lam, mu, K) / throughput(lam, mu, K)


def closed_forms(lam: float, mu: float, K: int) -> dict[str, float]:
    """The three metrics the simulator reports, in its units (loss_rate in percent)."""
    return {
        "throughput": throughput(lam, mu, K),
        "avg_delay": mean_sojourn(lam, mu, K),
        "loss_rate": 100.0 * blocking_prob(lam, mu, K),
    }
