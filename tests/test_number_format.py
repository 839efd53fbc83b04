"""Numbers in the report's tables (simulator/report/number_format.py)."""
import pandas as pd
import pytest

from simulator.report import number_format as nf


def test_numbers():
    assert [nf.num(v) for v in (20.0, 0.41912, 1234.5, 5.206e-14, -3e-12, float("nan"), None, "mesh")] == [
        "20", "0.419", "1234", "0", "0", "–", "–", "mesh"]
    assert nf.num(0.000123) == "0.000123" and nf.num(2.5, 2) == "2.5"
    assert nf.num(9.33e-06) == "9.33×10⁻⁶" and nf.num(2e-5) == "2×10⁻⁵"     # never "9.33e-06"


def test_mean_with_ci():
    assert nf.mean_ci(2.0, 1.0, 3.0) == "2 [1, 3]"
    assert nf.mean_ci(20.0, 20.0, 20.0) == "20 (deterministic)"   # every seed the same: no "[20, 20]"
    assert nf.mean_ci(96.38, 96.38, 96.38, 4) == "96.38 (deterministic)"
    assert nf.mean_ci(5.0, float("nan"), float("nan")) == "5"   # one seed: no interval at all
    assert nf.mean_ci_html(0.9638, 0.9638, 0.9638, bold=True) == "<b>0.964</b> <small>deterministic</small>"
    assert nf.mean_ci_html(2.0, 1.0, 3.0) == "2 <small>[1, 3]</small>"
    assert nf.mean_ci(2.5, -29.27, 34.27) == "2.5 [0, 34.3]"    # cut at 0
    assert nf.mean_ci(-1.0, -2.0, 0.5, lower=None) == "-1 [-2, 0.5]"


def test_metric_columns_and_integers():
    rows = pd.DataFrame([{"p": p, "metric": m, "mean": 1.23456, "ci_low": 1.0, "ci_high": 2.0}
                         for p in (2, 1) for m in ("b", "a", "c")])
    wide = nf.metric_columns(rows, ["p"], {"c": "C (s)", "a": "A (%)"})
    assert list(wide.columns) == ["C (s)", "A (%)"] and list(wide.index) == [1, 2]
    assert wide.loc[1, "A (%)"] == "1.23 [1, 2]"
    ints = nf.integers(pd.DataFrame({"n": [1.0, 2.0], "x": [0.5, 1.0]}))
    assert ints["n"].dtype.kind == "i" and ints["x"].dtype.kind == "f"


@pytest.mark.parametrize("p, text", [
    (0.0, "p < 10⁻⁶"), (1e-130, "p < 10⁻⁶"), (3.2e-4, "p = 3×10⁻⁴"), (0.0321, "p = 0.032"),
    (0.5, "p = 0.5"), (1.0, "p > 0.99"), (float("nan"), "no test"),
])
def test_p_values_read_as_a_reader_reads_them(p, text):
    assert nf.p_value(p) == text
