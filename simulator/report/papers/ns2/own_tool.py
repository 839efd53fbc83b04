"""The NS-2 paper's own simulator as evidence (catalogue.yaml `own_tool_records: ns2_sim`): its claims decided on
NS-2 2.35's committed records, by the same claims, engine and rule as ours, so that a row's fault follows NS-2's
own verdict (simulator/report/attribution.py). The scorecard calls `decisions` for each paper with own-tool
records."""
from __future__ import annotations

from pathlib import Path

from simulator import study_files
from simulator.report import attribution


RECORDS_STUDIES = Path(__file__).resolve().parents[4] / "config" / "studies"   # the studies NS-2's records ran


def _points(study_file: Path) -> dict:
    from simulator.study import load_study
    return {p.path: p.params for p in load_study(study_file).points()} if study_file.exists() else {}


def decisions(reference_dir, studies_dir=RECORDS_STUDIES) -> dict:
    """{(claim id, variant): Ns2Row} of the NS-2 claim rows decided on NS-2 2.35's committed records (the same
    claims, engine and rule as ours), from the studies this build ran as NS-2 ran them (`studies_dir`'s file
    gives the same points and parameters as the one the records were made from); {} for a build whose NS-2
    studies differ (a tiny or user's own study)."""
    from simulator.report import claim_engine
    from simulator.report.papers.ns2 import claims as claims_ns2
    from simulator.report.papers.ns2 import agreement as ns2_agreement
    records = ns2_agreement.load_records(reference_dir)
    same = {s: recs for s, recs in records.items()
            if _points(study_files.find(studies_dir, s)) == _points(study_files.find(RECORDS_STUDIES, s)) != {}}
    if not same:
        return {}
    tables = ns2_agreement.ns2_tables(same, RECORDS_STUDIES)
    doc = claim_engine.load(claim_engine.claims_file())
    out = {}
    for claim in (c for c in doc["claims"] if c["paper"] == claims_ns2.PAPER):
        for scope in claim_engine.scopes(claim, doc.get("scoring", {}), tables):
            d = claim_engine.decide(claim, tables, None, scope)
            out[(claim["id"], scope.name)] = attribution.Ns2Row(d.decision.verdict,
                                                    {attribution.comparison_key(c.label): c for c in d.tested})
    return out


def verdicts(reference_dir, studies_dir=RECORDS_STUDIES) -> dict:
    """{(claim id, variant): NS-2 2.35's verdict} (decisions without the comparisons)."""
    return {k: v.verdict for k, v in decisions(reference_dir, studies_dir).items()}
