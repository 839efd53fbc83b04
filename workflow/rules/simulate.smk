# Each study's run files are shared out over a few jobs (simulator/run_jobs.py): one job per run file spent
# most of the report's time starting processes.  A job runs `python -m simulator runs`, which writes each of
# its run files (one JSON line per seed) as if it were alone.  One rule per job, made here when the workflow
# is read: a rule's outputs are fixed, and Snakemake ignores job groups when it runs locally.
# A job reruns when the parameters of any of its points change (params.points), so editing a study reruns
# the jobs of the points it changed.

for _study in STUDIES:
    for _job, _files in get_simulate_jobs(_study).items():

        rule:
            name:
                f"simulate_{_study}_{_job}"
            output:
                [snakemake_literal(f) for f in _files],
            params:
                python=PYTHON,
                study_file=str(STUDIES[_study].file),
                under=lambda wildcards, output: str(Path(output[0]).parents[-4]),   # results/runs/<study>
                points=get_job_params(_study, _files),
                user_algorithms=get_user_algorithm_args(_study, _files),
                simulator_version=simulator.__version__,
                run_format=RUN_FORMAT,      # run files of another format rerun (simulator/run_records.py)
            log:
                f"results/logs/simulate/{_study}/job~{_job}.log",
            conda:
                "../envs/simulate.yaml"
            shell:
                "{params.python:q} -m simulator runs {params.study_file:q} --under {params.under:q}"
                " {params.user_algorithms} {output:q} > {log:q} 2>&1"
