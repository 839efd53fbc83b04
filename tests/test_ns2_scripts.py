"""The NS-2 scripts render a grid point as our ns2 model runs it, and NS-2's output is measured as ours."""
import re

import pytest

from simulator.scenarios import ns2_wired
from simulator.validation import ns2_scripts


def _p(**kw):
    return ns2_wired.params_with_defaults({"model": "ns2", "algorithm": "reno", **kw})


def test_script_renders_topology_agents_window_and_starts():
    p = _p(topology="mesh", flows=3, window=20)
    starts = [0.25, 0.5, 0.75]
    tcl = ns2_scripts.script(p, starts, "out.tr")
    assert len(re.findall(r"\$ns duplex-link .* 1\.0Mb 100\.0ms DropTail", tcl)) == 6 + 3 + 1   # mesh, access, sink
    assert tcl.count("[new Agent/TCP/Reno]") == 3 and tcl.count("[new Agent/TCPSink]") == 3
    assert tcl.count("set packetSize_ 1460") == 3          # 1500 on the wire: NS-2 adds 40 bytes of header
    assert tcl.count("set window_ 20") == 3
    assert "Queue set limit_ 50" in tcl
    for i, t in enumerate(starts):
        assert f'$ns at {t!r} "$ftp({i}) start"' in tcl
    assert '$ns at 130.0 "finish"' in tcl
    assert "syn_" not in tcl and "windowInit_" not in tcl   # NS-2's defaults as shipped


def test_script_no_cap_fair_queueing_and_tahoe():
    tcl = ns2_scripts.script(_p(window=0, queue="fq", algorithm="tahoe", flows=2), [0.0, 0.1], "out.tr")
    assert tcl.count("set window_ 1000000") == 2
    assert "DropTail" not in tcl and "Queue/DRR set blimit_ 75000" in tcl
    assert tcl.count("[new Agent/TCP]") == 2


def test_algorithms_without_ns2_agent_have_no_script():
    assert ns2_scripts.agent("bbr") is None and ns2_scripts.agent("cubic") is None
    assert ns2_scripts.agent("vegas") == "Agent/TCP/Vegas" and ns2_scripts.agent("newreno") == "Agent/TCP/Newreno"


def test_start_times_are_our_runs_draws():
    p = _p(flows=3)
    from simulator import registry
    key = registry.key(p, 4)
    assert ns2_scripts.start_times(p, 4) == ns2_wired.start_times(p, key)
    assert ns2_scripts.start_times(p, 4) != ns2_scripts.start_times(p, 5)


def test_point_setting_an_unrendered_key_is_refused():
    with pytest.raises(ValueError, match="loss_fwd_pct"):
        ns2_scripts.check_point(_p(loss_fwd_pct=1.0))


def test_measure_hand_trace():
    # one flow s0 -> r0 -> d0 on the star (nodes s0=0, d0=1, r0=2), sampled at 0, 0.5 and 1.0 s:
    # packet 0 sent at 0.1, received at 0.5; packet 1 sent at 0.2, dropped at 0.3, sent again at 0.6 and
    # received at 0.9 (an ACK line and a hop's enqueue at the router are not the sender's transmissions)
    p = _p(topology="star", flows=1, duration=1.0, sample_interval=0.5, warmup=0.0)
    trace = "\n".join([
        "+ 0.1 0 2 tcp 1500 ------- 0 0.0 1.0 0 10",
        "+ 0.2 0 2 tcp 1500 ------- 0 0.0 1.0 1 11",
        "+ 0.3 2 1 tcp 1500 ------- 0 0.0 1.0 0 10",
        "d 0.3 0 2 tcp 1500 ------- 0 0.0 1.0 1 11",
        "r 0.5 2 1 tcp 1500 ------- 0 0.0 1.0 0 10",
        "r 0.55 1 2 ack 40 ------- 0 1.0 0.0 0 12",
        "+ 0.6 0 2 tcp 1500 ------- 0 0.0 1.0 1 13",
        "r 0.9 2 1 tcp 1500 ------- 0 0.0 1.0 1 13"])
    stdout = "S 0.0 2\nS 0.5 2\nS 1.0 3\nF 0 3 1 0 0\n"
    out = ns2_scripts.measure(p, stdout, trace)
    cwnd, _, _, unique = zip(*[row[2:] for row in out["samples"]])
    assert cwnd == (2, 2, 3) and unique == (0, 1, 2)
    drops, sent, dsum, dcnt, dmax, in_order = zip(*out["samples2"])
    assert drops == (0, 1, 1) and sent == (0, 2, 3) and dcnt == (0, 1, 2) and in_order == (0, 1, 2)
    assert dsum == pytest.approx((0, 0.4, 0.7)) and dmax == pytest.approx((0, 0.4, 0.3))
    f = out["flows"][0]
    assert (f["sent"], f["retransmitted"], f["drops"], f["delivered"], f["timeouts"]) == (3, 1, 1, 2, 0)
    m = ns2_scripts.metrics(p, stdout, trace)
    assert m["latency_mean_s"] == pytest.approx(0.35) and m["loss_pct"] == pytest.approx(100 / 3)
    assert m["throughput_mbps"] == pytest.approx(2 * 1460 * 8 / 1.0 / 1e6)
