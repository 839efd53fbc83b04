"""The papers' stated numbers beside ours (simulator/report/paper_values.py): conditions, selection,
text (ranges as ranges), marks and the caption sentence."""
import matplotlib

matplotlib.use("Agg")

from pathlib import Path  # noqa: E402

import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
import pandas as pd  # noqa: E402

from simulator.report import figure_series, paper_values as pv  # noqa: E402

REF = Path(__file__).resolve().parents[1] / "reference"


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


def test_conditions():
    assert pv.holds("", {}) and pv.holds(float("nan"), {"flows": 1})
    assert pv.holds("flows>1", {"flows": 3}) and not pv.holds("flows>1", {"flows": 1})
    assert pv.holds("queue=fq;flows>1", {"queue": "fq", "flows": 2}) and not pv.holds("queue=fq", {"flows": 2})


def test_select_and_text():
    ns2 = pv.load(REF, "ns2")
    vegas = pv.select(ns2, "ns2_flows", "cwnd_mean", "vegas", flows=3)
    assert len(vegas) == 1 and pv.text(vegas.iloc[0]) == "3 packets"
    assert pv.select(ns2, "ns2_flows", "cwnd_mean", "vegas", flows=1).empty
    reno = pv.select(ns2, "ns2_flows", "cwnd_mean", "reno", flows=2).iloc[0]
    assert pv.text(reno) == "3–4 packets"
    loss = pv.select(pv.load(REF, "testbed"), "tb_wifi_matrix", "ping_loss_pct", "bbr", link_setup="wifi_wifi").iloc[0]
    assert pv.text(loss) == "5–6%" and pv.value(loss) == "5–6"
    assert pv.load(REF, "mm1").empty and pv.select(None, "s", "m").empty


def test_marks_ranges_as_bands_values_as_diamonds_and_the_caption_names_them():
    numbers = pv.load(REF, "testbed")
    fig, ax = plt.subplots()
    for i, alg in enumerate(["bbr", "cubic", "vegas"]):
        r = pv.select(numbers, "tb_wifi_matrix", "ping_rtt_mean_ms", alg, link_setup="wifi_wifi").iloc[0]
        pv.mark(ax, r, x=i, context="WiFi-WiFi")
    assert len(ax.patches) == 2 and len(ax.get_lines()) == 1         # two hatched bands, one diamond
    band = ax.patches[0]
    assert (band.get_y(), band.get_y() + band.get_height()) == (25, 40)
    assert pv.drawn(fig) and pv.described(fig) == (
        "WiFi-WiFi: BBR and Cubic 25–40 ms, Vegas 160 ms (Results & Analysis, RTT)")
    assert [h.get_label() for h in pv.handles()] == [pv.RANGE_LABEL, pv.VALUE_LABEL]
    levels = plt.figure().add_subplot()
    row = pd.Series({"low": 3.0, "high": 3.0, "algorithm": "vegas", "source": "Figure 4", "words": "around 3",
                     "unit": "packets"})
    pv.mark(levels, row)
    assert levels.get_lines()[0].get_linestyle() == "--"
    assert figure_series.frame(levels.figure)["paper_low"].tolist() == [3.0]
    assert not pv.drawn(plt.figure())


def test_every_paper_mark_is_drawn_the_book_way():
    """paper_values draws through paper_marks: every mark is grey, hollow and labelled 'paper...', whatever
    its kind (band, box, diamond, line), so one legend convention holds across the book."""
    from matplotlib.colors import to_rgba

    from simulator.report import paper_marks

    greys = {to_rgba(paper_marks.GREY), to_rgba(paper_marks.BAND_GREY)}
    ax = plt.figure().add_subplot()
    rng = pd.Series({"low": 2.0, "high": 4.0, "algorithm": "reno", "source": "S", "words": "w", "unit": "ms"})
    one = rng.copy()
    one["high"] = 2.0
    for r, x in [(rng, None), (one, None), (rng, 1.0), (one, 2.0)]:
        pv.mark(ax, r, x=x)
    artists = ax.get_lines() + ax.patches
    assert len(artists) == 4 and all(paper_marks.is_paper(a) for a in artists)
    for a in artists:
        edge = a.get_markeredgecolor() if hasattr(a, "get_markeredgecolor") else a.get_edgecolor()
        assert to_rgba(edge) in greys or to_rgba(a.get_color() if hasattr(a, "get_color") else edge) in greys
    for patch in ax.patches:
        assert patch.get_facecolor()[3] == 0 and patch.get_hatch()    # hollow, hatched
