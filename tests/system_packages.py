"""The system programs the test command needs (the README's first sentence names their Debian packages):
checked once when the session starts, so a missing one stops it with one line that says what to install,
instead of every test that needs it failing on its own."""
from simulator.report.browser_check import CHROMIUM, find_program

# what the tests need -> (program names, any of which will do; the Debian/Ubuntu packages that bring them)
PROGRAMS = {
    "Chromium": (CHROMIUM, "chromium"),
    "its driver": (["chromedriver"], "chromium-driver"),
    "NS-2": (["ns"], "ns2"),             # tests/test_ns2_records.py remakes NS-2's committed records
}


def missing() -> list[tuple[str, str]]:
    """[(what, package)] of the programs not on PATH."""
    return [(what, package) for what, (names, package) in PROGRAMS.items() if not find_program(names)]


def message(gone) -> str:
    packages = " ".join(dict.fromkeys(p for _, p in gone))
    return (f"the tests need {', '.join(w for w, _ in gone)}, not found on PATH: install them with "
            f"`sudo apt-get install {packages}` (Debian/Ubuntu; the README's first sentence lists every system package)")
