"""Who is at fault for a published number outside our per-run range (simulator/report/number_reasons.py and
attribution.row_fault): the entries of reference/<paper>/number_reasons.yaml, checked before any job."""
import pytest

from simulator.report import attribution as A
from simulator.report import number_reasons as N

ENTRY = {"match": "^Table VII ", "variants": ["standard"], "kind": "model_difference", "fault": "paper_code",
         "evidence": "the paper's model puts it inside", "reason": "its code's model"}


def test_an_entry_covers_the_items_its_expression_finds_in_its_variants():
    numbers = {"mm1": [ENTRY, {**ENTRY, "match": ".", "variants": None, "fault": "paper_text"}]}
    assert N.entry(numbers, "mm1", "Table VII lambda=5 reno", "standard") is ENTRY
    assert N.entry(numbers, "mm1", "Table VII lambda=5 reno", "as_published")["fault"] == "paper_text"
    assert N.entry(numbers, "qtcol", "Table VII lambda=5 reno", "standard") is None      # another paper's rows


def test_an_outside_number_gets_its_entry_s_fault_or_not_found():
    assert A.row_fault("mm1", "Table VII x", "standard", "outside", ENTRY, {}) == (
        "paper_code", "the paper's model puts it inside.")
    assert A.row_fault("mm1", "Table VII x", "standard", "outside", None, {}) == (
        "not_found", "No reason worked out for this number yet.")
    assert A.row_fault("mm1", "Table VII x", "standard", "inside", ENTRY, {}) == ("", "")


@pytest.mark.parametrize("text, message", [
    ("numbers:\n  - {match: x, kind: sensitivity, reason: r, colour: red}\n", "numbers[0]: keys colour, kind, match, reason; allowed keys"),
    ("numbers:\n  - {kind: sensitivity, reason: r}\n", "match and reason required"),
    ("numbers:\n  - {match: '(', kind: sensitivity, reason: r, evidence: e}\n", "match: '(' is not a regular expression"),
    ("numbers:\n  - {match: x, kind: guess, reason: r}\n", "kind: 'guess'; allowed values: model_difference"),
    ("numbers:\n  - {match: x, kind: unexplained, reason: r}\n", "fault not_found needs ruled_out"),
    ("numbers:\n  - {match: x, kind: sensitivity, sensitivity: nope, reason: r}\n", "sensitivity: 'nope' is not a study"),
    ("reasons: {}\n", "keys reasons; allowed keys: numbers"),
])
def test_a_malformed_entry_is_refused_naming_the_file_entry_and_key(tmp_path, text, message):
    path = tmp_path / "number_reasons.yaml"
    path.write_text(text)
    with pytest.raises(ValueError) as e:
        N.check(path, {"tb_wifi_sensitivity"})
    assert str(path) in str(e.value) and message in str(e.value)
