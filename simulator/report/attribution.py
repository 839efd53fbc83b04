"""Who is at fault for a claim row that did not reproduce, and the evidence that decides it.

Every contradicted or inconclusive claim row of the scorecard gets a `fault` (one of FAULTS) and an
`evidence` sentence. They come from the row's reason in reference/claim_reasons.yaml (its `fault`, or the
one its kind implies, and its `evidence`), except for the rows of a paper whose own simulator's records are
committed (catalogue.yaml `own_tool_records`: the NS-2 paper's), where the data decide: NS-2 2.35 ran every
grid point and seed (reference/ns2_sim/), and the same engine and rule decide each claim row on its output
(simulator/report/papers/ns2/own_tool.py). If NS-2 does not reproduce a claim either, the
paper's own simulator does not support the paper's text; if NS-2 reproduces it and we do not, the fault
is our simulator's.
"""
from __future__ import annotations


import re
from typing import NamedTuple

import pandas as pd

from simulator import paper_catalogue
from simulator import peers

NS2 = peers.label("ns2")

# fault -> the words a reader sees (never the code word)
FAULTS = {"paper_text": "the paper's text",
          "paper_code": "the paper's code or its set-up",
          "open_parameter": "a parameter the paper leaves open",
          "our_simulator": "our simulator",
          "our_seeds": "our runs (too few seeds)",
          "not_found": "not found yet"}
THE_PAPERS = ("paper_text", "paper_code", "open_parameter")     # faults that lie with the paper
OURS = ("our_simulator", "our_seeds")                           # faults that lie with us
KIND_FAULT = {"sensitivity": "open_parameter", "paper_ambiguity": "paper_text", "paper_tool": "paper_text",
              "too_few_seeds": "our_seeds",
              "unexplained": "not_found"}      # model_difference names its fault: ours, or the paper's code
UNRESOLVED = ("contradicted", "inconclusive")
OUTSIDE = "outside"        # a published number outside our per-run range: its fault from number_reasons
# the papers whose own simulator's records decide a row's fault (catalogue.yaml `own_tool_records`: NS-2's)
OWN_TOOL_PAPERS = tuple(p.id for p in paper_catalogue.load().papers.values() if p.own_tool_records)
NS2_WORDS = {"reproduced": "reproduces it", "contradicted": "contradicts it", "inconclusive": "cannot decide it",
             "not_testable": "cannot test it"}


def entry_fault(entry: dict) -> str | None:
    """The fault a reason entry declares, else the one its kind implies (None: neither)."""
    return entry.get("fault") or KIND_FAULT.get(entry.get("kind"))


def entry_evidence(entry: dict) -> str:
    """What decides an entry's fault, in a reader's words."""
    parts = [entry.get("evidence", "").strip()]
    if entry.get("sensitivity") and not parts[0]:
        parts[0] = f"Sensitivity study {entry['sensitivity']}"
    if entry.get("ruled_out"):
        parts.append("Ruled out: " + "; ".join(entry["ruled_out"]))
    return sentences(*parts)


def sentences(*parts: str) -> str:
    """Parts joined as sentences, each ended with one full stop."""
    text = ". ".join(p.strip().rstrip(".") for p in parts if p and p.strip())
    return f"{text}." if text else ""


def ns2_fault(ns2_verdict, ours: str) -> str | None:
    """The fault NS-2 2.35's verdict on the same row decides (None: it decides nothing, e.g. not testable there)."""
    if ours not in UNRESOLVED or not isinstance(ns2_verdict, str):
        return None
    if ns2_verdict == "reproduced":
        return "our_simulator"
    return "paper_text" if ns2_verdict in UNRESOLVED else None


def ns2_evidence(ns2_verdict: str, ours: str) -> str:
    return (f"{NS2}, the paper's own simulator, {NS2_WORDS[ns2_verdict]} on the same grid points and seeds "
            f"(same claim, engine and rule; ours: {ours})")


class Ns2Row(NamedTuple):
    """NS-2 2.35's decision of one claim row: its verdict and the comparisons that could be made
    ({comparison key: Comparison}, Holm-adjusted), which a not_testable verdict still has."""
    verdict: str
    tested: dict


def comparison_key(label: str) -> str:
    """A comparison's label without its numbers: the same comparison on NS-2's output and on ours."""
    return " ".join(t for t in label.split() if not re.fullmatch(r"-?[\d.]+(e[-+]?\d+)?", t))


