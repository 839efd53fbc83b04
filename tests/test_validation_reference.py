"""ns-3's committed records (reference/ns3/records.jsonl) as reference data: every seal and every cell checked,
a damaged file refused naming file and line, our side shared out over jobs, and ns-3 itself (when the optional
ns3 extra is installed) remaking a committed record exactly."""
import importlib.util
import json
import shutil
from pathlib import Path

import pytest

from simulator import peer_records
from simulator.reference import ReferenceDataError
from simulator.validation import ns3_reference, ours_runs

ROOT = Path(__file__).resolve().parents[1]
STUDY = ROOT / "config/studies/validation_ns3.yaml"
TINY = ROOT / "config/test/studies/validation_ns3.yaml"
RECORDS = ROOT / "reference" / ns3_reference.RECORDS


def copy_reference(tmp_path) -> Path:
    (tmp_path / "ns3").mkdir(parents=True)
    shutil.copy(RECORDS, tmp_path / "ns3" / "records.jsonl")
    return tmp_path


def test_the_committed_records_hold_every_cell_and_seed_of_the_study_unedited():
    records = ns3_reference.check(ROOT / "reference", STUDY)
    assert len(records) == len(ns3_reference.needed(STUDY)) == 236
    assert {r["side"] for r in records} == {"ns3"}
    assert all(0 < r["metrics"]["utilization_warm"] < 1.1 for r in records)


def test_a_truncated_file_is_refused_naming_the_last_line(tmp_path):
    ref = copy_reference(tmp_path)
    f = ref / "ns3" / "records.jsonl"
    text = f.read_text()
    f.write_text(text[: len(text) // 2])
    n = text[: len(text) // 2].count("\n") + 1
    with pytest.raises(ReferenceDataError, match=rf"records.jsonl: line {n}: .*truncated"):
        ns3_reference.check(ref, TINY)


def test_an_edited_number_is_refused_naming_its_line(tmp_path):
    ref = copy_reference(tmp_path)
    f = ref / "ns3" / "records.jsonl"
    lines = f.read_text().splitlines()
    rec = json.loads(lines[2])
    rec["metrics"]["utilization_warm"] *= 1.01
    lines[2] = json.dumps(rec, sort_keys=True, separators=(",", ":"))
    f.write_text("\n".join(lines) + "\n")
    with pytest.raises(ReferenceDataError, match=r"records.jsonl: line 3: the record does not match its sha256"):
        ns3_reference.check(ref, TINY)


def test_a_missing_record_and_a_changed_cell_are_refused_naming_cell_and_seed(tmp_path):
    ref = copy_reference(tmp_path)
    f = ref / "ns3" / "records.jsonl"
    keep = [line for line in f.read_text().splitlines()
            if '"cell":"algorithm~bbr/bottleneck_mbps~10/buffer_pkts~9/flows~5/duration~20"' not in line or '"seed":2' not in line]
    f.write_text("\n".join(keep) + "\n")
    with pytest.raises(ReferenceDataError, match=r"no record of cell algorithm~bbr/bottleneck_mbps~10/buffer_pkts~9/"
                                                 r"flows~5/duration~20 seed 2.*snakemake --cores all validation"):
        ns3_reference.check(ref, TINY)
    study = tmp_path / "validation_ns3.yaml"          # a parameter outside the cell's path
    study.write_text(TINY.read_text().replace("warmup: 5", "warmup: 4"))
    assert study.read_text() != TINY.read_text()
    with pytest.raises(ReferenceDataError, match=r"line \d+: cell .* was run with parameters .* now gives"):
        ns3_reference.check(copy_reference(tmp_path / "again"), study)


def test_changes_lists_what_a_regeneration_moved():
    a = [{"cell": "x", "seed": 1, "metrics": {"u": 0.5, "r": float("nan")}}, {"cell": "y", "seed": 1, "metrics": {}}]
    b = [{"cell": "x", "seed": 1, "metrics": {"u": 0.6, "r": float("nan")}}, {"cell": "z", "seed": 1, "metrics": {}}]
    assert peer_records.changes(a, b, ns3_reference.key) == [
        "('x', 1): changed (u)", "('y', 1): committed, not regenerated", "('z', 1): new (not committed)"]
    assert peer_records.changes(a, a, ns3_reference.key) == []


def test_our_side_is_shared_out_with_every_cell_and_seed_once():
    parts = [ours_runs.part(TINY, k, 2) for k in (1, 2)]
    got = sorted((r["cell"], r["seed"]) for p in parts for r in p)
    assert got == sorted((c, s) for c, s, _ in ns3_reference.needed(TINY))
    assert {r["side"] for p in parts for r in p} == {"ours"}


def test_ns3_remakes_a_committed_record_exactly(tmp_path):
    if importlib.util.find_spec("ns") is None:
        pytest.skip("ns-3's Python bindings are not installed (the optional ns3 extra: pip install -e \".[ns3]\")")
    from simulator.validation import ns3_batch

    cell = "algorithm~newreno/bottleneck_mbps~10/buffer_pkts~9/flows~1/duration~20"
    assert ns3_batch.run_all(str(STUDY), [(cell, 1)], tmp_path, progress=open("/dev/null", "w")) == 0
    made = json.loads(ns3_batch.record_path(tmp_path, cell, 1).read_text())
    committed = next(r for r in peer_records.read(RECORDS) if ns3_reference.key(r) == (cell, 1))
    assert peer_records.canonical(made) == peer_records.canonical(committed)


def test_an_unfinished_record_stands_for_its_run_and_carries_no_metrics(tmp_path):
    from simulator.validation import agreement

    cell = "algorithm~bbr/bottleneck_mbps~10/buffer_pkts~9/flows~5/duration~20"
    rec = ns3_reference.unfinished_record(TINY, cell, 2, "stopped at 5.7 s of 20 s after 9 min of CPU")
    assert rec["metrics"] == {} and rec["params"]["algorithm"] == "bbr" and rec["side"] == "ns3"
    f = tmp_path / "r.jsonl"
    peer_records.write([rec], f)
    assert agreement.read_runs([f]).empty
    assert [r["seed"] for r in agreement.unfinished([f])] == [2]
