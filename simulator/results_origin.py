"""Which study file each study's results in results/ came from, so two configurations never mix.

Study names are what results are filed under (results/runs/<study>/, results/tables/<study>.csv).
Two study folders may hold a study of the same name (config/test/studies reuses the real names
on purpose, so the tiny profile builds the same report); run one after the other in the same
checkout and the second would replace the first's tables and mix its run files in. So the
workflow records, when it starts jobs, the study file behind each study's results
(results/origin.json) and refuses, before any job, a configuration whose study file of the
same name is a different file that exists (a recorded file that no longer exists was moved: the results
are kept and the new place recorded).
"""
from __future__ import annotations

import json
import os
from pathlib import Path

from simulator.study_errors import StudyError

ORIGIN = "origin.json"


def _norm(path) -> str:
    """A study file as the workflow names it: relative to the working directory when inside it."""
    p = Path(path)
    if p.is_absolute():
        try:
            p = p.resolve().relative_to(Path.cwd().resolve())
        except ValueError:
            pass
    return os.path.normpath(str(p)).replace(os.sep, "/")


def read_origin(results: Path) -> dict:
    """{study name: study file} recorded in results/origin.json ({} when there is none)."""
    f = Path(results) / ORIGIN
    if not f.exists():
        return {}
    try:
        doc = json.loads(f.read_text())
    except (OSError, ValueError) as e:
        raise StudyError(f"{f}: unreadable ({e}); it records which study file made each study's results. "
                         f"Delete it only if results/ holds results of this configuration alone") from None
    return {str(k): str(v) for k, v in doc.get("studies", {}).items()}


def _still_there(recorded: str, results: Path) -> bool:
    """The recorded study file still exists (relative to the folder holding results/). A file that is gone was
    moved or renamed (a paper's studies into config/studies/<paper>/): its results are this study's, kept."""
    p = Path(recorded)
    return (p if p.is_absolute() else Path(results).resolve().parent / p).exists()


def check_origin(results: Path, study_files: dict, source: str) -> None:
    """Refuse when results/ holds results of a same-named study from another study file.

    ``study_files`` maps each enabled study to its file; ``source`` names where study_dir is set.
    """
    recorded = read_origin(results)
    clashes = [(name, recorded[name], _norm(f)) for name, f in study_files.items()
               if name in recorded and recorded[name] != _norm(f) and _still_there(recorded[name], results)]
    if clashes:
        name, before, now = clashes[0]
        results = _norm(results)
        raise StudyError(
            f"{source}: study_dir: study {name!r} would be read from {now}, but {results}/ holds {name!r} results "
            f"made from {before} ({len(clashes)} such stud{'y' if len(clashes) == 1 else 'ies'}: "
            f"{', '.join(c[0] for c in clashes)}); running would replace them. Allowed: the study files that made "
            f"these results, or another folder: move {results}/ away (or run this configuration in a copy "
            f"of the repository) first")


def record_origin(results: Path, study_files: dict) -> None:
    """Add the enabled studies' files to results/origin.json (written atomically)."""
    results = Path(results)
    recorded = read_origin(results)
    recorded.update({name: _norm(f) for name, f in study_files.items()})
    results.mkdir(parents=True, exist_ok=True)
    tmp = results / f".{ORIGIN}.tmp"
    tmp.write_text(json.dumps({"studies": dict(sorted(recorded.items()))}, indent=1) + "\n")
    os.replace(tmp, results / ORIGIN)