def reversed_keys(note: str) -> list[str]:
    """The keys of the comparisons a scorecard row's note (Decision.summary) lists as significantly reversed."""
    if "significantly reversed: " not in str(note):
        return []
    tail = str(note).split("significantly reversed: ", 1)[1]
    labels = re.findall(r"(.*?) \((?:p [^)]*|deterministic)\)(?:, |(?=[;.]|$))", tail)
    return [comparison_key(label) for label in labels]


def ns2_holds_where_ours_reverses(theirs: Ns2Row, note: str) -> list:
    """NS-2's comparisons, each holding significantly, for every comparison our row reverses ([] unless all do)."""
    keys = reversed_keys(note)
    held = [theirs.tested.get(k) for k in keys]
    return held if keys and all(c is not None and c.holds for c in held) else []


def row_fault(paper: str, item: str, variant: str, verdict: str, entry: dict | None, ns2_verdicts: dict,
              n_seeds: int = 0, min_seeds: int = 10, note: str = "") -> tuple[str, str]:
    """(fault, evidence) of one claim row, or of a published number outside our range; ('', '') for a row
    that is none of those. `ns2_verdicts` values are NS-2's verdicts or Ns2Row; `note` is our row's note."""
    if verdict == OUTSIDE:
        if entry:
            return entry_fault(entry), entry_evidence(entry)
        return "not_found", "No reason worked out for this number yet."
    if verdict not in UNRESOLVED:
        return "", ""
    declared = entry_fault(entry) if entry else None
    evidence = entry_evidence(entry) if entry else ""
    theirs = ns2_verdicts.get((item, variant)) if paper in OWN_TOOL_PAPERS else None
    theirs_verdict = theirs.verdict if isinstance(theirs, Ns2Row) else theirs
    derived = ns2_fault(theirs_verdict, verdict)
    if derived:
        return derived, sentences(ns2_evidence(theirs_verdict, verdict), evidence)
    held = ns2_holds_where_ours_reverses(theirs, note) if isinstance(theirs, Ns2Row) else []
    if held:         # NS-2 cannot test the whole claim, but what reverses ours holds in NS-2: ours is off
        return "our_simulator", sentences(
            ns2_evidence(theirs_verdict, verdict), "Yet in its runs what reverses ours holds: " +
            "; ".join(c.describe() for c in held), evidence)
    if isinstance(theirs_verdict, str):         # NS-2 ran the row but cannot decide it: the reason's fault stands
        evidence = sentences(ns2_evidence(theirs_verdict, verdict), evidence)
    if declared:
        return declared, evidence
    if 0 < n_seeds < min_seeds:
        return "our_seeds", f"Only {n_seeds} seeds in this run profile."
    return "not_found", evidence or "No reason worked out for this row."


def attribute(card: pd.DataFrame, entry_of, ns2_verdicts: dict | None = None) -> pd.DataFrame:
    """`card` with `fault` and `evidence` columns; `entry_of(paper, item, variant, verdict)` gives a row's
    reason entry (claim_reasons.entry, number_reasons.entry) or None; ns2_verdicts {(claim id, variant):
    NS-2 2.35's verdict}."""
    ns2_verdicts = ns2_verdicts or {}
    pairs = [row_fault(r.paper, r.item, r.variant, r.verdict, entry_of(r.paper, r.item, r.variant, r.verdict),
                       ns2_verdicts,
                       int(r.n_seeds) if pd.notna(r.n_seeds) else 0, note=getattr(r, "note", ""))
             for r in card.itertuples()]
    out = card.copy()
    out["fault"] = [f for f, _ in pairs]
    out["evidence"] = [e for _, e in pairs]
    return out


def words(fault: str) -> str:
    """A fault in a reader's words ('' for none)."""
    return FAULTS.get(fault, fault) if isinstance(fault, str) else ""


def counts(faults) -> dict:
    """{'paper': n, 'ours': n, 'not_found': n, fault: n ...} over the faults of non-reproduced rows."""
    s = pd.Series([f for f in faults if isinstance(f, str) and f])
    per = s.value_counts().to_dict()
    return {"rows": len(s), "paper": int(s.isin(THE_PAPERS).sum()), "ours": int(s.isin(OURS).sum()),
            "not_found": int((s == "not_found").sum()), **{f: int(per.get(f, 0)) for f in FAULTS}}
