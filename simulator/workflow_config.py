"""The workflow config (config/config.yaml and each --configfile): checked before any job starts.

Every problem raises simulator.study_errors.StudyError naming the file holding the mistake (or
`--config`), the key and the allowed values. `python -m simulator validate config/config.yaml`
checks a config alone, loads its enabled studies and checks its reference folder.
"""
from __future__ import annotations

from pathlib import Path

import yaml

from simulator.safe_yaml import load_own, load_user
from simulator.schema_messages import schema_message
from simulator.study import load_study, nearest
from simulator.study_errors import StudyError, read_yaml_mapping
from simulator.study_files import CATALOGUE_ENTRY, StudyFilesError, enabled_names, study_files


CONFIG_SCHEMA = Path("workflow") / "schemas" / "config.schema.yaml"


def find_config_schema(start) -> Path | None:
    """workflow/schemas/config.schema.yaml in ``start`` or one of its parents (the repository root)."""
    start = Path(start).resolve()
    for d in [start, *start.parents]:
        if (d / CONFIG_SCHEMA).exists():
            return d / CONFIG_SCHEMA
    return None


def _config_errors(doc: dict, schema: dict, partial: bool) -> list:
    if partial:  # one file of several: keys may come from another file
        schema = {k: v for k, v in schema.items() if k != "required"}
    import jsonschema   # here, not at import: commands that validate no file do not pay for it

    validator = jsonschema.Draft202012Validator(schema)
    return sorted(validator.iter_errors(doc), key=lambda e: [str(p) for p in e.absolute_path])


def check_config(config: dict, files, schema_path, overrides=None, base_dir=".") -> None:
    """Check the workflow config before any job starts; StudyError naming the file, key and allowed values.

    ``files`` are the config files in merge order (config/config.yaml, then each --configfile),
    ``overrides`` the ``--config KEY=VALUE`` values, ``config`` the merged result; study_dir is
    relative to ``base_dir`` (the working directory of the workflow).
    """
    files = [Path(f) for f in files]
    overrides = dict(overrides or {})
    schema = load_own(Path(schema_path).read_text())
    docs = {f: read_yaml_mapping(f, "config") for f in files}
    for f, doc in docs.items():  # each file alone, so the message names the file holding the mistake
        errors = _config_errors(doc, schema, partial=len(files) > 1)
        if errors:
            raise StudyError("\n".join(f"{f}: {schema_message(e, schema)}" for e in errors))

    def source(key) -> str:
        if key in overrides:
            return "--config"
        holders = [str(f) for f in files if key in docs[f]]
        return holders[-1] if holders else " + ".join(map(str, files)) or "config"

    errors = _config_errors(config, schema, partial=False)
    if errors:
        e = errors[0]
        key = e.absolute_path[0] if e.absolute_path else None
        raise StudyError("\n".join(f"{source(key) if key else source(None)}: {schema_message(e, schema)}" for e in errors))

    profiles = config["profiles"]
    profile = config.get("profile", "default")
    if profile not in profiles:
        raise StudyError(f"{source('profile')}: profile: {profile!r} is not a profile{nearest(profile, profiles)}; "
                         f"allowed values (keys of profiles): {', '.join(profiles)}")
    allow_algorithm_folders(config.get("algorithm_folders") or [], f"{source('algorithm_folders')}: algorithm_folders",
                            base_dir)
    check_extra_algorithms(config.get("extra_algorithms") or {}, source("extra_algorithms"))
    study_dir = Path(config.get("study_dir", "config/studies"))
    full_dir = study_dir if study_dir.is_absolute() else Path(base_dir) / study_dir
    if not full_dir.is_dir():
        raise StudyError(f"{source('study_dir')}: study_dir: directory {str(study_dir)!r} not found; "
                         f"allowed values: a directory of study YAML files, e.g. 'config/studies'")
    try:
        available = sorted(study_files(full_dir))
    except StudyFilesError as e:
        raise StudyError(f"{source('study_dir')}: study_dir: {e}") from None
    for i, name in enumerate(config["studies"]):
        if name != CATALOGUE_ENTRY and name not in available:
            raise StudyError(
                f"{source('studies')}: studies[{i}]: no study file {str(study_dir / (name + '.yaml'))!r}"
                f"{nearest(name, available)}; allowed values (files in {study_dir}): {', '.join(available) or '(none)'}"
            )


