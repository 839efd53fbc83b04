# Shared helpers: config + study validation, grid expansion, input functions.
# Everything here runs when the workflow is parsed, i.e. before any job starts:
# a bad config or study aborts the run with the validation message.
import json
import os
import re
import shlex
import sys
from pathlib import Path

from snakemake.exceptions import WorkflowError
from snakemake.utils import min_version, validate

import simulator
from simulator import paper_catalogue, registry
from simulator.run_records import FORMAT as RUN_FORMAT
from simulator.reference import check_reference_dir
from simulator.reference_errors import ReferenceDataError
from simulator.report.chapter_studies import claimed
from simulator.results_origin import check_origin, record_origin
from simulator.run_jobs import parse_run_name, share_out
from simulator.study import load_study, nearest, point_from_path
from simulator.study_errors import StudyError, read_yaml_mapping
from simulator.study_files import StudyFilesError, enabled_names, study_files
from simulator.workflow_config import check_config, known_studies

min_version("9.0")


# ----------------------------------------------------------------- config
CONFIG_SCHEMA = Path(workflow.current_basedir).parent / "schemas" / "config.schema.yaml"


def get_config_files():
    """Config files in merge order: the Snakefile's configfile, then each --configfile."""
    cli = [Path(f) for f in workflow.overwrite_configfiles]
    directive = [Path(f) for f in workflow.configfiles if Path(f).absolute() not in {c.absolute() for c in cli}]
    return [Path(os.path.relpath(f)) if Path(f).is_absolute() else f for f in directive + cli]


try:  # clear messages (file, key, allowed values) before snakemake's own schema check
    check_config(config, get_config_files(), CONFIG_SCHEMA, overrides=workflow.config_settings.config)
except StudyError as e:
    raise WorkflowError(f"invalid workflow config:\n{e}") from None
validate(config, "../schemas/config.schema.yaml")  # fills in defaults
N_SEEDS = config["profiles"][config["profile"]]["seeds"]
STUDY_DIR = Path(config["study_dir"])


def _load_enabled_studies():
    """{name: Study} for every enabled study; raises WorkflowError on the first invalid one."""
    try:
        files = study_files(STUDY_DIR)
    except StudyFilesError as e:
        raise WorkflowError(f"config: study_dir: {e}") from None
    available = sorted(files)
    studies = {}
    for name in enabled_names(config["studies"]):
        path = files.get(name, STUDY_DIR / f"{name}.yaml")
        if not path.exists():
            raise WorkflowError(
                f"config: studies: no study file {path}{nearest(name, available)}; "
                f"allowed values (files in {STUDY_DIR}): {', '.join(available) or '(none)'}"
            )
        try:
            studies[name] = load_study(path, config.get("extra_algorithms"))
            studies[name].check_runs(N_SEEDS)
        except StudyError as e:
            raise WorkflowError(f"invalid study file:\n{e}") from None
    return studies


STUDIES = _load_enabled_studies()
STUDY_FILES = {name: Path(s.file) for name, s in STUDIES.items()}     # a paper's may sit in a sub-folder


def _study_dir_source():
    """The config file (or --config) that set study_dir, for messages."""
    if "study_dir" in workflow.config_settings.config:
        return "--config"
    holders = [str(f) for f in get_config_files() if "study_dir" in (read_yaml_mapping(f, "config") or {})]
    return holders[-1] if holders else "config/config.yaml"


try:  # a same-named study from another study folder must not replace these results
    check_origin(Path("results"), STUDY_FILES, _study_dir_source())
except StudyError as e:
    raise WorkflowError(f"results/ belongs to another configuration:\n{e}") from None


onstart:
    record_origin(Path("results"), STUDY_FILES)


def _check_reference_data():
    """Every file of reference_dir, before any job; claims may name any study of config/studies or study_dir."""
    known = known_studies(Path("."), STUDY_DIR)     # study name -> model: claims' metrics are checked too
    try:
        return check_reference_dir(config["reference_dir"], known)
    except ReferenceDataError as e:
        raise WorkflowError(f"invalid reference data (config key reference_dir: {config['reference_dir']!r}):\n{e}") from None


REFERENCE = _check_reference_data()

# Jobs call the simulator with snakemake's own interpreter (the venv), or the env's python under --use-conda.
_deploy = getattr(getattr(workflow, "deployment_settings", None), "deployment_method", ()) or ()
PYTHON = "python" if "CONDA" in {getattr(m, "name", m) for m in _deploy} else sys.executable


