"""Assemble the Jupyter Book under results/book and build it to HTML (offline).

Copies the prose pages (book/), the notebooks papermill executed (results/notebooks) and the
downloadable CSVs (results/downloads/* -> _static/downloads/*), writes the generated parts of the
first page (the five papers at a glance, `{{ headline }}` in intro.md: headline.py; how far to trust
each chapter, `{{ trust }}`: trust.py) and of the
provenance page (`{{ generated }}`: provenance_page.py), then runs `jupyter-book build` (execution
off: the notebooks already carry their outputs).
"""

import argparse
import importlib
import shutil
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

import nbformat
import pandas as pd
import yaml

from simulator import paper_catalogue, peers
from simulator.report import artifact_page, headline, io, provenance_page
from simulator.report import trust as trust_table
from simulator.report.chapter import scroll_html
from simulator.safe_yaml import load_own

PAPERS_DIR = Path(__file__).resolve().parent / "papers"     # each paper's folder (its pages too)


def git(*args) -> str:
    try:
        return subprocess.run(["git", *args], capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def simulator_version() -> str:
    try:
        import simulator

        return getattr(simulator, "__version__", "unknown")
    except Exception as e:  # the report must build even if the simulator cannot be imported here
        return f"unknown ({type(e).__name__})"


def present_notebook(src: Path, dst: Path):
    """Copy an executed notebook for the book: the template's default parameters and papermill's
    injected ones (file paths of this run) are removed, all other code is folded away (a click shows it)."""
    nb = nbformat.read(src, as_version=4)
    paper = paper_catalogue.load().papers.get(Path(src).stem)
    if paper and paper.notebook_file == paper_catalogue.GENERIC_NOTEBOOK and nb.cells:
        nb.cells[0].source = f"# {paper.title}"      # the generic notebook's placeholder title
    for cell in nb.cells:
        tags = cell.metadata.setdefault("tags", [])
        if "parameters" in tags or "injected-parameters" in tags:     # the run's file paths: not for readers
            tags.append("remove-cell")
        elif cell.cell_type == "code" and "hide-input" not in tags and "remove-input" not in tags:
            tags.append("hide-input")
    nbformat.write(nb, dst)


def prune_toc(out: Path):
    """Drop chapters of _toc.yml whose page is absent (a paper none of whose studies is enabled)."""
    toc = out / "_toc.yml"
    if not toc.exists():
        return
    data = load_own(toc.read_text())
    present = {p.stem for p in out.iterdir() if p.suffix in (".md", ".ipynb")}
    kept = [c for c in data.get("chapters", []) if Path(str(c.get("file", ""))).stem in present]
    if len(kept) != len(data.get("chapters", [])):
        for c in data["chapters"]:
            if c not in kept:       # its sections (the chapter's "parameters we chose" page) go too
                for s in c.get("sections", []):
                    (out / f"{Path(str(s['file'])).stem}.md").unlink(missing_ok=True)
        data["chapters"] = kept
        toc.write_text(yaml.safe_dump(data, sort_keys=False))


def paper_pages(paper: str) -> list:
    """A paper's own book pages: the .md files of its folder (simulator/report/papers/<paper>/), sorted."""
    return sorted((PAPERS_DIR / paper).glob("*.md"))


def add_paper_chapters(out: Path) -> None:
    """Put each catalogue paper's chapter after `method` in _toc.yml, in the catalogue's order, with its
    folder's pages as sections (copied as <paper>_<page>.md); prune_toc then drops a chapter not built."""
    toc = out / "_toc.yml"
    if not toc.exists():
        return
    data = load_own(toc.read_text())
    chapters = data.get("chapters", [])
    named = [Path(str(c.get("file", ""))).stem for c in chapters]
    entries = []
    for paper in paper_catalogue.load().papers:
        if paper in named:
            continue
        sections = []
        for page in paper_pages(paper):
            shutil.copy(page, out / f"{paper}_{page.stem}.md")
            sections.append({"file": f"{paper}_{page.stem}"})
        entries.append({"file": paper, **({"sections": sections} if sections else {})})
    at = named.index("method") + 1 if "method" in named else len(chapters)
    data["chapters"] = chapters[:at] + entries + chapters[at:]
    toc.write_text(yaml.safe_dump(data, sort_keys=False))


def study_page_title(nb) -> str:
    """'`<study>`: <title>' of a study page, from the study file papermill ran it with: the study's name is the
    file name its user typed, so it is shown as code (an identifier, not prose)."""
    params = nb.metadata.get("papermill", {}).get("parameters", {})
    path = Path(str(params.get("study_file", "")))
    doc = load_own(path.read_text()) if path.is_file() else {}
    doc = doc if isinstance(doc, dict) else {}
    name = doc.get("study", path.stem)
    return f"`{name}`: {doc['title']}" if doc.get("title") else f"`{name}`"


def add_study_pages(out: Path, pages) -> None:
    """The pages of the studies no chapter reads (notebooks/study.ipynb, executed once per study) as
    the sections of the chapter "Your studies" (book/your_studies.md), each titled with its study's
    name and title; without such studies that chapter is removed (prune_toc drops its entry)."""
    pages = [Path(p) for p in pages]
    for src in pages:
        dst = out / src.name
        present_notebook(src, dst)
        nb = nbformat.read(dst, as_version=4)
        first = next(c for c in nb.cells if c.cell_type == "markdown")
        first.source = f"# {study_page_title(nb)}"
        nbformat.write(nb, dst)
    toc = out / "_toc.yml"
    if not pages or not toc.exists():
        (out / "your_studies.md").unlink(missing_ok=True)
        return
    data = load_own(toc.read_text())
    for c in data.get("chapters", []):
        if c.get("file") == "your_studies":
            c["sections"] = [{"file": p.stem} for p in pages]
    toc.write_text(yaml.safe_dump(data, sort_keys=False))


HEADLINE_CSV = "_static/downloads/intro/papers_at_a_glance.csv"


def headline_block(counts: pd.DataFrame, faults: str = "") -> str:
    """The first page's table of the papers (raw HTML in the scrolling box), its download link, then who is
    at fault for the claim rows not reproduced (headline.fault_summary)."""
    if counts.empty:
        return "*No paper's study ran in this build (see `config/config.yaml`).*"
    faults = f"\n\n**Who is at fault.** {faults}" if faults else ""
    return (f"{scroll_html(headline.headline_html(counts))}\n\n"
            f"Claim columns count claim rows: a claim decided in several settings (model variants, window "
            f"caps, flow counts) counts once per setting. "
            f'<a href="{HEADLINE_CSV}" download>Download this table as CSV</a>.{faults}')


def chapter_counts(out: Path, scorecard, claims_file) -> pd.DataFrame:
    """headline.paper_counts of the scorecard, for the papers whose chapter this book has."""
    rows = pd.read_csv(scorecard) if scorecard and Path(scorecard).exists() else pd.DataFrame(columns=["paper"])
    chapters = {p.stem for p in out.glob("*.ipynb")}
    return headline.counts(rows, claims_file, papers=[p for p, (_, page) in headline.PAPERS.items() if page in chapters])


def fill_intro(out: Path, slot: str, csv_name: str, frame: pd.DataFrame, block: str) -> None:
    """Replace `{{ slot }}` of intro.md with `block` and write `frame` as its download."""
    intro = out / "intro.md"
    csv = out / csv_name
    csv.parent.mkdir(parents=True, exist_ok=True)
    io.write_atomic(csv, lambda tmp: frame.to_csv(tmp, index=False))
    intro.write_text(intro.read_text().replace("{{ " + slot + " }}", block))


def has_slot(out: Path, slot: str) -> bool:
    intro = out / "intro.md"
    return intro.exists() and "{{ " + slot + " }}" in intro.read_text()


def write_headline(out: Path, scorecard, claims_file) -> None:
    """Fill `{{ headline }}` of intro.md with the papers whose chapter this book has, and write its CSV."""
    if has_slot(out, "headline"):
        counts = chapter_counts(out, scorecard, claims_file)
        rows = pd.read_csv(scorecard) if scorecard and Path(scorecard).exists() else pd.DataFrame(columns=["paper"])
        faults = headline.fault_summary(rows, papers=list(counts["paper"])) if "verdict" in rows else ""
        fill_intro(out, "headline", HEADLINE_CSV, headline.download_frame(counts), headline_block(counts, faults))


TRUST_CSV = "_static/downloads/intro/how_far_to_trust.csv"


def write_trust(out: Path, trust, scorecard, claims_file) -> None:
    """Fill `{{ trust }}` of intro.md: per paper chapter of this book, the independent evidence behind its model
    (results/trust.csv, simulator/report/trust.py) beside its claim counts; and write its CSV."""
    if not has_slot(out, "trust"):
        return
    counts = chapter_counts(out, scorecard, claims_file)
    ev = pd.read_csv(trust) if trust else pd.DataFrame(columns=trust_table.EVIDENCE_COLUMNS)
    pages = {p.stem for p in out.glob("*.ipynb")}
    ev["page"] = [p if p in pages else "" for p in ev["page"].fillna("")]   # no link to a page this book lacks
    block = (f"{scroll_html(trust_table.trust_html(ev, counts))}\n\n"
             f'<a href="{TRUST_CSV}" download>Download the evidence as CSV</a>.' if len(counts)
             else "*No paper's study ran in this build (see `config/config.yaml`).*")
    fill_intro(out, "trust", TRUST_CSV, ev, block)


def write_provenance(out: Path, a) -> None:
    """Fill `{{ generated }}` of provenance.md: this build, then per study what its table came from."""
    commit = git("rev-parse", "HEAD")
    dirty = git("status", "--porcelain", "--untracked-files=no")
    prov = out / "provenance.md"
    text = prov.read_text() if prov.exists() else "# Provenance\n"
    build = {
        "git commit": f"`{commit}`{' (with uncommitted changes)' if dirty and dirty != 'unknown' else ''}",
        "repository": artifact_page.origin(artifact_page.declared_repository(Path.cwd())),
        "simulator version": f"`{simulator_version()}`",
        "statistics profile": f"`{a.profile}`: {a.seeds} seeds per grid point, unless a study file sets its own count",
        "enabled studies": ", ".join(f"`{s}`" for s in a.studies.split(",") if s),
        "built": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "Python": sys.version.split()[0],
    }
    prov.write_text(text.replace("{{ generated }}", provenance_page.generated(build, a.tables, a.provenance)))


def write_page_slots(out: Path, tables, claims_file) -> None:
    """Fill each paper's `{{ slot }}` in the book's pages (catalogue.yaml `page_slots`: slot -> module:function
    of the build's tables and the claims file), e.g. the M/M/1 replay count on the published-code page."""
    for paper in paper_catalogue.load().papers.values():
        for slot, function in paper.page_slots.items():
            module, name = function.split(":")
            for page in out.glob("*.md"):
                if "{{ " + slot + " }}" in page.read_text():
                    text = getattr(importlib.import_module(module), name)(tables, claims_file)
                    page.write_text(page.read_text().replace("{{ " + slot + " }}", text))


def write_artifact(out: Path) -> None:
    """Fill `{{ artifact }}` of artifact.md: where this copy comes from and the reviewer's commands."""
    page = out / "artifact.md"
    if page.exists():
        block = artifact_page.generated(Path.cwd(), git("rev-parse", "HEAD"))
        page.write_text(page.read_text().replace("{{ artifact }}", block))


def write_versions(out: Path) -> None:
    """Fill every `{{ ns3 }}`/`{{ ns2 }}` of the book's pages and notebooks with the peer's name and version as
    reference/peers.yaml declares it, so that no page writes a version by hand."""
    for page in [*out.glob("*.md"), *out.glob("*.ipynb")]:
        text = page.read_text()
        filled = peers.fill(text)
        if filled != text:
            page.write_text(filled)


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--src", default="book")
    ap.add_argument("--out", default="results/book")
    ap.add_argument("--notebooks", nargs="+", required=True)
    ap.add_argument("--downloads", nargs="*", default=[])
    ap.add_argument("--study-pages", nargs="*", default=[],
                    help="executed notebooks/study.ipynb, one per study no chapter reads")
    ap.add_argument("--tables", nargs="*", default=[])
    ap.add_argument("--provenance", nargs="*", default=[], help="results/tables/<study>.provenance.json files")
    ap.add_argument("--profile", default="default")
    ap.add_argument("--seeds", default="?")
    ap.add_argument("--studies", default="")
    ap.add_argument("--scorecard", help="results/scorecard.csv: the first page's table of the five papers")
    ap.add_argument("--claims-file", help="reference/claims.yaml; claim_reasons.yaml beside it gives the reasons")
    ap.add_argument("--trust", help="results/trust.csv: the first page's evidence behind each chapter's model")
    a = ap.parse_args()

    out = Path(a.out)
    if out.exists():
        shutil.rmtree(out)
    shutil.copytree(a.src, out, ignore=shutil.ignore_patterns("_build"))
    for nb in a.notebooks:
        present_notebook(Path(nb), out / Path(nb).name)
    for d in a.downloads:
        shutil.copytree(d, out / "_static" / "downloads" / Path(d).name, dirs_exist_ok=True)
    add_study_pages(out, a.study_pages)
    add_paper_chapters(out)
    prune_toc(out)

    write_headline(out, a.scorecard, a.claims_file)
    write_trust(out, a.trust, a.scorecard, a.claims_file)
    write_provenance(out, a)
    write_artifact(out)
    write_page_slots(out, a.tables, a.claims_file)
    write_versions(out)

    cmd = [sys.executable, "-m", "jupyter_book", "build", str(out), "--builder", "html"]
    jb = shutil.which("jupyter-book", path=str(Path(sys.executable).parent))
    if jb:
        cmd = [jb, "build", str(out), "--builder", "html"]
    print(" ".join(cmd), flush=True)
    subprocess.run(cmd, check=True)
    index = out / "_build" / "html" / "index.html"
    if not index.exists():
        sys.exit(f"jupyter-book did not write {index}")


if __name__ == "__main__":
    main()
