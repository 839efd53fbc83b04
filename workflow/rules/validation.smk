# Optional target, never part of `all`: every cell of the validation study run in our dumbbell and in
# ns-3 3.44 (pip install -e ".[ns3]"), then one agreement table.
#   snakemake --cores all validation     -> results/validation/ns3_agreement.csv
# The "Agreement with ns-3" chapter reads that table when it exists (workflow/rules/report.smk); the
# study, table and input function are in common.smk.


rule validation:
    input:
        VALIDATION_TABLE,


rule validation_table:
    input:
        runs=get_validation_runs,
        code=VALIDATION_CODE,
    output:
        VALIDATION_TABLE,
    params:
        python=PYTHON,
    log:
        "results/logs/validation/table.log",
    conda:
        "../envs/validation.yaml"
    shell:
        "{params.python:q} -m simulator.validation.agreement --runs {input.runs:q} --out {output:q} > {log:q} 2>&1"


rule validation_cell:
    # one cell, one seed, one simulator; ns-3 keeps global state, so each run is a process of its own
    input:
        study=VALIDATION_STUDY,
        code=VALIDATION_CODE,
    output:
        "results/validation/runs/{cell}/seed~{seed}/{side}.json",
    wildcard_constraints:
        cell=r"[^/~]+~[^/]+(/[^/~]+~[^/]+)*",
        seed=r"\d+",
        side="ours|ns3",
    resources:
        mem_mb=lambda wildcards: 1000 if wildcards.side == "ns3" else 200,   # ns-3: about 0.7 GB
    params:
        python=PYTHON,
    log:
        "results/logs/validation/{cell}/seed~{seed}/{side}.log",
    conda:
        "../envs/validation.yaml"
    shell:
        "{params.python:q} -m simulator.validation.run_cell --study {input.study:q} --cell {wildcards.cell:q}"
        " --seed {wildcards.seed} --side {wildcards.side} --out {output:q} > {log:q} 2>&1"
