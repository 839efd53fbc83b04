"""The book's "Your studies" chapter (simulator/report/book.py add_study_pages): one section per page
of a study no chapter reads, titled with the study's name and title; no chapter without such a study."""
import shutil

import nbformat
import yaml

from simulator.report import book
from workflow_copy import ROOT


def executed_page(tmp_path, study="my_sweep", title="My own sweep"):
    """notebooks/study.ipynb as papermill leaves it for `study` (parameters recorded in its metadata)."""
    f = tmp_path / f"{study}.yaml"
    f.write_text(f"study: {study}\ntitle: \"{title}\"\n")
    nb = nbformat.read(ROOT / "notebooks/study.ipynb", as_version=4)
    nb.metadata["papermill"] = {"parameters": {"study_file": str(f)}}
    out = tmp_path / f"study_{study}.ipynb"
    nbformat.write(nb, out)
    return out


def book_copy(tmp_path):
    out = tmp_path / "book"
    shutil.copytree(ROOT / "book", out)
    return out


def toc_files(out):
    data = yaml.safe_load((out / "_toc.yml").read_text())
    return {c["file"]: [s["file"] for s in c.get("sections", [])] for c in data["chapters"]}


def test_each_study_page_is_a_section_of_your_studies_titled_by_its_study(tmp_path):
    out = book_copy(tmp_path)
    pages = [executed_page(tmp_path), executed_page(tmp_path, "other", "Second")]
    book.add_study_pages(out, pages)
    book.prune_toc(out)
    assert toc_files(out)["your_studies"] == ["study_my_sweep", "study_other"]
    nb = nbformat.read(out / "study_my_sweep.ipynb", as_version=4)
    assert nb.cells[0].source == "# `my_sweep`: My own sweep"     # the study's name as code: an identifier
    assert all("hide-input" in c.metadata.get("tags", []) for c in nb.cells
               if c.cell_type == "code" and "parameters" not in c.metadata.get("tags", []))
    assert (out / "your_studies.md").exists()


def test_without_such_a_study_the_chapter_is_dropped(tmp_path):
    out = book_copy(tmp_path)
    book.add_study_pages(out, [])
    book.prune_toc(out)
    assert "your_studies" not in toc_files(out) and not (out / "your_studies.md").exists()
    assert {"method", "provenance"} <= set(toc_files(out))      # the prose pages stay (no notebook was copied here)


def test_the_catalogues_papers_are_the_books_chapters_after_method_with_their_own_pages(tmp_path):
    """_toc.yml names no paper: each catalogue paper's chapter is put after Method, in the catalogue's order, with
    the .md pages of its folder as sections (copied as <paper>_<page>.md)."""
    from simulator import paper_catalogue

    out = book_copy(tmp_path)
    assert not set(paper_catalogue.load().papers) & set(toc_files(out))       # the source toc names no paper
    book.add_paper_chapters(out)
    files = toc_files(out)
    chapters = list(files)
    papers = list(paper_catalogue.load().papers)
    assert chapters[chapters.index("method") + 1:][:len(papers)] == papers
    assert files["ns2"] == ["ns2_parameters"] and (out / "ns2_parameters.md").exists()
    assert files["mm1"] == []

