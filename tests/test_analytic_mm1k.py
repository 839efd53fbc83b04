"""'none' with theta infinite is an M/M/1/K queue: compare with the closed forms."""
import pytest

import simulator


def closed_form(lam, mu, K):
    """Blocking probability P_K and mean sojourn W of admitted packets (rho != 1)."""
    rho = lam / mu
    p_k = (1 - rho) * rho ** K / (1 - rho ** (K + 1))
    L = rho / (1 - rho) - (K + 1) * rho ** (K + 1) / (1 - rho ** (K + 1))
    return p_k, L / (lam * (1 - p_k))


@pytest.mark.parametrize("variant", ["as_published", "standard"])
@pytest.mark.parametrize("lam,K", [(5, 1), (5, 5), (9, 5), (15, 10), (15, 1)])
def test_none_matches_mm1k_closed_forms(variant, lam, K):
    p = {"model": "mm1", "variant": variant, "algorithm": "none", "lambda": lam, "mu": 10,
         "K": K, "theta": None, "N": 20000, "prop_delay": 0.0}
    runs = [simulator.run(p, s)["metrics"] for s in range(4)]
    blocking = sum(m["dropped"] for m in runs) / sum(m["sent"] for m in runs)
    delay = sum(m["avg_delay"] for m in runs) / len(runs)
    p_k, w = closed_form(lam, 10, K)
    assert blocking == pytest.approx(p_k, abs=0.01)
    assert delay == pytest.approx(w, rel=0.04)
