"""The claim engine (simulator/report/claim_engine.py) on constructed tables: every part kind decided
by the one rule (significant, reversed, tied, deterministic, one seed), what is left out, what is
missing, scopes, and the checks of a decide block (simulator/report/claim_spec.py)."""
import math

import pandas as pd
import pytest

from simulator.report import claim_engine as E
from simulator.report import claim_spec

pytestmark = pytest.mark.usefixtures("toy_thresholds")   # the toy metric 'm': every difference counts

SCORING = {"toy": {"variants": [{"name": "v1", "where": {"variant": "v1"}, "aliases": {"old": "renamed"}}],
                   "sets": {"all": {"present": True}, "ab": ["a", "b"]}, "constants": {"bdp": 100.0}}}


def row(alg, metric, mean, sd=0.1, n=10, variant="v1", study="s", **params):
    return {"study": study, "paper": "toy", "variant": variant, "algorithm": alg, "metric": metric,
            "mean": mean, "sd": sd, "n": n, "ci_low": mean - sd, "ci_high": mean + sd,
            "run_p025": mean - 2 * sd, "run_p975": mean + 2 * sd, **params}


def decide(parts, rows, **decide_keys):
    claim = {"id": "toy-1", "paper": "toy", "decide": {"where": {"study": "s", "metric": "m"}, "parts": parts,
                                                        **decide_keys}}
    tables = pd.DataFrame(rows)
    scope = E.scopes(claim, SCORING, tables)[0]
    return E.decide(claim, tables, None, scope)


ORDER = [{"order": [{"algorithm": "a"}, ">", {"algorithm": "b"}]}]


@pytest.mark.parametrize("a, sd, verdict", [
    (2.0, 0.1, "reproduced"),        # far above, significant
    (0.5, 0.1, "contradicted"),      # significantly the other way
    (1.01, 0.5, "inconclusive"),     # right by mean, not significant
    (1.0, 0.1, "inconclusive"),      # tied
])
def test_order_decided_by_mean_and_significance(a, sd, verdict):
    d = decide(ORDER, [row("a", "m", a, sd), row("b", "m", 1.0, sd)])
    assert d.decision.verdict == verdict, d.note
    assert d.decision.p_value == pytest.approx(d.decision.comparisons[0].p_adj)


def test_deterministic_rows_are_compared_by_value_and_one_seed_cannot_be_tested():
    d = decide(ORDER, [row("a", "m", 1.1, 0.0), row("b", "m", 1.0, 0.0)])
    assert d.decision.verdict == "reproduced" and d.decision.p_value == 0 and "deterministic" in d.note
    d = decide(ORDER, [row("a", "m", 5.0, float("nan"), n=1), row("b", "m", 1.0, float("nan"), n=1)])
    assert d.decision.verdict == "inconclusive" and math.isnan(d.decision.p_value) and "one seed" in d.note


def test_extreme_over_a_set_and_variables_with_holm_across_the_claim():
    rows = [row(alg, "m", v, x=x) for x in (1, 2) for alg, v in (("a", 1.0), ("b", 2.0), ("c", 3.0))]
    part = {"extreme": {"target": "a", "among": "$all", "lowest": True}, "where": {"x": "$x"}, "for": {"x": [1, 2]}}
    d = decide([part], rows)
    assert d.decision.verdict == "reproduced" and len(d.decision.comparisons) == 4   # 2 others x 2 values
    assert "x=2 a m 1 < c 3" in d.note
    rows[4]["mean"] = 0.5     # b below a at x=2: significantly reversed
    assert decide([part], rows).decision.verdict == "contradicted"


def test_threshold_within_near_and_constants():
    rows = [row("a", "m", 95.0, 1.0)]
    assert decide([{"threshold": [{"algorithm": "a"}, ">", "0.9 * bdp"]}], rows).decision.verdict == "reproduced"
    assert decide([{"threshold": [{"algorithm": "a"}, "<", 90]}], rows).decision.verdict == "contradicted"
    assert decide([{"within": [{"algorithm": "a"}, 90, 100]}], rows).decision.verdict == "reproduced"
    assert decide([{"near": [{"algorithm": "a"}, "bdp", 0.03]}], rows).decision.verdict == "contradicted"
    assert decide([{"near": [{"algorithm": "a"}, "bdp", 0.1]}], rows).decision.verdict == "reproduced"


