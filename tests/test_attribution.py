"""Who is at fault for a claim row not reproduced (simulator/report/attribution.py), the reasons file's fault
and evidence keys (claim_reasons.check), and how the chapters and the first page show them."""
import re
from pathlib import Path

import pandas as pd
import pytest

from simulator import claims_files
from simulator.report.papers.ns2 import own_tool
from simulator.report import attribution as A
from simulator.report import claim_reasons as R
from simulator.report import claims_view, headline

ROOT = Path(__file__).resolve().parents[1]
CODE_WORDS = ("paper_text", "paper_code", "open_parameter", "our_simulator", "our_seeds", "not_found")


# --------------------------------------------------------------------------- the reasons file

@pytest.mark.parametrize("entry, message", [
    ("{reason: x, kind: model_difference, evidence: e}", r"toy-1\[0\]: fault: None; allowed values: paper_text, "),
    ("{reason: x, kind: sensitivity, fault: theirs, sensitivity: s}", r"fault: 'theirs'; allowed values: paper_text"),
    ("{reason: x, kind: unexplained, evidence: e}", r"toy-1\[0\]: fault not_found needs ruled_out"),
    ("{reason: x, kind: paper_ambiguity}", r"toy-1\[0\]: evidence: missing"),
    ("{reason: x, kind: unexplained, ruled_out: checked}", r"ruled_out: 'checked'; allowed values: a list"),
])
def test_reasons_file_refuses_an_entry_without_a_known_fault_or_evidence(tmp_path, entry, message):
    f = tmp_path / R.FILE
    f.write_text(f"reasons: {{toy-1: [{entry}]}}")
    with pytest.raises(ValueError, match=message) as e:
        R.check(f, {"toy-1"}, {"s": "mm1"})
    assert str(f) in str(e.value)


def test_a_kind_implies_its_fault_and_a_declared_fault_overrides_it(tmp_path):
    f = tmp_path / R.FILE
    f.write_text("reasons: {toy-1: [{reason: x, kind: sensitivity, sensitivity: s},"
                 " {reason: y, kind: unexplained, ruled_out: [the seed]},"
                 " {reason: z, kind: model_difference, fault: paper_code, evidence: the code replayed}]}")
    R.check(f, {"toy-1"}, {"s": "mm1"})
    entries = R.load(tmp_path)["toy-1"]
    assert [A.entry_fault(e) for e in entries] == ["open_parameter", "not_found", "paper_code"]
    assert [A.entry_evidence(e) for e in entries] == ["Sensitivity study s.", "Ruled out: the seed.", "the code replayed."]


def test_every_tracked_reason_names_a_fault_and_its_evidence():
    ids = {c["id"] for c in claims_files.read(ROOT / "reference/claims.yaml")["claims"]}
    studies = {p.stem for p in (ROOT / "config/studies").rglob("*.yaml")}
    R.check(ROOT / "reference" / R.FILE, ids, studies)
    entries = [e for es in R.load(ROOT / "reference").values() for e in es]
    assert entries and all(A.entry_fault(e) in A.FAULTS and A.entry_evidence(e) for e in entries)


# --------------------------------------------------------------------------- NS-2's own verdict decides

@pytest.mark.parametrize("ns2, ours, fault", [
    ("reproduced", "contradicted", "our_simulator"), ("reproduced", "inconclusive", "our_simulator"),
    ("contradicted", "contradicted", "paper_text"), ("inconclusive", "contradicted", "paper_text"),
    ("contradicted", "inconclusive", "paper_text"), ("not_testable", "contradicted", None),
    (None, "contradicted", None), ("contradicted", "reproduced", None)])
def test_ns2_verdict_on_the_same_row_decides_the_fault(ns2, ours, fault):
    assert A.ns2_fault(ns2, ours) == fault


def test_ns2_rows_take_ns2s_verdict_over_the_entry_and_other_papers_the_entry():
    entry = {"kind": "sensitivity", "sensitivity": "ns2_queue", "reason": "x"}
    ns2 = {("ns2-6", "nocap, 2 flows"): "contradicted", ("ns2-1", "nocap, 2 flows"): "reproduced",
           ("ns2-2", "window20, 3 flows"): "not_testable"}
    fault, evidence = A.row_fault("ns2", "ns2-6", "nocap, 2 flows", "contradicted", entry, ns2)
    assert fault == "paper_text" and evidence.startswith("NS-2 2.35, the paper's own simulator, contradicts it")
    assert "Sensitivity study ns2_queue" in evidence
    fault, evidence = A.row_fault("ns2", "ns2-1", "nocap, 2 flows", "inconclusive", None, ns2)
    assert fault == "our_simulator" and "reproduces it" in evidence and "ours: inconclusive" in evidence
    fault, evidence = A.row_fault("ns2", "ns2-2", "window20, 3 flows", "contradicted", entry, ns2)
    assert fault == "open_parameter" and "cannot test it" in evidence       # NS-2 cannot decide: the entry stands
    assert A.row_fault("mininet", "ns2-6", "nocap, 2 flows", "contradicted", entry, ns2)[0] == "open_parameter"
    assert A.row_fault("ns2", "ns2-6", "nocap, 2 flows", "reproduced", entry, ns2) == ("", "")
    assert A.row_fault("mm1", "mm1-1", "standard", "inconclusive", None, {}, n_seeds=3) == (
        "our_seeds", "Only 3 seeds in this run profile.")
    assert A.row_fault("mm1", "mm1-1", "standard", "contradicted", None, {}, n_seeds=10)[0] == "not_found"


