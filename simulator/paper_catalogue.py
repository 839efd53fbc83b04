"""The book's catalogue (catalogue.yaml at the repository's root): the one list of the papers and the other
chapters, with what the workflow and the report need to know about each.

Every place that once wrote out the papers' names (page 1's table, the trust table, the scorecard, the claim
checks, the report rules) reads them here, so a sixth paper is one entry plus its own folders
(`python -m simulator new-paper NAME`). The file is checked when first read: an unknown key, a missing one,
a study named by two chapters or a claims module that is not a module name stops with a message naming the
file, the entry and the allowed values.
"""
from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from simulator.safe_yaml import load_user

FILE = Path(__file__).resolve().parents[1] / "catalogue.yaml"
PAPER_KEYS = {"title", "citation", "kind", "published", "model", "studies", "claims", "reference"}
PAPER_OPTIONAL = {"paper_numbers", "no_check", "priority", "stack", "topology", "notebook", "own_tool_records",
                  "scorecard_section", "evidence", "reference_check", "page_slots"}
GENERIC_NOTEBOOK = "notebooks/paper.ipynb"   # the chapter of a paper without a notebook of its own
STACKS = ("ns3", "linux", "ns2")
TOPOLOGIES = ("dumbbell",)
CHAPTER_KEYS = {"title"}
CHAPTER_OPTIONAL = {"studies", "target", "also_reads"}  # also_reads: studies of other chapters it draws too   # target: the optional Snakemake target that runs its studies
ID = re.compile(r"^[a-z][a-z0-9_]*$")           # a chapter id (a page name)
STUDY = re.compile(r"^[A-Za-z][A-Za-z0-9_]*$")   # a study name (its file name without .yaml)
FUNCTION = re.compile(r"^[a-z_][a-z0-9_.]*:[a-z_][a-z0-9_]*$")      # module:function
MODULE = re.compile(r"^[a-z_][a-z0-9_]*(\.[a-z_][a-z0-9_]*)+$")


class CatalogueError(ValueError):
    """catalogue.yaml is malformed; the message names the file, the entry and what is allowed."""


@dataclass(frozen=True)
class Paper:
    id: str
    title: str
    citation: str
    kind: str
    published: str
    model: str
    studies: dict            # study name -> what it reproduces
    claims: str              # the module the rule `claims` runs
    reference: tuple = ()    # files/folders of reference_dir the chapter reads besides claims
    paper_numbers: str | None = None
    no_check: str | None = None
    priority: int = 0
    stack: str | None = None
    topology: str | None = None
    notebook: str | None = None
    own_tool_records: str | None = None
    scorecard_section: str | None = None
    evidence: str | None = None
    reference_check: str | None = None
    page_slots: dict = field(default_factory=dict)

    @property
    def notebook_file(self) -> str:
        """The chapter's notebook: its own (notebooks/<id>.ipynb) unless `notebook` names another."""
        return self.notebook or f"notebooks/{self.id}.ipynb"


@dataclass(frozen=True)
class Chapter:
    id: str
    title: str
    studies: dict = field(default_factory=dict)
    target: str | None = None
    also_reads: tuple = ()


@dataclass(frozen=True)
class Catalogue:
    papers: dict             # id -> Paper, in reading order
    chapters: dict           # id -> Chapter (the chapters that are not a paper's)

    def paper_ids(self) -> tuple:
        return tuple(self.papers)

    def generic_scorecard_papers(self) -> tuple:
        """Papers the scorecard chapter shows alike (no section of their own): claims and quoted numbers."""
        return tuple(p for p, e in self.papers.items() if e.scorecard_section != "own")

    def studies_of(self, chapter: str) -> tuple:
        """The studies a chapter (a paper's or another) draws, in the catalogue's order; () if unknown."""
        entry = self.papers.get(chapter) or self.chapters.get(chapter)
        return tuple(entry.studies) if entry else ()

    def default_studies(self) -> list:
        """Every study the default build runs: each chapter's, but those an optional target runs."""
        return [s for e in (*self.papers.values(), *self.chapters.values()) if not getattr(e, "target", None)
                for s in e.studies]

    def all_studies(self) -> dict:
        """study name -> chapter id, for every chapter."""
        return {s: c for c, e in {**self.papers, **self.chapters}.items() for s in e.studies}


def _fail(path, where, what) -> None:
    raise CatalogueError(f"{path}: {where}: {what}")


def _check_keys(path, where, entry, required, optional) -> None:
    if not isinstance(entry, dict):
        _fail(path, where, f"expected a mapping with keys {', '.join(sorted(required))}")
    missing, unknown = required - set(entry), set(entry) - required - optional
    if missing:
        _fail(path, where, f"missing key(s) {', '.join(sorted(missing))}; every entry has {', '.join(sorted(required))}")
    if unknown:
        _fail(path, where, f"unknown key(s) {', '.join(sorted(unknown))}; allowed keys: "
              f"{', '.join(sorted(required | optional))}")


