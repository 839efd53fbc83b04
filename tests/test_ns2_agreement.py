"""Agreement with NS-2 2.35: the count for page 1 and the NS-2 chapter's side-by-side tables and claims."""
import pandas as pd
import pytest

from simulator.report.papers.ns2 import claims as claims_ns2
from simulator.report.papers.ns2 import figures_ns2_sim as figures_ns2_sim
from simulator.report.papers.ns2 import agreement as ns2_agreement


@pytest.fixture(scope="module")
def ns2():
    return ns2_agreement.ns2_tables(ns2_agreement.load_records("reference"))


def _goodput_rows(t, **where):
    m = t["metric"] == "throughput_mbps"
    for k, v in where.items():
        m &= t[k] == v
    return m


def test_ns2_tables_have_ten_seeds_per_point_and_every_study(ns2):
    assert set(ns2["study"]) == set(claims_ns2.SWEEPS)
    assert (ns2[ns2["metric"] == "throughput_mbps"]["n"] == 10).all()
    assert "bbr" not in set(ns2["algorithm"])


def test_summary_counts_distinct_points_and_the_tolerance(ns2):
    inside, total = ns2_agreement.summary(ns2, ns2)
    assert inside == total == 342          # 414 study points, the shared mesh/3-flow/1 Mbit/s/100 ms ones once
    ours = ns2.copy()
    hit = _goodput_rows(ours, study="ns2_delay", algorithm="reno", delay_ms=10, flows=2, window=20)
    assert hit.sum() == 1
    ours.loc[hit, "mean"] *= 1.06          # 6% off: outside
    assert ns2_agreement.summary(ours, ns2) == (341, 342)
    ours.loc[hit, "mean"] /= 1.06 / 1.04   # 4% off: inside
    assert ns2_agreement.summary(ours, ns2) == (342, 342)


def test_by_algorithm_splits_windows_and_algorithms(ns2):
    t = ns2_agreement.by_algorithm(ns2, ns2)
    assert set(zip(t["window"], t["algorithm"])) == {(w, a) for w in (20, 0) for a in ("reno", "newreno", "vegas")}
    assert t["points"].sum() == 342 and (t["ratio_min"] == 1).all()


def test_side_by_side_puts_the_paper_ns2_and_ours_in_one_row(ns2):
    ours = ns2.copy()
    ours.loc[ours["metric"] == "throughput_mbps", "mean"] *= 1.1
    from simulator.report import paper_values
    t = figures_ns2_sim.side_by_side(ours, ns2, "ns2_flows", paper_values.load("reference", "ns2"))
    assert len(t) == 5 * 3                                  # flow counts x algorithms, window 20
    vegas3 = t[(t["number of flows"] == "3 flows") & (t["algorithm"] == "Vegas")].iloc[0]
    assert vegas3["the paper states"] == "cwnd 3 packets; throughput per flow 0.35 Mbit/s"
    assert vegas3["goodput ours / NS-2"] == "1.1"
    one = t[t["number of flows"] == "1 flow"]
    assert (one["the paper states"] == "–").all()          # the paper's numbers are for several flows


def test_claims_on_ns2_and_ours_read_together(ns2):
    rows, _ = claims_ns2.build(ns2)
    ours = pd.DataFrame(rows).rename(columns={"item": "claim"})
    both = figures_ns2_sim.claims_both(ours, rows)
    assert len(both) == len(rows)
    assert (both["NS-2 2.35"] == both["ours"]).all()
    assert figures_ns2_sim._reading("contradicted", "contradicted").startswith("NS-2 itself contradicts")
    assert figures_ns2_sim._reading("reproduced", "contradicted").endswith("our model")


def test_section_says_so_when_the_build_ran_none_of_ns2s_points(ns2, tmp_path):
    from simulator.report import chapter
    ch = chapter.Chapter(tmp_path / "f", tmp_path / "d", "d")
    said = []
    ch.markdown = said.append
    ours = ns2[ns2["study"] == "ns2_flows"].assign(point="algorithm~reno/flows~9/window~20")
    figures_ns2_sim.section(ch, ours, ns2, pd.DataFrame(), None)
    assert len(said) == 1 and "ran none of those points" in said[0]
    assert not list((tmp_path / "d").iterdir())
