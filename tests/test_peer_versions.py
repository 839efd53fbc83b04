"""One declared version per peer simulator (reference/peers.yaml, simulator/peers.py): the pins that install
ns-3 and NS-2, the committed records' metadata and every tracked file name the peers with that version only
(or with a version the file declares as someone else's, such as the QtColFair authors' ns-3.41)."""
import ast
import json
import re
import subprocess
from pathlib import Path

from simulator import peers
from simulator.report import book

ROOT = Path(__file__).resolve().parents[1]
# "ns-3 3.44", "ns3==3.44", "ns3 (3.44", "NS-2 2.35", "ns-3.41", "ns-2.35"; not "ns-3 96.3%" (a value of ns-3's runs)
MENTION = re.compile(r"\b(ns-3|NS-3|ns3|ns-2|NS-2|ns2)[ =:(]{1,3}(\d\.\d{2})(?![\d%])")
SOURCE_TREE = re.compile(r"\bns-(\d)\.(\d{2})(?![\d%])")        # ns-3.41, ns-2.35: a release's source tree
NAME = {"ns-3": "ns-3", "NS-3": "ns-3", "ns3": "ns-3", "ns-2": "NS-2", "NS-2": "NS-2", "ns2": "NS-2"}
SKIP = (".jsonl", ".csv", ".png", ".svg", ".ico", ".woff", ".woff2", ".ttf")


def tracked_text_files():
    out = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    # tests/ holds made-up versions on purpose (a page that states another version must be caught)
    return [ROOT / f for f in out if not f.startswith("tests/") and not f.endswith(SKIP)]


def mentions(text):
    """[(peer name, version)] of every version a text gives a peer."""
    found = [(m.start(), NAME[m.group(1)], m.group(2)) for m in MENTION.finditer(text)]
    found += [(m.start(), "ns-3" if m.group(1) == "3" else "NS-2", f"{m.group(1)}.{m.group(2)}")
              for m in SOURCE_TREE.finditer(text)]
    return [(name, version) for _, name, version in sorted(found)]


def test_mentions_are_found_and_values_of_runs_are_not_versions():
    assert mentions("ns-3 3.44 and NS-2 2.35; ns3==3.44.post0; ns-3.41; ns2 (2.35") == [
        ("ns-3", "3.44"), ("NS-2", "2.35"), ("ns-3", "3.44"), ("ns-3", "3.41"), ("NS-2", "2.35")]
    assert mentions("ns-3 96.3% and ns-3 1.25%") == []


def test_every_tracked_file_names_each_peer_with_its_declared_version_only():
    allowed = {name: {version, *peers.declared().get("other_versions", {}).get(name, {})}
               for name, version in peers.names().items()}
    wrong = [f"{path.relative_to(ROOT)}: {name} {version}"
             for path in tracked_text_files() if path.is_file()
             for name, version in mentions(path.read_text(errors="ignore")) if version not in allowed[name]]
    assert wrong == [], f"declared in reference/peers.yaml: {allowed}"


def test_the_pins_that_install_the_peers_match_the_declared_versions():
    pin = peers.declared()["peers"]["ns3"]["pin"]
    assert pin.startswith(f"ns3=={peers.version('ns3')}")
    assert f'"{pin}"' in (ROOT / "pyproject.toml").read_text()
    assert f"- {pin}" in (ROOT / "workflow/envs/validation.yaml").read_text()


def test_the_committed_records_say_they_were_made_with_the_declared_versions():
    for peer in ("ns3", "ns2"):
        readme = (ROOT / peers.declared()["peers"][peer]["records"]).read_text()
        found = {v for name, v in mentions(readme) if name == peers.declared()["peers"][peer]["name"]}
        assert found == {peers.version(peer)}, (peer, found)
    for folder in ("ns3_qtcol", "ns3_wifi"):       # ns-3's other sealed records
        found = {v for name, v in mentions((ROOT / f"reference/{folder}/README.md").read_text()) if name == "ns-3"}
        assert found == {peers.version("ns3")}, (folder, found)


