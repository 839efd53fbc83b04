"""The error every study, suite and config check raises, and the YAML reader they share.

Kept apart from simulator/study.py so that the checks study.py calls (simulator/point_checks.py,
simulator/study_algorithms.py, simulator/cost.py) can raise it without importing study.py back."""
from __future__ import annotations

from pathlib import Path

import yaml

from simulator.safe_yaml import load_user  # study and config files


class StudyError(ValueError):
    """A study file is invalid; the message says where and how to fix it."""


def read_yaml_mapping(path, what: str = "study") -> dict:
    """The YAML mapping in ``path``; StudyError naming the file for a missing, empty, broken or non-mapping file."""
    path = Path(path)
    try:
        text = path.read_text()
    except FileNotFoundError:
        raise StudyError(f"{path}: {what} file not found") from None
    except (OSError, UnicodeDecodeError) as e:
        raise StudyError(f"{path}: cannot read the {what} file: {e}") from None
    try:
        doc = load_user(text)
    except yaml.YAMLError as e:
        raise StudyError(f"{path}: not valid YAML: {' '.join(str(e).split())}") from None
    keys = ("study, paper, title, model, grid, ..." if what == "study" else "studies, study_dir, profile, profiles, ...")
    if doc is None:
        raise StudyError(f"{path}: (top level): the {what} file is empty; expected a mapping of keys ({keys})")
    if not isinstance(doc, dict):
        raise StudyError(f"{path}: (top level): expected a mapping of keys ({keys}), got a {type(doc).__name__}")
    return doc
