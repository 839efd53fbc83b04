"""The network model (simulator/scenarios/open_network.py): any topology from study keys, flow classes,
open-loop arrivals, completion times; and its engine (simulator/models/openloop_model.pyx)."""
import json
import math

import numpy as np
import pytest

import simulator
from simulator.workloads import SizeDistribution, arrival_rate

ACCESS = {"mbps": 10000, "delay_ms": 0.01, "buffer_pkts": 100000}


def line(n_routers=2, mbps=100, delay_ms=5.0, buffer_pkts=200):
    """h0 - r0 - ... - r{n-1} - h1, access links 10 Gbit/s."""
    routers = [f"r{i}" for i in range(n_routers)]
    links = [{"between": ["h0", "r0"], **ACCESS}, {"between": [routers[-1], "h1"], **ACCESS}]
    links += [{"between": [a, b], "mbps": mbps, "delay_ms": delay_ms, "buffer_pkts": buffer_pkts}
              for a, b in zip(routers, routers[1:])]
    return {"hosts": ["h0", "h1"], "routers": routers, "links": links}


def run(classes, seed=1, **kw):
    p = {"model": "network", "algorithm": "cubic", **line(), "flow_classes": classes, "monitor": ["r0", "r1"],
         "duration": 20, "warmup": 1, **kw}
    return simulator.run(p, seed)["metrics"]


WEB = {"name": "web", "from": "h0", "to": "h1", "workload": "poisson"}


def test_a_lone_one_packet_flow_takes_its_ideal_time():
    # at a load this low flows never overlap: a one-segment flow's completion time is the path's propagation
    # delay plus its serialisation on each hop, i.e. slowdown 1, and one round trip more with a handshake
    m = run([{**WEB, "sizes": "fixed:1000"}], load=1e-4, stack="ns3", handshake="none")
    assert m["flows_completed"] > 5 and m["slowdown_p50"] == pytest.approx(1.0, abs=1e-9)
    assert m["slowdown_p99"] == pytest.approx(1.0, abs=1e-9)
    with_syn = run([{**WEB, "sizes": "fixed:1000"}], load=1e-4, stack="linux", handshake="linux")
    assert with_syn["slowdown_p50"] == pytest.approx(1.0, abs=1e-9)
    assert with_syn["fct_p50_ms"] == pytest.approx(m["fct_p50_ms"] + 2 * (5.02 + 66 * 8 * (2 / 1e10 + 1 / 1e8) * 1e3), rel=1e-6)


def test_offered_load_is_carried_and_runs_repeat_bit_for_bit():
    a = run([{**WEB, "sizes": "lognormal:100000:1"}], load=0.3)
    b = run([{**WEB, "sizes": "lognormal:100000:1"}], load=0.3)
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)       # NaN too (no large flows)
    # wire bits over the link's rate: the load (plus a little for retransmissions and the warm-up's edges)
    assert 0.25 < a["utilization"] < 0.36
    assert a["flows_completed"] + a["flows_unfinished"] <= a["flows_arrived"]
    assert a["flows_completed"] > 0.9 * a["flows_arrived"]
    other = run([{**WEB, "sizes": "lognormal:100000:1"}], seed=2, load=0.3)
    assert json.dumps(other, sort_keys=True) != json.dumps(a, sort_keys=True)


def test_slots_are_reused_so_memory_follows_flows_active_at_once():
    from simulator.models.openloop_config import FlowClass, OpenLoopConfig
    from simulator.models.openloop_model import OpenLoopModel
    from simulator.net.topology import chain
    from simulator.tcp.cc import catalogue

    sizes = SizeDistribution("fixed", mean_bytes=20000)
    rate = arrival_rate(0.5, 1e8, sizes, 1448, 1502)
    cls = FlowClass("f", "h0", "h1", lambda i: catalogue.build("reno", catalogue.Stack("ns3", sack=True))[0],
                    "poisson", rate=rate, sizes=sizes)
    out = OpenLoopModel("k", OpenLoopConfig(chain(2, 1e8, 0.005, 200, 1e10, 1e-5), [cls], ("r0", "r1"),
                                            duration=60.0)).run()
    assert out["arrived"] > 15000 and len(out["done"]) > 0.99 * out["arrived"]
    assert out["peak_active"] <= out["slots"] <= 2 * max(out["peak_active"], 32)
    assert (out["done"][:, 1] == 14).all() and (out["done"][:, 3] > 0).all()      # 20,000 bytes = 14 segments


def test_long_lived_classes_on_different_paths_share_a_link():
    topo = {"hosts": ["a", "b", "c", "d"], "routers": ["r0", "r1", "r2"],
            "links": [{"between": ["a", "r0"], **ACCESS}, {"between": ["c", "r1"], **ACCESS},
                      {"between": ["r2", "b"], **ACCESS}, {"between": ["r2", "d"], **ACCESS},
                      {"between": ["r0", "r1"], "mbps": 100, "delay_ms": 5, "buffer_pkts": 100},
                      {"between": ["r1", "r2"], "mbps": 50, "delay_ms": 5, "buffer_pkts": 100}]}
    classes = [{"name": "long", "from": "a", "to": "b", "flows": 2},
               {"name": "cross", "from": "c", "to": "d", "algorithm": "bbr", "start_s": 1}]
    m = simulator.run({"model": "network", "algorithm": "cubic", **topo, "flow_classes": classes,
                       "monitor": ["r1", "r2"], "duration": 20, "warmup": 5}, 1)["metrics"]
    assert 0.9 < m["utilization"] <= 1.0 and 40 < m["long_goodput_mbps"] <= 50
    assert m["flows_arrived"] == 3 and m["flows_completed"] == 0 and math.isnan(m["fct_p50_ms"])


