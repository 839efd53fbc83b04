"""The pieces every NS-2 claim (simulator/report/claims_ns2.py) is built from: access to the tables
results/tables/ns2_*.csv, a claim gathered part by part as comparisons of the one rule
(simulator/report/claim_rule.py), and the part "Vegas lowest at every value of a sweep".

How comparisons are made (claims_ns2.py's docstring says which claim makes which):
  * values that are floating-point zeros (|mean| and sd <= NUMERICAL_ZERO) count as exactly 0;
  * a loss comparison where both sides dropped nothing is left out (the note lists it); a part whose
    every instance is left out makes the claim not_testable unless another part is significantly
    reversed; a table cell the claim needs and lacks makes it not_testable;
  * "rises (falls) with x": the value at the largest x against the value at the smallest; the steps
    between neighbours go to the note, not to the verdict.
"""
from __future__ import annotations

import math

import pandas as pd

from simulator.report import claim_rule
from simulator.report import claims_common as cc

ALGS = ("reno", "newreno", "vegas")
NAMES = {"reno": "Reno", "newreno": "NewReno", "vegas": "Vegas"}
NUMERICAL_ZERO = 1e-9                        # |mean| and sd at most this: a floating-point zero (sd 1e-14 s)

# --------------------------------------------------------------------------- table access

def cell(tables: pd.DataFrame, study: str, metric: str, **params) -> pd.Series | None:
    """The table row of `metric` in `study` at these parameters, or None if the study lacks it."""
    if tables is None or tables.empty or "study" not in tables:
        return None
    t = tables[tables["study"] == study]
    if t.empty or any(k not in t for k in params):
        return None
    try:
        return cc.pick(t, metric, **params)
    except KeyError:
        return None


def sweep_values(tables: pd.DataFrame, study: str, column: str) -> list:
    t = tables[tables["study"] == study] if "study" in tables else tables.iloc[0:0]
    return sorted(t[column].dropna().unique().tolist()) if column in t else []


def fmt(row: pd.Series) -> str:
    return f"{row['mean']:.4g} [{row['ci_low']:.4g}, {row['ci_high']:.4g}]"


def no_drops(row: pd.Series) -> bool:
    return float(row["mean"]) == 0.0


def value(row: pd.Series) -> dict:
    """mean, sd, n of a table row for claim_rule; a floating-point zero counts as exactly 0 (sd 0)."""
    m, n = float(row["mean"]), int(row["n"])
    sd = float(row["sd"]) if not pd.isna(row["sd"]) else math.nan
    if abs(m) <= NUMERICAL_ZERO and (math.isnan(sd) or sd <= NUMERICAL_ZERO):
        return {"mean": 0.0, "sd": 0.0 if n > 1 else math.nan, "n": n}
    return {"mean": m, "sd": sd, "n": n}


# --------------------------------------------------------------------------- a claim's comparisons

class Claim:
    """The comparisons of one claim and variant, gathered part by part, and what could not be compared."""

    def __init__(self):
        self.parts: list[str] = []                          # "(a) Vegas lowest cwnd_cv"
        self.comparisons: list[claim_rule.Comparison] = []
        self.missing: list[str] = []                        # table cells the claim needs and lacks
        self.no_drops: list[str] = []                       # parts with nothing to compare: no drops
        self.skipped: list[str] = []                        # instances left out: neither side drops
        self.steps: list[tuple[str, list[claim_rule.Comparison]]] = []   # trend steps (not scored)
        self.extra = ""

    def part(self, tag: str, text: str) -> "Part":
        self.parts.append(f"{tag} {text}")
        return Part(self, tag)

    def decide(self) -> tuple[claim_rule.Decision, str]:
        """The claim's Decision under the rule and the note (every comparison, what was left out)."""
        tested = claim_rule.decide(self.comparisons)
        reason = ""
        if self.missing:
            reason = "missing table cells: " + ", ".join(self.missing)
        elif self.no_drops and tested.verdict != "contradicted":    # a reversal elsewhere still contradicts
            reason = "no packet drops, so a loss comparison the claim needs cannot be made: " + "; ".join(self.no_drops)
        decision = claim_rule.decide(self.comparisons, not_testable=reason) if reason else tested
        note = "Parts: " + "; ".join(self.parts) + ". "
        if reason:
            note += f"Not testable: {reason}. "
            if self.comparisons:
                note += f"The comparisons that could be made (alone: {tested.verdict}): {tested.note}."
        else:
            note += tested.note + "."
            if self.no_drops:
                note += (" Contradicted by the comparisons above although a part has nothing to compare (no drops): "
                         + "; ".join(self.no_drops) + ".")
        if self.skipped:
            note += " Left out, neither side dropped a packet: " + "; ".join(self.skipped) + "."
        for label, steps in self.steps:
            against = [c for c in claim_rule.holm(steps) if c.reversed]
            note += (f" {label} (steps, not scored; Holm over its steps): "
                     + ("significantly the other way at " + "; ".join(c.describe() for c in against)
                        if against else "no step significantly the other way") + ".")
        return decision, note + self.extra


