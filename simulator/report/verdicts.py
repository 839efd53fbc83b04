"""The scorecard's row format and the verdict of an ordering claim, shared by every paper's module.

A scorecard row (SCORECARD_COLUMNS) is a published number or a claim of one paper and model variant.
A claim's verdict is one of VERDICTS; `verdict_from` decides an ordering claim from its comparisons.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from simulator.report import claim_rule

SCORECARD_COLUMNS = [
    "paper", "item", "variant", "metric", "paper_value", "ours_mean", "ci_low", "ci_high",
    "run_p025", "run_p975", "n_seeds", "verdict", "p_value", "rule", "note",
]
VERDICTS = claim_rule.VERDICTS                                     # of a claim (simulator/report/claim_rule.py)
NUMBER_VERDICTS = ("inside", "outside", "missing")                 # of a published number
NOTE_COLUMNS = ["item", "variant", "verdict", "note"]


@dataclass
class ClaimResult:
    verdict: str                      # reproduced | not_reproduced | untestable
    note: str
    metric: str = ""
    paper_value: float = np.nan
    headline: pd.Series | None = None  # the table row whose numbers fill the scorecard row
    extra: dict = field(default_factory=dict)


@dataclass
class Comparison:
    text: str
    holds: bool        # by means
    significant: bool  # 95% CIs disjoint


def compare_greater(a: pd.Series, b: pd.Series, label: str) -> Comparison:
    """Is a's mean greater than b's? significant if the 95% CIs do not overlap."""
    holds = a["mean"] > b["mean"]
    significant = (a.ci_low > b.ci_high) if holds else (b.ci_low > a.ci_high)
    return Comparison(f"{label}: {a['mean']:.4g} vs {b['mean']:.4g}", bool(holds), bool(significant))


def verdict_from(comparisons: list[Comparison], missing: list[str]) -> tuple[str, str]:
    """All orderings hold by means -> reproduced. Note lists failures and close calls."""
    if missing:
        return "untestable", "missing table cells: " + ", ".join(missing)
    if not comparisons:
        return "untestable", "no comparisons possible"
    failed = [c for c in comparisons if not c.holds]
    close = [c for c in comparisons if not c.significant]
    parts = [f"{len(comparisons) - len(failed)}/{len(comparisons)} orderings hold by mean"]
    if failed:
        parts.append("fails: " + "; ".join(
            c.text + (" (significant)" if c.significant else " (within CIs)") for c in failed))
    if close:
        parts.append(f"{len(close)} not significant at 95% (CIs overlap)")
    return ("not_reproduced" if failed else "reproduced"), ". ".join(parts)


def decided_rows(paper: str, variant: str, results: dict) -> tuple[list[dict], list[dict]]:
    """(scorecard rows, note rows) of {claim id: ClaimResult}, in claim-number order."""
    pairs = [result_rows(paper, cid, variant, results[cid]) for cid in sorted(results, key=lambda c: int(c.split("-")[1]))]
    return [r for r, _ in pairs], [n for _, n in pairs]


def result_rows(paper: str, item: str, variant: str, r: ClaimResult) -> tuple[dict, dict]:
    """(scorecard row, note row) of one decided claim; the headline table row fills our numbers."""
    h = r.headline
    get = (lambda k: np.nan) if h is None else (lambda k: h[k])
    row = dict(paper=paper, item=item, variant=variant, metric=r.metric, paper_value=r.paper_value,
               ours_mean=get("mean"), ci_low=get("ci_low"), ci_high=get("ci_high"),
               run_p025=get("run_p025"), run_p975=get("run_p975"),
               n_seeds=0 if h is None else int(h["n"]), verdict=r.verdict)
    return row, dict(item=item, variant=variant, verdict=r.verdict, note=r.note)


def decision_rows(paper: str, item: str, variant: str, decision: "claim_rule.Decision", metric: str = "",
                  headline=None, paper_value: float = np.nan) -> tuple[dict, dict]:
    """(scorecard row, note row) of a claim decided by the one rule (claim_rule.decide): the row
    carries the verdict, the largest adjusted p, the rule and a one-sentence note; the note row every
    comparison. `headline` (a table row) fills our mean, CI and per-run range."""
    get = (lambda k: np.nan) if headline is None else (lambda k: float(headline[k]))
    row = dict(paper=paper, item=item, variant=variant, metric=metric, paper_value=paper_value,
               ours_mean=get("mean"), ci_low=get("ci_low"), ci_high=get("ci_high"),
               run_p025=get("run_p025"), run_p975=get("run_p975"),
               n_seeds=0 if headline is None else int(headline["n"]), verdict=decision.verdict,
               p_value=decision.p_value, rule="" if decision.verdict == "not_testable" else claim_rule.RULE,
               note=decision.summary)
    return row, dict(item=item, variant=variant, verdict=decision.verdict, note=decision.note)
