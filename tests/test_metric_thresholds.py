"""The declared resolution and practical threshold per metric (reference/metric_thresholds.yaml,
simulator/report/metric_thresholds.py): every metric a claim reads has one, with its reason, and a
claims file reading a metric without one is refused before any job, naming the file and the metric."""
import shutil
from pathlib import Path

import pytest

from simulator import reference
from simulator.report import claim_engine, metric_thresholds as mt

ROOT = Path(__file__).resolve().parents[1]


def test_every_metric_a_claim_reads_has_a_declared_threshold_and_reason():
    thresholds = mt.load(mt.REPOSITORY)
    claims = claim_engine.load(ROOT / "reference" / "claims.yaml")["claims"]
    mt.check(claims, thresholds, mt.REPOSITORY)
    assert thresholds["utilization"].practical(0.95, 0.94) == pytest.approx(0.01)
    assert thresholds["throughput_mbps"].practical(100, 50) == pytest.approx(1.0)
    text = mt.REPOSITORY.read_text()
    assert "declared before looking at the verdicts" in text
    assert all(line.count("why:") == 1 for line in text.splitlines() if line and not line.startswith("#"))


def test_a_claim_reading_a_metric_without_an_entry_is_refused_naming_file_and_metric():
    claims = [{"id": "toy-1", "metrics": ["jain"], "decide": {"parts": [
        {"threshold": [{"statistic": "window_ratio"}, ">", 1]}]}}]
    with pytest.raises(mt.ThresholdError, match=r"x.yaml: no entry for metric 'window_ratio' \(read by claim toy-1\)"):
        mt.check(claims, {"jain": mt.Threshold()}, "x.yaml")


@pytest.mark.parametrize("entry, message", [
    ("{unit: x, resolution: 0, practical: {abs: 0.1}}", "expected the keys practical, resolution, unit, why"),
    ("{unit: x, shown: percent, resolution: 0, practical: {abs: 0.1}, why: y}", "shown: expected one of %; got 'percent'"),
    ("{unit: x, resolution: -1, practical: {abs: 0.1}, why: y}", "resolution: expected a number >= 0, got -1"),
    ("{unit: x, resolution: 0, practical: {pct: 1}, why: y}", "practical: expected a mapping with abs and/or rel"),
    ("{unit: x, resolution: 1, practical: {abs: 0.1}, why: y}", "practical.abs 0.1 is below the resolution 1"),
])
def test_a_malformed_entry_is_refused_naming_file_metric_and_key(tmp_path, entry, message):
    path = tmp_path / "metric_thresholds.yaml"
    path.write_text(f"jain: {entry}\n")
    with pytest.raises(mt.ThresholdError, match=rf"{path}: jain: .*"):
        mt.load(path)
    with pytest.raises(mt.ThresholdError) as e:
        mt.load(path)
    assert message in str(e.value)


def test_the_reference_check_refuses_a_reference_folder_whose_thresholds_lack_a_claims_metric(tmp_path):
    ref = tmp_path / "reference"
    shutil.copytree(ROOT / "reference", ref)
    path = ref / "metric_thresholds.yaml"
    path.write_text("\n".join(line for line in path.read_text().splitlines() if not line.startswith("jain:")) + "\n")
    papers = reference.check_papers()
    studies = sorted(p.stem for p in (ROOT / "config" / "studies").rglob("*.yaml"))
    with pytest.raises(reference.ReferenceDataError, match=r"metric_thresholds.yaml: no entry for metric 'jain' \(read by claim qt-5\)"):
        reference.check_claims(ref / "qtcol" / "claims.yaml", papers, studies, thresholds_beside=ref / "claims.yaml")


def _verdict(parts, rows):
    """A toy claim on the metric utilization, decided by the engine with the repository's thresholds."""
    import pandas as pd

    claim = {"id": "toy-1", "paper": "toy", "decide": {"where": {"study": "s", "metric": "utilization"}, "parts": parts}}
    tables = pd.DataFrame([{"study": "s", "paper": "toy", "algorithm": a, "metric": "utilization", "mean": m,
                            "sd": sd, "n": 10, "ci_low": m - sd, "ci_high": m + sd, "x": x} for a, m, sd, x in rows])
    scope = claim_engine.scopes(claim, {"toy": {"variants": [{"name": "v"}]}}, tables)[0]
    return claim_engine.decide(claim, tables, None, scope)


def test_the_engine_decides_a_constructed_table_with_the_metrics_practical_threshold():
    # every kind the claims use, with differences of utilization under 1 point: never contradicted
    assert claim_engine.rule.RULE.endswith("practical threshold per metric")
    below_by_half_a_point = [("bbr", 0.9545, 0.0005, 1)]
    d = _verdict([{"threshold": [{"algorithm": "bbr"}, "<", 0.95]}], below_by_half_a_point)
    assert d.decision.verdict == "inconclusive" and "negligible" in d.note
    falls_by_a_third_of_a_point = [("cubic", 0.963, 0.0, 2), ("cubic", 0.966, 0.0, 10)]
    d = _verdict([{"trend": {"cell": {"algorithm": "cubic"}, "param": "x", "rising": False}}], falls_by_a_third_of_a_point)
    assert d.decision.verdict == "inconclusive" and "negligible" in d.note
    d = _verdict([{"order": [{"algorithm": "a"}, ">", {"algorithm": "b"}]}], [("a", 0.90, 0.0, 1), ("b", 0.95, 0.0, 1)])
    assert d.decision.verdict == "contradicted"         # 5 points: the difference matters
    d = _verdict([{"order": [{"algorithm": "a"}, ">", {"algorithm": "b"}]}], [("a", 0.97, 0.0, 1), ("b", 0.95, 0.0, 1)])
    assert d.decision.verdict == "reproduced"


def test_utilization_and_plr_are_shown_in_percent_and_other_metrics_in_their_tables_unit():
    declared = mt.load(ROOT / "reference" / "metric_thresholds.yaml")
    assert {m for m, t in declared.items() if t.scale != 1} == {"utilization", "plr"}
    assert declared["utilization"].scale == 100 and declared["utilization"].shown == "%"
