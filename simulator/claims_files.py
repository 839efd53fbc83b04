"""The claims a build decides: reference_dir/claims.yaml and each paper's own reference_dir/<paper>/claims.yaml.

A paper added by `python -m simulator new-paper` keeps its claims (and their reasons, claim_reasons.yaml)
in its own folder, so adding it changes no shared file. Every reader of claims goes through `read`, which
joins the files in the catalogue's order: the claims lists one after the other, each file's `scoring`
entries (keyed by paper) and its other top-level keys side by side. A key two files both set is refused.
"""
from __future__ import annotations

from pathlib import Path

from simulator.safe_yaml import load_own

FILE = "claims.yaml"


def paper_files(claims_file) -> list:
    """The per-paper claims files beside `claims_file` (reference_dir/<paper>/claims.yaml) that exist."""
    from simulator import paper_catalogue

    root = Path(claims_file).parent
    return [root / p / FILE for p in paper_catalogue.load().papers if (root / p / FILE).is_file()]


def files(claims_file) -> list:
    """`claims_file` and the per-paper files beside it: what the rules take as inputs."""
    return [Path(claims_file), *paper_files(claims_file)]


def join(docs) -> dict:
    """One claims document of several (path, doc) pairs; ValueError naming both files on a key set twice."""
    out, owner = {"claims": [], "scoring": {}}, {}
    for path, doc in docs:
        doc = doc or {}
        out["claims"] += list(doc.get("claims") or [])
        for group in ("scoring",):
            for key, value in (doc.get(group) or {}).items():
                _once(owner, f"{group}.{key}", path)
                out[group][key] = value
        for key, value in doc.items():
            if key not in ("claims", "scoring"):
                _once(owner, key, path)
                out[key] = value
    return out


def _once(owner: dict, key: str, path) -> None:
    if key in owner:
        raise ValueError(f"{path}: {key} is also set in {owner[key]}; allowed: each key in one claims file")
    owner[key] = path


def read(claims_file) -> dict:
    """The joined claims document of `claims_file` and its per-paper files."""
    return join((p, load_own(Path(p).read_text())) for p in files(claims_file))
