"""The suite at the draft's own scale (simulator/suite_full.py): the committed records are complete, sealed, made
from today's study files, and what today's simulator gives; the chapter's section summarises them within bounds."""
import hashlib
import json
import re
from pathlib import Path

import pytest

from simulator import suite_full
from simulator.report import suite_full_view as view
from simulator.run_records import read

ROOT = Path(__file__).resolve().parents[1]
SETTINGS = suite_full.settings(ROOT / "config/config.yaml")
RECORDS = ROOT / SETTINGS["records"]


@pytest.fixture(scope="module")
def records():
    return read(RECORDS)            # every line's seal checked


def test_records_cover_every_point_and_seed_of_the_study_files(records, monkeypatch):
    monkeypatch.chdir(ROOT)
    want = {(Path(f).stem, p, s) for f, p, s in suite_full.tasks(SETTINGS["dir"], SETTINGS["algorithms"], SETTINGS["seeds"])}
    got = {(r["study"], r["point_path"], r["seed"]) for r in records}
    assert got == want and len(records) == len(want)


def test_readme_names_the_records_and_study_files_as_they_are():
    text = (RECORDS.parent / "README.md").read_text()
    assert f"records.jsonl sha256 {hashlib.sha256(RECORDS.read_bytes()).hexdigest()}" in text
    for f in sorted((ROOT / SETTINGS["dir"]).glob("*.yaml")):
        assert f"{SETTINGS['dir']}/{f.name}: {hashlib.sha256(f.read_bytes()).hexdigest()}" in text, \
            f"{f.name} changed since its records were made: rerun snakemake --cores all suite_full"


def test_todays_simulator_gives_a_committed_record(records, monkeypatch):
    monkeypatch.chdir(ROOT)
    from simulator.cli import run_record
    from simulator.suite import load_suite_study
    rec = next(r for r in records if r["study"] == "full_access" and r["seed"] == 1
               and r["point_path"].startswith("algorithm~reno/load~0.6/"))
    study = load_suite_study(ROOT / SETTINGS["dir"] / "full_access.yaml", SETTINGS["algorithms"])
    point = next(p for p in study.points() if p.path == rec["point_path"])
    fresh = run_record(study, point, 1)
    assert json.dumps(fresh["metrics"], sort_keys=True) == json.dumps(rec["metrics"], sort_keys=True)
    assert fresh["metrics"]["flows_completed"] > 1000


def test_the_section_keeps_every_interval_in_its_metrics_range():
    s = view.stats(view.load(RECORDS))
    assert (s["ci_low"] >= 0).all()
    util = s[s["metric"] == "utilization"]
    assert (util["ci_high"] <= 1).all() and (util["mean"] > 0.5).all()
    assert set(s["study"]) == set(view.SCENARIOS) and set(s["algorithm"]) == set(SETTINGS["algorithms"])
    w = view.winners(s)
    assert len(w) == 3 * len(view.SCENARIOS)
    assert not re.search(r"/work|/tmp|jsonl", view.provenance(RECORDS)) and f"{len(read(RECORDS))} runs" in view.provenance(RECORDS)
