"""Our 802.11 MAC against ns-3's Wi-Fi module (simulator/validation/ns3_wifi.py, reference/ns3_wifi/,
simulator/report/wifi_agreement.py): the committed records checked like every peer record, the agreement
table from them, and one cell remade by ns-3 where the ns3 extra is installed (CI installs it)."""
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from simulator import peer_records
from simulator.reference_errors import ReferenceDataError
from simulator.report import wifi_agreement
from simulator.validation import ns3_wifi, ns3_wifi_peer

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = ROOT / "reference"


def test_every_cell_of_the_matrix_has_a_sealed_record():
    records = ns3_wifi.check(REFERENCE)
    assert [r["cell"] for r in records] == [ns3_wifi.name(c) for c in ns3_wifi.cells()]
    assert all(r["side"] == "ns3" and r["metrics"]["goodput_mbps"] > 10 for r in records)


@pytest.mark.parametrize("edit, message", [
    (lambda lines: lines[:-1], "no record of Wi-Fi cell"),
    (lambda lines: [lines[0].replace('"goodput_mbps":', '"goodput_mbps":1'), *lines[1:]], "line 1"),
])
def test_a_missing_or_edited_record_is_refused_naming_file_and_line(tmp_path, edit, message):
    (tmp_path / "ns3_wifi").mkdir()
    lines = (REFERENCE / ns3_wifi.RECORDS).read_text().splitlines()
    (tmp_path / ns3_wifi.RECORDS).write_text("\n".join(edit(lines)) + "\n")
    with pytest.raises(ReferenceDataError, match=message) as e:
        ns3_wifi.check(tmp_path)
    assert "ns3_wifi/records.jsonl" in str(e.value)


def test_the_agreement_table_counts_cells_within_the_bounds_and_shows_bianchi_without_aggregation():
    t = wifi_agreement.table(REFERENCE)
    inside, total = wifi_agreement.counts(t)
    goodput = (t["ours_mbps"] / t["ns3_mbps"] - 1).abs() <= 0.05
    rtt = ~((t["ours_rtt_ms"] / t["ns3_rtt_ms"] - 1).abs() > 0.15)         # UDP cells: no RTT to compare
    assert total == len(ns3_wifi.cells()) and inside == int((goodput & rtt).sum())
    tcp = t[t["traffic"].str.startswith("TCP")]
    assert len(tcp) == sum(1 for c in ns3_wifi.cells() if c.get("tcp"))
    assert tcp["ns3_rtt_ms"].notna().all() and tcp["ours_rtt_ms"].notna().all()
    single = t[t["aggregation"] == "single MPDU"]
    assert single["bianchi_mbps"].notna().all() and t.loc[t["aggregation"] == "A-MPDU", "bianchi_mbps"].isna().all()
    # Bianchi's model and our MAC share the exchange: within 1% wherever it applies
    assert ((single["ours_mbps"] / single["bianchi_mbps"] - 1).abs() < 0.01).all()
    assert f"{inside} of {total} cells" in wifi_agreement.answer(t)
    shown = wifi_agreement.shown(t)
    assert list(shown["within the bounds"]) == ["yes" if i else "no" for i in t["inside"]]


def test_ns3_remakes_a_committed_record_exactly(tmp_path):
    if importlib.util.find_spec("ns") is None:
        pytest.skip("ns-3's Python bindings are not installed (the optional ns3 extra: pip install -e \".[ns3]\")")
    cell = "n20-mcs7-up-1sta-single"
    out = tmp_path / "r.json"
    subprocess.run([sys.executable, "-m", "simulator.validation.ns3_wifi", "--cell", cell, "--out", str(out)],
                   cwd=ROOT, check=True, capture_output=True, timeout=600)
    made = json.loads(out.read_text())
    committed = next(r for r in peer_records.read(REFERENCE / ns3_wifi.RECORDS) if r["cell"] == cell)
    assert peer_records.canonical(made) == peer_records.canonical(committed)


def test_every_cell_outside_the_bounds_is_explained():
    t = wifi_agreement.table(REFERENCE)
    text = wifi_agreement.explanations(t)
    assert (text == "") == bool(t["inside"].all())
    assert "Not explained yet" not in text
    assert all(phy in text for phy in t.loc[~t["inside"], "phy"])


@pytest.mark.parametrize("line, rate", [
    ("HT 20   +800ns  1   A P   MCS5    5     221   4071.7    4071.7   98.3072  0.895897       97   2", "HT 20 MHz MCS 5"),
    ("VHT 80   +800ns  1   A P    MCS1/1  481     200  4489.27   4489.27   99.9809  0.547528      100   2",
     "VHT 80 MHz MCS 1"),
    ("VHT 40   +800ns  1    B     MCS0/1  320     748  1202.02   1202.02       100        0      100   2", None),
])
def test_minstrel_s_best_rate_is_read_from_ns3_s_statistics_table(tmp_path, monkeypatch, line, rate):
    (tmp_path / "minstrel-ht-stats-00:00:00:00:00:01.txt").write_text(line + "\n")
    monkeypatch.chdir(tmp_path)
    assert ns3_wifi_peer.minstrel_choice({"rate": "minstrel"}) == {"minstrel_rate": rate}
    assert not list(tmp_path.iterdir())          # the tables are removed once read


def test_the_records_readme_names_the_scripts_as_committed():
    """reference/ns3_wifi/README.md gives the sha256 of the scripts the records come from: a change to either
    script must be followed there (and, where it changes how a cell runs, by new records)."""
    import hashlib

    readme = (REFERENCE / "ns3_wifi" / "README.md").read_text()
    for script in ("wifi_cells.py", "ns3_wifi.py", "ns3_wifi_peer.py"):
        digest = hashlib.sha256((ROOT / "simulator" / "validation" / script).read_bytes()).hexdigest()
        assert f"`simulator/validation/{script}`: `{digest}`" in readme, script
