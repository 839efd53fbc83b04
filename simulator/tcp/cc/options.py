"""Options of an algorithm's factory (`make(**params)` in each simulator/tcp/cc/*.pyx): the
algorithm's declared defaults overridden by what the caller gives; an unknown option is refused,
naming the algorithm and the options it has."""


def with_defaults(algorithm: str, defaults: dict, given: dict) -> dict:
    unknown = set(given) - set(defaults)
    if unknown:
        raise ValueError(f"{algorithm}: unknown parameter(s) {sorted(unknown)}; allowed: {sorted(defaults)}")
    return {**defaults, **given}
