"""Against closed-form models (simulator/report/textbook.py, notebooks/textbook.ipynb): the closed forms
against hand calculations, the stacks' constants against their presets, and the chapter's notebook run
on real (short) simulations of the study's own kinds of point."""
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
import yaml

from simulator.report import aggregate
from simulator.report import textbook as tb, textbook_models as tm

ROOT = Path(__file__).resolve().parents[1]


def test_mathis_by_hand():
    # sqrt(3/2) / (0.2 s x sqrt(1e-4)) = 1.22474 / 0.002
    assert tm.mathis(0.2, 1e-4, math.sqrt(1.5)) == pytest.approx(612.372, rel=1e-5)


def test_padhye_by_hand():
    # RTT sqrt(2p/3) = 0.2 x 0.0816497 = 0.0163299; T0 min(1, 3 sqrt(3p/8)) p (1 + 32 p^2)
    # = 0.4 x 0.1837117 x 0.01 x 1.0032 = 0.0007372; 1 / 0.0170671
    assert tm.padhye(0.2, 0.01, 1, 0.4) == pytest.approx(58.592, rel=1e-4)


def test_padhye_tends_to_mathis_with_c_sqrt_3_over_2b_when_timeouts_vanish():
    for b in (1, 2):
        assert tm.padhye(0.1, 1e-7, b, 1.0) / tm.mathis(0.1, 1e-7, math.sqrt(3 / (2 * b))) == pytest.approx(1, abs=2e-3)


def test_rfc9438_regions_by_hand():
    # (0.4 x 3.7 / 1.2)^(1/4) = 1.053826; 0.2^0.75 = 0.299070; (1e-3)^0.75 = 0.0056234
    assert tm.cubic_window(0.2, 1e-3) == pytest.approx(56.046, rel=1e-4)
    assert tm.reno_friendly_window(1e-3) == pytest.approx(math.sqrt(1500))
    assert tm.cubic_rfc9438(0.2, 1e-3) == pytest.approx(56.046 / 0.2, rel=1e-4)       # CUBIC region larger
    assert tm.cubic_rfc9438(0.2, 0.03) == pytest.approx(math.sqrt(50) / 0.2)          # Reno-friendly larger (4.37 < 7.07)


def test_stack_constants_follow_from_the_presets():
    assert tm.mathis_constant("ns2") == pytest.approx(math.sqrt(3 / 2))   # an ACK per packet
    assert tm.mathis_constant("linux") == pytest.approx(math.sqrt(3 / 2))  # delayed ACKs, byte counting
    assert tm.mathis_constant("ns3") == pytest.approx(math.sqrt(3 / 4))    # delayed ACKs counted per ACK
    assert [tm.packets_per_increment(s) for s in ("ns2", "ns3", "linux")] == [1, 2, 1]
    assert tm.timeout_s("linux", 0.2) == pytest.approx(0.4)                # SRTT + 200 ms
    assert tm.timeout_s("ns3", 0.2) == pytest.approx(1.0)                  # MinRto 1 s
    assert tm.timeout_s("ns2", 0.3) == pytest.approx(0.3)                  # max(SRTT, 0.2 s)


def test_fitted_exponent_of_a_power_law():
    ps = [1e-4, 1e-3, 1e-2]
    assert tb.exponent(ps, [3 * p ** -0.5 for p in ps]) == pytest.approx(-0.5)


def test_reason_names_the_timeouts_of_a_point_below_mathis():
    row = {"inside": False, "model": "mathis", "timeouts": 30.0, "timeouts_per_loss": 0.4, "rtt_ratio": 1.0,
           "loss_ratio": 1.0, "inflight_bdp": 0.0}
    assert "timeouts: 30 per run, 40% of the losses (Mathis et al. model none)" in tb.reason(row)
    assert tb.reason({**row, "inside": True}) == ""


TINY = {
    "study": "textbook_loss", "paper": "textbook", "title": "tiny", "model": "dumbbell", "seeds": 2,
    "grids": [
        {"algorithm": ["newreno"], "stack": ["ns3", "ns2"], "loss_fwd_pct": [0.3, 3],
         "bottleneck_mbps": [100], "duration": [40], "warmup": [10]},
        {"algorithm": ["bbr"], "stack": ["linux"], "loss_fwd_pct": [0.3, 20],
         "bottleneck_mbps": [10], "duration": [20], "warmup": [5]},
    ],
    "fixed": {"delay_ms": 100, "buffer_pkts": 20000, "sample_interval": 1.0},
}


@pytest.fixture(scope="module")
def tiny_table(tmp_path_factory):
    """The study's kinds of point, short and with 2 seeds, simulated and aggregated as the workflow does."""
    from simulator.study import load_study
    d = tmp_path_factory.mktemp("textbook")
    study_file = d / "textbook_loss.yaml"
    study_file.write_text(yaml.safe_dump(TINY, sort_keys=False))
    files = []
    for point in load_study(study_file).points():
        out = d / f"{point.path.replace('/', '_')}.jsonl"
        subprocess.run([sys.executable, "-m", "simulator", "batch", str(study_file), "--point-path", point.path,
                        "--seeds", "1-2", "--out", str(out)], check=True, cwd=ROOT)
        files.append(out)
    table = aggregate.table(aggregate.read_records(files))
    path = d / "textbook_loss.csv"
    table.to_csv(path, index=False)
    return table, path


def test_comparison_and_trust_rows_count_every_point(tiny_table):
    table, _ = tiny_table
    cmp = tb.comparison(table)
    assert len(cmp) == 2 * 2 * 2 + 2                       # NewReno: 2 stacks x 2 rates x 2 models; BBR 2
    rows = tb.trust_rows(table)
    assert [(r["algorithm"], r["stack"], r["total"]) for r in rows] == [
        ("newreno", "ns2", 2), ("newreno", "ns3", 2), ("bbr", "linux", 2)]
    for r in rows:                                          # inside counts the counted model's verdicts
        g = cmp[(cmp["algorithm"] == r["algorithm"]) & (cmp["stack"] == r["stack"]) & cmp["counted"]]
        assert r["inside"] == int(g.inside.sum())
    bbr = cmp[cmp.algorithm == "bbr"].sort_values("p")
    assert bbr.ratio.iloc[-1] < bbr.ratio.iloc[0]            # 20% loss costs BBR more than 0.3%


def test_chapter_notebook_runs_on_real_runs(tiny_table, tmp_path):
    _, table_path = tiny_table
    nb = tmp_path / "textbook.ipynb"
    params = {"table_files": [str(table_path)], "mm1_table_files": [], "figures_dir": str(tmp_path / "f"),
              "downloads_dir": str(tmp_path / "d"), "downloads_url": "_static/downloads/textbook"}
    run = subprocess.run([sys.executable, "-m", "papermill", str(ROOT / "notebooks/textbook.ipynb"), str(nb),
                          "-k", "python3", "-y", json.dumps(params), "--cwd", str(tmp_path)],
                         capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert run.returncode == 0, run.stderr[-2000:]
    text = nb.read_text()
    assert "Traceback" not in text and "Error" not in text
    assert {p.name for p in (tmp_path / "f").iterdir()} >= {"textbook_reno.png", "textbook_bbr.png"}
    assert (tmp_path / "d" / "textbook_outside.csv").exists() or "inside ±15% of its models" in text
    shown = pd.read_csv(tmp_path / "d" / "textbook_reno.csv")
    assert set(shown["stack"]) == {"ns2", "ns3"}
    assert "mm1_analytic" in text                            # the M/M/1/K section says its study is absent