def test_ns2_verdicts_come_from_ns2s_committed_records_and_only_for_the_studies_it_ran():
    verdicts = own_tool.verdicts(ROOT / "reference")
    assert set(verdicts.values()) <= {"reproduced", "contradicted", "inconclusive", "not_testable"}
    assert {cid for cid, _ in verdicts} == {f"ns2-{i}" for i in range(1, 8)}
    # a window of 3-4 packets cannot carry 0.35 Mbit/s in NS-2 either
    assert all(verdicts[("ns2-3", f"{cap}, {n} flows")] == "contradicted" for cap in ("window20", "nocap")
               for n in (2, 3, 4, 5))
    assert own_tool.verdicts(ROOT / "reference", ROOT / "config/test/studies") == {}   # a tiny study: NS-2 ran another


def test_scorecard_gets_a_fault_and_evidence_for_every_row_not_reproduced():
    card = pd.DataFrame([
        {"paper": "ns2", "item": "ns2-3", "variant": "nocap, 2 flows", "verdict": "contradicted", "n_seeds": 10},
        {"paper": "ns2", "item": "ns2-3", "variant": "nocap, 3 flows", "verdict": "reproduced", "n_seeds": 10},
        {"paper": "mm1", "item": "mm1-4", "variant": "standard", "verdict": "contradicted", "n_seeds": 10}])
    entries = {"mm1-4": {"kind": "model_difference", "fault": "paper_code", "evidence": "the code replayed",
                         "reason": "x"}}
    out = A.attribute(card, lambda paper, cid, variant, verdict: entries.get(cid), {("ns2-3", "nocap, 2 flows"): "contradicted"})
    assert list(out["fault"]) == ["paper_text", "", "paper_code"]
    assert out["evidence"][0].startswith("NS-2 2.35") and out["evidence"][2] == "the code replayed."


# --------------------------------------------------------------------------- what a reader sees

def rows_with_faults():
    return pd.DataFrame([
        {"paper": "ns2", "item": "ns2-1", "variant": "nocap, 2 flows", "verdict": "contradicted", "n_seeds": 10,
         "fault": "our_simulator", "evidence": "NS-2 2.35 reproduces it"},
        {"paper": "ns2", "item": "ns2-3", "variant": "nocap, 2 flows", "verdict": "contradicted", "n_seeds": 10,
         "fault": "paper_text", "evidence": "NS-2 2.35 contradicts it"},
        {"paper": "ns2", "item": "ns2-4", "variant": "nocap, 2 flows", "verdict": "reproduced", "n_seeds": 10,
         "fault": "", "evidence": ""},
        {"paper": "testbed", "item": "tb-3", "variant": "sim", "verdict": "contradicted", "n_seeds": 10,
         "fault": "not_found", "evidence": "ruled out: the queue."}]).assign(metric="")


def test_first_page_counts_the_papers_faults_and_ours_and_names_ours():
    text = headline.fault_summary(rows_with_faults())
    assert text.startswith("Of the 3 claim rows that did not reproduce, **1 lie with the papers** (the paper's text: 1;")
    assert "**1 with us** (our simulator: 1; our runs (too few seeds): 0)" in text
    assert "for 1 we have not found who is at fault" in text
    assert "Our simulator's, not yet fixed: ns2-1 (nocap, 2 flows); the chapter's claim table gives the evidence." in text
    assert headline.fault_summary(rows_with_faults(), papers=["testbed"]).startswith("Of the 1 claim rows")
    counts = headline.paper_counts(rows_with_faults())
    assert counts.set_index("paper").loc["ns2", "at_fault"] == "our simulator 1, the paper's text 1"
    page = headline.headline_html(counts.assign(main_reason="Because."))
    assert "<b>At fault:</b> our simulator 1, the paper&#x27;s text 1." in page
    assert not any(re.search(rf"\b{w}\b", text + page) for w in CODE_WORDS)


