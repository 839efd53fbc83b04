# The standard evaluation suite (simulator/suite.py, config/suite/): its own target, never part of
# `rule all`:  snakemake --cores all suite  -> results/suite/<study>.csv (rankings) and the book with
# its chapter filled in. Each suite study file gets the algorithm list config["suite"]["algorithms"].
import shlex

from simulator.suite import check_algorithms, load_suite_study

SUITE = config["suite"]
SUITE_DIR = Path(SUITE["dir"])
try:  # every suite study checked at parse time, like the enabled studies (common.smk)
    SUITE_ALGORITHMS = check_algorithms(SUITE["algorithms"], "config/config.yaml")
    SUITE_EXTRA = config.get("extra_algorithms") or {}    # a user's own algorithms join the suite too
    # the folders outside the repository their files may lie in, for the suite's own processes
    SUITE_FOLDERS = " ".join(shlex.quote(f"--algorithm-folder={f}") for f in config.get("algorithm_folders") or []
                             if SUITE_EXTRA)
    SUITE_STUDIES = {p.stem: load_suite_study(p, SUITE_ALGORITHMS, SUITE_EXTRA) for p in sorted(SUITE_DIR.glob("*.yaml"))}
    SUITE_SEEDS = SUITE["seeds"]
    for _suite_study in SUITE_STUDIES.values():   # runs and run files counted before any list of them is made
        _suite_study.check_runs(SUITE_SEEDS)
except StudyError as e:
    raise WorkflowError(f"invalid suite study:\n{e}") from None


SUITE_TABLES = [f"results/suite/tables/{n}.csv" for n in SUITE_STUDIES]
SUITE_TRACES = [f"results/suite/traces/{n}.csv" for n, s in SUITE_STUDIES.items() if s.trace]
SUITE_RANKINGS = [f"results/suite/{n}.csv" for n in SUITE_STUDIES]


rule suite_study:
    # the effective study (the file plus the algorithm grid) that the suite's jobs read
    input:
        study=str(SUITE_DIR / "{study}.yaml"),
        # a user's algorithm file: editing it rewrites the effective study, so its points rerun
        user_files=[source.rsplit(":", 1)[0] for source in SUITE_EXTRA.values()],
    output:
        "results/suite/studies/{study}.yaml",
    wildcard_constraints:
        study="|".join(map(re.escape, SUITE_STUDIES)) or "(?!)",
    params:
        python=PYTHON,
        algorithms=" ".join(SUITE_ALGORITHMS),
        extra=" ".join(shlex.quote(f"{n}={s}") for n, s in SUITE_EXTRA.items()),
        folders=SUITE_FOLDERS,
    log:
        "results/logs/suite/study_{study}.log",
    conda:
        "../envs/simulate.yaml"
    shell:
        "{params.python:q} -m simulator.suite write {input.study:q} --algorithms {params.algorithms}"
        " --extra {params.extra} {params.folders}"
        " --out {output:q} > {log:q} 2>&1"


# A suite study's run files are shared out over SUITE_JOBS jobs, as a paper study's are (simulate.smk): one job
# per run file spent more time starting Python than simulating. One rule per job, made when the workflow is read.
SUITE_JOBS = 2

for _study in SUITE_STUDIES:
    for _job, _files in get_suite_jobs(_study, SUITE_JOBS).items():

        rule:
            name:
                f"suite_simulate_{_study}_{_job}"
            input:
                f"results/suite/studies/{_study}.yaml",
            output:
                [snakemake_literal(f) for f in _files],
            params:
                python=PYTHON,
                under=lambda wildcards, output: str(Path(output[0]).parents[-5]),   # results/suite/runs/<study>
                simulator_version=simulator.__version__,
                folders=SUITE_FOLDERS,
                run_format=RUN_FORMAT,      # run files of another format rerun (simulator/run_records.py)
            log:
                f"results/logs/suite/simulate/{_study}/job~{_job}.log",
            conda:
                "../envs/simulate.yaml"
            shell:
                "{params.python:q} -m simulator runs {input:q} --under {params.under:q} {params.folders}"
                " {output:q} > {log:q} 2>&1"


use rule verify_runs as suite_verify_runs with:
    # the run files checked before the suite's tables are made from them (aggregate.smk)
    input:
        runs=lambda w: get_suite_run_files(w.study),
        code="simulator/run_records.py",
    output:
        "results/suite/runs/{study}.sha256",
    wildcard_constraints:
        study="|".join(map(re.escape, SUITE_STUDIES)) or "(?!)",
    log:
        "results/logs/suite/verify_runs/{study}.log",


