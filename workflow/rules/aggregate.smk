# All seed batches of a study -> one long-format table with its provenance record (and, for trace
# studies, a trace table). The work is simulator/report/aggregate.py: editing it reruns these rules.
AGGREGATE_CODE = ["simulator/report/aggregate.py", "simulator/report/io.py"]


rule aggregate:
    input:
        runs=lambda wildcards: get_run_files(wildcards.study),
        code=AGGREGATE_CODE,
    output:
        table="results/tables/{study}.csv",
        provenance="results/tables/{study}.provenance.json",
    params:
        kind="table",
        study_file=get_study_file,
    log:
        "results/logs/aggregate/{study}.log",
    conda:
        "../envs/simulate.yaml"
    script:
        "../scripts/aggregate.py"


rule traces:
    input:
        runs=lambda wildcards: get_run_files(wildcards.study),
        code=AGGREGATE_CODE,
    output:
        "results/traces/{study}.csv",
    params:
        kind="traces",
        n_seeds=lambda wildcards: STUDIES[wildcards.study].trace_seeds,
    log:
        "results/logs/traces/{study}.log",
    conda:
        "../envs/simulate.yaml"
    script:
        "../scripts/aggregate.py"


rule tables:
    # Convenience target: every table and trace of the enabled studies, no report.
    input:
        get_study_tables(),
        get_provenance_files(),
        get_trace_tables(),
