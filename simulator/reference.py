"""The papers' published numbers and claims, tracked in the repository's reference/ folder.

Layout of a reference folder (config key `reference_dir`, default `reference`):

    claims.yaml, claim_reasons.yaml the format of claims and reasons (a folder of one's own may hold claims here)
    metric_thresholds.yaml          each metric's resolution and practical threshold
    <paper>/claims.yaml             a paper's claims (and claim_reasons.yaml: why one did not reproduce)
    <paper>/paper_numbers.csv       numbers a paper states in its text (catalogue.yaml `paper_numbers`)
    <paper>/...                     a paper's own files (M/M/1 tables, QtColFair results, the Mininet poster's
                                    numbers, NS-2 2.35's records), checked by the paper's `reference_check`
                                    (simulator/report/papers/<paper>/reference_data.py)

`check_reference_dir` validates them all when the workflow starts, before any job: a missing, truncated or
malformed file raises ReferenceDataError naming the file, the row (file line) and what was expected. Each
README in the folder names the source of its numbers.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

from simulator.reference_errors import ReferenceDataError
from simulator.reference_files import expect, number, read_csv, read_yaml

CLAIMS = "claims.yaml"
def paper_numbers_files() -> dict:
    """paper -> the numbers it states in its text that its chapter draws beside ours (catalogue.yaml
    `paper_numbers`; simulator/report/paper_values.py)."""
    from simulator import paper_catalogue
    return {p.id: p.paper_numbers for p in paper_catalogue.load().papers.values() if p.paper_numbers}
PAPER_NUMBER_COLUMNS = ["source", "study", "metric", "algorithm", "where", "low", "high", "unit", "words"]
PAPER_NUMBER_WHERE = re.compile(r"^[a-z_]+(=|>)[A-Za-z0-9_.]+$")   # 'queue=fq', 'flows>1'; ';' joins several


CLAIM_KEYS = {"id", "paper", "claim", "stated_in", "studies", "metrics", "decide"}
CLAIM_OPTIONAL_KEYS = {"trace", "source"}
# whose statement a claim is: the paper's (the default) or our own check (counted apart on every page)
CLAIM_SOURCES = ("paper", "ours")
CLAIM_ID = re.compile(r"^[a-z0-9]+-[0-9]+$")


# --------------------------------------------------------------------------- the files every paper may have
def check_paper_numbers(path, studies) -> list[dict]:
    """Rows of a paper's stated numbers: a known study, conditions 'name=value' or 'name>number' joined
    by ';', finite low <= high, and a source, unit and the paper's words."""
    path = Path(path)
    rows = read_csv(path, PAPER_NUMBER_COLUMNS)
    for lineno, r in rows:
        expect(path, lineno, "study", r["study"], sorted(studies))
        low, high = (number(path, lineno, c, r[c]) for c in ("low", "high"))
        if low > high:
            raise ReferenceDataError(f"{path}: line {lineno}: low {low:g} above high {high:g}; expected low <= high")
        for cond in filter(None, r["where"].split(";")):
            if not PAPER_NUMBER_WHERE.match(cond):
                raise ReferenceDataError(f"{path}: line {lineno}: where {cond!r}; expected name=value or name>number")
        for column in ("source", "metric", "algorithm", "unit", "words"):
            if not r[column].strip():
                raise ReferenceDataError(f"{path}: line {lineno}: {column} is empty")
    if not rows:
        raise ReferenceDataError(f"{path}: no rows; expected the numbers the paper states (see its README)")
    return [dict(r, low=float(r["low"]), high=float(r["high"])) for _, r in rows]


def check_papers(catalogue_file=None) -> dict:
    """{paper id: catalogue entry}: the papers claims may name (catalogue.yaml, checked)."""
    from simulator import paper_catalogue
    try:
        return dict(paper_catalogue.load(catalogue_file).papers)
    except paper_catalogue.CatalogueError as e:
        raise ReferenceDataError(str(e)) from None


def check_claims(path, papers, studies, thresholds_beside=None) -> list[dict]:
    """Claims with id, paper (a paper of catalogue.yaml), claim, stated_in, studies (existing study names), metrics."""
    path = Path(path)
    doc = read_yaml(path, "list of claims")
    if not isinstance(doc, dict) or not isinstance(doc.get("claims"), list):
        raise ReferenceDataError(f"{path}: expected a mapping with a list `claims:`")
    seen = set()
    for i, c in enumerate(doc["claims"]):
        where = f"{path}: claims[{i}]"
        if not isinstance(c, dict):
            raise ReferenceDataError(f"{where}: expected a mapping with keys {', '.join(sorted(CLAIM_KEYS))}")
        cid = c.get("id")
        if not isinstance(cid, str) or not CLAIM_ID.match(cid):
            raise ReferenceDataError(f"{where}.id: {cid!r}; expected an id such as 'mm1-1' (paper prefix, '-', number)")
        where = f"{path}: claim {cid}"
        if cid in seen:
            raise ReferenceDataError(f"{where}: the id is used twice; expected each id once")
        seen.add(cid)
        _check_claim_keys(where, c, papers, studies)
        if isinstance(studies, dict):
            _check_decide(path, c, doc.get("scoring", {}), studies)
    _check_thresholds(thresholds_beside or path, doc["claims"])
    return doc["claims"]


