"""simulator.study: validation messages, grid expansion, point paths, seed batches."""
from pathlib import Path

import pytest
import yaml
from hypothesis import given
from hypothesis import strategies as st

from simulator.scenarios.mm1_queue import ALGORITHMS_OF
from simulator.study import format_value, load_study, point_from_path
from simulator.study_errors import StudyError

ROOT = Path(__file__).resolve().parents[1]


def base_study(name="mm1_t"):
    return {
        "study": name,
        "paper": "mm1",
        "title": "test study",
        "model": "mm1",
        "grid": {
            "variant": ["standard"],
            "algorithm": ["none", "tahoe", "cubic"],
            "lambda": [5, 10.0],
        },
        "fixed": {"mu": 10, "K": 5, "theta": 1, "N": 100},
    }


def both_variants(name="mm1_t"):
    """base_study over both variants, one grid each: the paper's code by its catalogue names."""
    doc = base_study(name)
    grid = doc.pop("grid")
    doc["grids"] = [{**grid, "variant": ["as_published"], "algorithm": ["none", "published_tahoe", "published_cubic"]},
                    grid]
    return doc


def write(tmp_path, doc, name=None):
    path = tmp_path / f"{name or doc['study']}.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    return path


def error_of(tmp_path, doc, name=None) -> str:
    path = write(tmp_path, doc, name)
    with pytest.raises(StudyError) as exc:
        load_study(path)
    msg = str(exc.value)
    assert str(path) in msg, msg
    return msg


# ----------------------------------------------------------------- validation messages
def test_unknown_algorithm_names_key_allowed_values_and_nearest(tmp_path):
    doc = base_study()
    doc["grid"]["algorithm"] = ["none", "tahoe", "cubik"]
    msg = error_of(tmp_path, doc)
    assert "grid.algorithm[2]" in msg
    assert "'cubik'" in msg
    assert "did you mean 'cubic'" in msg
    for name in ("none", "tahoe", "reno", "cubic"):
        assert name in msg.split("allowed values:")[1]


def test_misspelled_grid_key(tmp_path):
    doc = base_study()
    doc["grid"]["lamda"] = doc["grid"].pop("lambda")
    msg = error_of(tmp_path, doc)
    assert "grid.lamda" in msg and "did you mean 'lambda'" in msg
    assert "allowed keys:" in msg and "mu" in msg


# one value set in the document (section None: at the top level) -> texts its message must contain
@pytest.mark.parametrize("section, key, value, expected", [
    pytest.param(None, "seed_per_job", 5,
                 ("seed_per_job", "did you mean 'seeds_per_job'", "allowed keys:", "grid"),
                 id="misspelled_top_level_key"),
    pytest.param("grid", "lambda", ["fast", 10], ("grid.lambda[0]", "'fast'", "number"),
                 id="wrong_type"),
    pytest.param("fixed", "K", 2.5, ("fixed.K", "2.5", "integer"),
                 id="integer_parameter_rejects_float"),
    pytest.param("fixed", "mu", 0, ("fixed.mu", "0", "> 0"), id="zero_rate-mu"),
    pytest.param("fixed", "theta", 0, ("fixed.theta", "0", "> 0"), id="zero_rate-theta"),
    pytest.param("fixed", "K", 0, ("fixed.K", ">= 1"), id="zero_buffer"),
    pytest.param("grid", "algorithm", [], ("grid.algorithm", "empty list"), id="empty_grid_list"),
    pytest.param("grid", "variant", ["as_published", "standard"],
                 ("grid.algorithm[1]", "'tahoe'", "'as_published'", "exclude",
                  ", ".join(ALGORITHMS_OF["as_published"])),
                 id="algorithm_not_in_variant_suggests_exclude"),
    pytest.param(None, "exclude", [{"variant": "standart"}],
                 ("exclude[0].variant", "did you mean 'standard'"),
                 id="exclude_with_unknown_value"),
    pytest.param("fixed", "lambda", 3, ("fixed.lambda", "grid"), id="key_in_grid_and_fixed"),
])
def test_bad_value_message(tmp_path, section, key, value, expected):
    doc = base_study()
    (doc if section is None else doc[section])[key] = value
    msg = error_of(tmp_path, doc)
    for text in expected:
        assert text in msg, text


def test_file_stem_mismatch(tmp_path):
    msg = error_of(tmp_path, base_study("mm1_t"), name="mm1_other")
    assert "study" in msg and "'mm1_t'" in msg and "mm1_other" in msg


