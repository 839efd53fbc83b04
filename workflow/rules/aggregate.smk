# All seed batches of a study -> one long-format table with its provenance record, and for trace studies
# its trace table, from one reading of the run files (a trace study's records hold every trace: reading
# them twice, once per table, was most of the cost). The work is simulator/report/aggregate.py: editing it
# reruns these rules. Rule verify_runs reads the run files first (seals, study, point, seeds; simulator/run_records.py):
# a refused run file stops the build before the aggregate job starts, so Snakemake never deletes the previous
# table and provenance, and the refusal repeats on every run until the file is regenerated.
AGGREGATE_CODE = ["simulator/report/aggregate.py", "simulator/report/io.py", "simulator/run_records.py"]
TRACE_STUDIES = [name for name, s in STUDIES.items() if s.trace]
PLAIN_STUDIES = [name for name in STUDIES if name not in TRACE_STUDIES]


rule verify_runs:
    input:
        runs=lambda wildcards: get_run_files(wildcards.study),
        code="simulator/run_records.py",
    output:
        "results/runs/{study}.sha256",
    wildcard_constraints:
        study="|".join(map(re.escape, STUDIES)) or "(?!)",
    params:
        python=PYTHON,
    log:
        "results/logs/verify_runs/{study}.log",
    conda:
        "../envs/simulate.yaml"
    shell:
        "{params.python:q} -m simulator.run_records --manifest {output:q} --log {log:q} {input.runs:q}"


rule aggregate:
    input:
        runs=lambda wildcards: get_run_files(wildcards.study),
        verified="results/runs/{study}.sha256",
        code=AGGREGATE_CODE,
    output:
        table="results/tables/{study}.csv",
        provenance="results/tables/{study}.provenance.json",
    wildcard_constraints:
        study="|".join(map(re.escape, PLAIN_STUDIES)) or "(?!)",
    params:
        kind="table",
        study_file=get_study_file,
    log:
        "results/logs/aggregate/{study}.log",
    conda:
        "../envs/simulate.yaml"
    script:
        "../scripts/aggregate.py"


use rule aggregate as aggregate_with_traces with:
    output:
        table="results/tables/{study}.csv",
        provenance="results/tables/{study}.provenance.json",
        traces="results/traces/{study}.csv",
    wildcard_constraints:
        study="|".join(map(re.escape, TRACE_STUDIES)) or "(?!)",
    params:
        kind="table",
        study_file=get_study_file,
        n_seeds=lambda wildcards: STUDIES[wildcards.study].trace_seeds,


rule tables:
    # Convenience target: every table and trace of the enabled studies, no report.
    input:
        get_study_tables(),
        get_provenance_files(),
        get_trace_tables(),
