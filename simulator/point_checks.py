"""Per-point checks of a packet-network study (models dumbbell, ns2, testbed), before any job:
each point's algorithm is one its model runs, its warm-up ends before the run does, its sample
counts are within the caps (simulator/run_limits.py), a study that sets `stack:` does not also
set a detail to a value that stack contradicts, nor a key and a key it replaces, and each point passes the model's own parameter
check, exactly as a job would run it. `s` is a simulator.study.Study (not imported: study.py calls
these checks, so importing it back would close a circle)."""
from simulator.registry import scenario
from simulator.run_limits import sample_problem
from simulator.schema_messages import format_value, nearest
from simulator.study_errors import StudyError
from simulator.tcp import stacks
from simulator.tcp.cc import catalogue


def _place(s, key: str) -> str:
    return f"grid.{key}" if key in s.grid else f"fixed.{key}"


def check_stack_details(s, point) -> None:
    """A study file that sets `stack:` and a detail that contradicts that stack's preset is refused:
    the stack already fixes the detail (simulator/tcp/stacks.py)."""
    if "stack" not in s.fixed and "stack" not in s.grid:
        return
    stack = point.params["stack"]
    if stack not in stacks.NAMES:
        return                               # the model's own check names the allowed stacks
    given = {k: point.params[k] for k in stacks.DETAILS if k in point.params}
    for key, value, fixed_by_stack in stacks.contradictions(stack, given):
        raise StudyError(
            f"{s.file}: {_place(s, key)}: {key} {format_value(value)} contradicts {_place(s, 'stack')} "
            f"{stack}, whose preset has {key} {format_value(fixed_by_stack)}: the stack already fixes this "
            f"detail. Either drop `stack:` to keep the model's default stack with this one change, or drop "
            f"`{key}:` to keep the {stack} preset")


# a key that replaces others: a study setting both would silently lose one of them
REPLACES = {"start_times_s": ("start_interval", "start_spread")}


def check_replaced_keys(s) -> None:
    """A study file that sets a key and also a key it replaces is refused, naming both."""
    given = set(s.fixed) | set(s.grid)
    for key, replaced in REPLACES.items():
        both = [r for r in replaced if r in given]
        if key in given and both:
            raise StudyError(f"{s.file}: {_place(s, key)}: {key} replaces {_place(s, both[0])}, and both are set; "
                             f"drop one: {key} gives each flow's start time, {both[0]} derives them")


def check_network_points(s) -> None:
    """Algorithm names of a packet-network model, and parameter combinations that cannot run
    (each point goes through the model's own params_with_defaults, as registry.run does)."""
    mod = scenario(s.model)
    f = s.file
    check_replaced_keys(s)
    for p in s.points():
        algorithm = p.params["algorithm"]
        allowed = catalogue.accepted(mod.ALGORITHMS)
        if algorithm not in allowed:
            where = (f"grid.algorithm[{s.grid['algorithm'].index(algorithm)}]" if "algorithm" in s.grid
                     else "fixed.algorithm")
            raise StudyError(f"{f}: {where}: {algorithm!r} is not an algorithm of model {s.model}"
                             f"{nearest(algorithm, allowed)}; allowed values: {', '.join(allowed)}")
        check_stack_details(s, p)
        try:
            full = mod.params_with_defaults(p.params)
        except ValueError as e:
            raise StudyError(f"{f}: point {p.path!r}: {e}") from None
        problem = sample_problem(full, p.path)
        if problem:
            raise StudyError(f"{f}: {problem}")
    if not s.points():
        raise StudyError(f"{f}: exclude: removes every grid point; nothing would run")
