"""The flow model is built from one declared FlowConfig (simulator/models/flow_config.py), and its samples
are read back by column name."""
import dataclasses

import numpy as np
import pytest

from simulator.models.flow_config import FLOW_COUNTERS, FLOW_SAMPLE, SAMPLE_HEAD, FlowConfig, Samples, samples
from simulator.models.flow_model import FlowModel
from simulator.net.topology import Topology
from simulator.tcp.cc import aimd

DUMBBELL = dict(bottleneck_bps=10e6, bottleneck_delay=0.01, buffer_pkts=50, duration=1.0, sample_interval=0.1)


def controllers(n):
    return [aimd.RenoGrowth("newreno") for _ in range(n)]


def test_the_model_takes_a_config_object_not_loose_settings():
    with pytest.raises(TypeError, match=r"FlowModel takes a FlowConfig \(simulator/models/flow_config.py\), got dict"):
        FlowModel("k", controllers(1), dict(DUMBBELL))
    with pytest.raises(TypeError):
        FlowModel("k", controllers(1), duration=1.0)            # the 26 keyword arguments are gone


def test_every_setting_is_declared_once_with_a_type_and_default():
    fields = {f.name: f for f in dataclasses.fields(FlowConfig)}
    assert len(fields) == 25                                     # plus the key and the controllers: the old 26, + wifi
    assert all(f.type for f in fields.values())
    assert all(f.default is not dataclasses.MISSING for f in fields.values())
    assert FlowConfig().duration == 10.0 and FlowConfig().data_size == 1502


@pytest.mark.parametrize("config, n, message", [
    (FlowConfig(**DUMBBELL), 0, "the flow model needs at least one flow"),
    (FlowConfig(duration=1.0), 1, "the built-in dumbbell needs bottleneck_bps, bottleneck_delay and buffer_pkts"),
    (FlowConfig(**DUMBBELL, udp=[{}]), 1, "UDP sources and probes need a topology"),
    (FlowConfig(**DUMBBELL, start_times=[0.0]), 2, "1 start times for 2 flows"),
    (FlowConfig(**DUMBBELL, stop_times=[1.0, 2.0, 3.0]), 2, "3 stop times for 2 flows"),
    (FlowConfig(**DUMBBELL, topology=Topology("t")), 1, "describe the built-in dumbbell; with topology="),
    (FlowConfig(topology=Topology("t")), 2, r"a topology run needs \(source, destination\) for each of the 2 flows"),
])
def test_a_config_that_does_not_fit_is_refused_before_anything_is_built(config, n, message):
    with pytest.raises(ValueError, match=message):
        config.check(n)
    if n:
        with pytest.raises(ValueError, match=message):
            FlowModel("k", controllers(n), config)


def test_samples_are_named_columns_of_the_rows_the_model_keeps():
    out = FlowModel("named-samples", controllers(2), FlowConfig(**DUMBBELL)).run()
    rows, rows2 = np.asarray(out["samples"], dtype=float), np.asarray(out["samples2"], dtype=float)
    n_samples = len(rows)
    assert rows.shape == (n_samples, len(SAMPLE_HEAD) + 2 * len(FLOW_SAMPLE))     # storage: plain rows
    assert rows2.shape == (n_samples, 2 * len(FLOW_COUNTERS))
    s = samples(out)
    assert isinstance(s, Samples) and s._fields == SAMPLE_HEAD + FLOW_SAMPLE + FLOW_COUNTERS
    assert np.array_equal(s.t, rows[:, 0]) and np.array_equal(s.queue_pkts, rows[:, 1])
    for flow in range(2):
        assert np.array_equal(s.cwnd[:, flow], rows[:, 2 + 4 * flow])
        assert np.array_equal(s.delivered[:, flow], rows[:, 5 + 4 * flow])
        assert np.array_equal(s.sent[:, flow], rows2[:, 1 + 6 * flow])
        assert np.array_equal(s.in_order[:, flow], rows2[:, 5 + 6 * flow])
    assert (s.in_order <= s.delivered).all() and s.sent[-1].sum() > 0 and (s.cwnd > 0).all()
