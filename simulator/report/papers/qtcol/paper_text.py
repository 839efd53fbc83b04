"""What the QtColFair paper says in each section, as sentences whose numbers come from the tracked
reference data (reference/qtcol/qtcolfair_results.csv), so the chapter's prose never retypes them."""
from __future__ import annotations

from simulator.report.papers.qtcol.tables import paper, paper_range

LINK_MBPS = 100.0     # utilization = goodput / the 100 Mbit/s bottleneck, as the paper states it


def _util(reference, scenario, alg, alpha=None, **params) -> str:
    return f"{100 * paper(reference, scenario, alg, 'goodput', alpha, **params) / LINK_MBPS:.1f}%"


def _span(values) -> str:
    lo, hi = min(values), max(values)
    return f"{lo:g}" if lo == hi else f"{lo:g}-{hi:g}"


def single_flow(reference) -> str:
    s = lambda m, a: f"{paper(reference, 'single_static', 'qtcol', m, a):g}"  # noqa: E731
    return ("The paper: CUBIC's in-flight data oscillate over about "
            f"{paper_range(reference, 'single_static', 'cubic', 'inflight')} packets and its RTT over "
            f"{paper_range(reference, 'single_static', 'cubic', 'rtt')} ms; BBR's over "
            f"{paper_range(reference, 'single_static', 'bbr', 'inflight')} packets (1-2 BDP) and "
            f"{paper_range(reference, 'single_static', 'bbr', 'rtt')} ms; QtCol converges to about α × "
            f"BDP ({s('inflight_steady', 1.2)} / {s('inflight_steady', 1.5)} packets) and α × baseRTT "
            f"({s('rtt_steady', 1.2)} / {s('rtt_steady', 1.5)} ms) for α = 1.2 / 1.5 without sustained "
            "oscillation; QtColFair stays near α × BDP apart from its 10-second min-RTT probes.")


def bandwidth_change(reference) -> str:
    steady = _span([paper(reference, "bandwidth_change", a, "rtt_steady", 1.2) for a in ("qtcol", "qtcolfair")])
    return (f"The paper: CUBIC's RTT swings over {paper_range(reference, 'bandwidth_change', 'cubic', 'rtt')} ms, "
            f"BBR's stays within {paper_range(reference, 'bandwidth_change', 'bbr', 'rtt')} ms, QtCol and QtColFair "
            f"(α = 1.2) stay near {steady} ms.")


def five_flows(reference) -> str:
    p = dict(flows=5, duration_s=400)
    jain = lambda alg, alphas: _span([paper(reference, "multiflow", alg, "jain", a, **p) for a in alphas])  # noqa: E731
    fair = (1.1, 1.2, 1.3, 1.4, 1.5)
    return ("The paper: QtColFair keeps total in-flight data and RTT closest to the optimum; utilization QtColFair "
            f"{_util(reference, 'multiflow', 'qtcolfair', 1.2, **p)} (α = 1.2) > BBR "
            f"{_util(reference, 'multiflow', 'bbr', **p)} > CUBIC {_util(reference, 'multiflow', 'cubic', **p)}; "
            f"Jain's index above 0.9 for QtColFair ({jain('qtcolfair', fair)}), CUBIC ({jain('cubic', (None,))}) and "
            f"BBR ({jain('bbr', (None,))}), about 1/N = 0.2 for QtCol ({jain('qtcol', (1.1, 1.2, 1.5))}), which "
            "lets one flow take the link.")


def buffer_sweep(reference) -> str:
    u = lambda alg, b, a=None: _util(reference, "buffer_sweep", alg, a, flows=5, buffer_bdp=b)  # noqa: E731
    deep = (2, 3, 4, 5, 6, 8, 10)
    fair = _span([round(100 * paper(reference, "buffer_sweep", "qtcolfair", "goodput", 1.2, flows=5, buffer_bdp=b)
                        / LINK_MBPS, 1) for b in deep])
    return ("The paper (5 flows): in shallow buffers CUBIC does best, BBR suffers heavy loss and QtColFair lies in "
            f"between; in deep buffers CUBIC's utilization falls (from {u('cubic', 2)} at 2 BDP to {u('cubic', 10)} "
            f"at 10 BDP) and its RTT grows, QtColFair (α = 1.2) holds {fair}% with RTT near "
            f"α × baseRTT, BBR stays below 95% ({u('bbr', 1)} at 1 BDP, {u('bbr', 10)} at 10 BDP).")
