"""One declared version per peer simulator (reference/peers.yaml, simulator/peers.py): the pins that install
ns-3 and NS-2, the committed records' metadata and every tracked file name the peers with that version only
(or with a version the file declares as someone else's, such as the QtColFair authors' ns-3.41)."""
import re
import subprocess
from pathlib import Path

from simulator import peers

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
    qtcol = {v for name, v in mentions((ROOT / "reference/ns3_qtcol/README.md").read_text()) if name == "ns-3"}
    assert qtcol == {peers.version("ns3")}