def _studies(path, where, value) -> dict:
    if value is None:
        return {}
    if not isinstance(value, dict) or not all(isinstance(k, str) and STUDY.match(k) for k in value):
        _fail(path, f"{where}.studies", "expected a mapping of study name (letters, digits, _) -> what it reproduces")
    return dict(value)


def _paper(path, pid, entry) -> Paper:
    where = f"papers.{pid}"
    _check_keys(path, where, entry, PAPER_KEYS, PAPER_OPTIONAL)
    for key in ("title", "citation", "kind", "published", "model"):
        if not isinstance(entry[key], str) or not entry[key].strip():
            _fail(path, f"{where}.{key}", "expected non-empty text")
    claims = entry["claims"]
    if not (isinstance(claims, str) and MODULE.match(claims)):
        _fail(path, f"{where}.claims", f"{claims!r}; allowed: a module name such as simulator.report.papers.<paper>.claims")
    functions = {k: entry.get(k) for k in ("evidence", "reference_check")}
    functions.update({f"page_slots.{k}": v for k, v in (entry.get("page_slots") or {}).items()})
    for key, value in functions.items():
        if value is not None and not FUNCTION.match(str(value)):
            _fail(path, f"{where}.{key}", f"{value!r}; allowed: module:function, e.g. simulator.report.papers.ns2.evidence:ns2_evidence")
    if entry.get("scorecard_section") not in (None, "own"):
        _fail(path, f"{where}.scorecard_section", f"{entry['scorecard_section']!r}; allowed values: own")
    reference = entry["reference"] or []
    if not isinstance(reference, list) or not all(isinstance(r, str) and r for r in reference):
        _fail(path, f"{where}.reference", "expected a list of paths inside reference_dir")
    priority = entry.get("priority", 0)
    if not isinstance(priority, int) or isinstance(priority, bool):
        _fail(path, f"{where}.priority", f"{priority!r}; expected an integer")
    for key, allowed in (("stack", STACKS), ("topology", TOPOLOGIES)):
        if entry.get(key) is not None and entry[key] not in allowed:
            _fail(path, f"{where}.{key}", f"{entry[key]!r}; allowed values: {', '.join(allowed)}")
    return Paper(pid, entry["title"], entry["citation"], entry["kind"], entry["published"], entry["model"],
                 _studies(path, where, entry["studies"]), claims, tuple(reference), entry.get("paper_numbers"),
                 entry.get("no_check"), priority, entry.get("stack"), entry.get("topology"), entry.get("notebook"),
                 entry.get("own_tool_records"), entry.get("scorecard_section"), entry.get("evidence"),
                 entry.get("reference_check"), dict(entry.get("page_slots") or {}))


def parse(path) -> Catalogue:
    """The checked catalogue of `path`."""
    path = Path(path)
    try:
        doc = load_user(path.read_text())
    except OSError as e:
        raise CatalogueError(f"{path}: cannot read the catalogue ({e.strerror})") from None
    except (yaml.YAMLError, ValueError) as e:
        raise CatalogueError(f"{path}: not valid YAML: {e}") from None
    _check_keys(path, "top level", doc, {"papers", "chapters"}, set())
    papers, chapters = {}, {}
    for group, out in (("papers", papers), ("chapters", chapters)):
        if not isinstance(doc[group], dict) or not doc[group]:
            _fail(path, group, "expected a non-empty mapping of id -> entry")
        for cid, entry in doc[group].items():
            if not isinstance(cid, str) or not ID.match(cid) or cid in papers or cid in chapters:
                _fail(path, f"{group}.{cid}", "expected a new id of lower-case letters, digits and _")
            if group == "papers":
                out[cid] = _paper(path, cid, entry)
            else:
                _check_keys(path, f"chapters.{cid}", entry, CHAPTER_KEYS, CHAPTER_OPTIONAL)
                out[cid] = Chapter(cid, entry["title"], _studies(path, f"chapters.{cid}", entry.get("studies")),
                                   entry.get("target"), tuple(_studies(path, f"chapters.{cid}.also_reads",
                                                                       dict.fromkeys(entry.get("also_reads") or []))))
    _check_studies_once(path, {**papers, **chapters})
    return Catalogue(papers, chapters)


def _check_studies_once(path, entries) -> None:
    owner = {}
    for cid, e in entries.items():
        for s in e.studies:
            if s in owner:
                _fail(path, f"{cid}.studies.{s}", f"already a study of {owner[s]}; a study belongs to one chapter")
            owner[s] = cid


@functools.lru_cache(maxsize=None)
def _cached(path: str, mtime: float) -> Catalogue:
    return parse(path)


def load(path=None) -> Catalogue:
    """The repository's catalogue (or the one at `path`), read once per change of the file."""
    p = Path(path) if path else FILE
    try:
        mtime = p.stat().st_mtime
    except OSError:
        mtime = -1.0
    return _cached(str(p), mtime)
