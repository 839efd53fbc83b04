"""Link ids are known before a network exists (Topology.link_id), so scenarios attach queues and
impairments in the flow model's one constructor; they match what install() assigns."""
import pytest

from simulator.net import topology


class FakeNetwork:
    def __init__(self):
        self.n = 0

    def add_link(self, *_):
        self.n += 1
        return self.n - 1


def test_link_ids_match_install_order():
    t = topology.access_point(["client"], ["server"], 1e9, 50e6, 1e-4, 1e-3, 100)
    ids = t.install(FakeNetwork())
    for i, link in enumerate(t.links):
        assert t.link_id(link.a, link.b) == ids[(i, 0)]
        assert t.link_id(link.b, link.a) == ids[(i, 1)]
    assert t.link_ids("wireless") == [ids[(1, 0)], ids[(1, 1)]]
    assert t.link_ids() == sorted(ids.values())


def test_unknown_link_and_used_network_are_refused():
    t = topology.access_point(["client"], ["server"], 1e9, 50e6, 1e-4, 1e-3, 100)
    with pytest.raises(ValueError, match="'client'-'server' is not a link"):
        t.link_id("client", "server")
    used = FakeNetwork()
    used.add_link()
    with pytest.raises(ValueError, match="empty network"):
        t.install(used)
