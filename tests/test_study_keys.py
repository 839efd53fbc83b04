"""Every network-model key is honoured or rejected (issue 15, item 1): each key at two values on a
very short run gives different results (same run key, so only the key can make the difference),
and bad values, keys a model lacks and stack contradictions are refused before any job with the
file, the key and what is allowed."""
import copy

import pytest
import yaml

from simulator import registry
from simulator.study import load_study
from simulator.study_errors import StudyError

# a very short run of each model, and a key's two values (with what else the key needs to act)
BASE = {
    "dumbbell": {"algorithm": "reno", "duration": 2.0, "warmup": 0.0, "bottleneck_mbps": 20.0},
    "ns2": {"algorithm": "reno", "duration": 15.0, "warmup": 0.0, "flows": 2},
    "testbed": {"algorithm": "reno", "duration": 3.0, "capacity_sd": 0.0},
}
KEYS = {
    "stack": ("ns3", "ns2", {}),
    "ack_counting": ("linux", "ns3", {"delack_count": 2}),     # ACKs covering 2 segments
    "delack_count": (1, 3, {}),
    "delack_timeout_ms": (1.0, 500.0, {"delack_count": 4}),
    "init_cwnd": (2, 20, {}),
    "rto_min": (0.01, 5.0, {"loss_fwd_pct": 20.0}),
    "rto_initial": (0.01, 5.0, {"loss_fwd_pct": 20.0, "handshake": "none"}),
    "hystart": (False, True, {"algorithm": "cubic", "delay_ms": 5.0}),
    "sack": (False, True, {"loss_fwd_pct": 3.0}),
    "sack_recovery": ("ns3", "linux", {"algorithm": "cubic", "sack": True, "loss_fwd_pct": 10.0}),  # lost again
    "handshake": ("none", "ns3", {}),
    "rto_timer": ("ns2", "linux", {"loss_fwd_pct": 10.0, "delay_ms": 100.0}),  # RTO 1 s vs SRTT + 1 s
    "mss_bytes": (500, 1448, {}),
    "rwnd_pkts": (4, 0, {}),
    "loss_fwd_pct": (0.0, 2.0, {}),
    "loss_rev_pct": (0.0, 30.0, {}),
    "loss_pattern": ("random", "periodic", {"loss_fwd_pct": 2.0}),
    "jitter_ms": (0.0, 5.0, {}),
    "capacity_schedule": ([[0, 20.0]], [[0, 20.0], [0.5, 2.0]], {}),
    "start_times_s": (None, "late", {}),
    "flow_extra_delay_ms": (None, "longer", {}),
}


def run(model, params):
    mod = registry.scenario(model)
    return mod.run(mod.params_with_defaults({"model": model, **params}), "study-keys")["metrics"]


def values(model, key, v):
    if key == "start_times_s" and v is not None:       # one start per flow, all later than by default
        flows = BASE[model].get("flows", 1)
        return [1.0] * flows
    if key == "flow_extra_delay_ms" and v is not None:  # one extra delay per flow
        return [30.0] * BASE[model].get("flows", 1)
    return v


CASES = [(m, k) for m in BASE for k in KEYS]


@pytest.mark.parametrize("model, key", CASES)
def test_each_key_changes_the_run_or_is_rejected(model, key, tmp_path):
    a, b, extra = KEYS[key]
    if key not in registry.model(model).names:
        with pytest.raises(StudyError) as e:
            load_study(write(tmp_path, model, {key: values(model, key, b)}))
        accepting = [m for m in registry.MODELS if key in registry.model(m).names]
        assert f"'{key}' is not a parameter of model {model}" in str(e.value)
        assert f"models that accept '{key}': {', '.join(accepting)}" in str(e.value)
        return
    if model == "ns2" and key == "hystart":
        extra = {**extra, "delay_ms": 50.0, "window": 0, "duration": 30.0}
    if model == "ns2" and key == "sack_recovery":
        # on the default path (1 Mbit/s, 100 ms a link) with 10% loss both styles recover alike in these 15 s since
        # SACK-only ACKs no longer grow the window (0.3.4); at 50 ms a link they differ
        extra = {**extra, "delay_ms": 50.0}
    if model == "testbed" and key in ("loss_fwd_pct", "rto_min", "rto_initial", "sack"):
        extra = {**extra, "loss_pct": 0.0}
    base = {**BASE[model], **extra}
    first = run(model, {**base, key: values(model, key, a)})
    second = run(model, {**base, key: values(model, key, b)})
    assert first != second, f"{model}: {key} {a!r} and {b!r} give identical results"


def write(tmp_path, model, fixed, grid=None):
    doc = {"study": "keys", "paper": "qtcol", "title": "t", "model": model, "seeds": 1,
           "grid": grid or {"algorithm": ["reno"]},
           "fixed": {**{k: v for k, v in BASE[model].items() if k != "algorithm"}, **fixed}}
    path = tmp_path / "keys.yaml"
    path.write_text(yaml.safe_dump(copy.deepcopy(doc), sort_keys=False))
    return path