wildcard_constraints:
    study="|".join(map(re.escape, STUDIES)) or "(?!)",
    point=r"[^/~]+~[^/]+(/[^/~]+~[^/]+)*",
    first=r"\d+",
    last=r"\d+",


# ----------------------------------------------------------------- paths and input functions
def run_file(study, point, batch):
    """results/runs/<study>/<point path>/seeds~<first>-<last>.jsonl"""
    return f"results/runs/{study}/{point.path}/seeds~{batch[0]}-{batch[1]}.jsonl"


def get_run_files(study):
    """Every seed-batch file of a study (all points x seed batches), in grid order."""
    s = STUDIES[study]
    return [run_file(study, p, b) for p in s.points() for b in s.seed_batches(N_SEEDS)]


def get_papers():
    """Paper ids of the enabled studies, sorted."""
    return sorted({s.paper for s in STUDIES.values()})


def get_study_tables(paper=None):
    """results/tables/<study>.csv for enabled studies (if `paper` is given, only those its chapter reads:
    simulator/report/chapter_studies.py; a study of the user's does not rerun the chapter)."""
    return [f"results/tables/{n}.csv" for n, s in STUDIES.items()
            if paper is None or (s.paper == paper and claimed(n, paper))]


def get_provenance_files(paper=None):
    """results/tables/<study>.provenance.json (written with each table) for enabled studies."""
    return [f"results/tables/{n}.provenance.json" for n, s in STUDIES.items() if paper in (None, s.paper)]


def get_trace_tables(paper=None):
    """results/traces/<study>.csv for enabled trace studies (if `paper` is given, only those its chapter reads)."""
    return [f"results/traces/{n}.csv" for n, s in STUDIES.items()
            if s.trace and (paper is None or (s.paper == paper and claimed(n, paper)))]


def get_study_file(wildcards):
    return str(STUDIES[wildcards.study].file)


def snakemake_literal(path):
    """A path Snakemake must not read wildcards from (a grid value could hold braces)."""
    return path.replace("{", "{{").replace("}", "}}")


def get_simulate_jobs(study):
    """{job number: its run files} for one study (simulator/run_jobs.py decides which files share a job)."""
    root = f"results/runs/{study}/"
    names = [f.removeprefix(root) for f in get_run_files(study)]
    return {job: [root + n for n in files] for job, files in share_out(names, STUDIES[study].jobs).items()}


def _points_of(study, files):
    """The points of a job's run files, in order, each once."""
    root = f"results/runs/{study}/"
    paths = dict.fromkeys(parse_run_name(f.removeprefix(root))[0] for f in files)
    return [point_from_path(STUDIES[study], p) for p in paths]


def get_user_algorithm_args(study, files):
    """`--algorithm NAME=FILE:CLASS` for each of the config's extra_algorithms that the job's points run, so the
    job loads the study as the workflow did, and `--algorithm-folder DIR` for each of the config's algorithm_folders
    when its points run a user algorithm; empty for every other job."""
    extra = config.get("extra_algorithms") or {}
    points = _points_of(study, files)
    names = dict.fromkeys(p.params.get("algorithm") for p in points)
    args = [f"--algorithm={n}={extra[n]}" for n in names if n in extra]
    if any(registry.user_algorithms(p.params) for p in points):   # the config's folders its files may lie in
        args += [f"--algorithm-folder={f}" for f in config.get("algorithm_folders") or []]
    return " ".join(map(shlex.quote, args))


def get_job_params(study, files):
    """The parameters of each of the job's points as JSON: a params rerun trigger, so editing a study reruns
    only the jobs of the points it changed; with the sha256 of the file of each user algorithm a point runs,
    so editing that file reruns them."""
    params = {}
    for point in _points_of(study, files):
        users = {u.name: u.sha256 for u in registry.user_algorithms(point.params)}
        params[point.path] = {**point.params, **({"user_algorithms": users} if users else {})}
    return json.dumps(params, sort_keys=True)


# ----------------------------------------------------------------- agreement with ns-3 (workflow/rules/validation.smk)
VALIDATION_STUDY = config["validation_study"]
VALIDATION_TABLE = "results/validation/ns3_agreement.csv"
# the ns-3 cells' code (the NS-2 records' modules, ns2_*.py, are validation.smk's own: editing them reruns no ns-3 cell)
VALIDATION_CODE = sorted(str(p) for p in Path("simulator/validation").glob("*.py") if not p.name.startswith("ns2_")) + [
    "simulator/run_records.py"]
