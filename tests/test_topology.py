"""Topology builders and deterministic shortest-path routes, installed on a real Network."""
import pytest

from simulator.core.events import EventQueue
from simulator.net import topology as T
from simulator.net.network import Network


def test_chain_route_crosses_every_router_in_order():
    t = T.chain(3, 1e6, 0.01, 50)
    assert t.path("h0", "h1") == ["h0", "r0", "r1", "r2", "h1"]
    assert [d for _, d in t.hops("h1", "h0")] == [1, 1, 1, 1]       # the reverse direction


def test_star_and_mesh_paths():
    s = T.star(4, 1e6, 0.01, 50)
    assert s.path("h0", "h3") == ["h0", "r0", "h3"]
    m = T.mesh(4, 1e6, 0.01, 50)
    assert m.path("h0_0", "h2_0") == ["h0_0", "r0", "r2", "h2_0"]      # the direct router link


def test_shortest_path_prefers_lower_delay_then_fewer_hops():
    t = T.Topology("x", hosts=["a", "b"], routers=["r1", "r2", "r3"])
    t.add_link("a", "r1", 1e6, 0.001, 10)
    t.add_link("r1", "b", 1e6, 0.100, 10)          # direct but slow
    t.add_link("r1", "r2", 1e6, 0.001, 10)
    t.add_link("r2", "r3", 1e6, 0.001, 10)
    t.add_link("r3", "b", 1e6, 0.001, 10)
    assert t.path("a", "b") == ["a", "r1", "r2", "r3", "b"]


def test_parking_lot_cross_flows_use_one_hop_each():
    t = T.parking_lot(3, 1e6, 0.01, 20)
    assert t.path("long_src", "long_dst") == ["long_src", "r0", "r1", "r2", "r3", "long_dst"]
    assert t.path("c1_src", "c1_dst") == ["c1_src", "r1", "r2", "c1_dst"]


def test_access_point_marks_wireless_links():
    t = T.access_point(["pc"], ["laptop", "phone"], 1e9, 50e6, 1e-4, 2e-3, 100)
    kinds = {(l.a, l.kind) for l in t.links}
    assert ("laptop", "wireless") in kinds and ("pc", "wired") in kinds
    assert t.path("laptop", "phone") == ["laptop", "ap", "phone"]


def test_install_creates_two_one_way_links_per_duplex_link_and_routes_work():
    t = T.dumbbell(2, 100e6, 0.02, 345, 10e9, 1e-5)
    net = Network(EventQueue(), 0, 1, 2)
    ids = t.install(net)
    assert len(ids) == 2 * len(t.links)
    route = [ids[h] for h in t.hops("s0", "d0")]
    net.set_route(0, 0, route)
    assert net.link_stats(ids[t.hops("s0", "d0")[1]])["rate_bps"] == 100e6


def test_unknown_nodes_are_named_with_the_allowed_ones():
    t = T.star(2, 1e6, 0.01, 5)
    with pytest.raises(ValueError, match="unknown node 'h9'; allowed: h0, h1, r0"):
        t.path("h0", "h9")
    with pytest.raises(ValueError, match="rate > 0"):
        t.add_link("h0", "r0", 0, 0.01, 5)
