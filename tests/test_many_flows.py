"""Many SACK flows on one shallow bottleneck (issue 38): 512 CUBIC flows with the dumbbell's defaults
(the ns3 stack: SACK without RACK, delayed ACKs, HyStart, minimum RTO 1 s, no receive window) on
1 Gbit/s, 10 ms one way, a 1-BDP DropTail buffer (1,667 packets), starting within 100 ms.

When SACK-only ACKs grew the window in the LOSS state, a flow whose retransmission was lost again
(found only by its next, backed-off RTO) slow-started on the SACKs of packets far past its hole;
hundreds of flows doing so kept a third of all packets dropped, and 5 s delivered about 10 % of the
bottleneck in order (41 thousand packets, 44 events per packet). Now it is above 95 %.

The flow limit is declared once (simulator/scenarios/network.params.yaml, 100,000) and checked for a run
started from Python as for a study, with the per-flow samples' cap (simulator/run_limits.py); the route
table grows with the topology (it stopped at 1,024 routes: 512 flows).
"""
import pytest

import simulator
from simulator import params, registry
from simulator.run_limits import MAX_FLOW_SAMPLES

MBPS, SECONDS, FLOWS = 1000.0, 5.0, 512
WIRE_BYTES = 1448 + 54           # mss_bytes + headers (simulator/scenarios/dumbbell.py HEADERS)


def test_512_cubic_flows_deliver_most_of_the_bottleneck_in_order():
    import simulator.models.flow_model as fm
    kept = {}

    class Kept(fm.FlowModel):                      # the dumbbell builds its model by this name
        def run(self):
            kept["out"] = super().run()
            return kept["out"]

    orig, fm.FlowModel = fm.FlowModel, Kept
    try:
        simulator.run({"model": "dumbbell", "algorithm": "cubic", "flows": FLOWS, "bottleneck_mbps": MBPS,
                       "delay_ms": 10.0, "buffer_pkts": 1667, "duration": SECONDS, "warmup": 0.0,
                       "start_interval": 0.1 / FLOWS}, 1)
    finally:
        fm.FlowModel = orig
    out = kept["out"]
    in_order = sum(f["delivered"] for f in out["flows"])       # the receivers' rcv_nxt
    capacity = MBPS * 1e6 * SECONDS / (8 * WIRE_BYTES)
    assert in_order >= 0.8 * capacity, f"{in_order} packets in order, {in_order / capacity:.1%} of the bottleneck"
    assert out["events_processed"] / in_order < 10             # 44 per packet while it collapsed


def dumbbell(**kw):
    return {"model": "dumbbell", "algorithm": "cubic", "bottleneck_mbps": 100.0, "duration": 0.5, "warmup": 0.0, **kw}


def test_the_flow_limit_is_declared_once_and_both_models_read_it():
    declared = params.shared_declarations()["flows"]["schema"]["maximum"]
    for model in ("dumbbell", "ns2"):
        (p,) = [x for x in registry.model(model).params if x.name == "flows"]
        assert p.schema["maximum"] == declared == 100_000


@pytest.mark.parametrize("run, words", [
    (dumbbell(flows=100_001), "flows: 100001; allowed values: 1 to 100000"),
    ({"model": "ns2", "algorithm": "reno", "flows": 100_001}, "flows: 100001; allowed values: 1 to 100000"),
    (dumbbell(flows=10_000, duration=20.0), f"flows x duration / sample_interval <= {MAX_FLOW_SAMPLES}"),
])
def test_a_run_from_python_is_held_to_the_limits_before_it_starts(run, words):
    with pytest.raises(ValueError, match="allowed values") as e:
        simulator.run(run, 1)
    assert words in str(e.value)


def test_more_flows_than_the_old_route_table_held_run():
    """600 flows: 1,200 routes (data and ACKs), past the 1,024 the table used to stop at."""
    m = simulator.run(dumbbell(flows=600, start_interval=0.0), 1)["metrics"]
    assert m["utilization"] > 0.5
