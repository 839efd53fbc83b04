"""One fact, one place: what the M/M/1 paper's code reproduces is counted once (figures_mm1_checks.replay_summary)
and stated from that count on the M/M/1 chapter and on the page on the papers' published code."""
from pathlib import Path

import pandas as pd

from simulator.report import book
from simulator.report.papers.mm1 import checks as figures_mm1_checks
from simulator.report.papers.mm1 import scorecard as scorecard_mm1
from simulator.scenarios.mm1_queue import run_name

ROOT = Path(__file__).resolve().parents[1]
REFERENCE = scorecard_mm1.load_reference(ROOT / "reference" / "mm1" / "jackson_mm1_tables.csv")


def replay_tables(tmp_path, off=None) -> list:
    """The replay studies' tables printing every published cell as the paper does but the cells in `off`
    (reference row index -> value replayed instead)."""
    off = off or {}
    files = []
    for sweep, rows in REFERENCE.groupby("sweep"):
        t = pd.DataFrame([{"study": f"mm1_replay_{sweep}", "algorithm": run_name("as_published", r.algorithm),
                           "metric": r.metric, sweep: r.x, "mean": off.get(i, float(r.value_text))}
                          for i, r in rows.iterrows()])
        files.append(tmp_path / f"mm1_replay_{sweep}.csv")
        t.to_csv(files[-1], index=False)
    return files


def test_the_published_code_page_and_the_chapter_state_one_replay_count(tmp_path):
    """Cell 4 (Table V lambda=10 Tahoe, 9.589) replayed as 9.588 and cell 0 as 5.0: both pages say 106 of 108
    exactly, 1 within the last digit, and no longer that the script reproduces only the lambda = 10 column."""
    files = replay_tables(tmp_path, {4: 9.588, 0: 5.0})
    audit = figures_mm1_checks.replay_audit(pd.concat([pd.read_csv(f) for f in files]), REFERENCE)
    summary = figures_mm1_checks.replay_summary(audit)
    assert summary.startswith("106 of the 108 published cells exactly as the paper does and 1 more within one unit")
    assert "Table V λ=10 Tahoe: 9.588 against the printed 9.589" in summary
    chapter = figures_mm1_checks.replay_statement(audit)
    page = figures_mm1_checks.replay_block(files, ROOT / "reference" / "claims.yaml")
    assert "**106 of the 108 published cells exactly as the paper does**" in chapter and summary in page
    assert "8 of the 9 columns" in page                       # lambda=5 holds the cell that differs
    source = (ROOT / "book" / "published_code.md").read_text()
    assert "{{ mm1_replay }}" in source and "reproduces the column" not in source


def test_the_published_code_page_is_filled_when_the_book_is_made(tmp_path):
    (tmp_path / "published_code.md").write_text("# Code\n\n{{ mm1_replay }}\n")
    book.write_page_slots(tmp_path, replay_tables(tmp_path), ROOT / "reference" / "claims.yaml")
    text = (tmp_path / "published_code.md").read_text()
    assert "{{" not in text and "108 of the 108 published cells exactly" in text
    (tmp_path / "published_code.md").write_text("{{ mm1_replay }}")
    book.write_page_slots(tmp_path, [], ROOT / "reference" / "claims.yaml")
    assert "not enabled in this build" in (tmp_path / "published_code.md").read_text()


# --------------------------------------------------------------------------- facts stated on several pages
from simulator.report import headline, page_facts, verdict_box  # noqa: E402


def html(body: str) -> str:
    return f"<html><body><main>{body}</main></body></html>"


def counts_frame(card_rows, tmp_path):
    claims = tmp_path / "claims.yaml"
    claims.write_text("claims: []\n")
    return headline.counts(pd.DataFrame(card_rows), claims)


CARD = [{"paper": "qtcol", "item": i, "variant": "ns3_scenario", "metric": "m", "verdict": v, "n_seeds": 10}
        for i, v in (("qt-1", "reproduced"), ("qt-2", "contradicted"))]


def test_pages_that_agree_have_no_disagreement(tmp_path):
    counts = counts_frame(CARD, tmp_path)
    pages = {"intro": html("<p>Checked against ns-3 3.44 and NS-2 2.35.</p>" + headline.headline_html(counts)),
             "qtcol": html(verdict_box.box_html(counts) + "<p>a 5 BDP buffer (1727 packets) and ns-3 96.3% (sd 1)</p>"
                           "<table><tr><th>ns-3</th><td>ns-3 58.5</td></tr></table>"),
             "scorecard": html(headline.headline_html(counts) + verdict_box.box_html(counts, titled=True)),
             "validation": html("<p>1727 packets (5 BDP) as in ns-3 3.44.</p>")}
    found = {p: page_facts.facts(p, h) for p, h in pages.items()}
    assert found["qtcol"]["compared of paper qtcol"] == found["intro"]["compared of paper qtcol"] == {"2 claims of the paper"}
    assert found["scorecard"]["claim rows of paper qtcol"] == {"1 reproduced, 1 contradicted, 0 inconclusive, 0 not testable"}
    assert found["qtcol"]["packets in a 5 BDP buffer"] == found["validation"]["packets in a 5 BDP buffer"] == {"1727"}
    assert found["qtcol"].get("ns-3 version") is None          # a value of ns-3's runs and a table are no version
    assert page_facts.disagreements(pages) == []


def test_two_pages_stating_one_fact_differently_are_named(tmp_path):
    counts = counts_frame(CARD, tmp_path)
    other = counts_frame(CARD[:1], tmp_path)                   # a verdict box counted from another scorecard
    pages = {"intro": html("<p>ns-3 3.44</p>" + headline.headline_html(counts)),
             "method": html("<p>the authors' ns-3 3.41</p>"),
             "qtcol": html(verdict_box.box_html(other) + "<p>a 5 BDP buffer (1727 packets)</p>"),
             "validation": html("<p>1728 packets (5 BDP)</p>")}
    found = page_facts.disagreements(pages)
    assert found == [
        "claim rows of paper qtcol: 1 reproduced, 0 contradicted, 0 inconclusive, 0 not testable on qtcol; "
        "1 reproduced, 1 contradicted, 0 inconclusive, 0 not testable on intro",
        "compared of paper qtcol: 1 claim of the paper on qtcol; 2 claims of the paper on intro",
        "ns-3 version: 3.41 on method; 3.44 on intro (declared: 3.44)",
        "packets in a 5 BDP buffer: 1727 on qtcol; 1728 on validation"]
    assert page_facts.disagreements({"artifact": html("<p>ns-3 3.43</p>")}) == [
        "ns-3 version: 3.43 on artifact (declared: 3.44)"]
