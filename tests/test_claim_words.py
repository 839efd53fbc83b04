"""The claims tables and the scorecard show a reader's words, not the scorecard's identifiers."""
import re
from pathlib import Path

from simulator import claims_files
from simulator.report import claim_words

CLAIMS = Path(__file__).resolve().parents[1] / "reference" / "claims.yaml"


def test_every_metric_a_claim_names_has_words_with_its_unit():
    names = set(re.findall(r"\bmetric: *([a-z][a-z0-9_]*)", "".join(p.read_text() for p in claims_files.files(CLAIMS))))
    assert len(names) > 10
    for name in names:
        words = claim_words.metric(name)
        assert "_" not in words and words != name or name in ("jain", "cwnd"), (name, words)


def test_a_short_description_is_translated_word_by_word():
    assert (claim_words.metric("cwnd_median_pkts: bbr eth_wifi heavy")
            == "median window (packets): BBR Ethernet-Wi-Fi heavy")
    assert claim_words.metric(float("nan")) == ""


def test_settings_named_for_a_reader_and_ns2_settings_kept():
    assert claim_words.setting("ns3_scenario") == "the paper's ns-3 scenario"
    assert claim_words.setting("sim") == "our model of the testbed"
    assert claim_words.setting("nocap, 2 flows") == "nocap, 2 flows"   # the NS-2 chapter's own names