def allow_algorithm_folders(folders, where: str, base_dir=".") -> None:
    """Folders outside the repository whose user algorithms may run (the config's algorithm_folders,
    or --algorithm-folder), each an existing directory, relative to `base_dir` unless absolute;
    StudyError naming `where` and the folder otherwise."""
    from simulator.tcp.cc import user
    found = []
    for i, folder in enumerate(folders):
        full = Path(folder) if Path(folder).is_absolute() else Path(base_dir) / folder
        if not full.is_dir():
            raise StudyError(f"{where}[{i}]: {folder!r} is not a directory; allowed values: existing folders "
                             "(relative to the repository root, or absolute) whose algorithms may run")
        found.append(full)
    user.allow_folders(found)


def check_extra_algorithms(extra: dict, where: str) -> None:
    """Each of the config's extra_algorithms imports, is a CongestionControl with its hooks and has a
    name of its own (simulator/tcp/cc/user.py); StudyError naming the config file and the key."""
    from simulator.tcp.cc import catalogue, user
    for name, source in extra.items():
        try:
            catalogue.add_user(user.parse(str(name), source))
        except user.UserAlgorithmError as e:
            raise StudyError(f"{where}: extra_algorithms.{name}: {e}") from None


def _from_root(root: Path, f: Path) -> Path:
    """``f`` as the workflow names it: relative to the repository root when inside it."""
    try:
        return f.resolve().relative_to(root.resolve())
    except ValueError:
        return f.resolve()


def validate_config_file(path) -> list:
    """``python -m simulator validate config/config.yaml``: check the config alone and load its enabled studies.

    Returns the loaded studies. Paths in the config are relative to the repository root (the folder
    holding workflow/schemas), as for Snakemake.
    """
    path = Path(path)
    schema = find_config_schema(path.parent) or find_config_schema(Path.cwd())
    if schema is None:
        raise StudyError(f"{path}: cannot find {CONFIG_SCHEMA} above the file or the working directory")
    root = schema.parents[2]
    config = read_yaml_mapping(path, "config")
    check_config(config, [path], schema, base_dir=root)
    study_dir = Path(config.get("study_dir", "config/studies"))
    if not study_dir.is_absolute():
        study_dir = root / study_dir
        try:  # name files as the user would type them
            study_dir = study_dir.resolve().relative_to(Path.cwd().resolve())
        except ValueError:
            pass
    extra = config.get("extra_algorithms") or {}
    files = study_files(study_dir)
    studies = [load_study(files.get(name, study_dir / f"{name}.yaml"), extra) for name in enabled_names(config["studies"])]
    seeds = config["profiles"][config.get("profile", "default")]["seeds"]
    for study in studies:
        study.check_runs(seeds)
    from simulator.results_origin import check_origin
    check_origin(root / "results", {s.name: _from_root(root, s.file) for s in studies}, str(path))
    _check_reference(root, config.get("reference_dir", "reference"), study_dir)
    return studies


def _check_reference(root: Path, reference_dir, study_dir: Path) -> None:
    """The config's reference folder (reference/ by default), as the workflow checks it before any job."""
    from simulator.reference import check_reference_dir
    from simulator.reference_errors import ReferenceDataError

    folder = Path(reference_dir) if Path(reference_dir).is_absolute() else root / reference_dir
    known = known_studies(root, study_dir)
    try:
        check_reference_dir(folder, known)
    except ReferenceDataError as e:
        raise StudyError(f"invalid reference data (config key reference_dir: {reference_dir!r}):\n{e}") from None


def known_studies(root: Path, study_dir) -> dict:
    """{study name: its model} of every study claims may name: config/studies and the config's study_dir."""
    return {name: _model_of(p) for d in (Path(root) / "config/studies", Path(study_dir))
            for name, p in study_files(d).items()}


def _model_of(study_file: Path) -> str:
    """The model a study file names (M/M/1 when it names none); an unreadable file counts as M/M/1 here,
    its own check reports it."""
    from simulator.safe_yaml import load_own

    try:
        doc = load_own(study_file.read_text())
    except (OSError, yaml.YAMLError):
        return "mm1"
    model = doc.get("model", "mm1") if isinstance(doc, dict) else "mm1"
    from simulator.registry import MODELS
    return model if model in MODELS else "mm1"


def is_config_file(path) -> bool:
    """A workflow config (top-level `studies:`/`profiles:` and no `study:`) rather than a study file."""
    try:
        doc = load_user(Path(path).read_text())
    except (OSError, UnicodeDecodeError, yaml.YAMLError):
        return Path(path).name.startswith("config")
    if isinstance(doc, dict):
        return "study" not in doc and bool({"studies", "profiles"} & set(doc))
    return Path(path).name.startswith("config")


def config_file_error(path) -> str:
    """'' if ``path`` reads as a YAML mapping (or does not exist), else the message naming the file."""
    if not Path(path).exists():
        return ""
    try:
        read_yaml_mapping(path, "config")
    except StudyError as e:
        return str(e)
    return ""
