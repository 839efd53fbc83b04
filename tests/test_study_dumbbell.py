"""Study files of the packet-network model: several grids, and clear errors for bad values."""
import pytest
import yaml

from simulator.study import load_study
from simulator.study_errors import StudyError

BASE = {
    "study": "qt_x", "paper": "qtcol", "title": "t", "model": "dumbbell", "seeds": 1,
    "grids": [{"algorithm": ["cubic", "bbr"]}, {"algorithm": ["qtcolfair"], "alpha": [1.2, 1.5]}],
    "fixed": {"flows": 1, "buffer_bdp": 5, "duration": 10, "warmup": 2},
}


def write(tmp_path, doc):
    path = tmp_path / "qt_x.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    return path


def test_several_grids_give_the_union_of_their_points(tmp_path):
    s = load_study(write(tmp_path, BASE))
    assert [p.path for p in s.points()] == [
        "algorithm~cubic", "algorithm~bbr", "algorithm~qtcolfair/alpha~1.2", "algorithm~qtcolfair/alpha~1.5"]
    assert s.points()[2].params["alpha"] == 1.2 and "alpha" not in s.points()[0].params


@pytest.mark.parametrize("mutate,expected", [
    (lambda d: d["grids"][0].update(algorithm=["cubic", "bbrr"]), ["grids[0].algorithm[1]", "'bbrr'", "allowed values"]),
    (lambda d: d["grids"][0].update(algorithm=["none"]), ["'none' is not an algorithm of model dumbbell", "allowed values: tahoe, reno, newreno, cubic, vegas, bbr"]),
    (lambda d: d["grids"][1].update(alpha=[1.0]), ["grids[1].alpha[0]", "allowed values: numbers > 1"]),
    (lambda d: d["fixed"].update(warmup=10), ["warmup", "not shorter than duration", "allowed values: 0 <= warmup < duration"]),
    (lambda d: d["fixed"].update(change="jitter"), ["fixed.change", "'jitter'", "allowed values: static, bandwidth, delay"]),
    (lambda d: d["fixed"].update(flows=0), ["fixed.flows", "allowed values: integers >= 1"]),
    (lambda d: d["fixed"].update(buffer_bdp=-1), ["fixed.buffer_bdp", "allowed values: numbers > 0"]),
    (lambda d: d.update(grid={"algorithm": ["cubic"]}), ["grid/grids: give exactly one of them (both are there)"]),
    (lambda d: d.pop("grids"), ["grid/grids: give exactly one of them (neither is there)", "allowed keys: grid"]),
])
def test_bad_dumbbell_studies_are_rejected_with_file_key_and_allowed_values(tmp_path, mutate, expected):
    import copy
    doc = copy.deepcopy(BASE)
    mutate(doc)
    with pytest.raises(StudyError) as err:
        load_study(write(tmp_path, doc))
    msg = str(err.value)
    assert "qt_x.yaml" in msg
    for part in expected:
        assert part in msg, msg
