"""Our simulator's run records as evidence: one JSON object a line, each sealed by its sha256.

Every writer of run records (simulator/cli.py's run files, the suite's, the validation's own side) writes
each line with `seal`, and every reader reads it back with `verify`, so an edited metric, a NaN typed
into a record, a forged commit or version, or a line cut short stops the reader with the file and line.

The seal is the one simulator/peer_records.py puts on a peer simulator's records: the key "sha256"
holding the sha256 of the record's canonical JSON without that key. Canonical JSON here is
    json.dumps(record_without_sha256, separators=(",", ":"), allow_nan=True)
with the keys in the order the line holds them: a run file keeps the simulator's key order, which
gives the tables their metric order and the trace tables their column order. NaN and Infinity are
written as JSON's NaN/Infinity tokens, so a NaN the simulator wrote is covered by the seal and one
typed in by hand is not. A peer's lines are written with sorted keys, for which both definitions agree,
so `verify` reads reference/ns3/records.jsonl too.

The line is written with the seal first, `{"sha256":"<hex>",<rest of the canonical JSON>`, so that
checking it is one sha256 over the line's bytes, with no second serialisation of a long trace.
"""
from __future__ import annotations

import hashlib
import json

SEAL = "sha256"
# The run file format, a parameter of every rule that writes run files: results of a checkout whose run files
# had no seal rerun by Snakemake's params trigger instead of being refused by the next aggregation.
FORMAT = "json-lines, sha256-sealed"
_HEAD = '{"' + SEAL + '":"'
_BODY_AT = len(_HEAD) + 64 + 2          # after '{"sha256":"<64 hex>",'


class RunFileError(ValueError):
    """A run file does not hold what the simulator wrote; the message names the file and line and what to do."""


def canonical(record: dict) -> str:
    """The record without its seal as compact JSON, keys in the record's own order."""
    return json.dumps({k: v for k, v in record.items() if k != SEAL}, separators=(",", ":"))


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def seal(record: dict) -> str:
    """The record's line (without the newline): its canonical JSON, opened by the seal."""
    body = canonical(record)
    return _HEAD + digest(body) + '",' + body[1:] if body != "{}" else _HEAD + digest(body) + '"}'


def verify(line: str | bytes, file, lineno: int) -> dict:
    """The record of one line of `file`; RunFileError naming file and line if the line is not JSON, has no
    seal (a record of an older simulator version) or does not match its seal (edited after it was written)."""
    line = line.encode() if isinstance(line, str) else line
    try:
        rec = json.loads(line)
    except (json.JSONDecodeError, UnicodeDecodeError) as e:
        raise RunFileError(f"{file}: line {lineno}: not valid JSON ({getattr(e, 'msg', e)}); the file is damaged "
                           "(cut short or edited): delete it and rerun snakemake to regenerate it") from None
    if not isinstance(rec, dict):
        raise RunFileError(f"{file}: line {lineno}: expected a JSON object (a run record); the file is damaged: "
                           "delete it and rerun snakemake to regenerate it")
    if SEAL not in rec:
        raise RunFileError(f"{file}: line {lineno}: the record has no sha256 seal: it was written by an older "
                           "version of the simulator, or by hand; delete the file and rerun snakemake to "
                           "regenerate it")
    want = rec[SEAL]
    if not (isinstance(want, str) and (_opens_with_seal(line, want) or digest(canonical(rec)) == want)):
        raise RunFileError(f"{file}: line {lineno}: the record does not match its sha256 seal: it was changed "
                           "after the simulator wrote it (an edited value, a NaN typed in, a forged provenance "
                           "field); a run file is evidence: delete it and rerun snakemake to regenerate it")
    return rec


def _opens_with_seal(line: bytes, want: str) -> bool:
    """True if the line is written as `seal` writes it and the JSON after its seal matches the seal: one sha256
    over the line's bytes (a line written otherwise, e.g. a peer's sorted one, is checked by `canonical`)."""
    if len(want) != 64 or not line.startswith((_HEAD + want + '",').encode()):
        return False
    end = len(line) - 1 if line.endswith(b"\n") else len(line)
    h = hashlib.sha256(b"{")
    h.update(memoryview(line)[_BODY_AT:end])      # no copy of a long trace line
    return h.hexdigest() == want


def read(path) -> list[dict]:
    """Every record of a JSON-lines file, each line verified (blank lines skipped)."""
    records = []
    with open(path, "rb") as fh:
        for lineno, line in enumerate(fh, start=1):
            if not line.isspace():
                records.append(verify(line, path, lineno))
    return records