@pytest.mark.parametrize("model", list(BASE))
@pytest.mark.parametrize("fixed, expected", [
    ({"stack": "bsd"}, ["fixed.stack", "'bsd' is not allowed", "allowed values: ns2, ns3, linux"]),
    ({"loss_fwd_pct": 100}, ["fixed.loss_fwd_pct", "out of range", "< 100"]),
    ({"loss_rev_pct": -1}, ["fixed.loss_rev_pct", "out of range", ">= 0"]),
    ({"jitter_ms": -0.5}, ["fixed.jitter_ms", "out of range", ">= 0"]),
    ({"start_times_s": [0.0, 99.0]}, ["start_times_s", "allowed"]),
    ({"delack_count": 0}, ["fixed.delack_count", "out of range", ">= 1"]),
])
def test_bad_values_are_refused_before_any_job(tmp_path, model, fixed, expected):
    with pytest.raises(StudyError) as e:
        load_study(write(tmp_path, model, fixed))
    assert str(tmp_path / "keys.yaml") in str(e.value)
    for text in expected:
        assert text in str(e.value)


def test_start_times_after_the_end_and_of_the_wrong_length_are_named(tmp_path):
    with pytest.raises(StudyError, match=r"start_times_s\[0\]: 99.0 s is not before the run's end; "
                                         r"allowed: 0 <= start < duration"):
        load_study(write(tmp_path, "dumbbell", {"start_times_s": [99.0]}))
    with pytest.raises(StudyError, match="start_times_s: 1 start times for 2 flows; allowed: a list of exactly 2"):
        load_study(write(tmp_path, "ns2", {"start_times_s": [0.0]}))


def test_a_detail_contradicting_the_stack_set_in_the_same_file_is_refused(tmp_path):
    with pytest.raises(StudyError) as e:
        load_study(write(tmp_path, "dumbbell", {"stack": "ns3", "rto_min": 0.2}))
    msg = str(e.value)
    for text in ("keys.yaml", "fixed.rto_min: rto_min 0.2 contradicts fixed.stack ns3",
                 "preset has rto_min 1.0", "drop `stack:`", "drop `rto_min:`"):
        assert text in msg
    with pytest.raises(StudyError, match="grid.delack_count: delack_count 1 contradicts fixed.stack linux"):
        load_study(write(tmp_path, "testbed", {"stack": "linux"},
                         grid={"algorithm": ["reno"], "delack_count": [2, 1]}))


def test_a_detail_agreeing_with_the_stack_or_without_stack_is_accepted(tmp_path):
    load_study(write(tmp_path, "dumbbell", {"stack": "ns3", "rto_min": 1.0}))
    s = load_study(write(tmp_path, "dumbbell", {"rto_min": 0.2}))
    from simulator.tcp import stacks
    d = stacks.resolve(registry.resolve(s.points()[0].params))
    assert (d.stack, d.rto_min, d.delack_timeout_ms) == ("ns3", 0.2, 200.0)


@pytest.mark.parametrize("model,replaced", [("dumbbell", "start_interval"), ("ns2", "start_spread")])
def test_start_times_and_the_key_they_replace_are_not_both_accepted(tmp_path, model, replaced):
    with pytest.raises(StudyError, match=f"start_times_s replaces fixed.{replaced}, and both are set"):
        load_study(write(tmp_path, model, {"start_times_s": [0.0, 1.0], replaced: 0.5, "flows": 2}))


def test_flows_of_different_rtts_and_a_wrong_count_of_delays(tmp_path):
    base = {**BASE["dumbbell"], "flows": 2, "duration": 10.0, "bottleneck_mbps": 10.0}
    mod = registry.scenario("dumbbell")
    p = mod.params_with_defaults({"model": "dumbbell", **base, "flow_extra_delay_ms": [0, 40]})
    assert registry.key(p, 1) != registry.key({**p, "flow_extra_delay_ms": None}, 1)
    unset = mod.params_with_defaults({"model": "dumbbell", **base})
    assert "flow_extra_delay_ms" not in mod.key_params(unset)          # existing runs keep their keys
    with pytest.raises(StudyError, match="flow_extra_delay_ms: 1 delays for 2 flows; allowed: a list of exactly 2"):
        load_study(write(tmp_path, "dumbbell", {"flows": 2, "flow_extra_delay_ms": [10.0]}))


def test_a_bdp_multiple_is_the_paths_except_on_the_qtcolfair_authors_path():
    mod = registry.scenario("dumbbell")
    p = lambda **k: mod.params_with_defaults({"algorithm": "cubic", **k})   # noqa: E731
    assert mod.buffer_packets(p(buffer_bdp=5)) == 1727                   # the authors' own sizes
    assert mod.buffer_packets(p(buffer_bdp=1, bottleneck_mbps=40, delay_ms=299.98)) == 2072   # 40 Mbit/s x 600 ms
    assert mod.buffer_packets(p(buffer_bdp=1, bottleneck_mbps=10)) == 35


def test_access_links_no_faster_than_the_bottleneck_are_refused(tmp_path):
    # unbounded access buffers: a flow sending alone at the bottleneck's rate would queue in its access link
    for flows in (1, 9):
        with pytest.raises(StudyError, match=r"access_gbps: 0.1 Gbit/s is no faster than the bottleneck's "
                                             r"100 Mbit/s.*allowed: access_gbps x 1000 > 100"):
            load_study(write(tmp_path, "dumbbell", {"flows": flows, "access_gbps": 0.1, "bottleneck_mbps": 100}))
    with pytest.raises(StudyError, match="bottleneck's 500 Mbit/s"):      # its schedule's fastest rate counts
        load_study(write(tmp_path, "dumbbell", {"flows": 1, "access_gbps": 0.4, "bottleneck_mbps": 100,
                                                "change": "bandwidth"}))
    load_study(write(tmp_path, "dumbbell", {"flows": 1, "access_gbps": 0.2, "bottleneck_mbps": 100}))