rule suite_aggregate:
    input:
        runs=lambda w: get_suite_run_files(w.study),
        verified="results/suite/runs/{study}.sha256",
        code=AGGREGATE_CODE,
    output:
        table="results/suite/tables/{study}.csv",
        provenance="results/suite/tables/{study}.provenance.json",
    wildcard_constraints:
        study="|".join(map(re.escape, SUITE_STUDIES)) or "(?!)",
    params:
        kind="table",
        study_file=lambda w: f"results/suite/studies/{w.study}.yaml",
    log:
        "results/logs/suite/aggregate/{study}.log",
    conda:
        "../envs/simulate.yaml"
    script:
        "../scripts/aggregate.py"


rule suite_traces:
    input:
        runs=lambda w: get_suite_run_files(w.study),
        verified="results/suite/runs/{study}.sha256",
        code=AGGREGATE_CODE,
    output:
        "results/suite/traces/{study}.csv",
    wildcard_constraints:
        study="|".join(map(re.escape, SUITE_STUDIES)) or "(?!)",
    params:
        kind="traces",
        n_seeds=SUITE_SEEDS,     # every seed: the ramp-up time and flow shares are per-seed metrics
    log:
        "results/logs/suite/traces/{study}.log",
    conda:
        "../envs/simulate.yaml"
    script:
        "../scripts/aggregate.py"


rule suite_rank:
    input:
        tables=SUITE_TABLES,
        traces=SUITE_TRACES,
        code="simulator/report/suite_rank.py",
    output:
        SUITE_RANKINGS,
    params:
        python=PYTHON,
    log:
        "results/logs/suite/rank.log",
    conda:
        "../envs/report.yaml"
    shell:
        "{params.python:q} -m simulator.report.suite_rank --tables {input.tables:q} --traces {input.traces:q}"
        " --out-dir results/suite > {log:q} 2>&1"


rule suite:
    # Convenience target: the suite's rankings and the book with the suite chapter filled in.
    input:
        SUITE_RANKINGS,
        "results/book/_build/html/index.html",


# The suite at the draft's own scale (simulator/suite_full.py, config/suite_full/): never part of the default run.
# The chapter reads the records committed in suite_full.records; this target makes fresh ones and lists what changed
# (copy results/suite_full/records.jsonl and README.md over reference/suite_full/ on purpose to commit them).
SUITE_FULL = config["suite_full"]
SUITE_FULL_RECORDS = [SUITE_FULL["records"]] if Path(SUITE_FULL["records"]).exists() else []


rule suite_full_records:
    input:
        studies=sorted(str(p) for p in Path(SUITE_FULL["dir"]).glob("*.yaml")),
        code=["simulator/suite_full.py", "simulator/scenarios/open_network.py", "simulator/models/openloop_model.pyx"],
    output:
        "results/suite_full/records.jsonl",
    threads: 2
    params:
        python=PYTHON,
    log:
        "results/logs/suite_full/records.log",
    conda:
        "../envs/simulate.yaml"
    shell:
        "{params.python:q} -m simulator.suite_full run --config config/config.yaml --out {output:q} --jobs {threads}"
        " > {log:q} 2>&1"


rule suite_full:
    # what changed against the committed records (none: the simulator still gives them)
    input:
        new="results/suite_full/records.jsonl",
        ref=SUITE_FULL_RECORDS,
    output:
        "results/suite_full/changes.txt",
    params:
        python=PYTHON,
    log:
        "results/logs/suite_full/compare.log",
    conda:
        "../envs/simulate.yaml"
    shell:
        "{params.python:q} -m simulator.suite_full compare --new {input.new:q} --ref {input.ref:q} > {output:q} 2> {log:q}"
        " || true"


rule notebook_suite:
    input:
        notebook="notebooks/suite.ipynb",
        rankings=get_suite_rankings(),
        full_records=SUITE_FULL_RECORDS,
        code=REPORT_LIBS,
    output:
        notebook="results/notebooks/suite.ipynb",
        figures=directory("results/figures/suite"),
        downloads=directory("results/downloads/suite"),
    params:
        y=papermill_params(
            ranking_files=lambda i, o: list(i.rankings),
            full_records=lambda i, o: (list(i.full_records) or [""])[0],
            figures_dir=lambda i, o: o.figures,
            downloads_dir=lambda i, o: o.downloads,
            downloads_url=lambda i, o: "_static/downloads/suite",
        ),
        python=PYTHON,
    log:
        "results/logs/report/notebook_suite.log",
    conda:
        "../envs/report.yaml"
    shell:
        "{params.python} -m papermill {input.notebook:q} {output.notebook:q} -k python3 -y {params.y:q}"
        " --no-progress-bar > {log:q} 2>&1"
