"""A peer simulator's records as reference data: one JSON object a line, each sealed by its sha256.

ns-3's and NS-2's runs are committed under reference/ (reference/ns3/records.jsonl) and read by the
default build instead of running the peer. Each line carries `sha256`, the digest of the line's
canonical JSON without that key, so a truncated file, an edited number or a line pasted from
elsewhere stops the workflow with the file and line (ReferenceDataError), and two record files
compare line by line (what a regeneration changed: `changes`).
"""
from __future__ import annotations

import json
import math
from pathlib import Path

from simulator.reference_errors import ReferenceDataError
from simulator.run_records import SEAL, digest   # one seal for our run files and the peers' records


def canonical(rec: dict) -> str:
    """The record without its seal, as sorted compact JSON (NaN written as NaN, as json.dumps does)."""
    return json.dumps({k: v for k, v in rec.items() if k != SEAL}, sort_keys=True, separators=(",", ":"))


def seal(rec: dict) -> dict:
    return {**rec, SEAL: digest(canonical(rec))}


def write(records, path) -> None:
    """Seal and write `records` in the order given (callers sort them), one line each."""
    lines = [json.dumps(seal(r), sort_keys=True, separators=(",", ":")) for r in records]
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text("".join(line + "\n" for line in lines))
    tmp.replace(path)


def read(path, required=("metrics",)) -> list[dict]:
    """The records of `path`, every seal checked; ReferenceDataError naming file, line and what was expected."""
    path = Path(path)
    if not path.is_file():
        raise ReferenceDataError(f"{path}: reference file not found; expected a peer simulator's records, one "
                                 "JSON object a line (its README says how they were made)")
    text = path.read_text()
    if text and not text.endswith("\n"):
        raise ReferenceDataError(f"{path}: line {text.count(chr(10)) + 1}: no newline at the end; the file may be "
                                 "truncated (every record ends its line)")
    records = []
    for lineno, line in enumerate(text.splitlines(), start=1):
        records.append(_record(path, lineno, line, required))
    if not records:
        raise ReferenceDataError(f"{path}: no records; expected one JSON object a line")
    return records


def _record(path, lineno, line, required) -> dict:
    try:
        rec = json.loads(line)
    except json.JSONDecodeError as e:
        raise ReferenceDataError(f"{path}: line {lineno}: not valid JSON ({e.msg}); the file may be truncated") from None
    if not isinstance(rec, dict):
        raise ReferenceDataError(f"{path}: line {lineno}: expected a JSON object (a record)")
    missing = [k for k in (*required, SEAL) if k not in rec]
    if missing:
        raise ReferenceDataError(f"{path}: line {lineno}: missing key(s) {', '.join(missing)}")
    want = digest(canonical(rec))
    if rec[SEAL] != want:
        raise ReferenceDataError(f"{path}: line {lineno}: the record does not match its sha256 (expected "
                                 f"{rec[SEAL]}, the line's content gives {want}): it was edited after it was made; "
                                 "regenerate it with its peer (the folder's README)")
    return rec


def changes(committed: list[dict], fresh: list[dict], key) -> list[str]:
    """One line per record that a regeneration added, removed or changed (the metrics that moved)."""
    old, new = {key(r): r for r in committed}, {key(r): r for r in fresh}
    out = []
    for k in sorted(set(old) | set(new), key=str):
        if k not in new:
            out.append(f"{k}: committed, not regenerated")
        elif k not in old:
            out.append(f"{k}: new (not committed)")
        elif canonical(old[k]) != canonical(new[k]):
            moved = [m for m in sorted(set(old[k].get("metrics", {})) | set(new[k].get("metrics", {})))
                     if not _same(old[k].get("metrics", {}).get(m), new[k].get("metrics", {}).get(m))]
            out.append(f"{k}: changed" + (f" ({', '.join(moved)})" if moved else " (not in its metrics)"))
    return out


def _same(a, b) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return a == b