def test_an_asymmetric_link_slows_the_way_back_alone():
    # r0 -> r1 at 100 Mbit/s, r1 -> r0 at 0.2 Mbit/s (an uplink): a 66-byte ACK takes 2.6 ms there, at most 379 ACKs
    # a second; the ACKs' buffer overflows and each ACK that gets through covers several segments (about 25 Mbit/s)
    def with_back(**back):
        topo = line()
        topo["links"][2] = {**topo["links"][2], **back}
        return simulator.run({"model": "network", "algorithm": "cubic", **topo, "monitor": ["r0", "r1"],
                              "flow_classes": [{"name": "bulk", "from": "h0", "to": "h1"}], "duration": 20,
                              "warmup": 5}, 1)["metrics"]
    same, slow_back = with_back(), with_back(reverse_mbps=0.2, reverse_buffer_pkts=50)
    assert same["long_goodput_mbps"] > 85 and slow_back["long_goodput_mbps"] < 40
    # a lone one-segment flow with a handshake: its ideal time counts the SYN-ACK's slow way back, so slowdown 1
    topo = line()
    topo["links"][2] = {**topo["links"][2], "reverse_mbps": 0.2}
    m = simulator.run({"model": "network", "algorithm": "cubic", **topo, "monitor": ["r0", "r1"], "load": 1e-4,
                       "flow_classes": [{**WEB, "sizes": "fixed:1000"}], "stack": "linux", "handshake": "linux",
                       "duration": 20, "warmup": 1}, 1)["metrics"]
    assert m["flows_completed"] > 5 and m["slowdown_p50"] == pytest.approx(1.0, abs=1e-9)


@pytest.mark.parametrize("change, message", [
    ({"flow_classes": [{**WEB, "from": "r0"}]}, r"flow_classes\[0\] \(web\)\.from: 'r0' is not a host; allowed: h0, h1"),
    ({"flow_classes": [{**WEB, "via": ["h0", "r1", "h1"]}]}, r"via: .*no link between 'h0' and 'r1'"),
    ({"flow_classes": [{**WEB, "flows": 3}]}, r"flows do\(es\) nothing for workload poisson"),
    ({"flow_classes": [{**WEB, "algorithm": "tahoe"}]}, r"algorithm: 'tahoe'; allowed: .*cubic"),
    ({"sizes": "pareto:1000:0.9"}, r"sizes: 'pareto:1000:0.9' is not a size distribution.*allowed: websearch"),
    ({"sizes": "file:/no/such.cdf"}, r"sizes: 'file:/no/such.cdf'.*allowed"),
    ({"monitor": ["h0", "h1"]}, r"monitor: \['h0', 'h1'\] is not a link"),
    ({"stack": "ns2"}, r"would run without SACK \(stack ns2.*SACK TCP only"),
    ({"links": [{"between": ["h0", "zz"], **ACCESS}]}, r"links\[0\]\.between: \['h0', 'zz'\]; allowed: two different nodes"),
])
def test_bad_keys_are_refused_naming_the_key(change, message):
    p = {"model": "network", "algorithm": "cubic", **line(), "flow_classes": [WEB], "duration": 5, "warmup": 1, **change}
    with pytest.raises(ValueError, match=message):
        simulator.registry.resolve(p)


def test_size_distributions_have_the_means_they_declare():
    assert SizeDistribution("pareto", mean_bytes=1e5, shape=2.5).mean_packets(1000) * 1000 == pytest.approx(1e5, rel=0.02)
    assert SizeDistribution("lognormal", mean_bytes=1e5, sigma=1).mean_packets(1000) * 1000 == pytest.approx(1e5, rel=0.02)
    web = SizeDistribution("websearch")
    assert web.ppf(np.array([0.15, 0.53, 1.0])).tolist() == [10000, 80000, 30e6]
    assert 1.5e6 < web.mean_packets(1448) * 1448 < 1.9e6          # the DCTCP paper's ~1.6 MB mean


def test_a_trace_file_gives_the_flows_and_its_content_is_part_of_the_run_key(tmp_path):
    trace = tmp_path / "flows.csv"
    trace.write_text("start_s,size_bytes\n0.5,1000\n1.0,20000\n1.0,300000\n")
    cls = [{"name": "t", "from": "h0", "to": "h1", "workload": "trace", "trace_file": str(trace)}]
    p = {"model": "network", "algorithm": "cubic", **line(), "flow_classes": cls, "duration": 5, "warmup": 0}
    m = simulator.run(p, 1)["metrics"]
    assert m["flows_arrived"] == 3 and m["flows_completed"] == 3 and m["flows_small"] == 2 and m["flows_medium"] == 1
    key = simulator.registry.key(simulator.registry.resolve(p), 1)
    trace.write_text("start_s,size_bytes\n0.5,1000\n1.0,20000\n1.0,300001\n")
    assert simulator.registry.key(simulator.registry.resolve(p), 1) != key
    trace.write_text("start_s,size_bytes\n2,1000\n1,1000\n")
    with pytest.raises(ValueError, match=r"trace_file: .*flows.csv:3: start 1 s.*starts not falling"):
        simulator.registry.resolve(p)