class Part:
    """One assertion of a claim; adds its comparisons to the claim."""

    def __init__(self, claim: Claim, tag: str):
        self.claim, self.tag, self.made, self.left_out, self.lacking = claim, tag, 0, 0, 0

    def add(self, comparison: claim_rule.Comparison) -> None:
        self.claim.comparisons.append(comparison)
        self.made += 1

    def missing(self, what: str) -> None:
        self.claim.missing.append(f"{self.tag} {what}")
        self.lacking += 1

    def skip(self, what: str) -> None:
        self.claim.skipped.append(f"{self.tag} {what}")
        self.left_out += 1

    def lower(self, a: pd.Series, b: pd.Series, where: str, na: str, nb: str, loss: bool = False) -> None:
        """'a is lower than b'; with loss=True an instance where neither side dropped anything is left out."""
        if loss and no_drops(a) and no_drops(b):
            self.skip(f"{where} {na} vs {nb}")
            return
        self.add(claim_rule.less(value(a), value(b),
                                 f"{self.tag} {where}: {na} {a['mean']:.4g} < {nb} {b['mean']:.4g}"))

    def greater(self, a: pd.Series, b: pd.Series, where: str, na: str, nb: str) -> None:
        self.add(claim_rule.greater(value(a), value(b),
                                    f"{self.tag} {where}: {na} {a['mean']:.4g} > {nb} {b['mean']:.4g}"))

    def within(self, row: pd.Series, lo: float, hi: float, label: str) -> None:
        for c in claim_rule.within(value(row), lo, hi, f"{self.tag} {label} {row['mean']:.4g}"):
            self.add(c)

    def trend(self, rows: list[tuple[float, pd.Series]], label: str, rising: bool, loss: bool = False) -> None:
        """'rises (falls) with x': the value at the largest x against the value at the smallest; the
        steps between neighbours go to the note."""
        if len(rows) < 2:
            self.missing(f"{label}: fewer than two points")
            return
        if loss and all(no_drops(r) for _, r in rows):
            self.skip(f"{label}: no drops at any point")
            return
        (x0, r0), (x1, r1) = rows[0], rows[-1]
        series = ", ".join(f"{x:g}: {r['mean']:.3g}" for x, r in rows)
        word = "rises" if rising else "falls"
        cmp = claim_rule.greater if rising else claim_rule.less
        self.add(cmp(value(r1), value(r0), f"{self.tag} {label} {word} from {x0:g} to {x1:g} "
                                           f"({r0['mean']:.4g} -> {r1['mean']:.4g}; series {series})"))
        self.claim.steps.append((f"{label} {word}", [
            cmp(value(rb), value(ra), f"{xa:g} -> {xb:g}: {ra['mean']:.3g} -> {rb['mean']:.3g}")
            for (xa, ra), (xb, rb) in zip(rows, rows[1:])]))

    def close(self) -> None:
        """A part with nothing compared: not testable (no drops), or missing if nothing was there."""
        if self.made == 0 and self.left_out > 0:
            self.claim.no_drops.append(f"{self.tag} (every instance)")
        elif self.made == 0 and self.lacking == 0:
            self.claim.missing.append(f"{self.tag} no table rows")


# --------------------------------------------------------------------------- the claims

def extreme_part(claim, tables, study, sweep, values, metric, tag, text, target="vegas", loss=False, fixed=None):
    """target's metric is below each other variant's at every value of `sweep`."""
    part = claim.part(tag, text)
    pairs, missing = cc.against_each(lambda alg, params: cell(tables, study, metric, algorithm=alg, **params),
                                     values, sweep, target, ALGS, fixed)
    for x, alg in missing:
        part.missing(f"{sweep}={x} {alg}")
    for x, t, other, o in pairs:
        part.lower(t, o, f"{x} {metric}", NAMES[target], NAMES[other], loss=loss)
    part.close()