def test_a_name_means_one_algorithm_the_papers_reno_is_published_reno(tmp_path):
    doc = base_study()
    doc["grid"]["variant"] = ["as_published", "standard"]
    doc["grid"]["algorithm"] = ["none", "reno"]
    msg = error_of(tmp_path, doc)
    assert msg == (f"{tmp_path / 'mm1_t.yaml'}: grid.algorithm[1]: 'reno' is not an algorithm of variant "
                   "'as_published' (did you mean 'published_reno', the paper's Reno code?); allowed values: none, "
                   "published_tahoe, published_reno, published_cubic. To skip the combination add "
                   "exclude: [{variant: as_published, algorithm: reno}]")
    doc = both_variants()
    doc["grids"][1]["algorithm"] = ["none", "published_reno"]   # the paper's code in the standard variant
    msg = error_of(tmp_path, doc)
    assert "grids[1].algorithm[1]: 'published_reno' is not an algorithm of variant 'standard'" in msg
    assert "did you mean 'reno'? published_reno runs only in variant as_published" in msg


def test_exclude_makes_newreno_valid(tmp_path):
    doc = base_study()
    doc["grid"]["variant"] = ["as_published", "standard"]
    doc["grid"]["algorithm"] = ["none", "newreno"]
    doc["exclude"] = [{"variant": "as_published", "algorithm": "newreno"}]
    s = load_study(write(tmp_path, doc))
    combos = {(p.values["variant"], p.values["algorithm"]) for p in s.points()}
    assert ("as_published", "newreno") not in combos and ("standard", "newreno") in combos
    assert len(s.points()) == 3 * 2


def test_missing_parameter(tmp_path):
    doc = base_study()
    del doc["fixed"]["theta"]
    msg = error_of(tmp_path, doc)
    assert "'theta'" in msg and "fixed" in msg


def test_yaml_exponent_is_a_float(tmp_path):
    path = write(tmp_path, base_study())
    path.write_text(path.read_text().replace("N: 100", "N: 100\n  prop_delay: 1e-3"))
    s = load_study(path)
    assert s.points()[0].params["prop_delay"] == 0.001


# ----------------------------------------------------------------- grid expansion
def test_grid_expansion_order_paths_and_types(tmp_path):
    s = load_study(write(tmp_path, both_variants()))
    points = s.points()
    assert len(points) == 2 * 3 * 2
    assert points[0].path == "variant~as_published/algorithm~none/lambda~5"
    assert points[1].path == "variant~as_published/algorithm~none/lambda~10.0"  # kept as written
    assert points[2].path == "variant~as_published/algorithm~published_tahoe/lambda~5"
    assert points[-1].path == "variant~standard/algorithm~cubic/lambda~10.0"
    p = points[0].params
    assert p["model"] == "mm1" and p["trace"] is False
    assert isinstance(p["lambda"], float) and isinstance(p["mu"], float) and isinstance(p["theta"], float)
    assert isinstance(p["K"], int) and isinstance(p["N"], int)
    assert len({q.path for q in points}) == len(points)


def test_theta_null_stays_none(tmp_path):
    doc = base_study()
    doc["fixed"]["theta"] = None
    s = load_study(write(tmp_path, doc))
    assert s.points()[0].params["theta"] is None


def test_point_from_path_roundtrip_and_hint(tmp_path):
    s = load_study(write(tmp_path, both_variants()))
    for p in s.points():
        assert point_from_path(s, p.path) == p
    with pytest.raises(StudyError, match="did you mean"):
        point_from_path(s, "variant~standard/algorithm~cubic/lambda~10")


def test_seed_batches():
    s = load_study(ROOT / "config/test/studies/mm1_lambda.yaml")
    assert s.seed_batches(10) == [(1, 10)]
    s.seeds_per_job = 4
    assert s.seed_batches(10) == [(1, 4), (5, 8), (9, 10)]


@given(n=st.integers(1, 300), per=st.integers(1, 50))
def test_seed_batches_cover_every_seed_once(n, per):
    s = load_study(ROOT / "config/test/studies/mm1_lambda.yaml")
    s.seeds_per_job = per
    batches = s.seed_batches(n)
    seeds = [x for a, b in batches for x in range(a, b + 1)]
    assert seeds == list(range(1, n + 1))
    assert all(b - a + 1 <= per for a, b in batches)


def test_format_value():
    assert [format_value(v) for v in (5, 5.0, 0.01, None, "reno")] == ["5", "5.0", "0.01", "null", "reno"]


@pytest.mark.parametrize("path", sorted((ROOT / "config").glob("**/studies/**/*.yaml")), ids=lambda p: str(p.relative_to(ROOT)))
def test_shipped_studies_are_valid(path):
    s = load_study(path)
    assert s.points()
    for p in s.points():
        if s.model in ("dumbbell", "ns2", "testbed", "network"):
            from simulator.scenarios import dumbbell, ns2_wired, open_network, wifi_testbed
            mod = {"dumbbell": dumbbell, "ns2": ns2_wired, "testbed": wifi_testbed, "network": open_network}[s.model]
            assert p.params["algorithm"] in mod.ALGORITHMS
            mod.params_with_defaults(p.params)
        else:
            assert p.params["algorithm"] in ALGORITHMS_OF[p.params["variant"]]
