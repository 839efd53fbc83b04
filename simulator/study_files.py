"""Where study files are and which ones a config enables.

A study is a YAML file named after it, anywhere under study_dir: a paper's studies may sit in a folder of
their own (config/studies/<paper>/, as `python -m simulator new-paper` makes them), so two files of the same
name are refused. The config's `studies:` list names studies; its entry `catalogue` stands for every
study of the catalogue's chapters (catalogue.yaml) that is run by the default build.
"""
from __future__ import annotations

from pathlib import Path

CATALOGUE_ENTRY = "catalogue"


class StudyFilesError(ValueError):
    """Two study files share a name, or a name has no file; the message names both and the folder."""


def study_files(study_dir) -> dict:
    """{study name: its file} of every *.yaml under `study_dir` (sub-folders included), by name."""
    found = {}
    for path in sorted(Path(study_dir).rglob("*.yaml")):
        if path.stem in found:
            raise StudyFilesError(f"{path}: a study named {path.stem!r} is also {found[path.stem]}; "
                                  f"allowed: one file per study name under {study_dir}")
        found[path.stem] = path
    return found


def find(study_dir, name: str) -> Path:
    """The file of study `name` under `study_dir` (its sub-folders too); study_dir/<name>.yaml if there is none."""
    return study_files(study_dir).get(name, Path(study_dir) / f"{name}.yaml")


def repo_path(name: str) -> str:
    """'config/studies/<paper>/<name>.yaml': a repository study's file as a reader finds it from the root."""
    root = Path(__file__).resolve().parents[1]
    return find(root / "config" / "studies", name).relative_to(root).as_posix()


def enabled_names(names) -> list:
    """The config's `studies:` list with `catalogue` replaced by the catalogue's default-build studies."""
    from simulator import paper_catalogue

    out = []
    for name in names:
        expanded = paper_catalogue.load().default_studies() if name == CATALOGUE_ENTRY else [name]
        out += [n for n in expanded if n not in out]
    return out
