"""Facts the built book states on several pages, read back from its HTML, and where two pages disagree.

One fact, one place: a version, a buffer size or a paper's counts is computed or declared once, but it is
printed on several pages (page 1, a chapter's verdict box, the scorecard, the method and artifact pages).
This module reads them back from the built pages so a test (tests/test_book_pages.py) fails when two pages
state the same fact differently:

- versions of the tools in reader text (tables and code excluded, where "ns-3" heads a column of values):
  VERSIONS names each tool and the version the repository declares for it (`declared`);
- buffer sizes: "5 BDP buffer (1727 packets)" on one page and "1728 packets (5 BDP)" on another;
- each paper's counts: the "compared" cell and the claim-row verdict counts of page 1's table, of the
  scorecard's table, and of every verdict box (a chapter's, the scorecard's).

`disagreements(pages)` returns one sentence per fact stated two ways: the fact, each value and the pages
that state it.
"""
from __future__ import annotations

import re

from bs4 import BeautifulSoup

from simulator import peers
from simulator.report import headline
from simulator.report.verdicts import VERDICTS

# tool -> (how reader text names a version of it, the version the repository runs: reference/peers.yaml)
# (a version is not followed by % or a unit: "ns-3 96.3% (sd 0.013)" is a value of ns-3's runs)
VERSIONS = {"ns-3": (re.compile(r"\bns-3 (\d+\.\d+)(?![\d%]| ?(?:ms|s|Mbit|packets)\b)"), peers.version("ns3")),
            "NS-2": (re.compile(r"\bNS-2 (\d+\.\d+)(?![\d%]| ?(?:ms|s|Mbit|packets)\b)"), peers.version("ns2")),
            "Python": (re.compile(r"\bPython (\d+\.\d+)"), None)}      # None: whatever runs, but one on every page
BUFFER = [re.compile(r"\b(\d+(?:\.\d+)?) BDP(?: buffer)? \((\d+) packets"),       # "5 BDP buffer (1727 packets"
          re.compile(r"\b(\d+) packets \((\d+(?:\.\d+)?) BDP\)")]                  # "1728 packets (5 BDP)"
TITLES = {title: paper for paper, (title, _) in headline.PAPERS.items()}
CHAPTERS = {page: paper for paper, (_, page) in headline.PAPERS.items()}


def prose(soup: BeautifulSoup) -> str:
    """The page's reader text: without tables, code, scripts and styles, whitespace collapsed."""
    soup = BeautifulSoup(str(soup), "html.parser")
    for tag in soup.select("table, pre, code, script, style, .cell_input, nav, header, footer"):
        tag.decompose()
    return re.sub(r"\s+", " ", soup.get_text(" "))


def versions(text: str) -> dict:
    """{'ns-3 version': {'3.44'}, ...}: every version of each tool the text names."""
    return {f"{tool} version": set(pattern.findall(text)) for tool, (pattern, _) in VERSIONS.items()
            if pattern.search(text)}


def buffers(text: str) -> dict:
    """{'packets in a 5 BDP buffer': {'1727'}}."""
    found: dict = {}
    for bdp, pkts in BUFFER[0].findall(text):
        found.setdefault(f"packets in a {float(bdp):g} BDP buffer", set()).add(pkts)
    for pkts, bdp in BUFFER[1].findall(text):
        found.setdefault(f"packets in a {float(bdp):g} BDP buffer", set()).add(pkts)
    return found


def _verdict_counts(text: str) -> str:
    """'4 reproduced, 4 contradicted, 1 inconclusive' from a verdict box's 'Claim rows:' sentence."""
    got = dict((v, n) for n, v in re.findall(r"(\d+) (" + "|".join(v.replace("_", " ") for v in VERDICTS) + ")", text))
    return ", ".join(f"{got.get(v.replace('_', ' '), '0')} {v.replace('_', ' ')}" for v in VERDICTS)


def table_counts(soup: BeautifulSoup) -> dict:
    """{paper: {'compared': ..., 'claim rows': ...}} of the papers' table (page 1, scorecard)."""
    out = {}
    for row in soup.select("table.headline tr.paper"):
        cells = [td.get_text(" ", strip=True) for td in row.find_all("td")]
        paper = TITLES.get(cells[0])
        if paper:
            counts = cells[-len(VERDICTS):]
            out[paper] = {"compared": cells[1],
                          "claim rows": ", ".join(f"{n} {v.replace('_', ' ')}" for n, v in zip(counts, VERDICTS))}
    return out


def box_counts(soup: BeautifulSoup, page: str) -> dict:
    """{paper: {'compared': ..., 'claim rows': ...}} of the verdict box (titled per paper on the scorecard)."""
    out = {}
    for para in soup.select(".verdict-box p:not(.verdict-title)"):
        text = re.sub(r"\s+", " ", para.get_text(" ", strip=True))
        title = para.find("b").get_text(strip=True).rstrip(".") if para.find("b") else ""
        paper = TITLES.get(title) or CHAPTERS.get(page)
        compared = re.search(r"Compared: (.*?)\. Claim rows:", text)
        rows = re.search(r"Claim rows: (.*?)\.", text)
        if paper and compared:
            out[paper] = {"compared": compared.group(1), "claim rows": _verdict_counts(rows.group(1) if rows else "")}
    return out


def facts(page: str, html: str) -> dict:
    """{fact: set of values} that the page states."""
    soup = BeautifulSoup(html, "html.parser")
    text = prose(soup)
    found = {**versions(text), **buffers(text)}
    for paper, counts in {**table_counts(soup), **box_counts(soup, page)}.items():
        for what, value in counts.items():
            found.setdefault(f"{what} of paper {paper}", set()).add(value)
    return found


def disagreements(pages: dict) -> list[str]:
    """One sentence per fact that the pages ({page name: html}) state in more than one way, or a version
    other than the one declared: 'ns-3 version: 3.44 on intro, method; 3.41 on qtcol'."""
    seen: dict = {}
    for page, html in pages.items():
        for fact, values in facts(page, html).items():
            for v in values:
                seen.setdefault(fact, {}).setdefault(v, []).append(page)
    out = []
    for fact, by_value in sorted(seen.items()):
        tool = fact.removesuffix(" version")
        declared = VERSIONS[tool][1] if tool in VERSIONS else None
        if len(by_value) > 1 or (declared and set(by_value) != {declared}):
            out.append(f"{fact}: " + "; ".join(f"{v} on {', '.join(sorted(p))}" for v, p in sorted(by_value.items()))
                       + (f" (declared: {declared})" if declared else ""))
    return out
