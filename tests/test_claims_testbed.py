"""Claims of the Wi-Fi testbed paper (simulator/report/claims_testbed.py) on hand-made long tables."""
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

ROOT = Path(__file__).resolve().parents[1]
from simulator.report import claims_common as cc  # noqa: E402
from simulator.report import claims_testbed as tb  # noqa: E402

ALGS = ("bbr", "cubic", "reno", "vegas")
SETUPS = ("eth_wifi", "wifi_wifi")
BACKGROUNDS = ("none", "light", "heavy")
# a grid that satisfies every claim (means; sd 1% of the mean, 10 seeds)
GOOD = {
    "throughput_mean_mbps": {"eth_wifi": dict(bbr=40, cubic=42, reno=38, vegas=10),
                             "wifi_wifi": dict(bbr=20, cubic=21, reno=19, vegas=5)},
    "ping_rtt_mean_ms": {"eth_wifi": dict(bbr=25, cubic=28, reno=22, vegas=4),
                         "wifi_wifi": dict(bbr=30, cubic=35, reno=32, vegas=160)},
    "ping_loss_pct": {"eth_wifi": dict(bbr=3, cubic=2, reno=1.5, vegas=0.1),
                      "wifi_wifi": dict(bbr=5.5, cubic=5.2, reno=3.5, vegas=0.1)},
    "cwnd_median_pkts": {"eth_wifi": dict(bbr=80, cubic=90, reno=50, vegas=5),
                         "wifi_wifi": dict(bbr=90, cubic=70, reno=40, vegas=4)},
}
HEAVY_CWND_FACTOR = {"bbr": 0.8, "cubic": 0.4, "reno": 0.3, "vegas": 0.5}   # BBR largest under heavy


def row(metric, algorithm, link_setup, background, mean, sd=None, n=10, bidir=np.nan):
    sd = 0.01 * abs(mean) if sd is None else sd
    half = 1.96 * sd / np.sqrt(n)
    return dict(study="tb_matrix", paper="testbed", point="p", model="testbed", algorithm=algorithm,
                link_setup=link_setup, background=background, bidir=bidir, metric=metric, mean=mean, sd=sd,
                n=n, ci_low=mean - half, ci_high=mean + half, run_p025=mean - 2 * sd, run_p975=mean + 2 * sd,
                run_min=mean - 2.5 * sd, run_max=mean + 2.5 * sd)


def grid(values=GOOD, override=None, metrics=None):
    """Full unidirectional grid (+ bidirectional rows, which must be ignored); background rows
    copy the baseline except cwnd, which shrinks by HEAVY_CWND_FACTOR. override:
    {(metric, alg, setup, background): mean}."""
    override = override or {}
    rows = []
    for metric, by_setup in values.items():
        if metrics and metric not in metrics:
            continue
        for s in SETUPS:
            for a in ALGS:
                for bg in BACKGROUNDS:
                    mean = by_setup[s][a]
                    if metric == "cwnd_median_pkts" and bg != "none":
                        mean *= HEAVY_CWND_FACTOR[a]
                    rows.append(row(metric, a, s, bg, override.get((metric, a, s, bg), mean)))
            for a in ("bbr", "cubic"):     # bidir rows: background empty; a contradicting value
                rows.append(row(metric, a, s, np.nan, -1000.0, bidir=True))
    return pd.DataFrame(rows)


def verdicts(table):
    rows, notes = tb.build(table, None)
    assert all(r["verdict"] in cc.VERDICTS for r in rows)
    assert [n["item"] for n in notes] == [r["item"] for r in rows]
    return {r["item"]: r["verdict"] for r in rows}


def test_all_claims_reproduced_on_a_grid_that_satisfies_them():
    v = verdicts(grid())
    assert {k: v[k] for k in ("tb-1", "tb-2", "tb-3", "tb-4", "tb-5")} == dict.fromkeys(
        ("tb-1", "tb-2", "tb-3", "tb-4", "tb-5"), "reproduced")
    # quoted numbers inside our per-run range
    assert v["RTT wifi_wifi vegas (tb-3)"] == "reproduced"
    assert v["RTT eth_wifi vegas (tb-3)"] == "reproduced"
    assert v["loss wifi_wifi reno (tb-4)"] == "reproduced"
    assert v["RTT wifi_wifi bbr (tb-3)"] == "not_reproduced"       # 30 ms +- 2%: 32.5 outside


