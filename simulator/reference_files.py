"""Readers of the reference folder's files, shared by simulator/reference.py and each paper's own reference
checks (simulator/report/papers/<paper>/reference_data.py): a CSV with exactly its columns, numbers, allowed
values and YAML, each failing with a ReferenceDataError that names the file, the line and what was expected."""
from __future__ import annotations

import csv
import math
from pathlib import Path

import yaml

from simulator.reference_errors import ReferenceDataError
from simulator.safe_yaml import load_own


def finite(text: str) -> float | None:
    try:
        v = float(text)
    except (TypeError, ValueError):
        return None
    return v if math.isfinite(v) else None


def read_csv(path: Path, columns: list[str]) -> list[tuple[int, dict]]:
    """[(file line, row)] of a CSV with exactly `columns`; every row must have every field."""
    if not path.is_file():
        raise ReferenceDataError(f"{path}: reference file not found; expected a CSV with columns {', '.join(columns)}"
                                 " (see reference/README.md, or set config key reference_dir)")
    try:
        with path.open(newline="") as f:
            lines = list(csv.reader(f))
    except (OSError, UnicodeDecodeError, csv.Error) as e:
        raise ReferenceDataError(f"{path}: cannot read the reference file: {e}") from None
    if not lines or lines[0] != columns:
        got = ", ".join(lines[0]) if lines else "an empty file"
        raise ReferenceDataError(f"{path}: line 1: expected the header {', '.join(columns)}; got {got}")
    rows = []
    for lineno, fields in enumerate(lines[1:], start=2):
        if not fields:
            continue
        if len(fields) != len(columns):
            raise ReferenceDataError(f"{path}: line {lineno}: {len(fields)} fields; expected {len(columns)} "
                                     f"({', '.join(columns)}): the file may be truncated")
        rows.append((lineno, dict(zip(columns, fields))))
    return rows


def expect(path, lineno, column, value, allowed) -> None:
    if value not in allowed:
        raise ReferenceDataError(f"{path}: line {lineno}: {column} {value!r} is not allowed; "
                                 f"allowed values: {', '.join(map(str, allowed))}")


def number(path, lineno, column, text, optional=False) -> float | None:
    if optional and text == "":
        return None
    v = finite(text)
    if v is None:
        raise ReferenceDataError(f"{path}: line {lineno}: {column} {text!r} is not a number; expected a finite number"
                                 + (" or an empty field" if optional else ""))
    return v


def read_yaml(path: Path, what: str):
    if not path.is_file():
        raise ReferenceDataError(f"{path}: reference file not found; expected the {what} (see reference/README.md)")
    try:
        return load_own(path.read_text())
    except (OSError, UnicodeDecodeError, yaml.YAMLError) as e:
        raise ReferenceDataError(f"{path}: not valid YAML: {' '.join(str(e).split())}") from None
