"""results/scorecard.csv: every paper's published numbers and claims against our runs, in one file.

Rows in verdicts.SCORECARD_COLUMNS and then `fault` and `evidence` (attribution.py: who is at fault
for a contradicted or inconclusive claim row, and what decides it): the rows each paper's claims module
(catalogue.yaml `claims`) wrote to results/claims/<paper>.csv, in the catalogue's order. Beside it,
scorecard_notes.csv (item, variant, verdict, note): the reasoning behind each claim's verdict.
With --claims-file, the claims decided must be exactly those that reference/claims.yaml declares
for each paper present.

  python -m simulator.report.scorecard --claims results/claims/mm1.csv results/claims/qtcol.csv ... \\
      --claim-notes results/claims/mm1_notes.csv ... --claims-file reference/claims.yaml \\
      --out results/scorecard.csv --notes results/scorecard_notes.csv
"""

from __future__ import annotations

import argparse
import importlib
import logging
from pathlib import Path

import pandas as pd

from simulator import claims_files
from simulator.report import attribution, claim_engine, claim_reasons, number_reasons
from simulator.report.io import write_csv
from simulator.report.verdicts import NOTE_COLUMNS, NUMBER_VERDICTS, SCORECARD_COLUMNS, VERDICTS
from simulator import peers

NS2 = peers.label("ns2")

log = logging.getLogger("scorecard")
CLAIM_ID = r"^[a-z0-9]+-[0-9]+$"


def check_claim_ids(card: pd.DataFrame, claims_file) -> None:
    """The scorecard decides exactly the claims of reference/claims.yaml for each paper it covers."""
    declared = {c["id"]: c["paper"] for c in claims_files.read(claims_file)["claims"]}
    decided = card[card["verdict"].isin(VERDICTS) & card["item"].str.match(CLAIM_ID)]
    for paper, rows in decided.groupby("paper"):
        ours, theirs = set(rows["item"]), {cid for cid, p in declared.items() if p == paper}
        if ours != theirs:
            raise SystemExit(f"scorecard: {claims_file}: paper {paper}: claims decided {sorted(ours)} but declared "
                             f"{sorted(theirs)}; every declared claim needs a decision and every decision a declaration")


def with_faults(card: pd.DataFrame, claims_file=None, own_tool_reference=None, studies_dir=None) -> pd.DataFrame:
    """The scorecard with `fault` and `evidence` for every contradicted or inconclusive claim row
    (simulator/report/attribution.py): from the reasons beside the claims file, and for the NS-2 paper's
    rows from NS-2 2.35's own verdict on its committed records under `own_tool_reference` when given, for the
    studies of `studies_dir` (the build's) that NS-2 ran as they stand."""
    reasons = claim_reasons.load(Path(claims_file).parent) if claims_file else {}
    numbers = number_reasons.load(Path(claims_file).parent) if claims_file else {}
    if claims_file:
        try:
            number_reasons.check_rows(Path(claims_file).parent, numbers, card)
        except ValueError as e:
            raise SystemExit(f"scorecard: {e}") from None
        for paper, item, variant in number_reasons.uncovered(numbers, card):
            log.warning("%s: published number %r (%s) is outside our range and no entry of its "
                        "number_reasons.yaml covers it: shown as not found yet", paper, item, variant)
    own_verdicts = {}
    for paper in attribution.OWN_TOOL_PAPERS:     # the paper's own simulator's verdicts (papers/<paper>/own_tool.py)
        if own_tool_reference and (card["paper"] == paper).any():
            own = importlib.import_module(f"simulator.report.papers.{paper}.own_tool")
            own_verdicts.update(own.decisions(own_tool_reference, studies_dir or own.RECORDS_STUDIES))
    def entry_of(paper, item, variant, verdict):
        if verdict == attribution.OUTSIDE:
            return number_reasons.entry(numbers, paper, item, variant)
        return claim_reasons.entry(reasons, item, variant, verdict)

    return attribution.attribute(card, entry_of, own_verdicts)


def main(out, notes_out, claim_files=(), claim_note_files=(), claims_file=None, own_tool_reference=None, studies_dir=None):
    # results/claims/<paper>.csv of every paper's claims module, in the catalogue's order
    rows = [pd.read_csv(f).reindex(columns=SCORECARD_COLUMNS) for f in claim_files]
    card = pd.concat(rows, ignore_index=True) if rows else pd.DataFrame(columns=SCORECARD_COLUMNS)
    notes = [pd.read_csv(f) for f in claim_note_files if Path(f).stat().st_size > 1]
    notes = pd.concat(notes, ignore_index=True) if notes else pd.DataFrame(columns=NOTE_COLUMNS)
    if claims_file:
        claim_engine.use_claims_file(claims_file)
        check_claim_ids(card, claims_file)
    card = with_faults(card, claims_file, own_tool_reference, studies_dir)
    write_csv(card, out)
    write_csv(notes, notes_out)
    nums = card[card["verdict"].isin(NUMBER_VERDICTS)]
    for v, g in nums.groupby("variant"):
        log.info("%s: %d/%d published numbers inside the per-run range", v, (g.verdict == "inside").sum(), len(g))
    for n in notes.itertuples():
        log.info("%s %s: %s (%s)", n.item, n.variant, n.verdict, n.note)


def cli(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", required=True)
    ap.add_argument("--notes", required=True)
    ap.add_argument("--claims", nargs="*", default=[], help="results/claims/<paper>.csv rows, in the book's order")
    ap.add_argument("--claim-notes", nargs="*", default=[], help="results/claims/<paper>_notes.csv, the same order")
    ap.add_argument("--claims-file", help="reference/claims.yaml: the claims that must each get a verdict")
    ap.add_argument("--own-tool-reference", help="the reference folder holding a paper's own simulator's records "
                                                 f"(catalogue.yaml own_tool_records: {NS2}'s): that paper's rows' "
                                                 "fault follows its own tool's verdict on them")
    ap.add_argument("--studies-dir", help="the build's study folder (config/studies by default): NS-2's verdict "
                                          "counts only for a study that NS-2's records ran as it stands")
    a = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(message)s")
    main(a.out, a.notes, a.claims, a.claim_notes, a.claims_file, a.own_tool_reference, a.studies_dir)


if __name__ == "__main__":
    cli()
