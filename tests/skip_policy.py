"""The one list of reasons for which a test may skip, and the check that enforces it.

A skipped test proves nothing, so a skip is allowed only for a reason listed here: something the
machine lacks that the project cannot install for itself. Every other skip fails the test session
(exit status 1), so a test can never pass CI by skipping, e.g. because a file is missing.
The summary lists every skipped test with its reason.
"""
import re

# pattern of an allowed skip reason -> why it is allowed
ALLOWED_SKIPS = {
    r"^the single-node SLURM cluster needs root": "SLURM daemons need root to install and start (tests/test_slurm.py)",
    r"^slurmctld is not installed and apt-get is not available": "SLURM packages come from Debian's apt",
    r"^could not start the SLURM cluster": "the machine refuses to run the SLURM daemons",
    r"^ns-3's Python bindings are not installed": "the optional ns3 extra is 0.5 GB and 3 minutes to install; only "
                                                  "tests/test_validation_reference.py's ns-3 run needs it",
}


def skip_reason(report) -> str:
    """The reason text of a skipped test report."""
    longrepr = report.longrepr
    text = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
    return text[len("Skipped: "):] if text.startswith("Skipped: ") else text


def disallowed(reasons) -> list[str]:
    return [r for r in reasons if not any(re.search(p, r) for p in ALLOWED_SKIPS)]


def check_skips(terminalreporter) -> None:
    """Print every skip with its reason; fail the session on a reason not in ALLOWED_SKIPS."""
    skipped = terminalreporter.stats.get("skipped", [])
    reasons = [(r.nodeid, skip_reason(r)) for r in skipped]
    terminalreporter.write_sep("-", f"skipped tests: {len(reasons)}")
    for nodeid, reason in reasons:
        terminalreporter.write_line(f"{nodeid}: {reason}")
    bad = disallowed(reason for _, reason in reasons)
    if bad:
        terminalreporter.write_line(f"FAILED: {len(bad)} test(s) skipped for a reason not allowed in "
                                    f"tests/skip_policy.py: {'; '.join(sorted(set(bad)))}", red=True)
        terminalreporter._session.exitstatus = 1
