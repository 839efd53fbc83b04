# Optional target, never part of `all`: every cell of the validation study run in our dumbbell and in
# ns-3 3.44 (pip install -e ".[ns3]"), then one agreement table.
#   snakemake --cores all validation     -> results/validation/ns3_agreement.csv
# The "Agreement with ns-3" chapter reads that table when it exists (workflow/rules/report.smk).
from simulator.validation.cells import load_cells

VALIDATION_STUDY = "config/studies/validation_ns3.yaml"
VALIDATION_TABLE = "results/validation/ns3_agreement.csv"
VALIDATION_CODE = sorted(str(p) for p in Path("simulator/validation").glob("*.py"))


def get_validation_runs(wildcards):
    """Every record the table needs: each cell x seed x simulator (the study loads only when this
    target is asked for, so a default run never reads it)."""
    try:
        study, cells = load_cells(VALIDATION_STUDY)
    except StudyError as e:
        raise WorkflowError(f"invalid validation study:\n{e}") from None
    return [f"results/validation/runs/{c.path}/seed~{s}/{side}.json"
            for c in cells for s in range(1, (study.seeds or 1) + 1) for side in ("ours", "ns3")]


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
