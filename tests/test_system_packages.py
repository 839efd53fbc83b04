"""A newcomer without the system packages the tests need is told, in one message, what to install."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_a_missing_browser_stops_the_tests_naming_the_packages_to_install(tmp_path):
    r = subprocess.run([sys.executable, "-m", "pytest", "tests/test_number_format.py", "-n", "0", "-q"],
                       cwd=ROOT, env={"PATH": str(tmp_path), "HOME": str(tmp_path)}, capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 1
    said = [line for line in r.stderr.splitlines() if line.startswith("Exit: ")]
    assert said == ["Exit: the tests need Chromium, its driver, NS-2, not found on PATH: install them with "
                    "`sudo apt-get install chromium chromium-driver ns2` (Debian/Ubuntu; the README's first sentence "
                    "lists every system package)"]
    assert "passed" not in r.stdout