# What the report prints: the folders whose text reaches a page (code's strings, pages, notebooks, workflow files)
PRINTED = ("simulator", "workflow", "notebooks", "book", "Snakefile")
UNPRINTED = (".pyx", ".pxd", ".c", ".png", ".svg", ".jsonl", ".csv", ".css", ".ico")


def python_strings(source):
    """The string constants of Python source other than docstrings (a docstring cites a release's source file,
    e.g. ns-2.35/tcp/tcp-vegas.cc, and is never printed); comments are not tokens of the tree at all."""
    tree = ast.parse(source)
    docs = {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body
            and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    return [n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str)
            and id(n) not in docs]


def without_magics(code):
    """A code cell's Python: its IPython magic lines (%matplotlib inline) blanked."""
    return "\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in code.splitlines())


def printed_texts(path: Path, text: str):
    """The pieces of a file that can reach the report: a .py file's non-docstring strings, a notebook's markdown
    and its code's strings, any other file's lines but its # comments (a .md file: all of it)."""
    if path.suffix == ".py":
        return python_strings(text)
    if path.suffix == ".ipynb":
        cells = json.loads(text)["cells"]
        return [s for c in cells for s in (["".join(c["source"])] if c["cell_type"] == "markdown"
                                           else python_strings(without_magics("".join(c["source"]))))]
    return [line for line in text.splitlines() if path.suffix == ".md" or not line.lstrip().startswith("#")]


def declared_literals(text: str):
    """Every declared peer version a text writes: 'ns-3 3.44', 'NS-2 2.35', and bare '3.44' ('ns3` 3.44.post0')."""
    versions = "|".join(re.escape(v) for v in peers.names().values())
    return re.findall(rf"(?<![\d.])(?:{versions})(?![\d%])", text)


def test_a_bare_declared_version_is_found_but_not_a_longer_number():
    assert declared_literals("ns-3 3.44, PyPI `ns3` 3.44.post0, NS-2 2.35") == ["3.44", "3.44", "2.35"]
    assert declared_literals("13.44 ms, 2.355, 3.441, 3.44% and 1.2.35") == []
    assert printed_texts(Path("a.py"), '"""ns-3 3.44 docstring"""\n# NS-2 2.35\nx = f"in ns-3 3.44 {y}"\n') == \
        ["in ns-3 3.44 "]


def test_what_the_report_prints_reads_the_peer_versions_from_their_declaration():
    """A page writes {{ ns3 }} (simulator/report/book.py fills it), code peers.label('ns3'): a literal '3.44'
    in simulator/, workflow/, notebooks/ or book/ is a second source that can drift from reference/peers.yaml."""
    exceptions = peers.declared().get("literal_exceptions") or {}
    files = subprocess.run(["git", "ls-files", *PRINTED], cwd=ROOT, capture_output=True, text=True,
                           check=True).stdout.split()
    found = [f"{f}: {', '.join(found)}" for f in files if f not in exceptions and not f.endswith(UNPRINTED)
             for found in [[v for piece in printed_texts(Path(f), (ROOT / f).read_text())
                            for v in declared_literals(piece)]] if found]
    assert found == [], ("a peer's version written by hand (write {{ ns3 }} in a page, peers.label('ns3') in "
                         "code, or list the file in reference/peers.yaml literal_exceptions with the reason)")
    assert all(isinstance(why, str) and why for why in exceptions.values()), "each exception needs its reason"


def test_pages_get_the_declared_version_through_their_placeholders(tmp_path):
    (tmp_path / "intro.md").write_text("run in {{ ns3 }} and {{ ns2 }}")
    (tmp_path / "ch.ipynb").write_text(json.dumps({"cells": [{"source": ["in {{ ns3 }}"]}]}))
    book.write_versions(tmp_path)
    assert (tmp_path / "intro.md").read_text() == f"run in ns-3 {peers.version('ns3')} and NS-2 {peers.version('ns2')}"
    assert json.loads((tmp_path / "ch.ipynb").read_text())["cells"][0]["source"] == [f"in {peers.label('ns3')}"]
