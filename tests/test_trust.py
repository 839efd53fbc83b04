"""The first page's "how far to trust each chapter" table (simulator/report/trust.py)."""
import pandas as pd

from simulator.report import headline, trust


def counts():
    rows = pd.DataFrame([
        {"paper": "qtcol", "item": "qt-1", "metric": "m", "variant": "", "verdict": "reproduced", "n_seeds": 5},
        {"paper": "qtcol", "item": "qt-2", "metric": "m", "variant": "", "verdict": "contradicted", "n_seeds": 5},
        {"paper": "testbed", "item": "tb-1", "metric": "m", "variant": "", "verdict": "inconclusive", "n_seeds": 5}])
    return headline.paper_counts(rows)


def agreement(inside, outside, missing=0):
    return pd.DataFrame({"agrees": [True] * inside + [False] * outside + [None] * missing})


def test_ns3_cells_back_the_dumbbell_chapters_counting_only_cells_compared():
    rows = trust.ns3_rows(agreement(43, 21, missing=2))
    assert [(r["chapter"], r["inside"], r["total"], r["page"]) for r in rows] == [
        ("qtcol", 43, 64, "validation"), ("mininet", 43, 64, "validation")]
    assert "2 pp utilization and 15% mean RTT" in rows[0]["check"]


def test_a_chapter_without_an_independent_check_says_so_and_links_nothing():
    ev = trust.evidence(trust.ns3_rows(agreement(3, 1)))
    html = trust.trust_html(ev, counts())
    qt, tb = html.split("<tr>")[2], html.split("<tr>")[3]
    assert "<b>3 of 4</b> <a href='validation.html'>ns-3 3.44" in qt
    assert "<td>1</td><td>1</td><td>0</td><td>0</td>" in qt          # reproduced, contradicted, inconclusive, n/t
    assert "<i>the abstract Wi-Fi channel of its claims: no independent check" in tb and "href='validation" not in tb


def test_other_checks_join_through_their_evidence_file_and_a_wrong_file_is_refused(tmp_path):
    f = tmp_path / "ns2.csv"
    pd.DataFrame([{"chapter": "ns2", "check": "NS-2 2.35, goodput within 5%", "inside": 30, "total": 40,
                   "page": "ns2"}]).to_csv(f, index=False)
    assert trust.read_evidence([f])[0]["inside"] == 30
    bad = tmp_path / "bad.csv"
    pd.DataFrame([{"chapter": "ns2", "inside": 1}]).to_csv(bad, index=False)
    try:
        trust.read_evidence([bad])
    except ValueError as e:
        assert "bad.csv: missing column(s) check, total, page" in str(e)
    else:
        raise AssertionError("a file without the evidence columns was accepted")


def test_each_stacks_textbook_series_backs_the_chapters_running_that_stack(monkeypatch):
    from simulator.report import textbook

    monkeypatch.setattr(textbook, "trust_rows", lambda tables: [
        {"algorithm": "newreno", "stack": "ns3", "model": "Padhye et al. 1998", "inside": 6, "total": 6},
        {"algorithm": "cubic", "stack": "linux", "model": "RFC 9438 section 5", "inside": 4, "total": 6},
        {"algorithm": "reno", "stack": "ns2", "model": "Padhye et al. 1998", "inside": 5, "total": 6}])
    rows = trust.textbook_rows(pd.DataFrame())
    assert [(r["chapter"], r["inside"], r["total"]) for r in rows] == [
        ("qtcol", 6, 6), ("mininet", 4, 6), ("testbed", 4, 6), ("ns2", 5, 6)]
    assert rows[1]["check"] == "Cubic (Linux stack) under random loss against RFC 9438 section 5, within 15%"
    assert {r["page"] for r in rows} == {"textbook"}
