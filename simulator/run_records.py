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

A run file (<study>/<point path>/seeds~A-B.jsonl) must also hold records of the study and point its path
names and exactly the seeds its name gives (read_run_file). `python -m simulator.run_records` is the
workflow's check of a study's run files (rule verify_runs), run before the aggregate job so that a refused
file stops the build without costing the study's last table.
"""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

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


def records_of(path):
    """(line number, record) of every line of a JSON-lines file, each verified (blank lines skipped)."""
    with open(path, "rb") as fh:
        for lineno, line in enumerate(fh, start=1):
            if not line.isspace():
                yield lineno, verify(line, path, lineno)


def read(path) -> list[dict]:
    """Every record of a JSON-lines file, each line verified."""
    return [rec for _, rec in records_of(path)]


def heads_of(path):
    """(line number, record up to its metrics) of every line, each verified: what checking a run file needs,
    without decoding its metrics and traces (most of the time of reading a trace study). A line whose seal opens
    it and matches is what the simulator wrote, so its bytes before `,"metrics":` (a key: a quote inside a JSON
    string is escaped) are the record's study, paper, point, params and seed; any other line is read whole."""
    with open(path, "rb") as fh:
        for lineno, line in enumerate(fh, start=1):
            if not line.isspace():
                yield lineno, _head(line) or verify(line, path, lineno)


def _head(line: bytes) -> dict | None:
    want = line[len(_HEAD):_BODY_AT - 2].decode("ascii", "replace")
    cut = line.find(b',"metrics":')
    if cut < 0 or not _opens_with_seal(line, want):
        return None
    try:
        head = json.loads(line[:cut] + b"}")
    except ValueError:
        return None
    return {**head, "metrics": None} if isinstance(head, dict) else None


# --------------------------------------------------------------------------- run files
RECORD_KEYS = ("study", "point_path", "params", "seed", "metrics")


def seeds_in_name(f) -> list[int] | None:
    """seeds~3-5.jsonl -> [3, 4, 5]; None for a name without a seed range."""
    stem = Path(f).name.removesuffix(".jsonl")
    if not stem.startswith("seeds~"):
        return None
    a, _, b = stem.removeprefix("seeds~").partition("-")
    return list(range(int(a), int(b or a) + 1))


def place_in_path(f) -> tuple[str, str] | None:
    """(study, point path) that a run file's path gives: results/runs/<study>/<key~value/...>/seeds~A-B.jsonl
    (the suite's too); None for a file kept elsewhere (no key~value folders above it)."""
    parts = Path(f).parent.parts
    n = len(parts)
    while n > 0 and "~" in parts[n - 1]:
        n -= 1
    if n == len(parts) or n == 0:
        return None
    return parts[n - 1], "/".join(parts[n:])


def read_run_file(f, whole=True) -> list[dict]:
    """The records of one run file, each line's seal verified, each with RECORD_KEYS and the study and point its
    path gives, and exactly the seeds its name gives (a file cut short by a crash or an edit is refused, not
    aggregated with a smaller n). whole=False: the same checks, returning each record up to its metrics (heads_of)."""
    records, place = [], place_in_path(f)
    for lineno, rec in (records_of(f) if whole else heads_of(f)):
        missing = [k for k in RECORD_KEYS if k not in rec]
        if missing:
            raise RunFileError(f"{f}: line {lineno}: run record lacks {', '.join(missing)}; expected keys "
                               f"{', '.join(RECORD_KEYS)}: delete the file and rerun snakemake")
        if place and (rec["study"], rec["point_path"]) != place:
            raise RunFileError(f"{f}: line {lineno}: a record of study {rec['study']}, point {rec['point_path']}, "
                               f"in the run file of study {place[0]}, point {place[1]}: a record moved from another "
                               "file; delete the file and rerun snakemake to regenerate it")
        records.append(rec)
    expected, got = seeds_in_name(f), [r["seed"] for r in records]
    if expected is not None and sorted(got) != expected:
        raise RunFileError(f"{f}: holds seeds {got} but its name says {expected[0]}-{expected[-1]} "
                           f"({len(expected)} records): delete it and rerun snakemake to regenerate it")
    return records


# --------------------------------------------------------------------------- the workflow's check
def check(files, manifest, log) -> int:
    """Read every run file as aggregation will; write `manifest` (`sha256  file` a line, as sha256sum writes) only
    if all hold, else the refusal to `log` and, as one line naming the log, to stderr. A rule of its own before a
    study's aggregation: a refused run file stops the build before the aggregate job starts, so Snakemake never
    deletes the study's previous table, and the check fails again on the next run until the file is fixed."""
    import sys

    try:
        lines = []
        for f in files:
            read_run_file(f, whole=False)
            with open(f, "rb") as fh:
                lines.append(f"{hashlib.file_digest(fh, 'sha256').hexdigest()}  {f}\n")
    except (RunFileError, OSError) as e:
        Path(log).write_text(f"{e}\n")
        print(f"{e} (log: {log})", file=sys.stderr)
        return 1
    tmp = Path(manifest).with_name(Path(manifest).name + ".tmp")
    tmp.write_text("".join(lines))
    tmp.replace(manifest)
    Path(log).write_text(f"{len(files)} run files verified\n")
    return 0


def main(argv=None) -> int:
    import argparse

    ap = argparse.ArgumentParser(description="Verify run files (seals, study, point, seeds); write their sha256 list.")
    ap.add_argument("files", nargs="*", help="run files, <study>/<point path>/seeds~A-B.jsonl")
    ap.add_argument("--manifest", required=True, help="sha256 list to write if every file holds")
    ap.add_argument("--log", required=True, help="where the refusal is written")
    a = ap.parse_args(argv)
    return check(a.files, a.manifest, a.log)


if __name__ == "__main__":
    raise SystemExit(main())
