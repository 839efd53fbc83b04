"""Per-point checks of a packet-network study (models dumbbell, ns2, testbed), before any job:
each point's algorithm is one its model runs, its warm-up ends before the run does, its sample
counts are within the caps (simulator/run_limits.py), and it passes the model's own parameter
check, exactly as a job would run it."""
from simulator.registry import scenario
from simulator.run_limits import sample_problem
from simulator.study import Study, StudyError, nearest


def check_network_points(s: Study) -> None:
    """Algorithm names of a packet-network model, and parameter combinations that cannot run
    (each point goes through the model's own params_with_defaults, as registry.run does)."""
    mod = scenario(s.model)
    f = s.file
    for p in s.points():
        algorithm = p.params["algorithm"]
        if algorithm not in mod.ALGORITHMS:
            where = (f"grid.algorithm[{s.grid['algorithm'].index(algorithm)}]" if "algorithm" in s.grid
                     else "fixed.algorithm")
            raise StudyError(f"{f}: {where}: {algorithm!r} is not an algorithm of model {s.model}"
                             f"{nearest(algorithm, mod.ALGORITHMS)}; allowed values: "
                             f"{', '.join(mod.ALGORITHMS)}")
        try:
            full = mod.params_with_defaults(p.params)
        except ValueError as e:
            raise StudyError(f"{f}: point {p.path!r}: {e}") from None
        problem = sample_problem(full, p.path)
        if problem:
            raise StudyError(f"{f}: {problem}")
    if not s.points():
        raise StudyError(f"{f}: exclude: removes every grid point; nothing would run")