def test_scale_compares_with_a_multiple_of_the_other_side():
    rows = [row("a", "m", 1.0, 0.01), row("b", "m", 1.1, 0.01)]
    scaled = [{"order": [{"algorithm": "a"}, "<", {"algorithm": "b"}], "scale": 0.5}]
    assert decide(scaled, rows).decision.verdict == "contradicted"     # 1.0 is not below 0.55


def test_trend_from_the_first_to_the_last_value_and_steps_in_the_note():
    rows = [row("a", "m", v, x=x) for x, v in ((1, 1.0), (2, 3.0), (3, 2.0))]
    part = {"trend": {"cell": {"algorithm": "a"}, "param": "x", "rising": True, "steps": True}}
    d = decide([part], rows)
    assert d.decision.verdict == "reproduced" and "rises from x=1 to 3" in d.note
    assert "significantly the other way at 2 -> 3" in d.note        # noted, not scored
    part["trend"]["rising"] = False
    assert decide([part], rows).decision.verdict == "contradicted"


def test_nothing_to_compare_is_left_out_and_a_part_of_nothing_is_not_testable():
    part = {"order": [{"algorithm": "a"}, "<", {"algorithm": "b"}], "only_where_nonzero": True}
    d = decide([part], [row("a", "m", 0.0, 0.0), row("b", "m", 0.0, 0.0)])
    assert d.decision.verdict == "not_testable" and "Left out, 0 on both sides" in d.note
    reversed_elsewhere = [part, {"order": [{"algorithm": "a"}, ">", {"algorithm": "c"}]}]
    d = decide(reversed_elsewhere, [row("a", "m", 0.0, 0.0), row("b", "m", 0.0, 0.0), row("c", "m", 1.0, 0.0)])
    assert d.decision.verdict == "contradicted"                     # one part reversed: false whatever the rest


def test_missing_cells_make_the_claim_not_testable_and_ambiguous_cells_are_an_error():
    d = decide(ORDER, [row("a", "m", 1.0)])
    assert d.decision.verdict == "not_testable" and "missing results" in d.note and "b m" in d.note
    with pytest.raises(ValueError, match="2 table rows match"):
        decide(ORDER, [row("a", "m", 1.0, x=1), row("a", "m", 1.0, x=2), row("b", "m", 1.0, x=1)])


def test_aliases_name_what_ran_and_not_testable_reason_keeps_the_comparisons():
    d = decide([{"order": [{"algorithm": "old"}, ">", {"algorithm": "b"}]}],
               [row("renamed", "m", 2.0), row("b", "m", 1.0)], not_testable="true by construction")
    assert d.decision.verdict == "not_testable" and "true by construction" in d.note
    assert "renamed m 2 > b 1" in d.note


def test_per_decides_at_each_value_of_a_parameter_the_paper_left_open():
    claim = {"id": "toy-1", "paper": "toy", "decide": {"where": {"study": "s", "metric": "m"}, "parts": ORDER,
                                                        "per": {"param": "k", "study": "s", "above": 1,
                                                                "name": "{variant}, k={value}"}}}
    tables = pd.DataFrame([row(a, "m", v, k=k) for k in (1, 2, 3) for a, v in (("a", 2.0 if k != 3 else 0.5),
                                                                              ("b", 1.0))])
    got = {s.name: E.decide(claim, tables, None, s).decision.verdict for s in E.scopes(claim, SCORING, tables)}
    assert got == {"v1, k=2": "reproduced", "v1, k=3": "contradicted"}


# --------------------------------------------------------------------------- checks of a decide block

MODELS = {"mm1_lambda": "mm1"}


def spec_claim(decide_block):
    return {"id": "mm1-1", "paper": "mm1", "studies": ["mm1_lambda"], "decide": decide_block}


