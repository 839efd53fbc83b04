"""results/scorecard.csv: every paper's published numbers and claims against our runs, in one file.

Rows in verdicts.SCORECARD_COLUMNS and then `fault` and `evidence` (attribution.py: who is at fault
for a contradicted or inconclusive claim row, and what decides it), in this order: the M/M/1 paper's (scorecard_mm1), the QtColFair
paper's (scorecard_qtcol, with --qt-tables), then the rows the per-paper claim modules wrote to
results/claims/<paper>.csv (claims_mininet, claims_ns2, claims_testbed). Beside it,
scorecard_notes.csv (item, variant, verdict, note): the reasoning behind each claim's verdict.
With --claims-file, the claims decided must be exactly those that reference/claims.yaml declares
for each paper present.

  python -m simulator.report.scorecard --tables results/tables/mm1_*.csv \\
      --traces results/traces/mm1_cwnd.csv --reference reference/mm1/jackson_mm1_tables.csv \\
      --out results/scorecard.csv --notes results/scorecard_notes.csv
"""

from __future__ import annotations

import argparse
import logging
from pathlib import Path

import pandas as pd

from simulator.report import attribution, claim_engine, claim_reasons
from simulator.report import scorecard_mm1 as mm1
from simulator.report import scorecard_qtcol as qt
from simulator.report.io import write_csv
from simulator.report.verdicts import NUMBER_VERDICTS, SCORECARD_COLUMNS, VERDICTS
from simulator.safe_yaml import load_own

log = logging.getLogger("scorecard")
CLAIM_ID = r"^[a-z0-9]+-[0-9]+$"


def check_claim_ids(card: pd.DataFrame, claims_file) -> None:
    """The scorecard decides exactly the claims of reference/claims.yaml for each paper it covers."""
    declared = {c["id"]: c["paper"] for c in load_own(Path(claims_file).read_text())["claims"]}
    decided = card[card["verdict"].isin(VERDICTS) & card["item"].str.match(CLAIM_ID)]
    for paper, rows in decided.groupby("paper"):
        ours, theirs = set(rows["item"]), {cid for cid, p in declared.items() if p == paper}
        if ours != theirs:
            raise SystemExit(f"scorecard: {claims_file}: paper {paper}: claims decided {sorted(ours)} but declared "
                             f"{sorted(theirs)}; every declared claim needs a decision and every decision a declaration")


def with_faults(card: pd.DataFrame, claims_file=None, ns2_reference=None, studies_dir=None) -> pd.DataFrame:
    """The scorecard with `fault` and `evidence` for every contradicted or inconclusive claim row
    (simulator/report/attribution.py): from the reasons beside the claims file, and for the NS-2 paper's
    rows from NS-2 2.35's own verdict on its committed records under `ns2_reference` when given, for the
    studies of `studies_dir` (the build's) that NS-2 ran as they stand."""
    reasons = claim_reasons.load(Path(claims_file).parent) if claims_file else {}
    ns2 = (attribution.ns2_decisions(ns2_reference, studies_dir or attribution.RECORDS_STUDIES) if ns2_reference and (card["paper"] == attribution.NS2_PAPER).any()
           else {})
    return attribution.attribute(card, lambda cid, variant, verdict: claim_reasons.entry(reasons, cid, variant, verdict),
                                 ns2)


def main(table_paths, trace_paths, reference_path, out, notes_out, qt_tables=(), qt_traces=(), qt_reference=None,
         claim_files=(), claim_note_files=(), claims_file=None, ns2_reference=None, studies_dir=None):
    if claims_file:
        claim_engine.use_claims_file(claims_file)
    tables = mm1.load_tables(table_paths)
    tr = [pd.read_csv(p) for p in trace_paths if Path(p).exists()]
    traces = pd.concat(tr, ignore_index=True) if tr else None
    card, notes = mm1.build(tables, traces, mm1.load_reference(reference_path))
    if qt_tables:  # the QtColFair paper's rows, appended after the unchanged M/M/1 rows
        qrows, qnotes = qt.build(qt.load_tables(qt_tables), qt.load_traces(qt_traces), qt.load_reference(qt_reference))
        card = pd.concat([card, pd.DataFrame(qrows, columns=SCORECARD_COLUMNS)], ignore_index=True)
        notes = pd.concat([notes, pd.DataFrame(qnotes)], ignore_index=True)
    for f in claim_files:       # results/claims/<paper>.csv of the per-paper claim modules
        card = pd.concat([card, pd.read_csv(f).reindex(columns=SCORECARD_COLUMNS)], ignore_index=True)
    for f in claim_note_files:
        notes = pd.concat([notes, pd.read_csv(f)], ignore_index=True)
    if claims_file:
        check_claim_ids(card, claims_file)
    card = with_faults(card, claims_file, ns2_reference, studies_dir)
    write_csv(card, out)
    write_csv(notes, notes_out)
    nums = card[card["verdict"].isin(NUMBER_VERDICTS)]
    for v, g in nums.groupby("variant"):
        log.info("%s: %d/%d published numbers inside the per-run range", v, (g.verdict == "inside").sum(), len(g))
    for n in notes.itertuples():
        log.info("%s %s: %s (%s)", n.item, n.variant, n.verdict, n.note)


def cli(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", nargs="+", required=True)
    ap.add_argument("--traces", nargs="*", default=[])
    ap.add_argument("--reference", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--notes", required=True)
    ap.add_argument("--qt-tables", nargs="*", default=[], help="QtColFair paper: results/tables/qt_*.csv")
    ap.add_argument("--qt-traces", nargs="*", default=[], help="QtColFair paper: results/traces/qt_*.csv")
    ap.add_argument("--qt-reference", help="QtColFair paper: qtcolfair_results.csv (needed with --qt-tables)")
    ap.add_argument("--claims", nargs="*", default=[], help="results/claims/<paper>.csv rows to append")
    ap.add_argument("--claim-notes", nargs="*", default=[], help="results/claims/<paper>_notes.csv to append")
    ap.add_argument("--claims-file", help="reference/claims.yaml: the claims that must each get a verdict")
    ap.add_argument("--ns2-reference", help="the reference folder whose ns2_sim/ holds NS-2 2.35's records: the "
                                            "NS-2 rows' fault follows NS-2's own verdict on them")
    ap.add_argument("--studies-dir", help="the build's study folder (config/studies by default): NS-2's verdict "
                                          "counts only for a study that NS-2's records ran as it stands")
    a = ap.parse_args(argv)
    if a.qt_tables and not a.qt_reference:
        ap.error("--qt-tables needs --qt-reference")
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s")
    main(a.tables, a.traces, a.reference, a.out, a.notes, a.qt_tables, a.qt_traces, a.qt_reference,
         a.claims, a.claim_notes, a.claims_file, a.ns2_reference, a.studies_dir)


if __name__ == "__main__":
    cli()
