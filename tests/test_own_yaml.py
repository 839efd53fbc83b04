"""The project's own YAML files are read with libyaml's parser (load_own): same values as
yaml.safe_load for every one of them, and the parser really is the C one where PyYAML has it."""
from pathlib import Path

import pytest
import yaml

from simulator import safe_yaml

ROOT = Path(__file__).resolve().parents[1]
OWN = sorted(p for d in ("simulator", "reference", "config", "workflow") for p in (ROOT / d).rglob("*.yaml"))


def test_there_are_own_files_to_check():
    assert len(OWN) > 50


@pytest.mark.parametrize("path", OWN, ids=lambda p: str(p.relative_to(ROOT)))
def test_load_own_reads_each_file_as_safe_load_does(path):
    text = path.read_text()
    assert safe_yaml.load_own(text) == yaml.safe_load(text)


def test_load_own_uses_libyaml_when_pyyaml_has_it():
    assert safe_yaml._OWN is (yaml.CSafeLoader if yaml.__with_libyaml__ else yaml.SafeLoader)
