"""Assemble the Jupyter Book under results/book and build it to HTML (offline).

Copies the prose pages (book/), the notebooks papermill executed (results/notebooks) and the
downloadable CSVs (results/downloads/* -> _static/downloads/*), writes the provenance page,
then runs `jupyter-book build` (execution off: the notebooks already carry their outputs).
"""

import argparse
import json
import shutil
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

import nbformat
import pandas as pd
import yaml


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


def provenance_table(tables) -> str:
    """Markdown table: per study, model variants, algorithms, grid points and seeds per point."""
    rows = ["| study | file | variants | algorithms | grid points | seeds per point |", "|---|---|---|---|---|---|"]
    for path in tables:
        df = pd.read_csv(path)
        if df.empty:
            continue
        study = df["study"].iloc[0]
        n = df["n"].dropna()
        seeds = f"{int(n.min())}" if n.min() == n.max() else f"{int(n.min())}-{int(n.max())}"
        points = df["point"].nunique() if "point" in df else len(df) // max(df["metric"].nunique(), 1)
        variants = ", ".join(sorted(df["variant"].unique())) if "variant" in df else "–"
        rows.append(f"| {study} | `config/studies/{study}.yaml` | {variants} | "
                    f"{', '.join(sorted(df['algorithm'].unique()))} | {points} | {seeds} |")
    return "\n".join(rows)


def run_provenance_table(files) -> str:
    """Markdown table from results/tables/<study>.provenance.json: what each table was computed from."""
    rows = ["| study | study file (sha256) | simulator version | git commit | grid points | seeds per point | runs |",
            "|---|---|---|---|---|---|---|"]
    for path in files:
        p = json.loads(Path(path).read_text())
        seeds = sorted({pt["seeds"] for pt in p["points"]})
        sha = p.get("study_file_sha256", "")[:12]
        rows.append(f"| {p['study']} | `{p.get('study_file', '?')}` ({sha}) | {', '.join(p['simulator_version'])} | "
                    f"{', '.join(f'`{c[:12]}`' for c in p['git_commit'])} | {len(p['points'])} | "
                    f"{'; '.join(seeds)} | {p['n_runs']} |")
    return "\n".join(rows)


def present_notebook(src: Path, dst: Path):
    """Copy an executed notebook for the book: the template's default parameters are removed,
    papermill's injected parameters and all code are folded away (a click shows them)."""
    nb = nbformat.read(src, as_version=4)
    for cell in nb.cells:
        tags = cell.metadata.setdefault("tags", [])
        if "parameters" in tags:
            tags.append("remove-cell")
        elif cell.cell_type == "code" and "hide-input" not in tags and "remove-input" not in tags:
            tags.append("hide-input")
    nbformat.write(nb, dst)


def prune_toc(out: Path):
    """Drop chapters of _toc.yml whose page is absent (a paper none of whose studies is enabled)."""
    toc = out / "_toc.yml"
    if not toc.exists():
        return
    data = yaml.safe_load(toc.read_text())
    present = {p.stem for p in out.iterdir() if p.suffix in (".md", ".ipynb")}
    kept = [c for c in data.get("chapters", []) if Path(str(c.get("file", ""))).stem in present]
    if len(kept) != len(data.get("chapters", [])):
        for c in data["chapters"]:
            if c not in kept:       # its sections (the chapter's "parameters we chose" page) go too
                for s in c.get("sections", []):
                    (out / f"{Path(str(s['file'])).stem}.md").unlink(missing_ok=True)
        data["chapters"] = kept
        toc.write_text(yaml.safe_dump(data, sort_keys=False))


def study_page_title(nb) -> str:
    """'<study>: <title>' of a study page, from the study file papermill ran it with."""
    params = nb.metadata.get("papermill", {}).get("parameters", {})
    path = Path(str(params.get("study_file", "")))
    doc = yaml.safe_load(path.read_text()) if path.is_file() else {}
    doc = doc if isinstance(doc, dict) else {}
    name = doc.get("study", path.stem)
    return f"{name}: {doc['title']}" if doc.get("title") else str(name)


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
    data = yaml.safe_load(toc.read_text())
    for c in data.get("chapters", []):
        if c.get("file") == "your_studies":
            c["sections"] = [{"file": p.stem} for p in pages]
    toc.write_text(yaml.safe_dump(data, sort_keys=False))


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
    prune_toc(out)

    commit = git("rev-parse", "HEAD")
    dirty = git("status", "--porcelain", "--untracked-files=no")
    prov = out / "provenance.md"
    text = prov.read_text() if prov.exists() else "# Provenance\n"
    text = text.replace("{{ generated }}", "\n".join([
        "| | |", "|---|---|",
        f"| git commit | `{commit}`{' (with uncommitted changes)' if dirty and dirty != 'unknown' else ''} |",
        f"| simulator version | `{simulator_version()}` |",
        f"| statistics profile | `{a.profile}` ({a.seeds} seeds per grid point) |",
        f"| enabled studies | {', '.join(f'`{s}`' for s in a.studies.split(',') if s)} |",
        f"| built | {datetime.now(timezone.utc).strftime('%Y-%m-%d %H:%M UTC')} |",
        f"| Python | {sys.version.split()[0]} |",
        "", "Studies of this book, as aggregated:", "", provenance_table(a.tables),
        "", "What each table was computed from (from `results/tables/<study>.provenance.json`; every run "
        "record in `results/runs/` also carries its parameters, seed, simulator version and git commit):",
        "", run_provenance_table(a.provenance),
    ]))
    prov.write_text(text)

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
