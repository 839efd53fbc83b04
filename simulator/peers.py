"""The peer simulators' declared versions (reference/peers.yaml): ns-3's and NS-2's names and versions as
the report writes them, read from one file so that every page states the same version."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from simulator.safe_yaml import load_own

FILE = Path(__file__).resolve().parents[1] / "reference" / "peers.yaml"


@lru_cache(maxsize=None)
def declared() -> dict:
    """The file's content: {'peers': {id: {name, version, pin, records}}, 'other_versions': {...}}."""
    doc = load_own(FILE.read_text()) or {}
    for peer, entry in (doc.get("peers") or {}).items():
        missing = {"name", "version", "pin"} - set(entry)
        if missing:
            raise ValueError(f"{FILE}: peers.{peer}: missing {', '.join(sorted(missing))}; each peer needs name, "
                             f"version and pin")
    return doc


def version(peer: str) -> str:
    """'3.44' for 'ns3', '2.35' for 'ns2'."""
    return declared()["peers"][peer]["version"]


def pin(peer: str) -> str:
    """'ns3==3.44.post0': what installs the peer (a pip requirement, or the Debian package's name)."""
    return declared()["peers"][peer]["pin"]


def label(peer: str) -> str:
    """'ns-3 3.44', 'NS-2 2.35': a peer as the report names it."""
    p = declared()["peers"][peer]
    return f"{p['name']} {p['version']}"


def names() -> dict:
    """{'ns-3': '3.44', 'NS-2': '2.35'}: each peer's name and its version."""
    return {p["name"]: p["version"] for p in declared()["peers"].values()}


def slots() -> dict:
    """{'{{ ns3 }}': 'ns-3 3.44', ...}: the placeholder each peer has in the book's pages and notebooks' text."""
    return {"{{ " + peer + " }}": label(peer) for peer in declared()["peers"]}


def fill(text: str) -> str:
    """`text` with every peer placeholder ({{ ns3 }}, {{ ns2 }}) replaced by the peer's name and version."""
    for slot, words in slots().items():
        text = text.replace(slot, words)
    return text
