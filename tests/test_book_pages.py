"""The tiny test profile's book (session fixture `built_report`, tests/conftest.py), page by page for
what a reader looks for first: page 1 answers the question with a table of the papers, one row per
chapter built and a link to each; the scorecard counts in integers; the provenance page gives the
seeds every study's runs used."""
import json
import re

import pandas as pd
import pytest
from bs4 import BeautifulSoup

from simulator.report import attribution, headline

HTML = "results/book/_build/html"


def page(repo, name) -> BeautifulSoup:
    return BeautifulSoup((repo / HTML / f"{name}.html").read_text(), "html.parser")


def built_chapters(repo) -> list[str]:
    """The papers' chapter pages this book has, in the book's order."""
    return [page_ for _, page_ in headline.PAPERS.values() if (repo / HTML / f"{page_}.html").exists()]


@pytest.mark.slow
def test_first_page_has_a_row_per_built_paper_linking_its_chapter(built_report):
    soup = page(built_report, "intro")
    table = soup.select_one("table.headline")
    assert table is not None, "no table of the papers on page 1"
    heading = soup.find(lambda t: t.name in ("h1", "h2") and "The answer" in t.get_text())
    assert heading is not None and heading.find_next("table") is table      # the answer comes first
    rows = table.select("tbody tr.paper")
    chapters = built_chapters(built_report)
    assert len(chapters) == 5 and len(rows) == len(chapters)
    links = [r.find("td").find("a")["href"] for r in rows]
    assert links == [f"{c}.html" for c in chapters]
    for href in links:
        assert (built_report / HTML / href).exists()
    card = pd.read_csv(built_report / "results/scorecard.csv")
    counts = headline.counts(card, built_report / "reference/claims.yaml").set_index("chapter")   # our checks apart
    for r, c in zip(rows, chapters):
        cells = [td.get_text(" ", strip=True) for td in r.find_all("td")]
        assert cells[3:7] == [str(counts.loc[c, v]) for v in ("reproduced", "contradicted", "inconclusive",
                                                               "not_testable")], c
        assert not re.search(r"\d\.0\b", " ".join(cells[2:7])), cells    # integers, never 3.0
    csv = soup.find("a", string=re.compile("Download this table as CSV"))
    assert csv is not None and (built_report / HTML / csv["href"]).exists()
    text = soup.get_text(" ")
    assert "95% confidence interval" in text and "per-run range" in text
    assert soup.find("a", href=re.compile(r"^claims_rule\.html")) is not None


@pytest.mark.slow
def test_every_row_not_reproduced_says_who_is_at_fault_in_a_readers_words(built_report):
    card = pd.read_csv(built_report / "results/scorecard.csv", keep_default_na=False)
    claims = card[card["verdict"].isin(["contradicted", "inconclusive"])]
    bad = card[card["verdict"].isin(["contradicted", "inconclusive", "outside"])]    # published numbers outside too
    assert len(bad) and bad["fault"].isin(list(attribution.FAULTS)).all(), bad[["item", "variant", "fault"]]
    assert (bad["evidence"].str.len() > 0).all() and (card.loc[~card.index.isin(bad.index), "fault"] == "").all()
    intro = page(built_report, "intro").get_text(" ")
    assert f"Of the {len(claims)} claim rows that did not reproduce" in intro and "Who is at fault." in intro
    pages = [page(built_report, p) for p in ("intro", "scorecard", *built_chapters(built_report))]
    text = " ".join(soup.get_text(" ") for soup in pages)
    assert "at fault, and the evidence" in text
    for code in attribution.FAULTS:                    # the book says 'the paper's text', never paper_text
        assert not re.search(rf"\b{code}\b", text), code


@pytest.mark.slow
def test_scorecard_page_counts_every_paper_in_integers(built_report):
    soup = page(built_report, "scorecard")
    table = soup.select_one("table.headline")
    assert table is not None and len(table.select("tbody tr.paper")) == len(built_chapters(built_report))
    for t in soup.select("table.repro"):
        for td in t.select("td"):
            text = td.get_text(" ", strip=True)
            assert not re.fullmatch(r"\d+\.0", text), text                 # a count printed as a float
    text = soup.get_text(" ")
    for word in ("target met", "issue's", "n_seeds", "ours_mean"):
        assert word not in text, word