@pytest.mark.parametrize("block, message", [
    ({"where": {"study": "mm1_lambda", "metric": "throughput"}, "parts": [{"between": 1}]}, "unknown key(s) between"),
    ({"where": {"study": "mm1_lambda", "metric": "throughput"},
      "parts": [{"order": [{"algorithm": "none"}, ">=", {"algorithm": "tahoe"}]}]}, "operator: '>=' is not allowed"),
    ({"where": {"study": "mm1_K", "metric": "throughput"},
      "parts": [{"threshold": [{"algorithm": "none"}, ">", 1]}]}, "study: 'mm1_K' is not allowed; allowed values: mm1_lambda"),
    ({"where": {"study": "mm1_lambda", "metric": "goodput"},
      "parts": [{"threshold": [{"algorithm": "none"}, ">", 1]}]}, "metric: 'goodput' is not reported by model mm1"),
    ({"where": {"study": "mm1_lambda", "metric": "throughput"},
      "parts": [{"threshold": [{"algorithm": "westwood"}, ">", 1]}]}, "algorithm: 'westwood' is not allowed"),
    ({"where": {"study": "mm1_lambda"}, "parts": [{"threshold": [{"statistic": "nope"}, ">", 1]}]},
     "statistic: 'nope' is not allowed"),
    ({"where": {"study": "mm1_lambda"}, "parts": [], "context": ["nope"]}, "context: 'nope' is not allowed"),
    ({"where": {"study": "mm1_lambda"}, "decided": 1}, "unknown key(s) decided"),
])
def test_a_wrong_decide_block_names_the_claim_key_and_allowed_values(block, message):
    with pytest.raises(claim_spec.ClaimSpecError, match="claim mm1-1") as e:
        claim_spec.check(spec_claim(block), {"mm1": {}}, MODELS)
    assert message in str(e.value)


def test_every_tracked_claim_block_passes_the_checks():
    from pathlib import Path

    from simulator.workflow_config import known_studies
    root = Path(__file__).resolve().parents[1]
    doc = E.load()
    models = known_studies(root, root / "config/studies")
    checked = [c for c in doc["claims"] if "decide" in c]
    for c in checked:
        claim_spec.check(c, doc["scoring"], models)
    assert checked


# --------------------------------------------------------------------------- reasons beside a verdict

def test_why_gives_the_matching_reason_and_never_stays_silent():
    from simulator.report import claim_reasons as R
    reasons = {"toy-1": [{"variants": ["window20"], "verdicts": ["contradicted"], "kind": "sensitivity",
                          "reason": "Window 20 caps the flows.", "sensitivity": "s2"}]}
    assert R.why(reasons, "toy-1", "window20, 3 flows", "contradicted", "", 10) == \
        "Window 20 caps the flows. (sensitivity study config/studies/s2.yaml)"
    assert R.why(reasons, "toy-1", "window20, 3 flows", "reproduced", "", 10) == ""
    assert R.why(reasons, "toy-1", "nocap", "not_testable", "missing results: x", 10) == "missing results: x"
    assert "Only 2 seeds" in R.why(reasons, "toy-1", "nocap", "inconclusive", "", 2)
    assert "No explanation" in R.why(reasons, "toy-1", "nocap", "contradicted", "", 10)


def test_reasons_file_with_an_unknown_claim_kind_or_study_is_rejected(tmp_path):
    from simulator.report import claim_reasons as R
    f = tmp_path / R.FILE
    for body, message in (("reasons: {toy-9: [{reason: x, kind: sensitivity}]}", "no such claim"),
                          ("reasons: {toy-1: [{reason: x, kind: guess}]}", "kind: 'guess'"),
                          ("reasons: {toy-1: [{reason: x, kind: sensitivity, sensitivity: nope}]}", "'nope' is not a study"),
                          ("reasons: {toy-1: [{kind: sensitivity}]}", "reason required")):
        f.write_text(body)
        with pytest.raises(ValueError, match=message):
            R.check(f, {"toy-1"}, {"s": "mm1"})


def test_a_note_prints_a_share_in_the_percent_declared_for_its_metric(tmp_path):
    # utilization is held as a share of 1 and declared `shown: "%"`: the note reads 95.81% > 94.5%,
    # not 0.9581 > 0.945, as every table and figure of the book prints it
    from simulator.report import claim_rule
    path = tmp_path / "shown.yaml"
    path.write_text('m: {unit: share, shown: "%", resolution: 0, practical: {abs: 0}, why: toy}\n')
    claim_rule.use_thresholds(path)
    rows = [row("a", "m", 0.9581, 0.001), row("b", "m", 0.9, 0.001, x=1), row("b", "m", 0.95, 0.001, x=2)]
    d = decide([{"threshold": [{"algorithm": "a"}, ">", 0.945]}], rows[:1])
    assert "a m 95.81% > 94.5%: holds" in d.note
    d = decide([{"within": [{"algorithm": "a"}, 0.9, 0.95]}], rows[:1])
    assert "a m 95.81% < 95%: reversed" in d.note
    d = decide([{"trend": {"cell": {"algorithm": "b"}, "param": "x", "rising": True}}], rows[1:])
    assert "(90% -> 95%; series 1: 90%, 2: 95%)" in d.note
