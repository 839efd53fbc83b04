"""The scorecard's row format, shared by every paper's module.

A scorecard row (SCORECARD_COLUMNS) is a published number or a claim of one paper and model variant.
The paper's number is kept as the paper gives it: paper_low and paper_high (equal for a single value;
a range such as 25-40 ms keeps both ends), paper_value only for a single value (a range has no midpoint).
A claim's verdict is one of VERDICTS, decided by the one rule (simulator/report/claim_rule.py);
`decision_rows` turns a decision into its scorecard row and note row.
"""

from __future__ import annotations

import numpy as np

from simulator.report import claim_rule

SCORECARD_COLUMNS = [
    "paper", "item", "variant", "metric", "paper_value", "paper_low", "paper_high", "ours_mean", "ci_low", "ci_high",
    "run_p025", "run_p975", "n_seeds", "verdict", "p_value", "rule", "note",
]
VERDICTS = claim_rule.VERDICTS                                     # of a claim (simulator/report/claim_rule.py)
NUMBER_VERDICTS = ("inside", "outside", "missing")                 # of a published number
NOTE_COLUMNS = ["item", "variant", "verdict", "note", "why"]   # why: claim_reasons.why


def decision_rows(paper: str, item: str, variant: str, decision: "claim_rule.Decision", metric: str = "",
                  headline=None, paper_value: float = np.nan) -> tuple[dict, dict]:
    """(scorecard row, note row) of a claim decided by the one rule (claim_rule.decide): the row
    carries the verdict, the largest adjusted p, the rule and a one-sentence note; the note row every
    comparison. `headline` (a table row) fills our mean, CI and per-run range."""
    get = (lambda k: np.nan) if headline is None else (lambda k: float(headline[k]))
    row = dict(paper=paper, item=item, variant=variant, metric=metric, paper_value=paper_value,
               paper_low=paper_value, paper_high=paper_value,
               ours_mean=get("mean"), ci_low=get("ci_low"), ci_high=get("ci_high"),
               run_p025=get("run_p025"), run_p975=get("run_p975"),
               n_seeds=0 if headline is None else int(headline["n"]), verdict=decision.verdict,
               p_value=decision.p_value, rule="" if decision.verdict == "not_testable" else claim_rule.RULE,
               note=decision.summary)
    return row, dict(item=item, variant=variant, verdict=decision.verdict, note=decision.note)


def claims_in_order(paper: str, variant: str, decided: dict) -> tuple[list[dict], list[dict]]:
    """(scorecard rows, note rows) of {claim id: decided claim}, in claim-number order; a decided claim
    carries decision, metric, headline and paper_value (see decision_rows)."""
    pairs = [decision_rows(paper, cid, variant, r.decision, metric=r.metric, headline=r.headline,
                           paper_value=r.paper_value)
             for cid, r in sorted(decided.items(), key=lambda kv: int(kv[0].split("-")[1]))]
    return [row for row, _ in pairs], [note for _, note in pairs]