def _check_all_claims(claims_file, papers, studies) -> list[dict]:
    """check_claims of reference_dir/claims.yaml and of each paper's own claims file; an id used in two files
    is refused like one used twice in one."""
    from simulator import claims_files

    claims, where = check_claims(claims_file, papers, studies), {}
    for path in claims_files.paper_files(claims_file):
        claims_here = check_claims(path, papers, studies, thresholds_beside=claims_file)   # the folder's thresholds
        for c in claims_here:
            if any(c["id"] == other["id"] for other in claims):
                raise ReferenceDataError(f"{path}: claim {c['id']}: the id is also used in {where.get(c['id'], claims_file)}; "
                                         "expected each id once")
            where[c["id"]] = path
        claims += claims_here
    return claims


def _check_thresholds(claims_path, claims) -> None:
    """Every metric or statistic a claim reads has a declared resolution and practical threshold."""
    from simulator.report import metric_thresholds

    path = metric_thresholds.path_beside(claims_path)
    try:
        metric_thresholds.check(claims, metric_thresholds.load(path), path)
    except metric_thresholds.ThresholdError as e:
        raise ReferenceDataError(str(e)) from None


def _check_reasons(root, claims, studies) -> None:
    """claim_reasons.yaml names existing claims and studies, with known keys and kinds; number_reasons.yaml
    too (simulator/report/number_reasons.py)."""
    from simulator.report import claim_reasons, number_reasons

    try:
        for path in claim_reasons.files(root):
            if path.name == claim_reasons.NUMBERS_FILE:
                number_reasons.check(path, studies)
            else:
                claim_reasons.check(path, {c["id"] for c in claims}, studies)
    except ValueError as e:
        raise ReferenceDataError(str(e)) from None


def _check_decide(path, claim, scoring, models_of) -> None:
    """The claim's decide block names only what the engine and the models know (claim_spec)."""
    from simulator.report import claim_spec

    try:
        claim_spec.check(claim, scoring, models_of)
    except claim_spec.ClaimSpecError as e:
        raise ReferenceDataError(f"{path}: {e}") from None


def _check_claim_keys(where, c, papers, studies) -> None:
    missing, unknown = CLAIM_KEYS - set(c), set(c) - CLAIM_KEYS - CLAIM_OPTIONAL_KEYS
    if missing:
        raise ReferenceDataError(f"{where}: missing key(s) {', '.join(sorted(missing))}; every claim has "
                                 f"{', '.join(sorted(CLAIM_KEYS))}")
    if unknown:
        raise ReferenceDataError(f"{where}: unknown key(s) {', '.join(sorted(unknown))}; allowed keys: "
                                 f"{', '.join(sorted(CLAIM_KEYS | CLAIM_OPTIONAL_KEYS))}")
    _expect_claim(where, "paper", c["paper"], sorted(papers))
    for key in ("claim", "stated_in"):
        if not isinstance(c[key], str) or not c[key].strip():
            raise ReferenceDataError(f"{where}: {key}: expected non-empty text")
    for key in ("studies", "metrics"):
        if not isinstance(c[key], list) or not c[key] or not all(isinstance(v, str) and v for v in c[key]):
            raise ReferenceDataError(f"{where}: {key}: expected a non-empty list of names")
    for study in c["studies"]:
        _expect_claim(where, "studies", study, sorted(studies))
    if "trace" in c and not isinstance(c["trace"], bool):
        raise ReferenceDataError(f"{where}: trace: expected true or false")
    if "source" in c and c["source"] not in CLAIM_SOURCES:
        raise ReferenceDataError(f"{where}: source: {c['source']!r}; allowed values: {', '.join(CLAIM_SOURCES)}")
    if isinstance(studies, dict):
        _check_claim_metrics(where, c, studies)


def _check_claim_metrics(where, c, models_of) -> None:
    """Each metric a claim reads is one its studies' models report (a trace column too for trace: true)."""
    from simulator import registry

    models = [registry.model(models_of[s]) for s in c["studies"]]
    traces = bool(c.get("trace"))
    for metric in c["metrics"]:
        if not any(m.reports(metric, traces) for m in models):
            allowed = sorted({x for m in models for x in m.metrics + (m.trace if traces else ())})
            raise ReferenceDataError(f"{where}: metrics: {metric!r} is not reported by model "
                                     f"{', '.join(sorted({m.name for m in models}))} of its studies; allowed values: "
                                     f"{', '.join(allowed)}")


def _expect_claim(where, key, value, allowed) -> None:
    if value not in allowed:
        raise ReferenceDataError(f"{where}: {key}: {value!r} is not allowed; allowed values: {', '.join(allowed)}")


def check_reference_dir(reference_dir, studies) -> dict:
    """Validate every file of a reference folder; {name: parsed content}. `studies`: the study names claims may
    use, or {study name: model name}, and then each claim's metrics are checked against what the models report."""
    root = Path(reference_dir)
    if not root.is_dir():
        raise ReferenceDataError(f"{root}: reference folder not found; it holds the papers' numbers and claims "
                                 "(the repository's reference/; config key reference_dir)")
    papers = check_papers()
    claims = _check_all_claims(root / CLAIMS, papers, studies)
    _check_reasons(root, claims, studies)
    checked = {"papers": papers, "claims": claims,
               "paper_numbers": {p: check_paper_numbers(root / f, studies) for p, f in paper_numbers_files().items()}}
    for paper in papers.values():       # each paper's own files (catalogue.yaml `reference_check`)
        if paper.reference_check:
            module, name = paper.reference_check.split(":")
            checked.update(getattr(importlib.import_module(module), name)(root))
    return checked


def claims_of(reference_dir, paper) -> dict:
    """{claim id: claim} of one paper, in file order (the file is assumed checked)."""
    from simulator import claims_files
    doc = claims_files.read(Path(reference_dir) / CLAIMS)
    return {c["id"]: c for c in doc["claims"] if c["paper"] == paper}
