"""QtColFair's BBR at 1 BDP in ns-3 3.44 (reference/ns3_qtcol/): sealed records that decide who is at fault
for that published number, checked like every peer record, and what the chapter and the scorecard say of it."""
import json
import shutil
from pathlib import Path

import pytest

from simulator.reference_errors import ReferenceDataError
from simulator.report import number_reasons
from simulator.report.papers.qtcol import tables as qt
from simulator.validation import ns3_reference

ROOT = Path(__file__).resolve().parents[1]
STUDY = ROOT / "reference" / "qtcol" / "bbr_1bdp_ns3.yaml"
RECORDS = "ns3_qtcol/records.jsonl"


def test_every_seed_of_the_cell_file_has_a_sealed_record_far_above_the_paper_s_50_mbit():
    records = ns3_reference.check(ROOT / "reference", STUDY, RECORDS)
    goodput = sorted(r["metrics"]["goodput_mbps"] for r in records)
    assert len(records) == 3 and all(r["side"] == "ns3" for r in records)
    assert 85 < goodput[0] and goodput[-1] < 95          # the paper: 50.3 Mbit/s
    assert "87.3-91.5 Mbit/s over 3 seeds" in qt.ns3_bbr_1bdp(ROOT / "reference")


def test_an_edited_record_stops_the_check_naming_file_and_line(tmp_path):
    ref = tmp_path / "reference"
    (ref / "ns3_qtcol").mkdir(parents=True)
    lines = (ROOT / "reference" / RECORDS).read_text().splitlines()
    rec = json.loads(lines[1])
    rec["metrics"]["goodput_mbps"] = 50.3
    lines[1] = json.dumps(rec, sort_keys=True, separators=(",", ":"))
    (ref / RECORDS).write_text("\n".join(lines) + "\n")
    with pytest.raises(ReferenceDataError, match=r"ns3_qtcol/records.jsonl: line 2"):
        ns3_reference.check(ref, STUDY, RECORDS)
    shutil.rmtree(ref)
    assert qt.ns3_bbr_1bdp(ref) == ""                      # no records: the chapter says nothing of them


def test_the_number_s_fault_is_the_paper_s_code_with_the_records_as_evidence():
    e = number_reasons.entry(number_reasons.load(ROOT / "reference"), "qtcol", "buffer_sweep 5 flows 1 BDP bbr",
                             "ns3_scenario")
    assert e["fault"] == "paper_code" and "reference/ns3_qtcol/" in e["evidence"]
