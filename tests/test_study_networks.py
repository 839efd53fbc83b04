"""Study files of the NS-2 and testbed models: they load, and bad values are rejected with the
file, the key and the allowed values before anything runs."""
import copy

import pytest
import yaml

from simulator.study import load_study
from simulator.study_errors import StudyError

NS2 = {"study": "ns2_x", "paper": "ns2", "title": "t", "model": "ns2", "seeds": 1,
       "grid": {"algorithm": ["reno", "vegas"], "topology": ["linear", "mesh"]},
       "fixed": {"flows": 3, "bandwidth_mbps": 1.0, "delay_ms": 100}}
TB = {"study": "tb_x", "paper": "testbed", "title": "t", "model": "testbed", "seeds": 1,
      "grid": {"algorithm": ["bbr", "cubic"], "background": ["none", "heavy"]},
      "fixed": {"link_setup": "wifi_wifi", "duration": 20}}


def write(tmp_path, doc):
    path = tmp_path / f"{doc['study']}.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    return path


def test_good_studies_load_with_their_points(tmp_path):
    assert len(load_study(write(tmp_path, NS2)).points()) == 4
    assert len(load_study(write(tmp_path, TB)).points()) == 4
    doc = copy.deepcopy(NS2)
    doc["fixed"]["flow_pairs"] = [["s0", "d0"], ["s1", "s0"]]
    assert load_study(write(tmp_path, doc)).points()


@pytest.mark.parametrize("base,mutate,expected", [
    (NS2, lambda d: d["grid"].update(topology=["linear", "ring"]), ["grid.topology[1]", "'ring'", "allowed values: linear, star, mesh"]),
    (NS2, lambda d: d["fixed"].update(queue="red"), ["fixed.queue", "'red'", "allowed values: droptail, fq"]),
    (NS2, lambda d: d["grid"].update(algorithm=["reno", "none"]), ["'none' is not an algorithm of model ns2", "allowed values: tahoe, reno, newreno, cubic, vegas, bbr, qtcol, qtcolfair"]),
    (NS2, lambda d: d["fixed"].update(bandwidth_mbps=0), ["fixed.bandwidth_mbps", "allowed values: numbers > 0"]),
    (NS2, lambda d: d["fixed"].update(window=-1), ["fixed.window", "allowed values: integers >= 0"]),
    (NS2, lambda d: d["fixed"].update(flow_pairs=[["s0", "d0"], ["s7", "d0"]]), ["flow_pairs[1]", "'s7' is not a host", "allowed: s0, s1, d0"]),
    (NS2, lambda d: d["fixed"].update(flow_pairs=[["s0", "s0"]]), ["flow_pairs[0]", "source and destination"]),
    (TB, lambda d: d["grid"].update(background=["none", "medium"]), ["grid.background[1]", "'medium'", "allowed values: none, light, heavy"]),
    (TB, lambda d: d["fixed"].update(link_setup="eth_eth"), ["fixed.link_setup", "'eth_eth'", "allowed values: eth_wifi, wifi_wifi"]),
    (TB, lambda d: d["grid"].update(algorithm=["bbr", "bbr2"]), ["grid.algorithm[1]", "'bbr2' is not allowed", "did you mean 'bbr'", "allowed values"]),
    (TB, lambda d: d["fixed"].update(loss_pct=100), ["fixed.loss_pct", "allowed values"]),
    (TB, lambda d: d["fixed"].update(capacity_schedule=[[0, 50], [20, 10], [10, 50]]),
     ["capacity_schedule", "schedule time #2", "increasing", "allowed: [[t0, rate0]"]),
    (TB, lambda d: d["fixed"].update(capacity_schedule=[[0, 50], [20, 0]]), ["capacity_schedule[1]", "allowed: rates > 0 Mbit/s"]),
])
def test_bad_network_studies_are_rejected_with_file_key_and_allowed_values(tmp_path, base, mutate, expected):
    doc = copy.deepcopy(base)
    mutate(doc)
    with pytest.raises(StudyError) as err:
        load_study(write(tmp_path, doc))
    msg = str(err.value)
    assert f"{doc['study']}.yaml" in msg
    for part in expected:
        assert part in msg, msg
