"""The flow model on general topologies (issue 4 groundwork): routes, fairness, equivalence."""
import pytest

from simulator.models.flow_config import FlowConfig
from simulator.models.flow_model import FlowModel
from simulator.net import topology as T
from simulator.tcp.cc.aimd import RenoGrowth
from simulator.tcp.cc.cubic import Cubic


def flows(n, cc=lambda: RenoGrowth("newreno")):
    return [cc() for _ in range(n)]


def goodputs(out):
    return [f["goodput_receiver_mbps"] for f in out["flows"]]


def test_topology_dumbbell_matches_the_built_in_dumbbell():
    built_in = FlowModel("k", flows(2), FlowConfig(100e6, 0.02, 345, duration=20.0)).run()
    topo = T.dumbbell(2, 100e6, 0.02, 345, 10e9, 1e-5)
    general = FlowModel("k", flows(2), FlowConfig(
        duration=20.0, topology=topo,
        flow_ends=[("s0", "d0"), ("s1", "d1")], monitor=("R1", "R2"))).run()
    assert sum(goodputs(general)) == pytest.approx(sum(goodputs(built_in)), rel=0.01)


def test_chain_flow_is_limited_by_its_slowest_hop():
    t = T.chain(3, 1e6, 0.01, 30)
    t.links[2].rate_bps = 0.5e6                       # r1 -> r2 is the bottleneck
    out = FlowModel("k", flows(1), FlowConfig(
        duration=60.0, topology=t, flow_ends=[("h0", "h1")],
        monitor=("r1", "r2"))).run()
    assert 0.4 < goodputs(out)[0] <= 0.5 * 1448 / 1502
    assert out["bottleneck"]["rate_bps"] == 0.5e6


def test_parking_lot_long_flow_gets_less_than_one_hop_cross_flows():
    t = T.parking_lot(3, 10e6, 0.01, 50, access_bps=100e6)
    ends = [("long_src", "long_dst")] + [(f"c{i}_src", f"c{i}_dst") for i in range(3)]
    out = FlowModel("k", flows(4, Cubic), FlowConfig(
        duration=60.0, topology=t, flow_ends=ends,
        start_times=[0, 0.1, 0.2, 0.3])).run()
    g = goodputs(out)
    assert g[0] < min(g[1:])                           # it crosses three congested hops
    assert sum(g[1:]) + g[0] < 3 * 10                  # no hop carries more than its rate


def test_flow_ends_must_match_the_flows():
    with pytest.raises(ValueError, match="needs \\(source, destination\\) for each of the 2 flows"):
        FlowModel("k", flows(2), FlowConfig(topology=T.star(3, 1e6, 0.01, 5), flow_ends=[("h0", "h1")]))


def test_the_built_in_dumbbell_and_a_topology_are_exclusive():
    with pytest.raises(ValueError, match="the built-in dumbbell needs bottleneck_bps"):
        FlowModel("k", flows(1), FlowConfig(100e6, 0.02))
    with pytest.raises(ValueError, match="with topology= the links are the topology's"):
        FlowModel("k", flows(1), FlowConfig(100e6, 0.02, 345, topology=T.star(3, 1e6, 0.01, 5), flow_ends=[("h0", "h1")]))