NS3_RECORDS = str(Path(config["reference_dir"]) / "ns3" / "records.jsonl")
# QtColFair's BBR at 1 BDP in ns-3 (the evidence of a published number's fault): its cell file and sealed records
NS3_QTCOL_STUDY = str(Path(config["reference_dir"]) / "qtcol" / "bbr_1bdp_ns3.yaml")
NS3_QTCOL_RECORDS = "ns3_qtcol/records.jsonl"
# ns-3's Wi-Fi saturation cells (simulator/validation/ns3_wifi.py): our 802.11 MAC's check
NS3_WIFI_RECORDS = str(Path(config["reference_dir"]) / "ns3_wifi" / "records.jsonl")
VALIDATION_PARTS = 2      # jobs our side of the cells is shared over (a few seconds each)


def _check_ns3_records():
    """ns-3's committed records hold every cell and seed of the validation study, unedited, before any job."""
    from simulator.validation.ns3_reference import check

    try:
        from simulator.validation import ns3_wifi
        return len(check(config["reference_dir"], VALIDATION_STUDY)) + len(
            check(config["reference_dir"], NS3_QTCOL_STUDY, NS3_QTCOL_RECORDS)) + len(ns3_wifi.check(config["reference_dir"]))
    except (StudyError, ReferenceDataError) as e:
        raise WorkflowError(f"invalid ns-3 reference records (config keys reference_dir, validation_study):\n{e}") from None


_check_ns3_records()


def get_ns3_qtcol_runs(wildcards):
    """Every ns-3 run of QtColFair's BBR-at-1-BDP cell file (target `validation` only: it reruns ns-3)."""
    from simulator.validation.ns3_reference import needed

    return [f"results/validation/ns3_qtcol_runs/{cell}/seed~{seed}/ns3.json" for cell, seed, _ in needed(NS3_QTCOL_STUDY)]


def get_ns3_wifi_runs(wildcards):
    """Every ns-3 run of the Wi-Fi matrix (target `validation` only: it reruns ns-3)."""
    from simulator.validation import ns3_wifi

    return [f"results/validation/ns3_wifi_runs/{ns3_wifi.name(c)}.json" for c in ns3_wifi.cells()]


def get_validation_ns3_runs(wildcards):
    """Every ns-3 run the validation study asks for (target `validation` only: it reruns ns-3)."""
    from simulator.validation.ns3_reference import needed

    return [f"results/validation/ns3_runs/{cell}/seed~{seed}/ns3.json" for cell, seed, _ in needed(VALIDATION_STUDY)]


# ----------------------------------------------------------------- the standard evaluation suite (workflow/rules/suite.smk)
def get_suite_run_files(study):
    """The run files of one suite study (SUITE_STUDIES and SUITE_SEEDS are set by suite.smk)."""
    s = SUITE_STUDIES[study]
    return [f"results/suite/runs/{study}/{p.path}/seeds~{a}-{b}.jsonl"
            for p in s.points() for a, b in s.seed_batches(SUITE_SEEDS)]


def get_suite_jobs(study, jobs):
    """{job number: its run files} for one suite study, shared out as a paper study's (get_simulate_jobs)."""
    root = f"results/suite/runs/{study}/"
    names = [f.removeprefix(root) for f in get_suite_run_files(study)]
    return {job: [root + n for n in files] for job, files in share_out(names, jobs).items()}


def get_suite_rankings():
    """The rankings the suite chapter reads: every suite study's (the default build runs the suite)."""
    return SUITE_RANKINGS


# --------------------------------------------------------------------------- the catalogue's chapters
CATALOGUE = paper_catalogue.load()      # catalogue.yaml: the papers and the other chapters, in reading order


def generic_chapter_params():
    """The parameters only notebooks/paper.ipynb (a paper without a notebook of its own) takes: its id and
    study files. A notebook of its own gets none it does not declare (papermill would warn)."""
    def given(name):
        return lambda i, o: name(Path(o.downloads).name) if _generic(Path(o.downloads).name) else None
    return {"paper": given(lambda p: p),
            "study_files": given(lambda p: [str(STUDIES[Path(t).stem].file) for t in get_study_tables(p)])}


def _generic(paper):
    return CATALOGUE.papers[paper].notebook_file == paper_catalogue.GENERIC_NOTEBOOK


def paper_reference_files(paper):
    """The reference_dir files a paper's chapter reads besides claims (catalogue.yaml `reference`, a folder by
    its files, and `paper_numbers`): a change to one reruns the chapter."""
    entry, root = CATALOGUE.papers[paper], Path(config["reference_dir"])
    files = []
    for name in entry.reference + ((entry.paper_numbers,) if entry.paper_numbers else ()):
        path = root / name
        files += sorted(str(f) for f in path.iterdir()) if path.is_dir() else [str(path)]
    return files
