"""Invariants every run checks; a violation stops the run with an error naming it."""


class InvariantError(RuntimeError):
    """A run broke a physical invariant (conservation, time order, window sign, buffer limit)."""


def violated(run_key: str, what: str):
    raise InvariantError(f"invariant violated in run {run_key}: {what}")
