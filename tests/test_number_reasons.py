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


def _card(*rows):
    """A scorecard of (paper, item, variant, verdict) rows, as the number rows of results/scorecard.csv."""
    import pandas as pd

    return pd.DataFrame(rows, columns=["paper", "item", "variant", "verdict"]).assign(n_seeds=10, note="")


def test_an_entry_that_covers_no_published_number_is_refused_naming_file_entry_and_match(tmp_path):
    card = _card(("mm1", "Table VII lambda=5 reno", "standard", "outside"),
                 ("mm1", "Table VII lambda=5 none", "as_published", "inside"))
    N.check_rows(tmp_path, {"mm1": [ENTRY]}, card)                       # covers the first row: fine
    typo = {**ENTRY, "match": "^Table VIII "}
    with pytest.raises(ValueError) as e:
        N.check_rows(tmp_path, {"mm1": [ENTRY, typo]}, card)
    assert str(e.value).startswith(f"{tmp_path / 'mm1' / 'number_reasons.yaml'}: numbers[1]: match: '^Table VIII '")
    assert "covers no published number of mm1; its numbers are e.g. 'Table VII lambda=5 none'" in str(e.value)
    wrong_variant = {**ENTRY, "variants": ["standrad"]}
    with pytest.raises(ValueError, match=r"numbers\[0\].*variants: \['standrad'\].*its variants: as_published, standard"):
        N.check_rows(tmp_path, {"mm1": [wrong_variant]}, card)
    N.check_rows(tmp_path, {"qtcol": [typo]}, card)                      # a paper not in this build: not checked


def test_an_outside_number_no_entry_covers_is_listed_and_shown_as_not_found():
    card = _card(("mm1", "Table VII lambda=5 reno", "standard", "outside"),
                 ("mm1", "Table VI lambda=5 reno", "standard", "outside"),
                 ("mm1", "Table VI lambda=9 reno", "standard", "inside"))
    assert N.uncovered({"mm1": [ENTRY]}, card) == [("mm1", "Table VI lambda=5 reno", "standard")]


def test_the_scorecard_stops_on_an_entry_that_covers_no_row(tmp_path):
    from simulator.report import scorecard

    (tmp_path / "mm1").mkdir()
    (tmp_path / "mm1" / "number_reasons.yaml").write_text(
        "numbers:\n  - {match: '^Table XX ', kind: paper_ambiguity, evidence: e, reason: r}\n")
    (tmp_path / "claims.yaml").write_text("claims: []\n")
    card = _card(("mm1", "Table VII lambda=5 reno", "standard", "outside"))
    with pytest.raises(SystemExit, match=r"scorecard: .*mm1/number_reasons.yaml: numbers\[0\]: match: '\^Table XX '"):
        scorecard.with_faults(card, tmp_path / "claims.yaml")