@pytest.mark.slow
def test_provenance_page_gives_the_seeds_the_runs_used(built_report):
    repo = built_report
    soup = page(repo, "provenance")
    table = next(t for t in soup.find_all("table") if "seeds per point" in t.get_text())
    header = [th.get_text(strip=True) for th in table.find_all("th")]
    col = header.index("seeds per point")
    shown = {tr.find_all("td")[0].get_text(strip=True): tr.find_all("td")[col].get_text(strip=True)
             for tr in table.select("tbody tr")}
    assert shown, "no study listed"
    for study, seeds in shown.items():
        per_point = {}
        for f in (repo / "results/runs" / study).rglob("seeds~*.jsonl"):       # what the runs used
            for line in f.read_text().splitlines():
                if line.strip():
                    rec = json.loads(line)
                    per_point.setdefault(rec["point_path"], set()).add(rec["seed"])
        counts = sorted({len(s) for s in per_point.values()})
        expected = f"{counts[0]}" if len(counts) == 1 else f"{counts[0]}-{counts[-1]}"
        assert seeds == expected, (study, seeds, expected)
    assert shown["tb_matrix"] == "2"          # its study file sets 2; a metric with n 0 once made this "0-2"


def document_index(soup: BeautifulSoup) -> dict:
    """Each element of the page -> its position in document order."""
    return {id(el): i for i, el in enumerate(soup.find_all(True))}


def unfolded(el) -> bool:
    """Shown when the page opens: in no closed <details> (or in its <summary>)."""
    return not any(d.name == "details" and not d.has_attr("open") for d in el.parents) or el.find_parent("summary")


@pytest.mark.slow
def test_each_paper_chapter_and_the_scorecard_open_with_their_verdict(built_report):
    from simulator.report import verdict_box
    card = pd.read_csv(built_report / "results/scorecard.csv")
    counts = headline.counts(card, built_report / "reference/claims.yaml").set_index("chapter")   # our checks apart
    for name in [*built_chapters(built_report), "scorecard"]:
        soup = page(built_report, name)
        article = soup.select_one("article") or soup
        box = article.select_one(f"div.{verdict_box.CLASS}")
        assert box is not None, f"{name}.html has no verdict box"
        order = document_index(soup)
        first = [el for el in (article.find("img"), article.find("table")) if el is not None]
        assert first and all(order[id(box)] < order[id(el)] for el in first), f"{name}: the verdict comes after a figure or table"
        text = box.get_text(" ", strip=True)
        if name != "scorecard":
            c = counts.loc[name]
            for v in ("reproduced", "contradicted", "inconclusive", "not_testable"):
                if c[v]:
                    assert f"{c[v]} {v.replace('_', ' ')}" in text, (name, v, text)
            if c["numbers"]:
                assert f"{c['agree']} of {c['numbers']} agree" in text, (name, text)
            if c["contradicted"] + c["inconclusive"]:
                assert "At fault:" in text, (name, text)


@pytest.mark.slow
def test_no_page_is_taller_than_15000_px_at_1280_px(built_report):
    from simulator.report import browser_check as bc
    report = json.loads((built_report / "results/book_check.json").read_text())
    heights = report["heights"]
    assert report["width"] == 1280 and set(heights) == set(report["pages"]) and len(heights) > 10
    tall = {p: h for p, h in heights.items() if h > bc.MAX_HEIGHT}
    assert not tall, f"pages taller than {bc.MAX_HEIGHT} px at 1,280 px: {tall}"


@pytest.mark.slow
def test_no_long_table_is_shown_unfolded(built_report):
    from simulator.report import chapter
    for name in [*built_chapters(built_report), "scorecard", "textbook", "suite", "validation"]:
        if not (built_report / HTML / f"{name}.html").exists():
            continue
        for table in page(built_report, name).select("table.dataframe"):
            rows = len(table.select("tbody tr"))
            assert rows <= chapter.LONG_TABLE or not unfolded(table), f"{name}.html shows a table of {rows} rows"


@pytest.mark.slow
def test_no_two_pages_state_one_fact_differently(built_report):
    """Versions, buffer sizes and each paper's counts (page 1, the scorecard, every verdict box) read back from
    the built pages (simulator/report/page_facts.py): one value each, the declared one for a version."""
    from simulator.report import page_facts

    pages = {p.stem: p.read_text() for p in (built_report / HTML).glob("*.html") if p.stem not in ("genindex", "search")}
    assert page_facts.disagreements(pages) == []
    found = {p: page_facts.facts(p, h) for p, h in pages.items()}
    for chapter in built_chapters(built_report):      # each paper's counts were found on page 1, scorecard and chapter
        paper = page_facts.CHAPTERS[chapter]
        for where in ("intro", "scorecard", chapter):
            assert f"compared of paper {paper}" in found[where], (where, paper)
    assert "ns-3 version" in found["method"] and "NS-2 version" in found["intro"]
