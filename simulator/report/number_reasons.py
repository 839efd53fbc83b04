"""Why a number a paper quotes lies outside our per-run range, and who is at fault: the published-number
rows' counterpart of claim_reasons (reference/<paper>/number_reasons.yaml, format in reference/claim_reasons.yaml).

A paper's file lists entries under `numbers:`; each names the scorecard items it covers with `match`, a
regular expression searched in the item ("^Table VII " covers every row of Table VII), optionally only
in some `variants`, and gives `kind`, `fault`, `evidence` and `reason` as a claim's reason does. The first
entry of the row's paper that matches an outside row explains it; an outside row no entry covers is
counted as not found, with that said."""
from __future__ import annotations

import re
from pathlib import Path

from simulator.report import claim_reasons
from simulator.safe_yaml import load_own

ENTRY_KEYS = {"match", "variants", "kind", "reason", "sensitivity", "fault", "evidence", "ruled_out"}


def load(reference_dir) -> dict:
    """{paper: [entries]} of every paper's number_reasons.yaml under reference_dir ({} when there is none)."""
    out = {}
    for path in claim_reasons.files(reference_dir):
        if path.name == claim_reasons.NUMBERS_FILE:
            out[path.parent.name] = (load_own(path.read_text()) or {}).get("numbers") or []
    return out


def _matches(e: dict, item: str, variant: str) -> bool:
    variants = e.get("variants")
    in_variant = not variants or any(variant == v or str(variant).startswith(f"{v},") for v in variants)
    return in_variant and re.search(e["match"], str(item)) is not None


def entry(numbers: dict, paper: str, item: str, variant: str) -> dict | None:
    """The first entry of `paper` that covers the outside number row (item, variant), None if none does."""
    return next((e for e in numbers.get(paper, []) if _matches(e, item, variant)), None)


def check(path, studies) -> None:
    """ValueError naming the file, the entry and the key when an entry is malformed: unknown keys, no match
    or reason, a match that is not a regular expression, a kind, fault or study that is not allowed."""
    path = Path(path)
    doc = load_own(path.read_text()) or {}
    unknown = set(doc) - {"numbers"}
    if unknown:
        raise ValueError(f"{path}: keys {', '.join(sorted(unknown))}; allowed keys: numbers")
    for i, e in enumerate(doc.get("numbers") or []):
        where = f"{path}: numbers[{i}]"
        if not isinstance(e, dict) or set(e) - ENTRY_KEYS or "match" not in e or "reason" not in e:
            keys = ", ".join(sorted(e)) if isinstance(e, dict) else repr(e)
            raise ValueError(f"{where}: keys {keys}; allowed keys: {', '.join(sorted(ENTRY_KEYS))} "
                             f"(match and reason required)")
        try:
            re.compile(e["match"])
        except (re.error, TypeError) as err:
            raise ValueError(f"{where}: match: {e['match']!r} is not a regular expression ({err})") from None
        if e.get("kind") not in claim_reasons.KINDS:
            raise ValueError(f"{where}: kind: {e.get('kind')!r}; allowed values: {', '.join(claim_reasons.KINDS)}")
        claim_reasons._check_fault(where, e)
        if e.get("sensitivity") and e["sensitivity"] not in studies:
            raise ValueError(f"{where}: sensitivity: {e['sensitivity']!r} is not a study; allowed values: "
                             f"{', '.join(sorted(studies))}")


def _number_rows(card, paper: str):
    """The published-number rows of `paper` in a scorecard (any of verdicts.NUMBER_VERDICTS)."""
    from simulator.report.verdicts import NUMBER_VERDICTS

    return card[(card["paper"] == paper) & card["verdict"].isin(NUMBER_VERDICTS)]


def check_rows(reference_dir, numbers: dict, card) -> None:
    """ValueError naming the file, the entry and its match when an entry covers no published number of its
    paper in `card` (a mistyped item or variant would otherwise explain nothing, silently). A paper with no
    number rows in this build (not built) is not checked."""
    for paper, entries in numbers.items():
        rows = _number_rows(card, paper)
        if rows.empty:
            continue
        pairs = list(zip(rows["item"].astype(str), rows["variant"].astype(str)))
        for i, e in enumerate(entries):
            if not any(_matches(e, item, variant) for item, variant in pairs):
                examples = ", ".join(repr(item) for item in sorted({item for item, _ in pairs})[:4])
                variants = ", ".join(sorted({v for _, v in pairs}))
                raise ValueError(f"{Path(reference_dir) / paper / claim_reasons.NUMBERS_FILE}: numbers[{i}]: "
                                 f"match: {e['match']!r} (variants: {e.get('variants') or 'all'}) covers no "
                                 f"published number of {paper}; its numbers are e.g. {examples}; its variants: "
                                 f"{variants}")


def uncovered(numbers: dict, card) -> list[tuple]:
    """(paper, item, variant) of every outside number row that no entry covers: shown as not found yet."""
    out = card[card["verdict"] == "outside"]
    return [(r.paper, r.item, r.variant) for r in out.itertuples() if entry(numbers, r.paper, r.item, r.variant) is None]
