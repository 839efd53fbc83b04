# All seed batches of a study -> one long-format table with its provenance record, and for trace studies
# its trace table, from one reading of the run files (a trace study's records hold every trace: reading
# them twice, once per table, was most of the cost). The work is simulator/report/aggregate.py: editing it
# reruns these rules. Outputs are update(): Snakemake keeps the previous table, provenance and traces while the
# job runs and puts them back if it fails (a refused run file, simulator/run_records.py), instead of deleting them.
AGGREGATE_CODE = ["simulator/report/aggregate.py", "simulator/report/io.py", "simulator/run_records.py"]
TRACE_STUDIES = [name for name, s in STUDIES.items() if s.trace]
PLAIN_STUDIES = [name for name in STUDIES if name not in TRACE_STUDIES]


rule aggregate:
    input:
        runs=lambda wildcards: get_run_files(wildcards.study),
        code=AGGREGATE_CODE,
    output:
        table=update("results/tables/{study}.csv"),
        provenance=update("results/tables/{study}.provenance.json"),
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
        table=update("results/tables/{study}.csv"),
        provenance=update("results/tables/{study}.provenance.json"),
        traces=update("results/traces/{study}.csv"),
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