def test_claim_table_shows_the_fault_in_a_readers_words(tmp_path):
    claims = tmp_path / "claims.yaml"
    claims.write_text("claims:\n  - {id: ns2-1, paper: ns2, claim: Vegas steadiest., stated_in: Fig. 2}\n"
                      "  - {id: ns2-3, paper: ns2, claim: Small windows., stated_in: Fig. 4}\n"
                      "  - {id: ns2-4, paper: ns2, claim: Grows., stated_in: Fig. 5}\n")
    notes = rows_with_faults()[["item", "variant", "verdict"]].assign(note="n", why="w")
    rows = claims_view.chapter_claims(rows_with_faults(), notes, claims, "ns2")
    assert list(rows["at fault"]) == ["our simulator", "the paper's text", ""]
    page = claims_view.claims_html(rows)
    assert "<th>at fault, and the evidence</th>" in page and "<b>our simulator</b><br><small>NS-2 2.35 reproduces it" in page
    assert not any(re.search(rf"\b{w}\b", page) for w in CODE_WORDS)


def test_scorecard_takes_the_ns2_rows_fault_from_ns2s_records_only_for_the_studies_they_ran():
    from simulator.report import scorecard
    card = pd.DataFrame([
        {"paper": "ns2", "item": "ns2-6", "variant": "nocap, 2 flows", "verdict": "contradicted", "n_seeds": 10},
        {"paper": "mm1", "item": "mm1-4", "variant": "standard", "verdict": "contradicted", "n_seeds": 100}])
    claims = ROOT / "reference/claims.yaml"
    full = scorecard.with_faults(card, claims, ROOT / "reference")
    assert list(full["fault"]) == ["paper_text", "paper_code"]
    assert full["evidence"][0].startswith("NS-2 2.35, the paper's own simulator, contradicts it on the same grid points")
    tiny = scorecard.with_faults(card, claims, ROOT / "reference", ROOT / "config/test/studies")
    assert tiny["fault"][0] == "paper_text" and tiny["evidence"][0].startswith("NS-2 2.35's own fair queueing")
    assert list(scorecard.with_faults(card)["fault"]) == ["not_found", "not_found"]     # no reasons file, no records


def test_where_ns2_cannot_test_a_claim_its_comparisons_still_decide_what_reverses_ours():
    from simulator.report.claim_rule import Comparison
    note = ("0 of 3 comparisons hold significantly; significantly reversed: (a) queue=fq vegas latency_mean_s 0.4328 "
            "< queue=droptail 0.4158 (p = 0.0015), (b) topology=mesh vegas loss_pct 1.5e-14 < reno 0 (deterministic); "
            "deterministic runs compared by value. Decided at 5 flows.")
    assert A.reversed_keys(note) == ["(a) queue=fq vegas latency_mean_s < queue=droptail",
                                     "(b) topology=mesh vegas loss_pct < reno"]
    assert A.reversed_keys("3 of 3 comparisons hold significantly.") == []
    held = Comparison("(a) queue=fq vegas latency_mean_s 0.4125 < queue=droptail 0.4457", 0.03, 1e-4, "welch", 2e-4)
    weak = Comparison("(b) topology=mesh vegas loss_pct 0 < reno 0", 0.0, 1.0, "deterministic", 1.0)
    theirs = A.Ns2Row("not_testable", {A.comparison_key(c.label): c for c in (held, weak)})
    one = note.replace(", (b) topology=mesh vegas loss_pct 1.5e-14 < reno 0 (deterministic)", "")
    fault, evidence = A.row_fault("ns2", "ns2-6", "window20, 5 flows", "contradicted", None,
                                  {("ns2-6", "window20, 5 flows"): theirs}, note=one)
    assert fault == "our_simulator" and "cannot test it" in evidence
    assert "Yet in its runs what reverses ours holds: (a) queue=fq vegas latency_mean_s 0.4125 < " in evidence
    # one reversed comparison NS-2 does not hold: NS-2 decides nothing, the entry's fault stands
    entry = {"kind": "sensitivity", "sensitivity": "ns2_queue", "reason": "x"}
    assert A.row_fault("ns2", "ns2-6", "window20, 5 flows", "contradicted", entry,
                       {("ns2-6", "window20, 5 flows"): theirs}, note=note)[0] == "open_parameter"


def test_ns2s_own_vegas_decides_that_ns2_6_with_the_window_cap_and_5_flows_is_ours():
    theirs = own_tool.decisions(ROOT / "reference")[("ns2-6", "window20, 5 flows")]
    assert theirs.verdict == "not_testable"
    vegas = theirs.tested["(a) queue=fq vegas latency_mean_s < queue=droptail"]
    assert vegas.holds                  # NS-2's Vegas is faster under FQ there; ours (0.433 vs 0.416 s) is not
