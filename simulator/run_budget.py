"""A wall-clock budget per run (a study's `run_time_limit`): a run that does not finish in time is
stopped, naming the point, the seed and, when it was inside a user algorithm's hook, file:Class.hook
and the simulated time (a `while True: pass` in a hook stops here too: Python runs signal handlers
between bytecodes). Used by simulator/cli.py run_record; the job's process is one run at a time.

The default (seconds_for) is far above any run of the project's own studies (the slowest workflow job,
several runs, took 4.6 s: benchmarks/report_time.py), so it stops only a run that hangs.
"""
from __future__ import annotations

import signal
import threading
from contextlib import contextmanager

DEFAULT_SECONDS = 600.0   # the least a run gets by default ...
ESTIMATE_FACTOR = 10.0    # ... or 10x its estimated time (simulator/cost.py), whichever is longer


def seconds_for(study, point) -> float:
    """The wall-clock budget of one run of `point`: the study's `run_time_limit` if it sets one, else the
    larger of DEFAULT_SECONDS and ESTIMATE_FACTOR x the run's estimated time, so that a long run the
    cost ceiling (max_packets_per_run) lets through is not stopped for being long."""
    if study.run_time_limit is not None:
        return float(study.run_time_limit)
    from simulator.cost import run_packets, wall_seconds
    return max(DEFAULT_SECONDS, ESTIMATE_FACTOR * wall_seconds(point.params["model"], run_packets(point.params)))
AGAIN_SECONDS = 1.0       # the alarm repeats if a hook swallows it (a bare `except:`)


class RunTimeLimitError(BaseException):
    """A run went over its wall-clock budget. A BaseException, as KeyboardInterrupt is, so a user's
    `except Exception` in a hook cannot swallow it."""


def _user_hook(frame):
    """(file:Class.hook, simulated time or None) of the innermost user-algorithm hook on the stack of
    `frame`, or None if the run was not inside one."""
    from simulator.tcp.cc import catalogue, user
    from simulator.tcp.cc.base import TcpState
    while frame is not None:
        me = frame.f_locals.get("self") if frame.f_code.co_name in user.HOOKS else None
        spec = next((u for u in catalogue.USER.values() if me is not None and isinstance(me, user.load(u))), None)
        if spec is not None:
            state = next((v for v in frame.f_locals.values() if isinstance(v, TcpState)), None)
            return f"{spec.source}.{frame.f_code.co_name}", (state.now if state is not None else None)
        frame = frame.f_back
    return None


def where(frame) -> str:
    """' in file:Class.hook at simulated time T s', or how else the run was caught."""
    found = _user_hook(frame)
    if found is None:
        return " outside any user algorithm's hook"
    hook, now = found
    return f" in {hook}" + (f" at simulated time {now:.6f} s" if now is not None else "")


@contextmanager
def time_limit(seconds: float, what: str):
    """Run the body with a budget of `seconds` of wall-clock time; over it, RunTimeLimitError
    '{what}: the run did not finish within run_time_limit ...'. The timer is always disarmed and the
    previous SIGALRM handler restored. Outside the main thread (no signals there) it does nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def on_alarm(signum, frame):
        raise RunTimeLimitError(f"{what}: the run did not finish within run_time_limit {seconds:g} s of wall-clock "
                                f"time and was stopped{where(frame)}; nothing was written. Raise the study's "
                                f"run_time_limit if the run is only slow")

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds, AGAIN_SECONDS)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
