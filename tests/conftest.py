"""Shared fixtures: real runs of the tiny test config, made once per test session.

The fixtures: `toy_thresholds` (the claim rule with no thresholds for the toy metric of
  constructed tables), `built_report`, the whole workflow, `snakemake --cores 2` (simulations -> tables -> claims ->
  scorecard -> notebooks -> HTML book), read by the end-to-end tests and by the claim tests that
  need real tables, and the uninterrupted reference that the interruption (resumed on one core) and
  SLURM tests compare their own runs with byte for byte.

It runs in a fresh copy of the repository with nothing beside it, as a user's clone.
The tests run on two pytest-xdist workers (pyproject.toml), those of the built report all on one.
The skip policy (which reasons may skip a test) is in skip_policy.py.
"""
import pytest

from skip_policy import check_skips
from system_packages import message, missing
from workflow_copy import TEST_CONFIG, copy_repo, snakemake


@pytest.fixture
def toy_thresholds(tmp_path):
    """The claim rule reads the toy metric 'm' of the constructed tables with no resolution and no
    practical threshold (every difference counts), then the repository's thresholds file again."""
    from simulator.report import claim_rule

    path = tmp_path / "metric_thresholds.yaml"
    path.write_text("m: {unit: toy, resolution: 0, practical: {abs: 0}, why: every difference counts}\n")
    claim_rule.use_thresholds(path)
    yield path
    claim_rule.use_thresholds(None)


@pytest.fixture(scope="session")
def built_report(tmp_path_factory):
    """The repo copy after `snakemake --cores 2 --configfile config/test/config.yaml` (the whole workflow)."""
    repo = copy_repo(tmp_path_factory.mktemp("report"))
    r = snakemake(repo, "--cores", "2", "--configfile", TEST_CONFIG, timeout=1800)
    logs = "\n".join(f"--- {p}\n{p.read_text()[-3000:]}" for p in sorted((repo / "results/logs").rglob("*.log"))
                     if "report" in str(p)) if (repo / "results/logs").exists() else ""
    assert r.returncode == 0, r.stdout[-5000:] + r.stderr[-5000:] + logs
    return repo


@pytest.hookimpl(tryfirst=True)     # before xdist's own hook reads the groups
def pytest_collection_modifyitems(config, items):
    """Every test that reads the built report joins one xdist group, so that with pytest-xdist
    (`-n 2 --dist loadgroup`, pyproject.toml) one worker builds it once and runs them all while the
    other worker runs the rest; without xdist the mark does nothing."""
    for item in items:
        if "built_report" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group("built_report"))


def pytest_sessionstart(session):
    """A system program the tests need and the machine lacks stops the session with one line naming its package."""
    gone = missing()
    if gone:
        pytest.exit(message(gone), returncode=1)


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    check_skips(terminalreporter)
