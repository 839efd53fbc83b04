"""catalogue.yaml is the one list of the papers: checked when read, and no literal list of paper ids elsewhere."""
import ast
import re
from pathlib import Path

import pytest

from simulator import paper_catalogue, study_files

ROOT = Path(__file__).resolve().parents[1]
PAPERS = ("mm1", "qtcol", "mininet", "ns2", "testbed")
# files whose literal collections name models, not papers (mm1, ns2 and testbed are model ids too)
MODEL_LISTS = {"simulator/registry.py", "simulator/cost.py"}


def test_the_repository_catalogue_lists_the_five_papers_in_reading_order():
    cat = paper_catalogue.load()
    assert cat.paper_ids() == PAPERS
    assert cat.studies_of("ns2") == ("ns2_topology", "ns2_flows", "ns2_bandwidth", "ns2_delay", "ns2_queue")
    assert "validation_ns3" not in cat.default_studies() and "textbook_loss" in cat.default_studies()


def test_the_config_enables_every_catalogue_study_and_each_has_a_file():
    names = study_files.enabled_names(["catalogue"])
    files = study_files.study_files(ROOT / "config" / "studies")
    assert len(names) == 30 and not [n for n in names if n not in files]


def _write(tmp_path, text):
    cat = (ROOT / "catalogue.yaml").read_text()
    path = tmp_path / "catalogue.yaml"
    path.write_text(text(cat))
    return path


@pytest.mark.parametrize("edit, message", [
    (lambda t: t.replace("    kind: poster\n", "    kind: poster\n    colour: red\n"),
     r"papers.mininet: unknown key\(s\) colour; allowed keys: .*citation"),
    (lambda t: t.replace("      tb_cross_traffic:", "      mn_high_latency: twice\n      tb_cross_traffic:"),
     r"testbed.studies.mn_high_latency: already a study of mininet"),
    (lambda t: t.replace("claims: simulator.report.papers.ns2.claims", "claims: ns2"),
     r"papers.ns2.claims: 'ns2'; allowed: a module name"),
    (lambda t: t.replace("    stack: linux\n    topology", "    stack: bsd\n    topology"),
     r"papers.mininet.stack: 'bsd'; allowed values: ns3, linux, ns2"),
])
def test_a_malformed_entry_is_refused_naming_the_file_entry_and_allowed_values(tmp_path, edit, message):
    path = _write(tmp_path, edit)
    with pytest.raises(paper_catalogue.CatalogueError, match=message) as e:
        paper_catalogue.parse(path)
    assert str(path) in str(e.value)


def test_two_study_files_of_one_name_are_refused(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "x.yaml").write_text("study: x\n")
    (tmp_path / "a" / "x.yaml").write_text("study: x\n")
    with pytest.raises(study_files.StudyFilesError, match=r"a study named 'x' is also .*x.yaml"):
        study_files.study_files(tmp_path)


def _paper_lists(path: Path, text: str):
    """Literal tuples, lists, sets and dicts (keys) holding two or more paper ids."""
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.Tuple, ast.List, ast.Set, ast.Dict)):
            elts = node.keys if isinstance(node, ast.Dict) else node.elts
            names = {e.value for e in elts if isinstance(e, ast.Constant) and e.value in PAPERS}
            if len(names) >= 2:
                yield f"{path}:{node.lineno}: {sorted(names)}"


def test_no_literal_list_of_the_papers_outside_the_catalogue():
    found = []
    for p in sorted((ROOT / "simulator").rglob("*.py")):
        rel = p.relative_to(ROOT).as_posix()
        if rel not in MODEL_LISTS:
            found += _paper_lists(rel, p.read_text())
    for p in sorted((ROOT / "workflow").rglob("*.smk")):
        for i, line in enumerate(p.read_text().splitlines(), 1):
            names = {m for m in re.findall(r"[\"'](\w+)[\"']", line) if m in PAPERS}
            if len(names) >= 2:
                found.append(f"{p.relative_to(ROOT)}:{i}: {sorted(names)}")
    assert found == []