def test_tb1_reproduced_and_contradicted():
    only = {"throughput_mean_mbps"}
    assert verdicts(grid(metrics=only))["tb-1"] == "reproduced"
    bad = grid(metrics=only, override={("throughput_mean_mbps", "reno", "wifi_wifi", "none"): 45.0})
    assert verdicts(bad)["tb-1"] == "not_reproduced"
    # a difference inside the noise is not enough
    noisy = grid(metrics=only).assign(sd=lambda d: d["mean"].abs() * 2)
    assert verdicts(noisy)["tb-1"] == "not_reproduced"


def test_tb1_other_claims_untestable_without_their_metrics():
    v = verdicts(grid(metrics={"throughput_mean_mbps"}))
    assert v["tb-3"] == v["tb-4"] == v["tb-5"] == "untestable"


def test_tb4_reproduced_and_contradicted():
    only = {"ping_loss_pct"}
    assert verdicts(grid(metrics=only))["tb-4"] == "reproduced"
    vegas_lossy = grid(metrics=only, override={("ping_loss_pct", "vegas", "wifi_wifi", "none"): 4.0})
    assert verdicts(vegas_lossy)["tb-4"] == "not_reproduced"
    reno_top = grid(metrics=only, override={("ping_loss_pct", "reno", "wifi_wifi", "none"): 7.0})
    assert verdicts(reno_top)["tb-4"] == "not_reproduced"


def test_tb2_similar_and_far_lower():
    only = {"throughput_mean_mbps"}
    assert verdicts(grid(metrics=only))["tb-2"] == "reproduced"
    spread = grid(metrics=only, override={("throughput_mean_mbps", "bbr", "eth_wifi", "none"): 60.0})
    assert verdicts(spread)["tb-2"] == "not_reproduced"          # 60 / 38 > 1.25
    vegas_close = grid(metrics=only, override={("throughput_mean_mbps", "vegas", "wifi_wifi", "none"): 12.0})
    assert verdicts(vegas_close)["tb-2"] == "not_reproduced"     # 12 > 19 / 2


def test_tb3_vegas_must_inflate_on_wifi():
    only = {"ping_rtt_mean_ms"}
    assert verdicts(grid(metrics=only))["tb-3"] == "reproduced"
    calm = grid(metrics=only, override={("ping_rtt_mean_ms", "vegas", "wifi_wifi", "none"): 9.0})
    assert verdicts(calm)["tb-3"] == "not_reproduced"


def test_tb5_background_must_shrink_every_window():
    only = {"cwnd_median_pkts"}
    assert verdicts(grid(metrics=only))["tb-5"] == "reproduced"
    bbr_grows = grid(metrics=only, override={("cwnd_median_pkts", "bbr", "eth_wifi", "heavy"): 200.0})
    assert verdicts(bbr_grows)["tb-5"] == "not_reproduced"
    cubic_top = grid(metrics=only, override={("cwnd_median_pkts", "cubic", "wifi_wifi", "heavy"): 80.0})
    assert verdicts(cubic_top)["tb-5"] == "not_reproduced"      # 80 > BBR's 72 under heavy


def test_empty_table_is_untestable():
    v = verdicts(pd.DataFrame())
    assert v == dict.fromkeys(("tb-1", "tb-2", "tb-3", "tb-4", "tb-5"), "untestable")


@pytest.mark.slow
def test_real_tables_give_an_allowed_verdict_for_every_claim(built_report):
    """Tables of the tiny test profile's real run (fixture built_report: the whole tb_matrix)."""
    path = built_report / "results" / "tables" / "tb_matrix.csv"
    rows, notes = tb.build(cc.load_tables([path]), None)
    card = pd.DataFrame(rows, columns=cc.SCORECARD_COLUMNS)
    for cid in ("tb-1", "tb-2", "tb-3", "tb-4", "tb-5"):
        got = card[card["item"] == cid]
        assert len(got) == 1 and got["verdict"].iloc[0] in cc.VERDICTS
    quoted = card[card["paper_value"].notna()]
    assert len(quoted) == len(tb.QUOTED) and quoted["verdict"].isin(["reproduced", "not_reproduced"]).all()
    assert all(n["note"] for n in notes)
