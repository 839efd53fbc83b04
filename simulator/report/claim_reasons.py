"""Why a claim did not reproduce: the reason a reader can check, shown beside the verdict.

reference/claim_reasons.yaml gives, per claim, reasons for the verdicts our full runs gave (a model
difference, a sensitivity study over a parameter the paper left open, an ambiguity of the paper, too
few seeds), each for some variants and verdicts. `why` picks the one for a decided row; a
not_testable row's reason is its own (the decision says what is missing or why the set-up cannot
stand for the paper's); a row no entry covers says so rather than staying silent.
"""
from __future__ import annotations

from pathlib import Path

from simulator.report import attribution
from simulator.safe_yaml import load_own


FILE = "claim_reasons.yaml"
NUMBERS_FILE = "number_reasons.yaml"   # why a number the paper quotes lies outside our range: numbers_reasons
KINDS = ("model_difference", "sensitivity", "paper_ambiguity", "paper_tool", "too_few_seeds", "unexplained")
ENTRY_KEYS = {"variants", "verdicts", "kind", "reason", "sensitivity", "fault", "evidence", "ruled_out"}
MIN_SEEDS = 10        # the seeds a stochastic study behind a decided claim runs in the default profile


def files(reference_dir) -> list:
    """reference_dir/claim_reasons.yaml and each paper's reference_dir/<paper>/claim_reasons.yaml and
    number_reasons.yaml that exist."""
    from simulator import paper_catalogue

    root = Path(reference_dir)
    papers = paper_catalogue.load().papers
    return [p for p in (root / FILE, *(root / paper / f for paper in papers for f in (FILE, NUMBERS_FILE)))
            if p.is_file()]


def load(reference_dir) -> dict:
    """{claim id: [entries]} of the reasons files of reference_dir ({} when there is none)."""
    out = {}
    for path in files(reference_dir):
        if path.name == FILE:
            out.update((load_own(path.read_text()) or {}).get("reasons", {}))
    return out


def study_file(name: str) -> str:
    """config/studies/.../<name>.yaml, as a reader finds it from the repository's root (a paper's in its folder)."""
    from simulator import study_files

    return study_files.repo_path(name)


def _matches(entry: dict, variant: str, verdict: str) -> bool:
    variants = entry.get("variants")
    in_variant = not variants or any(variant == v or variant.startswith(f"{v},") for v in variants)
    return in_variant and verdict in entry.get("verdicts", ("contradicted", "inconclusive"))


def entry(reasons: dict, claim_id: str, variant: str, verdict: str) -> dict | None:
    """The first entry of `claim_id` that explains `verdict` in `variant`, None if none does."""
    return next((e for e in reasons.get(claim_id, []) if _matches(e, variant, verdict)), None)


def _too_few(n_seeds) -> bool:
    return 0 < n_seeds < MIN_SEEDS


def kind(reasons: dict, claim_id: str, variant: str, verdict: str, n_seeds: int) -> str:
    """The kind of the reason `why` shows (one of KINDS, or 'not_testable' for a not-testable row
    without an entry, '' for reproduced): what the book's first page counts."""
    if verdict == "reproduced":
        return ""
    e = entry(reasons, claim_id, variant, verdict)
    if e is not None:
        return e["kind"]
    if verdict == "not_testable":
        return "not_testable"
    return "too_few_seeds" if _too_few(n_seeds) else "unexplained"


def why(reasons: dict, claim_id: str, variant: str, verdict: str, decision_note: str, n_seeds: int) -> str:
    """The reason shown beside a verdict: '' for reproduced."""
    if verdict == "reproduced":
        return ""
    e = entry(reasons, claim_id, variant, verdict)
    if e is not None:
        # named by its study file: a reader finds it there (config/studies/<name>.yaml)
        study = f" (sensitivity study {study_file(e['sensitivity'])})" if e.get("sensitivity") else ""
        return e["reason"].strip() + study
    if verdict == "not_testable":
        return decision_note
    if _too_few(n_seeds):
        return (f"Only {n_seeds} seeds in this run profile, too few to decide; the default profile runs at least "
                f"{MIN_SEEDS}.")
    return "No explanation has been worked out yet for this verdict."


def check(reasons_file, claim_ids, studies) -> None:
    """ValueError naming the file, claim and key when an entry is malformed or names an unknown claim
    or study."""
    path = Path(reasons_file)
    if not path.exists():
        return
    doc = load_own(path.read_text()) or {}
    for cid, entries in (doc.get("reasons") or {}).items():
        where = f"{path}: {cid}"
        if cid not in claim_ids:
            raise ValueError(f"{where}: no such claim; allowed values: {', '.join(sorted(claim_ids))}")
        for i, e in enumerate(entries):
            unknown = set(e) - ENTRY_KEYS
            if unknown or "reason" not in e:
                raise ValueError(f"{where}[{i}]: keys {', '.join(sorted(e))}; allowed keys: "
                                 f"{', '.join(sorted(ENTRY_KEYS))} (reason required)")
            if e.get("kind") not in KINDS:
                raise ValueError(f"{where}[{i}]: kind: {e.get('kind')!r}; allowed values: {', '.join(KINDS)}")
            _check_fault(f"{where}[{i}]", e)
            if e.get("sensitivity") and e["sensitivity"] not in studies:
                raise ValueError(f"{where}[{i}]: sensitivity: {e['sensitivity']!r} is not a study; allowed values: "
                                 f"{', '.join(sorted(studies))}")


def _check_fault(where: str, e: dict) -> None:
    """Every entry says who is at fault (its `fault`, or the one its kind implies) and what decides it; a
    fault not found yet lists what was ruled out."""
    fault = attribution.entry_fault(e)
    if fault not in attribution.FAULTS:
        implied = ", ".join(f"{k} -> {v}" for k, v in attribution.KIND_FAULT.items())
        raise ValueError(f"{where}: fault: {e.get('fault')!r}; allowed values: {', '.join(attribution.FAULTS)} "
                         f"(required for kind {e.get('kind')}; implied by kind: {implied})")
    ruled_out = e.get("ruled_out")
    if ruled_out is not None and (not isinstance(ruled_out, list) or not all(isinstance(r, str) and r.strip()
                                                                             for r in ruled_out)):
        raise ValueError(f"{where}: ruled_out: {ruled_out!r}; allowed values: a list of sentences")
    if fault == "not_found" and not ruled_out:
        raise ValueError(f"{where}: fault not_found needs ruled_out: the checks that did not explain the row")
    if not attribution.entry_evidence(e):
        raise ValueError(f"{where}: evidence: missing; allowed values: a sentence saying what decides the fault "
                         "(or a sensitivity study, or ruled_out)")
