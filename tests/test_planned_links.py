"""Links that work out departures at arrival (Network.plan) change no result where no two packets tie:
each model's runs with and without the plan give identical metrics (but the count of events), with far
fewer events.  Simultaneous events keep their order by when each was (or would have been) scheduled;
where that ties too (mirror-image flows whose packets leave two links at the same instant having started
there at the same instant) the order may differ, so the NS-2 model, whose meshes are full of such ties,
keeps an event per step."""
import math

import pytest

from simulator import registry
from simulator.models import flow_model

CASES = {
    # paced BBR flows whose ACKs tie with their pacing timers: the tie order must survive
    "dumbbell-bbr-paced": dict(model="dumbbell", algorithm="bbr", flows=3, duration=4, warmup=1,
                               bottleneck_mbps=10, buffer_pkts=9, stack="ns3"),
    # one flow: the bottleneck too is fed by one link and takes no events of its own
    "dumbbell-cubic-one-flow": dict(model="dumbbell", algorithm="cubic", flows=1, duration=4, warmup=1,
                                    bottleneck_mbps=100, buffer_pkts=86),
    # many flows: the bottleneck's packets go on one wire list for all its eager access links (Links.plan),
    # some of them longer (their ACKs' wire lists get overtaken)
    "dumbbell-cubic-many-flows": dict(model="dumbbell", algorithm="cubic", flows=40, duration=3, warmup=1,
                                      bottleneck_mbps=100, buffer_pkts=60, start_interval=0.0,
                                      flow_extra_delay_ms=[0.0, 0.0, 1.0, 2.5] * 10),
    # random loss and jitter on the bottleneck, a changing rate
    "dumbbell-newreno-impaired": dict(model="dumbbell", algorithm="newreno", flows=3, duration=4, warmup=1,
                                      bottleneck_mbps=20, buffer_pkts=30, loss_fwd_pct=0.5, jitter_ms=1.0,
                                      capacity_schedule=[[0, 20], [2, 5]]),
    # a shared Wi-Fi medium, per-hop loss and jitter, a fluctuating capacity
    "testbed": dict(model="testbed", algorithm="cubic", duration=5),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_planned_links_give_identical_results_with_fewer_events(case, monkeypatch):
    runs = []
    for plan in (True, False):
        monkeypatch.setattr(flow_model, "PLAN_LINKS", plan)
        runs.append(registry.run(dict(CASES[case]), 3)["metrics"])
    planned, stepped = runs
    assert planned.pop("events") < stepped.pop("events")
    assert planned.keys() == stepped.keys()
    for k, v in planned.items():
        assert v == stepped[k] or (math.isnan(v) and math.isnan(stepped[k])), k


def test_the_ns2_model_keeps_an_event_per_step(monkeypatch):
    case = dict(model="ns2", algorithm="reno", topology="mesh", flows=4, duration=20)
    runs = []
    for plan in (True, False):
        monkeypatch.setattr(flow_model, "PLAN_LINKS", plan)
        runs.append(registry.run(dict(case), 3)["metrics"])
    assert runs[0] == runs[1]                    # events included: the same steps either way
