# One job per grid point and seed batch: python -m simulator batch -> one JSON line per seed. The job gets
# the point as this workflow read it (--point-json), so it does not load and validate the study again.


rule simulate:
    output:
        "results/runs/{study}/{point}/seeds~{first}-{last}.jsonl",
    params:
        python=PYTHON,
        study_file=get_study_file,
        point_params=get_point_params,
        user_algorithm=get_user_algorithm_args,
        point_json=get_point_json_arg,
        simulator_version=simulator.__version__,
    log:
        "results/logs/simulate/{study}/{point}/seeds~{first}-{last}.log",
    conda:
        "../envs/simulate.yaml"
    shell:
        "{params.python:q} -m simulator batch {params.study_file:q} --point-path {wildcards.point:q}"
        " --seeds {wildcards.first}-{wildcards.last} --out {output:q} {params.user_algorithm} {params.point_json}"
        " > {log:q} 2>&1"
