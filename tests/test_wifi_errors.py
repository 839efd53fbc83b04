"""The SNR error model (simulator/net/wifi_phy.py log_bit_success, error_model: snr): NIST's OFDM model as
ns-3's NistErrorRateModel applies it to HT and VHT, pinned to ns-3's own values for every MCS."""
import importlib.util
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from simulator.net import wifi_phy

ROOT = Path(__file__).resolve().parents[1]
SNRS_DB = [x / 2 for x in range(0, 81)]         # 0 to 40 dB in 0.5 dB steps
MPDU_BITS = 8 * 1538

NS3_VALUES = r"""
import json, sys
from ns import ns
m = ns.NistErrorRateModel()
out = {}
for mcs in range(10):
    mode = getattr(ns.VhtPhy, f"GetVhtMcs{mcs}")()
    tx = ns.WifiTxVector(mode, 20, ns.WIFI_PREAMBLE_VHT_SU, 800, 1, 1, 0, 80, False)
    out[mcs] = [m.GetChunkSuccessRate(mode, tx, 10 ** (s / 10), int(sys.argv[1])) for s in json.loads(sys.argv[2])]
print("VALUES" + json.dumps(out))
"""


def test_the_uncoded_bit_error_rates_are_the_textbook_ones():
    snr = 10 ** (7 / 10)
    assert wifi_phy.qam_ber(snr, 1) == pytest.approx(0.5 * math.erfc(math.sqrt(snr)))          # BPSK
    assert wifi_phy.qam_ber(snr, 2) == pytest.approx(0.5 * math.erfc(math.sqrt(snr / 2)))      # QPSK
    assert wifi_phy.qam_ber(snr, 4) == pytest.approx(0.375 * math.erfc(math.sqrt(snr / 10)))   # 16-QAM
    assert wifi_phy.qam_ber(snr, 6) == pytest.approx(7 / 24 * math.erfc(math.sqrt(snr / 42)))  # 64-QAM


def test_errors_fall_with_the_snr_and_rise_with_the_mcs():
    per = [[wifi_phy.mpdu_error_rate(s, m, 1538) for s in SNRS_DB] for m in range(10)]
    for row in per:
        assert all(a >= b for a, b in zip(row, row[1:]))
    for low, high in zip(per, per[1:]):
        assert all(a <= b + 1e-12 for a, b in zip(low, high))


def test_mpdu_success_equals_ns3_nist_error_rate_model_for_every_mcs():
    if importlib.util.find_spec("ns") is None:
        pytest.skip("ns-3's Python bindings are not installed (the optional ns3 extra: pip install -e \".[ns3]\")")
    done = subprocess.run([sys.executable, "-c", NS3_VALUES, str(MPDU_BITS), json.dumps(SNRS_DB)], cwd=ROOT,
                          check=True, capture_output=True, text=True, timeout=600)
    theirs = json.loads(done.stdout.split("VALUES", 1)[1])
    compared = 0
    for mcs, row in theirs.items():
        for snr, value in zip(SNRS_DB, row):
            ours = math.exp(MPDU_BITS * wifi_phy.log_bit_success(snr, int(mcs)))
            assert ours == pytest.approx(value, rel=1e-9, abs=1e-12), (mcs, snr)
            compared += 0 < value < 1
    assert compared > 100          # the curves' slopes, not only their flat ends, were compared
