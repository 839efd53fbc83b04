"""NS-2 2.35's committed records (reference/ns2_sim/): the scripts reproduce them, the check catches damage.

The regeneration test needs NS-2 2.35 (`ns`, Debian/Ubuntu package ns2; .ci/run installs it) and fails
without it: it is the evidence that the committed records are what the scripts in this repository make.
"""
import json
import shutil
from pathlib import Path

import pytest

from simulator import study_files
from simulator.reference import ReferenceDataError
from simulator.validation import ns2_records, ns2_scripts

ROOT = Path(__file__).resolve().parent.parent
REF = ROOT / "reference" / "ns2_sim"
STUDIES = ROOT / "config" / "studies"
# one representative point per study and algorithm, seeds 1-2 (NS-2 is deterministic: any run would do,
# these cover every topology, both windows, FQ, the lowest bandwidth and the longest delay)
SAMPLE = {"ns2_topology": ["topology~linear/flows~2/window~0", "topology~star/flows~5/window~20"],
          "ns2_flows": ["flows~1/window~20"],
          "ns2_bandwidth": ["bandwidth_mbps~0.1/flows~4/window~0"],
          "ns2_delay": ["delay_ms~1500/flows~2/window~20"],
          "ns2_queue": ["queue~fq/flows~3/window~0"]}


def _picked(study, path, seed):
    return seed <= 2 and any(path.endswith(s) for s in SAMPLE.get(study, ()))


def test_ns2_regenerates_committed_records(tmp_path):
    if not ns2_scripts.ns_available():
        pytest.fail("NS-2 2.35 is not installed: apt-get install ns2 (Debian/Ubuntu; it provides /usr/bin/ns)")
    committed = {(r["study"], r["point"], r["seed"]): r
                 for recs in ns2_records.check_dir(REF).values() for r in recs}
    files = [study_files.find(STUDIES, s) for s in SAMPLE]
    made = ns2_records.generate(files, tmp_path, select=_picked)
    got = [r for recs in made.values() for r in recs]
    assert len(got) == sum(len(v) for v in SAMPLE.values()) * 3 * 2      # 3 algorithms, 2 seeds
    for r in got:
        assert r == committed[(r["study"], r["point"], r["seed"])], (r["study"], r["point"], r["seed"])


def _copy(tmp_path):
    shutil.copytree(REF, tmp_path / "ns2_sim")
    return tmp_path / "ns2_sim"


def _lines(tmp_path, name):
    """(the copied folder, its file `name`, that file's lines with their ends)."""
    folder = _copy(tmp_path)
    f = folder / name
    return folder, f, f.read_text().splitlines(keepends=True)


def test_check_names_truncated_file_and_line(tmp_path):
    folder, f, lines = _lines(tmp_path, "ns2_flows.jsonl")
    f.write_text("".join(lines[:-1]) + lines[-1][:40])
    with pytest.raises(ReferenceDataError, match=rf"ns2_flows.jsonl: line {len(lines)}: not a JSON record"):
        ns2_records.check_dir(folder)
    f.write_text("".join(lines[:-1]))
    with pytest.raises(ReferenceDataError, match=rf"line {len(lines)}: the file ends after {len(lines) - 1} records"):
        ns2_records.check_dir(folder)


def test_check_names_altered_record(tmp_path):
    folder, f, lines = _lines(tmp_path, "ns2_delay.jsonl")
    rec = json.loads(lines[4])
    rec["metrics"]["throughput_mbps"] *= 1.01
    lines[4] = json.dumps(rec, sort_keys=True) + "\n"
    f.write_text("".join(lines))
    with pytest.raises(ReferenceDataError, match=r"ns2_delay.jsonl: line 5: .* altered"):
        ns2_records.check_dir(folder)


def test_check_names_missing_file_and_reordered_records(tmp_path):
    folder, f, lines = _lines(tmp_path, "ns2_queue.jsonl")
    f.write_text("".join([lines[1], lines[0]] + lines[2:]))
    with pytest.raises(ReferenceDataError, match="ns2_queue.jsonl: sha256 .* reordered"):
        ns2_records.check_dir(folder)
    f.unlink()
    with pytest.raises(ReferenceDataError, match="ns2_queue.jsonl: record file not found"):
        ns2_records.check_dir(folder)


def test_differences_name_each_changed_record(tmp_path):
    ref = ns2_records.check_dir(REF)
    new = {s: [dict(r) for r in recs] for s, recs in ref.items()}
    r = new["ns2_flows"][3]
    r["metrics"] = {**r["metrics"], "timeouts": r["metrics"]["timeouts"] + 1}
    diff = ns2_records.differences(new, ref)
    assert len(diff) == 1
    assert diff[0].startswith(f"ns2_flows {r['point']} seed {r['seed']}: timeouts")
    assert ns2_records.differences(ref, ref) == []


def test_workflow_check_reads_intact_files_without_parsing_and_still_names_damage(tmp_path):
    counts = ns2_records.check_dir(REF, parse=False)
    assert counts == {s: len(r) for s, r in ns2_records.check_dir(REF).items()}
    folder = _copy(tmp_path)
    f = folder / "ns2_topology.jsonl"
    lines = f.read_text().splitlines(keepends=True)
    f.write_text("".join(lines[:6] + ["{}\n"] + lines[7:]))
    with pytest.raises(ReferenceDataError, match="ns2_topology.jsonl: line 7: expected the keys"):
        ns2_records.check_dir(folder, parse=False)
